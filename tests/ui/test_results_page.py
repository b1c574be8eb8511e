"""Results page over a real tiny run: metrics table, confusion filter, predictions sort/filter, relabel."""

from __future__ import annotations

import gc
import json
import shutil
from pathlib import Path

import pytest
from helpers import project_with_run
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QTextDocumentFragment

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.train.sources import project_rows
from bertstudio.ui.predictions_model import PredictionsModel
from bertstudio.metrics.display import format_metric
from bertstudio.ui.results_page import ResultsPage
from bertstudio.ui.session import ProjectSession

LABELS = ["neg", "pos"]
TRAIN = [("good movie", "pos"), ("great film", "pos"), ("i love it", "pos"), ("bad movie", "neg"),
         ("terrible film", "neg"), ("i hate it", "neg"), ("best story", "pos"), ("worst story", "neg")] * 3
DEV = [("very good film", "pos"), ("very bad film", "neg"), ("love this book", "pos"), ("hate this book", "neg"),
       ("really fun", "pos"), ("really boring", "neg"), ("great fun", "pos"), (None, None), ("boring film", "neg")]


def _records(rows):
    return [{"text": t or "unlabelled row", "label": l} for t, l in rows]


def make_project(folder: Path) -> Project:
    project = Project.create(folder, name="r", kind="sentence", labels=LABELS)
    project.import_examples(from_records("sentence", _records(TRAIN), labels=LABELS), "train")
    project.import_examples(from_records("sentence", _records(DEV), labels=LABELS), "dev")
    return project


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory, tiny_model_dir) -> Path:
    """One real run of the engine on the tiny model; dev row 7 is unlabelled, so the
    evaluated rows are 0-6 and 8 (each prediction names its project row)."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    root = tmp_path_factory.mktemp("results")
    project = make_project(root / "proj")
    out = root / "run"
    dev_rows = [0, 1, 2, 3, 4, 5, 6, 8]
    config = TrainConfig(task="sentence", labels=LABELS, model=str(tiny_model_dir), epochs=2, batch_size=4, lr=1e-3,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    result = train(config, project.examples("train"), project_rows(project.examples("dev"), dev_rows))
    assert result.status == "finished", result.message
    project.close(compact=False)
    return out


@pytest.fixture
def page(qtbot, tmp_path, trained_run):
    project = project_with_run(trained_run, tmp_path / "proj", "tiny-full")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    yield page
    project.close(compact=False)


def _preds(run: Path) -> list[dict]:
    return [json.loads(l) for l in (run / "predictions.jsonl").read_text().splitlines()]


def test_metrics_table_shows_the_official_metric_x100(page, trained_run):
    metrics = json.loads((trained_run / "metrics.json").read_text())
    table = page.metrics_table
    rows = {table.item(i, 0).text().rstrip(" *"): table.item(i, 1).text() for i in range(table.rowCount())}
    assert table.item(0, 0).text() == "accuracy *"  # official metric of a sentence task first
    assert rows["accuracy"] == f"{100 * metrics['accuracy']:.1f}"
    assert format_metric("pearson", 0.8766) == "87.7" and format_metric("mse", 0.5) == "0.5000"


def test_predictions_join_the_project_rows_and_sort_by_loss(page, trained_run, qtmodeltester):
    qtmodeltester.check(page.model)
    preds = _preds(trained_run)
    assert page.model.rowCount() == len(preds) == 8
    texts = [page.model.index(i, 0).data() for i in range(8)]
    assert texts[7] == "boring film"  # prediction 7 is dev row 8, not the unlabelled row 7
    loss_col = page.model.column_of("loss")
    page.table.sortByColumn(loss_col, Qt.SortOrder.AscendingOrder)
    shown = [float(page.proxy.index(i, loss_col).data()) for i in range(page.proxy.rowCount())]
    assert shown == sorted(shown)
    page.table.sortByColumn(loss_col, Qt.SortOrder.DescendingOrder)
    shown = [float(page.proxy.index(i, loss_col).data()) for i in range(page.proxy.rowCount())]
    assert shown == sorted(shown, reverse=True)
    assert shown[0] == pytest.approx(max(p["loss"] for p in preds), abs=1e-4)


def test_errors_only_keeps_exactly_the_wrong_predictions(page, trained_run, qtbot):
    wrong = sum(p["label"] != p["gold"] for p in _preds(trained_run))
    page.errors_only.setChecked(True)
    assert page.proxy.rowCount() == wrong
    gold_col, pred_col = page.model.column_of("gold"), page.model.column_of("predicted")
    assert all(page.proxy.index(i, gold_col).data() != page.proxy.index(i, pred_col).data() for i in range(wrong))
    page.errors_only.setChecked(False)
    assert page.proxy.rowCount() == 8


def test_clicking_a_confusion_cell_filters_the_predictions(page, trained_run, qtbot, qtmodeltester):
    view = page.confusion_view
    qtmodeltester.check(view.confusion_model)
    preds = _preds(trained_run)
    m = view.confusion_model
    assert sum(int(m.index(r, c).data()) for r in range(2) for c in range(2)) == 8
    for g, p in ((0, 0), (0, 1), (1, 0), (1, 1)):
        expected = sum(x["gold"] == LABELS[g] and x["label"] == LABELS[p] for x in preds)
        assert int(m.index(g, p).data()) == expected
        view.show()
        rect = view.visualRect(m.index(g, p))
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert page.proxy.rowCount() == expected
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # again: cleared
        assert page.proxy.rowCount() == 8


def test_keys_on_a_confusion_cell_filter_the_predictions(page, trained_run, qtbot):
    """Keyboard sweep item 3: arrows made a cell current and highlighted it, and Enter and Space did
    nothing, while the predictions still listed every row; only a click filtered."""
    from PySide6.QtCore import QItemSelectionModel

    from bertstudio.ui.confusion_view import ConfusionDialog

    view, m, preds = page.confusion_view, page.confusion_view.confusion_model, _preds(trained_run)

    def count(g: int, p: int) -> int:
        return sum(x["gold"] == LABELS[g] and x["label"] == LABELS[p] for x in preds)

    page.show()
    view.setFocus()
    view.selectionModel().setCurrentIndex(m.index(0, 0), QItemSelectionModel.SelectionFlag.NoUpdate)  # as Tab in
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert page.proxy.rowCount() == count(0, 1)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert page.proxy.rowCount() == count(1, 1)
    qtbot.keyClick(view, Qt.Key.Key_Return)  # Enter on the filtered cell: cleared, as a second click
    assert page.proxy.rowCount() == 8
    qtbot.keyClick(view, Qt.Key.Key_Space)  # and Space filters on it again
    assert page.proxy.rowCount() == count(1, 1)
    qtbot.keyClick(view, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    assert page.proxy.rowCount() == 8
    # the window's view filters the page's predictions as the panel's does
    window = ConfusionDialog(view)
    qtbot.addWidget(window)
    window.view.selectionModel().setCurrentIndex(m.index(1, 1), QItemSelectionModel.SelectionFlag.NoUpdate)
    qtbot.keyClick(window.view, Qt.Key.Key_Up)
    assert page.proxy.rowCount() == count(0, 1)
    qtbot.keyClick(window.view, Qt.Key.Key_Space)
    assert page.proxy.rowCount() == 8


def test_relabel_in_place_goes_through_the_undo_stack(page, qtbot):
    session = page.session
    page.table.selectRow(page.proxy.mapFromSource(page.model.index(0, 0)).row())
    r = page.current_prediction()
    assert (r.split, r.row) == ("dev", 0) and r.gold == "pos"
    assert "very good film" in page.example_view.toPlainText()
    page.relabel_combo.setCurrentText("neg")
    qtbot.mouseClick(page.set_gold_button, Qt.MouseButton.LeftButton)
    assert session.project.gold("dev", 0) == "neg"
    assert page.model.rows[0].gold == "neg"
    session.undo_stack.undo()
    assert session.project.gold("dev", 0) == "pos"
    assert page.model.rows[0].gold == "pos"


def test_a_prediction_of_a_renamed_label_cannot_become_gold_and_nothing_escapes(page, qtbot):
    """A run trained before 'pos' was renamed predicts 'pos': Use prediction as gold is off
    (with why), and a value the project refuses shows on the page instead of raising in a slot."""
    session = page.session
    i = next(i for i, r in enumerate(page.model.rows) if page.model.predicted_value(r) == "pos")
    page.table.selectRow(page.proxy.mapFromSource(page.model.index(i, 0)).row())
    assert page.accept_button.isEnabled()
    session.project.rename_label("pos", "good")
    i = next(i for i, r in enumerate(page.model.rows) if page.model.predicted_value(r) == "pos")
    page.table.selectRow(page.proxy.mapFromSource(page.model.index(i, 0)).row())
    r = page.current_prediction()
    assert not page.accept_button.isEnabled() and "no longer has" in page.accept_button.toolTip()
    page._apply(r, "pos")  # what the button used to do: refused, said on the page, no exception
    assert page.damage_label.isVisibleTo(page) and "pos" in page.damage_label.text()
    assert session.project.gold("dev", r.row) != "pos"


def test_a_run_written_before_predictions_named_their_rows_still_joins(qtbot, tmp_path, trained_run):
    """Older runs kept the evaluated rows in eval_rows.json beside predictions without row ids."""
    project = make_project(tmp_path / "proj")
    old = project.runs_dir / "old-run"
    shutil.copytree(trained_run, old)
    rows = []
    for p in _preds(old):
        rows.append({k: v for k, v in p.items() if k not in ("split", "row")})
    (old / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (old / "eval_rows.json").write_text(json.dumps({"split": "dev", "rows": [0, 1, 2, 3, 4, 5, 6, 8]}))
    # it ran on this project's rows, so after they were imported (the fixture's run started before
    # this project was made: rows imported after a run without lineages are other examples)
    history = [json.loads(line) for line in (old / "history.jsonl").read_text().splitlines() if line.strip()]
    started = (old / "config.toml").stat().st_mtime + 3600
    (old / "history.jsonl").write_text("".join(json.dumps({**e, "started_at": started} if e.get("kind") == "started"
                                                          else e) + "\n" for e in history))
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    try:
        assert page.run_dir == old
        assert [(r.split, r.row) for r in page.model.rows] == [("dev", r) for r in (0, 1, 2, 3, 4, 5, 6, 8)]
        assert page.model.index(7, 0).data() == "boring film"
    finally:
        project.close(compact=False)


def _shown_page(qtbot, project: Project, tmp_path: Path) -> ResultsPage:
    """A Results page on ``project``, shown (it opens the newest run)."""
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.show()
    return page


def test_damaged_prediction_lines_are_left_out_and_the_page_says_so(qtbot, tmp_path, trained_run):
    """A damaged line of predictions.jsonl is not shown, and a note above the table says how many and why
    (the rows that still read are shown as usual; before, they just went missing)."""
    project = make_project(tmp_path / "proj")
    run = project.runs_dir / "damaged-run"
    shutil.copytree(trained_run, run)
    lines = (run / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = "{not json"
    lines[5] = '{"index": "abc", "label": "pos"}'
    (run / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = _shown_page(qtbot, project, tmp_path)
    try:
        assert page.run_dir == run and page.model.rowCount() == 6
        note = page.damage_label.text()
        assert page.damage_label.isVisible() and note.startswith("2 damaged line(s)")
        assert str(run / "predictions.jsonl") in note and "line 3" in note
        clean = project.runs_dir / "clean-run"
        shutil.copytree(trained_run, clean)
        page.show_run(str(clean))
        assert page.model.rowCount() == 8 and not page.damage_label.isVisible()
    finally:
        project.close(compact=False)


def test_a_prediction_whose_label_is_no_class_name_is_left_out_not_raised(qtbot, tmp_path, trained_run):
    """{"label": ["x"]} reached the confusion matrix: TypeError (unhashable list) in a Qt slot."""
    project = make_project(tmp_path / "proj")
    run = project.runs_dir / "odd-run"
    shutil.copytree(trained_run, run)
    with (run / "predictions.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"index": 99999, "gold": "zzz", "label": ["x"]}) + "\n")
        f.write(json.dumps({"index": 99998, "gold": {"a": 1}, "label": "pos"}) + "\n")
    page = _shown_page(qtbot, project, tmp_path)
    try:
        assert page.run_dir == run and page.model.rowCount() == 8
        note = page.damage_label.text()
        # both left out; the note names the first: the answers-shaped gold, which the reader refuses itself
        assert note.startswith("2 damaged line(s)") and "line 10: gold {'a': 1} is not a set of answers" in note
    finally:
        project.close(compact=False)


def test_per_class_table_sits_beside_the_official_metric(page, trained_run):
    """Issue 14 item 7: precision / recall / F1 / support per label, counted here by hand."""
    preds = [p for p in _preds(trained_run) if p["gold"] is not None]
    table = page.metrics_panel.per_class_table
    assert table.isVisibleTo(page) and page.metrics_panel.per_class_title.text() == "Per class (support: examples)"
    shown = {table.item(i, 0).text(): [table.item(i, c).text() for c in range(1, 5)] for i in range(table.rowCount())}
    assert [table.item(i, 0).text() for i in range(table.rowCount())] == LABELS + ["macro avg", "weighted avg"]
    # elided at 16 pt: the tooltip's first line is the whole name (an average's next line says what it averages)
    assert all(table.item(i, 0).toolTip().split("\n")[0] == table.item(i, 0).text() for i in range(table.rowCount()))
    assert "over all 2 classes" in table.item(2, 0).toolTip()
    f1s = []
    for label in LABELS:
        tp = sum(p["gold"] == label and p["label"] == label for p in preds)
        predicted = sum(p["label"] == label for p in preds)
        support = sum(p["gold"] == label for p in preds)
        precision = tp / predicted if predicted else 0.0
        recall = tp / support if support else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        f1s.append(f1)
        assert shown[label] == [f"{100 * precision:.1f}", f"{100 * recall:.1f}", f"{100 * f1:.1f}", str(support)]
    assert shown["macro avg"][2] == f"{100 * sum(f1s) / 2:.1f}" and shown["macro avg"][3] == str(len(preds))


def test_confusion_matrix_axes_are_titled(page, qtbot):
    """Issue 14 item 8: "Predicted" over the columns, "Gold" beside the rows, label names as sections."""
    page.resize(1200, 800)
    page.show()
    qtbot.waitExposed(page)
    panel, view = page.confusion_panel, page.confusion_view
    assert panel.isVisible() and panel.predicted_title.isVisible() and panel.gold_title.isVisible()
    assert (panel.predicted_title.text(), panel.gold_title.text()) == ("Predicted", "Gold")
    model = view.confusion_model
    assert [model.headerData(i, Qt.Orientation.Horizontal) for i in range(2)] == LABELS
    assert [model.headerData(i, Qt.Orientation.Vertical) for i in range(2)] == LABELS
    predicted, gold, table = panel.predicted_title.geometry(), panel.gold_title.geometry(), view.geometry()
    assert predicted.bottom() < table.top() and predicted.left() < table.center().x() < predicted.right()
    assert gold.right() < table.left() and gold.top() <= table.center().y() <= gold.bottom()
    assert gold.height() > gold.width()  # drawn up the side, as a y-axis title


def test_a_score_on_few_examples_says_how_little_it_rests_on(qtbot):
    """A 20-label project holds out 2 rows: its accuracy of 50% or 100% said nothing of that."""
    from bertstudio.ui.metrics_panel import MetricsPanel

    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel.show_metrics({"accuracy": 0.9}, ("accuracy",), examples=20)
    assert not panel.size_note.isHidden()
    text = panel.size_note.text()
    assert "only 20 examples" in text and "about 5 points" in text
    assert "95% interval: 70 to 97" in text  # Wilson, 18 of 20
    panel.show_metrics({"accuracy": 98 / 99}, ("accuracy",), examples=99)  # Wilson: 94.5 to 99.82
    assert "95% interval: 94 to 99.8." in panel.size_note.text()  # short of 1: not "100"
    panel.show_metrics({"accuracy": 0.9}, ("accuracy",), examples=872)  # SST-2 dev: no note
    assert panel.size_note.isHidden()
    panel.show_metrics({"accuracy": 1.0}, ("accuracy",), examples=1)
    assert "one example only" in panel.size_note.text()
    panel.show_metrics({}, ())
    assert panel.size_note.isHidden()
    panel.show_metrics({"f1": 0.8, "accuracy": 0.95}, ("f1",), examples=40, unit="entities")
    assert "only 40 gold entities" in panel.size_note.text() and "2.5 points" in panel.size_note.text()
    assert "interval" not in panel.size_note.text()  # token accuracy is not a share of these 40
    panel.show_metrics({"accuracy": 0.9}, ("accuracy",), examples=60, unit="tokens")
    assert "only 60 words" in panel.size_note.text()


def test_scores_of_an_earlier_evaluation_than_the_last_say_so(qtbot, tmp_path, trained_run):
    """A run that kept its best evaluation's weights scores that evaluation, not the last step:
    the command line said so, the Results page showed the numbers without a word. Two copies of
    the module's run, whose history's end says which weights were kept (the engine writes it:
    tests/core/test_engine.py)."""
    project = make_project(tmp_path / "proj")
    for name, best_step in (("best", 6), ("last", None)):
        shutil.copytree(trained_run, project.runs_dir / name)
        history = project.runs_dir / name / "history.jsonl"
        lines = history.read_text().splitlines()
        end = json.loads(lines[-1])
        assert end["kind"] == "finished" and end["step"] == 12
        end["best_step"] = best_step
        history.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    try:
        note = page.metrics_panel.best_note
        page.show_run(project.runs_dir / "best")
        assert not note.isHidden()
        assert note.text() == ("From the best evaluation, at step 6 of 12: the run kept those weights, "
                               "as no later evaluation scored higher.")
        page.show_run(project.runs_dir / "last")
        assert note.isHidden()
    finally:
        project.close(compact=False)


def test_a_kept_earlier_evaluation_shows_the_last_evaluations_scores_beside_it(qtbot, tmp_path, trained_run):
    """The kept scores are the best of several looks at the evaluation set (RTE: 0.549 kept, 0.516 where
    the recipe ended): the note under them gives the last look's, which metrics.json keeps beside them
    (tests/core/test_engine.py). A metrics.json from before it did shows the note as it was."""
    project = make_project(tmp_path / "proj")
    run = project.runs_dir / "best"
    shutil.copytree(trained_run, run)
    history = run / "history.jsonl"
    lines = history.read_text().splitlines()
    end = json.loads(lines[-1])
    end["best_step"] = 6
    history.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.875, "last_evaluation": {"accuracy": 0.625}}))
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    try:
        note = page.metrics_panel.best_note
        page.show_run(run)
        assert note.text() == ("From the best evaluation, at step 6 of 12: the run kept those weights, as no later "
                               "evaluation scored higher. These scores were selected on this evaluation set; the last "
                               "evaluation scored accuracy 62.5.")
    finally:
        project.close(compact=False)


def test_a_run_that_answers_one_class_for_every_row_says_so(qtbot, tmp_path):
    """CoLA on 32 rows answered "acceptable" for 499 of 500 rows and the page showed an MCC of -2.9
    with no word of it (a regressor's one value is said: the test above)."""
    import tomli_w

    from bertstudio.train.rundir import record_label_ids

    gold = ["pos"] * 14 + ["neg"] * 6
    project = Project.create(tmp_path / "proj", name="r", kind="sentence", labels=LABELS)
    project.import_examples(from_records("sentence", [{"text": f"film {i}", "label": g} for i, g in enumerate(gold)],
                                         labels=LABELS), "dev")
    run = project.new_run_dir("constant")
    (run / "config.toml").write_text(tomli_w.dumps({"task": "sentence", "labels": LABELS}), encoding="utf-8")
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.7}))
    (run / "predictions.jsonl").write_text("".join(json.dumps(
        {"index": r, "split": "dev", "row": r, "gold": g, "label": "pos", "probs": {"neg": 0.3, "pos": 0.7},
         "confidence": 0.7}) + "\n" for r, g in enumerate(gold)), encoding="utf-8")
    record_label_ids(run, LABELS, project.label_ids, project.uid)
    page = _shown_page(qtbot, project, tmp_path)
    try:
        qtbot.waitUntil(lambda: page.run_dir is not None and not page.is_loading())
        note = page.metrics_panel.size_note
        assert not note.isHidden()
        assert note.text().startswith("The model answers \u201cpos\u201d for 20 of 20 evaluation rows (the gold: 70%). "
                                      "Scored on only 20 examples")  # the size's note still follows
    finally:
        project.close(compact=False)


