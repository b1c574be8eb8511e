"""One writer per project: an OS lock on ``project.lock`` while a Project is open.

Two bertstudio windows appending to the same journal would interleave sequence
numbers and lose edits, so the second one is refused with a message. The lock is
the operating system's (``flock`` / ``msvcrt.locking``), so it disappears with
the process: a crash or SIGKILL never leaves a stale lock behind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from bertstudio.errors import DataError

LOCK_FILE = "project.lock"


class ProjectLock:
    def __init__(self, path: Path, handle: IO[bytes]) -> None:
        self.path = path
        self._handle: IO[bytes] | None = handle

    @classmethod
    def acquire(cls, folder: Path) -> "ProjectLock":
        path = folder / LOCK_FILE
        if not folder.is_dir():
            raise DataError("this folder is not a bertstudio project", path=folder / "project.json",
                            expected="a folder with project.json")
        handle = open(path, "a+b")
        try:
            _lock(handle)
        except OSError:
            handle.seek(0)
            holder = handle.read().decode("ascii", "replace").strip() or "another process"
            handle.close()
            raise DataError(f"the project is already open ({holder})", path=folder,
                            expected="close it in the other bertstudio window first") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}".encode("ascii"))
        handle.flush()
        return cls(path, handle)

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the file drops the OS lock
            self._handle = None


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _lock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
