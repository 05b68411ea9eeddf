"""Where a fresh POST /v1/ask's time goes, layer by layer, in a real server: kb serve's app under uvicorn on
loopback, instrumented with timestamps at each hand-over (HTTP parsing, middleware, FastAPI, the thread hops,
kb before and after the embedding, the Answer's JSON, the response, the access log and metrics), driven one
fresh question at a time like benchmarks/cpu_hog.py's quiet phase. The medians are per layer, so the service's
own share can be told from the embedding's and kb's.

With --baseline COMMIT the same is measured for that commit's code (git archive of kb, indexer and service, on
PYTHONPATH), runs alternating with this code's, so both see the same machine.

    .venv/bin/python benchmarks/service_layers.py --index PATH [--seconds 8] [--runs 3] [--baseline COMMIT]
                                                  [--policy 0:passive] [--hog] [--json]

The timestamps come from wrappers around private functions (uvicorn's h11 protocol, the app state's hand-over
to a thread, the embedding thread's wrapper): a benchmark's probe, not an interface; each costs a few µs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

# (layer, from mark, to mark); the marks are set by serve() below, in the order a request meets them.
LAYERS = [
    ("HTTP parsing (h11) to kb's middleware", "recv", "mw_in"),
    ("middleware: request id, keys, rate limit, body", "mw_in", "body_read"),
    ("FastAPI: routing, validation, dependencies", "body_read", "handler_in"),
    ("hop: event loop to the answer's thread", "handler_in", "thread_start"),
    ("kb before the embedding", "thread_start", "embed_call"),
    ("hop: to the embedding thread", "embed_call", "embed_start"),
    ("embedding", "embed_start", "embed_end"),
    ("hop: back from the embedding thread", "embed_end", "embed_back"),
    ("kb after the embedding", "embed_back", "json_start"),
    ("the Answer's JSON", "json_start", "json_end"),
    ("hop: answer's thread to the event loop", "json_end", "loop_back"),
    ("response: headers and body through h11", "loop_back", "sent"),
    ("after the response: metrics, access log", "sent", "mw_out"),
    ("server: request in to middleware done", "recv", "mw_out"),
]
SERVICE = ["HTTP parsing (h11) to kb's middleware", "middleware: request id, keys, rate limit, body",
           "FastAPI: routing, validation, dependencies", "hop: event loop to the answer's thread",
           "hop: to the embedding thread", "hop: back from the embedding thread", "the Answer's JSON",
           "hop: answer's thread to the event loop", "response: headers and body through h11"]


def serve(port: int, out: Path) -> None:
    """In the server process: kb's app with timestamps at each layer, written to `out` on SIGTERM."""
    import uvicorn
    from uvicorn.protocols.http import h11_impl

    import service.middleware as middleware
    import service.state as state_module
    from indexer.openmp import apply_wait_policy
    from kb.models import Answer
    from kb.settings import get_settings
    from service import embedding
    from service.app import create_app
    from service.logs import configure_logging

    configure_logging()
    settings = get_settings()
    apply_wait_policy(settings.embed_wait_policy)  # as kb serve does, before the embedder loads
    clock = time.perf_counter
    requests: list[dict[str, float]] = []
    now: dict[str, float] = {}

    def mark(name: str) -> None:
        now.setdefault(name, clock())

    received = h11_impl.H11Protocol.data_received

    def data_received(self: Any, data: bytes) -> None:
        nonlocal now
        if data.startswith(b"POST /v1/ask"):
            now = {"recv": clock()}
            requests.append(now)
        received(self, data)

    h11_impl.H11Protocol.data_received = data_received  # type: ignore[method-assign]

    call = middleware.RequestMiddleware.__call__

    async def middleware_call(self: Any, scope: Any, receive: Any, send: Any) -> None:
        mark("mw_in")

        async def timed_send(message: Any) -> None:
            await send(message)
            if message["type"] == "http.response.body":
                mark("sent")

        await call(self, scope, receive, timed_send)
        mark("mw_out")

    middleware.RequestMiddleware.__call__ = middleware_call  # type: ignore[method-assign]
    read_body = middleware.RequestMiddleware._read_body

    async def timed_read_body(*args: Any) -> Any:
        body = await read_body(*args)
        mark("body_read")
        return body

    middleware.RequestMiddleware._read_body = staticmethod(timed_read_body)  # type: ignore[method-assign, assignment]
    answer_json = state_module.AppState.answer_json

    async def timed_answer_json(self: Any, *args: Any, **kwargs: Any) -> bytes:
        mark("handler_in")
        return await answer_json(self, *args, **kwargs)

    state_module.AppState.answer_json = timed_answer_json  # type: ignore[method-assign]
    # The hand-over of an answer to a thread: AppState._compute since it chooses the thread, AppState.run before.
    hop = "_compute" if hasattr(state_module.AppState, "_compute") else "run"
    handed = getattr(state_module.AppState, hop)

    async def timed_hop(self: Any, func: Callable[..., Any], *args: Any) -> Any:
        def timed(*a: Any) -> Any:
            mark("thread_start")
            return func(*a)

        result = await handed(self, timed, *args)
        mark("loop_back")
        return result

    setattr(state_module.AppState, hop, timed_hop)
    embed_query = embedding.OneThreadEmbedder.embed_query

    def timed_embed_query(self: Any, text: str) -> Any:
        mark("embed_call")
        inner = self.inner

        class Timed:  # the wrapped embedder, timed where it runs (on the embedding thread)
            name, dim, batch_queries = inner.name, inner.dim, False

            def embed_query(self, t: str) -> Any:
                mark("embed_start")
                now.setdefault("embed_thread", float(threading.get_ident()))
                vector = inner.embed_query(t)
                mark("embed_end")
                return vector

        self.inner = Timed()
        try:
            vector = embed_query(self, text)
        finally:
            self.inner = inner
        mark("embed_back")
        return vector

    embedding.OneThreadEmbedder.embed_query = timed_embed_query  # type: ignore[method-assign]
    dump_json = Answer.model_dump_json

    def timed_dump(self: Any, *args: Any, **kwargs: Any) -> str:
        mark("json_start")
        text = dump_json(self, *args, **kwargs)
        mark("json_end")
        return text

    Answer.model_dump_json = timed_dump  # type: ignore[method-assign]

    def stop(*_: Any) -> None:
        out.write_text(json.dumps(requests))
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, access_log=False, server_header=False,
                log_config=None)


