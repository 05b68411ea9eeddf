"""/v1/documents over real HTTP (uvicorn on loopback): admin keys add and remove, API keys only ask."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from tests.support import document_files as files
from tests.support.jobs import wait_for_job, wait_until
from tests.support.servers import LiveServer

ADMIN, USER = "admin-key-0123456789", "user-key-0123456789"


@pytest.fixture(scope="module")
def server(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    s = settings.model_copy(update={
        "sources_dir": tmp_path_factory.mktemp("api-sources"), "admin_keys": [SecretStr(ADMIN)],
        "api_keys": [SecretStr(USER)], "max_document_mb": 1.0, "rate_limit_per_minute": 0})
    with LiveServer(create_app(s, Engine.open(s, build_if_needed=False))) as live:
        yield live


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _post(server: LiveServer, key: str, name: str, data: bytes, **form: str) -> httpx.Response:
    return httpx.post(f"{server.url}/v1/documents", headers=_auth(key), files={"file": (name, data)}, data=form,
                      timeout=120)


def test_an_admin_adds_a_document_and_answers_cite_it_until_it_is_removed(server: LiveServer) -> None:
    question = {"question": "我们实测 L40S 上 Llama-2-13B 解码多少 token/s？"}
    bench = files.docx_bytes(paragraphs=1)
    added = _post(server, ADMIN, "bench.docx", bench, title="L40S 实测", as_of="2026-10-20")
    assert added.status_code == 202, added.text  # at once: a worker process embeds it
    record = added.json()
    assert (record["title"], record["file"], record["format"], record["as_of"], record["as_of_from"]) == (
        "L40S 实测", "bench.docx", "docx", "2026-10-20", "flag")
    assert record["status"] == "queued" and record["job"]["total"] == record["chunks"]
    job = wait_for_job(server.url, record["id"], _auth(USER))
    assert (job["status"], job["done"]) == ("ready", record["chunks"])
    wait_until(lambda: any(d["id"] == record["id"] for d in
                           httpx.get(f"{server.url}/v1/documents", headers=_auth(USER)).json()), 10)
    again = _post(server, ADMIN, "bench.docx", bench)
    assert again.status_code == 200 and again.json()["id"] == record["id"] and again.json()["status"] == "ready"
    listed = httpx.get(f"{server.url}/v1/documents", headers=_auth(USER)).json()
    assert [d["id"] for d in listed] == [record["id"]]
    one = httpx.get(f"{server.url}/v1/documents/{record['id']}", headers=_auth(USER))
    assert one.status_code == 200 and one.json()["chunks"] == record["chunks"]
    wait_until(lambda: any(p["kind"] == "document" for p in httpx.post(
        f"{server.url}/v1/ask", json=question, headers=_auth(USER), timeout=60).json()["passages"]), 10)
    answer = httpx.post(f"{server.url}/v1/ask", json=question, headers=_auth(USER), timeout=60).json()
    cited = [p for p in answer["passages"] if p["kind"] == "document"]
    assert cited and cited[0]["source"]["document"] == record["id"] and cited[0]["source"]["as_of"] == "2026-10-20"
    assert "58 token/s" in cited[0]["text"]
    assert httpx.delete(f"{server.url}/v1/documents/{record['id']}", headers=_auth(USER)).status_code == 403
    gone = httpx.delete(f"{server.url}/v1/documents/{record['id']}", headers=_auth(ADMIN))
    assert gone.status_code == 204 and gone.content == b""
    after = httpx.post(f"{server.url}/v1/ask", json=question, headers=_auth(USER), timeout=60).json()
    assert not [p for p in after["passages"] if p["kind"] == "document"]  # the cached answer was dropped too
    assert httpx.get(f"{server.url}/v1/documents/{record['id']}", headers=_auth(USER)).status_code == 404


def test_an_ordinary_key_can_ask_but_not_add(server: LiveServer) -> None:
    r = _post(server, USER, "a.csv", b"a,b\n1,2\n")
    assert r.status_code == 403 and "admin key" in r.json()["error"]["message"]
    assert _post(server, "wrong", "a.csv", b"a,b\n1,2\n").status_code == 401
    assert httpx.get(f"{server.url}/v1/documents", headers=_auth(USER)).json() == []


@pytest.mark.parametrize("name,data,status,message", [
    ("x.exe", b"MZ", 422, "not a format kb reads"),
    ("empty.csv", b"", 422, "the file is empty"),
    ("scan.pdf", files.scanned_pdf_bytes(), 422, "needs OCR"),
    ("bomb.docx", files.zip_bomb_docx(), 422, "zip bomb"),
    ("../../etc/passwd.txt", b"root", 422, "plain file name"),
    ("big.txt", b"x" * (1 << 20) + b"x", 413, "over the limit of 1 MB"),
])
def test_bad_input_is_a_4xx_json_error_naming_the_file(server: LiveServer, name: str, data: bytes, status: int,
                                                        message: str) -> None:
    r = _post(server, ADMIN, name, data)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert message in error["message"] and error["field"] == "file"
    assert httpx.get(f"{server.url}/v1/documents", headers=_auth(USER)).json() == []


def test_bad_form_fields_and_ids(server: LiveServer) -> None:
    r = _post(server, ADMIN, "a.csv", b"a,b\n1,2\n", as_of="2026-02-30")
    assert r.status_code == 422 and r.json()["error"]["field"] == "as_of"
    r = _post(server, ADMIN, "a.csv", b"a,b\n1,2\n", as_of="9999-12-31")  # a future date would lead for good
    assert r.status_code == 422 and r.json()["error"]["field"] == "as_of" and "future" in r.json()["error"]["message"]
    assert httpx.get(f"{server.url}/v1/jobs/doc-000000000000", headers=_auth(USER)).status_code == 404
    r = httpx.get(f"{server.url}/v1/documents/..%2F..%2Fetc", headers=_auth(USER))
    assert r.status_code in (404, 422)
    assert httpx.delete(f"{server.url}/v1/documents/doc-000000000000", headers=_auth(ADMIN)).status_code == 404


def test_without_admin_keys_adding_over_http_is_off(settings: Settings, tmp_path: Path) -> None:
    s = settings.model_copy(update={"sources_dir": tmp_path})
    with LiveServer(create_app(s, Engine.open(s, build_if_needed=False))) as live:
        r = httpx.post(f"{live.url}/v1/documents", files={"file": ("a.csv", b"a,b\n1,2\n")})
        assert r.status_code == 403 and "KB_ADMIN_KEYS" in r.json()["error"]["message"]


def test_gaps_over_http_for_admins_only(server: LiveServer) -> None:
    asked = httpx.post(f"{server.url}/v1/ask", json={"question": "RX 7900 XTX 能跑 Llama-2-13B 推理吗？"},
                       headers=_auth(USER), timeout=60).json()
    assert asked["unknown"]
    assert httpx.get(f"{server.url}/v1/gaps", headers=_auth(USER)).status_code == 403
    gaps = httpx.get(f"{server.url}/v1/gaps", params={"since": "1d"}, headers=_auth(ADMIN))
    assert gaps.status_code == 200
    assert any("7900" in n["name"] for n in gaps.json()["unknown_names"])
    bad = httpx.get(f"{server.url}/v1/gaps", params={"since": "soon"}, headers=_auth(ADMIN))
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "since"


def test_a_wrong_flag_from_the_page_is_in_gaps_under_the_names_it_was_about(server: LiveServer) -> None:
    answer = httpx.post(f"{server.url}/v1/ask", json={"question": "H100 SXM 的显存带宽是多少？"}, headers=_auth(USER),
                        timeout=60).json()
    flagged = httpx.post(f"{server.url}/v1/feedback", headers=_auth(USER), json={
        "question": answer["question"], "verdict": "wrong", "state": answer["state"]})
    assert flagged.status_code == 204, flagged.text
    gaps = httpx.get(f"{server.url}/v1/gaps", headers=_auth(ADMIN)).json()
    h100 = next(n for n in gaps["by_name"] if n["name"] == "h100-sxm")
    assert h100["of"] == "gpu" and h100["kinds"]["wrong"] >= 1 and answer["question"] in h100["questions"]
    assert {"question": answer["question"], "asked": 1} in gaps["wrong"]
    for body, field in (({"question": "", "verdict": "wrong"}, "question"), ({"question": "x", "verdict": "meh"},
                                                                               "verdict"),
                        ({"question": "x", "verdict": "wrong", "about": "gpu:h100"}, "about")):
        bad = httpx.post(f"{server.url}/v1/feedback", headers=_auth(USER), json=body)
        assert bad.status_code == 422 and bad.json()["error"]["field"] == field, bad.text
