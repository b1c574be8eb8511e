"""Following a run folder live: new history lines reach the plots; the runs table lists runs."""

from __future__ import annotations

import json
import shutil
import socket

import pytest
from PySide6.QtCore import QSettings, Qt

from bertstudio.data.project import Project
from bertstudio.data.project_lock import lock_folder, unlock_folder
from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Evaluated, RunFinished, RunStarted, StepLogged, event_to_dict
from bertstudio.train.rundir import read_run
from bertstudio.ui.run_follower import RunFollower
from bertstudio.ui.runs_page import RunsPage
from bertstudio.ui.session import ProjectSession


def _line(event) -> str:
    return json.dumps(event_to_dict(event)) + "\n"


def _step(i: int, loss: float) -> StepLogged:
    return StepLogged(step=i, total_steps=20, epoch=i / 10, loss=loss, lr=2e-5, examples_per_s=100.0, eta_s=20 - i)


def test_follower_reads_only_complete_new_lines(qtbot, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    history = run / "history.jsonl"
    history.write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")) + _line(_step(1, 0.9)))
    follower = RunFollower(run, poll_ms=50)
    got: list[StepLogged] = []
    follower.step_logged.connect(got.extend)
    with qtbot.waitSignal(follower.started, timeout=5000) as started:
        follower.start()
    assert started.args[0] == RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")  # the event object itself
    assert [s.step for s in got] == [1]
    # A half-written line is not parsed until its newline arrives.
    partial = _line(_step(2, 0.8))
    with history.open("a") as fh:
        fh.write(partial[:10])
    follower.poll()
    assert [s.step for s in got] == [1]
    with history.open("a") as fh:
        fh.write(partial[10:] + _line(_step(3, 0.7)))
    qtbot.waitUntil(lambda: len(got) == 3, timeout=5000)
    assert [s.step for s in got] == [1, 2, 3] and got[2].loss == 0.7
    with qtbot.waitSignal(follower.ended, timeout=5000) as done:
        with history.open("a") as fh:
            fh.write(_line(RunFinished("finished", 3, {"accuracy": 0.75})))
    assert done.args[0].metrics == {"accuracy": 0.75}
    assert follower.events_read == 5
    follower.stop()


def test_a_history_replaced_by_an_overwrite_rerun_starts_a_new_run_not_a_resume(qtbot, tmp_path):
    """A followed run folder re-run with --overwrite: its new history's start was emitted as
    "resumed", so the monitor kept the old run's log and metrics and skipped a new run's resets."""
    run = tmp_path / "run"
    run.mkdir()
    history = run / "history.jsonl"
    first = RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")
    history.write_text(_line(first) + "".join(_line(_step(i, 1.0 / i)) for i in range(1, 8))
                       + _line(RunFinished("finished", 7, {"accuracy": 0.5})))
    follower = RunFollower(run, poll_ms=60_000)
    seen: list[tuple[str, object]] = []
    follower.started.connect(lambda ev: seen.append(("started", ev)))
    follower.resumed.connect(lambda ev: seen.append(("resumed", ev)))
    follower.poll()
    assert [name for name, _ in seen] == ["started"]
    again = RunStarted(10, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")
    history.write_text(_line(again))  # --overwrite: a new, shorter history in its place
    follower.poll()
    assert seen[1:] == [("started", again)]


def test_a_long_history_is_read_a_chunk_at_a_time_and_one_past_the_cap_not_at_all(qtbot, tmp_path, monkeypatch):
    """Following a run read its whole history.jsonl in one read on the GUI thread, past rundir's
    512 MB cap: a 1.5 GB (sparse) file held the window 11.5 s and took 5 GB."""
    from bertstudio.ui import run_follower

    run = tmp_path / "run"
    run.mkdir()
    history = run / "history.jsonl"
    history.write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32"))
                       + "".join(_line(_step(i, 1.0 / i)) for i in range(1, 201)))
    monkeypatch.setattr(run_follower, "CHUNK_BYTES", 1000)  # about 5 lines a turn
    follower = RunFollower(run, poll_ms=60_000)
    reads: list[int] = []
    real = follower._read
    monkeypatch.setattr(follower, "_read", lambda: reads.append(1) or real())
    got: list[StepLogged] = []
    follower.step_logged.connect(got.extend)
    follower.start()
    assert 0 < len(got) < 200  # the first chunk only: the rest comes on later turns of the event loop
    qtbot.waitUntil(lambda: len(got) == 200, timeout=10_000)
    assert [s.step for s in got] == list(range(1, 201)) and len(reads) > 20
    follower.stop()

    big = tmp_path / "big"
    big.mkdir()
    with (big / "history.jsonl").open("wb") as fh:
        fh.write(_line(_step(1, 0.5)).encode())
    monkeypatch.setattr(run_follower, "MAX_RUN_FILE_BYTES", 10)
    other = RunFollower(big, poll_ms=60_000)
    seen: list = []
    other.step_logged.connect(seen.extend)
    other.start()
    assert seen == [] and other._offset == 0
    other.stop()


@pytest.fixture
def session(tmp_path):
    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=["neg", "pos"])
    s = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    yield s
    project.close(compact=False)


