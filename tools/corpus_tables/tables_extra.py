"""§5.3 interconnect, §5.4 power and price/performance, §8.1 initial investment: computed tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.fit.gpus import load_gpus
from kb.settings import Settings
from tools.corpus_tables.tables_common import (
    DASH,
    GPU_SECTIONS,
    NAMES,
    Figures,
    corpus,
    gpus_in_order,
    md_table,
)

# Tables must not change with a user's KB_ENERGY_PRICE, so they use the setting's default.
ENERGY_PRICE = float(Settings.model_fields["energy_price_cny_per_kwh"].default)
HOURS_A_YEAR = 365 * 24
RING_GPUS = 8
GRAD_PARAMS = 6_738_415_616  # Llama 2 7B: gradients a data-parallel step all-reduces, in bf16


def interconnect_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§5.3: link bandwidth, and the ideal ring all-reduce time for a 7B model's bf16 gradients over 8 cards."""
    f, gpus = Figures(), gpus_in_order(corpus_dir)
    f.names(gpus)
    grad_bytes = 2 * GRAD_PARAMS
    rows = []
    for g in gpus:
        link = g.nvlink_gbs or g.pcie_gbs or 0.0  # both directions together
        seconds = 2 * (RING_GPUS - 1) / RING_GPUS * grad_bytes / (link / 2 * 1e9)
        rows.append([
            NAMES[g.id],
            f.num(f"{g.id}_nvlink", g.nvlink_gbs or 0.0, 0, "GB/s", f"copied from {g.record_id}")
            if g.nvlink_gbs else "无 [none]",
            f.num(f"{g.id}_pcie", g.pcie_gbs or 0.0, 0, "GB/s", f"copied from {g.record_id}"),
            f.num(f"{g.id}_allreduce_s", seconds, 2, "s",
                  f"ring all-reduce 2(n-1)/n x {grad_bytes} B over {link / 2:g} GB/s each way, n = {RING_GPUS}"),
        ])
    f.num("ring_gpus", RING_GPUS, 0, "GPUs", "cards in the all-reduce")
    f.num("grad_gb", grad_bytes / 1e9, 2, "GB", f"Llama2 7B: {GRAD_PARAMS} params x 2 B of bf16 gradients")
    body = md_table(["GPU", "NVLink GB/s（双向 [both ways]）", "PCIe GB/s（双向 [both ways]）",
                     "8卡同步7B梯度的理想耗时 s [ideal all-reduce, 8 cards]"], rows)
    body += ["", f"注：{RING_GPUS}卡环形all-reduce同步Llama2 7B的bf16梯度（{grad_bytes / 1e9:.2f} GB），"
             "按每个方向一半的链路带宽计算，是理想下限；GeForce卡经PCIe通信，实际常更慢。"
             "[Ideal ring all-reduce at half the two-way link bandwidth each way; PCIe through the host is often "
             "slower.]"]
    return {"section": "5.3", "sections": ["5.3", *GPU_SECTIONS], "title": "互连与扩展性对比（kb 计算）",
            "figures": f.figs}, body


