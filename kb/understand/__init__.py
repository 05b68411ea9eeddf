"""Reading a question: mentions, asks, follow-ups, the names registry, the lexicon, numbers as people write them."""
