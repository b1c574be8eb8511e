"""Noticing that someone else changed an open project's files (a git pull, a sync folder, a copy).

The project lock keeps other bertstudio processes out; it cannot keep out ``git pull``, a sync
client or a file manager, which replace ``project.json``, the journal or a data file under an
open project. Writing on as if nothing happened lost one side's labels: the close rewrote the
pulled project.json with this process's state and deleted the pulled data file as unused.

So the open Project remembers each of its files as it last read or wrote it (one ``stat``:
inode, size, modification time) and, before each edit, save, compaction and close, compares
(:meth:`OutsideChanges._check_outside`; the data files only before a compaction). A file that
differs (project.json whose bytes differ too: a ``touch`` is no change) turns the project into
a refusing one: nothing more is written over the other side's files, and every later write
raises the same DataError (facts ``refusal``: "changed_outside") naming the changed file and
where this process's unsaved edits are (the journal, or a kept copy of it when the journal
itself was replaced). The next open replays them, or lists the ones it cannot apply
(project_replay: a journal made on another project.json generation).
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.journal import read_journal
from bertstudio.data.project_meta import MAX_META_BYTES, PROJECT_FILE
from bertstudio.data.project_store import read_table
from bertstudio.data.regular_file import read_regular_file
from bertstudio.errors import DataError, Said, fact_text

if TYPE_CHECKING:
    from bertstudio.data.journal import Journal

log = logging.getLogger(__name__)

JOURNAL_FILE = "labels.journal"
KEPT_PREFIX = "labels.journal.kept-"  # this process's journal, kept when its name was replaced: listed at the next open
UNAPPLIED_PREFIX = "labels.journal.unapplied-"  # edits listed once as not applied; bertstudio never deletes them
CHANGED_OUTSIDE = "changed_outside"
ENTRIES_SHOWN = 20  # unapplied edits named one by one
MESSAGES_SHOWN = 100  # lines about kept journals in all (then one line for the rest)


def file_sig(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, mtime in ns) of ``path``, None when it is missing: one stat."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def free_name(folder: Path, prefix: str) -> Path:
    """``folder/<prefix><UTC time>`` (``-2``, ``-3``... when taken): never an existing file."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    n = 1
    while True:
        path = folder / (f"{prefix}{stamp}" if n == 1 else f"{prefix}{stamp}-{n}")
        if not os.path.lexists(path):
            return path
        n += 1


def describe_edit(entry: dict[str, Any]) -> str:
    """One journal entry in words, for the list of edits not applied; each fact bounded (:func:`fact_text`)."""
    op = entry["op"]
    if op == "gold":
        value = entry.get("value")
        return (f"{fact_text(entry.get('split'), quoted=False)} row {fact_text(entry.get('row'), quoted=False)}: "
                + ("cleared" if value is None else fact_text(value)))
    if op == "rename_label":
        return f"label {fact_text(entry.get('old'))} renamed to {fact_text(entry.get('new'))}"
    if op == "add_label":
        return f"label {fact_text(entry.get('name'))} added"
    if op == "remove_label":
        return f"label {fact_text(entry.get('name'))} removed"
    return f"{fact_text(op, quoted=False)} of label {fact_text(entry.get('name'))}"


def edits(n: int) -> str:
    """``"1 edit"``, ``"2 edits"``, ``"1,234 edits"``."""
    return f"{n:,} edit" if n == 1 else f"{n:,} edits"


def more_edits(n: int) -> str:
    """``"1 more edit"``, ``"2 more edits"``."""
    return f"{n:,} more edit" if n == 1 else f"{n:,} more edits"


# why edits were not applied (the facts' ``why``), in the core's words
UNAPPLIED_WHY = {
    CHANGED_OUTSIDE: "the project was changed outside bertstudio while they were made, and its journal was replaced",
    "other_version": "they were made on another version of project.json, which replaced it since: a git pull, "
                     "a sync folder?",
}


