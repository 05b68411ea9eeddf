"""Exact facts read from records: a spec sheet's table rows and notes, and a case's parts.

A spec record's body is a table (metric | value | source) and a list of notes; its English rendering is
the same lines in English. The row and the notes are found on the Chinese lines (whose cells carry an
English gloss, so one pattern reads either) and shown from the lines of the question's language, so the
figure in the answer is the record's own text and verifies against the passage it cites.
"""

from __future__ import annotations

import re
from functools import lru_cache

from indexer.chunks import Chunk
from kb.language import Language
from kb.words.answer import metric_words
from kb.words.catalog import has, say

# Spec attribute (kb.understand.intent.SPEC_ATTRIBUTES) → pattern on a table row's metric cell;
# notes → pattern on a note.
ROWS: dict[str, str] = {
    "vram": r"显存容量", "memory_type": r"显存容量", "bandwidth": r"显存带宽",
    "compute": r"稠密算力|文档所写FP16", "fp32": r"FP32 算力", "tf32": r"TF32", "int8": r"INT8",
    "power": r"功耗", "nvlink": r"NVLink|卡间互连", "pcie": r"PCIe", "price": r"价格", "fp8": r"FP8 稠密",
    "tensor_cores": r"Tensor Core", "mig": r"MIG",
}
NOTES: dict[str, str] = {
    "vram": r"显存容量|容量", "bandwidth": r"带宽", "compute": r"FP16|TFLOPS|算力", "fp32": r"FP32",
    "int8": r"INT8", "power": r"功耗|W\b", "nvlink": r"NVLink|NVSwitch", "pcie": r"PCIe", "price": r"价格|售价",
    "tf32": r"TF32", "memory_type": r"HBM|GDDR", "fp8": r"FP8", "tensor_cores": r"Tensor Core", "ecc": r"ECC",
    "mig": r"MIG|多实例",
}
# Asked with sparsity ("2:4 sparsity on", "稀疏算力"): the sparse row of the same figure, where the sheet has one.
SPARSE_ROWS: dict[str, str] = {"compute": r"(?:BF16|FP16).{0,8}稀疏", "int8": r"INT8 稀疏", "fp8": r"FP8 稀疏",
                               "fp4": r"FP4 稀疏"}
MAX_NOTES = 2
NOTE_ONLY = {"ecc"}  # asked of a card, said by its record's notes: no table row holds it
_GLOSS = re.compile(r"\s*\[[^\]]*\]")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def aligned(chunk: Chunk, language: Language) -> tuple[tuple[str, str], ...]:
    """(Chinese line, shown line) pairs; the shown line is the English one for en when the rendering aligns."""
    return aligned_text(chunk.text, chunk.text_en, language)


@lru_cache(maxsize=1024)
def aligned_text(text: str, text_en: str, language: Language) -> tuple[tuple[str, str], ...]:
    """`aligned`, remembered by the texts: a spec record's lines are split and stripped of their glosses for every
    attribute asked and every correction a sentence triggers, in every answer that cites the record."""
    zh = text.split("\n")
    if language != "en":
        return tuple((z, _GLOSS.sub("", z)) for z in zh)
    en = text_en.split("\n")
    return tuple(zip(zh, en, strict=True)) if len(en) == len(zh) else ()


