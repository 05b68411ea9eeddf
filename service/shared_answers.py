"""Rendered answers shared by every replica through Redis: a question answered by one is a lookup for the others.

Keys carry a version: the index's corpus hash and embedder, kb's build id (a hash of its sources, so a deploy
that changes the composer never serves the old code's answers) and every setting that changes an answer's text,
so a new index, new code or new conventions never serve an old answer (old keys simply expire).
"""

from __future__ import annotations

import hashlib
import json

import redis.asyncio

from indexer.code_id import build_id
from kb.engine import Engine
from kb.settings import Settings
from service.answers import AnswerKey
from service.shared import Shared

TTL_S = 24 * 3600  # a day: long enough to matter, short enough that Redis's memory stays bounded by traffic
_ANSWER_SETTINGS = ("default_top_k", "max_top_k", "max_question_chars", "energy_price_cny_per_kwh", "usd_cny", "mfu")


def answers_version(settings: Settings, engine: Engine) -> str:
    """A short hash of everything besides the question that decides an answer."""
    manifest = engine.index.manifest
    documents = engine.documents.generation if engine.documents is not None else 0
    parts = {"corpus": manifest.corpus_hash, "embedder": manifest.embedder, "build": build_id(),
             **{name: getattr(settings, name) for name in _ANSWER_SETTINGS},
             # teams' documents: the store's manifest generation, the same on every replica sharing the store
             "documents": documents}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


class SharedAnswers:
    """Answers as JSON bytes under kb:answer:<version>:<question hash>, for TTL_S; misses when Redis is down."""

    def __init__(self, shared: Shared, answers_version: str) -> None:
        self.shared, self.version = shared, answers_version
        self.hits = 0
        self.misses = 0

    def _key(self, key: AnswerKey) -> str:
        question, top_k, context = key
        digest = hashlib.sha256(f"{top_k}\n{question}\n{context}".encode()).hexdigest()[:32]
        return self.shared.key("answer", self.version, digest)

    async def get(self, key: AnswerKey) -> bytes | None:
        async def fetch(r: redis.asyncio.Redis) -> bytes | None:
            value = await r.get(self._key(key))
            return value.encode() if isinstance(value, str) else value

        value = await self.shared.acall("answer_cache", fetch, None)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    async def put(self, key: AnswerKey, body: bytes) -> None:
        async def store(r: redis.asyncio.Redis) -> None:
            await r.set(self._key(key), body, ex=TTL_S)

        await self.shared.acall("answer_cache", store, None)
