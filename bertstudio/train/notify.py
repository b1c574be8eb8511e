"""Delivering events: to the run's history.jsonl and to every callback.

A callback that raises does not end the run: the error is logged with its
traceback (once per callback, later ones are counted) and the run goes on; the
training result must not depend on a display or a logger failing.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

from bertstudio.train.events import Control, Event

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, callbacks: Iterable[Callable[[Event, Control], None]] = ()) -> None:
        self.callbacks = list(callbacks)
        self.folder: Any = None  # a RunFolder while the run writes one
        self.main = True  # False on the non-main processes of a multi-process run
        self.errors: dict[int, int] = {}
        self._spare = Control()

    def __call__(self, event: Event, control: Control | None = None) -> None:
        if not self.main:
            return
        if self.folder is not None:
            self.folder.log_event(event)
        control = control if control is not None else self._spare
        for i, cb in enumerate(self.callbacks):
            try:
                cb(event, control)
            except Exception:  # noqa: BLE001 - see module docstring
                self.errors[i] = self.errors.get(i, 0) + 1
                if self.errors[i] == 1:
                    log.exception("callback %r raised on %s event; the run goes on", cb, event.kind)
