"""Task kinds as data: one registry line per kind, one module per kind family.

``get_task(kind)`` is the only way the engine, the predictor and the GUI reach a
kind's encoder, collator, model class, decoder and metrics (compare the
``task_to_keys`` table of Hugging Face's run_glue example).
"""

from __future__ import annotations

from bertstudio.data.examples import KINDS
from bertstudio.errors import ConfigError
from bertstudio.tasks.base import Task
from bertstudio.tasks.classification import SequenceClassificationTask
from bertstudio.tasks.qa import QuestionAnsweringTask
from bertstudio.tasks.tagging import TokenTaggingTask

TASKS: dict[str, Task] = {
    "sentence": SequenceClassificationTask("sentence"),
    "pair": SequenceClassificationTask("pair"),
    "regression": SequenceClassificationTask("regression"),
    "tagging": TokenTaggingTask(),
    "qa": QuestionAnsweringTask(),
}


def get_task(kind: str) -> Task:
    try:
        return TASKS[kind]
    except KeyError:
        raise ConfigError(f"unknown task kind {kind!r}", where="task", expected=" | ".join(TASKS)) from None


__all__ = ["TASKS", "KINDS", "Task", "get_task"]
