"""ModelShape: a decoder-only transformer's shape, and what follows from it (parameters, KV cache, FLOPs).

Parameter counts follow from the shape (embeddings + LM head unless tied + attention + MLP or experts + norms), so a
preset's count is exact and tests/kb/fit/test_fit_shapes.py holds it to transformers' own model classes built on the
meta device. "Active" leaves out an MoE model's input embedding table, as the publishers count it: OpenAI's gpt-oss
card (5.13B active of 116.83B: "unembedding parameters are counted towards active, but not embeddings") and
DeepSeek-V3's README_WEIGHTS (36.7B), which the shape gives only without the 0.9B input table (37.6 − 0.9 ≈ 36.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ModelShape:
    """A decoder-only transformer's shape: enough for weights, KV cache, activations and FLOPs."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int  # a dense layer's FFN width
    vocab: int
    head_dim: int = 0  # 0: hidden // heads
    tied: bool = False  # LM head shares the input embeddings
    qkv_bias: bool = False  # Qwen2.5
    qk_norm: bool = False  # Qwen3: an RMSNorm of head_dim on q and on k
    norms_per_layer: int = 2  # Gemma 2 has four
    experts: int = 0  # routed experts in an MoE layer (0: dense)
    experts_active: int = 0  # routed experts a token uses
    shared_experts: int = 0  # experts every token uses (DeepSeek, Llama 4)
    expert_ffn: int = 0
    moe_layers: int = 0  # how many layers are MoE (the rest use `ffn`)
    q_lora: int = 0  # MLA (DeepSeek): query low-rank
    kv_lora: int = 0  # MLA: the cached latent
    rope_dim: int = 0  # MLA: the cached rope key part
    nope_dim: int = 0
    v_head_dim: int = 0
    window: int = 0  # sliding-window / chunked-attention span, tokens
    windowed_layers: int = 0  # layers whose KV cache the window caps
    o_bias: bool = False  # gpt-oss: attention_bias puts a bias on q, k, v and o
    sinks: bool = False  # gpt-oss: one learned attention-sink logit a head and layer
    expert_bias: bool = False  # gpt-oss: biases on each expert's projections and on the router
    shared_ffn: int = 0  # Qwen2-MoE: the shared expert's own width (0: expert_ffn)
    shared_gate: bool = False  # Qwen2-MoE: a sigmoid gate (hidden -> 1) on the shared expert
    release: str = ""  # the checkpoint's format: "" (16-bit), "fp8" (DeepSeek blocks), "mxfp4-experts" (gpt-oss),
    #                    "int4" (GPTQ/AWQ 4-bit releases), "int8" (GPTQ 8-bit releases)
    estimated_from: str | None = None  # the preset a bare size's shape was scaled from
    given_params: int | None = field(default=None)  # a bare size: the user's number, not the shape's

    def __post_init__(self) -> None:
        if not self.head_dim:
            object.__setattr__(self, "head_dim", self.hidden // self.heads)

    # -- parameters -------------------------------------------------------------------------------
    @property
    def mla(self) -> bool:
        return self.kv_lora > 0

    @property
    def moe(self) -> bool:
        return self.experts > 0

    @property
    def attention_params(self) -> int:
        """One layer's attention weights (and biases, q/k norms)."""
        h = self.hidden
        if self.mla:
            qk = self.heads * (self.nope_dim + self.rope_dim)
            q = h * self.q_lora + self.q_lora + self.q_lora * qk if self.q_lora else h * qk
            kv = h * (self.kv_lora + self.rope_dim) + self.kv_lora + self.kv_lora * self.heads * (
                self.nope_dim + self.v_head_dim)
            return q + kv + self.heads * self.v_head_dim * h
        q, kv = self.heads * self.head_dim, self.kv_heads * self.head_dim
        n = 2 * h * q + 2 * h * kv
        if self.qkv_bias or self.o_bias:
            n += q + 2 * kv
        if self.o_bias:
            n += h
        if self.sinks:
            n += self.heads
        if self.qk_norm:
            n += 2 * self.head_dim
        return n

    @property
    def expert_params(self) -> int:
        """One expert's three SwiGLU matrices (and gpt-oss's biases on them)."""
        bias = 2 * self.expert_ffn + self.hidden if self.expert_bias else 0  # gate_up (2·ffn) and down (hidden)
        return 3 * self.hidden * self.expert_ffn + bias

    @property
    def moe_layer_params(self) -> int:
        """One MoE layer's MLP: routed and shared experts and the router."""
        shared = self.shared_experts * 3 * self.hidden * (self.shared_ffn or self.expert_ffn)
        router = self.hidden * self.experts + (self.experts if self.expert_bias else 0)
        return self.experts * self.expert_params + shared + router + (self.hidden if self.shared_gate else 0)

    @property
    def embedding_params(self) -> int:
        """Input embeddings + LM head (once when tied): kept in 16-bit by weight-only quantisers."""
        return self.vocab * self.hidden * (1 if self.tied else 2)

    @property
    def norm_params(self) -> int:
        return self.layers * self.norms_per_layer * self.hidden + self.hidden

    @property
    def shape_params(self) -> int:
        """Total parameters of the shape (every expert)."""
        dense_layers = self.layers - self.moe_layers
        mlp = dense_layers * 3 * self.hidden * self.ffn + self.moe_layers * self.moe_layer_params
        return self.embedding_params + self.layers * self.attention_params + mlp + self.norm_params

    @property
    def params(self) -> int:
        """Parameters as published (presets) or as the user said (bare sizes)."""
        return self.given_params if self.given_params is not None else self.shape_params

    @property
    def input_embedding_params(self) -> int:
        """The input embedding table alone (0 when the LM head shares it: then the head computes with it)."""
        return 0 if self.tied else self.vocab * self.hidden

    @property
    def active_params(self) -> int:
        """Parameters a token computes with: all but the routed experts it is not sent to and, for an MoE model, the
        input embedding table (a row lookup, not a matmul) — OpenAI's convention for gpt-oss ("unembedding
        parameters are counted towards active, but not embeddings": 5.13B), which DeepSeek-V3's 36.7B also works out
        to. A dense model's active count is its total (contracts.md)."""
        idle = self.moe_layers * (self.experts - self.experts_active) * self.expert_params
        return self.params - idle - (self.input_embedding_params if self.moe else 0)

    def attention_flops_per_token(self, seq_len: int) -> float:
        """Causal attention's matmul FLOPs a training token (forward + backward = 3 × forward): each layer scores and
        mixes over the tokens before it, s/2 on average (a window caps it): 6·ctx·heads·(qk + v) / 2 · 2."""
        qk = self.nope_dim + self.rope_dim if self.mla else self.head_dim
        v = self.v_head_dim if self.mla else self.head_dim
        full = seq_len / 2
        capped = full if not self.window or seq_len <= self.window else self.window - self.window**2 / (2 * seq_len)
        ctx = (self.layers - self.windowed_layers) * full + self.windowed_layers * capped
        return 6 * ctx * self.heads * (qk + v)

    def train_flops_per_token(self, seq_len: int) -> float:
        """Model FLOPs a training token: 6·N_active for the weights' matmuls + causal attention (PaLM's MFU
        convention, the one Llama 3's 38–43 % is stated in). DeepSeek-V3 at 4,096 tokens: 6 × 36.6B + 30.7G = 250G,
        DeepSeek's own 250 GFLOPs a token (ISCA '25, table 2)."""
        return 6 * self.active_params + self.attention_flops_per_token(seq_len)

    @property
    def linear_params_per_layer(self) -> int:
        """A dense block's linear layers (the LoRA targets)."""
        return self.attention_params + 3 * self.hidden * self.ffn

    # -- KV cache ---------------------------------------------------------------------------------
    @property
    def kv_values_per_token_layer(self) -> int:
        """Values cached a token and layer: K and V of every kv head, or MLA's latent + rope key."""
        if self.mla:
            return self.kv_lora + self.rope_dim
        return 2 * self.kv_heads * self.head_dim

    def kv_cached_tokens(self, seq_len: int) -> int:
        """Token-layers held for one sequence of `seq_len`: windowed layers keep at most `window`."""
        capped = min(seq_len, self.window) if self.window else seq_len
        return (self.layers - self.windowed_layers) * seq_len + self.windowed_layers * capped

    def lora_params(self, rank: int) -> int:
        """LoRA adapters (A: d_in x r, B: r x d_out) on the attention projections and the dense MLP's three."""
        h, q, kv, f = self.hidden, self.heads * self.head_dim, self.kv_heads * self.head_dim, self.ffn
        if self.moe:
            f = self.expert_ffn * (self.experts_active + self.shared_experts)  # adapters on the experts used
        per_layer = rank * (2 * (h + q) + 2 * (h + kv) + 3 * (h + f))
        return self.layers * per_layer
