"""Extractive QA: select the answer in the context with the mouse.

The context is a read-only text view; releasing the mouse over a selection
(or pressing Enter) records ``{"text": [selected], "answer_start": [start]}``,
trimmed of whitespace and format characters at both ends (a selection of them alone is refused), then clears the
selection (the answer stays shaded), with the start as a Python string index into the context, so
``context[start:start + len(text)] == text`` exactly (Qt counts UTF-16 units and
makes a CRLF one break; ``text_positions`` converts). The questions that share the context are listed and
new ones can be added; "no answer" stores empty lists (SQuAD v2). A selection
belongs to the question it was made for: moving to another question (or adding
one) clears it, and Enter in the new-question box only adds the question.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow.compute as pc
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpacerItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from bertstudio.tasks.qa import visible_span
from bertstudio.ui.editors.base import KindEditor
from bertstudio.ui.editors.flow_layout import FlowLayout
from bertstudio.ui.editors.text_positions import document_positions, text_index
from bertstudio.ui.session import ProjectSession
from bertstudio.ui.theme import text_colour, text_points


class ContextView(QPlainTextEdit):
    """The read-only context; says when a mouse selection is finished (button released)."""

    selection_finished = Signal()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        # a press inside a selection not yet used (made by keyboard) began Qt's text drag, and the
        # drag chose nothing: a plain press always begins a new selection; Shift+press extends it
        if (event.button() == Qt.MouseButton.LeftButton and self.textCursor().hasSelection()
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            cursor = self.textCursor()
            cursor.clearSelection()
            self.setTextCursor(cursor)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and self.textCursor().hasSelection():
            self.selection_finished.emit()


# navigation keys a QLineEdit leaves to its parent: in the new-question field they do nothing
_FIELD_IGNORES = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown})


class QAEditor(KindEditor):
    kind = "qa"

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("qaEditor")
        self.context = ""
        self._positions = [0]  # the document position of each string index of the context
        self._shown: tuple[str, int] | None = None  # the (split, row) the context selection was made on
        self.question_list = QListWidget()
        self.question_list.setObjectName("questionList")
        self.question_list.setMaximumHeight(140)
        self.question_list.itemActivated.connect(self._on_question_chosen)
        self.question_list.itemClicked.connect(self._on_question_chosen)
        self.new_question = QLineEdit()
        self.new_question.setObjectName("newQuestionEdit")
        self.new_question.setPlaceholderText(self.tr("Type a new question about this context"))
        self.add_button = QPushButton(self.tr("Add &question"))
        self.add_button.setObjectName("addQuestionButton")
        self.add_button.clicked.connect(self.add_question)
        # Enter adds the question and stops there: QLineEdit passes Return on to its parent,
        # where it would mean "use the selection as the answer" for the question just added.
        self.new_question.installEventFilter(self)
        self.question_label = QLabel()
        self.question_label.setObjectName("questionLabel")
        self.question_label.setWordWrap(True)
        font = QFont(self.question_label.font())
        font.setPointSize(text_points(15))
        font.setBold(True)
        self.question_label.setFont(font)
        self.context_view = ContextView()
        self.context_view.setObjectName("contextView")
        self.context_view.setReadOnly(True)
        self.context_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                  | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        font = QFont(self.context_view.font())
        font.setPointSize(text_points(13))
        self.context_view.setFont(font)
        self.context_view.selection_finished.connect(self._on_selection_finished)
        self.answer_label = QLabel()
        self.answer_label.setObjectName("answerLabel")
        self.answer_label.setWordWrap(True)
        self.no_answer_box = QCheckBox(self.tr("&No answer in this context (SQuAD v2)"))
        self.no_answer_box.setObjectName("noAnswerBox")
        self.no_answer_box.clicked.connect(self._on_no_answer_clicked)
        self.use_button = QPushButton(self.tr("&Use selection as answer (Enter)"))
        self.use_button.setObjectName("useSelectionButton")
        self.use_button.clicked.connect(self.answer_from_selection)
        adder = QHBoxLayout()
        adder.addWidget(self.new_question, 1)
        adder.addWidget(self.add_button)
        # the answer has a line of its own: beside the check box and the button it had what they left,
        # ~70 px at 1280 wide, one word per line, and squeezed the context into a scroll bar
        # and the button wraps under the check box when both do not fit (at an 18-pt font they asked for
        # 897 px, the window's narrowest width for every kind)
        answer_row = FlowLayout()
        answer_row.addWidget(self.no_answer_box)
        answer_row.addItem(QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum))
        answer_row.addWidget(self.use_button)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Questions about this context")))
        layout.addWidget(self.question_list)
        layout.addLayout(adder)
        layout.addWidget(self.question_label)
        layout.addWidget(self.context_view, 1)
        layout.addWidget(self.answer_label)
        layout.addLayout(answer_row)

    # -- showing -------------------------------------------------------------------------
    def show_row(self, values: dict[str, Any]) -> None:
        context = values.get("context") or ""
        if context != self.context:
            self.context = context
            self._positions = document_positions(context)
            self.context_view.setPlainText(context)
        if self._shown != (self.split, self.row):
            self._shown = (self.split, self.row)
            cursor = self.context_view.textCursor()
            cursor.clearSelection()
            self.context_view.setTextCursor(cursor)
        self._fill_questions()
        self.question_label.setText(values.get("question") or "")
        answers = values.get("answers")
        self.no_answer_box.setChecked(answers is not None and not answers.get("text"))
        if answers is None:
            self.answer_label.setText(self.tr("(no answer chosen yet: select it in the context)"))
        elif not answers.get("text"):
            self.answer_label.setText(self.tr("Answer: none"))
        else:
            self.answer_label.setText(self.tr("Answer: %1 (character %2)")
                                      .replace("%1", " | ".join(dict.fromkeys(answers["text"])))
                                      .replace("%2", str(answers["answer_start"][0])))
        self._mark(answers)

    def _mark(self, answers: dict[str, Any] | None) -> None:
        marks = []
        for text, start in zip((answers or {}).get("text") or [], (answers or {}).get("answer_start") or []):
            cursor = QTextCursor(self.context_view.document())
            if not 0 <= start <= start + len(text) < len(self._positions):
                continue  # an answer past the context's end (checked on import; nothing to draw)
            cursor.setPosition(self._positions[start])
            cursor.setPosition(self._positions[start + len(text)], QTextCursor.MoveMode.KeepAnchor)
            mark = QTextEdit.ExtraSelection()
            mark.cursor = cursor
            fmt = QTextCharFormat()
            background = QColor("#59a14f").lighter(150)
            fmt.setBackground(background)
            fmt.setForeground(QColor(text_colour(background.name())))  # a dark theme's white text: 1.1-1.4:1
            mark.format = fmt
            marks.append(mark)
        self.context_view.setExtraSelections(marks)

    def sibling_rows(self) -> list[int]:
        """Rows of this split whose context is the current one (vectorised over the column)."""
        ex = self.session.examples(self.split)
        if ex is None or not self.context:
            return []
        column = ex.dataset.with_format("arrow")["context"]
        return np.flatnonzero(pc.equal(column, self.context).to_numpy(zero_copy_only=False)).tolist()

    def _fill_questions(self) -> None:
        self.question_list.blockSignals(True)
        self.question_list.clear()
        for row in self.sibling_rows():
            values = self.session.row(self.split, row)
            mark = "✓ " if values.get("answers") is not None else "· "
            item = QListWidgetItem(mark + (values.get("question") or ""))
            item.setData(Qt.ItemDataRole.UserRole, row)
            self.question_list.addItem(item)
            if row == self.row:
                self.question_list.setCurrentItem(item)
        self.question_list.blockSignals(False)

    def _on_question_chosen(self, item: QListWidgetItem) -> None:
        self.go_to(int(item.data(Qt.ItemDataRole.UserRole)))
        self.setFocus()

    # -- edits -------------------------------------------------------------------------------
    def set_answer(self, start: int, end: int) -> None:
        """Record context[start:end] (Python indices) as the answer of the current question, trimmed
        of whitespace and zero-width format characters at both ends (``visible_span``): a word selected with Ctrl+Shift+Right keeps its trailing space,
        and a selection of spaces alone was stored as an answer no model can give (its tokens map
        to an inverted span, and SQuAD's normalisation makes it "")."""
        if self.row < 0 or start >= end:
            return
        first, last = visible_span(self.context, start, end)
        if first >= last:
            if self.context[start:end].isspace():
                self.message_shown.emit(self.tr("The selection holds only spaces: select the words of the answer."))
            else:
                self.message_shown.emit(self.tr("The selection holds no visible character: "
                                                "select the words of the answer."))
            return
        start, text = first, self.context[first:last]
        self.set_gold({"text": [text], "answer_start": [start]},
                      self.tr("Answer row %1 with '%2'").replace("%1", str(self.row + 1)).replace("%2", text[:40]))

    def answer_from_selection(self) -> bool:
        cursor = self.context_view.textCursor()
        if not cursor.hasSelection():
            return False
        start = text_index(self._positions, cursor.selectionStart())
        end = text_index(self._positions, cursor.selectionEnd())
        self.set_answer(start, end)
        # The selection has done its work (the answer is shaded by its ExtraSelection): left in the
        # read-only view, a press inside it starts Qt's text drag, so re-dragging from the same
        # start to fix the answer's end did nothing.
        cursor = self.context_view.textCursor()
        cursor.clearSelection()
        self.context_view.setTextCursor(cursor)
        return True

    def _on_selection_finished(self) -> None:
        self.answer_from_selection()
        self.setFocus()  # keys (arrows, S, N) go back to the editor

    def _on_no_answer_clicked(self, checked: bool) -> None:
        if self.row < 0:
            return
        if checked:
            text = self.tr("Mark row %1 unanswerable").replace("%1", str(self.row + 1))
            self.set_gold({"text": [], "answer_start": []}, text)
        else:
            self.set_gold(None, self.tr("Clear the answer of row %1").replace("%1", str(self.row + 1)))

    def add_question(self) -> None:
        question = self.new_question.text().strip()
        if not question or not self.context or self.row < 0:
            return
        from bertstudio.data.examples import from_records

        values = self.session.row(self.split, self.row)
        n = self.split_length()
        record = {"id": f"{values.get('id') or 'q'}-added-{n}", "title": values.get("title") or "",
                  "context": self.context, "question": question, "answers": None}
        project = self.session.project
        project.import_examples(from_records("qa", [record], labels=[]), self.split, replace=False)
        self.new_question.clear()
        self.go_to(n)

    # -- keys and mouse ----------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.new_question and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.add_question()
                return True
            if event.key() in _FIELD_IGNORES or event.key() in (Qt.Key.Key_Home, Qt.Key.Key_End) \
                    and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                # the line edit ignores these, so they reached keyPressEvent and changed the example
                # under the typed question, which Enter then added to the other context
                return True
        return super().eventFilter(watched, event)

    def text_views(self) -> list[QAbstractScrollArea]:
        return [self.context_view]

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.answer_from_selection()
        elif key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            if self.row >= 0 and self.session.gold(self.split, self.row) is not None:
                self.set_gold(None, self.tr("Clear the answer of row %1").replace("%1", str(self.row + 1)))
        elif key == Qt.Key.Key_N:
            self.no_answer_box.click()
        elif not self.handle_navigation(event, arrows=False):
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self.step(1 if key == Qt.Key.Key_Down else -1)
            else:
                super().keyPressEvent(event)
