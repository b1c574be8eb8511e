"""JobWorker (ui/jobs.py): a Qt-free job on the app's one thread runner, ThreadJob, with its
progress, cancel flag and outcome as signals on the GUI thread."""

from __future__ import annotations

import threading

import pytest

from bertstudio.errors import DataError
from bertstudio.ui.jobs import JobWorker
from bertstudio.ui.worker import ThreadJob


def _outcomes(worker: JobWorker) -> list[tuple]:
    seen: list[tuple] = []
    on_gui = threading.current_thread
    worker.progressed.connect(lambda f, m: seen.append(("progressed", f, m, on_gui() is threading.main_thread())))
    worker.finished.connect(lambda r: seen.append(("finished", r)))
    worker.failed.connect(lambda m: seen.append(("failed", m)))
    worker.cancelled.connect(lambda: seen.append(("cancelled",)))
    return seen


def _run(qtbot, fn, *, cancel: bool = False) -> list[tuple]:
    worker = JobWorker(fn, name="test-job", throttle_s=60.0)
    seen = _outcomes(worker)
    if cancel:
        worker.cancel()
    job = worker.start()
    assert isinstance(job, ThreadJob)
    qtbot.waitUntil(lambda: not job.is_running() and any(s[0] != "progressed" for s in seen), timeout=10_000)
    assert not worker.is_running() and worker.wait(1000)
    return seen


def test_the_result_and_throttled_progress_arrive_on_the_gui_thread(qtbot):
    threads: list[str] = []

    def job(progress, cancel):
        threads.append(threading.current_thread().name)
        for i in range(5):
            progress(i / 10, f"step {i}")  # throttled: only the first goes out
        progress(1.0, "done")  # the last always goes out
        return {"answer": 42}

    seen = _run(qtbot, job)
    assert seen == [("progressed", 0.0, "step 0", True), ("progressed", 1.0, "done", True), ("finished", {"answer": 42})]
    assert threads != [threading.main_thread().name]


@pytest.mark.parametrize(("error", "message"), [(DataError("the file is empty", path="x.csv"), None),
                                                 (ValueError("boom"), "ValueError: boom")])
def test_an_error_ends_as_failed_with_one_line(qtbot, error, message):
    def job(progress, cancel):
        raise error

    assert _run(qtbot, job) == [("failed", message or str(error))]


def test_a_cancelled_job_ends_as_cancelled_unless_it_returned_a_result(qtbot):
    def stops(progress, cancel):
        assert cancel.is_set()
        raise DataError("stopped")

    assert _run(qtbot, stops, cancel=True) == [("cancelled",)]
    assert _run(qtbot, lambda progress, cancel: None, cancel=True) == [("cancelled",)]
    assert _run(qtbot, lambda progress, cancel: "partial", cancel=True) == [("finished", "partial")]


def test_a_dropped_worker_still_reports(qtbot):
    """The page may drop its reference while the job runs: ThreadJob keeps the job (and so the worker) alive."""
    release = threading.Event()
    seen: list = []
    worker = JobWorker(lambda progress, cancel: release.wait(10) and "done")
    worker.finished.connect(seen.append)
    worker.start()
    del worker
    release.set()
    qtbot.waitUntil(lambda: seen == ["done"] and not ThreadJob._running, timeout=10_000)


@pytest.mark.parametrize("fails", [False, True])
def test_the_jobs_body_is_destroyed_on_the_gui_thread(qtbot, fails):
    """Destroyed on the job's thread (deleteLater as the thread finished), the body's ~QObject
    took the GIL while holding one of Qt's pooled signal-slot mutexes; the GUI thread, holding
    the GIL while pyqtgraph disconnected a signal under the same mutex, waited for it: CI hung
    for 90 minutes in tests/ui/test_empty_project_flow.py. No Python-made QObject dies off the
    GUI thread now."""
    from PySide6.QtCore import Qt

    go = threading.Event()

    def fn():
        go.wait(10)
        if fails:
            raise DataError("refused")
        return 1

    job = ThreadJob(fn, name="test-body")
    job.start()
    destroyed_on_gui: list[bool] = []
    job._body.destroyed.connect(lambda *_: destroyed_on_gui.append(threading.current_thread() is threading.main_thread()),
                                Qt.ConnectionType.DirectConnection)
    go.set()
    qtbot.waitUntil(lambda: bool(destroyed_on_gui), timeout=10_000)
    assert destroyed_on_gui == [True]
    assert job.wait(1000) and not job.is_running()


