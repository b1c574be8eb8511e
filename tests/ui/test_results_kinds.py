"""Results page and Playground for tagging (a real tiny run) and QA (the example view)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.ui.playground import PlaygroundPage
from bertstudio.train.sources import project_rows
from bertstudio.ui.predictions_model import PredictionRow
from bertstudio.ui.results_page import GOLD_BG, PRED_BG, ResultsPage
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
    project = _project(tmp_path / "proj")
    shutil.copytree(tagging_run, project.runs_dir / "ner-run")
    s = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    yield s
    project.close(compact=False)


def test_tagging_results_show_spans_and_filter_errors(qtbot, session, tagging_run, qtmodeltester):
    page = ResultsPage(session)
    qtbot.addWidget(page)
    qtmodeltester.check(page.model)
    preds = [json.loads(l) for l in (tagging_run / "predictions.jsonl").read_text().splitlines()]
    assert page.model.rowCount() == 4 and not page.confusion_view.isVisibleTo(page)
    assert page.metrics_table.item(0, 0).text() == "f1 *"  # entity F1 is tagging's official metric
    page.errors_only.setChecked(True)
    assert page.proxy.rowCount() == sum(p["tags"] != p["gold"] for p in preds)
    page.errors_only.setChecked(False)
    page.table.selectRow(3)
    html = page.example_html(page.current_prediction())
    assert f'background:{GOLD_BG}">[dog cat]<sub>PER</sub>' in html  # the gold two-word PER span
    assert "[london]<sub>LOC</sub>" in html
    # Accepting the prediction writes the predicted tags as gold (undoable).
    qtbot.mouseClick(page.accept_button, Qt.MouseButton.LeftButton)
    assert session.project.gold("dev", 3) == preds[3]["tags"]
    session.undo_stack.undo()
    assert session.project.gold("dev", 3) == SENTS[3][1]


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
    assert f'<span style="background:{GOLD_BG}">Paris</span>' in html
    assert f'<span style="background:{PRED_BG}">the capital of France</span>' in html
    assert "Which city?" in html
    project.close(compact=False)
