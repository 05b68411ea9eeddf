"""The web page's words (service/web/static): its labels, hints and messages in both languages.

Served to the page as the ES module /web/words.js (service/routes/web.py), which the page imports before it
asks anything; `{name}` in an entry is filled by the page (i18n.js `tf`), as `say` fills the other entries.
"""

from __future__ import annotations

from typing import Any

from kb.words.catalog.fit import FIT
from kb.words.catalog.labels import GUIDE_LINES, ORIGINS, WORKLOAD_IDS

_LINKS = [k.removeprefix("link.") for k in FIT if k.startswith("link.")]

PAGE: dict[str, dict[str, Any]] = {
    "en": {
        "title": "Which GPUs for LLM work",
        "subtitle": "Answers from one guide, with its passages and the arithmetic.", "skip": "Skip to the answer",
        "switchTo": "中文", "switchLabel": "中文界面", "keyLabel": "API key", "keySave": "Use this key",
        "keyHint": "Kept only in this tab (session storage) and sent as Authorization: Bearer.",
        "keyNeeded": "This server needs an API key.", "askLabel": "Your question (Chinese or English)", "ask": "Ask",
        "examples": "Try:", "asking": "Asking…", "newQuestion": "New question", "turns": "This conversation",
        "readAs": "read as", "carried": "from earlier", "changed": "changed", "answer": "Answer",
        "passages": "Passages", "apiDocs": "HTTP API (OpenAPI)", "covAnswered": "Answered from the guide",
        "covPartial": "Partly covered by the guide", "covNot": "Not covered by the guide",
        "covDocuments": "Answered from a team's document", "covBoth": "Answered from a team's document and the guide",
        "flagWrong": "👎 This answer is wrong", "flagDone": "Thanks: it is listed for the team to fix.",
        "validUntil": "valid until {d}", "expiredOn": "expired on {d}", "docStatus": "Status",
        "jobQueued": "queued", "jobEmbedding": "embedding {n}/{m}", "jobReady": "ready", "jobFailed": "failed: {why}",
        "unknown": "kb has no figures for: ", "section": "Section", "source": "Source", "lines": "lines",
        "notes": "Notes", "page": "page", "row": "row", "asOf": "as of", "document": "Document", "file": "File",
        "pageAt": "page {p}", "pageRow": "page {p}, row {r}", "sheetRow": "sheet {s}, row {r}",
        "lineRange": "lines {a}–{b}", "documents": "Teams' documents",
        "documentsHint": ("What kb answers from besides the guide (from "
                "2025), with the date each one's figures hold for."),
        "noDocuments": "No documents added: kb answers from the guide alone.", "docTitle": "Title",
        "docFile": "File", "docAsOf": "As of", "docAsOfFrom": "Date from",
        "asOfFrom": {
            "flag": "given when added", "content": "a date in the document", "metadata": "the file's metadata",
            "added": "the day it was added",
        },
        "original": "Original (Chinese)", "rendering": "English rendering", "fitTitle": "Fit check F{i}",
        "fits": "Fits", "noFit": "Does not fit", "perGpu": "per GPU", "capacity": "capacity", "headroom": "Headroom",
        "minGpus": "Fewest GPUs that fit", "none": "none", "node": "node", "nodes": "nodes", "replicas": "replicas",
        "between": "between nodes:", "decode": "Decode (upper bound)", "prefill": "Prefill",
        "trainGpuH": "Training GPU-hours", "trainWallH": "Training wall-clock", "capex": "Cards' price",
        "energy": "Energy", "costPerM": "Cost per million tokens", "power": "Power (TDP)",
        "energyHour": "Energy per hour", "activeParams": "Active parameters", "kvPerToken": "KV cache per token",
        "serving": "Serving", "concurrency": "Concurrent sequences", "contextTokens": "Context per sequence",
        "kvCapacity": "KV cache capacity", "maxSeqs": "Most sequences at once", "aggDecode": "Aggregate decode",
        "seqDecode": "Decode per sequence", "ttft": "Time to first token",
        "working": "Working: assumptions and steps", "assumptions": "Assumptions", "steps": "Steps",
        "citations": "Cites", "alternatives": "What would fit", "altFits": "fits", "altNoFit": "does not fit",
        "tryThis": "Try changes in the what-if form",
        "chartLabel": "Memory per GPU for {model} on {gpu_count} × {gpu}: {need} needed of {cap}", "term": "Term",
        "shownOf": "{n} of {m} GPUs drawn; each holds the same share.",
        "terms": {
            "weights": "weights", "gradients": "gradients", "optimizer": "optimizer", "activations": "activations",
            "kv_cache": "KV cache", "overhead": "overhead", "required": "required",
        },
        "change": {
            "precision": "precision", "count": "GPU count", "workload": "workload", "zero": "ZeRO stage",
            "offload": "offload",
        },
        "selTitle": "Configurations within the budget", "selGpu": "GPU", "selCount": "Count",
        "selCapex": "Price (CNY)", "selDecode": "Decode tok/s", "selTrain": "Training hours",
        "selNeed": "Need / GPU", "selHave": "Has / GPU", "selReplicas": "Replicas", "selRankTime": "Rank by time",
        "selRankCost": "Rank by cost", "sortBy": "Sort by", "excluded": "Left out", "budget": "Budget",
        "whatif": "What if: check a configuration", "fModel": "Model", "fWorkload": "Workload", "fGpu": "GPU",
        "fCount": "GPUs", "fPrecision": "Precision", "fZero": "ZeRO stage", "fContext": "Context (tokens)",
        "fConcurrency": "Concurrent sequences", "fCheck": "Check", "defaultOpt": "default", "errField": "field",
        "errRequest": "request id", "retryIn": "Too many requests: retry in {s} s.",
        "retryNow": "You can ask again now.", "loading": "The index is loading; retrying in {s} s…",
        "ready": "Ready.", "failed": "The index did not load; retrying in {s} s…",
        "offline": "kb is not answering; retrying…",
        "examplesList": [
            "How much memory bandwidth does the RTX 4090 have?",
            "Can I fine-tune a 13B model with QLoRA on one RTX 4090?",
            "How many A100 80GB do I need to fully train a 70B model?",
        ],
    },
    "zh": {
        "title": "大模型该用哪种 GPU", "subtitle": "答案出自一份指南，附原文段落与计算过程。", "skip": "跳到答案",
        "switchTo": "English", "switchLabel": "English interface", "keyLabel": "API 密钥", "keySave": "使用此密钥",
        "keyHint": "只保存在本标签页（会话存储），以 Authorization: Bearer 发送。",
        "keyNeeded": "此服务需要 API 密钥。", "askLabel": "你的问题（中文或英文）", "ask": "提问",
        "examples": "试试：", "asking": "正在回答…", "newQuestion": "新问题", "turns": "本次对话",
        "readAs": "理解为", "carried": "沿用", "changed": "修改", "answer": "回答", "passages": "原文段落",
        "apiDocs": "HTTP API（OpenAPI）", "covAnswered": "指南中有答案", "covPartial": "指南只涵盖一部分",
        "covNot": "指南没有涵盖", "covDocuments": "答案出自团队文档", "covBoth": "答案出自团队文档和指南",
        "flagWrong": "👎 这个回答不对", "flagDone": "谢谢：已列出，供团队修正。", "validUntil": "有效期至 {d}",
        "expiredOn": "已于 {d} 过期", "docStatus": "状态", "jobQueued": "排队中", "jobEmbedding": "正在嵌入 {n}/{m}",
        "jobReady": "就绪", "jobFailed": "失败：{why}", "unknown": "kb 没有这些的数据：", "section": "章节",
        "source": "出处",
        "lines": "行", "notes": "注", "page": "页", "row": "行", "asOf": "日期", "document": "文档", "file": "文件",
        "pageAt": "第 {p} 页", "pageRow": "第 {p} 页第 {r} 行", "sheetRow": "工作表 {s} 第 {r} 行",
        "lineRange": "第 {a}–{b} 行", "documents": "团队文档",
        "documentsHint": "除指南（2025 年）之外 kb 引用的文档，附各自数据对应的日期。",
        "noDocuments": "还没有添加文档：kb 只依据指南回答。", "docTitle": "标题", "docFile": "文件",
        "docAsOf": "数据日期", "docAsOfFrom": "日期来源",
        "asOfFrom": {"flag": "添加时指定", "content": "文档中的日期", "metadata": "文件元数据", "added": "添加当天"},
        "original": "原文（中文）", "rendering": "英文译文", "fitTitle": "显存核算 F{i}", "fits": "放得下",
        "noFit": "放不下", "perGpu": "每卡", "capacity": "容量", "headroom": "余量", "minGpus": "最少卡数",
        "none": "无", "node": "节点", "nodes": "台", "replicas": "个副本", "between": "节点之间：",
        "decode": "解码速度（上限）", "prefill": "预填充", "trainGpuH": "训练 GPU 时", "trainWallH": "训练耗时",
        "capex": "购卡价格", "energy": "电费", "costPerM": "每百万 token 成本", "power": "功耗（TDP）",
        "energyHour": "每小时电费", "activeParams": "激活参数", "kvPerToken": "每 token 的 KV 缓存",
        "serving": "服务", "concurrency": "并发序列", "contextTokens": "每条序列的上下文",
        "kvCapacity": "KV 缓存可容纳", "maxSeqs": "最多同时序列", "aggDecode": "总解码速度",
        "seqDecode": "每条序列解码速度", "ttft": "首 token 延迟", "working": "计算过程：假设与步骤",
        "assumptions": "假设", "steps": "步骤", "citations": "引用", "alternatives": "怎样能放下",
        "altFits": "放得下", "altNoFit": "放不下", "tryThis": "在“如果”表单里改参数",
        "chartLabel": "{gpu_count} 张 {gpu} 上 {model} 的每卡显存：需要 {need}，容量 {cap}", "term": "项",
        "shownOf": "画出 {m} 张卡中的 {n} 张；每张占用相同。",
        "terms": {
            "weights": "权重", "gradients": "梯度", "optimizer": "优化器状态", "activations": "激活",
            "kv_cache": "KV 缓存", "overhead": "其他开销", "required": "需要",
        },
        "change": {"precision": "精度", "count": "卡数", "workload": "任务", "zero": "ZeRO 阶段", "offload": "卸载"},
        "selTitle": "预算内的配置", "selGpu": "GPU", "selCount": "卡数", "selCapex": "价格（元）",
        "selDecode": "解码 tok/s", "selTrain": "训练小时", "selNeed": "每卡需要", "selHave": "每卡容量",
        "selReplicas": "副本", "selRankTime": "按速度排名", "selRankCost": "按成本排名", "sortBy": "排序：",
        "excluded": "未列入", "budget": "预算", "whatif": "如果……：核算一种配置", "fModel": "模型",
        "fWorkload": "任务", "fGpu": "GPU", "fCount": "卡数", "fPrecision": "精度", "fZero": "ZeRO 阶段",
        "fContext": "上下文（token）", "fConcurrency": "并发序列", "fCheck": "核算", "defaultOpt": "默认",
        "errField": "字段", "errRequest": "请求 id", "retryIn": "请求过多：请 {s} 秒后再试。",
        "retryNow": "现在可以再问了。", "loading": "索引正在加载；{s} 秒后重试…", "ready": "已就绪。",
        "failed": "索引未能加载；{s} 秒后重试…", "offline": "kb 没有响应；正在重试…",
        "examplesList": [
            "能用一张4090 QLoRA微调13B模型吗？",
            "RTX 4090 的显存带宽是多少？",
            "50万预算做7B推理，选哪种卡？",
        ],
    },
}
for _language, _words in PAGE.items():  # names the page shows for ids in the JSON, from the one catalog
    _words["origins"] = ORIGINS[_language]
    _words["guideLines"] = GUIDE_LINES[_language]
    _words["workloads"] = {w: FIT[f"workload.{w}"][_language] for w in WORKLOAD_IDS}
    _words["links"] = {link: FIT[f"link.{link}"][_language] for link in _LINKS}
