#!/usr/bin/env bash
# Install kb with its test extras, then lint, type-check and run the test suite (what CI runs).
#   scripts/test.sh            everything
#   scripts/test.sh --quick    the quick loop: no install step (once .venv exists), ruff, and the tests not
#                              marked slow (no processes, no real-corpus index; tests/conftest.py says which)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --quick ]; then
  shift
  [ -x .venv/bin/pytest ] || scripts/setup.sh dev
  .venv/bin/ruff check .
  # hypothesis and schemathesis register pytest plugins that take seconds to import; no quick test uses them.
  # Compiled modules and pytest's rewritten tests are kept in __pycache__ (gitignored) even where the shell
  # says PYTHONDONTWRITEBYTECODE: compiling ~150 modules and rewriting ~50 test files each run is 2 s of CPU.
  unset PYTHONDONTWRITEBYTECODE
  exec .venv/bin/pytest -q -p no:cacheprovider -p no:schemathesis -p no:hypothesispytest -m "not slow" "$@"
fi
scripts/setup.sh dev
.venv/bin/ruff check .
.venv/bin/mypy
# The slowest tests are listed at the end, so a CI log says where its minutes went.
.venv/bin/pytest -q -p no:cacheprovider --durations=25 "$@"
