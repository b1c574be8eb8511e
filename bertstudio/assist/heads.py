"""Linear heads on cached embeddings: the fast model that refits after every label.

A head is ``softmax(X @ W.T + b)`` (classification) or ``X @ w + b`` (regression).

* With a zero-shot prior (:class:`~bertstudio.assist.zeroshot.ZeroShot` is itself a
  linear classifier on the same normalised vectors), the head is the maximum a
  posteriori logistic regression whose weights have a Gaussian prior centred on
  the zero-shot weights: ``min sum_i CE(y_i, softmax(X_i (W0 + D).T + b0 + c)) +
  l2/2 (|D|^2 + |c|^2)``. With no labels it *is* the zero-shot classifier and each
  label moves it only as far as the evidence asks, so a few unlucky labels cannot
  throw away what the label names already knew (the MAP adaptation of Chelba and
  Acero, 2006). scikit-learn's LogisticRegression has no prior mean or offset, so
  this case is fitted with scipy's L-BFGS on the loss and gradient written below.
* Without a prior (pairs, tagging, label sets without names that mean anything),
  it is scikit-learn's LogisticRegression; regression is scikit-learn's Ridge.

Heads are plain arrays (saved as safetensors by the caller, never pickled).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import log_softmax

# The plain heads live with the engine, which starts an embedding classifier's head from one
from bertstudio.train.probe import LinearHead, fit_logistic, fit_ridge

__all__ = ["LinearHead", "fit_logistic", "fit_ridge", "fit_with_prior", "top2_margin"]


def fit_with_prior(X: np.ndarray, y: np.ndarray, prior: LinearHead, *, l2: float = 1.0,
                   max_iter: int = 200, start: LinearHead | None = None) -> LinearHead:
    """MAP logistic regression with weights ~ N(prior, 1/l2) (see the module docstring).
    ``start``: a previous solution to warm-start from (the fit after one more label is
    close to the last one, so L-BFGS needs a few iterations instead of dozens)."""
    K, D = prior.W.shape
    if len(y) == 0:
        return prior
    Y = np.eye(K)[y]
    X64 = np.asarray(X, dtype=np.float64)
    offset = X64 @ prior.W.T + prior.b

    def loss_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        d, c = theta[:K * D].reshape(K, D), theta[K * D:]
        lp = log_softmax(offset + X64 @ d.T + c, axis=1)
        loss = -(Y * lp).sum() + 0.5 * l2 * ((d * d).sum() + (c * c).sum())
        g = np.exp(lp) - Y
        return loss, np.concatenate([(g.T @ X64 + l2 * d).ravel(), g.sum(0) + l2 * c])

    x0 = np.zeros(K * D + K)
    if start is not None and start.W.shape == prior.W.shape:
        x0 = np.concatenate([(start.W - prior.W).ravel(), start.b - prior.b]).astype(np.float64)
    res = minimize(loss_grad, x0, jac=True, method="L-BFGS-B", options={"maxiter": max_iter})
    d, c = res.x[:K * D].reshape(K, D), res.x[K * D:]
    return LinearHead((prior.W + d).astype(np.float32), (prior.b + c).astype(np.float32))


def top2_margin(probs: np.ndarray) -> np.ndarray:
    """Gap between the two largest class probabilities per row (small = uncertain)."""
    if probs.shape[1] < 2:
        return np.ones(len(probs))
    part = np.partition(probs, -2, axis=1)
    return part[:, -1] - part[:, -2]
