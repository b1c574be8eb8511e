"""The GLUE score: one number over the benchmark's tasks, under a named convention.

Conventions (each lists its entries and, per entry, the (task, metric) parts
whose plain mean is the entry's score; the score is the mean over entries):

``glue``
    The GLUE leaderboard rule (Wang et al., 2019): a task reporting two metrics
    counts their mean (MRPC and QQP: F1 and accuracy; STS-B: Pearson and
    Spearman) and MNLI counts once, as the mean of matched and mismatched
    accuracy. WNLI is left out unless ``include_wnli=True`` (the public
    leaderboard includes it; most papers, BERT's among them, drop it because
    every system scores at or below the majority class on it).
``bert_paper``
    BERT paper Table 1: F1 for MRPC and QQP, Spearman for STS-B, Matthews
    correlation for CoLA (the caption says "accuracy for the other tasks", but
    the GLUE server scores CoLA by MCC and that is the number printed),
    accuracy elsewhere; MNLI-m and MNLI-mm are two entries; no WNLI.
``one_metric_per_task``
    Each of the eight tasks by its main metric alone, MNLI by the matched set
    (the seed lecture's exercise).

A task without results is *missing*: shown as missing, never counted as 0.
The average is over present entries; ``missing`` names the absent ones and
``partial`` says the average is not comparable with a full one.

All values are fractions, like every metric here; :meth:`Scoreboard.format_table`
prints them x100 by the one display rule (bertstudio.metrics.display): never 100.0 short of 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Iterable, Mapping

from bertstudio.errors import ConfigError
from bertstudio.metrics.display import format_metric
from bertstudio.metrics.glue import GLUE_METRICS, SIGNED_METRICS, canonical_task, main_metric

Part = tuple[str, str]  # (task, metric)

_GLUE: list[tuple[str, tuple[Part, ...]]] = [
    ("CoLA", (("CoLA", "mcc"),)),
    ("SST-2", (("SST-2", "accuracy"),)),
    ("MRPC", (("MRPC", "f1"), ("MRPC", "accuracy"))),
    ("STS-B", (("STS-B", "pearson"), ("STS-B", "spearman"))),
    ("QQP", (("QQP", "f1"), ("QQP", "accuracy"))),
    ("MNLI", (("MNLI-m", "accuracy"), ("MNLI-mm", "accuracy"))),
    ("QNLI", (("QNLI", "accuracy"),)),
    ("RTE", (("RTE", "accuracy"),)),
]
_WNLI = ("WNLI", (("WNLI", "accuracy"),))

_BERT_PAPER: list[tuple[str, tuple[Part, ...]]] = [
    ("MNLI-m", (("MNLI-m", "accuracy"),)),
    ("MNLI-mm", (("MNLI-mm", "accuracy"),)),
    ("QQP", (("QQP", "f1"),)),
    ("QNLI", (("QNLI", "accuracy"),)),
    ("SST-2", (("SST-2", "accuracy"),)),
    ("CoLA", (("CoLA", "mcc"),)),
    ("STS-B", (("STS-B", "spearman"),)),
    ("MRPC", (("MRPC", "f1"),)),
    ("RTE", (("RTE", "accuracy"),)),
]

_ONE_METRIC: list[tuple[str, tuple[Part, ...]]] = [
    (entry, ((parts[0][0], main_metric(parts[0][0])),)) for entry, parts in _GLUE
]

CONVENTIONS: dict[str, str] = {
    "glue": "GLUE leaderboard: mean of each task's metrics, MNLI = mean of m/mm, WNLI left out",
    "bert_paper": "BERT paper Table 1: F1 for MRPC/QQP, Spearman for STS-B, MCC for CoLA, accuracy elsewhere; MNLI-m and MNLI-mm apart; WNLI left out",
    "one_metric_per_task": "main metric of each task, MNLI matched only, WNLI left out",
}


@dataclass(frozen=True)
class ScoreRow:
    """One entry of the board. ``score`` is None when the entry is missing."""

    name: str
    score: float | None
    parts: dict[str, float | None]  # "MRPC f1" -> value (None = not reported)
    counted: bool = True  # False for reported tasks the convention leaves out (e.g. WNLI)

    @property
    def missing(self) -> bool:
        return self.score is None

    @property
    def partial(self) -> bool:
        """Present, but some of its parts were not reported."""
        return self.score is not None and any(v is None for v in self.parts.values())

    def score_text(self, digits: int = 1) -> str:
        """The entry's score as the CLI and the Scoreboard page show it (x100, never 100.0 short of it)."""
        return shown(_range_metric(self.parts), self.score, digits)

    def parts_text(self, digits: int = 1) -> str:
        """``"MRPC f1 88.2, MRPC accuracy 84.1"``; a part not reported reads "—"."""
        return ", ".join(f"{k} {shown(_range_metric([k]), v, digits)}" for k, v in self.parts.items())


def shown(metric: str, value: float | None, digits: int = 1) -> str:
    """``value`` of ``metric`` by the one display rule, or "—" when there is none."""
    return "—" if value is None else format_metric(metric, value, digits)


