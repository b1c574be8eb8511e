"""Run comparison statistics: paired outcomes, McNemar's exact test, a paired bootstrap.

Two runs scored on the same evaluation rows are compared row by row. Given one
"right/wrong" flag per shared row and run (the kind's ``Task.is_error`` decides that;
this module never sees a Task), :func:`paired_outcomes` counts the rows each run fixed
or broke, and :func:`mcnemar_exact` is McNemar's exact test on the two discordant
counts (a two-sided binomial test, scipy's ``binomtest``).

The metric change gets a paired bootstrap interval: the same resampled rows score both
runs, 1,000 times. Resamples are multinomial row weights, so a metric that is a
function of per-row sums (accuracy, F1 from confusion counts, MCC, Pearson, entity F1,
SQuAD F1) is scored for all resamples in one matrix product (:class:`SummedMetric`)
instead of 1,000 calls into scikit-learn or seqeval; a metric that is not (Spearman's
ranks) is scored resample by resample (:class:`ResampledMetric`). The builders below
reproduce the definitions in :mod:`bertstudio.metrics` exactly (tests check them
against those functions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from bertstudio.errors import DataError

RESAMPLES = 1000
LEVEL = 0.95
_CHUNK = 2_000_000  # weight-matrix cells per chunk (16 MB of float64)


# --- paired outcomes and McNemar's test ------------------------------------------------


@dataclass(frozen=True)
class PairedOutcomes:
    """How two runs did on the same rows (positions into the shared rows)."""

    fixed: list[int]  # wrong in A, right in B
    broken: list[int]  # right in A, wrong in B
    both_wrong: list[int]
    both_right: int

    @property
    def total(self) -> int:
        return len(self.fixed) + len(self.broken) + len(self.both_wrong) + self.both_right

    @property
    def p_value(self) -> float:
        return mcnemar_exact(len(self.fixed), len(self.broken))


def paired_outcomes(correct_a: Sequence[bool], correct_b: Sequence[bool]) -> PairedOutcomes:
    a = np.asarray(correct_a, dtype=bool)
    b = np.asarray(correct_b, dtype=bool)
    if a.shape != b.shape or a.ndim != 1:
        raise DataError(f"{a.size} outcomes for run A but {b.size} for run B", where="run comparison",
                        expected="one right/wrong flag per shared row and run")
    return PairedOutcomes(
        fixed=np.flatnonzero(~a & b).tolist(),
        broken=np.flatnonzero(a & ~b).tolist(),
        both_wrong=np.flatnonzero(~a & ~b).tolist(),
        both_right=int((a & b).sum()),
    )


def mcnemar_exact(fixed: int, broken: int) -> float:
    """Two-sided exact McNemar p-value: under "no difference" each discordant row is a fair
    coin, so the smaller count is Binomial(fixed + broken, 1/2). 1.0 with no discordant rows."""
    from scipy.stats import binomtest

    n = int(fixed) + int(broken)
    if n == 0:
        return 1.0
    return float(binomtest(min(int(fixed), int(broken)), n, 0.5, alternative="two-sided").pvalue)


# --- metrics as functions of row weights -------------------------------------------------


@dataclass(frozen=True)
class SummedMetric:
    """A metric that is a function of per-row sums: ``combine(weights @ parts)``."""

    parts: np.ndarray  # (rows, k)
    combine: Callable[[np.ndarray], np.ndarray]  # (resamples, k) sums -> (resamples,) values

    def __len__(self) -> int:
        return int(self.parts.shape[0])

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        return self.combine(np.asarray(weights, dtype=np.float64) @ self.parts)


@dataclass(frozen=True)
class ResampledMetric:
    """A metric recomputed on each resample's rows (for ranks, which no sum gives)."""

    rows: int
    score: Callable[[np.ndarray], float]  # row indices (repeats allowed) -> value

    def __len__(self) -> int:
        return self.rows

    def __call__(self, weights: np.ndarray) -> np.ndarray:
        weights = np.atleast_2d(np.asarray(weights))
        idx = np.arange(self.rows)
        return np.array([self.score(np.repeat(idx, w.astype(np.int64))) for w in weights], dtype=np.float64)


Metric = SummedMetric | ResampledMetric


def value(metric: Metric) -> float:
    """The metric on all rows once (every weight 1)."""
    return float(metric(np.ones((1, len(metric))))[0])


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def mean_metric(per_row: Sequence[float]) -> SummedMetric:
    """The mean of a per-row score (accuracy from 0/1 flags, SQuAD EM/F1, squared error)."""
    v = np.asarray(per_row, dtype=np.float64)
    return SummedMetric(np.column_stack([v, np.ones_like(v)]), lambda s: _safe_div(s[:, 0], s[:, 1]))


