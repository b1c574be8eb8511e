"""Small data trains well (issue #13 item 5): the embedding and siamese heads as run models,
the linear-probe start, SetFit as a run method, the head's own learning rate, the modes'
defaults and the automatic small-data choice (train/small_data.py)."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest
import torch

from bertstudio.cli import main
from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError
from bertstudio.tasks.model import load_model, saved_model_info
from bertstudio.train import small_data
from bertstudio.train.config import PROBE_HEAD_LR, TrainConfig
from bertstudio.train.engine import build_parts, evaluate, train
from bertstudio.train.optim import make_optimizer
from bertstudio.train.predict import Predictor
from bertstudio.train.rundir import saved_config
from tests.helpers import sentiment_records


def pair_records(n: int) -> list[dict]:
    rows = []
    for i in range(n):
        same = i % 2 == 0
        a = ["good", "great", "fun", "best"][i % 4]
        b = a if same else ["bad", "worst", "boring", "terrible"][i % 4]
        rows.append({"text": f"the movie was {a}", "text_pair": f"the film was {b}", "label": "same" if same else "diff"})
    return rows


def small_config(tiny: str, tmp_path, **kw) -> TrainConfig:
    base = dict(model=tiny, epochs=2, batch_size=8, lr=1e-3, max_length=32, logging_steps=1, device="cpu",
                precision="fp32", output_dir=str(tmp_path / "run"), seed=0)
    base.update(kw)
    return TrainConfig(**base)


@pytest.mark.parametrize("kind,head,records", [("sentence", "embedding", sentiment_records(24)),
                                               ("pair", "siamese", pair_records(24))])
def test_an_embedding_head_run_saves_a_model_that_evaluate_and_predict_read_back(tiny, tmp_path, one_thread, kind, head,
                                                                                  records):
    train_set = from_records(kind, records)
    result = train(small_config(tiny, tmp_path, task=kind, head=head), train_set, from_records(kind, records[:8]))
    assert result.status == "finished", result.message
    model_dir = tmp_path / "run" / "model"
    assert saved_model_info(model_dir)[:2] == (kind, train_set.labels)
    model, _tok, loaded_kind, labels = load_model(model_dir)
    assert loaded_kind == kind and model.siamese == (head == "siamese")
    metrics, rows = evaluate(model_dir, from_records(kind, records[:8]))
    assert metrics["accuracy"] == pytest.approx(result.metrics["accuracy"])  # the run's own evaluation, read back
    predictor = Predictor.load(model_dir, device="cpu")
    first = records[0]
    got = predictor.predict(text=first["text"], text_pair=first.get("text_pair"))
    assert got["label"] == rows[0]["label"]  # one example predicted as the whole set's evaluation did
    assert not any(p.suffix in (".pkl", ".bin") for p in model_dir.rglob("*"))


def test_the_embedding_head_starts_from_the_frozen_encoders_logistic_regression(tiny, tmp_path, one_thread):
    """Linear probe, then fine-tune: before step 1 the head already separates what the frozen
    vectors separate (a fresh random layer would sit near chance)."""
    from bertstudio.train.probe import probe_head

    records = sentiment_records(40)
    train_set = from_records("sentence", records)
    config = small_config(tiny, tmp_path, head="embedding")
    parts = build_parts(config, train_set.labels)
    fresh = parts.model.classifier.weight.detach().clone()
    assert probe_head(parts, train_set, config)
    assert not torch.equal(fresh, parts.model.classifier.weight)
    enc = parts.task.encode(train_set, parts.tokenizer, max_length=32,
                            label2id={name: i for i, name in enumerate(parts.labels)})
    batch = parts.task.collate([enc[i] for i in range(len(enc))], 0)
    with torch.no_grad():
        logits = parts.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
    accuracy = float((logits.argmax(-1) == batch["labels"]).float().mean())
    assert accuracy >= 0.9


def test_a_probe_started_run_is_evaluated_before_step_1_and_kept_if_tuning_never_beats_it(tiny, tmp_path, one_thread):
    """The probe is already a model: on a few RTE / MRPC pairs the tuned encoder drifted below it
    and the saved model was worse than the probe it started from. Now step 0 is evaluated, so a
    run whose tuning only ever loses (a learning rate that wrecks the encoder) saves the probe."""
    from bertstudio.train.events import Evaluated

    records = sentiment_records(40)
    evaluations: list = []
    result = train(small_config(tiny, tmp_path, head="embedding", lr=0.9, head_lr=0.9, epochs=1, warmup_ratio=0.0),
                   from_records("sentence", records), from_records("sentence", records),
                   callbacks=[lambda event, _c: evaluations.append(event) if isinstance(event, Evaluated) else None])
    assert result.status == "finished", result.message
    assert evaluations[0].step == 0 and evaluations[0].metrics["accuracy"] >= 0.9  # the probe, as the test above
    assert max(e.metrics["accuracy"] for e in evaluations[1:]) < evaluations[0].metrics["accuracy"]
    metrics, _rows = evaluate(tmp_path / "run" / "model", from_records("sentence", records))
    assert metrics["accuracy"] == pytest.approx(evaluations[0].metrics["accuracy"])  # what was saved: the probe


def test_a_pair_score_head_starts_from_the_cosine_of_unit_vectors() -> None:
    """A ridge over (u, v, |u-v|, u*v) of 30 pairs in 64 dimensions does not find the cosine the
    scores follow; the cosine-started head gives it back (and is the cosine's scaled sum)."""
    from bertstudio.train.probe import fit_cosine_ridge, fit_ridge
    from bertstudio.tasks.embedding import pair_features

    rng = np.random.default_rng(0)
    dim = 64

    def unit(a: np.ndarray) -> np.ndarray:
        return a / np.linalg.norm(a, axis=1, keepdims=True)

    def pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
        u = unit(rng.normal(size=(n, dim)))
        v = unit(u + rng.normal(scale=rng.uniform(0.2, 2.0, size=(n, 1)), size=(n, dim)))
        cos = (u * v).sum(1)
        return pair_features(u, v), 5 * cos - 0.5 + rng.normal(scale=0.1, size=n)

    X, y = pairs(30)
    Xt, yt = pairs(400)
    head = fit_cosine_ridge(X, y, dim)
    plain = fit_ridge(X, y)
    score = np.corrcoef(head.predict_proba(Xt)[:, 0], yt)[0, 1]
    assert score > 0.95 and score > np.corrcoef(plain.predict_proba(Xt)[:, 0], yt)[0, 1] + 0.05
    assert fit_cosine_ridge(X[:1], y[:1], dim) is None


def test_setfit_is_a_run_method_its_phase_shows_progress(tiny, tmp_path, one_thread):
    events = []
    records = sentiment_records(16)
    config = small_config(tiny, tmp_path, head="embedding", method="setfit", mode="frozen")
    result = train(config, from_records("sentence", records), from_records("sentence", records[:8]),
                   callbacks=[lambda ev, control=None: events.append(ev)])
    assert result.status == "finished", result.message
    setfit = [e for e in events if getattr(e, "phase", "") == "setfit"]
    assert setfit and setfit[-1].done == setfit[-1].total > 0
    assert any(getattr(e, "phase", "") == "probing" for e in events)
    assert saved_config(tmp_path / "run").method == "setfit"
    # the loop trained only the head (mode frozen), SetFit's phase changed the encoder before it
    from transformers import AutoModel

    trained = load_model(tmp_path / "run" / "model")[0].encoder.embeddings.word_embeddings.weight
    assert not torch.equal(trained, AutoModel.from_pretrained(tiny).embeddings.word_embeddings.weight)


def test_a_frozen_encoders_head_learns_at_its_own_rate():
    from transformers import BertConfig, BertForSequenceClassification

    model = BertForSequenceClassification(BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1,
                                                     num_attention_heads=2, intermediate_size=32))
    config = TrainConfig(mode="frozen")
    assert config.head_learning_rate == PROBE_HEAD_LR and TrainConfig().head_learning_rate == TrainConfig().lr
    assert TrainConfig(mode="top-2", lr=2e-5).head_learning_rate == PROBE_HEAD_LR
    assert TrainConfig(mode="frozen", head_lr=0.01).head_learning_rate == 0.01
    opt = make_optimizer(model, lr=5e-5, weight_decay=0.01, device="cpu", head_lr=1e-3)
    scales = {}
    names = {id(p): n for n, p in model.named_parameters()}
    for group in opt.param_groups:
        for p in group["params"]:
            scales[names[id(p)]] = group["lr_scale"]
    assert scales["classifier.weight"] == scales["bert.pooler.dense.weight"] == pytest.approx(20.0)
    assert scales["bert.encoder.layer.0.attention.self.query.weight"] == 1.0


