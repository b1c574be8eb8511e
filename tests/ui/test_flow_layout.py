"""The wrapping legend (FlowLayout) asks for one line, not one column: a long label set (17
UPOS tags) must not make the Label page, and so the window, taller than a small screen."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from bertstudio.ui.editors.legend import LabelLegend


def test_a_long_legend_asks_for_rows_not_a_column_and_still_wraps(qtbot):
    legend = LabelLegend()
    qtbot.addWidget(legend)
    names = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT",
             "SCONJ", "SYM", "VERB", "X"]
    legend.set_labels(names, {}, keys=[str(i + 1) for i in range(9)] + [n[:2].lower() + "↵" for n in names[9:]])
    row = max(legend.findChild(QPushButton, f"legend_{n}").sizeHint().height() for n in names)
    assert legend.sizeHint().height() < 3 * row  # was 17 rows: the minimum height of the editor holding it
    assert legend.minimumSizeHint().height() < 3 * row
    assert legend.widget().layout().heightForWidth(300) > 3 * row  # at a real, narrow width it wraps onto several lines
