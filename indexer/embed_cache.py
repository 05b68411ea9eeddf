"""Embeddings and BM25 tokens kept between index builds, so `kb index` re-embeds and re-segments only the
chunks whose text changed (jieba's dictionary alone takes ~0.6 s to load; segmenting every chunk ~1 s more).

A vector is reused only for the same embedder (id and version) and the exact same text: the key is the
sha256 of the text the embedder saw. Tokens likewise, for the same tokenizer (jieba's version and
indexer/lexical.py's code) and the exact text BM25 indexes; another tokenizer drops the tokens, not the
vectors. The cache is one file beside the artifact, never inside it (the artifact is rebuilt whole each time;
the cache outlives it), written to a temp file and renamed:

  line 1   b"KBEMBED 2\\n"                                    magic and format version (1: no tokens)
  line 2   {"embedder", "version", "dim", "count", "sha256", "tokenizer", "token_bytes"}  JSON header;
           sha256 is the payload's
  payload  count x 32-byte keys, then count x dim float32 (little-endian), row i the vector of key i,
           then token_bytes of JSON: {hex sha256 of a chunk's lexical text: its tokens}

Anything unexpected when reading (another magic or format, bad JSON, another embedder or version, another
dimension, a short file, a checksum that does not match) makes it an empty cache: ignored, never trusted,
and replaced by the next save. A save keeps only the vectors and tokens of the build that saved it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"KBEMBED 2\n"
MAGIC_V1 = b"KBEMBED 1\n"  # read (its vectors are good), never written
KEY_BYTES = 32


def cache_path(index_dir: Path) -> Path:
    """Where the cache for the artifact at `index_dir` lives: a sibling file (`.kb-index.embeddings`)."""
    return index_dir.parent / f"{index_dir.name}.embeddings"


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


@dataclass
class EmbeddingCache:
    """Vectors (and tokens) by text key for one embedder; `hits` and `misses` count this build's look-ups."""

    embedder: str
    version: str
    dim: int
    vectors: dict[bytes, np.ndarray] = field(default_factory=dict)
    status: str = "absent"  # "loaded", "absent", or "ignored: <why>"
    hits: int = 0
    misses: int = 0
    tokenizer: str = ""
    tokens: dict[bytes, list[str]] = field(default_factory=dict)
    token_misses: int = 0

    def get_tokens(self, text: str) -> list[str] | None:
        found = self.tokens.get(text_key(text))
        if found is None:
            self.token_misses += 1
        return found

    def get(self, text: str) -> np.ndarray | None:
        vector = self.vectors.get(text_key(text))
        if vector is None:
            self.misses += 1
        else:
            self.hits += 1
        return vector

    @classmethod
    def load(cls, path: Path, embedder: str, version: str, dim: int, tokenizer: str = "") -> EmbeddingCache:
        """The cache at `path` if it is whole and this embedder's; otherwise an empty one saying why.

        Its tokens are kept only when they are `tokenizer`'s."""
        empty = cls(embedder, version, dim, tokenizer=tokenizer)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return empty
        except OSError as e:
            empty.status = f"ignored: unreadable ({e.strerror})"
            return empty
        why, vectors, tokens = _parse(data, embedder, version, dim, tokenizer)
        if why:
            empty.status = f"ignored: {why}"
            return empty
        return cls(embedder, version, dim, vectors, "loaded", tokenizer=tokenizer, tokens=tokens)

    def save(self, path: Path, keep: dict[bytes, np.ndarray],
             keep_tokens: dict[bytes, list[str]] | None = None) -> None:
        """Write `keep` (this build's vectors) and `keep_tokens` as the cache at `path`, atomically."""
        keys = list(keep)
        matrix = np.stack([keep[k] for k in keys]).astype("<f4") if keys else np.zeros((0, self.dim), "<f4")
        tokens = json.dumps({k.hex(): v for k, v in (keep_tokens or {}).items()}, ensure_ascii=False).encode()
        payload = b"".join(keys) + matrix.tobytes() + tokens
        header = {"embedder": self.embedder, "version": self.version, "dim": self.dim, "count": len(keys),
                  "sha256": hashlib.sha256(payload).hexdigest(), "tokenizer": self.tokenizer,
                  "token_bytes": len(tokens)}
        tmp = path.parent / f".{path.name}.tmp-{os.getpid()}"
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as f:
            f.write(MAGIC + json.dumps(header).encode() + b"\n" + payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


Parsed = tuple[str, dict[bytes, np.ndarray], dict[bytes, list[str]]]


def _parse(data: bytes, embedder: str, version: str, dim: int, tokenizer: str) -> Parsed:
    """("", vectors, tokens) for a sound cache of this embedder, else (the reason it is not, {}, {})."""
    magic = MAGIC if data.startswith(MAGIC) else MAGIC_V1 if data.startswith(MAGIC_V1) else b""
    if not magic:
        return "not a kb embedding cache of this format", {}, {}
    end = data.find(b"\n", len(magic))
    header: Any = None
    try:
        header = json.loads(data[len(magic):end]) if end > 0 else None
        count, found_dim = int(header["count"]), int(header["dim"])
        token_bytes = int(header.get("token_bytes", 0)) if magic == MAGIC else 0
    except (ValueError, TypeError, KeyError, AttributeError):
        return "its header is corrupt", {}, {}
    if header.get("embedder") != embedder or header.get("version") != version:
        return f"built by {header.get('embedder')!r} {header.get('version')!r}, not {embedder!r} {version!r}", {}, {}
    if found_dim != dim or count < 0:
        return f"dimension {found_dim}, not {dim}", {}, {}
    payload = data[end + 1:]
    if len(payload) != count * (KEY_BYTES + 4 * dim) + token_bytes:
        return "truncated", {}, {}
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        return "its checksum does not match", {}, {}
    split = count * KEY_BYTES
    matrix = np.frombuffer(payload, dtype="<f4", offset=split, count=count * dim).reshape(count, dim)
    vectors = {payload[i * KEY_BYTES:(i + 1) * KEY_BYTES]: row for i, row in enumerate(matrix.astype(np.float32))}
    tokens: dict[bytes, list[str]] = {}
    if token_bytes and tokenizer and header.get("tokenizer") == tokenizer:
        try:
            tokens = {bytes.fromhex(k): v for k, v in json.loads(payload[len(payload) - token_bytes:]).items()}
        except (ValueError, AttributeError):  # checksummed, so only a bug writes this; the vectors stay good
            tokens = {}
    return "", vectors, tokens
