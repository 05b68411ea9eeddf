"""A state passed back is checked like any input: what kb returns always comes back valid, anything else is BadInput
naming `state.<field>`, and nothing forged reaches the words or the embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kb.engine import Engine
from kb.errors import BadInput
from kb.language import detect_language
from kb.understand.query import from_state, state_slots, to_state
from kb.understand.state import ATTRIBUTES, Known, State, check_state
from kb.words.catalog import CATALOG
from tests.support.fit_engine_helpers import READER
from tests.support.paths import REPO

KNOWN = Known(frozenset({"rtx-4090", "a100-80gb", "l40s"}), frozenset({"case-9.1-university-team"}), 500)


def _dev_turns() -> list[str]:
    """Every question and follow-up turn of kb's development sets (never the blind test halves)."""
    turns: list[str] = []
    for path in sorted(Path(REPO / "tests/eval").glob("*_dev.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            turns += case.get("turns") or [case["q"]]
    return turns


def test_every_state_read_from_the_development_questions_is_valid_as_read() -> None:
    """The enumerations and bounds are those of the code that fills a Query: on ~1,500 real turns `carried` has
    nothing to leave out."""
    turns = _dev_turns()
    assert len(turns) > 1000
    for text in turns:
        language = detect_language(text)
        slots = state_slots(READER.read(text, language), "general", language)
        assert State.model_validate(slots).model_dump() == {**State().model_dump(), **slots}, text


def test_every_attribute_a_state_may_carry_has_words_in_both_languages() -> None:
    assert all({"zh", "en"} <= set(CATALOG[f"attribute.{a}"]) for a in ATTRIBUTES)


@pytest.mark.parametrize(("question", "left_out"), [
    ("上下文 100000000 的 llama 3 70b 在 h100 上", "seq_len"),  # past any model's context
    ("预算 100000000000000000 元买什么卡", "budget_cny"),
    ("1000000b model on h100", "models"),  # a size no fit check takes
    ("并发 10000000 路 70b h100", "concurrency"),
])
def test_a_slot_a_later_turn_would_refuse_is_left_out_of_the_state(question: str, left_out: str) -> None:
    language = detect_language(question)
    q = READER.read(question, language)
    assert state_slots(q, "fit", language)[left_out]  # read as said …
    state = to_state(q, "fit", language)
    assert not state[left_out]  # … but not handed to the client, so the state comes back valid
    check_state(state)


@pytest.mark.parametrize(("change", "field"), [
    ({"workload": "x"}, "state.workload"),
    ({"workload": ["lora", "lora"]}, "state.workload"),
    ({"workload": 3}, "state.workload"),
    ({"attributes": ["x"]}, "state.attributes[0]"),
    ({"attributes": ["vram", "vram"]}, "state.attributes"),
    ({"attributes": "vram"}, "state.attributes"),
    ({"precision": "zz"}, "state.precision"),
    ({"intent": "everything"}, "state.intent"),
    ({"language": "fr"}, "state.language"),
    ({"asked": "everything"}, "state.asked"),
    ({"derived": "per_banana"}, "state.derived"),
    ({"seq_len": -1}, "state.seq_len"),
    ({"seq_len": 8192.0}, "state.seq_len"),
    ({"seq_len": "8192"}, "state.seq_len"),
    ({"seq_len": 10**30}, "state.seq_len"),
    ({"zero": 4}, "state.zero"),
    ({"budget_cny": float("inf")}, "state.budget_cny"),
    ({"budget_cny": -5.0}, "state.budget_cny"),
    ({"tokens": 0}, "state.tokens"),
    ({"how_many": "yes"}, "state.how_many"),
    ({"how_many": 1}, "state.how_many"),
    ({"gpus": "rtx-4090"}, "state.gpus"),
    ({"gpus": [{"id": "rtx-2080-ti", "count": 1}]}, "state.gpus[0].id"),  # a card kb has no record of
    ({"gpus": [{"id": "rtx-4090", "count": 0}]}, "state.gpus[0].count"),
    ({"gpus": [{"id": "rtx-4090", "count": 2, "price": 1}]}, "state.gpus[0].price"),
    ({"gpus": [{"id": "rtx-4090"}] * 33}, "state.gpus"),
    ({"earlier_gpus": [{"id": "RTX 4090"}]}, "state.earlier_gpus[0].id"),
    ({"models": ["x"], "model": "x"}, "state.models[0]"),
    ({"models": ["x" * 14_000], "model": "x" * 14_000}, "state.models[0]"),
    ({"models": ["70b"], "model": "x"}, "state.model"),
    ({"models": [], "model": "70b"}, "state.model"),
    ({"models": ["1e20b"], "model": "1e20b"}, "state.models[0]"),  # a size past any model
    ({"case": "case-0.0-nowhere"}, "state.case"),
    ({"case": "spec-rtx-4090"}, "state.case"),
    ({"asked_for": "price"}, "state.asked_for"),  # a key kb never returns
    ({"asks": [{"template": "everything", "question": "4090 多少钱"}]}, "state.asks[0].template"),
    ({"asks": [{"template": "figure", "question": "x" * 14_000}]}, "state.asks[0].question"),
    ({"asks": [{"template": "figure", "question": "x" * 600}]}, "state.asks[0].question"),  # over KNOWN's 500
    ({"asks": [{"template": "figure", "question": ""}]}, "state.asks[0].question"),
    ({"asks": [{"template": "figure"}]}, "state.asks[0].question"),
    ({"asks": "figure"}, "state.asks"),
])
def test_each_field_refuses_what_kb_never_returns(change: dict[str, Any], field: str) -> None:
    state = {"gpus": [{"id": "rtx-4090", "count": 2}], "models": ["llama-2-13b"], "model": "llama-2-13b",
             "workload": "qlora", "language": "zh", **change}
    with pytest.raises(BadInput) as e:
        from_state(state, KNOWN)
    assert e.value.field == field and str(e.value).startswith(f"{field}: "), str(e.value)
    assert "x" * 100 not in str(e.value)  # the value itself is never echoed


@pytest.mark.parametrize("state", [None, [], "state", 3, True])
def test_a_state_that_is_not_an_object_is_refused(state: object) -> None:
    with pytest.raises(BadInput) as e:
        from_state(state)
    assert e.value.field == "state" and "must be an object" in str(e.value)


def test_a_partial_state_is_a_state() -> None:
    """Every field has a default, so a field added later leaves every state returned before it valid."""
    assert from_state({}).gpus == []
    assert from_state({"workload": ["full", "lora"], "language": "en"}, KNOWN).workloads == ["full", "lora"]


def test_a_message_s_asks_are_part_of_a_state() -> None:
    """An answer to several asks says them in its state (their kinds and clauses); they pass back like the rest."""
    asks = [{"template": "figure", "question": "4090 显存多大"}, {"template": "buys", "question": "3 万能买几张"}]
    assert check_state({"gpus": [{"id": "rtx-4090", "count": None}], "asks": asks}, KNOWN).asks[1].template == "buys"


@pytest.mark.slow
def test_states_of_real_answers_pass_back_unchanged_and_forged_ones_are_not_echoed(engine: Engine) -> None:
    first = engine.answer("两张 A100 80G 跑 Llama-3-70B 推理，上下文 8192，并发 16")
    again = engine.answer("换成 L40S 呢", state=first.state)
    assert again.carried and check_state(again.state, engine.known)
    case = engine.answer("聊天机器人那个案例 换卡以后成本降了多少")
    assert check_state(case.state, engine.known).case == "case-7.4-chatbot-service"
    for forged in ({"precision": "zz"}, {"seq_len": -1}, {"attributes": ["x"]}, {"workload": "x"},
                   {"models": ["x"], "model": "x"}, {"gpus": [{"id": "rtx-2080-ti", "count": 2}]}):
        with pytest.raises(BadInput) as e:
            engine.answer("换成 L40S 呢", state={**first.state, **forged})
        assert e.value.field.startswith("state."), e.value.field
