"""GPU figures, read from the corpus's spec records (the one source of truth; code holds only arithmetic)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from indexer.chunks import read_front_matter
from kb.errors import BadInput, CorpusError
from kb.fit.capabilities import FEATURES, Capabilities, parse_capabilities
from kb.numbers import GIB

# The figures the engine needs from every spec record: each a number, or "unknown" where no public source gives
# one (the check then says the speed or power is unknown instead of guessing). A card without BF16 (Volta, Turing,
# Pascal) says "not supported" there and gives fp16_dense_tflops, or only fp32_tflops (Pascal has no tensor cores).
REQUIRED = ("bandwidth_gbs", "bf16_dense_tflops", "tdp_w", "nvlink_gbs", "pcie_gbs")
OPTIONAL = ("int8_dense_tops", "int8_sparse_tops")  # the vendor-only records quote FP8, not INT8
UNKNOWN = ("unknown", "not supported")
MIB = 1024**2
# Link names a record's intra_node_link may use (the spec records' link kinds).
INTRA_LINKS = ("nvlink-2", "nvlink-3", "nvlink-4", "nvlink-5", "nvlink-export", "infinity-fabric", "roce-scale-up",
               "hccs", "pcie-3", "pcie-4", "pcie-5")


@dataclass(frozen=True)
class TeamPrice:
    """A card's newest buy price from a team's document (kb/documents/prices.py), with its row to cite."""

    amount_cny: float
    quoted: str  # as the document writes it: "¥230,000", "$7,800"
    date: str  # YYYY-MM-DD
    title: str  # the document's title
    chunk_id: str  # the row's passage id
    guide_price_cny: float | None = None  # what the spec record says, shown beside it
    guide_source: str | None = None  # "doc" or "vendor"
    guide_section: str | None = None


@dataclass(frozen=True)
class GpuSpec:
    """One GPU kind's figures as the engine uses them, with the record they came from."""

    id: str
    name: str
    record_id: str  # the spec record's passage id, cited by every check that uses it
    section: str
    datacenter: bool
    vram_gib: float  # capacity in GiB as kb uses it (from vram_gib, or vram_gb decimal ÷ 2^30)
    bandwidth_gbs: float | None  # None: no public figure (the check gives no speed)
    bf16_dense_tflops: float | None  # the 16-bit dense rate, fp32 accumulate: the training/prefill denominator
    int8_dense_tops: float | None
    int8_sparse_tops: float | None
    tdp_w: float | None
    nvlink_gbs: float | None  # 0: no NVLink; None: unknown
    pcie_gbs: float | None
    price_cny: float | None
    price_source: str | None  # "doc" (cite its section) or "vendor"
    price_section: str | None
    capacity_unit: str = "GiB"  # "GiB" (as the card reports it) or "GB" (a datasheet's decimal figure)
    capacity_value: float = 0.0  # the record's figure in that unit
    driver_mib: float | None = None  # total memory as nvidia-smi / rocm-smi / hl-smi report it: what checks use
    fp8_dense_tflops: float | None = None  # None: the record gives none; 0: no FP8 tensor cores
    fp4_dense_tflops: float | None = None  # Blackwell only
    gpus_per_node: int = 1  # the largest tensor-parallel group: a node's GPUs on one fast link
    intra_node_link: str = "pcie-4"
    nvlink_peers: int = 0  # GPUs one NVLink domain joins (2 for a bridge); 0: all of a node's
    rate_format: str = "bf16"  # what bf16_dense_tflops is: bf16, fp16 (no BF16 tensor cores) or fp32 (no tensor cores)
    capabilities: Capabilities = field(default_factory=Capabilities, compare=False)
    stated: bool = False  # a card kb has no record of, checked from the memory a question or request states
    figures: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)
    team_price: TeamPrice | None = field(default=None, compare=False)  # set by with_team_prices

    @property
    def speed_known(self) -> bool:
        """Whether the record gives the bandwidth and the 16-bit rate a speed or a time needs."""
        return self.bandwidth_gbs is not None and self.bf16_dense_tflops is not None

    @property
    def rate16(self) -> float:
        """The 16-bit dense rate, for arithmetic that runs only where `speed_known` (else ValueError)."""
        if self.bf16_dense_tflops is None:
            raise ValueError(f"{self.id}: the record gives no 16-bit rate")
        return self.bf16_dense_tflops

    @property
    def bandwidth(self) -> float:
        """Memory bandwidth, GB/s, for arithmetic that runs only where `speed_known` (else ValueError)."""
        if self.bandwidth_gbs is None:
            raise ValueError(f"{self.id}: the record gives no memory bandwidth")
        return self.bandwidth_gbs

    @property
    def power(self) -> float:
        """TDP, W, for arithmetic over cards whose record gives it (else ValueError)."""
        if self.tdp_w is None:
            raise ValueError(f"{self.id}: the record gives no TDP")
        return self.tdp_w

    def nvlink_spans(self, span: int) -> bool:
        """Whether a group of `span` GPUs of a node is all on NVLink (a two-card bridge joins pairs only)."""
        if not self.nvlink_gbs:
            return False
        return span <= (self.nvlink_peers or self.gpus_per_node)

    @property
    def vram_bytes(self) -> int:
        """Capacity in bytes: what the driver reports (the record's nvidia-smi source), else its nominal figure."""
        if self.driver_mib:
            return int(self.driver_mib * MIB)
        return int(self.vram_gib * GIB) if self.capacity_unit == "GiB" else int(self.capacity_value * 1e9)

    def price_citations(self) -> list[str]:
        """Passage ids behind the price: the spec record, and the guide section when the document states it."""
        if self.team_price is not None:
            return [self.record_id, self.team_price.chunk_id]
        if self.price_source == "doc" and self.price_section:
            return [self.record_id, f"guide-{self.price_section}"]
        return [self.record_id]


