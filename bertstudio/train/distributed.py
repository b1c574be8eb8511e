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
  ``batch_size``: accelerate evens out the last round by repeating rows from the
  start and :func:`gather_for_eval` drops those repeats by the remainder
  ``len(dataset) % (batch_size * N)``. :func:`check_eval_loader` verifies it.
* Gather inside the evaluation loop, once per batch (the remainder only applies
  while the last batch is being read).
* Only the main process writes files or calls the user's callbacks
  (:func:`is_main_process`, :func:`on_main_process`).
* One run at a time per Python process: accelerate keeps its state in
  process-wide singletons (see :func:`make_accelerator`).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Mapping, Sequence, TypeVar

import torch

from bertstudio.errors import TrainingError

T = TypeVar("T")

# Padding values for token-level tensors that differ in length between processes:
# -100 is the loss's ignore index, -1 marks "no offset/word" in offset maps.
DEFAULT_FILLS: dict[str, int] = {"labels": -100, "offset_mapping": -1, "word_index": -1, "word_ids": -1}

_ACCELERATE_PRECISION = {"fp32": "no", "bf16": "bf16", "fp16": "fp16"}


def launched_world_size() -> int:
    """How many processes the launcher started (torchrun/accelerate set WORLD_SIZE); 1 otherwise."""
    for var in ("WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"):
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 1


def is_main_process() -> bool:
    """True on the process that writes files; usable before (or without) an Accelerator."""
    from accelerate.state import PartialState

    if PartialState._shared_state:  # already set up: ask accelerate
        return PartialState().is_main_process
    return int(os.environ.get("RANK", "0")) == 0


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


def make_accelerator(*, device: str = "auto", precision: str = "auto", grad_accum: int = 1) -> Any:
    """An ``Accelerator`` for ``device`` (auto | cpu | cuda | cuda:N | mps) and ``precision``
    (auto | fp32 | bf16 | fp16), resolved by :mod:`bertstudio.train.hardware` (auto never picks
    bf16 on a CPU that lacks native bf16). Under a launcher each process takes the device the
    launcher gave it (cuda:LOCAL_RANK, or the CPU with gloo); a ``cuda:N`` choice applies to
    single-process runs only. Returns the accelerator; :func:`precision_name` reads back the
    precision it uses."""
    from accelerate import Accelerator
    from accelerate.utils import DataLoaderConfiguration

    from bertstudio.train.hardware import resolve

    dev, prec = resolve(device, precision)
    world = launched_world_size()
    if world <= 1:
        _reset_accelerate_state()
        if dev.startswith("cuda:"):
            torch.cuda.set_device(int(dev.split(":", 1)[1]))
    return Accelerator(
        cpu=dev == "cpu",
        mixed_precision=_ACCELERATE_PRECISION[prec],
        gradient_accumulation_steps=grad_accum,
        # With pinned batches (see loader_options) the host-to-GPU copy overlaps the compute.
        dataloader_config=DataLoaderConfiguration(non_blocking=dev.startswith("cuda")),
    )


def loader_options(device: str) -> dict[str, Any]:
    """DataLoader keyword arguments for ``device``: pinned (page-locked) batches on CUDA, so
    the copy to the GPU can run asynchronously; nothing extra on CPU and MPS."""
    return {"pin_memory": str(device).startswith("cuda")}


def accelerator_for(config: Any) -> Any:
    """:func:`make_accelerator` with a TrainConfig's device, precision and grad_accum."""
    return make_accelerator(device=config.device, precision=config.precision, grad_accum=config.grad_accum)


def precision_name(accelerator: Any) -> str:
    """fp32 | bf16 | fp16, as bertstudio names precisions."""
    return {"no": "fp32"}.get(str(accelerator.mixed_precision), str(accelerator.mixed_precision))


def effective_batch_size(batch_size: int, grad_accum: int = 1, num_processes: int = 1) -> int:
    """Examples behind one optimizer step: per-process batch x accumulation x processes
    (accelerate's default ``split_batches=False`` gives every process a full batch)."""
    return batch_size * grad_accum * num_processes


def process_info(accelerator: Any) -> dict[str, Any]:
    """Rank, world size, device and backend, for the run log."""
    state = accelerator.state
    return {
        "process_index": accelerator.process_index,
        "num_processes": accelerator.num_processes,
        "device": str(accelerator.device),
        "distributed_type": str(state.distributed_type).split(".")[-1],
        "backend": getattr(state, "backend", None),
        "mixed_precision": precision_name(accelerator),
    }


