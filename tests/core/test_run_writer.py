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


def _wait_while_alive(proc: subprocess.Popen, what, timeout: float = 120.0) -> None:
    """Until ``what()`` holds or ``proc`` ends: each turn waits on the process itself (its exit ends the wait at once)."""
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out"
        try:
            proc.wait(timeout=0.1)
            return
        except subprocess.TimeoutExpired:
            continue


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
        _wait_while_alive(proc, lambda: history.is_file() and '"kind": "step"' in history.read_text())
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


class _Held:
    """Another training's hold on a folder: a descriptor of this process conflicts like another process."""

    def __init__(self, folder: Path) -> None:
        self.fd = lock_folder(folder)
        assert self.fd is not None and self.fd >= 0

    def __enter__(self) -> "_Held":
        return self

    def __exit__(self, *_exc: object) -> None:
        unlock_folder(self.fd)


def _cli(argv, capsys) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue(), capsys.readouterr().err


def test_a_run_being_written_is_not_renamed(tmp_path):
    """Renamed from the Runs page while a resume wrote it, a run split into two half-folders."""
    from bertstudio.train.rundir import rename_run

    run = tmp_path / "runs" / "foo"
    run.mkdir(parents=True)
    (run / "history.jsonl").write_text(_started(socket.gethostname()))
    with _Held(run):
        with pytest.raises(ConfigError, match="a training is writing this run now"):
            rename_run(run, "bar")
        assert run.is_dir() and not (tmp_path / "runs" / "bar").exists()
    assert rename_run(run, "bar") == tmp_path / "runs" / "bar" and not run.exists()


def test_evaluate_never_writes_into_a_run_a_training_is_writing(tiny, tmp_path, capsys, monkeypatch):
    """evaluate --out RUN wrote its metrics and predictions into a live run, whose end then replaced them."""
    import bertstudio.train.rundir as rundir
    from bertstudio.train.rundir import write_results

    monkeypatch.setattr(rundir, "_LOCK_TRIES", 2)
    data = tmp_path / "eval.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\tpos\nbad boring {i}\tneg\n" for i in range(4)),
                    encoding="utf-8")
    model = tmp_path / "model-run"
    assert train(TrainConfig(model=tiny, output_dir=str(model), epochs=1, batch_size=8, device="cpu", precision="fp32",
                             max_length=16), sentiment(16)).status == "finished"
    live = tmp_path / "live"
    live.mkdir()
    with _Held(live):
        code, _, err = _cli(["--quiet", "evaluate", "--model", str(model / "model"), "--eval", str(data), "--out", str(live)],
                            capsys)
        assert code == 2 and err.strip().count("\n") == 0 and "a training is writing this folder now" in err, err
        with pytest.raises(ConfigError, match="another training is writing"):  # one that starts during the evaluation
            write_results(live, {"accuracy": 1.0}, [])
        assert list(live.iterdir()) == []
    code, _, err = _cli(["--quiet", "evaluate", "--model", str(model / "model"), "--eval", str(data), "--out", str(live)],
                        capsys)
    assert code == 0 and sorted(p.name for p in live.iterdir()) == ["metrics.json", "predictions.jsonl"], err


def test_a_second_glue_into_the_same_out_is_refused_and_an_empty_out_is_not_left(tiny, tmp_path, capsys, monkeypatch):
    """Two glue commands on one --out mixed their tasks' settings and one scoreboard replaced the other."""
    import bertstudio.train.rundir as rundir

    monkeypatch.setattr(rundir, "_LOCK_TRIES", 2)
    data = tmp_path / "G"
    (data / "RTE").mkdir(parents=True)
    (data / "RTE" / "train.tsv").write_text(
        "index\tsentence1\tsentence2\tlabel\n" + "".join(f"{i}\ta b\tc d\tentailment\n" for i in range(8)), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    argv = ["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(data), "--model", tiny, "--epochs", "1", "--out", str(out)]
    with _Held(out):
        code, _, err = _cli(argv, capsys)
    assert code == 2 and "another training is writing this folder now" in err and len(err.strip().splitlines()) == 1
    assert out.is_dir() and list(out.iterdir()) == []  # the user's folder stays
    fresh = tmp_path / "fresh"
    code, _, err = _cli([*argv[:-1], str(fresh), "--lr", "nan"], capsys)
    assert code == 2 and not fresh.exists()
    # two glues starting at once on a new --out: the refused one never removes the folder the other holds
    raced = tmp_path / "raced"
    raced.mkdir()
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda self: False if self == raced else real_exists(self))
    with _Held(raced):
        code, _, err = _cli([*argv[:-1], str(raced)], capsys)
        assert code == 2 and raced.is_dir()


def test_printed_commands_survive_a_path_with_spaces(tiny, tmp_path, capsys):
    """"start it with: cd /tmp/exp ü run && ..." pasted into a shell said "cd: too many arguments"."""
    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(4)), encoding="utf-8")
    config = tmp_path / "run.toml"
    config.write_text(f'task = "sentence"\nmodel = "{tiny}"\n', encoding="utf-8")
    target = tmp_path / "exp ü run"
    code, out, err = _cli(["export-run", "--config", str(config), "--train", str(data), "--out", str(target)], capsys)
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("start it with: "))
    words = shlex.split(line[len("start it with: "):])
    assert words[:2] == ["cd", str(target)] and words[2] == "&&"


