"""The Train page's settings form: the widgets for the TrainConfig fields a person picks.

The form shows and edits TrainConfig values; it keeps no defaults of its own (a
fresh form shows ``TrainConfig()``'s) and no validation of its own (the dataclass
checks). :meth:`TrainSettingsForm.settings` reads the widgets as TrainConfig field
values; :meth:`TrainSettingsForm.show_settings` puts such values back. ``edited``
fires on any change a person (or a preset) makes.
"""

from __future__ import annotations

import contextlib

import logging
from dataclasses import fields
from typing import Any, Iterator

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QWidget,
)

from bertstudio.errors import ConfigError
from bertstudio.train.config import (
    CLASS_WEIGHTS, HEADS, METHODS, PRECISIONS, TrainConfig, check_setting, heads_for, setfit_fits, weighs_classes,
)
from bertstudio.ui import theme
from bertstudio.ui.spin_range import DecimalSpinBox, NumberSpinBox, RangeNotes

log = logging.getLogger(__name__)

DEFAULT_MODEL = "default"
# The TrainConfig fields the form shows (the rest come from the project or keep their defaults).
FORM_FIELDS = ("model", "head", "method", "mode", "lora_rank", "batch_size", "lr", "epochs", "warmup_ratio",
               "class_weight", "max_length", "seed", "seeds", "device", "precision")
# What the "Automatic" preset sets (train/small_data.adapt); editing one of these makes the preset Custom.
AUTO_FIELDS = ("head", "method", "batch_size", "lr", "epochs", "warmup_ratio", "class_weight")
AUTO_UNSEEN = ("eval_steps", "keep_tuning")  # also chosen by it, without a field on the form (said in its reason)
AUTO = "auto"
# BERT paper, appendix A.3: batch {16, 32}, lr {5e-5, 4e-5, 3e-5, 2e-5}, epochs {2, 3, 4}, warmup 10%.
PAPER_BATCHES = (16, 32)
PAPER_LRS = ("5e-5", "4e-5", "3e-5", "2e-5")
PAPER_EPOCHS = (2, 3, 4)
PAPER_WARMUP = 0.1
PAPER_CLASS_WEIGHT = "none"  # the paper's loss is plain cross-entropy: every row counts once


