"""The errors kb expects, in one place: front ends map them to exit 2 / 4xx or exit 1 / 5xx.

They live in the bottom layer (indexer/) so the indexer raises them without importing kb: dependencies point one
way, service -> kb -> indexer. kb.errors re-exports the same classes, so `from kb.errors import BadInput` and
`except kb.errors.KbError` keep working for kb's code, its front ends and its users.
"""


class KbError(Exception):
    """Base of every error kb raises on purpose; the message is for people, one line."""

    exit_code = 1


class BadInput(KbError):
    """The caller's input is wrong; the message says what and how to fix it."""

    exit_code = 2

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class IndexUnavailable(KbError):
    """The index artifact is missing, damaged or built differently; the message names the fix."""


class CorpusError(KbError):
    """The corpus is malformed (a record's front matter, a missing section)."""
