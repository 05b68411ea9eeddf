"""DOCX (python-docx) and XLSX (python-calamine), after a check that the zip inside is not a bomb.

Both formats are zip archives: before a library opens one, the sizes its entries declare are summed and
bounded (and the ratio of unpacked to packed), so a 40 KB file cannot unpack to gigabytes. Python's
zipfile then stops each entry at its declared size, so a lying header cannot get past the bound either.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any

from indexer.documents.segments import Converted, Segment, Unreadable, table_segments

MAX_UNZIPPED_BYTES = 200 * 1024 * 1024  # a 20 MB spreadsheet of text unpacks to ~100 MB at most
MAX_RATIO = 200  # XML compresses ~10-30x; hundreds-fold is a bomb
MAX_ENTRIES = 10_000


def check_zip(data: bytes, name: str, kind: str) -> None:
    """Unreadable unless `data` is a zip whose entries unpack to a bounded size."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise Unreadable(f"{name}: not a readable {kind} file (damaged or not {kind}); save it again") from None
    unpacked = sum(i.file_size for i in infos)
    packed = sum(i.compress_size for i in infos) or 1
    if len(infos) > MAX_ENTRIES or unpacked > MAX_UNZIPPED_BYTES or unpacked / packed > MAX_RATIO:
        raise Unreadable(f"{name}: its contents unpack to {unpacked / 1e6:.0f} MB in {len(infos)} entries, "
                         f"over kb's bound ({MAX_UNZIPPED_BYTES // 2**20} MB, {MAX_RATIO}x): refused as a zip bomb")


def _date(value: Any) -> str | None:
    return value.date().isoformat() if isinstance(value, dt.datetime) else None


def locate_by_lines(segments: list[Segment]) -> None:
    """Give segments the lines they take in the stored text (segments joined by blank lines)."""
    line = 1
    for s in segments:
        end = line + s.text.count("\n")
        s.location = {"start_line": line, "end_line": end}
        line = end + 2


def convert_docx(data: bytes, name: str) -> Converted:
    """Paragraphs under their headings, and each table row; located by line of the extracted text."""
    check_zip(data, name, "DOCX")
    import docx
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
        out: list[Segment] = []
        heading = ""
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                out += table_segments([_docx_row(row) for row in block.rows], lambda r: {}, heading)
                continue
            text = block.text.strip()
            style = (block.style.name or "") if block.style is not None else ""
            if not text:
                continue
            if style.lower().startswith(("heading", "title", "标题")):
                heading = text
            out.append(Segment(text, {}, heading))
        date = _date(document.core_properties.modified) or _date(document.core_properties.created)
    except (KeyError, ValueError, zipfile.BadZipFile, AttributeError, TypeError) as e:
        raise Unreadable(f"{name}: not a readable DOCX file ({type(e).__name__}); save it again as .docx") from None
    except Exception as e:
        if type(e).__module__.startswith(("docx", "lxml")):
            raise Unreadable(f"{name}: not a readable DOCX file ({type(e).__name__}); save it again as .docx") from None
        raise
    locate_by_lines(out)
    return Converted("docx", out, date, metadata_author=_company(data))


def _docx_row(row: Any) -> list[str]:
    """A DOCX row's cells, a cell merged across columns once (python-docx repeats it in every column it spans)."""
    cells, seen = [], set()
    for cell in row.cells:
        cells.append("" if id(cell._tc) in seen else cell.text)
        seen.add(id(cell._tc))
    return cells


def _company(data: bytes) -> str | None:
    """The company an Office file's properties name (docProps/app.xml), if any."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        try:
            app = z.read("docProps/app.xml").decode("utf-8", "replace")
        except KeyError:
            return None
    m = re.search(r"<Company>([^<]+)</Company>", app)
    return " ".join(m.group(1).split()) or None if m else None


def _core_date(data: bytes) -> str | None:
    """The modified (else created) date in docProps/core.xml, which every Office file carries."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        try:
            core = z.read("docProps/core.xml").decode("utf-8", "replace")
        except KeyError:
            return None
    for tag in ("modified", "created"):
        m = re.search(rf"<dcterms:{tag}[^>]*>(\d{{4}}-\d{{2}}-\d{{2}})", core)
        if m:
            return m.group(1)
    return None


