"""PDF: the text layer page by page, and its ruled tables row by row (pdfplumber).

Chosen by measurement (README, "Teams' documents"): pypdfium2 extracts text faster but finds no tables,
and a price list in a PDF is a table. A PDF whose pages carry no text is a scan: refused ("needs OCR"),
never indexed empty.
"""

from __future__ import annotations

import io
import re
from typing import Any

from indexer.documents.segments import Converted, Segment, Unreadable, table_segments

_PDF_DATE = re.compile(r"D?:?(\d{4})(\d{2})(\d{2})")


def _metadata_date(meta: dict[str, Any]) -> str | None:
    for key in ("ModDate", "CreationDate"):
        raw = meta.get(key)
        if isinstance(raw, bytes):
            raw = raw.decode("latin-1", "replace")
        m = _PDF_DATE.match(str(raw or ""))
        if m:
            return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    return None


def _outside(bboxes: list[tuple[float, float, float, float]]) -> Any:
    def keep(obj: dict[str, Any]) -> bool:
        if obj.get("object_type") != "char":
            return True
        x, y = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
        return not any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in bboxes)
    return keep


def convert_pdf(data: bytes, name: str) -> Converted:
    """Each page's running text (outside its tables) as one segment, then each table row as one."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    out: list[Segment] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = len(pdf.pages)
            date = _metadata_date(pdf.metadata or {})
            author = _text(pdf.metadata or {}, "Author")
            for number, page in enumerate(pdf.pages, 1):
                tables = page.find_tables()
                text = page.filter(_outside([t.bbox for t in tables])).extract_text() or ""
                if text.strip():
                    out.append(Segment(text.strip(), {"page": number}))
                for table in tables:
                    rows = [[c or "" for c in row] for row in table.extract()]
                    out += table_segments(rows, lambda r, p=number: {"page": p, "row": r + 1})
    except Exception as e:
        if isinstance(e, PDFPasswordIncorrect) or any(isinstance(a, PDFPasswordIncorrect) for a in e.args):
            raise Unreadable(f"{name}: the PDF is password-protected: kb cannot read it; save a copy without the "
                             "password (print to PDF) and add that") from None
        _unreadable(e, name)
        raise
    if not out:
        raise Unreadable(f"{name}: its {pages} page(s) have no text layer (a scan): it needs OCR first; "
                         "kb reads PDFs with text")
    return Converted("pdf", out, date, pages, author)


def _unreadable(e: Exception, name: str) -> None:
    """Unreadable for the damage a PDF library reports (pdfminer raises its own classes for every kind)."""
    from pdfminer.pdfparser import PDFSyntaxError

    known = (PDFSyntaxError, ValueError, KeyError, TypeError, AttributeError, OSError, RecursionError)
    if isinstance(e, known) or type(e).__module__.startswith(("pdfminer", "pdfplumber")):
        raise Unreadable(f"{name}: not a readable PDF ({type(e).__name__}); send a PDF with a text layer") from None


def _text(meta: dict[str, Any], key: str) -> str | None:
    """A text field of the PDF's metadata (bytes decoded), or None when empty."""
    raw = meta.get(key)
    if isinstance(raw, bytes):
        raw = raw.decode("utf-16" if raw.startswith(b"\xfe\xff") else "latin-1", "replace")
    text = " ".join(str(raw or "").split())
    return text or None
