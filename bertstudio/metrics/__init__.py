"""GLUE, tagging and QA metrics and the GLUE scoreboard (numpy, scikit-learn, scipy, seqeval).

All values are fractions (0..1; correlations -1..1); UIs multiply by 100.
"""

from __future__ import annotations

from bertstudio.metrics.classification import CLASSIFICATION_METRICS, classification_metrics, confusion
from bertstudio.metrics.glue import (
    GLUE_METRICS,
    LOWER_IS_BETTER,
    SIGNED_METRICS,
    canonical_task,
    glue_task_metrics,
    is_glue_task,
    main_metric,
)
from bertstudio.metrics.regression import regression_metrics
from bertstudio.metrics.scoreboard import CONVENTIONS, Scoreboard, ScoreRow, glue_score
from bertstudio.metrics.squad import normalize_answer, squad_metrics
from bertstudio.metrics.tagging import tag_scheme, tagging_metrics

__all__ = [
    "CLASSIFICATION_METRICS",
    "CONVENTIONS",
    "GLUE_METRICS",
    "LOWER_IS_BETTER",
    "SIGNED_METRICS",
    "ScoreRow",
    "Scoreboard",
    "canonical_task",
    "classification_metrics",
    "confusion",
    "glue_score",
    "glue_task_metrics",
    "is_glue_task",
    "main_metric",
    "normalize_answer",
    "regression_metrics",
    "squad_metrics",
    "tag_scheme",
    "tagging_metrics",
]
