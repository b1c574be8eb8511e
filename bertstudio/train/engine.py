"""The training engine: ``train()``, ``fit()`` (the loop) and ``evaluate()``.

``fit()`` reads top to bottom like nanoGPT's train.py: set the learning rate,
forward, backward, clip, step, log, evaluate. It does not branch on the device:
what differs between one CPU process and Accelerate's GPU/multi-process loop is a
path object chosen once (:mod:`bertstudio.train.paths`) whose hooks the loop calls;
likewise a warm cache (:mod:`bertstudio.train.warm`, off unless the caller gives one)
builds the model, probe and tokenised rows. Helpers are small functions in their own
modules. The same code runs single-process and data-parallel under ``accelerate launch
--num_processes N``: Accelerate prepares the model, optimizer and data loaders, syncs
gradients and gathers evaluation rows; only the main process writes files or calls callbacks.

Contract: :func:`train` does not raise for a run that cannot go on. It emits
``RunFinished(status="failed", message=...)`` and returns a :class:`RunResult`
with ``status="failed"``, the one-line ``message`` and the
:class:`~bertstudio.errors.TrainingError` (or Config/DataError) in ``error``.
That covers bad settings or data, a model whose forward raises, a NaN/inf
loss (stopped before that step's update), out of memory and a full disk. The
best checkpoint on disk is never touched by a failing save.

A cancelled run (``cancel`` set, checked after every optimizer step and between
evaluation batches but the last evaluation's and one owed from before the first step: an
interrupted evaluation is not scored, and a resumed run does it first) saves
``checkpoints/last`` (resumable) and exports ``model/`` with the best weights so
far when an evaluation has happened, else with the last weights; it ends with
``RunFinished(status="cancelled")``. A finished run exports the best weights too, and
keeps no resumable checkpoint (it cannot be resumed).

Resume: ``resume_from = "<run>/checkpoints/last"`` with the same settings and
``output_dir``. Weights, AdamW moments, every RNG, the step and the position
inside the epoch are restored (the learning rate is a function of the step), so
on CPU the resumed run ends with the weights and metrics of an uninterrupted one. Each
checkpoint's state.json records the label list (the head's ids), fingerprints of the training
and evaluation rows and the precision resolved: a resume keeps the labels and the precision, and
refuses rows that changed (the same rows in another order go on, with a warning; the same rows
in a file that moved resume, see rundir.differences). A cancel read after
the last step does not stop the run: the training is done, and it evaluates and finishes.

A callback that raises is logged with its traceback and the run goes on."""

from __future__ import annotations

import json
import logging
import math
import socket
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import torch

from bertstudio.errors import BertStudioError, ConfigError, TrainingError
from bertstudio.tasks.base import model_inputs
from bertstudio.tasks.collate import PAD_MULTIPLE
from bertstudio.tasks.limits import qa_window_layout
from bertstudio.tasks.model import count_parameters, record_pairs, start_at_scores
from bertstudio.tasks.qa import null_answers_of, record_null_answers
from bertstudio.tasks.typed_words import record_cjk_words
from bertstudio.train import cartography
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.class_weights import training_weights, weighted_cross_entropy
from bertstudio.train.config import EMBEDDING_HEADS, TrainConfig, fit_doc_stride
from bertstudio.train.distributed import any_process, loader_options
from bertstudio.train.evaluation import EvaluationCancelled, eval_loader, for_inference, predict_batches, record_precision
from bertstudio.train.events import (
    CheckpointSaved, Control, CountedBatches, Evaluated, PhaseChanged, RunFinished, RunStarted, StepMeter,
)
from bertstudio.train.faults import describe_failure
from bertstudio.train.notify import Notifier
from bertstudio.train.paths import PlainPath, choose_path
from bertstudio.train.preflight import check_before_start
from bertstudio.train.progress import MIN_ROWS_TO_CHOOSE, Progress, chooses_best
from bertstudio.train.rundir import (BASE_MODEL, RunFolder, base_model_fingerprint, jsonl, launch_command, machine_id,
                                     prediction_rows)
