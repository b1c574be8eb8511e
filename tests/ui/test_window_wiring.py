"""Main-window wiring between pages: a run double-clicked opens its results, a repaired project
says so without blocking, a label rename reaches every view, Train settings are kept per project."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from helpers import project_with_run
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.ui.main_window import MainWindow
from bertstudio.train.sources import project_rows
from bertstudio.ui.session import ProjectSession

LABELS = ["neg", "pos"]
TRAIN = [("good movie", "pos"), ("great film", "pos"), ("bad movie", "neg"), ("terrible film", "neg")] * 4
DEV = [("very good film", "pos"), ("very bad film", "neg"), ("love this book", "pos"), ("hate this book", "neg")]
BAD = Path(__file__).resolve().parents[1] / "data" / "bad" / "project"


def _records(rows):
    return [{"text": t, "label": l} for t, l in rows]


def _project(folder: Path) -> Project:
    project = Project.create(folder, name="wiring", kind="sentence", labels=LABELS)
    project.import_examples(from_records("sentence", _records(TRAIN), labels=LABELS), "train")
    project.import_examples(from_records("sentence", _records(DEV), labels=LABELS), "dev")
    return project


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, tiny_model_dir) -> Path:
    """One real engine run on the tiny model over DEV rows 0-3 (copied into each test's project)."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    root = tmp_path_factory.mktemp("wiring-run")
    project = _project(root / "proj")
    out = root / "run"
    config = TrainConfig(task="sentence", labels=LABELS, model=str(tiny_model_dir), epochs=1, batch_size=4, lr=1e-3,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    result = train(config, project.examples("train"), project_rows(project.examples("dev"), [0, 1, 2, 3]))
    assert result.status == "finished", result.message
    project.close(compact=False)
    return out


def _window(qtbot, tmp_path: Path, project: Project | None = None) -> MainWindow:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(ProjectSession(project, settings=settings))
    qtbot.addWidget(window)
    window.show()
    return window


def test_double_clicking_a_run_opens_its_results(qtbot, tmp_path, tiny_run):
    project = _project(tmp_path / "p")
    for name in ("a-older", "b-newer"):
        shutil.copytree(tiny_run, project.runs_dir / name)
    window = _window(qtbot, tmp_path, project)
    results = window.pages["results"]
    assert results.run_dir.name == "b-newer"  # the newest run is shown by default
    window.show_page("runs")
    table = window.pages["runs"].table
    row = [r.name for r in window.pages["runs"].model.runs].index("a-older")
    rect = table.visualRect(table.model().index(row, 0))
    # Qt 6 views act on a double click only after the press that precedes it, as a real mouse sends.
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.current_page_key() == "results"
    assert results.run_dir.name == "a-older"
    assert results.run_at(results.run_combo.currentIndex()) == project.runs_dir / "a-older"
    assert results.model.rowCount() == len(DEV)
    window.close()


def test_a_repaired_project_says_so_without_blocking(qtbot, tmp_path, caplog):
    folder = tmp_path / "damaged"
    shutil.copytree(BAD / "truncated_json", folder)
    window = _window(qtbot, tmp_path)
    with caplog.at_level(logging.WARNING, logger="bertstudio.ui.main_window"):
        assert window.open_project(str(folder))  # returns: nothing waits for the user
    assert QApplication.activeModalWidget() is None
    box = window.recovery_box
    assert isinstance(box, QMessageBox) and box.isVisible() and not box.isModal()
    assert "project.json" in box.informativeText()
    assert "project.json" in window.statusBar().currentMessage()
    assert any("project.json" in r.getMessage() for r in caplog.records)
    # README: all four journaled edits are present after the repair (rows neg, neg, -, neg).
    assert [window.session.gold("train", r) for r in range(4)] == ["neg", "neg", None, "neg"]
    box.close()
    window.close()


def test_renaming_a_label_refreshes_every_view(qtbot, tmp_path, tiny_run):
    from bertstudio.ui.editors.label_set import LabelSetDialog

    project = project_with_run(tiny_run, tmp_path / "p", "run")
    window = _window(qtbot, tmp_path, project)
    session = window.session
    data_model = window.findChild(object, "dataTable").model()
    results = window.pages["results"]
    window.pages["data"].show_split("dev")
    gold_col = results.model.column_of("gold")
    before = [results.model.index(i, gold_col).data() for i in range(results.model.rowCount())]
    assert "pos" in before
    assert data_model.data(data_model.index(0, 1)) == "pos"  # cached before the rename
    session.set_current("dev", 0)
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.rename_label("pos", "positive")
    assert [data_model.data(data_model.index(r, 1)) for r in range(4)] == ["positive", "neg", "positive", "neg"]
    after = [results.model.index(i, gold_col).data() for i in range(results.model.rowCount())]
    assert after == ["positive" if g == "pos" else g for g in before]
    cm = results.confusion_view.confusion_model
    assert int(cm.counts.sum()) == len(DEV) and "positive" in cm.labels
    assert window.pages["label"].editor().legend.names() == ["neg", "positive"]
    window.close()


def test_train_settings_are_kept_per_project(qtbot, tmp_path):
    project = _project(tmp_path / "p")
    folder = project.folder
    project.close()
    window = _window(qtbot, tmp_path)
    assert window.open_project(str(folder))
    page = window.pages["train"]
    page.set_model_source("/models/some-bert")
    page.head_combo.setCurrentIndex(page.head_combo.findData("mlp"))
    page.mode_combo.setCurrentIndex(page.mode_combo.findData("top"))
    page.top_spin.setValue(3)
    page.batch_combo.setCurrentText("16")
    page.lr_combo.setCurrentText("5e-5")
    page.epochs_spin.setValue(2.5)
    page.max_len_spin.setValue(96)
    page.seed_spin.setValue(7)
    chosen = page.settings()
    window.close()

    window2 = _window(qtbot, tmp_path)
    page2 = window2.pages["train"]
    assert page2.settings() != chosen  # a fresh page starts from the defaults
    assert window2.open_project(str(folder))
    assert page2.settings() == chosen
    assert page2.model_source() == "/models/some-bert" and page2.mode() == "top-3"
    window2.close()


def test_split_size_reads_the_row_count_not_the_examples(tmp_path):
    project = _project(tmp_path / "p")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))

    def no_copies(*_a, **_k):
        raise AssertionError("split_size built the ExampleSet")

    project.examples = no_copies  # type: ignore[method-assign]
    assert (session.split_size("train"), session.split_size("dev"), session.split_size("test")) == (16, 4, 0)
    session.close()


