"""The Results page: a run's official metrics, confusion matrix and predictions.

Pick a run; see its metrics (x100, one decimal, as papers print them), the
confusion matrix for classification (click a cell to list those examples), and
every evaluated example with gold, prediction, confidence and loss (sortable,
"errors only"). Selecting a row shows the example with gold and predicted
spans/answers marked, and relabels it in place through the session's undo stack.
"""

from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QSplitter,
    QTableView, QTableWidget, QTableWidgetItem, QTextBrowser, QVBoxLayout, QWidget,
)

from bertstudio.data.kinds import get_spec
from bertstudio.metrics import GLUE_METRICS, KIND_METRICS, canonical_task, is_glue_task
from bertstudio.metrics.display import format_metric
from bertstudio.train.rundir import read_predictions, read_run
from bertstudio.ui.confusion_view import ConfusionView
from bertstudio.ui.predictions_model import PredictionRow, PredictionsFilter, PredictionsModel
from bertstudio.ui.runs_page import all_runs

log = logging.getLogger(__name__)

GOLD_BG, PRED_BG = "#c8e6c9", "#ffe0b2"  # green = gold, orange = predicted; both = overlap


def official_metric_order(kind: str, glue_task: str | None) -> tuple[str, ...]:
    if glue_task and is_glue_task(glue_task):
        return GLUE_METRICS[canonical_task(glue_task)]
    return KIND_METRICS.get(kind, ())


def _spans(tags: list[str] | None) -> list[tuple[str, int, int]]:
    """(type, start, end inclusive) entity spans; seqeval's reader of BIO/IOBES tags."""
    if not tags:
        return []
    from seqeval.metrics.sequence_labeling import get_entities

    return [(t, s, e) for t, s, e in get_entities(list(tags))]


def _mark_runs(text: str, gold: list[tuple[int, int]], pred: list[tuple[int, int]]) -> str:
    """HTML of ``text`` with char ranges [s, e) shaded: gold green, predicted orange, both underlined."""
    flags = [0] * len(text)
    for bit, ranges in ((1, gold), (2, pred)):
        for s, e in ranges:
            for i in range(max(s, 0), min(e, len(text))):
                flags[i] |= bit
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and flags[j] == flags[i]:
            j += 1
        chunk = html.escape(text[i:j])
        f = flags[i]
        if f == 1:
            chunk = f'<span style="background:{GOLD_BG}">{chunk}</span>'
        elif f == 2:
            chunk = f'<span style="background:{PRED_BG}">{chunk}</span>'
        elif f == 3:
            chunk = f'<span style="background:{GOLD_BG}; text-decoration: underline; color:#e65100">{chunk}</span>'
        out.append(chunk)
        i = j
    return "".join(out)


