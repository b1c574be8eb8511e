"""Keyboard-only reach: each page's Tab chain stops only on controls, and the mnemonics (&) of each
page and dialog are unique and clear of the menu bar's letters (a keyboard sweep found no page
button with a mnemonic or a shortcut, and two empty Tab stops on the Train page)."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QScrollArea

from bertstudio.ui.session import ProjectSession
from bertstudio.ui.training_page import TrainingPage
from helpers import make_project

ROWS = [{"text": f"the film was {w}", "label": "pos" if i % 2 else "neg"} for i, w in enumerate(["good", "bad"] * 4)]


def _session(tmp_path) -> ProjectSession:
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": ROWS, "dev": ROWS[:4]})
    return ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def _tab_chain(qtbot, start, most: int = 80) -> list:
    """The widgets Tab visits from ``start`` until it comes back (or ``most`` presses)."""
    start.setFocus()
    seen = [QApplication.focusWidget()]
    for _ in range(most):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is seen[0]:
            break
        seen.append(QApplication.focusWidget())
    return seen


def test_the_train_pages_scroll_areas_are_no_tab_stops(qtbot, tmp_path):
    """The settings' and the monitor's scroll areas took the focus themselves before their contents."""
    session = _session(tmp_path)
    try:
        page = TrainingPage(session)
        qtbot.addWidget(page)
        page.show()
        page.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is page)
        chain = _tab_chain(qtbot, page.start_button)
        assert page.epochs_spin in chain and page.start_button in chain  # the settings are reached
        assert [w.objectName() for w in chain if isinstance(w, QScrollArea)] == []
    finally:
        session.close()
