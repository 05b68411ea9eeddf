"""`kb fit`: one fit check from explicit options, printed for people or as FitResult JSON.

Thin by design: parse options, run one FitEngine check, print. The CLI is a front end, so this is where
kb's settings are read (from the environment) and handed to the FitEngine explicitly. Bad input of any
kind (an unknown GPU, --count 0,
a value click cannot even convert) ends with one line on stderr that lists what is accepted, exit 2.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from kb.errors import BadInput
from kb.fit.engine import FitEngine
from kb.fit.render import render_fit_text
from kb.fit.request import ACCEPTED, parse_request
from kb.language import Language


def parse_schedule(text: str) -> list[dict[str, float | int | None]]:
    """"2.87e12:8388608,:16777216" → [{until_tokens: 2.87e12, batch_tokens: 8388608}, {…: None, …}]; BadInput else."""
    phases: list[dict[str, float | int | None]] = []
    for part in text.split(","):
        until, sep, batch = part.strip().partition(":")
        try:
            phases.append({"until_tokens": float(until) if until.strip() else None, "batch_tokens": int(float(batch))})
        except ValueError:
            raise BadInput(f"batch-schedule {text!r} is not accepted; accepted: UNTIL:BATCH_TOKENS phases, e.g. "
                           "2.87e12:8388608,:16777216", field="batch_schedule") from None
        if not sep:
            raise BadInput(f"batch-schedule {text!r} is not accepted; accepted: UNTIL:BATCH_TOKENS phases, e.g. "
                           "2.87e12:8388608,:16777216", field="batch_schedule")
    return phases


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


class _OneLineErrors(click.Command):
    """Click's own parse errors (--count abc, a missing --gpu) as one line and exit 2, like ours."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            param = getattr(e, "param", None)
            name = getattr(param, "name", None) or ""
            accepted = f"; accepted: {ACCEPTED[name]}" if name in ACCEPTED else "; see `kb fit --help`"
            _fail(e.format_message().replace("\n", " ").rstrip(".") + accepted)


@click.command("fit", cls=_OneLineErrors)
@click.option("--model", default="", help="preset (llama-2-7b …) or size (7b, 13B, 6.7e9); or use --config")
@click.option("--config", "config_path", default=None, help="a Hugging Face config.json instead of --model (offline)")
@click.option("--workload", required=True, help="inference, full, lora or qlora")
@click.option("--gpu", required=True,
              help="a100-40gb, a100-80gb, h100-sxm, rtx-4090, rtx-4080, … (an error lists them all); any other "
                   "card's name with --vram-gib")
@click.option("--count", type=int, default=1, show_default=True, help="GPUs of that kind (up to 65,536)")
@click.option("--precision", default=None,
              help="fp32, bf16, fp16, fp8, int8, int4, nf4, fp4, mxfp4, nvfp4 (default: the model's release format "
                   "for inference)")
@click.option("--seq-len", type=int, default=None, help="tokens of context (default 4096 inference, 2048 training)")
@click.option("--batch", type=int, default=1, show_default=True, help="sequences at once (training: a GPU)")
@click.option("--zero", type=int, default=None, help="pin the ZeRO stage 0-3 for full training (default: searched)")
@click.option("--tp", type=int, default=None, help="pin tensor parallelism (inside a node)")
@click.option("--pp", type=int, default=None, help="pin pipeline parallelism (stages)")
@click.option("--inter-node-gbps", type=float, default=None,
              help="network between nodes, Gb/s a GPU (default 400: InfiniBand NDR / 400G RoCE)")
@click.option("--global-batch-tokens", type=int, default=None,
              help="training tokens an optimizer step (default 4,194,304, raised to fill every data-parallel rank)")
@click.option("--tokens", type=float, default=None, help="training tokens, for time and cost (e.g. 2e12)")
@click.option("--vram-gib", type=float, default=None,
              help="the card's capacity in GiB: overrides a record's, or states a card kb has no record of")
@click.option("--checkpointing/--no-checkpointing", default=None, help="activation checkpointing (default on)")
@click.option("--lora-rank", type=int, default=64, show_default=True, help="LoRA/QLoRA adapter rank")
@click.option("--concurrency", type=int, default=None,
              help="inference: sequences served at once, each up to --seq-len tokens (a serving estimate)")
@click.option("--offload/--no-offload", default=False,
              help="full training: optimizer states and gradients on the host (DeepSpeed ZeRO-Offload)")
@click.option("--offload-params", is_flag=True, default=False,
              help="full training: the parameters offloaded too (ZeRO-3 offload_param; implies --offload)")
@click.option("--offload-device", type=click.Choice(["cpu", "nvme"]), default="cpu", show_default=True,
              help="where offloaded states go: host memory, or NVMe (ZeRO-Infinity)")
@click.option("--host-memory-gib", type=float, default=None,
              help="host (CPU) memory a node, GiB: checked against what offload needs there")
@click.option("--batch-schedule", default=None,
              help="a run's batch schedule, UNTIL:BATCH_TOKENS phases, the last UNTIL empty "
                   "(e.g. 2.87e12:8388608,:16777216)")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="en", show_default=True,
              help="labels, assumptions and working")
@click.option("--json", "as_json", is_flag=True, help="print the FitResult as JSON")
def fit(lang: Language, as_json: bool, config_path: str | None, **options: Any) -> None:
    """Check whether a model fits a GPU for a workload: memory by term, layout, speed, cost, and the working."""
    from kb.fit.config import load_config
    from kb.settings import Settings

    try:
        if config_path:
            options["config"] = load_config(config_path)
        if options.get("batch_schedule") is not None:
            options["batch_schedule"] = parse_schedule(options["batch_schedule"])
        result = FitEngine.from_settings(Settings()).check(parse_request(**options), language=lang)
    except BadInput as e:
        _fail(str(e))
    click.echo(result.model_dump_json(indent=2) if as_json else render_fit_text(result, lang))
