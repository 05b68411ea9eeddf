"""`kb` run in the test's own process: `kb.cli.main.main` with an argument list, its exit code and what it printed.

The same entry point `python -m kb.cli.main` calls, without an interpreter start and kb's imports each time (about a
second each on a busy 2-core machine); the tests that must see a real process (what it imports, a kill) start one.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kb.cli.main import main
from kb.settings import get_settings


@dataclass(frozen=True)
class Ran:
    """What one `kb` command did: its exit status and its standard output and error."""

    code: int
    out: str
    err: str


def run_kb(capsys: pytest.CaptureFixture[str], *argv: str) -> Ran:
    """Run `kb ARGV...` as the console script would (settings read afresh from the environment)."""
    capsys.readouterr()
    get_settings.cache_clear()
    try:
        main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        get_settings.cache_clear()
    captured = capsys.readouterr()
    return Ran(code, captured.out, captured.err)
