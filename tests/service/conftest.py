"""Fixtures the service tests share: one engine for all of them, and one app-and-client per module.

The engine is the service tests' own (opened once): an app pins its embedder to the embedding thread, and the
core tests' session engine stays unpinned. Each module gets a fresh app over it, so metrics, caches and rate
limits start at zero in every module while nothing is loaded twice.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from tests.support.servers import LiveServer


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Engine:
    """The service tests' engine over the session index (overrides the core tests' one below tests/service/)."""
    return Engine.open(settings, build_if_needed=False)


@pytest.fixture(scope="module")
def app(settings: Settings, engine: Engine) -> FastAPI:
    """kb's app with the session settings, new for each module."""
    return create_app(settings, engine)


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client for `app`, lifespan run."""
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def live(settings: Settings, engine: Engine) -> Iterator[LiveServer]:
    """kb's app under real uvicorn on loopback, the rate limit off (fuzzing and concurrency tests are one client)."""
    with LiveServer(create_app(settings.model_copy(update={"rate_limit_per_minute": 0}), engine)) as server:
        yield server
