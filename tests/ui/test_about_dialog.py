"""Help > About bertstudio: the version and where things are (a newcomer found only the shortcuts there)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QLabel

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_help_about_says_the_version_the_default_model_and_where_the_log_and_settings_are(
        qtbot, main_window, monkeypatch, tmp_path):
    import torch
    import transformers

    from bertstudio.ui import about_dialog

    monkeypatch.setenv("BERTSTUDIO_LOG", str(tmp_path / "the.log"))
    shown: list[about_dialog.AboutDialog] = []
    monkeypatch.setattr(about_dialog.AboutDialog, "exec", lambda self: shown.append(self) or 0)
    help_menu = [a.menu() for a in main_window.menuBar().actions()
                 if a.menu() is not None and main_window.shortcuts_action in a.menu().actions()]
    assert len(help_menu) == 1 and main_window.about_action in help_menu[0].actions()

    main_window.about_action.trigger()
    assert len(shown) == 1
    dialog = shown[0]
    qtbot.addWidget(dialog)
    version = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    assert dialog.findChild(QLabel, "aboutVersion").text() == f"bertstudio {version}"
    values = {key: label.text() for key, label in dialog.values.items()}
    assert "all-MiniLM-L6-v2" in values["model"]
    assert values["log"] == str(tmp_path / "the.log")
    assert values["settings"] == main_window.settings.fileName() and values["settings"]
    assert f"torch {torch.__version__}" in values["libraries"]
    assert f"transformers {transformers.__version__}" in values["libraries"]


def test_about_names_the_pyside6_version_though_its_distribution_is_pyside6_essentials(qtbot, tmp_path):
    # pyproject installs PySide6-Essentials, so metadata.version("PySide6") found nothing and every
    # standard install read "PySide6 not installed" on the line a bug report copies.
    import PySide6
    from PySide6.QtCore import QSettings

    from bertstudio.ui.about_dialog import AboutDialog

    dialog = AboutDialog(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(dialog)
    libraries = dialog.values["libraries"].text()
    assert f"PySide6 {PySide6.__version__}" in libraries
    assert "not installed" not in libraries
