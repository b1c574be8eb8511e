"""Files of a project folder: the Arrow data files of the splits and the run folders.

A split is one Arrow IPC *stream* file, the format of ``datasets``' own cache
files, so :func:`open_dataset` hands it to ``datasets.Dataset.from_file`` and
:func:`read_table` memory-maps it with pyarrow: opening a 550,000-row split
reads only the schema, and rows are paged in as they are looked at.
Data files are named ``<split>-<seq>.arrow`` and never modified after writing.
The rows an import replaced are kept in ``data/backup/<split>-<time>.arrow``
(a hard link to the old data file where the file system allows one, so keeping
them costs no space until the old file would have been deleted).
"""

from __future__ import annotations

import errno
import hashlib

import json
import os
import re
import shutil
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import pyarrow as pa

from bertstudio.data.atomic import (TEMP_NAME, atomic_write_with, file_in_use, fsync_dir, fsync_file,
                                    remove_leftovers, temp_path)
from bertstudio.data.project_meta import BACKUP_FILE, DATA_DIR, SPLIT_BACKUP_DIR
from bertstudio.data.regular_file import check_regular_file, read_regular_file

if TYPE_CHECKING:
    import datasets

    from bertstudio.errors import DataError

    from bertstudio.data.examples import ExampleSet

RUNS_DIR = "runs"
CACHE_DIR = "cache"  # the assistant's embeddings and models (assist/cache.py)
TRASH_DIR = "trash"  # runs deleted where the system has no trash (train/run_trash.py); never listed as runs


def disk_error(exc: OSError, path: Path, what: str, *, folder: Path | None = None,
               journal: bool = True) -> "DataError":
    """A failed write as the one error type the GUI and CLI show: the system's reason in it, and
    a remedy only where the reason names one (a full disk, a folder without write access); any
    other cause was blamed on the disk and the permissions, which sent users the wrong way.
    ``folder``: the project's folder, so a write that failed because it is gone (renamed or moved
    while open) says so; ``journal``: whether the failed write was one of the project's edits
    (a run folder is not: the journal note would only mislead)."""
    from bertstudio.errors import DataError

    if exc.errno == errno.ENOENT and folder is not None and not os.path.isdir(folder):
        return DataError(f"{what}: the project folder was moved or renamed while it was open; reopen it from its "
                         "new place (what was saved went with it)", path=path, facts={"refusal": "folder_moved"})
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        expected: str | None = "free disk space"
    elif file_in_use(exc):  # checked before EACCES: Windows reports a sharing violation as EACCES
        expected = "no other program (a sync client, a virus scan) holding the project's files open"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        expected = "write access to the project folder"
    else:
        expected = None
    note = ("; every acknowledged edit is still in labels.journal and is applied when the project is opened again"
            if journal else "")
    return DataError(f"{what} ({exc.strerror or exc}){note}", path=path, expected=expected)


def split_file(folder: Path, meta: dict[str, Any], split: str) -> Path:
    return folder / meta["splits"][split]["file"]


def read_table(path: Path, kind: str) -> pa.Table:
    """The split's rows, memory-mapped (zero-copy: costs address space, not RAM).

    Raises DataError naming the file when it is not a plain file (checked before
    pyarrow opens it: a FIFO would block forever), is not an Arrow stream, or lacks
    a column of the project's kind or holds it with another type.
    """
    from bertstudio.errors import DataError

    check_regular_file(path)
    try:
        with pa.memory_map(str(path), "r") as source:
            table = pa.ipc.open_stream(source).read_all()
        # every offset inside its buffer (and text valid UTF-8): a damaged or forged file whose
        # string offsets point past the mapping killed the app with SIGBUS on the first row read
        table.validate(full=True)
    except (OSError, pa.ArrowInvalid) as exc:
        raise DataError(f"the data file cannot be read ({exc})", path=path,
                        expected="an Arrow stream file written by bertstudio") from exc
    problem = schema_problem(table.schema, kind)
    if problem:
        raise DataError(f"the data file does not hold {kind} rows: {problem}", path=path,
                        expected="an Arrow stream file written by bertstudio for this project")
    return table


def schema_problem(schema: pa.Schema, kind: str) -> str | None:
    """What keeps ``schema`` from being the rows of a ``kind`` project (a missing or mistyped column), or None.

    Every column of the kind is needed with its exact type: a data file is written by
    bertstudio from the kind's features, so anything else is a foreign or damaged file,
    and reading it would fail later with a bare TypeError/KeyError deep in the overlay.
    """
    from bertstudio.data.kinds import get_spec

    expected = get_spec(kind).arrow_schema
    for field in expected:
        indices = schema.get_all_field_indices(field.name)
        if not indices:
            return f"column {field.name!r} is missing (it has {', '.join(map(repr, schema.names)) or 'no columns'})"
        if len(indices) > 1:
            return f"column {field.name!r} appears {len(indices)} times"
        found = schema.field(indices[0]).type
        if found != field.type:
            return f"column {field.name!r} has type {found} where {field.type} is expected"
    return None


