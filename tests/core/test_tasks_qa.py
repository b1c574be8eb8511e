"""QA windows, start/end positions, offsets and n-best decoding (tiny BERT tokenizer)."""

from __future__ import annotations

import shutil

import pytest
import torch
from transformers import AutoTokenizer, BertTokenizer
from transformers.modeling_outputs import QuestionAnsweringModelOutput

from bertstudio.data.examples import from_records
from bertstudio.tasks import get_task
from bertstudio.tasks.qa import whole_words


@pytest.fixture(scope="module")
def tok(tiny_model_dir, tmp_path_factory):
    # tiny_model_dir's tokenizer rebuilt from vocab.txt (conftest's BertTokenizer(vocab_file=)
    # is ignored by transformers 5, leaving 5 specials); see test_tasks_encoding.py.
    out = tmp_path_factory.mktemp("tiny-qa")
    shutil.copytree(tiny_model_dir, out, dirs_exist_ok=True)
    (out / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(out / "vocab.txt"), do_lower_case=True).save_pretrained(out)
    return AutoTokenizer.from_pretrained(out)


FILLER = "the dog and the cat " * 10  # 50 one-token words
CONTEXT = FILLER + "paris is by the londonx river"  # 57 tokens: london ##x is two
ANSWER = "londonx river"


def _examples(*extra):
    records = [
        {"id": "q1", "context": CONTEXT, "question": "where is paris",
         "answers": {"text": [ANSWER], "answer_start": [CONTEXT.index(ANSWER)]}},
        *extra,
    ]
    return from_records("qa", records)


def test_answer_near_the_end_lands_in_the_last_window(tok):
    enc = get_task("qa").encode(_examples(), tok, max_length=32, label2id={}, doc_stride=7)
    # 26 context tokens per window (32 - 3 question - 3 specials), advancing 26 - 7 = 19:
    # windows start at context token 0, 19, 38; only the last holds tokens 54..56.
    assert len(enc) == 3 and enc["example_index"] == [0, 0, 0]
    assert enc["start_positions"] == [0, 0, 21] and enc["end_positions"] == [0, 0, 23]
    last = enc[2]
    assert tok.convert_ids_to_tokens(last["input_ids"][21:24]) == ["london", "##x", "river"]
    off = last["offset_mapping"]
    assert CONTEXT[off[21][0] : off[23][1]] == ANSWER
    assert off[0] == [-1, -1] and off[1] == [-1, -1]  # [CLS] and the question map to no character
    assert last["token_type_ids"][:5] == [0] * 5 and set(last["token_type_ids"][5:]) == {1}
    assert enc["length"] == [32, 32, 5 + 19 + 1]


def _perfect(batch):
    """One-hot logits at the gold start/end of each window ([CLS] when it has no answer)."""
    n, width = batch["input_ids"].shape
    start = torch.zeros(n, width)
    end = torch.zeros(n, width)
    rows = torch.arange(n)
    start[rows, batch["start_positions"]] = 10.0
    end[rows, batch["end_positions"]] = 10.0
    return QuestionAnsweringModelOutput(start_logits=start, end_logits=end)


def _decode(examples, tok, batch_size=2, **opts):
    task = get_task("qa")
    enc = task.encode(examples, tok, max_length=32, label2id={}, doc_stride=7, training=False)
    acc = task.accumulator(examples, enc, [], max_answer_length=10, **opts)
    rows = [enc[i] for i in range(len(enc))]
    for i in range(0, len(rows), batch_size):  # windows of one example split across batches
        batch = task.collate(rows[i : i + batch_size], tok.pad_token_id)
        acc.add(batch, _perfect(batch))
    return acc.finish()


def test_perfect_logits_decode_to_the_gold_text_across_windows(tok):
    short = {"id": "q2", "context": "the cat is in paris", "question": "where is the cat",
             "answers": {"text": ["paris"], "answer_start": [14]}}
    preds = _decode(_examples(short), tok)
    assert preds[0]["answer"] == ANSWER and preds[0]["start"] == CONTEXT.index(ANSWER)
    assert preds[0]["score"] == pytest.approx(20.0)
    assert preds[1]["answer"] == "paris" and preds[1]["start"] == 14


