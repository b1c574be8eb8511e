"""Pages that list runs read them through the session's one RunReader: within a small budget on
the GUI thread, the rest on a worker (a project of 2,000 runs held Open project 8.7 s and every
Runs refresh 3.4 s), shown as "reading…" until they are in; never a refresh loop, never a run of
a closed project."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import RunFinished, RunStarted, event_to_dict
from bertstudio.ui.run_reader import READING, RunReader
from bertstudio.ui.runs_page import RunsPage
from bertstudio.ui.scoreboard_page import ScoreboardPage


def _run(folder: Path, score: float, *, ended: bool = True) -> Path:
    TrainConfig(task="sentence", glue_task="SST-2", labels=["neg", "pos"], output_dir=str(folder)).save(folder / "config.toml")
    event = RunFinished(status="finished", step=2, metrics={"accuracy": score}) if ended else \
        RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", host=socket.gethostname())
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(event)) + "\n", encoding="utf-8")
    if ended:
        (folder / "metrics.json").write_text(json.dumps({"accuracy": score}), encoding="utf-8")
    return folder


@pytest.fixture
def small_budget(monkeypatch):
    """Two runs read on the GUI thread, the rest on the worker (as past 32 runs in the app)."""
    monkeypatch.setattr(RunReader, "SYNC_FIRST", 2)
    monkeypatch.setattr(RunReader, "SYNC_BUDGET_S", 0.0)


def test_runs_past_the_budget_are_read_on_the_worker_and_fill_in(qtbot, session_factory, small_budget):
    session = session_factory("sentence", ["neg", "pos"])
    for n in range(6):
        _run(session.project.new_run_dir(f"run-{n}"), 0.5 + n / 100)
    page, board = RunsPage(session), ScoreboardPage(session)
    qtbot.addWidget(page)
    qtbot.addWidget(board)
    statuses = [info.status for info in page.model.runs]
    assert statuses.count("finished") == 2 and statuses.count(READING) == 4  # listed at once, read later
    assert page.follow_label.text() == "Reading 4 run(s)…"
    assert page.model.index(statuses.index(READING), 1).data() == "reading…"
    qtbot.waitUntil(lambda: all(info.status == "finished" for info in page.model.runs), timeout=10_000)
    assert [info.name for info in page.model.runs] == [f"run-{n}" for n in range(6)]
    assert page.model.index(5, 8).data() == "accuracy 55.0"
    assert "Reading" not in page.follow_label.text()
    qtbot.waitUntil(lambda: "Reading" not in board.hint.text(), timeout=10_000)
    assert board.board.entries and board.table.item(0, 3) is not None
    best = [board.table.item(r, 3).text() for r in range(board.table.rowCount()) if board.table.item(r, 0).text() == "SST-2"]
    assert best == ["run-5"]  # the best run was among those read on the worker


def test_runs_whose_status_the_files_do_not_settle_are_not_read_again_and_again(qtbot, session_factory, small_budget):
    """A running or interrupted run is never remembered; read on the worker, it is handed to the
    refresh that follows once, so a list of them does not refresh itself for ever."""
    session = session_factory("sentence", ["neg", "pos"])
    for n in range(5):
        _run(session.project.new_run_dir(f"crashed-{n}"), 0.5, ended=False)
    reads: list[int] = []
    session.run_reader.read.connect(lambda: reads.append(1))
    page, board = RunsPage(session), ScoreboardPage(session)  # two lists asking for the same runs
    qtbot.addWidget(page)
    qtbot.addWidget(board)
    qtbot.waitUntil(lambda: all(info.status == "interrupted" for info in page.model.runs), timeout=10_000)
    qtbot.waitUntil(lambda: session.run_reader.reading() == 0 and not session.run_reader._worker.is_running(), timeout=10_000)
    settled = len(reads)
    for _ in range(3):
        qtbot.wait(50)  # let any further read come in: none does
    assert len(reads) == settled == 1


def test_a_project_closed_while_its_runs_are_read_lists_none_of_them(qtbot, session_factory, small_budget):
    session = session_factory("sentence", ["neg", "pos"])
    for n in range(8):
        _run(session.project.new_run_dir(f"run-{n}"), 0.5)
    page = RunsPage(session)
    qtbot.addWidget(page)
    assert any(info.status == READING for info in page.model.runs)
    session.close()
    assert page.model.runs == [] and session.run_reader.reading() == 0
    qtbot.wait(200)
    assert page.model.runs == []


def test_the_next_projects_runs_are_read_when_the_last_ones_read_was_cut_off(qtbot, session_factory, small_budget,
                                                                              monkeypatch):
    """Closing a project cancels its worker mid-read; the runs the next project queued meanwhile
    stayed 'reading…' until some other refresh came."""
    import threading

    from bertstudio.train import rundir

    real, gate = rundir.read_run, threading.Event()

    def read_run(folder):
        if Path(folder).name.startswith("a-") and Path(folder).name not in ("a-0", "a-1"):
            gate.wait(10)  # the worker is held mid-read of project a (a slow disk)
        return real(folder)

    monkeypatch.setattr(rundir, "read_run", read_run)
    a, b = session_factory("sentence", ["neg", "pos"]), session_factory("sentence", ["neg", "pos"])
    for n in range(5):
        _run(a.project.new_run_dir(f"a-{n}"), 0.5)
    for n in range(6):
        _run(b.project.new_run_dir(f"b-{n}"), 0.5)
    page = RunsPage(a)
    qtbot.addWidget(page)
    project_b = b.project
    b.close()
    a.set_project(project_b)  # while the worker reads project a's runs
    assert [info.status for info in page.model.runs].count(READING) == 4
    gate.set()
    qtbot.waitUntil(lambda: [info.status for info in page.model.runs] == ["finished"] * 6, timeout=10_000)


def test_the_pages_list_the_runs_folder_once_per_turn_and_see_a_new_run(qtbot, session_factory, monkeypatch):
    """Four pages listing 2,000 runs on one signal stat-ed each folder four times; a run added
    in the same turn is still listed (the runs folder's stats changed)."""
    from bertstudio.data import project_store

    session = session_factory("sentence", ["neg", "pos"])
    for n in range(3):
        _run(session.project.new_run_dir(f"run-{n}"), 0.5)
    calls = []
    real = project_store.list_runs
    monkeypatch.setattr(project_store, "list_runs", lambda runs: (calls.append(1), real(runs))[1])
    page, board = RunsPage(session), ScoreboardPage(session)
    qtbot.addWidget(page)
    qtbot.addWidget(board)
    assert len(calls) == 1 and len(page.model.runs) == 3
    _run(session.project.new_run_dir("run-new"), 0.6)  # same turn of the event loop
    session.notify_runs_changed()
    assert [info.name for info in page.model.runs][-1] == "run-new" and len(calls) == 2
    qtbot.wait(20)  # the next turn lists afresh
    page.refresh()
    assert len(calls) == 3


def _long_history(folder: Path, lines: int = 50) -> None:
    """Step lines after the run's own: a history past a small SYNC_HISTORY_BYTES."""
    step = json.dumps({"kind": "step", "step": 1, "total_steps": 2, "epoch": 0.5, "loss": 0.7, "lr": 1e-5})
    with open(folder / "history.jsonl", "a", encoding="utf-8") as f:
        f.write((step + "\n") * lines)


def test_a_run_with_a_long_history_is_read_on_the_worker_even_among_the_first(qtbot, session_factory, monkeypatch):
    """read_run reads a history whole: a 42 MB one (200,000 logged steps) held Open project 0.56 s
    though it was the first run of the list; it is read on the worker, and the Playground lists it
    meanwhile without calling it unfinished or choosing it, then by default once it is in."""
    from bertstudio.ui.playground import PlaygroundPage

    monkeypatch.setattr(RunReader, "SYNC_HISTORY_BYTES", 2000, raising=False)  # raising: fails on the assertion without it
    session = session_factory("sentence", ["neg", "pos"])
    old, new = (_run(session.project.new_run_dir(name), 0.6) for name in ("old", "new"))
    _long_history(new)
    for run in (old, new):
        (run / "model").mkdir()
        (run / "model" / "config.json").write_text("{}", encoding="utf-8")
    playground = PlaygroundPage(session)
    qtbot.addWidget(playground)
    combo = playground.run_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["new", "old (latest)"]
    assert combo.currentText() == "old (latest)"  # the newest run known to be finished, for now
    qtbot.waitUntil(lambda: combo.currentText() == "new (latest)", timeout=10_000)
    assert [combo.itemText(i) for i in range(combo.count())] == ["new (latest)", "old"]
    assert playground.model_dir() == str(new / "model")


def test_a_run_is_dated_from_its_first_line_without_reading_the_whole_history(tmp_path):
    """The Results page dates a run (run_started_at, for rows replaced since) from its RunStarted,
    the history's first line; the rest is not read (a 42 MB history was read whole for it, twice
    with read_run). A history past what a run file may hold is still dated from its head."""
    from bertstudio.train.rundir import MAX_RUN_FILE_BYTES, run_started_at

    run = tmp_path / "run"
    run.mkdir()
    started = RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", started_at=1_700_000_000.5)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
    with open(run / "history.jsonl", "w", encoding="utf-8") as f:
        f.write(json.dumps(event_to_dict(started)) + "\n")
        f.truncate(MAX_RUN_FILE_BYTES + 1)  # sparse: nothing past the head is written, or read
    assert run_started_at(run) == 1_700_000_000.5
    (run / "history.jsonl").write_text("", encoding="utf-8")  # no RunStarted: when config.toml was written
    assert run_started_at(run) == (run / "config.toml").stat().st_mtime
