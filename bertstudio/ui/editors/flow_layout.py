"""A layout that places widgets left to right and wraps them onto new lines.

Qt ships this only as an example (examples/widgets/layouts/flowlayout); it is
ported here because the label legend must wrap when a label set is long (UPOS
has 17 tags).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def lines_height(self, width: int, lines: int) -> int:
        """The height of the first ``lines`` lines at ``width`` (each as tall as its tallest item:
        a line of CJK names is taller than one of Latin names)."""
        return self._place(QRect(0, 0, width, 0), move=False, lines=lines)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        # all items on one line: QLayout.totalSizeHint() asks heightForWidth() of this width, and the
        # narrowest width would stack every item (17 UPOS tags: ~440 px the window could not shrink below)
        if not self._items:
            return self.minimumSize()
        hints = [item.sizeHint() for item in self._items]
        m = self.contentsMargins()
        width = sum(h.width() for h in hints) + self.spacing() * (len(hints) - 1) + m.left() + m.right()
        return QSize(width, max(h.height() for h in hints) + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _place(self, rect: QRect, *, move: bool, lines: int | None = None) -> int:
        x, y, line, started = rect.x(), rect.y(), 0, 1
        gap = self.spacing()
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > rect.right() and line > 0:
                if lines is not None and started == lines:
                    break
                x, y, line, started = rect.x(), y + line + gap, 0, started + 1
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + gap
            line = max(line, hint.height())
        return y + line - rect.y()