def test_max_answer_length_rules_out_long_spans(tok):
    preds = _decode(_examples(), tok, batch_size=8)
    assert preds[0]["answer"] == ANSWER
    task = get_task("qa")
    enc = task.encode(_examples(), tok, max_length=32, label2id={}, doc_stride=7, training=False)
    acc = task.accumulator(_examples(), enc, [], max_answer_length=2)  # the answer is 3 tokens
    batch = task.collate([enc[i] for i in range(len(enc))], tok.pad_token_id)
    acc.add(batch, _perfect(batch))
    assert acc.finish()[0]["answer"] != ANSWER


def test_squad_v2_null_answer(tok):
    none = {"id": "q3", "context": "the cat is in paris", "question": "where is the dog",
            "answers": {"text": [], "answer_start": []}}
    preds = _decode(_examples(none), tok, null_answers=True)  # a model trained on SQuAD v2 data
    assert preds[1] == {"answer": "", "start": -1, "score": pytest.approx(20.0)}
    assert preds[0]["answer"] == ANSWER


def test_an_empty_gold_answer_does_not_switch_null_answers_on(tok):
    """The accumulator turned null answers on when any gold answer list in the evaluation file was
    empty, so one unanswerable question made a v1.1 model answer "" to every question of the file.
    Whether "no answer" is allowed comes from the model (null_answers), not from the data."""
    none = {"id": "q3", "context": "the cat is in paris", "question": "where is the dog",
            "answers": {"text": [], "answer_start": []}}
    preds = _decode(_examples(none), tok)
    assert preds[1]["answer"] != "" and preds[1]["start"] >= 0  # a v1.1 model always answers
    assert preds[0]["answer"] == ANSWER


def test_null_answers_are_recorded_from_the_training_data():
    from types import SimpleNamespace

    from bertstudio.tasks.qa import null_answers_of, record_null_answers

    v1 = _examples()
    v2 = _examples({"id": "q3", "context": "the cat", "question": "where is the dog",
                    "answers": {"text": [], "answer_start": []}})
    old = SimpleNamespace(config=SimpleNamespace(bertstudio={"task": "qa"}))
    assert not null_answers_of(old)  # saved before bertstudio kept it: SQuAD v1.1 behaviour
    for data, expected in ((v1, False), (v2, True)):
        model = SimpleNamespace(config=SimpleNamespace(bertstudio={"task": "qa", "max_length": 32}))
        record_null_answers(model, data)
        assert null_answers_of(model) is expected and model.config.bertstudio["max_length"] == 32
    sentences = SimpleNamespace(config=SimpleNamespace(bertstudio={"task": "sentence"}))
    record_null_answers(sentences, from_records("sentence", [{"text": "a", "label": "x"}], labels=["x"]))
    assert sentences.config.bertstudio == {"task": "sentence"}


def test_long_question_is_cut_so_the_context_keeps_room(tok):
    q = "what is the city by the river where the man and the woman and the dog live"  # 17 tokens
    ex = from_records("qa", [{"id": "x", "context": CONTEXT, "question": q, "answers": None}])
    enc = get_task("qa").encode(ex, tok, max_length=32, label2id={}, training=False)
    first = enc[0]
    assert first["token_type_ids"].count(0) == 14 + 2  # question cut to (32 - 3) // 2 tokens
    assert "start_positions" not in enc.column_names


def test_unanswerable_question_trains_on_cls(tok):
    none = {"id": "q3", "context": CONTEXT, "question": "where is the dog",
            "answers": {"text": [], "answer_start": []}}
    enc = get_task("qa").encode(_examples(none), tok, max_length=32, label2id={}, doc_stride=7)
    assert enc["example_index"] == [0, 0, 0, 1, 1, 1]
    assert enc["start_positions"][3:] == [0, 0, 0] and enc["end_positions"][3:] == [0, 0, 0]


def test_an_answer_that_covers_no_token_trains_as_no_answer_here(tok):
    """sweep_qalabel 1: the gold "  " between "line" and "with" mapped to start "with" and end
    "line", an inverted span no decoder can produce, and was trained on. Like an answer outside
    the window it now points at [CLS]; the real answer beside it still maps to its tokens."""
    context = "second line  with  double dogs"
    rows = [{"id": "ws", "context": context, "question": "what",
             "answers": {"text": ["  "], "answer_start": [context.index("  ")]}},
            {"id": "ok", "context": context, "question": "what",
             "answers": {"text": ["with"], "answer_start": [context.index("with")]}}]
    enc = get_task("qa").encode(from_records("qa", rows), tok, max_length=32, label2id={})
    assert enc["example_index"] == [0, 1]
    assert enc["start_positions"][0] == enc["end_positions"][0] == 0
    start, end = enc["start_positions"][1], enc["end_positions"][1]
    assert start == end > 0 and enc[1]["offset_mapping"][start] == [context.index("with"), context.index("with") + 4]


