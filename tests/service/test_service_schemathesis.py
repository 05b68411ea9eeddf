"""Schemathesis over the live app's OpenAPI: generated requests, valid and invalid, never get a 5xx and every
response matches the schema the app itself publishes.

schemathesis's lazy pytest loader (`from_fixture`) does not run under pytest 9, so each operation's Hypothesis
strategy is driven here directly, against a live server.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.servers import LiveServer

WITH_INPUT = [("POST", "/v1/ask"), ("POST", "/v1/fit"), ("GET", "/v1/passages/{passage_id}"),
              ("POST", "/v1/documents"), ("GET", "/v1/documents/{doc_id}"), ("DELETE", "/v1/documents/{doc_id}"),
              ("GET", "/v1/jobs/{doc_id}"), ("POST", "/v1/feedback"), ("GET", "/v1/gaps")]
OPERATIONS = [*WITH_INPUT, ("GET", "/v1/gpus"), ("GET", "/v1/documents"), ("GET", "/v1/jobs"), ("GET", "/healthz"),
              ("GET", "/readyz")]
# Valid data for every operation; invalid data where there is an input to get wrong.
CASES = [(m, p, GenerationMode.POSITIVE) for m, p in OPERATIONS] + \
    [(m, p, GenerationMode.NEGATIVE) for m, p in WITH_INPUT]
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]
EXAMPLES = 40  # per operation and mode: the whole file stays within about a minute
# Invalid data must be refused. schemathesis's own list of refusals lacks 413: a body over KB_MAX_BODY_BYTES is
# refused before its fields are read (a JSON error naming `body`), and an invalid body can be that large (a clause
# of `state.asks` over its 10,000 characters, in \u escapes). A 2xx for invalid data still fails.
REFUSED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REFUSED}}})


@pytest.fixture(scope="module")
def api_schema(live: LiveServer) -> Any:
    return schemathesis.openapi.from_url(f"{live.url}/openapi.json", config=CONFIG)


def test_every_operation_is_fuzzed(api_schema: Any) -> None:
    found = {(op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations()}
    assert found == set(OPERATIONS)


@pytest.mark.parametrize(("method", "path", "mode"), CASES, ids=[f"{m} {p} {mode}" for m, p, mode in CASES])
def test_the_api_keeps_its_own_contract(api_schema: Any, method: str, path: str, mode: GenerationMode) -> None:
    operation = api_schema[path][method]
    checks = [*CHECKS, negative_data_rejection] if mode is GenerationMode.NEGATIVE else CHECKS

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        case.call_and_validate(checks=checks)

    run()
