"""Crash-safe writes, the one helper for them: a reader sees the old file (or folder)
or the new one, never a mix.

The recipe is the one SQLite and git use on POSIX: write a temporary file in the
same folder (so the rename cannot cross file systems), flush and ``fsync`` it,
``os.replace`` it over the target (atomic on POSIX and Windows), then ``fsync``
the folder so the rename itself survives a power cut. A folder (a saved model, a
checkpoint) is filled under a temporary name and swapped in with two renames
(:func:`replace_folder`).
"""

from __future__ import annotations

import os
import shutil
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


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[BinaryIO], None], *, parents: bool = False) -> None:
    """Write ``path`` atomically, ``write`` filling the open binary file; ``parents``: create
    missing folders above it first (an export into a new folder)."""
    path = Path(path)
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
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


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, parents: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically and durably."""
    atomic_write_with(path, lambda f: f.write(data), parents=parents)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically and durably."""
    atomic_write_bytes(path, text.encode("utf-8"))


def swap_names(folder: Path) -> tuple[Path, Path]:
    """(temporary, old) names :func:`replace_folder` uses next to ``folder``; a crash between
    its two renames leaves only the old one, which readers may fall back to."""
    return (folder.with_name(f".{folder.name}.{os.getpid()}.tmp"), folder.with_name(f".{folder.name}.{os.getpid()}.old"))


def replace_folder(folder: str | os.PathLike[str], fill: Callable[[Path], None]) -> Path:
    """Replace ``folder`` with a new one that ``fill(tmp)`` writes into an empty temporary
    folder beside it. On any error in ``fill`` the old folder is untouched and the
    temporary one removed; otherwise the old folder is renamed away, the new one renamed
    in, and the old one deleted."""
    folder = Path(folder)
    tmp, old = swap_names(folder)
    shutil.rmtree(tmp, ignore_errors=True)  # left over by a crash of a process with this pid
    try:
        tmp.mkdir(parents=True)
        fill(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if folder.exists():
        shutil.rmtree(old, ignore_errors=True)
        os.replace(folder, old)
    os.replace(tmp, folder)
    shutil.rmtree(old, ignore_errors=True)
    fsync_dir(folder.parent)
    return folder
