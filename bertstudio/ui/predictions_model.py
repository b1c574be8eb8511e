"""A run's predictions joined with the project's evaluated rows, as a Qt table model.

The Results page reads the run's predictions with the project row each was made
for (:func:`bertstudio.train.rundir.read_predictions`), so a prediction can be
relabelled in place; this model shows them. Rows are formatted on demand in ``data()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from bertstudio.tasks import get_task

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
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
        self._columns = ["text", "gold", "predicted", *self.task.prediction_columns]

    def is_error(self, r: "PredictionRow") -> bool:
        return self.task.is_error(r.pred, r.gold)

    def predicted_value(self, r: "PredictionRow") -> Any:
        return self.task.predicted_value(r.pred)

    def _header(self, key: str) -> str:
        if key == "confidence" and self.task.kind == "qa":  # a logit sum: "Confidence 1.2812" read as a probability
            return self.tr("Span score")
        return {"text": self.tr("Text"), "gold": self.tr("Gold"), "predicted": self.tr("Predicted"),
                "confidence": self.tr("Confidence"), "loss": self.tr("Loss")}[key]

    def column_of(self, key: str) -> int:
        return self._columns.index(key)

    def set_rows(self, rows: list[PredictionRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def update_gold(self, split: str, row: int, gold: Any) -> None:
        for i, r in enumerate(self.rows):
            if r.split == split and r.row == row:
                r.gold = gold
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(self._columns) - 1))

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
            return self._display(r, key)
        if role == SORT_ROLE:
            return self._sort_value(r, key)
        if role == Qt.ItemDataRole.ToolTipRole and key == "text":
            return self._display(r, key)
        if role == Qt.ItemDataRole.ForegroundRole and key == "predicted" and self.is_error(r):
            from PySide6.QtGui import QColor

            return QColor("#b00020")
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("confidence", "loss"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

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
        return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.4f}"

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


class PredictionsFilter(QSortFilterProxyModel):
    """Sorts by the numeric SORT_ROLE and keeps errors only and/or one confusion cell."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self._errors_only = False
        self._cell: tuple[str, str] | None = None

    def set_errors_only(self, on: bool) -> None:
        self.beginFilterChange()
        self._errors_only = bool(on)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_cell(self, cell: tuple[str, str] | None) -> None:
        self.beginFilterChange()
        self._cell = cell
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def refilter(self) -> None:
        """Apply the filters again after the source's values changed (a relabel)."""
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    @property
    def cell(self) -> tuple[str, str] | None:
        return self._cell

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if not isinstance(model, PredictionsModel) or source_row >= len(model.rows):
            return True
        r = model.rows[source_row]
        if self._errors_only and not model.is_error(r):
            return False
        if self._cell is not None and (r.gold, r.pred.get("label")) != self._cell:
            return False
        return True

    def lessThan(self, left: _Index, right: _Index) -> bool:
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        # A missing value (NaN) sorts as the smallest, so it never sits among real ones.
        if isinstance(a, float) and isinstance(b, float):
            a = -math.inf if math.isnan(a) else a
            b = -math.inf if math.isnan(b) else b
            return a < b
        return str(a) < str(b)
