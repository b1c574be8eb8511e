"""One writer per project: an OS lock held on the project folder itself while a Project is open.

Two bertstudio processes appending to the same journal would interleave sequence
numbers and lose edits, so the second one is refused with a message.

A project opened read-only (read-only storage, or the person chose to) takes the
lock *shared*: any number of read-only viewers at once, since none of them writes.
A writer and a viewer exclude each other, each refused with a message that says
which kind holds it: a viewer reads the split files lazily and would find files a
writer's compaction replaced or removed under it, so a writer is refused while a
viewer holds the project, and a viewer while a writer does. The refusal names the
holder's pid (from ``project.lock``, which only a writer writes) only when the holder
is a writer and that process is alive; otherwise it says "another bertstudio window".

What is locked matters. A lock on ``project.lock`` alone is bypassed by deleting
that file: the next process creates a new file (a new inode) and locks it
happily. ``project.json`` is no better, since every write replaces it by a rename.
So on POSIX the lock is a ``flock`` on a descriptor of the project *folder*: the
folder's inode stays the same for as long as the project exists, and nothing
inside it can be deleted or replaced to get around the lock. ``project.lock`` is
still written (with the holder's pid, for the message) and locked too, so an
older bertstudio that only knows that file is kept out as well.

On Windows a folder cannot be opened as a file; there the lock is the byte-range
lock on ``project.lock``, and Windows refuses to delete a file that another
process holds open, so the bypass does not exist there. A POSIX file system that
cannot flock a folder (some network shares) falls back to ``project.lock`` alone.

The locks are the operating system's, so they disappear with the process: a
crash or SIGKILL never leaves a stale lock behind. A training holds the same
folder lock on its run folder (:mod:`bertstudio.train.rundir`), which is how a
reader tells a run still training from one whose process is gone; on Windows that
lock is a byte-range lock on the run folder's ``.writer.lock`` (:func:`lock_run_folder`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO

from bertstudio.data import atomic
from bertstudio.data.regular_file import read_regular_file
from bertstudio.errors import DataError

LOCK_FILE = "project.lock"


def _refused(folder: Path, path: Path, *, wanted_shared: bool, holder: str) -> DataError:
    """The refusal of an open, in words that say who holds the project: ``holder`` is "writer",
    "read_only" (viewers hold it shared) or "unknown". ``facts`` carry the same for an interface
    (``refusal: open_elsewhere``, ``holder``, ``pid``: the live writer's, else None)."""
    pid = _live_pid(path) if holder != "read_only" else None
    if holder == "read_only":
        problem = "the project is already open read-only in another bertstudio window"
        expected = "close it there first, or open it read-only here too"
    else:
        problem = f"the project is already open (pid {pid})" if pid else \
            "the project is already open in another bertstudio window"
        expected = ("close it in the other bertstudio window first (a read-only view waits too: "
                    "the files it reads change while the project is edited)") if wanted_shared else \
            "close it in the other bertstudio window first"
    return DataError(problem, path=folder, expected=expected,
                     facts={"refusal": "open_elsewhere", "holder": holder, "pid": pid})


def _live_pid(path: Path) -> int | None:
    """The pid ``project.lock`` names, when that process is alive now; None otherwise. The file
    keeps the last writer's pid after it has gone (a read-only medium can never be rewritten), and
    naming a dead process sent people looking for a window that does not exist."""
    try:  # through the one reader of plain files: a project.lock that is a FIFO blocked this forever
        raw = read_regular_file(path, missing_ok=True, head=100) or b""
    except DataError:
        return None
    words = raw[:100].decode("ascii", "replace").split()
    if len(words) != 2 or words[0] != "pid" or not words[1].isdigit():
        return None
    pid = int(words[1])
    if not 0 < pid <= _MAX_PID:  # no process has it; psutil raised OverflowError past a C long
        return None
    return pid if _alive(pid) else None


# The largest pid any process can have: a C int's (Linux stops at 2**22, Windows pids are DWORDs
# but far below this); a bigger number in project.lock names no process.
_MAX_PID = 2**31 - 1


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        import psutil  # accelerate's dependency; never os.kill on Windows, where it ends the process

        return bool(psutil.pid_exists(pid))
    except ImportError:
        pass
    except (OverflowError, ValueError):  # a number no process can have
        return False
    if atomic.WINDOWS:
        return False  # cannot be told: the pid is left unnamed
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    except OSError:  # EPERM: it exists, another user's
        return True
    return True


def _folder_holder(folder: Path) -> str:
    """Who holds ``folder``'s lock, asked after an exclusive lock was refused: a shared lock had
    at once means only read-only viewers hold it (let go at once)."""
    try:
        fd = lock_folder(folder, shared=True)
    except OSError:
        return "unknown"
    if fd is None:
        return "unknown"
    if fd == -1:
        return "writer"
    unlock_folder(fd)
    return "read_only"


class ProjectLock:
    def __init__(self, path: Path, handle: IO[bytes] | None, folder_fd: int | None, *, shared: bool = False) -> None:
        self.path = path
        self.shared = shared  # a read-only viewer's lock
        self._handle = handle
        self._folder_fd = folder_fd

    @classmethod
    def acquire(cls, folder: Path, *, shared: bool = False) -> "ProjectLock":
        """Lock ``folder`` for a writer, or ``shared`` for a read-only viewer (which writes nothing,
        not even its pid). Raises DataError when it cannot be had (see the module's note)."""
        path = folder / LOCK_FILE
        if not folder.is_dir():
            raise DataError("this folder is not a bertstudio project", path=folder / "project.json",
                            expected="a folder with project.json")
        if os.path.islink(path):  # a project.lock linked to a file of the user's was truncated and written
            raise DataError("is a symbolic link; a project's lock file is its own", path=path,
                            expected="a project folder copied without links")
        try:
            folder_fd = lock_folder(folder, shared=shared)
        except OSError as exc:
            raise DataError(f"the project folder cannot be opened ({exc.strerror or exc})", path=folder,
                            expected="a folder you may read") from None
        if folder_fd == -1:
            holder = "writer" if shared else _folder_holder(folder)
            raise _refused(folder, path, wanted_shared=shared, holder=holder)
        handle = _open_lock_file(path, shared=shared, must=folder_fd is None)
        if handle is not None:
            try:
                _lock(handle, shared=shared)
            except OSError:
                holder = "writer" if shared else _file_holder(handle)
                handle.close()
                unlock_folder(folder_fd)
                raise _refused(folder, path, wanted_shared=shared, holder=holder) from None
            if not shared:
                try:
                    handle.seek(0)
                    handle.truncate()
                    handle.write(f"pid {os.getpid()}".encode("ascii"))
                    handle.flush()
                except OSError:  # the pid is for the message only
                    pass
        return cls(path, handle, folder_fd, shared=shared)

    def release(self) -> None:
        if self._handle is not None:
            if not self.shared:  # our pid goes with us: a later refusal never names this process
                try:
                    self._handle.truncate(0)
                except OSError:
                    pass
            self._handle.close()  # closing the file drops the OS lock
            self._handle = None
        unlock_folder(self._folder_fd)
        self._folder_fd = None


def _open_lock_file(path: Path, *, shared: bool, must: bool) -> IO[bytes] | None:
    """``project.lock`` opened to lock (never through a link: O_NOFOLLOW; refused above); None where
    it cannot be, and the folder lock alone keeps the others out. ``must``: this file is the lock
    (Windows, or no folder locks), so a writer that cannot open it is refused. A viewer opens it for
    reading and never makes it; where it has none to lock, nothing in that folder can be written.
    Opened without blocking (a viewer's open of a FIFO waited forever for a writer to it), and
    only a regular file is kept: anything else is left alone, as a file that cannot be opened."""
    nofollow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    if shared:
        try:
            return _regular(os.open(path, os.O_RDONLY | nofollow), "rb")
        except OSError:
            return None
    try:
        return _regular(os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | nofollow, 0o666), "a+b")
    except OSError as exc:
        if must:
            raise DataError(f"the project cannot be locked ({exc.strerror or exc})", path=path,
                            expected="write access to the project folder, with project.lock a plain file") from None
        return None  # a read-only folder: the folder lock alone keeps other writers out


