"""The corpus records are honest about where their figures come from.

Every record under ``corpus/`` (all ``*.md`` except ``guide.md``, ``glossary.md``
and READMEs) starts with YAML front matter (corpus/README.md). This module checks:

- the front matter: ``id`` unique across the corpus, ``kind`` one of spec / case /
  tradeoff / table / concept (and matching its folder), ``section`` (and ``sections``) real
  section ids of guide.md, a ``title``;
- figures: a ``source: doc`` figure's ``quote`` is verbatim text of the section it
  names (one the record cites), and its ``value`` is a number of that quote, allowing
  万 (×10⁴) and TB/s→GB/s (×10³); a ``derived`` figure shows its arithmetic
  (``note`` or ``ref``);
- numbers: every number in a record's title and body appears in the text of the
  sections it cites, or in one of its figures (value or quote), or in the note/ref of
  one of its vendor or derived figures (a doc figure's note does not count). A number
  the document does not state must be declared as a figure, so a reader can tell the
  document's words from ours;
- references: every ``§N.M`` the text mentions is a real section the record cites.
- concepts (``corpus/concepts/``) are held to more: a ``term``, ``aliases`` (each found in the
  body or its English rendering, so retrieval sees them), ``sources`` (title, publisher and a
  public URL each; never a repository path), every ``paper`` or ``vendor`` figure's ``ref`` naming
  one of them, and every number of the title and body declared as a figure — a number that merely
  also occurs in a cited section does not count, since a definition does not come from the guide.
  The body names at least one section where the guide's readers meet the term.

Numbers are compared by value: ``1.9万`` matches ``19,000``, ``1.55 TB/s`` matches
``1550``. Digits glued to a letter are names, not numbers (A100, FP16, H100, x16,
GDDR6X); ``§9.1``-style section references, URLs and the term "2:4" (structured
sparsity) are not figures and are skipped.

The glossary (corpus/glossary.md) is checked here too: one ``| English | 中文 |``
table, at least 150 concepts, every Chinese term found in the guide or a record, so
that translating an English question yields words the Chinese index contains.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from kb.numbers import number_values, read_numbers
from tests.support.paths import REPO
from tools.corpus_tables.records import guide_sections

CORPUS = REPO / "corpus"
GUIDE_PATH = CORPUS / "guide.md"
GLOSSARY_PATH = CORPUS / "glossary.md"
NOT_RECORDS = {"guide.md", "glossary.md", "README.md"}

KINDS = {"spec", "case", "tradeoff", "table", "concept"}
FOLDER_KIND = {"specs": "spec", "cases": "case", "tradeoffs": "tradeoff", "tables": "table", "concepts": "concept"}
SOURCES = {"doc", "vendor", "paper", "derived"}


# --------------------------------------------------------------------------- guide


@dataclass
class Guide:
    """guide.md split into sections: a chapter's text includes its subsections."""

    sections: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="module")
def guide() -> Guide:
    return Guide(guide_sections(CORPUS))  # the records' checker's own reading of the sections


# --------------------------------------------------------------------------- numbers

# The numbers reader is kb's own (kb/numbers.py), the one the answer verifier and the records' checker use.
SECTION_REF_RE = re.compile(r"§\s*(\d+(?:\.\d+)?)")


def _key(x: float) -> float:
    return round(x, 6)


def _as_numbers(value: Any) -> list[float] | None:
    """A figure value as a list of numbers, or None when it is not numeric."""
    items = value if isinstance(value, list) else [value]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in items) and items:
        return [float(v) for v in items]
    return None


# --------------------------------------------------------------------------- records


@dataclass
class Record:
    name: str  # path relative to corpus/, for messages
    meta: dict[str, Any]
    body: str


