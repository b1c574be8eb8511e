"""In the real main window: the GUI keeps working while the worker trains, and closing
the window mid-run cancels, waits for the thread and leaves a usable model."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QPlainTextEdit

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.ui.session import ProjectSession

LABELS = ["neg", "pos"]
ROWS = [("good movie", "pos"), ("bad movie", "neg"), ("great film", "pos"), ("terrible film", "neg")] * 8


def _window(qtbot, tmp_path):
    """The main window, shown, on a project with ROWS labelled in its train split."""
    from bertstudio.ui.main_window import MainWindow

    project = Project.create(tmp_path / "proj", name="w", kind="sentence", labels=LABELS)
    project.import_examples(from_records("sentence", [{"text": t, "label": l} for t, l in ROWS], labels=LABELS), "train")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    # the user answers "stop and quit": a failed assertion must not leave the question open at teardown,
    # where pytest-qt's close would wait for an answer forever (a CI run hung there)
    window.confirm_stop_training = lambda: True
    qtbot.addWidget(window)
    window.show()
    return window


def _steps(train) -> int:
    """The last training step the monitor was told of. Not the progress bar's value: with a
    held-out split evaluated after every 8-step epoch the bar shows "evaluating 1 / 1" between
    steps, and a fast run could end every poll on that (the bar read 1 of 1 at step 6,144)."""
    last = train.monitor.last_step
    return last.step if last is not None else 0


def test_window_stays_usable_while_training_and_close_cancels(qtbot, tmp_path, tiny_model_dir):
    window = _window(qtbot, tmp_path)
    train = window.page("train")
    train.set_model_source(str(tiny_model_dir))
    train.batch_combo.setCurrentText("4")
    # 80,000 steps: still running when the window closes, on any machine (on CI, a run of 800
    # steps once ended before the test closed the window; the assertion below says how)
    train.epochs_spin.setValue(10_000)
    train.max_len_spin.setValue(16)
    train.device_combo.setCurrentText("cpu")
    window.show_page("train")
    qtbot.mouseClick(window.findChild(type(train.start_button), "startTrainingButton"), Qt.MouseButton.LeftButton)
    assert train.is_running()
    qtbot.waitUntil(lambda: _steps(train) >= 2, timeout=60_000)

    # Switch pages and type while the loop runs: events are processed, the run goes on.
    window.show_page("playground")
    assert window.current_page_key() == "playground"
    box = window.findChild(QPlainTextEdit, "playgroundInput")
    qtbot.keyClicks(box, "typing while training")
    assert box.toPlainText() == "typing while training"
    window.show_page("runs")
    window.show_page("train")
    step_before = _steps(train)
    qtbot.waitUntil(lambda: _steps(train) > step_before, timeout=60_000)
    assert train.is_running(), (train.status_label.text(), train.monitor.log_view.toPlainText()[-2000:])
    run_dir = Path(train.run_dir)

    window.close()
    assert not window.isVisible()  # at once; the close finishes when the run has stopped and saved
    qtbot.waitUntil(lambda: not train.is_running() and window.session.project is None, timeout=60_000)
    assert (run_dir / "model" / "config.json").is_file()  # the cancelled run kept a usable model


def test_at_the_minimum_window_size_the_curves_stay_readable_and_scroll(qtbot, tmp_path):
    """The walkthrough's W12: at the window's minimum size the three plots were squeezed until
    titles and axes were cut (the learning-rate plot to a sliver). Now each keeps its minimum
    size, they reflow into one column, and the pane scrolls; a wide pane puts two side by side."""
    from bertstudio.ui.main_window import MainWindow

    project = Project.create(tmp_path / "proj", name="w", kind="sentence", labels=LABELS)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    window.show_page("train")
    monitor = window.page("train").monitor
    grid = monitor.plot_grid

    loss, metric, lr = monitor.loss_plot, monitor.metric_plot, monitor.lr_plot
    window.resize(window.minimumSizeHint())
    qtbot.waitUntil(lambda: grid.columns == 1 and metric.y() > loss.y(), timeout=5_000)  # one under the other
    for plot, height in ((monitor.loss_plot, grid.PLOT_HEIGHT), (monitor.metric_plot, grid.PLOT_HEIGHT),
                         (monitor.lr_plot, grid.LR_HEIGHT)):
        assert plot.height() >= height and plot.width() >= grid.PLOT_WIDTH
    assert monitor.plot_scroll.verticalScrollBar().maximum() > 0  # what does not fit scrolls

    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: grid.columns == 2 and metric.y() == loss.y(), timeout=5_000)  # side by side
    assert metric.x() > loss.x() and lr.y() > loss.y() and loss.height() > grid.PLOT_HEIGHT
    window.close()
    session.close()


def test_at_900x700_the_settings_need_no_sideways_scrolling(qtbot, tmp_path):
    """A drive at 900x700 found the settings column scrolling sideways by the vertical scroll
    bar's width (the right edge of every field hidden until scrolled): the column is now as
    wide as the form plus that bar, and the curves take what is left."""
    from PySide6.QtWidgets import QScrollArea

    window = _window(qtbot, tmp_path)
    window.resize(900, 700)
    window.show_page("train")
    scroll = window.findChild(QScrollArea, "trainSettingsScroll")
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().isVisible(), timeout=5_000)  # the form is taller than the view
    form = scroll.widget()
    assert scroll.horizontalScrollBar().maximum() == 0
    assert scroll.viewport().width() >= form.minimumSizeHint().width()
    window.close()
    window.session.close()


@pytest.mark.parametrize("stop", ["quit", "cancel"])
def test_quit_or_cancel_while_the_preload_still_imports_ends_the_run_at_once(qtbot, tmp_path, tiny_model_dir,
                                                                           monkeypatch, stop):
    """Start, then Quit, while the preload thread was still importing torch & co (5-15 s on a slow
    laptop): the run waited for those imports deaf to its cancel flag, so the window hid and the
    process lived on (the close's 60 s fallback) with the project locked, and a restarted app was
    refused it as "open in another bertstudio window". Now the wait says what it waits for and a
    cancel (Quit or the Cancel button) ends the run at once, as one cancelled before its first step:
    nothing kept, and the page says so as it does for a run cancelled while loading its model."""
    import threading

    from bertstudio.ui import preload, train_estimate
    from bertstudio.ui.worker import ThreadJob

    gate, importing = threading.Event(), threading.Event()

    def slow_imports(modules, took, cancel=None):  # the preload thread at work until the test lets it go
        importing.set()
        gate.wait(120)

    # the real imports done first (the tiny model brought most in): a job of an earlier window that starts
    # once the stand-ins below are undone finds them in, and never imports into a later test's stand-ins
    preload.ensure_imported()
    monkeypatch.setattr(preload, "_ready", threading.Event())  # as in a fresh app: nothing imported yet
    monkeypatch.setattr(preload, "_import_all", slow_imports)
    timed: list = []
    monkeypatch.setattr(train_estimate, "calibrate", lambda model, **kw: timed.append(model))
    thread = preload.preload_in_background()
    try:
        qtbot.waitUntil(importing.is_set, timeout=10_000)
        window = _window(qtbot, tmp_path)
        train = window.page("train")
        train.set_model_source(str(tiny_model_dir))
        train.device_combo.setCurrentText("cpu")
        window.show_page("train")
        # the page's parameter count and its time estimate wait for the same imports (heavy ThreadJobs)
        qtbot.waitUntil(lambda: train._count_job is not None and train.estimate_label._job is not None, timeout=10_000)
        qtbot.mouseClick(window.findChild(type(train.start_button), "startTrainingButton"), Qt.MouseButton.LeftButton)
        assert train.is_running()
        # no step is near while the libraries load: the line promised one ("Cancel stops after the current step")
        assert train.status_label.text() == ("Loading the training libraries… the window stays usable; Cancel stops "
                                             "the run before it starts.")
        qtbot.waitUntil(lambda: "Loading the training libraries…" in train.monitor.log_view.toPlainText(),
                        timeout=10_000)
        run_dir = Path(train.run_dir)
        ended: list[str] = []
        train.run_ended.connect(lambda _folder, status: ended.append(status))
        if stop == "quit":
            with qtbot.waitSignal(window.closed, timeout=10_000):
                window.close()
            # what the app's quit then waits for (ThreadJob.wait_all on aboutToQuit): the count and the
            # estimate waited deaf for the imports, and the process lived on until they were done (62 s seen)
            ThreadJob.wait_all(2000)
            assert not [job for job in ThreadJob._running if job.is_running()] and not gate.is_set()
            assert timed == []  # nothing timed for the closed project (a calibration started after the close)
        else:
            with qtbot.waitSignal(train.run_ended, timeout=10_000):
                qtbot.mouseClick(train.cancel_button, Qt.MouseButton.LeftButton)
            assert train.status_label.text() == "Run cancelled before its first step: nothing was trained or saved."
        assert preload.is_running() and not gate.is_set()  # the imports still go on
        assert ended == ["cancelled"] and not train.is_running()
        assert not run_dir.exists()  # as for a run cancelled while loading: its empty folder removed
        if stop == "cancel":
            window.close()
            window.session.close()
        Project.open(tmp_path / "proj").close()  # a restarted app gets the project
    finally:
        gate.set()
        thread.join(30)
        # the page's other jobs (its parameter count, its speed estimate) waited for the same imports: once
        # they end, none of them imports into the next test's stand-in state (one set its fresh _ready)
        qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)
