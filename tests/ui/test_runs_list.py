"""What the Runs page lists, and in what order: a seeds or GLUE job written into runs/ as its runs,
runs another process adds listed without Refresh, rows by the recorded start and sortable by
value, runs of the same name told apart by their job folder, a renamed run kept picked."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import RunFinished, RunStarted, event_to_dict
from bertstudio.ui.runs_page import RunsPage, in_project


def _run(folder: Path, *, acc: float = 0.5, epochs: float = 3, lr: float = 2e-5, started: float | None = None,
         seed: int = 42) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], epochs=epochs, lr=lr, seed=seed,
                output_dir=str(folder)).save(folder / "config.toml")
    events = [RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", started_at=started)] if started else []
    events.append(RunFinished("finished", 10, {"accuracy": acc}))
    (folder / "history.jsonl").write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in events), encoding="utf-8")
    (folder / "metrics.json").write_text(json.dumps({"accuracy": acc}), encoding="utf-8")
    return folder


def _seeds_job(job: Path, seeds=(42, 43), acc: float = 0.5) -> Path:
    for seed in seeds:
        _run(job / f"seed-{seed}", acc=acc, seed=seed)
    (job / "seeds.json").write_text(json.dumps({"seeds": list(seeds)}), encoding="utf-8")
    return job


@pytest.fixture
def session(session_factory):
    return session_factory("sentence", ["neg", "pos"])


def _page(qtbot, session) -> RunsPage:
    page = RunsPage(session)
    qtbot.addWidget(page)
    return page


def _names(page: RunsPage) -> list[str]:
    return [page.model.index(r, 0).data() for r in range(page.model.rowCount())]


def test_a_seeds_job_written_into_runs_lists_as_its_runs(qtbot, session):
    """`bertstudio train --seeds 3 --out runs/seedjob` was one 'unknown' row, its runs hidden."""
    runs_dir = session.project.runs_dir
    _run(runs_dir / "plain")
    _seeds_job(runs_dir / "seedjob", acc=0.75)
    page = _page(qtbot, session)
    assert sorted(_names(page)) == ["plain", "seed-42", "seed-43"]
    statuses = {page.model.index(r, 0).data(): page.model.index(r, 1).data() for r in range(page.model.rowCount())}
    assert statuses["seed-42"] == "finished"
    assert page.model.index(_names(page).index("seed-42"), 8).data() == "accuracy 75.0"
    assert in_project(session, runs_dir / "seedjob" / "seed-42")  # the Results page does not call it foreign
    page.table.selectRow(_names(page).index("seed-43"))
    assert not page.rename_button.isEnabled()  # a job's run keeps its seed-N name: the job reads it
    page.stop_following()


def test_a_run_another_process_adds_to_runs_lists_without_refresh(qtbot, session):
    runs_dir = session.project.runs_dir
    _run(runs_dir / "first")
    page = _page(qtbot, session)
    assert _names(page) == ["first"]
    _run(runs_dir / "from-the-cli")  # as `bertstudio train --out runs/from-the-cli` does
    qtbot.waitUntil(lambda: "from-the-cli" in _names(page), timeout=5000)
    _seeds_job(runs_dir / "job", seeds=(1,))
    qtbot.waitUntil(lambda: "seed-1" in _names(page), timeout=5000)
    _run(runs_dir / "job" / "seed-2", seed=2)  # the job's next seed: inside the job folder, not runs/
    qtbot.waitUntil(lambda: "seed-2" in _names(page), timeout=5000)


def test_rows_are_in_recorded_start_order_and_headers_sort_by_value(qtbot, session, qtmodeltester):
    """The list was in folder-mtime order (a copied project, a resumed run moved it) and did not
    sort; epochs 10 sorted before 9 as text."""
    runs_dir = session.project.runs_dir
    t = 1_700_000_000.0
    for name, started, epochs, lr in (("b", t + 60, 10, 4e-3), ("a", t, 9, 1e-4), ("c", t + 120, 2, 2e-5)):
        _run(runs_dir / name, started=started, epochs=epochs, lr=lr)
    for n, name in enumerate(("c", "a", "b")):  # the folders' mtimes in another order (a cp -r)
        os.utime(runs_dir / name, (t + 1000 + n, t + 1000 + n))
    page = _page(qtbot, session)
    assert _names(page) == ["a", "b", "c"]
    page.table.selectRow(_names(page).index("b"))
    columns = page.model.COLUMNS
    page.table.sortByColumn(columns.index("epochs"), Qt.SortOrder.AscendingOrder)
    assert _names(page) == ["c", "a", "b"]  # 2, 9, 10
    page.table.sortByColumn(columns.index("lr"), Qt.SortOrder.AscendingOrder)
    assert _names(page) == ["c", "a", "b"]  # 2e-05, 0.0001, 0.004
    page.table.sortByColumn(columns.index("started"), Qt.SortOrder.DescendingOrder)
    assert _names(page) == ["c", "b", "a"]
    assert [r.name for r in page.selected_runs()] == ["b"] and page.follower.folder == runs_dir / "b"
    page.refresh()  # still sorted, still picked
    assert _names(page) == ["c", "b", "a"] and [r.name for r in page.selected_runs()] == ["b"]
    qtmodeltester.check(page.model)
    with qtbot.waitSignal(page.run_activated) as opened:
        page.table.doubleClicked.emit(page.model.index(0, 0))
    assert opened.args == [str(runs_dir / "c")]  # the row shown, not the row listed
    page.stop_following()


def test_runs_of_the_same_name_show_their_job_folder(qtbot, session, tmp_path):
    for job, acc in (("seeds5", 0.625), ("seeds4", 0.375)):
        _seeds_job(tmp_path / "out" / job, seeds=(42, 43), acc=acc)
    _run(session.project.runs_dir / "alone")
    page = _page(qtbot, session)
    page.open_run(tmp_path / "out" / "seeds5")
    page.open_run(tmp_path / "out" / "seeds4")
    assert sorted(_names(page)) == ["alone", "seeds4/seed-42", "seeds4/seed-43", "seeds5/seed-42", "seeds5/seed-43"]
    page.stop_following()


def test_a_renamed_run_stays_picked_and_followed(qtbot, session):
    runs_dir = session.project.runs_dir
    _run(runs_dir / "other")
    _run(runs_dir / "old-name")
    page = _page(qtbot, session)
    page.table.selectRow(_names(page).index("old-name"))
    assert page.follower.folder == runs_dir / "old-name"
    import bertstudio.ui.runs_page as runs_page

    held: list[list[str]] = []  # what the page and its follower watch as the folder is renamed (Windows refuses then)
    real = runs_page.rename_run

    def rename_run(folder, name):
        held.append([*page._watcher.directories(), *page._watcher.files()]
                    + ([*page.follower._watcher.directories(), *page.follower._watcher.files()] if page.follower else []))
        return real(folder, name)

    runs_page.rename_run = rename_run
    try:
        target = page.rename(runs_dir / "old-name", "new-name")
    finally:
        runs_page.rename_run = real
    assert held and not [p for p in held[0] if "old-name" in p], held
    assert [r.folder for r in page.selected_runs()] == [target] == [runs_dir / "new-name"]
    assert page.follower is not None and Path(page.follower.folder) == target
    assert page.rename_button.isEnabled()
    page.stop_following()


def test_a_watched_run_folder_is_let_go_before_it_is_renamed(qtbot, session, monkeypatch):
    """A run folder not yet readable is watched for its first files; Windows keeps a watched
    folder from being renamed, so Rename… lets it go first."""
    import bertstudio.ui.runs_page as runs_page

    folder = session.project.runs_dir / "half-written"
    folder.mkdir()
    page = _page(qtbot, session)
    assert str(folder) in page._watcher.directories()
    watched_then = []
    real = runs_page.rename_run
    monkeypatch.setattr(runs_page, "rename_run", lambda f, n: (watched_then.append(page._watcher.directories()), real(f, n))[1])
    target = page.rename(folder, "named")
    assert watched_then and str(folder) not in watched_then[0] and target.is_dir()
    page.stop_following()


def test_on_windows_only_the_runs_folder_is_watched_and_runs_being_written_are_polled(qtbot, session, monkeypatch):
    """Windows holds a watched folder open: a run folder the page (or its follower) watched could not
    be renamed, removed (an unused run folder the Train page drops) or replaced by --overwrite."""
    from bertstudio.data import atomic

    monkeypatch.setattr(atomic, "WINDOWS", True)
    runs_dir = session.project.runs_dir
    _run(runs_dir / "done")
    (runs_dir / "half-written").mkdir()  # no config.toml yet: a run being written
    page = _page(qtbot, session)
    assert page._watcher.directories() == [str(runs_dir)] and page._poll.isActive()
    page.table.selectRow(_names(page).index("done"))
    assert page.follower is not None and page.follower._watcher.directories() == [] == page.follower._watcher.files()
    (runs_dir / "half-written").rmdir()  # allowed: nothing holds it
    page.refresh()
    assert not page._poll.isActive()
    page.stop_following()


def test_resume_says_why_not_for_a_finished_run_and_one_that_never_started(qtbot, session):
    runs_dir = session.project.runs_dir
    _run(runs_dir / "done")
    (runs_dir / "never").mkdir()
    page = _page(qtbot, session)
    for name, said in (("done", "It has finished"), ("never", "It never started")):
        page.table.selectRow(_names(page).index(name))
        assert not page.resume_button.isEnabled() and page.resume_button.toolTip().startswith(said), name
    page.stop_following()


def _stopped_project_run(session, model: str) -> Path:
    """A run of the project's labelled rows, trained from ``model`` and cancelled after step 1."""
    import threading

    from bertstudio.train.engine import train
    from bertstudio.train.sources import project_rows

    rows = session.project.examples("train")
    folder = session.project.new_run_dir("cut")
    config = TrainConfig(task="sentence", labels=["neg", "pos"], model=model, epochs=1, batch_size=4, lr=2e-3, seed=7,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(folder), hold_out=None,
                         logging_steps=1)
    cancel = threading.Event()

    def stop_after_step_1(event, control):
        if event.kind == "step" and event.step == 1:
            cancel.set()

    result = train(config, project_rows(rows, rows.labelled_rows()), None, callbacks=[stop_after_step_1], cancel=cancel)
    assert result.status == "cancelled", result.message
    return folder


