"""Run as a script by tests/ui/test_jobs.py: many ThreadJobs end while the GUI thread waits the
way pytest-qt's qtbot.wait does (a QTimer connected, then disconnected, on every wait).

Before the job's body stayed on the GUI thread, every run of 30,000 jobs here hung on this
machine (5 of 5, within 40 s; none of 10 since): the job's thread in QObject::moveToThread
waiting for a pooled signal-slot mutex while holding the GIL, the GUI thread in
QObject::disconnect holding that mutex and waiting for the GIL."""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402
from pytestqt.qt_compat import qt_api  # noqa: E402

qt_api.set_qt_api("pyside6")
from pytestqt.wait_signal import MultiSignalBlocker  # noqa: E402

from bertstudio.ui.worker import ThreadJob  # noqa: E402


def main(n_jobs: int, at_once: int = 8) -> None:
    app = QApplication.instance() or QApplication([])
    ended = 0
    running: set[ThreadJob] = set()

    def on_ended(job: ThreadJob) -> None:
        nonlocal ended
        running.discard(job)
        ended += 1

    start = time.monotonic()
    while ended < n_jobs:
        while len(running) < at_once and ended + len(running) < n_jobs:
            job = ThreadJob(lambda: None, name="churn")
            running.add(job)
            job.ended.connect(lambda job=job: on_ended(job))
            job.start()
        MultiSignalBlocker(timeout=1, raising=False).wait()  # what every qtbot.wait does
        app.processEvents()
    print(f"ended {ended} jobs in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]))