@pytest.mark.parametrize("mode,shown", [("frozen", 1e-2), ("full", 1e-4)])
def test_the_logged_learning_rate_is_the_one_the_learning_weights_get(tiny, tmp_path, one_thread, mode, shown):
    """A frozen run's curve showed the encoder's rate, which nothing used; the head learned at its own."""
    from bertstudio.train.events import StepLogged

    steps: list = []
    config = small_config(tiny, tmp_path, mode=mode, lr=1e-4, head_lr=1e-2, warmup_ratio=0.0, epochs=1)
    records = sentiment_records(16)
    result = train(config, from_records("sentence", records), None,
                   callbacks=[lambda e, *_: steps.append(e) if isinstance(e, StepLogged) else None])
    assert result.status == "finished", result.message
    first = steps[0]
    assert first.lr == pytest.approx(shown)  # step 1 of a linear decay without warm-up: the full rate


@pytest.mark.parametrize("kw,message", [
    (dict(task="sentence", head="siamese"), "siamese"),
    (dict(task="tagging", head="embedding"), "embedding"),
    (dict(task="qa", head="mlp"), "mlp head predicts one value per example"),  # was built linear, recorded mlp
    (dict(task="tagging", head="mlp"), "mlp head"),
    (dict(task="sentence", head="embedding", mode="lora"), "LoRA"),
    (dict(task="pair", head="siamese", method="setfit"), "SetFit"),
    (dict(seeds=3, resume_from="/r/checkpoints/last"), "resumed run continues one seed"),
])
def test_heads_and_methods_that_do_not_fit_are_refused(kw, message):
    with pytest.raises(ConfigError, match=message):
        TrainConfig(**kw)


def test_each_kind_offers_the_heads_it_can_train():
    from bertstudio.train.config import heads_for

    assert heads_for("qa") == heads_for("tagging") == ("linear",)
    assert heads_for("sentence") == ("linear", "mlp", "embedding")
    assert heads_for("pair") == heads_for("regression") == ("linear", "mlp", "embedding", "siamese")
    for kind in ("sentence", "pair", "regression", "tagging", "qa"):
        for head in heads_for(kind):
            TrainConfig(task=kind, head=head, labels=None)  # each one offered is accepted


