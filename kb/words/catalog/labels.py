"""Labels of the terminal rendering (by language, whole tables) and the notes shown beside passages."""

from __future__ import annotations

from kb.words.catalog.fit import FIT

WORKLOAD_IDS = ("inference", "full", "lora", "qlora")

# What a passage is, as the page, Slack and the terminal say where it comes from (a passage's `kind`); only the
# guide's own lines are a place a reader can look up (line n is the source document's line n).
ORIGINS = {
    "zh": {"guide": "指南原文", "spec": "显卡规格（指南与厂商数据表）", "tradeoff": "据指南整理的选型要点",
           "case": "指南中的案例", "table": "kb 计算的对比表", "document": "团队文档"},
    "en": {"guide": "the guide", "spec": "card specifications (the guide and makers' datasheets)",
           "tradeoff": "a selection rule drawn from the guide", "case": "a case study from the guide",
           "table": "a table kb computed", "document": "a team's document"},
}
GUIDE_LINES = {"zh": "指南第 {a}–{b} 行", "en": "the guide, lines {a}–{b}"}
# A team document's place: its title and file, the sheet and row, page or lines, and the date its figures hold for.
DOCUMENT_PLACE = {
    "zh": {"sheet": "工作表 {sheet} 第 {row} 行", "page": "第 {page} 页", "page_row": "第 {page} 页第 {row} 行",
           "lines": "第 {a}–{b} 行", "document": "《{title}》（{file}，{place}，截至 {as_of}）"},
    "en": {"sheet": "sheet {sheet}, row {row}", "page": "page {page}", "page_row": "page {page}, row {row}",
           "lines": "lines {a}–{b}", "document": "\"{title}\" ({file}, {place}, as of {as_of})"},
}
ORIGIN_WORDS = {lang: {**ORIGINS[lang], "guide_lines": GUIDE_LINES[lang], "place": DOCUMENT_PLACE[lang]}
                for lang in ("zh", "en")}

TERMINAL = {
    "zh": {"answer": "回答", "passages": "引用段落", "section": "章节", "lines": "行", "note": "注",
           "fit": "适配检查", "selection": "选型排序", "none": "（没有找到相关段落）", "unknown": "kb 没有这些的数据",
           "original": "原文"},
    "en": {"answer": "Answer", "passages": "Passages", "section": "section", "lines": "lines", "note": "Note",
           "fit": "Fit checks", "selection": "Ranked configurations", "none": "(no passages found)",
           "unknown": "kb has no figures for", "original": "original"},
}

# The plain-text fit check and selection (kb/fit/render.py), for terminals.
FIT_TEXT = {
    "zh": {"fits": "放得下", "nofit": "放不下", "check": "显存检查", "term": "项目", "total": "合计",
           "per_gpu": "每卡", "required": "每卡需要", "available": "每卡可用", "headroom": "余量",
           "min_gpus": "最少卡数",
           "layout": "并行布局", "none": "无（单卡放不下每卡都要的部分）", "decode": "解码速度上限",
           "prefill": "预填充时间", "train": "训练时间", "capex": "显卡投入", "energy": "电费",
           "per_m": "每百万token成本", "assumptions": "假设", "steps": "计算步骤", "citations": "引用",
           "weights": "权重", "gradients": "梯度", "optimizer": "优化器状态", "activations": "激活值",
           "kv_cache": "KV缓存", "overhead": "开销余量", "selection": "选型", "budget": "预算", "gpu": "显卡",
           "count": "张数", "speed": "速度", "rank_time": "按速度", "rank_cost": "按成本", "guidance": "文档建议",
           "excluded": "未列入", "more": "另有 {n} 行见 --json", "gpu_hours": "GPU小时", "hours": "小时",
           "none_fit": "预算内没有能放下的配置", "alternative": "可行的改法", "rank_headroom": "按成本和余量",
           "workloads": {w: FIT[f"workload.{w}"]["zh"] for w in WORKLOAD_IDS}},
    "en": {"fits": "fits", "nofit": "does not fit", "check": "Fit check", "term": "term", "total": "total",
           "per_gpu": "per GPU", "required": "required per GPU", "available": "available per GPU",
           "headroom": "headroom", "min_gpus": "fewest GPUs that fit",
           "layout": "layout", "none": "none (what every GPU must hold "
           "is larger than one card)", "decode": "decode upper bound", "prefill": "prefill time",
           "train": "training time", "capex": "cards (capex)", "energy": "energy", "per_m": "cost per million tokens",
           "assumptions": "Assumptions", "steps": "Working", "citations": "Sources", "weights": "weights",
           "gradients": "gradients", "optimizer": "optimizer", "activations": "activations", "kv_cache": "KV cache",
           "overhead": "overhead", "selection": "Selection", "budget": "budget", "gpu": "GPU", "count": "count",
           "speed": "speed", "rank_time": "by speed", "rank_cost": "by cost", "guidance": "The document's guidance",
           "excluded": "Left out", "more": "{n} more rows in --json", "gpu_hours": "GPU-hours", "hours": "hours",
           "none_fit": "nothing fits within the budget", "alternative": "what would fit",
           "rank_headroom": "by cost, headroom",
           "workloads": {w: FIT[f"workload.{w}"]["en"] for w in WORKLOAD_IDS}},
}

NOTES = {
    "missing_table": {
        "zh": "原文此处提到的对比表格并未包含在文档中。",
        "en": "The document refers to a comparison table here that it does not contain.",
    },
    "table_link": {
        "zh": "kb 按各显卡的规格算出了这张表：“{title}”。",
        "en": "kb computed this table from the cards' specifications: \"{title}\".",
    },
    "table_none": {
        "zh": "kb 没有可替代它的计算表：原文未给出所需数据。",
        "en": "kb has no computed table for it: the document gives no data to build one from.",
    },
    "cited_extra": {
        "zh": "不在检索结果的前列：回答引用了它，因此附上。",
        "en": "Not among the top results: added because the answer cites it.",
    },
    "no_english": {
        "zh": "",
        "en": "kb has no English rendering of this passage yet: the text is the Chinese original.",
    },
}