def convert_xlsx(data: bytes, name: str) -> Converted:
    """Every sheet's rows (the first with two cells or more names the columns), by sheet and row number.

    python-calamine, not openpyxl: 170 ms against 5.4 s for 20,000 rows (benchmarks/documents.py).
    """
    check_zip(data, name, "XLSX")
    from python_calamine import CalamineError, CalamineWorkbook

    unsaved = formulas_without_values(data)
    if unsaved:
        bad_sheet, cell = unsaved
        raise Unreadable(f"{name}: sheet {bad_sheet!r} cell {cell} holds a formula with no saved value (the file was "
                         "written by a program that does not calculate): open it in Excel or LibreOffice, save it, "
                         "and add it again")
    out: list[Segment] = []
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        for sheet_name in book.sheet_names:
            sheet = book.get_sheet_by_name(sheet_name)
            first = sheet.start[0] + 1 if sheet.start else 1  # calamine skips the empty rows above the data
            rows = [[_cell(v) for v in row] for row in sheet.to_python()]
            _fill_down(rows, sheet.merged_cell_ranges or [], sheet.start or (0, 0))
            out += table_segments(rows, lambda r, s=sheet_name, f=first: {"sheet": s, "row": f + r}, sheet_name)
        book.close()
    except (CalamineError, KeyError, ValueError, zipfile.BadZipFile, OSError, TypeError) as e:
        raise Unreadable(f"{name}: not a readable XLSX file ({type(e).__name__}); save it again as .xlsx") from None
    return Converted("xlsx", out, _core_date(data), metadata_author=_company(data))


def _fill_down(rows: list[list[str]], merged: list[Any], start: tuple[int, int]) -> None:
    """A cell merged down a column (a vendor for several rows) is every row's value, as a reader sees it; a cell
    merged across columns (a title over the table) stays in its first column only."""
    for (r0, c0), (r1, c1) in merged:
        if r1 <= r0 or c1 != c0:
            continue
        r0, r1, c = r0 - start[0], r1 - start[0], c0 - start[1]
        if not 0 <= r0 < len(rows) or c < 0:
            continue
        value = rows[r0][c] if c < len(rows[r0]) else ""
        for r in range(r0 + 1, min(r1, len(rows) - 1) + 1):
            if c < len(rows[r]) and not rows[r][c]:
                rows[r][c] = value


_ATTR = re.compile(r'([\w:]+)="([^"]*)"')
_CELL_TAG = re.compile(r"<c\b([^>]*)>")
_VALUE = re.compile(r"<v>[^<]+</v>")


def _tags(xml: str, tag: str) -> list[dict[str, str]]:
    return [dict(_ATTR.findall(attrs)) for attrs in re.findall(rf"<{tag}\b([^>]*)>", xml)]


def _cells(xml: str) -> list[tuple[str, str]]:
    """(attributes, content) of every <c> element with content (a self-closed <c/> holds nothing)."""
    out = []
    for m in _CELL_TAG.finditer(xml):
        if m.group(1).endswith("/"):
            continue
        end = xml.find("</c>", m.end())
        out.append((m.group(1), xml[m.end():end if end >= 0 else len(xml)]))
    return out


def formulas_without_values(data: bytes) -> tuple[str, str] | None:
    """(sheet, cell) of the first formula whose computed value the file does not hold, else None.

    Excel and LibreOffice save each formula's last value beside it; a file written by a script (openpyxl) has the
    formula alone, and a reader would see an empty cell where the price is."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        try:
            book = z.read("xl/workbook.xml").decode("utf-8", "replace")
            rels = {r.get("Id"): r.get("Target", "") for r in
                    _tags(z.read("xl/_rels/workbook.xml.rels").decode("utf-8", "replace"), "Relationship")}
        except KeyError:
            return None
        for sheet in _tags(book, "sheet"):
            target = (rels.get(sheet.get("r:id")) or "").lstrip("/")
            path = target if target.startswith("xl/") else f"xl/{target}"
            if path not in names:
                continue
            xml = z.read(path).decode("utf-8", "replace")
            if "<f" not in xml:
                continue
            for attrs, body in _cells(xml):
                if body and "<f" in body and not _VALUE.search(body):
                    return sheet.get("name", "?"), dict(_ATTR.findall(attrs)).get("r", "?")
    return None


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