from bertstudio.train.setfit_phase import setfit_encoder
from bertstudio.train.schedule import linear_schedule, steps_per_epoch, total_steps, warmup_steps
from bertstudio.train.small_data import has_pairs
from bertstudio.train.sources import data_fingerprint, load_sets, rows_changed
from bertstudio.train.training_lock import training_turn
from bertstudio.train.warm import WarmCache

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
    writes it into a folder the run folder then swaps in (default: tasks.model.write_model)."""

    model: torch.nn.Module
    tokenizer: Any
    task: Any
    labels: list[str]
    save: Callable[[Any, Any, Path], None] | None = None
    warm: WarmCache = field(default_factory=lambda: WarmCache(enabled=False))  # built these; keeps their rows too
    probed: bool = False  # the head was fitted on the frozen encoder (a probe) before the loop: evaluated at step 0


def build_parts(config: TrainConfig, labels: list[str]) -> RunParts:
    from bertstudio.tasks.embedding import save_embedding_classifier
    from bertstudio.bundled import resolve_model
    from bertstudio.tasks.model import build_model, task_for, write_model

    model, tokenizer = build_model(
        config.task,
        resolve_model(config.model),
        labels=labels,
        head=config.head,
        mode=config.mode,
        lora=(config.lora_rank, config.lora_alpha, config.lora_dropout, list(config.lora_targets)),
        glue_task=config.glue_task,
        lengths={"max_length": config.max_length,  # the overlap used (a number for every kind, as predict reads it)
                 "doc_stride": qa_window_layout(config.max_length, config.doc_stride)[2],
                 "max_answer_length": config.max_answer_length},  # evaluate and predict cut inputs the same
    )
    save = save_embedding_classifier if config.head in EMBEDDING_HEADS else write_model
    return RunParts(model, tokenizer, task_for(model, config.task), labels, save)


def train(
    config: TrainConfig,
    train_set: Any = None,
    eval_set: Any = None,
    *,
    callbacks: Iterable[Callable] = (),
    cancel: threading.Event | None = None,
    warm: WarmCache | None = None,
) -> RunResult:
    """Fine-tune ``config``'s model on ``train_set`` (default: the config's files); ``warm``: see train/warm.py."""
    from accelerate.utils import set_seed

    notify = Notifier(callbacks)
    with ExitStack() as turn:  # one training at a time in this process, from the seeding to fit's end
        try:
            # the QA windows' overlap used, which the run records (and says, if cut: not again on a resume, whose
            # record may be from before runs recorded the overlap used)
            config = fit_doc_stride(config, say=not config.resume_from)
            check_before_start(config)  # the run folder, a resume checkpoint, the model folder: before anything is built
            train_set, eval_set = load_sets(config, train_set, eval_set)
            labels = list(config.labels or train_set.labels)
            saved, found = {}, None
            if config.resume_from:  # the ids its weights were trained with, whatever order the data lists them in now
                _, found, saved = _resume_point(config.resume_from)
                labels = ckpt.resumed_labels(saved, found, labels, source=train_set.source)
            # the rows' fingerprints, once (every row hashed: seconds for 400k rows), and for a resume checked against
            # the rows it stopped on before the model is built; fit takes them as they are
            fingerprints = _same_data(saved, train_set, eval_set, found)
            base = base_model_fingerprint(config.model)  # (rundir.check_output_dir compared it for a resume)
            if base is not None:  # kept in each checkpoint: the run resumes from this model wherever it lies then
                fingerprints[BASE_MODEL] = base
            if not turn.enter_context(training_turn(cancel=cancel, waiting=_say_waiting(notify))):
                return _cancelled_before_step_1(notify, config)  # while another training had the turn
            set_seed(config.seed)  # before the model: the new head's initial weights come from it
            warm = warm or WarmCache(enabled=False)  # off: every run builds its model and rows itself
            notify(PhaseChanged("reusing_model" if warm.would_reuse(config, labels) else "loading_model"))
            parts = warm.parts(config, labels, build_parts)[0]
            parts.probed = False
            if not config.resume_from:  # a resumed run loads its trained weights instead
                if config.method == "setfit":  # SetFit's contrastive phase, then its head (train/setfit_phase.py)
                    setfit_encoder(parts, train_set, config, notify=notify, cancel=cancel)
                if config.head in EMBEDDING_HEADS:  # linear probe, then fine-tune (train/probe.py)
                    parts.probed = warm.probe(parts, train_set, config, notify=notify, cancel=cancel)
                if train_set.spec.gold.numeric and not parts.probed:  # scores: a fresh head starts on their scale
                    start_at_scores(parts.model, train_set.gold_values())
            if cancel is not None and cancel.is_set():  # during SetFit or the probe: nothing trained yet
                return _cancelled_before_step_1(notify, config)
        except Exception as exc:  # noqa: BLE001 - every setup failure becomes a failed run
            error = describe_failure(exc, step=0, phase="preparing the run")
            notify(RunFinished(status="failed", step=0, output_dir=config.output_dir, message=str(error)))
            return RunResult("failed", output_dir=config.output_dir, message=str(error), error=error)
        return fit(config, parts, train_set, eval_set, notify=notify, cancel=cancel, fingerprints=fingerprints)


def _say_waiting(notify: Notifier) -> Callable[[str], None]:
    """Tell the run's listeners why nothing moves: another training has the turn (train/training_lock.py)."""
    return lambda job: notify(PhaseChanged("waiting", detail=job)) if job else None  # its turn: the next phase says so


def _cancelled_before_step_1(notify: Notifier, config: TrainConfig) -> RunResult:
    notify(RunFinished(status="cancelled", step=0, output_dir=config.output_dir, message="cancelled before step 1"))
    return RunResult("cancelled", output_dir=config.output_dir, message="cancelled before step 1")