def test_resume_is_not_offered_for_rows_relabelled_or_a_model_moved_since_the_stop(qtbot, session_factory, tiny, tmp_path):
    """Sweep "move" #7 and #1: Resume stayed offered for a run whose rows were relabelled since it stopped, or whose
    base model folder was gone, and the refusal came only after the click. The tooltip says why, as the Train
    page says the engine's refusal."""
    import shutil

    from helpers import random_sentiment_records

    session = session_factory("sentence", ["neg", "pos"], {"train": random_sentiment_records(12, 1)})
    base = tmp_path / "base"
    shutil.copytree(tiny, base)
    _stopped_project_run(session, str(base))
    page = _page(qtbot, session)
    page.table.selectRow(_names(page).index("cut"))
    assert page.resume_button.isEnabled()
    before = session.project.examples("train").gold_values()[0]
    session.project.set_gold("train", 0, "neg" if before == "pos" else "pos")
    page.hide()
    page.show()  # back on the Runs page after the Label page
    assert not page.resume_button.isEnabled()
    assert page.resume_button.toolTip().startswith(
        "The project's labelled training rows changed since the run stopped: the same 12 rows, with other golds.")
    assert "Undo the edits made since it stopped" in page.resume_button.toolTip()
    session.project.set_gold("train", 0, before)
    page.hide()
    page.show()
    assert page.resume_button.isEnabled()
    base.rename(tmp_path / "elsewhere")
    page.hide()
    page.show()
    assert not page.resume_button.isEnabled()
    assert page.resume_button.toolTip().startswith(f"Its base model folder {base} is missing: put it back there")
    page.stop_following()


