"""Token tagging metrics: seqeval entity-level P/R/F1 and token accuracy, and per-class reports.

Entity scores follow CoNLL practice in seqeval's *strict* mode: an entity counts
only if its type and its exact span agree, and a span must be well formed under
the scheme, so under IOB2 an ``I-X`` that does not follow ``B-X``/``I-X`` starts
no entity (the lenient conlleval mode would accept it). Entity scores exist only
when tags carry ``B-``/``I-`` prefixes (NER, chunking); plain tag sets such as
UPOS get token accuracy alone, which is the POS tagging measure, and never reach
seqeval (which would read "PRON" as an entity of type "RON"). Whether a tag set is
BIO is the label set's to say when one is given (``kinds.is_bio_tag_set``'s rule):
an evaluation set without a single entity is still scored as entities.

:func:`tagging_report` gives the per-class view: per entity type (seqeval) for BIO
sets, per tag over tokens (scikit-learn) for plain sets.
"""

from __future__ import annotations

import re
import warnings
from typing import Sequence

from bertstudio.errors import DataError
from bertstudio.metrics.per_class import AVERAGES, ClassScores, PerClassReport, classification_report_of

TAGGING_METRICS: tuple[str, ...] = ("precision", "recall", "f1", "accuracy")

_PREFIXED = re.compile(r"^[BIES]-.+")
_BIO_TAG = re.compile(r"^(O|[BI]-.+)$")
_BIOES_TAG = re.compile(r"^(O|[BIES]-.+)$")


def tag_scheme(sequences: Sequence[Sequence[str]]) -> str | None:
    """"IOB2", "IOBES" when tags carry span prefixes (E-/S- mean IOBES), else None (plain tags)."""
    tags = {t for seq in sequences for t in seq}
    prefixed = [t for t in tags if _PREFIXED.match(t)]
    if not prefixed:
        return None
    if any(t[0] in "ES" for t in prefixed):
        return "IOBES"
    return "IOB2"


# The tag a word that was not read (it tokenises to nothing: a zero-width character alone) is scored
# as. Predictions give such a word no tag (null); scoring counts it as "no entity", which for a plain
# tag set (POS, where "O" is no tag) is always a wrong tag.
UNREAD_SCORED_AS = "O"


def scored_tags(tags: Sequence[str | None]) -> list[str]:
    """``tags`` as they are scored: a word without a predicted tag (None) as :data:`UNREAD_SCORED_AS`."""
    return [UNREAD_SCORED_AS if t is None else t for t in tags]


def _check(golds: Sequence[Sequence[str]], preds: Sequence[Sequence[str]]) -> None:
    if len(golds) != len(preds):
        raise DataError(
            f"{len(golds)} gold sentences but {len(preds)} predicted",
            where="tagging metrics",
            expected="one tag sequence per sentence",
        )
    if not golds:
        raise DataError("no sentences to score", where="tagging metrics", expected="at least one tagged sentence")
    for i, (g, p) in enumerate(zip(golds, preds)):
        if len(g) != len(p):
            raise DataError(
                f"{len(g)} gold tags but {len(p)} predicted",
                where=f"sentence {i}",
                expected="one predicted tag per word",
            )


def _scheme_of(golds: list[list[str]], preds: list[list[str]], labels: Sequence[str] | None) -> str | None:
    """The label set decides when there is one (a dev set may hold no entity at all); else the tags seen."""
    return tag_scheme([list(labels)] if labels else golds + preds)


def tagging_metrics(golds: Sequence[Sequence[str]], preds: Sequence[Sequence[str]],
                    labels: Sequence[str] | None = None) -> dict[str, float]:
    """``accuracy`` (token level) always; ``precision``/``recall``/``f1`` (strict entity
    level) when the tags are IOB2 (or IOBES) tags: those of ``labels`` (the run's tag set)
    when given, else those seen in ``golds`` and ``preds``."""
    _check(golds, preds)
    golds = [list(s) for s in golds]
    preds = [scored_tags(s) for s in preds]
    total = sum(len(s) for s in golds)
    correct = sum(g == p for gs, ps in zip(golds, preds) for g, p in zip(gs, ps))
    out: dict[str, float] = {"accuracy": correct / total if total else 0.0}
    scheme_name = _scheme_of(golds, preds, labels)
    if scheme_name is None:
        return out
    _check_scheme(golds, preds, scheme_name)
    return _entity_scores(golds, preds, scheme_name, out)


