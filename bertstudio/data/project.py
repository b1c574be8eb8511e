"""A labelling project on disk: one folder, never loses an acknowledged edit.

Layout of a project folder::

    project.json            name, kind, label set (+ colours), GLUE task, splits, UI state
    project.json.bak        the previous good project.json (recovery)
    data/<split>-<seq>.arrow  the rows of each split (Arrow IPC stream, memory-mapped)
    labels.journal          gold edits and label-set edits since the last compaction
    labels.journal.prev     the journal folded by the last compaction (recovery)
    runs/<name>/            training runs (written by the engine)

How edits are stored: the Arrow files are written once per import or compaction
and never rewritten per edit. :meth:`Project.set_gold` appends one checksummed line
to ``labels.journal`` and fsyncs it (about a millisecond, whatever the size of the
split) and keeps the value in an in-memory overlay that every read applies.
:meth:`Project.compact` folds the overlay into new Arrow files (written next to
the old ones, fsynced, then committed by the atomic rewrite of ``project.json``)
and then rotates the journal. ``project.json`` records the journal sequence number
its label set (``labels_seq``) and the data files (``data_seq``) already contain,
so replaying the journal after a crash at any moment is exact.

Recovery on open (see :attr:`Project.recovery_messages`): a torn last journal line
is dropped with a message; a damaged ``project.json`` is replaced by its backup
and the journals are replayed on top; a file from a newer bertstudio is refused
with a DataError. A schema-1 project is upgraded.

Usage::

    project = Project.create(folder, name="reviews", kind="sentence", labels=["neg", "pos"])
    project.import_examples(load_examples("train.tsv"), "train")
    old = project.set_gold("train", 12, "pos")      # journaled; `old` lets the GUI undo
    project.examples("train")                       # ExampleSet, edits applied
    project.close()                                 # compacts

Public API (all errors a user can act on are DataError/ConfigError naming the file):

- ``Project.create(folder, *, name, kind, labels=None, glue_task=None, colors=None)``,
  ``Project.open(folder)`` -> Project; ``recovery_messages: list[str]`` says what open repaired.
- facts: ``folder, name, kind, glue_task, labels, label_colors, split_names, split_info,
  ui_state`` (dict) + ``recent_settings`` (dict) saved by ``save_ui_state()``; ``pending_edits``.
- rows: ``num_rows(split)``, ``row(split, i) -> dict``, ``gold(split, i)``,
  ``set_gold(split, i, value) -> previous`` (None clears), ``clear_gold``,
  ``label_counts(split)``, ``progress(split) -> (labelled, total)``, ``examples(split) -> ExampleSet``.
- splits: ``import_examples(examples, split="train", *, replace=True)``, ``export(split, path, fmt)``.
- labels: ``add_label(name, color=None)``, ``rename_label(old, new)``, ``set_label_color(name, color)``,
  ``remove_label(name)`` (refused while used).
- runs: ``runs_dir``, ``new_run_dir(name) -> Path``, ``list_runs() -> list[Path]``.
- ``subscribe(callback) -> unsubscribe``, ``compact()``, ``compact_if_large()``, ``close(compact=True)``;
  a Project is a context manager. One process at a time may hold a project open (OS lock).

Change events (plain dicts, see :meth:`Project.subscribe`): ``gold_changed``
(split, row, value, previous), ``labels_changed`` (op, and renamed/old/new for a
rename), ``split_imported`` (split), ``compacted``, ``ui_state_saved``.
"""

from __future__ import annotations

import copy
import logging
import operator
import re
import threading
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data import project_store as store
from bertstudio.data.examples import FEATURES, GOLD_COLUMN, check_kind
from bertstudio.data.journal import Journal, read_journal
from bertstudio.data.project_lock import ProjectLock
from bertstudio.data.project_meta import (
    BACKUP_FILE,
    PROJECT_FILE,
    SCHEMA_VERSION,
    default_color,
    load_meta,
    write_meta,
)
from bertstudio.data.project_values import check_gold, rename_value
from bertstudio.errors import ConfigError, DataError

if TYPE_CHECKING:
    from bertstudio.data.examples import ExampleSet

__all__ = ["Project", "SPLITS", "SCHEMA_VERSION"]

