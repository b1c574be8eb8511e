"""Rows of an incoming file that repeat examples a project already holds.

Adding a file to a split whose rows it partly repeats gave the same sentence twice, once
with the person's label and once with the file's (a drive imported 25 rows of which 10 were
already there, 5 labelled the other way): both were counted, trained on and exported, and
nothing said so. The import asks first (``ui/import_dialog``); this finds them.

Two examples are the same when every input column is equal (the text; both texts of a
pair; the words of a sentence to tag; question and context of a QA row), exactly as
stored: no case folding or trimming, so only true repeats are offered for skipping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data.examples import ExampleSet

_SEP = "\x1f"  # unit separator: no text field a reader accepts ends in it by chance


@dataclass(frozen=True)
class Repeats:
    """``rows``: positions in the incoming set whose example is already there; ``relabelled``: how
    many of them carry a gold value other than the one the project's copy has (both labelled)."""

    rows: np.ndarray
    relabelled: int

    def __len__(self) -> int:
        return int(len(self.rows))


def _keys(examples: ExampleSet) -> pa.Array:
    """One string per row: its input columns joined (a list column's items joined first)."""
    table = examples.dataset.with_format("arrow")[:]
    spec = examples.spec
    parts = []
    for column in (*spec.inputs, *spec.optional_inputs):
        if column not in table.column_names:
            continue
        arr = table.column(column)
        if pa.types.is_list(arr.type):
            arr = pc.binary_join(arr, _SEP)
        parts.append(pc.fill_null(arr, ""))
    key = parts[0] if len(parts) == 1 else pc.binary_join_element_wise(*parts, _SEP * 2)
    return key.combine_chunks() if isinstance(key, pa.ChunkedArray) else key


def find_repeats(existing: ExampleSet, incoming: ExampleSet, label_map: Mapping[str, str | None] | None = None
                 ) -> Repeats:
    """The rows of ``incoming`` whose example ``existing`` (a split as the project holds it now)
    already has; ``label_map``: what the import turns the file's label values into."""
    if len(existing.dataset) == 0 or len(incoming.dataset) == 0:
        return Repeats(np.zeros(0, dtype=np.int64), 0)
    theirs, ours = _keys(incoming), _keys(existing)
    found = pc.is_in(theirs, value_set=ours)
    rows = np.flatnonzero(pc.fill_null(found, False).to_numpy(zero_copy_only=False))
    if not len(rows):
        return Repeats(rows, 0)
    gold = existing.spec.gold_column
    where = pc.index_in(pc.take(theirs, pa.array(rows)), value_set=ours).to_numpy(zero_copy_only=False)
    held = existing.dataset.select(where.tolist())[gold]
    given = incoming.dataset.select(rows.tolist())[gold]
    relabelled = 0
    for old, new in zip(held, given):
        if label_map and isinstance(new, str):
            new = label_map.get(new, new)
        elif label_map and isinstance(new, list):
            new = [label_map.get(t, t) for t in new]
        if old is not None and new is not None and old != new:
            relabelled += 1
    return Repeats(rows, relabelled)


def without(incoming: ExampleSet, rows: np.ndarray) -> ExampleSet:
    """``incoming`` less ``rows`` (positions), in order."""
    keep = np.setdiff1d(np.arange(len(incoming.dataset)), rows, assume_unique=True)
    return incoming.select(keep.tolist())
