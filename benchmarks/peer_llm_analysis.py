"""kb beside a peer estimator, llm-analysis (cli99/llm-analysis 0.2.2), on the LLaMA-1 cases and the published runs.

    python -m venv /tmp/peer && /tmp/peer/bin/pip install llm-analysis   # a venv of its own: it pins transformers < 5
    /tmp/peer/bin/python -m benchmarks.peer_llm_analysis --peer-only    # the peer's figures (no kb import)
    .venv/bin/python -m benchmarks.fit_accuracy                         # kb's figures for the same cases

(or install llm-analysis into kb's venv, put kb's transformers back afterwards, and run without --peer-only for
both columns side by side.)

The peer does not search a layout, so it is given each run's published one, and kb's MFU 0.40 as its
flops_efficiency; a second column gives it the run's own published throughput (a figure kb is not given).
llm-analysis 0.2.2 counts an MLP of two matrices even with mlp_gated_linear_units (293.8B parameters for Llama 3.1
405B), and models neither MLA nor DeepSeek's MoE, so DeepSeek-V3 has no peer figure.
Measured (LLaMA-1): kb 1.14× / 1.24× (1.09× / 1.22× before issue 37 counted causal attention FLOPs), llm-analysis
1.54× / 1.64× of the published 82,432 / 1,022,362 A100-hours.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

CASES = (  # (what, kb preset, llm-analysis model, tokens, published A100-hours, kb pins, peer layout)
    ("LLaMA-1 7B", "llama-2-7b", "decapoda-research_llama-7b-hf", 1e12, 82_432, {}, {"tp_size": 1}),
    ("LLaMA-1 65B", "llama-65b", "decapoda-research_llama-65b-hf", 1.4e12, 1_022_362, {"zero": 3}, {"tp_size": 8}),
)

# The published runs (benchmarks/fit_accuracy.py has kb's side): the shape as a config llm-analysis reads, the
# published layout, the published throughput as a fraction of the peer's dense 16-bit peak, and the published
# figure (GPU-hours, or days for Megatron's 1T estimate).
RUNS: tuple[dict[str, Any], ...] = (
    dict(what="Llama 3.1 405B", published=30.84e6, unit="GPU-hours", gpu="h100-sxm-80gb", gpus=16384,
         config=dict(num_layers=126, n_head=128, num_key_value_heads=8, hidden_dim=16384, vocab_size=128256,
                     expansion_ratio=3.25, max_seq_len=8192, model_type="llama"),
         seq_len=8192, global_batch=2048, tokens=15.6e12, layout=dict(tp_size=8, pp_size=16), recompute=0,
         gated=True, own=400 / 989),  # Llama 3 paper table 4: 400 TFLOP/s a GPU on 16,384 H100s
    dict(what="DeepSeek-V3", published=2.788e6, unit="GPU-hours", gpu=None),  # MLA + MoE: not modelled by 0.2.2
    dict(what="BLOOM 176B", published=1_082_990, unit="GPU-hours", gpu="a100-sxm-80gb", gpus=384,
         config=dict(num_layers=70, n_head=112, hidden_dim=14336, vocab_size=250880, ffn_embed_dim=57344,
                     max_seq_len=2048),
         seq_len=2048, global_batch=2048, tokens=366e9, layout=dict(tp_size=4, pp_size=12, batch_size_per_gpu=2),
         recompute=2, gated=False, own=156 / 312),  # BLOOM paper §3.4: 156 TFLOP/s, counting recomputation
    dict(what="Megatron-LM 1T", published=84, unit="days", gpu="a100-sxm-80gb", gpus=3072,
         config=dict(num_layers=128, n_head=160, hidden_dim=25600, vocab_size=51200, ffn_embed_dim=102400,
                     max_seq_len=2048),
         seq_len=2048, global_batch=3072, tokens=450e9, layout=dict(tp_size=8, pp_size=64), recompute=2,
         gated=False, own=163 / 312),  # Narayanan et al. 2021 table 1: 163 TFLOP/s (52 % of peak)
    dict(what="Llama 2 70B", published=1_720_320, unit="GPU-hours", gpu="a100-sxm-80gb", gpus=2048,
         config=dict(num_layers=80, n_head=64, num_key_value_heads=8, hidden_dim=8192, vocab_size=32000,
                     expansion_ratio=3.5, max_seq_len=4096, model_type="llama"),
         seq_len=4096, global_batch=1024, tokens=2e12, layout=dict(tp_size=8, pp_size=4), recompute=0,
         gated=True, own=None),  # Meta published no throughput
)


def peer_run(run: dict[str, Any], efficiency: float, folder: Path) -> float | None:
    """llm-analysis's figure for one run at `efficiency` (days for a figure published in days, else GPU-hours)."""
    from llm_analysis.analysis import train

    if run["gpu"] is None:
        return None
    path = folder / f"{run['what'].replace(' ', '_')}.json"
    path.write_text(json.dumps({"name": path.stem, **run["config"]}))
    layout = dict(run["layout"])
    layout.setdefault("batch_size_per_gpu", 1)
    s = train(model_name=str(path), gpu_name=run["gpu"], total_num_gpus=run["gpus"], seq_len=run["seq_len"],
              global_batch_size=run["global_batch"], total_num_tokens=int(run["tokens"]), flops_efficiency=efficiency,
              activation_recomputation=run["recompute"], ds_zero=1, mlp_gated_linear_units=run["gated"],
              log_level="ERROR", **layout)
    seconds = s["total_training_latency"]
    return seconds / 86400 if run["unit"] == "days" else seconds / 3600 * run["gpus"]


def _cell(x: float | None, published: float) -> str:
    return f"{x:>12,.0f} {x / published:>6.2f}" if x is not None else f"{'—':>12} {'—':>6}"


def peer_table() -> None:
    """The peer's figures for the published runs, at kb's MFU 0.40 and at each run's own throughput."""
    print(f"{'run':<16} {'published':>12} {'peer@0.40':>12} {'ratio':>6} {'peer@own':>12} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for run in RUNS:
            at40 = peer_run(run, 0.40, Path(tmp))
            own = peer_run(run, run["own"], Path(tmp)) if run.get("own") else None
            pub = run["published"]
            print(f"{run['what']:<16} {pub:>12,.0f} {_cell(at40, pub)} {_cell(own, pub)}")


def main() -> None:
    try:
        from llm_analysis.analysis import train
    except ImportError:
        raise SystemExit("llm-analysis is not installed: pip install llm-analysis (see the docstring)") from None
    if "--peer-only" in sys.argv[1:]:
        peer_table()
        return
    from benchmarks.fit_accuracy import _cluster_hours

    print(f"{'case':<12} {'published':>10} {'kb':>10} {'kb/pub':>7} {'peer':>10} {'peer/pub':>8}")
    for what, preset, peer_name, tokens, published, pins, layout in CASES:
        kb = _cluster_hours(preset, "a100-80gb", 2048, tokens, **pins)
        s = train(model_name=peer_name, gpu_name="a100-sxm-80gb", total_num_gpus=2048, seq_len=2048,
                  batch_size_per_gpu=1, global_batch_size=2048, total_num_tokens=int(tokens), flops_efficiency=0.40,
                  activation_recomputation=2, ds_zero=1, pp_size=1, log_level="ERROR", **layout)
        peer = s["total_training_latency"] / 3600 * 2048
        print(f"{what:<12} {published:>10,} {kb:>10,.0f} {kb / published:>7.2f} {peer:>10,.0f} "
              f"{peer / published:>8.2f}")
    print()
    peer_table()


if __name__ == "__main__":
    main()
