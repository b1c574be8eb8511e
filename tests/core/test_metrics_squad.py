"""SQuAD exact match / F1 with the official script's normalisation, by hand."""

from __future__ import annotations

import pytest

from bertstudio.errors import DataError
from bertstudio.metrics import normalize_answer, squad_metrics


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        # lower -> drop punctuation (the hyphen too, joining the words) -> drop articles -> spaces
        ("The  Quick, Brown-Fox!", "quick brownfox"),
        ("An apple a day", "apple day"),
        ("theatre of the absurd", "theatre of absurd"),  # \b: "the" inside a word stays
        ("A", ""),
        ("  1,000 (approx.)  ", "1000 approx"),
        ("Café — Paris", "café — paris"),  # only ASCII punctuation is removed, as in the script
    ],
)
def test_official_normalisation(text: str, normalised: str) -> None:
    assert normalize_answer(text) == normalised


def one(pred: str, golds: list[str]) -> dict[str, float]:
    return squad_metrics([pred], [golds])


def test_exact_match_and_f1_by_hand() -> None:
    assert one("the Eiffel Tower", ["Eiffel Tower", "tower"]) == {"exact_match": 1.0, "f1": 1.0}
    # pred tokens eiffel tower in paris vs gold eiffel tower: 2 shared, P 2/4, R 2/2 -> F1 2/3;
    # vs gold "Paris": 1 shared, P 1/4, R 1 -> F1 0.4; the best gold counts
    m = one("Eiffel Tower in Paris", ["Paris", "Eiffel Tower"])
    assert m == pytest.approx({"exact_match": 0.0, "f1": 2 / 3})
    # token multiset overlap: x x y vs x y y share one x and one y -> P = R = 2/3
    assert one("x x y", ["x y y"])["f1"] == pytest.approx(2 / 3)


def test_unanswerable_questions_follow_squad_v2() -> None:
    assert one("", []) == {"exact_match": 1.0, "f1": 1.0}
    assert one("Paris", []) == {"exact_match": 0.0, "f1": 0.0}
    # an answer that normalises to nothing matches an empty prediction (v2 compute_f1)
    assert one("", ["the"]) == {"exact_match": 1.0, "f1": 1.0}


def test_mean_over_questions() -> None:
    preds = ["the Eiffel Tower", "Eiffel Tower in Paris", "", "Paris"]
    golds = [["Eiffel Tower"], ["Eiffel Tower"], [], []]
    # EM: 1, 0, 1, 0 -> 0.5;  F1: 1, 2/3, 1, 0 -> (8/3)/4 = 2/3
    assert squad_metrics(preds, golds) == pytest.approx({"exact_match": 0.5, "f1": 2 / 3})


def test_chinese_answers_compare_by_character() -> None:
    # 巴 黎 市 vs 巴 黎: 2 shared, P 2/3, R 1 -> F1 0.8 (whitespace splitting would give 0)
    assert one("巴黎市", ["巴黎"]) == pytest.approx({"exact_match": 0.0, "f1": 0.8})


def test_mismatch_is_a_data_error() -> None:
    with pytest.raises(DataError, match="2 questions but 1 predictions"):
        squad_metrics(["a"], [["a"], ["b"]])
    with pytest.raises(DataError, match="one string"):
        squad_metrics(["a"], ["a"])
