"""Predictor: one input at a time through the same task code as evaluation."""

from __future__ import annotations

import random

import pytest

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError
from bertstudio.tasks.model import build_model, save_model
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import evaluate, train
from bertstudio.train.predict import Predictor

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py


def tagging_rows(n: int, seed: int = 0):
    """City names are LOC, everything else O: learnable from the word alone."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        words = rng.sample(["the", "man", "dog", "was", "in", "at", "river", "book"], 4)
        pos = rng.randrange(5)
        words.insert(pos, rng.choice(["paris", "london", "france"]))
        rows.append({"tokens": words, "tags": ["B-LOC" if i == pos else "O" for i in range(5)]})
    return from_records("tagging", rows, labels=["O", "B-LOC"])


def test_tagging_learns_and_predicts_per_word(tiny, tmp_path):
    cfg = TrainConfig(task="tagging", model=tiny, epochs=15, batch_size=8, lr=5e-3, seed=0, max_length=32,
                      device="cpu", output_dir=str(tmp_path / "run"))
    result = train(cfg, tagging_rows(48), tagging_rows(16, seed=5))
    assert result.status == "finished", result.message
    assert result.metrics["f1"] > 0.9  # entity F1 on held-out rows; tagging all O scores 0

    p = Predictor.load(tmp_path / "run" / "model", device="cpu")
    words = ["the", "dog", "was", "in", "london"]
    out = p.predict(tokens=words)
    assert out["tags"] == ["O", "O", "O", "O", "B-LOC"]
    assert out["entities"] == [["LOC", 4, 5]]
    assert len(out["probs"]) == 5
    for tag, probs in zip(out["tags"], out["probs"]):
        assert max(probs, key=probs.get) == tag and sum(probs.values()) == pytest.approx(1.0, abs=1e-5)

    # the same input through evaluate() gives the same tags
    _, rows = evaluate(tmp_path / "run" / "model", from_records("tagging", [{"tokens": words}], labels=["O", "B-LOC"]))
    assert rows[0]["tags"] == out["tags"]

    # 100 words, past max_length 32: read in windows, every word tagged (the tail was "O" unseen)
    long = words * 20
    out = p.predict(tokens=long)
    assert out["tags"] == ["O", "O", "O", "O", "B-LOC"] * 20 and out["unpredicted_words"] == 0
    assert all(out["probs"]) and len(out["probs"]) == 100
    _, rows = evaluate(tmp_path / "run" / "model", from_records("tagging", [{"tokens": long}], labels=["O", "B-LOC"]))
    assert rows[0]["tags"] == out["tags"]


def test_qa_answer_is_a_span_of_the_context(tiny, tmp_path):
    model, tok = build_model("qa", tiny, labels=[])
    save_model(model, tok, tmp_path / "qa")
    p = Predictor.load(tmp_path / "qa", device="cpu")
    context = "the dog was in paris . the cat was in london ."
    out = p.predict(question="where was the cat", context=context)
    assert set(out) >= {"answer", "start", "score"}
    if out["start"] >= 0:
        assert context[out["start"]: out["start"] + len(out["answer"])] == out["answer"] and out["answer"]
    else:
        assert out["answer"] == ""


def test_regression_and_pair_predictions(tiny, tmp_path):
    model, tok = build_model("regression", tiny, labels=[])
    save_model(model, tok, tmp_path / "reg")
    out = Predictor.load(tmp_path / "reg", device="cpu").predict(text="a man", text_pair="a dog")
    assert isinstance(out["score"], float) and "loss" not in out

    model, tok = build_model("pair", tiny, labels=["entailment", "not_entailment"])
    save_model(model, tok, tmp_path / "pair")
    out = Predictor.load(tmp_path / "pair", device="cpu").predict(text="a man", text_pair="a dog")
    assert out["label"] in ("entailment", "not_entailment")
    assert sum(out["probs"].values()) == pytest.approx(1.0, abs=1e-6)
    assert out["confidence"] == pytest.approx(max(out["probs"].values()))


def test_missing_input_is_a_clear_error(tiny, tmp_path):
    model, tok = build_model("pair", tiny, labels=["a", "b"])
    save_model(model, tok, tmp_path / "pair")
    p = Predictor.load(tmp_path / "pair", device="cpu")
    with pytest.raises(ConfigError, match="needs text_pair"):
        p.predict(text="only one sentence")
    with pytest.raises(ConfigError, match="needs text_pair"):
        p.predict(text="one sentence", text_pair="   ")  # blank is no sentence ("" was refused, "   " predicted)


@pytest.mark.parametrize("given", [{"text_pair": "bad boring terrible"}, {"tokens": ["good"]},
                                   {"question": "why?", "context": "because"}])
def test_an_input_the_model_does_not_read_is_refused(given, tiny, tmp_path):
    """A sentence model given a second sentence predicted from the first alone, exit 0, as if it had read both."""
    model, tok = build_model("sentence", tiny, labels=["a", "b"])
    save_model(model, tok, tmp_path / "s")
    p = Predictor.load(tmp_path / "s", device="cpu")
    with pytest.raises(ConfigError, match="a sentence model does not read") as info:
        p.predict(text="good fun", **given)
    assert info.value.where == "input"
    assert set(p.predict(text="good fun")) >= {"label", "probs"}


@pytest.mark.parametrize(("kind", "head"), [("sentence", "embedding"), ("pair", "siamese")])
def test_a_cut_input_is_said_and_a_short_one_is_not(kind, head, tiny):
    """The Playground says when only the first max_length tokens were read (a siamese pair: its longer side)."""
    from bertstudio.tasks.embedding import build_embedding_classifier

    model, tokenizer, _ = build_embedding_classifier(kind, tiny, labels=["a", "b"], head=head)
    predictor = Predictor(model, tokenizer, kind, ["a", "b"],
                          lengths={"max_length": 16, "doc_stride": 8, "max_answer_length": 10})
    long = " ".join(["good film"] * 30)
    extra = {"text_pair": "short"} if kind == "pair" else {}
    cut = predictor.predict(text=long, **extra)["truncated"]
    assert cut["read"] == 16 and cut["of"] == len(tokenizer(long)["input_ids"])
    assert "truncated" not in predictor.predict(text="short", **extra)


def percent_rows(n: int, seed: int = 0):
    """Ratings on a 0-100 scale: 'great' rows about 80, 'awful' rows about 30."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        good = rng.random() < 0.5
        words = rng.sample(["the", "film", "was", "plot", "acting"], 3) + ["great" if good else "awful"]
        rows.append({"text": " ".join(words), "label": (80.0 if good else 30.0) + rng.uniform(-5, 5)})
    return from_records("regression", rows)


