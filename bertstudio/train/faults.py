"""Turn whatever stopped a run into one clear, user-facing error.

The message says only what is true on disk at that moment: which checkpoint is
still whole, and where to resume from, are read from the run folder, not
assumed. Building the message never raises (it runs on the failure path, where
the disk may be full or gone).
"""

from __future__ import annotations

from typing import Any

import torch

from bertstudio.errors import BertStudioError, TrainingError, disk_full


def describe_failure(exc: BaseException, *, step: int, phase: str, folder: Any = None) -> BertStudioError:
    """The error to show for ``exc`` raised at optimizer step ``step`` while ``phase``;
    ``folder`` is the run's RunFolder when one was created."""
    if isinstance(exc, BertStudioError):
        return exc
    gone = _gone(folder)
    if gone is not None:  # whatever the write that failed said ("No such file or directory"), this is why
        return gone
    at = f" at step {step}" if phase == "training" else ""
    if isinstance(exc, (torch.OutOfMemoryError, MemoryError)):
        return TrainingError(
            f"out of memory while {phase}{at}",
            expected="a smaller batch size or maximum length (gradient accumulation keeps the effective batch)",
        )
    if isinstance(exc, OSError) or disk_full(exc):  # safetensors says "os error 28" in its own error type
        kept, resume = _on_disk(folder)
        # the run folder, not the file that failed: that was a temporary one, removed by now
        path = folder.root if folder is not None else getattr(exc, "filename", None)
        if disk_full(exc):
            return TrainingError(f"the disk is full{at}{kept}", path=path,
                                 expected=f"free disk space, then {resume or 'start the run again'}")
        return TrainingError(f"could not write run files{at}: {getattr(exc, 'strerror', None) or exc}{kept}", path=path,
                             expected=resume or None)
    back = "; the run it was replacing is put back" if getattr(folder, "replaced", None) is not None else ""
    return TrainingError(f"{phase} failed{at}: {type(exc).__name__}: {exc}{back}")


def _gone(folder: Any) -> BertStudioError | None:
    """The run folder's own error when it (or its history) was removed or moved meanwhile."""
    try:
        return folder.gone() if folder is not None else None
    except Exception:  # noqa: BLE001 - never raises, see the module docstring
        return None


def _on_disk(folder: Any) -> tuple[str, str]:
    """('; checkpoints/best (step N) is intact' or '', 'resume from <path>' or '') as the folder stands."""
    if folder is None:
        return "", ""
    if getattr(folder, "replaced", None) is not None:  # an --overwrite run: its files go, the earlier run comes back
        return "; the run it was replacing is put back", ""
    try:
        best = folder.best_on_disk()
        last = folder.resumable()
    except Exception:  # noqa: BLE001 - an unreadable folder just means nothing can be promised
        return "", ""
    kept = ""
    if best is not None:
        kept = f"; the best checkpoint so far ({best[0]}, step {best[1]}) is intact" if best[1] >= 0 else f"; {best[0]} is intact"
    return kept, f"resume from {last}" if last is not None else ""