def test_runs_page_lists_runs_and_follows_an_outside_run_live(qtbot, session, tmp_path):
    done = session.project.new_run_dir("sst2-full")
    TrainConfig(task="pair", glue_task="MRPC", epochs=3, lr=2e-5, batch_size=32, output_dir=str(done)).save(done / "config.toml")
    (done / "metrics.json").write_text(json.dumps({"f1": 0.8812, "accuracy": 0.84}))
    (done / "history.jsonl").write_text(_line(RunFinished("finished", 10, {"f1": 0.8812})))
    page = RunsPage(session)
    qtbot.addWidget(page)
    assert page.model.rowCount() == 1
    m = page.model
    row = {m.COLUMNS[c]: m.index(0, c).data() for c in range(m.columnCount())}
    assert row["status"] == "finished" and row["task"] == "MRPC" and row["score"] == "f1 88.1" and row["lr"] == "2e-05"

    outside = tmp_path / "gpu-server" / "run-7"
    outside.mkdir(parents=True)
    history = outside / "history.jsonl"
    history.write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cuda", "bf16")))
    page.open_run(outside)
    assert page.model.rowCount() == 2 and m.index(1, 1).data() == "running"
    loss = page.monitor.loss_plot
    assert loss.point_count(loss.raw_name) == 0
    with history.open("a") as fh:
        fh.write(_line(_step(10, 0.6)) + _line(_step(20, 0.4)))
    qtbot.waitUntil(lambda: loss.point_count(loss.raw_name) == 2, timeout=5000)
    assert list(loss.series_data(loss.raw_name)[1]) == [0.6, 0.4]
    assert page.monitor.progress.value() == 20
    with history.open("a") as fh:
        fh.write(_line(Evaluated(20, 2.0, {"accuracy": 0.5})) + _line(RunFinished("finished", 20, {"accuracy": 0.5})))
    qtbot.waitUntil(lambda: page.monitor.metric_plot.point_count() == 1, timeout=5000)
    qtbot.waitUntil(lambda: m.index(1, 1).data() == "finished", timeout=5000)
    assert read_run(outside).metrics == {"accuracy": 0.5}
    page.stop_following()


def test_a_seeds_job_brought_back_opens_as_its_runs(qtbot, session, tmp_path):
    """A Seeds 2 job trained on a server and opened with Open run folder… showed one row 'unknown'
    with no settings, its seed-N runs and seeds.json unread."""
    job = tmp_path / "server" / "job"
    for seed, acc in ((7, 0.75), (8, 0.5)):
        run = job / f"seed-{seed}"
        run.mkdir(parents=True)
        TrainConfig(task="sentence", seed=seed, output_dir=str(run)).save(run / "config.toml")
        (run / "metrics.json").write_text(json.dumps({"accuracy": acc}))
        (run / "history.jsonl").write_text(_line(RunFinished("finished", 10, {"accuracy": acc})))
    (job / "seeds.json").write_text(json.dumps({"seeds": [7, 8]}))
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.open_run(job)
    m = page.model
    listed = {m.index(r, 0).data(): m.index(r, 1).data() for r in range(m.rowCount())}
    assert listed == {"seed-7": "finished", "seed-8": "finished"}
    assert page.follower.folder == job / "seed-8"
    page.stop_following()


