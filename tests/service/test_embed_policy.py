"""The embedder's threading policy comes from settings, explicitly, and reaches OpenMP's variables."""

from __future__ import annotations

import os

import pytest

from kb.settings import Settings
from service.server import embedding_threads


def test_threads_are_the_setting_or_each_workers_share_of_the_cores() -> None:
    cores = len(os.sched_getaffinity(0))
    assert embedding_threads(Settings(embed_threads=3)) == 3
    assert embedding_threads(Settings(embed_threads=0, workers=1)) == cores
    assert embedding_threads(Settings(embed_threads=0, workers=cores * 4)) == 1
    assert Settings().embed_wait_policy == "passive"


def test_a_wait_policy_other_than_passive_or_active_is_refused() -> None:
    with pytest.raises(ValueError, match="embed_wait_policy"):
        Settings(embed_wait_policy="spin")  # type: ignore[arg-type]