def test_with_nothing_to_show_the_page_says_what_to_do(qtbot, tmp_path, trained_run):
    """With no project, or a project without runs, the page was blank (a new user's first look)."""
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    assert not page.empty_label.isHidden() and "No project is open" in page.empty_label.text()
    project = make_project(tmp_path / "proj")
    try:
        session.set_project(project)
        qtbot.waitUntil(lambda: "no run yet" in page.empty_label.text(), timeout=5000)
        assert not page.empty_label.isHidden()
        shutil.copytree(trained_run, project.runs_dir / "tiny-full")
        page.refresh_runs()
        assert page.run_dir is not None and page.empty_label.isHidden()
    finally:
        project.close(compact=False)


def test_in_a_narrow_window_the_text_column_still_reads(page, qtbot):
    """At 900 px the value columns took the whole table and left the text 20 px ("is …")."""
    page.resize(740, 600)  # the page's share of a 900 px window
    page.show()
    qtbot.waitExposed(page)
    page.show_run(page.run_dir)  # the columns are fitted to the table as it is now
    header, viewport = page.table.horizontalHeader(), page.table.viewport().width()
    assert header.sectionSize(0) >= 0.3 * viewport, (header.sectionSize(0), viewport)


def test_the_value_columns_follow_the_tables_width(page, qtbot):
    """A helper's MRPC Results at 1280 px: "Predicted" and "Confidence" headers cut and the labels
    "not_…"/"equi…", beside a wide text column: the columns had been fitted once, to the table's
    width when the run was shown (narrower then), and never again."""
    page.resize(520, 600)
    page.show()
    qtbot.waitExposed(page)
    page.show_run(page.run_dir)  # fitted to a narrow table: the values squeezed
    header = page.table.horizontalHeader()
    squeezed = [header.sectionSize(c) for c in range(1, page.model.columnCount())]
    page.resize(1300, 800)
    qtbot.waitUntil(lambda: page.table.viewport().width() > 600, timeout=3000)
    natural = [min(header.sectionSizeHint(c), 240) for c in range(1, page.model.columnCount())]
    assert squeezed != natural  # the narrow table did squeeze them (else this test shows nothing)
    assert all(header.sectionSize(c) >= n for c, n in zip(range(1, page.model.columnCount()), natural))
    assert header.sectionSize(0) >= 0.3 * page.table.viewport().width()
    header.resizeSection(2, 150)  # the person drags a column: later width changes keep it
    page.resize(1100, 800)
    qtbot.waitUntil(lambda: page.table.viewport().width() < 900, timeout=3000)
    assert header.sectionSize(2) == 150


