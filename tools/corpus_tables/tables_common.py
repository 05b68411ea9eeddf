"""Helpers the table generators share: GPU order and names, declared figures, markdown tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.fit.engine import FitEngine
from kb.fit.gpus import GpuSpec, load_gpus

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "corpus"

ORDER = ("a100-80gb", "a100-40gb", "h100-sxm", "rtx-4090", "rtx-4080", "rtx-4070-ti", "rtx-4070",
         "rtx-4060-ti-16gb", "rtx-4060")
NAMES = {"a100-80gb": "A100 80GB", "a100-40gb": "A100 40GB", "h100-sxm": "H100 SXM", "rtx-4090": "RTX 4090",
         "rtx-4080": "RTX 4080", "rtx-4070-ti": "RTX 4070 Ti", "rtx-4070": "RTX 4070",
         "rtx-4060-ti-16gb": "RTX 4060 Ti 16GB", "rtx-4060": "RTX 4060"}
GPU_SECTIONS = ["3.2", "4.2", "4.1"]
DASH = "—"


class Figures:
    """Collects the derived figures a table states, and formats each the way it is declared."""

    def __init__(self) -> None:
        self.figs: dict[str, dict[str, Any]] = {}

    def num(self, name: str, value: float, decimals: int, unit: str, note: str) -> str:
        v: float = round(value, decimals) if decimals else round(value)
        self.figs[name] = {"value": v, "unit": unit, "source": "derived", "note": note}
        return f"{v:.{decimals}f}" if decimals else f"{int(v):,}"

    def names(self, gpus: list[GpuSpec]) -> None:
        """GPU names carry numbers (80GB, 16GB): declare each card's capacity, copied from its record."""
        for g in gpus:
            self.num(f"{g.id}_vram_gib", g.vram_gib, 0, "GiB", f"copied from {g.record_id}")


def corpus(corpus_dir: Path | None) -> Path:
    """The corpus the tables are computed from: the one given, else this repository's."""
    return Path(corpus_dir or DEFAULT_CORPUS).resolve()


def fit_engine(corpus_dir: Path | None) -> FitEngine:
    """The fit engine the tables use: default conventions (MFU 40 %, 1 CNY/kWh), the corpus's spec records."""
    return FitEngine(corpus(corpus_dir))


def gpus_in_order(corpus_dir: Path | None) -> list[GpuSpec]:
    specs = load_gpus(corpus(corpus_dir))
    return [specs[g] for g in ORDER if g in specs]


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]