def confusion_metric(key: str, gold: Sequence[int], pred: Sequence[int], n_classes: int) -> SummedMetric:
    """accuracy | f1 (binary, positive id 1) | macro_f1 (over the classes of ``n_classes`` present in
    the gold or predicted rows) | mcc, from the confusion counts, as
    :func:`bertstudio.metrics.classification_metrics` defines them."""
    g, p, k = np.asarray(gold, dtype=np.int64), np.asarray(pred, dtype=np.int64), int(n_classes)
    if key == "f1" and k != 2:
        raise DataError(f"binary F1 asked for {k} classes", where="run comparison", expected="two classes (macro_f1 for more)")
    parts = np.zeros((len(g), k * k))
    parts[np.arange(len(g)), g * k + p] = 1.0

    def combine(sums: np.ndarray) -> np.ndarray:
        c = sums.reshape(-1, k, k)  # [resample, gold, predicted]
        diag = np.diagonal(c, axis1=1, axis2=2)
        true, predicted, total = c.sum(axis=2), c.sum(axis=1), c.sum(axis=(1, 2))
        if key == "accuracy":
            return _safe_div(diag.sum(axis=1), total)
        if key == "f1":
            return _safe_div(2 * diag[:, 1], true[:, 1] + predicted[:, 1])
        if key == "macro_f1":
            present = (true + predicted) > 0  # per resample: a class with no row in it is not scored
            return _safe_div(_safe_div(2 * diag, true + predicted).sum(axis=1), present.sum(axis=1))
        if key == "mcc":  # Gorodkin's multi-class MCC, 0 where undefined (as scikit-learn)
            correct = diag.sum(axis=1)
            num = correct * total - (true * predicted).sum(axis=1)
            den = np.sqrt((total**2 - (predicted**2).sum(axis=1)) * (total**2 - (true**2).sum(axis=1)))
            return _safe_div(num, den)
        raise DataError(f"unknown classification metric {key!r}", where="run comparison",
                        expected="accuracy, f1, macro_f1 or mcc")

    return SummedMetric(parts, combine)


def regression_metric(key: str, gold: Sequence[float], pred: Sequence[float]) -> Metric:
    """pearson | mse from weighted moments; spearman resample by resample (ranks)."""
    g, p = np.asarray(gold, dtype=np.float64), np.asarray(pred, dtype=np.float64)
    if key == "mse":
        return mean_metric((g - p) ** 2)
    if key == "pearson":
        parts = np.column_stack([np.ones_like(g), g, p, g * g, p * p, g * p])

        def combine(s: np.ndarray) -> np.ndarray:
            n, sg, sp, sgg, spp, sgp = s.T
            cov = sgp - sg * sp / np.maximum(n, 1)
            var_g = sgg - sg * sg / np.maximum(n, 1)
            var_p = spp - sp * sp / np.maximum(n, 1)
            return _safe_div(cov, np.sqrt(np.clip(var_g, 0, None) * np.clip(var_p, 0, None)))

        return SummedMetric(parts, combine)
    if key == "spearman":
        from scipy.stats import spearmanr

        def score(idx: np.ndarray) -> float:
            gi, pi = g[idx], p[idx]
            if np.ptp(gi) == 0 or np.ptp(pi) == 0:
                return 0.0
            return float(spearmanr(gi, pi).statistic)

        return ResampledMetric(len(g), score)
    raise DataError(f"unknown regression metric {key!r}", where="run comparison", expected="pearson, spearman or mse")


