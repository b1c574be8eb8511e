"""Classification metrics: accuracy, binary F1, macro F1, Matthews correlation, confusion.

Values are fractions (0..1; MCC -1..1). Gold and predicted labels may be label
names (as an ExampleSet stores them) or integer ids; ``labels`` gives the label
order, which defines the ids (so "positive class = id 1" means ``labels[1]``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable, Sequence

import numpy as np

from bertstudio.errors import DataError

CLASSIFICATION_METRICS: tuple[str, ...] = ("accuracy", "f1", "macro_f1", "mcc")

# A model "answers one class" when at least this share of its predictions is one label while
# at least OTHER_GOLD of the gold is something else (CoLA on 32 rows: 499 of 500 "acceptable"
# against a gold of 69%), on at least ONE_ANSWER_ROWS rows (fewer say nothing either way).
ONE_ANSWER_SHARE, OTHER_GOLD, ONE_ANSWER_ROWS = 0.95, 0.10, 10


@dataclass(frozen=True)
class OneAnswer:
    """A classifier that answers (almost) one class: the metric is honest (MCC about 0), but
    nothing else told the user that the model is a constant, as regression's "one_prediction" does."""

    label: str
    count: int  # rows predicted ``label``
    rows: int  # rows scored (with a gold value and a prediction)
    gold_share: float  # the share of those rows whose gold is ``label``

    def sentence(self) -> str:
        return (f"the model answers {self.label!r} for {self.count:,} of {self.rows:,} evaluation rows "
                f"(the gold: {self.gold_share:.0%})")

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "count": self.count, "rows": self.rows, "gold_share": self.gold_share}

    @classmethod
    def from_dict(cls, found: Any) -> OneAnswer | None:
        """:meth:`to_dict`'s object read back (metrics.json's ``one_answer``), checked, since the
        file is any file's: a label, whole counts with 0 <= count <= rows (at most 2**53) and a finite
        share in [0, 1]; None for anything else (nothing is said of it)."""
        if not isinstance(found, dict):
            return None
        label, count, rows, share = (found.get(k) for k in ("label", "count", "rows", "gold_share"))
        if not (isinstance(label, str) and label and all(_whole(v) for v in (count, rows)) and 0 <= count <= rows
                and isinstance(share, (int, float)) and not isinstance(share, bool) and 0.0 <= share <= 1.0):
            return None  # (a comparison of NaN is false: a NaN share is refused above too)
        return cls(label, count, rows, float(share))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2**53


def one_answer(golds: Sequence[Any], preds: Sequence[Any]) -> OneAnswer | None:
    """The label a model answers for at least ONE_ANSWER_SHARE of the rows while at least
    OTHER_GOLD of their gold is another label; None otherwise. Rows without a gold value or a
    prediction are left out."""
    pairs = [(g, p) for g, p in zip(golds, preds) if g is not None and p is not None]
    if len(pairs) < ONE_ANSWER_ROWS:
        return None
    label, count = Counter(str(p) for _, p in pairs).most_common(1)[0]
    same = sum(str(g) == label for g, _ in pairs)
    if count < ONE_ANSWER_SHARE * len(pairs) or len(pairs) - same < OTHER_GOLD * len(pairs):
        return None
    return OneAnswer(label, count, len(pairs), same / len(pairs))


def _check_pair(golds: Sequence[Any], preds: Sequence[Any], what: str) -> None:
    if len(golds) != len(preds):
        raise DataError(
            f"{len(golds)} gold values but {len(preds)} predictions",
            where=what,
            expected="one prediction per gold example",
        )
    if len(golds) == 0:
        raise DataError("no examples to score", where=what, expected="at least one labelled example")


def _label_order(golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[Hashable] | None) -> list[Any]:
    if labels is not None:
        order = list(labels)
        known = set(order)
        unknown = sorted({str(v) for v in list(golds) + list(preds) if v not in known})
        if unknown:
            raise DataError(
                f"labels {unknown[:5]} are not among the task's labels",
                where="classification metrics",
                expected=f"one of {order}",
            )
        return order
    # Sorted distinct values: ids 0/1 or names "0"/"1" keep their natural order.
    return sorted(set(golds) | set(preds), key=lambda v: (str(type(v)), v))


