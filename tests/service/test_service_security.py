"""API keys (on and off), per-client rate limiting, and no secret in any log line."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from service.logs import JsonFormatter
from service.ratelimit import RateLimiter
from service.security import ApiKeys, bearer_token

KEYS = ["k-alpha-0123456789", "k-beta-9876543210"]
ASK = {"question": "RTX 4090 的显存带宽是多少？", "top_k": 1}


@pytest.fixture(scope="module")
def keyed(settings: Settings, engine: Engine) -> Iterator[TestClient]:
    s = settings.model_copy(update={"api_keys": [SecretStr(k) for k in KEYS], "rate_limit_per_minute": 0})
    with TestClient(create_app(s, engine)) as c:
        yield c


def test_without_keys_configured_no_auth_is_needed(settings: Settings, engine: Engine) -> None:
    with TestClient(create_app(settings, engine)) as c:
        assert c.post("/v1/ask", json=ASK).status_code == 200
        assert c.post("/v1/ask", json=ASK, headers={"Authorization": "Bearer anything"}).status_code == 200


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer ", "Bearer wrong-key", "Basic " + KEYS[0],
                                    KEYS[0], "Bearer " + KEYS[0] + "x", "Bearer " + KEYS[0][:-1]])
def test_v1_needs_a_valid_bearer_key(keyed: TestClient, header: str | None) -> None:
    headers = {"Authorization": header} if header is not None else {}
    for method, path, body in (("POST", "/v1/ask", ASK), ("GET", "/v1/gpus", None),
                               ("GET", "/v1/passages/guide-4.2", None)):
        r = keyed.request(method, path, json=body, headers=headers)
        assert r.status_code == 401, (path, r.text)
        assert r.headers["www-authenticate"].startswith("Bearer")
        error = r.json()["error"]
        assert error["code"] == "unauthorized" and error["field"] == "authorization"


def test_every_configured_key_works(keyed: TestClient) -> None:
    for key in KEYS:
        assert keyed.post("/v1/ask", json=ASK, headers={"Authorization": f"Bearer {key}"}).status_code == 200
        assert keyed.get("/v1/gpus", headers={"authorization": f"bearer {key}"}).status_code == 200


def test_auth_comes_before_the_body_is_parsed(keyed: TestClient) -> None:
    r = keyed.post("/v1/ask", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 401


def test_health_readiness_metrics_and_docs_stay_open(keyed: TestClient) -> None:
    for path in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
        assert keyed.get(path).status_code == 200, path


def test_openapi_declares_the_bearer_scheme_when_keys_are_set(keyed: TestClient) -> None:
    spec = keyed.get("/openapi.json").json()
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert spec["paths"]["/v1/ask"]["post"]["security"]


def test_api_keys_compare_every_key_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import service.security as security

    compared: list[tuple[bytes, bytes]] = []
    real = security.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", spy)
    keys = ApiKeys([SecretStr(k) for k in KEYS] + [SecretStr("")])  # an empty key is never accepted
    assert keys.accepts(KEYS[0]) and not keys.accepts("") and not keys.accepts(None)
    assert len(compared) == 2 * len(KEYS)  # no early exit on the first match
    assert bearer_token("Bearer  tok ") == "tok" and bearer_token("Token tok") is None


def test_the_rate_limit_answers_429_with_retry_after(settings: Settings, engine: Engine) -> None:
    s = settings.model_copy(update={"rate_limit_per_minute": 3})
    with TestClient(create_app(s, engine)) as c:
        statuses = [c.get("/v1/gpus").status_code for _ in range(3)]
        assert statuses == [200, 200, 200]
        r = c.get("/v1/gpus")
        assert r.status_code == 429
        assert int(r.headers["retry-after"]) >= 1
        assert r.json()["error"]["code"] == "rate_limited"
        assert c.post("/v1/ask", json=ASK).status_code == 429  # one bucket per client, every /v1 route
        assert c.get("/healthz").status_code == 200  # probes are never limited
        assert c.get("/readyz").status_code == 200


def test_the_rate_limit_is_per_api_key(settings: Settings, engine: Engine) -> None:
    s = settings.model_copy(update={"rate_limit_per_minute": 2, "api_keys": [SecretStr(k) for k in KEYS]})
    with TestClient(create_app(s, engine)) as c:
        alpha, beta = ({"Authorization": f"Bearer {k}"} for k in KEYS)
        assert [c.get("/v1/gpus", headers=alpha).status_code for _ in range(3)] == [200, 200, 429]
        assert c.get("/v1/gpus", headers=beta).status_code == 200  # another key, another bucket
        # Wrong keys are counted against the caller's address, so keys cannot be guessed at full speed.
        assert [c.get("/v1/gpus", headers={"Authorization": "Bearer guess"}).status_code
                for _ in range(3)] == [401, 401, 429]


def test_the_token_bucket_refills_at_the_configured_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])  # one a second, bursts of 60
    assert all(limiter.retry_after("a") is None for _ in range(60))
    assert limiter.retry_after("a") == 1
    now[0] += 1.0
    assert limiter.retry_after("a") is None
    assert limiter.retry_after("a") == 1
    assert limiter.retry_after("b") is None  # clients do not share buckets
    assert RateLimiter(0).retry_after("a") is None  # 0 turns it off


def test_no_secret_reaches_a_log_line(settings: Settings, engine: Engine, caplog: pytest.LogCaptureFixture) -> None:
    secrets = {"api": "sk-very-secret-key-42", "slack": "xoxb-secret-token-77", "signing": "signing-secret-99"}
    s = settings.model_copy(update={
        "api_keys": [SecretStr(secrets["api"])], "slack_bot_token": SecretStr(secrets["slack"]),
        "slack_signing_secret": SecretStr(secrets["signing"]), "rate_limit_per_minute": 2})
    with caplog.at_level(logging.DEBUG), TestClient(create_app(s, engine)) as c:
        good = {"Authorization": f"Bearer {secrets['api']}"}
        c.post("/v1/ask", json=ASK, headers=good)
        c.post("/v1/ask", json={"question": ""}, headers=good)
        c.get("/v1/gpus", headers={"Authorization": "Bearer " + secrets["api"] + "-wrong"})
        c.get("/v1/gpus", headers=good)
        c.get("/v1/gpus", headers=good)  # 429
        c.get(f"/v1/passages/x?token={secrets['api']}", headers=good)
        c.get("/readyz")
    assert caplog.records
    served = [r for r in caplog.records if not r.name.startswith("httpx")]  # the test's own client logs URLs
    formatter = JsonFormatter()
    text = "\n".join(formatter.format(r) + " " + r.getMessage() for r in served)
    for secret in secrets.values():
        assert secret not in text
    routes = {getattr(r, "fields", {}).get("route") for r in served}
    assert {"/v1/ask", "/v1/gpus", "/v1/passages/{passage_id}"} <= routes  # access lines, rejected ones too
