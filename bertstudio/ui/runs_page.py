"""The Runs page: every run of the project (and run folders opened from elsewhere)
with its settings, scores and status; follow one live as its history.jsonl grows.

A run started by the CLI or on a GPU server (folder synced back) is opened with
"Open run folder…"; its curves then fill the same plot widgets the Training
page uses, from a :class:`~bertstudio.ui.run_follower.RunFollower`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any, Callable, Collection, Iterable

from PySide6.QtCore import (
    QAbstractTableModel,
    QFileSystemWatcher,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView, QFileDialog, QInputDialog, QLabel, QMessageBox, QPushButton, QSplitter, QTableView,
    QVBoxLayout, QWidget,
)

from bertstudio.metrics import main_metric
from bertstudio.metrics.display import format_metric
from bertstudio.train.events import RunFinished
from bertstudio.data import atomic
from bertstudio.errors import BertStudioError
from bertstudio.train.rundir import RunInfo, rename_run, shown_by_code
from bertstudio.ui.editors.flow_layout import FlowLayout
from bertstudio.ui.enter_key import open_on_enter
from bertstudio.ui.new_project_dialog import kind_name
from bertstudio.ui.run_follower import RunFollower
from bertstudio.ui.run_reader import READING
from bertstudio.ui.run_words import auto_reason_text, is_read_only, read_only_text, run_message, status_text
from bertstudio.ui.training_monitor import TrainingMonitor

log = logging.getLogger(__name__)
_Index = QModelIndex | QPersistentModelIndex
EXTERNAL_KEY = "externalRuns"
_FIT_COLUMNS_UP_TO = 200  # rows; past them the columns keep their widths
_WATCHED_RUNS_UP_TO = 200  # run folders still being written, watched for their next file
# Past this many project rows the resume check (which hashes every row after an edit: 2.7 s for
# 200,000 short rows) runs off the GUI thread, the Resume button saying it is checking meanwhile.
BIG_PROJECT_ROWS = 20_000
_WRITING = ("running", "unknown")  # statuses of a run whose writer may still add files, or end


def _statuses(runs: Iterable[RunInfo]) -> dict[Path, str]:
    """What the other pages list of the runs: which there are, and how each stands."""
    return {info.folder: info.status for info in runs}


def _project_rows(project: Any) -> int:
    count = getattr(project, "num_rows", None)
    return sum(count(split) for split in ("train", "dev")) if callable(count) else 0


def _external_key(session: Any) -> str:
    # Per project, by the project's uid, which travels with it: keyed by its path, the runs opened
    # with Open run folder… vanished from the list once the project was moved or renamed. The list an
    # older version kept under the path moves to the uid's key the first time it is asked for.
    # Copies of a project (cp -a, to branch an experiment) keep the uid, so they share this list, on
    # purpose: their label ids are the same ids (a run's label ids belong to the uid, and
    # rundir.label_ids_project accepts such a run in each copy), so a run attached in one is read the
    # same way in the other. Another project, with another uid, never sees it.
    folder = str(getattr(session.project, "folder", "") or "")
    by_path = f"{EXTERNAL_KEY}/{hashlib.sha1(folder.encode('utf-8')).hexdigest()[:16]}"
    uid = getattr(session.project, "uid", None)
    if not isinstance(uid, str) or not uid:
        return by_path
    by_uid = f"{EXTERNAL_KEY}/uid-{hashlib.sha1(uid.encode('utf-8')).hexdigest()[:16]}"
    settings = session.settings
    if not settings.contains(by_uid) and settings.contains(by_path):
        settings.setValue(by_uid, settings.value(by_path))
        settings.remove(by_path)
    return by_uid


def external_runs(session: Any) -> list[Path]:
    """Run folders opened from outside the project (kept across sessions, per project)."""
    value = session.settings.value(_external_key(session), [])
    if isinstance(value, str):
        value = [value]
    return [Path(v) for v in (value or []) if Path(v).is_dir()]


def add_external_run(session: Any, folder: str | Path) -> None:
    folders = [str(p) for p in external_runs(session)]
    if str(folder) not in folders:
        session.settings.setValue(_external_key(session), folders + [str(folder)])


def remove_external_run(session: Any, folder: str | Path) -> None:
    """Take a run opened from elsewhere off the list (Delete run): its folder stays where it is."""
    folders = [str(p) for p in external_runs(session)]
    if str(folder) in folders:
        session.settings.setValue(_external_key(session), [f for f in folders if f != str(folder)])


def in_project(session: Any, folder: str | Path) -> bool:
    """Whether ``folder`` is a run in the project's runs folder (one also opened with Open run
    folder… still is): the Results page and the Playground mark the others "(not in this project)"."""
    runs_dir = getattr(session.project, "runs_dir", None)
    if runs_dir is None:
        return False
    folder = Path(folder)
    try:
        if Path(runs_dir) in (folder.parent, folder.parent.parent) and not folder.is_symlink():
            return True  # the common case, without resolving each folder (2,000 runs took 0.6 s); or a job's run
        return Path(runs_dir).resolve() in (folder.resolve().parent, folder.resolve().parent.parent)
    except OSError:
        return False


def all_runs(session: Any) -> list[Path]:
    """The project's runs (oldest first), then opened run folders."""
    runs: list[Path] = []
    project = session.project
    if project is not None:
        try:
            runs = _project_runs(session, project)
        except OSError as exc:  # an unreadable runs folder must not break the page
            log.warning("cannot list runs: %s", exc)
    runs += [r for r in external_runs(session) if r not in runs]
    return runs


