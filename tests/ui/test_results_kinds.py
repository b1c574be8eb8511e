"""Results page and Playground for tagging (BIO and POS, real tiny runs), regression (a real tiny
STS-B run: the scatter), QA (the example view), and a run folder from another project."""

from __future__ import annotations

import json
import shutil
import warnings
from collections import Counter
from pathlib import Path


import pytest
from helpers import project_with_run
from PySide6.QtCore import QSettings, Qt

from bertstudio.data.examples import from_records
from bertstudio.data.formats.common import iob1_to_bio
from bertstudio.data.project import Project
from bertstudio.ui.playground import PlaygroundPage
from bertstudio.train.sources import project_rows
from bertstudio.ui.example_html import WRONG_BG
from bertstudio.ui.predictions_model import PredictionRow
from bertstudio.ui.example_html import GOLD_BG, PRED_BG
from bertstudio.ui.results_page import ResultsPage
from bertstudio.ui.session import ProjectSession

TAGS = ["O", "B-PER", "I-PER", "B-LOC"]
SENTS = [
    (["she", "is", "in", "paris"], ["O", "O", "O", "B-LOC"]),
    (["he", "was", "in", "london"], ["O", "O", "O", "B-LOC"]),
    (["the", "man", "is", "at", "paris"], ["O", "O", "O", "O", "B-LOC"]),
    (["dog", "cat", "in", "london"], ["B-PER", "I-PER", "O", "B-LOC"]),
]


def _project(folder: Path) -> Project:
    project = Project.create(folder, name="ner", kind="tagging", labels=TAGS)
    rows = [{"tokens": t, "tags": g} for t, g in SENTS]
    project.import_examples(from_records("tagging", rows * 4, labels=TAGS), "train")
    project.import_examples(from_records("tagging", rows, labels=TAGS), "dev")
    return project


