"""Crash-safe writes, the one helper for them: a reader sees the old file (or folder)
or the new one, never a mix.

The recipe is the one SQLite and git use on POSIX: write a temporary file in the
same folder (so the rename cannot cross file systems), flush and ``fsync`` it,
``os.replace`` it over the target (atomic on POSIX and Windows), then ``fsync``
the folder so the rename itself survives a power cut. A folder (a saved model, a
checkpoint) is filled under a temporary name and swapped in with two renames
(:func:`replace_folder`), or moved into a place that must hold nothing yet
(:func:`create_folder`: an export never overwrites). An append-only file (the
project's edit journal) grows one ``write`` at a time, each fsynced before it counts
and cut back when it fails (:func:`append_durably`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import stat
import sys
import uuid
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
    """Flush a file that another library (pyarrow) wrote and closed to the disk. Opened for
    writing (nothing is written): Windows' fsync is ``FlushFileBuffers``, which needs write
    access, and on a read-only handle every import and compact failed with EBADF there."""
    fd = os.open(os.fspath(path), os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


TEMP_NAME = re.compile(r"^\..+\.\d+\.tmp$")  # temp_path's names (.NAME.<pid>.tmp): what a killed write leaves


def remove_leftovers(folders: "list[Path] | tuple[Path, ...]") -> list[Path]:
    """Delete the ``.NAME.<pid>.tmp`` files and folders a killed write left in ``folders`` (never
    ``.old``: after a crash mid-swap it is the only copy); returns them. The caller holds the
    lock that keeps every other writer of these folders out."""
    removed = []
    for where in folders:
        try:
            entries = list(where.iterdir()) if where.is_dir() and not where.is_symlink() else []
        except OSError:
            continue
        for path in entries:
            if not TEMP_NAME.match(path.name):
                continue
            try:
                remove_entry(path)
                removed.append(path)
            except OSError:
                continue  # left for the next time
    return removed


def remove_entry(path: Path) -> None:
    """Remove a folder with everything in it, or a file or a link itself (never what a link
    points to): what the clean-up of a failed or killed write takes away."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


NAME_MAX = 255  # bytes in one name on ext4, APFS, NTFS (UTF-16 units there), XFS, btrfs


def sibling_name(name: str, suffix: str) -> str:
    """``.{name}{suffix}``, the hidden name a write uses beside ``name``, cut to fit ``NAME_MAX``
    bytes: a legal 245-byte ``--out`` failed as "internal error: File name too long" because of
    the 13 bytes added here. A cut name ends in a hash of the whole one (two long names sharing
    their start get two temporary names) and still ends in ``suffix``, which the clean-up and
    the ``.old`` fall-back match."""
    full = f".{name}{suffix}"
    if len(os.fsencode(full)) <= NAME_MAX:
        return full
    tag = "~" + hashlib.sha1(os.fsencode(name)).hexdigest()[:8]
    room = NAME_MAX - len(os.fsencode(f".{tag}{suffix}"))
    cut = name
    while len(os.fsencode(cut)) > room:  # characters, not bytes: a cut never splits a UTF-8 sequence
        cut = cut[:-1]
    return f".{cut}{tag}{suffix}"


def temp_path(path: Path) -> Path:
    """A temporary name next to ``path``, free to be created; the pid keeps two writers from
    sharing it. Whatever already has the name is a leftover of an earlier process with this pid,
    or planted: a folder someone sent held ``.project.json.<pid>.tmp`` links to a file of the
    user's for every pid, and opening the name for writing followed the link. It is removed
    (a link itself, never what it points to) before the caller creates the file."""
    tmp = path.with_name(sibling_name(path.name, f".{os.getpid()}.tmp"))
    if os.path.lexists(tmp):
        os.unlink(tmp)
    return tmp


