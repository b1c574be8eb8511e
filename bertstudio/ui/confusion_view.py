"""Confusion matrix of a classification run: rows gold, columns predicted.

A small QAbstractTableModel (labels x labels counts from
bertstudio.metrics.confusion) shown in a QTableView; cells are shaded by
count, and clicking one emits ``cell_clicked(gold, predicted)`` so the
predictions table can show exactly those examples (click it again to clear).
:class:`ConfusionPanel` puts the view under its axis titles ("Predicted" over the
columns, "Gold" up the rows), the label names being the header sections.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QGridLayout, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QTableView, QVBoxLayout, QWidget)

from bertstudio.metrics import confusion
from bertstudio.ui.theme import current_palette, text_colour

_Index = QModelIndex | QPersistentModelIndex


MAX_NAME_WIDTH = 160  # px of a gold label's name beside the rows
MANY_CLASSES = 8  # past this many labels the panel lists the most frequent confusions too
TOP_CONFUSIONS = 5


class ConfusionModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.labels: list[str] = []
        self.counts = np.zeros((0, 0), dtype=np.int64)

    def set_data(self, golds: Sequence[Any], preds: Sequence[Any], labels: Sequence[str]) -> None:
        self.beginResetModel()
        self.labels = list(labels)
        # no scored rows (a run whose predictions.jsonl is missing or holds no gold): an empty matrix; the
        # metric's "no examples to score" escaped the Results page's open as an exception
        self.counts = (confusion(list(golds), list(preds), self.labels) if self.labels and len(golds)
                       else np.zeros((len(self.labels), len(self.labels)), dtype=np.int64))
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.labels)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.labels)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.labels):
            return self.labels[section]  # user's label names: not translated
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole name: a header section shows it elided
            name = self.labels[section] if 0 <= section < len(self.labels) else ""
            return (self.tr("gold: {name}") if orientation == Qt.Orientation.Vertical
                    else self.tr("predicted: {name}")).format(name=name)
        return None

    def _cell(self, row: int, column: int, n: int) -> QColor:
        """Blue on the diagonal (right), red off it (wrong); deeper = more examples. An empty cell is the
        palette's base colour (a dark theme's matrix was a white block)."""
        top = int(self.counts.max()) if self.counts.size else 0
        share = n / top if top else 0.0
        target = (31, 119, 180) if row == column else (214, 39, 40)
        base = current_palette().color(QPalette.ColorRole.Base)
        start = (base.red(), base.green(), base.blue())
        return QColor(*(round(s + share * 0.85 * (t - s)) for s, t in zip(start, target)))

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.labels) or index.column() >= len(self.labels):
            return None
        n = int(self.counts[index.row(), index.column()])
        if role == Qt.ItemDataRole.DisplayRole:
            return str(n)
        if role == Qt.ItemDataRole.UserRole:
            return n
        if role == Qt.ItemDataRole.BackgroundRole:
            return self._cell(index.row(), index.column(), n)
        if role == Qt.ItemDataRole.ForegroundRole:  # whichever of black and white reads on the cell (a share
            # threshold put white on cells still light, 2.3-2.6:1)
            return QColor(text_colour(self._cell(index.row(), index.column(), n).name()))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr("{n} examples: gold {g}, predicted {p}").format(n=n, g=self.labels[index.row()], p=self.labels[index.column()])
        return None


class ConfusionView(QTableView):
    """The matrix; a class with no gold row and no prediction (an all-zero row and column) is
    hidden: 80 labels of which a dev split uses 12 left 68 empty rows and columns between them."""

    cell_clicked = Signal(object)  # (gold, predicted) or None when the filter is cleared
    moved_to = Signal(QModelIndex)  # the keyboard made this cell the current one

    def __init__(self, parent: QWidget | None = None, model: ConfusionModel | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("confusionMatrix")
        self.confusion_model = model if model is not None else ConfusionModel(self)
        self.setModel(self.confusion_model)
        self.confusion_model.modelReset.connect(self._hide_empty_classes)
        self.hidden_classes = 0
        self._hide_empty_classes()  # a second view of a model already filled (ConfusionDialog)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setTabKeyNavigation(False)  # Tab leaves the matrix (it cycled its cells for ever); arrows move in it
        for header in (self.horizontalHeader(), self.verticalHeader()):
            # 40 names like class_000 read "cl…39", not the same cut middle; the tooltip has the whole name
            header.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # a 200-character label name made the gold column as wide as the panel and the counts 0 px wide
        self.verticalHeader().setMaximumWidth(MAX_NAME_WIDTH)
        # The cells share the panel's room: a matrix, not a small table in a corner.
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setMinimumSectionSize(36)
        self.verticalHeader().setMinimumSectionSize(24)
        self.setToolTip(self.tr("Rows: gold label. Columns: predicted label. Click a cell to list its examples."))
        self._selected: tuple[str, str] | None = None
        self.clicked.connect(self._on_clicked)
        self.moved_to.connect(self._on_moved_to)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys filter as the mouse does: Enter or Space on the current cell is a click on it, and an
        arrow that moves the (highlighted) current cell filters on it. Before, a cell picked with the
        keyboard looked selected while the predictions below still listed every row."""
        current = self.currentIndex()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and current.isValid():
            self.clicked.emit(current)  # the one path a click takes (the window's view re-routes it)
            return
        super().keyPressEvent(event)
        moved = self.currentIndex()
        if moved.isValid() and moved != current:
            self.moved_to.emit(moved)

    def _on_moved_to(self, index: QModelIndex) -> None:
        labels = self.confusion_model.labels
        cell = (labels[index.row()], labels[index.column()])
        if cell != self._selected:
            self._selected = cell
            self.cell_clicked.emit(cell)

    def _hide_empty_classes(self) -> None:
        counts = self.confusion_model.counts
        # an all-zero matrix (no scored rows) keeps its labels: nothing is hidden from nothing
        empty = (counts.sum(axis=0) + counts.sum(axis=1) == 0) if counts.size and counts.any() else \
            np.zeros(len(self.confusion_model.labels), dtype=bool)
        for i, hide in enumerate(empty):
            self.setRowHidden(i, bool(hide))
            self.setColumnHidden(i, bool(hide))
        self.hidden_classes = int(empty.sum())

    def visible_classes(self) -> int:
        return len(self.confusion_model.labels) - self.hidden_classes

    def _on_clicked(self, index: QModelIndex) -> None:
        labels = self.confusion_model.labels
        cell = (labels[index.row()], labels[index.column()])
        if cell == self._selected:
            self._selected = None
            self.clearSelection()
        else:
            self._selected = cell
        self.cell_clicked.emit(self._selected)

    def clear_filter(self) -> None:
        self._selected = None
        self.clearSelection()

    def pick(self, gold: str, predicted: str) -> None:
        """Filter on one cell as a click on it does, and bring it into view."""
        labels = self.confusion_model.labels
        if gold not in labels or predicted not in labels:
            return
        index = self.confusion_model.index(labels.index(gold), labels.index(predicted))
        self.setCurrentIndex(index)
        self.scrollTo(index)
        self._selected = (gold, predicted)
        self.cell_clicked.emit(self._selected)