@pytest.fixture(scope="module")
def tagging_run(tmp_path_factory, tiny_model_dir) -> Path:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    root = tmp_path_factory.mktemp("tag")
    project = _project(root / "proj")
    out = root / "run"
    config = TrainConfig(task="tagging", labels=TAGS, model=str(tiny_model_dir), epochs=2, batch_size=4, lr=1e-3,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    result = train(config, project.examples("train"), project_rows(project.examples("dev"), [0, 1, 2, 3]))
    assert result.status == "finished", result.message
    project.close(compact=False)
    return out


@pytest.fixture
def session(tmp_path, tagging_run):
    project = project_with_run(tagging_run, tmp_path / "proj", "ner-run")
    s = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    yield s
    project.close(compact=False)


def test_tagging_results_show_spans_and_filter_errors(qtbot, session, tagging_run, qtmodeltester):
    page = ResultsPage(session)
    qtbot.addWidget(page)
    qtmodeltester.check(page.model)
    preds = [json.loads(l) for l in (tagging_run / "predictions.jsonl").read_text().splitlines()]
    assert page.model.rowCount() == 4 and not page.confusion_view.isVisibleTo(page)
    assert page.metrics_table.item(0, 0).text() == "F1 *"  # entity F1 is tagging's official metric (named, not its key)
    page.errors_only.setChecked(True)
    assert page.proxy.rowCount() == sum(p["tags"] != p["gold"] for p in preds)
    page.errors_only.setChecked(False)
    page.table.selectRow(3)
    html = page.example_html(page.current_prediction())
    assert f'background:{GOLD_BG}; color:#000000">[dog cat]<sub>PER</sub>' in html  # the gold two-word PER span
    assert "[london]<sub>LOC</sub>" in html
    # Accepting the prediction writes the predicted tags as gold (undoable), and says what it changed:
    # it replaced dev gold, what runs are scored on, without a word
    said: list[str] = []
    page.status_message.connect(said.append)
    qtbot.mouseClick(page.accept_button, Qt.MouseButton.LeftButton)
    assert session.project.gold("dev", 3) == iob1_to_bio(preds[3]["tags"])
    changed = sum(a != b for a, b in zip(SENTS[3][1], iob1_to_bio(preds[3]["tags"])))
    assert said == [f"Dev row 4: {changed} of {len(SENTS[3][1])} tags are now the run's predictions; this run's "
                    "scores were computed with the earlier gold (Edit > Undo restores it)"]
    session.undo_stack.undo()
    assert session.project.gold("dev", 3) == SENTS[3][1]


def test_a_held_out_training_row_taken_as_gold_says_the_scores_used_its_old_gold(qtbot, session):
    """A run without dev data scores rows it held out of the train split: taking one's prediction
    said nothing of the scores (the note was kept for dev and test rows only)."""
    from bertstudio.ui.predictions_model import PredictionRow

    page = ResultsPage(session)
    qtbot.addWidget(page)
    held_out = PredictionRow(index=0, split="train", row=6, example={}, gold="pos", pred={})
    text = page._accepted_text(held_out, "neg", "pos")
    assert text == ("Train row 7: the gold value is now the run's prediction; this run's scores were computed "
                    "with the earlier gold (Edit > Undo restores it)")


def test_ner_results_say_how_few_entities_the_scores_rest_on_and_keep_the_title_on_its_table(qtbot, session):
    """An NER run on a few sentences gave no small-sample note (only classification did), and the
    per-type table's title floated far above the table in a tall window."""
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.resize(900, 1000)
    page.show()
    qtbot.waitExposed(page)
    panel = page.metrics_panel
    entities = sum(int(panel.per_class_table.item(i, 4).text()) for i in range(panel.per_class_table.rowCount() - 2))
    assert not panel.size_note.isHidden() and f"only {entities} gold entities" in panel.size_note.text()
    title, table = panel.per_class_title.geometry(), panel.per_class_table.geometry()
    assert 0 <= table.top() - title.bottom() < 20, (title, table)
    assert title.height() < 2 * panel.per_class_title.fontMetrics().height(), title  # a line, its text on the table


def test_a_predicted_i_tag_without_its_b_tag_is_stored_as_a_whole_entity(qtbot, tmp_path, tagging_run):
    """"Use prediction as gold" stored ['O', 'I-PER', ...], a span the Label page cannot make and the
    strict BIO check refuses on import: an I-X the model left alone opens an X entity, as the scores read it."""
    run = tmp_path / "orphan-run"
    shutil.copytree(tagging_run, run)
    preds = [json.loads(line) for line in (run / "predictions.jsonl").read_text().splitlines()]
    preds[0]["tags"] = ["O", "I-PER", "I-PER", "B-LOC"]
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    shutil.copytree(tagging_run.parent / "proj", tmp_path / "proj")
    project = Project.open(tmp_path / "proj")  # the run's own project: the same rows
    shutil.copytree(run, project.runs_dir / "ner-run")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    for proxy_row in range(page.proxy.rowCount()):
        if page.proxy.mapToSource(page.proxy.index(proxy_row, 0)).row() == 0:
            page.table.selectRow(proxy_row)
    qtbot.mouseClick(page.accept_button, Qt.MouseButton.LeftButton)
    assert session.project.gold("dev", 0) == ["O", "B-PER", "I-PER", "B-LOC"]
    session.close()


def test_tagging_playground_tags_every_typed_token(qtbot, session):
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    assert page.kind == "tagging"
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        qtbot.keyClicks(page.input, "she is in london")
        page.predict()
    result = shown.args[0]
    assert len(result["tags"]) == 4 and set(result["tags"]) <= set(TAGS)
    assert "london" in page.output.toPlainText()

    # a long sentence wraps, a few words per row: one table row of 340 words stacked each word's letters
    page.resize(800, 600)
    page.show()
    words = "she is in london and he is in paris".split() * 6  # 54 words
    page.output.setHtml(page.result_html({"inputs": {"tokens": words}, "tags": ["O"] * len(words), "entities": []}))
    table = page.output.document().rootFrame().childFrames()[0]
    assert table.rows() == 6 and table.columns() == 10


def test_qa_example_marks_gold_and_predicted_answers(qtbot, tmp_path):
    project = Project.create(tmp_path / "qa", name="qa", kind="qa")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.kind = "qa"
    context = "The river runs through Paris, the capital of France."
    row = PredictionRow(0, "dev", 0, {"question": "Which city?", "context": context},
                        {"text": ["Paris"], "answer_start": [23]}, {"answer": "the capital of France", "start": 30, "score": 1.0})
    html = page.example_html(row)
    assert f'<span style="background:{GOLD_BG}; color:#000000">Paris</span>' in html
    assert f'<span style="background:{PRED_BG}; color:#000000">the capital of France</span>' in html
    assert "Which city?" in html
    project.close(compact=False)


def test_a_qa_run_gives_the_answers_the_room_and_names_its_score(qtbot, tmp_path):
    """At 900 px the QA predictions table hid its Predicted column behind a left column that held
    two scores, and "Confidence 1.2812" read as a probability (it is a logit sum)."""
    import tomli_w

    context = "The river runs through Paris, the capital of France."
    rows = [{"id": f"q{i}", "title": "t", "context": context, "question": f"Which city is question {i} about?",
             "answers": {"text": ["Paris"], "answer_start": [23]}} for i in range(12)]
    project = Project.create(tmp_path / "qa", name="qa", kind="qa")
    project.import_examples(from_records("qa", rows), "dev")
    run = project.runs_dir / "qa-run"
    run.mkdir(parents=True)
    (run / "config.toml").write_text(tomli_w.dumps({"task": "qa"}), encoding="utf-8")
    (run / "metrics.json").write_text(json.dumps({"exact_match": 0.5, "f1": 0.6}), encoding="utf-8")
    preds = [{"index": i, "answer": "the capital of France", "start": 30, "score": 1.2812} for i in range(12)]
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds), encoding="utf-8")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        page = ResultsPage(session)
        qtbot.addWidget(page)
        page.resize(740, 600)  # the page's share of a 900 px window
        page.show()
        qtbot.waitExposed(page)
        page.show_run(str(run))
        model, table = page.model, page.table
        assert model.headerData(model.column_of("confidence"), Qt.Orientation.Horizontal) == "Span score"
        assert "not a probability" in model.headerData(model.column_of("confidence"), Qt.Orientation.Horizontal,
                                                        Qt.ItemDataRole.ToolTipRole)
        header = table.horizontalHeader()
        last = header.sectionViewportPosition(model.columnCount() - 1) + header.sectionSize(model.columnCount() - 1)
        assert last <= table.viewport().width() + 1, (last, table.viewport().width())  # every column in view
        assert header.sectionSize(0) >= 0.3 * table.viewport().width()  # and the question reads
    finally:
        session.close()


