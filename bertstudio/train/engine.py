"""The training engine: one readable loop, run by Hugging Face Accelerate.

``train(config)`` reads top to bottom like nanoGPT's train.py: set the learning
rate, forward, backward, clip, step, log, evaluate. Helpers are small pure
functions in their own modules (schedule, batching, optim, hardware, checkpoint).
The same code runs single-process here and data-parallel under
``accelerate launch --num_processes N``: Accelerate prepares the model,
optimizer and data loaders, scales and syncs gradients, and gathers evaluation
rows; only the main process writes files or calls callbacks.

Contract: :func:`train` does not raise for a run that cannot go on. It emits
``RunFinished(status="failed", message=...)`` and returns a :class:`RunResult`
with ``status="failed"``, the one-line ``message`` and the
:class:`~bertstudio.errors.TrainingError` (or Config/DataError) in ``error``.
That covers bad settings or data, a model whose forward raises, a NaN/inf
loss (stopped before that step's update), out of memory and a full disk. The
best checkpoint on disk is never touched by a failing save.

A cancelled run (``cancel`` set, checked after every optimizer step) saves
``checkpoints/last`` (resumable) and exports ``model/`` with the best weights so
far when an evaluation has happened, else with the last weights; it ends with
``RunFinished(status="cancelled")``. A finished run exports the best weights too.

Resume: ``resume_from = "<run>/checkpoints/last"`` with the same settings and
``output_dir``. Weights, AdamW moments, every RNG, the step and the position
inside the epoch are restored (the learning rate is a function of the step), so
on CPU the resumed run ends with the weights and metrics of an uninterrupted one.

A callback that raises is logged with its traceback and the run goes on.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable

import torch
from torch.utils.data import DataLoader

from bertstudio.errors import BertStudioError, ConfigError, TrainingError
from bertstudio.tasks.base import model_inputs
from bertstudio.tasks.model import count_parameters
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.batching import EpochBatchSampler, TrimmedCollate
from bertstudio.train.config import TrainConfig
from bertstudio.train.distributed import any_process, launched_world_size, loader_options, make_accelerator, precision_name
from bertstudio.train.dropout import use_fast_dropout
from bertstudio.train.evaluation import EVAL_BATCH_FACTOR, eval_loader, predict_batches
from bertstudio.train.events import CheckpointSaved, Control, Evaluated, RunFinished, RunStarted, StepLogged
from bertstudio.train.faults import describe_failure
from bertstudio.train.hardware import resolve
from bertstudio.train.memory import keep_freed_memory, own_trainable_weights
from bertstudio.train.notify import Notifier
from bertstudio.train.optim import make_optimizer
from bertstudio.train.preflight import check_before_start
from bertstudio.train.progress import Progress
from bertstudio.train.rundir import RunFolder, jsonl, prediction_rows
from bertstudio.train.schedule import linear_schedule, steps_per_epoch, total_steps, warmup_steps
from bertstudio.train.shadow import Bf16Shadow, sparse_embedding, word_embedding
from bertstudio.train.sources import load_sets

log = logging.getLogger(__name__)


@dataclass
class RunResult:
    status: str  # "finished" | "cancelled" | "failed"
    metrics: dict[str, float] = field(default_factory=dict)
    output_dir: str | None = None
    model_dir: str | None = None
    message: str = ""
    step: int = 0
    error: BertStudioError | None = None
    model: Any = field(default=None, repr=False)  # the trained model (best weights), in memory


@dataclass
class RunParts:
    """What the loop trains: any model whose forward takes the task's collated batch
    and returns ``.loss`` plus the task's outputs; ``save(model, tokenizer, folder)``
    exports it (default: tasks.model.save_model)."""

    model: torch.nn.Module
    tokenizer: Any
    task: Any
    labels: list[str]
    save: Callable[[Any, Any, Path], None] | None = None


def build_parts(config: TrainConfig, labels: list[str]) -> RunParts:
    from bertstudio.tasks import get_task
    from bertstudio.tasks.model import build_model, resolve_model, save_model

    model, tokenizer = build_model(
        config.task,
        resolve_model(config.model),
        labels=labels,
        head=config.head,
        mode=config.mode,
        lora=(config.lora_rank, config.lora_alpha, config.lora_dropout, list(config.lora_targets)),
        glue_task=config.glue_task,
    )
    return RunParts(model, tokenizer, get_task(config.task), labels, save_model)


def train(
    config: TrainConfig,
    train_set: Any = None,
    eval_set: Any = None,
    *,
    callbacks: Iterable[Callable] = (),
    cancel: threading.Event | None = None,
) -> RunResult:
    """Fine-tune the model ``config`` names on ``train_set`` (default: the files the config names)."""
    from accelerate.utils import set_seed

    notify = Notifier(callbacks)
    try:
        check_before_start(config)  # the run folder, a resume checkpoint, the model folder: before anything is built
        train_set, eval_set = load_sets(config, train_set, eval_set)
        labels = list(config.labels or train_set.labels)
        set_seed(config.seed)  # before the model: the new head's initial weights come from it
        parts = build_parts(config, labels)
    except Exception as exc:  # noqa: BLE001 - every setup failure becomes a failed run
        error = describe_failure(exc, step=0, phase="preparing the run")
        notify(RunFinished(status="failed", step=0, output_dir=config.output_dir, message=str(error)))
        return RunResult("failed", output_dir=config.output_dir, message=str(error), error=error)
    return fit(config, parts, train_set, eval_set, notify=notify, cancel=cancel)


def fit(
    config: TrainConfig,
    parts: RunParts,
    train_set: Any,
    eval_set: Any = None,
    *,
    callbacks: Iterable[Callable] = (),
    notify: Notifier | None = None,
    cancel: threading.Event | None = None,
) -> RunResult:
    """The loop itself, for an already built model (tests pass a hand-made one)."""
    from accelerate.utils import set_seed

    notify = notify or Notifier(callbacks)
    cancel = cancel or threading.Event()
    control = Control()
    folder: RunFolder | None = None
    step = 0
    undo: list[Callable[[], None]] = []  # CPU speed-ups switched on for this run, undone before export
    try:
        # ---- setup -------------------------------------------------------------------
        # Device auto-pick, precision auto (never slow bf16 on CPU). A single CPU process
        # trains with the CPU path: fast dropout, sparse word-embedding gradients, AdamW
        # that clips by itself and, for bf16, a bf16 copy of the model with fp32 master
        # weights instead of autocast (see train/shadow.py). GPUs and DDP keep accelerate's.
        dev, prec = resolve(config.device, config.precision)
        cpu_path = dev == "cpu" and launched_world_size() <= 1
        use_shadow = cpu_path and prec == "bf16" and config.bf16_weights
        accelerator = make_accelerator(device=config.device, precision="fp32" if use_shadow else config.precision,
                                       grad_accum=config.grad_accum)
        device, precision = str(accelerator.device), prec if use_shadow else precision_name(accelerator)
        notify.main = accelerator.is_main_process
        set_seed(config.seed)
        task, tokenizer, labels = parts.task, parts.tokenizer, parts.labels
        label2id = {name: i for i, name in enumerate(labels)}
        if eval_set is not None and eval_set.kind in ("sentence", "pair"):
            eval_set = replace(eval_set, labels=list(labels))  # predictions and golds share the model's labels
        enc = dict(max_length=config.max_length, label2id=label2id, doc_stride=config.doc_stride)
        train_enc = task.encode(train_set, tokenizer, training=True, **enc)
        eval_enc = task.encode(eval_set, tokenizer, training=False, **enc) if eval_set is not None else None
        if len(train_enc) == 0:
            raise TrainingError("no labelled training examples", path=train_set.source, expected="at least one labelled row")
        pad_id = tokenizer.pad_token_id if tokenizer is not None and tokenizer.pad_token_id is not None else 0
        collate = partial(task.collate, pad_token_id=pad_id)
        # bf16 on CPU: oneDNN builds matmul kernels per batch shape, so rare lengths are padded
        # up to a neighbour's where that is cheaper (see batching.plan_widths)
        sampler = EpochBatchSampler(train_enc["length"], config.batch_size, seed=config.seed, group_by_length=config.group_by_length,
                                    plan_widths=use_shadow and config.group_by_length)
        if not device.startswith("cuda"):  # multiple-of-8 padding only pays on tensor cores
            collate = TrimmedCollate(collate, sampler.widths)
        # Own generators: creating a loader iterator must not draw from the global RNG,
        # or a resumed run's dropout masks would drift from an uninterrupted run's.
        pin = loader_options(device)["pin_memory"]
        train_loader = DataLoader(train_enc, batch_sampler=sampler, collate_fn=collate, generator=torch.Generator().manual_seed(config.seed),
                                  pin_memory=pin)
        loaders = [train_loader]
        if eval_enc is not None:
            loaders.append(eval_loader(eval_enc, task, pad_id, config.batch_size * EVAL_BATCH_FACTOR, trim=not device.startswith("cuda"),
                                       pin_memory=pin))
        model = parts.model
        trainable, total_params = count_parameters(model)
        if device == "cpu":
            own_trainable_weights(model)  # out of the checkpoint's mmap: no copy-on-write faults in step 1
        if cpu_path:
            undo.append(keep_freed_memory())
            undo.append(use_fast_dropout(model))
            emb = word_embedding(model) if config.sparse_embeddings else None
            if emb is not None:
                undo.append(sparse_embedding(emb))
        optimizer = make_optimizer(model, lr=config.lr, weight_decay=config.weight_decay, device=device,
                                   clip_norm=config.max_grad_norm if cpu_path else None)
        base_optimizer = optimizer
        model, optimizer, *loaders = accelerator.prepare(model, optimizer, *loaders)
        train_loader, ev_loader = loaders[0], (loaders[1] if len(loaders) > 1 else None)

        batches_per_epoch = len(train_loader)  # per process
        n_steps = total_steps(batches_per_epoch, config.grad_accum, config.epochs)
        epoch_steps = steps_per_epoch(batches_per_epoch, config.grad_accum)
        n_warmup = warmup_steps(n_steps, config.warmup_ratio)
        eval_every = config.eval_steps or epoch_steps
        examples_per_step = config.batch_size * config.grad_accum * accelerator.num_processes

        progress = Progress()
        if config.resume_from:
            progress = _resume(config.resume_from, accelerator.unwrap_model(model), optimizer)
            step = progress.step
        if accelerator.is_main_process and config.output_dir:
            folder = RunFolder.start(config)
            notify.folder = folder
        main_metric = _main_metric(config, eval_set)
        # what trains and evaluates: the model, or its bf16 copy (built after a resume loaded weights)
        shadow = Bf16Shadow(accelerator.unwrap_model(model)) if use_shadow else None
        run_model = shadow.module if shadow else model
        autocast = partial(torch.autocast, "cpu", dtype=torch.bfloat16, enabled=shadow is not None)

        notify(RunStarted(
            total_steps=n_steps, num_train_examples=len(train_enc), num_eval_examples=len(eval_set) if eval_set is not None else 0,
            epochs=math.ceil(n_steps / epoch_steps), effective_batch_size=examples_per_step,
            trainable_params=trainable, total_params=total_params, device=device, precision=precision,
            output_dir=config.output_dir,
        ), control)

        def evaluate_now() -> dict[str, float]:
            with autocast():
                preds = predict_batches(run_model, ev_loader, task.accumulator(eval_set, eval_enc, labels, **_acc_options(config)),
                                        accelerator=accelerator)
            metrics = task.metrics(eval_set, preds, glue_task=config.glue_task)
            progress.record_eval(metrics, preds, _metric_key(main_metric, metrics))
            notify(Evaluated(step=step, epoch=step / epoch_steps, metrics=metrics), control)
            if progress.improved and config.save_best:
                save(best=True)
            return metrics

        def save(best: bool) -> None:
            """best: weights + metrics + predictions; last: everything a resume needs."""
            state = progress.to_state()
            unwrapped = accelerator.unwrap_model(model)
            if best and not config.output_dir:
                progress.keep_best_in_memory(unwrapped)
            if folder and accelerator.is_main_process:
                target = folder.best if best else folder.last
                extra = {"predictions.jsonl": jsonl(prediction_rows(eval_set, progress.last_predictions)).encode()} if best else None
                ckpt.save_checkpoint(target, model=unwrapped, state=state, optimizer=None if best else optimizer, extra_files=extra)
                notify(CheckpointSaved(step=step, path=str(target), is_best=best), control)
            progress.best_saved |= best
            accelerator.wait_for_everyone()

        # ---- the loop ----------------------------------------------------------------
        status, message = "finished", ""
        if progress.eval_pending and ev_loader is not None:
            # the interrupted run was cancelled just when this evaluation was due
            progress.eval_pending = False
            evaluate_now()
        model.train()
        run_model.train()
        interval_loss, interval_steps, interval_examples = 0.0, 0, 0
        t_interval = t_start = time.perf_counter()
        start_step = step
        stop = False
        for epoch in range(progress.epoch, math.ceil(n_steps / epoch_steps)):
            resumed_here = epoch == progress.epoch and progress.batches_done > 0
            sampler.skip = progress.batches_done * accelerator.num_processes if resumed_here else 0
            train_loader.set_epoch(epoch)
            step_loss = torch.zeros((), device=accelerator.device)
            for batch in train_loader:
                with accelerator.accumulate(model):
                    # forward, backward
                    with autocast():
                        outputs = run_model(**model_inputs(batch))
                    loss = outputs.loss
                    step_loss += loss.detach() / config.grad_accum
                    accelerator.backward(loss)
                    if shadow is not None:
                        shadow.collect()  # bf16 gradients -> fp32 .grad of the master weights
                    interval_examples += batch["input_ids"].shape[0] * accelerator.num_processes
                    if accelerator.sync_gradients:
                        if not torch.isfinite(step_loss):
                            raise TrainingError(
                                f"the loss became {step_loss.item()} at step {step + 1}; the run stopped before applying that update",
                                expected="a finite loss (try a lower learning rate, or fp32)")
                        # set the learning rate for this step, clip, step
                        lr = config.lr * linear_schedule(step, n_steps, n_warmup)
                        for group in optimizer.param_groups:
                            group["lr"] = lr
                        if cpu_path:  # the optimizer clips (see ClippedLazyAdamW)
                            optimizer.step()
                            grad_norm = base_optimizer.last_grad_norm if config.max_grad_norm > 0 else None
                        else:
                            grad_norm = accelerator.clip_grad_norm_(model.parameters(), config.max_grad_norm) if config.max_grad_norm > 0 else None
                            optimizer.step()
                        if shadow is not None:
                            shadow.push()  # updated fp32 weights -> the bf16 copy
                        optimizer.zero_grad(set_to_none=True)
                if not accelerator.sync_gradients:
                    continue
                step += 1
                progress.advance(step, epoch_steps, config.grad_accum)
                interval_loss += step_loss.item()
                interval_steps += 1
                step_loss.zero_()

                # log
                if step % config.logging_steps == 0 or step == n_steps:
                    now = time.perf_counter()
                    rate = interval_examples / max(now - t_interval, 1e-9)
                    eta = (now - t_start) / max(step - start_step, 1) * (n_steps - step)
                    notify(StepLogged(
                        step=step, total_steps=n_steps, epoch=step / epoch_steps, loss=interval_loss / interval_steps, lr=lr,
                        examples_per_s=rate, eta_s=eta, grad_norm=float(grad_norm) if grad_norm is not None else None,
                    ), control)
                    interval_loss, interval_steps, interval_examples = 0.0, 0, 0
                    t_interval = time.perf_counter()

                # evaluate, checkpoint, stop
                flags = any_process(accelerator, [cancel.is_set(), control.should_stop, control.should_evaluate, control.should_save])
                cancelled, asked_stop, asked_eval, asked_save = flags
                control.should_evaluate = control.should_save = False
                due_eval = ev_loader is not None and (step % eval_every == 0 or step == n_steps or asked_eval)
                if due_eval and not cancelled:
                    t_eval = time.perf_counter()
                    evaluate_now()
                    if progress.bad_evals and config.early_stopping_patience and progress.bad_evals >= config.early_stopping_patience:
                        message = f"early stopping: no improvement in {progress.bad_evals} evaluations"
                        stop = True
                    t_interval += time.perf_counter() - t_eval  # evaluation time is not training speed
                if (due_eval or asked_save) and not cancelled and step < n_steps and not stop:
                    save(best=False)
                if cancelled:
                    status, message, stop = "cancelled", f"cancelled at step {step}", True
                    progress.eval_pending = due_eval  # skipped to stop fast; a resumed run does it first
                elif asked_stop:
                    message, stop = f"stopped by a callback at step {step}", True
                if stop or step >= n_steps:
                    break
            if stop or step >= n_steps:
                break

        # ---- wrap up -----------------------------------------------------------------
        _undo_all(undo)  # plain dropout, SDPA attention and dense embeddings in what is saved and returned
        save(best=False)
        unwrapped = accelerator.unwrap_model(model)
        final = progress.restore_best(unwrapped, folder.best if folder else None)
        result = RunResult(status, final, config.output_dir, None, message, step, model=unwrapped)
        if folder and accelerator.is_main_process:
            result.model_dir = str(folder.export_model(lambda out: (parts.save or _plain_save)(unwrapped, tokenizer, out)))
            if final:
                folder.write_metrics(final)
            best_preds = folder.best / "predictions.jsonl"
            if progress.best_saved and best_preds.is_file():  # the exported weights are the best ones
                folder.write_predictions(best_preds.read_text(encoding="utf-8"))
            elif progress.last_predictions is not None:
                folder.write_predictions(jsonl(prediction_rows(eval_set, progress.last_predictions)))
        accelerator.wait_for_everyone()
        notify(RunFinished(status=status, step=step, metrics=final, output_dir=config.output_dir, message=message))
        return result
    except Exception as exc:  # noqa: BLE001 - a failed run ends cleanly, see the module docstring
        error = describe_failure(exc, step=step + 1, phase="training", folder=folder)
        if not isinstance(exc, BertStudioError):
            log.error("run failed at step %d", step + 1, exc_info=exc)
        notify(RunFinished(status="failed", step=step, output_dir=config.output_dir, message=str(error)))
        return RunResult("failed", {}, config.output_dir, None, str(error), step, error=error)
    finally:
        _undo_all(undo)
        notify.folder = None
        if folder is not None:
            folder.close()


# --- small helpers ---------------------------------------------------------------------

def _undo_all(undo: list[Callable[[], None]]) -> None:
    while undo:
        undo.pop()()


def _main_metric(config: TrainConfig, eval_set: Any) -> str:
    """What ranks evaluations: the GLUE task's main metric, else the task kind's."""
    if eval_set is not None and eval_set.meta.get("glue_task"):
        return config.glue_task or eval_set.meta["glue_task"]
    return config.glue_task or config.task


def _metric_key(source: str, metrics: dict[str, float]) -> str:
    from bertstudio.metrics import main_metric

    return main_metric(source, available=metrics)


def _acc_options(config: TrainConfig) -> dict[str, Any]:
    return {"max_answer_length": config.max_answer_length, "glue_task": config.glue_task}


def _resume(path: str, model: torch.nn.Module, optimizer: Any) -> Progress:
    found = ckpt.find_checkpoint(path)
    if found is None or not (Path(found) / ckpt.OPTIMIZER).is_file():
        raise TrainingError("no resumable checkpoint here", path=path, expected="a run's checkpoints/last folder")
    ckpt.load_weights(found, model)
    ckpt.load_training_state(found, optimizer)  # restores every RNG too: the last thing before the loop
    return Progress.from_state(ckpt.read_state(found))


def _plain_save(model: Any, tokenizer: Any, out: Path) -> None:
    model.save_pretrained(out)
    if tokenizer is not None:
        tokenizer.save_pretrained(out)


def evaluate(model_dir: str | Path, examples: Any, *, batch_size: int = 64, callbacks: Iterable[Callable] = (),
             max_length: int = 128, glue_task: str | None = None) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Score a saved model on ``examples``: (official metrics, one prediction row per example
    with ``index`` and ``gold``, as in predictions.jsonl). Metrics are {} for unlabelled data.
    ``max_length`` should match the run's (TrainConfig.max_length, default 128).
    Raises ConfigError/DataError for a model or data that do not fit."""
    from bertstudio.tasks import get_task
    from bertstudio.tasks.model import load_model

    model, tokenizer, kind, labels = load_model(model_dir)
    if examples.kind != kind:
        raise ConfigError(f"the model predicts {kind!r} but the data is {examples.kind!r}", path=examples.source,
                          expected=f"{kind} data")
    meta = getattr(model.config, "bertstudio", None) or {}
    glue_task = glue_task or examples.meta.get("glue_task") or meta.get("glue_task")
    if kind in ("sentence", "pair"):
        examples = replace(examples, labels=list(labels))
    device, _ = resolve("auto", "fp32")
    model.to(device)
    task = get_task(kind)
    limit = getattr(model.config, "max_position_embeddings", max_length) or max_length
    enc = task.encode(examples, tokenizer, max_length=min(max_length, limit), label2id={n: i for i, n in enumerate(labels)},
                      training=False)
    loader = eval_loader(enc, task, tokenizer.pad_token_id or 0, batch_size, trim=not device.startswith("cuda"),
                         pin_memory=loader_options(device)["pin_memory"])
    preds = predict_batches(model, loader, task.accumulator(examples, enc, labels, glue_task=glue_task), device=device)
    metrics = task.metrics(examples, preds, glue_task=glue_task) if len(examples.labelled()) else {}
    Notifier(callbacks)(Evaluated(step=0, epoch=0.0, metrics=metrics))
    return metrics, prediction_rows(examples, preds)