def check_replaceable(path: str | os.PathLike[str]) -> None:
    """Refuse to write over ``path`` unless nothing is there or it is a regular file (links
    followed): the rename that ends an atomic write puts a new regular file in its place, so
    an export to a FIFO, a device node or a link to one (``/dev/null`` as root) replaced the
    user's pipe or the system's device. A DataError naming ``path`` and what it is; every
    writer of a file goes through :func:`atomic_write_with`, which asks this first."""
    from bertstudio.data.regular_file import file_type
    from bertstudio.errors import DataError

    if not os.path.lexists(path):
        return
    link = f"a link to {os.path.realpath(path)}, " if os.path.islink(path) else ""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return  # a dangling link: the file it names is created
    except OSError as exc:
        raise DataError(f"cannot be looked at: {exc.strerror or exc}, so it is not replaced", path=path,
                        expected="a plain file, or a new name") from None
    if stat.S_ISDIR(st.st_mode):
        raise DataError(f"is {link}a folder, so no file is written over it", path=path,
                        expected="a file name, not a folder")
    if not stat.S_ISREG(st.st_mode):
        what = file_type(st.st_mode)
        problem = f"is {link}{what}, not a plain file" if what.startswith("a ") else f"is {link}not a plain file"
        raise DataError(problem + ", so it is not replaced", path=path, expected="a plain file, or a new name")


def atomic_write_with(path: str | os.PathLike[str], write: Callable[[BinaryIO], None], *, parents: bool = False,
                      own: bool = False) -> None:
    """Write ``path`` atomically, ``write`` filling the open binary file; ``parents``: create
    missing folders above it first (an export into a new folder). An existing ``path`` that
    is not a regular file is refused (:func:`check_replaceable`), unless ``own``: the name is
    the program's own in its own folder (the assistant's state and caches in a project's
    cache/), where a FIFO, device node or link found at it (a tampered project) is removed
    and the file written again; a link's target is never touched, a folder still refused."""
    path = Path(path)
    if own:
        _clear_own_name(path)
    check_replaceable(path)
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path(path)
    try:  # "x": created here, never opened through a link (O_EXCL refuses any name that exists, a link too)
        with open(tmp, "xb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        _name_the_target(exc, path)
        raise
    fsync_dir(path.parent)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, parents: bool = False, own: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically and durably (``own``: see :func:`atomic_write_with`)."""
    atomic_write_with(path, lambda f: f.write(data), parents=parents, own=own)


def _clear_own_name(path: Path) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode) or not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        os.unlink(path)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically and durably."""
    atomic_write_bytes(path, text.encode("utf-8"))


def swap_names(folder: Path) -> tuple[Path, Path]:
    """(temporary, old) names :func:`replace_folder` uses next to ``folder``; a crash between
    its two renames leaves only the old one, which readers may fall back to."""
    pid = os.getpid()
    return (folder.with_name(sibling_name(folder.name, f".{pid}.tmp")),
            folder.with_name(sibling_name(folder.name, f".{pid}.old")))


def replace_folder(folder: str | os.PathLike[str], fill: Callable[[Path], None], *, parents: bool = False) -> Path:
    """Replace ``folder`` with a new one that ``fill(tmp)`` writes into an empty temporary
    folder beside it. On any error in ``fill`` the old folder is untouched and the
    temporary one removed; otherwise the old folder is renamed away, the new one renamed
    in, and the old one deleted. ``parents``: create missing folders above it first (a
    model saved to a new path); without it a missing parent is a FileNotFoundError, as a
    run's folder removed while the run wrote it must be: it came back as a "finished" run
    holding a model and no record of how it was made."""
    folder = Path(folder)
    tmp, old = swap_names(folder)
    shutil.rmtree(tmp, ignore_errors=True)  # left over by a crash of a process with this pid
    try:
        tmp.mkdir(parents=parents)
        fill(tmp)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        _name_the_target(exc, folder)
        raise
    if folder.exists():
        shutil.rmtree(old, ignore_errors=True)
        os.replace(folder, old)
    os.replace(tmp, folder)
    shutil.rmtree(old, ignore_errors=True)
    fsync_dir(folder.parent)
    return folder


PATH_MAX = 4096  # Linux; longer paths fail as ENAMETOOLONG only when a file is written
# The one place that says the system is Windows (read as atomic.WINDOWS, so a test patches it
# once): the path limit here, the kind of run lock (project_lock) and how a run folder is renamed
# (train/rundir) follow it, and the last two must agree.
WINDOWS = os.name == "nt"


def file_in_use(exc: OSError, *, folder: bool = False) -> bool:
    """Whether a failed write or rename says that another program holds a file open: on Windows a
    sharing violation (WinError 32, 33), which Python reports as EACCES. Renaming a ``folder`` that
    holds an open file fails with access denied (WinError 5) instead, so for a folder 5 counts too."""
    code = getattr(exc, "winerror", None)
    return code in (32, 33) or (folder and code == 5)


def _path_limit() -> tuple[int, str, Callable[[str], int], str]:
    """(the longest path this system takes, its unit, the length of a path as it counts it, a note).
    Windows counts UTF-16 characters and takes 259 (MAX_PATH, 260 with the final NUL) unless long
    paths are turned on in the registry; python.org's python.exe declares itself long-path aware,
    which is the other half, but a program embedding Python may not, which cannot be seen from
    here. macOS takes 1,024 bytes, Linux 4,096."""
    if WINDOWS:
        utf16 = lambda text: len(text.encode("utf-16-le")) // 2  # noqa: E731
        if _windows_long_paths():
            return 32_767, "characters", utf16, ""
        return 259, "characters", utf16, " unless long paths are turned on in Windows"
    return 1024 if sys.platform == "darwin" else PATH_MAX, "bytes", lambda text: len(os.fsencode(text)), ""


def _windows_long_paths() -> bool:
    """Whether Windows' LongPathsEnabled is set (False where it cannot be read)."""
    try:
        import winreg  # type: ignore[import-not-found,unused-ignore]

        with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE,  # type: ignore[attr-defined,unused-ignore]
                            r"SYSTEM\CurrentControlSet\Control\FileSystem") as key:
            return winreg.QueryValueEx(key, "LongPathsEnabled")[0] == 1  # type: ignore[attr-defined,unused-ignore]
    except (ImportError, OSError):
        return False


