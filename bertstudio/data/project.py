"""A labelling project on disk: one folder, never loses an acknowledged edit.

Layout of a project folder::

    project.json            name, kind, label set (+ colours), GLUE task, splits, backups, UI state
    project.json.bak        the previous good project.json (recovery)
    data/<split>-<seq>.arrow  the rows of each split (Arrow IPC stream, memory-mapped)
    data/backup/<split>-<time>.arrow  rows an import replaced (restorable; bertstudio never deletes them)
    labels.journal          gold edits and label-set edits since the last compaction
    labels.journal.prev     the journal folded by the last compaction (recovery)
    labels.journal.unapplied-<time>  edits made on another copy's project.json (a git pull): listed once, kept
    runs/<name>/            training runs (written by the engine)

How edits are stored: the Arrow files are written once per import or compaction and
never rewritten per edit. :meth:`Project.set_gold` appends one checksummed line to
``labels.journal`` and fsyncs it (about a millisecond, whatever the size of the split)
and keeps the value in an overlay (:mod:`.project_overlay`) that every read applies.
:meth:`Project.compact` folds the overlay into new Arrow files (fsynced, then committed
by the atomic rewrite of ``project.json``) and rotates the journal. ``project.json``
records the journal sequence number its label set (``labels_seq``) and the data files
(``data_seq``) already contain, so replaying the journal after a crash is exact. A
full disk or a read-only folder is a DataError and leaves the journal as it was.

This module holds the Project's state, rows, journal and compaction; the label set is
in :mod:`.project_labels`, imports/backups/ExampleSets in :mod:`.project_splits`, the
open-time replay and its checks (bad entries skipped with a message, see
:attr:`Project.recovery_messages`) in :mod:`.project_replay`, files in
:mod:`.project_store`, ``project.json`` and its field checks in :mod:`.project_meta`,
the one-process lock in :mod:`.project_lock`.

Usage::

    project = Project.create(folder, name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(load_examples("train.tsv"), "train")   # appends; replace=True keeps a backup
    old = project.set_gold("train", 12, "pos")      # journaled; `old` lets the GUI undo
    project.examples("train")                       # ExampleSet, edits applied
    project.close()                                 # compacts

Public API (errors a user can act on are DataError/ConfigError naming the file): ``create``,
``open``, ``recovery_messages``; facts ``folder, name, kind, glue_task, labels, label_colors,
split_names, split_info, ui_state, recent_settings, pending_edits``, ``save_ui_state()``; rows
``num_rows, row, gold, set_gold -> previous, clear_gold, label_counts, progress, examples``;
splits ``import_examples(examples, split, *, replace=False, label_map=None, add_labels=False)
-> backup | None``, ``split_backups, restore_split_backup, export``; labels ``add_label,
rename_label, set_label_color, remove_label``; runs ``runs_dir, new_run_dir, list_runs``;
``subscribe(callback) -> unsubscribe``, ``compact, compact_if_large, close``; a context manager.

Change events (plain dicts, see :meth:`Project.subscribe`): ``gold_changed`` (split, row,
value, previous), ``labels_changed`` (op, and old/new for a rename), ``split_imported``
(split, ``backup`` id when rows were replaced), ``compacted``, ``ui_state_saved``.
"""

from __future__ import annotations

import copy
import itertools
import logging
import operator
import os
import threading
import uuid
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa

from bertstudio.data import project_store as store
from bertstudio.data.atomic import _can_write_in, files_writable
from bertstudio.data.examples import check_kind
from bertstudio.data.journal import Journal
from bertstudio.data.project_labels import LabelSetOps, check_color, check_label_names
from bertstudio.data.project_lock import ProjectLock
from bertstudio.data.project_meta import (
    BACKUP_FILE,
    DATA_DIR,
    MAX_NAME_CHARS,
    PROJECT_FILE,
    SCHEMA_VERSION,
    SPLIT_BACKUP_DIR,
    SPLITS,
    MetaState,
    default_color,
    load_meta,
    new_generation,
    project_name_problem,
    write_meta,
)
from bertstudio.data.project_outside import OutsideChanges, file_sig
from bertstudio.data.project_overlay import GoldOverlay
from bertstudio.data.project_replay import COMPACT_AFTER, JOURNAL_FILE, PREV_JOURNAL_FILE, JournalReplay
from bertstudio.data.project_splits import SplitOps
from bertstudio.data.project_store import disk_error
from bertstudio.data.kinds import get_spec
from bertstudio.errors import DataError

