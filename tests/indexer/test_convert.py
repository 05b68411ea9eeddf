"""Converters on real files of every format: text with its exact location, and refusals named by file."""

from __future__ import annotations

import pytest

from indexer.documents.convert import convert
from indexer.documents.segments import Unreadable
from tests.support import document_files as files

LIMIT = 20 << 20


def _rows(c):  # type: ignore[no-untyped-def]
    return [s for s in c.segments if s.cells]


def test_pdf_text_by_page_and_table_rows_with_page_and_row() -> None:
    c = convert(files.pdf_bytes(pages=2), "报价.pdf", LIMIT)
    pages = [s for s in c.segments if not s.cells]
    assert [s.location for s in pages] == [{"page": 1}, {"page": 2}]
    assert "解码 58 token/s" in " ".join(pages[0].text.split())  # a line wrap inside it, as on the page
    rows = _rows(c)
    assert [r.cells["型号"] for r in rows] == [r[0] for r in files.PRICE_ROWS]
    assert rows[0].location == {"page": 1, "row": 2}  # row 1 is the header
    assert rows[0].cells["单价"] == "¥230,000"  # as it stands in the document


def test_scanned_pdf_is_refused_as_needing_ocr() -> None:
    with pytest.raises(Unreadable, match=r"scan\.pdf: .*needs OCR"):
        convert(files.scanned_pdf_bytes(), "scan.pdf", LIMIT)


@pytest.mark.parametrize("name,data", [("bad.pdf", files.pdf_bytes()[:2000]), ("bad.docx", b"PK\x03\x04broken"),
                                       ("bad.xlsx", files.xlsx_bytes()[:500]), ("fake.pdf", b"hello, not a pdf")])
def test_corrupt_files_are_refused_naming_the_file(name: str, data: bytes) -> None:
    with pytest.raises(Unreadable, match=rf"^{name}: "):
        convert(data, name, LIMIT)


def test_zip_bomb_is_refused_before_unpacking() -> None:
    bomb = files.zip_bomb_docx()
    assert len(bomb) < 2 << 20  # small on the wire, 300 MB inside
    with pytest.raises(Unreadable, match="zip bomb"):
        convert(bomb, "bomb.docx", LIMIT)


def test_docx_headings_paragraphs_and_table_rows_by_line_of_the_text() -> None:
    c = convert(files.docx_bytes(), "实测.docx", LIMIT)
    measured = next(s for s in c.segments if "58 token/s" in s.text)
    assert measured.heading == "推理实测"
    lines = c.plain_text().split("\n")
    loc = measured.location
    assert lines[loc["start_line"] - 1] == measured.text  # the location opens the stored text at that line
    row = next(s for s in _rows(c) if s.cells and s.cells["型号"] == "RTX 4090")
    assert row.heading == "报价" and row.cells["单价"] == "¥12,999"
    assert lines[row.location["start_line"] - 1] == row.text


def test_xlsx_rows_by_sheet_and_row_number_below_a_title_row() -> None:
    c = convert(files.xlsx_bytes(), "报价.xlsx", LIMIT)
    assert c.segments[0].text == "2026年11月 GPU 报价" and c.segments[0].location == {"sheet": "报价", "row": 1}
    rows = _rows(c)
    assert rows[0].location == {"sheet": "报价", "row": 3}  # title row 1, header row 2
    assert rows[3].cells == {"型号": "L40S", "单价": "$7,800", "币种": "USD", "供应商": "Dell",
                             "报价日期": "2026-10-28"}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gbk", "gb18030"])
def test_csv_in_every_encoding_chinese_teams_use(encoding: str) -> None:
    c = convert(files.csv_bytes(encoding), "prices.csv", LIMIT)
    rows = _rows(c)
    assert [r.cells["型号"] for r in rows] == [r[0] for r in files.PRICE_ROWS]
    assert rows[0].location == {"start_line": 2, "end_line": 2}
    assert "供应商" in rows[0].cells


