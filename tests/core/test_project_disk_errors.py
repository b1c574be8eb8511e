"""Folding edits on a full disk or into a read-only folder ends cleanly (issue 11, item 5, the project).

A clear DataError (what failed, that the journal keeps every edit), the journal
byte for byte as it was, no half-written file left behind, the project still
usable, and a reopen that has every acknowledged edit. The full disk is a real
one (a 4 MB tmpfs, where the test may mount); the read-only folder is simulated
by making the write primitives fail with EROFS (tests/disk_faults.py: tests run
as root here, and root writes through chmod).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest
from disk_faults import deny_writes

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.errors import DataError

LABELS = ["neg", "pos"]


def _project(folder: Path, rows: int = 2000) -> Project:
    p = Project.create(folder, name="x", kind="sentence", labels=LABELS)
    p.import_examples(from_records("sentence", [{"text": f"review number {i}", "label": None} for i in range(rows)]),
                      "train")
    return p


def _edit(p: Project, n: int) -> list[str]:
    values = [LABELS[i % 2] for i in range(n)]
    for row, value in enumerate(values):
        p.set_gold("train", row, value)
    return values


def test_compact_and_close_on_a_read_only_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = _project(tmp_path / "p")
    values = _edit(p, 40)
    journal = (p.folder / "labels.journal").read_bytes()
    meta = (p.folder / "project.json").read_bytes()
    deny_writes(monkeypatch)
    with pytest.raises(DataError) as info:
        p.compact()
    message = info.value.message
    assert "Read-only file system" in message and "labels.journal" in message and str(p.folder) in message
    assert (p.folder / "labels.journal").read_bytes() == journal
    assert (p.folder / "project.json").read_bytes() == meta
    assert [p.gold("train", r) for r in range(40)] == values and p.pending_edits == 40  # still usable
    with pytest.raises(DataError, match="Read-only file system"):
        p.close()
    assert p.closed  # closed anyway: the lock is released, the journal holds everything
    monkeypatch.undo()
    assert (p.folder / "labels.journal").read_bytes() == journal
    with Project.open(p.folder) as again:
        assert again.recovery_messages == []
        assert [again.gold("train", r) for r in range(40)] == values


def test_a_failed_ui_state_write_is_a_data_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = _project(tmp_path / "p", rows=3)
    p.ui_state["page"] = "label"
    deny_writes(monkeypatch, errno.ENOSPC)
    with pytest.raises(DataError, match="No space left on device"):
        p.save_ui_state()
    monkeypatch.undo()
    p.close()


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 4 MB file system (tmpfs), where this test process may mount one."""
    if os.name == "nt" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root on Linux")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_compact_and_close_on_a_full_disk(small_disk: Path) -> None:
    p = _project(small_disk / "p")
    values = _edit(p, 60)
    journal = (p.folder / "labels.journal").read_bytes()
    filler = _fill(small_disk)
    with pytest.raises(DataError, match="No space left on device") as info:
        p.compact()
    assert "every acknowledged edit is still in labels.journal" in info.value.message
    assert (p.folder / "labels.journal").read_bytes() == journal
    assert not [f.name for f in (p.folder / "data").iterdir() if f.name.endswith(".tmp")]  # nothing half-written
    assert [p.gold("train", r) for r in range(60)] == values
    with pytest.raises(DataError, match="No space left on device"):
        p.close()
    filler.unlink()
    with Project.open(p.folder) as again:
        assert [again.gold("train", r) for r in range(60)] == values
    with Project.open(p.folder) as folded:  # the close above folded them: they are in the data file now
        assert folded.pending_edits == 0 and [folded.gold("train", r) for r in range(60)] == values


