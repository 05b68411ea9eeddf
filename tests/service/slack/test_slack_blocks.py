"""Answer → Block Kit: Slack's limits hold by construction, long content is trimmed with a pointer."""

from __future__ import annotations

import json
import re

from service.slack.blocks import BUTTON_VALUE, answer_blocks, answer_text, feedback_value
from service.slack.tables import code_table, fit_table, width
from service.slack.text import clip, escape, question_from_slack
from tests.support.fake_slack import block_problems, sample_answer, sample_fit


def _texts(blocks: list[dict]) -> str:
    out = []
    for b in blocks:
        if "text" in b:
            out.append(b["text"]["text"])
        out += [e.get("text", "") if isinstance(e.get("text"), str) else e["text"]["text"]
                for e in b.get("elements", [])]
    return "\n".join(out)


def test_chinese_answer_has_chinese_labels_passages_and_fit_table() -> None:
    answer = sample_answer()
    blocks = answer_blocks(answer, asked_by="U1")
    assert block_problems(blocks) == []
    text = _texts(blocks)
    assert "<@U1> 问：" in text and "*回答*" in text and "*引用段落*" in text and "*适配检查*" in text
    assert "第1点*[1]*" in text  # markers in bold, as the passage blocks label themselves
    # each passage: [n] marker, section, heading (escaped), a quoted excerpt, and where it came from
    for p in answer.passages:
        block = next(b for b in blocks if b.get("block_id") == f"kb_passage_{p.rank}")
        heading = f"{p.section} RTX 4090技术规格详解 &lt;{p.rank}&gt;"
        assert block["text"]["text"].startswith(f"*[{p.rank}]* §{p.section} {heading}\n")
        assert "\n>RTX 4090 拥有24GB" in block["text"]["text"]
    assert "指南第 10–19 行" in text and "corpus/" not in text  # where, in words: never a repository path
    assert "注: note 0 about figures &amp; &lt;units&gt;" in text
    fit = next(b for b in blocks if b.get("block_id") == "kb_fit")["text"]["text"]
    assert "llama-2-13b · QLoRA 微调 · nf4" in fit
    assert "✅ 放得下  RTX 4090×1" in fit and "❌ 放不下  A100 80GB×1" in fit
    assert "30.2/24.0" in fit and "≤45 tok/s" in fit and "¥1.3万" in fit


def test_english_answer_has_english_labels() -> None:
    blocks = answer_blocks(sample_answer("Can one RTX 4090 QLoRA-tune a 13B model?"))
    text = _texts(blocks)
    assert "Q: Can one RTX 4090" in text and "*Answer*" in text and "*Passages*" in text
    assert "✅ fits" in text and "❌ no fit" in text and "¥12,999" in text
    assert [e["text"]["text"] for e in blocks[-1]["elements"]] == ["👍 Helpful", "👎 Not helpful"]
    assert block_problems(blocks) == []


def test_over_long_answer_is_trimmed_with_a_pointer_and_stays_valid() -> None:
    answer = sample_answer(n_passages=40, n_checks=200, text_chars=20_000, answer_chars=10_000, notes=30,
                           question="长" * 3000)
    blocks = answer_blocks(answer, asked_by="U1")
    assert block_problems(blocks) == []
    assert 45 <= len(blocks) <= 50
    text = _texts(blocks)
    assert "（已截断，完整回答见 kb ask 或 API）" in next(b for b in blocks if b.get("block_id") == "kb_answer")[
        "text"]["text"]
    assert re.search(r"另有 \d+ 段未显示", text)  # passages that did not fit
    assert re.search(r"另有 \d+ 行未显示", text)  # fit rows that did not fit
    fit = next(b for b in blocks if b.get("block_id") == "kb_fit")["text"]["text"]
    assert fit.count("```") == 2, "the table's code fence is closed after trimming"
    assert len(answer_text(answer)) <= 1000


def test_button_value_fits_and_carries_question_and_passage_ids() -> None:
    answer = sample_answer("4090" * 1000, n_passages=20)
    value = feedback_value(answer)
    assert len(value) <= BUTTON_VALUE
    carried = json.loads(value)
    assert carried["p"] == [p.id for p in answer.passages] and carried["l"] == "en"
    assert answer.question.startswith(carried["q"]) and carried["q"]


def test_nothing_a_user_typed_becomes_markup() -> None:
    answer = sample_answer("<!channel> 4090 & <@U999> 显存？")
    text = _texts(answer_blocks(answer))
    assert "<!channel>" not in text and "&lt;!channel&gt; 4090 &amp; &lt;@U999&gt;" in text


def test_question_from_slack_markup() -> None:
    assert question_from_slack("<@UKB> 4090 的显存多大？", "UKB") == "4090 的显存多大？"
    assert question_from_slack("hi <@UKB|kb>, see <https://x.io|this> &amp; <https://y.io> &lt;3", "UKB") == \
        "hi , see this & https://y.io <3"
    assert question_from_slack("<@UOTHER> <!here> <#C1|general> A100?", "UKB") == "general A100?"
    assert question_from_slack(None) == ""


def test_clip_and_escape() -> None:
    assert clip("abc", 3, "…") == "abc"
    assert clip("abcdef", 4, "…") == "abc…"
    assert clip(escape("a&b&c"), 8, "…") == "a&amp;b…"  # never half an entity
    assert len(clip("x" * 5000, 3000, "…(truncated)")) == 3000


def test_tables_align_by_display_width_and_trim_rows() -> None:
    assert width("✅ 放得下") == 9 and width("abc") == 3
    text, left = code_table(["a", "b"], [["1", "2"]] * 100, 200, "…{n} more")
    assert len(text) <= 200 and left > 0 and f"…{left} more" in text and text.endswith("```")
    table = fit_table([sample_fit(), sample_fit("a100-80gb", fits=False, count=2)], "en", 3000)
    lines = table.strip("`").splitlines()
    assert lines[0].split()[0] == "verdict" and lines[1].startswith("[F1]") and lines[2].startswith("[F2]")
    # the GPU column starts at the same display column on every line, emoji and all
    assert len({width(line[: line.index(gpu)]) for line, gpu in zip(lines, ["GPU", "RTX", "A100"], strict=True)}) == 1


def test_selection_ranked_rows_or_nothing_fits_with_what_was_left_out() -> None:
    from kb.fit.result import Selection, SelectionRow

    excluded = ["a100-80gb: needs 2 cards = 300,000 CNY, over the budget", "h100-sxm: no price <anywhere>"]
    rows = [SelectionRow(gpu="rtx-4090", gpu_count=7, capex_cny=133000.0, decode_tokens_per_s=49.9, rank_by_time=1,
                         rank_by_cost=1)]
    answer = sample_answer().model_copy(update={"selection": Selection(
        workload="inference", model="70b", budget_cny=200000.0, rows=rows, excluded=excluded, guidance=[],
        assumptions=[])})
    blocks = answer_blocks(answer)
    assert block_problems(blocks) == []
    sel = next(b for b in blocks if b.get("block_id") == "kb_selection")["text"]["text"]
    assert sel.startswith("*选型排序* · 推理 · 70b · 预算 ¥20.0万\n```")
    assert "RTX 4090×7  ¥13.3万  ≤50 tok/s" in sel and "• h100-sxm: no price &lt;anywhere&gt;" in sel

    empty = answer.model_copy(update={"selection": answer.selection.model_copy(update={"rows": []})})
    sel = next(b for b in answer_blocks(empty) if b.get("block_id") == "kb_selection")["text"]["text"]
    assert "预算内没有能放下的配置。\n_未列入_:\n• a100-80gb" in sel
