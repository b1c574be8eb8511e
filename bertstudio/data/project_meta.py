"""``project.json``: reading with checks and recovery, the v1 -> v2 upgrade, atomic writing.

The file is JSON with a ``checksum`` (SHA-256 of the other fields written
canonically), so a half-written or damaged file is told apart from a good one
even when it still parses. Every write keeps the previous good version as
``project.json.bak``; :func:`load_meta` falls back to it, with a message the GUI
shows, when ``project.json`` is missing, cut short or damaged. A file from a newer
bertstudio is refused (never "recovered" from the backup: the user would lose
what the newer version wrote).

Schema versions:

- 1: ``labels`` is a list of plain label names (no colours); no journal markers.
- 2: ``labels`` is a list of ``{"name", "color"}``; ``seq`` / ``labels_seq`` /
  ``data_seq`` mark which journal entries the file and the data files already
  contain; ``recent_settings`` holds the last training settings.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.errors import DataError

SCHEMA_VERSION = 2
PROJECT_FILE = "project.json"
BACKUP_FILE = "project.json.bak"

# Tableau 10: distinct on light and dark themes and for the common colour blindnesses.
PALETTE: tuple[str, ...] = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)


def default_color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def meta_checksum(body: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(body)).hexdigest()


def encode_meta(meta: dict[str, Any]) -> bytes:
    body = {k: v for k, v in meta.items() if k != "checksum"}
    body["checksum"] = meta_checksum(body)
    # indented so a person can read and diff it; the checksum does not depend on layout
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_meta(folder: Path, meta: dict[str, Any], previous: bytes | None) -> bytes:
    """Write ``project.json`` atomically, first saving ``previous`` (the last good bytes) as the backup."""
    data = encode_meta(meta)
    if previous is not None and previous != data:
        atomic_write_bytes(folder / BACKUP_FILE, previous)
    atomic_write_bytes(folder / PROJECT_FILE, data)
    return data


class _Damaged(Exception):
    """project.json cannot be used (the reason is the message)."""


def _too_new(path: Path, version: int) -> DataError:
    return DataError(
        f"this project was saved by a newer bertstudio (schema version {version})",
        path=path,
        where="schema_version",
        expected=f"schema version {SCHEMA_VERSION} or older; update bertstudio to open it",
    )


def _parse(path: Path) -> tuple[dict[str, Any], bytes]:
    """Parse and check one copy of project.json; raise _Damaged or (for a newer schema) DataError."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise _Damaged("the file is missing") from None
    try:
        meta = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Damaged("the file is not text (garbage bytes)") from None
    except ValueError as exc:
        raise _Damaged(f"the file is not valid JSON ({exc.msg} at line {exc.lineno}), probably cut short") from None
    if not isinstance(meta, dict):
        raise _Damaged("the file does not hold a JSON object")
    version = meta.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _Damaged(f"schema_version is {version!r}, not a version number")
    if version > SCHEMA_VERSION:  # checked before the checksum: a newer version may sum differently
        raise _too_new(path, version)
    stored = meta.pop("checksum", None)
    if stored is not None and stored != meta_checksum(meta):
        raise _Damaged("the checksum does not match the contents (the file was damaged or half written)")
    for key, kind in (("name", str), ("kind", str), ("labels", list), ("splits", dict)):
        if not isinstance(meta.get(key), kind):
            raise _Damaged(f"the field {key!r} is missing or not a {kind.__name__}")
    return meta, raw


def upgrade_v1(meta: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: plain label names get palette colours; the journal markers start at 0."""
    out = dict(meta)
    out["labels"] = [
        {"name": str(item), "color": default_color(i)} if not isinstance(item, dict) else item
        for i, item in enumerate(meta.get("labels", []))
    ]
    out.setdefault("glue_task", None)
    out.setdefault("ui_state", {})
    out.setdefault("recent_settings", {})
    for key in ("seq", "labels_seq", "data_seq"):
        out.setdefault(key, 0)
    out["schema_version"] = 2
    return out


def _complete(meta: dict[str, Any]) -> dict[str, Any]:
    meta.setdefault("glue_task", None)
    meta.setdefault("ui_state", {})
    meta.setdefault("recent_settings", {})
    for key in ("seq", "labels_seq", "data_seq"):
        meta.setdefault(key, 0)
    for i, item in enumerate(meta["labels"]):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise _Damaged(f"label {i} is {item!r}, not {{'name': ..., 'color': ...}}")
        item.setdefault("color", default_color(i))
    return meta


@dataclass
class LoadedMeta:
    meta: dict[str, Any]
    raw: bytes  # the bytes of the copy used: they become the backup at the next write
    messages: list[str]
    from_backup: bool  # project.json was unusable and the backup was used
    upgraded: bool  # an older schema was upgraded in memory

    @property
    def rewrite(self) -> bool:
        """project.json must be written back now."""
        return self.from_backup or self.upgraded


def load_meta(folder: Path) -> LoadedMeta:
    """Read ``folder/project.json`` (falling back to the backup).

    ``meta`` is upgraded to the current schema. Raises DataError when
    neither copy is usable or the schema is newer than this bertstudio knows.
    """
    main, backup = folder / PROJECT_FILE, folder / BACKUP_FILE
    messages: list[str] = []
    from_backup = False
    try:
        meta, raw = _parse(main)
    except _Damaged as exc:
        if not main.exists() and not backup.exists():
            raise DataError("this folder is not a bertstudio project", path=main,
                            expected=f"a folder with {PROJECT_FILE}") from None
        try:
            meta, raw = _parse(backup)
        except _Damaged as exc2:
            raise DataError(f"the project file is damaged ({exc}) and so is its backup ({exc2})",
                            path=main, expected="a readable project.json or project.json.bak") from None
        from_backup = True
        messages.append(f"{main.name} could not be read: {exc}. The previous version was restored from "
                        f"{backup.name}; edits since then are recovered from the journal.")
    version = meta["schema_version"]
    try:
        if version == 1:
            meta = upgrade_v1(meta)
            messages.append(f"{main.name} was upgraded from schema version 1 to {SCHEMA_VERSION} "
                            f"(the old file is kept as {backup.name}).")
        meta = _complete(meta)
    except _Damaged as exc:
        raise DataError(f"the project file is damaged ({exc})", path=main, where="labels") from None
    return LoadedMeta(meta, raw, messages, from_backup, version < SCHEMA_VERSION)
