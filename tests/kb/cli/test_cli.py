"""`kb` as a user runs it: a real subprocess over the real index, the contract's exit codes and shapes; the
bad-input cases, which fail before any index work, through the same entry point in this process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.embed_cache import cache_path
from tests.conftest import CORPUS
from tests.support.cli import Ran, run_kb


def kb_here(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, index_dir: Path,
            **env: str) -> Ran:
    """`kb ARGS` in this process, with the environment `kb` below would give the subprocess."""
    for name, value in {"KB_INDEX_DIR": str(index_dir), "KB_CORPUS_DIR": str(CORPUS), **env}.items():
        monkeypatch.setenv(name, value)
    return run_kb(capsys, *args)


def kb(*args: str, index_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    full_env.update(KB_INDEX_DIR=str(index_dir), KB_CORPUS_DIR=str(CORPUS), **env)
    return subprocess.run([sys.executable, "-m", "kb.cli", *args], capture_output=True, text=True,
                          env=full_env, timeout=300)


def test_ask_json_has_the_contract_shape(index_dir: Path) -> None:
    p = kb("ask", "RTX 4090 的显存带宽是多少？", "--json", index_dir=index_dir)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["language"] == "zh" and doc["question"] == "RTX 4090 的显存带宽是多少？"
    assert len(doc["passages"]) == 5
    assert doc["passages"][0]["section"] == "4.2"
    for rank, passage in enumerate(doc["passages"], 1):
        assert passage["rank"] == rank
        assert {"id", "section", "heading", "kind", "text", "score", "source"} <= set(passage)
        src = passage["source"]
        lines = (CORPUS.parent / src["path"]).read_text(encoding="utf-8").split("\n")
        # The cited lines hold the passage text verbatim.
        assert passage["text"] in "\n".join(lines[src["start_line"] - 1:src["end_line"]])
    # the figure, cited to §4.2's passages (the spec sheet; the guide's own line says it no better twice)
    markers = re.findall(r"\[(\d+)\]", doc["answer"])
    assert "1008 GB/s" in doc["answer"] and markers, doc["answer"]
    assert all(doc["passages"][int(m) - 1]["section"] == "4.2" for m in markers), doc["answer"]
    assert doc["fit_checks"] == []


def test_ask_text_is_for_people_in_the_question_language(index_dir: Path) -> None:
    zh = kb("ask", "A100 的缺点有哪些？", "--top-k", "3", index_dir=index_dir)
    assert zh.returncode == 0, zh.stderr
    assert zh.stdout.startswith("回答:") and "引用段落:" in zh.stdout and "[3] §" in zh.stdout
    en = kb("ask", "What are the downsides of the A100?", index_dir=index_dir)
    assert en.returncode == 0, en.stderr
    # the passages cited, each with where it comes from in words (never a repository path)
    assert en.stdout.startswith("Answer:") and "Passages:" in en.stdout and "corpus/" not in en.stdout
    assert re.search(r"^\[1\] §\S+ .*\((the guide, lines \d+–\d+|card specifications|[a-z ]+), score", en.stdout, re.M)


def test_missing_table_sections_say_so(index_dir: Path) -> None:
    p = kb("ask", "A100和RTX 4090的内存系统对比", "--json", "--top-k", "10", index_dir=index_dir)
    doc = json.loads(p.stdout)
    p52 = next(p for p in doc["passages"] if p["id"] == "guide-5.2")
    assert any("并未包含" in n for n in p52["notes"])


@pytest.mark.parametrize(("question", "needle"), [
    ("", "empty"),
    ("   \t ", "empty"),
    ("？！。。,,,!!", "no letters"),
    ("显" * 501, "limit is 500"),
])
def test_bad_questions_exit_2_with_one_line(question: str, needle: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # An empty index folder: bad input must fail before any index work.
    p = kb_here(capsys, monkeypatch, "ask", question, index_dir=tmp_path / "never-built")
    assert p.code == 2
    assert p.out == ""
    assert len(p.err.strip().splitlines()) == 1 and needle in p.err
    assert not (tmp_path / "never-built").exists()


@pytest.mark.parametrize("args", [["ask", "q?", "--top-k", "0"], ["ask", "q?", "--top-k", "x"], ["ask"],
                                  ["ask", "hi", "--nope"], ["nosuchcommand"]])
def test_usage_errors_exit_2_with_one_line(args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    p = kb_here(capsys, monkeypatch, *args, index_dir=tmp_path / "idx")
    assert p.code == 2, p.err
    assert len(p.err.strip().splitlines()) == 1 and "Traceback" not in p.err


def test_corrupt_index_names_the_fix(tmp_path: Path, index_dir: Path) -> None:
    import shutil

    broken = tmp_path / "idx"
    shutil.copytree(index_dir.resolve(), broken)
    (broken / "vectors.faiss").write_bytes(b"junk")
    # The corpus is unchanged, so kb ask must not silently rebuild: it reports the damage.
    p = kb("ask", "A100 功耗", index_dir=broken)
    assert p.returncode == 1
    assert "kb index" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_ask_builds_the_index_on_first_use(index_dir: Path, tmp_path: Path) -> None:
    """No index: `kb ask` builds one, then answers. The session index's embedding cache is put beside the new
    folder, as a user's would be after an earlier build, so the build re-embeds nothing (embedding is tested in
    tests/indexer); the rest of a first build (chunks, BM25, FAISS, the manifest, the progress) runs."""
    out = tmp_path / "fresh"
    shutil.copy(cache_path(index_dir), cache_path(out))
    p = kb("ask", "Which GPU is best for edge deployment?", "--json", index_dir=out)
    assert p.returncode == 0, p.stderr
    assert "building the index" in p.stderr
    assert (out / "manifest.json").is_file()
    assert json.loads(p.stdout)["language"] == "en"


def test_eval_reports_metrics_and_rejects_a_bad_file(index_dir: Path, tmp_path: Path) -> None:
    good = tmp_path / "q.jsonl"
    good.write_text('{"q": "RTX 4090 的显存带宽", "rel": ["4.2"]}\n{"q": "A100 price", "rel": ["3.4"]}\n',
                    encoding="utf-8")
    p = kb("eval", "--questions", str(good), "--json", index_dir=index_dir)
    assert p.returncode == 0, p.stderr
    m = json.loads(p.stdout)["metrics"]
    assert m["all"]["n"] == 2 and 0 <= m["all"]["mrr"] <= 1 and m["zh"]["recall@1"] == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"q": "fine", "rel": ["1"]}\nnot json\n', encoding="utf-8")
    p = kb("eval", "--questions", str(bad), index_dir=index_dir)
    assert p.returncode == 2 and "bad.jsonl:2" in p.stderr


def test_a_bad_setting_names_the_variable(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    p = kb_here(capsys, monkeypatch, "ask", "A100 功耗", index_dir=tmp_path / "idx", KB_MAX_TOP_K="many")
    assert p.code == 2
    assert p.err.strip().count("\n") == 0 and "KB_MAX_TOP_K" in p.err


def test_eval_answers_reports_by_type_and_language_and_rejects_a_bad_file(index_dir: Path, tmp_path: Path) -> None:
    good = tmp_path / "a.jsonl"
    good.write_text('{"q": "RTX 4090 的显存有多大？", "type": "spec", "must": ["24 ?Gi?B"]}\n'
                    '{"q": "What is the capital of France?", "type": "out_of_scope", "en": true, '
                    '"must": ["\\\\bnot\\\\b"], "no_fit": true}\n'
                    '{"q": "Is 7B fp16 on one RTX 4090 ok?", "type": "fit", "en": true, "must": ["banana-no-such"]}\n',
                    encoding="utf-8")
    p = kb("eval", "--answers", str(good), "--json", index_dir=index_dir)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["all"] == {"n": 3, "pass": 2 / 3}
    assert r["by_type"]["spec"]["pass"] == 1.0 and r["by_type"]["fit"]["pass"] == 0.0
    assert r["by_language"]["en"] == {"n": 2, "pass": 0.5}
    assert [f["q"] for f in r["failures"]] == ["Is 7B fp16 on one RTX 4090 ok?"] and r["failures"][0]["answer"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"q": "fine", "type": "spec", "must": ["("]}\n', encoding="utf-8")
    p = kb("eval", "--answers", str(bad), index_dir=index_dir)
    assert p.returncode == 2 and "bad.jsonl:1" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_english_question_gets_english_passages_with_the_chinese_original(index_dir: Path) -> None:
    p = kb("ask", "What is the memory bandwidth of the RTX 4090?", "--json", index_dir=index_dir)
    doc = json.loads(p.stdout)
    assert doc["language"] == "en" and doc["coverage"] == "answered" and doc["unknown"] == []
    assert "1008 GB/s" in doc["answer"]
    for passage in doc["passages"]:
        src = passage["source"]
        zh = (CORPUS.parent / src["path"]).read_text(encoding="utf-8").split("\n")
        assert passage["original"] in "\n".join(zh[src["start_line"] - 1:src["end_line"]])
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in passage["text"]), passage["id"]
