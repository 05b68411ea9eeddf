"""The answer a person reads first: the direct answer from what kb knows exactly, then supporting sentences.

Facts come from fit checks (verdicts, speeds, costs), the selection (picks), spec records (figures and
their notes, prices: kb/answer/record_sentences.py), the guide's budget rule, and passages (the guide's own words in
the asker's language).
Each sentence carries the markers of what it cites; `kb.answer.verify` drops any sentence whose numbers its
markers do not support, so a mistake here shows as a missing sentence, never as a wrong figure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from indexer.chunks import Chunk
from kb.answer.case_sentences import CaseSentences
from kb.answer.concepts import concept_lead
from kb.answer.facts import Corrections, aligned
from kb.answer.guide_rules import (
    audience_rule,
    budget_rule,
    model_size_rule,
    reason_lines,
    rules_by_size,
    scale_rule,
    setting_rule,
)
from kb.answer.matched import matched
from kb.answer.mechanism_sentences import mechanism_sentences
from kb.answer.observed import observed_sentences
from kb.answer.parts import Composition, Facts, Sentence, TeamPrices
from kb.answer.sentences import asked_units, best_sentences
from kb.answer.sync_sentences import TABLE, grad_sync
from kb.answer.verify import object_figures, text_figures, unsupported
from kb.fit.presets import PRESETS, resolve_model
from kb.fit.render import layout_text
from kb.fit.result import FitResult
from kb.language import Language
from kb.models import Passage
from kb.numbers import GIB
from kb.retrieve.focus import FRAMING, asks_framing
from kb.retrieve.sentences import Sentences
from kb.understand.audience import asks_driver_focus
from kb.understand.intent import KEY_FIGURES, also_asked_figures, asks_rent, asks_which, asks_why, derived_ask
from kb.understand.mechanisms import mechanisms
from kb.understand.terms import terms
from kb.words.answer import WORKLOADS, end, gib, gpu_name, money, rate, whole, workload_phrase
from kb.words.catalog import cards, say
from kb.words.fit import offload_note, render, support_note

MAX_CHECKS = 3  # verdicts stated; the rest are in fit_checks
# "why does X train slower than Y", "为什么 h800 比 h100 慢": two cards set against each other in a why
_VERSUS_WHY = re.compile(r"slower|faster|quicker|(?:better|worse) than|比.{0,12}(?:慢|快|差|强|弱)|不如|"
                         r"(?:pick|choose|prefer|take|buy|use)\w* .{1,30}? over|instead of|而不(?:是|选|用)",
                         re.IGNORECASE)
# Passage sentences after a direct answer (one, unless named here). A pick has none: the guide's budget rule is
# said with it, and any other sentence of chapter 11 is the rule of some other budget.
SUPPORT = {"case": 2, "selection": 0}
REASONS = 4  # sentences, at most two a passage, when the guide's own words are the answer


class Composer(CaseSentences):
    """Composes and verifies answers over one index's chunks (records are looked up by their group id)."""

    def __init__(self, chunks: list[Chunk], to_passage: Callable[[Chunk, int, float, Language], Passage],
                 top_k_of: Callable[[list[Passage]], int],
                 figure: Callable[[str, str], tuple[float, str] | None] = lambda gpu, attr: None,
                 prices: Callable[[str, Language], TeamPrices] = lambda gpu, language: TeamPrices(),
                 by_id: Mapping[str, Chunk] | None = None,
                 lacks: Callable[[str], frozenset[str]] = lambda gpu: frozenset(),
                 cards_in: Callable[[str], dict[str, int]] = lambda text: {},
                 gpus_named: Callable[[str], tuple[str, ...]] = lambda text: (),
                 sentences: Sentences | None = None) -> None:
        """`chunks`: the guide's (its records are read here once); `by_id`: every live chunk, teams' documents'
        too, as the index holds them now (kb/retrieve/search_index.py), for the price rows an answer cites."""
        self._figure = figure  # a GPU record's figure for a spec attribute (value, unit), for comparisons
        self._lacks = lacks  # the formats a card has no tensor cores for ("fp8", "fp4"), for a why
        self._cards_in = cards_in  # the cards a case's text counts, for what they cost
        self._gpus_named = gpus_named  # the cards a sentence names: after a card's figures, only sentences about it
        self._sentences = sentences  # each prose sentence's vector (kb/retrieve/sentences.py), for quoting by meaning
        self._prices = prices  # a card's team price and rent-or-buy break-even (kb/documents), if any
        self._by_id: Mapping[str, Chunk] = by_id if by_id is not None else {c.id: c for c in chunks}
        self._groups: dict[str, list[Chunk]] = {}
        for c in chunks:
            self._groups.setdefault(c.group, []).append(c)
        self._to_passage = to_passage
        self._spec_chunks = [c for c in chunks if c.kind == "spec"]
        self._concepts = [c for c in chunks if c.kind == "concept" and c.aliases]  # (a record's first part)
        self._corrections = Corrections([c for c in chunks if c.kind in ("spec", "tradeoff")])
        # A chunk's figures never change: read once, when an answer first cites it (not all at start-up).
        self._chunks_by_id = {c.id: c for c in chunks}
        self._figures_of: dict[str, set[float]] = {}
        self._top_k_of = top_k_of

    def _similar(self, f: Facts, p: Passage, texts: list[str]) -> list[float | None]:
        """Each sentence's cosine with the question, where the index embedded it (None otherwise)."""
        if self._sentences is None or f.query_vector is None:
            return [None] * len(texts)
        return self._sentences.similarity(f.query_vector, p.id, f.language, texts)

    # -- passages the answer cites -------------------------------------------------------------------
    def _cite(self, f: Facts, chunk: Chunk, top_k: int) -> str:
        """A marker for `chunk` ("@id", numbered at the end), adding it in place of the last uncited passage."""
        passages = f.passages
        f.cited.add(chunk.id)
        if all(p.id != chunk.id for p in passages):
            if len(passages) >= top_k:
                drop = next((i for i in range(len(passages) - 1, -1, -1) if passages[i].id not in f.cited), None)
                if drop is not None:
                    passages.pop(drop)
            passages.append(self._to_passage(chunk, len(passages) + 1, 0.0, f.language))
            passages[-1].notes.append(say("cited_extra", f.language))
            for i, p in enumerate(passages, 1):
                p.rank = i
        return f"@{chunk.id}"

    # -- the kinds of direct answer ------------------------------------------------------------------
    def _fit(self, f: Facts) -> list[Sentence]:
        lang = f.language
        # a format asked that the card cannot compute: said first, with what the checks below ran instead
        out: list[Sentence] = [Sentence(render(support_note(s), lang), ["F1"],
                                        exempt=(gpu_name(s.gpu), s.compute_capability, "16", "32"))
                               for s in f.refused[:2]]
        moe_said = False
        for i, c in enumerate(f.checks[:MAX_CHECKS], 1):
            m = [f"F{i}"]
            what = workload_phrase(c.model, c.workload, c.precision, lang)
            if c.serving is not None and c.serving.concurrency > 1:  # "30 sessions at 4k": what the verdict is for
                what += say("for_sequences", lang, n=c.serving.concurrency, context=f"{c.serving.context_tokens:,}")
            values = {"what": what, "count": c.gpu_count, "gpu": gpu_name(c.gpu),
                      "need": gib(c.per_gpu_required_bytes), "avail": gib(c.per_gpu_available_bytes)}
            key = ("fit_count" if f.intent.how_many and c.min_gpus == c.gpu_count else "fit_yes") if c.fits \
                else "fit_no"
            host_short = c.offload is not None and c.offload.host_fits is False
            if host_short and c.per_gpu_required_bytes <= c.per_gpu_available_bytes:
                key = "fit_no_host"  # the GPUs hold their share; the host does not hold what is offloaded to it
            out.append(Sentence(say(key, lang, **values), m))
            for key in ("no_fp8_cores", "no_fp4_cores"):  # a format the card stores but cannot compute in
                said = say(key, lang, gpu=gpu_name(c.gpu))
                if any(a.startswith(said) for a in c.assumptions):
                    out.append(Sentence(said, m))
            if c.offload is not None:  # what offload puts on the host, and the host memory said against it
                out.append(Sentence(say("offload_said", lang, line=render(offload_note(c.offload), lang)), m))
            out += self._layout(c, m, lang)
            active = c.active_params
            if active and active < c.model_params and not moe_said:
                moe_said = True
                out.append(Sentence(say("moe", lang, model=c.model, total=f"{c.model_params / 1e9:.1f}",
                                      active=f"{active / 1e9:.1f}"), m))
            if not c.fits:
                out += self._alternatives(c, m, lang)
        return out

    def _models_compared(self, f: Facts) -> list[Sentence]:
        """Two models checked on the same cards: the asked quantity of each, and their ratio, first."""
        first: dict[str, tuple[int, FitResult]] = {}
        ranked = sorted(enumerate(f.checks, 1), key=lambda ic: ic[1].seq_len if f.asked == "speed" else 0)
        for i, c in ranked:  # a rate is compared at the short context it is quoted at (kb/answer/checks.py)
            first.setdefault(c.model, (i, c))
        if len(first) < 2:
            return []
        (i, a), (j, b) = list(first.values())[:2]
        kind, va, vb = _compared(f.asked, a, b)
        if not va or not vb:
            return []
        shown = {"kv": whole, "memory": gib, "speed": rate}.get(kind, gib)
        formulas = [*_kv_formula(a, f.language, [f"F{i}"]), *_kv_formula(b, f.language, [f"F{j}"])] \
            if kind == "kv" else []  # "why does llama 2 7b cache 4x llama 3 8b's": their KV heads
        return [_side_by_side(kind, (a.model, b.model), (va, vb), [f"F{i}", f"F{j}"], f.language, shown,
                              GIB if kind in ("memory", "verdict") else 1), *formulas]

    def _cards_compared(self, f: Facts) -> list[Sentence]:
        """'l40s vs a100 for serving llama 3 70b int4': one model on two cards, by decode rate (inference) or
        training time, where both fit and the question sets them against each other."""
        if not asks_which(f.question):
            return []
        ranked = sorted(enumerate(f.checks, 1), key=lambda ic: ic[1].seq_len)  # a rate at its short context
        first: dict[str, tuple[int, FitResult]] = {}
        for i, c in ranked:
            if c.fits and (c.model, c.workload) == (f.checks[0].model, f.checks[0].workload):
                first.setdefault(c.gpu, (i, c))
        if len(first) < 2:
            return []
        (i, a), (j, b) = list(first.values())[:2]
        if a.workload == "inference" and a.decode_tokens_per_s and b.decode_tokens_per_s:
            kind, va, vb = "speed", a.decode_tokens_per_s, b.decode_tokens_per_s
        elif a.train_wall_hours and b.train_wall_hours:
            kind, va, vb = "hours", a.train_wall_hours, b.train_wall_hours
        else:
            return []
        shown = rate if kind == "speed" else (lambda h: f"{h:,.1f}")
        names = (gpu_name(a.gpu), gpu_name(b.gpu))
        return [_side_by_side(kind, names, (va, vb), [f"F{i}", f"F{j}"], f.language, shown, exempt=names)]

    def _asked_fit(self, f: Facts) -> list[Sentence]:
        """The quantity a fit question asks for, stated before the verdicts: KV bytes, concurrency, memory."""
        out: list[Sentence] = []
        lang = f.language
        for i, c in enumerate(f.checks[:MAX_CHECKS], 1):
            m = [f"F{i}"]
            if f.asked == "kv" and c.kv_bytes_per_token:
                s = c.serving
                if i == 1 and s is not None and s.kv_tokens_capacity and _HEADROOM.search(f.question):
                    room = s.kv_tokens_capacity * c.kv_bytes_per_token  # "还能剩多少给 kv": the room, first
                    out.append(Sentence(say("kv_room", lang, cards=cards(c.gpu_count, gpu_name(c.gpu), lang),
                                            gib=gib(room), tokens=whole(s.kv_tokens_capacity)), m,
                                        derived=(room / GIB,)))
                if i == 1:
                    out.append(Sentence(say("kv_per_token", lang, model=c.model, bytes=whole(c.kv_bytes_per_token)), m))
                    out += _kv_formula(c, lang, m)
                    serving = c.serving
                    n = serving.concurrency if serving else c.batch
                    out.append(Sentence(say("kv_total", lang, context=f"{c.seq_len:,}", n=n,
                                          total=gib(c.breakdown.kv_cache)), m))
            elif f.asked == "largest" and c.fits:  # "4090 能跑多大的模型": the size the bisection found, first
                work = WORKLOADS[c.workload][lang]
                what = work if c.workload == "qlora" else (f"{c.precision} {work}" if lang == "zh"
                                                           else f"{work} in {c.precision}")
                out.append(Sentence(say("largest", lang, what=what, cards=cards(c.gpu_count, gpu_name(c.gpu), lang),
                                        size=f"{c.model_params / 1e9:g}", need=gib(c.per_gpu_required_bytes),
                                        avail=gib(c.per_gpu_available_bytes), context=f"{c.seq_len:,}"), m))
            elif f.asked == "context" and c.serving is not None and c.workload == "inference":
                out.append(Sentence(say("max_context", lang, count=c.gpu_count, gpu=gpu_name(c.gpu),
                                      tokens=whole(c.serving.kv_tokens_capacity)), m))
            elif f.asked == "concurrency" and c.serving is not None:
                s = c.serving
                key = "concurrency" if s.max_concurrent_sequences else "concurrency_none"
                out.append(Sentence(say(key, lang, context=f"{s.context_tokens:,}",
                                      n=s.max_concurrent_sequences, count=c.gpu_count, gpu=gpu_name(c.gpu),
                                      tokens=whole(s.kv_tokens_capacity)), m))
            elif i == 1 and c.workload == "full" and not c.fits and asks_why(f.question):
                # "为什么 7b 全参训练两张 4090 都放不下": the model states a parameter, before the verdict
                out += [Sentence(step[:1].upper() + step[1:], m) for step in c.steps
                        if re.match(r"model states|模型状态", step)][:1]
            elif i == 1 and (f.asked == "memory" or (
                    c.workload == "inference" and asks_why(f.question)
                    and any(not k.fits for k in f.checks[:MAX_CHECKS]))
                    or (c.workload == "inference" and not c.fits and c.gpu_count > 1)):
                # (a model that fits on none of several cards: the whole it needs, and of what, before the share)
                # "why do people say a 13b doesnt fit a 24gb card in fp16": what the memory is made of, first
                total = _memory_total(c)
                what = workload_phrase(c.model, c.workload, c.precision, lang)
                parts = [(say(f"part.{k}", lang), gib(v)) for k, v in c.breakdown.model_dump().items() if v]
                out.append(Sentence(say("memory_total", lang, what=what, total=gib(total),
                                      parts=("，" if lang == "zh" else ", ").join(f"{k} {v} GiB" for k, v in parts)),
                                    m, derived=(total / GIB,)))  # the terms' sum, each term the check's own
                if c.workload == "full":  # "模型状态要多大": weights, gradients and Adam's states, 16 B a parameter
                    out += [Sentence(step[:1].upper() + step[1:], m) for step in c.steps
                            if re.match(r"model states|模型状态", step)][:1]
                if c.gpu_count > 1:  # "per card if split over 2": the share of each GPU, as the check sizes it
                    out.append(Sentence(say("memory_each", lang, count=c.gpu_count,
                                          each=gib(c.per_gpu_required_bytes)), m))
        return out

    @staticmethod
    def _layout(c: FitResult, m: list[str], lang: Language) -> list[Sentence]:
        """The parallel layout, where there is one to say: nodes, TP inside a node, PP/DP between, replicas."""
        lay = c.layout
        if not c.fits or lay is None or (lay.nodes <= 1 and lay.tp <= 1 and lay.pp <= 1 and lay.dp <= 1):
            return []
        return [Sentence(say("layout", lang, line=layout_text(c, lang)), m)]

    def _driver_capacity(self, f: Facts, top_k: int) -> list[Sentence]:
        """A card's datasheet capacity in GB, the same in GiB, and what its driver reports, from its record."""
        out = []
        for gpu in f.gpus[:2]:
            vram, driver = self._figure(gpu, "vram"), self._figure(gpu, "driver")
            if vram is None or driver is None or vram[1] not in ("GB", "GiB"):
                continue
            gib_, driver_gib = vram[0] * (1e9 / GIB if vram[1] == "GB" else 1), driver[0] / 1024
            key = "mech.driver_capacity_figures" + ("" if vram[1] == "GB" else "_gib")  # (the GeForce records: GiB)
            text = say(key, f.language, gpu=gpu_name(gpu), nominal=f"{vram[0]:g}",
                       gib=f"{gib_:.1f}", driver=f"{driver[0]:,.0f}", driver_gib=f"{driver_gib:.1f}")
            out.append(Sentence(text, [self._cite(f, self._part_with(gpu, vram[0]), top_k)], exempt=(gpu_name(gpu),),
                                derived=(vram[0], gib_, driver[0], driver_gib)))
        return out

    def _grad_syncs(self, f: Facts, top_k: int) -> list[Sentence]:
        """A gradient all-reduce's time asked: on each card asked (the counted ones first), over its own link."""
        if derived_ask(f.question) != "grad_sync":
            return []
        counted = [g for g in f.gpus if g in f.counts] or f.gpus
        out = []
        for gpu in list(dict.fromkeys(counted))[:2]:
            kind = "nvlink" if self._figure(gpu, "nvlink") else "pcie"
            figure = self._figure(gpu, kind)
            if figure is None:
                continue
            cite = [self._cite(f, self._part_with(gpu, figure[0]), top_k)]
            cite += [self._cite(f, self._groups[TABLE][-1], top_k)] if TABLE in self._groups else []
            out.append(grad_sync(f, gpu, (kind, figure[0]), cite))
        return out

    def _measured(self, f: Facts) -> list[Sentence]:
        """A team's own measurement among the best passages, as its document says it, before kb's estimate."""
        docs = [(i, p) for i, p in enumerate(f.passages[:3], 1) if p.kind == "document"]
        found = best_sentences(docs, f.terms, f.language, 1, True, 1) if docs else []
        return [Sentence(say("measured", f.language, text=text.rstrip("。.")), [f"@{f.passages[i - 1].id}"])
                for i, text in found if re.search(r"\d", text)]

    def _alternatives(self, c: FitResult, m: list[str], lang: Language) -> list[Sentence]:
        alts = [a for a in c.alternatives if a.fits]
        out = []
        for a in alts[:2]:
            values = {"count": a.gpu_count, "gpu": gpu_name(c.gpu), "need": gib(a.per_gpu_required_bytes),
                      "precision": a.precision, "zero": a.zero_stage, "rank": a.lora_rank, "was": c.lora_rank,
                      "workload": workload_phrase(c.model, a.workload, None, lang)}
            key = f"answer.alt.{a.change}" if a.change in _ALT_CHANGES else "answer.alt.count"
            if a.change == "count" and a.zero_stage and a.zero_stage != c.zero_stage:
                key = "answer.alt.count_zero"
            out.append(Sentence(say(key, lang, **values), m))
        if not alts:
            if c.min_gpus is None:
                out.append(Sentence(say("fewest_none", lang, gpu=gpu_name(c.gpu)), m))
            elif c.min_gpus != c.gpu_count:
                out.append(Sentence(say("answer.fewest", lang, gpu=gpu_name(c.gpu), min=c.min_gpus), m))
        return out

    def _headroom(self, f: Facts) -> list[Sentence]:
        """'留多少余量', 'how much room is left': each fitting check's memory to spare per card."""
        if not _SPARE.search(f.question):
            return []
        out = []
        for i, c in enumerate(f.checks[:MAX_CHECKS], 1):
            if c.fits:
                spare = c.per_gpu_available_bytes - c.per_gpu_required_bytes
                out.append(Sentence(say("headroom", f.language, cards=cards(c.gpu_count, gpu_name(c.gpu), f.language),
                                        spare=gib(spare)), [f"F{i}"], exempt=(gpu_name(c.gpu),),
                                    derived=(spare / GIB,)))
        return out

    def _speed(self, f: Facts) -> list[Sentence]:
        out: list[Sentence] = []
        lang = f.language
        # The short-context rate people quote first, then the same card at the full context.
        asked = f.checks[0].gpu_count if f.checks else 0  # the count asked about first, then the one that fits
        order = sorted(enumerate(f.checks[:MAX_CHECKS + 2], 1),
                       key=lambda ic: (ic[1].gpu, ic[1].gpu_count != asked, ic[1].seq_len))
        for i, c in order:
            m = [f"F{i}"]
            what = workload_phrase(c.model, c.workload, c.precision, lang)
            base = {"count": c.gpu_count, "gpu": gpu_name(c.gpu), "what": what}
            if not c.fits:
                out.append(Sentence(say("no_speed" if c.workload == "inference" else "no_time", lang, **base), m))
                out += self._alternatives(c, m, lang)
                continue
            serving = c.serving
            if f.latency and serving is not None and serving.ttft_s:  # "首 token 延迟多少": the prefill, first
                out.append(Sentence(say("ttft", lang, seconds=f"{serving.ttft_s:.2f}", context=f"{c.seq_len:,}",
                                        mfu=f"{f.mfu * 100:.0f}", **base), m))
            if c.decode_tokens_per_s is not None:
                decode = Sentence(say("decode", lang, tps=rate(c.decode_tokens_per_s), context=f"{c.seq_len:,}",
                                      **base), m)
                if serving is not None and serving.concurrency > 1:  # "10 个人同时用 每人速度多少": their rates
                    decode = Sentence(say("serving", lang, concurrency=serving.concurrency,
                                          agg=rate(serving.aggregate_decode_tokens_per_s or 0),
                                          per=rate(serving.per_sequence_decode_tokens_per_s or 0)), m)
                out.append(decode)
            elif c.train_gpu_hours is not None and c.train_wall_hours is not None:
                compute = c.train_compute_wall_hours or c.train_wall_hours
                key = "train_time_comm" if c.train_wall_hours > 1.01 * compute else "train_time"
                if key == "train_time" and c.train_wall_hours < 48:  # a day or so: said in hours too
                    key = "train_time_hours"
                out.append(Sentence(say(key, lang, days=f"{c.train_wall_hours / 24:,.1f}",
                                        hours=f"{c.train_wall_hours:,.0f}",
                                        compute_days=f"{compute / 24:,.1f}",
                                        gpu_hours=whole(c.train_gpu_hours), mfu=f"{f.mfu * 100:.0f}", **base), m))
                if f.rent_cny:  # "at $2.50 per GPU-hour, what will it cost": the hours at the rent asked
                    cost = c.train_gpu_hours * f.rent_cny
                    said = f"${f.rent_cny / f.usd_cny:,.2f}" if f.usd_cny else money(f.rent_cny, lang)
                    out.append(Sentence(say("rent_job", lang, rate=said, gpu_hours=whole(c.train_gpu_hours),
                                            cost=money(cost, lang, f.usd_cny)), m,
                                        derived=(cost, f.rent_cny, *((cost / f.usd_cny, f.rent_cny / f.usd_cny)
                                                                     if f.usd_cny else ()))))
                out += self._layout(c, m, lang)
            elif c.workload != "inference":
                out.append(Sentence(say("train_needs_tokens", lang), m))
            if f.intent.wants_cost:
                out += self._cost_of(c, m, lang)
        return out

    def _figures_also_asked(self, f: Facts, top_k: int) -> list[Sentence]:
        """A card's price or memory asked outright in a question that is also a fit check."""
        asked = also_asked_figures(f.question)
        if not asked or asks_rent(f.question):
            return []
        counted = [(g, n) for g, n in f.counts.items() if n > 1]
        out = self._totals(f, counted, top_k, [a for a in asked if a == "power"])  # "16384 张 h100 总功耗多少"
        for gpu in f.gpus[:2]:
            parts = self._groups.get(f"spec-{gpu}", [])
            out += self._rows(f, gpu, asked, top_k)
            if "price" in asked and parts and self._figure(gpu, "price") is None:
                out.append(Sentence(say("no_price", f.language, gpu=gpu_name(gpu)), [self._cite(f, parts[0], top_k)]))
        return out

    def _cost(self, f: Facts) -> list[Sentence]:
        out: list[Sentence] = []
        if asks_rent(f.question):  # "租云上的 a100 跑 70b 一个月多少钱": no rent known is the answer, then buying
            out += [s for gpu in dict.fromkeys(c.gpu for c in f.checks[:MAX_CHECKS])
                    for s in self._team_price(f, gpu, max(len(f.passages), 1))]
        for i, c in enumerate(f.checks[:MAX_CHECKS], 1):
            out += self._cost_of(c, [f"F{i}"], f.language)
        if f.intent.how_many:  # "h100 多少钱 跑 70b 要几张": the count is asked too
            return self._fit(f) + out
        return out + self._fit(f)  # what it costs, then whether it fits at all (a cost of what won't run is moot)

    def _cost_of(self, c: FitResult, m: list[str], lang: Language) -> list[Sentence]:
        out = []
        if c.capex_cny is not None:
            capex = whole(c.capex_cny)
            out.append(Sentence(say("capex", lang, count=c.gpu_count, gpu=gpu_name(c.gpu), capex=capex), m))
        if c.cost_per_million_tokens_cny is not None:  # with no price for the cards, it is their energy alone
            key = "per_million" if c.capex_cny is not None else "per_million_energy"
            out.append(Sentence(say(key, lang, cost=f"{c.cost_per_million_tokens_cny:.2f}"), m))
        return out

    def _selection(self, f: Facts, top_k: int) -> list[Sentence]:
        from kb.fit.select import DATACENTER_COUNTS  # (loaded already: it made the selection)

        sel, lang = f.selection, f.language
        assert sel is not None
        cap = max(DATACENTER_COUNTS)  # the most cards a pick with no budget ranks
        if not sel.rows:
            what = workload_phrase(sel.model, sel.workload, None, lang)
            if sel.budget_cny is None:  # (no budget to be within: the most cards kb ranks)
                return [Sentence(say("pick_none_open", lang, what=what, cap=cap), ["S"], derived=(float(cap),))]
            return [Sentence(say("pick_none", lang, what=what), ["S"]), *self._budget_rule(f, sel.budget_cny, top_k)]
        fastest = min(sel.rows, key=lambda r: r.rank_by_time)
        cheapest = min(sel.rows, key=lambda r: r.rank_by_cost)
        # what was ranked: a fine-tune the question left open may have fallen back to LoRA or QLoRA
        out = [] if sel.ranked_by in ("memory", "power") else [
            Sentence(say("pick_for", lang, what=workload_phrase(sel.model, sel.workload, sel.precision, lang)), ["S"])]
        if sel.fallback_from:  # "some 30b training" in 700k: the training asked fits nothing, said before the pick
            key = "pick_fallback" if sel.budget_cny is not None else "pick_fallback_open"  # (no budget to be within)
            out = [Sentence(say(key, lang, asked=workload_phrase(sel.model, sel.fallback_from, None, lang),
                                what=workload_phrase(sel.model, sel.workload, sel.precision, lang), cap=cap),
                            ["S"], derived=(float(cap),))]
            verdict = [(i, c) for i, c in enumerate(f.checks, 1) if c.workload == sel.fallback_from and not c.fits]
            for i, c in verdict[:1]:  # "No: …on the 4 × A100 80GB the budget buys": the asked job's own verdict
                out.insert(0, Sentence(say("fit_no", lang, what=workload_phrase(c.model, c.workload, c.precision,
                                                                                  lang),
                                           count=c.gpu_count, gpu=gpu_name(c.gpu), need=gib(c.per_gpu_required_bytes),
                                           avail=gib(c.per_gpu_available_bytes)), [f"F{i}"]))
        within = [("pick_fastest", fastest), ("pick_cheapest", cheapest)] if sel.budget_cny is not None else [
            ("pick_cheapest", cheapest), ("pick_fastest_open", fastest)]  # no budget: what is enough comes first
        one = sel.budget_cny is None  # (no budget: one card of each, not what a budget buys)
        picks = {"memory": [("pick_memory_one" if one else "pick_memory", fastest)],
                 "power": [("pick_power_one" if one else "pick_power", fastest)],
                 "cost_headroom": [("pick_cheapest", cheapest)]}.get(sel.ranked_by, within)
        for key, row in picks:
            if row is cheapest and row is fastest and key != picks[0][0]:
                continue
            speed = ""
            if row.decode_tokens_per_s is not None:
                speed = say("speed_tps", lang, tps=rate(row.decode_tokens_per_s))
            elif row.train_wall_hours is not None:
                speed = say("speed_hours" if sel.tokens_stated else "speed_hours_billion", lang,
                            hours=f"{row.train_wall_hours:,.1f}")
            out.append(Sentence(say(key, lang, count=row.gpu_count, gpu=gpu_name(row.gpu), capex=whole(row.capex_cny),
                                  speed=speed, avail=gib(row.per_gpu_available_bytes or 0),
                                  watts=f"{row.power_w or 0:,.0f}"), ["S"]))
        # the guide's own line beside the pick: for who asks ("solo dev"), else for the setting ("an edge box"),
        # else for the budget band
        rule = self._audience_rule(f, top_k) or self._setting_rule(f, top_k, sel.budget_cny) or (
            self._rules_by_size(f, top_k) if sel.model == "" and sel.budget_cny is None else [])
        if rule and sel.budget_cny is None and sel.model == "":  # "solo dev, which card": the guide's own pick first
            return rule + out
        if not rule and sel.budget_cny is None and sel.model and sel.workload in ("full", "lora", "qlora"):
            return self._scale_rule(f, sel.model, sel.workload, top_k) + out  # "train a 30b, which gpus": §11.1
        return out + (rule or self._budget_rule(f, sel.budget_cny, top_k))

    def _setting_rule(self, f: Facts, top_k: int, budget: float | None = None) -> list[Sentence]:
        """'an edge box, tight power', 'a realtime chatbot': the guide's §11.2 advice for that setting — unless a
        budget buys none of the cards it names (then the §11.3 band, priced against the budget, says more)."""
        found = setting_rule(self._groups.get("guide-11.2", []), f.question, f.language)
        if found is None:
            return []
        chunk, rule, setting = found
        prices = [p[0] for g in self._gpus_named(rule) if (p := self._figure(g, "price"))]
        if budget is not None and prices and min(prices) > budget:  # "5000 cny, a chatbot": no 4090 in reach
            return []
        out = [self._advice(f, chunk, setting, rule, top_k)]
        if sized := model_size_rule(self._groups.get("guide-11.2", []), f.question, f.language):
            out.append(Sentence(sized[1], [self._cite(f, sized[0], top_k)]))  # "模型都不大": its small-model line
        return out

    def _rules_by_size(self, f: Facts, top_k: int) -> list[Sentence]:
        """'we want a private llm box, what gpu': nothing to size, so the guide's picks by model size, said as
        such (only when no model is named: a named model's own check answers instead)."""
        if f.budget_cny is not None or f.checks or f.gpus or f.unknown:
            return []
        if _FINE_TUNE.search(f.question):
            found_ft = scale_rule(self._groups.get("guide-11.1", []), 0.0, "lora", f.language)
            if found_ft:  # "lora 微调实验买什么卡": §11.1's block for fine-tuning and experiments, whatever the size
                chunk, rule, block = found_ft
                return [self._advice(f, chunk, block, rule, top_k)]
        training = bool(re.search(r"训练|train", f.question, re.IGNORECASE))
        found = rules_by_size(self._groups.get("guide-11.1", []), self._groups.get("guide-11.2", []), training,
                              f.language)
        if not found:
            return []
        lines = [Sentence(say("block_rule", f.language, block=block, rule=rule) if training else rule,
                          [self._cite(f, chunk, top_k)]) for chunk, rule, block in found]
        if training:  # §11.1's "单卡或双卡" under 10B cannot hold a full training: its note says so
            lines += [Sentence(note, [self._cite(f, c, top_k)]) for c, note in
                      self._corrections.noted("10B以下单卡或双卡", f.language)]
        return [Sentence(say("pick_by_size", f.language), []), *lines]

    def _advice(self, f: Facts, chunk: Chunk, who: str, rule: str, top_k: int) -> Sentence:
        """'The guide's advice for <a setting or a block of §11>: <its line>', cited to its passage."""
        who = who if f.language == "zh" else who[:1].lower() + who[1:]  # (mid-sentence)
        return Sentence(say("setting_rule", f.language, setting=who, rule=rule.rstrip("。.")),
                        [self._cite(f, chunk, top_k)])

    def _scale_rule(self, f: Facts, model: str, workload: str, top_k: int) -> list[Sentence]:
        """'train a 3b from scratch, which gpus': §11.1's first choice for training a model of that size."""
        if _FINE_TUNE.search(f.question):
            workload = "lora"  # a fine-tune, however it is ranked: §11.1's fine-tuning block
        params = resolve_model(model).params
        found = scale_rule(self._groups.get("guide-11.1", []), params, workload, f.language)
        if found is None:
            return []
        chunk, rule, block = found
        out = [self._advice(f, chunk, block, rule, top_k)]
        if workload == "full" and params < 10e9:  # "单卡或双卡" cannot hold full training
            out += [Sentence(note, [self._cite(f, c, top_k)]) for c, note in
                    self._corrections.noted("10B以下单卡或双卡", f.language)]
        return out

    def _audience_rule(self, f: Facts, top_k: int) -> list[Sentence]:
        """'solo dev, entry-level': the guide's advice for individual developers at that level."""
        return self._rule(f, top_k, "audience_rule", audience_rule(self._groups.get("guide-11.4", []), f.question,
                                                                    f.language))

    def _rule(self, f: Facts, top_k: int, key: str, found: tuple[Chunk, str] | None) -> list[Sentence]:
        """One of the guide's own rules, worded and cited to its passage."""
        if found is None:
            return []
        chunk, rule = found
        return [Sentence(say(key, f.language, rule=rule.rstrip("。.")), [self._cite(f, chunk, top_k)])]

    def _rent_once(self, f: Facts, top_k: int) -> list[Sentence]:
        """A need that comes once ("one large training run, then nothing"): §8.4's line on renting A100s by the
        hour for the largest training, beside the pick."""
        if not any(h.kind == "operation" and h.key == "one_off" for h in terms("cues.yaml").find(f.question.lower())):
            return []
        for chunk in self._groups.get("guide-8.4", []):
            for zh, shown in aligned(chunk, f.language):
                if "云" in zh and "训练" in zh:
                    return [Sentence(say("section_line", f.language, section="8.4",
                                         heading=re.sub(r"^[\d.]+\s*", "", chunk.shown_heading(f.language)),
                                         line=shown.lstrip("- ").strip()), [self._cite(f, chunk, top_k)],
                                     exempt=("8.4",))]
        return []

    def _budget_rule(self, f: Facts, budget: float | None, top_k: int) -> list[Sentence]:
        """The guide's §11.3 rule for the budget band, when the question states a budget."""
        if budget is None:
            return []
        found = budget_rule(self._groups.get("guide-11.3", []), budget, f.language)
        if found is None:
            return []
        chunk, rule = found
        zh = rule if f.language == "zh" else (budget_rule([chunk], budget, "zh") or (chunk, ""))[1]
        priced = {g: (n, self._figure(g, "price")) for g, n in self._cards_in(zh).items()}
        cost = sum(n * p[0] for n, p in priced.values() if p) if priced and all(p for _, p in priced.values()) else 0
        if cost > budget:  # "预算 6000": the band's 8 × 4090 is 25 times the budget; quoting it bare would mislead
            sep = "、" if f.language == "zh" else ", "
            cards = sep.join(say("n_cards", f.language, n=n, gpu=gpu_name(g)) for g, (n, _) in priced.items())
            return [Sentence(say("budget_rule_over", f.language, rule=rule, cards=cards, cost=whole(cost),
                                 budget=whole(budget)),
                             [self._cite(f, chunk, top_k), *(self._cite(f, self._part_with(g, p[0]), top_k)
                                                             for g, (_, p) in priced.items() if p)],
                             derived=(cost, budget))]
        return [Sentence(say("budget_rule", f.language, rule=rule), [self._cite(f, chunk, top_k)])]

    def _unknown(self, f: Facts) -> list[Sentence]:
        out = []
        sized = {c.model for c in f.checks if re.fullmatch(r"\d+(?:\.\d+)?b", c.model)}
        for name in f.unknown:
            size = next((m for m in sized if re.search(rf"(?<![\d.]){re.escape(m[:-1])}\s*b", name.lower())), None)
            need = next((n for n in f.needs if n.gpu == name), None)
            if name in f.unknown_gpus and f.stated_gib and f.checks:  # checked from the memory the asker gave
                out.append(Sentence(say("unknown_gpu_stated", f.language, name=name, gib=f.stated_gib), ["F1"],
                                    exempt=(name,), derived=(float(f.stated_gib),)))
            elif name in f.unknown_gpus and need is not None:  # and the memory it would need
                per, total = need.per_gpu_required_bytes / GIB, need.total_required_bytes / GIB
                work = workload_phrase(need.model, need.workload, need.precision, f.language)
                on = say("need_on_cards", f.language, count=need.gpu_count, total=f"{total:,.1f}") \
                    if need.gpu_count > 1 else ""
                out.append(Sentence(say("unknown_gpu_need", f.language, name=name, work=work, per_gpu=f"{per:,.1f}",
                                        on=on), [], exempt=(name, need.model),
                                    derived=(round(per, 1), round(total, 1), float(need.gpu_count))))
            elif name in f.unknown_gpus:
                out.append(Sentence(say("unknown_gpu", f.language, name=name), [], exempt=(name,)))
            elif size:  # "Yi-34B": checked below at the size its name states, as the checks' notes say
                out.append(Sentence(say("unknown_model_sized", f.language, name=name, size=size[:-1].upper()),
                                    ["F1"], exempt=(name,)))
            else:
                out.append(Sentence(say("unknown_model", f.language, name=name), [], exempt=(name,)))
        return out

    def _support(self, f: Facts, n: int, prefer: tuple[str, ...], require_match: bool,
                 per_passage: int = 1, after_direct: bool = False, meaning: bool = False) -> list[Sentence]:
        if n <= 0:
            return []
        ranked = sorted(enumerate(f.passages[:3], 1), key=lambda ip: (ip[1].kind not in prefer, ip[0]))
        if (f.intent.kind in _COMPUTED or after_direct) and not asks_framing(f.question):
            # after a computed answer, the introduction, outlook and conclusion only add generalities
            ranked = [(i, p) for i, p in ranked if p.section.split(".")[0] not in FRAMING]
        about: Callable[[Passage, str], bool] | None = None
        checked = {c.gpu for c in f.checks}

        def cards_of(p: Passage, s: str) -> set[str]:
            """The cards a sentence is about: those it names, else those of its line, else the first card the
            nearest line above it in its list names ("- RTX 4090通常表现更佳…" over "- 24GB显存足以…"), else its
            passage heading's."""
            block = next((b for b in re.split(r"\n\s*\n", p.text) if s[:12] in b), s).split("\n")
            at = next((i for i, line in enumerate(block) if s[:12] in line), 0)
            for i in range(at, -1, -1):
                named = self._gpus_named(s if i == at and self._gpus_named(s) else block[i])
                if named:
                    return set(named) if i == at else {named[0]}
            return set(self._gpus_named(p.heading))

        if f.intent.kind == "spec" and f.gpus:  # "is the L4 good for LLMs": not the guide on LLMs in general
            about = lambda p, s: bool(cards_of(p, s) & set(f.gpus))  # noqa: E731
        elif checked:  # after an H100's verdict, not "24GB is enough for these models" of the 4090
            about = lambda p, s: not cards_of(p, s) or bool(cards_of(p, s) & checked)  # noqa: E731
        elif after_direct and f.gpus and f.intent.kind not in ("case", "why"):  # after "no L40S price", not the 4090
            about = lambda p, s: not cards_of(p, s) or bool(cards_of(p, s) & set(f.gpus))  # noqa: E731
        elif f.intent.kind == "why" and f.gpus:  # "h20 算力为啥低": not §4.4's "no NVLink" of the RTX series
            def about(p: Passage, s: str) -> bool:
                if set(self._gpus_named(p.heading)) & set(f.gpus):  # the asked card's own record or passage
                    return True
                named = cards_of(p, s)
                if named:
                    return bool(named & set(f.gpus))
                family = _HEADING_FAMILY.search(p.heading)
                return family is None or any(g.startswith(family.group(1).lower()) for g in f.gpus)
        about = _same_workload(f, about)
        out = []
        # No direct answer: among sentences with the question's words, one stating a figure of the kind asked, and
        # of those the closest in meaning (e5-small's cosine ranks definitions poorly, so only figures are weighed)
        units = asked_units(f.question, f.intent.attributes) if meaning else []
        similar = (lambda p, texts: self._similar(f, p, texts)) if units else None
        picked = best_sentences(ranked, f.terms, f.language, n, require_match, per_passage, about, similar, units)
        for i, text in picked:
            out.append(Sentence(text, [f"@{f.passages[i - 1].id}"]))
            f.cited.add(f.passages[i - 1].id)
            for chunk, correction in self._corrections.find(text, f.language):
                out.append(Sentence(correction, [self._cite(f, chunk, len(f.passages))]))
        return out

    # -- the whole answer ----------------------------------------------------------------------------
    def compose(self, f: Facts) -> Composition:
        """The answer text, its coverage, and the passages (with any the answer cites added)."""
        top_k = max(len(f.passages), 1)
        kind = f.intent.kind
        if kind == "not_covered":
            said = [Sentence(say("not_covered", f.language), [], exempt=("A100", "RTX 40"))]
            if f.passages:  # what it covers nearby, by name only: no figures in an answer about nothing it holds
                heading = re.sub(r"^\d+(?:\.\d+)?\s+", "", f.passages[0].heading)
                if heading.strip() and not re.search(r"\d", heading):
                    said.append(Sentence(say("nearest", f.language, heading=heading), [f"@{f.passages[0].id}"]))
            return Composition(self._join(said, f, []), "not_covered", f.passages)
        lead = self._unknown(f)
        direct: list[Sentence] = []
        by_size: list[Sentence] = []
        reasons: list[Sentence] = []
        if kind == "selection":
            direct = self._selection(f, top_k)
        elif kind == "fit":
            direct = self._asked_fit(f) if f.asked == "largest" else (  # (the largest sizes say their own fit)
                self._models_compared(f) + self._cards_compared(f) + self._asked_fit(f) + self._fit(f)
                + self._headroom(f))
        elif kind == "speed":
            direct = self._models_compared(f) + self._cards_compared(f) + self._asked_fit(f) + self._speed(f)
        elif kind == "cost":
            direct = self._cost(f)
        elif kind == "spec":
            direct = self._spec(f, top_k)
        elif kind == "case":
            direct = self._case(f, top_k)
        elif kind == "why" and asks_why(f.question) and _VERSUS_WHY.search(f.question) and len(f.gpus) >= 2:
            direct = self._differences(f, top_k)  # "why is the a800 slower than the a100": what differs
        elif kind == "why" and f.gpus and f.intent.attributes:
            direct = self._why_cards(f, top_k)
        if kind in ("general", "why") and not direct and (f.wants_pick or _PICK.search(f.question)) \
                and not asks_why(f.question):
            # "solo dev, one card, which?": the guide's line for individual developers; "high-concurrency serving,
            # small models, what to buy": its line for that setting
            direct = self._audience_rule(f, top_k) or self._setting_rule(f, top_k, f.budget_cny)
            # (what to buy, as the reader heard it: the guide's lines by size are the whole answer)
            by_size = [] if direct or not f.wants_pick else self._rules_by_size(f, top_k)
            direct = direct or by_size
        if kind in ("why", "general") or (kind == "spec" and (len(f.gpus) >= 2 or asks_driver_focus(f.question))):
            # "why an a100 for a week-long run", "a100 vs 4090 for runs of weeks": the guide's ECC lines first;
            # "why are 4090 drivers worse": its line on what they are tuned for
            reasons = [Sentence(say("section_line", f.language, section=chunk.section,
                                    heading=re.sub(r"^[\d.]+\s*", "", chunk.shown_heading(f.language)),
                                    line=line.lstrip("- ").strip()), [self._cite(f, chunk, top_k)],
                                exempt=(chunk.section,))
                       for chunk, line in reason_lines(f.question, self._groups, f.language)]
            direct = reasons + direct
        if "driver_capacity" in mechanisms(f.question) or (kind == "spec" and "driver" in f.intent.attributes
                                                          and "ecc" not in f.intent.attributes):
            # "标称 48g 为啥 nvidia-smi 只显示 45g", "5090 装好以后 nvidia-smi 里显存总量显示多少"
            direct = self._driver_capacity(f, top_k) + [s for s in direct if not re.match(r"\d|[A-Z]", s.text)]
        if syncs := self._grad_syncs(f, top_k):  # "8 张 a800 同步一次梯度要多久": not the decode rate
            direct = syncs
        if f.refused and not f.checks and kind not in ("case", "selection", "not_covered"):
            # "my 3090 and fp8?", "bf16 on a V100": what the card cannot compute, from its record, first
            direct = [Sentence(render(support_note(s), f.language),
                               [self._cite(f, self._groups[f"spec-{s.gpu}"][0], top_k)]
                               if self._groups.get(f"spec-{s.gpu}") else [],
                               exempt=(gpu_name(s.gpu), s.compute_capability, "16", "32"))  # (capabilities)
                      for s in f.refused[:2]] + direct
        if kind not in ("case", "selection"):  # "why does ZeRO-3 save so much": how it works, first
            direct = mechanism_sentences(f) + direct
        if f.costs:  # "what did we pay for our last 4090s": the team's own figures lead, before kb's
            direct = [Sentence(s.text, [self._cite(f, chunk, top_k) for c in s.cites
                                        if (chunk := self._by_id.get(c)) is not None],
                               exempt=(*s.exempt, *map(gpu_name, f.gpus)), derived=tuple(s.derived))
                      for s in f.costs] + direct
        if kind not in ("case", "selection"):  # "MIG 到底是啥": what the term is, from its record, before the rest
            direct = concept_lead(f.unnamed or f.question, self._concepts, f.language,
                                  lambda c: self._cite(f, c, top_k)) + direct
        if kind in ("fit", "speed"):
            direct = self._measured(f) + direct
        if f.match is not None:  # "how many 4090s to match one a100's memory, and is that cheaper?"
            direct = matched(f, f.match, self._figure, lambda gpu, v: self._cite(f, self._part_with(gpu, v), top_k)) \
                + direct
        if f.observed is not None:  # "7 tok/s on a 4090, normal?": the observation judged against kb's bound is
            # the answer (their own run shows it fits, whatever a check at a longer context says)
            direct = observed_sentences(f, f.observed, self._figure,
                                        lambda gpu, v: self._cite(f, self._part_with(gpu, v), top_k)) or direct
        if kind in ("fit", "speed", "cost"):  # "4090 显存多大？能跑 32b 吗": the figure asked beside the verdict
            direct = self._figures_also_asked(f, top_k) + direct
        buys = self._budget_buys(f, top_k)  # "how many 4070 tis for 40k": the count, not the guide's budget band
        priced_cards = "price" in f.intent.attributes and any(g in f.counts for g in f.gpus)
        if kind not in ("selection", "case") and f.budget_cny is not None and not buys and not priced_cards:
            rule = self._budget_rule(f, f.budget_cny, top_k)  # (after a verdict or a time: the asked answer leads)
            direct = direct + rule if kind in ("fit", "speed", "cost") and direct else rule + direct
        direct = buys if buys and len(f.gpus) >= 2 else buys + direct  # (a two-step budget: the whole answer)
        if kind not in ("case", "why") and re.search(r"训|train|pre-?train", f.question, re.I):
            direct += self._rent_once(f, top_k)  # (a one-off training run: rent it, as §8.4 says)
        prefer = ("tradeoff", "case") if kind in ("why", "case") else ("guide",)
        if f.unknown_gpus and f.gpus and not direct and not f.checks and kind not in ("case", "selection"):
            # "4090 vs 3090 for inference": what kb holds of the card it knows, to set beside the one it lacks
            direct = [s for gpu in f.gpus[:2] for s in self._rows(f, gpu, f.intent.attributes or KEY_FIGURES, top_k)]
        model_unknown = bool(set(f.unknown) - set(f.unknown_gpus)) and not f.checks and not f.model_named
        if model_unknown and f.asked not in ("figure", "comparison", "price"):
            direct = []  # "mistral large 2 on 2 h200 in fp8": nothing to check, and the card's fp8 is not asked
        if f.unknown and not direct and (not f.gpus or model_unknown) and (f.asked or f.model_named
                                                                          or f.intent.attributes or model_unknown):
            support = []  # the guide's sentences about other cards would answer a question nobody asked
            if f.unknown_gpus and not f.model_named:  # what kb can answer instead: the cards it has records of
                names = [gpu_name(g.removeprefix("spec-")) for g in self._groups if g.startswith("spec-")]
                listed = ("、" if f.language == "zh" else ", ").join(names)
                support = [Sentence(say("records_held", f.language, names=listed), [],
                                    exempt=tuple(names))]
        elif direct:
            support = self._support(f, SUPPORT.get(kind, 1), prefer, require_match=True, after_direct=True)
        else:  # a reason, a rule or a general question: the guide's own sentences are the answer
            support = self._support(f, REASONS, prefer, require_match=False, per_passage=2, meaning=True)
        # a computed figure the guide never states (its chapters' sentences would only be nearby), the guide's picks
        # by size or its lines for the reason asked (a chapter's sentence beside them is out of their block)
        if syncs or by_size or (reasons and len(reasons) == len(direct)):
            support = []
        support = [s for s in support if not _contradicts(s.text, f.checks[:MAX_CHECKS])]
        dropped: list[str] = []
        text = self._join(lead + direct + support, f, dropped)
        if not text.strip():  # nothing survived: say so, and where the guide comes nearest, rather than nothing
            said = [Sentence(say("nothing_direct", f.language), [])]
            if f.passages:
                heading = re.sub(r"^\d+(?:\.\d+)?\s+", "", f.passages[0].heading)
                said.append(Sentence(say("nearest_read", f.language, heading=heading), [f"@{f.passages[0].id}"]))
            return Composition(self._join(said, f, dropped), "partial", f.passages, dropped)
        partial = bool(f.unknown) or (kind == "spec" and not direct)
        return Composition(text, "partial" if partial else "answered", f.passages, dropped)

    def _join(self, sentences: list[Sentence], f: Facts, dropped: list[str]) -> str:
        """The sentences that pass the number check, each ending in its markers, without repeats.

        A fact whose text holds several sentences (a record's note) becomes several, each with the markers.
        """
        sentences = [Sentence(part, list(s.markers), s.exempt, s.derived) for s in sentences
                     for part in _SPLIT[f.language].split(s.text.strip()) if part.strip(" 。.")]
        shown: list[str] = []
        index = {p.id: str(i) for i, p in enumerate(f.passages, 1)}
        said: set[str] = set()
        cache: dict[str, set[float]] = {}
        for s in sentences:
            s.markers = [index.get(m[1:], "") if m.startswith("@") else m for m in s.markers]
            if "" in s.markers:
                dropped.append(s.text)
                continue
            figures = set().union(*(self._figures(m, f, cache) for m in s.markers)) if s.markers else set()
            figures = figures | set(s.derived)
            if unsupported(s.text, figures, s.exempt):
                dropped.append(s.text)
                continue
            key = re.sub(r"^(?:注意：|Note: )", "", s.text.strip()).rstrip("。. ")  # a note said once, "Note:" or not
            if key in said or (len(key) >= 12 and any(key in earlier for earlier in said)):
                continue  # (the record's opening line, said first as the card's role, again as a guide sentence)
            said.add(key)
            shown.append(end(s.text, s.markers, f.language))
        return " ".join(shown) if f.language == "en" else "".join(shown)

    def _figures(self, marker: str, f: Facts, cache: dict[str, set[float]]) -> set[float]:
        """The figures one marker cites (fit checks and selections are read once an answer)."""
        if marker not in cache:
            out: set[float] = set()
            if marker == "S" and f.selection is not None:
                out = object_figures(f.selection)
            elif marker.startswith("F") and int(marker[1:]) <= len(f.checks):
                out = object_figures(f.checks[int(marker[1:]) - 1])
            elif marker.isdigit() and int(marker) <= len(f.passages):
                p = f.passages[int(marker) - 1]
                out = self._chunk_figures(p.id) or text_figures(f"{p.section} {p.heading}\n{p.text}\n{p.original}")
            cache[marker] = out
        return cache[marker]


