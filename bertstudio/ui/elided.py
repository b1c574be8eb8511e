"""A one-line label that shortens its text with "…" when the window is narrow.

QLabel clips a line wider than its place (the status bar's project and assistant lines
were cut mid-word at 900 px); this one draws the text elided to its width, keeps the whole
of it in ``text()`` and shows it as the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel

MIN_CHARS = 12  # what stays of the text however narrow the window


class ElidedLabel(QLabel):
    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("x" * MIN_CHARS)), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
                                  self.palette(), self.isEnabled(), self.shown_text(), self.foregroundRole())

    def shown_text(self) -> str:
        """What the label shows now (elided to its width)."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())
