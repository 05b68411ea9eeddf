"""Prometheus metrics, one registry per app (so test apps never collide): requests, latency, retrieval, caches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

# Most answers take 1-100 ms; a cache hit well under 1 ms; past 5 s something is wrong.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class CountingCache(Protocol):
    hits: int
    misses: int


class _CacheCollector(Collector):
    """Reads the caches' own hit and miss counters at scrape time."""

    def __init__(self) -> None:
        self.caches: dict[str, CountingCache] = {}

    def collect(self) -> Iterator[CounterMetricFamily]:
        hits = CounterMetricFamily("kb_cache_hits", "Cache hits", labels=["cache"])
        misses = CounterMetricFamily("kb_cache_misses", "Cache misses", labels=["cache"])
        for name, cache in self.caches.items():
            hits.add_metric([name], cache.hits)
            misses.add_metric([name], cache.misses)
        yield hits
        yield misses


class Metrics:
    """The service's metrics; `render()` is the /metrics body."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("kb_http_requests", "HTTP requests by route and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("kb_http_request_duration_seconds", "HTTP request latency by route",
                                 ["method", "route"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.in_flight = Gauge("kb_http_requests_in_flight", "HTTP requests being served", registry=self.registry)
        self.retrieval = Histogram("kb_retrieval_duration_seconds", "Query embedding plus search, per question",
                                   buckets=LATENCY_BUCKETS, registry=self.registry)
        self._caches = _CacheCollector()
        self.registry.register(self._caches)

    def watch_cache(self, name: str, cache: CountingCache) -> None:
        """Report this cache's hits and misses as kb_cache_{hits,misses}_total{cache=name}."""
        self._caches.caches[name] = cache

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
