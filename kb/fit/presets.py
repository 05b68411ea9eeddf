"""Model shapes: the published presets, and a shape estimated for a bare size ("13B", "700亿").

Parameter counts follow from the shapes (embeddings + untied LM head + attention + SwiGLU MLP +
RMSNorm weights), so a preset's count is exact and a test can check it against the model card.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from kb.errors import BadInput

HEAD_DIM = 128  # every preset's head dimension; estimated shapes keep it
MIN_PARAMS = 1e6  # below this a "model" is a typo, not a workload
MAX_PARAMS = 1e13  # 10 trillion: beyond any published dense model, so certainly a typo


@dataclass(frozen=True)
class ModelShape:
    """A decoder-only transformer's shape, enough for memory, KV cache and activation arithmetic."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    params: int  # as published (presets) or as the user said (bare sizes)
    estimated_from: str | None = None  # the preset a bare size's shape was scaled from

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def embedding_params(self) -> int:
        """Input embeddings + untied LM head: kept in 16-bit by weight-only quantisers."""
        return 2 * self.vocab * self.hidden

    @property
    def linear_params_per_layer(self) -> int:
        """q, k, v, o projections and the three SwiGLU matrices of one block."""
        kv = self.kv_heads * self.head_dim
        return 2 * self.hidden * self.hidden + 2 * self.hidden * kv + 3 * self.hidden * self.ffn

    def lora_params(self, rank: int) -> int:
        """LoRA adapters (A: d_in x r, B: r x d_out) on all seven linear layers of every block."""
        h, kv, f = self.hidden, self.kv_heads * self.head_dim, self.ffn
        per_layer = rank * (2 * (h + h) + 2 * (h + kv) + 3 * (h + f))
        return self.layers * per_layer


def shape_params(layers: int, hidden: int, heads: int, kv_heads: int, ffn: int, vocab: int) -> int:
    """Parameters of a Llama-style shape: embeddings, untied head, attention, SwiGLU, RMSNorms."""
    head_dim = hidden // heads
    attention = 2 * hidden * hidden + 2 * hidden * kv_heads * head_dim
    mlp = 3 * hidden * ffn
    norms = 2 * hidden
    return 2 * vocab * hidden + layers * (attention + mlp + norms) + hidden


def _preset(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int) -> ModelShape:
    return ModelShape(name, layers, hidden, heads, kv, ffn, vocab,
                      shape_params(layers, hidden, heads, kv, ffn, vocab))


# Published configs (config.json of each model). llama-65b is LLaMA-1 65B, the QLoRA paper's model.
PRESETS: dict[str, ModelShape] = {
    p.name: p
    for p in (
        _preset("llama-2-7b", 32, 4096, 32, 32, 11008, 32000),
        _preset("llama-2-13b", 40, 5120, 40, 40, 13824, 32000),
        _preset("llama-2-70b", 80, 8192, 64, 8, 28672, 32000),
        _preset("llama-3-8b", 32, 4096, 32, 8, 14336, 128256),
        _preset("llama-3-70b", 80, 8192, 64, 8, 28672, 128256),
        _preset("llama-3.1-405b", 126, 16384, 128, 8, 53248, 128256),
        _preset("llama-65b", 80, 8192, 64, 64, 22016, 32000),
    )
}

_SIZE = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(b|m|t|billion|million|trillion|亿|万亿|千亿)?\s*$",
                   re.IGNORECASE)
_UNIT = {"": 1.0, "b": 1e9, "billion": 1e9, "m": 1e6, "million": 1e6, "t": 1e12, "trillion": 1e12,
         "亿": 1e8, "千亿": 1e11, "万亿": 1e12}


def accepted_models() -> str:
    """The one-line list of what --model accepts, for error messages."""
    return (f"a preset ({', '.join(PRESETS)}) or a size such as 7b, 13B, 6.7e9, 700亿 "
            f"(from {MIN_PARAMS:.0e} to {MAX_PARAMS:.0e} parameters)")


def parse_size(text: str) -> float | None:
    """Parameters in a bare size ("7b", "6.7e9", "700亿"); None when the text is not a size at all."""
    m = _SIZE.match(text)
    if not m:
        return None
    value = float(m.group(1)) * _UNIT[(m.group(2) or "").lower()]
    if not m.group(2) and value < 1e5:
        return None  # "7" alone is not a size a person means as 7 parameters
    return value


def resolve_model(text: str) -> ModelShape:
    """A preset by name, or a bare size with a shape estimated from the nearest preset."""
    key = text.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    params = parse_size(key)
    if params is None:
        raise BadInput(f"unknown model {text!r}; accepted: {accepted_models()}", field="model")
    if not math.isfinite(params) or params < MIN_PARAMS or params > MAX_PARAMS:
        raise BadInput(f"model size {text!r} is out of range; accepted: {accepted_models()}", field="model")
    return estimate_shape(params)


def estimate_shape(params: float) -> ModelShape:
    """Scale the nearest preset (by log size) so that its params match: layers and hidden by (N/N0)^(1/3).

    Parameters grow as layers x hidden^2, so scaling both by the cube root keeps the family's aspect.
    The returned params are the user's number, not the scaled shape's, so "7B" weighs exactly 7e9.
    """
    base = min(PRESETS.values(), key=lambda p: abs(math.log(params / p.params)))
    s = (params / base.params) ** (1 / 3)
    hidden = max(HEAD_DIM, round(base.hidden * s / HEAD_DIM) * HEAD_DIM)
    heads = hidden // HEAD_DIM
    kv = heads if base.kv_heads == base.heads else min(base.kv_heads, heads)
    ffn = max(256, round(base.ffn * s / 256) * 256)
    layers = max(1, round(base.layers * s))
    return ModelShape(f"{params / 1e9:g}b", layers, hidden, heads, kv, ffn, base.vocab, round(params),
                      estimated_from=base.name)
