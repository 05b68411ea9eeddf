"""Making the answer: the fit checks a question asks for, the facts and sentences, composition and verification."""
