"""Results page with many classes of which a split uses few: the per-class table says which
scores are undefined and what its averages are over, and the confusion matrix gets room to read."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.metrics.per_class import classification_report_of
from bertstudio.ui.metrics_panel import MetricsPanel
from bertstudio.ui.results_page import ResultsPage
from bertstudio.ui.session import ProjectSession

LABELS = [f"topic {i:02d}" for i in range(80)]
# the dev split: gold rows of 3 classes; the model also predicts "topic 40", which no row has
GOLD = ["topic 03"] * 6 + ["topic 10"] * 4 + ["topic 25"] * 5
PRED = (["topic 03"] * 4 + ["topic 10", "topic 40"] + ["topic 10"] * 2 + ["topic 25", "topic 40"]
        + ["topic 25"] * 3 + ["topic 03"] * 2)


def _oracle(golds: list[str], preds: list[str], name: str) -> tuple[float, float, float, int]:
    """Precision, recall, F1 and support of ``name``, counted by hand (0 where a ratio has no denominator)."""
    tp = sum(g == p == name for g, p in zip(golds, preds))
    predicted, support = preds.count(name), golds.count(name)
    precision = tp / predicted if predicted else 0.0
    recall = tp / support if support else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, support


def test_classes_with_nothing_to_score_read_undefined_and_the_averages_say_what_they_average(qtbot):
    """80 labels, a split using 3 and a fourth predicted: the 76 others showed "0.0 0.0 0.0 0" like a
    class the model fails on, and the macro average (over the 4) was not the mean of the column shown."""
    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel.show_report(classification_report_of(GOLD, PRED, LABELS))
    table = panel.per_class_table
    shown = {table.item(i, 0).text(): [table.item(i, c).text() for c in range(1, 5)] for i in range(table.rowCount())}
    row_of = {table.item(i, 0).text(): i for i in range(table.rowCount())}
    present = ["topic 03", "topic 10", "topic 25", "topic 40"]  # gold or predicted in the split
    assert [table.item(i, 0).text() for i in range(4)] == present  # what was scored reads first
    for name in LABELS:
        if name in present:
            p, r, f, n = _oracle(GOLD, PRED, name)
            assert shown[name] == [f"{100 * p:.1f}", f"{100 * r:.1f}", f"{100 * f:.1f}", str(n)], name
        else:
            assert shown[name] == ["—", "—", "—", "0"], name
            assert "undefined" in table.item(row_of[name], 1).toolTip()
    # topic 40: predicted twice, never right, no gold row: a real precision of 0, not undefined
    assert shown["topic 40"][:3] == ["0.0", "0.0", "0.0"]
    scores = [_oracle(GOLD, PRED, n) for n in present]
    macro = [sum(s[k] for s in scores) / len(present) for k in range(3)]
    weighted = [sum(s[k] * s[3] for s in scores) / len(GOLD) for k in range(3)]
    assert shown["macro avg"] == [f"{100 * v:.1f}" for v in macro] + [str(len(GOLD))]
    assert shown["weighted avg"] == [f"{100 * v:.1f}" for v in weighted] + [str(len(GOLD))]
    # the macro row is the mean of the numbers shown above it
    column = [float(shown[n][1]) for n in LABELS if shown[n][1] != "—"]
    assert abs(sum(column) / len(column) - float(shown["macro avg"][1])) < 0.06
    tip = table.item(row_of["macro avg"], 0).toolTip()
    assert "4 classes" in tip and all(n in tip for n in present) and "76" in tip, tip
    note = panel.unscored_note
    assert note.isVisibleTo(panel) and note.text().startswith("76 class")


def test_a_split_that_uses_every_class_shows_no_undefined_row(qtbot):
    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel.show_report(classification_report_of(["a", "b", "a"], ["a", "a", "b"], ["a", "b"]))
    table = panel.per_class_table
    assert "—" not in {table.item(i, c).text() for i in range(table.rowCount()) for c in range(1, 4)}
    assert not panel.unscored_note.isVisibleTo(panel)


def _many_class_page(qtbot, tmp_path: Path, used: int, labels: list[str] = LABELS) -> tuple[Project, ResultsPage]:
    """A project of ``labels`` (80 unless given) whose dev split uses the first ``used``, with one run (every
    3rd prediction is the next class), on a Results page of a 1280 x 800 window's size."""
    from bertstudio.train.config import TrainConfig

    golds = [labels[i % used] for i in range(4 * used)]
    rows = [{"text": f"row {i}", "label": g} for i, g in enumerate(golds)]
    project = Project.create(tmp_path / "many", name="m", kind="sentence", labels=labels)
    project.import_examples(from_records("sentence", rows, labels=labels), "dev")
    run = project.new_run_dir("many-run")
    TrainConfig(task="sentence", labels=labels, output_dir=str(run)).save(run / "config.toml")
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.6, "macro_f1": 0.6}))
    preds = [{"index": i, "split": "dev", "row": i, "gold": g, "loss": 0.5,
              "label": labels[(labels.index(g) + 1) % used] if i % 3 == 0 else g} for i, g in enumerate(golds)]
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.resize(1110, 730)  # what a 1280 x 800 window leaves the page beside its navigation
    page.show()
    qtbot.waitExposed(page)
    qtbot.waitUntil(lambda: page.run_dir == run and not page.is_loading())
    return project, page


