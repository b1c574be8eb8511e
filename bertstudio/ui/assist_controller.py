"""The labelling assistant of the open project, seen from the GUI thread.

:class:`AssistController` is one QObject per :class:`~bertstudio.ui.session.ProjectSession`.
It owns the Qt-free :class:`~bertstudio.assist.assistant.LabellingAssistant` of the
project's ``train`` split (created when a project opens, closed before the project
closes) and turns the assistant's plain events, which arrive on the assistant's own
threads, into Qt signals delivered on the GUI thread (a queued connection):

- ``scores_changed()``: new suggestions (first zero-shot scores, a refit, a trained model)
- ``status_changed()``: phase, progress, training or audit changed (the status bar, the chart)
- ``failed(str)``: a job of the assistant failed (the core's one line)
- ``switched(bool)``: the assistant was turned on or off for the open project (:meth:`set_on`)

Every method here returns at once: it reads the assistant's published snapshots or
records a fact and wakes one of its threads. Nothing on the GUI thread waits on a model.

The heavy imports (torch, transformers) happen on a short-lived thread first, so opening
a project never freezes the window while they load.

On and off: ``BERTSTUDIO_ASSIST=0`` in the environment turns the assistant off for every
project (``enabled`` is False; the test suite does this, except in the tests of it). Within
that, each project keeps the user's choice (Tools > Labelling assistant, :meth:`set_on`) in
its ``ui_state`` under :data:`PROJECT_KEY`: it is a property of the project (a huge pool, or a
labelling pass that must not be nudged by a model), not of the computer, so it travels with
the folder rather than living in QSettings. Turning it off stops the assistant at once
(:meth:`LabellingAssistant.stop` sets its cancel flag; the threads are joined and its state
saved on a short-lived thread, so the GUI never waits for a training step); every view then
finds no suggestion. Turning it on starts a new assistant, which reads the embeddings the
last one cached in the project folder.
"""

from __future__ import annotations

import logging
import math
import threading
from typing import Any, Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication

from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_share
from bertstudio.ui.gui_gc import collect_on_gui_thread

log = logging.getLogger(__name__)

ENV = "BERTSTUDIO_ASSIST"
PROJECT_KEY = "assistant"  # project.ui_state[PROJECT_KEY]: False when the user turned it off
SPLIT = "train"  # the pool the assistant learns from and suggests for

AssistantFactory = Callable[[Any, Callable[[dict], None]], Any]


def enabled_by_default() -> bool:
    from bertstudio.train.warm import env_switch  # one list of the words that turn a switch off

    return env_switch(ENV)


def wanted_by(project: Any) -> bool:
    """The project's own choice (on unless its user turned the assistant off)."""
    state = getattr(project, "ui_state", None)
    return not isinstance(state, dict) or state.get(PROJECT_KEY) is not False


