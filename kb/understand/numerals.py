"""Numbers as people write them in questions: 两张, 十六, 700亿, 50万元, 1.9万, "a pair of", "eight", 32k."""

from __future__ import annotations

import re

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9, "双": 2, "单": 1}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
EN_WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "dual": 2, "twin": 2, "three": 3, "four": 4,
            "quad": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12,
            "sixteen": 16, "a pair of": 2, "pair of": 2, "a couple of": 2, "couple of": 2, "a dozen": 12, "dozen": 12}
# Multipliers after a number ("50万", "2万亿", "1.5k", "70 billion").
SCALE = {"万亿": 1e12, "千亿": 1e11, "亿": 1e8, "万": 1e4, "w": 1e4, "千": 1e3, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12,
         "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "mn": 1e6, "bn": 1e9}

_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
          "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
# A count of users or sessions in English words ("thirty", "twenty-four"): one to ninety-nine.
_BELOW_100 = rf"(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_ONES)}))?|{'|'.join(_TEENS)}|{'|'.join(_ONES)}"
# ... and whole hundreds ("a hundred", "two hundred and fifty").
EN_COUNT = (rf"(?<![a-z])(?:(?:a|one|{'|'.join(_ONES)})[\s-]hundred(?:[\s-](?:and[\s-])?(?:{_BELOW_100}))?|"
            rf"{_BELOW_100}|a dozen|dozen)(?![a-z])")
CN_NUMERAL = "[零〇一二两俩三四五六七八九十百千单双]+"
# A count in English words beside a card: one to ninety-nine as words (not the "ten" of "often"), then the
# phrases of EN_WORDS ("a pair of", "a"), longest first.
EN_NUMBER_WORD = "|".join([EN_COUNT, *sorted((re.escape(w) for w in EN_WORDS), key=len, reverse=True)])
# A number starts where no letter or digit is glued before it: the 16 of "fp16" and the 8 of "fp8,100 users"
# are parts of names, not counts.
NUM = r"(?<![A-Za-z\d.])\d+(?:,\d{3})*(?:\.\d+)?"


def cn_int(text: str) -> int | None:
    """A Chinese numeral below ten thousand ("十六" 16, "二十" 20, "一百二十八" 128); None if not one.

    A digit right after 百 or 千 counts the next unit down, as people say prices: "六千五" is 6,500 and "三百五"
    350 ("六千零五", with the zero, is 6,005)."""
    if not text or any(c not in CN_DIGITS and c not in CN_UNITS for c in text):
        return None
    if len(text) == 1 and text in CN_DIGITS:
        return CN_DIGITS[text]
    total, digit = 0, None
    for c in text:
        if c in CN_UNITS:
            total += (digit if digit is not None else 1) * CN_UNITS[c]
            digit = None
        else:
            digit = CN_DIGITS[c]
    if digit and len(text) >= 2 and text[-2] in CN_UNITS and CN_UNITS[text[-2]] >= 100:
        return total + digit * CN_UNITS[text[-2]] // 10
    return total + (digit or 0)


def to_int(token: str) -> int | None:
    """An Arabic, Chinese or English count ("8", "两", "eight", "a pair of", "twenty-four"); None otherwise."""
    token = token.strip().lower()
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", token):  # "16,384"
        return int(token.replace(",", ""))
    if token in EN_WORDS:
        return EN_WORDS[token]
    words = [w for w in re.split(r"[\s-]+", token) if w != "and"]
    hundreds = 0
    if len(words) >= 2 and words[1] == "hundred" and (words[0] in ("a", "one") or words[0] in _ONES):
        hundreds, words = 100 * _ONES.get(words[0], 1), words[2:]
        if not words:
            return hundreds
    if words and all(w in _ONES or w in _TEENS or w in _TENS for w in words):
        return hundreds + sum(_ONES.get(w, 0) + _TEENS.get(w, 0) + _TENS.get(w, 0) for w in words)
    return cn_int(token)


def count_value(token: str) -> float | None:
    """A count written any way people write one: "30", "1,200", "四十", "八千", "thirty", "twenty-four"."""
    if re.fullmatch(r"\d+(?:,\d{3})*(?:\.\d+)?", token.strip()):
        return float(token.strip().replace(",", ""))
    value = to_int(token)
    return float(value) if value is not None else None


def amount(number: str, scale: str | None) -> float:
    """'50' + '万' -> 500000.0; '1,000' -> 1000.0; '32' + 'k' -> 32000.0; '二十' + '万' -> 200000.0."""
    value = float(number.replace(",", "")) if number[:1].isdigit() else float(cn_int(number) or 0)
    return value * SCALE.get((scale or "").lower(), 1.0)
