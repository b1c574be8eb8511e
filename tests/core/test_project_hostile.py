"""A hostile project.json or journal is a clear project error, never obeyed, never a crash (issue 11, item 12).

project.json files here carry a *valid* checksum (recomputed after the change),
so only the field checks can catch them; journal lines carry a valid CRC for
the same reason. A bad project.json without a good backup is refused with a
DataError naming the field; with a good backup it is recovered from it. A bad
journal entry is skipped with a recovery message and the good ones still apply.
A project file that is a FIFO or a device is refused before it is opened (opening
a FIFO without a writer blocks forever), and a data file that does not hold the
kind's columns is a DataError naming the file and the column.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa
import pytest

from bertstudio.data.examples import from_records
from bertstudio.data.journal import checksum, encode_entry
from bertstudio.data.project import Project
from bertstudio.data.project_meta import encode_meta
from bertstudio.errors import DataError
from helpers import finishes

ROWS = [{"text": t, "label": None} for t in ("good", "bad", "fine", "awful", "ok")]


def _project(folder: Path) -> Project:
    p = Project.create(folder, name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", ROWS), "train")
    return p


def _file_elsewhere(meta: dict[str, Any], folder: Path) -> None:
    # a real Arrow file with the same 5 rows, outside the project: the old code read it happily
    other = _project(folder.parent / "other")
    other.close()
    meta["splits"]["train"]["file"] = "../other/" + other.split_info["train"]["file"]


def _set(path: str, value: Any) -> Callable[[dict[str, Any], Path], None]:
    def change(meta: dict[str, Any], _folder: Path) -> None:
        *parents, last = path.split(".")
        target: Any = meta
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return change


HOSTILE: dict[str, tuple[Callable[[dict[str, Any], Path], None], str]] = {
    "file outside data/": (_file_elsewhere, "not a file in data/"),
    "etc passwd": (_set("splits.train.file", "../../etc/passwd"), "not a file in data/"),
    "rows not an int": (_set("splits.train.rows", 5.0), "5.0 rows"),
    "rows a bool": (_set("splits.train.rows", True), "True rows"),
    "colour not #rrggbb": (_set("labels.0.color", "red; drop table"), "not #rrggbb"),
    "label twice": (_set("labels.1.name", "neg"), "appears twice"),
    "label empty": (_set("labels.0.name", " "), "empty"),
    "ui_state a list": (_set("ui_state", ["page"]), "'ui_state' is not an object"),
    "Infinity in settings": (_set("recent_settings", {"learning_rate": float("inf")}), "Infinity"),
    "NaN seq": (_set("seq", float("nan")), "NaN"),
    "seq text": (_set("seq", "7"), "seq is '7'"),
    "unknown kind": (_set("kind", "poetry"), "kind 'poetry'"),
    "lineage a list": (_set("splits.train.lineage", ["x"]), "lineage is ['x'], not text"),
    "glue_task a number": (_set("glue_task", 5), "glue_task is 5"),
    "backup outside": (_set("backups", [{"id": "b", "split": "train", "file": "data/../../x.arrow", "rows": 1}]),
                       "not a file in data/backup/"),
    "backup without id": (_set("backups", [{"split": "train", "file": "data/backup/train-1.arrow", "rows": 1}]),
                          "backup 0 has no id"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_project_json_is_a_clear_error(case: str, tmp_path: Path) -> None:
    change, reason = HOSTILE[case]
    p = _project(tmp_path / "p")
    p.close()
    meta = json.loads((p.folder / "project.json").read_text())
    change(meta, p.folder)
    (p.folder / "project.json").write_bytes(encode_meta(meta))  # a valid checksum: only the checks catch it
    (p.folder / "project.json.bak").unlink(missing_ok=True)
    with pytest.raises(DataError) as info:
        Project.open(p.folder)
    assert "project.json" in info.value.message and reason in info.value.message
    with pytest.raises(DataError) as again:  # the same answer again: the refused open released its lock
        Project.open(p.folder)
    assert "already open" not in again.value.message


def test_hostile_project_json_falls_back_to_the_good_backup(tmp_path: Path) -> None:
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.save_ui_state()  # project.json.bak now holds a good copy
    p.close(compact=False)
    meta = json.loads((p.folder / "project.json").read_text())
    meta["splits"]["train"]["file"] = "../../etc/passwd"
    (p.folder / "project.json").write_bytes(encode_meta(meta))
    with Project.open(p.folder) as again:
        assert "not a file in data/" in again.recovery_messages[0]
        assert again.num_rows("train") == 5 and again.gold("train", 0) == "pos"


def _append_lines(folder: Path, *lines: bytes) -> None:
    with open(folder / "labels.journal", "ab") as f:
        for line in lines:
            f.write(line)


def test_hostile_journal_entries_are_skipped_with_a_message(tmp_path: Path) -> None:
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    seq = p.last_seq
    p.close(compact=False)
    infinity = {"seq": seq + 6, "op": "gold", "split": "train", "row": 2, "value": 1.0}
    raw_inf = json.dumps({**infinity, "crc": checksum(infinity)}).replace("1.0", "Infinity").encode() + b"\n"
    _append_lines(
        p.folder,
        encode_entry({"seq": seq + 1, "op": "gold", "split": "train", "row": 1, "value": "banana"}),
        encode_entry({"seq": seq + 2, "op": "gold", "split": "train", "row": 1, "value": {"label": "pos"}}),
        encode_entry({"seq": seq + 3, "op": "gold", "split": "train", "row": True, "value": "neg"}),
        encode_entry({"seq": seq + 4, "op": "add_label", "name": "meh"}),  # no colour
        encode_entry({"seq": seq + 5, "op": "rename_label", "old": "pos", "new": ["x"]}),
        raw_inf,
        encode_entry({"seq": seq + 7, "op": "drop_table"}),
        encode_entry({"seq": seq + 8, "op": "gold", "split": "train", "row": 3, "value": "neg"}),  # a good one
    )
    again = Project.open(p.folder)
    messages = "\n".join(again.recovery_messages)
    assert f"edit {seq + 1} skipped ('banana' is not a label of this project)" in messages
    assert f"edit {seq + 2} skipped" in messages and f"edit {seq + 3} skipped (row True" in messages
    assert f"edit {seq + 4} skipped (colour None" in messages and f"edit {seq + 5} skipped (new is" in messages
    # the Infinity line (after the header and the first edit): not JSON, never applied
    assert "line 8: damaged line" in messages
    assert f"edit {seq + 7} skipped (unknown kind of edit 'drop_table')" in messages
    assert again.labels == ["neg", "pos"]
    assert [again.gold("train", r) for r in range(5)] == ["pos", None, None, "neg", None]
    again.close()


def test_label_edits_before_and_after_a_rename_replay_as_they_were_made(tmp_path: Path) -> None:
    # gold values are checked against the label set as it was when each edit was made
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.rename_label("pos", "positive")  # project.json holds the new name; the journal the old edit
    p.add_label("mixed")
    p.set_gold("train", 1, "mixed")
    p.set_gold("train", 2, "positive")
    p.close(compact=False)
    again = Project.open(p.folder)
    assert again.recovery_messages == []
    assert again.labels == ["neg", "positive", "mixed"]
    assert [again.gold("train", r) for r in range(3)] == ["positive", "mixed", "positive"]
    again.close()


def test_impossible_label_set_entries_are_skipped_and_gold_values_kept(tmp_path: Path) -> None:
    # valid CRCs, well-formed, but impossible on the label set they apply to; a rename
    # onto an existing label used to merge its gold values into the other label silently
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.set_gold("train", 1, "neg")
    p.compact()
    p.set_gold("train", 2, "pos")  # pending in the journal
    seq = p.last_seq
    p.close(compact=False)
    _append_lines(
        p.folder,
        encode_entry({"seq": seq + 1, "op": "rename_label", "old": "pos", "new": "neg"}),
        encode_entry({"seq": seq + 2, "op": "rename_label", "old": "nope", "new": "x"}),
        encode_entry({"seq": seq + 3, "op": "rename_label", "old": "pos", "new": "pos"}),
        encode_entry({"seq": seq + 4, "op": "remove_label", "name": "nope"}),
        encode_entry({"seq": seq + 5, "op": "remove_label", "name": "neg"}),  # still used by row 1
        encode_entry({"seq": seq + 6, "op": "add_label", "name": "pos", "color": "#ffffff"}),
        encode_entry({"seq": seq + 7, "op": "set_color", "name": "nope", "color": "#ffffff"}),
        encode_entry({"seq": seq + 8, "op": "gold", "split": "train", "row": 3, "value": "neg"}),  # a good one
    )
    colors = p.label_colors
    with Project.open(p.folder) as again:
        messages = again.recovery_messages
        assert messages[0] == (f"labels.journal: edit {seq + 1} skipped (label 'neg' already exists: renaming "
                               "'pos' to it would merge the two labels' gold values)")
        assert messages[1:] == [
            f"labels.journal: edit {seq + 2} skipped (there is no label 'nope' to rename)",
            f"labels.journal: edit {seq + 3} skipped (renames 'pos' to itself)",
            f"labels.journal: edit {seq + 4} skipped (there is no label 'nope')",
            f"labels.journal: edit {seq + 5} skipped (label 'neg' is still used (1 in train))",
            f"labels.journal: edit {seq + 6} skipped (label 'pos' already exists)",
            f"labels.journal: edit {seq + 7} skipped (there is no label 'nope')",
        ]
        assert again.labels == ["neg", "pos"] and again.label_colors == colors
        assert [again.gold("train", r) for r in range(5)] == ["pos", "neg", "pos", "neg", None]
        assert again.label_counts("train") == {"neg": 2, "pos": 2}
    with Project.open(p.folder) as third:  # folded at the first open: reported once, values the same
        assert third.recovery_messages == []
        assert [third.gold("train", r) for r in range(5)] == ["pos", "neg", "pos", "neg", None]


def test_possible_label_set_edits_replay_in_order(tmp_path: Path) -> None:
    # each entry is checked against the label set as the entries before it left it
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.rename_label("pos", "tmp")
    p.rename_label("neg", "pos")  # onto the name 'pos' had before: allowed, nothing merges
    p.rename_label("tmp", "neg")
    p.add_label("meh")
    p.remove_label("meh")
    p.add_label("meh", "#123456")
    p.set_gold("train", 1, "meh")
    p.close(compact=False)
    with Project.open(p.folder) as again:
        assert again.recovery_messages == []
        assert again.labels == ["pos", "neg", "meh"] and again.label_colors["meh"] == "#123456"
        assert [again.gold("train", r) for r in range(3)] == ["neg", "meh", None]


def test_a_label_set_entry_in_a_project_without_labels_is_skipped(tmp_path: Path) -> None:
    p = Project.create(tmp_path / "r", name="r", kind="regression")
    p.import_examples(from_records("regression", [{"text": "a", "label": 0.5}]), "train")
    p.close()
    _append_lines(p.folder, encode_entry({"seq": 1, "op": "add_label", "name": "x", "color": "#ffffff"}))
    with Project.open(p.folder) as again:
        assert again.recovery_messages == ["labels.journal: edit 1 skipped (a regression project has no label set)"]
        assert again.labels == [] and again.gold("train", 0) == 0.5


def test_tagging_entry_with_the_wrong_length_is_skipped(tmp_path: Path) -> None:
    p = Project.create(tmp_path / "t", name="t", kind="tagging", labels=["O", "B-PER"])
    p.import_examples(from_records("tagging", [{"tokens": ["Ann", "runs"], "tags": None}]), "train")
    p.close()
    _append_lines(p.folder, encode_entry({"seq": 1, "op": "gold", "split": "train", "row": 0, "value": ["O"]}))
    with Project.open(p.folder) as again:
        assert again.recovery_messages == ["labels.journal: edit 1 skipped (1 tags for 2 tokens)"]
        assert again.gold("train", 0) is None


# ---------------------------------------------------------------- files that are not plain files

def _labelled_project(folder: Path) -> Project:
    """A project with folded labels, a pending (journaled) label and project.json.bak."""
    p = _project(folder)
    p.set_gold("train", 0, "pos")
    p.compact()
    p.set_gold("train", 1, "neg")  # only in the journal
    p.close(compact=False)
    return p


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*"))
            if f.is_file() and not f.is_symlink() and f.name != "project.lock"}


def _data_file(folder: Path) -> str:
    return json.loads((folder / "project.json").read_text())["splits"]["train"]["file"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("name", ["project.json", "labels.journal", "data file",
                                  "project.json.bak", "labels.journal.prev"])
def test_a_fifo_in_the_project_is_refused_without_blocking(name: str, tmp_path: Path) -> None:
    p = _labelled_project(tmp_path / "p")
    folder = p.folder
    if name in ("project.json.bak", "labels.journal.prev"):
        # read only when project.json is damaged; kept aside to put back below
        shutil.copy(folder / "project.json", tmp_path / "good.json")
        (folder / "project.json").write_text("{")
    rel = _data_file(folder) if name == "data file" else name
    target = folder / rel
    saved = target.read_bytes() if target.exists() else None
    before = _snapshot(folder)
    target.unlink(missing_ok=True)
    os.mkfifo(target)

    for _ in range(2):  # the same answer again: the refused open released its lock
        err = finishes(lambda: Project.open(folder), [target])
        assert isinstance(err, DataError), err
        assert "not a regular file (a FIFO" in err.problem and err.path == str(target)
    # nothing the user made was removed or rewritten
    after = _snapshot(folder)
    assert {k: v for k, v in after.items()} == {k: v for k, v in before.items() if k != rel}
    assert target.exists() and not target.is_file()

    target.unlink()
    if saved is not None:
        target.write_bytes(saved)
    if (tmp_path / "good.json").exists():
        shutil.copy(tmp_path / "good.json", folder / "project.json")
    with Project.open(folder) as again:
        assert [again.gold("train", r) for r in range(3)] == ["pos", "neg", None]


def test_a_device_as_data_file_is_refused(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    p = _labelled_project(tmp_path / "p")
    target = p.folder / _data_file(p.folder)
    target.unlink()
    target.symlink_to("/dev/zero")
    err = finishes(lambda: Project.open(p.folder), [])
    # refused as a link before it is read (a project's own files are never links: test_project_links.py)
    assert isinstance(err, DataError) and "symbolic link (to /dev/zero)" in err.problem and err.path == str(target)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_lock_file_of_an_open_project_does_not_block_the_second_open(tmp_path: Path) -> None:
    p = _labelled_project(tmp_path / "p")
    first = Project.open(p.folder)
    try:
        lock = p.folder / "project.lock"
        lock.unlink()
        os.mkfifo(lock)  # the second open reads it for the holder's pid
        err = finishes(lambda: Project.open(p.folder), [lock])
        assert isinstance(err, DataError) and "already open" in err.problem
    finally:
        first.close(compact=False)


# ---------------------------------------------------------------- data files of the wrong shape

def _write_stream(path: Path, table: pa.Table) -> None:
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)


FOREIGN: dict[str, tuple[pa.Table, str]] = {
    "text is a number": (pa.table({"text": [1] * 5, "label": [[1.0]] * 5}),
                         "column 'text' has type int64 where string is expected"),
    "no label column": (pa.table({"text": ["a"] * 5}), "column 'label' is missing (it has 'text')"),
    "label is a list": (pa.table({"text": ["a"] * 5, "label": [["pos"]] * 5}),
                        "column 'label' has type list<item: string> where string is expected"),
    "label twice": (pa.Table.from_arrays([pa.array(["a"] * 5), pa.array(["pos"] * 5), pa.array(["neg"] * 5)],
                                         names=["text", "label", "label"]), "column 'label' appears 2 times"),
}


@pytest.mark.parametrize("case", list(FOREIGN))
def test_a_data_file_with_foreign_columns_is_a_clear_error(case: str, tmp_path: Path) -> None:
    table, reason = FOREIGN[case]
    p = _labelled_project(tmp_path / "p")
    target = p.folder / _data_file(p.folder)
    good = target.read_bytes()
    _write_stream(target, table)  # same row count: only the schema is wrong
    before = _snapshot(p.folder)
    for _ in range(2):  # the refused open released its lock
        with pytest.raises(DataError) as info:
            Project.open(p.folder)
        assert info.value.path == str(target) and reason in info.value.problem
    assert _snapshot(p.folder) == before  # the journal's pending label and the file are kept
    target.write_bytes(good)
    with Project.open(p.folder) as again:
        assert [again.gold("train", r) for r in range(3)] == ["pos", "neg", None]


def test_a_sentence_data_file_in_a_tagging_project_is_a_clear_error(tmp_path: Path) -> None:
    t = Project.create(tmp_path / "t", name="t", kind="tagging", labels=["O", "B-PER"])
    t.import_examples(from_records("tagging", [{"tokens": ["Ann", "runs"], "tags": ["B-PER", "O"]}]), "train")
    t.close()
    s = _labelled_project(tmp_path / "s")
    target = t.folder / _data_file(t.folder)
    table = pa.ipc.open_stream(pa.BufferReader((s.folder / _data_file(s.folder)).read_bytes())).read_all()
    _write_stream(target, table.slice(0, 1))
    with pytest.raises(DataError) as info:
        Project.open(t.folder)
    assert info.value.path == str(target) and "column 'tokens' is missing" in info.value.problem


def test_a_backup_with_foreign_columns_is_not_restored(tmp_path: Path) -> None:
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    backup = p.import_examples(from_records("sentence", ROWS[:2]), "train", replace=True)
    assert backup is not None
    path = p.folder / next(b["file"] for b in p.split_backups() if b["id"] == backup["id"])
    path.unlink()  # a hard link to the old data file: replace it, do not write through it
    _write_stream(path, pa.table({"text": [1] * 5, "label": ["pos"] * 5}))
    with pytest.raises(DataError) as info:
        p.restore_split_backup(backup["id"])
    assert info.value.path == str(path) and "column 'text' has type int64" in info.value.problem
    assert p.num_rows("train") == 2  # the current rows stay
    p.close()


@pytest.mark.parametrize("kept", [[], ["pos"], ["other"]])
def test_gold_labels_missing_from_the_label_set_are_added_back_with_a_message(kept: list[str], tmp_path: Path) -> None:
    """A project.json whose label set lost labels the rows still use (edited by hand, an old
    copy): the rows keep their labels, the set gets them back, and the user is told."""
    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.set_gold("train", 1, "neg")
    p.close()  # folded into the data file (a journaled edit of a label the set lacks is skipped, as made)
    meta = json.loads((p.folder / "project.json").read_text())
    meta["labels"] = [{"name": n, "color": "#4e79a7"} for n in kept]
    (p.folder / "project.json").write_bytes(encode_meta(meta))
    q = Project.open(p.folder)
    try:
        assert [q.gold("train", r) for r in range(2)] == ["pos", "neg"]
        assert set(q.labels) == set(kept) | {"pos", "neg"} and q.labels[: len(kept)] == kept
        restored = [m for m in q.recovery_messages if "was missing from the label set" in m]
        assert len(restored) == len({"pos", "neg"} - set(kept)) and all("1 in train" in m for m in restored)
        assert q.examples("train").labels == q.labels
    finally:
        q.close()
    again = Project.open(p.folder)  # the repair is kept: nothing to say the second time
    try:
        assert set(again.labels) == set(kept) | {"pos", "neg"} and again.recovery_messages == []
    finally:
        again.close()


def test_gold_labels_missing_from_the_label_set_are_shown_on_a_read_only_project(tmp_path: Path, monkeypatch) -> None:
    """The same project opened from a read-only medium: the label could not be journaled, so the
    rows using it were hidden from counts and training ("cannot be added (the project is
    read-only...)"); the set holds it for the session and nothing is written."""
    from disk_faults import read_only_medium

    p = _project(tmp_path / "p")
    p.set_gold("train", 0, "pos")
    p.set_gold("train", 1, "neg")
    p.close()
    meta = json.loads((p.folder / "project.json").read_text())
    meta["labels"] = [{"name": "neg", "color": "#4e79a7"}]
    (p.folder / "project.json").write_bytes(encode_meta(meta))
    before = {f.name: f.read_bytes() for f in p.folder.iterdir() if f.is_file() and f.name != ".lock"}
    read_only_medium(monkeypatch, p.folder)
    with Project.open(p.folder) as ro:
        assert ro.read_only and ro.labels == ["neg", "pos"]
        assert ro.examples("train").labels == ["neg", "pos"]
        assert [m for m in ro.recovery_messages if "'pos'" in m] == [
            "label 'pos' (1 in train) was missing from the label set in project.json: added back when the project "
            "is opened where it can be written"]
    monkeypatch.undo()
    assert {f.name: f.read_bytes() for f in p.folder.iterdir() if f.is_file() and f.name != ".lock"} == before


