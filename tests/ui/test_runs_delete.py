"""Delete run on the Runs page: the project's runs go to a trash (the system's, or the project's
own folder where there is none), a run opened from elsewhere only leaves the list, a run training
now is refused, and Edit > Undo puts each run back where it was, never over a folder of its name.
Every page listing runs drops a deleted run and lists it again on undo."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from bertstudio.data.project_lock import lock_run_folder, unlock_folder
from bertstudio.train.config import TrainConfig
from bertstudio.ui import run_delete
from bertstudio.ui.runs_page import RunsPage, add_external_run, external_runs


def _run(folder: Path, acc: float = 0.5, glue_task: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], glue_task=glue_task, output_dir=str(folder)).save(folder / "config.toml")
    (folder / "metrics.json").write_text(json.dumps({"accuracy": acc}), encoding="utf-8")
    (folder / "history.jsonl").write_text("", encoding="utf-8")
    (folder / "model").mkdir(exist_ok=True)
    (folder / "model" / "weights.bin").write_bytes(bytes(range(256)) * 100)
    return folder


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def session(session_factory):
    return session_factory("sentence", ["neg", "pos"])


@pytest.fixture
def no_system_trash(monkeypatch):
    """As on this headless box (no ~/.local/share): the runs go to the project's trash folder, and
    a test never puts anything in the user's own trash."""
    monkeypatch.setattr(run_delete, "system_trash", lambda _folder: None)


def _page(qtbot, session) -> RunsPage:
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.confirm_delete = lambda _folders: pytest.fail("the question is asked only from the button or key")
    page.refusals = []
    page.show_refusal = page.refusals.append
    return page


def _names(page: RunsPage) -> list[str]:
    return [page.model.index(r, 0).data() for r in range(page.model.rowCount())]


def test_delete_then_undo_puts_the_run_back_with_the_same_files(qtbot, session, no_system_trash):
    runs_dir = session.project.runs_dir
    keep, gone = _run(runs_dir / "keep"), _run(runs_dir / "failed-try")
    before = _files(gone)
    page = _page(qtbot, session)
    page.table.selectRow(_names(page).index("failed-try"))  # followed, as a picked run is
    assert page.follower is not None and Path(page.follower.folder) == gone
    messages = []
    page.status_message.connect(messages.append)
    command = page.delete_runs([gone])
    trash = session.project.folder / "trash"
    assert not gone.exists() and _files(trash / "failed-try") == before
    assert _names(page) == ["keep"] and page.follower is None  # let go of first, and never listed from the trash
    assert str(trash) in messages[0] and "Undo" in messages[0]  # where it went, and how to get it back
    assert session.undo_stack.undoText() == command.text() == "Delete run failed-try"
    session.undo_stack.undo()
    assert _files(gone) == before and not (trash / "failed-try").exists()
    assert sorted(_names(page)) == ["failed-try", "keep"]
    session.undo_stack.redo()  # deleted again
    assert not gone.exists() and _files(trash / "failed-try") == before and _names(page) == ["keep"]
    assert keep.is_dir()