def fit(config: TrainConfig, parts: RunParts, train_set: Any, eval_set: Any = None, *, callbacks: Iterable[Callable] = (),
        notify: Notifier | None = None, cancel: threading.Event | None = None,
        passes: cartography.TrainingPasses | None = None, fingerprints: dict[str, Any] | None = None) -> RunResult:
    """The loop itself, for an already built model (tests pass a hand-made one). ``passes``
    keeps each training row's probabilities from the training forwards (train/cartography.py).
    ``fingerprints``: :func:`_same_data`'s, already checked against the resumed checkpoint (else
    computed and checked here). Holds the process's training lock from its seeding to its end
    (train/training_lock.py)."""
    notify = notify or Notifier(callbacks)
    with training_turn(cancel=cancel, waiting=_say_waiting(notify)) as turn:
        if not turn:
            return _cancelled_before_step_1(notify, config)
        return _fit(config, parts, train_set, eval_set, notify=notify, cancel=cancel, passes=passes,
                    fingerprints=fingerprints)


def _fit(config: TrainConfig, parts: RunParts, train_set: Any, eval_set: Any, *, notify: Notifier,
         cancel: threading.Event | None, passes: cartography.TrainingPasses | None,
         fingerprints: dict[str, Any] | None = None) -> RunResult:
    from accelerate.utils import set_seed

    cancel = cancel or threading.Event()
    control = Control()
    folder: RunFolder | None = None
    path: PlainPath | None = None
    step, failed = 0, True  # until the run ends as finished or cancelled
    stepping = True  # a failure now is in step + 1; False after a step: in its evaluation or checkpoint
    phase = "training"
    try:
        # ---- setup: where to start, the path for this machine, data, model --------------
        progress, found, saved = _resume_point(config.resume_from)
        # before anything is built: the rows it stopped on
        data = fingerprints if fingerprints is not None else _same_data(saved, train_set, eval_set, found)
        # CpuFastPath for one CPU process, else Accelerate's PlainPath; a resumed run in its own precision
        path = choose_path(_resumed_precision(config, saved))
        record_precision(parts.model, path.precision)  # evaluate() and Predictor read it
        record_pairs(parts.model, has_pairs(train_set, share=True))  # one text or two: Predictor and the Playground read it
        record_null_answers(parts.model, train_set)  # "no answer" allowed: every predictor reads it from the model
        record_cjk_words(parts.model, train_set)  # typed Chinese read per character or not, as the tokens were
        acc = path.accelerator
        notify.main = acc.is_main_process
        set_seed(config.seed)
        notify(PhaseChanged("tokenising", 0, len(train_set) + (len(eval_set) if eval_set is not None else 0)))
        train_enc, eval_set, eval_enc = parts.warm.encoded(config, parts, train_set, eval_set, _encode)[0]
        train_loader, ev_loader = path.loaders(parts, train_enc, eval_enc)
        # class_weight: the loss weighted from the logits, for every classification head (train/class_weights.py)
        class_weights = training_weights(config, train_enc, len(parts.labels), acc.device)
        trainable, total_params = count_parameters(parts.model)
        if found is not None and progress.processes is None:
            # a checkpoint from before the short batch stayed last: the run goes on in the order it began in
            path.sampler.short_last = False
        if found is not None:
            ckpt.load_weights(found, parts.model)  # before prepare: a bf16 copy is made from these
        model, train_loader, ev_loader = path.prepare(parts.model, train_loader, ev_loader)
        if found is not None:
            ckpt.load_training_state(found, path.optimizer)  # restores every RNG too: the last thing before the loop
        step = progress.step
        if config.grad_accum > len(train_loader):  # each step took 1/grad_accum of the few batches' loss: 1000x smaller updates
            raise ConfigError(f"grad_accum {config.grad_accum} is more than the {len(train_loader)} batches of an epoch",
                              where="grad_accum", expected=f"at most {len(train_loader)}, or a smaller batch size")
        epoch_steps = steps_per_epoch(len(train_loader), config.grad_accum)  # len: batches per process
        n_steps = total_steps(len(train_loader), config.grad_accum, config.epochs)
        n_warmup = warmup_steps(n_steps, config.warmup_ratio)
        if found is not None:
            _check_processes(progress.processes, acc.num_processes, found)
            _check_resume_point(progress, n_steps, epoch_steps, config.grad_accum, found)
        progress.processes = acc.num_processes
        eval_every = config.eval_steps or epoch_steps
        if acc.is_main_process and config.output_dir:
            folder = RunFolder.start(config)
            notify.folder = folder
        scored = len(eval_set.labelled_rows()) if eval_set is not None else 0
        run = _Run(config, parts, path, notify, control, progress, folder, eval_set, eval_enc, ev_loader, epoch_steps,
                   start=_tuning_start(config, acc.unwrap_model(model), found), cancel=cancel, data=data,
                   choose_best=chooses_best(config.save_best, scored))
        if ev_loader is not None and config.save_best and not run.choose_best and acc.is_main_process:
            _say_last_kept(scored)
        notify(RunStarted(
            total_steps=n_steps, num_train_examples=len(train_enc), num_eval_examples=len(eval_set) if eval_set is not None else 0,
            epochs=math.ceil(n_steps / epoch_steps), effective_batch_size=config.batch_size * config.grad_accum * acc.num_processes,
            trainable_params=trainable, total_params=total_params, device=path.device, precision=path.precision,
            output_dir=config.output_dir, host=socket.gethostname(), machine=machine_id() or None,
            num_scored_examples=scored,
            started_at=time.time(),
        ), control)

        # ---- the loop ----------------------------------------------------------------
        status, message, stop = "finished", "", False
        if progress.eval_pending and ev_loader is not None:
            stepping = False
            progress.eval_pending = False  # the interrupted run was cancelled just when this evaluation was due
            run.evaluate(step, cancellable=False)  # the one it owes: a cancel stops after the next step, as before
        elif parts.probed and step == 0 and ev_loader is not None:
            # The probe is a model already: kept as the best if fine-tuning never beats it on the
            # evaluation rows (on a few RTE / MRPC pairs the tuned encoder drifted below it).
            run.evaluate(step, cancellable=False)
        model.train()
        path.module.train()
        meter = StepMeter(step, n_steps, epoch_steps, eval_every=eval_every if ev_loader is not None else 0,
                          eval_examples=len(eval_set) if eval_set is not None else 0)
        step_loss = torch.zeros((), device=acc.device)
        # A checkpoint at the last step (its evaluation owed, as earlier versions kept one) has no step left: with
        # fractional epochs its epoch still had batches, and the loop trained a step N+1 of N before it stopped
        batches = _batches(train_loader, path.sampler, progress, epochs=math.ceil(n_steps / epoch_steps)) \
            if step < n_steps else iter(())
        for batch in batches:
            stepping = True
            with acc.accumulate(model):
                # forward, backward
                with path.autocast():
                    outputs = path.module(**model_inputs(batch))
                    loss = outputs.loss if class_weights is None else \
                        weighted_cross_entropy(outputs.logits, batch["labels"], class_weights)
                if passes is not None:  # what the model said of each row as it learnt from it
                    passes.add(batch, getattr(outputs, "logits", None))
                step_loss += loss.detach() / config.grad_accum
                acc.backward(loss)
                path.after_backward()
                meter.examples += batch["input_ids"].shape[0] * acc.num_processes
                if acc.sync_gradients:
                    _check_finite(step_loss, step + 1)  # before the update: the weights stay usable
                    # set the learning rate for this step, clip, step
                    lr = config.lr * linear_schedule(step, n_steps, n_warmup)
                    grad_norm = path.step(lr)
                    path.after_step()
                    # the rate the first trainable group got: the encoder's when it learns, else the
                    # head's own (a frozen run's curve showed the encoder's unused rate before)
                    lr = path.optimizer.param_groups[0]["lr"]
            if not acc.sync_gradients:
                continue
            step += 1
            stepping = False
            progress.advance(step, epoch_steps, config.grad_accum)
            meter.add_step(step_loss.item())
            step_loss.zero_()

            # log
            if step % config.logging_steps == 0 or step == n_steps:
                notify(meter.event(step, lr, grad_norm), control)
                meter.restart()  # after the callbacks: their time is not training speed
            if config.cartography and folder is not None and step % epoch_steps == 0:
                with meter.paused():  # an extra pass over the training rows (train/cartography.py)
                    cartography.record_epoch(folder.root, step // epoch_steps, step, path, parts, train_set, train_enc,
                                             config)
            if step == n_steps and run.start is not None:  # after the data map's pass, before the last evaluation
                run.keep_share()

            # evaluate, checkpoint, stop
            flags = any_process(acc, [cancel.is_set(), control.should_stop, control.should_evaluate, control.should_save])
            cancelled, asked_stop, asked_eval, asked_save = flags
            # read after the last step: the training is done, and its last evaluation is not cancellable. A run
            # cancelled here kept no score and a checkpoint of its last step that no resume took (glue --resume
            # failed on every retry): it finishes
            cancelled = cancelled and step < n_steps
            control.should_evaluate = control.should_save = False
            due_eval = ev_loader is not None and (step % eval_every == 0 or step == n_steps or asked_eval)
            if due_eval and not cancelled:
                with meter.paused(evaluation=True):  # evaluation time is not training speed; timed for the ETA
                    # None: cancelled between its batches. Not the last one: the training is done, and a
                    # run cancelled there would keep no score and a checkpoint no resume accepts (its last step)
                    cancelled = run.evaluate(step, cancellable=step < n_steps) is None
                if config.early_stopping_patience and progress.bad_evals >= config.early_stopping_patience:
                    message, stop = f"early stopping: no improvement in {progress.bad_evals} evaluations", True
            if (due_eval or asked_save) and not cancelled and step < n_steps and not stop:
                run.save(step, best=False)
            if cancelled:
                status, message, stop = "cancelled", f"cancelled at step {step}", True
                progress.eval_pending = due_eval  # skipped to stop fast; a resumed run does it first
            elif asked_stop:
                message, stop = f"stopped by a callback at step {step}", True
            if stop or step >= n_steps:
                break
        phase = "saving the run"  # after the last step: "at step 3" of a 2-step run was not true
        result = run.finish(step, status, message)
        failed = result.status == "failed"
        return result
    except Exception as exc:  # noqa: BLE001 - a failed run ends cleanly, see the module docstring
        # the step being trained, or the one whose evaluation or checkpoint failed ("the disk is full at step
        # 13" was said of the checkpoint after step 12)
        at = step + 1 if stepping else step
        error = describe_failure(exc, step=at, phase=phase, folder=folder)
        if not isinstance(exc, BertStudioError):
            log.error("run failed at step %d", at, exc_info=exc)
        notify(RunFinished(status="failed", step=step, output_dir=config.output_dir, message=str(error)))
        return RunResult("failed", {}, config.output_dir, None, str(error), step, error=error)
    finally:
        if path is not None:
            path.undo()
        notify.folder = None
        if folder is not None:
            folder.close()
            folder.settle(failed)  # an --overwrite run that failed puts the earlier run back


