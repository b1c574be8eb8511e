"""Issue 14, "Training feedback" (items 10-13, 18, 19): the Train page through its real
widgets and the real engine on the tiny model (pytest-qt, offscreen)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QInputDialog, QScrollArea

from bertstudio.ui.session import ProjectSession
from bertstudio.ui.training_page import TrainingPage
from helpers import make_project

pytestmark = pytest.mark.usefixtures("one_thread")

LABELS = ["neg", "pos"]
_POS = ["good movie", "great film", "i love it", "best story", "really fun", "very good film", "love this book", "great fun"]
_NEG = ["bad movie", "terrible film", "i hate it", "worst story", "really boring", "very bad film", "hate this book", "boring film"]


def _rows(n: int) -> list[dict]:
    rows = [{"text": t, "label": "pos"} for t in _POS] + [{"text": t, "label": "neg"} for t in _NEG]
    return (rows * 4)[:n]


def _session(tmp_path: Path, splits: dict, name: str = "proj") -> ProjectSession:
    project = make_project(tmp_path / name, "sentence", LABELS, splits)
    return ProjectSession(project, settings=QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def session(tmp_path: Path, qtbot):
    s = _session(tmp_path, {"train": _rows(32), "dev": _rows(16)[::2]})
    yield s
    if s.project is not None:
        s.project.close(compact=False)


def _page(qtbot, session, model: str | Path) -> TrainingPage:
    page = TrainingPage(session)
    qtbot.addWidget(page)
    page.set_model_source(str(model))
    page.batch_combo.setCurrentText("4")
    page.lr_combo.setCurrentText("1e-3")
    page.epochs_spin.setValue(2)
    page.max_len_spin.setValue(16)
    page.device_combo.setCurrentText("cpu")
    page.precision_combo.setCurrentText("fp32")
    page.resize(1200, 800)
    page.show()
    return page


def _run(qtbot, page: TrainingPage) -> tuple[str, str]:
    with qtbot.waitSignal(page.run_ended, timeout=120_000) as ended:
        qtbot.mouseClick(page.start_button, Qt.MouseButton.LeftButton)
    assert ended.args[1] == "finished", page.error_label.text()
    return ended.args[0], ended.args[1]


# --- item 10: every phase of a run shows progress ------------------------------------------------


def test_every_phase_of_a_run_shows_its_progress(qtbot, session, tiny_model_dir):
    page = _page(qtbot, session, tiny_model_dir)
    shown: list[str] = []
    page.monitor.phase_shown.connect(shown.append)
    _run(qtbot, page)
    # the run's stages in order, each in the bar's own words (32 train + 8 dev examples tokenised)
    order = ["starting…", "loading model…", "tokenising 40 examples…", "training step 0 / 16", "evaluating 1 / 1 batches…", "saving…"]
    assert all(text in shown for text in order), shown
    assert [shown.index(text) for text in order] == sorted(shown.index(text) for text in order)
    assert "evaluating 0 / 1 batches…" in shown  # its own count, from the first batch on
    log = page.monitor.log_view.toPlainText()
    assert "Loading model…" in log and "Tokenising 40 examples…" in log and "Saving…" in log
    # and the bar ends on the run, not on the last phase
    assert page.monitor.progress.maximum() == page.monitor.progress.value() == 16


def test_the_cli_prints_each_phase_once(tmp_path, tiny):
    import io

    from bertstudio.cli import ProgressPrinter
    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    stream = io.StringIO()
    config = TrainConfig(task="sentence", model=tiny, epochs=1, batch_size=8, max_length=16, device="cpu",
                         precision="fp32", output_dir=str(tmp_path / "run"))
    result = train(config, from_records("sentence", _rows(16), labels=LABELS), from_records("sentence", _rows(4), labels=LABELS),
                   callbacks=[ProgressPrinter(stream)])
    assert result.status == "finished", result.message
    lines = stream.getvalue().splitlines()
    phases = [line for line in lines if line.endswith("…")]
    assert phases == ["loading the model…", "tokenising 20 examples…", "evaluating 1 batches…", "saving…"]
    # phases are not history: a followed run replays what happened, not what was under way
    assert '"phase"' not in (tmp_path / "run" / "history.jsonl").read_text()


# --- item 11: the plots fit their data ------------------------------------------------------------


def test_learning_rate_and_evaluation_plots_fit_their_data(qtbot, session, tiny_model_dir):
    page = _page(qtbot, session, tiny_model_dir)
    page.warmup_spin.setValue(0.2)  # the first logged rate is 0 (warm-up starts there)
    _run(qtbot, page)
    lr_plot, metric_plot = page.monitor.lr_plot, page.monitor.metric_plot
    for plot in (lr_plot, metric_plot):
        plot.flush()
    _, lrs = lr_plot.series_data(lr_plot.name)
    assert lrs[0] == 0.0 and lrs.max() == pytest.approx(1e-3)
    (x0, x1), (y0, y1) = lr_plot.getViewBox().viewRange()
    assert y0 <= lrs.min() and lrs.max() <= y1
    assert (y1 - y0) <= 1.5 * (lrs.max() - lrs.min())  # not a flat line on a ±0.5 axis
    (x0, x1), (y0, y1) = metric_plot.getViewBox().viewRange()
    for name in metric_plot.series_names():
        xs, ys = metric_plot.series_data(name)
        assert xs.max() == 16
        assert x0 < xs.min() and xs.max() + 0.4 <= x1  # the point at the last step is drawn whole
        assert y0 < ys.min() and ys.max() < y1


# --- item 12: meaningful run names, renamable --------------------------------------------------------


def test_runs_are_named_after_what_they_are_and_can_be_renamed(qtbot, session):
    from bertstudio.ui.runs_page import RunsPage

    page = TrainingPage(session)
    qtbot.addWidget(page)
    page.mode_combo.setCurrentIndex(page.mode_combo.findData("full"))
    page.lr_combo.setCurrentText("2e-5")
    first, second = Path(page._new_run_dir()), Path(page._new_run_dir())
    assert re.fullmatch(r"proj-full-lr2e-5-\d{4}-\d{4}", first.name), first.name
    assert second.name in (first.name + "-2", ) or second.name != first.name  # never reused
    assert second.name != first.name

    runs = RunsPage(session)
    qtbot.addWidget(runs)
    row = [r.folder for r in runs.model.runs].index(first)
    runs.table.selectRow(row)
    assert runs.rename_button.isEnabled()

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue("baseline")
        dialog.accept()

    QTimer.singleShot(0, answer)
    qtbot.mouseClick(runs.rename_button, Qt.MouseButton.LeftButton)
    assert not first.exists() and (first.parent / "baseline").is_dir()
    assert "baseline" in [r.name for r in runs.model.runs]
    from bertstudio.errors import ConfigError

    with pytest.raises(ConfigError):  # a taken name is refused, nothing is replaced
        runs.rename(second, "baseline")
    assert second.is_dir()


# --- item 13: Start waits for something to train on; errors say what is wrong; Custom preset ----


def test_start_waits_for_two_labelled_rows_per_label(qtbot, tmp_path):
    rows = [{"text": "good movie", "label": "pos"}, {"text": "bad movie", "label": "neg"},
            {"text": "great film", "label": None}, {"text": "boring film", "label": None}]
    # a labelled dev row: with none, 4 rows are also too few to hold some out (the next check)
    session = _session(tmp_path, {"train": rows, "dev": [{"text": "fine film", "label": "pos"}]})
    try:
        page = TrainingPage(session)
        qtbot.addWidget(page)
        assert not page.start_button.isEnabled()
        tip = page.start_button.toolTip()
        assert "neg (1)" in tip and "pos (1)" in tip and "2" in tip
        session.write_gold("train", 2, "pos")
        qtbot.waitUntil(lambda: "pos" not in page.start_button.toolTip())
        assert not page.start_button.isEnabled() and "neg (1)" in page.start_button.toolTip()
        session.write_gold("train", 3, "neg")
        qtbot.waitUntil(page.start_button.isEnabled)
        # a bad learning rate is reported as one, not as missing labels
        page.lr_combo.setCurrentText("fast")
        assert not page.start_button.isEnabled()
        assert "learning rate" in page.start_button.toolTip() and "label" not in page.start_button.toolTip().lower()
        assert "learning rate" in page.status_label.text()
        page.lr_combo.setCurrentText("3e-5")
        assert page.start_button.isEnabled()
    finally:
        session.project.close(compact=False)


def test_the_preset_combo_says_custom_once_a_field_departs(qtbot, session):
    page = TrainingPage(session)
    qtbot.addWidget(page)
    idx = page.preset_combo.findData("32|2e-5|3")
    page.preset_combo.setCurrentIndex(idx)
    page.preset_combo.activated.emit(idx)
    assert page.preset_combo.currentIndex() == idx  # applying it is no departure
    assert (page.config.batch_size, page.config.lr, page.config.epochs) == (32, 2e-5, 3)
    page.seed_spin.setValue(7)  # not one of the preset's fields
    assert page.preset_combo.currentIndex() == idx
    page.epochs_spin.setValue(5)
    assert page.preset_combo.currentData() is None and page.preset_combo.currentText() == "Custom"


# --- item 18: the model picker and the [UNK] check on the Train page ---------------------------------


def test_the_train_page_warns_when_the_model_cannot_read_the_text(qtbot, tmp_path, tiny):
    chinese = [{"text": t, "label": lab} for t, lab in (("这部电影很好看", "pos"), ("剧情太无聊了", "neg"),
                                                        ("演员演得非常好", "pos"), ("浪费时间的电影", "neg"))]
    session = _session(tmp_path, {"train": chinese}, name="zh")
    try:
        page = _page(qtbot, session, tiny)
        qtbot.waitUntil(lambda: page.vocabulary_warning.check is not None, timeout=30_000)
        assert page.vocabulary_warning.isVisible()
        assert "[UNK]" in page.vocabulary_warning.text() and "bert-base-chinese" in page.vocabulary_warning.text()
        # in view beside Start, not at the end of the long settings form (out of sight at 1280 x 820)
        scroll = page.findChild(QScrollArea, "trainSettingsScroll")
        assert not scroll.widget().isAncestorOf(page.vocabulary_warning)
        assert page.vocabulary_warning.parentWidget() is page.start_button.parentWidget()
    finally:
        session.project.close(compact=False)
    english = _session(tmp_path, {"train": _rows(8)}, name="en")
    try:
        page = _page(qtbot, english, tiny)
        qtbot.waitUntil(lambda: page.vocabulary_warning.check is not None, timeout=30_000)
        assert not page.vocabulary_warning.isVisible() and page.vocabulary_warning.check.share < 0.03
    finally:
        english.project.close(compact=False)


def test_the_model_picker_takes_a_hub_id_or_a_folder_and_explains_offline_use(qtbot, session, tiny_model_dir):
    page = TrainingPage(session)
    qtbot.addWidget(page)
    page.show()
    help_text = page.form.model_help
    assert help_text.isVisible() and "Hub id" in help_text.text() and "offline" in help_text.text()
    page.model_picker.setEditText("")
    qtbot.keyClicks(page.model_picker, "bert-base-uncased")
    assert page.config.model == "bert-base-uncased"
    page.set_model_source(str(tiny_model_dir))
    assert page.config.model == str(tiny_model_dir)


# --- item 19: plots follow the palette; View > Theme is remembered -------------------------------------


def test_plots_follow_a_dark_theme_and_the_choice_is_remembered(qtbot, tmp_path):
    from bertstudio.ui.main_window import MainWindow

    settings_file = str(tmp_path / "theme.ini")
    window = MainWindow(ProjectSession(settings=QSettings(settings_file, QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    plot = window.pages["train"].monitor.loss_plot
    light_bg = plot.backgroundBrush().color()
    try:
        window.theme_actions["dark"].trigger()
        dark_base = QApplication.palette().color(QPalette.ColorRole.Base)
        assert dark_base.lightness() < 80
        qtbot.waitUntil(lambda: plot.backgroundBrush().color() == dark_base)
        assert plot.backgroundBrush().color() != light_bg
        text = QApplication.palette().color(QPalette.ColorRole.Text)
        assert plot.getAxis("left").textPen().color() == text
        assert QSettings(settings_file, QSettings.Format.IniFormat).value("view/theme") == "dark"
        # a new window starts in the remembered theme
        again = MainWindow(ProjectSession(settings=QSettings(settings_file, QSettings.Format.IniFormat)))
        qtbot.addWidget(again)
        assert again.theme_actions["dark"].isChecked()
        assert again.pages["train"].monitor.loss_plot.backgroundBrush().color() == dark_base
    finally:
        window.theme_actions["system"].trigger()
    qtbot.waitUntil(lambda: plot.backgroundBrush().color() == light_bg)