def test_small_sentence_sets_get_setfit_and_say_why():
    config = small_data.adapt(TrainConfig(), Counter(neg=48, pos=48), sentence_transformer=True)
    assert (config.method, config.head, config.mode) == ("setfit", "embedding", "frozen")
    assert config.auto_reason.startswith("96 labelled rows (at most 48 per class): SetFit")


def test_the_share_of_rows_with_a_second_text_is_none_some_or_all():
    """A model recorded "had pairs" when any row had one, and then refused every single text: the
    share says none, some or all of the labelled rows (an unlabelled row's pair does not count)."""
    def rows(pair_of):
        return from_records("regression", [{"text": f"film {i}", "text_pair": pair_of(i),
                                             "label": float(i) if i < 4 else None} for i in range(6)])

    assert small_data.has_pairs(rows(lambda i: " " if i == 1 else ""), share=True) == "none"
    assert small_data.has_pairs(rows(lambda i: "a film" if i == 2 else ""), share=True) == "some"
    assert small_data.has_pairs(rows(lambda i: "a film" if i < 4 else ""), share=True) == "all"
    assert small_data.has_pairs(from_records("regression", [{"text": "a", "label": 1.0}]), share=True) == "none"


def test_scored_single_sentences_get_the_one_text_embedding_head():
    """Automatic read 30 scored sentences (no second text) with the siamese head, and the trained
    model then refused every prediction without a text_pair: the head follows the rows."""
    sentences = from_records("regression", [{"text": f"film {i}", "label": float(i)} for i in range(20)])
    pairs = from_records("regression", [{"text": f"film {i}", "text_pair": "a film" if i == 3 else "",
                                         "label": float(i)} for i in range(20)])
    assert not small_data.has_pairs(sentences) and small_data.has_pairs(pairs)
    chosen = small_data.adapt_to_rows(TrainConfig(task="regression"), sentences, sentence_transformer=True)
    assert chosen.head == "embedding" and chosen.keep_tuning == 1
    assert chosen.auto_reason.startswith("20 scored sentences: a linear head on the sentence embedding")
    assert "ridge regression" in chosen.auto_reason and "pairs" not in chosen.auto_reason
    assert small_data.adapt_to_rows(TrainConfig(task="regression"), pairs, sentence_transformer=True).head == "siamese"
    # a frozen encoder on scored sentences keeps its one-text head (the siamese one is for pairs)
    frozen = dict(given={"mode"}, sentence_transformer=True)
    config = TrainConfig(task="regression", mode="frozen")
    assert small_data.adapt(config, Counter(rows=5000), pairs=True, **frozen).head == "siamese"
    assert small_data.adapt(config, Counter(rows=5000), pairs=False, **frozen).head == "linear"
    # a pair classification kind always has its second text: unchanged
    assert small_data.sentence_head("pair", False) == "siamese"


def test_beyond_setfit_and_for_pairs_the_probe_started_embedding_head():
    sentence = small_data.adapt(TrainConfig(), Counter(a=300, b=100), sentence_transformer=True)
    assert (sentence.head, sentence.method, sentence.lr, sentence.batch_size) == ("embedding", "finetune", 3e-5, 16)
    assert sentence.epochs * np.ceil(400 / 16) >= small_data.MIN_STEPS
    pair = small_data.adapt(TrainConfig(task="pair"), Counter(a=10, b=10), sentence_transformer=True)
    assert pair.head == "siamese" and "siamese" in pair.auto_reason and "logistic regression" in pair.auto_reason
    # scores are fitted by a ridge regression (train/probe.py), and the reason said "logistic regression"
    scores = small_data.adapt(TrainConfig(task="regression"), Counter(rows=20), sentence_transformer=True)
    assert scores.head == "siamese" and scores.auto_reason.startswith("20 scored pairs: a linear head on the siamese")
    assert "ridge regression" in scores.auto_reason and "logistic" not in scores.auto_reason
    # pairs and scores keep half of what their fine-tuning changed (WiSE-FT) and say so; single
    # sentences keep it all (measured), SetFit's head and a frozen encoder have no fine-tuning to
    # mix back, and a given share wins
    for chosen in (pair, scores):
        assert chosen.keep_tuning == small_data.SMALL_KEEP == 0.5 and "weights keep 50% of what that training" in chosen.auto_reason
    assert sentence.keep_tuning == 1 and "WiSE" not in sentence.auto_reason
    assert small_data.adapt(TrainConfig(), Counter(a=10, b=10), sentence_transformer=True).keep_tuning == 1
    frozen = small_data.adapt(TrainConfig(task="pair", mode="frozen"), Counter(a=10, b=10), given={"mode"},
                              sentence_transformer=True)
    assert frozen.keep_tuning == 1 and "WiSE" not in frozen.auto_reason
    # with evaluations and save_best, an earlier evaluation's weights may be the ones kept: said
    assert "an earlier evaluation that scores higher keeps its weights instead" in pair.auto_reason
    unevaluated = small_data.adapt(TrainConfig(task="pair"), Counter(a=10, b=10), sentence_transformer=True,
                                   evaluates=False)
    assert "WiSE-FT" in unevaluated.auto_reason and "earlier evaluation" not in unevaluated.auto_reason
    given = small_data.adapt(TrainConfig(task="pair", keep_tuning=0.8), Counter(a=10, b=10), given={"keep_tuning"},
                             sentence_transformer=True)
    assert given.keep_tuning == 0.8 and given.head == "siamese" and "WiSE" not in given.auto_reason


