"""The open models people name in questions (issue 37), each its published config.json, with the names people use.

Sources: each model's config.json on Hugging Face (the publisher's repository, or a copy naming it): Qwen (v1, 1.5,
2, 2.5, 3), DeepSeek (LLM, Coder, V2, the R1 distills), Baichuan 2, ChatGLM3 / GLM-4, Yi, InternLM 2, Phi, Gemma,
Mistral, Llama 3.2, Command R. A family whose modelling code lives outside transformers is held by
tests/kb/fit/test_fit_shapes.py to the transformers class with the same parameter layout: Qwen v1 (fused qkv with a
bias, a SwiGLU MLP whose config intermediate_size is twice its width) as Qwen2 with one KV head a query head;
Baichuan 2 and InternLM 2 (fused qkv without bias) as Llama; ChatGLM3 as GLM-4 (qkv bias, 2 KV groups).

Release formats: a model published in 16 bits has release "" (FP16 or BF16, whichever its torch_dtype); the quantized
releases people name carry theirs: Qwen's -Int4 / -GPTQ-Int4 (GPTQ, group 128), -Int8 / -GPTQ-Int8 and -AWQ (4-bit,
group 128), Baichuan 2's -4bits, InternLM 2's -4bits (LMDeploy W4A16), -FP8 (FP8 e4m3 blocks).
"""

from __future__ import annotations

from dataclasses import replace

from kb.fit.shape import ModelShape


def _m(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int,
       **kw: int | bool | str) -> ModelShape:
    return ModelShape(name, layers, hidden, heads, kv, ffn, vocab, **kw)  # type: ignore[arg-type]


def _qwen(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocab: int = 152064,
          **kw: int | bool | str) -> ModelShape:
    return _m(name, layers, hidden, heads, kv, ffn, vocab, qkv_bias=True, **kw)


def _gemma3(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, head_dim: int,
            windowed: int) -> ModelShape:
    # Gemma 3: 5 local layers (1,024-token window) to 1 global, tied, q/k norms, four norms a layer
    return _m(name, layers, hidden, heads, kv, ffn, 262208, head_dim=head_dim, tied=True, qk_norm=True,
              norms_per_layer=4, window=1024, windowed_layers=windowed)


