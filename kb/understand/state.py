"""State: the `state` an Answer returns and a client passes back, validated like any other input.

A state comes back from outside (a request body, a Slack message's metadata), so nothing of it reaches the reader,
the words or the embedder before it passes this model: every field enumerated or bounded, every id one kb has
(a spec record, a model preset or a size, a guide case), every list short. What fails is BadInput naming the field
as `state.<field>` (`state.gpus[0].id`): a 422 over HTTP.

The enumerations are those of the code that fills a Query (kb/understand/read.py, intent.py, query.py), the bounds
those a fit check takes (kb/fit/request.py). Ids are checked in two steps: their form here, always (so the HTTP
schema refuses a 14,000-character "model" before anything runs), and that they name what the loaded index has
when a `Known` is given as validation context (the Engine's).

To add a field: declare it here with a default (None or an empty list), so that every state returned before
still validates, and write it in `to_state` / read it in `from_state` (kb/understand/query.py), as `asks` (a
message's several asks, said back) was. A key this model does not declare is refused, so a state can never carry
what kb does not check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from kb.errors import BadInput
from kb.fit.presets import MAX_PARAMS, MIN_PARAMS, PRESETS, parse_size
from kb.fit.request import (
    MAX_BATCH,
    MAX_CONCURRENCY,
    MAX_COUNT,
    MAX_PP,
    MAX_SEQ,
    MAX_TOKENS,
    MAX_TP,
    WORKLOADS,
    Precision,
    Workload,
)
from kb.language import Language
from kb.understand.intent import INTENT_KINDS, SPEC_ATTRIBUTES
from kb.understand.templates import TEMPLATES

# What a question asks for (contracts: "what is asked"); None when nothing specific.
ASKED = ("figure", "price", "comparison", "verdict", "count", "concurrency", "kv", "memory", "speed", "time",
         "cost", "pick", "reason", "case", "rent_or_buy", "context", "largest")
# A quantity derived from the subject's figures ("per_gb": price per GB of memory …; kb/understand/query.py).
DERIVED = ("per_gb", "per_tflops", "per_kw", "per_w", "per_10k", "per_1k", "per_cny", "grad_sync")
ATTRIBUTES: tuple[str, ...] = tuple(SPEC_ATTRIBUTES)
MAX_CARDS = 32  # cards one state names: more than kb has spec records of
MAX_MODELS = 32  # models compared in one question: more than kb has presets
MAX_BUDGET_CNY = 1e12  # a trillion yuan: past any purchase a person plans
MAX_ASKS = 32  # asks one message holds: one a clause
MAX_QUESTION_CHARS = 10_000  # the most KB_MAX_QUESTION_CHARS may be (kb/settings.py); Known holds the one in force
ASK_TEMPLATES = TEMPLATES  # the kinds of ask a message's clauses are read as, for a state's `asks`
ID_CHARS = 64  # a record's, a preset's or a case's id is shorter (the longest today: 36)
_ID = re.compile(r"[a-z0-9][a-z0-9.+-]*")  # "rtx-4060-ti-16gb", "qwen2.5-72b", "1e+06b", "case-9.1-university-team"

Asked = Literal[ASKED]  # type: ignore[valid-type]
Derived = Literal[DERIVED]  # type: ignore[valid-type]
Attribute = Literal[ATTRIBUTES]  # type: ignore[valid-type]
Intent = Literal[INTENT_KINDS]  # type: ignore[valid-type]
Template = Literal[ASK_TEMPLATES]  # type: ignore[valid-type]
Id = Annotated[str, Field(min_length=1, max_length=ID_CHARS, pattern=_ID.pattern, strict=True)]
Count = Annotated[StrictInt, Field(ge=1, le=MAX_COUNT)]
Amount = Annotated[float, Field(gt=0, allow_inf_nan=False, strict=True)]


def _model(name: str) -> str:
    """A model preset's id, or a bare size ("70b", "6.7b") within what a fit check takes."""
    params = None if name in PRESETS else parse_size(name)
    if name not in PRESETS and (params is None or not MIN_PARAMS <= params <= MAX_PARAMS):
        raise ValueError("neither a model preset nor a size kb checks (e.g. 70b)")
    return name


ModelId = Annotated[Id, AfterValidator(_model)]


@dataclass(frozen=True)
class Known:
    """What the loaded index has: the spec records' ids and the guide cases' (validation context)."""

    gpus: frozenset[str]
    cases: frozenset[str]
    question_chars: int = MAX_QUESTION_CHARS  # KB_MAX_QUESTION_CHARS: no text of a state is longer than a question


def _known(info: ValidationInfo) -> Known | None:
    known = info.context.get("known") if isinstance(info.context, dict) else None
    return known if isinstance(known, Known) else None


class Card(BaseModel):
    """A card the conversation is about: its spec record's id and the count said beside it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: Id
    count: Count | None = None

    @field_validator("id")
    @classmethod
    def _a_record(cls, value: str, info: ValidationInfo) -> str:
        known = _known(info)
        if known is not None and value not in known.gpus:
            raise ValueError("not a card kb has a spec record of")
        return value


class AskSaid(BaseModel):
    """One ask of the message answered: its kind and the words it was said in (a clause of the question, held to a
    question's limit; said back to the client, never read again)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    template: Template
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)

    @field_validator("question")
    @classmethod
    def _like_a_question(cls, value: str, info: ValidationInfo) -> str:
        known = _known(info)
        if known is not None and len(value) > known.question_chars:
            raise ValueError(f"longer than a question may be ({known.question_chars} characters)")
        return value


