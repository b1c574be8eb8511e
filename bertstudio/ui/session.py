"""The Qt-side model of one open project: every page takes a session in its constructor.

``ProjectSession`` wraps a Qt-free :class:`bertstudio.data.project.Project` (or
None while no project is open), owns the ``QUndoStack`` every edit goes through,
and turns the core's plain change events into Qt signals (past tense, as the
house style asks). Views listen to these signals; the project never knows its
views.

``session.warm`` keeps the last training run's pristine model and tokenised rows for the
next run of this project (:class:`~bertstudio.train.warm.WarmCache`, one entry, dropped
when the project closes; ``BERTSTUDIO_WARM=0`` turns it off).

``session.run_reader`` reads the run folders the pages list (:mod:`bertstudio.ui.run_reader`:
remembered while unchanged, thousands read off the GUI thread).

``session.assist`` is the open project's labelling assistant
(:class:`~bertstudio.ui.assist_controller.AssistController`), started with the project
and closed before it.

Signals:

- ``project_opened(object)``: a project was opened or created (the Project)
- ``project_closed()``: the open project was closed
- ``gold_changed(str split, int row)``: one gold value changed (edit, undo, redo)
- ``labels_changed()``: the label set changed (added, renamed, recoloured)
- ``data_imported(str split)``: rows were imported into ``split``
- ``runs_changed()``: a training run was added, finished or removed
- ``current_example_changed(str split, int row)``: the example being looked at moved
- ``failed(str message)``: something the user asked for could not be done (an undo,
  closing on a full disk); the core's one-line message, for the window to show
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, Iterator

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, QSettings, Signal
from PySide6.QtGui import QUndoStack

from bertstudio.data.project_meta import default_color
from bertstudio.errors import BertStudioError, DataError
from bertstudio.train.warm import WarmCache
from bertstudio.ui.assist_controller import AssistController
from bertstudio.ui.run_reader import RunReader

SPLITS: tuple[str, ...] = ("train", "dev", "test")
# what a split is called on screen; the project, its files and the CLI keep the keys above
_SPLIT_NAMES = {"train": QT_TRANSLATE_NOOP("Splits", "train"), "dev": QT_TRANSLATE_NOOP("Splits", "dev"),
                "test": QT_TRANSLATE_NOOP("Splits", "test")}


def split_name(split: str) -> str:
    """``split`` as the interface's language calls it (a split it does not know, as it is)."""
    return QCoreApplication.translate("Splits", _SPLIT_NAMES[split]) if split in _SPLIT_NAMES else split

# the label-count keys of a gold type without a label set (QA: GoldType.fixed_keys), as shown
_COUNT_NAMES = {"answer": QT_TRANSLATE_NOOP("GoldCounts", "with an answer"),
                "no_answer": QT_TRANSLATE_NOOP("GoldCounts", "without an answer")}


def count_name(key: str) -> str:
    """A label-count key of a kind without labels ("no_answer") as the interface's language says it."""
    return QCoreApplication.translate("GoldCounts", _COUNT_NAMES[key]) if key in _COUNT_NAMES else key


class Failure(str):
    """What failed, as a listener shows it (the text), with the core's error behind it, if any
    (``error``): the window tells a read-only refusal by its facts, not by matching its English."""

    error: BertStudioError | None
    title: str | None  # what failed ("Could not undo Delete run a"); None: a save

    def __new__(cls, text: str, error: BertStudioError | None = None, title: str | None = None) -> "Failure":
        self = super().__new__(cls, text)
        self.error, self.title = error, title
        return self


