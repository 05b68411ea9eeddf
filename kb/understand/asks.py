"""Asks: what a message asks, one typed ask for each thing it wants, built from its clauses and mentions.

A template says what kind of answer an ask wants; the mentions bound to it say of what:

    figure · compare · derive · total · match · bill · fit · count · time · serve · pick · case · why ·
    define · observe · capability · general

An ask's subject (cards and counts, model, workload, precision, context, users, tokens) is what its own clause
names, then what the rest of the message names ("我们有一台8卡A100 … 1. 放得下吗？2. 要跑多少天？": both asks
are of the 8 A100s). What an ask asks (the figure, the verdict, the count) is only ever its own clause's.
A message whose asks are one kind of thing about one subject is read as one ask, as a single question is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kb.language import Language
from kb.understand.clauses import ask_clauses
from kb.understand.mentions import Mention, of_kind
from kb.understand.query import Query

# Slots that are the subject of an ask (carried from the rest of the message into a clause that lacks them).
_SUBJECT = ("model", "also", "precision", "seq_len", "concurrency", "batch", "tokens", "zero", "tp", "pp",
            "energy_cny_per_kwh", "max_gpus")
_FIGURE_ASKS = ("figure", "price", "comparison")
# Asks of the cards' own figures and what they add up to: answered together, a later one may use an earlier's
# result ("how many 4080s for the price of 8 a100s, and how much vram in total").
_OF_CARDS = {"figure", "compare", "total", "derive", "match", "bill", "buys"}


@dataclass(frozen=True)
class Observed:
    """What an asker measured: a decode rate (tokens/s), a training rate (tokens/s over all the cards), or the batch
    at which a job ran out of memory."""

    kind: str  # "decode" | "train" | "oom"
    value: float


@dataclass
class Ask:
    """One ask of a message: its template, the clause it was said in, its slots, and the mentions it holds."""

    template: str
    text: str
    query: Query
    mentions: list[Mention] = field(default_factory=list)
    hours: float | None = None  # a span the ask is about ("for 90 days", "一年"), in hours
    of_a_run: bool = False  # the span is a run another ask timed ("训练期间的电费")
    rent_cny: float | None = None  # a rent a card-hour the message gives ("$2.50 per GPU-hour"), in CNY
    in_usd: bool = False  # the asker's own money was in dollars: results are said in dollars too
    observed: Observed | None = None  # what the asker measured, to judge against kb's bound

    def ops(self) -> set[str]:
        return {m.key for m in self.mentions if m.kind == "operation"}

    def kinds(self) -> set[str]:
        return {m.kind for m in self.mentions}

    def attribute(self) -> str | None:
        """The first card figure the ask names ("vram" of "match one a100's vram")."""
        return next((m.key for m in self.mentions if m.kind == "attribute"), None)


def template(q: Query, mentions: list[Mention]) -> str:
    """What kind of answer a clause wants, from what it names and what its words do."""
    ops = {m.key for m in mentions if m.kind == "operation"}
    kinds = {m.kind for m in mentions}
    attributes = {m.key for m in mentions if m.kind == "attribute"}
    subject = bool(q.model or q.gpus)
    if subject and ("observe" in ops or "oom" in ops) and (kinds & {"rate", "throughput", "tokens"} or "oom" in ops):
        return "observe"
    if q.gpus and ("energy_price" in kinds or "energy_cost" in attributes) and not q.model:
        return "bill"
    if ops & {"why", "challenge"} and not (q.model and (q.gpus or q.workloads)):
        return "why"  # (a claim challenged, "4090 比 a100 强，这说得通吗", asks its reason as a why does; a why
        # of a model on cards, "为啥24g连7b全参都不够", is answered by the check's own arithmetic)
    if q.derived:
        return "derive"
    if "match" in ops and len(q.gpus) == 2 and attributes & {"vram", "bandwidth", "compute"}:
        return "match"
    if "total" in ops and q.gpus and any(c for _, c in q.gpus) and attributes and not q.model:
        return "total"
    third = "third" in ops and "party" in kinds and "own" not in kinds  # ("the company …: what do they run")
    if ("case" in ops or third) and "pick" not in ops:
        return "case"  # "有团队把7b塞进4卡4090…延迟做到多少": what someone did, named by what happened
    if "pick" in ops and (q.model or q.workloads or q.budget_cny is not None) and "why" not in ops:
        return "pick"  # "A100和4090到底选哪个？", "大概怎么配？": a choice, between the cards named or among all
    if "how_long" in ops or q.asked == "time":
        return "time"
    if q.model and (q.speed or kinds & {"rate"}) and q.asked != "concurrency":
        return "speed"
    if q.model and (attributes & {"price"} or "cheaper" in ops) and (q.tokens or "rent" in kinds):
        return "cost"  # what a run costs: its GPU-hours at the rent given, or the cards it needs
    if q.asked in ("concurrency", "kv") or (q.asked is None and q.asks in ("concurrency", "kv")):
        return "serve"  # (a clause asking a model's KV or users, "KV cache多大？", of the message's model)
    if ("how_many" in ops or q.how_many) and q.model:
        return "count"
    if q.how_many and len(q.gpus) == 1 and q.budget_cny is not None and not q.model:
        return "buys"  # "预算4万 买4090的话能买几张": the budget over the card's price
    if q.wants_selection and not q.gpus:
        return "pick"
    if q.model and (q.gpus or q.workloads):
        return "fit"
    if q.asked == "comparison" or (len(q.gpus) >= 2 and q.attributes):
        return "compare"
    if q.gpus and (q.attributes or q.asked in _FIGURE_ASKS):
        return "figure"
    if q.wants_selection:
        return "pick"
    if "define" in ops and not subject:
        return "define"
    return "general"


def _bind(context: Query, own: Query, found: list[Mention]) -> Query:
    """A clause's Query with the message's subject carried in where the clause does not say it: its cards
    always, its model, workload and amounts unless the clause asks a figure of the cards alone."""
    cards = replace(own, notes=list(own.notes))
    if not own.gpus and context.gpus:
        cards.gpus = [(g, own.count if own.count is not None else c) for g, c in context.gpus]
    if own.how_many and len(cards.gpus) == 1 and own.model is None and own.budget_cny is None:
        cards.budget_cny = context.budget_cny  # ("买4090的话能买几张" of the message's budget)
    bound = replace(cards, notes=list(cards.notes))
    for name in _SUBJECT:
        if getattr(bound, name) in (None, []) and getattr(context, name) not in (None, []):
            setattr(bound, name, getattr(context, name))
    if not own.workloads and context.workloads:
        bound.workloads = list(context.workloads)
    if bound.asked is None and own.asks and bound.model:
        bound.asked = own.asks  # ("KV cache多大？" of the message's model: what the words ask of a model)
    kind = template(bound, found)
    if own.model is None and (kind in _OF_CARDS or template(cards, found) in _OF_CARDS - {"buys"}) \
            and kind not in ("cost", "time", "serve", "count", "speed"):
        bound = cards  # ("③4张卡满载功耗加起来多少瓦？": a figure of the cards, whatever model the message runs)
        kind = template(bound, found)
    if kind == "time" and bound.asked is None:
        bound.asked = "time"  # ("2. 如果继续预训练100B token，要跑多少天？" of the message's model and cards)
    elif kind == "count":
        bound.how_many = True
    if own.budget_cny is None and context.budget_cny is not None and kind == "pick":
        bound.budget_cny = context.budget_cny
    for name in ("setting", "individual", "low_power", "scratch", "no_datacenter"):
        if not getattr(bound, name) and getattr(context, name):
            setattr(bound, name, getattr(context, name))
    return bound


def observed(q: Query, mentions: list[Mention]) -> Observed | None:
    """What a clause reports having measured ("7 tok/s", "一天才跑了20B token", "oom at batch 8"), if it asks
    about it."""
    ops = {m.key for m in mentions if m.kind == "operation"}
    if not ops & {"observe", "oom"}:
        return None
    if "oom" in ops:
        return Observed("oom", float(q.batch or 1))
    training = bool(set(q.workloads) - {"inference"})
    if through := of_kind(mentions, "throughput"):
        return Observed("train", (through[0].value or 0.0) / 3600)
    if rates := of_kind(mentions, "rate"):
        return Observed("train" if training else "decode", rates[0].value or 0.0)
    tokens, spans = of_kind(mentions, "tokens"), of_kind(mentions, "duration", "span")
    if tokens and spans and training:  # "一天才跑了20B token": tokens over the span said
        return Observed("train", (tokens[0].value or 0.0) / ((spans[0].value or 1.0) * 3600))
    return None


def _hours(mentions: list[Mention]) -> float | None:
    spans = of_kind(mentions, "duration")
    return spans[-1].value if spans else None  # ("一个月（按30天算）": the figure said last is the one meant)


def read_asks(text: str, query: Query, read: Callable[[str, Language], Query],
              mentions: Callable[[str], list[Mention]], language: Language) -> list[Ask]:
    """The asks of a message (`query`: the whole message as read; `read` and `mentions` read a clause)."""
    whole = mentions(text)
    rent = next((m.value for m in whole if m.kind == "rent"), None)
    usd = any(m.key == "usd" for m in whole if m.kind in ("rent", "energy_price", "money"))
    single = Ask(template(query, whole), text, query, whole, hours=_hours(whole), rent_cny=rent, in_usd=usd,
                 observed=observed(query, whole))
    clauses = ask_clauses(text)
    if len(clauses) < 2:
        return [single]
    asks = []
    for clause in clauses:
        own, found = read(clause.text, language), mentions(clause.text)
        bound = _bind(query, own, found)
        asks.append(Ask(template(bound, found), clause.text, bound, found, hours=_hours(found) or single.hours,
                        rent_cny=rent, in_usd=usd, observed=observed(bound, found)))
    kinds = [a.template for a in asks]
    subjects = {(a.query.model, a.query.precision, tuple(a.query.workloads)) for a in asks if a.query.model}
    if (len(set(kinds)) == 1 and len(subjects) <= 1) or set(kinds) <= _OF_CARDS \
            or sum(k != "general" for k in kinds) < 2:
        return [single]  # one thing asked in several clauses, or figures of the same cards, one answering the next
    return asks
