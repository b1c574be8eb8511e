"""TrainingWorker's own duties, driven by small loops that call it the way the engine does:
coalescing step events, cancel_and_wait without deadlock, surviving an exception.
(The real engine through the worker is in test_training_page.py.)"""

from __future__ import annotations

import threading

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Control, Evaluated, StepLogged
from bertstudio.ui.worker import TrainingWorker


def _steps_then_finish(n: int):
    def train(config, train_set, eval_set, *, callbacks, cancel):
        for i in range(1, n + 1):
            for cb in callbacks:
                cb(StepLogged(i, n, i / n, 1.0 / i, 1e-5, 10.0, 0.0), Control())
        for cb in callbacks:
            cb(Evaluated(n, 1.0, {"accuracy": 0.5}), Control())
        return {"status": "finished", "metrics": {"accuracy": 0.5}, "output_dir": None, "model_dir": None, "message": ""}

    return train


def test_step_events_are_coalesced_but_every_point_arrives_in_order(qtbot):
    n = 5000  # far faster than 10 per second: without coalescing, 5000 queued signals
    worker = TrainingWorker(TrainConfig(), train_fn=_steps_then_finish(n))
    batches: list[list[dict]] = []
    order: list[str] = []
    worker.step_logged.connect(lambda b: (batches.append(b), order.append("steps")))
    worker.evaluated.connect(lambda e: order.append("eval"))
    with qtbot.waitSignal(worker.finished, timeout=30_000) as done:
        worker.start()
    assert done.args[0]["status"] == "finished"
    steps = [s["step"] for b in batches for s in b]
    assert steps == list(range(1, n + 1))
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
        return {"status": "cancelled", "metrics": {}, "output_dir": "x", "model_dir": None, "message": f"cancelled at step {step}"}

    worker = TrainingWorker(TrainConfig(), train_fn=train)
    cancelled: list[dict] = []
    worker.cancelled.connect(cancelled.append)
    worker.start()
    qtbot.waitUntil(entered.is_set, timeout=10_000)
    assert worker.is_running()
    # Blocks the GUI thread: the thread must quit through a direct connection, not a queued one.
    assert worker.cancel_and_wait(10_000) is True
    assert seen and not worker.is_running()
    qtbot.waitUntil(lambda: len(cancelled) == 1, timeout=5000)
    assert cancelled[0]["status"] == "cancelled"


def test_an_exception_in_the_loop_becomes_a_readable_failed_signal(qtbot):
    def train(config, train_set, eval_set, *, callbacks, cancel):
        raise RuntimeError("CUDA error: device-side assert triggered")

    worker = TrainingWorker(TrainConfig(), train_fn=train)
    with qtbot.waitSignal(worker.failed, timeout=10_000) as failed:
        worker.start()
    assert failed.args[0] == "RuntimeError: CUDA error: device-side assert triggered"
    qtbot.waitUntil(lambda: not worker.is_running())