@pytest.mark.parametrize("head", ["linear", "mlp"])
def test_scores_far_from_0_are_predicted_on_their_own_scale(head, tiny, tmp_path):
    """0-100 ratings: the linear and MLP heads started near 0 and, after the BERT recipe's few steps,
    predicted 0.02-0.05 for every row (mse 4259). The head starts on the training scores' scale,
    as plain weights, so evaluation, the saved model and its predictions agree on it."""
    train_rows, dev = percent_rows(32), percent_rows(16, seed=1)
    cfg = TrainConfig(task="regression", model=tiny, head=head, epochs=1, batch_size=16, lr=1e-5, seed=0,
                      max_length=16, device="cpu", output_dir=str(tmp_path / "run"))
    result = train(cfg, train_rows, dev)
    assert result.status == "finished", result.message
    gold = dev.dataset["label"]
    variance = sum((g - sum(gold) / len(gold)) ** 2 for g in gold) / len(gold)
    assert result.metrics["mse"] < 1.5 * variance  # about the mean at least (near 0: mse 3500, variance 600)
    p = Predictor.load(tmp_path / "run" / "model", device="cpu")
    scores = [p.predict(text=t)["score"] for t in dev.dataset["text"]]
    assert 40 < sum(scores) / len(scores) < 70
    _, predictions = evaluate(tmp_path / "run" / "model", dev, precision="fp32")  # the Predictor's exact path
    assert [r["score"] for r in predictions] == pytest.approx(scores, rel=1e-4)


