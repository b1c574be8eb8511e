"""A second import into a split that holds rows, through the real dialog (issue 11, item 1).

The dialog says what the split holds, Append is the default, Replace is asked
once more, Edit > Undo / Redo swap the rows back and forth, the replaced rows
survive a reopen as a backup that Edit > Restore replaced rows brings back, and
the Label page counts the rows the split holds now.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox, QPushButton, QToolBar

from bertstudio.data.examples import from_records
from bertstudio.ui.import_dialog import ImportDialog

OLD = [{"text": f"old review {i}", "label": ("neg", "pos")[i % 2]} for i in range(300)]


def _ok(dialog: ImportDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def _csv(tmp_path: Path, rows: int) -> Path:
    # a name and folder no GLUE layout knows: the dialog proposes the train split
    path = tmp_path / "more_reviews.csv"
    path.write_text("text,label\n" + "".join(f"new review {i},{('pos', 'neg')[i % 2]}\n" for i in range(rows)),
                    encoding="utf-8")
    return path


def _window_with_300_labelled_rows(main_window):
    main_window.session.project.import_examples(from_records("sentence", OLD), "train")
    main_window.show_page("label")
    return main_window.session, main_window.pages["label"]


def _dialog(qtbot, main_window, path: Path) -> ImportDialog:
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_a_second_file_is_appended_by_default(qtbot, main_window, tmp_path):
    session, label_page = _window_with_300_labelled_rows(main_window)
    dialog = _dialog(qtbot, main_window, _csv(tmp_path, 100))
    assert dialog.target.split() == "train"
    assert dialog.target.state_label.text() == "train holds 300 rows, 300 labelled."
    assert dialog.target.append_radio.isChecked() and not dialog.target.replace_radio.isChecked()
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)  # no question: nothing is replaced
    assert session.split_size("train") == 400 and session.project.labels == ["neg", "pos"]
    assert session.row("train", 0)["text"] == "old review 0" and session.row("train", 300)["text"] == "new review 0"
    assert label_page.position.text() == "example 1 of 400"
    assert (label_page.progress.value(), label_page.progress.maximum()) == (400, 400)
    assert session.project.split_backups() == []


def test_replace_asks_then_undo_redo_and_a_reopen_bring_the_rows_back(qtbot, main_window, tmp_path):
    session, label_page = _window_with_300_labelled_rows(main_window)
    session.set_current("train", 250)
    assert label_page.position.text() == "example 251 of 300"
    dialog = _dialog(qtbot, main_window, _csv(tmp_path, 100))
    qtbot.mouseClick(dialog.target.replace_radio, Qt.MouseButton.LeftButton)
    assert dialog.target.replace()
    answers, seen = iter(["Cancel", "Replace"]), []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        seen.append((box.objectName(), box.text()))
        if next(answers) == "Replace":
            box.findChild(QPushButton, "replaceConfirmButton").click()
        else:
            box.button(QMessageBox.StandardButton.Cancel).click()

    QTimer.singleShot(0, answer)
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert seen == [("replaceConfirm", "Replace the 300 rows of train (300 labelled) by the 100 rows of the file?")]
    assert session.split_size("train") == 300 and dialog.isVisible()  # Cancel: nothing changed

    QTimer.singleShot(0, answer)
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.split_size("train") == 100 and session.row("train", 0)["text"] == "new review 0"
    # the Label page counts the new rows at once: the row moved into range, both counters agree
    assert label_page.position.text() == "example 100 of 100"
    assert (label_page.progress.value(), label_page.progress.maximum()) == (100, 100)

    # the toolbar's Undo keeps its short name (it grew with the command's text); the tooltip says what
    button = main_window.findChild(QToolBar, "mainToolBar").widgetForAction(main_window.undo_action)
    assert button.text() == "Undo" and main_window.undo_action.toolTip().startswith("Undo ")
    assert main_window.undo_action.toolTip() != "Undo" and main_window.undo_action.text() != "&Undo"
    main_window.undo_action.trigger()  # Edit > Undo
    assert session.split_size("train") == 300
    assert [session.gold("train", r) for r in (0, 1, 299)] == ["neg", "pos", "pos"]
    assert session.row("train", 299)["text"] == "old review 299"
    assert label_page.position.text() == "example 1 of 300" and label_page.progress.maximum() == 300
    main_window.redo_action.trigger()
    assert session.split_size("train") == 100 and session.row("train", 5)["text"] == "new review 5"
    main_window.undo_action.trigger()
    assert session.split_size("train") == 300

    # after a reopen the undo history is gone, but the replaced rows are kept in the project folder
    folder = session.project.folder
    session.close()
    assert main_window.open_project(str(folder))
    project = session.project
    backups = project.split_backups("train")
    assert [b["rows"] for b in backups] == [300, 100, 300, 100]
    offered = []

    def pick_newest() -> None:
        chooser = QApplication.activeModalWidget()
        offered.extend(chooser.comboBoxItems())
        chooser.accept()  # the first item: the newest backup

    QTimer.singleShot(0, pick_newest)
    main_window.restore_action.trigger()  # Edit > Restore replaced rows…
    assert len(offered) == 4 and offered[0].startswith("train: 100 rows, 100 labelled (replaced ")
    assert session.split_size("train") == 100 and session.row("train", 0)["text"] == "new review 0"
    main_window.undo_action.trigger()
    assert session.split_size("train") == 300 and session.gold("train", 1) == "pos"


def test_the_label_page_follows_a_replace_made_in_the_core(qtbot, main_window):
    session, label_page = _window_with_300_labelled_rows(main_window)
    assert label_page.position.text() == "example 1 of 300"
    session.project.import_examples(from_records("sentence", OLD[:100]), "train", replace=True)
    assert label_page.position.text() == "example 1 of 100"
    assert (label_page.progress.value(), label_page.progress.maximum()) == (100, 100)


def test_undoing_a_replace_that_added_a_class_takes_the_class_away_and_redo_brings_it_back(qtbot, main_window):
    """The rows came back on Undo but the class the import added ('meh') stayed in the label set."""
    session, _label_page = _window_with_300_labelled_rows(main_window)
    new = from_records("sentence", [{"text": f"new {i}", "label": ("pos", "meh")[i % 2]} for i in range(10)])
    session.import_examples(new, "train", replace=True, add_labels=True)
    assert session.project.labels == ["neg", "pos", "meh"] and session.split_size("train") == 10
    main_window.undo_action.trigger()
    assert session.project.labels == ["neg", "pos"] and session.split_size("train") == 300
    assert session.undo_stack.canRedo()  # the stack was kept: removing the class was part of the undo
    main_window.redo_action.trigger()
    assert session.project.labels == ["neg", "pos", "meh"] and session.gold("train", 1) == "meh"
    main_window.undo_action.trigger()
    assert session.project.labels == ["neg", "pos"]


def test_appending_rows_the_split_already_has_asks_and_skips_them_by_default(qtbot, main_window, tmp_path):
    """A long-session drive appended 25 rows of which 10 were already there, 5 labelled the other
    way: the same sentence then held two labels, both counted, trained on and exported, unsaid."""
    session, _label_page = _window_with_300_labelled_rows(main_window)
    path = tmp_path / "more.csv"
    path.write_text("text,label\nold review 0,pos\nold review 1,pos\nold review 2,neg\nbrand new,pos\n",
                    encoding="utf-8")
    dialog = _dialog(qtbot, main_window, path)
    asked: list[tuple[int, int]] = []
    answers = iter([None, "skip"])

    def confirm(repeats, split, rows):  # the real box is driven below; here the counts are read
        asked.append((len(repeats), repeats.relabelled))
        return next(answers)

    dialog.confirm_repeats = confirm
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)  # Cancel: nothing imported
    assert asked == [(3, 1)] and session.split_size("train") == 300 and dialog.isVisible()
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.split_size("train") == 301 and session.row("train", 300)["text"] == "brand new"
    assert [session.gold("train", r) for r in (0, 1, 2)] == ["neg", "pos", "neg"]  # the project's labels stand


def test_the_repeats_question_is_a_real_box_and_import_all_adds_the_copies(qtbot, main_window, tmp_path):
    session, _label_page = _window_with_300_labelled_rows(main_window)
    path = tmp_path / "again.csv"
    path.write_text("text,label\nold review 0,pos\nold review 5,pos\n", encoding="utf-8")
    dialog = _dialog(qtbot, main_window, path)
    seen = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        seen.append((box.objectName(), box.text(), box.informativeText()))
        box.findChild(QPushButton, "repeatsAllButton").click()

    QTimer.singleShot(0, answer)
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert seen[0][0] == "repeatsConfirm"
    assert seen[0][1] == "2 of the file's 2 rows repeat examples already in train."
    assert seen[0][2].startswith("1 of them carry another label than the project's copy.")
    assert session.split_size("train") == 302


def test_undoing_a_restore_takes_away_the_label_it_brought_back(session_factory):
    """Replace, remove the label no row uses any more, Restore replaced rows: the restored rows
    bring "neg" back as a class, and undoing the restore left it in the label set, used by no row."""
    from bertstudio.data.examples import from_records

    rows = [{"text": f"old {i}", "label": ("neg", "pos")[i % 2]} for i in range(4)]
    session = session_factory("sentence", ["neg", "pos"], {"train": rows})
    session.import_examples(from_records("sentence", [{"text": "new", "label": "pos"}], labels=["neg", "pos"]),
                            "train", replace=True)
    session.project.remove_label("neg")
    session.restore_split_backup(session.project.split_backups()[0]["id"])
    assert session.labels() == ["pos", "neg"]
    session.undo_stack.undo()
    assert session.labels() == ["pos"] and session.split_size("train") == 1


def test_restore_after_a_rename_brings_the_rows_back_under_the_new_name(session_factory):
    """Replace, rename neg -> negative, Restore replaced rows: the rows come back as "negative",
    not as a second class "neg" beside it; undo and redo keep it so."""
    from bertstudio.data.examples import from_records

    rows = [{"text": f"old {i}", "label": ("neg", "pos")[i % 2]} for i in range(4)]
    session = session_factory("sentence", ["neg", "pos"], {"train": rows, "dev": rows})
    session.import_examples(from_records("sentence", [{"text": "new", "label": "pos"}], labels=["neg", "pos"]),
                            "train", replace=True)
    session.rename_label("neg", "negative")
    session.restore_split_backup(session.project.split_backups()[0]["id"])
    assert session.labels() == ["negative", "pos"]
    assert session.project.label_counts("train") == {"negative": 2, "pos": 2}
    session.undo_stack.undo()
    assert session.split_size("train") == 1
    session.undo_stack.redo()
    assert session.labels() == ["negative", "pos"] and session.project.label_counts("train") == {"negative": 2, "pos": 2}


def test_undo_then_redo_of_a_replace_that_added_classes_keeps_their_places_and_colours(session_factory):
    """Undo took the imported classes away, redo appended them at the end in default colours:
    the number keys and the model's label ids of two classes swapped."""
    from bertstudio.data.examples import from_records

    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": "old", "label": "neg"}]})
    new = from_records("sentence", [{"text": "a", "label": "meh"}, {"text": "b", "label": "wow"}],
                       labels=["meh", "wow"])
    session.import_examples(new, "train", replace=True, add_labels=True)
    session.project.set_label_color("meh", "#ff0000")
    session.project.set_label_color("wow", "#00ff00")
    session.project.add_label("zzz")
    before = (session.labels(), dict(session.project.label_colors))
    assert before[0] == ["neg", "pos", "meh", "wow", "zzz"]
    session.undo_stack.undo()
    assert session.labels() == ["neg", "pos", "zzz"]
    session.undo_stack.redo()
    assert (session.labels(), dict(session.project.label_colors)) == before
