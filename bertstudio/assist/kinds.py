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
from bertstudio.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class AssistSpec:
    kind: str
    features: str | None  # "text" (one vector), "pair" (siamese features), "words" (per word), None
    head: str | None  # "logistic" | "ridge" | "token" | None
    zero_shot: bool  # suggestions before any label, from the label names
    waiting: str  # what the user is told while there is nothing to suggest
    gold_column: str = "label"
    # The strong model: "auto" (SetFit or fine-tuning, chosen by label counts), "siamese" (the
    # (u, v, |u-v|, u*v) classifier fine-tuned end to end), "token" (a token classifier), None.
    strong: str | None = "auto"
    strong_reason: str = ""  # why, when the choice is fixed by the kind

    @property
    def per_word(self) -> bool:
        """Predictions are one distribution per word (tagging), not one per row."""
        return self.features == "words"


_SIAMESE = ("{}: fine-tuning the siamese (u, v, |u-v|, u*v) classifier end to end (SetFit 1.2.0 reads single "
            "texts only)")


# What the user is told while there is nothing to suggest (one literal each: lupdate reads them).
_WAIT_SENTENCE = QT_TRANSLATE_NOOP("AssistKinds", "suggestions appear once the texts are embedded, from the label names")
_WAIT_PAIR = QT_TRANSLATE_NOOP("AssistKinds", "pairs: suggestions start once two labels have an example each (label names say nothing a bi-encoder can compare a pair with)")  # noqa: E501
_WAIT_REGRESSION = QT_TRANSLATE_NOOP("AssistKinds", "regression: suggestions start after two labelled rows")
_WAIT_TAGGING = QT_TRANSLATE_NOOP("AssistKinds", "tagging: suggestions start once a labelled sentence holds two different tags")
_WAIT_QA = QT_TRANSLATE_NOOP("AssistKinds", "question answering: no suggestions in the labelling loop until a first model is trained (Train page)")  # noqa: E501

SPECS: dict[str, AssistSpec] = {
    "sentence": AssistSpec("sentence", "text", "logistic", True, _WAIT_SENTENCE),
    "pair": AssistSpec("pair", "pair", "logistic", False, _WAIT_PAIR, strong="siamese", strong_reason=_SIAMESE.format("pair")),
    "regression": AssistSpec("regression", "pair", "ridge", False, _WAIT_REGRESSION,
                             strong="siamese", strong_reason=_SIAMESE.format("regression")),
    "tagging": AssistSpec("tagging", "words", "token", False, _WAIT_TAGGING,
                          gold_column="tags", strong="token",
                          strong_reason="tagging: fine-tuning the token classifier (SetFit classifies whole texts)"),
    "qa": AssistSpec("qa", None, None, False, _WAIT_QA, gold_column="answers", strong=None,
                     strong_reason="question answering has no model in the labelling loop: train one on the Train "
                                   "page"),
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
