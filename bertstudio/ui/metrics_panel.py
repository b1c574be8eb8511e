"""A run's scores: the official metrics (x100, one decimal, as papers print them) and,
beside them, precision / recall / F1 / support per class (per label, POS tag or entity
type) with their macro and weighted averages, from :mod:`bertstudio.metrics.per_class`."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QAbstractScrollArea, QHeaderView, QLabel, QSizePolicy, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from bertstudio.errors import BertStudioError, fact_text
from bertstudio.metrics.display import format_metric, is_score, last_score_keys  # the one formatter (the Results page imports it from here)
from bertstudio.metrics.classification import OneAnswer
from bertstudio.metrics.per_class import PerClassReport
from bertstudio.ui.run_words import metric_name


def official_metric_order(kind: str, glue_task: str | None) -> tuple[str, ...]:
    from bertstudio.tasks import official_metrics

    try:
        return official_metrics(kind, glue_task)
    except BertStudioError:  # a run of a kind this version does not know
        return ()


def _table(name: str, headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers), objectName=name)
    table.setTabKeyNavigation(False)
    table.setHorizontalHeaderLabels(headers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    return table


def _number(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


UNDEFINED = "—"  # a score with nothing to score: no gold and no prediction of the class
NAMES_IN_TIP = 20  # classes an average's tooltip names before "and 60 more"
PER_CLASS_KEPT = 3  # per-class rows kept in view when the column is too short for them all
SMALL_EVAL = 100  # evaluation sets smaller than this get a note on how little the score rests on


def _last_scores(last: dict[str, float], official: tuple[str, ...], kept: dict[str, float]) -> str:
    """The last evaluation's scores as the best-step note says them (metrics.display.last_score_keys
    picks them), a key with controls shown escaped."""
    keys, more = last_score_keys(last, official, kept)
    said = ", ".join(f"{fact_text(metric_name(k), quoted=False)} {format_metric(k, last[k])}" for k in keys)
    return said + (", …" if more and said else "")


class MetricsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.metrics_table = _table("metricsTable", [self.tr("Metric"), self.tr("Score (x100)")])
        self.size_note = QLabel(objectName="evalSizeNote", wordWrap=True)  # a score that rests on few examples
        self.size_note.setVisible(False)
        self.best_note = QLabel(objectName="bestStepNote", wordWrap=True)  # scores of an earlier evaluation than the last
        self.best_note.setVisible(False)
        for note in (self.size_note, self.best_note):  # they name a label or metrics.json's keys: never markup
            note.setTextFormat(Qt.TextFormat.PlainText)
        self.per_class_title = QLabel(objectName="perClassTitle")
        # classes with no gold and no prediction in the split: their "—" rows, said in a line
        self.unscored_note = QLabel(objectName="unscoredClassesNote", wordWrap=True)
        self.unscored_note.setVisible(False)
        self.per_class_table = _table("perClassTable", [self.tr("Class"), self.tr("Precision"), self.tr("Recall"),
                                                        self.tr("F1"), self.tr("Support")])
        header = self.per_class_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # numbers and titles read in full
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.per_class_table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # "class_…039", not "class_…"
        # wrapped, a long name was cut at its end whatever the elide mode (the style elides the last line
        # that fits from its start), so names sharing a start read alike: one line, elided in the middle
        self.per_class_table.setWordWrap(False)
        for table in (self.metrics_table, self.per_class_table):  # as tall as their rows, no taller
            table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
            table.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        # the official scores never scroll (a QA run showed "exact match" and hid F1 behind a scroll bar
        # to make room for the notes): a few rows, so the per-class table is the one that gives way
        self.metrics_table.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.per_class_table.setToolTip(self.tr("scikit-learn's classification report, x100; support counts gold "
                                                "examples, tokens or entities"))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.metrics_table)
        lay.addWidget(self.best_note)
        lay.addWidget(self.size_note)
        lay.addWidget(self.per_class_title)
        lay.addWidget(self.unscored_note)
        lay.addWidget(self.per_class_table)
        lay.addStretch(1)  # room left over goes below the tables (it went to the title, which then floated)
        self.show_report(None)

    def heights_for_width(self, width: int) -> tuple[int, int]:
        """The panel's height at ``width`` with every row of both tables and every note in full, and
        the least that still shows the scores and notes in full (the per-class table then scrolls,
        keeping PER_CLASS_KEPT rows). The notes wrap, so their height depends on the column's width:
        the layout's plain size hint guessed a wider column and cut the notes and tables of a
        narrow one."""
        whole = self.heightForWidth(width)
        if whole < 0:
            whole = self.sizeHint().height()
        table = self.per_class_table
        if table.isHidden() or table.rowCount() <= PER_CLASS_KEPT:
            return whole, whole
        kept = sum(table.rowHeight(i) for i in range(PER_CLASS_KEPT))
        rows = sum(table.rowHeight(i) for i in range(table.rowCount()))
        return whole, whole - max(0, rows - kept)

    def per_class_width(self) -> int:
        """The width at which the per-class table reads in full without scrolling sideways: its numbers,
        and its class column as wide as its longest name (at least about ten characters; the caller
        caps the whole at its share of the page, and longer names are elided in the middle); 0 when
        it is hidden or empty."""
        table = self.per_class_table
        if table.isHidden() or not table.rowCount():
            return 0
        header = table.horizontalHeader()
        numbers = sum(max(header.sectionSizeHint(c), table.sizeHintForColumn(c)) for c in range(1, table.columnCount()))
        names = max(table.fontMetrics().horizontalAdvance("x" * 10), table.sizeHintForColumn(0))
        return numbers + names + 2 * table.frameWidth()

    def show_metrics(self, metrics: dict[str, float], official: tuple[str, ...], examples: int | None = None,
                     unit: str = "examples", best_step: int | None = None, steps: int = 0,
                     undefined: str | None = None, status: str = "finished", last_metrics: dict[str, float] | None = None,
                     one_answer: OneAnswer | None = None) -> None:
        """``examples``: how many evaluation examples the scores rest on, counted in ``unit``
        ("examples", or for tagging what its scores count: "entities" or "tokens"); below
        SMALL_EVAL the panel says how far one moves them (a 20-label project holds out 2 rows).
        ``best_step``: the scores (and the saved model) are the best evaluation's, from that step
        of the run's ``steps``, not the last step's (the CLI says the same when the run ends).
        ``undefined``: why the correlations are undefined (metrics.regression.undefined_correlation),
        said in place of an interval around their 0. ``status``: how the run ended ("cancelled":
        ``steps`` is where it was stopped, and the note says so). ``last_metrics``: with ``best_step``,
        the last evaluation's metrics, said beside the kept ones (which were selected on this
        evaluation set). ``one_answer``: the class the model answers for (almost) every row."""
        self._show_size_note(metrics, examples, unit, undefined, one_answer)
        self.best_note.setVisible(bool(metrics) and best_step is not None)
        if best_step is not None and status == "cancelled":  # "of 145" read as the run's length: 600 steps
            self.best_note.setText(self.tr("From the best evaluation, at step {b}: the run was cancelled at step {n} "
                                           "and kept those weights, as no later evaluation scored higher.").format(
                b=f"{best_step:,}", n=f"{steps:,}"))
        elif best_step is not None:
            self.best_note.setText(self.tr("From the best evaluation, at step {b} of {n}: the run kept those weights, "
                                           "as no later evaluation scored higher.").format(b=f"{best_step:,}", n=f"{steps:,}"))
        scores = _last_scores(last_metrics or {}, official, metrics) if best_step is not None else ""
        if scores:  # the best of several looks at one set reads higher than it is
            self.best_note.setText(self.best_note.text() + " " + self.tr(
                "These scores were selected on this evaluation set; the last evaluation scored {scores}.").format(
                scores=scores))
        keys = [k for k in official if k in metrics] + [k for k in metrics if k not in official]
        table = self.metrics_table
        # x100 in the header only when every row is a score: an mse row is shown as it is
        mixed = not all(is_score(k) for k in keys)
        table.horizontalHeaderItem(1).setText(self.tr("Value") if mixed else self.tr("Score (x100)"))
        table.setRowCount(len(keys))
        for i, k in enumerate(keys):
            label = metric_name(k) + (" *" if k in official else "")  # the key itself read "mcc" in Chinese
            name = QTableWidgetItem(self.tr("%1 (x100)").replace("%1", label) if mixed and is_score(k) else label)
            name.setToolTip(self.tr("official metric of this task") if k in official else "")
            name.setData(Qt.ItemDataRole.UserRole, k)  # the key, as files and the CLI spell it
            table.setItem(i, 0, name)
            table.setItem(i, 1, _number(format_metric(k, metrics[k])))

    def _show_size_note(self, metrics: dict[str, float], examples: int | None, unit: str,
                        undefined: str | None = None, one_answer: OneAnswer | None = None) -> None:
        self._show_small_note(metrics, examples, unit, undefined)
        if metrics and one_answer is not None:  # before what the size says: a constant model is the first thing to know
            said = self.tr("The model answers “{label}” for {n} of {rows} evaluation rows (the gold: {share}%).").format(
                label=one_answer.label, n=f"{one_answer.count:,}", rows=f"{one_answer.rows:,}",
                share=f"{100 * one_answer.gold_share:.0f}")
            self.size_note.setText(said + (" " + self.size_note.text() if not self.size_note.isHidden() else ""))
            self.size_note.setVisible(True)

    def _show_small_note(self, metrics: dict[str, float], examples: int | None, unit: str,
                         undefined: str | None = None) -> None:
        said = {"one_prediction": self.tr("The model predicts one value for every example: correlations are undefined "
                                          "(shown as 0)."),
                "one_gold": self.tr("Every example has the same gold score: correlations are undefined (shown as 0).")}
        if metrics and undefined in said:  # whatever the size: a 0 that is no measured correlation has no interval
            self.size_note.setText(said[undefined])
            self.size_note.setVisible(True)
            return
        if not metrics or examples is None or not 0 < examples < SMALL_EVAL:
            self.size_note.setVisible(False)
            return
        if unit == "entities":
            text = self.tr("Scored on only {n} gold entities: one entity more or less found moves a score by about "
                           "{p:.1f} points, so small differences between runs are noise.").format(
                n=examples, p=100 / examples)
        elif unit == "tokens":
            text = self.tr("Scored on only {n} words: one word more or less right moves a score by about {p:.1f} "
                           "points, so small differences between runs are noise.").format(n=examples, p=100 / examples)
        elif isinstance(metrics.get("pearson"), (int, float)) and not isinstance(metrics.get("pearson"), bool):
            # scores (STS-B): no example is "right"; a correlation's uncertainty is Fisher's z interval
            text = self._correlation_note(float(metrics["pearson"]), examples)
        elif examples == 1:
            text = self.tr("Scored on one example only: the score can only be all or nothing, and says little.")
        else:
            step = 100 / examples  # "about 1 points" for 80 examples: a decimal below 10, "5" not "5.0"
            text = self.tr("Scored on only {n} examples: one example more or less right moves a score by about {p} "
                           "points, so small differences between runs are noise.").format(
                n=examples, p=f"{step:.0f}" if step >= 10 else f"{step:.1f}".removesuffix(".0"))
        accuracy = metrics.get("accuracy")
        if unit == "examples" and isinstance(accuracy, (int, float)) and 0 <= accuracy <= 1:
            from bertstudio.assist.audit import wilson_interval

            low, high = wilson_interval(round(accuracy * examples), examples)
            # whole points, a decimal where one is needed: 98 of 99 right tops out at 99.8, not "100"
            text += " " + self.tr("Accuracy's 95% interval: {a} to {b}.").format(
                a=format_metric("accuracy", low, digits=0), b=format_metric("accuracy", high, digits=0))
        self.size_note.setText(text)
        self.size_note.setVisible(True)

    def _correlation_note(self, pearson: float, examples: int) -> str:
        import math

        if examples <= 3 or not -1 < pearson < 1:
            return self.tr("Scored on only {n} examples: too few for a correlation to say anything.").format(n=examples)
        half = 1.96 / math.sqrt(examples - 3)
        low, high = math.tanh(math.atanh(pearson) - half), math.tanh(math.atanh(pearson) + half)
        return self.tr("Scored on only {n} examples: a correlation from so few is uncertain (Pearson's 95% interval: "
                       "{a} to {b}), so small differences between runs are noise.").format(
            n=examples, a=format_metric("pearson", low, digits=0), b=format_metric("pearson", high, digits=0))

    def show_report(self, report: PerClassReport | None) -> None:
        """One row per class, then the averages; hidden when the run has none (regression, QA).
        A class with no gold and no prediction in the split reads "—" (undefined), not 0.0 like a
        class the model fails on; the averages leave it out (scikit-learn's convention, as the
        run's macro_f1), and their tooltips say which classes they average."""
        self.per_class_title.setVisible(report is not None)
        self.per_class_table.setVisible(report is not None)
        self.unscored_note.setVisible(False)
        if report is None:
            self.per_class_table.setRowCount(0)
            self.per_class_table.setMinimumHeight(0)
            return
        units = {"examples": (self.tr("Per class (support: examples)"), self.tr("Class")),
                 "tokens": (self.tr("Per tag (support: tokens)"), self.tr("Tag")),
                 "entities": (self.tr("Per entity type (support: entities)"), self.tr("Entity type"))}
        title, column = units.get(report.unit, ("", self.tr("Class")))
        self.per_class_title.setText(title)
        self.per_class_table.horizontalHeaderItem(0).setText(column)
        unscored = [c.name for c in report.classes if not c.scored]
        scored = [c.name for c in report.classes if c.scored]
        if unscored:
            self.unscored_note.setText(self.tr("%n class(es) have no rows in this split and were never predicted: "
                                               "listed last as —, left out of the averages.", "", len(unscored)))
            self.unscored_note.setVisible(True)
        undefined_tip = self.tr("No gold rows and no predictions of this class in this split: precision, recall "
                                "and F1 are undefined, and the averages leave it out.")
        averages = {"macro avg": self.tr("macro avg"), "weighted avg": self.tr("weighted avg")}
        tips = self._average_tips(scored, len(unscored))
        # the classes scored first (label-set order), those with nothing to score after them: 12 of 80 were
        # scattered among 68 rows of "0.0"
        classes = sorted(report.classes, key=lambda c: not c.scored)
        rows = [(c, c.name) for c in classes] + [(a, averages.get(a.name, a.name)) for a in report.averages]
        table = self.per_class_table
        table.setRowCount(len(rows))
        # squeezed, it kept a sliver of one row (at 18 pt): PER_CLASS_KEPT rows at least, the panel scrolls first
        kept = sum(table.rowHeight(i) for i in range(min(len(rows), PER_CLASS_KEPT)))
        table.setMinimumHeight(table.horizontalHeader().sizeHint().height() + kept + 2 * table.frameWidth())
        muted = table.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        for i, (scores, title) in enumerate(rows):
            name = QTableWidgetItem(title)  # a class name is the user's label: not translated
            name.setToolTip(title)  # elided in a narrow column (at a 16-pt font: "n…")
            average = i >= len(report.classes)
            if average:
                font = name.font()
                font.setItalic(True)
                name.setFont(font)
                name.setToolTip(f"{title}\n{tips[scores.name]}" if scores.name in tips else title)  # name, then what
            table.setItem(i, 0, name)
            for j, (key, value) in enumerate((("precision", scores.precision), ("recall", scores.recall),
                                              ("f1", scores.f1)), start=1):
                table.setItem(i, j, _number(format_metric(key, value) if scores.scored else UNDEFINED))
            table.setItem(i, 4, _number(f"{scores.support:,}"))
            if not scores.scored:
                for j in range(5):
                    table.item(i, j).setForeground(muted)
                    if j:
                        table.item(i, j).setToolTip(undefined_tip)
            elif average:
                for j in range(1, 5):
                    table.item(i, j).setToolTip(name.toolTip())

    def _average_tips(self, scored: list[str], unscored: int) -> dict[str, str]:
        """What each average is over: the classes with gold rows or predictions in the split."""
        shown = ", ".join(f"\u2068{n}\u2069" for n in scored[:NAMES_IN_TIP])
        if len(scored) > NAMES_IN_TIP:
            shown += " " + self.tr("and {n} more").format(n=len(scored) - NAMES_IN_TIP)
        if unscored:
            over = self.tr("over the {n} classes with gold rows or predictions in this split ({names}); the {m} "
                           "shown as — are left out").format(n=len(scored), names=shown, m=unscored)
        else:
            over = self.tr("over all {n} classes above").format(n=len(scored))
        return {"macro avg": self.tr("Unweighted mean {over}.").format(over=over),
                "weighted avg": self.tr("Mean weighted by support {over}.").format(over=over)}
