"""The model in the labelling loop (Qt-free): suggestions from zero labels, a fast head that
refits after every label, a stronger model every N labels, what to label next, and an
honest audit accuracy.

Modules: ``encoder`` (frozen sentence/word vectors), ``cache`` (vectors kept in the
project folder), ``zeroshot`` (label-name prototypes), ``heads`` and ``fast`` (the linear
heads), ``strong`` (SetFit / fine-tuning in the background), ``strategies`` (the Next
orders and audit draws), ``audit`` (accuracy with a Wilson interval), ``pool`` (rows as
model inputs), ``kinds`` (what each task kind gets), ``assistant`` + ``session`` (the
controller the GUI drives, and its threads). Start with
:class:`~bertstudio.assist.assistant.LabellingAssistant`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bertstudio.assist.assistant import AssistSettings, LabellingAssistant, Suggestion
    from bertstudio.assist.audit import AuditStats
    from bertstudio.assist.strategies import STRATEGIES, NextItem

# The names above are loaded on first use (PEP 562), not with the package: importing any of its
# light modules (strategies, audit, keys) on the GUI thread loaded the assistant, its encoder
# and torch with it, a 4-7 s freeze (the first label rename of a session; the Results page).
_HOMES = {"AssistSettings": "assistant", "LabellingAssistant": "assistant", "Suggestion": "assistant",
          "AuditStats": "audit", "STRATEGIES": "strategies", "NextItem": "strategies"}

__all__ = ["AssistSettings", "AuditStats", "LabellingAssistant", "NextItem", "STRATEGIES", "Suggestion"]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
