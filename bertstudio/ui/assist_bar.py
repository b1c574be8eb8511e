"""The Label page's assistant bar: the Next order, the counts, "Train now", and why this example.

The orders are the core's (:data:`bertstudio.assist.strategies.STRATEGIES`): in order,
random, most uncertain, by suggested label (a label chosen here, or the rarest one). The
counts show where every row of the split is (labelled, of which audit, skipped, left), so
nothing disappears silently. The note under the bar says why the example shown was
picked (an audit draw, the most uncertain one...) or why there are no suggestions yet.
Room is left at the bar's end for other Label page tools (:meth:`AssistBar.add_tool`).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from bertstudio.ui.assist_controller import AssistController

ORDERS: tuple[tuple[str, str], ...] = (  # (core strategy, title), the core's STRATEGIES in the order shown
    ("in_order", QT_TRANSLATE_NOOP("AssistBar", "in order")),
    ("random", QT_TRANSLATE_NOOP("AssistBar", "random")),
    ("uncertain", QT_TRANSLATE_NOOP("AssistBar", "most uncertain first")),
    ("by_label", QT_TRANSLATE_NOOP("AssistBar", "by suggested label")),
)


class ChoiceBox(QComboBox):
    """A combo box that tells a committed choice (``chosen``: picked in its list, Enter there, a
    click) from a step on the closed box (arrow keys, type-ahead, the wheel). QComboBox emits
    ``activated`` for both; the Label page gave the focus back to the editor on each change, so a
    second arrow meant for the box stepped the example instead."""

    chosen = Signal(int)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._stepping = False
        self.activated.connect(lambda index: self._stepping or self.chosen.emit(index))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._stepping = True
        try:
            super().keyPressEvent(event)
        finally:
            self._stepping = False

    def wheelEvent(self, event: QWheelEvent) -> None:
        self._stepping = True
        try:
            super().wheelEvent(event)
        finally:
            self._stepping = False


class AssistBar(QWidget):
    order_changed = Signal(str)

    def __init__(self, controller: AssistController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistBar")
        self.controller = controller
        self.order_combo = ChoiceBox(objectName="nextOrderCombo")
        # a click leaves the keys with the editor; Tab reaches it (a keyboard-only person could not change the order)
        self.order_combo.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        for key, title in ORDERS:
            self.order_combo.addItem(QCoreApplication.translate("AssistBar", title), key)
        self.order_combo.currentIndexChanged.connect(self._on_order_changed)
        self.label_combo = ChoiceBox(objectName="nextLabelCombo")
        self.label_combo.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.label_combo.setToolTip(self.tr("The label whose likeliest examples come first"))
        # sized to its longest label, a 60-character name held the whole window 1,085 px wide: the box
        # shows ~16 characters (elided) and each name is whole in its item's tooltip
        self.label_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.label_combo.setMinimumContentsLength(16)
        self.label_combo.currentIndexChanged.connect(lambda _i: self.order_changed.emit(self.strategy()))
        self.counts_label = QLabel(objectName="assistCounts")
        self.train_button = QPushButton(self.tr("Train no&w"), objectName="assistTrainButton")
        self.train_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.train_button.setToolTip(self.tr("Train the stronger model on the labels so far, in the background "
                                             "(it also trains by itself every 50 labels)"))
        self.train_button.clicked.connect(controller.train_now)
        self.note = QLabel(objectName="assistNote")
        self.note.setWordWrap(True)
        self.note.setEnabled(False)  # a quiet line
        self.tools = QHBoxLayout()  # other Label page tools (a review queue button...) go here
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        self.next_title = QLabel(self.tr("Ne&xt:"))
        self.next_title.setBuddy(self.order_combo)  # Alt+X: the order box (every other Label page control has a letter)
        row.addWidget(self.next_title)
        row.addWidget(self.order_combo)
        row.addWidget(self.label_combo)
        row.addWidget(self.counts_label, 1)
        row.addLayout(self.tools)
        row.addWidget(self.train_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.note)
        self.label_combo.setVisible(False)
        self.set_note("")
        controller.status_changed.connect(self.update_counts)
        self.update_counts()

    def set_assistant_shown(self, shown: bool) -> None:
        """Show or hide the assistant's own parts (the tools added with :meth:`add_tool` stay)."""
        for w in (self.next_title, self.order_combo, self.counts_label, self.train_button):
            w.setVisible(shown)
        self.label_combo.setVisible(shown and self.strategy() == "by_label")
        if not shown:
            self.set_note("")

    def add_tool(self, widget: QWidget) -> None:
        """Put another Label page tool (a button) on the bar, before "Train now"."""
        if hasattr(widget, "setFocusPolicy"):
            widget.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tools.addWidget(widget)

    def strategy(self) -> str:
        return str(self.order_combo.currentData() or "in_order")

    def set_strategy(self, strategy: str) -> None:
        self.order_combo.setCurrentIndex(max(0, self.order_combo.findData(strategy)))

    def label(self) -> str | None:
        """The label to fill in the by-label order (None: the rarest one)."""
        data = self.label_combo.currentData()
        return str(data) if data else None

    def set_label(self, name: str) -> None:
        """Fill ``name`` in the by-label order (the rarest label when it is not offered)."""
        self.label_combo.setCurrentIndex(max(0, self.label_combo.findData(name)))

    def set_labels(self, labels: list[str], suggests_labels: bool) -> str | None:
        """The project's labels for the by-label order (offered only where suggestions are labels).
        Returns the order's label when it is not among them any more (the order then fills the
        rarest label: the caller says so), else None."""
        current = self.label()
        self.label_combo.blockSignals(True)
        self.label_combo.clear()
        self.label_combo.addItem(self.tr("the rarest label"), "")
        for name in labels:
            self.label_combo.addItem(name, name)
            self.label_combo.setItemData(self.label_combo.count() - 1, name, Qt.ItemDataRole.ToolTipRole)
        self.label_combo.setCurrentIndex(max(0, self.label_combo.findData(current or "")))
        self.label_combo.blockSignals(False)
        index = self.order_combo.findData("by_label")
        item = self.order_combo.model().item(index)  # a QStandardItemModel: items can be disabled
        if item is not None:
            item.setEnabled(suggests_labels)
        if not suggests_labels and self.strategy() == "by_label":
            self.set_strategy("in_order")
        return current if current and current not in labels else None

    def follow_rename(self, old: str, new: str) -> None:
        """The by-label order's label renamed (session.label_renamed): the order goes on with its new name
        (it fell back to "the rarest label" without a word, the old name not being offered any more)."""
        index = self.label_combo.findData(old)
        if index > 0:  # (0: the rarest label)
            self.label_combo.setItemData(index, new)
            self.label_combo.setItemText(index, new)
            self.label_combo.setItemData(index, new, Qt.ItemDataRole.ToolTipRole)

    def _on_order_changed(self, _index: int) -> None:
        self.label_combo.setVisible(self.strategy() == "by_label")
        self.order_changed.emit(self.strategy())

    def update_counts(self) -> None:
        active = self.controller.is_active()
        for w in (self.order_combo, self.train_button):
            w.setEnabled(active)
        self.train_button.setEnabled(active and self.controller.can_train_now())
        in_loop = self._offer_model_orders(self.controller.model_in_loop())
        if not active and self.controller.is_on():  # greyed for a minute or more with nothing saying why
            self.order_combo.setToolTip(self.tr("The labelling assistant is starting: the Next order can be "
                                                "chosen once it has started."))
        counts = self.controller.counts()
        if not counts:
            self.counts_label.setText("")
            return
        text = (self.tr("%1 labelled (%2 for the audit) · %3 skipped · %4 to go") if in_loop
                else self.tr("%1 labelled · %3 skipped · %4 to go"))  # no model, no audit
        self.counts_label.setText(
            text.replace("%1", f"{counts['labelled']:,}").replace("%2", f"{counts['audit']:,}")
            .replace("%3", f"{counts['skipped']:,}").replace("%4", f"{counts['unlabelled']:,}"))

    def _offer_model_orders(self, in_loop: bool) -> bool:
        """"most uncertain first" and the audit's words only where a model is in the loop: without one
        the order was always random, and no audit pick ever came to be scored."""
        item = self.order_combo.model().item(self.order_combo.findData("uncertain"))
        if item is not None:
            item.setEnabled(in_loop)
        if not in_loop and self.strategy() == "uncertain":
            self.set_strategy("in_order")
        self.order_combo.setToolTip(
            self.tr("Which example comes next after a label or a skip (S / Space). "
                    "Every 10th is a random audit example in every order.") if in_loop
            else self.tr("Which example comes next after a label or a skip (S / Space)."))
        return in_loop

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))
