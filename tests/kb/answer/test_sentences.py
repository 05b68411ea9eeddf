"""Which lines of a passage may stand alone as a supporting sentence."""

from __future__ import annotations

from kb.answer.sentences import best_sentences, sentences
from kb.models import Passage, Source


def test_a_cases_title_line_is_no_sentence() -> None:
    zh = "案例三：边缘推理部署\n一家智能制造企业在生产线上部署了基于RTX 4060的边缘推理单元。"
    assert sentences(zh, "zh") == ["一家智能制造企业在生产线上部署了基于RTX 4060的边缘推理单元。"]
    en = "Case two: a fintech company\nA fintech company trained a 5B model on an 8-card RTX 4090 cluster."
    assert sentences(en, "en") == ["A fintech company trained a 5B model on an 8-card RTX 4090 cluster."]


def test_a_sentence_that_starts_like_a_title_but_says_something_stays() -> None:
    text = "案例二：该公司使用8卡RTX 4090集群训练5B模型，总成本仅为A100方案的15%。"
    assert sentences(text, "zh") == [text]


def _passage(text: str) -> Passage:
    return Passage(id="guide-9.1", rank=1, section="9.1", heading="9.1", kind="guide", text=text, original=text,
                   score=1.0, source=Source(path="corpus/guide.md", start_line=1, end_line=2))


def test_after_an_answer_a_single_shared_character_is_no_match() -> None:
    ranked = [(1, _passage("这个团队成功地在有限预算下开展了前沿研究，甚至发表了多篇顶级会议论文。"))]
    terms = ["张", "rtx", "4090", "满载", "一", "个", "多", "少", "度", "电费"]  # "一个月电费多少", cut
    assert best_sentences(ranked, terms, "zh", 1, require_match=True) == []
    bill = "电费按显卡功耗全年满载、1.0 元每千瓦时计。"
    ranked.append((2, _passage(bill)))
    assert best_sentences(ranked, terms, "zh", 1, require_match=True) == [(2, bill)]