# --- what the loop calls ----------------------------------------------------------------

def _encode(config: TrainConfig, parts: RunParts, train_set: Any, eval_set: Any) -> tuple[Any, Any, Any]:
    """(encoded training rows, the evaluation set as scored, its encoded rows or None)."""
    label2id = {name: i for i, name in enumerate(parts.labels)}
    if eval_set is not None and eval_set.spec.gold.classes:
        eval_set = replace(eval_set, labels=list(parts.labels))  # predictions and golds share the model's labels
    enc = dict(max_length=config.max_length, label2id=label2id, doc_stride=config.doc_stride)
    train_enc = parts.task.encode(train_set, parts.tokenizer, training=True, **enc)
    eval_enc = parts.task.encode(eval_set, parts.tokenizer, training=False, **enc) if eval_set is not None else None
    if len(train_enc) == 0:
        raise TrainingError("no labelled training examples", path=train_set.source, expected="at least one labelled row")
    return train_enc, eval_set, eval_enc


def _batches(train_loader: Any, sampler: Any, progress: Progress, *, epochs: int) -> Iterator[Any]:
    """Every training batch from where the run stands to the end of the last epoch; a run
    resumed inside an epoch skips the batches it already trained on (accelerate's
    ``skip_first_batches``: per process, so the last round of a multi-process run wraps
    around to the epoch's first batches as it does uninterrupted)."""
    from accelerate import skip_first_batches

    for epoch in range(progress.epoch, epochs):
        # the loader's set_epoch reaches our batch sampler in one process only, not through
        # the BatchSamplerShard that wraps it under DDP: set it here, or every epoch repeats
        # the first one's order
        sampler.set_epoch(epoch)
        train_loader.set_epoch(epoch)
        skip = progress.batches_done if epoch == progress.epoch else 0
        yield from skip_first_batches(train_loader, skip) if skip else train_loader


