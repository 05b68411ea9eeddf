#!/usr/bin/env bash
# Install kb with its test extras, then lint, type-check and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/pytest -q -p no:cacheprovider "$@"
