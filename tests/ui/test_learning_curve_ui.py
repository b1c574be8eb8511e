"""The learning-curve panel: Start runs every share and seed as one job with one progress bar;
Cancel stops it; the result sentence comes from the fit."""

from __future__ import annotations

import functools
import threading

import numpy as np


import pytest
from helpers import sentiment_records
from PySide6.QtCore import Qt

from bertstudio.ui.learning_curve import LearningCurvePanel, open_learning_curve



@pytest.fixture
def session(session_factory):
    return session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(48, 0), "dev": sentiment_records(16, 1)})


@pytest.fixture
def config_factory(tiny):
    from bertstudio.train.config import TrainConfig

    return lambda: TrainConfig(task="sentence", model=tiny, epochs=1, lr=3e-3, batch_size=8, max_length=32,
                               labels=["neg", "pos"], logging_steps=1)


def test_start_runs_every_share_and_seed_with_one_progress_bar(qtbot, session, config_factory, one_thread, monkeypatch):
    # Every progress report reaches the bar: the default 0.1 s throttle would let a fast machine
    # finish a whole tiny run between two reports, and the count below would depend on speed.
    from bertstudio.ui import learning_curve as panel_module

    monkeypatch.setattr(panel_module, "JobWorker", functools.partial(panel_module.JobWorker, throttle_s=0.0))
    panel = LearningCurvePanel(session, config_factory, fractions=(0.25, 0.5, 1.0), seeds=(0, 1))
    qtbot.addWidget(panel)
    panel.show()
    seen: list[int] = []
    panel.progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(panel.finished, timeout=180_000) as done:
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
        assert not panel.start_button.isEnabled() and panel.cancel_button.isEnabled()
    curve = done.args[0]
    assert [(p.labels, p.seed) for p in curve.points] == [(12, 0), (12, 1), (24, 0), (24, 1), (48, 0), (48, 1)]
    assert panel.progress.value() == panel.progress.maximum()
    assert seen == sorted(seen) and len(set(seen)) > 6  # one bar, moving forward through all runs
    xs, ys = panel.scatter.getData()
    # on the log x axis, where the mean line puts the same sizes (not at 10^12 as before)
    assert np.allclose(xs, np.log10([12, 12, 24, 24, 48, 48]))
    # x100, as the result sentence and the Train page say it; the axis read "accuracy (x0.001)" over 500
    assert np.allclose(ys, [100 * p.value for p in curve.points])
    axis = panel.plot.getAxis("left")
    assert not axis.autoSIPrefix and axis.labelText == "accuracy (x100)"
    mean_line = next(item for item in panel.plot.listDataItems() if item.name() == "mean over seeds")
    line_xs, _ = mean_line.getData()
    assert np.allclose(sorted(set(np.round(xs, 6))), np.round(line_xs, 6))
    assert curve.fit is not None
    # a forecast where the runs show a trend; a tiny random model trained one epoch may well show none, and
    # then the panel says so instead of a number (tests/core/test_learning_curve.py: a dip read as a drop)
    assert ("Doubling to 96 rows" in panel.result.text()) == (curve.unclear() == "")
    assert ("No clear trend yet" in panel.result.text()) == (curve.unclear() != "")
    assert curve.metric in panel.result.text()
    assert "(mean of 2 seeds)" in panel.result.text() and "-0.0" not in panel.result.text()
    assert panel.start_button.isEnabled() and not panel.cancel_button.isEnabled()


def test_cancel_stops_the_job_and_keeps_the_points(qtbot, session, config_factory, one_thread):
    dialog = open_learning_curve(session, config_factory, fractions=(0.5, 1.0), seeds=(0, 1, 2))
    qtbot.addWidget(dialog)
    panel = dialog.panel
    with qtbot.waitSignal(panel.finished, timeout=180_000) as done:
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: len(panel._points) >= 1, timeout=120_000)
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    curve = done.args[0]
    assert curve.cancelled and 1 <= len(curve.points) < 6
    assert "Cancelled" in panel.status.text()
    # the largest size reached is not the project's 48 rows, and may hold fewer seeds than asked for:
    # "With 24 labelled rows … (mean of 3 seeds). Doubling to 48 rows is expected to give …" before
    n = curve.sizes()[-1]
    text = panel.result.text()
    assert f"stopped at {n} of 48 labelled rows" in text, text
    assert f"({curve.runs_at(n)} of 3 seeds run)" in text and "Doubling" not in text
    assert panel.start_button.isEnabled()


