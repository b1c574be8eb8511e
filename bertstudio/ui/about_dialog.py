"""Help > About bertstudio: the version and where things are, for a bug report or a first look.

A newcomer looking in the Help menu found only the keyboard shortcuts: no version, no word of
the model it trains by default, nor of where the log and the settings are kept. Versions are read
from the installed packages' metadata, never by importing them: ``import torch`` on the GUI
thread froze the window for seconds (ui/preload.py). PySide6 is the exception: it is already
imported (this dialog runs on it), and its distribution is named ``PySide6-Essentials`` (pyproject),
so ``metadata.version("PySide6")`` said "not installed" on every standard install.
"""

from __future__ import annotations

import platform
from importlib import metadata
from typing import Any

import PySide6
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from bertstudio.bundled import BUNDLED_TITLE
from bertstudio.logsetup import log_path

LIBRARIES = ("torch", "transformers", "PySide6")  # what a bug report about training or the window needs


def package_version(name: str) -> str | None:
    """``name``'s installed version from its metadata (nothing imported); None when it is not installed."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def library_version(name: str) -> str | None:
    """The version of ``name`` in LIBRARIES: PySide6's from the module this window runs on (its
    distribution may be PySide6 or PySide6-Essentials), the others' from their metadata."""
    if name == "PySide6":
        return PySide6.__version__
    return package_version(name)


def app_version() -> str:
    """bertstudio's version as installed (pyproject's), else the package's own ``__version__`` (a source tree)."""
    from bertstudio import __version__

    return package_version("bertstudio") or __version__


class AboutDialog(QDialog):
    """The app's version, its default model, its log file and settings, and the libraries' versions;
    the values can be selected and copied."""

    def __init__(self, parent: QWidget | None = None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About bertstudio"))
        layout = QVBoxLayout(self)
        title = QLabel(self.tr("bertstudio {version}").format(version=app_version()))
        title.setObjectName("aboutVersion")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        intro = QLabel(self.tr("Label your data and fine-tune BERT-style encoders on it, in this window or with the "
                               "bertstudio command."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.values: dict[str, QLabel] = {}
        not_installed = self.tr("not installed")
        libraries = "  ·  ".join(f"{name} {library_version(name) or not_installed}" for name in LIBRARIES)
        rows: list[tuple[str, str, Any]] = [
            ("model", self.tr("Default model:"), self.tr("{name} (installed with the app)").format(name=BUNDLED_TITLE)),
            ("log", self.tr("Log file:"), str(log_path())),
            ("settings", self.tr("Settings:"), settings.fileName() if settings is not None else QSettings().fileName()),
            ("libraries", self.tr("Libraries:"), f"Python {platform.python_version()}  ·  {libraries}"),
        ]
        for key, name, value in rows:
            label = QLabel(value)
            label.setObjectName(f"about_{key}")
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            self.values[key] = label
            form.addRow(name, label)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
