"""`bertstudio train` under a launcher (``accelerate launch``, torchrun: WORLD_SIZE and RANK set),
checked without starting one (tests/core/test_engine_distributed.py runs the real thing): the
small-data choice counts the processes and never picks SetFit (which trains in one process),
an explicit SetFit run is refused in one line, only rank 0 prints results and writes
seeds.json, and the launcher's SIGTERM after a Ctrl-C stops the run cooperatively."""

from __future__ import annotations

import io
import json
import math
import os
import signal
import threading
from collections import Counter

from bertstudio import cli
from bertstudio.train import small_data
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import RunResult


def test_the_small_data_choice_counts_processes_and_leaves_setfit_to_one(monkeypatch):
    one = small_data.adapt(TrainConfig(), Counter(neg=48, pos=48), sentence_transformer=True)
    two = small_data.adapt(TrainConfig(), Counter(neg=48, pos=48), sentence_transformer=True, processes=2)
    assert one.method == "setfit" and two.method == "finetune" and two.head == "embedding"
    steps = lambda c, rows, n: c.epochs * math.ceil(math.ceil(rows / c.batch_size) / n)  # noqa: E731
    assert steps(two, 96, 2) >= small_data.MIN_STEPS  # "at least 150 steps" ran 84 under 2 processes
    pair = small_data.adapt(TrainConfig(task="pair"), Counter(a=200, b=200), sentence_transformer=True, processes=4)
    assert steps(pair, 400, 4) >= small_data.MIN_STEPS


def test_an_explicit_setfit_run_under_a_launcher_is_refused_in_one_line(tiny, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "2")
    train = tmp_path / "t.csv"
    train.write_text("text,label\n" + "".join(f"row {i},{'ab'[i % 2]}\n" for i in range(8)), encoding="utf-8")
    code = cli.main(["--quiet", "train", "--train", str(train), "--model", tiny, "--method", "setfit", "--head", "embedding",
                     "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "SetFit trains in one process, and 2 were launched" in err[0]
    assert not (tmp_path / "run").exists()


def test_only_rank_0_prints_what_a_run_ends_with(monkeypatch, capsys):
    result = RunResult("finished", metrics={"accuracy": 0.5}, output_dir=None)
    monkeypatch.setenv("WORLD_SIZE", "2")  # a launcher's: a RANK alone is no launcher's (see the test below)
    monkeypatch.setenv("RANK", "1")
    out = io.StringIO()
    assert cli._report_result(result, out) == 0 and out.getvalue() == ""
    monkeypatch.setenv("RANK", "0")
    assert cli._report_result(result, out) == 0 and json.loads(out.getvalue()) == {"accuracy": 0.5}
    failed = RunResult("failed", message="out of memory")
    monkeypatch.setenv("RANK", "1")
    assert cli._report_result(failed, io.StringIO()) == 1
    assert "out of memory" in capsys.readouterr().err  # a process's own failure still shows


def test_seeds_json_is_written_by_rank_0_only(monkeypatch, tmp_path):
    from bertstudio.train import engine, seeds

    scores = iter([0.6, 0.7, 0.6, 0.7])
    monkeypatch.setattr(engine, "train", lambda run, *a, **k: RunResult("finished", metrics={"accuracy": next(scores)},
                                                                        output_dir=run.output_dir))
    config = TrainConfig(labels=["a", "b"], seeds=2, output_dir=str(tmp_path / "job"))
    monkeypatch.setenv("WORLD_SIZE", "2")  # a launcher's: a RANK alone is no launcher's
    monkeypatch.setenv("RANK", "1")
    seeds.train_seeds(config)
    assert not (tmp_path / "job" / seeds.SUMMARY).exists()
    monkeypatch.setenv("RANK", "0")
    seeds.train_seeds(config)
    assert json.loads((tmp_path / "job" / seeds.SUMMARY).read_text())["values"] == {"42": 0.6, "43": 0.7}


def test_the_launchers_sigterm_stops_the_run_after_its_step(monkeypatch):
    cancel = threading.Event()
    monkeypatch.setenv("WORLD_SIZE", "2")
    before = signal.getsignal(signal.SIGTERM)
    previous = cli._with_interrupt(cancel)
    try:
        assert set(previous) == {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
        os.kill(os.getpid(), signal.SIGTERM)  # torchrun's, 3 ms after it passed Ctrl-C on as SIGINT
        assert cancel.is_set()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    assert signal.getsignal(signal.SIGTERM) == before
    monkeypatch.setenv("WORLD_SIZE", "1")
    previous = cli._with_interrupt(threading.Event())
    for signum, handler in previous.items():
        signal.signal(signum, handler)
    # one process too (kill, timeout, a scheduler, a closed terminal): it ended mid-step, keeping nothing
    assert set(previous) == {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def test_evaluate_and_predict_under_a_launcher_say_they_run_in_one_process(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("WORLD_SIZE", "3")
    for argv in (["evaluate", "--model", str(tmp_path), "--eval", str(tmp_path / "e.csv")],
                 ["predict", "--model", str(tmp_path), "--text", "hello"],
                 ["glue", "--data-dir", str(tmp_path), "--out", str(tmp_path / "g")]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"bertstudio {argv[0]} runs in one process, and 3 were launched" in err[0]


def test_a_stray_rank_without_a_launchers_world_is_rank_0(monkeypatch):
    """RANK=1 with no launcher (no WORLD_SIZE above 1): the run trained and printed nothing, exit 0."""
    from bertstudio.train.distributed import launched_rank

    result = RunResult("finished", metrics={"accuracy": 0.5}, output_dir=None)
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    monkeypatch.setenv("RANK", "1")
    out = io.StringIO()
    assert launched_rank() == 0 and cli._report_result(result, out) == 0
    assert json.loads(out.getvalue()) == {"accuracy": 0.5}
    monkeypatch.setenv("WORLD_SIZE", "1")
    assert launched_rank() == 0
    monkeypatch.setenv("WORLD_SIZE", "2")
    assert launched_rank() == 1


def test_a_world_size_that_is_no_number_is_one_line_naming_it(tmp_path, capsys, monkeypatch):
    """WORLD_SIZE=abc was passed over here and failed the run at step 1 inside accelerate (exit 1)."""
    monkeypatch.setenv("WORLD_SIZE", "abc")
    train = tmp_path / "t.csv"
    train.write_text("text,label\n" + "".join(f"row {i},{'ab'[i % 2]}\n" for i in range(8)), encoding="utf-8")
    code = cli.main(["--quiet", "train", "--train", str(train), "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "WORLD_SIZE='abc' in the environment is not a number of processes" in err[0]
    assert not (tmp_path / "run").exists()