def test_html_keeps_text_only_and_never_a_script() -> None:
    c = convert(files.HTML.encode(), "rent.html", LIMIT)
    text = c.plain_text()
    assert "alert" not in text and "注入" not in text and "color:red" not in text and "steal" not in text
    assert "H100 每卡时 2.99 美元" in text
    row = _rows(c)[0]
    assert row.cells == {"GPU": "H100 SXM", "时租": "2.99", "币种": "USD", "供应商": "CloudA"}
    assert row.location["start_line"] == files.HTML.split("\n").index(
        "<tr><td>H100 SXM</td><td>2.99</td><td>USD</td><td>CloudA</td></tr></table>") + 1


def test_markdown_sections_by_heading_and_pipe_table_rows_by_line() -> None:
    c = convert(files.MARKDOWN.encode(), "采购.md", LIMIT)
    lines = files.MARKDOWN.split("\n")
    row = _rows(c)[0]
    assert row.cells == {"型号": "H200", "单价": "23万", "供应商": "华东集成商"} and row.heading == "报价"
    assert lines[row.location["start_line"] - 1].startswith("| H200 |")
    last = c.segments[-1]
    assert last.heading == "结论" and lines[last.location["start_line"] - 1] == last.text


def test_plain_text_paragraphs_by_line() -> None:
    c = convert("第一段\n续行\n\n第二段\n".encode("gb18030"), "notes.txt", LIMIT)
    assert [(s.text, s.location) for s in c.segments] == [
        ("第一段\n续行", {"start_line": 1, "end_line": 2}), ("第二段", {"start_line": 4, "end_line": 4})]


@pytest.mark.parametrize("name,data,message", [
    ("a.exe", b"MZ", "not a format kb reads; accepted: Markdown"),
    ("empty.csv", b"", "the file is empty"),
    ("blank.txt", b"  \n\n", "the file is empty"),
    ("big.txt", b"x" * (LIMIT + 1), "over the limit of 20 MB"),
    ("utf16.txt", "中文".encode("utf-16"), "not UTF-8 or GBK/GB18030"),
])
def test_bad_input_names_the_file_and_what_is_accepted(name: str, data: bytes, message: str) -> None:
    with pytest.raises(Unreadable, match=message) as e:
        convert(data, name, LIMIT)
    assert str(e.value).startswith(f"{name}: ") and "\n" not in str(e.value)


HIDDEN = {  # what a browser never shows as a page's text, with text that must not be indexed
    "script": "<script>S1()</script>", "style": "<style>p{color:red}</style>",
    "noscript": "<noscript>N1 enable scripts</noscript>", "template": "<template><p>T1 template</p></template>",
    "comment": "<!-- C1 a comment -->",
}
HIDDEN_TEXT = ("S1", "color:red", "N1", "T1", "C1")


@pytest.mark.parametrize("where", ["head", "body", "both"])
@pytest.mark.parametrize("kind", list(HIDDEN))
def test_html_drops_scripts_styles_noscript_templates_and_comments_wherever_they_are(kind: str, where: str) -> None:
    """Each kind in the head, in the body, and in both; the body's text around them is kept, in order."""
    hidden = HIDDEN[kind]
    head = f"<head><title>t</title>{hidden}</head>" if where in ("head", "both") else "<head><title>t</title></head>"
    inside = hidden if where in ("body", "both") else ""
    page = f"<html>{head}<body><p>A {inside}after</p>{inside}<div>B</div>{hidden if where == 'both' else ''}" \
           "<p>C</p></body></html>"
    text = convert(page.encode(), "page.html", LIMIT).plain_text()
    assert not any(marker in text for marker in HIDDEN_TEXT), text
    assert [line for line in text.split("\n") if line] == ["A after", "B", "C"], text


def test_html_after_a_dropped_head_still_drops_the_body_s_script() -> None:
    """The case that was indexed: a style in the head, a script in the body."""
    page = b"<head><style>x{}</style></head><body><p>A</p><script>S1()</script></body>"
    assert convert(page, "p.html", LIMIT).plain_text().split() == ["A"]
