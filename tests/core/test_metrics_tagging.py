"""Entity-level (seqeval strict IOB2) and token-level tagging metrics, by hand."""

from __future__ import annotations

import numpy as np
import pytest
from seqeval.metrics import f1_score as seqeval_lenient_f1

from bertstudio.errors import DataError
from bertstudio.metrics import tag_scheme, tagging_metrics


def test_two_sentences_by_hand() -> None:
    gold = [["B-PER", "I-PER", "O"], ["B-ORG", "O", "B-LOC"]]
    pred = [["B-PER", "I-PER", "O"], ["B-ORG", "O", "O"]]
    # gold entities: PER(0-2), ORG, LOC = 3; predicted: PER, ORG = 2, both correct
    # P = 2/2, R = 2/3, F1 = 2*1*(2/3) / (5/3) = 0.8; tokens: 5 of 6 right
    m = tagging_metrics(gold, pred)
    assert m == pytest.approx({"precision": 1.0, "recall": 2 / 3, "f1": 0.8, "accuracy": 5 / 6})


def test_strict_iob2_rejects_i_without_b_where_lenient_accepts_it() -> None:
    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    pred = [["I-PER", "I-PER", "O", "B-LOC"]]
    # Lenient (conlleval) reads I-PER I-PER as a PER entity: all correct.
    assert seqeval_lenient_f1(gold, pred) == pytest.approx(1.0)
    # Strict IOB2: an I- after O starts nothing, so only LOC is predicted.
    # P = 1/1, R = 1/2, F1 = 2/3; tokens 3 of 4
    m = tagging_metrics(gold, pred)
    assert m == pytest.approx({"precision": 1.0, "recall": 0.5, "f1": 2 / 3, "accuracy": 0.75})


def test_span_and_type_must_both_match() -> None:
    gold = [["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]]
    pred = [["B-PER", "O", "O"], ["B-LOC", "O", "O"]]  # short span; wrong type
    m = tagging_metrics(gold, pred)
    assert m["f1"] == 0.0 and m["precision"] == 0.0 and m["recall"] == 0.0
    assert m["accuracy"] == pytest.approx(4 / 6)


def test_plain_tags_get_token_accuracy_only() -> None:
    gold = [["PRON", "VERB", "DET", "NOUN"], ["NOUN", "PUNCT"]]
    pred = [["PRON", "VERB", "DET", "VERB"], ["NOUN", "PUNCT"]]
    assert tagging_metrics(gold, pred) == pytest.approx({"accuracy": 5 / 6})
    assert tag_scheme(gold) is None


def test_iobes_is_detected() -> None:
    gold = [["B-PER", "E-PER", "S-LOC", "O"]]
    pred = [["B-PER", "E-PER", "O", "O"]]
    assert tag_scheme(gold) == "IOBES"
    # gold: PER, LOC; pred: PER -> P 1, R 1/2, F1 2/3
    assert tagging_metrics(gold, pred)["f1"] == pytest.approx(2 / 3)


def test_no_entities_predicted_is_zero_without_warning() -> None:
    m = tagging_metrics([["B-PER", "O"]], [["O", "O"]])
    assert m["f1"] == 0.0 and m["accuracy"] == 0.5


def test_bad_tag_sequences_are_data_errors() -> None:
    with pytest.raises(DataError, match="sentence 0"):
        tagging_metrics([["B-PER", "O"]], [["B-PER"]])
    with pytest.raises(DataError, match="mixes plain"):
        tagging_metrics([["B-PER", "O"]], [["PER", "O"]])
    with pytest.raises(DataError, match="2 gold sentences"):
        tagging_metrics([["O"], ["O"]], [["O"]])


def test_a_word_without_a_predicted_tag_is_scored_as_o() -> None:
    """A word that tokenises to nothing has no tag (None) in the predictions; scoring counts it as
    "O": right where gold is "O" in a BIO set, wrong in a plain set (POS has no "O")."""
    from bertstudio.metrics.compare import tagging_metric

    bio = tagging_metrics([["B-PER", "O", "O"]], [["B-PER", None, "O"]])
    assert bio == pytest.approx({"precision": 1.0, "recall": 1.0, "f1": 1.0, "accuracy": 1.0})
    pos = tagging_metrics([["DET", "NOUN", "VERB"]], [["DET", None, "VERB"]], labels=["DET", "NOUN", "VERB"])
    assert pos == pytest.approx({"accuracy": 2 / 3})
    summed = tagging_metric("accuracy", [["B-PER", "O", "O"]], [["B-PER", None, "O"]])  # Compare Runs
    assert summed(np.ones((1, 1)))[0] == pytest.approx(1.0)
