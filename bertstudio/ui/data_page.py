"""The Data page: the rows of one split in a table, with search, filters and the label distribution.

The table is a QTableView over :class:`ExampleTableModel` (Arrow-backed, rows
read in blocks on demand). Search and filters compute a numpy index array with
vectorised ``pyarrow.compute`` calls over whole columns and hand it to the
model, so 550,000 rows stay as fast as 500. While the labelling assistant runs on the
split shown, a last "Suggested" column shows its guess per row (drawn by
:class:`~bertstudio.ui.assist_delegate.SuggestionDelegate`: italic, grey; never gold, never
counted, filtered or exported as a label).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QItemSelection, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from bertstudio.data.kinds import entity_types, get_spec, is_bio_tag_set
from bertstudio.ui import theme
from bertstudio.ui.assist_delegate import SuggestionDelegate
from bertstudio.ui.data_model import ExampleTableModel, arrow_table, latest_predictions, search_rows, unlabelled_rows
from bertstudio.ui.editors.flow_layout import FlowLayout
from bertstudio.ui.elided import ElidedLabel
from bertstudio.ui.enter_key import open_on_enter
from bertstudio.ui.session import SPLITS, ProjectSession, count_name, split_name

FILTER_ALL, FILTER_UNLABELLED, FILTER_LABEL, FILTER_DISAGREE = "all", "unlabelled", "label", "disagree"


def _key(mode: str, label: str | None = None) -> str:
    """A filter as combo item data (a plain string: Qt stores it as is and findData matches it)."""
    return f"{mode}:{label or ''}"


NAME_WIDTH = 160  # px of a label's name beside its bar (a longer one is elided, whole in its tooltip)


class LabelDistribution(QScrollArea):
    """One bar per label: how many gold values of the split use it. It scrolls: one row per
    label in a plain layout made 40 labels the window's minimum height (1,056 px on a 768-px
    laptop); a name is plain text ("R&D" is not a mnemonic, "<b>" no markup), elided."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelDistribution")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self._form = QFormLayout(inner)
        self.setWidget(inner)
        self._bars: dict[str, QProgressBar] = {}
        self._count_labels: dict[str, QLabel] = {}
        self._shown_as: tuple[object, ...] | None = None  # the labels and colours the bars show

    def set_counts(self, counts: dict[str, int], colours: dict[str, str]) -> None:
        """A bar per label, each as long as its count against the largest (against the total, 10 of
        1,500 rows drew nothing at 150 labels). The same labels keep their bars: a label key rebuilt
        150 rows of widgets on every edit."""
        top = max([1, *counts.values()])
        shown_as = (tuple(counts), tuple(colours.get(n) or colours.get(f"B-{n}") for n in counts), len(f"{top}"))
        if shown_as == self._shown_as:
            for name, n in counts.items():
                self._set_bar(name, n, top)
            return
        self._shown_as = shown_as
        while self._form.rowCount():
            self._form.removeRow(0)
        self._bars, self._count_labels = {}, {}
        for name, n in counts.items():
            bar = QProgressBar()
            # the count beside the bar, in the palette's text colour: drawn on the bar it was white on a pale
            # label colour in a dark theme (2.4:1), and no one colour reads on both the chunk and the track
            bar.setTextVisible(False)
            bar.setMaximumHeight(max(16, self.fontMetrics().height() + 4))
            colour = colours.get(name) or colours.get(f"B-{name}")
            if colour:
                sheet = f"QProgressBar::chunk {{ background: {colour}; }}"
                # set again on a palette change: a style sheet keeps the track of the palette it was set under
                theme.follow(bar, lambda bar=bar, sheet=sheet: (bar.setStyleSheet(""), bar.setStyleSheet(sheet)))
            label = ElidedLabel()
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setText(name)
            label.setMaximumWidth(NAME_WIDTH)
            bar.setMinimumWidth(80)
            count = QLabel()
            count.setObjectName(f"count_{name}")
            count.setMinimumWidth(count.fontMetrics().horizontalAdvance(f"{top}") + 4)
            row = QHBoxLayout()
            row.addWidget(bar, 1)
            row.addWidget(count)
            self._form.addRow(label, row)
            self._bars[name], self._count_labels[name] = bar, count
            self._set_bar(name, n, top)
        # the rows scroll, the width does not: a name (elided) and a bar beside it stay readable
        self.setMinimumWidth(self.widget().minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width())

    def _set_bar(self, name: str, n: int, top: int) -> None:
        bar = self._bars[name]
        bar.setRange(0, top)
        bar.setValue(n)
        bar.setFormat(f"{n}")
        self._count_labels[name].setText(f"{n}")

    def counts(self) -> dict[str, int]:
        return {name: bar.value() for name, bar in self._bars.items()}


