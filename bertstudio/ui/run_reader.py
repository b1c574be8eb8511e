"""The run folders' :class:`~bertstudio.train.rundir.RunInfo` for every page that lists runs,
without the GUI thread reading thousands of folders.

One reader per session (``session.run_reader``), so the Runs page, the Scoreboard and the
Playground share what was read: :class:`~bertstudio.train.rundir.RunInfoCache` keeps each run
while its files are unchanged, so a refresh of 2,000 finished runs costs their ``stat`` calls.
A run not yet read is read on the GUI thread only within a small budget (the first
``SYNC_FIRST`` of a list, then as long as ``SYNC_BUDGET_S`` lasts, and never one whose
history is past ``SYNC_HISTORY_BYTES``), so a project of a few
dozen runs lists them at once, exactly; the rest are read on a worker thread and stand in the
list as "reading" rows (``READING``) until :attr:`RunReader.read` tells the pages to list
them again. A running or interrupted run is read again at each refresh (its writer may have
ended), once per turn of the event loop and not in the refreshes ``read`` starts: the pages
refreshed together share one read, so they never set each other reading again.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from PySide6.QtCore import QObject, QTimer, Signal

from bertstudio.train.rundir import HISTORY, RunInfo, RunInfoCache
from bertstudio.ui.jobs import JobWorker

log = logging.getLogger(__name__)

READING = "reading"  # the status of a run still being read on the worker


def _history_size(folder: Path) -> int:
    try:
        return (folder / HISTORY).stat().st_size
    except OSError:
        return 0


class RunReader(QObject):
    read = Signal()  # runs read on the worker are in: list them again

    SYNC_FIRST = 8  # on a slow or busy disk a read took 24 ms: 32 of them held Open project 0.8 s
    SYNC_BUDGET_S = 0.05
    # a run whose history is larger is read on the worker, even among the first: read_run reads the
    # history whole (a 42 MB one, 200,000 logged steps, held Open project 0.56 s in one read)
    SYNC_HISTORY_BYTES = 1 << 20

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cache = RunInfoCache()
        self._queued: list[Path] = []  # waiting for the worker
        self._pending: set[Path] = set()  # queued or being read
        self._round = False  # set while ``read`` is emitted: the lists refresh from what was read
        self._asked_this_turn = False  # running runs were asked again in this turn of the event loop
        self._turn_scheduled = False
        self._listed: dict[str, tuple[Any, list[Path]]] = {}  # this turn's run lists (see :meth:`listed`)
        self._seen: dict[Path, RunInfo] = {}  # what this turn's lists were given: the next page asks no disk
        self._lock = threading.Lock()
        self._generation = 0  # close() moves it on: a batch still running then hands nothing out
        self._worker: JobWorker | None = None

    def infos(self, folders: Iterable[Path], *, background: bool = True) -> list[RunInfo]:
        """One RunInfo per folder, in order. With ``background`` (the default) a run that would
        cost the GUI thread past the budget is a ``READING`` row, read on the worker; without it
        every run is read here (for a short list, such as the runs that kept a model)."""
        if not self._round and not self._asked_this_turn:
            # a new refresh asks running runs' writers again, once: the lists refreshed by one signal
            # (runs_changed, project_opened) share what the first read, or the worker read meanwhile
            self.cache.forget_moment()
            self._asked_this_turn = True
            self._schedule_turn()
        out: list[RunInfo] = []
        started, read_here = time.monotonic(), 0
        for folder in folders:
            folder = Path(folder)
            info = self._seen.get(folder) if not self._round else None
            if info is not None:
                out.append(info)
                continue
            with self._lock:
                pending = folder in self._pending
            info = self.cache.get(folder)
            if info is None and pending and background:
                info = RunInfo(folder, status=READING)
            if info is None:
                if not background or ((read_here < self.SYNC_FIRST or time.monotonic() - started < self.SYNC_BUDGET_S)
                                      and _history_size(folder) <= self.SYNC_HISTORY_BYTES):
                    info = self.cache.read(folder)
                    read_here += 1
                else:
                    with self._lock:
                        self._queued.append(folder)
                        self._pending.add(folder)
                    info = RunInfo(folder, status=READING)
            if info.status != READING:
                self._seen[folder] = info
            out.append(info)
        self._schedule_turn()
        self._start()
        return out

    def listed(self, key: str, marker: Any, compute: Callable[[], list[Path]]) -> list[Path]:
        """``compute()``'s list of run folders, computed once per turn of the event loop while
        ``marker`` (the runs folder's stats) is unchanged: four pages listing the same 2,000 runs
        on one signal stat-ed each folder four times (1.2 s on a busy disk)."""
        kept = self._listed.get(key)
        if kept is not None and kept[0] == marker:
            return list(kept[1])
        runs = compute()
        self._listed[key] = (marker, runs)
        self._schedule_turn()
        return list(runs)

    def forget_lists(self) -> None:
        """Runs were added or removed in this turn (a run deleted, or put back by Undo, inside a job
        folder leaves the runs folder's stats as they were): the next lists are made again."""
        self._listed.clear()
        self._seen.clear()

    def _schedule_turn(self) -> None:
        if not self._turn_scheduled:
            self._turn_scheduled = True
            QTimer.singleShot(0, self._next_turn)

    def _next_turn(self) -> None:
        self._asked_this_turn = False
        self._turn_scheduled = False
        self._listed.clear()
        self._seen.clear()

    def reading(self) -> int:
        """How many runs the worker has still to read."""
        with self._lock:
            return len(self._pending)

    def _start(self) -> None:
        with self._lock:
            if not self._queued or (self._worker is not None and self._worker.is_running()):
                return
            batch, self._queued = self._queued, []
            generation = self._generation
        worker = JobWorker(self._read_batch(batch, generation), name="bertstudio-run-reader")
        worker.finished.connect(self._on_read)
        worker.failed.connect(lambda message: self._on_read(None, failed=message))
        worker.cancelled.connect(self._start)  # closed mid-read: what the next project queued starts now
        self._worker = worker
        worker.start()

    def _read_batch(self, batch: list[Path], generation: int) -> Callable[[Any, threading.Event], None]:
        def job(_progress: Any, cancel: threading.Event) -> None:
            for folder in batch:
                if cancel.is_set():
                    break
                try:
                    self.cache.read(folder)  # kept there, for the refreshes ``read`` starts
                except Exception as exc:  # noqa: BLE001 - read_run never raises for a folder's files; an OS error
                    log.warning("cannot read run %s: %s", folder, exc)
                with self._lock:
                    if generation != self._generation:
                        return
                    self._pending.discard(folder)
            with self._lock:  # a cancelled batch: its runs are read again when next asked
                if generation == self._generation:
                    self._pending.difference_update(batch)
        return job

    def _on_read(self, _result: Any = None, *, failed: str | None = None) -> None:
        if failed:
            log.warning("reading runs failed: %s", failed)
        self._start()  # what was queued meanwhile
        self._round = True
        try:
            self.read.emit()
        finally:
            self._round = False

    def close(self) -> None:
        """Stop the worker (the app quits, or the project closes): its runs are read again when asked."""
        with self._lock:
            self._generation += 1
            self._queued.clear()
            self._pending.clear()
        if self._worker is not None:
            self._worker.cancel()