def parse_record(text: str, name: str) -> Record:
    """Front matter between the first two '---' lines (yaml.safe_load), then the body."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ValueError(f"{name}: does not start with a '---' front-matter line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ValueError(f"{name}: front matter has no closing '---' line") from None
    meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    if not isinstance(meta, dict):
        raise ValueError(f"{name}: front matter is not a mapping")
    return Record(name, meta, "\n".join(lines[end + 1 :]))


def record_paths() -> list[Path]:
    # corpus/en/ renders the records in English: tests/corpus/test_corpus_english.py holds it to them.
    return sorted(p for p in CORPUS.rglob("*.md")
                  if p.name not in NOT_RECORDS and p.relative_to(CORPUS).parts[0] != "en")


def load_records() -> list[Record]:
    return [parse_record(p.read_text(encoding="utf-8"), str(p.relative_to(CORPUS))) for p in record_paths()]


def cited_sections(meta: dict[str, Any]) -> list[str]:
    section = meta.get("section")
    extra = meta.get("sections") or []
    ids = [section] if section is not None else []
    return ids + [s for s in extra if s not in ids] if isinstance(extra, list) else ids


def check_record(rec: Record, guide: Guide, english: str = "") -> list[str]:
    """Everything wrong with one record, as readable lines (empty when honest); `english` is its rendering's
    body (corpus/en/), where a concept's aliases may be written instead."""
    meta, name = rec.meta, rec.name
    problems: list[str] = []

    def bad(msg: str) -> None:
        problems.append(f"{name}: {msg}")

    # --- front matter
    for key in ("id", "kind", "section", "title"):
        if not meta.get(key):
            bad(f"missing required key {key!r}")
    if meta.get("id") is not None and not isinstance(meta["id"], str):
        bad("id must be a string")
    kind = meta.get("kind")
    if kind is not None and kind not in KINDS:
        bad(f"kind {kind!r} is not one of {sorted(KINDS)}")
    folder = Path(name).parts[0] if len(Path(name).parts) > 1 else None
    if folder in FOLDER_KIND and kind in KINDS and kind != FOLDER_KIND[folder]:
        bad(f"kind {kind!r} in folder {folder}/ (expected {FOLDER_KIND[folder]!r})")
    if meta.get("title") is not None and not isinstance(meta["title"], str):
        bad("title must be a string")

    sections = meta.get("sections")
    if sections is not None:
        if not isinstance(sections, list):
            bad("sections must be a list of section ids")
        elif sections and sections[0] != meta.get("section"):
            bad(f"sections must start with section ({meta.get('section')!r}), got {sections[0]!r}")
    cited = cited_sections(meta)
    for sid in cited:
        if not isinstance(sid, str):
            bad(f'section id {sid!r} must be a quoted string (e.g. "4.2"), not {type(sid).__name__}')
        elif sid not in guide.sections:
            bad(f"section {sid!r} is not a section of guide.md")
    valid_cited = [s for s in cited if isinstance(s, str) and s in guide.sections]

    # --- figures
    allowed: set[float] = set()
    if kind != "concept":  # a concept's numbers are its own figures, each with its source (check_concept)
        for sid in valid_cited:
            allowed |= number_values(guide.sections[sid])
    figures = meta.get("figures") or {}
    if not isinstance(figures, dict):
        bad("figures must be a mapping of name -> figure")
        figures = {}
    for fname, fig in figures.items():
        where = f"figure {fname!r}"
        if not isinstance(fig, dict):
            bad(f"{where} is not a mapping")
            continue
        source = fig.get("source")
        if source not in SOURCES:
            bad(f"{where}: source {source!r} is not one of {sorted(SOURCES)}")
        if "value" not in fig:
            bad(f"{where}: no value")
        value = fig.get("value")
        numbers = _as_numbers(value)
        if numbers:
            allowed |= {_key(v) for v in numbers}
        quote = fig.get("quote")
        if quote is not None:
            allowed |= number_values(str(quote))
        if source == "doc":
            fsec = fig.get("section")
            if not isinstance(fsec, str) or fsec not in guide.sections:
                bad(f"{where}: doc figure section {fsec!r} is not a section of guide.md")
                continue
            if fsec not in valid_cited:
                bad(f"{where}: doc figure from §{fsec}, which the record does not cite (add it to sections)")
            if not isinstance(quote, str) or not quote.strip():
                bad(f"{where}: doc figure needs a verbatim quote")
                continue
            if quote not in guide.sections[fsec]:
                bad(f"{where}: quote {quote!r} is not verbatim text of §{fsec}")
            if numbers is not None:
                in_quote = number_values(quote)
                scaled = {_key(q * f) for q in in_quote for f in (1, 1e3, 1e4)}
                for v in numbers:
                    if _key(v) not in scaled:
                        bad(f"{where}: value {v:g} is not a number of its quote {quote!r} (×1, ×10³, ×10⁴)")
            elif isinstance(value, str) and value not in quote:
                bad(f"{where}: value {value!r} does not appear in its quote {quote!r}")
        elif source in ("vendor", "paper", "derived"):
            provenance = " ".join(str(fig.get(k) or "") for k in ("note", "ref")).strip()
            if source == "derived" and not provenance:
                bad(f"{where}: a derived figure must say how it is computed (note or ref)")
            allowed |= number_values(provenance)

    # --- capabilities (spec records): what the card can compute and how it connects, each with its source
    if kind == "spec":
        problems += [f"{name}: {p}" for p in check_capabilities(meta.get("capabilities"))]
    for cap in (meta.get("capabilities") or {}).values():
        if isinstance(cap, dict):
            allowed |= number_values(f"{cap.get('value')} {cap.get('note') or ''}")

    # --- numbers in the title and body
    text = f"{meta.get('title') or ''}\n{rec.body}"
    if kind == "concept":  # a name with a number in it ("RTX 4090", "Llama 3", "ZeRO-2") is not a figure
        text = NAME_RE.sub(" ", text)
    for ref in sorted(set(SECTION_REF_RE.findall(text)), key=str):
        if ref not in guide.sections:
            bad(f"§{ref} is not a section of guide.md")
        elif ref not in valid_cited:
            bad(f"the text refers to §{ref}, which the record does not cite (add it to sections)")
    unsupported = sorted({n.text for n in read_numbers(text) if not (n.values & allowed)})
    if unsupported and kind == "concept":
        bad("numbers not declared among the record's figures: " + ", ".join(unsupported))
    elif unsupported:
        bad(f"numbers not in the cited sections {valid_cited} nor in the record's figures: " + ", ".join(unsupported))
    if kind == "concept":
        problems += [f"{name}: {p}" for p in check_concept(meta, rec.body, english)]
    return problems


