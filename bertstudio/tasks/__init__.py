"""Task kinds as data: one registry line per kind, one module per kind family.

``get_task(kind)`` is the only way the engine, the predictor and the GUI reach a
kind's encoder, collator, model class, decoder and metrics (compare the
``task_to_keys`` table of Hugging Face's run_glue example); ``task.spec`` holds its
data facts (:mod:`bertstudio.data.kinds`). A new kind is one module (its spec and
its Task) plus one :func:`register_task` line here.
"""

from __future__ import annotations

from bertstudio.data.kinds import register_kind
from bertstudio.errors import ConfigError
from bertstudio.tasks.base import Task
from bertstudio.tasks.classification import SequenceClassificationTask
from bertstudio.tasks.qa import QuestionAnsweringTask
from bertstudio.tasks.tagging import TokenTaggingTask

TASKS: dict[str, Task] = {}


def register_task(task: Task) -> Task:
    """Make ``task`` (and its spec) a kind every layer knows."""
    register_kind(task.spec)
    TASKS[task.kind] = task
    return task


register_task(SequenceClassificationTask("sentence"))
register_task(SequenceClassificationTask("pair"))
register_task(SequenceClassificationTask("regression"))
register_task(TokenTaggingTask())
register_task(QuestionAnsweringTask())


def get_task(kind: str) -> Task:
    try:
        return TASKS[kind]
    except KeyError:
        raise ConfigError(f"unknown task kind {kind!r}", where="task", expected=" | ".join(TASKS)) from None


def official_metrics(kind: str, glue_task: str | None = None) -> tuple[str, ...]:
    """The metrics a run of ``kind`` reports, main metric first: the benchmark preset's official
    ones when the run names a preset bertstudio knows, else the kind's own."""
    from bertstudio.metrics import GLUE_METRICS, canonical_task, is_glue_task

    if glue_task and is_glue_task(glue_task):
        return GLUE_METRICS[canonical_task(glue_task)]
    return get_task(kind).metric_names


__all__ = ["TASKS", "Task", "get_task", "official_metrics", "register_task"]