def _check_scheme(golds: list[list[str]], preds: list[list[str]], scheme_name: str) -> None:
    valid = _BIOES_TAG if scheme_name == "IOBES" else _BIO_TAG
    for side, seqs in (("gold", golds), ("predicted", preds)):
        for i, seq in enumerate(seqs):
            for j, tag in enumerate(seq):
                if not valid.match(tag):
                    raise DataError(
                        f"{side} tag {tag!r} mixes plain and {scheme_name} tags",
                        where=f"sentence {i}, word {j}",
                        expected=f"'O' or a {scheme_name} tag such as 'B-PER'",
                    )


def _entity_scores(golds: list[list[str]], preds: list[list[str]], scheme_name: str,
                   out: dict[str, float]) -> dict[str, float]:
    from seqeval.metrics import f1_score, precision_score, recall_score  # here: seqeval imports scikit-learn
    from seqeval.scheme import IOB2, IOBES

    scheme = IOBES if scheme_name == "IOBES" else IOB2
    with warnings.catch_warnings():
        # seqeval warns when no entity is predicted; zero_division=0 already says what we do.
        warnings.simplefilter("ignore")
        kw = dict(mode="strict", scheme=scheme, zero_division=0)
        out["precision"] = float(precision_score(golds, preds, **kw))
        out["recall"] = float(recall_score(golds, preds, **kw))
        out["f1"] = float(f1_score(golds, preds, **kw))
    return out


def tagging_report(golds: Sequence[Sequence[str]], preds: Sequence[Sequence[str]],
                   labels: Sequence[str] | None = None) -> PerClassReport:
    """Per-class precision/recall/F1/support. BIO (or IOBES) tag sets: per entity type, strict
    spans, by seqeval (support = gold entities). Plain tag sets (POS): per tag over tokens, by
    scikit-learn (support = gold tokens), in ``labels`` order."""
    _check(golds, preds)
    golds = [list(s) for s in golds]
    preds = [scored_tags(s) for s in preds]
    scheme_name = _scheme_of(golds, preds, labels)
    if scheme_name is None:
        flat_gold = [t for s in golds for t in s]
        flat_pred = [t for s in preds for t in s]
        names = list(labels) if labels else list(dict.fromkeys(flat_gold + flat_pred))
        return classification_report_of(flat_gold, flat_pred, names, unit="tokens")
    _check_scheme(golds, preds, scheme_name)
    from seqeval.metrics.v1 import precision_recall_fscore_support, unique_labels  # strict mode's own functions
    from seqeval.scheme import IOB2, IOBES

    # Rows by position, never by name, as classification_report_of does: seqeval's output_dict report
    # mixes types with its summary keys, so a type named "macro avg" showed the average's numbers as
    # its own and a "micro avg"/"weighted avg" type was dropped from the rows
    kw = dict(scheme=IOBES if scheme_name == "IOBES" else IOB2, zero_division=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # as above: zero_division=0 says what an empty class scores
        seen = unique_labels(golds, preds, kw["scheme"])  # sorted, the order of seqeval's arrays
        p, r, f, s = precision_recall_fscore_support(golds, preds, average=None, **kw)
        averages = [precision_recall_fscore_support(golds, preds, average=a, **kw) for a in ("macro", "weighted")]
    by_type = {t: ClassScores(t, float(p[i]), float(r[i]), float(f[i]), int(s[i])) for i, t in enumerate(seen)}
    types = [t[2:] for t in (labels or []) if _PREFIXED.match(t)]
    names = list(dict.fromkeys(types + list(seen)))
    support = int(sum(s))
    # no entity in the gold nor the predictions (all O): seqeval's macro average of no type is NaN, shown
    # as "nan"; undefined, as a class with nothing to score is (the UI says "—")
    return PerClassReport(tuple(by_type[n] for n in names if n in by_type),
                          tuple(ClassScores(name, float(ap), float(ar), float(af), support) if seen else
                                ClassScores(name, 0.0, 0.0, 0.0, 0, scored=False)
                                for name, (ap, ar, af, _) in zip(AVERAGES, averages)), "entities")
