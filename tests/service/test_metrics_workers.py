"""`kb serve --workers 2`: every worker's /metrics reports the whole replica (prometheus-client multiprocess)."""

from __future__ import annotations

import re

import httpx

from kb.settings import Settings
from tests.support.served import Served, metric_in


def test_metrics_count_every_workers_requests(settings: Settings) -> None:
    kb = Served({"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir)},
                "--workers", "2")
    try:
        kb.wait_ready(in_a_row=10)
        with httpx.Client(base_url=kb.url, timeout=30) as client:
            for _ in range(20):
                assert client.get("/v1/gpus").status_code == 200
        # Each scrape is a new connection, so scrapes land on either worker (the pid label says which one
        # rendered it); every one of them sees all 20 requests.
        pids: set[str] = set()
        for _ in range(40):
            text = httpx.get(f"{kb.url}/metrics", timeout=30).text
            pids |= set(re.findall(r'kb_cache_hits_total\{cache="embed",pid="(\d+)"\}', text))
            assert metric_in(text, "kb_http_requests_total", route="/v1/gpus", status="200") == 20.0
            if len(pids) == 2:
                break
        assert len(pids) == 2, "every scrape went to one worker"
    finally:
        code = kb.stop()
    assert code == 0, kb.output()
