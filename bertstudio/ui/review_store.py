"""The Review queue's kept flags, in ``<project>/label-review-<split>.json`` (see ui/review_queue.py).

A module of its own, with no Qt and nothing heavy to import: a label rename makes the keeps
follow it (:func:`follow_label_rename`) on the GUI thread, and reaching them through the
queue's module loaded the label-error finder's encoder and torch there, a 4-7 s freeze at the
first rename of a session.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from bertstudio.assist.keys import text_key
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.regular_file import read_regular_text
from bertstudio.errors import BertStudioError, DataError

log = logging.getLogger(__name__)

REVIEW_FILE = "label-review-{split}.json"


def row_key(flag: Any) -> str:
    """Which example (and word) a flag is about: its text, so a re-import or an edit asks again."""
    return text_key(f"{flag.text}\x1f{flag.word}").hex()


def _legacy_identity(flag: Any, label: str) -> str:
    """How version 1 of the file named a keep: text and label hashed together (it cannot follow a rename)."""
    return text_key(f"{flag.text}\x1f{label}\x1f{flag.word}").hex()


def _shape_problem(data: Any) -> str | None:
    """Why ``data`` is not a kept-flags file this version reads (None when it is): ``{"version":
    1 or 2, "kept": [...]}``, each entry a hashed key of version 1 or a [key, label] pair of strings."""
    if not isinstance(data, dict):
        return f"not a kept-flags file (a JSON {type(data).__name__}, expected an object)"
    if type(data.get("version")) is not int or data["version"] not in (1, 2):
        return (f"version {data['version']!r}" if "version" in data else "no version") + " (expected 1 or 2)"
    entries = data.get("kept")
    if not isinstance(entries, list):
        return "kept is not a list"
    for e in entries:
        if not (isinstance(e, str) or (isinstance(e, list) and len(e) == 2 and all(isinstance(v, str) for v in e))):
            return f"kept entry {json.dumps(e)[:60]} is not a key or a [key, label] pair"
    return None


class ReviewStore:
    """The kept flags of one split, in the project folder (atomic writes; unreadable = empty).

    A keep is the row's text (hashed) with the label kept, that label by name in clear so that
    a rename of the label is followed (:meth:`rename`): a kept ``positive`` is still kept as
    ``pos``. Entries of version 1 of the file (text and label hashed together) are still read."""

    def __init__(self, folder: str | Path, split: str) -> None:
        self.path = Path(folder) / REVIEW_FILE.format(split=split)
        self.reload()

    def reload(self) -> None:
        # problem: why the kept flags could not be read (they start afresh)
        self.kept, self.legacy, self.problem = self._read()

    def _read(self) -> tuple[set[tuple[str, str]], set[str], str | None]:
        try:
            text = read_regular_text(self.path, missing_ok=True, max_bytes=64 << 20)  # never opens a FIFO
            if text is None:
                return set(), set(), None
            data = json.loads(text)
            # JSON of another shape (a newer version, a list, entries of 3) is as unreadable as bad
            # JSON: read as empty it was written over at the next Keep, the original gone
            shape = _shape_problem(data)
            if shape:
                raise DataError(shape, path=self.path)
            kept = {(e[0], e[1]) for e in data["kept"] if isinstance(e, list)}
            return kept, {e for e in data["kept"] if isinstance(e, str)}, None
        except (DataError, ValueError, TypeError, RecursionError) as exc:
            log.warning("%s unreadable, starting afresh: %s", self.path, exc)
            return set(), set(), str(exc) if isinstance(exc, DataError) else f"{self.path}: {type(exc).__name__}"

    def keep(self, flag: Any, kept_now: bool = True, label: str | None = None) -> None:
        """Remember ``flag`` as kept with ``label`` (its given label's name now; default
        ``flag.given``), or with ``kept_now=False`` forget it (Undo of a keep); OSError or
        DataError when the file cannot be written (then nothing changes). The file is read again
        first: another Review window (or an undo from a closed one) may have written it since."""
        label = flag.given if label is None else label
        on_disk, legacy, problem = self._read()
        base, legacy = (self.kept, self.legacy) if problem else (on_disk, legacy)
        entry = (row_key(flag), label)
        kept = base | {entry} if kept_now else base - {entry}
        if not kept_now:
            legacy = legacy - {_legacy_identity(flag, label)}
        if problem and self.path.is_file() and not self.path.is_symlink():
            # the unreadable file is kept aside, not written over: it may be mendable by hand (an
            # earlier copy kept aside too: a second damaged file gets a name of its own)
            aside = self.path.with_name(self.path.name + ".damaged")
            n = 1
            while aside.exists():
                n += 1
                aside = self.path.with_name(f"{self.path.name}.damaged-{n}")
            os.replace(self.path, aside)
        self._write(kept, legacy)

    def rename(self, old: str, new: str) -> None:
        """The label ``old`` is called ``new`` now: its keeps follow (the file is read again first,
        and left as it is when unreadable or when no keep names ``old``); OSError or DataError
        when it cannot be written."""
        def renamed(kept: set[tuple[str, str]]) -> set[tuple[str, str]]:
            return {(key, new if label == old else label) for key, label in kept}

        kept, legacy, problem = self._read()
        if problem:  # the damaged file stays as it is (kept aside at the next Keep); what this store holds follows
            self.kept, self.problem = renamed(self.kept), problem
        elif any(label == old for _, label in kept):
            self._write(renamed(kept), legacy)
        else:
            self.kept, self.legacy, self.problem = kept, legacy, None

    def _write(self, kept: set[tuple[str, str]], legacy: set[str]) -> None:
        entries: list[Any] = sorted(legacy) + [list(e) for e in sorted(kept)]
        atomic_write_bytes(self.path, json.dumps({"version": 2, "kept": entries}).encode("utf-8"))
        self.kept, self.legacy, self.problem = kept, legacy, None

    def is_kept(self, flag: Any, label: str | None = None) -> bool:
        """Whether ``flag`` was kept with ``label`` (the given label's name now; default ``flag.given``)."""
        label = flag.given if label is None else label
        return (row_key(flag), label) in self.kept or _legacy_identity(flag, label) in self.legacy


def follow_label_rename(folder: str | Path, splits: Any, old: str, new: str) -> None:
    """A label was renamed: the keeps of each split follow it (a file that cannot be written is
    logged: its keeps of ``old`` are asked about again at the next check, no label is changed).
    Keeps of the file's first version (text and label hashed together) cannot follow a rename:
    those flags are asked about again too."""
    for split in splits:
        store = ReviewStore(folder, split)
        try:
            store.rename(old, new)
        except (OSError, BertStudioError) as exc:
            log.warning("%s: the kept flags could not follow the rename of %r to %r: %s", store.path, old, new, exc)
