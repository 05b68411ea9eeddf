"""Embeddings kept between index builds, so `kb index` re-embeds only the chunks whose text changed.

A vector is reused only for the same embedder (id and version) and the exact same text: the key is the
sha256 of the text the embedder saw. The cache is one file beside the artifact, never inside it (the
artifact is rebuilt whole each time; the cache outlives it), written to a temp file and renamed:

  line 1   b"KBEMBED 1\\n"                                    magic and format version
  line 2   {"embedder", "version", "dim", "count", "sha256"}  JSON header; sha256 is the payload's
  payload  count x 32-byte keys, then count x dim float32 (little-endian), row i the vector of key i

Anything unexpected when reading (another magic or format, bad JSON, another embedder or version, another
dimension, a short file, a checksum that does not match) makes it an empty cache: ignored, never trusted,
and replaced by the next save. A save keeps only the vectors of the build that saved it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"KBEMBED 1\n"
KEY_BYTES = 32


def cache_path(index_dir: Path) -> Path:
    """Where the cache for the artifact at `index_dir` lives: a sibling file (`.kb-index.embeddings`)."""
    return index_dir.parent / f"{index_dir.name}.embeddings"


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


@dataclass
class EmbeddingCache:
    """Vectors by text key for one embedder; `hits` and `misses` count this build's look-ups."""

    embedder: str
    version: str
    dim: int
    vectors: dict[bytes, np.ndarray] = field(default_factory=dict)
    status: str = "absent"  # "loaded", "absent", or "ignored: <why>"
    hits: int = 0
    misses: int = 0

    def get(self, text: str) -> np.ndarray | None:
        vector = self.vectors.get(text_key(text))
        if vector is None:
            self.misses += 1
        else:
            self.hits += 1
        return vector

    @classmethod
    def load(cls, path: Path, embedder: str, version: str, dim: int) -> EmbeddingCache:
        """The cache at `path` if it is whole and this embedder's; otherwise an empty one saying why."""
        empty = cls(embedder, version, dim)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return empty
        except OSError as e:
            empty.status = f"ignored: unreadable ({e.strerror})"
            return empty
        why, vectors = _parse(data, embedder, version, dim)
        if why:
            empty.status = f"ignored: {why}"
            return empty
        return cls(embedder, version, dim, vectors, "loaded")

    def save(self, path: Path, keep: dict[bytes, np.ndarray]) -> None:
        """Write `keep` (this build's vectors) as the cache at `path`, atomically."""
        keys = list(keep)
        matrix = np.stack([keep[k] for k in keys]).astype("<f4") if keys else np.zeros((0, self.dim), "<f4")
        payload = b"".join(keys) + matrix.tobytes()
        header = {"embedder": self.embedder, "version": self.version, "dim": self.dim, "count": len(keys),
                  "sha256": hashlib.sha256(payload).hexdigest()}
        tmp = path.parent / f".{path.name}.tmp-{os.getpid()}"
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as f:
            f.write(MAGIC + json.dumps(header).encode() + b"\n" + payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


def _parse(data: bytes, embedder: str, version: str, dim: int) -> tuple[str, dict[bytes, np.ndarray]]:
    """("", vectors) for a sound cache of this embedder, else (the reason it is not, {})."""
    if not data.startswith(MAGIC):
        return "not a kb embedding cache of this format", {}
    end = data.find(b"\n", len(MAGIC))
    header: Any = None
    try:
        header = json.loads(data[len(MAGIC):end]) if end > 0 else None
        count, found_dim = int(header["count"]), int(header["dim"])
    except (ValueError, TypeError, KeyError):
        return "its header is corrupt", {}
    if header.get("embedder") != embedder or header.get("version") != version:
        return f"built by {header.get('embedder')!r} {header.get('version')!r}, not {embedder!r} {version!r}", {}
    if found_dim != dim or count < 0:
        return f"dimension {found_dim}, not {dim}", {}
    payload = data[end + 1:]
    if len(payload) != count * (KEY_BYTES + 4 * dim):
        return "truncated", {}
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        return "its checksum does not match", {}
    split = count * KEY_BYTES
    matrix = np.frombuffer(payload, dtype="<f4", offset=split).reshape(count, dim).astype(np.float32)
    return "", {payload[i * KEY_BYTES:(i + 1) * KEY_BYTES]: matrix[i] for i in range(count)}
