"""Opening the damaged projects in tests/data/bad/project (see its README for the cases)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bertstudio.data.project import Project
from bertstudio.data.project_lock import ProjectLock
from bertstudio.data.project_meta import PALETTE
from bertstudio.errors import DataError

BAD = Path(__file__).resolve().parents[1] / "data" / "bad" / "project"
FINAL = ["neg", "neg", None, "neg"]  # after the four journaled edits of every fixture


def copy(case: str, tmp_path: Path) -> Path:
    folder = tmp_path / case
    shutil.copytree(BAD / case, folder)
    return folder


def golds(project: Project) -> list:
    return [project.gold("train", i) for i in range(project.num_rows("train"))]


@pytest.mark.parametrize("case, reason", [
    ("truncated_json", "not valid JSON"),
    ("garbage_json", "not text"),
    ("checksum_mismatch", "checksum does not match"),
])
def test_damaged_project_json_is_restored_from_backup(case: str, reason: str, tmp_path: Path) -> None:
    folder = copy(case, tmp_path)
    project = Project.open(folder)
    assert len(project.recovery_messages) == 1
    assert reason in project.recovery_messages[0] and "project.json.bak" in project.recovery_messages[0]
    assert project.name == "fixture" and golds(project) == FINAL
    project.close(compact=False)
    json.loads((folder / "project.json").read_text())  # written back whole
    again = Project.open(folder)
    assert again.recovery_messages == [] and golds(again) == FINAL


def test_both_copies_damaged_is_an_error(tmp_path: Path) -> None:
    folder = copy("truncated_json_no_backup", tmp_path)
    with pytest.raises(DataError, match="damaged") as info:
        Project.open(folder)
    assert info.value.path == str(folder / "project.json")


def test_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = copy("newer_schema", tmp_path)
    before = (folder / "project.json").read_bytes()
    with pytest.raises(DataError) as info:
        Project.open(folder)
    err = info.value
    assert err.path == str(folder / "project.json")
    assert "schema version 3" in err.problem and "schema version 2 or older" in err.expected
    assert (folder / "project.json").read_bytes() == before
    ProjectLock.acquire(folder).release()  # the failed open let go of the lock


def test_torn_journal_line_is_dropped(tmp_path: Path) -> None:
    folder = copy("torn_journal", tmp_path)
    project = Project.open(folder)
    # edits 1-3 of (2,pos) (3,neg) (0,neg) (2,None); the 4th was torn
    assert golds(project) == ["neg", "neg", "pos", "neg"]
    assert len(project.recovery_messages) == 1 and "line 4" in project.recovery_messages[0]
    project.set_gold("train", 1, "pos")  # appends cleanly after the cut
    project.close(compact=False)
    again = Project.open(folder)
    assert again.recovery_messages == [] and golds(again) == ["neg", "pos", "pos", "neg"]


def test_bad_checksum_in_the_middle_skips_only_that_line(tmp_path: Path) -> None:
    folder = copy("journal_bad_checksum_middle", tmp_path)
    project = Project.open(folder)
    # line 2 (row 3 := neg) is skipped; row 3 keeps its imported value (None)
    assert golds(project) == ["neg", "neg", None, None]
    assert len(project.recovery_messages) == 1 and "line 2" in project.recovery_messages[0]
    project.close(compact=False)
    assert Project.open(folder).recovery_messages == []  # folded on the first open: reported once


def test_schema_v1_is_upgraded(tmp_path: Path) -> None:
    folder = copy("schema_v1", tmp_path)
    project = Project.open(folder)
    assert project.label_colors == {"neg": PALETTE[0], "pos": PALETTE[1]}
    assert project.ui_state == {"row": 1} and golds(project) == ["pos", "neg", None, None]
    assert "upgraded from schema version 1 to 2" in project.recovery_messages[0]
    assert json.loads((folder / "project.json").read_text())["schema_version"] == 2
    assert json.loads((folder / "project.json.bak").read_text())["schema_version"] == 1


def test_missing_data_file_is_an_error(tmp_path: Path) -> None:
    folder = copy("missing_data_file", tmp_path)
    with pytest.raises(DataError, match="data file of split 'train' is missing") as info:
        Project.open(folder)
    assert info.value.path.endswith("train-00000000.arrow")


def test_truncated_data_file_is_an_error(tmp_path: Path) -> None:
    folder = copy("truncated_data_file", tmp_path)
    with pytest.raises(DataError, match="cannot be read") as info:
        Project.open(folder)
    assert info.value.path.endswith("train-00000000.arrow")
    ProjectLock.acquire(folder).release()


def test_damaged_after_compaction_recovers_folded_edits(tmp_path: Path) -> None:
    folder = copy("damaged_after_compaction", tmp_path)
    project = Project.open(folder)
    assert "restored" in project.recovery_messages[0]
    assert project.labels == ["neg", "positive"]
    assert golds(project) == ["positive", "neg", "positive", "neg"]


def _cut_project_json(folder: Path) -> None:
    raw = (folder / "project.json").read_bytes()
    (folder / "project.json").write_bytes(raw[: len(raw) // 2])


def test_rows_written_after_the_restored_backup_are_kept_and_can_be_brought_back(tmp_path: Path) -> None:
    """An import, then a damaged project.json whose backup predates it: the restored project
    lacks the rows, but their data file is kept as a backup of replaced rows (it used to be
    deleted as unused at the next save), the user is told, and restoring it brings them back."""
    from bertstudio.data.examples import from_records

    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["pos", "neg"])
    rows = [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"}, {"text": "meh", "label": None}]
    p.import_examples(from_records("sentence", rows, labels=["pos", "neg"]), "train")
    p.close()
    _cut_project_json(p.folder)
    q = Project.open(p.folder)
    try:
        assert "train" not in q.split_names
        kept = [m for m in q.recovery_messages if "Restore replaced rows" in m]
        assert len(kept) == 1 and "3 train rows" in kept[0]
        (backup,) = q.split_backups("train")
        assert backup["rows"] == 3 and backup["labelled"] == 2 and set(backup["labels"]) == {"pos", "neg"}
        q.add_label("other")  # saves: the file must survive them
        q.compact(force=True)
    finally:
        q.close()
    again = Project.open(p.folder)
    try:
        assert again.recovery_messages == [] and again.split_backups("train")[0]["id"] == backup["id"]
        again.restore_split_backup(backup["id"])
        assert [again.row("train", r)["text"] for r in range(3)] == ["good", "bad", "meh"]
        assert [again.gold("train", r) for r in range(3)] == ["pos", "neg", None]
    finally:
        again.close()


def test_a_newer_data_file_the_journal_replays_anyway_is_not_reported(tmp_path: Path) -> None:
    from bertstudio.data.examples import from_records

    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["pos", "neg"])
    p.import_examples(from_records("sentence", [{"text": t, "label": None} for t in ("a", "b", "c")]), "train")
    p.save_ui_state()  # project.json.bak now names the imported file
    p.set_gold("train", 0, "pos")
    p.set_gold("train", 1, "neg")
    p.close()  # folds the two labels into a newer data file
    _cut_project_json(p.folder)
    q = Project.open(p.folder)
    try:
        assert [q.gold("train", r) for r in range(3)] == ["pos", "neg", None]
        assert q.split_backups() == [] and not [m for m in q.recovery_messages if "Restore replaced rows" in m]
    finally:
        q.close()


def test_a_widely_damaged_journal_is_reported_in_a_few_lines(tmp_path: Path) -> None:
    """50,000 damaged lines made 50,000 recovery messages (a 3 MB box, the window frozen)."""
    from bertstudio.data.journal import LINES_SHOWN

    folder = copy("journal_bad_checksum_middle", tmp_path)
    journal = folder / "labels.journal"
    good = journal.read_bytes()
    journal.write_bytes(good + b'{"seq": 99, "op": "gold", "crc": "0"}\n' * 50_000 + b'{"torn')
    project = Project.open(folder)
    messages = project.recovery_messages
    assert len(messages) == LINES_SHOWN + 2, messages[-3:]  # the first 20, one for the rest, the torn line
    assert messages[0].startswith("labels.journal, line 2:")  # the damaged line of the copied journal
    assert messages[LINES_SHOWN] == "labels.journal: 49,981 more damaged lines skipped"
    assert "cut short by a crash" in messages[-1]
    assert golds(project) == ["neg", "neg", None, None]
    project.close(compact=False)


def test_what_a_killed_write_left_is_removed_when_the_project_opens(tmp_path):
    """A kill while project.json or the assistant's model was written left .project.json.<pid>.tmp,
    cache/.assist-train.json.<pid>.tmp and model folders for good (a kill sweep: nothing removed
    them, not reopening, not compaction, not closing). Opened under the project's lock, they go;
    a crash mid-swap's .old (the only copy then), the runs folder and the person's files stay."""
    import os

    from bertstudio.data.project import Project

    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["neg", "pos"])
    folder = project.folder
    project.close()
    (folder / "cache").mkdir(exist_ok=True)
    (folder / "runs" / "r").mkdir(parents=True, exist_ok=True)
    left = [folder / ".project.json.4242.tmp", folder / ".project.json.bak.77.tmp", folder / "cache" / ".assist-train.json.9.tmp"]
    for path in left:
        path.write_text("half", encoding="utf-8")
    model_tmp = folder / "cache" / ".assist-model.123.tmp"
    model_tmp.mkdir()
    (model_tmp / "weights.bin").write_bytes(b"x")
    kept = [folder / "notes.tmp", folder / "cache" / ".assist-model.5.old", folder / "runs" / "r" / ".last.31.tmp"]
    for path in kept:
        path.write_text("keep", encoding="utf-8")
    outside = tmp_path / "mine.txt"
    outside.write_text("mine", encoding="utf-8")
    (folder / "cache" / ".link.8.tmp").symlink_to(outside)
    again = Project.open(folder)
    try:
        assert not any(p.exists() for p in left) and not model_tmp.exists()
        assert not os.path.lexists(folder / "cache" / ".link.8.tmp") and outside.read_text(encoding="utf-8") == "mine"
        assert all(p.read_text(encoding="utf-8") == "keep" for p in kept)
    finally:
        again.close()
