"""Compare two finished runs: their curves, their settings and their predictions row by row.

This module reads two run folders (``config.toml``, ``history.jsonl``,
``predictions.jsonl`` and, for older runs the app started, ``eval_rows.json``) through the
run folder's owner, :mod:`bertstudio.train.rundir`, so a damaged file is one error naming the
file of the run and the place in it (settings checked as TrainConfig checks them), pairs their
predictions by evaluated example, and asks the kind's Task whether each prediction
is right (``Task.is_error``, the one rule the Results and Data pages use too). The
statistics (counts, McNemar's exact test, the paired bootstrap) are
:mod:`bertstudio.metrics.compare`'s; this is the layer that knows tasks.

Pairing. Runs the app started record which project rows they evaluated
(each prediction's ``split`` and ``row``; older runs: ``eval_rows.json``), so two runs pair by project row even when
their held-out sets differ. Otherwise (CLI runs, runs from a server) predictions pair by the
fingerprint of the example's inputs each row carries (``rundir.FINGERPRINT``), whichever file,
order or filter each run evaluated; two rows of one project row whose fingerprints differ were
edited between the runs and are left out (``edited``). A row the two runs scored against
different gold values is left out and counted (``relabelled``), so a fixed row is never just a
changed gold. Files written before rows carried a fingerprint pair by their position in the
evaluation set, and only when nothing says the rows differ: the two runs' evaluation data
settings are the same (``sources.eval_data_settings``) and their golds agree by position far
more often than unrelated rows' would; a row whose gold differs there is left out
(``gold_differs``), not called relabelled, since nothing says it is the same example.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bertstudio.data.project_labels import names_now, pred_now, value_now
from bertstudio.data.project_meta import replaced_at
from bertstudio.errors import BertStudioError, DataError
from bertstudio.metrics import compare as C
from bertstudio.train import rundir
from bertstudio.tasks.limits import qa_window_layout
from bertstudio.train.config import TrainConfig, cuts_windows, unused_settings
from bertstudio.train.events import Event, Evaluated, RunStarted, StepLogged

log = logging.getLogger(__name__)
_NOT_SETTINGS = ("output_dir", "resume_from")
_ONLY = ": no examples to compare, only the curves and the settings"


# --- reading a run folder ---------------------------------------------------------------


@dataclass
class RunRecord:
    """What a comparison needs from one run folder."""

    folder: Path
    config: dict[str, Any]
    metrics: dict[str, float]
    history: list[Event]  # history.jsonl as rundir reads it
    predictions: list[dict[str, Any]]
    eval_rows: tuple[str, list[int]] | None = None

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def kind(self) -> str:
        return str(self.config.get("task") or "sentence")

    def lineages(self) -> dict[str, str]:
        """Per project split the run evaluated, the lineage of its rows then (Project._store_split);
        empty for a run from before runs recorded it."""
        return {p["split"]: p["lineage"] for p in self.predictions
                if isinstance(p.get("split"), str) and isinstance(p.get("lineage"), str)}

    def keys(self) -> list[tuple[str, int]]:
        """One pairing key per prediction: (split, project row), else ("#", position)."""
        if self.predictions and all(isinstance(p.get("split"), str) and isinstance(p.get("row"), int)
                                    for p in self.predictions):  # runs that record each prediction's row
            return [(p["split"], p["row"]) for p in self.predictions]
        if self.eval_rows is not None and len(self.eval_rows[1]) == len(self.predictions):
            split, rows = self.eval_rows
            return [(split, int(rows[int(p.get("index", i))])) for i, p in enumerate(self.predictions)]
        return [("#", int(p.get("index", i))) for i, p in enumerate(self.predictions)]


def read_run_record(folder: str | Path) -> RunRecord:
    """A run folder's settings, metrics, history and predictions, read by the run folder's owner
    (:mod:`bertstudio.train.rundir`): a damaged config.toml, metrics.json, predictions.jsonl or
    eval_rows.json is a ConfigError/DataError naming the file and place (a comparison must not
    guess); a damaged history line is skipped there, as for every reader of the history."""
    folder = Path(folder)
    if not folder.is_dir():  # every file below would read as absent: "never evaluated"
        raise DataError("no run folder here", path=folder, expected="a run folder")
    config = rundir.read_config(folder)
    settings = {k: v for k, v in config.to_dict().items() if k not in _NOT_SETTINGS} if config is not None else {}
    metrics = rundir.read_json(folder / rundir.METRICS) or {}
    eval_rows = rundir.read_eval_rows(folder)
    lines = rundir.read_prediction_rows(folder)
    if eval_rows is not None and len(eval_rows[1]) == len(lines):  # keys() maps each index through these rows
        for n, row in lines:
            if row.get("index", 0) >= len(eval_rows[1]):
                raise DataError(f"index {row['index']} is past the {len(eval_rows[1])} rows of {rundir.EVAL_ROWS}",
                                path=folder / rundir.PREDICTIONS, where=f"line {n}",
                                expected=f"an index below {len(eval_rows[1])}")
    return RunRecord(folder, settings, rundir.metric_numbers(metrics),
                     rundir.read_history(folder), [row for _n, row in lines], eval_rows)


# --- curves and settings --------------------------------------------------------------------


@dataclass
class Curves:
    """One run's logged points: loss against step and examples seen, and each evaluation."""

    steps: list[int] = field(default_factory=list)
    examples: list[int] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    eval_steps: list[int] = field(default_factory=list)
    eval_metrics: dict[str, list[float]] = field(default_factory=dict)  # key -> value per evaluation


