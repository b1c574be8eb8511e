"""How a metric value is shown to a person: the one formatter the CLI, the plots, the
Runs and Results pages use.

Scores (accuracy, F1, MCC, correlations, exact match) are fractions and read as papers
print them, x100; errors (MSE, losses) are not percentages and print as they are. Two
copies of this rule had drifted: the CLI printed an MSE of 0.5 as "50.00".

A value short of its range's end is never shown as that end: accuracy 5462/5463 read
"100.0" (one error on QNLI's dev set) and 249 of 250 audit labels "100%", so where rounding
would reach the end a decimal is added ("99.98"; at most three, and past those the last digit
stops one step short: "99.9999"). A negative value that rounds to zero shows as "0.0", not "-0.0".
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from bertstudio.metrics.glue import CORRELATIONS, LOWER_IS_BETTER, SIGNED_METRICS

_MORE_DIGITS = 3  # decimals added at most to keep a value off its range's end


def is_score(key: str) -> bool:
    """True for a metric read as a percentage (x100); False for an error such as mse or a loss."""
    return key not in LOWER_IS_BETTER and not key.endswith("loss")


def is_fraction(key: str) -> bool:
    """True for a score that is a share (accuracy, F1, precision, recall, exact match; MCC, which
    papers print the same way), written as a percentage with "%" where the reader sees no column
    header saying x100 (the model card); correlations and errors are not percentages."""
    return is_score(key) and key not in CORRELATIONS


LAST_SCORES_SHOWN = 3  # metrics of the last evaluation named when none is an official or kept one


def last_score_keys(last: Mapping[Any, Any], official: Sequence[str], kept: Mapping[str, Any]) -> tuple[list[str], bool]:
    """Which of the last evaluation's scores (metrics.json's ``last_evaluation``) a note beside the
    kept, best-selected ones names, and whether some were left out: the official metrics, else those
    the kept scores have too, else any, at most a few; a value that is not finite or out of a score's
    range is never named. metrics.json is any file: 5,000 keys made a 59 KB note, 1e308 read
    "accuracy inf". The Results page and the model card say the same scores."""
    usable = {k for k, v in last.items() if sayable(k, v)}
    keys = [k for k in official if k in usable] or [k for k in kept if k in usable] or [k for k in last if k in usable]
    most = max(LAST_SCORES_SHOWN, len(official))
    return keys[:most], len(keys) > most


def sayable(key: object, value: object) -> bool:
    """Whether metric ``key``'s ``value`` may be shown as a run's number: finite, a score within
    [-1, 1], an error below 10^9. The one rule of the model card's table and its notes."""
    if not isinstance(key, str) or not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        if not math.isfinite(value):
            return False
    except OverflowError:  # a 400-digit whole number: no float holds it
        return False
    return abs(value) <= 1.0 if is_score(key) else abs(value) < 1e9  # a score is within [-1, 1]; an error is not 10^300


def format_metric(key: str, value: float, digits: int = 1) -> str:
    """``value`` of metric ``key``: x100 with ``digits`` decimals for a score (never at an end of
    its range it does not reach: 0 and 100, -100 for MCC and correlations), 4 decimals for an error."""
    if not is_score(key):
        return _fixed(float(value), 4)
    return _off_the_ends(100 * float(value), digits, (-100.0, 100.0) if key in SIGNED_METRICS else (0.0, 100.0))


def format_share(value: float, digits: int = 0) -> str:
    """A share (0 to 1) as a percentage, ``"81%"``, never 0% or 100% unless it is: 249 of 250
    read "100%" (now "99.6%")."""
    return format_percent(value, digits) + "%"


def format_percent(value: float, digits: int = 0) -> str:
    """:func:`format_share`'s number without the sign, for a translated sentence that writes "%"
    itself ("agrees with %1% of the labels"): each language keeps the sign where it puts it."""
    return _off_the_ends(100 * float(value), digits, (0.0, 100.0))


def format_fraction(value: float, digits: int = 2) -> str:
    """A probability or other 0-to-1 value written as a decimal (the cartography's axes, the Results
    table's confidence): a mean probability of 0.9996 reads "0.9996", not "1.00" (certain)."""
    return _off_the_ends(float(value), digits, (0.0, 1.0))


def format_change(key: str, delta: float, digits: int = 1) -> str:
    """A signed difference of metric ``key`` ("+1.3", points x100 for a score; 4 decimals for an
    error); a change that rounds to nothing reads "+0.0", never "-0.0"."""
    text = _fixed(100 * float(delta), digits) if is_score(key) else _fixed(float(delta), 4)  # a change has no ends
    return text if text.startswith("-") else "+" + text


def format_spread(key: str, spread: float, digits: int = 1) -> str:
    """A spread of metric ``key`` (a standard deviation over seeds): points x100 for a score, 4
    decimals for an error, with no range ends to stay off (a sd of 1e-5 reads "0.0", not "0.0010")."""
    return _fixed(100 * float(spread), digits) if is_score(key) else _fixed(float(spread), 4)


def _fixed(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return text.removeprefix("-") if float(text) == 0 else text  # -0.0004 read "-0.0"


def _off_the_ends(value: float, digits: int, ends: tuple[float, float]) -> str:
    """``value`` with ``digits`` decimals, or more (up to _MORE_DIGITS) where rounding would show
    an end of ``ends`` the value does not reach; past those, the last digit one step inside."""
    if value in ends or not ends[0] < value < ends[1]:
        return _fixed(value, digits)
    for places in range(digits, digits + _MORE_DIGITS + 1):
        text = _fixed(value, places)
        if float(text) not in ends:
            return text
    places = digits + _MORE_DIGITS
    step = 10.0 ** -places
    return _fixed(ends[1] - step if value > (ends[0] + ends[1]) / 2 else ends[0] + step, places)


def format_metrics(metrics: Mapping[str, Any], digits: int = 1) -> str:
    """``"accuracy 87.5, mse 0.5000"``: every numeric metric, in the given order."""
    return ", ".join(f"{k} {format_metric(k, v, digits)}" for k, v in metrics.items()
                     if isinstance(v, (int, float)) and not isinstance(v, bool))
