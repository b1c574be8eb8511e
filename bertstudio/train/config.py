"""Run settings as a dataclass: defaults, help text, validation, TOML/JSON round trip.

Every run saves its TrainConfig next to its outputs (``config.toml``), so any
run can be re-run with ``bertstudio train --config run.toml``.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import types
import typing
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import tomli_w

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.examples import KINDS
from bertstudio.errors import ConfigError

HEADS = ("linear", "mlp")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
_MODE_RE = re.compile(r"^(full|frozen|lora|top-(\d+))$")


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
    "lora_rank": Range(1), "lora_alpha": Range(1), "lora_dropout": Range(0, 1, high_open=True),
    "epochs": Range(0, low_open=True), "lr": Range(0, 1, low_open=True, high_open=True),
    "batch_size": Range(1), "grad_accum": Range(1), "warmup_ratio": Range(0, 1, high_open=True),
    "weight_decay": Range(0), "max_grad_norm": Range(0),
    "max_length": Range(8),  # the model's own limit (max_position_embeddings) is checked when the run starts
    "doc_stride": Range(0), "max_answer_length": Range(1),
    "seed": Range(0, 2**32 - 1),  # what numpy accepts (accelerate's set_seed seeds numpy too)
    "max_train_examples": Range(1), "max_eval_examples": Range(1),
    "eval_steps": Range(1), "logging_steps": Range(1), "early_stopping_patience": Range(1),
}


def check_setting(name: str, value: Any) -> Any:
    """``value`` checked against the type and range of TrainConfig's ``name`` (an int is a
    valid float); raises ConfigError naming the setting. Used by
    ``TrainConfig.__post_init__`` and by the commands whose options are not a TrainConfig."""
    hint = _hints()[name]
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    base = next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint
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
        raise ConfigError(f"must be {kind} {allowed.describe()}, got {value}", where=name)
    return value


@functools.lru_cache(maxsize=None)
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(TrainConfig)


def _f(default: Any, help: str, **kw: Any) -> Any:
    return field(default=default, metadata={"help": help}, **kw)


@dataclass
class TrainConfig:
    # What to learn
    task: str = _f("sentence", "Task kind: sentence | pair | regression | tagging | qa")
    glue_task: str | None = _f(None, "GLUE task preset (CoLA, SST-2, MRPC, STS-B, QNLI, RTE, WNLI, ...); fills task, columns, labels, metric")
    train_file: str | None = _f(None, "Training data file")
    eval_file: str | None = _f(None, "Evaluation data file")
    data_dir: str | None = _f(None, "Folder holding a GLUE task's train.tsv / dev.tsv")
    data_format: str = _f("auto", "Input format: auto | csv | tsv | jsonl | glue | conll | conllu | squad")
    columns: dict[str, str] = _f(None, "Column mapping for CSV/TSV/JSONL, e.g. {text = 'sentence', label = 'label'}", )
    labels: list[str] | None = _f(None, "Label names in id order (default: as found in the training data)")
    # Model
    model: str | None = _f(None, "Local model folder or Hub id (default: the bundled all-MiniLM-L6-v2)")
    head: str = _f("linear", "Head: linear (BERT paper, on [CLS]) | mlp (hidden layer + output, as d2l)")
    mode: str = _f("full", "What learns: full | frozen (feature extraction) | top-N (top N layers + head) | lora")
    lora_rank: int = _f(8, "LoRA rank r")
    lora_alpha: int = _f(16, "LoRA alpha")
    lora_dropout: float = _f(0.1, "LoRA dropout")
    lora_targets: list[str] = _f(None, "Module names LoRA adapts (default: query, value)")
    # Optimisation (BERT paper grid: batch 16/32, lr 5e-5..2e-5, 2-4 epochs, warmup 0.1)
    epochs: float = _f(3, "Passes over the training data")
    lr: float = _f(5e-5, "Peak learning rate")
    batch_size: int = _f(32, "Examples per optimizer step (before accumulation)")
    grad_accum: int = _f(1, "Gradient accumulation steps")
    warmup_ratio: float = _f(0.1, "Fraction of steps with linear warm-up")
    weight_decay: float = _f(0.01, "AdamW weight decay (not on biases and LayerNorm)")
    max_grad_norm: float = _f(1.0, "Gradient clipping norm (0 = off)")
    max_length: int = _f(128, "Maximum tokens per input")
    doc_stride: int = _f(128, "QA: overlap between windows of a long context")
    max_answer_length: int = _f(30, "QA: longest answer in tokens")
    seed: int = _f(42, "Random seed (CPU runs repeat exactly)")
    max_train_examples: int | None = _f(None, "Use at most this many training examples (drawn with the seed)")
    max_eval_examples: int | None = _f(None, "Use at most this many evaluation examples")
    # Speed
    device: str = _f("auto", "auto (CUDA > MPS > CPU) | cpu | cuda | cuda:N | mps")
    precision: str = _f("auto", "auto (bf16 where the hardware runs it fast) | fp32 | bf16 | fp16")
    group_by_length: bool = _f(True, "Batch examples of similar length together (less padding)")
    sparse_embeddings: bool = _f(True, "CPU, one process: update only the word-embedding rows a batch uses (lazy AdamW); false: dense AdamW on every row")
    bf16_weights: bool = _f(True, "CPU bf16: train a bf16 copy of the weights with fp32 master weights (faster); false: autocast over fp32 weights")
    # Evaluation and checkpoints
    eval_steps: int | None = _f(None, "Evaluate every N optimizer steps (default: every epoch)")
    logging_steps: int = _f(10, "Log the loss every N optimizer steps")
    early_stopping_patience: int | None = _f(None, "Stop after this many evaluations without improvement")
    save_best: bool = _f(True, "Keep the best checkpoint by the task's main metric")
    cartography: bool = _f(False, "After each epoch, score the training rows again (an extra pass) and write "
                                  "cartography.jsonl: per-example gold-label probabilities for the data map")
    resume_from: str | None = _f(None, "Checkpoint folder to resume from")
    output_dir: str | None = _f(None, "Where the run writes config, history, metrics, predictions and the model (a new or empty folder)")
    overwrite: bool = _f(False, "Replace bertstudio's own files in a non-empty output_dir (config, history, metrics, "
                                "predictions, model/, checkpoints/); other files there are kept")

    def __post_init__(self) -> None:
        if self.columns is None:
            self.columns = {}
        if self.lora_targets is None:
            self.lora_targets = ["query", "value"]
        for f in fields(self):
            setattr(self, f.name, check_setting(f.name, getattr(self, f.name)))
        if self.task not in KINDS:
            raise ConfigError(f"unknown task kind {self.task!r}", where="task", expected=" | ".join(KINDS))
        if self.head not in HEADS:
            raise ConfigError(f"unknown head {self.head!r}", where="head", expected=" | ".join(HEADS))
        if not _MODE_RE.match(self.mode):
            raise ConfigError(f"unknown mode {self.mode!r}", where="mode", expected="full | frozen | top-N | lora")
        if self.precision not in PRECISIONS:
            raise ConfigError(f"unknown precision {self.precision!r}", where="precision", expected=" | ".join(PRECISIONS))

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


def read_settings(path: str | Path, *, given: Iterable[str] = ()) -> dict[str, Any]:
    """The settings a run config file holds, each checked (a bad one is a ConfigError naming
    the file) and paths resolved against the file's folder (see :func:`_resolve_paths`).
    ``given``: settings the caller overrides (CLI flags); the file's values for them are
    ignored, so a file's output_dir outside its folder is fine when ``--out`` replaces it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read run config: {exc.strerror or exc}", path=path) from None
    except UnicodeDecodeError:
        raise ConfigError("run config is not UTF-8 text", path=path) from None
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ConfigError(f"run config is not valid {'TOML' if path.suffix == '.toml' else 'JSON'}: {exc}", path=path) from None
    if not isinstance(data, dict):
        raise ConfigError("run config must be a table of settings", path=path)
    known = {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"unknown setting(s) {', '.join(unknown)}", path=path, expected="one of " + ", ".join(sorted(known)))
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
    that at ``../..`` or ``/home/someone``. A folder elsewhere is given on the command line."""
    out = dict(data)
    base = base.resolve()
    for name in _PATH_FIELDS:
        value = out.get(name)
        if isinstance(value, str) and value and not Path(value).expanduser().is_absolute():
            out[name] = str((base / value).resolve())
    target = out.get("output_dir")
    if isinstance(target, str) and target and not Path(target).expanduser().resolve().is_relative_to(base):
        raise ConfigError(f"output_dir {data['output_dir']!r} is outside the config's folder {base}", path=source,
                          where="output_dir", expected="a folder inside the config's folder (give another one with --out)")
    model = out.get("model")
    if isinstance(model, str) and model and not Path(model).is_absolute() and (base / model).is_dir():
        out["model"] = str((base / model).resolve())
    return out


def config_help() -> dict[str, str]:
    """Help text per setting, for the CLI and the GUI's tooltips."""
    return {f.name: f.metadata.get("help", "") for f in fields(TrainConfig)}
