"""Examples, readers and writers per format, validation and project storage (no Qt here)."""

from __future__ import annotations

from bertstudio.data.examples import COLUMNS, FEATURES, KINDS, ExampleSet, from_records, infer_labels

__all__ = ["COLUMNS", "FEATURES", "KINDS", "ExampleSet", "from_records", "infer_labels"]