def _tuning_start(config: TrainConfig, model: torch.nn.Module, found: Path | None) -> dict[str, torch.Tensor] | None:
    """The trained parameters as the run starts (on the CPU), which keep_tuning < 1 mixes
    back in after the last step; a resumed run reads them from its checkpoint."""
    if config.keep_tuning >= 1:
        return None
    trained = [(name, p) for name, p in model.named_parameters() if p.requires_grad]
    if found is not None:
        return ckpt.load_start(found, ((name, p.shape) for name, p in trained))
    return {name: p.detach().to("cpu", torch.float32, copy=True) for name, p in trained}


def _check_finite(step_loss: torch.Tensor, step: int) -> None:
    if not torch.isfinite(step_loss):
        raise TrainingError(f"the loss became {step_loss.item()} at step {step}; the run stopped before applying that update",
                            expected="a finite loss (try a lower learning rate, or fp32)")


def _resume_point(resume_from: str | None) -> tuple[Progress, Path | None, dict[str, Any]]:
    """Where the run starts: (progress, the checkpoint folder to load, its state.json) for a
    resumed run, (a fresh Progress, None, {}) otherwise."""
    if not resume_from:
        return Progress(), None, {}
    from bertstudio.data.regular_file import check_folder_files

    found = ckpt.find_checkpoint(resume_from)
    if found is not None:
        check_folder_files(found)  # a FIFO in place of weights.pt blocked the resume for ever
    if found is None or not (Path(found) / ckpt.OPTIMIZER).is_file():
        raise TrainingError("no resumable checkpoint here", path=resume_from, expected="a run's checkpoints/last folder")
    state = ckpt.read_state(found)
    return Progress.from_state(state, source=str(found / "state.json")), found, state


