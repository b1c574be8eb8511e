"""What the labelling loop does for each task kind, in one table.

The rest of :mod:`bertstudio.assist` asks this spec (``spec.zero_shot``,
``spec.features``) instead of branching on the kind's name, so a sixth kind is
one line here (and, when the lead's ``bertstudio/data/kinds.py`` lands, these
fields can move onto its per-kind spec).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bertstudio.errors import ConfigError


@dataclass(frozen=True)
class AssistSpec:
    kind: str
    features: str | None  # "text" (one vector), "pair" (siamese features), "words" (per word), None
    head: str | None  # "logistic" | "ridge" | "token" | None
    zero_shot: bool  # suggestions before any label, from the label names
    waiting: str  # what the user is told while there is nothing to suggest
    gold_column: str = "label"


SPECS: dict[str, AssistSpec] = {
    "sentence": AssistSpec("sentence", "text", "logistic", True,
                           "suggestions appear once the label set has names and the texts are embedded"),
    "pair": AssistSpec("pair", "pair", "logistic", False,
                       "pairs: suggestions start once two labels have an example each (label names say nothing a "
                       "bi-encoder can compare a pair with)"),
    "regression": AssistSpec("regression", "pair", "ridge", False,
                             "regression: suggestions start after two labelled rows"),
    "tagging": AssistSpec("tagging", "words", "token", False,
                          "tagging: suggestions start once a labelled sentence holds two different tags",
                          gold_column="tags"),
    "qa": AssistSpec("qa", None, None, False,
                     "question answering: no suggestions in the labelling loop until a first model is trained "
                     "(Train page)", gold_column="answers"),
}


def spec_for(kind: str) -> AssistSpec:
    try:
        return SPECS[kind]
    except KeyError:
        raise ConfigError(f"unknown task kind {kind!r}", expected=" | ".join(SPECS)) from None


def value_of(spec: AssistSpec, labels: list[str], pred: Any) -> Any:
    """A predicted label index (or score, or tag indices) as the project stores gold values."""
    if spec.head == "ridge":
        return float(pred)
    if spec.head == "token":
        return [labels[int(i)] for i in pred]
    return labels[int(pred)]
