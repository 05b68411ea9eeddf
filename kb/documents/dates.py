"""Dates as documents mean them: a quote's date is its `as_of`, "valid until" is its validity, the future is no date.

A quote is dated by the date its label names (报价日期, "Quote date", "Date:"), else by the newest date printed
in its first part that is neither a validity nor in the future; "valid until 2026-12-31" / "有效期至…" (or
"有效期 30 天" after the quote date) is kept as the quote's validity, never as its date. An `as_of` given by
hand that lies in the future is refused: a price dated ahead would lead every answer until that day.
"""

from __future__ import annotations

import datetime as dt
import re

from kb.errors import BadInput

_DATE = r"([12]\d{3})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?"
DATE_FORM = re.compile(_DATE)
QUOTE_LABELS = ("报价日期", "报价时间", "询价日期", "日期", "quote date", "quotation date", "date of quote", "dated",
                "date")
VALID_LABELS = ("有效期至", "有效期到", "有效期截至", "有效至", "报价有效期", "有效期", "valid until", "valid through",
                "valid till", "validity", "expires on", "expires", "expiry", "offer valid", "good until")
_DAYS = re.compile(r"(\d{1,3})\s*[天日dD]")
HEAD_CHARS = 20_000  # the part of a document whose dates date it (a ledger's last rows are not its date)
SLACK_DAYS = 1  # "today" anywhere on Earth: a date one day ahead of UTC is not the future


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def _dates(text: str) -> list[tuple[int, dt.date]]:
    out = []
    for m in DATE_FORM.finditer(text):
        try:
            out.append((m.start(), dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
        except ValueError:
            continue
    return out


def _labelled(text: str, labels: tuple[str, ...]) -> list[tuple[int, dt.date]]:
    """Dates that follow one of `labels` closely ("有效期至：2026-12-31", "Quote date: Nov 25" as ISO)."""
    lower = text.lower()
    found = []
    for pos, date in _dates(text):
        before = lower[max(0, pos - 24):pos]
        if any(label in before[-(len(label) + 6):] for label in labels):
            found.append((pos, date))
    return found


def validity(text: str, quote_date: str | None = None) -> str | None:
    """The date a quote is valid until: a labelled date, or a number of days after the quote's date."""
    head = text[:HEAD_CHARS]
    labelled = _labelled(head, VALID_LABELS)
    if labelled:
        return max(d for _, d in labelled).isoformat()
    if quote_date is not None:
        lower = head.lower()
        for label in VALID_LABELS:
            at = lower.find(label)
            if at >= 0:
                m = _DAYS.match(lower[at + len(label):at + len(label) + 16].lstrip("：: 为"))
                if m:
                    return (dt.date.fromisoformat(quote_date) + dt.timedelta(days=int(m.group(1)))).isoformat()
    return None


def quote_date(running: str, text: str | None = None, on: dt.date | None = None) -> str | None:
    """The date a document is of: the quote date its running text labels (报价日期：…, "Quote date: …"), else the
    newest date in the first part of its whole `text` (tables too) that is not a validity and not in the future
    (on `on`, default today)."""
    limit = (on or today()) + dt.timedelta(days=SLACK_DAYS)
    head = running[:HEAD_CHARS]
    valid = {pos for pos, _ in _labelled(head, VALID_LABELS)}
    labelled = [d for pos, d in _labelled(head, QUOTE_LABELS) if pos not in valid and d <= limit]
    if labelled:
        return labelled[0].isoformat()
    whole = (text if text is not None else running)[:HEAD_CHARS]
    valid = {pos for pos, _ in _labelled(whole, VALID_LABELS)}
    dates = [d for pos, d in _dates(whole) if pos not in valid and d <= limit]
    return max(dates).isoformat() if dates else None


def date_in(text: str) -> str | None:
    """The newest real date `text` writes (2026-11-03, 2026/11/3, 2026年11月3日), for a row's date cell."""
    dates = _dates(text)
    return max(d for _, d in dates).isoformat() if dates else None


def not_future(date: str, field: str = "as_of") -> str:
    """`date` unless it lies ahead of today: BadInput naming the field otherwise."""
    if dt.date.fromisoformat(date) > today() + dt.timedelta(days=SLACK_DAYS):
        raise BadInput(f"{field} {date} is in the future (today is {today().isoformat()}): give the date the "
                       "figures hold for, today or earlier", field=field)
    return date
