"""`--config`: a config.json's shape has transformers' own parameter count (meta device, no weights), for ten
architectures; the issue-16 presets are those configs at full size; a bad field is BadInput naming it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kb.errors import BadInput
from kb.fit.config import load_config, shape_from_config
from kb.fit.presets import PRESETS

_LLAMA = {"model_type": "llama", "hidden_size": 1024, "intermediate_size": 2816, "num_attention_heads": 16,
          "num_key_value_heads": 4, "vocab_size": 32000, "tie_word_embeddings": False}
_GPT_OSS = {"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880, "num_attention_heads": 64,
            "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 201088, "num_local_experts": 32,
            "num_experts_per_tok": 4, "sliding_window": 128, "attention_bias": True, "tie_word_embeddings": False,
            "quantization_config": {"quant_method": "mxfp4"}}
_DEEPSEEK = {"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
             "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_key_value_heads": 128,
             "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3,
             "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
             "v_head_dim": 128, "vocab_size": 129280, "n_group": 8, "topk_group": 4, "tie_word_embeddings": False,
             "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
ARCHS: dict[str, dict[str, Any]] = {
    "llama": _LLAMA,
    "mistral": {**_LLAMA, "model_type": "mistral", "sliding_window": 4096},
    "qwen2": {**_LLAMA, "model_type": "qwen2", "tie_word_embeddings": True},
    "qwen3": {**_LLAMA, "model_type": "qwen3", "head_dim": 128},
    "gemma2": {**_LLAMA, "model_type": "gemma2", "head_dim": 256, "sliding_window": 4096,
               "tie_word_embeddings": True},
    "mixtral": {**_LLAMA, "model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2},
    "qwen3_moe": {**_LLAMA, "model_type": "qwen3_moe", "head_dim": 128, "num_experts": 16, "num_experts_per_tok": 4,
                  "moe_intermediate_size": 512, "decoder_sparse_step": 1, "mlp_only_layers": []},
    "qwen2_moe": {**_LLAMA, "model_type": "qwen2_moe", "num_experts": 16, "num_experts_per_tok": 4,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 2048, "decoder_sparse_step": 1,
                  "mlp_only_layers": []},
    "gpt_oss": _GPT_OSS,
    "deepseek_v3": _DEEPSEEK,
}


def _with_layers(cfg: dict[str, Any], layers: int) -> dict[str, Any]:
    out = {**cfg, "num_hidden_layers": layers}
    if cfg["model_type"] == "gpt_oss":
        out["layer_types"] = ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(layers)]
    return out


@pytest.mark.parametrize("arch", list(ARCHS))
def test_config_count_matches_transformers(arch: str, hf: SimpleNamespace) -> None:
    torch, transformers = hf.torch, hf.transformers
    cfg = _with_layers(ARCHS[arch], 5 if arch == "deepseek_v3" else 4)
    fields = {k: v for k, v in cfg.items() if k not in ("model_type", "quantization_config")}
    config = transformers.AutoConfig.for_model(cfg["model_type"], **fields)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(config)
    total = sum(p.numel() for p in model.parameters())
    assert shape_from_config(cfg).shape_params == total, arch


@pytest.mark.parametrize(("name", "cfg", "layers"), [
    ("gpt-oss-20b", _GPT_OSS, 24), ("gpt-oss-120b", {**_GPT_OSS, "num_local_experts": 128}, 36),
    ("deepseek-r1", _DEEPSEEK, 61),
    ("kimi-k2", {**_DEEPSEEK, "num_attention_heads": 64, "num_key_value_heads": 64, "n_routed_experts": 384,
                 "first_k_dense_replace": 1, "vocab_size": 163840}, 61),
    ("llama-3.3-70b", {**_LLAMA, "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
                       "num_key_value_heads": 8, "vocab_size": 128256}, 80),
    ("qwen3-14b", {**_LLAMA, "model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 17408,
                   "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936}, 40),
])
def test_new_presets_are_their_configs(name: str, cfg: dict[str, Any], layers: int) -> None:
    shape, preset = shape_from_config(_with_layers(cfg, layers)), PRESETS[name]
    assert (shape.shape_params, shape.active_params, shape.kv_cached_tokens(8192)) == \
        (preset.shape_params, preset.active_params, preset.kv_cached_tokens(8192))
    assert shape.release == preset.release


@pytest.mark.parametrize(("name", "total_b", "active_b"), [
    ("gpt-oss-20b", 20.9, 3.6), ("gpt-oss-120b", 116.8, 5.1), ("kimi-k2", 1026.4, 31.7)])
def test_published_totals(name: str, total_b: float, active_b: float) -> None:
    """The publishers' totals and active counts (OpenAI's gpt-oss card, Kimi K2's): kb's active count leaves out the
    input embedding table as they do."""
    s = PRESETS[name]
    assert s.params / 1e9 == pytest.approx(total_b, abs=0.1)
    assert s.active_params / 1e9 == pytest.approx(active_b, abs=0.1)


@pytest.mark.parametrize(("cfg", "field"), [({**_LLAMA, "num_hidden_layers": 0}, "num_hidden_layers"),
                                            ({**_LLAMA, "num_hidden_layers": 4, "hidden_size": "big"}, "hidden_size"),
                                            ({"model_type": "llama"}, "num_hidden_layers"),
                                            ({**_LLAMA, "num_hidden_layers": 4, "num_key_value_heads": 5},
                                             "num_key_value_heads"),
                                            ({**_LLAMA, "num_hidden_layers": 4, "num_attention_heads": 2048,
                                              "num_key_value_heads": 2048}, "num_attention_heads"),
                                            ({**ARCHS["mixtral"], "num_hidden_layers": 4, "num_experts_per_tok": 9},
                                             "num_experts_per_tok"),
                                            ({**_DEEPSEEK, "num_hidden_layers": 2}, "first_k_dense_replace")])
def test_bad_config_names_the_field(cfg: dict[str, Any], field: str) -> None:
    with pytest.raises(BadInput, match=field):
        shape_from_config(cfg)


def test_unreadable_config_is_bad_input(tmp_path: Path) -> None:
    p = tmp_path / "config.json"
    p.write_text("[1, 2]")
    with pytest.raises(BadInput, match="config"):
        load_config(p)
    p.write_text(json.dumps(_LLAMA))
    assert load_config(p)["hidden_size"] == 1024