def test_a_label_name_of_a_megabyte_is_refused(tmp_path: Path) -> None:
    p = _project(tmp_path / "p")
    try:
        with pytest.raises(DataError, match="at most 200 characters"):
            p.add_label("x" * 1_000_000)
        with pytest.raises(DataError, match="at most 200 characters"):
            p.rename_label("pos", "y" * 201)
        p.add_label("z" * 200)
    finally:
        p.close()


def test_an_import_bringing_a_label_name_of_300_characters_is_refused_whole(tmp_path: Path) -> None:
    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=[])
    try:
        rows = [{"text": "a", "label": "L" * 300}, {"text": "b", "label": "x"}]
        with pytest.raises(DataError, match="at most 200 characters"):
            p.import_examples(from_records("sentence", rows), "train")
        assert p.labels == [] and "train" not in p.split_names
    finally:
        p.close()


def test_a_journal_of_many_label_adds_stops_at_the_limit_in_one_message(tmp_path: Path) -> None:
    """60,000 forged add_label entries took minutes to replay and made a window of 60,000
    buttons; the set stops at MAX_PROJECT_LABELS and the skipped rest is one line."""
    from bertstudio.data.project_meta import MAX_PROJECT_LABELS

    p = _project(tmp_path / "p")
    p.close()
    seq = json.loads((p.folder / "project.json").read_text())["seq"]
    n = MAX_PROJECT_LABELS + 500
    _append_lines(p.folder, *(encode_entry({"seq": seq + 1 + i, "op": "add_label", "name": f"c{i}", "color": "#4e79a7"})
                              for i in range(n)))
    q = Project.open(p.folder)
    try:
        assert len(q.labels) == MAX_PROJECT_LABELS
        skipped = [m for m in q.recovery_messages if "skipped" in m]
        assert len(skipped) <= 21 and skipped[-1].endswith("more edits skipped")
        with pytest.raises(DataError, match="at most 1,000 labels"):
            q.add_label("one too many")
    finally:
        q.close()


