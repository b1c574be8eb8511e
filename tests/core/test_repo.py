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
