"""train/warm.py: a run that reuses the kept model and tokenised rows is the cold run, bit for bit."""

from __future__ import annotations

import pytest
import torch

from bertstudio.train import warm as warm_module
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import build_parts, train
from bertstudio.train.warm import WarmCache, rows_fingerprint

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py


def config(tiny, **kw):
    values = dict(model=tiny, epochs=2, batch_size=4, lr=2e-3, logging_steps=1, seed=7, max_length=32, device="cpu",
                  precision="fp32", warmup_ratio=0.1)
    return TrainConfig(**{**values, **kw})


def run(cfg, warm=None, train_rows=None):
    events = []
    result = train(cfg, train_rows or sentiment(24, seed=1), sentiment(8, seed=2), warm=warm,
                   callbacks=[lambda e, c: events.append(e)])
    assert result.status == "finished", result.message
    losses = [e.loss for e in events if e.kind == "step"]
    weights = {k: v.clone() for k, v in result.model.state_dict().items()}
    phases = [e.phase for e in events if e.kind == "phase"]
    return losses, result.metrics, weights, phases


def same_weights(a, b):
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("head", ["linear", "embedding"])  # embedding: a linear probe first (train/probe.py)
def test_a_warm_run_trains_from_the_pristine_weights_and_matches_a_cold_run(tiny, head):
    cold = run(config(tiny, head=head))
    cache = WarmCache(enabled=True)
    first = run(config(tiny, head=head), cache)  # fills the cache
    second = run(config(tiny, head=head), cache)  # reuses the model, the probe and the rows
    third = run(config(tiny, head=head), cache)  # and again: the kept copy was not trained by the second run
    assert "reusing_model" not in first[3] and "loading_model" in first[3]
    assert "reusing_model" in second[3] and "reusing_model" in third[3]
    for other in (first, second, third):
        assert other[0] == cold[0]  # the same loss at every step, exactly
        assert other[1] == cold[1]  # the same metrics
        assert same_weights(other[2], cold[2])  # the same trained weights
    assert len(cold[0]) == 12  # 24 rows / 4, 2 epochs: the run did train
    if head == "embedding":
        assert cold[3].count("probing") >= 1 and first[3].count("probing") >= 1
        assert "probing" not in second[3] and "probing" not in third[3]  # the kept probe was used


def test_the_kept_model_is_never_the_trained_one(tiny):
    cache = WarmCache(enabled=True)
    run(config(tiny), cache)
    torch.manual_seed(7)  # the engine seeds with accelerate's set_seed(7) before building
    from accelerate.utils import set_seed

    set_seed(7)
    fresh = build_parts(config(tiny), ["neg", "pos"]).model.state_dict()
    kept = cache._entry.parts.model.state_dict()
    assert same_weights(kept, fresh)


def test_rows_are_reused_only_when_equal_and_the_model_only_for_the_same_settings(tiny, monkeypatch):
    builds, encodes = [], []
    real_build = build_parts

    def counting_build(cfg, labels):
        builds.append(cfg.seed)
        return real_build(cfg, labels)

    cache = WarmCache(enabled=True)
    real_encoded = cache.encoded

    def spy(*args, **kw):
        out = real_encoded(*args, **kw)
        encodes.append(out[1])
        return out

    monkeypatch.setattr("bertstudio.train.engine.build_parts", counting_build)
    monkeypatch.setattr(cache, "encoded", spy)
    run(config(tiny), cache)
    run(config(tiny), cache)
    assert builds == [7] and encodes == [False, True]
    changed = sentiment(24, seed=1)
    changed = changed.with_dataset(changed.dataset.map(lambda r, i: {"label": "neg" if i == 0 else r["label"]},
                                                       with_indices=True))
    run(config(tiny), cache, train_rows=changed)  # one label edited: tokenised again, same model
    assert builds == [7] and encodes == [False, True, False]
    run(config(tiny, seed=8), cache)  # another seed: another head, built cold
    assert builds == [7, 8]
    assert cache.would_reuse(config(tiny, seed=8), ["neg", "pos"])  # one entry: the newest
    assert not cache.would_reuse(config(tiny), ["neg", "pos"])


def test_clear_and_the_switch_turn_reuse_off(tiny, monkeypatch):
    cache = WarmCache(enabled=True)
    run(config(tiny), cache)
    assert cache.holds_model() and cache.would_reuse(config(tiny), ["neg", "pos"])
    cache.clear()
    assert not cache.holds_model()
    assert "reusing_model" not in run(config(tiny), cache)[3]
    monkeypatch.setenv(warm_module.ENV, "0")
    off = WarmCache()
    run(config(tiny), off)
    assert not off.enabled and not off.holds_model()


def test_a_model_too_large_to_copy_is_not_kept_and_the_old_entry_goes(tiny, monkeypatch):
    cache = WarmCache(enabled=True)
    run(config(tiny), cache)
    monkeypatch.setattr(warm_module, "_available_memory", lambda: 1000)  # bytes: nothing fits
    run(config(tiny, seed=8), cache)
    assert not cache.holds_model()


def test_a_clear_during_a_build_keeps_nothing(tiny):
    cache = WarmCache(enabled=True)

    def build_then_close(cfg, labels):
        parts = build_parts(cfg, labels)
        cache.clear()  # the project closed while the run was loading its model
        return parts

    cache.parts(config(tiny), ["neg", "pos"], build_then_close)
    assert not cache.holds_model()


def test_rows_fingerprint_follows_content_not_identity():
    a, b = sentiment(10, seed=1), sentiment(10, seed=1)
    assert rows_fingerprint(a) == rows_fingerprint(b)
    assert rows_fingerprint(a) != rows_fingerprint(sentiment(10, seed=2))
    assert rows_fingerprint(a.select(range(5))) != rows_fingerprint(a.select(range(1, 6)))
    assert rows_fingerprint(a.select(range(5))) == rows_fingerprint(b.select(range(5)))


def test_the_memory_check_reads_the_memory_where_there_is_no_proc_meminfo(monkeypatch):
    """macOS and Windows have no /proc/meminfo: the check let every second copy of the weights through."""
    import builtins
    import collections

    import psutil

    real_open = builtins.open

    def no_proc(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file).startswith("/proc/"):
            raise FileNotFoundError(2, "No such file or directory", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", no_proc)
    memory = collections.namedtuple("memory", "total available")
    monkeypatch.setattr(psutil, "virtual_memory", lambda: memory(16 << 30, 3 << 30))
    assert warm_module._available_memory() == 3 << 30
    model = torch.nn.Linear(1000, 1000)  # 4 MB of weights
    monkeypatch.setattr(psutil, "virtual_memory", lambda: memory(16 << 30, 8 << 20))
    assert not warm_module._fits_in_memory(model)


def test_the_switch_reads_off_as_bertstudio_assist_does(monkeypatch):
    """BERTSTUDIO_WARM=false (or off, no) left the cache on: only "0" turned it off."""
    for value in ("0", "false", "off", "no", " FALSE "):
        monkeypatch.setenv(warm_module.ENV, value)
        assert not WarmCache().enabled, value
    for value in ("1", "true", "on", ""):
        monkeypatch.setenv(warm_module.ENV, value)
        assert WarmCache().enabled, value