def _project_runs(session: Any, project: Any) -> list[Path]:
    """The project's run folders, listed once per turn of the event loop for all the pages
    (while the runs folder's own stats say no run was added, renamed or removed)."""
    folder = Path(project.runs_dir)
    try:
        st = os.stat(folder)
        marker: Any = (str(folder), st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    except OSError:
        marker = (str(folder), None)
    from bertstudio.train.seeds import with_job_runs

    # a job folder (seeds, glue) in runs/ as its runs: it was one "unknown" row, Compare "never evaluated"
    return session.run_reader.listed("project", marker, lambda: with_job_runs(project.list_runs()))


def _start_key(info: RunInfo) -> float:
    """When the run started, as recorded; a row still being read stands at its folder's mtime."""
    if info.started_at:
        return info.started_at
    try:
        return info.folder.stat().st_mtime
    except OSError:
        return float("inf")  # gone since it was listed: last


def main_score(info: RunInfo) -> tuple[str, float] | None:
    from bertstudio.tasks import official_metrics

    if not info.metrics or not info.kind:
        return None
    try:
        key = main_metric(official_metrics(info.kind, info.glue_task), info.metrics)
    except Exception:  # noqa: BLE001 - an unknown task or metric set: no score column
        return None
    return key, info.metrics[key]


def saved_nothing(info: RunInfo) -> bool:
    """A run folder its process left before writing its settings, history, scores or model (killed
    while a SetFit run was starting left only label_ids.json): no status can be read from it."""
    return info.status == "unknown" and info.config is None and not info.metrics and not info.has_model() and info.folder.is_dir()


def visible_run_name(name: str) -> str:
    """A run folder's name (or path) on one line, as every place that shows one writes it: a line
    break as "⏎", another control character as its Unicode picture ("␉"), a C1 control or a line
    or paragraph separator as its code. A folder copied in may be named anything: "bad\\nname"
    broke the Runs table's row and the run pickers' items in two. A byte that is not UTF-8 (a
    Latin-1 "run\\xe9" copied from an old archive reads as a surrogate escape) is shown as "<0xE9>":
    Qt dropped it, and the folder read as another run's "run". An invisible format character (zero
    width space, a bidi override that reversed what followed it) and a name of whitespace only (a
    lone U+00A0) are shown by code: such a run looked blank, or the same as "a". So are the rest of
    Unicode's default-ignorable characters and the letters drawn blank (a variation selector, the
    Hangul filler U+3164, the braille blank U+2800: :func:`bertstudio.train.rundir.shown_by_code`)."""
    name = str(name)
    if name and name.isspace():
        return "".join(_VISIBLE.get(c) or f"<U+{ord(c):04X}>" for c in name)
    return "".join(_VISIBLE.get(c) or _coded(c) or c for c in name)


_VISIBLE = {"\n": "⏎", "\x7f": "␡", **{chr(code): chr(0x2400 + code) for code in range(0x20) if code != 0x0A}}


def _coded(c: str) -> str | None:
    """``c`` by its code when it would not show as itself; None when it does."""
    if "\udc80" <= c <= "\udcff":  # os.fsdecode's surrogate escape of one byte that is not UTF-8
        return f"<0x{ord(c) - 0xDC00:02X}>"
    if shown_by_code(c):  # the rule's one home: Rename refuses a name it would code
        return f"<U+{ord(c):04X}>"
    return None


def shown_run_name(folder: Path, shared: Collection[str]) -> str:
    """A run's name as the app shows it (:func:`visible_run_name`): with its job folder's when it is
    one of ``shared`` (names two runs shown together share): two seeds jobs' runs read "seed-42"
    twice, in the Runs page's rows and in Compare (seeds5/seed-42 and seeds4/seed-42 now)."""
    folder = Path(folder)
    return visible_run_name(f"{folder.parent.name}/{folder.name}" if folder.name in shared else folder.name)


def run_titles(folders: Iterable[str | Path]) -> dict[Path, str]:
    """Runs listed together, each with its name as shown (:func:`shown_run_name`, over the names
    two of them share): the Runs table, Compare, the Results page's and the Playground's run lists.
    Results and the Playground listed two seeds jobs' runs as "seed-42" twice."""
    listed = list(dict.fromkeys(Path(f) for f in folders))
    shared = {name for name, n in Counter(f.name for f in listed).items() if n > 1}
    return {f: shown_run_name(f, shared) for f in listed}


class RunsModel(QAbstractTableModel):
    COLUMNS = ("run", "status", "task", "model", "mode", "epochs", "lr", "batch", "score", "started")
    _CHOSEN = ("mode", "epochs", "lr", "batch")  # the settings Automatic may have chosen: its reason as their tooltip

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.runs: list[RunInfo] = []
        self._titles: dict[Path, str] = {}  # the runs' names as shown (run_titles)
        self._listed: list[RunInfo] = []  # in the order given (oldest first), for "no column sorted"
        self._sorted_by: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def set_runs(self, runs: list[RunInfo]) -> None:
        self.beginResetModel()
        self._listed = list(runs)
        self._titles = run_titles(info.folder for info in runs)
        self.runs = self._ordered(*self._sorted_by)  # a refresh keeps the column the user sorted by
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column's value (numbers and dates as such; -1: as listed). Here rather than in
        a QSortFilterProxyModel, whose comparisons each ask data() through Python: 0.8 s a click,
        and as much again at every refresh, for 2,000 runs; this sorts them in a few ms. The
        persistent indexes follow their runs, so the selection stays on the runs picked."""
        self._sorted_by = (column, order)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        was = [self.runs[i.row()] if 0 <= i.row() < len(self.runs) else None for i in old]
        self.runs = self._ordered(column, order)
        row_of = {id(info): row for row, info in enumerate(self.runs)}
        self.changePersistentIndexList(old, [
            self.index(row_of[id(info)], i.column()) if info is not None and id(info) in row_of else QModelIndex()
            for i, info in zip(old, was)])
        self.layoutChanged.emit()

    def _ordered(self, column: int, order: Qt.SortOrder) -> list[RunInfo]:
        if not 0 <= column < len(self.COLUMNS):
            return list(self._listed)
        keys = [self._sort_value(info, self.COLUMNS[column]) for info in self._listed]
        ranked = sorted(range(len(keys)), key=keys.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)
        return [self._listed[row] for row in ranked]  # stable: runs of one value stay oldest first

    def shown_name(self, info: RunInfo) -> str:
        """The run's name, with its job folder's when another listed run shares it (:func:`run_titles`)."""
        return self._titles.get(Path(info.folder)) or visible_run_name(info.folder.name)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.runs)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        return (self.tr("Run"), self.tr("Status"), self.tr("Task"), self.tr("Model"), self.tr("Mode"), self.tr("Epochs"),
                self.tr("LR"), self.tr("Batch"), self.tr("Main score"), self.tr("Started"))[section]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self.runs)) or not (0 <= index.column() < len(self.COLUMNS)):
            return None
        info, key = self.runs[index.row()], self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            if key == "run":
                return visible_run_name(str(info.folder))
            # how it ended: a failed Automatic run says why; an interrupted one how to go on, in the user's words
            said = [run_message(info.message)] if info.message else []
            if key == "status" and saved_nothing(info):
                said.append(self.tr("The run's process was closed or killed as the run started, before it saved its "
                                    "settings or a model: nothing in this folder can be used. Delete the folder to "
                                    "remove it from this list."))
            if key in self._CHOSEN and info.config is not None and info.config.auto_reason:
                # why bertstudio chose these settings (train/small_data), kept in English in the run's
                # config.toml: said as the Train page says it
                said.insert(0, self.tr("Chosen for the data: %1").replace("%1", auto_reason_text(info.config.auto_reason)))
            # from the run's files (a received project can hold anything there): escaped inside rich
            # text, shown as written; a bare '<img src=...>' would be read as markup
            shown = "<br>".join(escape(line, quote=False).replace("\n", "<br>") for line in said)
            return f"<qt>{shown}</qt>" if said else None
        return self._text(info, key) if role == Qt.ItemDataRole.DisplayRole else None

    def _text(self, info: RunInfo, key: str) -> str:
        """The run's cell in column ``key``, as shown."""
        c = info.config
        if key == "run":
            return self.shown_name(info)
        if key == "status":
            if saved_nothing(info):  # "unknown" with every other column empty said nothing to a newcomer
                return self.tr("interrupted before it saved anything")
            return status_text(info.status)  # the tooltip says how to go on, or which file is damaged and why
        if key == "task":
            return info.glue_task or (kind_name(info.kind) if info.kind else "")
        if c is None:  # no readable config.toml: no settings to show
            return "" if key != "started" else self._started(info)
        if key == "model":
            from bertstudio.bundled import model_title

            return model_title(c.model)
        if key == "mode":  # a SetFit run's encoder is frozen after its contrastive phase: "frozen" read as a probe
            return self.tr("SetFit") if c.method == "setfit" else self._mode_text(c.mode)
        if key == "epochs":  # 13.0 from the app's spin box, 13 from the CLI: one spelling
            return f"{c.epochs:g}"
        if key == "lr":  # the head's own rate where it differs (frozen, top-N): the run name says lr only
            head = c.head_learning_rate
            return f"{c.lr:g}" if head == c.lr else self.tr("%1 (head %2)").replace("%1", f"{c.lr:g}").replace("%2", f"{head:g}")
        if key == "batch":
            return str(c.batch_size)
        if key == "score":
            score = main_score(info)
            return "" if score is None else f"{score[0]} {format_metric(*score)}"
        return self._started(info)

    def _mode_text(self, mode: str) -> str:
        """What learned, in the interface's language ("top-3" is "top 3 layers"; it was English in zh_CN)."""
        kind, _, n = str(mode).partition("-")
        if kind == "top" and n:
            return self.tr("top %1 layers").replace("%1", n)
        return {"full": self.tr("full"), "frozen": self.tr("frozen"), "lora": self.tr("LoRA")}.get(kind, str(mode))

    def _sort_value(self, info: RunInfo, key: str) -> Any:
        """Numbers and dates as numbers (a run of 10 epochs after one of 9, 1e-4 before 2e-5 no
        more), text case-blind; a row without the value sorts as the lowest."""
        c = info.config
        if key == "started":
            return _start_key(info)
        if key == "score":
            score = main_score(info)
            return float("-inf") if score is None else float(score[1])
        if key in ("epochs", "lr", "batch"):
            return float("-inf") if c is None else float({"epochs": c.epochs, "lr": c.lr, "batch": c.batch_size}[key])
        if key == "run":
            return self.shown_name(info).casefold()
        return self._text(info, key).casefold()

    @staticmethod
    def _started(info: RunInfo) -> str:
        return dt.datetime.fromtimestamp(info.started_at).strftime("%Y-%m-%d %H:%M") if info.started_at else ""


class RunsPage(QWidget):
    run_activated = Signal(str)  # "show this run's results"
    resume_requested = Signal(str)  # "continue this stopped run" (the Train page does, MainWindow.resume_run)
    status_message = Signal(str)  # for the window's status bar: where deleted runs went
    example_activated = Signal(str, int)  # an example opened in a comparison: the window shows it on the Label page

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.follower: RunFollower | None = None
        self._lost: str | None = None  # why the run followed last is no longer followed
        self.model = RunsModel(self)  # oldest first, or by the column whose header was clicked
        self.table = QTableView(objectName="runsTable")
        self.table.setTabKeyNavigation(False)  # Tab reaches Follow, Compare, Rename and Resume after it
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # none yet: oldest first
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)  # two runs: Compare
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.doubleClicked.connect(self._on_double_clicked)
        open_on_enter(self.table, self._on_double_clicked)  # Enter opens the current run's results, as a double-click
        self.table.horizontalHeader().setStretchLastSection(True)
        refresh = QPushButton(self.tr("&Refresh"), objectName="refreshRunsButton")
        refresh.clicked.connect(self.refresh)
        open_button = QPushButton(self.tr("&Open run folder…"), objectName="openRunButton")
        open_button.clicked.connect(self._browse_run)
        self.follow_button = QPushButton(self.tr("Fo&llow selected run live"), objectName="followRunButton", enabled=False)
        self.follow_button.clicked.connect(self._follow_selected)
        self.compare_button = QPushButton(self.tr("Co&mpare"), objectName="compareRunsButton", enabled=False)
        self.compare_button.setToolTip(self.tr("Select two runs to compare their curves, settings and predictions"))
        self.compare_button.clicked.connect(self.compare_selected)
        self.rename_button = QPushButton(self.tr("Re&name…"), objectName="renameRunButton", enabled=False)
        self._rename_tip = self.tr("Give the selected run of this project a name of your own")
        self.rename_button.setToolTip(self._rename_tip)
        self.rename_button.clicked.connect(self._ask_rename)
        self.resume_button = QPushButton(self.tr("Res&ume"), objectName="resumeRunButton", enabled=False)
        # a big project's resume rule is asked on a JobWorker, one at a time: the one running, the
        # (folder, project) it asks for, and the one the selection wants now (None: no answer awaited)
        self._resume_check: Any = None
        self._resume_asked: tuple[Path, Any] | None = None
        self._resume_wanted: tuple[Path, Any] | None = None
        self.resume_button.setToolTip(self.tr("Continue the selected stopped run from its last checkpoint"))
        self.resume_button.clicked.connect(self._resume_selected)
        self.delete_button = QPushButton(self.tr("&Delete…"), objectName="deleteRunButton", enabled=False)
        self._delete_tip = self.tr("Move the selected runs to the trash (Edit > Undo puts them back); "
                                   "a run opened from elsewhere only leaves this list")
        self.delete_button.setToolTip(self._delete_tip)
        self.delete_button.clicked.connect(self._ask_delete)
        # the same, from the table's context menu and its Delete key
        self.delete_action = QAction(self.tr("&Delete…"), self.table, objectName="deleteRunAction", enabled=False)
        self.delete_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.setWhatsThis(self.tr("Delete the selected runs"))  # what Help > Keyboard shortcuts says
        self.delete_action.triggered.connect(self._ask_delete)
        self.rename_action = QAction(self.tr("Re&name…"), self.table, enabled=False)
        self.rename_action.triggered.connect(self._ask_rename)
        self.table.addActions([self.rename_action, self.delete_action])
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # the question Delete asks (tests answer it): True to delete
        self.confirm_delete = self._confirm_delete
        self.show_refusal = self._show_refusal  # why a run was not deleted (tests keep what it said)
        # the read-only line of the project, as the window says it: the window knows whether read-only was
        # asked for (then the line says how to make the project writable here), this page does not
        self.read_only_line: Callable[[], str] = read_only_text
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.follow_label = QLabel(objectName="followLabel", wordWrap=True)
        # plain: it shows run folders' names as they are (a run named "<b>x</b>" read as markup)
        self.follow_label.setTextFormat(Qt.TextFormat.PlainText)
        self.monitor = TrainingMonitor(names=False)
        # the buttons wrap onto a second line in a narrow window: seven in a row set the window's
        # narrowest width past 865 px once Delete… came
        buttons = QWidget(objectName="runsButtons")
        bar = FlowLayout(buttons)
        for w in (refresh, open_button, self.follow_button, self.compare_button, self.rename_button, self.resume_button,
                  self.delete_button):
            bar.addWidget(w)
        top = QWidget()
        tv = QVBoxLayout(top)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addWidget(buttons)
        tv.addWidget(self.table)
        bottom = QWidget()
        bv = QVBoxLayout(bottom)
        bv.setContentsMargins(0, 0, 0, 0)
        bv.addWidget(self.follow_label)
        bv.addWidget(self.monitor, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        QVBoxLayout(self).addWidget(split)
        session.runs_changed.connect(self.refresh)
        session.project_opened.connect(self.refresh)
        session.project_closed.connect(self.refresh)
        session.run_reader.read.connect(self.refresh)  # runs read off the GUI thread are in
        # a run another process adds to runs/ (the CLI, a sync), or a file a listed run still being
        # written adds, lists without Refresh; coalesced, as a run writes several files at once
        self._watcher = QFileSystemWatcher(self)
        self._changed = QTimer(self, singleShot=True, interval=300)
        self._watcher.directoryChanged.connect(self._changed.start)
        self._changed.timeout.connect(self.look_again)
        # A run still being written is looked at again every few seconds, on every system: a CLI run
        # killed -9 changes no folder entry (it only lets its lock go), so no watcher hears it, and
        # it read "running" for good. Windows also holds a watched folder open (a run folder could
        # not be renamed, removed or replaced by --overwrite): there only runs/ is watched.
        self._poll = QTimer(self, interval=2000)
        self._poll.timeout.connect(self._look_at_running)
        self._announcing = False  # set while this page tells the others what it found on disk
        self._unwatched = False  # Windows: folders the watcher leaves alone (a job's next seed) are polled
        self.refresh()

    def _on_double_clicked(self, idx: QModelIndex) -> None:
        self.run_activated.emit(str(self.model.runs[idx.row()].folder))

    def refresh(self, *_: object) -> None:
        if self._announcing:  # runs_changed from look_again: listed already
            return
        # by the recorded start (Started, Compare's older A), not the folders' mtimes, which a copy
        # or a resume moves; a run of the same second keeps its listed place
        self._show_runs(sorted(self.session.run_reader.infos(all_runs(self.session)), key=_start_key))

    def _show_runs(self, infos: list[RunInfo]) -> None:
        picked = {r.folder for r in self.selected_runs()}
        self.model.set_runs(infos)
        if len(self.model.runs) <= _FIT_COLUMNS_UP_TO:  # it measures up to 1,000 rows: 4 s for 2,000 runs
            self.table.resizeColumnsToContents()  # a handful of rows: the settings fit without "…"
        self._select(picked)  # a model reset drops the selection: the runs picked stay picked
        if self.follower is not None and self.follower.folder not in {r.folder for r in self.model.runs}:
            if Path(self.follower.folder).is_dir():
                self.stop_following()  # its project closed: no curves of a run not listed
            else:
                self._say_run_gone()  # removed or renamed elsewhere: said, not dropped without a word
        if self.follower is None:
            self.follow_label.setText(self._lost or self._hint())
        self._say_loss_weighting()
        self._watch()

    def look_again(self, *_: object) -> None:
        """List the runs again from disk (the watcher heard runs/ change, a running run was polled,
        the page was shown), quietly when nothing changed: a table reset every poll lost the
        double-click under way. When runs came or went or a status changed, every page listing runs
        hears it: Results kept showing a run removed in a terminal, and never listed a new CLI run."""
        infos = sorted(self.session.run_reader.infos(all_runs(self.session)), key=_start_key)
        if infos == self.model._listed:
            self._watch()
            return
        before = _statuses(self.model.runs)
        self._show_runs(infos)
        if _statuses(self.model.runs) != before:
            self._announcing = True  # this page has just listed them: it does not list them again
            try:
                self.session.notify_runs_changed(listed_now=True)
            finally:
                self._announcing = False

    def _look_at_running(self) -> None:
        """The poll: ask the runs still being written again (their lock, once per turn: cheap), and
        the other listed runs' files too while they are few (a config.toml edited by hand in place)."""
        runs = self.model.runs
        # not the interrupted ones, which the cache reads again whole each turn (their lock, then their
        # history): a Refresh, the page shown or the watcher asks them
        few = len(runs) <= _FIT_COLUMNS_UP_TO
        asked = [r for r in runs if r.status in _WRITING or (few and r.status != "interrupted")]
        if self._unwatched or self.session.run_reader.infos([r.folder for r in asked]) != asked:
            self.look_again()
        else:
            self._watch()

    def _select(self, folders: set[Path]) -> None:
        """Select the listed runs in ``folders`` (none: no selection); one picked is followed."""
        selection, last = QItemSelection(), self.model.columnCount() - 1
        for row, info in enumerate(self.model.runs):
            if info.folder in folders:
                selection.select(self.model.index(row, 0), self.model.index(row, last))
        self.table.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self._on_selection_changed()

    def _watch(self) -> None:
        """Watch the project's runs folder, its job folders and its runs still being written (a new
        run's first files, a seeds job's next seed, a run's end); stat only, no file is read."""
        runs_dir = getattr(self.session.project, "runs_dir", None)
        wanted: set[str] = set()
        if runs_dir is not None and Path(runs_dir).is_dir():
            root = Path(runs_dir)
            wanted.add(str(root))
            writing = 0
            for info in self.model.runs:
                if info.folder.parent != root and info.folder.parent.parent == root:
                    wanted.add(str(info.folder.parent))  # a seeds job or glue folder: its next run
                if info.status in _WRITING and writing < _WATCHED_RUNS_UP_TO \
                        and root in (info.folder.parent, info.folder.parent.parent):
                    wanted.add(str(info.folder))  # its config.toml, a seeds job's first seed, its metrics.json
                    writing += 1
        runs = self.model.runs
        # and while the page is on screen, a few runs' files (a config.toml edited by hand in place
        # changes no folder entry; a stat each, no read): the list showed the old lr until Refresh
        polled = any(info.status in _WRITING for info in runs) or (
            self.isVisible() and 0 < len(runs) <= _FIT_COLUMNS_UP_TO)
        if atomic.WINDOWS and runs_dir is not None:
            held = wanted - {str(Path(runs_dir))}
            wanted -= held
            polled = polled or bool(held)
        self._unwatched = atomic.WINDOWS and polled
        if polled and not self._poll.isActive():
            self._poll.start()
        elif not polled:
            self._poll.stop()
        watched = set(self._watcher.directories())
        if watched - wanted:
            self._watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self._watcher.addPaths(sorted(wanted - watched))

    def _say_loss_weighting(self) -> None:
        """The followed run's loss curve says whether it is class-weighted, from its config as listed
        (read off the GUI thread: a row still being read says so once the list refreshes)."""
        if self.follower is None:
            return
        info = next((r for r in self.model.runs if r.folder == self.follower.folder), None)
        config = info.config if info is not None else None
        self.monitor.set_class_weighted(config is not None and config.class_weight != "none")

    def _hint(self) -> str:
        """What the empty curves below the table are waiting for."""
        reading = sum(info.status == READING for info in self.model.runs)
        if reading:
            return self.tr("Reading %n run(s)…", "", reading)
        if self.model.runs:
            return self.tr("Select a run to see its curves; double-click it to open its results.")
        if self.session.has_project():
            return self.tr("No runs yet: start one on the Train page, and it appears here as it trains.")
        return self.tr("No project open: open or create one to see its runs, or open a run folder.")

    def selected_runs(self) -> list[RunInfo]:
        return [self.model.runs[i.row()] for i in self.table.selectionModel().selectedRows()]

    def _on_selection_changed(self, *_: object) -> None:
        runs = self.selected_runs()
        self.compare_button.setEnabled(len(runs) == 2 and all(r.status != READING for r in runs))  # read first
        self.follow_button.setEnabled(len(runs) == 1)  # it did nothing, silently, with none selected
        self.rename_button.setEnabled(len(runs) == 1 and self._renamable(runs[0]))
        self.rename_action.setEnabled(self.rename_button.isEnabled())
        # a read-only project: greyed, the read-only line saying why, as Import is (they moved its runs
        # out from under its other windows); a run opened from elsewhere still leaves the list
        read_only = is_read_only(self.session.project)
        deletable = bool(runs) and not (read_only and any(self._own(r) for r in runs))
        self.delete_button.setEnabled(deletable)
        self.delete_action.setEnabled(deletable)
        for widget, tip in ((self.delete_button, self._delete_tip), (self.delete_action, self._delete_tip),
                            (self.rename_button, self._rename_tip), (self.rename_action, self._rename_tip)):
            widget.setToolTip(self.read_only_line() if read_only else tip)
        self._offer_resume(runs[0] if len(runs) == 1 else None)
        if len(runs) == 1 and (self.follower is None or self.follower.folder != runs[0].folder):
            self.follow(runs[0].folder)  # one run picked: its curves (a run still training keeps drawing)

    def _own(self, info: RunInfo) -> bool:
        """Whether Delete would move ``info``'s folder (a run of the project, or a link in its runs folder)."""
        from bertstudio.ui.run_delete import linked_here

        return in_project(self.session, info.folder) or linked_here(self.session, info.folder)

    def _renamable(self, info: RunInfo) -> bool:
        """Only the project's own runs, none still being written, and not in a read-only project."""
        runs_dir = getattr(self.session.project, "runs_dir", None)
        return (runs_dir is not None and info.folder.parent == Path(runs_dir) and info.status not in ("running", READING)
                and not is_read_only(self.session.project))

    def rename_refusal(self, folder: Path) -> str | None:
        """Why ``folder`` cannot be renamed now, in the user's words: a read-only project, or an export
        or a push reading the run; None when nothing stands in the way."""
        from bertstudio.ui.run_delete import run_job_refusal

        if is_read_only(self.session.project):
            return self.read_only_line()
        return run_job_refusal(self.session, Path(folder))

    def _ask_rename(self) -> None:
        runs = self.selected_runs()
        if len(runs) != 1:
            return
        refused = self.rename_refusal(runs[0].folder)
        if refused is not None:
            QMessageBox.warning(self, self.tr("Rename run"), refused)
            return
        name, ok = QInputDialog.getText(self, self.tr("Rename run"), self.tr("New name:"), text=runs[0].name)
        if ok and name.strip() and name.strip() != runs[0].name:
            try:
                self.rename(runs[0].folder, name)
            except (BertStudioError, OSError) as exc:
                QMessageBox.warning(self, self.tr("Rename run"), str(exc))

    def _offer_resume(self, info: RunInfo | None) -> None:
        """Resume for a stopped run of this project that the Train page can continue (the core's one
        rule, rundir.project_resume_problem: a checkpoint with its rows' fingerprints, this project's,
        its labels as they were); otherwise the tooltip says why, as the Resume box would. In a big
        project the rule, which hashes every row after an edit, is asked off the GUI thread."""
        from bertstudio.train.rundir import Said, project_resume_problem

        self._resume_wanted = None  # an answer still coming is for another selection, or stale
        why: Any = None
        own = info is not None and self._renamable(info)
        stopped = own and info.status in ("cancelled", "interrupted")
        if stopped:
            project = self.session.project
            if _project_rows(project) > BIG_PROJECT_ROWS:
                self._check_resume_in_background(info.folder, project)
                return
            try:
                why = project_resume_problem(info.folder, project, stopped=True)
            except (BertStudioError, OSError) as exc:
                why = str(exc)
        elif own:  # a finished run, or one of no outcome: said, not silent
            kind = {"finished": "finished", "running": "training"}.get(info.status, "never_started")
            why = Said(kind, kind)
        elif info is not None and is_read_only(self.session.project) and self._own(info):  # a resume writes into it
            why = self.read_only_line()
        self._show_resume(stopped and why is None, why)

    def _show_resume(self, offered: bool, why: Any) -> None:
        from bertstudio.ui.run_words import resume_refusal

        self.resume_button.setEnabled(offered)
        self.resume_button.setToolTip(resume_refusal(why) if why is not None
                                      else self.tr("Continue the selected stopped run from its last checkpoint"))

    def _check_resume_in_background(self, folder: Path, project: Any) -> None:
        from bertstudio.train.rundir import project_resume_problem
        from bertstudio.ui.jobs import JobWorker

        self.resume_button.setEnabled(False)
        self.resume_button.setToolTip(self.tr("Checking whether the selected run can be resumed…"))
        self._resume_wanted = (Path(folder), project)
        if self._resume_check is not None:  # one at a time: asked when the running one ends (each
            return                          # hashes every row; arrowing through runs piled them up)
        self._resume_asked = self._resume_wanted
        worker = JobWorker(lambda _progress, _cancel: project_resume_problem(folder, project, stopped=True),
                           name="bertstudio-resume-check")
        self._resume_check = worker
        # bound methods, not lambdas holding the worker (results_page: each kept its worker alive)
        worker.finished.connect(self._on_resume_checked)
        worker.failed.connect(self._on_resume_check_failed)
        worker.start()

    def _on_resume_checked(self, why: Any) -> None:
        self._on_resume_answer(self.sender(), why)

    def _on_resume_check_failed(self, message: str) -> None:
        self._on_resume_answer(self.sender(), message or "?")

    def _on_resume_answer(self, worker: Any, why: Any) -> None:
        if worker is not None:
            worker.deleteLater()  # its check is over (the ThreadJob has let go of it)
        if worker is not self._resume_check:
            return
        self._resume_check, asked = None, self._resume_asked
        wanted = self._resume_wanted
        if wanted is None:  # the selection moved to a run asked on the GUI thread, or to none
            return
        if wanted[0] == asked[0] and wanted[1] is asked[1]:
            self._resume_wanted = None
            self._show_resume(why is None, why)
        else:  # another run was picked, or the page shown again, meanwhile: asked now
            self._check_resume_in_background(*wanted)

    def is_checking_resume(self) -> bool:
        """Whether the selected run's resume check is still running off the GUI thread."""
        return self._resume_wanted is not None

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        """Resume asked again for the picked run: its rows may have been relabelled, or its model moved,
        while another page was shown (it stayed offered, and was refused only after the click)."""
        super().showEvent(event)
        self.look_again()  # a finished run's config.toml or metrics.json edited in place meanwhile (no watcher hears it)
        runs = self.selected_runs()
        self._offer_resume(runs[0] if len(runs) == 1 else None)

    def hideEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().hideEvent(event)
        self._watch()  # the finished runs' files are polled only while they are on screen

    def _resume_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1:
            self.resume_requested.emit(str(runs[0].folder))

    def rename(self, folder: Path, name: str) -> Path:
        """Rename one of the project's runs; the pages showing runs refresh. ConfigError in a project
        opened read-only, and for a run an export or a push reads (see run_delete.record_run_job)."""
        from bertstudio.errors import ConfigError

        folder = Path(folder)
        refused = self.rename_refusal(folder)
        if refused is not None:  # the box says the sentence alone (_ask_rename)
            raise ConfigError(refused, path=folder, where="run name", facts={"said": refused})
        if str(folder) in self._watcher.directories():  # Windows holds a watched folder: it could not be renamed
            self._watcher.removePath(str(folder))
        followed = self.follower is not None and Path(self.follower.folder) == Path(folder)
        if followed:  # its follower watches the folder and its history too: let go first
            self.stop_following()
        try:
            target = rename_run(folder, name)
        except BaseException:
            if followed:  # refused (a training writing it, a name taken): the curves come back
                self.follow(folder)
            raise
        self.refresh()
        self._select({target})  # it stays picked and followed under its new name
        self.session.run_renamed.emit(str(folder), str(target))  # before the pages list again: they follow it
        self.session.notify_runs_changed()
        return target

    def _ask_delete(self) -> None:
        runs = self.selected_runs()
        if runs and self.confirm_delete([r.folder for r in runs]):
            self.delete_runs([r.folder for r in runs])

    def _confirm_delete(self, folders: list[Path]) -> bool:
        from bertstudio.ui.run_delete import confirm_text

        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete runs"), confirm_text(folders, self.session),
                          QMessageBox.StandardButton.Cancel, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # run names as they are
        delete = box.addButton(self.tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is delete

    def delete_runs(self, folders: Iterable[str | Path]) -> Any:
        """Delete runs (no question asked): the project's to the trash, others off the list; one
        command on the undo stack puts them back. A run training now is refused (``show_refusal``);
        the followed run is let go first. Returns the command pushed (None: nothing went)."""
        from bertstudio.ui.run_delete import DeleteRunsCommand, deleted_text, delete_runs

        folders = [Path(f) for f in folders]
        for folder in folders:  # Windows holds a watched folder: it could not be moved
            if str(folder) in self._watcher.directories():
                self._watcher.removePath(str(folder))
        followed = Path(self.follower.folder) if self.follower is not None else None
        if followed in folders:  # its follower watches the folder and reads its history: let go first
            self.stop_following()
        done, problem = delete_runs(self.session, folders)
        command = None
        if done:
            text = (self.tr("Delete run %1").replace("%1", visible_run_name(done[0].folder.name)) if len(done) == 1
                    else self.tr("Delete %n runs", "", len(done)))
            command = DeleteRunsCommand(self.session, done, text, say=self.status_message.emit)
            self.session.undo_stack.push(command)
            self.session.notify_runs_changed()  # this page and every other listing runs refresh
            self.status_message.emit(deleted_text(done))
        if followed in folders and followed not in {d.folder for d in done} and followed.is_dir():
            self.follow(followed)  # refused: its curves come back
        if problem:
            self.show_refusal(problem)
        return command

    def _show_refusal(self, problem: str) -> None:
        QMessageBox.warning(self, self.tr("Delete runs"), problem)

    def compare_selected(self) -> Any:
        """Open the comparison of the two selected runs, the older one as A."""
        runs = self.selected_runs()
        if len(runs) != 2:
            return None
        from bertstudio.ui.run_compare import open_compare

        a, b = sorted(runs, key=lambda r: (r.started_at, r.name))
        dialog = open_compare(self.session, a.folder, b.folder, self)
        dialog.example_activated.connect(self.example_activated)
        return dialog

    def _browse_run(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a run folder (with history.jsonl)"))
        if folder:
            self.open_run(folder)

    def open_run(self, folder: str | Path) -> None:
        """Add a run folder started elsewhere and follow it live; a seeds job's folder (``--seeds N``:
        seed-N runs and seeds.json) or a ``bertstudio glue`` folder (a run per task, scoreboard.json)
        adds each of its runs, and follows the last."""
        from bertstudio.train.seeds import job_runs

        # it showed as one 'unknown' row, its runs unlisted (a glue folder: an empty Scoreboard)
        runs = job_runs(folder) or [Path(folder)]
        for run in runs:
            add_external_run(self.session, run)
        self.refresh()
        self.session.notify_runs_changed()
        self.follow(runs[-1])

    def _follow_selected(self) -> None:
        runs = self.selected_runs()
        if len(runs) == 1:
            self.follow(runs[0].folder)

    def follow(self, folder: str | Path) -> RunFollower:
        """Replay the run's history into the plots, then keep reading what is appended."""
        self.stop_following()
        self.monitor.reset()
        follower = RunFollower(folder, parent=self)
        follower.started.connect(self.monitor.on_started)
        follower.resumed.connect(self.monitor.on_resumed)
        follower.step_logged.connect(self.monitor.on_steps)
        follower.evaluated.connect(self.monitor.on_evaluated)
        follower.ended.connect(self._on_run_ended)
        follower.gone.connect(self._on_run_gone)
        # its row shows the run now there (settings, score), after the read that found it replaced
        follower.replaced.connect(self.refresh, Qt.ConnectionType.QueuedConnection)
        self.follower = follower
        self.follow_label.setText(self.tr("Following {folder}").format(folder=visible_run_name(str(folder))))
        self._say_loss_weighting()
        follower.start()
        return follower

    def stop_following(self) -> None:
        self._lost = None
        if self.follower is not None:
            self.follower.stop()
            self.follower.deleteLater()
            self.follower = None
            self.follow_label.setText(self._hint())

    def _on_run_gone(self) -> None:
        """The followed run's folder went away while followed (rm -r, a rename in another terminal):
        the page kept saying "Following …" over a frozen progress bar. Said, and the list refreshed."""
        self._say_run_gone()
        self.refresh()

    def _say_run_gone(self) -> None:
        folder = self.follower.folder if self.follower is not None else None
        self.stop_following()
        if folder is None:
            return
        self._lost = self.tr("{run} was removed or renamed outside bertstudio; its curves are no longer followed"
                             ).format(run=visible_run_name(str(folder)))
        self.follow_label.setText(self._lost)
        self.monitor.log(self._lost)

    def _on_run_ended(self, ev: RunFinished) -> None:
        self.monitor.on_ended(ev)
        folder = self.follower.folder if self.follower is not None else None
        listed = {r.folder: r.status for r in self.model.runs}
        if listed.get(folder) in (None, "running"):  # a run that ended while followed; a replayed one is
            self.refresh()  # as listed (a reset mid-click would swallow the double-click that opens it)