def _positive_label(order: list[Any], golds: Sequence[Any]) -> Any:
    """The class with id 1 (GLUE's MRPC/QQP convention: 1 = paraphrase/duplicate)."""
    if len(order) >= 2:
        if len(order) > 2:
            raise DataError(
                f"binary F1 asked for {len(order)} classes",
                where="classification metrics",
                expected="two classes (use macro_f1 for more)",
            )
        return order[1]
    # Only one class seen and no label list: with integer ids the positive id is 1.
    only = order[0]
    if isinstance(only, (int, np.integer)):
        return 1
    if isinstance(only, str) and only in ("0", "1"):
        return "1"
    raise DataError(
        "cannot tell which class is positive: only one class present and no label list",
        where="classification metrics",
        expected="labels=[negative, positive]",
    )


def classification_metrics(
    golds: Sequence[Any],
    preds: Sequence[Any],
    names: Sequence[str] = ("accuracy",),
    labels: Sequence[Hashable] | None = None,
) -> dict[str, float]:
    """The named metrics among accuracy, f1 (binary, positive class = id 1), macro_f1, mcc."""
    _check_pair(golds, preds, "classification metrics")
    if isinstance(names, str):  # names="accuracy" means one metric, not five letters
        names = (names,)
    if any(v is None for v in golds) or any(v is None for v in preds):
        raise DataError(
            "a gold or predicted label is missing (None)",
            where="classification metrics",
            expected="labelled rows only (ExampleSet.labelled())",
        )
    bad = [n for n in names if n not in CLASSIFICATION_METRICS]
    if bad:
        raise DataError(f"unknown metric(s) {bad}", where="classification metrics", expected=f"some of {CLASSIFICATION_METRICS}")
    golds, preds = list(golds), list(preds)
    order = _label_order(golds, preds, labels)
    counts = _counts(golds, preds, order)
    out: dict[str, float] = {}
    for name in names:
        if name == "accuracy":
            out[name] = float(np.trace(counts) / counts.sum())
        elif name == "f1":
            pos = _positive_label(order, golds)
            # zero_division=0: no positive predicted and none gold scores 0, as GLUE's scorer does.
            out[name] = _f1(counts, order.index(pos)) if pos in order else 0.0
        elif name == "macro_f1":
            out[name] = float(np.mean([_f1(counts, k) for k in _present(counts)]))
        elif name == "mcc":
            out[name] = _mcc(counts)
    return out


# The four scores come from the confusion counts, written here rather than taken from
# scikit-learn (accuracy_score, f1_score, matthews_corrcoef: the same formulas, and
# tests/core/test_metrics_classification checks them against it): importing scikit-learn
# costs ~1.7 s, paid by every run and every `bertstudio evaluate` for a few sums.

def _counts(golds: list[Any], preds: list[Any], order: list[Any]) -> np.ndarray:
    """The confusion counts (rows gold, columns predicted) in ``order``."""
    index = {label: i for i, label in enumerate(order)}
    counts = np.zeros((len(order), len(order)), dtype=np.int64)
    np.add.at(counts, (np.array([index[g] for g in golds]), np.array([index[p] for p in preds])), 1)
    return counts


def _present(counts: np.ndarray) -> np.ndarray:
    """The classes macro F1 averages over: those in the gold or the predicted rows (scikit-learn's
    default). A gold class never predicted scores 0; a class with neither is not scored: over the
    full label list, a perfect model on 4 held-out rows of a 20-class set scored 0.20, the 16
    classes the hold-out kept in training counting as F1 = 0."""
    return np.flatnonzero(counts.sum(axis=0) + counts.sum(axis=1))


def _f1(counts: np.ndarray, k: int) -> float:
    """F1 of class ``k``: 2tp / (2tp + fp + fn), 0 where nothing is predicted or gold."""
    tp = counts[k, k]
    denominator = counts[:, k].sum() + counts[k, :].sum()  # (tp + fp) + (tp + fn)
    return float(2 * tp / denominator) if denominator else 0.0


def _mcc(counts: np.ndarray) -> float:
    """Matthews correlation of any number of classes (Gorodkin's R_K, as scikit-learn); 0.0
    when one side is constant, where it is undefined."""
    c = counts.astype(np.float64)
    true, pred, right, n = c.sum(axis=1), c.sum(axis=0), np.trace(c), c.sum()
    cov_tp = right * n - true @ pred
    cov_pp, cov_tt = n * n - pred @ pred, n * n - true @ true
    return float(cov_tp / np.sqrt(cov_tt * cov_pp)) if cov_tt * cov_pp else 0.0


def confusion(golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[Hashable]) -> np.ndarray:
    """Counts with rows = gold label, columns = predicted label, in ``labels`` order."""
    _check_pair(golds, preds, "confusion matrix")
    order = _label_order(list(golds), list(preds), labels)
    return _counts(list(golds), list(preds), order)
