"""Import data into the open project: file, format, preview, columns, target split, labels.

The dialog asks the core for a preview (format detected, first rows, a
suggested mapping or GLUE preset), lets the user fix the mapping for the
columns the project's kind needs, then loads the whole file with
``load_examples``. After the preview the whole file is read and counted on a
worker thread (:mod:`.import_survey`: rows, labelled rows, the label spread, and a
warning when the project's model cannot read the text); Import then uses the rows
already read. Files over ``BIG_FILE`` bytes are never read on the GUI thread: Import
waits for the worker, showing progress, while the dialog stays responsive.

Nothing the user made changes without being shown first:

- the target split's state and Append / Replace (:mod:`.import_target`); Append
  is the default, Replace is confirmed once more and is one undoable step;
- when the file's label values are not all the project's labels, the label
  step (:mod:`.label_mapping_widget`) shows them beside the project's and the
  import waits for the user's mapping (a project without labels takes the file's).

The rows go in through ``ProjectSession.import_examples``. A DataError from the
reader or the project is shown inside the dialog and nothing is imported.
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.ui import theme
from bertstudio.ui.editors.label_set import label_refusal
from bertstudio.ui.import_survey import FileSurveyBox
from bertstudio.ui.import_target import SplitTargetBox
from bertstudio.ui.label_mapping_widget import LabelMappingBox
from bertstudio.ui.new_project_dialog import kind_name
from bertstudio.ui.run_words import is_read_only, project_refusal, read_only_text
from bertstudio.ui.session import SPLITS, ProjectSession, split_name

log = logging.getLogger(__name__)
BIG_FILE = 1 << 20  # bytes; bigger files load on a worker thread (a 1 MB JSONL reads in about 0.05 s)
QUICK_FILE = 256 << 10  # bytes; a file this small is read at once even while the survey reads it
# data.io.FORMATS, written out so that opening the dialog imports no reader (Export asks data.io.written_formats)
READ_FORMATS = ("csv", "tsv", "jsonl", "glue", "conll", "conllu", "squad", "text")
TABLES = ("csv", "tsv")
# What a project of a kind that no table can hold reads, said when the file is a table (said before
# Import: the dialog offered a Tokens column whose choice the reader then refused)
TABLE_REFUSALS = {
    "tagging": QT_TRANSLATE_NOOP("ImportDialog", "A table (CSV, TSV) cannot hold a tagging project's examples: import "
                                 "CoNLL (one word per line, a blank line between sentences), JSON Lines with a tokens "
                                 "list, or plain text (.txt) with one sentence per line."),
    "qa": QT_TRANSLATE_NOOP("ImportDialog", "A table (CSV, TSV) cannot hold a question answering project's examples: "
                            "import SQuAD JSON, or JSON Lines with context, question and answers."),
}
# File columns the user maps, per kind (required first); formats with a fixed layout need none.
MAPPED: dict[str, tuple[str, ...]] = {
    "sentence": ("text", "label"),
    "pair": ("text", "text_pair", "label"),
    "regression": ("text", "text_pair", "label"),
    "tagging": ("tokens", "tags"),
    "qa": ("context", "question", "answers", "id", "title"),
}


def optional_columns(kind: str) -> set[str]:
    """The mapped columns a file may lack: all but the kind's required inputs (its spec says which:
    the gold comes in unlabelled, regression's second text and QA's id and title are filled). A
    global set listed regression's optional second text as required, so a one-sentence score file
    could not be imported."""
    from bertstudio.data.kinds import get_spec

    return set(MAPPED[kind]) - set(get_spec(kind).inputs)
FIXED_LAYOUT = {"glue", "conll", "conllu", "squad", "text"}
_NONE = "—"


class ImportDialog(QDialog):
    imported = Signal(str, int)  # split, rows

    def __init__(self, session: ProjectSession, parent: QWidget | None = None, path: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importDialog")
        self.setWindowTitle(self.tr("Import data"))
        self.session = session
        self.kind = session.kind
        session.project_closing.connect(self.reject)  # its project is gone: so is the dialog
        self.preview_info: Any = None
        self._placeholder_o = False  # see _on_loaded
        self._header: bool | None = None  # the user's word on a CSV/TSV's first row (None: the reader's guess)
        self._waiting = False  # Import waits for the worker reading a big file
        self._loaded: Any = None  # the whole file's ExampleSet, kept while the label step waits
        self._unkept_for: tuple[str, str] | None = None  # the file and format _unkept was read for
        self._unkept: Any = None  # io.unkept_columns of a CoNLL / CoNLL-U file, read once per preview
        self._build()
        self.resize(860, 600)
        if is_read_only(session.project):  # said before a file is picked, not after its labels
            self._refuse_read_only()
            return
        if path:
            self.set_path(path)

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("importPathEdit")
        # Leaving the field (a click elsewhere) re-reads only a path that changed: not the counts made.
        self.path_edit.editingFinished.connect(
            lambda: self.set_path(self.path_edit.text()) if self.path_edit.isModified() else None)
        self.browse_button = browse = QPushButton(self.tr("&Browse…"))
        browse.setAutoDefault(False)  # Enter in the path field must not open the file chooser
        browse.setObjectName("browseButton")
        browse.clicked.connect(self._on_browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(browse)
        self.format_combo = QComboBox()
        self.format_combo.setObjectName("formatCombo")
        self.format_combo.addItem(self.tr("detect"), "auto")
        for fmt in READ_FORMATS:
            self.format_combo.addItem(fmt, fmt)
        self.format_combo.activated.connect(lambda _i: self._on_format_chosen())  # which also forgets a load
        # Whether a CSV/TSV's first row names the columns: guessed by the reader, shown, and the
        # user's to change (a header read as data would become an example and a class).
        self.header_check = QCheckBox(self.tr("First row holds the column &names"))
        self.header_check.setObjectName("headerCheck")
        self.header_check.setEnabled(False)
        self.header_check.clicked.connect(self._on_header_clicked)
        self.preset_combo = QComboBox()
        self.preset_combo.setObjectName("presetCombo")
        self.preset_combo.addItem(self.tr("none"), None)
        from bertstudio.data.glue import PRESETS

        for name, task in PRESETS.items():
            if task.kind == self.kind:  # only the presets of the project's kind (no per-kind branch)
                self.preset_combo.addItem(name, name)
        self.preset_combo.activated.connect(lambda _i: self._on_preset_chosen())
        self.target = SplitTargetBox(self.session)
        self.split_combo = self.target.split_combo
        self.split_combo.activated.connect(lambda _i: self._forget_loaded())  # the reader may use the split
        form = QFormLayout()
        form.addRow(self.tr("&File:"), file_row)
        form.labelForField(file_row).setBuddy(self.path_edit)  # a layout's label has no buddy of its own
        form.addRow(self.tr("Fo&rmat:"), self.format_combo)
        form.addRow("", self.header_check)
        form.addRow(self.tr("&GLUE preset:"), self.preset_combo)
        form.addRow(self.tr("Into &split:"), self.target)
        form.labelForField(self.target).setBuddy(self.split_combo)  # the box, not the panel around it

        self.preview_model = QStandardItemModel(self)
        self.preview_table = QTableView()
        self.preview_table.setTabKeyNavigation(False)  # Tab reaches the mapping and Import after it
        self.preview_table.setObjectName("previewTable")
        self.preview_table.setModel(self.preview_model)
        self.mapping_box = QGroupBox(self.tr("Columns (what each column of the file holds)"))
        self.mapping_box.setObjectName("mappingBox")
        mapping = QFormLayout(self.mapping_box)
        self.mapping: dict[str, QComboBox] = {}
        names = self._titles = {
            "text": self.tr("Text"), "text_pair": self.tr("Second text"), "label": self.tr("Label / score"),
            "tokens": self.tr("Tokens"), "tags": self.tr("Tags"), "context": self.tr("Context"),
            "question": self.tr("Question"), "answers": self.tr("Answers"), "id": self.tr("Id"), "title": self.tr("Title")}
        self.optional = optional_columns(self.kind)
        for column in MAPPED[self.kind]:
            combo = QComboBox()
            combo.setObjectName(f"map_{column}")
            combo.activated.connect(lambda _i: (self._forget_loaded(), self._show_unread()))
            mapping.addRow(names[column] + ("" if column in self.optional else " *"), combo)
            self.mapping[column] = combo
        self.survey = FileSurveyBox(self.session)
        self.survey.surveyed.connect(self._on_surveyed)
        self.survey.survey_failed.connect(self._on_failed)
        self._survey_timer = QTimer(self, singleShot=True, interval=150)  # coalesce quick changes of the options
        self._survey_timer.timeout.connect(self._start_survey)
        self.label_box = LabelMappingBox()
        self.label_box.hide()
        # the label step scrolls on its own: 15 new tags squeezed the preview above it to one row
        self.label_scroll = QScrollArea(objectName="labelMappingScroll", widgetResizable=True)
        self.label_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.label_scroll.setWidget(self.label_box)
        self.label_scroll.hide()
        self.label_box.changed.connect(self._on_label_choice_changed)
        self.error_label = QLabel()
        self.error_label.setObjectName("importError")
        self.error_label.setWordWrap(True)
        theme.set_tone(self.error_label, "error")
        self.status_label = QLabel()
        self.status_label.setObjectName("importStatus")
        self.unread_label = QLabel()  # the file's columns no mapping reads: an export over the file loses them
        self.unread_label.setObjectName("importUnread")
        self.unread_label.setWordWrap(True)
        self.unread_label.hide()
        self.progress = QProgressBar()
        self.progress.setObjectName("importProgress")
        self.progress.setRange(0, 0)  # busy: readers report no fraction
        self.progress.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Import"))
        self.buttons.accepted.connect(self.start_import)
        self.buttons.rejected.connect(self.reject)
        # Enter in the path field shows the preview; only a click on Import imports.
        self.path_edit.installEventFilter(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("First rows:")))
        rows = self.preview_table.verticalHeader().defaultSectionSize()
        self.preview_table.setMinimumHeight(5 * rows)  # the header and four rows, whatever sits below
        layout.addWidget(self.preview_table, 1)
        layout.addWidget(self.survey)
        layout.addWidget(self.mapping_box)
        layout.addWidget(self.unread_label)
        self.label_scroll.setMinimumHeight(4 * rows)  # the step is the task at hand: a few choices in view
        layout.addWidget(self.label_scroll, 2)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.progress)
        layout.addWidget(self.buttons)
        self._set_ok_enabled(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.path_edit and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):  # type: ignore[attr-defined]
            self.set_path(self.path_edit.text())
            return True  # not passed on: the dialog's default button would import at once
        return super().eventFilter(watched, event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # a wrapped note grew (the file's survey, a warning)
            QTimer.singleShot(0, self, self.fit_height)  # dropped with the dialog
        return super().event(event)

    def fit_height(self) -> None:
        """Grow to the height the wrapped notes need at this width, within the screen. A window's
        minimum size leaves out word-wrapped labels' heights, so a survey of two lines and a
        vocabulary warning were drawn over the preview's last row (in Chinese by 16 px)."""
        layout = self.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        need = layout.totalHeightForWidth(self.width())
        screen = self.screen()
        room = screen.availableGeometry().height() - 40 if screen is not None else need
        if self.height() < need:
            self.resize(self.width(), max(self.height(), min(need, room)))

    def _set_ok_enabled(self, on: bool) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(on)

    # -- file and preview ------------------------------------------------------------------
    def _on_browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import data"), os.path.dirname(self.path_edit.text()),
            self.tr("Data files (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;All files (*)"))
        if path:
            self.set_path(path)

    def set_path(self, path: str) -> None:
        self.path_edit.setText(path)
        self.path_edit.setModified(False)
        self.format_combo.setCurrentIndex(0)
        self._header = None
        self.refresh_preview()

    def _on_format_chosen(self) -> None:
        self._header = None
        self.refresh_preview()

    def _on_header_clicked(self, checked: bool) -> None:
        self._header = checked
        self.refresh_preview()

    def refresh_preview(self) -> None:
        """Ask the core for the first rows and a suggested mapping; errors show in the dialog."""
        from bertstudio.data.io import preview

        path = self.path_edit.text().strip()
        self._forget_loaded()
        self.error_label.clear()
        self.preview_model.clear()
        self.preview_info = None
        self._unkept_for = None  # the file may have changed: its columns are read again
        self._show_unread()
        self.header_check.setEnabled(False)
        if not path:
            self._set_ok_enabled(False)
            return
        try:
            info = preview(path, fmt=self.format_combo.currentData() or "auto", n=50, header=self._header, kind=self.kind)
        except BertStudioError as exc:
            self.show_read_error(exc.message)
            return
        except OSError as exc:
            self.show_read_error(f"{path}: {exc.strerror or exc}")
            return
        self.preview_info = info
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(info.format)))
        tabular = info.format in ("csv", "tsv")
        self.header_check.setEnabled(tabular)
        self.header_check.setVisible(tabular)  # JSON, JSONL, CoNLL and SQuAD have no header row to ask about
        self.header_check.setChecked(bool(info.has_header))
        titles = self.column_titles()
        self.preview_model.setHorizontalHeaderLabels(titles)
        for row in info.rows:
            self.preview_model.appendRow([QStandardItem(str(cell)[:200]) for cell in row])
        # One line per row, each column as wide as its text (capped), so sentences read in full.
        self.preview_table.setWordWrap(False)
        self.preview_table.resizeColumnsToContents()
        for column in range(self.preview_model.columnCount()):
            self.preview_table.setColumnWidth(column, min(self.preview_table.columnWidth(column), 520))
        refused = self.table_refused()
        for column, combo in self.mapping.items():
            combo.clear()
            if refused:
                continue  # no column of a table can be read for this kind: none is offered
            if column in self.optional:
                combo.addItem(_NONE, None)
            wanted = info.suggested_columns.get(column)
            if wanted is None and column not in self.optional:
                # The reader could not tell which column this is: ask, never guess the first one.
                combo.addItem(self.tr("— choose —"), None)
            for i, (name, title) in enumerate(zip(info.columns, titles)):
                combo.addItem(title, name if info.has_header else i)
            if wanted is not None:
                key = wanted if isinstance(wanted, str) else (len(info.columns) + wanted if wanted < 0 else wanted)
                found = combo.findData(key) if isinstance(key, str) or not info.has_header else -1
                if found < 0 and isinstance(key, int) and key < len(info.columns):
                    found = combo.findText(info.columns[key])
                combo.setCurrentIndex(max(0, found))
        preset = info.preset if info.preset and self.preset_combo.findData(info.preset) >= 0 else None
        self.preset_combo.setCurrentIndex(max(0, self.preset_combo.findData(preset)) if preset else 0)
        from bertstudio.data.glue import preset_for_path

        found_split = preset_for_path(path)
        if found_split is not None:
            self.target.set_split(found_split[1])
        self._update_mapping_enabled()
        self._show_unread()
        if refused:
            self.status_label.setText(self.table_refusal())
            self._set_ok_enabled(False)
            return
        self._survey_timer.start()
        mismatch = info.suggested_kind and info.suggested_kind != self.kind and info.format in FIXED_LAYOUT
        status = self.tr("Format: %1 · this file looks like %2 data").replace("%1", info.format).replace(
            "%2", kind_name(info.suggested_kind) if info.suggested_kind else "?")
        missing = self._missing_columns(self.load_options())
        if missing:  # said now, under the preview, not only after Import is pressed
            status += " · " + self.tr("choose the file column for: %1").replace("%1", self._column_titles(missing))
        self.status_label.setText(status)
        if info.problem:
            self.show_read_error(info.problem)
            return
        if mismatch:
            self.show_error(self.tr("This file holds %1 examples, but this project's task is %2.")
                            .replace("%1", kind_name(str(info.suggested_kind))).replace("%2", kind_name(self.kind)))
            return
        self._set_ok_enabled(True)

    def table_refused(self) -> bool:
        """True when the previewed file is a table and the project's kind fits none (tagging, QA)."""
        return (self.preview_info is not None and self.preview_info.format in TABLES
                and not get_spec(self.kind).table_format)

    def table_refusal(self) -> str:
        """The line that says what this project reads instead of a table, in the window's language."""
        text = TABLE_REFUSALS.get(self.kind)
        if text is None:
            return self.tr("A table (CSV, TSV) cannot hold this project's examples: choose another format.")
        return QCoreApplication.translate("ImportDialog", text)

    def unread_columns(self) -> list[str]:
        """The previewed file's columns that no column of the mapping reads (a CSV's id or note):
        the project does not keep them, so the person hears it before Import, not after an export."""
        info = self.preview_info
        if info is not None and info.format in ("conll", "conllu") and not self.preset_combo.currentData():
            return self._unkept_columns(info)
        if info is None or info.format in FIXED_LAYOUT or self.preset_combo.currentData() or self.table_refused():
            return []
        used = {combo.currentData() for combo in self.mapping.values()}
        return [title for i, (name, title) in enumerate(zip(info.columns, self.column_titles()))
                if (name if info.has_header else i) not in used]

    def _unkept_columns(self, info: Any) -> list[str]:
        """A CoNLL or CoNLL-U file's columns the project does not keep (io.unkept_columns: CoNLL's
        POS column, CoNLL-U's lemmas), each with a few of its values: "column 2 (e.g. NNP, VBZ, …)".
        The README promised it, and a POS column went without a word."""
        from bertstudio.data.io import unkept_columns

        if self._unkept_for != (info.path, info.format):  # read once per preview (refresh_preview forgets it)
            self._unkept_for, self._unkept = (info.path, info.format), unkept_columns(info.path, info.format)
        lost = self._unkept
        said = []
        for key in [*lost.names, *lost.positions]:
            title = key if isinstance(key, str) else self.tr("column %1").replace("%1", str(key))
            values = lost.values.get(key) or []
            if values:
                shown = ", ".join(values[:3]) + (", …" if len(values) > 3 else "")
                title = self.tr("%1 (e.g. %2)").replace("%1", title).replace("%2", shown)
            said.append(title)
        return said

    def column_titles(self) -> list[str]:
        """The previewed file's column names, or for a file without a header "column 1".. in the
        window's language (the core's English names showed in the Chinese window)."""
        info = self.preview_info
        if info is None:
            return []
        if info.has_header:
            return list(info.columns)
        return [self.tr("column %1").replace("%1", str(i + 1)) for i in range(len(info.columns))]

    def _show_unread(self) -> None:
        unread = self.unread_columns()
        self.unread_label.setText(self.tr("Not imported: %1. The project keeps only the columns above; exporting "
                                          "over this file later writes only those.").replace("%1", ", ".join(unread)))
        self.unread_label.setVisible(bool(unread))

    def _on_preset_chosen(self) -> None:
        self._forget_loaded()
        self._show_unread()
        if self.preset_combo.currentData():
            self.format_combo.setCurrentIndex(self.format_combo.findData("glue"))
        self._update_mapping_enabled()

    def _update_mapping_enabled(self) -> None:
        fixed = (self.format_combo.currentData() in FIXED_LAYOUT) or bool(self.preset_combo.currentData())
        self.mapping_box.setEnabled(not fixed and not self.table_refused())
        self.mapping_box.setTitle(self.tr("Columns (set by the format or preset)") if fixed
                                  else self.tr("Columns (what each column of the file holds)"))

    def show_read_error(self, message: str) -> None:
        """A reader's refusal (the core's words, in English: file, place, problem) under a sentence
        in the window's language, and for a file that is not UTF-8 (GBK is common for Chinese
        data) what to do about it."""
        text = self.tr("The file cannot be read: %1").replace("%1", message)
        if "not UTF-8" in message:
            text += " " + self.tr("Save it as UTF-8 (in Excel: Save As, CSV UTF-8; in Notepad: Save As, Encoding "
                                  "UTF-8) and import it again.")
        self.show_error(text)

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self._set_ok_enabled(False)

    # -- loading ---------------------------------------------------------------------------
    def load_options(self) -> dict[str, Any]:
        fmt = self.format_combo.currentData() or "auto"
        options: dict[str, Any] = {"fmt": fmt, "split": self.target.split()}
        preset = self.preset_combo.currentData()
        if preset:
            options.update(fmt="glue", glue_task=preset)
        elif fmt not in FIXED_LAYOUT:
            options["kind"] = self.kind
            options["columns"] = {c: combo.currentData() for c, combo in self.mapping.items()
                                  if combo.currentData() is not None}
            if self.preview_info is not None and fmt in ("csv", "tsv"):
                options["header"] = bool(self.preview_info.has_header)
        return options

    def _column_titles(self, columns: list[str]) -> str:
        """The mapping rows' own titles ("Second text"), not the stored column names ("text_pair")."""
        return ", ".join(self._titles.get(c, c) for c in columns)

    def _missing_columns(self, options: dict[str, Any]) -> list[str]:
        return [c for c in MAPPED[self.kind] if c not in self.optional and "columns" in options
                and c not in options["columns"]]

    def _start_survey(self) -> None:
        """Read and count the whole file with the current options, on the worker."""
        path = self.path_edit.text().strip()
        if (path and self.preview_info is not None and not self.error_label.text() and not self._waiting
                and not self.table_refused()):
            options = self.load_options()
            if not self._missing_columns(options):
                self.survey.start(path, options)

    def start_import(self) -> None:
        """Import: the rows the worker read (waiting for it on a big file), else read now; then store them."""
        path = self.path_edit.text().strip()
        if not path or self._waiting:
            return
        self.error_label.clear()
        if self._loaded is not None:  # the label step was shown: the user has chosen
            self._store(self._loaded)
            return
        if self.table_refused():  # Import is off; said again, never read into the reader's refusal
            self.show_error(self.table_refusal())
            return
        options = self.load_options()
        missing = self._missing_columns(options)
        if missing:
            self.show_error(self.tr("Choose the file column for: %1").replace("%1", self._column_titles(missing)))
            return
        ready = self.survey.result_for(path, options)
        if ready is not None:
            self._on_loaded(ready)
            return
        size = os.path.getsize(path) if os.path.exists(path) else 0
        # a survey reading this file now is waited for (with the progress bar), not raced on the GUI
        # thread: clicked while it counted, a 4 MB JSONL froze the dialog 7-16 s
        if size <= BIG_FILE and not (size > QUICK_FILE and self.survey.running_for(path, options)):
            from bertstudio.data.io import load_examples

            try:
                examples = load_examples(path, **options)
            except BertStudioError as exc:
                self.show_read_error(exc.message)
                return
            self._on_loaded(examples)
            return
        self._waiting = True
        self._set_busy(True)
        self.survey.start(path, options)  # nothing new when it is already reading with these options

    def _set_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.status_label.setText(self.tr("Reading the file…") if busy else self.status_label.text())
        self._set_ok_enabled(not busy)
        for w in (self.path_edit, self.format_combo, self.preset_combo, self.mapping_box, self.target):
            w.setEnabled(not busy)

    def is_loading(self) -> bool:
        """True while Import waits for the worker to finish reading."""
        return self._waiting

    def _on_surveyed(self, examples: Any) -> None:
        if self._waiting:
            self._on_loaded(examples)

    def _on_failed(self, message: str) -> None:
        if self._waiting:
            self._waiting = False
            self._set_busy(False)
        self.show_read_error(message)

    def _on_loaded(self, examples: Any) -> None:
        if self._waiting:
            self._waiting = False
            self._set_busy(False)
        self._loaded = examples
        if self._needs_label_step(examples):
            from bertstudio.data.labelmap import file_label_values

            # a new project's first file, its label set not typed (a tag set starts as "O"): labels come from the file
            untyped = self.session.labels() in ([], ["O"] if get_spec(self.kind).gold.per_token else [])
            fresh = untyped and not any(self.session.split_size(split) for split in SPLITS)
            # the tag set's starting "O" was no choice of the user's: a POS file without it kept an "O" class
            # (key 1 on the Label page, a class in the model) that no row has
            self._placeholder_o = fresh and self.session.labels() == ["O"]
            self.label_box.set_values(file_label_values(examples), self.session.labels(), self.kind, fresh=fresh)
            self.label_box.show()
            self.label_scroll.show()
            self.status_label.setText(self.tr("The file's labels differ from the project's: choose what each "
                                              "becomes, then Import."))
            self._on_label_choice_changed()
            return
        self._store(examples)

    def _needs_label_step(self, examples: Any) -> bool:
        """True when the file uses label values outside a (non-empty) project label set."""
        from bertstudio.data.labelmap import file_label_values

        labels = set(self.session.labels())
        return get_spec(self.kind).has_label_set and bool(labels) and any(
            value not in labels for value in file_label_values(examples))

    def _label_step(self) -> bool:
        """True while the label step is shown (isHidden, not isVisible: the dialog itself may be hidden)."""
        return not self.label_box.isHidden()

    def _on_label_choice_changed(self) -> None:
        if self._label_step() and self._loaded is not None:
            self.error_label.clear()  # a refused name's line, now answered by the new choice
            waiting = self.label_box.unresolved()
            self._set_ok_enabled(not waiting)
            # name them: with 16 labels matched, the one left to choose was below the scroll and Import grey
            self.status_label.setText(self.tr("The file's labels differ from the project's: choose what %1 "
                                              "become(s), then Import.").replace("%1", ", ".join(waiting))
                                      if waiting else self.tr("Every label of the file has a place: Import when ready."))

    def _forget_loaded(self) -> None:
        """The file, format, preset or columns changed: the loaded rows and the label step are stale."""
        if self._label_step():  # it may have held Import back until every value was chosen
            self._set_ok_enabled(self.preview_info is not None)
        self._loaded = None
        self.label_box.hide()
        self.label_scroll.hide()
        self.survey.stop()
        self._survey_timer.start()  # count again with the new options

    def _store(self, examples: Any) -> None:
        """Hand the rows to the project: Replace is confirmed first; errors stay in the dialog."""
        mapping = self.label_box.mapping() if self._label_step() else None
        if self._label_step() and self.label_box.unresolved():
            self.show_error(self.tr("Choose what these labels become: %1").replace(
                "%1", ", ".join(self.label_box.unresolved())))
            return
        examples = self.survey.sample(examples)  # "import only N first / random rows"
        split, replace = self.target.split(), self.target.replace()
        if replace and not self.target.confirm_replace(len(examples)):
            return  # the dialog stays open, nothing changed
        if not replace and self.session.split_size(split):
            from bertstudio.data.repeats import find_repeats, without

            repeats = find_repeats(self.session.examples(split), examples, mapping)
            if len(repeats):
                choice = self.confirm_repeats(repeats, split, len(examples))
                if choice is None:
                    return  # the dialog stays open, nothing changed
                if choice == "skip":
                    if len(repeats) == len(examples):
                        self.show_error(self.tr("Every row of the file is already in %1: nothing to import.")
                                        .replace("%1", split_name(split)))
                        return
                    examples = without(examples, repeats.rows)
        try:
            self.session.import_examples(examples, split, replace=replace, label_map=mapping,
                                         add_labels=self._label_step() and self.label_box.add_labels())
        except BertStudioError as exc:
            if exc.facts.get("refusal") == "read_only":
                self._refuse_read_only()
            else:
                # a name the label set refuses (look-alike, spaces, too long): said as the label set dialog says it,
                # and the label step's "Every label of the file has a place: Import when ready." beside it goes
                refusal = label_refusal(exc)
                if refusal and self._label_step():
                    self.status_label.clear()
                self.show_error(refusal or project_refusal(exc) or exc.message)
            return
        if self._placeholder_o and "O" not in (mapping or {}).values():
            with contextlib.suppress(BertStudioError):  # a row that uses it keeps it
                self.session.project.remove_label("O")
        self.imported.emit(split, len(examples))
        self.accept()

    def _refuse_read_only(self) -> None:
        """Nothing can be imported into a read-only project: the reason the window says, every choice greyed
        (the label step shown with "Import when ready" under a greyed Import was half a dialog), Cancel left."""
        self.survey.stop()
        self._survey_timer.stop()
        self._loaded = None
        self.status_label.clear()
        for w in (self.path_edit, self.browse_button, self.format_combo, self.preset_combo, self.mapping_box,
                  self.target, self.label_box):
            w.setEnabled(False)
        self.show_error(read_only_text())

    def confirm_repeats(self, repeats: Any, split: str, rows: int) -> str | None:
        """Ask what to do with file rows that repeat examples ``split`` already has: ``"skip"``
        (the default: the project's rows and labels stay as they are), ``"all"`` (add the copies
        as new rows), or None (Cancel: nothing imported)."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Rows already in the project"),
                          self.tr("%1 of the file's %2 rows repeat examples already in %3.")
                          .replace("%1", f"{len(repeats):,}").replace("%2", f"{rows:,}").replace("%3", split_name(split)),
                          QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("repeatsConfirm")
        informative = self.tr("Skipping them keeps the project's rows and labels as they are; importing all adds "
                              "the copies as new rows.")
        if repeats.relabelled:
            informative = self.tr("%1 of them carry another label than the project's copy. ").replace(
                "%1", f"{repeats.relabelled:,}") + informative
        box.setInformativeText(informative)
        skip = box.addButton(self.tr("Skip the repeats"), QMessageBox.ButtonRole.AcceptRole)
        skip.setObjectName("repeatsSkipButton")
        every = box.addButton(self.tr("Import all"), QMessageBox.ButtonRole.DestructiveRole)
        every.setObjectName("repeatsAllButton")
        box.setDefaultButton(skip)
        box.exec()
        return "skip" if box.clickedButton() is skip else "all" if box.clickedButton() is every else None

    def done(self, result: int) -> None:
        """Closing (Import or Cancel) drops a read under way; it ends on its own, unused."""
        self._survey_timer.stop()
        self.survey.stop()
        self._waiting = False
        self._loaded = None  # the whole file read, no longer wanted
        super().done(result)