def resume_cut(first: StepLogged | Evaluated) -> tuple[int, int]:
    """Which earlier points a resumed run repeats, from its first step or evaluation: (the step
    from which logged steps are repeated, the step from which evaluations are). The run goes on
    from its checkpoint, so a first step ``s`` repeats every step and evaluation at ``s`` and
    after (after a SIGKILL, those logged since the checkpoint); a first evaluation at ``e`` (one
    the stop left pending) repeats the evaluations from ``e``, not the step ``e`` it scores.
    The one rule for Compare's curves and the Runs page's (TrainingMonitor.on_resumed): a
    resume used to reset the Runs page's plots to its own part and to be drawn twice here."""
    if isinstance(first, Evaluated):
        return int(first.step) + 1, int(first.step)
    return int(first.step), int(first.step)


def curves(record: RunRecord) -> Curves:
    """The run's points; a resumed run's (a later RunStarted in its history) joined at its
    checkpoint (:func:`resume_cut`), each step drawn once."""
    steps: list[tuple[int, int, float]] = []  # step, examples seen, loss
    evals: list[tuple[int, dict[str, Any]]] = []
    batch, started, pending = 0, False, False
    for ev in record.history:
        if isinstance(ev, RunStarted):
            batch = int(ev.effective_batch_size or 0)
            pending, started = started, True  # a later start is a resume of this run folder's run
            continue
        if pending and isinstance(ev, (StepLogged, Evaluated)):
            step_cut, eval_cut = resume_cut(ev)
            steps = [p for p in steps if p[0] < step_cut]
            evals = [e for e in evals if e[0] < eval_cut]
            pending = isinstance(ev, Evaluated)  # its first step may still cut the steps after the evaluation
        if isinstance(ev, StepLogged) and isinstance(ev.loss, (int, float)):
            steps.append((int(ev.step), int(ev.step) * batch, float(ev.loss)))  # optimizer steps x effective batch
        elif isinstance(ev, Evaluated):
            evals.append((int(ev.step), ev.metrics or {}))
    out = Curves([s for s, _e, _l in steps], [e for _s, e, _l in steps], [loss for _s, _e, loss in steps])
    for step, metrics in evals:
        out.eval_steps.append(step)
        for key, v in metrics.items():
            if isinstance(v, (int, float)):
                out.eval_metrics.setdefault(key, []).append(float(v))
    return out


