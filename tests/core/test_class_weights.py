"""Class weighting (TrainConfig.class_weight, train/class_weights.py): the weighted loss, the
balanced probe, Automatic's choice on an imbalanced small set, the flag and the run's record.
Automatic on 40 Sports + 4 World rows answered Sports for every evaluation row before it."""

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
from bertstudio.train import small_data
from bertstudio.train.class_weights import balanced_weights, weighted_cross_entropy
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import build_parts, train
from bertstudio.train.probe import fit_logistic
from bertstudio.train.rundir import saved_config
from tests.helpers import sentiment_records


def imbalanced_records(major: int, minor: int) -> list[dict]:
    rows = sentiment_records(2 * max(major, minor))
    pos = [r for r in rows if r["label"] == "pos"][:major]
    neg = [r for r in rows if r["label"] == "neg"][:minor]
    return pos + neg


def test_balanced_weights_are_n_over_classes_times_count():
    # 40 + 4 rows, 2 classes: 44 / (2 * 40) and 44 / (2 * 4); a label without rows keeps 1
    assert np.allclose(balanced_weights([0] * 40 + [1] * 4, 3), [0.55, 5.5, 1.0])
    assert np.allclose(balanced_weights([0, 1, 1, 2, 2, 2], 3), [2.0, 1.0, 2 / 3])


