"""Examples of any task kind, held in an Arrow-backed ``datasets.Dataset``.

One :class:`ExampleSet` is one split of one task. Its dataset has the columns
of its kind (``spec.columns``, see :mod:`bertstudio.data.kinds`); a missing gold
value (an unlabelled row) is ``None``. Label names are kept in order in
``labels``; that order defines the label ids used by the model and is saved with it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from datasets.table import InMemoryTable

from bertstudio.data.kinds import KindSpec, _SpecView, get_spec, kind_names

# Per-kind facts live in bertstudio.data.kinds; these read-only views keep the older
# ``COLUMNS[kind]`` spelling working and follow kinds registered later.
COLUMNS: Mapping[str, tuple[str, ...]] = _SpecView("columns")
GOLD_COLUMN: Mapping[str, str] = _SpecView("gold_column")
FEATURES: Mapping[str, datasets.Features] = _SpecView("features")


def __getattr__(name: str) -> Any:
    if name == "KINDS":  # the registered kinds, at the time of asking
        return kind_names()
    raise AttributeError(name)


def check_kind(kind: str) -> str:
    get_spec(kind)
    return kind


@dataclass
class ExampleSet:
    """One split of one task: its kind, its rows (Arrow-backed) and its label names."""

    kind: str
    dataset: datasets.Dataset
    labels: list[str] = field(default_factory=list)
    source: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [c for c in get_spec(self.kind).columns if c not in self.dataset.column_names]
        if missing:
            raise ValueError(f"{self.kind} dataset lacks columns {missing}; has {self.dataset.column_names}")

    def __len__(self) -> int:
        return len(self.dataset)

    @property
    def spec(self) -> KindSpec:
        return get_spec(self.kind)

    @property
    def gold_column(self) -> str:
        return self.spec.gold_column

    def is_labelled(self) -> bool:
        """True when every row has a gold value."""
        return self.dataset.with_format("arrow")[self.gold_column].null_count == 0

    def gold_values(self) -> list[Any]:
        """Every row's gold value (None: unlabelled), read as one column."""
        return self.dataset.with_format("arrow")[self.gold_column].to_pylist()

    def labelled_rows(self) -> np.ndarray:
        """Row numbers of the rows that carry a gold value."""
        gold = self.dataset.with_format("arrow")[self.gold_column]
        return np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False))

    def unlabelled_rows(self) -> np.ndarray:
        """Row numbers of the rows without a gold value."""
        gold = self.dataset.with_format("arrow")[self.gold_column]
        return np.flatnonzero(pc.is_null(gold).to_numpy(zero_copy_only=False))

    def labelled(self) -> "ExampleSet":
        """The rows that carry a gold value (what training and evaluation use)."""
        keep = self.labelled_rows()
        if len(keep) == len(self.dataset):
            return self
        return self.with_dataset(self.dataset.select(keep))

    def with_dataset(self, dataset: datasets.Dataset) -> "ExampleSet":
        return ExampleSet(self.kind, dataset, list(self.labels), self.source, dict(self.meta))

    def select(self, indices: Iterable[int]) -> "ExampleSet":
        return self.with_dataset(self.dataset.select(list(indices)))

    def head(self, n: int | None, seed: int | None = None) -> "ExampleSet":
        """The first ``n`` rows, or ``n`` rows drawn with ``seed`` when a seed is given."""
        if n is None or n >= len(self.dataset):
            return self
        # In memory: on a disk-backed (project) dataset, shuffle and flatten_indices would
        # otherwise write cache-*.arrow files beside the user's data.
        if seed is not None:
            order = np.random.default_rng(seed).permutation(len(self.dataset))[:n]
            ds = self.dataset.select(order)
        else:
            ds = self.dataset.select(range(n))
        return self.with_dataset(ds.flatten_indices(keep_in_memory=True))


def from_records(
    kind: str,
    records: Iterable[Mapping[str, Any]],
    labels: list[str] | None = None,
    source: str | None = None,
    meta: dict[str, Any] | None = None,
) -> ExampleSet:
    """Build an :class:`ExampleSet` from plain dicts with the columns of ``kind``.

    When ``labels`` is None the label set is inferred from the data in order of
    first appearance (for tagging: every tag seen, "O" first).
    """
    spec = get_spec(kind)
    rows: dict[str, list[Any]] = {c: [] for c in spec.columns}
    for rec in records:
        for c, value in spec.record(rec).items():
            rows[c].append(value)
    # A fresh fingerprint: datasets would otherwise hash the whole table (slow, a full copy).
    table = pa.Table.from_pydict(rows, schema=spec.arrow_schema)
    ds = datasets.Dataset(InMemoryTable(table), fingerprint=uuid.uuid4().hex)
    if labels is None:
        labels = infer_labels(kind, ds)
    return ExampleSet(kind, ds, list(labels), source, dict(meta or {}))


def infer_labels(kind: str, dataset: datasets.Dataset) -> list[str]:
    """Label names in order of first appearance; [] for kinds without a label set.

    Works on the Arrow columns (unique() keeps first-appearance order), not row by
    row: a row-wise pass costs seconds on a few hundred thousand rows. Per-token
    label sets (tagging) put "O" first."""
    spec = get_spec(kind)
    names = spec.gold.labels_in(dataset.with_format("arrow")[spec.gold_column])
    if spec.gold.per_token:
        return ["O"] + [t for t in names if t != "O"]
    return names
