"""docs/api.md stays in step with the JSON kb serves: every field of the OpenAPI schema, every slot of `state`,
every endpoint; and the README's configuration table names every setting with its default.

Built from the app itself (`create_app(...).openapi()`, no index needed), so a field added to a model without a
word in the docs fails here, in the quick loop.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.models import DocumentSource
from kb.settings import Settings
from kb.understand.query import Query, to_state
from service.app import create_app
from tests.support.paths import REPO

API = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")
# FastAPI's own name for the multipart form of POST /v1/documents; its fields are documented with the endpoint.
FORMS = {"Body_add_document_v1_documents_post"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return create_app(Settings(), None).openapi()


def documented(name: str, text: str = API) -> bool:
    return f"`{name}`" in text or re.search(rf"`[^`\n]*\b{re.escape(name)}\b[^`\n]*`", text) is not None


def test_every_field_the_service_returns_or_takes_is_documented(schema: dict[str, Any]) -> None:
    missing = [f"{model}.{field}" for model, body in schema["components"]["schemas"].items()
               for field in body.get("properties", {}) if not documented(field)]
    missing += [f"DocumentSource.{f}" for f in DocumentSource.model_fields if not documented(f)]
    assert not missing, f"docs/api.md does not name: {missing}"


def test_every_model_and_endpoint_is_documented(schema: dict[str, Any]) -> None:
    models = [m for m in schema["components"]["schemas"] if m not in FORMS and f"`{m}`" not in API]
    paths = [p for p in schema["paths"] if p not in API]
    assert not models and not paths, (models, paths)


def test_every_slot_of_state_is_documented() -> None:
    slots = to_state(Query(), "fit", "en")
    missing = [slot for slot in slots if not re.search(rf"^\| `{slot}`|`{slot}`", API, re.MULTILINE)]
    assert not missing, f"state slots missing from docs/api.md: {missing}"


def _table_rows(text: str) -> dict[str, str]:
    """The README's configuration table: variable → its row."""
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): line for line in section.splitlines() for m in [re.match(r"\| `(KB_[A-Z0-9_]+)`", line)] if m}


def test_the_readme_configuration_table_names_every_setting_with_its_default() -> None:
    rows = _table_rows(README)
    settings = Settings.model_fields
    names = {f"KB_{name.upper()}" for name in settings}
    assert not names - set(rows), f"settings missing from the README's table: {sorted(names - set(rows))}"
    edge = {name for name in rows if name.startswith("KB_EDGE_")} | {"KB_DEBUG"}
    assert not set(rows) - names - edge, f"the table names what is not a setting: {sorted(set(rows) - names - edge)}"
    for name, field in settings.items():
        row = rows[f"KB_{name.upper()}"]
        assert row.count("|") >= 4, row  # variable | default | what it changes
        default = field.get_default(call_default_factory=False)
        if isinstance(default, bool | int | float) and not isinstance(default, bool):
            assert re.search(rf"(?<![\d.]){re.escape(f'{default:g}')}(?![\d.])|{default:,}", row), (name, default, row)
