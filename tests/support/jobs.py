"""Following a document's embedding job over HTTP until it ends (tests and benchmarks)."""

from __future__ import annotations

import time
from typing import Any

import httpx


def wait_for_job(url: str, doc_id: str, headers: dict[str, str] | None = None, timeout: float = 120) -> dict[str, Any]:
    """GET /v1/jobs/{id} until it is ready (returned) or failed (AssertionError with its status)."""
    deadline = time.monotonic() + timeout
    while True:
        job = httpx.get(f"{url}/v1/jobs/{doc_id}", headers=headers or {}, timeout=30).json()
        if job.get("state") == "ready":
            return job
        assert job.get("state") != "failed", job
        assert time.monotonic() < deadline, f"job not ready within {timeout} s: {job}"
        time.sleep(0.1)


def wait_until(check: Any, seconds: float, step: float = 0.2) -> float:
    """Poll `check()` until true; the seconds it took (AssertionError past `seconds`)."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, f"not within {seconds} s"
        time.sleep(step)
    return time.monotonic() - started