def top_confusions(labels: Sequence[str], counts: Any, most: int = TOP_CONFUSIONS) -> list[tuple[int, str, str]]:
    """The largest off-diagonal cells as (count, gold, predicted), largest first (ties in label order)."""
    cells = [(int(counts[g, p]), g, p) for g in range(len(labels)) for p in range(len(labels))
             if g != p and int(counts[g, p]) > 0]
    cells.sort(key=lambda c: (-c[0], c[1], c[2]))
    return [(n, labels[g], labels[p]) for n, g, p in cells[:most]]


class VerticalTitle(QLabel):
    """A label drawn bottom-to-top, as a y-axis title is."""

    def sizeHint(self) -> QSize:
        size = super().sizeHint()
        return QSize(size.height(), size.width())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.translate(0, self.height())
        painter.rotate(-90)
        painter.drawText(0, 0, self.height(), self.width(), int(Qt.AlignmentFlag.AlignCenter), self.text())
        painter.end()


def _titled_axes(owner: QWidget, view: ConfusionView) -> tuple[QGridLayout, QLabel, VerticalTitle]:
    """``view`` in a grid (``owner``'s layout) under "Predicted" (over the columns) and beside
    "Gold" (up the rows); the titles are the panel's (one translation for the panel and the window)."""
    predicted_title = QLabel(QCoreApplication.translate("ConfusionPanel", "Predicted"), objectName="confusionPredictedTitle")
    predicted_title.setAlignment(Qt.AlignmentFlag.AlignCenter)
    gold_title = VerticalTitle(QCoreApplication.translate("ConfusionPanel", "Gold"), objectName="confusionGoldTitle")
    for title in (predicted_title, gold_title):
        font = title.font()
        font.setBold(True)
        title.setFont(font)
    predicted_title.setToolTip(QCoreApplication.translate("ConfusionPanel", "Columns: the label the model predicted"))
    gold_title.setToolTip(QCoreApplication.translate("ConfusionPanel", "Rows: the gold label"))
    grid = QGridLayout(owner)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setSpacing(2)
    grid.addWidget(predicted_title, 0, 1)
    grid.addWidget(gold_title, 1, 0)
    grid.addWidget(view, 1, 1)
    return grid, predicted_title, gold_title