def settings_diff(a: RunRecord, b: RunRecord) -> list[tuple[str, Any, Any]]:
    """(setting, A's value, B's value) for every setting that differs; an unset setting reads as
    its TrainConfig default, one that neither run reads (a LoRA rank beside two full fine-tunes)
    is left out, and the training-set size (from the run's start) is one more row."""
    sa, sb = _settings(a), _settings(b)
    unused = unused_settings(sa.get("mode"), sa.get("task")) & unused_settings(sb.get("mode"), sb.get("task"))
    out = [(k, sa.get(k), sb.get(k)) for k in sorted(set(sa) | set(sb))
           if k not in _NOT_SETTINGS and k not in unused and sa.get(k) != sb.get(k)]
    na, nb = _trained_on(a), _trained_on(b)
    if na != nb:
        out.append(("training examples", na, nb))
    return out


def _settings(record: RunRecord) -> dict[str, Any]:
    """The run's settings, an unset one as its TrainConfig default; a QA run's overlap as its windows
    used it (config.fit_doc_stride): runs recorded before that recorded the one asked for (128 where
    31 was used), and Compare listed "doc_stride 128 -> 31" between two runs that cut the same windows."""
    defaults = {k: v for k, v in TrainConfig().to_dict().items() if k not in _NOT_SETTINGS}
    settings = {**defaults, **record.config}
    try:
        if cuts_windows(str(settings.get("task"))):
            settings["doc_stride"] = qa_window_layout(int(settings["max_length"]), settings.get("doc_stride"))[2]
    except (BertStudioError, KeyError, TypeError, ValueError):  # a hand-edited record: compared as it reads
        pass
    return settings


def _trained_on(record: RunRecord) -> int | None:
    for ev in record.history:
        if isinstance(ev, RunStarted):
            return int(ev.num_train_examples or 0)
    return None


# --- the row-by-row comparison -------------------------------------------------------------------


@dataclass
class SharedRow:
    key: tuple[str, int]  # B's (split, project row) or ("#", position in B's evaluation set)
    gold: Any
    pred_a: dict[str, Any]
    pred_b: dict[str, Any]


@dataclass
class Pairing:
    """Which rows of two runs are one example (see the module docstring), and what was left out."""

    paired_by: str  # "project row" | "inputs" | "position"
    rows: list[SharedRow] = field(default_factory=list)  # in B's order
    relabelled: int = 0  # the same example, scored against another gold
    edited: int = 0  # the same project row, other inputs: edited between the runs
    gold_differs: int = 0  # paired by position only, another gold: not known to be one example
    refused: str = ""  # why no row is paired at all, when the rows are known to be others (a rundir.Said)


@dataclass
class RunComparison:
    a: RunRecord
    b: RunRecord
    rows: list[SharedRow]  # the shared rows, in B's order
    outcomes: C.PairedOutcomes  # positions into ``rows``
    change: C.MetricChange | None  # None when the main metric has no per-row form
    paired_by: str  # "project row" | "inputs" | "position"
    relabelled: int  # rows both runs scored, left out because their gold differs
    settings: list[tuple[str, Any, Any]]
    curves_a: Curves
    curves_b: Curves
    note: str = ""
    edited: int = 0  # project rows whose inputs were edited between the runs, left out
    gold_differs: int = 0  # rows paired by position whose gold differs, left out
    tolerance: float | None = None  # scores: how far off a prediction is wrong (a tenth of the golds' scale)

    def summary(self) -> dict[str, Any]:
        return {"shared_rows": len(self.rows), "paired_by": self.paired_by, "relabelled": self.relabelled,
                "edited": self.edited, "gold_differs": self.gold_differs,
                **({} if self.tolerance is None else {"score_tolerance": self.tolerance}),
                **C.summary(self.outcomes, self.change)}


def compare_runs(folder_a: str | Path, folder_b: str | Path, *, resamples: int = C.RESAMPLES, seed: int = 0) -> RunComparison:
    """A against B (B is "the new run": fixed means wrong in A and right in B)."""
    return compare_records(read_run_record(folder_a), read_run_record(folder_b), resamples=resamples, seed=seed)


