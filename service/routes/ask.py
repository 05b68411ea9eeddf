"""POST /v1/ask: a question in, the cited Answer out."""

import json
from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Body, Response

from kb.gaps.entries import about
from kb.models import Answer
from service.deps import StateDep
from service.errors import BODY_ERRORS, GUARD_ERRORS, documented
from service.examples import ASK
from service.gaps import record_gap
from service.schemas import AskRequest

router = APIRouter(tags=["ask"])


@router.post("/v1/ask", response_model=Answer, responses=documented(*BODY_ERRORS, *GUARD_ERRORS, 503))
async def ask(request: Annotated[AskRequest, Body(openapi_examples=ASK)], state: StateDep,
              after: BackgroundTasks) -> Response:
    """Answer a GPU question (Chinese or English) with cited passages and computed fit checks."""
    history = [turn.question for turn in request.history] if request.history else None
    passed = request.state.model_dump() if request.state is not None else None  # checked by the schema already
    body = await state.answer_json(request.question, request.top_k, history, passed)
    if b'"coverage":"answered"' not in body or b'"unknown":[]' not in body:  # kb fell short: kb gaps
        # Recorded once the answer has gone out: a SQLite commit (or a Redis call) is no part of the answer's
        # latency, and a record lost with a dying process costs only the log (as Redis being down does).
        answer = json.loads(body)
        after.add_task(state.run, record_gap, state.gaps, state.shared, answer["question"], answer["coverage"],
                       answer["unknown"], about(answer.get("state")))
    return Response(body, media_type="application/json")