NAME_RE = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:GeForce\s+)?(?:RTX|GTX)\s*(?:PRO\s*)?\d{2,4}(?:\s*Ti)?|Llama[\s-]*\d(?:\.\d)?"
    r"|Gaudi\s*\d|ZeRO-\d|IEEE\s*754|sm_\d+)(?![\d.])")

# A repository path or a file of this project is never a source: a reader cannot open it.
LOCAL_PATH_RE = re.compile(r"(?<![\w/])(?:\.\./|/work/|shared/reference|corpus/)|\b[\w-]+\.md\b")
CONCEPT_HEADINGS = ("是什么", "代价", "指南")  # what it is; what it costs or saves; where the guide's readers meet it


def check_concept(meta: dict[str, Any], body: str, english: str = "") -> list[str]:
    """What a concept record holds beyond a record: its term, aliases, public sources, and figures tied to them."""
    problems: list[str] = []
    if not isinstance(meta.get("term"), str) or not meta["term"].strip():
        problems.append("a concept needs a term (its usual English name)")
    aliases = meta.get("aliases")
    if not isinstance(aliases, list) or not aliases or not all(isinstance(a, str) and a.strip() for a in aliases):
        problems.append("aliases must be a non-empty list of names")
        aliases = []
    lowered = [a.lower() for a in aliases]
    if dupes := sorted({a for a in lowered if lowered.count(a) > 1}):
        problems.append(f"aliases repeated: {dupes}")
    text = f"{body}\n{english}".lower()
    if missing := [a for a in aliases if a.lower() not in text]:
        problems.append(f"aliases neither the body nor its English rendering writes (unseen by readers): {missing}")
    sources = meta.get("sources")
    ids: set[str] = set()
    if not isinstance(sources, list) or not sources:
        problems.append("a concept needs sources: the paper or vendor document it rests on")
        sources = []
    for n, src in enumerate(sources, 1):
        if not isinstance(src, dict):
            problems.append(f"source {n} is not a mapping")
            continue
        for key in ("id", "title", "publisher", "url"):
            if not isinstance(src.get(key), str) or not src[key].strip():
                problems.append(f"source {n} lacks {key!r}")
        url = str(src.get("url") or "")
        if not re.match(r"https?://[^\s/]+\.[^\s/]+/?", url):
            problems.append(f"source {n}: {url!r} is not a public URL")
        if LOCAL_PATH_RE.search(f"{url} {src.get('title') or ''}"):
            problems.append(f"source {n} is a repository path, not a public source")
        if str(src.get("id")) in ids:
            problems.append(f"source id {src.get('id')!r} repeated")
        ids.add(str(src.get("id")))
    for fname, fig in (meta.get("figures") or {}).items():
        if isinstance(fig, dict) and fig.get("source") in ("paper", "vendor") and fig.get("ref") not in ids:
            problems.append(f"figure {fname!r}: ref {fig.get('ref')!r} names none of the sources {sorted(ids)}")
    if LOCAL_PATH_RE.search(body):
        problems.append(f"the body names a file or repository path: {LOCAL_PATH_RE.search(body).group(0)!r}")
    for part in CONCEPT_HEADINGS:
        if not re.search(rf"^#+ .*{part}", body, re.MULTILINE):
            problems.append(f"no {part} heading")
    if not SECTION_REF_RE.search(body):
        problems.append("the body names no section of the guide where its readers meet the term")
    related = meta.get("related", [])
    if not isinstance(related, list) or not all(isinstance(r, str) for r in related):
        problems.append("related must be a list of record ids")
    return problems


