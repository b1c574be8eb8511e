"""A project folder someone sent can hold symbolic links where its own files and folders go:
``data`` linked to another project of the user's (whose data files were then deleted as unused
when this one opened), ``project.lock`` or ``labels.journal`` linked to a file of the user's (cut
and written), ``runs`` or ``data/backup`` linked elsewhere (runs and backups written there), and
``.project.json.<pid>.tmp`` links for every pid (the next save wrote through one). Each is refused
or defused before anything is read or written outside the folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bertstudio.data.project import Project
from bertstudio.errors import ConfigError, DataError
from helpers import make_project

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symbolic links need POSIX here")

ROWS = {"train": [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"}],
        "dev": [{"text": "fine", "label": "pos"}]}
PRECIOUS = b"the user's own notes, no final newline"


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    """The user's own project ``mine`` and a received copy ``theirs``, both closed."""
    mine = make_project(tmp_path / "mine", "sentence", ["neg", "pos"], ROWS)
    mine.close()
    shutil.copytree(tmp_path / "mine", tmp_path / "theirs")
    return tmp_path / "mine", tmp_path / "theirs"


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim" / "notes.txt"
    victim.parent.mkdir(exist_ok=True)
    victim.write_bytes(PRECIOUS)
    return victim


@pytest.mark.parametrize("name", ["data", "runs", "cache", "data/backup", "labels.journal", "labels.journal.prev",
                                  "project.lock", "project.json.bak", "data/train-00000000.arrow"])
def test_a_link_among_the_projects_own_paths_is_refused_and_nothing_outside_changes(name, tmp_path):
    mine, theirs = _pair(tmp_path)
    target = theirs / name
    if name in ("data", "data/backup", "runs", "cache"):
        linked = mine / name if (mine / name).exists() else tmp_path / "victim"
        linked.mkdir(parents=True, exist_ok=True)
        before = sorted(p.name for p in linked.iterdir())
        shutil.rmtree(target, ignore_errors=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(linked, target)
    else:
        victim = _victim(tmp_path)
        target.unlink(missing_ok=True)
        os.symlink(victim, target)
    (theirs / "labels.journal").exists() or (theirs / "labels.journal").write_text("not json\n")
    with pytest.raises(DataError) as info:
        Project.open(theirs)
    assert str(target) in str(info.value) and "symbolic link" in str(info.value) and "\n" not in str(info.value)
    if name in ("data", "data/backup", "runs", "cache"):
        assert sorted(p.name for p in linked.iterdir()) == before
    else:
        assert victim.read_bytes() == PRECIOUS
    again = Project.open(mine)  # the user's own project is whole
    assert again.num_rows("train") == 2
    again.close()


def test_planted_temporary_names_are_never_written_through(tmp_path):
    mine, theirs = _pair(tmp_path)
    victim = _victim(tmp_path)
    os.symlink(victim, theirs / f".project.json.{os.getpid()}.tmp")
    project = Project.open(theirs)
    project.ui_state.update(page="label")
    project.save_ui_state()
    project.set_gold("train", 0, "neg")
    project.compact()
    project.close()
    assert victim.read_bytes() == PRECIOUS
    assert not (theirs / "project.json").is_symlink()
    reopened = Project.open(theirs)
    assert reopened.ui_state.get("page") == "label" and reopened.gold("train", 0) == "neg"
    reopened.close()


def test_an_atomic_write_replaces_a_planted_temporary_link_and_never_follows_it(tmp_path):
    from bertstudio.data.atomic import atomic_write_bytes, temp_path

    victim = _victim(tmp_path)
    path = tmp_path / "out" / "file.json"
    path.parent.mkdir()
    os.symlink(victim, path.with_name(f".{path.name}.{os.getpid()}.tmp"))
    atomic_write_bytes(path, b"{}")
    assert path.read_bytes() == b"{}" and not path.is_symlink() and victim.read_bytes() == PRECIOUS
    os.symlink(victim, path.with_name(f".{path.name}.{os.getpid()}.tmp"))
    tmp = temp_path(path)  # the data files' writer (pyarrow opens the name it is given) gets a free name
    assert not os.path.lexists(tmp) and victim.read_bytes() == PRECIOUS


def test_a_huge_run_config_is_refused_from_its_size(tmp_path):
    from bertstudio.train.config import MAX_CONFIG_BYTES, read_settings

    config = tmp_path / "config.toml"
    with open(config, "wb") as f:
        f.truncate(2 ** 31)  # sparse: 2 GB that take no disk
    with pytest.raises(ConfigError, match=f"at most {MAX_CONFIG_BYTES:,} bytes"):
        read_settings(config)


def test_a_journal_line_with_an_absurd_sequence_number_is_skipped_as_damaged(tmp_path):
    """A checksum-valid line with "seq": 10**260 named every later data file with 260 digits:
    each close said "File name too long (expected free disk space...)", and with one more damaged
    line the project did not open at all."""
    from bertstudio.data.journal import encode_entry

    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], ROWS)
    project.close()
    with open(tmp_path / "p" / "labels.journal", "ab") as f:
        f.write(encode_entry({"seq": 10 ** 260, "op": "gold", "split": "train", "row": 0, "value": "neg"}))
        f.write(b"not json\n")
    project = Project.open(tmp_path / "p")
    assert project.recovery_messages and project.gold("train", 0) == "pos"
    project.set_gold("train", 1, "pos")
    project.compact()
    project.close()
    assert all(len(p.name) < 40 for p in (tmp_path / "p" / "data").iterdir())
    again = Project.open(tmp_path / "p")
    assert again.gold("train", 1) == "pos"
    again.close()
