"""What every task kind provides. A kind is data: one module implements this
protocol (and describes its data in a :class:`~bertstudio.data.kinds.KindSpec`)
and one line in :mod:`bertstudio.tasks` registers it.

The engine, the predictor, the CLI and the GUI only ever talk to a kind through
its spec and these methods, so adding a kind touches one new module and one
registry line. Besides encoding, collating, decoding and scoring, a Task answers
the questions every view asks of a prediction (:meth:`Task.predicted_value`,
:meth:`Task.is_error`, :meth:`Task.confidence`): one rule each, so the Data page's
"disagrees" filter and the Results page's "errors only" can never drift apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

import datasets

from bertstudio.data.examples import ExampleSet
from bertstudio.data.kinds import KindSpec

if TYPE_CHECKING:  # torch is imported where tensors are made: the GUI reads predictions without it
    import torch


class PredictionAccumulator(Protocol):
    """Collects model outputs batch by batch (never all logits at once) and
    turns them into per-example predictions at the end."""

    def add(self, batch: Mapping[str, torch.Tensor], outputs: Any) -> None: ...

    def finish(self) -> list[dict[str, Any]]:
        """One JSON-able dict per example of the evaluated ExampleSet, in order:
        sentence/pair: ``{"label": str, "probs": {name: p}, "confidence": p, "loss": float}``
        regression: ``{"score": float, "loss": float}``
        tagging: ``{"tags": [str per word], "entities": [[type, start_word, end_word_exclusive]]}``
        qa: ``{"answer": str, "start": int (char, -1 if none), "score": float}``"""
        ...


class Task(Protocol):
    kind: str
    spec: KindSpec
    # The numeric fields a prediction carries, as views show them (e.g. ("confidence", "loss")).
    prediction_columns: tuple[str, ...]
    # The metrics a run reports when no benchmark preset names official ones, main metric first.
    metric_names: tuple[str, ...]
    # peft's LoraConfig task_type ("SEQ_CLS" | "TOKEN_CLS" | "QUESTION_ANS") and the new
    # head modules that train in full and are saved whole under LoRA (modules_to_save).
    peft_task_type: str
    head_modules: tuple[str, ...]

    def config_kwargs(self, labels: Sequence[str]) -> dict[str, Any]:
        """Keyword arguments for ``AutoConfig.from_pretrained``: num_labels, id2label,
        label2id and, for regression, problem_type."""
        ...

    def auto_model_class(self) -> type:
        """The transformers Auto class whose ``from_pretrained`` reloads a saved model."""
        ...

    def encode(
        self,
        examples: ExampleSet,
        tokenizer: Any,
        *,
        max_length: int,
        label2id: Mapping[str, int],
        doc_stride: int = 128,
        training: bool = True,
    ) -> datasets.Dataset:
        """Tokenise once (batched map). Columns: ``input_ids``, ``token_type_ids``,
        ``attention_mask``, ``length``, plus the targets (``labels`` or
        ``start_positions``/``end_positions``) when the examples are labelled, and for
        QA evaluation ``example_index`` and ``offset_mapping``. Rows may outnumber
        examples (QA windows)."""
        ...

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int, **padding: Any) -> dict[str, torch.Tensor]:
        """Dynamic padding to the longest row, rounded up to a multiple of 8; ``padding`` passes
        ``pad_to_multiple_of`` / ``widths`` on to :func:`bertstudio.tasks.collate.pad_batch`."""
        ...

    def accumulator(self, examples: ExampleSet, encoded: datasets.Dataset, labels: list[str], **options: Any) -> PredictionAccumulator: ...

    def metrics(self, examples: ExampleSet, predictions: list[dict[str, Any]], **options: Any) -> dict[str, float]:
        """The task's official metrics (keys as in bertstudio.metrics)."""
        ...

    def predicted_value(self, prediction: Mapping[str, Any]) -> Any:
        """The prediction in the shape of a gold value (what accepting it as a label would store)."""
        ...

    def is_error(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        """True when the prediction does not match the gold value; never for an unlabelled row."""
        ...

    def confidence(self, prediction: Mapping[str, Any]) -> float | None:
        """How sure the model is of this prediction (None when the kind has no such number)."""
        ...


# --- additive helpers shared by the task modules and the engine -----------------------

def error_rule(task: Task, golds: Sequence[Any], glue_task: str | None = None) -> Callable[[Mapping[str, Any], Any], bool]:
    """What calls a prediction wrong among rows with these gold values (the Results page's errors,
    the Data page's Disagree filter, Compare's fixed/broken). A Task whose rule depends on the rows
    (a score's tolerance follows their scale) has an ``error_rule(golds, glue_task)``; the rule
    then carries a ``tolerance``. Others judge each row alone with :meth:`Task.is_error`."""
    own = getattr(task, "error_rule", None)
    return task.is_error if own is None else own(golds, glue_task)



# What a model's forward() accepts; every other collated key (``example_index``,
# ``offset_mapping``, ``word_index``) is bookkeeping for the accumulators.
MODEL_INPUT_NAMES: tuple[str, ...] = (
    "input_ids",
    "token_type_ids",
    "attention_mask",
    "labels",
    "start_positions",
    "end_positions",
)


# The per-token model inputs a task's encode keeps from the tokenizer's output. ``token_type_ids``
# are there only where the tokenizer makes them: its ``model_input_names``, which
# :func:`bertstudio.tasks.model.load_tokenizer` matches to the model's ``type_vocab_size`` (XLM-R's
# tokenizer gives overflow windows type id 1, out of range for its one type embedding).
TOKEN_INPUTS: tuple[str, ...] = ("input_ids", "token_type_ids", "attention_mask")


def takes_token_types(tokenizer: Any) -> bool:
    """Whether ``token_type_ids`` are encoded and fed to the model with this tokenizer."""
    return "token_type_ids" in tokenizer.model_input_names


def token_inputs(tokenizer: Any, enc: Mapping[str, Any]) -> dict[str, Any]:
    """The model-input columns of a tokenizer's output (see :data:`TOKEN_INPUTS`)."""
    return {k: enc[k] for k in TOKEN_INPUTS if k != "token_type_ids" or takes_token_types(tokenizer)}


def model_inputs(batch: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The part of a collated batch to pass as ``model(**model_inputs(batch))``."""
    return {k: v for k, v in batch.items() if k in MODEL_INPUT_NAMES}