FAMILIES = (
    # Qwen v1 (2023): MHA, intermediate_size 2 × the MLP width in the config
    _qwen("qwen1-7b", 32, 4096, 32, 32, 11008, 151936),
    _qwen("qwen1-14b", 40, 5120, 40, 40, 13696),
    _qwen("qwen1-72b", 80, 8192, 64, 64, 24576),
    # Qwen1.5
    _qwen("qwen1.5-0.5b", 24, 1024, 16, 16, 2816, 151936, tied=True),
    _qwen("qwen1.5-1.8b", 24, 2048, 16, 16, 5504, 151936),
    _qwen("qwen1.5-4b", 40, 2560, 20, 20, 6912, 151936),
    _qwen("qwen1.5-7b", 32, 4096, 32, 32, 11008, 151936),
    _qwen("qwen1.5-14b", 40, 5120, 40, 40, 13696),
    _qwen("qwen1.5-32b", 64, 5120, 40, 8, 27392),
    _qwen("qwen1.5-72b", 80, 8192, 64, 64, 24576),
    _qwen("qwen1.5-110b", 80, 8192, 64, 8, 49152),
    # Qwen2
    _qwen("qwen2-0.5b", 24, 896, 14, 2, 4864, 151936, tied=True),
    _qwen("qwen2-1.5b", 28, 1536, 12, 2, 8960, 151936, tied=True),
    _qwen("qwen2-7b", 28, 3584, 28, 4, 18944),
    _qwen("qwen2-72b", 80, 8192, 64, 8, 29568),
    _qwen("qwen2-57b-a14b", 28, 3584, 28, 4, 18944, 151936, experts=64, experts_active=8, shared_experts=1,
          expert_ffn=2560, moe_layers=28, shared_ffn=20480, shared_gate=True),
    # Qwen2.5 small sizes (7B–72B are in presets.py)
    _qwen("qwen2.5-0.5b", 24, 896, 14, 2, 4864, 151936, tied=True),
    _qwen("qwen2.5-1.5b", 28, 1536, 12, 2, 8960, 151936, tied=True),
    _qwen("qwen2.5-3b", 36, 2048, 16, 2, 11008, 151936, tied=True),
    # Qwen3 small sizes (q/k norms, no qkv bias, head_dim 128)
    _m("qwen3-0.6b", 28, 1024, 16, 8, 3072, 151936, head_dim=128, tied=True, qk_norm=True),
    _m("qwen3-1.7b", 28, 2048, 16, 8, 6144, 151936, head_dim=128, tied=True, qk_norm=True),
    _m("qwen3-4b", 36, 2560, 32, 8, 9728, 151936, head_dim=128, tied=True, qk_norm=True),
    # DeepSeek: LLM, Coder, V2 (MLA + MoE), the R1 distill of Qwen2.5-Math-1.5B (untied, unlike Qwen2.5-1.5B)
    _m("deepseek-llm-7b", 30, 4096, 32, 32, 11008, 102400),
    _m("deepseek-llm-67b", 95, 8192, 64, 8, 22016, 102400),
    _m("deepseek-coder-6.7b", 32, 4096, 32, 32, 11008, 32256),
    _m("deepseek-coder-33b", 62, 7168, 56, 8, 19200, 32256),
    _m("deepseek-v2", 60, 5120, 128, 128, 12288, 102400, experts=160, experts_active=6, shared_experts=2,
       expert_ffn=1536, moe_layers=59, q_lora=1536, kv_lora=512, rope_dim=64, nope_dim=128, v_head_dim=128),
    _m("deepseek-v2-lite", 27, 2048, 16, 16, 10944, 102400, experts=64, experts_active=6, shared_experts=2,
       expert_ffn=1408, moe_layers=26, kv_lora=512, rope_dim=64, nope_dim=128, v_head_dim=128),
    _qwen("r1-distill-qwen-1.5b", 28, 1536, 12, 2, 8960, 151936),
    # Baichuan 2, ChatGLM3, GLM-4
    _m("baichuan2-7b", 32, 4096, 32, 32, 11008, 125696),
    _m("baichuan2-13b", 40, 5120, 40, 40, 13696, 125696),
    _qwen("chatglm3-6b", 28, 4096, 32, 2, 13696, 65024, head_dim=128),
    _qwen("glm-4-9b", 40, 4096, 32, 2, 13696, 151552, head_dim=128),
    # Yi, InternLM 2
    _m("yi-6b", 32, 4096, 32, 4, 11008, 64000),
    _m("yi-34b", 60, 7168, 56, 8, 20480, 64000),
    _m("yi-1.5-6b", 32, 4096, 32, 4, 11008, 64000),
    _m("yi-1.5-34b", 60, 7168, 56, 8, 20480, 64000),
    _m("internlm2-7b", 32, 4096, 32, 8, 14336, 92544),
    _m("internlm2-20b", 48, 6144, 48, 8, 16384, 92544),
    _m("internlm2.5-7b", 32, 4096, 32, 8, 14336, 92544),
    # Phi, Gemma, Mistral, Llama 3.2, Command R
    _m("phi-3-mini", 32, 3072, 32, 32, 8192, 32064),
    _m("phi-3-medium", 40, 5120, 40, 10, 17920, 32064),
    _m("phi-4", 40, 5120, 40, 10, 17920, 100352),
    _m("gemma-7b", 28, 3072, 16, 16, 24576, 256000, head_dim=256, tied=True),
    _gemma3("gemma-3-4b", 34, 2560, 8, 4, 10240, 256, 29),
    _gemma3("gemma-3-12b", 48, 3840, 16, 8, 15360, 256, 40),
    _gemma3("gemma-3-27b", 62, 5376, 32, 16, 21504, 128, 52),
    _m("mistral-nemo-12b", 40, 5120, 32, 8, 14336, 131072, head_dim=128),
    _m("mistral-small-24b", 40, 5120, 32, 8, 32768, 131072, head_dim=128),
    _m("llama-3.2-1b", 16, 2048, 32, 8, 8192, 128256, head_dim=64, tied=True),
    _m("llama-3.2-3b", 28, 3072, 24, 8, 8192, 128256, head_dim=128, tied=True),
    _m("command-r-35b", 40, 8192, 64, 64, 22528, 256000, tied=True, norms_per_layer=1),
)

# The quantized releases people name, each as published: (name, the preset it quantizes, its release format).
RELEASES = (
    *((f"qwen-{s}-chat-int{b}", f"qwen1-{s}", f"int{b}") for s in ("7b", "14b", "72b") for b in (4, 8)),
    ("qwen1.5-7b-chat-gptq-int4", "qwen1.5-7b", "int4"), ("qwen1.5-7b-chat-awq", "qwen1.5-7b", "int4"),
    ("qwen1.5-14b-chat-gptq-int4", "qwen1.5-14b", "int4"), ("qwen1.5-72b-chat-gptq-int4", "qwen1.5-72b", "int4"),
    ("qwen1.5-72b-chat-awq", "qwen1.5-72b", "int4"),
    ("qwen2-7b-instruct-gptq-int4", "qwen2-7b", "int4"), ("qwen2-7b-instruct-awq", "qwen2-7b", "int4"),
    ("qwen2-72b-instruct-gptq-int4", "qwen2-72b", "int4"), ("qwen2-72b-instruct-awq", "qwen2-72b", "int4"),
    *((f"qwen2.5-{s}-instruct-{q}", f"qwen2.5-{s}", p) for s in ("0.5b", "1.5b", "3b", "7b", "14b", "32b", "72b")
      for q, p in (("gptq-int4", "int4"), ("gptq-int8", "int8"), ("awq", "int4"))),
    ("baichuan2-7b-chat-4bits", "baichuan2-7b", "int4"), ("baichuan2-13b-chat-4bits", "baichuan2-13b", "int4"),
    ("internlm2-chat-20b-4bits", "internlm2-20b", "int4"), ("internlm2-chat-7b-4bits", "internlm2-7b", "int4"),
)