@pytest.mark.parametrize("name", ["x" * 201, "a\u202eb", "tab\there", "nul\x00"])
def test_a_bad_label_name_is_refused_in_project_json_and_skipped_in_the_journal(name: str, tmp_path: Path) -> None:
    p = _project(tmp_path / "p")
    p.close()
    seq = json.loads((p.folder / "project.json").read_text())["seq"]
    _append_lines(p.folder, encode_entry({"seq": seq + 1, "op": "add_label", "name": name, "color": "#4e79a7"}),
                  encode_entry({"seq": seq + 2, "op": "rename_label", "old": "pos", "new": name}))
    q = Project.open(p.folder)
    try:
        assert q.labels == ["neg", "pos"]
        assert len([m for m in q.recovery_messages if "skipped" in m]) == 2
        with pytest.raises(DataError):
            q.add_label(name)
    finally:
        q.close()
    meta = json.loads((p.folder / "project.json").read_text())
    meta["labels"].append({"name": name, "color": "#4e79a7"})
    (p.folder / "project.json").write_bytes(encode_meta(meta))
    (p.folder / "project.json.bak").unlink(missing_ok=True)
    with pytest.raises(DataError, match="label 2"):
        Project.open(p.folder)


@pytest.mark.parametrize("inside", ["labels.journal", "project.json", "data/train.arrow", "runs/out.csv", "."])
def test_an_export_never_writes_into_the_projects_own_folder(tmp_path: Path, inside: str) -> None:
    """Exporting over labels.journal lost saved labels after a crash; over a split's data
    file it left the project unreadable. Nothing inside the project folder is written."""
    p = _project(tmp_path / "proj")
    p.set_gold("train", 0, "pos")
    before = {f: f.read_bytes() for f in p.folder.rglob("*") if f.is_file()}
    target = p.folder / inside
    if inside == "data/train.arrow":
        target = next((p.folder / "data").glob("train*"))
    with pytest.raises(DataError, match="inside the project's folder"):
        p.export("train", target, "csv")
    link = tmp_path / "elsewhere.jsonl"  # a link from outside into the project: the same
    link.symlink_to(p.folder / "labels.journal")
    with pytest.raises(DataError, match="inside the project's folder"):
        p.export("train", link)
    assert {f: f.read_bytes() for f in p.folder.rglob("*") if f.is_file()} == before
    p.close(compact=False)
    q = Project.open(tmp_path / "proj")
    assert q.gold("train", 0) == "pos" and not q.recovery_messages
    q.close(compact=False)


