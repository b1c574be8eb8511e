"""How a metric value is shown to a person: the one formatter the CLI, the plots, the
Runs and Results pages use.

Scores (accuracy, F1, MCC, correlations, exact match) are fractions and read as papers
print them, x100; errors (MSE, losses) are not percentages and print as they are. Two
copies of this rule had drifted: the CLI printed an MSE of 0.5 as "50.00".
"""

from __future__ import annotations

from typing import Any, Mapping

from bertstudio.metrics.glue import CORRELATIONS, LOWER_IS_BETTER


def is_score(key: str) -> bool:
    """True for a metric read as a percentage (x100); False for an error such as mse or a loss."""
    return key not in LOWER_IS_BETTER and not key.endswith("loss")


def is_fraction(key: str) -> bool:
    """True for a score that is a share (accuracy, F1, precision, recall, exact match; MCC, which
    papers print the same way), written as a percentage with "%" where the reader sees no column
    header saying x100 (the model card); correlations and errors are not percentages."""
    return is_score(key) and key not in CORRELATIONS


def format_metric(key: str, value: float, digits: int = 1) -> str:
    """``value`` of metric ``key``: x100 with ``digits`` decimals for a score, 4 decimals for an error."""
    return f"{100 * float(value):.{digits}f}" if is_score(key) else f"{float(value):.4f}"


def format_metrics(metrics: Mapping[str, Any], digits: int = 1) -> str:
    """``"accuracy 87.5, mse 0.5000"``: every numeric metric, in the given order."""
    return ", ".join(f"{k} {format_metric(k, v, digits)}" for k, v in metrics.items()
                     if isinstance(v, (int, float)) and not isinstance(v, bool))
