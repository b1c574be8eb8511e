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
    return {"host": socket.gethostname(), "machine": rundir.machine_id() or None}


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


def test_windows_probes_never_sleep_and_never_take_each_other_for_a_writer(tmp_path, monkeypatch):
    """The Windows probe took an exclusive lock and slept 10 ms between up to five tries, on the
    GUI thread (RunFollower.poll each second, read_run for each live run), and a reader's probe
    held at that moment read as a writer. It is one try at a shared lock now."""
    import fcntl
    import time

    windows_locks(monkeypatch)
    run = tmp_path / "run"
    _history(run, **_here())
    folder = RunFolder(run, append=True)
    monkeypatch.setattr(time, "sleep", lambda seconds: pytest.fail("a probe waited"))
    try:
        assert writer_active(run) is True and read_run(run).status == "running"
    finally:
        folder.close()
        folder.settle(failed=False)
    (run / ".writer.lock").touch()  # left by a crash; another reader's probe holds it now
    reader = os.open(run / ".writer.lock", os.O_RDWR)
    try:
        fcntl.flock(reader, fcntl.LOCK_SH | fcntl.LOCK_NB)
        assert writer_active(run) is False and read_run(run).status == "interrupted"
    finally:
        os.close(reader)


# --- F6: a host name that changed -------------------------------------------------------------

MAC = "a1b2c3d4e5f60718"  # this Mac's (hashed) IOPlatformUUID, in the tests below


def _mac(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading as on macOS, the one system whose host name drifts, with this machine's id."""
    monkeypatch.setattr(rundir, "_HOST_NAME_DRIFTS", True)
    monkeypatch.setattr(rundir, "machine_id", lambda: MAC)


def _linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rundir, "_HOST_NAME_DRIFTS", False)


def test_a_run_killed_here_is_interrupted_after_the_host_name_changed(tmp_path, monkeypatch):
    """macOS names the machine after the network it is on (Johns-MacBook-Pro.local at home,
    johns-mbp.office at work): a run killed at home read as "running" for ever at work."""
    _mac(monkeypatch)
    run = tmp_path / "run"
    _history(run, host=socket.gethostname(), machine=MAC)
    monkeypatch.setattr(socket, "gethostname", lambda: "johns-mbp.office")
    assert read_run(run).status == "interrupted"


def test_a_run_of_another_machine_with_this_host_name_is_not_called_interrupted(tmp_path, monkeypatch):
    """Two Macs may share a host name (a cloned image): there the machine decides."""
    _mac(monkeypatch)
    run = tmp_path / "run"
    _history(run, host=socket.gethostname(), machine="0" * 16)
    assert read_run(run).status == "running"


@pytest.mark.parametrize("reading", [_mac, _linux])
def test_a_run_written_before_machines_were_recorded_still_goes_by_its_host_name(tmp_path, monkeypatch, reading):
    reading(monkeypatch)
    run = tmp_path / "run"
    _history(run, host=socket.gethostname())
    assert read_run(run).status == "interrupted"
    monkeypatch.setattr(socket, "gethostname", lambda: "another-host")
    assert read_run(run).status == "running"


def test_off_macos_the_host_name_decides_as_before(tmp_path, monkeypatch):
    """Linux's /etc/machine-id is baked into images and Docker's MAC is the same on every host:
    a run training in a container on host A, its folder on a share, read as "interrupted" (with
    a resume command) in a container of the same image on host B. Off macOS ids are not asked."""
    _linux(monkeypatch)
    monkeypatch.setattr(rundir, "machine_id", lambda: MAC)  # even were one read
    run = tmp_path / "run"
    _history(run, host="container-on-host-a", machine=MAC)
    assert read_run(run).status == "running"
    other = tmp_path / "other"
    _history(other, host=socket.gethostname(), machine="0" * 16)  # a run of this host, id aside
    assert read_run(other).status == "interrupted"


def test_the_machine_id_is_read_on_macos_alone_and_never_made_from_the_network_card(monkeypatch):
    import subprocess
    import uuid

    monkeypatch.setattr(uuid, "getnode", lambda: 0x0242AC110002)  # Docker's first container: the same everywhere
    _linux(monkeypatch)
    assert rundir.machine_id.__wrapped__() == ""
    monkeypatch.setattr(rundir, "_HOST_NAME_DRIFTS", True)
    shown = '| |   "IOPlatformUUID" = "12345678-ABCD-4EF0-9876-0123456789AB"\n'
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, shown, ""))
    mac = rundir.machine_id.__wrapped__()
    assert len(mac) == 16
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, "", ""))
    assert rundir.machine_id.__wrapped__() == ""  # no ioreg answer: the host name decides


def test_a_name_taken_by_a_link_to_the_run_itself_is_a_taken_name(tmp_path):
    """runs/best -> run1: samefile follows the link, so renaming run1 to best took the case-only
    branch and ended in a raw NotADirectoryError; only a change of case is a rename onto itself."""
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    (tmp_path / "runs" / "best").symlink_to(run, target_is_directory=True)
    with pytest.raises(ConfigError, match="a run of that name exists"):
        rename_run(run, "best")
    assert run.is_dir() and (tmp_path / "runs" / "best").is_symlink()


@pytest.mark.parametrize("name, said", [("é" * 127, "127 characters"), ("中" * 100, "300 bytes")],
                         ids=["accented", "chinese"])
def test_a_run_name_too_long_is_refused_for_its_length(tmp_path, name, said):
    """127 "é" (valid letters) were refused as "expected letters, digits, '.', '-' and '_' only",
    the wrong reason; 100 "中" (300 bytes) failed with the system's raw "File name too long"."""
    run = tmp_path / "runs" / "run1"
    _history(run, **_here())
    with pytest.raises(ConfigError, match=f"{said}.*at most 120 characters and 255 bytes") as refused:
        rename_run(run, name)
    assert "letters, digits" not in str(refused.value) and run.is_dir()
    assert rename_run(run, "中" * 85) == run.with_name("中" * 85)  # 255 bytes: the most that fits
