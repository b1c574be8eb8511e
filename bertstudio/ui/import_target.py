"""The Import dialog's target: which split, and what happens to the rows it already holds.

When the chosen split holds rows the box says so ("train holds 300 rows, 300
labelled") and offers Append (the default, chosen again whenever the split
changes) or Replace. Replace is confirmed once more by :meth:`confirm_replace`
before anything is written; the replaced rows are kept as a backup in the project
folder and Edit > Undo brings them back; :func:`choose_split_backup` lets Edit >
Restore replaced rows pick one after a reopen.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from bertstudio.ui.session import SPLITS, ProjectSession, split_name


class SplitTargetBox(QWidget):
    """Split combo + the split's state + Append / Replace."""

    changed = Signal()

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.split_combo = QComboBox()
        self.split_combo.setObjectName("targetSplitCombo")
        for split in SPLITS:
            self.split_combo.addItem(split_name(split), split)
        self.split_combo.currentIndexChanged.connect(lambda _i: self.refresh())
        self.state_label = QLabel()
        self.state_label.setObjectName("targetSplitState")
        self.state_label.setWordWrap(True)
        self.append_radio = QRadioButton(self.tr("Append the new rows after them"))
        self.append_radio.setObjectName("appendRadio")
        self.replace_radio = QRadioButton(self.tr("Replace them (kept as a backup; Edit > Undo brings them back)"))
        self.replace_radio.setObjectName("replaceRadio")
        self.mode = QButtonGroup(self)
        self.mode.addButton(self.append_radio)
        self.mode.addButton(self.replace_radio)
        self.append_radio.setChecked(True)
        self.mode.buttonToggled.connect(lambda *_a: self.changed.emit())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.split_combo)
        row.addWidget(self.state_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.append_radio)
        layout.addWidget(self.replace_radio)
        self.refresh()

    def split(self) -> str:
        return str(self.split_combo.currentData())

    def set_split(self, split: str) -> None:
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(split)))

    def holds_rows(self) -> bool:
        return self.session.split_size(self.split()) > 0

    def replace(self) -> bool:
        """True when the user chose to replace rows the split holds (never for an empty split)."""
        return self.holds_rows() and self.replace_radio.isChecked()

    def refresh(self) -> None:
        """Show the chosen split's state; Append is chosen again whenever the split changes."""
        done, total = self.session.progress(self.split())
        self.append_radio.setChecked(True)
        full = total > 0
        self.append_radio.setVisible(full)
        self.replace_radio.setVisible(full)
        self.state_label.setText(
            self.tr("%1 holds %2 rows, %3 labelled.").replace("%1", split_name(self.split())).replace("%2", f"{total:,}")
            .replace("%3", f"{done:,}") if full else self.tr("%1 is empty.").replace("%1", split_name(self.split())))
        self.changed.emit()

    def confirm_replace(self, new_rows: int) -> bool:
        """Ask once more before replacing; True when the user confirms."""
        done, total = self.session.progress(self.split())
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Replace rows?"),
                          self.tr("Replace the %1 rows of %2 (%3 labelled) by the %4 rows of the file?")
                          .replace("%1", f"{total:,}").replace("%2", split_name(self.split())).replace("%3", f"{done:,}")
                          .replace("%4", f"{new_rows:,}"),
                          QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("replaceConfirm")
        box.setInformativeText(self.tr("The current rows are kept as a backup in the project folder; "
                                       "Edit > Undo brings them back."))
        replace = box.addButton(self.tr("Replace"), QMessageBox.ButtonRole.DestructiveRole)
        replace.setObjectName("replaceConfirmButton")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is replace


def choose_split_backup(parent: QWidget, backups: list[dict[str, Any]]) -> str | None:
    """Ask which kept rows to bring back (newest first); the backup's id, or None."""

    def tr(text: str) -> str:
        return QCoreApplication.translate("", text)  # the context lupdate gives a bare tr("...")

    if not backups:
        QMessageBox.information(parent, tr("Restore replaced rows"), tr("No import has replaced rows in this project."))
        return None
    newest = list(reversed(backups))
    items = [tr("%1: %2 rows, %3 labelled (replaced %4)").replace("%1", split_name(str(b["split"]))).replace("%2", str(b["rows"]))
             .replace("%3", str(b.get("labelled", "?"))).replace("%4", str(b.get("replaced", ""))) for b in newest]
    item, ok = QInputDialog.getItem(parent, tr("Restore replaced rows"),
                                    tr("Rows to bring back (the current rows are kept as a backup):"), items, 0, False)
    return newest[items.index(item)]["id"] if ok else None
