"""Turn whatever stopped a run into one clear, user-facing TrainingError."""

from __future__ import annotations

import errno

import torch

from bertstudio.errors import BertStudioError, TrainingError


def describe_failure(exc: BaseException, *, step: int, phase: str) -> BertStudioError:
    """The error to show for ``exc`` raised at optimizer step ``step`` while ``phase``."""
    if isinstance(exc, BertStudioError):
        return exc
    where = f"step {step}" if phase == "training" else phase
    if isinstance(exc, (torch.OutOfMemoryError, MemoryError)):
        return TrainingError(
            f"out of memory while {phase} at step {step}",
            where=where,
            expected="a smaller batch size or maximum length (gradient accumulation keeps the effective batch)",
        )
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC:
            return TrainingError(
                "the disk is full; the checkpoint being written was discarded and the previous best checkpoint is intact",
                path=exc.filename, where=where, expected="free disk space, then resume from checkpoints/last",
            )
        return TrainingError(f"could not write run files: {exc.strerror or exc}", path=exc.filename, where=where)
    return TrainingError(f"{phase} failed at step {step}: {type(exc).__name__}: {exc}", where=where)