def test_other_small_sets_get_enough_steps_and_large_sets_keep_the_recipe():
    tagging = small_data.adapt(TrainConfig(task="tagging"), Counter(rows=40), sentence_transformer=True)
    assert tagging.head == "linear" and tagging.batch_size == 16 and tagging.epochs * 3 >= small_data.MIN_STEPS
    plain = small_data.adapt(TrainConfig(), Counter(a=20, b=20), sentence_transformer=False)
    assert plain.head == "linear" and plain.method == "finetune" and plain.epochs == 50  # 3 batches per epoch
    big = TrainConfig()
    assert small_data.adapt(big, Counter(a=5000, b=5000), sentence_transformer=True) is big


def test_the_users_settings_win_and_the_modes_get_their_defaults():
    given = small_data.adapt(TrainConfig(epochs=4), Counter(a=10, b=10), given={"epochs"}, sentence_transformer=True)
    assert (given.method, given.head, given.epochs, given.auto_reason) == ("finetune", "linear", 4, None)
    lora = small_data.adapt(TrainConfig(mode="lora"), Counter(a=5000, b=5000), given={"mode"}, sentence_transformer=True)
    assert lora.lr == small_data.LORA_LR and "LoRA" in lora.auto_reason
    kept = small_data.adapt(TrainConfig(mode="lora", lr=1e-4), Counter(a=5000, b=5000), given={"mode", "lr"})
    assert kept.lr == 1e-4
    frozen = small_data.adapt(TrainConfig(task="pair", mode="frozen"), Counter(a=5000, b=5000), given={"mode"},
                              sentence_transformer=True)
    assert frozen.head == "siamese" and "siamese" in frozen.auto_reason
    assert small_data.adapt(TrainConfig(task="pair", mode="frozen"), Counter(a=5000, b=5000), given={"mode"},
                            sentence_transformer=False).head == "linear"


def test_the_cli_chooses_when_no_hyperparameter_is_given_and_records_why(tiny, tmp_path, monkeypatch, one_thread):
    """A tiny sentence-transformer (modules.json names its Pooling) and 24 labels: SetFit is
    chosen, the run's config.toml says so; one hyperparameter flag keeps the recipe."""
    import shutil

    st = tmp_path / "st"
    shutil.copytree(tiny, st)
    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    (st / "1_Pooling").mkdir()
    (st / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 32,
                                                               "pooling_mode_mean_tokens": True}))
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in sentiment_records(24)))
    monkeypatch.setattr(small_data, "HEAD_STEPS", 3)
    monkeypatch.setattr("bertstudio.train.setfit_phase.SETFIT_MAX_STEPS", 4)
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", str(st),
               "--out", str(tmp_path / "auto"), "--max-length", "32", "--device", "cpu"])
    assert rc == 0
    auto = saved_config(tmp_path / "auto")
    assert auto.method == "setfit" and auto.head == "embedding" and "SetFit" in auto.auto_reason
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", str(st),
               "--out", str(tmp_path / "recipe"), "--max-length", "32", "--epochs", "1", "--device", "cpu"])
    assert rc == 0
    recipe = saved_config(tmp_path / "recipe")
    assert (recipe.method, recipe.head, recipe.auto_reason) == ("finetune", "linear", None)


def test_embedding_and_siamese_head_models_export_to_onnx_and_predict_as_in_pytorch(tiny, tmp_path, one_thread):
    from bertstudio.train.onnx_export import evaluate_onnx, export_onnx

    records = sentiment_records(24)
    result = train(small_config(tiny, tmp_path, head="embedding"), from_records("sentence", records))
    assert result.status == "finished", result.message
    exported = export_onnx(tmp_path / "run" / "model", tmp_path / "onnx", quantize=False)
    assert exported.max_abs_diff < 1e-3
    dev = from_records("sentence", records[:8])
    onnx_metrics, onnx_rows = evaluate_onnx(exported.fp32, dev)
    metrics, rows = evaluate(tmp_path / "run" / "model", dev)
    assert [r["label"] for r in onnx_rows] == [r["label"] for r in rows] and onnx_metrics == metrics

    pair = train(small_config(tiny, tmp_path, task="pair", head="siamese", output_dir=str(tmp_path / "pair")),
                 from_records("pair", pair_records(16)))
    assert pair.status == "finished", pair.message
    # the small-data default for pairs: each side read alone, exported as (batch, 2, sequence) inputs
    rc = main(["--quiet", "export-onnx", "--model", str(tmp_path / "pair" / "model"), "--out", str(tmp_path / "pair-onnx"),
               "--no-int8"])
    assert rc == 0
    pairs = from_records("pair", pair_records(8))
    onnx_metrics, onnx_rows = evaluate_onnx(tmp_path / "pair-onnx" / "model.onnx", pairs)
    metrics, rows = evaluate(tmp_path / "pair" / "model", pairs, precision="fp32")
    assert [r["label"] for r in onnx_rows] == [r["label"] for r in rows] and onnx_metrics == pytest.approx(metrics)
    for got, want in zip(onnx_rows, rows):
        assert got["probs"] == pytest.approx(want["probs"], abs=1e-4)


