"""Rows of an incoming file that repeat examples a project already holds.

Adding a file to a split whose rows it partly repeats gave the same sentence twice, once
with the person's label and once with the file's (a drive imported 25 rows of which 10 were
already there, 5 labelled the other way): both were counted, trained on and exported, and
nothing said so. The import asks first (``ui/import_dialog``); this finds them.

Two examples are the same when every input column is equal (the text; both texts of a
pair; the words of a sentence to tag; question and context of a QA row) as text: no case
folding or trimming, so only true repeats are offered for skipping, but canonically equivalent
forms are one text (NFC 'Café' and its NFD copy from macOS or a scraper look the same, and
an uncased or NFKC-normalising tokenizer gives them the same ids: an evaluation copy in the
other form overstates the score just as much).
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


def _keys(examples: ExampleSet, table: pa.Table) -> pa.Array:
    """One string per row of ``table`` (``examples``' rows): its input columns joined (a list
    column's items joined first), in NFC."""
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
    key = key.combine_chunks() if isinstance(key, pa.ChunkedArray) else key
    if not pc.all(pc.string_is_ascii(key)).as_py():  # ASCII is its own NFC: English data skips the cost
        key = pc.utf8_normalize(key, "NFC")
    return key


def input_keys(examples: ExampleSet) -> pa.Array:
    """One string per row of ``examples``: its inputs joined as :func:`find_repeats` compares them
    (equal strings, the same example), null where every input is missing or empty: a row with no
    text repeats nothing. A run's checks for evaluation rows seen in training and for one input
    labelled two ways (``train/sources.warn_repeats``) use these."""
    table = examples.dataset.with_format("arrow")[:]
    blank = None
    for column in (*examples.spec.inputs, *examples.spec.optional_inputs):
        if column not in table.column_names:
            continue
        arr = table.column(column)
        size = pc.list_value_length(arr) if pa.types.is_list(arr.type) else pc.utf8_length(arr)
        empty = pc.fill_null(pc.equal(size, 0), True)
        blank = empty if blank is None else pc.and_(blank, empty)
    key = _keys(examples, table)
    if blank is None:
        return key
    blank = blank.combine_chunks() if isinstance(blank, pa.ChunkedArray) else blank
    return pc.if_else(blank, pa.scalar(None, key.type), key)


def gold_values(examples: ExampleSet) -> pa.Array:
    """One value per row of ``examples`` that equals another row's when their gold values are the
    same (labels, scores, tag lists joined, QA answers as JSON), as :func:`find_repeats` compares them."""
    return _comparable(examples.dataset.with_format("arrow")[examples.spec.gold_column], None)


def find_repeats(existing: ExampleSet, incoming: ExampleSet, label_map: Mapping[str, str | None] | None = None
                 ) -> Repeats:
    """The rows of ``incoming`` whose example ``existing`` (a split as the project holds it now)
    already has; ``label_map``: what the import turns the file's label values into. Arrow all
    the way (it runs on the GUI thread before an import: 550,000 repeated rows take about a
    second, where going through ``datasets``' row formatter took eight)."""
    if len(existing.dataset) == 0 or len(incoming.dataset) == 0:
        return Repeats(np.zeros(0, dtype=np.int64), 0)
    held_table = existing.dataset.with_format("arrow")[:]
    new_table = incoming.dataset.with_format("arrow")[:]
    theirs, ours = _keys(incoming, new_table), _keys(existing, held_table)
    found = pc.fill_null(pc.is_in(theirs, value_set=ours), False)
    rows = np.flatnonzero(found.to_numpy(zero_copy_only=False))
    if not len(rows):
        return Repeats(rows, 0)
    gold = existing.spec.gold_column
    where = pc.index_in(pc.take(theirs, pa.array(rows)), value_set=ours)
    held = _comparable(pc.take(held_table.column(gold), where), None)
    given = _comparable(pc.take(new_table.column(gold), pa.array(rows)), label_map)
    both = pc.and_(pc.is_valid(held), pc.is_valid(given))
    differ = pc.and_(both, pc.fill_null(pc.not_equal(held, given), False))
    return Repeats(rows, int(pc.sum(differ).as_py() or 0))


def _comparable(gold: pa.Array | pa.ChunkedArray, label_map: Mapping[str, str | None] | None) -> pa.Array:
    """A gold column as values ``not_equal`` compares: labels (mapped as the import maps them),
    scores, tag lists joined, QA answers as their JSON text."""
    gold = gold.combine_chunks() if isinstance(gold, pa.ChunkedArray) else gold
    if pa.types.is_list(gold.type) or pa.types.is_large_list(gold.type):  # tags
        if label_map:
            flat = _mapped(pc.list_flatten(gold), label_map)
            gold = pa.ListArray.from_arrays(gold.offsets, flat, mask=pc.is_null(gold))
        return pc.binary_join(gold, _SEP)
    if pa.types.is_struct(gold.type):  # QA answers: few rows; their text and starts, as JSON
        import json

        return pa.array([None if v is None else json.dumps(v, sort_keys=True) for v in gold.to_pylist()], pa.string())
    if label_map and (pa.types.is_string(gold.type) or pa.types.is_large_string(gold.type)):
        return _mapped(gold, label_map)
    return gold


def _mapped(values: pa.Array, label_map: Mapping[str, str | None]) -> pa.Array:
    keys = pa.array(list(label_map), pa.string())
    targets = pa.array(list(label_map.values()), pa.string())
    pos = pc.index_in(values, value_set=keys)
    return pc.if_else(pc.is_valid(pos), pc.take(targets, pc.fill_null(pos, 0)), values)


def without(incoming: ExampleSet, rows: np.ndarray) -> ExampleSet:
    """``incoming`` less ``rows`` (positions), in order (an indices mapping, named without hashing
    every kept position: ``datasets`` fingerprints a plain list of them, seconds for 550,000)."""
    import uuid

    keep = np.setdiff1d(np.arange(len(incoming.dataset)), rows, assume_unique=True)
    return incoming.with_dataset(incoming.dataset.select(keep, new_fingerprint=uuid.uuid4().hex))
