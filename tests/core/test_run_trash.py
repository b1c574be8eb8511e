"""Deleting a run moves it to a trash and back (train/run_trash.py): the files come back as they
were, a run a training writes is refused, and a run put back never replaces a folder of its name."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bertstudio.data.project_lock import lock_run_folder, unlock_folder
from bertstudio.errors import ConfigError
from bertstudio.train.run_trash import folder_size, project_trash, restore_run, trash_run


def _run(folder: Path) -> Path:
    (folder / "model").mkdir(parents=True)
    (folder / "config.toml").write_text("task = 'sentence'\n", encoding="utf-8")
    (folder / "model" / "weights.bin").write_bytes(bytes(range(256)) * 40)
    return folder


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_run_goes_to_the_trash_and_back_with_the_same_files(tmp_path):
    runs = tmp_path / "proj" / "runs"
    run = _run(runs / "run1")
    before = _files(run)
    assert folder_size(run) == (2, len("task = 'sentence'\n") + 256 * 40)
    trashed = trash_run(run, project_trash(runs))
    assert trashed == tmp_path / "proj" / "trash" / "run1" and not run.exists()
    assert _files(trashed) == before
    assert restore_run(trashed, run) == run
    assert _files(run) == before and not trashed.exists()


def test_a_second_run_of_one_name_keeps_the_first_in_the_trash(tmp_path):
    runs = tmp_path / "runs"
    first = trash_run(_run(runs / "run1"), tmp_path / "trash")
    second = trash_run(_run(runs / "run1"), tmp_path / "trash")
    assert (first.name, second.name) == ("run1", "run1-2") and first.is_dir() and second.is_dir()


def test_the_system_trash_is_asked_first(tmp_path):
    run = _run(tmp_path / "runs" / "run1")
    elsewhere = tmp_path / "system-trash" / "run1"
    elsewhere.parent.mkdir()

    def mover(folder: Path) -> Path:
        folder.rename(elsewhere)
        return elsewhere

    assert trash_run(run, tmp_path / "trash", mover=mover) == elsewhere
    assert not (tmp_path / "trash").exists()  # the project's trash only where the system has none
    assert trash_run(_run(tmp_path / "runs" / "run2"), tmp_path / "trash", mover=lambda _f: None) == \
        tmp_path / "trash" / "run2"


def test_a_run_a_training_writes_is_not_moved(tmp_path):
    run = _run(tmp_path / "runs" / "run1")
    lock = lock_run_folder(run)  # as RunFolder holds it for the whole run
    if lock is None:
        pytest.skip("no folder locks on this file system")
    try:
        with pytest.raises(ConfigError, match="a training is writing this run now") as refused:
            trash_run(run, tmp_path / "trash")
        assert refused.value.facts["refusal"] == "training"
    finally:
        unlock_folder(lock)
    assert run.is_dir() and not (tmp_path / "trash").exists()


def test_a_run_is_never_put_back_over_a_folder_that_took_its_name(tmp_path):
    run = _run(tmp_path / "runs" / "run1")
    trashed = trash_run(run, tmp_path / "trash")
    (run / "theirs").mkdir(parents=True)  # a new run of that name, made since
    with pytest.raises(ConfigError, match="a folder of that name exists now") as refused:
        restore_run(trashed, run)
    assert refused.value.facts == {"refusal": "name_taken", "trashed": str(trashed)}
    assert sorted(p.name for p in run.iterdir()) == ["theirs"] and (trashed / "config.toml").is_file()


def test_a_link_for_a_trash_folder_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "trash").symlink_to(elsewhere)
    run = _run(tmp_path / "runs" / "run1")
    with pytest.raises(ConfigError, match="trash folder is a link"):
        trash_run(run, tmp_path / "trash")
    assert run.is_dir() and not any(elsewhere.iterdir())


def test_a_file_named_trash_is_refused_in_words_and_left_alone(tmp_path):
    """mkdir(exist_ok=True) on a file raised "[Errno 17] File exists", shown raw in the box."""
    (tmp_path / "trash").write_text("my notes", encoding="utf-8")
    run = _run(tmp_path / "runs" / "run1")
    with pytest.raises(ConfigError, match="trash is a file, not a folder") as refused:
        trash_run(run, tmp_path / "trash")
    assert refused.value.facts == {"refusal": "trash_not_folder", "trash": str(tmp_path / "trash")}
    assert run.is_dir() and (tmp_path / "trash").read_text(encoding="utf-8") == "my notes"


def test_a_255_byte_name_deleted_twice_is_shortened_in_the_trash_and_put_back_whole(tmp_path):
    """The second deletion of a 255-byte name tried "NAME-2", 257 bytes: "[Errno 36] File name too
    long". The trash name is cut short; the undo puts the run back under its own name."""
    runs, trash = tmp_path / "runs", tmp_path / "trash"
    name = "é" + "r" * 253  # 255 bytes in UTF-8: the cut never splits a character
    first = trash_run(_run(runs / name), trash)
    run = _run(runs / name)
    before = _files(run)
    second = trash_run(run, trash)
    assert first.name == name and second.name == "é" + "r" * 251 + "-2" and second.parent == trash
    assert len(second.name.encode()) <= 255 and not run.exists()
    assert restore_run(second, run) == run and _files(run) == before


def test_a_link_in_the_runs_folder_is_refused_as_a_link(tmp_path):
    elsewhere = _run(tmp_path / "elsewhere")
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "linkrun").symlink_to(elsewhere)
    with pytest.raises(ConfigError) as refused:
        trash_run(tmp_path / "runs" / "linkrun", tmp_path / "trash")
    assert refused.value.facts == {"refusal": "not_a_run", "link": True}
    assert (tmp_path / "runs" / "linkrun").is_symlink() and (elsewhere / "config.toml").is_file()


def test_a_run_of_a_project_opened_read_only_is_not_moved(tmp_path):
    """A read-only viewer moved the runs out from under the project's other windows."""
    from types import SimpleNamespace

    run = _run(tmp_path / "runs" / "run1")
    before = _files(run)
    with pytest.raises(ConfigError, match="read-only") as info:
        trash_run(run, tmp_path / "trash", project=SimpleNamespace(read_only=True))
    assert info.value.facts["refusal"] == "read_only"
    assert _files(run) == before and not (tmp_path / "trash").exists()
    assert trash_run(run, tmp_path / "trash", project=SimpleNamespace(read_only=False)) == tmp_path / "trash" / "run1"


def test_a_trash_folder_that_cannot_be_written_is_named_not_the_run(tmp_path, monkeypatch):
    """A read-only trash/ said only "Permission denied", and the person checked the run's permissions."""
    run = _run(tmp_path / "runs" / "run1")
    trash = tmp_path / "trash"
    trash.mkdir()
    before = _files(run)
    made = Path.mkdir

    def mkdir(self: Path, *args, **kwargs):
        if self.parent == trash:  # what mode 555 on trash/ does (root ignores the mode itself)
            raise PermissionError(13, "Permission denied", str(self))
        return made(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    with pytest.raises(ConfigError) as info:
        trash_run(run, trash)
    assert info.value.facts == {"refusal": "trash_unwritable", "trash": str(trash), "reason": "Permission denied"}
    assert str(trash) in info.value.message and "Permission denied" in info.value.message
    assert _files(run) == before and list(trash.iterdir()) == []
