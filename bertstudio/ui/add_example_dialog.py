"""Type new examples into a project: the start of a data set labelled in the app.

The form holds what the kind's spec says a person types (a sentence; a pair; a sentence
to tag, split into words at whitespace; a context and a question). A kind with one label
per example also gets a label box, set while typing with Alt+1 … Alt+9 (bare digits are
text here) or by choosing in the box; a score kind gets a score box. "Add" stores the
example in the split the user picks (train unless they choose another) and clears the
form for the next one; what is left unlabelled is labelled on the Label page, as for
imported rows. The rows go through the project's own import path
(``Project.import_examples(..., replace=False)``), so they are saved at once.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton,
    QVBoxLayout, QWidget,
)

from bertstudio.data.examples import from_records
from bertstudio.data.formats.common import check_length
from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError, DataError
from bertstudio.ui import theme
from bertstudio.ui.editors.classify import RegressionEditor, ScoreBox, project_score_scale
from bertstudio.ui.editors.label_set import swatch
from bertstudio.ui.run_words import project_refusal
from bertstudio.ui.session import split_name

SPLITS = ("train", "dev", "test")

# Columns kept between examples (several questions about one context) come first in the form.
_SHARED = frozenset({"context"})
_ONE_LINE = frozenset({"question"})


def fields_for(kind: str) -> list[tuple[str, bool]]:
    """(column, multi-line) of what a person types for a ``kind`` example: its spec's inputs."""
    spec = get_spec(kind)
    columns = sorted(spec.inputs + spec.optional_inputs, key=lambda c: c not in _SHARED)
    return [(c, c not in _ONE_LINE and not spec.is_list_column(c)) for c in columns]


def record_for(kind: str, values: dict[str, str], gold: Any = None) -> dict[str, Any]:
    """The record of ``kind`` for the typed ``values`` and ``gold`` (None: unlabelled); DataError
    names an empty field.

    A list column (tokens) is typed as words split at whitespace; an ``id`` column gets a
    fresh unique id."""
    spec = get_spec(kind)
    for key in spec.inputs:
        if not values.get(key, "").strip():
            raise DataError(f"the {key.replace('_', ' ')} is empty", where=key, expected="some text")
    record: dict[str, Any] = {}
    for key, _multi in fields_for(kind):
        # the readers' limit: a longer text went in here, and the project's export then did not import back
        text = check_length(values.get(key, "").strip(), f"the {key.replace('_', ' ')}", None, key)
        record[key] = text.split() if spec.is_list_column(key) else text
    if "id" in spec.columns:
        record["id"] = f"user-{uuid.uuid4().hex[:12]}"
    record[spec.gold_column] = gold
    return spec.record(record)


def add_examples(project: Any, split: str, records: list[dict[str, Any]]) -> int:
    """Append ``records`` (unlabelled) to ``split``; returns the row index of the first one."""
    start = len(project.examples(split)) if split in project.split_names else 0
    project.import_examples(from_records(project.kind, records, labels=list(project.labels)), split, replace=False)
    return start


_BREAKS = ("\n", "\u2029", "\r", "\r\n")  # what a block's user state says started it (-1: typed, "\n")
_BREAK = re.compile("(\r\n|[\n\r\u2029])")


class ExactTextEdit(QPlainTextEdit):
    """A text box whose :meth:`exact_text` is what was typed or pasted: ``toPlainText`` turns
    no-break spaces into spaces and line/paragraph separators into LF (as Qt documents), so a
    pasted French 'Prix\xa0: 10\u202f€' was stored otherwise than the same row imported from a
    file. Blocks keep their text as is; the break that started each pasted block is kept in its
    user state, since the document makes every kind of line end one block break."""

    def insertFromMimeData(self, source: QMimeData) -> None:
        if not source.hasText():
            super().insertFromMimeData(source)
            return
        cursor = self.textCursor()
        cursor.beginEditBlock()
        for part in _BREAK.split(source.text()):
            if part in _BREAKS:
                cursor.insertBlock()
                cursor.block().setUserState(_BREAKS.index(part))
            elif part:
                cursor.insertText(part)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def exact_text(self) -> str:
        block, parts = self.document().begin(), []
        while block.isValid():
            if parts:
                parts.append(_BREAKS[block.userState()] if 0 <= block.userState() < len(_BREAKS) else "\n")
            parts.append(block.text())
            block = block.next()
        return "".join(parts)


