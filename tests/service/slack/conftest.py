"""Fixtures the Slack tests share: a fake Slack on loopback for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fake_slack import FakeSlack


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as s:
        yield s
