"""Small helpers every task module uses when encoding."""

from __future__ import annotations

from typing import Mapping, Sequence

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
    ds = ds.add_column("example_index", rows)
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
