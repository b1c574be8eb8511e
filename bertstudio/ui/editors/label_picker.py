"""Reaching every label from the keyboard: number keys for the first nine, a type-to-filter
picker for all of them (as doccano and Label Studio offer), and the key each label shows.

Keys 1-9 apply the first nine labels. Any other printable key that is not one of the
editor's own command letters (S skips) opens the picker with that character typed; "/"
opens it empty. The picker lists the labels whose names start with (then contain) what
was typed, best first; Enter applies the highlighted one, Esc closes it. So every label
has a short typed code, the shortest prefix that puts it first ("au" then Enter for AUX
in the UPOS set); the legend shows that code for labels past the ninth. A code whose
first character is a command letter, a digit or "/" starts with "/" ("/sc" for SCONJ, "//" for "/slash").

A label can be pre-selected when the picker opens (today: the example's current label;
later a model's suggestion), so that Enter accepts it with one key.

The ranking and the codes are plain functions (no Qt), so what the legend promises and
what the picker does cannot drift apart.
"""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from bertstudio.ui.editors.label_set import swatch

OPEN_KEY = "/"
ENTER = "↵"
DIGITS = 9  # keys 1-9


def _fold(text: str) -> str:
    """``text`` as the picker compares it: case-folded, in NFC (a label name stored in NFD is
    found by the NFC a keyboard types)."""
    return unicodedata.normalize("NFC", text.casefold())


def rank(names: list[str], typed: str) -> list[str]:
    """Labels matching ``typed`` (case-insensitive), best first: the exact name, then names
    starting with it, then names containing it; label-set order within each group."""
    needle = _fold(typed)
    if not needle:
        return list(names)
    folded = [_fold(n) for n in names]
    exact = [n for n, f in zip(names, folded) if f == needle]
    prefix = [n for n, f in zip(names, folded) if f != needle and f.startswith(needle)]
    inner = [n for n, f in zip(names, folded) if needle in f and not f.startswith(needle)]
    return exact + prefix + inner


def opens_picker(text: str, command_letters: frozenset[str]) -> bool:
    """True for a typed character that opens the picker with itself as the filter."""
    return (len(text) == 1 and text.isprintable() and not text.isspace() and not text.isdigit()
            and text.casefold() not in command_letters)


class _Tops:
    """What :func:`rank` puts first for each prefix of the names, built once in one pass
    (asking ``rank`` for every prefix of every name was quadratic: a project of 20,000 labels
    did not open in minutes)."""

    def __init__(self, names: list[str]) -> None:
        self.exact: dict[str, str] = {}
        self.prefix: dict[str, str] = {}
        for name in names:
            folded = _fold(name)
            self.exact.setdefault(folded, name)
            for end in range(1, len(folded) + 1):
                self.prefix.setdefault(folded[:end], name)

    def top(self, typed: str) -> str | None:
        """``rank(names, typed)[0]`` for a ``typed`` that is a prefix of some name."""
        return self.exact.get(typed, self.prefix.get(typed))


def typed_code(names: list[str], name: str, command_letters: frozenset[str], tops: _Tops | None = None) -> str:
    """The keys that apply ``name`` through the picker (Enter not included)."""
    tops = tops or _Tops(names)
    folded = _fold(name)
    code = folded
    for end in range(1, len(folded) + 1):
        if tops.top(folded[:end]) == name:
            code = folded[:end]
            break
    # "/" opens the picker empty, so a name starting with "/" is typed after it ("//" for "/slash")
    starts_itself = code and code[0] != OPEN_KEY and opens_picker(code[0], command_letters)
    return code if starts_itself else OPEN_KEY + code


def key_texts(names: list[str], command_letters: frozenset[str]) -> list[str]:
    """What the legend shows as each label's key: its number, or its picker code and Enter."""
    tops = _Tops(names) if len(names) > DIGITS else None
    return [str(i + 1) if i < DIGITS else typed_code(names, name, command_letters, tops) + ENTER
            for i, name in enumerate(names)]


