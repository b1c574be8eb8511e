"""Linear heads fitted in closed form on frozen sentence vectors, and the run's head started from one.

:class:`LinearHead` is ``softmax(X @ W.T + b)`` (classification) or ``X @ w + b``
(regression); :func:`fit_logistic` / :func:`fit_ridge` fit it with scikit-learn. The
labelling assistant's fast model refits these after every label (assist/heads.py adds
the zero-shot prior); a run with an embedding or siamese head starts its linear layer
from one (:func:`probe_head`): linear probe, then fine-tune (Kumar et al., 2022,
"Fine-Tuning can Distort Pretrained Features"), so a few hundred labels start from the
frozen encoder's logistic regression instead of a random layer, and full fine-tuning
no longer has to find it with a learning rate made for the encoder.

Heads are plain arrays (never pickled).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy.special import softmax

PROBE_MAX_ROWS = 4096  # the head is fitted on at most this many training rows (drawn with the seed)
PROBE_BATCH = 64


@dataclass(frozen=True)
class LinearHead:
    """``W`` (classes x dim) and ``b`` (classes); a regression head has one row."""

    W: np.ndarray
    b: np.ndarray
    regression: bool = False

    def logits(self, X: np.ndarray) -> np.ndarray:
        return X @ self.W.T + self.b

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """Class probabilities, ``(n, classes)`` (regression: the score as one column)."""
        z = self.logits(X)
        return z if self.regression else softmax(z, axis=1)

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"weight": np.ascontiguousarray(self.W, dtype=np.float32),
                "bias": np.ascontiguousarray(self.b, dtype=np.float32)}


def fit_logistic(X: np.ndarray, y: np.ndarray, num_classes: int, *, C: float = 1.0,
                 max_iter: int = 500, stop: Callable[[], bool] | None = None,
                 class_weight: str | None = None) -> LinearHead | None:
    """scikit-learn's L2 logistic regression over ``num_classes`` (classes without labels
    get a very negative bias: never predicted until labelled); None with fewer than 2
    labelled classes. ``class_weight``: scikit-learn's ("balanced": inverse class frequency).

    ``stop``: asked between chunks of :data:`STOPPABLE_CHUNK` iterations (the fit is warm-started
    from one chunk to the next, ``max_iter`` in all); when it returns True the fit is abandoned
    with :class:`FitStopped` (None keeps its one meaning: too few classes). A labelling
    assistant's refit took seconds that nothing could cut short, and closing the project waited."""
    from sklearn.linear_model import LogisticRegression

    present = np.unique(y)
    if len(present) < 2:
        return None
    if stop is None:
        lr = LogisticRegression(C=C, max_iter=max_iter, class_weight=class_weight).fit(X, y)
    else:
        lr = _fit_stoppable(LogisticRegression(C=C, max_iter=min(STOPPABLE_CHUNK, max_iter), warm_start=True,
                                               class_weight=class_weight), X, y, max_iter, stop)
    W = np.zeros((num_classes, X.shape[1]), dtype=np.float32)
    b = np.full(num_classes, -1e4, dtype=np.float32)
    if len(present) == 2:  # sklearn keeps one row for two classes: logit of the second
        W[present[1]], b[present[1]] = lr.coef_[0] / 2, lr.intercept_[0] / 2
        W[present[0]], b[present[0]] = -lr.coef_[0] / 2, -lr.intercept_[0] / 2
    else:
        W[present], b[present] = lr.coef_, lr.intercept_
    return LinearHead(W, b)


STOPPABLE_CHUNK = 20  # L-BFGS iterations between two stop checks (tens of ms on a labelling pool's words)


class FitStopped(Exception):
    """A stoppable fit was asked to stop (:func:`fit_logistic`'s ``stop``)."""


def _fit_stoppable(lr: Any, X: np.ndarray, y: np.ndarray, max_iter: int, stop: Callable[[], bool]) -> Any:
    """``lr.fit`` (warm_start=True) repeated until it converges within a chunk or ``max_iter``
    iterations are spent; :class:`FitStopped` once ``stop()`` says so. Each chunk's ConvergenceWarning is
    expected (the next chunk goes on from its solution) and silenced."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    spent = 0
    while spent < max_iter:
        if stop():
            raise FitStopped()
        lr.max_iter = min(lr.max_iter, max_iter - spent)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            lr.fit(X, y)
        ran = int(np.max(lr.n_iter_))
        spent += ran
        if ran < lr.max_iter:  # converged before the chunk's end
            break
    if stop():
        raise FitStopped()
    return lr


def fit_ridge(X: np.ndarray, y: np.ndarray, *, alpha: float = 1.0) -> LinearHead | None:
    """scikit-learn's Ridge regression; None with fewer than 2 labels."""
    from sklearn.linear_model import Ridge

    if len(y) < 2:
        return None
    r = Ridge(alpha=alpha).fit(X, np.asarray(y, dtype=np.float64))
    return LinearHead(r.coef_.reshape(1, -1).astype(np.float32), np.array([r.intercept_], np.float32), regression=True)


COSINE_RIDGE_ALPHA = 10.0  # the ridge on what the cosine leaves, shrunk toward the cosine's own head
COSINE_SCALE_PRIOR = 0.1  # added to the cosines' sum of squares when their scale is fitted


