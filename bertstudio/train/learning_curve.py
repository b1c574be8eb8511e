"""Would more labels help? Train the same settings on growing shares of the labelled rows.

One job trains ``config`` on 12.5 / 25 / 50 / 100 % of the labelled training rows with
3 seeds each (12 runs), scores every run on the same evaluation set, and fits a power
law to the main metric's gap to perfect (``gap(n) = a * n ** -b``, the shape learning
curves follow over a range of data sizes; Hestness et al. 2017) with
``scipy.optimize.curve_fit``, ``b >= 0``: more labels never lower the expected score (an
unbounded fit read a dip inside seed noise, MRPC's 81.2 at 50 rows and 80.6 at 100, as
b = -0.05 and forecast 79.9 for 200 rows, "95% range 78.4 to 81.2", where three real runs
got 82.2-83.0). The fit says what doubling the labelled rows is expected to give, with a
95% prediction interval for the mean of that many seeds (the fit's uncertainty plus the
runs' scatter about it, Student's t on the residual degrees of freedom), unless the trend
is not established (:meth:`LearningCurve.unclear`): fewer than three sizes, b not above 0
at 95% (one-sided), or the largest size no better than answering one label to every evaluation
row (``baseline``). A score is counted over the
evaluation rows, so a perfect score says "gap below one row", not "gap 0": the gap is
floored at half a row (:func:`gap_floor`) before its log is taken.

Subsets are nested per seed: the seed's permutation of the rows is cut at each size, so
12.5% is inside 25% is inside 50%, and a point differs from the next only by the rows
added (and the training seed). Runs go from the smallest share up, so the first points
come fast; the progress reported is over all runs, weighted by their size. Runs write
no folders (``output_dir=None``). Cancelling (the same ``threading.Event`` the engine
checks after every optimizer step) stops the running run and returns the points so far;
a cancelled curve forecasts nothing (its largest size may hold one seed, and is not the
user's data). A share with fewer rows than the classes labelled cannot hold every class
(SetFit then has no negative pairs): it is left out, and the curve says so (``skipped``).

Settings chosen by Automatic (small_data.adapt) for the full labelled set would undertrain
the small shares (400 labels: batch 16 x 6 epochs, 150 steps; its 50-row share got 18
steps where Automatic gives 50 labels 38 epochs, about 150), so with ``automatic`` each
share gets Automatic's choice for its own rows, recorded per point (``settings``); settings
the user gave stay as given for every share.
"""

from __future__ import annotations

import math
import threading
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Collection, Sequence

import numpy as np

from bertstudio.errors import ConfigError, TrainingError
from bertstudio.train.config import HOLD_OUT, TrainConfig
from bertstudio.train.training_lock import LEARNING_CURVE, training_job

FRACTIONS = (0.125, 0.25, 0.5, 1.0)
SEEDS = (0, 1, 2)
SHOWN = ("method", "head", "mode", "epochs", "batch_size", "lr", "max_length", "class_weight", "auto_reason")  # a point's recorded settings


@dataclass(frozen=True)
class CurveProgress:
    """Where a learning curve is, as facts a UI phrases in its own words (the app said "run 2 of
    8: 2 labels, seed 1" in English inside its Chinese dialog); ``str()`` is the English line."""

    run: int  # 1-based, of ``runs``
    runs: int
    size: int  # the share's labelled rows
    seed: int
    waiting_for: str = ""  # the job whose training this run waits for (train/training_lock's names)
    done: bool = False  # every run ended

    def __str__(self) -> str:
        if self.done:
            return "done"
        line = f"run {self.run} of {self.runs}: {self.size} labels, seed {self.seed}"
        return f"{line}: waiting for {self.waiting_for} to finish" if self.waiting_for else line


Progress = Callable[[float, CurveProgress], None]


@dataclass(frozen=True)
class CurvePoint:
    labels: int  # training rows used
    seed: int
    value: float  # the main metric
    metrics: dict[str, float] = field(default_factory=dict)
    metric: str = ""  # the main metric's name (what ``value`` is)
    settings: dict[str, Any] = field(default_factory=dict)  # Automatic's choice for this share (empty: the config's)