def test_the_weighted_loss_is_the_hand_computed_weighted_cross_entropy():
    logits = torch.tensor([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    labels = torch.tensor([0, 1, 0])
    weights = torch.tensor([0.5, 3.0])
    # -log softmax of the gold logit, times the gold class's weight, averaged over the 3 rows
    rows = [0.5 * -math.log(math.exp(2) / (math.exp(2) + 1)),
            3.0 * -math.log(math.e / (1 + math.e)),
            0.5 * -math.log(0.5)]
    assert weighted_cross_entropy(logits, labels, weights).item() == pytest.approx(sum(rows) / 3, rel=1e-6)
    # weights of 1 are the plain loss
    plain = torch.nn.functional.cross_entropy(logits, labels)
    assert weighted_cross_entropy(logits, labels, torch.ones(2)).item() == pytest.approx(plain.item(), rel=1e-6)


def test_the_balanced_logistic_regression_stops_answering_the_majority():
    """Overlapping classes at 40:4: the plain fit answers the majority for every row; the balanced
    one finds the minority's side."""
    X = np.concatenate([np.linspace(-2, 2, 40), [0.6, 0.9, 1.2, 1.5]]).reshape(-1, 1)
    y = np.array([0] * 40 + [1] * 4)
    plain = fit_logistic(X, y, 2).predict_proba(X).argmax(1)
    balanced = fit_logistic(X, y, 2, class_weight="balanced").predict_proba(X).argmax(1)
    assert plain[40:].sum() == 0
    assert balanced[40:].sum() >= 3


def test_the_probe_of_a_weighted_run_is_balanced(tiny, tmp_path, one_thread, monkeypatch):
    from bertstudio.train import probe

    seen = []
    real = probe.fit_logistic
    monkeypatch.setattr(probe, "fit_logistic", lambda *a, **kw: seen.append(kw.get("class_weight")) or real(*a, **kw))
    train_set = from_records("sentence", imbalanced_records(12, 3))
    for weighting in ("balanced", "none"):
        config = TrainConfig(model=tiny, head="embedding", max_length=32, device="cpu", seed=0, class_weight=weighting)
        assert probe.probe_head(build_parts(config, train_set.labels), train_set, config)
    assert seen == ["balanced", None]


@pytest.mark.parametrize("head", ["linear", "embedding"])
def test_a_weighted_run_trains_on_the_weighted_loss_for_the_stock_and_the_embedding_heads(tiny, tmp_path, one_thread,
                                                                                        monkeypatch, head):
    """The stock linear head computes its own unweighted loss inside the model: the engine
    replaces it with the weighted one from the logits, as for the embedding head."""
    from bertstudio.train import engine

    calls = []
    real = engine.weighted_cross_entropy

    def spy(logits, labels, weights):
        calls.append(weights.tolist())
        return real(logits, labels, weights)

    monkeypatch.setattr(engine, "weighted_cross_entropy", spy)
    rows = from_records("sentence", imbalanced_records(12, 3))  # pos 12, neg 3
    for weighting in ("balanced", "none"):
        config = TrainConfig(model=tiny, head=head, epochs=1, batch_size=8, lr=1e-3, max_length=32, device="cpu",
                             precision="fp32", seed=0, class_weight=weighting, logging_steps=1,
                             output_dir=str(tmp_path / f"{head}-{weighting}"))
        result = train(config, rows)
        assert result.status == "finished", result.message
        if weighting == "balanced":
            assert len(calls) == 2  # 15 rows, batch 8: both steps
            labels = result.model.config.id2label if head == "linear" else dict(enumerate(result.model.labels))
            expected = {"pos": 15 / (2 * 12), "neg": 15 / (2 * 3)}
            assert calls[0] == pytest.approx([expected[labels[i]] for i in range(2)])
    assert len(calls) == 2  # the unweighted run never called it
    assert saved_config(tmp_path / f"{head}-balanced").class_weight == "balanced"


def test_automatic_weighs_a_clearly_imbalanced_small_set_and_says_so():
    chosen = small_data.adapt(TrainConfig(), Counter(Sports=40, World=4), sentence_transformer=True)
    assert chosen.class_weight == "balanced"
    assert "classes 40:4 (largest to smallest): each class weighted by inverse frequency" in chosen.auto_reason
    assert small_data.adapt(TrainConfig(), Counter(a=20, b=18), sentence_transformer=True).class_weight == "none"
    # a label of the project with no training row yet is no class of 0 rows: 20:18 stays unweighted
    assert small_data.adapt(TrainConfig(), {"a": 20, "b": 18, "c": 0}, sentence_transformer=True).class_weight == "none"
    # a recipe the user gave keeps its settings; the weighting is about the data, chosen still
    recipe = small_data.adapt(TrainConfig(epochs=2), Counter(a=40, b=4), given={"epochs"}, sentence_transformer=False)
    assert recipe.epochs == 2 and recipe.class_weight == "balanced"
    # the user's class_weight wins; kinds without classes and large sets are left alone
    assert small_data.adapt(TrainConfig(), Counter(a=40, b=4), given={"class_weight"},
                            sentence_transformer=True).class_weight == "none"
    assert small_data.adapt(TrainConfig(task="tagging"), Counter(rows=40), sentence_transformer=True).class_weight == "none"
    big = TrainConfig()
    assert small_data.adapt(big, Counter(a=40_000, b=4_000), sentence_transformer=True).class_weight == "none"


def test_every_setting_automatic_chooses_is_one_a_learning_curve_share_chooses_again():
    """small_data.ADAPTED is what unadapted() puts back before a share is chosen for: a setting
    adapt() sets that is missing there (class_weight was) would carry the full set's choice into
    every share (40:4 weighted, a 10:8 share weighted too)."""
    cases = [(TrainConfig(), Counter(a=40, b=4), True), (TrainConfig(task="pair"), Counter(a=30, b=3), True),
             (TrainConfig(task="regression"), Counter(rows=30), True), (TrainConfig(), Counter(a=300, b=30), False),
             (TrainConfig(mode="lora"), Counter(a=40, b=4), False), (TrainConfig(mode="frozen", task="pair"),
                                                                    Counter(a=20, b=20), True)]
    defaults = TrainConfig()
    for config, counts, st in cases:
        chosen = small_data.adapt(config, counts, sentence_transformer=st, lengths=np.array([300] * 5),
                                  model_limit=512, evaluates=True)
        changed = {k for k in vars(defaults) if getattr(chosen, k) != getattr(config, k)} - {"auto_reason"}
        assert changed <= set(small_data.ADAPTED), (config, counts, changed - set(small_data.ADAPTED))
    share = small_data.unadapted(small_data.adapt(TrainConfig(), Counter(a=40, b=4), sentence_transformer=True))
    assert share.class_weight == "none"


@pytest.mark.parametrize("task", ["regression", "tagging", "qa"])
def test_class_weighting_is_refused_where_there_are_no_classes(task):
    with pytest.raises(ConfigError, match="no classes to weigh") as info:
        TrainConfig(task=task, class_weight="balanced")
    assert info.value.where == "class_weight"
    with pytest.raises(ConfigError, match="unknown class weighting"):
        TrainConfig(class_weight="inverse")
    assert TrainConfig(task="pair", class_weight="balanced").class_weight == "balanced"


def test_the_cli_flag_wins_and_the_run_records_the_weighting(tiny, tmp_path, one_thread):
    data = tmp_path / "train.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in imbalanced_records(16, 4)))
    common = ["--quiet", "train", "--task", "sentence", "--train", str(data), "--model", tiny, "--epochs", "1",
              "--max-length", "32", "--device", "cpu"]
    assert main([*common, "--out", str(tmp_path / "auto")]) == 0
    auto = saved_config(tmp_path / "auto")
    assert auto.class_weight == "balanced" and "classes 16:4" in auto.auto_reason
    assert 'class_weight = "balanced"' in (tmp_path / "auto" / "config.toml").read_text()
    assert main([*common, "--class-weight", "none", "--out", str(tmp_path / "plain")]) == 0
    plain = saved_config(tmp_path / "plain")
    assert plain.class_weight == "none" and "classes" not in (plain.auto_reason or "")
    assert main([*common, "--task", "regression", "--class-weight", "balanced", "--out", str(tmp_path / "r")]) == 2
