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
