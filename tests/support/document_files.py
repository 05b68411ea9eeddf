"""Real files of every format kb reads, made on the spot (reportlab, python-docx, openpyxl), for the tests
and benchmarks/documents.py. The price sheet's numbers are the ones the tests check by hand."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

CJK_FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")  # Debian's fonts-wqy-microhei

PRICE_HEADER = ["型号", "单价", "时租(元/卡时)", "币种", "供应商", "报价日期"]
PRICE_ROWS = [
    ["NVIDIA H200 141GB", "¥230,000", "", "CNY", "华东集成商", "2026-11-03"],
    ["H100 SXM", "¥180,000", "16.5", "CNY", "华东集成商", "2026-11-03"],
    ["RTX 4090", "¥12,999", "1.8", "CNY", "京东", "2026-11-03"],
    ["L40S", "$7,800", "", "USD", "Dell", "2026-10-28"],
]
MEASURED = "我们在一张 L40S 上用 vLLM 0.6 测得 Llama-2-13B 解码 58 token/s（batch 1，2026年10月20日）。"


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "wqy" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("wqy", str(CJK_FONT), subfontIndex=0))
    return "wqy"


def pdf_bytes(pages: int = 2, table: bool = True, text: bool = True) -> bytes:
    """A PDF with Chinese text on every page and (on page 1) a ruled price table."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

    buf = io.BytesIO()
    font = _font()
    style = ParagraphStyle("zh", fontName=font, fontSize=11, leading=16)
    story: list = []
    for n in range(1, pages + 1):
        if text:
            story.append(Paragraph(f"第{n}页：GPU 报价说明。{MEASURED}", style))
        if table and n == 1:
            t = Table([PRICE_HEADER, *PRICE_ROWS])
            t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), font),
                                   ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
            story.append(t)
        if n < pages:
            story.append(PageBreak())
    doc = SimpleDocTemplate(buf, pagesize=A4, title="报价单", creator="kb tests")
    doc.build(story)
    return buf.getvalue()


def scanned_pdf_bytes() -> bytes:
    """A PDF whose only page is a picture (no text layer): what a scanner makes."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setFillGray(0.3)
    for i in range(20):
        c.rect(50 + i * 20, 400, 10, 200, fill=1, stroke=0)  # strokes, not text
    c.showPage()
    c.save()
    return buf.getvalue()


def docx_bytes(paragraphs: int = 3) -> bytes:
    import docx

    d = docx.Document()
    d.core_properties.title = "L40S 实测"
    d.add_heading("推理实测", level=1)
    d.add_paragraph(MEASURED)
    for i in range(paragraphs):
        d.add_paragraph(f"第{i + 1}段：测试环境为 Ubuntu 22.04，驱动 550。")
    d.add_heading("报价", level=2)
    t = d.add_table(rows=1 + len(PRICE_ROWS), cols=len(PRICE_HEADER))
    for r, row in enumerate([PRICE_HEADER, *PRICE_ROWS]):
        for c, value in enumerate(row):
            t.cell(r, c).text = value
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def xlsx_bytes(rows: list[list[object]] | None = None, extra_rows: int = 0) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报价"
    ws.append(["2026年11月 GPU 报价"])  # a title row above the header, as real sheets have
    ws.append(PRICE_HEADER)
    for row in rows if rows is not None else PRICE_ROWS:
        ws.append(row)
    for i in range(extra_rows):
        ws.append([f"配件{i}", i * 10, "", "CNY", "某商", "2026-11-03"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def csv_bytes(encoding: str = "utf-8") -> bytes:
    lines = [",".join(PRICE_HEADER)] + [",".join(f'"{c}"' if "," in c else c for c in r) for r in PRICE_ROWS]
    text = "\n".join(lines) + "\n"
    if encoding.lower() in ("gbk", "gb18030"):
        text = text.replace("¥", "￥")  # GBK has the full-width yuan sign only
    return text.encode(encoding)


def zip_bomb_docx(megabytes: int = 300) -> bytes:
    """A .docx-named zip whose one entry unpacks to 300 MB of zeros (it packs to ~300 KB).

    Written by hand, in milliseconds: deflating 300 MB takes 2-4 s of CPU, but a 1 MB block of zeros ended with
    a full flush deflates to the same bytes every time, so the stream is one block's bytes over and over. The
    result is a sound zip (zipfile reads it, its CRC is right), just as a real bomb would be."""
    block = b"\0" * (1 << 20)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    one = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    stream = one * megabytes + deflate.flush()
    crc = 0
    for _ in range(megabytes):
        crc = zlib.crc32(block, crc)
    entries = [(b"[Content_Types].xml", 0, b"<Types/>", zlib.crc32(b"<Types/>"), 8),
               (b"word/document.xml", 8, stream, crc, megabytes << 20)]
    out, central = io.BytesIO(), io.BytesIO()
    for name, method, data, entry_crc, size in entries:
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, entry_crc, len(data), size,
                              len(name), 0) + name + data)
        central.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, entry_crc,
                                  len(data), size, len(name), 0, 0, 0, 0, 0, offset) + name)
    start = out.tell()
    out.write(central.getvalue())
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central.getvalue()),
                          start, 0))
    return out.getvalue()


HTML = """<!doctype html><html><head><title>租赁价格</title>
<script>alert('x'); document.write('<p>注入</p>')</script><style>p{color:red}</style></head>
<body><h1>云上 GPU 租赁</h1>
<p>以下为 2026-11-01 的挂牌价。</p>
<table><tr><th>GPU</th><th>时租</th><th>币种</th><th>供应商</th></tr>
<tr><td>H100 SXM</td><td>2.99</td><td>USD</td><td>CloudA</td></tr></table>
<p onclick="steal()">H100 每卡时 2.99 美元，按需计费。<img src=x onerror=alert(1)></p>
</body></html>
"""

MARKDOWN = """# 采购记录

2026年11月，我们为推理集群采购了 8 张 H200。

## 报价

| 型号 | 单价 | 供应商 |
| --- | --- | --- |
| H200 | 23万 | 华东集成商 |

## 结论

H200 的 141GB 显存足够单卡运行 70B 模型的 INT8 推理。
"""
