"""GET /v1/passages/{passage_id}: one passage by the id an answer or a fit check cited."""

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query

from kb.models import Passage
from service.deps import EngineDep
from service.errors import GUARD_ERRORS, documented
from service.examples import PASSAGE_ID

router = APIRouter(tags=["passages"])


@router.get("/v1/passages/{passage_id}", response_model=Passage, responses=documented(404, 422, *GUARD_ERRORS, 503))
async def passage(passage_id: Annotated[str, Path(max_length=200, openapi_examples=PASSAGE_ID)], engine: EngineDep,
            language: Annotated[Literal["zh", "en"], Query(description="Language of the notes")] = "zh") -> Passage:
    """One passage, verbatim, with its section and source lines."""
    found = engine.passage(passage_id, language)
    if found is None:
        raise HTTPException(404, f"no passage with id {passage_id!r}; ids come from /v1/ask answers")
    return found