class ConfusionDialog(QDialog):
    """The matrix with the room of a window: a second view of the panel's model, whose clicks
    filter the predictions as the panel's own do (modeless, so the page shows them meanwhile)."""

    def __init__(self, panel_view: ConfusionView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("confusionDialog")
        self.setWindowTitle(self.tr("Confusion matrix"))
        self.view = ConfusionView(self, model=panel_view.confusion_model)
        self.view.clicked.disconnect(self.view._on_clicked)  # one filter state: the panel's view keeps it
        self.view.clicked.connect(panel_view._on_clicked)
        self.view.moved_to.disconnect(self.view._on_moved_to)
        self.view.moved_to.connect(panel_view._on_moved_to)
        holder = QWidget()
        _titled_axes(holder, self.view)
        lay = QVBoxLayout(self)
        lay.addWidget(holder, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)


class ConfusionPanel(QWidget):
    """The matrix with its axis titles: "Predicted" above the columns, "Gold" beside the rows.
    Past MANY_CLASSES classes a button opens it in a window of its own (ConfusionDialog): 80 classes
    had a box of 350 x 40 px at 1280 x 800, one row readable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("confusionPanel")
        self.view = ConfusionView()
        grid, self.predicted_title, self.gold_title = _titled_axes(self, self.view)
        self.enlarge_button = QPushButton(self.tr("Open in a window…"), objectName="confusionEnlargeButton")
        self.enlarge_button.setToolTip(self.tr("Show the confusion matrix in a window of its own, with room "
                                               "for every class"))
        self.enlarge_button.clicked.connect(self.open_window)
        self.enlarge_button.hide()
        self.hidden_note = QLabel(objectName="confusionHiddenNote", wordWrap=True)
        self.hidden_note.hide()
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.hidden_note, 1)
        bar.addWidget(self.enlarge_button)
        grid.addLayout(bar, 3, 1)
        self.dialog: ConfusionDialog | None = None
        # with many classes the grid's cells are narrow: the largest confusions, as a list to pick from
        self.top_list = QListWidget(objectName="topConfusions")
        self.top_list.setToolTip(self.tr("The most frequent confusions; pick one to list its examples"))
        self.top_list.itemActivated.connect(self._on_top_picked)
        self.top_list.itemClicked.connect(self._on_top_picked)
        self.top_list.hide()
        grid.addWidget(self.top_list, 2, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(1, 1)
        self.view.confusion_model.modelReset.connect(self._fill_top)

    def rows_height(self) -> int:
        """The height at which every class shown has a row of the smallest readable size, with the
        titles, list and note: more only makes the cells larger."""
        view = self.view
        rows = view.visible_classes() * view.verticalHeader().minimumSectionSize()
        grid = view.horizontalHeader().sizeHint().height() + rows + 2 * view.frameWidth()
        return self.sizeHint().height() - view.sizeHint().height() + grid

    def open_window(self) -> ConfusionDialog:
        """The matrix in a window as large as the main window (opened again, it comes to the front)."""
        if self.dialog is None:
            self.dialog = ConfusionDialog(self.view, self.window())
            window = self.window().size()
            self.dialog.resize(max(640, int(window.width() * 0.9)), max(480, int(window.height() * 0.9)))
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog

    def _fill_top(self) -> None:
        model = self.view.confusion_model
        self.top_list.clear()
        many = self.view.visible_classes() > MANY_CLASSES
        self.enlarge_button.setVisible(many)
        self.hidden_note.setVisible(self.view.hidden_classes > 0)
        self.hidden_note.setText(self.tr("%n class(es) with no rows and no predictions in this split are not shown.",
                                         "", self.view.hidden_classes))
        top = top_confusions(model.labels, model.counts) if many else []
        for n, gold, predicted in top:
            # one pass: a label named "%2" or "{n}" is a value, never a place to fill
            item = QListWidgetItem(self.tr("{n} × gold {gold} → predicted {predicted}").format(
                n=n, gold=f"\u2068{gold}\u2069", predicted=f"\u2068{predicted}\u2069"))
            item.setData(Qt.ItemDataRole.UserRole, (gold, predicted))
            item.setToolTip(item.text())
            self.top_list.addItem(item)
        self.top_list.setVisible(bool(top))
        if top:  # as tall as its rows
            rows = self.top_list.sizeHintForRow(0) * len(top) + 2 * self.top_list.frameWidth()
            self.top_list.setFixedHeight(rows)

    def _on_top_picked(self, item: QListWidgetItem) -> None:
        gold, predicted = item.data(Qt.ItemDataRole.UserRole)
        self.view.pick(gold, predicted)