def test_import_and_compact_under_windows_fsync_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' fsync (FlushFileBuffers) needs a writable handle: the new Arrow file was opened
    read-only to be flushed, and every import and compact failed with "Bad file descriptor"."""
    from windows_rules import windows_fsync

    windows_fsync(monkeypatch)
    p = _project(tmp_path / "p", rows=20)
    values = _edit(p, 5)
    p.compact()
    p.close()
    again = Project.open(tmp_path / "p")
    assert again.num_rows("train") == 20 and [again.gold("train", r) for r in range(5)] == values
    again.close()


def test_a_failed_write_that_is_not_the_disk_does_not_blame_the_disk() -> None:
    from bertstudio.data.project_store import disk_error

    other = disk_error(OSError(errno.EBADF, "Bad file descriptor"), Path("/p"), "the rows could not be stored")
    assert "Bad file descriptor" in other.message and "disk space" not in other.message
    assert "write access" not in other.message
    full = disk_error(OSError(errno.ENOSPC, "No space left on device"), Path("/p"), "x")
    assert "free disk space" in full.message
    denied = disk_error(OSError(errno.EROFS, "Read-only file system"), Path("/p"), "x")
    assert "write access" in denied.message and "disk space" not in denied.message
    busy = OSError(errno.EACCES, "The process cannot access the file")
    busy.winerror = 32  # type: ignore[attr-defined]
    assert "write access" not in disk_error(busy, Path("/p"), "x").message


def test_a_run_folder_that_cannot_be_made_is_one_line_naming_the_runs_folder(tmp_path: Path, monkeypatch) -> None:
    """Start on a full disk, a read-only medium or a `runs` that is a file: the OSError of mkdir
    escaped the Train page's slot (nothing shown, a traceback in the log)."""
    from disk_faults import read_only_medium

    p = _project(tmp_path / "p", rows=2)
    with monkeypatch.context() as m:
        read_only_medium(m, p.runs_dir)
        with pytest.raises(DataError) as refused:
            p.new_run_dir("run")
    message = refused.value.message
    assert message.startswith(f"{p.runs_dir}: cannot create the run folder (Read-only file system)"), message
    assert "labels.journal" not in message  # no edit failed: the journal note would only mislead
    p.runs_dir.rmdir()
    p.runs_dir.write_text("not a folder")
    with pytest.raises(DataError, match="runs: cannot create the run folder: this is a file"):
        p.new_run_dir("run")
    p.close()


def test_an_edit_after_the_project_folder_was_renamed_says_so(tmp_path: Path) -> None:
    """Renamed while open, the next edit said "expected free disk space and write access"."""
    _project(tmp_path / "rn", rows=2).close()
    p = Project.open(tmp_path / "rn")
    os.rename(tmp_path / "rn", tmp_path / "rn2")
    with pytest.raises(DataError) as refused:
        p.set_gold("train", 0, "pos")
    message = refused.value.message
    assert "moved or renamed while it was open; reopen it from its new place" in message, message
    assert "disk space" not in message and "write access" not in message
    p.close(compact=False)
    with Project.open(tmp_path / "rn2") as again:
        assert again.gold("train", 0) is None


def test_a_project_on_a_read_only_medium_opens_read_only_and_closes_quietly(tmp_path: Path, monkeypatch) -> None:
    """Taken on a read-only medium with an edit still in its journal (made where it was written):
    it opens, says it is read-only, refuses edits and runs with that one line, and its close no
    longer failed on folding that edit ("the edits could not be saved...")."""
    from disk_faults import read_only_medium

    p = _project(tmp_path / "p", rows=3)
    p.set_gold("train", 0, "pos")
    p.close(compact=False)  # the edit travels in labels.journal
    journal = (tmp_path / "p" / "labels.journal").read_bytes()
    read_only_medium(monkeypatch, tmp_path / "p")
    ro = Project.open(tmp_path / "p")
    assert ro.gold("train", 0) == "pos"
    for edit in (lambda: ro.set_gold("train", 1, "neg"), lambda: ro.new_run_dir("run"), lambda: ro.add_label("maybe")):
        with pytest.raises(DataError) as refused:
            edit()
        assert refused.value.message == (f"{tmp_path / 'p'}: the project is read-only here (a read-only medium, or no "
                                         "permission to write in its folder or files): browse, predict and compare; "
                                         "labels and runs cannot be saved")
        assert refused.value.facts == {"refusal": "read_only"}  # what the window decides on, not the English
    assert not ro.compact_if_large(threshold=1)  # the idle timer's fold: nothing to report, nothing raised
    ro.close()  # quietly: nothing was edited here
    assert ro.read_only
    monkeypatch.undo()
    assert (tmp_path / "p" / "labels.journal").read_bytes() == journal
    with Project.open(tmp_path / "p") as writable:
        assert not writable.read_only and [writable.gold("train", r) for r in range(3)] == ["pos", None, None]


