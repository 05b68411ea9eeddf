"""Malformed input of every kind gets a 4xx naming the field, never a 500; the unexpected gets a bare JSON 500."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app


def _error(r: Any, status: int, field: str | None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    error: dict[str, Any] = r.json()["error"]
    assert error["field"] == field and error["message"] and error["code"] and error["request_id"]
    return error


@pytest.mark.parametrize(("body", "field"), [
    ({"question": ""}, "question"),
    ({"question": "   \n\t "}, "question"),
    ({"question": "？！……!!"}, "question"),
    ({"question": "显存" * 300}, "question"),
    ({"question": "\u0000\u0001"}, "question"),
    ({"question": None}, "question"),
    ({"question": 42}, "question"),
    ({"question": ["RTX 4090"]}, "question"),
    ({"question": "RTX 4090 显存", "top_k": 0}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": -1}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": 21}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": 10**40}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": "abc"}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": "5"}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": 2.5}, "top_k"),
    ({"question": "RTX 4090 显存", "top_k": True}, "top_k"),
    ({}, "question"),
    ({"top_k": 3}, "question"),
    ({"question": "RTX 4090 显存", "language": "zh"}, "language"),
    # an earlier turn is held to the question's limit (KB_MAX_QUESTION_CHARS) and named by its place
    ({"question": "RTX 4090 显存", "history": [{"question": "显" * 600}]}, "history[0].question"),
    ({"question": "RTX 4090 显存", "history": [{"question": "4090"}, {"question": " "}]}, "history[1].question"),
    ({"question": "RTX 4090 显存", "history": [{"question": "4090"}] * 11}, "history"),
    ({"question": "RTX 4090 显存", "history": [{"q": "4090"}]}, "history[0].question"),
    # a state is checked like every field (tests/service/test_forged_state.py tampers with all of them)
    ({"question": "换成 L40S 呢", "state": {"workload": "x"}}, "state.workload"),
    ({"question": "换成 L40S 呢", "state": {"gpus": [{"id": "rtx-2080-ti"}]}}, "state.gpus[0].id"),
    ({"question": "换成 L40S 呢", "state": "yes"}, "state"),
], ids=lambda v: json.dumps(v, ensure_ascii=False)[:40] if isinstance(v, dict) else str(v))
def test_bad_ask_fields_are_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    _error(client.post("/v1/ask", json=body), 422, field)


@pytest.mark.parametrize("body", [[1, 2], ["question"], "RTX 4090", 42, None, True])
def test_a_json_body_that_is_not_an_object_is_422(client: TestClient, body: Any) -> None:
    r = client.post("/v1/ask", content=json.dumps(body), headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] in {"body", "question"}


@pytest.mark.parametrize("raw", [b"not json", b'{"question": "RTX 4090"', b"{'question': 'x'}", b"\xff\xfe\x00"])
def test_invalid_json_is_400(client: TestClient, raw: bytes) -> None:
    r = client.post("/v1/ask", content=raw, headers={"Content-Type": "application/json"})
    assert _error(r, 400, "body")["code"] == "bad_json"


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_declared_json_is_415(client: TestClient, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post("/v1/ask", content='{"question": "RTX 4090 显存"}'.encode(), headers=headers)
    assert _error(r, 415, "body")["code"] == "unsupported_media_type"


def test_an_empty_body_is_422(client: TestClient) -> None:
    r = client.post("/v1/ask", content=b"", headers={"Content-Type": "application/json"})
    assert r.status_code == 422


def test_an_oversized_body_is_413_before_it_is_parsed(client: TestClient, settings: Settings) -> None:
    big = json.dumps({"question": "x" * (settings.max_body_bytes + 10)})
    assert _error(client.post("/v1/ask", content=big, headers={"Content-Type": "application/json"}),
                  413, "body")["code"] == "too_large"


def test_slack_payloads_have_a_larger_cap_of_their_own(client: TestClient, settings: Settings) -> None:
    big = "payload=" + "x" * (4 * settings.max_body_bytes)  # block_actions carry the whole message
    r = client.post("/slack/events", content=big, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code != 413  # 404 here: Slack is not configured in this app
    huge = "payload=" + "x" * (2 << 20)
    assert client.post("/slack/events", content=huge).status_code == 413


def test_an_oversized_chunked_body_is_413(client: TestClient, settings: Settings) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts what arrives
        yield b'{"question": "'
        for _ in range(settings.max_body_bytes // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    r = client.post("/v1/ask", content=chunks(), headers={"Content-Type": "application/json"})
    _error(r, 413, "body")


@pytest.mark.parametrize(("body", "field"), [
    ({"model": "13b", "workload": "qlora", "gpu": "rtx-4090", "count": 0}, "count"),
    ({"model": "13b", "workload": "qlora", "gpu": "rtx-4090", "count": -2}, "count"),
    ({"model": "13b", "workload": "qlora", "gpu": "rtx-9090"}, "gpu"),
    ({"model": "13b", "workload": "full", "gpu": "a100-80gb", "zero": 5}, "zero"),
    ({"model": "13b", "workload": "training", "gpu": "a100-80gb"}, "workload"),
    ({"model": "13b", "workload": "inference", "gpu": "a100-80gb", "precision": "fp9"}, "precision"),
    ({"model": "13b", "workload": "full", "gpu": "a100-80gb", "precision": "nvfp4"}, "precision"),
    ({"workload": "inference", "gpu": "a100-80gb", "config": {"model_type": "llama", "hidden_size": 64}}, "config"),
    ({"model": "13b", "workload": "full", "gpu": "h100-sxm", "count": 64, "tp": 16}, "tp"),
    ({"model": "13b", "workload": "inference", "gpu": "a100-80gb", "count": 65537}, "count"),
    ({"model": "gpt-17", "workload": "inference", "gpu": "a100-80gb"}, "model"),
    ({"model": "", "workload": "inference", "gpu": "a100-80gb"}, "model"),
    ({"model": "13b", "workload": "inference", "gpu": "a100-80gb", "seq_len": 0}, "seq_len"),
    ({"model": "13b", "workload": "inference", "gpu": "a100-80gb", "vram_gib": -1}, "vram_gib"),
    ({"model": "13b", "workload": "full", "gpu": "a100-80gb", "tokens": 0}, "tokens"),
    ({"model": "13b", "workload": "inference", "gpu": "a100-80gb", "colour": "red"}, "colour"),
    ({"workload": "inference", "gpu": "a100-80gb"}, "model"),
    ({"model": "13b", "gpu": "a100-80gb"}, "workload"),
], ids=lambda v: json.dumps(v)[:60] if isinstance(v, dict) else str(v))
def test_bad_fit_fields_are_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    _error(client.post("/v1/fit", json=body), 422, field)


def test_a_huge_model_is_an_answer_not_an_error(client: TestClient) -> None:
    r = client.post("/v1/fit", json={"model": "llama-3.1-405b", "workload": "full", "gpu": "rtx-4060"})
    assert r.status_code in (200, 422), r.text


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/v1/ask", 405), ("DELETE", "/v1/fit", 405), ("GET", "/nowhere", 404), ("POST", "/healthz", 405),
])
def test_unknown_routes_and_methods_use_the_error_shape(client: TestClient, method: str, path: str,
                                                        status: int) -> None:
    _error(client.request(method, path), status, None)


def test_an_unexpected_exception_is_a_json_500_without_a_traceback(
        settings: Settings, engine: Engine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(settings.model_copy(update={"answer_cache_size": 0}), engine)

    def broken(question: str, top_k: int | None = None, *conversation: object) -> None:
        raise RuntimeError("boom: internal detail")

    monkeypatch.setattr(app.state.kb.engine, "answer", broken)  # the app's own engine over the shared index
    with TestClient(app) as c, caplog.at_level(logging.ERROR, logger="kb.service"):
        r = c.post("/v1/ask", json={"question": "RTX 4090 显存多大？"}, headers={"X-Request-ID": "req-500"})
    error = _error(r, 500, None)
    assert error["code"] == "internal" and "boom" not in r.text and "Traceback" not in r.text
    assert r.headers["x-request-id"] == "req-500"
    logged = [rec for rec in caplog.records if rec.exc_info]
    assert logged and "boom" in caplog.text


def test_a_key_that_may_not_add_documents_is_a_403_naming_the_authorization(settings: Settings, engine: Engine,
                                                                             tmp_path: Path) -> None:
    admin = "errors-admin-key-0123"
    app = create_app(settings.model_copy(update={"api_keys": [SecretStr("asker-key-0123")],
                                                 "admin_keys": [SecretStr(admin)], "sources_dir": tmp_path}), engine)
    with TestClient(app) as c:
        r = c.post("/v1/documents", files={"file": ("a.csv", b"a,b\n1,2\n")},
                   headers={"Authorization": "Bearer asker-key-0123"})
        assert _error(r, 403, "authorization")["code"] == "forbidden"
        _error(c.get("/v1/gaps", headers={"Authorization": "Bearer asker-key-0123"}), 403, "authorization")
        _error(c.post("/v1/ask", json={"question": "4090"}), 401, "authorization")
        # a body that is no multipart form is told so, not told to send JSON
        r = c.post("/v1/documents", content=b"--nope\r\ngarbage", headers={
            "Authorization": f"Bearer {admin}", "Content-Type": "multipart/form-data; boundary=xyz"})
        error = _error(r, 400, "body")
        assert error["code"] == "bad_multipart" and "multipart/form-data" in error["message"]
        assert "JSON" not in error["message"]
