"""Sequence classification: ``sentence``, ``pair`` and ``regression`` kinds.

One class serves the three kinds; they differ only in whether a second segment
is encoded and whether the target is a label id or a float. Inputs are
``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]`` with token_type_ids 0/1, the
format BERT was pre-trained on; pairs are cut longest side first.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import datasets
import numpy as np

from bertstudio.data.examples import ExampleSet
from bertstudio.data.kinds import get_spec
from bertstudio.tasks.base import takes_token_types
from bertstudio.tasks.collate import pad_batch
from bertstudio.tasks.common import check_labels, column, encoding_rows, label_ids, map_batched
from bertstudio.hf import hf

if TYPE_CHECKING:  # torch is imported where tensors are made: the GUI reads predictions without it
    import torch


def encode_texts(tokenizer: Any, texts: list[str], pairs: list[str] | None, max_length: int) -> dict[str, list]:
    """Tokenise a batch; rows whose second text is empty are encoded as single sentences
    (a regression file may mix both), so ``[CLS] A [SEP] [SEP]`` never appears."""
    kw = dict(truncation="longest_first", max_length=max_length, return_token_type_ids=takes_token_types(tokenizer),
              return_attention_mask=True)
    if pairs is None or not any(pairs):
        return dict(tokenizer(texts, **kw))
    if all(pairs):
        return dict(tokenizer(texts, pairs, **kw))
    with_pair = [i for i, p in enumerate(pairs) if p]
    single = [i for i, p in enumerate(pairs) if not p]
    a = tokenizer([texts[i] for i in with_pair], [pairs[i] for i in with_pair], **kw)
    b = tokenizer([texts[i] for i in single], **kw)
    out: dict[str, list] = {k: [None] * len(texts) for k in a.keys()}
    for enc, rows in ((a, with_pair), (b, single)):
        for k in out:
            for j, i in enumerate(rows):
                out[k][i] = enc[k][j]
    return out


def gold_scale(golds: Iterable[Any], glue_task: str | None = None) -> tuple[float, float]:
    """The scale scores are given on: a benchmark's own (STS-B: 0 to 5), otherwise the smallest of
    the usual rating scales 0-1, 0-5, 0-10, 0-100, 0-1000, ... that holds every gold score (mirrored
    below 0 when a score is negative: -5 to 5 for -2 .. 3). Rounding out to such a scale, rather than
    taking the scores' own min and max, keeps 1-10 ratings that happen to use only 6-10 on 0-10, and
    lets STS-B scores without the preset land on 0-5. No scores: 0 to 5 (STS-B's, the kind's origin)."""
    from bertstudio.data.glue import score_scale

    preset = score_scale(glue_task)
    if preset is not None:
        return float(preset[0]), float(preset[1])
    values = [float(g) for g in golds if g is not None]
    values = [v for v in values if math.isfinite(v)]
    if not values:
        return 0.0, 5.0
    lo, hi = min(values), max(values)
    reach = max(abs(lo), abs(hi))
    bound = next(b for b in (1.0, 5.0) if reach <= b) if reach <= 5.0 else 10.0 ** math.ceil(math.log10(reach))
    return (-bound if lo < 0 else 0.0), (bound if hi > 0 or lo >= 0 else 0.0)


def score_tolerance(golds: Iterable[Any], glue_task: str | None = None) -> float:
    """How far a predicted score may be from its gold and still read as right: a tenth of the
    scale (:func:`gold_scale`), so STS-B's 0-5 keeps its 0.5, a 0-100 scale takes 10 and 0-1 takes 0.1.
    A fixed 0.5 made every prediction an error on 0-100 and none on 0-1."""
    lo, hi = gold_scale(golds, glue_task)
    return (hi - lo) / 10.0


class ScoreErrorRule:
    """A predicted score is wrong when it is ``tolerance`` or more away from its gold."""

    def __init__(self, tolerance: float) -> None:
        self.tolerance = tolerance

    def __call__(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        if gold is None:
            return False
        return abs(float(prediction.get("score", 0.0)) - float(gold)) >= self.tolerance


class SequenceClassificationTask:
    """sentence | pair | regression: one prediction per example from the [CLS] position."""

    peft_task_type = "SEQ_CLS"
    head_modules: tuple[str, ...] = ("classifier",)

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.spec = get_spec(kind)
        self.regression = self.spec.gold.numeric
        self.has_pair = "text_pair" in self.spec.columns
        self.prediction_columns = ("loss",) if self.regression else ("confidence", "loss")
        # what a run reports when no benchmark preset names its official metrics, main metric first
        self.metric_names = ("pearson", "spearman") if self.regression else ("accuracy", "macro_f1")

    def auto_model_class(self) -> type:
        AutoModelForSequenceClassification = hf("AutoModelForSequenceClassification")

        return AutoModelForSequenceClassification

    def config_kwargs(self, labels: Sequence[str]) -> dict[str, Any]:
        if self.regression:
            # num_labels=1 + problem_type makes the HF head use MSE and pipeline() skip softmax.
            return {"num_labels": 1, "problem_type": "regression", "id2label": {0: "score"}, "label2id": {"score": 0}}
        labels = check_labels(labels, self.kind, self.spec.min_labels)
        return {
            "num_labels": len(labels),
            "problem_type": "single_label_classification",
            "id2label": dict(enumerate(labels)),
            "label2id": {name: i for i, name in enumerate(labels)},
        }

    # --- encoding -------------------------------------------------------------------
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
        """Rows = examples (in training, only the labelled ones). Targets are present when
        every encoded row has gold; ``example_index`` ties each row to its example."""
        ds, with_targets = encoding_rows(examples, training)

        def tokenize(batch: dict[str, list]) -> dict[str, list]:
            enc = encode_texts(tokenizer, batch["text"], batch["text_pair"] if self.has_pair else None, max_length)
            enc["length"] = [len(x) for x in enc["input_ids"]]
            enc["example_index"] = batch["example_index"]
            if with_targets:
                if self.regression:
                    enc["labels"] = [float(v) for v in batch["label"]]
                else:
                    enc["labels"] = label_ids(batch["label"], label2id, examples, batch["example_index"])
            return enc

        return map_batched(ds, tokenize, self.kind)

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int, **padding: Any) -> dict[str, torch.Tensor]:
        return pad_batch(features, pad_token_id, float_labels=self.regression, **padding)

    # --- predictions ----------------------------------------------------------------
    def accumulator(
        self, examples: ExampleSet, encoded: datasets.Dataset, labels: list[str], **options: Any
    ) -> "ClassificationAccumulator":
        return ClassificationAccumulator(examples, labels, regression=self.regression)

    def metrics(self, examples: ExampleSet, predictions: list[dict[str, Any]], **options: Any) -> dict[str, float]:
        from bertstudio import metrics as M

        glue_task = options.get("glue_task") or examples.meta.get("glue_task")
        gold = column(examples.dataset, "label")
        keep = [i for i, g in enumerate(gold) if g is not None]
        if self.regression:
            golds = [float(gold[i]) for i in keep]
            preds = [float(predictions[i]["score"]) for i in keep]
        else:
            # Ids in the examples' label order (GLUE presets put the positive class at 1);
            # a predicted name the examples never list gets an id after theirs.
            index = {name: i for i, name in enumerate(examples.labels)}
            for i in keep:
                index.setdefault(gold[i], len(index))
                index.setdefault(predictions[i]["label"], len(index))
            golds = [index[gold[i]] for i in keep]
            preds = [index[predictions[i]["label"]] for i in keep]
        if not keep:
            return {}
        ids = None if self.regression else list(range(len(index)))
        if glue_task:
            # Label ids, so GLUE's binary F1 takes id 1 (paraphrase, duplicate) as positive.
            return dict(M.glue_task_metrics(glue_task, golds, preds, labels=ids))
        if self.regression:
            return dict(M.regression_metrics(golds, preds))
        return dict(M.classification_metrics(golds, preds, names=self.metric_names, labels=ids))


    # --- reading predictions -----------------------------------------------------------
    def predicted_value(self, prediction: Mapping[str, Any]) -> Any:
        return prediction.get("score") if self.regression else prediction.get("label")

    def is_error(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        """A label other than the gold; a score off by a tenth of its scale or more (with no other
        gold known here, the scale this gold alone falls on: :meth:`error_rule` judges a set of rows)."""
        if gold is None:
            return False
        if self.regression:
            return ScoreErrorRule(score_tolerance([gold]))(prediction, gold)
        return prediction.get("label") != gold

    def error_rule(self, golds: Iterable[Any], glue_task: str | None = None) -> Any:
        """The rule that judges rows with these gold values: a score's tolerance is a tenth of their
        scale (:func:`score_tolerance`), the same for every row; a label is wrong when it differs."""
        return ScoreErrorRule(score_tolerance(golds, glue_task)) if self.regression else self.is_error

    def confidence(self, prediction: Mapping[str, Any]) -> float | None:
        value = None if self.regression else prediction.get("confidence")
        return float(value) if value is not None else None


class ClassificationAccumulator:
    """Keeps one row of probabilities (or one score) per example: O(examples x labels)."""

    def __init__(self, examples: ExampleSet, labels: list[str], *, regression: bool) -> None:
        self.labels = list(labels)
        self.regression = regression
        self.gold = column(examples.dataset, "label")
        width = 1 if regression else len(labels)
        self.values = np.full((len(examples), width), np.nan, dtype=np.float64)

    def add(self, batch: Mapping[str, torch.Tensor], outputs: Any) -> None:
        import torch

        logits = outputs.logits if hasattr(outputs, "logits") else outputs["logits"]
        logits = logits.detach().float().cpu()
        rows = batch["example_index"].cpu().numpy()
        if self.regression:
            self.values[rows] = logits[:, :1].numpy()
        else:
            self.values[rows] = torch.softmax(logits, dim=-1).numpy()

    def finish(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, row in enumerate(self.values):
            gold = self.gold[i]
            if self.regression:
                pred: dict[str, Any] = {"score": float(row[0])}
                if gold is not None:
                    pred["loss"] = float((row[0] - float(gold)) ** 2)
            else:
                best = int(np.argmax(row))
                pred = {
                    "label": self.labels[best],
                    "probs": {name: float(p) for name, p in zip(self.labels, row)},
                    "confidence": float(row[best]),
                }
                if gold is not None and gold in self.labels:
                    # Cross-entropy from the stored probabilities; clipped so a 0.0 never gives inf.
                    pred["loss"] = float(-np.log(max(row[self.labels.index(gold)], 1e-12)))
            out.append(pred)
        return out
