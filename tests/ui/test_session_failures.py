"""A failure the session reports keeps the core's words and facts, not the frames it passed through."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QListWidget

from bertstudio.errors import DataError
from bertstudio.ui.session import ProjectSession


def test_a_reported_failure_keeps_no_widget_alive(qtbot, tmp_path):
    """report_failure passed the core's error on with its traceback: the frames it named (an editor's,
    a dialog's, ``self``) lived as long as any listener kept the failure, into a later garbage
    collection, where a top-level widget freed with them crashed Qt (a segmentation fault at the
    end of the UI tests, in a QListWidget's destructor)."""
    session = ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    kept: list = []
    session.failed.connect(kept.append)  # as tests and listeners keep what they were told

    def refuse(widget: QListWidget) -> None:
        try:
            raise DataError("the edit could not be saved", path=tmp_path / "labels.journal",
                            facts={"refusal": "read_only"})
        except DataError as exc:
            session.report_failure(exc)

    widget = QListWidget()
    alive = weakref.ref(widget)
    refuse(widget)
    del widget
    assert alive() is None
    (failure,) = kept
    assert "the edit could not be saved" in failure and failure.error.facts == {"refusal": "read_only"}
