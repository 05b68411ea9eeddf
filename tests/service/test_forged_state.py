"""A forged `state` over HTTP: every field of real states tampered with (types, lengths, values kb never returns)
is a 200 or a 422 naming `state.<field>` — never a 5xx, never a forged value echoed, never a long embedding."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indexer.embedder import Embedder
from kb.engine import Engine
from kb.settings import Settings
from kb.understand.state import State
from service.app import create_app

# Questions whose answers carry states with most fields set: cards with counts, a model, a workload, a context and
# a concurrency; spec attributes; a budget pick; a case; training tokens; a follow-up's earlier cards.
QUESTIONS = [
    ("两张 A100 80G 跑 Llama-3-70B 推理，上下文 8192，并发 16", None),
    ("h100 和 h200 的显存带宽和功耗差多少", None),
    ("预算 30 万，最多 4 张卡，微调 qwen2.5 14b 买什么", None),
    ("聊天机器人那个案例 换卡以后成本降了多少", None),
    ("how long to train llama 3 8b on 1T tokens with 64 h100s, zero-3", None),
    ("换成 L40S 呢", "两张 A100 80G 跑 Llama-3-70B 推理，上下文 8192，并发 16"),
]
FOLLOW_UP = {"zh": "换成 L40S 呢", "en": "what about 4 cards?"}
MARK = "zz-forged"
# What each field is tampered with: wrong types, empty and over-long values, values kb never returns.
VALUES: list[Any] = [None, True, 0, -1, 2**63, 1.5, float("1e308"), "", MARK, MARK * 1000, [], [MARK], [[[]]],
                     {}, {"id": MARK}, [{"id": MARK, "count": 1}], [{"id": "rtx-4090", "count": -3}],
                     ["rtx-4090"] * 40]


@pytest.fixture(scope="module")
def client(settings: Settings, engine: Engine) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"rate_limit_per_minute": 0}), engine)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def states(client: TestClient) -> list[dict[str, Any]]:
    """The states of real answers (a follow-up's passed its first turn's state)."""
    out: list[dict[str, Any]] = []
    for question, before in QUESTIONS:
        body: dict[str, Any] = {"question": question}
        if before is not None:
            body["state"] = client.post("/v1/ask", json={"question": before}).json()["state"]
        r = client.post("/v1/ask", json=body)
        assert r.status_code == 200, r.text
        out.append(r.json()["state"])
    return out


def _ask(client: TestClient, state: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
    question = FOLLOW_UP.get(str(state.get("language")), FOLLOW_UP["zh"])
    raw = json.dumps({"question": question, "state": state}, allow_nan=True)
    r = client.post("/v1/ask", content=raw, headers={"Content-Type": "application/json"})
    return r.status_code, r.json(), r.text


def _check(status: int, body: dict[str, Any], text: str) -> None:
    assert status in (200, 422), text[:500]
    if status == 422:
        field = body["error"]["field"]
        assert field == "state" or field.startswith("state."), text[:500]
        assert MARK * 2 not in text  # a refused value is never echoed at length
    else:
        assert MARK not in text, text[:500]  # nothing forged is answered as understood


def test_the_real_states_pass_back_unchanged(client: TestClient, states: list[dict[str, Any]]) -> None:
    fields = {k for s in states for k, v in s.items() if v not in (None, [], False)}
    assert {"gpus", "models", "workload", "seq_len", "concurrency", "attributes", "budget_cny", "max_gpus", "case",
            "tokens", "zero", "earlier_gpus"} <= fields  # the fuzz below tampers with these set, not only empty
    for state in states:
        status, _, text = _ask(client, state)
        assert status == 200, text[:500]


def test_every_field_of_real_states_tampered_with_is_never_a_5xx(client: TestClient,
                                                                 states: list[dict[str, Any]]) -> None:
    seen: dict[int, int] = {}
    for state in states:
        for name in State.model_fields:
            for value in VALUES:
                status, body, text = _ask(client, {**state, name: value})
                _check(status, body, text)
                seen[status] = seen.get(status, 0) + 1
            for i in range(len(state.get(name) or [])) if name in ("gpus", "earlier_gpus") else []:
                for key, value in (("id", MARK), ("id", "RTX 4090"), ("count", 0), ("count", "2"), ("count", 1e9),
                                   ("extra", 1)):
                    cards = [dict(c) for c in state[name]]
                    cards[i][key] = value
                    _check(*_ask(client, {**state, name: cards}))
    assert seen.get(422, 0) > 1000 and seen.get(200, 0) > 10, seen  # both kinds happened: the fuzz reached deep


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_json_in_any_field_is_never_a_5xx(client: TestClient, states: list[dict[str, Any]],
                                              data: st.DataObject) -> None:
    state = dict(data.draw(st.sampled_from(states)))
    name = data.draw(st.sampled_from([*State.model_fields, "unknown_key"]))
    state[name] = data.draw(_JSON)
    status, _, text = _ask(client, state)
    assert status in (200, 422), text[:500]


class _Counting:
    """An embedder that counts the queries it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.version = getattr(inner, "version", "")
        self.queries = 0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries += 1
        return self.inner.embed_query(text)


def test_a_14000_character_value_is_refused_before_anything_is_embedded(settings: Settings, engine: Engine,
                                                                        states: list[dict[str, Any]]) -> None:
    counting: list[_Counting] = []
    counted = engine.serving(lambda e: counting.append(_Counting(e)) or counting[0], None)  # type: ignore[func-returns-value]
    with TestClient(create_app(settings, counted), raise_server_exceptions=False) as c:
        for name in ("models", "model", "case", "precision", "workload"):
            long = "x" * 14_000
            forged = {**states[0], name: [long] if name == "models" else long}
            r = c.post("/v1/ask", json={"question": "换成 L40S 呢 (a question asked for the first time)",
                                        "state": forged})
            assert r.status_code == 422 and r.json()["error"]["field"].startswith(f"state.{name}"), r.text[:300]
            assert long[:100] not in r.text
        assert counting[0].queries == 0  # refused by the schema: nothing was read, embedded or answered
        assert c.post("/v1/ask", json={"question": "换成 L40S 呢", "state": states[0]}).status_code == 200
        assert counting[0].queries > 0  # (the counter does count)
