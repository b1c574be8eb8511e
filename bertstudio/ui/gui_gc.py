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
timer instead (the usual answer to "Qt objects collected on the wrong thread", as
pyqtgraph's ``GarbageCollector``), generation by generation as the thresholds say. A full
collection walks every object (torch, transformers and a model: about 450,000, 350 ms
on this machine), and CPython itself runs one only when the long-lived objects have grown
by a quarter, which a timer cannot see; so a full one runs at most every
:data:`FULL_EVERY_S`. (``gc.freeze`` after the imports would make full collections cheap,
but whatever is alive then, the first project's objects included, would never be
collected again: not done.)
Called by the app at start and by every background job's start, so tests that build pages
without the app get it too. Idempotent.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

_collector: Any = None  # made on the GUI (main) thread only: no lock needed

INTERVAL_MS = 500
FULL_EVERY_S = 60.0


def collect_on_gui_thread() -> None:
    """Install the GUI-thread collector once (call on the GUI thread, with a QApplication)."""
    global _collector
    if _collector is not None or threading.current_thread() is not threading.main_thread():
        return
    from PySide6.QtCore import QCoreApplication

    if QCoreApplication.instance() is None:  # no event loop to run the timer: leave Python's own
        return
    _collector = _Collector()


def installed() -> bool:
    return _collector is not None and not gc.isenabled()


class _Collector:
    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self._last_full = time.monotonic()
        self.timer = QTimer()
        self.timer.timeout.connect(self.check)
        gc.disable()
        self.timer.start(INTERVAL_MS)

    def check(self) -> None:
        (c0, c1, c2), (t0, t1, t2) = gc.get_count(), gc.get_threshold()
        if c0 <= t0:
            return
        now = time.monotonic()
        if c1 > t1 and c2 > t2 and now - self._last_full >= FULL_EVERY_S:
            gc.collect(2)
            self._last_full = now
        else:
            gc.collect(1 if c1 > t1 else 0)
