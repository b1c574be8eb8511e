"""The rows of a project's splits as wholes: import, replace with a backup, restore, export, ExampleSets.

:class:`SplitOps` is mixed into :class:`bertstudio.data.project.Project`.

Two rules keep an import from losing or changing what the user made:

- **Replacing rows keeps them.** ``import_examples(..., replace=True)`` into a
  split that holds rows first keeps its current data file (pending edits folded
  in) as ``data/backup/<split>-<time>.arrow`` and records it in project.json's
  ``backups``; :meth:`SplitOps.restore_split_backup` brings it back (keeping the
  rows it replaces the same way). Backups are never deleted by bertstudio.
  Appending is the default.
- **Labels are never invented.** A file whose label values are not all in the
  project's label set is refused with a DataError, unless the caller maps them
  (``label_map``, see :mod:`bertstudio.data.labelmap`) or asks to add them as new
  classes (``add_labels=True``). A project without labels yet takes the file's.
"""

from __future__ import annotations

import os
import re
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data import project_store as store
from bertstudio.data.labelmap import decimal_labels, map_table, mapped_label_order, values_in
from bertstudio.data.project_labels import check_label_names
from bertstudio.data.project_meta import PROJECT_FILE, default_color
from bertstudio.data.kinds import get_spec, require_kind
from bertstudio.errors import DataError

# a data file store.write_split wrote: <split>-<journal seq>[-n].arrow
_DATA_FILE = re.compile(r"^(?P<split>train|dev|test)-(?P<seq>\d{8})(?:-(?P<n>\d+))?\.arrow$")