SPLITS: tuple[str, ...] = ("train", "dev", "test")
JOURNAL_FILE = "labels.journal"
PREV_JOURNAL_FILE = "labels.journal.prev"
# close() always compacts; compact_if_large() (GUI idle timer) folds once the journal holds this many edits
COMPACT_AFTER = 20_000
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]


class Project:
    """An open project folder. Create with :meth:`create` or :meth:`open`, finish with :meth:`close`."""

    def __init__(self, folder: Path, meta: dict[str, Any], meta_bytes: bytes | None) -> None:
        # use create()/open(); the constructor only wires state
        self.folder = folder
        self._meta = meta
        self._meta_bytes = meta_bytes
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._tables: dict[str, pa.Table] = {}
        self._overlay: dict[str, dict[int, Any]] = {s: {} for s in SPLITS}
        self._delta: dict[str, Counter] = {s: Counter() for s in SPLITS}  # label counts: overlay minus base
        self._labelled_delta: dict[str, int] = {s: 0 for s in SPLITS}
        self._rename: dict[str, str] = {}  # base-file label -> current name, for renames not yet compacted
        self._base_counts: dict[str, tuple[Counter, int]] = {}
        # bumped on every change of a split's rows or labels, so examples() can reuse what it built
        self._versions: dict[str, int] = {s: 0 for s in SPLITS}
        self._examples_cache: dict[str, tuple[int, Any]] = {}
        self._handed_out: set[str] = set()  # data files behind ExampleSets given out: kept until close
        self._seq = int(meta.get("seq", 0))
        self._journal = Journal(folder / JOURNAL_FILE)
        self._pending = 0  # journal entries not yet folded into the data files
        self._closed = False
        self._lock_file: ProjectLock | None = None
        self.recovery_messages: list[str] = []

    # ------------------------------------------------------------------ create / open
    @classmethod
    def create(cls, folder: str | Path, *, name: str, kind: str, labels: list[str] | None = None,
               glue_task: str | None = None, colors: dict[str, str] | None = None) -> "Project":
        """Make a new, empty project in ``folder`` (created; must be empty or absent)."""
        check_kind(kind)
        folder = Path(folder)
        if (folder / PROJECT_FILE).exists():
            raise DataError("a project already exists here", path=folder / PROJECT_FILE,
                            expected="an empty folder for a new project (use Open to open it)")
        if folder.exists() and any(folder.iterdir()):
            raise DataError("the folder is not empty", path=folder, expected="an empty or new folder")
        labels = list(labels or [])
        _check_label_names(labels, folder)
        colors = colors or {}
        folder.mkdir(parents=True, exist_ok=True)
        (folder / store.DATA_DIR).mkdir(exist_ok=True)
        (folder / store.RUNS_DIR).mkdir(exist_ok=True)
        meta = {
            "schema_version": SCHEMA_VERSION, "name": name, "kind": kind,
            "labels": [{"name": n, "color": _check_color(colors.get(n) or default_color(i), folder)}
                       for i, n in enumerate(labels)],
            "glue_task": glue_task, "splits": {}, "ui_state": {}, "recent_settings": {},
            "seq": 0, "labels_seq": 0, "data_seq": 0,
        }
        lock = ProjectLock.acquire(folder)
        data = write_meta(folder, meta, None)
        self = cls(folder, meta, data)
        self._lock_file = lock
        return self

    @classmethod
    def open(cls, folder: str | Path) -> "Project":
        """Open the project in ``folder``, recovering from a crash or a damaged file.

        What was repaired is listed in ``project.recovery_messages`` (empty when
        nothing was). Raises DataError when the folder is not a project, both
        copies of project.json are unusable, or the project is from a newer bertstudio.
        """
        folder = Path(folder)
        if folder.is_file() and folder.name == PROJECT_FILE:
            folder = folder.parent
        if not (folder / PROJECT_FILE).exists() and not (folder / BACKUP_FILE).exists():
            raise DataError("this folder is not a bertstudio project", path=folder / PROJECT_FILE,
                            expected=f"a folder with {PROJECT_FILE}")
        lock = ProjectLock.acquire(folder)
        try:
            loaded = load_meta(folder)
            check_kind(loaded.meta["kind"])
            self = cls(folder, loaded.meta, loaded.raw)
            self._lock_file = lock
            self.recovery_messages.extend(loaded.messages)
            self._replay(from_backup=loaded.from_backup)
            if loaded.rewrite:  # upgraded or restored: write the good state back now
                self._write_meta()
        except BaseException:
            lock.release()
            raise
        return self

    def _replay(self, from_backup: bool) -> None:
        """Apply the journal entries newer than what project.json and the data files hold."""
        jr = read_journal(self.folder / JOURNAL_FILE)
        entries = jr.entries
        self.recovery_messages.extend(jr.messages)
        if from_backup:  # the backup may predate the last compaction: its edits are in the rotated journal
            prev = read_journal(self.folder / PREV_JOURNAL_FILE)
            seen = {e["seq"] for e in entries}
            entries = sorted([e for e in prev.entries if e["seq"] not in seen] + entries, key=lambda e: e["seq"])
        for split, info in self._meta["splits"].items():
            path = store.split_file(self.folder, self._meta, split)
            if not path.exists():
                raise DataError(f"the data file of split {split!r} is missing", path=path,
                                expected="the file named in project.json")
            rows = self._split(split).num_rows  # memory-mapping is cheap: check every split now, not mid-session
            if rows != info.get("rows", rows):
                raise DataError(f"the data file has {rows} rows, project.json says {info['rows']}", path=path,
                                expected="the data file written with this project.json")
        labels_seq, data_seq = self._meta["labels_seq"], self._meta["data_seq"]
        for entry in entries:
            seq = entry["seq"]
            self._seq = max(self._seq, seq)
            if seq > labels_seq:
                self._apply_label_op(entry)
            if seq > data_seq:
                problem = self._entry_problem(entry)
                if problem:
                    self.recovery_messages.append(f"{JOURNAL_FILE}: edit {seq} skipped ({problem})")
                    continue
                self._apply_data_op(entry)
                self._pending += 1
        if jr.file_size > jr.good_size:
            self._journal.truncate(jr.good_size)  # cut the torn tail so the next edit starts a clean line
        self._meta["labels_seq"] = self._seq
        if jr.damaged or self._pending >= COMPACT_AFTER:
            # fold now: damage is then reported once, not at every open, and replay stays short
            self.compact(force=True)

    def _entry_problem(self, entry: dict[str, Any]) -> str | None:
        """Why a (checksum-valid) journal entry cannot apply to this project, or None."""
        if entry["op"] != "gold":
            return None
        split, row = entry.get("split"), entry.get("row")
        if split not in SPLITS or split not in self._meta["splits"]:
            return f"unknown split {split!r}"
        if not isinstance(row, int) or not 0 <= row < self._split(split).num_rows:
            return f"row {row!r} is out of range"
        return None

    # ------------------------------------------------------------------ basic facts
    @property
    def name(self) -> str:
        return self._meta["name"]

    @property
    def kind(self) -> str:
        return self._meta["kind"]

    @property
    def glue_task(self) -> str | None:
        return self._meta.get("glue_task")

    @property
    def labels(self) -> list[str]:
        """Label names in id order (the order the model's head uses)."""
        return [item["name"] for item in self._meta["labels"]]

    @property
    def label_colors(self) -> dict[str, str]:
        return {item["name"]: item["color"] for item in self._meta["labels"]}

    @property
    def split_names(self) -> list[str]:
        """Splits that hold rows, in train/dev/test order."""
        return [s for s in SPLITS if s in self._meta["splits"]]

    @property
    def split_info(self) -> dict[str, dict[str, Any]]:
        """Per split: rows, source file, when imported (a copy)."""
        return {s: dict(v) for s, v in self._meta["splits"].items()}

    @property
    def ui_state(self) -> dict[str, Any]:
        """A free dict the GUI fills (current split/row, column widths...); saved by :meth:`save_ui_state`."""
        return self._meta["ui_state"]

    @property
    def recent_settings(self) -> dict[str, Any]:
        """The last training settings used in this project (a free dict, saved with the UI state)."""
        return self._meta["recent_settings"]

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
            table = store.read_table(store.split_file(self.folder, self._meta, split))
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

    def _base_gold(self, split: str, row: int) -> Any:
        value = self._split(split).column(GOLD_COLUMN[self.kind])[row].as_py()
        return rename_value(self.kind, value, self._rename) if self._rename else value

    def _current_gold(self, split: str, row: int) -> Any:
        overlay = self._overlay[split]
        return overlay[row] if row in overlay else self._base_gold(split, row)

    def gold(self, split: str, row: int) -> Any:
        """The gold value of one row (None = unlabelled), edits applied."""
        with self._lock:
            row = self._check_row(split, row)
            # a copy: a caller editing a tag list must not edit the overlay behind the journal
            return copy.deepcopy(self._current_gold(split, row))

    def row(self, split: str, row: int) -> dict[str, Any]:
        """All columns of one row as plain Python values, edits applied (microseconds, any size)."""
        with self._lock:
            row = self._check_row(split, row)
            table = self._split(split)
            out = {name: table.column(name)[row].as_py() for name in table.column_names}
            out[GOLD_COLUMN[self.kind]] = self.gold(split, row)
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
            value = check_gold(self.kind, value, self.labels, lambda: self.row(split, row), self.folder,
                               f"{split} row {row}")
            previous = self.gold(split, row)
            entry = {"op": "gold", "split": split, "row": row, "value": value}
            self._append(entry)
            self._apply_data_op(entry)
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
            table = self._split(split)
            base, _ = self._base_stats(split, table)
            counts: Counter = Counter()
            for raw, n in base.items():
                counts[self._rename.get(raw, raw)] += n
            counts.update(self._delta[split])  # what the overlay changed, kept up to date per edit
            if self.kind == "regression":
                return {}
            if self.kind == "qa":
                return {"answer": counts["answer"], "no_answer": counts["no_answer"]}
            out = {name: counts.get(name, 0) for name in self.labels}
            out.update({k: v for k, v in counts.items() if k not in out and v})
            return out

    def progress(self, split: str) -> tuple[int, int]:
        """``(labelled rows, total rows)`` of ``split``, edits applied."""
        with self._lock:
            table = self._split(split)
            _, labelled = self._base_stats(split, table)
            return labelled + self._labelled_delta[split], table.num_rows

    def _count_keys(self, value: Any) -> list[str]:
        if value is None:
            return []
        if self.kind in ("sentence", "pair"):
            return [value]
        if self.kind == "tagging":
            return list(value)
        if self.kind == "qa":
            return ["answer" if value["text"] else "no_answer"]
        return []

    def _base_stats(self, split: str, table: pa.Table) -> tuple[Counter, int]:
        """Counts of the raw values in the data file and its labelled rows (cached: the file never changes)."""
        if split not in self._base_counts:
            column = table.column(GOLD_COLUMN[self.kind])
            counts: Counter = Counter()
            if self.kind in ("sentence", "pair"):
                for item in pc.value_counts(column).to_pylist():
                    if item["values"] is not None:
                        counts[item["values"]] = item["counts"]
            elif self.kind == "tagging" and table.num_rows:
                for item in pc.value_counts(pc.list_flatten(column)).to_pylist():
                    counts[item["values"]] = item["counts"]
            elif self.kind == "qa" and table.num_rows:
                valid = pc.drop_null(column)
                lengths = pc.list_value_length(pc.struct_field(valid, "text")).to_numpy(zero_copy_only=False)
                counts["answer"] = int((lengths > 0).sum())
                counts["no_answer"] = int((lengths == 0).sum())
            self._base_counts[split] = (counts, len(column) - column.null_count)
        return self._base_counts[split]

    # ------------------------------------------------------------------ whole splits
    def examples(self, split: str) -> "ExampleSet":
        """The split as an ExampleSet, edits applied (memory-mapped; a copy of one column when edited).

        Building it reads the whole gold column when there are unfolded edits; the
        GUI's table models should use :meth:`row` / :meth:`num_rows` instead.
        """
        from bertstudio.data.examples import ExampleSet

        with self._lock:
            self._split(split)
            cached = self._examples_cache.get(split)
            if cached is not None and cached[0] == self._versions[split]:
                return cached[1]
            if split in self._meta["splits"]:
                path = store.split_file(self.folder, self._meta, split)
                dataset = store.open_dataset(path)
                self._handed_out.add(path.name)
                if self._overlay[split] or self._rename:
                    gold = GOLD_COLUMN[self.kind]
                    dataset = dataset.remove_columns([gold]).add_column(
                        gold, self._gold_column(split), feature=FEATURES[self.kind][gold])
            else:
                dataset = store.empty_dataset(self.kind)
            info = self._meta["splits"].get(split, {})
            meta = {"split": split, "project": str(self.folder)}
            if self.glue_task:
                meta["glue_task"] = self.glue_task
            examples = ExampleSet(self.kind, dataset, self.labels, info.get("source"), meta)
            self._examples_cache[split] = (self._versions[split], examples)
            return examples

    def _gold_column(self, split: str) -> pa.Array:
        """The split's whole gold column with renames and the overlay applied."""
        table = self._split(split)
        column = table.column(GOLD_COLUMN[self.kind])
        values = column.to_pylist()
        if self._rename:
            values = [rename_value(self.kind, v, self._rename) for v in values]
        for row, value in self._overlay[split].items():
            values[row] = value
        return pa.array(values, type=column.type)

    def import_examples(self, examples: "ExampleSet", split: str = "train", *, replace: bool = True) -> None:
        """Store ``examples`` as ``split`` (``replace=False`` appends them after the existing rows).

        Labels found in the data that the project does not have yet are added to
        the label set (in the order of ``examples.labels``). Pending edits are
        folded first, so nothing journaled is lost by a replace.
        """
        if examples.kind != self.kind:
            raise DataError(f"cannot import {examples.kind} examples into a {self.kind} project",
                            path=examples.source or self.folder, expected=f"{self.kind} examples")
        self._split(split)
        with self._lock:
            self._check_open()
            self.compact()
            table = store.table_of(examples)
            if not replace and split in self._meta["splits"]:
                old = self._split(split)
                if set(table.column_names) != set(old.column_names):
                    raise DataError(f"the new rows have columns {table.column_names}, {split} has "
                                    f"{old.column_names}", path=examples.source or self.folder,
                                    expected="the same columns to append (or replace the split)")
                table = pa.concat_tables([old, table.select(old.column_names).cast(old.schema)])
            new_labels = [n for n in list(examples.labels) + store.labels_in(self.kind, table)
                          if n not in self.labels and self.kind in ("sentence", "pair", "tagging")]
            for name in dict.fromkeys(new_labels):
                self._meta["labels"].append({"name": name, "color": default_color(len(self._meta["labels"]))})
            path = store.write_split(self.folder, split, self._seq, table)
            self._meta["splits"][split] = {
                "file": path.relative_to(self.folder).as_posix(), "rows": table.num_rows,
                "source": examples.source if replace else self._meta["splits"].get(split, {}).get("source"),
                "imported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            }
            self._meta["data_seq"] = self._seq
            self._reset_overlay(split)  # empty already: compact() folded it
            self._tables.pop(split, None)
            self._base_counts.pop(split, None)
            self._bump()  # this split's rows, and maybe every split's label list
            self._write_meta()
            self._remove_unused()
        self._emit(kind="split_imported", split=split)
        if new_labels:
            self._emit(kind="labels_changed", op="import", added=list(dict.fromkeys(new_labels)))

    def export(self, split: str, path: str | Path, fmt: str = "auto", **kwargs: Any) -> None:
        """Write ``split`` (edits applied) with the format writers of :mod:`bertstudio.data.io`."""
        from bertstudio.data.io import save_examples

        save_examples(self.examples(split), path, fmt=fmt, **kwargs)

    # ------------------------------------------------------------------ the label set
    def add_label(self, name: str, color: str | None = None) -> None:
        """Append a label (its id is the next one); ``color`` is ``#rrggbb`` (default: the palette)."""
        self._label_kind_check("add a label")
        _check_label_names(self.labels + [name], self.folder)
        color = _check_color(color or default_color(len(self.labels)), self.folder)
        self._label_op({"op": "add_label", "name": name, "color": color})

    def rename_label(self, old: str, new: str) -> None:
        """Rename a label everywhere: the label set and every gold value that uses it (journaled)."""
        self._label_kind_check("rename a label")
        self._require_label(old)
        if new == old:
            return
        _check_label_names([n for n in self.labels if n != old] + [new], self.folder)
        self._label_op({"op": "rename_label", "old": old, "new": new})

    def set_label_color(self, name: str, color: str) -> None:
        self._require_label(name)
        self._label_op({"op": "set_color", "name": name, "color": _check_color(color, self.folder)})

    def remove_label(self, name: str) -> None:
        """Remove a label no gold value uses (raises DataError naming where it is still used)."""
        self._require_label(name)
        used = {s: self.label_counts(s).get(name, 0) for s in self.split_names}
        used = {s: n for s, n in used.items() if n}
        if used:
            where = ", ".join(f"{n} in {s}" for s, n in used.items())
            raise DataError(f"label {name!r} is still used ({where})", path=self.folder / PROJECT_FILE,
                            where="labels", expected="relabel or clear those rows first, or rename the label")
        self._label_op({"op": "remove_label", "name": name})

    def _label_kind_check(self, what: str) -> None:
        if self.kind not in ("sentence", "pair", "tagging"):
            raise ConfigError(f"cannot {what}: a {self.kind} project has no label set",
                              path=self.folder / PROJECT_FILE, where="labels")

    def _require_label(self, name: str) -> None:
        if name not in self.labels:
            raise DataError(f"no label named {name!r}", path=self.folder / PROJECT_FILE, where="labels",
                            expected="one of " + ", ".join(map(repr, self.labels)))

    def _label_op(self, op: dict[str, Any]) -> None:
        with self._lock:
            self._check_open()
            self._append(op)
            self._apply_label_op(op)
            self._apply_data_op(op)
            self._meta["labels_seq"] = self._seq
            self._write_meta()
        event = {"op": op["op"]}
        if op["op"] == "rename_label":
            event.update(old=op["old"], new=op["new"])
        else:
            event["name"] = op["name"]
        self._emit(kind="labels_changed", **event)

    def _apply_label_op(self, op: dict[str, Any]) -> None:
        labels = self._meta["labels"]
        names = [item["name"] for item in labels]
        kind = op["op"]
        if kind == "add_label" and op["name"] not in names:
            labels.append({"name": op["name"], "color": op["color"]})
        elif kind == "rename_label" and op["old"] in names and op["new"] not in names:
            labels[names.index(op["old"])]["name"] = op["new"]
        elif kind == "set_color" and op["name"] in names:
            labels[names.index(op["name"])]["color"] = op["color"]
        elif kind == "remove_label" and op["name"] in names:
            del labels[names.index(op["name"])]

    def _reset_overlay(self, split: str) -> None:
        self._overlay[split] = {}
        self._delta[split] = Counter()
        self._labelled_delta[split] = 0

    def _bump(self, *splits: str) -> None:
        for split in splits or SPLITS:
            self._versions[split] += 1

    def _apply_data_op(self, op: dict[str, Any]) -> None:
        self._bump(*([op["split"]] if op["op"] == "gold" else []))
        if op["op"] == "gold":
            split, row, value = op["split"], op["row"], op["value"]
            previous = self._current_gold(split, row)
            # keep label_counts()/progress() O(labels), not O(edits), however long the session
            self._delta[split].subtract(self._count_keys(previous))
            self._delta[split].update(self._count_keys(value))
            self._labelled_delta[split] += (value is not None) - (previous is not None)
            self._overlay[split][row] = value
        elif op["op"] == "rename_label" and self.kind in ("sentence", "pair", "tagging"):
            old, new = op["old"], op["new"]
            # compose with earlier renames: base values that currently read `old` now read `new`
            self._rename = {raw: (new if cur == old else cur) for raw, cur in self._rename.items()}
            self._rename.setdefault(old, new)
            single = {old: new}
            for delta in self._delta.values():
                if old in delta:
                    delta[new] += delta.pop(old)
            for overlay in self._overlay.values():
                for row, value in overlay.items():
                    overlay[row] = rename_value(self.kind, value, single)

    # ------------------------------------------------------------------ journal, meta, compaction
    def _append(self, body: dict[str, Any]) -> None:
        seq = self._seq + 1
        try:
            self._journal.append({"seq": seq, **body})
        except OSError as exc:
            raise DataError(f"the edit could not be saved ({exc.strerror or exc})", path=self._journal.path,
                            expected="free disk space and write access to the project folder") from exc
        self._seq = seq
        self._pending += 1

    def _remove_unused(self, *, closing: bool = False) -> None:
        in_use = set() if closing else self._handed_out
        store.remove_unused(self.folder, self._meta, store.read_backup_meta(self.folder), in_use)

    def _write_meta(self) -> None:
        self._meta["seq"] = self._seq
        self._meta_bytes = write_meta(self.folder, self._meta, self._meta_bytes)

    def save_ui_state(self) -> None:
        """Write :attr:`ui_state` and :attr:`recent_settings` to project.json (atomic, a few fsyncs:
        call it on page changes or close, not on every cursor move)."""
        with self._lock:
            self._check_open()
            self._write_meta()
        self._emit(kind="ui_state_saved")

    def compact(self, *, force: bool = False) -> None:
        """Fold the journal into the data files (crash-safe at every step; a no-op when nothing is pending).

        1. write each changed split as a new Arrow file and fsync it;
        2. commit by rewriting project.json atomically (new files, ``data_seq``);
        3. rotate the journal to ``labels.journal.prev``; 4. delete unused data files.
        A crash before 2 leaves the old files + the full journal; after 2 the
        journal's entries are all at or below ``data_seq`` and are skipped.
        """
        with self._lock:
            self._check_open()
            if self._pending == 0 and not self._rename and not force:
                return
            changed = [s for s in self.split_names if self._overlay[s] or self._rename]
            for split in changed:
                table = self._split(split)
                gold = GOLD_COLUMN[self.kind]
                table = table.set_column(table.column_names.index(gold), table.schema.field(gold),
                                         self._gold_column(split))
                path = store.write_split(self.folder, split, self._seq, table)
                self._meta["splits"][split]["file"] = path.relative_to(self.folder).as_posix()
            self._meta["data_seq"] = self._seq
            self._meta["labels_seq"] = self._seq
            self._write_meta()
            self._journal.rotate(self.folder / PREV_JOURNAL_FILE)
            for split in changed:
                self._reset_overlay(split)
                self._tables.pop(split, None)
                self._base_counts.pop(split, None)
                self._bump(split)
            self._rename = {}
            self._pending = 0
            self._remove_unused()
        self._emit(kind="compacted")

    def compact_if_large(self, threshold: int = COMPACT_AFTER) -> bool:
        """Compact when at least ``threshold`` edits are pending (for an idle timer); True if it did."""
        if self._pending >= threshold:
            self.compact()
            return True
        return False

    # ------------------------------------------------------------------ runs
    @property
    def runs_dir(self) -> Path:
        return self.folder / store.RUNS_DIR

    def new_run_dir(self, name: str) -> Path:
        """Create and return ``runs/<name>`` (``name-2``, ``name-3``... when taken)."""
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
        """Fold pending edits (unless ``compact=False``) and release the files. Idempotent."""
        if self._closed:
            return
        if compact:
            self.compact()
        with self._lock:
            self._journal.close()
            self._tables.clear()
            self._examples_cache.clear()
            if self._handed_out:
                self._remove_unused(closing=True)
            self._closed = True
            if self._lock_file is not None:
                self._lock_file.release()
                self._lock_file = None

    def __enter__(self) -> "Project":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Project({str(self.folder)!r}, kind={self.kind!r}, splits={self.split_names})"


def _check_label_names(names: list[str], folder: Path) -> None:
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise DataError(f"label name {name!r} is empty", path=folder / PROJECT_FILE, where="labels",
                            expected="a non-empty name")
        if name in seen:
            raise DataError(f"label {name!r} appears twice", path=folder / PROJECT_FILE, where="labels",
                            expected="unique label names")
        seen.add(name)


def _check_color(color: str, folder: Path) -> str:
    if not isinstance(color, str) or not _COLOR.match(color):
        raise DataError(f"colour {color!r} is not #rrggbb", path=folder / PROJECT_FILE, where="labels",
                        expected="a colour like '#4e79a7'")
    return color.lower()