CAPABILITIES = {  # every spec record says each of these, with a source (a value may be "unknown")
    "architecture": str, "compute_capability": str, "bf16_tensor": bool, "fp8_tensor": bool, "fp4_tensor": bool,
    "nvlink": str, "mig": (int, str), "ecc": str,
}
NVLINK_KINDS = {"none", "bridge", "nvswitch", "nvlink 2", "infinity-fabric", "hccs", "roce", "unknown"}
ECC_STATES = {"always on", "on by default", "off by default", "none", "unknown"}


def check_capabilities(caps: Any) -> list[str]:
    """What is wrong with a spec record's capabilities: a missing one, a value of the wrong kind, no source."""
    if not isinstance(caps, dict):
        return ["a spec record needs capabilities (architecture, compute_capability, bf16/fp8/fp4_tensor, nvlink, "
                "mig, ecc)"]
    bad = [f"capability {k!r} is missing" for k in CAPABILITIES if k not in caps]
    for key, cap in caps.items():
        if key not in CAPABILITIES:
            bad.append(f"capability {key!r} is not one kb knows ({', '.join(CAPABILITIES)})")
            continue
        if not isinstance(cap, dict) or "value" not in cap:
            bad.append(f"capability {key!r} needs a value")
            continue
        value, kinds = cap["value"], CAPABILITIES[key]
        if not (value == "unknown" or isinstance(value, kinds)):
            bad.append(f"capability {key!r}: {value!r} is not {kinds}")
        if cap.get("source") not in ("vendor", "derived") or not str(cap.get("note") or "").strip():
            bad.append(f"capability {key!r} needs source vendor/derived and a note naming the document")
    if caps.get("nvlink", {}).get("value") not in NVLINK_KINDS:
        bad.append(f"capability 'nvlink' must be one of {sorted(NVLINK_KINDS)}")
    if caps.get("ecc", {}).get("value") not in ECC_STATES:
        bad.append(f"capability 'ecc' must be one of {sorted(ECC_STATES)}")
    mig = caps.get("mig", {}).get("value")
    if isinstance(mig, str) and mig not in ("none", "unknown"):
        bad.append("capability 'mig' is a number of instances, 'none' or 'unknown'")
    return bad


