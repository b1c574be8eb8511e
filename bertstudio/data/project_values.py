"""Gold values per task kind: checking an edit, renaming labels inside a value, counting it.

The per-kind rules of the project's storage live here, in one small place, so
that they are easy to move onto the task-kind specs (``data/kinds.py``) when those
arrive; the Project itself asks these helpers instead of testing ``kind``.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.errors import DataError


# the kinds whose gold values are names from the project's label set (tags for tagging)
_LABEL_SET_KINDS = ("sentence", "pair", "tagging")


def has_label_set(kind: str) -> bool:
    """True when gold values of ``kind`` are label names (a label set to keep, map and rename)."""
    return kind in _LABEL_SET_KINDS


def holds_list(kind: str) -> bool:
    """True when one gold value of ``kind`` is a list of label names (one per token)."""
    return kind == "tagging"


def count_keys(kind: str, value: Any) -> list[str]:
    """What one gold value adds to the label counts: its label, its tags, or answer / no_answer."""
    if value is None:
        return []
    if kind in ("sentence", "pair"):
        return [value]
    if kind == "tagging":
        return list(value)
    if kind == "qa":
        return ["answer" if value["text"] else "no_answer"]
    return []


def fixed_count_keys(kind: str) -> tuple[str, ...]:
    """The count keys of a kind without a label set (QA: answered or not; regression: none)."""
    return ("answer", "no_answer") if kind == "qa" else ()


def column_counts(kind: str, column: pa.ChunkedArray) -> Counter:
    """:func:`count_keys` summed over a whole gold column, in Arrow (a data file's counts, computed once)."""
    counts: Counter = Counter()
    if len(column) == 0:
        return counts
    if has_label_set(kind):
        flat = pc.list_flatten(column) if holds_list(kind) else column
        for item in pc.value_counts(flat).to_pylist():
            if item["values"] is not None:
                counts[item["values"]] = item["counts"]
    elif kind == "qa":
        valid = pc.drop_null(column)
        lengths = pc.list_value_length(pc.struct_field(valid, "text")).to_numpy(zero_copy_only=False)
        counts["answer"] = int((lengths > 0).sum())
        counts["no_answer"] = int((lengths == 0).sum())
    return counts


def rename_value(kind: str, value: Any, mapping: dict[str, str]) -> Any:
    """``value`` with label names replaced by ``mapping`` (for the kinds that have label names)."""
    if value is None or not mapping:
        return value
    if kind in ("sentence", "pair"):
        return mapping.get(value, value)
    if kind == "tagging":
        return [mapping.get(tag, tag) for tag in value]
    return value


def check_gold(kind: str, value: Any, labels: list[str], row: Callable[[], dict[str, Any]],
               folder: Path, where: str) -> Any:
    """Return ``value`` in its stored form, or raise DataError saying what a value of ``kind`` is."""

    def bad(problem: str, expected: str) -> DataError:
        return DataError(problem, path=folder, where=where, expected=expected)

    if value is None:
        return None
    if kind in ("sentence", "pair"):
        if not isinstance(value, str) or value not in labels:
            raise bad(f"{value!r} is not a label of this project", "one of " + ", ".join(map(repr, labels)))
        return value
    if kind == "regression":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad(f"{value!r} is not a score", "a finite number")
        return float(value)
    if kind == "tagging":
        if not isinstance(value, (list, tuple)) or not all(isinstance(t, str) for t in value):
            raise bad(f"{value!r} is not a list of tags", "one tag name per token")
        unknown = sorted({t for t in value if t not in labels})
        if unknown:
            raise bad(f"unknown tags {unknown}", "tags from the label set " + ", ".join(labels))
        n = len(row()["tokens"] or [])
        if len(value) != n:
            raise bad(f"{len(value)} tags for {n} tokens", "one tag per token")
        return list(value)
    if kind == "qa":
        if not isinstance(value, dict) or set(value) != {"text", "answer_start"}:
            raise bad(f"{value!r} is not a QA answer", "{'text': [...], 'answer_start': [...]} (empty = no answer)")
        if not isinstance(value["text"], (list, tuple)) or not isinstance(value["answer_start"], (list, tuple)):
            raise bad(f"{value!r} is not a QA answer", "lists of answer texts and start offsets")
        texts, starts = list(value["text"]), list(value["answer_start"])
        if len(texts) != len(starts) or not all(isinstance(t, str) for t in texts) \
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in starts):
            raise bad("answer texts and starts do not pair up", "as many int starts as answer strings")
        context = row()["context"] or ""
        for text, start in zip(texts, starts):
            if not text or context[start:start + len(text)] != text or start < 0:
                raise bad(f"answer {text!r} is not at character {start} of the context",
                          "an answer copied from the context at its start offset")
        return {"text": texts, "answer_start": starts}
    raise bad(f"unknown task kind {kind!r}", "sentence | pair | regression | tagging | qa")
