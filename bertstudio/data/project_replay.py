"""Replaying the journal when a project is opened: apply what the files lack, refuse what is wrong.

``project.json`` records up to which journal entry its label set (``labels_seq``)
and the data files (``data_seq``) are up to date; :class:`JournalReplay` (mixed
into the Project) applies the newer entries on top, so a crash at any moment
loses nothing that was acknowledged.

Every entry is checked before it is applied, because the journal is a file
like any other: an entry whose checksum is right but whose content is not (a
row out of range, a value that is not a gold value of the project's kind, a
label outside the label set *as it was when the edit was made*, a label-set
entry without a name, or one impossible on the label set it applies to: a
rename onto a label that exists, which would merge two labels' gold values, a
rename, recolouring or removal of a label that does not exist, an add of one
that does, the removal of a label gold values still use) is skipped with a
recovery message, never applied and never a crash.

Sequence numbers alone do not say whether project.json holds an edit: two copies of a project
(a git clone, a sync folder) number their edits alike from the same project.json, and one
copy's project.json pulled over the other's made its journal's edits look folded already (they
were dropped without a word). So a journal's header names the generation of project.json it
continues, and project.json the journal it is in step with (project_meta). A journal made on
another project.json is not replayed by sequence number: it is set aside as
``labels.journal.unapplied-<time>`` (kept; bertstudio never deletes it) and every one of its
edits is listed in the recovery messages.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from bertstudio.data import project_store as store
from bertstudio.data.journal import read_journal
from bertstudio.data.project_labels import LABEL_OPS, apply_label_op, label_op_conflict, label_op_problem
from bertstudio.data.project_meta import SPLITS
from bertstudio.data.project_outside import (JOURNAL_FILE, UNAPPLIED_PREFIX, free_name, list_kept_journals,
                                             more_edits, unapplied_messages)
from bertstudio.data.kinds import get_spec
from bertstudio.errors import DataError

if TYPE_CHECKING:
    from pathlib import Path

PREV_JOURNAL_FILE = "labels.journal.prev"
# close() always compacts; compact_if_large() (GUI idle timer) folds once the journal holds this many edits
COMPACT_AFTER = 20_000
SKIPS_SHOWN = 20  # skipped journal entries named one by one in the recovery messages


def _rename(names: set[str], old: str, new: str) -> None:
    if old in names and new not in names:
        names.discard(old)
        names.add(new)


def names_before(labels: list[str], entries: list[dict[str, Any]], after: int, upto: int) -> set[str]:
    """The label names valid just after entry ``after``, given ``labels`` as of entry ``upto``.

    project.json already holds the label-set entries in ``(after, upto]``; undoing
    them in reverse gives the names that the gold edits after ``after`` were checked against.
    """
    names = set(labels)
    for entry in reversed(entries):
        if not after < entry["seq"] <= upto or entry["op"] not in LABEL_OPS or label_op_problem(entry):
            continue
        if entry["op"] == "add_label":
            names.discard(entry["name"])
        elif entry["op"] == "remove_label":
            names.add(entry["name"])
        elif entry["op"] == "rename_label":
            _rename(names, entry["new"], entry["old"])
    return names


def continues(meta: dict[str, Any], header: dict[str, Any] | None) -> bool:
    """Whether the journal with ``header`` may have been made on project.json ``meta`` (or on one it
    folded): False only when its header positively names another generation. When in doubt its edits
    are replayed by number (:func:`in_doubt` says so): setting a user's own edits aside loses work."""
    if header is None:  # a journal from before headers
        return True
    if not meta.get("generation"):  # project.json from before generations: a journal started on it has no base
        return header.get("base") is None
    if header.get("id") == meta.get("journal"):  # this file holds its edits up to labels_seq
        return True
    return header.get("base") == meta["generation"]  # started after the compaction that wrote this file


def in_doubt(meta: dict[str, Any], header: dict[str, Any] | None) -> bool:
    """A journal of this project.json's generation while project.json names another journal, not folded:
    a copy made without its journal (a clone, a commit taken while the app had it open), or a second
    copy of the same generation. Replayed by number, and said."""
    return (header is not None and bool(meta.get("generation")) and header.get("id") != meta.get("journal")
            and meta.get("journal") not in (None, meta.get("folded_journal")))