def power_price_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§5.4: TDP, price, and dense TFLOPS, GiB and GB/s per 10,000 CNY and TFLOPS per kW."""
    f, gpus = Figures(), gpus_in_order(corpus_dir)
    f.names(gpus)
    rows = []
    for g in gpus:
        row = [NAMES[g.id], f.num(f"{g.id}_tdp", g.power, 0, "W", f"copied from {g.record_id}"),
               f.num(f"{g.id}_per_kw", g.rate16 / g.power * 1000, 1, "TFLOPS/kW",
                     f"{g.rate16:g} dense TFLOPS / {g.power:g} W x 1000")]
        if g.price_cny:
            wan = g.price_cny / 1e4
            src = "文档" if g.price_source == "doc" else "厂商首发价"
            row += [f.num(f"{g.id}_price", g.price_cny, 0, "CNY", f"copied from {g.record_id} ({g.price_source})")
                    + f"（{src}）",
                    f.num(f"{g.id}_tflops_per_wan", g.rate16 / wan, 1, "TFLOPS per 10k CNY",
                          f"{g.rate16:g} / ({g.price_cny:g} / 10000)"),
                    f.num(f"{g.id}_gib_per_wan", g.vram_gib / wan, 2, "GiB per 10k CNY",
                          f"{g.vram_gib:g} / ({g.price_cny:g} / 10000)"),
                    f.num(f"{g.id}_gbs_per_wan", g.bandwidth / wan, 0, "GB/s per 10k CNY",
                          f"{g.bandwidth:g} / ({g.price_cny:g} / 10000)")]
        else:
            row += ["无价格 [no price]", DASH, DASH, DASH]
        rows.append(row)
    body = md_table(["GPU", "功耗 [TDP] W", "稠密TFLOPS每千瓦 [per kW]", "价格 [price] CNY",
                     "每万元TFLOPS [TFLOPS per 万 CNY]",
                     "每万元显存 GiB", "每万元带宽 GB/s"], rows)
    body += ["", "注：算力为FP32累加的稠密BF16算力；A100价格来自文档（未说明40GB或80GB），RTX 4090价格来自文档，"
             "其余RTX 40卡为英伟达国行首发价。[Dense fp32-accumulate rates; A100 and RTX 4090 prices from the "
             "document, other RTX 40 cards at NVIDIA China launch prices.]"]
    return {"section": "5.4", "sections": ["5.4", *GPU_SECTIONS, "3.4", "4.3"], "title": "功耗与性价比分析（kb 计算）",
            "figures": f.figs}, body


CONFIGS: list[tuple[str, dict[str, int], str]] = [
    ("8卡RTX 4090", {"rtx-4090": 8}, "11.3"),
    ("2卡A100 + 4卡RTX 4090", {"a100-80gb": 2, "rtx-4090": 4}, "11.3"),
    ("4卡A100", {"a100-80gb": 4}, "9.2"),
    ("8卡A100", {"a100-80gb": 8}, "11.3"),
    ("12卡RTX 4090", {"rtx-4090": 12}, "9.2"),
    ("16卡RTX 4090", {"rtx-4090": 16}, "9.2"),
    ("128张A100 80GB", {"a100-80gb": 128}, "9.1"),
]


def investment_table(corpus_dir: Path | None) -> tuple[dict[str, Any], list[str]]:
    """§8.1: cards-only capex and energy a year for the configurations the document names."""
    f, specs = Figures(), load_gpus(corpus(corpus_dir))
    rows = []
    for i, (name, cards, _section) in enumerate(CONFIGS):
        capex = sum(specs[g].price_cny or 0.0 for g, n in cards.items() for _ in range(n))
        kw = sum(specs[g].power * n for g, n in cards.items()) / 1000
        rows.append([name,
                     f.num(f"config{i}_capex", capex, 0, "CNY",
                           " + ".join(f"{n} x {specs[g].price_cny:g}" for g, n in cards.items())),
                     f.num(f"config{i}_kw", kw, 2, "kW",
                           " + ".join(f"{n} x {specs[g].power:g} W" for g, n in cards.items())),
                     f.num(f"config{i}_energy_year", kw * HOURS_A_YEAR * ENERGY_PRICE, 0, "CNY a year",
                           f"{kw:g} kW x {HOURS_A_YEAR} h x {ENERGY_PRICE:g} CNY/kWh")])
    saving = 1 - 8 * (specs["rtx-4090"].price_cny or 0) / (8 * (specs["a100-80gb"].price_cny or 1))
    pct = f.num("saving_pct", saving * 100, 1, "%", "1 - (8 x 19000) / (8 x 150000), cards only")
    f.num("energy_price", ENERGY_PRICE, 1, "CNY/kWh", "kb's default energy price")
    body = md_table(["配置 [configuration]", "显卡投入 [cards] CNY", "显卡功耗 [cards' TDP] kW",
                     "全年满载电费 [energy a year] CNY"], rows)
    body += ["", f"注：只计显卡，不含服务器、网络、散热；电费按显卡功耗全年满载、{ENERGY_PRICE:.1f} 元每千瓦时计。"
             f"8卡RTX 4090比8卡A100的显卡投入少 {pct}%（文档说“节省近80%”）。"
             "文档中大学团队“8卡RTX 4090集群，总成本约45万元”"
             "是整个集群，不只是显卡。[Cards only. 8 x RTX 4090 saves this much over 8 x A100 on cards; the "
             "university's 45万 is the whole cluster.]"]
    return {"section": "8.1", "sections": ["8.1", "3.4", "4.3", "11.3", "9.1", "9.2"],
            "title": "初始投资成本对比（kb 计算）", "figures": f.figs,
            "inputs": [specs["a100-80gb"].record_id, specs["rtx-4090"].record_id]}, body
