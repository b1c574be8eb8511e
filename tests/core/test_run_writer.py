"""Who is writing a run folder: a run whose process was killed read as "running" for ever
(the Runs page listed it so, followed it without end and would not rename it), and a second
training could write into the folder of one still training. The process writing a run holds
the folder's lock; a reader on the same machine tells a live run from a dead one by it."""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bertstudio.cli import main
from bertstudio.data.project_lock import lock_folder, unlock_folder
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.events import RunStarted, event_to_dict
from bertstudio.train.rundir import RunFolder, check_output_dir, read_run, writer_active

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")


def _started(host: str | None) -> str:
    return json.dumps(event_to_dict(RunStarted(40, 16, 0, 10, 8, 100, 100, "cpu", "fp32", host=host))) + "\n"


def _wait(what, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)


def test_a_killed_training_reads_as_interrupted_and_a_live_one_keeps_its_folder(tiny, tmp_path):
    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8)), encoding="utf-8")
    out = tmp_path / "run"
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bertstudio", "--quiet", "train", "--train", str(data), "--model", tiny, "--out", str(out),
         "--epochs", "10000", "--batch-size", "8", "--logging-steps", "1", "--device", "cpu", "--max-length", "16"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(repo), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    try:
        history = out / "history.jsonl"
        _wait(lambda: proc.poll() is not None or (history.is_file() and '"kind": "step"' in history.read_text()))
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert writer_active(out) is True and read_run(out).status == "running"
        # a second training into the folder, even one asked to replace it, is refused before anything moves
        with pytest.raises(ConfigError, match="another training is writing this run folder now"):
            check_output_dir(TrainConfig(model=tiny, train_file=str(data), output_dir=str(out), overwrite=True))
        second = train(TrainConfig(model=tiny, output_dir=str(out), overwrite=True, epochs=1, batch_size=8, device="cpu",
                                   precision="fp32", max_length=16), sentiment(16))
        assert second.status == "failed" and "another training is writing" in second.message
        assert (out / "config.toml").is_file() and history.is_file()  # the live run's files were left alone
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    info = read_run(out)
    assert info.status == "interrupted" and writer_active(out) is False
    assert "stopped without finishing" in info.message and "--resume" not in info.message  # a killed run kept no checkpoint
    # the way on is a new run in the same folder
    again = train(TrainConfig(model=tiny, output_dir=str(out), overwrite=True, epochs=1, batch_size=8, device="cpu",
                              precision="fp32", max_length=16), sentiment(16))
    assert again.status == "finished" and read_run(out).status == "finished"


def test_an_interrupted_resume_says_the_command_that_continues_it_and_the_command_works(tiny, tmp_path, capsys):
    data = tmp_path / "train.tsv"
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in sentiment(32).dataset.to_list()),
                    encoding="utf-8")
    cancel = threading.Event()
    out = tmp_path / "my run"  # a space: the command is quoted for a shell

    def stop(event, control):
        if event.kind == "step" and event.step == 2:
            cancel.set()

    cfg = TrainConfig(model=tiny, train_file=str(data), epochs=1, batch_size=8, lr=1e-3, max_length=16, device="cpu",
                      precision="fp32", output_dir=str(out), logging_steps=1)
    assert train(cfg, sentiment(32), callbacks=[stop], cancel=cancel).status == "cancelled"
    with (out / "history.jsonl").open("a", encoding="utf-8") as fh:  # a resume of it started here, then was killed
        fh.write(_started(socket.gethostname()))
    info = read_run(out)
    assert info.status == "interrupted"
    command = shlex.split(info.message.split("continue it with: ")[1])
    assert command[:2] == ["bertstudio", "train"]
    assert main(["--quiet", *command[1:]], out=io.StringIO()) == 0, capsys.readouterr().err
    assert read_run(out).status == "finished"


def test_a_run_trained_on_another_machine_is_never_called_interrupted(tmp_path):
    """A folder synced from a GPU server has no writer here: nobody on this machine can tell."""
    for n, host in enumerate(("gpu-server-7", None)):  # None: a run written before runs named their machine
        run = tmp_path / f"run{n}"
        run.mkdir()
        (run / "history.jsonl").write_text(_started(host))
        assert read_run(run).status == "running"


def test_a_second_writer_is_refused_by_the_lock_itself(tmp_path, monkeypatch):
    """RunFolder takes the lock before it moves or truncates anything (a --overwrite run sets the
    earlier run's files aside first)."""
    import bertstudio.train.rundir as rundir

    monkeypatch.setattr(rundir, "_LOCK_TRIES", 2)
    run = tmp_path / "run"
    run.mkdir()
    (run / "history.jsonl").write_text(_started(socket.gethostname()))
    held = lock_folder(run)  # another descriptor of this process conflicts like another process
    try:
        assert held is not None and held >= 0
        with pytest.raises(ConfigError, match="another training is writing"):
            RunFolder(run)
        assert (run / "history.jsonl").read_text() == _started(socket.gethostname())
        assert read_run(run).status == "running"
    finally:
        unlock_folder(held)
    assert read_run(run).status == "interrupted"
    folder = RunFolder(run, append=True)
    try:
        assert read_run(run).status == "running" and writer_active(run) is True
    finally:
        folder.close()
        folder.settle(failed=False)
    assert writer_active(run) is False
