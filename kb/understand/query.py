"""Query: what kb understood of a question, as typed slots — the one shape every later step reads.

`kb.understand.read.read_query` fills it from a question's text in one pass;
`kb.understand.followup.merge` folds a follow-up
into the conversation's earlier Query; the fit engine, the intent and the composer read it. `to_state`
and `from_state` are the JSON form an Answer returns as `state` and a client passes back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.language import Language
from kb.understand.state import Known, carried, check_state
from kb.words.note import Note


@dataclass
class Query:
    """The checkable parts of a question; None (or empty) where the question does not say."""

    gpus: list[tuple[str, int | None]] = field(default_factory=list)  # record id, the count said beside it
    # The cards a conversation had before a turn swapped them ("换成 l40s"), so "差多少" / "how much faster?" next
    # sets the two side by side.
    earlier_gpus: list[tuple[str, int | None]] = field(default_factory=list)
    case: str | None = None  # the guide case a conversation is about ("case-9.1-university-team"), for "it", "they"
    model: str | None = None  # a preset id or a size ("70b")
    also: list[str] = field(default_factory=list)  # further presets named, to compare with `model`
    workloads: list[str] = field(default_factory=list)
    precision: str | None = None
    seq_len: int | None = None
    batch: int | None = None
    tokens: float | None = None
    zero: int | None = None
    tp: int | None = None  # tensor-parallel size the question pins ("TP 8", "张量并行 8")
    pp: int | None = None  # pipeline-parallel size it pins
    budget_cny: float | None = None
    vram_gb: int | None = None  # a card's memory said without a card ("is 24gb enough for 13b"), or beside a card kb
    # has no figures for ("2080 Ti 11G"): what its memory verdict is computed from; not state
    formats: list[str] = field(default_factory=list)  # every number format the question names; not state
    unnamed: str | None = None  # the question with the cards' names read out (what figures it asks); not state
    offload: str | None = None  # "optimizer" or "params": what full training offloads to the host; not state
    offload_device: str | None = None  # "nvme" when said; the host's memory otherwise; not state
    host_memory_gib: float | None = None  # a node's host memory said ("1,024 GB of CPU memory"); not state
    max_gpus: int | None = None
    how_many: bool = False
    wants_selection: bool = False
    latency: bool = False
    low_power: bool = False  # "功耗越低越好", "tight power budget": a pick ranked by the cards' power; not state
    individual: bool = False  # a pick for one person (a solo developer, a freelancer): one consumer card; not state
    setting: str | None = None  # the §11.2 setting a pick is for ("边缘部署", "实时交互式应用"); not state
    scratch: bool = False  # training said as pre-training or from scratch: adapters are no fallback; not state
    among: list[str] = field(default_factory=list)  # the records a pick chooses between ("A100和4090选哪个"); not state
    no_datacenter: bool = False  # where the cards go has no server room (an office): no data-center cards; not state
    speed: bool = False  # asks for a decode rate (tokens/s), which people quote at a short context
    concurrency: int | None = None
    count: int | None = None  # a GPU count said without a GPU ("with 8 cards"): a follow-up's new count
    attributes: list[str] = field(default_factory=list)  # spec attributes asked for ("bandwidth", "power" …)
    asked: str | None = None  # one of kb.understand.state.ASKED
    asks: str | None = None  # what the words ask of a model even when none is named (a follow-up's ask); not state
    # A quantity derived from the subject's figures that no slot holds ("per_gb": price per GB of memory,
    # "per_tflops": price per dense TFLOPS, "per_kw", "per_w", "per_10k", "per_1k", "per_cny": a figure per unit,
    # "grad_sync": a gradient all-reduce's time), kept so that a follow-up asking it ("那每 GB 显存多少钱") asks it of
    # the conversation's cards.
    derived: str | None = None
    period: str = "month"  # the span a running cost is asked for: "day", "month" or "year"; not state
    energy_cny_per_kwh: float | None = None  # the electricity price a question gives ("at 1 cny/kwh"); not state
    unknown_models: list[str] = field(default_factory=list)  # as written: "GPT-4"
    unknown_gpus: list[str] = field(default_factory=list)  # as written: "RTX 3090"
    notes: list[Note] = field(default_factory=list)
    language: Language = "en"  # the language `notes` are written in

    @property
    def unknown(self) -> list[str]:
        return [*self.unknown_models, *self.unknown_gpus]

    @property
    def gpu_count(self) -> int | None:
        counts = {c for _, c in self.gpus if c is not None}
        return counts.pop() if len(counts) == 1 else None

    @property
    def slots(self) -> bool:
        """Whether the question said anything kb can carry into a follow-up."""
        return bool(self.gpus or self.model or self.workloads or self.precision or self.seq_len
                    or self.concurrency or self.budget_cny or self.tokens or self.attributes or self.case)


# The slots a state carries, with their JSON names (contracts.md; kb/understand/state.py declares and checks them).
_STATE_SCALARS = ("model", "precision", "seq_len", "batch", "tokens", "zero", "tp", "pp", "budget_cny",
                  "max_gpus", "concurrency", "count", "asked", "derived", "case")
_STATE_FLAGS = ("how_many", "wants_selection", "latency", "speed")


def to_state(q: Query, intent: str, language: Language) -> dict[str, Any]:
    """The Query as the JSON `state` of an Answer (no notes: those are re-derived on every turn); a slot a later
    turn would refuse is left out (kb/understand/state.py: `carried`)."""
    return carried(state_slots(q, intent, language))


def state_slots(q: Query, intent: str, language: Language) -> dict[str, Any]:
    """The slots a state carries, as read (before `carried` leaves out what a later turn would refuse)."""
    state: dict[str, Any] = {"intent": intent, "language": language,
                             "gpus": [{"id": g, "count": c} for g, c in q.gpus],
                             "earlier_gpus": [{"id": g, "count": c} for g, c in q.earlier_gpus],
                             "models": [q.model, *q.also] if q.model else [],
                             "workload": q.workloads[0] if len(q.workloads) == 1 else (q.workloads or None),
                             "gpu_count": q.gpu_count, "attributes": list(q.attributes)}
    for name in (*_STATE_SCALARS, *_STATE_FLAGS):
        state[name] = getattr(q, name)
    return state


def from_state(state: object, known: Known | None = None) -> Query:
    """A Query from an Answer's `state`, once it has passed State (and names what `known` has); BadInput naming
    `state.<field>` when it is not one kb returned."""
    s = check_state(state, known)
    q = Query(gpus=[(c.id, c.count) for c in s.gpus], earlier_gpus=[(c.id, c.count) for c in s.earlier_gpus],
              model=s.models[0] if s.models else None, also=list(s.models[1:]),
              workloads=[s.workload] if isinstance(s.workload, str) else list(s.workload or []),
              attributes=list(s.attributes), language=s.language or "en")
    for name in (*_STATE_SCALARS, *_STATE_FLAGS):
        if name != "model":
            setattr(q, name, getattr(s, name))
    return q