def tagging_metric(key: str, gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]]) -> SummedMetric:
    """accuracy (token level) | precision | recall | f1 (seqeval's strict entities, micro-averaged:
    per-sentence entity counts summed, as :func:`bertstudio.metrics.tagging_metrics`)."""
    from bertstudio.metrics.tagging import scored_tags, tag_scheme

    gold, pred = [list(s) for s in gold], [scored_tags(s) for s in pred]
    if key == "accuracy":
        parts = np.array([[sum(a == b for a, b in zip(g, p)), len(g)] for g, p in zip(gold, pred)], dtype=np.float64)
        return SummedMetric(parts.reshape(-1, 2), lambda s: _safe_div(s[:, 0], s[:, 1]))
    scheme_name = tag_scheme(gold + pred)
    if scheme_name is None:
        raise DataError(f"{key} needs entity tags (B-/I-)", where="run comparison", expected="accuracy for plain tags")
    from seqeval.scheme import IOB2, IOBES, Entities

    scheme = IOBES if scheme_name == "IOBES" else IOB2
    true_sets = [{e.to_tuple() for e in sent} for sent in Entities(gold, scheme).entities] if gold else []
    pred_sets = [{e.to_tuple() for e in sent} for sent in Entities(pred, scheme).entities] if pred else []
    parts = np.array([[len(t & q), len(q), len(t)] for t, q in zip(true_sets, pred_sets)], dtype=np.float64).reshape(-1, 3)
    if key == "precision":
        return SummedMetric(parts, lambda s: _safe_div(s[:, 0], s[:, 1]))
    if key == "recall":
        return SummedMetric(parts, lambda s: _safe_div(s[:, 0], s[:, 2]))
    if key == "f1":
        return SummedMetric(parts, lambda s: _safe_div(2 * s[:, 0], s[:, 1] + s[:, 2]))
    raise DataError(f"unknown tagging metric {key!r}", where="run comparison", expected="f1, precision, recall or accuracy")


def squad_metric(key: str, answers: Sequence[str], gold: Sequence[Sequence[str]]) -> SummedMetric:
    """exact_match | f1: each question's best score over its gold answers, averaged (the SQuAD
    scripts' rules, from :mod:`bertstudio.metrics.squad`)."""
    from bertstudio.metrics.squad import exact_match, normalize_answer, token_f1

    def one(prediction: str, golds: Sequence[str]) -> float:
        if not golds:  # unanswerable: right only when nothing is predicted
            return float(normalize_answer(prediction) == "")
        scorer = exact_match if key == "exact_match" else token_f1
        return max(scorer(prediction, g) for g in golds)

    if key not in ("exact_match", "f1"):
        raise DataError(f"unknown QA metric {key!r}", where="run comparison", expected="exact_match or f1")
    return mean_metric([one(a, list(g)) for a, g in zip(answers, gold)])


# --- the paired bootstrap ----------------------------------------------------------------------


@dataclass(frozen=True)
class MetricChange:
    """B's metric minus A's on the shared rows, with a paired bootstrap interval."""

    metric: str
    a: float
    b: float
    low: float
    high: float
    level: float = LEVEL
    resamples: int = RESAMPLES
    deltas: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    @property
    def delta(self) -> float:
        return self.b - self.a


def bootstrap_weights(rows: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``(resamples, rows)`` counts: how often each row is drawn when ``rows`` rows are drawn
    with replacement (one resample per line)."""
    draws = rng.integers(0, rows, size=(resamples, rows))
    flat = (np.arange(resamples)[:, None] * rows + draws).ravel()
    return np.bincount(flat, minlength=resamples * rows).reshape(resamples, rows).astype(np.float64)


def paired_bootstrap(metric: str, a: Metric, b: Metric, *, resamples: int = RESAMPLES, level: float = LEVEL,
                     seed: int = 0) -> MetricChange:
    """Percentile interval of ``b - a`` over ``resamples`` resamples of the shared rows; both runs
    see the same resampled rows each time (that pairing is what makes the interval narrow)."""
    rows = len(a)
    if len(b) != rows:
        raise DataError(f"{rows} rows for run A but {len(b)} for run B", where="run comparison", expected="the same rows")
    if rows == 0:
        raise DataError("no shared evaluation rows", where="run comparison", expected="two runs scored on the same rows")
    rng = np.random.default_rng(seed)
    step = max(1, _CHUNK // rows)
    deltas = []
    for start in range(0, resamples, step):
        w = bootstrap_weights(rows, min(step, resamples - start), rng)
        deltas.append(b(w) - a(w))
    d = np.concatenate(deltas)
    tail = (1.0 - level) / 2
    low, high = np.quantile(d, [tail, 1.0 - tail])
    return MetricChange(metric, value(a), value(b), float(low), float(high), level, resamples, d)


def summary(outcomes: PairedOutcomes, change: MetricChange | None) -> dict[str, Any]:
    """Plain numbers for a report or a test."""
    out: dict[str, Any] = {"fixed": len(outcomes.fixed), "broken": len(outcomes.broken),
                           "both_wrong": len(outcomes.both_wrong), "both_right": outcomes.both_right,
                           "p_value": outcomes.p_value}
    if change is not None:
        out.update(metric=change.metric, a=change.a, b=change.b, delta=change.delta, low=change.low, high=change.high)
    return out
