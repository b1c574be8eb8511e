"""Run settings as a dataclass: defaults, help text, validation, TOML/JSON round trip,
and the command-line flags generated from them.

TrainConfig is the one source of every setting: its fields carry the one default and
help text, ``__post_init__`` refuses what no run can use (types, ranges, kind, head,
mode, device spelling, GLUE preset, format), :func:`add_arguments` turns the fields
into the CLI's flags, and the Train page edits one. Every run saves its TrainConfig
next to its outputs (``config.toml``), so any run can be re-run with
``bertstudio train --config run.toml``.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import re
import sys
import types
import typing
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Iterable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import tomli_w

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.kinds import get_spec, kind_names
from bertstudio.data.io import FORMATS
from bertstudio.errors import ConfigError
from bertstudio.i18n import QT_TRANSLATE_NOOP  # the Train page shows these helps, translated
from bertstudio.presets import PRESET_INFO, find_preset
from bertstudio.tasks.limits import qa_window_layout

log = logging.getLogger(__name__)

# linear / mlp: on [CLS] (BERT paper / d2l); embedding: a linear layer on the mean-pooled sentence
# vector, as a sentence-transformer is trained to be read; siamese: pairs as (u, v, |u-v|, u*v) of
# each side encoded on its own (tasks/embedding.py)
HEADS = ("linear", "mlp", "embedding", "siamese")
EMBEDDING_HEADS = ("embedding", "siamese")
METHODS = ("finetune", "setfit")
# How the classes' rows weigh in the training loss and the embedding heads' probe: "balanced" is
# scikit-learn's inverse frequency, n / (classes * rows of the class) (train/class_weights.py)
CLASS_WEIGHTS = ("none", "balanced")
# With the encoder frozen (or only its top layers learning) the new head learns at this rate
# unless head_lr says otherwise: a linear probe needs a far larger step than the encoder.
PROBE_HEAD_LR = 1e-3
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
_MODE_RE = re.compile(r"^(full|frozen|lora|top-(\d+))$")
_DEVICE_RE = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")
# The hold-out rule (see train/sources.hold_out): the app's fraction, and the fewest labelled
# rows worth splitting (fewer leave too little to train on and a meaningless score).
HOLD_OUT = 0.1
HOLD_OUT_MIN_ROWS = 10
# How the held-out rows are drawn: "stratified" (per label, every class keeps a training row), or
# "shuffled", one permutation of all the rows, the draw of runs started before the split was
# stratified (their config.toml names no split: resumed, they go on with the rows they began with).
HOLD_OUT_SPLITS = ("stratified", "shuffled")
HOLD_OUT_SPLIT = HOLD_OUT_SPLITS[0]  # the split a new run draws; "shuffled": runs from before it (read_settings)


def heads_for(kind: str) -> tuple[str, ...]:
    """The heads a task kind can train. Tagging and QA predict per token (a tag, or a span's
    start and end) through one linear layer on every token: the [CLS] and embedding heads
    have nothing to read there. The siamese head reads text pairs."""
    reads = get_spec(kind).sentence_head  # "embedding" (one text), "siamese" (two), None (per token)
    if reads is None:
        return ("linear",)
    return tuple(h for h in HEADS if h != "siamese" or reads == "siamese")


def weighs_classes(kind: str) -> bool:
    """Whether ``class_weight`` applies to ``kind``: one class per example (sentence, pair), not
    a score (regression), a tag per token or an answer span."""
    gold = get_spec(kind).gold
    return bool(gold.classes) and not gold.per_token


def maps_examples(kind: str) -> bool:
    """Whether ``cartography`` (the data map, train/cartography.py) applies to ``kind``: a gold
    class per example (sentence, pair), whose probability the map plots; not a score, a tag per
    token or an answer span."""
    return weighs_classes(kind)


def setfit_fits(kind: str) -> bool:
    """SetFit classifies one text: a kind read by the one-text embedding head, with a label set."""
    spec = get_spec(kind)
    return spec.sentence_head == "embedding" and bool(spec.gold.classes)


@dataclass(frozen=True)
class Range:
    """The numbers a setting accepts: ``low``/``high`` (None: unbounded), each end open or closed.
    Every float must also be finite: NaN compares false with everything, so it would slip
    through a plain ``low <= x`` test."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False

    def __contains__(self, value: float) -> bool:
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or (value < self.high if self.high_open else value <= self.high)

    def describe(self) -> str:
        parts = []
        if self.low is not None:
            parts.append(f"{'above' if self.low_open else 'at least'} {_number(self.low)}")
        if self.high is not None:
            parts.append(f"{'below' if self.high_open else 'at most'} {_number(self.high)}")
        return " and ".join(parts) or "finite"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


