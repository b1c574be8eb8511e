"""The frozen encoder of the labelling loop: sentence vectors and per-word vectors.

:class:`SentenceEncoder` turns texts into one vector each, the way
sentence-transformers does for the model's own pooling settings (the bundled
all-MiniLM-L6-v2: mean over real tokens, then L2 normalisation), and token
lists into one contextual vector per word (its first sub-token, as the tagging
task predicts on it). It calls transformers directly rather than
``SentenceTransformer.encode``: on 2 cores the two measured the same (length
sorting and batching are what matter), and this way the encoder inside a
trained :class:`~bertstudio.tasks.embedding.EmbeddingClassifier` is encoded
with the very same code as the base model.

Work is done in length-sorted batches; ``progress(done, total)`` is called after
each batch and ``cancel`` (a ``threading.Event``) is checked before each one:
a cancelled call raises :class:`Cancelled` and returns nothing half-made.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import torch

from bertstudio.errors import ConfigError
from bertstudio.hf import hf
from bertstudio.tasks.embedding import pool, pooling_settings
from bertstudio.tasks.model import model_device
from bertstudio.tasks.word_windows import word_windows

Progress = Callable[[int, int], None]

# Largest batch of the sorted texts: on 2 cores a batch of 32 short sentences was as fast
# per text as 64 or 128 and keeps each cancellation check under a second.
BATCH_SIZE = 32


class Cancelled(Exception):
    """Raised inside a worker when its cancel event was set; never reaches the user."""


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled()


def model_fingerprint(path: str | Path, extra: str = "") -> str:
    """16 hex digits naming a model's weights and settings, for cache file names.

    Hashes the small files whole and each weight file's size plus its first and last
    MiB: hashing a 1 GB checkpoint whole would cost seconds at every start."""
    folder = Path(path)
    h = hashlib.blake2b(digest_size=8)
    h.update(extra.encode())
    for name in sorted(p.name for p in folder.iterdir() if p.is_file()):
        file = folder / name
        size = file.stat().st_size
        h.update(f"{name}:{size}".encode())
        with open(file, "rb") as f:
            if size <= 4 << 20:
                h.update(f.read())
            else:
                h.update(f.read(1 << 20))
                f.seek(size - (1 << 20))
                h.update(f.read())
    return h.hexdigest()


class SentenceEncoder:
    """A frozen encoder with its tokenizer and pooling. Build with :meth:`from_path`
    (a model folder) or directly around an encoder module (a trained classifier's)."""

    def __init__(self, model: torch.nn.Module, tokenizer: Any, *, pooling: str = "mean", normalize: bool = True,
                 max_length: int = 256, fingerprint: str = "") -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.pooling = pooling
        self.normalize = normalize
        limit = getattr(getattr(model, "config", None), "max_position_embeddings", max_length) or max_length
        self.max_length = int(min(max_length, limit))
        self.fingerprint = fingerprint
        self.dim = int(getattr(model.config, "hidden_size"))
        self._lock = threading.Lock()  # one forward at a time: the model is shared by threads

    @classmethod
    def from_classifier(cls, model: Any, tokenizer: Any, fingerprint: str) -> "SentenceEncoder":
        """The encoder inside a trained :class:`~bertstudio.tasks.embedding.EmbeddingClassifier`."""
        limit = int(getattr(model.config, "max_position_embeddings", 256) or 256)
        return cls(model.encoder, tokenizer, pooling=model.pooling, normalize=model.normalize,
                   max_length=min(256, limit), fingerprint=fingerprint)

    @classmethod
    def from_path(cls, path: str | Path) -> "SentenceEncoder":
        AutoModel = hf("AutoModel")

        from bertstudio.tasks.model import check_vocabulary, load_tokenizer, load_weights

        settings = pooling_settings(path)
        try:
            tokenizer = load_tokenizer(path)
            model = load_weights(AutoModel, str(path), complete="encoder")
            check_vocabulary(tokenizer, model.config, path)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot load the encoder: {exc}", path=path, expected="a model folder") from None
        max_length = settings["max_length"] or 256
        fp = model_fingerprint(path, json.dumps(settings, sort_keys=True))
        return cls(model, tokenizer, pooling=settings["pooling"], normalize=settings["normalize"],
                   max_length=max_length, fingerprint=fp)

    # ------------------------------------------------------------------ sentences
    def encode(self, texts: Sequence[str], *, batch_size: int = BATCH_SIZE, progress: Progress | None = None,
               cancel: threading.Event | None = None) -> np.ndarray:
        """``(len(texts), dim)`` float32 vectors, in the order of ``texts``."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # longest first: the first batch shows at once whether memory suffices, and
        # similar lengths share a batch so little padding is computed
        order = np.argsort([-len(t) for t in texts], kind="stable")
        for start in range(0, len(texts), batch_size):
            check_cancel(cancel)
            idx = order[start:start + batch_size]
            out[idx] = self._encode_batch([texts[i] for i in idx])
            if progress is not None:
                progress(min(start + batch_size, len(texts)), len(texts))
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        enc = self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        device = model_device(self.model)
        ids, mask = enc["input_ids"].to(device), enc["attention_mask"].to(device)
        with self._lock, torch.inference_mode():
            hidden = self.model(input_ids=ids, attention_mask=mask).last_hidden_state
            vectors = pool(hidden, mask, self.pooling, self.normalize)
        return vectors.float().cpu().numpy()

    # ------------------------------------------------------------------ words
    def encode_words(self, sentences: Sequence[Sequence[str]], *, batch_size: int = BATCH_SIZE,
                     progress: Progress | None = None, cancel: threading.Event | None = None) -> list[np.ndarray]:
        """One ``(n_words, dim)`` float32 array per sentence: the contextual vector of each
        word's first sub-token (a sentence past ``max_length`` in windows, tasks/word_windows.py);
        a word that tokenises to nothing gets a zero vector."""
        out: list[np.ndarray] = [np.zeros((len(s), self.dim), dtype=np.float32) for s in sentences]
        order = np.argsort([-sum(len(w) for w in s) for s in sentences], kind="stable")
        for start in range(0, len(sentences), batch_size):
            check_cancel(cancel)
            idx = [int(i) for i in order[start:start + batch_size]]
            windows = word_windows(self.tokenizer, [list(sentences[i]) or [""] for i in idx],
                                   max_length=self.max_length, padding=True, return_tensors="pt")
            enc = windows.encoding
            device = model_device(self.model)
            with self._lock, torch.inference_mode():
                hidden = self.model(input_ids=enc["input_ids"].to(device),
                                    attention_mask=enc["attention_mask"].to(device)).last_hidden_state
            windows.scatter(hidden.float().cpu().numpy(), [out[i] for i in idx])
            if progress is not None:
                progress(min(start + batch_size, len(sentences)), len(sentences))
        return out

