"""Task kinds are data: the specs say what the code used to branch on, one rule answers
"is this prediction wrong?", and a sixth kind needs one module and one registry line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bertstudio.data.examples import from_records, infer_labels
from bertstudio.data.kinds import KIND_SPECS, entity_types, get_spec, is_bio_tag_set
from bertstudio.errors import ConfigError
from bertstudio.tasks import TASKS, get_task


@pytest.fixture
def toy_kind():
    from toy_kind import KIND, register

    task = register()
    try:
        yield task
    finally:
        KIND_SPECS.pop(KIND, None)
        TASKS.pop(KIND, None)


def test_unknown_kind_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown task kind 'poetry'"):
        get_spec("poetry")
    with pytest.raises(ConfigError):
        get_task("poetry")


def test_every_registered_kind_has_a_task_and_a_spec_that_agree():
    for name, spec in KIND_SPECS.items():
        task = get_task(name)
        assert task.spec is spec
        assert spec.gold_column in spec.columns
        assert set(spec.inputs) <= set(spec.columns) and set(spec.view_columns) <= set(spec.columns)
        assert list(spec.features) == list(spec.columns)


@pytest.mark.parametrize("kind, gold, prediction, wrong", [
    ("sentence", "pos", {"label": "pos"}, False),
    ("sentence", "pos", {"label": "neg"}, True),
    ("sentence", None, {"label": "neg"}, False),  # an unlabelled row is never an error
    ("regression", 3.0, {"score": 3.49}, False),
    ("regression", 3.0, {"score": 3.5}, True),  # half a point off on STS-B's 0-5 scale
    ("tagging", ["B-PER", "O"], {"tags": ["B-PER", "O"]}, False),
    ("tagging", ["B-PER", "O"], {"tags": ["B-LOC", "O"]}, True),
    # SQuAD's normalisation: case, punctuation and articles do not make an answer wrong
    ("qa", {"text": ["Denver Broncos"], "answer_start": [0]}, {"answer": "the Denver Broncos."}, False),
    ("qa", {"text": ["Denver Broncos"], "answer_start": [0]}, {"answer": "Carolina Panthers"}, True),
    ("qa", {"text": [], "answer_start": []}, {"answer": ""}, False),
    ("qa", {"text": [], "answer_start": []}, {"answer": "Denver"}, True),
])
def test_is_error_is_one_rule_per_kind(kind, gold, prediction, wrong):
    assert get_task(kind).is_error(prediction, gold) is wrong


def test_predicted_value_has_the_shape_of_a_gold_value():
    assert get_task("pair").predicted_value({"label": "entailment"}) == "entailment"
    assert get_task("regression").predicted_value({"score": 2.5}) == 2.5
    assert get_task("qa").predicted_value({"answer": "Denver", "start": 4}) == {"text": ["Denver"], "answer_start": [4]}
    assert get_task("qa").predicted_value({"answer": "", "start": -1}) == {"text": [], "answer_start": []}
    row = {"context": "The Denver Broncos won."}
    # what a user accepts as gold passes the gold type's own check
    value = get_task("qa").predicted_value({"answer": "Denver", "start": 4})
    assert get_spec("qa").gold.check(value, [], lambda: row, "row 1") == value


def test_gold_types_count_and_rename():
    tags = get_spec("tagging").gold
    assert tags.count_keys(["B-PER", "I-PER", "O"]) == ["B-PER", "I-PER", "O"]
    assert tags.rename(["B-PER", "O"], {"B-PER": "B-PERSON"}) == ["B-PERSON", "O"]
    answers = get_spec("qa").gold
    assert answers.count_keys({"text": [], "answer_start": []}) == ["no_answer"]
    assert get_spec("regression").gold.check(3, [], dict, "row 1") == 3.0
    with pytest.raises(Exception, match="not a score"):
        get_spec("regression").gold.check(float("nan"), [], dict, "row 1")


def test_entity_types_of_bio_and_plain_tag_sets():
    assert is_bio_tag_set(["O", "B-PER", "I-PER"]) and not is_bio_tag_set(["NOUN", "VERB"])
    assert entity_types(["O", "B-PER", "I-PER", "B-LOC"]) == ["PER", "LOC"]
    assert entity_types(["NOUN", "VERB", "PRON"]) == ["NOUN", "VERB", "PRON"]


def test_reading_tasks_does_not_import_torch():
    """The GUI asks tasks whether a prediction is wrong on its own thread: that must not
    pull in torch (seconds of import)."""
    code = ("import sys, bertstudio.tasks as t; t.get_task('qa').is_error({'answer': 'x'}, None); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_sixth_kind_needs_one_module_and_one_registry_line(toy_kind):
    spec = get_spec("multilabel")
    es = from_records("multilabel", [{"text": "sunny and warm", "labels": ["sun", "warm"]},
                                     {"text": "grey", "labels": []}, {"text": "new"}])
    assert es.spec is spec and es.gold_column == "labels"
    assert infer_labels("multilabel", es.dataset) == ["sun", "warm"]
    assert es.labelled().dataset["text"] == ["sunny and warm", "grey"]
    assert get_task("multilabel").is_error({"labels": ["warm", "sun"]}, ["sun", "warm"]) is False
    assert spec.gold.short_text(["sun", "warm"]) == "sun, warm"


def test_an_answer_several_annotators_gave_is_shown_once():
    """Results listed "France | France | France | France" (SQuAD's four annotators)."""
    gold = get_spec("qa").gold
    assert gold.short_text({"text": ["France", "France", "in France", "France"], "answer_start": [0, 0, 3, 0]}) \
        == "France | in France"
    assert gold.short_text({"text": [], "answer_start": []}) == "∅" and gold.short_text(None) == "—"


@pytest.mark.parametrize("golds, glue_task, scale", [
    ([0.2, 4.8], None, (0.0, 5.0)),  # STS-B-like scores, no preset: still 0-5
    ([6, 7, 10], None, (0.0, 10.0)),  # 1-10 ratings that happen to use only 6-10
    ([12.0, 97.5], None, (0.0, 100.0)),
    ([0.05, 0.9], None, (0.0, 1.0)),
    ([-2.0, 3.0], None, (-5.0, 5.0)),
    ([-500000.0, 1e6], None, (-1e6, 1e6)),
    ([7.5], "STS-B", (0.0, 5.0)),  # a benchmark's own scale wins over the scores
    ([], None, (0.0, 5.0)),
])
def test_gold_scale_is_the_smallest_usual_scale_holding_the_scores(golds, glue_task, scale):
    from bertstudio.tasks.classification import gold_scale

    assert gold_scale(golds, glue_task) == scale


def test_a_score_error_is_a_tenth_of_the_golds_scale():
    from bertstudio.tasks.base import error_rule

    task = get_task("regression")
    # 0-100: 0.4 off is no error (a fixed ±0.5 called every prediction wrong), 12 off is
    on_100 = error_rule(task, [3.0, 55.0, 98.0])
    assert on_100.tolerance == 10.0
    assert not on_100({"score": 55.4}, 55.0) and on_100({"score": 67.0}, 55.0)
    # 0-1: 0.24 off is an error (a fixed ±0.5 never called one)
    on_1 = error_rule(task, [0.1, 0.5, 0.9])
    assert on_1.tolerance == pytest.approx(0.1)
    assert on_1({"score": 0.74}, 0.5) and not on_1({"score": 0.55}, 0.5)
    assert error_rule(task, [0.1, 0.9], "STS-B").tolerance == 0.5  # STS-B's half point, as before
    assert error_rule(get_task("sentence"), ["pos"])({"label": "neg"}, "pos") is True
