"""POST /v1/fit: one fit check from explicit parameters (the `kb fit` options as JSON fields)."""

from typing import Annotated

from fastapi import APIRouter, Body

from kb.fit.engine import FitEngine
from kb.fit.request import FitRequest
from kb.fit.result import FitResult
from service.deps import StateDep
from service.errors import BODY_ERRORS, GUARD_ERRORS, documented
from service.examples import FIT

router = APIRouter(tags=["fit"])


@router.post("/v1/fit", response_model=FitResult, responses=documented(*BODY_ERRORS, *GUARD_ERRORS))
async def fit(request: Annotated[FitRequest, Body(openapi_examples=FIT)], state: StateDep) -> FitResult:
    """Check whether a model fits on GPUs for a workload: memory by term, min GPUs, speed, cost, the arithmetic."""
    s = state.settings

    def run() -> FitResult:
        return FitEngine.from_settings(s).check(request)

    return await state.run(run)
