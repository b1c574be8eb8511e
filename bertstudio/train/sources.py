"""The training and evaluation sets a config names, when the caller passes none."""

from __future__ import annotations

from typing import Any

from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig


def load_sets(config: TrainConfig, train_set: Any = None, eval_set: Any = None) -> tuple[Any, Any]:
    """(train, eval) ExampleSets: as given, else from ``glue_task`` + ``data_dir`` or the
    files named; capped by ``max_train_examples`` (drawn with the seed) and
    ``max_eval_examples`` (the first rows)."""
    if train_set is None:
        if config.glue_task and config.data_dir:
            from bertstudio.data.glue import load_glue

            train_set = load_glue(config.glue_task, config.data_dir, split="train")
            if eval_set is None and not config.eval_file:
                eval_set = load_glue(config.glue_task, config.data_dir, split="dev")
        elif config.train_file:
            train_set = _load(config, config.train_file)
        else:
            raise ConfigError("no training data", where="train_file", expected="a training file, or a GLUE task with its data folder")
    if eval_set is None and config.eval_file:
        eval_set = _load(config, config.eval_file)
    if train_set.kind != config.task:
        raise ConfigError(
            f"the training data is {train_set.kind!r} data but the task is {config.task!r}",
            path=train_set.source, where="task", expected=f"task = {train_set.kind!r}",
        )
    train_set = train_set.head(config.max_train_examples, seed=config.seed)
    if eval_set is not None:
        eval_set = eval_set.head(config.max_eval_examples)
    return train_set, eval_set


def _load(config: TrainConfig, path: str) -> Any:
    from bertstudio.data.io import load_examples

    if config.glue_task and config.data_format in ("auto", "glue"):
        from bertstudio.data.glue import load_glue

        return load_glue(config.glue_task, path)
    return load_examples(
        path, kind=config.task, fmt=config.data_format, columns=config.columns or None, labels=config.labels,
    )