def test_the_system_trash_is_used_where_there_is_one(qtbot, session, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # Qt's freedesktop trash, in the test's folder
    (tmp_path / "xdg").mkdir()
    run = _run(session.project.runs_dir / "big-model")
    before = _files(run)
    page = _page(qtbot, session)
    command = page.delete_runs([run])
    trashed = command.deleted[0].trashed
    if not command.deleted[0].system:
        pytest.skip("Qt found no trash for this folder here")
    assert trashed.parent == tmp_path / "xdg" / "Trash" / "files" and _files(trashed) == before
    assert not (session.project.folder / "trash").exists()
    assert (tmp_path / "xdg" / "Trash" / "info" / f"{trashed.name}.trashinfo").is_file()
    session.undo_stack.undo()
    assert _files(run) == before and not trashed.exists()
    assert not (tmp_path / "xdg" / "Trash" / "info" / f"{trashed.name}.trashinfo").exists()  # no stale trash entry


def test_a_run_opened_from_elsewhere_only_leaves_the_list(qtbot, session, tmp_path, no_system_trash):
    outside = _run(tmp_path / "server" / "gpu-run")
    add_external_run(session, outside)
    page = _page(qtbot, session)
    assert _names(page) == ["gpu-run"]
    assert "not deleted" in run_delete.confirm_text([outside], session)
    messages = []
    page.status_message.connect(messages.append)
    page.delete_runs([outside])
    assert outside.is_dir() and (outside / "model" / "weights.bin").is_file()  # never deleted from disk
    assert _names(page) == [] and external_runs(session) == []
    assert "stays on disk" in messages[0]  # one run: its folder (it read "their folders stay", of 1 run(s))
    session.undo_stack.undo()
    assert _names(page) == ["gpu-run"] and external_runs(session) == [outside]


def test_a_run_training_now_is_refused(qtbot, session, no_system_trash):
    runs_dir = session.project.runs_dir
    training, written = _run(runs_dir / "training-now"), _run(runs_dir / "cli-run")
    page = _page(qtbot, session)
    session.training_runs = lambda: {str(training)}  # the Train page's run (its folder made before it holds the lock)
    assert page.delete_runs([written, training]) is None  # none of a selection holding it goes
    assert training.is_dir() and written.is_dir() and "training now" in page.refusals[-1] and session.undo_stack.count() == 0
    lock = lock_run_folder(written)  # a run another process (the CLI) writes: its writer lock held
    if lock is None:
        pytest.skip("no folder locks on this file system")
    try:
        page.table.selectRow(_names(page).index("cli-run"))
        assert page.delete_runs([written]) is None
    finally:
        unlock_folder(lock)
    assert written.is_dir() and "training now" in page.refusals[-1] and session.undo_stack.count() == 0
    assert page.follower is not None and Path(page.follower.folder) == written  # its curves came back
    assert sorted(_names(page)) == ["cli-run", "training-now"]


def test_undo_never_puts_a_run_back_over_a_folder_of_its_name(qtbot, session, no_system_trash):
    run = _run(session.project.runs_dir / "run1")
    before = _files(run)
    page = _page(qtbot, session)
    page.delete_runs([run])
    _run(run, acc=0.9)  # a new run of that name, made since
    theirs = _files(run)
    with qtbot.waitSignal(session.failed) as failed:
        session.undo_stack.undo()
    said = str(failed.args[0])
    assert "exists now" in said and str(session.project.folder / "trash" / "run1") in said
    assert _files(run) == theirs  # not overwritten
    assert _files(session.project.folder / "trash" / "run1") == before  # still in the trash, said where
    # the refusal says "rename or move that folder, then Undo again": the Undo stays for that (it left the
    # stack, and the run sat in the trash with nothing pointing to it)
    qtbot.waitUntil(session.undo_stack.canUndo)
    run.rename(run.with_name("theirs"))
    session.undo_stack.undo()
    assert _files(run) == before and not (session.project.folder / "trash" / "run1").exists()


def test_the_button_and_the_delete_key_ask_first(qtbot, session, no_system_trash):
    runs_dir = session.project.runs_dir
    a, b = _run(runs_dir / "a"), _run(runs_dir / "b")
    page = _page(qtbot, session)
    assert not page.delete_button.isEnabled()
    asked = []
    page.confirm_delete = lambda folders: asked.append(folders) or False  # Cancel
    page.table.selectAll()
    assert page.delete_button.isEnabled()
    qtbot.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    assert sorted(asked[0]) == [a, b] and a.is_dir() and b.is_dir()
    text = run_delete.confirm_text(asked[0], session)
    assert "a, b" in text or "b, a" in text
    assert "8 files" in text and "0.1 MB" in text and "Undo" in text  # four files in each run
    page.confirm_delete = lambda folders: True
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()  # a shortcut reaches only the active window's widgets
    qtbot.waitUntil(page.isActiveWindow, timeout=2000)
    page.table.setFocus()
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)
    assert not a.exists() and not b.exists() and _names(page) == []
    assert session.undo_stack.undoText() == "Delete 2 runs"
    session.undo_stack.undo()
    assert a.is_dir() and b.is_dir() and sorted(_names(page)) == ["a", "b"]


