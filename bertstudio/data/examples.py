"""Examples of the five task kinds, held in an Arrow-backed ``datasets.Dataset``.

One :class:`ExampleSet` is one split of one task. Its dataset has the columns
of its kind (see :data:`COLUMNS`); a missing gold value (an unlabelled row)
is ``None``. Label names are kept in order in ``labels``; that order defines
the label ids used by the model and is saved with it.

Columns per kind:

===========  ==================================================================
sentence     ``text: str``, ``label: str | None``
pair         ``text: str``, ``text_pair: str``, ``label: str | None``
regression   ``text: str``, ``text_pair: str`` (may be ""), ``label: float | None``
tagging      ``tokens: list[str]``, ``tags: list[str] | None`` (BIO or plain tags, one per token)
qa           ``id: str``, ``title: str``, ``context: str``, ``question: str``,
             ``answers: {"text": list[str], "answer_start": list[int]} | None``
             (``None`` = not yet labelled; empty lists = no answer, SQuAD v2)
===========  ==================================================================
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from datasets.table import InMemoryTable

TaskKind = Literal["sentence", "pair", "regression", "tagging", "qa"]
KINDS: tuple[str, ...] = ("sentence", "pair", "regression", "tagging", "qa")

COLUMNS: dict[str, tuple[str, ...]] = {
    "sentence": ("text", "label"),
    "pair": ("text", "text_pair", "label"),
    "regression": ("text", "text_pair", "label"),
    "tagging": ("tokens", "tags"),
    "qa": ("id", "title", "context", "question", "answers"),
}

# The column that holds the gold value of each kind (None for unlabelled rows).
GOLD_COLUMN: dict[str, str] = {
    "sentence": "label",
    "pair": "label",
    "regression": "label",
    "tagging": "tags",
    "qa": "answers",
}

_ANSWERS = datasets.Features(
    {"text": datasets.Sequence(datasets.Value("string")), "answer_start": datasets.Sequence(datasets.Value("int32"))}
)

FEATURES: dict[str, datasets.Features] = {
    "sentence": datasets.Features({"text": datasets.Value("string"), "label": datasets.Value("string")}),
    "pair": datasets.Features(
        {"text": datasets.Value("string"), "text_pair": datasets.Value("string"), "label": datasets.Value("string")}
    ),
    "regression": datasets.Features(
        {"text": datasets.Value("string"), "text_pair": datasets.Value("string"), "label": datasets.Value("float64")}
    ),
    "tagging": datasets.Features(
        {"tokens": datasets.Sequence(datasets.Value("string")), "tags": datasets.Sequence(datasets.Value("string"))}
    ),
    "qa": datasets.Features(
        {
            "id": datasets.Value("string"),
            "title": datasets.Value("string"),
            "context": datasets.Value("string"),
            "question": datasets.Value("string"),
            "answers": {
                "text": datasets.Sequence(datasets.Value("string")),
                "answer_start": datasets.Sequence(datasets.Value("int32")),
            },
        }
    ),
}


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        from bertstudio.errors import ConfigError

        raise ConfigError(f"unknown task kind {kind!r}", expected=" | ".join(KINDS))
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
        check_kind(self.kind)
        missing = [c for c in COLUMNS[self.kind] if c not in self.dataset.column_names]
        if missing:
            raise ValueError(f"{self.kind} dataset lacks columns {missing}; has {self.dataset.column_names}")

    def __len__(self) -> int:
        return len(self.dataset)

    @property
    def gold_column(self) -> str:
        return GOLD_COLUMN[self.kind]

    def is_labelled(self) -> bool:
        """True when every row has a gold value."""
        return self.dataset.with_format("arrow")[self.gold_column].null_count == 0

    def labelled(self) -> "ExampleSet":
        """The rows that carry a gold value (what training and evaluation use)."""
        gold = self.dataset.with_format("arrow")[self.gold_column]
        keep = np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False))
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
    check_kind(kind)
    cols = COLUMNS[kind]
    rows = {c: [] for c in cols}
    for rec in records:
        for c in cols:
            rows[c].append(rec.get(c, "" if c in ("title", "text_pair") else None))
    # A fresh fingerprint: datasets would otherwise hash the whole table (slow, a full copy).
    table = pa.Table.from_pydict(rows, schema=FEATURES[kind].arrow_schema)
    ds = datasets.Dataset(InMemoryTable(table), fingerprint=uuid.uuid4().hex)
    if labels is None:
        labels = infer_labels(kind, ds)
    return ExampleSet(kind, ds, list(labels), source, dict(meta or {}))


def infer_labels(kind: str, dataset: datasets.Dataset) -> list[str]:
    """Label names in order of first appearance; [] for regression and QA.

    Works on the Arrow columns (unique() keeps first-appearance order), not row by
    row: a row-wise pass costs seconds on a few hundred thousand rows."""
    if kind in ("sentence", "pair"):
        column = dataset.with_format("arrow")["label"]
        return [v for v in pc.unique(column).to_pylist() if v is not None]
    if kind == "tagging":
        column = dataset.with_format("arrow")["tags"]
        tags = pc.list_flatten(column) if len(column) else pa.array([], pa.string())
        seen = [t for t in pc.unique(tags).to_pylist() if t is not None]
        return ["O"] + [t for t in seen if t != "O"]
    return []
