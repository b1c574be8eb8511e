"""Two runs side by side: overlaid curves, the settings that differ, and what changed row by row.

Opened from the Runs page with two runs selected; the older run is A, the newer B. The
comparison (:func:`bertstudio.train.compare_runs.compare_runs`: pairing, Task.is_error,
McNemar's exact test, the paired bootstrap) runs on a :class:`~bertstudio.ui.jobs.JobWorker`;
this view only shows its result. Each of the fixed / broken / both-wrong lists is
clickable: a click shows the example with the gold value and both predictions, a
double click makes it the session's current example (the Label and Data pages follow).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QSplitter, QTableWidget, QTableWidgetItem, QTabWidget,
    QTextBrowser, QVBoxLayout, QWidget,
)

from bertstudio.metrics.display import format_change, format_metric
from bertstudio.ui.jobs import JobWorker
from bertstudio.ui.plots import follow_palette
from bertstudio.ui.run_words import compare_note, metric_name
from bertstudio.ui.runs_page import run_titles

_COLOURS = {"A": "#1f77b4", "B": "#d62728"}
_ROW_ROLE = Qt.ItemDataRole.UserRole


def _plot(title: str, x_label: str, y_label: str) -> pg.PlotWidget:
    plot = pg.PlotWidget()
    plot.setTitle(title)
    plot.setLabel("bottom", x_label)
    plot.setLabel("left", y_label)
    plot.showGrid(x=True, y=True, alpha=0.2)
    for side in ("left", "bottom"):  # plain numbers: a loss of 0.39 read as "390 (x0.001)" before
        plot.getAxis(side).enableAutoSIPrefix(False)
    plot.addLegend(offset=(-10, 10))
    follow_palette(plot)
    return plot


class RunCompareDialog(QDialog):
    example_activated = Signal(str, int)  # project split and row of an example opened (Enter or double-click)
    compared = Signal()  # the comparison is on show
    failed = Signal(str)

    def __init__(self, session: Any, folder_a: str | Path, folder_b: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runCompareDialog")
        self.session = session
        self.folders = (Path(folder_a), Path(folder_b))
        # two runs of one name (two seeds jobs' seed-42) told apart by their job folder, as the Runs page does
        titles = run_titles(self.folders)
        self.names = {"A": titles[self.folders[0]], "B": titles[self.folders[1]]}
        self.result: Any = None
        self.setWindowTitle(self.tr("Compare runs: {a} → {b}").format(a=self.names["A"], b=self.names["B"]))
        self.resize(1100, 760)
        self.summary = QLabel(self.tr("Comparing…"), objectName="compareSummary", wordWrap=True)
        # rich text, said so: Qt's guess read a run named "lr<1e-3" as plain and showed the <br> tags;
        # every name, path and message put in it is escaped
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tabs = QTabWidget(objectName="compareTabs")
        self._build_curves()
        self._build_settings()
        self._build_examples()
        # a compared run deleted on the Runs page (or elsewhere): said, the comparison kept as it was
        self.gone_label = QLabel(objectName="compareGone", wordWrap=True, visible=False)
        self.gone_label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.gone_label)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        self.worker: JobWorker | None = None
        if session is not None and hasattr(session, "runs_changed"):
            session.runs_changed.connect(self._say_gone)  # a bound method: dropped when the dialog goes

    # --- layout ------------------------------------------------------------------------
    def _build_curves(self) -> None:
        page = QWidget()
        grid = QHBoxLayout(page)
        self.loss_by_step = _plot(self.tr("Training loss by step"), self.tr("step"), self.tr("loss"))
        self.loss_by_examples = _plot(self.tr("Training loss by examples seen"), self.tr("examples seen"), self.tr("loss"))
        self.metric_plot = _plot(self.tr("Evaluation"), self.tr("step"), self.tr("metric"))
        for plot in (self.loss_by_step, self.loss_by_examples, self.metric_plot):
            grid.addWidget(plot)
        self.tabs.addTab(page, self.tr("Curves"))

    def _build_settings(self) -> None:
        self.settings_table = QTableWidget(0, 3, objectName="settingsDiff")
        self.settings_table.setTabKeyNavigation(False)
        self.settings_table.setHorizontalHeaderLabels([self.tr("Setting"), self.tr("Run A"), self.tr("Run B")])
        self.settings_table.horizontalHeader().setStretchLastSection(True)
        self.settings_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.tabs.addTab(self.settings_table, self.tr("Settings"))

    def _build_examples(self) -> None:
        self.lists: dict[str, QListWidget] = {}
        self.example_tabs = QTabWidget(objectName="exampleTabs")
        for key, name in (("fixed", "fixedList"), ("broken", "brokenList"), ("both_wrong", "bothWrongList")):
            widget = QListWidget(objectName=name)
            widget.currentItemChanged.connect(self._on_current_item)
            widget.itemActivated.connect(self._on_item_activated)  # Enter and double-click (Enter did nothing)
            self.lists[key] = widget
            self.example_tabs.addTab(widget, "")
        self._name_example_tabs()
        self.detail = QTextBrowser(objectName="compareDetail")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.example_tabs)
        split.addWidget(self.detail)
        self.tabs.addTab(split, self.tr("Examples"))

    def _name_example_tabs(self) -> None:
        titles = (self.tr("Fixed (wrong → right): {n}"), self.tr("Broken (right → wrong): {n}"),
                  self.tr("Both wrong: {n}"))
        for i, (key, title) in enumerate(zip(self.lists, titles)):
            self.example_tabs.setTabText(i, title.format(n=self.lists[key].count()))

    # --- the comparison ----------------------------------------------------------------------
    def start(self) -> JobWorker:
        from bertstudio.train.compare_runs import compare_runs

        a, b = self.folders
        worker = JobWorker(lambda _progress, _cancel: compare_runs(a, b), name="bertstudio-compare")
        worker.finished.connect(self.show_result)
        worker.failed.connect(self._on_failed)
        self.worker = worker
        worker.start()
        return worker

    def _say_gone(self) -> None:
        gone = [self.names[key] for key, folder in zip("AB", self.folders) if not folder.is_dir()]
        self.gone_label.setText(self.tr("Deleted since it was compared: %1. The comparison shows it as it was; "
                                        "Edit > Undo puts it back.").replace("%1", ", ".join(gone)) if gone else "")
        self.gone_label.setVisible(bool(gone))

    def _on_failed(self, message: str) -> None:
        self.summary.setText(self.tr("Cannot compare these runs: {m}").format(m=html.escape(message)))
        self.failed.emit(message)

    def counts(self) -> dict[str, int]:
        """The three lists' sizes, as shown."""
        return {key: widget.count() for key, widget in self.lists.items()}

    def show_result(self, result: Any) -> None:
        self.result = result
        self._fill_summary(result)
        self._fill_curves(result)
        self._fill_settings(result)
        for key, widget in self.lists.items():
            widget.clear()
            for position in getattr(result.outcomes, key):
                row = result.rows[position]
                item = QListWidgetItem(self._row_text(row))
                item.setData(_ROW_ROLE, position)
                widget.addItem(item)
        self._name_example_tabs()
        self.compared.emit()

    def _fill_summary(self, r: Any) -> None:
        if not r.rows:  # a run that never evaluated, or evaluated on other data: curves and settings only
            self.summary.setText(self.tr("A = {a}, B = {b}.").format(a=html.escape(self.names["A"]),
                                                                      b=html.escape(self.names["B"]))
                                 + "<br>"
                                 + html.escape(compare_note(r.note, self.names)))
            return
        o = r.outcomes
        how = {"project row": self.tr("project row"), "inputs": self.tr("the examples' text")}.get(
            r.paired_by, self.tr("position in the evaluation set"))
        text = self.tr("A = {a}, B = {b}. {n} shared evaluation rows (paired by {how}).").format(
            a=html.escape(self.names["A"]), b=html.escape(self.names["B"]), n=len(r.rows), how=how)
        if r.relabelled:
            text += " " + self.tr("%n row(s) relabelled between the runs are left out.", "", r.relabelled)
        if r.edited:
            text += " " + self.tr("%n row(s) edited between the runs are left out.", "", r.edited)
        if r.gold_differs:
            text += " " + self.tr("%n row(s) whose gold differs at the same position are left out.", "",
                                  r.gold_differs)
        text += "<br>" + self.tr("Fixed {f} · broken {b} · both wrong {w} · both right {r}; McNemar's exact p = {p}.").format(
            f=len(o.fixed), b=len(o.broken), w=len(o.both_wrong), r=o.both_right, p=f"{o.p_value:.3g}")
        if r.tolerance is not None:  # for scores, right and wrong is a distance: say which
            text += " " + self.tr("A score counts as right within ±{t} of its gold (a tenth of the gold scores' "
                                  "scale).").format(t=f"{r.tolerance:g}")
        c = r.change
        if c is not None:
            # the one display rule: 0.99982 is 99.98 (not 100.0), a change that rounds to nothing +0.0 (not -0.0)
            text += "<br>" + self.tr("{m}: {a} → {b} ({d} points; 95% paired bootstrap interval {lo} to "
                                     "{hi}, {k:,} resamples).").format(
                m=html.escape(metric_name(c.metric)), a=format_metric(c.metric, c.a), b=format_metric(c.metric, c.b),
                d=format_change(c.metric, c.delta), lo=format_change(c.metric, c.low),
                hi=format_change(c.metric, c.high), k=c.resamples)
            # the p and the interval resample the evaluation rows, not the training: two seeds of one
            # setting differ on a tenth of MRPC's dev rows, and neither number knows it
            text += " " + self.tr("Both resample the evaluation rows only: the same settings trained with another "
                                  "seed can differ too (Seeds on the Train page measures by how much).")
        elif r.note:
            text += "<br>" + html.escape(compare_note(r.note, self.names))
        self.summary.setText(text)

    def _fill_curves(self, r: Any) -> None:
        from bertstudio.train.compare_runs import main_metric_key

        key = main_metric_key(r.b) or next(iter(r.curves_b.eval_metrics), None)
        for plot in (self.loss_by_step, self.loss_by_examples, self.metric_plot):
            plot.clear()
        for name, curves in (("A", r.curves_a), ("B", r.curves_b)):
            pen = pg.mkPen(_COLOURS[name], width=2)
            label = f"{name}: {html.escape(self.names[name])}"  # the legend is HTML
            # a lone point (a run shorter than its logging interval) is a dot: a line of one point draws nothing
            dot = dict(symbol="o", symbolSize=6, symbolBrush=_COLOURS[name]) if len(curves.loss) == 1 else {}
            self.loss_by_step.plot(curves.steps, curves.loss, pen=pen, name=label, **dot)
            self.loss_by_examples.plot(curves.examples, curves.loss, pen=pen, name=label, **dot)
            values = curves.eval_metrics.get(key or "", [])
            if values:  # x100, as the Train page's evaluation plot and the scores print them
                self.metric_plot.plot(curves.eval_steps[: len(values)], [100 * v for v in values], pen=pen, symbol="o",
                                      symbolSize=6, symbolBrush=_COLOURS[name], name=label)
        self.metric_plot.setLabel("left", self.tr("{m} (x100)").format(m=html.escape(metric_name(key))) if key else self.tr("metric"))

    def _fill_settings(self, r: Any) -> None:
        from bertstudio.bundled import model_title

        self.settings_table.setRowCount(len(r.settings))
        for i, (name, a, b) in enumerate(r.settings):
            if name == "model":  # unset is the bundled model, named as the Runs page names it
                a, b = model_title(a), model_title(b)
            for j, value in enumerate((name, a, b)):
                self.settings_table.setItem(i, j, QTableWidgetItem("—" if value is None else str(value)))
        self.settings_table.resizeColumnsToContents()

    # --- the examples ------------------------------------------------------------------------
    def _example(self, row: Any) -> dict[str, Any]:
        split, index = row.key
        return self.session.row(split, index) if split != "#" and self.session is not None else {}

    def _row_text(self, row: Any) -> str:
        from bertstudio.data.kinds import get_spec

        example = self._example(row)
        text = get_spec(self.result.b.kind).example_text(example) if example else ""
        where = self.tr("eval row {n}").format(n=row.key[1] + 1) if row.key[0] == "#" else f"{row.key[0]} {row.key[1] + 1}"
        return f"{where}: {text}" if text else where

    def _on_current_item(self, item: QListWidgetItem | None, _previous: Any = None) -> None:
        if item is None or self.result is None:
            self.detail.clear()
            return
        from bertstudio.data.kinds import get_spec
        from bertstudio.tasks import get_task

        row = self.result.rows[int(item.data(_ROW_ROLE))]
        spec, task = get_spec(self.result.b.kind), get_task(self.result.b.kind)
        show = spec.gold.short_text
        parts = [f"<p><b>{html.escape(self._row_text(row))}</b></p>"]
        for column in spec.text_columns:
            value = self._example(row).get(column)
            if value:
                value = " ".join(value) if isinstance(value, list) else str(value)
                parts.append(f"<p><i>{html.escape(column)}</i>: {html.escape(value)}</p>")
        gold = self.tr("Gold")  # outside the f-string, where lupdate sees it
        parts.append(f"<p>{gold}: {html.escape(show(row.gold))}<br>"
                     f"A: {html.escape(show(task.predicted_value(row.pred_a)))}<br>"
                     f"B: {html.escape(show(task.predicted_value(row.pred_b)))}</p>")
        self.detail.setHtml("".join(parts))

    def _on_item_activated(self, item: QListWidgetItem) -> None:
        row = self.result.rows[int(item.data(_ROW_ROLE))]
        split, index = row.key
        if split != "#" and self.session is not None:
            self.session.set_current(split, index)
            self.example_activated.emit(split, index)


def open_compare(session: Any, folder_a: str | Path, folder_b: str | Path, parent: QWidget | None = None) -> RunCompareDialog:
    """Show the comparison of two run folders (non-modal) and start computing it."""
    dialog = RunCompareDialog(session, folder_a, folder_b, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    dialog.start()
    return dialog
