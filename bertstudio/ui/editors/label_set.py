"""A small dialog to edit the label set: add, rename, recolour (and remove an unused label).
In a BIO tag set, Rename… on B-X or I-X renames the entity type X (both tags, one undo step).

Each change goes straight to the project (journaled there) and the project
tells every view through ``labels_changed``; errors from the core (a duplicate
name, a label still in use) are shown in the dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.ui import theme
from bertstudio.ui.run_words import project_refusal, rows_or_tokens
from bertstudio.ui.session import ProjectSession, split_name


def swatch(colour: str) -> QIcon:
    """A label's colour, framed in mid grey: a swatch like the selection's blue vanished into it (1.15:1)."""
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(colour))
    painter = QPainter(pixmap)
    painter.setPen(QColor("#808080"))
    painter.drawRect(0, 0, 13, 13)
    painter.end()
    return QIcon(pixmap)


def _tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate("", text, disambiguation or None, n)  # where lupdate files _tr("...")


def _uses_per_split(used: dict[str, int]) -> str:
    """ "12 in train, 1,234 in dev": a label's uses per split, its digits grouped as the UI's other counts."""
    return _tr(", ").join(_tr("{n} in {split}").format(n=f"{n:,}", split=split_name(split)) for split, n in used.items())


def label_refusal(exc: BertStudioError) -> str | None:
    """A label-set refusal (its facts) in the interface's words: the core says them in English (a
    look-alike name, a too-long one, a hidden character, a label in a partly tagged sentence, said
    inside a Chinese dialog or by Edit > Undo); None for one it does not know. The dialog and the
    undo stack say them alike."""
    facts = exc.facts
    refusal = facts.get("refusal")
    if refusal == "empty_name":
        return _tr("A label needs a name: this one is empty.")
    if refusal == "name_taken" and "old" in facts:  # a rename (of B-PER, or of its partner I-PER)
        return _tr("A label named {new} already exists: a rename cannot merge two labels. To merge them, give "
                   "the rows of {old} the label {new}, then remove {old}.").format(new=facts["name"], old=facts["old"])
    if refusal == "name_taken":
        return _tr("A label named {new} already exists: give the new label another name.").format(new=facts["name"])
    if refusal == "label_in_use":  # per split: rows, or a tag set's tokens, as the project counts them
        where = _uses_per_split(facts["used"])
        return _tr("Label {name} is still used ({where}): relabel or clear those rows first, or rename the "
                   "label.").format(name=facts["name"], where=where)
    if refusal == "look_alike":
        return _tr("Label {name} reads the same as {other}: they differ only by case, spaces, Unicode form or "
                   "invisible characters. Give it a name that says something else.").format(name=facts["name"],
                                                                                            other=facts["other"])
    if refusal == "name_spaces":
        return _tr("Label name {name} starts or ends with a space: did you mean {stripped}?").format(
            name=facts["name"], stripped=facts["stripped"])
    if refusal == "name_too_long":
        return _tr("Label name {name}… is {length:,} characters long: a label name has at most {limit} "
                   "characters.").format(name=facts["name"], length=facts["length"], limit=facts["limit"])
    if refusal == "name_hidden":
        return _tr("Label name {name} holds a control or text-direction character (a line break, a tab): type "
                   "it again without it.").format(name=facts["name"])
    if refusal == "in_draft":
        return _tr("Label {name} is in a partly tagged sentence: finish that sentence or untag its words "
                   "first.").format(name=facts["name"])
    return None


COUNT_ROLE = Qt.ItemDataRole.UserRole + 1  # "12 rows": drawn at the row's right edge, beside the name


class _CountDelegate(QStyledItemDelegate):
    """A label's name as the list draws it, its count right-aligned in the muted colour (the name stays
    the item's text: what a screen reader reads and what type-ahead finds)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        """No wider than the list: a 200-character name scrolled the list sideways, its count out of sight
        (the name is elided before the count, whole in its tooltip)."""
        hint = super().sizeHint(option, index)
        hint.setWidth(min(hint.width(), 240))
        return hint

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        count = index.data(COUNT_ROLE)
        if not count:
            super().paint(painter, option, index)
            return
        # the row's background across its width, the name elided before the count (a 200-character name ran under it)
        whole = QStyleOptionViewItem(option)
        self.initStyleOption(whole, index)
        style = whole.widget.style() if whole.widget is not None else QApplication.style()  # type: ignore[attr-defined]
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, whole, painter, whole.widget)  # type: ignore[attr-defined]
        name = QStyleOptionViewItem(option)
        name.rect = option.rect.adjusted(0, 0, -(option.fontMetrics.horizontalAdvance(str(count)) + 12), 0)  # type: ignore[attr-defined]
        super().paint(painter, name, index)
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)  # type: ignore[attr-defined]
        palette = option.palette  # type: ignore[attr-defined]
        painter.setPen(palette.highlightedText().color() if selected else palette.placeholderText().color())
        rect = option.rect.adjusted(0, 0, -6, 0)  # type: ignore[attr-defined]
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), str(count))
        painter.restore()


class LabelSetDialog(QDialog):
    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelSetDialog")
        self.setWindowTitle(self.tr("Label set"))
        self.session = session
        # its project closed under it (the window closed with the dialog open): Export raised on None
        session.project_closing.connect(self.reject)
        self.list = QListWidget()
        self.list.setObjectName("labelList")
        self.list.setAccessibleName(self.tr("Labels"))  # a screen reader said "" for the list
        self.list.setItemDelegate(_CountDelegate(self.list))
        # at 150 labels only Qt's type-ahead found one, and whether it was used showed only when Remove refused it
        self.filter_edit = QLineEdit(objectName="labelFilter", clearButtonEnabled=True)
        self.filter_edit.setPlaceholderText(self.tr("Filter labels"))
        self.filter_edit.setAccessibleName(self.tr("Filter labels"))
        self.filter_edit.textChanged.connect(lambda _t: self._apply_filter())
        self._counts_timer = QTimer(self, singleShot=True, interval=150)  # a burst of label keys: counted once
        self._counts_timer.timeout.connect(self._show_counts)
        self.error = QLabel()
        self.error.setObjectName("labelSetError")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # a label name is shown as typed, never as markup
        theme.set_tone(self.error, "error")
        buttons = QHBoxLayout()
        for name, text, slot in (
            ("addLabelButton", self.tr("&Add…"), self._on_add),
            ("renameLabelButton", self.tr("Re&name…"), self._on_rename),
            ("colourLabelButton", self.tr("Co&lour…"), self._on_colour),
            ("removeLabelButton", self.tr("&Remove"), self._on_remove),
        ):
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        order = QLabel(self.tr("Order = key order (1-9) and label ids of the model."))
        self.list.setAccessibleDescription(order.text())
        layout.addWidget(order)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.error)
        layout.addWidget(close)
        session.labels_changed.connect(self._fill)
        # bound methods, not lambdas holding self: Qt ends these connections with the dialog (a lambda's
        # outlived it, and every dialog ever opened recounted at each label key)
        session.gold_changed.connect(self._count_soon)
        session.data_imported.connect(self._count_soon)
        self._fill()

    def _count_soon(self, *_args: object) -> None:
        self._counts_timer.start()

    def _fill(self) -> None:
        current = self.list.currentRow()
        self.list.clear()
        colours = self.session.label_colours()
        for name in self.session.labels():
            item = QListWidgetItem(swatch(colours.get(name, "#999999")), name)
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setToolTip(name)  # a 200-character name is cut at the dialog's edge
            self.list.addItem(item)
        self.list.setCurrentRow(min(max(current, 0), self.list.count() - 1))
        self._show_counts()
        self._apply_filter()

    def label_uses(self) -> dict[str, dict[str, int]]:
        """Each label's uses per split (rows; a tag set's tokens), as the project counts them: its
        per-split counts are kept up to date in memory (counted in Arrow once per split, then moved
        by each edit), so this costs a dict per split, not a pass over the rows."""
        project = self.session.project
        if project is None:
            return {}
        uses: dict[str, dict[str, int]] = {}
        for split in project.split_names:
            for name, n in project.label_counts(split).items():
                if n:
                    uses.setdefault(name, {})[split] = n
        return uses

    def _show_counts(self) -> None:
        """Each label's count of uses beside its name; its tooltip says them per split."""
        uses = self.label_uses()
        tokens = self.session.has_project() and get_spec(self.session.kind).gold.per_token
        for i in range(self.list.count()):
            item = self.list.item(i)
            name = str(item.data(Qt.ItemDataRole.UserRole))
            per_split = uses.get(name, {})
            n = sum(per_split.values())
            count = rows_or_tokens(n, bool(tokens))
            item.setData(COUNT_ROLE, count)
            where = _uses_per_split(per_split)
            item.setToolTip(f"{name}\n{count}" + (f" ({where})" if where else ""))
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, count)

    def _apply_filter(self) -> None:
        """Only the labels whose name holds the typed text (any case); the selection stays on a shown
        one, so Rename or Remove never acts on a label the filter hides."""
        typed = self.filter_edit.text().strip().casefold()
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setHidden(bool(typed) and typed not in str(item.data(Qt.ItemDataRole.UserRole)).casefold())
        current = self.list.currentItem()
        if current is None or current.isHidden():
            shown = [i for i in range(self.list.count()) if not self.list.item(i).isHidden()]
            self.list.setCurrentRow(shown[0] if shown else -1)

    def _selected(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _refusal_text(self, exc: BertStudioError) -> str:
        """A refusal in the interface's words (:func:`label_refusal`, a read-only project's as the window
        says it); any other as the core says it:
        the problem and what to do (the project file's path filled the dialog and said nothing more)."""
        return label_refusal(exc) or project_refusal(exc) or exc.problem + (f" ({exc.expected})" if exc.expected else "")

    def _run(self, action) -> bool:  # type: ignore[no-untyped-def]
        try:
            action()
        except BertStudioError as exc:
            self.error.setText(self._refusal_text(exc))
            return False
        self.error.clear()
        return True

    # The session's project does the work; these only ask for names/colours.
    def add_label(self, name: str, colour: str | None = None) -> bool:
        return self._run(lambda: self.session.add_label(name, colour))  # undoable (Edit > Undo)

    def rename_label(self, old: str, new: str) -> bool:
        return self._run(lambda: self.session.rename_label(old, new))  # undoable (Edit > Undo)

    def set_colour(self, name: str, colour: str) -> bool:
        return self._run(lambda: self.session.set_label_color(name, colour))  # undoable

    def _on_add(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Add label"), self.tr("Name of the new label:"))
        if ok and name.strip():
            self.add_label(name.strip())

    def _on_rename(self) -> None:
        old = self._selected()
        if old is None:
            return
        partner = self.session.entity_partner(old)
        if partner is not None:  # B-PER and I-PER: the person renames the entity type PER (session.rename_label)
            new, ok = QInputDialog.getText(
                self, self.tr("Rename entity type"),
                self.tr("New name of the entity type %1 (%2 and %3 are renamed together):")
                .replace("%1", old[2:]).replace("%2", old).replace("%3", partner), text=old[2:])
            if ok and new.strip() and new.strip() != old[2:]:
                self.rename_label(old, old[:2] + new.strip())
            return
        new, ok = QInputDialog.getText(self, self.tr("Rename label"), self.tr("New name:"), text=old)
        if ok and new.strip() and new.strip() != old:
            self.rename_label(old, new.strip())

    def _on_colour(self) -> None:
        name = self._selected()
        if name is None:
            return
        colour = QColorDialog.getColor(QColor(self.session.label_colours().get(name, "#999999")), self)
        if colour.isValid():
            self.set_colour(name, colour.name())

    def _on_remove(self) -> None:
        name = self._selected()
        if name is not None:
            self.remove_label(name)

    def remove_label(self, name: str) -> bool:
        return self._run(lambda: self.session.remove_label(name))  # undoable