def compare_records(a: RunRecord, b: RunRecord, *, resamples: int = C.RESAMPLES, seed: int = 0) -> RunComparison:
    from bertstudio.tasks import get_task
    from bertstudio.tasks.base import error_rule

    if a.kind != b.kind:
        raise DataError(f"run {a.name} is a {a.kind} run but {b.name} is a {b.kind} run", path=b.folder,
                        where="run comparison", expected="two runs of the same task kind")
    # the notes are rundir.Said: the English, and its kind and facts for the app to say ("A"/"B": which run)
    silent = [_why_no_predictions(record, side) for side, record in (("A", a), ("B", b)) if not record.predictions]
    if silent:  # a cancelled run: its curves and settings still compare, its examples cannot
        return _curves_only(a, b, rundir.Said(f"{'; '.join(silent)}{_ONLY}", "no_predictions", runs=silent))
    lines_a, lines_b = _lineages(a, b), _lineages(b, a)
    replaced = sorted(s for s, line in lines_a.items() if lines_b.get(s, line) != line)
    projects = rundir.label_ids_project(a.folder), rundir.label_ids_project(b.folder)
    if replaced and None not in projects and projects[0] != projects[1]:  # not replaced rows: another project's
        return _curves_only(a, b, rundir.Said(f"{b.name} is a run of another project than {a.name} (their label ids "
                                              f"say so){_ONLY}", "other_project"))
    if replaced:  # the same row numbers, other examples: pairing them would compare unrelated rows
        return _curves_only(a, b, rundir.Said(f"the {' and '.join(replaced)} rows were replaced between the two runs"
                                              f"{_ONLY}", "replaced", splits=replaced))
    a = in_names_of(a, b)
    task = get_task(b.kind)
    pairing = pair_rows(a, b)
    rows = pairing.rows
    if not rows:
        return _curves_only(a, b, pairing.refused or rundir.Said("the two runs share no evaluated rows (evaluated on "
                                                                 "different data): only the curves and the settings "
                                                                 "compare", "no_shared_rows"), pairing)
    # one rule for both runs, from the shared golds' scale: a fixed ±0.5 counted every score wrong on
    # 0-100 and none on 0-1
    is_error = error_rule(task, [r.gold for r in rows], b.config.get("glue_task") or a.config.get("glue_task"))
    right_a, right_b = _right(is_error, a, rows, "a"), _right(is_error, b, rows, "b")
    outcomes = C.paired_outcomes(right_a, right_b)
    change, note = None, ""
    key = main_metric_key(b)
    if key is not None:
        metric_a, metric_b = _checked_metric(task, key, rows, a, "a"), _checked_metric(task, key, rows, b, "b")
        if metric_a is not None and metric_b is not None:
            change = C.paired_bootstrap(key, metric_a, metric_b, resamples=resamples, seed=seed)
        else:
            note = rundir.Said(f"no interval: {key} has no per-row form for {b.kind} runs", "no_interval", metric=key)
    return RunComparison(a, b, rows, outcomes, change, pairing.paired_by, pairing.relabelled, settings_diff(a, b),
                         curves(a), curves(b), note, pairing.edited, pairing.gold_differs,
                         getattr(is_error, "tolerance", None))


def _lineages(record: RunRecord, other: RunRecord) -> dict[str, str]:
    """``record.lineages()``, and for a split whose predictions recorded none (a run from before
    lineages), which rows it evaluated as told by the project's split now and the run's start
    (rundir.rows_then): once the split was re-imported after that run, its rows are other examples
    under the same numbers. Only for two runs of one project's runs/ folder (the split's entry is
    that project's); otherwise such a run has no lineage, as before."""
    lines = record.lineages()
    missing = {p["split"] for p in record.predictions if isinstance(p.get("split"), str)} - set(lines)
    if record.eval_rows is not None and not lines:
        missing.add(record.eval_rows[0])
    if not missing:
        return lines
    try:
        if record.folder.resolve().parent != other.folder.resolve().parent:
            return lines
    except OSError:
        return lines
    meta = rundir.project_meta_of(record.folder)
    if meta is None:
        return lines
    started = rundir.run_started_at(record.folder)
    for split in sorted(missing):
        then = rundir.rows_then(started, meta["splits"].get(split), replaced_at(meta, split))
        if then is not None:
            lines[split] = then
    return lines


