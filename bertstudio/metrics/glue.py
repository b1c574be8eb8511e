"""Which metrics each benchmark preset reports, and how a run's main metric is chosen.

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
from bertstudio.presets import PRESET_INFO, find_preset

# The official metrics per task, main metric first, keyed by leaderboard name: read from
# the one preset table (bertstudio.presets) that the readers use too, so every preset the
# app can load can also be scored (SNLI and the CLUE sets included).
GLUE_METRICS: dict[str, tuple[str, ...]] = {p.board: p.metrics for p in PRESET_INFO.values()}

# A preset scored by correlations predicts a score, not a class.
CORRELATIONS = frozenset({"pearson", "spearman"})

# Metrics where lower is better (the engine's best-checkpoint choice needs to know).
LOWER_IS_BETTER = frozenset({"mse", "mae", "rmse", "loss"})

# Metrics that range from -1 (every other one of the main metrics starts at 0).
SIGNED_METRICS = frozenset({"mcc", *CORRELATIONS})


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


def main_metric(metrics: str | Sequence[str], available: Mapping[str, Any] | None = None) -> str:
    """The metric that ranks runs (best checkpoint, early stopping): the first of ``metrics`` (a
    preset's name stands for its official metrics; a task kind's come from its Task's
    ``metric_names``).

    Given the metrics a run actually produced, falls back to the first key present: a POS
    tagger (plain tags) has token accuracy but no entity F1.
    """
    keys = GLUE_METRICS[canonical_task(metrics)] if isinstance(metrics, str) else tuple(metrics)
    if available is None or keys[0] in available:
        return keys[0]
    for k in keys:
        if k in available:
            return k
    raise DataError(
        f"none of the metrics {list(keys)} was computed",
        where="metrics of the run",
        expected=f"one of {list(keys)} among {sorted(available)}",
    )


def glue_task_metrics(
    task: str, golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[Hashable] | None = None
) -> dict[str, float]:
    """The official metrics of one GLUE task, keyed as in :data:`GLUE_METRICS`."""
    name = canonical_task(task)
    names = GLUE_METRICS[name]
    if set(names) <= CORRELATIONS:
        values = regression_metrics(golds, preds)
        return {k: values[k] for k in names}
    return classification_metrics(golds, preds, names=names, labels=labels)