def test_other_pages_drop_a_deleted_run_and_list_it_again_on_undo(qtbot, session, no_system_trash):
    from bertstudio.ui.playground import PlaygroundPage
    from bertstudio.ui.results_page import ResultsPage
    from bertstudio.ui.run_compare import RunCompareDialog
    from bertstudio.ui.scoreboard_page import ScoreboardPage

    runs_dir = session.project.runs_dir
    older = _run(runs_dir / "sst2-old", acc=0.6, glue_task="SST-2")
    newer = _run(runs_dir / "sst2-new", acc=0.9, glue_task="SST-2")
    for run in (older, newer):  # a model the Playground lists (never loaded here)
        (run / "model" / "config.json").write_text("{}", encoding="utf-8")
    page = _page(qtbot, session)
    results, board, playground = ResultsPage(session), ScoreboardPage(session), PlaygroundPage(session)
    compare = RunCompareDialog(session, older, newer)
    for widget in (results, board, playground, compare):
        qtbot.addWidget(widget)

    def listed() -> tuple[list[str], str, list[str]]:
        combo = [results.run_combo.itemText(i) for i in range(results.run_combo.count())]
        row = next(r for r in range(board.table.rowCount()) if board.table.item(r, 0).text() == "SST-2")
        models = [str(playground.run_at(i)) for i in range(playground.run_combo.count())]
        return combo, board.table.item(row, 3).text(), [Path(m).name for m in models]

    results.show_run(newer)  # the run on show is the one deleted
    playground.run_combo.setCurrentIndex(playground.run_index(newer))  # and the model picked
    assert listed() == (["sst2-new", "sst2-old"], "sst2-new", ["sst2-new", "sst2-old"])
    page.delete_runs([newer])
    assert listed() == (["sst2-old"], "sst2-old", ["sst2-old"]) and results.run_dir == older
    assert playground.model_dir() == str(older / "model")
    assert compare.gone_label.isVisibleTo(compare) and "sst2-new" in compare.gone_label.text()
    session.undo_stack.undo()
    assert listed() == (["sst2-new", "sst2-old"], "sst2-new", ["sst2-new", "sst2-old"])
    assert not compare.gone_label.isVisibleTo(compare)


def test_a_seeds_jobs_run_leaves_the_list_at_once(qtbot, session, no_system_trash):
    """Deleting runs/job/seed-2 leaves runs/ as it was: the list made in this turn is made again."""
    job = session.project.runs_dir / "job"
    one, two = _run(job / "seed-1"), _run(job / "seed-2")
    page = _page(qtbot, session)
    assert sorted(_names(page)) == ["seed-1", "seed-2"]
    page.delete_runs([two])
    assert _names(page) == ["seed-1"] and (session.project.folder / "trash" / "seed-2").is_dir()
    session.undo_stack.undo()
    assert sorted(_names(page)) == ["seed-1", "seed-2"] and two.is_dir() and one.is_dir()


def test_in_the_window_the_status_bar_says_where_and_edit_undo_puts_it_back(qtbot, main_window, no_system_trash):
    session = main_window.session
    run = _run(session.project.runs_dir / "old-try")
    page = main_window.pages["runs"]
    page.refresh()
    main_window.show_page("runs")
    page.delete_runs([run])
    assert not run.exists() and str(session.project.folder / "trash") in main_window.statusBar().currentMessage()
    assert "old-try" in main_window.undo_action.text()  # Edit > Undo says what it undoes
    main_window.undo_action.trigger()
    assert (run / "model" / "weights.bin").is_file() and _names(page) == ["old-try"]


