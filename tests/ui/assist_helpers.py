"""What the tests of the labelling assistant in the UI share: a session with the assistant on
(the suite runs with it off: tests/conftest.py), the ``tiny`` model, its Label page."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt

from bertstudio.assist import AssistSettings
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.session import ProjectSession
from helpers import NEG, POS, make_project

WAIT_MS = 300_000  # the shared 2-core box can be slow; nothing here depends on time


def sentiment_rows(n: int, seed: int = 0) -> tuple[list[dict], list[str]]:
    """``n`` unlabelled sentences and their hidden gold labels (alternating, separable)."""
    rng = random.Random(seed)
    rows, gold = [], []
    for i in range(n):
        pos = i % 2 == 0
        a, b = rng.sample(POS if pos else NEG, 2)
        rows.append({"text": f"the movie {i} was {a} and {b}", "label": None})
        gold.append("pos" if pos else "neg")
    return rows, gold


class Assisted:
    """A session over a fresh project with the assistant on, and its Label page (in the real main
    window with ``window=True``)."""

    def __init__(self, qtbot: Any, folder: Path, tiny: str, rows: list[dict], *, kind: str = "sentence",
                 labels: list[str] | None = None, factory: Any = None, window: bool = False, **settings: Any) -> None:
        labels = ["neg", "pos"] if labels is None else labels
        self.project = make_project(folder / "project", kind, labels, {"train": rows})
        self.session = ProjectSession(settings=QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
        assist = self.session.assist
        assist.enabled = True
        assist.settings = AssistSettings(model=tiny, **settings)
        assist.factory = factory
        self.session.set_project(self.project)
        self.window = None
        if window:
            from bertstudio.ui.main_window import MainWindow

            self.window = MainWindow(self.session)
            qtbot.addWidget(self.window)
            self.window.show()
            self.window.show_page("label")
            self.page = self.window.pages["label"]
        else:
            self.page = LabelPage(self.session)
            qtbot.addWidget(self.page)
            self.page.resize(1100, 700)
            self.page.show()
        qtbot.waitUntil(lambda: assist.assistant is not None, timeout=WAIT_MS)
        self.assist = assist
        self.editor = self.page.editor()

    def key_for(self, label: str) -> Qt.Key:
        return Qt.Key.Key_1 if label == "neg" else Qt.Key.Key_2


@pytest.fixture
def assisted(qtbot, tmp_path, tiny):
    made: list[Assisted] = []

    def make(rows, **kw) -> Assisted:
        a = Assisted(qtbot, tmp_path / f"s{len(made)}", tiny, rows, **kw)
        made.append(a)
        return a

    yield make
    for a in made:
        a.session.close()


