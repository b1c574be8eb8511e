"""UI test fixtures: offscreen Qt, settings in a temp folder, small projects, the main window."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any Qt import

from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QSettings  # noqa: E402

from helpers import make_project  # noqa: E402,F401 - re-exported for the UI tests


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """QSettings (recent projects, window geometry) go to a temp folder, never the user's."""
    folder = str(tmp_path_factory.mktemp("qsettings"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)


@pytest.fixture(autouse=True, scope="session")
def _report_libraries_imported() -> None:
    """scikit-learn imported once per test session, as an app has it after its first per-class report:
    until then the Results page reads every classification run on a worker (ui/results_page.py
    _slow_to_read), which test_results_page tests by itself; the other tests show runs at once."""
    import importlib

    importlib.import_module("sklearn.metrics")


@pytest.fixture
def session_factory(tmp_path: Path) -> Iterator[Any]:
    """Build a ProjectSession over a fresh project; closes every project at the end."""
    from bertstudio.ui.session import ProjectSession

    made: list[ProjectSession] = []

    def factory(kind: str, labels: list[str] | None = None,
                splits: dict[str, list[dict[str, Any]]] | None = None) -> ProjectSession:
        project = make_project(tmp_path / f"project-{len(made)}", kind, labels, splits)
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        session = ProjectSession(project, settings=settings)
        made.append(session)
        return session

    yield factory
    for session in made:
        session.close()


@pytest.fixture
def main_window(qtbot: Any, tmp_path: Path) -> Iterator[Any]:
    """The real main window over an empty sentence project in a temp folder."""
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    from bertstudio.data.project import Project

    project = Project.create(tmp_path / "project", name="reviews", kind="sentence", labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()
    session.close()


@pytest.fixture(autouse=True)
def _collect_each_tests_garbage() -> Iterator[None]:
    """Each UI test's garbage is collected when it ends, after pytest-qt has closed its widgets.
    Left to the GUI-thread collector (ui/gui_gc.py, a full collection at most once a minute), the
    widget cycles of several earlier tests (top-level windows a test made without a parent, such as a
    review queue, with their children) were freed together in the middle of a later test, and twice
    this session that collection ended a run of tests/ui with a segmentation fault (a QListWidget in
    QWidget::destroy, as in the two CI failures of 256be85 and ed8fa39). Collected at each test's end,
    two runs of tests/ui (1,367 tests) ended without a fault; the cause inside PySide was
    not found. What survives each test is then frozen, so that the next test's collections walk only
    what it made. (Frozen once, when the heavy libraries came in, the survivors of every later test
    were walked again at every teardown: after tests/core had run in the same session, 256 UI
    teardowns took 1.5-2.4 s each, 438 s of a 1,737 s suite; frozen each time, tests/ui alone took
    5.5 min with a 3.6 GB peak. A cycle that survives a test and is dropped later is left to the
    process's end, as pytest_unconfigure leaves everything.)

    The fault came back (2 runs in 3 of tests/ui/test_runs_delete.py + test_main_window.py, the
    list being the review queue's "reviewFlags", valid, owned by its QSplitter, in the garbage of a
    test that made a parentless ReviewQueue): freeing a top-level widget's wrapper cycle lets Python
    decide the order in which wrappers and their C++ objects go. So the garbage is first kept whole
    (DEBUG_SAVEALL), each top-level widget in it is deleted by Qt (shiboken6.delete: its C++
    children go with it and their wrappers are told), and only then are the wrappers freed (the
    same files: 2 runs of 2 without a fault)."""
    yield
    import gc

    import shiboken6
    from PySide6.QtWidgets import QWidget

    _release_modifiers()

    gc.set_debug(gc.DEBUG_SAVEALL)  # unreachable objects kept in gc.garbage, nothing freed yet
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    windows = [o for o in gc.garbage if isinstance(o, QWidget) and shiboken6.isValid(o) and o.parent() is None]
    for window in windows:
        if shiboken6.isValid(window):  # not a child of one deleted before it
            shiboken6.delete(window)
    del windows
    gc.garbage.clear()
    gc.collect()
    gc.freeze()


def _release_modifiers() -> None:
    """A test that clicked Alt+F or Ctrl+Return left Qt believing the modifier still held (the state
    is the last key event's), so a later test's ``selectRow`` extended the selection as Ctrl+click
    does (test_runs_list after test_keyboard_reach). Released on a throwaway widget, as a person
    lifting the key would."""
    import shiboken6
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    held = QGuiApplication.keyboardModifiers()
    if held == Qt.KeyboardModifier.NoModifier:
        return
    probe = QWidget()
    for modifier, key in ((Qt.KeyboardModifier.ControlModifier, Qt.Key.Key_Control),
                          (Qt.KeyboardModifier.ShiftModifier, Qt.Key.Key_Shift),
                          (Qt.KeyboardModifier.AltModifier, Qt.Key.Key_Alt),
                          (Qt.KeyboardModifier.MetaModifier, Qt.Key.Key_Meta)):
        if held & modifier:
            QTest.keyRelease(probe, key)
    shiboken6.delete(probe)