def test_a_jobs_last_run_deleted_takes_its_job_folder_along(qtbot, session, no_system_trash):
    """A seeds job's folder without runs listed as a run of its own, "unknown", once its last seed went."""
    job = session.project.runs_dir / "job"
    one, two = _run(job / "seed-1"), _run(job / "seed-2")
    (job / "seeds.json").write_text('{"seeds": [1, 2]}', encoding="utf-8")
    page = _page(qtbot, session)
    page.delete_runs([one, two])
    assert _names(page) == [] and not job.exists()
    assert (session.project.folder / "trash" / "job" / "seeds.json").is_file()
    session.undo_stack.undo()
    assert sorted(_names(page)) == ["seed-1", "seed-2"] and (job / "seeds.json").is_file()
    assert _files(one) and _files(two)
    with qtbot.assertNotEmitted(session.failed):
        session.undo_stack.redo()
    assert _names(page) == [] and not job.exists() and session.undo_stack.canUndo()
    session.undo_stack.undo()
    assert sorted(_names(page)) == ["seed-1", "seed-2"]


def test_a_link_in_the_runs_folder_is_refused_in_words_not_said_to_be_gone(qtbot, session, tmp_path, no_system_trash):
    """The link took the "opened from elsewhere" branch: the status bar said it was removed from
    the list and an empty Undo was pushed, yet the Runs page (which reads runs/) still listed it."""
    real = _run(tmp_path / "elsewhere-run")
    link = session.project.runs_dir / "linkrun"
    link.symlink_to(real)
    page = _page(qtbot, session)
    assert _names(page) == ["linkrun"]
    asked = run_delete.confirm_text([link], session)
    assert "a link to a folder elsewhere" in asked and "only leave" not in asked  # one link: said in the singular
    messages = []
    page.status_message.connect(messages.append)
    assert page.delete_runs([link]) is None
    assert messages == [] and session.undo_stack.count() == 0
    assert page.refusals == ["linkrun was not deleted: it is a link to a folder elsewhere, which Delete run never "
                             "follows. Remove the link itself in a file manager."]
    assert link.is_symlink() and _files(real) and _names(page) == ["linkrun"]


def test_a_file_named_trash_and_a_long_name_deleted_twice_are_said_in_words(qtbot, session, no_system_trash):
    """Both showed the raw OS error: "[Errno 17] File exists: '…/trash'" and, for a 255-byte name
    deleted a second time, "[Errno 36] File name too long". The second now just works."""
    runs_dir, trash = session.project.runs_dir, session.project.folder / "trash"
    name = "r" * 255
    page = _page(qtbot, session)
    for _ in range(2):
        _run(runs_dir / name)
        page.refresh()
        assert page.delete_runs([runs_dir / name]) is not None
    assert page.refusals == [] and sorted(p.name for p in trash.iterdir()) == ["r" * 253 + "-2", name]
    session.undo_stack.undo()  # the second comes back under its own name
    assert (runs_dir / name).is_dir() and sorted(p.name for p in trash.iterdir()) == [name]
    for leftover in sorted(trash.rglob("*"), reverse=True):
        leftover.unlink() if leftover.is_file() else leftover.rmdir()
    trash.rmdir()
    trash.write_text("my notes", encoding="utf-8")
    assert page.delete_runs([runs_dir / name]) is None
    assert page.refusals == [f"{name} was not deleted: the project's trash {trash} is a file, not a folder. "
                             "Rename or move that file, then delete again."]
    assert (runs_dir / name).is_dir() and trash.read_text(encoding="utf-8") == "my notes"


def test_an_os_error_is_said_without_errno_and_path():
    said = run_delete.refusal_text(OSError(36, "File name too long", "/p/trash/x"), Path("/p/runs/x"))
    assert said == "x was not deleted: File name too long."
    said = run_delete.refusal_text(PermissionError(13, "Permission denied", "/p/runs/x"), Path("/p/runs/x"), put_back=True)
    assert said == "x was not put back: Permission denied."


@pytest.fixture
def read_only_session(session_factory, tmp_path):
    """A project opened read-only (another window holds it for writing, or the medium is read-only),
    with a run of its own, alpha, and gpu-run opened from elsewhere."""
    from bertstudio.data.project import Project

    session = session_factory("sentence", ["neg", "pos"])
    folder = session.project.folder
    _run(session.project.runs_dir / "alpha")
    add_external_run(session, _run(tmp_path / "server" / "gpu-run"))
    session.close()
    session.set_project(Project.open(folder, read_only=True))
    return session