def unapplied_messages(name: str, entries: list[dict[str, Any]], why: str) -> list[str]:
    """The recovery messages for ``entries`` (kept in the file ``name``) that were not applied, ``why``
    a key of :data:`UNAPPLIED_WHY`. Each is a :class:`Said` (kinds ``unapplied``, ``unapplied_edit``
    with the entry as ``edit``, ``unapplied_more``; facts ``file``, ``edits``, ``seq``) for the window
    to say in its language."""
    if not entries:
        return []
    n = len(entries)
    were = "was" if n == 1 else "were"
    out = [Said(f"{name}: {edits(n)} {were} not applied ({UNAPPLIED_WHY[why]}); kept in that file:", "unapplied",
                file=name, edits=n, why=why)]
    out += [Said(f"{name}: edit {e['seq']} not applied: {describe_edit(e)}", "unapplied_edit", file=name,
                 seq=e["seq"], edit=dict(e)) for e in entries[:ENTRIES_SHOWN]]
    if n > ENTRIES_SHOWN:
        out.append(Said(f"{name}: {more_edits(n - ENTRIES_SHOWN)} not applied", "unapplied_more", file=name,
                        edits=n - ENTRIES_SHOWN))
    return out


def list_kept_journals(folder: Path, read_only: bool) -> list[str]:
    """Messages for the journals kept by a process that found its project changed outside
    (``labels.journal.kept-*``): each edit listed, then (where it can be written) the file renamed
    ``labels.journal.unapplied-*`` so it is listed once, and kept."""
    messages: list[str] = []
    try:
        kept = sorted(p for p in folder.iterdir() if p.name.startswith(KEPT_PREFIX) and not p.is_symlink())
    except OSError:
        return messages
    unlisted = 0
    for path in kept:
        if len(messages) >= MESSAGES_SHOWN:  # 10,000 kept files were 20,000 lines and a box taller than the screen
            unlisted += 1
            entries: list[dict[str, Any]] = []
        else:
            try:
                entries = read_journal(path).entries
            except DataError as exc:
                messages.append(Said(f"{path.name}: not read ({exc.problem})", "kept_unread", file=path.name,
                                     problem=exc.problem))
                continue
        name = path.name
        if not read_only:
            target = free_name(folder, UNAPPLIED_PREFIX)
            try:
                os.replace(path, target)
                name = target.name
            except OSError as exc:
                log.warning("%s not renamed: %s", path, exc)
        messages += unapplied_messages(name, entries, CHANGED_OUTSIDE)
    if unlisted:
        where = UNAPPLIED_PREFIX if not read_only else KEPT_PREFIX
        messages.append(Said(f"{unlisted:,} more kept journal{'s' if unlisted != 1 else ''} not listed here; "
                             f"their edits were not applied either (kept as {where}*)", "kept_unlisted",
                             journals=unlisted, pattern=f"{where}*"))
    return messages


def _same_json(path: Path, known: bytes | None) -> bool:
    """Whether ``path`` holds the JSON of ``known`` (bertstudio's last project.json), whatever its layout."""
    try:
        now = read_regular_file(path, max_bytes=MAX_META_BYTES)
        return now == known or (known is not None and json.loads(now) == json.loads(known))
    except (OSError, DataError, ValueError, RecursionError):  # unreadable, a FIFO, not JSON: not ours
        return False


