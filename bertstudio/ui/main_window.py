"""The main window: menus, toolbar, the page switcher, the status bar.

Pages are views over the one :class:`ProjectSession`; each is built as
``Page(session, parent=None)``. The training-side pages are imported by module
and class name so the shell does not depend on their internals.
"""

from __future__ import annotations

import contextlib
import html
import importlib
import logging
import os
from typing import Any, Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QCoreApplication, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QStyle,
    QWidget,
)

from bertstudio.data.project_meta import shown_name
from bertstudio.errors import BertStudioError
from bertstudio.ui.actions import build_actions, toolbar_text
from bertstudio.ui.data_page import DataPage
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.elided import ElidedLabel
from bertstudio.ui.file_drop import FileDropFilter
from bertstudio.ui.help_panel import ShortcutsDialog
from bertstudio.ui.import_target import choose_split_backup
from bertstudio.ui.run_words import (is_read_only, project_refusal, read_only_text, recovery_text,
                                     rows_or_tokens)
from bertstudio.ui.session import SPLITS, ProjectSession, split_name
from bertstudio.ui.welcome import WelcomePanel

log = logging.getLogger(__name__)
RECOVERY_LINES_SHOWN = 12  # lines of the recovery box; all of them under its Show Details

def _t(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


# (key, title, module, class) in switcher order; each page is built as Page(session).
PAGES: tuple[tuple[str, str, str, str], ...] = (
    ("data", QT_TRANSLATE_NOOP("MainWindow", "Data"), "bertstudio.ui.data_page", "DataPage"),
    ("label", QT_TRANSLATE_NOOP("MainWindow", "Label"), "bertstudio.ui.editors.page", "LabelPage"),
    ("train", QT_TRANSLATE_NOOP("MainWindow", "Train"), "bertstudio.ui.training_page", "TrainingPage"),
    ("results", QT_TRANSLATE_NOOP("MainWindow", "Results"), "bertstudio.ui.results_page", "ResultsPage"),
    ("playground", QT_TRANSLATE_NOOP("MainWindow", "Playground"), "bertstudio.ui.playground", "PlaygroundPage"),
    ("runs", QT_TRANSLATE_NOOP("MainWindow", "Runs"), "bertstudio.ui.runs_page", "RunsPage"),
    ("scoreboard", QT_TRANSLATE_NOOP("MainWindow", "GLUE scoreboard"), "bertstudio.ui.scoreboard_page",
     "ScoreboardPage"),
)
# Pages with nothing to show without a project: the welcome panel stands in for them (ui/welcome.py).
WELCOME_PAGES = ("data", "label")
CLOSE_WAIT_MS = 60_000  # closed mid-training: the window goes at once, the close ends with the run or after this


class MainWindow(QMainWindow):
    # the close went through (a close mid-training ends later, with the window already hidden, when
    # Qt's "last window closed" no longer fires: the app quits on this instead)
    closed = Signal()

    def __init__(self, session: ProjectSession | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.session = session if session is not None else ProjectSession(parent=self)
        self.settings: QSettings = self.session.settings
        self.pages: dict[str, QWidget] = {}
        self.recovery_box: QMessageBox | None = None
        self._opening_read_only = False  # open_project is opening a project read-only by choice
        self._read_only_asked = False  # the open project was opened read-only by choice (Open read-only)
        self.preload_thread: Any = None  # set by start_preload()
        self._build_pages()
        build_actions(self, PAGES)  # menus, toolbar and every QAction as an attribute (ui/actions.py)
        focus_shortcut = getattr(self.pages["label"], "set_focus_shortcut", None)
        if focus_shortcut is not None:  # the Label page's note names the key that gives its editor the keys
            focus_shortcut(self.findChild(QAction, "show_labelAction").shortcut().toString(QKeySequence.SequenceFormat.NativeText))
        self._build_status_bar()
        self.session.project_opened.connect(self._on_project_opened)
        self.session.project_closed.connect(self._on_project_closed)
        self.session.gold_changed.connect(self._update_status)
        self.session.data_imported.connect(self._update_status)
        self.session.current_example_changed.connect(self._update_status)
        self.session.project_closing.connect(self._on_project_closing)
        self.session.undo_stack.cleanChanged.connect(lambda _c: self._update_title())
        self.session.failed.connect(self.show_failure)
        self.file_drop = FileDropFilter(self)  # a data file dropped on the window opens Import with it
        self.file_drop.file_dropped.connect(self.import_data)
        self.resize(1280, 820)
        geometry = self.settings.value("mainWindow/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("mainWindow/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        if self.session.has_project():
            self._on_project_opened(self.session.project)
        else:
            self._on_project_closed()
        # Fold long journals into the data files while the user is idle (cheap check, rare work).
        self._closing_after_run: QTimer | None = None  # closed mid-training: waiting for the run to end
        self._closing_after_export = False  # closed mid-export: waiting for the folder to be written
        self._quit_with_jobs_confirmed = False  # this close attempt: the push/export question answered yes
        self._jobs: list[tuple[str, Any]] = []  # ("push" | "export", JobWorker): see track_job
        self._leave_after: Callable[[], Any] | None = None  # leaving the project, again once its jobs ended
        training = self.pages.get("train")
        if training is not None:
            training.run_ended.connect(self._on_project_job_ended)
            training.run_started.connect(self._call_off_leaving)
        self._compact_timer = QTimer(self)
        self._compact_timer.setInterval(60_000)
        self._compact_timer.timeout.connect(self._compact_if_large)
        self._compact_timer.start()

    # -- pages -------------------------------------------------------------------------------
    def _build_pages(self) -> None:
        self.page_list = QListWidget(objectName="pageList")
        self.page_stack = QStackedWidget(objectName="pageStack")
        for key, title, module, cls in PAGES:  # imported by name: the shell does not depend on page internals
            page = getattr(importlib.import_module(module), cls)(self.session)
            page.setProperty("pageKey", key)
            self.pages[key] = page
            self.page_stack.addWidget(page)
            self.page_list.addItem(_t(title))
        self.welcome = WelcomePanel()
        self.welcome.new_requested.connect(self.new_project)
        self.welcome.open_requested.connect(lambda: self.open_project())
        self.welcome.recent_requested.connect(self.open_project)
        self.page_stack.addWidget(self.welcome)
        self.page_list.currentRowChanged.connect(self._show_row)
        self.page_list.itemClicked.connect(lambda _item: self._focus_page())  # also the page already shown
        self.page_list.setCurrentRow(0)
        data_page = self.pages["data"]
        if isinstance(data_page, DataPage):
            data_page.example_activated.connect(self._on_example_activated)
        for key in ("train", "label", "results", "runs"):
            message = getattr(self.pages[key], "status_message", None)
            if message is not None:  # a warm start's note; why Enter did nothing on an audit example
                message.connect(self._show_status)
        exported = getattr(self.pages["train"], "run_exported", None)
        if exported is not None:  # Export run… writes on a worker and says where when done
            exported.connect(lambda out: self.statusBar().showMessage(self.tr("Run exported to %1").replace("%1", out), 8000))
        activated = getattr(self.pages["runs"], "run_activated", None)
        if activated is not None:  # double-clicking a run opens its results
            activated.connect(self._on_run_activated)
        compared = getattr(self.pages["runs"], "example_activated", None)
        if compared is not None:  # an example opened in Compare runs: shown on the Label page, as from the Data page
            compared.connect(self._on_example_activated)
        if hasattr(self.pages["runs"], "read_only_line"):  # its greyed buttons' tooltips say the window's line
            self.pages["runs"].read_only_line = self.read_only_line
        resume = getattr(self.pages["runs"], "resume_requested", None)
        if resume is not None:  # Resume on the Runs page: the run goes on on the Train page
            resume.connect(self.resume_run)
        # as wide as its longest title in the font in use ("GLUE scoreboard" was cut at 16 pt), 150 px at least
        titles = [self.page_list.item(i).text() for i in range(self.page_list.count())]
        widest = max((self.page_list.fontMetrics().horizontalAdvance(t) for t in titles), default=0)
        self.page_list.setFixedWidth(max(150, widest + 4 * self.page_list.frameWidth() + 24))
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(4, 4, 4, 4)
        row.addWidget(self.page_list)
        row.addWidget(self.page_stack, 1)
        self.setCentralWidget(central)

    def start_preload(self, delay_ms: int = 1000) -> None:
        """Import torch/transformers/the engine on a background thread ``delay_ms`` after now, so the
        seconds they cost (much of it holding the GIL) fall while the window is idle, not at Start."""
        from bertstudio.ui.preload import preload_in_background

        def begin() -> None:
            self.preload_thread = preload_in_background()

        QTimer.singleShot(delay_ms, self, begin)

    def _show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 15_000)

    def page(self, key: str) -> QWidget:
        return self.pages[key]

    def show_page(self, key: str) -> None:
        self.page_list.setCurrentRow([k for k, *_ in PAGES].index(key))
        self._focus_page()

    def _show_row(self, row: int) -> None:
        """Show the switcher's page ``row``, or the welcome panel for it while no project is open."""
        if row < 0:
            return
        if PAGES[row][0] in WELCOME_PAGES and not self.session.has_project():
            self.welcome.set_recent(self.session.recent_projects())
            self.page_stack.setCurrentWidget(self.welcome)
        else:
            self.page_stack.setCurrentIndex(row)

    def _focus_page(self) -> None:
        """A page that names a focus proxy (the Label page: its editor) takes the keys when shown."""
        page = self.page_stack.currentWidget()
        if page is not None and page.focusProxy() is not None and page.isEnabled():
            page.setFocus()

    def current_page_key(self) -> str:
        return PAGES[max(0, self.page_list.currentRow())][0]

    def resume_run(self, folder: str) -> bool:
        """Continue a stopped run of the project on the Train page (shown); why not, in a message box."""
        resume = getattr(self.pages["train"], "resume_run", None)
        if not callable(resume):
            return False
        why = resume(folder)
        if why:  # escaped inside rich text: a run folder's name may hold "<b>" (a CLI --out)
            QMessageBox.warning(self, self.tr("Resume run"), f"<qt>{html.escape(why, quote=False)}</qt>")
            return False
        self.show_page("train")
        return True

    def _on_run_activated(self, folder: str) -> None:
        results = self.pages["results"]
        show_run = getattr(results, "show_run", None)
        if callable(show_run):
            show_run(folder)
        self.show_page("results")

    def _on_example_activated(self, split: str, row: int) -> None:
        self.session.set_current(split, row)
        self.show_page("label")

    def _build_status_bar(self) -> None:
        self.project_label = ElidedLabel(objectName="statusProject")  # shortened, never cut, in a narrow window
        self.split_label = QLabel(objectName="statusSplit")
        self.progress_label = QLabel(objectName="statusProgress")
        for w in (self.project_label, self.split_label, self.progress_label):
            self.statusBar().addPermanentWidget(w)
        from bertstudio.ui.assist_status import AssistStatus

        self.assist_status = AssistStatus(self.session.assist)  # the labelling assistant: model, audit, training
        self.statusBar().addPermanentWidget(self.assist_status)
        self.statusBar().messageChanged.connect(self._fit_status_message)

    def _fit_status_message(self, *_args: Any) -> None:
        """A transient message takes the room it needs from the permanent notes: the project's name
        yields first (elided, whole in its tooltip), then the split and progress notes hide until the
        message goes; a message longer than the bar still is whole in the bar's tooltip. At 865 px
        "…: stored, and the scale is now 0-1000" was cut off by the project note."""
        bar = self.statusBar()
        text = bar.currentMessage()
        bar.setToolTip(text)
        self.project_label.setMaximumWidth(16777215)  # QWIDGETSIZE_MAX
        yielding = (self.split_label, self.progress_label)
        for w in yielding:
            w.setVisible(True)
        if not text:
            return
        spacing = 2 * bar.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing) + 12
        need = bar.fontMetrics().horizontalAdvance(text) + 2 * spacing
        others = [w for w in (*yielding, self.assist_status) if w.isVisibleTo(bar)]
        room = bar.width() - need - sum(w.sizeHint().width() + spacing for w in others)
        if room >= self.project_label.sizeHint().width():
            return
        least = self.project_label.minimumSizeHint().width()
        for w in yielding:  # still short: the split and the count give way too
            if room >= least:
                break
            room += w.sizeHint().width() + spacing
            w.setVisible(False)
        self.project_label.setMaximumWidth(max(room, least))

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.statusBar().currentMessage():  # a message shown in a wider or narrower window
            self._fit_status_message()

    # -- project -----------------------------------------------------------------------------
    def new_project(self, for_file: str | None = None) -> bool:
        """File > New project…; with ``for_file`` (a data file dropped with no project open) the dialog
        starts from the file's name, folder and format. True when a project was made and opened."""
        from bertstudio.ui.new_project_dialog import NewProjectDialog

        if not self.may_leave_project(lambda: self.new_project(for_file)):
            return False
        dialog = NewProjectDialog(self)
        try:
            if isinstance(for_file, str):  # triggered(bool) passes a bool
                dialog.suggest_for_file(for_file)
            if dialog.exec() and dialog.project is not None:
                self.session.set_project(dialog.project)
                return True
            return False
        finally:  # a child of the window: each New project… kept its dialog
            dialog.deleteLater()

    def open_project(self, folder: str | None = None) -> bool:
        if not folder:
            folder = QFileDialog.getExistingDirectory(self, self.tr("Open project"))
            if not folder:
                return False
        current = self.session.project
        again_read_only = False  # the open read-only project again: a writable open is tried
        place: tuple[str, str, int] | None = None
        if current is not None and _same_folder(folder, current.folder):
            if current.closed or (current.changed_outside() is None and not is_read_only(current)):
                return True  # already open here (a second open would hit the project's own lock)
            # it refuses every write since another program changed its files: the reopen its message
            # asks for (its edits are kept in its journal or a kept copy; the close says where, once).
            # Or it is read-only: the window that held it may have closed it since (it stayed read-only,
            # saying nothing, until the app was restarted)
            if not self.may_leave_project(lambda: self.open_project(folder)):
                return False
            again_read_only = is_read_only(current)
            place = (self.current_page_key(), self.session.current_split, self.session.current_row)
            self.session.close()  # (its place could not be saved: it is put back below)
        if not self.may_leave_project(lambda: self.open_project(folder)):
            return False
        still = ""  # why the read-only project opened again stays read-only
        try:
            project = self.session.open_folder(folder)
        except BertStudioError as exc:
            # read-only viewers elsewhere: this window may view it read-only too (a writer elsewhere
            # refuses viewers as well, so nothing is offered then: the box says close it there)
            if exc.facts.get("refusal") != "open_elsewhere" or exc.facts.get("holder") != "read_only":
                self.show_open_refusal(exc)
                return False
            if not again_read_only and not self.confirm_open_read_only(project_refusal(exc) or exc.message):
                return False
            try:
                self._opening_read_only = True
                project = self.session.open_folder(folder, read_only=True)
            except BertStudioError as again:
                self.show_open_refusal(again)
                return False
            finally:
                self._opening_read_only = False
            if again_read_only:
                still = self.tr("Still read-only: the project is still open in another bertstudio window. Once "
                                "that window has closed it, File > Open project on this folder makes it writable "
                                "here.")
        if again_read_only and is_read_only(project) and not still:  # its storage, not another window
            still = self.tr("Still read-only: this folder or its files cannot be written here (a read-only disk "
                            "or share, or no permission to write).")
        if place is not None:
            self._go_to_place(*place)
        if still:
            self.statusBar().showMessage(still)
        if project.recovery_messages:
            self.show_recovery(list(project.recovery_messages))
        return True

    def _go_to_place(self, page: str, split: str, row: int) -> None:
        """Back where the window was before the same project was opened again: its place could not be
        saved (read-only, or changed outside), and the reopen went to where it was last saved."""
        if split in self.session.project.split_names and 0 <= row < self.session.split_size(split):
            self.session.set_current(split, row)
        if page in self.pages:
            self.show_page(page)

    def show_open_refusal(self, exc: BertStudioError) -> None:
        """A project that cannot be opened: the core's refusal in the interface's words where its facts
        are known (run_words.project_refusal), the folder and the other process's pid under details."""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Cannot open the project"),
                          project_refusal(exc) or exc.message, QMessageBox.StandardButton.Ok, self)
        if exc.facts.get("refusal") == "open_elsewhere":
            details = [self.tr("Project folder: %1").replace("%1", str(exc.path))]
            if exc.facts.get("pid"):
                details.append(self.tr("Process id of the other bertstudio: %1").replace("%1", str(exc.facts["pid"])))
            box.setDetailedText("\n".join(details))
        box.exec()

    def confirm_open_read_only(self, message: str) -> bool:
        """Ask whether to open read-only a project other windows hold read-only (``message``: the
        refusal, in the interface's words); True: Open read-only was chosen (tests replace this to answer)."""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Cannot open the project"), message,
                          QMessageBox.StandardButton.Cancel, self)
        box.setInformativeText(self.tr("Open it read-only here too? You can browse, predict and compare; labels and "
                                       "runs cannot be saved. Once the other window has closed it, File > Open "
                                       "project makes it writable here."))
        read_only = box.addButton(self.tr("Open read-only"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(read_only)
        box.exec()
        return box.clickedButton() is read_only

    def show_recovery(self, messages: list[str]) -> None:
        """Say what opening repaired, without blocking: a status line, the log (the core's English) and
        a non-modal box (in the user's words where the core gave its facts: run_words.recovery_text)."""
        for message in messages:
            log.warning("project recovered: %s", message)
        messages = [recovery_text(message) for message in messages]
        self.statusBar().showMessage(self.tr("Project repaired on open: %1").replace("%1", messages[0]), 30_000)
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Project recovered"),
                          self.tr("Opening the project repaired it:"), QMessageBox.StandardButton.Ok, self)
        box.setObjectName("recoveryMessage")
        # the core's words: file, place, what was done; a long list (a journal's edits, one line each)
        # made a box taller than the screen, its OK out of reach: the rest is under Show Details
        shown = messages[:RECOVERY_LINES_SHOWN]
        more = len(messages) - len(shown)
        if more:
            shown.append(self.tr("…and %n more (Show Details…)", "", more))
            box.setDetailedText("\n".join(messages))
        box.setInformativeText("\n".join(shown))
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.show()
        self.recovery_box = box

    def save(self) -> None:
        """Edits are already on disk (journal); Save folds them into the data files and saves the UI state."""
        project = self.session.project
        if project is None:
            return
        if not self._reported(lambda: (self._store_ui_state(), project.compact())):
            return
        self.session.undo_stack.setClean()
        self.statusBar().showMessage(self.tr("Saved"), 3000)

    def _compact_if_large(self) -> None:
        project = self.session.project
        if project is not None and not project.closed:
            project.compact_if_large()

    def import_data(self, path: str | None = None) -> bool:
        if isinstance(path, str) and not self.session.has_project():  # a file dropped on the welcome
            if not self.new_project(for_file=path):
                return False
        if not self._require_project():
            return False
        if is_read_only(self.session.project):  # a file dropped on it: refused before any dialog, in the open's words
            self.statusBar().showMessage(self.read_only_line(), 15_000)
            return False
        from bertstudio.ui.import_dialog import ImportDialog

        dialog = ImportDialog(self.session, self, path if isinstance(path, str) else None)  # triggered(bool)
        dialog.imported.connect(self._on_imported)
        try:
            return bool(dialog.exec())
        finally:  # a child of the window: every Import… kept its dialog, and the file it read (+7.9 MB a time)
            dialog.deleteLater()

    def _on_imported(self, split: str, rows: int) -> None:
        """The Label page goes where there is labelling to do, and the Data page with it; the status bar
        says where the rows went. It went to the imported split: after a labelled dev set, to its row 1,
        where the next key replaced the gold that runs are scored against (and the saved place reopened
        there). The Data page then stayed on the imported split, beside a Label page and a status bar on
        train. With nothing left to label anywhere it went to the imported split all the same: a labelled
        dev set put it on dev's gold. Now it stays where it was (the imported split only when that was empty)."""
        session = self.session
        here = session.current_split
        to_label = [s for s in (here, split, *SPLITS) if session.split_size(s) and
                    session.progress(s)[0] < session.split_size(s)]
        target = to_label[0] if to_label else (here if session.split_size(here) else split)
        if target != here or target == split:  # labelling goes on where it was unless its rows changed
            examples = session.examples(target) if session.split_size(target) else None
            missing = examples.unlabelled_rows() if examples is not None else []
            session.set_current(target, int(missing[0]) if len(missing) else (0 if examples is not None else -1))
        data_page = self.pages["data"]  # on the split being labelled too: it showed dev beside a Label page on
        if isinstance(data_page, DataPage) and data_page.split != session.current_split:  # train, the status bar
            data_page.show_split(session.current_split)  # saying train (one split is looked at everywhere)
        now = session.current_split
        if now == split:
            said = self.tr("Imported %1 into %2")
        elif now != here:  # where they went, and why the pages are elsewhere (they said "stay" as they moved)
            said = self.tr("Imported %1 into %2; the pages moved to %3, where rows wait for labels")
        elif to_label:
            said = self.tr("Imported %1 into %2; the pages stay on %3, where rows wait for labels")
        else:
            said = self.tr("Imported %1 into %2; the pages stay on %3")
        said = said.replace("%1", rows_or_tokens(rows)).replace("%2", split_name(split)).replace("%3", split_name(now))
        self.statusBar().showMessage(said, 10_000)

    def export_data(self) -> None:
        if not self._require_project():
            return
        from bertstudio.ui.export_dialog import ExportDialog

        ExportDialog(self.session, self).exec()

    def restore_replaced_rows(self, backup_id: str | None = None) -> bool:
        """Edit > Restore replaced rows…: bring back rows an import replaced (kept in the project folder)."""
        if not self._require_project():
            return False
        backup_id = backup_id or choose_split_backup(self, self.session.project.split_backups())
        return backup_id is not None and self._reported(lambda: self.session.restore_split_backup(backup_id))

    def _reported(self, action: Any) -> bool:
        """Run ``action``; a BertStudioError (a full disk...) goes to :meth:`show_failure`. True when it worked."""
        try:
            action()
        except BertStudioError as exc:
            self.show_failure(exc)
            return False
        return True

    def show_failure(self, failure: BertStudioError | str) -> None:
        """A request that failed (save, close, undo of a replace): the core's refusal in a box, in the
        interface's words where its facts are known (run_words.project_refusal), never a traceback.
        An edit refused because the project is read-only (told by the refusal's facts, not by its
        English: session.Failure carries the error) says the line told at open in the status bar:
        a box per label key told nothing new."""
        log.warning("%s", failure)
        title = getattr(failure, "title", None) or self.tr("Could not save")  # what failed, where it was no save
        error = failure if isinstance(failure, BertStudioError) else getattr(failure, "error", None)
        if error is not None:
            if error.facts.get("refusal") == "read_only" and is_read_only(self.session.project):
                self.statusBar().showMessage(self.read_only_line(), 15_000)
                return
            failure = project_refusal(error) or str(failure)
            if error.facts.get("refusal") == "changed_outside":  # changed by a git pull...: one box per open
                told = getattr(self, "_told_changed_outside", set())
                self._told_changed_outside = told
                if error.facts.get("opened") in told:
                    self.statusBar().showMessage(str(failure), 15_000)
                    return
                told.add(error.facts.get("opened"))
        QMessageBox.warning(self, title, str(failure))

    def read_only_line(self) -> str:
        """The read-only line of the open project; one opened read-only by choice says how it becomes writable."""
        return read_only_text(asked=self._read_only_asked)

    def export_run(self) -> None:
        """File > Export run…: the Training page's settings and data as a folder that trains headless."""
        if not self._require_project():
            return
        self.page("train").export_run()  # on a worker: run_exported says where (connected in __init__)

    def add_examples(self) -> None:
        """Edit > Add examples…: type examples into the project (an empty project starts here)."""
        if not self._require_project():
            return
        data_page = self.pages["data"]
        if isinstance(data_page, DataPage):
            self.show_page("data")
            data_page.add_examples()

    def edit_label_set(self) -> None:
        if self._require_project():
            label_page = self.pages["label"]
            if isinstance(label_page, LabelPage):
                label_page.edit_label_set()

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self.session.kind, self, self.session.labels(), self.session.assist.is_on(),
                        window_keys=self.action_keys()).exec()

    def show_about(self) -> None:
        """Help > About bertstudio: the version, the default model, where the log and settings are."""
        from bertstudio.ui.about_dialog import AboutDialog

        AboutDialog(self, self.settings).exec()

    def action_keys(self) -> list[tuple[str, str]]:
        """(keys, what) of every action with a key, read from the actions themselves. A page's own
        action (its key works there only) says what it does (its whatsThis, else its text) and names
        its page: the list said "Del  Delete", which the Runs table's Delete run is."""
        out: list[tuple[str, str]] = []
        on_pages: list[tuple[str, str]] = []  # after the window's own keys
        for action in self.menuBar().findChildren(QAction) + self.findChildren(QAction):
            keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts() if not k.isEmpty())
            what = toolbar_text(action.text())  # "新建项目" in Chinese, not "新建项目(N)"
            page = self._page_title_of(action.parent())
            if page:
                what = self.tr("%1 (%2 page)").replace("%1", action.whatsThis() or what).replace("%2", page)
            entry = (keys, what)
            if keys and entry[1] and entry not in out + on_pages:
                (on_pages if page else out).append(entry)
        return out + on_pages

    def _page_title_of(self, widget: Any) -> str:
        """The title of the page ``widget`` is on (the switcher's words); "" for none."""
        for key, title, *_ in PAGES:
            page = self.pages.get(key)
            if isinstance(widget, QWidget) and page is not None and (page is widget or page.isAncestorOf(widget)):
                return _t(title)
        return ""

    def _require_project(self) -> bool:
        if self.session.has_project():
            return True
        QMessageBox.information(self, self.tr("No project"), self.tr("Create or open a project first."))
        return False

    def _project_actions(self) -> tuple[QAction, ...]:
        """The actions that need an open project."""
        return (self.save_action, self.import_action, self.export_action, self.export_run_action,
                self.close_action, self.label_set_action, self.add_examples_action, self.restore_action)

    def _on_project_opened(self, project: Any) -> None:
        self._read_only_asked = self._opening_read_only and is_read_only(project)
        self.statusBar().clearMessage()  # a refusal left by the project before ("…Reopen the project") is gone
        for action in self._project_actions():
            action.setEnabled(True)
        self._show_import_allowed(project)
        self._show_row(self.page_list.currentRow())  # the page itself instead of the welcome
        state = dict(project.ui_state)  # as saved, or as a hand-edited project.json says: checked
        split, row, page = state.get("split"), state.get("row"), state.get("page")
        if isinstance(split, str) and split in project.split_names and isinstance(row, int) \
                and 0 <= row < self.session.split_size(split):
            self.session.set_current(split, row)
        if isinstance(page, str) and page in self.pages:
            self.show_page(page)
        self._update_status()
        self._update_title()
        if is_read_only(project):  # said once, here: every page still browses, predicts and compares
            self.statusBar().showMessage(self.read_only_line())

    def _on_project_closing(self, _project: Any) -> None:
        """Every way a project closes (File > Close, opening or making another) keeps its page and
        place, as closing the window does: Open recent came back at example 1."""
        with contextlib.suppress(BertStudioError):  # a disk problem is reported once, by the close itself
            self._store_ui_state()

    def _show_import_allowed(self, project: Any) -> None:
        """Import into a read-only project ran the whole dialog (a file picked, its labels mapped), then
        failed with the generic write error: it is greyed from the open, its tooltip saying why. So are
        the other ways to add rows (Add examples, the Data page's button, Restore replaced rows), which
        opened their dialogs and refused only when used."""
        read_only = is_read_only(project)
        reason = self.read_only_line() if read_only else ""
        for action in (self.import_action, self.add_examples_action, self.restore_action):
            action.setEnabled(not read_only)
            action.setToolTip(reason)  # "": back to the action's own text
            action.setStatusTip(reason)
        data_page = self.pages["data"]
        if isinstance(data_page, DataPage):
            data_page.allow_adding(not read_only, reason)

    def _on_project_closed(self) -> None:
        self._read_only_asked = False
        self.statusBar().clearMessage()  # what it said of the project (a refusal, its read-only line) is gone too
        self._show_import_allowed(None)  # its tooltip: no reason left to say
        for action in self._project_actions():
            action.setEnabled(False)
        self._show_row(self.page_list.currentRow())
        self._update_status()
        self._update_title()

    def _update_title(self) -> None:
        project = self.session.project
        name = f"{shown_name(project.name)} — " if project is not None else ""
        self.setWindowTitle(name + "bertstudio")

    def _update_status(self, *_args: Any) -> None:
        project = self.session.project
        if project is None:
            self.project_label.setText(self.tr("No project open"))
            self.split_label.clear()
            self.progress_label.clear()
            return
        split = self.session.current_split
        done, total = self.session.progress(split)
        from bertstudio.ui.new_project_dialog import kind_name

        self.project_label.setText(self.tr("Project: %1 (%2)").replace("%1", shown_name(project.name))
                                   .replace("%2", kind_name(project.kind)))
        if is_read_only(project):  # stays after the open's message has gone
            self.project_label.setText(self.tr("%1, read-only").replace("%1", self.project_label.text()))
            self.project_label.setToolTip(f"{self.project_label.text()}\n{self.read_only_line()}")
        self.split_label.setText(self.tr("Split: %1").replace("%1", split_name(split)))
        self.progress_label.setText(self.tr("%1 labelled / %2").replace("%1", f"{done:,}").replace("%2", f"{total:,}"))

    # -- closing -----------------------------------------------------------------------------
    def _store_ui_state(self) -> None:
        project = self.session.project
        if project is None or project.closed:
            return
        project.ui_state.update(page=self.current_page_key(), split=self.session.current_split,
                                row=self.session.current_row)
        remember = getattr(self.pages.get("train"), "remember_settings", None)
        if callable(remember):
            remember()  # the Train page's choices, kept per project in recent_settings
        project.save_ui_state()

    def close_project(self) -> bool:
        """File > Close project: asks first while a run trains on it; True when it closed."""
        if not self.session.has_project():
            return True
        if not self.may_leave_project(self.close_project):
            return False
        self.session.close()  # the place is kept on the way (_on_project_closing)
        return True

    def _project_jobs(self) -> list[Any]:
        """The training run and learning curve running on the open project."""
        training = self.pages.get("train")
        curve = getattr(getattr(self, "learning_curve_dialog", None), "panel", None)
        return [job for job in (training, curve) if job is not None and job.is_running()]

    def may_leave_project(self, then: Callable[[], Any]) -> bool:
        """Before the open project closes (Close, Open, New): True when nothing runs on it. A training
        run or learning curve on it is stopped only if the person says so, and ends while its project
        is still open (it went on writing into the closed project, its curves and Cancel shown over
        the next one). The window never waits for it: a run stops after its current step or
        evaluation batch, which on a large model takes a while (waiting froze the window for 30 s,
        then left anyway). So False, and ``then``, the leaving asked for, is done once the jobs
        have ended, as closing the window finishes when the run has ended."""
        if not self.session.has_project():
            return True
        busy = self._project_jobs()
        if not busy:
            return True
        training = self.pages.get("train")
        if self._leave_after is None:  # asked once: a second Open while it stops changes only where to
            if not self.confirm_leave_project(training in busy):
                return False
            for job in busy:
                job.cancel()
                worker = getattr(job, "worker", None)
                if job is not training and worker is not None:  # the learning curve's JobWorker
                    for signal in (worker.finished, worker.failed, worker.cancelled):
                        signal.connect(self._on_project_job_ended)
        self._leave_after = then
        self.statusBar().showMessage(
            self.tr("Stopping the training run: the project closes (and the next one opens) once it has stopped.")
            if training in busy else
            self.tr("Stopping the learning curve: the project closes (and the next one opens) once it has stopped."))
        return False

    def _on_project_job_ended(self, *_: object) -> None:
        """A run or learning curve ended: the project is left as asked once none runs (not when the
        window is closing meanwhile: its close finishes the project)."""
        if self._leave_after is None or self._project_jobs():
            return
        then, self._leave_after = self._leave_after, None
        self.statusBar().clearMessage()
        if self._closing_after_run is None and self.isVisible():
            QTimer.singleShot(0, then)  # after the run's end has reached every page

    def _call_off_leaving(self, *_: object) -> None:
        """A run started while the project waited to be left (the person started new work after
        agreeing to stop the old): the leaving is called off, not done when that run ends, maybe
        hours later, with an Open or New dialog nobody asked for then."""
        if self._leave_after is None:
            return
        self._leave_after = None
        self.statusBar().showMessage(self.tr("A new run started: the project stays open (close it again to leave)."),
                                     10_000)

    def confirm_leave_project(self, training: bool) -> bool:
        """Ask whether to stop the run (or learning curve) to leave the project (tests replace this)."""
        text = (self.tr("A training run is in progress on this project. Stop it and close the project?") if training
                else self.tr("A learning curve is being computed on this project. Stop it and close the project?"))
        answer = QMessageBox.question(self, self.tr("Training is running"), text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def confirm_stop_training(self) -> bool:
        """Ask whether to stop the running training (tests replace this to answer for the user)."""
        answer = QMessageBox.question(
            self, self.tr("Training is running"),
            self.tr("A training run is in progress. Stop it and quit?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def confirm_quit_during_jobs(self, pushing: bool, exporting: bool) -> bool:
        """Ask whether to quit while a push to the Hub or an ONNX export runs (tests replace this)."""
        lines = []
        if pushing:
            lines.append(self.tr("A push to the Hugging Face Hub is in progress: quitting cancels it if its upload "
                                 "has not begun; an upload already under way goes on, and the app waits for it before "
                                 "it quits (about 90 seconds at most: an upload still running then is cut off)."))
        if exporting:
            lines.append(self.tr("An ONNX export is in progress: quitting stops it."))
        answer = QMessageBox.question(self, self.tr("Quit now?"), "\n\n".join(lines + [self.tr("Quit anyway?")]),
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def track_job(self, kind: str, worker: Any) -> None:
        """A push ("push") or an ONNX export ("export") that quitting asks about while it runs; every
        one is kept (a second push does not hide the first, which may still be uploading)."""
        self._jobs = [(k, w) for k, w in self._jobs if w.is_running()] + [(kind, worker)]

    def _running_jobs(self) -> list[tuple[str, Any]]:
        return [(kind, worker) for kind, worker in self._jobs if worker.is_running()]

    def _jobs_allow_quitting(self) -> bool:
        """False when a push or an ONNX export runs and the user chose to stay. Nothing is cancelled
        here: the close may still be refused by a later question (see _cancel_jobs_for_quitting)."""
        running = self._running_jobs()
        if not running or self._quit_with_jobs_confirmed:
            return True
        kinds = {kind for kind, _ in running}
        if not self.confirm_quit_during_jobs("push" in kinds, "export" in kinds):
            return False
        self._quit_with_jobs_confirmed = True
        return True

    def _cancel_jobs_for_quitting(self) -> None:
        """Once every question was answered yes: an export stops; a push stops unless its upload has
        begun, which then finishes while the app waits for it (ThreadJob.wait_all)."""
        for _kind, worker in self._running_jobs():
            worker.cancel()

    def _stay(self, event: QCloseEvent) -> None:
        """The close is refused (a No): the next attempt asks every question again."""
        self._quit_with_jobs_confirmed = False
        event.ignore()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._jobs_allow_quitting():
            self._stay(event)
            return
        training = self.pages.get("train")
        exporting = getattr(training, "is_exporting", None)
        if callable(exporting) and exporting():
            # Export run… is copying the model: closed now, the app's end cut the copy off and left a
            # hidden half folder beside the user's. The window goes now; the close finishes when it is written.
            if not self._closing_after_export:
                self._closing_after_export = True
                self._cancel_jobs_for_quitting()
                training.export_ended.connect(lambda: QTimer.singleShot(0, self.close))  # type: ignore[union-attr]
                self.hide()
            event.ignore()
            return
        running = getattr(training, "is_running", None)
        if callable(running) and running():
            if self._closing_after_run is None:
                if not self.confirm_stop_training():
                    self._stay(event)
                    return
                self._cancel_jobs_for_quitting()
                # The engine stops after the current step and saves: seconds on a laptop, which the
                # close handler used to wait out with the window frozen (1.3 s measured). The window
                # goes now; the close finishes when the run has ended (at the latest after
                # CLOSE_WAIT_MS, then waiting here as before).
                training.worker.cancel()  # type: ignore[union-attr]
                self._closing_after_run = QTimer(self, singleShot=True, interval=CLOSE_WAIT_MS)
                self._closing_after_run.timeout.connect(self.close)
                self._closing_after_run.start()
                training.run_ended.connect(lambda *_: QTimer.singleShot(0, self.close))  # type: ignore[union-attr]
                self.hide()
                event.ignore()
                return
            training.cancel_and_wait(30_000)  # type: ignore[union-attr]  # the run did not end in time
        if self._closing_after_run is not None:
            self._closing_after_run.stop()
        self._cancel_jobs_for_quitting()
        self.settings.setValue("mainWindow/geometry", self.saveGeometry())
        self.settings.setValue("mainWindow/state", self.saveState())
        with contextlib.suppress(BertStudioError):  # a disk problem is reported once, by the close below
            self._store_ui_state()
        self.session.close()  # a failure to fold the journal comes back through session.failed
        self._compact_timer.stop()
        event.accept()
        self.closed.emit()


def _same_folder(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` name one folder (by identity: a bind mount or another letter case too);
    False when either cannot be looked at: Path.resolve() raised RuntimeError on a symlink loop
    (a recent project that became one), past every message box. Opening it then says why."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False