def test_several_seeds_run_as_one_job_with_mean_and_spread(tiny, tmp_path, one_thread, capsys):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in sentiment_records(24)))
    out = tmp_path / "job"
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", tiny,
               "--out", str(out), "--epochs", "1", "--batch-size", "8", "--max-length", "32", "--device", "cpu",
               "--seed", "5", "--seeds", "3"])
    assert rc == 0
    summary = json.loads((out / "seeds.json").read_text())
    assert sorted(summary["values"]) == ["5", "6", "7"] and summary["metric"] == "accuracy"
    values = [summary["values"][k] for k in ("5", "6", "7")]
    for seed, value in zip((5, 6, 7), values):
        run = json.loads((out / f"seed-{seed}" / "metrics.json").read_text())
        assert run["accuracy"] == value and saved_config(out / f"seed-{seed}").seed == seed
    assert summary["mean"] == pytest.approx(np.mean(values)) and summary["sd"] == pytest.approx(np.std(values, ddof=1))
    printed = capsys.readouterr().out
    assert "3 seeds: accuracy" in printed and "±" in printed
    # x100, as the "eval at step" lines above (they said "accuracy 50.00", the seed lines "accuracy 0.5000")
    for seed, value in zip((5, 6, 7), values):
        assert f"seed {seed}: accuracy {100 * value:.2f}  {out / f'seed-{seed}'}" in printed
    assert f"3 seeds: accuracy {100 * np.mean(values):.2f} ± {100 * np.std(values, ddof=1):.2f}" in printed
    # a folder holding the user's files is refused before anything trains; a second job needs --overwrite
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", tiny,
               "--out", str(out), "--epochs", "1", "--seeds", "2", "--device", "cpu"])
    assert rc == 2 and "overwrite" in capsys.readouterr().err
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", tiny,
               "--out", str(tmp_path / "mine"), "--epochs", "1", "--seeds", "2", "--overwrite", "--device", "cpu"])
    assert rc == 2 and (tmp_path / "mine" / "notes.txt").read_text() == "keep"
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes.txt"]
    # --overwrite over the earlier job: a file of the user's in a later seed's folder is found before
    # any seed trains (it was found after seeds 5 and 6 had trained, and replaced their runs)
    (out / "seed-7" / "model" / "my-notes.txt").write_text("keep")
    before = {p.name: p.stat().st_mtime_ns for p in (out / "seed-5").iterdir()}
    capsys.readouterr()
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", tiny,
               "--out", str(out), "--epochs", "1", "--seed", "5", "--seeds", "3", "--overwrite", "--device", "cpu"])
    err = capsys.readouterr().err
    assert rc == 2 and "my-notes.txt" in err and len(err.strip().splitlines()) == 1, err
    assert {p.name: p.stat().st_mtime_ns for p in (out / "seed-5").iterdir()} == before  # seed 5 untouched


def test_qa_steps_and_epochs_count_the_windows_the_contexts_become(bundled_model_dir, shared_data):
    """SQuAD questions at max length 128 train as 1.5-5 windows each: counted as rows, the
    Automatic choice gave 31 questions that made 163 windows 75 epochs, 825 steps for its 150
    (and an ETA of two hours)."""
    from transformers import AutoTokenizer

    from bertstudio.data.io import load_examples
    from bertstudio.tasks.qa import QuestionAnsweringTask

    examples = load_examples(shared_data / "squad/dev-v1.1-articles-00-35.json").head(200)
    config = TrainConfig(task="qa", max_length=128)
    tokenizer = AutoTokenizer.from_pretrained(str(bundled_model_dir))
    for length in (128, 384):
        real = len(QuestionAnsweringTask().encode(examples, tokenizer, max_length=length, label2id={}, doc_stride=128))
        guessed = small_data.training_units(examples, TrainConfig(task="qa", max_length=length))
        assert abs(guessed - real) <= 0.2 * real, (length, guessed, real)  # a guess from word counts, no tokenizer
    units = small_data.training_units(examples, config)
    assert units > 1.4 * 200  # 298 windows (the tokenizer's count)
    chosen = small_data.adapt(config, small_data.label_counts(examples), units=units)
    steps = math.ceil(units / chosen.batch_size) * chosen.epochs
    assert small_data.MIN_STEPS <= steps < 1.5 * small_data.MIN_STEPS
    assert f"200 labelled questions, about {units} windows of 128 tokens" in chosen.auto_reason
    sentences = from_records("sentence", sentiment_records(40), labels=["neg", "pos"])
    assert small_data.training_units(sentences, TrainConfig()) == 40


def test_the_time_estimate_of_qa_counts_windows_of_max_length_tokens():
    from bertstudio.train.estimate import Throughput, estimate

    rate = Throughput(100.0, "history", 14.3)
    config = TrainConfig(task="qa", max_length=128, epochs=1, batch_size=16)
    rows_only = estimate(config, 31, rate).phases["train"]
    windows = estimate(config, 160, rate, tokens=config.max_length).phases["train"]
    assert windows > 30 * rows_only  # 5x the examples, each ~9x the tokens of the timed ones