# One table for every numeric setting, so the CLI, a run.toml and the app refuse the same values.
RANGES: dict[str, Range] = {
    # lora_alpha 1e23 made the loss NaN at step 4 and config.toml unwritable as TOML (beyond int64)
    "lora_rank": Range(1, 4096), "lora_alpha": Range(1, 16_384), "lora_dropout": Range(0, 1, high_open=True),
    "epochs": Range(0, 10_000, low_open=True),  # 1e9 epochs started a 2,000,000,000-step run
    "lr": Range(0, 1, low_open=True, high_open=True),
    "head_lr": Range(0, 1, low_open=True, high_open=True),
    # grad_accum 1e23: "OverflowError: int too big to convert" at step 1, exit 1
    "batch_size": Range(1, 65_536), "grad_accum": Range(1, 4096), "warmup_ratio": Range(0, 1, high_open=True),
    # AdamW's decoupled decay multiplies each weight by 1 - lr * weight_decay every step: at 1e23
    # the saved weights reached 4e17 and the model predicted NaN
    "weight_decay": Range(0, 10), "max_grad_norm": Range(0), "keep_tuning": Range(0, 1),
    "max_length": Range(8),  # the model's own limit (max_position_embeddings) is checked when the run starts
    "doc_stride": Range(0), "max_answer_length": Range(1),
    "seed": Range(0, 2**32 - 1), "seeds": Range(1, 100),  # what numpy accepts (accelerate's set_seed seeds numpy too)
    "max_train_examples": Range(1), "max_eval_examples": Range(1),
    "eval_steps": Range(1), "logging_steps": Range(1), "early_stopping_patience": Range(1),
    "hold_out": Range(0, 1, low_open=True, high_open=True),
}


def check_setting(name: str, value: Any) -> Any:
    """``value`` checked against the type and range of TrainConfig's ``name`` (an int is a
    valid float); raises ConfigError naming the setting. Used by
    ``TrainConfig.__post_init__`` and by the commands whose options are not a TrainConfig."""
    optional, base = _type_of(name)
    if value is None:
        if optional:
            return None
        raise ConfigError("must be set", where=name)
    origin = typing.get_origin(base)
    if base is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"must be true or false, got {value!r}", where=name)
    elif base is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"must be a whole number, got {value!r}", where=name)
    elif base is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"must be a number, got {value!r}", where=name)
    elif base is str:
        if not isinstance(value, str):
            raise ConfigError(f"must be text, got {value!r}", where=name)
    elif origin is list:
        if isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"must be a list of names, got {value!r}", where=name)
    elif origin is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise ConfigError(f"must be a table of names, got {value!r}", where=name)
    allowed = RANGES.get(name)
    if allowed is not None and value not in allowed:
        kind = "a whole number" if base is int else "a finite number"
        raise ConfigError(f"must be {kind} {allowed.describe()}, got {value}", where=name,
                          facts={"refusal": "out_of_range", "value": value, "whole": base is int,  # for the app's words
                                 "low": allowed.low, "high": allowed.high, "low_open": allowed.low_open,
                                 "high_open": allowed.high_open})
    return value


@functools.lru_cache(maxsize=None)
def _type_of(name: str) -> tuple[bool, Any]:
    """(whether None is allowed, the type otherwise) of TrainConfig's ``name``."""
    hint = typing.get_type_hints(TrainConfig)[name]
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    return optional, next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint


def _one_of(value: str, allowed: Iterable[str], what: str, where: str) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        raise ConfigError(f"unknown {what} {value!r}", where=where, expected=" | ".join(allowed))