def test_runs_model_passes_the_model_tester(qtbot, session, qtmodeltester):
    for name in ("a", "b"):
        d = session.project.new_run_dir(name)
        (d / "metrics.json").write_text(json.dumps({"accuracy": 0.5}))
    page = RunsPage(session)
    qtbot.addWidget(page)
    assert page.model.rowCount() == 2
    qtmodeltester.check(page.model)


def test_a_run_folder_written_before_this_version_still_lists(qtbot, session, tmp_path):
    """A run folder copied from elsewhere names its old place (an absolute output_dir outside it)
    and has no model lengths: the Runs page still shows its settings and score."""
    old = session.project.new_run_dir("old")
    (old / "config.toml").write_text('task = "sentence"\nlr = 2e-5\nbatch_size = 16\nepochs = 2\n'
                                     'output_dir = "/somewhere/else/run"\n', encoding="utf-8")
    (old / "metrics.json").write_text(json.dumps({"accuracy": 0.91}))
    (old / "eval_rows.json").write_text(json.dumps({"split": "dev", "rows": [0]}))
    (old / "history.jsonl").write_text(json.dumps({"kind": "finished", "status": "finished", "step": 4, "metrics": {}})
                                       + "\n")
    page = RunsPage(session)
    qtbot.addWidget(page)
    m = page.model
    row = {m.COLUMNS[c]: m.index(0, c).data() for c in range(m.columnCount())}
    assert (row["status"], row["task"], row["lr"], row["batch"], row["score"]) == (
        "finished", "Single sentence classification", "2e-05", "16", "accuracy 91.0")


def test_picking_a_run_shows_its_curves_and_the_empty_page_says_what_to_do(qtbot, session, tmp_path):
    """One run selected: its curves (no "Follow" click needed), kept while the list refreshes;
    with nothing to show, the page says why, and a closed project takes its curves away."""
    page = RunsPage(session)
    qtbot.addWidget(page)
    assert "Train page" in page.follow_label.text()  # a project without runs
    runs = []
    for name, losses in (("a", [0.9, 0.7]), ("b", [0.5, 0.4, 0.3])):
        run = session.project.new_run_dir(name)
        (run / "history.jsonl").write_text(
            _line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32"))
            + "".join(_line(_step(i + 1, loss)) for i, loss in enumerate(losses))
            + _line(RunFinished("finished", len(losses), {"accuracy": 0.5})))
        runs.append(run)
    page.refresh()
    assert "Select a run" in page.follow_label.text() and page.follower is None
    loss = page.monitor.loss_plot
    row_b = [r.folder for r in page.model.runs].index(runs[1])
    page.table.selectRow(row_b)
    qtbot.waitUntil(lambda: loss.point_count(loss.raw_name) == 3, timeout=5000)
    assert list(loss.series_data(loss.raw_name)[1]) == [0.5, 0.4, 0.3]
    page.refresh()  # a run ending, a rename elsewhere: the pick stays
    assert [r.folder for r in page.selected_runs()] == [runs[1]] and page.follower.folder == runs[1]
    page.table.selectRow([r.folder for r in page.model.runs].index(runs[0]))
    qtbot.waitUntil(lambda: loss.point_count(loss.raw_name) == 2, timeout=5000)
    session.close()
    page.refresh()
    assert page.follower is None and page.model.rowCount() == 0
    assert "No project open" in page.follow_label.text()


def test_a_class_weighted_runs_loss_curve_says_so_on_the_runs_page(qtbot, session):
    """Its training loss is weighted, the evaluation's is not: picked on the Runs page, the curve says which."""
    page = RunsPage(session)
    qtbot.addWidget(page)
    runs = []
    for name, weighting in (("weighted", "balanced"), ("plain", "none")):
        run = session.project.new_run_dir(name)
        TrainConfig(task="sentence", labels=["neg", "pos"], class_weight=weighting).save(run / "config.toml")
        (run / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32"))
                                           + _line(_step(1, 0.7)) + _line(RunFinished("finished", 1, {})))
        runs.append(run)
    page.refresh()
    title = page.monitor.loss_plot.getPlotItem().titleLabel
    page.table.selectRow([r.folder for r in page.model.runs].index(runs[0]))
    qtbot.waitUntil(lambda: title.text == "Training loss (class-weighted)", timeout=5000)  # once its row is read
    page.table.selectRow([r.folder for r in page.model.runs].index(runs[1]))
    qtbot.waitUntil(lambda: page.follower.folder == runs[1], timeout=5000)
    assert title.text == "Training loss"