def check_eval_loader(loader: Any) -> None:
    """Raise if ``loader`` cannot be gathered without duplicates: every batch but the last
    must hold ``batch_size`` rows and the loader must not drop the last one."""
    sampler = getattr(loader, "batch_sampler", None)
    size = getattr(loader, "batch_size", None) or getattr(sampler, "batch_size", None)
    if not isinstance(size, int) or size < 1:
        raise TrainingError(
            "the evaluation loader has no fixed batch size, so the rows repeated to even out the last batch could not be dropped",
            where="evaluation data loader",
            expected="a DataLoader with batch_size, or a batch_sampler with a batch_size attribute",
        )
    if getattr(sampler, "drop_last", False):
        raise TrainingError("the evaluation loader drops its last batch", where="evaluation data loader", expected="drop_last=False")
    if sampler is None:
        return
    batches = [len(b) for b in sampler]
    short = [i for i, n in enumerate(batches[:-1]) if n != size]
    if short or (batches and batches[-1] > size):
        raise TrainingError(
            f"batch {short[0] if short else len(batches) - 1} holds a different number of rows than batch_size={size}",
            where="evaluation data loader",
            expected="full batches except the last (sort rows, then cut them into equal batches)",
        )


def prepare(accelerator: Any, model: Any, optimizer: Any, train_loader: Any, eval_loader: Any = None) -> tuple[Any, Any, Any, Any]:
    """Wrap model (DDP), optimizer and loaders (one shard per process) for ``accelerator``.

    Returns ``(model, optimizer, train_loader, eval_loader)`` (eval_loader None when not
    given). The LR schedule is not passed through accelerate on purpose: its wrapper steps
    the scheduler N times per step under N processes, which is right only for a schedule
    sized in single-process batches; size the schedule from ``len(train_loader)`` after this
    call (batches per process) and set the learning rate yourself."""
    if eval_loader is not None:
        check_eval_loader(eval_loader)
        model, optimizer, train_loader, eval_loader = accelerator.prepare(model, optimizer, train_loader, eval_loader)
    else:
        model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    return model, optimizer, train_loader, eval_loader


def gather_for_eval(accelerator: Any, *tensors: Any, fills: Mapping[str, int] | None = None) -> Any:
    """Every process's rows of one evaluation batch, in dataset order, without the repeats
    accelerate adds to the last round. Accepts dicts of tensors (a batch, model outputs);
    returns them as given when only one process runs. Tensors of two or more dimensions are
    first padded along dim 1 to the longest across processes (token-level logits, labels,
    offsets differ in length between processes) with ``fills[key]`` (default
    :data:`DEFAULT_FILLS`, else 0)."""
    if accelerator.num_processes == 1:
        return tensors[0] if len(tensors) == 1 else tensors
    fills = {**DEFAULT_FILLS, **(fills or {})}
    padded = []
    for group in tensors:
        out = {}
        for key, value in group.items():
            if isinstance(value, torch.Tensor) and value.ndim >= 2:
                value = accelerator.pad_across_processes(value, dim=1, pad_index=fills.get(key, 0))
            out[key] = value
        padded.append(out)
    gathered = accelerator.gather_for_metrics(tuple(padded))
    return gathered[0] if len(tensors) == 1 else tuple(gathered)


def gather_objects(accelerator: Any, items: Sequence[T]) -> list[T]:
    """Gather one batch's per-example Python objects (e.g. prediction dicts) from every
    process, without the last round's repeats. Call once per evaluation batch."""
    if accelerator.num_processes == 1:
        return list(items)
    return list(accelerator.gather_for_metrics(list(items), use_gather_object=True))


def any_process(accelerator: Any, flags: Sequence[bool]) -> list[bool]:
    """Each flag set on any process counts for all (cancel, stop, evaluate now), so every
    process takes the same branch and no collective call is left waiting."""
    if accelerator.num_processes == 1:
        return [bool(f) for f in flags]
    t = torch.tensor([float(f) for f in flags], device=accelerator.device)
    return [bool(v) for v in accelerator.reduce(t, reduction="sum").tolist()]


def mean_over_processes(accelerator: Any, total: float, count: int) -> float:
    """Weighted mean of a per-process sum (e.g. summed loss over ``count`` examples)."""
    if accelerator.num_processes == 1:
        return total / count if count else 0.0
    t = torch.tensor([float(total), float(count)], dtype=torch.float64, device=accelerator.device)
    s, n = accelerator.reduce(t, reduction="sum").tolist()
    return s / n if n else 0.0


def on_main_process(accelerator: Any, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Run ``fn`` on the main process only (file writes, callbacks), then let every process
    continue together. Returns fn's result on the main process, None elsewhere."""
    result = fn(*args, **kwargs) if accelerator.is_main_process else None
    accelerator.wait_for_everyone()
    return result