class TrainSettingsForm(QGroupBox):
    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Settings"), parent)
        self.model_picker = QComboBox(objectName="modelPicker", editable=True)
        self.model_picker.addItem(self.tr("all-MiniLM-L6-v2 (bundled)"), DEFAULT_MODEL)  # read whole at 900 px
        self.model_picker.setToolTip(self.tr("The bundled model, a local model folder, or a Hugging Face Hub id typed in"))
        self.model_picker.lineEdit().setPlaceholderText(self.tr("folder or Hub id, e.g. bert-base-uncased"))
        self.model_help = QLabel(self.tr(
            "A Hugging Face Hub id (downloaded once, then read from the local cache) or a model folder on this "
            "computer. To work offline, pick a folder, or a Hub id already downloaded."), objectName="modelHelp",
            wordWrap=True)
        theme.set_tone(self.model_help, "muted")
        browse = QPushButton(self.tr("Fol&der…"), objectName="browseModelButton")
        browse.clicked.connect(self._browse_model)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_picker, 1)
        model_row.addWidget(browse)

        self.head_combo = QComboBox(objectName="headCombo")
        for text, key in zip((self.tr("Linear on [CLS] (BERT paper)"), self.tr("MLP (hidden layer + output)"),
                              self.tr("Sentence embedding (mean-pooled)"),
                              self.tr("Siamese: (u, v, |u−v|, u·v)")), HEADS):
            self.head_combo.addItem(text, key)
        self.method_combo = QComboBox(objectName="methodCombo")
        for text, key in zip((self.tr("Fine-tune"), self.tr("SetFit first, then the head")), METHODS):
            self.method_combo.addItem(text, key)
        self.mode_combo = QComboBox(objectName="modeCombo")
        for text, key in ((self.tr("Full fine-tuning"), "full"), (self.tr("Frozen encoder"), "frozen"),
                          (self.tr("Top N layers"), "top"), (self.tr("LoRA"), "lora")):
            self.mode_combo.addItem(text, key)
        # the choices read whole at 900 px ("Frozen encoder (f", "Linear on the sentence embedding (mea")
        self.mode_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        widest = max(self.mode_combo.fontMetrics().horizontalAdvance(self.mode_combo.itemText(i))
                     for i in range(self.mode_combo.count()))
        self.mode_combo.setMinimumWidth(widest + 40)  # the text, the arrow and the frame (its hint fell 3 px short)
        self.top_spin = NumberSpinBox(objectName="topLayersSpin", minimum=1, maximum=48, value=2)
        self.lora_spin = NumberSpinBox(objectName="loraRankSpin", minimum=1, maximum=256)
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.mode_combo)
        mode_row.addStretch(1)
        mode_row.addWidget(QLabel(self.tr("N")))
        mode_row.addWidget(self.top_spin)
        mode_row.addWidget(QLabel(self.tr("rank")))
        mode_row.addWidget(self.lora_spin)

        self.preset_combo = QComboBox(objectName="presetCombo")
        self.preset_combo.addItem(self.tr("Automatic: fits the labelled data"), AUTO)
        self.preset_combo.addItem(self.tr("Custom"), None)
        for batch in PAPER_BATCHES:
            for lr in PAPER_LRS:
                for epochs in PAPER_EPOCHS:
                    self.preset_combo.addItem(self.tr("BERT paper: batch {b}, lr {lr}, {e} epochs").format(b=batch, lr=lr, e=epochs),
                                              f"{batch}|{lr}|{epochs}")
        self.preset_combo.activated.connect(self._apply_preset)
        self.batch_combo = QComboBox(objectName="batchCombo", editable=True)
        self.batch_combo.addItems([str(b) for b in PAPER_BATCHES])
        self.lr_combo = QComboBox(objectName="lrCombo", editable=True)
        self.lr_combo.addItems(PAPER_LRS)
        # up to what TrainConfig takes: Automatic asks for 150+ epochs when a few labels fill one batch
        self.epochs_spin = DecimalSpinBox(objectName="epochsSpin", minimum=0.01, maximum=10_000, decimals=2)
        self.warmup_spin = DecimalSpinBox(objectName="warmupSpin", minimum=0, maximum=0.99, singleStep=0.05, decimals=2)
        self.max_len_spin = NumberSpinBox(objectName="maxLengthSpin", minimum=8, maximum=4096)
        self.class_weight_combo = QComboBox(objectName="classWeightCombo")
        for text, key in zip((self.tr("None"), self.tr("Balanced (inverse class frequency)")), CLASS_WEIGHTS):
            self.class_weight_combo.addItem(text, key)
        self.seed_spin = NumberSpinBox(objectName="seedSpin", minimum=0, maximum=2**31 - 1)
        self.seeds_spin = NumberSpinBox(objectName="seedsSpin", minimum=1, maximum=20)
        self.seeds_spin.setSuffix(self.tr(" run(s)"))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed_spin, 1)
        seed_row.addWidget(QLabel(self.tr("seeds")))
        seed_row.addWidget(self.seeds_spin)
        self.device_combo = QComboBox(objectName="deviceCombo", editable=True)
        self.device_combo.addItems(["auto", "cpu", "cuda", "mps"])
        self.precision_combo = QComboBox(objectName="precisionCombo")
        self.precision_combo.addItems(list(PRECISIONS))
        self.params_label = QLabel(objectName="trainableParamsLabel", wordWrap=True)
        self.auto_label = QLabel(objectName="autoReasonLabel", wordWrap=True)
        theme.set_tone(self.auto_label, "muted")
        self._auto_values: dict[str, Any] = {}
        self._auto_unseen: dict[str, Any] = {}  # chosen settings the form has no field for
        self._auto_reason: str | None = None
        self.mode_chosen = False  # the person picked the mode while Automatic: the choice keeps it
        self.length_chosen = False  # the person set the max length: Automatic no longer fits it to the texts

        for combo in (self.model_picker, self.head_combo, self.method_combo, self.mode_combo, self.preset_combo,
                      self.batch_combo, self.lr_combo, self.class_weight_combo, self.device_combo,
                      self.precision_combo):
            # Long item texts (model paths, preset names) must not widen the form past the curves' room.
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        form = QFormLayout(self)
        for text, widget in ((self.tr("Model"), model_row), ("", self.model_help), (self.tr("Preset"), self.preset_combo),
                             ("", self.auto_label), (self.tr("Head"), self.head_combo),
                             (self.tr("Method"), self.method_combo), (self.tr("What learns"), mode_row),
                             (self.tr("Batch size"), self.batch_combo), (self.tr("Learning rate"), self.lr_combo),
                             (self.tr("Epochs"), self.epochs_spin), (self.tr("Warm-up ratio"), self.warmup_spin),
                             (self.tr("Class weighting"), self.class_weight_combo),
                             (self.tr("Max length"), self.max_len_spin), (self.tr("Seed"), seed_row),
                             (self.tr("Device"), self.device_combo), (self.tr("Precision"), self.precision_combo),
                             (self.tr("Trainable"), self.params_label)):
            form.addRow(text, widget)
        self.setToolTip(self.tr("BERT paper grid: batch 16/32, lr 5e-5…2e-5, 2–4 epochs"))
        self.preset_combo.setToolTip(self.toolTip())
        self._weighting_help = self.tr(
            "Balanced: each training row's loss is weighted by the inverse of its class's share of the rows, so a "
            "rare class counts as much as a common one.")
        self.class_weight_combo.setToolTip(self._weighting_help)
        self._help_texts()
        # a number typed outside a field's range was put back when the field was left, with no word
        self.range_note = QLabel(objectName="rangeNote", wordWrap=True)
        theme.set_tone(self.range_note, "error")
        self.range_note.hide()
        form.addRow("", self.range_note)
        self.range_notes = RangeNotes({
            self.top_spin: self.tr("number of top layers"), self.lora_spin: self.tr("LoRA rank"),
            self.epochs_spin: self.tr("epochs"), self.warmup_spin: self.tr("warm-up ratio"),
            self.max_len_spin: self.tr("maximum length"), self.seed_spin: self.tr("seed"),
            self.seeds_spin: self.tr("number of seeds")}, self)
        self.range_notes.refused.connect(self._on_range_refused)
        self._range_spin: Any = None
        self.show_settings({name: getattr(TrainConfig(), name) for name in FORM_FIELDS})  # the one set of defaults
        self.model_picker.lineEdit().setCursorPosition(0)  # show the start of a long name, not its end

        # first: the Automatic choice must know the mode is the person's before edited asks it
        self.mode_combo.currentIndexChanged.connect(self._mode_picked)
        self.max_len_spin.valueChanged.connect(self._length_picked)
        self.top_spin.valueChanged.connect(self._mode_picked)
        for combo in (self.model_picker, self.batch_combo, self.lr_combo, self.device_combo):
            combo.editTextChanged.connect(self.edited)
        for combo in (self.head_combo, self.method_combo, self.mode_combo, self.class_weight_combo,
                      self.precision_combo):
            combo.currentIndexChanged.connect(self.edited)

        for spin in (self.top_spin, self.lora_spin, self.epochs_spin, self.warmup_spin, self.max_len_spin, self.seed_spin,
                     self.seeds_spin):
            spin.valueChanged.connect(self.edited)
        self.mode_combo.currentIndexChanged.connect(self._update_mode_widgets)
        self._update_mode_widgets()
        self._applying = False
        self.edited.connect(self._sync_preset)

    def _on_range_refused(self, spin: Any, text: str) -> None:
        """The range a field put a typed number back into, under the form (and in the field's tooltip)."""
        if text:
            self._range_spin = spin
            self.range_note.setText(text)
            self.range_note.show()
        elif spin is self._range_spin:
            self._range_spin = None
            self.range_note.hide()

    def _help_texts(self) -> None:
        """Each widget's tooltip is its setting's help text (train/config.py, translated), where it has none."""
        from PySide6.QtCore import QCoreApplication

        helps = {f.name: QCoreApplication.translate("TrainConfig", f.metadata.get("help", "")) for f in fields(TrainConfig)}
        for name, widget in (("head", self.head_combo), ("method", self.method_combo), ("mode", self.mode_combo),
                             ("batch_size", self.batch_combo),
                             ("lr", self.lr_combo), ("epochs", self.epochs_spin), ("warmup_ratio", self.warmup_spin),
                             ("max_length", self.max_len_spin), ("seed", self.seed_spin), ("seeds", self.seeds_spin),
                             ("device", self.device_combo),
                             ("precision", self.precision_combo), ("lora_rank", self.lora_spin)):
            if not widget.toolTip():
                widget.setToolTip(helps[name])

    # --- the model ----------------------------------------------------------------
    def model_source(self) -> str:
        idx = self.model_picker.currentIndex()
        text = self.model_picker.currentText().strip()
        if idx >= 0 and text == self.model_picker.itemText(idx) and self.model_picker.itemData(idx):
            return str(self.model_picker.itemData(idx))
        return text or DEFAULT_MODEL

    def set_model_source(self, source: str) -> None:
        if source == DEFAULT_MODEL:
            self.model_picker.setCurrentIndex(0)
        else:
            self.model_picker.setEditText(source)

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

    # --- presets --------------------------------------------------------------------
    def is_auto(self) -> bool:
        """The Automatic preset: the page fills the recipe from the data (train/small_data.py)."""
        return self.preset_combo.currentData() == AUTO

    def set_auto(self, on: bool) -> None:
        self.preset_combo.setCurrentIndex(self.preset_combo.findData(AUTO) if on else self.preset_combo.findData(None))
        self.auto_label.setVisible(on)

    def show_matching_preset(self) -> None:
        """Restored settings that are a BERT-paper preset say so (a project keeps the values, not
        the preset's name: the preset came back as Custom). Nothing in the form changes."""
        if self.is_auto() or self.method_combo.currentData() != "finetune":
            return
        # the preset fine-tunes the whole encoder under a head on [CLS] (choosing it sets those): top-1,
        # LoRA or an embedding head with the paper's numbers are Custom, not it
        if self.mode() != "full" or self.head_combo.currentData() not in ("linear", "mlp"):
            return
        for index in range(self.preset_combo.count()):
            preset = self.preset_combo.itemData(index)
            if not preset or preset == AUTO:
                continue
            if self._holds(preset):
                blocked = self.preset_combo.blockSignals(True)  # shown, not applied: the values are already these
                self.preset_combo.setCurrentIndex(index)
                self.preset_combo.blockSignals(blocked)
                self.auto_label.setVisible(False)
                return

    def add_note(self, widget: QWidget) -> None:
        """A note under the Automatic preset's reason (the page's time estimate), for every preset."""
        layout = self.layout()
        row, _role = layout.getWidgetPosition(self.auto_label)
        layout.insertRow(row + 1, "", widget)

    def show_auto(self, values: dict[str, Any], reason: str | None, said: str | None = None) -> None:
        """Put the Automatic choice into the widgets and say why (the page computes it):
        ``reason`` in English for the run's record, ``said`` in the user's language."""
        with self.applying():
            self.show_settings({k: values[k] for k in (*AUTO_FIELDS, "mode", "max_length") if k in values})
        self._auto_values = {k: values[k] for k in AUTO_FIELDS if k in values}
        self._auto_unseen = {k: values[k] for k in AUTO_UNSEEN if k in values}
        self._auto_reason = reason
        self.auto_label.setText(said or reason or self.tr("The BERT paper's recipe: the labelled set is large enough for it."))
        self.auto_label.setVisible(True)

    @contextlib.contextmanager
    def applying(self) -> Iterator[None]:
        """Fields set by the program (restored settings): not a person's choice of mode or length,
        and no departure from the preset shown."""
        self._applying = True
        try:
            yield
        finally:
            self._applying = False

    def _mode_picked(self, *_: object) -> None:
        if not self._applying:  # a person (or a restored setting), not the Automatic choice
            self.mode_chosen = True

    def _length_picked(self, *_: object) -> None:
        if not self._applying:  # a person (a restored setting says its own, see the page's apply_settings)
            self.length_chosen = True

    def _apply_preset(self, index: int) -> None:
        preset = self.preset_combo.itemData(index)
        self.auto_label.setVisible(preset == AUTO)
        if preset == AUTO:
            self.mode_chosen = False  # a max length the person set stays theirs (Automatic before it never set one)
            # the last choice is stale (made before the person left Automatic): _sync_preset compared the form
            # with it, found the paper's or the typed values, and turned the preset back to Custom before the
            # page could choose again
            self._auto_values, self._auto_unseen, self._auto_reason = {}, {}, None
            self.edited.emit()  # the page fills it in
        elif preset:  # "batch|lr|epochs" (a string survives QVariant round trips; a tuple may not)
            batch, lr, epochs = str(preset).split("|")
            self._applying = True  # its four fields change one by one: not a departure from it
            try:
                self.batch_combo.setCurrentText(batch)
                self.lr_combo.setCurrentText(lr)
                self.epochs_spin.setValue(float(epochs))
                self.warmup_spin.setValue(PAPER_WARMUP)
                self._set_class_weight(PAPER_CLASS_WEIGHT)
                # the paper's recipe fine-tunes the whole encoder under a head on [CLS]: not the small-data
                # choice's SetFit and frozen encoder (an MLP head, or a mode the person picked, stays)
                self.method_combo.setCurrentIndex(self.method_combo.findData("finetune"))
                if self.head_combo.currentData() != "mlp":
                    self.head_combo.setCurrentIndex(self.head_combo.findData("linear"))
                if not self.mode_chosen:
                    self.mode_combo.setCurrentIndex(self.mode_combo.findData("full"))
            finally:
                self._applying = False

    def _sync_preset(self) -> None:
        """The combo says "Custom" as soon as a field departs from the chosen preset."""
        preset = self.preset_combo.currentData()
        if self._applying or not preset:
            return
        if preset == AUTO:
            try:
                now = self.settings()
            except ConfigError:  # text that is no number departs from the choice
                now = {}
            if any(now.get(k) != v for k, v in self._auto_values.items()):
                self.set_auto(False)
            return
        if not self._holds(preset):
            self.set_auto(False)  # Custom

    def _holds(self, preset: str) -> bool:
        """Whether the form holds the BERT-paper ``preset`` ("batch|lr|epochs", warm-up 10%)."""
        batch, lr, epochs = str(preset).split("|")
        try:
            return (int(self.batch_combo.currentText()) == int(batch) and float(self.lr_combo.currentText()) == float(lr)
                    and self.epochs_spin.value() == float(epochs) and self.warmup_spin.value() == PAPER_WARMUP
                    and self.class_weight_combo.currentData() == PAPER_CLASS_WEIGHT)
        except ValueError:  # text that is no number departs from any preset
            return False

    # --- values ----------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The form as TrainConfig field values; ConfigError (naming the setting) for text that
        is no number. Ranges and spellings are the dataclass' to check."""
        return {
            "model": None if self.model_source() == DEFAULT_MODEL else self.model_source(),
            "head": self.head_combo.currentData(), "method": self.method_combo.currentData(), "mode": self.mode(),
            # the greyed rank of another mode trains nothing: not sent, so the run records the default and two
            # otherwise equal full fine-tunes do not differ in Compare
            **({"lora_rank": self.lora_spin.value()} if self.mode_combo.currentData() == "lora" else {}),
            "batch_size": _number(self.batch_combo.currentText(), int, "batch_size", self.tr("batch size")),
            "lr": _number(self.lr_combo.currentText(), float, "lr", self.tr("learning rate")),
            "epochs": self.epochs_spin.value(), "warmup_ratio": self.warmup_spin.value(),
            "class_weight": self.class_weight_combo.currentData(),
            "max_length": self.max_len_spin.value(), "seed": self.seed_spin.value(), "seeds": self.seeds_spin.value(),
            "device": self.device_combo.currentText().strip() or "auto", "precision": self.precision_combo.currentText(),
            "auto_reason": self._auto_reason if self.is_auto() else None,
            **(self._auto_unseen if self.is_auto() else {}),
        }

    def set_kind(self, kind: str | None) -> None:
        """Offer the heads and methods that fit the project's task kind; the others stay listed,
        greyed, saying why (an MLP head on a QA project was accepted, recorded, and built linear)."""
        from bertstudio.data.kinds import get_spec

        per_token = kind is not None and get_spec(kind).sentence_head is None
        heads = heads_for(kind) if kind else HEADS
        self.head_combo.setItemText(0, self.tr("Linear on each token (BERT paper)") if per_token
                                    else self.tr("Linear on [CLS] (BERT paper)"))
        why_not = (self.tr("Tagging and QA predict per token: their head is a linear layer on every token")
                   if per_token else self.tr("Reads text pairs: for sentence-pair and score projects"))
        for i, key in enumerate(HEADS):
            item = self.head_combo.model().item(i)
            item.setEnabled(key in heads)
            item.setToolTip("" if key in heads else why_not)
        if self.head_combo.currentData() not in heads:
            self.head_combo.setCurrentIndex(self.head_combo.findData("linear"))
        setfit = kind is None or setfit_fits(kind)
        item = self.method_combo.model().item(self.method_combo.findData("setfit"))
        item.setEnabled(setfit)
        item.setToolTip("" if setfit else self.tr("SetFit learns from single labelled sentences: for sentence "
                                                   "classification"))
        if not setfit and self.method_combo.currentData() == "setfit":
            self.method_combo.setCurrentIndex(self.method_combo.findData("finetune"))
        weighs = kind is None or weighs_classes(kind)
        for i, key in enumerate(CLASS_WEIGHTS):
            self.class_weight_combo.model().item(i).setEnabled(weighs or key == "none")
        if not weighs:  # TrainConfig refuses weighting for them: "none", the one setting they run with
            self._set_class_weight("none")
        self.class_weight_combo.setEnabled(weighs)
        self.class_weight_combo.setToolTip(self._weighting_help if weighs else self.tr(
            "Regression, tagging and QA have no classes to weigh: class weighting is for sentence and pair "
            "classification"))

    def show_settings(self, values: dict[str, Any]) -> list[str]:
        """Put TrainConfig field values into the widgets; a value TrainConfig would refuse (a
        hand-edited project.json), or one the form cannot show, leaves its widget as it is and is
        returned, said in the user's language (the caller says so: the widget holds what it held)."""
        ok, refused = {}, []
        for name in FORM_FIELDS:
            if name in values:
                try:
                    ok[name] = check_setting(name, values[name])
                except ConfigError as exc:
                    refused.append(str(exc))
        unfit = self.tr("{name} {value} does not fit this project")
        if "model" in ok:
            self.set_model_source(ok["model"] or DEFAULT_MODEL)
        for combo, name, keys in ((self.head_combo, "head", HEADS), (self.method_combo, "method", METHODS),
                                  (self.class_weight_combo, "class_weight", CLASS_WEIGHTS)):
            if name not in ok:
                continue
            if ok[name] in keys and combo.model().item(combo.findData(ok[name])).isEnabled():
                combo.setCurrentIndex(combo.findData(ok[name]))
            else:  # an MLP head on a tagging project, SetFit on a pair project
                refused.append(unfit.format(name=name, value=repr(ok[name])))
        if isinstance(ok.get("mode"), str):
            mode, _, n = ok["mode"].partition("-")
            fits = not n or (n.isdigit() and self.top_spin.minimum() <= int(n) <= self.top_spin.maximum())
            if self.mode_combo.findData(mode) >= 0 and fits:
                self.mode_combo.setCurrentIndex(self.mode_combo.findData(mode))
                if n:
                    self.top_spin.setValue(int(n))
            else:
                refused.append(self.tr("mode {m} is outside what the form takes (top-{lo} to top-{hi})").format(
                    m=repr(ok["mode"]), lo=self.top_spin.minimum(), hi=self.top_spin.maximum()))
        for spin, name in ((self.lora_spin, "lora_rank"), (self.max_len_spin, "max_length"), (self.seed_spin, "seed"),
                           (self.seeds_spin, "seeds"),
                           (self.epochs_spin, "epochs"), (self.warmup_spin, "warmup_ratio")):
            if name in ok and spin.minimum() <= ok[name] <= spin.maximum():  # a value the widget cannot show: left
                spin.setValue(ok[name])
            elif name in ok:
                refused.append(self.tr("{name} {value} is outside what the form takes ({lo} to {hi})").format(
                    name=name, value=_text(ok[name]), lo=_text(spin.minimum()), hi=_text(spin.maximum())))
        for combo, name in ((self.batch_combo, "batch_size"), (self.lr_combo, "lr"), (self.device_combo, "device")):
            if name in ok:
                combo.setCurrentText(_text(ok[name]))
        if ok.get("precision") in PRECISIONS:
            self.precision_combo.setCurrentText(ok["precision"])
        for text in refused:
            log.warning("training setting not restored: %s", text)
        return refused

    def _set_class_weight(self, key: str) -> None:
        self.class_weight_combo.setCurrentIndex(self.class_weight_combo.findData(key))


