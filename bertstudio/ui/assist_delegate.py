"""How the Data table draws the labelling assistant's "Suggested" column.

A suggestion is a model's guess, not a label: it is drawn in italic grey text over a
faint bar as wide as the model's confidence, so it never reads like the coloured gold
column beside it. The text and the confidence come from the table model
(``DisplayRole`` and :data:`~bertstudio.ui.data_model.SUGGESTION_CONFIDENCE_ROLE`).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from bertstudio.ui.data_model import SUGGESTION_CONFIDENCE_ROLE

BAR = QColor(0, 114, 178, 40)  # the loop's blue, faint


class SuggestionDelegate(QStyledItemDelegate):
    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.font.setItalic(True)
        grey = option.palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
        option.palette.setColor(QPalette.ColorRole.Text, grey)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        confidence = index.data(SUGGESTION_CONFIDENCE_ROLE)
        if isinstance(confidence, float) and confidence == confidence and not option.state & QStyle.StateFlag.State_Selected:
            rect = QRect(option.rect)
            rect.setWidth(int(rect.width() * max(0.0, min(1.0, confidence))))
            painter.fillRect(rect, BAR)
        super().paint(painter, option, index)
