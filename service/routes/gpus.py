"""GET /v1/gpus: the GPU spec records that fit checks use, every figure with its source."""

from fastapi import APIRouter

from kb.fit.gpus import gpu_records
from service.deps import StateDep
from service.errors import GUARD_ERRORS, documented
from service.schemas import GpuList

router = APIRouter(tags=["gpus"])


@router.get("/v1/gpus", response_model=GpuList, responses=documented(*GUARD_ERRORS))
async def gpus(state: StateDep) -> GpuList:
    """Every GPU kind kb knows (ids for POST /v1/fit), with the guide's quotes or the vendor's figures."""
    corpus = state.settings.corpus_dir
    return await state.run(lambda: GpuList.model_validate({"gpus": gpu_records(corpus)}))