def test_an_export_writes_through_a_link_and_keeps_it(tmp_path: Path) -> None:
    p = _project(tmp_path / "proj")
    real = tmp_path / "kept" / "rows.data"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "rows.jsonl"  # the name says the format, not the link's target
    link.symlink_to(real)
    p.export("train", link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text().splitlines()[0])["text"] == p.row("train", 0)["text"]
    with pytest.raises(DataError, match="no dev rows"):
        p.export("dev", tmp_path / "dev.csv")
    assert not (tmp_path / "dev.csv").exists()
    p.close(compact=False)


def test_a_huge_project_file_is_a_damaged_copy_read_from_its_size(tmp_path: Path) -> None:
    """A sparse 1 GB project.json was read whole (7.6 s, 2.3 GB) before being called damaged."""
    p = _project(tmp_path / "proj")
    p.set_gold("train", 0, "pos")
    p.close()
    with open(p.folder / "project.json", "r+b") as fh:
        fh.truncate(1 << 30)  # sparse: no disk used, the size is what counts
    q = Project.open(p.folder)  # the backup copy is good
    assert any("more than a project file holds" in m for m in q.recovery_messages), q.recovery_messages
    assert q.gold("train", 0) == "pos"
    q.close(compact=False)


@pytest.mark.parametrize("name", ["two\nlines", "tab\there", "\u202eevil", "x" * 201, " "])
def test_a_new_project_needs_a_name_on_one_line(tmp_path: Path, name: str) -> None:
    with pytest.raises(DataError, match="name"):
        Project.create(tmp_path / "p", name=name, kind="sentence")
    assert not (tmp_path / "p").exists()


