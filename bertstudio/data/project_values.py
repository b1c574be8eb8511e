"""Gold values per task kind: checking an edit, and renaming labels inside a value."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from bertstudio.errors import DataError


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
