"""GPU figures, read from the corpus's spec records (the one source of truth; code holds only arithmetic)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from indexer.chunks import split_front_matter
from kb.errors import BadInput, CorpusError

GIB = 1024**3

# The figures the engine needs from every spec record.
REQUIRED = ("vram_gib", "bandwidth_gbs", "bf16_dense_tflops", "int8_dense_tops", "int8_sparse_tops",
            "tdp_w", "nvlink_gbs", "pcie_gbs")


@dataclass(frozen=True)
class GpuSpec:
    """One GPU kind's figures as the engine uses them, with the record they came from."""

    id: str
    name: str
    record_id: str  # the spec record's passage id, cited by every check that uses it
    section: str
    datacenter: bool
    vram_gib: float
    bandwidth_gbs: float
    bf16_dense_tflops: float  # dense, fp32 accumulate: the only training/prefill denominator
    int8_dense_tops: float
    int8_sparse_tops: float
    tdp_w: float
    nvlink_gbs: float
    pcie_gbs: float
    price_cny: float | None
    price_source: str | None  # "doc" (cite its section) or "vendor"
    price_section: str | None
    figures: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def vram_bytes(self) -> int:
        """Capacity as the card reports it: binary units (an "80GB" A100 holds 80 GiB)."""
        return int(self.vram_gib * GIB)

    def price_citations(self) -> list[str]:
        """Passage ids behind the price: the spec record, and the guide section when the document states it."""
        if self.price_source == "doc" and self.price_section:
            return [self.record_id, f"guide-{self.price_section}"]
        return [self.record_id]


def _spec_from_record(path: Path) -> GpuSpec:
    meta, _ = split_front_matter(path.read_text(encoding="utf-8"), str(path))
    figures = meta.get("figures") or {}
    missing = [k for k in REQUIRED if k not in figures]
    if missing:
        raise CorpusError(f"{path}: spec record lacks figures {missing}")
    value = {k: float(v["value"]) for k, v in figures.items() if isinstance(v.get("value"), int | float)}
    price = figures.get("price_cny")
    return GpuSpec(
        id=str(meta["gpu"]), name=str(meta["name"]), record_id=str(meta["id"]), section=str(meta["section"]),
        datacenter=bool(meta.get("datacenter")),
        **{k: value[k] for k in REQUIRED},
        price_cny=value.get("price_cny"),
        price_source=price.get("source") if price else None,
        price_section=str(price["section"]) if price and price.get("section") else None,
        figures=figures,
    )


@lru_cache(maxsize=4)
def _load(specs_dir: Path) -> dict[str, GpuSpec]:
    specs = [_spec_from_record(p) for p in sorted(specs_dir.glob("*.md"))]
    if not specs:
        raise CorpusError(f"no spec records in {specs_dir}")
    return {s.id: s for s in specs}


def load_gpus(corpus_dir: Path | None = None) -> dict[str, GpuSpec]:
    """GPU id -> figures, from corpus/specs/*.md (read once a process)."""
    if corpus_dir is None:
        from kb.settings import get_settings

        corpus_dir = get_settings().corpus_dir
    return _load(Path(corpus_dir).resolve() / "specs")


def get_gpu(gpu_id: str, corpus_dir: Path | None = None) -> GpuSpec:
    """One GPU by id; BadInput listing the accepted ids otherwise."""
    gpus = load_gpus(corpus_dir)
    key = gpu_id.strip().lower()
    if key not in gpus:
        raise BadInput(f"unknown GPU {gpu_id!r}; accepted: {', '.join(gpus)}", field="gpu")
    return gpus[key]


def gpu_records(corpus_dir: Path | None = None) -> list[dict[str, Any]]:
    """The spec records with every figure's source (doc quote and section, vendor, note): for GET /v1/gpus."""
    return [
        {"id": s.id, "name": s.name, "passage_id": s.record_id, "section": s.section,
         "datacenter": s.datacenter, "figures": s.figures}
        for s in load_gpus(corpus_dir).values()
    ]
