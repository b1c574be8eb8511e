"""Review suspected label errors: the label-error finder's flags, one at a time, the user decides.

Opened from the Label page ("Review suspected errors…") for the current split. The finder
(:func:`bertstudio.assist.label_errors.find_label_errors`) runs on a
:class:`~bertstudio.ui.jobs.JobWorker` with a progress bar and a Cancel button: first the
quick check (the frozen encoder's fast head, seconds); "Check with" offers the thorough one
(the encoder fine-tuned on each fold, minutes; fewer of its flags are the model's own
mistakes) and the project's runs that saved predictions (a fine-tuned model's probabilities
for the rows it evaluated: a dev split, or the training rows a run held out), run by
"Check again". Each flag
shows the text, the given label, the suggested one with the model's probability, and the
three most similar labelled examples that carry the suggested label. The panel states the
model's cross-validated accuracy, so the user knows how far to trust it.

Nothing changes by itself. **K** keeps the given label (undoable, Ctrl+Z): the flag is marked reviewed and
remembered in ``<project>/label-review-<split>.json`` (keyed by the row's text and the
kept label, so a later run does not ask again unless the row or its label changed; a label
renamed is not a label changed: the keeps follow the rename).
**R** relabels to the suggestion through the session's undo stack (journaled like every
edit; Ctrl+Z here or in the main window undoes it). A flag whose row was given another label
after the check (on the Label page, say) is closed, shown with the label it has now: R on it
would have overwritten the newer label with the check's suggestion. A label renamed while the
queue is open is shown, compared and given by its new name; a flag whose suggested label was
removed since the check is closed (Check again).
"""

from __future__ import annotations

import html
import logging
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut, QUndoCommand
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QProgressBar, QPushButton, QSplitter,
    QTextBrowser, QVBoxLayout, QWidget,
)

from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_percent
from bertstudio.ui import theme
from bertstudio.ui.jobs import JobWorker, waiting_line
from bertstudio.ui.review_store import ReviewStore, row_key
from bertstudio.ui.session import ProjectSession
from bertstudio.ui.sentences import counted

log = logging.getLogger(__name__)

_FLAG_ROLE = Qt.ItemDataRole.UserRole
_CLOSED = ("changed", "replaced", "labels")  # a flag in these states has no K or R


def check_progress_text(where: Any) -> str:
    """The label check's progress (assist/label_errors.CheckProgress) in the UI's language, the
    English as the core says it; called on the check's thread (QCoreApplication.translate is
    thread-safe)."""
    if where.step != "fold":
        return {"embedding": QCoreApplication.translate("ReviewQueue", "embedding"),
                "ranking": QCoreApplication.translate("ReviewQueue", "ranking"),
                "done": QCoreApplication.translate("ReviewQueue", "done")}.get(where.step, str(where))
    line = QCoreApplication.translate("ReviewQueue", "fold {i} of {n}").format(i=where.fold, n=where.folds)
    if where.waiting_for:  # another training has the turn (the assistant is stopped, not waited for)
        return waiting_line(line, where.waiting_for)
    if not where.total:
        return line
    line = QCoreApplication.translate("ReviewQueue", "{line}: step {done} of {total}").format(
        line=line, done=where.done, total=where.total)
    if where.left is None:
        return line
    figure, unit = where.left  # train/estimate.rounded's
    left = {"s": QCoreApplication.translate("ReviewQueue", "{line}, about {n} s left"),
            "min": QCoreApplication.translate("ReviewQueue", "{line}, about {n} min left")}.get(unit) or \
        QCoreApplication.translate("ReviewQueue", "{line}, about {n} h left")
    return left.format(line=line, n=figure)


