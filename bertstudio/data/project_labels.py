"""The label set of a project: add, rename, recolour and remove labels (all journaled).

:class:`LabelSetOps` is mixed into :class:`bertstudio.data.project.Project`; it
uses the project's journal (``_append``), its overlay and its ``project.json``
writer, and adds the public label-set methods. A rename is one journal entry
that renames every gold value using the label, in the data files (lazily, at
the next compaction) and in the pending edits.

:func:`apply_label_op` replays one label-set entry onto the label set kept in
``project.json`` (and a rename onto the kept backups of replaced rows, so that a
restore brings their rows back under the labels' current names); it ignores entries that no longer apply (replaying
twice is harmless), :func:`label_op_problem` tells a malformed entry from a
good one and :func:`label_op_conflict` an entry that cannot apply to the label
set it was made on (a rename onto an existing label would merge two classes'
gold values), so that a hostile or damaged journal is skipped, not obeyed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection

from bertstudio.data.project_meta import (
    COLOR,
    assign_label_ids,
    given_label_id,
    new_label_id,
    MAX_LABEL_CHARS,
    MAX_PROJECT_LABELS,
    PROJECT_FILE,
    default_color,
    label_name_problem,
    label_name_refusal,
)
from bertstudio.data.kinds import get_spec
from bertstudio.data.labelmap import spelling
from bertstudio.errors import ConfigError, DataError

if TYPE_CHECKING:
    from bertstudio.data.project_overlay import GoldOverlay

LABEL_OPS = ("add_label", "rename_label", "set_color", "remove_label")


def check_label_names(names: list[str], folder: Path, *, new: Collection[str] | None = None) -> None:
    """Names for a new label set, label or rename: each a real name, none twice, and none a
    look-alike of another ('Pos' beside 'pos', 'pos\u200b', a decomposed 'café', '01' beside
    '1'): two classes a person cannot tell apart in any list. Projects that hold such names
    already still open (project.json is checked by project_meta). ``new``: the names being made
    (default: all), held to :func:`label_name_problem`'s rule for new names."""
    seen: set[str] = set()
    looks: dict[str, str] = {}
    if len(names) > MAX_PROJECT_LABELS:
        raise DataError(f"{len(names):,} labels", path=folder / PROJECT_FILE, where="labels",
                        expected=f"at most {MAX_PROJECT_LABELS:,} labels in a project")
    for name in names:
        refused = label_name_refusal(name, new=new is None or name in new)
        if refused:  # its facts say it in the app's language
            raise DataError(refused[0], path=folder / PROJECT_FILE, where="labels",
                            expected=f"a non-empty name of at most {MAX_LABEL_CHARS} characters, "
                                     "without spaces at its start or end", facts=refused[1])
        if name in seen:  # an added label: one the set holds (the facts say it in the app's language)
            raise DataError(f"label {name!r} appears twice", path=folder / PROJECT_FILE, where="labels",
                            expected="unique label names", facts={"refusal": "name_taken", "name": name})
        other = looks.setdefault(spelling(name), name)
        if other != name:
            raise DataError(f"label {name!r} reads the same as {other!r} (they differ only by case, spaces, Unicode "
                            "form or invisible characters)", path=folder / PROJECT_FILE, where="labels",
                            expected="names that differ in what they say",
                            facts={"refusal": "look_alike", "name": name, "other": other})
        seen.add(name)


def check_color(color: str, folder: Path) -> str:
    if not isinstance(color, str) or not COLOR.match(color):
        raise DataError(f"colour {color!r} is not #rrggbb", path=folder / PROJECT_FILE, where="labels",
                        expected="a colour like '#4e79a7'")
    return color.lower()


def label_op_problem(op: dict[str, Any]) -> str | None:
    """Why a (checksum-valid) label-set journal entry is malformed, or None."""
    fields = ("old", "new") if op["op"] == "rename_label" else ("name",)
    for key in fields:
        value = op.get(key)
        if not isinstance(value, str) or not value.strip():
            return f"{key} is {value!r}, not a label name"
        if key != "old" and (problem := label_name_problem(value)):  # an old name is looked up, never made
            return problem
    if op["op"] in ("add_label", "set_color") and not (isinstance(op.get("color"), str) and COLOR.match(op["color"])):
        return f"colour {op.get('color')!r} is not #rrggbb"
    label_id = op.get("id")
    if op["op"] == "add_label" and label_id is not None and (isinstance(label_id, bool) or not isinstance(label_id, int)
                                                             or label_id < 0):
        return f"id {label_id!r} is not a label id"
    index = op.get("index")
    if op["op"] == "add_label" and index is not None and (isinstance(index, bool) or not isinstance(index, int)
                                                          or not 0 <= index <= MAX_PROJECT_LABELS):
        return f"index {index!r} is not a place in the label set"
    return None


