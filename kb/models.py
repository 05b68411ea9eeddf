"""The shapes users and scripts rely on (contracts.md): a passage and an answer."""

from typing import Any, Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from kb.fit.result import FitResult, Selection
from kb.language import Language

Kind = Literal["guide", "spec", "tradeoff", "case", "table", "concept", "document"]


class Source(BaseModel):
    """Where a passage's text sits in the corpus, so a reader can open the exact lines."""

    path: str = Field(examples=["corpus/guide.md"])
    start_line: int = Field(ge=1, examples=[187])
    end_line: int = Field(ge=1, examples=[216])


class DocumentSource(BaseModel):
    """Where a team document's passage sits: the document, its file and date, and the page, row or lines.

    `path` is the original's place in the document store (KB_SOURCES_DIR); exactly one of page,
    sheet and row, or start_line and end_line says where inside it (a PDF table row has page and row).
    """

    document: str = Field(examples=["doc-3f2a9c01b7d4"])
    title: str
    file: str = Field(examples=["2026-11 报价.xlsx"])
    as_of: str = Field(examples=["2026-11-03"], description="YYYY-MM-DD: the date the document's figures hold for")
    path: str = Field(description="The original, relative to KB_SOURCES_DIR")
    page: int | None = Field(default=None, ge=1)
    sheet: str | None = None
    row: int | None = Field(default=None, ge=1)
    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)
    valid_until: str | None = Field(default=None, description="A quote's validity, YYYY-MM-DD, as it says")
    expired: bool | None = Field(default=None, description="True once a quote's validity has passed")

    @model_serializer(mode="wrap")
    def _only_the_place_it_has(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A PDF page has no lines: the place is written with the keys it has, never as nulls."""
        return {k: v for k, v in handler(self).items() if v is not None}


class Passage(BaseModel):
    """One retrieved chunk, verbatim, with its citation."""

    id: str = Field(examples=["guide-4.2"])
    rank: int = Field(ge=1, examples=[1])
    section: str = Field(examples=["4.2"])
    heading: str = Field(examples=["4.2 RTX 4090技术规格详解"])
    kind: Kind
    text: str = Field(description="The passage in the question's language (the corpus's English rendering for "
                                  "English questions).")
    original: str = Field(description="The passage verbatim from the Chinese corpus.")
    score: float
    source: Source | DocumentSource
    notes: list[str] = Field(default_factory=list, description="Caveats a reader needs beside the text.")


Coverage = Literal["answered", "partial", "not_covered"]


class Answer(BaseModel):
    """A question's cited answer: the direct answer first, then passages, fit checks and a selection."""

    question: str
    language: Language
    answer: str = Field(description="The direct answer first, then its reasons, in the question's language; "
                                    "every sentence ends in markers: [n] passages[n-1], [F1] fit_checks[0], "
                                    "[S] selection. Every number in it is in what its markers cite.")
    coverage: Coverage = Field(description="answered; partial (part of the question is outside what kb holds); "
                                           "not_covered (the guide does not cover it).")
    unknown: list[str] = Field(default_factory=list,
                               description="Names in the question kb has no record for (a GPU, a model).")
    passages: list[Passage]
    fit_checks: list[FitResult] = Field(default_factory=list)
    selection: Selection | None = Field(default=None, description="Ranked GPU configurations, for 'what to buy'.")
    resolved_question: str = Field(default="", description="The question as it stands on its own, in the asker's "
                                                           "language (a follow-up with what it carried filled in).")
    state: dict[str, Any] = Field(default_factory=dict,
                                  description="What kb understood, as slots (intent, asked, gpus, models, workload, "
                                              "precision, gpu_count, seq_len, concurrency, budget_cny, tokens, "
                                              "language …): pass it back unchanged as `state` with a follow-up.")
    carried: list[str] = Field(default_factory=list, description="Slots taken from earlier turns.")
    changed: list[str] = Field(default_factory=list, description="Slots this turn changed.")
