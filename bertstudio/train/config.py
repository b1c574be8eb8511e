"""Run settings as a dataclass: defaults, help text, validation, TOML/JSON round trip.

Every run saves its TrainConfig next to its outputs (``config.toml``), so any
run can be re-run with ``bertstudio train --config run.toml``.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import tomli_w

from bertstudio.data.examples import KINDS
from bertstudio.errors import ConfigError

HEADS = ("linear", "mlp")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
_MODE_RE = re.compile(r"^(full|frozen|lora|top-(\d+))$")


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
    resume_from: str | None = _f(None, "Checkpoint folder to resume from")
    output_dir: str | None = _f(None, "Where the run writes config, history, metrics, predictions and the model")

    def __post_init__(self) -> None:
        if self.columns is None:
            self.columns = {}
        if self.lora_targets is None:
            self.lora_targets = ["query", "value"]
        if self.task not in KINDS:
            raise ConfigError(f"unknown task kind {self.task!r}", where="task", expected=" | ".join(KINDS))
        if self.head not in HEADS:
            raise ConfigError(f"unknown head {self.head!r}", where="head", expected=" | ".join(HEADS))
        if not _MODE_RE.match(self.mode):
            raise ConfigError(f"unknown mode {self.mode!r}", where="mode", expected="full | frozen | top-N | lora")
        if self.precision not in PRECISIONS:
            raise ConfigError(f"unknown precision {self.precision!r}", where="precision", expected=" | ".join(PRECISIONS))
        for name, low in (("batch_size", 1), ("grad_accum", 1), ("max_length", 8), ("lora_rank", 1), ("logging_steps", 1)):
            if int(getattr(self, name)) < low:
                raise ConfigError(f"{name} must be at least {low}, got {getattr(self, name)}", where=name)
        if not self.epochs > 0:
            raise ConfigError(f"epochs must be positive, got {self.epochs}", where="epochs")
        if not 0 < self.lr < 1:
            raise ConfigError(f"learning rate must be in (0, 1), got {self.lr}", where="lr")
        if not 0 <= self.warmup_ratio < 1:
            raise ConfigError(f"warmup ratio must be in [0, 1), got {self.warmup_ratio}", where="warmup_ratio")
        if self.weight_decay < 0 or self.max_grad_norm < 0:
            raise ConfigError("weight decay and gradient clipping norm must not be negative", where="weight_decay")
        if self.eval_steps is not None and self.eval_steps < 1:
            raise ConfigError(f"eval_steps must be at least 1, got {self.eval_steps}", where="eval_steps")

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

    def to_toml(self) -> str:
        # TOML has no null: leave unset (None) values out; they fall back to defaults on load.
        return tomli_w.dumps({k: v for k, v in self.to_dict().items() if v is not None})

    def save(self, path: str | Path) -> None:
        path = Path(path)
        text = self.to_toml() if path.suffix == ".toml" else json.dumps(self.to_dict(), indent=2)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "TrainConfig":
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read run config: {exc.strerror or exc}", path=path) from None
        except UnicodeDecodeError:
            raise ConfigError("run config is not UTF-8 text", path=path) from None
        try:
            data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"run config is not valid {'TOML' if path.suffix == '.toml' else 'JSON'}: {exc}", path=path) from None
        if not isinstance(data, dict):
            raise ConfigError("run config must be a table of settings", path=path)
        return cls.from_dict(_resolve_paths(data, path.parent), source=str(path))


_PATH_FIELDS = ("train_file", "eval_file", "data_dir", "output_dir", "resume_from")


def _resolve_paths(data: dict[str, Any], base: Path) -> dict[str, Any]:
    """Relative paths in a config file are relative to that file, not to the current
    folder, so an exported run starts the same from wherever it is launched. ``model``
    is resolved only when it names an existing local folder (otherwise it is a Hub id)."""
    out = dict(data)
    for name in _PATH_FIELDS:
        value = out.get(name)
        if isinstance(value, str) and value and not Path(value).expanduser().is_absolute():
            out[name] = str((base / value).resolve())
    model = out.get("model")
    if isinstance(model, str) and model and not Path(model).is_absolute() and (base / model).is_dir():
        out["model"] = str((base / model).resolve())
    return out


def config_help() -> dict[str, str]:
    """Help text per setting, for the CLI and the GUI's tooltips."""
    return {f.name: f.metadata.get("help", "") for f in fields(TrainConfig)}
