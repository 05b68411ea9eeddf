"""`kb serve` as a real subprocess on a free loopback port, for tests of replicas, workers and the edge."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import IO

import httpx

from tests.support.paths import REPO
from tests.support.servers import free_port


class Served:
    """One `kb serve`; its output goes to a file (a full pipe nobody reads would block its event loop)."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        clean = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
        self.proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--port", str(self.port), *args],
                                     cwd=REPO, env={**clean, **env}, stdout=self.log, stderr=subprocess.STDOUT)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", errors="replace")

    def wait_ready(self, timeout: float = 120, in_a_row: int = 1) -> Served:
        deadline, ok = time.monotonic() + timeout, 0
        while ok < in_a_row:
            if self.proc.poll() is not None:
                raise AssertionError(f"kb serve exited {self.proc.returncode}: {self.output()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"kb serve never became ready: {self.output()[-3000:]}")
            try:
                ok = ok + 1 if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200 else 0
            except httpx.TransportError:
                ok = 0
            if not ok:
                time.sleep(0.1)
        return self

    def stop(self) -> int:
        """SIGTERM by pid; SIGKILL only if it has not stopped within 30 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode


def metric(url: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include these, from GET /metrics."""
    return metric_in(httpx.get(f"{url}/metrics", timeout=30).text, name, **labels)


def metric_in(text: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include these, in a /metrics body."""
    from prometheus_client.parser import text_string_to_metric_families

    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total
