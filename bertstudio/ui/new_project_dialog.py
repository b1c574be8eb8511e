"""The "new project" dialog: name, folder, task kind and the initial label set (or a GLUE preset)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError

KIND_NAMES = {
    "sentence": QT_TRANSLATE_NOOP("NewProjectDialog", "Single sentence classification"),
    "pair": QT_TRANSLATE_NOOP("NewProjectDialog", "Sentence pair classification"),
    "regression": QT_TRANSLATE_NOOP("NewProjectDialog", "Sentence pair regression (score)"),
    "tagging": QT_TRANSLATE_NOOP("NewProjectDialog", "Token tagging (entities, POS)"),
    "qa": QT_TRANSLATE_NOOP("NewProjectDialog", "Extractive question answering"),
}


def parse_labels(text: str) -> list[str]:
    """Labels typed as "neg, pos" or one per line; order kept, duplicates dropped."""
    return list(dict.fromkeys(part.strip() for part in re.split(r"[,\n]", text) if part.strip()))


def bio_labels(types: list[str]) -> list[str]:
    """O plus B-X/I-X for each entity type (types already in BIO form are kept)."""
    out = ["O"]
    for t in types:
        if t == "O":
            continue
        if t[:2] in ("B-", "I-"):
            out.append(t)
        else:
            out += [f"B-{t}", f"I-{t}"]
    return list(dict.fromkeys(out))


class NewProjectDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, folder: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newProjectDialog")
        self.setWindowTitle(self.tr("New project"))
        self.project = None
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("projectNameEdit")
        self.folder_edit = QLineEdit(folder or "")
        self.folder_edit.setObjectName("projectFolderEdit")
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._on_browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(browse)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("taskKindCombo")
        for kind, text in KIND_NAMES.items():
            self.kind_combo.addItem(self.tr(text), kind)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_changed)
        self.preset_combo = QComboBox()
        self.preset_combo.setObjectName("newProjectPresetCombo")
        self.preset_combo.addItem(self.tr("none"), None)
        from bertstudio.data.glue import PRESETS

        for name in PRESETS:
            self.preset_combo.addItem(name, name)
        self.preset_combo.activated.connect(lambda _i: self._on_preset_chosen())
        self.labels_edit = QLineEdit()
        self.labels_edit.setObjectName("labelsEdit")
        self.labels_edit.setPlaceholderText(self.tr("e.g. negative, positive"))
        self.bio_box = QCheckBox(self.tr("Entity spans (BIO tags: O, B-X, I-X)"))
        self.bio_box.setObjectName("bioBox")
        self.bio_box.setChecked(True)
        self.error_label = QLabel()
        self.error_label.setObjectName("newProjectError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c0392b;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Create"))
        buttons.accepted.connect(self.create)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("Name:"), self.name_edit)
        form.addRow(self.tr("Folder:"), folder_row)
        form.addRow(self.tr("From a GLUE preset:"), self.preset_combo)
        form.addRow(self.tr("Task:"), self.kind_combo)
        form.addRow(self.tr("Labels:"), self.labels_edit)
        form.addRow("", self.bio_box)
        form.addRow(self.error_label)
        form.addRow(buttons)
        self._on_kind_changed()
        self.resize(560, 0)

    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def labels(self) -> list[str]:
        gold = get_spec(self.kind()).gold
        labels = parse_labels(self.labels_edit.text())
        if gold.per_token and self.bio_box.isChecked():
            return bio_labels(labels)
        return labels if gold.has_label_set else []

    def _on_kind_changed(self) -> None:
        gold = get_spec(self.kind()).gold
        self.labels_edit.setEnabled(gold.has_label_set)
        self.bio_box.setVisible(gold.per_token)
        self.labels_edit.setPlaceholderText(
            self.tr("entity types, e.g. PER, LOC, ORG") if gold.per_token else self.tr("e.g. negative, positive"))

    def _on_preset_chosen(self) -> None:
        name = self.preset_combo.currentData()
        if not name:
            return
        from bertstudio.data.glue import get_preset

        task = get_preset(name)
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(task.kind))
        self.labels_edit.setText(", ".join(task.labels))
        if not self.name_edit.text():
            self.name_edit.setText(task.name)

    def _on_browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder for the new project"))
        if folder:
            self.folder_edit.setText(folder)

    def create(self) -> bool:
        """Create the project (kept in ``self.project``); a core error is shown in the dialog."""
        from bertstudio.data.project import Project

        name = self.name_edit.text().strip()
        folder = self.folder_edit.text().strip()
        if not name or not folder:
            self.error_label.setText(self.tr("Give the project a name and a folder."))
            return False
        path = Path(folder)
        if path.exists() and any(path.iterdir()) and not (path / "project.json").exists():
            path = path / re.sub(r"[^\w.-]+", "-", name)  # a parent folder was chosen: make one inside
        try:
            self.project = Project.create(os.fspath(path), name=name, kind=self.kind(), labels=self.labels(),
                                          glue_task=self.preset_combo.currentData())
        except BertStudioError as exc:
            self.error_label.setText(exc.message)
            return False
        self.accept()
        return True
