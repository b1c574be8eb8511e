"""The Train page's time estimate: "96 labels: SetFit, 3 seeds would take ~16 min".

:class:`TimeEstimateLabel` shows :func:`bertstudio.train.estimate.estimate` for the page's
settings and the labelled rows, and says where its throughput came from. The arithmetic is
instant and runs on the GUI thread each time the settings or the labels change; finding the
throughput (reading this project's run histories, else timing a few training steps of the
model) runs once per model and device on a :class:`~bertstudio.ui.worker.ThreadJob`, once the
page is seen (opening a project on another page times nothing). Until it answers, the rough
figure shows, marked rough. A calibration is kept for the process only (a busy minute
should not stand for the machine for good; the first run's history replaces it); history is
read again after each run.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QWidget

from bertstudio.errors import ConfigError
from bertstudio.train import training_lock
from bertstudio.train.config import HOLD_OUT, TrainConfig
from bertstudio.train.estimate import (
    Throughput, calibrate, estimate, history_throughput, mean_tokens, rough_throughput, rounded,
)
from bertstudio.ui import theme
from bertstudio.ui.train_settings import rows_said
from bertstudio.ui.worker import ThreadJob

log = logging.getLogger(__name__)

SAMPLE_ROWS = 200  # texts read to guess their length (cheap: one Arrow slice)
_calibrated: dict[tuple[str, str], Throughput] = {}  # (model, device) -> this process's calibration


def find_throughput(runs: list[Any], model: str | None, device: str, *, may_time: bool = True,
                    cancel: threading.Event | None = None) -> Throughput | None:
    """On a worker thread: this project's run history, else a calibration (once per process), else rough.
    ``may_time`` False (the labelling assistant is busy in this process): None instead of a new
    calibration, which would time the assistant's work as much as the machine's (one reviewer's
    page said 1.4 h for a run that took 9.5 min). ``cancel`` set (a real run started): None,
    the calibration stopped after its current step and nothing kept."""
    found = history_throughput(runs, model, device=device)
    if found is not None:
        return found
    key = (model or "default", device)
    if key not in _calibrated and not may_time:
        return None
    if key not in _calibrated:
        if cancel is not None and cancel.is_set():  # stopped before it began: no model loaded for nothing
            return None
        try:
            # named: a run started meanwhile waited for "a training run" while none was to be seen
            with training_lock.training_job(training_lock.SPEED_TIMING):
                _calibrated[key] = calibrate(model, device=device, cancel=cancel)
        except Exception:  # noqa: BLE001 - a model that cannot load: the run will say why; the estimate stays rough
            if cancel is not None and cancel.is_set():
                return None
            log.info("no calibration for %s", key, exc_info=True)
            return rough_throughput()
    return _calibrated[key]


class TimeEstimateLabel(QLabel):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="timeEstimateLabel", wordWrap=True)
        theme.set_tone(self, "muted")
        self.session = session
        self.throughput: Throughput | None = None
        self._key: tuple | None = None  # what the throughput was found for
        self._job: ThreadJob | None = None
        self._config: TrainConfig | None = None
        self._tokens: tuple[Any, float] | None = None  # (project, mean tokens of its training texts)
        self._windows: tuple[Any, float] | None = None  # QA: (project, rows, length, stride), windows per question
        self._job_key: tuple | None = None
        self._watched: QObject | None = None  # the form this note sits in: shown -> look the throughput up
        self._deferred = False  # the timing waits for the labelling assistant to be idle
        self._held = False  # a real run is going: no timing beside it (it would slow the run and time it)
        self._cancel: threading.Event | None = None
        session.runs_changed.connect(self._forget)
        session.project_closed.connect(self._on_project_closed)
        session.data_imported.connect(self._on_imported)
        assist = getattr(session, "assist", None)
        if assist is not None:
            assist.status_changed.connect(self._on_assist_status)

    def _assistant_busy(self) -> bool:
        """The labelling assistant is embedding or training in this process (it shares the cores)."""
        assist = getattr(self.session, "assist", None)
        status = assist.status() if assist is not None else {}
        if not status:
            return bool(assist is not None and assist.is_on())  # still loading its libraries
        if status.get("phase") == "failed":  # it stopped: nothing to wait for
            return False
        training = status.get("training") or {}
        return not status.get("ready") or training.get("status") in ("training", "scoring")

    def _on_assist_status(self) -> None:
        if self._deferred and not self._assistant_busy() and self._config is not None and self.session.has_project():
            self.show_for(self._config)  # idle now: time the machine

    def _on_project_closed(self) -> None:
        """Nothing is timed for a closed project: a lookup still waiting for the imports ends (it kept a
        Quit's process alive until they were done, then timed the computer for no one)."""
        if self._cancel is not None:
            self._cancel.set()

    def _on_imported(self, *_: object) -> None:
        self._tokens = self._windows = None  # new texts: their length is guessed again

    def _forget(self) -> None:
        self._key = None  # a new run: its history is the best measure
        if self._config is not None:
            self.show_for(self._config)

    def show_for(self, config: TrainConfig | None) -> None:
        """The estimate of ``config`` on the labelled rows now (None: settings not valid)."""
        self._config = config
        rows = self.session.progress("train")[0] if self.session.has_project() else 0
        if config is None or rows == 0:
            self.setText("")
            self.setVisible(False)
            return
        key = (self.session.project.folder, config.model, config.device)
        if key != self._key:
            self._key, self.throughput = key, None
        self._watch()
        waiting = self._held or self._deferred and self._assistant_busy()  # asked again when idle
        if self.throughput is None and not waiting and self.parentWidget() is not None and self.parentWidget().isVisible():
            self._find(key)
        dev = self.session.progress("dev")[0] if self.session.split_size("dev") else 0
        evaluated = dev or max(1, round(HOLD_OUT * rows))
        train_rows = rows if dev else rows - evaluated
        throughput = self.throughput or rough_throughput()
        tokens = self._mean_tokens()
        ratio = self._windows_per_row(config, rows)
        if ratio:  # QA: a step draws windows of max_length tokens, several per question
            train_rows, evaluated, tokens = round(train_rows * ratio), round(evaluated * ratio), config.max_length
        e = estimate(config, train_rows, throughput, eval_rows=evaluated, tokens=tokens)
        self.setText(self._sentence(config, rows, e.seconds, dev=bool(dev)) + " " + self._source(throughput))
        self.setVisible(True)

    def _sentence(self, config: TrainConfig, rows: int, seconds: float, dev: bool = False) -> str:
        """``rows``: the labelled training rows; without a labelled dev split (``dev``) the run holds
        some out, and the sentence counts them as the Automatic line above counts them."""
        method = {"setfit": self.tr("SetFit")}.get(config.method) or {
            "frozen": self.tr("a head on the frozen encoder"), "lora": self.tr("LoRA"),
            "full": self.tr("fine-tuning")}.get(config.mode, self.tr("fine-tuning the top layers"))
        if config.seeds > 1:
            text = self.tr("{rows}: {method}, {seeds} seeds would take {time}")
        else:
            text = self.tr("{rows}: {method} would take {time}")
        figure, unit = rounded(seconds)
        time = {"s": self.tr("~{n} s"), "min": self.tr("~{n} min")}.get(unit) or self.tr("~{n} h")
        from bertstudio.train.sources import held_out_count

        held = 0
        if not dev:  # the core's count (run_inputs holds out this many); too few to hold any out: Start says so
            with contextlib.suppress(ConfigError):
                held = held_out_count(rows, HOLD_OUT)
        return text.format(rows=rows_said(rows - held, rows), method=method, seeds=config.seeds, time=time.format(n=figure))

    def _source(self, throughput: Throughput) -> str:
        rate = f"{throughput.examples_per_s:.0f}"
        if throughput.source == "history":
            return self.tr("(timed by this project's earlier runs: {rate} examples/s)").format(rate=rate)
        if throughput.source == "calibration":
            return self.tr("(from a short timing of this model on this computer: {rate} examples/s)").format(rate=rate)
        if self._job is not None:
            return self.tr("(rough, while this computer is timed)")
        if self._deferred:
            return self.tr("(rough: this computer is timed once the labelling assistant is idle)")
        return self.tr("(rough: nothing timed on this computer yet)")

    def _windows_per_row(self, config: TrainConfig, rows: int) -> float | None:
        """QA: windows per labelled question at the chosen max length (None for other kinds)."""
        from bertstudio.data.kinds import get_spec
        from bertstudio.train.small_data import training_units

        if get_spec(self.session.kind).gold.name != "answers" or not rows:
            return None
        key = (self.session.project, rows, config.max_length, config.doc_stride)
        if self._windows is None or self._windows[0] != key:
            self._windows = (key, training_units(self.session.examples("train"), config) / rows)
        return self._windows[1]

    def _mean_tokens(self) -> float | None:
        project = self.session.project
        if self._tokens is None or self._tokens[0] is not project:
            examples = self.session.examples("train")
            sample = examples.dataset[:SAMPLE_ROWS] if examples is not None else {}
            texts = [" ".join(str(v) for v in parts if v) for parts in zip(*(sample.get(c, []) for c in
                                                                             ("text", "text_pair")))] \
                if "text_pair" in sample else [str(t) for t in sample.get("text", []) if t]
            self._tokens = (project, mean_tokens(texts))
        return self._tokens[1] or None

    def _watch(self) -> None:
        parent = self.parentWidget()
        if parent is not None and parent is not self._watched:
            parent.installEventFilter(self)
            self._watched = parent

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Show and self._config is not None and self.session.has_project():
            self.show_for(self._config)  # seen now: worth a lookup
        return False

    def _find(self, key: tuple) -> None:
        if self._job is not None:
            return  # the newest key is looked up when this job ends
        from bertstudio.train.seeds import with_job_runs

        runs = with_job_runs(self.session.project.list_runs())  # a seeds job's runs timed too
        _folder, model, device = key
        self._job_key = key
        may_time = not self._assistant_busy()
        cancel = self._cancel = threading.Event()
        self._job = ThreadJob(lambda: find_throughput(runs, model, device, may_time=may_time, cancel=cancel),
                              name="bertstudio-estimate", heavy=True, cancel=cancel)  # its wait for the imports too
        self._job.succeeded.connect(self._on_found)  # bound methods: dropped if the page goes first
        self._job.failed.connect(self._on_failed)
        self._job.start()

    def hold(self, held: bool) -> None:
        """A real run starts (True: a timing under way stops after its step, none starts) or ends."""
        self._held = held
        if held and self._cancel is not None:
            self._cancel.set()
        elif not held and self._config is not None and self.session.has_project():
            self.show_for(self._config)

    def _on_failed(self, exc: BaseException) -> None:
        log.info("no throughput found: %s", exc)
        self._on_found(rough_throughput())

    def _on_found(self, found: Throughput | None) -> None:
        key, self._job, self._cancel = self._job_key, None, None
        self._deferred = found is None  # no history, and the assistant was busy: timed once it is idle
        if found is not None and key == self._key:
            self.throughput = found

        if self._config is not None and self.session.has_project():
            self.show_for(self._config)  # looks the newest settings up if they moved on meanwhile
