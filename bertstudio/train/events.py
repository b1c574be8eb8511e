"""Plain events out of the engine, the Control a callback uses to steer it, and the
meter that fills each StepLogged.

The engine calls each callback as ``callback(event, control)``. Events are small
frozen dataclasses of plain Python values (no tensors), so the GUI can pass
them across threads as they are and the CLI can print them. A callback asks the
engine to stop, evaluate or save by setting flags on ``control`` (the design of
transformers' TrainerState/TrainerControl). Cancellation from another thread
is a ``threading.Event`` passed to the engine, checked after every optimizer step.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Union


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
    # the machine training (socket.gethostname(), and on macOS, where a host name follows the
    # network, train/rundir.machine_id()): a reader there may ask the run folder's lock whether
    # the run's process still lives (train/rundir.py); elsewhere it cannot tell
    host: str | None = None
    machine: str | None = None
    # the evaluation rows with a gold value, which the scores rest on (num_eval_examples counts
    # every row evaluated: rows without gold get a prediction but no score); None: a history
    # written before this was recorded, where num_eval_examples is all that is known
    num_scored_examples: int | None = None
    # when the run (or its resume) started, as time.time(): the Runs page's Started column; a copied
    # folder's files all carry the copy's time. None: a history written before this was recorded
    started_at: float | None = None

    @property
    def scored_examples(self) -> int:
        """How many evaluation rows the scores rest on, as well as the history tells."""
        return self.num_eval_examples if self.num_scored_examples is None else self.num_scored_examples


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
class PhaseChanged:
    """A stage of the run outside the training steps, so a person never watches a frozen bar:
    ``phase`` is "loading_model" | "setfit" | "probing" | "tokenising" | "evaluating" | "saving", or
    "waiting" for another training of this process to finish (``detail``: which one, a name from
    train/training_lock.py); ``done`` of ``total`` where the stage can count (examples to tokenise,
    evaluation batches; total 0: no count). Not written to history.jsonl: it says what is happening
    now, not what happened."""

    phase: str
    done: int = 0
    total: int = 0
    kind: str = "phase"
    detail: str = ""


@dataclass(frozen=True)
class RunFinished:
    status: str  # "finished" | "cancelled" | "failed"; a reader adds "interrupted" (train/rundir.py)
    step: int
    metrics: dict[str, float] = field(default_factory=dict)
    output_dir: str | None = None
    message: str = ""
    kind: str = "finished"
    best_step: int | None = None  # the exported weights and metrics are the best evaluation's, from this earlier step
    # with best_step: the last evaluation's metrics (the kept ones were selected on the same evaluation set)
    last_metrics: dict[str, float] = field(default_factory=dict)
    one_answer: str = ""  # metrics.classification.OneAnswer.sentence(): the model answers one class for (almost) all


Event = Union[RunStarted, StepLogged, Evaluated, CheckpointSaved, PhaseChanged, RunFinished]


class StepMeter:
    """Mean loss and examples/s over the current logging interval, and the time left. The
    loop adds to :attr:`examples` per micro-batch and calls :meth:`add_step` per optimizer
    step; time spent in :meth:`paused` (evaluation, the data map's pass) is not training time.

    The time left is the training steps left at this run's time per training step, plus the
    evaluations still due (every ``eval_every`` steps and at the last one) at the time one took
    so far, or, before the first, the evaluation rows at three times the training's examples/s
    (a forward pass, no backward). Evaluations were in neither: a run said "ETA 2:37", spent
    2.5 minutes evaluating with no time shown, and then said 7:35."""

    def __init__(self, start_step: int, total_steps: int, epoch_steps: int, *, eval_every: int = 0,
                 eval_examples: int = 0) -> None:
        self.start_step, self.total_steps, self.epoch_steps = start_step, total_steps, epoch_steps
        self.eval_every, self.eval_examples = eval_every, eval_examples
        self.t_start = time.perf_counter()
        self.t_paused = 0.0  # evaluations and other passes since t_start
        self.evals, self.eval_s = 0, 0.0  # evaluations timed, and their seconds
        self.seen = self.examples = 0  # examples trained on in earlier logging intervals, in this one
        self.restart()

    def restart(self) -> None:
        """Begin a new logging interval."""
        self.seen += self.examples
        self.loss, self.steps, self.examples = 0.0, 0, 0
        self.t_interval = time.perf_counter()

    def add_step(self, loss: float) -> None:
        self.loss += loss
        self.steps += 1

    def evals_left(self, step: int) -> int:
        """Evaluations still due once ``step`` is logged: each multiple of ``eval_every`` from ``step``
        (the loop logs a step before evaluating it) to the last step, and the last one."""
        n, every = self.total_steps, self.eval_every
        if not every or step > n:
            return 0
        return n // every - (step - 1) // every + (n % every != 0)

    def eta_s(self, step: int, now: float) -> float:
        training = max(now - self.t_start - self.t_paused, 0.0)
        left = training / max(step - self.start_step, 1) * (self.total_steps - step)
        evals = self.evals_left(step)
        if evals and self.evals:
            left += evals * self.eval_s / self.evals
        elif evals and self.eval_examples and training > 0:
            per_s = (self.seen + self.examples) / training
            left += evals * self.eval_examples / (3 * per_s) if per_s > 0 else 0.0
        return left

    def event(self, step: int, lr: float, grad_norm: Any) -> StepLogged:
        now = time.perf_counter()
        return StepLogged(
            step=step, total_steps=self.total_steps, epoch=step / self.epoch_steps, loss=self.loss / self.steps, lr=lr,
            examples_per_s=self.examples / max(now - self.t_interval, 1e-9),
            eta_s=self.eta_s(step, now),
            grad_norm=float(grad_norm) if grad_norm is not None else None,
        )

    @contextlib.contextmanager
    def paused(self, *, evaluation: bool = False) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            spent = time.perf_counter() - t
            self.t_interval += spent
            self.t_paused += spent
            if evaluation:
                self.evals += 1
                self.eval_s += spent


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
    types = {"started": RunStarted, "step": StepLogged, "eval": Evaluated, "checkpoint": CheckpointSaved, "phase": PhaseChanged,
             "finished": RunFinished}
    cls = types[data["kind"]]
    fields = cls.__dataclass_fields__
    for name, value in data.items():
        if name in fields and not _fits(str(fields[name].type), value):
            raise TypeError(f"{name} {value!r:.40} is not {fields[name].type}")
    return cls(**{k: v for k, v in data.items() if k in fields})


# A history line comes from a file, so each value is checked against its field's type: a
# RunFinished with metrics [1] or a step "x" would otherwise fail later, in whatever reads it.
# Whole numbers within what a float holds exactly: a step of 10**30 passed, and the curve
# dialogs' plotting library ended the process with a segmentation fault on it.
_LARGEST = 2**53


def is_number(v: Any) -> bool:
    """A number a reader may hand to float() and a plot: a float (NaN and infinity included, as
    a diverged run writes them), or a whole number float() holds (a 400-digit one overflowed)."""
    return isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _LARGEST)


_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool) and abs(v) <= _LARGEST,
    "float": is_number,
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    # metric name -> number (or none): a string there ("high") failed in the plots' float()
    "dict[str, float]": lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and (x is None or is_number(x)) for k, x in v.items()),
    "None": lambda v: v is None,
}


def _fits(annotation: str, value: Any) -> bool:
    return any(_TYPE_CHECKS[t](value) for t in annotation.split(" | "))


class CountedBatches:
    """``loader`` as an iterable that reports ``PhaseChanged(phase, i, n)`` after each batch
    (the evaluation's own progress, without a branch in the code that consumes the batches)."""

    def __init__(self, loader: Any, phase: str, report: Callable[[PhaseChanged], None]) -> None:
        self.loader, self.phase, self.report = loader, phase, report

    def __len__(self) -> int:
        return len(self.loader)

    def __iter__(self) -> Iterator[Any]:
        total = len(self.loader)
        self.report(PhaseChanged(self.phase, 0, total))
        for i, batch in enumerate(self.loader, 1):
            yield batch
            self.report(PhaseChanged(self.phase, i, total))
