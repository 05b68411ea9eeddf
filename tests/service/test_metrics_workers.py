"""`kb serve --workers 2`: every worker's /metrics reports the whole replica (prometheus-client multiprocess)."""

from __future__ import annotations

import httpx
from served import Served, metric

from kb.settings import Settings


def test_metrics_count_every_workers_requests(settings: Settings) -> None:
    kb = Served({"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir)},
                "--workers", "2")
    try:
        kb.wait_ready(in_a_row=10)
        with httpx.Client(base_url=kb.url, timeout=30) as client:
            for _ in range(20):
                assert client.get("/v1/gpus").status_code == 200
        # Each scrape is a new connection, so scrapes land on both workers; every one sees all 20.
        counts = {metric(kb.url, "kb_http_requests_total", route="/v1/gpus", status="200") for _ in range(8)}
        assert counts == {20.0}
        text = httpx.get(f"{kb.url}/metrics", timeout=30).text
        assert 'kb_cache_hits_total{cache="embed",pid="' in text  # per-worker caches, labelled by pid
    finally:
        code = kb.stop()
    assert code == 0, kb.output()
