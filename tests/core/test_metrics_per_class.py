"""Per-class reports (issue 14, items 6-7): classification by hand, POS tags per token without
seqeval, BIO entity types by seqeval, and a real tiny POS run on UD EWT rows."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import pytest

from bertstudio.metrics.per_class import classification_report_of, per_class_from_predictions
from bertstudio.metrics.tagging import tagging_metrics, tagging_report

# gold 1 x4, 0 x6; TP = 3, FN = 1, FP = 2, TN = 4 (as in test_metrics_classification.py)
GOLD = ["pos", "pos", "pos", "pos", "neg", "neg", "neg", "neg", "neg", "neg"]
PRED = ["pos", "pos", "pos", "neg", "pos", "pos", "neg", "neg", "neg", "neg"]


def test_classification_report_by_hand() -> None:
    report = classification_report_of(GOLD, PRED, ["neg", "pos", "neutral"])
    assert [c.name for c in report.classes] == ["neg", "pos", "neutral"]  # label-set order, unseen kept
    pos, neg, neutral = report.row("pos"), report.row("neg"), report.row("neutral")
    assert (pos.precision, pos.recall, pos.f1, pos.support) == pytest.approx((3 / 5, 3 / 4, 2 / 3, 4))
    assert (neg.precision, neg.recall, neg.f1, neg.support) == pytest.approx((4 / 5, 4 / 6, 8 / 11, 6))
    assert (neutral.f1, neutral.support) == (0.0, 0)
    # macro over the classes present in gold or predictions, as the run's macro_f1 (neutral has
    # neither: a class the evaluation rows never show is not scored); weighted by support (4 pos, 6 neg)
    assert report.row("macro avg").f1 == pytest.approx((2 / 3 + 8 / 11) / 2)
    assert report.row("macro avg").precision == pytest.approx((3 / 5 + 4 / 5) / 2)
    assert report.row("weighted avg").f1 == pytest.approx((4 * 2 / 3 + 6 * 8 / 11) / 10)
    assert report.unit == "examples"


def test_report_from_prediction_rows_skips_unlabelled_rows() -> None:
    rows = [{"index": i, "gold": g, "label": p} for i, (g, p) in enumerate(zip(GOLD, PRED))]
    rows.append({"index": 10, "gold": None, "label": "pos"})
    report = per_class_from_predictions(rows, ["neg", "pos"], per_token=False)
    assert report.row("pos").support == 4 and report.row("neg").support == 6
    assert per_class_from_predictions([{"gold": None, "label": "pos"}], ["neg", "pos"], per_token=False) is None


def test_pos_tags_are_scored_per_tag_over_tokens_without_seqeval() -> None:
    gold = [["PRON", "VERB", "DET", "NOUN"], ["NOUN", "PUNCT"]]
    pred = [["PRON", "VERB", "DET", "VERB"], ["NOUN", "PUNCT"]]
    labels = ["NOUN", "VERB", "PRON", "DET", "PUNCT", "ADJ"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # seqeval would warn "PRON seems not to be NE tag"
        report = tagging_report(gold, pred, labels)
        metrics = tagging_metrics(gold, pred, labels)
    assert metrics == pytest.approx({"accuracy": 5 / 6})
    assert [c.name for c in report.classes] == labels  # "PRON", never seqeval's "RON"
    assert report.unit == "tokens"
    # NOUN: gold 2 tokens, predicted 1 (right) -> P 1, R 1/2; VERB: gold 1, predicted 2 (1 right) -> P 1/2, R 1
    noun, verb = report.row("NOUN"), report.row("VERB")
    assert (noun.precision, noun.recall, noun.support) == pytest.approx((1.0, 0.5, 2))
    assert (verb.precision, verb.recall, verb.support) == pytest.approx((0.5, 1.0, 1))
    assert report.row("ADJ").support == 0


def test_bio_tags_are_scored_per_entity_type() -> None:
    gold = [["B-PER", "I-PER", "O"], ["B-ORG", "O", "B-LOC"]]
    pred = [["B-PER", "I-PER", "O"], ["B-ORG", "O", "O"]]
    report = tagging_report(gold, pred, ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"])
    assert [c.name for c in report.classes] == ["PER", "ORG", "LOC"] and report.unit == "entities"
    assert report.row("PER").f1 == 1.0 and report.row("LOC").recall == 0.0 and report.row("LOC").support == 1


def test_the_tag_set_decides_bio_even_when_the_dev_set_has_no_entity() -> None:
    # A BIO tagger whose dev sentences happen to hold no entity still reports entity F1
    # (its official metric), here 0 predicted and 0 gold: 0 by zero_division.
    m = tagging_metrics([["O", "O"]], [["O", "O"]], labels=["O", "B-PER", "I-PER"])
    assert m == {"accuracy": 1.0, "precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_a_real_tiny_pos_run_on_ud_ewt_scores_tags_not_entities(tmp_path, tiny_model_dir, shared_data) -> None:
    from bertstudio.data.io import load_examples
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    ewt = load_examples(shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu")
    train_set, dev_set = ewt.select(range(40)), ewt.select(range(40, 60))
    out = tmp_path / "run"
    config = TrainConfig(task="tagging", labels=ewt.labels, model=str(tiny_model_dir), epochs=1, batch_size=8,
                         lr=1e-3, max_length=48, device="cpu", precision="fp32", output_dir=str(out))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = train(config, train_set, dev_set)
    assert result.status == "finished", result.message
    assert not [w for w in caught if "NE tag" in str(w.message)]
    metrics = json.loads((out / "metrics.json").read_text())
    preds = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    right = sum(g == p for row in preds for g, p in zip(row["gold"], row["tags"]))
    total = sum(len(row["gold"]) for row in preds)
    assert set(metrics) == {"accuracy"} and metrics["accuracy"] == pytest.approx(right / total)
    report = per_class_from_predictions(preds, ewt.labels, per_token=True)
    assert [c.name for c in report.classes] == ewt.labels and "PRON" in ewt.labels
    supports = Counter(t for row in preds for t in row["gold"])
    assert {c.name: c.support for c in report.classes} == {t: supports.get(t, 0) for t in ewt.labels}


@pytest.mark.parametrize("odd", ["accuracy", "macro avg", "weighted avg"])
def test_label_named_like_a_report_summary_key_gets_its_own_scores(odd: str) -> None:
    """sklearn's output_dict mixes classes with "accuracy"/"macro avg"/"weighted avg": a label so
    named crashed the report ("accuracy") or showed the average's numbers as its own."""
    report = classification_report_of(["x", "y", odd], ["x", odd, "y"], ["x", "y", odd])
    assert [c.name for c in report.classes] == ["x", "y", odd]
    mine = report.classes[2]
    assert (mine.precision, mine.recall, mine.f1, mine.support) == (0.0, 0.0, 0.0, 1)  # by hand
    assert [a.name for a in report.averages] == ["macro avg", "weighted avg"]
    assert report.averages[0].precision == pytest.approx(1 / 3) and report.averages[0].support == 3


