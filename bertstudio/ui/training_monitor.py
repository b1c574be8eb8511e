"""One run's live view: the curves (:mod:`bertstudio.ui.plots`), a progress bar and a log.

Fed with the engine's event objects, by the training worker on the Train page or by
a run follower on the Runs page; both call the same slots (``on_started``,
``on_steps``, ``on_evaluated``, ``on_ended``; ``on_phase`` for the stages between the
training steps, so the bar never sits at "idle" while a model loads or a run evaluates).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame, QGridLayout, QPlainTextEdit, QProgressBar, QScrollArea, QSplitter, QVBoxLayout, QWidget,
)

from bertstudio.metrics.display import format_metrics
from bertstudio.train import training_lock
from bertstudio.train.compare_runs import resume_cut
from bertstudio.train.events import Evaluated, PhaseChanged, RunFinished, RunStarted, StepLogged
from bertstudio.ui.jobs import training_job_text
from bertstudio.ui.plots import LossPlot, LrPlot, MetricPlot, SeriesPlot
from bertstudio.ui.run_words import run_message, status_text
from bertstudio.ui.sentences import join_sentences
from bertstudio.ui.theme import font_scale


def format_eta(seconds: float) -> str:
    if not math.isfinite(seconds) or seconds < 0:
        return "?"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class PlotGrid(QWidget):
    """The three curves: loss and evaluation side by side above the learning rate, or one
    column when the pane is narrower than two readable plots. Each plot keeps a readable
    minimum size; the pane scrolls (the monitor puts this grid in a scroll area) rather than
    squeezing a plot until its title and axes are cut, as at the window's minimum size."""

    PLOT_WIDTH = 240  # room for a title such as "Training loss" and a y axis
    PLOT_HEIGHT = 190
    LR_HEIGHT = 120

    def __init__(self, loss: QWidget, metric: QWidget, lr: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        scale = font_scale()  # a larger application font needs taller plots for the same ticks
        self.PLOT_WIDTH, self.PLOT_HEIGHT, self.LR_HEIGHT = (round(v * scale) for v in
                                                             (self.PLOT_WIDTH, self.PLOT_HEIGHT, self.LR_HEIGHT))
        self._plots = (loss, metric, lr)
        loss.setMinimumSize(self.PLOT_WIDTH, self.PLOT_HEIGHT)
        metric.setMinimumSize(self.PLOT_WIDTH, self.PLOT_HEIGHT)
        lr.setMinimumSize(self.PLOT_WIDTH, self.LR_HEIGHT)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self.columns = 0
        self._arrange(2)

    def _arrange(self, columns: int) -> None:
        if columns == self.columns:
            return
        self.columns = columns
        loss, metric, lr = self._plots
        for w in self._plots:
            self._grid.removeWidget(w)
        for row in range(3):
            self._grid.setRowStretch(row, 0)
        gap = max(0, self._grid.spacing())
        if columns == 2:
            self._grid.addWidget(loss, 0, 0)
            self._grid.addWidget(metric, 0, 1)
            self._grid.addWidget(lr, 1, 0, 1, 2)
            self._grid.setRowStretch(0, 3)
            self._grid.setRowStretch(1, 1)
            height = self.PLOT_HEIGHT + self.LR_HEIGHT + gap
        else:
            self._grid.addWidget(loss, 0, 0)
            self._grid.addWidget(metric, 1, 0)
            self._grid.addWidget(lr, 2, 0)
            for row, stretch in enumerate((3, 3, 1)):
                self._grid.setRowStretch(row, stretch)
            height = 2 * self.PLOT_HEIGHT + self.LR_HEIGHT + 2 * gap
        # an explicit minimum: one plot wide whatever the arrangement (the layout would
        # otherwise hold two columns' width and the grid could never become narrow enough
        # to switch to one), as tall as the arrangement needs
        self.setMinimumSize(self.PLOT_WIDTH, height)

    def two_columns_fit(self, width: int) -> bool:
        return width >= 2 * self.PLOT_WIDTH + max(0, self._grid.spacing())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange(2 if self.two_columns_fit(event.size().width()) else 1)
        super().resizeEvent(event)


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
        self.plot_grid = PlotGrid(self.loss_plot, self.metric_plot, self.lr_plot)
        self.plot_scroll = QScrollArea(widgetResizable=True)
        self.plot_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.plot_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # an empty Tab stop before the plots
        self.plot_scroll.setWidget(self.plot_grid)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.plot_scroll)
        split.addWidget(self.log_view)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.progress)
        lay.addWidget(split, 1)
        self.last_step: StepLogged | None = None
        self.last_metrics: dict[str, float] = {}
        self._resuming = False  # a resume started: its first step or evaluation says which points it repeats
        self._idle()

    def _idle(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("idle"))

    def reset(self) -> None:
        for plot in self.plots():
            plot.reset()
        self.set_class_weighted(False)
        self._idle()
        self.log_view.clear()
        self.last_step, self.last_metrics = None, {}
        self._resuming = False

    def set_class_weighted(self, weighted: bool) -> None:
        """The run's training loss is class-weighted (its config's class_weight): the loss curve says so.
        Kept until the next :meth:`reset` (a job's seeds share their config)."""
        self.loss_plot.set_class_weighted(weighted)

    def log(self, text: str) -> None:
        self.log_view.appendPlainText(text)

    def on_warned(self, text: str) -> None:
        """A warning of the core's about the run (TrainingWorker.warned), in the core's words."""
        self.log(self.tr("Warning: {m}").format(m=text))

    def on_started(self, ev: RunStarted) -> None:
        self._resuming = False
        for plot in self.plots():
            plot.reset()  # a job's next run (several seeds) draws its own curves
        self._start(ev)

    def on_resumed(self, ev: RunStarted) -> None:
        """The same run goes on from its checkpoint (a later start in its history): its curves are
        kept up to that checkpoint and joined there, not reset to the resumed part (which hid the
        steps and the best evaluation before the stop), and the steps it repeats are not drawn twice."""
        self._resuming = True
        self._start(ev)

    def _cut_for_resume(self, first: StepLogged | Evaluated) -> None:
        step_cut, eval_cut = resume_cut(first)
        self.loss_plot.cut_from(step_cut)
        self.lr_plot.cut_from(step_cut)
        self.metric_plot.cut_from(eval_cut)
        self._resuming = isinstance(first, Evaluated)  # its first step may still cut the steps after it

    def _start(self, ev: RunStarted) -> None:
        for plot in self.plots():
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
        if self._resuming:
            self._cut_for_resume(steps[0])
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
        texts = {"starting": self.tr("starting…"), "importing": self.tr("loading the training libraries…"),
                 "loading_model": self.tr("loading model…"),
                 "reusing_model": self.tr("reusing the model loaded earlier…"), "tokenising": self.tr("tokenising {n} examples…"),
                 "evaluating": self.tr("evaluating %v / %m batches…"), "saving": self.tr("saving…"),
                 "setfit": self.tr("SetFit: contrastive step %v / %m…"),
                 "probing": self.tr("fitting the head on the frozen encoder: batch %v / %m…"),
                 "waiting": self.tr("waiting for {job} to finish…")}  # another training has the turn
        if ev.phase == "waiting" and ev.detail == training_lock.ASSISTANT:  # it gives way (train/training_lock.py)
            texts["waiting"] = self.tr("stopping the assistant's background training after its current step (it "
                                       "trains again after this run)…")
        text = texts.get(ev.phase, ev.phase).format(n=f"{ev.total:,}", job=training_job_text(ev.detail))
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
        if self._resuming:
            self._cut_for_resume(ev)
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
        status = status_text(ev.status)
        if self.progress.maximum() == 0:  # ended in a phase without a count (a failed load)
            self.progress.setRange(0, 1)
            self.progress.setFormat(status)
        else:
            self.progress.setFormat(status + "  ·  " + self.tr("step %v / %m"))
        # a followed run's reader (RunFollower) says why it ended as the core's sentence: in the user's words
        self.log(join_sentences((self.tr("Run {status}.").format(status=status), run_message(ev.message) if ev.message
                                 else "")))