def test_a_project_without_labels_says_so(qtbot, session_factory, config_factory):
    empty = session_factory("sentence", ["neg", "pos"], {"train": [{"text": "a film", "label": None}]})
    panel = LearningCurvePanel(empty, config_factory)
    qtbot.addWidget(panel)
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    assert panel.worker is None and "no labelled rows" in panel.status.text()


def test_shares_with_fewer_rows_than_classes_are_left_out_and_said(qtbot, session_factory, config_factory, one_thread):
    """8 labels: 12.5% is 1 row of one class. Under SetFit the curve stopped with "preparing the run
    failed: IndexError: list index out of range" and no points."""
    eight = session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(8, 0), "dev": sentiment_records(8, 1)})
    panel = LearningCurvePanel(eight, config_factory, seeds=(0,))
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.finished, timeout=180_000) as done:
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
        assert "fewer rows than the 2 classes" in panel.status.text()
    assert done.args[0].sizes() == [2, 4, 8]
    assert "fewer rows than the 2 classes are left out: 12.5% = 1" in panel.result.text()
    assert "The curve starts at 2 rows." in panel.result.text()


def test_a_project_of_one_class_is_refused_before_any_run(qtbot, session_factory, config_factory):
    one = session_factory("sentence", ["neg", "pos"], {"train": [r for r in sentiment_records(16) if r["label"] == "pos"],
                                                       "dev": sentiment_records(8, 1)})
    panel = LearningCurvePanel(one, config_factory)
    qtbot.addWidget(panel)
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    assert panel.worker is None and "hold 1 class" in panel.status.text()


def test_under_automatic_the_result_says_what_was_chosen_per_share(qtbot, session, config_factory, monkeypatch):
    """The panel passes Automatic on (the core then chooses per share, tests/core/test_learning_curve.py)
    and says each size's choice; the runs are stand-ins here, only their settings matter."""
    from types import SimpleNamespace

    from bertstudio.train import learning_curve as core

    seen = []

    def fake_train(run_config, share, _eval, **_kw):
        seen.append(run_config)
        return SimpleNamespace(status="finished", metrics={"accuracy": 0.5}, error=None, message="")

    monkeypatch.setattr(core, "learning_curve", functools.partial(core.learning_curve, train_fn=fake_train))
    panel = LearningCurvePanel(session, config_factory, fractions=(0.5, 1.0), seeds=(0,),
                               automatic_factory=lambda: frozenset({"max_length"}))
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    # 24 and 48 rows at batch 16: 2 and 3 steps an epoch, enough epochs for 150 steps
    assert [c.epochs for c in seen] == [75, 50]
    assert "24 rows: finetune, batch 16 x 75 epochs; 48 rows: finetune, batch 16 x 50 epochs" in panel.result.text()


def test_what_the_core_says_about_the_rows_is_shown_once(qtbot, session_factory, config_factory, monkeypatch):
    """The curve's runs read their rows on the job's thread: the core's warnings (here: dev rows that
    repeat training rows) reached only the log file; now the panel says them, each once."""
    from types import SimpleNamespace

    from bertstudio.train import learning_curve as core
    from bertstudio.train.sources import load_sets

    train = sentiment_records(24, 0)
    unlabelled = [{"text": f"not labelled yet {i}", "label": None} for i in range(3)]
    session = session_factory("sentence", ["neg", "pos"], {"train": unlabelled + train, "dev": train[:4]})

    def fake_train(run_config, share, eval_set, **_kw):
        load_sets(run_config, share, eval_set)  # as engine.train reads its sets
        return SimpleNamespace(status="finished", metrics={"accuracy": 0.5}, error=None, message="")

    monkeypatch.setattr(core, "learning_curve", functools.partial(core.learning_curve, train_fn=fake_train))
    panel = LearningCurvePanel(session, config_factory, fractions=(0.5, 1.0), seeds=(0, 1))
    qtbot.addWidget(panel)
    assert not panel.warnings.isVisibleTo(panel)
    with qtbot.waitSignal(panel.finished, timeout=60_000):
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    text = panel.warnings.text()
    assert panel.warnings.isVisibleTo(panel) and text.count("repeat a training row") == 1
    # the rows the user finds them at: train row 4 is the first labelled one, after 3 unlabelled rows
    assert "4 of 4 evaluation rows" in text and "first: dev row 1 = train row 4" in text
    panel._reset()  # a new start begins with no warnings of the last one
    assert panel.warnings.text() == "" and not panel.warnings.isVisibleTo(panel)


