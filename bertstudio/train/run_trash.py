"""Deleting a run the undoable way: its folder is moved into a trash folder, never removed, and
moved back to the very path it had.

The interface first offers the run to the system's trash (Qt's ``QFile.moveToTrash``, given here
as ``mover``); where there is none (a headless Linux box has no ``~/.local/share/Trash``), the run
goes to the project's own trash folder (``<project>/trash``, beside ``runs/``, which is never
listed as a run). A run a training is writing is refused, by the same writer lock
:func:`~bertstudio.train.rundir.rename_run` asks; a run put back never replaces a folder that took
its name meanwhile.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any, Callable

from bertstudio.data import atomic
from bertstudio.data.project_lock import lock_run_folder, unlock_folder
from bertstudio.data.project_store import TRASH_DIR
from bertstudio.errors import ConfigError

Mover = Callable[[Path], "Path | None"]  # moves a folder to a trash of its own: where it went, or None


def project_trash(runs_dir: str | Path) -> Path:
    """The project's own trash folder for runs deleted where the system has no trash."""
    return Path(runs_dir).parent / TRASH_DIR


def folder_size(folder: str | Path) -> tuple[int, int]:
    """How many files ``folder`` holds, and their bytes (links not followed): what a deletion says."""
    files = size = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            try:
                size += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
            files += 1
    return files, size


def trash_run(folder: str | Path, trash: str | Path, *, mover: Mover | None = None, project: Any = None) -> Path:
    """Move the run ``folder`` to ``mover``'s trash or, where that returns None, into ``trash``
    under its own name (``name-2``... when taken); returns where it went. ConfigError when
    ``project`` (the run's, where the caller has it) was opened read-only, a training is writing
    the run, it is no folder, or ``trash`` is a link or cannot be written."""
    folder, trash = Path(folder), Path(trash)
    if project is not None and getattr(project, "read_only", False) is True:
        # a read-only viewer moved runs out from under the project's other windows
        from bertstudio.data.project import READ_ONLY

        raise ConfigError(READ_ONLY, path=folder, where="delete run", facts={"refusal": "read_only"})
    if folder.is_symlink() or not folder.is_dir():
        raise ConfigError("is not a run folder (it is gone, or a link)", path=folder, where="delete run",
                          facts={"refusal": "not_a_run", "link": folder.is_symlink()})
    try:
        lock = lock_run_folder(folder)
    except OSError as exc:
        raise ConfigError(f"the run folder cannot be opened ({exc.strerror or exc})", path=folder,
                          where="delete run") from None
    if lock == -1:
        raise ConfigError("a training is writing this run now", path=folder, where="delete run",
                          expected="the run deleted once it has ended", facts={"refusal": "training"})
    try:
        if atomic.WINDOWS:  # a folder holding an open file (the lock's) cannot be moved there
            unlock_folder(lock)
            lock = None
        went = mover(folder) if mover is not None else None
        if went is not None:
            return Path(went)
        if trash.is_symlink():  # the run would leave the project, or the disk, through it
            raise ConfigError("the project's trash folder is a link; nothing was moved", path=trash,
                              where="delete run", expected="a plain folder, or none",
                              facts={"refusal": "trash_link", "trash": str(trash)})
        if trash.exists() and not trash.is_dir():  # mkdir said only "[Errno 17] File exists"
            raise ConfigError("the project's trash is a file, not a folder; nothing was moved", path=trash,
                              where="delete run", expected="that file renamed or moved",
                              facts={"refusal": "trash_not_folder", "trash": str(trash)})
        try:
            trash.mkdir(exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"the project's trash folder cannot be made ({exc.strerror or exc}); nothing was moved",
                              path=trash, where="delete run", expected="write access to the project folder",
                              facts={"refusal": "trash_unmade", "trash": str(trash),
                                     "reason": exc.strerror or str(exc)}) from None
        def unwritable(exc: OSError) -> ConfigError:  # the trash refused, not the run: said so
            return ConfigError(f"the project's trash folder cannot be written ({exc.strerror or exc}); nothing was moved",
                               path=trash, where="delete run", expected="write access to that folder",
                               facts={"refusal": "trash_unwritable", "trash": str(trash),
                                      "reason": exc.strerror or str(exc)})

        for n in range(1, 10_000):
            target = trash / (folder.name if n == 1 else _numbered(folder.name, n))
            if _move_to(folder, target, unwritable=unwritable):
                return target
        raise ConfigError("too many deleted runs of this name in the trash", path=trash, where="delete run")
    finally:
        unlock_folder(lock)


NAME_MAX = 255  # bytes in one name, on the common file systems


def _numbered(name: str, n: int) -> str:
    """``name-n``, the name cut short where the suffix would take it past :data:`NAME_MAX` bytes
    (a 255-byte run deleted twice raised "[Errno 36] File name too long"); the run keeps its own
    name for the undo, which moves it back to the path it had."""
    suffix = f"-{n}"
    while name and len(os.fsencode(name + suffix)) > NAME_MAX:
        name = name[:-1]
    return name + suffix


def restore_run(trashed: str | Path, folder: str | Path) -> Path:
    """Move a deleted run from ``trashed`` back to ``folder``, the path it had; ConfigError (the
    run left where it is) when it is no longer there or ``folder``'s name was taken meanwhile."""
    trashed, folder = Path(trashed), Path(folder)
    if trashed.is_symlink() or not trashed.is_dir():
        raise ConfigError("the deleted run is no longer in the trash", path=trashed, where="undo delete run",
                          facts={"refusal": "gone_from_trash"})
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)  # a job folder removed since: made again
    except OSError as exc:
        raise ConfigError(f"its folder cannot be made again ({exc.strerror or exc})", path=folder.parent,
                          where="undo delete run") from None
    if not _move_to(trashed, folder):
        raise ConfigError(f"a folder of that name exists now; the deleted run stays at {trashed}", path=folder,
                          where="undo delete run", expected="that folder renamed or moved, then Undo again",
                          facts={"refusal": "name_taken", "trashed": str(trashed)})
    return folder


def _move_to(source: Path, target: Path, *, unwritable: Callable[[OSError], Exception] | None = None) -> bool:
    """Rename ``source`` to ``target``, never onto anything there (False: the name is taken);
    ``unwritable`` names the error raised when ``target``'s folder refuses the new name."""
    if atomic.WINDOWS:  # its rename refuses any existing name itself
        try:
            os.rename(source, target)
        except FileExistsError:
            return False
        except OSError as exc:
            if getattr(exc, "winerror", None) == 183:  # ERROR_ALREADY_EXISTS
                return False
            raise
        return True
    try:
        target.mkdir()  # claims the name: a folder made meanwhile is never replaced
    except FileExistsError:
        return False
    except OSError as exc:
        if unwritable is None:
            raise
        raise unwritable(exc) from None
    try:
        os.replace(source, target)  # onto the empty folder just made: one rename, nothing copied
    except OSError as exc:
        target.rmdir()
        if exc.errno == errno.EXDEV:
            raise ConfigError("the trash is on another disk; nothing was moved", path=source, where="delete run") from None
        raise
    return True