@pytest.mark.parametrize("odd", ["accuracy", "macro avg", "micro avg", "weighted avg"])
def test_entity_type_named_like_a_report_summary_key_gets_its_own_scores(odd: str) -> None:
    """seqeval's output_dict report mixes entity types with its "micro/macro/weighted avg" keys: a type
    so named got no row, or the average's numbers as its own. Gold: 2 "odd" entities and 2 of x; the
    prediction finds 1 of each and adds a wrong "odd" span."""
    gold = [[f"B-{odd}", "O", "B-x"], [f"B-{odd}", f"I-{odd}", "B-x"]]
    pred = [["O", "O", "B-x"], [f"B-{odd}", f"I-{odd}", f"B-{odd}"]]
    labels = ["O", f"B-{odd}", f"I-{odd}", "B-x", "I-x"]
    report = tagging_report(gold, pred, labels)
    assert [c.name for c in report.classes] == [odd, "x"]
    mine = report.classes[0]
    assert (mine.precision, mine.recall, mine.support) == (0.5, 0.5, 2)  # by hand: 1 of 2 predicted, 1 of 2 gold
    x = report.classes[1]
    assert (x.precision, x.recall, x.support) == (1.0, 0.5, 2)
    assert [a.name for a in report.averages] == ["macro avg", "weighted avg"]
    assert report.averages[0].precision == pytest.approx(0.75) and report.averages[0].support == 4


def test_a_tagging_report_with_no_entity_anywhere_has_undefined_averages_not_nan() -> None:
    """All O in the gold and the predictions: seqeval's macro average over no type is NaN, shown as "nan"."""
    report = tagging_report([["O", "O"], ["O"]], [["O", "O"], ["O"]], ["O", "B-PER", "I-PER"])
    assert report.classes == () and [a.name for a in report.averages] == ["macro avg", "weighted avg"]
    for average in report.averages:
        assert not average.scored and (average.precision, average.recall, average.f1, average.support) == (0, 0, 0, 0)