# Names people use besides the ids (any spacing of an id is read already): chat/instruct names, the R1 distills by
# ollama's "deepseek-r1:<size>", Chinese family names (通义千问 for qwen is added by kb/understand/names.py).
FAMILY_ALIASES: dict[str, tuple[str, ...]] = {
    "qwen1-7b": ("qwen 7b chat", "qwen1 7b chat"),
    "qwen1-14b": ("qwen 14b chat", "qwen1 14b chat"),
    "qwen1-72b": ("qwen 72b chat", "qwen1 72b chat"),
    **{f"qwen1.5-{s}": (f"qwen1.5 {s} chat",) for s in ("0.5b", "1.8b", "4b", "7b", "14b", "32b", "72b", "110b")},
    **{f"qwen2-{s}": (f"qwen2 {s} instruct",) for s in ("0.5b", "1.5b", "7b", "72b")},
    "qwen2-57b-a14b": ("qwen2 57b a14b instruct", "qwen2 moe 57b", "qwen2 57b"),
    **{f"qwen2.5-{s}": (f"qwen2.5 {s} instruct",) for s in ("0.5b", "1.5b", "3b")},
    **{f"qwen3-{s}": (f"qwen 3 {s}",) for s in ("0.6b", "1.7b", "4b")},
    "deepseek-llm-7b": ("deepseek llm 7b chat", "deepseek llm 7b base"),
    "deepseek-llm-67b": ("deepseek llm 67b chat", "deepseek llm 67b base"),
    "deepseek-coder-6.7b": ("deepseek coder 6.7b instruct", "deepseek coder 6.7b base", "ds coder 6.7b"),
    "deepseek-coder-33b": ("deepseek coder 33b instruct", "deepseek coder 33b base"),
    "deepseek-v2": ("deepseek v2 chat", "deepseek v2 236b"),
    "deepseek-v2-lite": ("deepseek v2 lite chat", "dsv2 lite"),
    "r1-distill-qwen-1.5b": ("deepseek r1 distill qwen 1.5b", "deepseek r1 1.5b"),
    "baichuan2-7b": ("baichuan2 7b chat", "baichuan2 7b base", "百川2 7b"),
    "baichuan2-13b": ("baichuan2 13b chat", "baichuan2 13b base", "百川2 13b"),
    "chatglm3-6b": ("chatglm3", "chatglm3 6b 32k", "chatglm3 6b base"),
    "glm-4-9b": ("glm 4 9b chat", "glm4 9b", "glm4 9b chat", "glm 4"),
    "yi-6b": ("yi 6b chat", "零一万物 yi 6b"),
    "yi-34b": ("yi 34b chat", "yi 34b 200k", "零一万物 yi 34b"),
    "yi-1.5-6b": ("yi 1.5 6b chat",),
    "yi-1.5-34b": ("yi 1.5 34b chat",),
    "internlm2-7b": ("internlm2 chat 7b", "书生 浦语2 7b"),
    "internlm2-20b": ("internlm2 chat 20b", "书生 浦语2 20b"),
    "internlm2.5-7b": ("internlm2.5 7b chat", "internlm2_5 7b chat"),
    "phi-3-mini": ("phi 3 mini 4k instruct", "phi 3 mini 128k instruct", "phi3 mini"),
    "phi-3-medium": ("phi 3 medium 4k instruct", "phi 3 medium 128k instruct", "phi3 medium"),
    "phi-4": ("phi4", "microsoft phi 4"),
    "gemma-7b": ("gemma 7b it",),
    "gemma-3-4b": ("gemma 3 4b it", "gemma3 4b"),
    "gemma-3-12b": ("gemma 3 12b it", "gemma3 12b"),
    "gemma-3-27b": ("gemma 3 27b it", "gemma3 27b"),
    "mistral-nemo-12b": ("mistral nemo", "mistral nemo instruct 2407", "nemo 12b"),
    "mistral-small-24b": ("mistral small 24b instruct 2501", "mistral small 3"),
    "llama-3.2-1b": ("llama 3.2 1b instruct", "llama3.2 1b"),
    "llama-3.2-3b": ("llama 3.2 3b instruct", "llama3.2 3b"),
    "command-r-35b": ("command r 35b", "c4ai command r v01"),
}


def family_presets(base: dict[str, ModelShape]) -> dict[str, ModelShape]:
    """The issue-37 presets and their quantized releases (each its base's shape under its own name and format)."""
    out = {p.name: p for p in FAMILIES}
    every = {**base, **out}
    for name, of, release in RELEASES:
        out[name] = replace(every[of], name=name, release=release)
    return out


def release_base(name: str) -> str | None:
    """The preset a quantized release quantizes (None for anything else)."""
    return next((of for n, of, _ in RELEASES if n == name), None)
