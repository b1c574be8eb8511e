"""Dev and test gold is what runs are scored against: an import does not send the Label page onto it, and
a key that replaces it asks once per opened project, then says so in the status bar (a newcomer's 1
on an imported SST-2 dev set changed its gold in silence)."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Qt

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.main_window import MainWindow
from bertstudio.ui.session import ProjectSession

LABELS = ["negative", "positive"]
TRAIN = [{"text": f"t{i}", "label": "positive" if i == 0 else None} for i in range(4)]
DEV = [{"text": f"d{i}", "label": LABELS[i % 2]} for i in range(3)]


def test_importing_a_labelled_dev_set_leaves_the_label_page_on_train_also_after_reopening(qtbot, tmp_path):
    project = Project.create(tmp_path / "p", name="sst", kind="sentence", labels=LABELS)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(ProjectSession(project, settings=settings))
    qtbot.addWidget(window)
    session = window.session
    for split, rows in (("train", TRAIN), ("dev", DEV)):  # what the Import dialog stores, then tells the window
        session.import_examples(from_records("sentence", rows, labels=LABELS), split)
        window._on_imported(split, len(rows))
    assert (session.current_split, session.current_row) == ("train", 1)  # its first row without gold
    # the Data page agrees with the Label page and the status bar (it showed dev beside them on train);
    # the status bar says where the rows went
    assert window.pages["data"].split == "train" and window.split_label.text() == "Split: train"
    assert window.statusBar().currentMessage() == ("Imported 3 rows into dev; the pages stay on train, where rows "
                                                   "wait for labels")
    window.show_page("label")
    assert window.pages["label"].split_combo.currentData() == "train"
    folder = project.folder
    window.close()
    assert json.loads((folder / "project.json").read_text())["ui_state"]["split"] == "train"


def test_an_import_into_another_split_keeps_the_place_being_labelled(qtbot, tmp_path):
    project = Project.create(tmp_path / "p", name="sst", kind="sentence", labels=LABELS)
    window = MainWindow(ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"),
                                                                   QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    session = window.session
    session.import_examples(from_records("sentence", TRAIN, labels=LABELS), "train")
    window._on_imported("train", len(TRAIN))
    session.set_current("train", 3)
    session.import_examples(from_records("sentence", [{"text": "x", "label": None}], labels=LABELS), "test")
    window._on_imported("test", 1)
    assert (session.current_split, session.current_row) == ("train", 3)
    window.close()


def test_a_key_replacing_dev_gold_asks_once_then_says_what_changed(qtbot, session_factory):
    session = session_factory("sentence", LABELS, {"train": TRAIN, "dev": DEV})
    page = LabelPage(session)
    qtbot.addWidget(page)
    page.show()
    asked: list[tuple] = []
    answers = [False, True]
    page.confirm_gold_overwrite = lambda *args: (asked.append(args), answers.pop(0))[1]
    editor, project = page.editor(), session.project

    session.set_current("train", 0)  # train gold: the user's own labelling, neither asked nor noted
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert project.gold("train", 0) == "negative" and asked == []

    session.set_current("dev", 0)
    qtbot.keyClick(editor, Qt.Key.Key_1)  # the label it has: nothing replaced, nothing asked
    assert asked == []
    session.set_current("dev", 0)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # declined: the gold stays
    assert asked == [("dev", 0, "negative", "positive")] and project.gold("dev", 0) == "negative"
    with qtbot.waitSignal(page.status_message, check_params_cb=lambda text: "→" in text) as said:
        qtbot.keyClick(editor, Qt.Key.Key_2)  # asked again, and this time changed
    assert project.gold("dev", 0) == "positive" and len(asked) == 2
    assert said.args == ["dev row 1: negative → positive (Ctrl+Z undoes)"]
    session.set_current("dev", 1)  # asked once: the next replacement is only said
    with qtbot.waitSignal(page.status_message, check_params_cb=lambda text: "→" in text) as said:
        qtbot.keyClick(editor, Qt.Key.Key_1)
    assert project.gold("dev", 1) == "negative" and len(asked) == 2
    assert said.args == ["dev row 2: positive → negative (Ctrl+Z undoes)"]
    session.undo_stack.undo()
    assert project.gold("dev", 1) == "positive"


def _window(qtbot, tmp_path, splits: dict[str, list[dict]], current: str) -> MainWindow:
    project = Project.create(tmp_path / "p", name="sst", kind="sentence", labels=LABELS)
    for split, rows in splits.items():
        project.import_examples(from_records("sentence", rows, labels=LABELS), split)
    window = MainWindow(ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"),
                                                                   QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.session.set_current(current, 0)
    window.pages["data"].show_split(current)
    return window


def test_an_import_that_moves_the_pages_says_they_moved(qtbot, tmp_path):
    """On dev's gold (fully labelled), 3 labelled rows imported into test: the pages went to train, where rows
    wait, and the status bar said they "stay on train"."""
    window = _window(qtbot, tmp_path, {"train": TRAIN, "dev": DEV}, "dev")
    session = window.session
    session.import_examples(from_records("sentence", DEV, labels=LABELS), "test")
    window._on_imported("test", len(DEV))
    assert (session.current_split, session.current_row) == ("train", 1) and window.pages["data"].split == "train"
    assert window.statusBar().currentMessage() == ("Imported 3 rows into test; the pages moved to train, where rows "
                                                   "wait for labels")
    window.close()


def test_with_every_split_labelled_a_labelled_dev_import_leaves_the_pages_off_its_gold(qtbot, tmp_path):
    """Train fully labelled, a labelled dev set imported: with no row waiting anywhere the Label page went to
    dev's row 1, where the next key replaces the gold runs are scored against."""
    labelled = [{"text": f"t{i}", "label": LABELS[i % 2]} for i in range(4)]
    window = _window(qtbot, tmp_path, {"train": labelled}, "train")
    session = window.session
    session.set_current("train", 2)
    session.import_examples(from_records("sentence", DEV, labels=LABELS), "dev")
    window._on_imported("dev", len(DEV))
    assert (session.current_split, session.current_row) == ("train", 2) and window.pages["data"].split == "train"
    assert window.statusBar().currentMessage() == "Imported 3 rows into dev; the pages stay on train"
    window.close()


def test_the_import_status_counts_one_row_and_groups_thousands(qtbot, tmp_path):
    """The status bar said "Imported 1 rows into dev" and "Imported 12000 rows": the house's counted words
    (1 row, 12,000 rows), as the Label set dialog says them."""
    labelled = [{"text": f"t{i}", "label": LABELS[i % 2]} for i in range(4)]
    window = _window(qtbot, tmp_path, {"train": labelled}, "train")
    session = window.session
    session.import_examples(from_records("sentence", DEV[:1], labels=LABELS), "dev")
    window._on_imported("dev", 1)
    assert window.statusBar().currentMessage() == "Imported 1 row into dev; the pages stay on train"
    window._on_imported("dev", 12_000)  # the count as the Import dialog tells it
    assert window.statusBar().currentMessage() == "Imported 12,000 rows into dev; the pages stay on train"
    window.close()
