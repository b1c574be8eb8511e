"""Per-task GLUE metrics, task names, main metrics and kind defaults."""

from __future__ import annotations

import math

import pytest

from bertstudio.errors import ConfigError, DataError
from bertstudio.metrics import (
    GLUE_METRICS,
    canonical_task,
    glue_task_metrics,
    main_metric,
)

# TP 3, FN 1, FP 2, TN 4 (see test_metrics_classification)
GOLD = ["1", "1", "1", "1", "0", "0", "0", "0", "0", "0"]
PRED = ["1", "1", "1", "0", "1", "1", "0", "0", "0", "0"]


def test_official_metric_per_task() -> None:
    # GLUE paper Table 1: CoLA MCC; MRPC/QQP F1 and accuracy; STS-B Pearson/Spearman; accuracy elsewhere
    assert GLUE_METRICS["CoLA"] == ("mcc",)
    assert set(GLUE_METRICS["MRPC"]) == set(GLUE_METRICS["QQP"]) == {"f1", "accuracy"}
    assert set(GLUE_METRICS["STS-B"]) == {"pearson", "spearman"}
    for task in ("SST-2", "QNLI", "RTE", "WNLI", "MNLI-m", "MNLI-mm", "SNLI"):
        assert GLUE_METRICS[task] == ("accuracy",)


def test_glue_task_metrics_by_hand() -> None:
    assert glue_task_metrics("MRPC", GOLD, PRED) == pytest.approx({"f1": 2 / 3, "accuracy": 0.7})
    assert glue_task_metrics("CoLA", GOLD, PRED) == pytest.approx({"mcc": 10 / math.sqrt(600)})
    assert glue_task_metrics("RTE", ["entailment", "not_entailment"], ["entailment", "entailment"]) == {"accuracy": 0.5}
    sts = glue_task_metrics("STS-B", [1.0, 2.0, 3.0], [1.0, 3.0, 2.0])
    assert sts == pytest.approx({"pearson": 0.5, "spearman": 0.5})  # no mse: not a GLUE metric


def test_task_names() -> None:
    assert canonical_task("sst2") == "SST-2"
    assert canonical_task("sts-b") == "STS-B"
    assert canonical_task("MNLI") == "MNLI-m"  # MNLI dev usually means matched
    assert canonical_task("mnli_mismatched") == "MNLI-mm"
    with pytest.raises(ConfigError, match="unknown GLUE task"):
        canonical_task("SuperGLUE")


def test_main_metric_of_presets_and_kinds() -> None:
    from bertstudio.tasks import get_task, official_metrics

    assert main_metric("CoLA") == "mcc"
    assert main_metric("MRPC") == "f1"
    assert main_metric(official_metrics("sentence")) == "accuracy"
    assert main_metric(official_metrics("qa")) == "exact_match"
    assert official_metrics("pair", "RTE") == ("accuracy",)  # a preset's official metrics win
    assert get_task("pair").metric_names == ("accuracy", "macro_f1")
    assert get_task("regression").metric_names == ("pearson", "spearman")
    assert set(get_task("tagging").metric_names) == {"f1", "precision", "recall", "accuracy"}
    assert set(get_task("qa").metric_names) == {"exact_match", "f1"}
    # A POS tagger has no entity F1: the main metric falls back to what was computed.
    tagging = official_metrics("tagging")
    assert main_metric(tagging) == "f1"
    assert main_metric(tagging, {"accuracy": 0.9}) == "accuracy"
    with pytest.raises(DataError):
        main_metric(official_metrics("qa"), {"loss": 1.0})
    with pytest.raises(ConfigError):
        official_metrics("summarisation")


