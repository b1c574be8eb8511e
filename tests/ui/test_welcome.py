"""A new user's first window: the welcome panel in place of the Data and Label pages while no
project is open (new, open, recent projects), and a data file dropped with no project open
making a project for it, then importing it."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from bertstudio.data.project import Project
from bertstudio.ui.main_window import MainWindow
from bertstudio.ui.session import ProjectSession


def bare_window(qtbot, tmp_path, recent=()):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    if recent:
        settings.setValue("recentProjects", list(recent))
    window = MainWindow(ProjectSession(settings=settings))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_without_a_project_the_data_and_label_pages_show_where_to_start(qtbot, tmp_path):
    project = Project.create(tmp_path / "reviews", name="reviews", kind="sentence", labels=["neg", "pos"])
    project.close()
    gone = str(tmp_path / "deleted-project")
    window = bare_window(qtbot, tmp_path, recent=[str(project.folder), gone])
    welcome = window.welcome
    assert window.page_stack.currentWidget() is welcome and welcome.isVisible()
    assert window.current_page_key() == "data"
    assert welcome.new_button.isEnabled() and welcome.open_button.isEnabled()
    items = [welcome.recent_list.item(i) for i in range(welcome.recent_list.count())]
    assert [i.text() for i in items] == [str(project.folder), f"{gone} (not found)"]
    assert items[0].flags() & Qt.ItemFlag.ItemIsEnabled and not items[1].flags() & Qt.ItemFlag.ItemIsEnabled
    window.show_page("label")
    assert window.page_stack.currentWidget() is welcome and window.current_page_key() == "label"
    window.show_page("train")  # a page that explains itself stays itself
    assert window.page_stack.currentWidget() is window.pages["train"]
    window.show_page("label")  # the list is filled afresh each time the panel shows
    items = [welcome.recent_list.item(i) for i in range(welcome.recent_list.count())]
    welcome._on_recent_chosen(items[1])  # the missing folder: nothing happens
    assert not window.session.has_project()
    rect = welcome.recent_list.visualItemRect(items[0])
    qtbot.mouseClick(welcome.recent_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.has_project() and window.session.project.name == "reviews"
    assert window.page_stack.currentWidget() is window.pages["label"]  # the page the user was on
    window.close_action.trigger()
    assert not window.session.has_project() and window.page_stack.currentWidget() is welcome


def test_the_welcome_buttons_open_the_new_project_dialog(qtbot, tmp_path):
    window = bare_window(qtbot, tmp_path)
    assert not window.welcome.recent_list.isVisible()  # nothing recent yet: no empty list
    seen = {}

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        seen["dialog"] = dialog.objectName()
        dialog.reject()

    QTimer.singleShot(0, cancel)
    qtbot.mouseClick(window.welcome.new_button, Qt.MouseButton.LeftButton)
    assert seen == {"dialog": "newProjectDialog"} and not window.session.has_project()


def test_a_file_dropped_without_a_project_makes_one_for_it_then_imports_it(qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    path = data / "reviews.csv"
    content = 'text,label\n"loved it, truly",pos\nmeh,neg\nno label yet,\n'
    path.write_text(content, encoding="utf-8")
    window = bare_window(qtbot, tmp_path)
    seen = {}

    def import_it() -> None:
        dialog = QApplication.activeModalWidget()
        seen["import"] = (dialog.objectName(), dialog.format_combo.currentData())
        dialog.split_combo.setCurrentIndex(dialog.split_combo.findData("train"))
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    def create() -> None:
        dialog = QApplication.activeModalWidget()
        seen["new"] = (dialog.name_edit.text(), dialog.folder_edit.text(), dialog.kind(), dialog.note_label.text())
        qtbot.keyClicks(dialog.labels_edit, "neg, pos")
        QTimer.singleShot(0, import_it)
        qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok),
                         Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, create)
    assert window.import_data(str(path))
    name, folder, kind, note = seen["new"]
    assert (name, folder, kind) == ("reviews", str(data), "sentence") and "reviews.csv is imported" in note
    assert seen["import"] == ("importDialog", "csv")
    session = window.session
    assert session.project.folder == data / "reviews"  # a new folder beside the file, never the file's own
    assert [session.gold("train", r) for r in range(3)] == ["pos", "neg", None]
    assert path.read_text(encoding="utf-8") == content  # the dropped file is read, not touched
    assert window.page_stack.currentWidget() is window.pages["data"]


def test_a_dropped_file_and_a_cancelled_new_project_import_nothing(qtbot, tmp_path):
    path = tmp_path / "tags.conllu"
    path.write_text("1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    window = bare_window(qtbot, tmp_path)
    seen = {}

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        seen["kind"] = dialog.kind()  # CoNLL-U: a tagging project is proposed
        dialog.reject()

    QTimer.singleShot(0, cancel)
    assert not window.import_data(str(path))
    assert seen == {"kind": "tagging"} and not window.session.has_project()
    assert [p.name for p in tmp_path.iterdir() if p.name != "settings.ini"] == ["tags.conllu"]  # nothing made


def test_a_recent_project_out_of_reach_leaves_the_app_usable(qtbot, tmp_path):
    """A recent project whose path cannot even be looked at (a folder you may no longer enter,
    a name too long) stopped the window from being built; opening one raised out of File > Open."""
    unreachable = str(tmp_path / ("x" * 300))  # looking at it raises, as a folder without permission does
    window = bare_window(qtbot, tmp_path, recent=[unreachable])
    item = window.welcome.recent_list.item(0)
    assert item.text() == f"{unreachable} (not reachable)" and not item.flags() & Qt.ItemFlag.ItemIsEnabled
    seen: list[str] = []
    timer = QTimer()
    timer.timeout.connect(lambda: isinstance(w := QApplication.activeModalWidget(), QMessageBox)
                          and (seen.append(w.text()) or w.button(QMessageBox.StandardButton.Ok).click()))
    timer.start(20)
    assert not window.open_project(unreachable)
    qtbot.waitUntil(lambda: len(seen) == 1)
    timer.stop()
    assert "cannot be opened (File name too long)" in seen[0] and not window.session.has_project()


def test_blank_recent_entries_are_not_listed(qtbot, tmp_path):
    """A sweep: an empty string among the recent projects showed as a blank File > Open recent
    item that opened the folder picker."""
    from bertstudio.ui.actions import fill_recent_menu

    project = Project.create(tmp_path / "kept", name="kept", kind="sentence", labels=["neg", "pos"])
    project.close()
    window = bare_window(qtbot, tmp_path, recent=["", str(project.folder), "   "])
    assert window.session.recent_projects() == [str(project.folder)]
    fill_recent_menu(window)
    assert [a.text() for a in window.recent_menu.actions()] == [str(project.folder)]
    assert [window.welcome.recent_list.item(i).text() for i in range(window.welcome.recent_list.count())] == [
        str(project.folder)]


def test_the_welcome_panel_lists_plain_text_among_the_files_it_takes(qtbot, tmp_path):
    """A tagging project reads a .txt of sentences, one a line; the drop note listed only
    CSV, TSV, JSON Lines, CoNLL and SQuAD."""
    from PySide6.QtWidgets import QLabel

    window = bare_window(qtbot, tmp_path)
    note = window.welcome.findChild(QLabel, "welcomeDropNote").text()
    assert "plain text (.txt, one sentence a line)" in note and "CSV, TSV, JSON Lines" in note, note
