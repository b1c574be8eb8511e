"""What is checked before a run reads its data or builds its model, so a mistake costs
a second instead of a model load: the run folder may be written, the checkpoint to
resume from is one of ours and of this task kind, the device asked for exists, the model
folder is safe to read and takes ``max_length`` tokens. Each failure is a ConfigError (the CLI exits 2)."""

from __future__ import annotations

from pathlib import Path

from bertstudio.errors import ConfigError
from bertstudio.bundled import resolve_model
from bertstudio.tasks.model import max_input_length
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.config import TrainConfig
from bertstudio.train.rundir import CHECKPOINTS, check_output_dir, refuse_finished


def check_before_start(config: TrainConfig) -> None:
    if config.resume_from:
        refuse_finished(config)  # before the checkpoint: a finished run keeps no resumable one
        # the best checkpoint the run's end exports is its own folder's, wherever --resume points
        best = Path(config.output_dir) / CHECKPOINTS / "best" if config.output_dir else None
        ckpt.check_resumable(config.resume_from, task=config.task, needs_start=config.keep_tuning < 1, best=best)
    check_output_dir(config)
    if config.device != "auto":  # cuda:99 on a machine without CUDA: refused before SetFit or a model load
        import torch

        from bertstudio.train.hardware import mps_available, pick_device

        pick_device(config.device, cuda=torch.cuda.is_available(), mps=mps_available())
    check_max_length(config)


def check_max_length(config: TrainConfig) -> None:
    """The model folder is safe to read and takes ``config.max_length`` tokens (also asked by the
    Train page while it counts the parameters, so Start is refused before a run folder exists)."""
    source = resolve_model(config.model)
    limit = max_input_length(source)  # also refuses an unsafe or broken model folder
    if limit is not None and config.max_length > limit:
        raise ConfigError(f"max_length {config.max_length} is more than this model takes ({limit} tokens)", path=source,
                          where="max_length", expected=f"at most {limit}",
                          facts={"value": config.max_length, "limit": limit})
