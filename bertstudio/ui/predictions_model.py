"""A run's predictions joined with the project's evaluated rows, as a Qt table model.

The Results page reads the run's predictions with the project row each was made
for (:func:`bertstudio.train.rundir.read_predictions`), so a prediction can be
relabelled in place; this model shows them. Rows are formatted on demand in ``data()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from bertstudio.metrics.display import format_fraction
from bertstudio.tasks import get_task
from bertstudio.tasks.base import error_rule

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ERROR_MARK = "\u2717 "  # "✗ " before a prediction that counts as an error (beside its red)
_Index = QModelIndex | QPersistentModelIndex


@dataclass
class PredictionRow:
    index: int  # position in the evaluated set
    split: str | None  # project split it came from (None: not joinable)
    row: int  # project row (-1: not joinable)
    example: dict[str, Any]  # the example's columns ({} when not joinable)
    gold: Any
    pred: dict[str, Any]


class PredictionsModel(QAbstractTableModel):
    """One row per evaluated example; what is shown and what counts as an error is the kind's
    Task's to say (``task.predicted_value`` / ``task.is_error``), as on the Data page."""

    def __init__(self, kind: str, parent: Any = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.task = get_task(kind)
        self.rows: list[PredictionRow] = []
        self.glue_task: str | None = None
        self._columns = ["text", "gold", "predicted", *self.task.prediction_columns]
        self._rule = self.task.is_error

    def is_error(self, r: "PredictionRow") -> bool:
        return self._rule(r.pred, r.gold)

    @property
    def tolerance(self) -> float | None:
        """How far off a predicted score is an error (a tenth of the golds' scale); None for labels."""
        return getattr(self._rule, "tolerance", None)

    def _judge_rows(self) -> None:
        # one rule for the shown rows, from their golds' scale (a score 0.4 off on 0-100 is no error)
        self._rule = error_rule(self.task, [r.gold for r in self.rows], self.glue_task)

    def predicted_value(self, r: "PredictionRow") -> Any:
        return self.task.predicted_value(r.pred)

    def _header(self, key: str) -> str:
        if key == "confidence" and self.task.kind == "qa":  # a logit sum: "Confidence 1.2812" read as a probability
            return self.tr("Span score")
        return {"text": self.tr("Text"), "gold": self.tr("Gold"), "predicted": self.tr("Predicted"),
                "confidence": self.tr("Confidence"), "loss": self.tr("Loss")}[key]

    def column_of(self, key: str) -> int:
        return self._columns.index(key)

    def set_rows(self, rows: list[PredictionRow], glue_task: str | None = None) -> None:
        self.beginResetModel()
        self.rows = rows
        self.glue_task = glue_task
        self._judge_rows()
        self.endResetModel()

    def update_gold(self, split: str, row: int, gold: Any) -> None:
        for i, r in enumerate(self.rows):
            if r.split == split and r.row == row:
                r.gold = gold
                before = self.tolerance
                self._judge_rows()
                # a score gold that widens or narrows the scale changes what counts as an error on every row
                first, last = (0, len(self.rows) - 1) if self.tolerance != before else (i, i)
                self.dataChanged.emit(self.index(first, 0), self.index(last, len(self._columns) - 1))

    # --- Qt model -------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(self._columns) and self._columns[section] == "confidence" and self.task.kind == "qa":
            return self.tr("The answer span's start + end logit: higher is surer, but it is not a probability")
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._columns):
            return self._header(self._columns[section])
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self.rows):
            return str(self.rows[section].index + 1)
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self.rows)) or not (0 <= index.column() < len(self._columns)):
            return None
        r, key = self.rows[index.row()], self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            # an error is marked by more than its colour: red alone said nothing to a screen reader, a
            # colour-blind reader or a grey print (51.307 on gold 90 is one, on gold 70 not)
            mark = ERROR_MARK if key == "predicted" and self.is_error(r) else ""
            return mark + self._display(r, key)
        if role == SORT_ROLE:
            return self._sort_value(r, key)
        if role == Qt.ItemDataRole.ToolTipRole and key == "text":
            return self._display(r, key)
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleDescriptionRole) and key == "predicted" \
                and self.is_error(r):
            return self.error_text()
        if role == Qt.ItemDataRole.ForegroundRole and key == "predicted" and self.is_error(r):
            from PySide6.QtGui import QColor

            from bertstudio.ui import theme

            return QColor(theme.tone("error"))
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("confidence", "loss"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def error_text(self) -> str:
        """What the mark on an error's prediction means (its tooltip, and what a screen reader says)."""
        tolerance = self.tolerance
        if tolerance is None:
            return self.tr("Error: the prediction is not the gold")
        return self.tr("Error: off by %1 or more from the gold").replace("%1", f"{tolerance:g}")

    def _text(self, r: PredictionRow) -> str:
        if not r.example:
            return self.tr("(example {n} not in the project)").format(n=r.index + 1)
        return self.task.spec.example_text(r.example)

    def _display(self, r: PredictionRow, key: str) -> str:
        if key == "text":
            return self._text(r)
        if key == "gold":
            return self.task.spec.gold.short_text(r.gold)
        if key == "predicted":
            return self.task.spec.gold.short_text(self.predicted_value(r))
        value = self._sort_value(r, key)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        if key == "confidence" and self.task.kind != "qa":  # a probability: 0.99999 read "1.0000", certain
            return format_fraction(value, 4)
        return f"{value:.4f}"

    def _sort_value(self, r: PredictionRow, key: str) -> Any:
        if key == "confidence":
            v = self.task.confidence(r.pred)
            return float(v) if v is not None else float("nan")
        if key == "loss":
            v = r.pred.get("loss")
            return float(v) if v is not None else float("nan")
        if key in ("gold", "predicted") and self.task.spec.gold.numeric:  # scores sort as numbers
            value = r.gold if key == "gold" else self.predicted_value(r)
            return float(value) if value is not None else float("nan")
        return self._display(r, key)


class PredictionsFilter(QAbstractTableModel):
    """The predictions table as shown: errors only and/or one confusion cell, sorted by a column
    (by its numeric value where it has one: SORT_ROLE), over a :class:`PredictionsModel` whose own
    rows keep evaluation order (the plots and the page name a prediction by that row).

    Filtering and sorting are Python lists: one pass over the rows and one ``sorted`` over keys
    computed once per row. A QSortFilterProxyModel calls a Python ``lessThan`` n·log n times
    (800,000 calls, 21 s on the GUI thread, for a 50,000-row evaluation set). The mapping
    methods are QAbstractProxyModel's names (``mapToSource``, ``mapFromSource``,
    ``sourceModel``); a resort or refilter moves the view's selection with its rows
    (persistent indexes), and a row filtered out leaves it.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._source: PredictionsModel | None = None
        self._wired: list[tuple[Any, Any]] = []
        self._errors_only = False
        self._cell: tuple[str, str] | None = None
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._shown: list[int] = []  # the source rows shown, in order
        self._position: dict[int, int] = {}  # source row -> row shown

    # --- the source -------------------------------------------------------------------
    def sourceModel(self) -> "PredictionsModel | None":
        return self._source

    def setSourceModel(self, model: "PredictionsModel") -> None:
        self.beginResetModel()
        for signal, slot in self._wired:
            signal.disconnect(slot)
        self._source = model
        self._wired = [(model.modelAboutToBeReset, self.beginResetModel), (model.modelReset, self._on_source_reset),
                       (model.dataChanged, self._on_source_data_changed)]
        for signal, slot in self._wired:
            signal.connect(slot)
        self._place()
        self.endResetModel()

    def _on_source_reset(self) -> None:
        self._place()
        self.endResetModel()

    def _on_source_data_changed(self, top: QModelIndex, bottom: QModelIndex, roles: Any = ()) -> None:
        columns = self.columnCount() - 1
        for source_row in range(top.row(), bottom.row() + 1):
            row = self._position.get(source_row)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, columns))

    def mapToSource(self, index: _Index) -> QModelIndex:
        if self._source is None or not index.isValid() or not 0 <= index.row() < len(self._shown):
            return QModelIndex()
        return self._source.index(self._shown[index.row()], index.column())

    def mapFromSource(self, index: _Index) -> QModelIndex:
        row = self._position.get(index.row()) if index.isValid() else None
        return QModelIndex() if row is None else self.index(row, index.column())

    # --- filters and order --------------------------------------------------------------
    def set_errors_only(self, on: bool) -> None:
        if bool(on) != self._errors_only:  # as asked already: nothing to filter again (0.17 s on 50,000 rows)
            self._errors_only = bool(on)
            self._relayout()

    def set_cell(self, cell: tuple[str, str] | None) -> None:
        if cell != self._cell:
            self._cell = cell
            self._relayout()

    def refilter(self) -> None:
        """Apply the filters and the order again after the source's values changed (a relabel)."""
        self._relayout()

    @property
    def cell(self) -> tuple[str, str] | None:
        return self._cell

    def sortColumn(self) -> int:
        return self._sort_column

    def sortOrder(self) -> Qt.SortOrder:
        return self._sort_order

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column`` (-1: evaluation order); the header's clicks land here. The order
        already shown is not sorted again (:meth:`refilter` does, after values change)."""
        if (column, order) == (self._sort_column, self._sort_order):
            return
        self._sort_column, self._sort_order = column, order
        self._relayout()

    def filterAcceptsRow(self, source_row: int) -> bool:
        model = self._source
        if model is None or source_row >= len(model.rows):
            return True
        r = model.rows[source_row]
        if self._errors_only and not model.is_error(r):
            return False
        if self._cell is not None and (r.gold, r.pred.get("label")) != self._cell:
            return False
        return True

    def sort_key(self, column: int) -> Callable[[int], Any]:
        """A source row's key for ``column``: its SORT_ROLE value; a missing number (NaN) sorts
        as the smallest, so it never sits among real ones; numbers before text."""
        model = self._source
        assert model is not None
        key = model._columns[column]

        def of(source_row: int) -> tuple[int, Any]:
            value = model._sort_value(model.rows[source_row], key)
            if isinstance(value, float):
                return 0, -math.inf if math.isnan(value) else value
            return 1, str(value)
        return of

    def _place(self) -> None:
        model = self._source
        n = len(model.rows) if model is not None else 0
        shown = [row for row in range(n) if self.filterAcceptsRow(row)]
        if model is not None and 0 <= self._sort_column < model.columnCount():
            shown.sort(key=self.sort_key(self._sort_column), reverse=self._sort_order == Qt.SortOrder.DescendingOrder)
        self._shown = shown
        self._position = {source_row: row for row, source_row in enumerate(shown)}

    def _relayout(self) -> None:
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        rows = [(self._shown[i.row()] if 0 <= i.row() < len(self._shown) else None, i.column()) for i in before]
        self._place()
        after = [self.index(self._position[r], c) if r in self._position else QModelIndex() for r, c in rows]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    # --- Qt model -------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() or self._source is None else self._source.columnCount()

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        source = self.mapToSource(index)
        return source.data(role) if source.isValid() else None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        source = self.mapToSource(index)
        return self._source.flags(source) if self._source is not None and source.isValid() else Qt.ItemFlag.NoItemFlags

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._source is None:
            return None
        if orientation == Qt.Orientation.Vertical:  # the example's own number, wherever it sits
            if not 0 <= section < len(self._shown):
                return None
            section = self._shown[section]
        return self._source.headerData(section, orientation, role)
