"""Which metrics each benchmark preset reports, and the default metrics per task kind.

Metric keys are the same everywhere (accuracy, f1, macro_f1, mcc, pearson,
spearman, mse, precision, recall, exact_match). Task names follow the GLUE
leaderboard; MNLI matched and mismatched are separate tasks ("MNLI-m",
"MNLI-mm") and a bare "MNLI" means the matched set, which is what MNLI dev
evaluation usually reports.
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping, Sequence

from bertstudio.errors import ConfigError, DataError
from bertstudio.metrics.classification import classification_metrics
from bertstudio.metrics.regression import regression_metrics
from bertstudio.metrics.squad import squad_metrics
from bertstudio.metrics.tagging import tagging_metrics
from bertstudio.presets import PRESET_INFO, find_preset

# The official metrics per task, main metric first, keyed by leaderboard name: read from
# the one preset table (bertstudio.presets) that the readers use too, so every preset the
# app can load can also be scored (SNLI and the CLUE sets included).
GLUE_METRICS: dict[str, tuple[str, ...]] = {p.board: p.metrics for p in PRESET_INFO.values()}

REGRESSION_TASKS = frozenset(p.board for p in PRESET_INFO.values() if p.kind == "regression")

KIND_METRICS: dict[str, tuple[str, ...]] = {
    "sentence": ("accuracy", "macro_f1"),
    "pair": ("accuracy", "macro_f1"),
    "regression": ("pearson", "spearman"),
    "tagging": ("f1", "precision", "recall", "accuracy"),
    "qa": ("exact_match", "f1"),
}

# Metrics where lower is better (the engine's best-checkpoint choice needs to know).
LOWER_IS_BETTER = frozenset({"mse", "loss"})


def canonical_task(task: str) -> str:
    """The leaderboard spelling of a preset's name ("sst2" -> "SST-2", "MNLI" -> "MNLI-m")."""
    found = find_preset(task)
    if found is None:
        raise ConfigError(
            f"unknown GLUE task {task!r}",
            where="glue_task",
            expected="one of " + ", ".join(GLUE_METRICS),
        )
    return found.board


def is_glue_task(name: str) -> bool:
    """True for any preset bertstudio knows (GLUE tasks, SNLI, the CLUE sets)."""
    return find_preset(name) is not None


def kind_metrics(kind: str) -> tuple[str, ...]:
    """Default metric keys of a task kind when no GLUE task is named (main metric first)."""
    try:
        return KIND_METRICS[kind]
    except KeyError:
        raise ConfigError(f"unknown task kind {kind!r}", where="task", expected=" | ".join(KIND_METRICS)) from None


def main_metric(task_or_kind: str, available: Mapping[str, Any] | None = None) -> str:
    """The metric that ranks runs of a GLUE task or task kind (best checkpoint, early stopping).

    Given the metrics a run actually produced, falls back to the first default key
    present: a POS tagger (plain tags) has token accuracy but no entity F1.
    """
    keys = kind_metrics(task_or_kind) if task_or_kind in KIND_METRICS else GLUE_METRICS[canonical_task(task_or_kind)]
    if available is None or keys[0] in available:
        return keys[0]
    for k in keys:
        if k in available:
            return k
    raise DataError(
        f"none of the metrics {list(keys)} was computed",
        where=f"metrics of {task_or_kind}",
        expected=f"one of {list(keys)} among {sorted(available)}",
    )


def glue_task_metrics(
    task: str, golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[Hashable] | None = None
) -> dict[str, float]:
    """The official metrics of one GLUE task, keyed as in :data:`GLUE_METRICS`."""
    name = canonical_task(task)
    names = GLUE_METRICS[name]
    if name in REGRESSION_TASKS:
        values = regression_metrics(golds, preds)
        return {k: values[k] for k in names}
    return classification_metrics(golds, preds, names=names, labels=labels)


def compute_metrics(
    kind: str,
    golds: Sequence[Any],
    preds: Sequence[Any],
    *,
    glue_task: str | None = None,
    labels: Sequence[Hashable] | None = None,
) -> dict[str, float]:
    """One entry point for every kind: the GLUE task's metrics when one is named, else the
    kind's defaults. Tagging golds/preds are tag lists per sentence; QA golds are lists of
    answer strings per question and preds the predicted answer strings."""
    if glue_task is not None:
        return glue_task_metrics(glue_task, golds, preds, labels=labels)
    names = kind_metrics(kind)
    if kind in ("sentence", "pair"):
        return classification_metrics(golds, preds, names=names, labels=labels)
    if kind == "regression":
        return regression_metrics(golds, preds)
    if kind == "tagging":
        return tagging_metrics(golds, preds)
    return squad_metrics(preds, golds)
