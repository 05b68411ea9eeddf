"""The FastAPI app: `create_app(settings)` only assembles it; routes, state and middleware live in their modules."""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any

from fastapi import FastAPI, Security
from fastapi.middleware.cors import CORSMiddleware
from fastapi.security import HTTPBearer

from kb.engine import Engine
from kb.settings import Settings, get_settings
from service import errors
from service.document_jobs import DocumentJobs
from service.documents_watch import DocumentWatch
from service.metrics import Metrics
from service.middleware import RequestMiddleware
from service.ratelimit import Limiter, RateLimiter
from service.routes import ask, documents, feedback, fit, gaps, gpus, health, passages, web
from service.security import ApiKeys
from service.shared import Shared
from service.shared_limits import SharedRateLimiter
from service.state import AppState
from service.web.headers import SecurityHeaders

log = logging.getLogger("kb.service")
UPLOAD_OVERHEAD_BYTES = 64 * 1024  # multipart boundaries and the title/as_of fields around a document
DESCRIPTION = """Cited answers and computed fit checks for choosing GPUs for LLM training and inference,
from one Chinese guide. Ask in Chinese or English. 用中文或英文提问：选购GPU、显存是否够用、训练与推理成本。

Errors always look like `{"error": {"code", "field", "message", "request_id"}}`."""


# Seconds a served process may take to exit once its lifespan has ended: past them, a thread still at work (a
# document's embedding, abandoned at the grace period's end) no longer holds the process (it is not daemonic).
EXIT_AFTER_SHUTDOWN_S = 1.0


def exit_soon(seconds: float = EXIT_AFTER_SHUTDOWN_S) -> None:
    """End the process `seconds` from now unless it has ended by then (logs flushed first)."""

    def end() -> None:
        log.warning("exiting: work still running %.1f s after shutdown is abandoned", seconds)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(seconds, end)
    timer.daemon = True
    timer.start()


def create_app(settings: Settings | None = None, engine: Engine | None = None, *, serving: bool = False) -> FastAPI:
    """The app for these settings; the index loads in the lifespan unless an `engine` is handed in (tests).
    `serving`: the app of a `kb serve` process, which ends soon after its lifespan does (`exit_soon`)."""
    settings = settings or get_settings()
    metrics = Metrics()
    shared = Shared(settings.redis_url, metrics) if settings.redis_url else None
    state = AppState(settings, metrics, engine, shared)
    watch = DocumentWatch(state, settings.documents_poll_seconds)
    jobs = DocumentJobs(state)  # documents embedded by worker processes, a watched folder kept in step

    slack: Any = None

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state.start()
        watch.start()
        jobs.start()
        yield
        log.info("shutting down")
        watch.stop()
        jobs.stop()
        if slack is not None:
            slack.close()  # lets Slack answers in flight finish
        if shared is not None:
            await shared.aclose()
        metrics.worker_exited()
        if serving:
            exit_soon()

    # /docs is served by service/routes/web.py from local files (FastAPI's own loads Swagger UI from a CDN).
    app = FastAPI(title="kb", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    app.state.kb = state
    app.state.document_jobs = jobs
    errors.install(app)

    # Admin keys (KB_ADMIN_KEYS) may do everything an API key may, so they pass the /v1 guard too.
    keys = ApiKeys([*settings.api_keys, *settings.admin_keys] if settings.api_keys else [])
    # HTTPBearer(auto_error=False) only documents the scheme in OpenAPI; RequestMiddleware enforces it,
    # before the body is read, so malformed requests without a key get 401 too.
    documented_auth = [Security(HTTPBearer(auto_error=False))] if keys.enabled else []
    routers = [ask.router, fit.router, passages.router, gpus.router, documents.router, gaps.router, feedback.router]
    for router in routers:
        app.include_router(router, dependencies=documented_auth)
    app.include_router(health.router)
    app.include_router(web.router)
    routers += [health.router, web.router]
    slack = _include_slack(app, state)
    if slack is not None:
        routers.append(slack.router)

    limiter: Limiter = RateLimiter(settings.rate_limit_per_minute) if shared is None else \
        SharedRateLimiter(settings.rate_limit_per_minute, shared)
    app.add_middleware(RequestMiddleware, metrics=metrics, keys=keys, limiter=limiter,
                       max_body_bytes=settings.max_body_bytes, body_timeout=settings.body_timeout_seconds,
                       upload_max_bytes=int(settings.max_document_mb * 2**20) + UPLOAD_OVERHEAD_BYTES,
                       routes=[route for router in routers for route in router.routes])
    app.add_middleware(SecurityHeaders)
    if settings.cors_origins:  # outermost, so that 401/429 answers carry CORS headers too
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type", "X-Request-ID"],
                           expose_headers=["X-Request-ID", "Retry-After"])
    return app


def _slack_adapter() -> ModuleType | None:
    try:
        return importlib.import_module("service.slack")
    except ImportError:  # the Slack adapter (or slack-bolt) is not installed: the API works without it
        return None


def _include_slack(app: FastAPI, state: AppState) -> Any:
    """Mount POST /slack/events when Slack is configured; /readyz reports the status either way."""
    adapter = _slack_adapter()
    if adapter is None:
        state.slack_status = "slack: not installed"
        app.include_router(health.slack_not_configured(state.slack_status))
        return None
    integration = adapter.build_slack(state.settings, state.engine_for_slack, state.shared)
    if integration is None:
        state.slack_status = str(adapter.slack_status(state.settings))
        app.include_router(health.slack_not_configured(state.slack_status))
        return None
    app.include_router(integration.router)
    state.slack_status = str(integration.status)
    return integration


def create_app_from_env() -> FastAPI:
    """The uvicorn factory for worker processes (`kb serve --workers N`): settings from KB_* variables.

    Logging is already set up in the worker by uvicorn, from the log_config `run` passed it.
    """
    return create_app(get_settings(), serving=True)
