"""`kb docs` as a user runs it: a real subprocess, the contract's exit codes, one line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import document_files as files


def kb(*args: str, sources: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KB_SOURCES_DIR=str(sources))
    return subprocess.run([sys.executable, "-m", "kb.cli", "docs", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_add_list_show_remove(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sheet = tmp_path / "报价.csv"
    sheet.write_bytes(files.csv_bytes("gbk"))
    added = kb("add", str(sheet), "--title", "十一月报价", sources=sources)
    assert added.returncode == 0, added.stderr
    assert "4 price rows" in added.stdout and "as of 2026-11-03 [content]" in added.stdout
    again = kb("add", str(sheet), sources=sources)
    assert again.returncode == 0 and again.stdout.startswith("unchanged:")
    listed = json.loads(kb("list", "--json", sources=sources).stdout)
    assert [(d["title"], d["file"], d["format"], d["as_of"], d["chunks"], d["price_rows"]) for d in listed] == [
        ("十一月报价", "报价.csv", "csv", "2026-11-03", 4, 4)]
    assert {"id", "added_at"} <= set(listed[0])
    shown = kb("show", listed[0]["id"], sources=sources)
    assert "price: h200 quoted 230,000 CNY a card (华东集成商, 2026-11-03) at line 2" in shown.stdout
    assert "  [line 2] 型号: NVIDIA H200 141GB" in shown.stdout  # each chunk where it sits in the file
    assert kb("remove", listed[0]["id"], sources=sources).returncode == 0
    assert json.loads(kb("list", "--json", sources=sources).stdout) == []


@pytest.mark.parametrize("make,args,message", [
    (lambda p: p.write_bytes(b"MZ"), ["{p}"], "is not a format kb reads; accepted:"),
    (lambda p: p.write_bytes(files.scanned_pdf_bytes()), ["{p}"], "needs OCR"),
    (lambda p: p.write_text("a,b\n1,2\n"), ["{p}", "--as-of", "2026/99/01"], "is not a date: give it as YYYY-MM-DD"),
    (lambda p: p.write_text("a,b\n1,2\n"), ["{p}", "--title", "../../x"], "without ../"),
    (lambda p: None, ["{p}"], "no such file"),
])
def test_bad_input_is_exit_2_and_one_line(tmp_path: Path, make, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / ("scan.pdf" if "OCR" in message else "x.exe" if "format" in message else "a.csv")
    make(path)
    done = kb("add", *[a.format(p=path) for a in args], sources=tmp_path / "sources")
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "sources" / "manifest.json").exists()


def test_prices_lists_the_newest_team_price_beside_the_guides_and_the_break_even(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sheet = tmp_path / "报价.xlsx"
    sheet.write_bytes(files.xlsx_bytes())
    assert kb("add", str(sheet), sources=sources).returncode == 0
    shown = kb("prices", sources=sources)
    assert shown.returncode == 0, shown.stderr
    assert "rtx-4090       quoted               12,999 CNY a card  (报价, 2026-11-03" in shown.stdout
    assert "rtx-4090       rent on_demand       1.8 CNY a card-hour" in shown.stdout
    assert "l40s           quoted               7,800 USD a card (= 56,160 CNY at 7.2 CNY/USD)" in shown.stdout
    assert "guide (2025): 19,000 CNY" in shown.stdout
    assert "盈亏平衡：180,000 ÷ (16.50 − 0.70) = 11,392 卡时" in shown.stdout
    data = json.loads(kb("prices", "--json", sources=sources).stdout)
    assert {b["gpu"] for b in data["break_even"]} == {"h100-sxm", "rtx-4090"}


def test_versions_never_run_backwards_and_show_lists_them(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    newer, older = tmp_path / "new" / "quote.csv", tmp_path / "old" / "quote.csv"
    for path, price in ((newer, "¥228,000"), (older, "¥235,000")):
        path.parent.mkdir()
        path.write_text(f"型号,单价\nH100 SXM,\"{price}\"\n", encoding="utf-8")
    assert kb("add", str(newer), "--as-of", "2026-11-25", sources=sources).returncode == 0
    refused = kb("add", str(older), "--as-of", "2026-10-01", sources=sources)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "dated 2026-10-01, older than the one in force" in refused.stderr and "2026-11-25" in refused.stderr
    forced = kb("add", str(older), "--as-of", "2026-10-01", "--force", sources=sources)
    assert forced.returncode == 0 and "supersedes" in forced.stdout
    restored = kb("add", str(newer), sources=sources)
    assert restored.returncode == 0 and restored.stdout.startswith("restored doc-")
    [doc] = json.loads(kb("list", "--json", sources=sources).stdout)
    shown = kb("show", doc["id"], sources=sources).stdout
    assert "versions of quote.csv (oldest first):" in shown
    assert "as of 2026-10-01" in shown and "(superseded by " in shown and "as of 2026-11-25" in shown
    assert "(in force)" in shown and "price: h100-sxm quoted 228,000 CNY a card" in shown


def test_sync_keeps_a_folder_in_step_and_status_lists_the_jobs(tmp_path: Path) -> None:
    sources, folder = tmp_path / "sources", tmp_path / "team"
    folder.mkdir()
    (folder / "quote.csv").write_text("型号,单价\nH100 SXM,\"¥228,000\"\n", encoding="utf-8")
    (folder / "notes.zip").write_bytes(b"PK")
    (folder / ".~lock.quote.csv#").write_text("x")
    first = kb("sync", str(folder), sources=sources)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == ["added quote.csv", "skipped notes.zip (not a file kb reads)"]
    (folder / "rates.csv").write_text("GPU,On-demand (元/卡/时)\nH100 SXM,16.5\n", encoding="utf-8")
    (folder / "quote.csv").write_text("型号,单价\nH100 SXM,\"¥226,000\"\n", encoding="utf-8")
    second = kb("sync", str(folder), sources=sources)
    assert sorted(second.stdout.splitlines()) == ["added rates.csv", "changed quote.csv (a new version)",
                                                   "skipped notes.zip (not a file kb reads)"]
    (folder / "rates.csv").unlink()
    third = kb("sync", str(folder), "--json", sources=sources)
    report = json.loads(third.stdout)
    assert (report["removed"], report["unchanged"], report["added"]) == (["rates.csv"], ["quote.csv"], [])
    listed = json.loads(kb("list", "--json", sources=sources).stdout)
    assert [(d["file"], d["folder"]) for d in listed] == [("quote.csv", str(folder.resolve()))]
    status = json.loads(kb("status", "--json", sources=sources).stdout)
    assert {(j["file"], j["status"]) for j in status} == {("quote.csv", "ready"), ("rates.csv", "ready")}
    (folder / "bad.csv").write_text("GPU,Rate\nH100 SXM,2.49\n", encoding="utf-8")
    refused = kb("sync", str(folder), sources=sources)
    assert refused.returncode == 2 and "refused bad.csv: bad.csv, line 2: column 'Rate' gives a rent rate" in \
        refused.stdout