def spec_facts(parts: list[Chunk], gpu: str, attributes: list[str],
               language: Language, sparse: bool = False) -> list[tuple[Chunk, str]]:
    """(chunk, sentence) for each asked attribute's table rows, then up to MAX_NOTES matching notes; `sparse` takes
    a figure's sparse row instead of its dense one where the sheet has one (a dense row still answers otherwise)."""
    rows: list[tuple[Chunk, str]] = []
    notes: list[tuple[Chunk, str]] = []
    seen: set[str] = set()
    no_link = False
    if "role" in attributes:
        rows += [(chunk, say("spec_role", language, gpu=gpu, role=role)) for chunk in parts[:1]
                 for role in [_role(chunk, language)] if role]
    for attr in attributes:
        row_p, note_p = ROWS.get(attr), NOTES.get(attr)
        sparse_p = SPARSE_ROWS.get(attr) if sparse else None
        if sparse_p and any(zh.startswith("|") and re.search(sparse_p, _cells(zh)[0])
                            for chunk in parts for zh, _ in aligned(chunk, language)):
            row_p = sparse_p
        for chunk in parts:
            for zh, shown in aligned(chunk, language):
                if row_p and zh.startswith("|") and re.search(row_p, _cells(zh)[0]) and shown not in seen:
                    cells = _cells(shown)
                    if len(cells) >= 3 and not set(cells[1]) <= set("-: "):
                        seen.add(shown)
                        written = f"source.{_cells(zh)[2].split(' ')[0]}"
                        source = say(written, language) if has(written) else cells[2]
                        if attr == "nvlink" and re.match(r"0\s*GB/s|none$|无$", cells[1].strip()):
                            if not no_link:  # a link of 0 GB/s, or of kind "none", is no link: said once
                                rows.append((chunk, say("spec_no_link", language, gpu=gpu, source=source)))
                            no_link = True
                            continue
                        template = "spec_row" if re.match(r"[\d~≈约]", cells[1]) else "spec_row_words"
                        rows.append((chunk, say(template, language, gpu=gpu, value=cells[1], source=source,
                                              **metric_words(_GLOSS.sub("", cells[0]), language))))
                elif note_p and zh.lstrip().startswith("- ") and re.search(note_p, zh) and shown not in seen:
                    seen.add(shown)
                    notes.append((chunk, say("spec_note", language, note=shown.lstrip()[2:].strip())))
    if not rows and not set(attributes) & NOTE_ONLY:
        return []  # a note about a figure the sheet lacks would answer something else
    return rows + notes[:MAX_NOTES]


def _role(chunk: Chunk, language: Language) -> str | None:
    """What the card is, as its record's opening line says it ("数据中心低功耗PCIe推理卡，Ada架构，无NVLink"): the
    first sentence of the first line that is neither a heading, a table row nor a note."""
    for zh, shown in aligned(chunk, language):
        if zh.strip() and not zh.lstrip().startswith(("#", "|", "-", "注")):
            first = re.split(r"(?<=\.)\s" if language == "en" else r"。", shown.strip(), maxsplit=1)[0]
            return first.rstrip(".。")
    return None


_QUOTED = re.compile(r"^- 文档“([^”]+)”")
_FIGURE = re.compile(r"(\d+(?:\.\d+)?)\s*([A-Za-z/]+|个)")


# A tradeoff's note on a phrase of the guide: '- 注（"减少4倍"/ 4× smaller）：…' (the phrase in Chinese, then English).
_NOTED = re.compile(r'^- 注（"([^"]+)"(?:/\s*([^）]+))?[^）]*）')


def _triggers(chunk: Chunk) -> list[tuple[re.Pattern[str], int]]:
    """(pattern of the misleading figure, line index of its note) for each note that corrects a quoted figure."""
    out = []
    for i, line in enumerate(chunk.text.split("\n")):
        if chunk.kind != "spec":  # a tradeoff's note: its Chinese phrase, and its English one's "4×" as "4x"/"4×"
            if (noted := _NOTED.match(line.strip())) and noted.group(2):
                out.append((re.compile(re.escape(noted.group(1))), i))
                if fig := re.match(r"(\d+(?:\.\d+)?)\s*×\s*(\w+)?", noted.group(2).strip()):
                    out.append((re.compile(rf"(?<![\d.]){re.escape(fig.group(1))}\s*[x×](?![a-z0-9])", re.I), i))
            continue
        m = _QUOTED.match(line.strip())
        if not m:
            continue
        fig = _FIGURE.search(m.group(1))
        word = re.search(r"[A-Za-z]{4,}", m.group(1))
        if fig and fig.group(2) == "个":  # a count ("640个"), which English writes bare ("Tensor Cores: 640 (")
            out.append((re.compile(rf"(?<![\d.]){re.escape(fig.group(1))}(?:\s*个|(?![\d.])(?!\s*[A-Za-z]))"), i))
        elif fig:
            out.append((re.compile(rf"(?<![\d.]){re.escape(fig.group(1))}\s*{re.escape(fig.group(2))}", re.I), i))
        elif word:
            out.append((re.compile(re.escape(word.group(0)), re.I), i))
    return out


def _note_body(line: str) -> str:
    """A note's line without its bullet and, for a tradeoff's, its '注（"…"）：' / 'Note (…):' heading."""
    body = line.lstrip()[2:].strip()
    return re.sub(r"^(?:注|Note)\s*[（(][^）)]*[）)]\s*[：:]\s*", "", body)