def test_a_local_run_whose_process_died_ends_as_interrupted_instead_of_being_followed_for_ever(qtbot, session):
    """A run killed mid-training stayed "running" on the Runs page, its curves followed without end
    and the run could not be renamed. While its writer holds the folder's lock it is running."""
    run = session.project.new_run_dir("killed")
    (run / "history.jsonl").write_text(
        _line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", host=socket.gethostname())) + _line(_step(3, 0.6)))
    held = lock_folder(run)  # the training's process, still alive
    try:
        page = RunsPage(session)
        qtbot.addWidget(page)
        m = page.model
        assert m.index(0, 1).data() == "running" and not page._renamable(m.runs[0])
        page.follower = None
        page.table.selectRow(0)
        qtbot.waitUntil(lambda: page.follower is not None and page.follower.events_read == 2, timeout=5000)
        qtbot.wait(300)
        assert page.follower.is_following() and m.index(0, 1).data() == "running"
    finally:
        unlock_folder(held)  # the process is gone
    page.follower._timer.setInterval(50)
    qtbot.waitUntil(lambda: m.index(0, 1).data() == "interrupted", timeout=5000)
    assert "stopped without finishing" in m.index(0, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert page._renamable(m.runs[0])
    assert "interrupted" in page.monitor.progress.format()
    page.stop_following()


def test_a_glue_folder_opens_as_its_task_runs_and_fills_the_scoreboard(qtbot, session, tmp_path):
    """The Scoreboard's hint says to open a `bertstudio glue` folder on the Runs page; doing so added
    one 'unknown' run (the folder itself) and every Scoreboard row read "missing"."""
    from bertstudio.ui.scoreboard_page import ScoreboardPage

    glue = tmp_path / "server" / "glue"
    for task, kind, metrics in (("RTE", "pair", {"accuracy": 0.6}), ("SST-2", "sentence", {"accuracy": 0.9})):
        run = glue / task
        run.mkdir(parents=True)
        TrainConfig(task=kind, glue_task=task, output_dir=str(run)).save(run / "config.toml")
        (run / "metrics.json").write_text(json.dumps(metrics))
        (run / "history.jsonl").write_text(_line(RunFinished("finished", 10, metrics)))
    (glue / "scoreboard.json").write_text(json.dumps({"RTE": {"accuracy": 0.6}, "SST-2": {"accuracy": 0.9}}))
    (glue / "notes").mkdir()  # a folder of the user's beside them is no run
    page = RunsPage(session)
    qtbot.addWidget(page)
    board = ScoreboardPage(session)
    qtbot.addWidget(board)
    page.open_run(glue)
    m = page.model
    assert {m.index(r, 0).data(): m.index(r, 1).data() for r in range(m.rowCount())} == {
        "RTE": "finished", "SST-2": "finished"}
    qtbot.waitUntil(lambda: board.table.item(7, 1).text() == "60.0")  # RTE, read off the GUI thread
    rows = {board.table.item(r, 0).text(): board.table.item(r, 1).text() for r in range(board.table.rowCount())}
    assert rows["SST-2"] == "90.0" and rows["Average"] == "75.0"
    page.stop_following()


def test_a_resumed_run_draws_one_joined_curve_as_compare_does(qtbot, session, tmp_path):
    """The Runs page reset its plots at the resume's RunStarted: a run stopped at step 101 and resumed
    showed its loss from step 102 and lost the evaluations before the stop (the best one among them).
    It keeps the points up to the checkpoint, drops the repeated ones, and agrees with Compare's curves,
    read at once or followed live as the resume is written."""
    from tests.core.test_compare import RESUMED_LOSSES, resumed_history

    from bertstudio.train.compare_runs import curves, read_run_record

    events = resumed_history()
    run = tmp_path / "resumed"
    run.mkdir()
    history = run / "history.jsonl"
    history.write_text("".join(_line(e) for e in events[:9]))  # the first run, killed at step 6
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.show()
    page.open_run(run)
    loss, metric = page.monitor.loss_plot, page.monitor.metric_plot
    qtbot.waitUntil(lambda: loss.point_count(loss.raw_name) == 6, timeout=5000)
    with history.open("a") as fh:  # resumed, live
        fh.write("".join(_line(e) for e in events[9:]))
    qtbot.waitUntil(lambda: metric.point_count() == 3, timeout=5000)
    qtbot.waitUntil(lambda: loss.point_count(loss.raw_name) == 12, timeout=5000)
    xs, ys = loss.series_data(loss.raw_name)
    joined = curves(read_run_record(run))
    assert list(xs) == joined.steps == list(range(1, 13)) and list(ys) == joined.loss == RESUMED_LOSSES
    assert list(page.monitor.lr_plot.series_data(page.monitor.lr_plot.name)[0]) == list(range(1, 13))
    assert list(metric.series_data("accuracy")[0]) == joined.eval_steps == [4, 8, 12]
    smooth = loss.series_data(loss.smooth_name)
    assert list(smooth[0]) == list(range(1, 13)) and smooth[1][-1] < ys[-1]  # smoothed along the joined curve
    page.follow(run)  # read whole, at once
    qtbot.waitUntil(lambda: metric.point_count() == 3 and loss.point_count(loss.raw_name) == 12, timeout=5000)
    assert list(loss.series_data(loss.raw_name)[1]) == RESUMED_LOSSES
    page.stop_following()


def _history(run, total: int, losses: list[float], accuracy: float) -> str:
    return (_line(RunStarted(total, 64, 16, 2, 32, 100, 1000, "cpu", "fp32"))
            + "".join(_line(_step(2 * (i + 1), loss)) for i, loss in enumerate(losses))
            + _line(Evaluated(2 * len(losses), 2.0, {"accuracy": accuracy}))
            + _line(RunFinished("finished", 2 * len(losses), {"accuracy": accuracy})))


@pytest.mark.parametrize("how", ["renamed into place", "rewritten in place"])
def test_a_history_replaced_by_a_longer_run_is_read_from_its_start(qtbot, session, tmp_path, how):
    """A followed run replaced by a longer one (rm -r and cp -r of another run, an rsync of a re-run):
    the follower read the new file from the old one's offset, mid-line, and drew the old run's first
    steps and evaluation spliced onto the new run's tail ("skipping a history line that is not an event")."""
    import os

    run = session.project.new_run_dir("replaced")
    history = run / "history.jsonl"
    TrainConfig(task="sentence", epochs=2, output_dir=str(run)).save(run / "config.toml")
    history.write_text(_history(run, 4, [0.9, 0.8], 0.375))
    page = RunsPage(session)
    qtbot.addWidget(page)
    m = page.model
    epochs = m.COLUMNS.index("epochs")
    assert m.index(0, epochs).data() == "2"
    follower = page.follow(run)
    loss, metric = page.monitor.loss_plot, page.monitor.metric_plot
    qtbot.waitUntil(lambda: metric.point_count() == 1, timeout=5000)
    assert list(loss.series_data(loss.raw_name)[0]) == [2, 4]
    resumed: list = []
    follower.resumed.connect(resumed.append)
    new_losses = [0.5 - 0.01 * i for i in range(40)]
    longer = _history(run, 80, new_losses, 0.6875)
    TrainConfig(task="sentence", epochs=10, output_dir=str(run)).save(run / "config.toml")
    if how == "renamed into place":  # another inode: what rsync and cp -r leave
        (run / "history.new").write_text(longer)
        os.replace(run / "history.new", history)
    else:  # the same inode, other first bytes
        with history.open("r+") as fh:
            fh.write(longer)
    follower.poll()
    qtbot.waitUntil(lambda: metric.point_count() == 1 and loss.point_count(loss.raw_name) == 40, timeout=5000)
    xs, ys = loss.series_data(loss.raw_name)
    assert list(xs) == list(range(2, 82, 2)) and list(ys) == pytest.approx(new_losses)
    assert list(metric.series_data("accuracy")[1]) == [pytest.approx(68.75)] and resumed == []
    assert "not an event" not in page.monitor.log_view.toPlainText()
    qtbot.waitUntil(lambda: m.index(0, epochs).data() == "10", timeout=5000)  # its row: the run there now
    page.stop_following()


def test_a_followed_run_removed_or_renamed_elsewhere_is_said_once(qtbot, session, tmp_path):
    """A followed run deleted (rm -rf) or renamed from another terminal: the page kept saying
    "Following …" over a frozen progress bar, and a refresh dropped its curves without a word."""
    import shutil

    runs = []
    for name in ("doomed", "moved"):
        run = session.project.new_run_dir(name)
        (run / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32"))
                                           + _line(_step(3, 0.6)))
        runs.append(run)
    page = RunsPage(session)
    qtbot.addWidget(page)
    follower = page.follow(runs[0])
    qtbot.waitUntil(lambda: follower.events_read == 2, timeout=5000)
    said = f"{runs[0]} was removed or renamed outside bertstudio; its curves are no longer followed"
    with qtbot.waitSignal(follower.gone, timeout=5000):
        shutil.rmtree(runs[0])  # the folder's watcher (or the poll) sees it go
    assert page.follower is None and not follower.is_following()
    assert page.follow_label.text() == said
    assert page.monitor.log_view.toPlainText().count(said) == 1
    assert [r.folder for r in page.model.runs] == [runs[1]]  # its row went with it
    page.refresh()
    assert page.follow_label.text() == said  # not the generic hint

    follower = page.follow(runs[1])
    assert "Following" in page.follow_label.text()
    runs[1].rename(runs[1].with_name("kept"))  # found by a refresh before the follower notices
    page.refresh()
    assert page.follower is None and not follower.is_following()
    assert page.follow_label.text() == f"{runs[1]} was removed or renamed outside bertstudio; its curves are no longer followed"
    assert "its curves are no longer followed" in page.monitor.log_view.toPlainText()
    page.follow(runs[1].with_name("kept"))
    assert "Following" in page.follow_label.text()
    page.stop_following()


def test_a_closed_project_stops_following_without_calling_its_runs_gone(qtbot, session):
    run = session.project.new_run_dir("kept")
    (run / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")))
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.follow(run)
    session.close()
    page.refresh()
    assert page.follower is None and "No project open" in page.follow_label.text()
    assert "removed" not in page.monitor.log_view.toPlainText()


def test_a_followed_run_named_with_markup_reads_as_it_is(qtbot, session, tmp_path):
    """Following a run named "<b>bold" showed "Following …/bold" in bold: the label guessed rich text."""
    from PySide6.QtCore import Qt

    folder = tmp_path / "<b>bold"
    folder.mkdir()
    (folder / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cuda", "bf16")))
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.follow(folder)
    assert page.follow_label.textFormat() == Qt.TextFormat.PlainText
    assert page.follow_label.text().endswith("<b>bold")
    page.stop_following()


def test_the_results_page_follows_its_run_renamed_by_hand_as_the_playground_does(qtbot, session):
    """The run shown on Results renamed in a terminal while the app is open: Results jumped to the
    newest run while the Playground kept the renamed one (by its device and inode); both keep it."""
    import os

    from bertstudio.ui.results_page import ResultsPage

    for name in ("alpha", "beta", "gamma"):
        run = session.project.new_run_dir(name)
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
        (run / "history.jsonl").write_text(_line(RunFinished(status="finished", step=2, metrics={"accuracy": 0.5})))
        (run / "metrics.json").write_text(json.dumps({"accuracy": 0.5}))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    beta = session.project.runs_dir / "beta"
    page.run_combo.setCurrentIndex(page.run_index(beta))
    assert page.run_dir == beta
    os.rename(beta, beta.with_name("beta-moved"))
    session.runs_changed.emit()
    assert page.run_dir == beta.with_name("beta-moved") and page.run_combo.currentText() == "beta-moved"
    assert page.gone_label.isHidden()
    (session.project.runs_dir / "beta-moved").rename(session.project.runs_dir.parent / "away")  # out of the project
    session.runs_changed.emit()
    assert page.run_dir is not None and page.run_dir.name == "gamma"  # gone: the newest, said so
    assert "beta-moved is no longer on disk" in page.gone_label.text()


def test_a_new_run_in_a_deleted_runs_inode_is_not_taken_for_it_renamed(qtbot, session):
    """beta deleted in a terminal and a new run gamma made: ext4 gives gamma beta's inode at once,
    and Results took gamma for beta renamed by hand (its identity was the device and inode alone),
    so "beta is no longer on disk" was never said. The run's start is part of its identity now."""
    import os

    from bertstudio.ui.results_page import ResultsPage

    runs_dir = session.project.runs_dir
    for started, name in enumerate(("alpha", "beta", "zzz"), start=1):
        run = session.project.new_run_dir(name)
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
        (run / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32",
                                                            started_at=1_700_000_000.0 + started)))
        (run / "metrics.json").write_text(json.dumps({"accuracy": 0.5}))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    beta = runs_dir / "beta"
    page.run_combo.setCurrentIndex(page.run_index(beta))
    assert page.run_dir == beta
    # the inode reused, as ext4 does: beta's folder under a new name, holding another run's start
    os.rename(beta, runs_dir / "gamma")
    (runs_dir / "gamma" / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32",
                                                                       started_at=1_700_000_100.0)))
    session.runs_changed.emit()
    assert not page.gone_label.isHidden() and "The run beta is no longer on disk" in page.gone_label.text()
    assert page.run_dir is not None and page.run_dir.name != "beta"


