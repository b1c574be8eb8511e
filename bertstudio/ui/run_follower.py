"""Follow a run folder live as its history.jsonl grows.

A run started elsewhere (the CLI, a GPU server with a synced folder) writes
``history.jsonl`` one event per line. :class:`RunFollower` watches the file
with a QFileSystemWatcher (plus a slow QTimer, since watchers miss changes on
network drives and some editors replace files), reads only the bytes after
the last complete line it saw, and emits the same event objects and signals the
training worker does, so the same monitor shows it. A long backlog (a finished run
of 200,000 steps picked) is read and parsed on a worker and emitted a few thousand
events per turn of the event loop; a follower stopped meanwhile emits none of it. A run trained on this machine
whose process is gone (killed, crashed: its history has no end and nobody holds
the run folder's lock) ends as "interrupted" instead of being followed for ever.
A history replaced by another file (an ``--overwrite`` re-run, an rsync or ``cp -r`` of
another run into the folder: another inode, or other first bytes) is read again from
its start as a new run; a folder removed or renamed away ends the following with ``gone``.
Reading the run folder itself is :mod:`bertstudio.train.rundir`'s.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from bertstudio.data import atomic
from bertstudio.train.events import Evaluated, RunFinished, RunStarted, StepLogged
from bertstudio.train.rundir import (HISTORY, MAX_RUN_FILE_BYTES, interrupted_message, parse_history, started_here,
                                     writer_active)

log = logging.getLogger(__name__)


CHUNK_BYTES = 1 << 20  # history read per turn of the event loop: about 5,000 lines, tens of milliseconds
HEAD_BYTES = 4096  # the start of the history kept to tell the same file from another: its RunStarted line
# more new history than this (a long run picked on the Runs page: 42 MB, 200,000 steps) is read and parsed
# on a worker, then handed to the plots EMIT_EVENTS at a time: read a chunk per turn on the GUI thread, it
# held the window 0.3-1.2 s at the pick and ~6 s in all
BACKLOG_BYTES = 4 * CHUNK_BYTES
EMIT_EVENTS = 2500


class RunFollower(QObject):
    """Emits a run's history events as history.jsonl grows (the training worker's signals)."""

    started = Signal(object)  # RunStarted
    resumed = Signal(object)  # RunStarted: a later start in the same history (the run was resumed)
    step_logged = Signal(list)  # StepLogged events
    evaluated = Signal(object)  # Evaluated
    ended = Signal(object)  # RunFinished
    replaced = Signal()  # the history is another run's now (re-run, copied or synced over): read from its start
    gone = Signal()  # the run folder is no longer there (removed, or renamed outside bertstudio): following ended

    def __init__(self, folder: str | os.PathLike[str], *, poll_ms: int = 1000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = Path(folder)
        self.path = self.folder / HISTORY
        self._offset = 0
        self._partial = b""
        self._identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the history being read
        self._seen: tuple[int, int, int, int] | None = None  # that file (device, inode, size, mtime) when last read
        self._head = b""  # its first bytes read (up to HEAD_BYTES): an append never changes them
        self._too_big = False
        self._stopped = False  # stop() or gone: a read queued before it emits nothing
        self.events_read = 0
        self._local = False  # the run trains on this machine, so its lock tells whether it still lives
        self._open = False  # started and not ended
        self._step = 0
        self._starts = 0  # RunStarted events read: a second one resumes the run
        self._backlog_job: Any = None  # the JobWorker reading a long backlog; nothing else is read meanwhile
        self._backlog: list[Any] = []  # its events not yet emitted
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_changed)
        self._watcher.directoryChanged.connect(self._on_changed)
        # The fallback poll: watchers miss writes on network file systems.
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self.poll)

    def start(self) -> None:
        self._stopped = False
        self._watch_file()
        self._timer.start()
        self.poll()

    def stop(self) -> None:
        self._stopped = True
        self._timer.stop()
        if self._backlog_job is not None:  # its events are another run's for the page now: dropped
            self._backlog_job.cancel()
            self._backlog_job = None
        self._backlog = []
        paths = self._watcher.files() + self._watcher.directories()
        if paths:
            self._watcher.removePaths(paths)

    def is_following(self) -> bool:
        return self._timer.isActive()

    def _watch_file(self) -> None:
        if atomic.WINDOWS:  # a watched folder is held open there (no rename, removal or --overwrite): the poll reads it
            return
        if self.folder.is_dir() and str(self.folder) not in self._watcher.directories():
            self._watcher.addPath(str(self.folder))  # a folder replaced (rm -r and cp -r) drops its watch
        if self.path.is_file() and str(self.path) not in self._watcher.files():
            self._watcher.addPath(str(self.path))

    def _on_changed(self, _path: str) -> None:
        self._watch_file()  # re-add: some writers replace the file, which drops the watch
        self.poll()

    def poll(self) -> None:
        """Read the complete lines appended since the last call and emit their events (a long
        history a chunk at a time, the rest right after: the GUI thread is never held for the
        whole file); end a local run whose process is gone."""
        if self._stopped:  # a read queued before stop(): its page may follow another run now
            return
        if self._backlog_job is not None or self._backlog:  # a backlog read or being shown: it polls at its end
            return
        if not self.folder.is_dir():
            self._on_gone()
            return
        if self._read():
            QTimer.singleShot(0, self, self.poll)
            return
        if self._backlog_job is not None:  # _read handed a long backlog to a worker: the end is told after it
            return
        if self._open and self._local and writer_active(self.folder) is False:
            if self._read():  # a run that ended writes its last line before it lets go of the lock
                QTimer.singleShot(0, self, self.poll)
                return
            if self._open and writer_active(self.folder) is False:  # (a resume may have started meanwhile)
                self._open = False
                self.ended.emit(RunFinished("interrupted", self._step, message=interrupted_message(self.folder)))

    def _on_gone(self) -> None:
        """The folder went away (an --overwrite re-run keeps it, and its history comes back)."""
        self._open = False
        self.stop()
        self.gone.emit()

    def _read(self) -> bool:
        """Read and emit at most CHUNK_BYTES of new lines; whether more is waiting."""
        try:
            first = self.path.stat()
        except OSError:
            return False
        size = first.st_size
        if not stat.S_ISREG(first.st_mode):  # a FIFO would hold the GUI thread in open()
            return False
        if self._offset and self._seen == (first.st_dev, first.st_ino, size, first.st_mtime_ns) and size == self._offset:
            return False  # the same file, unchanged since it was read to its end: not opened every poll
        if size > MAX_RUN_FILE_BYTES:  # as rundir's readers: a 1.5 GB (sparse) history took 5 GB and 11 s here
            if not self._too_big:
                self._too_big = True
                log.warning("%s is %s bytes, more than a run writes: not followed", self.path, f"{size:,}")
            return False
        try:
            with open(self.path, "rb") as fh:
                st = os.fstat(fh.fileno())  # the file opened, whatever was renamed into place since the stat
                size = st.st_size
                if self._offset and ((st.st_dev, st.st_ino) != self._identity or size < self._offset
                                     or fh.read(len(self._head)) != self._head):
                    self._restart()  # another file: read from byte 0, not from the old one's offset mid-line
                self._identity = (st.st_dev, st.st_ino)
                self._seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
                if size == self._offset:
                    return False
                if size - self._offset > BACKLOG_BYTES:
                    self._read_backlog(size)
                    return False
                fh.seek(self._offset)
                chunk = fh.read(min(size - self._offset, CHUNK_BYTES))
        except OSError as exc:
            log.warning("cannot read %s: %s", self.path, exc)
            return False
        if self._offset < HEAD_BYTES:
            self._head += chunk[: HEAD_BYTES - self._offset]
        self._offset += len(chunk)
        data = self._partial + chunk
        cut = data.rfind(b"\n")
        if cut < 0:  # the writer is mid-line; wait for the newline
            self._partial = data
            return self._offset < size
        self._partial = data[cut + 1 :]
        self._emit(parse_history(data[:cut].decode("utf-8", errors="replace").split("\n")))
        return self._offset < size

    def _read_backlog(self, size: int) -> None:
        """Read and parse the history from the offset to ``size`` on a worker (plain values cross back)."""
        from bertstudio.ui.jobs import JobWorker

        path, offset, partial = self.path, self._offset, self._partial

        def job(_progress: Any, _cancel: Any) -> tuple[int, bytes, bytes, list[Any]]:
            with open(path, "rb") as fh:
                fh.seek(offset)
                chunk = fh.read(size - offset)
            data = partial + chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                return len(chunk), chunk[: max(0, HEAD_BYTES - offset)], data, []
            events = parse_history(data[:cut].decode("utf-8", errors="replace").split("\n"))
            return len(chunk), chunk[: max(0, HEAD_BYTES - offset)], data[cut + 1 :], events

        worker = JobWorker(job, name="bertstudio-history-read")
        worker.finished.connect(lambda result, w=worker: self._on_backlog_read(w, result))
        worker.failed.connect(lambda message, w=worker: self._on_backlog_failed(w, message))
        worker.cancelled.connect(lambda w=worker: self._on_backlog_failed(w, ""))
        self._backlog_job = worker
        worker.start()

    def _on_backlog_read(self, worker: Any, result: tuple[int, bytes, bytes, list[Any]]) -> None:
        if worker is not self._backlog_job or self._stopped:  # stopped (another run picked): not shown
            return
        self._backlog_job = None
        read, head, self._partial, events = result
        if self._offset < HEAD_BYTES:
            self._head += head
        self._offset += read
        self._backlog = events
        self._emit_backlog()

    def _on_backlog_failed(self, worker: Any, message: str) -> None:
        if worker is not self._backlog_job:
            return
        self._backlog_job = None
        if message:
            log.warning("cannot read %s: %s", self.path, message)

    def _emit_backlog(self) -> None:
        """The events read on the worker, EMIT_EVENTS per turn of the event loop (the plots' appends),
        then what was appended meanwhile."""
        if self._stopped:
            return
        part, self._backlog = self._backlog[:EMIT_EVENTS], self._backlog[EMIT_EVENTS:]
        self._emit(part)
        QTimer.singleShot(0, self, self._emit_backlog if self._backlog else self.poll)

    def _restart(self) -> None:
        """The history was truncated or replaced (an --overwrite re-run, another run copied or synced
        into the folder): a new run, read from its start; its first RunStarted is emitted as ``started``
        (the monitor resets its curves), not as a resume of the old one."""
        self._offset, self._partial, self._head = 0, b"", b""
        self._starts, self._step, self._open = 0, 0, False
        self.replaced.emit()

    def _emit(self, events: list[Any]) -> None:
        steps: list[StepLogged] = []
        for ev in events:
            self.events_read += 1
            if isinstance(ev, StepLogged):
                steps.append(ev)
                self._step = ev.step
                continue
            if isinstance(ev, RunStarted):
                self._local, self._open = started_here(ev), True
                self._starts += 1
            elif isinstance(ev, RunFinished):
                self._open = False
            if steps:  # keep the order: steps before the eval that follows them
                self.step_logged.emit(steps)
                steps = []
            signal = {RunStarted: self.started if self._starts == 1 else self.resumed, Evaluated: self.evaluated,
                      RunFinished: self.ended}.get(type(ev))
            if signal is not None:
                signal.emit(ev)
        if steps:
            self.step_logged.emit(steps)
