"""Small helpers every task module uses when encoding."""

from __future__ import annotations

import uuid
from typing import Any, Mapping, Sequence

import datasets
import numpy as np
import pyarrow.compute as pc

from bertstudio.data.examples import ExampleSet
from bertstudio.errors import DataError


def encoding_rows(examples: ExampleSet, training: bool) -> tuple[datasets.Dataset, bool]:
    """The rows to encode with an ``example_index`` column, and whether targets are encoded.

    Training keeps only labelled rows (an unlabelled row cannot teach anything).
    Evaluation keeps every row, so predictions line up with the examples; targets are
    encoded only when every row has gold (a column cannot be half missing).
    """
    ds, rows = examples.dataset, list(range(len(examples)))
    gold = ds.with_format("arrow")[examples.gold_column]
    if training and gold.null_count:
        rows = np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False)).tolist()
        ds = ds.select(rows)
    ds = ds.add_column("example_index", rows, new_fingerprint=f"bertstudio-index-{uuid.uuid4().hex}")  # no hashing rows
    with_targets = len(rows) > 0 and (training or gold.null_count == 0)
    return ds, with_targets


def label_id(name: str, label2id: Mapping[str, int], examples: ExampleSet, row: int, what: str = "label") -> int:
    try:
        return label2id[name]
    except KeyError:
        raise DataError(
            f"{what} {name!r} is not one of the model's labels",
            path=examples.source,
            where=f"row {row + 1}",
            expected=", ".join(label2id),
        ) from None


def label_ids(names: Sequence[str], label2id: Mapping[str, int], examples: ExampleSet, rows: Sequence[int]) -> list[int]:
    return [label_id(name, label2id, examples, row) for row, name in zip(rows, names)]


def column(dataset: datasets.Dataset, name: str) -> list:
    """A whole column as a Python list, through Arrow: ``dataset[name]`` in datasets 5 is a
    lazy Column whose item access costs ~0.3 ms, too slow to index row by row."""
    return dataset.with_format("arrow")[name].to_pylist()


def map_batched(dataset: datasets.Dataset, fn: Any, kind: str) -> datasets.Dataset:
    """``dataset.map(fn, batched=True)`` replacing every column, kept in memory.

    A fresh fingerprint is given because otherwise datasets pickles the closure (and with
    it the whole tokenizer vocabulary) to hash it: a third of the time on SST-2. In memory,
    because an encoding is rebuilt per run and cache files would pile up beside the data.
    """
    return dataset.map(
        fn,
        batched=True,
        remove_columns=dataset.column_names,
        keep_in_memory=True,
        new_fingerprint=f"bertstudio-{kind}-{uuid.uuid4().hex}",
        desc=f"Tokenising ({kind})",
    )


def check_labels(labels: Sequence[str], kind: str, minimum: int) -> list[str]:
    """Label names in id order: distinct, and enough of them for the head to mean anything."""
    from bertstudio.errors import ConfigError

    labels = [str(x) for x in labels]
    if len(set(labels)) != len(labels):
        dup = sorted({x for x in labels if labels.count(x) > 1})
        raise ConfigError(f"label names repeat: {dup}", where="labels", expected="distinct names")
    if len(labels) < minimum:
        raise ConfigError(f"{kind} needs at least {minimum} labels, got {labels}", where="labels", expected="labels from the training data or the settings")
    return labels