def _can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder``: tried, not asked (os.access says yes to root on a
    read-only mount or an immutable folder); the empty probe file is removed at once. It is named
    as :func:`temp_path` names things (``.bertstudio-probe.<pid>.tmp``), so a probe whose removal
    failed (a virus scan holding the new file on Windows) or whose process died is swept with the
    other leftovers at the next open (``remove_leftovers``)."""
    try:
        probe = temp_path(Path(folder) / "bertstudio-probe")
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return True


def files_writable(folder: Path, names: "tuple[str, ...]") -> bool:
    """Whether each of ``names`` in ``folder`` that exists may be opened for writing: a project copied
    off a CD on Windows keeps the read-only attribute on every file in a writable folder (os.access
    reads that attribute reliably; on a read-only mount it says no to root too)."""
    return all(os.access(folder / name, os.W_OK) for name in names if os.path.lexists(folder / name))


def check_folder_path(folder: str | os.PathLike[str], *, where: str) -> Path:
    """``folder`` (user expanded) when it can be a folder to write into: an existing folder (or a
    link to one: the folder it names comes back), or a new name whose nearest existing parent
    is a folder this process may write in. Anything else - a dangling symbolic link on the way,
    a parent that is a file, a name longer than the file system takes, a parent without write
    permission - is a ConfigError naming ``folder`` and ``where``, raised before any work."""
    from bertstudio.errors import ConfigError

    expected = "a new folder, or an existing folder"
    if not os.fspath(folder).strip():  # Path("") is "." - the current folder, which nobody typed
        raise ConfigError("an empty path", where=where, expected=expected)
    out = Path(folder).expanduser()
    for part in out.parts:  # first: stat() itself fails on such a name
        if len(os.fsencode(part)) > 255:
            raise ConfigError(f"a name of {len(os.fsencode(part))} bytes is longer than file systems take (255)",
                              path=out, where=where, expected="names of at most 255 bytes")
    # the files a command writes inside add up to ~60 bytes (checkpoints/.last.<pid>.tmp/optimizer.pt)
    limit, unit, length, note = _path_limit()
    if length(str(out.absolute())) > limit - 100:
        raise ConfigError(f"a path of {length(str(out.absolute())):,} {unit} leaves no room for the files written "
                          f"inside it (the system takes {limit:,}{note})", path=str(out)[:120] + "...", where=where,
                          expected="a shorter path")
    exists, isdir = os.path.exists, os.path.isdir  # False (not OSError) on a path that cannot be looked at
    if os.path.islink(out):
        if not exists(out):
            raise ConfigError("is a symbolic link to a path that does not exist", path=out, where=where, expected=expected)
        out = out.resolve()  # a link to a folder: written where it points (a rename onto a link would fail)
    if exists(out):
        if not isdir(out):
            raise ConfigError("is a file, not a folder", path=out, where=where, expected=expected,
                              facts={"refusal": "folder_is_file", "folder": str(out)})  # for the app's words
        if not _can_write_in(out):
            raise ConfigError("no permission to write in this folder", path=out, where=where, expected=expected,
                              facts={"refusal": "folder_not_writable", "folder": str(out)})
        return out
    parent = out
    while not exists(parent):
        if os.path.islink(parent):
            raise ConfigError(f"{parent} is a symbolic link to a path that does not exist", path=out, where=where,
                              expected=expected)
        if parent == parent.parent:
            break
        parent = parent.parent
    if not isdir(parent):
        raise ConfigError(f"{parent} is a file, so no folder can be made inside it", path=out, where=where,
                          expected=expected,
                          facts={"refusal": "parent_is_file", "folder": str(out), "parent": str(parent)})
    # tried, not asked: os.access says yes to root on /proc, /sys or a read-only mount, and the run
    # then failed when it first wrote - after the training
    if not _can_write_in(parent):
        raise ConfigError(f"no permission to create a folder in {parent}", path=out, where=where, expected=expected,
                          facts={"refusal": "parent_not_writable", "folder": str(out), "parent": str(parent)})
    return out


def create_folder(folder: str | os.PathLike[str], fill: Callable[[Path], None], *, parents: bool = False) -> Path:
    """Create ``folder`` (absent, or an empty folder) whole: ``fill(tmp)`` writes into a new
    temporary folder beside it, which is then renamed into place. Nothing is ever replaced:
    an empty ``folder`` is removed just before the rename, and a file that appeared in it
    since makes that fail (OSError) instead of vanishing. On any error the temporary folder
    is removed and ``folder`` is as it was. ``parents``: as for :func:`replace_folder`."""
    folder = Path(folder)
    # a fresh name per call (not the pid's, as in replace_folder): nothing to clean up first, and
    # two writers in one process never share it
    # ("n": never all digits, so never a killed write's .NAME.<pid>.tmp that a run folder's writer clears)
    tmp = folder.parent / sibling_name(folder.name, f".n{uuid.uuid4().hex[:8]}.tmp")
    tmp.mkdir(parents=parents)
    try:
        fill(tmp)
        try:
            if folder.exists():
                folder.rmdir()
            os.replace(tmp, folder)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
            from bertstudio.errors import DataError

            raise DataError("something was written into the folder while it was being filled, so nothing was replaced",
                            path=folder, expected="another folder") from None
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        _name_the_target(exc, folder)
        raise
    fsync_dir(folder.parent)
    return folder


def _name_the_target(exc: BaseException, target: Path) -> None:
    """Give an OSError that names no file (a ``write`` on a full disk) the file or folder being
    written, so the message can say which: "No space left on device" alone named nothing."""
    if isinstance(exc, OSError) and not exc.filename:
        exc.filename = str(target)


def open_append(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for :func:`append_durably` (unbuffered, so one write is one system call);
    a file this creates has its name made durable too. Readable as well (writes still go to the
    end): a project keeps a copy of its journal from it when the name was replaced under it."""
    path = Path(path)
    existed = path.exists()
    f = open(path, "a+b", buffering=0)
    if not existed:
        fsync_dir(path.parent)
    return f


def append_durably(f: BinaryIO, data: bytes) -> None:
    """Append ``data`` to ``f`` (from :func:`open_append`) in one write and fsync it: once this
    returns, the bytes survive a crash or a power cut, and a crash during it tears at most
    this record, never an earlier one. On failure (disk full, I/O error) the file is cut
    back to where it was, so a record the caller was told failed does not reappear later."""
    start = os.fstat(f.fileno()).st_size
    try:
        written = f.write(data)
        if written != len(data):  # unbuffered writes may be short (disk full)
            raise OSError(f"only {written} of {len(data)} bytes written")
        os.fsync(f.fileno())
    except OSError:
        try:
            f.truncate(start)
            os.fsync(f.fileno())
        except OSError:
            pass
        raise


def truncate_durably(path: str | os.PathLike[str], size: int) -> None:
    """Cut the file at ``path`` to ``size`` bytes (a torn tail) and make that durable."""
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())


def move_durably(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """Rename ``src`` to ``dst`` (replacing a file there, atomically) and make the rename durable."""
    src, dst = Path(src), Path(dst)
    os.replace(src, dst)
    fsync_dir(dst.parent)
    if src.parent.resolve() != dst.parent.resolve():
        fsync_dir(src.parent)
