"""Learning-rate schedule as a pure function of the optimizer step.

The loop sets the rate itself at the top of every step (nanoGPT style) instead of
stepping a scheduler object: the rate then depends on nothing but the step count,
so resuming needs no scheduler state, and it stays exact under ``accelerate launch``
(Accelerate's scheduler wrapper steps once per process, which would skew a schedule
counted in per-process steps).
"""

from __future__ import annotations

import math


def warmup_steps(total_steps: int, warmup_ratio: float) -> int:
    """Warm-up length in optimizer steps (rounded up, as transformers' Trainer does), at most all
    steps but one: warm-up starts at a rate of 0, so a one-step run warmed up for its step (the
    Trainer's rounding) trained at rate 0 - nothing learned, and nothing said."""
    return min(math.ceil(total_steps * warmup_ratio), max(0, total_steps - 1))


def linear_schedule(step: int, total_steps: int, warmup: int) -> float:
    """Multiplier of the peak rate for optimizer step ``step`` (0-based, the step about to run).

    Linear warm-up from 0 over ``warmup`` steps, then linear decay to 0 at ``total_steps``;
    identical to transformers' ``get_linear_schedule_with_warmup``.
    """
    if step < warmup:
        return step / max(1, warmup)
    return max(0.0, (total_steps - step) / max(1, total_steps - warmup))


def steps_per_epoch(num_batches: int, grad_accum: int) -> int:
    """Optimizer steps in one pass: a last, partial accumulation group still steps."""
    return math.ceil(num_batches / grad_accum)


def total_steps(num_batches: int, grad_accum: int, epochs: float) -> int:
    """Optimizer steps for ``epochs`` passes (fractional epochs allowed, at least one step)."""
    return max(1, math.ceil(steps_per_epoch(num_batches, grad_accum) * epochs))
