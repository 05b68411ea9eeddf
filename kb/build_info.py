"""The build a process runs: its source hash (indexer/code_id.py) and, in a git checkout, the commit."""

from __future__ import annotations

import subprocess
from functools import lru_cache

from indexer.code_id import ROOT, SHOWN, build_id


@lru_cache(maxsize=1)
def git_commit() -> str | None:
    """HEAD's commit (with "+changes" when tracked files differ from it) for a checkout; None elsewhere."""
    if not (ROOT / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", "kb", "indexer", "service"],
                               capture_output=True, timeout=5).returncode != 0
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+changes" if dirty else "") if head else None


def build_line() -> str:
    """`build    <source hash> (git <commit>)` for `kb --version` and the service's start-up log."""
    commit = git_commit()
    return f"build    {build_id()[:SHOWN]}" + (f" (git {commit})" if commit else " (no git checkout)")
