"""A Qt table model over the Arrow table of one split, read on demand in small blocks.

The model never materialises the rows: it keeps the split's ``pyarrow.Table``
(zero-copy from the ``datasets.Dataset``) and an optional numpy index array of
the rows that pass the current filter/search. ``data()`` converts one block of
``BLOCK`` rows to Python values the first time a row of it is shown and keeps
a few blocks, so scrolling through 550,000 rows costs what the viewport shows.
Filtering and search are vectorised over whole Arrow columns
(``pyarrow.compute``), never a Python loop over the rows on the GUI thread.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from bertstudio.data.kinds import get_spec
from bertstudio.data.project_labels import pred_now, value_now
from bertstudio.ui.theme import text_colour

BLOCK = 256
SUGGESTION_CONFIDENCE_ROLE = Qt.ItemDataRole.UserRole + 1  # the Suggested column's confidence (0-1, nan: none)
_MAX_BLOCKS = 16
_CELL_CHARS = 300  # long contexts are cut in the table; the editor shows them whole

# Column headers (translated at use). Which columns a kind shows comes from its spec
# (``spec.view_columns``); its gold column is titled by what the gold value is.
_CONTEXT = "ExampleTableModel"  # spelled out in each QT_TRANSLATE_NOOP below: lupdate reads literals only
COLUMN_TITLES: dict[str, str] = {
    "text": QT_TRANSLATE_NOOP("ExampleTableModel", "Text"),
    "text_pair": QT_TRANSLATE_NOOP("ExampleTableModel", "Second text"),
    "tokens": QT_TRANSLATE_NOOP("ExampleTableModel", "Tokens"),
    "question": QT_TRANSLATE_NOOP("ExampleTableModel", "Question"),
    "context": QT_TRANSLATE_NOOP("ExampleTableModel", "Context"),
    "title": QT_TRANSLATE_NOOP("ExampleTableModel", "Title"),
    "id": QT_TRANSLATE_NOOP("ExampleTableModel", "Id"),
}
GOLD_TITLES: dict[str, str] = {
    "label": QT_TRANSLATE_NOOP("ExampleTableModel", "Label"),
    "score": QT_TRANSLATE_NOOP("ExampleTableModel", "Score"),
    "tags": QT_TRANSLATE_NOOP("ExampleTableModel", "Tags"),
    "answers": QT_TRANSLATE_NOOP("ExampleTableModel", "Answers"),
}


def column_title(kind: str, column: str) -> str:
    """The translated header of ``column`` in a table of ``kind`` examples."""
    spec = get_spec(kind)
    source = GOLD_TITLES.get(spec.gold.name, column) if column == spec.gold_column else COLUMN_TITLES.get(column, column)
    return QCoreApplication.translate(_CONTEXT, source)


def arrow_table(examples: Any) -> pa.Table:
    """The split's rows as one Arrow table (zero-copy unless the dataset has an indices mapping)."""
    ds = examples.dataset
    return ds.with_format("arrow")[0 : len(ds)] if len(ds) else ds.data.table.slice(0, 0)


