"""A disk that fills up during a run (issue 11, item 5): the failure path itself does not
fail, the message states only what is on disk, and nothing temporary stays behind.

The disk is real: a small tmpfs mounted for the test, filled by a callback at a chosen
step (as another program would), so every write the run makes meets a genuine ENOSPC.
Mounting needs root (or CAP_SYS_ADMIN); elsewhere these tests are skipped and
test_training_faults.py's injected ENOSPC still covers the checkpoint path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from bertstudio.errors import TrainingError
from bertstudio.tasks import get_task
from bertstudio.tasks.model import build_model
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import RunParts, fit

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_disk(tmp_path):
    """``make(kib)`` mounts a tmpfs of that size and returns its folder; unmounted afterwards."""
    mounted: list[Path] = []

    def make(kib: int) -> Path:
        where = tmp_path / f"disk{len(mounted)}"
        where.mkdir()
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(where)], capture_output=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode(errors='replace').strip()}")
        mounted.append(where)
        return where

    yield make
    for where in mounted:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(disk: Path) -> None:
    """Take every free block, as another program filling the disk would."""
    with open(disk / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass


def leftovers(folder: Path) -> list[str]:
    return [str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.startswith(".") or p.name.endswith((".tmp", ".old"))]


def run_filling_at(tiny, out: Path, disk: Path, fill_at: int):
    """3 epochs of 4 steps (evaluations at 4, 8, 12); the disk fills after step ``fill_at``."""
    torch.manual_seed(0)
    model, tok = build_model("sentence", tiny, labels=["neg", "pos"])
    events = []

    def callback(event, control):
        events.append(event)
        if event.kind == "step" and event.step == fill_at:
            fill(disk)

    cfg = TrainConfig(model=tiny, epochs=3, batch_size=8, lr=3e-3, logging_steps=1, seed=1, max_length=32,
                      device="cpu", precision="fp32", output_dir=str(out))
    result = fit(cfg, RunParts(model, tok, get_task("sentence"), ["neg", "pos"]), sentiment(32), sentiment(8, 3),
                 callbacks=[callback])
    return result, events


def test_full_before_any_checkpoint_promises_nothing(tiny, small_disk):
    disk = small_disk(8192)
    out = disk / "run"
    result, events = run_filling_at(tiny, out, disk, fill_at=1)
    assert result.status == "failed" and isinstance(result.error, TrainingError)
    assert "the disk is full at step" in result.message
    # nothing was saved, so nothing is claimed: no intact best, no checkpoint to resume from
    assert "best" not in result.message and "resume" not in result.message and "start the run again" in result.message
    assert not (out / "checkpoints" / "best").exists() and not (out / "checkpoints" / "last").exists()
    assert events[-1].kind == "finished" and events[-1].status == "failed"  # the callbacks still hear the end
    assert leftovers(out) == []


def test_full_after_a_checkpoint_names_what_is_intact(tiny, small_disk):
    disk = small_disk(8192)
    out = disk / "run"
    result, _ = run_filling_at(tiny, out, disk, fill_at=5)
    # the checkpoint after step 8 failed (evaluated there): not "at step 9", a step never trained
    assert result.status == "failed" and "the disk is full at step 8;" in result.message, result.message
    best, last = out / "checkpoints" / "best", out / "checkpoints" / "last"
    assert f"({best}, step 4) is intact" in result.message and f"resume from {last}" in result.message
    # and it is true: both are whole checkpoints of step 4, the best one loads
    assert ckpt.read_state(best)["step"] == 4 and ckpt.read_state(last)["step"] == 4
    assert (last / ckpt.OPTIMIZER).is_file()
    model, _ = build_model("sentence", tiny, labels=["neg", "pos"])
    ckpt.load_weights(best, model)
    assert leftovers(out) == []


def test_saving_a_config_on_a_full_disk_leaves_the_old_one_and_no_temporary_file(small_disk):
    disk = small_disk(64)
    TrainConfig(epochs=2).save(disk / "config.toml")
    fill(disk)
    with pytest.raises(OSError):
        TrainConfig(epochs=5, labels=[f"label {i}" for i in range(2000)]).save(disk / "config.toml")
    assert TrainConfig.load(disk / "config.toml").epochs == 2
    assert sorted(p.name for p in disk.iterdir()) == ["config.toml", "filler"]


def test_the_cli_says_one_true_line(tiny, small_disk, tmp_path):
    disk = small_disk(96)  # the config and history fit; the first checkpoint (~150 kB of weights) does not
    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8)), encoding="utf-8")
    dev = tmp_path / "dev.tsv"  # rows of its own: a dev file repeating train would add the run's warning line
    dev.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8, 12)),
                   encoding="utf-8")
    out = disk / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "bertstudio", "--quiet", "train", "--train", str(data), "--eval", str(dev), "--model", tiny,
         "--epochs", "1", "--batch-size", "8", "--max-length", "16", "--device", "cpu", "--out", str(out)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert lines[0].startswith("bertstudio: run failed:") and "the disk is full" in lines[0]
    assert "intact" not in lines[0] and "resume" not in lines[0]
    assert not (out / "checkpoints" / "best").exists() and leftovers(out) == []


def test_evaluate_export_run_and_export_onnx_say_the_disk_is_full(tiny, small_disk, tmp_path, capsys):
    """On a full disk evaluate --out and export-run ended in "internal error: OSError", and
    export-onnx said the model could not be exported (expected a BERT-style encoder)."""
    from bertstudio.cli import main

    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(4)), encoding="utf-8")
    run = tmp_path / "run"
    assert main(["--quiet", "train", "--train", str(data), "--model", tiny, "--epochs", "1", "--batch-size", "8",
                 "--max-length", "16", "--device", "cpu", "--out", str(run)]) == 0
    capsys.readouterr()
    disk = small_disk(256)
    for argv, target in ((["evaluate", "--model", str(run / "model"), "--eval", str(data), "--out", str(disk / "ev")],
                          disk / "ev"),
                         (["export-run", "--config", str(run / "config.toml"), "--train", str(data), "--out",
                           str(disk / "er")], disk / "er"),
                         (["export-onnx", "--model", str(run / "model"), "--out", str(disk / "onnx")], disk / "onnx")):
        fill(disk)
        code = main(["--quiet", *argv])
        lines = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(lines) == 1, lines
        assert lines[0].startswith(f"bertstudio: error: {target}") and "the disk is full" in lines[0], lines
        assert "internal error" not in lines[0] and "BERT-style" not in lines[0]
        (disk / "filler").unlink()


def test_a_full_disk_met_while_the_last_model_is_saved_is_the_disk_full_message_without_a_step():
    """safetensors raises its own SafetensorError ("... (os error 28)"), which was "training failed
    at step 3: SafetensorError" for a 2-step run, not the disk-full line."""
    from bertstudio.train.faults import describe_failure

    class SafetensorError(Exception):
        pass

    exc = SafetensorError("Error while serializing: I/O error: No space left on device (os error 28)")
    error = describe_failure(exc, step=3, phase="saving the run")
    assert isinstance(error, TrainingError) and error.problem == "the disk is full"
    assert describe_failure(exc, step=3, phase="training").problem == "the disk is full at step 3"
    other = describe_failure(RuntimeError("shape mismatch"), step=3, phase="saving the run")
    assert other.problem == "saving the run failed: RuntimeError: shape mismatch"


def test_the_disk_full_line_names_the_users_file_not_the_temporary_one():
    import errno

    from bertstudio.errors import disk_full_error

    def full(name: str) -> OSError:
        return OSError(errno.ENOSPC, "No space left on device", name)

    assert disk_full_error(full("/d/ev/.metrics.json.123.tmp")).message == (
        "/d/ev/metrics.json: the disk is full (expected free disk space, then run it again)")
    assert disk_full_error(full("/d/.er.n0123abcd.tmp/data/train.jsonl")).path == "/d/er"
    assert disk_full_error(full("/d/.long~0123abcd.77.tmp")).path == "/d"  # a cut name: its folder
    wrapped = RuntimeError("export failed")
    wrapped.__cause__ = full("/d/x")
    assert disk_full_error(wrapped).path == "/d/x"
    assert disk_full_error(OSError(errno.EACCES, "Permission denied", "/d/x")) is None
