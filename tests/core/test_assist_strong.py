"""The strong model: the method choice, SetFit on the tiny model, fine-tuning, saving without pickle."""

from __future__ import annotations

import os
import pickle
import threading

import numpy as np
import pytest
import torch

from bertstudio.assist.encoder import Cancelled
from bertstudio.assist.heads import LinearHead
from bertstudio.assist.pool import PoolData, head_outputs, strong_features
from bertstudio.assist.strong import (
    SETFIT_MAX_PER_CLASS,
    StrongRequest,
    choose_method,
    load_strong,
    save_strong,
    train_strong,
)

POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]


def request(tiny: str, n: int = 16, **kw) -> StrongRequest:
    texts = [f"the movie was {POS[i % 5] if i % 2 == 0 else NEG[i % 5]}" for i in range(n)]
    values = ["pos" if i % 2 == 0 else "neg" for i in range(n)]
    return StrongRequest("sentence", ["neg", "pos"], list(range(n)), texts, None, values, model_path=tiny, seed=0, **kw)


def test_choose_method_says_why():
    method, reason = choose_method("sentence", {"neg": 20, "pos": 30})
    assert method == "setfit" and "SetFit" in reason and "50 labels" in reason
    method, reason = choose_method("sentence", {"neg": 80, "pos": SETFIT_MAX_PER_CLASS + 1})
    assert method == "finetune" and "fine-tuning" in reason
    assert choose_method("pair", {"a": 3, "b": 4})[0] == "finetune"
    assert "siamese" in choose_method("pair", {"a": 3, "b": 4})[1]
    assert choose_method("tagging", {})[0] == "finetune"
    assert choose_method("qa", {})[0] == "none"
    assert choose_method("sentence", {"neg": 5, "pos": 5}, "finetune") == ("finetune", "finetune: chosen in the settings")
    method, reason = choose_method("sentence", {"neg": 20, "pos": 30}, pseudo=100)
    assert method == "finetune" and "100 pool rows" in reason
    assert choose_method("sentence", {"neg": 20, "pos": 30}, pseudo=99)[0] == "setfit"  # fewer than 2 per label


def test_setfit_trains_the_tiny_model_and_its_head_is_saved_without_pickle(tiny, tmp_path, monkeypatch, one_thread):
    steps = []
    model = train_strong(request(tiny), counts={"neg": 8, "pos": 8}, progress=lambda s, t: steps.append((s, t)))
    assert model.method == "setfit" and "SetFit" in model.reason
    assert steps and steps[-1][0] == steps[-1][1] == model.steps
    pool = PoolData(texts=["the movie was great", "the movie was terrible"])
    before = head_outputs(model.model, strong_features(model.model, model.tokenizer, pool))
    folder = save_strong(model, tmp_path / "m")
    names = {p.name for p in folder.rglob("*") if p.is_file()}
    assert {"head.safetensors", "model.safetensors", "assist.json"} <= names
    assert not any(n.endswith((".pkl", ".joblib", ".bin")) for n in names)

    def refuse(*a, **k):
        raise AssertionError("pickle used")

    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    restored = load_strong(folder)
    after = head_outputs(restored.model, strong_features(restored.model, restored.tokenizer, pool))
    np.testing.assert_allclose(after, before, atol=1e-5)
    assert restored.rows == list(range(16)) and restored.method == "setfit"


