"""One run's live view: the curves (:mod:`bertstudio.ui.plots`), a progress bar and a log.

Fed with the engine's event objects, by the training worker on the Train page or by
a run follower on the Runs page; both call the same slots (``on_started``,
``on_steps``, ``on_evaluated``, ``on_ended``; ``on_phase`` for the stages between the
training steps, so the bar never sits at "idle" while a model loads or a run evaluates).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPlainTextEdit, QProgressBar, QSplitter, QVBoxLayout, QWidget

from bertstudio.metrics.display import format_metrics
from bertstudio.train.events import Evaluated, PhaseChanged, RunFinished, RunStarted, StepLogged
from bertstudio.ui.plots import LossPlot, LrPlot, MetricPlot, SeriesPlot


def format_eta(seconds: float) -> str:
    if not math.isfinite(seconds) or seconds < 0:
        return "?"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TrainingMonitor(QWidget):
    """Plots, progress bar and log for one run. ``names=False`` leaves the required object
    names to the training page's own monitor (a second one lives on the Runs page)."""

    phase_shown = Signal(str)  # the progress text of each phase as it is shown

    def __init__(self, parent: QWidget | None = None, *, names: bool = True) -> None:
        super().__init__(parent)
        self.loss_plot = LossPlot()
        self.lr_plot = LrPlot()
        self.metric_plot = MetricPlot()
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.log_view = QPlainTextEdit()
        self.log_view.setReadOnly(True)
        self.log_view.setMaximumBlockCount(5000)  # bounded: a long run must not grow memory
        self.log_view.setObjectName("trainingLog" if names else "followLog")
        if names:
            self.progress.setObjectName("trainingProgress")
        else:
            for w, n in ((self.loss_plot, "followLossPlot"), (self.lr_plot, "followLrPlot"), (self.metric_plot, "followMetricPlot")):
                w.setObjectName(n)
            self.progress.setObjectName("followProgress")
        plots = QWidget()
        grid = QGridLayout(plots)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.loss_plot, 0, 0)
        grid.addWidget(self.metric_plot, 0, 1)
        grid.addWidget(self.lr_plot, 1, 0, 1, 2)
        grid.setRowStretch(0, 3)
        grid.setRowStretch(1, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(plots)
        split.addWidget(self.log_view)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.progress)
        lay.addWidget(split, 1)
        self.last_step: StepLogged | None = None
        self.last_metrics: dict[str, float] = {}
        self._idle()

    def _idle(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("idle"))

    def reset(self) -> None:
        for plot in self.plots():
            plot.reset()
        self._idle()
        self.log_view.clear()
        self.last_step, self.last_metrics = None, {}

    def log(self, text: str) -> None:
        self.log_view.appendPlainText(text)

    def on_started(self, ev: RunStarted) -> None:
        for plot in self.plots():
            plot.reset()  # a job's next run (several seeds) draws its own curves
            plot.set_step_range(ev.total_steps)
        self.progress.setRange(0, max(ev.total_steps, 1))
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("training step %v / %m"))
        self.phase_shown.emit(self.progress.text())
        self.log(self.tr("Started: {n} training / {m} evaluation examples, {s} steps, batch {b}, {t:,} of {p:,} parameters "
                         "trainable, on {d} ({prec}).").format(
            n=ev.num_train_examples, m=ev.num_eval_examples, s=ev.total_steps, b=ev.effective_batch_size,
            t=ev.trainable_params, p=ev.total_params, d=ev.device, prec=ev.precision))

    def on_steps(self, steps: list[StepLogged]) -> None:
        if not steps:
            return
        self.loss_plot.add_steps(steps)
        self.lr_plot.add_steps(steps)
        last = self.last_step = steps[-1]
        # QProgressBar.setValue repaints at once (synchronously, ~1.5 ms on the GUI thread) when
        # its text changes, which "step %v" does every time; with updates off it only records the
        # value, and turning them back on schedules one ordinary repaint, merged with the others.
        self.progress.setUpdatesEnabled(False)
        if last.total_steps and self.progress.maximum() != last.total_steps:
            self.progress.setRange(0, last.total_steps)
        self.progress.setValue(last.step)
        self.progress.setFormat(self.tr("training step %v / %m  ·  ETA {eta}  ·  {rate:.1f} examples/s  ·  loss {loss:.4f}").format(
            rate=last.examples_per_s, eta=format_eta(last.eta_s), loss=last.loss))
        self.progress.setUpdatesEnabled(True)

    def on_phase(self, ev: PhaseChanged) -> None:
        """Show what the run is doing between training steps, with its own count where it has one."""
        texts = {"starting": self.tr("starting…"), "loading_model": self.tr("loading model…"),
                 "reusing_model": self.tr("reusing the model loaded earlier…"), "tokenising": self.tr("tokenising {n} examples…"),
                 "evaluating": self.tr("evaluating %v / %m batches…"), "saving": self.tr("saving…"),
                 "setfit": self.tr("SetFit: contrastive step %v / %m…"),
                 "probing": self.tr("fitting the head on the frozen encoder: batch %v / %m…")}
        text = texts.get(ev.phase, ev.phase).format(n=f"{ev.total:,}")
        counted = ev.phase in ("evaluating", "setfit", "probing")
        if counted and ev.total:
            self.progress.setRange(0, ev.total)
            self.progress.setValue(ev.done)
        else:
            self.progress.setRange(0, 0)  # busy: the stage has no count
        self.progress.setFormat(text)
        shown = self.progress.text() or text  # a busy bar draws no text of its own
        if ev.done == 0 and ev.phase not in ("evaluating", "starting"):  # an evaluation is logged when scored
            line = shown if counted else text
            self.log(line[:1].upper() + line[1:])
        self.phase_shown.emit(shown)

    def on_evaluated(self, ev: Evaluated) -> None:
        self.metric_plot.add_eval(ev)
        self.last_metrics = dict(ev.metrics)
        self.log(self.tr("Evaluation at step {step} (epoch {epoch:.2f}): {m}").format(
            step=ev.step, epoch=ev.epoch, m=format_metrics(ev.metrics)))

    def plots(self) -> tuple[SeriesPlot, ...]:
        return (self.loss_plot, self.lr_plot, self.metric_plot)

    def flush(self) -> None:
        for plot in self.plots():
            plot.flush()

    def on_ended(self, ev: RunFinished) -> None:
        self.flush()
        if self.last_step is not None and self.last_step.total_steps:
            self.progress.setRange(0, self.last_step.total_steps)  # out of a phase's own count
            self.progress.setValue(self.last_step.step)
        if ev.status == "finished":
            self.progress.setValue(self.progress.maximum())
        names = {"finished": self.tr("finished"), "cancelled": self.tr("cancelled"), "failed": self.tr("failed")}
        status = names.get(ev.status, ev.status)
        if self.progress.maximum() == 0:  # ended in a phase without a count (a failed load)
            self.progress.setRange(0, 1)
            self.progress.setFormat(status)
        else:
            self.progress.setFormat(status + "  ·  " + self.tr("step %v / %m"))
        self.log(self.tr("Run {status}.").format(status=status) + (f" {ev.message}" if ev.message else ""))