# --------------------------------------------------------------------------- the real corpus

RECORDS = record_paths()


@pytest.mark.parametrize("path", RECORDS, ids=[str(p.relative_to(CORPUS)) for p in RECORDS])
def test_record_is_honest(path: Path, guide: Guide) -> None:
    rec = parse_record(path.read_text(encoding="utf-8"), str(path.relative_to(CORPUS)))
    rendering = CORPUS / "en" / path.relative_to(CORPUS)
    problems = check_record(rec, guide, rendering.read_text(encoding="utf-8") if rendering.is_file() else "")
    assert not problems, "\n".join(problems)


def test_record_ids_are_unique() -> None:
    seen: dict[str, str] = {}
    dupes = []
    for rec in load_records():
        rid = rec.meta.get("id")
        if rid in seen:
            dupes.append(f"{rid!r} in {seen[rid]} and {rec.name}")
        seen.setdefault(rid, rec.name)
    assert not dupes, "duplicate record ids: " + "; ".join(dupes)


CASE_SECTIONS = {"6.4": 3, "7.4": 3, "9.1": 2, "9.2": 2, "9.3": 2}
TRADEOFF_SECTIONS = {"3.3", "3.4", "4.3", "4.4", "6.1", "7.2", "11.1", "11.2", "11.3", "11.4"}


def _records_of(kind: str) -> list[Record]:
    return [r for r in load_records() if r.meta.get("kind") == kind]


def test_every_case_study_has_a_record() -> None:
    counts: dict[str, int] = {}
    for rec in _records_of("case"):
        counts[rec.meta["section"]] = counts.get(rec.meta["section"], 0) + 1
    assert counts == CASE_SECTIONS


def test_case_records_are_structured() -> None:
    # 谁 (who), 硬件 (hardware), 工作负载 (workload), 结果 (outcome): the fields a
    # question about a case asks for, as headings a reader can scan.
    missing = [
        f"{rec.name}: no {part} heading"
        for rec in _records_of("case")
        for part in ("谁", "硬件", "工作负载", "结果")
        if not re.search(rf"^#+ .*{part}", rec.body, re.MULTILINE)
    ]
    assert not missing, "\n".join(missing)


def test_concepts_relate_to_records_that_exist() -> None:
    ids = {rec.meta.get("id") for rec in load_records()}
    dangling = [f"{rec.name}: {r}" for rec in _records_of("concept") for r in rec.meta.get("related") or []
                if r not in ids]
    assert not dangling, "related ids that are no record: " + "; ".join(dangling)


def test_concept_aliases_name_one_concept_each() -> None:
    """An alias read in a question must point at one concept ("TP" cannot be two records)."""
    owner: dict[str, str] = {}
    clashes = []
    for rec in _records_of("concept"):
        for alias in rec.meta.get("aliases") or []:
            key = str(alias).lower()
            if key in owner and owner[key] != rec.meta["id"]:
                clashes.append(f"{alias!r}: {owner[key]} and {rec.meta['id']}")
            owner.setdefault(key, rec.meta["id"])
    assert not clashes, "; ".join(clashes)


def test_every_selection_rule_section_has_a_tradeoff() -> None:
    covered = {rec.meta["section"] for rec in _records_of("tradeoff")}
    assert covered >= TRADEOFF_SECTIONS, f"missing: {sorted(TRADEOFF_SECTIONS - covered)}"


# --------------------------------------------------------------------------- the checker itself

