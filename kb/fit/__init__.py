"""The fit-check engine: memory, speed and cost for a model × GPU × workload, with its working shown.

Entry points: `check_fit(FitRequest)` for explicit parameters, `fit_checks_for_question(question,
language)` for a question in Chinese or English. Both write their assumptions and working in
`language` ("zh" or "en", from kb.fit.messages; check_fit defaults to "en"). GPU figures come from
corpus/specs/*.md.
"""

from kb.fit.check import check_fit
from kb.fit.question import fit_checks_for_question
from kb.fit.request import FitRequest, parse_request

__all__ = ["FitRequest", "check_fit", "fit_checks_for_question", "parse_request"]