def rows_said(trained: int, labelled: int) -> str:
    """The labelled training rows a run trains on, and those it holds out for evaluation (no
    labelled dev split), as the Train page says them in its Automatic line and its time estimate:
    the one said "9 labelled rows", the other "10 labelled rows", and the held-out row was said only
    in the log after Start. ``trained``: the rows trained on, ``labelled``: all labelled training rows.
    The count in train/small_data's words (COUNTS), as Automatic's reasons say it."""
    from functools import partial

    from bertstudio.train.small_data import count_said

    if trained >= labelled:
        return count_said("labelled", f"{labelled:,}", partial(QCoreApplication.translate, "SmallData"))
    return QCoreApplication.translate("TrainSettingsForm", "{n} of {m} labelled rows ({h} held out for evaluation)").format(
        n=f"{trained:,}", m=f"{labelled:,}", h=f"{labelled - trained:,}")


def reasons_said(reasons: list[Any], trained: int, labelled: int) -> str | None:
    """Automatic's reasons (train/small_data's, data) in the window's language, their row count
    counted as :func:`rows_said` counts it: "9 of 10 labelled rows: batch 16 and 150 epochs…; 1 held
    out for evaluation". The run's record keeps small_data's English, which counts the rows trained on."""
    from functools import partial

    from bertstudio.train.small_data import say

    held = labelled - trained
    if held > 0 and any("rows" in values for _key, values in reasons):
        of = QCoreApplication.translate("TrainSettingsForm", "{n} of {m}").format(n=f"{trained:,}", m=f"{labelled:,}")
        reasons = [(key, {**values, "rows": of} if "rows" in values else values) for key, values in reasons]
        said = say(reasons, partial(QCoreApplication.translate, "SmallData"))
        return QCoreApplication.translate("TrainSettingsForm", "{reasons}; {h} held out for evaluation").format(
            reasons=said, h=f"{held:,}")
    return say(reasons, partial(QCoreApplication.translate, "SmallData"))


