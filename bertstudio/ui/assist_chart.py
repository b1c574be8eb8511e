"""The honest-accuracy chart of the Label page: audit accuracy against labels so far.

Two curves over the number of training labels (x; the audit labels are not counted, and the axis
says so):

- *this loop*: the shown model's accuracy on the audit set after each change
  (``assistant.history()``), with its 95% Wilson interval as a shaded band, from as many audit
  labels as the title says an accuracy for (:func:`too_few_for_an_accuracy`);
- *random order (estimate)*: what labelling in random order would have reached with k
  labels, estimated from the audit set alone (``assistant.random_order_estimate()``).

The audit rows are random draws kept out of training (see bertstudio/assist/audit.py),
so both are estimates of accuracy on the whole pool, not on the hard items the loop
picked. The title repeats the status bar's line. Redraws are cheap (tens of points) and
coalesced to one per ``REDRAW_MS`` while events stream in.
"""

from __future__ import annotations

from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bertstudio.metrics.display import format_share
from bertstudio.ui import theme
from bertstudio.ui.assist_controller import AssistController
from bertstudio.ui.plots import follow_palette

LOOP_COLOUR = "#0072B2"
RANDOM_COLOUR = "#999999"
# fewer audit labels than this: no accuracy is said ("Audit accuracy 0% (0%-79%)" after one label read
# as a broken model to a newcomer, who reads the figure before its interval)
MIN_AUDIT_LABELS = 5


def too_few_for_an_accuracy(n: int, words: int = 0) -> bool:
    """Fewer audit labels than :data:`MIN_AUDIT_LABELS` say no accuracy, in the title and the status bar
    as on the chart (tagging, ``words`` > 0: each sentence checks many words, so any number will do).
    The chart drew 0% and then 100% for 18 labels from one audit label, under a title saying "too few"."""
    return not words and n < MIN_AUDIT_LABELS


def audit_line(controller: AssistController) -> str:
    """``Audit accuracy 81% (68-90%), 42 audit labels`` or why there is none yet (translated)."""
    from PySide6.QtCore import QCoreApplication

    def tr(text: str) -> str:
        return QCoreApplication.translate("", text)  # where lupdate files tr("...") calls (no context)

    stats = controller.audit()
    if stats is None:  # no assistant object: still importing and reading (on) or turned off
        return tr("Labelling assistant starting…") if controller.is_on() else tr("Labelling assistant off")
    if stats.n == 0:
        if not controller.model_in_loop():  # no model to check: no audit draws either
            return tr("No audit: the labelling assistant has no model for this kind of project")
        if controller.counts().get("audit"):  # audit labels, no model to check (a label set change dropped it)
            return tr("Audit: no model yet")
        return tr("No audit labels yet: every 10th example is a random check")
    one = stats.n == 1  # "1 audit labels" read wrong
    if stats.accuracy is None:  # regression: no accuracy, only the count
        return tr("1 audit label") if one else tr("%1 audit labels").replace("%1", str(stats.n))
    if too_few_for_an_accuracy(stats.n, stats.words):
        return (tr("1 audit label so far: too few for an accuracy") if one
                else tr("%1 audit labels so far: too few for an accuracy").replace("%1", str(stats.n)))
    if stats.words:  # tagging: the words of the audit sentences, which are the checks
        line = (tr("Audit accuracy %1 (%2-%3) on %5 words, 1 audit sentence") if one
                else tr("Audit accuracy %1 (%2-%3) on %5 words, %4 audit sentences"))
    else:
        line = tr("Audit accuracy %1 (%2-%3), 1 audit label") if one else tr("Audit accuracy %1 (%2-%3), %4 audit labels")
    shown = format_share  # 249 of 250 right is not "100%"
    return (line.replace("%1", shown(stats.accuracy)).replace("%2", shown(stats.low)).replace("%3", shown(stats.high))
            .replace("%4", str(stats.n)).replace("%5", str(stats.words)))


