"""fit_checks_for_question: the fit checks (and, for "which card", the ranked selection) a question asks for.

A question that names no model gets no check: a model is the one thing kb will not guess. Anything
else missing (GPU, count, workload, precision) is assumed and the assumption is said in the check.
"""

from __future__ import annotations

from kb.errors import BadInput
from kb.fit.check import check_fit
from kb.fit.messages import check_language, msg, workload_name
from kb.fit.parse import ParsedQuestion, parse_question
from kb.fit.request import WORKLOAD_PRECISIONS, parse_request
from kb.fit.result import FitResult, Selection
from kb.fit.select import select

DEFAULT_GPUS = ("a100-80gb", "rtx-4090")  # the document's two subjects, when a question names no GPU


def _workload_and_precision(q: ParsedQuestion, workload: str, notes: list[str]) -> tuple[str, str | None]:
    precision, lang = q.precision, q.language
    if precision is None or precision in WORKLOAD_PRECISIONS[workload]:
        return workload, precision
    if workload == "lora" and precision in ("int4", "nf4"):
        notes.append(msg("lora_4bit", lang))
        return "qlora", "nf4"
    if workload == "qlora":
        notes.append(msg("qlora_nf4", lang, precision=precision))
        return "qlora", "nf4"
    notes.append(msg("precision_unmodelled", lang, precision=precision, workload=workload_name(workload, lang),
                     default=WORKLOAD_PRECISIONS[workload][0]))
    return workload, None


def _read(q: ParsedQuestion, gpu: str, result: FitResult, workload: str) -> str:
    """What the check took from the question, as the first assumption."""
    lang = q.language
    details = "".join([msg("read_precision", lang, precision=q.precision) if q.precision else "",
                       msg("read_seq", lang, seq=q.seq_len) if q.seq_len else "",
                       msg("read_batch", lang, batch=q.batch) if q.batch else "",
                       msg("read_tokens", lang, tokens=q.tokens) if q.tokens else ""])
    return msg("read", lang, gpu=gpu, count=result.gpu_count, model=result.model,
               workload=workload_name(workload, lang), details=details)


def _one(q: ParsedQuestion, gpu: str, count: int | None, workload: str, notes: list[str]) -> FitResult | None:
    notes, lang = list(notes), q.language
    workload, precision = _workload_and_precision(q, workload, notes)
    zero = q.zero or 0
    if workload == "full" and q.zero is None and (q.how_many or (count or 1) > 1):
        zero = 3
        notes.append(msg("zero3_assumed", lang))
    if count is None and not q.how_many:
        notes.append(msg("one_card", lang))
    try:
        req = parse_request(model=q.model or "", workload=workload, gpu=gpu, count=count or 1,
                         precision=precision, seq_len=q.seq_len, batch=q.batch or 1, zero=zero, tokens=q.tokens)
        result = check_fit(req, language=lang)
        if q.how_many and count is None and result.min_gpus and result.min_gpus != req.count:
            notes.append(msg("how_many", lang, gpu=gpu, count=result.min_gpus))
            result = check_fit(req.model_copy(update={"count": result.min_gpus}), language=lang)
    except (BadInput, ValueError):
        return None  # a figure the question garbled (a zero batch, say): no check rather than a wrong one
    result.assumptions = [_read(q, gpu, result, workload), *notes, *result.assumptions]
    return result


def fit_checks_for_question(question: str, language: str | None = None) -> tuple[list[FitResult], Selection | None]:
    """Parse a question (Chinese or English) and run the checks it names; ([], None) when it names none.

    `language` ("zh" or "en") is the language the checks' and the selection's prose is written in; front
    ends pass what they detected, and None detects it from the question. The parser reads both
    languages either way.
    """
    from kb.language import detect_language
    from kb.settings import get_settings

    lang = check_language(detect_language(question) if language is None else language)
    q = parse_question(question, get_settings().usd_cny, lang)
    if q.model is None:
        return [], None
    notes = list(q.notes)
    workloads = q.workloads or ["inference"]
    if not q.workloads:
        notes.append(msg("no_workload", lang))
    if q.wants_selection and (q.budget_cny is not None or not q.gpus):
        workload, precision = _workload_and_precision(q, workloads[0], notes)
        try:
            sel, checks = select(q.model, workload, budget_cny=q.budget_cny, max_gpus=q.max_gpus,
                                 precision=precision, seq_len=q.seq_len, batch=q.batch or 1, tokens=q.tokens,
                                 language=lang)
        except BadInput:
            return [], None
        sel.assumptions = [*notes, *sel.assumptions]
        return checks, sel
    gpus = q.gpus or [(g, None) for g in DEFAULT_GPUS]
    if not q.gpus:
        notes.append(msg("no_gpu", lang))
    results = [_one(q, gpu, count, w, notes) for gpu, count in gpus for w in workloads]
    return [r for r in results if r is not None], None
