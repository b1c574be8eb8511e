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