def _rows_in_view(view) -> int:
    """The matrix's rows whose cells show whole in its viewport."""
    area = view.viewport().rect()
    model = view.model()
    return sum(1 for r in range(model.rowCount()) if not view.isRowHidden(r)
               and area.contains(view.visualRect(model.index(r, 0))))


def test_with_80_classes_the_matrix_has_room_and_a_window_of_its_own(qtbot, tmp_path):
    """At 1280 x 800 with 80 classes the matrix had 350 x 40 px, one row readable, and nothing made it larger."""
    project, page = _many_class_page(qtbot, tmp_path, used=12)
    try:
        panel, view = page.confusion_panel, page.confusion_view
        assert _rows_in_view(view) >= 6, view.size()
        assert view.visible_classes() == 12 and view.hidden_classes == 68  # no gold, no prediction: not shown
        assert "68 class" in panel.hidden_note.text() and panel.hidden_note.isVisibleTo(page)
        assert panel.enlarge_button.isVisibleTo(page)
        dialog = panel.open_window()
        qtbot.addWidget(dialog)
        qtbot.waitExposed(dialog)
        assert _rows_in_view(dialog.view) == 12 and dialog.view.hidden_classes == 68
        picked = []
        page.confusion_view.cell_clicked.connect(picked.append)
        model = dialog.view.model()
        dialog.view.clicked.emit(model.index(0, 1))
        assert picked == [("topic 00", "topic 01")]  # a cell of the window filters the page's predictions
        assert page.proxy.rowCount() == 4  # rows 0, 12, 24 and 36: gold topic 00, every 3rd predicted as the next
        dialog.close()
    finally:
        project.close(compact=False)


def test_with_80_classes_all_used_the_window_shows_them_all(qtbot, tmp_path):
    project, page = _many_class_page(qtbot, tmp_path, used=80)
    try:
        panel = page.confusion_panel
        assert panel.view.hidden_classes == 0 and panel.enlarge_button.isVisibleTo(page)
        dialog = panel.open_window()
        qtbot.addWidget(dialog)
        qtbot.waitExposed(dialog)
        assert dialog.view.visible_classes() == 80
        assert _rows_in_view(dialog.view) >= 20  # scrolls for the rest, each row readable
    finally:
        project.close(compact=False)


def test_long_class_names_that_share_a_start_read_apart_in_the_per_class_table(qtbot, tmp_path):
    """sweep_newcode53 8: seven classes "very long label name that keeps going and going 0…6" all read
    "very long label name that keeps going and …": the class column was held to ten characters and
    its wrapped names were cut at the end, while the predictions beside it had room to spare."""
    from PySide6.QtCore import Qt

    labels = [f"very long label name that keeps going and going {i}".ljust(60, "x") for i in range(7)]
    project, page = _many_class_page(qtbot, tmp_path, used=7, labels=labels)
    try:
        table = page.metrics_panel.per_class_table
        qtbot.waitUntil(lambda: table.rowCount() >= 7)
        assert table.horizontalScrollBar().maximum() == 0  # the numbers still read without scrolling
        width = table.columnWidth(0)
        assert width >= table.fontMetrics().horizontalAdvance("x" * 35), width  # was 173 px: 24 characters
        # a wrapped item is cut at the end of its last line whatever the view's elide mode
        assert not table.wordWrap() and table.textElideMode() == Qt.TextElideMode.ElideMiddle
        shown = {table.fontMetrics().elidedText(table.item(r, 0).text(), Qt.TextElideMode.ElideMiddle, width - 12)
                 for r in range(7)}
        assert len(shown) == 7, shown  # each class reads as itself
        assert [table.item(r, 0).toolTip() for r in range(7)] == labels
    finally:
        project.close(compact=False)
