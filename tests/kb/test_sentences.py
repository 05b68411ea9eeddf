"""Which lines of a passage may stand alone as a supporting sentence."""

from __future__ import annotations

from kb.sentences import sentences


def test_a_cases_title_line_is_no_sentence() -> None:
    zh = "案例三：边缘推理部署\n一家智能制造企业在生产线上部署了基于RTX 4060的边缘推理单元。"
    assert sentences(zh, "zh") == ["一家智能制造企业在生产线上部署了基于RTX 4060的边缘推理单元。"]
    en = "Case two: a fintech company\nA fintech company trained a 5B model on an 8-card RTX 4090 cluster."
    assert sentences(en, "en") == ["A fintech company trained a 5B model on an 8-card RTX 4090 cluster."]


def test_a_sentence_that_starts_like_a_title_but_says_something_stays() -> None:
    text = "案例二：该公司使用8卡RTX 4090集群训练5B模型，总成本仅为A100方案的15%。"
    assert sentences(text, "zh") == [text]
