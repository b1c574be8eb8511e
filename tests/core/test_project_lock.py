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