def test_a_chosen_run_of_many_short_epochs_evaluates_ten_times_not_every_epoch():
    """32 labels with 800 evaluation rows: SetFit's head phase ran 25 epochs of 2 steps and
    evaluated the 800 rows after each, so evaluating took most of the run (a benchmark run of
    ChnSentiCorp at max length 256 spent its time in predict_batches)."""
    config = small_data.adapt(TrainConfig(), Counter(a=16, b=16), sentence_transformer=True)
    steps = config.epochs * 2  # 32 rows in batches of 16
    assert config.epochs == 25 and config.eval_steps == 5 and steps // config.eval_steps == small_data.MAX_EVALS
    assert "evaluated every 5 steps (10 times), not after each of 25 short epochs" in config.auto_reason
    given = small_data.adapt(TrainConfig(eval_steps=7), Counter(a=16, b=16), sentence_transformer=True, given={"eval_steps"})
    assert given.eval_steps == 7 and "evaluated every" not in given.auto_reason
    alone = small_data.adapt(TrainConfig(), Counter(a=16, b=16), sentence_transformer=True, evaluates=False)
    assert alone.eval_steps is None and "evaluated" not in alone.auto_reason  # no evaluation rows: nothing to say
    few = small_data.adapt(TrainConfig(), Counter(a=300, b=300), sentence_transformer=True)
    assert few.epochs <= small_data.MAX_EVALS and few.eval_steps is None  # every epoch, as before


def test_a_small_set_of_long_texts_gets_a_max_length_that_reads_them():
    """ChnSentiCorp reviews (30% of them over 128 tokens): SetFit on 32 labels scored 0.561 cut
    at 128 tokens and 0.633 at 256, where the frozen encoder's logistic regression, reading 256,
    scores 0.618. A small set's max length now covers 95% of its texts, within the model's limit."""
    from bertstudio.data.examples import from_records

    long_text = "字" * 200  # one token per CJK character
    rows = [{"text": long_text if i % 4 else "短评", "label": "pos" if i % 2 else "neg"} for i in range(32)]
    examples = from_records("sentence", rows, labels=["neg", "pos"])
    lengths = small_data.text_lengths(examples)
    assert sorted(set(lengths.tolist())) == [4.0, 202.0]  # [CLS] and [SEP] counted
    counts = small_data.label_counts(examples)
    chosen = small_data.adapt(TrainConfig(), counts, sentence_transformer=True, lengths=lengths, model_limit=256)
    assert chosen.max_length == 224 and "95% of the texts fit in 202 tokens: max length 224" in chosen.auto_reason
    assert small_data.adapt(TrainConfig(), counts, sentence_transformer=True, lengths=lengths, model_limit=128).max_length == 128
    typed = small_data.adapt(TrainConfig(max_length=64), counts, sentence_transformer=True, lengths=lengths,
                             model_limit=256, given={"max_length"})
    assert typed.max_length == 64 and "max length" not in typed.auto_reason
    short = from_records("sentence", [{"text": "a fine film", "label": "pos"}, {"text": "dull", "label": "neg"}] * 8,
                         labels=["neg", "pos"])
    assert small_data.adapt(TrainConfig(), small_data.label_counts(short), sentence_transformer=True,
                            lengths=small_data.text_lengths(short), model_limit=256).max_length == 128
    pairs = from_records("pair", [{"text": "a b c", "text_pair": "d e", "label": "x"}], labels=["x", "y"])
    joined, alone = small_data.text_lengths(pairs)[0]
    assert (joined, alone) == (pytest.approx(3 * 1.3 + 2 * 1.3 + 3), pytest.approx(3 * 1.3 + 2))
    # a siamese head reads each text alone: two 100-token texts need 128, not the 224 they make joined
    long_pairs = from_records("pair", [{"text": "字" * 100, "text_pair": "字" * 100, "label": v} for v in "xy" * 4],
                              labels=["x", "y"])
    lengths = small_data.text_lengths(long_pairs)
    pair_counts = small_data.label_counts(long_pairs)
    siamese = small_data.adapt(TrainConfig(task="pair"), pair_counts, sentence_transformer=True, lengths=lengths,
                               model_limit=256)
    assert siamese.head == "siamese" and siamese.max_length == 128
    joined_head = small_data.adapt(TrainConfig(task="pair", head="linear"), pair_counts, sentence_transformer=False,
                                   lengths=lengths, model_limit=512, given={"head"})
    assert joined_head.max_length == 224


def test_automatic_never_chooses_a_max_length_above_the_models_limit(tiny, tmp_path, one_thread):
    """A sentence-transformer that reads 64 tokens: ``bertstudio train`` with no --max-length (and
    the app's Automatic) kept the default 128 and the run was refused ("max_length 128 is more than
    this model takes (64 tokens)"), though the user had set nothing. The limit can be the
    tokenizer's alone (sentence-transformers 5 saves max_seq_length there)."""
    from helpers import capped_model

    counts = Counter(a=8, b=8)
    chosen = small_data.adapt(TrainConfig(), counts, sentence_transformer=True, lengths=np.full(16, 10.0),
                              model_limit=64, run_limit=64)
    assert chosen.max_length == 64 and "the model reads at most 64 tokens: max length 64" in chosen.auto_reason
    big = small_data.adapt(TrainConfig(), Counter(a=5000, b=5000), sentence_transformer=True, run_limit=64)
    assert big.max_length == 64 and "max length 64" in big.auto_reason  # not a small set: clamped all the same
    long_texts = small_data.adapt(TrainConfig(), counts, sentence_transformer=True, lengths=np.full(16, 300.0),
                                  model_limit=64, run_limit=64)
    assert long_texts.max_length == 64
    typed = small_data.adapt(TrainConfig(max_length=128), counts, sentence_transformer=True, run_limit=64,
                             given={"max_length"})
    assert typed.max_length == 128  # the user's own: the run says it is too long
    st = capped_model(tiny, tmp_path / "st", 64)
    assert small_data.model_max_length(str(st)) == small_data.run_max_length(str(st)) == 64
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in sentiment_records(24)))
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--hold-out", "0.25", "--model", str(st),
               "--out", str(tmp_path / "run"), "--epochs", "1", "--mode", "frozen", "--device", "cpu"])
    assert rc == 0
    assert saved_config(tmp_path / "run").max_length == 64


