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


# Files written the way resellers, clouds and finance departments write them (issue 38). The figures are the
# ones tests/kb/documents/test_costs.py checks by hand.
CLOUD_RENT = [  # GPU, on-demand, 1-year reserved, 3-year reserved ($/GPU-hour)
    ["NVIDIA H100 SXM 80GB", "$2.49", "$1.89", "$1.39"],
    ["NVIDIA H200 141GB", "$3.49", "$2.69", "$1.99"],
]


def _pdf(story_of, title: str = "", author: str = "", encrypt: str | None = None) -> bytes:  # type: ignore[no-untyped-def]
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import SimpleDocTemplate

    buf = io.BytesIO()
    style = ParagraphStyle("zh", fontName=_font(), fontSize=10, leading=15)
    doc = SimpleDocTemplate(buf, pagesize=A4, title=title, author=author, creator="kb tests", encrypt=encrypt)
    doc.build(story_of(style))
    return buf.getvalue()


def _table(rows: list[list[str]]):  # type: ignore[no-untyped-def]
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    t = Table(rows)
    t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), _font()), ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    return t


def cloud_rent_pdf() -> bytes:
    """A cloud's quote: dated, valid until a later date, a rent table in $/GPU-hour by term, terms below it."""
    from reportlab.platypus import Paragraph

    def story(style):  # type: ignore[no-untyped-def]
        return [Paragraph("Nimbus Cloud Inc. — GPU capacity quotation", style),
                Paragraph("Quote date: 2026-11-25", style),
                Paragraph("Valid until: 2026-12-31", style),
                _table([["GPU", "On-demand ($/GPU-hour)", "1-year reserved ($/GPU-hour)",
                         "3-year reserved ($/GPU-hour)"], *CLOUD_RENT]),
                Paragraph("Prices exclude VAT.", style),
                Paragraph("Reserved terms are billed monthly; payment: prepay the first month.", style)]
    return _pdf(story, title="GPU capacity quotation", author="Nimbus Cloud Inc.")


def prose_quote_pdf() -> bytes:
    """A reseller's quote written as sentences, with its date, validity, lead time, tax and prepayment."""
    from reportlab.platypus import Paragraph

    lines = ["华东集成商 GPU 报价单", "报价日期：2026-11-25", "NVIDIA H20 96GB: 98,000 CNY per card",
             "交期：下单后 4 周到货。", "付款：预付 30%，到货后付清。", "以上价格含 13% 增值税。",
             "有效期至 2026-12-31。"]
    return _pdf(lambda style: [Paragraph(line, style) for line in lines], title="H20 报价")


def expired_quote_pdf() -> bytes:
    """A quote whose validity has passed: quoted 2026-10-08, valid until 2026-10-31."""
    from reportlab.platypus import Paragraph

    lines = ["Quote from Pacific Compute Ltd.", "Quote date: 2026-10-08", "Valid until: 2026-10-31",
             "NVIDIA L40S 48GB: 7,200 USD per card, ships in 2 weeks."]
    return _pdf(lambda style: [Paragraph(line, style) for line in lines], title="L40S quote")


def password_pdf() -> bytes:
    from reportlab.platypus import Paragraph

    return _pdf(lambda style: [Paragraph("H100 SXM: 180,000 CNY", style)], encrypt="s3cret")


FINANCE_ROWS = [  # 日期, 型号, 数量, 总价(元): what finance recorded (GBK, as its export writes)
    ["2025-06-10", "RTX 4090", "8", "103,992"],
    ["2026-03-15", "RTX 4090", "4", "51,200"],
    ["2026-05-20", "H100 SXM", "8", "1,760,000"],
]


def finance_csv(rows: list[list[str]] | None = None, header: list[str] | None = None) -> bytes:
    """Finance's purchase export: GBK, a total and a count per row, no unit price."""
    header = header or ["日期", "型号", "数量", "总价(元)"]
    lines = [",".join(header)] + [",".join(f'"{c}"' if "," in c else c for c in r) for r in rows or FINANCE_ROWS]
    return ("\n".join(lines) + "\n").encode("gbk")


def reseller_xlsx(password: str | None = None, formulas: bool = False) -> bytes:
    """A reseller's sheet: a merged title row with the vendor, a dated line, units and currency signs in the
    headers and cells, a range, merged vendor cells, a tax note column and a footnote below the table."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报价"
    ws.append(["华东集成商 GPU 报价单"])
    ws.merge_cells("A1:F1")
    ws.append(["报价日期：2026-11-25    有效期至：2026-12-31"])
    ws.merge_cells("A2:F2")
    ws.append(["序号", "型号", "单价(元)", "数量", "总价(元)", "备注"])
    ws.append([1, "NVIDIA H100 SXM 80GB", "¥228,000", 8, "=C4*D4" if formulas else "¥1,824,000", "交期 6 周"])
    ws.append([2, "RTX 5090 32GB", "¥21,000-23,000", 4, "", "现货"])
    ws.append([3, "RTX 4090 24GB", "¥13,500", 10, "¥135,000", "现货，3 天发货"])
    ws.append(["注：以上价格含 13% 增值税；预付 30% 后安排发货；有效期至 2026-12-31。"])
    ws.merge_cells("A7:F7")
    buf = io.BytesIO()
    wb.save(buf)
    data = buf.getvalue()
    if password is None:
        return data
    from msoffcrypto.format.ooxml import OOXMLFile

    out = io.BytesIO()
    OOXMLFile(io.BytesIO(data)).encrypt(password, out)
    return out.getvalue()


def docx_report() -> bytes:
    """A team's DOCX report: a heading, prose with a price that names no currency, and a table."""
    import docx

    d = docx.Document()
    d.add_heading("RTX 5090 采购评估", level=1)
    d.add_paragraph("评估日期：2026-11-20。结论：推理节点改用 RTX 5090。")
    t = d.add_table(rows=3, cols=3)
    for r, row in enumerate([["型号", "单价", "显存"], ["RTX 5090", "32500", "32GB"], ["RTX 4090", "13800", "24GB"]]):
        for c, value in enumerate(row):
            t.cell(r, c).text = value
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()
