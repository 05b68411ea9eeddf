"""GET /v1/gaps: `kb gaps --json` over HTTP, for admins (the questions people asked are theirs to read)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from kb.gaps.entries import parse_since, read_summary
from service.deps import StateDep
from service.errors import GUARD_ERRORS, documented
from service.routes.documents import require_admin

router = APIRouter(tags=["gaps"])


@router.get("/v1/gaps", dependencies=[Depends(require_admin)], responses=documented(403, 422, *GUARD_ERRORS, 503))
async def gaps(state: StateDep, since: Annotated[str | None, Query(max_length=16, examples=["7d"])] = None,
               ) -> dict[str, Any]:
    """Unknown names most asked, questions not covered or partly covered, answers marked wrong (503: the log
    cannot be read, e.g. Redis is down)."""
    seconds = parse_since(since) if since is not None else None
    return await state.run(read_summary, state.gaps, seconds)
