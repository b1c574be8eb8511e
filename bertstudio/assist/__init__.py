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

from bertstudio.assist.assistant import AssistSettings, LabellingAssistant, Suggestion
from bertstudio.assist.audit import AuditStats
from bertstudio.assist.strategies import STRATEGIES, NextItem

__all__ = ["AssistSettings", "AuditStats", "LabellingAssistant", "NextItem", "STRATEGIES", "Suggestion"]