# --- POS (plain tags): issue 14, item 6 -------------------------------------------------------


def _run(tmp_path_factory, name, kind, labels, train_set, dev_set, model, epochs=2):
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    out = tmp_path_factory.mktemp(name) / "run"
    config = TrainConfig(task=kind, labels=labels, model=str(model), epochs=epochs, batch_size=8, lr=1e-3,
                         max_length=48, device="cpu", precision="fp32", output_dir=str(out))
    result = train(config, train_set, project_rows(dev_set, range(len(dev_set))))
    assert result.status == "finished", result.message
    return out


@pytest.fixture(scope="module")
def ewt(shared_data):
    from bertstudio.data.io import load_examples

    return load_examples(shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu")


@pytest.fixture(scope="module")
def pos_run(tmp_path_factory, tiny_model_dir, ewt) -> Path:
    return _run(tmp_path_factory, "pos", "tagging", ewt.labels, ewt.select(range(48)), ewt.select(range(48, 64)),
                tiny_model_dir)


def _session_with(tmp_path, kind, labels, train_set, dev_set, run, name="own-run"):
    project = Project.create(tmp_path / f"proj-{kind}", name=kind, kind=kind, labels=labels)
    project.import_examples(train_set, "train")
    project.import_examples(dev_set, "dev")
    shutil.copytree(run, project.runs_dir / name)
    return ProjectSession(project, settings=QSettings(str(tmp_path / f"{kind}.ini"), QSettings.Format.IniFormat))


def test_pos_results_show_every_word_with_its_tag(qtbot, tmp_path, ewt, pos_run):
    session = _session_with(tmp_path, "tagging", ewt.labels, ewt.select(range(48)), ewt.select(range(48, 64)), pos_run)
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.resize(1300, 800)
    page.show()
    qtbot.waitExposed(page)
    preds = [json.loads(line) for line in (pos_run / "predictions.jsonl").read_text().splitlines()]
    wrong = [sum(g != p for g, p in zip(row["gold"], row["tags"])) for row in preds]
    # The table's gold/predicted columns: word counts and wrong-tag counts, not cut-off tag lists.
    gold_col, pred_col = page.model.column_of("gold"), page.model.column_of("predicted")
    assert page.proxy.headerData(gold_col, Qt.Orientation.Horizontal) == "Words"
    assert page.proxy.headerData(pred_col, Qt.Orientation.Horizontal) == "Wrong tags"
    page.table.sortByColumn(pred_col, Qt.SortOrder.DescendingOrder)  # most wrong words first
    first = page.proxy.mapToSource(page.proxy.index(0, 0)).row()
    assert wrong[first] == max(wrong) > 0
    assert page.proxy.index(0, pred_col).data().startswith(f"{max(wrong)} of {len(preds[first]['gold'])}: ")
    assert page.proxy.index(0, gold_col).data() == str(len(preds[first]["gold"]))
    # Clicking the row shows each word with its tag; wrong words carry "predicted / gold".
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # seqeval's "PRON seems not to be NE tag" would fail here
        qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton,
                         pos=page.table.visualRect(page.proxy.index(0, 0)).center())
    assert page.current_prediction().index == preds[first]["index"]
    html, text = page.example_html(page.current_prediction()), page.example_view.toPlainText()
    tokens = ewt.dataset[48 + first]["tokens"]
    for word, g, p in zip(tokens, preds[first]["gold"], preds[first]["tags"]):
        assert (f"{word}{g}" if g == p else f"{word}{p} / {g}") in text
    assert html.count(f"background:{WRONG_BG}") == wrong[first] and "[" not in text
    # Per-tag precision / recall / F1 with token support, in the tag set's order.
    table = page.metrics_panel.per_class_table
    names = [table.item(i, 0).text() for i in range(table.rowCount())]
    assert names == ewt.labels + ["macro avg", "weighted avg"] and "PRON" in names
    supports = Counter(t for row in preds for t in row["gold"])
    assert {names[i]: table.item(i, 4).text() for i in range(len(ewt.labels))} == \
        {t: str(supports.get(t, 0)) for t in ewt.labels}
    assert page.metrics_panel.per_class_title.text() == "Per tag (support: tokens)"
    assert [page.metrics_table.item(i, 0).text() for i in range(page.metrics_table.rowCount())] == ["accuracy *"]
    session.close()


