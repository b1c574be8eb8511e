"""A run cancelled at some step and resumed from checkpoints/last ends exactly where an
uninterrupted run with the same seed ends (CPU, dropout on)."""

from __future__ import annotations

import random
import threading

import pytest
import torch

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError, DataError
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.events import RunStarted

from helpers import NEG, POS

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py

# Weights agree to float32 round-off at most (in practice bit for bit on one machine).
ATOL = 1e-6


def sentiment(n: int, seed: int):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        pos = rng.random() < 0.5
        words = rng.sample(POS if pos else NEG, 2) + rng.sample(["the", "a", "movie", "film", "story", "was", "very"], 3)
        rng.shuffle(words)
        rows.append({"text": " ".join(words), "label": "pos" if pos else "neg"})
    return from_records("sentence", rows, labels=["neg", "pos"])


def run(tiny, out, *, grad_accum, cancel_at=None, resume=False, precision="fp32", keep_tuning=1.0, train_file=None):
    cfg = TrainConfig(model=tiny, epochs=3, batch_size=4, grad_accum=grad_accum, lr=2e-3, logging_steps=1, seed=7,
                      max_length=32, device="cpu", precision=precision, output_dir=str(out), keep_tuning=keep_tuning,
                      resume_from=str(out / "checkpoints" / "last") if resume else None, train_file=train_file)
    cancel = threading.Event()
    events = []

    def cb(event, control):
        events.append(event)
        if cancel_at is not None and event.kind == "step" and event.step == cancel_at:
            cancel.set()

    result = train(cfg, sentiment(38, seed=1), sentiment(12, seed=2), callbacks=[cb], cancel=cancel)
    return result, events


# fp32, and bf16 (the CPU path's bf16 copy with fp32 master weights, lazy embedding AdamW); a run
# that keeps half of its change needs the weights it started from after the resume too
@pytest.mark.parametrize("grad_accum, where, precision, keep", [
    (1, "random", "fp32", 1.0), (1, "epoch_end", "fp32", 1.0), (2, "random", "fp32", 1.0), (1, "random", "bf16", 1.0),
    (2, "epoch_end", "bf16", 1.0), (1, "random", "fp32", 0.5), (2, "random", "bf16", 0.5)])
def test_cancel_then_resume_matches_an_uninterrupted_run(tiny, tmp_path, grad_accum, where, precision, keep):
    full, full_events = run(tiny, tmp_path / "full", grad_accum=grad_accum, precision=precision, keep_tuning=keep)
    assert full.status == "finished"
    total = next(e for e in full_events if isinstance(e, RunStarted)).total_steps  # after the loading phases
    per_epoch = total // 3
    # 38 rows / 4 = 10 batches: with accumulation 2 that is 5 steps an epoch, 15 in all
    assert per_epoch == (10 if grad_accum == 1 else 5)
    k = per_epoch if where == "epoch_end" else random.Random(grad_accum).randint(1, total - 2)

    first, _ = run(tiny, tmp_path / "cut", grad_accum=grad_accum, cancel_at=k, precision=precision, keep_tuning=keep)
    assert first.status == "cancelled" and first.step == k
    second, events = run(tiny, tmp_path / "cut", grad_accum=grad_accum, resume=True, precision=precision,
                         keep_tuning=keep)
    assert second.status == "finished" and second.step == total

    # the same steps with the same losses after the cut, the same evaluations, the same end
    after = {e.step: e.loss for e in full_events if e.kind == "step" and e.step > k}
    resumed = {e.step: e.loss for e in events if e.kind == "step"}
    assert resumed.keys() == after.keys()
    assert [resumed[s] for s in after] == pytest.approx([after[s] for s in after], abs=ATOL)
    full_evals = {e.step: e.metrics for e in full_events if e.kind == "eval"}
    for e in events:
        if e.kind == "eval":
            assert e.metrics == pytest.approx(full_evals[e.step], abs=1e-9)
    assert second.metrics == pytest.approx(full.metrics, abs=1e-9)
    for (name, a), b in zip(full.model.state_dict().items(), second.model.state_dict().values()):
        assert torch.allclose(a, b, atol=ATOL), name


def test_resume_from_a_folder_without_a_checkpoint_fails_clearly(tiny, tmp_path):
    (tmp_path / "checkpoints" / "last").mkdir(parents=True)
    result, events = run(tiny, tmp_path, grad_accum=1, resume=True)
    # a setting that names the wrong folder: ConfigError (the CLI exits 2), found before the model is built
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "no resumable checkpoint" in result.message
    assert events[-1].kind == "finished" and events[-1].status == "failed"


@pytest.fixture(scope="module")
def cut_run(tiny, tmp_path_factory):
    """A run cancelled at step 4 (of 30): its checkpoints/last is resumable."""
    out = tmp_path_factory.mktemp("cut") / "run"
    first, _ = run(tiny, out, grad_accum=1, cancel_at=4)
    assert first.status == "cancelled"
    return out


@pytest.mark.parametrize("changes", [{"step": 10**9}, {"epoch": 10**9}, {"batches_done": 10**6}, {"step": 3},
                                     {"epoch": 1, "batches_done": 0}])
def test_a_state_that_is_no_point_of_the_run_is_refused_and_the_checkpoint_kept(changes, cut_run, tiny, tmp_path):
    import json
    import shutil

    out = tmp_path / "run"
    shutil.copytree(cut_run, out)
    state = out / "checkpoints" / "last" / "state.json"
    state.write_text(json.dumps({**json.loads(state.read_text()), **changes}))
    result, _ = run(tiny, out, grad_accum=1, resume=True)
    assert result.status == "failed" and isinstance(result.error, ConfigError), result.message
    assert "no point of this run" in result.message and "state.json" in result.message
    assert (out / "checkpoints" / "last" / "weights.pt").is_file()  # nothing removed
    assert len(result.message) < 400