def test_a_run_on_rows_replaced_since_joins_no_row_and_cannot_write_gold(page, qtbot):
    """The dev split was replaced by an import after the run: its row 0 is another example now.
    The page showed the new row's text beside the old prediction, and Use prediction as gold
    wrote the old row's prediction onto the new example. An append keeps the rows joined."""
    session = page.session
    project = session.project
    project.import_examples(from_records("sentence", _records(DEV[:7]), labels=LABELS), "dev")  # an append
    assert page.model.rows[0].split == "dev" and "very good film" in page.model.rows[0].example.get("text", "")
    new_dev = [("a different first row", "neg")] + [(f"other row {i}", "neg") for i in range(8)]
    project.import_examples(from_records("sentence", _records(new_dev), labels=LABELS), "dev", replace=True)
    assert all(r.split is None and r.row == -1 for r in page.model.rows)
    page.table.selectRow(0)
    assert not page.accept_button.isEnabled() and not page.set_gold_button.isEnabled()
    page._accept_prediction()  # even if reached: no row to write to
    assert [project.gold("dev", i) for i in range(9)] == ["neg"] * 9
    page.show_run(page.run_dir)  # opened again later: the same
    assert all(r.split is None for r in page.model.rows)


def test_a_regression_run_whose_gold_or_score_is_no_number_is_shown_without_it(qtbot, tmp_path):
    """A sweep of the app's readers: a regression run's prediction with "score": "abc" (or a gold
    "abc") ended the app as the project opened: float() inside the table's sort, in Qt's call."""
    import json

    from bertstudio.train.config import TrainConfig

    rows = [{"text": f"a{i}", "text_pair": f"b{i}", "label": float(i)} for i in range(4)]
    project = Project.create(tmp_path / "reg", name="reg", kind="regression")
    project.import_examples(from_records("regression", rows), "dev")
    run = project.new_run_dir("reg-run")
    TrainConfig(task="regression", output_dir=str(run)).save(run / "config.toml")
    (run / "metrics.json").write_text(json.dumps({"pearson": 0.5}))
    preds = [{"index": i, "split": "dev", "row": i, "gold": float(i), "score": float(i) + 0.1, "loss": 0.01} for i in range(4)]
    preds[1]["score"], preds[2]["gold"] = "abc", "abc"
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    page = _shown_page(qtbot, project, tmp_path)
    try:
        assert page.run_dir == run and page.model.rowCount() == 2
        for column in range(page.model.columnCount()):  # every cell reads, the way sorting and sizing read them
            for row in range(page.model.rowCount()):
                page.model.index(row, column).data()
        note = page.damage_label.text()
        assert note.startswith("2 damaged line(s)") and "score 'abc' is not a number" in note  # the first is named
    finally:
        project.close(compact=False)


