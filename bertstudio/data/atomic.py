"""Crash-safe file writes: a reader sees the old file or the new one, never a mix.

The recipe is the one SQLite and git use on POSIX: write a temporary file in the
same folder (so the rename cannot cross file systems), flush and ``fsync`` it,
``os.replace`` it over the target (atomic on POSIX and Windows), then ``fsync``
the folder so the rename itself survives a power cut.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO, Callable


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make renames and new files in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(os.fspath(folder), os.O_RDONLY)
    except OSError:  # Windows cannot open a folder; NTFS journals the rename itself
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def fsync_file(path: str | os.PathLike[str]) -> None:
    """Flush a file that another library (pyarrow) wrote and closed to the disk."""
    fd = os.open(os.fspath(path), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(path: Path) -> Path:
    """A temporary name next to ``path``; the pid keeps two writers from sharing it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` atomically, ``write`` filling the open binary file."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically and durably."""
    atomic_write_with(path, lambda f: f.write(data))
