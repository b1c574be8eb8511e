"""A list of runs is read from memory while the runs' files are unchanged (2,000 run folders
took the Runs page 3.4 s per refresh), and never shows a stale status: a changed file is read
again, and a run whose status hangs on the writer lock (running, interrupted) is read every time."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from bertstudio.data.project_lock import lock_folder, unlock_folder
from bertstudio.data.project_store import list_runs
from bertstudio.train.config import TrainConfig
from bertstudio.train.events import RunFinished, RunStarted, event_to_dict
from bertstudio.train.rundir import RunInfoCache, read_run


def _finished(folder: Path, accuracy: float = 0.75) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(folder)).save(folder / "config.toml")
    ended = RunFinished(status="finished", step=2, metrics={"accuracy": accuracy})
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(ended)) + "\n", encoding="utf-8")
    (folder / "metrics.json").write_text(json.dumps({"accuracy": accuracy}), encoding="utf-8")
    return folder


def test_an_unchanged_run_is_read_once_and_a_changed_file_is_read_again(tmp_path):
    run = _finished(tmp_path / "a")
    cache = RunInfoCache()
    first = cache.read(run)
    assert first.metrics == {"accuracy": 0.75} and cache.get(run) is first and cache.read(run) is first
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.5}), encoding="utf-8")
    assert cache.get(run) is None
    assert cache.read(run).metrics == {"accuracy": 0.5}
    (run / "config.toml").write_text("task = 1\n", encoding="utf-8")  # damaged since
    assert cache.read(run).status == "damaged"
    os.remove(run / "config.toml")
    assert cache.read(run).config is None


def test_a_running_run_is_read_every_time_and_ends_as_its_files_say(tmp_path):
    run = tmp_path / "live"
    run.mkdir()
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
    started = RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", host=socket.gethostname())
    (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")
    cache = RunInfoCache()
    held = lock_folder(run)  # the training's process, alive
    try:
        assert cache.read(run).status == "running"
        assert cache.get(run).status == "running"  # for the moment: lists refreshed together share the read
    finally:
        unlock_folder(held)  # it died: nothing in the folder changed, the status did
    cache.forget_moment()  # a new refresh
    assert cache.get(run) is None
    assert cache.read(run).status == "interrupted" == read_run(run).status


def test_runs_are_listed_oldest_first_and_files_beside_them_are_not_runs(tmp_path):
    runs = tmp_path / "runs"
    for n, name in enumerate(["b", "a", "c"]):
        _finished(runs / name)
        os.utime(runs / name, (1_000_000 + n, 1_000_000 + n))
    (runs / "notes.txt").write_text("mine", encoding="utf-8")
    os.symlink(tmp_path / "gone", runs / "dangling")
    assert [p.name for p in list_runs(runs)] == ["b", "a", "c"]
    assert list_runs(tmp_path / "missing") == []
