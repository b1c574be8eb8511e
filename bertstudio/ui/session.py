"""The Qt-side model of one open project: every page takes a session in its constructor.

``ProjectSession`` wraps a Qt-free :class:`bertstudio.data.project.Project` (or
None while no project is open), owns the ``QUndoStack`` every edit goes through,
and turns the core's plain change events into Qt signals (past tense, as the
house style asks). Views listen to these signals; the project never knows its
views.

Signals:

- ``project_opened(object)``: a project was opened or created (the Project)
- ``project_closed()``: the open project was closed
- ``gold_changed(str split, int row)``: one gold value changed (edit, undo, redo)
- ``labels_changed()``: the label set changed (added, renamed, recoloured)
- ``data_imported(str split)``: rows were imported into ``split``
- ``runs_changed()``: a training run was added, finished or removed
- ``current_example_changed(str split, int row)``: the example being looked at moved
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QUndoStack

SPLITS: tuple[str, ...] = ("train", "dev", "test")
_MAX_RECENT = 10


class ProjectSession(QObject):
    project_opened = Signal(object)
    project_closed = Signal()
    gold_changed = Signal(str, int)
    labels_changed = Signal()
    data_imported = Signal(str)
    runs_changed = Signal()
    current_example_changed = Signal(str, int)

    def __init__(self, project: Any | None = None, *, settings: QSettings | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings("bertstudio", "bertstudio")
        self.undo_stack = QUndoStack(self)
        self._project: Any | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._split = "train"
        self._row = -1
        if project is not None:
            self.set_project(project)

    # -- the project -------------------------------------------------------------------
    @property
    def project(self) -> Any | None:
        return self._project

    def has_project(self) -> bool:
        return self._project is not None

    def set_project(self, project: Any | None) -> None:
        """Make ``project`` the open one (None closes); the undo history starts afresh."""
        if self._project is not None:
            self._detach()
            self._project = None
            self.undo_stack.clear()
            self._row = -1
            self.project_closed.emit()
        if project is None:
            return
        self._project = project
        self._attach(project)
        self._split = next((s for s in SPLITS if self.split_size(s) > 0), "train")
        self._row = 0 if self.split_size(self._split) > 0 else -1
        folder = getattr(project, "folder", None)
        if folder is not None:
            self.add_recent(str(folder))
        self.project_opened.emit(project)

    def open_folder(self, folder: str) -> Any:
        """Open the project in ``folder`` (raises the core's BertStudioError when it cannot)."""
        from bertstudio.data.project import Project

        project = Project.open(folder)
        self.set_project(project)
        return project

    def close(self) -> None:
        self.set_project(None)

    # -- the core's plain events -> Qt signals -----------------------------------------
    def _attach(self, project: Any) -> None:
        subscribe = getattr(project, "subscribe", None) or getattr(project, "add_listener", None)
        if subscribe is None:
            return
        result = subscribe(self._on_core_event)
        if callable(result):
            self._unsubscribe = result
        else:
            unsubscribe = getattr(project, "unsubscribe", None) or getattr(project, "remove_listener", None)
            if unsubscribe is not None:
                self._unsubscribe = lambda: unsubscribe(self._on_core_event)

    def _detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_core_event(self, event: Any, *args: Any) -> None:
        """Map a core change event (a dataclass/dict with ``kind``, or a name plus values)."""
        if isinstance(event, str):
            name, data = event, dict(zip(("split", "row"), args))
        elif isinstance(event, dict):
            name, data = str(event.get("kind") or event.get("type") or ""), event
        else:
            name = str(getattr(event, "kind", None) or type(event).__name__)
            data = {k: getattr(event, k) for k in ("split", "row", "index") if hasattr(event, k)}
        name = name.lower()
        split = str(data.get("split") or "")
        row = data.get("row", data.get("index", -1))
        if "gold" in name:
            self.gold_changed.emit(split, int(row if row is not None else -1))
        elif "label" in name:
            self.labels_changed.emit()
        elif "import" in name or "data" in name or "split" in name:
            self.data_imported.emit(split)
        elif "run" in name:
            self.runs_changed.emit()

    # -- the example being looked at ----------------------------------------------------
    @property
    def current_split(self) -> str:
        return self._split

    @property
    def current_row(self) -> int:
        return self._row

    def set_current(self, split: str, row: int) -> None:
        if (split, row) == (self._split, self._row):
            return
        self._split, self._row = split, row
        self.current_example_changed.emit(split, row)

    # -- small helpers every page needs --------------------------------------------------
    def examples(self, split: str | None = None) -> Any | None:
        """The ExampleSet of ``split`` (default: the current one), or None when it is empty."""
        if self._project is None:
            return None
        split = split or self._split
        getter = getattr(self._project, "split", None) or getattr(self._project, "examples", None)
        if callable(getter):
            return getter(split)
        splits = getattr(self._project, "splits", {})
        return splits.get(split)

    def split_size(self, split: str) -> int:
        ex = self.examples(split)
        return 0 if ex is None else len(ex)

    def notify_runs_changed(self) -> None:
        """Pages that start or delete runs call this so the Runs/Results pages refresh."""
        self.runs_changed.emit()

    # -- recent projects (QSettings) -----------------------------------------------------
    def recent_projects(self) -> list[str]:
        value = self.settings.value("recentProjects", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent(self, folder: str) -> None:
        recent = [folder] + [f for f in self.recent_projects() if f != folder]
        self.settings.setValue("recentProjects", recent[:_MAX_RECENT])