_MAX_RECENT = 10
class ProjectSession(QObject):
    project_opened = Signal(object)
    project_closing = Signal(object)  # the project, still open: views put what they hold into it
    project_closed = Signal()
    gold_changed = Signal(str, int)
    labels_changed = Signal()
    label_renamed = Signal(str, str)  # old, new (also an undone rename): what holds a label name follows
    data_imported = Signal(str)
    runs_changed = Signal()
    run_renamed = Signal(str, str)  # old folder, new folder (the Runs page's Rename): a page showing it follows
    current_example_changed = Signal(str, int)
    failed = Signal(object)  # a Failure: str (what to show), with the core error behind it

    def __init__(self, project: Any | None = None, *, settings: QSettings | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings("bertstudio", "bertstudio")
        self.undo_stack = QUndoStack(self)
        self._labels_by_undo = False  # set while an undo command changes the label set: the stack is kept
        # the labels partly tagged sentences hold (the tagging editor's drafts, not yet the project's rows)
        self.draft_labels: Callable[[], set[str]] = set
        # the run folders the Train page is training into now (made before the run holds their lock):
        # the Runs page never deletes one
        self.training_runs: Callable[[], set[str]] = set
        # ("export" | "push", run folder, JobWorker): the jobs reading a run, which Delete and Rename refuse
        # while they run (ui/run_delete.record_run_job)
        self.run_jobs: list[tuple[str, Any, Any]] = []
        self._project: Any | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._split = "train"
        self._row = -1
        self.assist = AssistController(self)  # the labelling assistant of the open project
        self.warm = WarmCache()  # the Train page's runs hand their built model to the next one
        self.run_reader = RunReader(self)  # the run lists' folders, read once and off the GUI thread
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
            if not self._project.closed:
                self.project_closing.emit(self._project)
            self._detach()
            self.assist.close_project()  # before the project closes: it reads the project's rows
            self.warm.clear()  # another project's model and rows are not kept in memory
            self.run_reader.close()  # its runs still being read are not listed under the next project
            old, self._project = self._project, None
            self.undo_stack.clear()
            self._row = -1
            if old is not project and not old.closed:
                try:
                    old.close()  # folds the journal into the data files
                except BertStudioError as exc:  # a full disk: closed anyway, the journal keeps every edit
                    self.report_failure(exc)
            del old
            self.project_closed.emit()
        if project is None:
            return
        self._project = project
        self._attach(project)
        self._split = next((s for s in SPLITS if self.split_size(s) > 0), "train")
        self._row = self._first_to_label(self._split)
        self.assist.open_project(project)
        folder = getattr(project, "folder", None)
        if folder is not None:
            self.add_recent(str(folder))
        self.project_opened.emit(project)

    def open_folder(self, folder: str, *, read_only: bool = False) -> Any:
        """Open the project in ``folder`` (``read_only``: in the read-only mode even where it could be
        written); raises the core's BertStudioError when it cannot."""
        from bertstudio.data.project import Project

        project = Project.open(folder, read_only=read_only)
        self.set_project(project)
        return project

    def close(self) -> None:
        self.set_project(None)
        self.run_reader.close()

    # -- the core's plain events -> Qt signals -----------------------------------------
    def _attach(self, project: Any) -> None:
        self._unsubscribe = project.subscribe(self._on_core_event)

    def _detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_core_event(self, event: dict[str, Any]) -> None:
        """Route one of the project's change events (see ``Project.subscribe``) by its kind."""
        route = {"gold_changed": self._on_gold_event, "labels_changed": self._on_labels_event,
                 "split_imported": self._on_import_event}.get(event.get("kind"))
        if route is not None:  # compacted, ui_state_saved: bookkeeping, nothing a view shows changed
            route(event)

    def _on_gold_event(self, event: dict[str, Any]) -> None:
        self.gold_changed.emit(str(event["split"]), int(event["row"]))

    def _on_labels_event(self, event: dict[str, Any]) -> None:
        if event.get("op") in ("remove_label", "rename_label") and not self._labels_by_undo:
            self.undo_stack.clear()  # undo entries hold the old names, which the project would now refuse
        if event.get("op") == "rename_label":
            self.label_renamed.emit(str(event["old"]), str(event["new"]))
        self.labels_changed.emit()

    @contextlib.contextmanager
    def labels_by_undo(self) -> Iterator[None]:
        """A label set change made by an undo command (LabelSetCommand, the classes a replacing
        import added going with its undo): the stack keeps its entries (see ui/undo.py)."""
        self._labels_by_undo = True
        try:
            yield
        finally:
            self._labels_by_undo = False

    def add_label(self, name: str, color: str | None = None) -> None:
        """Add a label, undoably (Edit > Undo removes it again); raises the project's refusal."""
        color = color or default_color(len(self.project.labels))  # redo gives it the same colour
        drawn: list[int] = []  # and the same id: a run trained with it between undo and redo still reads it

        def add(project: Any) -> None:
            project.add_label(name, color, restoring=bool(drawn), label_id=drawn[0] if drawn else None)
            if not drawn:
                drawn.append(project.label_ids[project.labels.index(name)])

        self._change_labels(self.tr("Add label {a}").format(a=name), add,
                            lambda project: self._remove_unused_label(project, name))

    def set_label_color(self, name: str, color: str) -> None:
        """Recolour a label, undoably (Edit > Undo gives it its colour back)."""
        before = self.project.label_colors.get(name, "")
        self._change_labels(self.tr("Recolour label {a}").format(a=name),
                            lambda project: project.set_label_color(name, color),
                            lambda project: project.set_label_color(name, before))

    def _remove_unused_label(self, project: Any, name: str) -> None:
        """An added label's undo: refused (the window says why) while a stored or drafted row uses it."""
        if name in self.draft_labels():
            raise DataError(f"label {name!r} is in a partly tagged sentence", path=getattr(project, "folder", None),
                            expected="that sentence finished or its words untagged first",
                            facts={"refusal": "in_draft", "name": name})  # said in the app's words
        project.remove_label(name)

    def rename_label(self, old: str, new: str) -> None:
        """Rename a label, undoably (Edit > Undo renames it back); raises the project's refusal.
        In a BIO tag set B-X and I-X are one entity type: both are renamed, as one undo step."""
        renames = self._entity_renames(old, new)
        if len(renames) == 1:
            text = self.tr("Rename label {a} to {b}").format(a=old, b=new)
        else:
            text = self.tr("Rename entity type {a} to {b}").format(a=old[2:], b=new[2:])

        def backward(project: Any, done: list[tuple[str, str]] = renames) -> None:
            for a, b in reversed(done):
                project.rename_label(b, a, restoring=True)

        def forward(project: Any) -> None:
            done: list[tuple[str, str]] = []
            try:
                for a, b in renames:
                    project.rename_label(a, b)
                    done.append((a, b))
            except BertStudioError:
                backward(project, done)  # (I-PERSON taken: B-PER is not left renamed alone)
                raise

        self._change_labels(text, forward, backward)

    def entity_partner(self, name: str) -> str | None:
        """I-PER for B-PER (and back) in a BIO tag set of entity spans, None for any other label."""
        from bertstudio.data.gold import is_bio_tag_set
        from bertstudio.data.kinds import get_spec

        labels = self.labels()
        if not (get_spec(self.kind).gold.per_token and is_bio_tag_set(labels)) or name[:2] not in ("B-", "I-"):
            return None
        partner = ("I-" if name[:2] == "B-" else "B-") + name[2:]
        return partner if partner in labels else None

    def _entity_renames(self, old: str, new: str) -> list[tuple[str, str]]:
        """The renames ``old`` -> ``new`` stands for: in a BIO tag set, renaming B-PER to B-PERSON renames
        I-PER to I-PERSON too (renamed alone, every PER entity split in two: PERSON, then one opened by
        I-PER). A new name without the tag's own prefix is refused."""
        partner = self.entity_partner(old)
        if partner is None or new == old:
            return [(old, new)]
        prefix, other = old[:2], partner[:2]
        if new[:2] != prefix or not new[2:]:
            raise DataError(self.tr("{a} and {b} are one entity type, {t}: they are renamed together")
                            .format(a=old, b=partner, t=old[2:]),
                            expected=self.tr("a new name starting with {p}; {b} takes the same entity type")
                            .format(p=prefix, b=partner))
        return [(old, new), (partner, other + new[2:])]

    def remove_label(self, name: str) -> None:
        """Remove a label no row uses, undoably (Edit > Undo adds it back); raises the project's refusal,
        or DataError when a partly tagged sentence holds it (the project counts stored labels only)."""
        color = self.project.label_colors.get(name, "")
        index = self.project.labels.index(name) if name in self.project.labels else len(self.project.labels)
        # undone, it is the same class again: its id comes back, so runs that recorded it still read it
        label_id = self.project.label_ids[index] if index < len(self.project.labels) else None
        self._change_labels(self.tr("Remove label {a}").format(a=name),
                            lambda project: self._remove_unused_label(project, name),
                            lambda project: project.add_label(name, color, index=index, restoring=True,
                                                              label_id=label_id))

    def _change_labels(self, text: str, forward: Any, backward: Any) -> None:
        """Make a label-set change now (a refusal raises before anything reaches the stack), then
        push it as an undo command that redoes ``forward`` and undoes with ``backward``."""
        from bertstudio.ui.undo import LabelSetCommand

        with self.labels_by_undo():
            forward(self.project)
        self.undo_stack.push(LabelSetCommand(self, text, forward, backward))

    def _on_import_event(self, event: dict[str, Any]) -> None:
        split = str(event["split"])
        self._keep_current_in_range(split)
        self.data_imported.emit(split)

    # -- the example being looked at ----------------------------------------------------
    @property
    def current_split(self) -> str:
        return self._split

    @property
    def current_row(self) -> int:
        return self._row

    def _first_to_label(self, split: str) -> int:
        """Where a reopened project starts: the split's first row without gold (a half-labelled
        project opened on its row 0, a labelled one, where the next key replaced the label), else
        row 0; -1 for an empty split."""
        if not self.split_size(split):
            return -1
        missing = self._project.examples(split).unlabelled_rows()
        return int(missing[0]) if len(missing) else 0

    def _keep_current_in_range(self, split: str) -> None:
        """After a split's rows changed, the current row still points at a row (or at none)."""
        if split != self._split:
            return
        size = self.split_size(split)
        if self._row >= size or (self._row < 0 and size):
            self.set_current(split, min(max(self._row, 0), size - 1))

    def set_current(self, split: str, row: int) -> None:
        if (split, row) == (self._split, self._row):
            return
        self._split, self._row = split, row
        self.current_example_changed.emit(split, row)

    # -- small helpers every page needs --------------------------------------------------
    def examples(self, split: str | None = None) -> Any | None:
        """The ExampleSet of ``split`` (default: the current one), edits applied; None without a project.

        Costs a copy of the gold column when edits are pending: views read single
        rows with :meth:`row` / :meth:`gold` and call this only on demand (filters, export).
        """
        if self._project is None:
            return None
        return self._project.examples(split or self._split)

    def split_size(self, split: str) -> int:
        return 0 if self._project is None else int(self._project.num_rows(split))

    @property
    def kind(self) -> str:
        return str(self._project.kind) if self._project is not None else "sentence"

    def labels(self) -> list[str]:
        return list(self._project.labels) if self._project is not None else []

    def label_colours(self) -> dict[str, str]:
        """A colour per label (the project keeps them; the palette fills any gap)."""
        own = dict(self._project.label_colors) if self._project is not None else {}
        return {name: own.get(name) or default_color(i) for i, name in enumerate(self.labels())}

    def row(self, split: str, row: int) -> dict[str, Any]:
        """One example as a plain dict of its columns, edits applied ({} when out of range)."""
        if self._project is None or not (0 <= row < self.split_size(split)):
            return {}
        return self._project.row(split, row)

    def gold(self, split: str, row: int) -> Any:
        if self._project is None or not (0 <= row < self.split_size(split)):
            return None
        return self._project.gold(split, row)

    def progress(self, split: str | None = None) -> tuple[int, int]:
        """(labelled rows, all rows) of ``split`` (default: the current split)."""
        if self._project is None:
            return 0, 0
        done, total = self._project.progress(split or self._split)
        return int(done), int(total)

    def apply_gold(self, split: str, row: int, value: Any, text: str) -> None:
        """Set a gold value as one undoable edit (what every editor calls). The value is
        written first: an edit that could not be saved (a read-only folder, a full disk, a
        value the project refuses) raises the core's BertStudioError and never reaches the stack."""
        from bertstudio.ui.undo import SetGoldCommand

        command = SetGoldCommand(self, split, row, value, text)
        self.write_gold(split, row, value)
        self.undo_stack.push(command.written())

    def write_gold(self, split: str, row: int, value: Any) -> None:
        """Write through to the project (journaled and fsynced there); its change event tells the views."""
        assert self._project is not None
        self._project.set_gold(split, row, value)

    def import_examples(self, examples: Any, split: str, *, replace: bool = False,
                        label_map: dict[str, str | None] | None = None, add_labels: bool = False) -> None:
        """Store imported rows (see ``Project.import_examples``); replacing rows is one undoable step.

        The replaced rows are kept as a backup in the project folder by the core;
        Edit > Undo restores them (and redo replaces them again), also after the
        journal was folded. Raises the core's BertStudioError before anything changed.
        """
        from bertstudio.ui.undo import ReplaceSplitCommand

        assert self._project is not None
        before = set(self._project.labels)
        backup = self._project.import_examples(examples, split, replace=replace, label_map=label_map,
                                               add_labels=add_labels)
        if backup is not None:
            text = self.tr("Replace the rows of %1").replace("%1", split_name(split))
            added = [n for n in self._project.labels if n not in before]  # its undo takes them away again
            self.undo_stack.push(ReplaceSplitCommand(self, split, backup["id"], text, added=added))

    def restore_split_backup(self, backup_id: str) -> None:
        """Bring back rows an import replaced (one undoable step; the rows they replace are kept too)."""
        from bertstudio.ui.undo import ReplaceSplitCommand

        assert self._project is not None
        backups = {b["id"]: b for b in self._project.split_backups()}
        before = set(self._project.labels)
        kept = self._project.restore_split_backup(backup_id)  # a DataError for an unknown id
        split = backups[backup_id]["split"]
        if kept is not None:  # its undo takes away a label the restore brought back (one renamed since)
            added = [n for n in self._project.labels if n not in before]
            self.undo_stack.push(ReplaceSplitCommand(self, split, kept["id"],
                                                     self.tr("Restore the rows of %1").replace("%1", split_name(split)),
                                                     added=added))

    def report_failure(self, failure: str | BertStudioError, *, title: str | None = None) -> None:
        """Tell the window that something the user asked for failed: text already in the user's words,
        or the core's error, whose facts the window decides on (a read-only refusal) and phrases;
        ``title`` says what failed where it was no save (an undo of Delete run was boxed "Could not save")."""
        if isinstance(failure, BertStudioError):
            # the facts and words only: its traceback holds the frames it passed through, an editor's or a
            # dialog's among them (``self``), which a listener keeping the failure kept alive into a later
            # garbage collection; a top-level widget freed there crashed Qt (a segmentation fault at the end
            # of the UI tests, in a QListWidget's destructor)
            failure.__traceback__ = failure.__context__ = failure.__cause__ = None
            self.failed.emit(Failure(failure.message, failure, title))
        else:
            self.failed.emit(Failure(failure, title=title))

    def notify_runs_changed(self, *, listed_now: bool = False) -> None:
        """Pages that start or delete runs call this so the Runs/Results pages refresh; the Runs
        page too when it finds runs added, removed or ended by another process (``listed_now``: it
        has just listed them from disk, and the other pages share that list)."""
        if not listed_now:
            self.run_reader.forget_lists()  # what this turn listed may hold the run deleted or miss the one added
        self.runs_changed.emit()

    # -- recent projects (QSettings) -----------------------------------------------------
    def recent_projects(self) -> list[str]:
        value = self.settings.value("recentProjects", [])
        if isinstance(value, str):
            value = [value]
        # a blank entry showed as an empty File > Open recent item that opened the folder picker; a
        # relative one (kept by older versions) named whatever project the next launch's working
        # folder held under that name, so it is not offered
        return [str(v) for v in (value if isinstance(value, list) else [])
                if isinstance(v, str) and v.strip() and os.path.isabs(v)]

    def add_recent(self, folder: str) -> None:
        """Put ``folder`` first in File > Open recent, absolute and normalised (links kept as typed):
        `bertstudio proj` kept "proj", and a later launch from another folder opened another project."""
        folder = os.path.abspath(os.path.expanduser(folder))
        recent = [folder] + [f for f in self.recent_projects() if f != folder]
        self.settings.setValue("recentProjects", recent[:_MAX_RECENT])