def test_a_fresh_score_head_starts_at_the_scores_mean_and_spread(tiny):
    import torch

    from bertstudio.tasks.model import start_at_scores

    model, _ = build_model("regression", tiny, labels=[], head="mlp")
    before = model.classifier.weight.detach().clone()
    assert start_at_scores(model, [10.0, 50.0, 90.0, None])  # an unscored row is not counted
    spread = torch.tensor([10.0, 50.0, 90.0]).std(correction=0)
    assert torch.allclose(model.classifier.weight, before * spread) and float(model.classifier.bias) == 50.0
    assert not start_at_scores(model, [])


@pytest.mark.parametrize("mode", ["full", "lora"])
def test_a_score_head_the_base_model_holds_is_never_reset(mode, tiny, tmp_path):
    """A base model with a trained score head (an STS-B cross-encoder, a run's own model folder)
    lost that head before step 1: it was started on the new scores' scale like a fresh one."""
    import torch

    from bertstudio.tasks.model import start_at_scores

    model, tokenizer = build_model("regression", tiny, labels=[])
    with torch.no_grad():
        model.classifier.weight.fill_(0.7)
        model.classifier.bias.fill_(3.3)
    model.save_pretrained(tmp_path / "sts")
    tokenizer.save_pretrained(tmp_path / "sts")
    again, _ = build_model("regression", str(tmp_path / "sts"), labels=[], mode=mode)
    assert not start_at_scores(again, [10.0, 50.0, 90.0])
    head = again.get_base_model().classifier if mode == "lora" else again.classifier
    layer = head.modules_to_save["default"] if hasattr(head, "modules_to_save") else head
    assert float(layer.bias) == pytest.approx(3.3) and torch.allclose(layer.weight, torch.full_like(layer.weight, 0.7))
    fresh, _ = build_model("regression", tiny, labels=[], mode=mode)  # the tiny encoder holds no head: started
    assert start_at_scores(fresh, [10.0, 50.0, 90.0])


def _train_scores(tiny, out, pairs: bool | str):
    """``pairs``: every row has a second text (True), none (False), or two of the eight ("some")."""
    rows = [{"text": f"the film was {w}", **({"text_pair": f"a {w} movie"} if pairs is True or (pairs == "some" and i < 2)
                                              else {}), "label": float(i % 5)}
            for i, w in enumerate(["good", "bad", "great", "dull", "fun", "long", "short", "odd"])]
    cfg = TrainConfig(task="regression", model=tiny, epochs=1, batch_size=8, max_length=16, device="cpu",
                      precision="fp32", output_dir=str(out))
    assert train(cfg, from_records("regression", rows), None).status == "finished"
    return out / "model"


def test_a_score_model_reads_one_text_or_two_as_its_training_rows_had(tiny, tmp_path):
    """A one-text rating model scored a pair it never saw, and a pair-trained (linear) STS model one
    sentence, each without a word: the model keeps whether its rows had a second text, and reads so."""
    import json

    single = _train_scores(tiny, tmp_path / "single", pairs=False)
    assert json.loads((single / "config.json").read_text())["bertstudio"]["pairs"] == "none"
    p = Predictor.load(single, device="cpu")
    assert isinstance(p.predict(text="the film was good")["score"], float)
    with pytest.raises(ConfigError, match="trained on single texts does not read text_pair") as info:
        p.predict(text="the film was good", text_pair="a good movie")
    assert info.value.where == "input"

    paired = _train_scores(tiny, tmp_path / "paired", pairs=True)
    assert json.loads((paired / "config.json").read_text())["bertstudio"]["pairs"] == "all"
    p = Predictor.load(paired, device="cpu")
    assert isinstance(p.predict(text="the film was good", text_pair="a good movie")["score"], float)
    with pytest.raises(ConfigError, match="a regression model that reads sentence pairs needs text_pair"):
        p.predict(text="the film was good")

    # a model saved before the fact was kept reads both ways, as before
    config = json.loads((single / "config.json").read_text())
    del config["bertstudio"]["pairs"]
    (single / "config.json").write_text(json.dumps(config))
    p = Predictor.load(single, device="cpu")
    assert {"score"} <= set(p.predict(text="a", text_pair="b")) and {"score"} <= set(p.predict(text="a"))