class AssistController(QObject):
    scores_changed = Signal()
    status_changed = Signal()
    failed = Signal(str)
    switched = Signal(bool)
    _event = Signal(object)  # from the assistant's threads; queued to the GUI thread
    _imported = Signal(int)  # the heavy imports are done (the generation they were made for)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.enabled = enabled_by_default()  # the environment allows it (see the module docstring)
        self.wanted = True  # the open project's choice
        self.settings: Any = None  # an AssistSettings (None: the app's defaults, the bundled model)
        self.factory: AssistantFactory | None = None  # tests build their own assistant (start=False...)
        self.assistant: Any = None
        self._project: Any = None
        self._generation = 0
        self._stopping: threading.Thread | None = None  # joining an assistant turned off
        self.last_event: dict = {}
        self.last_error = ""
        self._event.connect(self._on_event)
        self._imported.connect(self._create)

    # ------------------------------------------------------------------ the project's life
    def open_project(self, project: Any) -> None:
        """Start the assistant for ``project`` (in the background: the heavy imports come first)."""
        self.close_project()
        self._project = project
        self.wanted = wanted_by(project)
        if not self.enabled or project is None or not self.wanted:
            return
        self._start()

    def _start(self) -> None:
        self._generation += 1
        generation = self._generation
        stopping = self._stopping

        def load() -> None:
            if stopping is not None:
                stopping.join()  # the last assistant saves its state and cache before the next reads them
            try:
                from bertstudio.ui.preload import ensure_imported

                ensure_imported()  # torch's first import never races the preload thread's or a job's
                import bertstudio.assist.assistant  # noqa: F401 - torch & co, off the GUI thread
            except Exception:  # noqa: BLE001 - reported when the GUI thread imports it again
                log.exception("the labelling assistant could not be loaded")
            self._imported.emit(generation)

        collect_on_gui_thread()  # the assistant's threads never collect PySide objects (ui/gui_gc.py)
        threading.Thread(target=load, name="bertstudio-assist-import", daemon=True).start()
        self.status_changed.emit()  # "starting" from the first moment, not only once the assistant exists

    @Slot(int)
    def _create(self, generation: int) -> None:
        project = self._project
        if generation != self._generation or project is None or project.closed or self.assistant is not None:
            return
        def forward(event: dict) -> None:  # an assistant's events, marked as its own
            self._event.emit((generation, dict(event)))

        try:
            if self.factory is not None:
                self.assistant = self.factory(project, forward)
            else:
                from bertstudio.assist.assistant import LabellingAssistant

                self.assistant = LabellingAssistant(project, SPLIT, settings=self.settings, on_event=forward)
        except Exception as exc:  # noqa: BLE001 - the app works without its assistant
            log.exception("the labelling assistant did not start")
            self.last_error = str(exc)
            self.failed.emit(self.last_error)
            return
        self.status_changed.emit()
        self.scores_changed.emit()

    def close_project(self) -> None:
        """Stop the assistant (a training is cancelled after its current step) and save its state.
        Called before the project closes: labels are already in the project's journal."""
        self._generation += 1
        self._project = None
        assistant, self.assistant = self.assistant, None
        if self._stopping is not None:
            self._stopping.join()  # one turned off just before: its files are saved before the project closes
            self._stopping = None
        if assistant is not None:
            # the project's files must be the assistant's last word before the project closes: a training
            # stops after its current step, which takes a moment on a laptop (1.9 s seen), said by the cursor
            QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                _close(assistant)
            finally:
                QGuiApplication.restoreOverrideCursor()
            self.status_changed.emit()
            self.scores_changed.emit()

    def set_on(self, on: bool) -> None:
        """Turn the assistant on or off for the open project and keep the choice in it. Off:
        suggestions, refits and trainings stop at once (gold labels are the project's and stay);
        on: it starts again from the cached embeddings. Nothing happens without a project or
        while the environment turns it off."""
        project = self._project
        if project is None or project.closed or not self.enabled or on == self.wanted:
            return
        self.wanted = on
        project.ui_state[PROJECT_KEY] = on
        try:
            project.save_ui_state()
        except BertStudioError as exc:  # a full disk: the switch still works for this session
            self.failed.emit(exc.message)
        if on:
            self._start()
        else:
            self._stop()
        self.switched.emit(on)
        self.status_changed.emit()
        self.scores_changed.emit()

    def _stop(self) -> None:
        """Detach the assistant, stop it now, and join its threads off the GUI thread."""
        self._generation += 1
        assistant, self.assistant = self.assistant, None
        if assistant is None:
            return
        assistant.stop()
        previous = self._stopping

        def join() -> None:
            if previous is not None:
                previous.join()
            _close(assistant)

        self._stopping = threading.Thread(target=join, name="bertstudio-assist-close", daemon=True)
        self._stopping.start()

    def is_on(self) -> bool:
        """The assistant is on for the open project (it may still be starting)."""
        return self.enabled and self.wanted and self._project is not None

    def restart(self) -> None:
        """Start afresh with the current ``settings`` / ``factory`` / ``enabled`` (same project)."""
        project = self._project
        self.close_project()
        if project is not None and not project.closed:
            self.open_project(project)

    # ------------------------------------------------------------------ events (assistant threads -> GUI)
    def _forward(self, event: dict) -> None:
        """An event of the current assistant (tests send their own)."""
        self._event.emit((self._generation, dict(event)))

    @Slot(object)
    def _on_event(self, marked: tuple[int, dict]) -> None:
        generation, event = marked
        if self.assistant is None or generation != self._generation:
            return  # from an assistant closed or turned off since
        self.last_event = event
        what = event.get("kind")  # the assistant's event type (not a task kind)
        if what == "error":
            self.last_error = str(event.get("message", ""))
            self.failed.emit(self.last_error)
        if what in ("scores", "ready", "trained", "reset"):
            self.scores_changed.emit()
        self.status_changed.emit()

    # ------------------------------------------------------------------ what the views ask
    def is_active(self, split: str | None = None) -> bool:
        return self.assistant is not None and (split is None or split == SPLIT)

    def suggestion(self, split: str, row: int) -> Any:
        """The shown model's Suggestion for ``row`` of ``split`` (None: none yet, another split, or
        the pending audit draw, whose suggestion no view shows: the Data page would nudge the label
        the Label page keeps unnudged)."""
        if not self.is_active(split) or self.is_audit_pick(split, row):
            return None
        return self.assistant.suggestion(split, row)

    def scores(self) -> Any:
        return self.assistant.shown_scores if self.assistant is not None else None

    def next_item(self, strategy: str, *, label: str | None = None, skip_row: int | None = None) -> Any:
        """The next row in ``strategy`` (a NextItem), after passing over ``skip_row`` if given."""
        if self.assistant is None:
            return None
        if skip_row is not None and skip_row >= 0:
            self.assistant.skip(skip_row)
        return self.assistant.next_row(strategy, label=label)

    def pick_now(self, item: Any) -> Any:
        """``item`` (a NextItem handed out earlier) with its reason said for the model shown now."""
        return self.assistant.pick_now(item) if self.assistant is not None else item

    def is_audit_pick(self, split: str, row: int) -> bool:
        """True while ``row`` is an audit draw not yet labelled (also one skipped, passed over by an
        order change, or whose label was undone): its suggestion is not shown, so the user's label
        (the audit's ground truth) is not nudged by the model it checks."""
        return self.is_active(split) and self.assistant.is_audit(row)

    def train_now(self) -> bool:
        if self.assistant is None or not self.can_train():
            return False
        self.assistant.train_now()
        return True

    def can_train(self) -> bool:
        return self.assistant is not None and self.assistant.spec.head is not None \
            and self.assistant.settings.strong_method != "off"

    def can_train_now(self) -> bool:
        """A strong model may be asked for now: not while one trains or scores (Train now and
        Tools > Train assistant now agree; the menu's stayed on through a training)."""
        return self.can_train() and (self.status().get("training") or {}).get("status") not in ("training", "scoring")

    def status(self) -> dict:
        return self.assistant.status() if self.assistant is not None else {}

    def counts(self) -> dict[str, int]:
        return self.assistant.counts() if self.assistant is not None else {}

    def audit(self) -> Any:
        return self.assistant.audit() if self.assistant is not None else None

    def history(self) -> list[dict]:
        return self.assistant.history() if self.assistant is not None else []

    def random_order_estimate(self) -> list[tuple[int, float]]:
        return self.assistant.random_order_estimate() if self.assistant is not None else []

    def labels(self) -> list[str]:
        return self.assistant.labels if self.assistant is not None else []

    def model_in_loop(self) -> bool:
        """The assistant has a model for the open project's kind (the core's spec says): audit draws and
        the "most uncertain first" order exist. True while no assistant exists (nothing is offered then)."""
        return self.assistant is None or self.assistant.spec.model_in_loop

    def suggests_labels(self, kind: str) -> bool:
        """Whether suggestions of ``kind`` are label names (the Next order "by suggested label")."""
        spec = get_spec(kind)
        return spec.has_label_set and not spec.gold.per_token

    def waiting_text(self) -> str:
        """Why there is no suggestion yet (the core's words for the kind), or ""."""
        if self.assistant is None:
            return ""
        status = self.assistant.status()
        return QCoreApplication.translate("AssistKinds", status["waiting"]) if status.get("waiting") else ""