def _f(default: Any, help: str, group: str, *, flags: tuple[str, ...] = (), metavar: str | None = None,
       choices: Any = None, record: bool = False) -> Any:
    """A setting: its one default and help text, and how the command line spells it
    (``--field-name`` plus ``flags``, the older short spellings the README uses); ``record``:
    written by bertstudio about the run, read from files, never a flag."""
    meta = {"help": help, "group": group, "flags": flags, "metavar": metavar, "choices": choices, "record": record}
    return field(default=default, metadata=meta)


_DATA, _MODEL, _OPTIM, _SPEED, _EVAL, _OUT = "data", "model", "hyperparameters", "speed", "evaluation", "output"


@dataclass
class TrainConfig:
    """Every setting of a run, the single source for the CLI (flags generated from these
    fields, see :func:`add_arguments`), the Train page and run.toml files."""

    # What to learn
    task: str = _f("sentence", "Task kind: sentence | pair | regression | tagging | qa", _DATA, choices=kind_names)
    glue_task: str | None = _f(None, "GLUE task preset (CoLA, SST-2, MRPC, STS-B, QNLI, RTE, WNLI, SNLI, ChnSentiCorp, "
                                     "AFQMC, ...); fills task, columns, labels, metric", _DATA, metavar="NAME")
    train_file: str | None = _f(None, "Training data file", _DATA, flags=("--train",), metavar="FILE")
    eval_file: str | None = _f(None, "Evaluation data file", _DATA, flags=("--eval",), metavar="FILE")
    data_dir: str | None = _f(None, "Folder holding a GLUE task's train.tsv / dev.tsv", _DATA, metavar="DIR")
    data_format: str = _f("auto", "Input format: auto | " + " | ".join(FORMATS), _DATA, flags=("--format",), metavar="FMT")
    columns: dict[str, str] = _f(None, "Column mapping for CSV/TSV/JSONL by header name (CLI: text=sentence,label=label) "
                                       "or, in a CSV/TSV, by 0-based position (text=0,label=1; -1 is the last column)", _DATA,
                                 metavar="MAP")
    labels: list[str] | None = _f(None, "Label names in id order (default: as found in the training data)", _DATA,
                                  metavar="A,B,..")
    hold_out: float | None = _f(None, "Without evaluation data: evaluate on this fraction of the labelled training rows, "
                                      "drawn with the seed per label, every class keeping a training row (at least "
                                      f"{HOLD_OUT_MIN_ROWS} rows; the app uses 0.1)", _DATA)
    hold_out_split: str | None = _f(None, "How hold_out drew its rows: stratified (per label, every class keeping a "
                                          "training row) | shuffled (one permutation of all the rows, the draw of "
                                          "older runs); a record, not an input", _DATA, record=True)
    # Model
    model: str | None = _f(None, "Local model folder or Hub id (default: the bundled all-MiniLM-L6-v2)", _MODEL)
    head: str = _f("linear", QT_TRANSLATE_NOOP(
        "TrainConfig",
        "Head: linear (BERT paper, on [CLS]) | mlp (hidden layer + output, as d2l) | embedding "
        "(linear on the mean-pooled sentence vector, as sentence-transformers read it) | siamese "
        "(pairs: each side encoded alone, (u, v, |u-v|, u*v), as SBERT)"), _MODEL, choices=HEADS)
    method: str = _f("finetune", QT_TRANSLATE_NOOP(
        "TrainConfig",
        "How the encoder learns before and with the head: finetune (the loop alone) | setfit "
        "(SetFit's contrastive fine-tuning of a sentence-transformer first; sentence kind, embedding "
        "head)"), _MODEL, choices=METHODS)
    mode: str = _f("full", QT_TRANSLATE_NOOP(
        "TrainConfig", "What learns: full | frozen (feature extraction) | top-N (top N layers + head) | lora"),
        _MODEL, metavar="MODE")
    lora_rank: int = _f(8, QT_TRANSLATE_NOOP("TrainConfig", "LoRA rank r"), _MODEL, metavar="R")
    lora_alpha: int = _f(16, "LoRA alpha", _MODEL, metavar="A")
    lora_dropout: float = _f(0.1, "LoRA dropout", _MODEL)
    lora_targets: list[str] = _f(None, "Module names LoRA adapts (default, or empty: the model family's attention "
                                       "query and value layers, e.g. query,value for BERT, q_lin,v_lin for DistilBERT)",
                                 _MODEL, metavar="A,B,..")
    # Optimisation (BERT paper grid: batch 16/32, lr 5e-5..2e-5, 2-4 epochs, warmup 0.1)
    epochs: float = _f(3, QT_TRANSLATE_NOOP("TrainConfig", "Passes over the training data"), _OPTIM)
    lr: float = _f(5e-5, QT_TRANSLATE_NOOP("TrainConfig", "Peak learning rate"), _OPTIM)
    head_lr: float | None = _f(None, f"Peak learning rate of the new head (default: lr; with mode frozen or top-N at "
                                     f"least {PROBE_HEAD_LR:g}, as linear probes learn)", _OPTIM)
    batch_size: int = _f(32, QT_TRANSLATE_NOOP(
        "TrainConfig", "Examples per optimizer step (before accumulation)"), _OPTIM)
    grad_accum: int = _f(1, "Gradient accumulation steps", _OPTIM)
    warmup_ratio: float = _f(0.1, QT_TRANSLATE_NOOP("TrainConfig", "Fraction of steps with linear warm-up"), _OPTIM)
    weight_decay: float = _f(0.01, "AdamW weight decay (not on biases and LayerNorm)", _OPTIM)
    max_grad_norm: float = _f(1.0, "Gradient clipping norm (0 = off)", _OPTIM)
    keep_tuning: float = _f(1.0, "After the last step, the share of the training's change in the weights that they "
                                 "keep: 1 = all; 0.5 = halfway between the weights the loop started from and those it "
                                 "ended with (WiSE-FT, steadier on small sets). The last evaluation scores the result; "
                                 "with save_best the best evaluation's weights are still the ones kept", _OPTIM,
                            metavar="SHARE")
    class_weight: str = _f("none", "Classification (sentence, pair): none | balanced: each training row's loss, and the "
                                   "logistic regression that starts an embedding head, weighted by n / (classes x the "
                                   "rows of its class), scikit-learn's 'balanced', so a class with few rows counts as "
                                   "much as a large one. Refused for regression, tagging and QA (Automatic: balanced "
                                   "on a small set whose largest class has 3 or more times the rows of its smallest)",
                           _OPTIM, choices=CLASS_WEIGHTS)
    max_length: int = _f(128, QT_TRANSLATE_NOOP(
        "TrainConfig", "Maximum tokens per input (kept with the model: evaluate and predict cut inputs the same)"),
        _OPTIM)
    doc_stride: int | None = _f(None, "QA: overlap in tokens between the windows a long context is cut into, at most "
                                      "half of a window's room for context (31 at max length 128); default 128, or "
                                      "that half where it is less; a larger value is cut to it, said, and recorded "
                                      "as used",
                                _OPTIM, metavar="TOKENS")
    max_answer_length: int = _f(30, "QA: longest answer in tokens", _OPTIM)
    seed: int = _f(42, QT_TRANSLATE_NOOP("TrainConfig", "Random seed (CPU runs repeat exactly)"), _OPTIM)
    seeds: int = _f(1, QT_TRANSLATE_NOOP(
        "TrainConfig",
        "Train with seeds seed, seed+1, ... as one job (one run folder each, seed-N under output_dir) "
        "and report the main metric's mean and spread: how much a few-label score moves"), _OPTIM, metavar="N")
    max_train_examples: int | None = _f(None, "Use at most this many training examples (drawn with the seed)", _DATA,
                                        metavar="N")
    max_eval_examples: int | None = _f(None, "Use at most this many evaluation examples", _DATA, metavar="N")
    # Speed
    device: str = _f("auto", QT_TRANSLATE_NOOP(
        "TrainConfig", "auto (CUDA > MPS > CPU) | cpu | cuda | cuda:N | mps"), _SPEED)
    precision: str = _f("auto", QT_TRANSLATE_NOOP(
        "TrainConfig", "auto (bf16 where the hardware runs it fast) | fp32 | bf16 | fp16"), _SPEED, choices=PRECISIONS)
    group_by_length: bool = _f(True, "Batch examples of similar length together (less padding)", _SPEED)
    sparse_embeddings: bool = _f(True, "CPU, one process: update only the word-embedding rows a batch uses (lazy AdamW); "
                                       "off: dense AdamW on every row", _SPEED)
    bf16_weights: bool = _f(True, "CPU bf16: train a bf16 copy of the weights with fp32 master weights (faster); "
                                  "off: autocast over fp32 weights", _SPEED)
    # Evaluation and checkpoints
    eval_steps: int | None = _f(None, "Evaluate every N optimizer steps (default: every epoch)", _EVAL, metavar="N")
    logging_steps: int = _f(10, "Log the loss every N optimizer steps", _EVAL, metavar="N")
    early_stopping_patience: int | None = _f(None, "Stop after this many evaluations without improvement", _EVAL,
                                             flags=("--early-stopping",), metavar="PATIENCE")
    save_best: bool = _f(True, "Keep the best checkpoint by the task's main metric", _EVAL)
    cartography: bool = _f(False, "After each epoch, score the training rows again (an extra pass) and write "
                                  "cartography.jsonl: per-example gold-label probabilities for the data map (sentence and pair "
                                  "classification)", _EVAL)
    resume_from: str | None = _f(None, "Checkpoint folder to resume from (a run's checkpoints/last; the run continues "
                                       "in its own folder)", _EVAL, flags=("--resume",), metavar="CHECKPOINT")
    output_dir: str | None = _f(None, "Run folder (new or empty): config.toml, history.jsonl, metrics.json, "
                                      "predictions.jsonl, model/", _OUT, flags=("--out",), metavar="DIR")
    auto_reason: str | None = _f(None, "Why bertstudio chose this run's settings, when it did (the small-data "
                                       "defaults write it; a record, not an input)", _OUT, metavar="TEXT", record=True)
    overwrite: bool = _f(False, "Replace bertstudio's own files in a non-empty output_dir (config, history, metrics, "
                                "predictions, model/, checkpoints/); other files there are kept", _OUT)

    def __post_init__(self) -> None:
        if self.columns is None:
            self.columns = {}
        if self.lora_targets is None:  # the family's own (tasks/model.py lora_targets_for)
            self.lora_targets = []
        for f in fields(self):
            setattr(self, f.name, check_setting(f.name, getattr(self, f.name)))
        _one_of(self.task, kind_names(), "task kind", "task")
        _one_of(self.head, HEADS, "head", "head")
        _one_of(self.method, METHODS, "method", "method")
        _one_of(self.class_weight, CLASS_WEIGHTS, "class weighting", "class_weight")
        if self.class_weight != "none" and not weighs_classes(self.task):
            raise ConfigError(f"a {self.task} task has no classes to weigh", where="class_weight",
                              expected="none (class weighting is for sentence and pair classification)")
        if self.cartography and not maps_examples(self.task):
            # accepted and recorded, and the run wrote no data map without a word
            raise ConfigError(f"a {self.task} task has no gold class per example to map (the data map plots each "
                              "row's probability of its gold label)", where="cartography",
                              expected="cartography off (the data map is for sentence and pair classification)")
        _one_of(self.precision, PRECISIONS, "precision", "precision")
        _one_of(self.data_format, ("auto",) + FORMATS, "format", "data_format")
        if self.hold_out and self.hold_out_split is None:  # a new run (read_settings says an older run's)
            self.hold_out_split = HOLD_OUT_SPLIT
        if not self.hold_out:
            self.hold_out_split = None  # nothing held out: no split to record
        else:
            _one_of(self.hold_out_split, HOLD_OUT_SPLITS, "hold-out split", "hold_out_split")
        if self.labels == []:  # an older config.toml's empty list: as found in the data
            self.labels = None
        if self.labels is not None and (any(not str(x).strip() for x in self.labels)
                                        or len(set(self.labels)) != len(self.labels)):
            raise ConfigError(f"labels {self.labels!r} are not a list of distinct names", where="labels",
                              expected="names such as neg,pos (or no labels: as found in the training data)")
        if not _MODE_RE.match(self.mode):
            raise ConfigError(f"unknown mode {self.mode!r}", where="mode", expected="full | frozen | top-N | lora")
        if not _DEVICE_RE.match(self.device):
            raise ConfigError(f"unknown device {self.device!r}", where="device", expected="auto | cpu | cuda | cuda:N | mps")
        if self.glue_task is not None:
            preset = find_preset(self.glue_task)
            if preset is None:
                raise ConfigError(f"unknown GLUE task {self.glue_task!r}", where="glue_task",
                                  expected="one of " + ", ".join(PRESET_INFO))
            if preset.kind != self.task:
                raise ConfigError(f"{preset.name} is a {preset.kind} task, not {self.task}", where="task",
                                  expected=f"task = {preset.kind!r} (or no task: the preset says it)")
            self.glue_task = preset.name
        self._check_head()

    def _check_head(self) -> None:
        """The embedding heads and SetFit read sentence vectors: which kinds (their spec's
        ``sentence_head``) and modes they fit."""
        reads = get_spec(self.task).sentence_head  # "embedding" (one text), "siamese" (two), None
        if self.head == "siamese" and reads != "siamese":
            raise ConfigError(f"the siamese head reads text pairs; a {self.task} task has none", where="head",
                              expected="linear | mlp | embedding",
                              facts={"refusal": "head_needs_pairs", "head": self.head, "task": self.task})
        if self.head in ("embedding", "mlp") and reads is None:  # the model was built linear and said mlp
            raise ConfigError(f"the {self.head} head predicts one value per example, not per {self.task} token/span",
                              where="head", expected="linear",
                              facts={"refusal": "head_per_example", "head": self.head, "task": self.task})
        if self.head in EMBEDDING_HEADS and self.mode == "lora":
            raise ConfigError(f"LoRA adapts the [CLS] heads' models; the {self.head} head trains with full, frozen or "
                              "top-N", where="mode", expected="full | frozen | top-N (or head linear | mlp)",
                              facts={"refusal": "lora_with_embedding_head", "head": self.head})
        if self.seeds > 1 and self.resume_from:
            raise ConfigError("a resumed run continues one seed", where="seeds",
                              expected="seeds = 1 with resume_from (resume each seed's run on its own)")
        if self.method == "setfit" and (not setfit_fits(self.task) or self.head != "embedding"):
            raise ConfigError("SetFit learns from single sentences through the embedding head", where="method",
                              expected="task sentence with head embedding (or method finetune)",
                              facts={"refusal": "setfit_needs_embedding", "head": self.head, "task": self.task})

    @property
    def head_learning_rate(self) -> float:
        """The head's peak learning rate: ``head_lr``, else ``lr``, raised to PROBE_HEAD_LR when
        the encoder is frozen or only its top layers learn (a linear probe's step)."""
        if self.head_lr is not None:
            return self.head_lr
        if self.mode == "frozen" or self.top_layers is not None:
            return max(self.lr, PROBE_HEAD_LR)
        return self.lr

    @property
    def top_layers(self) -> int | None:
        """N for mode ``top-N``, else None."""
        m = _MODE_RE.match(self.mode)
        return int(m.group(2)) if m and m.group(2) else None

    # --- persistence -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str | None = None) -> "TrainConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown setting(s) {', '.join(unknown)}", path=source, expected="one of " + ", ".join(sorted(known)))
        try:
            return cls(**data)
        except TypeError as exc:
            raise ConfigError(str(exc), path=source) from None
        except ConfigError as exc:
            if exc.path is None and source:
                exc.path = source  # name the file the bad value came from
            raise

    def to_toml(self) -> str:
        # TOML has no null: leave unset (None) values out; they fall back to defaults on load.
        return tomli_w.dumps({k: v for k, v in self.to_dict().items() if v is not None})

    def save(self, path: str | Path) -> None:
        """Write TOML (``.toml``) or JSON atomically: a full disk leaves the old file, no temporary one."""
        path = Path(path)
        text = self.to_toml() if path.suffix == ".toml" else json.dumps(self.to_dict(), indent=2)
        atomic_write_bytes(path, text.encode("utf-8"))

    @classmethod
    def load(cls, path: str | Path) -> "TrainConfig":
        return cls.from_dict(read_settings(path), source=str(path))