CONCEPT = """---
id: concept-test-int8
kind: concept
section: "7.3"
sections: ["7.3"]
title: INT8 (8-bit integer)
term: INT8
aliases: [INT8, 8 位整数, 8-bit integer]
sources:
  - id: llm-int8
    title: "LLM.int8(): 8-bit Matrix Multiplication for Transformers at Scale"
    publisher: "Dettmers et al., NeurIPS 2022"
    url: https://arxiv.org/abs/2208.07339
figures:
  bits:
    value: 8
    source: paper
    ref: llm-int8
  bytes:
    value: 1
    source: paper
    ref: llm-int8
  fp32_ratio:
    value: 4
    source: derived
    note: "4 bytes (FP32) / 1 byte (INT8) = 4"
---
## 是什么 (what it is)

INT8 是 8 位整数 (8-bit integer)，每个参数 1 字节。

## 代价 (cost)

比 FP32 小 4 倍。

## 指南 (where the guide uses it)

§7.3 说 INT8 让模型小 4 倍。
"""


def _concept(text: str) -> Record:
    return parse_record(text, "concepts/fake.md")


def test_checker_accepts_an_honest_concept(guide: Guide) -> None:
    assert check_record(_concept(CONCEPT), guide) == []


def test_checker_flags_a_concept_number_that_only_the_section_states(guide: Guide) -> None:
    # "2-3倍" is in §7.3's text, but a concept's numbers must be its own figures, with their sources
    problems = check_record(_concept(CONCEPT.replace("比 FP32 小 4 倍。", "比 FP32 小 4 倍，快 2-3 倍。")), guide)
    assert any("not declared among the record's figures" in p and "2" in p for p in problems), problems


def test_checker_flags_a_concept_figure_without_its_source(guide: Guide) -> None:
    problems = check_record(_concept(CONCEPT.replace("ref: llm-int8", "ref: somewhere")), guide)
    assert any("ref 'somewhere' names none of the sources" in p for p in problems), problems


def test_checker_flags_a_concept_sourced_to_a_repository_path(guide: Guide) -> None:
    text = CONCEPT.replace("url: https://arxiv.org/abs/2208.07339", "url: ../shared/reference/gpus.md")
    problems = check_record(_concept(text), guide)
    assert any("not a public URL" in p for p in problems) and any("repository path" in p for p in problems)


def test_checker_flags_an_alias_retrieval_cannot_see(guide: Guide) -> None:
    problems = check_record(_concept(CONCEPT.replace("8-bit integer]", "8-bit integer, int-eight]")), guide)
    assert any("int-eight" in p and "unseen by readers" in p for p in problems), problems
    assert check_record(_concept(CONCEPT.replace("8-bit integer]", "8-bit integer, int-eight]")), guide,
                        english="Also written: int-eight") == []


def test_checker_flags_a_concept_without_its_parts(guide: Guide) -> None:
    text = CONCEPT.replace("## 代价 (cost)", "## 其他").replace("§7.3 说", "文档说").replace("term: INT8\n", "")
    problems = check_record(_concept(text), guide)
    assert any("no 代价 heading" in p for p in problems), problems
    assert any("names no section" in p for p in problems), problems
    assert any("needs a term" in p for p in problems), problems

GOOD = """---
id: test-rtx-price
kind: tradeoff
section: "4.3"
sections: ["4.3", "3.4", "11.3"]
title: RTX 4090 价格
figures:
  price_cny:
    value: 19000
    unit: CNY
    source: doc
    section: "4.3"
    quote: "价格约为1.9万元人民币"
  a100_price_cny:
    value: 150000
    source: doc
    section: "3.4"
    quote: "单卡价格高达15万元人民币左右"
  fp16_dense:
    value: 165.2
    source: vendor
    note: "NVIDIA Ada whitepaper, dense FP16 with fp32 accumulate"
  cards_alone:
    value: 152000
    source: derived
    note: "8 × 1.9万 = 15.2万"
---
RTX 4090 价格约为1.9万元 (about 19,000 CNY)，仅为A100的约1/8；A100 约15万元 (150,000 CNY)。

注 (Note)：训练时应按 165.2 TFLOPS 计；8卡仅显卡约15.2万元。见 §11.3。
"""


def _fake(text: str) -> Record:
    return parse_record(text, "tradeoffs/fake.md")


def test_checker_accepts_an_honest_record(guide: Guide) -> None:
    assert check_record(_fake(GOOD), guide) == []


