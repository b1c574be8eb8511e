"""Real faults injected into a real run: each ends the run cleanly, says what happened,
and leaves checkpoints/best loadable."""

from __future__ import annotations

import errno
import functools
import json
import shutil

import pytest
import torch

from bertstudio.errors import ConfigError, TrainingError
from bertstudio.tasks import get_task
from bertstudio.tasks.model import build_model
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import RunParts, fit, train

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py

STEPS_PER_EPOCH = 4  # 32 rows, batch 8


def run_with_hook(tiny, out, hook, **kw):
    """Train 3 epochs with ``hook(module, args, output)`` on the model's forward, counting
    training forwards only (so the fault strikes at a known optimizer step)."""
    torch.manual_seed(0)
    model, tok = build_model("sentence", tiny, labels=["neg", "pos"])
    calls = {"train": 0}

    def counted(module, args, output):
        if module.training:
            calls["train"] += 1
            return hook(calls["train"], output)
        return None

    model.register_forward_hook(counted)
    events = []
    cfg = TrainConfig(model=tiny, epochs=3, batch_size=8, lr=3e-3, logging_steps=1, seed=1, max_length=32,
                      device="cpu", output_dir=str(out), **kw)
    result = fit(cfg, RunParts(model, tok, get_task("sentence"), ["neg", "pos"]), sentiment(32), sentiment(8, 3),
                 callbacks=[lambda e, c: events.append(e)])
    return result, events, model


def assert_failed_cleanly(result, events, out, text):
    assert result.status == "failed"
    assert isinstance(result.error, TrainingError)
    assert text in result.message
    assert events[-1].kind == "finished" and events[-1].status == "failed" and events[-1].message == result.message
    last = json.loads((out / "history.jsonl").read_text().splitlines()[-1])
    assert last["kind"] == "finished" and last["status"] == "failed"
    best = out / "checkpoints" / "best"
    assert ckpt.read_state(best)["step"] == STEPS_PER_EPOCH  # the evaluation at the end of epoch 1
    weights = torch.load(best / "weights.pt", weights_only=True)
    assert all(torch.isfinite(w).all() for w in weights.values() if w.is_floating_point())
    assert not [p for p in (out / "checkpoints").iterdir() if p.name.startswith(".")]  # no half-written folder


def test_model_forward_that_raises(tiny, tmp_path):
    def hook(n, output):
        if n == 6:
            raise ValueError("my custom head cannot handle this batch")

    result, events, _ = run_with_hook(tiny, tmp_path, hook)
    assert_failed_cleanly(result, events, tmp_path, "my custom head cannot handle this batch")
    assert "step 6" in result.message and "ValueError" in result.message
    assert result.step == 5


def test_nan_loss_stops_at_that_step_before_updating(tiny, tmp_path):
    def hook(n, output):
        if n == 7:
            output.loss = output.loss * float("nan")
        return output

    result, events, model = run_with_hook(tiny, tmp_path, hook)
    assert_failed_cleanly(result, events, tmp_path, "the loss became nan at step 7")
    assert all(torch.isfinite(p).all() for p in model.parameters())  # the NaN update was never applied
    assert max(e.step for e in events if e.kind == "step") == 6


def test_out_of_memory(tiny, tmp_path):
    def hook(n, output):
        if n == 5:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")

    result, events, _ = run_with_hook(tiny, tmp_path, hook)
    assert_failed_cleanly(result, events, tmp_path, "out of memory")
    assert "step 5" in result.message and "smaller batch size" in result.message


def test_disk_full_while_saving_keeps_the_previous_best(tiny, tmp_path, monkeypatch):
    real = ckpt.write_file
    written = []

    def fill_up(path, data):
        # the first checkpoint (best at step 4: weights, predictions, state) fits; then the disk is full
        if len(written) >= 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        written.append(path)
        real(path, data)

    monkeypatch.setattr(ckpt, "write_file", fill_up)
    result, events, _ = run_with_hook(tiny, tmp_path, lambda n, output: None)
    assert_failed_cleanly(result, events, tmp_path, "disk is full")
    # what is true on disk: the best checkpoint of step 4 is whole; no checkpoints/last was completed
    assert f"best checkpoint so far ({tmp_path / 'checkpoints' / 'best'}, step 4) is intact" in result.message
    assert "resume" not in result.message and "start the run again" in result.message
    assert [e.path for e in events if e.kind == "checkpoint"] == [str(tmp_path / "checkpoints" / "best")]
    # and that best checkpoint loads into the model it came from
    model, _ = build_model("sentence", tiny, labels=["neg", "pos"])
    ckpt.load_weights(tmp_path / "checkpoints" / "best", model)


def test_a_model_that_cannot_be_loaded_fails_before_starting(tmp_path):
    events = []
    cfg = TrainConfig(model=str(tmp_path / "no-such-model"), epochs=1, device="cpu")
    result = train(cfg, sentiment(8), callbacks=[lambda e, c: events.append(e)])
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "no-such-model" in result.message
    assert [e.kind for e in events] == ["finished"] and events[0].status == "failed"


def _run_with_callback(tiny, out, callback, **kw):
    """Train 3 epochs (12 steps, evaluated each epoch) with ``callback(event)`` as the run's own listener."""
    torch.manual_seed(0)
    model, tok = build_model("sentence", tiny, labels=["neg", "pos"])
    events = []

    def listen(event, control):
        events.append(event)
        callback(event)

    cfg = TrainConfig(model=tiny, epochs=3, batch_size=8, lr=3e-3, logging_steps=1, seed=1, max_length=32,
                      device="cpu", output_dir=str(out), **kw)
    result = fit(cfg, RunParts(model, tok, get_task("sentence"), ["neg", "pos"]), sentiment(32), sentiment(8, 3),
                 callbacks=[listen])
    return result, events


