"""Evaluation and prediction run in the precision training uses (issue #16 item 3): on a CPU
with native bf16 that is bf16 weights, and it must agree with the exact fp32 path."""

from __future__ import annotations

import pytest
import torch

from bertstudio.data.glue import load_glue
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import build_parts, evaluate
from bertstudio.train.evaluation import for_inference
from bertstudio.train.hardware import detect
from bertstudio.train.predict import Predictor
from bertstudio.train.probe import probe_head


@pytest.fixture(scope="module")
def sst2_model(bundled_model_dir, shared_data, tmp_path_factory):
    """The bundled MiniLM with an embedding head fitted (logistic regression) on 400 SST-2
    training sentences: a real SST-2 classifier (~80% on dev) without a fine-tuning run."""
    from bertstudio.tasks.embedding import save_embedding_classifier

    train = load_glue("SST-2", shared_data / "glue" / "SST-2", split="train").head(400, seed=0)
    config = TrainConfig(task="sentence", glue_task="SST-2", head="embedding", model=str(bundled_model_dir))
    parts = build_parts(config, train.labels)
    assert probe_head(parts, train, config)
    out = tmp_path_factory.mktemp("sst2-embedding") / "model"
    save_embedding_classifier(parts.model, parts.tokenizer, out)
    return out


def test_the_fast_path_agrees_with_fp32_on_sst2_dev(sst2_model, shared_data):
    fast = detect()[3]
    dev = load_glue("SST-2", shared_data / "glue" / "SST-2", split="dev")
    exact, exact_rows = evaluate(sst2_model, dev, precision="fp32")
    quick, quick_rows = evaluate(sst2_model, dev, precision="bf16" if fast else "auto")
    assert len(exact_rows) == len(dev) == 872
    same = sum(a["label"] == b["label"] for a, b in zip(exact_rows, quick_rows)) / len(dev)
    assert same >= 0.99, same
    assert abs(quick["accuracy"] - exact["accuracy"]) <= 0.005
    assert exact["accuracy"] > 0.7  # a real classifier, so the agreement means something
    if not fast:
        assert same == 1.0  # auto is the fp32 path on a CPU without native bf16


def test_auto_picks_the_training_precision_and_fp32_stays_exact():
    model = torch.nn.Linear(4, 2)
    _, device, precision = for_inference(model, "cpu", "fp32")
    assert (device, precision, model.weight.dtype) == ("cpu", "fp32", torch.float32)
    model, _, precision = for_inference(model, "cpu", "auto")
    assert precision == ("bf16" if detect()[3] else "fp32")
    assert model.weight.dtype == (torch.bfloat16 if precision == "bf16" else torch.float32)


def test_the_predictor_predicts_in_that_precision(sst2_model):
    auto = Predictor.load(sst2_model, device="cpu", precision="auto")
    exact = Predictor.load(sst2_model, device="cpu", precision="fp32")
    assert exact.model.classifier.weight.dtype == torch.float32
    # the encoder in training's precision; the head stays fp32 (its scores and probabilities are not rounded)
    assert auto.model.classifier.weight.dtype == torch.float32
    encoder = next(p for n, p in auto.model.named_parameters() if not n.startswith("classifier"))
    assert encoder.dtype == (torch.bfloat16 if detect()[3] else torch.float32)
    text = "a gripping , funny and moving film"
    assert auto.predict(text=text)["label"] == exact.predict(text=text)["label"] == "positive"


@pytest.fixture
def rating_model(tiny, tmp_path):
    """A 0-100 rating model whose scores sit near 96.655, where bf16 steps by 0.5."""
    from bertstudio.tasks.model import build_model, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", tiny, labels=[])
    with torch.no_grad():
        model.classifier.bias.fill_(96.655)
    return save_model(model, tokenizer, tmp_path / "model")


def test_one_prediction_is_exact_on_a_bf16_cpu_too(rating_model, capsys):
    """On a bf16 CPU the Playground and `bertstudio predict` said 96.5 (bf16 weights) where fp32 and
    the export's predict.py give 96.655: one input costs little, so it is predicted in fp32;
    `bertstudio predict --precision auto` keeps training's precision when asked."""
    import json

    from bertstudio.cli import main

    text = "the film was great"
    exact = Predictor.load(rating_model, device="cpu", precision="fp32").predict(text=text)["score"]
    default = Predictor.load(rating_model, device="cpu")
    assert default.model.classifier.weight.dtype == torch.float32
    assert default.predict(text=text)["score"] == pytest.approx(exact, abs=1e-3)
    capsys.readouterr()
    assert main(["predict", "--model", str(rating_model), "--text", text]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == pytest.approx(exact, abs=1e-3)
    assert main(["predict", "--model", str(rating_model), "--text", text, "--precision", "auto"]) == 0
    auto = json.loads(capsys.readouterr().out)["score"]
    # training's bf16 encoder, but an fp32 head: not bf16's steps of 0.5 here (it said 96.5)
    assert auto == pytest.approx(exact, abs=0.05)