def test_a_score_model_trained_on_some_pairs_reads_one_text_or_two(tiny, tmp_path):
    """A score project of mostly single sentences with a few pairs gave a model that refused every
    single text ("needs text_pair"): the model keeps that only some rows had a second text, and
    reads either. Models that recorded a bool keep reading: true = all rows, false = none."""
    import json

    some = _train_scores(tiny, tmp_path / "some", pairs="some")
    assert json.loads((some / "config.json").read_text())["bertstudio"]["pairs"] == "some"
    p = Predictor.load(some, device="cpu")
    assert isinstance(p.predict(text="the film was good")["score"], float)
    assert isinstance(p.predict(text="the film was good", text_pair="a good movie")["score"], float)

    config = json.loads((some / "config.json").read_text())
    for recorded, refused, fragment in ((True, {"text": "a"}, "needs text_pair"),
                                        (False, {"text": "a", "text_pair": "b"}, "does not read text_pair")):
        (some / "config.json").write_text(json.dumps({**config, "bertstudio": {**config["bertstudio"], "pairs": recorded}}))
        with pytest.raises(ConfigError, match=fragment):
            Predictor.load(some, device="cpu").predict(**refused)


def test_a_context_past_the_training_window_limit_is_answered_one_chunk_at_a_time(tiny, tmp_path, monkeypatch):
    """A pasted 60,000-character context was refused by the Playground and `bertstudio predict` with
    "example 1: ... more than 1,000 windows (... or a larger max_length)", which neither can change,
    while predict.py answered. One input's windows run in chunks; a training set keeps its limit."""
    import torch

    from bertstudio.errors import DataError
    from bertstudio.tasks.model import task_for
    from bertstudio.train import predict as predict_module

    torch.manual_seed(0)
    model, tok = build_model("qa", tiny, labels=[], lengths={"max_length": 32, "doc_stride": 8, "max_answer_length": 10})
    save_model(model, tok, tmp_path / "qa")
    p = Predictor.load(tmp_path / "qa", device="cpu")
    context = "paris is in france . " * 5000  # 100,000 characters: about 1,300 windows of 32 tokens
    forwards = []
    real_collate = p.task.collate
    monkeypatch.setattr(p.task, "collate", lambda rows, pad: forwards.append(len(rows)) or real_collate(rows, pad))
    out = p.predict(question="where is paris", context=context)
    assert sum(forwards) > 1_000 and max(forwards) <= predict_module.CHUNK_ROWS
    assert out["start"] == -1 or context[out["start"]:out["start"] + len(out["answer"])] == out["answer"]
    # the same context as a training set's example is still refused, as before
    examples = from_records("qa", [{"id": "1", "question": "where is paris", "context": context,
                                    "answers": {"text": ["france"], "answer_start": [12]}}])
    with pytest.raises(DataError, match="more than 1,000"):
        task_for(model, "qa").encode(examples, tok, max_length=32, label2id={}, doc_stride=8)


