"""Label values of a file vs the project's label set: find them, propose a mapping, apply it.

A file labelled ``0/1/2`` imported into a project whose labels are
``entailment/neutral/contradiction`` must not grow three new classes: the
values are shown beside the project's labels and mapped, by name where a
value is a label's name, else by position as the GLUE/SNLI files number their
classes (``0`` is the first label). Adding a value as a new class, or leaving
its rows unlabelled, is the caller's explicit choice. ``Project.import_examples``
refuses values outside the label set unless it is given such a choice.

A mapping is a plain dict ``{file value: target}``: a target that is a label
name relabels the rows (or tags), ``None`` leaves those rows unlabelled; values
not in the dict are kept as they are. Applying one works on the Arrow column
(``index_in`` + ``take``), so a few hundred thousand rows map in milliseconds.

Usage::

    values = file_label_values(examples)              # {"0": 3000, "1": 2500, "2": 2700}
    mapping = propose_mapping(list(values), project.labels)   # {"0": "entailment", ...}
    project.import_examples(examples, "train", label_map=mapping)
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import TYPE_CHECKING, Mapping

import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data.kinds import get_spec
from bertstudio.errors import DataError

if TYPE_CHECKING:
    from bertstudio.data.examples import ExampleSet

__all__ = ["LabelMap", "apply_mapping", "file_label_values", "map_table", "propose_mapping", "unknown_labels",
           "values_in"]

LabelMap = Mapping[str, "str | None"]


def _gold(kind: str) -> str:
    return get_spec(kind).gold_column


def _flat(kind: str, column: pa.ChunkedArray | pa.Array) -> pa.Array | pa.ChunkedArray:
    return pc.list_flatten(column) if get_spec(kind).gold.per_token else column


def values_in(kind: str, table: pa.Table) -> dict[str, int]:
    """Label values used in ``table`` with how often (rows, or tokens for tagging), in order of first use."""
    if not get_spec(kind).has_label_set or table.num_rows == 0:
        return {}
    column = _flat(kind, table.column(_gold(kind)))
    counts = {item["values"]: item["counts"] for item in pc.value_counts(column).to_pylist()
              if item["values"] is not None}
    return {v: counts[v] for v in pc.unique(column).to_pylist() if v is not None}


def file_label_values(examples: "ExampleSet") -> dict[str, int]:
    """The label values the rows of ``examples`` use, with their counts (``{}`` for regression and QA)."""
    from bertstudio.data.project_store import table_of

    return values_in(examples.kind, table_of(examples))


def unknown_labels(kind: str, table: pa.Table, labels: list[str]) -> list[str]:
    """Values used in ``table`` that are not in ``labels``, in order of first use."""
    known = set(labels)
    return [v for v in values_in(kind, table) if v not in known]


WHOLE_NUMBER = re.compile(r"[+-]?\d+")
DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))  # zero-width characters


def decimal_labels(values: list[str]) -> list[str]:
    """The values that are numbers with decimals (0.07, 3.5), when every value is a number and some
    have decimals: scores to predict, which as labels would make one class per value ([] otherwise).
    1.0 and 0.0 are whole numbers (a 0/1 column with gaps, written by pandas): classes, not scores.
    The one rule for training (train/sources.py) and for a project's import of new labels."""
    whole = [v for v in values if WHOLE_NUMBER.fullmatch(v.strip())
             or (DECIMAL.fullmatch(v.strip()) and float(v).is_integer())]
    decimals = [v for v in values if DECIMAL.fullmatch(v.strip()) and v not in whole]
    return decimals if decimals and len(whole) + len(decimals) == len(values) else []


def spelling(value: str) -> str:
    """What a label reads as, so that look-alikes meet: NFKC form, case folded, spaces collapsed,
    invisible characters dropped; a number as its value ("#1.0" for "1", "01", "1.0" and "+1")."""
    text = " ".join(unicodedata.normalize("NFKC", value).translate(_INVISIBLE).split()).casefold()
    if WHOLE_NUMBER.fullmatch(text) or DECIMAL.fullmatch(text):
        try:
            return f"#{float(text) + 0.0!r}"  # + 0.0: -0 is 0
        except (ValueError, OverflowError):
            return text
    return text


