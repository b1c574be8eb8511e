"""A sixth task kind written the way GUIDE.md says a kind is added: this one module (its
gold type, its spec and its Task) plus one ``register_task`` line. Multi-label
classification: each example carries a *set* of labels from the label set.

Tests import :func:`register` and check that the data layer, the project, the views
and the engine handle the kind without any other code change.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data.kinds import GoldType, KindSpec
from bertstudio.tasks.classification import SequenceClassificationTask, encode_texts
from bertstudio.tasks.collate import pad_batch
from bertstudio.tasks.common import check_labels, column, encoding_rows, map_batched

KIND = "multilabel"


class LabelSetGold(GoldType):
    """A list of distinct label names per example (an empty list: none applies)."""

    name = "label_set"
    has_label_set = True
    min_labels = 2

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or any(v not in labels for v in value) or len(set(value)) != len(value):
            raise self._bad(f"{value!r} is not a set of labels", "distinct labels from the label set", where, path)
        return list(value)

    def rename(self, value: Any, mapping: Mapping[str, str]) -> Any:
        return [mapping.get(v, v) for v in value] if value is not None else None

    def count_keys(self, value: Any) -> list[str]:
        return [] if value is None else list(value)

    def column_counts(self, col: pa.ChunkedArray | pa.Array) -> Counter:
        flat = pc.list_flatten(col) if len(col) else pa.array([], pa.string())
        return Counter({v["values"]: v["counts"] for v in pc.value_counts(flat).to_pylist()})

    def labels_in(self, col: pa.ChunkedArray | pa.Array) -> list[str]:
        flat = pc.list_flatten(col) if len(col) else pa.array([], pa.string())
        return [v for v in pc.unique(flat).to_pylist() if v is not None]

    def short_text(self, value: Any) -> str:
        return "—" if value is None else ", ".join(value) or "∅"


SPEC = KindSpec(
    KIND, ("text", "labels"),
    datasets.Features({"text": datasets.Value("string"), "labels": datasets.Sequence(datasets.Value("string"))}),
    "labels", LabelSetGold(), inputs=("text",), text_columns=("text",), view_columns=("text", "labels"),
    headline=("text",), save_format="jsonl",
)


class MultiLabelTask(SequenceClassificationTask):
    """Sigmoid per label on [CLS] (transformers' problem_type="multi_label_classification")."""

    prediction_columns = ("confidence",)
    metric_names = ("micro_f1",)

    def __init__(self) -> None:
        self.kind, self.spec = KIND, SPEC
        self.regression, self.has_pair = False, False

    def config_kwargs(self, labels: Sequence[str]) -> dict[str, Any]:
        labels = check_labels(labels, self.kind, 2)
        return {"num_labels": len(labels), "problem_type": "multi_label_classification",
                "id2label": dict(enumerate(labels)), "label2id": {n: i for i, n in enumerate(labels)}}

    def encode(self, examples: Any, tokenizer: Any, *, max_length: int, label2id: Mapping[str, int],
               doc_stride: int = 128, training: bool = True) -> datasets.Dataset:
        ds, with_targets = encoding_rows(examples, training)

        def tokenize(batch: dict[str, list]) -> dict[str, list]:
            enc = encode_texts(tokenizer, batch["text"], None, max_length)
            enc["length"] = [len(x) for x in enc["input_ids"]]
            enc["example_index"] = batch["example_index"]
            if with_targets:
                enc["labels"] = [[float(n in names) for n in label2id] for names in batch["labels"]]
            return enc

        return map_batched(ds, tokenize, self.kind)

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int) -> dict[str, Any]:
        import torch

        rows = [{k: v for k, v in f.items() if k != "labels"} for f in features]
        batch = pad_batch(rows, pad_token_id)
        if "labels" in features[0]:
            batch["labels"] = torch.tensor([f["labels"] for f in features], dtype=torch.float32)
        return batch

    def accumulator(self, examples: Any, encoded: Any, labels: list[str], **options: Any) -> "_Accumulator":
        return _Accumulator(len(examples), labels)

    def metrics(self, examples: Any, predictions: list[dict[str, Any]], **options: Any) -> dict[str, float]:
        from sklearn.metrics import f1_score

        gold = column(examples.dataset, "labels")
        keep = [i for i, g in enumerate(gold) if g is not None]
        names = examples.labels
        y = np.array([[n in gold[i] for n in names] for i in keep])
        p = np.array([[n in predictions[i]["labels"] for n in names] for i in keep])
        return {"micro_f1": float(f1_score(y, p, average="micro", zero_division=0))} if keep else {}

    def predicted_value(self, prediction: Mapping[str, Any]) -> Any:
        return prediction.get("labels")

    def is_error(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        return gold is not None and set(prediction.get("labels") or ()) != set(gold)

    def confidence(self, prediction: Mapping[str, Any]) -> float | None:
        return prediction.get("confidence")


class _Accumulator:
    def __init__(self, n: int, labels: list[str]) -> None:
        self.labels, self.probs = labels, np.zeros((n, len(labels)))

    def add(self, batch: Mapping[str, Any], outputs: Any) -> None:
        probs = outputs.logits.detach().float().sigmoid().cpu().numpy()
        self.probs[batch["example_index"].cpu().numpy()] = probs

    def finish(self) -> list[dict[str, Any]]:
        return [{"labels": [n for n, p in zip(self.labels, row) if p > 0.5],
                 "confidence": float(np.abs(row - 0.5).min() * 2)} for row in self.probs]


def register() -> MultiLabelTask:
    """The one registry line a new kind needs."""
    from bertstudio.tasks import register_task

    return register_task(MultiLabelTask())
