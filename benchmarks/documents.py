"""Converter candidates measured on files made here (reportlab, openpyxl): speed, and what each extracts.

    .venv/bin/python benchmarks/documents.py

PDF: pdfplumber (text + ruled tables, on pdfminer.six) vs pypdfium2 (PDFium's text, no tables).
XLSX: openpyxl (read-only, values) vs python-calamine (Rust). The README quotes the figures.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support import document_files as files


def best(f, n: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    import openpyxl
    import pdfplumber
    import pypdfium2
    from python_calamine import CalamineWorkbook

    pdf = files.pdf_bytes(pages=50)

    def plumber_text() -> int:
        with pdfplumber.open(io.BytesIO(pdf)) as p:
            return sum(len(page.extract_text() or "") for page in p.pages)

    def plumber_tables() -> int:
        with pdfplumber.open(io.BytesIO(pdf)) as p:
            return sum(len(t.extract()) for page in p.pages for t in page.find_tables())

    def pdfium_text() -> int:
        doc = pypdfium2.PdfDocument(pdf)
        return sum(len(doc[i].get_textpage().get_text_range()) for i in range(len(doc)))

    print(f"PDF, 50 pages ({len(pdf) // 1024} KB), one ruled 5-row table on page 1:")
    print(f"  pdfplumber text            {best(plumber_text) * 1000:7.0f} ms  ({plumber_text()} chars)")
    print(f"  pdfplumber text + tables   {best(plumber_tables) * 1000 + best(plumber_text) * 1000:7.0f} ms  "
          f"({plumber_tables()} table rows)")
    print(f"  pypdfium2 text             {best(pdfium_text) * 1000:7.0f} ms  ({pdfium_text()} chars; no tables)")

    xlsx = files.xlsx_bytes(extra_rows=20_000)

    def with_openpyxl() -> int:
        wb = openpyxl.load_workbook(io.BytesIO(xlsx), read_only=True, data_only=True)
        n = sum(1 for ws in wb.worksheets for _ in ws.iter_rows(values_only=True))
        wb.close()
        return n

    def with_calamine() -> int:
        wb = CalamineWorkbook.from_filelike(io.BytesIO(xlsx))
        return sum(len(wb.get_sheet_by_name(n).to_python()) for n in wb.sheet_names)

    print(f"XLSX, {20_000 + 6} rows x 6 columns ({len(xlsx) // 1024} KB):")
    print(f"  openpyxl read-only         {best(with_openpyxl) * 1000:7.0f} ms  ({with_openpyxl()} rows)")
    print(f"  python-calamine            {best(with_calamine) * 1000:7.0f} ms  ({with_calamine()} rows)")


if __name__ == "__main__":
    main()
