"""From an empty project to a trained model by pointing, clicking and typing: add examples,
label them with number keys, train (the tiny test model), see the official metric."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction

from bertstudio.data.project import Project
from bertstudio.ui.add_example_dialog import AddExampleDialog
from bertstudio.ui.main_window import MainWindow
from bertstudio.ui.session import ProjectSession

POS = ["good movie", "great film", "i love it", "best story", "really fun", "very good film", "love this book"]
NEG = ["bad movie", "terrible film", "i hate it", "worst story", "really boring", "very bad film", "hate this book"]


def test_type_label_train_and_score(qtbot, tmp_path, tiny_model_dir):
    # The New project dialog's result: a sentence project with two labels and no rows.
    project = Project.create(tmp_path / "typed", name="typed", kind="sentence", labels=["neg", "pos"])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        # 1. Type 14 sentences into train.
        window.findChild(QAction, "addExamplesAction").trigger()
        dialog = window.findChild(AddExampleDialog, "addExampleDialog")
        for text in [t for pair in zip(POS, NEG) for t in pair]:
            qtbot.keyClicks(dialog.editors["text"], text)
            qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
        dialog.close()
        assert session.split_size("train") == 14 and session.progress("train") == (0, 14)

        # 2. Label them on the Label page: key 1 = neg, key 2 = pos; the editor moves on by itself.
        window.show_page("label")
        editor = window.pages["label"].editor()
        editor.go_to(0)
        for row in range(14):
            text = editor.text_view.toPlainText()
            qtbot.keyClick(editor, Qt.Key.Key_2 if text in POS else Qt.Key.Key_1)
        assert session.progress("train") == (14, 14)
        assert [session.gold("train", r) for r in range(4)] == ["pos", "neg", "pos", "neg"]

        # 3. Train with no dev split (10% held out) on the tiny model, then read the score.
        window.show_page("train")
        train = window.pages["train"]
        train.set_model_source(str(tiny_model_dir))
        train.batch_combo.setCurrentText("4")
        train.lr_combo.setCurrentText("1e-3")
        train.epochs_spin.setValue(3)
        train.max_len_spin.setValue(16)
        train.device_combo.setCurrentText("cpu")
        train.precision_combo.setCurrentText("fp32")
        with qtbot.waitSignal(train.run_ended, timeout=120_000) as ended:
            qtbot.mouseClick(train.start_button, Qt.MouseButton.LeftButton)
        assert ended.args[1] == "finished", train.error_label.text()
        assert "holding out 1 of 14" in train.monitor.log_view.toPlainText()
        results = window.pages["results"]
        qtbot.waitUntil(lambda: results.metrics_table.rowCount() > 0, timeout=10_000)
        assert results.metrics_table.item(0, 0).text() == "accuracy *"
        assert "one example only" in results.metrics_panel.size_note.text()  # 1 of 14 held out: said so
    finally:
        window.close()
        session.close()