def test_a_run_without_predictions_opens_with_an_empty_confusion_matrix(qtbot, tmp_path, trained_run):
    """A run whose predictions.jsonl is missing (or holds no gold) raised "confusion matrix: no
    examples to score" out of the page's open, in Qt's event loop."""
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    project = make_project(tmp_path / "proj")
    try:
        session.set_project(project)
        run = project.runs_dir / "no-predictions"
        shutil.copytree(trained_run, run)
        (run / "predictions.jsonl").unlink()
        page.show_run(run)
        matrix = page.confusion_view.confusion_model
        assert matrix.rowCount() == len(matrix.labels) > 0 and int(matrix.counts.sum()) == 0
        assert page.model.rowCount() == 0
    finally:
        project.close(compact=False)


def test_a_large_run_is_read_off_the_gui_thread_and_a_run_chosen_meanwhile_wins(page, qtbot, trained_run, monkeypatch):
    """50,000 predictions held the GUI thread 21 s; a run past BIG_PREDICTIONS is read on a worker
    (the page says so), and one chosen while it is read is the one shown."""
    import bertstudio.ui.results_page as results_page

    run = page.session.project.runs_dir / "tiny-full"
    other = page.session.project.runs_dir / "tiny-other"
    shutil.copytree(run, other)
    monkeypatch.setattr(results_page, "BIG_PREDICTIONS", 0)  # every run is large
    with qtbot.waitSignal(page.loaded, timeout=20_000) as shown:
        page.show_run(run)
        assert page.is_loading() and page.model.rowCount() == 0
        assert page.empty_label.text() == "Reading the predictions of tiny-full…"
    assert shown.args == [str(run)] and not page.is_loading()
    assert page.model.rowCount() == len(_preds(trained_run)) and not page.empty_label.isVisible()
    page.table.selectRow(3)
    picked = page.current_prediction().index
    page.session.labels_changed.emit()  # a rename: the run is read again, the prediction stays selected
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=20_000)
    assert page.current_prediction() is not None and page.current_prediction().index == picked
    page.show_run(run)
    with qtbot.waitSignal(page.loaded, timeout=20_000) as shown:
        page.show_run(other)  # chosen before the first read is in
    assert shown.args == [str(other)] and page.run_dir == other
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent

    from bertstudio.ui.jobs import JobWorker
    from bertstudio.ui.worker import ThreadJob

    # every read has ended (the one of ``run`` may still be running): none outlives the test
    qtbot.waitUntil(lambda: not any(j._name == "bertstudio-results-read" for j in ThreadJob._running), timeout=20_000)
    assert page.run_dir == other and page.model.rowCount() == len(_preds(trained_run))
    # no full collection here (CI segfaulted in this test when it forced one, with every deferred delete): a
    # read's worker is freed by reference counting alone once its deleteLater has run (which
    # holds it until then; a deleteLater called in qtbot's nested loop waits for the outer one)
    def alive() -> list[JobWorker]:
        return [o for o in gc.get_objects() if type(o) is JobWorker and o._name == "bertstudio-results-read"]

    for waiting in [id(o) for o in alive() if shiboken6.isValid(o)]:  # ids: a reference held here would keep it
        QCoreApplication.sendPostedEvents(next(o for o in alive() if id(o) == waiting), QEvent.Type.DeferredDelete)
    assert alive() == []  # each read's worker kept itself alive through its own signal's lambda, then through its job


