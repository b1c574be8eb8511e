"""The append-only edit journal of a project (``labels.journal``).

One edit is one line of JSON: ``{"seq": 12, "op": "gold", ..., "crc": "1a2b3c4d"}``.
``seq`` grows by one per edit across the life of the project; ``crc`` is the
CRC-32 of the line's other fields written canonically (sorted keys, no spaces), so
a line damaged on disk is told apart from a good one. Each append is one
``write`` followed by flush and ``fsync``: once :meth:`Journal.append` returns the
edit survives a crash or a power cut (:func:`bertstudio.data.atomic.append_durably`).

A crash in the middle of an append leaves a torn last line (no newline, or bytes
that do not check). :func:`read_journal` drops it with a message and reports how
many bytes are good so the caller can cut the tail off before appending again
(otherwise the next edit would be glued to the garbage). A damaged line in the
middle (disk corruption, a bad sync tool) is skipped with a message; the lines
after it are still good and are kept.

Written by hand because no library in the stack offers a durable, checksummed
append log; SQLite would do it but the data lives in Arrow, not in tables.
"""

from __future__ import annotations

import json
import os
import secrets
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bertstudio.data.atomic import append_durably, move_durably, open_append, truncate_durably
from bertstudio.data.regular_file import read_regular_file
from bertstudio.errors import DataError

LINES_SHOWN = 20
HEADER_OP = "journal"  # the first line of a journal file: whose it is (not an edit; see Journal)  # damaged lines named one by one in the recovery messages


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


# No project makes 2**53 edits; a line claiming more (10**260 with a valid checksum) named every
# later data file with 260 digits: "File name too long" on each close, blamed on the disk.
MAX_SEQ = 2 ** 53


def checksum(body: dict[str, Any]) -> str:
    return f"{zlib.crc32(_canonical(body)) & 0xFFFFFFFF:08x}"


def encode_entry(body: dict[str, Any]) -> bytes:
    """One journal line (with its newline) for ``body``, which must hold ``seq`` and ``op``."""
    if "crc" in body:
        raise ValueError("journal entries must not carry their own 'crc'")
    line = dict(body)
    line["crc"] = checksum(body)
    return _canonical(line) + b"\n"