class OutsideChanges:
    """What the open Project knows of its files, and the refusal once another program changed them (mixed in)."""

    folder: Path
    read_only: bool
    opened: int
    _meta: dict[str, Any]
    _meta_bytes: bytes | None
    _journal: "Journal"
    _pending: int
    _meta_sig: tuple[int, int, int] | None
    _data_sigs: dict[str, tuple[int, int, int] | None]
    _outside: DataError | None

    def _remember_meta(self) -> None:
        self._meta_sig = file_sig(self.folder / PROJECT_FILE)

    def _remember_data(self, relative: str) -> None:
        """A data file just read: a later replacement of it (same name, other rows) is told before a compaction."""
        self._data_sigs[relative] = file_sig(self.folder / relative)

    def _changed_file(self, *, deep: bool = False) -> str | None:
        """The project file another program changed since this process last read or wrote it, or None."""
        path = self.folder / PROJECT_FILE
        now = file_sig(path)
        # missing (deleted or moved away; or the folder moved, which the write says: project_store.disk_error):
        # no other side's version to keep, so the next write puts project.json back as before
        if now is not None and now != self._meta_sig:
            if not _same_json(path, self._meta_bytes):  # a touch, a copy, a reformat: the same contents
                return PROJECT_FILE
            self._meta_sig = now
        if self._journal.changed_outside():
            return JOURNAL_FILE
        if deep:
            for split, info in self._meta["splits"].items():
                known = self._data_sigs.get(info["file"])
                now = file_sig(self.folder / info["file"])
                if known is not None and now != known:
                    if not self._same_data_file(split, info["file"], known, now):
                        return info["file"]
                    self._data_sigs[info["file"]] = now
        return None

    def _same_data_file(self, split: str, relative: str, known: tuple[int, int, int],
                   now: tuple[int, int, int] | None) -> bool:
        """Whether the data file, changed on disk, holds the rows this process read from it (a touch,
        a copy of the same bytes)."""
        if now is None or now[1] != known[1]:
            return False
        if now[0] == known[0]:
            # the same file, only its time changed (a touch): its rows cannot be compared with the
            # mapped ones, which are the file's own; git and sync clients write a new file instead
            return True
        table = self._tables.get(split)  # type: ignore[attr-defined]  # still mapped from the file it read
        if table is None:
            return False
        try:
            return read_table(self.folder / relative, self.kind).equals(table)  # type: ignore[attr-defined]
        except (OSError, DataError):
            return False

    def changed_outside(self) -> DataError | None:
        """The refusal when another program changed the project's files (None while it has not)."""
        if self._outside is None and not self.read_only and self._changed_file() is not None:
            try:
                self._check_outside()  # makes the refusal (and the kept copy) once
            except DataError:
                pass
        return self._outside

    def _check_outside(self, *, deep: bool = False) -> None:
        """Raise the changed_outside DataError when another program changed the project's files
        since this process last read or wrote them (see the module docstring)."""
        if self._outside is not None:
            raise self._outside
        if self.read_only:
            return
        changed = self._changed_file(deep=deep)
        if changed is None:
            return
        self._outside = self._refusal(changed)
        log.warning("%s", self._outside)
        raise self._outside

    def _refusal(self, changed: str) -> DataError:
        kept: str | None = JOURNAL_FILE
        if self._journal.changed_outside():  # its name holds another file now: keep ours under a new name
            kept = None
            try:
                # what this process read and wrote, not the file's bytes: a file written in place (cp,
                # rsync --inplace) shows the other side's bytes through the open file as well
                data = self._journal.own_bytes()
                if data:
                    path = free_name(self.folder, KEPT_PREFIX)
                    atomic_write_bytes(path, data)
                    kept = path.name
            except OSError as exc:
                log.warning("the journal could not be kept: %s", exc)
        pending = self._pending
        # the journal itself is replayed at the next open; a kept copy is only listed there, never applied
        then = ("the next open applies them or lists each one it cannot" if kept == JOURNAL_FILE else
                "the next open lists each one; it does not apply them")
        are = "is" if pending == 1 else "are"
        where = (f"{edits(pending)} not yet folded into the data files {are} kept in {kept} ({then})"
                 if kept and pending else
                 "no edit of this window is lost" if not pending else
                 "this window's edits could not be kept (its journal was replaced)")
        problem = (f"the project was changed outside bertstudio since it was opened (a git pull, a sync folder?): "
                   f"{changed} is not the file bertstudio last wrote. Nothing more is written here, so the other "
                   f"side's files are not overwritten; {where}. Reopen the project")
        return DataError(problem, path=self.folder / changed,
                         facts={"refusal": CHANGED_OUTSIDE, "changed": changed, "kept": kept or "", "edits": pending,
                                "opened": self.opened})