def _regular(fd: int, mode: str) -> IO[bytes]:
    """``fd`` as a file object when it is a regular file; closed, and OSError, when it is not."""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "project.lock is not a plain file")
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, mode)


def unlock_folder(fd: int | None) -> None:
    """Drop a lock :func:`lock_folder` or :func:`lock_run_folder` took (None or -1: nothing to drop)."""
    if fd is not None and fd >= 0:
        path = _RUN_LOCKS.pop(fd, None)  # (Windows) a run folder's lock file
        if path is not None:
            try:
                _unlock_fd(fd)
            except OSError:
                pass
        os.close(fd)  # the last descriptor of the folder closed: its flock is gone
        if path is not None:
            try:
                os.unlink(path)
            except OSError:  # another process has it open (its own lock, or a probe): it stays
                pass


# A run folder's lock file on Windows (see lock_run_folder); a name no run writes otherwise.
RUN_LOCK_FILE = ".writer.lock"


def lock_run_folder(folder: Path, *, shared: bool = False) -> int | None:
    """The writer lock of a run folder, as :func:`lock_folder` returns it (a descriptor to give
    :func:`unlock_folder`, -1 while another holds it, None where it cannot be had). On POSIX the
    folder's flock; on Windows, where a folder cannot be opened, a byte-range lock on the folder's
    ``.writer.lock``, held open for the whole run: Windows refuses to delete a file another
    process holds open, so the lock cannot be bypassed (the argument for project.lock), and it
    dies with the process, so a killed run reads as interrupted there too. ``shared`` is
    exclusive on Windows (msvcrt has no shared locks): a reader asks :func:`run_folder_locked`."""
    if not atomic.WINDOWS:
        return lock_folder(folder, shared=shared)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0)
    fd = os.open(folder / RUN_LOCK_FILE, flags, 0o666)  # OSError: the folder cannot be written (or is gone)
    try:
        _lock_fd(fd)
    except OSError:
        os.close(fd)
        return -1
    _RUN_LOCKS[fd] = folder / RUN_LOCK_FILE
    return fd


