"""Undoable edits: each gold change is one ``QUndoCommand`` on the session's stack.

The command stores the previous and the new gold value and writes either back
through ``ProjectSession.write_gold`` (which calls ``project.set_gold``), so
undo and redo are journaled by the project like any edit and are durable as
soon as they return: the journal is the autosave.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

if TYPE_CHECKING:
    from bertstudio.ui.session import ProjectSession


class SetGoldCommand(QUndoCommand):
    def __init__(self, session: ProjectSession, split: str, row: int, new: Any, text: str) -> None:
        super().__init__(text)
        self._session = session
        self._split, self._row = split, row
        # Deep copies: gold values of tagging/QA are lists/dicts the editor may keep mutating.
        self._old = copy.deepcopy(session.gold(split, row))
        self._new = copy.deepcopy(new)

    @property
    def split(self) -> str:
        return self._split

    @property
    def row(self) -> int:
        return self._row

    def redo(self) -> None:
        self._session.write_gold(self._split, self._row, copy.deepcopy(self._new))

    def undo(self) -> None:
        self._session.write_gold(self._split, self._row, copy.deepcopy(self._old))
        # Bring the example back into view so the user sees what was undone.
        self._session.set_current(self._split, self._row)
