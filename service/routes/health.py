"""Liveness, readiness and Prometheus metrics: for orchestrators and scrapers, outside /v1 and its API keys."""

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST

from service.deps import StateDep
from service.errors import error_response
from service.examples import READY_503
from service.schemas import Health, Ready

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """Liveness: the process answers (whether or not the index has loaded)."""
    return Health()


@router.get("/readyz", response_model=Ready,
            responses={503: {"model": Ready, "description": "Not ready: loading, or the load failed",
                             "content": {"application/json": {"example": READY_503}}}})
async def readyz(state: StateDep) -> Response:
    """Readiness: 200 once the index is loaded, 503 until then (or if it failed to load, with why)."""
    engine = state.engine
    redis = [await state.shared.status()] if state.shared is not None else ["redis: not configured (in-process state)"]
    if engine is None:
        detail = [f"index: {state.error or 'still loading'}", state.slack_status, *redis]
        waiting = Ready(status="failed" if state.error else "loading", detail=detail)
        return JSONResponse(waiting.model_dump(), status_code=503)
    chunks, embedder = engine.index.count, engine.index.manifest.embedder
    ready = Ready(status="ready", chunks=chunks, embedder=embedder,
                  detail=[f"index: {chunks} chunks, {embedder}", state.slack_status, *redis])
    return JSONResponse(ready.model_dump())


@router.get("/metrics", include_in_schema=False)
async def metrics(state: StateDep) -> Response:
    """Prometheus metrics for this worker process."""
    return Response(state.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def slack_not_configured(status: str) -> APIRouter:
    """POST /slack/events when Slack is not set up here: a 404 in the error shape saying what to set."""
    slack = APIRouter(tags=["slack"])

    @slack.post("/slack/events", include_in_schema=False)
    async def slack_events() -> Response:
        return error_response(404, f"{status}; see the README's Slack section", code="slack_not_configured")

    return slack
