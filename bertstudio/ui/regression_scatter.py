"""Gold against predicted score for a regression run (STS-B), with the y = x line.

Each point is one evaluated example; points far from the line are the model's worst
misses. Clicking a point emits ``point_clicked(row)`` (the row of the predictions
model) so the Results page selects that example. Drawn with pyqtgraph: a few
thousand points stay fast, and clicks are found by ``ScatterPlotItem.pointsAt``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Signal
from PySide6.QtWidgets import QWidget

from bertstudio.ui.plots import follow_palette

POINT, LINE = (31, 119, 180, 160), (120, 120, 120)


class RegressionScatter(pg.PlotWidget):
    point_clicked = Signal(int)  # row of the predictions model

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self.setObjectName("regressionScatter")
        self.setTitle(self.tr("Predicted against gold"))
        self.setLabel("bottom", self.tr("gold score"))
        self.setLabel("left", self.tr("predicted score"))
        follow_palette(self)
        self.showGrid(x=True, y=True, alpha=0.25)
        self.setMouseEnabled(x=False, y=False)  # the points are what a click is for
        self.hideButtons()
        self.diagonal = self.plot([], [], pen=pg.mkPen(LINE, width=1, style=pg.QtCore.Qt.PenStyle.DashLine))
        self.points = pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(*POINT), hoverable=True,
                                         hoverBrush=pg.mkBrush(230, 81, 0), tip=self._tip)
        self.addItem(self.points)
        self.points.sigClicked.connect(self._on_clicked)
        self.setToolTip(self.tr("One point per example; the dashed line is predicted = gold. Click a point to "
                                "show its example."))

    def _tip(self, x: float, y: float, data: object) -> str:
        return self.tr("gold {g:.2f}, predicted {p:.2f}").format(g=x, p=y)

    def set_points(self, golds: Sequence[float], preds: Sequence[float], rows: Sequence[int]) -> None:
        """Draw ``(gold, predicted)`` per example; ``rows`` come back through ``point_clicked``."""
        x, y = np.asarray(golds, dtype=float), np.asarray(preds, dtype=float)
        self.points.setData(x=x, y=y, data=list(rows))
        if len(x):
            lo, hi = float(min(x.min(), y.min())), float(max(x.max(), y.max()))
            pad = 0.05 * (hi - lo or 1.0)
            lo, hi = lo - pad, hi + pad
            self.diagonal.setData([lo, hi], [lo, hi])
            self.setXRange(lo, hi, padding=0)
            self.setYRange(lo, hi, padding=0)
        else:
            self.diagonal.setData([], [])

    def widget_pos(self, gold: float, predicted: float) -> QPointF:
        """Where a data point sits in the widget (for tests and tooltips)."""
        scene = self.plotItem.vb.mapViewToScene(QPointF(gold, predicted))
        return QPointF(self.mapFromScene(scene))

    def _on_clicked(self, _item: object, points: Sequence[object], _event: object) -> None:
        if len(points):
            self.point_clicked.emit(int(points[0].data()))