@pytest.mark.parametrize("name", ["history.jsonl", "checkpoints/last/weights.pt", "checkpoints/last/optimizer.pt",
                                  "checkpoints/last/rng.pt"])
def test_a_fifo_in_the_resumed_run_is_refused_not_waited_on(name, cut_run, tiny, tmp_path):
    import os
    import shutil

    from helpers import finishes

    out = tmp_path / "run"
    shutil.copytree(cut_run, out)
    (out / name).unlink()
    os.mkfifo(out / name)
    box = []
    assert finishes(lambda: box.append(run(tiny, out, grad_accum=1, resume=True)[0]), fifos=[out / name]) is None
    assert box[0].status == "failed" and isinstance(box[0].error, (ConfigError, DataError)), box[0].message
    assert "not a regular file" in box[0].message and name.split("/")[-1] in box[0].message


def test_a_run_that_keeps_a_share_resumes_only_with_its_starting_weights(cut_run, tiny, tmp_path):
    """cut_run kept all of its change: resumed with keep_tuning 0.5 it would take the cut's
    weights for the start, so the other setting is refused; a checkpoint of a keep_tuning 0.5
    run that lost its start.pt is refused in one line too. Nothing is deleted."""
    import shutil

    out = tmp_path / "run"
    shutil.copytree(cut_run, out)
    result, _ = run(tiny, out, grad_accum=1, resume=True, keep_tuning=0.5)
    assert result.status == "failed" and isinstance(result.error, ConfigError) and "keep_tuning" in result.message

    half = tmp_path / "half"
    first, _ = run(tiny, half, grad_accum=1, cancel_at=3, keep_tuning=0.5)
    assert first.status == "cancelled" and (half / "checkpoints" / "last" / "start.pt").is_file()
    (half / "checkpoints" / "last" / "start.pt").unlink()
    result, _ = run(tiny, half, grad_accum=1, resume=True, keep_tuning=0.5)
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "no starting weights" in result.message and "\n" not in result.message
    assert (half / "checkpoints" / "last" / "weights.pt").is_file()


def test_a_checkpoint_resumes_with_as_many_processes_as_wrote_it(tiny, tmp_path):
    """A step reads one batch per process: a 2-process run's checkpoint resumed in one process was
    refused as 'no point of this run' blaming state.json, and the Runs page's resume command
    for it was a one-process command."""
    import json

    from bertstudio.train.rundir import read_run, resume_command

    out = tmp_path / "cut"
    # a command is offered only for a run whose config names its data (one trained on a project's rows
    # in memory has none: rundir.not_resumable), so the run names a file holding its rows
    data = tmp_path / "train.tsv"
    rows = sentiment(38, seed=1).dataset.to_list()
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    first, _ = run(tiny, out, grad_accum=1, cancel_at=3, train_file=str(data))
    assert first.status == "cancelled"
    state = out / "checkpoints" / "last" / "state.json"
    saved = json.loads(state.read_text())
    assert saved["processes"] == 1
    assert resume_command(out).startswith("bertstudio train --config ")
    state.write_text(json.dumps({**saved, "processes": 2}))  # as a 2-process run writes it
    # --multi_gpu: without it a CPU (gloo) or one-GPU machine starts one process
    assert resume_command(out).startswith("accelerate launch --multi_gpu --num_processes 2 -m bertstudio train --config ")
    second, _ = run(tiny, out, grad_accum=1, resume=True, train_file=str(data))
    assert second.status == "failed" and isinstance(second.error, ConfigError)
    assert "written by a run of 2 process(es), and this one has 1" in second.message
    assert "accelerate launch --multi_gpu --num_processes 2" in second.message
    state.write_text(json.dumps({k: v for k, v in saved.items() if k != "processes"}))  # a checkpoint from before
    third, _ = run(tiny, out, grad_accum=1, resume=True, train_file=str(data))
    assert third.status == "finished" and read_run(out).status == "finished"


def test_resume_with_another_out_is_refused_up_front_naming_the_runs_folder(tmp_path, capsys):
    """``--resume R/checkpoints/last --out W`` said "W/checkpoints/best: the run's best checkpoint is
    missing", naming the new folder; a resumed run continues in its own (--help says so)."""
    import io

    from bertstudio.cli import main

    run = tmp_path / "R"
    (run / "checkpoints" / "last").mkdir(parents=True)
    # a checkpoint to the eye (state.json): a path that is none is said first, as such
    (run / "checkpoints" / "last" / "state.json").write_text("{}", encoding="utf-8")
    (run / "config.toml").write_text('task = "sentence"\noutput_dir = "."\n', encoding="utf-8")
    code = main(["train", "--resume", str(run / "checkpoints" / "last"), "--out", str(tmp_path / "W")], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"a resumed run continues in its own folder ({run})" in err and "without --out" in err
    assert not (tmp_path / "W").exists()
    with pytest.raises(ConfigError, match="a resumed run continues in its own folder") as refused:  # --config's too
        from bertstudio.cli import build_parser, config_from_args

        (tmp_path / "other.toml").write_text('task = "sentence"\noutput_dir = "elsewhere"\n', encoding="utf-8")
        config_from_args(build_parser().parse_args(["train", "--config", str(tmp_path / "other.toml"),
                                                    "--resume", str(run / "checkpoints" / "last")]))
    # the file's key is named, not an --out the user never typed
    said = str(refused.value)
    assert "other.toml" in said and "output_dir removed from that file" in said and "without --out" not in said
