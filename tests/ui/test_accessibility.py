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
