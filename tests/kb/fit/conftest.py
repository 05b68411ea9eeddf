"""The fit tests' one heavy fixture: torch and transformers, for counting parameters in transformers' own model
classes. Importing them costs ~6 s of CPU, so tests/conftest.py marks every test that asks for `hf` slow."""

from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture(scope="session")
def hf() -> SimpleNamespace:
    """`hf.torch` and `hf.transformers` (the test is skipped where they are not installed)."""
    return SimpleNamespace(torch=pytest.importorskip("torch"), transformers=pytest.importorskip("transformers"))
