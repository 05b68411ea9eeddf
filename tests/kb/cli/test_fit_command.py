"""`kb fit` through click's runner: JSON with every contract key, text for people, exit 2 on bad input."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from kb.cli.fit import fit
from kb.fit.render import render_fit_text, render_selection_text
from tests.support.fit_engine_helpers import fit_checks_for_question
from tests.support.paths import REPO
from tools.corpus_tables.tables import TABLES, render_table

# The keys kb's contract requires of a FitResult (docs/api.md).
FIT_KEYS = {"gpu", "gpu_count", "model_params", "workload", "fits", "per_gpu_required_bytes",
            "per_gpu_available_bytes", "min_gpus", "breakdown", "assumptions", "steps"}
BREAKDOWN_KEYS = {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}
BASE = ["--model", "7b", "--workload", "inference", "--gpu", "rtx-4090"]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(fit, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_json_has_every_contract_key() -> None:
    code, out, _ = run(*BASE, "--precision", "fp16", "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) >= FIT_KEYS and set(doc["breakdown"]) >= BREAKDOWN_KEYS
    assert all(isinstance(v, int) for v in doc["breakdown"].values())
    assert doc["fits"] is True and doc["citations"]


def test_text_output_shows_verdict_table_and_steps() -> None:
    code, out, _ = run("--model", "llama-2-70b", "--workload", "inference", "--gpu", "a100-80gb", "--count", "2")
    assert code == 0
    assert "→ fits" in out and "weights" in out and "KV cache" in out and "Working:" in out
    code, out, _ = run("--model", "7b", "--workload", "full", "--gpu", "rtx-4090", "--lang", "zh")
    assert code == 0 and "放不下" in out and "计算步骤" in out


@pytest.mark.parametrize(("args", "accepted"), [
    (["--count", "0"], "1 to 65536"),
    (["--model", "-7b"], "preset"),
    (["--model", "100000b"], "preset"),
    (["--gpu", "rtx-2080-ti"], "rtx-4090"),
    (["--model", "llama-9"], "llama-2-7b"),
    (["--workload", "full", "--zero", "5"], "0, 1, 2 or 3"),
    (["--count", "abc"], "1 to 65536"),
    (["--precision", "fp9"], "fp32, bf16"),
    (["--tokens", "nan"], "positive"),
    (["--gpu", "v100-32gb", "--precision", "bf16"], "instead: fp16"),  # a format the card cannot compute
    (["--gpu", "t4", "--precision", "fp8"], "instead: int8, int4"),
    (["--gpu", "RTX 2080 Ti"], "needs 18.1 GiB a card"),  # a card kb has no record of, no memory stated
    (["--workload", "full", "--batch-schedule", "8388608"], "UNTIL:BATCH_TOKENS"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], accepted: str) -> None:
    opts = dict(zip(BASE[::2], BASE[1::2], strict=True))
    opts.update(dict(zip(args[::2], args[1::2], strict=True)))
    code, out, err = run(*[x for kv in opts.items() for x in kv])
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "accepted" in lines[0] and accepted in lines[0]
    assert "Traceback" not in err


def test_a_stated_card_offload_and_a_batch_schedule_from_the_command_line() -> None:
    code, out, _ = run("--model", "7b", "--workload", "inference", "--gpu", "RTX 2080 Ti", "--vram-gib", "11",
                       "--precision", "int4")
    assert code == 0 and "RTX 2080 Ti" in out and "→ fits" in out and "unknown" in out and "Sources" not in out
    code, _, err = run(*BASE[:2], "--workload", "full", "--gpu", "a100-80gb", "--zero", "2", "--offload-params")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "ZeRO stage 3" in err
    code, out, _ = run("--model", "qwen2.5-72b", "--workload", "full", "--gpu", "a100-80gb", "--count", "8",
                       "--zero", "3", "--offload", "--offload-params", "--host-memory-gib", "1024")
    assert code == 0 and "→ does not fit" in out and "1,828.2 GiB of host memory a node against 1,024 GiB" in out
    code, out, _ = run("--model", "llama-3.1-405b", "--workload", "full", "--gpu", "h100-sxm", "--count", "16384",
                       "--tokens", "15.6e12", "--seq-len", "8192",
                       "--batch-schedule", "252e6:4194304,2.87e12:8388608,:16777216", "--json")
    assert code == 0 and 0.75 < json.loads(out)["train_gpu_hours"] / 30.84e6 < 1.25
    code, out, _ = run("--model", "Qwen2.5-72B-Instruct-AWQ", "--workload", "inference", "--gpu", "a100-80gb",
                       "--json")
    assert code == 0 and json.loads(out)["precision"] == "int4"


def test_missing_option_is_one_line_too() -> None:
    code, _, err = run("--workload", "inference", "--gpu", "rtx-4090")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_renderers_in_both_languages() -> None:
    checks, sel = fit_checks_for_question("50万预算做7B推理，选哪种卡？", "zh")
    assert sel is not None
    zh = render_selection_text(sel, "zh")
    assert "按速度" in zh and "guide-11.3" in zh
    en = render_selection_text(sel, "en")
    assert "by speed" in en and "rtx-4090" in en
    text = render_fit_text(checks[0], "en")
    assert "nan" not in text.lower() and not any(math.isnan(x) for x in [checks[0].decode_tokens_per_s or 0])


@pytest.mark.parametrize("table_id", list(TABLES))
def test_committed_tables_equal_the_generator(table_id: str) -> None:
    committed = (REPO / "corpus" / "tables" / f"{table_id}.md").read_text(encoding="utf-8")
    assert committed == render_table(table_id), "run: python -m tools.corpus_tables.tables"
