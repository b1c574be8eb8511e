"""The command line ends without the interpreter's teardown (bertstudio/__main__.exit_now):
what a command wrote, printed and logged is all there, temporary folders are removed and
the exit code is the command's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

RUN = textwrap.dedent("""
    import atexit, sys, tempfile, logging
    import torch  # noqa: F401 - the fast exit is taken only once torch is loaded, as after any run
    kept = tempfile.TemporaryDirectory(prefix="bertstudio-fast-exit-")  # removed by its finalizer at exit
    print(kept.name, file=sys.stderr)
    # an exit handler that logs: it runs, and the log file is flushed after it
    atexit.register(lambda: logging.getLogger("bertstudio.test").warning("logged by an exit handler"))
    sys.argv = ["bertstudio", *sys.argv[1:]]
    from bertstudio.__main__ import main
    sys.exit(main())
""")


def _run(args: list[str], log: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "BERTSTUDIO_LOG": str(log), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "train.tsv"
    path.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8)), encoding="utf-8")
    return path


def test_a_run_ends_with_everything_written_printed_and_cleaned_up(tiny, data, tmp_path):
    out = tmp_path / "run"
    done = _run(["train", "--train", str(data), "--eval", str(data), "--model", tiny, "--epochs", "1", "--batch-size", "8", "--max-length",
                 "16", "--device", "cpu", "--out", str(out)], tmp_path / "log" / "bertstudio.log", tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    printed = json.loads(done.stdout[: done.stdout.rindex("}") + 1])  # the metrics, flushed into the pipe
    kept = json.loads((out / "metrics.json").read_text())
    # the numbers at the top; objects beside them (one_answer, last_evaluation) are metrics.json's own
    assert printed == {k: v for k, v in kept.items() if not isinstance(v, dict)}
    assert (out / "model" / "config.json").is_file() and (out / "history.jsonl").read_text().strip()
    temporary = Path(done.stderr.splitlines()[0])
    assert temporary.name.startswith("bertstudio-fast-exit-") and not temporary.exists()  # exit handlers ran
    assert "logged by an exit handler" in (tmp_path / "log" / "bertstudio.log").read_text()  # logging flushed


def test_a_refused_command_keeps_its_exit_code(tiny, tmp_path):
    done = _run(["train", "--train", str(tmp_path / "missing.tsv"), "--model", tiny, "--out", str(tmp_path / "run")],
                tmp_path / "log" / "bertstudio.log", tmp_path)
    assert done.returncode == 2
    assert "run folder" not in done.stdout  # none was made
    assert [line for line in done.stderr.splitlines() if line.startswith("bertstudio: error:") and "missing.tsv" in line]


def test_the_apps_options_open_the_app(monkeypatch):
    """README: "try bertstudio --locale zh_CN": it went to the command line's parser ("invalid
    choice: 'zh_CN'") where only no arguments, gui, app or --project opened the app."""
    import bertstudio.app as app
    from bertstudio.__main__ import main

    seen: list[list[str]] = []
    monkeypatch.setattr(app, "main", lambda argv: seen.append(list(argv)) or 0)
    for argv, given in ((["--locale", "zh_CN"], ["--locale", "zh_CN"]), (["--locale=zh_CN"], ["--locale=zh_CN"]),
                        (["--project", "p"], ["--project", "p"]), (["gui", "--locale", "zh_CN"], ["--locale", "zh_CN"]),
                        ([], [])):
        assert main(argv) == 0 and seen[-1] == given
