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
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

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


@pytest.fixture
def answered():
    """SIGINT and SIGHUP as a terminal's foreground job has them, whatever this pytest was started
    under (nohup, a background job): _with_interrupt leaves an ignored signal alone."""
    names = [n for n in ("SIGINT", "SIGHUP") if hasattr(signal, n)]
    before = {getattr(signal, n): signal.getsignal(getattr(signal, n)) for n in names}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


def test_the_launchers_sigterm_stops_the_run_after_its_step(monkeypatch, answered):
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


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
@pytest.mark.parametrize("name", ["SIGHUP", "SIGINT"])
def test_a_signal_the_caller_ignores_stays_ignored(name, monkeypatch):
    """`nohup bertstudio train ...` ignores SIGHUP so the run outlives the terminal; the CLI put its
    own handler over that, and the first logout stopped an overnight run. A background job's SIGINT too."""
    monkeypatch.setenv("WORLD_SIZE", "1")
    signum = getattr(signal, name)
    before = signal.signal(signum, signal.SIG_IGN)
    try:
        previous = cli._with_interrupt(threading.Event())
        for other, handler in previous.items():
            signal.signal(other, handler)
        assert signal.getsignal(signum) is signal.SIG_IGN
        assert signum not in previous and signal.SIGTERM in previous  # the others are still caught
    finally:
        signal.signal(signum, before)


def test_sigterm_again_is_the_same_request_and_only_a_second_ctrl_c_aborts(monkeypatch, answered):
    """A second SIGTERM (or SIGHUP: a closed terminal sends several) raised KeyboardInterrupt in the
    step: the run stopped mid-step and saved nothing. Only a second Ctrl-C gives up at once."""
    monkeypatch.setenv("WORLD_SIZE", "1")
    cancel = threading.Event()
    previous = cli._with_interrupt(cancel)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # no KeyboardInterrupt
        assert cancel.is_set()
        os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C, after a kill: still the same stop
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


_HUNG_UP = """
import os, signal, sys, threading
signal.signal(signal.SIGHUP, signal.SIG_DFL)
from bertstudio import cli
cancel = threading.Event()
cli._with_interrupt(cancel)
sys.stdout.write("ready\\n"); sys.stdout.flush()
sys.stdin.readline()  # the terminal is closed now
for signum in (signal.SIGHUP, signal.SIGHUP, signal.SIGTERM):  # one hang-up comes as several signals
    os.kill(os.getpid(), signum)
sys.stdout.write("the run's report\\n" * 100); sys.stdout.flush()
sys.stderr.write("a warning\\n"); sys.stderr.flush()
sys.exit(0 if cancel.is_set() else 3)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP") or not hasattr(os, "openpty"), reason="no terminals here")
def test_after_a_hang_up_the_end_of_the_run_is_written_nowhere_not_failed(tmp_path):
    """After SIGHUP the end-of-run report went to a terminal that no longer exists: EIO, an
    "unexpected error", and exit 1 for a run that was saved. Output to the terminal now goes to
    os.devnull, as nohup's does, and a second hang-up does not abort the step."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("WORLD_SIZE", "RANK", "LOCAL_RANK")}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(cli.__file__).parent.parent), env.get("PYTHONPATH", "")])
    child = subprocess.Popen([sys.executable, "-c", _HUNG_UP], stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                             env=env, cwd=tmp_path)
    os.close(slave)
    try:
        assert os.read(master, 100).startswith(b"ready")
    finally:
        os.close(master)  # the terminal hangs up: a write to it is EIO from now on
    child.stdin.write(b"go\n")
    child.stdin.close()
    assert child.wait(timeout=60) == 0


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


def test_a_failed_seeds_jobs_summary_counts_the_seeds_asked_and_leaves_the_error_to_its_own_line(monkeypatch, tmp_path):
    """'1 seed(s), no metric to sum up: seed 42: …removed…' then 'error: seed 42: …removed…': the
    failure said twice, and one seed counted for a job of two."""
    from bertstudio.train import engine, seeds

    monkeypatch.setattr(engine, "train", lambda run, *a, **k: RunResult("failed", message="the folder went",
                                                                        output_dir=run.output_dir))
    result = seeds.train_seeds(TrainConfig(labels=["a", "b"], seeds=2, output_dir=str(tmp_path / "job")))
    assert result.status == "failed" and result.message == "seed 42: the folder went"
    assert result.summary() == "1 of 2 seed(s) ran, no metric to sum up"


def test_a_job_folder_among_a_projects_runs_lists_as_its_runs(tmp_path):
    """A --seeds job or a glue folder written into a project's runs/ was one folder to the Export
    model and Hub actions, the Review queue's runs and the time estimate (no model, no predictions,
    no timings): with_job_runs lists its runs where it stands, and other folders as they are."""
    from bertstudio.train.seeds import with_job_runs

    runs = tmp_path / "runs"
    plain, job, glue, mine = runs / "a-run", runs / "job", runs / "glue", runs / "notes"
    for folder in (plain, job / "seed-43", job / "seed-42", glue / "RTE", glue / "SST-2"):
        folder.mkdir(parents=True)
        (folder / "config.toml").write_text("", encoding="utf-8")
    mine.mkdir()
    assert with_job_runs([plain, job, glue, mine]) == [plain, job / "seed-42", job / "seed-43", glue / "RTE",
                                                       glue / "SST-2", mine]


def test_a_seeds_job_stopped_early_says_how_many_of_its_seeds_finished():
    """Cancelled in seed 2 of 3: "1 seed: accuracy 50.0 (50.0 to 50.0)" read as a finished job."""
    from bertstudio.train.seeds import SeedsResult

    stopped = SeedsResult("cancelled", "accuracy", values={42: 0.5}, results=[None, None], asked=3)
    assert stopped.summary() == "1 of 3 seeds finished: accuracy 50.0"
    two = SeedsResult("cancelled", "accuracy", values={42: 0.5, 43: 0.7}, results=[None, None, None], asked=3)
    assert two.summary().startswith("2 of 3 seeds finished: accuracy 60.0 ± ") and "(50.0 to 70.0)" in two.summary()
    done = SeedsResult("finished", "accuracy", values={42: 0.5, 43: 0.7}, results=[None, None], asked=2)
    assert done.summary().startswith("2 seeds: accuracy 60.0")
