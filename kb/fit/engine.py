"""FitEngine: the fit checks, built once from explicit settings, rendering its Notes into zh/en at the edge.

    engine = FitEngine.from_settings(settings)          # or FitEngine(corpus_dir, mfu=…, …)
    result = engine.check(FitRequest(...), language="en")   # FitResult, prose in that language

It knows requests, not questions: what a question asks of it is kb/answer/checks.py's to work out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from kb.cache import LruCache
from kb.errors import BadInput
from kb.fit.alternatives import alternatives
from kb.fit.check import Checked, Conventions, run_check
from kb.fit.check_parts import stated_card
from kb.fit.gpus import GpuSpec, TeamPrice, get_gpu, gpu_records, load_gpus, with_team_prices
from kb.fit.request import FitRequest
from kb.fit.result import FitResult, MemoryNeed, Selection
from kb.fit.select import select
from kb.fit.support import CardFeature, PrecisionSupport, card_feature, precision_support
from kb.language import Language, check_language
from kb.words.fit import render_all
from kb.words.note import Note

NEED_PROBE_GIB = 1 << 20  # the memory a need-only check gives an unnamed card: more than any check needs
# the steps of a check on the probe card that are about that card, not about the need
NOT_A_NEED = ("gpu_line_partial", "verdict", "fewest", "none_fits", "capex_none_step", "no_speed_unknown",
              "no_speed_nofit")
CHECKS_REMEMBERED = 4096  # checks (numbers and Notes, a few KB each) an engine keeps (KB_FIT_CACHE_SIZE)


class _Settings(Protocol):
    corpus_dir: Path
    mfu: float
    energy_price_cny_per_kwh: float
    usd_cny: float
    inter_node_gbps: float
    fit_cache_size: int



class FitEngine:
    """Fit checks over one set of spec records with one set of conventions (MFU, energy price, USD→CNY)."""

    def __init__(self, corpus_dir: Path, *, mfu: float = 0.40, energy_price_cny_per_kwh: float = 1.0,
                 usd_cny: float = 7.2, prefill_budget_tokens: int = 8192, inter_node_gbps: float = 400.0,
                 prices: dict[str, TeamPrice] | None = None, checks_remembered: int = CHECKS_REMEMBERED) -> None:
        self.corpus_dir = Path(corpus_dir).resolve()
        self.prices = dict(prices or {})  # teams' newest buy prices by GPU id (kb/documents/pricebook.py)
        self.conventions = Conventions(mfu=mfu, energy_price_cny_per_kwh=energy_price_cny_per_kwh,
                                       prefill_budget_tokens=prefill_budget_tokens, inter_node_gbps=inter_node_gbps)
        self.usd_cny = usd_cny
        self._checked: LruCache[str, Checked] = LruCache(checks_remembered)

    @classmethod
    def from_settings(cls, settings: _Settings) -> FitEngine:
        """Built from kb's Settings (or anything with corpus_dir, mfu, energy_price_cny_per_kwh, usd_cny)."""
        return cls(settings.corpus_dir, mfu=settings.mfu, energy_price_cny_per_kwh=settings.energy_price_cny_per_kwh,
                   usd_cny=settings.usd_cny, inter_node_gbps=settings.inter_node_gbps,
                   checks_remembered=settings.fit_cache_size)

    @property
    def gpus(self) -> dict[str, GpuSpec]:
        """The spec records, read on first use (so a corpus without specs/ can still be indexed and searched;
        a fit check on it is a CorpusError that names the folder)."""
        gpus = load_gpus(self.corpus_dir)
        return with_team_prices(gpus, self.prices) if self.prices else gpus

    def with_prices(self, prices: dict[str, TeamPrice]) -> FitEngine:
        """The same conventions over teams' prices (a new engine: one in use is never changed under a check)."""
        c = self.conventions
        return FitEngine(self.corpus_dir, mfu=c.mfu, energy_price_cny_per_kwh=c.energy_price_cny_per_kwh,
                         usd_cny=self.usd_cny, prefill_budget_tokens=c.prefill_budget_tokens,
                         inter_node_gbps=c.inter_node_gbps, prices=prices, checks_remembered=self._checked.maxsize)

    # -- one check --------------------------------------------------------------------------------
    def gpu(self, gpu_id: str) -> GpuSpec:
        spec = get_gpu(gpu_id, self.corpus_dir)
        return self.gpus[spec.id] if self.prices else spec

    def knows(self, gpu_id: str) -> bool:
        """Whether a spec record has this GPU id."""
        return gpu_id.strip().lower() in self.gpus

    def card(self, request: FitRequest) -> GpuSpec:
        """The request's card: its spec record, or — for a card kb has no record of — a card of the memory the request
        states (vram_gib). An unknown card with no memory stated is BadInput naming the memory it would need."""
        if self.knows(request.gpu):
            return self.gpu(request.gpu)
        if request.vram_gib:
            return stated_card(request.gpu, request.vram_gib)
        need = self.need(request)
        try:
            self.gpu(request.gpu)
        except BadInput as e:
            raise BadInput(f"{e}; or give its memory (--vram-gib): this check needs "
                           f"{need.per_gpu_required_bytes / 2**30:,.1f} GiB a card", field="gpu") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def checked(self, request: FitRequest) -> Checked:
        """The numbers and the Notes, unrendered (for selection and alternatives). Remembered by the request:
        selections and alternatives check the same cards at the same counts for every budget asked."""
        return self._checked.get_or_compute(
            request.model_dump_json(), lambda: run_check(request, self.card(request), self.conventions))

    def need(self, request: FitRequest, language: Language = "en") -> MemoryNeed:
        """What a check needs of a card kb has no record of when no memory was stated: the memory a card at the count
        asked (the least-memory layout), and the whole job's total with its terms."""
        probe = request.model_copy(update={"vram_gib": None})
        c = run_check(probe, stated_card(request.gpu, NEED_PROBE_GIB), self.conventions)
        c = Checked(c.result, [n for n in c.assumptions if n.key not in ("capacity_stated", "unknown_figures")],
                    [n for n in c.steps if n.key not in NOT_A_NEED])
        r = self.render(c, check_language(language))
        return MemoryNeed(gpu=r.gpu, gpu_count=r.gpu_count, model=r.model, model_params=r.model_params,
                          workload=r.workload, precision=r.precision, seq_len=r.seq_len, batch=r.batch,
                          per_gpu_required_bytes=r.per_gpu_required_bytes, total_required_bytes=r.total_required_bytes,
                          breakdown=r.breakdown, per_gpu_breakdown=r.per_gpu_breakdown or r.breakdown,
                          assumptions=r.assumptions, steps=r.steps)

    # -- what a card can do ---------------------------------------------------------------------
    def precision_support(self, gpu_id: str, precision: str, workload: str) -> PrecisionSupport:
        """Whether a card computes `precision` for `workload`: natively, weight-only, upcast — or refused, with what
        runs instead (the rules in kb.fit.support, read from the card's record)."""
        return precision_support(self.gpu(gpu_id), precision, workload)

    def supports(self, gpu_id: str, feature: str) -> CardFeature:
        """"Does card X support Y": bf16, fp8, fp4, nvlink, mig, ecc (or its architecture, compute capability), from
        its spec record, with the record's source note. BadInput for a card or feature kb does not know."""
        try:
            return card_feature(self.gpu(gpu_id), feature)
        except ValueError as e:
            raise BadInput(str(e), field="feature") from None

    def numbers(self, request: FitRequest) -> FitResult:
        """A FitResult without prose or alternatives: cheap, for searches."""
        return self.checked(request).result

    def check(self, request: FitRequest, language: Language = "en") -> FitResult:
        """The full check: numbers, alternatives, and assumptions and steps written in `language`."""
        lang = check_language(language)
        c = self.checked(request)
        alts = alternatives(request, c.result, self.numbers)
        return self.render(c, lang).model_copy(update={"alternatives": alts})

    @staticmethod
    def render(c: Checked, language: Language, extra: list[Note] | None = None) -> FitResult:
        return c.result.model_copy(update={"assumptions": render_all([*(extra or []), *c.assumptions], language),
                                           "steps": render_all(c.steps, language)})

    def gpu_records(self) -> list[dict[str, Any]]:
        return gpu_records(self.corpus_dir)

    # -- selection --------------------------------------------------------------------------------
    def select(self, model: str, workload: str, *, language: Language = "en",
               **kw: Any) -> tuple[Selection, list[FitResult]]:
        return select(self, model, workload, language=check_language(language), **kw)
