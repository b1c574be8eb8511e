"""Run folders on Windows and on a laptop whose host name follows the network.

No Windows here: tests/windows_rules.py copies its rules onto the functions the code calls
(folders are renamed with MoveFileEx, a folder holding an open file cannot be renamed, and
only files can be locked, exclusively per handle)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from windows_rules import windows_locks, windows_renames

from bertstudio.data import project_lock
from bertstudio.errors import ConfigError
from bertstudio.train import rundir
from bertstudio.train.events import RunStarted, event_to_dict
from bertstudio.train.rundir import RunFolder, check_output_dir, read_run, rename_run, writer_active
from bertstudio.train.config import TrainConfig


def _history(run: Path, **where: object) -> None:
    run.mkdir(parents=True, exist_ok=True)
    started = RunStarted(40, 16, 0, 10, 8, 100, 100, "cpu", "fp32", **where)  # type: ignore[arg-type]
    (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")


def _here() -> dict[str, object]:
    return {"host": socket.gethostname(), **({"machine": rundir.machine_id()} if hasattr(rundir, "machine_id") else {})}


# --- F3: renaming a run on Windows ------------------------------------------------------------

def test_windows_renames_a_run_and_refuses_a_taken_name(tmp_path, monkeypatch):
    """Windows never renames onto a folder, so claiming the name with an empty folder first made
    every rename fail with "[WinError 5] Access is denied"."""
    windows_locks(monkeypatch)
    windows_renames(monkeypatch)
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    (tmp_path / "runs" / "taken").mkdir()
    with pytest.raises(ConfigError, match="a run of that name exists"):
        rename_run(run, "taken")
    assert run.is_dir() and list((tmp_path / "runs" / "taken").iterdir()) == []
    assert rename_run(run, "baseline") == tmp_path / "runs" / "baseline"
    assert not run.exists() and sorted(os.listdir(tmp_path / "runs" / "baseline")) == ["history.jsonl"]


@pytest.mark.parametrize("open_in_it", ["history.jsonl", "."])
def test_windows_names_the_open_file_that_keeps_a_run_from_being_renamed(tmp_path, monkeypatch, open_in_it):
    """An open file inside the folder (an editor holding metrics.json) makes Windows refuse the
    folder's rename with WinError 5, "Access is denied", which was shown raw; a console in the
    folder itself gives 32."""
    windows_locks(monkeypatch)
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    windows_renames(monkeypatch, busy=[run / open_in_it])
    with pytest.raises(ConfigError, match="a file in this run is open, or another program is using the folder") \
            as caught:
        rename_run(run, "baseline")
    assert caught.value.path == str(run) and run.is_dir() and not (tmp_path / "runs" / "baseline").exists()


def test_windows_does_not_rename_a_run_a_training_is_writing(tmp_path, monkeypatch):
    windows_locks(monkeypatch)
    windows_renames(monkeypatch)
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    held = project_lock.lock_run_folder(run)  # another handle conflicts like another process
    try:
        with pytest.raises(ConfigError, match="a training is writing this run now"):
            rename_run(run, "baseline")
    finally:
        project_lock.unlock_folder(held)
    assert rename_run(run, "baseline").is_dir()


# --- F4: a killed run on Windows --------------------------------------------------------------

def test_windows_a_run_whose_process_is_gone_reads_as_interrupted(tmp_path, monkeypatch):
    """Windows had no run folder lock at all: a killed training read as "running" for ever."""
    windows_locks(monkeypatch)
    run = tmp_path / "run"
    _history(run, **_here())
    assert writer_active(run) is False and read_run(run).status == "interrupted"
    assert not (run / ".writer.lock").exists()  # a reader's probe creates nothing


def test_windows_a_live_run_is_running_and_refuses_a_second_writer(tiny, tmp_path, monkeypatch):
    windows_locks(monkeypatch)
    monkeypatch.setattr(rundir, "_LOCK_TRIES", 2)
    run = tmp_path / "run"
    _history(run, **_here())
    folder = RunFolder(run, append=True)
    try:
        assert writer_active(run) is True and read_run(run).status == "running"
        with pytest.raises(ConfigError, match="another training is writing"):
            RunFolder(run, append=True)
        with pytest.raises(ConfigError, match="another training is writing this run folder now"):
            check_output_dir(TrainConfig(model=tiny, output_dir=str(run), overwrite=True))
    finally:
        folder.close()
        folder.settle(failed=False)
    assert writer_active(run) is False and read_run(run).status == "interrupted"
    assert sorted(os.listdir(run)) == ["history.jsonl"]  # the lock file goes with the lock


# --- F6: a host name that changed -------------------------------------------------------------

def test_a_run_killed_here_is_interrupted_after_the_host_name_changed(tmp_path, monkeypatch):
    """macOS names the machine after the network it is on (Johns-MacBook-Pro.local at home,
    johns-mbp.office at work): a run killed at home read as "running" for ever at work."""
    run = tmp_path / "run"
    _history(run, **_here())
    monkeypatch.setattr(socket, "gethostname", lambda: "johns-mbp.office")
    assert read_run(run).status == "interrupted"


def test_a_run_of_another_machine_with_this_host_name_is_not_called_interrupted(tmp_path):
    """Two machines may share a host name (localhost, a cloned image): the machine decides."""
    run = tmp_path / "run"
    _history(run, host=socket.gethostname(), machine="0" * 16)
    assert read_run(run).status == "running"


def test_a_run_written_before_machines_were_recorded_still_goes_by_its_host_name(tmp_path):
    run = tmp_path / "run"
    _history(run, host=socket.gethostname())
    assert read_run(run).status == "interrupted"


def test_a_name_taken_by_a_link_to_the_run_itself_is_a_taken_name(tmp_path):
    """runs/best -> run1: samefile follows the link, so renaming run1 to best took the case-only
    branch and ended in a raw NotADirectoryError; only a change of case is a rename onto itself."""
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    (tmp_path / "runs" / "best").symlink_to(run, target_is_directory=True)
    with pytest.raises(ConfigError, match="a run of that name exists"):
        rename_run(run, "best")
    assert run.is_dir() and (tmp_path / "runs" / "best").is_symlink()
