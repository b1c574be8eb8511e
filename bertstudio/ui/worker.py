"""Work off the GUI thread: :class:`ThreadJob`, the app's one thread runner, and
:class:`TrainingWorker`, which runs the training engine on one and adapts its events
to Qt signals.

Wiring: a fresh QThread per job, ``thread.started -> body.run`` by a direct connection
(so it runs on the job's thread), the body's end -> ``thread.quit``, ``deleteLater`` on
both once the thread has finished. The body is a QObject that lives on the GUI thread
from birth to deletion (see :class:`_Body`): the job's thread never makes, moves or
destroys a QObject, calls that take a pooled Qt mutex while PySide holds the GIL and so
deadlocked with the GUI thread connecting or disconnecting a signal.

A QThread per job rather than Qt's global pool
(superqt's workers use that): a training run holds its thread for minutes, and the
pool has as many threads as cores (two on a small laptop), so a run would starve the
Playground and the import dialog. Running jobs are kept alive by the class, so a page
dropping its reference never destroys a running QThread, and the app's quit (or, without
an event loop, the interpreter's exit) waits for them: a QThread destroyed while running
aborts the process.

The engine's events cross to the GUI thread as the event objects themselves (frozen
dataclasses of plain values). Step events are coalesced: every point is buffered and
the buffer goes out as one ``step_logged(list)`` at most every ``throttle_s``, so a
fast loop cannot flood the GUI's event queue. The run's end is one ``ended`` signal
carrying the engine's own :class:`~bertstudio.train.events.RunFinished`.
Cancellation is a ``threading.Event`` the GUI sets; the engine checks it after each
optimizer step.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import traceback
from typing import Any, Callable, ClassVar

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal, Slot

from bertstudio.errors import BertStudioError
from bertstudio.ui.gui_gc import collect_on_gui_thread
from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Control, Evaluated, PhaseChanged, RunFinished, RunStarted, StepLogged

log = logging.getLogger(__name__)

TrainFn = Callable[..., Any]


class _Either:
    """Set once any of its flags is: what a heavy job's wait for the imports reads (its own cancel or
    the app's quit)."""

    def __init__(self, *flags: threading.Event) -> None:
        self._flags = flags

    def is_set(self) -> bool:
        return any(flag.is_set() for flag in self._flags)


def after_imports(fn: Callable[[], Any], cancel: threading.Event,
                   waiting: Callable[[], None] | None = None) -> Callable[[], Any]:
    """``fn`` run once torch & co are imported under the one lock (preload.ensure_imported):
    two threads' first imports of them at once broke each other. The wait (the preload's imports
    take 5-15 s on a slow laptop) ends at once when ``cancel`` or the app's quit is set, and then
    ``fn`` never runs: None. Waited for deaf, the Train page's parameter count and time estimate
    kept the process alive after Quit until the imports were done (ThreadJob.wait_all waited
    for them), and the estimate then timed the computer for a project already closed."""
    def run() -> Any:
        return fn() if imports_in(cancel, waiting) else None
    return run


def imports_in(cancel: threading.Event, waiting: Callable[[], None] | None = None) -> bool:
    """On a job's thread: torch & co imported under the one lock (preload.ensure_imported), ``waiting``
    called before a wait; False, at once, when ``cancel`` or the app's quit (ThreadJob.quitting)
    came first. Every job that uses torch waits here: heavy ThreadJobs and the training run."""
    from bertstudio.ui.preload import ensure_imported

    return ensure_imported(cancel=_Either(cancel, ThreadJob.quitting), waiting=waiting)  # type: ignore[arg-type]


