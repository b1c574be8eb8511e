"""The Train page's second run reuses the session's kept model (train/warm.py), says so in the
status bar, and trains exactly as the first; closing the project drops what was kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project

_POS = ["good movie", "great film", "i love it", "best story", "really fun", "very good film"]
_NEG = ["bad movie", "terrible film", "i hate it", "worst story", "really boring", "very bad film"]


@pytest.fixture
def window(qtbot, tmp_path: Path):
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    project = Project.create(tmp_path / "proj", name="tiny", kind="sentence", labels=["neg", "pos"])
    rows = [{"text": t, "label": "pos"} for t in _POS] + [{"text": t, "label": "neg"} for t in _NEG]
    project.import_examples(from_records("sentence", rows * 2, labels=["neg", "pos"]), "train")
    project.import_examples(from_records("sentence", rows[::2], labels=["neg", "pos"]), "dev")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w = MainWindow(session)
    qtbot.addWidget(w)
    yield w
    session.close()


def _start(qtbot, page) -> tuple[str, dict]:
    with qtbot.waitSignal(page.run_ended, timeout=120_000) as ended:
        page.start_button.click()
    run_dir, status = ended.args
    assert status == "finished", page.error_label.text()
    return run_dir, json.loads((Path(run_dir) / "metrics.json").read_text())


def _losses(run_dir: str) -> list[float]:
    lines = (Path(run_dir) / "history.jsonl").read_text().splitlines()
    return [e["loss"] for e in map(json.loads, lines) if e.get("kind") == "step"]


def test_a_second_run_reuses_the_model_says_so_and_trains_the_same(qtbot, window, tiny_model_dir):
    page = window.page("train")
    page.set_model_source(str(tiny_model_dir))
    page.batch_combo.setCurrentText("4")
    page.epochs_spin.setValue(2)
    page.max_len_spin.setValue(16)
    page.device_combo.setCurrentText("cpu")
    page.precision_combo.setCurrentText("fp32")
    session = window.session
    assert not session.warm.holds_model()

    first_dir, first = _start(qtbot, page)
    assert session.warm.holds_model()
    assert "Reusing the model" not in page.monitor.log_view.toPlainText()
    assert "Warm start" not in window.statusBar().currentMessage()

    second_dir, second = _start(qtbot, page)
    assert "Warm start" in window.statusBar().currentMessage()
    assert "Reusing the model loaded earlier" in page.monitor.log_view.toPlainText()
    assert second_dir != first_dir
    assert second == first and _losses(second_dir) == _losses(first_dir) and len(_losses(first_dir)) == 12  # 24 rows / 4, 2 epochs

    session.set_project(None)  # closing the project drops the kept model and rows
    assert not session.warm.holds_model()
