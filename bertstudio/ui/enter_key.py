"""Enter on an item view's current row does what a double-click does (the Data table, the Runs table).

The shortcuts belong to the view alone. PySide6 drops a ``context`` given beside a slot in
QShortcut's constructor: made that way the shortcut was window-wide, and Enter in the Data page's
search box opened the Label page instead of searching. So the context is given alone and the slot
connected after.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView


def open_on_enter(view: QAbstractItemView, open_row: Callable[[Any], None]) -> None:
    """Return and Enter on ``view`` call ``open_row(view.currentIndex())`` when it is a row."""
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        shortcut = QShortcut(QKeySequence(key), view, context=Qt.ShortcutContext.WidgetShortcut)
        shortcut.activated.connect(lambda: view.currentIndex().isValid() and open_row(view.currentIndex()))
