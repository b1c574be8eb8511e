"""The edits of a project that are not yet folded into its data files, and the counts they change.

The Arrow data files are written once per import or compaction; between two
compactions every gold edit lives in a per-split overlay ``{row: value}`` (and
in the journal on disk), and label renames live in one ``rename`` map applied
to the values read from the files. Reads go through :class:`GoldOverlay`, so
they always see the edits.

Label counts and the labelled-row count are kept as *deltas* against the data
file's counts (computed once per file with Arrow's ``value_counts``): one edit
costs O(1), and ``label_counts`` / ``progress`` stay O(labels) however long the
session and however big the split.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa

from bertstudio.data.kinds import get_spec
from bertstudio.data.project_labels import compose_rename


class GoldOverlay:
    """Pending gold edits per split, pending label renames, and the count deltas they cause."""

    def __init__(self, kind: str, splits: tuple[str, ...]) -> None:
        self.kind = kind
        self.spec = get_spec(kind)
        self.gold = self.spec.gold_column
        self.edits: dict[str, dict[int, Any]] = {s: {} for s in splits}
        self._delta: dict[str, Counter] = {s: Counter() for s in splits}  # label counts: overlay minus base
        self._labelled_delta: dict[str, int] = {s: 0 for s in splits}
        self.rename: dict[str, str] = {}  # label in the data files -> current name, until compaction
        self._base: dict[str, tuple[Counter, int]] = {}  # per split: counts of the data file (it never changes)

    # -- reading ---------------------------------------------------------------------------------
    def base_value(self, table: pa.Table, row: int) -> Any:
        value = table.column(self.gold)[row].as_py()
        return self.spec.gold.rename(value, self.rename) if self.rename else value

    def current(self, split: str, table: pa.Table, row: int) -> Any:
        edits = self.edits[split]
        return edits[row] if row in edits else self.base_value(table, row)

    def dirty(self, split: str) -> bool:
        """True when the split's data file no longer holds what reads show."""
        return bool(self.edits[split] or self.rename)

    def column(self, split: str, table: pa.Table) -> pa.Array:
        """The split's whole gold column with renames and edits applied."""
        column = table.column(self.gold)
        values = column.to_pylist()
        if self.rename:
            values = [self.spec.gold.rename(v, self.rename) for v in values]
        for row, value in self.edits[split].items():
            values[row] = value
        return pa.array(values, type=column.type)

    def label_counts(self, split: str, table: pa.Table, labels: list[str]) -> dict[str, int]:
        base, _ = self._base_stats(split, table)
        counts: Counter = Counter()
        for raw, n in base.items():
            counts[self.rename.get(raw, raw)] += n
        counts.update(self._delta[split])
        if not self.spec.has_label_set:
            return {k: counts[k] for k in self.spec.gold.fixed_keys}
        out = {name: counts.get(name, 0) for name in labels}
        out.update({k: v for k, v in counts.items() if k not in out and v})
        return out

    def labelled(self, split: str, table: pa.Table) -> int:
        _, labelled = self._base_stats(split, table)
        return labelled + self._labelled_delta[split]

    def _base_stats(self, split: str, table: pa.Table) -> tuple[Counter, int]:
        """Counts of the raw values in the data file and its labelled rows, computed in Arrow once."""
        if split not in self._base:
            column = table.column(self.gold)
            self._base[split] = (self.spec.gold.column_counts(column), len(column) - column.null_count)
        return self._base[split]

    # -- changing --------------------------------------------------------------------------------
    def set(self, split: str, table: pa.Table, row: int, value: Any) -> None:
        previous = self.current(split, table, row)
        self._delta[split].subtract(self.spec.gold.count_keys(previous))
        self._delta[split].update(self.spec.gold.count_keys(value))
        self._labelled_delta[split] += (value is not None) - (previous is not None)
        self.edits[split][row] = value

    def rename_label(self, old: str, new: str) -> None:
        if not self.spec.has_label_set:
            return
        # compose with earlier renames: data-file values that currently read `old` now read `new`
        self.rename = compose_rename(self.rename, old, new)
        for delta in self._delta.values():
            if old in delta:
                delta[new] += delta.pop(old)
        single = {old: new}
        for edits in self.edits.values():
            for row, value in edits.items():
                edits[row] = self.spec.gold.rename(value, single)

    def reset(self, split: str) -> None:
        """The split got a new data file (folded or imported): its edits and counts start afresh."""
        self.edits[split] = {}
        self._delta[split] = Counter()
        self._labelled_delta[split] = 0
        self._base.pop(split, None)
