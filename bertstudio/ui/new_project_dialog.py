"""The "new project" dialog: name, folder, task kind and the initial label set (or a GLUE preset).

Where a project cannot be made (a path through a regular file, a folder without write
permission, a read-only or full disk) the reason shows in the dialog, and whatever the
attempt had already made (the new folder, its first sub-folders) is taken away again, so
a failed Create leaves the disk as it found it. Folders that were there before are never
removed.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import shutil
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
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

from bertstudio.data.atomic import remove_entry
from bertstudio.data.project_store import folder_name
from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.ui import theme

log = logging.getLogger(__name__)

KIND_NAMES = {
    "sentence": QT_TRANSLATE_NOOP("NewProjectDialog", "Single sentence classification"),
    "pair": QT_TRANSLATE_NOOP("NewProjectDialog", "Sentence pair classification"),
    "regression": QT_TRANSLATE_NOOP("NewProjectDialog", "Score (regression): one text or a pair"),
    "tagging": QT_TRANSLATE_NOOP("NewProjectDialog", "Token tagging (entities, POS)"),
    "qa": QT_TRANSLATE_NOOP("NewProjectDialog", "Extractive question answering"),
}


def kind_name(kind: str) -> str:
    """The translated name of a task kind (the kind itself for one without a name)."""
    return QCoreApplication.translate("NewProjectDialog", KIND_NAMES.get(kind, kind))


def parse_labels(text: str) -> list[str]:
    """Labels typed as "neg, pos" or one per line; order kept, duplicates dropped. The commas a
    Chinese or Japanese keyboard types (，、) and semicolons separate too: "负面，正面" made one label."""
    return list(dict.fromkeys(part.strip() for part in re.split(r"[,\n，、;；]", text) if part.strip()))


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
        browse = QPushButton(self.tr("&Browse…"))
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
        self.bio_box = QCheckBox(self.tr("&Entity spans (BIO tags: O, B-X, I-X)"))
        self.bio_box.setObjectName("bioBox")
        self.bio_box.setChecked(True)
        self.note_label = QLabel(objectName="newProjectNote")  # what happens after Create (a dropped file)
        self.note_label.setWordWrap(True)
        self.note_label.setVisible(False)
        self.error_label = QLabel()
        self.error_label.setObjectName("newProjectError")
        self.error_label.setWordWrap(True)
        theme.set_tone(self.error_label, "error")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("C&reate"))
        buttons.accepted.connect(self.create)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("&Name:"), self.name_edit)
        form.addRow(self.tr("&Folder:"), folder_row)
        form.labelForField(folder_row).setBuddy(self.folder_edit)  # a layout's label has no buddy of its own
        form.addRow(self.tr("From a &GLUE preset:"), self.preset_combo)
        form.addRow(self.tr("&Task:"), self.kind_combo)
        form.addRow(self.tr("&Labels:"), self.labels_edit)
        form.addRow("", self.bio_box)
        form.addRow(self.note_label)
        form.addRow(self.error_label)
        form.addRow(buttons)
        self._on_kind_changed()
        self.resize(560, 0)

    def suggest_for_file(self, path: str) -> None:
        """Start from a data file that is to be imported next: its name, its folder (the project is made
        in a new folder inside it) and the task kind its format implies (CoNLL: tagging, SQuAD JSON: QA)."""
        file = Path(path)
        self.name_edit.setText(file.stem)
        self.folder_edit.setText(str(file.parent))
        kind = _kind_of_file(path)
        index = self.kind_combo.findData(kind)
        if index >= 0:
            self.kind_combo.setCurrentIndex(index)
        spans = _tags_are_spans(path) if kind == "tagging" else None
        if spans is not None:  # POS tags (NOUN, VERB) are not entity spans: no "O" class added to them
            self.bio_box.setChecked(spans)
        self.note_label.setVisible(True)
        self.note_label.setText(self.tr("%1 is imported once the project is made; labels found in it can be "
                                         "added then.").replace("%1", file.name))

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
        """Create the project (kept in ``self.project``); why it cannot be made is shown in the dialog."""
        from bertstudio.data.project import Project

        self.error_label.clear()  # never a message left from an earlier try
        name = self.name_edit.text().strip()
        folder = self.folder_edit.text().strip()
        if not name or not folder:
            self.error_label.setText(self.tr("Give the project a name and a folder."))
            return False
        path = Path(folder).expanduser()
        if not path.is_absolute():  # made under the app's working folder, which the user never sees
            self.error_label.setText(self.tr("Give the folder as a full path (such as {example}), or choose it "
                                             "with Browse….").format(example=str(Path("~") / folder)))
            return False
        try:  # looking may fail too: a name too long, a folder you may not enter
            blocked = self._blocked(path)
            if blocked:
                self.error_label.setText(blocked)
                return False
            if path.is_dir() and any(path.iterdir()) and not (path / "project.json").exists():
                path = _free_folder(path, folder_name(name, "project"))  # a parent folder was chosen: make one inside
            made = _first_missing(path)  # what this attempt creates, and so may take away again
            was_empty_folder = made is None and path.is_dir() and not any(path.iterdir())
        except OSError as exc:
            self.error_label.setText(self.tr("Cannot create the project in {folder}: {reason}").format(
                folder=exc.filename or path, reason=self._reason(exc)))
            return False
        try:
            self.project = Project.create(os.fspath(path), name=name, kind=self.kind(), labels=self.labels(),
                                          glue_task=self.preset_combo.currentData())
        except BertStudioError as exc:
            from bertstudio.ui.editors.label_set import label_refusal

            self._undo_partial(path, made, was_empty_folder)
            # a label name refused (a look-alike, too long, a hidden character) as the Label set dialog says it
            self.error_label.setText(label_refusal(exc) or exc.message)
            return False
        except OSError as exc:
            log.warning("cannot create a project in %s: %s", path, exc)
            self._undo_partial(path, made, was_empty_folder)
            self.error_label.setText(self.tr("Cannot create the project in {folder}: {reason}").format(
                folder=exc.filename or path, reason=self._reason(exc)))
            return False
        self.accept()
        return True

    def _blocked(self, path: Path) -> str:
        """Why no project folder can be made at ``path`` before anything is tried ("" when none is known)."""
        for part in (path, *path.parents):
            if part.exists():
                if part.is_dir():
                    return ""
                if part == path:
                    return self.tr("{path} is a file, not a folder: choose a folder for the project.").format(path=part)
                return self.tr("{path} is a file, so no folder can be made inside it: choose another place.").format(
                    path=part)
        return ""

    def _reason(self, exc: OSError) -> str:
        reasons = {errno.EACCES: self.tr("no permission to write there"),
                   errno.EPERM: self.tr("no permission to write there"),
                   errno.EROFS: self.tr("the disk is read-only"),
                   errno.ENOSPC: self.tr("the disk is full"),
                   errno.ENOTDIR: self.tr("a part of the path is a file, not a folder"),
                   errno.ENAMETOOLONG: self.tr("the path is too long")}
        return reasons.get(exc.errno or 0, exc.strerror or str(exc))

    @staticmethod
    def _undo_partial(path: Path, made: Path | None, was_empty_folder: bool) -> None:
        """Take away what a failed create made: the folders it created, or what it put in the
        empty folder the user chose (Project.create writes only into an empty or new folder)."""
        try:
            if made is not None and made.exists():
                shutil.rmtree(made)
            elif was_empty_folder and path.is_dir():
                for child in path.iterdir():
                    remove_entry(child)
        except OSError as exc:  # the disk refused the clean-up too: say so in the log, keep the dialog's reason
            log.warning("could not remove what a failed project create left in %s: %s", path, exc)


def _free_folder(parent: Path, name: str) -> Path:
    """``parent/name``, or ``name-2``, ``name-3``... when that is taken (a project of the same name,
    or a file); an empty folder of the name is used, as a chosen empty folder is."""
    for n in range(1, 1000):
        path = parent / (name if n == 1 else f"{name}-{n}")
        if not os.path.lexists(path) or (path.is_dir() and not path.is_symlink() and not any(path.iterdir())):
            return path
    return parent / name  # Project.create says why it cannot be used


def _first_missing(path: Path) -> Path | None:
    """The top-most folder of ``path`` that does not exist yet (None when ``path`` exists)."""
    missing = None
    for part in (path, *path.parents):
        if part.exists():
            break
        missing = part
    return missing


def _kind_of_file(path: str) -> str | None:
    """The task kind a data file's format and columns suggest (None when it cannot be read):
    the file's extension alone read every .json as SQuAD, JSON Lines saved as .json too, and
    a pair TSV as one sentence. Reads the start of the file only, as Import's preview does."""
    from bertstudio.data.io import detect_format, preview

    try:
        fmt = detect_format(path)
        if fmt in ("conll", "conllu"):
            return "tagging"
        if fmt == "squad":
            return "qa"  # the whole file is not parsed for a guess
        return preview(path, fmt=fmt, n=20).suggested_kind
    except (BertStudioError, OSError):
        return None


def _tags_are_spans(path: str) -> bool | None:
    """Whether a CoNLL / CoNLL-U file's tags (the column bertstudio imports) are entity spans
    (B-/I-/E-/S- prefixes) or plain tags such as POS; None when its start shows no tags."""
    from bertstudio.data.io import detect_format, read_bytes
    from bertstudio.errors import BertStudioError

    try:
        fmt = detect_format(path)
        data = read_bytes(path, head=1 << 16)
    except (BertStudioError, OSError):
        return None
    lines = data.decode("utf-8", errors="replace").splitlines()
    tags = []
    for line in lines[:-1] if len(data) >= 1 << 16 else lines:  # a cut last line is left out
        fields = line.split("\t") if fmt == "conllu" else line.split()
        if not line.strip() or line.startswith("#") or line.startswith("-DOCSTART-"):
            continue
        if fmt == "conllu" and len(fields) == 10 and fields[0].isdigit():
            tags.append(fields[3])
        elif fmt == "conll" and len(fields) >= 2:
            tags.append(fields[-1])
    if not tags:
        return None
    return any(re.match(r"^[BIES]-.", t) for t in tags)