def _mrpc_curve(up_to: int):
    """The quality sweep's MRPC points (F1 on 408 dev pairs, seeds 0/1/2); answering "paraphrase" to
    every pair scores 2 * 279 / 687 = 81.2 there."""
    from bertstudio.train.learning_curve import CurvePoint, LearningCurve

    values = {50: [0.81595, 0.80820, 0.81223], 100: [0.80201, 0.81259, 0.80180], 200: [0.82240, 0.82958, 0.82335]}
    points = [CurvePoint(n, seed, v, metric="f1") for n, vs in values.items() if n <= up_to for seed, v in enumerate(vs)]
    curve = LearningCurve("f1", points, rows=up_to, eval_rows=408, baseline=2 * 279 / 687)
    curve.refit()
    return curve


def test_a_curve_without_a_clear_trend_forecasts_no_number(qtbot, session, config_factory):
    """MRPC stopped at 100 rows said "Doubling to 200 rows is expected to give 79.9 (-0.7 points; 95% range
    78.4 to 81.2)"; three real 200-row runs got 82.2 to 83.0. The runs sat on the all-"paraphrase" F1."""
    panel = LearningCurvePanel(session, config_factory)
    qtbot.addWidget(panel)
    text = panel.describe(_mrpc_curve(100))
    assert text.startswith("With 100 labelled rows the F1 is 80.5 (mean of 3 seeds). No clear trend yet: the fit "
                           "cannot tell how much more labels would help."), text
    assert "Answering the same label to every evaluation row scores 81.2" in text
    assert "Doubling" not in text and "range" not in text and "79.9" not in text
    text = panel.describe(_mrpc_curve(200))  # where the runs rise above it, the forecast is said
    assert "Doubling to 400 rows is expected to give 82.7 (+0.2 points; 95% range 80.7 to 84.5)" in text, text


def test_cancel_while_the_training_libraries_load_ends_the_curve_at_once(qtbot, session, config_factory, monkeypatch):
    """Cancel clicked while the preload thread still imported torch & co (5-15 s on a slow laptop): the
    curve's job waited for the imports deaf to its flag, said "Stopping after the current step…" of a
    step that never came, kept Cancel enabled, and then ran its first share anyway. Now the wait says
    what it waits for, Cancel greys and the curve ends cancelled at once, nothing trained."""
    from bertstudio.ui import preload
    from bertstudio.ui.worker import ThreadJob

    gate, importing = threading.Event(), threading.Event()

    def slow_imports(modules, took, cancel=None):  # the preload thread at work until the test lets it go
        importing.set()
        gate.wait(120)

    preload.ensure_imported()  # the real imports first: nothing imports into the stand-ins below
    monkeypatch.setattr(preload, "_ready", threading.Event())  # as in a fresh app: nothing imported yet
    monkeypatch.setattr(preload, "_import_all", slow_imports)
    thread = preload.preload_in_background()
    panel = LearningCurvePanel(session, config_factory, fractions=(0.5, 1.0), seeds=(0,))
    qtbot.addWidget(panel)
    points: list = []
    panel._bridge.point.connect(points.append)
    try:
        assert importing.wait(10)
        worker = panel.start()
        qtbot.waitUntil(lambda: panel.status.text() == "Loading the training libraries…", timeout=10_000)
        with qtbot.waitSignal(worker.cancelled, timeout=5_000):
            qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
            assert not panel.cancel_button.isEnabled()
            assert panel.status.text() == "Cancelling: the curve stops before its first run…"
        assert not gate.is_set() and not panel.is_running() and points == []
        assert panel.status.text() == "Learning curve cancelled before its first run: nothing was trained."
        assert panel.start_button.isEnabled() and not panel.cancel_button.isEnabled()
    finally:
        gate.set()
        thread.join(30)
        qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)
