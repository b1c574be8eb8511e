"""The Results page's view of the predictions table: per-token kinds summarised per row.

A tagging row's gold and predicted values are whole tag lists, which a table column can
only cut off ("PROPN VERB DET VE…"). For a gold type with one label per token the two
columns become "Words" (how many) and "Wrong tags" (how many, and the first few as
``word PREDICTED≠GOLD``), sortable by count; the tooltip lists every word with its gold
and predicted tag. Other kinds pass through :class:`PredictionsFilter` unchanged.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from bertstudio.metrics.tagging import scored_tags
from bertstudio.ui.predictions_model import PredictionRow, PredictionsFilter, PredictionsModel

_Index = QModelIndex | QPersistentModelIndex
SHOWN_WRONG = 3  # wrong words named in the cell; the tooltip has them all


def wrong_words(r: PredictionRow, predicted: Any) -> list[int] | None:
    """Positions of the words whose predicted tag differs from gold (None: no gold to compare), as
    the metrics score them: a word the model did not read (no tag, null) counts as "O"."""
    if r.gold is None or predicted is None:
        return None
    predicted = scored_tags(predicted)
    return [i for i, (g, p) in enumerate(zip(r.gold, predicted)) if g != p] + \
        list(range(min(len(r.gold), len(predicted)), max(len(r.gold), len(predicted))))


def _shown_tag(tag: Any) -> str:
    """A predicted tag as the table shows it: a word the model did not read (null) as "∅", not "None"."""
    return "∅" if tag is None else str(tag)


class ResultsFilter(PredictionsFilter):
    def _per_token(self) -> PredictionsModel | None:
        model = self.sourceModel()
        return model if isinstance(model, PredictionsModel) and model.task.spec.gold.per_token else None

    def _key(self, model: PredictionsModel, column: int) -> str:
        return model._columns[column] if 0 <= column < len(model._columns) else ""

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        model = self._per_token()
        if model is not None and role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            key = self._key(model, section)
            if key == "gold":
                return self.tr("Words")
            if key == "predicted":
                return self.tr("Wrong tags")
        return super().headerData(section, orientation, role)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        model = self._per_token()
        if model is None or not index.isValid():
            return super().data(index, role)
        source = self.mapToSource(index)
        key = self._key(model, source.column())
        if key not in ("gold", "predicted") or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return super().data(index, role)
        r = model.rows[source.row()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._word_list(r, model.predicted_value(r))
        return self._summary(r, model.predicted_value(r), key)

    def _summary(self, r: PredictionRow, predicted: Any, key: str) -> str:
        tokens = list(r.example.get("tokens") or [])
        n = len(r.gold if r.gold is not None else predicted or [])
        if key == "gold":
            return str(n)
        wrong = wrong_words(r, predicted)
        if wrong is None:
            return "—"
        if not wrong:
            return self.tr("none")
        named = []
        for i in wrong[:SHOWN_WRONG]:
            word = tokens[i] if i < len(tokens) else f"#{i + 1}"
            p = _shown_tag(predicted[i]) if i < len(predicted) else "?"
            g = r.gold[i] if i < len(r.gold) else "?"
            named.append(f"{word} {p}≠{g}")
        more = ", …" if len(wrong) > SHOWN_WRONG else ""
        return self.tr("{k} of {n}: {words}").format(k=len(wrong), n=n, words=", ".join(named) + more)

    def _word_list(self, r: PredictionRow, predicted: Any) -> str:
        tokens = list(r.example.get("tokens") or [])
        gold, pred = list(r.gold or []), list(predicted or [])
        lines = [self.tr("word · gold · predicted")]
        wrong = set(wrong_words(r, pred) or []) if gold and pred else set()
        for i in range(max(len(tokens), len(gold), len(pred))):
            g, p = (gold[i] if i < len(gold) else "—"), (_shown_tag(pred[i]) if i < len(pred) else "—")
            mark = "  ✗" if gold and pred and i in wrong else ""
            lines.append(f"{tokens[i] if i < len(tokens) else '#' + str(i + 1)} · {g} · {p}{mark}")
        return "\n".join(lines)

    def sort_key(self, column: int) -> Callable[[int], Any]:
        model = self._per_token()
        key = self._key(model, column) if model is not None else ""
        if model is None or key not in ("gold", "predicted"):
            return super().sort_key(column)

        def count(source_row: int) -> float:  # words, or wrong tags (-1: no gold to compare)
            r = model.rows[source_row]
            if key == "gold":
                return float(len(r.gold if r.gold is not None else model.predicted_value(r) or []))
            wrong = wrong_words(r, model.predicted_value(r))
            return -1.0 if wrong is None else float(len(wrong))
        return count
