"""The installed Qt binding keeps Python's reference counts straight where the app leans on it.

PySide6 6.12.0 returned ``True`` from ``SignalInstance.emit`` without a reference of its
own: every emit lowered ``True``'s count by one, and after a few hundred (the progress
signals of one training run) the interpreter aborted with "bool_dealloc: deallocating
True or False". pyproject.toml excludes that version; this test fails on it.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    progressed = Signal(float, str)
    ended = Signal()


def test_emitting_signals_leaves_the_reference_count_of_true_alone(qapp):
    emitter = _Emitter()
    seen: list[float] = []
    emitter.progressed.connect(lambda value, _text: seen.append(value))
    emitter.ended.connect(lambda: None)
    before = sys.getrefcount(True)
    for i in range(200):
        emitter.progressed.emit(i / 200, "step")
        emitter.ended.emit()
    assert len(seen) == 200
    assert abs(sys.getrefcount(True) - before) < 20  # 6.12.0: 400 fewer
