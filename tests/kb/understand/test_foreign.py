"""kb/understand/foreign.py: a question made mostly of words the corpus never uses is about something else."""

from __future__ import annotations

from kb.understand.foreign import Vocabulary

CORPUS = ["RTX 4090 的显存带宽为 1008 GB/s，适合推理和微调。", "The A100 has 80 GB of HBM2e for training large models.",
          "案例：一家初创公司用 16 张 4090 部署推理服务，成本下降。"]
V = Vocabulary(CORPUS)


def test_words_the_corpus_never_uses_make_a_question_foreign() -> None:
    assert V.residue("买了张4090 快递盒压坏了 怎么找快递理赔").foreign
    assert V.residue("will my a100 survive the voltage spike from a lightning storm").foreign


def test_the_corpus_words_names_and_chat_words_do_not() -> None:
    assert not V.residue("4090 适合推理吗").foreign  # the corpus's own words
    assert not V.residue("a100 80g 和 h200 哪个贵 差多少钱").foreign  # names and chat words only
    assert not V.residue("is the a100 any good for training large models").foreign
    r = V.residue("4090 部署推理 显存带宽 够不够")
    assert r.unseen == () and set(r.seen) >= {"部署推理", "显存带宽"}


def test_a_run_of_unknown_characters_counts_once() -> None:
    assert V.residue("服务 淋雨淋湿").unseen == ("淋雨淋湿",)  # one thing the corpus lacks, not four


def test_english_stems_are_the_corpus_words() -> None:
    assert not V.residue("trained model").unseen  # train, model: stems of the corpus's "training", "models"
