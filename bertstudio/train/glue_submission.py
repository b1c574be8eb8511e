"""The files gluebenchmark.com scores: each GLUE task's test predictions from a ``bertstudio glue``
folder, in the server's layout (``index<TAB>prediction``, one row per test example), zipped.

Which file a task's predictions go in, the value of a label there and the index of a row are
facts of the GLUE data (:mod:`bertstudio.data.glue`); the predictions come from
:func:`bertstudio.train.engine.evaluate`, the batched inference ``bertstudio evaluate`` uses,
so a submitted prediction is exactly what evaluation would give for that row.
"""

from __future__ import annotations

import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from bertstudio.data.glue import (ALSO_PREDICTED, GLUE_TASKS, get_preset, load_glue, path_problem, submission_file,
                                  submission_index, submission_value)
from bertstudio.errors import ConfigError

GLUE_LAYOUT = "a folder holding one sub-folder per task (GLUE layout: RTE/test.tsv, MNLI/test_matched.tsv, ...)"


@dataclass
class SubmissionFile:
    name: str  # RTE.tsv, MNLI-m.tsv, ...
    task: str
    rows: int
    text: str


@dataclass
class Submission:
    files: list[SubmissionFile]
    missing: dict[str, str]  # task -> why it is not in the zip ("no finished run", "no test.tsv in ...")

    def zip_bytes(self) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for f in self.files:  # at the zip's top level, where the server looks for them
                z.writestr(f.name, f.text)
        return buf.getvalue()


def task_runs(runs_dir: str | os.PathLike[str]) -> dict[str, Path]:
    """The task runs of a ``bertstudio glue`` folder (task name -> run folder); a ConfigError
    naming the folder when it holds none."""
    from bertstudio.train.seeds import job_runs

    root = Path(runs_dir).expanduser()
    predicted_by_others = {n for also in ALSO_PREDICTED.values() for n in also}
    runs = {entry.name: entry for entry in job_runs(root)  # (a seeds job's seed-N, an SNLI run: not GLUE's)
            if entry.name in GLUE_TASKS and entry.name not in predicted_by_others}
    if not runs:
        problem = "does not exist" if not os.path.lexists(root) else "is not a folder written by bertstudio glue"
        raise ConfigError(problem, path=root, where="RUNS_DIR",
                          expected="the --out folder of bertstudio glue (one run folder per task: RTE/, MNLI/, ...)")
    return runs


def submission_file_text(task: Any, index: list[str], predictions: list[dict[str, Any]]) -> str:
    """One submission file: the header, then ``index<TAB>prediction`` per test row."""
    return "index\tprediction\n" + "".join(f"{i}\t{submission_value(task, p)}\n" for i, p in zip(index, predictions))


def _tasks_predicted(name: str) -> list[Any]:
    """The GLUE sets a task's model predicts: its own, then those of :data:`ALSO_PREDICTED`."""
    return [get_preset(name), *(get_preset(n) for n in ALSO_PREDICTED.get(name, ()))]


def _test_files(name: str, data: Path) -> list[Path]:
    return [data / (task.folder or task.name) / task.files["test"] for task in _tasks_predicted(name)]


def _why_absent(task: Any, data: Path) -> str | None:
    """Why a task's test file is not there to read; None where something is (a FIFO or a dangling
    link is the reader's to refuse, by name)."""
    test = data / (task.folder or task.name) / task.files["test"]
    return path_problem(task, data, "test") or (None if os.path.lexists(test) else f"no {test.name} in {test.parent}")


def predict_submission(runs_dir: str | os.PathLike[str], data_dir: str | os.PathLike[str], *,
                       on_task: Callable[[str, str, Path], None] | None = None, callbacks: Iterable[Callable] = (),
                       batch_size: int | None = None, precision: str = "auto",
                       allow_missing: bool = False) -> Submission:
    """Predict every GLUE test set a finished run of ``runs_dir`` can (its own, and those of
    :data:`ALSO_PREDICTED`); ``on_task(set, run task, test file)`` as each begins. A test
    file that cannot be read, or a model that does not fit it, raises (nothing half-submitted);
    so does a finished task's test file that is not there, before any prediction, unless
    ``allow_missing`` (then the task is in ``missing``)."""
    from bertstudio.train.engine import EVAL_BATCH_SIZE, evaluate
    from bertstudio.train.rundir import MODEL, history_damage, read_config, run_finished

    runs = task_runs(runs_dir)
    data = Path(data_dir).expanduser()
    if not data.is_dir():
        problem = "is not a folder" if os.path.lexists(data) else "does not exist"
        raise ConfigError(f"the GLUE data folder {problem}", path=data, where="--data-dir", expected=GLUE_LAYOUT)
    done: dict[str, SubmissionFile] = {}
    missing: dict[str, str] = {}
    absent = {test: why for name, folder in runs.items() if run_finished(folder)
              for task, test in zip(_tasks_predicted(name), _test_files(name, data))
              if (why := _why_absent(task, data)) is not None}
    if absent and not allow_missing:  # a trained task left out for lack of its test file: a partial submission
        raise ConfigError("; ".join(absent.values()), path=data, where="--data-dir",
                          expected="each finished task's test file in the GLUE layout, or --allow-missing to "
                                   "leave those tasks out of the zip")
    planned = []  # every test file read and checked before the first (long) prediction
    for name, folder in runs.items():
        if not run_finished(folder):
            damage = history_damage(folder)  # a finished run whose history was cut short is not "unfinished"
            missing[name] = (f"its run in {folder} has not finished" if damage is None else
                             f"its run's history is damaged ({damage})")
            continue
        saved = read_config(folder)
        if saved is not None and saved.glue_task and get_preset(saved.glue_task).name != name:
            raise ConfigError(f"the run in the {name} folder was trained for {saved.glue_task}", path=folder,
                              where="RUNS_DIR", expected="the folders bertstudio glue wrote, as it named them")
        for task, test in zip(_tasks_predicted(name), _test_files(name, data)):
            if test in absent:
                missing[task.name] = absent[test] + ", left out by --allow-missing"
                continue
            planned.append((task, name, folder, test, load_glue(task, test, split="test"), submission_index(task, test)))
    for task, name, folder, test, examples, index in planned:
        if on_task is not None:
            on_task(task.name, name, test)
        _metrics, rows = evaluate(folder / MODEL, examples, batch_size=batch_size or EVAL_BATCH_SIZE,
                                  callbacks=callbacks, precision=precision)
        done[task.name] = SubmissionFile(submission_file(task), task.name, len(rows),
                                         submission_file_text(task, index, rows))
    for name in GLUE_TASKS:
        if name not in done and name not in missing:
            owner = next((t for t, also in ALSO_PREDICTED.items() if name in also), name)
            missing[name] = "no run" if owner == name else f"{owner}'s model predicts it: {missing.get(owner, 'no run')}"
    return Submission([done[n] for n in GLUE_TASKS if n in done], {n: missing[n] for n in GLUE_TASKS if n in missing})