# --- regression: issue 14, item 7 --------------------------------------------------------------


@pytest.fixture(scope="module")
def stsb(shared_data):
    from bertstudio.data.io import load_examples

    return load_examples(shared_data / "glue" / "STS-B" / "dev.tsv")


@pytest.fixture(scope="module")
def stsb_run(tmp_path_factory, tiny_model_dir, stsb) -> Path:
    return _run(tmp_path_factory, "stsb", "regression", [], stsb.select(range(48)), stsb.select(range(48, 72)),
                tiny_model_dir)


def test_a_siamese_scores_model_asks_for_both_sentences(qtbot, tmp_path, tmp_path_factory, stsb, tiny_model_dir):
    """A helper's STS-B model (the siamese head Automatic picks) answered "Score: 2.500" to one
    sentence in the Playground, and `bertstudio predict --text` gave 2.45 with exit 0: each text
    of a pair is encoded alone, so the second was an empty string. Both now ask for it."""
    from bertstudio.errors import ConfigError
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train
    from bertstudio.train.predict import Predictor

    out = tmp_path_factory.mktemp("stsb-siamese") / "run"
    config = TrainConfig(task="regression", head="siamese", model=str(tiny_model_dir), epochs=1, batch_size=8, lr=1e-3,
                         max_length=48, device="cpu", precision="fp32", output_dir=str(out))
    assert train(config, stsb.select(range(16)), project_rows(stsb.select(range(16, 24)), range(8))).status == "finished"
    predictor = Predictor.load(out / "model")
    with pytest.raises(ConfigError, match="model that reads sentence pairs needs text_pair"):
        predictor.predict(text="A plane is taking off.")
    assert isinstance(predictor.predict(text="A plane is taking off.", text_pair="A plane departs.")["score"], float)

    session = _session_with(tmp_path, "regression", [], stsb.select(range(16)), stsb.select(range(16, 24)), out)
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    qtbot.keyClicks(page.input, "A plane is taking off.")
    page.predict()
    assert page.status.text() == "Type the second sentence to predict." and page._job is None
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
        qtbot.keyClicks(page.input2, "A plane departs.")
        page.predict()
    session.close()


