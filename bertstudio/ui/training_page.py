"""The Training page: pick a model and settings, start/cancel a run, watch it live.

The page keeps one TrainConfig (:attr:`TrainingPage.config`), edited through the
settings form (:mod:`bertstudio.ui.train_settings`) and completed from the project
(task kind, labels, GLUE preset); the same config starts a run, is exported as a
run.toml and is remembered per project. The run itself happens on a
:class:`~bertstudio.ui.worker.TrainingWorker`; this page hands it the project's
labelled rows (with their project rows, so predictions map back to them) and feeds
the worker's events to the monitor. Without a dev split the run holds out part of
the training rows by the core's rule (TrainConfig.hold_out, train/sources.hold_out).
"""

from __future__ import annotations

import logging
import math
import re
import threading
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QLabel, QMessageBox, QPushButton, QScrollArea, QSplitter, QVBoxLayout,
    QWidget,
)

from bertstudio.errors import BertStudioError, ConfigError
from bertstudio.metrics.display import format_percent
from bertstudio.train.config import HOLD_OUT, TrainConfig, setfit_fits
from bertstudio.train.events import PhaseChanged, RunFinished, RunStarted
from bertstudio.train.rundir import record_label_ids, run_name, unstarted_label_ids
from bertstudio.ui import theme
from bertstudio.ui.train_checks import VocabularyWarning, labelled_rows, missing_for_training
from bertstudio.ui.train_estimate import TimeEstimateLabel
from bertstudio.ui.train_settings import FORM_FIELDS, TrainSettingsForm, legacy_settings, reasons_said
from bertstudio.ui.sentences import join_sentences
from bertstudio.ui.training_monitor import TrainingMonitor
from bertstudio.ui.worker import ThreadJob, TrainingWorker

log = logging.getLogger(__name__)


_SETTINGS = frozenset(f.name for f in fields(TrainConfig))


def _count_parameters(config: TrainConfig) -> tuple[int, int]:
    """(trainable, total) of the model ``config`` would train; on a worker thread (imports torch).
    Raises the ConfigError a run would for settings this model cannot take (top-N past its layers,
    a LoRA rank past its width, a max length past its positions)."""
    from bertstudio.data.kinds import get_spec
    from bertstudio.bundled import resolve_model
    from bertstudio.tasks.model import parameter_counts

    from bertstudio.train.preflight import check_max_length

    check_max_length(config)  # the model's own limit, which Start checks: refused now, before a run folder
    labels = config.labels or [str(i) for i in range(get_spec(config.task).gold.min_labels)]
    return parameter_counts(config.task, resolve_model(config.model), labels=labels, head=config.head, mode=config.mode,
                            lora=(config.lora_rank, config.lora_alpha, config.lora_dropout, list(config.lora_targets)),
                            glue_task=config.glue_task)


class _FormScroll(QScrollArea):
    """A scroll area at least as wide as its form with the vertical scroll bar beside it. A
    QScrollArea's own minimum leaves the form out: at 900x700 the Train page's settings then
    scrolled sideways by the bar's width, their right edge hidden."""

    def minimumSizeHint(self) -> QSize:
        hint, form = super().minimumSizeHint(), self.widget()
        if form is None:
            return hint
        need = form.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
        return QSize(max(hint.width(), need), hint.height())

    def setWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt override
        super().setWidget(widget)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit_height()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        """The form as tall as its wrapped texts need at the viewport's width. The scroll area sizes
        it by its size hint, which does not know that a narrower form (the scroll bar came) wraps
        its texts onto more lines: the preset's reason and the trainable count lost their first
        and last lines."""
        form = self.widget()
        layout = form.layout() if form is not None else None
        if layout is None or not layout.hasHeightForWidth():
            return
        height = layout.totalHeightForWidth(self.viewport().width())
        if height > 0 and form.minimumHeight() != height:
            form.setMinimumHeight(height)


