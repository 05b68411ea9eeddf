"""A stored document's record: what `kb docs list` shows and `GET /v1/documents` returns."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from kb.documents.dates import not_future
from kb.errors import BadInput

AsOfFrom = Literal["flag", "content", "metadata", "added"]
MAX_TITLE_CHARS = 200


class DocumentRecord(BaseModel):
    """One version of one document; `superseded_by` names the newer version under the same file name."""

    id: str = Field(examples=["doc-3f2a9c01b7d4"], description="doc- and the first 12 hex of the bytes' sha256")
    title: str
    file: str = Field(description="The file name it was added under")
    format: str = Field(examples=["xlsx"])
    size: int = Field(description="Bytes of the original")
    sha256: str
    added_at: str = Field(description="UTC, ISO 8601")
    as_of: str = Field(description="YYYY-MM-DD: the date its figures hold for")
    as_of_from: AsOfFrom = Field(description="Where as_of came from: the --as-of flag, a date in the content, "
                                             "the file's metadata, or the day it was added")
    chunks: int
    price_rows: int
    embedder: str
    supersedes: str | None = None
    superseded_by: str | None = None
    valid_until: str | None = Field(default=None, description="YYYY-MM-DD a quote is valid until, as it says")
    kind: str | None = Field(default=None, description="quoted (a vendor's quote), list (a price list) or paid "
                                                       "(purchase records), as kb read it")
    vendor: str | None = Field(default=None, description="From a vendor column, a title row or the file's metadata")
    warnings: list[str] = Field(default_factory=list, description="What kb read but could not use, said at add time")
    folder: str | None = Field(default=None, description="The folder `kb docs sync` / KB_SOURCES_WATCH keeps it in "
                                                         "step with (None: added by hand)")


def parse_date(text: str, field: str = "as_of") -> str:
    """YYYY-MM-DD from the caller (not in the future), or BadInput saying what is accepted."""
    try:
        date = dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise BadInput(f"{field} {text!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-11-03", field=field) \
            from None
    return not_future(date, field)


def clean_name(name: str, field: str = "file") -> str:
    """A file name as given, refused when it carries a path (../, /, \\) or control characters."""
    if not name or name in (".", "..") or any(c in name for c in "/\\\x00") or ".." in name.split("/") \
            or any(ord(c) < 32 for c in name):
        raise BadInput(f"{field} {name!r}: give a plain file name (no folders, no ../)", field=field)
    return name


def clean_title(title: str | None, fallback: str) -> str:
    """The title shown with every citation: the file name's stem when none is given."""
    if title is None:
        return fallback
    title = " ".join(title.split())
    if not title or "../" in title or "..\\" in title or len(title) > MAX_TITLE_CHARS:
        raise BadInput(f"title {title[:40]!r}: give 1-{MAX_TITLE_CHARS} characters without ../", field="title")
    return title