def _range_metric(parts: Iterable[str]) -> str:
    """The metric whose range a mean of ``parts`` ("CoLA mcc", ...) is read in: a signed one (MCC,
    a correlation) when any part can be negative, since the mean then can too."""
    metrics = [key.rsplit(" ", 1)[-1] for key in parts]
    return next((m for m in metrics if m in SIGNED_METRICS), metrics[0] if metrics else "accuracy")


@dataclass(frozen=True)
class Scoreboard:
    convention: str
    entries: list[ScoreRow]
    extras: list[ScoreRow] = field(default_factory=list)

    def rows(self) -> list[ScoreRow]:
        """Counted entries in the convention's order, then reported tasks it leaves out."""
        return list(self.entries) + list(self.extras)

    @property
    def present(self) -> list[ScoreRow]:
        return [r for r in self.entries if not r.missing]

    @property
    def missing(self) -> list[str]:
        return [r.name for r in self.entries if r.missing]

    @property
    def n_missing(self) -> int:
        return len(self.missing)

    @property
    def partial(self) -> bool:
        """True when the average leaves out an entry or part of one."""
        return any(r.missing or r.partial for r in self.entries)

    @property
    def average(self) -> float | None:
        """Mean over present entries (None when nothing is present)."""
        scores = [r.score for r in self.present]
        return sum(scores) / len(scores) if scores else None  # type: ignore[arg-type]

    def average_text(self, digits: int = 1) -> str:
        """The average as :meth:`ScoreRow.score_text` shows an entry's score."""
        return shown(_range_metric(k for r in self.present for k in r.parts), self.average, digits)

    def format_table(self, digits: int = 1) -> str:
        width = max(len(r.name) for r in self.rows()) if self.rows() else 5
        width = max(width, len("Average"))
        lines = [f"GLUE score, convention {self.convention}: {CONVENTIONS[self.convention]}"]
        lines.append(f"{'Task':<{width}}  {'Score':>6}  Metrics")
        for r in self.rows():
            detail = r.parts_text(digits)
            if r.missing:
                detail = "missing"
            elif not r.counted:
                detail += "  (not in the average)"
            elif r.partial:
                detail += "  (partial)"
            lines.append(f"{r.name:<{width}}  {r.score_text(digits):>6}  {detail}")
        n = len(self.entries)
        summary = f"over {len(self.present)} of {n} entries"
        if self.partial:
            what = f"{self.n_missing} missing: {', '.join(self.missing)}" if self.missing else "some parts missing"
            summary += f" ({what}; partial average, not comparable with a full score)"
        lines.append(f"{'Average':<{width}}  {self.average_text(digits):>6}  {summary}")
        return "\n".join(lines)


def score_number(value: object) -> float | None:
    """``value`` as a score the scoreboard counts; None where it is none: not a finite number (a
    diverged run's or a damaged metrics.json's NaN made the average "nan"), a bool, or a whole number
    past float's range. The one rule of the scoreboard and of what `bertstudio glue` writes to
    scoreboard.json and says it left out."""
    try:
        number = float(value) if isinstance(value, Real) and not isinstance(value, bool) else math.nan
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _lookup(results: Mapping[str, float | Mapping[str, float]], task: str, metric: str) -> float | None:
    """The task's ``metric``; None where there is none, or it is no score (:func:`score_number`:
    the entry is missing, not "nan")."""
    value = results.get(task)
    if value is None:
        return None
    return score_number(value if isinstance(value, Real) else value.get(metric))  # a bare number is the task's score


def glue_score(
    results: Mapping[str, float | Mapping[str, float]],
    convention: str = "glue",
    *,
    include_wnli: bool = False,
) -> Scoreboard:
    """Score GLUE results ``{task: {metric: value}}`` (fractions; task names as in
    GLUE_METRICS or any spelling :func:`canonical_task` accepts; a bare number stands
    for the task's score) under ``convention``."""
    if convention not in CONVENTIONS:
        raise ConfigError(f"unknown scoreboard convention {convention!r}", where="convention", expected=" | ".join(CONVENTIONS))
    canon: dict[str, float | Mapping[str, float]] = {}
    for task, value in results.items():
        canon[canonical_task(task)] = value
    layout = {"glue": _GLUE, "bert_paper": _BERT_PAPER, "one_metric_per_task": _ONE_METRIC}[convention]
    if include_wnli:
        layout = layout + [_WNLI]
    entries: list[ScoreRow] = []
    used: set[str] = set()
    for name, parts in layout:
        values = {f"{t} {m}": _lookup(canon, t, m) for t, m in parts}
        used.update(t for t, _ in parts)
        present = [v for v in values.values() if v is not None]
        score = sum(present) / len(present) if present else None
        entries.append(ScoreRow(name, score, values))
    extras = []
    for task in canon:
        if task in used:
            continue
        metric = GLUE_METRICS[task][0]
        v = _lookup(canon, task, metric)
        extras.append(ScoreRow(task, v, {f"{task} {metric}": v}, counted=False))
    return Scoreboard(convention, entries, extras)
