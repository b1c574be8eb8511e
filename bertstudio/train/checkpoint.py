"""Checkpoints that a crash or a full disk can never leave half-written.

A checkpoint is a folder: ``weights.pt`` (the model's raw state dict, adapters
included, so a LoRA run resumes as LoRA), ``state.json`` (step, epoch, batch
position, metrics), and for ``last`` also ``optimizer.pt`` and ``rng.pt``.
It is written into a temporary sibling folder and swapped in with renames, so
the previous checkpoint stays whole until the new one is complete. Every file
goes through :func:`write_file`, the one place a disk error can surface.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

WEIGHTS = "weights.pt"
OPTIMIZER = "optimizer.pt"
RNG = "rng.pt"
STATE = "state.json"


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` and flush it to the disk (raises OSError, e.g. ENOSPC)."""
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _torch_bytes(obj: Any) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def rng_state() -> dict[str, Any]:
    state = {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(
    folder: str | Path,
    *,
    model: torch.nn.Module,
    state: dict[str, Any],
    optimizer: torch.optim.Optimizer | None = None,
    extra_files: dict[str, bytes] | None = None,
) -> Path:
    """Write a checkpoint to ``folder`` atomically; on any error the old one is untouched."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tmp.mkdir()
        write_file(tmp / WEIGHTS, _torch_bytes({k: v.detach().cpu() for k, v in model.state_dict().items()}))
        if optimizer is not None:
            write_file(tmp / OPTIMIZER, _torch_bytes(optimizer.state_dict()))
            write_file(tmp / RNG, _torch_bytes(rng_state()))
        for name, data in (extra_files or {}).items():
            write_file(tmp / name, data)
        # state.json last: its presence marks a complete checkpoint
        write_file(tmp / STATE, json.dumps(state, indent=1).encode("utf-8"))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    # Swap: folder -> old, tmp -> folder. Between the two renames only ``old`` exists;
    # find_checkpoint() falls back to it, so a crash there loses nothing.
    if folder.exists():
        shutil.rmtree(old, ignore_errors=True)
        os.replace(folder, old)
    os.replace(tmp, folder)
    shutil.rmtree(old, ignore_errors=True)
    return folder


def find_checkpoint(folder: str | Path) -> Path | None:
    """The complete checkpoint at ``folder`` (or its ``.old`` twin left by a crash mid-swap)."""
    folder = Path(folder)
    if (folder / STATE).is_file():
        return folder
    for cand in sorted(folder.parent.glob(f".{folder.name}.*.old")):
        if (cand / STATE).is_file():
            return cand
    return None


def read_state(folder: str | Path) -> dict[str, Any]:
    return json.loads((Path(folder) / STATE).read_text(encoding="utf-8"))


def load_weights(folder: str | Path, model: torch.nn.Module) -> None:
    sd = torch.load(Path(folder) / WEIGHTS, map_location="cpu", weights_only=True)
    model.load_state_dict(sd)


def load_training_state(folder: str | Path, optimizer: torch.optim.Optimizer) -> None:
    """Optimizer moments and every RNG, so a resumed run continues bit for bit on CPU."""
    folder = Path(folder)
    optimizer.load_state_dict(torch.load(folder / OPTIMIZER, map_location="cpu", weights_only=True))
    # our own file: RNG states hold numpy arrays and tuples, which weights_only refuses
    set_rng_state(torch.load(folder / RNG, map_location="cpu", weights_only=False))