class TrainingPage(QWidget):
    run_started = Signal(str)  # the run folder
    run_ended = Signal(str, str)  # run folder, status (finished | cancelled | failed)
    status_message = Signal(str)  # for the window's status bar
    run_exported = Signal(str)  # the folder Export run… wrote
    export_ended = Signal()  # Export run… ended, written or not

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.worker: TrainingWorker | None = None
        self._export_worker: Any = None  # Export run… writing on its worker
        self.run_dir: str | None = None
        self._setfit_phase: tuple[int, int] | None = None  # (done, total) contrastive steps of the running SetFit phase
        self._seed_folders: list[str] = []  # the other seeds' run folders of the current job
        self.config = TrainConfig()  # the last valid settings; settings_error says why the form is not
        self.settings_error: ConfigError | None = None
        self._adapting = False  # the Automatic preset is filling the form in
        self._seeds_result: Any = None  # the last several-seeds job's summary (train/seeds.SeedsResult)
        self._resuming = False  # the run going on is a resumed one (a cancel while it loads leaves it as it was)
        self._stepping = False  # the running run's engine has started its steps (RunStarted): Cancel waits for one
        self._count_job: ThreadJob | None = None
        self._counted: TrainConfig | None = None
        # settings the model refused while counting (top-N past its layers): Start is refused for them
        self._refused: tuple[TrainConfig, ConfigError] | None = None
        self._count_timer = QTimer(self, singleShot=True, interval=250)  # count once typing pauses
        self._count_timer.timeout.connect(self._count_parameters)
        self._state_timer = QTimer(self, singleShot=True, interval=150)  # labels arrive a key press at a time
        self._state_timer.timeout.connect(self._refresh_state)
        self._build()
        session.training_runs = self.training_folders  # the Runs page deletes none of them
        # Bound methods (not lambdas), so Qt drops the connections when the page goes.
        for sig in ("project_opened", "project_closed", "data_imported", "labels_changed"):
            getattr(session, sig).connect(self._refresh_state)
        session.gold_changed.connect(self._state_timer.start)
        for sig in ("data_imported", "labels_changed"):
            getattr(session, sig).connect(self._on_data_changed)
        self._state_timer.timeout.connect(self._on_labels_settled)
        self._data_stale = False  # labels given while the page was hidden: Automatic chooses when it is seen
        session.data_imported.connect(self._check_vocabulary)
        session.project_opened.connect(self._restore_settings)
        session.project_closed.connect(self._on_project_closed)
        if session.has_project():
            self._restore_settings()
        self._refresh_state()

    # --- layout ---------------------------------------------------------------------
    def _build(self) -> None:
        self.form = TrainSettingsForm()
        self.form.edited.connect(self._on_edited)
        for name in ("model_picker", "head_combo", "mode_combo", "top_spin", "lora_spin", "preset_combo", "batch_combo",
                     "lr_combo", "epochs_spin", "warmup_spin", "class_weight_combo",
                     "max_len_spin", "seed_spin", "device_combo",
                     "precision_combo", "params_label"):
            setattr(self, name, getattr(self.form, name))  # the widgets tests and the window reach
        self.start_button = QPushButton(self.tr("&Start training"), objectName="startTrainingButton")
        self.cancel_button = QPushButton(self.tr("&Cancel"), objectName="cancelTrainingButton", enabled=False)
        self.export_button = QPushButton(self.tr("E&xport run…"), objectName="exportRunButton", enabled=False)
        self.export_button.setToolTip(self.tr(
            "Write these settings and the labelled data to a folder that trains headless anywhere: "
            "bertstudio train --config run.toml (or under accelerate launch on several GPUs)"))
        self.start_button.clicked.connect(self.start_training)
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):  # from any setting, as a form's default button
            QShortcut(QKeySequence(Qt.Modifier.CTRL | key), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
                      activated=self.start_button.click)  # (nothing while the button is disabled: a run is on)
        self.cancel_button.clicked.connect(self.cancel_training)
        self.export_button.clicked.connect(self.export_run)
        self.status_label = QLabel(objectName="trainingStatus", wordWrap=True)
        self.error_label = QLabel(objectName="trainingError", wordWrap=True, visible=False)
        theme.set_tone(self.error_label, "error")
        self.vocabulary_warning = VocabularyWarning()
        self.estimate_label = TimeEstimateLabel(self.session)  # "96 labels: SetFit would take ~3 min"
        self.form.add_note(self.estimate_label)
        # the rate the new head trains at, where it is not the form's (frozen or top-N: a probe's step)
        self.head_lr_note = QLabel(objectName="headLrNote", wordWrap=True, visible=False)
        self.form.add_note(self.head_lr_note)
        buttons = QHBoxLayout()
        for button in (self.start_button, self.cancel_button, self.export_button):
            buttons.addWidget(button)

        settings = QWidget()
        sv = QVBoxLayout(settings)
        sv.addWidget(self.form)
        sv.addStretch(1)
        scroll = _FormScroll(widgetResizable=True, objectName="trainSettingsScroll")
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the settings, not first to the empty area
        scroll.setWidget(settings)
        # Start, Cancel and what they say stay in view under the settings (at 900x700 Start was
        # below the fold, under a form a new user had to scroll through first)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(scroll, 1)
        # beside Start, not under the long form: at 1280 x 820 a Chinese user's "72% [UNK]" sat out of view
        lv.addWidget(self.vocabulary_warning)
        lv.addLayout(buttons)
        lv.addWidget(self.status_label)
        lv.addWidget(self.error_label)
        self.monitor = TrainingMonitor(names=True)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(self.monitor)
        split.setStretchFactor(1, 3)
        split.setSizes([420, 880])  # the curves get the room; the form needs about 420 px
        QVBoxLayout(self).addWidget(split)

    # --- settings: one TrainConfig ------------------------------------------------------
    def model_source(self) -> str:
        return self.form.model_source()

    def set_model_source(self, source: str) -> None:
        self.form.set_model_source(source)

    def mode(self) -> str:
        return self.form.mode()

    def page_config(self, **overrides: Any) -> TrainConfig:
        """The form's settings (with ``overrides``) completed from the project, as TrainConfig
        checks them (raises ConfigError naming the setting)."""
        project = self.session.project
        values = {**self.form.settings(), **overrides}
        if project is None:
            return TrainConfig(**values)
        return TrainConfig(task=project.kind, glue_task=project.glue_task, labels=list(project.labels) or None, **values)

    def automatic_given(self) -> frozenset[str] | None:
        """None when the settings are the person's own; under Automatic, the settings the person
        chose within it (mode, max length: small_data.adapt's ``given``), for whoever chooses again
        for other rows (the learning curve's shares)."""
        if not self.form.is_auto():
            return None
        return frozenset(name for name, chosen in (("mode", self.form.mode_chosen),
                                                   ("max_length", self.form.length_chosen)) if chosen)

    def _adapt_to_data(self) -> None:
        """The Automatic preset: the recipe that fits the labelled training rows
        (train/small_data.adapt, the same choice ``bertstudio train`` makes without flags)."""
        from bertstudio.train.small_data import (ADAPTED, SMALL_ROWS, adapt_explained, has_pairs, label_counts,
                                                 model_max_length, run_max_length, text_lengths, training_units)

        given = self.automatic_given()
        if given is None or self._adapting:
            return
        defaults = TrainConfig()  # what adapt() may choose starts again from the defaults (small_data.unadapted)
        fresh = {k: getattr(defaults, k) for k in ADAPTED if k not in given} | {"auto_reason": None}
        base = self.page_config(**fresh)
        examples = self._rows_trained_on(base.seed)
        counts = label_counts(examples) if examples is not None else {}
        small = examples is not None and 0 < sum(counts.values()) <= SMALL_ROWS  # a length guess reads every text
        chosen, reasons = adapt_explained(base, counts, given=given,
                                          units=training_units(examples, base) if examples is not None else None,
                                          lengths=text_lengths(examples) if small else None,
                                          pairs=has_pairs(examples) if examples is not None else None,
                                          model_limit=model_max_length(base.model),
                                          run_limit=run_max_length(base.model))
        self._adapting = True
        try:
            # counted as the time estimate below counts them: "9 of 10 labelled rows" and the one held out
            said = (reasons_said(reasons, sum(counts.values()), self.session.progress("train")[0])
                    if sum(counts.values()) else
                    self.tr("No labelled training rows yet: Automatic chooses the settings once there are some."))
            self.form.show_auto({k: getattr(chosen, k) for k in ADAPTED},
                                chosen.auto_reason, said)
        finally:
            self._adapting = False

    def _rows_trained_on(self, seed: int) -> Any:
        """The labelled training rows a run started now trains on (None: no training rows): without
        a labelled dev split the run holds out HOLD_OUT of them (run_inputs, then the core), so
        Automatic counts the rest, as ``bertstudio train`` does (it said "200 labelled rows, at
        least 150 steps" for a run of 180 rows and 144 steps). Past twice the small-data size the
        choice no longer depends on the count, and all rows are counted without drawing."""
        from bertstudio.train.small_data import SMALL_ROWS
        from bertstudio.train.sources import hold_out, project_rows

        if not self.session.has_project() or not self.session.split_size("train"):
            return None
        examples = self.session.examples("train")
        rows = labelled_rows(examples)
        dev = self.session.examples("dev") if self.session.split_size("dev") else None
        if len(rows) == 0 or len(labelled_rows(dev)) or len(rows) > 2 * SMALL_ROWS:
            return examples
        try:
            return hold_out(project_rows(examples, rows), HOLD_OUT, seed)[0]
        except ConfigError:  # too few rows to hold any out: Start says so (train_checks); chosen for them all
            return examples

    def _on_data_changed(self, *_: object) -> None:
        """New labels or rows: the Automatic preset chooses again (nothing else depends on them).
        Not while a run trains (the form shows that run's recipe): the run's end and Start choose
        again for the labels made meanwhile."""
        if self.form.is_auto() and not self.is_running():
            self._on_edited()

    def _on_labels_settled(self) -> None:
        """Labels given on the Label page: Automatic chooses again once the page is seen (or at Start);
        choosing at every pause in the labelling cost 80 ms a key at 150 labels."""
        if self.isVisible():
            self._on_data_changed()
        else:
            self._data_stale = True

    def _on_edited(self) -> None:
        self._data_stale = False
        if self._adapting:
            return
        try:
            self._adapt_to_data()
            self.config = self.page_config()
            self.settings_error = None
            if self._refused is not None and self._refused[0] == self.config:  # counted before: the model said no
                self.settings_error = self._refused[1]
                self._counted = None  # and asked again: the model folder may have changed since (_on_counted)
                if self.isVisible():
                    self._count_timer.start()
        except ConfigError as exc:
            self.settings_error = exc
        self._say_head_lr()
        self._schedule_count()
        self._refresh_state()
        self._check_vocabulary()

    def _say_head_lr(self) -> None:
        """A frozen run's form said 5e-5 while its only learning part, the head, trained at 1e-3
        (the curve showed 1e-3, nothing on the page said why)."""
        config = self.config
        differs = self.settings_error is None and config.head_learning_rate != config.lr
        self.head_lr_note.setVisible(differs)
        if differs and config.method == "setfit":  # the rate above is SetFit's phase's (train/setfit_phase.py)
            self.head_lr_note.setText(self.tr(
                "SetFit fine-tunes the encoder contrastively at the learning rate above; then, with the encoder "
                "frozen, the new head learns at {h}, its own rate.").format(h=f"{config.head_learning_rate:g}"))
        elif differs:
            self.head_lr_note.setText(self.tr(
                "The new head learns at {h}, its own rate (the learning rate above is the encoder's): with the "
                "encoder frozen or only its top layers learning, a head trains as a linear probe does.").format(
                h=f"{config.head_learning_rate:g}"))

    def _check_vocabulary(self, *_: object) -> None:
        """Can the chosen model read this project's text? Measured once the page is seen."""
        if self.isVisible() and self.session.has_project() and self.session.split_size("train"):
            model = self.config.model
            self.vocabulary_warning.request(model, self.session.examples("train"),
                                            (model, self.session.project.folder, self.session.split_size("train")))

    # --- settings kept per project (project.recent_settings["train"]) ------------------
    def settings(self) -> dict[str, Any]:
        """The form's choices as TrainConfig values (what the project keeps between sessions),
        plus whether the Automatic preset was on."""
        return {**{name: getattr(self.config, name) for name in FORM_FIELDS}, "automatic": self.form.is_auto(),
                "lora_rank": self.form.lora_spin.value(),  # kept while another mode greys it (not in the config then)
                "max_length_chosen": self.form.length_chosen, "mode_chosen": self.form.mode_chosen}

    def apply_settings(self, values: dict[str, Any]) -> None:
        """Restore :meth:`settings` (also in the older shape a project may hold: those kept
        their own recipe, so they come back as Custom)."""
        self.form.set_auto(values.get("automatic") is True)
        # the fields come back one by one: no choice is made between them (labels that changed
        # while the project was closed made the next restored field depart from a new choice,
        # and Automatic turned into Custom without a word), and the mode restored is not a pick
        self._adapting = True
        try:
            with self.form.applying():
                # the defaults first: a field the saved settings lack (kept before it existed) or hold a
                # refused value for kept the last project's (its Seeds 3, its SetFit) in this one
                defaults = TrainConfig()
                self.form.show_settings({name: getattr(defaults, name) for name in FORM_FIELDS})
                refused = self.form.show_settings(legacy_settings(values))
        finally:
            self._adapting = False
        # Automatic's own fitted length comes back as its choice, not as the person's (older
        # projects did not say: a length other than the default was then the person's)
        self.form.length_chosen = values.get("max_length_chosen", values.get("max_length") != TrainConfig().max_length) is True
        self.form.mode_chosen = values.get("mode_chosen") is True
        self.form.show_matching_preset()
        self._on_edited()
        if refused:
            note = self.tr("Saved training settings not restored, the defaults shown instead: {m}").format(
                m="; ".join(refused))
            self.monitor.log(note)
            self.status_message.emit(note)

    def _restore_settings(self, *_: object) -> None:
        self.form.set_kind(self.session.kind)
        saved = self.session.project.recent_settings.get("train")
        if isinstance(saved, dict):
            self.apply_settings(saved)
        else:  # a project without settings starts at the defaults, Automatic: the last project's
            # own (a POS project's 10 epochs at max length 32) were kept for the next one, and saved in it
            defaults = TrainConfig()
            self.form.show_settings({name: getattr(defaults, name) for name in FORM_FIELDS})
            self.form.set_auto(True)  # after the values: showing them marks the preset Custom
            self.form.length_chosen = self.form.mode_chosen = False
            self._on_edited()  # the new project's kind and labels

    def remember_settings(self) -> None:
        """Put the current choices into the project (written by its next save_ui_state())."""
        project = self.session.project
        if project is not None and not project.closed:
            project.recent_settings["train"] = self.settings()

    # --- trainable parameters ----------------------------------------------------------
    def _schedule_count(self) -> None:
        if self.settings_error is None and self.config != self._counted and self.isVisible():
            self._count_timer.start()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._data_stale:
            self._on_data_changed()
        self._schedule_count()  # counted when first seen: opening a project imports no torch
        self._check_vocabulary()

    def _count_parameters(self) -> None:
        if self._count_job is not None:  # one count at a time; the newest settings are counted next
            return
        config = self._counted = self.config
        self.params_label.setText(self.tr("counting…"))
        self._count_job = ThreadJob(lambda: _count_parameters(config), name="bertstudio-count", heavy=True)
        self._count_job.succeeded.connect(self._on_counted)
        self._count_job.failed.connect(self._on_count_failed)
        self._count_job.start()

    def _on_counted(self, counts: tuple[int, int] | None) -> None:
        self._count_job = None
        if counts is None:  # stopped while waiting for the imports (its project closed): counted when next asked
            self._counted = None
            return
        t, n = counts
        text = self.tr("{t:,} of {n:,} parameters ({p}%)").format(t=t, n=n, p=format_percent(t / max(n, 1), 1))
        if self._counted is not None and self._counted.method == "setfit":  # "Frozen encoder, 770 of 22.7M" beside
            # "contrastive fine-tuning of the sentence-transformer" read as a contradiction
            text += " " + self.tr("after SetFit's phase, which first tunes the whole encoder")
        self.params_label.setText(text)
        refused = self._refused
        if refused is not None and refused[0] == self._counted:  # the model takes them now (a folder fixed in place)
            self._refused = None
            if self.settings_error is refused[1]:
                self.settings_error = None
                self._say_head_lr()
                self._refresh_state()
        self._schedule_count()

    def _on_count_failed(self, exc: BaseException) -> None:
        self._count_job = None
        if isinstance(exc, ConfigError) and exc.where in _SETTINGS:  # a setting this model cannot take: the
            # run would refuse it after Start (and a run folder) with these words; they are said now
            self._refused = (self._counted, exc)
            self.params_label.setText(self.tr("not counted: these settings do not fit the model"))
            if self._counted == self.config:
                self.settings_error = exc
                self._say_head_lr()
                self._refresh_state()
        else:  # a Hub id not downloaded yet, a folder being typed: the run says what it finds
            self.params_label.setText(self.tr("counted when the model loads"))
            log.info("parameters not counted: %s", exc)
        self._schedule_count()

    # --- running --------------------------------------------------------------------
    def is_running(self) -> bool:
        return self.worker is not None and self.worker.is_running()

    def training_folders(self) -> set[str]:
        """The run folders of the run going on (its seeds' too); none between runs."""
        return {f for f in (self.run_dir, *self._seed_folders) if f} if self.is_running() else set()

    def cancel_and_wait(self, timeout_ms: int = 30000) -> bool:
        """For the main window's close handler: stop the run and wait for its thread. The run's
        end is not delivered once the window closes, so the folders of a run stopped before its
        first step are removed here (only while still empty, as on Cancel)."""
        if self.worker is None:
            return True
        ended = self.worker.cancel_and_wait(timeout_ms)
        if ended:
            self._drop_unused_run_folders()
        return ended

    def _refresh_state(self, *_: object) -> None:
        """Start only when a run could start: labelled rows enough to train on and settings
        TrainConfig accepts; its tooltip and the status line say what is missing."""
        running = self.is_running()
        missing = missing_for_training(self.session)
        if missing is None and self.settings_error is not None:
            missing = self.tr("Fix the setting first: {m}").format(m=self.setting_refusal(self.settings_error))
        self.start_button.setEnabled(missing is None and not running)
        self.start_button.setToolTip(missing or self.tr("Train a model on the labelled training rows (Ctrl+Return)"))
        has_train = self.session.has_project() and self.session.split_size("train") > 0
        self.export_button.setEnabled(has_train and self._export_worker is None)
        self.cancel_button.setEnabled(running)
        if not running:
            self.status_label.setText(missing or "")
            self.estimate_label.show_for(self.config if self.settings_error is None else None)

    def setting_refusal(self, exc: BertStudioError) -> str:
        """A setting the model cannot take, in the interface's words where the core gave its facts
        (train/preflight, tasks/model, TrainConfig's ranges, a typed number); any other refusal as
        the core says it (a learning rate of 0 read "lr: must be a finite number above 0 and below 1,
        got 0.0" inside the Chinese window); a project's refusal to write (read-only, a runs file) as
        run_words says it."""
        from bertstudio.ui.run_words import project_refusal

        facts = exc.facts
        written = project_refusal(exc)
        if written:
            return written
        if facts.get("refusal") == "out_of_range":
            return self._range_refusal(exc.where or "", facts)
        if facts.get("refusal") == "not_a_number":
            return self.tr("the {setting} {text} is not a number").format(setting=self._setting_name(exc.where or ""),
                                                                       text=facts["text"])
        picked = self._combination_refusal(facts)
        if picked:
            return picked
        if "value" not in facts or "limit" not in facts:
            return str(exc)
        if exc.where == "max_length":
            return self.tr("a maximum length of {value:,} tokens is more than this model takes ({limit:,} tokens): "
                           "choose {limit:,} or less").format(**facts)
        if exc.where == "mode":
            return self.tr("training the top {value} layers asks for more layers than this model has ({limit}): "
                           "choose {limit} or fewer").format(**facts)
        if exc.where == "lora_rank":
            return self.tr("a LoRA rank of {value:,} is more than this model's hidden size ({limit:,}): choose a "
                           "small rank (4-64)").format(**facts)
        return str(exc)

    def _combination_refusal(self, facts: dict[str, Any]) -> str | None:
        """A head, method and mode picked from the lists that cannot go together (TrainConfig's head
        checks, their facts), named as the lists name them: the core's "method: SetFit learns from
        single sentences through the embedding head (expected task sentence with head embedding…)"
        was said in English inside the Chinese window."""
        from bertstudio.ui.new_project_dialog import kind_name

        refusal, form = facts.get("refusal"), self.form

        def item(combo: QComboBox, key: str) -> str:
            found = combo.findData(key)
            return combo.itemText(found) if found >= 0 else key

        head, task = item(form.head_combo, str(facts.get("head"))), kind_name(str(facts.get("task")))
        if refusal == "head_needs_pairs":
            return self.tr("the head “{head}” reads text pairs, and a “{task}” project has none: choose another "
                           "head").format(head=head, task=task)
        if refusal == "head_per_example":
            return self.tr("the head “{head}” predicts one value per example, and a “{task}” project predicts one "
                           "per token or answer span: choose “{linear}”").format(
                head=head, task=task, linear=item(form.head_combo, "linear"))
        if refusal == "lora_with_embedding_head":
            return self.tr("LoRA cannot train the head “{head}”: choose “{full}”, “{frozen}” or “{top}” for it, or "
                           "the head “{linear}” or “{mlp}” for LoRA").format(
                head=head, full=item(form.mode_combo, "full"), frozen=item(form.mode_combo, "frozen"),
                top=item(form.mode_combo, "top"), linear=item(form.head_combo, "linear"),
                mlp=item(form.head_combo, "mlp"))
        if refusal == "setfit_needs_embedding":
            finetune = item(form.method_combo, "finetune")
            if not setfit_fits(str(facts.get("task"))):
                return self.tr("SetFit learns from single labelled sentences, and this is a “{task}” project: choose "
                               "the method “{finetune}”").format(task=task, finetune=finetune)
            return self.tr("SetFit trains the head “{embedding}” and no other: choose that head, or the method "
                           "“{finetune}”").format(embedding=item(form.head_combo, "embedding"), finetune=finetune)
        return None

    def _setting_name(self, name: str) -> str:
        """A TrainConfig setting as the page names it; one not named here, as the config spells it."""
        return {"lr": self.tr("learning rate"), "head_lr": self.tr("head learning rate"),
                "batch_size": self.tr("batch size"), "grad_accum": self.tr("gradient accumulation steps"),
                "epochs": self.tr("epochs"), "warmup_ratio": self.tr("warm-up ratio"),
                "max_length": self.tr("maximum length"), "seed": self.tr("seed"), "seeds": self.tr("number of seeds"),
                "lora_rank": self.tr("LoRA rank"), "eval_steps": self.tr("evaluation interval (steps)"),
                "hold_out": self.tr("held-out share"), "weight_decay": self.tr("weight decay"),
                "early_stopping_patience": self.tr("early stopping patience")}.get(name, name)

    def _range_refusal(self, name: str, facts: dict[str, Any]) -> str:
        """TrainConfig's range refusal (config.RANGES, its facts) in the page's words."""
        def number(x: float) -> str:
            return str(int(x)) if float(x).is_integer() else f"{x:g}"

        parts = []
        if facts.get("low") is not None:
            low = number(facts["low"])
            parts.append((self.tr("above {n}") if facts.get("low_open") else self.tr("at least {n}")).format(n=low))
        if facts.get("high") is not None:
            high = number(facts["high"])
            parts.append((self.tr("below {n}") if facts.get("high_open") else self.tr("at most {n}")).format(n=high))
        value = facts["value"]
        return self.tr("the {setting} {value} is out of range: it must be {what} {range}").format(
            setting=self._setting_name(name), value=number(value) if isinstance(value, (int, float)) else value,
            what=self.tr("a whole number") if facts.get("whole") else self.tr("a number"),
            range=self.tr(" and ").join(parts))

    def run_inputs(self, output_dir: str | None) -> tuple[TrainConfig, Any, Any, str | None]:
        """(config, labelled train rows, labelled dev rows or None, a note for the log). Without
        a labelled dev split, the config holds out part of the training rows (the core's rule)."""
        from bertstudio.train.sources import held_out_count, project_rows

        config = self.page_config()
        train_all = self.session.examples("train")
        train_rows = labelled_rows(train_all)
        if len(train_rows) == 0:
            raise ConfigError(self.tr("the training split has no labelled examples"), where=self.tr("train split"),
                              expected=self.tr("at least a few labelled rows"))
        dev_all = self.session.examples("dev") if self.session.split_size("dev") else None
        dev_rows = labelled_rows(dev_all)
        train = project_rows(train_all, train_rows)
        config = replace(config, output_dir=output_dir, logging_steps=self._logging_steps(config, len(train)),
                         hold_out=None if len(dev_rows) else HOLD_OUT)
        if len(dev_rows):
            return config, train, project_rows(dev_all, dev_rows), None
        n = held_out_count(len(train_rows), HOLD_OUT)
        note = self.tr("No dev split: holding out {n} of {m} labelled training examples ({p:.0%}, seed {s}) for "
                       "evaluation.").format(n=n, m=len(train_rows), p=HOLD_OUT, s=config.seed)
        return config, train, None, note

    @staticmethod
    def _logging_steps(config: TrainConfig, num_train: int) -> int:
        """Log often enough for a curve on a small project (~100 points per run), at most every 10 steps."""
        total = math.ceil(num_train / config.batch_size) * config.epochs
        return int(min(10, max(1, total // 100)))

    def _new_run_dir(self) -> str:
        project = self.session.project
        # the project folder is named after the project; a GLUE project by its task (sst2-full-lr2e-5-…)
        return str(project.new_run_dir(run_name(project.glue_task or project.folder.name, self.config)))

    def _record_label_ids(self, folder: str, config: TrainConfig) -> None:
        """The project's ids of the run's labels, kept with the run: Results, Review, the Data page's
        Disagrees filter and Compare read its predictions under today's names after renames."""
        project = self.session.project
        if config.labels and list(config.labels) == project.labels:
            try:
                record_label_ids(folder, project.labels, project.label_ids, project.uid)
            except OSError as exc:  # the run still trains; its names are then matched as they are
                log.warning("label ids not recorded in %s: %s", folder, exc)

    def start_training(self) -> None:
        if self.is_running() or not self.session.has_project():
            return
        self.error_label.hide()
        self.monitor.reset()
        # Automatic chooses for the rows this run trains on: labels of the last moments (the choice
        # waits for a pause in the key presses) or made during the last run were not seen yet
        self._state_timer.stop()
        self._on_data_changed()
        made = False  # a run folder made for this start: removed again, empty, if the start fails
        try:
            if self.settings_error is not None:  # also what the model refused while counting (top-N past its layers)
                raise self.settings_error
            config, train, dev, note = self.run_inputs(None)  # validate before a run folder exists
            self._seed_folders = []
            self.run_dir, made = self._new_run_dir(), True
            config = replace(config, output_dir=self.run_dir)
            self._record_label_ids(self.run_dir, config)
            folders = {config.seed: self.run_dir}
            # one job, a run folder per seed beside each other on the Runs page; made here, where a
            # folder that cannot be made (disk full, no permission) is said, not lost in a slot
            for seed in range(config.seed + 1, config.seed + config.seeds):
                folders[seed] = str(self.session.project.new_run_dir(f"{Path(self.run_dir).name}-seed{seed}"))
                self._seed_folders.append(folders[seed])
                self._record_label_ids(folders[seed], config)
        except BertStudioError as exc:
            if made:
                self._drop_unused_run_folders()  # the job's folders made before the one that failed
            self._show_error(self.setting_refusal(exc))
            return
        # a weighted training loss beside the evaluation's unweighted one: the curve says which it is
        self.monitor.set_class_weighted(config.class_weight != "none")
        self.remember_settings()
        try:
            self.session.project.save_ui_state()  # a crash mid-run still keeps what was chosen
        except BertStudioError as exc:
            log.warning("training settings not saved: %s", exc)
        if note:
            self.monitor.log(note)
        self.monitor.log(self.tr("Run folder: {d}").format(d=self.run_dir))
        # the worker first imports torch and reads the rows (seconds): the bar says so at once
        self.monitor.on_phase(PhaseChanged("starting"))
        self._seeds_result = None
        if config.seeds > 1:
            self.monitor.log(self.tr("{n} seeds ({a} to {b}), one run each, one after another.").format(
                n=config.seeds, a=config.seed, b=config.seed + config.seeds - 1))
            worker = TrainingWorker(config, train, dev, train_fn=self._seeds_job(folders))
        else:
            worker = TrainingWorker(config, train, dev, warm=getattr(self.session, "warm", None))  # kept between runs
        self._launch(worker)

    def resume_run(self, folder: str | Path) -> str | None:
        """Continue one of the project's stopped runs (cancelled, or interrupted by a closed window or
        a crash) from its last checkpoint, with its own settings, on the project's labelled rows: the
        reason it cannot (None: it goes on here, its curves joined to what it drew before). The rule
        is rundir.project_resume_problem, which the Runs page's button follows too (rows or labels
        changed since the stop, a base model gone, no checkpoint); the engine checks the rows again."""
        from bertstudio.train.rundir import CHECKPOINTS, project_resume_problem, read_config
        from bertstudio.train.sources import resume_rows
        from bertstudio.ui.run_words import resume_refusal

        if not self.session.has_project():
            return self.tr("No project is open.")
        if self.is_running():
            return self.tr("A run is training now: wait for it to end, or cancel it, then resume.")
        folder = Path(folder)
        try:
            why = project_resume_problem(folder, self.session.project)
            config = read_config(folder) if why is None else None
        except (BertStudioError, OSError) as exc:
            why = str(exc)
        if why is not None or config is None:  # the core's reason in the user's words (rundir.Said)
            return self.tr("{run} cannot be resumed here: {why}").format(run=folder.name, why=resume_refusal(why or ""))
        train, dev = resume_rows(self.session.project, config)  # the rows the rule above checked
        # its own settings as it recorded them: a resume with others is another run (the CLI refuses it too)
        config = replace(config, output_dir=str(folder), resume_from=str(folder / CHECKPOINTS / "last"), overwrite=False)
        self.error_label.hide()
        self.monitor.reset()
        self.monitor.set_class_weighted(config.class_weight != "none")
        self.run_dir, self._seed_folders, self._seeds_result = str(folder), [], None
        self._resuming = True
        self.monitor.log(self.tr("Resuming {run} from its last checkpoint, with its own settings.").format(run=folder.name))
        self.monitor.on_phase(PhaseChanged("starting"))
        self._launch(TrainingWorker(config, train, dev, replay=folder))  # its history drawn first, then the rest
        return None

    def _launch(self, worker: TrainingWorker) -> None:
        """Connect a run's worker to the page and start it (a new run, or a resumed one)."""
        # Bound methods, not lambdas: Qt drops these connections if the page is deleted first.
        worker.started.connect(self.monitor.on_started)
        worker.resumed.connect(self.monitor.on_resumed)
        worker.step_logged.connect(self.monitor.on_steps)
        worker.evaluated.connect(self.monitor.on_evaluated)
        worker.warned.connect(self.monitor.on_warned)
        worker.phase_changed.connect(self.monitor.on_phase)
        worker.phase_changed.connect(self._on_phase)
        worker.started.connect(self._on_started)
        worker.resumed.connect(self._on_started)
        worker.ended.connect(self._on_ended)
        self.worker = worker
        self._setfit_phase = None
        self._stepping = False
        self.estimate_label.hold(True)  # a calibration beside the run would slow it and time it
        worker.start()
        from bertstudio.ui import preload

        # while torch & co still load no step is near: the line promised one ("Cancel stops after the current step")
        self.status_label.setText(self._training_text() if preload.is_ready() else self._loading_text())
        pressed = self.start_button.hasFocus()
        self._refresh_state()
        if pressed:  # the disabled Start handed its focus to Export run…, not to the way to stop
            self.cancel_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.run_started.emit(self.run_dir)

    # --- export -------------------------------------------------------------------
    def export_run_to(self, folder: str | Path, *, overwrite: bool = False) -> Path:
        """Write the run these settings would start (same labelled train rows, same evaluation
        rows) as a self-contained folder: data files, run.toml and a README with the command.
        A model from a local folder is copied in, so the folder runs on a machine without it.
        Synchronous (the core's export_run); the page's button runs :meth:`_export_job` on a worker."""
        return self._export_job(folder, overwrite=overwrite)(lambda *_: None, threading.Event())

    def _export_job(self, folder: str | Path, *, overwrite: bool = False) -> Any:
        """The export as a job: the rows are read here (the project belongs to the GUI thread), the
        files and the model copy are written by the job (a 1.3 GB model took seconds on the GUI thread)."""
        from bertstudio.train.export import export_run

        config, train, dev, _note = self.run_inputs("run")
        copy_model = bool(config.model) and Path(str(config.model)).expanduser().is_dir()
        return lambda _report, _cancel: export_run(config, {"train": train, "dev": dev}, folder, copy_model=copy_model,
                                                   overwrite=overwrite)

    def _default_export_folder(self, parent: Path) -> Path:
        stem = re.sub(r"[^\w.-]+", "-", f"{self.session.project.name or 'bertstudio'}-run").strip("-")
        candidate, n = parent / stem, 2
        while candidate.exists():
            candidate, n = parent / f"{stem}-{n}", n + 1
        return candidate

    def export_run(self) -> Any:
        """Ask for a folder, then export there on a worker (the JobWorker, or None when nothing
        started). A chosen folder that is not empty gets a new sub-folder (``<project>-run``), so
        nothing already there is overwritten. :attr:`run_exported` says where it went."""
        if not self.session.has_project() or self._export_worker is not None:
            return None
        start = str(Path(self.session.project.folder).parent)
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Export run to folder"), start)
        if not chosen:
            return None
        target = Path(chosen)
        if target.exists() and any(target.iterdir()):
            target = self._default_export_folder(target)
        self.error_label.hide()
        try:
            job = self._export_job(target)
        except (BertStudioError, OSError) as exc:
            self._on_export_failed(str(exc))
            return None
        from bertstudio.ui.jobs import JobWorker

        worker = JobWorker(job, name="bertstudio-export-run")
        worker.finished.connect(self._on_run_exported)
        worker.failed.connect(self._on_export_failed)
        worker.cancelled.connect(lambda: self._on_export_failed(self.tr("cancelled")))
        self._export_worker = worker
        self.export_button.setEnabled(False)
        self.status_label.setText(self.tr("Exporting the run to {d}…").format(d=target))
        worker.start()
        return worker

    def _on_run_exported(self, out: Any) -> None:
        self._export_worker = None
        self._refresh_state()
        self.status_label.setText(self.tr("Run exported to {d}. Start it there with: bertstudio train --config run.toml").format(d=out))
        self.run_exported.emit(str(out))
        self.export_ended.emit()

    def _on_export_failed(self, message: str) -> None:
        self._export_worker = None
        self._refresh_state()
        self.status_label.setText("")
        self.error_label.setText(self.tr("Export failed: {m}").format(m=message))
        self.error_label.show()
        self.export_ended.emit()

    def is_exporting(self) -> bool:
        return self._export_worker is not None

    def _seeds_job(self, folders: dict[int, str]) -> Any:
        """The worker's train function for several seeds (train/seeds.train_seeds); its summary
        is kept for :meth:`_on_ended` (read on the GUI thread after the job has returned)."""
        def run(config: TrainConfig, train_set: Any, eval_set: Any, *, callbacks: Any, cancel: Any) -> Any:
            from bertstudio.train.seeds import train_seeds

            result = train_seeds(config, train_set, eval_set, callbacks=callbacks, cancel=cancel, folder_for=folders.get)
            self._seeds_result = result
            return result.results[-1] if result.results else result
        return run

    def cancel_training(self) -> None:
        if self.worker is not None:
            setfit = self._setfit_phase
            if setfit is not None and setfit[0] > 0 and not self._confirm_stop_setfit(*setfit):
                return  # the person chose to let the contrastive phase finish
            self.cancel()

    def cancel(self) -> None:
        """Stop the run without asking (the main window asked, to leave the project); it ends later
        (``run_ended``), after the current step or evaluation batch; while the libraries and the model
        still load, before any step (it read "Cancelling after the current step…" there, of a step that
        would never run)."""
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            if self._stepping:
                said = self.tr("Cancelling after the current step…")
            elif self._resuming:
                said = self.tr("Cancelling: the resume stops before the run goes on…")
            else:
                said = self.tr("Cancelling: the run stops before its first step…")
            self.status_label.setText(said)

    def _confirm_stop_setfit(self, done: int, total: int) -> bool:
        """Cancel during SetFit's contrastive phase keeps nothing (a model is saved only once the
        head trains on it): the person says so knowing how far it got."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Stop the SetFit phase?"),
                          self.tr("SetFit has run {done} of {total} contrastive steps. Stopping now keeps nothing of "
                                  "them: the run saves a model only once its head has trained.").format(done=done, total=total),
                          parent=self)
        stop = box.addButton(self.tr("Stop and discard"), QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton(self.tr("Keep training"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.exec()
        return box.clickedButton() is stop

    def _on_phase(self, ev: PhaseChanged) -> None:
        if ev.phase == "setfit":  # kept through the phases after it (probing, tokenising) until the steps start
            self._setfit_phase = (ev.done, ev.total)
        if ev.phase == "reusing_model":  # why this start is quick (session.warm, train/warm.py)
            self.status_message.emit(self.tr("Warm start: reusing the model loaded by an earlier run in this session"))

    def _training_text(self) -> str:
        return self.tr("Training… the window stays usable; Cancel stops after the current step.")

    def _loading_text(self) -> str:
        return self.tr("Loading the training libraries… the window stays usable; Cancel stops the run before it "
                       "starts.")

    def _on_started(self, ev: RunStarted) -> None:
        self._setfit_phase = None  # the engine's steps: Cancel stops after one, keeping a resumable checkpoint
        self._stepping = True
        if self.status_label.text() == self._loading_text():  # the libraries are in: the steps begin
            self.status_label.setText(self._training_text())
        self.session.notify_runs_changed()  # its folder holds config.toml and a start now: listed "running"
        t, n = ev.trainable_params, ev.total_params
        if n:
            self.params_label.setText(self.tr("{t:,} of {n:,} parameters ({p}%), as built").format(
                t=t, n=n, p=format_percent(t / n, 1)))  # a head alone on a frozen encoder: 0.003%, not 0.0%

    def _on_ended(self, ev: RunFinished) -> None:
        from bertstudio.ui.run_words import data_change_refusal, seeds_summary

        facts = getattr(self.worker, "failure_facts", None) or {}
        self.monitor.on_ended(ev)
        self.worker = None
        resumed, self._resuming = self._resuming, False
        self.estimate_label.hold(False)
        self._on_data_changed()  # the labels made while it trained: the form shows what the next Start uses
        self._refresh_state()
        if ev.status == "failed":
            if not resumed:  # (a resumed run's folder holds the run: never empty)
                self._drop_unused_run_folders()  # refused before writing (a model refused, no such device): none kept
            # a resume refused on changed project rows in the user's words (the engine's facts), else as the core says
            self._show_error(data_change_refusal(facts) or ev.message or self.tr("Training failed."))
        elif ev.status == "cancelled" and ev.step == 0 and resumed:  # stopped while loading: the run as it was
            self.status_label.setText(self.tr("Resume cancelled before the run went on: {run} is as it was, and can be "
                                              "resumed again.").format(run=Path(self.run_dir or "").name))
        elif ev.status == "cancelled" and ev.step == 0:  # during loading, SetFit or the probe: nothing saved
            self._drop_unused_run_folders()
            self.status_label.setText(self.tr("Run cancelled before its first step: nothing was trained or saved."))
        else:
            self.status_label.setText(self.tr("Run finished.") if ev.status == "finished"
                                      else self.tr("Run cancelled; the model saved so far is usable."))
        if self._seeds_result is not None:  # several seeds: how much the score moved
            summary = seeds_summary(self._seeds_result)  # in the UI's language (SeedsResult.summary is the CLI's)
            self.monitor.log(summary)
            if ev.status == "finished":
                self.status_label.setText(summary)
            else:  # stopped in a seed: the cancel said beside how far the job got; seeds never started leave no folder
                self.status_label.setText(join_sentences((self.status_label.text(), summary)))
                self._drop_unused_run_folders()
        self.session.notify_runs_changed()
        self.run_ended.emit(ev.output_dir or self.run_dir or "", ev.status)

    def _on_project_closed(self) -> None:
        """The last project's run (ended: the main window stops one first) is not shown over the next."""
        if self._count_job is not None:  # a count still waiting for the imports kept a Quit's process alive
            self._count_job.cancel_event.set()
        if self.is_running():
            return
        self.monitor.reset()
        self.status_label.clear()
        self.error_label.hide()
        self.run_dir, self._seed_folders = None, []

    def _drop_unused_run_folders(self) -> None:
        """Remove the folders this page made for a run cancelled before its first step, or refused
        before it wrote anything, if still empty (the Runs page would list them as runs of unknown
        outcome); never one with files."""
        for folder in [self.run_dir, *self._seed_folders]:
            if folder:
                unstarted_label_ids(folder)  # what this page wrote there itself
                try:
                    Path(folder).rmdir()  # fails on a folder holding anything: left as it is
                except OSError:
                    continue
                self.monitor.log(self.tr("Removed the empty run folder {d}").format(d=folder))
        self._seed_folders = []

    def _show_error(self, message: str) -> None:
        self.error_label.setText(self.tr("Training could not run: {m}").format(m=message))
        self.error_label.show()
