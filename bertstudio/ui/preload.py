"""Import the heavy training modules on a background thread while the window sits idle.

``import torch`` / ``transformers`` and the engine cost seconds, and much of that
(loading shared libraries, executing module bodies) holds the GIL. Paid on the
training worker's thread at Start, it froze the GUI for 0.3-0.4 s at a time;
started a moment after the window shows, the same cost falls while the user is
still reading the screen, and Start finds the modules in ``sys.modules``.
Python's per-module import locks make a concurrent import from the worker safe:
it waits for the module this thread is loading instead of loading it twice.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
import time
from typing import Callable

from bertstudio.hf import LOCK, hf  # imported with this module on the GUI thread, never first on the preload thread

log = logging.getLogger(__name__)

# What a first run imports lazily, measured by diffing sys.modules around a run: transformers
# loads its model, tokenizer and loss modules on first attribute access, and peft/accelerate/
# scikit-learn/scipy come in through the engine and the metrics. The labelling assistant (on for
# a project unless its user turned it off) is loaded by every app that opens one: last, once the rest is in.
HEAVY_MODULES: tuple[str, ...] = (
    "torch", "transformers", "transformers.modeling_utils", "transformers.models.bert.modeling_bert",
    "transformers.models.auto.modeling_auto", "transformers.models.auto.tokenization_auto", "peft", "accelerate",
    "sklearn.metrics", "scipy.stats", "seqeval.metrics", "bertstudio.metrics", "bertstudio.tasks",
    "bertstudio.tasks.model", "bertstudio.train.engine", "bertstudio.train.predict", "bertstudio.assist.assistant",
)


_ready = threading.Event()  # set once HEAVY_MODULES are in: ensure_imported() is free from then on
_running = threading.Event()  # set while preload() imports HEAVY_MODULES
WAIT_SLICE_S = 0.1  # how often a job waiting for another thread's imports looks at its cancel flag


def preload(modules: tuple[str, ...] = HEAVY_MODULES, cancel: threading.Event | None = None) -> dict[str, float]:
    """Import ``modules`` in order; seconds per module (a failed one is logged, not raised).
    ``cancel``: read between modules; once set, the rest is left for a later call."""
    took: dict[str, float] = {}
    heavy = modules == HEAVY_MODULES
    with LOCK:  # no other bertstudio thread imports transformers meanwhile (see bertstudio/hf.py)
        if heavy:
            _running.set()
        try:
            _import_all(modules, took, cancel)
            if cancel is not None and cancel.is_set():
                return took  # not ready: the next ensure_imported() imports what is missing
            if _quitting():
                # The interpreter shuts down under an import (a quit seconds after start): importing again
                # re-registers torch's half-loaded native operators and the process died with a segfault.
                raise SystemExit("the app is quitting")
            if "transformers" in modules:
                hf("AutoConfig")  # and resolve the lazy names every thread takes from it
            if heavy:
                _ready.set()
        finally:
            _running.clear()
    log.debug("preloaded %s", took)
    return took


def _quitting() -> bool:
    """The interpreter is shutting down (the main thread has ended, or finalization began)."""
    return sys.is_finalizing() or not threading.main_thread().is_alive()


def _import_all(modules: tuple[str, ...], took: dict[str, float], cancel: threading.Event | None = None) -> None:
    for name in modules:
        start = time.perf_counter()
        if _quitting():  # the app quit while this daemon thread was still at work: nothing to say
            return
        if cancel is not None and cancel.is_set():
            return
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - the real import at Start reports it properly
            if not _quitting():  # ("can't register atexit after shutdown" on a quick quit)
                log.warning("preloading %s failed: %s", name, exc)
            continue
        took[name] = time.perf_counter() - start


def is_ready() -> bool:
    """Whether the heavy modules are all in (the preload finished)."""
    return _ready.is_set()


def is_running() -> bool:
    """Whether a thread is importing the heavy modules now."""
    return _running.is_set()


def ensure_imported(cancel: threading.Event | None = None, waiting: Callable[[], None] | None = None) -> bool:
    """On a job's thread, before it touches torch: the heavy modules, imported under the one
    lock (waiting for the preload thread if it is at work). Two threads importing torch,
    peft or transformers' lazy modules for the first time at once broke each other
    ("list.remove(x): x not in list" in torch._library, a lazy name missing), seen when
    pages were switched just after a project opened. Free once done: True.

    ``cancel``: the job's stop flag. The wait for the thread holding the lock (the preload's
    imports take 5-15 s on a slow laptop) looks at it every WAIT_SLICE_S, and this thread's own
    imports between modules; False, at once, when it is set before the modules are all in. A
    training run waited here deaf to Quit: the window hid, the process lived on until the
    imports were done and kept the project locked against a restarted app. ``waiting``: called
    once, before a wait, when the modules are not in yet (the job says what it waits for)."""
    if _ready.is_set():
        return True
    if waiting is not None:
        waiting()
    if cancel is None:
        preload()
        return True
    while not LOCK.acquire(timeout=WAIT_SLICE_S):  # another thread imports under it (the preload's)
        if cancel.is_set():
            return False
    try:
        if not _ready.is_set() and not cancel.is_set():
            preload(cancel=cancel)
        return _ready.is_set()
    finally:
        LOCK.release()


def preload_in_background(modules: tuple[str, ...] = HEAVY_MODULES) -> threading.Thread:
    """Start :func:`preload` on a daemon thread (it never keeps the app from quitting)."""
    from bertstudio.ui.gui_gc import collect_on_gui_thread

    collect_on_gui_thread()  # cycles are collected on the GUI thread, never on this one (ui/gui_gc.py)
    thread = threading.Thread(target=preload, args=(modules,), name="bertstudio-preload", daemon=True)
    thread.start()
    return thread