__all__ = ["Project", "SPLITS", "SCHEMA_VERSION", "COMPACT_AFTER", "READ_ONLY"]

# what a project opened where it cannot be written (a read-only medium, a folder without write
# permission) still does, said once when it opens and again by every edit it refuses
READ_ONLY = ("the project is read-only here (a read-only medium, or no permission to write in its folder or files): "
             "browse, predict and compare; labels and runs cannot be saved")

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]


_OPENS = itertools.count(1)  # Project.opened: which opening of a project this object is

class Project(MetaState, LabelSetOps, SplitOps, JournalReplay, OutsideChanges):
    """An open project folder. Create with :meth:`create` or :meth:`open`, finish with :meth:`close`."""

    def __init__(self, folder: Path, meta: dict[str, Any], meta_bytes: bytes | None) -> None:
        # use create()/open(); the constructor only wires state
        self.folder = folder
        self._meta = meta
        self._meta_bytes = meta_bytes
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._tables: dict[str, pa.Table] = {}
        self._overlay = GoldOverlay(meta["kind"], SPLITS)
        # bumped on every change of a split's rows or labels, so examples() can reuse what it built;
        # they start again at 0 at each open: with ``opened`` (unique in this process) they name the rows
        self._versions: dict[str, int] = {s: 0 for s in SPLITS}
        self.opened = next(_OPENS)
        self._examples_cache: dict[str, tuple[int, Any]] = {}
        self._handed_out: set[str] = set()  # data files behind ExampleSets given out: kept until close
        self._seq = int(meta.get("seq", 0))
        self._journal = Journal(folder / JOURNAL_FILE)
        self._journal.base = meta.get("generation")  # a journal started now continues this project.json
        # the files as this process last read or wrote them: another program's change is refused (project_outside)
        self._meta_sig: tuple[int, int, int] | None = None
        self._data_sigs: dict[str, tuple[int, int, int] | None] = {}
        self._outside: DataError | None = None
        self._pending = 0  # journal entries not yet folded into the data files
        self._closed = False
        self._lock_file: ProjectLock | None = None
        self.recovery_messages: list[str] = []
        # set by open(): nothing is written (edits and runs refused with READ_ONLY, close folds nothing)
        self.read_only = False

    # ------------------------------------------------------------------ create / open
    @classmethod
    def create(cls, folder: str | Path, *, name: str, kind: str, labels: list[str] | None = None,
               glue_task: str | None = None, colors: dict[str, str] | None = None) -> "Project":
        """Make a new, empty project in ``folder`` (created; must be empty or absent)."""
        check_kind(kind)
        folder = Path(folder)
        problem = project_name_problem(name)
        if problem:
            raise DataError(problem, path=folder, where="name",
                            expected=f"a name of at most {MAX_NAME_CHARS} characters on one line")
        if (folder / PROJECT_FILE).exists():
            raise DataError("a project already exists here", path=folder / PROJECT_FILE,
                            expected="an empty folder for a new project (use Open to open it)")
        if folder.exists() and any(folder.iterdir()):
            raise DataError("the folder is not empty", path=folder, expected="an empty or new folder")
        labels = list(labels or [])
        check_label_names(labels, folder)
        colors = colors or {}
        folder.mkdir(parents=True, exist_ok=True)
        (folder / store.DATA_DIR).mkdir(exist_ok=True)
        (folder / store.RUNS_DIR).mkdir(exist_ok=True)
        meta = {
            "schema_version": SCHEMA_VERSION, "name": name, "kind": kind,
            "labels": [{"name": n, "color": check_color(colors.get(n) or default_color(i), folder), "id": i}
                       for i, n in enumerate(labels)],
            "label_id_next": len(labels), "uid": uuid.uuid4().hex,
            "glue_task": glue_task, "splits": {}, "backups": [], "ui_state": {}, "recent_settings": {},
            "seq": 0, "labels_seq": 0, "data_seq": 0, "generation": new_generation(),
        }
        lock = ProjectLock.acquire(folder)
        try:
            data = write_meta(folder, meta, None)
        except BaseException:
            lock.release()
            raise
        self = cls(folder, meta, data)
        self._lock_file = lock
        self._remember_meta()
        self._journal.remember()
        return self

    @classmethod
    def open(cls, folder: str | Path, *, read_only: bool = False) -> "Project":
        """Open the project in ``folder``, recovering from a crash or a damaged file.

        What was repaired is listed in ``project.recovery_messages`` (empty when
        nothing was). Raises DataError when the folder is not a project, both
        copies of project.json are unusable, the project is from a newer
        bertstudio, or another process has it open (facts ``refusal: open_elsewhere``).
        ``read_only``: open it read-only even where it could be written (nothing is
        written, edits are refused with READ_ONLY); a project opened read-only, by this
        or because its storage cannot be written, shares its lock with other read-only
        viewers and excludes writers (see :mod:`.project_lock`).
        """
        folder = Path(folder)
        try:  # a folder you may not enter, a name too long: OSError, not the False of a missing file
            if os.path.lexists(folder):
                os.stat(folder)  # a symbolic link loop: exists() says False, and it was "not a project"
            if folder.is_file() and folder.name == PROJECT_FILE:
                folder = folder.parent
            found = (folder / PROJECT_FILE).exists() or (folder / BACKUP_FILE).exists()
        except OSError as exc:
            raise DataError(f"the project cannot be opened ({exc.strerror or exc})", path=folder,
                            expected="a project folder you may read and write") from None
        if not found:
            raise DataError("this folder is not a bertstudio project", path=folder / PROJECT_FILE,
                            expected=f"a folder with {PROJECT_FILE}")
        store.refuse_links(folder, (PROJECT_FILE, BACKUP_FILE, JOURNAL_FILE, PREV_JOURNAL_FILE, DATA_DIR,
                                    SPLIT_BACKUP_DIR, store.RUNS_DIR, store.CACHE_DIR))
        # tried, not asked (os.access says yes to root on a read-only mount): a project on a
        # CD or a read-only share opened silently, then popped a box at every label key
        # and its own files tried too: copied off a CD on Windows, each keeps the read-only attribute
        # in a writable folder, and every label key failed with "permission denied".
        # Known before the lock is taken: a read-only viewer shares it (two viewers on a read-only
        # share were refused, one named by a long-gone writer's pid)
        read_only = read_only or not _can_write_in(folder) or not files_writable(folder, (PROJECT_FILE, JOURNAL_FILE))
        lock = ProjectLock.acquire(folder, shared=read_only)
        try:
            if not read_only:  # ours to remove only while we hold the lock alone (a viewer writes nothing)
                store.remove_write_leftovers(folder)
            meta_sig = file_sig(folder / PROJECT_FILE)  # before the read: a change meanwhile is seen later
            loaded = load_meta(folder)
            self = cls(folder, loaded.meta, loaded.raw)
            self._lock_file = lock
            self._meta_sig = meta_sig
            self.read_only = read_only
            self.recovery_messages.extend(loaded.messages)
            if loaded.from_backup and not self.read_only:  # rows written after the backup: kept, never deleted as unused
                self.recovery_messages.extend(self._keep_unnamed_data())
            elif loaded.from_backup:  # kept where it can be written; here only said, and never deleted
                self.recovery_messages.extend(self._unnamed_data_said())
            self._replay(from_backup=loaded.from_backup)
            self.recovery_messages.extend(self._restore_used_labels())
            if loaded.rewrite and not self.read_only:  # upgraded or restored: write the good state back now
                self._commit_meta(self._meta_copy())
        except OSError as exc:
            lock.release()
            raise DataError(f"the project cannot be opened ({exc.strerror or exc})", path=folder,
                            expected="a project folder you may read and write") from None
        except BaseException:
            lock.release()
            raise
        return self

    # ------------------------------------------------------------------ basic facts (more in MetaState)
    @property
    def pending_edits(self) -> int:
        """Journal entries not yet folded into the data files."""
        return self._pending

    @property
    def last_seq(self) -> int:
        """Sequence number of the last journaled edit."""
        return self._seq

    # ------------------------------------------------------------------ listeners
    def subscribe(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(event_dict)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def _emit(self, **event: Any) -> None:
        for callback in list(self._listeners):
            try:
                callback(dict(event))
            except Exception:  # a broken view must not make a saved edit look failed
                log.exception("project listener %r failed on %s", callback, event.get("kind"))

    # ------------------------------------------------------------------ rows and gold values
    def _split(self, split: str) -> pa.Table:
        if split not in SPLITS:
            raise DataError(f"unknown split {split!r}", path=self.folder, expected=" | ".join(SPLITS))
        table = self._tables.get(split)
        if table is None:
            if split not in self._meta["splits"]:
                return store.empty_table(self.kind)
            table = store.read_table(store.split_file(self.folder, self._meta, split), self.kind)
            self._remember_data(self._meta["splits"][split]["file"])
            self._tables[split] = table
        return table

    def _check_row(self, split: str, row: int) -> int:
        """``row`` as a plain int (numpy ints accepted) after checking it is a row of ``split``."""
        n = self._split(split).num_rows
        row = operator.index(row)
        if not 0 <= row < n:
            raise IndexError(f"row {row} out of range for split {split!r} with {n} rows")
        return row

    def num_rows(self, split: str) -> int:
        return self._split(split).num_rows

    def gold(self, split: str, row: int) -> Any:
        """The gold value of one row (None = unlabelled), edits applied."""
        with self._lock:
            row = self._check_row(split, row)
            # a copy: a caller editing a tag list must not edit the overlay behind the journal
            return copy.deepcopy(self._overlay.current(split, self._split(split), row))

    def row(self, split: str, row: int) -> dict[str, Any]:
        """All columns of one row as plain Python values, edits applied (microseconds, any size)."""
        with self._lock:
            row = self._check_row(split, row)
            table = self._split(split)
            out = {name: table.column(name)[row].as_py() for name in table.column_names}
            out[self._overlay.gold] = self.gold(split, row)
            return out

    def set_gold(self, split: str, row: int, value: Any) -> Any:
        """Set (``value``) or clear (``None``) the gold value of one row; returns the previous value.

        Values by kind: a label name (sentence, pair), a float (regression), a list
        of tags one per token (tagging), ``{"text": [...], "answer_start": [...]}``
        (QA; empty lists = no answer). The edit is on disk when this returns.
        """
        with self._lock:
            self._check_open()
            row = self._check_row(split, row)
            value = get_spec(self.kind).gold.check(value, self.labels, lambda: self.row(split, row),
                                                   f"{split} row {row}", self.folder)
            previous = self.gold(split, row)
            self._append({"op": "gold", "split": split, "row": row, "value": value})
            self._overlay.set(split, self._split(split), row, value)
            self._bump(split)
        self._emit(kind="gold_changed", split=split, row=row, value=value, previous=previous)
        return previous

    def clear_gold(self, split: str, row: int) -> Any:
        """Make a row unlabelled again; returns the previous value."""
        return self.set_gold(split, row, None)

    def label_counts(self, split: str) -> dict[str, int]:
        """How often each label is used in ``split`` (edits applied).

        Sentence/pair: rows per label (every label listed, 0 included). Tagging:
        tokens per tag. QA: ``{"answer": n, "no_answer": m}``. Regression: {}.
        """
        with self._lock:
            return self._overlay.label_counts(split, self._split(split), self.labels)

    def progress(self, split: str) -> tuple[int, int]:
        """``(labelled rows, total rows)`` of ``split``, edits applied."""
        with self._lock:
            table = self._split(split)
            return self._overlay.labelled(split, table), table.num_rows

    def _bump(self, *splits: str) -> None:
        for split in splits or SPLITS:
            self._versions[split] += 1

    # ------------------------------------------------------------------ journal, meta, compaction
    def _check_writable(self) -> None:
        if self.read_only:
            raise DataError(READ_ONLY, path=self.folder, facts={"refusal": "read_only"})

    def _append(self, body: dict[str, Any]) -> None:
        self._check_writable()
        self._check_outside()  # two stats: project.json and the journal as this process left them
        seq = self._seq + 1
        try:
            self._journal.append({"seq": seq, **body})
        except OSError as exc:  # the reason's own remedy: a renamed folder was "expected free disk space"
            raise disk_error(exc, self._journal.path, "the edit could not be saved", folder=self.folder,
                             journal=False) from exc
        self._seq = seq
        self._pending += 1

    def _remove_unused(self, *, closing: bool = False) -> None:
        if self.read_only:  # nothing is deleted here: an unnamed file may be the only copy of newer rows
            return
        if self.changed_outside() is not None:  # a file another program's project.json names: never ours to delete
            return
        in_use = set() if closing else self._handed_out
        store.remove_unused(self.folder, self._meta, store.read_backup_meta(self.folder), in_use)

    def save_ui_state(self) -> None:
        """Write :attr:`ui_state` and :attr:`recent_settings` to project.json (atomic, a few fsyncs:
        call it on page changes or close, not on every cursor move)."""
        with self._lock:
            self._check_open()
            self._check_writable()
            self._commit_meta(self._meta_copy())
        self._emit(kind="ui_state_saved")

    def compact(self, *, force: bool = False) -> None:
        """Fold the journal into the data files (crash-safe at every step; a no-op when nothing is pending).

        1. write each changed split as a new Arrow file and fsync it;
        2. commit by rewriting project.json atomically (new files, ``data_seq``);
        3. rotate the journal to ``labels.journal.prev``; 4. delete unused data files.
        A crash before 2 leaves the old files + the full journal; after 2 the
        journal's entries are all at or below ``data_seq`` and are skipped. A
        failed write before 2 (disk full, read-only folder) removes what it wrote,
        leaves the journal untouched and raises DataError.
        """
        with self._lock:
            self._check_open()
            if self._pending == 0 and not self._overlay.rename and not force:
                return
            self._check_writable()
            self._check_outside(deep=True)  # nothing folded over another program's files
            changed = [s for s in self.split_names if self._overlay.dirty(s)]
            meta = self._meta_copy()
            # a new generation: the journal started after this names it (project_replay tells a copy's)
            meta["generation"], meta["folded_journal"] = new_generation(), self._journal.id
            meta.pop("journal", None)
            written: list[Path] = []
            try:
                for split in changed:
                    table = self._split(split)
                    gold = self._overlay.gold
                    table = table.set_column(table.column_names.index(gold), table.schema.field(gold),
                                             self._overlay.column(split, table))
                    written.append(store.write_split(self.folder, split, self._seq, table))
                    meta["splits"][split]["file"] = written[-1].relative_to(self.folder).as_posix()
                    self._remember_data(meta["splits"][split]["file"])  # ours: a name may be used again
                meta["data_seq"] = meta["labels_seq"] = self._seq
                self._commit_meta(meta)
            except (OSError, DataError) as exc:
                for path in written:  # not committed: nothing names them
                    path.unlink(missing_ok=True)
                if isinstance(exc, DataError):
                    raise
                raise disk_error(exc, self.folder, "the edits could not be saved into the data files",
                                 folder=self.folder) from exc
            try:
                self._journal.rotate(self.folder / PREV_JOURNAL_FILE, base=self._meta["generation"])
            except OSError as exc:  # committed already: the old entries are all at or below data_seq
                log.warning("the journal was not rotated after a compaction: %s", exc)
            for split in changed:
                self._overlay.reset(split)
                self._tables.pop(split, None)
                self._bump(split)
            self._overlay.rename = {}
            self._pending = 0
            self._remove_unused()
        self._emit(kind="compacted")

    def compact_if_large(self, threshold: int = COMPACT_AFTER) -> bool:
        """Compact when at least ``threshold`` edits are pending (for an idle timer); True if it did."""
        # (an idle timer's slot: never raises READ_ONLY, nor the refusal after an outside change: the next edit says it)
        if self._pending >= threshold and not self.read_only and self.changed_outside() is None:
            self.compact()
            return True
        return False

    # ------------------------------------------------------------------ runs
    @property
    def runs_dir(self) -> Path:
        return self.folder / store.RUNS_DIR

    def new_run_dir(self, name: str) -> Path:
        """Create and return ``runs/<name>`` (``name-2``, ``name-3``... when taken); DataError when it cannot."""
        self._check_writable()
        return store.new_run_dir(self.runs_dir, name)

    def list_runs(self) -> list[Path]:
        """Run folders, oldest first."""
        return store.list_runs(self.runs_dir)

    # ------------------------------------------------------------------ closing
    def _check_open(self) -> None:
        if self._closed:
            raise DataError("the project is closed", path=self.folder)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self, *, compact: bool = True) -> None:
        """Fold pending edits (unless ``compact=False``) and release the files. Idempotent.

        When the edits cannot be folded (full disk, read-only folder) the project
        is still closed, its journal intact, and the DataError is raised afterwards
        so the caller can say so: the next open replays the journal.
        """
        if self._closed:
            return
        failed: DataError | None = None
        # read-only: the journal's edits came with the folder (made where it was written); they are
        # folded there, and closing here has nothing of its own to report
        if compact and not self.read_only:
            try:
                self.compact()
            except DataError as exc:
                failed = exc
        with self._lock:
            self._journal.close()
            self._tables.clear()
            self._examples_cache.clear()
            if self._handed_out and failed is None:
                self._remove_unused(closing=True)
            self._closed = True
            if self._lock_file is not None:
                self._lock_file.release()
                self._lock_file = None
        if failed is not None:
            raise failed

    def __enter__(self) -> "Project":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Project({str(self.folder)!r}, kind={self.kind!r}, splits={self.split_names})"
