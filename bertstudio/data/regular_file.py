"""Reading files that must be plain files on disk, the one helper for it.

A FIFO, socket or device is refused *before* it is opened for reading: opening a
FIFO without a writer blocks forever (the GUI froze on a project.json that was a
named pipe), and ``/dev/zero`` never ends. Readers of user data (the import
formats) and of project files (``project.json``, the journal, the Arrow data files)
all go through here, so the refusal reads the same everywhere: a DataError naming
the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Literal, overload

from bertstudio.errors import DataError

_EXPECTED = "a plain file on disk (pipes and devices are not read)"


def file_type(mode: int) -> str:
    """What a non-regular ``st_mode`` is, in words."""
    for test, name in ((stat.S_ISFIFO, "a FIFO / named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a plain file"


def check_regular_file(path: str | os.PathLike[str]) -> os.stat_result:
    """The ``stat`` of ``path`` (links followed) after checking it is a regular file.

    For readers that hand the path to a library (pyarrow's memory map): call it
    right before, since nothing can be checked once the library has opened it.
    """
    st = _stat_regular(Path(path))
    if st is None:
        raise DataError("file not found", path=path)
    return st


def regular_file_exists(path: str | os.PathLike[str]) -> bool:
    """False when nothing is at ``path``; True for a regular file (links followed); DataError for
    anything else (a FIFO, a device, a folder), so a reader refuses it by name before opening it."""
    return _stat_regular(Path(path)) is not None


def _stat_regular(p: Path) -> os.stat_result | None:
    """The ``stat`` of a regular file, None when there is none (a dangling link counts as none)."""
    try:
        st = os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", path=p) from None
    if stat.S_ISDIR(st.st_mode):
        raise DataError("is a folder, not a file", path=p)
    if not stat.S_ISREG(st.st_mode):
        raise DataError(f"not a regular file ({file_type(st.st_mode)})", path=p, expected=_EXPECTED)
    return st


@overload
def read_regular_file(path: str | os.PathLike[str], *, missing_ok: Literal[False] = False,
                      max_bytes: int | None = None, head: int | None = None) -> bytes: ...
@overload
def read_regular_file(path: str | os.PathLike[str], *, missing_ok: bool, max_bytes: int | None = None,
                      head: int | None = None) -> bytes | None: ...


def read_regular_file(path: str | os.PathLike[str], *, missing_ok: bool = False,
                      max_bytes: int | None = None, head: int | None = None) -> bytes | None:
    """All bytes of a regular file (None for a missing one when ``missing_ok``).

    Checked before opening, then again on the opened descriptor (opened without
    blocking) in case the path was swapped in between. ``max_bytes``: a bigger file is
    refused from its size, before anything is read (a sparse 2 GB run file took 15 s
    and 4 GB to read). ``head``: only the first ``head`` bytes (a preview).
    """
    p = Path(path)
    st = _stat_regular(p)
    if st is None:
        if missing_ok:
            return None
        raise DataError("file not found", path=p)
    if max_bytes is not None and st.st_size > max_bytes:
        raise DataError(f"the file is {st.st_size:,} bytes", path=p, expected=f"at most {max_bytes:,} bytes for this file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise DataError("file not found", path=p) from None
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", path=p) from None
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fh.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise DataError(f"not a regular file ({file_type(mode)})", path=p, expected=_EXPECTED)
        try:
            limits = [n for n in (head, None if max_bytes is None else max_bytes + 1) if n is not None]
            return fh.read(min(limits) if limits else -1)
        except OSError as exc:
            raise DataError(f"cannot read file: {exc.strerror or exc}", path=p) from None


def read_regular_text(path: str | os.PathLike[str], *, missing_ok: bool = False,
                      max_bytes: int | None = None) -> str | None:
    """:func:`read_regular_file` decoded as UTF-8; a file that is not UTF-8 is a DataError."""
    raw = read_regular_file(path, missing_ok=missing_ok, max_bytes=max_bytes)
    if raw is None:
        return None
    if max_bytes is not None and len(raw) > max_bytes:  # grown since it was measured
        raise DataError("the file grew while it was read", path=path, expected=f"at most {max_bytes:,} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start})", path=path) from None


def check_folder_files(folder: str | os.PathLike[str], *, limit: int = 10_000,
                       only: Callable[[str], bool] | None = None) -> None:
    """Refuse a folder holding a FIFO, device or socket anywhere inside (links followed for files,
    not for folders), before a library that opens its files by name reads any of them: a model
    folder whose config.json was a FIFO blocked ``predict`` for ever. Checks at most ``limit``
    entries (a model folder holds a few dozen). ``only``: the folder's own entries whose names
    it accepts, and nothing below them, for a reader that opens only those (a tokenizer beside an
    exported model.onnx, whose folder may be anyone's Downloads)."""
    seen = 0
    for root, dirs, files in os.walk(folder, followlinks=False):
        entries = files + [d for d in dirs if os.path.islink(os.path.join(root, d))]
        if only is not None:
            entries = [name for name in entries if only(name)]
            dirs[:] = []  # sub-folders are not read: neither walked nor counted
        for name in entries:
            seen += 1
            if seen > limit:  # a model or export folder holds a few dozen files: past the limit nothing is vouched for
                raise DataError(f"the folder holds more than {limit:,} files", path=folder,
                                expected="a model or export folder (a few dozen files)")
            path = os.path.join(root, name)
            try:
                mode = os.stat(path).st_mode
            except OSError:
                continue  # a dangling link: the loader says what is missing
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise DataError(f"not a regular file ({file_type(mode)})", path=path, expected=_EXPECTED)
