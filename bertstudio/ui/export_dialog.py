"""Export one split of the open project (edits applied) in any supported format."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from bertstudio.data.io import columns_lost, named_format, save_format, written_formats
from bertstudio.errors import BertStudioError
from bertstudio.ui import theme
from bertstudio.ui.session import SPLITS, ProjectSession, split_name


def _file_above(path: str) -> str | None:
    """The nearest existing folder above ``path`` when it is a file, not a folder, or a symbolic link
    to a path that does not exist (the export would make the missing folders, and said only "File
    exists")."""
    for folder in Path(path).parents:
        if os.path.lexists(folder):
            return None if os.path.isdir(folder) else str(folder)
    return None


class ExportDialog(QDialog):
    """Write one split (edits applied) in any supported format."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None, split: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export data"))
        self.session = session
        # its project closed under it (the window closed with the dialog open): Export raised on None
        session.project_closing.connect(self.reject)
        self.split_combo = QComboBox()
        self.split_combo.setObjectName("exportSplitCombo")
        for s in SPLITS:
            if session.split_size(s):
                self.split_combo.addItem(f"{split_name(s)} ({session.split_size(s)})", s)
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(split or session.current_split)))
        self.format_combo = QComboBox()
        self.format_combo.setObjectName("exportFormatCombo")
        self.format_combo.addItem(self.tr("from the file name"), "auto")
        # only what this project's rows can be written as: a sentence project was offered CoNLL, SQuAD and
        # GLUE (without a task to give it) and each was refused after Export
        for fmt in written_formats(session.project.kind, session.project.glue_task):
            self.format_combo.addItem(fmt, fmt)
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("exportPathEdit")
        browse = QPushButton(self.tr("&Browse…"))
        browse.clicked.connect(self._on_browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.error_label = QLabel()
        self.error_label.setObjectName("exportError")
        self.error_label.setWordWrap(True)
        theme.set_tone(self.error_label, "error")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Export"))
        buttons.accepted.connect(self.export)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("&Split:"), self.split_combo)
        form.addRow(self.tr("Fo&rmat:"), self.format_combo)
        form.addRow(self.tr("&File:"), row)
        form.labelForField(row).setBuddy(self.path_edit)  # a layout's label has no buddy of its own
        form.addRow(self.error_label)
        form.addRow(buttons)
        self._confirmed: str | None = None  # a path the save dialog already asked to replace
        if not self.split_combo.count():
            self.error_label.setText(self.tr("This project holds no rows to export yet."))
            buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)

    def _said(self, lost: Any) -> str:
        """io.columns_lost's answer in the window's language: names, positions, or a share."""
        parts = list(lost.names) + [self.tr("column %1").replace("%1", str(n)) for n in lost.positions]
        if lost.unnamed:
            parts.append(self.tr("%1 of its %2 columns").replace("%1", str(lost.unnamed[0]))
                         .replace("%2", str(lost.unnamed[1])))
        return ", ".join(parts)

    def _refusal_text(self, exc: BertStudioError) -> str:
        """A writer's refusal in the interface's words where its facts say it (the CoNLL writer's tag that a
        CoNLL file would read back as another tag read in English in the Chinese window); else as the core wrote it."""
        facts = exc.facts
        if facts.get("refusal") != "conll_tag":
            return exc.message
        why = {"no_type": self.tr("“I-” is an inside tag without an entity type"),
               "opens": self.tr("{value} opens an entity (IOB1)"),
               "other_type": self.tr("{value} follows {after}, another entity type, which it does not continue"),
               "none_open": self.tr("{value} follows {after}, which leaves no entity open for it to continue")}.get(
            facts.get("why", ""))
        if why is None:
            return exc.message
        quoted = {k: f"“{facts.get(k)}”" for k in ("value", "after", "reads_as")}
        return self.tr("Sentence {sentence}, tag {tag}: {why}, and a CoNLL file would read it back as {bio}, another "
                       "tag. Save as CoNLL-U or JSON Lines, which keep the tags as they are.").format(
            sentence=f"{facts.get('sentence', 0):,}", tag=facts.get("tag"),
            why=why.format(value=quoted["value"], after=quoted["after"]), bio=quoted["reads_as"])

    def _format_from_name(self, examples: Any, path: str) -> bool:
        """With "from the file name": whether the name's extension names a format this project writes;
        if not, says so (naming those it writes) before anything is asked or written. A sentence
        project to out.conll was refused only after Export, and out.xlsx got TSV without a word."""
        offered = [self.format_combo.itemData(i) for i in range(1, self.format_combo.count())]
        named = named_format(examples, path)
        if named is None:
            self.error_label.setText(self.tr(
                "The file name {name} names no format bertstudio writes. Give it the extension of one this "
                "project writes ({formats}), or choose the format in the list.").format(
                name=Path(path).name, formats=", ".join(offered)))
            return False
        if named not in offered:  # what save_format writes when the name names a format
            self.error_label.setText(self.tr(
                "The file name {name} asks for {fmt}, which this project's rows cannot be written as. It writes "
                "{formats}: change the extension, or choose the format in the list.").format(
                name=Path(path).name, fmt=named, formats=", ".join(offered)))
            return False
        return True

    def _on_browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export data"), self.path_edit.text())
        if path:
            self.path_edit.setText(path)
            self._confirmed = path  # the save dialog asked before choosing an existing file

    def export(self) -> bool:
        path = self.path_edit.text().strip()
        if not path:
            self.error_label.setText(self.tr("Choose a file to write."))
            return False
        if self.split_combo.currentData() is None:
            self.error_label.setText(self.tr("This project holds no rows to export yet."))
            return False
        try:
            target = self.session.project.export_target(path)  # refused before anything is asked
        except BertStudioError as exc:
            self.error_label.setText(exc.message)
            return False
        above = _file_above(path)
        if above is not None:  # a dangling link is no file: named as data/atomic.check_folder_path names it
            said = (self.tr("{path} is a symbolic link to a path that does not exist: choose a file in a folder.")
                    if os.path.islink(above) and not os.path.exists(above)
                    else self.tr("{path} is a file, not a folder: choose a file in a folder."))
            self.error_label.setText(said.format(path=above))
            return False
        split, fmt = self.split_combo.currentData(), self.format_combo.currentData()
        examples = self.session.project.examples(split)
        if fmt == "auto" and not self._format_from_name(examples, path):
            return False
        lost = columns_lost(examples, target, fmt=save_format(examples, path) if fmt == "auto" else fmt)
        if lost:  # asked even after the save dialog's own question, which could not know this
            answer = QMessageBox.warning(
                self, self.tr("Export data"),
                self.tr("{path} has columns this export does not write: {lost}. The project keeps only the columns "
                        "its task reads, so the export writes {written}, and replacing the file loses the others. "
                        "Replace it anyway?").format(path=path, lost=self._said(lost), written=", ".join(lost.written)),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        elif path != self._confirmed and os.path.lexists(path) and not os.path.isdir(path):
            answer = QMessageBox.question(
                self, self.tr("Export data"), self.tr("{path} already exists. Replace it?").format(path=path),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            self.session.project.export(split, path, fmt)
        except BertStudioError as exc:
            self.error_label.setText(self._refusal_text(exc))
            return False
        except OSError as exc:  # the writers let disk errors through (full disk, a folder, no permission)
            if exc.errno in (errno.ENOTDIR, errno.EEXIST):  # a folder on the way is a file (made meanwhile)
                self.error_label.setText(self.tr("{path}: a folder on its way is a file, not a folder.").format(
                    path=path))
            else:
                self.error_label.setText(f"{path}: {exc.strerror or exc}")
            return False
        self.accept()
        return True
