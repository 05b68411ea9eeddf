"""Versions under one file name never run backwards; adding the file that should be in force restores it."""

from __future__ import annotations

import pytest

from kb.documents.library import Library
from kb.errors import BadInput

NEWER = "型号,单价\nH100 SXM,\"¥228,000\"\n".encode()
OLDER = "型号,单价\nH100 SXM,\"¥235,000\"\n".encode()


def _h100(library: Library) -> float:
    return next(p.amount for p in library.prices() if p.gpu == "h100-sxm")


def test_an_older_version_is_refused_naming_both_dates_and_forced_it_is_undone_by_adding_the_newer(
        library: Library) -> None:
    new = library.add(NEWER, "quote.csv", as_of="2026-11-25").record
    with pytest.raises(BadInput) as refused:
        library.add(OLDER, "quote.csv", as_of="2026-10-01")
    assert str(refused.value) == (f"quote.csv: this version is dated 2026-10-01, older than the one in force "
                                  f"({new.id}, dated 2026-11-25): kb keeps the newer one; add it with --force "
                                  "(force=true) to replace it anyway")
    assert _h100(library) == 228000 and [r.id for r in library.records()] == [new.id]
    old = library.add(OLDER, "quote.csv", as_of="2026-10-01", force=True)
    assert old.superseded == new.id and _h100(library) == 235000
    restored = library.add(NEWER, "quote.csv")  # the mishap undone: not "unchanged"
    assert (restored.restored, restored.existed, restored.superseded) == (True, False, old.record.id)
    assert _h100(library) == 228000 and [r.id for r in library.records()] == [new.id]
    assert [(v.id, v.as_of, v.superseded_by) for v in library.versions(new.id)] == [
        (old.record.id, "2026-10-01", new.id), (new.id, "2026-11-25", None)]
    assert library.add(NEWER, "quote.csv").existed  # now it is unchanged


def test_restoring_an_older_version_follows_the_same_rule(library: Library) -> None:
    older = library.add(OLDER, "quote.csv", as_of="2026-10-01").record
    library.add(NEWER, "quote.csv", as_of="2026-11-25")
    with pytest.raises(BadInput, match="older than the one in force"):
        library.add(OLDER, "quote.csv")
    assert library.add(OLDER, "quote.csv", force=True).restored and _h100(library) == 235000
    assert [r.id for r in library.records()] == [older.id]


def test_removing_the_version_in_force_removes_its_older_versions(library: Library) -> None:
    library.add(OLDER, "quote.csv", as_of="2026-10-01")
    new = library.add(NEWER, "quote.csv", as_of="2026-11-25").record
    library.remove(new.id)
    assert library.store.manifest().records == [] and library.prices() == []