def _at_step(n, act):
    return lambda event: act() if event.kind == "step" and event.step == n else None


GONE = "the run folder was removed or moved while the run was writing it"


def _saving(act):
    return lambda event: act() if event.kind == "phase" and event.phase == "saving" else None


# mid-run (noticed at the next event it records), and as the run saves its model (no event recorded
# before the export: the failed write is explained by the folder's absence)
@pytest.mark.parametrize("when", [functools.partial(_at_step, 5), _saving], ids=["step 5", "saving"])
def test_a_run_folder_removed_mid_run_stops_the_run_and_is_not_made_again(tiny, tmp_path, when):
    """It came back as a "finished" run (model/, checkpoints/, metrics.json, no config.toml or history)."""
    out = tmp_path / "run"
    result, events = _run_with_callback(tiny, out, when(lambda: shutil.rmtree(out)))
    assert result.status == "failed" and isinstance(result.error, TrainingError)
    assert result.message == f"{out}: {GONE}"
    assert events[-1].kind == "finished" and events[-1].status == "failed" and events[-1].message == result.message
    assert not out.exists()


def test_a_run_folder_moved_mid_run_stops_the_run_and_nothing_is_written_in_its_old_place(tiny, tmp_path):
    out, moved = tmp_path / "run", tmp_path / "elsewhere"
    result, events = _run_with_callback(tiny, out, _at_step(5, lambda: out.rename(moved)))
    assert result.status == "failed" and result.message == f"{out}: {GONE}"
    assert max(e.step for e in events if e.kind == "step") == 5  # stopped at the next event
    assert not out.exists()
    assert (moved / "config.toml").is_file() and (moved / "history.jsonl").is_file()  # the moved run, as it was


def test_a_run_folder_replaced_mid_run_by_another_is_left_alone(tiny, tmp_path):
    out, other = tmp_path / "run", tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")

    def swap():
        out.rename(tmp_path / "old-run")
        other.rename(out)

    result, _ = _run_with_callback(tiny, out, _at_step(5, swap))
    assert result.status == "failed" and result.message == f"{out}: {GONE}"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_history_removed_mid_run_stops_the_run_and_is_not_made_again(tiny, tmp_path):
    out = tmp_path / "run"
    result, events = _run_with_callback(tiny, out, _at_step(5, lambda: (out / "history.jsonl").unlink()))
    assert result.status == "failed" and isinstance(result.error, TrainingError)
    assert result.message == f"{out / 'history.jsonl'}: the run's history was removed or moved while the run was writing it"
    assert not [e for e in events if e.kind == "step" and e.step > 5]
    assert not (out / "history.jsonl").exists() and (out / "config.toml").is_file()
    assert not (out / "model").exists() and not (out / "metrics.json").exists()  # no "finished" run


def test_a_run_folder_being_removed_is_named_as_the_folder_not_its_history(tiny, tmp_path):
    """rm -rf takes the folder's files one by one: seen between two of its unlinks (history and
    config.toml gone, the folder not yet) the run said its history alone had been removed."""
    out = tmp_path / "run"

    def half_removed():
        (out / "history.jsonl").unlink()
        (out / "config.toml").unlink()

    result, _ = _run_with_callback(tiny, out, _at_step(5, half_removed))
    assert result.status == "failed" and result.message == f"{out}: {GONE}"
    assert not (out / "history.jsonl").exists() and not (out / "config.toml").exists()


def test_a_seeds_job_folder_removed_mid_job_is_not_made_again_for_its_summary(tiny, tmp_path):
    """The job's seeds.json was written with mkdir(parents=True) after the failed seed: the folder the
    user deleted came back holding only that summary."""
    from bertstudio.train.seeds import train_seeds

    job = tmp_path / "job"
    removed = []

    def listen(event, control):
        if event.kind == "step" and event.step == 2 and not removed:
            removed.append(True)
            shutil.rmtree(job)

    cfg = TrainConfig(model=tiny, task="sentence", labels=["neg", "pos"], epochs=1, batch_size=8, lr=3e-3, seed=1,
                      logging_steps=1, seeds=2, max_length=32, device="cpu", output_dir=str(job))
    result = train_seeds(cfg, sentiment(32), sentiment(8, 3), callbacks=[listen])
    assert result.status == "failed" and GONE in result.message
    assert not job.exists()


def test_a_seeds_job_folder_removed_between_seeds_stops_the_job(tiny, tmp_path):
    """Removed after one seed's run, the next seed's run made the folder again (with its parent) and
    the summary went into it, naming a seed and a folder both gone."""
    from bertstudio.train.seeds import train_seeds

    job = tmp_path / "job"

    def listen(event, control):
        if event.kind == "finished" and job.exists():
            shutil.rmtree(job)

    cfg = TrainConfig(model=tiny, task="sentence", labels=["neg", "pos"], epochs=1, batch_size=8, lr=3e-3, seed=1,
                      seeds=2, max_length=32, device="cpu", output_dir=str(job))
    result = train_seeds(cfg, sentiment(32), sentiment(8, 3), callbacks=[listen])
    assert result.status == "failed" and "the job folder was removed or moved while the job ran" in result.message
    assert len(result.results) == 1 and not job.exists()
