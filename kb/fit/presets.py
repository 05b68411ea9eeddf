"""Model shapes: the published presets (dense, MoE, MLA, sliding-window), and a shape estimated for a bare size.

Parameter counts follow from the shapes (embeddings + LM head unless tied + attention + MLP or experts +
norms), so a preset's count is exact and tests/kb/fit/test_fit_shapes.py holds it to transformers' own model
classes built on the meta device. Every shape is its model's published config.json on the Hugging Face Hub (and
its model card for published totals). Checked against public copies of the configs: Mixtral 8x7B (module tree:
8 experts of 14336, 32/8 heads), Llama 3.1 8B (untied, 128256 vocab), Llama 4 Scout (16 experts of 8192 +
shared, dense 16384, attention_chunk_size 8192, no-RoPE every 4th layer, so 36 of 48 layers chunked),
DeepSeek-V3 (7168, q_lora 1536, kv_lora 512, rope 64, 256 + 1 experts of 2048, first 3 layers dense),
Gemma 2 9B/27B (head_dim 256 / 128, sliding window 4096 on alternate layers, tied), Qwen2.5-14B.
"Active" leaves out an MoE model's input embedding table, as the publishers count it: OpenAI's gpt-oss card (5.13B
active of 116.83B: "unembedding parameters are counted towards active, but not embeddings") and DeepSeek-V3's
README_WEIGHTS (36.7B), which the shape gives only without the 0.9B input table (37.6 − 0.9 ≈ 36.6).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from kb.errors import BadInput
from kb.fit.families import FAMILY_ALIASES, family_presets, release_base
from kb.fit.shape import ModelShape

HEAD_DIM = 128  # the Llama presets' head dimension; estimated shapes keep it
MIN_PARAMS = 1e6  # below this a "model" is a typo, not a workload
MAX_PARAMS = 1e13  # 10 trillion: beyond any published model, so certainly a typo


def _dense(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int,
           **kw: int | bool | str) -> ModelShape:
    return ModelShape(name, layers, hidden, heads, kv, ffn, vocab, **kw)  # type: ignore[arg-type]


# Published configs (config.json of each model). llama-65b is LLaMA-1 65B, the QLoRA paper's model.
LLAMA = (
    _dense("llama-2-7b", 32, 4096, 32, 32, 11008, 32000),
    _dense("llama-2-13b", 40, 5120, 40, 40, 13824, 32000),
    _dense("llama-2-70b", 80, 8192, 64, 8, 28672, 32000),
    _dense("llama-3-8b", 32, 4096, 32, 8, 14336, 128256),
    _dense("llama-3-70b", 80, 8192, 64, 8, 28672, 128256),
    _dense("llama-3.1-405b", 126, 16384, 128, 8, 53248, 128256),
    _dense("llama-65b", 80, 8192, 64, 64, 22016, 32000),
)
# The shapes an unnamed size is scaled from. Not LLaMA-65B (2023, one KV head per query head): every model
# of 30–70B since (Llama 2/3 70B, Qwen2.5-32B, Yi-34B, Gemma 2 27B) shares its KV heads, and a 32B estimated
# from LLaMA-65B carried 6× their KV cache ("32b int4" did not fit a 24 GiB card that Qwen2.5-32B int4 fits).
TEMPLATES = tuple(p for p in LLAMA if p.name != "llama-65b")
OTHERS = (
    _dense("llama-3.1-8b", 32, 4096, 32, 8, 14336, 128256),
    _dense("llama-3.1-70b", 80, 8192, 64, 8, 28672, 128256),
    _dense("qwen2.5-7b", 28, 3584, 28, 4, 18944, 152064, qkv_bias=True),
    _dense("qwen2.5-14b", 48, 5120, 40, 8, 13824, 152064, qkv_bias=True),
    _dense("qwen2.5-32b", 64, 5120, 40, 8, 27648, 152064, qkv_bias=True),
    _dense("qwen2.5-72b", 80, 8192, 64, 8, 29568, 152064, qkv_bias=True),
    _dense("qwen3-8b", 36, 4096, 32, 8, 12288, 151936, head_dim=128, qk_norm=True),
    _dense("qwen3-32b", 64, 5120, 64, 8, 25600, 151936, head_dim=128, qk_norm=True),
    _dense("gemma-2-9b", 42, 3584, 16, 8, 14336, 256000, head_dim=256, tied=True, norms_per_layer=4,
           window=4096, windowed_layers=21),
    _dense("gemma-2-27b", 46, 4608, 32, 16, 36864, 256000, head_dim=128, tied=True, norms_per_layer=4,
           window=4096, windowed_layers=23),
    _dense("mistral-7b", 32, 4096, 32, 8, 14336, 32000, window=4096, windowed_layers=32),
    _dense("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, experts=8, experts_active=2, expert_ffn=14336,
           moe_layers=32),
    _dense("mixtral-8x22b", 56, 6144, 48, 8, 16384, 32000, experts=8, experts_active=2, expert_ffn=16384,
           moe_layers=56),
    _dense("qwen3-30b-a3b", 48, 2048, 32, 4, 6144, 151936, head_dim=128, qk_norm=True, experts=128,
           experts_active=8, expert_ffn=768, moe_layers=48),
    _dense("qwen3-235b-a22b", 94, 4096, 64, 4, 12288, 151936, head_dim=128, qk_norm=True, experts=128,
           experts_active=8, expert_ffn=1536, moe_layers=94),
    _dense("llama-4-scout", 48, 5120, 40, 8, 16384, 202048, head_dim=128, experts=16, experts_active=1,
           shared_experts=1, expert_ffn=8192, moe_layers=48, window=8192, windowed_layers=36),
    _dense("llama-4-maverick", 48, 5120, 40, 8, 16384, 202048, head_dim=128, experts=128, experts_active=1,
           shared_experts=1, expert_ffn=8192, moe_layers=24, window=8192, windowed_layers=36),
    _dense("deepseek-v3", 61, 7168, 128, 128, 18432, 129280, experts=256, experts_active=8, shared_experts=1,
           expert_ffn=2048, moe_layers=58, q_lora=1536, kv_lora=512, rope_dim=64, nope_dim=128, v_head_dim=128,
           release="fp8"),
)
# Added for issue 16, each from its config.json (gpt-oss: openai/gpt-oss torch/model.py and the HF config; Kimi K2:
# moonshotai/Kimi-K2-Instruct, the DeepSeek-V3 architecture with 384 experts, 64 heads, 1 dense layer).
NEWER = (
    _dense("gpt-oss-20b", 24, 2880, 64, 8, 2880, 201088, head_dim=64, o_bias=True, sinks=True, expert_bias=True,
           experts=32, experts_active=4, expert_ffn=2880, moe_layers=24, window=128, windowed_layers=12,
           release="mxfp4-experts"),
    _dense("gpt-oss-120b", 36, 2880, 64, 8, 2880, 201088, head_dim=64, o_bias=True, sinks=True, expert_bias=True,
           experts=128, experts_active=4, expert_ffn=2880, moe_layers=36, window=128, windowed_layers=18,
           release="mxfp4-experts"),
    _dense("deepseek-r1", 61, 7168, 128, 128, 18432, 129280, experts=256, experts_active=8, shared_experts=1,
           expert_ffn=2048, moe_layers=58, q_lora=1536, kv_lora=512, rope_dim=64, nope_dim=128, v_head_dim=128,
           release="fp8"),
    _dense("kimi-k2", 61, 7168, 64, 64, 18432, 163840, experts=384, experts_active=8, shared_experts=1,
           expert_ffn=2048, moe_layers=60, q_lora=1536, kv_lora=512, rope_dim=64, nope_dim=128, v_head_dim=128,
           release="fp8"),
    _dense("llama-3.3-70b", 80, 8192, 64, 8, 28672, 128256),
    _dense("qwen3-14b", 40, 5120, 40, 8, 17408, 151936, head_dim=128, qk_norm=True),
)
_BASE: dict[str, ModelShape] = {p.name: p for p in (*LLAMA, *OTHERS, *NEWER)}
# issue 37's presets: the open models people name, and their quantized releases (kb/fit/families.py)
PRESETS: dict[str, ModelShape] = {**_BASE, **family_presets(_BASE)}
# A release's own suffix on any preset's name: "Qwen2.5-14B-Instruct-GPTQ-Int4", "Qwen3-32B-FP8", "…-AWQ"
_RELEASE = re.compile(r"^(?P<base>.+?)(?:-(?:chat|instruct|base|it))?(?:-(?P<fmt>gptq-int4|gptq-int8|int4|int8|awq|"
                      r"4bits?|fp8))?(?:-(?:chat|instruct))?$")
_FORMAT = {"gptq-int4": "int4", "int4": "int4", "awq": "int4", "4bit": "int4", "4bits": "int4", "gptq-int8": "int8",
           "int8": "int8", "fp8": "fp8"}

_SIZE = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(b|m|t|billion|million|trillion|亿|万亿|千亿)?\s*$",
                   re.IGNORECASE)
_UNIT = {"": 1.0, "b": 1e9, "billion": 1e9, "m": 1e6, "million": 1e6, "t": 1e12, "trillion": 1e12,
         "亿": 1e8, "千亿": 1e11, "万亿": 1e12}


def accepted_models() -> str:
    """The one-line list of what --model accepts, for error messages."""
    bases = [n for n in PRESETS if not release_base(n)]
    return (f"a preset ({', '.join(bases)}; with -Instruct/-Chat and a release's -GPTQ-Int4/-Int8/-AWQ/-FP8) or a "
            f"size such as 7b, 13B, 6.7e9, 700亿 (from {MIN_PARAMS:.0e} to {MAX_PARAMS:.0e} parameters)")


def parse_size(text: str) -> float | None:
    """Parameters in a bare size ("7b", "6.7e9", "700亿"); None when the text is not a size at all."""
    m = _SIZE.match(text)
    if not m:
        return None
    value = float(m.group(1)) * _UNIT[(m.group(2) or "").lower()]
    if not m.group(2) and value < 1e5:
        return None  # "7" alone is not a size a person means as 7 parameters
    return value


def preset_named(text: str) -> ModelShape | None:
    """A preset by its id or a name people use for it (case, spaces and underscores aside), a quantized release's
    suffix setting its format ("Qwen-14B-Chat-Int4" → qwen1-14b in int4); None for anything else."""
    key = re.sub(r"[\s_/:]+", "-", text.strip().lower())
    if key in PRESETS:
        return PRESETS[key]
    if key in ALIAS_INDEX:
        return PRESETS[ALIAS_INDEX[key]]
    m = _RELEASE.match(key)
    if m and m.group("fmt"):
        base = PRESETS.get(m.group("base")) or (PRESETS[ALIAS_INDEX[m.group("base")]]
                                                if m.group("base") in ALIAS_INDEX else None)
        if base is not None:
            return replace(base, name=key, release=_FORMAT[m.group("fmt")])
    return None


def resolve_model(text: str) -> ModelShape:
    """A preset by name or alias (a quantized release's suffix setting its format), or a bare size with an estimated
    shape."""
    key = re.sub(r"[\s_]+", "-", text.strip().lower())
    named = preset_named(text)
    if named is not None:
        return named
    params = parse_size(key)
    if params is None:
        raise BadInput(f"unknown model {text!r}; accepted: {accepted_models()}", field="model")
    if not math.isfinite(params) or params < MIN_PARAMS or params > MAX_PARAMS:
        raise BadInput(f"model size {text!r} is out of range; accepted: {accepted_models()}", field="model")
    return estimate_shape(params)


def estimate_shape(params: float) -> ModelShape:
    """Scale the nearest Llama preset (by log size) so that its params match: layers and hidden by (N/N0)^(1/3).

    Parameters grow as layers x hidden^2, so scaling both by the cube root keeps the family's aspect.
    The params are the user's number, not the scaled shape's, so "7B" weighs exactly 7e9.
    """
    base = min(TEMPLATES, key=lambda p: abs(math.log(params / p.params)))
    s = (params / base.params) ** (1 / 3)
    hidden = max(HEAD_DIM, round(base.hidden * s / HEAD_DIM) * HEAD_DIM)
    heads = hidden // HEAD_DIM
    kv = heads if base.kv_heads == base.heads else min(base.kv_heads, heads)
    ffn = max(256, round(base.ffn * s / 256) * 256)
    layers = max(1, round(base.layers * s))
    return ModelShape(f"{params / 1e9:g}b", layers, hidden, heads, kv, ffn, base.vocab,
                      estimated_from=base.name, given_params=round(params))


# Names people use for a preset besides its id (any spacing of the id is read already; see kb/understand/names.py).
PRESET_ALIASES: dict[str, tuple[str, ...]] = {
    "llama-65b": ("llama 1 65b", "llama 65b"),
    "llama-3.1-405b": ("llama 3 405b",),
    # DeepSeek-R1's distilled models keep their base model's shape (DeepSeek-R1 model card: Qwen2.5-Math-7B,
    # Qwen2.5-14B, Qwen2.5-32B, Llama-3.1-8B, Llama-3.3-70B-Instruct), so they are checked as that base.
    "llama-3-8b": ("deepseek r1 distill llama 8b", "r1 distill llama 8b"),
    "qwen2.5-7b": ("qwen 7b", "deepseek r1 distill qwen 7b", "r1 distill qwen 7b"),
    "qwen2.5-14b": ("qwen 14b", "deepseek r1 distill qwen 14b", "r1 distill qwen 14b"),
    "qwen2.5-32b": ("qwen 32b", "deepseek r1 distill qwen 32b", "r1 distill qwen 32b"),
    "qwen2.5-72b": ("qwen 72b",),
    "qwen3-30b-a3b": ("qwen3 30b",),
    "qwen3-235b-a22b": ("qwen3 235b",),
    # (Meta's own short names: "Scout", "Maverick" — no other model is called so)
    "llama-4-scout": ("llama 4 scout 17b 16e", "llama4 scout", "scout"),
    "llama-4-maverick": ("llama 4 maverick 17b 128e", "llama4 maverick", "maverick"),
    "mixtral-8x7b": ("mixtral",),
    "deepseek-v3": ("deepseek v3 671b", "deepseek v3"),
    # issue 16's presets (DeepSeek-R1 is its own preset now: the same shape, but asked for by name)
    "gpt-oss-20b": ("gpt oss 20b", "gptoss 20b"),
    "gpt-oss-120b": ("gpt oss 120b", "gptoss 120b"),
    "deepseek-r1": ("deepseek r1", "deepseek r1 671b"),
    "kimi-k2": ("kimi k2", "kimi k2 instruct"),
    "llama-3.3-70b": ("llama 3.3 70b", "llama3.3 70b", "deepseek r1 distill llama 70b", "r1 distill llama 70b"),
    "qwen3-14b": ("qwen 3 14b",),
}
PRESET_ALIASES.update({k: (*PRESET_ALIASES.get(k, ()), *v) for k, v in FAMILY_ALIASES.items()})
# issue 37: DeepSeek's own and ollama's names for the R1 distills and the full model
PRESET_ALIASES["deepseek-r1"] = (*PRESET_ALIASES["deepseek-r1"], "deepseek 671b", "deepseek 600b")
for _preset, _names in {"qwen2.5-7b": ("deepseek r1 7b",), "qwen2.5-14b": ("deepseek r1 14b",),
                        "qwen2.5-32b": ("deepseek r1 32b", "qwen2.5 coder 32b", "qwen2.5 coder 32b instruct"),
                        "llama-3-8b": ("deepseek r1 8b",), "llama-3.3-70b": ("deepseek r1 70b",),
                        "qwen2.5-72b": ("qwen2.5 72b instruct",)}.items():
    PRESET_ALIASES[_preset] = (*PRESET_ALIASES.get(_preset, ()), *_names)
PRESET_ALIASES["qwen2.5-7b"] = (*PRESET_ALIASES["qwen2.5-7b"], "qwen2.5 coder 7b", "qwen2.5 coder 7b instruct",
                                "qwen2.5 7b instruct")
PRESET_ALIASES["qwen2.5-14b"] = (*PRESET_ALIASES["qwen2.5-14b"], "qwen2.5 14b instruct")
PRESET_ALIASES["qwen2.5-32b"] = (*PRESET_ALIASES["qwen2.5-32b"], "qwen2.5 32b instruct")
# every alias, spaced as an id is (for names given to --model and POST /v1/fit)
ALIAS_INDEX: dict[str, str] = {re.sub(r"[\s_/:]+", "-", a): p for p, names in PRESET_ALIASES.items() for a in names}

