"""How an optimizer step runs on this machine: the two paths fit() chooses between, once.

fit() reads the same on every device; what differs lives here, behind these hooks:

    path = choose_path(config)            # device and precision resolved here, once
    train_loader, eval_loader = path.loaders(parts, train_rows, eval_rows)
    model, train_loader, eval_loader = path.prepare(model, train_loader, eval_loader)
    for batch in train_loader:            # inside accelerator.accumulate(model)
        with path.autocast():
            loss = path.module(**batch).loss
        path.accelerator.backward(loss)
        path.after_backward()
        if path.accelerator.sync_gradients:
            grad_norm = path.step(lr)     # set the rate, clip, step
            path.after_step()             # zero the gradients (and refresh the bf16 copy)
    path.undo()                           # a plain model again, for saving

* :class:`PlainPath` is Hugging Face Accelerate's loop: GPUs, MPS and every
  multi-process (DDP) run. Accelerate places and wraps the model, runs autocast for
  bf16/fp16 and scales fp16 losses; the path clips with ``accelerator.clip_grad_norm_``
  and steps fused AdamW (what transformers' Trainer does).
* :class:`CpuFastPath` is one CPU process: the same Accelerate bookkeeping (gradient
  accumulation, the data loader) plus the CPU speed-ups, each owned by its module -
  fast dropout (dropout.py), sparse word-embedding gradients and an AdamW that clips by
  itself (shadow.py, optim.py), malloc kept warm and weights out of the checkpoint's
  memory map (memory.py) and, for bf16, a bf16 copy of the model with fp32 master
  weights (shadow.py) fed batches padded to planned widths (batching.py).

benchmarks/step_breakdown.py times the same two objects side by side.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any, Callable, ContextManager

import torch
from torch.utils.data import DataLoader

from bertstudio.tasks.collate import PAD_MULTIPLE
from bertstudio.train import evaluation
from bertstudio.train.batching import EpochBatchSampler
from bertstudio.train.config import TrainConfig
from bertstudio.train.distributed import launched_world_size, loader_options, make_accelerator
from bertstudio.train.dropout import use_fast_dropout
from bertstudio.train.hardware import resolve
from bertstudio.train.memory import keep_freed_memory, own_trainable_weights
from bertstudio.train.optim import make_optimizer
from bertstudio.train.shadow import Bf16Shadow, sparse_embedding, word_embedding


def choose_path(config: TrainConfig) -> PlainPath:
    """:class:`CpuFastPath` for a single CPU process, else :class:`PlainPath`. Device and
    precision are resolved here and nowhere else ("auto" never picks bf16 on a CPU without
    native bf16 instructions, see :mod:`bertstudio.train.hardware`)."""
    device, precision = resolve(config.device, config.precision)
    if device == "cpu" and launched_world_size() <= 1:
        return CpuFastPath(config, precision)
    return PlainPath(config, device, precision)


class PlainPath:
    """Accelerate's loop. After :meth:`loaders`: :attr:`sampler`; after :meth:`prepare`:
    :attr:`model` (prepared), :attr:`module` (what runs forward and evaluation),
    :attr:`optimizer` (prepared)."""

    #: the batch sampler plans padded widths per batch shape (see batching.plan_widths)
    plan_widths = False

    def __init__(self, config: TrainConfig, device: str, precision: str, *, accelerate_precision: str | None = None) -> None:
        self.config = config
        self.precision = precision  # fp32 | bf16 | fp16, as reported
        self.accelerator = make_accelerator(device=device, precision=accelerate_precision or precision,
                                            grad_accum=config.grad_accum)
        self.device = str(self.accelerator.device)
        # multiples of 8 feed GPU tensor cores aligned tiles; elsewhere the extra columns only add work
        self.pad_to_multiple_of: int | None = PAD_MULTIPLE if self.device.startswith("cuda") else None
        self.sampler: EpochBatchSampler | None = None  # the training batches' order, set by loaders()
        self.model: Any = None
        self.module: Any = None
        self.optimizer: Any = None
        self._undo: list[Callable[[], None]] = []

    def loaders(self, parts: Any, train_rows: Any, eval_rows: Any = None) -> tuple[DataLoader, DataLoader | None]:
        """The training loader (length-grouped batches, reshuffled each epoch) and the
        evaluation loader (None without ``eval_rows``) for ``parts``' task and tokenizer,
        padded as this path wants (:attr:`pad_to_multiple_of`, :attr:`plan_widths`)."""
        config, tokenizer = self.config, parts.tokenizer
        pad_id = tokenizer.pad_token_id if tokenizer is not None and tokenizer.pad_token_id is not None else 0
        self.sampler = sampler = EpochBatchSampler(train_rows["length"], config.batch_size, seed=config.seed,
                                                   group_by_length=config.group_by_length, plan_widths=self.plan_widths)
        collate = partial(parts.task.collate, pad_token_id=pad_id, pad_to_multiple_of=self.pad_to_multiple_of, widths=sampler.widths)
        # Own generators: creating a loader iterator must not draw from the global RNG,
        # or a resumed run's dropout masks would drift from an uninterrupted run's.
        pin = loader_options(self.device)["pin_memory"]
        train = DataLoader(train_rows, batch_sampler=sampler, collate_fn=collate, generator=torch.Generator().manual_seed(config.seed),
                           pin_memory=pin)
        if eval_rows is None:
            return train, None
        return train, evaluation.eval_loader(eval_rows, parts.task, pad_id, config.batch_size * evaluation.EVAL_BATCH_FACTOR,
                                             pad_to_multiple_of=self.pad_to_multiple_of, pin_memory=pin)

    def prepare(self, model: torch.nn.Module, train_loader: Any, eval_loader: Any = None) -> tuple[Any, Any, Any]:
        """Build AdamW and hand model, optimizer and loaders to Accelerate (device placement,
        DDP, autocast). Load weights to resume from before this, optimizer state after."""
        if self.device == "cpu":
            own_trainable_weights(model)  # out of the checkpoint's mmap: no copy-on-write faults in step 1
        optimizer = self._make_optimizer(model)
        loaders = [loader for loader in (train_loader, eval_loader) if loader is not None]
        self.model, self.optimizer, *loaders = self.accelerator.prepare(model, optimizer, *loaders)
        self.module = self.model
        return self.model, loaders[0], (loaders[1] if eval_loader is not None else None)

    def _make_optimizer(self, model: torch.nn.Module) -> torch.optim.Optimizer:
        return make_optimizer(model, lr=self.config.lr, weight_decay=self.config.weight_decay, device=self.device,
                              head_lr=self.config.head_learning_rate)

    def autocast(self) -> ContextManager[Any]:
        """Around forward passes; Accelerate's prepared model runs its own autocast."""
        return contextlib.nullcontext()

    def after_backward(self) -> None:
        """After every backward pass (each micro-batch)."""

    def step(self, lr: float) -> torch.Tensor | None:
        """Set the learning rate, clip, step; returns the gradient norm before clipping
        (None when clipping is off)."""
        for group in self.optimizer.param_groups:
            group["lr"] = lr * group.get("lr_scale", 1.0)
        norm = None
        if self.config.max_grad_norm > 0:
            norm = self.accelerator.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
        self.optimizer.step()
        return norm

    def after_step(self) -> None:
        self.optimizer.zero_grad(set_to_none=True)

    def weights_changed(self) -> None:
        """The trained weights were set outside the optimizer (train/engine.py's keep_tuning):
        whatever copy of them the path trains on follows."""

    def undo(self) -> None:
        """Switch off what :meth:`prepare` switched on for speed, so that what is saved and
        returned is a plain model. Safe to call twice."""
        while self._undo:
            self._undo.pop()()


