"""A layout that places widgets left to right and wraps them onto new lines.

Qt ships this only as an example (examples/widgets/layouts/flowlayout); it is
ported here because the label legend must wrap when a label set is long (UPOS
has 17 tags). Unlike the example, a line gives what it leaves of the width to
its horizontally expanding items, so a tool bar built on it reads as a
QHBoxLayout until the window is too narrow for one line (an 18-pt font).
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
        gap = self.spacing()
        rows: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = rect.x()
        for item in self._items:
            hint = item.sizeHint()
            if rows[-1] and x + hint.width() > rect.right():
                if lines is not None and len(rows) == lines:
                    break
                rows.append([])
                x = rect.x()
            rows[-1].append((item, hint))
            x += hint.width() + gap
        y = rect.y()
        for row in rows:
            if not row:
                continue
            height = max(hint.height() for _, hint in row)
            if move:
                self._move_row(row, rect, y, height)
            y += height + gap
        return max(0, y - gap - rect.y())

    def _move_row(self, row: list[tuple[QLayoutItem, QSize]], rect: QRect, y: int, height: int) -> None:
        """Place one line, each item centred on it; what it leaves of the width goes to its horizontally
        expanding items (a search box), so a line that fits reads as a QHBoxLayout would lay it out."""
        gap = self.spacing()
        spare = rect.width() - sum(hint.width() for _, hint in row) - gap * (len(row) - 1)
        growing = [item for item, _ in row if item.expandingDirections() & Qt.Orientation.Horizontal]
        share, extra = divmod(max(0, spare), len(growing)) if growing else (0, 0)
        x = rect.x()
        for item, hint in row:
            width = hint.width()
            if item in growing:
                width += share + (extra if item is growing[-1] else 0)
            item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), QSize(width, hint.height())))
            x += width + gap
