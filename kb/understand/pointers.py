"""What a turn points back at: "that card", "the second one", "后者", "the cheaper option" — a card of the
conversation so far, found from its state so the turn can be answered as if it had named the card.

And a turn that asks why ("为什么不选A100", "why not the 4090s?", "why though?") is a question about the cards
the conversation is about, with the figures it was weighing: a reason, not a new check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kb.understand.mentions import Mention
from kb.understand.query import Query

Cards = list[tuple[str, int | None]]


def pointed(prior: Query, mentions: list[Mention], price: Callable[[str], float | None]) -> Cards:
    """The earlier cards a turn's pointer names ([] when it names none, or none can be told apart)."""
    keys = [m.key for m in mentions if m.kind == "pointer"]
    cards = list(dict.fromkeys([*prior.gpus, *prior.earlier_gpus]))
    if not keys or not cards:
        return []
    key = keys[0]
    if key == "first":
        return cards[:1]
    if key == "second":
        return cards[1:2]
    if key in ("cheaper", "dearer"):
        priced = [(p, c) for c in cards if (p := price(c[0])) is not None]
        if len(priced) < 2:
            return []
        pick = min(priced) if key == "cheaper" else max(priced)
        return [pick[1]]
    return cards[:1] if len(cards) == 1 else []  # ("that card" of one card; of two it is not told)


def point(prior: Query, new: Query, mentions: list[Mention], price: Callable[[str], float | None]) -> Query:
    """The turn with the cards it points at as its own (a figure asked of "that card" is of that card alone)."""
    if new.gpus or new.unknown_gpus:
        return new
    keys = {m.key for m in mentions if m.kind == "pointer"}
    if keys <= {"that"} and not (new.attributes and new.model is None):
        return new  # ("full fine-tune it on that card?": the conversation's card, carried as it is)
    cards = pointed(prior, mentions, price)
    if not cards:
        return new
    own = replace(new, gpus=[(g, new.count if new.count is not None else c) for g, c in cards], notes=list(new.notes))
    if own.attributes and own.model is None:  # "that card - its nvlink bandwidth? (why zero3 crawls)": its figure
        own.workloads, own.zero = [], None
    return own


def why_turn(prior: Query, new: Query, mentions: list[Mention]) -> Query | None:
    """A turn asking why, about the conversation's cards (and one it names beside them), or None when it is not
    one: a why that names a model of its own is a question of its own."""
    if not any(m.kind == "operation" and m.key == "why" for m in mentions) or new.model is not None:
        return None
    cards = list(new.gpus)
    cards += [c for c in prior.gpus if c[0] not in {g for g, _ in cards}]
    if not cards:
        return None
    weighed = list(prior.attributes)
    if prior.wants_selection or prior.budget_cny is not None:
        weighed += ["price", "power"]  # a pick was about what the cards cost and what they need around them
    if any((c or 0) >= 2 for _, c in prior.gpus):
        weighed += ["nvlink", "pcie"]  # several cards: the link between them ("shouldn't two be faster?")
    return replace(new, gpus=cards, attributes=list(dict.fromkeys([*new.attributes, *weighed])),
                   notes=list(new.notes), setting=new.setting or prior.setting,
                   budget_cny=None, wants_selection=False)
