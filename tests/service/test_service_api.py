"""The HTTP API's endpoints and contract shapes (contracts.md), over the real corpus with TestClient."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from kb.settings import Settings
from service.app import create_app

# The keys kb's contract holds every front end to (docs/api.md).
PASSAGE_KEYS = {"id", "rank", "section", "heading", "kind", "text", "score", "source"}
FIT_KEYS = {"gpu", "gpu_count", "model_params", "workload", "fits", "per_gpu_required_bytes",
            "per_gpu_available_bytes", "min_gpus", "breakdown", "assumptions", "steps"}
BREAKDOWN_KEYS = {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}
ERROR_KEYS = {"code", "field", "message", "request_id"}


def test_ask_answers_in_the_contract_shape(client: TestClient) -> None:
    r = client.post("/v1/ask", json={"question": "RTX 4090 的显存带宽是多少？"})
    assert r.status_code == 200
    doc = r.json()
    assert {"question", "language", "answer", "passages", "fit_checks"} <= set(doc)
    assert doc["language"] == "zh"
    assert len(doc["passages"]) == 5  # default top_k
    assert doc["passages"][0]["section"] == "4.2"
    for rank, p in enumerate(doc["passages"], 1):
        assert set(p) >= PASSAGE_KEYS
        assert p["rank"] == rank
        assert {"path", "start_line", "end_line"} <= set(p["source"])
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", doc["answer"])}
    assert markers and max(markers) <= len(doc["passages"])


def test_ask_in_english_with_top_k_and_fit_checks(client: TestClient) -> None:
    r = client.post("/v1/ask", json={"question": "Can I fine-tune a 13B model with QLoRA on one RTX 4090?", "top_k": 3})
    assert r.status_code == 200
    doc = r.json()
    assert doc["language"] == "en"
    assert len(doc["passages"]) == 3
    assert doc["fit_checks"], "a fit question gets fit checks"
    for check in doc["fit_checks"]:
        assert set(check) >= FIT_KEYS
        assert set(check["breakdown"]) >= BREAKDOWN_KEYS


def test_a_repeated_question_is_served_from_the_answer_cache(client: TestClient) -> None:
    cache = client.app.state.kb.answers  # type: ignore[attr-defined]
    body = {"question": "H100 和 A100 的显存带宽差多少？", "top_k": 4}
    first = client.post("/v1/ask", json=body)
    hits = cache.hits
    second = client.post("/v1/ask", json=body)
    assert second.content == first.content
    assert cache.hits == hits + 1


def test_fit_returns_a_fit_result(client: TestClient) -> None:
    r = client.post("/v1/fit", json={"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090"})
    assert r.status_code == 200
    doc = r.json()
    assert set(doc) >= FIT_KEYS and set(doc["breakdown"]) >= BREAKDOWN_KEYS
    assert doc["gpu"] == "rtx-4090" and doc["workload"] == "qlora" and doc["fits"] is True
    assert doc["steps"] and doc["assumptions"] and doc["citations"]


def test_fit_with_every_option(client: TestClient) -> None:
    body = {"model": "7b", "workload": "full", "gpu": "a100-40gb", "count": 8, "precision": "bf16", "seq_len": 2048,
            "batch": 2, "zero": 3, "tokens": 1e9, "vram_gib": 40}
    r = client.post("/v1/fit", json=body)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["gpu_count"] == 8 and doc["zero_stage"] == 3 and doc["train_gpu_hours"] is not None


def test_fit_serving_estimate_over_http(client: TestClient) -> None:
    body = {"model": "qwen2.5-32b", "workload": "inference", "gpu": "a100-80gb", "precision": "bf16",
            "seq_len": 4096, "concurrency": 32}
    doc = client.post("/v1/fit", json=body).json()
    assert doc["min_gpus"] == 2 and doc["serving"]["concurrency"] == 32
    assert {a["change"] for a in doc["alternatives"]} == {"precision", "count"}
    assert client.post("/v1/fit", json={**body, "concurrency": 0}).status_code == 422


def test_fit_issue_37_fields_over_http(client: TestClient) -> None:
    """A card kb has no record of from its stated memory, offload with a host memory, a batch schedule, a refusal."""
    doc = client.post("/v1/fit", json={"model": "llama-2-7b", "workload": "qlora", "gpu": "RTX 2080 Ti",
                                       "vram_gib": 11}).json()
    assert doc["gpu_known"] is False and doc["fits"] is True and set(doc["unknown_figures"]) == {"speed", "power",
                                                                                                  "price"}
    doc = client.post("/v1/fit", json={"model": "qwen2.5-72b", "workload": "full", "gpu": "a100-80gb", "count": 8,
                                       "zero": 3, "offload_params": True, "host_memory_gib": 1024}).json()
    assert doc["offload"]["what"] == "params" and doc["offload"]["host_fits"] is False and doc["fits"] is False
    doc = client.post("/v1/fit", json={"model": "llama-2-70b", "workload": "full", "gpu": "a100-80gb", "count": 2048,
                                       "tokens": 2e12, "seq_len": 4096,
                                       "batch_schedule": [{"until_tokens": 1e11, "batch_tokens": 2097152},
                                                          {"batch_tokens": 4194304}]}).json()
    assert doc["train_gpu_hours"] > 1e6 and doc["total_required_bytes"] > 0
    r = client.post("/v1/fit", json={"model": "7b", "workload": "full", "gpu": "v100-32gb", "precision": "bf16"})
    assert r.status_code == 422 and "fp16" in r.text


def test_passage_by_id_is_the_cited_text(client: TestClient) -> None:
    cited = client.post("/v1/ask", json={"question": "RTX 4090 的显存带宽是多少？"}).json()["passages"][0]
    r = client.get(f"/v1/passages/{cited['id']}")
    assert r.status_code == 200
    p = r.json()
    assert set(p) >= PASSAGE_KEYS
    assert (p["id"], p["text"], p["source"]) == (cited["id"], cited["text"], cited["source"])


def test_passage_in_english_notes(client: TestClient) -> None:
    assert client.get("/v1/passages/spec-rtx-4090", params={"language": "en"}).status_code == 200
    r = client.get("/v1/passages/spec-rtx-4090", params={"language": "fr"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "language"


def test_unknown_passage_is_a_404_in_the_error_shape(client: TestClient) -> None:
    r = client.get("/v1/passages/no-such-passage")
    assert r.status_code == 404
    assert set(r.json()["error"]) == ERROR_KEYS
    assert "no-such-passage" in r.json()["error"]["message"]


def test_gpus_lists_every_spec_record_with_sources(client: TestClient) -> None:
    r = client.get("/v1/gpus")
    assert r.status_code == 200
    gpus = {g["id"]: g for g in r.json()["gpus"]}
    assert {"a100-40gb", "a100-80gb", "h100-sxm", "rtx-4090", "rtx-4080", "rtx-4070-ti", "rtx-4070",
            "rtx-4060-ti-16gb", "rtx-4060"} <= set(gpus)
    vram = gpus["rtx-4090"]["figures"]["vram_gib"]
    assert vram["value"] == 24 and vram["source"] in {"doc", "vendor"}
    for g in gpus.values():
        assert client.get(f"/v1/passages/{g['passage_id']}").status_code == 200
        for figure in g["figures"].values():
            if figure["source"] == "doc":
                assert figure["section"] and figure["quote"]


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    doc = r.json()
    assert doc["status"] == "ready" and doc["chunks"] > 100
    assert any(line.startswith("slack: ") for line in doc["detail"])


def test_readyz_is_503_until_the_index_has_loaded(settings: Settings) -> None:
    app = create_app(settings)
    with TestClient(app) as c:  # the lifespan starts loading in the background
        first = c.get("/readyz")
        assert first.status_code in (200, 503)
        if first.status_code == 503:
            assert first.json()["status"] == "loading"
            ask = c.post("/v1/ask", json={"question": "RTX 4090 显存多大？"})
            assert ask.status_code in (200, 503)
        assert app.state.kb.wait_ready(60)
        assert c.get("/readyz").status_code == 200


def test_readyz_says_why_when_the_index_cannot_load(tmp_path_factory: pytest.TempPathFactory) -> None:
    empty = tmp_path_factory.mktemp("no-index")
    app = create_app(Settings(index_dir=empty / "missing", corpus_dir=empty))
    with TestClient(app) as c:
        app.state.kb.wait_ready(30)
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["status"] == "failed"
        assert "kb index" in r.json()["detail"][0]  # the load error names the fix
        ask = c.post("/v1/ask", json={"question": "RTX 4090 显存多大？"})
        assert ask.status_code == 503 and ask.json()["error"]["code"] == "not_ready"
        assert ask.headers["retry-after"]
        assert c.get("/healthz").status_code == 200  # alive, just not ready


def test_request_id_is_echoed_or_made(client: TestClient) -> None:
    r = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert r.headers["x-request-id"] == "abc-123"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"}).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    err = client.get("/v1/passages/nope", headers={"X-Request-ID": "trace-7"})
    assert err.json()["error"]["request_id"] == "trace-7"


def test_metrics_count_requests_by_route_latency_retrieval_and_caches(client: TestClient) -> None:
    client.post("/v1/ask", json={"question": "A100 80GB 适合推理70B吗？"})
    client.get("/v1/passages/guide-4.2")
    text = client.get("/metrics").text
    assert 'kb_http_requests_total{method="POST",route="/v1/ask",status="200"}' in text
    assert 'route="/v1/passages/{passage_id}"' in text  # the template, not each id
    assert "kb_http_request_duration_seconds_bucket" in text
    assert "kb_retrieval_duration_seconds_count" in text
    assert 'kb_cache_hits_total{cache="embed"}' in text and 'kb_cache_hits_total{cache="answer"}' in text


def test_openapi_documents_models_errors_and_bilingual_examples(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert {"/v1/ask", "/v1/fit", "/v1/passages/{passage_id}", "/v1/gpus", "/healthz", "/readyz"} <= set(paths)
    ask = paths["/v1/ask"]["post"]
    assert ask["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Answer")
    assert ask["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert ask["description"] or ask["summary"]
    examples = [e["value"]["question"] for e in ask["requestBody"]["content"]["application/json"]["examples"].values()]
    assert any(re.search(r"[\u4e00-\u9fff]", q) for q in examples)
    assert any(re.fullmatch(r"[ -~]+", q) for q in examples)
    assert paths["/v1/fit"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert "securitySchemes" not in spec.get("components", {})  # no keys configured: no lock in the docs


def test_every_documented_example_request_succeeds(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/v1/ask", "/v1/fit"):
        for name, example in spec["paths"][path]["post"]["requestBody"]["content"]["application/json"][
                "examples"].items():
            r = client.post(path, json=example["value"])
            assert r.status_code == 200, (path, name, r.text)
