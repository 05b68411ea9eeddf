"""kb beside a peer estimator, llm-analysis (cli99/llm-analysis), on the LLaMA-1 GPU-hours cases.

    .venv/bin/pip install llm-analysis        # optional, not a kb dependency (it pins transformers < 5:
    .venv/bin/pip install "transformers==5.24.0"   # put kb's back afterwards; llm-analysis still runs)
    .venv/bin/python -m benchmarks.peer_llm_analysis

Same cases, same MFU 0.40, 2,048 A100-80GB, 2,048-token sequences, 4M-token batches; the peer is given the layout
by hand (it does not search one): ZeRO-1 data parallel for 7B, TP 8 + ZeRO-1 for 65B, full recomputation.
Measured: kb 1.09× / 1.22×, llm-analysis 1.54× / 1.64× of the published 82,432 / 1,022,362 A100-hours.
"""

from __future__ import annotations

from benchmarks.fit_accuracy import _cluster_hours

CASES = (  # (what, kb preset, llm-analysis model, tokens, published A100-hours, kb pins, peer layout)
    ("LLaMA-1 7B", "llama-2-7b", "decapoda-research_llama-7b-hf", 1e12, 82_432, {}, {"tp_size": 1}),
    ("LLaMA-1 65B", "llama-65b", "decapoda-research_llama-65b-hf", 1.4e12, 1_022_362, {"zero": 3}, {"tp_size": 8}),
)


def main() -> None:
    try:
        from llm_analysis.analysis import train
    except ImportError:
        raise SystemExit("llm-analysis is not installed: .venv/bin/pip install llm-analysis") from None
    print(f"{'case':<12} {'published':>10} {'kb':>10} {'kb/pub':>7} {'peer':>10} {'peer/pub':>8}")
    for what, preset, peer_name, tokens, published, pins, layout in CASES:
        kb = _cluster_hours(preset, "a100-80gb", 2048, tokens, **pins)
        s = train(model_name=peer_name, gpu_name="a100-sxm-80gb", total_num_gpus=2048, seq_len=2048,
                  batch_size_per_gpu=1, global_batch_size=2048, total_num_tokens=int(tokens), flops_efficiency=0.40,
                  activation_recomputation=2, ds_zero=1, pp_size=1, log_level="ERROR", **layout)
        peer = s["total_training_latency"] / 3600 * 2048
        print(f"{what:<12} {published:>10,} {kb:>10,.0f} {kb / published:>7.2f} {peer:>10,.0f} "
              f"{peer / published:>8.2f}")


if __name__ == "__main__":
    main()
