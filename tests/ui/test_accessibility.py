"""What a screen reader says of the new inputs and notes (QAccessible's name and description), and
an error prediction marked by more than its red. A screen-reader sweep read "" for the Playground's
boxes, output and note, the label set list, the learning curve's progress bar and plot and the
Results predictions table, and only red told 51.307 on gold 90 (an error) from 51.307 on gold 55."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from bertstudio.train.config import TrainConfig
from bertstudio.ui.editors.label_set import LabelSetDialog
from bertstudio.ui.learning_curve import LearningCurvePanel
from bertstudio.ui.playground import PlaygroundPage
from bertstudio.ui.predictions_model import PredictionRow, PredictionsModel
from bertstudio.ui.results_page import ResultsPage


def _said(widget) -> tuple[str, str]:
    face = QAccessible.queryAccessibleInterface(widget)
    return face.text(QAccessible.Text.Name), face.text(QAccessible.Text.Description)


def test_inputs_outputs_and_plots_have_a_name(qtbot, session_factory):
    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": "a film", "label": "pos"}]})
    playground, results = PlaygroundPage(session), ResultsPage(session)
    labels = LabelSetDialog(session)
    curve = LearningCurvePanel(session, lambda: TrainConfig(task="sentence"))
    for widget in (playground, results, labels, curve):
        qtbot.addWidget(widget)
        widget.show()
    assert _said(playground.input)[0] == playground.input_label.text() != ""  # its title is its buddy
    assert _said(playground.output)[0] == "Prediction"
    assert _said(playground.status)[1] != ""  # its name is the note itself
    assert _said(labels.list)[0] == "Labels"
    assert _said(curve.progress)[0] != "" and _said(curve.plot)[0] != "" and _said(curve.plot)[1] != ""
    assert _said(results.table)[0] == "Predictions"


def test_an_error_prediction_is_marked_beside_its_colour():
    """On a 0-100 scale an error is 10 or more off: 51.307 is one on gold 90, not on gold 55."""
    model = PredictionsModel("regression")
    rows = [PredictionRow(i, "dev", i, {"text": f"t{i}"}, gold, {"score": 51.307})
            for i, gold in enumerate((90.0, 55.0, 0.0, 100.0))]
    model.set_rows(rows)
    col = model.column_of("predicted")
    wrong, right = model.index(0, col), model.index(1, col)
    assert wrong.data().startswith("\u2717") and not right.data().startswith("\u2717")
    assert wrong.data().lstrip("\u2717 ") == right.data()  # the same number, marked
    assert "10" in wrong.data(Qt.ItemDataRole.ToolTipRole) and right.data(Qt.ItemDataRole.ToolTipRole) is None
    assert wrong.data(Qt.ItemDataRole.AccessibleDescriptionRole) == wrong.data(Qt.ItemDataRole.ToolTipRole)


def test_the_label_editor_shows_when_it_has_the_keys_and_says_how_to_give_them(qtbot, tmp_path):
    """Keyboard sweep item 7: with the focus in the editor or on the page switcher the screen looked
    the same (one darker pixel line on the switcher's item), and 2 then did nothing without a word."""
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession
    from helpers import make_project

    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": [{"text": "a film", "label": None}]})
    assert isinstance(project, Project)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        page = window.pages["label"]
        editor = page.editor()
        assert QApplication.focusWidget() is editor
        highlight = editor.palette().color(QPalette.ColorRole.Highlight)

        def framed() -> bool:  # the editor's left edge, halfway down, in the highlight colour
            image = editor.grab().toImage()
            return image.pixelColor(1, image.height() // 2).rgb() == highlight.rgb()

        assert framed() and "framed" in page.keys_note.text()
        window.page_list.setFocus()  # as one Tab too many leaves it
        assert not editor.hasFocus() and not framed()
        assert "Ctrl+2" in page.keys_note.text() and "off" in page.keys_note.text()
        qtbot.keyClick(window.page_list, Qt.Key.Key_2)  # ignored, as the note says
        assert session.gold("train", 0) is None
        qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
        assert framed() and "framed" in page.keys_note.text()
        qtbot.keyClick(editor, Qt.Key.Key_2)
        assert session.gold("train", 0) == "pos"
    finally:
        window.close()
        session.close()