def test_the_jobs_body_never_changes_thread(qtbot):
    """The body is called on the job's thread but lives on the GUI thread throughout: moving it
    back at the end of the job (QObject::moveToThread, on the job's thread, holding the GIL)
    deadlocked against the GUI thread's disconnects. See ui/worker._Body."""
    from PySide6.QtCore import QCoreApplication, QThread

    gui = QCoreApplication.instance().thread()
    seen: list[tuple[bool, bool]] = []
    job = ThreadJob(lambda: seen.append((QThread.currentThread() is not gui, job._body.thread() is gui)), name="test-body")
    job.start()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=10_000)
    assert seen == [(True, True)]  # ran off the GUI thread, its body never left it


def test_thousands_of_jobs_end_while_the_gui_thread_waits_without_deadlock():
    """A run of tests/ui hung in a qtbot.wait (tests/ui/test_import_survey.py) on that deadlock;
    thread_churn.py reproduces it. A hang is a failure here, not a stuck suite."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).with_name("thread_churn.py")
    try:
        done = subprocess.run([sys.executable, str(script), "30000"], capture_output=True, text=True, timeout=150)
    except subprocess.TimeoutExpired:
        pytest.fail("30,000 jobs did not end within 150 s: a thread is deadlocked (see ui/worker._Body)")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ended 30000 jobs" in done.stdout


def test_cycles_holding_qt_objects_are_collected_on_the_gui_thread_not_a_jobs(qtbot):
    """A worker allocating (a model's deepcopy) triggered Python's cyclic collection on its own
    thread, which destroyed a PySide object left in a cycle by a view: ~QObject there
    deadlocked with the GUI thread (ui/gui_gc.py). Collection now runs on a GUI-thread timer."""
    import gc

    from PySide6.QtCore import QObject, Qt

    from bertstudio.ui import gui_gc

    destroyed_on_gui: list[bool] = []

    def make_garbage() -> None:
        obj = QObject()
        obj.cycle = obj  # only the cyclic collector frees it
        obj.destroyed.connect(lambda *_: destroyed_on_gui.append(threading.current_thread() is threading.main_thread()),
                              Qt.ConnectionType.DirectConnection)

    kept: list = []

    def allocate() -> None:
        kept.append([[i] for i in range(200_000)])  # kept: far past gen-0's threshold of 700 live containers

    job = ThreadJob(allocate, name="test-gc")
    job.start()  # installs the GUI-thread collector
    assert gui_gc.installed() and not gc.isenabled()
    assert job.wait(10_000)
    gc.collect(0)  # the garbage below is then the newest, as in the hang (the youngest generation only: a full
    # collection in a test body also frees other tests' garbage, and two such segfaulted CI)
    make_garbage()
    job = ThreadJob(allocate, name="test-gc-2").start()
    assert job.wait(10_000)  # the GUI thread blocked in wait(): no Python runs on it meanwhile
    qtbot.waitUntil(lambda: bool(destroyed_on_gui), timeout=10_000)
    assert destroyed_on_gui == [True]


def test_a_heavy_job_waits_for_the_first_imports_under_the_one_lock(qtbot, monkeypatch):
    """Two threads importing torch & co for the first time at once broke each other (a
    ValueError inside torch._library); a job that uses torch first takes the import lock,
    so it waits while the preload thread (or another job) is importing."""
    from bertstudio.hf import LOCK
    from bertstudio.ui import preload

    monkeypatch.setattr(preload, "_ready", threading.Event())  # as in a fresh app: nothing preloaded yet
    at_lock = threading.Event()  # told by the job as it starts to wait (it waits for the lock in slices now,
    # looking at its cancel flag, and calls preload() only once it holds the lock)
    ran = threading.Event()
    plain_ran = threading.Event()
    with LOCK:  # the preload thread at work
        heavy = ThreadJob(ran.set, name="test-heavy", heavy=True, waiting=at_lock.set).start()
        plain = ThreadJob(plain_ran.set, name="test-plain").start()
        assert plain_ran.wait(5)  # a job that needs no torch does not wait
        assert at_lock.wait(5)  # the heavy job has reached the import lock...
        assert not ran.wait(0.3)  # ...and stays there while it is held
    assert heavy.wait(60_000) and ran.is_set()
    assert preload._ready.is_set() and plain.wait(1000)


@pytest.mark.parametrize("stop", ["cancel", "quit"])
def test_a_heavy_job_stopped_while_the_imports_load_ends_at_once_without_running(qtbot, monkeypatch, stop):
    """A heavy job (the Train page's parameter count and time estimate) waited for the preload's imports
    deaf to everything: after Quit the app's ThreadJob.wait_all waited for it until they were done (up
    to a minute), and its body then ran for a project already closed. Its cancel flag, or the app's
    quit, now ends the wait at once and the body never runs."""
    from bertstudio.hf import LOCK
    from bertstudio.ui import preload

    monkeypatch.setattr(preload, "_ready", threading.Event())  # as in a fresh app: nothing preloaded yet
    monkeypatch.setattr(ThreadJob, "quitting", threading.Event())  # this test's quit only
    waiting, ran, cancel = threading.Event(), threading.Event(), threading.Event()
    results: list = []
    with LOCK:  # the preload thread at work, for the whole test
        job = ThreadJob(ran.set, name="test-heavy", heavy=True, cancel=cancel, waiting=waiting.set)
        job.succeeded.connect(results.append)
        job.start()
        assert waiting.wait(5)  # told what it waits for
        if stop == "cancel":
            cancel.set()
            assert job.wait(5000)
        else:
            ThreadJob.quit_all()  # what the app's aboutToQuit calls
            assert not job.is_running()
        assert not ran.is_set() and not preload._ready.is_set()
    qtbot.waitUntil(lambda: results == [None], timeout=5000)


def test_full_collections_are_rate_limited(qtbot, monkeypatch):
    """A full collection walks every object (350 ms with torch and a model loaded): the timer
    runs one at most every FULL_EVERY_S."""
    import gc

    from bertstudio.ui import gui_gc

    ThreadJob(lambda: None, name="test-install").start().wait(5000)
    collector = gui_gc._collector
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(("collect", generation)) or 0)
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(gc, "get_count", lambda: (701, 11, 11))  # every generation past its threshold
    collector._last_full = __import__("time").monotonic()
    collector.check()
    assert calls == [("collect", 1)]  # a full one ran less than FULL_EVERY_S ago
    collector._last_full -= gui_gc.FULL_EVERY_S
    collector.check()
    assert calls[-1] == ("collect", 2)
    collector.check()
    assert calls[-1] == ("collect", 1)  # and not again at once
    monkeypatch.setattr(gc, "get_count", lambda: (5, 11, 11))
    collector.check()
    assert len(calls) == 3  # under gen 0's threshold: nothing


def test_nothing_is_collected_while_the_preload_imports_what_the_app_will_freeze(qtbot, monkeypatch):
    """While the preload imported torch and transformers, the young objects it made cost each
    timer collection 20-60 ms and each middle one 290-390 ms of the GUI thread (1.2-1.5 s in
    the first 12 s after start); they are frozen a moment later, so the app waits for that."""
    import gc

    from bertstudio.ui import gui_gc, preload

    ThreadJob(lambda: None, name="test-install").start().wait(5000)
    collector = gui_gc._collector
    calls: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(generation) or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(-1))
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(gc, "get_count", lambda: (701, 11, 0))
    monkeypatch.setattr(collector, "frozen", False)
    monkeypatch.setattr(collector, "freeze_wanted", False)
    monkeypatch.setattr(preload, "_ready", threading.Event())
    seen: list[bool] = []
    monkeypatch.setattr(preload, "_import_all", lambda modules, took, cancel=None: seen.append(preload.is_running()))
    monkeypatch.setattr(preload, "hf", lambda name: None)
    preload.preload()
    assert seen == [True] and not preload.is_running() and preload.is_ready()  # set only while importing
    monkeypatch.setattr(preload, "_ready", threading.Event())
    monkeypatch.setattr(preload, "_running", threading.Event())
    preload._running.set()  # the preload thread at work
    collector.check()
    assert calls == [1]  # no freeze asked for (tests): collected as usual
    gui_gc.collect_on_gui_thread(freeze=True)  # the app
    collector.check()
    assert calls == [1]  # waits for the freeze
    preload._running.clear()  # the preload ended without its modules (an import failed)
    collector.check()
    assert calls == [1, 1]  # collected as usual
    preload._ready.set()
    collector.check()
    assert calls == [1, 1, -1] and collector.frozen


def test_once_the_heavy_imports_are_in_the_app_freezes_them_and_gives_them_back_when_main_returns(qtbot, monkeypatch):
    """Full collections walked torch's and transformers' ~550,000 objects (355-566 ms, once a
    minute): the app freezes them once the preload is in; when ``main`` returns in a process
    that goes on (the tests), the freeze is withdrawn and the objects are collectable again."""
    import gc

    from bertstudio.ui import gui_gc, preload

    ThreadJob(lambda: None, name="test-install").start().wait(5000)
    collector = gui_gc._collector
    calls: list[str] = []
    for name in ("freeze", "unfreeze"):
        monkeypatch.setattr(gc, name, lambda _n=name: calls.append(_n))
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(f"collect{generation}") or 0)
    monkeypatch.setattr(collector, "frozen", False)
    monkeypatch.setattr(collector, "freeze_wanted", False)
    monkeypatch.setattr(preload, "is_ready", lambda: True)
    monkeypatch.setattr(gc, "get_count", lambda: (5, 0, 0))
    collector.check()
    assert calls == []  # tests (many windows in one process) never freeze
    gui_gc.collect_on_gui_thread(freeze=True)  # what the app asks for
    monkeypatch.setattr(preload, "is_ready", lambda: False)
    collector.check()
    assert calls == [] and not collector.frozen  # not before the imports are in
    monkeypatch.setattr(preload, "is_ready", lambda: True)
    collector.check()
    assert calls == ["freeze"] and collector.frozen
    gui_gc.stop_freezing()
    assert calls == ["freeze", "unfreeze"] and not collector.frozen and not collector.freeze_wanted
    collector.check()
    assert calls == ["freeze", "unfreeze"]  # never frozen again unless asked


def test_the_latest_dropped_progress_goes_out_while_the_job_waits(qtbot):
    """A push said "writing the model card" for its whole upload: "creating the repository" and
    "uploading" came within the throttle and were dropped for good while upload_folder ran."""
    release = threading.Event()

    def job(progress, cancel):
        progress(0.05, "writing the model card")
        progress(0.1, "creating the repository")
        progress(0.2, "uploading")
        release.wait(30)  # the upload
        return "url"

    worker = JobWorker(job, name="test-job", throttle_s=0.05)
    seen = _outcomes(worker)
    worker.start()
    try:
        qtbot.waitUntil(lambda: ("progressed", 0.2, "uploading", True) in seen, timeout=5_000)
        assert ("progressed", 0.1, "creating the repository", True) not in seen  # still throttled: superseded
    finally:
        release.set()
    qtbot.waitUntil(lambda: ("finished", "url") in seen, timeout=10_000)
    assert seen.index(("progressed", 0.2, "uploading", True)) < seen.index(("finished", "url"))


def test_a_dropped_last_progress_goes_out_before_the_outcome(qtbot):
    def job(progress, cancel):
        progress(0.1, "step 1")
        progress(0.5, "step 2")  # within the throttle (60 s): dropped until the job ends
        return 1

    seen = _run(qtbot, job)
    assert seen == [("progressed", 0.1, "step 1", True), ("progressed", 0.5, "step 2", True), ("finished", 1)]


def test_a_held_message_is_sent_by_a_gui_thread_timer_not_a_new_thread(qtbot):
    """The throttle's flush ran on a new threading.Timer per window (an OS thread Qt never saw,
    emitting a Qt signal), one of them outliving the job."""
    from PySide6.QtCore import Qt

    release = threading.Event()
    emitters: list[threading.Thread] = []

    def job(progress, cancel):
        progress(0.05, "first")
        progress(0.2, "held")
        release.wait(30)
        return "done"

    worker = JobWorker(job, name="test-job", throttle_s=0.05)
    worker.progressed.connect(lambda f, m: emitters.append(threading.current_thread()), Qt.ConnectionType.DirectConnection)
    seen = _outcomes(worker)
    worker.start()
    try:
        qtbot.waitUntil(lambda: ("progressed", 0.2, "held", True) in seen, timeout=5_000)
        assert emitters[-1] is threading.main_thread()
        assert not any(isinstance(t, threading.Timer) for t in emitters)
    finally:
        release.set()
    qtbot.waitUntil(lambda: ("finished", "done") in seen, timeout=10_000)
    assert not worker._flush_timer.isActive()