def run_once(code: Path, index: Path, seconds: float, folder: Path, policy: str, hog: bool = False) -> dict[str, Any]:
    """One instrumented server from `code`, fresh questions one at a time for `seconds` (with `hog`, while a
    busy-looping process a core runs, as in cpu_hog.py's loaded phase): each layer's median ms."""
    sys.path.insert(0, str(REPO))
    from benchmarks.cpu_hog import child_env, policy_env, start_hog, stop_hog
    from benchmarks.load import Phase, _free_port, drive, wait_ready
    from benchmarks.questions import fresh_questions

    port, out = _free_port(), folder / f"layers-{time.monotonic_ns()}.json"
    env = child_env(policy_env(policy, len(os.sched_getaffinity(0))))
    env = {k: v for k, v in env.items() if not k.startswith("KB_") or k.startswith("KB_EMBED_")} | {
        "PYTHONPATH": str(code), "KB_INDEX_DIR": str(index), "KB_CORPUS_DIR": str(REPO / "corpus"),
        "KB_RATE_LIMIT_PER_MINUTE": "0"}
    with (folder / "server.log").open("ab") as log:
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), str(out)], env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_ready(f"http://127.0.0.1:{port}", server, 1)
        phase = Phase("fresh", 1)
        hogs = start_hog(len(os.sched_getaffinity(0))) if hog else []
        try:
            time.sleep(1.0 if hog else 0.0)
            asyncio.run(drive("127.0.0.1", port, phase, (("fresh", q) for q in fresh_questions()), seconds))
        finally:
            stop_hog(hogs)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    requests = [r for r in json.loads(out.read_text()) if "mw_out" in r and "embed_start" in r]

    def median_ms(a: str, b: str) -> float:
        return round(statistics.median((r[b] - r[a]) * 1000 for r in requests), 3)

    layers = {name: median_ms(a, b) for name, a, b in LAYERS}
    layers["service, in all (the hops and layers above, without kb and the embedding)"] = round(
        sum(layers[name] for name in SERVICE), 3)
    layers["client: POST to answer read"] = round(statistics.median(phase.latencies["fresh"]) * 1000, 3)
    return {"requests": len(requests), "errors": phase.errors, "layers": layers,
            "embedding_threads": len({r["embed_thread"] for r in requests})}


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        sys.path.insert(0, os.environ["PYTHONPATH"].split(os.pathsep)[0])
        serve(int(sys.argv[2]), Path(sys.argv[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, required=True, help="a built index")
    ap.add_argument("--seconds", type=float, default=8.0, help="fresh questions per run")
    ap.add_argument("--runs", type=int, default=3, help="runs a side, alternating with the baseline's")
    ap.add_argument("--baseline", default=None, metavar="COMMIT", help="also measure this commit's code")
    ap.add_argument("--policy", default="0:passive", help="KB_EMBED_THREADS:KB_EMBED_WAIT_POLICY, as cpu_hog.py's")
    ap.add_argument("--hog", action="store_true", help="measure under cpu_hog.py's hog (one busy loop a core)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report: dict[str, Any] = {"started_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                              "load_average_before": [round(x, 2) for x in os.getloadavg()], "sides": {}}
    with tempfile.TemporaryDirectory(prefix="kb-layers-") as tmp:
        sides = {"this code": REPO}
        if args.baseline:
            from benchmarks.noop_index import export

            export(args.baseline, Path(tmp) / "baseline")
            sides = {f"baseline {args.baseline}": Path(tmp) / "baseline", "this code": REPO}
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
        for i in range(args.runs):
            for name in (list(sides) if i % 2 == 0 else list(sides)[::-1]):
                runs[name].append(run_once(sides[name], args.index, args.seconds, Path(tmp), args.policy, args.hog))
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    report["sides"] = runs
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    names = list(runs)
    print(f"benchmarks/service_layers.py, {report['started_utc']} UTC: fresh POST /v1/ask one at a time, "
          f"{args.runs} runs of {args.seconds} s a side, alternating, policy {args.policy}"
          f"{', under the hog' if args.hog else ''}; load average before "
          f"{report['load_average_before']}, after {report['load_average_after']}")
    print("median ms of each layer, one figure a run; " + ", ".join(
        f"{n}: {sum(r['requests'] for r in runs[n])} requests, {sum(r['errors'] for r in runs[n])} errors, "
        f"embedding on {max(r['embedding_threads'] for r in runs[n])} thread(s)" for n in names))
    print()
    print("| layer | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    for layer in runs[names[0]][0]["layers"]:
        print(f"| {layer} | " + " | ".join(" / ".join(f"{r['layers'][layer]:.2f}" for r in runs[n]) for n in names)
              + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