if TYPE_CHECKING:
    from bertstudio.data.examples import ExampleSet


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class SplitOps:
    """Whole-split operations of a Project (see the module docstring)."""

    folder: Path
    kind: str
    _meta: dict[str, Any]

    def examples(self, split: str) -> "ExampleSet":
        """The split as an ExampleSet, edits applied (memory-mapped; a copy of one column when edited).

        Building it reads the whole gold column when there are unfolded edits; the
        GUI's table models should use :meth:`row` / :meth:`num_rows` instead.
        """
        from bertstudio.data.examples import ExampleSet

        with self._lock:  # type: ignore[attr-defined]
            table = self._split(split)  # type: ignore[attr-defined]
            cached = self._examples_cache.get(split)  # type: ignore[attr-defined]
            if cached is not None and cached[0] == self._versions[split]:  # type: ignore[attr-defined]
                return cached[1]
            overlay = self._overlay  # type: ignore[attr-defined]
            if split in self._meta["splits"]:
                path = store.split_file(self.folder, self._meta, split)
                dataset = store.open_dataset(path)
                self._handed_out.add(path.name)  # type: ignore[attr-defined]
                if overlay.dirty(split):
                    gold = overlay.gold
                    # a fingerprint of our own: datasets would otherwise hash the column, and when
                    # it cannot it logs the whole gold column (the user's labels) as a warning
                    dataset = dataset.remove_columns([gold]).add_column(
                        gold, overlay.column(split, table), feature=get_spec(self.kind).features[gold],
                        new_fingerprint=f"bertstudio-gold-{uuid.uuid4().hex}")
            else:
                dataset = store.empty_dataset(self.kind)
            info = self._meta["splits"].get(split, {})
            meta = {"split": split, "project": str(self.folder)}
            if info.get("lineage"):  # which rows these are (see _store_split): a run records it with its rows
                meta["lineage"] = info["lineage"]
            if self._meta.get("glue_task"):
                meta["glue_task"] = self._meta["glue_task"]
            examples = ExampleSet(self.kind, dataset, self.labels, info.get("source"), meta)  # type: ignore[attr-defined]
            self._examples_cache[split] = (self._versions[split], examples)  # type: ignore[attr-defined]
            return examples

    def import_examples(self, examples: "ExampleSet", split: str = "train", *, replace: bool = False,
                        label_map: Mapping[str, str | None] | None = None,
                        add_labels: bool = False) -> dict[str, Any] | None:
        """Add ``examples`` to ``split`` (after its rows), or replace its rows with ``replace=True``.

        ``label_map`` maps the file's label values first (None = leave the row
        unlabelled); values still outside the label set are refused unless
        ``add_labels`` is True (then they become new classes). Pending edits are
        folded first, so nothing journaled is lost. Returns the backup entry of the
        replaced rows (``{"id", "split", "rows", "labelled", ...}``), or None when
        nothing was replaced.
        """
        require_kind(examples.kind, self.kind, path=examples.source or self.folder,
                     what=f"the data for this {self.kind} project", error=DataError)
        self._split(split)  # type: ignore[attr-defined]  # checks the name
        with self._lock:  # type: ignore[attr-defined]
            self._check_open()  # type: ignore[attr-defined]
            self._check_writable()  # type: ignore[attr-defined]  # READ_ONLY, not a write error after the checks
            table = store.table_of(examples)
            declared = list(examples.labels)
            if label_map:
                if not get_spec(self.kind).has_label_set:
                    raise DataError(f"a {self.kind} project has no labels to map", path=examples.source,
                                    where="label mapping", expected="no label mapping")
                table = map_table(self.kind, table, label_map)
                declared = mapped_label_order(declared, label_map)
            new_labels = self._labels_to_add(table, declared, add_labels, examples.source)
            self._check_score_range(table, examples.source)
            if new_labels:  # the file's label names, held to the rules of the project's
                try:
                    check_label_names(self.labels + new_labels, self.folder,  # type: ignore[attr-defined]
                                      new=new_labels)
                except DataError as exc:
                    raise DataError(exc.problem, path=examples.source or self.folder, where="labels",
                                    expected=exc.expected, facts=exc.facts) from None  # the app says them
            self.compact()  # type: ignore[attr-defined]
            if not replace and split in self._meta["splits"]:
                old = self._split(split)  # type: ignore[attr-defined]
                if set(table.column_names) != set(old.column_names):
                    raise DataError(f"the new rows have columns {table.column_names}, {split} has "
                                    f"{old.column_names}", path=examples.source or self.folder,
                                    expected="the same columns to append (or replace the split)")
                self._check_keys(old, table, examples.source)
                table = pa.concat_tables([old, table.select(old.column_names).cast(old.schema)])
            source = examples.source if replace or split not in self._meta["splits"] \
                else self._meta["splits"][split].get("source")
            return self._store_split(split, table, source, new_labels, replace=replace)

    def _check_score_range(self, table: pa.Table, source: str | None) -> None:
        """A project of a benchmark with a score scale (STS-B: 0-5) takes scores on it only: a
        plain TSV with 7.5 and -1 went into an STS-B project without a word, where the benchmark's
        own layout refuses them."""
        from bertstudio.data.glue import score_scale

        task = self._meta.get("glue_task")  # type: ignore[attr-defined]
        scale = score_scale(task)
        spec = get_spec(self.kind)
        if scale is None or spec.has_label_set or spec.gold_column not in table.column_names:
            return
        lo, hi = scale
        scores = table.column(spec.gold_column).cast(pa.float64())
        outside = pc.or_(pc.less(scores, lo), pc.greater(scores, hi))
        if pc.any(outside).as_py():
            row = pc.index(outside, True).as_py()
            raise DataError(f"score {scores[row].as_py():g} is outside the {task} scale",
                            path=source or self.folder, where=f"row {row + 1}", expected=f"a number in [{lo:g}, {hi:g}]")

    def _check_keys(self, old: pa.Table, new: pa.Table, source: str | None) -> None:
        """A kind whose rows are named (QA's question ids) keeps each name once in a split: a file
        appended with ids the split has made an export that the readers refuse."""
        key = get_spec(self.kind).key_column
        if key is None or key not in new.column_names or key not in old.column_names:
            return
        used = {value: row for row, value in enumerate(old.column(key).to_pylist())}
        for row, value in enumerate(new.column(key).to_pylist()):
            if value in used:
                raise DataError(f"{key} {value!r} is already used in the split (row {used[value] + 1})",
                                path=source or self.folder, where=f"new row {row + 1}",
                                expected=f"{key}s the split does not have yet (or replace the split)")
            used[value] = len(old) + row

    def _labels_to_add(self, table: pa.Table, declared: list[str], add_labels: bool,
                       source: str | None) -> list[str]:
        """The labels an import adds to the label set, or a DataError for values outside it."""
        if not get_spec(self.kind).has_label_set:
            return []
        used = list(values_in(self.kind, table))
        current = self.labels  # type: ignore[attr-defined]
        unknown = [v for v in used if v not in current]
        scores = [] if get_spec(self.kind).gold.per_token else decimal_labels(used)
        if scores and set(scores) & set(unknown):  # 40 decimal scores became 40 classes without a word
            shown = ", ".join(map(repr, scores[:4])) + (f" and {len(scores) - 4} more" if len(scores) > 4 else "")
            raise DataError(f"the labels are numbers with decimals ({shown}), which would become {len(used)} "
                            f"separate classes of this {self.kind} project", path=source or self.folder,
                            where="labels", expected="a regression (scores) project to predict a score, or class "
                            "names (numbers listed in the project's label set first are taken as classes)")
        if not current:  # a project without labels yet takes the file's, in the file's order
            return list(dict.fromkeys(declared + used))
        if unknown and not add_labels:
            shown = ", ".join(map(repr, unknown[:10])) + (f" and {len(unknown) - 10} more" if len(unknown) > 10 else "")
            raise DataError(f"the file uses labels the project does not have: {shown}",
                            path=source or self.folder, where="labels",
                            expected="labels of the project (" + ", ".join(map(repr, current[:10]))
                            + "); map the file's labels to them, or add them as new classes explicitly")
        return [n for n in dict.fromkeys(declared + unknown) if n in set(unknown)]

    def _store_split(self, split: str, table: pa.Table, source: str | None, new_labels: list[str], *,
                     replace: bool, lineage: str | None = None) -> dict[str, Any] | None:
        """Write ``table`` as the split's new data file and commit it (keeping replaced rows as a backup).
        ``lineage``: the rows' own (a restored backup's), instead of a new one."""
        from bertstudio.data.project_store import disk_error

        meta = self._meta_copy()  # type: ignore[attr-defined]
        entry: dict[str, Any] | None = None
        made: list[Path] = []
        try:
            if replace and meta["splits"].get(split, {}).get("rows"):
                labelled, total = self.progress(split)  # type: ignore[attr-defined]
                old_file = store.split_file(self.folder, meta, split)
                made.append(store.keep_split_backup(self.folder, split, old_file))
                entry = {"id": made[-1].stem, "split": split,
                         "file": made[-1].relative_to(self.folder).as_posix(), "rows": total,
                         "labelled": labelled, "labels": self.labels, "source": meta["splits"][split].get("source"),  # type: ignore[attr-defined]
                         "lineage": meta["splits"][split].get("lineage"), "replaced": _now()}
                meta["backups"].append(entry)
            for name in new_labels:
                meta["labels"].append({"name": name, "color": default_color(len(meta["labels"]))})
            made.append(store.write_split(self.folder, split, self._seq, table))  # type: ignore[attr-defined]
            # ours, remembered as written: a name an earlier file of this session had (restored, then
            # replaced again) was taken for another program's file, and every edit was refused
            self._remember_data(made[-1].relative_to(self.folder).as_posix())  # type: ignore[attr-defined]
            # The rows' lineage: new when the split's rows are replaced (or first stored), kept when
            # rows are appended, so state kept per row number (the assistant's audit set, skips and
            # chart) stays valid through an "Add example" or an appending import.
            # A restore brings back the lineage its rows had: the same examples under the same numbers,
            # so a run's predictions and the Review queue's flags about them hold again.
            before = meta["splits"].get(split, {})
            if lineage is None:
                lineage = before.get("lineage") if not replace and before.get("lineage") else uuid.uuid4().hex
            meta["splits"][split] = {"file": made[-1].relative_to(self.folder).as_posix(), "rows": table.num_rows,
                                     "source": source, "imported": _now(), "lineage": lineage}
            meta["data_seq"] = self._seq  # type: ignore[attr-defined]
            self._commit_meta(meta)  # type: ignore[attr-defined]
        except (OSError, DataError) as exc:
            for path in made:  # not committed: nothing names them, and the old rows are still the split's
                path.unlink(missing_ok=True)
            if isinstance(exc, DataError):
                raise
            raise disk_error(exc, self.folder, f"the rows could not be stored in {split}") from exc
        self._overlay.reset(split)  # type: ignore[attr-defined]  # empty already: compact() folded it
        self._tables.pop(split, None)  # type: ignore[attr-defined]
        self._bump()  # type: ignore[attr-defined]  # this split's rows, and maybe every split's label list
        self._remove_unused()  # type: ignore[attr-defined]
        self._emit(kind="split_imported", split=split, backup=entry["id"] if entry else None)  # type: ignore[attr-defined]
        if new_labels:
            self._emit(kind="labels_changed", op="import", added=list(new_labels))  # type: ignore[attr-defined]
        return dict(entry) if entry else None

    # ------------------------------------------------------------------ backups of replaced rows
    def _unnamed_data_said(self) -> list[str]:
        """A read-only project restored from its backup: the data files the restored project.json
        does not name (rows written after the backup), said and left in place; a writable open
        keeps them as backups of replaced rows (:meth:`_keep_unnamed_data`)."""
        named = {Path(str(info.get("file"))).name for info in self._meta["splits"].values()}
        data_dir = self.folder / store.DATA_DIR
        return [f"{store.DATA_DIR}/{path.name} is not named by the restored project.json (rows written after its "
                "backup); it is left in place and kept when the project is opened where it can be written"
                for path in (sorted(data_dir.iterdir()) if data_dir.is_dir() else ())
                if _DATA_FILE.match(path.name) and path.name not in named and path.is_file()]

    def _keep_unnamed_data(self) -> list[str]:
        """After project.json was restored from its backup: each split's newest data file that
        the restored copy does not name (rows imported or folded after the backup was made)
        is kept as a backup of replaced rows, so that Edit > Restore replaced rows… brings
        it back; before, the next save deleted it as unused. Returns the recovery messages."""
        named = {Path(str(info.get("file"))).name for info in self._meta["splits"].values()}
        newest: dict[str, tuple[tuple[int, int], Path]] = {}
        data_dir = self.folder / store.DATA_DIR
        for path in sorted(data_dir.iterdir()) if data_dir.is_dir() else ():
            found = _DATA_FILE.match(path.name)
            if found and path.name not in named and path.is_file():
                order = (int(found["seq"]), int(found["n"] or 0))
                if found["split"] not in newest or order > newest[found["split"]][0]:
                    newest[found["split"]] = (order, path)
        messages: list[str] = []
        for split, (_order, path) in sorted(newest.items()):
            try:
                table = store.read_table(path, self.kind)
            except DataError as exc:
                messages.append(f"{path.relative_to(self.folder).as_posix()} is not named by the restored "
                                f"project.json and cannot be read ({exc.problem}); it was left in place")
                continue
            if split in self._meta["splits"] and self._same_rows(split, table):
                continue  # what the journal replay recovers anyway: nothing to keep or to say
            kept = store.keep_split_backup(self.folder, split, path)
            gold = table.column(get_spec(self.kind).gold_column)
            self._meta["backups"].append({
                "id": kept.stem, "split": split, "file": kept.relative_to(self.folder).as_posix(),
                "rows": table.num_rows, "labelled": table.num_rows - gold.null_count,
                "labels": list(values_in(self.kind, table)), "source": None, "replaced": _now()})
            messages.append(f"{path.relative_to(self.folder).as_posix()} ({table.num_rows:,} {split} rows) was "
                            "written after the restored copy of project.json and is not part of the project now; "
                            "it is kept: Edit > Restore replaced rows… brings it back")
        return messages

    def _same_rows(self, split: str, table: pa.Table) -> bool:
        """Whether ``table`` holds the split's rows and gold values as the journal will replay them."""
        from bertstudio.data.journal import read_journal
        from bertstudio.data.project_replay import JOURNAL_FILE, PREV_JOURNAL_FILE

        current = self._split(split)  # type: ignore[attr-defined]
        if current.num_rows != table.num_rows:
            return False
        gold_column = get_spec(self.kind).gold_column
        values = current.column(gold_column).to_pylist()
        entries = read_journal(self.folder / PREV_JOURNAL_FILE).entries + read_journal(self.folder / JOURNAL_FILE).entries
        for entry in sorted(entries, key=lambda e: e["seq"]):
            if entry["seq"] > self._meta["data_seq"] and entry.get("split") == split \
                    and isinstance(entry.get("row"), int) and 0 <= entry["row"] < len(values):
                values[entry["row"]] = entry.get("value")
        return values == table.column(gold_column).to_pylist() and all(
            current.column(c).equals(table.column(c)) for c in current.column_names if c != gold_column)

    def split_backups(self, split: str | None = None) -> list[dict[str, Any]]:
        """The kept rows of earlier replaces (oldest first): id, split, rows, labelled, labels, source, replaced."""
        return [dict(b, labels=[b.get("renames", {}).get(n, n) for n in b.get("labels", [])])
                for b in self._meta["backups"] if split is None or b["split"] == split]

    def restore_split_backup(self, backup_id: str) -> dict[str, Any] | None:
        """Make the backup ``backup_id`` the rows of its split again (with the gold values it held).

        The rows it replaces are kept as a new backup (returned), so a restore can
        be undone the same way. Labels the backup uses that the label set lacks are
        added back. The backup itself stays.
        """
        with self._lock:  # type: ignore[attr-defined]
            self._check_open()  # type: ignore[attr-defined]
            entry = next((b for b in self._meta["backups"] if b["id"] == backup_id), None)
            if entry is None:
                raise DataError(f"no backup named {backup_id!r}", path=self.folder / PROJECT_FILE,
                                where="backups", expected="one of " + ", ".join(b["id"] for b in self._meta["backups"]))
            path = self.folder / entry["file"]
            table = store.read_table(path, self.kind)  # checks the columns of the kind
            if table.num_rows != entry["rows"]:
                raise DataError(f"the backup does not hold the {entry['rows']} {self.kind} rows it should",
                                path=path, expected="the file bertstudio kept when the rows were replaced")
            self.compact()  # type: ignore[attr-defined]
            renames = entry.get("renames") or {}
            if renames:  # labels renamed since the rows were replaced: the rows come back under the new names
                gold, spec = get_spec(self.kind).gold_column, get_spec(self.kind).gold
                column = table.column(gold)
                table = table.set_column(table.column_names.index(gold), table.schema.field(gold), pa.array(
                    [spec.rename(v, renames) for v in column.to_pylist()], type=column.type))
            wanted = [renames.get(n, n) for n in entry.get("labels", [])] + list(values_in(self.kind, table))
            missing = [n for n in dict.fromkeys(wanted) if n not in self.labels] if get_spec(self.kind).has_label_set else []  # type: ignore[attr-defined]
            # The rows' own lineage, unless a record of it holds more rows: rows only grow under a
            # lineage (appends), so restored, appended to and restored again, a later append would
            # put another example under a number that one already names. Backups kept before
            # lineages were recorded get a new one.
            lineage = entry.get("lineage")
            records = [b for b in self._meta["backups"] if b is not entry] + list(self._meta["splits"].values())
            longer = any(r.get("lineage") == lineage and int(r.get("rows") or 0) > int(entry["rows"]) for r in records)
            own = lineage if isinstance(lineage, str) and lineage and not longer else None
            return self._store_split(entry["split"], table, entry.get("source"), missing, replace=True, lineage=own)

    def export_target(self, path: str | Path) -> Path:
        """The file an export to ``path`` writes (a link's target); refused inside the project's folder,
        and refused when something other than a regular file is there (a FIFO, a device, a folder).

        "Inside" is asked of the folders themselves (device and inode), not of their path strings:
        a bind mount, a case-insensitive disk (macOS, Windows: ``~/projects/Reviews`` is
        ``~/Projects/reviews``) or a short name reach the project's folder by a name that
        ``realpath`` does not turn into the project's own."""
        from bertstudio.data.atomic import check_replaceable

        target = Path(os.path.realpath(path))
        refusal = DataError("the file is inside the project's folder, which holds the project's own files",
                            path=Path(path), expected="a file outside " + str(self.folder))
        home = Path(os.path.realpath(self.folder))
        if target == home or home in target.parents:
            raise refusal
        try:
            home_id = os.stat(self.folder)
        except OSError:
            home_id = None  # the folder is gone: nothing of it to write over
        if home_id is not None and home_id.st_ino:  # (0 on some network shares and FUSE mounts: every folder
            # would look like the project's, so each export was refused; there the realpath check above stands)
            for folder in (target, *target.parents):
                try:
                    st = os.stat(folder)
                except OSError:
                    continue  # not there yet (an export makes missing folders), or not ours to look at
                if (st.st_dev, st.st_ino) == (home_id.st_dev, home_id.st_ino):
                    raise refusal
        check_replaceable(path)
        return target

    def export(self, split: str, path: str | Path, fmt: str = "auto", **kwargs: Any) -> None:
        """Write ``split`` (edits applied) with the format writers of :mod:`bertstudio.data.io`.

        A link is written through: the file it names gets the rows and the link stays. Never
        into the project's own folder: a file written over ``labels.journal`` or a split's data
        would lose labels or leave the project unreadable."""
        from bertstudio.data.io import save_examples, save_format

        if split not in self._meta["splits"]:
            raise DataError(f"the project holds no {split} rows to export", path=self.folder / PROJECT_FILE,
                            expected="a split with rows: " + (", ".join(self._meta["splits"]) or "none yet"))
        target = self.export_target(path)
        examples = self.examples(split)
        if (fmt or "auto").lower() == "auto":
            fmt = save_format(examples, path)  # the name the user gave says the format, not its link's target
        save_examples(examples, target, fmt=fmt, **kwargs)