def test_regression_scatter_points_open_their_example(qtbot, tmp_path, stsb, stsb_run):
    session = _session_with(tmp_path, "regression", [], stsb.select(range(48)), stsb.select(range(48, 72)), stsb_run)
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.resize(1300, 900)
    page.show()
    qtbot.waitExposed(page)
    preds = [json.loads(line) for line in (stsb_run / "predictions.jsonl").read_text().splitlines()]
    scatter = page.scatter
    assert scatter.isVisible() and not page.confusion_panel.isVisible() and not page.metrics_panel.per_class_table.isVisible()
    xs, ys = scatter.points.getData()
    shown, wanted = sorted(zip(xs.tolist(), ys.tolist())), sorted((p["gold"], p["score"]) for p in preds)
    assert len(shown) == len(wanted) == 24
    assert all(a == pytest.approx(b) for a, b in zip(shown, wanted))
    line_x, line_y = scatter.diagonal.getData()
    assert list(line_x) == list(line_y) and line_x[0] <= min(xs.min(), ys.min()) and line_x[-1] >= max(xs.max(), ys.max())
    golds = Counter(p["gold"] for p in preds)  # a point of its own, not one under another
    far = max((i for i in range(len(preds)) if golds[preds[i]["gold"]] == 1),
              key=lambda i: abs(preds[i]["gold"] - preds[i]["score"]))
    target = preds[far]
    pos = scatter.widget_pos(target["gold"], target["score"]).toPoint()
    qtbot.mouseClick(scatter.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    current = page.current_prediction()
    assert current is not None and current.index == target["index"]
    assert stsb.dataset[48 + far]["text"] in page.example_view.toPlainText()
    session.close()


# --- a run from another project: issue 14, item 9 ----------------------------------------------


def test_a_run_from_another_project_is_only_viewed_and_says_so(qtbot, tmp_path, stsb_run, tagging_run):
    from bertstudio.ui.main_window import MainWindow

    project = _project(tmp_path / "ner")
    shutil.copytree(tagging_run, project.runs_dir / "ner-run")
    window = MainWindow(ProjectSession(project, settings=QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    results, runs = window.pages["results"], window.pages["runs"]
    own = project.runs_dir / "ner-run"
    assert results.run_dir == own
    runs.open_run(str(stsb_run))  # Runs > Open run folder…: an STS-B run, not this project's
    runs.stop_following()
    assert results.run_dir == own  # still the project's run
    assert not results.foreign_label.isVisible()
    assert [results.run_at(i) for i in range(results.run_combo.count())] == [own]
    # Double-clicking it on the Runs page opens it for viewing, and the page says whose it is.
    window.show_page("runs")
    row = [r.folder for r in runs.model.runs].index(Path(str(stsb_run)))
    rect = runs.table.visualRect(runs.model.index(row, 0))
    qtbot.mouseClick(runs.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real double
    qtbot.mouseDClick(runs.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # click presses first
    assert window.current_page_key() == "results" and results.run_dir == Path(str(stsb_run))
    assert results.foreign_label.isVisible()
    note = results.foreign_label.text()
    assert "not one of this project's runs" in note and "regression run" in note and "tagging examples" in note
    assert results.run_combo.currentText() == "run (not in this project)"
    assert results.model.rowCount() == 24 and all(r.split is None for r in results.model.rows)
    results.table.selectRow(0)
    assert not results.accept_button.isEnabled()  # nothing of this project to relabel
    # Picking the project's run again: the note and the foreign entry go.
    results.run_combo.setCurrentIndex(results.run_index(own))
    assert results.run_dir == own and not results.foreign_label.isVisible()
    assert results.run_combo.count() == 1
    window.close()


def test_a_sentence_cut_by_max_length_says_why_its_prediction_cannot_be_taken(qtbot, tmp_path, ewt, pos_run):
    """Words without a prediction are decoded "O" (past max_length, in runs from before long
    sentences were read in windows), which a POS tag set lacks: "Use prediction as gold" was
    greyed out without a reason."""
    run = tmp_path / "cut-run"
    shutil.copytree(pos_run, run)
    preds = [json.loads(line) for line in (run / "predictions.jsonl").read_text().splitlines()]
    preds[0]["tags"][-1], preds[0]["unpredicted_words"] = "O", 1
    (run / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))
    session = _session_with(tmp_path, "tagging", ewt.labels, ewt.select(range(48)), ewt.select(range(48, 64)), run)
    page = ResultsPage(session)
    qtbot.addWidget(page)
    page.show()
    for proxy_row in range(page.proxy.rowCount()):
        if page.proxy.mapToSource(page.proxy.index(proxy_row, 0)).row() == 0:
            page.table.selectRow(proxy_row)
    assert page.current_prediction().index == preds[0]["index"]
    assert not page.accept_button.isEnabled()
    assert page.accept_button.toolTip() == "1 word(s) got no prediction from this run: tag them on the Label page"
    session.close()


def test_a_gold_edit_that_changes_the_scores_scale_says_the_new_error_distance(qtbot, tmp_path, stsb, stsb_run):
    """The Errors-only box says how far off a score is an error (a tenth of the golds' scale). A typo
    gold of 50 on a 0-5 project widened the scale to 0-100 and the rule to 10, but the box still said "off by ≥ 0.5"
    and the other rows' error colours stayed as they were until the run was shown again."""
    session = _session_with(tmp_path, "regression", [], stsb.select(range(48)), stsb.select(range(48, 72)), stsb_run)
    page = ResultsPage(session)
    qtbot.addWidget(page)
    assert page.errors_only.text() == "Errors o&nly (off by ≥ 0.5)"
    changed = []
    page.model.dataChanged.connect(lambda top, bottom: changed.append((top.row(), bottom.row())))
    session.project.set_gold("dev", 0, 50.0)
    assert page.errors_only.text() == "Errors o&nly (off by ≥ 10)" and "10 or more" in page.errors_only.toolTip()
    assert changed and changed[-1] == (0, len(page.model.rows) - 1)
    session.project.set_gold("dev", 0, 2.0)  # the typo mended: back to the 0-5 rule
    assert page.errors_only.text() == "Errors o&nly (off by ≥ 0.5)"
    session.close()


# --- every score and note in view at 1280x800 (sweep_qalabel defect 4) -------------------------

_FIT = {  # kind: (labels, one project row, metrics.json, one prediction)
    "sentence": (["neg", "pos", "neutral"], {"text": "a good film", "label": "pos"},
                 {"accuracy": .43, "macro_f1": .3, "mcc": .1}, lambda i: {"gold": "pos", "label": "neg" if i % 2 else "pos"}),
    "pair": (["no", "yes"], {"text": "a dog", "text_pair": "a cat", "label": "no"},
             {"accuracy": .43, "f1": .3}, lambda i: {"gold": "no", "label": "yes" if i % 2 else "no"}),
    "regression": ([], {"text": "a man plays", "text_pair": "a man is playing", "label": 4.0},
                   {"pearson": .5, "spearman": .4, "mse": 1.2}, lambda i: {"gold": float(i % 5), "score": float(i % 3)}),
    "tagging": (["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"],
                {"tokens": ["the", "dog", "is", "in", "paris"], "tags": ["O", "O", "O", "O", "B-LOC"]},
                {"accuracy": .21, "precision": 0.0, "recall": 0.0, "f1": 0.0},
                lambda i: {"gold": ["B-PER", "I-PER", "O", "B-LOC", "B-ORG"], "tags": ["O", "B-PER", "O", "B-LOC", "O"]}),
    "qa": ([], {"id": "q0", "title": "t", "context": "The river runs through Paris.", "question": "Which city?",
                "answers": {"text": ["Paris"], "answer_start": [23]}},
           {"exact_match": .142857, "f1": .142857},
           lambda i: {"gold": {"text": ["Paris"], "answer_start": [23]}, "answer": "", "start": -1, "score": .36}),
}


@pytest.mark.parametrize("points, language", [(0, "en"), (18, "en"), (18, "zh_CN")])
@pytest.mark.parametrize("kind", list(_FIT))
def test_every_score_row_and_note_reads_in_full_at_1280x800(qtbot, qapp, tmp_path, kind, points, language):
    """At 1280x800 a QA run showed "exact match" and hid F1 behind a scroll bar, its note cut at
    "…so small", with 400 px empty below; a tagging run's scores cut "accuracy" in half and its
    per-entity table scrolled above 290 px of nothing. The notes wrap to the column's width: its
    height was guessed for a wider one. Seven rows scored, a best step earlier than the last."""
    import tomli_w

    from bertstudio.ui.main_window import MainWindow

    labels, row, metrics, pred = _FIT[kind]
    project = Project.create(tmp_path / kind, name=kind, kind=kind, labels=labels)
    project.import_examples(from_records(kind, [row], labels=labels), "train")
    run = project.runs_dir / f"{kind}-run"
    run.mkdir(parents=True)
    (run / "config.toml").write_text(tomli_w.dumps({"task": kind, **({"labels": labels} if labels else {})}))
    (run / "metrics.json").write_text(json.dumps(metrics))
    ended = {"status": "finished", "step": 300, "metrics": metrics, "kind": "finished", "best_step": 100,
             "last_metrics": {k: v / 2 for k, v in metrics.items()}}
    (run / "history.jsonl").write_text(json.dumps(ended) + "\n")
    (run / "predictions.jsonl").write_text("".join(json.dumps({"index": i, **pred(i)}) + "\n" for i in range(7)))
    from bertstudio import app as app_module

    font = qapp.font()
    installed = app_module.install_translators(qapp, language) if language != "en" else []
    if points:
        big = qapp.font()
        big.setPointSize(points)
        qapp.setFont(big)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()
        qtbot.waitExposed(window)
        window.show_page("results")
        page = window.pages["results"]
        qtbot.waitUntil(lambda: not page.is_loading() and page.metrics_table.rowCount() == len(metrics))
        panel = page.metrics_panel
        tables = [panel.metrics_table] + ([panel.per_class_table] if panel.per_class_table.isVisibleTo(page) else [])
        assert kind in ("qa", "regression") or len(tables) == 2
        for table in tables:
            qtbot.waitUntil(lambda t=table: all(  # every row inside the table's viewport: none behind a scroll bar
                0 <= t.rowViewportPosition(r) and t.rowViewportPosition(r) + t.rowHeight(r) <= t.viewport().height()
                for r in range(t.rowCount())))
        notes = [n for n in (panel.best_note, panel.size_note) if n.isVisibleTo(page)]
        assert len(notes) == 2
        assert language == "en" or "步" in panel.best_note.text()  # the translated note (longer, in CJK)
        for note in notes:  # as tall as its wrapped text, and all of it inside the column's view
            qtbot.waitUntil(lambda n=note: n.height() >= n.heightForWidth(n.width())
                            and n.visibleRegion().boundingRect().height() >= n.heightForWidth(n.width()))
        assert panel.width() <= page.scores_scroll.viewport().width()  # nothing cut at the column's right
        window.close()
    finally:
        qapp.setFont(font)
        for translator in installed:
            qapp.removeTranslator(translator)
        session.close()