def test_a_resumed_run_clears_what_a_killed_write_left_and_keeps_a_swap_copy(tiny, tmp_path):
    """A kill while a checkpoint or the model was written left .last.<pid>.tmp (a full copy of the
    weights) in the run folder for good; the .old twin of a swap cut short is the only copy and stays."""
    cancel = threading.Event()
    out = tmp_path / "run"

    def stop(event, control):
        if event.kind == "step" and event.step == 2:
            cancel.set()

    cfg = TrainConfig(model=tiny, epochs=1, batch_size=8, lr=1e-3, max_length=16, device="cpu", precision="fp32",
                      output_dir=str(out), logging_steps=1)
    assert train(cfg, sentiment(32), callbacks=[stop], cancel=cancel).status == "cancelled"
    half = out / "checkpoints" / ".last.99999.tmp"
    half.mkdir()
    (half / "weights.pt").write_bytes(b"half a model")
    (out / ".model.99999.tmp").mkdir()
    (out / ".metrics.json.4242.tmp").write_text("{")
    twin = out / "checkpoints" / ".best.99999.old"
    twin.mkdir()
    (twin / "state.json").write_text("{}")
    resumed = train(TrainConfig(**{**cfg.to_dict(), "resume_from": str(out / "checkpoints" / "last")}), sentiment(32))
    assert resumed.status == "finished"
    assert not half.exists() and not (out / ".model.99999.tmp").exists() and not (out / ".metrics.json.4242.tmp").exists()
    assert (twin / "state.json").is_file()


def test_a_printed_path_is_quoted_for_the_shell_it_is_pasted_into(monkeypatch):
    """shlex's single quotes mean nothing to Windows' cmd.exe: a path quoted so broke every printed command there."""
    from bertstudio.data import shell

    assert shell.shell_quote("/tmp/exp ü run") == "'/tmp/exp ü run'" and shell.shell_quote("/tmp/run") == "/tmp/run"
    monkeypatch.setattr(shell.os, "name", "nt")
    assert shell.shell_quote("C:\\my run\\config.toml") == '"C:\\my run\\config.toml"'
    assert shell.shell_quote("C:\\run\\config.toml") == "C:\\run\\config.toml"


def test_a_resume_starting_while_the_run_is_read_is_running_not_interrupted(tmp_path, monkeypatch):
    """read_run asked the lock, then read the history: a resume that took the lock and wrote its start
    in between read as "interrupted". It asks again after the read."""
    import bertstudio.train.rundir as rundir

    run = tmp_path / "run"
    run.mkdir()
    (run / "history.jsonl").write_text(_started(socket.gethostname()))
    answers = iter([False, True])
    monkeypatch.setattr(rundir, "writer_active", lambda _folder: next(answers))
    assert read_run(run).status == "running"


def test_an_exports_temporary_folder_is_never_a_killed_writes_leftover(tmp_path, monkeypatch):
    """create_folder's temporary name was .NAME.<8 hex>.tmp: all digits now and then, and then a run
    folder's writer took it for a killed write's leftover and removed it mid-export."""
    import uuid

    from bertstudio.data import atomic

    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=0x12345678 << 96))
    seen = []
    atomic.create_folder(tmp_path / "onnx", lambda tmp: seen.append(tmp.name))
    assert seen and not atomic.TEMP_NAME.match(seen[0])


@pytest.mark.parametrize("name", ["CON", "nul", "Com1", "lpt9.txt", "aux.tar.gz", "prn.", "run."])
def test_a_run_is_not_renamed_to_a_name_windows_cannot_hold(tmp_path, name):
    """Run folders travel between machines: CON, nul.txt or a trailing dot cannot be copied to Windows."""
    from bertstudio.train.rundir import rename_run

    run = tmp_path / "runs" / "foo"
    run.mkdir(parents=True)
    with pytest.raises(ConfigError, match="Windows") as caught:
        rename_run(run, name)
    assert repr(name) in caught.value.message and run.is_dir() and sorted(os.listdir(run.parent)) == ["foo"]
    assert rename_run(run, "console.1") == tmp_path / "runs" / "console.1"  # only the device names themselves


def test_folder_names_keep_letters_and_never_come_out_empty_or_reserved():
    from bertstudio.data.project_store import folder_name

    assert folder_name("📚", "project") == "project"
    assert folder_name("😀 reviews", "project") == "reviews"
    assert folder_name("影评 情感", "project") == "影评-情感" and folder_name("Émile's notes", "run") == "Émile-s-notes"
    assert folder_name("con", "run") == "run-con" and folder_name("-.-", "run") == "run"
