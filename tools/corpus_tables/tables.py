"""The comparison tables the document mentions but lacks (§5.1–5.4, §7.1, §8.1), computed from the spec records.

`python -m tools.corpus_tables.tables` writes corpus/tables/*.md. Every number in a table is declared as a `derived`
figure that says how it was computed, so the honesty test can tell kb's arithmetic from the document's
words; the generator refuses to write a table with an undeclared number.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from kb.fit.gpus import GpuSpec, load_gpus
from kb.fit.largest import largest_size_b
from kb.fit.request import parse_request
from tools.corpus_tables.records import unsupported_numbers
from tools.corpus_tables.tables_common import (
    DASH,
    GPU_SECTIONS,
    NAMES,
    Figures,
    corpus,
    fit_engine,
    gpus_in_order,
    md_table,
)
from tools.corpus_tables.tables_en import english_body
from tools.corpus_tables.tables_extra import interconnect_table, investment_table, power_price_table


def compute_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§5.1: dense 16-bit tensor rates (the training denominator) beside the figures the document quotes."""
    f, gpus = Figures(), gpus_in_order(corpus_dir)
    f.names(gpus)
    a100 = load_gpus(corpus(corpus_dir))["a100-80gb"].rate16
    rows = []
    for g in gpus:
        doc = g.figures.get("fp16_doc_tflops") or (g.figures["bf16_dense_tflops"]
                                                     if g.figures["bf16_dense_tflops"].get("source") == "doc" else None)
        rows.append([
            NAMES[g.id],
            f.num(f"{g.id}_bf16", g.rate16, 1, "TFLOPS", f"copied from {g.record_id}"),
            f.num(f"{g.id}_doc_fp16", doc["value"], 0, "TFLOPS", f"the document's FP16 figure, {g.record_id}")
            if doc else DASH,
            f.num(f"{g.id}_int8_dense", g.int8_dense_tops or 0.0, 1, "TOPS", f"copied from {g.record_id}"),
            f.num(f"{g.id}_int8_sparse", g.int8_sparse_tops or 0.0, 1, "TOPS", f"copied from {g.record_id}"),
            f.num(f"{g.id}_time_vs_a100", a100 / g.rate16, 2, "x",
                  f"A100 dense {a100:g} / this card's dense {g.rate16:g} TFLOPS, same job and MFU"),
        ])
    body = md_table(["GPU", "BF16/FP16 稠密，FP32累加 [dense, fp32 acc.] TFLOPS", "文档所写FP16 [document's FP16]",
                     "INT8 稠密 [dense] TOPS", "INT8 稀疏 [sparse] TOPS",
                     "同一训练任务耗时，A100=1 [training time vs A100]"],
                    rows)
    body += ["", "注：训练时间以FP32累加的稠密算力为分母。文档把RTX 4090的330与A100的312并列，但330是FP16累加"
             "（或稀疏）算力；INT8一项文档以4090的稀疏算力比A100的稠密算力。"
             "[Training time divides by the dense fp32-accumulate rate; the document's 330 and its INT8 comparison "
             "set FP16-accumulate or sparse rates against dense ones.]"]
    return {"section": "5.1", "sections": ["5.1", *GPU_SECTIONS, "2.3"], "title": "核心计算能力对比（kb 计算）",
            "figures": f.figs}, body


def largest_model_b(gpu: GpuSpec, precision: str, corpus_dir: Path | None) -> float:
    """Largest bare size (billions, 0.1 steps) whose inference at 4,096 tokens fits one card (kb/fit/largest.py)."""
    return largest_size_b(fit_engine(corpus_dir), gpu.id, "inference", precision)