def open_dataset(path: Path) -> "datasets.Dataset":
    """The split's data file, memory-mapped like datasets' cache files.

    The fingerprint is given (the file's path, size and modification time) instead of
    letting datasets hash the dataset's state with dill: that hash is slow on a large
    table, and it looks up ``transformers.PreTrainedTokenizerBase`` whenever transformers
    is in ``sys.modules``, which raised AttributeError on the GUI thread while the preload
    thread was still importing transformers (pressing Start seconds after opening a project).
    """
    import datasets
    from datasets.table import MemoryMappedTable

    from bertstudio.errors import DataError

    stat = check_regular_file(path)  # before datasets opens it: a FIFO would block forever
    fingerprint = hashlib.sha256(f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    table = MemoryMappedTable.from_file(str(path))
    try:
        table.table.validate(full=True)  # as read_table: no offset past the mapping reaches training
    except pa.ArrowInvalid as exc:
        raise DataError(f"the data file cannot be read ({exc})", path=path,
                        expected="an Arrow stream file written by bertstudio") from exc
    return datasets.Dataset(table, fingerprint=fingerprint)


def empty_table(kind: str) -> pa.Table:
    from bertstudio.data.kinds import get_spec

    return get_spec(kind).arrow_schema.empty_table()


def empty_dataset(kind: str) -> "datasets.Dataset":
    import datasets
    from datasets.table import InMemoryTable

    from bertstudio.data.kinds import get_spec

    # A fingerprint of our own, as every dataset bertstudio builds has: without one, datasets hashes
    # the table and its pickler reads transformers' attributes, which fails while another thread
    # (the app's preload, the labelling assistant) is still importing transformers. A new, empty
    # QA project's Label page raised "module 'transformers' has no attribute ..." and half set up.
    spec = get_spec(kind)
    table = pa.Table.from_pydict({c: [] for c in spec.features}, schema=spec.arrow_schema)
    return datasets.Dataset(InMemoryTable(table), fingerprint=f"bertstudio-empty-{uuid.uuid4().hex}")


def table_of(examples: "ExampleSet") -> pa.Table:
    """The rows of an ExampleSet as one Arrow table (a selection is materialised), with its features."""
    dataset = examples.dataset
    table = dataset.with_format("arrow")[:] if len(dataset) else dataset.data.table.slice(0, 0)
    # keep the datasets feature metadata so Dataset.from_file restores the exact features
    return table.replace_schema_metadata(dataset.features.arrow_schema.metadata)


def write_split(folder: Path, split: str, seq: int, table: pa.Table) -> Path:
    """Write ``table`` as a new data file of ``split`` (fsynced, never over an existing file)."""
    data_dir = folder / DATA_DIR
    data_dir.mkdir(exist_ok=True)
    n = 0
    while True:
        path = data_dir / (f"{split}-{seq:08d}.arrow" if n == 0 else f"{split}-{seq:08d}-{n}.arrow")
        if not path.exists():
            break
        n += 1
    tmp = temp_path(path)
    try:
        with pa.OSFile(str(tmp), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table, max_chunksize=10_000)
        fsync_file(tmp)
        tmp.replace(path)
    except BaseException:  # a full disk: leave no half-written file behind
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(data_dir)
    return path


def keep_split_backup(folder: Path, split: str, source: Path) -> Path:
    """Keep the data file ``source`` as ``data/backup/<split>-<UTC time>.arrow`` (durable before returning)."""
    backup_dir = folder / SPLIT_BACKUP_DIR
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    n = 0
    while True:
        path = backup_dir / (f"{split}-{stamp}.arrow" if n == 0 else f"{split}-{stamp}-{n}.arrow")
        if not path.exists():
            break
        n += 1
    try:
        os.link(source, path)  # data files are never modified after writing: sharing the inode is safe
    except OSError:  # FAT, some network shares: no hard links, so a copy
        with open(source, "rb") as src:
            atomic_write_with(path, lambda f: shutil.copyfileobj(src, f, 1 << 20))
    fsync_dir(backup_dir)
    fsync_dir(folder / DATA_DIR)
    return path


def read_backup_meta(folder: Path) -> dict[str, Any] | None:
    """project.json.bak as a dict (None when absent or unreadable): its data files must be kept."""
    from bertstudio.errors import DataError

    try:
        raw = read_regular_file(folder / BACKUP_FILE, missing_ok=True)  # never opens a FIFO
        meta = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (DataError, ValueError, RecursionError):
        return None
    return meta if isinstance(meta, dict) else None


# only files this module writes are ever deleted (datasets may put its own cache files here)
_DATA_FILE = re.compile(r"^(?:train|dev|test)-\d{8}(?:-\d+)?\.arrow$")


def remove_unused(folder: Path, meta: dict[str, Any], backup: dict[str, Any] | None,
                  in_use: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    """Delete our data files that neither project.json, its backup nor ``in_use`` names.

    ``in_use`` holds files behind datasets already handed out by ``examples()``:
    a training run may still read them (or pickle them by path to a worker).
    """
    keep: set[str] = set(in_use)
    for m in (meta, backup):
        splits = (m or {}).get("splits")
        if isinstance(splits, dict):
            keep.update(Path(str(v.get("file"))).name for v in splits.values() if isinstance(v, dict))
    data_dir = folder / DATA_DIR
    if not data_dir.is_dir():
        return
    for path in data_dir.iterdir():
        if path.name not in keep and (_DATA_FILE.match(path.name) or TEMP_NAME.match(path.name)):
            try:
                path.unlink()
            except OSError:  # Windows keeps mapped files locked: they go at the next compaction
                pass


def remove_write_leftovers(folder: Path) -> list[Path]:
    """Delete the temporary files and folders a killed write left in the project's own places
    (project.json's, the assistant's cache, the split backups; the data files' go at each
    compaction); returns them. Called with the project's lock held, so no other process of
    ours is writing them: a kill while project.json or the assistant's model was written left
    ``.project.json.<pid>.tmp`` and friends for good. Never the runs folder (each run folder's
    own writer clears its own: train/rundir.py) and never ``.old`` (the only copy after a crash
    mid-swap)."""
    return remove_leftovers((folder, folder / CACHE_DIR, folder / SPLIT_BACKUP_DIR))


# names Windows keeps for devices, with any extension and in any case ("nul.txt" is NUL too):
# a run or project folder of that name made on Linux cannot be copied to, or opened on, Windows
_WINDOWS_RESERVED = re.compile(r"(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?", re.IGNORECASE)


def unportable_name(name: str) -> str | None:
    """Why ``name`` cannot be a folder on every system run folders travel to (None when it can)."""
    if _WINDOWS_RESERVED.fullmatch(name.rstrip(" .")):
        return f"{name!r} is a name Windows keeps for a device"
    if name.endswith((".", " ")):
        return f"{name!r} ends in {'a dot' if name.endswith('.') else 'a space'}, which Windows drops"
    return None


def folder_name(name: str, fallback: str) -> str:
    """A folder name made from a display name: letters of any script, digits, '.', '-' and '_' kept,
    every other run of characters one '-', none at either end; ``fallback`` when nothing is left
    (a name of emoji made a folder called '-', and the next such project was refused as taken),
    and ``fallback-NAME`` for a name Windows keeps for a device."""
    safe = re.sub(r"[^\w.-]+", "-", name).strip("-.") or fallback
    return f"{fallback}-{safe}" if unportable_name(safe) else safe


def new_run_dir(runs: Path, name: str) -> Path:
    """Create ``runs/<name>`` (``name-2``... when taken). A folder that cannot be made (a read-only
    medium, a full disk, no permission, ``runs`` a file) is a DataError naming ``runs``: the OSError
    escaped Start's slot, and the Train page showed nothing."""
    from bertstudio.errors import DataError

    safe = folder_name(name, "run")
    if runs.exists() and not runs.is_dir():
        raise DataError("cannot create the run folder: this is a file, not a folder", path=runs,
                        expected="a folder named runs in the project; move the file away",
                        facts={"refusal": "runs_is_file"})
    try:
        runs.mkdir(exist_ok=True)
        for n in range(1, 10_000):
            path = runs / (safe if n == 1 else f"{safe}-{n}")
            try:
                path.mkdir()
                return path
            except FileExistsError:
                continue
    except OSError as exc:
        raise disk_error(exc, runs, "cannot create the run folder", folder=runs.parent, journal=False) from exc
    raise FileExistsError(f"too many runs named {safe!r} in {runs}")


def list_runs(runs: Path) -> list[Path]:
    """The run folders in ``runs``, oldest first (one directory scan: a list of 2,000 runs is
    refreshed on the GUI thread); one removed while it is listed is left out."""
    if not runs.is_dir():
        return []
    found: list[tuple[float, str, Path]] = []
    with os.scandir(runs) as entries:
        for entry in entries:
            try:
                if entry.is_dir():
                    found.append((entry.stat().st_mtime, entry.name, runs / entry.name))
            except OSError:  # gone (renamed, deleted) since the scan saw it
                continue
    return [path for _mtime, _name, path in sorted(found)]


def refuse_links(folder: Path, names: Iterable[str]) -> None:
    """A project's own files and folders are never symbolic links: one sent with ``data`` linked to
    another project of the user's had that project's data files deleted as unused when it opened,
    and a linked journal, runs/ or data/backup was written (or cut) outside the folder. ``names``
    (relative to ``folder``) and the entries of its data and runs folders are checked; a link among
    them is a DataError naming it, before anything is read or written."""
    checked = [folder / n for n in names]
    for sub in (DATA_DIR, RUNS_DIR):
        here = folder / sub
        if here.is_dir() and not here.is_symlink():
            try:
                checked += sorted(here.iterdir())[:100_000]
            except OSError:
                pass  # the reader says what it cannot read
    for path in checked:
        if path.is_symlink():
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            from bertstudio.errors import DataError

            raise DataError(f"is a symbolic link (to {target[:200]}); a project's own files and folders are never "
                            "links, so this project is not opened", path=path,
                            expected="a project folder copied without links (cp -rL, or a zip of the folder)")