@dataclass
class JournalRead:
    """What :func:`read_journal` found: the good entries (edits) in order, the header, messages,
    and the good length."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    header: dict[str, Any] | None = None  # whose journal it is (:class:`Journal`); None before headers
    messages: list[str] = field(default_factory=list)
    good_size: int = 0  # bytes before a torn tail (the whole file when there is none)
    file_size: int = 0
    damaged: bool = False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _decode(line: bytes) -> dict[str, Any] | None:
    """The entry on ``line``, or None when the line is not one this module wrote (damaged or hostile)."""
    try:
        body = json.loads(line.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):  # NaN/Infinity, huge numbers, deep nesting
        return None
    seq = body.get("seq") if isinstance(body, dict) else None
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEQ \
            or not isinstance(body.get("op"), str):
        return None
    crc = body.pop("crc", None)
    try:
        if crc != checksum(body):
            return None
    except (ValueError, RecursionError):
        return None
    return body


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64


def header_problem(entry: dict[str, Any]) -> str | None:
    """Why a header line is not ``{id: str, base: str | None}`` as :class:`Journal` writes it, or None."""
    if not _is_id(entry.get("id")):
        return f"its id is {str(entry.get('id'))[:40]!r}, not an id"
    if entry.get("base") is not None and not _is_id(entry["base"]):
        return f"its base is {str(entry['base'])[:40]!r}, not an id"
    return None


def read_journal(path: str | os.PathLike[str]) -> JournalRead:
    """Read every good entry of the journal at ``path`` (a missing file is an empty journal).

    Raises DataError when ``path`` is not a plain file (a folder, a FIFO, a device).
    """
    path = Path(path)
    out = JournalRead()
    raw = read_regular_file(path, missing_ok=True)  # a FIFO or device is a DataError, never opened
    if raw is None:
        return out
    out.file_size = len(raw)
    lines = raw.split(b"\n")
    tail = lines.pop()  # bytes after the last newline: empty unless the last write was torn
    complete = len(lines)
    out.good_size = len(raw)
    offset = 0
    last_seq = -1
    skipped = 0
    for number, line in enumerate(lines, start=1):
        entry = _decode(line)
        if entry is None:
            out.damaged = True
            if number == complete and not tail:
                # a crash can leave a full-length line of zeros: the same as a torn write
                out.messages.append(f"{path.name}, line {number}: the last edit was cut short by a crash and was dropped")
                out.good_size = offset
                break
            skipped += 1
            if skipped <= LINES_SHOWN:
                out.messages.append(f"{path.name}, line {number}: damaged line (bad checksum) skipped")
        elif entry["seq"] <= last_seq:
            out.damaged = True
            skipped += 1
            if skipped <= LINES_SHOWN:
                out.messages.append(f"{path.name}, line {number}: sequence number {entry['seq']} out of order, skipped")
        else:
            last_seq = entry["seq"]
            if entry["op"] != HEADER_OP:
                out.entries.append(entry)
            elif not out.entries and out.header is None:
                problem = header_problem(entry)
                if problem is None:
                    out.header = entry
                else:  # another version's or a forged header: read as a journal from before headers
                    out.messages.append(f"{path.name}, line {number}: the journal's header is not one bertstudio "
                                        f"writes ({problem}); its edits are read as those of a journal without one")
        offset += len(line) + 1
    else:
        if tail:
            out.damaged = True
            out.messages.append(f"{path.name}, line {complete + 1}: the last edit was cut short by a crash and was dropped")
            out.good_size = offset
    if skipped > LINES_SHOWN:  # one line for the rest: 50,000 damaged lines are not 50,000 messages
        out.messages.insert(LINES_SHOWN, f"{path.name}: {skipped - LINES_SHOWN:,} more damaged lines skipped")
    return out


_UNSET = object()


class Journal:
    """An open journal that appends durably. Not thread-safe by itself: the Project locks.

    A journal file begins with a header line (``op`` "journal") naming it with an ``id`` drawn
    when the file is started and the ``base``: the generation of project.json it continues
    (``project_meta``: drawn at each compaction). Two copies of one project (a git clone, a
    sync folder) number their edits alike from the same project.json; the header is what tells
    the open-time replay that a journal was made on another copy (project_replay).

    The journal also remembers the file as it last read or wrote it (inode, size and modification
    time, one stat; and its bytes), so :meth:`changed_outside` tells a journal replaced or written
    by someone else, and :meth:`own_bytes` still has this process's edits once it was.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file: Any = None
        self.entries_written = 0
        self.id: str | None = None  # the header's id (None: not started yet, or a journal from before headers)
        self.base: str | None = None  # the generation of project.json a journal started now continues
        # the file as this process last read or wrote it, open or not: (inode, size, mtime), None when
        # there is none, unset before it was read; and its bytes (None: none, or unreadable). The bytes,
        # not a checksum: once another program wrote the file in place, the open file shows that
        # program's bytes too, and these are the only copy of this process's edits (the kept copy)
        self._known: Any = _UNSET
        self._own: bytearray | None = None

    def _sig(self) -> tuple[int, int, int] | None:
        # the modification time too: git deletes and writes a file anew, and ext4 may give the new one
        # the old inode number; a file of the same size written in place keeps both
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def _read(self) -> bytes | None:
        try:
            return read_regular_file(self.path, missing_ok=True)
        except (OSError, DataError):
            return None

    def remember(self) -> None:
        """The file as it is now is this process's own (after the open-time replay, a cut, a rotation)."""
        self._known = self._sig()
        data = self._read() if self._known is not None else None
        self._own = None if data is None else bytearray(data)

    def changed_outside(self) -> bool:
        """Whether the file is no longer the one this process last read or wrote (one stat; a file of
        the same size is read and compared: a copy of the same bytes, a touch, is no change)."""
        now = self._sig()
        if self._known is _UNSET or now == self._known:
            return False
        if now is None or self._known is None or now[1] != self._known[1]:
            return True
        data = self._read()
        if data is None or data != self._own:  # against what this process wrote: a file written
            return True  # in place keeps the inode, and an open file shows its new bytes too
        if self._file is not None and now[0] != self._known[0]:
            self.close()  # the same bytes under a new inode: append to the file the name holds now
        self._known = now  # a touch, or the same bytes anew
        return False

    def _handle(self) -> Any:
        if self._file is None:
            self._file = open_append(self.path)
            st = os.fstat(self._file.fileno())
            sig = (st.st_ino, st.st_size, st.st_mtime_ns)
            if sig != self._known or self._own is None:  # not the file read at open: its bytes now
                self._own = bytearray(self.contents() or b"")
            self._known = sig  # then kept up to date by each append
        return self._file

    def append(self, body: dict[str, Any]) -> None:
        """Append one entry and make it durable before returning (one write per line: a crash
        tears at most this line). On failure (disk full, I/O error) the file is cut back to
        where it was, so an edit the caller was told failed does not reappear at the next open.
        A new (or empty) file gets its header in the same write.
        """
        f = self._handle()
        data = encode_entry(body)
        header_id = None
        if self._known[1] == 0 and body["seq"] > 0:
            header_id = secrets.token_hex(8)
            data = encode_entry({"seq": body["seq"] - 1, "op": HEADER_OP, "id": header_id, "base": self.base}) + data
        try:
            append_durably(f, data)
        except OSError:
            now = self.contents() or b""
            if now.startswith(self._own):  # cut back, or (the cut failed) this write's torn tail: ours
                st = os.fstat(f.fileno())
                self._known = (st.st_ino, st.st_size, st.st_mtime_ns)
                self._own = bytearray(now)
            raise  # (anything else is another program's: the next check tells it)
        st = os.fstat(f.fileno())
        self._known = (st.st_ino, st.st_size, st.st_mtime_ns)
        self._own += data
        if header_id is not None:
            self.id = header_id
        self.entries_written += 1

    def own_bytes(self) -> bytes | None:
        """The journal as this process last read or wrote it (its header, the edits it read at open
        and those it appended since), whatever another program did to the file since; None when
        there was none. What a kept copy holds (project_outside)."""
        return None if self._own is None else bytes(self._own)

    def contents(self) -> bytes | None:
        """The bytes of the open file (the one this process appends to, even when its name now
        holds another file, or another program wrote it in place); None when none is open. Not
        this process's edits once :meth:`changed_outside` said so: :meth:`own_bytes` are."""
        if self._file is None:
            return None
        self._file.seek(0)
        return self._file.read()

    def truncate(self, size: int) -> None:
        """Cut the file to ``size`` bytes (drops a torn tail) and make that durable."""
        self.close()
        truncate_durably(self.path, size)
        self.remember()

    def rotate(self, previous: str | os.PathLike[str], base: str | None = None) -> None:
        """Move the journal to ``previous`` (kept for recovery) and start an empty one, which
        continues the project.json generation ``base``."""
        self.close()
        if self.path.exists():
            move_durably(self.path, previous)
        self.entries_written = 0
        self.id, self.base = None, base
        self.remember()

    def close(self) -> None:
        if self._file is not None:  # what is known of it stays: the file as this process left it
            self._file.close()
            self._file = None