def in_names_of(a: RunRecord, b: RunRecord) -> RunRecord:
    """A with its predictions' class names (gold, label, tags, probabilities) read as B names the
    same classes, when both runs of one project recorded their labels' ids (the project keeps a
    label's id through renames: rundir.record_label_ids). Otherwise A as it is: names compare as
    they are. A run made before ``pos`` was renamed ``positive`` had every ``pos`` row left out
    as "relabelled", and after a swap each run's right answers read as the other's errors."""
    labels_a, labels_b = list(a.config.get("labels") or []), list(b.config.get("labels") or [])
    if not labels_a or not labels_b or a.kind != b.kind:
        return a
    # ids are one project's: both runs recorded that project's (a run from before ids, in its runs/,
    # reads them from the names its labels first got ids from: rundir.read_label_ids)
    project = rundir.label_ids_project(a.folder) or rundir.label_ids_project(b.folder)
    ids_a, ids_b = rundir.read_label_ids(a.folder, labels_a, project), rundir.read_label_ids(b.folder, labels_b, project)
    if ids_a is None or ids_b is None or (labels_a, ids_a) == (labels_b, ids_b):
        return a
    try:  # ids are one project's: runs of two projects (two runs/ folders) compare by name
        if a.folder.resolve().parent != b.folder.resolve().parent:
            return a
    except OSError:
        return a
    names = names_now(labels_a, ids_a, labels_b, ids_b)
    predictions = [dict(pred_now(p, names, labels_b), **({"gold": value_now(p["gold"], names, labels_b)}
                                                       if "gold" in p else {})) for p in a.predictions]
    return replace(a, predictions=predictions)


_NOT_SAVED_YET = {"running": "still training", "interrupted": "interrupted before it saved them",
                  "failed": "failed before it saved them", "cancelled": "cancelled before it saved them"}


def _why_no_predictions(record: RunRecord, side: str) -> rundir.Said:
    """Why a run has no prediction to pair: a run whose metrics.json holds scores did evaluate; one
    whose history holds evaluations did too, and has not saved them (yet), as its status says (it
    was called "never evaluated" beside the dialog's own plot of its evaluations). Its facts:
    ``side`` (A or B) and ``status`` where that is the reason."""
    def said(text: str, kind: str, **facts: Any) -> rundir.Said:
        return rundir.Said(text, kind, side=side, **facts)

    if not record.metrics:
        evaluated = any(isinstance(ev, Evaluated) for ev in record.history)
        status = rundir.read_run(record.folder).status
        if evaluated:
            why = _NOT_SAVED_YET.get(status)
            return (said(f"{record.name} has no predictions yet ({why})", "not_saved_yet", status=status) if why else
                    said(f"{record.name} evaluated but saved no {rundir.PREDICTIONS}", "not_saved"))
        if status == "running":
            return said(f"{record.name} has not evaluated yet (still training)", "not_evaluated_yet")
        return said(f"{record.name} never evaluated", "never_evaluated")
    if (record.folder / rundir.PREDICTIONS).exists():
        return said(f"{record.name}'s {rundir.PREDICTIONS} holds no prediction", "empty_predictions")
    return said(f"{record.name} has no {rundir.PREDICTIONS} (its {rundir.METRICS} holds scores)", "no_predictions_file")


def _curves_only(a: RunRecord, b: RunRecord, note: str, pairing: Pairing | None = None) -> RunComparison:
    """A comparison without examples (``rows`` empty, ``note`` says why)."""
    pairing = pairing or Pairing("position")
    return RunComparison(a, b, [], C.paired_outcomes([], []), None, pairing.paired_by, pairing.relabelled,
                         settings_diff(a, b), curves(a), curves(b), note, pairing.edited, pairing.gold_differs)


# --- which rows are one example ----------------------------------------------------------------