def test_the_length_said_is_one_the_texts_have():
    """19 short texts and one of 234,000 tokens: the interpolated percentile said "95% of the texts
    fit in 11707 tokens" when 19 of the 20 fit in 6."""
    lengths = [3.0, 4.0, 5.0, 6.0] * 4 + [5.0, 6.0, 6.0, 234000.0]
    assert small_data.fitted_max_length(lengths, 128, 512) is None  # 95% already fit in 128
    assert small_data.fitted_max_length(lengths, 4, 512) == (32, 6)


def test_the_model_limit_is_read_from_its_small_files(tmp_path):
    assert small_data.model_max_length(None) == 256  # the bundled MiniLM: sentence_bert_config.json
    assert small_data.run_max_length(None) == 512  # what the run enforces: the tokenizer's limit
    (tmp_path / "config.json").write_text('{"max_position_embeddings": 1024}')
    assert small_data.model_max_length(str(tmp_path)) == 512
    assert small_data.run_max_length(str(tmp_path)) == 1024
    (tmp_path / "config.json").write_text('{"max_position_embeddings": "many"}')
    assert small_data.model_max_length(str(tmp_path)) is None
    assert small_data.model_max_length("someone/hub-model") is None


def test_setfit_refuses_a_modules_json_that_names_the_folders_own_code(tiny, tmp_path, capsys):
    """modules.json naming ``evilmod.Evil`` was refused by sentence-transformers, in words that
    asked for "complete weights (model.safetensors)"; now named, before anything loads, and the
    module file is never imported."""
    import shutil

    st = tmp_path / "st"
    shutil.copytree(tiny, st)
    marker = tmp_path / "pwned"
    (st / "evilmod.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nclass Evil: pass\n")
    (st / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "evilmod.Evil"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in sentiment_records(8)))
    rc = main(["--quiet", "train", "--task", "sentence", "--train", str(data), "--model", str(st), "--method", "setfit",
               "--head", "embedding", "--out", str(tmp_path / "run"), "--epochs", "1", "--device", "cpu"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "module 0: names a module of its own (evilmod.Evil)" in err[0], err
    assert str(st / "modules.json") in err[0] and not marker.exists()


def test_a_setfit_runs_learning_rate_drives_its_contrastive_phase(tiny, one_thread, monkeypatch):
    """The lr a SetFit run showed (5e-5 on the form, in its name and config.toml) did nothing: the
    contrastive phase ran at setfit's own default and two runs at 5e-5 and 1e-2 saved the same
    encoder. Now the phase runs at the run's lr, and Automatic chooses setfit's own default, so a
    run without a typed rate trains as before."""
    import setfit

    from bertstudio.train import setfit_phase

    used = []
    real = setfit.TrainingArguments

    def recorded(*args, **kw):
        made = real(*args, **kw)
        used.append(made.body_embedding_learning_rate)
        return made

    monkeypatch.setattr(setfit, "TrainingArguments", recorded)
    monkeypatch.setattr(setfit_phase, "SETFIT_MAX_STEPS", 2)
    records = sentiment_records(8)
    texts, ids = [r["text"] for r in records], [int(r["label"] == "pos") for r in records]
    slow = setfit_phase.contrastive_body(tiny, texts, ids, seed=0, lr=5e-5).state_dict()
    fast = setfit_phase.contrastive_body(tiny, texts, ids, seed=0, lr=1e-2).state_dict()
    assert used == [5e-5, 1e-2]
    assert any(not torch.equal(slow[k], fast[k]) for k in slow if slow[k].is_floating_point())
    default = real(output_dir="x").body_embedding_learning_rate  # what setfit 1.2.0 trained at until now
    auto = small_data.adapt(TrainConfig(), Counter(a=16, b=16), sentence_transformer=True)
    assert auto.method == "setfit" and auto.lr == default == small_data.SETFIT_LR
    assert auto.head_learning_rate == PROBE_HEAD_LR  # the head's rate is unchanged
    chosen = small_data.adapt(TrainConfig(method="setfit", head="embedding", mode="frozen"), Counter(a=16, b=16),
                              sentence_transformer=True, given={"method", "head", "mode"})
    assert chosen.lr == default and "learning rate 2e-05" in chosen.auto_reason  # --method setfit alone: as before
    typed = small_data.adapt(TrainConfig(method="setfit", head="embedding", mode="frozen", lr=1e-4), Counter(a=16, b=16),
                             sentence_transformer=True, given={"method", "head", "mode", "lr"})
    assert typed.lr == 1e-4


def test_a_setfit_runs_name_says_setfit():
    import datetime as dt

    from bertstudio.train.rundir import run_name

    when = dt.datetime(2026, 12, 5, 22, 48)
    setfit_run = TrainConfig(method="setfit", head="embedding", mode="frozen", lr=2e-5)
    assert run_name("Proj", setfit_run, when) == "proj-setfit-lr2e-5-1205-2248"
    assert run_name("Proj", TrainConfig(mode="frozen"), when) == "proj-frozen-lr5e-5-1205-2248"


def test_a_sentence_transformers_max_seq_length_does_not_cut_a_default_run(tmp_path):
    """A sentence-transformer whose sentence_bert_config.json says max_seq_length 75 (as
    tomaarsen/mpnet-base-nli ships) and whose tokenizer reads 512: a 100,000-row run without
    --max-length was cut to 75 tokens, "the model reads at most 75 tokens", though the run's own
    check (tasks/model.max_input_length) takes 512. The clamp reads the run's limit; 75 stays the
    cap when a small set's length grows."""
    import shutil

    from bertstudio.bundled import default_model_path
    from bertstudio.tasks.model import max_input_length

    model = tmp_path / "st"
    shutil.copytree(default_model_path(), model)
    st_config = json.loads((model / "sentence_bert_config.json").read_text())
    (model / "sentence_bert_config.json").write_text(json.dumps({**st_config, "max_seq_length": 75}))
    assert small_data.run_max_length(str(model)) == max_input_length(model) == 512
    assert small_data.model_max_length(str(model)) == 75
    big = small_data.adapt(TrainConfig(model=str(model)), Counter(a=50_000, b=50_000), sentence_transformer=True,
                           model_limit=small_data.model_max_length(str(model)),
                           run_limit=small_data.run_max_length(str(model)))
    assert big.max_length == 128 and "reads at most" not in (big.auto_reason or "")
    small = small_data.adapt(TrainConfig(model=str(model), max_length=64), Counter(a=8, b=8), sentence_transformer=True,
                             lengths=np.full(16, 300.0), model_limit=75, run_limit=512)
    assert small.max_length == 75  # grown to the embeddings' length, no further


def test_setfits_phase_refuses_one_class_in_one_line(tiny, tmp_path):
    """SetFit pairs each sentence with one of another class: on one class setfit's sampler failed
    with "IndexError: list index out of range" (a learning curve's 1-row share, or
    ``bertstudio train --method setfit`` on a one-class file), shown as the run's error."""
    from bertstudio.train.setfit_phase import contrastive_body

    with pytest.raises(ConfigError, match="2 classes") as caught:
        contrastive_body(tiny, ["a lovely film", "a great film"], [1, 1], seed=0)
    assert "\n" not in str(caught.value)
    records = [r for r in sentiment_records(16) if r["label"] == "pos"]
    config = small_config(tiny, tmp_path, head="embedding", method="setfit", mode="frozen", labels=["neg", "pos"])
    result = train(config, from_records("sentence", records, labels=["neg", "pos"]),
                   from_records("sentence", sentiment_records(8)))
    assert result.status == "failed" and isinstance(result.error, ConfigError), result.message
    assert "IndexError" not in str(result.error)


def test_a_seeds_summary_shows_scores_x100_and_errors_as_they_are():
    """The summary printed fractions ("accuracy 0.5000 ± 0.0000") beside the x100 evaluation lines."""
    from bertstudio.train.seeds import SeedsResult

    scores = SeedsResult("finished", "accuracy", values={42: 0.5, 43: 0.52}, folders={42: "runs/seed-42"})
    assert scores.summary() == "2 seeds: accuracy 51.0 ± 1.4 (50.0 to 52.0)"  # sd of 0.50, 0.52: 0.01414
    assert scores.summary(digits=2) == "2 seeds: accuracy 51.00 ± 1.41 (50.00 to 52.00)"
    assert scores.seed_line(42) == "seed 42: accuracy 50.0  runs/seed-42" and scores.seed_line(43) == "seed 43: accuracy 52.0"
    errors = SeedsResult("finished", "mse", values={0: 0.5, 1: 0.7})
    assert errors.summary() == "2 seeds: mse 0.6000 ± 0.1414 (0.5000 to 0.7000)"
    # one value has no range: "(80.0 to 80.0)" read as a measured spread (the resume sweep)
    assert SeedsResult("finished", "accuracy", values={0: 0.8}).summary() == "1 seed: accuracy 80.0"


@pytest.mark.parametrize("lengths, expected", [({"max_length": 24}, 24), (None, 64)])
def test_a_saved_embedding_model_reads_at_most_the_runs_length(tmp_path, lengths, expected):
    """sentence_bert_config.json said max_position_embeddings (130 for the tiny RoBERTa, whose
    positions start after the pad id): plain sentence-transformers then crashed on a long text."""
    import json

    from helpers import tiny_family

    from bertstudio.tasks.embedding import save_embedding_classifier
    from bertstudio.tasks.model import build_model

    folder = tiny_family(tmp_path / "roberta", "roberta")  # 66 positions, pad id 1: 64 tokens
    model, tokenizer = build_model("sentence", str(folder), labels=["a", "b"], head="embedding", lengths=lengths)
    save_embedding_classifier(model, tokenizer, tmp_path / "out")
    saved = json.loads((tmp_path / "out" / "sentence_bert_config.json").read_text())
    assert saved["max_seq_length"] == expected