# Windows: the lock files of the run folders this process holds, removed when let go (Windows
# refuses to remove one another process has open, so a lock taken meanwhile is never lost), so a
# run folder holds no file of the lock once its run has ended.
_RUN_LOCKS: dict[int, Path] = {}


def run_folder_locked(folder: Path) -> bool | None:
    """Whether a process holds ``folder``'s run writer lock now: True, False, or None where it
    cannot be told (no folder locks here, or the folder cannot be opened). The probe takes a
    shared lock for a moment, so two readers never see each other as writers, and tries once:
    it runs on the GUI thread, and never waits. On Windows it never creates the lock file (none:
    no writer ever held it)."""
    if not atomic.WINDOWS:
        try:
            fd = lock_folder(folder, shared=True)
        except OSError:
            return None
        if fd is None:
            return None
        unlock_folder(fd)
        return fd == -1
    try:
        fd = os.open(folder / RUN_LOCK_FILE, os.O_RDWR | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0))
    except FileNotFoundError:
        return False if folder.is_dir() else None
    except OSError:
        return None
    try:
        return _held_by_another(fd)
    finally:
        os.close(fd)


def _held_by_another(fd: int) -> bool | None:
    """Windows: whether another handle holds the exclusive lock :func:`_lock_fd` takes, by one try
    at a shared lock on the same byte, let go at once (msvcrt has only exclusive locks, which made
    two readers' probes refuse each other: LockFileEx without LOCKFILE_EXCLUSIVE_LOCK). None
    where it cannot be told."""
    try:
        import ctypes
        import msvcrt  # type: ignore[import-not-found,unused-ignore]
        from ctypes import wintypes

        class Overlapped(ctypes.Structure):  # OVERLAPPED: the offset of the range, byte 0
            _fields_ = [("Internal", ctypes.c_size_t), ("InternalHigh", ctypes.c_size_t),
                        ("Offset", wintypes.DWORD), ("OffsetHigh", wintypes.DWORD), ("hEvent", wintypes.HANDLE)]

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
        handle = wintypes.HANDLE(msvcrt.get_osfhandle(fd))  # type: ignore[attr-defined,unused-ignore]
        where = Overlapped()
        fail_immediately = 0x1  # LOCKFILE_FAIL_IMMEDIATELY, and no LOCKFILE_EXCLUSIVE_LOCK: shared
        if not kernel32.LockFileEx(handle, fail_immediately, 0, 1, 0, ctypes.byref(where)):
            lock_violation = 33  # ERROR_LOCK_VIOLATION: an exclusive lock is held
            return True if ctypes.get_last_error() == lock_violation else None  # type: ignore[attr-defined,unused-ignore]
        kernel32.UnlockFileEx(handle, 0, 1, 0, ctypes.byref(where))
        return False
    except (ImportError, AttributeError, OSError, ValueError):
        return None


def _lock_fd(fd: int) -> None:
    import msvcrt  # type: ignore[import-not-found,unused-ignore]

    os.lseek(fd, 0, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]


def _unlock_fd(fd: int) -> None:
    """Let go of :func:`_lock_fd`'s lock before the descriptor closes: Windows frees a lock left
    on a closed handle only "when resources allow", and the next writer was refused meanwhile."""
    import msvcrt  # type: ignore[import-not-found,unused-ignore]

    os.lseek(fd, 0, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined,unused-ignore]


if atomic.WINDOWS:  # pragma: no cover - exercised on Windows only
    def lock_folder(folder: Path, *, shared: bool = False) -> int | None:
        return None  # folders cannot be opened as files; project.lock cannot be deleted while open

    def _lock(handle: IO[bytes], *, shared: bool = False) -> None:
        # the one msvcrt lock call (byte 0, non-blocking); msvcrt has no shared locks, so on Windows
        # two read-only viewers still refuse each other (told as "already open")
        _lock_fd(handle.fileno())

    def _file_holder(handle: IO[bytes]) -> str:
        return "unknown"

else:
    import fcntl

    def lock_folder(folder: Path, *, shared: bool = False) -> int | None:
        """A descriptor of ``folder`` holding an exclusive (or ``shared``) flock; -1 when another
        descriptor holds one that conflicts (another process, or another open of this one);
        None when the file system cannot lock folders. Raises OSError when the folder cannot be opened."""
        flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
        fd = os.open(folder, flags)  # O_CLOEXEC by default: a started program does not inherit it
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return -1
            return None  # a file system without flock on folders (some network shares): project.lock alone
        return fd

    def _lock(handle: IO[bytes], *, shared: bool = False) -> None:
        fcntl.flock(handle.fileno(), (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)

    def _file_holder(handle: IO[bytes]) -> str:
        """Who holds ``project.lock`` (no folder locks here), as :func:`_folder_holder` asks. Our
        own handle closes right after, which lets the shared lock go."""
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return "writer"
        return "read_only"