def test_opened_run_folders_stay_listed_after_the_project_is_moved(qtbot, tmp_path):
    """Keyed by the project's path, the runs attached with Open run folder… vanished once the project
    was moved or renamed; one attached by an older version (keyed by the path) is still listed."""
    import hashlib
    import shutil

    from PySide6.QtCore import QSettings

    from bertstudio.data.project import Project
    from bertstudio.ui.runs_page import EXTERNAL_KEY, add_external_run, external_runs
    from bertstudio.ui.session import ProjectSession

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    old, new = _run(tmp_path / "server" / "old"), _run(tmp_path / "server" / "new")
    Project.create(tmp_path / "a", name="a", kind="sentence", labels=["neg", "pos"]).close()
    by_path = hashlib.sha1(str(tmp_path / "a").encode("utf-8")).hexdigest()[:16]
    settings.setValue(f"{EXTERNAL_KEY}/{by_path}", [str(old)])  # as an older version kept it
    session = ProjectSession(Project.open(tmp_path / "a"), settings=settings)
    add_external_run(session, new)
    assert external_runs(session) == [old, new]
    session.close()
    shutil.move(tmp_path / "a", tmp_path / "a moved")
    session.set_project(Project.open(tmp_path / "a moved"))
    assert external_runs(session) == [old, new]
    page = _page(qtbot, session)
    assert sorted(_names(page)) == ["new", "old"]
    page.stop_following()
    other = Project.create(tmp_path / "b", name="b", kind="sentence", labels=["neg", "pos"])
    session.set_project(other)  # another project lists none of them
    assert external_runs(session) == []
    session.close()