def label_op_conflict(op: dict[str, Any], names: Collection[str]) -> str | None:
    """Why a well-formed label-set entry is impossible on the label set ``names``, or None.

    The same rules the public methods check before journaling an edit, so a
    journal written by bertstudio never trips them; one that does was damaged or
    forged, and obeying it would change gold values silently.
    """
    what = op["op"]
    if what == "add_label" and op["name"] in names:
        return f"label {op['name']!r} already exists"
    if what == "add_label" and len(names) >= MAX_PROJECT_LABELS:
        return f"the project has {len(names):,} labels, the most it may have"
    if what == "rename_label":
        if op["old"] not in names:
            return f"there is no label {op['old']!r} to rename"
        if op["new"] == op["old"]:
            return f"renames {op['old']!r} to itself"
        if op["new"] in names:
            return (f"label {op['new']!r} already exists: renaming {op['old']!r} to it "
                    "would merge the two labels' gold values")
    if what in ("set_color", "remove_label") and op["name"] not in names:
        return f"there is no label {op['name']!r}"
    return None


def compose_rename(mapping: dict[str, str], old: str, new: str, raw: Collection[str] | None = None) -> dict[str, str]:
    """``mapping`` (a stored value -> the label's current name) after ``old`` was renamed ``new``:
    stored values that read ``old`` now read ``new``, and a stored ``old`` not yet renamed does
    too (only if it is among ``raw``, the stored values, when those are known)."""
    out = {value: (new if current == old else current) for value, current in mapping.items()}
    if old not in out and (raw is None or old in raw):
        out[old] = new
    return out


def names_now(run_labels: list[str], run_label_ids: list[int] | None, labels: list[str],
              label_ids: list[int]) -> dict[str, str | None]:
    """See :meth:`LabelSetOps.names_now`; ``labels``/``label_ids``: the project's today."""
    if run_label_ids is None or len(run_label_ids) != len(run_labels):
        return {name: (name if name in labels else None) for name in run_labels}
    today = dict(zip(label_ids, labels))
    return {name: today.get(i) for name, i in zip(run_labels, run_label_ids)}


def value_now(value: Any, names: dict[str, str | None] | None, labels: list[str], *,
              removed: str = "{name} (removed)") -> Any:
    """A run's class name (or list of tags) under the project's name of today (``names``, from
    :func:`names_now`); a class removed since the run keeps its name, marked (``removed``, a
    format of ``name``: the app's in the user's language) when a label of today bears it (so it
    never reads as that other class)."""
    if names is None:
        return value
    if isinstance(value, list):
        return [value_now(v, names, labels, removed=removed) for v in value]
    if not isinstance(value, str) or value not in names:
        return value
    now = names[value]
    if now is not None:
        return now
    return removed.format(name=value) if value in labels else value


def pred_now(pred: dict[str, Any], names: dict[str, str | None] | None, labels: list[str], *,
             removed: str = "{name} (removed)") -> dict[str, Any]:
    """A prediction's label, tags and probabilities under today's names (see :func:`value_now`)."""
    if names is None:
        return pred
    out = dict(pred)
    for key in ("label", "tags"):
        if key in out:
            out[key] = value_now(out[key], names, labels, removed=removed)
    if isinstance(out.get("probs"), dict):
        out["probs"] = {value_now(k, names, labels, removed=removed): v for k, v in out["probs"].items()}
    return out