def test_each_project_event_reaches_its_one_signal(qtbot, tmp_path):
    """The session routes the project's change events by their kind: a gold edit is one
    gold_changed (the session no longer emits a second one itself), an import one
    data_imported, bookkeeping (ui state, compaction) nothing."""
    project = _project(tmp_path / "p")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    seen: list[tuple] = []
    session.gold_changed.connect(lambda split, row: seen.append(("gold", split, row)))
    session.labels_changed.connect(lambda: seen.append(("labels",)))
    session.data_imported.connect(lambda split: seen.append(("imported", split)))
    session.runs_changed.connect(lambda: seen.append(("runs",)))
    try:
        session.write_gold("train", 3, "pos")
        assert seen == [("gold", "train", 3)]
        project.add_label("meh")
        project.save_ui_state()
        project.compact(force=True)
        assert seen[1:] == [("labels",)]
        project.import_examples(from_records("sentence", _records(DEV), labels=LABELS), "test")
        assert seen[2:] == [("imported", "test")]
    finally:
        session.close()


def test_a_long_recovery_list_keeps_the_box_on_the_screen(qtbot, tmp_path):
    """A journal set aside with its edits listed one per line (hundreds of lines) made the recovery box
    56,084 px tall on an 800 px screen, its OK out of reach: it shows the first lines, the count of the
    rest, and every line under Show Details."""
    window = _window(qtbot, tmp_path)
    messages = [f"labels.journal.unapplied-x: edit {i} not applied: train row {i}: 'pos'" for i in range(300)]
    window.show_recovery(messages)
    box = window.recovery_box
    shown = box.informativeText().splitlines()
    assert shown[:12] == messages[:12] and len(shown) == 13 and "288 more" in shown[-1]
    assert box.detailedText().splitlines() == messages
    assert box.sizeHint().height() < 800
    window.show_recovery(messages[:3])  # a short list: as before, no details
    assert window.recovery_box.informativeText().splitlines() == messages[:3]
    assert window.recovery_box.detailedText() == ""
    box.close()
    window.recovery_box.close()
    window.close()
