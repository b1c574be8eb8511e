"""Would more labels help? The learning-curve panel: one background job, one progress bar.

``Start`` trains the current settings (whatever ``config_factory()`` returns: the Train
page's choices) on growing shares of the labelled rows with several seeds
(:func:`bertstudio.train.learning_curve.learning_curve`) on a
:class:`~bertstudio.ui.jobs.JobWorker`; points are plotted as each run ends, the seed
band and the power-law fit when the job ends, with a sentence saying what doubling the
labelled rows is expected to give. ``Cancel`` stops the running run after its current
step. :func:`open_learning_curve` shows the panel in a dialog (the main window's
Tools > Learning curve…).
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_change, format_metric, is_score
from bertstudio.train.learning_curve import FRACTIONS, SEEDS
from bertstudio.ui.jobs import JobWorker, waiting_line
from bertstudio.ui.run_words import metric_name
from bertstudio.ui.worker import CoreWarnings
from bertstudio.ui.plots import follow_palette
from bertstudio.ui.sentences import join_sentences

ConfigFactory = Callable[[], Any]  # -> TrainConfig of the current settings
# -> None (the settings as they are, for every share) or, when they are the Automatic choice, the
# settings the person gave within it: each share then gets Automatic's choice for its own rows
AutomaticFactory = Callable[[], Collection[str] | None]


class _PointBridge(QObject):
    """Carries points and the core's warnings from the job's thread to the GUI thread (queued signals)."""

    point = Signal(object)
    warned = Signal(str)


class LearningCurvePanel(QWidget):
    finished = Signal(object)  # the LearningCurve (also when cancelled: the points so far)
    failed = Signal(str)

    def __init__(self, session: Any, config_factory: ConfigFactory, parent: QWidget | None = None, *,
                 fractions: Sequence[float] = FRACTIONS, seeds: Sequence[int] = SEEDS,
                 automatic_factory: AutomaticFactory | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("learningCurvePanel")
        self.session = session
        self.config_factory = config_factory
        self.automatic_factory = automatic_factory
        self.fractions, self.seeds = tuple(fractions), tuple(seeds)
        self.worker: JobWorker | None = None
        self.curve: Any = None
        self._points: list[Any] = []
        self._bridge = _PointBridge(self)
        session.project_closing.connect(self._on_project_closing)  # its rows and curve are that project's
        self._bridge.point.connect(self._on_point)
        self._bridge.warned.connect(self._on_warned)
        self.start_button = QPushButton(self.tr("Start"), objectName="learningCurveStart")
        self.start_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(self.tr("Cancel"), objectName="learningCurveCancel", enabled=False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(objectName="learningCurveProgress")
        self.progress.setRange(0, 1000)
        self.progress.setAccessibleName(self.tr("Learning curve progress"))  # a screen reader said ""
        self.status = QLabel(objectName="learningCurveStatus", wordWrap=True)
        # what the core said about the rows (repeats between the sets, a class no share trains on), as a run's log says it
        self.warnings = QLabel(objectName="learningCurveWarnings", wordWrap=True, visible=False)
        self.warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._warned: list[str] = []
        self.result = QLabel(objectName="learningCurveResult", wordWrap=True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plot = pg.PlotWidget()
        self.plot.setAccessibleName(self.tr("Learning curve plot"))
        self.plot.setAccessibleDescription(self.tr("Each run's score against its labelled training rows, and the "
                                                   "fitted curve: the text below says what it forecasts"))
        self.plot.setLogMode(x=True, y=False)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.plot.setLabel("bottom", self.tr("labelled training rows"))
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # an accuracy of 0.5 read "500 (x0.001)"
        self.plot.addLegend(offset=(-10, -10))
        follow_palette(self.plot)
        self.scatter = pg.ScatterPlotItem(size=7, brush=pg.mkBrush("#1f77b4"), pen=None, name=self.tr("one run"))
        self.plot.addItem(self.scatter)
        intro = QLabel(self.tr("Trains the current settings on {f} of the labelled rows, {n} seeds each, and fits a "
                               "power law to say what more labels would give.").format(
            f=" / ".join(f"{100 * f:g}%" for f in self.fractions), n=len(self.seeds)), wordWrap=True)
        bar = QHBoxLayout()
        bar.addWidget(self.start_button)
        bar.addWidget(self.cancel_button)
        bar.addWidget(self.progress, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(bar)
        layout.addWidget(self.status)
        layout.addWidget(self.warnings)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.result)

    # --- the job -------------------------------------------------------------------------
    def is_running(self) -> bool:
        return self.worker is not None and self.worker.is_running()

    def start(self) -> JobWorker | None:
        from bertstudio.train.learning_curve import curve_sets, labelled_classes, learning_curve, share_sizes

        if self.is_running():
            return None
        try:
            config = self.config_factory()
            automatic = self.automatic_factory() if self.automatic_factory is not None else None
            train, dev, note = curve_sets(self.session.examples("train"),
                                          self.session.examples("dev") if self.session.split_size("dev") else None,
                                          seed=config.seed)
            classes = labelled_classes(train)
            sizes, skipped = share_sizes(len(train), classes, self.fractions)  # refuses one class up front
        except BertStudioError as exc:
            self.status.setText(self._refusal_text(exc))
            return None
        self._reset()
        self.status.setText(join_sentences([self._note_text(note), self._skipped_text(skipped, classes or 0, sizes[0])]))
        self.plot.setLabel("left", self.tr("metric"))
        fractions, seeds, bridge = self.fractions, self.seeds, self._bridge

        def job(progress: Callable[[float, str], None], cancel: Any) -> Any:
            def said(fraction: float, where: Any) -> None:  # QCoreApplication.translate is thread-safe
                progress(fraction, progress_text(where))

            with CoreWarnings(bridge.warned.emit):
                return learning_curve(config, train, dev, fractions=fractions, seeds=seeds, progress=said,
                                      on_point=bridge.point.emit, cancel=cancel, automatic=automatic)

        worker = JobWorker(job, name="bertstudio-learning-curve", heavy=True)
        worker.progressed.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)  # stopped while the training libraries still loaded
        self.worker = worker
        worker.start()
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        return worker

    def cancel(self) -> None:
        """Stop the curve: after the current step, or at once while the training libraries still load
        (it said "Stopping after the current step…" there, of a step that never came, and went on)."""
        if self.worker is not None and self.worker.is_running():
            from bertstudio.ui import preload

            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Stopping after the current step…") if preload.is_ready()
                                else self.tr("Cancelling: the curve stops before its first run…"))

    def cancel_and_wait(self, timeout_ms: int = 30_000) -> bool:
        if self.worker is None:
            return True
        self.worker.cancel()
        return self.worker.wait(timeout_ms)

    def _on_project_closing(self, _project: object) -> None:
        """The project closes: the job stops (the main window asked first) and the window goes."""
        self.cancel()
        window = self.window()
        if window is not self:
            window.close()

    def _reset(self) -> None:
        self.curve, self._points = None, []
        self.plot.clear()
        self.plot.addItem(self.scatter)
        self.scatter.setData([], [])
        self.progress.setValue(0)
        self.result.clear()
        self._warned = []
        self.warnings.clear()
        self.warnings.setVisible(False)

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(round(1000 * fraction)))
        self.status.setText(message)

    def _on_point(self, point: Any) -> None:
        self._points.append(point)
        # an item added by hand does not follow the plot's log x axis: placed at log10 itself (10^3 for 3 labels before)
        self.scatter.setData(np.log10([max(p.labels, 1) for p in self._points]),
                             [self._shown(p.metric, p.value) for p in self._points])

    def _on_warned(self, message: str) -> None:
        if message in self._warned:  # each run of the curve may say the same of its share
            return
        self._warned.append(message)
        self.warnings.setText("\n".join(self.tr("Warning: {m}").format(m=m) for m in self._warned))
        self.warnings.setVisible(True)

    def _on_failed(self, message: str) -> None:
        self._end()
        self.status.setText(self.tr("The learning curve stopped: {m}").format(m=message))
        self.failed.emit(message)

    def _on_cancelled(self) -> None:
        self._end()
        self.status.setText(self.tr("Learning curve cancelled before its first run: nothing was trained."))

    def _on_finished(self, curve: Any) -> None:
        self._end()
        self.curve = curve
        self.plot.setLabel("left", self.tr("{m} (x100)").format(m=curve.metric) if is_score(curve.metric) else curve.metric)
        self._draw(curve)
        if curve.cancelled:
            self.status.setText(self.tr("Cancelled after %n run(s).", "", len(curve.points)))
        else:
            self.progress.setValue(self.progress.maximum())
            self.status.setText(self.tr("%n run(s) done.", "", len(curve.points)))
        self.result.setText(self.describe(curve))
        self.finished.emit(curve)

    def _end(self) -> None:
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    # --- drawing and words -------------------------------------------------------------------
    @staticmethod
    def _shown(metric: str, value: Any) -> Any:
        """The metric as plotted and said: x100 for a score (metrics/display, as the Train page's plot)."""
        return 100 * np.asarray(value) if is_score(metric) else np.asarray(value)

    def _draw(self, curve: Any) -> None:
        rows = curve.summary()
        if not rows:
            return
        n = np.array([r[0] for r in rows], dtype=float)
        mean, low, high = (self._shown(curve.metric, [r[i] for r in rows]) for i in (1, 3, 4))
        self.plot.plot(n, mean, pen=pg.mkPen("#1f77b4", width=2), name=self.tr("mean over seeds"))
        lo = self.plot.plot(n, low, pen=None)
        hi = self.plot.plot(n, high, pen=None)
        self.plot.addItem(pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(31, 119, 180, 50)))
        doubling = curve.doubling()
        # none after a cancel or without a clear trend: no fit drawn towards a forecast not made
        if doubling is not None and not curve.unclear():
            xs = np.geomspace(n.min(), 2 * n.max(), 60)
            self.plot.plot(xs, self._shown(curve.metric, [curve.fit.predict(x) for x in xs]),
                           pen=pg.mkPen("#d62728", width=2, style=Qt.PenStyle.DashLine), name=self.tr("power-law fit"))
            predicted, p_low, p_high = self._shown(curve.metric, doubling[2:])
            self.plot.addItem(pg.ErrorBarItem(x=np.log10([2 * n.max()]), y=np.array([predicted]),
                                              top=np.array([p_high - predicted]), bottom=np.array([predicted - p_low]),
                                              beam=0.05, pen=pg.mkPen("#d62728")))

    def _refusal_text(self, exc: BertStudioError) -> str:
        """curve_sets' and share_sizes' refusals (their facts) in the UI's language; any other as the core says it
        (the dialog said "learning curve: too few labelled rows to hold some out…" in English)."""
        facts = exc.facts
        refusal = facts.get("refusal")
        if refusal == "no_labelled_rows":
            return self.tr("The training split has no labelled rows: label some training examples first.")
        if refusal == "too_few_to_hold_out":
            return self.tr("Too few labelled rows ({rows}) to hold some out for evaluation: add a dev split, or "
                           "label at least {least} training rows.").format(rows=facts["rows"], least=facts["least"])
        if refusal == "one_class":
            return self.tr("The labelled training rows hold %n class(es): label rows of at least 2 classes.", "",
                           int(facts["classes"]))
        if refusal == "shares_too_small":
            return self.tr("Every share of {rows:,} rows is smaller than the {k} classes: label at least {k} "
                           "rows.").format(rows=facts["rows"], k=facts["classes"])
        return str(exc)

    def _note_text(self, note: str) -> str:
        """curve_sets' note (a rundir.Said) in the UI's language; one of another kind as written."""
        if getattr(note, "kind", None) == "curve_held_out":
            facts = note.facts  # type: ignore[attr-defined]
            return self.tr("No dev split: {held:,} of {rows:,} labelled training rows are held out for "
                           "evaluation.").format(**facts)
        return note

    def _skipped_text(self, skipped: Sequence[tuple[float, int]], classes: int, first: int) -> str:
        if not skipped:
            return ""
        return self.tr("Shares with fewer rows than the {k} classes are left out: {shares}. The curve starts at "
                       "{n:,} rows.").format(k=classes, shares=", ".join(f"{100 * f:g}% = {n}" for f, n in skipped),
                                             n=first)

    def describe(self, curve: Any) -> str:
        """One or two sentences a person can act on."""
        rows = curve.summary()
        said = [self._skipped_text(curve.skipped, curve.classes, rows[0][0])] if curve.skipped and rows else []
        metric = curve.metric

        def shown(value: float) -> str:
            return format_metric(metric, value)

        doubling = curve.doubling()
        if curve.cancelled and rows:
            # the largest size reached is not the user's data and may hold one seed: no forecast from it
            n, mean = rows[-1][:2]
            said.append(self.tr("Cancelled: the curve stopped at {n:,} of {total:,} labelled rows, where the {m} is "
                                "{now} ({k} of {s} seeds run). No forecast from an unfinished curve.").format(
                n=n, total=curve.rows, m=metric_name(metric), now=shown(mean), k=curve.runs_at(n), s=len(self.seeds)))
        elif curve.cancelled:
            said.append(self.tr("Cancelled before the first run ended."))
        elif doubling is None:
            said.append(self.tr("Too few points for a fit: runs at two or more sizes are needed."))
        elif curve.unclear():
            n, mean = doubling[:2]
            said.append(self.tr("With {n:,} labelled rows the {m} is {now} (mean of {k} seeds). No clear trend yet: the "
                                "fit cannot tell how much more labels would help.").format(
                n=n, m=metric_name(metric), now=shown(mean), k=curve.runs_at(n)))
            said.append(self._unclear_text(curve))
        else:
            n, mean, predicted, low, high = doubling
            change = format_change(metric, predicted - mean)  # never "-0.0 points"
            said.append(self.tr("With {n:,} labelled rows the {m} is {now} (mean of {k} seeds). Doubling to {n2:,} "
                                "rows is expected to give {pred} ({d} points; 95% range {lo} to {hi}).").format(
                n=n, m=metric_name(metric), now=shown(mean), k=curve.runs_at(n), n2=2 * n, pred=shown(predicted), d=change,
                lo=shown(low), hi=shown(high)))
        chosen = self._chosen_text(curve)
        return join_sentences(said + [chosen])

    def _unclear_text(self, curve: Any) -> str:
        """Why the curve shows no trend (LearningCurve.unclear's fact) in the UI's words."""
        reason = curve.unclear()
        if reason == "baseline":
            return self.tr("Answering the same label to every evaluation row scores {base}: the runs are no better "
                           "than that yet.").format(base=format_metric(curve.metric, curve.baseline))
        if reason == "sizes":
            return self.tr("Runs at three or more sizes are needed to see one.")
        return self.tr("The scores do not rise clearly beyond the spread between seeds.")

    def _chosen_text(self, curve: Any) -> str:
        """What Automatic chose for each share's rows, when it chose (one entry per size)."""
        per_size = {p.labels: p.settings for p in curve.points if p.settings}
        if not per_size:
            return ""
        shares = "; ".join(self.tr("{n:,} rows: {method}, batch {batch} x {epochs:g} epochs").format(
            n=n, method=s["method"], batch=s["batch_size"], epochs=s["epochs"]) for n, s in sorted(per_size.items()))
        return self.tr("Automatic chose the settings for each share's own rows ({shares}).").format(shares=shares)