class _Body(QObject):
    """Calls the function on the job's thread and hands its outcome to the GUI thread.

    It lives on the GUI thread from birth to deletion, and :meth:`run` is called on the job's
    thread by a direct connection: the job's thread never moves, makes or deletes a QObject.
    Those calls take one of Qt's pooled signal-slot mutexes while PySide still holds the GIL,
    and the GUI thread takes the same pool in connect and disconnect, where PySide lets the
    GIL go and then asks for it back (to look for a Python override of disconnectNotify):
    each thread then holds what the other waits for, for ever. ~QObject on the job's thread
    hung the app that way (pyqtgraph redrawing an axis), and so did moving this object back
    to the GUI thread at the end of :meth:`run` (a test's qtbot.wait disconnecting its
    timer). What the job's thread still does is emit its outcome, once. In the loop of
    tests/ui/thread_churn.py (30,000 jobs) the old body hung in 5 runs of 5 and this one in
    none of 10; with more connecting on the GUI side, in 3 of 9 against none of 4.
    """

    returned = Signal(object)
    raised = Signal(object)

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__()
        self._fn = fn

    @Slot()
    def run(self) -> None:
        try:
            result, failed = self._fn(), False
        except BaseException as exc:  # noqa: BLE001 - any error reaches the GUI as a signal
            if not isinstance(exc, (BertStudioError, SystemExit)):  # SystemExit: the app quits under it
                log.error("background job failed:\n%s", traceback.format_exc())
            result, failed = exc, True
        (self.raised if failed else self.returned).emit(result)


class ThreadJob(QObject):
    """Calls ``fn()`` on its own QThread; ``succeeded(result)`` or ``failed(exception)``
    arrive on the GUI thread, then ``ended`` once the thread has finished."""

    succeeded = Signal(object)
    failed = Signal(object)
    ended = Signal()

    _running: ClassVar[set["ThreadJob"]] = set()
    quitting: ClassVar[threading.Event] = threading.Event()  # set as the app quits: heavy jobs stop waiting

    def __init__(self, fn: Callable[[], Any], *, name: str = "bertstudio-job", heavy: bool = False,
                 cancel: threading.Event | None = None, waiting: Callable[[], None] | None = None) -> None:
        """``heavy``: the job uses torch; ``fn`` runs once the imports are in (see after_imports), not
        at all (None) when ``cancel`` (the job's stop flag; its own when not given) is set or the app
        quits first. ``waiting``: called on the job's thread before a wait for the imports."""
        super().__init__()
        self.cancel_event = cancel if cancel is not None else threading.Event()
        self._fn, self._name = (after_imports(fn, self.cancel_event, waiting) if heavy else fn), name
        self._thread: QThread | None = None

    def start(self) -> "ThreadJob":
        collect_on_gui_thread()  # no PySide object is ever garbage-collected on this job's thread (ui/gui_gc.py)
        thread = QThread()
        thread.setObjectName(self._name)
        body = _Body(self._fn)  # stays on this thread: see _Body
        thread.started.connect(body.run, Qt.ConnectionType.DirectConnection)  # called on the job's thread
        body.returned.connect(self.succeeded)  # queued: re-emitted on the GUI thread
        body.raised.connect(self.failed)
        # Direct: QThread.quit is thread-safe, and a queued call would never arrive while
        # the GUI thread blocks in wait().
        body.returned.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        body.raised.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._release)  # connected first: runs before the deleteLater calls
        thread.finished.connect(body.deleteLater)
        thread.finished.connect(thread.deleteLater)
        self._thread, self._body = thread, body
        ThreadJob._running.add(self)
        app = QCoreApplication.instance()
        if app is not None and not app.property("bertstudioJobsJoined"):
            # a QThread destroyed while running aborts the process: quitting waits for the jobs
            app.setProperty("bertstudioJobsJoined", True)
            app.aboutToQuit.connect(ThreadJob.quit_all)
        thread.start()
        return self

    @staticmethod
    def quit_all() -> None:
        """The app quits: jobs still waiting for the imports end at once, then every job is waited for."""
        ThreadJob.quitting.set()
        ThreadJob.wait_all()

    @staticmethod
    def wait_all(timeout_ms: int = 30_000) -> None:
        """Block until every running job's thread has ended (each up to ``timeout_ms``)."""
        for job in list(ThreadJob._running):
            job.wait(timeout_ms)

    def is_running(self) -> bool:
        """True until the thread has ended (also before ``ended`` is delivered)."""
        thread = self._thread
        try:
            return thread is not None and not thread.isFinished()
        except RuntimeError:  # the C++ thread is already deleted: it has ended
            return False

    def wait(self, timeout_ms: int) -> bool:
        """Block until the thread ends (True) or ``timeout_ms`` passes (False)."""
        thread = self._thread
        if thread is None:
            return True
        try:
            return bool(thread.wait(timeout_ms))
        except RuntimeError:  # the C++ thread is already deleted: it has ended
            return True

    @Slot()
    def _release(self) -> None:
        if self._thread is not None:
            self._thread.wait()  # returns at once: the thread is at its very end
        self._thread = None
        # let go of the function (and with it the object whose method it is, which holds this
        # job): the pair is freed here, on the GUI thread, as soon as its owner drops it, not by
        # a later full collection of whatever else is garbage then (a UI test that forced one
        # to see its workers go was where CI segfaulted)
        self._fn = self._body = None
        ThreadJob._running.discard(self)
        self.ended.emit()