def test_batched_span_search_equals_brute_force(tok):
    """With n_best covering every token, the vectorised search must find the same span
    as checking every (start, end) pair of every window by hand."""
    task = get_task("qa")
    ex = _examples()
    enc = task.encode(ex, tok, max_length=32, label2id={}, doc_stride=7, training=False)
    batch = task.collate([enc[i] for i in range(len(enc))], tok.pad_token_id)
    g = torch.Generator().manual_seed(3)
    start = torch.randn(batch["input_ids"].shape, generator=g)
    end = torch.randn(batch["input_ids"].shape, generator=g)
    acc = task.accumulator(ex, enc, [], n_best=64, max_answer_length=4, null_answers=False)
    acc.add(batch, QuestionAnsweringModelOutput(start_logits=start, end_logits=end))
    got = acc.finish()[0]

    best = (-float("inf"), None)
    for w in range(len(enc)):
        off = enc[w]["offset_mapping"]
        for i in range(len(off)):
            for j in range(i, min(i + 4, len(off))):
                if off[i][0] >= 0 and off[j][0] >= 0:
                    score = float(start[w, i] + end[w, j])
                    if score > best[0]:
                        best = (score, CONTEXT[slice(*whole_words(CONTEXT, off[i][0], off[j][1]))])
    assert got["answer"] == best[1] and got["score"] == pytest.approx(best[0])


def test_a_span_that_cuts_a_word_is_widened_to_the_whole_word():
    """A model answered "Fran" (of "France"): BERT's reference code maps pieces back to whole
    words. CJK characters stand alone (Chinese has no spaces: the span stays as found)."""
    text = "Normandy is a région in France. Dates: 10th-11th."
    start = text.index("France")
    assert whole_words(text, start, start + 4) == (start, start + 6)  # Fran -> France
    assert whole_words(text, start + 2, start + 6) == (start, start + 6)  # ance -> France
    assert whole_words(text, start, start + 6) == (start, start + 6)  # whole: unchanged, not the "."
    r = text.index("région")
    assert text[slice(*whole_words(text, r + 1, r + 3))] == "région"
    d = text.index("10th")
    assert text[slice(*whole_words(text, d, d + 2))] == "10th"  # the hyphen ends a word
    zh = "诺曼底位于法国北部。"
    assert whole_words(zh, 5, 7) == (5, 7)


def test_the_windows_note_is_said_of_training_not_of_a_prediction(tok, caplog):
    """The Playground logged "... become N windows ...; each window trains as one example" when it
    only predicted."""
    import logging

    long = {"id": "l", "context": " ".join([CONTEXT] * 4), "question": "where", "answers": None}
    with caplog.at_level(logging.WARNING, logger="bertstudio.tasks.limits"):
        get_task("qa").encode(from_records("qa", [long]), tok, max_length=32, label2id={}, training=False)
        assert "windows" not in caplog.text
        labelled = {**long, "answers": {"text": [ANSWER], "answer_start": [CONTEXT.index(ANSWER)]}}
        get_task("qa").encode(from_records("qa", [labelled]), tok, max_length=32, label2id={})
    assert "each window trains as one example" in caplog.text


@pytest.fixture(scope="module")
def xlmr(tmp_path_factory):
    from helpers import tiny_family

    return tiny_family(tmp_path_factory.mktemp("xlmr"), "xlm-roberta")