def _text(value: Any) -> str:
    """A number as a person writes it: 5e-5, not 5e-05."""
    return f"{value:g}".replace("e-0", "e-").replace("e+0", "e+") if isinstance(value, float) else str(value)


def _number(text: str, convert: type, name: str, what: str) -> Any:
    try:
        return convert(text.strip())
    except ValueError:
        raise ConfigError(f"the {what} {text.strip()!r} is not a number", where=name,
                          facts={"refusal": "not_a_number", "text": text.strip()}) from None


def legacy_settings(values: dict[str, Any]) -> dict[str, Any]:
    """Train settings a project kept before the page kept TrainConfig values: mode "top" plus
    ``top_layers``, the bundled model as "default", batch size and learning rate as typed text, no
    class weighting."""
    out = dict(values)
    if out.get("mode") == "top":
        out["mode"] = f"top-{out.pop('top_layers', 2)}"
    out.pop("top_layers", None)
    if out.get("model") == DEFAULT_MODEL:
        out["model"] = None
    # the page kept no class weighting before it showed it: those settings trained unweighted (a project
    # reopened after another's "balanced" would otherwise take that one's)
    out.setdefault("class_weight", TrainConfig().class_weight)
    for name, convert in (("batch_size", int), ("lr", float)):
        if isinstance(out.get(name), str):
            try:
                out[name] = convert(out[name])
            except ValueError:
                out.pop(name)
    return out