# A fine-tune said outright ("微调", "fine-tune", "qlora"): §11.1's block for fine-tuning and experiments.
_FINE_TUNE = re.compile(r"微调|精调|fine[\s-]?tun|finetun|(?<![a-z])q?lora(?![a-z])|peft", re.IGNORECASE)
_TRAINING_WORDS = r"训练|微调|梯度|优化器|反向传播|train|fine[\s-]?tun|gradient|optimi[sz]er|backprop"
_SERVING_WORDS = r"推理|部署|inference|serv(?:e|ing)"


def _same_workload(f: Facts, about: Callable[[Passage, str], bool] | None) -> Callable[[Passage, str], bool] | None:
    """After checks of one kind of work, a supporting sentence about the other kind only ("计算密集型：训练过程…"
    after serving DeepSeek-V3 on H20s) is left out, unless the question speaks of that kind too."""
    kinds = {c.workload == "inference" for c in f.checks}
    if len(kinds) != 1:
        return about
    other = _TRAINING_WORDS if kinds == {True} else _SERVING_WORDS
    if re.search(other, f.question, re.IGNORECASE):
        return about
    return lambda p, s: not re.search(other, s, re.IGNORECASE) and (about is None or about(p, s))


def _kv_formula(c: FitResult, lang: Language, markers: list[str]) -> list[Sentence]:
    """A preset's KV bytes a token as its shape multiplies out (plain attention only: MLA caches a latent)."""
    shape = PRESETS.get(c.model)
    if shape is not None and shape.mla and shape.layers * (shape.kv_lora + shape.rope_dim) * 2 == c.kv_bytes_per_token:
        return [Sentence(say("kv_formula_mla", lang, model=c.model, layers=shape.layers, latent=shape.kv_lora,
                             rope=shape.rope_dim, bytes=whole(c.kv_bytes_per_token)), markers,
                         derived=(float(shape.layers), float(shape.kv_lora), float(shape.rope_dim), 2.0))]
    if shape is None or shape.mla or 2 * shape.kv_heads * shape.head_dim * shape.layers * 2 != c.kv_bytes_per_token:
        return []
    return [Sentence(say("kv_formula", lang, model=c.model, layers=shape.layers, kv_heads=shape.kv_heads,
                         head_dim=shape.head_dim, bytes=whole(c.kv_bytes_per_token)), markers,
                     derived=(float(shape.layers), float(shape.kv_heads), float(shape.head_dim), 2.0))]


