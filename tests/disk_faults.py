"""Test helper: make the project's writes fail as on a read-only or full file system.

Tests run as root here, and root writes through ``chmod``; mounting needs
privileges CI may not have. So the write primitives the project uses for new
files fail instead: pyarrow's ``OSFile`` (the Arrow data files) and ``open`` for
writing inside :mod:`bertstudio.data.atomic` (project.json and its backup). The
journal keeps its open handle, as it would on a folder remounted read-only.
"""

from __future__ import annotations

import errno
import os

import pyarrow as pa
import pytest

from bertstudio.data import atomic


def deny_writes(monkeypatch: pytest.MonkeyPatch, code: int = errno.EROFS) -> None:
    """Every new file the project writes fails with ``OSError(code)`` until ``monkeypatch.undo()``."""
    error = OSError(code, os.strerror(code))

    def refuse(*_a: object, **_k: object) -> None:
        raise error

    real_open = open

    def open_for_reading_only(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if any(c in mode for c in "wax+"):
            raise error
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(pa, "OSFile", refuse)
    monkeypatch.setattr(atomic, "open", open_for_reading_only, raising=False)


def deny_appends(monkeypatch: pytest.MonkeyPatch, code: int = errno.EROFS) -> None:
    """Every journal append (one edit) fails with ``OSError(code)`` until ``monkeypatch.undo()``."""
    from bertstudio.data import journal

    error = OSError(code, os.strerror(code))

    def refuse(*_a: object, **_k: object) -> None:
        raise error

    monkeypatch.setattr(journal, "append_durably", refuse)


def read_only_medium(monkeypatch: pytest.MonkeyPatch, folder: os.PathLike[str] | str, code: int = errno.EROFS) -> None:
    """``folder`` as on a read-only mount, until ``monkeypatch.undo()``: new files (the data files,
    project.json, a probe file made in it) and folders under it fail with ``OSError(code)``, and so
    do every journal append and cutting the journal's torn tail. (A real mount needs root and ``unshare -m``; root writes through chmod.)"""
    import tempfile
    from pathlib import Path

    deny_writes(monkeypatch, code)
    deny_appends(monkeypatch, code)
    root = Path(folder).absolute()
    error = OSError(code, os.strerror(code))
    real_mkstemp, real_mkdir = tempfile.mkstemp, Path.mkdir

    def under(path: object) -> bool:
        return path is not None and (Path(str(path)).absolute() == root or root in Path(str(path)).absolute().parents)

    def mkstemp(*args, **kwargs):  # type: ignore[no-untyped-def]
        if under(kwargs.get("dir")):
            raise error
        return real_mkstemp(*args, **kwargs)

    def mkdir(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if under(self):
            raise error
        return real_mkdir(self, *args, **kwargs)

    real_os_open = os.open

    def os_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]  # the open-time probe file
        if flags & os.O_CREAT and under(path):
            raise error
        return real_os_open(path, flags, *args, **kwargs)

    from bertstudio.data import journal
    real_truncate = journal.truncate_durably

    def truncate_durably(path, size):  # type: ignore[no-untyped-def]  # cutting a torn journal tail
        if under(path):
            raise error
        return real_truncate(path, size)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(journal, "truncate_durably", truncate_durably)