@dataclass(frozen=True)
class PowerLaw:
    """``gap(n) = a * n ** -b``; the metric is ``ceiling - gap`` (or ``gap`` when lower is better)."""

    a: float
    b: float
    higher_is_better: bool
    ceiling: float
    cov: np.ndarray  # covariance of (log a, b)
    floor: float = 1e-6  # the smallest gap fitted (:func:`gap_floor`)
    scatter: float = 0.0  # the residual variance of one run's log gap about the fit
    dof: int = 0  # residual degrees of freedom (points - 2)

    def gap(self, n: float) -> float:
        return self.a * n ** -self.b

    def predict(self, n: float) -> float:
        return self.ceiling - self.gap(n) if self.higher_is_better else self.gap(n)

    def quantile(self) -> float:
        """The two-sided 95% quantile: Student's t on the residual degrees of freedom (a few
        points estimate their own scatter poorly), the normal one when none are left."""
        from scipy.stats import t

        return float(t.ppf(0.975, self.dof)) if self.dof > 0 else 1.96

    def b_low(self) -> float:
        """b's one-sided 95% lower bound (b >= 0 is fitted, so "does more data help" is one-sided):
        at or below 0, the fit cannot tell that more data helps."""
        from scipy.stats import t

        q = float(t.ppf(0.95, self.dof)) if self.dof > 0 else 1.645
        return self.b - q * float(math.sqrt(max(self.cov[1, 1], 0.0)))

    def predict_range(self, n: float, runs: int = 1) -> tuple[float, float]:
        """A 95% prediction interval for the mean of ``runs`` runs (seeds) at ``n``: the fit's
        uncertainty (delta method on log gap) plus the runs' scatter about the fit divided by
        ``runs``. The fit's covariance alone treated the model as exact and the runs as the
        only noise: a range of 78.4 to 81.2 where three real runs got 82.2 to 83.0."""
        grad = np.array([1.0, -math.log(n)])
        sd = float(math.sqrt(max(grad @ self.cov @ grad, 0.0) + self.scatter / max(runs, 1)))
        z = self.quantile()
        gaps = (self.gap(n) * math.exp(-z * sd), self.gap(n) * math.exp(z * sd))
        values = [self.ceiling - g if self.higher_is_better else g for g in gaps]
        return min(values), max(values)


