"""Which converter reads a file: by its extension, checked against its first bytes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath

from indexer.documents.office import convert_docx, convert_xlsx
from indexer.documents.pdf import convert_pdf
from indexer.documents.segments import Converted, Unreadable
from indexer.documents.text import convert_csv, convert_html, convert_markdown, convert_text

Converter = Callable[[bytes, str], Converted]
CONVERTERS: dict[str, tuple[str, Converter]] = {
    ".md": ("markdown", convert_markdown), ".markdown": ("markdown", convert_markdown),
    ".html": ("html", convert_html), ".htm": ("html", convert_html),
    ".pdf": ("pdf", convert_pdf),
    ".docx": ("docx", convert_docx),
    ".xlsx": ("xlsx", convert_xlsx),
    ".csv": ("csv", convert_csv),
    ".txt": ("text", convert_text), ".text": ("text", convert_text),
}
ACCEPTED = "Markdown (.md), HTML (.html), PDF with a text layer (.pdf), DOCX, XLSX, CSV or plain text (.txt)"
_MAGIC = {"pdf": (b"%PDF-",), "docx": (b"PK\x03\x04",), "xlsx": (b"PK\x03\x04",)}
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: what Office writes for a password-protected file
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")


def format_of(name: str) -> str:
    """The format a file name says ("pdf", "xlsx", …), or Unreadable naming what is accepted."""
    suffix = PurePath(name).suffix.lower()
    if suffix not in CONVERTERS:
        raise Unreadable(f"{name}: {suffix or 'no extension'} is not a format kb reads; accepted: {ACCEPTED}")
    return CONVERTERS[suffix][0]


def convert(data: bytes, name: str, max_bytes: int) -> Converted:
    """The file's text with locations; Unreadable (one line naming the file) for anything kb cannot read."""
    fmt = format_of(name)
    if not data.strip():
        raise Unreadable(f"{name}: the file is empty; accepted: {ACCEPTED}")
    if len(data) > max_bytes:
        raise Unreadable(f"{name}: {len(data) / 2**20:.1f} MB is over the limit of {max_bytes / 2**20:.0f} MB "
                         "(KB_MAX_DOCUMENT_MB)")
    magic = _MAGIC.get(fmt)
    if magic and data.startswith(_OLE) and _ENCRYPTED in data:
        raise Unreadable(f"{name}: the {fmt.upper()} is password-protected: kb cannot read it; remove the password "
                         "(save a copy without it) and add that copy")
    if magic and data.startswith(_OLE):
        raise Unreadable(f"{name}: this is an old binary Office file (.xls/.doc) named .{fmt}: save it as .{fmt} "
                         "and add that")
    if magic and not data.lstrip()[:8].startswith(magic):
        raise Unreadable(f"{name}: the content is not {fmt.upper()} (wrong extension or a damaged file)")
    converted = CONVERTERS[PurePath(name).suffix.lower()][1](data, name)
    if not any(s.text.strip() for s in converted.segments):
        raise Unreadable(f"{name}: no text found in it; accepted: {ACCEPTED}")
    return converted
