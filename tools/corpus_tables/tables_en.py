"""The English rendering of a computed table's body: line k renders Chinese body line k, with the same figures.

Prose lines and table cells are translated from fixed maps (the generator writes a fixed set of sentences);
a line or cell the maps do not know is an error, so a new Chinese sentence cannot ship without its English.
"""

from __future__ import annotations

import re

TITLES = {
    "核心计算能力对比（kb 计算）": "Core compute compared (computed by kb)",
    "内存系统对比（kb 计算）": "Memory systems compared (computed by kb)",
    "互连与扩展性对比（kb 计算）": "Interconnect and scaling compared (computed by kb)",
    "功耗与性价比分析（kb 计算）": "Power and price/performance (computed by kb)",
    "单卡推理性能对比（kb 计算）": "Single-card inference compared (computed by kb)",
    "初始投资成本对比（kb 计算）": "Initial investment compared (computed by kb)",
}
PROSE = {
    "本表由 kb 根据各显卡的规格":
        "This table is computed by kb from the cards' specifications (the guide's figures and the makers' "
        "datasheets), not taken from the guide.",
    "注：训练时间以FP32累加的稠密算力为分母。":
        "Note: training time divides by the dense fp32-accumulate rate. The document sets "
        "the RTX 4090's 330 beside the A100's 312, but 330 is the FP16-accumulate (or sparse) "
        "rate; for INT8 the document compares the 4090's sparse rate with the A100's dense "
        "rate.",
    "注：算力为FP32累加的稠密BF16算力；":
        "Note: rates are dense BF16 with fp32 accumulate; the A100 price is the document's (it "
        "does not say 40GB or 80GB), the RTX 4090 price is the document's, and the other RTX "
        "40 cards are at NVIDIA China launch prices.",
    "注：最大模型按 kb 的显存检查计算：":
        "Note: the largest model is kb's fit check: weights + a 4096-token KV cache + "
        "activations + the 1 GiB and 10% overhead allowance.",
    "注：只计显卡，不含服务器、网络、散热；":
        "Note: cards only, no server, network or cooling; energy at the cards' TDP all year "
        "round, 1.0 CNY a kWh. 8 × RTX 4090 cost {pct}% less in cards than 8 × A100 (the "
        "document says \"saves nearly 80%\"). The university team's \"8 × RTX 4090 cluster, "
        "about 450,000 CNY in all\" is the whole cluster, not the cards alone.",
    "注：上限 = 显存带宽 ÷ 每个token读取的字节":
        "Note: bound = memory bandwidth ÷ bytes read a token (weights + KV cache); real "
        "kernels usually reach sixty to eighty per cent of it.",
    "注：8卡环形all-reduce同步Llama2 7B的bf16梯度":
        "Note: an 8-card ring all-reduce of Llama2 7B's bf16 gradients ({gb} "
        "GB) at half the two-way link bandwidth each way: an ideal lower bound; "
        "GeForce cards talk over PCIe and are often slower.",
    "单卡、batch 1、上下文 1024 token 的解码速度上限":
        "Decode upper bound on one card (tokens/s), batch 1, 1024 tokens of "
        "context, Llama2 shapes; — where the model does not fit one card.",
}
CELLS = {
    "配置 [configuration]": "configuration", "无 [none]": "none", "无价格 [no price]": "no price",
    "BF16/FP16 稠密，FP32累加 [dense, fp32 acc.] TFLOPS": "BF16/FP16 dense, fp32 acc. TFLOPS",
    "INT8 稀疏 [sparse] TOPS": "INT8 sparse TOPS", "INT8 稠密 [dense] TOPS": "INT8 dense TOPS",
    "NVLink GB/s（双向 [both ways]）":
        "NVLink GB/s (both ways)", "PCIe GB/s（双向 [both ways]）": "PCIe GB/s (both ways)",
    "价格 [price] CNY": "price CNY", "全年满载电费 [energy a year] CNY": "energy a year CNY", "功耗 [TDP] W": "TDP W",
    "单卡可推理的最大模型 FP16 [largest model, fp16] B": "largest model on one card, fp16, B",
    "同一训练任务耗时，A100=1 [training time vs A100]": "training time vs A100 (A100=1)",
    "带宽 [bandwidth] GB/s": "bandwidth GB/s", "文档所写FP16 [document's FP16]": "the document's FP16",
    "显卡功耗 [cards' TDP] kW": "cards' TDP kW", "显卡投入 [cards] CNY": "cards CNY", "显存 [VRAM]": "VRAM",
    "每万元TFLOPS [TFLOPS per 万 CNY]": "TFLOPS per ten thousand CNY",
    "每万元带宽 GB/s": "bandwidth per ten thousand CNY, GB/s",
    "每万元显存 GiB": "VRAM per ten thousand CNY, GiB", "稠密TFLOPS每千瓦 [per kW]": "dense TFLOPS per kW",
    "8卡同步7B梯度的理想耗时 s [ideal all-reduce, 8 cards]": "ideal all-reduce of 7B gradients, 8 cards, s",
}
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _cell(cell: str) -> str:
    c = cell.strip()
    if not _CJK.search(c):
        return cell
    if c in CELLS:
        return f" {CELLS[c]} "
    c = re.sub(r"(\d+)\s*[卡张]\s*", r"\1 × ", c)
    c = c.replace("（文档）", " (document)").replace("（厂商首发价）", " (vendor launch price)")
    if _CJK.search(c):
        raise ValueError(f"no English for table cell {cell.strip()!r}")
    return f" {c} "


def english_line(line: str) -> str:
    """One body line in English, with the same numbers."""
    if not _CJK.search(line):
        return line
    if line.startswith("# "):
        return "# " + TITLES[line[2:]]
    if line.startswith("|"):
        return "|".join(_cell(c) if c else c for c in line.split("|"))
    for prefix, english in PROSE.items():
        if line.startswith(prefix):
            pct = re.search(r"少 ([\d.]+)%", line)
            gb = re.search(r"（([\d.]+) GB）", line)
            return english.format(pct=pct.group(1) if pct else "", gb=gb.group(1) if gb else "")
    raise ValueError(f"no English for table line {line!r}")


def english_body(body: str) -> str:
    """The English body, line for line."""
    return "\n".join(english_line(line) for line in body.split("\n"))
