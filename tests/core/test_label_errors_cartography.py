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


def _still_model(tiny: str, folder) -> str:
    """The tiny model without dropout: a training forward then says what an eval forward says."""
    import shutil

    shutil.copytree(tiny, folder)
    cfg = json.loads((folder / "config.json").read_text())
    cfg.update(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    (folder / "config.json").write_text(json.dumps(cfg))
    return str(folder)


def _fit(cfg: TrainConfig, data, passes=None):
    from accelerate.utils import set_seed

    from bertstudio.train.engine import build_parts, fit

    set_seed(cfg.seed)
    parts = build_parts(cfg, list(data.labels))
    result = fit(cfg, parts, data, passes=passes)
    assert result.status == "finished", result.message
    return result


def test_training_passes_hold_each_rows_own_probabilities_once_per_epoch(tiny, tmp_path):
    """TrainingPasses, handed to fit(), keeps what each training forward said of each row,
    under the row's own number: with no dropout and a learning rate too small to move the
    weights, that is what the model says of the row in eval mode."""
    from bertstudio.train.cartography import TrainingPasses

    data = sentiment(20)  # batches of 8: 8, 8 and 4 rows in each epoch, shuffled
    still = _still_model(tiny, tmp_path / "still")
    first = train(config(still, epochs=40, lr=1e-2, output_dir=str(tmp_path / "first")), data)
    assert first.status == "finished", first.message
    model = str(tmp_path / "first" / "model")  # a model whose rows differ: a row filed under another's number shows
    passes = TrainingPasses(22)  # two rows more than the training set
    result = _fit(config(model, epochs=2, lr=1e-12), data, passes)
    assert passes.counts.tolist() == [2] * 20 + [0, 0]
    mean = passes.mean()[:20]
    assert mean.shape == (20, 2)
    np.testing.assert_allclose(mean.sum(1), 1.0, rtol=1e-6)

    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model)
    net = result.model.eval()
    with torch.inference_mode():
        enc = tok(list(data.dataset["text"]), padding=True, truncation=True, max_length=32, return_tensors="pt")
        probs = torch.softmax(net(**enc).logits.float(), -1).numpy()
    assert probs[:, 0].std() > 0.02
    np.testing.assert_allclose(mean, probs, atol=1e-4)
    assert np.isnan(passes.mean()[20:]).all()  # rows beyond the training set took no pass


def test_recording_training_passes_changes_nothing_in_the_training(tiny, tmp_path):
    from bertstudio.train.cartography import TrainingPasses

    data = sentiment(16)
    cfg = config(tiny, epochs=2)
    plain = _fit(cfg, data).model.state_dict()
    recorded = _fit(cfg, data, TrainingPasses(16)).model.state_dict()
    assert plain.keys() == recorded.keys()
    assert all(torch.equal(plain[k], recorded[k]) for k in plain)


def test_training_passes_record_only_class_probabilities_of_numbered_rows():
    from bertstudio.train.cartography import TrainingPasses

    assert np.isnan(TrainingPasses(3).mean()).all() and TrainingPasses(3).counts.tolist() == [0, 0, 0]
    passes = TrainingPasses(5)
    logits = torch.tensor([[0.0, 0.0], [2.0, 0.0]])
    passes.add({"example_index": torch.tensor([4, 1])}, logits)
    passes.add({"example_index": torch.tensor([1])}, torch.tensor([[0.0, 2.0]]))
    passes.add({}, logits)  # no row numbers: nothing to file them under
    passes.add({"example_index": torch.tensor([0, 2])}, torch.tensor([[1.0], [2.0]]))  # a regression score
    passes.add({"example_index": torch.tensor([0])}, torch.zeros(1, 5, 2))  # per-token logits
    passes.add({"example_index": torch.tensor([0])}, None)
    mean = passes.mean()
    assert passes.counts.tolist() == [0, 2, 0, 0, 1]
    np.testing.assert_allclose(mean[4], [0.5, 0.5])
    np.testing.assert_allclose(mean[1], [0.5, 0.5])  # (0.881, 0.119) and (0.119, 0.881) averaged
    assert np.isnan(mean[[0, 2, 3]]).all()


def test_a_pair_runs_map_keeps_both_sides_of_each_example(tiny, tmp_path):
    """A sweep's RTE data map showed only the premise when a point was clicked ("Edward VIII became
    King..."), with no hypothesis: the header kept the ``text`` column alone."""
    from bertstudio.data.examples import from_records
    from bertstudio.data.kinds import get_spec

    records = [{"text": f"premise {'long ' * 80}number {i}", "text_pair": f"hypothesis {i}",
                "label": ["entailment", "not_entailment"][i % 2]} for i in range(16)]
    data = from_records("pair", records, labels=["entailment", "not_entailment"])
    out = tmp_path / "run"
    result = train(config(tiny, task="pair", epochs=1, cartography=True, output_dir=str(out)), data)
    assert result.status == "finished", result.message
    texts = read_cartography(out).text
    for i, text in enumerate(texts):  # the premise (cut, it is long) and the whole hypothesis, as the Results page joins them
        assert text.startswith("premise long") and text.endswith(f"  ‖  hypothesis {i}")
    assert get_spec("pair").example_text({"text": "a", "text_pair": "b"}) == "a  ‖  b"
