"""What a card can compute and how it connects, as its spec record's `capabilities:` says, each with its source.

A record gives, for every card: architecture and compute capability, whether its tensor cores compute BF16, FP8
and FP4, its NVLink (none, a two-card bridge, NVSwitch, another maker's fabric), MIG instances, and ECC. A value
a record cannot confirm is "unknown" and stays so here (None), never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FEATURES = ("architecture", "compute_capability", "bf16_tensor", "fp8_tensor", "fp4_tensor", "nvlink", "mig", "ecc")


@dataclass(frozen=True)
class Capabilities:
    """One card's capabilities; `notes` holds each one's source as the record words it."""

    architecture: str = "unknown"
    compute_capability: str = "unknown"  # "8.6"; "gfx942", "n/a" for other makers
    bf16: bool | None = None
    fp8: bool | None = None
    fp4: bool | None = None
    nvlink: str = "unknown"  # none | bridge | nvswitch | nvlink 2 | infinity-fabric | hccs | roce | unknown
    mig: int | None = None  # instances; 0: none; None: unknown
    ecc: str = "unknown"  # always on | on by default | off by default | none | unknown
    notes: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def cc(self) -> float | None:
        """Compute capability as a number (NVIDIA cards), for rules such as 'BF16 needs 8.0'."""
        try:
            return float(self.compute_capability)
        except ValueError:
            return None

    def value(self, feature: str) -> Any:
        """A capability by its record key (bf16_tensor → bf16 …)."""
        return {"bf16_tensor": self.bf16, "fp8_tensor": self.fp8, "fp4_tensor": self.fp4}.get(
            feature, getattr(self, feature, None))


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def parse_capabilities(raw: Any) -> Capabilities:
    """A record's `capabilities:` mapping (the honesty test holds its shape); absent → every capability unknown."""
    if not isinstance(raw, dict):
        return Capabilities()
    v = {k: (raw.get(k) or {}).get("value", "unknown") for k in FEATURES}
    mig = v["mig"]
    return Capabilities(
        architecture=str(v["architecture"]), compute_capability=str(v["compute_capability"]),
        bf16=_flag(v["bf16_tensor"]), fp8=_flag(v["fp8_tensor"]), fp4=_flag(v["fp4_tensor"]),
        nvlink=str(v["nvlink"]), mig=mig if isinstance(mig, int) and not isinstance(mig, bool) else
        0 if mig == "none" else None, ecc=str(v["ecc"]),
        notes={k: str((raw.get(k) or {}).get("note") or "") for k in FEATURES})