MAX_CONFIG_BYTES = 1_000_000  # a run's config.toml is a few kB


def cuts_windows(kind: str) -> bool:
    """Whether a run of ``kind`` cuts long inputs into overlapping windows (QA's contexts): the
    kinds doc_stride is for."""
    return get_spec(kind).gold.name == "answers"


LORA_SETTINGS = ("lora_rank", "lora_alpha", "lora_dropout", "lora_targets")
WINDOW_SETTINGS = ("doc_stride", "max_answer_length")  # QA's windows and answers


def unused_settings(mode: Any, task: Any) -> frozenset[str]:
    """The settings a run of ``task`` in ``mode`` never reads: LoRA's without mode lora, QA's
    windows and answer length for kinds without them. A run records them all, but they change
    nothing: Compare and a resume do not count them, and the CLI refuses them as flags."""
    unused = set() if mode == "lora" else set(LORA_SETTINGS)
    try:
        windows = cuts_windows(str(task))
    except ConfigError:  # an unknown kind in an old record: nothing is known unused
        windows = True
    return frozenset(unused if windows else unused | set(WINDOW_SETTINGS))


def fit_doc_stride(config: TrainConfig, *, say: bool = True) -> TrainConfig:
    """``config`` with the overlap its QA windows use (tasks/limits.qa_window_layout), so the run
    records what it used: the default (None) is the most that fits, and a doc_stride above it is cut
    to it, said here once (``say``). Kinds that cut no windows keep theirs as it is."""
    if not cuts_windows(config.task):
        return config
    _max_query, room, used = qa_window_layout(config.max_length, config.doc_stride)
    if say and config.doc_stride is not None and used != config.doc_stride:
        log.warning("doc_stride %d is more than half of the %d context tokens a %d-token window holds: %d used "
                    "(and recorded)", config.doc_stride, room, config.max_length, used)
    return config if used == config.doc_stride else replace(config, doc_stride=used)


