"""One pass over an evaluation set: batches sorted by length, no gradients, streaming
accumulation (the task's accumulator keeps only per-example results, never all logits),
in the precision the machine trains in (:func:`for_inference`)."""

from __future__ import annotations

import contextlib
import threading
from functools import partial
from typing import Any, Iterator, Mapping

import torch
from torch.utils.data import DataLoader

from bertstudio.tasks.base import model_inputs
from bertstudio.tasks.collate import PAD_MULTIPLE
from bertstudio.train.batching import FixedBatchSampler, sorted_batches

# Evaluation holds no activations for backward, so it affords bigger batches.
EVAL_BATCH_FACTOR = 2
# Targets are not needed to predict; leaving them out skips the loss computation.
_TARGETS = ("labels", "start_positions", "end_positions")


def eval_loader(encoded: Any, task: Any, pad_token_id: int, batch_size: int, *,
                pad_to_multiple_of: int | None = PAD_MULTIPLE, pin_memory: bool = False) -> DataLoader:
    """Rows sorted by length (longest first), so padding is minimal and the only short
    batch is the last one (what Accelerate's gather_for_metrics expects)."""
    batches = sorted_batches(encoded["length"], batch_size)
    collate = partial(task.collate, pad_token_id=pad_token_id, pad_to_multiple_of=pad_to_multiple_of)
    # own generator: starting an iterator must not draw from the global RNG (exact resume)
    return DataLoader(
        encoded, batch_sampler=FixedBatchSampler(batches), collate_fn=collate,
        generator=torch.Generator(), pin_memory=pin_memory,
    )


def record_precision(model: Any, precision: str) -> None:
    """Keep the precision a run trains in with the model's settings (saved in config.json),
    for :func:`for_inference` to read back."""
    settings = getattr(model, "config", None)
    if settings is not None:
        settings.bertstudio = {**(getattr(settings, "bertstudio", None) or {}), "precision": precision}


def for_inference(model: Any, device: str = "auto", precision: str = "auto") -> tuple[Any, str, str]:
    """``(model, device, precision)``: ``model`` on the device it will predict on, in the
    precision training uses there (train/hardware.resolve: bf16 where the CPU has native bf16
    that also measures faster than fp32, and on recent GPUs; fp16 on older GPUs; else
    fp32). Half-precision weights, not
    autocast: with no backward pass there is nothing to keep in fp32, and the accumulators
    read the logits as fp32. ``precision="fp32"`` keeps the exact path, and "auto" keeps it
    for a model whose run trained in fp32 (``config.bertstudio["precision"]``). A stand-in
    without dtypes (an ONNX model) only moves."""
    from bertstudio.train.hardware import resolve

    meta = getattr(getattr(model, "config", None), "bertstudio", None) or {}
    if precision == "auto" and meta.get("precision") == "fp32":
        precision = "fp32"  # a run that trained exactly predicts exactly, as its own evaluation did
    device, precision = resolve(device, precision)
    model = model.to(device)
    if isinstance(model, torch.nn.Module) and precision in ("bf16", "fp16"):
        heads = head_layers(model)
        kept = [{k: v.detach().clone() for k, v in head.state_dict().items()} for head in heads]
        model = model.to(torch.bfloat16 if precision == "bf16" else torch.float16)
        for head, state in zip(heads, kept):  # the head's own fp32 weights, not bf16 ones cast back
            head.float().load_state_dict(state)
    return model, device, precision


def head_layers(model: Any) -> list[torch.nn.Module]:
    """The task heads of ``model`` (each kind's ``head_modules``: classifier, qa_outputs), outermost
    only; [] for a stand-in without modules (an ONNX model)."""
    from bertstudio.tasks import TASKS

    if not isinstance(model, torch.nn.Module):
        return []
    names = {n for task in TASKS.values() for n in task.head_modules}
    found: list[tuple[str, torch.nn.Module]] = []
    for name, module in model.named_modules():
        if name.rsplit(".", 1)[-1] in names and not any(name.startswith(f"{outer}.") for outer, _ in found):
            found.append((name, module))
    return [module for _, module in found]