# A guide sentence that calls a memory size enough ("24GB of VRAM is enough to support efficient inference").
_ENOUGH = re.compile(r"enough|sufficient|suffices?|足以|足够|够用|能够支持|可以支持")


def _contradicts(text: str, checks: list[FitResult]) -> bool:
    """A sentence calling a card's memory enough, beside checks that find nothing fitting on that memory: the
    guide's general line (its "models under 10B") would contradict the verdict just given."""
    sizes = {round(c.per_gpu_available_bytes / GIB) for c in checks} | \
        {int(c.per_gpu_available_bytes / 1e9 + 0.5) for c in checks}
    if not checks or any(c.fits for c in checks) or not _ENOUGH.search(text):
        return False
    return any(re.search(rf"(?<![\d.]){n}\s*G", text) for n in sizes)


def _memory_total(c: FitResult) -> int:
    """A check's memory in all: the sum of its terms (weights, gradients, optimizer, activations, KV, overhead)."""
    return sum(c.breakdown.model_dump().values())


def _side_by_side(kind: str, names: tuple[str, str], values: tuple[float, float], markers: list[str],
                  lang: Language, shown: Callable[[float], str], scale: float = 1,
                  exempt: tuple[str, ...] = ()) -> Sentence:
    """Two checks' one quantity, each named, and their ratio: 'Decode rate: A x tokens/s, B y; B's is r× the other's'
    (`scale` turns a shown value back into the checks' unit, for the number check)."""
    (na, nb), (va, vb) = names, values
    ratio = max(va, vb) / min(va, vb)
    text = say("models_compared", lang, metric=say(f"compared.{kind}", lang), a=na, b=nb, va=shown(va),
               vb=shown(vb), unit=say(f"compared_unit.{kind}", lang), bigger=na if va >= vb else nb,
               ratio=f"{ratio:.2f}")
    return Sentence(text, markers, exempt=exempt, derived=(round(ratio, 2), va / scale, vb / scale))


