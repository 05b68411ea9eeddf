"""A stand-in for Slack in tests: a real HTTP server on 127.0.0.1 that records what the bot sends.

It answers the Web API methods the bot calls (auth.test, chat.postMessage, chat.postEphemeral,
chat.update) as Slack does, and accepts posts to response URLs (/response/<name>). Tests can make a
method fail once (a 429 with Retry-After, or an error such as not_in_channel), and sign request
bodies for POST /slack/events with slack_sdk's own SignatureVerifier.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block
from slack_sdk.signature import SignatureVerifier

BOT_USER = "UKB0BOT"
BOT_ID = "BKB0BOT"
TEAM = "T0TEAM"


@dataclass
class Call:
    """One request the bot made: the method (or response/<name>), its body, headers and when it came."""

    method: str
    body: dict[str, Any]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)


@dataclass
class Failure:
    status: int
    payload: dict[str, Any]
    headers: dict[str, str]


class FakeSlack:
    """Start with `with FakeSlack() as slack:`; point KB_SLACK_API_URL at `slack.api_url`."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.refused: list[Call] = []  # calls answered by a failure set up with fail_next
        self.failures: dict[str, list[Failure]] = {}
        self._ts = 0
        self._cond = threading.Condition()
        self.messages: dict[str, list[dict[str, Any]]] = {}  # channel → messages, as conversations.* return them
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                fake._handle(self)

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # shutdown() waits for serve_forever to look at its flag, every poll_interval (0.5 s unless told):
        # that was half a second at the end of every Slack test.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02},
                                       daemon=True)

    def __enter__(self) -> FakeSlack:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def api_url(self) -> str:
        return f"{self.base}/api/"

    def response_url(self, name: str) -> str:
        return f"{self.base}/response/{name}"

    def fail_next(self, method: str, status: int = 429, payload: dict[str, Any] | None = None,
                  headers: dict[str, str] | None = None) -> None:
        """The next call of method gets this answer instead (default: 429, Retry-After: 1)."""
        default_headers = {"Retry-After": "1"} if status == 429 else {}
        self.failures.setdefault(method, []).append(
            Failure(status, payload or {"ok": False, "error": "ratelimited"}, headers or default_headers))

    def said(self, channel: str, ts: str, text: str, user: str = "UASKER1", thread_ts: str | None = None) -> None:
        """A person's message, as Slack keeps it (events reach the bot by POST; the thread holds it too)."""
        with self._cond:
            self.messages.setdefault(channel, []).append(
                {"type": "message", "user": user, "text": text, "ts": ts, **({"thread_ts": thread_ts} if thread_ts
                                                                             else {})})

    # -- reading what was sent ----------------------------------------------------------------------

    def of(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def posts(self) -> list[Call]:
        """Everything that put a message in front of someone: posts, ephemerals, response_url posts."""
        with self._cond:
            return [c for c in self.calls if c.method in ("chat.postMessage", "chat.postEphemeral")
                    or c.method.startswith("response/")]

    def wait_for(self, ready: Callable[[FakeSlack], bool], timeout: float = 15.0) -> None:
        """Block until ready(self) holds (the bot answers on worker threads), or fail after timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not ready(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"fake Slack waited {timeout} s; calls so far: "
                                         f"{[c.method for c in self.calls]}")
                self._cond.wait(left)

    def wait_for_posts(self, n: int = 1, timeout: float = 15.0) -> list[Call]:
        self.wait_for(lambda s: len(s.posts()) >= n, timeout)
        return self.posts()

    # -- serving ------------------------------------------------------------------------------------

    def _handle(self, req: BaseHTTPRequestHandler) -> None:
        raw = req.rfile.read(int(req.headers.get("Content-Length") or 0)).decode()
        ctype = req.headers.get("Content-Type") or ""
        body: dict[str, Any] = json.loads(raw) if raw and "json" in ctype else dict(parse_qsl(raw))
        path = req.path.split("?")[0]
        method = path.removeprefix("/api/") if path.startswith("/api/") else path.lstrip("/")
        with self._cond:
            failure = self.failures.get(method, []).pop(0) if self.failures.get(method) else None
            (self.refused if failure else self.calls).append(Call(method, body, dict(req.headers.items())))
            status, payload, headers = (failure.status, failure.payload, failure.headers) if failure else (
                200, self._answer(method, body), {})
            self._cond.notify_all()
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
        req.send_response(status)
        req.send_header("Content-Type", "text/plain" if isinstance(payload, str) else "application/json")
        req.send_header("Content-Length", str(len(data)))
        for k, v in headers.items():
            req.send_header(k, v)
        req.end_headers()
        req.wfile.write(data)

    def _next_ts(self) -> str:
        """Now, as Slack stamps a post (later than the fixed timestamps tests give people's messages)."""
        self._ts += 1
        time.sleep(0.002)  # distinct, increasing stamps
        return f"{time.time():.6f}"

    def _answer(self, method: str, body: dict[str, Any]) -> Any:
        if method.startswith("response/"):
            blocks = body.get("blocks")
            return "invalid_blocks" if blocks is not None and block_problems(blocks) else "ok"
        if method == "auth.test":
            return {"ok": True, "url": "https://kb-test.slack.com/", "team": "kb test", "user": "kb",
                    "team_id": TEAM, "user_id": BOT_USER, "bot_id": BOT_ID, "is_enterprise_install": False}
        blocks = body.get("blocks")
        if isinstance(blocks, str):  # form-encoded posts carry blocks as a JSON string
            blocks = json.loads(blocks)
        if blocks is not None and block_problems(blocks):
            return {"ok": False, "error": "invalid_blocks", "problems": block_problems(blocks)}
        if method == "chat.postMessage":
            ts = self._next_ts()
            message: dict[str, Any] = {"type": "message", "bot_id": BOT_ID, "user": BOT_USER, "text": body.get("text"),
                                       "ts": ts}
            meta = body.get("metadata")
            if meta:
                message["metadata"] = json.loads(meta) if isinstance(meta, str) else meta
            if body.get("thread_ts"):
                message["thread_ts"] = body["thread_ts"]
            self.messages.setdefault(str(body.get("channel")), []).append(message)
            return {"ok": True, "channel": body.get("channel"), "ts": ts, "message": message}
        if method in ("conversations.replies", "conversations.history"):
            kept = self.messages.get(str(body.get("channel")), [])
            if method == "conversations.replies":
                root = str(body.get("ts"))
                kept = [m for m in kept if m["ts"] == root or m.get("thread_ts") == root]
            else:
                kept = [m for m in kept if not m.get("thread_ts")][::-1]  # newest first, as Slack gives them
            limit = int(body.get("limit") or 100)
            shown = [m if body.get("include_all_metadata") in (True, "true", "1", 1) else
                     {k: v for k, v in m.items() if k != "metadata"} for m in kept[:limit]]
            return {"ok": True, "messages": shown, "has_more": len(kept) > limit}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": self._next_ts()}
        if method == "chat.update":
            return {"ok": True, "channel": body.get("channel"), "ts": body.get("ts")}
        return {"ok": False, "error": "unknown_method"}


# -- Block Kit, checked as Slack checks it -----------------------------------------------------------

MAX_BLOCKS, SECTION_TEXT, HEADER_TEXT, CONTEXT_ELEMENTS, BUTTON_VALUE = 50, 3000, 150, 10, 2000


def block_problems(blocks: list[dict[str, Any]]) -> list[str]:
    """Why Slack would refuse these blocks ([] when it would not): slack_sdk's models, plus the limits they skip."""
    problems: list[str] = []
    if not 1 <= len(blocks) <= MAX_BLOCKS:
        problems.append(f"{len(blocks)} blocks (1 to {MAX_BLOCKS} allowed)")
    ids = [b["block_id"] for b in blocks if "block_id" in b]
    if len(ids) != len(set(ids)):
        problems.append("block_ids are not unique")
    for i, b in enumerate(blocks):
        try:
            parsed = Block.parse(b)
            if parsed is None or parsed.to_dict() != b:
                problems.append(f"block {i} ({b.get('type')}) does not round-trip through slack_sdk's models")
                continue
            parsed.validate_json()
            for element in getattr(parsed, "elements", None) or []:
                if hasattr(element, "validate_json"):
                    element.validate_json()
        except (SlackObjectFormationError, KeyError, TypeError) as e:
            problems.append(f"block {i}: {e}")
        texts = [b.get("text", {}).get("text")] if b["type"] in ("section", "header") else []
        if b["type"] == "context":
            texts = [e.get("text") for e in b["elements"]]
            if len(b["elements"]) > CONTEXT_ELEMENTS:
                problems.append(f"block {i}: {len(b['elements'])} context elements")
        limit = HEADER_TEXT if b["type"] == "header" else SECTION_TEXT
        for text in texts:
            if text is not None and not 1 <= len(text) <= limit:
                problems.append(f"block {i} ({b['type']}): text of {len(text)} characters (1 to {limit})")
        for el in b.get("elements", []) if b["type"] == "actions" else []:
            if len(el.get("value", "")) > BUTTON_VALUE:
                problems.append(f"block {i}: a button value of {len(el['value'])} characters")
    return problems


# -- signed requests to POST /slack/events ------------------------------------------------------------


def signed_headers(secret: str, body: str, content_type: str, timestamp: int | None = None) -> dict[str, str]:
    """The headers Slack sends: a v0 signature over the exact body bytes, made by slack_sdk's verifier."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signature, "Content-Type": content_type}


def slash_command_body(text: str, response_url: str, user: str = "UASKER1", channel: str = "C0GENERAL") -> str:
    return urlencode({"token": "legacy", "team_id": TEAM, "team_domain": "kb-test", "channel_id": channel,
                      "channel_name": "general", "user_id": user, "user_name": "asker", "command": "/kb",
                      "text": text, "api_app_id": "A0KB", "is_enterprise_install": "false",
                      "response_url": response_url, "trigger_id": "1.2.3"})


def event_body(event: dict[str, Any], event_id: str) -> str:
    return json.dumps({"token": "legacy", "team_id": TEAM, "api_app_id": "A0KB", "event": event,
                       "type": "event_callback", "event_id": event_id, "event_time": int(time.time()),
                       "authorizations": [{"enterprise_id": None, "team_id": TEAM, "user_id": BOT_USER,
                                           "is_bot": True, "is_enterprise_install": False}]})


def block_actions_body(action: dict[str, Any], message: dict[str, Any], response_url: str,
                       user: str = "UASKER1", channel: str = "C0GENERAL") -> str:
    payload = {"type": "block_actions", "team": {"id": TEAM, "domain": "kb-test"},
               "user": {"id": user, "username": "asker", "team_id": TEAM}, "api_app_id": "A0KB",
               "token": "legacy", "trigger_id": "1.2.3",
               "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel,
                             "is_ephemeral": False},
               "channel": {"id": channel, "name": "general"}, "message": message,
               "response_url": response_url, "actions": [action]}
    return urlencode({"payload": json.dumps(payload)})


# -- hand-made answers (the bot's rendering does not need an index) -----------------------------------


def sample_fit(gpu: str = "rtx-4090", fits: bool = True, count: int = 1) -> Any:
    from kb.fit.result import Breakdown, FitResult

    gib = 1024**3
    return FitResult(gpu=gpu, gpu_count=count, model="llama-2-13b", model_params=13_015_864_320,
                     workload="qlora", precision="nf4", zero_stage=0, seq_len=2048, batch=1, fits=fits,
                     per_gpu_required_bytes=int((9.8 if fits else 30.2) * gib), per_gpu_available_bytes=24 * gib,
                     headroom_bytes=int((24 - (9.8 if fits else 30.2)) * gib), min_gpus=1 if fits else 2,
                     breakdown=Breakdown(weights=7 * gib, gradients=0, optimizer=gib, activations=gib, kv_cache=0,
                                         overhead=gib),
                     decode_tokens_per_s=45.3, capex_cny=12999.0, assumptions=["binary units"],
                     steps=["13.0e9 × 0.5 B"], citations=["guide-4.2"])


def sample_answer(question: str = "能用一张4090 QLoRA微调13B模型吗？", n_passages: int = 3, n_checks: int = 2,
                  text_chars: int = 300, answer_chars: int = 0, notes: int = 1) -> Any:
    """An Answer shaped like engine.answer's, with sizes to push Slack's limits."""
    from kb.language import detect_language
    from kb.models import Answer, Passage, Source

    lang = detect_language(question)
    passages = [Passage(id=f"guide-{i}.1-c{i}", rank=i, section=f"{i}.1", heading=f"{i}.1 RTX 4090技术规格详解 <{i}>",
                        kind="guide", text=("RTX 4090 拥有24GB GDDR6X显存，带宽1008 GB/s。\n" * 200)[:text_chars],
                        original=("RTX 4090 拥有24GB GDDR6X显存，带宽1008 GB/s。\n" * 200)[:text_chars],
                        score=0.9 - i / 100, source=Source(path="corpus/guide.md", start_line=10 * i,
                                                           end_line=10 * i + 9),
                        notes=[f"note {j} about figures & <units>" for j in range(notes)])
                for i in range(1, n_passages + 1)]
    summary = " ".join(f"第{i}点[{i}]。" for i in range(1, n_passages + 1))
    if answer_chars:
        summary = (summary * (answer_chars // max(1, len(summary)) + 1))[:answer_chars]
    checks = [sample_fit(fits=i % 2 == 0, gpu=["rtx-4090", "a100-80gb", "rtx-4060"][i % 3]) for i in range(n_checks)]
    return Answer(question=question, language=lang, answer=summary, passages=passages,  # type: ignore[arg-type]
                  coverage="answered", fit_checks=checks, state={"intent": "fit", "said": question})


class FakeEngine:
    """Stands in for kb.engine.Engine: records questions, answers with sample_answer, optionally slowly, or only
    once `gate` is set (an answer as slow as a test needs, without a test waiting for a clock)."""

    def __init__(self, delay: float = 0.0, gate: threading.Event | None = None, **sizes: Any) -> None:
        from kb.cache import LruCache

        self.cache: LruCache[str, Any] = LruCache(0)  # what service.app's metrics watch on an Engine
        self.delay = delay
        self.gate = gate
        self.sizes = sizes
        self.questions: list[str] = []
        self.contexts: list[tuple[list[str] | None, dict[str, Any] | None]] = []  # (history, state) of each

    def serving(self, wrap: Any, on_retrieval: Any) -> FakeEngine:
        """Engine.serving's part of the contract: an app makes its own engine from the one handed to it."""
        return self

    def answer(self, question: str, top_k: int | None = None, history: list[str] | None = None,
               state: dict[str, Any] | None = None) -> Any:
        from kb.understand.question import clean_question

        text = clean_question(question, 500)
        self.questions.append(text)
        self.contexts.append((history, state))
        time.sleep(self.delay)
        if self.gate is not None and not self.gate.wait(timeout=60):
            raise AssertionError("the test never let the held answer go")
        return sample_answer(text, **self.sizes)
