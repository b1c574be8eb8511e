"""A run says when its evaluation rows repeat training rows (every input equal as stored, the
rule imports use: data/repeats.input_keys), and when its training rows give one input two gold
values (train/sources.warn_repeats): a dev file cut from the spreadsheet that also fed train
scored its copied rows as if unseen, and a sentence labelled once each way capped accuracy, and
no run said either."""

from __future__ import annotations

import logging
import re

import pytest

from bertstudio.data.examples import from_records
from bertstudio.train.config import TrainConfig
from bertstudio.train.sources import held_out_positions, load_sets


def _said(caplog, config: TrainConfig, train=None, evaluation=None) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        load_sets(config, train, evaluation)
    return [r.getMessage() for r in caplog.records if "repeat" in r.getMessage() or "more than once" in r.getMessage()]


def _sentences(texts, labels=None):
    labels = labels or ["pos" if i % 2 else "neg" for i in range(len(texts))]
    return from_records("sentence", [{"text": t, "label": y} for t, y in zip(texts, labels)], labels=["neg", "pos"])


def test_evaluation_rows_that_repeat_training_rows_are_counted_and_the_first_pair_named(caplog) -> None:
    train = _sentences([f"training sentence {i}" for i in range(1500)])
    texts = [f"new sentence {i}" for i in range(20)]
    texts[4] = "training sentence 1202"  # eval row 5 = train row 1,203 (1-based, as errors count rows)
    texts[11] = "training sentence 7"
    said = _said(caplog, TrainConfig(task="sentence"), train, _sentences(texts))
    assert len(said) == 1, said
    assert "2 of 20 evaluation rows repeat a training row (same text)" in said[0]
    assert "(first: eval row 5 = train row 1,203)" in said[0]


def test_an_input_labelled_two_ways_is_found_and_a_plain_duplicate_is_not(caplog) -> None:
    texts = [f"sentence {i}" for i in range(20)]
    labels = ["neg", "pos"] * 10
    texts[16], labels[3], labels[16] = texts[3], "pos", "neg"  # rows 4 and 17: one text, 'pos' and 'neg'
    texts[9], labels[9] = texts[1], labels[1]  # rows 2 and 10: the same text with the same label
    said = _said(caplog, TrainConfig(task="sentence"), _sentences(texts, labels))
    assert said == ["the training data: 1 input appears more than once with different labels "
                    "(first: train rows 4 and 17, 'pos' and 'neg')"]


def test_scores_that_differ_for_one_pair_are_named(caplog) -> None:
    rows = [{"text": f"a {i}", "text_pair": f"b {i}", "label": float(i % 5)} for i in range(12)]
    rows[8] = {**rows[2], "label": 4.5}
    examples = from_records("regression", rows)
    said = _said(caplog, TrainConfig(task="regression"), examples)
    assert said == ["the training data: 1 input appears more than once with different scores "
                    "(first: train rows 3 and 9, 2 and 4.5)"]


def test_a_sentence_tagged_two_ways_is_named_with_the_first_token_that_differs(caplog) -> None:
    sentences = [(["I", "can", "fish"], ["PRON", "AUX", "VERB"]), (["fish", "swim"], ["NOUN", "VERB"]),
                 (["I", "can", "fish"], ["PRON", "VERB", "NOUN"]), (["fish", "swim"], ["NOUN", "VERB"])]
    labels = ["PRON", "AUX", "VERB", "NOUN"]
    examples = from_records("tagging", [{"tokens": t, "tags": g} for t, g in sentences], labels=labels)
    said = _said(caplog, TrainConfig(task="tagging", labels=labels), examples)
    assert said == ["the training data: 1 input appears more than once with different tags "
                    "(first: train rows 1 and 3, 'AUX' and 'VERB' at token 2)"]


def test_clean_data_says_nothing(caplog) -> None:
    train = _sentences([f"training sentence {i}" for i in range(40)])
    evaluation = _sentences([f"dev sentence {i}" for i in range(10)])
    assert _said(caplog, TrainConfig(task="sentence"), train, evaluation) == []


def test_a_pair_repeats_only_when_both_texts_do(caplog) -> None:
    def pairs(rows):
        return from_records("pair", [{"text": a, "text_pair": b, "label": y} for a, b, y in rows], labels=["no", "yes"])

    train = pairs([("the cat sat", "a cat sat", "yes"), ("the cat sat", "the dog ran", "no"), ("x", "y", "no")])
    assert _said(caplog, TrainConfig(task="pair"), train, pairs([("the cat sat", "the cat ran", "no")])) == []
    said = _said(caplog, TrainConfig(task="pair"), train, pairs([("q", "r", "no"), ("the cat sat", "the dog ran", "no")]))
    assert len(said) == 1 and "1 of 2 evaluation rows repeat a training row (same text and text_pair)" in said[0]
    assert "(first: eval row 2 = train row 2)" in said[0]


def test_a_tagged_sentence_repeats_when_its_tokens_do(caplog) -> None:
    def tagged(sentences):
        return from_records("tagging", [{"tokens": s.split(), "tags": ["O"] * len(s.split())} for s in sentences],
                            labels=["O", "B-PER"])

    train = tagged(["John lives here", "it rains"])
    said = _said(caplog, TrainConfig(task="tagging", labels=["O", "B-PER"]), train,
                 tagged(["John lives", "it rains", "it", "rains"]))
    assert len(said) == 1 and "1 of 4 evaluation rows repeat a training row (same tokens)" in said[0], said


