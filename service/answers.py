"""Rendered answers cached whole: a repeated question costs a dictionary lookup, not a search."""

from __future__ import annotations

from kb.cache import LruCache

AnswerKey = tuple[str, int | None, str]  # (question as sent, top_k as sent, the conversation as canonical JSON)


class AnswerCache(LruCache[AnswerKey, bytes]):
    """LruCache plus a lookup that never computes, so a hit is served without a trip to the thread pool."""

    def get(self, key: AnswerKey) -> bytes | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
                self.hits += 1
            return value

    def __init__(self, maxsize: int, max_bytes: int = 0) -> None:
        super().__init__(maxsize, max_bytes, len)

    def put(self, key: AnswerKey, value: bytes) -> None:
        """Keep an answer computed elsewhere (another replica, via Redis)."""
        self._keep(key, value)

    def clear(self) -> None:
        """Forget every answer: a document was added or removed, so any of them may now read differently."""
        with self._lock:
            self._data.clear()
            self.bytes = 0