def test_one_context_past_the_one_input_window_limit_is_refused_with_advice(tiny, tmp_path):
    """Lifting the 1,000-window limit for one typed input left none: a pasted 5 MB context became
    hundreds of thousands of windows, encoded in memory first and run for minutes. One input keeps a
    higher limit of its own, refused before any window exists, with advice the user can follow."""
    from bertstudio.errors import DataError
    from bertstudio.tasks.limits import MAX_WINDOWS_ONE_INPUT

    model, tok = build_model("qa", tiny, labels=[], lengths={"max_length": 32, "doc_stride": 8, "max_answer_length": 10})
    save_model(model, tok, tmp_path / "qa")
    p = Predictor.load(tmp_path / "qa", device="cpu")
    context = "paris is in france . " * 40_000  # 840,000 characters: about 28,000 windows of 32 tokens
    with pytest.raises(DataError, match="the context is too long to read at once: paste a shorter passage") as info:
        p.predict(question="where is paris", context=context)
    assert f"at most {MAX_WINDOWS_ONE_INPUT:,}" in str(info.value) and "max_length" not in str(info.value)


def test_typed_chinese_is_read_per_character_only_where_the_training_tokens_were():
    """北京是中国的首都 typed without spaces got one tag for the whole sentence (a teacher's sweep):
    Chinese NER data is mostly one token per character, but a word-segmented corpus (CTB) has
    words of several, so the model keeps which its training tokens were."""
    from types import SimpleNamespace

    from bertstudio.tasks.typed_words import cjk_words_in, read_words, record_cjk_words, saved_cjk_words, whole_cjk_words

    def tokens(*rows):
        return from_records("tagging", [{"tokens": r, "tags": ["O"] * len(r)} for r in rows], labels=["O"])

    chars, segmented = tokens(["北", "京", "很", "大"], ["in", "paris"]), tokens(["北京", "很", "大"])
    assert (cjk_words_in(chars), cjk_words_in(segmented), cjk_words_in(tokens(["in", "paris"]))) == ("chars", "words", None)
    model = SimpleNamespace(config=SimpleNamespace(bertstudio={"pairs": "none"}))
    record_cjk_words(model, chars)
    assert model.config.bertstudio == {"pairs": "none", "cjk_words": "chars"} and saved_cjk_words(model.config) == "chars"
    assert saved_cjk_words({"bertstudio": {"cjk_words": "junk"}}) is None  # a damaged value reads as unknown
    typed = "北京是中国的首都 iPhone手机 ok"
    assert read_words(typed, "chars") == list("北京是中国的首都") + ["iPhone", "手", "机", "ok"]
    for unknown_or_words in (None, "words"):
        words = read_words(typed, unknown_or_words)
        assert words == ["北京是中国的首都", "iPhone手机", "ok"] and whole_cjk_words(words) == words[:2]


def test_typed_chinese_next_to_digits_or_letters_is_read_as_bert_cuts_it():
    """在2008年 and 北a京b were one word and one tag, with no note, for a model trained one
    character per word (sweep_today51 defect 3): BERT's BasicTokenizer cuts every ideograph out
    (北京2008 -> 北, 京, 2008), and where the model's words are unknown the note names them."""
    from bertstudio.tasks.typed_words import cjk_words_in, read_words, whole_cjk_words

    assert read_words("在2008年 北a京b 中国人a", "chars") == ["在", "2008", "年", "北", "a", "京", "b", "中", "国", "人", "a"]
    assert read_words("我 2008年 去 ok", "chars") == ["我", "2008", "年", "去", "ok"]
    for unknown_or_words in (None, "words"):
        words = read_words("在2008年 北a京b 我 ok 2008", unknown_or_words)
        assert whole_cjk_words(words) == ["在2008年", "北a京b"]  # a lone ideograph or no ideograph: nothing to say
    # a training token of an ideograph with digits was learnt whole: typed text is not cut per character
    mixed = from_records("tagging", [{"tokens": ["在", "2008年"], "tags": ["O", "O"]}], labels=["O"])
    assert cjk_words_in(mixed) == "words"