def card_family(gpu: str) -> str:
    """A record id without its memory size ("a100-80gb" → "a100"): the card as people name it."""
    return re.sub(r"-\d+gb$", "", gpu)


def _rate(value: dict[str, float], figures: dict[str, Any], path: Path) -> tuple[float | None, str]:
    """The 16-bit dense rate and the format it is: BF16, else FP16 (Volta, Turing), else FP32 (Pascal)."""
    if "bf16_dense_tflops" in value:
        return value["bf16_dense_tflops"], "bf16"
    if figures["bf16_dense_tflops"].get("value") == "not supported":
        if "fp16_dense_tflops" in value:
            return value["fp16_dense_tflops"], "fp16"
        if "fp32_tflops" in value:
            return value["fp32_tflops"], "fp32"
        raise CorpusError(f"{path}: no BF16, and no fp16_dense_tflops or fp32_tflops to compute 16-bit weights with")
    return None, "bf16"


def _spec_from_record(path: Path) -> GpuSpec:
    meta, _ = read_front_matter(path)
    figures = meta.get("figures") or {}
    missing = [k for k in REQUIRED if k not in figures]
    if "vram_gib" not in figures and "vram_gb" not in figures:
        missing.append("vram_gib or vram_gb")
    if missing:
        raise CorpusError(f"{path}: spec record lacks figures {missing}")
    odd = [k for k in REQUIRED if not isinstance(figures[k].get("value"), int | float)
           and figures[k].get("value") not in UNKNOWN]
    if odd:
        raise CorpusError(f"{path}: figures {odd} must be a number, 'unknown' or 'not supported'")
    value = {k: float(v["value"]) for k, v in figures.items()
             if isinstance(v.get("value"), int | float) and not isinstance(v.get("value"), bool)}
    price = figures.get("price_cny")
    rate, rate_format = _rate(value, figures, path)
    return GpuSpec(
        id=str(meta["gpu"]), name=str(meta["name"]), record_id=str(meta["id"]), section=str(meta["section"]),
        datacenter=bool(meta.get("datacenter")),
        vram_gib=value["vram_gib"] if "vram_gib" in value else value["vram_gb"] * 1e9 / GIB,
        capacity_unit="GiB" if "vram_gib" in value else "GB",
        capacity_value=value["vram_gib"] if "vram_gib" in value else value["vram_gb"],
        bandwidth_gbs=value.get("bandwidth_gbs"), bf16_dense_tflops=rate, tdp_w=value.get("tdp_w"),
        nvlink_gbs=value.get("nvlink_gbs"), pcie_gbs=value.get("pcie_gbs"),
        **{k: value.get(k) for k in OPTIONAL},  # type: ignore[arg-type]
        price_cny=value.get("price_cny"),
        price_source=price.get("source") if price else None,
        price_section=str(price["section"]) if price and price.get("section") else None,
        driver_mib=value.get("vram_driver_mib"), fp8_dense_tflops=value.get("fp8_dense_tflops"),
        fp4_dense_tflops=value.get("fp4_dense_tflops"), gpus_per_node=int(value.get("gpus_per_node", 1)),
        intra_node_link=_intra_link(meta, path), nvlink_peers=int(value.get("nvlink_peers", 0)),
        rate_format=rate_format, capabilities=parse_capabilities(meta.get("capabilities")),
        figures=figures,
    )


