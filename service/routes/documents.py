"""/v1/documents: teams' own documents. Anyone who may ask may list them; adding and removing need an admin key."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, HTTPException, Path, Request, Response, UploadFile

from kb.documents.library import Library
from kb.documents.records import DocumentRecord
from service.deps import StateDep
from service.documents_watch import documents_changed
from service.errors import BODY_ERRORS, GUARD_ERRORS, documented, error_response
from service.security import ApiKeys, bearer_token
from service.state import AppState

router = APIRouter(tags=["documents"])
DocId = Annotated[str, Path(max_length=64, pattern=r"^doc-[0-9a-f]{12}$", examples=["doc-3f2a9c01b7d4"])]


def _library(state: AppState) -> Library:
    s, engine = state.settings, state.require_engine()
    return Library(s.sources_dir, s.corpus_dir, lambda: engine.embedder, usd_cny=s.usd_cny,
                   max_bytes=int(s.max_document_mb * 2**20))


def require_admin(request: Request, state: StateDep) -> None:
    """403 unless the request carries one of KB_ADMIN_KEYS (compared in constant time)."""
    admins = ApiKeys(state.settings.admin_keys)
    if not admins.enabled:
        raise HTTPException(403, "adding or removing documents over HTTP is off: the server has no KB_ADMIN_KEYS")
    if not admins.accepts(bearer_token(request.headers.get("authorization"))):
        raise HTTPException(403, "this key may ask but not add or remove documents: send an admin key "
                                 "(KB_ADMIN_KEYS) as Authorization: Bearer <key>")


@router.post("/v1/documents", status_code=201, response_model=DocumentRecord, dependencies=[Depends(require_admin)],
             responses=documented(403, *BODY_ERRORS, *GUARD_ERRORS, 503) | {200: {"description": "Already there: "
                                                                            "the same bytes were added before"}})
async def add_document(state: StateDep, file: Annotated[UploadFile, File(description="The document")],
                       title: Annotated[str | None, Form(max_length=200)] = None,
                       as_of: Annotated[str | None, Form(description="YYYY-MM-DD its figures hold for")] = None,
                       ) -> Response:
    """Add a document (Markdown, HTML, PDF, DOCX, XLSX, CSV, text); answers cite it from then on."""
    limit = int(state.settings.max_document_mb * 2**20)
    data = await file.read(limit + 1)
    if len(data) > limit:
        return error_response(413, f"{file.filename}: over the limit of {state.settings.max_document_mb:g} MB "
                                   "(KB_MAX_DOCUMENT_MB)", "file")
    library = _library(state)
    added = await state.run(library.add, data, file.filename or "", title, as_of)
    if not added.existed:
        await state.run(documents_changed, state)
    return Response(added.record.model_dump_json(), status_code=200 if added.existed else 201,
                    media_type="application/json")


@router.get("/v1/documents", response_model=list[DocumentRecord], responses=documented(*GUARD_ERRORS, 503))
async def list_documents(state: StateDep) -> list[DocumentRecord]:
    """The documents kb answers from, with their dates (superseded versions are not listed)."""
    return await state.run(_library(state).records)


@router.get("/v1/documents/{doc_id}", response_model=DocumentRecord, responses=documented(404, 422, *GUARD_ERRORS))
async def get_document(doc_id: DocId, state: StateDep) -> DocumentRecord:
    """One document's record (a superseded version too: `superseded_by` names the newer one)."""
    record = _library(state).store.manifest().get(doc_id)
    if record is None:
        raise HTTPException(404, f"no document with id {doc_id!r}; GET /v1/documents lists them")
    return record


@router.delete("/v1/documents/{doc_id}", status_code=204, dependencies=[Depends(require_admin)],
               responses=documented(403, 404, 422, *GUARD_ERRORS, 503))
async def remove_document(doc_id: DocId, state: StateDep) -> Response:
    """Remove a document and its older versions: answers stop citing them."""
    library = _library(state)
    if library.store.manifest().get(doc_id) is None:
        raise HTTPException(404, f"no document with id {doc_id!r}; GET /v1/documents lists them")
    await state.run(library.remove, doc_id)
    await state.run(documents_changed, state)
    return Response(status_code=204)
