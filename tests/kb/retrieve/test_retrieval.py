"""Retrieval quality, held to the bar on the starter dev set and on kb's own labelled set."""

from __future__ import annotations

import pytest

from kb.engine import Engine
from kb.evaluation.retrieval import evaluate, load_questions
from kb.retrieve.search import SearchConfig
from tests.support.paths import DEV, EVAL

SETS = {
    "dev": DEV / "questions.jsonl",
    "own": EVAL / "questions.jsonl",
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_hybrid_meets_the_bar_and_beats_e5_alone(engine: Engine, name: str) -> None:
    questions = load_questions(SETS[name])
    hybrid = evaluate(engine, questions)["all"]
    assert hybrid["recall@5"] >= 0.95, hybrid
    assert hybrid["mrr"] >= 0.85, hybrid
    alone = SearchConfig(dense_weight={"zh": 1.0, "en": 1.0}, record_prior=1.0, use_glossary=False)
    e5 = evaluate(engine, questions, alone)["all"]
    assert hybrid["recall@5"] > e5["recall@5"] and hybrid["mrr"] > e5["mrr"], (hybrid, e5)
    assert engine.searcher.config == SearchConfig()  # evaluating another configuration left the engine's alone


def test_a_search_configuration_is_frozen() -> None:
    import dataclasses

    config = SearchConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.record_prior = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.dense_weight["zh"] = 1.0  # type: ignore[index]
    assert config.but(record_prior=1.0).record_prior == 1.0 and config.record_prior != 1.0


def test_own_set_covers_every_chapter_in_both_languages() -> None:
    qs = load_questions(SETS["own"])
    assert len(qs) >= 60
    chapters = {r.split(".")[0] for q in qs for r in q.rel}
    assert chapters == {str(n) for n in range(1, 14)}
    english = sum(q.language == "en" for q in qs)
    assert 0.4 <= english / len(qs) <= 0.6


def test_english_and_chinese_questions_reach_the_same_passage(engine: Engine) -> None:
    zh = engine.search("RTX 4090 的显存带宽是多少？", 3)
    en = engine.search("What is the memory bandwidth of the RTX 4090?", 3)
    assert zh[0].section == en[0].section == "4.2"


def test_chat_style_questions_reach_the_passage_about_what_they_ask(engine: Engine) -> None:
    """The blind dev half (chat style, written before kb answered it): the Query's focus holds recall@5 ≥ 0.95
    there, and without it (the same questions, no focus terms, no framing prior) retrieval is worse."""
    questions = load_questions(EVAL / "blind_dev.jsonl")
    hybrid = evaluate(engine, questions)["all"]
    assert hybrid["recall@5"] >= 0.95 and hybrid["mrr"] >= 0.84, hybrid
    plain = evaluate(engine, questions, SearchConfig(use_focus=False))["all"]
    assert plain["recall@5"] < hybrid["recall@5"] and plain["mrr"] < hybrid["mrr"], (plain, hybrid)


def test_what_is_and_why_questions_reach_the_concept_records(engine: Engine) -> None:
    """tests/eval/concepts.jsonl (48 what-is / why questions, zh and en, written before kb answered them): the
    concept records hold recall@5 ≥ 0.9 overall (0.958 when written; 0.167 before the records existed). With twenty
    more cards' records beside them (issue 37) the Chinese half measured 0.875 (21 of 24) and the English 1.0: each
    language is held at 0.85 until the records' Chinese aliases win those three back."""
    metrics = evaluate(engine, load_questions(EVAL / "concepts.jsonl"))
    assert metrics["all"]["recall@5"] >= 0.9 and metrics["all"]["mrr"] >= 0.75, metrics["all"]
    assert metrics["zh"]["recall@5"] >= 0.85 and metrics["en"]["recall@5"] >= 0.9, metrics


@pytest.mark.parametrize(("question", "record"), [
    ("张量并行是什么意思", "concept-tensor-parallelism"),
    ("TP vs PP on pcie-only cards", "concept-pipeline-parallelism"),
    ("分页注意力怎么省显存", "concept-paged-attention"),
    ("what's NVFP4", "concept-fp4"),
    ("梯度检查点会慢多少", "concept-activation-checkpointing"),
    ("what does time to first token measure", "concept-prefill-decode"),
    ("sm_89 是哪代卡", "concept-compute-capability"),
])
def test_a_concept_is_found_by_any_of_its_names(engine: Engine, question: str, record: str) -> None:
    """The records' aliases and the glossary's rows: a term written either way, in either language, finds it."""
    groups = [engine.searcher.index.rows[engine.searcher.index.row_of[p.id]].group for p in engine.search(question, 5)]
    assert record in groups, groups


@pytest.mark.parametrize("question", [
    "寒武纪 mlu370 能不能替代 a100 做训练", "how does a google tpu v5e compare for inference",
    "mi250x memory and bandwidth?"])
def test_another_makers_card_kb_lacks_finds_the_guides_section_on_other_makers(engine: Engine, question: str) -> None:
    assert "10.2" in [p.section for p in engine.search(question, 3)]


@pytest.mark.parametrize(("question", "section"), [
    ("grad student, tight budget, want to tinker with local llms - which gpu", "11.4"),
    ("独立开发者 给客户做项目 想买一张卡 推荐哪张", "11.4"),
    ("a low-power kiosk box for a small model, which card", "11.2"),
])
def test_a_pick_for_one_person_or_a_setting_finds_the_guides_advice_for_it(engine: Engine, question: str,
                                                                           section: str) -> None:
    assert section in [p.section for p in engine.search(question, 3)]


@pytest.mark.parametrize(("question", "section"), [
    ("cerebras wse-3 vs a100 cluster for training", "10.3"),  # a specialised accelerator: §10.3
    ("gb200 nvl72: hbm per gpu?", "10.1"),  # NVIDIA's next generation: §10.1
    ("rtx a5000 24gb for 13b inference?", "4.1"),  # another RTX card: the RTX series' own section
])
def test_a_card_kb_lacks_finds_the_section_that_speaks_of_its_kind(engine: Engine, question: str,
                                                                   section: str) -> None:
    assert section in [p.section for p in engine.search(question, 3)]
