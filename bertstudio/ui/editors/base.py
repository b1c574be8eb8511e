"""What every per-kind labelling editor shares: the session, the example shown, navigation.

An editor shows one example (``split``, ``row``) and turns keys into gold edits
through ``session.apply_gold`` (one undoable command each). It follows
``session.current_example_changed`` and redraws on ``gold_changed`` for its row.

An editor whose keys apply names from a list (labels, tag types) returns them from
:meth:`KindEditor.choices` and applies one in :meth:`KindEditor.apply_choice`; the base
class then gives it keys 1-9, the type-to-filter :class:`LabelPicker` for every
choice, and :meth:`KindEditor.choice_keys` for its legend.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from bertstudio.errors import BertStudioError
from bertstudio.ui.editors.label_picker import OPEN_KEY, LabelPicker, key_texts, opens_picker
from bertstudio.ui.session import ProjectSession, split_name

NUMBER_KEYS: dict[int, int] = {getattr(Qt.Key, f"Key_{i}"): i for i in range(10)}
EVALUATION_SPLITS = frozenset({"dev", "test"})  # runs are scored against their gold: replacing it is said


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # values that do not compare plainly: taken as different
        return False


def _shown(value: Any) -> str | None:
    """A gold value in a one-line note: a label or a score as it is, (none) for no gold; None for a value
    a line cannot show (a sentence's tags, an answer)."""
    if value is None:
        return QCoreApplication.translate("KindEditor", "(none)")
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return f"{value:g}"
    return None


FOCUS_FRAME_WIDTH = 3  # px: inside the editor's layout margin (about 9 px), so no child covers it


class KindEditor(QWidget):
    """Base class; subclasses implement ``show_row`` and their own keys.

    ``next_hook(skipping)``, set by the Label page while the labelling assistant picks the
    Next order, moves to the next item and returns True (False: the editor's own rule, the
    next row or the next unlabelled one). Editors with suggestions implement
    :meth:`show_suggestion` and :meth:`accept_suggestion` (Enter).
    """

    kind: str = ""
    command_letters: frozenset[str] = frozenset("s")  # S skips; these letters never open the picker
    message_shown = Signal(str)  # a short note for the user (refused edit, hint)
    focus_changed = Signal(bool)  # the editor took (True) or lost the keys

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.split = session.current_split
        self.row = -1
        self.next_hook: Callable[[bool], bool] | None = None
        # set by the Label page: asked (split, row, before, after) before a key replaces the gold of a dev or
        # test row; False keeps the gold
        self.overwrite_hook: Callable[[str, int, Any, Any], bool] | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.picker = LabelPicker(self)
        self.picker.chosen.connect(self.apply_choice)
        self.picker.closed.connect(lambda refocus: refocus and self.setFocus())
        session.current_example_changed.connect(self._on_current_example_changed)
        session.gold_changed.connect(self._on_gold_changed)
        session.labels_changed.connect(self.refresh)

    # -- whether the keys are here --------------------------------------------------------
    # The editor's text views take no focus, so nothing showed whether a key would label: with the focus
    # on the page switcher, 2 did nothing and the screen looked the same. A frame in the highlight colour
    # (in the layout's margin, around the children) says "keys label this example".
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.hasFocus():
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), FOCUS_FRAME_WIDTH))
            half = FOCUS_FRAME_WIDTH / 2
            painter.drawRoundedRect(self.rect().toRectF().adjusted(half, half, -half, -half), 4, 4)
            painter.end()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()
        self.focus_changed.emit(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()
        self.focus_changed.emit(False)

    # -- which example -------------------------------------------------------------------
    def _on_current_example_changed(self, split: str, row: int) -> None:
        self.split, self.row = split, row
        if self.isActive():
            self.refresh()

    def _on_gold_changed(self, split: str, row: int) -> None:
        if self.isActive() and split == self.split and (row == self.row or row < 0):
            self.refresh()

    def isActive(self) -> bool:
        # no branch on a kind: an editor serves the project only when it was built for its kind
        return self.session.has_project() and self.session.kind == self.kind

    def refresh(self) -> None:
        if not self.isActive():
            return
        self.split, self.row = self.session.current_split, self.session.current_row
        self.show_row(self.session.row(self.split, self.row) if self.row >= 0 else {})

    def show_row(self, values: dict[str, Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- label keys ------------------------------------------------------------------------
    def choices(self) -> list[str]:
        """The names the label keys apply, in key order ([] for an editor without labels)."""
        return []

    def apply_choice(self, name: str) -> None:
        """Apply one of :meth:`choices` to the example (or the selected words)."""

    def current_choice(self) -> str | None:
        """The choice the example has now (pre-selected when the picker opens), if any."""
        return None

    def choice_keys(self) -> list[str]:
        """The key of each choice as the legend shows it ("1" … "9", then a picker code)."""
        return key_texts(self.choices(), self.command_letters)

    def open_picker(self, text: str = "") -> None:
        choices = self.choices()
        if choices:
            self.picker.popup(choices, self.session.label_colours(), self.choice_keys(), text,
                              preselect=self.current_choice(), anchor=getattr(self, "legend", None))

    def handle_label_keys(self, event: QKeyEvent) -> bool:
        """Keys 1-9 and the picker keys; returns True when the key was used."""
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier):
            return False
        choices = self.choices()
        number = NUMBER_KEYS.get(event.key())
        if number is not None and 1 <= number <= min(9, len(choices)):
            self.apply_choice(choices[number - 1])
            return True
        if number is not None and number > len(choices) >= 1:  # nothing to set: say so, not silence
            self.message_shown.emit(self.tr("Key %1 sets nothing: the labels are on keys 1-%2")
                                    .replace("%1", str(number)).replace("%2", str(min(9, len(choices)))))
            return True
        text = event.text()
        if choices and (text == OPEN_KEY or opens_picker(text, self.command_letters)):
            self.open_picker("" if text == OPEN_KEY else text)
            return True
        return False

    # -- the assistant's suggestion ----------------------------------------------------------
    def suggestion(self) -> Any:
        """The assistant's Suggestion for the example shown, or None (none yet, another split,
        or an audit pick: its label checks the model, so the model's guess is not shown)."""
        assist = getattr(self.session, "assist", None)
        if assist is None or self.row < 0 or assist.is_audit_pick(self.split, self.row):
            return None
        return assist.suggestion(self.split, self.row)

    def unlabelled_suggestion(self) -> Any:
        """The suggestion while the example has no gold value (what Enter accepts)."""
        if self.row < 0 or self.session.gold(self.split, self.row) is not None:
            return None
        return self.suggestion()

    def show_suggestion(self) -> None:
        """Redraw the suggestion of the example shown (new scores arrived)."""

    def accept_suggestion(self) -> bool:
        """Apply the suggestion as the gold value (Enter); False when there is none."""
        return False

    # -- moving ----------------------------------------------------------------------------
    def split_length(self) -> int:
        return self.session.split_size(self.split)

    def go_to(self, row: int) -> None:
        n = self.split_length()
        if n:
            self.session.set_current(self.split, max(0, min(n - 1, row)))

    def step(self, delta: int) -> None:
        self.go_to(self.row + delta)

    def next_unlabelled(self) -> bool:
        """Jump to the next row without gold (wrapping round); False when all are labelled.

        Looks at the next few hundred rows one by one (edits live in the project's
        overlay, so this is cheap); only past them does it build the whole gold
        column once and search it vectorised.
        """
        n = self.split_length()
        if not n:
            return False
        done, _ = self.session.progress(self.split)
        if done >= n:
            self.message_shown.emit(self.tr("Every example of this split is labelled."))
            return False
        for row in range(self.row + 1, min(n, self.row + 1 + 512)):
            if self.session.gold(self.split, row) is None:
                self.go_to(row)
                return True
        missing = self.session.examples(self.split).unlabelled_rows()
        after = missing[missing > self.row]
        self.go_to(int(after[0] if len(after) else missing[0]))
        return True

    def advance(self) -> None:
        """After a label: the next item of the Label page's Next order, else the next unlabelled row.

        Never simply the next row: while the assistant starts (or with it off) that row may hold a
        label, and the user's next key, typed before the screen is read, would silently replace it.
        With every row labelled the editor stays (and says so): going on is the arrows' choice.
        """
        if self.next_hook is None or not self.next_hook(False):
            self.next_unlabelled()

    def skip_ahead(self) -> None:
        """S / Space: pass over this example (it comes back after every other one)."""
        if self.next_hook is None or not self.next_hook(True):
            self.next_unlabelled()

    def set_gold(self, value: Any, text: str) -> bool:
        """Store ``value`` as one undoable edit; False (and the window says why) when it could not be saved."""
        if self.row < 0:
            return False
        split, row = self.split, self.row
        before = self.session.gold(split, row) if split in EVALUATION_SPLITS else None
        replaces = before is not None and not _same(before, value)
        if replaces and self.overwrite_hook is not None and not self.overwrite_hook(split, row, before, value):
            return False
        try:
            self.session.apply_gold(split, row, value, text)
        except BertStudioError as exc:
            self.session.report_failure(exc)
            return False
        if replaces:  # a key on a dev row changed the gold runs are scored against: never silently. Said
            # once the key is done: its move to the next row says "Every example … is labelled" first
            note = self.replaced_note(split, row, before, value)
            QTimer.singleShot(0, self, lambda: self.message_shown.emit(note))
        return True

    def replaced_note(self, split: str, row: int, before: Any, after: Any) -> str:
        """"dev row 1: positive → negative (Ctrl+Z undoes)" (one pass: a label may hold "%1" or braces)."""
        old, new = _shown(before), _shown(after)
        if old is None or new is None:
            return self.tr("{split} row {row}: gold changed (Ctrl+Z undoes)").format(split=split_name(split), row=row + 1)
        return self.tr("{split} row {row}: {old} → {new} (Ctrl+Z undoes)").format(split=split_name(split), row=row + 1,
                                                                                  old=old, new=new)

    def text_views(self) -> list[QAbstractScrollArea]:
        """The views showing the example's text, which Shift+Page Up / Down scroll (they never take
        focus: the keys are the editor's)."""
        return []

    def scroll_text(self, pages: int) -> None:
        for view in self.text_views():
            bar = view.verticalScrollBar()
            bar.setValue(bar.value() + pages * bar.pageStep())

    def handle_navigation(self, event: QKeyEvent, *, arrows: bool = True) -> bool:
        """Keys every editor shares; returns True when the key was used."""
        key = event.key()
        if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp) and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            # a 5,000-character example could be read past its first screen only with a mouse wheel
            self.scroll_text(1 if key == Qt.Key.Key_PageDown else -1)
        elif arrows and key in (Qt.Key.Key_Right, Qt.Key.Key_Down) or key == Qt.Key.Key_PageDown:
            self.step(1)
        elif arrows and key in (Qt.Key.Key_Left, Qt.Key.Key_Up) or key == Qt.Key.Key_PageUp:
            self.step(-1)
        elif key == Qt.Key.Key_Home and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.go_to(0)
        elif key in (Qt.Key.Key_S, Qt.Key.Key_Space) and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.skip_ahead()
        else:
            return False
        return True
