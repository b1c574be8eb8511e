"""TrainingWorker's own duties, driven by small loops that call it the way the engine does:
coalescing step events, cancel_and_wait without deadlock, surviving an exception; and the
monitor's curves. (The real engine through the worker is in test_training_page.py.)"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pyqtgraph as pg

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Control, Evaluated, RunFinished, RunStarted, StepLogged
from bertstudio.ui.worker import ThreadJob, TrainingWorker


@dataclass
class _Result:  # what train() returns, as far as the worker reads it
    status: str
    step: int = 0
    metrics: dict | None = None
    output_dir: str | None = None
    message: str = ""


def _steps_then_finish(n: int):
    def train(config, train_set, eval_set, *, callbacks, cancel):
        for i in range(1, n + 1):
            for cb in callbacks:
                cb(StepLogged(i, n, i / n, 1.0 / i, 1e-5, 10.0, 0.0), Control())
        for cb in callbacks:
            cb(Evaluated(n, 1.0, {"accuracy": 0.5}), Control())
        for cb in callbacks:
            cb(RunFinished("finished", n, {"accuracy": 0.5}, output_dir="run-folder"), Control())
        return _Result("finished", n, {"accuracy": 0.5}, "run-folder")

    return train


def test_step_events_are_coalesced_but_every_point_arrives_in_order(qtbot):
    n = 5000  # far faster than 10 per second: without coalescing, 5000 queued signals
    worker = TrainingWorker(TrainConfig(), train_fn=_steps_then_finish(n))
    batches: list[list[StepLogged]] = []
    order: list[str] = []
    worker.step_logged.connect(lambda b: (batches.append(b), order.append("steps")))
    worker.evaluated.connect(lambda e: order.append("eval"))
    with qtbot.waitSignal(worker.ended, timeout=30_000) as done:
        worker.start()
    # the engine's own RunFinished, as it was emitted (not rebuilt from the result)
    assert done.args[0] == RunFinished("finished", n, {"accuracy": 0.5}, output_dir="run-folder")
    steps = [s.step for b in batches for s in b]
    assert steps == list(range(1, n + 1)) and all(isinstance(s, StepLogged) for b in batches for s in b)
    assert len(batches) < n / 10
    assert order[-1] == "eval"  # pending steps are flushed before the evaluation
    qtbot.waitUntil(lambda: not worker.is_running())


def test_cancel_and_wait_returns_once_the_loop_sees_the_flag(qtbot):
    entered = threading.Event()
    seen: list[int] = []

    def train(config, train_set, eval_set, *, callbacks, cancel):
        step = 0
        while not cancel.is_set():
            step += 1
            entered.set()
            cancel.wait(0.01)  # one "optimizer step"
        seen.append(step)
        return _Result("cancelled", step, {}, "x", f"cancelled at step {step}")

    worker = TrainingWorker(TrainConfig(), train_fn=train)
    ended: list[RunFinished] = []
    worker.ended.connect(ended.append)
    worker.start()
    qtbot.waitUntil(entered.is_set, timeout=10_000)
    assert worker.is_running()
    # Blocks the GUI thread: the thread must quit through a direct connection, not a queued one.
    assert worker.cancel_and_wait(10_000) is True
    assert seen
    qtbot.waitUntil(lambda: len(ended) == 1 and not worker.is_running(), timeout=5000)
    assert ended[0].status == "cancelled" and ended[0].message == f"cancelled at step {seen[0]}"


def test_an_exception_in_the_loop_becomes_a_readable_failed_signal(qtbot):
    def train(config, train_set, eval_set, *, callbacks, cancel):
        raise RuntimeError("CUDA error: device-side assert triggered")

    worker = TrainingWorker(TrainConfig(), train_fn=train)
    with qtbot.waitSignal(worker.ended, timeout=10_000) as ended:
        worker.start()
    assert ended.args[0].status == "failed"
    assert ended.args[0].message == "RuntimeError: CUDA error: device-side assert triggered"
    qtbot.waitUntil(lambda: not worker.is_running())


def test_a_thread_job_outlives_its_callers_reference(qtbot):
    """ThreadJob keeps itself (and its QThread) alive until the thread ends, so a dialog or page
    dropping the job mid-run neither destroys a running thread nor loses the result."""
    release = threading.Event()
    got: list[object] = []
    job = ThreadJob(lambda: release.wait(10) and "done")
    job.succeeded.connect(got.append)
    job.start()
    del job  # the caller's only reference: no collection needed (a full one in this test, with the job's
    # thread alive, collected other tests' garbage and segfaulted CI)
    release.set()
    qtbot.waitUntil(lambda: got == ["done"], timeout=10_000)
    qtbot.waitUntil(lambda: not ThreadJob._running, timeout=10_000)


def _step(i: int, loss: float) -> StepLogged:
    return StepLogged(step=i, total_steps=100, epoch=i / 100, loss=loss, lr=1e-4, examples_per_s=50.0, eta_s=9.0)


def test_curves_redraw_coalesced_and_not_while_hidden(qtbot):
    """Many step events, few redraws: points are kept at once, drawn at most every REDRAW_MS,
    on a fixed x range for a run of known length; a hidden monitor draws when shown."""
    from bertstudio.ui.training_monitor import TrainingMonitor

    monitor = TrainingMonitor(names=False)
    qtbot.addWidget(monitor)
    monitor.show()
    qtbot.waitExposed(monitor)
    loss = monitor.loss_plot
    monitor.on_started(RunStarted(100, 3200, 0, 1, 32, 10, 100, "cpu", "fp32"))
    for i in range(1, 6):
        monitor.on_steps([_step(i, 1.0 / i)])
    drawn = loss._series[loss.raw_name][1]
    assert list(loss.series_data(loss.raw_name)[0]) == [1, 2, 3, 4, 5]  # kept at once
    assert drawn.getOriginalDataset()[0] is None or len(drawn.getOriginalDataset()[0]) == 0  # not drawn yet
    qtbot.waitUntil(lambda: drawn.getOriginalDataset()[0] is not None and len(drawn.getOriginalDataset()[0]) == 5, timeout=2000)
    x_range = loss.getViewBox().viewRange()[0]
    assert x_range[0] <= 0 and 100 <= x_range[1] <= 104  # the whole run, not rescaled per point

    monitor.hide()
    monitor.on_steps([_step(6, 0.1)])
    qtbot.wait(2 * loss.REDRAW_MS)
    assert len(drawn.getOriginalDataset()[0]) == 5  # hidden: no repaint work
    monitor.show()
    qtbot.waitUntil(lambda: len(drawn.getOriginalDataset()[0]) == 6, timeout=2000)
    monitor.on_steps([_step(7, 0.1)])
    monitor.on_ended(RunFinished("finished", 7))
    assert len(drawn.getOriginalDataset()[0]) == 7  # the end of a run is drawn at once


def test_y_range_follows_the_data_with_slack(qtbot):
    """The y range moves only when the curves leave it (each move re-renders the axis), always
    shows every point, and leaves a user's own zoom alone until the "A" button."""
    from bertstudio.ui.plots import LossPlot

    plot = LossPlot()
    qtbot.addWidget(plot)
    plot.show()
    qtbot.waitExposed(plot)
    view = plot.getViewBox()
    plot.add_steps([_step(1, 0.7), _step(2, 0.6)])
    plot.flush()
    first = tuple(view.viewRange()[1])
    assert first[0] < 0.6 and first[1] > 0.7  # every point in view
    plot.add_steps([_step(3, 0.65)])
    plot.flush()
    assert tuple(view.viewRange()[1]) == first  # inside the range: no move
    plot.add_steps([_step(4, 0.2)])
    plot.flush()
    low, high = view.viewRange()[1]
    assert low < 0.2 < 0.7 < high  # left the range: refitted to show it all
    view.setYRange(5.0, 6.0, padding=0)
    view.sigRangeChangedManually.emit([True, True])  # as a wheel zoom or drag does
    plot.add_steps([_step(43, 0.1)])
    plot.flush()
    assert tuple(view.viewRange()[1]) == (5.0, 6.0)  # the user's zoom holds
    view.enableAutoRange()  # pyqtgraph's "A" button
    low, high = view.viewRange()[1]
    assert low < 0.1 and high < 1.0 and not view.autoRangeEnabled()[1]  # fitted again, by the slack rule