def _same_data(saved: dict[str, Any], train_set: Any, eval_set: Any, found: Path | None) -> dict[str, Any]:
    """The fingerprints (train/sources.py) of the training and evaluation rows, which every
    checkpoint keeps (``{"data": ..., "eval_data": ...}``); for a resumed run, DataError when the
    rows are not those its checkpoint was trained and scored on (40 rows relabelled went on
    silently, as one run; two rows added were refused as "no point of this run", blaming
    state.json). The same rows in another order go on, with a warning: the rest of the epoch
    draws other batches than the uninterrupted run would have. Checked on the rows, not the
    paths: a data file that moved resumes (rundir.differences)."""
    now = {"data": data_fingerprint(train_set), "eval_data": data_fingerprint(eval_set) if eval_set is not None else None}
    if found is None:
        return now
    if not isinstance(saved.get("data"), dict):  # (the app refuses such a resume: rundir.project_resume_problem)
        log.warning("%s: this checkpoint was written by an older bertstudio, which did not record the rows it trained "
                    "on: the resume cannot check that they are still the same", found)
    error = rows_changed(saved, now, train_set, eval_set)
    if error is not None:
        raise error
    then = saved.get("data")
    if isinstance(then, dict) and then.get("order") not in (None, now["data"]["order"]):
        log.warning("%s: the training rows are the same, in another order than when the run stopped: the resumed run "
                    "goes on, but will not end exactly as an uninterrupted one", train_set.source or "the training data")
    return now


def _resumed_precision(config: TrainConfig, saved: dict[str, Any]) -> TrainConfig:
    """``precision = "auto"`` resolved again on a resume (from an 80 ms timing probe on a CPU) could
    pick another precision than the run trained in, and the resumed run then ended elsewhere than an
    uninterrupted one: it keeps the precision its checkpoint recorded, when this machine runs it (bf16
    kept on a T4 or V100 was refused by accelerate, where auto picks fp16; on a CPU without native
    bf16 it ran emulated, many times slower)."""
    from bertstudio.train import hardware

    before = saved.get("precision")
    if config.precision != "auto" or before not in ("fp32", "bf16", "fp16"):
        return config
    if before == "fp16" and not torch.cuda.is_available():
        log.warning("the run trained in fp16, which needs a CUDA GPU: it goes on in this machine's precision")
        return config
    if before == "bf16" and not hardware.runs_bf16(config.device):
        log.warning("the run trained in bf16, which this machine does not run natively (it needs an Ampere or newer "
                    "GPU, or a CPU with avx512_bf16 or AMX): it goes on in this machine's precision")
        return config
    return replace(config, precision=before)


def _check_processes(saved: int | None, now: int, found: Path) -> None:
    """A checkpoint resumes with as many processes as wrote it: a step there reads one batch per
    process, so another count is another run (resumed in one process, a 2-process run's
    checkpoint was refused as 'no point of this run', blaming state.json)."""
    if saved is not None and saved != now:
        how = launch_command(saved)
        raise ConfigError(f"the checkpoint was written by a run of {saved} process(es), and this one has {now}",
                          path=Path(found) / ckpt.STATE, where="processes",
                          expected=f"the run resumed as it ran: {how} --config ... --resume ...")


def _check_resume_point(progress: Progress, n_steps: int, epoch_steps: int, grad_accum: int, found: Path) -> None:
    """ConfigError unless the checkpoint's step, epoch and batch are a point of this run: a
    hand-edited state.json with step 10**9 finished at once with no metrics (and asked the
    progress line for a 2 GB bar), an epoch of 10**9 deleted the checkpoint it came from."""
    epoch, in_epoch = divmod(progress.step, epoch_steps)
    # the last step with its evaluation owed: a run stopped there by an earlier version of this loop evaluates and finishes
    last = progress.step == n_steps and progress.eval_pending
    fits = ((0 <= progress.step < n_steps or last) and progress.epoch == epoch
            and progress.batches_done == in_epoch * grad_accum)
    if not fits:
        raise ConfigError(f"the checkpoint says step {progress.step}, epoch {progress.epoch}, batch {progress.batches_done}, "
                          f"which is no point of this run ({n_steps} steps, {epoch_steps} per epoch)",
                          path=Path(found) / ckpt.STATE, where="step",
                          expected="the state.json the run wrote, resumed with the run's own settings")