def test_checker_flags_a_wrong_quote(guide: Guide) -> None:
    text = GOOD.replace('quote: "价格约为1.9万元人民币"', 'quote: "价格约为1.8万元人民币"')
    problems = check_record(_fake(text), guide)
    assert any("is not verbatim text of §4.3" in p for p in problems), problems


def test_checker_flags_a_quote_from_another_section(guide: Guide) -> None:
    # verbatim in §3.4, but attributed to §4.3
    text = GOOD.replace('quote: "价格约为1.9万元人民币"', 'quote: "单卡价格高达15万元人民币左右"')
    problems = check_record(_fake(text), guide)
    assert any("is not verbatim text of §4.3" in p for p in problems), problems


def test_checker_flags_a_value_not_in_its_quote(guide: Guide) -> None:
    text = GOOD.replace("value: 19000", "value: 20000")
    problems = check_record(_fake(text), guide)
    assert any("value 20000 is not a number of its quote" in p for p in problems), problems


def test_checker_flags_a_number_not_in_the_section(guide: Guide) -> None:
    text = GOOD.replace("(about 19,000 CNY)", "(about 19,000 CNY; 2.3万 on sale)")
    problems = check_record(_fake(text), guide)
    assert any("numbers not in the cited sections" in p and "2.3万" in p for p in problems), problems


def test_checker_flags_a_fabricated_figure_in_the_title(guide: Guide) -> None:
    text = GOOD.replace("title: RTX 4090 价格", "title: RTX 4090 价格 1.7万")
    problems = check_record(_fake(text), guide)
    assert any("1.7万" in p for p in problems), problems


def test_checker_flags_an_unknown_section(guide: Guide) -> None:
    text = GOOD.replace('section: "4.3"\nsections: ["4.3",', 'section: "4.7"\nsections: ["4.7",')
    problems = check_record(_fake(text), guide)
    assert any("section '4.7' is not a section of guide.md" in p for p in problems), problems


def test_checker_flags_a_section_reference_it_does_not_cite(guide: Guide) -> None:
    text = GOOD.replace("见 §11.3", "见 §11.3、§14.2").replace('"3.4", "11.3"]', '"3.4"]')
    problems = check_record(_fake(text), guide)
    assert any("§14.2 is not a section" in p for p in problems), problems
    assert any("refers to §11.3, which the record does not cite" in p for p in problems), problems


def test_checker_flags_a_doc_figure_from_an_uncited_section(guide: Guide) -> None:
    text = GOOD.replace('sections: ["4.3", "3.4", "11.3"]', 'sections: ["4.3", "11.3"]')
    problems = check_record(_fake(text), guide)
    assert any("which the record does not cite" in p for p in problems), problems


def test_checker_flags_a_derived_figure_without_its_arithmetic(guide: Guide) -> None:
    text = GOOD.replace('    note: "8 × 1.9万 = 15.2万"\n', "")
    problems = check_record(_fake(text), guide)
    assert any("derived figure must say how it is computed" in p for p in problems), problems


def test_checker_ignores_numbers_in_a_doc_figures_note(guide: Guide) -> None:
    # A vendor number hidden in a doc figure's note is not declared: it must be flagged.
    text = GOOD.replace(
        '    quote: "价格约为1.9万元人民币"\n',
        '    quote: "价格约为1.9万元人民币"\n    note: "street price 1.6万"\n',
    ).replace("A100 约15万元", "A100 约15万元，现价1.6万")
    problems = check_record(_fake(text), guide)
    assert any("1.6万" in p for p in problems), problems


