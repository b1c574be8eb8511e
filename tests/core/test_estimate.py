"""train/estimate.py: the Train page's time estimate, on hand-computed cases."""

from __future__ import annotations

import math

import pytest

from bertstudio.train.config import TrainConfig
from bertstudio.train.estimate import (
    FORWARD_COST, SETFIT_COST, SETUP_S, Throughput, calibrate, estimate, history_throughput, machine_rate, mean_tokens,
    rough_throughput, rounded,
)
from bertstudio.train.events import StepLogged
from bertstudio.train.rundir import RunFolder

LABELS = ["neg", "pos"]


def config(**kw) -> TrainConfig:
    return TrainConfig(task=kw.pop("task", "sentence"), labels=LABELS, **kw)


def test_fine_tuning_is_examples_over_throughput():
    # 100 rows x 2 epochs = 200 training examples at 10 examples/s: 20 s, plus the fixed set-up
    e = estimate(config(batch_size=10, epochs=2), 100, Throughput(10.0, "history"))
    assert e.phases["train"] == pytest.approx(20.0) and e.seconds == pytest.approx(20.0 + SETUP_S)
    assert e.phases["setfit"] == e.phases["probe"] == e.phases["evaluate"] == 0 and SETUP_S == 10.9


def test_setfit_three_seeds_by_hand():
    """96 rows, SetFit then the embedding head frozen, batch 16, 9 epochs, 3 seeds, 60 dev rows, 20 ex/s:
    SetFit 240 steps (20 iterations x 2 x 96 / 16) x 16 pairs x 2 texts = 7,680 examples at
    SETFIT_COST each: 384 s x SETFIT_COST; probe 96 / 3 / 20 = 1.6 s; the head: 54 steps x 16 =
    864 examples / 3 / 20 = 14.4 s; 9 evaluations of 60 rows: 9 x 60 / 3 / 20 = 9 s. 3 seeds."""
    assert SETFIT_COST == pytest.approx(4.649, abs=1e-3)  # HF Trainer's defaults vs the engine, measured
    c = config(method="setfit", head="embedding", mode="frozen", batch_size=16, epochs=9, seeds=3)
    e = estimate(c, 96, Throughput(20.0, "history"), eval_rows=60)
    assert e.phases == pytest.approx({"setup": SETUP_S, "setfit": 384.0 * SETFIT_COST, "probe": 1.6, "train": 14.4,
                                      "evaluate": 9.0})
    assert e.seconds == pytest.approx(3 * (SETUP_S + 384.0 * SETFIT_COST + 25.0)) and e.seeds == 3 and not e.rough


def test_a_partial_last_batch_and_fractional_epochs_count_what_runs():
    # 25 rows, batch 10: 3 steps per epoch, the last of 5 rows. 1 epoch: 25 examples (not 30);
    # 0.5 epoch: ceil(1.5) = 2 full steps, 20 examples (not 12.5); 1.5 epochs: 5 steps, 25 + 20
    for epochs, examples in ((1, 25), (0.5, 20), (1.5, 45)):
        e = estimate(config(batch_size=10, epochs=epochs), 25, Throughput(5.0, "history"))
        assert e.phases["train"] == pytest.approx(examples / 5)


def test_pairs_through_the_siamese_head_encode_both_sides():
    c = config(task="pair", head="siamese", mode="full", batch_size=10, epochs=1)
    e = estimate(c, 30, Throughput(10.0, "history"), eval_rows=30)
    # probe 30 x 2 / 3 / 10 = 2 s; train 30 x 2 / 10 = 6 s; one evaluation 30 x 2 / 3 / 10 = 2 s
    assert e.phases == pytest.approx({"setup": SETUP_S, "setfit": 0.0, "probe": 2.0, "train": 6.0, "evaluate": 2.0})


def test_a_throughput_measured_on_other_texts_scales_with_their_length():
    c = config(batch_size=10, epochs=1, max_length=64)
    base = estimate(c, 100, Throughput(10.0, "calibration", 32.0), tokens=32.0).phases["train"]
    assert estimate(c, 100, Throughput(10.0, "calibration", 32.0), tokens=64.0).phases["train"] == pytest.approx(2 * base)
    assert estimate(c, 100, Throughput(10.0, "calibration", 32.0), tokens=500.0).phases["train"] == pytest.approx(2 * base)
    assert estimate(c, 100, Throughput(10.0, "history"), tokens=500.0).phases["train"] == pytest.approx(base)  # own texts


