"""Run one Qt-free job (an export, a push, a learning curve, a comparison) on a QThread.

The job is a plain function ``fn(progress, cancel) -> result``: ``progress(fraction,
message)`` may be called from the job's thread as often as it likes (emissions are
throttled to one every ``throttle_s``, the last one always goes out), and ``cancel`` is
the ``threading.Event`` the job checks. Wiring as GUIDE.md asks: the worker moves to its
thread, ``thread.started -> worker.run``, ``finished/failed/cancelled -> thread.quit``,
``deleteLater`` on both once the thread has ended; only plain Python values cross.
A :class:`~bertstudio.errors.BertStudioError` ends as ``failed(message)``; anything else
is logged with its traceback and ends as ``failed`` with one line.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from bertstudio.errors import BertStudioError

log = logging.getLogger(__name__)

Job = Callable[[Callable[[float, str], None], threading.Event], Any]
_LIVE: set["_Keeper"] = set()


class _Keeper(QObject):
    """Lives in the GUI thread and holds the worker and its thread until the thread has ended,
    so a dialog closed mid-job cannot destroy a running QThread (as ui/worker.py does)."""

    def __init__(self, worker: "JobWorker", thread: QThread) -> None:
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


class JobWorker(QObject):
    progressed = Signal(float, str)
    finished = Signal(object)  # the job's result
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, fn: Job, *, name: str = "bertstudio-job", throttle_s: float = 0.1) -> None:
        super().__init__()
        self._fn = fn
        self._name = name
        self.throttle_s = throttle_s
        self.cancel_event = threading.Event()
        self._running = threading.Event()
        self._last = 0.0
        self._thread: QThread | None = None

    def start(self) -> QThread:
        thread = QThread()
        thread.setObjectName(self._name)
        self.moveToThread(thread)
        thread.started.connect(self.run)
        for signal in (self.finished, self.failed, self.cancelled):
            signal.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        keeper = _Keeper(self, thread)  # connected first: it runs before the deleteLater calls
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
        self.cancel_event.set()

    def wait(self, timeout_ms: int = 30_000) -> bool:
        thread = self._thread
        try:
            return thread is None or bool(thread.wait(timeout_ms))
        except RuntimeError:  # already deleted: it has ended
            return True

    def _progress(self, fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - self._last >= self.throttle_s or fraction >= 1.0:
            self._last = now
            self.progressed.emit(float(fraction), str(message))

    @Slot()
    def run(self) -> None:
        try:
            result = self._fn(self._progress, self.cancel_event)
        except BertStudioError as exc:
            self._running.clear()
            if self.cancel_event.is_set():
                self.cancelled.emit()
            else:
                log.info("%s stopped: %s", self._name, exc)
                self.failed.emit(str(exc))
            return
        except BaseException as exc:  # noqa: BLE001 - the app must survive any job's bug
            log.error("%s crashed", self._name, exc_info=exc)
            self._running.clear()
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        self._running.clear()
        if self.cancel_event.is_set() and result is None:
            self.cancelled.emit()
        else:
            self.finished.emit(result)
