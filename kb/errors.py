"""The errors kb expects (KbError and its kinds), re-exported from the bottom layer where they are defined.

indexer/errors.py holds the classes so the indexer can raise them without importing kb; these names are the same
objects, so kb, its front ends and callers import them from here as before.
"""

from indexer.errors import BadInput, CorpusError, IndexUnavailable, KbError

__all__ = ["BadInput", "CorpusError", "IndexUnavailable", "KbError"]
