"""Rendered answers cached whole: a repeated question costs a dictionary lookup, not a search."""

from __future__ import annotations

from kb.cache import LruCache

AnswerKey = tuple[str, int | None]  # (question as sent, top_k as sent)


class AnswerCache(LruCache[AnswerKey, bytes]):
    """LruCache plus a lookup that never computes, so a hit is served without a trip to the thread pool."""

    def get(self, key: AnswerKey) -> bytes | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
                self.hits += 1
            return value