def test_a_filter_that_hides_the_current_prediction_moves_to_the_one_in_its_place(page, qtbot):
    """The filter's layout change dropped the current row without a signal: the example view and
    the gold buttons stayed on a hidden prediction, and accepting predictions under Errors only
    no longer moved on to the next error."""
    right = next(i for i, r in enumerate(page.model.rows) if not page.model.is_error(r) and r.split is not None)
    page.table.selectRow(page.proxy.mapFromSource(page.model.index(right, 0)).row())
    page.errors_only.setChecked(True)  # hides the selected (correct) prediction
    now = page.current_prediction()
    assert now is not None and page.model.is_error(now)
    assert page.example_view.toPlainText() == QTextDocumentFragment.fromHtml(page.example_html(now)).toPlainText()
    page.table.selectRow(0)
    before, errors = page.current_prediction(), page.proxy.rowCount()
    assert errors >= 2 and page.accept_button.isEnabled()
    qtbot.mouseClick(page.accept_button, Qt.MouseButton.LeftButton)  # no longer an error: hidden
    now = page.current_prediction()
    assert page.proxy.rowCount() == errors - 1 and now is not None and now.index != before.index


def test_the_size_note_counts_the_rows_with_a_gold_value_only(qtbot, tmp_path):
    """An evaluation file of 60 rows, 20 with gold: the metrics rest on the 20 (10 right), but the
    note said "only 60 examples ... 1.7 points ... interval: 38 to 62" (Wilson of 30/60). Wilson's
    95% interval for 10 of 20 is 29.9 to 70.1 (hand-computed: 0.5 +- 1.96 * sqrt(0.25 / 20 + 0.96 / 400) / 1.192)."""
    from bertstudio.train.config import TrainConfig

    rows = [{"text": f"row {i}", "label": LABELS[i % 2] if i < 20 else None} for i in range(60)]
    project = Project.create(tmp_path / "partial", name="p", kind="sentence", labels=LABELS)
    project.import_examples(from_records("sentence", rows, labels=LABELS), "dev")
    run = project.new_run_dir("partial-run")
    TrainConfig(task="sentence", labels=LABELS, output_dir=str(run)).save(run / "config.toml")
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.5, "macro_f1": 0.5}))
    preds = [{"index": i, "split": "dev", "row": i, "gold": r["label"], "label": "pos", "loss": 0.5}
             for i, r in enumerate(rows)]
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    page = _shown_page(qtbot, project, tmp_path)
    try:
        qtbot.waitUntil(lambda: page.run_dir == run and not page.is_loading())
        note = page.metrics_panel.size_note.text()
        assert "only 20 examples" in note and "about 5 points" in note and "interval: 30 to 70" in note
    finally:
        project.close(compact=False)


def _regression_run(project: Project, name: str, preds: list[dict], metrics: dict) -> Path:
    from bertstudio.train.config import TrainConfig

    run = project.new_run_dir(name)
    TrainConfig(task="regression", output_dir=str(run)).save(run / "config.toml")
    (run / "metrics.json").write_text(json.dumps(metrics))
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    return run


def _regression_page(qtbot, tmp_path: Path, rows: list[dict], pred, metrics: dict, name: str = "reg-run"):
    """A regression project of ``rows`` (dev) with one run whose (score, loss) for row i is
    ``pred(i, row)``, on a shown Results page: (project, page)."""
    project = Project.create(tmp_path / "reg", name="reg", kind="regression")
    project.import_examples(from_records("regression", rows), "dev")
    preds = [dict(zip(("score", "loss"), pred(i, r)), index=i, split="dev", row=i, gold=r["label"])
             for i, r in enumerate(rows)]
    _regression_run(project, name, preds, metrics)
    return project, _shown_page(qtbot, project, tmp_path)


def test_the_metrics_header_says_x100_only_over_scores(qtbot, tmp_path):
    """"Score (x100)" stood over an mse of 11.3727, which is not x100."""
    rows = [{"text": f"a{i}", "text_pair": f"b{i}", "label": float(i % 5)} for i in range(40)]
    project, page = _regression_page(qtbot, tmp_path, rows, lambda i, r: (r["label"] + 0.1 * (i % 3), 0.01),
                                     {"pearson": 0.285, "spearman": 0.427, "mse": 11.3727}, name="reg-run")
    try:
        qtbot.waitUntil(lambda: page.run_dir is not None and not page.is_loading())
        table = page.metrics_panel.metrics_table
        shown = [(table.item(i, 0).text(), table.item(i, 1).text()) for i in range(table.rowCount())]
        assert table.horizontalHeaderItem(1).text() == "Value"
        assert shown == [("Pearson correlation * (x100)", "28.5"), ("Spearman correlation * (x100)", "42.7"),
                         ("mean squared error", "11.3727")]  # named as sentences name them, not by key
        page.metrics_panel.show_metrics({"accuracy": 0.9}, ("accuracy",))  # every row a score: the header says so
        assert table.horizontalHeaderItem(1).text() == "Score (x100)" and table.item(0, 0).text() == "accuracy *"
    finally:
        project.close(compact=False)