class JournalReplay:
    """The open-time replay of a Project (see the module docstring)."""

    folder: "Path"
    kind: str
    _meta: dict[str, Any]
    recovery_messages: list[str]

    def _replay(self, from_backup: bool) -> None:
        """Apply the journal entries newer than what project.json and the data files hold."""
        self.recovery_messages.extend(list_kept_journals(self.folder, self.read_only))  # type: ignore[attr-defined]
        jr = read_journal(self.folder / JOURNAL_FILE)
        self._journal.remember()  # type: ignore[attr-defined]  # the file as read: a change from now on is refused
        header, entries = jr.header, jr.entries
        self.recovery_messages.extend(jr.messages)
        # (a backup of project.json is this process's own earlier file: replayed by number as always)
        if not from_backup and not continues(self._meta, header):
            self._check_data_files()
            self._set_aside(entries, jr.file_size > 0)
            return
        if not from_backup and in_doubt(self._meta, header):
            self.recovery_messages.append(
                f"{JOURNAL_FILE}: project.json names another journal of the same version (a copy made "
                "without this one?); its edits were made on this version of project.json and were applied")
        self._journal.id = header.get("id") if header else None  # type: ignore[attr-defined]  # appended to from now on
        if from_backup:  # the backup may predate the last compaction: its edits are in the rotated journal
            prev = read_journal(self.folder / PREV_JOURNAL_FILE)
            seen = {e["seq"] for e in entries}
            entries = sorted([e for e in prev.entries if e["seq"] not in seen] + entries, key=lambda e: e["seq"])
        self._check_data_files()
        labels_seq, data_seq = self._meta["labels_seq"], self._meta["data_seq"]
        names = names_before([item["name"] for item in self._meta["labels"]], entries, data_seq, labels_seq)
        skipped = 0
        self._ordered_names: list[str] | None = None  # sorted(names), made again only after a label entry
        for entry in entries:
            seq = entry["seq"]
            self._seq = max(self._seq, seq)
            if seq <= min(labels_seq, data_seq):
                continue
            problem = self._entry_problem(entry, names)
            if problem:
                skipped += 1
                if skipped <= SKIPS_SHOWN:
                    self.recovery_messages.append(f"{JOURNAL_FILE}: edit {seq} skipped ({problem})")
                continue
            if entry["op"] in LABEL_OPS:
                if seq > labels_seq:
                    apply_label_op(self._meta, entry)
                if seq > data_seq:
                    self._apply_rename(entry)  # type: ignore[attr-defined]
                self._track_names(names, entry)  # the label set the next entries were made on
                self._ordered_names = None
            elif seq > data_seq:
                self._overlay.set(entry["split"], self._split(entry["split"]), entry["row"],  # type: ignore[attr-defined]
                                  entry["value"])
                self._bump(entry["split"])  # type: ignore[attr-defined]
                self._pending += 1
        if skipped > SKIPS_SHOWN:  # one line for the rest: a forged journal of 60,000 entries is not 60,000 lines
            self.recovery_messages.append(f"{JOURNAL_FILE}: {more_edits(skipped - SKIPS_SHOWN)} skipped")
        self._meta["labels_seq"] = self._seq
        if self.read_only:  # type: ignore[attr-defined]
            # nothing written (a project copied mid-write onto a stick or a share): the good entries
            # are applied in memory, the damaged end stays on disk for a writable open to cut
            if jr.damaged or jr.file_size > jr.good_size:
                self.recovery_messages.append(f"{JOURNAL_FILE}: the damaged end is repaired when the project is "
                                              "opened where it can be written")
            return
        if jr.file_size > jr.good_size:
            self._journal.truncate(jr.good_size)  # type: ignore[attr-defined]  # a clean line for the next edit
        if jr.damaged or self._pending >= COMPACT_AFTER:
            # fold now: damage is then reported once, not at every open, and replay stays short
            self.compact(force=True)  # type: ignore[attr-defined]

    def _set_aside(self, entries: list[dict[str, Any]], exists: bool) -> None:
        """A journal made on another project.json (see the module docstring): kept under a new name
        (where the folder can be written) with each edit listed, never replayed by number."""
        name = JOURNAL_FILE
        if exists and not self.read_only:  # type: ignore[attr-defined]
            target = free_name(self.folder, UNAPPLIED_PREFIX)
            self._journal.close()  # type: ignore[attr-defined]
            os.replace(self.folder / JOURNAL_FILE, target)  # an OSError: the open says it cannot open
            self._journal.remember()  # type: ignore[attr-defined]
            name = target.name
        self.recovery_messages.extend(unapplied_messages(name, entries, "other_version"))

    @staticmethod
    def _track_names(names: set[str], entry: dict[str, Any]) -> None:
        if entry["op"] == "add_label":
            names.add(entry["name"])
        elif entry["op"] == "remove_label":
            names.discard(entry["name"])
        elif entry["op"] == "rename_label":
            _rename(names, entry["old"], entry["new"])

    def _check_data_files(self) -> None:
        for split, info in self._meta["splits"].items():
            path = store.split_file(self.folder, self._meta, split)
            if not path.exists():
                raise DataError(f"the data file of split {split!r} is missing", path=path,
                                expected="the file named in project.json")
            rows = self._split(split).num_rows  # type: ignore[attr-defined]  # memory-mapping is cheap: check now
            if rows != info["rows"]:
                raise DataError(f"the data file has {rows} rows, project.json says {info['rows']}", path=path,
                                expected="the data file written with this project.json")

    def _still_used(self, entry: dict[str, Any]) -> str | None:
        """For a label removal: where gold values still use the label (remove_label refuses that too)."""
        if entry["op"] != "remove_label":
            return None
        name = entry["name"]
        used = {s: self.label_counts(s).get(name, 0) for s in self._meta["splits"]}  # type: ignore[attr-defined]
        where = ", ".join(f"{n} in {s}" for s, n in used.items() if n)
        return f"label {name!r} is still used ({where})" if where else None

    def _entry_problem(self, entry: dict[str, Any], names: set[str]) -> str | None:
        """Why a (checksum-valid) journal entry cannot apply to this project, or None."""
        op = entry["op"]
        if op in LABEL_OPS:
            if not get_spec(self.kind).has_label_set:
                return f"a {self.kind} project has no label set"
            return label_op_problem(entry) or label_op_conflict(entry, names) or self._still_used(entry)
        if op != "gold":
            return f"unknown kind of edit {op!r}"
        split, row = entry.get("split"), entry.get("row")
        if split not in SPLITS or split not in self._meta["splits"]:
            return f"unknown split {split!r}"
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < self._split(split).num_rows:  # type: ignore[attr-defined]
            return f"row {row!r} is out of range"
        if "value" not in entry:
            return "no value"
        try:
            if self._ordered_names is None:
                self._ordered_names = sorted(names)
            get_spec(self.kind).gold.check(entry["value"], self._ordered_names, lambda: self.row(split, row),  # type: ignore[attr-defined]
                                           f"{split} row {row}", self.folder)
        except DataError as exc:
            return exc.problem
        return None
