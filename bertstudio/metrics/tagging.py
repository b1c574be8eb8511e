"""Token tagging metrics: seqeval entity-level P/R/F1 and token accuracy.

Entity scores follow CoNLL practice in seqeval's *strict* mode: an entity counts
only if its type and its exact span agree, and a span must be well formed under
the scheme, so under IOB2 an ``I-X`` that does not follow ``B-X``/``I-X`` starts
no entity (the lenient conlleval mode would accept it). Entity scores exist only
when tags carry ``B-``/``I-`` prefixes (NER, chunking); plain tag sets such as
UPOS get token accuracy alone, which is the POS tagging measure.
"""

from __future__ import annotations

import re
import warnings
from typing import Sequence

from seqeval.metrics import f1_score, precision_score, recall_score
from seqeval.scheme import IOB2, IOBES

from bertstudio.errors import DataError

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


def tagging_metrics(golds: Sequence[Sequence[str]], preds: Sequence[Sequence[str]]) -> dict[str, float]:
    """``accuracy`` (token level) always; ``precision``/``recall``/``f1`` (strict entity
    level) when the tags are IOB2 (or IOBES) tags."""
    _check(golds, preds)
    golds = [list(s) for s in golds]
    preds = [list(s) for s in preds]
    total = sum(len(s) for s in golds)
    correct = sum(g == p for gs, ps in zip(golds, preds) for g, p in zip(gs, ps))
    out: dict[str, float] = {"accuracy": correct / total if total else 0.0}
    scheme_name = tag_scheme(golds + preds)
    if scheme_name is None:
        return out
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
    scheme = IOBES if scheme_name == "IOBES" else IOB2
    with warnings.catch_warnings():
        # seqeval warns when no entity is predicted; zero_division=0 already says what we do.
        warnings.simplefilter("ignore")
        kw = dict(mode="strict", scheme=scheme, zero_division=0)
        out["precision"] = float(precision_score(golds, preds, **kw))
        out["recall"] = float(recall_score(golds, preds, **kw))
        out["f1"] = float(f1_score(golds, preds, **kw))
    return out
