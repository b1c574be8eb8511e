"""Sequence classification and tagging: encoding, collate, decoding (tiny BERT)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import AutoTokenizer, BertTokenizer
from transformers.modeling_outputs import SequenceClassifierOutput, TokenClassifierOutput

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError, DataError
from bertstudio.tasks import TASKS, get_task
from bertstudio.tasks.collate import pad_batch, padded_length
from bertstudio.tasks.tagging import entity_spans


@pytest.fixture(scope="module")
def tiny_dir(tiny_model_dir, tmp_path_factory):
    """tiny_model_dir with its tokenizer rebuilt from vocab.txt: in transformers 5
    ``BertTokenizer(vocab_file=...)`` (as conftest calls it) ignores the file and keeps 5
    special tokens, so every word would be [UNK]. Works unchanged once conftest passes vocab=."""
    out = tmp_path_factory.mktemp("tiny-fixed")
    shutil.copytree(tiny_model_dir, out, dirs_exist_ok=True)
    (out / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(out / "vocab.txt"), do_lower_case=True).save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def tok(tiny_dir):
    return AutoTokenizer.from_pretrained(tiny_dir)


def pieces(tok, ids):
    return tok.convert_ids_to_tokens(ids)


def test_registry_has_the_five_kinds():
    assert set(TASKS) == {"sentence", "pair", "regression", "tagging", "qa"}
    assert get_task("pair").kind == "pair"
    with pytest.raises(ConfigError):
        get_task("summarise")


def test_sentence_encoding_is_cls_a_sep(tok):
    ex = from_records("sentence", [{"text": "The movie was great", "label": "pos"}, {"text": "bad", "label": "neg"}])
    enc = get_task("sentence").encode(ex, tok, max_length=32, label2id={"neg": 0, "pos": 1})
    assert pieces(tok, enc[0]["input_ids"]) == ["[CLS]", "the", "movie", "was", "great", "[SEP]"]
    assert enc[0]["token_type_ids"] == [0] * 6
    assert enc["labels"] == [1, 0]
    assert enc["length"] == [6, 3]
    assert enc["example_index"] == [0, 1]


def test_pair_segments_and_longest_first_truncation(tok):
    long_a = "the dog and the cat and the man and the woman"  # 11 words, one token each
    ex = from_records("pair", [{"text": long_a, "text_pair": "good film", "label": "x"}])
    enc = get_task("pair").encode(ex, tok, max_length=8, label2id={"x": 0})[0]
    # 8 = [CLS] + 3 of A + [SEP] + 2 of B + [SEP]: longest_first cuts only the long side.
    assert pieces(tok, enc["input_ids"]) == ["[CLS]", "the", "dog", "and", "[SEP]", "good", "film", "[SEP]"]
    assert enc["token_type_ids"] == [0, 0, 0, 0, 0, 1, 1, 1]


def test_regression_mixes_single_and_pair_rows_and_keeps_float_labels(tok):
    ex = from_records(
        "regression",
        [{"text": "good", "text_pair": "great", "label": 4.5}, {"text": "bad", "text_pair": "", "label": 0.25}],
    )
    task = get_task("regression")
    enc = task.encode(ex, tok, max_length=16, label2id={})
    assert enc["token_type_ids"] == [[0, 0, 0, 1, 1], [0, 0, 0]]  # no "[SEP] [SEP]" for the empty pair
    batch = task.collate([enc[0], enc[1]], tok.pad_token_id)
    assert batch["labels"].dtype == torch.float32
    assert batch["labels"].tolist() == [4.5, 0.25]


def test_unlabelled_rows(tok):
    ex = from_records("sentence", [{"text": "good", "label": "pos"}, {"text": "bad", "label": None}], labels=["neg", "pos"])
    task = get_task("sentence")
    train = task.encode(ex, tok, max_length=16, label2id={"neg": 0, "pos": 1})
    assert train["example_index"] == [0] and train["labels"] == [1]
    predict = task.encode(ex, tok, max_length=16, label2id={"neg": 0, "pos": 1}, training=False)
    assert len(predict) == 2 and "labels" not in predict.column_names


def test_unknown_label_is_a_data_error_naming_the_row(tok):
    ex = from_records("sentence", [{"text": "a", "label": "pos"}, {"text": "b", "label": "meh"}])
    with pytest.raises(DataError, match="row 2"):
        get_task("sentence").encode(ex, tok, max_length=16, label2id={"pos": 0})


def test_collate_pads_to_multiples_of_8():
    rows = [
        {"input_ids": [2, 5, 6, 3], "token_type_ids": [0] * 4, "attention_mask": [1] * 4, "labels": 1, "length": 4, "example_index": 0},
        {"input_ids": list(range(9)), "token_type_ids": [0] * 9, "attention_mask": [1] * 9, "labels": 0, "length": 9, "example_index": 1},
    ]
    b = pad_batch(rows, pad_token_id=7)
    assert b["input_ids"].shape == (2, 16) and b["input_ids"].dtype == torch.int64
    assert b["input_ids"][0].tolist() == [2, 5, 6, 3] + [7] * 12
    assert b["attention_mask"].sum(1).tolist() == [4, 9]
    assert b["labels"].tolist() == [1, 0] and "length" not in b
    assert [padded_length(n) for n in (1, 8, 9, 17)] == [8, 8, 16, 24]


def test_classification_accumulator_probs_confidence_loss():
    ex = from_records("sentence", [{"text": "a", "label": "pos"}, {"text": "b", "label": None}], labels=["neg", "pos"])
    acc = get_task("sentence").accumulator(ex, None, ["neg", "pos"])
    # Rows arrive out of order (length-grouped batches): example_index puts them back.
    logits = torch.tensor([[0.0, 0.0], [np.log(3.0), 0.0]])
    acc.add({"example_index": torch.tensor([1, 0])}, SequenceClassifierOutput(logits=logits))
    p = acc.finish()
    assert p[0]["label"] == "neg" and p[0]["confidence"] == pytest.approx(0.75)
    assert p[0]["probs"] == {"neg": pytest.approx(0.75), "pos": pytest.approx(0.25)}
    assert p[0]["loss"] == pytest.approx(-np.log(0.25))
    assert p[1]["probs"]["pos"] == pytest.approx(0.5) and "loss" not in p[1]


TAG_EXAMPLES = [
    {"tokens": ["Paris", "is", "in", "France"], "tags": ["B-LOC", "O", "O", "B-LOC"]},
    {"tokens": ["The", "londonx", "river", "city"], "tags": ["O", "B-LOC", "I-LOC", "I-LOC"]},
]


def test_first_subtoken_labelling(tok):
    ex = from_records("tagging", TAG_EXAMPLES)
    label2id = {t: i for i, t in enumerate(ex.labels)}
    enc = get_task("tagging").encode(ex, tok, max_length=32, label2id=label2id)
    row = enc[1]
    # "londonx" is not in the tiny vocab: WordPiece gives london ##x.
    assert pieces(tok, row["input_ids"]) == ["[CLS]", "the", "london", "##x", "river", "city", "[SEP]"]
    b, i = label2id["B-LOC"], label2id["I-LOC"]
    assert row["labels"] == [-100, label2id["O"], b, -100, i, i, -100]
    assert row["word_index"] == [-1, 0, 1, -1, 2, 3, -1]


def _perfect_tag_logits(batch, n_labels):
    labels = batch["labels"].clone()
    logits = torch.zeros(*labels.shape, n_labels)
    at = labels >= 0
    logits[at, labels[at]] = 5.0
    return TokenClassifierOutput(logits=logits)


def test_tag_decode_round_trip_and_long_sentences_in_windows(tok):
    """Past max_length a sentence is read in overlapping windows: every word is tagged, once
    (the words past the cut were tagged "O", a tag a POS set does not have)."""
    ex = from_records("tagging", TAG_EXAMPLES)
    label2id = {t: i for i, t in enumerate(ex.labels)}
    task = get_task("tagging")
    for max_length, at_least in ((32, 2), (6, 3), (4, 5)):
        enc = task.encode(ex, tok, max_length=max_length, label2id=label2id, training=False)
        assert len(enc) >= at_least and max(enc["length"]) <= max_length
        assert max_length < 32 or len(enc) == 2  # a sentence that fits is one row, as before
        for example in (0, 1):  # each word is spoken for by exactly one token, labelled with its tag
            rows = [enc[i] for i in range(len(enc)) if enc[i]["example_index"] == example]
            spoken = sorted(w for r in rows for w in r["word_index"] if w >= 0)
            assert spoken == list(range(len(TAG_EXAMPLES[example]["tokens"])))
            tags = {w: ex.labels[lab] for r in rows for w, lab in zip(r["word_index"], r["labels"]) if w >= 0}
            assert [tags[w] for w in spoken] == TAG_EXAMPLES[example]["tags"]
        acc = task.accumulator(ex, enc, ex.labels)
        batch = task.collate([enc[i] for i in reversed(range(len(enc)))], tok.pad_token_id)
        acc.add(batch, _perfect_tag_logits(batch, len(ex.labels)))
        preds = acc.finish()
        assert [p["tags"] for p in preds] == [r["tags"] for r in TAG_EXAMPLES]
        assert [p["unpredicted_words"] for p in preds] == [0, 0]
    assert preds[0]["entities"] == [["LOC", 0, 1], ["LOC", 3, 4]]


def test_entity_spans_bio_and_plain_tags():
    assert entity_spans(["B-PER", "I-PER", "O", "I-LOC", "B-LOC", "B-LOC"]) == [
        ["PER", 0, 2], ["LOC", 3, 4], ["LOC", 4, 5], ["LOC", 5, 6]
    ]
    assert entity_spans(["B-PER", "I-ORG"]) == [["PER", 0, 1], ["ORG", 1, 2]]
    assert entity_spans(["NN", "VBZ", "IN", "NNP"]) == []


def test_tags_must_match_words(tok):
    ex = from_records("tagging", [{"tokens": ["a", "b"], "tags": ["O"]}], labels=["O"])
    with pytest.raises(DataError, match="1 tags for 2 words"):
        get_task("tagging").encode(ex, tok, max_length=16, label2id={"O": 0})


@given(st.lists(st.lists(st.integers(5, 99), min_size=1, max_size=40), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_collate_keeps_every_row_and_pads_to_8(rows):
    feats = [{"input_ids": r, "attention_mask": [1] * len(r), "labels": [i % 3] * len(r)} for i, r in enumerate(rows)]
    b = pad_batch(feats, pad_token_id=0)
    width = b["input_ids"].shape[1]
    assert width % 8 == 0 and width - 8 < max(map(len, rows)) <= width
    for i, r in enumerate(rows):
        assert b["input_ids"][i, : len(r)].tolist() == r and not b["input_ids"][i, len(r) :].any()
        assert (b["labels"][i, len(r) :] == -100).all() and int(b["attention_mask"][i].sum()) == len(r)


@pytest.mark.parametrize("family", ["roberta", "modernbert"])
def test_byte_level_words_read_as_in_running_text(family, tmp_path):
    """A byte-level BPE (RoBERTa, ModernBERT) read pre-split words without their space marker
    ("story" -> st, ory instead of Ġstory): each word after the first reads as in running text."""
    from helpers import tiny_family

    from bertstudio.tasks.model import load_tokenizer
    from bertstudio.tasks.word_windows import word_windows

    tokenizer = load_tokenizer(tiny_family(tmp_path / family, family))
    words = "the story comes from the news agency".split()
    windows = word_windows(tokenizer, [words], max_length=64)
    ids, word_of = windows.encoding["input_ids"][0], windows.encoding.word_ids(0)
    for w, word in enumerate(words):
        pieces = [ids[t] for t, i in enumerate(word_of) if i == w]
        running = tokenizer(" ".join(words[: w + 1]), add_special_tokens=False)["input_ids"]
        before = tokenizer(" ".join(words[:w]), add_special_tokens=False)["input_ids"] if w else []
        assert pieces == running[len(before):], word
    first_of_story = tokenizer.convert_ids_to_tokens(ids)[word_of.index(1)]
    assert first_of_story.startswith("\u0120")  # the space marker


def test_word_pieces_unchanged_for_wordpiece(tok):
    from bertstudio.tasks.word_windows import word_windows

    words = ["the", "londonx", "river"]
    windows = word_windows(tok, [words], max_length=64)
    assert tok.convert_ids_to_tokens(windows.encoding["input_ids"][0]) == ["[CLS]", "the", "london", "##x", "river", "[SEP]"]


@pytest.mark.parametrize("family", ["roberta", "bert"])
def test_the_exported_predict_py_reads_words_as_training_did(family, tmp_path, tiny):
    """The ONNX export's standalone predict.py tokenises a tagging input with the tokenizers library
    alone: it must give each word the same pieces bertstudio trained on (a byte-level BPE's words
    after the first with their space), or a RoBERTa tagger served from ONNX reads other tokens."""
    from pathlib import Path

    from tokenizers import Tokenizer

    from bertstudio.tasks.model import load_tokenizer
    from bertstudio.tasks.word_windows import word_windows
    from bertstudio.train import standalone_predict

    if family == "roberta":
        from helpers import tiny_family

        folder = tiny_family(tmp_path / family, family)
    else:
        folder = Path(tiny)
    words = "the story comes from the news agency".split()
    trained = word_windows(load_tokenizer(folder), [words], max_length=64).encoding["input_ids"][0]
    raw = Tokenizer.from_file(str(folder / "tokenizer.json"))
    spaced = standalone_predict._needs_spaces(raw)
    assert spaced == (family == "roberta")
    served = raw.encode([w if i == 0 or not spaced else " " + w for i, w in enumerate(words)], is_pretokenized=True)
    assert list(served.ids) == list(trained)