def _close(assistant: Any) -> None:
    try:
        assistant.close()
    except Exception:  # noqa: BLE001 - closing the project (or turning the assistant off) must go on
        log.exception("the labelling assistant did not close cleanly")


_SOURCES = {
    "zero-shot": QT_TRANSLATE_NOOP("AssistController", "from the label names"),
    "fast": QT_TRANSLATE_NOOP("AssistController", "fast model"),
    "setfit": QT_TRANSLATE_NOOP("AssistController", "SetFit model"),
    "finetune": QT_TRANSLATE_NOOP("AssistController", "fine-tuned model"),
}


def source_text(source: str | None) -> str:
    """Which model a suggestion comes from, in the user's words."""
    return QCoreApplication.translate("AssistController", _SOURCES[source]) if source in _SOURCES else str(source or "")


def shown_score(value: float) -> tuple[float, str]:
    """A suggested score as it is shown and, accepted, stored: three significant digits, never in
    exponent form (3.21, 57.3, 0.234, 1230). Tenths on every scale turned a 0-1 project's 0.234
    into 0.2 when accepted; the line and the stored score are one rounding, so they cannot differ."""
    value = float(value)
    if not math.isfinite(value) or value == 0:
        return value, f"{value:g}"
    decimals = 2 - math.floor(math.log10(abs(value)))
    rounded = round(value, decimals) + 0.0  # + 0.0: no -0
    text = f"{rounded:.{max(decimals, 0)}f}"
    if "." in text:  # 8.0, not 8.00; 0.0004, not 0.000400
        text = text.rstrip("0")
        text += "0" if text.endswith(".") else ""
    return rounded, text


def suggestion_text(suggestion: Any) -> str:
    """A suggestion as one short line: ``pos 87%``, ``3.21`` (regression, :func:`shown_score`) or the
    tags (tagging). A confidence of 0.9996 reads "99.96%": "100%" read as certain."""
    value = suggestion.value
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, float):
        return shown_score(value)[1]
    confidence = suggestion.confidence
    return f"{value} {format_share(confidence)}" if confidence == confidence else str(value)  # nan: no confidence
