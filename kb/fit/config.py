"""A model shape from a Hugging Face config.json, read offline: any dense, GQA, sliding-window, MoE or MLA model.

The fields are transformers' own names (LlamaConfig, MistralConfig, Qwen2/3(-MoE)Config, MixtralConfig,
GptOssConfig, DeepseekV3Config, Gemma2Config …); tests/kb/fit/test_fit_config.py holds the counts to transformers'
classes built on the meta device. A field that is missing or of the wrong kind is BadInput naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kb.errors import BadInput
from kb.fit.presets import ModelShape

MAX_DIM = 1 << 20  # a width or a count past a million is a typo


def _int(cfg: dict[str, Any], key: str, default: int | None = None) -> int:
    value = cfg.get(key, default)
    if value is None and default is not None:
        value = default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_DIM:
        got = "missing" if value is None else f"{value!r}"
        raise BadInput(f"config field {key!r} is {got}; accepted: a whole number from 1 to {MAX_DIM:,}",
                       field="config")
    return value


def _opt(cfg: dict[str, Any], key: str) -> int:
    """An optional width: 0 when absent or null."""
    return _int(cfg, key) if cfg.get(key) is not None else 0


def _window(cfg: dict[str, Any], layers: int) -> tuple[int, int]:
    """(window, layers it caps): layer_types (gpt-oss, Gemma 3, Qwen) or Gemma 2's alternate layers or Mistral's all."""
    window = cfg.get("sliding_window")
    if not window or cfg.get("use_sliding_window") is False:
        return 0, 0
    window = _int(cfg, "sliding_window")
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == layers:
        return window, sum(1 for t in types if t == "sliding_attention")
    if str(cfg.get("model_type", "")).startswith("gemma2"):
        return window, layers // 2
    return window, layers


def _consistent(kw: dict[str, Any], layers: int, hidden: int, heads: int, kv: int) -> None:
    """Fields that each parse but together describe no model: BadInput naming the one that is off."""
    def bad(key: str, why: str) -> None:
        raise BadInput(f"config field {key!r} {why}; accepted: a Hugging Face config.json", field="config")

    if kv > heads or heads % kv:
        bad("num_key_value_heads", f"({kv}) must divide num_attention_heads ({heads})")
    if not kw.get("head_dim") and not kw.get("kv_lora") and hidden < heads:
        bad("num_attention_heads", f"({heads}) is more than hidden_size ({hidden}) and no head_dim is given")
    if kw.get("experts") and kw["experts_active"] > kw["experts"]:
        bad("num_experts_per_tok", f"({kw['experts_active']}) is more than the experts ({kw['experts']})")
    if kw.get("moe_layers", 0) < 0:
        bad("first_k_dense_replace", f"is more than num_hidden_layers ({layers})")


def load_config(path: str | Path) -> dict[str, Any]:
    """config.json as a dict; BadInput when it is unreadable or not a JSON object."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadInput(f"config {str(path)!r} cannot be read as JSON ({e.__class__.__name__}); accepted: a Hugging "
                       "Face config.json file", field="config") from e
    if not isinstance(data, dict):
        raise BadInput("config is not a JSON object; accepted: a Hugging Face config.json", field="config")
    return data


def shape_from_config(cfg: dict[str, Any], name: str = "") -> ModelShape:
    """The ModelShape a config.json describes (text_config for multimodal wrappers)."""
    if isinstance(cfg.get("text_config"), dict):
        cfg = {**cfg["text_config"], "model_type": cfg["text_config"].get("model_type", cfg.get("model_type"))}
    mtype = str(cfg.get("model_type") or "")
    layers, hidden = _int(cfg, "num_hidden_layers"), _int(cfg, "hidden_size")
    heads = _int(cfg, "num_attention_heads")
    kv = _int(cfg, "num_key_value_heads", heads)
    vocab, ffn = _int(cfg, "vocab_size"), _int(cfg, "intermediate_size")
    window, windowed = _window(cfg, layers)
    kw: dict[str, Any] = dict(head_dim=_opt(cfg, "head_dim"), tied=bool(cfg.get("tie_word_embeddings", False)),
                              window=window, windowed_layers=windowed)
    if mtype.startswith("qwen2"):
        kw["qkv_bias"] = True
    if mtype.startswith("qwen3"):
        kw["qk_norm"] = True
    if mtype.startswith(("gemma2", "gemma3")):
        kw["norms_per_layer"] = 4
        kw["tied"] = bool(cfg.get("tie_word_embeddings", True))
    if cfg.get("attention_bias") and mtype == "gpt_oss":
        kw.update(o_bias=True, sinks=True, expert_bias=True)
    elif cfg.get("attention_bias"):
        kw["qkv_bias"] = True
    experts = cfg.get("num_local_experts") or cfg.get("n_routed_experts") or cfg.get("num_experts")
    if experts:
        kw["experts"] = _int(cfg, "num_local_experts" if cfg.get("num_local_experts") else
                             "n_routed_experts" if cfg.get("n_routed_experts") else "num_experts")
        kw["experts_active"] = _int(cfg, "num_experts_per_tok")
        kw["expert_ffn"] = _int(cfg, "moe_intermediate_size") if cfg.get("moe_intermediate_size") else ffn
        dense_first = _opt(cfg, "first_k_dense_replace")
        kw["moe_layers"] = layers - dense_first
        kw["shared_experts"] = _opt(cfg, "n_shared_experts")
        if cfg.get("shared_expert_intermediate_size"):
            kw.update(shared_experts=1, shared_ffn=_int(cfg, "shared_expert_intermediate_size"), shared_gate=True)
    if cfg.get("kv_lora_rank"):
        kw.update(q_lora=_opt(cfg, "q_lora_rank"), kv_lora=_int(cfg, "kv_lora_rank"),
                  rope_dim=_int(cfg, "qk_rope_head_dim"), nope_dim=_int(cfg, "qk_nope_head_dim"),
                  v_head_dim=_int(cfg, "v_head_dim"), head_dim=0)
    quant = cfg.get("quantization_config") or {}
    method = str(quant.get("quant_method", "")) if isinstance(quant, dict) else ""
    if method == "fp8":
        kw["release"] = "fp8"
    elif method == "mxfp4":
        kw["release"] = "mxfp4-experts"
    _consistent(kw, layers, hidden, heads, kv)
    label = name.strip() or str(cfg.get("_name_or_path") or mtype or "config.json")
    try:
        return ModelShape(label[:64], layers, hidden, heads, kv, ffn, vocab, **kw)
    except (ZeroDivisionError, ValueError) as e:
        raise BadInput(f"config fields do not describe a model ({e}); accepted: a Hugging Face config.json",
                       field="config") from e
