"""Dataset cartography from a fine-tuning run: the engine's optional epoch hook writes
cartography.jsonl; read_cartography turns it into confidence, variability and correctness."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bertstudio.train.cartography import FILE, read_cartography
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")


def config(tiny: str, **kw) -> TrainConfig:
    base = dict(model=tiny, epochs=3, batch_size=8, lr=3e-3, logging_steps=2, seed=1, max_length=32, device="cpu",
                precision="fp32", save_best=False)
    base.update(kw)
    return TrainConfig(**base)


def test_cartography_is_off_by_default_and_writes_nothing(tiny, tmp_path):
    assert TrainConfig().cartography is False
    result = train(config(tiny, epochs=1, output_dir=str(tmp_path / "run")), sentiment(16))
    assert result.status == "finished", result.message
    assert not (tmp_path / "run" / FILE).exists()
    assert read_cartography(tmp_path / "run") is None


def test_each_epoch_records_every_training_rows_gold_probability(tiny, tmp_path):
    out = tmp_path / "run"
    data = sentiment(24)
    result = train(config(tiny, cartography=True, output_dir=str(out)), data)
    assert result.status == "finished", result.message
    lines = [json.loads(line) for line in (out / FILE).read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header", "epoch", "epoch", "epoch"]
    assert [line["epoch"] for line in lines[1:]] == [1, 2, 3]
    assert lines[0]["gold"] == list(data.dataset["label"]) and lines[0]["text"] == list(data.dataset["text"])

    # the last epoch's line is the finished model's own probabilities of each gold label,
    # computed here independently with plain transformers
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    hf = AutoModelForSequenceClassification.from_pretrained(out / "model").eval()
    tok = AutoTokenizer.from_pretrained(out / "model")
    with torch.inference_mode():
        enc = tok(list(data.dataset["text"]), padding=True, return_tensors="pt")
        probs = torch.softmax(hf(**enc).logits, -1).numpy()
    label2id = {v: int(k) for k, v in hf.config.id2label.items()}
    expected = [probs[i, label2id[g]] for i, g in enumerate(data.dataset["label"])]
    np.testing.assert_allclose(lines[-1]["gold_prob"], expected, atol=1e-4)

    carto = read_cartography(out)
    per_epoch = np.array([line["gold_prob"] for line in lines[1:]])
    np.testing.assert_allclose(carto.confidence, per_epoch.mean(0), rtol=1e-6)
    np.testing.assert_allclose(carto.variability, per_epoch.std(0), rtol=1e-6)
    right = np.array([[p == g for p, g in zip(line["pred"], lines[0]["gold"])] for line in lines[1:]])
    np.testing.assert_allclose(carto.correctness, right.mean(0))
    assert carto.epochs == 3 and len(carto.text) == 24


def test_a_broken_file_reads_as_no_cartography(tmp_path):
    (tmp_path / FILE).write_text('{"kind": "header", "gold": ["a"], "text": ["x"]}\n{"kind": "epoch", "epoch": 1')
    assert read_cartography(tmp_path) is None
