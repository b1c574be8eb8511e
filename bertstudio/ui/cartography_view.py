"""The data map of a fine-tuning run (dataset cartography, Swayamdipta et al., 2020).

One point per training example: x = variability (standard deviation over epochs of the
model's probability of the gold label), y = confidence (its mean), coloured by correctness
(the fraction of epochs the example was predicted right). Easy examples sit at the top,
ambiguous ones to the right, and the hard-to-learn corner (bottom left: the model was
steadily sure of another label) is where mislabelled examples gather. A click on a point
shows its example and emits ``example_clicked(index)`` (the row of the run's training set).

The numbers are :func:`bertstudio.train.cartography.read_cartography`'s; the run must
have been trained with ``cartography = true`` (``--cartography`` on the command line).
Opened from Tools > Data map of the shown run (the Results page's run).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bertstudio.metrics.display import format_fraction, format_percent
from bertstudio.train.cartography import Cartography, read_cartography
from bertstudio.ui.plots import follow_palette

# correctness 0 ... 1 from red through orange to blue (colour-blind safe ends, Okabe-Ito)
_WRONG, _MIDDLE, _RIGHT = np.array([213, 94, 0]), np.array([230, 159, 0]), np.array([0, 114, 178])


def correctness_colour(c: float) -> tuple[int, int, int, int]:
    c = float(np.clip(c, 0.0, 1.0))
    rgb = _WRONG + (_MIDDLE - _WRONG) * (c / 0.5) if c <= 0.5 else _MIDDLE + (_RIGHT - _MIDDLE) * ((c - 0.5) / 0.5)
    return int(rgb[0]), int(rgb[1]), int(rgb[2]), 190


class CartographyView(QWidget):
    example_clicked = Signal(int)  # index into the run's training set

    def __init__(self, carto: Cartography, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cartographyView")
        self.setWindowTitle(self.tr("Data map") + (f" – {title}" if title else ""))
        self.carto = carto
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("cartographyPlot")
        self.plot.setLabel("bottom", self.tr("variability (std of the gold label's probability over epochs)"))
        self.plot.setLabel("left", self.tr("confidence (mean probability of the gold label)"))
        follow_palette(self.plot)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMouseEnabled(x=False, y=False)  # a click is for the points
        self.plot.hideButtons()
        self.points = pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), hoverable=True, hoverBrush=pg.mkBrush(0, 0, 0),
                                         tip=self._tip)
        self.plot.addItem(self.points)
        self.points.sigClicked.connect(self._on_clicked)
        self.summary = QLabel()
        self.summary.setObjectName("cartographySummary")
        self.summary.setWordWrap(True)
        self.detail = QLabel(self.tr("Click a point to see its example."))
        self.detail.setObjectName("cartographyDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.detail)
        self._draw()

    def _draw(self) -> None:
        c = self.carto
        ok = np.isfinite(c.confidence) & np.isfinite(c.variability)
        index = np.flatnonzero(ok)
        brushes = [pg.mkBrush(*correctness_colour(c.correctness[i])) for i in index]
        self.points.setData(x=c.variability[index], y=c.confidence[index], data=index.tolist(), brush=brushes)
        self.plot.setXRange(0.0, max(0.5, float(c.variability[index].max()) if len(index) else 0.5), padding=0.02)
        self.plot.setYRange(0.0, 1.0, padding=0.02)
        hard = int(np.sum((c.confidence[index] < 0.25) & (c.variability[index] < 0.15)))
        self.summary.setText(
            self.tr("%1 training examples over %2 epochs. Colour: how often the model was right (red never, blue "
                    "always). The bottom-left corner (%3 examples) is hard to learn: check these labels first.")
            .replace("%1", str(len(index))).replace("%2", str(c.epochs)).replace("%3", str(hard)))

    def _tip(self, x: float, y: float, data: Any) -> str:
        return self.tr("confidence {c}, variability {v:.2f}").format(c=format_fraction(y), v=x)

    def widget_pos(self, index: int) -> QPointF:
        """Where example ``index`` is drawn, in the plot widget's coordinates (tests, tooltips)."""
        vb = self.plot.plotItem.vb
        scene = vb.mapViewToScene(QPointF(float(self.carto.variability[index]), float(self.carto.confidence[index])))
        return QPointF(self.plot.mapFromScene(scene))

    def show_example(self, index: int) -> None:
        c = self.carto
        self.detail.setText(
            "<p>" + html.escape(c.text[index]) + "</p><p>"
            + self.tr("Gold: <b>%1</b>. Confidence %2, variability %3, right in %4% of epochs.")
            .replace("%1", html.escape(str(c.gold[index]))).replace("%2", format_fraction(c.confidence[index]))
            .replace("%3", f"{c.variability[index]:.2f}").replace("%4", format_percent(c.correctness[index])) + "</p>")

    def _on_clicked(self, _item: object, points: Sequence[Any], _event: object) -> None:
        if len(points):
            index = int(points[0].data())
            self.show_example(index)
            self.example_clicked.emit(index)


def open_cartography(run_dir: str | Path, parent: QWidget | None = None,
                     problems: list | None = None) -> CartographyView | None:
    """The run's data map in its own window; None when the run recorded none, or its file cannot
    be read (the reason then in ``problems``)."""
    carto = read_cartography(run_dir, problems)
    if carto is None:
        return None
    view = CartographyView(carto, Path(run_dir).name, parent)
    view.setWindowFlag(Qt.WindowType.Window, True)
    view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    view.resize(820, 640)
    view.show()
    return view