def _as_strings(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """A text column as strings: lists of tokens joined by spaces, anything else cast."""
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        return pc.binary_join(column, " ")
    if pa.types.is_struct(column.type):
        return pc.binary_join(pc.struct_field(column, "text"), " ")
    return column if pa.types.is_string(column.type) else pc.cast(column, pa.string())


def _nfc(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """``column`` in NFC; ASCII is its own NFC, so English text skips the cost."""
    return column if pc.all(pc.string_is_ascii(column)).as_py() is not False else pc.utf8_normalize(column, "NFC")


def search_rows(table: pa.Table, columns: tuple[str, ...], needle: str) -> np.ndarray:
    """Row numbers whose text columns contain ``needle`` (case-insensitive), vectorised. Both
    sides are compared in NFC: 'café' typed finds the NFD 'Café' a Mac or a scraper stored."""
    hit = np.zeros(table.num_rows, dtype=bool)
    needle = unicodedata.normalize("NFC", needle)
    for name in columns:
        if name not in table.column_names:
            continue
        found = pc.match_substring(_nfc(_as_strings(table[name])), needle, ignore_case=True)
        hit |= pc.fill_null(found, False).to_numpy(zero_copy_only=False)
    return np.flatnonzero(hit)


def unlabelled_rows(table: pa.Table, gold: str) -> np.ndarray:
    return np.flatnonzero(pc.is_null(table[gold]).to_numpy(zero_copy_only=False))


def latest_predictions(project: Any) -> tuple[str | None, dict[int, dict[str, Any]]]:
    """The newest run of ``project`` (None: no project) as (split, {row of that split: prediction}),
    each at the project row the run recorded for it (bertstudio.train.rundir.read_predictions;
    a run that recorded none is taken as dev row ``index``; none on rows replaced since)."""
    runs_dir = project.runs_dir if project is not None else None
    if runs_dir is None or not Path(runs_dir).is_dir():
        return None, {}
    files = sorted(Path(runs_dir).glob("*/predictions.jsonl"), key=lambda p: p.stat().st_mtime)
    if not files:
        return None, {}
    from bertstudio.train.rundir import read_predictions, run_names_now
    from bertstudio.ui.run_words import removed_marker

    found = [p for p in read_predictions(files[-1].parent, splits=project.split_info)
             if p.split is not None and p.row >= 0]
    split = found[0].split if found else "dev"
    names = run_names_now(files[-1].parent, project, kind=getattr(project, "kind", None))
    labels = list(getattr(project, "labels", []))
    removed = removed_marker()
    # under today's label names: a run made before a rename predicts the old name of the same class
    return split, {p.row: {"index": p.index, "gold": value_now(p.gold, names, labels, removed=removed),
                   **pred_now(p.pred, names, labels, removed=removed)}
                   for p in found if p.split == split}


def format_value(kind: str, column: str, value: Any) -> str:
    """A cell's text: the gold column as its gold type shows it, long text cut."""
    if value is None:
        return ""
    spec = get_spec(kind)
    if column == spec.gold_column:
        return spec.gold.short_text(value)
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    text = str(value)
    return text if len(text) <= _CELL_CHARS else text[:_CELL_CHARS] + "…"


def tags_text(tokens: Any, tags: Any) -> str:
    """A tag column's cell: BIO tags as their entities ("[LOC] New York · [PER] Mary", "no entity"),
    which fit a narrow column where "O O B-LOC I-LOC O B-PER" was cut; plain tags (POS) as they are."""
    if tags is None:
        return "—"
    tags = [str(t) for t in tags]
    if not all(t == "O" or t[:2] in ("B-", "I-") for t in tags) or not isinstance(tokens, list) \
            or len(tokens) != len(tags):
        return " ".join(tags)
    from bertstudio.ui.editors.tag_edits import entity_phrases

    spans = entity_phrases(tokens, tags)
    return " · ".join(spans) if spans else QCoreApplication.translate("ExampleTableModel", "no entity")


class ExampleTableModel(QAbstractTableModel):
    """Rows of one split (optionally only those in ``index``), fetched in blocks on demand."""

    def __init__(self, kind: str = "sentence", table: pa.Table | None = None, parent: Any = None,
                 colours: dict[str, str] | None = None, gold_of: Callable[[int], Any] | None = None) -> None:
        super().__init__(parent)
        # The Arrow table holds the gold values as imported/compacted; edits since then live in the
        # project's overlay, so shown rows ask ``gold_of(row)`` (a dict lookup) for the current value.
        self._gold_of = gold_of
        self._kind = kind
        self._table = table
        self._index: np.ndarray | None = None
        self._blocks: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()
        self._colours = dict(colours or {})
        # The labelling assistant's "Suggested" column, last (None: no column): a model's guess, never gold.
        self._suggest: Callable[[int], Any] | None = None

    # -- contents ------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self._kind

    @property
    def table(self) -> pa.Table | None:
        return self._table

    def set_table(self, kind: str, table: pa.Table | None, index: np.ndarray | None = None,
                  gold_of: Callable[[int], Any] | None = None) -> None:
        self.beginResetModel()
        self._kind, self._table, self._index = kind, table, index
        self._gold_of = gold_of
        self._blocks.clear()
        self.endResetModel()

    def set_index(self, index: np.ndarray | None) -> None:
        """Show only the rows in ``index`` (None: all rows)."""
        self.beginResetModel()
        self._index = None if index is None else np.asarray(index, dtype=np.int64)
        self._blocks.clear()
        self.endResetModel()

    def invalidate(self) -> None:
        """Forget the cached rows (gold values renamed in bulk) and repaint."""
        self.beginResetModel()
        self._blocks.clear()
        self.endResetModel()

    def set_suggestions(self, suggest: Callable[[int], Any] | None) -> None:
        """Show ``suggest(source_row)`` (a Suggestion or None) in a last "Suggested" column."""
        self.beginResetModel()
        self._suggest = suggest
        self.endResetModel()

    def suggestions_changed(self) -> None:
        if self._suggest is not None and self.rowCount():
            column = self.columnCount() - 1
            self.dataChanged.emit(self.index(0, column), self.index(self.rowCount() - 1, column))

    def set_colours(self, colours: dict[str, str]) -> None:
        self._colours = dict(colours)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def refresh_row(self, source_row: int) -> None:
        """The project changed one gold value: drop that row's cached block, repaint the row."""
        view_row = self.view_row(source_row)
        if view_row < 0:
            return
        self._blocks.pop(view_row // BLOCK, None)
        self.dataChanged.emit(self.index(view_row, 0), self.index(view_row, self.columnCount() - 1))

    def source_row(self, view_row: int) -> int:
        return int(self._index[view_row]) if self._index is not None else view_row

    def view_row(self, source_row: int) -> int:
        if self._index is None:
            return source_row if self._table is not None and 0 <= source_row < self._table.num_rows else -1
        pos = int(np.searchsorted(self._index, source_row))
        return pos if pos < len(self._index) and self._index[pos] == source_row else -1

    def row_values(self, view_row: int) -> dict[str, Any]:
        block = view_row // BLOCK
        rows = self._blocks.get(block)
        if rows is None:
            rows = self._load_block(block)
        else:
            self._blocks.move_to_end(block)
        return rows[view_row - block * BLOCK]

    def _load_block(self, block: int) -> list[dict[str, Any]]:
        assert self._table is not None
        start, stop = block * BLOCK, min((block + 1) * BLOCK, self.rowCount())
        cols = [c for c in get_spec(self._kind).view_columns if c in self._table.column_names]
        if self._index is None:
            part = self._table.select(cols).slice(start, stop - start)
        else:
            part = self._table.select(cols).take(pa.array(self._index[start:stop]))
        rows = part.to_pylist()
        gold = get_spec(self._kind).gold_column
        if self._gold_of is not None:
            for i, values in enumerate(rows):
                values[gold] = self._gold_of(self.source_row(start + i))
        self._blocks[block] = rows
        if len(self._blocks) > _MAX_BLOCKS:
            self._blocks.popitem(last=False)
        return rows

    # -- QAbstractTableModel --------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        if parent.isValid() or self._table is None:
            return 0
        return len(self._index) if self._index is not None else self._table.num_rows

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(get_spec(self._kind).view_columns) + (self._suggest is not None)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < self.rowCount()):
            return None
        spec = get_spec(self._kind)
        if index.column() == len(spec.view_columns):
            return self._suggestion_data(index, role)
        column = spec.view_columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            values = self.row_values(index.row())
            value = values.get(column)
            if column == spec.gold_column and spec.gold.per_token:  # a narrow column: entities, not a tag per word
                text = tags_text(values.get("tokens"), value)
                return text if role == Qt.ItemDataRole.DisplayRole or len(text) > 16 else None
            text = format_value(self._kind, column, value)
            if role == Qt.ItemDataRole.ToolTipRole:
                return text if len(text) > 60 else None
            return text
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole) and column == spec.gold_column \
                and spec.has_label_set and not spec.gold.per_token:
            colour = self._colours.get(self.row_values(index.row()).get(column) or "")
            if not colour:
                return None
            background = QColor(colour).lighter(160)
            if role == Qt.ItemDataRole.BackgroundRole:
                return background
            # the text on that background in whichever of black and white reads (a dark theme's white text
            # vanished on the lightened label colours, 1.0-1.9:1)
            return QColor(text_colour(background.name()))
        if role == Qt.ItemDataRole.UserRole:
            return self.source_row(index.row())
        return None

    def _suggestion_data(self, index: QModelIndex | QPersistentModelIndex, role: int) -> Any:
        from bertstudio.ui.assist_controller import source_text, suggestion_text

        if role == Qt.ItemDataRole.UserRole:
            return self.source_row(index.row())
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, SUGGESTION_CONFIDENCE_ROLE):
            return None
        suggestion = self._suggest(self.source_row(index.row())) if self._suggest is not None else None
        if suggestion is None:
            return None
        if role == SUGGESTION_CONFIDENCE_ROLE:
            return suggestion.confidence
        text = (tags_text(self.row_values(index.row()).get("tokens"), suggestion.value)
                if isinstance(suggestion.value, list) else suggestion_text(suggestion))
        return text if role == Qt.ItemDataRole.DisplayRole else f"{text} ({source_text(suggestion.source)})"

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and self._suggest is not None \
                and section == len(get_spec(self._kind).view_columns):
            return QCoreApplication.translate("ExampleTableModel", "Suggested")
        if orientation == Qt.Orientation.Horizontal:
            if 0 <= section < self.columnCount():
                return column_title(self._kind, get_spec(self._kind).view_columns[section])
            return None
        return str(self.source_row(section) + 1) if 0 <= section < self.rowCount() else None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