def test_a_read_only_project_greys_delete_rename_and_resume_and_refuses_them(qtbot, read_only_session, tmp_path,
                                                                             no_system_trash):
    """Delete… and Rename… were enabled in a project opened read-only and moved its runs out from under
    the other windows viewing it; greyed now, their tooltip saying why, as Import is, and refused when
    asked all the same (the Delete key's action, a script). A run opened from elsewhere still leaves the
    list: that writes nothing in the project."""
    from bertstudio.errors import ConfigError
    from bertstudio.ui.run_words import read_only_text

    session = read_only_session
    alpha, outside = session.project.runs_dir / "alpha", tmp_path / "server" / "gpu-run"
    before = _files(alpha)
    page = _page(qtbot, session)
    page.table.selectRow(_names(page).index("alpha"))
    for widget in (page.delete_button, page.delete_action, page.rename_button, page.rename_action, page.resume_button):
        assert not widget.isEnabled() and widget.toolTip() == read_only_text(), widget
    assert page.delete_runs([alpha]) is None and page.refusals == [read_only_text()]
    with pytest.raises(ConfigError) as refused:
        page.rename(alpha, "renamed")
    assert refused.value.facts["said"] == read_only_text()
    assert _files(alpha) == before and not (session.project.folder / "trash").exists()
    assert not (session.project.runs_dir / "renamed").exists() and session.undo_stack.count() == 0
    page.table.selectRow(_names(page).index("gpu-run"))
    assert page.delete_button.isEnabled() and page.delete_action.isEnabled()
    assert page.delete_runs([outside]) is not None
    assert outside.is_dir() and _names(page) == ["alpha"]


def test_an_undo_that_fails_on_an_os_error_says_where_the_run_is_and_can_be_tried_again(qtbot, session,
                                                                                         no_system_trash, monkeypatch):
    """"alpha was not put back: Permission denied." said nothing of where alpha was, and the Undo was
    thrown away: once the permission was fixed, nothing put the run back from the project's trash."""
    run = _run(session.project.runs_dir / "alpha")
    before = _files(run)
    page = _page(qtbot, session)
    page.delete_runs([run])
    trashed = session.project.folder / "trash" / "alpha"

    def refused(_trashed, folder):
        raise PermissionError(13, "Permission denied", str(folder))

    monkeypatch.setattr(run_delete.run_trash, "restore_run", refused)
    with qtbot.waitSignal(session.failed) as failed:
        session.undo_stack.undo()
    said = str(failed.args[0])
    assert "alpha was not put back: Permission denied" in said and str(trashed) in said
    qtbot.waitUntil(session.undo_stack.canUndo)  # still on the stack, to be tried again
    assert session.undo_stack.undoText() == "Delete run alpha" and _files(trashed) == before
    monkeypatch.undo()  # the permission fixed
    session.undo_stack.undo()
    assert _files(run) == before and not trashed.exists() and _names(page) == ["alpha"]


def test_undo_and_redo_say_what_they_did_in_the_status_bar(qtbot, session, no_system_trash):
    """After Edit > Undo put the run back, the bar still said "Moved 1 run(s) to the trash… Undo puts
    them back"."""
    run = _run(session.project.runs_dir / "first-run")
    page = _page(qtbot, session)
    messages = []
    page.status_message.connect(messages.append)
    page.delete_runs([run])
    session.undo_stack.undo()
    assert run.is_dir() and messages[-1] == "Put back 1 run: first-run"
    session.undo_stack.redo()
    assert not run.exists() and messages[-1].startswith("Moved 1 run to the project's trash folder")