def test_a_hostile_name_from_elsewhere_opens_and_is_shown_tamed(tmp_path: Path) -> None:
    from bertstudio.data.project_meta import shown_name

    p = _project(tmp_path / "proj")
    p.close()
    meta = json.loads((p.folder / "project.json").read_text())
    meta.pop("checksum", None)
    meta["name"] = "a\nb\u202e" + "c" * 10_000
    (p.folder / "project.json").write_bytes(encode_meta(meta))
    q = Project.open(p.folder)  # never refused for its name: the user's rows are behind it
    shown = shown_name(q.name)
    assert "\n" not in shown and "\u202e" not in shown and len(shown) == 80 and shown.startswith("a b")
    q.close(compact=False)


def test_appending_questions_with_ids_the_split_has_is_refused(tmp_path: Path) -> None:
    """The same SQuAD file appended twice gave ids q1, q1: the project's own export was then
    refused by its reader ("duplicate question id")."""
    from bertstudio.data.io import load_examples

    src = tmp_path / "qa.json"
    src.write_text(json.dumps({"data": [{"title": "t", "paragraphs": [{"context": "hello world", "qas": [
        {"id": "q1", "question": "what?", "answers": [{"text": "world", "answer_start": 6}]}]}]}]}))
    p = Project.create(tmp_path / "proj", name="qa", kind="qa")
    p.import_examples(load_examples(src, kind="qa"), "train")
    with pytest.raises(DataError, match="'q1' is already used in the split") as info:
        p.import_examples(load_examples(src, kind="qa"), "train")
    assert str(src) in str(info.value)
    assert p.num_rows("train") == 1
    p.import_examples(load_examples(src, kind="qa"), "train", replace=True)  # replacing: no clash
    p.export("train", tmp_path / "out.json")
    assert len(load_examples(tmp_path / "out.json", kind="qa")) == 1
    p.close(compact=False)


