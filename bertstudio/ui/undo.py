"""Undoable edits: each gold change, and each import that replaced rows, is one ``QUndoCommand``.

``SetGoldCommand`` stores the previous and the new gold value and writes either
back through ``ProjectSession.write_gold`` (which calls ``project.set_gold``), so
undo and redo are journaled by the project like any edit and are durable as
soon as they return: the journal is the autosave.

``ReplaceSplitCommand`` undoes an import that replaced a split's rows. It holds
no rows itself: the project kept the replaced rows as a backup in its folder,
and undo restores that backup (the core keeps the rows it replaces as another
backup, which redo restores in turn). A failed undo (a full disk) is reported
through ``session.failed`` and the command is dropped from the stack.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtGui import QUndoCommand

from bertstudio.errors import BertStudioError

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
        self._done = False  # written before the push: the push's redo has nothing to do

    def written(self) -> "SetGoldCommand":
        self._done = True
        return self

    @property
    def split(self) -> str:
        return self._split

    @property
    def row(self) -> int:
        return self._row

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._write(self._new)

    def undo(self) -> None:
        # Bring the example back into view so the user sees what was undone.
        self._session.set_current(self._split, self._row)
        self._write(self._old)

    def _write(self, value: Any) -> None:
        try:
            self._session.write_gold(self._split, self._row, copy.deepcopy(value))
        except BertStudioError as exc:  # not saved (read-only folder, full disk): off the stack, and said
            self.setObsolete(True)
            self._session.report_failure(exc)


class LabelSetCommand(QUndoCommand):
    """A label-set change (a rename, the removal of a label no row uses), pushed after it
    happened (the first redo does nothing), so a refused change never reaches the stack.
    ``forward`` / ``backward`` redo / undo it on the project (a removal's undo puts the label
    back at its index, its number key and id). The gold edits below it on the stack may hold
    the names it changes; the stack undoes this first, so they find them again (a rename, then
    a removal, once emptied the whole stack). A change the project refuses later (a label of
    that name added since, a row using it again) leaves the stack, and the window says why."""

    def __init__(self, session: ProjectSession, text: str, forward: Callable[[Any], None],
                 backward: Callable[[Any], None]) -> None:
        super().__init__(text)
        self._session, self._forward, self._backward = session, forward, backward
        self._pushed = True

    def redo(self) -> None:
        if self._pushed:
            self._pushed = False
            return
        self._apply(self._forward)

    def undo(self) -> None:
        self._apply(self._backward)

    def _apply(self, edit: Callable[[Any], None]) -> None:
        try:
            with self._session.labels_by_undo():
                edit(self._session.project)
        except BertStudioError as exc:
            from bertstudio.ui.editors.label_set import label_refusal

            self.setObsolete(True)  # a refusal the dialog knows, in the same words (it was English here)
            self._session.report_failure(label_refusal(exc) or exc)


class ReplaceSplitCommand(QUndoCommand):
    """An import that replaced ``split``'s rows; pushed after the import happened (the first redo does nothing)."""

    def __init__(self, session: ProjectSession, split: str, replaced_backup: str, text: str, *,
                 added: Sequence[str] = ()) -> None:
        super().__init__(text)
        self._session, self._split = session, split
        self._added = list(added)  # classes the import added: its undo removes those no row uses any more
        self._undo_restores: str | None = replaced_backup  # the rows the import replaced
        self._redo_restores: str | None = None  # set by undo: the imported rows
        self._removed: list[tuple[str, int, str]] = []  # (name, place, colour) of each label undo took away
        self._pushed = True

    @property
    def split(self) -> str:
        return self._split

    def redo(self) -> None:
        if self._pushed:  # QUndoStack.push calls redo(): the import is already done
            self._pushed = False
            return
        project = self._session.project
        for name, index, color in reversed(self._removed):  # back in their places and colours (the rows' restore
            if name not in project.labels:  # appended them at the end in a default colour: keys moved)
                try:
                    with self._session.labels_by_undo():
                        project.add_label(name, color or None, index=min(index, len(project.labels)), restoring=True)
                except BertStudioError as exc:
                    self._session.report_failure(exc)
        self._removed = []
        self._undo_restores = self._swap(self._redo_restores)

    def undo(self) -> None:
        self._redo_restores = self._swap(self._undo_restores)
        project = self._session.project
        for name in self._added:  # redo brings them back: restoring the imported rows adds the labels they use
            if name in project.labels and not any(project.label_counts(s).get(name) for s in project.split_names):
                place, color = project.labels.index(name), project.label_colors.get(name, "")
                try:
                    with self._session.labels_by_undo():
                        project.remove_label(name)
                    self._removed.append((name, place, color))
                except BertStudioError as exc:
                    self._session.report_failure(exc)

    def _swap(self, backup_id: str | None) -> str | None:
        """Restore ``backup_id`` (None: empty the split); returns the backup of the rows it replaced."""
        project = self._session.project
        try:
            if backup_id is None:
                from bertstudio.data.examples import ExampleSet
                from bertstudio.data.project_store import empty_dataset

                kept = project.import_examples(ExampleSet(project.kind, empty_dataset(project.kind)), self._split,
                                               replace=True)
            else:
                kept = project.restore_split_backup(backup_id)
        except BertStudioError as exc:
            self.setObsolete(True)  # the stack drops it: its backups no longer match what is on screen
            self._session.report_failure(exc)
            return backup_id
        self._session.set_current(self._split, 0 if self._session.split_size(self._split) else -1)
        return kept["id"] if kept else None
