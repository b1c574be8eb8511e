"""Plain events out of the engine and the Control a callback uses to steer it.

The engine calls each callback as ``callback(event, control)``. Events are small
frozen dataclasses of plain Python values (no tensors), so the GUI can pass
them across threads as they are and the CLI can print them. A callback asks the
engine to stop, evaluate or save by setting flags on ``control`` (the design of
transformers' TrainerState/TrainerControl). Cancellation from another thread
is a ``threading.Event`` passed to the engine, checked after every optimizer step.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Union


@dataclass(frozen=True)
class RunStarted:
    total_steps: int
    num_train_examples: int
    num_eval_examples: int
    epochs: int
    effective_batch_size: int
    trainable_params: int
    total_params: int
    device: str
    precision: str
    output_dir: str | None = None
    kind: str = "started"


@dataclass(frozen=True)
class StepLogged:
    step: int
    total_steps: int
    epoch: float
    loss: float
    lr: float
    examples_per_s: float
    eta_s: float
    grad_norm: float | None = None
    kind: str = "step"


@dataclass(frozen=True)
class Evaluated:
    step: int
    epoch: float
    metrics: dict[str, float] = field(default_factory=dict)
    kind: str = "eval"


@dataclass(frozen=True)
class CheckpointSaved:
    step: int
    path: str
    is_best: bool
    kind: str = "checkpoint"


@dataclass(frozen=True)
class RunFinished:
    status: str  # "finished" | "cancelled" | "failed"
    step: int
    metrics: dict[str, float] = field(default_factory=dict)
    output_dir: str | None = None
    message: str = ""
    kind: str = "finished"


Event = Union[RunStarted, StepLogged, Evaluated, CheckpointSaved, RunFinished]


@dataclass
class Control:
    """Flags a callback sets to steer the loop; the engine resets them once acted on."""

    should_stop: bool = False
    should_evaluate: bool = False
    should_save: bool = False


Callback = Callable[[Event, Control], None]


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-able form, as written to history.jsonl (``kind`` says which event)."""
    return asdict(event)


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of :func:`event_to_dict` (used to follow a run from its history.jsonl)."""
    types = {"started": RunStarted, "step": StepLogged, "eval": Evaluated, "checkpoint": CheckpointSaved, "finished": RunFinished}
    cls = types[data["kind"]]
    names = cls.__dataclass_fields__.keys()
    return cls(**{k: v for k, v in data.items() if k in names})