def test_a_big_projects_resume_check_runs_off_the_gui_thread_and_says_it_is_checking(qtbot, session_factory, tiny,
                                                                                       monkeypatch):
    """The Runs page hashed every project row on the GUI thread when shown after an edit (2.7 s for
    200,000 rows, the window frozen): past BIG_PROJECT_ROWS the check runs on a worker."""
    from bertstudio.ui import runs_page
    from helpers import random_sentiment_records

    session = session_factory("sentence", ["neg", "pos"], {"train": random_sentiment_records(12, 1)})
    _stopped_project_run(session, str(tiny))
    page = _page(qtbot, session)
    monkeypatch.setattr(runs_page, "BIG_PROJECT_ROWS", 0)
    before = session.project.examples("train").gold_values()[0]
    session.project.set_gold("train", 0, "neg" if before == "pos" else "pos")
    page.table.selectRow(_names(page).index("cut"))
    assert page.is_checking_resume() and not page.resume_button.isEnabled()
    assert page.resume_button.toolTip() == "Checking whether the selected run can be resumed…"
    qtbot.waitUntil(lambda: not page.is_checking_resume(), timeout=10_000)
    assert not page.resume_button.isEnabled() and "Undo the edits made since it stopped" in page.resume_button.toolTip()
    session.project.set_gold("train", 0, before)
    page.hide()
    page.show()
    qtbot.waitUntil(lambda: not page.is_checking_resume(), timeout=10_000)
    assert page.resume_button.isEnabled()


def test_a_big_projects_resume_checks_run_one_at_a_time_and_the_last_pick_is_answered(qtbot, session_factory, tiny,
                                                                                      monkeypatch):
    """Each pick (and each refresh or show) started a new check and none was stopped: arrowing through
    stopped runs hashed every row once per pick, all at once. One runs; the latest pick waits its turn."""
    import threading

    from bertstudio.train import rundir
    from bertstudio.ui import runs_page
    from helpers import random_sentiment_records

    session = session_factory("sentence", ["neg", "pos"], {"train": random_sentiment_records(12, 1)})
    first, second = _stopped_project_run(session, str(tiny)), _stopped_project_run(session, str(tiny))
    page = _page(qtbot, session)
    monkeypatch.setattr(runs_page, "BIG_PROJECT_ROWS", 0)
    gate, lock, asked, running = threading.Event(), threading.Lock(), [], [0, 0]  # now, most at once

    def slow_rule(folder, project, stopped=False):
        with lock:
            asked.append(Path(folder).name)
            running[0] += 1
            running[1] = max(running)
        gate.wait(10)
        with lock:
            running[0] -= 1
        return None if Path(folder) == second else rundir.Said("finished", "finished")

    monkeypatch.setattr(rundir, "project_resume_problem", slow_rule)
    names = _names(page)
    for k in range(8):  # arrowing up and down the two stopped runs
        page.table.selectRow(names.index((first, second)[k % 2].name))
    page.table.selectRow(names.index(second.name))
    assert page.is_checking_resume() and not page.resume_button.isEnabled()
    gate.set()
    qtbot.waitUntil(lambda: not page.is_checking_resume(), timeout=10_000)
    assert running[1] == 1 and asked == [first.name, second.name]  # the first pick, then only the last
    assert page.resume_button.isEnabled()  # the answer for the run picked last