def pair_rows(a: RunRecord, b: RunRecord) -> Pairing:
    """The rows of A and B that are one example, by project row, else by the fingerprint of
    its inputs, else (files from before fingerprints) by position when nothing says otherwise."""
    if not a.predictions or not b.predictions:  # nothing to pair (compare_records says why)
        return Pairing("position")
    keys_a, keys_b = a.keys(), b.keys()
    if keys_a[0][0] != "#" and keys_b[0][0] != "#":
        return _by_project_row(a, b, keys_a, keys_b)
    if all(isinstance(p.get(rundir.FINGERPRINT), str) for p in (*a.predictions, *b.predictions)):
        return _by_inputs(a, b, keys_b)
    return _by_position(a, b)


def _by_project_row(a: RunRecord, b: RunRecord, keys_a: list[tuple[str, int]],
                    keys_b: list[tuple[str, int]]) -> Pairing:
    out, by_key = Pairing("project row"), dict(zip(keys_a, a.predictions))
    for key, pb in zip(keys_b, b.predictions):
        pa = by_key.get(key)
        if pa is None or pb.get("gold") is None:
            continue
        print_a, print_b = pa.get(rundir.FINGERPRINT), pb.get(rundir.FINGERPRINT)
        if isinstance(print_a, str) and isinstance(print_b, str) and print_a != print_b:
            out.edited += 1  # the row's text changed: another example under the same number
        elif pa.get("gold") != pb.get("gold"):
            out.relabelled += 1
        else:
            out.rows.append(SharedRow(key, pb["gold"], pa, pb))
    return out


def _by_inputs(a: RunRecord, b: RunRecord, keys_b: list[tuple[str, int]]) -> Pairing:
    """Pairs by fingerprint. A file may hold one text twice: each of B's rows takes an unpaired
    row of A with its fingerprint, one with its gold first (so a duplicate is not miscounted as
    relabelled)."""
    out, waiting = Pairing("inputs"), {}
    for pa in a.predictions:
        waiting.setdefault(pa[rundir.FINGERPRINT], []).append(pa)
    for key, pb in zip(keys_b, b.predictions):
        same = waiting.get(pb[rundir.FINGERPRINT])
        if not same or pb.get("gold") is None:
            continue
        pa = same.pop(next((i for i, p in enumerate(same) if p.get("gold") == pb["gold"]), 0))
        if pa.get("gold") != pb["gold"]:
            out.relabelled += 1
        else:
            out.rows.append(SharedRow(key, pb["gold"], pa, pb))
    return out


def _by_position(a: RunRecord, b: RunRecord) -> Pairing:
    """Files from before fingerprints: row i of A and row i of B are one example only when both
    runs evaluated the same data. Refused when their evaluation settings differ, or when their
    golds agree by position no more often than halfway from what unrelated rows give (chance,
    from each run's gold counts) to what the same rows give (all): a reordered or filtered file
    under the same name."""
    from bertstudio.train.sources import eval_data_settings

    out = Pairing("position")
    data_a, data_b = eval_data_settings(_settings(a)), eval_data_settings(_settings(b))
    differ = [f"{k} {_shown(data_a.get(k))} → {_shown(data_b.get(k))}" for k in sorted(set(data_a) | set(data_b))
              if data_a.get(k) != data_b.get(k)]
    if differ:
        out.refused = rundir.Said(f"the runs were evaluated on different data ({'; '.join(differ)}) and their "
                                  f"predictions predate example fingerprints{_ONLY}", "different_data", settings=differ)
        return out
    by_index = {int(p.get("index", i)): p for i, p in enumerate(a.predictions)}
    pairs = []
    for i, pb in enumerate(b.predictions):
        pa = by_index.get(int(pb.get("index", i)))
        if pa is not None and pb.get("gold") is not None:
            pairs.append((("#", int(pb.get("index", i))), pa, pb))
    agree = sum(pa.get("gold") == pb["gold"] for _k, pa, pb in pairs)
    if pairs and agree < len(pairs) * (1 + _chance_agreement([pa.get("gold") for _k, pa, pb in pairs],
                                                             [pb["gold"] for _k, pa, pb in pairs])) / 2:
        out.refused = rundir.Said(f"only {agree} of {len(pairs)} rows paired by position have the same gold, near "
                                  f"what unrelated rows give: the runs were evaluated on different or reordered data, "
                                  f"and their predictions predate example fingerprints{_ONLY}", "position_mismatch",
                                  agree=agree, pairs=len(pairs))
        return out
    for key, pa, pb in pairs:
        if pa.get("gold") != pb["gold"]:
            out.gold_differs += 1
        else:
            out.rows.append(SharedRow(key, pb["gold"], pa, pb))
    return out


