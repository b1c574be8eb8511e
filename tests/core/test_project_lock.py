"""One process at a time holds a project, and deleting ``project.lock`` does not change that (issue 11, item 4).

Real processes: a holder opens the project and makes an acknowledged edit; then
``project.lock`` is deleted and a second process (and this one) must still be
refused. A holder killed with SIGKILL leaves no stale lock behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.errors import DataError

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX processes and signals")

REPO = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent("""
    import sys
    from bertstudio.data.project import Project
    p = Project.open(sys.argv[1])
    p.set_gold("train", 0, "pos")          # acknowledged: on disk when this returns
    print("ready", flush=True)
    sys.stdin.readline()                    # hold the project until told to go on
    p.set_gold("train", 1, "neg")
    p.close()
    print("closed", flush=True)
""")

OPENER = textwrap.dedent("""
    import sys
    from bertstudio.data.project import Project
    from bertstudio.errors import DataError
    try:
        p = Project.open(sys.argv[1])
    except DataError as exc:
        print("refused:", exc.message)
    else:
        p.set_gold("train", 0, "neg")
        p.close()
        print("opened")
""")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", [{"text": t, "label": None} for t in "abc"]), "train")
    p.close()
    return p.folder


def _start_holder(folder: Path) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    line = holder.stdout.readline()
    assert line.strip() == "ready", holder.stderr.read()
    return holder


def test_deleting_project_lock_does_not_let_a_second_process_in(folder: Path) -> None:
    holder = _start_holder(folder)
    try:
        (folder / "project.lock").unlink()
        other = subprocess.run([sys.executable, "-c", OPENER, str(folder)], capture_output=True, text=True,
                               env=_env(), timeout=120)
        assert other.stdout.startswith("refused:") and "already open" in other.stdout, other.stderr
        with pytest.raises(DataError, match="already open"):
            Project.open(folder)
        out, err = holder.communicate("go\n", timeout=120)
        assert out.strip() == "closed", err
    finally:
        if holder.poll() is None:
            holder.kill()
    with Project.open(folder) as again:  # every acknowledged edit of the holder is there
        assert [again.gold("train", r) for r in range(3)] == ["pos", "neg", None]


def test_a_killed_holder_leaves_no_stale_lock(folder: Path) -> None:
    holder = _start_holder(folder)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=60)
    assert (folder / "project.lock").exists()  # the file stays; the OS lock went with the process
    other = subprocess.run([sys.executable, "-c", OPENER, str(folder)], capture_output=True, text=True,
                           env=_env(), timeout=120)
    assert other.stdout.strip() == "opened", other.stdout + other.stderr
    with Project.open(folder) as again:
        assert again.gold("train", 0) == "neg"


def test_a_recreated_lock_file_is_not_a_way_in_either(folder: Path) -> None:
    first = Project.open(folder)
    try:
        (folder / "project.lock").unlink()
        (folder / "project.lock").write_text("stale")
        with pytest.raises(DataError, match="already open"):
            Project.open(folder)
    finally:
        first.close()
    Project.open(folder).close()


# -- read-only viewers share the lock (sweep_twoproc item 4) ------------------------------------------

def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(timeout=60)
    return child.pid


def test_two_read_only_viewers_open_at_once_and_a_writer_is_refused_without_a_stale_pid(folder: Path) -> None:
    """On a read-only share the second viewer was refused, named by the pid project.lock kept from a
    writer long gone; neither viewer can write anything, so they must not exclude each other."""
    (folder / "project.lock").write_text(f"pid {_dead_pid()}")
    first = Project.open(folder, read_only=True)
    second = Project.open(folder, read_only=True)
    try:
        assert first.read_only and second.read_only
        assert second.gold("train", 0) is None  # it browses
        with pytest.raises(DataError, match="read-only") as refused:
            second.set_gold("train", 0, "pos")
        assert refused.value.facts["refusal"] == "read_only"
        with pytest.raises(DataError) as writer:
            Project.open(folder)
        assert writer.value.problem == "the project is already open read-only in another bertstudio window"
        assert writer.value.facts == {"refusal": "open_elsewhere", "holder": "read_only", "pid": None}
        assert "pid" not in str(writer.value)
    finally:
        first.close()
        second.close()
    with Project.open(folder) as editing:  # both gone: a writer gets in, and nothing was written meanwhile
        assert not editing.read_only and editing.gold("train", 0) is None


def test_a_viewer_is_refused_while_a_writer_holds_the_project_and_told_its_live_pid(folder: Path) -> None:
    writer = Project.open(folder)
    try:
        with pytest.raises(DataError) as refused:
            Project.open(folder, read_only=True)
        assert refused.value.problem == f"the project is already open (pid {os.getpid()})"
        assert refused.value.facts == {"refusal": "open_elsewhere", "holder": "writer", "pid": os.getpid()}
        assert "read-only view waits" in str(refused.value)
    finally:
        writer.close()
    assert (folder / "project.lock").read_bytes() == b""  # its pid went with it
    Project.open(folder, read_only=True).close()


def test_viewers_on_a_read_only_medium_share_it(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep's repro: no flag asked, the storage cannot be written (project.lock neither, so it
    keeps a dead writer's pid); a second viewer opens too."""
    from disk_faults import read_only_medium

    (folder / "project.lock").write_text(f"pid {_dead_pid()}")
    read_only_medium(monkeypatch, folder)
    first = Project.open(folder)
    try:
        with Project.open(folder) as second:
            assert first.read_only and second.read_only
    finally:
        first.close()