def test_in_a_narrow_table_numbers_are_not_elided_while_the_text_has_room(qtbot, tmp_path):
    """At 865 px a 0-100 run's gold read "95.…" and, after a typo gold of 5000, "500…": every value
    column was scaled down alike (to 44 px) beside a text column of 114 px that had room to give (the
    headers may be cut: the numbers are what is read)."""
    rows = [{"text": f"a rather long review number {i} of a film", "label": 95.25 - i} for i in range(8)]
    project, page = _regression_page(qtbot, tmp_path, rows, lambda i, r: (51.307, 1234.5678),
                                     {"pearson": 0.5, "spearman": 0.5, "mse": 10.0}, name="reg-run")
    try:
        page.resize(740, 600)  # the page's share of a 900 px window: a table of about 320 px
        qtbot.waitUntil(lambda: page.run_dir is not None and not page.is_loading())
        page.show_run(page.run_dir)
        table, header = page.table, page.table.horizontalHeader()

        def whole() -> list[tuple[int, int]]:  # (shown, needed) for each value column that cuts its cells
            return [(header.sectionSize(c), table.sizeHintForColumn(c)) for c in range(1, page.model.columnCount())
                    if header.sectionSize(c) < table.sizeHintForColumn(c)]

        assert table.viewport().width() < 400 and header.sectionSize(0) >= 96
        assert whole() == []
        project.set_gold("dev", 0, 5000.0)  # a typo: the gold column needs more room now
        page.session.gold_changed.emit("dev", 0)
        assert whole() == [] and header.sectionSize(0) >= 96
    finally:
        project.close(compact=False)


def test_a_regressor_that_predicts_one_value_gets_no_interval_around_its_zero(qtbot, tmp_path):
    """A collapsed regressor's Pearson and Spearman are undefined (scipy: NaN) and read 0.0 by design;
    the note printed "Pearson's 95% interval: -31 to 31" around that 0 as if it were measured."""
    rows = [{"text": f"a{i}", "text_pair": f"b{i}", "label": float(i % 5)} for i in range(40)]
    project, page = _regression_page(qtbot, tmp_path, rows, lambda i, r: (2.61, 0.01),
                                     {"pearson": 0.0, "spearman": 0.0, "mse": 2.1}, name="flat-run")
    try:
        qtbot.waitUntil(lambda: page.run_dir is not None and not page.is_loading())
        note = page.metrics_panel.size_note.text()
        assert not page.metrics_panel.size_note.isHidden()
        assert note == "The model predicts one value for every example: correlations are undefined (shown as 0)."
        assert "interval" not in note
    finally:
        project.close(compact=False)