def _running(folder: Path) -> Path:
    """A run another process is writing on this machine: its settings and start, no end yet."""
    import socket

    folder.mkdir(parents=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(folder)).save(folder / "config.toml")
    start = RunStarted(20, 64, 16, 2, 32, 100, 1000, "cpu", "fp32", host=socket.gethostname(), started_at=1_700_000_000.0)
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(start)) + "\n", encoding="utf-8")
    return folder


def _status(page: RunsPage, name: str) -> str:
    return page.model.index(_names(page).index(name), 1).data()


def test_a_cli_run_killed_minus_9_reads_interrupted_without_refresh_and_the_pages_hear_it(qtbot, session):
    """A CLI run killed -9 (an OOM kill, a closed ssh) changes no folder entry, it only lets its lock
    go: on Linux, where only the watcher listened, its row read "running" for good (the poll ran on
    Windows only). Nothing changing meanwhile resets the table, nor tells the other pages."""
    import subprocess
    import sys

    fcntl = pytest.importorskip("fcntl")
    assert fcntl
    folder = _running(session.project.runs_dir / "long")
    _run(session.project.runs_dir / "done")
    holder = subprocess.Popen(  # `bertstudio train` holding its run folder's writer lock (data/project_lock)
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()", str(folder)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        page = _page(qtbot, session)
        assert _status(page, "long") == "running" and page._poll.isActive()
        page._poll.setInterval(50)
        heard, resets = [], []
        session.runs_changed.connect(lambda: heard.append(_status(page, "long")))
        page.model.modelReset.connect(lambda: resets.append(1))
        for _ in range(3):  # polled while it trains: nothing changed, nothing reset or said
            with qtbot.waitSignal(page._poll.timeout, timeout=2000):
                pass
        assert (heard, resets) == ([], []) and _status(page, "long") == "running"
    finally:
        holder.kill()
        holder.wait()
    qtbot.waitUntil(lambda: _status(page, "long") == "interrupted", timeout=5000)
    assert heard == ["interrupted"]  # Results, the Playground and the Scoreboard list it again
    assert not page._poll.isActive()  # nothing is being written now


def test_a_finished_runs_config_edited_by_hand_shows_when_the_page_is_shown_again(qtbot, session):
    """Editing a run's config.toml in place changes no folder entry: the list showed the old lr
    until Refresh."""
    folder = _run(session.project.runs_dir / "cli2", lr=5e-5)
    page = _page(qtbot, session)
    lr = page.model.COLUMNS.index("lr")
    assert page.model.index(0, lr).data() == "5e-05"
    page.show()
    qtbot.waitExposed(page)
    page.hide()  # another page shown meanwhile, in a later turn of the event loop
    qtbot.waitUntil(lambda: not session.run_reader._turn_scheduled, timeout=2000)
    text = (folder / "config.toml").read_text(encoding="utf-8")
    assert "lr = 5e-05" in text
    (folder / "config.toml").write_text(text.replace("lr = 5e-05", "lr = 0.001"), encoding="utf-8")
    page.show()
    assert page.model.index(0, lr).data() == "0.001"


def test_a_finished_runs_config_edited_by_hand_shows_while_the_page_is_on_screen(qtbot, session):
    """On screen too, without Refresh: the list still read the old lr 3 s after the edit. Polled
    only while shown (a stat per file), and no more once hidden."""
    folder = _run(session.project.runs_dir / "cli2", lr=5e-5)
    page = _page(qtbot, session)
    assert not page._poll.isActive()  # nothing being written, nothing on screen
    page.show()
    qtbot.waitExposed(page)
    assert page._poll.isActive()
    page._poll.setInterval(50)
    text = (folder / "config.toml").read_text(encoding="utf-8")
    (folder / "config.toml").write_text(text.replace("lr = 5e-05", "lr = 0.001"), encoding="utf-8")
    lr = page.model.COLUMNS.index("lr")
    qtbot.waitUntil(lambda: page.model.index(0, lr).data() == "0.001", timeout=3000)
    page.hide()
    assert not page._poll.isActive()



def test_a_run_name_holding_control_characters_stays_on_one_line(qtbot, session):
    """A run folder copied in as "bad\nname" showed its raw line break in the Runs table and in the
    Results and Playground pickers (their items come from run_titles); each control character is
    shown as a visible mark now, wherever a run's name is shown."""
    from bertstudio.ui import run_delete
    from bertstudio.ui.runs_page import run_titles, visible_run_name

    runs_dir = session.project.runs_dir
    for name in ("bad\nname", "tab\there", "bell\x07\x85end"):
        _run(runs_dir / name)
    page = _page(qtbot, session)
    # U+23CE RETURN SYMBOL, U+2409 and U+2407 (the control pictures of tab and bell)
    assert sorted(_names(page)) == ["bad\u23cename", "bell\u2407<U+0085>end", "tab\u2409here"]
    titles = run_titles(runs_dir / name for name in ("bad\nname", "tab\there"))
    assert sorted(titles.values()) == ["bad\u23cename", "tab\u2409here"]
    assert visible_run_name("line\u2028sep\x7f") == "line<U+2028>sep\u2421"
    assert visible_run_name("seed-42 \u4e2d\u6587 \u0645\u0631\u062d\u0628\u0627") == \
        "seed-42 \u4e2d\u6587 \u0645\u0631\u062d\u0628\u0627"  # nothing else changes
    asked = run_delete.confirm_text([runs_dir / "bad\nname"], session)  # a plain-text box
    assert asked.startswith("Delete 1 run: bad\u23cename?")
    page.stop_following()


def test_a_run_name_not_utf8_or_invisible_is_shown_by_its_codes(qtbot, session):
    """A Latin-1 folder "run\\xe9" (a surrogate escape in Python) showed as "run", like the real run
    "run" beside it: Qt drops the lone surrogate. Names of invisible format characters showed blank
    (U+200B, a lone U+00A0), the same as another run ("a" and "a\u200b"), or reversed what followed
    (U+202E). Each is shown by its code now."""
    from bertstudio.ui.runs_page import visible_run_name

    runs_dir = session.project.runs_dir
    for name in ("run", "a", "a\u200b"):
        _run(runs_dir / name)
    _run(runs_dir / "copied").rename(runs_dir / "run\udce9")  # its config names where it was made
    page = _page(qtbot, session)
    assert sorted(_names(page)) == ["a", "a<U+200B>", "run", "run<0xE9>"]
    assert visible_run_name("\u200b") == "<U+200B>"
    assert visible_run_name("\u00a0") == "<U+00A0>"  # whitespace only: blank otherwise
    assert visible_run_name("  ") == "<U+0020><U+0020>"
    assert visible_run_name("a\u202eb") == "a<U+202E>b"
    assert visible_run_name("new \u00a0run") == "new \u00a0run"  # whitespace inside a name stays
    page.stop_following()


def test_a_run_name_of_default_ignorable_or_blank_letters_is_shown_by_its_codes(qtbot, session):
    """Runs "a", "a" + a variation selector, "a" + the combining grapheme joiner read "a" three times,
    and the Hangul filler U+3164 and the braille blank U+2800 read blank: none is a format character.
    Unicode's default-ignorable characters and the letters drawn blank are shown by code now."""
    from bertstudio.ui.runs_page import visible_run_name

    runs_dir = session.project.runs_dir
    for name in ("a", "a\ufe0f", "a\u034f", "\u3164", "\u2800"):
        _run(runs_dir / name)
    page = _page(qtbot, session)
    assert sorted(_names(page)) == ["<U+2800>", "<U+3164>", "a", "a<U+034F>", "a<U+FE0F>"]
    assert visible_run_name("\u115f\u1160\uffa0") == "<U+115F><U+1160><U+FFA0>"
    assert visible_run_name("run\U000e0101x\u180b") == "run<U+E0101>x<U+180B>"  # variation selectors 17+, Mongolian
    assert visible_run_name("\u17b4\U0001d159") == "<U+17B4><U+1D159>"
    assert visible_run_name("\ud55c\uae00-\u4e2d\u6587 \u00e9\u0301") == "\ud55c\uae00-\u4e2d\u6587 \u00e9\u0301"  # seen: kept
    page.stop_following()


def test_a_project_opened_read_only_by_choice_greys_runs_with_the_windows_line(qtbot, tmp_path):
    """Opened read-only because another window had it read-only, the window's line says how to make it
    writable here; the Runs page's greyed Delete/Rename said the shorter line without that."""
    from PySide6.QtCore import QSettings

    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.run_words import read_only_text
    from bertstudio.ui.session import ProjectSession

    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["neg", "pos"])
    folder = project.folder
    _run(project.runs_dir / "alpha")
    project.close()
    viewer = Project.open(folder, read_only=True)  # another window's read-only view
    try:
        window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
        qtbot.addWidget(window)
        window.confirm_open_read_only = lambda _message: True  # Open read-only
        assert window.open_project(str(folder)) and window.session.project.read_only
        said = window.read_only_line()
        assert said != read_only_text() and "writable" in said  # the line of a read-only asked for
        page = window.pages["runs"]
        window.show_page("runs")
        page.table.selectRow(_names(page).index("alpha"))
        for widget in (page.delete_button, page.delete_action, page.rename_button, page.rename_action):
            assert not widget.isEnabled() and widget.toolTip() == said, widget
        assert page.rename_refusal(project.runs_dir / "alpha") == said
        window.close()
    finally:
        viewer.close()