class KeepFlagCommand(QUndoCommand):
    """K on a flag, pushed after it was remembered (the first redo does nothing): undo forgets
    it, redo remembers it again, and the queue, while open, repaints the flag and goes to it.
    A write that fails leaves the stack, and the window says why."""

    def __init__(self, queue: "ReviewQueue", flag: Any, label: str, text: str) -> None:
        super().__init__(text)
        self._queue, self._store, self._session, self._flag = queue, queue.store, queue.session, flag
        # the kept label's name: a rename that is not an undo clears the stack, one that is was
        # undone before this command's undo runs, so the name is the label's then too
        self._label = label
        self._pushed = True

    def redo(self) -> None:
        if self._pushed:
            self._pushed = False
            return
        self._apply(True)

    def undo(self) -> None:
        self._apply(False)

    def _apply(self, kept: bool) -> None:
        try:
            self._store.keep(self._flag, kept, self._label)
        except (OSError, BertStudioError) as exc:
            self.setObsolete(True)
            self._session.report_failure(_keep_failure(self._store, exc))
            return
        if shiboken6.isValid(self._queue) and self._queue.store is self._store:
            self._queue.show_flag_of(self._flag)


class ReviewQueue(QWidget):
    """See the module docstring. ``model``: the frozen encoder (None: the bundled one)."""

    finished = Signal()  # the finder's report is shown (or it failed / was cancelled)

    def __init__(self, session: ProjectSession, split: str | None = None, *, model: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reviewQueue")
        self.setWindowTitle(self.tr("Review suspected errors"))
        self.session = session
        self.split = split or session.current_split
        self.model = model
        self.report: Any = None
        self.hidden_kept = 0
        self._worker: JobWorker | None = None
        self._checking: str | None = None  # the split's lineage (which rows these are) when the check started
        self.lineage: str | None = None  # ...and when the shown flags' check started
        # each label as the shown flags' check named it -> its name now (None: removed since), and
        # the same for the check that runs: a rename is followed, not read as a changed row
        self.names: dict[str, str | None] = {}
        self._checking_names: dict[str, str | None] = {}
        self.store = ReviewStore(session.project.folder, self.split)
        # its rows are this project's: left open over the next one, K and R relabelled that one's rows
        session.project_closing.connect(self._on_project_closing)

        self.summary = QLabel(self.tr("Looking for labels the model disagrees with…"))
        self.summary.setObjectName("reviewSummary")
        self.summary.setWordWrap(True)
        self.method_combo = QComboBox()
        self.method_combo.setObjectName("reviewMethod")
        self.method_combo.addItem(self.tr("Quick: the frozen encoder (seconds)"), "fast")
        self.method_combo.addItem(self.tr("Thorough: fine-tune the encoder on each of 5 folds (minutes)"), "finetune")
        self.method_combo.setToolTip(self.tr(
            "Each labelled row is judged by a model that never saw it. The thorough check fine-tunes the whole "
            "encoder five times, so it makes fewer mistakes of its own and more of its flags are real errors; "
            "its list puts first the rows the other four models also kept contradicting while they learnt from "
            "them. A run's predictions judge only the rows that run evaluated and never trained on."))
        self._add_runs()
        self.run_button = QPushButton(self.tr("Check again"))
        self.run_button.setObjectName("reviewRun")
        self.run_button.clicked.connect(self.start)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.flags = QListWidget()
        self.flags.setObjectName("reviewFlags")
        theme.follow(self.flags, lambda: [self._paint(self.flags.item(i)) for i in range(self.flags.count())])
        self.flags.currentRowChanged.connect(self._show_flag)
        self.flags.itemActivated.connect(self._go_to_row)  # Enter and double-click (Enter did nothing)
        self.detail = QTextBrowser()
        self.detail.setObjectName("reviewDetail")
        self.keep_button = QPushButton(self.tr("Keep the label (K)"))
        self.relabel_button = QPushButton(self.tr("Relabel (R)"))
        self.keep_button.clicked.connect(self.keep_current)
        self.relabel_button.clicked.connect(self.relabel_current)

        choose = QHBoxLayout()
        choose.addWidget(QLabel(self.tr("Check with:")))
        choose.addWidget(self.method_combo, 1)
        choose.addWidget(self.run_button)
        busy = QHBoxLayout()
        busy.addWidget(self.progress, 1)
        busy.addWidget(self.cancel_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.relabel_button)
        buttons.addStretch(1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.detail, 1)
        right_layout.addLayout(buttons)
        splitter = QSplitter()
        splitter.addWidget(self.flags)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(choose)
        layout.addWidget(self.summary)
        layout.addLayout(busy)
        layout.addWidget(splitter, 1)

        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for key, slot in (("K", self.keep_current), ("R", self.relabel_current)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(context)
            shortcut.activated.connect(slot)
        # Ctrl+Z here as in the main window: this panel may be its own window
        self.undo_action = session.undo_stack.createUndoAction(self, self.tr("Undo"))
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.setShortcutContext(context)
        self.addAction(self.undo_action)
        session.gold_changed.connect(self._on_gold_changed)
        session.data_imported.connect(self._on_rows_changed)
        session.label_renamed.connect(self._on_label_renamed)
        session.labels_changed.connect(self._on_labels_changed)
        self._set_busy(False)
        self._enable_buttons()

    RUNS_OFFERED = 20

    def _add_runs(self) -> None:
        """Offer the project's runs that saved predictions, newest first: a fine-tuned model's
        out-of-sample probabilities for the rows it evaluated (which split, and whether it has
        probabilities at all, is read when the check runs)."""
        from bertstudio.train.rundir import PREDICTIONS
        from bertstudio.train.seeds import with_job_runs

        try:  # a seeds/glue job's runs too (its folder holds no predictions of its own)
            runs = [r for r in reversed(with_job_runs(self.session.project.list_runs())) if (r / PREDICTIONS).is_file()]
        except OSError as exc:  # an unreadable runs folder: the other checks still work
            log.warning("cannot list the runs: %s", exc)
            return
        for run in runs[:self.RUNS_OFFERED]:
            self.method_combo.addItem(self.tr("Run %1: its predictions (the rows it evaluated)").replace(
                "%1", run.name), str(run))

    # -- the finder on a worker --------------------------------------------------------------
    def start(self) -> None:
        """Run the finder with the method chosen in "Check with" (nothing while one runs)."""
        if self.is_running():
            return
        project, split, model = self.session.project, self.split, self.model
        self._checking = self._lineage()
        self._checking_names = {name: name for name in project.labels}
        choice = self.method_combo.currentData()
        method, run_dir = (choice, None) if choice in ("fast", "finetune") else ("fast", choice)
        self.summary.setText(self.tr("Fine-tuning the encoder on each fold: this takes minutes…")
                             if method == "finetune" else self.tr("Looking for labels the model disagrees with…"))

        def job(progress, cancel):  # type: ignore[no-untyped-def]
            # imported here, on the job's thread: the finder's encoder loads torch (seconds on the GUI thread)
            from bertstudio.assist.encoder import Cancelled
            from bertstudio.assist.label_errors import find_label_errors

            try:
                return find_label_errors(project, split, model=model, method=method, run_dir=run_dir, cancel=cancel,
                                         progress=lambda f, where: progress(f, check_progress_text(where)))
            except Cancelled:
                return None

        self._worker = JobWorker(job, name="bertstudio-label-errors", heavy=True)
        self._worker.progressed.connect(self._on_progress)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._worker.cancelled.connect(self._on_cancelled)
        self._set_busy(True)
        self._worker.start()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def is_running(self) -> bool:
        return self._worker is not None and self._worker.is_running()

    def _set_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.method_combo.setEnabled(not busy)
        self.run_button.setEnabled(not busy)

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(round(100 * fraction)))
        self.progress.setFormat(f"{message} %p%")

    def _on_failed(self, message: str) -> None:
        facts = getattr(self._worker, "failure_facts", None) or {}
        self._worker = None
        self._set_busy(False)
        self._say_over_last_flags(self.tr("The check could not run: %1").replace("%1", self._refusal_text(facts)
                                                                                   or message))
        self.finished.emit()

    def _refusal_text(self, facts: dict[str, Any]) -> str | None:
        """The finder's refusals (assist/label_errors' facts) in the UI's language: a tagging project's
        read "too few tagged sentences to cross-validate" in English, and a diverged model's "the
        model's probabilities are not numbers". None: another."""
        if facts.get("refusal") == "non_finite_probs":
            n = int(facts.get("items", 0))
            items = counted(n, self.tr("1 item"), self.tr("{n} items"))
            return self.tr("the model's probabilities are not numbers (NaN or infinite) for {items}: its training "
                           "diverged. Check with a model that trains: a run with a lower learning rate, or the Quick method.").format(
                items=items)
        if facts.get("refusal") != "too_few_to_cross_validate":
            return None
        return {"tagged_sentences": self.tr("too few tagged sentences to cross-validate: tag every word of at least "
                                            "two sentences, with two different tags among them"),
                "labelled_sentences": self.tr("too few tagged sentences to cross-validate: tag every word of at least "
                                              "two sentences"),
                "labelled_rows": self.tr("too few labelled rows to cross-validate: label at least two rows in each "
                                         "of two labels")}.get(facts.get("unit", ""))

    def _on_cancelled(self) -> None:
        self._worker = None
        self._set_busy(False)
        self._say_over_last_flags(self.tr("Cancelled. Nothing was changed."))
        self.finished.emit()

    def _say_over_last_flags(self, text: str) -> None:
        """A check that did not finish: ``text``, and that the flags shown (if any) are the last check's."""
        if self.report is not None:
            text += " " + self.tr("The flags below are from the last check.")
        self.summary.setText(text)

    def _on_finished(self, report: Any) -> None:
        self._worker = None
        self._set_busy(False)
        if report is None:
            self._on_cancelled()
            return
        self.report = report
        self.lineage = self._checking
        self.names = self._checking_names
        labels = set(self.session.project.labels)
        for name in {n for flag in report.flags for n in (flag.given, flag.suggested)} - self.names.keys():
            self.names[name] = name if name in labels else None  # the finder read the labels after a change
        self.flags.clear()
        self.hidden_kept = 0
        for flag in report.flags:
            given = self.named(flag.given)  # the keeps follow renames made while the check ran (as state() reads them)
            if given is not None and self.store.is_kept(flag, given):
                self.hidden_kept += 1
                continue
            item = QListWidgetItem()
            item.setData(_FLAG_ROLE, flag)
            self.flags.addItem(item)
            self._paint(item)
        self.summary.setText(self._summary_text())
        if self.flags.count():
            self.flags.setCurrentRow(0)
        else:
            self.detail.setHtml(html.escape(self.tr("No suspected errors to review.")))
        self._enable_buttons()
        self.flags.setFocus()
        self.finished.emit()

    def _summary_text(self) -> str:
        r = self.report
        how = {"fast": self.tr("%1-fold cross-validation of the fast model"),
               "finetune": self.tr("%1-fold cross-validation of the fine-tuned encoder")}.get(
            r.source, self.tr("a training run's predictions")).replace("%1", str(r.folds))
        text = self.tr("The model agrees with %1% of the given labels (%2 rows checked, %3). "
                       "Treat its flags as questions, not answers: %4 suspected errors.")
        if r.per_word:  # tagging: the agreement is per word, the rows are sentences
            text = self.tr("The model agrees with %1% of the given tags, word by word (%2 sentences checked, %3). "
                           "Treat its flags as questions, not answers: %4 sentences with a suspected error.")
        text = text.replace("%1", format_percent(r.accuracy or 0)).replace("%2", str(r.checked)) \
            .replace("%3", how).replace("%4", str(len(r.flags)))
        p = ("< 0.001" if r.p_value < 0.001 else f"= {r.p_value:.2g}") if r.p_value is not None else ""
        if r.no_signal:  # probabilities no better than the label frequencies: its disagreements are noise
            text = self.tr("The model agrees with %1% of the given labels (%2 rows checked, %3), but its probabilities "
                           "fit them no better than the label frequencies alone (p %4): it has not learnt enough to "
                           "question a label, so none is listed. Label more rows, or choose the thorough check.")
            if r.per_word:
                text = self.tr("The model agrees with %1% of the given tags, word by word (%2 sentences checked, %3), "
                               "but its probabilities fit them no better than the tag frequencies alone (p %4): it has "
                               "not learnt enough to question a tag, so none is listed. Tag more sentences, or choose "
                               "the thorough check.")
            text = text.replace("%1", format_percent(r.accuracy or 0)).replace("%2", str(r.checked)) \
                .replace("%3", how).replace("%4", p)
        elif p:
            text += " " + self.tr("Its probabilities fit the given labels better than the label frequencies alone "
                                  "(p %1).").replace("%1", p)
        if not r.no_signal and r.source == "fast":
            text += " " + self.tr("For fewer false alarms, choose the thorough check and press Check again.")
        if self.hidden_kept:
            text += " " + self.tr("%1 kept earlier are not shown.").replace("%1", str(self.hidden_kept))
        if r.skipped:
            text += " " + self.tr("%n labelled row(s) could not be checked (a label with a single example).", "",
                                  r.skipped)
        if self.rows_replaced():
            text = self.tr("The rows of this split were replaced since this check, so its flags name other "
                           "examples now and are closed. Press Check again.")
        if self.store.problem:  # a damaged file of earlier Keep choices is read as none: said, not only logged
            text += " " + self.tr("Earlier Keep choices could not be read (%1), so every flag is shown again; the "
                                  "file is kept aside as %2 at the next Keep.").replace("%1", self.store.problem).replace(
                "%2", self.store.path.name + ".damaged")
        return text

    # -- one flag ------------------------------------------------------------------------------
    def current_flag(self) -> Any:
        item = self.flags.currentItem()
        return item.data(_FLAG_ROLE) if item is not None else None

    def now(self, flag: Any) -> Any:
        """The flagged row's (or word's) gold value as it is now."""
        gold = self.session.gold(self.split, flag.row)
        if flag.word is None:
            return gold
        return gold[flag.word] if isinstance(gold, list) and flag.word < len(gold) else None

    def _lineage(self) -> str | None:
        """Which rows the split holds: an import that replaces them (or a restore, or its undo)
        gives it a new lineage, and the same row number then names another example."""
        info = self.session.project.split_info.get(self.split) if self.session.has_project() else None
        lineage = info.get("lineage") if isinstance(info, dict) else None
        return lineage if isinstance(lineage, str) else None

    def rows_replaced(self) -> bool:
        """Whether the split's rows are no longer those the shown flags were found in."""
        return self.report is not None and self.lineage is not None and self._lineage() != self.lineage

    def named(self, name: str) -> str | None:
        """A label the check named, by its name now (renamed since, say); None: removed since."""
        return self.names.get(name, name)

    def shown(self, name: str) -> str:
        """A label the check named, as the queue shows it: its name now (a removed one, as it was)."""
        return self.named(name) or name

    def state(self, flag: Any) -> str:
        """``"kept"``, ``"relabelled"`` (the gold is now the suggestion), ``"changed"`` (the person
        gave it another value since the check: the flag is theirs, not the check's), ``"replaced"``
        (the split's rows were replaced since the check: its row number names another example,
        which R would have relabelled), ``"labels"`` (the suggested label was removed since the
        check: R has nothing to give) or ``"open"``. Labels renamed since the check are compared
        by their names now."""
        if self.rows_replaced():
            return "replaced"
        given, suggested = self.named(flag.given), self.named(flag.suggested)
        if given is not None and self.store.is_kept(flag, given):
            return "kept"
        value = self.now(flag)
        if suggested is not None and value == suggested:
            return "relabelled"
        if given is None or value != given:  # a given label removed since: the row was relabelled or cleared first
            return "changed"
        return "open" if suggested is not None else "labels"

    def _paint(self, item: QListWidgetItem) -> None:
        flag = item.data(_FLAG_ROLE)
        state = self.state(flag)
        if state == "replaced":
            text = self.tr("× row %1: the rows were replaced since the check").replace("%1", str(flag.row + 1))
        elif state == "labels":
            text = self.tr("× row %1: the label set changed since the check").replace("%1", str(flag.row + 1))
        elif state == "changed":  # relabelled on the Label page after the check: R would overwrite it
            now = self.now(flag)
            text = self.tr("≠ row %1: %2 at the check, now %3").replace("%1", str(flag.row + 1)) \
                .replace("%2", self.shown(flag.given)).replace("%3", self.tr("unlabelled") if now is None else str(now))
        else:
            mark = {"kept": "✓ ", "relabelled": "→ ", "open": ""}[state]
            text = self.tr("%1row %2: %3 → %4 (%5%)").replace("%1", mark).replace("%2", str(flag.row + 1)) \
                .replace("%3", self.shown(flag.given)).replace("%4", self.shown(flag.suggested)) \
                .replace("%5", format_percent(flag.suggested_prob))
        item.setText(text)
        # an open flag in the palette's own text colour (black read at 1.3:1 on a dark theme), a handled one muted
        item.setData(Qt.ItemDataRole.ForegroundRole, None if state == "open" else QBrush(QColor(theme.tone("muted"))))

    def _show_flag(self, index: int) -> None:
        flag = self.current_flag()
        if flag is None:
            return
        word = ""
        if flag.word is not None:
            words = flag.text.split(" ")
            word = self.tr("Word %1: <b>%2</b>. ").replace("%1", str(flag.word + 1)).replace(
                "%2", html.escape(words[flag.word] if flag.word < len(words) else ""))
        parts = [f"<p>{html.escape(flag.text)}</p>",
                 "<p>" + word + self.tr("Given: <b>%1</b>. Suggested: <b>%2</b> (probability %3%).")
                 .replace("%1", html.escape(self.shown(flag.given))).replace("%2", html.escape(self.shown(flag.suggested)))
                 .replace("%3", format_percent(flag.suggested_prob)) + "</p>"]
        state = self.state(flag)
        if state == "replaced":
            parts.append("<p>" + self.tr("The rows of this split were replaced since the check, so row %1 is another "
                                         "example now. Press Check again to review the rows as they are.")
                         .replace("%1", str(flag.row + 1)) + "</p>")
        elif state == "labels":
            parts.append("<p>" + self.tr("The label set changed since the check: %1 is no longer a label, so this "
                                         "flag is closed. Press Check again to review the rows with the labels as "
                                         "they are.").replace("%1", "<b>" + html.escape(flag.suggested) + "</b>") + "</p>")
        elif state == "changed":
            now = self.now(flag)
            parts.append("<p>" + self.tr("Changed since the check: now <b>%1</b>. Your label stands; this flag "
                                         "is closed.").replace("%1", html.escape(
                                             self.tr("unlabelled") if now is None else str(now))) + "</p>")
        parts += [
                 "<p>" + self.tr("Most similar examples labelled <b>%1</b>:").replace("%1", html.escape(
                     self.shown(flag.suggested)))
                 + "</p><ol>"]
        row = self.tr("row")  # outside the f-string, where lupdate sees it
        for n in flag.neighbours:
            parts.append(f"<li>{html.escape(n.text)} <i>({row} {n.row + 1}, {n.similarity:.2f})</i></li>")
        parts.append("</ol>")
        self.detail.setHtml("".join(parts))
        self._enable_buttons()

    def _enable_buttons(self) -> None:
        flag = self.current_flag()
        decidable = flag is not None and self.state(flag) not in _CLOSED
        self.keep_button.setEnabled(decidable)
        self.relabel_button.setEnabled(decidable)
        if flag is not None:
            self.relabel_button.setText(self.tr("Relabel as %1 (R)").replace("%1", self.shown(flag.suggested)))

    def keep_current(self) -> None:
        item = self.flags.currentItem()
        if item is None or self.state(item.data(_FLAG_ROLE)) in _CLOSED:
            return
        flag = item.data(_FLAG_ROLE)
        label = self.shown(flag.given)  # an open flag's given label is a label now
        try:
            self.store.keep(flag, label=label)
        except (OSError, BertStudioError) as exc:  # not saved: the flag stays open, and the window says why
            self.session.report_failure(_keep_failure(self.store, exc))
            return
        text = self.tr("Keep the label of row %1 (%2)").replace("%1", str(flag.row + 1)).replace("%2", label)
        self.session.undo_stack.push(KeepFlagCommand(self, flag, label, text))  # Ctrl+Z opens the flag again
        self._paint(item)
        self._next()

    def show_flag_of(self, flag: Any) -> None:
        """Repaint ``flag``'s item (a keep undone or redone) and make it the current one."""
        for i in range(self.flags.count()):
            shown = self.flags.item(i).data(_FLAG_ROLE)
            if shown.row == flag.row and row_key(shown) == row_key(flag):
                self._paint(self.flags.item(i))
                self.flags.setCurrentRow(i)
                self._show_flag(i)
        self.summary.setText(self._summary_text())

    def relabel_current(self) -> None:
        item = self.flags.currentItem()
        if item is None or self.state(item.data(_FLAG_ROLE)) in _CLOSED:
            return  # the person relabelled the row after the check (theirs stands), or it is another row now
        flag = item.data(_FLAG_ROLE)
        suggested = self.shown(flag.suggested)  # an open flag's suggestion is a label now
        value: Any = suggested
        if flag.word is not None:  # tagging: the one word, the other tags as they are now
            value = list(self.session.gold(self.split, flag.row))
            value[flag.word] = suggested
        text = self.tr("Relabel row %1 as %2").replace("%1", str(flag.row + 1)).replace("%2", suggested)
        try:
            self.session.apply_gold(self.split, flag.row, value, text)
        except BertStudioError as exc:  # not saved: the flag stays open, and the window says why
            self.session.report_failure(exc)
            return
        self._paint(item)
        self._next()

    def _next(self) -> None:
        for i in list(range(self.flags.currentRow() + 1, self.flags.count())) + list(range(self.flags.count())):
            if self.state(self.flags.item(i).data(_FLAG_ROLE)) == "open":
                self.flags.setCurrentRow(i)
                return

    def _go_to_row(self, item: QListWidgetItem) -> None:
        self.session.set_current(self.split, item.data(_FLAG_ROLE).row)

    def _on_gold_changed(self, split: str, row: int) -> None:
        if split != self.split:
            return
        for i in range(self.flags.count()):
            item = self.flags.item(i)
            if item.data(_FLAG_ROLE).row == row:
                self._paint(item)
                if item is self.flags.currentItem():
                    self._show_flag(i)

    def _on_label_renamed(self, old: str, new: str) -> None:
        """A label renamed (or a rename undone): the flags name it by its new name, the keeps follow."""
        for names in (self.names, self._checking_names):
            for name, now in names.items():
                if now == old:
                    names[name] = new
        try:
            self.store.rename(old, new)
        except (OSError, BertStudioError) as exc:  # its keeps are asked about again at the next check
            log.warning("%s: the kept flags could not follow the rename of %r to %r: %s", self.store.path, old, new, exc)

    def _on_labels_changed(self) -> None:
        """A label added, removed or renamed: a label removed since the check stays gone for its
        flags (a later label of that name is another one), and every flag is repainted."""
        labels = set(self.session.project.labels) if self.session.has_project() else set()
        for names in (self.names, self._checking_names):
            for name, now in names.items():
                if now not in labels:
                    names[name] = None
        self._refresh()

    def _on_rows_changed(self, split: str) -> None:
        """An import into the split: replaced rows close every flag (undoing the replace opens them again)."""
        if split == self.split:
            self._refresh()

    def _refresh(self) -> None:
        """Every flag's state may have changed: repaint the list, the summary and the current flag."""
        if self.report is None:
            return
        for i in range(self.flags.count()):
            self._paint(self.flags.item(i))
        self.summary.setText(self._summary_text())
        if self.flags.currentItem() is not None:
            self._show_flag(self.flags.currentRow())
        self._enable_buttons()

    def closeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        self.cancel()
        super().closeEvent(event)

    def _on_project_closing(self, _project: object) -> None:
        self.cancel()
        self.close()


def _keep_failure(store: ReviewStore, exc: Exception) -> str:
    reason = exc.message if isinstance(exc, BertStudioError) else f"{store.path}: {getattr(exc, 'strerror', None) or exc}"
    return QCoreApplication.translate("ReviewQueue", "Could not remember the kept label: %1").replace("%1", reason)


def open_review_queue(session: ProjectSession, parent: QWidget | None = None) -> ReviewQueue:
    """The Label page's entry point: the queue as its own window over ``parent``, started."""
    queue = ReviewQueue(session, parent=parent)
    queue.setWindowFlag(Qt.WindowType.Window, True)
    queue.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    queue.resize(900, 560)
    queue.show()
    queue.start()
    return queue