class Corrections:
    """The spec records' and tradeoffs' notes that correct what a sentence repeats from the guide (330 TFLOPS,
    NVSwitch, "INT8 shrinks a model 4×")."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self._chunks = chunks
        self._triggers = [(chunk, pattern, i) for chunk in chunks for pattern, i in _triggers(chunk)]

    def noted(self, phrase: str, language: Language) -> list[tuple[Chunk, str]]:
        """The note on a phrase of the guide that kb quotes in its own words (a §11 rule), by the phrase."""
        out = []
        for chunk in self._chunks:
            for zh, shown in aligned(chunk, language):
                if zh.strip().startswith(f'- 注（"{phrase}"'):
                    out.append((chunk, say("spec_note", language, note=_note_body(shown))))
        return out

    def find(self, sentence: str, language: Language) -> list[tuple[Chunk, str]]:
        out = []
        for chunk, pattern, i in self._triggers:
            if pattern.search(sentence):
                lines = aligned(chunk, language)
                if i < len(lines):
                    out.append((chunk, say("spec_note", language, note=_note_body(lines[i][1]))))
        return out

_CASE_PARTS = {"谁": "who", "硬件": "hardware", "工作负载": "workload", "结果": "outcome", "注": "note"}
_RESULTS = re.compile(r"achiev|result|outcome|效果|结果|成果|提升|降低|节省|节约|saving|save|cut|improv|reduc|多少|"
                      r"how much|latency|延迟|成本|cost|性能|performance", re.IGNORECASE)
_DID = re.compile(r"做了(?:啥|什么|哪些)|怎么做|怎么处理|干了(?:啥|什么)|what did (?:they|it|the team) do|"
                  r"how did (?:they|it)|what (?:did|do) they (?:run|use it for)|工作负载|workload|"
                  r"跑(?:的|了)?(?:什么|啥)",
                  re.IGNORECASE)
_HARDWARE = re.compile(r"硬件|hardware|用了什么|配置|什么卡|哪些卡|which (?:gpu|card)|what (?:gpu|card|hardware)|"
                       r"(?:多少|几)\s*(?:张|块|台)|how many|"
                       r"gpus?\b|显卡|setup|set-up", re.IGNORECASE)


_STOP = {"the", "they", "their", "them", "that", "this", "what", "with", "from", "have", "did", "does", "case", "cases",
         "案例", "这个", "那个", "他们", "什么", "多少"}


def _words_of(text: str) -> set[str]:
    """A question's or an item's words to match: Latin words of 4+ letters cut to 5, and Chinese character pairs."""
    lower = text.lower()
    latin = {w[:5] for w in re.findall(r"[a-z]{4,}", lower) if w not in _STOP}
    han = {run[i:i + 2] for run in re.findall(r"[\u4e00-\u9fff]+", lower) for i in range(len(run) - 1)}
    return latin | (han - _STOP)


def case_facts(parts: list[Chunk], question: str, language: Language) -> list[tuple[Chunk, str]]:
    """A case study's hardware and outcome (whichever the question asks first), then kb's first caveat on it."""
    found: dict[str, tuple[Chunk, list[str]]] = {}
    current = ""  # a part may end with a heading whose list opens the next part
    for chunk in parts:
        for zh, shown in aligned(chunk, language):
            if zh.startswith("## "):
                word = zh[3:].split(" ")[0].split("(")[0].strip()
                current = _CASE_PARTS.get(word, "")
            elif current and zh.lstrip().startswith("- "):
                found.setdefault(current, (chunk, []))[1].append(shown.lstrip()[2:].strip().rstrip("。."))
    wants_results = bool(_RESULTS.search(question))
    order = ["outcome", "hardware"] if wants_results and not _HARDWARE.search(question) else ["hardware", "outcome"]
    if _DID.search(question):  # "他们对模型做了啥": what they ran and did, first
        order = ["workload", *order]
    # the question's own words, less those naming the case ("大学团队的 4090 集群") which every part shares
    asked = _words_of(question) - set().union(*(_words_of(c.heading + " " + c.heading_en) for c in parts[:1]))
    score = {part: max((len(asked & _words_of(item)) for item in items), default=0)
             for part, (_, items) in found.items() if part in ("hardware", "workload", "outcome")}
    best = max(score, key=lambda p: score[p], default=None)
    if best is not None and score[best] > max((score.get(p, 0) for p in order[:1]), default=0):
        order = [best, *[p for p in order if p != best]]  # "发了论文吗": the outcome that says so, first
    out = []
    for part in [*order, "note"]:
        if part in found:
            chunk, items = found[part]
            items = sorted(items, key=lambda item: -len(asked & _words_of(item)))
            items = items[:1] if part == "note" else items
            out.append((chunk, say(f"case_{part}", language, items=("; " if language == "en" else "；").join(items))))
    return out