def test_series_buffer_keeps_the_finite_y_bounds():
    from bertstudio.ui.plots import SeriesBuffer

    buf = SeriesBuffer(capacity=2)
    assert buf.y_bounds is None
    for x, y in enumerate([0.5, float("nan"), 0.9, float("inf"), 0.1]):
        buf.append(x, y)
    assert buf.y_bounds == (0.1, 0.9) and len(buf) == 5  # grew past its capacity too
    buf.clear()
    assert buf.y_bounds is None


def test_the_key_of_several_curves_sits_under_the_plot_and_one_curve_has_none(qtbot):
    """The evaluation legend sat in the plot's top right corner, over the points a run reaches
    there (scores near 100); the learning-rate legend covered its one line."""
    from bertstudio.ui.plots import LrPlot, MetricPlot

    plot = MetricPlot()
    qtbot.addWidget(plot)
    plot.resize(300, 220)
    plot.show()
    qtbot.waitExposed(plot)
    plot.add_eval(Evaluated(step=5, epoch=1.0, metrics={"accuracy": 1.0, "f1": 0.99, "eval_loss": 0.1}))
    plot.flush()
    assert plot.key_text().split() == ["▬", "accuracy", "▬", "f1"]  # scores only, in their order
    qtbot.waitUntil(lambda: plot._key.geometry().width() > 50)  # laid out
    key = plot._key.mapRectToScene(plot._key.boundingRect())
    view = plot.getViewBox().mapRectToScene(plot.getViewBox().boundingRect())
    assert key.top() >= view.bottom() and not any(isinstance(i, pg.LegendItem) for i in plot.scene().items())
    lr = LrPlot()
    qtbot.addWidget(lr)
    assert lr.key_text() == ""