def _long_run(folder: Path, steps: int) -> Path:
    """A finished run whose history logs ``steps`` steps."""
    from bertstudio.train.events import StepLogged

    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(folder)).save(folder / "config.toml")
    events = [RunStarted(steps, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")]
    events += [StepLogged(i, steps, i / steps, 1.0 / i, 2e-5, 10.0, 0.0) for i in range(1, steps + 1)]
    events.append(RunFinished("finished", steps, {"accuracy": 0.5}))
    (folder / "history.jsonl").write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in events), encoding="utf-8")
    (folder / "metrics.json").write_text(json.dumps({"accuracy": 0.5}), encoding="utf-8")
    return folder


def test_a_long_history_is_read_off_the_gui_thread_and_a_run_picked_meanwhile_keeps_its_curves(
        qtbot, session, monkeypatch):
    """Picking a run with a 42 MB history.jsonl held the GUI thread 0.3-1.2 s while the page read its
    curves there. Now a long backlog is read on a worker; picking another run meanwhile shows only
    that run's curves, never the first one's arriving late."""
    import threading

    from bertstudio.ui import run_follower

    monkeypatch.setattr(run_follower, "BACKLOG_BYTES", 1000)  # a few steps make a "long" history here
    monkeypatch.setattr(run_follower, "EMIT_EVENTS", 50)
    parsed_on: list[bool] = []  # per parse of history lines: on the GUI thread?
    parse = run_follower.parse_history
    monkeypatch.setattr(run_follower, "parse_history", lambda lines: (
        parsed_on.append(threading.current_thread() is threading.main_thread()), parse(lines))[1])
    runs_dir = session.project.runs_dir
    _long_run(runs_dir / "long", 400)
    _long_run(runs_dir / "short", 3)  # under the threshold: read at once, as before
    page = _page(qtbot, session)
    page.table.selectRow(_names(page).index("long"))
    assert page.follower.folder == runs_dir / "long" and parsed_on == []  # nothing parsed at the pick
    qtbot.waitUntil(lambda: page.monitor.last_step is not None and page.monitor.last_step.step == 400)
    assert parsed_on and not any(parsed_on)

    page.table.selectRow(_names(page).index("short"))
    page.table.selectRow(_names(page).index("long"))  # followed again from its start
    worker = page.follower._backlog_job
    assert worker is not None
    ended: list[str] = []
    for signal in (worker.finished, worker.failed, worker.cancelled):
        signal.connect(lambda *_a, s=signal: ended.append(str(s)))
    page.table.selectRow(_names(page).index("short"))  # picked while the long one is still being read
    assert page.follower.folder == runs_dir / "short" and page.monitor.last_step.step == 3
    qtbot.waitUntil(lambda: bool(ended))
    qtbot.waitUntil(lambda: not page.follower._backlog)  # (nothing of the long run's is queued either)
    assert page.monitor.last_step.step == 3 and page.follower.folder == runs_dir / "short"
