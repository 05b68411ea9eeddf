"""The models people name (issue 37): every new name resolves to its preset and release format, both where a request
names it (--model, POST /v1/fit) and where a question does (the one registry of names), and a quantized release's
suffix sets the format a check runs in."""

from __future__ import annotations

import pytest

from kb.fit.families import FAMILIES, FAMILY_ALIASES, RELEASES
from kb.fit.precision import release_precision
from kb.fit.presets import PRESETS, resolve_model
from kb.fit.request import parse_request
from kb.understand.names import registry_for
from tests.support.fit_engine_helpers import check_fit
from tests.support.paths import REPO

# (what people type, the preset it names, the precision its release is in: None for a 16-bit release)
NAMES = [
    ("Qwen-7B-Chat", "qwen1-7b", None), ("Qwen-14B-Chat", "qwen1-14b", None), ("Qwen-72B-Chat", "qwen1-72b", None),
    ("Qwen-14B-Chat-Int4", "qwen-14b-chat-int4", "int4"), ("Qwen-7B-Chat-Int8", "qwen-7b-chat-int8", "int8"),
    ("Qwen-72B-Chat-Int4", "qwen-72b-chat-int4", "int4"),
    ("Qwen1.5-7B-Chat", "qwen1.5-7b", None), ("Qwen1.5-110B", "qwen1.5-110b", None),
    ("Qwen1.5-72B-Chat-AWQ", "qwen1.5-72b-chat-awq", "int4"),
    ("Qwen1.5-14B-Chat-GPTQ-Int4", "qwen1.5-14b-chat-gptq-int4", "int4"),
    ("Qwen2-72B", "qwen2-72b", None), ("Qwen2-72B-Instruct", "qwen2-72b", None),
    ("Qwen2-72B-Instruct-GPTQ-Int4", "qwen2-72b-instruct-gptq-int4", "int4"),
    ("Qwen2-7B-Instruct-AWQ", "qwen2-7b-instruct-awq", "int4"), ("Qwen2-57B-A14B", "qwen2-57b-a14b", None),
    ("Qwen2.5-0.5B-Instruct", "qwen2.5-0.5b", None),
    ("Qwen2.5-0.5B-Instruct-GPTQ-Int8", "qwen2.5-0.5b-instruct-gptq-int8", "int8"),
    ("Qwen2.5-72B-Instruct-AWQ", "qwen2.5-72b-instruct-awq", "int4"),
    ("Qwen2.5-32B-Instruct-GPTQ-Int4", "qwen2.5-32b-instruct-gptq-int4", "int4"),
    ("Qwen2.5-Coder-32B-Instruct", "qwen2.5-32b", None), ("Qwen3-4B", "qwen3-4b", None),
    ("Qwen3-0.6B", "qwen3-0.6b", None),
    ("DeepSeek R1", "deepseek-r1", "fp8"), ("deepseek 600B", "deepseek-r1", "fp8"),
    ("DeepSeek-R1-Distill-Qwen-1.5B", "r1-distill-qwen-1.5b", None),
    ("DeepSeek-R1-Distill-Qwen-32B", "qwen2.5-32b", None), ("DeepSeek-R1-Distill-Llama-70B", "llama-3.3-70b", None),
    ("deepseek r1 14b", "qwen2.5-14b", None), ("deepseek-coder-33b-instruct", "deepseek-coder-33b", None),
    ("deepseek-coder-6.7b-base", "deepseek-coder-6.7b", None), ("deepseek-llm-67b-chat", "deepseek-llm-67b", None),
    ("DeepSeek-V2-Lite-Chat", "deepseek-v2-lite", None), ("DeepSeek-V2", "deepseek-v2", None),
    ("Baichuan2-13B-Chat", "baichuan2-13b", None), ("Baichuan2-7B-Chat-4bits", "baichuan2-7b-chat-4bits", "int4"),
    ("ChatGLM3-6B", "chatglm3-6b", None), ("glm-4-9b-chat", "glm-4-9b", None), ("GLM4-9B-Chat", "glm-4-9b", None),
    ("Yi-34B-Chat", "yi-34b", None), ("Yi-1.5-6B-Chat", "yi-1.5-6b", None),
    ("internlm2-chat-20b", "internlm2-20b", None), ("internlm2-chat-20b-4bits", "internlm2-chat-20b-4bits", "int4"),
    ("internlm2_5-7b-chat", "internlm2.5-7b", None),
    ("Phi-3-mini-4k-instruct", "phi-3-mini", None), ("Phi-3-medium-4k-instruct", "phi-3-medium", None),
    ("phi-4", "phi-4", None), ("gemma-7b-it", "gemma-7b", None), ("gemma-3-27b-it", "gemma-3-27b", None),
    ("Mistral-Nemo-Instruct-2407", "mistral-nemo-12b", None), ("Mistral-Small-24B-Instruct-2501", "mistral-small-24b",
                                                                None),
    ("Llama-3.2-3B-Instruct", "llama-3.2-3b", None), ("Llama-3.3-70B", "llama-3.3-70b", None),
    ("c4ai-command-r-v01", "command-r-35b", None),
]