def fit_cosine_ridge(X: np.ndarray, y: np.ndarray, dim: int, *, alpha: float = COSINE_RIDGE_ALPHA
                     ) -> LinearHead | None:
    """A score head on siamese features ``(u, v, |u-v|, u*v)`` of unit vectors that starts from
    the sentence-transformer's own answer: the cosine (the sum of the ``u*v`` block) scaled and
    shifted to the scores by shrunk least squares, plus a ridge regression on what it leaves. A plain
    ridge over the 4 x ``dim`` features cannot find the cosine from a few dozen pairs: on STS-B
    dev (800 pairs) it scored Pearson 0.820-0.882 from 64-256 training pairs where the untrained
    cosine scores 0.900, and this head 0.898-0.900 (benchmarks/README.md). None with fewer than
    2 scores."""
    from sklearn.linear_model import Ridge

    y = np.asarray(y, dtype=np.float64)
    if len(y) < 2:
        return None
    cos = X[:, 3 * dim:4 * dim].sum(1)
    # the scale is shrunk like a ridge's (COSINE_SCALE_PRIOR in the denominator): two labelled
    # pairs whose cosines are close gave a line so steep that other pairs scored 68 and -104
    # on a 0-5 scale; 64 pairs (cosines spread ~0.2) lose about 4% of it
    centred = cos - cos.mean()
    scale = float(centred @ (y - y.mean()) / (centred @ centred + COSINE_SCALE_PRIOR))
    shift = float(y.mean() - scale * cos.mean())
    rest = Ridge(alpha=alpha).fit(X, y - (scale * cos + shift))
    W = rest.coef_.astype(np.float64)
    W[3 * dim:4 * dim] += scale
    return LinearHead(W.reshape(1, -1).astype(np.float32), np.array([shift + rest.intercept_], np.float32),
                      regression=True)


def probe_head(parts: Any, train_set: Any, config: Any, *, notify: Callable[[Any], None] | None = None,
               cancel: threading.Event | None = None) -> bool:
    """Set ``parts.model``'s linear layer (an EmbeddingClassifier) to the logistic regression
    (ridge for scores; :func:`fit_cosine_ridge` for the scores of a siamese head on unit vectors)
    of the frozen encoder's vectors of up to PROBE_MAX_ROWS training rows.
    Progress as ``PhaseChanged("probing", batches done, batches)``. False (the fresh layer
    kept) when fewer than two classes are there to separate or ``cancel`` is set."""
    import torch  # here, not at the top: the assistant's heads import this module on the GUI thread

    from bertstudio.tasks.base import model_inputs
    from bertstudio.tasks.model import model_device
    from bertstudio.train.events import PhaseChanged

    model = parts.model
    rows = train_set.labelled()
    if len(rows) > PROBE_MAX_ROWS:
        rows = rows.head(PROBE_MAX_ROWS, seed=config.seed)
    label2id = {name: i for i, name in enumerate(parts.labels)}
    enc = parts.task.encode(rows, parts.tokenizer, max_length=config.max_length, label2id=label2id,
                            doc_stride=config.doc_stride, training=True)
    order = np.argsort(np.asarray(enc["length"]))  # similar lengths together: less padding
    batches = [order[i:i + PROBE_BATCH] for i in range(0, len(order), PROBE_BATCH)]
    vectors, targets = [], []
    was_training = model.training
    model.train(False)
    try:
        with torch.inference_mode():
            for done, idx in enumerate(batches):
                if cancel is not None and cancel.is_set():
                    return False
                if notify is not None:
                    notify(PhaseChanged("probing", done, len(batches)))
                batch = parts.task.collate([enc[int(i)] for i in idx], parts.tokenizer.pad_token_id or 0)
                inputs = model_inputs(batch)
                device = model_device(model)  # a warm model may already sit on the run's GPU
                features = model.features(inputs["input_ids"].to(device), inputs["attention_mask"].to(device))
                vectors.append(features.float().cpu().numpy())
                targets.append(batch["labels"].numpy())
    finally:
        model.train(was_training)
    X, y = np.concatenate(vectors), np.concatenate(targets)
    if model.regression and getattr(model, "siamese", False) and getattr(model, "normalize", False):
        head = fit_cosine_ridge(X, y, X.shape[1] // 4)  # scores of a pair: the cosine first
    elif model.regression:
        head = fit_ridge(X, y)
    else:
        # class_weight "balanced": the probe weighs classes as the training loss then does (train/class_weights.py)
        head = fit_logistic(X, y.astype(np.int64), len(parts.labels),
                            class_weight="balanced" if config.class_weight == "balanced" else None)
    if head is None:
        return False
    bias = np.asarray(head.b, dtype=np.float32)
    seen = bias > -1e3
    if not seen.all():  # a class with no row in the sample: low, but within reach of training
        bias = np.where(seen, bias, bias[seen].min() - 5.0)
    with torch.no_grad():
        model.classifier.weight.copy_(torch.from_numpy(np.asarray(head.W, dtype=np.float32)))
        model.classifier.bias.copy_(torch.from_numpy(bias))
    return True