def test_overflow_windows_feed_no_type_ids_to_a_model_with_one_type(xlmr):
    """XLM-R's template post-processor gives the context of every overflow window type id 1; its
    model has type_vocab_size 1 (IndexError at step 1). Type ids go only to models that take them."""
    from bertstudio.tasks.base import model_inputs
    from bertstudio.tasks.model import build_model

    task = get_task("qa")
    model, tokenizer = build_model("qa", str(xlmr), labels=[])
    context = "the story comes from the news agency in new york . " * 6
    examples = from_records("qa", [{"id": "q", "context": context, "question": "where ?",
                                    "answers": {"text": ["new york"], "answer_start": [context.index("new york")]}}])
    enc = task.encode(examples, tokenizer, max_length=32, label2id={}, doc_stride=8)
    assert len(enc) > 1 and "token_type_ids" not in enc.column_names
    batch = task.collate([enc[i] for i in range(len(enc))], tokenizer.pad_token_id)
    model(**model_inputs(batch))  # raised IndexError: index out of range in self


def test_type_ids_follow_the_model_config(xlmr, tiny, tmp_path):
    """A tokenizer that lists token_type_ids for a one-type model loses them; a BERT keeps them."""
    import json

    from bertstudio.tasks.model import load_tokenizer

    assert "token_type_ids" in load_tokenizer(tiny).model_input_names
    folder = tmp_path / "m"
    shutil.copytree(xlmr, folder)
    config = json.loads((folder / "tokenizer_config.json").read_text())
    (folder / "tokenizer_config.json").write_text(json.dumps(
        {**config, "model_input_names": ["input_ids", "token_type_ids", "attention_mask"]}))
    assert "token_type_ids" not in load_tokenizer(folder).model_input_names


def test_a_span_starting_or_ending_on_whitespace_is_trimmed():
    """Metaspace tokenizers (DeBERTa-v3) give ▁story the offsets of " story": the answer began
    with a space and its start pointed at the space, in predict and in an export's predict.py."""
    from bertstudio.train.standalone_predict import _whole_words

    text = "The story comes from the AP news agency."
    start = text.index(" story")
    for decode in (whole_words, _whole_words):
        assert decode(text, start, start + len(" story comes")) == (start + 1, start + len(" story comes"))
        assert text[slice(*decode(text, start, start + len(" story ")))] == "story"
        assert text[slice(*decode(text, 3, 4))] == ""


@pytest.mark.parametrize("text, answer, piece", [
    ("मैं ठीक हूँ आज", "हूँ", "ह"),  # an uncased tokenizer strips the vowel signs: the piece ends before them
    ("वे बहुत खुश हैं आज", "बहुत", "त"),  # a vowel sign inside the word
    ("Un Cafe\u0301 noir", "Cafe\u0301", "Cafe"),  # NFD: the accent is a combining mark after the e
    ("می\u200cخواهم بروم", "می\u200cخواهم", "می"),  # Persian ZWNJ inside a word
])
def test_a_span_never_ends_before_a_combining_mark_or_inside_a_joined_word(text, answer, piece):
    """isalnum() is False for combining marks, so an answer ending in one (Hindi है, NFD é) was cut
    before it: EM 0 for a model that found the gold tokens. predict.py restates the rule."""
    from bertstudio.train.standalone_predict import _whole_words

    start = text.index(answer) + answer.index(piece)
    for decode in (whole_words, _whole_words):
        assert text[slice(*decode(text, start, start + len(piece)))] == answer


def test_a_mark_stays_with_a_thai_or_cjk_letter_that_stands_alone():
    from bertstudio.train.standalone_predict import _whole_words

    thai = "กี่ที"  # ก + U+0E35 (a vowel sign), then ที: Thai letters stand alone, their marks do not
    for decode in (whole_words, _whole_words):
        assert thai[slice(*decode(thai, 0, 1))] == "กี่"
        assert decode(thai, 0, 3) == (0, 3)


@pytest.mark.parametrize("value", ["true", 1, None, {}, [True]])
def test_a_null_answers_of_the_wrong_type_in_config_json_is_refused(tiny, tmp_path, capsys, value):
    """config.json's bertstudio.null_answers "true" (or 1, null, ...) was read as false without a
    word: a v2 model answered every question and export-onnx wrote false. Refused as labels.json's is."""
    import json

    from bertstudio.tasks.model import build_model, save_model
    from test_cli import run

    model, tokenizer = build_model("qa", tiny, labels=[])
    folder = save_model(model, tokenizer, tmp_path / "model")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["bertstudio"]["null_answers"] = value
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    capsys.readouterr()
    code, out, err = run(["predict", "--model", str(folder), "--question", "who", "--context", "the cat"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(folder / "config.json") in err and "bertstudio.null_answers" in err and repr(value) in err
