"""The fast model: what refits after every label, and the pool-wide prior it starts from.

Sentence classification (a kind with zero-shot suggestions) has three layers, all
linear heads on the cached vectors:

1. the zero-shot classifier (:mod:`bertstudio.assist.zeroshot`);
2. a *self-trained prior*: logistic regression on the pool rows the current model
   is most sure of, labelled with its own predictions (the most confident
   :data:`SELF_TRAIN_FRACTION` of the pool, at most :data:`SELF_TRAIN_MAX` rows, balanced
   over the predicted classes),
   plus the gold labels so far with weight :data:`LABEL_WEIGHT`; two rounds. This
   is self-training for zero-shot text classification (Gera et al., 2022), and on
   the AG News pool it lifted label-name zero-shot from 67% to 84% with no label.
   It is refreshed every :data:`REFRESH_EVERY` labels (seconds of work);
3. the head shown after every label: the MAP logistic regression centred on that
   prior (:func:`bertstudio.assist.heads.fit_with_prior`, tens of milliseconds),
   so a few labels adjust the prior instead of replacing it.

Kinds without zero-shot use scikit-learn's logistic regression (pairs, on the
siamese features), Ridge (regression) or a per-word logistic regression on frozen
contextual word vectors (tagging).

The parameters were chosen on SST-2 train and the AG News pool, never on the sets
the benchmark reports (benchmarks/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import numpy as np

from bertstudio.assist.encoder import Cancelled
from bertstudio.assist.heads import LinearHead, fit_logistic, fit_ridge, fit_with_prior, top2_margin
from bertstudio.train.probe import FitStopped, fit_cosine_ridge

SELF_TRAIN_FRACTION = 0.4
# at most this many pseudo-labelled rows: 40% of a 1.2M-row pool was a logistic regression on
# 480,000 rows that nothing could cancel (a minute, GBs; closing the project waited for it)
SELF_TRAIN_MAX = 20_000
SELF_TRAIN_C = 0.3
SELF_TRAIN_ROUNDS = 2
LABEL_WEIGHT = 3.0
REFRESH_EVERY = 10
PRIOR_L2 = 10.0  # strength of the pull towards the prior (per unit of squared weight)
TOKEN_C = 1.0


@dataclass(frozen=True)
class Scores:
    """One model's predictions for every pool row: an immutable snapshot the GUI thread
    reads while the worker builds the next one.

    ``probs``: (rows, classes) probabilities, or (rows, 1) scores for regression, None
    for tagging; ``word_probs``: tagging, one (words, tags) array per row; ``margin``:
    per row, smaller = less certain (top-2 gap; tagging: mean log-probability of the
    predicted tags; regression: all ones); ``trained_rows``: the pool rows the model
    learnt from (never an audit row).
    """

    source: str
    probs: np.ndarray | None
    margin: np.ndarray
    trained_rows: tuple[int, ...] = ()
    word_probs: list[np.ndarray] | None = None
    version: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def n_labels(self) -> int:
        return len(self.trained_rows)


def with_label_names(scores: Scores, names: Sequence[str]) -> Scores:
    """``scores`` predicting the same classes under ``names`` (a label renamed). Scores without their
    own names (tagging) are read with the assistant's labels of now and stay as they are."""
    if "labels" not in scores.meta or tuple(scores.meta["labels"]) == tuple(names):
        return scores
    return replace(scores, meta={**scores.meta, "labels": tuple(names)})


def classification_scores(source: str, probs: np.ndarray, rows: Sequence[int], version: int = 0,
                          **meta: Any) -> Scores:
    return Scores(source, probs.astype(np.float32), top2_margin(probs).astype(np.float32), tuple(int(r) for r in rows),
                  version=version, meta=dict(meta))


