"""The Label page: the editor of the project's kind, its progress, the shortcuts beside it.

``labelEditor`` is a QStackedWidget holding one editor per kind; the project's
kind picks the one shown. The position ("example 3 of 300") and the progress
(labelled / total of the current split) update on every gold change, every move
and every import, so both always count the same rows.

The keys belong to the editor whenever the page is shown: the page's focus proxy is
the current editor, it takes the focus when shown and when a project opens while it
is shown, and the main window focuses it when its page button is clicked again.

The labelling assistant (``session.assist``) adds the bar above the editor (the Next order,
the counts, "Train now": :mod:`bertstudio.ui.assist_bar`), the suggestion in the editor
(Enter accepts it) and the audit-accuracy chart under the shortcuts
(:mod:`bertstudio.ui.assist_chart`). While it runs on the split shown, a label or a skip
asks it for the next example in the chosen order; the arrows still move row by row.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from bertstudio.assist.strategies import REASONS  # no torch: the assistant's package loads it lazily
from bertstudio.data.kinds import get_spec
from bertstudio.ui.assist_bar import AssistBar
from bertstudio.ui.assist_chart import AuditChart
from bertstudio.ui.editors.base import KindEditor
from bertstudio.ui.editors.classify import PairEditor, RegressionEditor, SentenceEditor
from bertstudio.ui.editors.flow_layout import FlowLayout
from bertstudio.ui.editors.label_set import LabelSetDialog
from bertstudio.ui.editors.qa import QAEditor
from bertstudio.ui.editors.tagging import TaggingEditor
from bertstudio.ui.help_panel import HelpPanel
from bertstudio.ui.review_store import follow_label_rename
from bertstudio.ui.session import SPLITS, ProjectSession, split_name
from bertstudio.ui import theme
from bertstudio.ui.theme import font_scale

EDITORS: dict[str, type[KindEditor]] = {
    "sentence": SentenceEditor,
    "pair": PairEditor,
    "regression": RegressionEditor,
    "tagging": TaggingEditor,
    "qa": QAEditor,
}


class LabelPage(QWidget):
    status_message = Signal(str)  # the editors' notes (why a key did nothing, all labelled), for the status bar

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelPage")
        self.session = session
        self.split_combo = QComboBox()
        self.split_combo.setObjectName("labelSplitCombo")
        self.split_combo.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click leaves the keys with the editor
        for split in SPLITS:
            self.split_combo.addItem(split_name(split), split)
        self.split_combo.activated.connect(self._on_split_chosen)
        self.position = QLabel()
        self.position.setObjectName("positionLabel")
        self.progress = QProgressBar()
        self.progress.setObjectName("labelProgress")
        self.progress.setFormat(self.tr("%v / %m labelled"))
        self.progress.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label_set_button = QPushButton(self.tr("Label &set…"))
        self.label_set_button.setObjectName("labelSetButton")
        self.label_set_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.label_set_button.clicked.connect(self.edit_label_set)
        # wraps when the window is too narrow for one line (an 18-pt font on a 1280-px projector);
        # the progress bar (expanding) takes what the line leaves
        top = FlowLayout()
        split_title = QLabel(self.tr("S&plit:"))
        split_title.setBuddy(self.split_combo)  # Alt+P
        split_piece = QWidget()
        split_row = QHBoxLayout(split_piece)
        split_row.setContentsMargins(0, 0, 0, 0)
        split_row.addWidget(split_title)
        split_row.addWidget(self.split_combo)
        top.addWidget(split_piece)
        top.addWidget(self.position)
        top.addWidget(self.progress)
        top.addWidget(self.label_set_button)
        self.review_button = QPushButton(self.tr("&Review suspected errors…"))  # label-error finder (#15)
        self.review_button.setObjectName("reviewErrorsButton")
        self.review_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # (it was mouse-only)
        self.review_button.clicked.connect(self.review_suspected_errors)
        top.addWidget(self.review_button)
        session.label_renamed.connect(self._on_label_renamed)  # the Review queue's keeps, open or not

        self.stack = QStackedWidget()
        self.stack.setObjectName("labelEditor")
        self.editors: dict[str, KindEditor] = {}
        for kind, cls in EDITORS.items():
            editor = cls(session)
            editor.message_shown.connect(self.status_message)  # emitted before, shown nowhere but by tagging
            editor.focus_changed.connect(self._update_keys_note)
            self.editors[kind] = editor
            self.stack.addWidget(editor)
        self.help = HelpPanel()
        self.help.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a click on the help must not take the editor's keys
        self.assist_bar = AssistBar(session.assist)
        self.assist_bar.order_changed.connect(self._on_order_changed)
        for box in (self.assist_bar.order_combo, self.assist_bar.label_combo):
            # the keys go back to the editor on a choice committed in the list, not on each arrow on
            # the closed box (the next arrow then stepped the example)
            box.chosen.connect(lambda _i: self.editor().setFocus())
        self.assist_bar.train_button.clicked.connect(lambda: self.editor().setFocus())  # pressed from the keyboard
        self.chart = AuditChart(session.assist)
        self.chart.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        side = QSplitter(Qt.Orientation.Vertical)
        side.setObjectName("labelSidePanel")
        side.addWidget(self.help)
        side.addWidget(self.chart)
        # sized for a 10-pt font and grown with a larger one (at 18 pt the panel kept ~235 px and broke
        # "Backspace" mid-word)
        side.setMaximumWidth(round(420 * font_scale()))
        self.help.setMinimumWidth(round(200 * font_scale()))
        side.setSizes([340, 280])  # the shortcuts whole on a laptop screen, the chart below
        splitter = QSplitter()
        splitter.addWidget(self.stack)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.assist_bar)
        layout.addWidget(splitter, 1)
        # says where the keys are: the editor's frame alone is easy to miss, and a key pressed with the
        # focus elsewhere (one Tab past "Review suspected errors…") did nothing, without a word
        self.keys_note = QLabel(objectName="labelKeysNote", wordWrap=True)
        self._focus_shortcut = ""
        layout.addWidget(self.keys_note)
        self._update_keys_note(False)
        self.chart.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a plot has nothing to do with keys
        self._pick_reason, self._pick_row = "", -1  # why the assistant picked the example shown
        self._pick_item: Any = None  # the NextItem behind it
        # the by-label order's label, removed from the label set: said in the note until the order
        # changes, and chosen again if an undo brings it back
        self._lost_order_label: str | None = None
        self._lost_note_row = -1
        # a key that replaces a dev or test gold asks once per opened project (tests answer without a dialog)
        self.confirm_gold_overwrite = self._ask_gold_overwrite
        self._gold_overwrite_allowed = False
        for editor in self.editors.values():
            editor.next_hook = self._next_item
            editor.overwrite_hook = self._allow_gold_overwrite
        session.assist.scores_changed.connect(self._on_scores_changed)
        session.assist.status_changed.connect(self._update_assist_note)
        session.assist.switched.connect(self._update_help)  # the bar, chart and help follow the switch

        session.project_opened.connect(self._on_project_opened)
        session.project_closed.connect(self._on_project_closed)
        session.gold_changed.connect(self._update_progress)
        session.data_imported.connect(self._on_data_imported)
        session.labels_changed.connect(self._update_progress)
        session.labels_changed.connect(self._on_labels_changed)
        session.current_example_changed.connect(self._on_current_example_changed)
        if session.has_project():
            self._on_project_opened(session.project)
        else:
            self._show_editor(next(iter(self.editors)))
            self._show_assist()
            self.setEnabled(False)

    def set_focus_shortcut(self, keys: str) -> None:
        """The window's key that shows this page with the keys in the editor (Ctrl+2), named in the note."""
        self._focus_shortcut = keys
        self._update_keys_note(self.editor().hasFocus())

    def _update_keys_note(self, has_keys: bool) -> None:
        if has_keys:
            text, tone = self.tr("Label keys go to this example (framed)."), "muted"
        elif self._focus_shortcut:
            text = self.tr("Label keys are off: click the example or press %1 to label with keys.").replace(
                "%1", self._focus_shortcut)
            tone = "warning"
        else:
            text, tone = self.tr("Label keys are off: click the example to label with keys."), "warning"
        self.keys_note.setText(text)
        theme.set_tone(self.keys_note, tone)

    def add_tool(self, widget: QWidget) -> None:
        """Another Label page tool (a button, e.g. a review queue) on the assistant's bar."""
        self.assist_bar.add_tool(widget)

    def editor(self) -> KindEditor:
        """The editor of the open project's kind."""
        return self.editors[self.session.kind]

    def _on_project_opened(self, _project: object) -> None:
        self.setEnabled(True)
        self._lost_order_label = None  # another project's label set
        self._gold_overwrite_allowed = False  # asked again for this project's evaluation gold
        kind = self.session.kind
        self._show_editor(kind)
        self.setFocusProxy(self.editors[kind])
        self._update_help()
        self.label_set_button.setEnabled(get_spec(kind).has_label_set)
        self.review_button.setEnabled(get_spec(kind).has_label_set)
        self.review_button.setToolTip("" if self.review_button.isEnabled() else self.tr(
            "The finder looks for labels from a label set that a model disagrees with; this project's gold "
            "values (scores or answers) have no label set"))
        self.editors[kind].refresh()
        self._on_current_example_changed(self.session.current_split, self.session.current_row)
        if self.isVisible():  # reopened onto this page: no show event comes, the keys must still work
            self.editor().setFocus()

    def _show_editor(self, kind: str) -> None:
        """Show the editor of ``kind``, the stack sized by it alone.

        A QStackedWidget asks for the largest minimum of all its pages: the QA editor's 897 px at an
        18-pt font set the window's narrowest width for every kind (1526 px, wider than a 1280-px
        projector). Hidden pages with an Ignored size policy count for nothing (as Qt's docs advise).
        """
        for name, editor in self.editors.items():
            policy = QSizePolicy.Policy.Preferred if name == kind else QSizePolicy.Policy.Ignored
            editor.setSizePolicy(policy, policy)
        self.stack.setCurrentWidget(self.editors[kind])
        self.stack.updateGeometry()

    def _update_help(self) -> str | None:
        """The help and the bar follow the labels; returns the by-label order's label when it was removed."""
        lost = None
        if self.session.has_project():
            self.help.set_kind(self.session.kind, self.session.labels(), assistant=self.session.assist.is_on())
            lost = self.assist_bar.set_labels(self.session.labels(),
                                              self.session.assist.suggests_labels(self.session.kind))
        self._show_assist()
        return lost

    def _on_labels_changed(self) -> None:
        """The project's label set changed. The by-label order's label removed: the order fell back to the
        rarest label without a word, and the note still said "likeliest for" the removed one until the next
        pick. Now the note says so and a new example is picked; an undo of the removal chooses it again."""
        lost, bar = self._update_help(), self.assist_bar
        if lost is not None and bar.strategy() == "by_label":
            self._lost_order_label, self._lost_note_row = lost, self.editor().row  # said while it is shown
            self._pick_reason = ""  # "likeliest for" the removed label
            self._update_assist_note()
            # a new pick once the assistant has followed the removal too (it hears of it after this
            # page: picked now, the rarest label was still the removed one)
            QTimer.singleShot(0, self, self._pick_after_label_removal)
        elif self._lost_order_label in self.session.labels() and bar.strategy() == "by_label" and bar.label() is None:
            bar.set_label(self._lost_order_label)  # the order fills it again from the next label or skip

    # -- evaluation gold -----------------------------------------------------------------------
    def _allow_gold_overwrite(self, split: str, row: int, before: Any, after: Any) -> bool:
        """The editors' overwrite_hook. The first key that replaces a dev or test gold in this opened project
        asks (an explicit choice: runs are scored against it, and label keys are typed without reading every
        screen: a 1 pressed on an imported dev set changed its gold in silence); the later ones are said in
        the status bar, and Ctrl+Z undoes each."""
        if not self._gold_overwrite_allowed:
            self._gold_overwrite_allowed = bool(self.confirm_gold_overwrite(split, row, before, after))
        return self._gold_overwrite_allowed

    def _ask_gold_overwrite(self, split: str, row: int, before: Any, after: Any) -> bool:
        editor = self.editor()
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Change evaluation gold?"),
                          self.tr("Change the gold of a %1 row? Runs are scored against it.").replace(
                              "%1", split_name(split)), parent=self)
        box.setInformativeText(editor.replaced_note(split, row, before, after) + "\n\n" + self.tr(
            "Asked once per opened project: later changes of dev and test gold are noted in the status bar."))
        change = box.addButton(self.tr("Change gold"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))  # Enter keeps the gold
        box.exec()
        editor.setFocus()
        return box.clickedButton() is change

    # -- the labelling assistant -------------------------------------------------------------
    def _show_assist(self) -> None:
        on = self.session.assist.is_on()
        self.assist_bar.set_assistant_shown(on)  # the bar stays: other tools can sit on it
        self.chart.setVisible(on)

    def _next_item(self, skipping: bool) -> bool:
        """The editors' next_hook: go to the assistant's next example in the chosen order."""
        editor, assist = self.editor(), self.session.assist
        if not assist.is_active(editor.split):
            return False
        item = assist.next_item(self.assist_bar.strategy(), label=self.assist_bar.label(),
                                skip_row=editor.row if skipping else None)
        if item is None:
            self._pick_reason = ""
            editor.message_shown.emit(self.tr("Every example of this split is labelled."))
            self._update_assist_note()
            return True
        self._pick_reason, self._pick_row, self._pick_item = pick_reason(item), item.row, item
        if item.row == editor.row:
            editor.refresh()  # the same row again (the last one left): redraw its suggestion
        self.session.set_current(editor.split, item.row)
        self._update_assist_note()
        if skipping:  # the bar's "N skipped" moves now (it waited for the next label's status)
            self.assist_bar.update_counts()
        return True

    def _pick_after_label_removal(self) -> None:
        if self.session.has_project() and self._lost_order_label is not None:
            self._next_item(False)  # the example shown was picked for the removed label
            self._lost_note_row = self.editor().row
            self._update_assist_note()

    def _on_order_changed(self, _strategy: str) -> None:
        """A new order applies from the next label or skip, as the box's tooltip says: the example
        shown stays (each arrow on the closed box replaced it, so stepping through the four orders
        lost the example being read, once per step)."""
        self._lost_order_label = None
        if self.session.has_project():
            self._update_assist_note()

    def _on_scores_changed(self) -> None:
        if self.session.has_project():
            self.editor().show_suggestion()
            if self._pick_item is not None and self._pick_row == self.editor().row:  # a newer model: its numbers
                self._pick_reason = pick_reason(self.session.assist.pick_now(self._pick_item))  # (from the pick's own)
        self._update_assist_note()

    def _update_assist_note(self) -> None:
        assist = self.session.assist
        editor = self.editor() if self.session.has_project() else None
        if editor is None or not assist.is_active():
            self.assist_bar.set_note("")
            return
        if not assist.is_active(editor.split):
            self.assist_bar.set_note(self.tr("The labelling assistant works on the train split."))
            return
        parts = [self._pick_reason] if self._pick_row == editor.row else []
        if self._lost_order_label is not None and self._lost_note_row == editor.row:
            parts.insert(0, self.tr("%1 was removed: Next now fills the rarest label").replace(
                "%1", self._lost_order_label))
        waiting = assist.waiting_text() if assist.scores() is None else ""
        self.assist_bar.set_note(" · ".join(p for p in parts + [waiting] if p))

    def _on_project_closed(self) -> None:
        self._show_assist()
        self.setEnabled(False)
        self.progress.reset()
        self.position.clear()

    def _on_data_imported(self, split: str) -> None:
        if split == self.session.current_split:
            self.editor().refresh()
        self._show_position()
        self._update_progress()

    def _on_split_chosen(self, index: int) -> None:
        split = self.split_combo.itemData(index)
        self.session.set_current(split, 0 if self.session.split_size(split) else -1)
        self.editor().setFocus()

    def _on_current_example_changed(self, split: str, row: int) -> None:
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(split)))
        self._show_position()
        self._update_progress()

    def _show_position(self) -> None:
        row, total = self.session.current_row, self.session.split_size(self.session.current_split)
        self.position.setText(self.tr("example %1 of %2").replace("%1", str(row + 1)).replace("%2", str(total))
                              if row >= 0 else self.tr("no examples"))

    def _update_progress(self, *_args: object) -> None:
        done, total = self.session.progress()
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        # its size hint ignores its text: on a wrapping line at its hint "24 / 24 labelled" broke in two
        margin = self.progress.style().pixelMetric(self.progress.style().PixelMetric.PM_ButtonMargin)
        self.progress.setMinimumWidth(self.progress.fontMetrics().horizontalAdvance(self.progress.text()) + 4 * margin)

    def edit_label_set(self) -> None:
        dialog = LabelSetDialog(self.session, self)
        dialog.exec()
        dialog.deleteLater()  # a child of the page: it stayed, listening to every label key, until the page went
        self.editor().setFocus()

    def review_suspected_errors(self) -> None:
        from bertstudio.ui import review_queue

        review_queue.open_review_queue(self.session, self)

    def _on_label_renamed(self, old: str, new: str) -> None:
        """The Review queue's kept flags follow the rename (each split's, whether a queue is open or not),
        and so does the Next order's label (the keeps' own module: the queue's loads torch)."""
        self.assist_bar.follow_rename(old, new)
        if self.session.has_project():
            follow_label_rename(self.session.project.folder, self.session.project.split_names, old, new)
            # the suggestion under its new name, once the assistant has followed the rename too (it hears of it
            # after this page): "Suggested: pos" was shown until the next refit
            QTimer.singleShot(0, self, self._on_scores_changed)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002 - Qt's name
        """Tab out of the editor goes through the page's controls in the order they are shown (the
        split, Label set…, Review suspected errors…, the Next order, its label box, Train now), then
        on out of the page; Shift+Tab goes back the same way and from the editor out of the page.
        The chain Qt builds skipped the controls: entering the page goes to its focus proxy, the
        editor, which comes after them, so a keyboard-only person could never change the order.
        Tab between an editor's own parts (a QA editor's question list) is Qt's as before."""
        bar, editor = self.assist_bar, self.editor()
        ring = [w for w in (self.split_combo, self.label_set_button, self.review_button, bar.order_combo, bar.label_combo,
                            bar.train_button) if w.isVisible() and w.isEnabled()]
        here = QApplication.focusWidget()
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        inside = lambda w: w is not None and (w is editor or editor.isAncestorOf(w))  # noqa: E731
        if here in ring:
            there = ring.index(here) + (1 if next else -1)
            if there < 0:
                editor.setFocus(reason)
                return True
            if there < len(ring):
                ring[there].setFocus(reason)
                return True
            return self._leave(editor, next)  # past the last control: on, as Tab from the editor went before
        moved = super().focusNextPrevChild(next)
        if ring and inside(here) and not inside(QApplication.focusWidget()):
            if next:
                ring[0].setFocus(reason)
            elif self.isAncestorOf(QApplication.focusWidget()):  # back into the controls above: out instead
                return self._leave(ring[0], next)
            return True
        return moved

    def _leave(self, start: QWidget, next: bool) -> bool:
        """Focus leaves the page the way Qt's chain goes from ``start`` (its first widget, or the editor)."""
        start.setFocus(Qt.FocusReason.OtherFocusReason)
        window = self.window()
        return QWidget.focusNextPrevChild(window, next) if window is not self else super().focusNextPrevChild(next)

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().showEvent(event)
        if self.session.has_project():
            self.editor().setFocus()


def pick_reason(item) -> str:
    """The one line saying why ``item`` (a NextItem) was picked, in the user's language (the core's
    words, assist/strategies.REASONS); its label name as it is."""
    if item.why not in REASONS:
        return item.reason
    return QCoreApplication.translate("AssistStrategies", REASONS[item.why]).replace("{}", item.detail)