@pytest.mark.parametrize("pid", ["dead", "2147483648", "18446744073709551616", "9" * 96, "0"])
def test_a_pid_no_live_process_has_is_never_named(folder: Path, pid: str) -> None:
    """A writer whose pid could not be written (or a file left by an older bertstudio) holds the
    folder, and project.lock names a process that has ended: the refusal says another window. And
    project.lock naming 2**31 or more made the pid check raise OverflowError out of the open (File >
    Open project did nothing): a number no process can have names no one too."""
    from bertstudio.data.project_lock import lock_folder, unlock_folder

    (folder / "project.lock").write_text(f"pid {_dead_pid() if pid == 'dead' else pid}")
    fd = lock_folder(folder)
    assert fd is not None and fd >= 0
    try:
        for read_only in (False, True):
            with pytest.raises(DataError) as refused:
                Project.open(folder, read_only=read_only)
            assert refused.value.problem == "the project is already open in another bertstudio window"
            assert refused.value.facts["holder"] == "writer" and refused.value.facts["pid"] is None
    finally:
        unlock_folder(fd)


def test_a_project_lock_that_is_a_fifo_never_blocks_the_open(folder: Path) -> None:
    """A viewer opened project.lock for reading without O_NONBLOCK: a FIFO there blocked "Open
    read-only" (the GUI thread) until some process opened it for writing. Now a viewer and a
    writer both open at once, the folder lock alone keeping the others out."""
    import threading

    os.unlink(folder / "project.lock")
    os.mkfifo(folder / "project.lock")
    for read_only in (True, False):
        box: list[object] = []

        def go() -> None:
            try:
                with Project.open(folder, read_only=read_only) as p:
                    box.append(p.read_only)
            except BaseException as exc:  # noqa: BLE001 - said by the assertion below
                box.append(exc)

        opener = threading.Thread(target=go, daemon=True)
        opener.start()
        opener.join(20)
        if opener.is_alive():  # the old open: let it go on, so the test ends
            os.close(os.open(folder / "project.lock", os.O_WRONLY | os.O_NONBLOCK))
            opener.join(20)
            pytest.fail(f"read_only={read_only}: the open blocked on the FIFO")
        assert box == [read_only]
        import stat
        assert stat.S_ISFIFO(os.lstat(folder / "project.lock").st_mode)  # left as it was