def apply_label_op(meta: dict[str, Any], op: dict[str, Any]) -> None:
    """Apply one label-set entry to project.json's ``meta``: its ``labels`` (the list of
    ``{"name", "color"}``) and, for a rename, the ``renames`` of each kept backup of replaced rows."""
    labels = meta["labels"]
    names = [item["name"] for item in labels]
    what = op["op"]
    if what == "add_label" and op["name"] not in names:
        at = op.get("index")
        item = {"name": op["name"], "color": op["color"]}
        if isinstance(op.get("id"), int) and (op["id"] >= meta.get("label_id_next", 0) or op.get("restore") is True) \
                and op["id"] not in {i.get("id") for i in labels}:
            item["id"] = op["id"]  # the id the edit was made with (a replay gives the same one)
        labels.insert(at if isinstance(at, int) and 0 <= at <= len(labels) else len(labels), item)
        assign_label_ids(meta)
    elif what == "rename_label" and op["old"] in names and op["new"] not in names:
        labels[names.index(op["old"])]["name"] = op["new"]  # its id stays: the same class, a new name
        for backup in meta.get("backups", []):
            renames = compose_rename(backup.get("renames", {}), op["old"], op["new"], backup.get("labels", []))
            if renames:
                backup["renames"] = renames
    elif what == "set_color" and op["name"] in names:
        labels[names.index(op["name"])]["color"] = op["color"]
    elif what == "remove_label" and op["name"] in names:
        del labels[names.index(op["name"])]


