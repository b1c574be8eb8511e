"""Live training curves: loss (raw + smoothed), learning rate, eval metrics.

Each curve appends into preallocated numpy buffers (doubled when full) and
calls ``setData`` once per batch of points, so a long run costs one redraw per
GUI update, never one graphics item per point. The curves take the engine's
event objects (:mod:`bertstudio.train.events`), from the training worker or a
run follower alike; :mod:`bertstudio.ui.training_monitor` puts them together.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QGraphicsItem, QWidget

from bertstudio.metrics.display import is_score
from bertstudio.train.events import Evaluated, StepLogged
from bertstudio.ui import theme


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")


def paint_plot(plot: pg.PlotWidget, palette: QPalette, title: str | None = None) -> None:
    """Background, axes (ticks and labels), title and legend in the palette's base and text colours."""
    base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    plot.setBackground(base)
    item = plot.getPlotItem()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(text))
        axis.setTextPen(pg.mkPen(text))
    if title is None and item.titleLabel.isVisible():
        title = item.titleLabel.text
    if title:
        plot.setTitle(title, color=text.name())
    if item.legend is not None:
        item.legend.setLabelTextColor(text)


def follow_palette(plot: pg.PlotWidget) -> None:
    """Paint ``plot`` (:func:`paint_plot`) now and after every palette change. Call it once its title and
    legend are set: a fixed white background put pyqtgraph's grey axes at 3:1, and a white plot in a dark window."""
    theme.follow(plot, lambda: paint_plot(plot, theme.current_palette()))


class SeriesBuffer:
    """x/y values in growable numpy arrays; ``view()`` gives the filled part, ``y_bounds``
    the smallest and largest finite y so far (None before the first)."""

    def __init__(self, capacity: int = 1024) -> None:
        self._x = np.empty(capacity, dtype=np.float64)
        self._y = np.empty(capacity, dtype=np.float64)
        self._n = 0
        self.y_bounds: tuple[float, float] | None = None

    def __len__(self) -> int:
        return self._n

    def append(self, x: float, y: float) -> None:
        if self._n == len(self._x):
            # Amortised O(1): double instead of growing by one.
            self._x = np.resize(self._x, 2 * len(self._x))
            self._y = np.resize(self._y, 2 * len(self._y))
        self._x[self._n] = x
        self._y[self._n] = y
        self._n += 1
        if np.isfinite(y):
            lo, hi = self.y_bounds or (y, y)
            self.y_bounds = (min(lo, y), max(hi, y))

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        return self._x[: self._n], self._y[: self._n]

    def clear(self) -> None:
        self._n = 0
        self.y_bounds = None

    def cut(self, keep: np.ndarray) -> None:
        """Keep only the points where ``keep`` (a mask over ``view()``) is true."""
        x, y = self._x[: self._n][keep].copy(), self._y[: self._n][keep].copy()
        self.clear()
        for a, b in zip(x, y):
            self.append(float(a), float(b))


class EmaSmoother:
    """Exponential moving average with start-up bias correction (as TensorBoard smooths),
    so the first points are not dragged towards zero."""

    def __init__(self, weight: float = 0.9) -> None:
        self.weight = weight
        self._value = 0.0
        self._count = 0

    def reset(self) -> None:
        self._value, self._count = 0.0, 0

    def update(self, x: float) -> float:
        self._count += 1
        self._value = self.weight * self._value + (1.0 - self.weight) * x
        return self._value / (1.0 - self.weight**self._count)