def _compared(asked: str | None, a: FitResult, b: FitResult) -> tuple[str, float, float]:
    """What two models' checks are compared by: the asked quantity (KV bytes a token, memory in all, decode
    rate), else the memory a GPU needs."""
    if asked == "kv":
        return "kv", float(a.kv_bytes_per_token or 0), float(b.kv_bytes_per_token or 0)
    if asked == "memory":
        return "memory", float(_memory_total(a)), float(_memory_total(b))
    if asked == "speed" and a.decode_tokens_per_s and b.decode_tokens_per_s:
        return "speed", a.decode_tokens_per_s, b.decode_tokens_per_s
    return "verdict", float(a.per_gpu_required_bytes), float(b.per_gpu_required_bytes)


# A guide passage about one line of cards, by its heading ("4.4 RTX系列的局限性"): its unnamed sentences are that
# line's, not another card's.
_HEADING_FAMILY = re.compile(r"(RTX|A100|H100)")
# The room beside the weights asked of a KV cache ("还能剩多少给 kv").
_HEADROOM = re.compile(r"剩|留给|余下|余量|富余|空间|headroom|margin|room|left (?:for|over)|leftover|spare",
                       re.IGNORECASE)
# Memory left over asked beside a fit: "留多少余量", "还剩多少显存", "how much margin".
_SPARE = re.compile(r"余量|剩(?:余|下)?多少|还剩|富余|headroom|margin|to spare|room left|left over|leftover",
                    re.IGNORECASE)  # (beside a verdict: not "空间" of a chassis)
_PICK = re.compile(r"which|哪(?:张|块|款|个|种)|推荐|recommend|buy|买|购|选|pick|get\b|什么(?:显卡|gpu|硬件)",
                   re.IGNORECASE)
_COMPUTED = {"fit", "speed", "cost", "selection", "spec"}  # answers from records and checks
_SPLIT = {"zh": re.compile(r"(?<=[。！？])"), "en": re.compile(r"(?<=[.!?])\s+(?=[A-Z])")}
_ALT_CHANGES = {"precision", "count", "workload", "zero", "offload", "rank"}