def _interrupted_copy(trained_run: Path, run: Path, *, best: bool) -> None:
    """The module's run as a killed app run leaves it: no model, metrics.json or predictions.jsonl,
    no end in its history; with ``best`` its best checkpoint (the step-6 evaluation's predictions)."""
    shutil.copytree(trained_run, run)
    shutil.rmtree(run / "model", ignore_errors=True)
    (run / "metrics.json").unlink()
    lines = (run / "history.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["kind"] == "finished"
    (run / "history.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    shutil.rmtree(run / "checkpoints", ignore_errors=True)
    if best:
        (run / "checkpoints" / "best").mkdir(parents=True)
        (run / "predictions.jsonl").rename(run / "checkpoints" / "best" / "predictions.jsonl")
        (run / "checkpoints" / "best" / "state.json").write_text(json.dumps({"step": 6}))
    else:
        (run / "predictions.jsonl").unlink()


def test_an_interrupted_run_says_so_and_shows_its_best_checkpoint(qtbot, tmp_path, trained_run):
    """An app run killed mid-training showed as an empty, all-zero run ("0 of 0 examples") without a
    word, though it had evaluated and its checkpoints/best held predictions. The page says where it
    stopped and shows that checkpoint's predictions and scores, labelled as such."""
    project = make_project(tmp_path / "proj")
    evals = [json.loads(l) for l in (trained_run / "history.jsonl").read_text().splitlines()]
    at_6 = [e["metrics"] for e in evals if e["kind"] == "eval" and e["step"] == 6]
    assert at_6, "the module's run evaluates at step 6"
    _interrupted_copy(trained_run, project.runs_dir / "a-killed", best=True)
    _interrupted_copy(trained_run, project.runs_dir / "b-killed-bare", best=False)
    page = _shown_page(qtbot, project, tmp_path)
    try:
        page.show_run(project.runs_dir / "a-killed")
        qtbot.waitUntil(lambda: not page.is_loading(), timeout=5000)
        note = page.state_label
        assert not note.isHidden()
        assert note.text() == ("This run was interrupted at step 12 before it saved its model (its process was closed "
                               "or crashed). Shown: the predictions of its best checkpoint (checkpoints/best), from "
                               "the evaluation at step 6.")
        assert page.model.rowCount() == 8  # the checkpoint's predictions, joined to the project rows
        table = page.metrics_panel.metrics_table
        shown = {table.item(i, 0).text().rstrip(" *"): table.item(i, 1).text() for i in range(table.rowCount())}
        assert "accuracy" in shown and float(shown["accuracy"]) == pytest.approx(100 * at_6[0]["accuracy"], abs=0.05)
        page.show_run(project.runs_dir / "b-killed-bare")
        qtbot.waitUntil(lambda: not page.is_loading(), timeout=5000)
        assert note.text().startswith("This run was interrupted at step 12 before it saved its model")
        assert "evaluated 2 time(s)" in note.text() and page.model.rowCount() == 0
        page.show_run(trained_run)
        qtbot.waitUntil(lambda: not page.is_loading(), timeout=5000)
        assert note.isHidden()
    finally:
        project.close(compact=False)


def test_a_cancelled_runs_best_note_says_it_was_cancelled(qtbot):
    """"From the best evaluation, at step 36 of 145" read as a 145-step run; 145 was where a 600-step
    run was cancelled."""
    from bertstudio.ui.metrics_panel import MetricsPanel

    panel = MetricsPanel()
    qtbot.addWidget(panel)
    panel.show_metrics({"accuracy": 0.9}, ("accuracy",), best_step=36, steps=145, status="cancelled")
    assert panel.best_note.text() == ("From the best evaluation, at step 36: the run was cancelled at step 145 and "
                                      "kept those weights, as no later evaluation scored higher.")


def test_the_best_step_note_says_a_few_plain_last_scores_whatever_metrics_json_holds(qtbot):
    """metrics.json's last_evaluation is any file's: a key "<h1>BIG</h1><img src=x>" rendered a heading
    and a broken image, 5,000 keys made a 59 KB note, 1e308 read "accuracy inf" and a key's line break
    and bell were shown raw (sweep_today51 defect 4). The notes are plain text; the scores named are
    the official or kept ones (else three, then "…"), each finite and in range, keys escaped."""
    from bertstudio.metrics.classification import OneAnswer
    from bertstudio.ui.metrics_panel import MetricsPanel

    panel = MetricsPanel()
    qtbot.addWidget(panel)
    note = panel.best_note
    lead = "These scores were selected on this evaluation set; the last evaluation scored "

    def last_scores(last, kept=None, official=("accuracy",)):
        panel.show_metrics(kept or {"accuracy": 0.9}, official, best_step=6, steps=12, last_metrics=last)
        text = note.text()
        return text[text.index(lead) + len(lead):] if lead in text else None

    html = "<h1>BIG</h1><img src=x>"
    assert last_scores({html: 0.5}) == f"{html} 50.0." and note.textFormat() == Qt.TextFormat.PlainText
    many = {f"m{i}": 0.5 for i in range(5000)}
    assert last_scores(many) == "m0 50.0, m1 50.0, m2 50.0, …."
    assert last_scores(many, kept={"accuracy": 0.9, "m7": 0.4}) == "m7 50.0."  # the kept table's keys
    assert last_scores({"accuracy": 1e308, "f1": 0.5}, kept={"accuracy": 0.9, "f1": 0.6}) == "F1 50.0."
    assert last_scores({"mse": 1e308, "a\n\x07": 0.25}, kept={"mse": 0.1}, official=()) == "a\\n\\x07 25.0."
    assert last_scores({"accuracy": float("nan")}) is None and note.text().endswith("scored higher.")
    panel.show_metrics({"accuracy": 0.5}, ("accuracy",), one_answer=OneAnswer(html, 20, 20, 0.7))
    assert html in panel.size_note.text() and panel.size_note.textFormat() == Qt.TextFormat.PlainText


def _right_run(project: Project, name: str) -> Path:
    """A run of ``project`` on its labelled dev rows, right and sure on each under the labels of
    now, with its labels' ids recorded as the app records them when it starts a run."""
    import tomli_w

    from bertstudio.train.rundir import record_label_ids

    run = project.new_run_dir(name)
    labels = list(project.labels)
    (run / "config.toml").write_text(tomli_w.dumps({"task": "sentence", "labels": labels}), encoding="utf-8")
    lineage = project.split_info["dev"].get("lineage")
    rows = [r for r in range(project.split_info["dev"]["rows"]) if project.gold("dev", r) is not None]
    (run / "predictions.jsonl").write_text("".join(json.dumps(
        {"index": i, "split": "dev", "row": r, "lineage": lineage, "gold": project.gold("dev", r),
         "label": project.gold("dev", r), "probs": {n: 0.9 if n == project.gold("dev", r) else 0.1 for n in labels},
         "confidence": 0.9}) + "\n" for i, r in enumerate(rows)), encoding="utf-8")
    record_label_ids(run, labels, project.label_ids, project.uid)
    return run


def _select_dev_row(page: ResultsPage, row: int) -> None:
    i = next(i for i, r in enumerate(page.model.rows) if r.split == "dev" and r.row == row)
    page.table.selectRow(page.proxy.mapFromSource(page.model.index(i, 0)).row())


def _page_with_no_errors(qtbot, project: Project, tmp_path: Path, run: Path) -> ResultsPage:
    """The page showing ``run``, whose Errors only lists none of its rows; dev row 0 selected."""
    page = _shown_page(qtbot, project, tmp_path)
    page.show_run(run)
    page.errors_only.setChecked(True)
    assert page.proxy.rowCount() == 0
    page.errors_only.setChecked(False)
    _select_dev_row(page, 0)
    return page


def test_after_a_swap_a_right_run_shows_no_error_and_its_prediction_writes_the_same_class(qtbot, tmp_path):
    """neg and pos swapped names after the run (the run's pos is today's neg): every row showed as
    an error, and 'Use prediction as gold' wrote the run's old name, today the OTHER class."""
    project = make_project(tmp_path / "proj")
    run = _right_run(project, "before-swap")
    before = [project.gold("dev", r) for r in range(len(DEV))]
    project.rename_label("pos", "tmp")
    project.rename_label("neg", "pos")
    project.rename_label("tmp", "neg")
    page = _page_with_no_errors(qtbot, project, tmp_path, run)
    r = page.current_prediction()
    assert (r.gold, page.model.predicted_value(r)) == ("neg", "neg")  # dev row 0 was 'pos': today's 'neg'
    page.accept_button.click()
    assert [project.gold("dev", r) for r in range(len(DEV))] == [{"pos": "neg", "neg": "pos"}.get(g, g) for g in before]
    project.close(compact=False)


def _run_predicting_a_removed_class(project: Project) -> Path:
    """A run that predicts "meh" for every row, "meh" then removed and another class added under its name."""
    project.add_label("meh")
    run = _right_run(project, "with-meh")
    run_preds = _preds(run)
    for p in run_preds:
        p["label"] = "meh"
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in run_preds), encoding="utf-8")
    project.remove_label("meh")
    project.add_label("meh")  # another class under the removed one's name
    return run


def test_after_a_rename_a_right_run_shows_no_error_and_a_removed_class_is_not_written(qtbot, tmp_path):
    """pos renamed positive after the run: Errors only listed every right 'pos' row (4 of 8)."""
    project = make_project(tmp_path / "proj")
    run = _right_run(project, "before-rename")
    project.rename_label("pos", "positive")
    page = _page_with_no_errors(qtbot, project, tmp_path, run)
    assert page.model.predicted_value(page.current_prediction()) == "positive" and page.accept_button.isEnabled()
    table = page.metrics_panel.per_class_table  # the run's report under today's names, as its matrix
    assert {table.item(i, 0).text() for i in range(table.rowCount())} >= {"positive", "neg"}
    assert "pos" not in {table.item(i, 0).text() for i in range(table.rowCount())}
    # a class removed since the run: refused, even where a later label took its old name
    run = _run_predicting_a_removed_class(project)
    page.show_run(run)
    _select_dev_row(page, 1)
    assert page.model.predicted_value(page.current_prediction()) == "meh (removed)"
    assert not page.accept_button.isEnabled()
    project.close(compact=False)