def test_counts_are_said_in_english_words_not_run_s(session):
    """English has no .qm for Qt's %n plural: the boxes read "Delete 1 run(s)", "1 run folder(s)",
    "Moved 1 run(s)" and "The 1 edit(s) made here"."""
    from bertstudio.ui.run_words import changed_outside_text

    one, two = _run(session.project.runs_dir / "one"), _run(session.project.runs_dir / "two")
    asked = run_delete.confirm_text([one], session)
    assert asked.startswith("Delete 1 run: one?") and "1 run folder (4 files" in asked and "(s)" not in asked
    assert "puts it back" in asked
    asked = run_delete.confirm_text([one, two], session)
    assert asked.startswith("Delete 2 runs: one, two?") and "2 run folders (8 files" in asked and "(s)" not in asked
    said = run_delete.deleted_text([run_delete.Deleted(one, session.project.folder / "trash" / "one")])
    assert said.startswith("Moved 1 run to the project's trash folder") and "(s)" not in said
    said = changed_outside_text({"changed": "project.json", "kept": "labels.journal", "edits": 1})
    assert "The 1 edit made here and not yet saved into the data files is kept in labels.journal" in said
    said = changed_outside_text({"changed": "project.json", "kept": "labels.journal.kept-x", "edits": 1234})
    assert "The 1,234 edits made here" in said and "kept in labels.journal.kept-x" in said


def test_a_run_being_exported_or_pushed_is_not_deleted_or_renamed(qtbot, session, no_system_trash):
    """Deleted while File > Export model as ONNX read it, the export failed blaming the model and left
    its temporary folder in the run; each export and push now records its run, refused as a training
    run is until the job has ended."""
    from bertstudio.errors import ConfigError

    class Job:
        running = True

        def is_running(self) -> bool:
            return self.running

    alpha, beta = _run(session.project.runs_dir / "alpha"), _run(session.project.runs_dir / "beta")
    page = _page(qtbot, session)
    export, push = Job(), Job()
    run_delete.record_run_job(session, "export", alpha, export)
    run_delete.record_run_job(session, "push", beta, push)
    assert page.delete_runs([alpha]) is None
    assert page.refusals[-1] == "alpha is being exported: wait for the export or cancel it."
    assert page.delete_runs([beta]) is None and "beta is being pushed to the Hugging Face Hub" in page.refusals[-1]
    with pytest.raises(ConfigError) as refused:
        page.rename(alpha, "renamed")
    assert "being exported" in refused.value.facts["said"]
    assert alpha.is_dir() and beta.is_dir() and session.undo_stack.count() == 0
    export.running = False  # the export ended
    assert page.delete_runs([alpha]) is not None and not alpha.exists()


def test_a_trash_folder_that_cannot_be_written_is_named_in_the_refusal(qtbot, session, no_system_trash, monkeypatch):
    """With trash/ read-only, Delete run said "alpha was not deleted: Permission denied.", blaming the run."""
    run = _run(session.project.runs_dir / "alpha")
    trash = session.project.folder / "trash"
    trash.mkdir()
    made = Path.mkdir

    def mkdir(self: Path, *args, **kwargs):
        if self.parent == trash:
            raise PermissionError(13, "Permission denied", str(self))
        return made(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    page = _page(qtbot, session)
    assert page.delete_runs([run]) is None and run.is_dir()
    assert page.refusals == [f"alpha was not deleted: the project's trash folder {trash} cannot be written "
                             "(Permission denied)."]


def test_an_undo_of_a_run_moved_out_of_the_trash_is_boxed_as_an_undo_and_says_where_it_looked(
        qtbot, main_window, no_system_trash, monkeypatch):
    """The trash folder moved by hand: the Undo's box was titled "Could not save" (every failure's
    title) and said only "later was not put back: it is no longer in the trash", naming no folder."""
    from bertstudio.ui import main_window as window_module

    session = main_window.session
    run = _run(session.project.runs_dir / "later")
    page = main_window.pages["runs"]
    page.refresh()
    page.delete_runs([run])
    trash = session.project.folder / "trash"
    trash.rename(trash.with_name("trash_moved"))
    boxes: list[tuple[str, str]] = []
    monkeypatch.setattr(window_module.QMessageBox, "warning", lambda _parent, title, text: boxes.append((title, text)))
    main_window.undo_action.trigger()
    assert len(boxes) == 1
    title, text = boxes[0]
    assert title == "Could not undo Delete run later"
    assert f"it is no longer at {trash / 'later'}" in text and str(run) in text
    assert (trash.with_name("trash_moved") / "later" / "model" / "weights.bin").is_file() and not run.exists()
