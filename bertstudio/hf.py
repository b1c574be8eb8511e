"""transformers' classes, taken under one lock.

transformers exposes its classes through a lazy module: ``from transformers import
AutoConfig`` imports the submodule on first use. Two threads doing that at the same
time (the preload thread, the Train page's parameter count, a starting run, the
labelling assistant) raced: "cannot import name 'AutoConfig' from 'transformers'", or
an AttributeError inside datasets, which looks transformers' classes up whenever the
module is loaded. Python's per-module import locks do not cover the lazy module's
attribute lookups, so every bertstudio thread takes these names here, and the preload
thread imports transformers while holding the same lock.

It sits at the package top, beside ``bertstudio.errors``, not in ``bertstudio.tasks``:
importing ``bertstudio.tasks.hf`` takes that module's import lock before it runs the
package's ``__init__``, and a second thread already inside that ``__init__`` (importing
the task modules, which import this one) then waits for it: Python's import deadlock.
"""

from __future__ import annotations

import threading
from typing import Any

LOCK = threading.RLock()  # held while transformers (or one of its lazy names) is being imported

# Resolved together the first time any name is asked for, so later lookups never import.
COMMON = ("AutoConfig", "AutoModel", "AutoTokenizer", "AutoModelForSequenceClassification",
          "AutoModelForTokenClassification", "AutoModelForQuestionAnswering", "PreTrainedTokenizerBase",
          "PreTrainedModel")

_resolved: dict[str, Any] = {}


def hf(name: str) -> Any:
    """``transformers.<name>``, imported under :data:`LOCK` the first time."""
    found = _resolved.get(name)
    if found is not None:
        return found
    with LOCK:
        import transformers

        if not _resolved:
            for common in COMMON:
                _resolved[common] = getattr(transformers, common)
        if name not in _resolved:
            _resolved[name] = getattr(transformers, name)
        return _resolved[name]
