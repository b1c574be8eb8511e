"""Helpers that let one training loop run single-process or data-parallel under
``accelerate launch`` with no code change.

How to launch N processes (checked against accelerate 1.15's launcher):

* GPUs: ``accelerate launch --num_processes N -m bertstudio train --config run.toml``
  (with more than one CUDA device accelerate turns on multi-GPU by itself).
* CPU only (gloo): ``accelerate launch --multi_gpu --num_processes N -m bertstudio ...``.
  The flag name is misleading but it selects accelerate's torchrun launcher, and
  ``Accelerator(cpu=True)`` then joins a gloo group. ``--cpu --num_processes N``
  on its own starts ONE process (accelerate only fans out CPU runs through
  ``mpirun``), so it is not data-parallel. ``torchrun --nproc_per_node N`` works too.

What the loop must respect so that N processes give the single-process result:

* Build every process's model the same way (same seed) and shuffle with a seed that
  does not depend on the rank: accelerate shards one global order of batches,
  process i taking batches i, i+N, ... (``BatchSamplerShard``).
* Evaluation loaders must yield full batches except the last and expose
  ``batch_size`` (:func:`bertstudio.train.evaluation.eval_loader` does): accelerate
  evens out the last round by repeating rows from the start and
  :func:`gather_for_eval` drops those repeats by the remainder
  ``len(dataset) % (batch_size * N)``.
* Gather inside the evaluation loop, once per batch (the remainder only applies
  while the last batch is being read).
* Every process takes the same branch (:func:`any_process`), or a collective call is
  left waiting; only the main process writes files or calls the user's callbacks.
* One run at a time per Python process: accelerate keeps its state in
  process-wide singletons (see :func:`make_accelerator`).
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import torch

# Padding values for token-level tensors that differ in length between processes:
# -100 is the loss's ignore index, -1 marks "no offset/word" in offset maps.
FILLS: dict[str, int] = {"labels": -100, "offset_mapping": -1, "word_index": -1, "word_ids": -1}

_ACCELERATE_PRECISION = {"fp32": "no", "bf16": "bf16", "fp16": "fp16"}


def launched_world_size() -> int:
    """How many processes the launcher started (torchrun/accelerate set WORLD_SIZE); 1 otherwise.
    A value that is no whole number is a ConfigError naming the variable: it was passed over here,
    and accelerate then failed the run at step 1 ("invalid literal for int()", exit 1)."""
    from bertstudio.errors import ConfigError

    for var in ("WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"):
        value = (os.environ.get(var) or "").strip()
        if value and not value.isdigit():
            raise ConfigError(f"{var}={value!r} in the environment is not a number of processes", where=var,
                              expected="the whole number accelerate launch or torchrun sets, or the variable unset")
        if value:
            return int(value)
    return 1


def launched_rank() -> int:
    """This process's rank among those the launcher started (RANK); 0 otherwise. Only rank 0
    writes files and prints what a run ends with (the others said the last evaluation's
    metrics, not the best one's, and wrote seeds.json with them). A RANK without a world of
    more than one process is no launcher's: a stray RANK=1 trained and printed nothing at all."""
    if launched_world_size() <= 1:
        return 0
    for var in ("RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"):
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 0


def _reset_accelerate_state() -> None:
    """Forget a previous run's accelerate singletons (single-process runs only).

    Accelerate keeps device and precision in process-wide shared state. Without a reset
    a second run in the same process (the GUI, a test session) either raises ("already
    initialized ... mixed_precision") or silently reuses the first run's device: a CPU
    run followed by a CUDA run would train on the CPU. Under a launcher the state belongs
    to the process group and must stay.
    """
    from accelerate.state import AcceleratorState, GradientState

    AcceleratorState._reset_state(reset_partial_state=True)
    GradientState._reset_state()


def make_accelerator(*, device: str, precision: str, grad_accum: int = 1) -> Any:
    """An ``Accelerator`` for a device (cpu | cuda | cuda:N | mps) and precision (fp32 | bf16 |
    fp16) already resolved by :func:`bertstudio.train.hardware.resolve`. Under a launcher
    each process takes the device the launcher gave it (cuda:LOCAL_RANK, or the CPU with
    gloo); a ``cuda:N`` choice applies to single-process runs only."""
    from accelerate import Accelerator
    from accelerate.utils import DataLoaderConfiguration

    if launched_world_size() <= 1:
        _reset_accelerate_state()
        if device.startswith("cuda:"):
            torch.cuda.set_device(int(device.split(":", 1)[1]))
    return Accelerator(
        cpu=device == "cpu",
        mixed_precision=_ACCELERATE_PRECISION[precision],
        gradient_accumulation_steps=grad_accum,
        # With pinned batches (see loader_options) the host-to-GPU copy overlaps the compute.
        dataloader_config=DataLoaderConfiguration(non_blocking=device.startswith("cuda")),
    )


def loader_options(device: str) -> dict[str, Any]:
    """DataLoader keyword arguments for ``device``: pinned (page-locked) batches on CUDA, so
    the copy to the GPU can run asynchronously; nothing extra on CPU and MPS."""
    return {"pin_memory": str(device).startswith("cuda")}


def gather_for_eval(accelerator: Any, *tensors: Any) -> Any:
    """Every process's rows of one evaluation batch, in dataset order, without the repeats
    accelerate adds to the last round. Accepts dicts of tensors (a batch, model outputs);
    returns them as given when only one process runs. Tensors of two or more dimensions are
    first padded along dim 1 to the longest across processes (token-level logits, labels,
    offsets differ in length between processes) with :data:`FILLS` (else 0)."""
    if accelerator.num_processes == 1:
        return tensors[0] if len(tensors) == 1 else tensors
    padded = []
    for group in tensors:
        out = {}
        for key, value in group.items():
            if isinstance(value, torch.Tensor) and value.ndim >= 2:
                value = accelerator.pad_across_processes(value, dim=1, pad_index=FILLS.get(key, 0))
            out[key] = value
        padded.append(out)
    gathered = accelerator.gather_for_metrics(tuple(padded))
    return gathered[0] if len(tensors) == 1 else tuple(gathered)


def any_process(accelerator: Any, flags: Sequence[bool]) -> list[bool]:
    """Each flag set on any process counts for all (cancel, stop, evaluate now), so every
    process takes the same branch and no collective call is left waiting."""
    if accelerator.num_processes == 1:
        return [bool(f) for f in flags]
    t = torch.tensor([float(f) for f in flags], device=accelerator.device)
    return [bool(v) for v in accelerator.reduce(t, reduction="sum").tolist()]