@pytest.mark.parametrize(("name", "preset", "precision"), NAMES)
def test_a_name_resolves_to_its_preset_and_release(name: str, preset: str, precision: str | None) -> None:
    shape = resolve_model(name)
    assert shape.name == preset and release_precision(shape.release) == precision
    found = [f for f in registry_for(REPO / "corpus").find(f"can a 4090 run {name.lower()}?") if f.kind == "model"]
    assert [f.id for f in found] == [preset], (name, found)


@pytest.mark.parametrize(("name", "precision"), [("Qwen-14B-Chat-Int4", "int4"), ("Qwen2.5-72B-Instruct-AWQ", "int4"),
                                                 ("Qwen2-7B-Instruct-GPTQ-Int8", "int8"), ("DeepSeek R1", "fp8"),
                                                 ("Qwen3-32B-FP8", "fp8")])
def test_a_quantized_release_sets_the_precision_a_check_runs_in(name: str, precision: str) -> None:
    r = check_fit(parse_request(model=name, workload="inference", gpu="h100-sxm"))
    assert r.precision == precision
    assert any("release format" in a for a in r.assumptions)
    # …and an explicit --precision still wins
    assert check_fit(parse_request(model=name, workload="inference", gpu="h100-sxm", precision="bf16")).precision == \
        "bf16"


def test_every_new_preset_and_release_is_a_preset_with_its_names() -> None:
    names = {p.name for p in FAMILIES} | {n for n, _, _ in RELEASES}
    assert names <= set(PRESETS)
    assert set(FAMILY_ALIASES) <= set(PRESETS)
    assert len(FAMILIES) >= 50 and len(RELEASES) >= 30
    for name, base, fmt in RELEASES:
        assert PRESETS[name].params == PRESETS[base].params and PRESETS[name].release == fmt


def test_a_generic_qwen_size_keeps_meaning_qwen_2_5() -> None:
    """"Qwen 7B" alone stays Qwen2.5 (kb's reading before issue 37); v1 is named by its chat name or its id."""
    assert resolve_model("qwen 7b").name == "qwen2.5-7b"
    assert resolve_model("Qwen-7B-Chat").name == "qwen1-7b" and resolve_model("qwen1-7b").name == "qwen1-7b"


def test_every_new_alias_resolves_to_its_preset_and_release_format() -> None:
    """Each name FAMILY_ALIASES adds, and each quantized release's id, resolves to its preset with its release format
    (a 16-bit release for a family name, the release's INT4/INT8 for a quantized one)."""
    for preset, aliases in FAMILY_ALIASES.items():
        for alias in aliases:
            shape = resolve_model(alias)
            assert shape.name == preset and shape.release == PRESETS[preset].release, (alias, shape.name)
    for name, base, fmt in RELEASES:
        shape = resolve_model(name)
        assert shape.name == name and shape.params == PRESETS[base].params
        assert release_precision(shape.release) == fmt