def test_rough_is_marked_and_scales_with_model_size():
    small, big = rough_throughput(), rough_throughput(4 * 22_700_000)
    assert small.source == big.source == "rough" and big.examples_per_s == pytest.approx(small.examples_per_s / 4)
    assert estimate(config(), 10, small).rough


def test_mean_tokens():
    assert mean_tokens(["a b c d", "a b c d e f g h i j"]) == pytest.approx((4 * 1.3 + 2 + 10 * 1.3 + 2) / 2)
    assert mean_tokens(["你好世界"]) == pytest.approx(6.0)  # one token per CJK character
    assert mean_tokens([]) == 0.0


@pytest.mark.parametrize("seconds, text", [(0.2, ("1", "s")), (7.4, ("7", "s")), (38, ("40", "s")),
                                           (170, ("3", "min")), (5400, ("1.5", "h"))])
def test_rounded(seconds, text):
    assert rounded(seconds) == text


def _run(folder, model, mode, rates, device="auto"):
    c = config(model=model, mode=mode, device=device, output_dir=str(folder))
    run = RunFolder.start(c)
    for i, rate in enumerate(rates):
        run.log_event(StepLogged(step=i + 1, total_steps=10, epoch=0.1, loss=1.0, lr=1e-5, examples_per_s=rate, eta_s=1))
    run.close()
    return folder


def test_history_throughput_reads_this_models_runs_newest_first(tmp_path):
    runs = [
        _run(tmp_path / "a", "m", "full", [10.0, 30.0, 20.0]),  # median 20
        _run(tmp_path / "b", "other", "full", [999.0]),  # another model: not this machine's rate for "m"
        _run(tmp_path / "c", "m", "frozen", [90.0]),  # frozen steps skip the backward pass: 90 / 3 = 30
        _run(tmp_path / "d", "m", "full", [50.0], device="cpu"),  # another device
        tmp_path / "e",  # no run at all
    ]
    (tmp_path / "e").mkdir()
    got = history_throughput(runs, "m")
    assert got == Throughput(pytest.approx(25.0), "history")  # median of 20 and 30
    assert history_throughput(runs, "m", max_runs=1).examples_per_s == pytest.approx(90.0 * FORWARD_COST)
    assert history_throughput(runs, "nothing") is None


def test_history_throughput_reads_a_several_seeds_job(tmp_path):
    job = tmp_path / "job"
    _run(job / "seed-0", "m", "full", [12.0])
    _run(job / "seed-1", "m", "full", [14.0])
    assert history_throughput([job], "m").examples_per_s == pytest.approx(13.0)


def test_calibration_times_real_training_steps_through_the_engine(tiny, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    got = calibrate(tiny, batch_size=4, steps=3)
    assert got.source == "calibration" and 8 * 1.3 + 2 <= got.tokens <= 15 * 1.3 + 2  # 8-15 words each
    assert math.isfinite(got.examples_per_s) and got.examples_per_s > 0
    assert list(tmp_path.iterdir()) == []  # nothing saved


def test_a_calibration_reads_the_fastest_step_after_the_first():
    # the first step pays for lazy set-up; a slow step was shared with other work
    assert machine_rate([5.0, 150.0, 2.0, 180.0, 3.0]) == 180.0
    assert machine_rate([900.0, 10.0]) == 10.0
    assert machine_rate([42.0]) == 42.0  # one step: all there is


def test_a_calibration_warns_about_no_training_data(tiny, tmp_path, monkeypatch, caplog):
    """Its made-up sentences repeated with labels a and b, and the run's check said "the training data:
    7 inputs appear more than once with different labels" on stderr and in the log of a project without them."""
    import logging

    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING):
        calibrate(tiny, batch_size=8, steps=2)
    assert not [r for r in caplog.records if "more than once" in r.getMessage()]
