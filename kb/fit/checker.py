"""What selection and the largest-size search need of a fit engine: its cards and its checks.

A protocol rather than the FitEngine class itself, so kb/fit/select.py and kb/fit/largest.py sit below
kb/fit/engine.py (which calls them) instead of importing it back.
"""

from __future__ import annotations

from typing import Protocol

from kb.fit.gpus import GpuSpec
from kb.fit.request import FitRequest
from kb.fit.result import FitResult
from kb.language import Language


class Checker(Protocol):
    """A fit engine as its searches use it."""

    @property
    def gpus(self) -> dict[str, GpuSpec]: ...

    def numbers(self, request: FitRequest) -> FitResult: ...

    def check(self, request: FitRequest, language: Language = "en") -> FitResult: ...
