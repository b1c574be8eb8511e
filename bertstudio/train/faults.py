"""Turn whatever stopped a run into one clear, user-facing TrainingError."""

from __future__ import annotations

import errno

import torch

from bertstudio.errors import BertStudioError, TrainingError


def describe_failure(exc: BaseException, *, step: int, phase: str) -> BertStudioError:
    """The error to show for ``exc`` raised at optimizer step ``step`` while ``phase``."""
    if isinstance(exc, BertStudioError):
        return exc
    at = f" at step {step}" if phase == "training" else ""
    if isinstance(exc, (torch.OutOfMemoryError, MemoryError)):
        return TrainingError(
            f"out of memory while {phase}{at}",
            expected="a smaller batch size or maximum length (gradient accumulation keeps the effective batch)",
        )
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC:
            return TrainingError(
                f"the disk is full{at}; the checkpoint being written was discarded and the previous best checkpoint is intact",
                path=exc.filename, expected="free disk space, then resume from checkpoints/last",
            )
        return TrainingError(f"could not write run files{at}: {exc.strerror or exc}", path=exc.filename)
    return TrainingError(f"{phase} failed{at}: {type(exc).__name__}: {exc}")