class LabelPicker(QFrame):
    """A filter box over the label list, floating inside its editor above ``anchor``.

    ``chosen(name)`` when the user picks a label; ``closed(refocus)`` when it goes away
    (refocus is False when the user clicked elsewhere, so the editor does not take the
    focus back from where the click put it).
    """

    chosen = Signal(str)
    closed = Signal(bool)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("labelPicker")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.filter_edit = QLineEdit(objectName="labelPickerFilter")
        self.filter_edit.setPlaceholderText(self.tr("Type part of a label's name"))
        self.filter_edit.installEventFilter(self)
        self.filter_edit.textChanged.connect(self._fill)
        self.list = QListWidget(objectName="labelPickerList")
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the filter
        self.list.itemClicked.connect(lambda item: self._choose(str(item.data(Qt.ItemDataRole.UserRole))))
        self.hint = QLabel(self.tr("↑ ↓ choose · Enter applies · Esc closes"), objectName="labelPickerHint")
        self.hint.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.list)
        layout.addWidget(self.hint)
        self._names: list[str] = []
        self._keys: dict[str, str] = {}
        self._colours: dict[str, str] = {}
        self._preselect: str | None = None
        self.hide()

    def popup(self, names: list[str], colours: dict[str, str], keys: list[str], text: str = "",
              preselect: str | None = None, anchor: QWidget | None = None) -> None:
        """Show the labels ``names`` filtered by ``text``; ``preselect`` is highlighted while it matches."""
        self._names, self._colours, self._preselect = list(names), dict(colours), preselect
        self._keys = dict(zip(names, keys))
        self.filter_edit.blockSignals(True)
        self.filter_edit.setText(text)
        self.filter_edit.blockSignals(False)
        self._fill(text)
        self._place(anchor)
        self.show()
        self.raise_()
        self.filter_edit.setFocus()

    def matches(self) -> list[str]:
        """The labels listed, best first."""
        return [str(self.list.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(self.list.count())]

    def current(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _fill(self, text: str) -> None:
        self.list.clear()
        ranked = rank(self._names, text)
        for name in ranked:
            item = QListWidgetItem(swatch(self._colours.get(name, "#999999")), f"{name}    {self._keys.get(name, '')}")
            item.setData(Qt.ItemDataRole.UserRole, name)
            self.list.addItem(item)
        if ranked:
            pick = self._preselect if self._preselect in ranked and not text else ranked[0]
            self.list.setCurrentRow(ranked.index(pick))

    def _place(self, anchor: QWidget | None) -> None:
        parent = self.parentWidget()
        rows = min(max(self.list.count(), 1), 10)
        self.list.setFixedHeight(rows * max(self.list.sizeHintForRow(0), 18) + 2 * self.list.frameWidth())
        width = min(parent.width() - 8, max(280, self.sizeHint().width()))
        self.resize(width, self.sizeHint().height())
        if anchor is not None and anchor.isVisible():
            corner = anchor.mapTo(parent, QPoint(0, 0))
            x, y = corner.x(), corner.y() - self.height() - 4
        else:
            x, y = 4, parent.height() - self.height() - 4
        self.move(max(4, min(x, parent.width() - width - 4)), max(4, y))

    def _choose(self, name: str) -> None:
        self._close(refocus=True)
        self.chosen.emit(name)

    def _close(self, *, refocus: bool) -> None:
        if self.isVisible():
            self.hide()
            self.closed.emit(refocus)

    def _step(self, delta: int) -> None:
        if self.list.count():
            self.list.setCurrentRow(max(0, min(self.list.count() - 1, self.list.currentRow() + delta)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.filter_edit and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                current = self.current()
                if current is not None:
                    self._choose(current)
                return True
            if key == Qt.Key.Key_Escape:
                self._close(refocus=True)
                return True
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 5, Qt.Key.Key_PageUp: -5}
            if key in steps:
                self._step(steps[Qt.Key(key)])
                return True
            if key == Qt.Key.Key_Backspace and not self.filter_edit.text():
                self._close(refocus=True)  # backspacing past the first letter: back to the editor
                return True
        elif watched is self.filter_edit and event.type() == QEvent.Type.FocusOut:
            self._close(refocus=False)
        return super().eventFilter(watched, event)