class ResultsPage(QWidget):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.run_dir: Path | None = None
        self.kind = "sentence"
        self._build()
        session.runs_changed.connect(self.refresh_runs)
        session.project_opened.connect(self.refresh_runs)
        session.project_closed.connect(self.refresh_runs)
        session.gold_changed.connect(self._on_gold_changed)
        session.labels_changed.connect(self._on_labels_changed)
        self.refresh_runs()

    def _build(self) -> None:
        self.run_combo = QComboBox(objectName="resultsRunCombo")
        self.run_combo.currentIndexChanged.connect(self._on_run_chosen)
        self.metrics_table = QTableWidget(0, 2, objectName="metricsTable")
        self.metrics_table.setHorizontalHeaderLabels([self.tr("Metric"), self.tr("Score (x100)")])
        self.metrics_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.metrics_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.metrics_table.verticalHeader().hide()
        self.confusion_view = ConfusionView()
        self.confusion_view.cell_clicked.connect(self._on_cell_clicked)
        self.errors_only = QCheckBox(self.tr("Errors only"), objectName="errorsOnlyCheck")
        self.errors_only.toggled.connect(self._on_errors_only)
        self.filter_label = QLabel(objectName="predictionsFilterLabel")

        self.model = PredictionsModel("sentence", self)
        self.proxy = PredictionsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView(objectName="predictionsTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)

        self.example_view = QTextBrowser(objectName="exampleView")
        self.relabel_combo = QComboBox(objectName="relabelCombo")
        self.set_gold_button = QPushButton(self.tr("Set as gold"), objectName="setGoldButton")
        self.set_gold_button.clicked.connect(self._set_gold_from_combo)
        self.accept_button = QPushButton(self.tr("Use prediction as gold"), objectName="acceptPredictionButton")
        self.accept_button.clicked.connect(self._accept_prediction)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Run")))
        top.addWidget(self.run_combo, 1)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.metrics_table, 1)
        lv.addWidget(self.confusion_view, 2)
        center = QWidget()
        cv = QVBoxLayout(center)
        cv.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(self.errors_only)
        bar.addWidget(self.filter_label, 1)
        cv.addLayout(bar)
        cv.addWidget(self.table, 3)
        cv.addWidget(self.example_view, 1)
        edit = QHBoxLayout()
        edit.addWidget(self.relabel_combo, 1)
        edit.addWidget(self.set_gold_button)
        edit.addWidget(self.accept_button)
        cv.addLayout(edit)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(center)
        split.setStretchFactor(1, 3)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        self._update_edit_buttons()

    # --- runs -----------------------------------------------------------------------
    def refresh_runs(self, *_: object) -> None:
        runs = all_runs(self.session)  # the project's, then run folders opened from elsewhere
        runs = [r for r in runs if (r / "metrics.json").is_file() or (r / "predictions.jsonl").is_file()]
        current = self.run_dir
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        for r in reversed(runs):  # newest first
            self.run_combo.addItem(r.name, str(r))
        self.run_combo.blockSignals(False)
        if not runs:
            self.show_run(None)
            return
        # A new run appears on top: show it; otherwise stay on the one being looked at.
        names = {str(r) for r in runs}
        new = names - self._known
        self._known = names
        keep = str(current) if current is not None and str(current) in names else None
        target = str(runs[-1]) if keep is None or new else keep
        self.run_combo.setCurrentIndex(max(0, self.run_combo.findData(target)))
        self.show_run(target)

    _known: set[str] = set()

    def _on_run_chosen(self, idx: int) -> None:
        if idx >= 0:
            self.show_run(self.run_combo.itemData(idx))

    def show_run(self, folder: str | Path | None) -> None:
        """Show one run folder (any, also one outside the project)."""
        self.run_dir = Path(folder) if folder else None
        if self.run_dir is not None:  # keep the picker in step when another page asks for a run
            found = self.run_combo.findData(str(self.run_dir))
            if found >= 0 and found != self.run_combo.currentIndex():
                self.run_combo.blockSignals(True)
                self.run_combo.setCurrentIndex(found)
                self.run_combo.blockSignals(False)
        self.confusion_view.clear_filter()
        self.proxy.set_cell(None)
        if self.run_dir is None:
            self.metrics_table.setRowCount(0)
            self.model.set_rows([])
            self._update_filter_label()
            self.confusion_view.confusion_model.set_data([], [], [])
            self.example_view.clear()
            return
        info = read_run(self.run_dir)
        self.kind = info.kind or self.session.kind
        self._fill_metrics(info.metrics, official_metric_order(self.kind, info.glue_task))
        self.labels = list((info.config.labels if info.config else None) or self.session.labels())
        old, self.model = self.model, PredictionsModel(self.kind, self)
        self.model.set_rows(self._joined_rows(self.run_dir))
        self.proxy.setSourceModel(self.model)
        old.deleteLater()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the text gets the room
        if "loss" in self.model._columns:  # most wrong first: where relabelling pays off
            self.table.sortByColumn(self.model.column_of("loss"), Qt.SortOrder.DescendingOrder)
        else:
            header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self.proxy.sort(-1)  # evaluation order
        self._refresh_confusion()
        classes = get_spec(self.kind).gold.classes
        self.relabel_combo.clear()
        self.relabel_combo.addItems(self.session.labels() if classes else [])
        self.relabel_combo.setVisible(classes)
        self.set_gold_button.setVisible(classes)
        self.example_view.clear()
        self._update_filter_label()
        self._update_edit_buttons()

    def _fill_metrics(self, metrics: dict[str, float], official: tuple[str, ...]) -> None:
        keys = [k for k in official if k in metrics] + [k for k in metrics if k not in official]
        self.metrics_table.setRowCount(len(keys))
        for i, k in enumerate(keys):
            name = QTableWidgetItem(k + (" *" if k in official else ""))
            name.setToolTip(self.tr("official metric of this task") if k in official else "")
            value = QTableWidgetItem(format_metric(k, metrics[k]))
            value.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.metrics_table.setItem(i, 0, name)
            self.metrics_table.setItem(i, 1, value)

    def _joined_rows(self, run_dir: Path) -> list[PredictionRow]:
        """The run's predictions with the project rows they were made for (train/rundir.read_predictions).
        A guessed row, or any row of a run from outside the project, is joined only where the
        gold agrees (same data); the project's own runs keep their rows even after a relabel."""
        preds = read_predictions(run_dir)
        runs_dir = getattr(self.session.project, "runs_dir", None)
        outside = runs_dir is None or run_dir.resolve().parent != Path(runs_dir).resolve()
        wanted: dict[str, list[int]] = {}
        for p in preds:
            if p.split is not None and 0 <= p.row < self.session.split_size(p.split):
                wanted.setdefault(p.split, []).append(p.row)
        fetched: dict[tuple[str, int], dict[str, Any]] = {}
        for split, rows in wanted.items():
            good = sorted(set(rows))
            fetched.update(((split, r), ex) for r, ex in zip(good, self.session.examples(split).dataset.select(good).to_list()))
        gold_column = get_spec(self.kind).gold_column
        out = []
        for p in preds:
            ex = fetched.get((p.split, p.row), {}) if p.split is not None else {}
            if ex and (outside or not p.exact) and ex.get(gold_column) != p.gold:
                ex = {}
            gold = ex.get(gold_column) if ex else p.gold
            out.append(PredictionRow(p.index, p.split if ex else None, p.row if ex else -1, ex, gold, p.pred))
        return out

    def _refresh_confusion(self) -> None:
        classify = get_spec(self.kind).gold.classes
        self.confusion_view.setVisible(classify)
        if classify:
            rows = [r for r in self.model.rows if r.gold is not None]
            golds, preds = [r.gold for r in rows], [r.pred.get("label") for r in rows]
            # A label renamed after the run: the new gold name gets its own row instead of vanishing.
            labels = list(dict.fromkeys([*self.labels, *(str(v) for v in golds + preds if v is not None)]))
            self.confusion_view.confusion_model.set_data(golds, preds, labels)

    # --- filtering ------------------------------------------------------------------
    def _on_cell_clicked(self, cell: tuple[str, str] | None) -> None:
        self.proxy.set_cell(cell)
        self._update_filter_label()

    def _on_errors_only(self, on: bool) -> None:
        self.proxy.set_errors_only(on)
        self._update_filter_label()

    def _update_filter_label(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        text = self.tr("{shown} of {total} examples").format(shown=shown, total=total)
        if self.proxy.cell:
            text += "  ·  " + self.tr("gold {g}, predicted {p}").format(g=self.proxy.cell[0], p=self.proxy.cell[1])
        self.filter_label.setText(text)

    # --- one example ----------------------------------------------------------------
    def current_prediction(self) -> PredictionRow | None:
        idx = self.table.currentIndex()
        if not idx.isValid():
            return None
        return self.model.rows[self.proxy.mapToSource(idx).row()]

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        r = self.current_prediction()
        self._update_edit_buttons()
        if r is None:
            self.example_view.clear()
            return
        self.example_view.setHtml(self.example_html(r))
        if r.split is not None and isinstance(r.gold, str):
            self.relabel_combo.setCurrentText(r.gold)
            self.session.set_current(r.split, r.row)

    def example_html(self, r: PredictionRow) -> str:
        """The example with gold and prediction, drawn the way its gold type reads best."""
        draw = {"tags": self._tags_html, "answers": self._answers_html}.get(get_spec(self.kind).gold.name)
        return draw(r) if draw is not None else self._values_html(r)

    def _legend(self) -> str:
        return f"<p><i>{html.escape(self.tr('green = gold, orange = predicted'))}</i></p>"

    def _tags_html(self, r: PredictionRow) -> str:
        tokens = list(r.example.get("tokens") or [])
        return "<br>".join(
            f"<b>{html.escape(title)}</b> " + self._tagged_html(tokens, tags) for title, tags in
            ((self.tr("Gold:"), r.gold), (self.tr("Predicted:"), r.pred.get("tags")))) + self._legend()

    def _answers_html(self, r: PredictionRow) -> str:
        esc, ex = html.escape, r.example
        context = str(ex.get("context") or "")
        gold = r.gold or {}
        gold_ranges = [(s, s + len(t)) for t, s in zip(gold.get("text") or [], gold.get("answer_start") or [])]
        start, answer = int(r.pred.get("start", -1)), r.pred.get("answer") or ""
        pred_ranges = [(start, start + len(answer))] if start >= 0 and answer else []
        return (f"<p><b>{esc(self.tr('Question:'))}</b> {esc(ex.get('question') or '')}</p>"
                f"<p>{_mark_runs(context, gold_ranges, pred_ranges)}</p>" + self._legend())

    def _values_html(self, r: PredictionRow) -> str:
        esc, ex, gold = html.escape, r.example, get_spec(self.kind).gold
        parts = [f"<p>{esc(str(ex.get('text', '')))}</p>"]
        if ex.get("text_pair"):
            parts.append(f"<p>{esc(str(ex['text_pair']))}</p>")
        parts.append(f"<p><b>{esc(self.tr('Gold:'))}</b> {esc(gold.short_text(r.gold))} &nbsp; "
                     f"<b>{esc(self.tr('Predicted:'))}</b> {esc(gold.short_text(self.model.predicted_value(r)))}</p>")
        probs = r.pred.get("probs") or {}
        if probs:
            parts.append("<br>".join(f"{esc(k)}: {100 * float(v):.1f}%" for k, v in sorted(probs.items(), key=lambda kv: -kv[1])))
        return "".join(parts)

    def _tagged_html(self, tokens: list[str], tags: list[str] | None) -> str:
        spans = {s: (t, e) for t, s, e in _spans(tags)}
        out, i = [], 0
        while i < len(tokens):
            if i in spans:
                typ, end = spans[i]
                words = html.escape(" ".join(tokens[i:end + 1]))
                out.append(f'<span style="background:{GOLD_BG}">[{words}]<sub>{html.escape(typ)}</sub></span>')
                i = end + 1
            else:
                out.append(html.escape(tokens[i]))
                i += 1
        return " ".join(out)

    # --- relabelling ----------------------------------------------------------------
    def _update_edit_buttons(self) -> None:
        r = self.current_prediction() if self.table.model() is not None else None
        ok = r is not None and r.split is not None
        self.set_gold_button.setEnabled(ok)
        self.accept_button.setEnabled(ok)
        self.relabel_combo.setEnabled(ok)

    def _set_gold_from_combo(self) -> None:
        r = self.current_prediction()
        if r is not None and r.split is not None and self.relabel_combo.currentText():
            self._apply(r, self.relabel_combo.currentText())

    def _accept_prediction(self) -> None:
        r = self.current_prediction()
        if r is not None and r.split is not None:
            self._apply(r, self.model.predicted_value(r))

    def _apply(self, r: PredictionRow, value: Any) -> None:
        assert r.split is not None
        self.session.apply_gold(r.split, r.row, value, self.tr("Relabel {split} row {row}").format(split=r.split, row=r.row + 1))

    def _on_labels_changed(self) -> None:
        """A rename rewrites gold values in bulk: join the run's rows to the project again."""
        if self.run_dir is None:
            return
        current = self.current_prediction()
        self.show_run(self.run_dir)
        if current is not None:
            for i, r in enumerate(self.model.rows):
                if r.index == current.index:
                    self.table.selectRow(self.proxy.mapFromSource(self.model.index(i, 0)).row())
                    break

    def _on_gold_changed(self, split: str, row: int) -> None:
        if not any(r.split == split and r.row == row for r in self.model.rows):
            return
        self.model.update_gold(split, row, self.session.gold(split, row))
        self._refresh_confusion()
        self.proxy.refilter()
        r = self.current_prediction()
        if r is not None:
            self.example_view.setHtml(self.example_html(r))
        self._update_filter_label()
