"""The Dockerfile cannot be built here (no Docker engine), so its promises are checked statically,
and its install step is the script CI itself runs."""

from __future__ import annotations

import re

from tests.support.paths import REPO

TEXT = (REPO / "Dockerfile").read_text(encoding="utf-8")
INSTRUCTIONS = [line.strip() for line in re.sub(r"\\\n", " ", TEXT).splitlines()
                if line.strip() and not line.lstrip().startswith("#")]


def test_multi_stage_non_root_with_healthcheck() -> None:
    assert sum(i.startswith("FROM ") for i in INSTRUCTIONS) >= 2
    users = [i.split()[1] for i in INSTRUCTIONS if i.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any(i.startswith("HEALTHCHECK ") and "/healthz" in i for i in INSTRUCTIONS)
    assert INSTRUCTIONS[-1].startswith("CMD ") and "serve" in INSTRUCTIONS[-1]


def test_installs_with_the_ci_script_and_builds_the_index() -> None:
    runs = " ".join(i for i in INSTRUCTIONS if i.startswith("RUN "))
    assert "scripts/setup.sh" in runs and "kb index" in runs
    assert "scripts/setup.sh dev" in (REPO / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "scripts/test.sh" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_everything_it_copies_exists_and_is_not_ignored() -> None:
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    for line in INSTRUCTIONS:
        if line.startswith("COPY ") and "--from" not in line:
            *sources, _dest = line.split()[1:]
            for src in sources:
                assert (REPO / src).exists(), src
                assert src.rstrip("/") not in ignored, src


def test_installs_the_built_wheel_not_an_editable_checkout() -> None:
    runs = " ".join(i for i in INSTRUCTIONS if i.startswith("RUN "))
    assert "scripts/setup.sh wheel" in runs and " -e " not in runs
    assert '"$extras" = wheel' in (REPO / "scripts" / "setup.sh").read_text(encoding="utf-8")
    final = TEXT[TEXT.rindex("FROM "):]
    copied = [i.split()[-2] for i in INSTRUCTIONS[INSTRUCTIONS.index(final.splitlines()[0].strip()):]
              if i.startswith("COPY --from")]
    assert copied and all(src in ("/app/.venv", "/var/lib/kb") for src in copied)  # no source tree at run time
    assert "KB_CORPUS_DIR" not in final  # the corpus is the wheel's


def test_the_document_store_is_a_folder_the_service_user_owns() -> None:
    """KB_SOURCES_DIR is where compose's volume and the k8s claim mount; a fresh volume copies its owner."""
    final = INSTRUCTIONS[max(i for i, line in enumerate(INSTRUCTIONS) if line.startswith("FROM ")):]
    env = " ".join(i for i in final if i.startswith("ENV "))
    (sources,) = re.findall(r"KB_SOURCES_DIR=(\S+)", env)
    user = [i.split()[1] for i in final if i.startswith("USER ")][-1]
    made = [i for i in final if i.startswith("RUN ") and sources in i]
    assert made and any(f"-o {user}" in i and "install -d" in i for i in made), made
    assert final.index(made[0]) < final.index(f"USER {user}")  # made as root, before dropping to the user
