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
:data:`FULL_EVERY_S`. Even so each one froze the window 355-566 ms, a minute after start
and once a minute of work after that; so once the heavy imports are in
(:func:`bertstudio.ui.preload.is_ready`) their objects are frozen (``gc.freeze``, 60 ms
once) and full collections walk only what came after. Until then, while the preload imports, nothing is
collected: the imports' objects, still young, made each young collection 20-60 ms and each
middle one 290-390 ms (1.2-1.5 s of the GUI thread in the first 12 s after start); the price is
the imports' own garbage, which the freeze then keeps (about 10,000 objects, 7 MB). Whatever else is alive at that moment
(at most the project opened from the command line) is frozen with them and kept for the
session: collecting the frozen objects again while a project closes freed Qt objects in the
middle of the close and crashed (CI, test_results_kinds). Called by the app at start and by every background job's start, so tests that build pages
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


def collect_on_gui_thread(*, freeze: bool = False) -> None:
    """Install the GUI-thread collector once (call on the GUI thread, with a QApplication);
    ``freeze``: freeze the heavy imports' objects once they are in (the app; tests that build
    many windows in one process leave it off)."""
    global _collector
    if threading.current_thread() is not threading.main_thread():
        return
    if _collector is None:
        from PySide6.QtCore import QCoreApplication

        if QCoreApplication.instance() is None:  # no event loop to run the timer: leave Python's own
            return
        _collector = _Collector()
    _collector.freeze_wanted |= freeze


def installed() -> bool:
    return _collector is not None and not gc.isenabled()


def stop_freezing() -> None:
    """Withdraw a freeze request that has not been carried out, and give frozen objects back to
    the collector (the app's ``main`` when it returns: a process that goes on, such as a test
    run, builds many windows and must not keep them)."""
    if _collector is None:
        return
    _collector.freeze_wanted = False
    if _collector.frozen:
        gc.unfreeze()
        _collector.frozen = False


class _Collector:
    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self._last_full = time.monotonic()
        self.frozen = False
        self.freeze_wanted = False
        self.timer = QTimer()
        self.timer.timeout.connect(self.check)
        gc.disable()
        self.timer.start(INTERVAL_MS)

    def check(self) -> None:
        from bertstudio.ui import preload

        if self.freeze_wanted and not self.frozen:
            if preload.is_ready():
                gc.freeze()  # torch's, transformers' and the app's long-lived objects: never walked again
                self.frozen = True
                return
            if preload.is_running():
                return  # what is being imported is frozen in a moment: walking it now cost 20-390 ms a pass
        (c0, c1, c2), (t0, t1, t2) = gc.get_count(), gc.get_threshold()
        if c0 <= t0:
            return
        now = time.monotonic()
        if c1 > t1 and c2 > t2 and now - self._last_full >= FULL_EVERY_S:
            gc.collect(2)
            self._last_full = now
        else:
            gc.collect(1 if c1 > t1 else 0)
