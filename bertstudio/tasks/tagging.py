"""Token tagging (NER, POS, chunking): one tag per word, predicted on its first sub-token.

As in the BERT paper's CoNLL-2003 setup, each word's tag sits on its FIRST
WordPiece; the other pieces and the specials get -100 so the loss ignores them.
Decoding reads the first piece of every word back into word-level tags.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import datasets
import numpy as np

from bertstudio.hf import hf
from bertstudio.data.examples import ExampleSet
from bertstudio.data.kinds import get_spec
from bertstudio.errors import DataError
from bertstudio.tasks.base import takes_token_types, token_inputs
from bertstudio.tasks.collate import pad_batch
from bertstudio.tasks.common import check_labels, column, encoding_rows, label_id, map_batched
from bertstudio.tasks.word_windows import word_windows

if TYPE_CHECKING:
    import torch

log = logging.getLogger(__name__)

IGNORE = -100
_PREFIXED = re.compile(r"^([BIES])-(.+)$")


def entity_spans(tags: Sequence[str | None]) -> list[list[Any]]:
    """``[[type, start_word, end_word_exclusive], ...]`` from BIO/IOB1/BIOES tags.

    Written by hand because seqeval's ``get_entities`` reads plain tags ("NN") as
    entities of type "N"; here a tag without a B-/I-/E-/S- prefix is never an entity,
    so POS tags give an empty list. An I- that does not continue an entity of its own
    type starts one (the lenient reading seqeval's default mode uses too).
    """
    spans: list[list[Any]] = []
    current: list[Any] | None = None
    for i, tag in enumerate(tags):
        m = _PREFIXED.match(tag) if tag is not None else None  # None: a word not read, no entity
        if m is None:
            current = None
            continue
        prefix, kind = m.groups()
        if prefix in ("B", "S") or current is None or current[0] != kind:
            current = [kind, i, i + 1]
            spans.append(current)
        else:
            current[2] = i + 1
        if prefix in ("E", "S"):
            current = None
    return spans


class TokenTaggingTask:
    kind = "tagging"
    peft_task_type = "TOKEN_CLS"
    head_modules: tuple[str, ...] = ("classifier",)
    prediction_columns: tuple[str, ...] = ()
    # entity F1 first (seqeval); plain tag sets (POS) have token accuracy only
    metric_names: tuple[str, ...] = ("f1", "precision", "recall", "accuracy")

    def __init__(self) -> None:
        self.spec = get_spec(self.kind)

    def auto_model_class(self) -> type:
        AutoModelForTokenClassification = hf("AutoModelForTokenClassification")

        return AutoModelForTokenClassification

    def config_kwargs(self, labels: Sequence[str]) -> dict[str, Any]:
        labels = check_labels(labels, self.kind, self.spec.min_labels)
        return {
            "num_labels": len(labels),
            "id2label": dict(enumerate(labels)),
            "label2id": {name: i for i, name in enumerate(labels)},
        }

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
        """Columns: the model inputs, ``length``, ``example_index``, ``word_index`` (the word a
        token speaks for, else -1) and, with gold, ``labels`` (-100 elsewhere). A sentence
        longer than ``max_length`` tokens is several rows (tasks/word_windows.py)."""
        ds, with_targets = encoding_rows(examples, training)

        def tokenize(batch: dict[str, list]) -> dict[str, list]:
            windows = word_windows(tokenizer, batch["tokens"], max_length=max_length,
                                   return_token_type_ids=takes_token_types(tokenizer), return_attention_mask=True)
            enc = windows.encoding
            out = token_inputs(tokenizer, enc)
            out["length"] = [len(x) for x in enc["input_ids"]]
            out["example_index"] = [batch["example_index"][i] for i in windows.sentence]
            out["word_index"] = windows.words
            if with_targets:
                ids_of = []
                for i in range(len(batch["tokens"])):
                    tags, row = batch["tags"][i], batch["example_index"][i]
                    if len(tags) != len(batch["tokens"][i]):
                        raise DataError(
                            f"{len(tags)} tags for {len(batch['tokens'][i])} words",
                            path=examples.source,
                            where=f"row {row + 1}",
                            expected="one tag per word",
                        )
                    ids_of.append([label_id(t, label2id, examples, row, "tag") for t in tags])
                out["labels"] = [[ids_of[i][w] if w >= 0 else IGNORE for w in words]
                                 for i, words in zip(windows.sentence, windows.words)]
            return out

        return map_batched(ds, tokenize, self.kind)

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int, **padding: Any) -> dict[str, torch.Tensor]:
        return pad_batch(features, pad_token_id, **padding)

    def accumulator(
        self, examples: ExampleSet, encoded: datasets.Dataset, labels: list[str], **options: Any
    ) -> "TaggingAccumulator":
        return TaggingAccumulator(examples, labels)

    def metrics(self, examples: ExampleSet, predictions: list[dict[str, Any]], **options: Any) -> dict[str, float]:
        """Token accuracy, plus strict entity P/R/F1 when the examples' tag set is a BIO set;
        a plain set (POS) never reaches seqeval."""
        from bertstudio import metrics as M

        gold = column(examples.dataset, "tags")
        keep = [i for i, g in enumerate(gold) if g is not None]
        if not keep:
            return {}
        return dict(M.tagging_metrics([list(gold[i]) for i in keep], [predictions[i]["tags"] for i in keep],
                                      labels=examples.labels or None))

    def predicted_value(self, prediction: Mapping[str, Any]) -> Any:
        return prediction.get("tags")

    def is_error(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        """Any word tagged differently (the sentence is wrong as a whole); a word not read is scored
        as the metrics score it."""
        from bertstudio.metrics.tagging import scored_tags

        return gold is not None and scored_tags(prediction.get("tags") or []) != list(gold)

    def confidence(self, prediction: Mapping[str, Any]) -> float | None:
        return None


class TaggingAccumulator:
    """One small int array per example (its words' predicted tag ids, -1 = not reached)."""

    def __init__(self, examples: ExampleSet, labels: list[str]) -> None:
        self.labels = list(labels)
        self.preds = [np.full(len(t), -1, dtype=np.int64) for t in column(examples.dataset, "tokens")]

    def add(self, batch: Mapping[str, torch.Tensor], outputs: Any) -> None:
        logits = outputs.logits if hasattr(outputs, "logits") else outputs["logits"]
        best = logits.detach().argmax(dim=-1).cpu().numpy()
        words = batch["word_index"].cpu().numpy()
        for row, example in enumerate(batch["example_index"].tolist()):
            at = words[row] >= 0
            self.preds[example][words[row][at]] = best[row][at]

    def finish(self) -> list[dict[str, Any]]:
        out, cut = [], 0
        for ids in self.preds:
            missing = int((ids < 0).sum())
            cut += missing
            # Words that tokenise to nothing (a zero-width character alone) are not read: no tag (null), as
            # predict, predict.py and the Playground say; only scoring counts them (metrics.scored_tags)
            tags = [self.labels[i] if i >= 0 else None for i in ids]
            out.append({"tags": tags, "entities": entity_spans(tags), "unpredicted_words": missing})
        if cut:  # "were tagged 'O'" where the Playground says not read: the model gives them no tag
            log.warning("%d word(s) tokenise to nothing and were not read: the model gives them no tag "
                        "(scores count them as 'O')", cut)
        return out