class _KeyTwice(ValueError):
    pass


def _refuse_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (json.loads kept the last of two "epochs"
    without a word, where a TOML file's second one is refused)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(f"the key {key!r} is given twice")
        out[key] = value
    return out


def read_settings(path: str | Path, *, given: Iterable[str] = (), refuse_empty: bool = False) -> dict[str, Any]:
    """The settings a run config file holds, each checked (a bad one is a ConfigError naming
    the file) and paths resolved against the file's folder (see :func:`_resolve_paths`).
    ``given``: settings the caller overrides (CLI flags); the file's values for them are
    ignored, so a file's output_dir outside its folder is fine when ``--out`` replaces it.
    ``refuse_empty``: a file with no setting at all is a ConfigError naming it (``--config``:
    an empty file read "train_file: no training data")."""
    from bertstudio.data.regular_file import read_regular_file
    from bertstudio.errors import DataError

    path = Path(path)
    fmt = {".toml": "TOML", ".json": "JSON"}.get(path.suffix.lower())
    if fmt is None:  # a TOML file named run.cfg was "not valid JSON: Expecting value"
        raise ConfigError("run config must be a .toml or .json file", path=path,
                          expected="the settings as TOML in a .toml file (or as JSON in a .json one)")
    try:
        # a FIFO or /dev/zero is refused, not read for ever; a 2 GB (sparse) config.toml in a run of a project
        # someone sent was read whole by three pages, the window frozen for 30 s at 6.7 GB
        text = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8")
        text = text.removeprefix("\ufeff")  # a BOM (Windows editors add one), as the data readers allow
    except DataError as exc:
        raise ConfigError(f"cannot read run config: {exc.problem}", path=path, expected=exc.expected) from None
    except UnicodeDecodeError:
        raise ConfigError("run config is not UTF-8 text", path=path) from None
    try:
        data = tomllib.loads(text) if fmt == "TOML" else json.loads(text, object_pairs_hook=_refuse_twice)
    except (ValueError, RecursionError) as exc:  # the decode errors, too deep, a number past 4300 digits
        problem = ("nested too deeply" if isinstance(exc, RecursionError)
                   else "a number too long to read" if type(exc) is ValueError else exc)
        raise ConfigError(f"run config is not valid {fmt}: {problem}", path=path) from None
    if not isinstance(data, dict):
        raise ConfigError("run config must be a table of settings", path=path)
    if refuse_empty and not data:
        raise ConfigError("the run config holds no settings", path=path,
                          expected="settings such as train_file = \"train.csv\", as a run's config.toml holds")
    known = {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"unknown setting(s) {', '.join(unknown)}", path=path, expected="one of " + ", ".join(sorted(known)))
    if data.get("hold_out") and "hold_out_split" not in data:
        # a run from before the split was stratified names none: read back (resumed, compared, its rows
        # exported) it is the draw that run made, or a resumed run would train on rows it had evaluated
        data["hold_out_split"] = "shuffled"
    given = set(given)
    data = {k: v for k, v in data.items() if k not in given}
    for name, value in data.items():
        try:
            check_setting(name, value)
        except ConfigError as exc:
            exc.path = str(path)
            raise
    return _resolve_paths(data, path.parent, source=path)


_PATH_FIELDS = ("train_file", "eval_file", "data_dir", "output_dir", "resume_from")


def _resolve_paths(data: dict[str, Any], base: Path, *, source: Path) -> dict[str, Any]:
    """Relative paths in a config file are relative to that file, not to the current
    folder, so an exported run starts the same from wherever it is launched. ``model``
    is resolved only when it names an existing local folder (otherwise it is a Hub id).

    ``output_dir`` must stay inside the config's folder: a run writes (and with
    ``overwrite`` replaces) files there, and a shared run.toml must not be able to point
    that at ``../..`` or ``/home/someone``. A folder elsewhere is given on the command line.
    ``resume_from`` too (a resumed run writes into its checkpoint's run folder), but in the
    run's own config.toml."""
    out = dict(data)
    base = base.resolve()

    def refuse(name: str, problem: str) -> ConfigError:
        return ConfigError(f"the path {data[name]!r} {problem}", path=source, where=name,
                           expected="a path to a file or folder")

    def resolved(name: str, path: Path) -> Path:
        try:  # a symlink loop stopped the command with "internal error" (exit 1)
            return path.resolve()
        except (OSError, RuntimeError) as exc:
            raise refuse(name, f"cannot be resolved ({exc})") from None

    for name in (*_PATH_FIELDS, "model"):
        if "\x00" in str(out.get(name) or ""):  # no path holds one (Path.resolve raised ValueError: exit 1)
            raise refuse(name, "contains a NUL character")
    for name in _PATH_FIELDS:
        value = out.get(name)
        if isinstance(value, str) and value and not Path(value).expanduser().is_absolute():
            out[name] = str(resolved(name, base / value))
    target = out.get("output_dir")
    if isinstance(target, str) and target and not resolved("output_dir", Path(target).expanduser()).is_relative_to(base):
        raise ConfigError(f"output_dir {data['output_dir']!r} is outside the config's folder {base}", path=source,
                          where="output_dir", expected="a folder inside the config's folder (give another one with --out)")
    resume = out.get("resume_from")
    if isinstance(resume, str) and resume:
        # a resumed run writes into the checkpoint's run folder: a shared run.toml's "../victim/checkpoints/last"
        # went on with (and replaced the model of) a run outside the folder it was started in. The run's own
        # config.toml names its own checkpoint; a checkpoint elsewhere is given on the command line.
        checkpoint = resolved("resume_from", Path(resume).expanduser())
        own = checkpoint.parent.parent / "config.toml" == resolved("resume_from", source.expanduser())
        if not own and not checkpoint.is_relative_to(base):
            raise ConfigError(f"resume_from {data['resume_from']!r} is outside the config's folder {base}", path=source,
                              where="resume_from", expected="a checkpoint inside the config's folder (resume a run "
                                                            "elsewhere with --resume)")
    model = out.get("model")
    if isinstance(model, str) and model and not Path(model).is_absolute() and (base / model).is_dir():
        out["model"] = str(resolved("model", base / model))
    return out