@dataclass
class _Run:
    """What evaluating, saving and wrapping up share; the loop owns the step count."""

    config: TrainConfig
    parts: RunParts
    path: PlainPath
    notify: Notifier
    control: Control
    progress: Progress
    folder: RunFolder | None
    eval_set: Any
    eval_enc: Any
    ev_loader: Any
    epoch_steps: int
    start: dict[str, torch.Tensor] | None = None  # the trained parameters as the run started (keep_tuning < 1)
    cancel: threading.Event | None = None  # read between evaluation batches too
    data: dict[str, Any] | None = None  # the training and evaluation rows' fingerprints, which a resume compares
    choose_best: bool = True  # save_best, and enough scored evaluation rows to choose on (progress.chooses_best)

    def keep_share(self) -> None:
        """WiSE-FT (Wortsman et al., 2022): each trained weight becomes ``(1 - k) * start + k *
        trained`` for k = keep_tuning. On a few hundred pairs, fine-tuning after the linear
        probe drifted below the probe (RTE: 0.552 -> 0.491) while the halfway weights kept
        most of what it learnt where it helped (SNLI: 0.586 -> 0.608, halfway 0.629)."""
        share = self.config.keep_tuning
        unwrapped = self.path.accelerator.unwrap_model(self.path.model)
        with torch.no_grad():
            for name, p in unwrapped.named_parameters():
                if name in self.start:
                    p.copy_(torch.lerp(self.start[name].to(p.device), p.detach().float(), share))
        self.path.weights_changed()

    def evaluate(self, step: int, *, cancellable: bool = True) -> dict[str, float] | None:
        """The evaluation's metrics; None when cancelled before its last batch (nothing recorded).
        ``cancellable`` False: the run's cancel is not read between batches (it ends after)."""
        config, task = self.config, self.parts.task
        with self.path.autocast():
            batches = CountedBatches(self.ev_loader, "evaluating", lambda ev: self.notify(ev, self.control))
            accumulator = task.accumulator(self.eval_set, self.eval_enc, self.parts.labels,
                                           max_answer_length=config.max_answer_length, glue_task=config.glue_task,
                                           null_answers=null_answers_of(self.parts.model))
            try:
                preds = predict_batches(self.path.module, batches, accumulator, accelerator=self.path.accelerator,
                                        cancel=self.cancel if cancellable else None)
            except EvaluationCancelled:
                return None
        metrics = task.metrics(self.eval_set, preds, glue_task=config.glue_task)
        self.progress.record_eval(metrics, preds, _metric_key(_main_metric(config, self.eval_set), metrics))
        self.notify(Evaluated(step=step, epoch=step / self.epoch_steps, metrics=metrics), self.control)
        if self.progress.improved and self.choose_best:
            self.save(step, best=True)
        return metrics

    def save(self, step: int, best: bool) -> None:
        """best: weights + metrics + predictions; last: everything a resume needs."""
        acc, progress, folder = self.path.accelerator, self.progress, self.folder
        # and what a resume must find the same: the label ids, the training rows, the precision it trained in
        state = {**progress.to_state(), "labels": [str(x) for x in self.parts.labels], **(self.data or {}),
                 "precision": self.path.precision}
        unwrapped = acc.unwrap_model(self.path.model)
        if best and not self.config.output_dir:
            progress.keep_best_in_memory(unwrapped)
        if folder and acc.is_main_process:
            target = folder.best if best else folder.last
            extra = {"predictions.jsonl": jsonl(prediction_rows(self.eval_set, progress.last_predictions)).encode()} if best else None
            ckpt.save_checkpoint(target, model=unwrapped, state=state, optimizer=None if best else self.path.optimizer,
                                 extra_files=extra, start=None if best else self.start)
            self.notify(CheckpointSaved(step=step, path=str(target), is_best=best), self.control)
        progress.best_saved |= best
        acc.wait_for_everyone()

    def finish(self, step: int, status: str, message: str) -> RunResult:
        """Export the best weights (else the last) and end the run. Only a cancelled run saves
        the resumable last checkpoint: a finished one cannot be resumed (rundir refuses it),
        and its optimizer state, twice the weights, would be written for nothing."""
        acc, progress, folder = self.path.accelerator, self.progress, self.folder
        self.notify(PhaseChanged("saving"), self.control)
        self.path.undo()  # plain dropout, SDPA attention and dense embeddings in what is saved and returned
        if status != "finished":
            self.save(step, best=False)
        unwrapped = acc.unwrap_model(self.path.model)
        final = progress.restore_best(unwrapped, folder.best if folder else None)
        kept = progress.best_step if progress.best_saved and progress.best_step not in (None, step) else None
        kept_best = progress.best_saved and final == progress.best_metrics
        # the kept weights were chosen on the evaluation set, so their score is the best of several
        # looks at it (RTE, 128 rows: 0.549 kept, 0.516 where the recipe ended): the last one goes beside it
        last = dict(progress.last_metrics) if kept is not None and kept_best and progress.last_metrics != final else {}
        result = RunResult(status, final, self.config.output_dir, None, message, step, model=unwrapped)
        answer = None
        if folder and acc.is_main_process:
            save = self.parts.save or _plain_save
            result.model_dir = str(folder.export_model(lambda out: save(unwrapped, self.parts.tokenizer, out)))
            best_preds = ckpt.read_best_predictions(folder.best) if progress.best_saved else None
            answer = _one_answer(self.eval_set, best_preds if best_preds is not None else progress.last_predictions)
            if final:
                folder.write_metrics(final, last=last, one_answer=answer.to_dict() if answer else None)
            if best_preds is not None:  # the exported weights are the best ones
                folder.write_predictions(best_preds)
            elif progress.last_predictions is not None:
                folder.write_predictions(jsonl(prediction_rows(self.eval_set, progress.last_predictions)))
            if status == "finished":  # an earlier evaluation's resumable checkpoint is stale now
                folder.drop_last()
        elif acc.is_main_process and final:
            answer = _one_answer(self.eval_set, progress.best_predictions if kept_best else progress.last_predictions)
        acc.wait_for_everyone()
        self.notify(RunFinished(status=status, step=step, metrics=final, output_dir=self.config.output_dir, message=message,
                                best_step=kept if final == progress.best_metrics else None, last_metrics=last,
                                one_answer=answer.sentence() if answer else ""))
        return result