def test_results_follows_its_run_through_a_swap_of_names_and_says_when_its_folder_holds_another(qtbot, session, tmp_path):
    """alpha and beta swapped by rename in a terminal (mv alpha t; mv beta alpha; mv t beta): the
    entry "beta" kept on show went on to show alpha's scores, with nothing said. The run shown is
    followed by its identity; a folder replaced by another run, or by a link to one, is said so."""
    import os

    from bertstudio.train.rundir import run_identity
    from bertstudio.ui.results_page import ResultsPage

    runs_dir = session.project.runs_dir
    for started, (name, accuracy) in enumerate((("alpha", 0.25), ("beta", 0.5), ("gamma", 0.75)), start=1):
        run = session.project.new_run_dir(name)
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
        (run / "history.jsonl").write_text(_line(RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32",
                                                            started_at=1_700_000_000.0 + started)))
        (run / "metrics.json").write_text(json.dumps({"accuracy": accuracy}))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    alpha, beta, gamma = (runs_dir / name for name in ("alpha", "beta", "gamma"))
    page.run_combo.setCurrentIndex(page.run_index(beta))
    identity = run_identity(beta)
    os.rename(alpha, runs_dir / "t")
    os.rename(beta, alpha)
    os.rename(runs_dir / "t", beta)
    session.runs_changed.emit()
    assert page.run_dir == alpha and run_identity(alpha) == identity  # followed to its new name
    assert page.run_combo.currentText() == "alpha" and page.gone_label.isHidden()
    table = page.metrics_panel.metrics_table
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == ["50.0"]  # beta's score, not alpha's 25.0
    os.rename(alpha, tmp_path / "away")
    shutil.copytree(beta, alpha)  # another run under the name shown
    session.runs_changed.emit()
    assert not page.gone_label.isHidden() and "alpha now holds another run" in page.gone_label.text()
    page.run_combo.setCurrentIndex(page.run_index(beta))
    assert page.gone_label.isHidden()
    os.rename(beta, tmp_path / "away2")
    os.symlink(gamma, beta)  # a link to another run under the name shown
    session.runs_changed.emit()
    assert not page.gone_label.isHidden() and "beta now holds another run" in page.gone_label.text()


def test_results_lists_a_run_folder_not_utf8_under_its_own_name_and_path(qtbot, session):
    """A Latin-1 folder "run\\xe9" beside "run": Results listed both as "run", and the item's path
    came back from Qt without the undecodable byte, so picking it showed the other run."""
    from bertstudio.ui.results_page import ResultsPage

    runs_dir = session.project.runs_dir
    for name, accuracy in (("made", 0.25), ("run", 0.75)):
        run = session.project.new_run_dir(name)
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
        (run / "metrics.json").write_text(json.dumps({"accuracy": accuracy}))
    odd = (runs_dir / "made").rename(runs_dir / "run\udce9")
    page = ResultsPage(session)
    qtbot.addWidget(page)
    texts = [page.run_combo.itemText(i) for i in range(page.run_combo.count())]
    assert sorted(texts) == ["run", "run<0xE9>"]
    page.run_combo.setCurrentIndex(texts.index("run<0xE9>"))
    assert page.run_dir == odd
    page.run_combo.setCurrentIndex(texts.index("run"))
    assert page.run_dir == runs_dir / "run"
