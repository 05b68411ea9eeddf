"""fit_checks_for_question: the fit checks (and, for "which card", the ranked selection) a question asks for.

A question that names no model gets no check: a model is the one thing kb will not guess. Anything
else missing (GPU, count, workload, precision) is assumed and the assumption is said in the check.
"""

from __future__ import annotations

from kb.errors import BadInput
from kb.fit.check import check_fit
from kb.fit.parse import ParsedQuestion, parse_question
from kb.fit.request import WORKLOAD_PRECISIONS, parse_request
from kb.fit.result import FitResult, Selection
from kb.fit.select import select

DEFAULT_GPUS = ("a100-80gb", "rtx-4090")  # the document's two subjects, when a question names no GPU


def _workload_and_precision(q: ParsedQuestion, workload: str, notes: list[str]) -> tuple[str, str | None]:
    precision = q.precision
    if precision is None or precision in WORKLOAD_PRECISIONS[workload]:
        return workload, precision
    if workload == "lora" and precision in ("int4", "nf4"):
        notes.append("LoRA on a 4-bit base is QLoRA: checked as QLoRA (NF4)")
        return "qlora", "nf4"
    if workload == "qlora":
        notes.append(f"QLoRA's base is NF4: '{precision}' read as nf4")
        return "qlora", "nf4"
    notes.append(f"{precision} is not modelled for {workload}: {WORKLOAD_PRECISIONS[workload][0]} used")
    return workload, None


def _one(q: ParsedQuestion, gpu: str, count: int | None, workload: str, notes: list[str]) -> FitResult | None:
    notes = list(notes)
    workload, precision = _workload_and_precision(q, workload, notes)
    zero = q.zero or 0
    if workload == "full" and q.zero is None and (q.how_many or (count or 1) > 1):
        zero = 3
        notes.append("ZeRO stage not given: ZeRO-3 assumed across the GPUs")
    if count is None and not q.how_many:
        notes.append("no count given: one card")
    try:
        req = parse_request(model=q.model or "", workload=workload, gpu=gpu, count=count or 1,
                         precision=precision, seq_len=q.seq_len, batch=q.batch or 1, zero=zero, tokens=q.tokens)
        result = check_fit(req)
        if q.how_many and count is None and result.min_gpus and result.min_gpus != req.count:
            notes.append(f"'how many': checked at the fewest {gpu} that fit, {result.min_gpus}")
            result = check_fit(req.model_copy(update={"count": result.min_gpus}))
    except (BadInput, ValueError):
        return None  # a figure the question garbled (a zero batch, say): no check rather than a wrong one
    read = (f"read from the question: {gpu} × {result.gpu_count}, model {result.model}, workload {workload}"
            + (f", {q.precision}" if q.precision else "") + (f", {q.seq_len:,} tokens of context" if q.seq_len else "")
            + (f", batch {q.batch}" if q.batch else "") + (f", {q.tokens:.3g} training tokens" if q.tokens else ""))
    result.assumptions = [read, *notes, *result.assumptions]
    return result


def fit_checks_for_question(question: str, language: str = "zh") -> tuple[list[FitResult], Selection | None]:
    """Parse a question (Chinese or English) and run the checks it names; ([], None) when it names none.

    `language` only affects nothing yet but is kept so front ends pass what they detected; the
    parser reads both languages in either case.
    """
    from kb.settings import get_settings

    q = parse_question(question, get_settings().usd_cny)
    if q.model is None:
        return [], None
    notes = list(q.notes)
    workloads = q.workloads or ["inference"]
    if not q.workloads:
        notes.append("no workload named: inference assumed")
    if q.wants_selection and (q.budget_cny is not None or not q.gpus):
        workload, precision = _workload_and_precision(q, workloads[0], notes)
        try:
            sel, checks = select(q.model, workload, budget_cny=q.budget_cny, max_gpus=q.max_gpus,
                                 precision=precision, seq_len=q.seq_len, batch=q.batch or 1, tokens=q.tokens)
        except BadInput:
            return [], None
        sel.assumptions = [*notes, *sel.assumptions]
        return checks, sel
    gpus = q.gpus or [(g, None) for g in DEFAULT_GPUS]
    if not q.gpus:
        notes.append("no GPU named: checked on the document's two cards, A100 80GB and RTX 4090")
    results = [_one(q, gpu, count, w, notes) for gpu, count in gpus for w in workloads]
    return [r for r in results if r is not None], None