def _norm(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").split()).casefold()


def propose_mapping(values: list[str], labels: list[str]) -> dict[str, str | None]:
    """A target label for each file value, or None where nothing fits (the user must choose).

    By name first (exactly, then ignoring case, ``_``/``-`` and spaces), then by
    position: a value that is a whole number ``i`` with ``0 <= i < len(labels)``
    maps to ``labels[i]`` (the numbering of the GLUE and SNLI files), unless a
    value already took that label by name.
    """
    out: dict[str, str | None] = {}
    by_norm = {_norm(label): label for label in labels}
    for value in values:
        out[value] = value if value in labels else by_norm.get(_norm(value))
    taken = {t for t in out.values() if t is not None}
    for value in values:
        if out[value] is not None:
            continue
        text = value.strip()
        if text.isdigit() and int(text) < len(labels) and labels[int(text)] not in taken:
            out[value] = labels[int(text)]
            taken.add(labels[int(text)])
    return out


def _check_mapping(kind: str, mapping: LabelMap) -> None:
    for value, target in mapping.items():
        if not isinstance(value, str) or (target is not None and (not isinstance(target, str) or not target.strip())):
            raise DataError(f"label mapping {value!r} -> {target!r} is not a mapping of names",
                            where="label mapping", expected="file value -> label name (or None: unlabelled)")
        if target is None and get_spec(kind).gold.per_token:
            raise DataError(f"tag {value!r} cannot be left out: every token of a tagged row needs a tag",
                            where="label mapping", expected="a tag of the project (or a new one) for each tag")


def map_table(kind: str, table: pa.Table, mapping: LabelMap) -> pa.Table:
    """``table`` with its gold values mapped (values not in ``mapping`` unchanged; None -> unlabelled)."""
    if not mapping or not get_spec(kind).has_label_set or table.num_rows == 0:
        return table
    _check_mapping(kind, mapping)
    gold = _gold(kind)
    column = table.column(gold).combine_chunks()
    keys = pa.array(list(mapping), pa.string())
    targets = pa.array(list(mapping.values()), pa.string())
    flat = _flat(kind, column)
    index = pc.index_in(flat, value_set=keys)
    mapped = pc.if_else(pc.is_null(index), flat, pc.take(targets, index))
    if get_spec(kind).gold.per_token:
        # same offsets and row validity as before: only the tags inside the lists change
        offsets = pc.subtract(column.offsets, column.offsets[0])  # list_flatten starts at the slice
        mapped = pa.ListArray.from_arrays(offsets, mapped, mask=column.is_null())
    field = table.schema.field(gold)
    return table.set_column(table.column_names.index(gold), field, mapped.cast(field.type))


def mapped_label_order(labels: list[str], mapping: LabelMap) -> list[str]:
    """A file's declared label order after ``mapping`` (dropped and repeated names removed)."""
    out = [mapping[name] if name in mapping else name for name in labels]
    return [n for n in dict.fromkeys(out) if n is not None]


def apply_mapping(examples: "ExampleSet", mapping: LabelMap) -> "ExampleSet":
    """``examples`` with ``mapping`` applied to its gold values and its label list (a new ExampleSet)."""
    import uuid

    import datasets
    from datasets.table import InMemoryTable

    from bertstudio.data.project_store import table_of

    table = map_table(examples.kind, table_of(examples), mapping)
    dataset = datasets.Dataset(InMemoryTable(table), fingerprint=uuid.uuid4().hex)
    out = examples.with_dataset(dataset)
    out.labels = mapped_label_order(list(examples.labels), mapping)
    return out


def counts_after(values: Mapping[str, int], mapping: LabelMap) -> Counter:
    """How many rows (tokens) each target receives, for the dialog's summary."""
    out: Counter = Counter()
    for value, n in values.items():
        target = mapping[value] if value in mapping else value
        out[target] += n
    return out