def progress_text(where: Any) -> str:
    """A learning curve's progress (train/learning_curve.CurveProgress) in the UI's language."""
    if where.done:
        return QCoreApplication.translate("LearningCurvePanel", "Done.")
    line = QCoreApplication.translate("LearningCurvePanel", "Run {i} of {n}: {size:,} labelled rows, seed {seed}").format(
        i=where.run, n=where.runs, size=where.size, seed=where.seed)
    if where.waiting_for:  # another training has the turn (the assistant is stopped, not waited for)
        return waiting_line(line, where.waiting_for)
    return line


def open_learning_curve(session: Any, config_factory: ConfigFactory, parent: QWidget | None = None,
                        **options: Any) -> QDialog:
    """Show the learning-curve panel in its own (non-modal) window."""
    dialog = QDialog(parent)
    dialog.setObjectName("learningCurveDialog")
    dialog.setWindowTitle(QCoreApplication.translate("LearningCurvePanel", "Learning curve"))
    dialog.resize(820, 620)
    panel = LearningCurvePanel(session, config_factory, dialog, **options)
    QVBoxLayout(dialog).addWidget(panel)
    dialog.panel = panel  # type: ignore[attr-defined]
    dialog.finished.connect(lambda _result: panel.cancel())  # closing the window stops the job
    dialog.show()
    return dialog
