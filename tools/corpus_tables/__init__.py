"""Corpus tooling: the computed tables generator and the record-honesty reading of numbers (not runtime code)."""
