"""The training and evaluation sets a config names, when the caller passes none.

Every file of a run is read with one ReadSpec, resolved once from the config (or, when
the config names no preset, from where the training file sits): an evaluation file is
read with the training file's preset, layout and label names, so SNLI's 0/1/2 in a file
outside its ``snli/`` folder still means entailment/neutral/contradiction, and a label
the training data lacks is an error naming both files instead of a new class.
"""

from __future__ import annotations

from typing import Any

from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig


def load_sets(config: TrainConfig, train_set: Any = None, eval_set: Any = None) -> tuple[Any, Any]:
    """(train, eval) ExampleSets: as given, else from ``glue_task`` + ``data_dir`` or the
    files named; capped by ``max_train_examples`` (drawn with the seed) and
    ``max_eval_examples`` (the first rows)."""
    from bertstudio.data.io import load_alongside, read_with

    spec = run_spec(config, train_set)
    if train_set is None:
        if config.glue_task and config.data_dir:
            from bertstudio.data.glue import load_glue

            train_set = load_glue(config.glue_task, config.data_dir, split="train")
            if eval_set is None and not config.eval_file:
                eval_set = load_glue(config.glue_task, config.data_dir, split="dev")
        elif config.train_file:
            train_set = read_with(spec, config.train_file)
        else:
            raise ConfigError("no training data", where="train_file", expected="a training file, or a GLUE task with its data folder")
    if eval_set is None and config.eval_file:
        eval_set = load_alongside(train_set, spec, config.eval_file)
    if train_set.kind != config.task:
        raise ConfigError(
            f"the training data is {train_set.kind!r} data but the task is {config.task!r}",
            path=train_set.source, where="task", expected=f"task = {train_set.kind!r}",
        )
    train_set = train_set.head(config.max_train_examples, seed=config.seed)
    if eval_set is not None:
        eval_set = eval_set.head(config.max_eval_examples)
    return train_set, eval_set


def run_spec(config: TrainConfig, train_set: Any = None) -> Any:
    """How this run reads its files: the config's format, columns, labels and preset; with
    no preset named, the one the training file's location (or a given set's) implies."""
    from bertstudio.data.io import resolve_spec

    glue_task = config.glue_task or (train_set.meta.get("glue_task") if train_set is not None else None)
    path = config.train_file if train_set is None and not config.data_dir else None
    return resolve_spec(path, kind=config.task, fmt=config.data_format, columns=config.columns or None,
                        labels=config.labels, glue_task=glue_task)