@pytest.mark.parametrize("damage", ["torn tail", "damaged line"])
def test_a_read_only_project_with_a_damaged_journal_opens_read_only(tmp_path: Path, monkeypatch, damage: str) -> None:
    """Copied while the app was writing (a torn last line) or with a damaged line, then opened from a
    read-only stick: the replay cut the tail and folded the journal, both refused there, and the
    project did not open at all - with the read-only line promising it could be browsed."""
    from disk_faults import read_only_medium

    p = _project(tmp_path / "p", rows=3)
    p.set_gold("train", 0, "pos")
    p.set_gold("train", 1, "neg")
    p.close(compact=False)
    path = tmp_path / "p" / "labels.journal"
    lines = path.read_bytes().splitlines(keepends=True)
    if damage == "torn tail":
        path.write_bytes(b"".join(lines) + b'{"crc":"00","op":"go')
        expected = ["pos", "neg", None]
    else:
        # lines[0] is the journal's header (whose journal it is), lines[1] the first edit
        path.write_bytes(lines[0] + lines[1].replace(b'"pos"', b'"neg"') + b"".join(lines[2:]))
        expected = [None, "neg", None]
    journal = path.read_bytes()
    read_only_medium(monkeypatch, tmp_path / "p")
    with Project.open(tmp_path / "p") as ro:
        assert ro.read_only
        assert [ro.gold("train", r) for r in range(3)] == expected
        assert ("labels.journal: the damaged end is repaired when the project is opened where it can be "
                "written") in ro.recovery_messages, ro.recovery_messages
    monkeypatch.undo()
    assert path.read_bytes() == journal  # nothing written on the read-only medium
    with Project.open(tmp_path / "p") as writable:  # where it can be written, the damage is folded away
        assert not writable.read_only and [writable.gold("train", r) for r in range(3)] == expected
    with Project.open(tmp_path / "p") as again:
        assert not any("damaged" in m for m in again.recovery_messages), again.recovery_messages


def test_a_project_whose_files_are_read_only_opens_read_only(tmp_path: Path, monkeypatch) -> None:
    """Copied off a CD on Windows: the folder is writable, each file keeps the read-only attribute.
    The probe said writable, and every label key failed with "permission denied" in a box."""
    _project(tmp_path / "p", rows=2).close()
    journal = tmp_path / "p" / "labels.journal"
    journal.touch()
    real_access = os.access
    for name in ("project.json", "labels.journal"):
        with monkeypatch.context() as m:
            locked = tmp_path / "p" / name
            m.setattr(os, "access", lambda path, mode, *a, **k: (False if Path(path) == locked and mode & os.W_OK
                                                                  else real_access(path, mode, *a, **k)))
            with Project.open(tmp_path / "p") as ro:
                assert ro.read_only, name
    with Project.open(tmp_path / "p") as writable:
        assert not writable.read_only


def test_a_write_probe_left_behind_is_swept_at_the_next_open(tmp_path: Path, monkeypatch) -> None:
    """The open-time write probe whose removal failed (a virus scan holding the new file on Windows)
    or whose process died stayed in the user's project for good: its name was not one the leftover
    sweep knows."""
    from bertstudio.data import atomic

    _project(tmp_path / "p", rows=2).close()
    with monkeypatch.context() as m:
        m.setattr(os, "unlink", lambda *a, **k: (_ for _ in ()).throw(PermissionError(errno.EACCES, "in use")))
        assert atomic._can_write_in(tmp_path / "p")
    left = [f.name for f in (tmp_path / "p").iterdir() if "probe" in f.name]
    assert len(left) == 1, left
    with Project.open(tmp_path / "p"):
        pass
    assert not [f.name for f in (tmp_path / "p").iterdir() if "probe" in f.name]


def test_a_read_only_project_restored_from_its_backup_deletes_nothing_and_says_what_it_left(tmp_path, monkeypatch):
    """Files read-only in a writable folder (a copy off a CD, mode 0444): a project opened from
    project.json.bak skipped keeping the rows written after the backup, and close() then deleted their
    data file (removing needs only the folder's write permission): the only copy of those rows."""
    import bertstudio.data.project as project_module

    folder = tmp_path / "p"
    p = Project.create(folder, name="p", kind="sentence", labels=LABELS)
    p.import_examples(from_records("sentence", [{"text": "old", "label": "pos"}], labels=LABELS), "train")
    p.import_examples(from_records("sentence", [{"text": f"new {i}", "label": "neg"} for i in range(5)], labels=LABELS),
                      "train", replace=True)
    p.close()
    before = sorted(f.name for f in (folder / "data").iterdir() if f.is_file())
    (folder / "project.json").write_text("{ torn", encoding="utf-8")  # read from project.json.bak
    monkeypatch.setattr(project_module, "files_writable", lambda folder, names: False)  # root writes through 0444
    p = Project.open(folder)
    assert p.read_only
    newer = [m for m in p.recovery_messages if "not named by the restored project.json" in m]
    assert len(newer) == 1 and "left in place" in newer[0]
    p.examples("train")  # rows handed out: close() used to remove what neither project.json names
    p.close()
    assert sorted(f.name for f in (folder / "data").iterdir() if f.is_file()) == before