class AddExampleDialog(QDialog):
    """Add examples one after another; :attr:`added` (split, row) fires for each."""

    added = Signal(str, int)

    def __init__(self, session: Any, split: str = "train", parent: QWidget | None = None) -> None:
        """``split`` is the one pre-chosen in the split box (train unless the caller knows better)."""
        super().__init__(parent)
        self.setObjectName("addExampleDialog")
        self.setWindowTitle(self.tr("Add examples"))
        self.session = session
        self.kind = session.kind
        self.count = 0
        fields = fields_for(self.kind)
        alone = len(fields) == 1
        titles = {
            "text": self.tr("&Sentence") if alone else self.tr("&Text A (premise)"),
            "text_pair": self.tr("Text &B (hypothesis)"),
            "tokens": self.tr("&Sentence (words are split at spaces)"),
            "context": self.tr("Conte&xt"),
            "question": self.tr("&Question"),
        }
        self.split_combo = QComboBox(objectName="addSplitCombo")
        for name in SPLITS:
            self.split_combo.addItem(split_name(name), name)
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(split)))
        form = QFormLayout()
        form.addRow(self.tr("Into s&plit"), self.split_combo)
        self.editors: dict[str, ExactTextEdit | QLineEdit] = {}
        for key, multi in fields:
            editor: ExactTextEdit | QLineEdit = ExactTextEdit() if multi else QLineEdit()
            editor.setObjectName(f"add_{key}Edit")
            if isinstance(editor, QPlainTextEdit):
                editor.setTabChangesFocus(True)
                editor.setMinimumHeight(90 if key == "context" else 60)
            self.editors[key] = editor
            form.addRow(titles.get(key, key), editor)
        self.label_combo: QComboBox | None = None
        self.score_spin: ScoreBox | None = None
        gold = get_spec(self.kind).gold
        if gold.classes and self.session.labels():
            self._add_label_box(form)
        elif gold.numeric:
            self._add_score_box(form)
        self.status = QLabel(objectName="addExampleStatus", wordWrap=True)
        self.add_button = QPushButton(self.tr("&Add"), objectName="addExampleButton")
        self.add_button.setToolTip(self.tr("Store this example (with the label chosen, if any) and clear the form for the next one"))
        self.add_button.clicked.connect(self.add)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        # Default only once in the dialog: set before, the button box made Close the default, and
        # Enter in the one-line question closed the dialog instead of adding
        self.add_button.setDefault(True)
        self.resize(560, 320)
        # Ctrl+Return adds from any field: in a multi-line box a plain Return is a line break (and
        # the default button never got it), so only Tab, Tab, Space added an example
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            QShortcut(QKeySequence(Qt.Modifier.CTRL | key), self,
                      context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.add)
        # the first keys typed go into the first field: the split box had the focus, its type-ahead
        # picked "test" from the sentence's letters and the example went there
        next(iter(self.editors.values())).setFocus()

    def _add_label_box(self, form: QFormLayout) -> None:
        """The label box and its Alt+digit keys (bare digits must stay text in the fields)."""
        combo = self.label_combo = QComboBox(objectName="addLabelCombo")
        combo.addItem(self.tr("none (label it later)"), None)
        colours = self.session.label_colours()
        for i, name in enumerate(self.session.labels()):
            text = f"{name}   (Alt+{i + 1})" if i < 9 else name
            combo.addItem(swatch(colours.get(name, "#999999")), text, name)
        form.addRow(self.tr("&Label"), combo)
        hint = QLabel(self.tr("While typing, Alt+1 … Alt+9 set the label (Alt+0: none); any label can be chosen "
                              "in the box, where typing its first letters finds it."),
                      objectName="addLabelHint", wordWrap=True)
        hint.setEnabled(False)
        form.addRow("", hint)
        for number in range(10):
            shortcut = QShortcut(QKeySequence(Qt.Modifier.ALT | Qt.Key(Qt.Key.Key_0 + number)), self,
                                 context=Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(lambda n=number: n < combo.count() and combo.setCurrentIndex(n))

    def _add_score_box(self, form: QFormLayout) -> None:
        """The Label page's score box (ui/editors/classify.ScoreBox): three decimals, a decimal comma
        read as one, any score the project's scale may take. A box of -0.1..5 at one decimal kept '.5'
        of a typed 7.5, '1' of 10 and '-' of -1, and stored 0.5, 1.0 and no score without a word."""
        low, high, self._preset = project_score_scale(self.session)
        box = self.score_spin = ScoreBox(low, high)
        box.setObjectName("addScoreSpin")
        box.setDecimals(RegressionEditor.TYPED_DECIMALS)
        box.setSpecialValueText(self.tr("none (score it later)"))
        box.setValue(box.minimum())
        box.setToolTip(self.tr("The score, on this project's scale {low:g} to {high:g}").format(low=low, high=high))
        form.addRow(self.tr("Sco&re"), box)

    def gold(self) -> Any:
        """The label or score chosen in the form (None: unlabelled). A score outside a benchmark's
        scale (STS-B's 0-5) is refused, as the Label page refuses it."""
        if self.label_combo is not None:
            return self.label_combo.currentData()
        if self.score_spin is None:
            return None
        self.score_spin.interpretText()  # typed without leaving the box
        value = self.score_spin.value()
        if value == self.score_spin.minimum():
            return None
        low, high = self.score_spin.scale
        if self._preset is not None and not low <= value <= high:
            raise DataError(f"{value:g} is outside the {self._preset} scale {low:g} to {high:g}", where="score")
        return round(value, RegressionEditor.TYPED_DECIMALS)

    def values(self) -> dict[str, str]:
        return {key: (e.exact_text() if isinstance(e, ExactTextEdit) else e.text()) for key, e in self.editors.items()}

    def add(self) -> bool:
        """Store the typed example; on a problem say what is missing and keep the text."""
        split = self.split_combo.currentData()
        try:
            gold = self.gold()
            row = add_examples(self.session.project, split, [record_for(self.kind, self.values(), gold)])
        except (BertStudioError, OSError) as exc:
            theme.set_tone(self.status, "error")
            # a read-only project: the window's line, not the core's English with the folder's path
            said = project_refusal(exc) if isinstance(exc, BertStudioError) else None
            self.status.setText(self.tr("Not added: {m}").format(m=said or exc))
            return False
        self.count += 1
        theme.set_tone(self.status, None)
        if gold is None:
            done = self.tr("Added to {s} as row {r} ({n} this time). Label it on the Label page.")
        else:
            done = self.tr("Added to {s} as row {r} ({n} this time), labelled {g}.")
        self.status.setText(done.format(s=split_name(split), r=row + 1, n=self.count, g=gold))
        for key, editor in self.editors.items():
            if key not in _SHARED:  # several questions per context: the context stays
                editor.clear()
        if self.label_combo is not None:  # each example's label is chosen afresh
            self.label_combo.setCurrentIndex(0)
        if self.score_spin is not None:
            self.score_spin.setValue(self.score_spin.minimum())
        next(e for k, e in self.editors.items() if k not in _SHARED).setFocus()
        self.added.emit(split, row)
        return True
