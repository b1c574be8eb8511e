"""Rows of a file that repeat examples a split already has, per kind (data/repeats.py)."""

from __future__ import annotations

from bertstudio.data.examples import from_records
from bertstudio.data.repeats import find_repeats, without


def test_sentences_repeat_exactly_and_a_mapped_label_is_compared_as_imported() -> None:
    held = from_records("sentence", [{"text": "x", "label": "pos"}, {"text": "y", "label": None},
                                     {"text": "z", "label": "neg"}])
    incoming = from_records("sentence", [{"text": "x", "label": "negative"}, {"text": "y", "label": "pos"},
                                         {"text": "X", "label": "pos"}, {"text": "z", "label": "negative"},
                                         {"text": "z ", "label": None}])
    repeats = find_repeats(held, incoming, {"negative": "neg"})
    # "X" and "z " are other texts; "y" was unlabelled (no conflict); "z" agrees once mapped
    assert repeats.rows.tolist() == [0, 1, 3] and repeats.relabelled == 1
    assert [r["text"] for r in without(incoming, repeats.rows).dataset] == ["X", "z "]


def test_pairs_tags_and_questions_repeat_by_all_their_inputs() -> None:
    pairs = find_repeats(from_records("pair", [{"text": "a", "text_pair": "b", "label": "e"}]),
                         from_records("pair", [{"text": "a", "text_pair": "b", "label": "n"},
                                               {"text": "a", "text_pair": "c", "label": "e"},
                                               {"text": "b", "text_pair": "a", "label": "e"}]))
    assert pairs.rows.tolist() == [0] and pairs.relabelled == 1
    tags = find_repeats(from_records("tagging", [{"tokens": ["New", "York"], "tags": ["B-LOC", "I-LOC"]}]),
                        from_records("tagging", [{"tokens": ["New", "York"], "tags": ["B-LOC", "I-LOC"]},
                                                 {"tokens": ["New York"], "tags": ["B-LOC"]}]))
    assert tags.rows.tolist() == [0] and tags.relabelled == 0
    ctx = "Paris is in France."
    qa = find_repeats(
        from_records("qa", [{"id": "1", "title": "t", "context": ctx, "question": "Where?", "answers": None}]),
        from_records("qa", [{"id": "9", "title": "u", "context": ctx, "question": "Where?", "answers": None},
                            {"id": "2", "title": "t", "context": ctx, "question": "What?", "answers": None}]))
    assert qa.rows.tolist() == [0]


def test_nothing_held_nothing_repeats() -> None:
    incoming = from_records("sentence", [{"text": "x", "label": None}])
    assert len(find_repeats(from_records("sentence", []), incoming)) == 0


def test_mapped_tags_and_qa_answers_are_compared_as_imported() -> None:
    held = from_records("tagging", [{"tokens": ["a", "b"], "tags": ["O", "B-X"]}, {"tokens": ["c"], "tags": None}])
    incoming = from_records("tagging", [{"tokens": ["a", "b"], "tags": ["O", "B-Y"]}, {"tokens": ["c"], "tags": ["O"]}])
    assert find_repeats(held, incoming).relabelled == 1  # B-Y against B-X; the unlabelled row is no conflict
    assert find_repeats(held, incoming, {"B-Y": "B-X"}).relabelled == 0  # the file's B-Y becomes B-X
    ctx = "Paris is in France."
    answer = {"text": ["Paris"], "answer_start": [0]}
    qa_held = from_records("qa", [{"id": "1", "title": "t", "context": ctx, "question": "Where?", "answers": answer}])
    other = {"text": ["France"], "answer_start": [12]}
    qa_new = from_records("qa", [{"id": "2", "title": "t", "context": ctx, "question": "Where?", "answers": other},
                                 {"id": "3", "title": "t", "context": ctx, "question": "Where?", "answers": answer}])
    # a file may hold one question twice: both repeat the project's, one with another answer
    repeats = find_repeats(qa_held, qa_new)
    assert repeats.rows.tolist() == [0, 1] and repeats.relabelled == 1


def test_without_keeps_order_and_the_rest() -> None:
    incoming = from_records("sentence", [{"text": f"t{i}", "label": None} for i in range(6)])
    kept = without(incoming, find_repeats(from_records("sentence", [{"text": "t1", "label": None},
                                                                    {"text": "t4", "label": None}]), incoming).rows)
    assert [r["text"] for r in kept.dataset] == ["t0", "t2", "t3", "t5"]


def test_canonically_equivalent_forms_repeat_and_other_lookalikes_do_not() -> None:
    import unicodedata

    nfc = "Café crème"
    held = from_records("tagging", [{"tokens": nfc.split(), "tags": ["O", "O"]}])
    incoming = from_records("tagging", [{"tokens": unicodedata.normalize("NFD", nfc).split(), "tags": ["O", "O"]},
                                        {"tokens": ["Cafe", "crème"], "tags": ["O", "O"]},  # no accent: other text
                                        {"tokens": ["Ｃafé", "crème"], "tags": ["O", "O"]}])  # fullwidth C: only NFKC-equal
    assert find_repeats(held, incoming).rows.tolist() == [0]