def test_a_data_file_whose_string_offsets_point_past_its_buffer_is_refused_not_read(tmp_path: Path) -> None:
    """A forged (or damaged) data file with plausible first and last offsets passes pyarrow's basic
    checks; the first row read faulted past the mapping (SIGBUS: the app died on Open project)."""
    import struct

    from bertstudio.data.project_store import open_dataset

    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", [{"text": f"row {i}", "label": "pos"} for i in range(4)]), "train")
    p.close()
    data = tmp_path / "p" / json.loads((tmp_path / "p" / "project.json").read_text())["splits"]["train"]["file"]
    table = pa.ipc.open_stream(pa.OSFile(str(data))).read_all().combine_chunks()  # in memory: the file is rewritten
    n = table.num_rows
    offsets = struct.pack(f"<{n + 1}i", 0, *[1 << 30] * (n - 1), 3)
    text = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(b"abc")])
    with pa.OSFile(str(data), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(pa.table({"text": text, "label": table.column("label")}, schema=table.schema))
    with pytest.raises(DataError) as caught:
        Project.open(tmp_path / "p")
    assert data.name in str(caught.value) and "out of bounds" in str(caught.value)
    with pytest.raises(DataError, match="out of bounds"):
        open_dataset(data)


def _special_files(out: Path) -> dict[str, Path]:
    """A FIFO, a link to it, and (as root) a private character device like /dev/null's and a link to it."""
    import stat as stat_mod

    os.mkfifo(out / "fifo")
    (out / "link-to-fifo.csv").symlink_to(out / "fifo")
    made = {"fifo": out / "fifo", "link-to-fifo.csv": out / "link-to-fifo.csv"}
    try:
        os.mknod(out / "mydev", 0o666 | stat_mod.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        return made
    (out / "link-to-dev.csv").symlink_to(out / "mydev")
    made.update({"mydev": out / "mydev", "link-to-dev.csv": out / "link-to-dev.csv"})
    return made


def test_an_export_never_replaces_a_fifo_or_a_device(tmp_path: Path) -> None:
    """Exporting to a FIFO, a device node or a link to one replaced the node with a CSV (as root,
    /dev/null itself would have gone). Each is refused by name before anything is written."""
    import stat as stat_mod

    p = _project(tmp_path / "proj")
    out = tmp_path / "out"
    out.mkdir()
    for name, path in _special_files(out).items():
        with pytest.raises(DataError, match="not a plain file, so it is not replaced"):
            p.export_target(path)  # the dialog asks this before it asks "Replace it?"
        with pytest.raises(DataError, match="not a plain file, so it is not replaced") as caught:
            p.export("train", path, "csv")
        assert str(path) in caught.value.message and ("FIFO" in caught.value.message or "device" in caught.value.message)
    assert stat_mod.S_ISFIFO(os.lstat(out / "fifo").st_mode)
    if (out / "mydev").exists():
        assert stat_mod.S_ISCHR(os.lstat(out / "mydev").st_mode)
    with pytest.raises(DataError, match="is a folder"):
        p.export("train", out, "csv")
    assert sorted(f.name for f in out.iterdir() if f.name.startswith(".")) == []  # no temporary file left
    p.close(compact=False)


@pytest.fixture
def bind_mount(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A second name for a folder that realpath cannot see through (a bind mount: needs root)."""
    import subprocess

    source, alias = tmp_path / "real", tmp_path / "alias"
    source.mkdir()
    alias.mkdir()
    if subprocess.run(["mount", "--bind", str(source), str(alias)], capture_output=True).returncode != 0:
        pytest.skip("a bind mount needs root")
    yield source, alias
    subprocess.run(["umount", str(alias)], capture_output=True)


def test_an_export_never_writes_into_the_project_by_another_name(bind_mount: tuple[Path, Path]) -> None:
    """The project folder reached through a bind mount (as on a case-insensitive disk, where
    ~/projects/reviews is ~/Projects/Reviews): the realpath strings differ, the folder is the same,
    and an export over labels.journal lost the labels after a crash. Compared by identity now."""
    source, alias = bind_mount
    p = _project(source / "proj")
    p.set_gold("train", 0, "pos")
    journal = (p.folder / "labels.journal").read_bytes()
    for target in (alias / "proj" / "labels.journal", alias / "proj" / "sub" / "new.csv", alias / "proj"):
        with pytest.raises(DataError, match="inside the project's folder"):
            p.export("train", target, "csv")
    assert (p.folder / "labels.journal").read_bytes() == journal and not (p.folder / "sub").exists()
    p.export("train", alias / "beside.csv", "csv")  # the same disk, outside the project: fine
    assert (source / "beside.csv").is_file()
    p.close(compact=False)


def test_an_export_goes_through_where_the_file_system_reports_no_inodes(tmp_path, monkeypatch) -> None:
    """Some network shares and FUSE mounts report inode 0 for every folder: the identity check
    then took every folder for the project's and refused each export."""
    real = os.stat

    def no_inodes(path, *a, **k):
        st = real(path, *a, **k)
        return os.stat_result((st.st_mode, 0, *tuple(st)[2:]))

    p = _project(tmp_path / "proj")
    monkeypatch.setattr(os, "stat", no_inodes)
    p.export("train", tmp_path / "out" / "rows.csv", "csv")
    assert (tmp_path / "out" / "rows.csv").is_file()
    with pytest.raises(DataError, match="inside the project's folder"):  # the path check still stands
        p.export("train", tmp_path / "proj" / "rows.csv", "csv")
    monkeypatch.undo()
    p.close(compact=False)


@pytest.mark.parametrize("header_id", [None, 12, ["a"], "x" * 100_000], ids=["no_id", "int", "list", "huge"])
def test_a_journal_header_without_a_good_id_is_read_as_one_without_header(tmp_path: Path, header_id) -> None:
    """A header line with a valid CRC but no id (or not a string id) raised KeyError at the open, or
    was written into project.json, which the next open refused as damaged."""
    folder = tmp_path / "p"
    p = _project(folder)
    p.close()
    p = Project.open(folder)
    p.set_gold("train", 0, "pos")
    p.close(compact=False)
    lines = (folder / "labels.journal").read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["op"] == "journal"
    body = {k: v for k, v in header.items() if k not in ("crc", "id")}
    if header_id is not None:
        body["id"] = header_id
    (folder / "labels.journal").write_bytes(encode_entry(body) + b"".join(lines[1:]))
    with Project.open(folder) as again:
        assert again.gold("train", 0) == "pos"
        assert len(again.recovery_messages) == 1 and "header is not one bertstudio" in again.recovery_messages[0]
        again.set_gold("train", 1, "neg")
        again.save_ui_state()  # project.json written: it must name no bad journal id
    with Project.open(folder) as third:
        assert [third.gold("train", r) for r in (0, 1)] == ["pos", "neg"]
        assert not any("could not be read" in m for m in third.recovery_messages), third.recovery_messages