@contextlib.contextmanager
def fp32_heads(model: Any) -> Iterator[None]:
    """Run ``model``'s task heads in fp32 on an fp32 copy of what reaches them, whatever the
    encoder runs in (bf16 weights, autocast): a bf16 head wrote regression scores to steps of 1/64
    (every STS-B score of a young model became 3.75, Pearson 0.0) and tied class probabilities
    that AUC, the label-error finder and uncertainty sampling rank. The head is a few thousand
    multiply-adds, so this costs nothing; an fp32 model is unchanged."""
    heads = head_layers(model)
    before = [head.__dict__.get("forward") for head in heads]  # an instance's own forward, if it had one
    for head in heads:
        head.forward = partial(_fp32_forward, head, head.forward)
    try:
        yield
    finally:
        for head, forward in zip(heads, before):
            if forward is None:
                del head.forward  # back to the class's forward
            else:
                head.forward = forward


def _fp32_forward(head: torch.nn.Module, forward: Any, hidden: torch.Tensor, *args: Any, **kwargs: Any) -> Any:
    if not hidden.is_floating_point():
        return forward(hidden, *args, **kwargs)
    with torch.autocast(hidden.device.type, enabled=False):
        if all(p.dtype == torch.float32 for p in head.parameters()):
            return forward(hidden.float(), *args, **kwargs)
        # a half-precision head (the training loop's bf16 copy): its weights read in fp32 for this call
        params = {n: p.float() for n, p in head.named_parameters()}
        patched = head.forward
        head.forward = forward
        try:
            return torch.func.functional_call(head, params, (hidden.float(), *args), kwargs)
        finally:
            head.forward = patched


class Outputs(dict):
    """Model outputs by name (gathered ones, an ONNX session's), readable as attributes like
    a transformers ModelOutput."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _gather(accelerator: Any, batch: Mapping[str, torch.Tensor], outputs: Any) -> tuple[dict, Outputs]:
    """Every process's rows, without the repeats Accelerate adds to even out the last batch."""
    from bertstudio.train.distributed import gather_for_eval

    outs = {k: v for k, v in outputs.items() if isinstance(v, torch.Tensor) and k != "loss"}
    batch, outs = gather_for_eval(accelerator, dict(batch), outs)
    return batch, Outputs(outs)


def check_finite(outputs: Any) -> None:
    """ConfigError when the model's outputs hold NaN or infinity: predictions read off them
    (argmax of NaN is class 0) would be printed and scored with exit status 0."""
    from bertstudio.errors import ConfigError

    values = outputs.values() if hasattr(outputs, "values") else [getattr(outputs, "logits", None)]
    for value in values:
        if isinstance(value, torch.Tensor) and value.is_floating_point() and not bool(torch.isfinite(value).all()):
            raise ConfigError("the model's outputs hold NaN or infinite values", where="predictions",
                              expected="a model whose weights and settings give finite numbers")


class EvaluationCancelled(Exception):
    """The run's cancel was set between two evaluation batches: the predictions are partial, so
    nothing is scored from them."""


def predict_batches(
    model: torch.nn.Module,
    loader: DataLoader,
    accumulator: Any,
    *,
    accelerator: Any = None,
    device: torch.device | str | None = None,
    cancel: threading.Event | None = None,
) -> list[dict[str, Any]]:
    """Run ``model`` over ``loader`` feeding ``accumulator``; returns its per-example predictions.
    ``cancel`` set: raises EvaluationCancelled before the next batch (a large dev set takes minutes
    on a CPU). Read in one process only: the processes of a multi-process run gather each batch
    together, and one leaving alone would hang the others (their loop agrees on a cancel per step)."""
    was_training = model.training
    model.train(False)  # = eval(); the one mode switch an OnnxModel stand-in also offers
    multi = accelerator is not None and accelerator.num_processes > 1
    cancel = None if multi else cancel
    try:
        with torch.inference_mode(), fp32_heads(model):
            for batch in loader:
                if cancel is not None and cancel.is_set():
                    raise EvaluationCancelled
                if device is not None:
                    batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
                inputs = {k: v for k, v in model_inputs(batch).items() if k not in _TARGETS}
                outputs = model(**inputs)
                check_finite(outputs)
                if multi:
                    batch, outputs = _gather(accelerator, batch, outputs)
                accumulator.add(batch, outputs)
    finally:
        model.train(was_training)
    return accumulator.finish()
