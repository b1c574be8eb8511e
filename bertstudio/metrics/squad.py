"""SQuAD exact match and token F1, with the official evaluation script's rules.

Normalisation is the v1.1 script's ``normalize_answer``: lower-case, drop ASCII
punctuation, drop the articles a/an/the, collapse whitespace. Each prediction
scores its best match over the gold answers. Unanswerable questions (SQuAD v2:
an empty gold list) count as correct iff the prediction is empty, and when either
side normalises to no tokens F1 is 1 if both do, else 0 (the v2 script's
``compute_f1``; the v1.1 script scored that case 0 even for two empties).

The scripts are a few lines and not importable from any installed package, so
they are restated here (hand-written by necessity).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from typing import Sequence

from bertstudio.errors import DataError

_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
# CJK ideographs have no spaces between words; the CMRC 2018 scorer compares them
# character by character. Splitting them keeps F1 meaningful for Chinese answers
# and changes nothing for text without such characters (all SQuAD data).
_CJK = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")


def normalize_answer(text: str) -> str:
    """The official SQuAD v1.1 ``normalize_answer``."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def answer_tokens(text: str) -> list[str]:
    return _CJK.sub(r" \1 ", normalize_answer(text)).split()


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def token_f1(prediction: str, gold: str) -> float:
    pred_toks = answer_tokens(prediction)
    gold_toks = answer_tokens(gold)
    if not pred_toks or not gold_toks:
        return float(pred_toks == gold_toks)
    common = Counter(pred_toks) & Counter(gold_toks)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred_toks)
    recall = same / len(gold_toks)
    return 2 * precision * recall / (precision + recall)


def squad_metrics(preds: Sequence[str], golds: Sequence[Sequence[str]]) -> dict[str, float]:
    """Mean ``exact_match`` and ``f1`` (fractions) over questions; ``golds[i]`` lists the
    accepted answers of question i (empty = unanswerable)."""
    if len(preds) != len(golds):
        raise DataError(
            f"{len(golds)} questions but {len(preds)} predictions",
            where="QA metrics",
            expected="one predicted answer per question",
        )
    if not preds:
        raise DataError("no questions to score", where="QA metrics", expected="at least one answered question")
    em_total = f1_total = 0.0
    for i, (pred, answers) in enumerate(zip(preds, golds)):
        if isinstance(answers, str):
            raise DataError("gold answers given as one string", where=f"question {i}", expected="a list of answer strings")
        answers = list(answers) or [""]  # v2: no answer = the empty answer
        em_total += max(exact_match(pred, a) for a in answers)
        f1_total += max(token_f1(pred, a) for a in answers)
    n = len(preds)
    return {"exact_match": em_total / n, "f1": f1_total / n}