def test_setfit_keeps_half_of_its_contrastive_change(tiny, one_thread, monkeypatch):
    """WiSE-FT: the body after the contrastive phase is 0.5 x pre-trained + 0.5 x tuned
    (fully tuned it forgot what the encoder knew: below the frozen baseline on sentence genre)."""
    from sentence_transformers import SentenceTransformer

    from bertstudio.train import setfit_phase

    req = request(tiny)
    ids = [req.labels.index(v) for v in req.values]
    start = SentenceTransformer(tiny, device="cpu").state_dict()
    share = setfit_phase.SETFIT_KEEP
    monkeypatch.setattr(setfit_phase, "SETFIT_KEEP", 1.0)
    tuned = setfit_phase.contrastive_body(tiny, req.texts, ids, seed=0).state_dict()
    monkeypatch.setattr(setfit_phase, "SETFIT_KEEP", share)  # the module's own share
    kept = setfit_phase.contrastive_body(tiny, req.texts, ids, seed=0).state_dict()
    moved = [k for k, t in start.items() if t.is_floating_point() and not torch.equal(t, tuned[k])]
    assert len(moved) > 10  # the contrastive phase changed the encoder
    for k in moved:
        torch.testing.assert_close(kept[k], 0.5 * start[k] + 0.5 * tuned[k], atol=1e-6, rtol=1e-5)


def test_a_cancelled_setfit_run_stops_and_returns_nothing(tiny):
    cancel = threading.Event()
    seen = []

    def progress(step: int, total: int) -> None:
        seen.append(step)
        cancel.set()  # after the first optimizer step

    with pytest.raises(Cancelled):
        train_strong(request(tiny), counts={"neg": 8, "pos": 8}, progress=progress, cancel=cancel)
    assert seen == [1]


