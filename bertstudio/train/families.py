"""What a kind's predictions look like to code outside bertstudio.tasks, asked of its gold type.

Two things need a kind's *family* without a Task to ask: the run comparison (which
per-row metric form scores it) and the standalone ``predict.py`` of an ONNX export
(which decoder turns its logits into a prediction, without importing bertstudio). Both
read it here, from the kind's spec, so neither grows a ``kind == ...`` branch; a new kind
whose gold type fits none of these gets comparison counts without an interval and is
refused by the ONNX export with a message saying so.
"""

from __future__ import annotations

from typing import Any

CLASSES, SCORE, TAGS, SPAN = "classes", "score", "tags", "span"


def family(spec: Any) -> str | None:
    """classes (one label per example) | score (a number) | tags (one label per word) |
    span (an answer in a context) | None."""
    gold = spec.gold
    if gold.classes:
        return CLASSES
    if gold.numeric:
        return SCORE
    if gold.per_token:
        return TAGS
    if gold.name == "answers":
        return SPAN
    return None