class State(BaseModel):
    """What kb understood of a conversation so far, as the slots a follow-up carries (contracts.md `state`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    intent: Intent | None = None  # the kind of the last answer (said, never read back)
    language: Language | None = None
    gpus: list[Card] = Field(default_factory=list, max_length=MAX_CARDS)
    earlier_gpus: list[Card] = Field(default_factory=list, max_length=MAX_CARDS)
    models: list[ModelId] = Field(default_factory=list, max_length=MAX_MODELS)
    workload: Workload | list[Workload] | None = None
    gpu_count: Count | None = None  # the cards' one count, when they share it (said, never read back)
    attributes: list[Attribute] = Field(default_factory=list, max_length=len(ATTRIBUTES))
    model: Id | None = None  # the first of `models`
    precision: Precision | None = None
    seq_len: Annotated[StrictInt, Field(ge=1, le=MAX_SEQ)] | None = None
    batch: Annotated[StrictInt, Field(ge=1, le=MAX_BATCH)] | None = None
    tokens: Annotated[Amount, Field(le=MAX_TOKENS)] | None = None
    zero: Annotated[StrictInt, Field(ge=0, le=3)] | None = None
    tp: Annotated[StrictInt, Field(ge=1, le=MAX_TP)] | None = None
    pp: Annotated[StrictInt, Field(ge=1, le=MAX_PP)] | None = None
    budget_cny: Annotated[Amount, Field(le=MAX_BUDGET_CNY)] | None = None
    max_gpus: Count | None = None
    concurrency: Annotated[StrictInt, Field(ge=1, le=MAX_CONCURRENCY)] | None = None
    count: Count | None = None
    asked: Asked | None = None
    derived: Derived | None = None
    case: Id | None = None
    how_many: StrictBool = False
    wants_selection: StrictBool = False
    latency: StrictBool = False
    speed: StrictBool = False
    asks: list[AskSaid] = Field(default_factory=list, max_length=MAX_ASKS)  # a message's asks, when it held several

    @field_validator("workload", mode="plain")
    @classmethod
    def _workloads(cls, value: Any) -> str | list[str] | None:
        """One workload, or the few a question left open ("fine-tune": full or LoRA); each one kb checks."""
        if value is None:
            return None
        items = value if isinstance(value, list) else [value]
        if not 1 <= len(items) <= len(WORKLOADS) or len(set(map(str, items))) != len(items):
            raise ValueError(f"one workload or a list of different ones, each of {', '.join(WORKLOADS)}")
        for item in items:
            if item not in WORKLOADS:
                raise ValueError(f"each workload is one of {', '.join(WORKLOADS)}")
        return value

    @field_validator("attributes")
    @classmethod
    def _no_repeats(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("an attribute is named twice")
        return value

    @field_validator("model")
    @classmethod
    def _first_model(cls, value: str | None, info: ValidationInfo) -> str | None:
        models = info.data.get("models") or []
        if value != (models[0] if models else None):
            raise ValueError("must be the first of `models` (null when there are none)")
        return value

    @field_validator("case")
    @classmethod
    def _a_case(cls, value: str | None, info: ValidationInfo) -> str | None:
        known = _known(info)
        if value is not None and (not value.startswith("case-") or (known is not None and value not in known.cases)):
            raise ValueError("not a case of the guide")
        return value


def field_of(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a field path: ("gpus", 0, "id") -> "gpus[0].id"."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif any(c in part for c in "[('\""):
            continue  # a union member's tag ("list[literal['x']]", "function-plain[...]"), not a field
        else:
            out += f".{part}" if out else part
    return out


def check_state(state: object, known: Known | None = None) -> State:
    """The state as a State; BadInput naming `state.<field>` when it is not one kb could have returned."""
    try:
        return State.model_validate(state, context={"known": known})
    except ValidationError as e:
        first = e.errors(include_url=False, include_input=False)[0]
        where = field_of(tuple(first["loc"]))
        field = f"state.{where}" if where else "state"
        why = "must be an object" if first["type"] == "model_type" else str(first["msg"]).removeprefix("Value error, ")
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        raise BadInput(f"{field}: {why}{more}; pass back the `state` of an earlier answer unchanged",
                       field=field) from None


def carried(slots: dict[str, Any]) -> dict[str, Any]:
    """`slots` as a state: a value a later turn would refuse (a context past what any model serves, a size no fit
    check takes) is left out rather than handed to the client, so that every state kb returns comes back valid."""
    slots = dict(slots)
    for _ in range(len(slots) + 1):
        try:
            return State.model_validate(slots).model_dump()
        except ValidationError as e:
            for error in e.errors(include_url=False, include_input=False):
                loc = tuple(error["loc"])
                if len(loc) == 3 and loc[2] == "count" and isinstance(loc[1], int):
                    slots[str(loc[0])][loc[1]] = {**slots[str(loc[0])][loc[1]], "count": None}
                elif loc and loc[0] in ("models", "model"):
                    slots["models"], slots["model"] = [], None
                elif loc:
                    slots[str(loc[0])] = State.model_fields[str(loc[0])].get_default(call_default_factory=True)
    raise AssertionError(f"state slots that cannot be made valid: {slots}")  # pragma: no cover