class CpuFastPath(PlainPath):
    """One CPU process: Accelerate's bookkeeping plus the CPU speed-ups (module docstring).
    bf16 with ``bf16_weights`` trains :attr:`shadow`'s bf16 copy (Accelerate then runs in
    fp32); without it bf16 is Accelerate's autocast over fp32 weights."""

    def __init__(self, config: TrainConfig, precision: str) -> None:
        bf16_copy = precision == "bf16" and config.bf16_weights
        super().__init__(config, "cpu", precision, accelerate_precision="fp32" if bf16_copy else precision)
        self.pad_to_multiple_of = None
        # oneDNN builds bf16 matmul kernels per batch shape, so rare lengths are padded up to a
        # neighbour's where that is cheaper (see batching.plan_widths)
        self.plan_widths = bf16_copy and config.group_by_length
        self.bf16_copy = bf16_copy
        self.shadow: Bf16Shadow | None = None
        self._clipping: Any = None

    def prepare(self, model: torch.nn.Module, train_loader: Any, eval_loader: Any = None) -> tuple[Any, Any, Any]:
        self._undo.append(keep_freed_memory())
        self._undo.append(use_fast_dropout(model))
        emb = word_embedding(model) if self.config.sparse_embeddings else None
        if emb is not None:
            self._undo.append(sparse_embedding(emb))
        model, train_loader, eval_loader = super().prepare(model, train_loader, eval_loader)
        if self.bf16_copy:  # built from the weights loaded so far (a resumed run loads them first)
            self.shadow = Bf16Shadow(self.accelerator.unwrap_model(model))
            self.module = self.shadow.module
        return model, train_loader, eval_loader

    def _make_optimizer(self, model: torch.nn.Module) -> torch.optim.Optimizer:
        self._clipping = make_optimizer(model, lr=self.config.lr, weight_decay=self.config.weight_decay, device="cpu",
                                        clip_norm=self.config.max_grad_norm, head_lr=self.config.head_learning_rate)
        return self._clipping

    def autocast(self) -> ContextManager[Any]:
        # the bf16 copy needs no casts; autocast only lifts the loss functions to fp32
        return torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.shadow is not None)

    def after_backward(self) -> None:
        if self.shadow is not None:
            self.shadow.collect()  # bf16 gradients -> fp32 .grad of the master weights

    def step(self, lr: float) -> torch.Tensor | None:
        for group in self.optimizer.param_groups:
            group["lr"] = lr * group.get("lr_scale", 1.0)
        self.optimizer.step()  # clips as it steps (ClippedLazyAdamW)
        return self._clipping.last_grad_norm if self.config.max_grad_norm > 0 else None

    def after_step(self) -> None:
        if self.shadow is not None:
            self.shadow.push()  # updated fp32 weights -> the bf16 copy
        super().after_step()

    def weights_changed(self) -> None:
        if self.shadow is not None:
            self.shadow.push(everything=True)