# A script or a test that never runs the event loop never sees aboutToQuit: the interpreter's
# exit waits instead (a long file survey may still be counting).
atexit.register(ThreadJob.wait_all, 60_000)


class CoreWarnings(logging.Handler):
    """The core's warnings while a run reads its rows and trains, for the run's log: the classes
    its hold-out leaves unevaluated, a class with no training row, evaluation rows without gold
    (train/sources). The CLI prints them on stderr; the app said them only in its log file, and a
    20-class run's low macro_f1 came with no word that 16 classes were never evaluated. Only the
    records of the thread that made this handler (the run's; the labelling assistant logs from its
    own), and plain warnings: errors and tracebacks stay in the log file. ``with CoreWarnings(send):``
    listens for the block's length (a learning curve's job says them too)."""

    def __init__(self, send: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self._thread = threading.get_ident()
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self._thread or record.levelno >= logging.ERROR or record.exc_info:
            return
        try:
            self._send(self.said(record))
        except Exception:  # noqa: BLE001 - logging must never break the run
            self.handleError(record)

    def said(self, record: logging.LogRecord) -> str:
        """The warning as sent: in the UI's language where the record carries its facts (train/sources'
        warnings about the rows; the Train page's log said them in English), else the core's line."""
        from bertstudio.ui.run_words import warning_text

        facts = getattr(record, "facts", None)
        return (warning_text(facts) if isinstance(facts, dict) else "") or record.getMessage()

    def __enter__(self) -> "CoreWarnings":
        logging.getLogger("bertstudio").addHandler(self)
        return self

    def __exit__(self, *_exc: Any) -> None:
        logging.getLogger("bertstudio").removeHandler(self)


class TrainingWorker(QObject):
    started = Signal(object)  # RunStarted
    step_logged = Signal(list)  # the StepLogged events since the last emission
    evaluated = Signal(object)  # Evaluated
    phase_changed = Signal(object)  # PhaseChanged: loading the model, tokenising, evaluating i/n, saving
    ended = Signal(object)  # RunFinished: status finished | cancelled | failed, metrics, message, output_dir
    warned = Signal(str)  # a warning of the core's about this run, in its words (see CoreWarnings)
    resumed = Signal(object)  # RunStarted: a resumed run goes on (its history was replayed first, see ``replay``)

    def __init__(
        self,
        config: TrainConfig,
        train_set: Any = None,
        eval_set: Any = None,
        *,
        throttle_s: float = 0.1,
        train_fn: TrainFn | None = None,
        warm: Any = None,
        replay: str | os.PathLike[str] | None = None,
    ) -> None:
        """``replay``: the folder of the run this job resumes; its history so far (starts, steps,
        evaluations) is read and emitted on the worker thread before the run goes on, and the
        run's own start then comes as ``resumed``, so the monitor draws one joined curve."""
        super().__init__()
        self.config = config
        self._replay = replay
        self._starts = 0
        self._warm = warm  # a train/warm.WarmCache for the engine's train() (a given train_fn gets none)
        self._train_set, self._eval_set = train_set, eval_set
        self._train_fn = train_fn
        self.throttle_s = throttle_s
        self._cancel = threading.Event()
        # a failed run's error's facts (errors.BertStudioError), for the page to say it in its own words
        self.failure_facts: dict[str, Any] = {}
        self._job: ThreadJob | None = None
        self._pending: list[StepLogged] = []
        self._last_emit = 0.0
        self._last_phase = 0.0
        self._finished: RunFinished | None = None

    # --- GUI-thread API -------------------------------------------------------------
    def start(self) -> ThreadJob:
        # not ThreadJob's heavy: the run waits for the imports itself, its cancel flag in hand (see _imported)
        job = ThreadJob(self._run, name="bertstudio-training")  # holds this worker until the run ends
        job.succeeded.connect(self._on_returned)
        job.failed.connect(self._on_raised)
        self._job = job
        return job.start()

    def is_running(self) -> bool:
        return self._job is not None and self._job.is_running()

    def cancel(self) -> None:
        self._cancel.set()

    def cancel_and_wait(self, timeout_ms: int = 30000) -> bool:
        """Ask the loop to stop and block until the thread ends; True if it did in time."""
        self._cancel.set()
        return self._job is None or self._job.wait(timeout_ms)

    # --- worker thread --------------------------------------------------------------
    def _imported(self) -> bool:
        """torch & co imported under the one lock (preload.ensure_imported), the wait saying what it waits
        for; False when the run was cancelled first. Waited for without the flag, a Quit while the preload
        thread was still importing (5-15 s on a slow laptop) hid the window and left the process running,
        the project locked, until the imports were done."""
        return imports_in(self._cancel, waiting=lambda: self._on_event(PhaseChanged("importing"), None))

    def _run(self) -> Any:
        if not self._imported():  # ends as the engine's run cancelled before its first step: nothing written
            self._finished = RunFinished(status="cancelled", step=0, output_dir=self.config.output_dir,
                                         message="cancelled before step 1")
            return self._finished
        if self._train_fn is None:
            # Imported here: torch/transformers take seconds to import, and the page should
            # open before they are needed.
            from bertstudio.train.engine import train
        extra = {"warm": self._warm} if self._train_fn is None and self._warm is not None else {}
        if self._replay is not None:
            from bertstudio.train.rundir import read_history

            for event in read_history(self._replay, kinds=("started", "step", "eval")):
                self._on_event(event, None)
            self._flush()
        with CoreWarnings(self.warned.emit):
            result = (self._train_fn or train)(self.config, self._train_set, self._eval_set,
                                               callbacks=[self._on_event], cancel=self._cancel, **extra)
        self._flush()
        return result

    def _on_event(self, event: Any, control: Control) -> None:
        if isinstance(event, StepLogged):
            self._pending.append(event)
            now = time.monotonic()
            if now - self._last_emit >= self.throttle_s:
                self._flush(now)
        elif isinstance(event, Evaluated):
            self._flush()
            self.evaluated.emit(event)
        elif isinstance(event, RunStarted):
            self._starts += 1  # a resumed run's later starts join its curves (TrainingMonitor.on_resumed)
            (self.resumed if self._replay is not None and self._starts > 1 else self.started).emit(event)
        elif isinstance(event, PhaseChanged):
            now = time.monotonic()  # a phase's start and end always; its counts at most every throttle_s
            if event.done in (0, event.total) or now - self._last_phase >= self.throttle_s:
                self._flush()
                self._last_phase = now
                self.phase_changed.emit(event)
        elif isinstance(event, RunFinished):
            self._finished = event  # emitted as ``ended`` once train() has returned

    def _flush(self, now: float | None = None) -> None:
        if self._pending:
            batch, self._pending = self._pending, []
            self.step_logged.emit(batch)
        self._last_emit = time.monotonic() if now is None else now

    # --- back on the GUI thread -------------------------------------------------------
    @Slot(object)
    def _on_returned(self, result: Any) -> None:
        self.failure_facts = dict(getattr(getattr(result, "error", None), "facts", None) or {})
        finished = self._finished
        if finished is None:  # a train function that reports no RunFinished event (a test's)
            finished = RunFinished(status=getattr(result, "status", "finished"), step=getattr(result, "step", 0),
                                   metrics=dict(getattr(result, "metrics", None) or {}),
                                   output_dir=getattr(result, "output_dir", None), message=getattr(result, "message", ""))
        self.ended.emit(finished)

    @Slot(object)
    def _on_raised(self, exc: BaseException) -> None:
        self._flush()
        message = str(exc) if isinstance(exc, BertStudioError) else f"{type(exc).__name__}: {exc}"
        self.failure_facts = dict(exc.facts) if isinstance(exc, BertStudioError) else {}
        self.ended.emit(RunFinished(status="failed", step=0, output_dir=self.config.output_dir, message=message))
