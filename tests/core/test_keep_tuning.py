"""keep_tuning (WiSE-FT): the finished run keeps a share of what its training changed."""

from __future__ import annotations

import json

import pytest
import torch

from bertstudio.data.examples import from_records
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import evaluate, train

from helpers import random_sentiment_records

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py


def sentiment(n: int, seed: int):
    return from_records("sentence", random_sentiment_records(n, seed), labels=["neg", "pos"])


def run(tiny, out, keep, precision="fp32", head="linear"):
    events = []
    config = TrainConfig(model=tiny, epochs=2, batch_size=4, lr=5e-3, seed=3, max_length=32, device="cpu",
                         precision=precision, head=head, keep_tuning=keep, output_dir=str(out), save_best=False)
    result = train(config, sentiment(24, 1), sentiment(12, 2), callbacks=[lambda e, c=None: events.append(e)])
    assert result.status == "finished"
    return result, events


@pytest.mark.parametrize("precision, head", [("fp32", "linear"), ("bf16", "linear"), ("fp32", "embedding")])
def test_the_finished_weights_lie_the_share_of_the_way_from_the_start(tiny, tmp_path, precision, head):
    """keep 0: every trained weight back at its start (for the embedding head: the probe's);
    keep 0.5: halfway between that and where keep 1 ends (the runs are the same up to then)."""
    start, _ = run(tiny, tmp_path / "k0", 0.0, precision, head)
    end, _ = run(tiny, tmp_path / "k1", 1.0, precision, head)
    half, events = run(tiny, tmp_path / "k05", 0.5, precision, head)
    a, b, h = (r.model.state_dict() for r in (start, end, half))
    moved = 0
    for name in h:
        assert torch.allclose(h[name], (a[name] + b[name]) / 2, atol=1e-6), name
        moved += not torch.equal(a[name], b[name])
    assert moved > 10  # the training did change the weights being mixed
    # the last evaluation scores the model that was saved (for bf16: its training copy followed)
    last = [e for e in events if e.kind == "eval"][-1].metrics
    saved, rows = evaluate(tmp_path / "k05" / "model", sentiment(12, 2), precision=precision)
    assert last == pytest.approx(saved, abs=1e-6)
    written = [json.loads(line) for line in (tmp_path / "k05" / "predictions.jsonl").read_text().splitlines()]
    assert [r["probs"]["pos"] for r in written] == pytest.approx([r["probs"]["pos"] for r in rows], abs=5e-3)


def test_the_bf16_copy_takes_every_changed_row_after_the_weights_are_mixed(tiny):
    """Bf16Shadow.push copies only the embedding rows the last step's sparse gradient touched;
    after keep_tuning changes every trained weight the copy must take all of them."""
    from transformers import BertForSequenceClassification

    from bertstudio.train.shadow import Bf16Shadow, sparse_embedding, word_embedding

    model = BertForSequenceClassification.from_pretrained(tiny, num_labels=2)
    undo = sparse_embedding(word_embedding(model))
    shadow = Bf16Shadow(model)
    out = shadow.module(input_ids=torch.tensor([[2, 5, 6, 3]]), labels=torch.tensor([1]))
    out.loss.backward()
    shadow.collect()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.25)
    shadow.push()
    emb = word_embedding(shadow.module).weight
    assert not torch.equal(emb[10], word_embedding(model).weight[10].to(torch.bfloat16))  # an untouched row lags
    shadow.push(everything=True)
    assert torch.equal(emb, word_embedding(model).weight.to(torch.bfloat16))
    undo()


class Hostile:
    """Unpickling this runs code: it writes the marker file."""

    def __init__(self, marker) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


@pytest.mark.parametrize("content", ["hostile", "other shapes", "not a table", "not finite", "whole numbers", "bf16"])
def test_a_bad_start_file_in_a_checkpoint_is_refused_in_one_line_and_never_runs(content, tiny, tmp_path):
    """start.pt is read like the checkpoint's other files: tensors only (torch.load with
    weights_only), and only the trained parameters of this model, each of its shape, as
    finite floats; a bf16 copy of them is read as fp32 (it failed at the last step)."""
    import threading

    from bertstudio.errors import ConfigError
    from bertstudio.train import checkpoint as ckpt

    out = tmp_path / "run"
    config = TrainConfig(model=tiny, epochs=2, batch_size=4, lr=5e-3, seed=3, max_length=32, device="cpu",
                         precision="fp32", keep_tuning=0.5, output_dir=str(out), logging_steps=1)
    cancel = threading.Event()
    first = train(config, sentiment(24, 1), callbacks=[lambda e, c=None: e.kind == "step" and e.step == 3 and cancel.set()],
                  cancel=cancel)
    assert first.status == "cancelled"
    start = out / "checkpoints" / "last" / ckpt.START
    kept = torch.load(start, weights_only=True)
    marker = tmp_path / "pwned"
    if content == "hostile":
        torch.save(Hostile(marker), start)
    elif content == "other shapes":
        torch.save({name: torch.zeros(3) for name in kept}, start)
    elif content == "not finite":
        torch.save({name: torch.full_like(t, float("nan")) for name, t in kept.items()}, start)
    elif content == "whole numbers":
        torch.save({name: t.long() for name, t in kept.items()}, start)
    elif content == "bf16":
        torch.save({name: t.to(torch.bfloat16) for name, t in kept.items()}, start)
    else:
        torch.save([1, 2, 3], start)
    resumed = train(TrainConfig(**{**config.to_dict(), "resume_from": str(out / "checkpoints" / "last")}), sentiment(24, 1))
    if content == "bf16":
        assert resumed.status == "finished", resumed.message
        return
    assert resumed.status == "failed" and isinstance(resumed.error, ConfigError)
    assert "start.pt" in resumed.message and "\n" not in resumed.message and "weights_only" not in resumed.message
    assert not marker.exists()


def test_the_data_maps_last_epoch_is_the_trained_model_not_the_mixed_one(tiny, tmp_path):
    """cartography.jsonl records how the training saw each row, epoch by epoch: its last pass
    runs before the weights are mixed back (with keep 0 it read the starting weights)."""
    def last_epoch(keep):
        out = tmp_path / f"k{keep}"
        config = TrainConfig(model=tiny, epochs=2, batch_size=4, lr=5e-3, seed=3, max_length=32, device="cpu",
                             precision="fp32", keep_tuning=keep, cartography=True, output_dir=str(out))
        assert train(config, sentiment(24, 1), sentiment(12, 2)).status == "finished"
        rows = [json.loads(line) for line in (out / "cartography.jsonl").read_text().splitlines()]
        return [r for r in rows if r.get("epoch") == max(x.get("epoch", 0) for x in rows)]

    mixed, trained = last_epoch(0.0), last_epoch(1.0)
    assert mixed and mixed == trained