def _say_last_kept(scored: int) -> None:
    """Say, before the first step, that save_best will not choose: the scored evaluation rows are
    too few to tell the evaluations apart, so the run keeps its last weights (its facts let the app
    say it in its own language; the CLI prints the line)."""
    log.warning("%d scored evaluation row%s, fewer than %d: too few to choose the best evaluation on, so the run "
                "keeps its last weights (save_best is not applied)", scored, "" if scored == 1 else "s",
                MIN_ROWS_TO_CHOOSE, extra={"facts": {"kind": "last_weights_kept", "scored": scored,
                                                     "least": MIN_ROWS_TO_CHOOSE}})


def _one_answer(eval_set: Any, preds: str | list[dict[str, Any]] | None) -> Any:
    """The class the kept model answers for (almost) every evaluation row, as
    :func:`bertstudio.metrics.classification.one_answer` tells it; None for other kinds.
    ``preds``: predictions.jsonl's text (its rows carry their gold) or the prediction dicts in
    the evaluation set's order."""
    gold = eval_set.spec.gold if eval_set is not None else None
    if gold is None or not gold.classes or not preds:
        return None
    from bertstudio.metrics.classification import one_answer

    if isinstance(preds, str):  # already checked line by line (checkpoint.read_best_predictions)
        rows = [json.loads(line) for line in preds.split("\n") if line.strip()]
        return one_answer([r.get("gold") for r in rows], [r.get(gold.name) for r in rows])
    return one_answer(eval_set.dataset[eval_set.gold_column], [p.get(gold.name) for p in preds])


def _main_metric(config: TrainConfig, eval_set: Any) -> tuple[str, ...]:
    """What ranks evaluations: the preset's official metrics, else the task kind's."""
    from bertstudio.tasks import official_metrics

    preset = config.glue_task or (eval_set.meta.get("glue_task") if eval_set is not None else None)
    return official_metrics(config.task, preset)


def _metric_key(source: tuple[str, ...], metrics: dict[str, float]) -> str:
    from bertstudio.metrics import main_metric

    return main_metric(source, available=metrics)


def _plain_save(model: Any, tokenizer: Any, out: Path) -> None:
    model.save_pretrained(out)
    if tokenizer is not None:
        tokenizer.save_pretrained(out)


EVAL_BATCH_SIZE = 64  # evaluate()'s default: no gradients, so twice the training default fits


def evaluate(model_dir: str | Path, examples: Any, *, batch_size: int = EVAL_BATCH_SIZE, callbacks: Iterable[Callable] = (),
             max_length: int | None = None, glue_task: str | None = None,
             precision: str = "auto") -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Score a saved model on ``examples``: (official metrics, one prediction row per example
    with ``index`` and ``gold``, as in predictions.jsonl; metrics {} for unlabelled data).
    Inputs are cut and windowed as the run trained (train/predict.run_lengths; ``max_length``
    overrides), in the precision training uses here (``precision="auto"``, see
    evaluation.for_inference; "fp32": exact), so the scores and predictions are the run's
    own evaluation's and ``Predictor``'s. ConfigError/DataError for a model or data that do not fit."""
    from bertstudio.tasks.model import load_model, task_for
    from bertstudio.train.predict import run_lengths

    notify = Notifier(callbacks)
    notify(PhaseChanged("loading_model"))
    model, tokenizer, kind, labels = load_model(model_dir)
    if examples.kind != kind:
        raise ConfigError(f"the model predicts {kind!r} but the data is {examples.kind!r}", path=examples.source,
                          expected=f"{kind} data")
    meta = getattr(model.config, "bertstudio", None) or {}
    glue_task = glue_task or examples.meta.get("glue_task") or meta.get("glue_task")
    if examples.spec.gold.classes:  # predictions and golds share the model's label order
        examples = replace(examples, labels=list(labels))
    lengths = run_lengths(model, model_dir, max_length=max_length)
    model, device, _ = for_inference(model, "auto", precision)  # as the run's own evaluation ran (fp32: exact)
    task = task_for(model, kind)
    notify(PhaseChanged("tokenising", 0, len(examples)))
    enc = task.encode(examples, tokenizer, max_length=lengths["max_length"], doc_stride=lengths["doc_stride"],
                      label2id={n: i for i, n in enumerate(labels)}, training=False)
    loader = eval_loader(enc, task, tokenizer.pad_token_id or 0, batch_size,
                         pad_to_multiple_of=PAD_MULTIPLE if device.startswith("cuda") else None,
                         pin_memory=loader_options(device)["pin_memory"])
    accumulator = task.accumulator(examples, enc, labels, glue_task=glue_task, max_answer_length=lengths["max_answer_length"],
                                   null_answers=null_answers_of(model))
    preds = predict_batches(model, CountedBatches(loader, "evaluating", notify), accumulator, device=device)
    metrics = task.metrics(examples, preds, glue_task=glue_task) if len(examples.labelled()) else {}
    notify(Evaluated(step=0, epoch=0.0, metrics=metrics))
    return metrics, prediction_rows(examples, preds)