def memory_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§5.2: capacity, bandwidth, and the largest model each card holds for inference, by precision."""
    f, gpus = Figures(), gpus_in_order(corpus_dir)
    f.names(gpus)
    rows = []
    for g in gpus:
        row = [NAMES[g.id], f"{int(g.vram_gib)} GiB", f.num(f"{g.id}_bandwidth", g.bandwidth, 1, "GB/s",
                                                          f"copied from {g.record_id}")]
        for p in ("fp16", "int8", "int4"):
            b = largest_model_b(g, p, corpus_dir)
            row.append(f.num(f"{g.id}_largest_{p}_b", b, 1, "B params",
                             f"kb fit: largest size whose {p} inference at 4096 tokens, batch 1, fits one card "
                             "with 1 GiB + 10% overhead") if b else DASH)
        rows.append(row)
    body = md_table(["GPU", "显存 [VRAM]", "带宽 [bandwidth] GB/s", "单卡可推理的最大模型 FP16 [largest model, fp16] B",
                     "INT8 B", "INT4 B"], rows)
    body += ["", "注：最大模型按 kb 的显存检查计算：权重 + 4096 token 的KV缓存 + 激活值 + 1 GiB 与 10% 的开销余量。"
             "[Largest model: kb's fit check with weights, a 4096-token KV cache, activations and the overhead "
             "allowance.]"]
    f.num("context_tokens", 4096, 0, "tokens", "the context the largest-model column assumes")
    f.num("overhead_gib", 1, 0, "GiB", "kb's CUDA context allowance a GPU")
    f.num("fragmentation_pct", 10, 0, "%", "kb's fragmentation allowance")
    return {"section": "5.2", "sections": ["5.2", *GPU_SECTIONS, "2.3"], "title": "内存系统对比（kb 计算）",
            "figures": f.figs}, body


def inference_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§7.1: decode upper bound on one card for Llama 2 7B/13B/70B at fp16/int8/int4, or — where it does not fit."""
    f, gpus = Figures(), gpus_in_order(corpus_dir)
    f.names(gpus)
    models = ("llama-2-7b", "llama-2-13b", "llama-2-70b")
    header = ["GPU"]
    for m in models:
        header += [f"{m.split('-')[-1].upper()} {p}" for p in ("FP16", "INT8", "INT4")]
    rows = []
    for g in gpus:
        row = [NAMES[g.id]]
        for m in models:
            for p in ("fp16", "int8", "int4"):
                r = fit_engine(corpus_dir).numbers(
                    parse_request(model=m, workload="inference", gpu=g.id, precision=p, seq_len=1024))
                tps = r.decode_tokens_per_s
                row.append(f.num(f"{g.id}_{m}_{p}_tps", tps, 0, "tokens/s",
                                 f"kb fit: {g.bandwidth:g} GB/s / bytes read a token, {m} {p}, 1024 tokens")
                           if r.fits and tps else DASH)
        rows.append(row)
    f.figs["model_sizes"] = {"value": [7, 13, 70], "unit": "B params", "source": "derived",
                             "note": "Llama2 7B, 13B, 70B presets (published shapes)"}
    f.num("context", 1024, 0, "tokens", "the context the decode bound assumes")
    f.num("batch", 1, 0, "sequences", "one sequence at a time")
    body = ["单卡、batch 1、上下文 1024 token 的解码速度上限（tokens/s），Llama2 结构；“—”表示单卡放不下。"
            "[Decode upper bound on one card, batch 1, 1024 tokens of context; — where the model does not fit.]",
            "", *md_table(header, rows), "",
            "注：上限 = 显存带宽 ÷ 每个token读取的字节（权重 + KV缓存）；实际内核通常达到上限的六到八成。"
            "[Bound = bandwidth / bytes read a token; real kernels reach most but not all of it.]"]
    return {"section": "7.1", "sections": ["7.1", *GPU_SECTIONS, "7.2"], "title": "单卡推理性能对比（kb 计算）",
            "figures": f.figs}, body


TABLES: dict[str, Callable[[Path | None], tuple[dict[str, Any], list[str]]]] = {
    "table-5.1-compute": compute_table,
    "table-5.2-memory": memory_table,
    "table-5.3-interconnect": interconnect_table,
    "table-5.4-power-price": power_price_table,
    "table-7.1-inference": inference_table,
    "table-8.1-investment": investment_table,
}

# Said to whoever reads the table (a passage, the page, Slack): where its figures come from, in plain words. How each
# number was computed is declared in the front matter's `figures`, and the cards it read in `inputs`.
PREAMBLE = ("本表由 kb 根据各显卡的规格（指南给出的数字和厂商数据表）计算得出，不是指南原文。"
            "[Computed by kb from the cards' specifications, not taken from the guide.]")


def render_table(table_id: str, corpus_dir: Path | None = None) -> str:
    """One table record's full text; ValueError if a number in it is not declared."""
    meta, body = TABLES[table_id](corpus_dir)
    inputs = meta.get("inputs") or [g.record_id for g in gpus_in_order(corpus_dir)]
    front = {"id": table_id, "kind": "table", "section": meta["section"], "sections": meta["sections"],
             "title": meta["title"], "computed": True, "inputs": inputs, "figures": meta["figures"]}
    text_body = "\n".join([f"# {meta['title']}", "", PREAMBLE, "", *body, ""])
    missing = unsupported_numbers(front, text_body, _corpus(corpus_dir))
    if missing:
        raise ValueError(f"{table_id}: undeclared numbers {missing}")
    return "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n\n" + text_body


def _corpus(corpus_dir: Path | None) -> Path:
    return corpus(corpus_dir)


def render_table_en(table_id: str, corpus_dir: Path | None = None) -> str:
    """The English rendering of a table's body (no front matter): line k renders the Chinese body's line k,
    counted from the line after the closing '---' (a blank line in these records), as for every record."""
    return "\n" + english_body(render_table(table_id, corpus_dir).split("---\n\n", 1)[1])


def _write(path: Path, text: str) -> None:
    """Atomically: a temporary file beside the target, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_tables(corpus_dir: Path | None = None, english: bool = True) -> list[Path]:
    """Write every table into corpus/tables/ (and its English body into corpus/en/tables/), returning the paths."""
    root = _corpus(corpus_dir)
    paths = []
    for table_id in TABLES:
        path = root / "tables" / f"{table_id}.md"
        _write(path, render_table(table_id, corpus_dir))
        paths.append(path)
        if english:
            en = root / "en" / "tables" / f"{table_id}.md"
            _write(en, render_table_en(table_id, corpus_dir))
            paths.append(en)
    return paths


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--no-english"]
    for p in write_tables(Path(args[0]) if args else None, english="--no-english" not in sys.argv):
        print(p)