class AuditChart(QWidget):
    REDRAW_MS = 300

    def __init__(self, controller: AssistController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("auditChart")
        self.controller = controller
        self.title = QLabel(objectName="auditChartTitle")
        self.title.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("auditPlot")
        self.plot.setLabel("left", self.tr("audit accuracy (%)"))
        # x counts the training labels (the page's "N labelled" counts the audit ones too: the axis
        # ended at 77 beside "85 labelled (8 for the audit)")
        self.plot.setLabel("bottom", self.tr("training labels (audit labels not counted)"))
        follow_palette(self.plot)
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)  # counts of labels, never "(x0.001)"
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setYRange(0, 100, padding=0.02)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setMinimumHeight(160)
        # the key under the plot, a line that wraps: pyqtgraph's legend sits inside the plot and was cut
        # off on the left in the Label page's narrow side panel
        self.key = QLabel(objectName="auditChartKey", wordWrap=True)
        self.key.setStyleSheet("font-size: 8pt;")
        def entry(colour: str, mark: str, name: str) -> str:  # one entry never breaks; the line breaks between them
            return f'<span style="color:{colour}">{mark}</span>&nbsp;' + escape(name).replace(" ", "&nbsp;")

        self.key.setText(entry(LOOP_COLOUR, "━━", self.tr("this loop")) + " &nbsp; "
                         + entry(RANDOM_COLOUR, "╍●╍", self.tr("random order (estimate)")))
        self.loop_curve = self.plot.plot(pen=pg.mkPen(LOOP_COLOUR, width=2))
        self.random_curve = self.plot.plot(symbol="o", symbolSize=6,
                                           symbolBrush=RANDOM_COLOUR, symbolPen=None,
                                           pen=pg.mkPen(RANDOM_COLOUR, width=2, style=pg.QtCore.Qt.PenStyle.DashLine))
        self.low_curve = pg.PlotCurveItem(pen=pg.mkPen(0, 0, 0, 0))  # invisible edges of the band
        self.high_curve = pg.PlotCurveItem(pen=pg.mkPen(0, 0, 0, 0))
        band = pg.mkColor(LOOP_COLOUR)
        band.setAlpha(45)
        self.band = pg.FillBetweenItem(self.low_curve, self.high_curve, brush=pg.mkBrush(band))  # the 95% interval
        self.plot.addItem(self.band)
        self.caption = QLabel(objectName="auditChartCaption")  # why the random-order curve stops where it does
        self.caption.setWordWrap(True)
        theme.set_tone(self.caption, "muted", "font-size: 8pt;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.key)
        layout.addWidget(self.caption)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.REDRAW_MS)
        self._timer.timeout.connect(self.redraw)
        controller.status_changed.connect(self._timer.start)
        self.redraw()

    def points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(labels, accuracy %, low %, high %) of the loop, one point per number of labels (the latest);
        none from fewer audit labels than the title gives an accuracy for."""
        latest: dict[int, dict] = {}
        for entry in self.controller.history():
            n = int(entry.get("audit_n") or 0)
            if entry.get("accuracy") is not None and n and not too_few_for_an_accuracy(n, entry.get("words") or 0):
                latest[int(entry.get("labels") or 0)] = entry
        xs = np.array(sorted(latest), dtype=float)
        acc = np.array([100 * latest[int(x)]["accuracy"] for x in xs], dtype=float)
        low = np.array([100 * (latest[int(x)].get("low") or 0) for x in xs], dtype=float)
        high = np.array([100 * (latest[int(x)].get("high") or 0) for x in xs], dtype=float)
        return xs, acc, low, high

    def redraw(self) -> None:
        self.title.setText(audit_line(self.controller))
        xs, acc, low, high = self.points()
        self.loop_curve.setData(xs, acc)
        self.low_curve.setData(xs, low)
        self.high_curve.setData(xs, high)
        estimate = self.controller.random_order_estimate()
        if estimate:
            self.random_curve.setData([float(k) for k, _ in estimate], [100 * float(a) for _, a in estimate])
        else:
            self.random_curve.setData([], [])
        # x from 0 to the last point (at least 10 labels): an empty chart shows where points will come,
        # not pyqtgraph's default range around zero
        right = max([10.0, *xs.tolist(), *(float(k) for k, _ in estimate or ())])
        self.plot.setXRange(0, right, padding=0.02)
        self.caption.setText(self.caption_text(estimate, xs))

    def caption_text(self, estimate: list, xs: np.ndarray) -> str:
        """Why the random-order curve ends before the loop's: it is trained on audit labels only."""
        stats = self.controller.audit()
        if stats is None or stats.n == 0:
            return ""
        if not estimate:
            return self.tr("Random order is estimated from the audit labels alone; its curve starts once "
                           "there are enough of them.")
        last = int(estimate[-1][0])
        if len(xs) and last >= int(xs[-1]):
            return ""
        return (self.tr("Random order is estimated from the %1 audit labels alone, so it reaches %2 labels "
                        "now and grows as audit labels come in.").replace("%1", str(stats.n)).replace("%2", str(last)))
