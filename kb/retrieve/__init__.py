"""Retrieval: the index artifact opened, dense and lexical search, their fusion, and the question's focus."""
