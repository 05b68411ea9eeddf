"""The core every front end calls: question → Answer, over one loaded index.

An Engine is complete once constructed (index, embedder, search configuration, retrieval observer), so one
can be shared between threads: teams' documents join and leave its index in place, by id (rows appended or
tombstoned, never renumbered: kb/retrieve/search_index.py), the embedder serialises its own calls, and the
query-embedding cache has its own lock.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from indexer.chunks import Chunk
from indexer.embedder import Embedder
from kb.answer.checks import answer_query
from kb.answer.compose import Composer
from kb.answer.concepts import asks_what, named_concepts
from kb.answer.conversation import carried_line, resolved_question
from kb.answer.joined import join
from kb.answer.parts import Facts, TeamPrices
from kb.answer.sentences import question_terms
from kb.answer.team_costs import cost_asks, team_cost_sentences
from kb.cache import LruCache
from kb.documents.live import LiveDocuments
from kb.documents.store import Store
from kb.errors import BadInput, KbError
from kb.fit.engine import FitEngine
from kb.fit.presets import resolve_model
from kb.language import Language, detect_language, turn_language
from kb.models import Answer, Passage
from kb.retrieve.focus import asked_sections, case_terms, focus_of
from kb.retrieve.index import LoadedIndex, open_index
from kb.retrieve.passages import to_passage
from kb.retrieve.search import HybridSearcher, SearchConfig
from kb.retrieve.search_index import SearchIndex
from kb.settings import Settings, get_settings
from kb.understand.asks import Ask, read_asks
from kb.understand.clauses import ask_clauses
from kb.understand.followup import Turn, asks_same_money, is_reset, merge, slot_values
from kb.understand.intent import Domain, Intent, about_a_case, classify, names_a_case, off_domain
from kb.understand.lexicon import section_of_unknown
from kb.understand.mechanisms import mechanisms
from kb.understand.pointers import point, why_turn
from kb.understand.query import Query, from_state, to_state
from kb.understand.question import clean_question, clean_top_k
from kb.understand.reader import Reader
from kb.understand.state import Known
from kb.words.answer import gpu_name

if TYPE_CHECKING:
    from indexer.build import Progress
    from kb.documents.costs import Costs
    from kb.fit.gpus import TeamPrice

# Called with the seconds spent in retrieval (embedding + search), for metrics.
RetrievalObserver = Callable[[float], None]
MAX_HISTORY = 10  # earlier questions a turn may carry (contracts.md)


class Engine:
    """A loaded index, its embedder and searcher, and the answer pipeline."""

    def __init__(self, index: LoadedIndex, embedder: Embedder, settings: Settings, *,
                 search: SearchConfig | None = None, on_retrieval: RetrievalObserver | None = None) -> None:
        self.guide = index  # the artifact as loaded; `index` is what search reads and documents change
        self.index = SearchIndex.from_loaded(index, texts_remembered=settings.text_cache_size)
        self.embedder = embedder
        self.settings = settings
        self.searcher = HybridSearcher(self.index, search, settings.text_cache_size)
        self.cache: LruCache[str, np.ndarray] = LruCache(settings.embed_cache_size)
        self._tables: dict[str, Chunk] = {}  # section → the first chunk of its computed table
        self._cases: dict[str, tuple[str, str]] = {}  # case group → (its guide section, its title)
        for c in index.chunks:
            if c.kind == "table":
                self._tables.setdefault(c.section, c)
            elif c.kind == "case":
                self._cases.setdefault(c.group, (c.section, c.heading))
        self.observe_retrieval = on_retrieval
        self.fit = FitEngine.from_settings(settings)
        self.reader = Reader.for_corpus(settings.corpus_dir, settings.usd_cny, settings.text_cache_size)
        self._concepts = [c for c in index.chunks if c.kind == "concept" and c.aliases]
        self.composer = Composer(index.chunks, self._passage_of, len, self._figure, self._team_prices,
                                 self.index.by_id, self._lacks, self._cards_in,
                                 self.reader.gpus_named, index.sentences)
        self.domain = Domain(index.glossary, [t for c in index.chunks
                                              for t in (c.heading, c.text, c.heading_en, c.text_en)])
        self.documents: LiveDocuments | None = None  # teams' documents joining the index (kb/documents/live.py)

    @cached_property
    def known(self) -> Known:
        """What a state passed back may name: the spec records and the guide's cases (kb/understand/state.py)."""
        return Known(frozenset(self.fit.gpus), frozenset(self._cases), self.settings.max_question_chars)

    def _figure(self, gpu: str, attribute: str) -> tuple[float, str] | None:
        """A spec record's figure for an asked attribute, as the fit engine reads it (for comparisons)."""
        try:
            spec = self.fit.gpu(gpu)
        except KbError:
            return None
        value = {"bandwidth": (spec.bandwidth_gbs, "GB/s"), "compute": (spec.bf16_dense_tflops, "TFLOPS"),
                 "power": (spec.tdp_w, "W"), "nvlink": (spec.nvlink_gbs, "GB/s"), "pcie": (spec.pcie_gbs, "GB/s"),
                 "price": (spec.price_cny, "CNY") if spec.price_cny else None,
                 "vram": (spec.capacity_value or spec.vram_gib, spec.capacity_unit),
                 "int8": (spec.int8_dense_tops, "TOPS") if spec.int8_dense_tops else None,
                 "fp8": (spec.fp8_dense_tflops, "TFLOPS") if spec.fp8_dense_tflops else None,
                 "fp4": (spec.fp4_dense_tflops, "TFLOPS") if spec.fp4_dense_tflops else None,
                 "driver": (spec.driver_mib, "MiB") if spec.driver_mib else None,
                 **{f"ecc_{state}": (float(v["value"]), "MiB") for state in ("on", "off")  # (where a record knows)
                    if isinstance(v := spec.figures.get(f"vram_driver_ecc_{state}_mib"), dict)},
                 # the ECC state the driver's total was read at, as its note says: (1, "on") or (1, "off")
                 "driver_ecc": next(((1.0, state) for state in ("on", "off") if f"ECC {state}" in str(
                     spec.figures.get("vram_driver_mib", {}).get("note", ""))), None)}.get(attribute)
        return (float(value[0]), value[1]) if value and value[0] else None  # (a figure a record leaves unknown: none)

    def _cards_in(self, text: str) -> dict[str, int]:
        """The cards a case's text counts ("4卡A100集群", "16张RTX 4090"), each at the largest count it gives."""
        counts: dict[str, int] = {}
        for part in re.split(r"[；;。\n]", text):
            for gpu, n in self.reader.read(part, "zh").gpus:
                if n:
                    counts[gpu] = max(n, counts.get(gpu, 0))
        return counts

    def _lacks(self, gpu: str) -> frozenset[str]:
        """The low-precision formats a card's record says it has no tensor cores for ("fp8", "fp4")."""
        try:
            spec = self.fit.gpu(gpu)
        except KbError:
            return frozenset()
        return frozenset({"fp8"} if spec.fp8_dense_tflops == 0 else set()) | (
            frozenset() if spec.fp4_dense_tflops else frozenset({"fp4"}))

    def _team_prices(self, gpu: str, language: Language) -> TeamPrices:
        """What teams' documents say of a card's price (its newest buy quote, and rent or buy)."""
        if self.documents is None or not self.documents.prices:
            return TeamPrices()
        from kb.documents.pricebook import break_even

        try:
            spec = self.fit.gpu(gpu)
        except KbError:
            return TeamPrices()
        return TeamPrices(spec.team_price, break_even(spec, self.documents.prices,
                                                      self.settings.energy_price_cny_per_kwh, language))

    def _team_costs(self, text: str, query: Query, language: Language, ask: Ask | None) -> list[Any]:
        """The documents' answers to the question's cost asks (none asked, or no team price: none)."""
        if self.documents is None or not cost_asks(text):
            return []
        return team_cost_sentences(self.costs(), query, text, language, hours=ask.hours if ask else None)

    def costs(self) -> Costs | None:
        """The cost arithmetic over the teams' price facts in force (kb/documents/costs.py: what we paid, the newest
        quote and its terms, rent for a period, rent or buy, break-even, price per unit), citing the part of each
        card's spec record that states the figure used; None when no document store is joined."""
        if self.documents is None:
            return None
        return self.documents.costs(dict(self.fit.gpus), self.settings.energy_price_cny_per_kwh,
                                    lambda gpu, value: self.composer._part_with(gpu, value).id)

    def _passage_of(self, chunk: Chunk, rank: int, score: float, language: Language) -> Passage:
        return to_passage(chunk, rank, score, self._tables, language)

    @classmethod
    def open(cls, settings: Settings | None = None, build_if_needed: bool = True,
             progress: Progress | None = None, *, embedder: Embedder | None = None,
             search: SearchConfig | None = None, on_retrieval: RetrievalObserver | None = None) -> Engine:
        """Load (and if needed first build) the index the settings point at; `embedder` (default: the one
        KB_EMBEDDER names) embeds the questions, `on_retrieval` hears each retrieval's seconds."""
        settings = settings or get_settings()
        index, embedder = open_index(settings, embedder, build_if_needed=build_if_needed, progress=progress)
        return cls(index, embedder, settings, search=search, on_retrieval=on_retrieval).with_documents()

    def serving(self, wrap: Callable[[Embedder], Embedder], on_retrieval: RetrievalObserver | None) -> Engine:
        """A new Engine over this one's loaded index and settings, its embedder wrapped and another observer
        (the service's, for an engine opened elsewhere: tests share one index between many apps)."""
        return Engine(self.guide, wrap(self.embedder), self.settings, search=self.searcher.config,
                      on_retrieval=on_retrieval).with_documents()

    def with_documents(self) -> Engine:
        """This engine with the teams' documents of its settings' store joined (kb/documents/live.py)."""
        self.documents = LiveDocuments(self, Store(self.settings.sources_dir))
        self.documents.refresh()
        return self

    def set_prices(self, prices: dict[str, TeamPrice]) -> None:
        """Price the cards at the teams' newest buy prices where they give one (kb/documents/live.py)."""
        self.fit = self.fit.with_prices(prices)

    def embed_query(self, text: str) -> np.ndarray:
        return self.cache.get_or_compute(text, lambda: self.embedder.embed_query(text))

    def search(self, question: str, top_k: int, language: Language | None = None,
               searcher: HybridSearcher | None = None, query: Query | None = None) -> list[Passage]:
        """The top_k passages for a (validated) question (`searcher`: another configuration's, for kb eval;
        `query`: the question as already read, so an answer reads it once)."""
        language = language or detect_language(question)
        searcher = searcher or self.searcher
        started = time.perf_counter()
        query = query or self.reader.read(question, language)
        focus = focus_of(question, query)
        vector = searcher.query_vector(self.embed_query, question, language, focus.terms)
        named = frozenset(f"spec-{g}" for g, _ in query.gpus[:2])
        if not about_a_case(question):  # "大学团队的 4090 集群花了多少钱" is the case's figure, not the card's
            named |= self._price_sections(query)
        if names_a_case(question):  # "smart manufacturing case: …": that case and its section of the guide
            named |= self._cases_named(question)
        # "昇腾 310p 做推理怎么样": other makers; "groq": specialised chips; "b100", "rtx a4000": NVIDIA's
        named |= {s for name in query.unknown_gpus if (s := section_of_unknown(name))}
        named |= asked_sections(query)  # "qwen2.5 14b 16k ctx, kv per request?": the guide's section on KV caches
        hits = searcher.search(vector, question, language, top_k, named, focus)
        if self.observe_retrieval is not None:
            self.observe_retrieval(time.perf_counter() - started)
        chunks = searcher.index.rows
        return [to_passage(chunks[h.row], rank, h.score, self._tables, language)
                for rank, h in enumerate(hits, 1)]

    def _cases_named(self, question: str) -> frozenset[str]:
        """The cases whose titles hold the question's words for who they are about (at most two: more is no
        name), with the guide sections they come from."""
        terms = case_terms(question)
        found = {group: section for group, (section, title) in self._cases.items() if any(t in title for t in terms)}
        if not found or len(found) > 2:
            return frozenset()
        return frozenset(found) | frozenset(f"guide-{s}" for s in found.values())

    def _price_sections(self, query: Query) -> frozenset[str]:
        """For a price asked of named cards, the guide's passages their records cite for the price (A100 3.4, RTX
        4.3): their spec sheets hold the figure, those passages what it means."""
        if query.asked != "price" and "price" not in query.attributes and not (query.budget_cny and query.how_many):
            return frozenset()  # ("6 万能买几张 4080": what the budget buys is the card's price)
        sections = set()
        for gpu, _ in query.gpus[:2]:
            try:
                section = self.fit.gpu(gpu).price_section
            except KbError:
                continue
            if section:
                sections.add(f"guide-{section}")
        return frozenset(sections)

    def answer(self, question: str, top_k: int | None = None, history: list[str] | None = None,
               state: dict[str, Any] | None = None) -> Answer:
        """The direct answer first (verified against what it cites), then passages, fit checks, selection.

        `history` (earlier questions, oldest first) or `state` (an earlier answer's) makes this a turn of a
        conversation: a follow-up is answered as its resolved question, which says what it carried."""
        s = self.settings
        text = clean_question(question, s.max_question_chars)
        k = clean_top_k(top_k, s.default_top_k, s.max_top_k)
        prior = self._prior(history, state)
        language = turn_language(text, prior.language if prior is not None else None)
        turn = self._turn(prior, text)
        if turn.followup and "case" in turn.carried and turn.query.case:
            asked = f"{self._case_title(turn.query.case, language)}{'：' if language == 'zh' else ': '}{text}"
            query = self.reader.read(asked, language)  # "and what did it cost them": asked of the case named earlier
        elif turn.followup and turn.why:  # the reason asked, of the cards named beside it
            names = ", ".join(gpu_name(g) for g, _ in turn.query.gpus)
            asked, query = (f"{text}（{names}）" if language == "zh" else f"{text} ({names})"), turn.query
        elif turn.followup:
            asked = resolved_question(turn.query, language)
            query = self.reader.read(asked, language)
            query.earlier_gpus = list(turn.query.earlier_gpus)  # not in the words: kept for the next turn
        else:  # a question standing alone was read once already, as the turn
            rest = is_reset(text)[1]
            asked = rest.strip() or text
            query = turn.query if asked == (rest or text) else self.reader.read(asked, language)
        # (a follow-up was merged into the conversation's one subject: it is answered as its resolved question)
        answer = self._answer(asked, query, k, language) if turn.followup else \
            self._answer_asks(asked, query, k, language)
        if answer.state.get("intent") == "case":  # kept so that "what did they pay" next asks the same case
            query.case = turn.query.case or self.composer.case_named(asked, answer.passages)
        lead = ""
        if turn.followup:
            lead = carried_line(turn.carried, turn.changed, turn.before, slot_values(turn.query), language)
            lead += "" if language == "zh" else " "
        return answer.model_copy(update={
            "question": text, "answer": lead + answer.answer, "resolved_question": asked,
            "state": {**to_state(query, answer.state.get("intent", "general"), language),
                      **({"asks": answer.state["asks"]} if "asks" in answer.state else {})},
            "carried": turn.carried, "changed": turn.changed})

    def _prior(self, history: list[str] | None, state: dict[str, Any] | None) -> Query | None:
        """The conversation so far as one Query: from a passed-back state, else folded from the history."""
        if state is not None:
            return from_state(state, self.known)
        if not history:
            return None
        if not isinstance(history, list) or len(history) > MAX_HISTORY:
            raise BadInput(f"history is a list of at most {MAX_HISTORY} earlier questions, oldest first",
                           field="history")
        prior: Query | None = None
        for i, earlier in enumerate(history):
            text = clean_question(earlier, self.settings.max_question_chars, f"history[{i}].question")
            prior = self._turn(prior, text, earlier=True).query
        return prior

    def _turn(self, prior: Query | None, text: str, earlier: bool = False) -> Turn:
        """`text` read against the conversation so far. Which guide case a turn names is looked up where it
        matters: for an `earlier` turn (nothing else will find it) and after a case (to tell the same case from
        another); the turn being answered otherwise takes it from its answer's own passages."""
        reset, rest = is_reset(text)
        language = turn_language(text, prior.language if prior is not None and not reset else None)
        new = self.reader.read(rest or text, language)
        if about_a_case(rest or text) and new.model is None and (earlier or (prior is not None and prior.case)):
            found = self.search(rest or text, self.settings.default_top_k, language, query=new)
            new.case = self.composer.case_named(rest or text, found)
        if prior is None or reset:
            return Turn(new)
        said = self.reader.mentions(text)
        new = point(prior, new, said, lambda gpu: (p[0] if (p := self._figure(gpu, "price")) else None))
        if (why := why_turn(prior, new, said)) is not None:  # "为什么不选A100": a reason about these cards
            return Turn(why, True, ["gpu"], [], {}, why=True)
        corrects = any(m.kind == "correction" for m in said)
        turn = merge(prior, new, text, tuple(self.fit.gpus), corrects=corrects)
        bought = self._bought(prior)
        if turn.followup and bought and ([g for g, _ in turn.query.gpus] == [bought[0]] or not new.gpus):
            turn.query.gpus = [bought]  # "那些 4090 显存加起来多少": the cards the earlier money bought
        if turn.followup and turn.query.budget_cny is None and asks_same_money(text):
            prices = [(self._figure(g, "price"), c or 1) for g, c in prior.gpus]
            if prices and all(p for p, _ in prices):  # "for the same money": what the earlier cards cost
                turn.query.budget_cny = sum(p[0] * c for p, c in prices if p)
                turn.changed.append("budget_cny")
                turn.before["budget_cny"] = None
        return turn

    def _case_title(self, case: str, language: Language) -> str:
        """A case's title in `language`, from its first chunk."""
        chunk = self.index.chunk(case)
        if chunk is None:
            raise BadInput(f"state names an unknown case {case!r}: pass back the `state` of an earlier answer "
                           f"unchanged", field="state")
        return chunk.heading if language == "zh" else (chunk.heading_en or chunk.heading)

    def _bought(self, q: Query) -> tuple[str, int] | None:
        """'一张 a100 的钱能买几张 4090': the second card and how many of it the first card's price buys; '十五万
        全部拿来买 4070 能买多少张': the card and how many of it the budget buys."""
        if q.how_many and len(q.gpus) == 1 and q.budget_cny and not q.model:
            price = self._figure(q.gpus[0][0], "price")
            return (q.gpus[0][0], int(q.budget_cny // price[0])) if price else None
        if not (q.how_many and len(q.gpus) == 2 and "price" in q.attributes):
            return None
        prices = [(g, n, p[0]) for g, n in q.gpus if (p := self._figure(g, "price"))]
        if len(prices) != 2:
            return None
        (_, n_dear, dear), (cheap, _, each) = sorted(prices, key=lambda x: -x[2])  # the dearer card is the money
        return cheap, int(dear * (n_dear or 1) // each)

    def _answer_asks(self, text: str, query: Query, k: int, language: Language) -> Answer:
        """A message's answer: its one ask answered whole, or each of its asks in the order asked, joined. A bill
        asked of a run another ask times ("训练期间的电费") is for that run's hours."""
        asks = read_asks(text, query, self.reader.read, self.reader.mentions, language)
        if self._outside(text, language):  # a team's message about hiring, wifi or a filing: nothing kb holds
            return self._answer(text, query, k, language, outside=True)
        if len(asks) == 1 and (apart := self._outside_clauses(text, language)):
            # "how much VRAM does a 4090 have, and what's a good salary in Berlin?": the rest answered, the clause
            # about something else said at the end as what kb could not answer
            rest = text
            for clause in apart:
                rest = rest.replace(clause, " ")
            inside = self.reader.read(rest, language)
            kept = self._answer(rest, inside, k, language)
            if kept.coverage == "not_covered":  # nothing of the rest is the guide's either: the message is outside
                return self._answer(text, query, k, language, outside=True)
            said = [(rest.strip(" ,，;；"), kept),
                    *((c, self._answer(c, self.reader.read(c, language), k, language, outside=True))
                      for c in apart)]  # (the rest's answer first, then what kb could not answer)
            return join(said, language, k)
        if len(asks) == 1:
            return self._answer(text, asks[0].query, k, language, ask=asks[0])
        parts: list[tuple[str, Answer]] = []
        for ask in asks:
            subject = " ".join([*(gpu_name(g) for g, _ in ask.query.gpus), ask.query.model or ""])
            ran = [c.train_wall_hours for _, a in parts for c in a.fit_checks if c.train_wall_hours]
            if ask.template == "bill" and ask.hours is None and ran:
                ask.hours, ask.of_a_run = ran[0], True
            parts.append((ask.text, self._answer(ask.text, ask.query, k, language, ask=ask,
                                                 search_text=f"{ask.text} {subject}".strip())))
        joined = join(parts, language, k)
        return joined.model_copy(update={"state": {**parts[0][1].state,
                                                   "asks": [{"template": a.template, "question": a.text}
                                                            for a in asks]}})

    def _outside_clauses(self, text: str, language: Language) -> list[str]:
        """The asking clauses of a message that are about something outside the guide, when others are not."""
        clauses = ask_clauses(text)
        if len(clauses) < 2:
            return []
        apart = [c.text.strip(" ,，;；") for c in clauses if self._clause_outside(c.text, language)]
        apart = [re.sub(r"^(?:and|also|plus|then|还有|以及|另外)\s+", "", c, flags=re.I) for c in apart]
        return apart if len(apart) < len(clauses) else []

    def _clause_outside(self, clause: str, language: Language) -> bool:
        """A clause with no card, model or figure of its own, in words the guide never uses or about another field."""
        own = self.reader.read(clause, language)
        if own.model or own.gpus or own.unknown or own.attributes:
            return False
        return bool(self.domain.foreign(clause) or off_domain(clause))

    def _outside(self, text: str, language: Language) -> bool:
        """Whether every ask of a message is about something outside the guide: no card, model or workload of its
        own, and mostly words the guide never uses ("what's a competitive salary range these days") — however
        many of the guide's words the context around them holds ("our fine-tuning pipeline", "大模型应用")."""
        clauses = ask_clauses(text)
        if len(clauses) < 2 and len(text) < 120:
            return False  # (a short question is judged whole, as it always was)
        # (a workload word alone may be context: "我们的大模型应用要上线了，…备案流程怎么走")
        return all(self._clause_outside(clause.text, language) for clause in clauses)

    def _answer(self, text: str, query: Query, k: int, language: Language, *, ask: Ask | None = None,
                search_text: str | None = None, outside: bool = False) -> Answer:
        """A standalone question's answer, from its Query (`ask`: what the ask reader found beside the slots — a
        span, a rent, dollars; `search_text`: what to search with, when the question is one clause of a longer
        message)."""
        s = self.settings
        passages = self.search(search_text or text, k, language, query=query)
        found = answer_query(self.fit, query, language)
        checks, selection, unknown = found.checks, found.selection, found.unknown
        gpus = list(found.gpus)
        query_gpus = [g for g, _ in query.gpus] + list(query.unknown_gpus)
        if "a100-80gb" in gpus and any(n.key == "default_of" and n.values.get("gpu") == "a100-80gb"
                                       for n in query.notes):
            gpus.insert(gpus.index("a100-80gb"), "a100-40gb")  # "the A100" is both cards
        intent = classify(text, self.domain, has_checks=bool(checks), has_selection=selection is not None,
                          names_gpu=len(set(query_gpus)), names_model=bool(found.models), names_unknown=bool(unknown),
                          asked=query.asked, how_many=query.how_many, wants_pick=query.wants_selection,
                          unnamed=query.unnamed)
        if outside:
            intent = Intent("not_covered")
        if intent.kind == "not_covered" and mechanisms(text) and not off_domain(text) and not outside:
            intent = Intent("why")  # "上下文拉长以后 同时服务的人为啥少了": how serving works, with no card named
        team = [] if outside else self._team_costs(text, query, language, ask)
        if intent.kind == "not_covered" and team:
            intent = Intent("cost")  # "what did we pay for our last 4090s": the team's own documents answer it
        if intent.kind == "not_covered" and not off_domain(text) and not outside and asks_what(text) \
                and named_concepts(query.unnamed or text, self._concepts):
            intent = Intent("general")  # "what's MFU": a term kb holds a record of, asked what it is
        if ask is not None and ask.template in ("why", "case") and intent.kind not in ("not_covered", "case", "why") \
                and not (ask.template == "why" and (found.models or intent.kind == "spec")):
            # (a why of models is their checks' arithmetic; of a card's figures, the figures themselves)
            intent = Intent(ask.template, attributes=intent.attributes)  # (what the asks read says it asks)
        if intent.kind == "why" and query.attributes:  # a why about the figures a conversation was weighing
            intent.attributes = list(dict.fromkeys([*intent.attributes, *query.attributes]))
        if intent.kind == "not_covered":
            checks, selection = [], None
        terms = question_terms(text, language, self.index.lexical.tokenize_query(text))
        facts = Facts(question=text, language=language, intent=intent, passages=passages, checks=checks,
                      selection=selection, unknown=unknown, gpus=gpus, terms=terms, mfu=s.mfu,
                      budget_cny=found.budget_cny, asked=query.asked, unknown_gpus=list(query.unknown_gpus),
                      stated_gib=query.vram_gb if query.unknown_gpus else None, needs=found.needs,
                      refused=found.refused, unnamed=query.unnamed,
                      costs=team,
                      model_named=query.model is not None, model=self._model_params(query.model),
                      latency=query.latency,
                      counts={g: c for g, c in query.gpus if c},
                      how_many=query.how_many, period=query.period, wants_pick=query.wants_selection,
                      energy_cny_per_kwh=query.energy_cny_per_kwh or s.energy_price_cny_per_kwh,
                      energy_asked=query.energy_cny_per_kwh is not None, hours=ask.hours if ask else None,
                      of_a_run=bool(ask and ask.of_a_run),
                      rent_cny=ask.rent_cny if ask else None, observed=ask.observed if ask else None,
                      match=ask.attribute() if ask and ask.template == "match" else None,
                      query_vector=self.embed_query(self.searcher.query_text(search_text or text, language)),
                      usd_cny=s.usd_cny if ask and ask.in_usd else None)
        composed = self.composer.compose(facts)
        if intent.kind in ("case", "why") and "[F" not in composed.answer:
            checks = []  # (what someone did, or a reason: checks the answer does not use were not asked for)
        return Answer(question=text, language=language,
                      answer=composed.answer, coverage=composed.coverage,  # type: ignore[arg-type]
                      unknown=unknown, passages=composed.passages, fit_checks=checks, selection=selection,
                      state={"intent": intent.kind})

    @staticmethod
    def _model_params(model: str | None) -> tuple[str, int] | None:
        """A model the question names, with its parameter count (a preset's, or a size's)."""
        if model is None:
            return None
        try:
            return model, resolve_model(model).params
        except KbError:
            return None

    def passage(self, passage_id: str, language: Language = "zh") -> Passage | None:
        """One passage by id (rank 1, score 0: it was asked for, not retrieved)."""
        chunk = self.index.chunk(passage_id)
        return None if chunk is None else to_passage(chunk, 1, 0.0, self._tables, language)
