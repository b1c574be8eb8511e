"""The window's side of issue 11 items 4 and 5: a held project is refused with a message even after
``project.lock`` was deleted, and Save / closing on a read-only folder show the core's message (no
traceback), close anyway, and leave the journal so a reopen has every edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from disk_faults import deny_writes
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.ui.main_window import MainWindow
from bertstudio.ui.session import ProjectSession

REPO = Path(__file__).resolve().parents[2]
ROWS = [{"text": f"review {i}", "label": None} for i in range(6)]


def _answer_boxes(seen: list[tuple[str, str]], details: list[str] | None = None) -> QTimer:
    """Close every modal message box that appears, recording (title, text), and into ``details``
    its detailed text."""

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append((box.windowTitle(), box.text()))
            if details is not None:
                details.append(box.detailedText())
            box.button(QMessageBox.StandardButton.Ok).click()

    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(close_box)
    timer.start()
    return timer


@pytest.mark.skipif(os.name == "nt", reason="POSIX processes")
def test_a_project_open_elsewhere_is_refused_even_without_its_lock_file(qtbot, main_window, tmp_path):
    folder = tmp_path / "held"
    Project.create(folder, name="held", kind="sentence", labels=["neg", "pos"]).close()
    script = textwrap.dedent("""
        import sys
        from bertstudio.data.project import Project
        p = Project.open(sys.argv[1])
        print("ready", flush=True)
        sys.stdin.readline()
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    holder = subprocess.Popen([sys.executable, "-c", script, str(folder)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert holder.stdout.readline().strip() == "ready", holder.stderr.read()
        (folder / "project.lock").unlink()
        seen: list[tuple[str, str]] = []
        timer = _answer_boxes(seen)
        assert not main_window.open_project(str(folder))
        timer.stop()
        assert seen and seen[0][0] == "Cannot open the project" and "open in another bertstudio window" in seen[0][1]
        assert main_window.session.project.name == "reviews"  # the window's own project stays open
    finally:
        holder.kill()
        holder.wait(timeout=60)


def _reviews_window(qtbot, tmp_path):
    """A shown window over a fresh two-label project of ROWS: (project, session, window)."""
    project = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", ROWS), "train")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    return project, session, window


def test_save_and_close_on_a_read_only_folder_show_the_message_and_lose_nothing(qtbot, tmp_path, monkeypatch):
    project, session, window = _reviews_window(qtbot, tmp_path)
    for row, value in enumerate(["pos", "neg", "pos"]):
        session.apply_gold("train", row, value, "label")
    journal = (project.folder / "labels.journal").read_bytes()

    deny_writes(monkeypatch)
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    window.save_action.trigger()
    assert len(seen) == 1 and seen[0][0] == "Could not save"
    assert "Read-only file system" in seen[0][1] and "labels.journal" in seen[0][1]
    assert window.isVisible() and session.project is project and not project.closed

    window.close()  # the close path folds the journal: it fails the same way, says so, and closes
    timer.stop()
    assert len(seen) == 2 and "Read-only file system" in seen[1][1]
    assert not window.isVisible() and project.closed and session.project is None
    monkeypatch.undo()
    assert (project.folder / "labels.journal").read_bytes() == journal
    with Project.open(project.folder) as again:
        assert [again.gold("train", r) for r in range(4)] == ["pos", "neg", "pos", None]


def test_an_edit_that_cannot_be_saved_says_so_and_never_reaches_the_undo_stack(qtbot, tmp_path, monkeypatch):
    """A read-only folder or a full disk: each label key used to fail silently (a traceback on
    stderr), move on to the next row and still add an undo entry; undo failed silently too."""
    from disk_faults import deny_appends
    from PySide6.QtCore import Qt

    project, session, window = _reviews_window(qtbot, tmp_path)
    window.show_page("label")
    editor = window.pages["label"].editor()
    editor.go_to(0)
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_2)  # saved: row 0 is pos, the editor moves on
    assert session.gold("train", 0) == "pos" and editor.row == 1 and session.undo_stack.count() == 1

    deny_appends(monkeypatch)
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    for _ in range(3):
        qtbot.keyClick(editor, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: len(seen) == 3)
    assert all(title == "Could not save" and "labels.journal" in text and "Read-only" in text for title, text in seen)
    assert session.gold("train", 1) is None and editor.row == 1  # not saved: the row stays in view
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()  # undoing the saved edit cannot be saved either: said, and taken off the stack
    qtbot.waitUntil(lambda: len(seen) == 4)
    assert session.gold("train", 0) == "pos" and session.undo_stack.count() == 0
    timer.stop()

    monkeypatch.undo()
    editor.go_to(1)
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert session.gold("train", 1) == "neg" and session.undo_stack.count() == 1
    window.close()
    with Project.open(project.folder) as again:
        assert [again.gold("train", r) for r in range(3)] == ["pos", "neg", None]


def test_a_project_on_a_read_only_medium_says_so_once_and_refuses_edits_without_a_box(qtbot, tmp_path, monkeypatch):
    """Opened from a read-only medium it said nothing; the first label key popped a box, each one
    after another, and closing popped "the edits could not be saved" about an edit made where the
    project was written (still in its journal), not here."""
    from disk_faults import read_only_medium
    from PySide6.QtCore import Qt

    project = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", ROWS), "train")
    project.set_gold("train", 0, "pos")
    project.close(compact=False)  # the edit travels in labels.journal
    journal = (tmp_path / "p" / "labels.journal").read_bytes()
    read_only_medium(monkeypatch, tmp_path / "p")
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    assert window.open_project(str(tmp_path / "p"))
    said = "Read-only: browse, predict and compare; labels and runs cannot be saved here"
    assert window.statusBar().currentMessage() == said
    assert "read-only" in window.project_label.text()

    window.show_page("label")
    editor = window.pages["label"].editor()
    editor.go_to(1)
    editor.setFocus()
    window.statusBar().clearMessage()
    for _ in range(3):
        qtbot.keyClick(editor, Qt.Key.Key_1)
    assert window.statusBar().currentMessage() == said  # the line again, in the status bar
    assert session.gold("train", 1) is None and session.undo_stack.count() == 0

    window.close()
    timer.stop()
    assert seen == [] and session.project is None  # no box: not per key, not at close
    monkeypatch.undo()
    assert (tmp_path / "p" / "labels.journal").read_bytes() == journal


def _ready_to_start(qtbot, tmp_path, tiny_model_dir, seeds: int = 1):
    """A window on the Train page of a project with 12 labelled rows, the tiny model on the CPU, Start enabled."""
    project, session, window = _reviews_window(qtbot, tmp_path)
    window.confirm_stop_training = lambda: True
    project.import_examples(from_records("sentence", [{"text": f"more {i}", "label": "neg pos".split()[i % 2]}
                                                      for i in range(12)]), "train")
    train = window.pages["train"]
    train.set_model_source(str(tiny_model_dir))
    train.device_combo.setCurrentText("cpu")
    train.form.seeds_spin.setValue(seeds)
    window.show_page("train")
    qtbot.waitUntil(train.start_button.isEnabled)
    return project, window, train


def test_start_where_the_run_folder_cannot_be_made_says_why_on_the_train_page(qtbot, tmp_path, monkeypatch,
                                                                              tiny_model_dir):
    """A full disk, a read-only `runs`, a `runs` that is a file: Start did nothing visible (the
    OSError escaped the slot to the log)."""
    from disk_faults import read_only_medium

    project, window, train = _ready_to_start(qtbot, tmp_path, tiny_model_dir)
    read_only_medium(monkeypatch, project.runs_dir)
    train.start_button.click()
    assert not train.is_running() and not list(project.runs_dir.iterdir())
    assert train.error_label.isVisibleTo(train)
    assert f"{project.runs_dir}: cannot create the run folder (Read-only file system)" in train.error_label.text()
    monkeypatch.undo()
    window.close()


def test_a_seeds_job_whose_second_folder_cannot_be_made_says_why_and_leaves_no_folder(qtbot, tmp_path, monkeypatch,
                                                                                      tiny_model_dir):
    """Seeds 3: the other seeds' run folders were made after the guarded start, so a full disk there
    escaped the slot (nothing said, the first seed's folder left empty on the Runs page)."""
    from pathlib import Path

    project, window, train = _ready_to_start(qtbot, tmp_path, tiny_model_dir, seeds=3)
    real, made = Path.mkdir, []

    def full_after_one(self, *args, **kwargs):  # the disk fills after the first seed's folder
        if self.parent == project.runs_dir and self.exists() is False:
            if made:
                raise OSError(28, "No space left on device")
            made.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", full_after_one)
    train.start_button.click()
    assert len(made) == 1 and not train.is_running()
    assert not list(project.runs_dir.iterdir())  # the first seed's folder, made and empty, is gone again
    assert train.error_label.isVisibleTo(train) and "No space left on device" in train.error_label.text()
    monkeypatch.undo()
    window.close()


def test_a_read_only_refusal_is_told_by_its_facts_not_by_its_english(qtbot, tmp_path):
    """The window told the read-only refusal by finding the core's English sentence in the message:
    a refusal reworded or wrapped on its way (undo's label_refusal(exc) or exc.message) brought
    back a box per key. It decides on the refusal's facts, and other refusals with facts are said
    in the interface's words."""
    from bertstudio.errors import DataError

    project, session, window = _reviews_window(qtbot, tmp_path)
    project.read_only = True
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    window.statusBar().clearMessage()
    session.report_failure(DataError("cannot save here, in other words", facts={"refusal": "read_only"}))
    assert window.statusBar().currentMessage() == window.read_only_line() and seen == []
    project.read_only = False
    runs = tmp_path / "p" / "runs"
    session.report_failure(DataError("cannot create the run folder: this is a file, not a folder", path=runs,
                                     facts={"refusal": "runs_is_file"}))
    qtbot.waitUntil(lambda: len(seen) == 1)
    timer.stop()
    assert seen == [("Could not save",
                     f"{runs} is a file, not a folder: no run folder can be made in it. Move the file away.")]
    window.close()


def test_import_into_a_read_only_project_is_refused_before_a_file_is_picked(qtbot, tmp_path, monkeypatch):
    """Import on a read-only project ran the whole dialog (a file picked, its labels mapped), then
    said the generic "the rows could not be stored … (Read-only file system)" and left the label
    step shown under a greyed Import. Now: the action is greyed with the read-only line as its
    tooltip, a dropped file is refused with that line, and a dialog opened anyway says it at once;
    a project found read-only only at Import says the same line and greys every choice."""
    from disk_faults import read_only_medium
    from PySide6.QtWidgets import QDialogButtonBox

    from bertstudio.ui.import_dialog import ImportDialog

    project = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", ROWS), "train")
    project.close()
    data = tmp_path / "more.csv"
    data.write_text("text,label\nhello,neg\nbye,other\n", encoding="utf-8")
    read_only_medium(monkeypatch, tmp_path / "p")
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    assert window.open_project(str(tmp_path / "p"))
    said = window.read_only_line()
    assert not window.import_action.isEnabled() and window.import_action.toolTip() == said
    # the other ways to add rows opened their dialogs and refused only when used: greyed, saying why
    add_button = window.pages["data"].add_button
    for action in (window.add_examples_action, window.restore_action, add_button):
        assert not action.isEnabled() and action.toolTip() == said, action

    window.statusBar().clearMessage()
    assert window.import_data(str(data)) is False  # a drop: no dialog, the line
    assert window.statusBar().currentMessage() == said

    dialog = ImportDialog(session, window, str(data))
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.error_label.text() == said and not ok.isEnabled() and not dialog.browse_button.isEnabled()
    assert session.split_size("train") == len(ROWS) and session.labels() == ["neg", "pos"]

    session.project.read_only = False  # found out only when the rows are stored
    late = ImportDialog(session, window, str(data))
    qtbot.addWidget(late)
    late.start_import()
    assert late.label_box.isVisibleTo(late)
    late.label_box.choose_rest("new")
    session.project.read_only = True
    late.start_import()
    ok = late.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert late.error_label.text() == said and not ok.isEnabled() and not late.label_box.isEnabled()
    assert late.status_label.text() == "" and session.labels() == ["neg", "pos"]
    assert session.split_size("train") == len(ROWS)
    monkeypatch.undo()
    window.close_project()
    assert window.open_project(str(tmp_path / "p"))  # writable again: back, with their own tips
    for action in (window.import_action, window.add_examples_action, window.restore_action, add_button):
        assert action.isEnabled() and action.toolTip() != said, action
    window.close()


def test_removing_a_label_in_a_read_only_project_says_it_is_read_only(qtbot, tmp_path):
    """Remove on a label rows use said "still used … relabel or clear those rows first": advice that
    cannot be followed here, since no row can be relabelled either. An unused label's removal said
    the core's English sentence. Both say the window's read-only line."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    project, session, window = _reviews_window(qtbot, tmp_path)
    session.apply_gold("train", 0, "pos", "label")
    session.add_label("meh")
    project.read_only = True
    dialog = LabelSetDialog(session, window)
    qtbot.addWidget(dialog)
    for name in ("pos", "meh"):  # used by row 0; used by no row
        dialog.error.clear()
        assert not dialog.remove_label(name)
        assert dialog.error.text() == window.read_only_line()
    assert session.labels() == ["neg", "pos", "meh"]
    project.read_only = False
    window.close()


def test_adding_an_example_to_a_read_only_project_says_it_is_read_only(qtbot, tmp_path):
    """Edit > Add examples… stores its rows as an import does: on a read-only project it said "Not
    added: /…/p: the project is read-only here (a read-only medium, …)", the core's English with the
    folder's path; it says the window's read-only line, and the typed text stays."""
    from bertstudio.ui.add_example_dialog import AddExampleDialog

    project, session, window = _reviews_window(qtbot, tmp_path)
    project.read_only = True
    dialog = AddExampleDialog(session, "train", window)
    qtbot.addWidget(dialog)
    dialog.editors["text"].setPlainText("a new review")
    assert not dialog.add()
    assert dialog.status.text() == f"Not added: {window.read_only_line()}"
    assert dialog.editors["text"].toPlainText() == "a new review" and session.split_size("train") == len(ROWS)
    project.read_only = False
    window.close()


def _held_project(tmp_path: Path) -> Path:
    """A closed two-label project of ROWS, row 0 labelled pos."""
    project = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", ROWS), "train")
    project.set_gold("train", 0, "pos")
    project.close()
    return project.folder


def test_a_project_viewers_hold_offers_open_read_only_which_browses_every_page_and_refuses_edits(qtbot, tmp_path):
    """A project open in another window could only be refused, although the app has a full
    read-only mode (sweep_twoproc item 4): the refusal box now offers Open read-only."""
    from PySide6.QtCore import Qt

    from bertstudio.ui.main_window import PAGES

    folder = _held_project(tmp_path)
    viewer = Project.open(folder, read_only=True)  # another window's read-only view
    try:
        session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        asked: list[str] = []
        answers = iter([False, True])  # Cancel, then Open read-only

        def answer(message: str) -> bool:
            asked.append(message)
            return next(answers)

        window.confirm_open_read_only = answer
        seen: list[tuple[str, str]] = []
        timer = _answer_boxes(seen)
        assert not window.open_project(str(folder)) and session.project is None
        assert window.open_project(str(folder))
        assert asked[1] == "The project is open read-only in another bertstudio window."  # once, in the UI's words
        assert session.project.read_only and "read-only" in window.project_label.text()
        said = window.read_only_line()
        assert window.statusBar().currentMessage() == said
        for key, *_ in PAGES:
            window.show_page(key)
            assert window.current_page_key() == key
        assert session.gold("train", 0) == "pos"  # what was saved is on show

        window.show_page("label")
        editor = window.pages["label"].editor()
        editor.go_to(1)
        editor.setFocus()
        window.statusBar().clearMessage()
        qtbot.keyClick(editor, Qt.Key.Key_1)
        assert window.statusBar().currentMessage() == said
        assert session.gold("train", 1) is None and session.undo_stack.count() == 0
        window.close()
        timer.stop()
        assert seen == [] and session.project is None  # no warning box: not at the offer, not at close
    finally:
        viewer.close()
    with Project.open(folder) as again:  # the viewers gone, a writer gets in; nothing was written
        assert [again.gold("train", r) for r in range(2)] == ["pos", None]


def test_a_project_a_writer_holds_is_refused_without_the_offer(qtbot, tmp_path):
    """A viewer is refused while a writer holds the project (its files change under a view), so
    offering Open read-only then would only lead to a second refusal."""
    folder = _held_project(tmp_path)
    writer = Project.open(folder)
    try:
        window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
        qtbot.addWidget(window)
        window.show()
        window.confirm_open_read_only = lambda message: pytest.fail(f"offered read-only: {message}")
        seen: list[tuple[str, str]] = []
        details: list[str] = []
        timer = _answer_boxes(seen, details)
        assert not window.open_project(str(folder))
        timer.stop()
        assert len(seen) == 1 and seen[0][0] == "Cannot open the project"
        # one sentence in the UI's words (it said the same twice, "(expected close it …)" and a bare pid),
        # the pid under the details
        assert seen[0][1].startswith("The project is open in another bertstudio window, where it can be edited: "
                                     "close it there first")
        assert "pid" not in seen[0][1] and "expected" not in seen[0][1]
        assert str(os.getpid()) in details[0] and str(folder) in details[0]
        window.close()
    finally:
        writer.close()


def _pull_other_version(folder) -> None:
    """Another version of project.json put in place as ``git pull`` does (written aside, renamed over)."""
    from bertstudio.data.project_meta import encode_meta

    pulled = json.loads((folder / "project.json").read_text())
    pulled["name"] = "reviews (theirs)"
    (folder / "pulled.json").write_bytes(encode_meta(pulled))
    os.replace(folder / "pulled.json", folder / "project.json")


def test_a_project_changed_outside_is_said_in_one_box_then_each_edit_is_refused_in_the_status_bar(qtbot, tmp_path):
    """A git pull replaced project.json under the open window: the app wrote on, and its close wrote its
    project.json over the pulled one. Now the first edit after it says so in one box (the interface's
    words), later keys and the close say the same line without a box, and the pulled file stays."""
    from PySide6.QtCore import Qt

    project, session, window = _reviews_window(qtbot, tmp_path)
    window.show_page("label")
    editor = window.pages["label"].editor()
    editor.go_to(0)
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert session.gold("train", 0) == "neg"
    folder = tmp_path / "p"
    _pull_other_version(folder)
    theirs = (folder / "project.json").read_bytes()
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    editor.go_to(1)
    editor.setFocus()
    for _ in range(3):
        qtbot.keyClick(editor, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: len(seen) == 1)
    title, text = seen[0]
    assert title == "Could not save" and "labels.journal" in text and "Reopen the project (File > Open project…)." in text
    assert text.startswith("The project was changed outside bertstudio")  # the interface's words, not a path first
    assert window.statusBar().currentMessage() == text  # the later keys: the same line, no box
    assert session.gold("train", 1) is None
    window.close()
    timer.stop()
    assert len(seen) == 1 and session.project is None  # the close: no second box
    assert (folder / "project.json").read_bytes() == theirs


def test_a_kept_journal_copy_is_said_to_be_listed_at_the_reopen_not_applied(qapp):
    """A copy kept because the journal was replaced is only listed by the next open: the line said
    'reopening the project applies them'."""
    from bertstudio.ui.run_words import changed_outside_text

    kept = changed_outside_text({"changed": "labels.journal", "kept": "labels.journal.kept-20260101T000000Z",
                                 "edits": 2})
    assert "labels.journal.kept-20260101T000000Z" in kept and "does not apply them" in kept
    assert "applies them" not in kept
    own = changed_outside_text({"changed": "project.json", "kept": "labels.journal", "edits": 2})
    assert "applies them or lists each one it cannot" in own


def test_open_project_on_the_folder_that_refuses_reopens_it(qtbot, tmp_path):
    """The refusal says 'Reopen the project (File > Open project…)'; opening the same folder did nothing
    (the refusing project stayed open and every key was still refused)."""
    project, session, window = _reviews_window(qtbot, tmp_path)
    session.apply_gold("train", 0, "neg", "label")
    folder = tmp_path / "p"
    _pull_other_version(folder)
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    assert project.changed_outside() is not None
    assert window.open_project(str(folder))
    reopened = session.project
    assert reopened is not project and project.closed and reopened.name == "reviews (theirs)"
    assert reopened.changed_outside() is None
    session.apply_gold("train", 1, "pos", "label")  # written again
    assert reopened.gold("train", 1) == "pos"
    window.close()
    timer.stop()


def test_a_read_only_window_becomes_writable_by_open_project_once_the_viewer_has_gone(qtbot, tmp_path):
    """Opened read-only because another window viewed it, the window stayed read-only after that window
    had closed: File > Open project on the folder returned True and did nothing, and nothing said how
    to become writable (sweep_newcomer3 item 3). The read-only line says how; Open project tries a
    writable open, and stays read-only saying why while the viewer is still there."""
    from PySide6.QtCore import Qt

    folder = _held_project(tmp_path)
    viewer = Project.open(folder, read_only=True)  # another window's read-only view
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    asked: list[str] = []
    window.confirm_open_read_only = lambda message: asked.append(message) or True
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    try:
        assert window.open_project(str(folder)) and session.project.read_only and len(asked) == 1
        said = window.read_only_line()
        assert "File > Open project" in said and window.statusBar().currentMessage() == said
        assert said in window.project_label.toolTip()
        window.show_page("runs")
        session.set_current("train", 3)

        assert window.open_project(str(folder))  # the viewer is still there
        assert session.project.read_only and len(asked) == 1  # not asked again
        assert window.statusBar().currentMessage().startswith("Still read-only: the project is still open in "
                                                              "another bertstudio window.")
        assert (window.current_page_key(), session.current_row) == ("runs", 3)  # where it was

        viewer.close()
        assert window.open_project(str(folder))
        assert not session.project.read_only and "read-only" not in window.project_label.text()
        assert window.statusBar().currentMessage() == "" and window.import_action.isEnabled()
        assert (window.current_page_key(), session.current_row) == ("runs", 3)
        window.show_page("label")
        editor = window.pages["label"].editor()
        editor.go_to(1)
        editor.setFocus()
        qtbot.keyClick(editor, Qt.Key.Key_2)
        assert session.gold("train", 1) == "pos"  # written
        window.close()
        timer.stop()
        assert seen == []
    finally:
        viewer.close()
    with Project.open(folder) as again:
        assert [again.gold("train", r) for r in range(2)] == ["pos", "pos"]


@pytest.mark.parametrize("then", ["reopen", "close"])
def test_opening_or_closing_the_project_clears_its_refusal_line(qtbot, tmp_path, then):
    """After the changed-outside refusal, File > Open project (the reopen it asks for) or File > Close
    project left "…Reopen the project (File > Open project…)." in the status bar for 15 s, over a
    project that was writable again, or none (sweep_newcomer3 item 5)."""
    from PySide6.QtCore import Qt

    project, session, window = _reviews_window(qtbot, tmp_path)
    folder = tmp_path / "p"
    _pull_other_version(folder)
    seen: list[tuple[str, str]] = []
    timer = _answer_boxes(seen)
    window.show_page("label")
    editor = window.pages["label"].editor()
    editor.go_to(1)
    editor.setFocus()
    for _ in range(2):  # the box, then the status line
        qtbot.keyClick(editor, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: len(seen) == 1)
    assert "Reopen the project" in window.statusBar().currentMessage()
    assert window.open_project(str(folder)) if then == "reopen" else window.close_project()
    assert window.statusBar().currentMessage() == ""
    window.close()
    timer.stop()
    assert len(seen) == 1
