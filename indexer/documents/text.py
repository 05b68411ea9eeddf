"""Plain text, Markdown, CSV and HTML: decoded (UTF-8, UTF-8 with BOM, GBK/GB18030), located by line.

HTML goes through lxml as a tree and only its text is kept: scripts, styles, templates, noscript fallbacks and
comments are dropped wherever they stand (head or body), nothing is ever rendered, and a location is the element's
line in the original file.
"""

from __future__ import annotations

import csv
import io
import re

from indexer.documents.segments import Converted, Segment, Unreadable, table_segments

ENCODINGS = ("utf-8-sig", "gb18030")  # gb18030 is a superset of GBK and GB2312
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


def decode(data: bytes, name: str) -> str:
    """The text of `data`: UTF-8 (a BOM dropped) or else GB18030; neither → Unreadable."""
    for encoding in ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" in text:
            break  # UTF-16 or binary: not text kb reads
        return text.replace("\r\n", "\n").replace("\r", "\n")
    raise Unreadable(f"{name}: not UTF-8 or GBK/GB18030 text (save it as UTF-8)")


def _paragraphs(lines: list[str], first_line: int, heading: str) -> list[Segment]:
    """Runs of non-blank lines as segments with their 1-based line range."""
    out: list[Segment] = []
    start: int | None = None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and start is None:
            start = i
        elif not line.strip() and start is not None:
            text = "\n".join(lines[start:i]).strip()
            out.append(Segment(text, {"start_line": first_line + start, "end_line": first_line + i - 1}, heading))
            start = None
    return out


def convert_text(data: bytes, name: str) -> Converted:
    return Converted("text", _paragraphs(decode(data, name).split("\n"), 1, ""))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def convert_markdown(data: bytes, name: str) -> Converted:
    """Sections by heading; a pipe table's rows are rows (with cells, for price facts), located by line."""
    lines = decode(data, name).split("\n")
    out: list[Segment] = []
    heading = ""
    i = 0
    block_start = 0
    while i < len(lines):
        m = _HEADING.match(lines[i])
        is_table = "|" in lines[i] and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1].strip())
        if m or is_table:
            out += _paragraphs(lines[block_start:i], block_start + 1, heading)
        if m:
            heading = m.group(2)
            i += 1
            block_start = i
            continue
        if is_table:
            end = i + 2
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            rows = [_cells(lines[i])] + [_cells(x) for x in lines[i + 2:end]]
            line_of = [i + 1, *range(i + 3, end + 1)]
            out += table_segments(rows, lambda r, lo=line_of: {"start_line": lo[r], "end_line": lo[r]}, heading)
            i = block_start = end
            continue
        i += 1
    out += _paragraphs(lines[block_start:], block_start + 1, heading)
    return Converted("markdown", out)


def convert_csv(data: bytes, name: str) -> Converted:
    """One segment a row (the first row names the columns), located by the row's lines in the file."""
    text = decode(data, name)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    rows: list[list[str]] = []
    spans: list[tuple[int, int]] = []
    try:
        last = 0
        for row in reader:
            rows.append(row)
            spans.append((last + 1, reader.line_num))
            last = reader.line_num
    except csv.Error as e:
        raise Unreadable(f"{name}: not a readable CSV ({e}); save it as comma-separated UTF-8") from None
    return Converted("csv", table_segments(rows, lambda r: {"start_line": spans[r][0], "end_line": spans[r][1]}))


_DROP = ("script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "head")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS = frozenset({"p", "li", "pre", "blockquote", "dd", "dt", "figcaption", "caption", "td", "th", "div",
                     "section", "article", "main", "body"})


def convert_html(data: bytes, name: str) -> Converted:
    """Text only: headings start sections, tables give rows, other blocks give paragraphs."""
    import lxml.etree
    import lxml.html

    text = re.sub(r"^\s*<\?xml[^>]*>", "", decode(data, name))  # lxml refuses a str that declares its bytes
    try:
        root = lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as e:
        raise Unreadable(f"{name}: not readable HTML ({e})") from None
    # Collected first: dropping elements while iterating over the tree ends the walk at the first one (the <head>),
    # which left a script in the body to be indexed as text. drop_tree keeps the text that follows an element.
    for el in list(root.iter(*_DROP, lxml.etree.Comment, lxml.etree.ProcessingInstruction)):
        el.drop_tree()
    out: list[Segment] = []
    heading = ""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        tag = el.tag.lower()
        if tag in _HEADINGS:
            heading = " ".join(el.text_content().split())
        elif tag == "table":
            rows = [[c.text_content() for c in tr.iter("td", "th")] for tr in el.iter("tr")]
            lines = [tr.sourceline or 1 for tr in el.iter("tr")]
            out += table_segments(rows, lambda r, lo=lines: {"start_line": lo[r], "end_line": lo[r]}, heading)
        elif tag in _BLOCKS and not _inside_table(el):
            own = _own_text(el)
            if own:
                line = el.sourceline or 1
                out.append(Segment(own, {"start_line": line, "end_line": line + own.count("\n")}, heading))
    return Converted("html", out)


def _inside_table(el: object) -> bool:
    return any(a.tag == "table" for a in el.iterancestors())  # type: ignore[attr-defined]


def _own_text(el: object) -> str:
    """The element's text outside its own block children (those are segments of their own)."""
    parts: list[str] = [el.text or ""]  # type: ignore[attr-defined]
    for child in el:  # type: ignore[attr-defined]
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if tag not in _BLOCKS and tag != "table" and tag not in _HEADINGS:
            parts.append(child.text_content() if isinstance(child.tag, str) else "")
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())