def _titled(title: QLabel, box: QWidget) -> QWidget:
    """A title and its box as one piece of a wrapping bar."""
    piece = QWidget()
    row = QHBoxLayout(piece)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(title)
    row.addWidget(box)
    return piece


class DataPage(QWidget):
    """Split selector, search, filters, the table, the label distribution."""

    example_activated = Signal(str, int)  # a row was double-clicked or Enter pressed: open it in the Label page

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dataPage")
        self.session = session
        self.split = "train"
        self._full: Any = None  # the split's Arrow table (with gold as of the last refresh)
        self._latest_run: tuple[str | None, dict[int, Any]] = (None, {})  # read by the last "disagree" filter
        self.split_combo = QComboBox()
        self.split_combo.setObjectName("splitCombo")
        # as wide as its longest item ("train (60,000)"): a fixed width cut it to "train (60"
        self.split_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.split_combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)  # never "train (20"
        self.split_combo.activated.connect(lambda i: self.choose_split(self.split_combo.itemData(i)))
        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("searchEdit")
        self.search_edit.setPlaceholderText(self.tr("Search the text (Enter)"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.returnPressed.connect(self.apply_filters)
        self.search_edit.textChanged.connect(lambda t: t or self.apply_filters())
        self.filter_combo = QComboBox()
        self.filter_combo.setObjectName("filterCombo")
        self.filter_combo.activated.connect(lambda _i: self.apply_filters())
        # as wide as a short filter name (the list shows the long ones): a narrow window keeps
        # room for the search box, which a combo sized to its longest entry squeezed to "S…"
        self.filter_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.filter_combo.setMinimumContentsLength(10)
        self.search_edit.setMinimumWidth(self.search_edit.fontMetrics().horizontalAdvance("x" * 12))
        self.count_label = QLabel()
        self.count_label.setObjectName("rowCountLabel")
        search_button = QPushButton(self.tr("&Search"))
        search_button.clicked.connect(self.apply_filters)
        self.add_button = QPushButton(self.tr("&Add examples…"), objectName="addExamplesButton")
        self.add_button.setToolTip(self._add_tip())
        self.add_button.clicked.connect(self.add_examples)
        # one line that wraps when the window is too narrow for it: in a row it set the window's narrowest
        # width at an 18-pt font to 1432 px, past a 1280-px projector; each title stays with its box
        bar = FlowLayout()
        bar.addWidget(_titled(QLabel(self.tr("Split:")), self.split_combo))
        bar.addWidget(self.search_edit)  # expanding: takes what the line leaves, as a stretch did
        bar.addWidget(search_button)
        bar.addWidget(_titled(QLabel(self.tr("Show:")), self.filter_combo))
        bar.addWidget(self.count_label)
        bar.addWidget(self.add_button)

        self.model = ExampleTableModel(parent=self)
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it): it trapped the keyboard
        self.table.setObjectName("dataTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        # Fixed row heights and no content-based sizing: the view never measures all rows.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.table.doubleClicked.connect(self._on_double_clicked)
        open_on_enter(self.table, self._on_double_clicked)  # Enter opens the current row, as a double-click does
        self.distribution = LabelDistribution()
        side = QWidget()
        side_layout = QVBoxLayout(side)
        self.distribution_title = QLabel(self.tr("<b>Label distribution</b>"), objectName="distributionTitle")
        side_layout.addWidget(self.distribution_title)
        side_layout.addWidget(self.distribution, 1)
        splitter = QSplitter()
        splitter.addWidget(self.table)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 4)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)

        # Counts follow edits, but at most a few times a second while someone labels quickly.
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.setInterval(150)
        self._counts_timer.timeout.connect(self._on_counts_due)
        self._counts_stale = False  # gold changed while the page was hidden: counted when it is next seen
        self._filter_follows: str | None = None  # the filter's key after a rename of its label
        self._filter_stale = False  # a filter on gold values, and gold changed since it ran
        self._refilter_timer = QTimer(self)  # labels given in a burst (undo of many) filter once
        self._refilter_timer.setSingleShot(True)
        self._refilter_timer.setInterval(300)
        self._refilter_timer.timeout.connect(self._refilter)
        session.project_opened.connect(self._on_project_opened)
        session.project_closed.connect(self._on_project_closed)
        session.data_imported.connect(self._on_data_imported)
        session.gold_changed.connect(self._on_gold_changed)
        session.label_renamed.connect(self._on_label_renamed)
        session.labels_changed.connect(self._on_labels_changed)
        session.current_example_changed.connect(self._on_current_example_changed)
        self.suggestion_delegate = SuggestionDelegate(self.table)
        session.assist.scores_changed.connect(self._on_suggestions_changed)
        if session.has_project():
            self._on_project_opened(session.project)
        else:
            self.setEnabled(False)

    def _add_tip(self) -> str:
        return self.tr("Type new examples into this split, then label them")

    def allow_adding(self, allowed: bool, reason: str = "") -> None:
        """Grey Add examples with ``reason`` as its tooltip (a read-only project), or bring it back."""
        self.add_button.setEnabled(allowed)
        self.add_button.setToolTip(reason if not allowed and reason else self._add_tip())

    def add_examples(self) -> Any:
        """Open the Add examples dialog (into train unless the user picks another split, whichever split is
        shown here); the last added row becomes current."""
        from bertstudio.ui.add_example_dialog import AddExampleDialog

        if not self.session.has_project():
            return None
        dialog = AddExampleDialog(self.session, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        last: list[tuple[str, int]] = []
        dialog.added.connect(lambda split, row: last.append((split, row)))
        dialog.finished.connect(lambda _r: last and self._show_added(*last[-1]))
        dialog.open()
        return dialog

    def _show_added(self, split: str, row: int) -> None:
        self.show_split(split)
        self.session.set_current(split, row)

    # -- project and split ---------------------------------------------------------------
    def _on_project_opened(self, _project: object) -> None:
        self.setEnabled(True)
        self._fill_splits()
        self.show_split(self.session.current_split)

    def _on_project_closed(self) -> None:
        self._full = None
        self.model.set_table("sentence", None)
        self.distribution.set_counts({}, {})
        self.count_label.clear()
        self.setEnabled(False)

    def _fill_splits(self) -> None:
        self.split_combo.clear()
        for split in SPLITS:
            n = self.session.split_size(split)
            self.split_combo.addItem(f"{split_name(split)} ({n})", split)
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(self.split)))

    def _fill_filters(self, current: str | None = None) -> None:
        """Offer today's filters, keeping ``current`` (default: the combo's key) where it is still offered."""
        current = self.filter_combo.currentData() if current is None else current
        self.filter_combo.clear()
        self.filter_combo.addItem(self.tr("All rows"), _key(FILTER_ALL))
        self.filter_combo.addItem(self.tr("Unlabelled"), _key(FILTER_UNLABELLED))
        for name in get_spec(self.session.kind).gold.filter_labels(self.session.labels()):
                self.filter_combo.addItem(self.tr("Label = %1").replace("%1", name), _key(FILTER_LABEL, name))
        self.filter_combo.addItem(self.tr("Disagrees with the latest run"), _key(FILTER_DISAGREE))
        self.filter_combo.setCurrentIndex(max(0, self.filter_combo.findData(current)))

    def choose_split(self, split: str) -> None:
        """The user picked ``split`` in the combo: it becomes the split being looked at everywhere (the
        status bar and the Label page said train while the table showed dev)."""
        self.show_split(split)
        if split != self.session.current_split:
            self.session.set_current(split, 0 if self.session.split_size(split) else -1)

    def show_split(self, split: str) -> None:
        """Show all rows of ``split`` (search and filter are re-applied)."""
        self.split = split or "train"
        self.split_combo.setCurrentIndex(max(0, self.split_combo.findData(self.split)))
        examples = self.session.examples(self.split) if self.session.split_size(self.split) else None
        self._full = arrow_table(examples) if examples is not None else None
        project = self.session.project
        gold_of = (lambda row, s=self.split: project.gold(s, row)) if project is not None else None
        self.model.set_table(self.session.kind, self._full, None, gold_of)
        self.model.set_colours(self.session.label_colours())
        self._show_suggestions()
        self._size_columns()
        self._fill_filters()
        self.apply_filters()
        self._update_counts()

    def _size_columns(self) -> None:
        """Text columns share the width; short columns get a fixed one (never measured over the rows)."""
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        spec = get_spec(self.model.kind)
        for i, column in enumerate(spec.view_columns):
            if column not in spec.inputs + spec.optional_inputs:  # gold, title: a fixed width
                header.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive)
                wide = column == spec.gold_column and (spec.gold.name == "answers" or spec.gold.per_token)
                header.resizeSection(i, 180 if wide else 140)
            else:
                header.setSectionResizeMode(i, QHeaderView.ResizeMode.Stretch)
        if self.model.columnCount() > len(spec.view_columns):  # the Suggested column
            header.setSectionResizeMode(len(spec.view_columns), QHeaderView.ResizeMode.Interactive)
            header.resizeSection(len(spec.view_columns), 180 if spec.gold.per_token else 120)

    # -- the assistant's suggestions ------------------------------------------------------
    def _show_suggestions(self) -> None:
        """The Suggested column while the assistant runs on this split (and has suggested something)."""
        assist = self.session.assist
        wanted = assist.is_active(self.split) and self._full is not None and assist.scores() is not None
        if wanted != (self.model.columnCount() > len(get_spec(self.model.kind).view_columns)):
            self.model.set_suggestions((lambda row, s=self.split: assist.suggestion(s, row)) if wanted else None)
            column = len(get_spec(self.model.kind).view_columns)
            for i in range(column + 1):
                self.table.setItemDelegateForColumn(i, None)
            if wanted:
                self.table.setItemDelegateForColumn(column, self.suggestion_delegate)
            self._size_columns()

    def _on_suggestions_changed(self) -> None:
        self._show_suggestions()
        self.model.suggestions_changed()

    def _on_data_imported(self, split: str) -> None:
        self._fill_splits()
        if split == self.split or self._full is None:
            self.show_split(split)

    def _on_gold_changed(self, split: str, row: int) -> None:
        if split == self.split:
            self.model.refresh_row(row)
            self._counts_timer.start()
            if self.current_filter()[0] != FILTER_ALL:
                # "Unlabelled" went on listing rows labelled on the Label page, under a stale count:
                # the filter reads today's gold when the page is next seen (now, if it is on screen)
                self._filter_stale = True
                if self.isVisible():
                    self._refilter_timer.start()

    def showEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().showEvent(event)
        if self._filter_stale:
            self._refilter()
        if self._counts_stale:
            self._update_counts()

    def _on_counts_due(self) -> None:
        """Count after labels given on the Label page only when the counts can be seen."""
        if self.isVisible():
            self._update_counts()
        else:
            self._counts_stale = True

    def _refilter(self) -> None:
        if self._filter_stale and self._full is not None:
            self.apply_filters()
            if self.session.current_split == self.split:  # the row looked at stays selected, if still listed
                self._on_current_example_changed(self.split, self.session.current_row)

    def _on_label_renamed(self, old: str, new: str) -> None:
        """A "Label = old" filter becomes "Label = new" (labels_changed follows at once and refills the combo).
        For a BIO tag set the filter names the entity type: B-PER -> B-PERSON moves "PER" to "PERSON"."""
        mode, label = self.current_filter()
        filter_labels = get_spec(self.session.kind).gold.filter_labels
        olds, news = filter_labels([old]), filter_labels([new])
        if (mode == FILTER_LABEL and label is not None and olds == [label] and len(news) == 1
                and label not in filter_labels(self.session.labels())):  # (half a BIO pair: PER is still offered)
            self._filter_follows = _key(FILTER_LABEL, news[0])

    def _on_labels_changed(self) -> None:
        self.model.set_colours(self.session.label_colours())
        self.model.invalidate()  # renamed labels: drop the cached blocks
        before = self.filter_combo.currentData()
        follows, self._filter_follows = self._filter_follows, None
        self._fill_filters(follows)
        if self.filter_combo.currentData() != before and self._full is not None:
            # the filter's label was renamed (followed) or removed (All rows): the table shows what the
            # combo says, not the rows of a filter no longer offered
            self.apply_filters()
        self._update_counts()

    # -- filters and search (vectorised; run on demand) ---------------------------------
    def current_filter(self) -> tuple[str, str | None]:
        mode, _, label = str(self.filter_combo.currentData() or FILTER_ALL).partition(":")
        return mode, (label or None)

    def set_filter(self, mode: str, label: str | None = None) -> None:
        index = self.filter_combo.findData(_key(mode, label))
        if index >= 0:
            self.filter_combo.setCurrentIndex(index)
        self.apply_filters()

    def filtered_rows(self) -> np.ndarray | None:
        """Rows that pass the search and the filter (None = every row)."""
        if self._full is None:
            return None
        spec = get_spec(self.session.kind)
        keep: np.ndarray | None = None
        needle = self.search_edit.text()  # spaces kept: "film " finds the word, not "films"
        if needle.strip():
            keep = search_rows(self._full, spec.text_columns, needle)
        mode, label = self.current_filter()
        if mode != FILTER_ALL:
            current = self._current_table()
            if mode == FILTER_UNLABELLED:
                rows = unlabelled_rows(current, spec.gold_column)
            elif mode == FILTER_LABEL and label is not None:
                rows = spec.gold.rows_with(current[spec.gold_column], label)
            else:
                rows = self._disagreeing_rows()
            keep = rows if keep is None else np.intersect1d(keep, rows, assume_unique=True)
        return keep

    def _current_table(self) -> Any:
        """The split with every edit applied (built on demand: filters need today's gold)."""
        return arrow_table(self.session.examples(self.split))

    def _disagreeing_rows(self) -> np.ndarray:
        split, preds = self._latest_run = latest_predictions(self.session.project)
        if split != self.split or not preds:
            return np.array([], dtype=np.int64)
        from bertstudio.tasks import get_task
        from bertstudio.tasks.base import error_rule

        n = self.session.split_size(self.split)
        golds = {r: self.session.gold(self.split, r) for r in preds if r < n}
        # the same rule as the Results page's "errors only" (a score's tolerance from these golds' scale)
        is_error = error_rule(get_task(self.session.kind), list(golds.values()), self.session.project.glue_task)
        rows = [r for r, gold in golds.items() if is_error(preds[r], gold)]
        return np.array(sorted(rows), dtype=np.int64)

    def apply_filters(self) -> None:
        self._filter_stale = False
        rows = self.filtered_rows()
        self.model.set_index(rows)
        total = self._full.num_rows if self._full is not None else 0
        shown = self.model.rowCount()
        text = self.tr("%1 of %2 rows").replace("%1", f"{shown:,}").replace("%2", f"{total:,}")
        if self.current_filter()[0] == FILTER_DISAGREE:
            # filtered_rows() just read it, unless the split holds no table to filter
            split, preds = self._latest_run if self._full is not None else latest_predictions(self.session.project)
            if not preds:
                text += " · " + self.tr("no run with predictions yet")
            elif split != self.split:
                text += " · " + self.tr("the latest run evaluated the %1 split").replace("%1", split_name(str(split)))
        self.count_label.setText(text)

    # -- counts and selection ----------------------------------------------------------
    def _update_counts(self) -> None:
        self._counts_stale = False
        project = self.session.project
        if project is None or not self.session.split_size(self.split):
            self.distribution.set_counts({}, {})
            return
        counts = project.label_counts(self.split)
        labels = self.session.labels()
        entity_counts = get_spec(self.session.kind).gold.per_token and is_bio_tag_set(labels)
        self.distribution_title.setText(self.tr("<b>Entities per type</b>") if entity_counts
                                        else self.tr("<b>Label distribution</b>"))
        if entity_counts:
            # entities per type (each starts with its B- tag): B-PER 89 and I-PER 71 beside each other said little
            counts = {etype: counts.get(f"B-{etype}", 0) for etype in entity_types(labels)}
        elif get_spec(self.session.kind).gold.per_token:  # tag counts: the outside tag says nothing
            counts = {k: v for k, v in counts.items() if k != "O" and v}
        elif get_spec(self.session.kind).gold.fixed_keys:  # QA: "with an answer", not the key "no_answer"
            counts = {count_name(k): v for k, v in counts.items()}
        self.distribution.set_counts(counts, self.session.label_colours())

    def _on_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if indexes:
            self.session.set_current(self.split, self.model.source_row(indexes[0].row()))

    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.example_activated.emit(self.split, self.model.source_row(index.row()))

    def _on_current_example_changed(self, split: str, row: int) -> None:
        if split != self.split:
            if split not in SPLITS or not self.session.has_project():
                return
            self.show_split(split)  # another page moved to another split: the table follows
        view_row = self.model.view_row(row)
        if view_row >= 0 and self.table.currentIndex().row() != view_row:
            self.table.selectionModel().blockSignals(True)
            self.table.selectRow(view_row)
            self.table.selectionModel().blockSignals(False)
            self.table.scrollTo(self.model.index(view_row, 0))

    def shown_rows(self) -> list[int]:
        """Source rows currently listed (for tests and export of a filtered view)."""
        return [self.model.source_row(i) for i in range(self.model.rowCount())]

