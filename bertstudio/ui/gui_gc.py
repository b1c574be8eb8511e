"""Python's cyclic garbage collection only on the GUI thread.

CPython collects cycles on whichever thread happens to allocate past the threshold:
a training worker deep-copying a model, a preload or assistant thread. When that
collection frees a PySide object (a page, a menu, a plot left in a cycle by an earlier
view), Qt destroys it on that thread: ``~QObject`` takes one of Qt's pooled signal-slot
mutexes and PySide's wrapper then waits for the GIL, while the GUI thread, holding the
GIL, waits for the same mutex (caught with py-spy in the UI tests: the worker in
``gc_collect_main -> QObject::~QObject``, the GUI thread in ``QObject::~QObject`` of an
object PySide had deferred to it). Neither moves again.

:func:`collect_on_gui_thread` turns automatic collection off and collects on a GUI-thread
timer instead, generation by generation as the thresholds say (pyqtgraph's
``GarbageCollector``, the usual answer to "Qt objects collected on the wrong thread").
Called by the app at start and by every background job's start, so tests that build
pages without the app get it too. Idempotent.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

_collector: Any = None
_lock = threading.Lock()

INTERVAL_S = 0.5


def collect_on_gui_thread() -> None:
    """Install the GUI-thread collector once (call on the GUI thread, with a QApplication)."""
    global _collector
    if _collector is not None or threading.current_thread() is not threading.main_thread():
        return
    from PySide6.QtCore import QCoreApplication

    if QCoreApplication.instance() is None:  # no event loop to run the timer: leave Python's own
        return
    with _lock:
        if _collector is None:
            from pyqtgraph.util.garbage_collector import GarbageCollector

            _collector = GarbageCollector(interval=INTERVAL_S)


def installed() -> bool:
    return _collector is not None and not gc.isenabled()
