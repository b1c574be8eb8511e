"""Examples, readers and writers per format, validation and project storage (no Qt here)."""

from __future__ import annotations

from bertstudio.data.examples import COLUMNS, FEATURES, KINDS, ExampleSet, from_records, infer_labels

__all__ = ["COLUMNS", "FEATURES", "KINDS", "ExampleSet", "from_records", "infer_labels"]

# Readers and writers (imported after examples, which they build on).
from bertstudio.data.glue import GLUE_TASKS, PRESETS, load_glue  # noqa: E402
from bertstudio.data.io import Preview, detect_format, load_examples, preview, save_examples  # noqa: E402

__all__ += ["GLUE_TASKS", "PRESETS", "load_glue", "Preview", "detect_format", "load_examples", "preview", "save_examples"]
