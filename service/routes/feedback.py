"""POST /v1/feedback: a person marks an answer wrong (👎) on the web page; `kb gaps` lists it with what it was about."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Response
from pydantic import BaseModel, ConfigDict, Field

from kb.gaps.entries import about, about_of
from service.deps import StateDep
from service.errors import BODY_ERRORS, GUARD_ERRORS, documented
from service.gaps import flag_wrong

router = APIRouter(tags=["feedback"])


class FeedbackRequest(BaseModel):
    """The question whose answer was wrong, and that answer's `state` (what it was about)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"question": "H100 租 6 个月多少钱？", "verdict": "wrong",
         "state": {"gpus": [{"id": "h100-sxm", "count": None}], "asked": "rent_or_buy"}}]})

    question: str = Field(min_length=1, max_length=2000)
    verdict: Literal["wrong", "down"] = Field(description="wrong: the answer says something false; down: 👎, not "
                                                          "what was asked")
    state: dict[str, Any] | None = Field(default=None, description="The answer's `state`, passed back unchanged "
                                                                   "(only its ids are read)")
    about: list[str] | None = Field(default=None, max_length=12, description="Or the names and topics themselves")


@router.post("/v1/feedback", status_code=204, responses=documented(*BODY_ERRORS, *GUARD_ERRORS))
async def feedback(request: Annotated[FeedbackRequest, Body()], state: StateDep) -> Response:
    """Mark an answer wrong: the question goes to `kb gaps` (never who asked), under the cards, models and topics
    its answer was about."""
    text = " ".join(request.question.split())[:state.settings.max_question_chars]
    mentioned = about(request.state) or about_of(request.about)
    await state.run(flag_wrong, state.gaps, state.shared, text, mentioned)
    return Response(status_code=204)
