"""Regression metrics (STS-B style): Pearson, Spearman, mean squared error."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bertstudio.errors import DataError

REGRESSION_METRICS: tuple[str, ...] = ("pearson", "spearman", "mse")


def undefined_correlation(golds: Sequence[float], preds: Sequence[float]) -> str | None:
    """Why Pearson and Spearman are undefined here (and read 0.0, see :func:`regression_metrics`):
    ``"too_few"`` (fewer than 2 rows), ``"one_prediction"`` (the model predicts one value for
    every example: a collapsed regressor), ``"one_gold"`` (every gold score is the same); None
    when they are defined. A reader says so instead of treating the 0 as a measured correlation."""
    g, p = np.asarray(golds, dtype=np.float64), np.asarray(preds, dtype=np.float64)
    if g.size < 2:
        return "too_few"
    if np.ptp(p) == 0.0:
        return "one_prediction"
    if np.ptp(g) == 0.0:
        return "one_gold"
    return None


def regression_metrics(golds: Sequence[float], preds: Sequence[float]) -> dict[str, float]:
    """``{"pearson", "spearman", "mse"}`` of predicted against gold scores."""
    g = np.asarray(golds, dtype=np.float64)
    p = np.asarray(preds, dtype=np.float64)
    if g.shape != p.shape or g.ndim != 1:
        raise DataError(
            f"{g.size} gold scores but {p.size} predictions",
            where="regression metrics",
            expected="one predicted score per gold score",
        )
    if g.size == 0:
        raise DataError("no examples to score", where="regression metrics", expected="at least one labelled example")
    if not (np.isfinite(g).all() and np.isfinite(p).all()):
        raise DataError("a score is NaN or infinite", where="regression metrics", expected="finite numbers")
    mse = float(np.mean((g - p) ** 2))
    # A correlation divides by the spread of each side. A model that predicts one
    # constant (typical early in training, or a collapsed regressor) has zero spread, so
    # the correlation is undefined: scipy returns NaN with a warning. We report 0.0, "no
    # linear/rank relation shown", so plots, best-checkpoint choice and averages keep
    # working; MSE still tells how far off the constant is. Fewer than 2 points: same.
    if undefined_correlation(g, p) is not None:
        return {"pearson": 0.0, "spearman": 0.0, "mse": mse}
    from scipy.stats import pearsonr, spearmanr  # here: scipy.stats takes seconds to import

    pearson = float(pearsonr(g, p).statistic)
    spearman = float(spearmanr(g, p).statistic)
    return {"pearson": pearson, "spearman": spearman, "mse": mse}
