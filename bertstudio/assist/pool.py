"""The rows being labelled as model inputs: texts, cached vectors and features.

:class:`PoolData` is built once per session on the worker thread from the
project's split (the same code builds it for any other ExampleSet, e.g. the
benchmark's dev set): the texts (pairs: both sides; tagging: the token lists),
their cached vectors and the features the fast head reads - the sentence vector,
or for pairs the siamese ``(u, v, |u-v|, u*v)`` features.

:func:`strong_features` and :func:`head_outputs` score rows with a trained strong model
(its own encoder, so the texts are encoded again; the vectors are kept in memory only).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from bertstudio.assist.cache import EmbeddingCache, WordEmbeddingCache
from bertstudio.assist.encoder import Progress, SentenceEncoder, check_cancel
from bertstudio.assist.kinds import AssistSpec
from bertstudio.tasks.embedding import pair_features
from bertstudio.tasks.model import model_device
from bertstudio.tasks.word_windows import word_windows


@dataclass
class PoolData:
    texts: list[str] | None = None
    pairs: list[str] | None = None  # second texts, when the kind has them and any is non-empty
    tokens: list[list[str]] | None = None
    vectors: np.ndarray | None = None  # (rows, dim): the first (or only) text's vector
    features: np.ndarray | None = None  # what the fast head reads
    words: list[np.ndarray] | None = None  # tagging: per row, (words, dim)

    def __len__(self) -> int:
        for part in (self.texts, self.tokens):
            if part is not None:
                return len(part)
        return 0


def columns(examples: Any) -> dict[str, list]:
    """The example set's columns as lists, through Arrow (fast on memory-mapped data)."""
    table = examples.dataset.with_format("arrow")
    return {name: table[name].to_pylist() for name in examples.dataset.column_names}


def read_pool(spec: AssistSpec, examples: Any) -> PoolData:
    """Texts (or token lists) of ``examples``, without vectors yet."""
    cols = columns(examples)
    if spec.features == "words":
        return PoolData(tokens=[list(t or []) for t in cols["tokens"]])
    if spec.features in ("text", "pair"):
        texts = [t or "" for t in cols["text"]]
        pairs = None
        if spec.features == "pair" and "text_pair" in cols and any(cols["text_pair"]):
            pairs = [t or "" for t in cols["text_pair"]]
        return PoolData(texts=texts, pairs=pairs)
    return PoolData()


def embed_pool(pool: PoolData, cache: EmbeddingCache | None, words: WordEmbeddingCache | None, *,
               progress: Progress | None = None, cancel: threading.Event | None = None) -> PoolData:
    """Fill ``vectors``/``features`` (or ``words``) from the caches, encoding what is missing."""
    if pool.tokens is not None and words is not None:
        pool.words = words.embed(pool.tokens, progress=progress, cancel=cancel)
        return pool
    if pool.texts is None or cache is None:
        return pool
    texts = list(pool.texts) + (list(pool.pairs) if pool.pairs is not None else [])
    vectors = cache.embed(texts, progress=progress, cancel=cancel)
    n = len(pool.texts)
    pool.vectors = vectors[:n]
    pool.features = pair_features(vectors[:n], vectors[n:]) if pool.pairs is not None else vectors[:n]
    return pool


def sentence_vectors(words: list[np.ndarray] | None) -> np.ndarray | None:
    """One vector per row from its words' vectors (their mean; zeros for a row without words), so
    the k-means spread of the first picks works for tagging too (it has no sentence vectors)."""
    if not words:
        return None
    dim = next((w.shape[1] for w in words if len(w)), None)
    if dim is None:
        return None
    return np.stack([w.mean(0) if len(w) else np.zeros(dim, np.float32) for w in words]).astype(np.float32)


# --- strong models ---------------------------------------------------------------------------

def strong_features(model: Any, tokenizer: Any, pool: PoolData, *, progress: Progress | None = None,
                    cancel: threading.Event | None = None) -> np.ndarray:
    """The features a trained EmbeddingClassifier's head reads, for every row of ``pool``."""
    encoder = SentenceEncoder.from_classifier(model, tokenizer, fingerprint="")
    texts = list(pool.texts or []) + list(pool.pairs or [])
    vectors = encoder.encode(texts, progress=progress, cancel=cancel)
    n = len(pool.texts or [])
    return pair_features(vectors[:n], vectors[n:]) if pool.pairs is not None else vectors[:n]


def head_outputs(model: Any, features: np.ndarray) -> np.ndarray:
    """Probabilities (or regression scores, one column) from the classifier's head."""
    x = torch.from_numpy(np.ascontiguousarray(features, dtype=np.float32)).to(model_device(model.classifier))
    with torch.inference_mode():
        logits = model.classifier(x).float().cpu()
        if getattr(model, "regression", False):
            return logits.numpy()
        return torch.softmax(logits, dim=-1).numpy()


def token_model_probs(model: Any, tokenizer: Any, tokens: list[list[str]], *, batch_size: int = 32,
                      max_length: int = 128, progress: Progress | None = None,
                      cancel: threading.Event | None = None) -> list[np.ndarray]:
    """Per row, (words, tags) probabilities of a token-classification model (at each word's
    first sub-token; a sentence past ``max_length`` in windows, tasks/word_windows.py; a word
    that tokenises to nothing gets a uniform row)."""
    num = int(model.config.num_labels)
    out = [np.full((len(t), num), 1.0 / num, dtype=np.float32) for t in tokens]
    order = np.argsort([-len(t) for t in tokens], kind="stable")
    model.eval()
    for start in range(0, len(tokens), batch_size):
        check_cancel(cancel)
        idx = [int(i) for i in order[start:start + batch_size]]
        windows = word_windows(tokenizer, [tokens[i] or [""] for i in idx], max_length=max_length, padding=True,
                               return_tensors="pt")
        enc = windows.encoding
        device = model_device(model)
        with torch.inference_mode():
            logits = model(input_ids=enc["input_ids"].to(device),
                           attention_mask=enc["attention_mask"].to(device)).logits.float().cpu()
        windows.scatter(torch.softmax(logits, dim=-1).numpy(), [out[i] for i in idx])
        if progress is not None:
            progress(min(start + batch_size, len(tokens)), len(tokens))
    return out
