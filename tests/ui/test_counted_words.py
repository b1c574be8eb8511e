"""Counts in the UI read as English: "1 token", not "1 tokens"; "about 1.2 points", not "about 1 points"."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from bertstudio.ui.label_mapping_widget import LabelMappingBox
from bertstudio.ui.metrics_panel import MetricsPanel


def test_label_mapping_counts_tokens_and_rows_in_the_singular_too(qtbot):
    box = LabelMappingBox()
    qtbot.addWidget(box)
    box.set_values({"CCONJ": 1, "INTJ": 3}, ["NOUN", "VERB"], kind="tagging", fresh=False)
    texts = [box.form.itemAt(i, box.form.ItemRole.LabelRole).widget().text() for i in range(box.form.rowCount())]
    assert texts == ["CCONJ  (1 token)", "INTJ  (3 tokens)"]
    box.set_values({"maybe": 1}, ["pos", "neg"], kind="sentence", fresh=False)
    label = box.form.itemAt(0, box.form.ItemRole.LabelRole).widget()
    assert isinstance(label, QLabel) and label.text() == "maybe  (1 row)"


def test_a_small_evaluation_says_a_decimal_below_ten_points(qtbot):
    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel._show_size_note({"accuracy": 0.675}, 80, "examples")
    assert "moves a score by about 1.2 points" in panel.size_note.text()
    panel._show_size_note({"accuracy": 0.5}, 8, "examples")
    assert "moves a score by about 12 points" in panel.size_note.text()


def test_a_small_scored_evaluation_gives_the_correlations_interval_not_examples_right(qtbot):
    """STS-B on 30 pairs said "one example more or less right moves a score by about 3.3 points":
    no example of a correlation is right or wrong. Fisher's z interval instead, by hand:
    r = 0.8, n = 30: tanh(atanh(0.8) -/+ 1.96 / sqrt(27)) = 0.618 .. 0.901."""
    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel._show_size_note({"pearson": 0.8, "spearman": 0.7}, 30, "examples")
    text = panel.size_note.text()
    assert "right" not in text and "Pearson's 95% interval: 62 to 90" in text
    panel._show_size_note({"pearson": 0.9999}, 30, "examples")  # Fisher's z: 99.979 to 99.9953
    assert "interval: 99.98 to 99.995)" in panel.size_note.text()  # short of 1: not "100 to 100"
    panel._show_size_note({"pearson": 0.5}, 3, "examples")
    assert "too few for a correlation" in panel.size_note.text()


def test_the_label_set_dialog_counts_1_row_3_rows_and_groups_thousands(qtbot, session_factory):
    """The dialog said "1 row(s)", "3 row(s)" and "1001 row(s)", where the rest of the UI says "1 row", "3 rows"
    and "1,001 rows"; a tag set's "1 token(s)" likewise."""
    from bertstudio.ui.editors.label_set import COUNT_ROLE, LabelSetDialog

    rows = [{"text": f"t{i}", "label": label} for i, label in enumerate(["one"] + ["three"] * 3)]
    many = [{"text": f"d{i}", "label": "many"} for i in range(1001)]
    session = session_factory("sentence", ["one", "three", "many", "none"], {"train": rows, "dev": many})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    counts = {dialog.list.item(i).text(): dialog.list.item(i) for i in range(dialog.list.count())}
    assert {name: item.data(COUNT_ROLE) for name, item in counts.items()} == {
        "one": "1 row", "three": "3 rows", "many": "1,001 rows", "none": "0 rows"}
    assert counts["many"].toolTip() == "many\n1,001 rows (1,001 in dev)"
    tagged = session_factory("tagging", ["O", "B-PER"], {"train": [{"tokens": ["a", "b"], "tags": ["B-PER", "O"]}]})
    dialog = LabelSetDialog(tagged)
    qtbot.addWidget(dialog)
    assert [dialog.list.item(i).data(COUNT_ROLE) for i in range(dialog.list.count())] == ["1 token", "1 token"]
