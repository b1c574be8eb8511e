"""The training loop's meter: the time left counts the evaluations still due, and time spent
evaluating is not training time (a clock the test moves by hand)."""

from __future__ import annotations

import pytest

from bertstudio.train import events
from bertstudio.train.events import StepMeter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(events.time, "perf_counter", c)
    return c


def _steps(meter: StepMeter, clock: Clock, first: int, last: int, seconds: float, batch: int = 16) -> None:
    for _ in range(first, last + 1):
        clock.now += seconds
        meter.examples += batch
        meter.add_step(1.0)


def test_evaluations_left_are_counted_at_the_time_one_took(clock):
    """16 steps of 10 s, an evaluation of 150 s after each 4: at step 5 (one evaluation done) the
    time left is 11 steps (110 s) and 3 evaluations (450 s). The old meter said (5 steps + the
    evaluation)/5 x 11 = 352 s: the evaluations to come were missing, the one past spread over steps."""
    meter = StepMeter(0, 16, 4, eval_every=4, eval_examples=200)
    _steps(meter, clock, 1, 4, 10.0)
    with meter.paused(evaluation=True):
        clock.now += 150.0
    _steps(meter, clock, 5, 5, 10.0)
    event = meter.event(5, 1e-4, None)
    assert event.eta_s == pytest.approx(110.0 + 3 * 150.0)
    # the loop logs a step before it evaluates it: at step 4 that evaluation is still ahead, and so is the last
    assert meter.evals_left(4) == 4 and meter.evals_left(15) == 1 and meter.evals_left(16) == 1


def test_before_the_first_evaluation_its_time_is_estimated_from_the_training_speed(clock):
    """No evaluation timed yet: each still due costs the evaluation rows at 3x the training's
    examples/s (a forward pass without the backward). The last step's line still has its
    evaluation ahead: it said 0:00 and then evaluated."""
    meter = StepMeter(0, 10, 5, eval_every=5, eval_examples=480)
    _steps(meter, clock, 1, 2, 1.0, batch=16)  # 16 examples/s trained
    event = meter.event(2, 1e-4, None)
    assert event.eta_s == pytest.approx(8 * 1.0 + 2 * 480 / (3 * 16))
    _steps(meter, clock, 3, 10, 1.0, batch=16)
    assert meter.event(10, 1e-4, None).eta_s == pytest.approx(480 / (3 * 16))


def test_without_evaluation_rows_only_training_steps_are_left_and_other_passes_are_not_training(clock):
    """A last step that is not a multiple of eval_every still evaluates; a run with nothing to
    evaluate has only steps left; a data-map pass (paused, not an evaluation) is not training time."""
    meter = StepMeter(2, 12, 5)  # resumed at step 2, no evaluation rows
    _steps(meter, clock, 3, 4, 2.0)
    with meter.paused():
        clock.now += 30.0
    event = meter.event(4, 1e-4, None)
    assert event.eta_s == pytest.approx(8 * 2.0)
    assert StepMeter(0, 12, 5, eval_every=5).evals_left(11) == 1  # the last step's
    assert StepMeter(0, 12, 5, eval_every=5).evals_left(10) == 2 and StepMeter(0, 12, 5, eval_every=5).evals_left(12) == 1
