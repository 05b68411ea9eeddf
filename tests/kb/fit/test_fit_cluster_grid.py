"""Issue 16's grid: presets × GPU kinds × counts 1…16,384 × workloads, sampled (a fixed seed) so it runs in
seconds. Every check keeps TP inside a node and dividing the heads, names the network when it spans nodes,
reports as min_gpus the smallest count the search finds, and lists an alternative when more cards would fix it.
"""

from __future__ import annotations

import random

import pytest

from kb.fit.presets import PRESETS
from kb.fit.request import FitRequest
from tests.support.fit_engine_helpers import ENGINE

COUNTS = (1, 2, 3, 8, 16, 64, 512, 2048, 16384)
WORKLOADS = ("inference", "full", "lora", "qlora")
SAMPLES = 48


def _grid() -> list[tuple[str, str, int, str]]:
    rng = random.Random(16)
    models, gpus = sorted(PRESETS), sorted(ENGINE.gpus)
    cases = [(rng.choice(models), rng.choice(gpus), rng.choice(COUNTS), rng.choice(WORKLOADS))
             for _ in range(SAMPLES)]
    # the issue's own cases
    return [*cases, ("deepseek-v3", "h100-sxm", 2048, "full"), ("qwen2.5-32b", "h100-sxm", 64, "inference"),
            ("llama-65b", "a100-80gb", 2048, "full"), ("llama-3.1-405b", "h100-sxm", 16384, "full")]


GRID = _grid()


def _req(model: str, gpu: str, count: int, workload: str, **kw: object) -> FitRequest:
    return FitRequest(model=model, gpu=gpu, count=count, workload=workload, **kw)  # type: ignore[arg-type]


def _previous(n: int, per_node: int) -> int:
    """The candidate count below n: one fewer inside a node, one node fewer beyond it."""
    return n - 1 if n <= per_node else max(per_node, n - per_node)


@pytest.mark.parametrize(("model", "gpu", "count", "workload"), GRID, ids=["-".join(map(str, c)) for c in GRID])
def test_cluster_invariants(model: str, gpu: str, count: int, workload: str) -> None:
    spec, shape = ENGINE.gpus[gpu], PRESETS[model]
    r = ENGINE.check(_req(model, gpu, count, workload))
    lay = r.layout
    assert lay is not None
    assert lay.tp <= spec.gpus_per_node and shape.heads % lay.tp == 0
    assert lay.tp * lay.pp * lay.dp <= count
    if lay.nodes > 1:
        assert lay.inter_node_link, "a multi-node check names its network"
        assert any("InfiniBand" in s for s in r.steps + r.assumptions)
    if r.serving is not None:
        assert r.serving.tensor_parallel <= spec.gpus_per_node
        assert r.serving.tensor_parallel * r.serving.pipeline_parallel * r.serving.replicas <= count
    if r.min_gpus is not None:
        assert ENGINE.numbers(_req(model, gpu, r.min_gpus, workload)).fits
        if r.min_gpus > 1:
            assert not ENGINE.numbers(_req(model, gpu, _previous(r.min_gpus, spec.gpus_per_node), workload)).fits
    if not r.fits and r.min_gpus is not None and r.min_gpus != count:
        assert r.alternatives, "a check more cards would fix lists an alternative"


def test_pins_are_kept_and_bad_pins_name_the_field() -> None:
    from kb.errors import BadInput

    r = ENGINE.numbers(_req("llama-3-70b", "h100-sxm", 64, "full", tp=4, pp=2, zero=1))
    assert r.layout is not None and (r.layout.tp, r.layout.pp, r.layout.zero_stage) == (4, 2, 1)
    with pytest.raises(BadInput) as e:
        ENGINE.numbers(_req("llama-3-70b", "h100-sxm", 64, "full", tp=16))
    assert e.value.field == "tp"
    with pytest.raises(BadInput) as e:
        ENGINE.numbers(_req("llama-3-70b", "h100-sxm", 64, "full", tp=8, pp=3))
    assert e.value.field == "pp"