@pytest.mark.parametrize("kind", ["sentence", "pair"])
def test_missing_and_empty_texts_do_not_crash_or_count_as_repeats(caplog, kind) -> None:
    def rows(texts, labels):
        return [{"text": t, "text_pair": t, "label": y} if kind == "pair" else {"text": t, "label": y}
                for t, y in zip(texts, labels)]

    train = from_records(kind, rows([None, "", "fine", None, ""], ["a", "b", "a", "b", None]), labels=["a", "b"])
    evaluation = from_records(kind, rows([None, ""], ["a", "b"]), labels=["a", "b"])
    assert _said(caplog, TrainConfig(task=kind), train, evaluation) == []


def _write(path, texts, labels) -> None:
    path.write_text("text\tlabel\n" + "".join(f"{t}\t{y}\n" for t, y in zip(texts, labels)), encoding="utf-8")


def test_a_hold_out_from_a_file_without_repeats_says_nothing(tmp_path, caplog) -> None:
    path = tmp_path / "train.tsv"
    _write(path, [f"sentence number {i}" for i in range(60)], ["pos", "neg"] * 30)
    assert _said(caplog, TrainConfig(task="sentence", train_file=str(path), hold_out=0.2)) == []


def test_a_hold_out_names_the_files_rows_that_repeat(tmp_path, caplog) -> None:
    texts = [f"sentence number {i}" for i in range(60)]
    for i in range(0, 60, 6):
        texts[i] = "the same sentence"  # ten copies, one label: some held out, some trained on
    path = tmp_path / "train.tsv"
    labels = ["neg"] * 60
    labels[::2] = ["pos"] * 30
    _write(path, texts, labels)
    config = TrainConfig(task="sentence", train_file=str(path), hold_out=0.2, seed=3)
    said = _said(caplog, config)
    assert len(said) == 1, said
    match = re.search(r"(\d+) of 12 held-out rows repeat a training row .* \(first: row (\d+) = row (\d+)\)", said[0])
    assert match, said[0]
    kept, held = held_out_positions(_read(path), 0.2, 3)
    assert int(match.group(1)) == sum(texts[i] == "the same sentence" for i in held)
    assert texts[int(match.group(2)) - 1] == texts[int(match.group(3)) - 1] == "the same sentence"
    assert int(match.group(2)) - 1 in held and int(match.group(3)) - 1 in kept


def _read(path):
    from bertstudio.train.sources import read_train_set

    return read_train_set(TrainConfig(task="sentence", train_file=str(path)))


def test_sets_a_run_was_handed_after_they_were_checked_are_not_checked_again(caplog) -> None:
    """``bertstudio train`` reads the sets, then hands them to each seed's run (load_sets again)."""
    train = _sentences(["same", "other", "third"])
    config = TrainConfig(task="sentence")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        checked = load_sets(config, train, _sentences(["same"]))
        load_sets(config, *checked)
    assert sum("repeat a training row" in r.getMessage() for r in caplog.records) == 1


def test_bertstudio_train_prints_the_warning_once_on_stderr(tmp_path, tiny, capsys) -> None:
    from bertstudio.cli import main

    train, dev = tmp_path / "train.tsv", tmp_path / "dev.tsv"
    _write(train, [f"sentence number {i}" for i in range(16)], ["pos", "neg"] * 8)
    _write(dev, ["sentence number 3", "a new sentence", "another one"], ["neg", "pos", "neg"])
    rc = main(["train", "--task", "sentence", "--train", str(train), "--eval", str(dev), "--model", tiny,
               "--out", str(tmp_path / "run"), "--epochs", "1", "--device", "cpu", "--seeds", "2"])
    assert rc == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "repeat a training row" in line]
    assert lines == [f"bertstudio: warning: {dev}: 1 of 3 evaluation rows repeat a training row (same text): their "
                     "scores overstate how the model does on rows it has not seen (first: eval row 1 = train row 4)"]


def test_an_unlabelled_training_row_is_not_a_training_row_the_evaluation_repeats(caplog) -> None:
    """A training file's unlabelled rows are never trained on: an evaluation row repeating one of
    them overstates nothing (it was said: "1 of 1 evaluation rows repeat a training row")."""
    train = _sentences(["a first", "b second", "c third", "d fourth"], ["neg", None, "pos", "neg"])
    assert _said(caplog, TrainConfig(task="sentence"), train, _sentences(["b second"], ["pos"])) == []
    said = _said(caplog, TrainConfig(task="sentence"), train, _sentences(["c third"], ["pos"]))
    assert len(said) == 1 and "(first: eval row 1 = train row 3)" in said[0]


def test_an_evaluation_copy_in_the_other_unicode_form_is_a_repeat_and_so_is_a_conflict(caplog) -> None:
    """NFD 'Café crème' (macOS, scrapers) is the NFC text to a reader and, to an uncased tokenizer,
    the same input ids: an evaluation file of NFD copies overstated the score and nothing said so."""
    import unicodedata

    texts = [f"Café crème {i}" for i in range(6)] + ["Ça va", "naïve résumé"]
    train = _sentences([unicodedata.normalize("NFC", t) for t in texts])
    evaluation = _sentences([unicodedata.normalize("NFD", t) for t in texts])
    assert evaluation.dataset[0]["text"] != train.dataset[0]["text"]
    said = _said(caplog, TrainConfig(task="sentence"), train, evaluation)
    assert len(said) == 1 and "8 of 8 evaluation rows repeat a training row (same text)" in said[0], said
    conflict = _sentences(["Ça va", "something", unicodedata.normalize("NFD", "Ça va")], ["pos", "neg", "neg"])
    assert _said(caplog, TrainConfig(task="sentence"), conflict) == [
        "the training data: 1 input appears more than once with different labels (first: train rows 1 and 3, "
        "'pos' and 'neg')"]
