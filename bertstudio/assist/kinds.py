"""What the labelling loop does for each task kind, in one table.

The rest of :mod:`bertstudio.assist` asks this spec (``spec.zero_shot``,
``spec.features``) instead of branching on the kind's name, so a sixth kind is
one line here (and, when the lead's ``bertstudio/data/kinds.py`` lands, these
fields can move onto its per-kind spec).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from bertstudio.data.kinds import is_bio_tag_set
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
    def model_in_loop(self) -> bool:
        """A model suggests values while the person labels. Without one (question answering) there
        is nothing to audit and nothing to be uncertain about: no audit draws, no "most uncertain
        first" order."""
        return self.head is not None

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
# A label set smaller than a classifier learns from (the project's min_labels): no kind's own words hold
# then, "from the label names" least of all.
WAIT_MORE_LABELS = QT_TRANSLATE_NOOP("AssistKinds", "add a second label: a classifier needs at least two classes, so no suggestion can come before")  # noqa: E501
_WAIT_QA = QT_TRANSLATE_NOOP("AssistKinds", "question answering: no suggestions (the labelling assistant has no model for answers)")  # noqa: E501

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
    """A predicted label index (or score, or tag indices) as the project stores gold values
    (tag indices from :func:`word_tags`, so that a BIO suggestion is valid BIO)."""
    if spec.head == "ridge":
        return float(pred)
    if spec.head == "token":
        return [labels[int(i)] for i in pred]
    return labels[int(pred)]


def word_tags(labels: Sequence[str], probs: np.ndarray) -> np.ndarray:
    """The suggested tag index of each word of one sentence, from its (words, tags) probabilities.

    On a BIO label set (:func:`~bertstudio.data.kinds.is_bio_tag_set`) it is the most probable
    *valid* BIO sequence: no I-X at the start, after O or after another type. Each word's own
    argmax made such sequences (an I-ENT after O); Enter stored them as gold, and the export read
    them back as B-ENT. When the argmax sequence is valid it is that sequence. Plain tag sets
    (POS) get each word's argmax. Every suggestion, the audit's check included, reads its tags here.
    """
    probs = np.asarray(probs)
    if not len(probs):
        return np.zeros(0, dtype=np.int64)
    best = probs.argmax(1)
    if not is_bio_tag_set(list(labels)) or probs.shape[1] != len(labels):
        return best
    start, allowed = _bio_transitions(tuple(labels))
    if start[best[0]] and allowed[best[:-1], best[1:]].all():
        return best  # already valid (most sentences): no decode
    return _viterbi(np.log(np.clip(probs.astype(np.float64), 1e-12, 1.0)), start, allowed, best)


@lru_cache(maxsize=16)
def _bio_transitions(labels: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(may start a sentence, may follow: [previous, next]) per tag: an I-X only after B-X or I-X,
    where the set has a B-X. A type with I-X alone (IOB1 tags kept as imported: "I-PER", no
    "B-PER") is never constrained: its spans start with I-X, and a constraint left it unsuggestable."""
    span = [t[2:] if t[:2] in ("B-", "I-") else None for t in labels]
    begun = {t[2:] for t in labels if t.startswith("B-")}
    inside = [t.startswith("I-") and t[2:] in begun for t in labels]
    start = np.array([not i for i in inside])
    allowed = np.ones((len(labels), len(labels)), dtype=bool)
    for j, tag in enumerate(labels):
        if inside[j]:
            allowed[:, j] = [s == tag[2:] for s in span]
    return start, allowed


def _viterbi(logp: np.ndarray, start: np.ndarray, allowed: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    # Written by hand: a first-order decode with forbidden transitions is a few lines of numpy, and
    # none of the project's libraries offers one without a CRF layer (torchcrf, AllenNLP).
    trans = np.where(allowed, 0.0, -np.inf)
    score = np.where(start, logp[0], -np.inf)
    back = np.zeros(logp.shape, dtype=np.int64)
    for w in range(1, len(logp)):
        cand = score[:, None] + trans  # [previous, next]
        back[w] = cand.argmax(0)
        score = cand.max(0) + logp[w]
    if not np.isfinite(score.max()):  # no valid sequence (a label set of I- tags only): leave it be
        return fallback
    path = np.empty(len(logp), dtype=np.int64)
    path[-1] = int(score.argmax())
    for w in range(len(logp) - 1, 0, -1):
        path[w - 1] = back[w, path[w]]
    return path
