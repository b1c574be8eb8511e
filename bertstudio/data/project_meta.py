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
  contain; ``recent_settings`` holds the last training settings; ``backups``
  lists the split data kept when an import replaced a split's rows.
  Each label also has an ``id`` that a rename keeps and nobody reuses, so a run that
  recorded its labels' ids is read under today's names after renames and swaps. A file
  without ids gets them in its labels' order (:func:`assign_label_ids`), as they were the
  day it is opened, and ``label_id_next`` is past every such numbered id; a label made
  since gets an id drawn at random (:func:`new_label_id`), so that two copies of one
  project folder never give their own new labels the same id. Such a file also keeps
  ``label_ids_first`` (``{"ids": {name: id}, "at": ISO time}``): the names the ids were first
  given from, and when, so that a run made before then (no ``label_ids.json``) is read through
  them after renames (train/rundir.read_label_ids).
  ``generation`` is drawn at random at each compaction (and at create): the journal started
  after it names it as its ``base``. ``journal`` names the journal (its header's id) whose edits
  up to ``labels_seq`` the file holds, ``folded_journal`` the one the last compaction folded. Two
  copies of a project (a git clone, a sync folder) number their edits alike; these tell the
  replay a journal made on another copy from its own (project_replay).

Every field is checked on load (types, ranges, data file names that stay inside
``data/``); NaN and Infinity are not JSON and are refused. A file that fails a
check is treated like a damaged one: the backup is tried, and when both fail
the open is refused with a DataError naming the field.
"""

from __future__ import annotations

import colorsys
import copy
import hashlib
import json
import logging
import os
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.journal import MAX_SEQ
from bertstudio.data.regular_file import read_regular_file
from bertstudio.errors import DataError

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
PROJECT_FILE = "project.json"
BACKUP_FILE = "project.json.bak"
SPLITS: tuple[str, ...] = ("train", "dev", "test")
DATA_DIR = "data"
SPLIT_BACKUP_DIR = "data/backup"
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
# a data file name: letters, digits, '-', '_' and '.', never a path or '..'
_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.arrow$")

# Tableau 10: distinct on light and dark themes and for the common colour blindnesses.
PALETTE: tuple[str, ...] = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)


def default_color(index: int) -> str:
    """The colour a new label gets: the palette's, then a hue of its own. The palette repeated
    every 10 labels, so labels 0, 10, 20 and 30 of a 40-label set shared a colour; past it the
    hues step by the golden angle (no two close), at three lightnesses in turn."""
    if 0 <= index < len(PALETTE):
        return PALETTE[index]
    k = max(0, index - len(PALETTE))
    hue = (0.07 + k * 0.381966) % 1.0  # 1 - 1/phi of a turn: each new hue lands in the widest gap
    red, green, blue = colorsys.hls_to_rgb(hue, (0.45, 0.62, 0.35)[k % 3], 0.6)
    return "#{:02x}{:02x}{:02x}".format(*(round(255 * c) for c in (red, green, blue)))


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def meta_checksum(body: dict[str, Any]) -> str:
    return hashlib.sha256(_canonical(body)).hexdigest()


def encode_meta(meta: dict[str, Any]) -> bytes:
    body = {k: v for k, v in meta.items() if k != "checksum"}
    body["checksum"] = meta_checksum(body)
    # indented so a person can read and diff it; the checksum does not depend on layout
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def new_generation() -> str:
    """A compaction's generation id (see the module docstring)."""
    return secrets.token_hex(8)


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


def _parse(path: Path) -> tuple[dict[str, Any], bytes, int]:
    """Parse and check one copy of project.json; raise _Damaged or (for a newer schema) DataError."""
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0  # missing or unreadable: said by the read below
    if size > MAX_META_BYTES:  # refused from its size: a damaged copy, the other one may be good
        raise _Damaged(f"the file is {size:,} bytes, more than a project file holds (at most {MAX_META_BYTES:,})")
    # a FIFO or device is a DataError, never opened
    raw = read_regular_file(path, missing_ok=True, max_bytes=MAX_META_BYTES)
    if raw is None:
        raise _Damaged("the file is missing")
    try:
        meta = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise _Damaged("the file is not text (garbage bytes)") from None
    except json.JSONDecodeError as exc:
        raise _Damaged(f"the file is not valid JSON ({exc.msg} at line {exc.lineno}), probably cut short") from None
    except (ValueError, RecursionError) as exc:  # NaN/Infinity, a 5,000-digit number, 100,000-deep nesting
        raise _Damaged(f"the file is not valid project JSON ({str(exc)[:200]})") from None
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
    for key, type_ in (("name", str), ("kind", str), ("labels", list), ("splits", dict)):
        if not isinstance(meta.get(key), type_):
            raise _Damaged(f"the field {key!r} is missing or not a {type_.__name__}")
    if version == 1:
        meta = upgrade_v1(meta)
    meta = _complete(meta)
    check_fields(meta)
    return meta, raw, version


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def safe_data_file(value: Any, folder: str = DATA_DIR) -> bool:
    """True when ``value`` names a file directly inside ``folder`` of the project (no '..', no absolute path)."""
    if not isinstance(value, str) or "\\" in value or ":" in value:
        return False
    path = PurePosixPath(value)
    return (not path.is_absolute() and path.parent == PurePosixPath(folder)
            and _FILE_NAME.match(path.name) is not None)


MAX_LABEL_CHARS = 200  # a class name, shown on buttons, charts and in the model's config
MAX_PROJECT_LABELS = 1_000  # a legend of buttons and a picker; a journal of 60,000 adds took minutes to open
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # control and text-direction characters


def label_name_problem(name: Any, *, new: bool = False) -> str | None:
    """Why ``name`` cannot be a label name (the one rule for project.json, the journal, add,
    rename and import), or None. A ``new`` name (made now: a new project, add, rename, import)
    may not start or end with whitespace either: CSV and TSV trim the space after a comma
    ("good movie, pos"), so ' pos ' came back from the project's own export as 'pos'. Names
    already in a project (project.json, the journal) still open."""
    refused = label_name_refusal(name, new=new)
    return None if refused is None else refused[0]


def label_name_refusal(name: Any, *, new: bool = False) -> tuple[str, dict[str, Any]] | None:
    """:func:`label_name_problem`'s reason and its facts (``refusal``: empty_name, name_spaces,
    name_too_long, name_hidden; the name and numbers), for an interface that says it in its own
    language (the Label set dialog said "label name ... holds a control character" in English)."""
    if not isinstance(name, str) or not name.strip():
        return (f"label name {name!r} is empty" if isinstance(name, str) else f"{name!r} is not a label name",
                {"refusal": "empty_name"})
    if new and name != name.strip():
        return (f"label name {name[:40]!r} starts or ends with a space (did you mean {name.strip()[:40]!r}?)",
                {"refusal": "name_spaces", "name": name[:40], "stripped": name.strip()[:40]})
    if len(name) > MAX_LABEL_CHARS:
        return (f"label name {name[:40]!r}... is {len(name):,} characters long (at most {MAX_LABEL_CHARS})",
                {"refusal": "name_too_long", "name": name[:40], "length": len(name), "limit": MAX_LABEL_CHARS})
    if _HIDDEN.search(name):
        return (f"label name {name[:40]!r} holds a control or text-direction character",
                {"refusal": "name_hidden", "name": shown_name(name[:40])})
    return None


MAX_META_BYTES = 64 << 20  # project.json: labels, splits, settings; a sparse 1 GB one took 7.6 s and 2.3 GB
MAX_NAME_CHARS = 200  # a project's name: a window title, not a document


def project_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a new project, or None."""
    if not isinstance(name, str) or not name.strip():
        return "the project needs a name"
    if len(name) > MAX_NAME_CHARS:
        return f"the name is {len(name):,} characters long (at most {MAX_NAME_CHARS})"
    if _HIDDEN.search(name):
        return "the name holds a control or text-direction character (a line break, a tab)"
    return None


def shown_name(name: str, limit: int = 80) -> str:
    """``name`` as a title shows it: hidden characters as spaces, at most ``limit`` characters
    (a project.json written elsewhere may hold anything; opening never refuses it for this)."""
    name = _HIDDEN.sub(" ", str(name)).strip() or "?"
    return name if len(name) <= limit else name[:limit - 1] + "…"


def check_fields(meta: dict[str, Any]) -> None:
    """Raise _Damaged naming the first field whose type or value is wrong (a hostile or broken file)."""
    from bertstudio.data.examples import KINDS

    if meta["kind"] not in KINDS:
        raise _Damaged(f"kind {meta['kind']!r} is not one of {', '.join(KINDS)}")
    if meta.get("glue_task") is not None and not isinstance(meta["glue_task"], str):
        raise _Damaged(f"glue_task is {meta['glue_task']!r}, not a name")
    for key in ("ui_state", "recent_settings"):
        if not isinstance(meta[key], dict):
            raise _Damaged(f"the field {key!r} is not an object")
    for key in ("generation", "journal", "folded_journal"):
        if meta.get(key) is not None and not (isinstance(meta[key], str) and 0 < len(meta[key]) <= 64):
            raise _Damaged(f"{key} is {str(meta[key])[:40]!r}, not an id")
    for key in ("seq", "labels_seq", "data_seq"):
        if not _is_count(meta[key]) or meta[key] > MAX_SEQ:  # a 260-digit seq named data files too long to write
            raise _Damaged(f"{key} is {str(meta[key])[:40]!r}, not a whole number from 0 to {MAX_SEQ:,}")
    names: set[str] = set()
    if len(meta["labels"]) > MAX_PROJECT_LABELS:
        raise _Damaged(f"{len(meta['labels']):,} labels (at most {MAX_PROJECT_LABELS:,})")
    for i, item in enumerate(meta["labels"]):
        name, color = item.get("name"), item.get("color")
        problem = label_name_problem(name)
        if problem or name in names:
            raise _Damaged(f"label {i}: {problem or f'{name!r} appears twice'}")
        if not isinstance(color, str) or not COLOR.match(color):
            raise _Damaged(f"the colour of label {name!r} is {color!r}, not #rrggbb")
        names.add(name)
    for split, info in meta["splits"].items():
        if split not in SPLITS:
            raise _Damaged(f"unknown split {split!r} (expected {' | '.join(SPLITS)})")
        _check_file_entry(f"split {split!r}", info, DATA_DIR)
    first = meta.get("label_ids_first")
    if first is not None and not (isinstance(first, dict) and isinstance(first.get("at"), str)
                                  and isinstance(first.get("ids"), dict)
                                  and all(isinstance(k, str) and _is_label_id(v) for k, v in first["ids"].items())):
        raise _Damaged("label_ids_first is not {'ids': {name: id}, 'at': time}")
    if not isinstance(meta.get("backups", []), list):
        raise _Damaged("the field 'backups' is not a list")
    for i, info in enumerate(meta.get("backups", [])):
        _check_file_entry(f"backup {i}", info, SPLIT_BACKUP_DIR)
        if not isinstance(info.get("id"), str) or info.get("split") not in SPLITS \
                or not isinstance(info.get("labels", []), list) \
                or not all(isinstance(n, str) for n in info.get("labels", [])):
            raise _Damaged(f"backup {i} has no id, names no split or has a bad label list")
        renames = info.get("renames", {})
        if not isinstance(renames, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in renames.items()):
            raise _Damaged(f"backup {i} has renames that are not label names")


def _check_file_entry(what: str, info: Any, folder: str) -> None:
    if not isinstance(info, dict):
        raise _Damaged(f"{what} is {info!r}, not an object")
    if not safe_data_file(info.get("file"), folder):
        raise _Damaged(f"{what} names the data file {info.get('file')!r}, which is not a file in {folder}/")
    if not _is_count(info.get("rows")):
        raise _Damaged(f"{what} has {info.get('rows')!r} rows, not a whole number >= 0")
    for key in ("source", "imported", "lineage"):
        if info.get(key) is not None and not isinstance(info[key], str):
            raise _Damaged(f"{what}: {key} is {info[key]!r}, not text")


def replaced_at(meta: dict[str, Any], split: str) -> list[Any]:
    """When ``split``'s rows were replaced, as its kept backups in project.json ``meta`` say."""
    return [b.get("replaced") for b in meta.get("backups") or [] if isinstance(b, dict) and b.get("split") == split]


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


def _is_label_id(value: Any) -> bool:
    return _is_count(value) and value <= MAX_SEQ


# Ids below this were numbered in order (0, 1, 2...: a project's labels before the copies of a
# folder could diverge, and those of a project from before ids); ids from it up are drawn at random.
RANDOM_LABEL_IDS = 2 ** 32


def new_label_id(meta: dict[str, Any]) -> int:
    """An id for a label made now: drawn at random, never one a label of ``meta`` holds. Numbered
    ids were given alike by two copies of one project folder (``cp -r``: the same uid), so a run
    of one copy read its new class 'x' as the other copy's new 'y'; two draws from 2**53 - 2**32
    ids coincide about once in 10**15."""
    held = {item.get("id") for item in meta["labels"]}
    while True:
        label_id = RANDOM_LABEL_IDS + secrets.randbelow(MAX_SEQ - RANDOM_LABEL_IDS + 1)
        if label_id not in held:
            return label_id


def given_label_id(meta: dict[str, Any], label_id: Any) -> bool:
    """True when ``label_id`` may have been given to a label of ``meta`` (a numbered id below
    ``label_id_next``, or a drawn one): undoing a removal may give it back."""
    return _is_label_id(label_id) and (label_id < meta.get("label_id_next", 0) or label_id >= RANDOM_LABEL_IDS)


def assign_label_ids(meta: dict[str, Any]) -> None:
    """Give each label of ``meta`` without an id one (in place), and keep ``label_id_next`` past
    every numbered id used: a removed label's id is never given to another label, so an old run's
    removed class never reads as a class made later. A project from before ids (no
    ``label_id_next``) numbers its labels in their order, the same at every open until it is
    written; a label made since (an import's) gets a drawn id (:func:`new_label_id`)."""
    numbered = "label_id_next" not in meta
    used = [item["id"] for item in meta["labels"] if _is_label_id(item.get("id")) and item["id"] < RANDOM_LABEL_IDS]
    after = meta.get("label_id_next")
    after = max([after if _is_label_id(after) else 0] + [i + 1 for i in used])
    for item in meta["labels"]:
        if not _is_label_id(item.get("id")):
            if numbered:
                item["id"], after = after, after + 1
            else:
                item["id"] = new_label_id(meta)
    meta["label_id_next"] = after


def _complete(meta: dict[str, Any]) -> dict[str, Any]:
    meta.setdefault("backups", [])
    meta.setdefault("glue_task", None)
    meta.setdefault("ui_state", {})
    meta.setdefault("recent_settings", {})
    for key in ("seq", "labels_seq", "data_seq"):
        meta.setdefault(key, 0)
    for i, item in enumerate(meta["labels"]):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise _Damaged(f"label {i} is {item!r}, not {{'name': ..., 'color': ...}}")
        item.setdefault("color", default_color(i))
        if "id" in item and not _is_label_id(item["id"]):
            raise _Damaged(f"label {i} has the id {str(item['id'])[:40]!r}, not a whole number from 0 to {MAX_SEQ:,}")
    if "label_id_next" in meta and not _is_label_id(meta["label_id_next"]):
        raise _Damaged(f"label_id_next is {str(meta['label_id_next'])[:40]!r}, not a whole number from 0 to {MAX_SEQ:,}")
    ids = [item["id"] for item in meta["labels"] if "id" in item]
    if len(set(ids)) != len(ids):
        raise _Damaged("two labels have the same id")
    before_ids = "label_id_next" not in meta
    assign_label_ids(meta)  # a project from before ids: in its labels' order, as they are today
    if before_ids and meta["labels"] and "label_ids_first" not in meta:
        # the runs already in runs/ recorded no ids: they were made under these names, so after a
        # rename they are read through this map, not split in two ("neg" and "negative")
        meta["label_ids_first"] = {"ids": {item["name"]: item["id"] for item in meta["labels"]},
                                   "at": datetime.now(timezone.utc).isoformat()}
    if not (isinstance(meta.get("uid"), str) and 0 < len(meta["uid"]) <= 64):
        # whose label ids a run recorded: two projects number their labels alike (project.json keeps it
        # from its next write; until then a run recorded under another uid compares names as they are)
        meta["uid"] = uuid.uuid4().hex
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
        meta, raw, version = _parse(main)
    except _Damaged as exc:
        if not main.exists() and not backup.exists():
            raise DataError("this folder is not a bertstudio project", path=main,
                            expected=f"a folder with {PROJECT_FILE}") from None
        try:
            meta, raw, version = _parse(backup)
        except _Damaged as exc2:
            raise DataError(f"the project file is damaged ({exc}) and so is its backup ({exc2})",
                            path=main, expected="a readable project.json or project.json.bak") from None
        from_backup = True
        messages.append(f"{main.name} could not be read: {exc}. The previous version was restored from "
                        f"{backup.name}; edits since then are recovered from the journal.")
    if version == 1:
        messages.append(f"{main.name} was upgraded from schema version 1 to {SCHEMA_VERSION} "
                        f"(the old file is kept as {backup.name}).")
    return LoadedMeta(meta, raw, messages, from_backup, version < SCHEMA_VERSION)


class MetaState:
    """The facts a Project keeps in project.json, and the one way it changes them (mixed into Project).

    Changes are made on a copy (:meth:`_meta_copy`) and become the project's state
    only once written (:meth:`_commit_meta`), so a failed write leaves the state
    and the files as they were.
    """

    folder: Path
    _meta: dict[str, Any]
    _meta_bytes: bytes | None
    _seq: int

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
    def split_names(self) -> list[str]:
        """Splits that hold rows, in train/dev/test order."""
        return [s for s in SPLITS if s in self._meta["splits"]]

    @property
    def split_info(self) -> dict[str, dict[str, Any]]:
        """Per split: rows, source file, when imported (a copy), and ``replaced_at``: when its rows
        were replaced, as its kept backups say (rundir.rows_then: which rows an old run read)."""
        return {s: {**v, "replaced_at": replaced_at(self._meta, s)} for s, v in self._meta["splits"].items()}

    @property
    def ui_state(self) -> dict[str, Any]:
        """A free dict the GUI fills (current split/row, column widths...); saved by :meth:`save_ui_state`."""
        return self._meta["ui_state"]

    @property
    def recent_settings(self) -> dict[str, Any]:
        """The last training settings used in this project (a free dict, saved with the UI state)."""
        return self._meta["recent_settings"]

    def _meta_copy(self) -> dict[str, Any]:
        """A copy of project.json's contents to change and then commit (the UI's dicts stay shared)."""
        return {k: v if k in ("ui_state", "recent_settings") else copy.deepcopy(v) for k, v in self._meta.items()}

    def _commit_meta(self, meta: dict[str, Any], *, required: bool = True) -> None:
        """Write ``meta`` as project.json and make it the project's state.

        On a failed write the state is unchanged and a DataError says why, unless
        ``required`` is False: then the change (already durable in the journal) is
        kept in memory and written with the next successful write.
        """
        self._check_outside()  # type: ignore[attr-defined]  # never over another program's project.json
        meta["seq"] = self._seq
        if self._journal.id is not None:  # type: ignore[attr-defined]
            meta["journal"] = self._journal.id  # type: ignore[attr-defined]  # the journal this file is in step with
        assign_label_ids(meta)  # a label an import added (or any made without one) gets its id here
        try:
            self._meta_bytes = write_meta(self.folder, meta, self._meta_bytes)
            self._remember_meta()  # type: ignore[attr-defined]
        except OSError as exc:
            if required:
                from bertstudio.data.project_store import disk_error  # the store imports this module

                raise disk_error(exc, self.folder / PROJECT_FILE, "project.json could not be written",
                                 folder=self.folder) from exc
            log.warning("project.json not written (%s); the journal holds the change", exc)
        self._meta = meta