class _GridAxis(pg.AxisItem):
    """pyqtgraph's axis with its bounding rectangle kept between layout changes.

    With grid lines on, an axis' bounding rectangle spans the whole plot, which pyqtgraph
    maps between item coordinates in Python on every call: ~0.25 ms, and Qt asks ~10 times
    per repaint (a quarter of the GUI thread's time while a run trains). It only changes
    when the axis or its view moves or resizes, or the grid or tick style changes."""

    def __init__(self, orientation: str) -> None:
        self._rect_key: tuple | None = None
        self._rect = None
        super().__init__(orientation)

    def boundingRect(self):  # noqa: N802 - Qt override
        view = self.linkedView()
        g = self.geometry()
        v = view.geometry() if view is not None else None
        key = (g.x(), g.y(), g.width(), g.height(), None if v is None else (v.x(), v.y(), v.width(), v.height()),
               self.grid, self.style["tickLength"], self.style["hideOverlappingLabels"])
        if key != self._rect_key:
            self._rect, self._rect_key = super().boundingRect(), key
        return self._rect


class SeriesPlot(pg.PlotWidget):
    """A plot of named series, each a buffer plus one PlotDataItem."""

    STEP_MARGIN = 0.03  # share of the run's steps left free on each side of the x axis

    def __init__(self, title: str, y_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent, axisItems={"left": _GridAxis("left"), "bottom": _GridAxis("bottom")})
        self._title = title
        self.setTitle(title)
        self.setLabel("left", y_label)
        self.setLabel("bottom", QCoreApplication.translate("plots", "step"))
        self.showGrid(x=True, y=True, alpha=0.3)
        # Plain numbers on the axis: "loss (x0.001)" over 690 reads worse than 0.69.
        self.getAxis("left").enableAutoSIPrefix(False)
        # Axes (ticks, labels, grid) repaint from a cached pixmap until their range changes:
        # replaying their QPicture cost ~2 ms per axis per redraw, most of a redraw's time.
        for name in ("left", "bottom"):
            self.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # A long run has 10^5 points: draw them decimated to the pixel width. No clip-to-view: with
        # auto-range it bounds the range by the clipped data, so the x axis trailed the newest steps
        # (grew one point per repaint) and a finished run could show only its first steps.
        self.setDownsampling(auto=True, mode="peak")
        # The key of several curves is one line under the plot: pyqtgraph's legend sits inside the
        # plot and covered the curves (an evaluation's points at 100 in its top right corner).
        self._key = pg.LabelItem(justify="center", size="8pt")
        self._key_shown = False
        self._series: dict[str, tuple[SeriesBuffer, pg.PlotDataItem]] = {}
        self._dots: set[str] = set()  # line curves drawn as a dot while they hold one point
        self._apply_palette()
        # Points land in the buffers at once; the curves redraw at most every REDRAW_MS and not
        # while the plot is hidden. Each redraw repaints axes and curves on the GUI thread (~4-8 ms
        # here), so redrawing per event cost the training thread ~15% of its speed.
        self._dirty: set[str] = set()
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(self.REDRAW_MS)
        self._redraw.timeout.connect(self.flush)
        # The y range follows the data with slack (see _fit_y) instead of pyqtgraph's auto-range,
        # which moves it at every redraw while a loss falls or a learning rate decays: each move
        # regenerates the axis' ticks and labels (~7 ms of the GUI thread, most of a redraw).
        self._fit = True  # off while the user's own zoom or pan holds; pyqtgraph's "A" button restores it
        self._y_range: tuple[float, float] | None = None
        self.enableAutoRange(axis="y", enable=False)
        view = self.getViewBox()
        view.sigRangeChangedManually.connect(self._on_manual_range)
        view.sigStateChanged.connect(self._on_view_state)

    REDRAW_MS = 500

    def _apply_palette(self) -> None:
        """Background, axes, title and legend in the palette's colours (a dark theme gets dark plots)."""
        paint_plot(self, self.palette(), self._title)
        self._show_key()

    def _show_key(self) -> None:
        """The curves' names in their colours, under the plot; none for a single curve (the title names it)."""
        if len(self._series) < 2:
            return
        if not self._key_shown:
            self.getPlotItem().layout.addItem(self._key, 4, 1)
            self._key_shown = True
        parts = [f"<span style='color:{item.opts['pen'].color().name()}'>&#9644;</span>&nbsp;{_html(name)}"
                 for name, (_buf, item) in self._series.items()]
        self._key.setText("&nbsp;&nbsp; ".join(parts), color=self.palette().color(QPalette.ColorRole.Text).name())

    def key_text(self) -> str:
        """The key under the plot, as plain text ("" when there is none)."""
        from PySide6.QtGui import QTextDocument

        if not self._key_shown:
            return ""
        doc = QTextDocument()
        doc.setHtml(self._key.text)
        return doc.toPlainText()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and "_key" in self.__dict__:  # not while being built
            self._apply_palette()

    def _curve(self, name: str, *, width: float = 2.0, alpha: int = 255, symbol: str | None = None) -> tuple[SeriesBuffer, pg.PlotDataItem]:
        if name not in self._series:
            color = pg.mkColor(_PALETTE[len(self._series) % len(_PALETTE)])
            color.setAlpha(alpha)
            item = self.plot(pen=pg.mkPen(color, width=width), symbol=symbol, symbolSize=6, symbolBrush=color)
            self._series[name] = (SeriesBuffer(), item)
            self._show_key()
        return self._series[name]

    def _append(self, name: str, points: Iterable[tuple[float, float]], **style: Any) -> None:
        buf, _item = self._curve(name, **style)
        for x, y in points:
            buf.append(x, y)
        self._mark_dirty(name)

    def _mark_dirty(self, name: str) -> None:
        """``name``'s curve takes its buffer at the next redraw (throttled)."""
        self._dirty.add(name)
        if not self._redraw.isActive():
            self._redraw.start()

    def flush(self) -> None:
        """Hand the buffered points to the curves now (a hidden plot waits until it is shown)."""
        if not self.isVisible():
            return
        if self._dirty:
            self._fit_y()
        for name in self._dirty:
            buf, item = self._series[name]
            xs, ys = buf.view()
            if item.opts["symbol"] is None and len(xs) == 1:  # a line of one point draws nothing: a dot
                item.setSymbol("o")
                self._dots.add(name)
            elif name in self._dots and len(xs) > 1:
                item.setSymbol(None)
                self._dots.discard(name)
            item.setData(xs, ys)
        self._dirty.clear()

    def _fit_y(self) -> None:
        """Move the y range only when the data leave it (a run's points only add up, so their
        span never shrinks); the new range is their span with 10% headroom on each side."""
        if not self._fit:
            return
        bounds = [buf.y_bounds for buf, _ in self._series.values() if buf.y_bounds is not None]
        if not bounds:
            return
        lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)
        now = self._y_range
        # Kept while the data fit and fill at least a quarter of it: a range set around one
        # point (a learning rate of 0 at the first warm-up step) is refitted once the data spread.
        if now is not None and now[0] <= lo and hi <= now[1] and (hi - lo) >= 0.25 * (now[1] - now[0]):
            return
        pad = 0.1 * (hi - lo) or 0.1 * abs(hi) or 1.0
        self._y_range = (lo - pad, hi + pad)
        self.setYRange(*self._y_range, padding=0)

    def _on_manual_range(self, *_: object) -> None:
        self._fit = False

    def _on_view_state(self, *_: object) -> None:
        if self.getViewBox().autoRangeEnabled()[1]:  # the "A" button: follow the data again, our way
            self.enableAutoRange(axis="y", enable=False)
            self._fit, self._y_range = True, None
            self._fit_y()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.flush()

    def set_step_range(self, total_steps: int) -> None:
        """A run of known length: the x axis spans it from the start, so it does not rescale
        (and repaint its ticks) at every redraw, and the curve's progress reads at a glance."""
        if total_steps > 0:
            # at least half a step of margin: a marker at the last step is drawn whole
            margin = max(self.STEP_MARGIN * total_steps, 0.5)
            self.setXRange(-margin, total_steps + margin, padding=0)
            self.enableAutoRange(axis="x", enable=False)

    def release_step_range(self) -> None:
        self.enableAutoRange(axis="x", enable=True)

    def series_names(self) -> list[str]:
        return list(self._series)

    def series_data(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The points of ``name`` (all of them, also those not drawn yet)."""
        x, y = self._series[name][0].view()
        return (np.asarray([]), np.asarray([])) if x is None else (x, y)

    def point_count(self, name: str | None = None) -> int:
        names = [name] if name else list(self._series)
        return sum(len(self._series[n][0]) for n in names if n in self._series)

    def cut_from(self, step: float) -> None:
        """Drop the points at ``step`` and after: a resumed run draws them again
        (TrainingMonitor.on_resumed)."""
        for name, (buf, _item) in self._series.items():
            xs, _ys = buf.view()
            keep = xs < step
            if not keep.all():
                buf.cut(keep)
                self._mark_dirty(name)

    def clear_series(self) -> None:
        for buf, item in self._series.values():
            buf.clear()
            item.setData([], [])
        self._dirty.clear()
        self._fit, self._y_range = True, None
        self.release_step_range()


class LossPlot(SeriesPlot):
    """Training loss per logged step: raw (faint) and EMA-smoothed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("plots", "Training loss"), QCoreApplication.translate("plots", "loss"), parent)
        self.setObjectName("lossPlot")
        self.raw_name, self.smooth_name = QCoreApplication.translate("plots", "loss"), QCoreApplication.translate("plots", "loss (smoothed)")
        self._ema = EmaSmoother(0.9)
        self._curve(self.raw_name, width=1.0, alpha=90)
        self._curve(self.smooth_name, width=2.5)

    def set_class_weighted(self, weighted: bool) -> None:
        """Say whether the loss drawn is class-weighted (TrainConfig.class_weight): each row's loss then
        counts by its class while the evaluation's loss does not, and the two are not comparable."""
        self._title = (QCoreApplication.translate("plots", "Training loss (class-weighted)") if weighted
                       else QCoreApplication.translate("plots", "Training loss"))
        self.setToolTip(QCoreApplication.translate(
            "plots", "Each training row's loss is weighted by its class (class weighting: balanced); the evaluation "
                     "loss is not weighted, so the two are not comparable.") if weighted else "")
        paint_plot(self, self.palette(), self._title)

    def add_steps(self, steps: Iterable[StepLogged]) -> None:
        raw, smooth = [], []
        for s in steps:
            if not np.isfinite(s.loss):
                continue
            raw.append((s.step, s.loss))
            smooth.append((s.step, self._ema.update(s.loss)))
        if raw:
            self._append(self.raw_name, raw)
            self._append(self.smooth_name, smooth)

    def reset(self) -> None:
        self.clear_series()
        self._ema.reset()

    def cut_from(self, step: float) -> None:
        super().cut_from(step)
        self._ema.reset()  # the smoother goes on from the last point kept
        for y in self._series[self.raw_name][0].view()[1]:
            self._ema.update(float(y))


class LrPlot(SeriesPlot):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("plots", "Learning rate"), QCoreApplication.translate("plots", "lr"), parent)
        self.setObjectName("lrPlot")
        self.name = QCoreApplication.translate("plots", "learning rate")
        self._curve(self.name)

    def add_steps(self, steps: Iterable[StepLogged]) -> None:
        pts = [(s.step, s.lr) for s in steps]
        if pts:
            self._append(self.name, pts)

    def reset(self) -> None:
        self.clear_series()


class MetricPlot(SeriesPlot):
    """One curve per eval metric, x100 as the papers report them."""

    STEP_MARGIN = 0.06  # its points carry 6 px markers, and the last one sits on the last step

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("plots", "Evaluation"), QCoreApplication.translate("plots", "score (x100)"), parent)
        self.setObjectName("metricPlot")

    def add_eval(self, event: Evaluated) -> None:
        for key, value in event.metrics.items():
            if is_score(key) and value is not None:  # losses and MSE are not percentages: scores only
                self._append(key, [(event.step, 100.0 * float(value))], symbol="o")

    def reset(self) -> None:
        self.clear_series()