def _intra_link(meta: dict[str, Any], path: Path) -> str:
    link = str(meta.get("intra_node_link") or "pcie-4")
    if link not in INTRA_LINKS:
        raise CorpusError(f"{path}: intra_node_link {link!r} is not one of {INTRA_LINKS}")
    return link


@lru_cache(maxsize=4)
def _load(specs_dir: Path) -> dict[str, GpuSpec]:
    specs = [_spec_from_record(p) for p in sorted(specs_dir.glob("*.md"))]
    if not specs:
        raise CorpusError(f"no spec records in {specs_dir}")
    return {s.id: s for s in specs}


@lru_cache(maxsize=8)
def load_gpus(corpus_dir: Path) -> dict[str, GpuSpec]:
    """GPU id -> figures, from corpus/specs/*.md (read once a process; the path resolved once too: a budget
    selection looks cards up a thousand times an answer)."""
    return _load(Path(corpus_dir).resolve() / "specs")


def with_team_prices(gpus: dict[str, GpuSpec], prices: dict[str, TeamPrice]) -> dict[str, GpuSpec]:
    """The specs with a team's newest buy price in place of the record's (which stays beside it, dated).

    A card the guide gives no price gets one this way, so it can be ranked in budget selections.
    """
    out = dict(gpus)
    for gpu_id, team in prices.items():
        spec = gpus.get(gpu_id)
        if spec is None:
            continue
        team = replace(team, guide_price_cny=spec.price_cny, guide_source=spec.price_source,
                       guide_section=spec.price_section)
        out[gpu_id] = replace(spec, price_cny=team.amount_cny, price_source="team", team_price=team)
    return out


def get_gpu(gpu_id: str, corpus_dir: Path) -> GpuSpec:
    """One GPU by id; BadInput listing the accepted ids otherwise."""
    gpus = load_gpus(corpus_dir)
    key = gpu_id.strip().lower()
    if key not in gpus:
        raise BadInput(f"unknown GPU {gpu_id!r}; accepted: {', '.join(gpus)}", field="gpu")
    return gpus[key]


def gpu_records(corpus_dir: Path) -> list[dict[str, Any]]:
    """The spec records with every figure's source (doc quote and section, vendor, note) and the card's capabilities
    (architecture, compute capability, BF16/FP8/FP4, NVLink, MIG, ECC; None where unknown): for GET /v1/gpus."""
    return [
        {"id": s.id, "name": s.name, "passage_id": s.record_id, "section": s.section,
         "datacenter": s.datacenter, "figures": s.figures,
         "capabilities": {k: {"value": s.capabilities.value(k), "source": "vendor", "note": s.capabilities.notes[k]}
                          for k in FEATURES}}
        for s in load_gpus(corpus_dir).values()
    ]
