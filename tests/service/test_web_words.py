"""The web page's words come from kb's one words catalog: served as /web/words.js, complete in both languages,
and holding every key the page's scripts and HTML ask for."""

from __future__ import annotations

import json
import re
import string

from kb.words.catalog import table
from service.routes.web import WORDS_MODULE
from service.web import STATIC


def _placeholders(value: object) -> set[str]:
    if isinstance(value, str):
        return {name for _, name, _, _ in string.Formatter().parse(value) if name}
    if isinstance(value, dict):
        return set().union(*(_placeholders(v) for v in value.values())) if value else set()
    return set()


def test_both_languages_have_the_same_words_with_the_same_placeholders() -> None:
    en, zh = table("page", "en"), table("page", "zh")
    assert set(en) == set(zh)
    for key in en:
        assert _placeholders(en[key]) == _placeholders(zh[key]), key
        assert type(en[key]) is type(zh[key]), key


def test_the_served_module_is_the_catalog() -> None:
    m = re.fullmatch(r"export const WORDS = (.*);\n", WORDS_MODULE, re.DOTALL)
    assert m
    assert json.loads(m.group(1)) == {"en": table("page", "en"), "zh": table("page", "zh")}


def test_every_key_the_page_asks_for_is_in_the_catalog() -> None:
    words = table("page", "en")
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    asked = set(re.findall(r"\btf?\(\"(\w+)\"", scripts)) | set(re.findall(r'data-i18n(?:-placeholder)?="(\w+)"', html))
    assert asked and not asked - set(words), sorted(asked - set(words))
    filled = re.findall(r'\btf\("(\w+)", \{([^}]*)\}', scripts)
    for key, values in filled:  # what each tf() call fills is what the entry holds
        given = set(re.findall(r"(\w+):", values))
        assert _placeholders(words[key]) <= given, (key, given)
