"""Where a run stands: step, batch position, best metric so far. Saved with every
checkpoint (``state.json``) so a resumed run picks up exactly where it stopped."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from bertstudio.errors import ConfigError
from bertstudio.train import checkpoint as ckpt


# Fewer scored evaluation rows than this and a run keeps its last weights, not the best evaluation's
# (TrainConfig.save_best): on 1-4 rows one row moves a score by 25 points or more, more than a run's
# evaluations differ by, so the highest of them is luck more than training (a model at chance on two
# classes scores 100 on one row in half its evaluations). A 10-label run (1 row held out) kept its
# step-15 weights of 150, which scored 100 on that row where the last evaluation scored 0, and
# Results showed 100.0. From 5 rows up the choice is kept: still noisy, and said so by Results' note
# on small evaluation sets, but no longer all or nothing.
MIN_ROWS_TO_CHOOSE = 5


def chooses_best(save_best: bool, scored_rows: int) -> bool:
    """Whether a run keeps its best evaluation's weights: ``save_best`` and at least
    :data:`MIN_ROWS_TO_CHOOSE` evaluation rows with a gold value to tell the evaluations apart."""
    return bool(save_best) and scored_rows >= MIN_ROWS_TO_CHOOSE


def is_better(new: float, old: float | None, key: str) -> bool:
    """Higher is better except for losses and errors (mse)."""
    from bertstudio.metrics import LOWER_IS_BETTER

    if new is None or (isinstance(new, float) and math.isnan(new)):
        return False
    if old is None:
        return True
    return new < old if key in LOWER_IS_BETTER else new > old


@dataclass
class Progress:
    step: int = 0
    epoch: int = 0
    batches_done: int = 0  # micro-batches of ``epoch`` already trained on (per process)
    best_score: float | None = None
    best_step: int | None = None
    best_metrics: dict[str, float] = field(default_factory=dict)
    best_saved: bool = False
    bad_evals: int = 0
    last_metrics: dict[str, float] = field(default_factory=dict)
    eval_pending: bool = False  # cancelled when an evaluation was due: a resumed run does it first
    processes: int | None = None  # data-parallel processes that trained (None: a checkpoint from before it was kept)
    # in memory only
    improved: bool = False
    last_predictions: list[dict[str, Any]] | None = None
    best_predictions: list[dict[str, Any]] | None = None
    _best_weights: dict[str, torch.Tensor] | None = None

    def advance(self, step: int, epoch_steps: int, grad_accum: int) -> None:
        self.step = step
        self.epoch, in_epoch = divmod(step, epoch_steps)
        self.batches_done = in_epoch * grad_accum

    def record_eval(self, metrics: dict[str, float], predictions: list[dict[str, Any]], key: str) -> None:
        self.last_metrics = dict(metrics)
        self.last_predictions = predictions
        self.improved = is_better(metrics.get(key), self.best_score, key)
        if self.improved:
            self.best_score, self.best_step, self.best_metrics = metrics[key], self.step, dict(metrics)
            self.best_predictions = predictions
            self.bad_evals = 0
        else:
            self.bad_evals += 1

    def keep_best_in_memory(self, model: torch.nn.Module) -> None:
        self._best_weights = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
        self.best_saved = True

    def restore_best(self, model: torch.nn.Module, best_folder: Path | None) -> dict[str, float]:
        """Load the best weights into ``model`` (when a best was kept); return the metrics
        of the weights the model now holds."""
        if not self.best_saved:
            return dict(self.last_metrics)
        if self.best_step == self.step and self.best_metrics:
            return dict(self.best_metrics)  # the best is the model in hand: nothing to load
        if self._best_weights is not None:
            model.load_state_dict(self._best_weights)
        elif best_folder is not None and (found := ckpt.find_checkpoint(best_folder)) is not None:
            ckpt.load_weights(found, model)
        else:
            return dict(self.last_metrics)
        return dict(self.best_metrics)

    def to_state(self) -> dict[str, Any]:
        return {
            "step": self.step, "epoch": self.epoch, "batches_done": self.batches_done,
            "best_score": self.best_score, "best_step": self.best_step, "best_metrics": self.best_metrics,
            "best_saved": self.best_saved, "bad_evals": self.bad_evals, "last_metrics": self.last_metrics,
            "eval_pending": self.eval_pending, "processes": self.processes,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], *, source: str | None = None) -> "Progress":
        """The progress a checkpoint's state.json records; a value of the wrong type is a
        ConfigError (the file may come from elsewhere), not a crash later in the loop."""
        values = {k: state[k] for k in _STATE_TYPES if k in state}
        for name, value in values.items():
            if not _fits(value, _STATE_TYPES[name]):
                shown = repr(value) if len(repr(value)) <= 60 else type(value).__name__
                raise ConfigError(f"{name} = {shown} is not a value bertstudio writes there", path=source,
                                  where=name if source else f"state.json, {name}", expected=_RULE_WORDS[_STATE_TYPES[name]])
        return cls(**values)


_COUNT, _MAYBE_COUNT, _SCORE, _TABLE = "count", "count or null", "score", "table"
_STATE_TYPES = {"step": _COUNT, "epoch": _COUNT, "batches_done": _COUNT, "best_score": _SCORE, "best_step": _MAYBE_COUNT,
                "best_metrics": _TABLE, "best_saved": bool, "bad_evals": _COUNT, "last_metrics": _TABLE, "eval_pending": bool,
                "processes": _MAYBE_COUNT}

_RULE_WORDS = {_COUNT: "a whole number from 0", _MAYBE_COUNT: "a whole number from 0, or null",
               _SCORE: "a finite number, or null", _TABLE: "a table of metric names and finite numbers",
               bool: "true or false"}


def _fits(value: Any, rule: Any) -> bool:
    if rule is bool:
        return isinstance(value, bool)
    if rule in (_COUNT, _MAYBE_COUNT):
        if value is None:
            return rule == _MAYBE_COUNT
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if rule == _SCORE:  # NaN or an overflowed 1e309 was never beaten: the run kept its first evaluation's model
        return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                 and math.isfinite(value))
    return isinstance(value, dict) and all(isinstance(k, str) and _fits(v, _SCORE) for k, v in value.items())
