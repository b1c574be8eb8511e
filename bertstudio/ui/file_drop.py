"""Files dropped on the main window: a data file dragged from the file manager opens Import.

An event filter on the window accepts a drag that carries one local file (a folder or
a web link is refused, so the cursor says no) and, on the drop, emits
``file_dropped(path)``. The signal is queued after the drop returns: the Import dialog
runs its own event loop, which must not start inside the drag-and-drop handler (the
source application waits for the drop to finish).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, QTimer, Signal
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QWidget


def dropped_file(mime: QMimeData | None) -> str | None:
    """The one local file a drag carries, else None."""
    if mime is None or not mime.hasUrls():
        return None
    files = [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]
    if len(files) != 1 or not Path(files[0]).is_file():
        return None
    return files[0]


class FileDropFilter(QObject):
    file_dropped = Signal(str)

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        what = event.type()  # a Qt event type (not a task kind)
        if what not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDropEvent)  # QDragEnterEvent and QDragMoveEvent are QDropEvents
        path = dropped_file(event.mimeData())
        if path is None:
            event.ignore()
            return True
        event.acceptProposedAction()
        if what == QEvent.Type.Drop:
            QTimer.singleShot(0, self, lambda: self.file_dropped.emit(path))
        return True