def test_a_loss_curve_of_one_point_is_drawn_as_a_dot(qtbot):
    """A run shorter than its logging interval logs one loss: a line through one point drew
    nothing, so the Runs page's loss plot looked empty. It is a dot until a second point comes."""
    from bertstudio.ui.plots import LossPlot

    plot = LossPlot()
    qtbot.addWidget(plot)
    plot.show()
    qtbot.waitExposed(plot)
    plot.add_steps([_step(8, 0.7)])
    plot.flush()
    items = [item for _buf, item in plot._series.values()]
    assert all(item.opts["symbol"] == "o" for item in items)
    plot.add_steps([_step(16, 0.6)])
    plot.flush()
    assert all(item.opts["symbol"] is None for item in items)  # a line again


def test_the_cores_warnings_for_the_run_reach_the_log_and_no_other_threads(qtbot):
    """The run's own warnings (a class its hold-out leaves unevaluated) went to the log file only;
    the worker forwards them, but not another thread's warnings, errors or tracebacks."""
    import logging

    core = logging.getLogger("bertstudio.train.sources")

    def train(config, train_set, eval_set, *, callbacks, cancel):
        core.warning("%s: no held-out row of class %s: trained on, not evaluated", "the training data", "'a'")
        core.error("an error for the log file")
        other = threading.Thread(target=lambda: core.warning("the labelling assistant's own warning"))
        other.start()
        other.join()
        return _Result("finished")

    warned: list[str] = []
    worker = TrainingWorker(TrainConfig(), train_fn=train)
    worker.warned.connect(warned.append)
    with qtbot.waitSignal(worker.ended, timeout=60_000):  # a heavy job imports torch first
        worker.start()
    assert warned == ["the training data: no held-out row of class 'a': trained on, not evaluated"]
    core.warning("after the run")
    assert len(warned) == 1  # the handler went with the run
    assert all(type(h).__name__ != "CoreWarnings" for h in logging.getLogger("bertstudio").handlers)


def test_a_run_the_app_hands_its_sets_warns_of_dev_rows_that_repeat_train_rows(qtbot, tmp_path, tiny_model_dir):
    """The app gives the engine its project's train and dev rows (Train page run_inputs); the core's
    check (train/sources.warn_repeats) reaches the run's log, naming the project rows."""
    from bertstudio.data.examples import from_records
    from bertstudio.train.sources import project_rows

    def split(name, texts):
        rows = [{"text": t, "label": "pos" if i % 2 else "neg"} for i, t in enumerate(texts)]
        examples = from_records("sentence", rows, labels=["neg", "pos"], meta={"split": name})
        return project_rows(examples, range(len(rows)))

    train = split("train", [f"training sentence {i}" for i in range(8)])
    dev = split("dev", ["a new sentence", "training sentence 2"])
    config = TrainConfig(task="sentence", model=str(tiny_model_dir), epochs=1, batch_size=4, max_length=16,
                         device="cpu", precision="fp32", output_dir=str(tmp_path / "run"))
    warned: list[str] = []
    worker = TrainingWorker(config, train, dev)
    worker.warned.connect(warned.append)
    with qtbot.waitSignal(worker.ended, timeout=120_000) as ended:
        worker.start()
    assert ended.args[0].status == "finished", ended.args[0].message
    said = [w for w in warned if "repeat a training row" in w]
    assert len(said) == 1 and "1 of 2 evaluation rows" in said[0] and "(first: dev row 2 = train row 3)" in said[0]


def test_a_run_folder_removed_while_the_app_trains_ends_as_a_failed_run_that_says_so(qtbot, tmp_path, tiny_model_dir):
    """The app's run (the real engine through the worker) whose folder is deleted from outside at step 2:
    a failed run with the core's line, as the Train page shows failures, and no folder made again
    (it came back as a "finished" run with no settings)."""
    import shutil

    from bertstudio.train.engine import train as engine_train

    from helpers import sentiment

    out = tmp_path / "run"

    def remove_at_step_2(event, control):
        if isinstance(event, StepLogged) and event.step == 2:
            shutil.rmtree(out)

    def train(config, train_set, eval_set, *, callbacks, cancel):
        return engine_train(config, train_set, eval_set, callbacks=[remove_at_step_2, *callbacks], cancel=cancel)

    config = TrainConfig(task="sentence", model=str(tiny_model_dir), epochs=2, batch_size=4, max_length=16,
                         logging_steps=1, device="cpu", precision="fp32", output_dir=str(out))
    worker = TrainingWorker(config, sentiment(16), sentiment(4, 1), train_fn=train)
    with qtbot.waitSignal(worker.ended, timeout=120_000) as ended:
        worker.start()
    assert ended.args[0].status == "failed"
    assert ended.args[0].message == f"{out}: the run folder was removed or moved while the run was writing it"
    assert not out.exists()
    qtbot.waitUntil(lambda: not worker.is_running())
