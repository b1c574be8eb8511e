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
