"""How long one gradient all-reduce takes on the cards asked: "8 张 a800 同步一次梯度要多久".

Table 5.3 of the corpus states the method for an 8-card ring of Llama 2 7B's bf16 gradients (half the two-way
link figure each way, no latency: an ideal bound); this says it for the cards, count and model of the question,
from the card's own link figure (NVLink where the record has one, else PCIe) and the check's parameters.
"""

from __future__ import annotations

from kb.answer.parts import Facts, Sentence
from kb.fit.speed import gradient_allreduce
from kb.words.answer import gpu_name
from kb.words.catalog import say

TABLE = "table-5.3-interconnect"
RING_GPUS = 8  # table 5.3's ring, said when the question counts no cards
TABLE_PARAMS = 6_738_415_616  # table 5.3's model (Llama 2 7B), when the question names none


def grad_sync(f: Facts, gpu: str, link: tuple[str, float], cite: list[str]) -> Sentence:
    """The all-reduce of the question's gradients over `gpu`'s `link` (kind, two-way GB/s), cited to `cite`."""
    count = f.counts.get(gpu) or RING_GPUS
    params, model = (f.model[1], f.model[0]) if f.model else (TABLE_PARAMS, "Llama 2 7B")
    if f.model and f.model[0] == "7b":  # a bare "7b" is the table's own 7B, as the guide's example
        params, model = TABLE_PARAMS, "7B (Llama 2 7B)"
    kind, two_way = link
    grads, moved, seconds = gradient_allreduce(params, count, two_way / 2)
    key = "grad_sync" if count > 1 else "grad_sync_one"
    return Sentence(say(key, f.language, count=count, gpu=gpu_name(gpu), model=model, grads=f"{grads / 1e9:.2f}",
                        moved=f"{moved / 1e9:.2f}", link={"nvlink": "NVLink", "pcie": "PCIe"}[kind],
                        one_way=f"{two_way / 2:g}", two_way=f"{two_way:g}", seconds=f"{seconds:.2f}",
                        less=count - 1),
                    cite, exempt=(gpu_name(gpu), model, "表 5.3", "table 5.3"),
                    derived=(grads / 1e9, moved / 1e9, two_way / 2, seconds, float(count - 1), float(count), 2.0))
