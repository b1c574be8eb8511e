"""Run one Qt-free job (an export, a push, a learning curve, a comparison) off the GUI thread.

The job is a plain function ``fn(progress, cancel) -> result``: ``progress(fraction,
message)`` may be called from the job's thread as often as it likes (emissions are
throttled to one every ``throttle_s``; a message held back goes out when the throttle
allows or the job ends, unless a newer one took its place, so the latest is never lost), and ``cancel`` is
the ``threading.Event`` the job checks. The thread is the app's one runner,
:class:`~bertstudio.ui.worker.ThreadJob` (it keeps a job alive until its thread has ended,
so a dialog closed mid-job cannot destroy a running QThread); this class adds the
progress, the cancel flag and the outcome as signals: ``finished(result)``,
``failed(message)`` or ``cancelled``. Only plain Python values cross.
A :class:`~bertstudio.errors.BertStudioError` ends as ``failed(message)`` (``cancelled``
when the job was asked to stop); anything else is logged with its traceback and ends as
``failed`` with one line.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from bertstudio.errors import BertStudioError
from bertstudio.train import training_lock
from bertstudio.ui.worker import ThreadJob, after_imports

log = logging.getLogger(__name__)

Job = Callable[[Callable[[float, str], None], threading.Event], Any]


def training_job_text(name: str) -> str:
    """A training's name from train/training_lock.py ("waiting for <it> to finish"), translated."""
    texts = {training_lock.RUN: QCoreApplication.translate("TrainingJobs", "a training run"),
             training_lock.ASSISTANT: QCoreApplication.translate("TrainingJobs", "the assistant's model"),
             training_lock.LABEL_CHECK: QCoreApplication.translate("TrainingJobs", "the label-error check"),
             training_lock.LEARNING_CURVE: QCoreApplication.translate("TrainingJobs", "the learning curve"),
             training_lock.SPEED_TIMING: QCoreApplication.translate("TrainingJobs", "the time estimate's timing")}
    return texts.get(name, name)


def waiting_line(line: str, waiting_for: str) -> str:
    """``line`` ("fold 2 of 5", "Run 3 of 12: …") and what its job does while another training has the
    turn (train/training_lock.py): the assistant is stopped after its step, any other is waited for."""
    if waiting_for == training_lock.ASSISTANT:
        return QCoreApplication.translate(
            "TrainingJobs", "{line}: stopping the assistant's background training after its current step").format(
            line=line)
    return QCoreApplication.translate("TrainingJobs", "{line}: waiting for {job} to finish").format(
        line=line, job=training_job_text(waiting_for))


class JobWorker(QObject):
    """Lives on the GUI thread; ``progressed`` is emitted from the job's thread (queued to
    GUI-thread receivers), the outcome signals on the GUI thread once the job has returned."""

    progressed = Signal(float, str)
    finished = Signal(object)  # the job's result
    failed = Signal(str)
    cancelled = Signal()
    _held = Signal()  # the throttle held a message back: queued to the GUI thread, which arms the flush timer

    def __init__(self, fn: Job, *, name: str = "bertstudio-job", throttle_s: float = 0.1, heavy: bool = False) -> None:
        super().__init__()
        self._fn = fn
        self._name = name
        self._heavy = heavy  # the job uses torch: see ThreadJob
        self.throttle_s = throttle_s
        self.cancel_event = threading.Event()
        self._running = threading.Event()
        self._stopped = False  # the cancel flag as the job returned or raised
        self._last = 0.0
        self._lock = threading.RLock()  # a direct-connected slot may report progress again
        self._pending: tuple[float, str] | None = None  # the latest message the throttle held back
        self._armed = False  # _held was emitted and the flush has not run yet
        # sends the held message once the throttle allows: a QTimer of this object, so on the GUI thread
        self._flush_timer = QTimer(self, singleShot=True)
        self._flush_timer.timeout.connect(self._flush)
        self._held.connect(self._arm)
        # a failed job's error's facts (errors.BertStudioError), for its page to say it in its own words
        self.failure_facts: dict[str, Any] = {}
        self._job: ThreadJob | None = None

    def start(self) -> ThreadJob:
        job = ThreadJob(self._call, name=self._name)  # heavy: _call waits for the imports itself
        job.succeeded.connect(self._on_returned)
        job.failed.connect(self._on_raised)
        self._job = job
        self._running.set()
        return job.start()

    def is_running(self) -> bool:
        """True until the job's function has returned or raised."""
        return self._running.is_set()

    def cancel(self) -> None:
        self.cancel_event.set()

    def wait(self, timeout_ms: int = 30_000) -> bool:
        return self._job is None or self._job.wait(timeout_ms)

    def _waiting_for_imports(self) -> None:
        self._progress(0.0, QCoreApplication.translate("TrainingJobs", "Loading the training libraries…"))

    def _progress(self, fraction: float, message: str) -> None:
        with self._lock:
            now = time.monotonic()
            if now - self._last >= self.throttle_s or fraction >= 1.0:
                self._pending = None  # superseded
                self._emit(float(fraction), str(message))
                return
            # kept, not dropped: a job that then waits (an upload) showed a stale step for minutes
            self._pending = (float(fraction), str(message))
            if not self._armed:
                self._armed = True
                self._held.emit()  # from the job's thread: queued to _arm on the GUI thread

    def _emit(self, fraction: float, message: str) -> None:  # with the lock held
        self._last = time.monotonic()
        self.progressed.emit(fraction, message)

    @Slot()
    def _arm(self) -> None:  # on the GUI thread
        with self._lock:
            wait = max(0.0, self.throttle_s - (time.monotonic() - self._last))
        if self._running.is_set():  # the job's end flushes on its own
            self._flush_timer.start(int(wait * 1000))

    @Slot()
    def _flush(self) -> None:
        """Send the last message the throttle held back (on the GUI thread from the timer, or on the
        job's thread as the job ends)."""
        with self._lock:
            self._armed = False
            pending, self._pending = self._pending, None
            if pending is not None:
                self._emit(*pending)

    def _call(self) -> Any:  # on the job's thread
        def body() -> Any:
            return self._fn(self._progress, self.cancel_event)

        try:
            if self._heavy:  # the wait for the imports says so and ends at Cancel (or the app's quit), the job
                # then cancelled without running: a learning curve's Cancel did nothing while they loaded
                return after_imports(body, self.cancel_event, self._waiting_for_imports)()
            return body()
        finally:
            self._flush()  # before the outcome, which is queued after it (the timer stops at the outcome)
            self._stopped = self.cancel_event.is_set()
            self._running.clear()

    @Slot(object)
    def _on_returned(self, result: Any) -> None:
        self._flush_timer.stop()
        if self._stopped and result is None:
            self.cancelled.emit()
        else:
            self.finished.emit(result)

    @Slot(object)
    def _on_raised(self, exc: BaseException) -> None:
        self._flush_timer.stop()
        if not isinstance(exc, BertStudioError):  # ThreadJob has logged its traceback
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        elif self._stopped:
            self.cancelled.emit()
        else:
            log.info("%s stopped: %s", self._name, exc)
            self.failure_facts = dict(exc.facts)
            self.failed.emit(str(exc))
