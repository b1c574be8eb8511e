"""Suggestions from zero labels: similarity to what the label names say.

Each label becomes a prototype vector: the mean of the normalised embeddings of
its name (or the description the user gave it) written into a few templates
("{}", "this is {}", ...), renormalised. A row's score for a label is the cosine
similarity of its vector to the prototype, *minus that label's mean similarity over
the whole pool* (a label-free calibration: a name that is close to everything, such
as "positive" for a sentence-transformer, otherwise wins too often), divided by a
temperature. That is a linear classifier on the cached vectors, which is what lets
the fast head start from it (see :mod:`bertstudio.assist.heads`).

Templates are a user setting: a project of movie reviews may say
``"a {} movie review"``. The defaults and the temperature were chosen on SST-2
train and the AG News pool (never on the dev or test sets the benchmark reports);
see benchmarks/README.md.

What the zero-shot step does for each kind (:func:`zero_shot_reason`):
sentence classification: the above. Pairs: nothing - a label name ("entailment",
"1") says nothing a bi-encoder can compare a pair with; suggestions start with
the fast head once each class has a label. Regression, tagging, QA: nothing until
labels (regression, tagging) or a first trained model (QA) exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from bertstudio.assist.heads import LinearHead

# Chosen on SST-2 train and the AG News pool (benchmarks/README.md, "zero-shot").
DEFAULT_TEMPLATES: tuple[str, ...] = ("{}", "this is {}", "it is {}", "{}.", "a {} text", "about {}")
TEMPERATURE = 0.05


@dataclass(frozen=True)
class ZeroShot:
    """Label prototypes and their pool means; :meth:`head` is the linear classifier."""

    prototypes: np.ndarray  # (labels, dim), unit length
    centre: np.ndarray  # (labels,) mean similarity over the pool
    temperature: float = TEMPERATURE

    def head(self) -> LinearHead:
        return LinearHead((self.prototypes / self.temperature).astype(np.float32),
                          (-self.centre / self.temperature).astype(np.float32))


def label_prompts(labels: Sequence[str], descriptions: Mapping[str, str] | None = None,
                  templates: Sequence[str] = DEFAULT_TEMPLATES) -> list[list[str]]:
    """Per label, the texts whose mean embedding is its prototype. A description
    replaces the name in the templates; a template without ``{}`` is used as it is
    (templates are user settings: a typo must not fail)."""
    out = []
    for name in labels:
        said = (descriptions or {}).get(name) or name
        out.append([t.replace("{}", said) if "{}" in t else f"{t} {said}" for t in templates] or [said])
    return out


def build_zero_shot(labels: Sequence[str], embed: Callable[[list[str]], np.ndarray], pool: np.ndarray, *,
                    descriptions: Mapping[str, str] | None = None,
                    templates: Sequence[str] = DEFAULT_TEMPLATES, temperature: float = TEMPERATURE) -> ZeroShot:
    """Prototypes from ``embed`` (texts -> unit vectors) and the centring over ``pool`` vectors."""
    prompts = label_prompts(labels, descriptions, templates)
    flat = [p for ps in prompts for p in ps]
    vectors = embed(flat)
    protos, at = [], 0
    for ps in prompts:
        v = vectors[at:at + len(ps)].mean(0)
        at += len(ps)
        protos.append(v / max(float(np.linalg.norm(v)), 1e-12))
    prototypes = np.stack(protos).astype(np.float32)
    centre = (pool @ prototypes.T).mean(0) if len(pool) else np.zeros(len(labels), np.float32)
    return ZeroShot(prototypes, centre.astype(np.float32), float(temperature))