def test_finetune_starts_from_the_fast_head_and_trains_the_encoder(tiny, one_thread, monkeypatch):
    rng = np.random.default_rng(0)
    init = LinearHead(rng.normal(size=(2, 32)).astype(np.float32), np.array([0.5, -0.5], np.float32))
    req = request(tiny, method="finetune", init_head=init)
    seen_head = {}

    import bertstudio.train.engine as engine

    real_fit = engine.fit

    def spy_fit(config, parts, train_set, *args, **kwargs):
        seen_head["weight"] = parts.model.classifier.weight.detach().clone()
        seen_head["rows"] = len(train_set)
        seen_head["steps"] = config.epochs * -(-len(train_set) // config.batch_size)
        return real_fit(config, parts, train_set, *args, **kwargs)

    monkeypatch.setattr(engine, "fit", spy_fit)  # records what fit() is given, then runs the real one
    model = train_strong(req, counts={"neg": 8, "pos": 8})
    torch.testing.assert_close(seen_head["weight"], torch.from_numpy(init.W))
    assert seen_head["rows"] == 16 and seen_head["steps"] >= 150  # small sets get enough steps
    assert model.method == "finetune" and model.steps >= 150


def test_beside_pseudo_labels_each_label_counts_four_times(tiny, one_thread, monkeypatch):
    """1,600 pseudo-labels beside 90 labels drowned the person's labels; each labelled row now
    comes LABEL_REPEAT times, each pseudo-labelled row once (and labels alone are not repeated)."""
    import bertstudio.train.engine as engine
    from bertstudio.assist.strong import LABEL_REPEAT

    seen = []

    def spy_fit(config, parts, train_set, *args, **kwargs):
        seen.append(list(train_set.dataset["text"]))
        raise RuntimeError("stop here")  # what fit() is given is all this test reads

    monkeypatch.setattr(engine, "fit", spy_fit)
    req = request(tiny, n=4, method="finetune", pseudo_rows=[10, 11], pseudo_texts=["so good", "so bad"],
                  pseudo_values=["pos", "neg"])
    with pytest.raises(RuntimeError, match="stop here"):
        train_strong(req, counts={"neg": 2, "pos": 2})
    assert LABEL_REPEAT == 4
    assert sorted(seen[0]) == sorted(req.texts * 4 + ["so good", "so bad"])
    with pytest.raises(RuntimeError, match="stop here"):
        train_strong(request(tiny, n=4, method="finetune"), counts={"neg": 2, "pos": 2})
    assert sorted(seen[1]) == sorted(request(tiny, n=4).texts)


def test_the_strong_models_fine_tuning_reads_long_texts_as_the_train_page_does():
    """The assistant's fine-tuned model cut every text at 128 tokens; long reviews now get the
    length Automatic fits on the Train page (train/small_data.fitted_max_length)."""
    from bertstudio.assist.strong import finetune_config
    from bertstudio.data.examples import from_records

    long = from_records("sentence", [{"text": "字" * 200, "label": "a"}, {"text": "字" * 190, "label": "b"}] * 4,
                        labels=["a", "b"])
    assert finetune_config(8, 0, "sentence", train_set=long, model=None).max_length == 224
    short = from_records("sentence", [{"text": "good", "label": "a"}, {"text": "bad", "label": "b"}], labels=["a", "b"])
    assert finetune_config(2, 0, "sentence", train_set=short, model=None).max_length == 128
    assert finetune_config(2, 0, "sentence").max_length == 128


def test_the_strong_models_pairs_keep_half_of_their_fine_tuning_as_the_train_page_does():
    """Automatic keeps half of a siamese run's change (small_data.SMALL_KEEP, WiSE-FT); the
    assistant's fine-tuning of pairs and scores uses the same settings, so the same share."""
    from bertstudio.assist.strong import finetune_config
    from bertstudio.train.small_data import SMALL_KEEP

    assert finetune_config(40, 0, "pair", head="siamese").keep_tuning == SMALL_KEEP == 0.5
    assert finetune_config(40, 0, "regression", head="siamese").keep_tuning == SMALL_KEEP
    assert finetune_config(40, 0, "sentence").keep_tuning == 1.0  # measured: single sentences keep it all


def _mapped_from(folder) -> list[str]:
    with open("/proc/self/maps", encoding="ascii", errors="replace") as f:
        return sorted({line.split(None, 5)[5].strip() for line in f
                       if len(line.split(None, 5)) == 6 and line.split(None, 5)[5].startswith(str(folder))})


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="reads the mappings from /proc")
@pytest.mark.parametrize("kind", ["sentence", "tagging"])
def test_a_restored_model_keeps_no_file_of_its_folder_mapped(tiny, tmp_path, one_thread, kind):
    """transformers maps model.safetensors into memory and the restored model kept it mapped;
    Windows refuses to rename a folder holding a mapped file, so the next model the assistant
    trained was never saved there (only a warning in the log), and every session retrained."""
    from bertstudio.assist.strong import StrongModel
    from bertstudio.tasks.model import build_model

    if kind == "sentence":
        model = train_strong(request(tiny), counts={"neg": 8, "pos": 8})
    else:
        net, tok = build_model("tagging", tiny, labels=["O", "B-LOC"])
        model = StrongModel("finetune", "", net.eval(), tok, [0, 1], ["O", "B-LOC"], "tagging", 0)
    folder = save_strong(model, tmp_path / "assist-model")
    restored = load_strong(folder)
    assert _mapped_from(folder) == []
    save_strong(restored, folder, {"data": "x"})  # the next session's save replaces the folder
    assert load_strong(folder).saved_meta["data"] == "x"


def test_setfit_learns_at_one_default_rate(tiny, monkeypatch):
    """The assistant's SetFit (contrastive_body without an lr) trained at setfit's own default while
    a run trains at SETFIT_LR: two homes for one rate, which would part at the next setfit release."""
    import setfit

    from bertstudio.train import setfit_phase

    said = {}

    class Stop(Exception):
        pass

    def arguments(**kwargs):
        said.update(kwargs)
        raise Stop

    monkeypatch.setattr(setfit, "TrainingArguments", arguments)
    monkeypatch.setattr(setfit_phase, "SETFIT_LR", 3e-5)  # the module's rate, whatever it is
    req = request(tiny)
    with pytest.raises(Stop):
        setfit_phase.contrastive_body(tiny, req.texts, [req.labels.index(v) for v in req.values], seed=0)
    assert said["body_learning_rate"] == 3e-5