class LabelSetOps:
    """The label-set methods of a Project (see the module docstring)."""

    folder: Path
    kind: str
    _meta: dict[str, Any]
    _overlay: "GoldOverlay"

    @property
    def labels(self) -> list[str]:
        """Label names in id order (the order the model's head uses)."""
        return [item["name"] for item in self._meta["labels"]]

    @property
    def label_ids(self) -> list[int]:
        """Each label's stable id, in :attr:`labels` order: a rename keeps it, no other label gets it."""
        return [item["id"] for item in self._meta["labels"]]

    @property
    def uid(self) -> str:
        """The project's own id, recorded beside a run's label ids: only this project's ids are read as its."""
        return str(self._meta["uid"])

    def names_now(self, run_labels: list[str], run_label_ids: list[int] | None) -> dict[str, str | None]:
        """A run's label names -> today's names of the same classes (None: removed since the run).
        ``run_label_ids``: the ids the run recorded beside its labels; without them (a run from
        before ids, or made outside the app) a name means today's label of that name."""
        return names_now(run_labels, run_label_ids, self.labels, self.label_ids)

    @property
    def label_colors(self) -> dict[str, str]:
        return {item["name"]: item["color"] for item in self._meta["labels"]}

    def add_label(self, name: str, color: str | None = None, *, index: int | None = None, restoring: bool = False,
                  label_id: int | None = None) -> None:
        """Append a label (with a new id, drawn at random: project_meta.new_label_id), or put it at ``index`` (undoing a removal puts
        the label back where it was: its number key and model id); ``color`` is ``#rrggbb``
        (default: the palette). ``restoring``: an undo puts back a name the project held, under
        the rules names were made by then (a label with surrounding spaces from before they were refused);
        with ``label_id``, the id it had (an undone removal is the same class: runs that recorded the id
        read it as that class again), when no label holds it now."""
        self._label_kind_check("add a label")
        check_label_names(self.labels + [name], self.folder, new=[] if restoring else [name])
        color = check_color(color or default_color(len(self.labels)), self.folder)
        op: dict[str, Any] = {"op": "add_label", "name": name, "color": color, "id": new_label_id(self._meta)}
        if restoring and label_id is not None and label_id not in self.label_ids \
                and given_label_id(self._meta, label_id):
            op.update(id=int(label_id), restore=True)
        if index is not None and 0 <= index < len(self.labels):
            op["index"] = int(index)
        self._label_op(op)

    def rename_label(self, old: str, new: str, *, restoring: bool = False) -> None:
        """Rename a label everywhere: the label set and every gold value that uses it (journaled).
        ``restoring``: an undo gives back a name the project held (see :meth:`add_label`)."""
        self._label_kind_check("rename a label")
        self._require_label(old)
        if new == old:
            return
        if new in self.labels:  # said as a rename, not as "appears twice" in a label list nobody typed
            raise DataError(f"a label named {new!r} already exists: a rename cannot merge two labels",
                            path=self.folder / PROJECT_FILE, where="labels",
                            expected=f"a new name; to merge, give the rows of {old!r} the label {new!r}, then remove {old!r}",
                            facts={"refusal": "name_taken", "name": new, "old": old})
        check_label_names([n for n in self.labels if n != old] + [new], self.folder, new=[] if restoring else [new])
        self._label_op({"op": "rename_label", "old": old, "new": new})

    def set_label_color(self, name: str, color: str) -> None:
        self._require_label(name)
        self._label_op({"op": "set_color", "name": name, "color": check_color(color, self.folder)})

    def remove_label(self, name: str) -> None:
        """Remove a label no gold value uses (raises DataError naming where it is still used)."""
        self._require_label(name)
        self._check_writable()  # type: ignore[attr-defined]  # read-only is the reason, not the rows using it
        used = {s: self.label_counts(s).get(name, 0) for s in self.split_names}  # type: ignore[attr-defined]
        used = {s: n for s, n in used.items() if n}
        if used:
            where = ", ".join(f"{n} in {s}" for s, n in used.items())
            raise DataError(f"label {name!r} is still used ({where})", path=self.folder / PROJECT_FILE,
                            where="labels", expected="relabel or clear those rows first, or rename the label",
                            facts={"refusal": "label_in_use", "name": name, "used": used})
        self._label_op({"op": "remove_label", "name": name})

    def _restore_used_labels(self) -> list[str]:
        """Gold values outside the label set (a project.json edited by hand or restored from an
        older copy lost a label the rows still use) are added back to the set, journaled like
        any added label, so that no labelled row is hidden from counts, training and export;
        returns one recovery message per label restored or, when a value cannot be a label
        name, left as it is."""
        if not get_spec(self.kind).has_label_set:
            return []
        messages: list[str] = []
        used: dict[str, list[str]] = {}
        for split in self.split_names:  # type: ignore[attr-defined]
            for name, n in self.label_counts(split).items():  # type: ignore[attr-defined]
                if n and name not in self.labels:
                    used.setdefault(name, []).append(f"{n:,} in {split}")
        read_only = self.read_only  # type: ignore[attr-defined]
        for name, where in used.items():
            try:
                if read_only:  # nothing can be journaled: the set holds it for this session only
                    check_label_names(self.labels + [name], self.folder, new=[])
                    op = {"op": "add_label", "name": name, "color": default_color(len(self.labels)),
                          "id": new_label_id(self._meta)}
                    apply_label_op(self._meta, op)
                    self._apply_rename(op)
                else:
                    self.add_label(name, restoring=True)  # a name the rows already hold
            except (ConfigError, DataError) as exc:
                messages.append(f"gold label {str(name)[:40]!r} ({', '.join(where)}) is not in the label set and "
                                f"cannot be added ({exc.problem}); relabel those rows")
                continue
            saved = "added back when the project is opened where it can be written" if read_only else "added back"
            messages.append(f"label {name!r} ({', '.join(where)}) was missing from the label set in "
                            f"{PROJECT_FILE}: {saved}")
        return messages

    def _label_kind_check(self, what: str) -> None:
        if not get_spec(self.kind).has_label_set:
            raise ConfigError(f"cannot {what}: a {self.kind} project has no label set",
                              path=self.folder / PROJECT_FILE, where="labels")

    def _require_label(self, name: str) -> None:
        if name not in self.labels:
            raise DataError(f"no label named {name!r}", path=self.folder / PROJECT_FILE, where="labels",
                            expected="one of " + ", ".join(map(repr, self.labels)))

    def _label_op(self, op: dict[str, Any]) -> None:
        with self._lock:  # type: ignore[attr-defined]
            self._check_open()  # type: ignore[attr-defined]
            meta = self._meta_copy()  # type: ignore[attr-defined]
            self._append(op)  # type: ignore[attr-defined]
            apply_label_op(meta, op)
            meta["labels_seq"] = self._seq  # type: ignore[attr-defined]
            # the journal entry is durable: a failed project.json write only delays the commit to the next one
            self._commit_meta(meta, required=False)  # type: ignore[attr-defined]
            self._apply_rename(op)
        event = {"op": op["op"]}
        if op["op"] == "rename_label":
            event.update(old=op["old"], new=op["new"])
        else:
            event["name"] = op["name"]
        self._emit(kind="labels_changed", **event)  # type: ignore[attr-defined]

    def _apply_rename(self, op: dict[str, Any]) -> None:
        """What a label-set entry does to the gold values (only a rename changes them)."""
        if op["op"] == "rename_label":
            self._overlay.rename_label(op["old"], op["new"])
            self._bump()  # type: ignore[attr-defined]
        elif op["op"] in ("add_label", "remove_label"):
            self._bump()  # type: ignore[attr-defined]  # every split's ExampleSet lists the labels
