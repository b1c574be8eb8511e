"""Test helper: the Windows file rules the code runs into, on Linux.

No Windows CI here, so the few rules that differ are copied onto the ``os`` functions the
code calls (the same rules as the portability sweep's simulator):

- ``os.fsync`` of a read-only descriptor of a file fails with EBADF: Windows' ``_commit`` is
  ``FlushFileBuffers``, which needs write access to the handle;
- ``os.replace`` onto an existing folder fails with WinError 5 (``MoveFileEx`` never replaces
  a folder), and ``os.rename`` onto anything that exists fails with WinError 183;
- a file named in ``busy`` (held open by this or another process) cannot be renamed (WinError 32,
  a sharing violation), and a folder that holds one cannot be renamed either, which Windows
  says as WinError 5, "Access is denied" (beeware/briefcase#1780); a folder itself in ``busy``
  (a console's current folder) gives 32.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

import pytest


def windows_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.fsync`` refuses a read-only descriptor of a regular file, as Windows does."""
    real = os.fsync

    def fsync(fd: int) -> None:
        if hasattr(fd, "fileno"):
            fd = fd.fileno()
        if (fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE) == os.O_RDONLY and stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EBADF, "Bad file descriptor")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def windows_renames(monkeypatch: pytest.MonkeyPatch, busy: "list[Path] | None" = None) -> None:
    """``os.replace`` and ``os.rename`` follow Windows' rules (see the module); ``busy``: files
    held open elsewhere (the list may be changed while the patch is in place)."""
    real_replace, real_rename = os.replace, os.rename
    held = busy if busy is not None else []

    def check(src: "str | os.PathLike[str]", dst: "str | os.PathLike[str]") -> None:
        if os.path.isdir(dst) and not os.path.islink(dst):
            exc = PermissionError(errno.EACCES, "[WinError 5] Access is denied", os.fspath(src), None, os.fspath(dst))
            exc.winerror = 5  # type: ignore[attr-defined]
            raise exc
        source = Path(src).absolute()
        for path in held:
            path = Path(path).absolute()
            if path == source:
                exc = PermissionError(errno.EACCES, "[WinError 32] The process cannot access the file because it "
                                      "is being used by another process", os.fspath(src), None, os.fspath(dst))
                exc.winerror = 32  # type: ignore[attr-defined]  # set by Windows' OSError itself
                raise exc
            if source in path.parents:  # a folder holding an open file
                exc = PermissionError(errno.EACCES, "[WinError 5] Access is denied", os.fspath(src), None,
                                      os.fspath(dst))
                exc.winerror = 5  # type: ignore[attr-defined]
                raise exc

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        check(src, dst)
        return real_replace(src, dst, *args, **kwargs)

    def rename(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "[WinError 183] Cannot create a file when that file already exists",
                                  os.fspath(src), None, os.fspath(dst))
        check(src, dst)
        return real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "rename", rename)


def windows_locks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's locks as on Windows: no folder can be locked (``lock_folder`` is None there),
    a writer's lock on a file is exclusive per open handle (``msvcrt.locking``), and a reader's
    probe a shared one (``LockFileEx``), which flock copies."""
    from bertstudio.data import atomic, project_lock
    from bertstudio.train import rundir

    def lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    monkeypatch.setattr(project_lock, "lock_folder", lambda folder, *, shared=False: None)
    monkeypatch.setattr(rundir, "lock_folder", lambda folder, *, shared=False: None, raising=False)  # (older code)
    monkeypatch.setattr(atomic, "WINDOWS", True)  # the one flag the lock kind and the rename read
    monkeypatch.setattr(project_lock, "_lock_fd", lock, raising=False)
    monkeypatch.setattr(project_lock, "_unlock_fd", lambda fd: fcntl.flock(fd, fcntl.LOCK_UN), raising=False)

    def probe(fd: int) -> bool:  # LockFileEx's shared lock, tried once
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False

    monkeypatch.setattr(project_lock, "_held_by_another", probe, raising=False)
