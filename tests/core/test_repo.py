"""The promises the repository makes to a newcomer and to CI."""

from __future__ import annotations

import re

from helpers import REPO


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.*?)\n```", text, flags=re.S)


def test_readme_starts_with_install_and_test_commands() -> None:
    install, test = _readme_commands()[:2]
    assert "pip install" in install and install.rstrip().endswith("bertstudio")
    assert "pytest" in test


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test_command = _readme_commands()[1].strip()
    ci_lines = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert test_command in ci_lines


def test_console_script_points_at_main() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'bertstudio = "bertstudio.__main__:main"' in text


def test_the_app_has_a_launcher_without_a_console_window(monkeypatch) -> None:
    """Windows opened a console for the console script: closing it ended the app and its training."""
    import sys

    import bertstudio.__main__ as entry
    import bertstudio.app

    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.gui-scripts]\nbertstudio-gui = "bertstudio.__main__:gui_main"' in text
    seen = []
    monkeypatch.setattr(bertstudio.app, "main", lambda argv=None: seen.append((argv, sys.stdout, sys.stderr)) or 0)
    monkeypatch.setattr(sys, "argv", ["bertstudio-gui", "--project", "p"])
    monkeypatch.setattr(sys, "stdout", None)  # pythonw: no standard streams
    monkeypatch.setattr(sys, "stderr", None)
    assert entry.gui_main() == 0
    (argv, out, err), = seen
    assert argv == ["--project", "p"] and out is not None and err is not None
    out.write("a library's progress bar\n")
    out.close(), err.close()


def test_the_launcher_without_a_console_logs_what_nobody_caught(tmp_path, monkeypatch) -> None:
    """bertstudio-gui.exe sends stderr to the null device: an exception raised in a slot (which
    PySide6 hands to sys.excepthook) or a thread was printed there, neither on screen nor in the log."""
    import sys
    import threading

    import bertstudio.__main__ as entry
    import bertstudio.app
    from bertstudio.logsetup import setup_logging

    log = tmp_path / "bertstudio.log"
    monkeypatch.setenv("BERTSTUDIO_LOG", str(log))
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    monkeypatch.setattr(bertstudio.app, "main", lambda argv=None: setup_logging() and 0)
    monkeypatch.setattr(sys, "argv", ["bertstudio-gui"])
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    assert entry.gui_main() == 0
    try:
        raise ValueError("a slot's bug")
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    worker = threading.Thread(target=lambda: 1 / 0, name="a-worker")
    worker.start(), worker.join()
    sys.stdout.close(), sys.stderr.close()
    setup_logging()  # the test's log file let go
    text = log.read_text(encoding="utf-8")
    assert "ValueError: a slot's bug" in text and "Traceback" in text
    assert "ZeroDivisionError" in text and "a-worker" in text


def test_the_onnx_export_child_gets_null_streams_too(monkeypatch) -> None:
    """The export's child is spawned by pythonw too (no standard streams): a progress bar or a
    warning written there failed the export."""
    import queue
    import sys
    import threading
    from types import SimpleNamespace

    from bertstudio.train import onnx_export

    def export(model_dir, out_dir, **options):
        sys.stderr.write("a progress bar\n")
        print("a warning")
        return SimpleNamespace(folder=out_dir, int8=None, max_abs_diff=0.0)

    monkeypatch.setattr(onnx_export, "export_onnx", export)
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    messages: queue.Queue = queue.Queue()
    onnx_export._export_child("model", "out", False, messages, threading.Event())
    streams = sys.stdout, sys.stderr
    monkeypatch.undo()
    for stream in streams:
        if stream is not None:
            stream.close()
    assert messages.get_nowait()[0] == "done"
