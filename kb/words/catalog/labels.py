"""Labels of the terminal rendering (by language, whole tables) and the notes shown beside passages."""

from __future__ import annotations

from kb.words.catalog.fit import FIT

WORKLOAD_IDS = ("inference", "full", "lora", "qlora")

TERMINAL = {
    "zh": {"answer": "回答", "passages": "引用段落", "section": "章节", "lines": "行", "note": "注",
           "fit": "适配检查", "selection": "选型排序", "none": "（没有找到相关段落）", "unknown": "kb 没有记录",
           "original": "原文"},
    "en": {"answer": "Answer", "passages": "Passages", "section": "section", "lines": "lines", "note": "Note",
           "fit": "Fit checks", "selection": "Ranked configurations", "none": "(no passages found)",
           "unknown": "kb has no record for", "original": "original"},
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
        "zh": "kb 根据规格记录计算的对比表：{id}。",
        "en": "kb's table computed from the spec records: {id}.",
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

