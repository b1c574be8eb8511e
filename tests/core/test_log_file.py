"""Tracebacks go to the log file only, and to stderr with --debug (issue 11, item 13);
``glue`` exits non-zero when a task failed."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bertstudio import cli
from bertstudio.train import engine

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def log_file(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "state" / "bertstudio.log"
    monkeypatch.setenv("BERTSTUDIO_LOG", str(path))
    return path


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "train.tsv"
    path.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8)), encoding="utf-8")
    return path


def model_that_raises(monkeypatch) -> None:
    """The run's model raises an error bertstudio does not know (a bug in a custom head, say)."""
    real = engine.build_parts

    def build(config, labels):
        parts = real(config, labels)

        def hook(module, args, output):
            if module.training:
                raise RuntimeError("boom in a custom head")

        parts.model.register_forward_hook(hook)
        return parts

    monkeypatch.setattr(engine, "build_parts", build)


def train_argv(data: Path, model: str, out: Path) -> list[str]:
    return ["--quiet", "train", "--train", str(data), "--model", model, "--epochs", "1", "--batch-size", "8",
            "--max-length", "16", "--device", "cpu", "--out", str(out)]


def test_an_unexpected_failure_is_one_line_and_the_traceback_is_in_the_log(tiny, data, log_file, tmp_path, monkeypatch, capsys):
    model_that_raises(monkeypatch)
    code = cli.main(train_argv(data, tiny, tmp_path / "run"), out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "RuntimeError: boom in a custom head" in lines[0] and f"details in {log_file}" in lines[0]
    log = log_file.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in log and "RuntimeError: boom in a custom head" in log


def test_debug_shows_the_traceback_on_stderr(tiny, data, log_file, tmp_path, monkeypatch, capsys):
    model_that_raises(monkeypatch)
    code = cli.main(["--debug"] + train_argv(data, tiny, tmp_path / "run"), out=io.StringIO())
    assert code == 1
    assert "Traceback (most recent call last)" in capsys.readouterr().err
    assert "Traceback (most recent call last)" in log_file.read_text(encoding="utf-8")


def test_a_bug_outside_a_run_is_one_line_too(log_file, monkeypatch, capsys):
    def broken(args, out):
        return 1 // 0

    monkeypatch.setitem(cli.COMMANDS, "predict", broken)
    code = cli.main(["predict", "--model", "x", "--text", "y"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("bertstudio: internal error: ZeroDivisionError") and str(log_file) in err
    assert "ZeroDivisionError" in log_file.read_text(encoding="utf-8")


_RUN_WITH_A_BROKEN_MODEL = """
import sys
from bertstudio import cli
from bertstudio.train import engine
real = engine.build_parts
def build(config, labels):
    parts = real(config, labels)
    def hook(module, args, output):
        raise RuntimeError("boom in a custom head")
    parts.model.register_forward_hook(hook)
    return parts
engine.build_parts = build
sys.exit(cli.main(sys.argv[1:]))
"""


def test_in_a_real_process(tiny, data, tmp_path):
    log = tmp_path / "log" / "bertstudio.log"
    proc = subprocess.run([sys.executable, "-c", _RUN_WITH_A_BROKEN_MODEL, *train_argv(data, tiny, tmp_path / "run")],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO), "BERTSTUDIO_LOG": str(log)})
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback (most recent call last)" in log.read_text(encoding="utf-8")


def test_the_default_log_file_follows_xdg(monkeypatch, tmp_path):
    from bertstudio.logsetup import log_path

    monkeypatch.delenv("BERTSTUDIO_LOG", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert log_path() == tmp_path / "bertstudio" / "bertstudio.log"


def test_glue_exits_non_zero_when_a_task_failed(shared_data, tiny, log_file, tmp_path, monkeypatch, capsys):
    model_that_raises(monkeypatch)
    out = io.StringIO()
    code = cli.main(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(shared_data / "glue"), "--model", tiny,
                     "--max-train-examples", "16", "--max-eval-examples", "8", "--epochs", "1", "--max-length", "32",
                     "--out", str(tmp_path / "glue")], out=out)
    err = capsys.readouterr().err
    assert code == 1
    assert "RTE: run failed" in out.getvalue()
    lines = err.strip().splitlines()  # the reason itself, where it used to say only "1 GLUE task(s) did not finish"
    assert len(lines) == 1 and lines[0].startswith("bertstudio: RTE: run failed") and "Traceback" not in err, err
    assert "details in" in lines[0]  # the traceback is in the log file


def test_a_relative_xdg_state_home_is_ignored(monkeypatch, tmp_path):
    """The XDG spec: a relative path is invalid and ignored (XDG_STATE_HOME=state wrote ./state/bertstudio/...)."""
    from pathlib import Path

    from bertstudio.logsetup import log_path

    monkeypatch.delenv("BERTSTUDIO_LOG", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", "state")
    assert log_path() == Path(tmp_path) / ".local" / "state" / "bertstudio" / "bertstudio.log"
