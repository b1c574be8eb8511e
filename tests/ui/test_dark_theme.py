"""The app on a dark palette (View > Theme > Dark, or the system's dark mode): every colour of
our own choosing reads on it (WCAG AA, 4.5:1), text on a coloured background takes the
contrasting one of black and white, and what was coloured from the palette follows a theme
switch while the app runs."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from bertstudio.data.kinds import get_spec
from bertstudio.data.project_meta import PALETTE
from bertstudio.ui import example_html, theme
from bertstudio.ui.confusion_view import ConfusionModel
from bertstudio.ui.data_page import DataPage
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.editors.legend import LabelLegend
from bertstudio.ui.regression_scatter import RegressionScatter
from bertstudio.ui.theme import _luminance

AA = 4.5


def _contrast(a: QColor | str, b: QColor | str) -> float:
    la, lb = sorted((_luminance(QColor(a)), _luminance(QColor(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.fixture(params=["light", "dark"])
def themed(request, qapp):
    theme.apply_theme(request.param)
    yield request.param
    theme.apply_theme("system")


def _fg_bg(model, index) -> tuple[QColor, QColor]:
    from PySide6.QtCore import Qt

    return (QColor(model.data(index, Qt.ItemDataRole.ForegroundRole)),
            QColor(model.data(index, Qt.ItemDataRole.BackgroundRole)))


def test_message_tones_read_on_both_themes(themed):
    palette = QApplication.instance().palette()
    assert theme.is_dark() == (themed == "dark")
    for kind in theme.TONES:
        for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
            # the fixed dark red of errors read at 1.9:1 on the dark window
            assert _contrast(theme.tone(kind), palette.color(role)) >= AA, (kind, role)


def test_label_colours_in_the_data_table_carry_readable_text(qtbot, session_factory, themed):
    labels = [f"label {i}" for i in range(len(PALETTE))]
    session = session_factory("sentence", labels, {"train": [{"text": f"t {i}", "label": name}
                                                             for i, name in enumerate(labels)]})
    page = DataPage(session)
    qtbot.addWidget(page)
    model = page.model
    spec = get_spec("sentence")
    column = spec.view_columns.index(spec.gold_column)
    assert model.rowCount() == len(labels)
    for row in range(model.rowCount()):
        fg, bg = _fg_bg(model, model.index(row, column))
        assert fg.isValid() and _contrast(fg, bg) >= AA, (row, fg.name(), bg.name())  # white on white before


def test_confusion_cells_carry_readable_numbers(themed):
    model = ConfusionModel()
    counts = {("a", "a"): 6, ("a", "b"): 4, ("b", "a"): 1, ("b", "b"): 5, ("b", "c"): 3, ("c", "b"): 2, ("c", "c"): 9}
    pairs = [pair for pair, n in counts.items() for _ in range(n)]
    model.set_data([g for g, _ in pairs], [p for _, p in pairs], ["a", "b", "c"])
    for r in range(3):
        for c in range(3):
            fg, bg = _fg_bg(model, model.index(r, c))
            assert _contrast(fg, bg) >= AA, (r, c, fg.name(), bg.name())  # white on a light cell: 2.3-2.6:1
    base = QApplication.instance().palette().color(QPalette.ColorRole.Base)
    assert _fg_bg(model, model.index(0, 2))[1] == base  # an empty cell is the page's base, not a white block


def test_shaded_spans_in_results_and_playground_say_their_text_colour():
    html = (example_html.mark_runs("gold both pred", [(0, 9)], [(5, 14)])
            + example_html.tokens_html(["a", "b"], ["X", "Y"], ["X", "Z"])
            + example_html.spans_html(["New", "York"], ["B-LOC", "I-LOC"], example_html.PRED_BG))
    spans = re.findall(r'<span style="background:(#[0-9a-f]{6}); color:(#[0-9a-f]{6})', html)
    assert len(spans) == 5
    for bg, fg in spans:
        assert _contrast(fg, bg) >= AA, (fg, bg)
    assert '<span style="background' not in re.sub(r'<span style="background:#[0-9a-f]{6}; color:', "", html)


def test_tagging_and_qa_marks_set_a_readable_text_colour(qtbot, session_factory, themed):
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    tokens = ["John", "lives", "in", "London"]
    tagging = session_factory("tagging", labels, {"train": [{"tokens": tokens, "tags": ["B-PER", "O", "O", "B-LOC"]}]})
    qa = session_factory("qa", None, {"train": [{"id": "q", "title": "t", "context": "Paris is in France.",
                                                 "question": "Where?", "answers": {"text": ["France"], "answer_start": [12]}}]})
    for session, view in ((tagging, "view"), (qa, "context_view")):
        page = LabelPage(session)
        qtbot.addWidget(page)
        page.show()
        marks = [m for m in getattr(page.editor(), view).extraSelections() if m.format.background().style() != 0]
        assert marks, view
        for mark in marks:
            fg, bg = mark.format.foreground().color(), mark.format.background().color()
            assert mark.format.hasProperty(mark.format.Property.ForegroundBrush), view  # the palette's white before
            assert _contrast(fg, bg) >= AA, (view, fg.name(), bg.name())


def test_a_theme_switch_recolours_what_was_coloured_from_the_palette(qtbot, qapp):
    theme.apply_theme("light")
    try:
        hint, error = QLabel("hint"), QLabel("error")
        qtbot.addWidget(hint)
        qtbot.addWidget(error)
        theme.set_tone(hint, "muted", "padding: 4px;")
        theme.set_tone(error, "error")
        theme.set_tone(error, "error")  # set again: still one follower
        legend = LabelLegend()
        qtbot.addWidget(legend)
        legend.set_labels(["pos", "neg"], {"pos": "#4e79a7", "neg": "#e15759"}, ["1", "2"])
        legend.set_suggested("pos")
        scatter = RegressionScatter()
        qtbot.addWidget(scatter)
        assert hint.styleSheet() == "color: #666666; padding: 4px;" and error.styleSheet() == "color: #b00020;"
        theme.apply_theme("dark")
        dark = theme.dark_palette()
        # a sheet's palette(placeholder-text) kept the light theme's grey: 1.3:1 on the dark window
        assert hint.styleSheet() == "color: #a0a0a0; padding: 4px;" and error.styleSheet() == "color: #ff8a80;"
        assert dark.color(QPalette.ColorRole.Text).name() in legend.findChildren(type(legend._buttons[0]))[0].styleSheet()
        assert scatter.backgroundBrush().color() == dark.color(QPalette.ColorRole.Base)  # white before, in any theme
        axis = scatter.getPlotItem().getAxis("left")
        assert axis.textPen().color() == dark.color(QPalette.ColorRole.Text)
        assert len(error.findChildren(theme._Follower)) == 1
        theme.set_tone(error, None)
        assert error.styleSheet() == ""
    finally:
        theme.apply_theme("system")


def test_reading_text_stays_larger_than_a_large_application_font(qtbot, qapp, session_factory):
    """An 18-pt application font made the 16-pt gold label smaller than the UI around it."""
    old = qapp.font()
    font = old.__class__(old)
    font.setPointSize(18)
    qapp.setFont(font)
    try:
        assert theme.text_points(16) == 24 and theme.text_points(13) == 21
        session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": "good", "label": "pos"}]})
        page = LabelPage(session)
        qtbot.addWidget(page)
        page.show()
        editor = page.editor()
        assert "font-size: 24pt" in editor.gold_label.styleSheet()
        assert editor.text_view.font().pointSize() > 18
        assert theme.font_scale() == pytest.approx(1.8)
        assert page.help.minimumWidth() == 360  # the Keyboard panel kept ~235 px and broke "Backspace"
        from bertstudio.ui.training_monitor import TrainingMonitor

        monitor = TrainingMonitor()
        qtbot.addWidget(monitor)
        assert monitor.lr_plot.minimumHeight() == 216  # 120 px of a 10-pt font: the ticks overlapped
    finally:
        qapp.setFont(old)
    assert theme.text_points(16) == max(16, old.pointSize() + 6)