def _chance_agreement(golds_a: list[Any], golds_b: list[Any]) -> float:
    """How often the golds of unrelated rows agree: the sum over values of their shares in A and in B."""
    from collections import Counter

    def shares(golds: list[Any]) -> Counter:
        return Counter(json.dumps(g, sort_keys=True, default=str) for g in golds)  # tags and answers are lists, dicts

    count_a, count_b, n = shares(golds_a), shares(golds_b), len(golds_a)
    return sum(count_a[v] * count_b[v] for v in count_a) / (n * n)


def _shown(value: Any) -> str:
    return "unset" if value is None else str(value)


# A prediction field of the wrong type (a label that is a list, a score "x", probs that are no
# table) surfaces as one of these from the Task's rule or the metric; they come from the file.
_MISFIT = (TypeError, ValueError, AttributeError, KeyError)


def _right(is_error: Any, record: RunRecord, rows: list[SharedRow], side: str) -> list[bool]:
    out = []
    for r in rows:
        try:
            out.append(not is_error(r.pred_a if side == "a" else r.pred_b, r.gold))
        except _MISFIT as exc:
            raise _misfit(record, r.key, exc) from None
    return out


def _checked_metric(task: Any, key: str, rows: list[SharedRow], record: RunRecord, side: str) -> C.Metric | None:
    try:
        return _metric(task, key, rows, side)
    except _MISFIT as exc:
        raise _misfit(record, None, exc) from None


def _misfit(record: RunRecord, key: tuple[str, int] | None, exc: Exception) -> DataError:
    log.info("a prediction of %s does not fit its kind", record.folder, exc_info=exc)
    where = None if key is None else f"the prediction for eval row {key[1]}" if key[0] == "#" else \
        f"the prediction for {key[0]} row {key[1]}"
    return DataError(f"a prediction does not fit a {record.kind} run ({exc})", path=record.folder / rundir.PREDICTIONS,
                     where=where, expected=f"the fields a {record.kind} run writes")


def main_metric_key(record: RunRecord) -> str | None:
    from bertstudio.metrics import main_metric
    from bertstudio.tasks import official_metrics

    try:  # a kind's name is no preset name: its metrics come from its Task
        return main_metric(official_metrics(record.kind, record.config.get("glue_task")), record.metrics or None)
    except Exception:  # noqa: BLE001 - an unknown preset or no metric: counts only
        return None


def _metric(task: Any, key: str, rows: list[SharedRow], side: str) -> C.Metric | None:
    """The main metric of one run on the shared rows as a function of row weights."""
    from bertstudio.train import families as F

    kind_family = F.family(task.spec)
    preds = [r.pred_a if side == "a" else r.pred_b for r in rows]
    golds = [r.gold for r in rows]
    try:
        if kind_family == F.CLASSES:
            probs = rows[0].pred_b.get("probs")
            order = list(probs) if isinstance(probs, dict) else []  # the model's label order (ids)
            index = {name: i for i, name in enumerate(order)}
            for value in golds + [p.get("label") for p in preds]:
                index.setdefault(value, len(index))
            return C.confusion_metric(key, [index[g] for g in golds], [index[p.get("label")] for p in preds], len(index))
        if kind_family == F.SCORE:
            return C.regression_metric(key, [float(g) for g in golds], [float(p.get("score", 0.0)) for p in preds])
        if kind_family == F.TAGS:
            return C.tagging_metric(key, golds, [p.get("tags") or [] for p in preds])
        if kind_family == F.SPAN:
            return C.squad_metric(key, [p.get("answer") or "" for p in preds], [list(g.get("text") or []) for g in golds])
    except DataError:
        return None
    return None