def self_train(X: np.ndarray, start: LinearHead, *, X_labelled: np.ndarray | None = None,
               y_labelled: np.ndarray | None = None, exclude: np.ndarray | None = None,
               fraction: float = SELF_TRAIN_FRACTION, C: float = SELF_TRAIN_C, rounds: int = SELF_TRAIN_ROUNDS,
               label_weight: float = LABEL_WEIGHT) -> LinearHead:
    """The self-trained prior (layer 2 of the module docstring); ``exclude``: rows that
    must not be pseudo-labelled (labelled and audit rows)."""
    from sklearn.linear_model import LogisticRegression

    K = start.W.shape[0]
    head = start
    per_class = max(1, int(min(fraction * len(X), SELF_TRAIN_MAX) / K))
    for _ in range(rounds):
        p = head.predict_proba(X)
        predicted, confidence = p.argmax(1), p.max(1)
        if exclude is not None and len(exclude):
            confidence = confidence.copy()
            confidence[exclude] = -1.0
        keep = []
        for k in range(K):
            idx = np.flatnonzero((predicted == k) & (confidence >= 0))
            keep.append(idx[np.argsort(-confidence[idx], kind="stable")][:per_class])
        rows = np.concatenate(keep)
        Xs, ys, ws = X[rows], predicted[rows], np.ones(len(rows))
        if X_labelled is not None and y_labelled is not None and len(y_labelled):
            Xs = np.vstack([Xs, X_labelled])
            ys = np.concatenate([ys, y_labelled])
            ws = np.concatenate([ws, np.full(len(y_labelled), label_weight)])
        present = np.unique(ys)
        if len(present) < 2:
            return head
        lr = LogisticRegression(C=C, max_iter=500).fit(Xs, ys, sample_weight=ws)
        W = np.zeros((K, X.shape[1]), dtype=np.float32)
        b = np.full(K, -1e4, dtype=np.float32)
        if len(present) == 2:
            W[present[1]], b[present[1]] = lr.coef_[0] / 2, lr.intercept_[0] / 2
            W[present[0]], b[present[0]] = -lr.coef_[0] / 2, -lr.intercept_[0] / 2
        else:
            W[present], b[present] = lr.coef_, lr.intercept_
        head = LinearHead(W, b)
    return head


def fit_classifier(X: np.ndarray, y: np.ndarray, num_classes: int, prior: LinearHead | None,
                   *, l2: float = PRIOR_L2, start: LinearHead | None = None) -> LinearHead | None:
    """The fast head for classification: MAP towards ``prior`` when there is one (warm-started
    from ``start``), else scikit-learn's logistic regression (None until two classes have labels)."""
    if prior is not None:
        return fit_with_prior(X, y, prior, l2=l2, start=start)
    return fit_logistic(X, y, num_classes)


def regression_scores(X: np.ndarray, y: Sequence[float], rows: Sequence[int], version: int = 0, *,
                      pairs: bool = False) -> Scores | None:
    """The fast head for scores: a ridge regression; for pairs (``X`` the siamese features) of
    unit vectors, started from their cosine (train/probe.fit_cosine_ridge: a plain ridge missed
    the cosine a sentence-transformer scores pairs by, 0.82-0.88 against 0.90 on STS-B)."""
    Xr, target = X[list(rows)], np.asarray(y, dtype=np.float64)
    dim = X.shape[1] // 4
    unit = pairs and len(Xr) > 0 and bool(np.allclose(np.linalg.norm(Xr[:, :dim], axis=1), 1.0, atol=1e-3))
    head = fit_cosine_ridge(Xr, target, dim) if unit else fit_ridge(Xr, target)
    if head is None:
        return None
    pred = head.predict_proba(X)
    return Scores("fast", pred.astype(np.float32), np.ones(len(X), np.float32), tuple(int(r) for r in rows),
                  version=version, meta={"regression": True, "head": head})


def token_scores(words: list[np.ndarray], rows: Sequence[int], tags: Sequence[Sequence[int]], num_tags: int,
                 version: int = 0, *, stop: Callable[[], bool] | None = None) -> Scores | None:
    """Per-word logistic regression on frozen contextual word vectors; margin per row is the
    mean log-probability of its predicted tags (length-normalised least confidence).

    ``stop``: asked during the fit (every few iterations) and before the pool is scored; when it
    says True, :class:`~bertstudio.assist.encoder.Cancelled` is raised (a refit took 3-8 s on a
    5,000-sentence pool, and closing the project waited for it)."""
    X = np.concatenate([words[r] for r in rows]) if rows else np.zeros((0, 1))
    y = np.concatenate([np.asarray(t, dtype=np.int64) for t in tags]) if rows else np.zeros(0, np.int64)
    try:
        head = fit_logistic(X, y, num_tags, C=TOKEN_C, max_iter=300, stop=stop)
    except FitStopped:
        raise Cancelled() from None
    if stop is not None and stop():
        raise Cancelled()
    if head is None:
        return None
    lengths = [len(w) for w in words]
    flat = head.predict_proba(np.concatenate(words)) if sum(lengths) else np.zeros((0, num_tags))
    word_probs = np.split(flat.astype(np.float32), np.cumsum(lengths)[:-1])
    margin = np.array([np.log(np.clip(p.max(1), 1e-12, 1)).mean() if len(p) else 0.0 for p in word_probs],
                      dtype=np.float32)
    return Scores("fast", None, margin, tuple(int(r) for r in rows), word_probs=word_probs, version=version,
                  meta={"head": head})