@dataclass
class LearningCurve:
    metric: str
    points: list[CurvePoint]
    fit: PowerLaw | None = None
    cancelled: bool = False
    rows: int = 0  # the labelled training rows the shares were cut from
    skipped: list[tuple[float, int]] = field(default_factory=list)  # (fraction, rows) left out: fewer than the classes
    classes: int = 0  # classes labelled (0: a kind without a label set)
    eval_rows: int = 0  # evaluation rows with a gold value, the scores' resolution (0: not recorded)
    baseline: float | None = None  # the best score of one label answered to every evaluation row (None: not known)

    def sizes(self) -> list[int]:
        return sorted({p.labels for p in self.points})

    def runs_at(self, n: int) -> int:
        """How many runs (seeds) ended at size ``n``: after a cancel the last size may hold fewer."""
        return sum(1 for p in self.points if p.labels == n)

    def summary(self) -> list[tuple[int, float, float, float, float]]:
        """(labels, mean, std, min, max) of the metric per size, smallest first."""
        out = []
        for n in self.sizes():
            v = np.array([p.value for p in self.points if p.labels == n])
            out.append((n, float(v.mean()), float(v.std()), float(v.min()), float(v.max())))
        return out

    def doubling(self) -> tuple[int, float, float, float, float] | None:
        """(largest size, its mean, the fit's prediction at twice that, range low, range high); None
        without a fit or after a cancel (the largest size reached is not the user's data)."""
        if self.fit is None or not self.points or self.cancelled:
            return None
        n, mean = self.summary()[-1][:2]
        low, high = self.fit.predict_range(2 * n, runs=self.runs_at(n))
        # the fit knows the ceiling, not the floor: a wide range ran past it ("95% range -28.0 to 80.1")
        from bertstudio.metrics import SIGNED_METRICS

        floor = -1.0 if self.metric in SIGNED_METRICS else 0.0
        return n, mean, max(self.fit.predict(2 * n), floor), max(low, floor), max(high, floor)

    def unclear(self) -> str:
        """Why the curve shows no trend to forecast from ("" when it does), as a fact the UI phrases:
        ``"baseline"``, the largest size's mean no better (beyond its seeds' standard error) than
        answering one label to every evaluation row (MRPC's all-paraphrase F1 81.2: a flat start is
        the model not learning yet, not the curve levelling off); ``"sizes"``, fewer than three sizes
        (two fix a line exactly, whatever the noise); ``"flat"``, b not above 0 at 95% (one-sided)."""
        rows = self.summary()
        if self.fit is None or not rows:
            return ""
        n, mean, sd = rows[-1][:3]
        if self.baseline is not None and self.fit.higher_is_better:
            resolution = 1.0 / self.eval_rows if self.eval_rows else 0.0
            if mean - self.baseline <= max(2 * sd / math.sqrt(self.runs_at(n)), resolution):
                return "baseline"
        if len(rows) < 3:
            return "sizes"
        if self.fit.b_low() <= 0:
            return "flat"
        return ""

    def refit(self) -> None:
        """Fit the power law to the points (none at fewer than two sizes), the gap floored at
        the evaluation set's resolution for a score (:func:`gap_floor`)."""
        from bertstudio.metrics import LOWER_IS_BETTER

        self.fit = None
        if len({p.labels for p in self.points}) >= 2:
            higher = self.metric not in LOWER_IS_BETTER
            self.fit = fit_power_law([p.labels for p in self.points], [p.value for p in self.points],
                                     higher_is_better=higher, ceiling=1.0 if higher else 0.0,
                                     floor=gap_floor(self.eval_rows if higher else 0))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": self.metric, "cancelled": self.cancelled, "rows": self.rows,
                               "eval_rows": self.eval_rows, "classes": self.classes, "baseline": self.baseline,
                               "skipped": [list(s) for s in self.skipped],
                               "points": [{"labels": p.labels, "seed": p.seed, "value": p.value, "metrics": p.metrics,
                                           "settings": p.settings}
                                          for p in self.points]}
        if self.fit is not None:
            out["fit"] = {"a": self.fit.a, "b": self.fit.b, "ceiling": self.fit.ceiling,
                          "higher_is_better": self.fit.higher_is_better, "floor": self.fit.floor}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LearningCurve":
        """A curve :meth:`to_dict` wrote, its fit made again from the points (the covariance the
        range needs is not saved). A curve saved before ``eval_rows`` was recorded reads as one
        of unknown resolution, its gap floored as it was then (1e-6)."""
        points = [CurvePoint(_stored_size(p["labels"]), int(p["seed"]), _stored_score(p["value"], p["labels"]),
                             dict(p.get("metrics", {})), str(data.get("metric", "")), dict(p.get("settings", {})))
                  for p in data.get("points", [])]
        curve = cls(str(data.get("metric", "")), points, cancelled=bool(data.get("cancelled", False)),
                    rows=int(data.get("rows", 0)), skipped=[(float(f), int(n)) for f, n in data.get("skipped", [])],
                    classes=int(data.get("classes", 0)), eval_rows=int(data.get("eval_rows", 0)),
                    baseline=None if data.get("baseline") is None else float(data["baseline"]))
        if "fit" in data:
            curve.refit()
        return curve


def _bad_size(n: Any) -> ConfigError:
    return ConfigError(f"a point at {n} labels: a size must be a whole number above 0", where="learning curve",
                       expected="the training rows each run used")


def _stored_size(n: Any) -> int:
    """A stored point's size: NaN, inf, 0 or -250 crashed int() or the fit's log (SVD did not converge)."""
    if isinstance(n, bool) or not isinstance(n, (int, float)) or not math.isfinite(n) or n <= 0 or n != int(n):
        raise _bad_size(n)
    return int(n)


