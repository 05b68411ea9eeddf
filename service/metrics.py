"""Prometheus metrics, one registry per app (so test apps never collide): requests, latency, retrieval, caches,
and Redis's failures.

With several worker processes (`kb serve --workers N`) kb serve sets PROMETHEUS_MULTIPROC_DIR, and every
worker's /metrics reports the sum over all workers (prometheus-client's multiprocess mode): a scrape that lands
on any worker sees the whole replica. Each replica (pod, container) is its own scrape target.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

# Most answers take 1-100 ms; a cache hit well under 1 ms; past 5 s something is wrong.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class CountingCache(Protocol):
    hits: int
    misses: int


class _CacheCollector(Collector):
    """Reads the caches' own hit and miss counters at scrape time (per process: labelled by pid when there are
    several workers, so `sum by (cache)` adds them up)."""

    def __init__(self, per_process: bool) -> None:
        self.caches: dict[str, CountingCache] = {}
        self.per_process = per_process

    def collect(self) -> Iterator[CounterMetricFamily]:
        labels = ["cache", "pid"] if self.per_process else ["cache"]
        pid = [str(os.getpid())] if self.per_process else []
        hits = CounterMetricFamily("kb_cache_hits", "Cache hits", labels=labels)
        misses = CounterMetricFamily("kb_cache_misses", "Cache misses", labels=labels)
        for name, cache in self.caches.items():
            hits.add_metric([name, *pid], cache.hits)
            misses.add_metric([name, *pid], cache.misses)
        yield hits
        yield misses


class Metrics:
    """The service's metrics; `render()` is the /metrics body."""

    def __init__(self) -> None:
        self.multiprocess = bool(os.environ.get(MULTIPROC_ENV))
        self.registry = CollectorRegistry()
        self.requests = Counter("kb_http_requests", "HTTP requests by route and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("kb_http_request_duration_seconds", "HTTP request latency by route",
                                 ["method", "route"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.in_flight = Gauge("kb_http_requests_in_flight", "HTTP requests being served", registry=self.registry,
                               multiprocess_mode="livesum")
        self.retrieval = Histogram("kb_retrieval_duration_seconds", "Query embedding plus search, per question",
                                   buckets=LATENCY_BUCKETS, registry=self.registry)
        self.redis_failures = Counter("kb_redis_failures", "Redis calls that failed or were skipped while it was "
                                      "down, by what they were for", ["op"], registry=self.registry)
        self.fail_open = Counter("kb_ratelimit_fail_open", "Requests let through unlimited because Redis was down",
                                 ["limiter"], registry=self.registry)
        self.slack_dropped = Counter("kb_slack_events_dropped", "Slack deliveries acknowledged but not answered "
                                     "because Redis could not say whether another replica had them",
                                     registry=self.registry)
        self._caches = _CacheCollector(self.multiprocess)
        self.registry.register(self._caches)

    def watch_cache(self, name: str, cache: CountingCache) -> None:
        """Report this cache's hits and misses as kb_cache_{hits,misses}_total{cache=name}."""
        self._caches.caches[name] = cache

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def render(self) -> bytes:
        if not self.multiprocess:
            return generate_latest(self.registry)
        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged)
        merged.register(self._caches)
        return generate_latest(merged)

    def worker_exited(self) -> None:
        """On a worker's shutdown: its live gauges stop counting (its counters stay in the sums)."""
        if self.multiprocess:
            multiprocess.mark_process_dead(os.getpid())
