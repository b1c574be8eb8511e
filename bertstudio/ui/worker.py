"""Runs the training engine on a QThread and adapts its events to Qt signals.

Wiring as GUIDE.md asks: ``worker.moveToThread(thread)``, ``thread.started ->
worker.run``, ``finished/failed/cancelled -> thread.quit`` and ``deleteLater``
on both. Only plain Python values cross the thread boundary (the engine's
event dicts). Step events are coalesced: every point is buffered, and the
buffer goes out as one ``step_logged(list)`` at most every ``throttle_s``, so
a fast loop cannot flood the GUI's event queue. Cancellation is a
``threading.Event`` the GUI sets; the engine checks it after each optimizer step.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from bertstudio.errors import BertStudioError
from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Control, Evaluated, RunStarted, StepLogged, event_to_dict

log = logging.getLogger(__name__)

TrainFn = Callable[..., Any]


def _default_train() -> TrainFn:
    # Imported lazily: torch/transformers take seconds to import and the page
    # should open before they are needed.
    from bertstudio.train.engine import train

    return train


def _result_dict(result: Any) -> dict[str, Any]:
    keys = ("status", "metrics", "output_dir", "model_dir", "message")
    if isinstance(result, dict):
        return {k: result.get(k) for k in keys}
    return {k: getattr(result, k, None) for k in keys}


_LIVE: set["_Keeper"] = set()


class _Keeper(QObject):
    """Lives in the GUI thread; releases a finished worker and its thread there."""

    def __init__(self, worker: "TrainingWorker", thread: QThread) -> None:
        super().__init__()
        self._worker, self._thread = worker, thread
        _LIVE.add(self)

    @Slot()
    def release(self) -> None:
        try:
            self._thread.wait()  # returns at once: the thread is at its very end
        except RuntimeError:
            pass
        self._worker._thread = None
        _LIVE.discard(self)


class TrainingWorker(QObject):
    started = Signal(dict)  # RunStarted as a dict
    step_logged = Signal(list)  # list of StepLogged dicts since the last emission
    evaluated = Signal(dict)  # Evaluated as a dict
    finished = Signal(dict)  # RunResult fields: status, metrics, output_dir, model_dir, message
    failed = Signal(str)  # a readable one-line message
    cancelled = Signal(dict)  # RunResult fields of the cancelled (still usable) run

    def __init__(
        self,
        config: TrainConfig,
        train_set: Any = None,
        eval_set: Any = None,
        *,
        throttle_s: float = 0.1,
        train_fn: TrainFn | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self._train_set = train_set
        self._eval_set = eval_set
        self._train_fn = train_fn
        self.throttle_s = throttle_s
        self._cancel = threading.Event()
        self._running = threading.Event()
        self._thread: QThread | None = None
        self._pending: list[dict[str, Any]] = []
        self._last_emit = 0.0

    # --- GUI-thread API -------------------------------------------------------------
    def start(self) -> QThread:
        """Move to a fresh thread and run there; both objects delete themselves when done."""
        thread = QThread()
        thread.setObjectName("bertstudio-training")
        self.moveToThread(thread)
        thread.started.connect(self.run)
        # Direct: QThread.quit is thread-safe, and a queued call would never arrive
        # while the GUI thread blocks in cancel_and_wait().
        for sig in (self.finished, self.failed, self.cancelled):
            sig.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        # The keeper holds both Python wrappers until the thread has ended, so a page
        # dropping its reference early cannot destroy a running QThread; connected
        # first so it runs before the deleteLater calls it queues behind.
        keeper = _Keeper(self, thread)
        thread.finished.connect(keeper.release)
        thread.finished.connect(self.deleteLater)
        thread.finished.connect(thread.deleteLater)
        self._thread = thread
        self._running.set()
        thread.start()
        return thread

    def is_running(self) -> bool:
        return self._running.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def cancel_and_wait(self, timeout_ms: int = 30000) -> bool:
        """Ask the loop to stop and block until the thread ends; True if it did in time."""
        self._cancel.set()
        thread = self._thread
        if thread is None:
            return not self.is_running()
        try:
            return bool(thread.wait(timeout_ms))
        except RuntimeError:  # the C++ thread is already deleted: it has ended
            return True

    # --- worker thread --------------------------------------------------------------
    @Slot()
    def run(self) -> None:
        try:
            train = self._train_fn or _default_train()
            result = train(self.config, self._train_set, self._eval_set, callbacks=[self._on_event], cancel=self._cancel)
            self._flush()
            info = _result_dict(result)
            status = info.get("status")
            if status == "cancelled":
                self._running.clear()
                self.cancelled.emit(info)
            elif status == "failed":
                self._running.clear()
                self.failed.emit(info.get("message") or self.tr("Training failed."))
            else:
                self._running.clear()
                self.finished.emit(info)
        except BertStudioError as exc:
            log.info("training stopped: %s", exc)
            self._flush()
            self._running.clear()
            self.failed.emit(str(exc))
        except BaseException as exc:  # noqa: BLE001 - the app must survive any worker error
            log.error("training crashed:\n%s", traceback.format_exc())
            self._flush()
            self._running.clear()
            self.failed.emit(f"{type(exc).__name__}: {exc}")

    def _on_event(self, event: Any, control: Control) -> None:
        if isinstance(event, StepLogged):
            self._pending.append(event_to_dict(event))
            now = time.monotonic()
            if now - self._last_emit >= self.throttle_s:
                self._flush(now)
        elif isinstance(event, Evaluated):
            self._flush()
            self.evaluated.emit(event_to_dict(event))
        elif isinstance(event, RunStarted):
            self.started.emit(event_to_dict(event))

    def _flush(self, now: float | None = None) -> None:
        if self._pending:
            batch, self._pending = self._pending, []
            self.step_logged.emit(batch)
        self._last_emit = time.monotonic() if now is None else now
