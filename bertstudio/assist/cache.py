"""Embeddings computed once per text and kept in the project folder.

Layout: ``<project>/cache/embeddings-<model fingerprint>.safetensors`` (one vector per
distinct text; a pair's two sides are two texts) and
``<project>/cache/words-<model fingerprint>.safetensors`` (one vector per word of
each distinct token list, for tagging). A file holds the tensors ``keys``
(16-byte BLAKE2b digests of the texts, uint8), ``vectors`` and, for words,
``offsets`` (where each token list's rows start), plus string metadata: format,
fingerprint, dimension and a BLAKE2b checksum of the tensor bytes.

safetensors, not ``np.save`` of objects or pickle: reading a cache file never runs
code, whatever its bytes. A file that fails any check (unreadable header, wrong
shapes or dtype, other model, checksum mismatch, non-finite values) is ignored
and rebuilt, with a message in :attr:`EmbeddingCache.messages`; it is never
trusted blindly. Writes are atomic (temporary file, fsync, rename), made at the
end of a computation, every ``save_every_s`` seconds during a long one and when
it is cancelled, so a cancelled or crashed session keeps what it computed.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from bertstudio.assist.encoder import Progress, SentenceEncoder, check_cancel
from bertstudio.assist.keys import KEY_BYTES as _KEY, text_key
from bertstudio.data.atomic import atomic_write_bytes

log = logging.getLogger(__name__)

FORMAT = "bertstudio-embeddings-1"


def tokens_key(tokens: Sequence[str]) -> bytes:
    # \x1f (unit separator) cannot be typed into a token, so ["a b"] and ["a", "b"] differ
    return text_key("\x1f".join(tokens))


def _checksum(*arrays: np.ndarray) -> str:
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


class _Store:
    """Keys, vectors (and for words, offsets) of one cache file, loaded and checked."""

    words = False
    prefix = "embeddings"
    format = FORMAT
    dtype = np.float32
    slice_size = 512  # texts encoded between two additions to the cache (and cancellation points)

    def __init__(self, folder: str | Path, encoder: SentenceEncoder, *, save_every_s: float = 30.0) -> None:
        self.encoder = encoder
        self.path = Path(folder) / f"{self.prefix}-{encoder.fingerprint}.safetensors"
        self.save_every_s = save_every_s
        self.messages: list[str] = []
        self.hits = 0  # texts served from the cache, over this object's life (tests, benchmarks)
        self.computed = 0  # texts encoded by the model
        self._lock = threading.Lock()
        self._index: dict[bytes, int] = {}
        self._chunks: list[np.ndarray] = []  # per key: a vector (sentences) or a (n_words, dim) block
        self._dirty = False
        self._load()

    # ------------------------------------------------------------------ file
    def _load(self) -> None:
        if not self.path.is_file():
            return
        try:
            keys, chunks = self._read()
        except Exception as exc:  # noqa: BLE001 - any damage means: rebuild, never trust
            self.messages.append(f"{self.path.name}: damaged cache ignored and rebuilt ({exc})")
            log.warning("%s", self.messages[-1])
            self._dirty = True  # replace the damaged file at the next save
            return
        self._index = {bytes(k): i for i, k in enumerate(keys)}
        self._chunks = chunks

    def _read(self) -> tuple[np.ndarray, list[np.ndarray]]:
        from safetensors import safe_open

        with safe_open(str(self.path), framework="numpy") as f:
            meta = f.metadata() or {}
            if meta.get("format") != self.format or meta.get("fingerprint") != self.encoder.fingerprint:
                raise ValueError("written for another model or format")
            # what the header says, before anything is read: a tampered cache's extra 2.5 GB tensor (a
            # sparse file) was read whole at Open, and its size was the attacker's choice
            names = set(f.keys())
            if not names <= {"keys", "vectors", "offsets"}:
                raise ValueError(f"unknown tensors {sorted(names - {'keys', 'vectors', 'offsets'})[:3]}")
            shape = {name: list(f.get_slice(name).get_shape()) for name in names}
            rows = shape.get("keys", [0])[0]
            if shape.get("vectors", [0, 0])[1:] != [self.encoder.dim] or (not self.words and shape["vectors"][0] != rows):
                raise ValueError(f"vectors of shape {shape.get('vectors')} for {rows} keys")
            if self.words and ("offsets" not in shape or shape["offsets"] != [rows + 1]):
                raise ValueError("offsets malformed")
            tensors = {name: f.get_tensor(name) for name in ("keys", "offsets") if name in names}
            if self.words and int(tensors["offsets"][-1]) != shape["vectors"][0]:  # words: as many as the offsets end at
                raise ValueError("offsets malformed")
            tensors["vectors"] = f.get_tensor("vectors")
        keys, vectors = tensors.get("keys"), tensors.get("vectors")
        if keys is None or vectors is None or keys.dtype != np.uint8 or keys.ndim != 2 or keys.shape[1] != _KEY:
            raise ValueError("keys missing or malformed")
        if vectors.dtype != self.dtype or vectors.ndim != 2 or vectors.shape[1] != self.encoder.dim:
            raise ValueError(f"vectors have shape {vectors.shape} and dtype {vectors.dtype}")
        offsets = tensors.get("offsets") if self.words else None
        parts = [keys, vectors] + ([offsets] if offsets is not None else [])
        if meta.get("checksum") != _checksum(*parts):
            raise ValueError("checksum mismatch")
        if not np.isfinite(vectors).all():
            raise ValueError("non-finite values")
        if self.words:
            if offsets is None or offsets.ndim != 1 or len(offsets) != len(keys) + 1 or offsets[0] != 0 \
                    or offsets[-1] != len(vectors) or (np.diff(offsets) < 0).any():
                raise ValueError("offsets malformed")
            chunks = [vectors[offsets[i]:offsets[i + 1]] for i in range(len(keys))]
        else:
            if len(vectors) != len(keys):
                raise ValueError("as many keys as vectors expected")
            chunks = list(vectors)
        return keys, chunks

    def save(self) -> None:
        """Write the cache file atomically if anything changed since it was read."""
        from safetensors.numpy import save

        with self._lock:
            if not self._dirty:
                return
            keys = np.zeros((len(self._index), _KEY), dtype=np.uint8)
            for key, i in self._index.items():
                keys[i] = np.frombuffer(key, dtype=np.uint8)
            if self.words:
                lengths = np.array([len(c) for c in self._chunks], dtype=np.int64)
                offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
                vectors = (np.concatenate(self._chunks) if self._chunks else np.zeros((0, self.encoder.dim))).astype(self.dtype)
                tensors = {"keys": keys, "vectors": vectors, "offsets": offsets}
                parts = [keys, vectors, offsets]
            else:
                vectors = (np.stack(self._chunks) if self._chunks else np.zeros((0, self.encoder.dim))).astype(self.dtype)
                tensors, parts = {"keys": keys, "vectors": vectors}, [keys, vectors]
            meta = {"format": self.format, "fingerprint": self.encoder.fingerprint, "dim": str(self.encoder.dim),
                    "checksum": _checksum(*parts)}
            data = save(tensors, metadata=meta)
            self._dirty = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, data, own=True)  # a FIFO at its name (tampered) made close() raise

    def __len__(self) -> int:
        return len(self._index)

    # ------------------------------------------------------------------ lookups
    def _get(self, items: Sequence, key: Callable, compute: Callable, progress: Progress | None,
             cancel: threading.Event | None) -> list[np.ndarray]:
        keys = [key(x) for x in items]
        with self._lock:
            missing = list(dict.fromkeys(k for k in keys if k not in self._index))
        pending = set(missing)
        self.hits += sum(1 for k in keys if k not in pending)
        if missing:
            first = {}
            for x, k in zip(items, keys):
                first.setdefault(k, x)
            self._compute([first[k] for k in missing], missing, compute, progress, cancel)
        with self._lock:
            return [self._chunks[self._index[k]] for k in keys]

    def _compute(self, items: list, keys: list[bytes], compute: Callable, progress: Progress | None,
                 cancel: threading.Event | None) -> None:
        """Encode in slices, adding each slice to the cache as it comes, saving every
        ``save_every_s`` seconds and on cancellation (nothing computed is thrown away)."""
        step = self.slice_size
        last_save = time.monotonic()
        try:
            for start in range(0, len(items), step):
                check_cancel(cancel)
                part = items[start:start + step]

                def sub(done: int, _total: int, start: int = start) -> None:
                    if progress is not None:
                        progress(start + done, len(items))

                vectors = compute(part, progress=sub, cancel=cancel)
                with self._lock:
                    for k, v in zip(keys[start:start + step], vectors):
                        self._index[k] = len(self._chunks)
                        self._chunks.append(np.asarray(v, dtype=self.dtype))
                    self._dirty = True
                self.computed += len(part)
                if time.monotonic() - last_save > self.save_every_s:
                    self.save()
                    last_save = time.monotonic()
        finally:
            self.save()


class EmbeddingCache(_Store):
    """One vector per distinct text (see the module docstring)."""

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None,
              cancel: threading.Event | None = None) -> np.ndarray:
        """``(len(texts), dim)`` float32 vectors; only texts never seen are encoded."""
        rows = self._get(list(texts), text_key, self.encoder.encode, progress, cancel)
        return np.stack(rows).astype(np.float32) if rows else np.zeros((0, self.encoder.dim), np.float32)


class WordEmbeddingCache(_Store):
    """One vector per word of each distinct token list, stored as float16 (half the
    disk and memory; the per-token head does not notice the rounding)."""

    words = True
    prefix = "words"
    # 2: sentences past the encoder's max length read in windows (tasks/word_windows.py); a
    # file of format 1 holds zero vectors for the words past it, and is rebuilt
    format = "bertstudio-words-2"
    dtype = np.float16

    def embed(self, sentences: Sequence[Sequence[str]], *, progress: Progress | None = None,
              cancel: threading.Event | None = None) -> list[np.ndarray]:
        rows = self._get([list(s) for s in sentences], tokens_key, self.encoder.encode_words, progress, cancel)
        return [r.astype(np.float32) for r in rows]