def _stored_score(v: Any, n: Any) -> float:
    """A stored point's score: null stopped float() with a TypeError, and a string is no score either."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ConfigError(f"the score at {n} labels is {v!r}, not a number a curve can be fitted to",
                          where="learning curve", expected="a finite score at every point")
    return float(v)


def gap_floor(eval_rows: int) -> float:
    """The smallest gap to perfect a fit takes: half a row of ``eval_rows`` scored rows (a
    perfect 20/20 says the gap is below 1/20, not 0; 1e-6 let one lucky run hold log gap
    -13.8 against the others' -3, forecasting a 20-point drop from doubling the labels), or
    1e-6 when the rows are not known (a curve saved before they were recorded; errors such as
    mse, which are no count of rows)."""
    return 0.5 / eval_rows if eval_rows > 0 else 1e-6


def fit_power_law(sizes: Sequence[float], values: Sequence[float], *, higher_is_better: bool = True,
                  ceiling: float = 1.0, floor: float = 1e-6) -> PowerLaw:
    """Least squares of ``log gap = log a - b log n`` over every point (each seed counts), with
    ``scipy.optimize.curve_fit`` and ``b >= 0`` (more data never lowers the expected score: a
    negative b is a dip inside seed noise, read as a forecast drop); fitting in logs weighs
    relative errors alike at every size.
    ``floor``: the smallest gap taken (:func:`gap_floor`): a perfect score has no gap left in
    logs, and how far below the others it sits is the floor's choice, so it must be the data's."""
    from scipy.optimize import OptimizeWarning, curve_fit

    n = np.asarray(sizes, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64)
    if len(np.unique(n)) < 2:
        raise ConfigError("a power law needs points at two or more sizes", where="learning curve",
                          expected="runs on at least two shares of the data")
    bad = np.flatnonzero(~np.isfinite(n) | (n <= 0) | (n != np.round(n)))
    if len(bad):  # the log of 0 or -250 stopped the fit ("SVD did not converge")
        raise _bad_size(f"{n[bad[0]]:g}")
    bad = np.flatnonzero(~np.isfinite(v))
    if len(bad):  # NaN stopped scipy ("array must not contain infs or NaNs"); +inf became a gap at the floor
        raise ConfigError(f"the score at {n[bad[0]]:g} labels is {v[bad[0]]}, not a number a curve can be fitted to",
                          where="learning curve", expected="a finite score at every point")
    # past the best a metric has (an accuracy of 1.5; an error below 0) the gap is negative, clipped to the
    # floor: fitted as a perfect score, as +inf was
    bad = np.flatnonzero(v > ceiling if higher_is_better else v < ceiling)
    if len(bad):
        raise ConfigError(f"the score at {n[bad[0]]:g} labels is {v[bad[0]]}, "
                          f"{'above' if higher_is_better else 'below'} the metric's best ({ceiling})",
                          where="learning curve", expected="scores on the metric's own scale")
    gap = (ceiling - v) if higher_is_better else v
    gap = np.clip(gap, floor, None)
    x, y = np.log(n), np.log(gap)
    slope, intercept = np.polyfit(x, y, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OptimizeWarning)  # a perfect line: handled just below
        params, cov = curve_fit(lambda t, log_a, b: log_a - b * t, x, y, p0=(intercept, max(-slope, 0.0)),
                                bounds=([-np.inf, 0.0], [np.inf, np.inf]))
    if not np.all(np.isfinite(cov)):
        cov = np.zeros((2, 2))  # exactly on a line (two sizes, one seed; every score perfect): no spread
    dof = len(x) - 2
    residuals = y - (params[0] - params[1] * x)
    scatter = float(residuals @ residuals / dof) if dof > 0 else 0.0
    return PowerLaw(float(math.exp(params[0])), float(params[1]), higher_is_better, ceiling, np.asarray(cov), floor,
                    scatter, dof)


def nested_subsets(rows: int, sizes: Sequence[int], seed: int, classes: Sequence[Any] | None = None) -> list[np.ndarray]:
    """Row indices per size: the first ``size`` rows of one permutation (so each holds the last).
    With ``classes`` (each row's label), the permutation starts with one row of every class,
    so any share of at least that many rows has every class: a random 12.5% of 18 labels
    could hold one class only, which SetFit (no negative pairs) and any classifier refuse."""
    order = np.random.default_rng(seed).permutation(rows)
    if classes is not None:
        first: dict[Any, int] = {}
        for position, row in enumerate(order):
            first.setdefault(classes[int(row)], position)
        leaders = sorted(first.values())
        order = np.concatenate([order[leaders], np.delete(order, leaders)])
    return [np.sort(order[:size]) for size in sizes]


def curve_sizes(rows: int, fractions: Sequence[float] = FRACTIONS) -> list[int]:
    sizes = sorted({max(1, math.ceil(f * rows)) for f in fractions if 0 < f <= 1})
    if not sizes:
        raise ConfigError(f"no usable shares in {list(fractions)}", where="learning curve", expected="fractions in (0, 1]")
    return sizes


def share_sizes(rows: int, classes: int | None, fractions: Sequence[float] = FRACTIONS) -> tuple[list[int], list[tuple[float, int]]]:
    """(sizes, left out): :func:`curve_sizes` of ``rows`` without the shares smaller than
    ``classes`` (the classes labelled; None: a kind without a label set), which cannot hold
    one row per class (:func:`nested_subsets`), and those shares as (fraction, rows). A
    ConfigError when the labelled rows hold fewer than two classes: no share can train a classifier."""
    if classes is not None and classes < 2:
        raise ConfigError(f"the labelled training rows hold {classes} class", where="learning curve",
                          expected="labelled rows of at least 2 classes",
                          facts={"refusal": "one_class", "classes": classes})
    sizes = curve_sizes(rows, fractions)
    least = classes or 1
    skipped = sorted({(f, max(1, math.ceil(f * rows))) for f in fractions
                      if 0 < f <= 1 and max(1, math.ceil(f * rows)) < least})
    kept = [n for n in sizes if n >= least]
    if not kept:  # only when rows < classes, which counted classes never allow
        raise ConfigError(f"every share of {rows} rows is smaller than the {classes} classes", where="learning curve",
                          expected=f"at least {classes} labelled rows",
                          facts={"refusal": "shares_too_small", "rows": rows, "classes": classes})
    return kept, skipped


def labelled_classes(labelled: Any) -> int | None:
    """How many classes ``labelled``'s rows hold (None: a kind without one class per row)."""
    if not labelled.spec.gold.classes:
        return None
    return len({v for v in labelled.dataset[labelled.gold_column] if v is not None})


def learning_curve(config: TrainConfig, train_set: Any, eval_set: Any, *, fractions: Sequence[float] = FRACTIONS,
                   sizes: Sequence[int] | None = None, seeds: Sequence[int] = SEEDS, progress: Progress | None = None,
                   on_point: Callable[[CurvePoint], None] | None = None, cancel: threading.Event | None = None,
                   train_fn: Callable[..., Any] | None = None, automatic: Collection[str] | None = None) -> LearningCurve:
    """Train ``config`` on nested shares of ``train_set``'s labelled rows (or on ``sizes`` rows)
    for each seed, score on ``eval_set``, and fit the curve. Raises the run's error when a
    run fails; returns the points so far with ``cancelled`` set when cancelled. ``automatic``:
    ``config`` is the Automatic choice and these are the settings the user gave within it
    (small_data.adapt's ``given``): each share gets the choice for its own rows; None: ``config``
    as it is for every share."""
    from bertstudio.metrics import main_metric
    from bertstudio.train.engine import train as engine_train
    from bertstudio.train.sources import checked_once, pick_rows

    train_fn = train_fn or engine_train
    if eval_set is None or len(eval_set) == 0:
        raise ConfigError("a learning curve needs evaluation rows", where="learning curve", expected="a dev split")
    labelled, eval_set = checked_once(train_set.labelled(), eval_set)  # said once, not by each run
    total = len(labelled)
    n_classes = labelled_classes(labelled)
    skipped: list[tuple[float, int]] = []
    if sizes:
        sizes = sorted({int(s) for s in sizes})
    else:
        sizes, skipped = share_sizes(total, n_classes, fractions)
    if sizes[-1] > total:
        raise ConfigError(f"{sizes[-1]} training rows asked for, {total} labelled", where="learning curve",
                          expected=f"sizes up to {total}")
    cancel = cancel or threading.Event()
    plan = [(size, seed) for size in sizes for seed in seeds]  # small first: early points come fast
    weights = np.array([size for size, _ in plan], dtype=np.float64)
    done = 0.0
    classes = labelled.dataset[labelled.gold_column] if labelled.spec.gold.classes else None
    subsets = {seed: dict(zip(sizes, nested_subsets(total, sizes, seed, classes))) for seed in seeds}
    curve = LearningCurve(metric="", points=[], rows=total, skipped=skipped, classes=n_classes or 0,
                          eval_rows=len(eval_set.labelled_rows()))
    choose = _share_chooser(config, automatic)
    with training_job(LEARNING_CURVE):  # the turn is the curve's between its runs (train/training_lock.py)
        for i, (size, seed) in enumerate(plan):
            if cancel.is_set():
                curve.cancelled = True
                break
            share = pick_rows(labelled, subsets[seed][size])  # the project rows stay with their examples
            run_config = replace(choose(share), seed=seed, max_train_examples=None, output_dir=None, resume_from=None,
                                 labels=config.labels or list(labelled.labels) or None)
            settings = {k: getattr(run_config, k) for k in SHOWN} if automatic is not None else {}
            where = CurveProgress(i + 1, len(plan), size, seed)
            if progress:
                progress(done / weights.sum(), where)

            def on_event(event: Any, control: Any, weight: float = weights[i], where: CurveProgress = where) -> None:
                if progress and getattr(event, "kind", "") == "step":
                    share = event.step / max(event.total_steps, 1)
                    progress((done + weight * share) / weights.sum(), where)
                elif progress and getattr(event, "phase", "") == "waiting":  # train/training_lock.py
                    progress(done / weights.sum(), replace(where, waiting_for=event.detail))

            with training_job(LEARNING_CURVE):  # what a training waiting for this run is told
                result = train_fn(run_config, share, eval_set, callbacks=[on_event], cancel=cancel)
            if result.status == "cancelled":
                curve.cancelled = True
                break
            if result.status != "finished":
                raise result.error or TrainingError(result.message or "a run of the learning curve failed",
                                                    where=f"learning curve, {where}")
            if not curve.metric:
                from bertstudio.tasks import official_metrics  # a kind's name is no preset name

                curve.metric = main_metric(official_metrics(config.task, config.glue_task), result.metrics)
                curve.baseline = constant_baseline(config, eval_set, curve.metric)
            point = CurvePoint(size, seed, float(result.metrics[curve.metric]), dict(result.metrics), curve.metric, settings)
            curve.points.append(point)
            done += weights[i]
            if on_point:
                on_point(point)
    curve.refit()
    if progress and not curve.cancelled:
        progress(1.0, CurveProgress(len(plan), len(plan), sizes[-1], seeds[-1], done=True))
    return curve


def constant_baseline(config: TrainConfig, eval_set: Any, metric: str) -> float | None:
    """The best ``metric`` one label answered to every evaluation row scores (MRPC dev, all
    "paraphrase": F1 81.2), by the task's own metrics; None for a kind without a label set."""
    from bertstudio.tasks import get_task

    if not eval_set.spec.gold.classes or not eval_set.labels:
        return None
    task = get_task(config.task)
    scores = [task.metrics(eval_set, [{"label": label}] * len(eval_set), glue_task=config.glue_task).get(metric)
              for label in eval_set.labels]
    scores = [float(v) for v in scores if v is not None and math.isfinite(v)]
    return max(scores) if scores else None


def _share_chooser(config: TrainConfig, automatic: Collection[str] | None) -> Callable[[Any], TrainConfig]:
    """share -> its config: ``config`` itself, or with ``automatic`` (the settings the user gave)
    Automatic's choice for the share's rows (small_data.adapt_to_rows; the model is read once)."""
    if automatic is None:
        return lambda _share: config
    from bertstudio.train.small_data import adapt_to_rows, is_sentence_transformer, model_max_length, run_max_length

    given = frozenset(automatic)
    known = dict(sentence_transformer=is_sentence_transformer(config.model), model_limit=model_max_length(config.model),
                 run_limit=run_max_length(config.model))
    return lambda share: adapt_to_rows(config, share, given=given, **known)


def curve_sets(train_all: Any, dev_all: Any = None, *, seed: int = 0) -> tuple[Any, Any, str]:
    """(training rows, evaluation rows, a note) for a project: the labelled dev rows when there
    are any, else :data:`HOLD_OUT` of the labelled training rows held out with ``seed`` by a run's
    rule (sources.hold_out: per label, every class keeping a training row), so no evaluated row
    is ever trained on. The note and the refusals carry facts (rundir.Said, the error's facts)
    for the app to say them in its own language."""
    from bertstudio.train.sources import hold_out, project_rows

    # with the project rows they are, so what the core says of them names rows the user finds ("dev row 5",
    # not the position among the labelled rows)
    train = project_rows(train_all, train_all.labelled_rows()) if train_all is not None else None
    if train is None or len(train) == 0:
        raise ConfigError("the training split has no labelled rows", where="learning curve",
                          expected="labelled training examples", facts={"refusal": "no_labelled_rows"})
    dev = project_rows(dev_all, dev_all.labelled_rows()) if dev_all is not None and len(dev_all) else None
    if dev is not None and len(dev):
        return train, dev, ""
    if len(train) < 20:
        raise ConfigError(f"too few labelled rows to hold some out for evaluation ({len(train)})", where="learning curve",
                          expected="a dev split, or at least 20 labelled training rows",
                          facts={"refusal": "too_few_to_hold_out", "rows": len(train), "least": 20})
    kept, held = hold_out(train, HOLD_OUT, seed)
    from bertstudio.train.rundir import Said  # the note as data too: the app says it in its own words

    note = Said(f"no dev split: {len(held)} of {len(train)} labelled training rows held out for evaluation",
                "curve_held_out", held=len(held), rows=len(train))
    return kept, held, note
