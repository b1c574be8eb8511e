"""Per-class precision, recall, F1 and support: what a run got right, class by class.

The official metric of a run is one number; beside it the Results page shows how each
class (a label, a POS tag, an entity type) fares, as scikit-learn's
``classification_report`` prints it, plus its macro and weighted averages. Built from
the plain rows of a run's ``predictions.jsonl`` (``gold`` and ``label`` per example,
or ``gold`` and ``tags`` per sentence), so a run read from disk needs no model.
Tagging reports live in :mod:`bertstudio.metrics.tagging` (entity types by seqeval for
BIO tag sets, tags by scikit-learn for plain ones such as POS).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

AVERAGES: tuple[str, ...] = ("macro avg", "weighted avg")


@dataclass(frozen=True)
class ClassScores:
    """One row of a report; scores are fractions (0..1), support a count of ``unit``.
    ``scored``: False for a class with no gold and no prediction in the rows scored, whose
    precision, recall and F1 are undefined (0 by scikit-learn's ``zero_division``) and which
    the averages leave out."""

    name: str
    precision: float
    recall: float
    f1: float
    support: int
    scored: bool = True


@dataclass(frozen=True)
class PerClassReport:
    classes: tuple[ClassScores, ...]  # in label-set order
    averages: tuple[ClassScores, ...]  # macro avg, weighted avg
    unit: str  # what support counts: "examples" | "tokens" | "entities"

    def row(self, name: str) -> ClassScores:
        for scores in self.classes + self.averages:
            if scores.name == name:
                return scores
        raise KeyError(name)


def classification_report_of(golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[str],
                             unit: str = "examples") -> PerClassReport:
    """sklearn's report over ``labels`` (every class gets a row, also one never seen: support 0);
    its averages over the classes present in the gold or predicted rows, as the run's macro_f1.

    A predicted value outside ``labels`` (a label renamed since the run) counts as wrong for
    its gold class and gets no row of its own.
    """
    golds, preds = [str(g) for g in golds], [str(p) for p in preds]
    names = [str(n) for n in labels] or sorted(set(golds) | set(preds))
    from sklearn.metrics import precision_recall_fscore_support  # here: scikit-learn takes ~1.7 s to import

    # Rows by position, never by name: sklearn's output_dict mixes classes with its summary keys
    # ("accuracy", "macro avg", "weighted avg"), and a project may name a label so.
    seen = set(golds) | set(preds)
    p, r, f, s = precision_recall_fscore_support(golds, preds, labels=names, average=None, zero_division=0)
    classes = tuple(ClassScores(n, float(p[i]), float(r[i]), float(f[i]), int(s[i]), n in seen)
                    for i, n in enumerate(names))
    present = [n for n in names if n in seen] or names  # the averages over the classes scored, as the run's macro_f1
    support = sum(c.support for c in classes if c.name in set(present))
    averages = []
    for name, average in zip(AVERAGES, ("macro", "weighted")):
        ap, ar, af, _ = precision_recall_fscore_support(golds, preds, labels=present, average=average, zero_division=0)
        averages.append(ClassScores(name, float(ap), float(ar), float(af), support))
    return PerClassReport(classes, tuple(averages), unit)


def per_class_from_predictions(predictions: Sequence[Mapping[str, Any]], labels: Sequence[str], *,
                               per_token: bool) -> PerClassReport | None:
    """The report of a classification (``label``) or tagging (``tags``, ``per_token=True``) run
    from its predictions.jsonl rows; rows without gold are left out; None when none has gold."""
    if per_token:
        from bertstudio.metrics.tagging import tagging_report

        rows = [p for p in predictions if p.get("gold") is not None and p.get("tags") is not None
                and len(p["gold"]) == len(p["tags"])]
        return tagging_report([list(p["gold"]) for p in rows], [list(p["tags"]) for p in rows], labels) if rows else None
    rows = [p for p in predictions if p.get("gold") is not None and p.get("label") is not None]
    if not rows:
        return None
    return classification_report_of([p["gold"] for p in rows], [p["label"] for p in rows], labels)