def test_a_run_of_a_copied_project_folder_never_writes_its_new_class_as_this_ones(qtbot, tmp_path):
    """Two copies of one project folder (cp -r: the same uid) each made a label of their own, and
    both got the next id: a run of copy A in B's runs/ showed A's 'x' as B's 'y', and 'Use
    prediction as gold' wrote 'y' on B's row, a class A's run never predicted."""
    make_project(tmp_path / "a").close()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    a, b = Project.open(tmp_path / "a"), Project.open(tmp_path / "b")
    a.add_label("x")
    b.add_label("y")
    a.set_gold("dev", 0, "x")
    run = _right_run(a, "a-run")
    a.close(compact=False)
    copied = shutil.copytree(run, b.runs_dir / "a-run")
    page = _shown_page(qtbot, b, tmp_path)
    page.show_run(copied)
    _select_dev_row(page, 0)
    assert page.model.predicted_value(page.current_prediction()) == "x"
    assert not page.accept_button.isEnabled()
    _select_dev_row(page, 1)  # a class the copies shared before the split is still this project's
    assert page.model.predicted_value(page.current_prediction()) == "neg" and page.accept_button.isEnabled()
    b.close(compact=False)


def test_two_jobs_runs_of_one_name_are_told_apart_in_the_run_list(qtbot, tmp_path, trained_run):
    """Two seeds jobs' runs were listed as "seed-42" twice (the Runs page and Compare named their jobs)."""
    import shutil

    project = make_project(tmp_path / "proj")
    try:
        for job in ("seeds4", "seeds5"):
            shutil.copytree(trained_run, project.runs_dir / job / "seed-42", ignore=shutil.ignore_patterns("model"))
        shutil.copytree(trained_run, project.runs_dir / "solo", ignore=shutil.ignore_patterns("model"))
        page = _shown_page(qtbot, project, tmp_path)
        texts = sorted(page.run_combo.itemText(i) for i in range(page.run_combo.count()))
        assert texts == ["seeds4/seed-42", "seeds5/seed-42", "solo"], texts
    finally:
        project.close(compact=False)


def test_a_removed_class_and_the_metric_names_are_said_in_chinese(qtbot, qapp, tmp_path):
    """In the Chinese window the Results page read "meh (removed)" (the core's English marker) and its
    metric table "accuracy *" (the key)."""
    from bertstudio import app as app_module
    from bertstudio.ui.run_words import metric_name

    installed = app_module.install_translators(qapp, "zh_CN")
    project = make_project(tmp_path / "proj")
    try:
        run = _run_predicting_a_removed_class(project)
        page = _shown_page(qtbot, project, tmp_path)
        page.show_run(run)
        qtbot.waitUntil(lambda: not page.is_loading(), timeout=5000)
        _select_dev_row(page, 1)
        assert page.model.predicted_value(page.current_prediction()) == "meh（已删除）"
        page.metrics_panel.show_metrics({"accuracy": 0.9, "mcc": 0.5}, ("accuracy",))
        table = page.metrics_panel.metrics_table
        assert [table.item(i, 0).text() for i in range(2)] == [metric_name("accuracy") + " *", metric_name("mcc")]
        assert table.item(0, 0).text() == "准确率 *" and table.item(0, 0).data(Qt.ItemDataRole.UserRole) == "accuracy"
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
        project.close(compact=False)


def test_runs_another_process_adds_or_removes_reach_the_page_without_runs_changed(qtbot, tmp_path, trained_run):
    """A CLI run (runs/cli2) and an `rm -r` of the run shown: the Runs page's watcher heard both, but
    only the Runs page listed again. Results kept showing the deleted run's scores as current, and
    never offered the new one."""
    from bertstudio.ui.runs_page import RunsPage

    project = project_with_run(trained_run, tmp_path / "proj", "cli1")
    try:
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        runs = RunsPage(session)
        page = ResultsPage(session)
        qtbot.addWidget(runs)
        qtbot.addWidget(page)
        assert page.run_dir.name == "cli1"

        def listed() -> list[str]:
            return [page.run_combo.itemText(i) for i in range(page.run_combo.count())]

        shutil.copytree(trained_run, project.runs_dir / "cli2")  # `bertstudio train --out runs/cli2` ended
        qtbot.waitUntil(lambda: listed() == ["cli2", "cli1"], timeout=5000)
        assert page.run_dir.name == "cli2"  # a new run on top is shown, as one trained here
        page.run_combo.setCurrentIndex(listed().index("cli1"))
        assert page.run_dir.name == "cli1" and not page.gone_label.isVisibleTo(page)
        shutil.rmtree(project.runs_dir / "cli1")  # in a terminal
        qtbot.waitUntil(lambda: listed() == ["cli2"], timeout=5000)
        assert page.run_dir.name == "cli2" and page.gone_label.isVisibleTo(page)
        assert "cli1" in page.gone_label.text() and "no longer" in page.gone_label.text()
        runs.stop_following()
    finally:
        project.close(compact=False)


def test_the_run_shown_stays_shown_when_the_runs_page_renames_it(qtbot, tmp_path, trained_run):
    """Rename on the Runs page made Results drop the run it showed as "no longer on disk" and show
    the newest run instead: it follows the new name."""
    from bertstudio.ui.runs_page import RunsPage

    project = project_with_run(trained_run, tmp_path / "proj", "first")
    try:
        shutil.copytree(trained_run, project.runs_dir / "second")
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        runs = RunsPage(session)
        page = ResultsPage(session)
        qtbot.addWidget(runs)
        qtbot.addWidget(page)
        page.show_run(project.runs_dir / "first")
        qtbot.waitUntil(lambda: not page.is_loading(), timeout=5000)
        runs.rename(project.runs_dir / "first", "baseline")
        assert page.run_dir == project.runs_dir / "baseline" and not page.gone_label.isVisibleTo(page)
        assert page.run_combo.currentText() == "baseline"
        runs.stop_following()
    finally:
        project.close(compact=False)


def test_a_run_with_a_long_history_or_a_first_report_is_read_off_the_gui_thread(page, qtbot, monkeypatch):
    """Only a large predictions file sent a run to the worker: a 42 MB history (200,000 logged
    steps) was read whole on the GUI thread (1.0 s), and at project open the first per-class
    report imported scikit-learn there (2.5-5 s). Either reads on the worker now, said so."""
    import bertstudio.ui.results_page as results_page

    run = page.session.project.runs_dir / "tiny-full"
    monkeypatch.setattr(results_page, "BIG_HISTORY", (run / "history.jsonl").stat().st_size - 1, raising=False)
    with qtbot.waitSignal(page.loaded, timeout=20_000):
        page.show_run(run)
        assert page.is_loading() and page.model.rowCount() == 0
    assert page.model.rowCount() == len(_preds(run)) and not page.is_loading()
    monkeypatch.setattr(results_page, "BIG_HISTORY", 1 << 40, raising=False)
    page.show_run(run)
    assert not page.is_loading() and page.model.rowCount() == len(_preds(run))  # a small run: at once
    monkeypatch.setattr(results_page, "_report_libraries_loaded", lambda: False, raising=False)
    with qtbot.waitSignal(page.loaded, timeout=20_000):
        page.show_run(run)
        assert page.is_loading()
    assert page.model.rowCount() == len(_preds(run))