def test_checker_flags_bad_front_matter(guide: Guide) -> None:
    text = GOOD.replace("kind: tradeoff", "kind: rumour").replace("id: test-rtx-price\n", "")
    problems = check_record(_fake(text), guide)
    assert any("kind 'rumour'" in p for p in problems), problems
    assert any("missing required key 'id'" in p for p in problems), problems
    unquoted = GOOD.replace('section: "4.3"\nsections: ["4.3", "3.4", "11.3"]', "section: 4.3")
    assert any("quoted string" in p for p in check_record(_fake(unquoted), guide))
    with pytest.raises(ValueError, match="front-matter"):
        parse_record("id: x\n", "tradeoffs/none.md")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("价格约为1.9万元", [("1.9万", {1.9, 19000})]),
        ("总成本约45万元", [("45万", {45, 450000})]),
        ("成本降低了70%以上", [("70", {70})]),
        ("性能约为2.5-3倍", [("2.5", {2.5}), ("3", {3})]),
        ("8卡RTX 4090", [("8", {8}), ("4090", {4090})]),
        ("在2025年", [("2025", {2025})]),
        ("16,384个H100 GPU", [("16,384", {16384})]),
        ("A100的FP16、x16、GDDR6X、HBM2e", []),
        ("1.55 TB/s (40GB)", [("1.55TB", {1.55, 1550}), ("40", {40})]),
        ("见 §9.1 和 https://example.com/a/123", []),
        ("2:4结构化稀疏，2:5", [("2", {2}), ("5", {5})]),
    ],
)
def test_number_extraction(text: str, expected: list[tuple[str, set[float]]]) -> None:
    got = [(n.text, set(n.values)) for n in read_numbers(text)]
    assert got == [(t, {_key(v) for v in vs}) for t, vs in expected]


def test_fractions_count_as_their_ratio() -> None:
    assert _key(1 / 8) in number_values("仅为A100的约1/8")
    assert {1.0, 8.0} <= number_values("仅为A100的约1/8")


# --------------------------------------------------------------------------- glossary

ROW_RE = re.compile(r"^\|(.+)\|\s*$")


def parse_glossary(text: str) -> list[tuple[list[str], list[str]]]:
    """Rows of the one `| English | 中文 |` table: (English synonyms, Chinese synonyms)."""
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if re.match(r"^\|\s*English\s*\|\s*中文\s*\|\s*$", line)]
    assert len(headers) == 1, "glossary.md must hold exactly one '| English | 中文 |' table"
    start = headers[0]
    assert re.match(r"^\|\s*:?-{3,}:?\s*\|\s*:?-{3,}:?\s*\|\s*$", lines[start + 1]), "no separator row"
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        m = ROW_RE.match(line)
        assert m, f"not a table row: {line!r}"
        cells = [c.strip() for c in m.group(1).split("|")]
        assert len(cells) == 2, f"a row has two cells: {line!r}"
        en, zh = ([s.strip() for s in c.split(" / ")] for c in cells)
        assert all(en) and all(zh), f"empty term in {line!r}"
        rows.append((en, zh))
    assert not any(ROW_RE.match(line) for line in lines[start + 2 + len(rows) :]), "a second table"
    return rows


def _all_text() -> str:
    parts: Iterable[str] = (
        GUIDE_PATH.read_text(encoding="utf-8"),
        *(p.read_text(encoding="utf-8") for p in record_paths()),
    )
    return "\n".join(parts)


def test_glossary_has_150_concepts() -> None:
    rows = parse_glossary(GLOSSARY_PATH.read_text(encoding="utf-8"))
    assert len(rows) >= 150, f"{len(rows)} rows"
    english = [e.lower() for en, _ in rows for e in en]
    dupes = sorted({e for e in english if english.count(e) > 1})
    assert not dupes, f"English terms on more than one row: {dupes}"


def test_glossary_chinese_terms_are_in_the_corpus() -> None:
    rows = parse_glossary(GLOSSARY_PATH.read_text(encoding="utf-8"))
    text = _all_text()
    missing = [zh for _, zhs in rows for zh in zhs if zh not in text]
    assert not missing, f"Chinese terms found neither in guide.md nor in any record: {missing}"


def test_glossary_parser_rejects_a_malformed_row() -> None:
    with pytest.raises(AssertionError):
        parse_glossary("intro\n\n| English | 中文 |\n| --- | --- |\n| VRAM | 显存 | extra |\n")
