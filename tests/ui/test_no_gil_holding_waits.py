"""No test, benchmark or app code waits with PySide6's QTest.qWait.

QTest.qWait holds the GIL while it sleeps between event batches: a background Python thread
looping beside it ran at 0.11 million iterations a second against ~7 million beside
time.sleep, QEventLoop.exec or app.exec (PySide6 6.x, measured 2026-12-07). A script waiting
with it starved the import preload and the training worker, and saw Start sit at "Loading
model…" for minutes, which the app (app.exec) does not do (sweep newcomer4, defect 1). Tests
wait with qtbot.wait / qtbot.waitUntil (an event loop that lets the GIL go)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_waits_with_qtest_qwait():
    here = Path(__file__).resolve()
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for folder in ("bertstudio", "tests", "benchmarks") for path in sorted((ROOT / folder).rglob("*.py"))
                 if path.resolve() != here
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "qWait(" in line]
    assert offenders == []
