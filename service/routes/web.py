"""GET /: the web page; GET /web/*: its static files and config; GET /docs: Swagger UI from local files.

Everything is served from the package (service/web/static, and the Swagger UI assets that the
fastapi-offline wheel ships), so the page and /docs work with no network. Every file is named in a
fixed table: a request can never reach outside these folders.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, JSONResponse, Response

from kb.fit.gpus import load_gpus
from kb.fit.presets import PRESETS
from kb.fit.request import DEFAULT_SEQ, MAX_COUNT, MAX_SEQ, WORKLOAD_PRECISIONS, WORKLOADS
from kb.language import LANGUAGES
from kb.words.answer import gpu_name
from kb.words.catalog import table
from service.deps import StateDep
from service.web import STATIC

router = APIRouter(include_in_schema=False)
SWAGGER = Path(fastapi_offline.__file__).resolve().parent / "static"
_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
# Revalidate every time (an ETag makes that a 304): a new kb version never runs with an old page's scripts.
_CACHE = {"Cache-Control": "no-cache"}


def _files(folder: Path, names: list[str] | None = None) -> dict[str, Path]:
    paths = [folder / n for n in names] if names else sorted(folder.iterdir())
    return {p.name: p for p in paths if p.is_file() and p.suffix in _TYPES}


WEB_FILES = _files(STATIC)
WORDS_MODULE = "export const WORDS = " + json.dumps({lang: table("page", lang) for lang in LANGUAGES},
                                                    ensure_ascii=False) + ";\n"
DOCS_FILES = _files(SWAGGER, ["swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"])


def _send(files: dict[str, Path], name: str) -> FileResponse:
    path = files.get(name)
    if path is None:
        raise HTTPException(404, f"no file {name!r}")
    return FileResponse(path, media_type=_TYPES[path.suffix], headers=_CACHE)


@router.get("/")
async def page() -> FileResponse:
    """The page: ask, read the cited passages, see each fit check as a chart."""
    return _send(WEB_FILES, "index.html")


@router.get("/docs")
async def docs() -> FileResponse:
    """Swagger UI over /openapi.json, its scripts from kb (FastAPI's own /docs loads them from a CDN)."""
    return _send(WEB_FILES, "docs.html")


@router.get("/docs/assets/{name}")
async def docs_asset(name: str) -> FileResponse:
    return _send(DOCS_FILES, name)


@router.get("/web/config.json")
async def config(state: StateDep) -> JSONResponse:
    """What the page's forms offer, and whether it must ask for an API key (never the keys themselves)."""
    s = state.settings
    gpus = load_gpus(s.corpus_dir)
    body: dict[str, Any] = {
        "keys_required": bool(s.api_keys),
        "max_question_chars": s.max_question_chars,
        "models": list(PRESETS),
        "gpus": [{"id": g.id, "name": g.name, "label": gpu_name(g.id), "vram_gib": g.vram_gib} for g in gpus.values()],
        "workloads": list(WORKLOADS),
        "workload_precisions": WORKLOAD_PRECISIONS,
        "default_seq": DEFAULT_SEQ,
        "max_count": MAX_COUNT,
        "max_seq": MAX_SEQ,
    }
    return JSONResponse(body, headers=_CACHE)


@router.get("/web/words.js")
async def words() -> Response:
    """The page's words in both languages, from kb's one words catalog (kb/words/catalog/page.py), as the ES
    module the page's i18n.js imports: loaded with the page's scripts, before it asks anything."""
    return Response(WORDS_MODULE, media_type=_TYPES[".js"], headers=_CACHE)


@router.get("/web/{name}")
async def asset(name: str) -> FileResponse:
    return _send(WEB_FILES, name)
