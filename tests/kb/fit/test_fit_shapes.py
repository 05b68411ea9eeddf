"""Each preset's shape, built in transformers' own model class on the meta device (no weights, no download),
has the parameter count kb computes: exactly for the total, and for the active count of MoE models.

Layers are cut to a few (the count is linear in layers, and kb's formula is evaluated on the same cut
shape), so a 671B model builds in a second; the full-size counts are held to the configs' totals in the last test.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from kb.fit.families import release_base
from kb.fit.presets import PRESETS, ModelShape


def _cut(shape: ModelShape, layers: int, moe_layers: int, windowed: int) -> ModelShape:
    return dataclasses.replace(shape, layers=layers, moe_layers=moe_layers, windowed_layers=windowed)


def _config(t: Any, name: str, s: ModelShape, layers: int) -> tuple[object, ModelShape]:
    """transformers' (module `t`) config for a preset's shape cut to `layers`, and kb's shape cut the same way."""
    name = release_base(name) or name  # a quantized release has its base's shape
    common = {"vocab_size": s.vocab, "hidden_size": s.hidden, "num_hidden_layers": layers,
              "num_attention_heads": s.heads, "num_key_value_heads": s.kv_heads, "tie_word_embeddings": s.tied}
    if name.startswith(("llama-2", "llama-3", "llama-65b", "deepseek-llm", "deepseek-coder", "yi-", "internlm2",
                        "baichuan2")):  # (InternLM 2 and Baichuan 2 fuse q/k/v without a bias: Llama's count)
        return t.LlamaConfig(intermediate_size=s.ffn, head_dim=s.head_dim, **common), _cut(s, layers, 0, 0)
    if name == "qwen2-57b-a14b":
        return (t.Qwen2MoeConfig(intermediate_size=s.ffn, moe_intermediate_size=s.expert_ffn, num_experts=s.experts,
                                 num_experts_per_tok=s.experts_active, shared_expert_intermediate_size=s.shared_ffn,
                                 decoder_sparse_step=1, mlp_only_layers=[], **common), _cut(s, layers, layers, 0))
    if name.startswith(("qwen2.5", "qwen1", "qwen2-", "r1-distill-qwen")):  # (Qwen v1: a biased fused qkv, as Qwen2)
        return t.Qwen2Config(intermediate_size=s.ffn, **common), _cut(s, layers, 0, 0)
    if name.startswith(("chatglm3", "glm-4")):
        return (t.GlmConfig(intermediate_size=s.ffn, head_dim=s.head_dim, attention_bias=True, pad_token_id=0,
                            **common),
                _cut(s, layers, 0, 0))
    if name.startswith("phi-"):
        return t.Phi3Config(intermediate_size=s.ffn, **common), _cut(s, layers, 0, 0)
    if name == "gemma-7b":
        return t.GemmaConfig(intermediate_size=s.ffn, head_dim=s.head_dim, **common), _cut(s, layers, 0, 0)
    if name.startswith("gemma-3"):
        return (t.Gemma3TextConfig(intermediate_size=s.ffn, head_dim=s.head_dim, sliding_window=s.window, **common),
                _cut(s, layers, 0, 0))
    if name.startswith("mistral-"):
        return t.MistralConfig(intermediate_size=s.ffn, head_dim=s.head_dim, **common), _cut(s, layers, 0, 0)
    if name.startswith("command-r"):
        return t.CohereConfig(intermediate_size=s.ffn, **common), _cut(s, layers, 0, 0)
    if name.startswith("deepseek-v2"):
        dense = s.layers - s.moe_layers
        return (t.DeepseekV2Config(intermediate_size=s.ffn, moe_intermediate_size=s.expert_ffn,
                                   n_routed_experts=s.experts, n_shared_experts=s.shared_experts,
                                   num_experts_per_tok=s.experts_active, first_k_dense_replace=dense,
                                   q_lora_rank=s.q_lora or None, kv_lora_rank=s.kv_lora, qk_rope_head_dim=s.rope_dim,
                                   qk_nope_head_dim=s.nope_dim, v_head_dim=s.v_head_dim, **common),
                _cut(s, layers, layers - dense, 0))
    if name.startswith("qwen3") and not s.moe:
        return t.Qwen3Config(intermediate_size=s.ffn, head_dim=s.head_dim, **common), _cut(s, layers, 0, 0)
    if name.startswith("qwen3"):
        return (t.Qwen3MoeConfig(intermediate_size=s.ffn, moe_intermediate_size=s.expert_ffn, head_dim=s.head_dim,
                                 num_experts=s.experts, num_experts_per_tok=s.experts_active, decoder_sparse_step=1,
                                 mlp_only_layers=[], **common), _cut(s, layers, layers, 0))
    if name.startswith("gemma-2"):
        return (t.Gemma2Config(intermediate_size=s.ffn, head_dim=s.head_dim, **common),
                _cut(s, layers, 0, layers // 2))
    if name == "mistral-7b":
        return t.MistralConfig(intermediate_size=s.ffn, head_dim=s.head_dim, **common), _cut(s, layers, 0, layers)
    if name.startswith("mixtral"):
        return (t.MixtralConfig(intermediate_size=s.expert_ffn, num_local_experts=s.experts,
                                num_experts_per_tok=s.experts_active, head_dim=s.head_dim, **common),
                _cut(s, layers, layers, 0))
    if name.startswith("llama-4"):
        step = 1 if name.endswith("scout") else 2
        return (t.Llama4TextConfig(intermediate_size=s.expert_ffn, intermediate_size_mlp=s.ffn, head_dim=s.head_dim,
                                   num_local_experts=s.experts, num_experts_per_tok=s.experts_active,
                                   interleave_moe_layer_step=step, **common),
                _cut(s, layers, layers // step, 0))
    if name.startswith("gpt-oss"):
        types = ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(layers)]
        return (t.GptOssConfig(intermediate_size=s.expert_ffn, head_dim=s.head_dim, num_local_experts=s.experts,
                               num_experts_per_tok=s.experts_active, sliding_window=s.window, layer_types=types,
                               attention_bias=True, **common), _cut(s, layers, layers, layers // 2))
    if name in ("deepseek-v3", "deepseek-r1", "kimi-k2"):
        dense = s.layers - s.moe_layers
        return (t.DeepseekV3Config(intermediate_size=s.ffn, moe_intermediate_size=s.expert_ffn,
                                   n_routed_experts=s.experts, n_shared_experts=s.shared_experts,
                                   num_experts_per_tok=s.experts_active, first_k_dense_replace=dense,
                                   q_lora_rank=s.q_lora, kv_lora_rank=s.kv_lora, qk_rope_head_dim=s.rope_dim,
                                   qk_nope_head_dim=s.nope_dim, v_head_dim=s.v_head_dim, n_group=8, topk_group=4,
                                   **common), _cut(s, layers, layers - dense, 0))
    raise AssertionError(f"no transformers class mapped for {name}")


def _counts(model: object, s: ModelShape) -> tuple[int, int]:
    """(total, active): active removes the routed experts a token does not use and, for an MoE model, the input
    embedding table (the publishers' convention: OpenAI's gpt-oss, DeepSeek-V3), read from the module tree."""
    params = dict(model.named_parameters())  # type: ignore[attr-defined]
    total = sum(p.numel() for p in params.values())
    routed = sum(p.numel() for n, p in params.items()
                 if ".experts." in n or n.endswith(".experts.gate_up_proj") or n.endswith(".experts.down_proj")
                 or (".experts" in n and "shared" not in n))
    idle = routed * (s.experts - s.experts_active) // s.experts if s.experts else 0
    embedding = sum(p.numel() for n, p in params.items() if n.endswith("embed_tokens.weight")) \
        if s.experts and not s.tied else 0
    return total, total - idle - embedding


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_count_matches_transformers(name: str, hf: SimpleNamespace) -> None:
    shape = PRESETS[name]
    layers = 5 if name in ("deepseek-v3", "deepseek-r1", "kimi-k2") else 4
    config, cut = _config(hf.transformers, name, shape, layers)
    with hf.torch.device("meta"):
        model = hf.transformers.AutoModelForCausalLM.from_config(config)
    total, active = _counts(model, cut)
    assert cut.shape_params == total, (name, cut.shape_params - total)
    assert cut.active_params == active, (name, cut.active_params - active)


# Totals and KV bytes computed from the published config.json files; MoE active counts without the input embedding
# table, as the publishers count them (OpenAI's gpt-oss model card; DeepSeek-V3's README_WEIGHTS, 36.7B) — with it
# they would be Mixtral 12.88 → 12.75, DeepSeek-V3 37.6 → 36.6, Qwen3-30B-A3B 3.35 → 3.04, Llama 4 17.2 → 16.2.
@pytest.mark.parametrize(("name", "total_b", "active_b", "kv"), [
    ("mixtral-8x7b", 46.70, 12.75, 131_072), ("mixtral-8x22b", 140.6, 38.96, 229_376),
    ("deepseek-v3", 671.0, 36.6, 70_272), ("qwen2.5-7b", 7.62, 7.62, 57_344), ("qwen2.5-14b", 14.77, 14.77, 196_608),
    ("qwen2.5-32b", 32.76, 32.76, 262_144), ("qwen2.5-72b", 72.71, 72.71, 327_680), ("qwen3-8b", 8.19, 8.19, 147_456),
    ("qwen3-32b", 32.76, 32.76, 262_144), ("qwen3-30b-a3b", 30.53, 3.04, 98_304),
    ("qwen3-235b-a22b", 235.1, 21.57, 192_512), ("llama-3.1-8b", 8.03, 8.03, 131_072),
    ("llama-3.1-70b", 70.55, 70.55, 327_680), ("llama-3.1-405b", 405.85, 405.85, 516_096),
    ("llama-4-scout", 107.8, 16.14, 196_608), ("llama-4-maverick", 400.7, 16.15, 196_608),
    ("gemma-2-9b", 9.24, 9.24, 344_064), ("gemma-2-27b", 27.23, 27.23, 376_832), ("mistral-7b", 7.24, 7.24, 131_072),
])
def test_full_size_counts_match_models_md(name: str, total_b: float, active_b: float, kv: int) -> None:
    from kb.fit.memory import kv_bytes_per_token

    s = PRESETS[name]
    assert s.params / 1e9 == pytest.approx(total_b, abs=0.06)
    assert s.active_params / 1e9 == pytest.approx(active_b, abs=0.06)
    assert kv_bytes_per_token(s) == kv
