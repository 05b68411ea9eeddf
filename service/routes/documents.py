"""/v1/documents and /v1/jobs: teams' own documents and their embedding jobs. Anyone who may ask may list them;
adding and removing need an admin key.

An upload is checked and staged in the request (what kb refuses is a 422 naming the file, nothing stored) and
answered at once, 202 with the job's status; a worker process embeds it (service/document_jobs.py), and
GET /v1/jobs/{id} says `queued`, `embedding n/N`, `ready` or `failed: why`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, HTTPException, Path, Request, Response, UploadFile
from pydantic import Field

from kb.documents.jobs import JobLog, JobStatus
from kb.documents.records import DocumentRecord
from kb.documents.store import Store
from service.deps import StateDep
from service.document_jobs import DocumentJobs, staging_library
from service.documents_watch import documents_changed
from service.errors import BODY_ERRORS, GUARD_ERRORS, documented, error_response
from service.security import ApiKeys, bearer_token

router = APIRouter(tags=["documents"])
DocId = Annotated[str, Path(max_length=64, pattern=r"^doc-[0-9a-f]{12}$", examples=["doc-3f2a9c01b7d4"])]


class DocumentAdded(DocumentRecord):
    """The document's record (a draft until its job is ready) with where its embedding stands."""

    status: str = Field(description="queued, embedding n/N, ready, or failed: why", examples=["queued"])
    job: JobStatus | None = Field(default=None, description="The embedding job (GET /v1/jobs/{id} follows it)")


def require_admin(request: Request, state: StateDep) -> None:
    """403 unless the request carries one of KB_ADMIN_KEYS (compared in constant time)."""
    admins = ApiKeys(state.settings.admin_keys)
    if not admins.enabled:
        raise HTTPException(403, "adding or removing documents over HTTP is off: the server has no KB_ADMIN_KEYS")
    if not admins.accepts(bearer_token(request.headers.get("authorization"))):
        raise HTTPException(403, "this key may ask but not add or remove documents: send an admin key "
                                 "(KB_ADMIN_KEYS) as Authorization: Bearer <key>")


async def document_jobs(request: Request) -> DocumentJobs:
    jobs: DocumentJobs = request.app.state.document_jobs
    return jobs


JobsDep = Annotated[DocumentJobs, Depends(document_jobs)]


@router.post("/v1/documents", status_code=202, response_model=DocumentAdded, dependencies=[Depends(require_admin)],
             responses=documented(403, *BODY_ERRORS, *GUARD_ERRORS, 503) | {
                 200: {"description": "Already there: the same bytes are the version in force"},
                 201: {"description": "Restored: these bytes were an earlier version, now in force again"}})
async def add_document(state: StateDep, jobs: JobsDep, file: Annotated[UploadFile, File(description="The document")],
                       title: Annotated[str | None, Form(max_length=200)] = None,
                       as_of: Annotated[str | None, Form(max_length=32, description="YYYY-MM-DD its figures hold "
                                                                                    "for, not in the future")] = None,
                       force: Annotated[bool, Form(description="Accept a version dated before the one in force")]
                       = False) -> Response:
    """Add a document (Markdown, HTML, PDF, DOCX, XLSX, CSV, text): checked now, embedded by a worker (202 with
    its job); answers cite it once its status is `ready`."""
    limit = int(state.settings.max_document_mb * 2**20)
    data = await file.read(limit + 1)
    if len(data) > limit:
        return error_response(413, f"{file.filename}: over the limit of {state.settings.max_document_mb:g} MB "
                                   "(KB_MAX_DOCUMENT_MB)", "file")
    library = staging_library(state)
    added = await state.run(lambda: library.submit(data, file.filename or "", title, as_of, force=force))
    if added.staged:
        jobs.submit(added.record.id)
    if added.restored:
        await state.run(documents_changed, state)
    job = added.job
    status = job.status if job is not None else "ready"
    body = DocumentAdded(**added.record.model_dump(), status=status, job=job)
    code = 200 if added.existed else 201 if added.restored else 202
    return Response(body.model_dump_json(), status_code=code, media_type="application/json")


@router.get("/v1/documents", response_model=list[DocumentRecord], responses=documented(*GUARD_ERRORS, 503))
async def list_documents(state: StateDep) -> list[DocumentRecord]:
    """The documents kb answers from, with their dates (superseded versions are not listed)."""
    return await state.run(lambda: Store(state.settings.sources_dir).manifest().current())


@router.get("/v1/documents/{doc_id}", response_model=DocumentRecord, responses=documented(404, 422, *GUARD_ERRORS))
async def get_document(doc_id: DocId, state: StateDep) -> DocumentRecord:
    """One document's record (a superseded version too: `superseded_by` names the newer one)."""
    record = Store(state.settings.sources_dir).manifest().get(doc_id)
    if record is None:
        raise HTTPException(404, f"no document with id {doc_id!r}; GET /v1/documents lists them")
    return record


@router.delete("/v1/documents/{doc_id}", status_code=204, dependencies=[Depends(require_admin)],
               responses=documented(403, 404, 422, *GUARD_ERRORS, 503))
async def remove_document(doc_id: DocId, state: StateDep) -> Response:
    """Remove a document (the version in force takes the versions it replaced): answers stop citing it."""
    library = staging_library(state)
    if library.store.manifest().get(doc_id) is None:
        raise HTTPException(404, f"no document with id {doc_id!r}; GET /v1/documents lists them")
    await state.run(library.remove, doc_id)
    await state.run(documents_changed, state)
    return Response(status_code=204)


@router.get("/v1/jobs", response_model=list[JobStatus], responses=documented(*GUARD_ERRORS))
async def list_jobs(state: StateDep) -> list[JobStatus]:
    """Embedding jobs, newest first: queued, embedding n/N, ready, or failed: why (finished ones for 7 days)."""
    return await state.run(JobLog(state.settings.sources_dir).all)


@router.get("/v1/jobs/{doc_id}", response_model=JobStatus, responses=documented(404, 422, *GUARD_ERRORS))
async def get_job(doc_id: DocId, state: StateDep) -> JobStatus:
    """One document's embedding job."""
    job = JobLog(state.settings.sources_dir).get(doc_id)
    if job is None:
        raise HTTPException(404, f"no job for {doc_id!r}; GET /v1/jobs lists them")
    return job
