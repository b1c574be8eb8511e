"""GLUE on the command line, on tiny GLUE-layout folders: test splits (no labels), MNLI
matched and mismatched, tasks left out, rows without a gold label."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bertstudio.cli import EXIT_USAGE, main
from test_cli import run

TINY = ["--max-length", "32", "--epochs", "1", "--batch-size", "4"]
_NLI = ("entailment", "neutral", "contradiction")
_PAIRS = [("the film was good", "it was fun"), ("a bad film", "it was great"), ("we love it", "the best"),
          ("boring and bad", "the worst"), ("fun for all", "we hate it"), ("great fun", "a good film")]


def _tsv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")


def write_rte(folder: Path, n: int = 8) -> None:
    """RTE's layout: index, sentence1, sentence2, label; test.tsv without the label column."""
    head = ["index", "sentence1", "sentence2", "label"]
    lab = [[str(i), *_PAIRS[i % 6], ("entailment", "not_entailment")[i % 2]] for i in range(n)]
    _tsv(folder / "train.tsv", head, lab)
    # the pairs the other way round: a dev copy of train is warned about (train/sources.warn_repeats)
    _tsv(folder / "dev.tsv", head, [[r[0], r[2], r[1], r[3]] for r in lab])
    _tsv(folder / "test.tsv", head[:3], [r[:3] for r in lab])


def write_mnli(folder: Path, n: int = 9) -> None:
    """MNLI's layout: 12 columns in train, 16 in the dev files, 10 in the test files."""
    head = ["index", "promptID", "pairID", "genre", "s1bp", "s2bp", "s1p", "s2p", "sentence1", "sentence2"]
    def row(i: int) -> list[str]:
        return [str(i), "0", f"{i}e", "fiction", "", "", "", "", *_PAIRS[i % 6]]
    _tsv(folder / "train.tsv", head + ["label1", "gold_label"], [row(i) + [_NLI[i % 3]] * 2 for i in range(n)])
    for name in ("dev_matched.tsv", "dev_mismatched.tsv"):
        _tsv(folder / name, head + ["label1", "label2", "label3", "label4", "label5", "gold_label"],
             [row(i) + [_NLI[(i + len(name)) % 3]] * 6 for i in range(n)])
    for name in ("test_matched.tsv", "test_mismatched.tsv"):
        _tsv(folder / name, head, [row(i) for i in range(n)])


@pytest.fixture(scope="module")
def glue_dir(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("glue")
    write_rte(data / "RTE")
    write_mnli(data / "MNLI")
    return data


@pytest.fixture(scope="module")
def rte_run(glue_dir, tiny, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rte-run") / "run"
    code = main(["--quiet", "train", "--glue-task", "RTE", "--data-dir", str(glue_dir / "RTE"), "--model", tiny,
                 *TINY, "--out", str(out)], out=io.StringIO())
    assert code == 0
    return out


@pytest.mark.parametrize("task,file", [("RTE", "RTE/test.tsv"), ("MNLI", "MNLI/test_matched.tsv"),
                                       ("MNLI", "MNLI/test_mismatched.tsv")])
def test_evaluate_says_a_test_split_has_no_labels(rte_run, glue_dir, task, file, capsys) -> None:
    """RTE's test.tsv said "found 3 columns (expected 4 columns)", MNLI's "found 10 columns (expected
    16 columns)": valid files, read with the dev split's layout."""
    path = glue_dir / file
    code, out, err = run(["evaluate", "--model", str(rte_run / "model"), "--glue-task", task, "--eval", str(path)], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and out == "" and len(lines) == 1, err
    assert lines[0].startswith(f"bertstudio: error: {path}, --eval: no labels in column label")
    assert "test split" in lines[0] and "cannot be scored" in lines[0] and "columns" not in lines[0]


def test_train_refuses_a_test_split_as_evaluation_data_before_it_trains(glue_dir, tiny, tmp_path, capsys) -> None:
    """It trained in full, evaluated every unlabelled row, then failed with "none of the metrics
    ['accuracy'] was computed", leaving a run folder with no model."""
    out = tmp_path / "run"
    code, stdout, err = run(["--quiet", "train", "--glue-task", "RTE", "--train", str(glue_dir / "RTE" / "train.tsv"),
                             "--eval", str(glue_dir / "RTE" / "test.tsv"), "--model", tiny, *TINY, "--out", str(out)],
                            capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and stdout == "" and len(lines) == 1, err
    assert str(glue_dir / "RTE" / "test.tsv") in lines[0] and "no labels in column label" in lines[0]
    assert not out.exists()  # refused before the run folder was made


def test_rows_without_a_gold_label_are_said_not_scored(glue_dir, tiny, tmp_path, capsys) -> None:
    """RTE accuracy 32/63 beside 64 predictions, with no word of the row left out."""
    data = tmp_path / "RTE"
    write_rte(data)
    lines = (data / "dev.tsv").read_text(encoding="utf-8").splitlines()
    cells = lines[4].split("\t")
    lines[4] = "\t".join(cells[:3] + [""])
    (data / "dev.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(["--quiet", "train", "--glue-task", "RTE", "--data-dir", str(data), "--model", tiny, *TINY,
                        "--out", str(tmp_path / "run")], capsys)
    assert code == 0, err
    assert f"{data / 'dev.tsv'}: 1 of 8 evaluation rows have no gold label and are left out of the score" in err


def test_glue_scores_the_mnli_model_on_matched_and_mismatched(glue_dir, tiny, tmp_path, capsys) -> None:
    """MNLI-mm looked for DATA/MNLI-mm/train.tsv and was "left out", so the MNLI entry and the
    average were always partial; one MNLI training is now scored on both dev files."""
    from bertstudio.train.rundir import read_run

    out = tmp_path / "out"
    code, stdout, err = run(["--quiet", "glue", "--tasks", "MNLI,MNLI-mm", "--data-dir", str(glue_dir), "--model", tiny,
                             *TINY, "--out", str(out)], capsys)
    assert code == 0, err
    assert "; left out" not in stdout and "(partial)" not in stdout and "partial average" in stdout  # 7 entries missing
    mnli = next(line for line in stdout.splitlines() if line.startswith("MNLI "))
    assert "MNLI-m accuracy" in mnli and "MNLI-mm accuracy" in mnli
    results = json.loads((out / "scoreboard.json").read_text())
    assert set(results) == {"MNLI", "MNLI-mm"}
    assert sorted(p.name for p in out.iterdir()) == ["MNLI", "scoreboard.json"]  # one training, not two
    info = read_run(out / "MNLI")
    assert info.mismatched == results["MNLI-mm"] and info.metrics == results["MNLI"]
    predictions = (out / "MNLI" / "mismatched" / "predictions.jsonl").read_text().splitlines()
    golds = [line.split("\t")[-1] for line in (glue_dir / "MNLI" / "dev_mismatched.tsv").read_text().splitlines()[1:]]
    assert [json.loads(p)["gold"] for p in predictions] == golds  # the mismatched file's rows, not matched's
    # asked for alone, MNLI-mm trains MNLI (it was "no train.tsv for any of the tasks asked for (MNLI-mm)")
    code, stdout, err = run(["--quiet", "glue", "--tasks", "MNLI-mm", "--data-dir", str(glue_dir), "--model", tiny,
                             *TINY, "--out", str(tmp_path / "mm")], capsys)
    assert code == 0 and set(json.loads((tmp_path / "mm" / "scoreboard.json").read_text())) == {"MNLI", "MNLI-mm"}, err


def test_glue_exits_2_naming_the_tasks_it_left_out(glue_dir, tiny, tmp_path, capsys) -> None:
    """QNLI (no train.tsv) and AX (a test-only set) were "left out" under the table with exit 0:
    a script could not tell the average was partial. The scoreboard of the rest is still written."""
    out = tmp_path / "out"
    code, stdout, err = run(["--quiet", "glue", "--tasks", "RTE,QNLI,AX", "--data-dir", str(glue_dir), "--model", tiny,
                             *TINY, "--out", str(out)], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and len(lines) == 1, err
    assert lines[0].startswith(f"bertstudio: error: {glue_dir}, --tasks: 2 of the tasks asked for left out")
    assert "(QNLI, AX;" in lines[0] and "partial" in lines[0]
    assert stdout.startswith("GLUE score") and "QNLI: no train.tsv" in stdout and "AX: no train.tsv" in stdout
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"RTE"}
    # only what is there: exit 0
    code, _, err = run(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
                        "--out", str(tmp_path / "rte")], capsys)
    assert code == 0 and err == "", err


def _interrupted_in_mnli(monkeypatch, glue_dir, tiny, out, capsys) -> list[str]:
    """``glue`` on RTE then MNLI, Ctrl-C pressed at MNLI's first logged step (as the SIGINT handler
    does: the cancel flag); the command's argv, for running it again."""
    from bertstudio.train import engine
    from bertstudio.train.events import StepLogged

    real = engine.train

    def ctrl_c_in_mnli(config, *a, callbacks=(), cancel=None, **k):
        def press(event, control):
            if isinstance(event, StepLogged):
                cancel.set()
        extra = [press] if config.glue_task == "MNLI" else []
        return real(config, *a, callbacks=[*callbacks, *extra], cancel=cancel, **k)

    monkeypatch.setattr(engine, "train", ctrl_c_in_mnli)
    argv = ["--quiet", "glue", "--tasks", "RTE,MNLI", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
            "--logging-steps", "1", "--out", str(out)]
    try:
        code, stdout, err = run(argv, capsys)
    finally:
        monkeypatch.setattr(engine, "train", real)
    assert code == 130, err
    assert "RTE accuracy" in stdout and "MNLI: run cancelled" in stdout and "--resume" in stdout
    return argv


def test_an_interrupted_glue_keeps_what_finished_and_resumes(glue_dir, tiny, tmp_path, capsys, monkeypatch) -> None:
    """Ctrl-C during the second task printed nothing and wrote no scoreboard.json; the same command
    again was refused ("the run folder is not empty") and only --overwrite, retraining all, went on."""
    out = tmp_path / "out"
    argv = _interrupted_in_mnli(monkeypatch, glue_dir, tiny, out, capsys)
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"RTE"}
    assert (out / "MNLI" / "checkpoints" / "last").is_dir()
    rte_model = (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns

    code, _, err = run(argv, capsys)  # the same command is refused, and says how to go on
    assert code == EXIT_USAGE and "--resume" in err and len(err.strip().splitlines()) == 1, err
    code, stdout, err = run([*argv, "--resume"], capsys)
    assert code == 0, err
    assert f"RTE: finished in an earlier run in {out / 'RTE'}; kept (--resume)" in stdout
    assert (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns == rte_model  # not retrained
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"RTE", "MNLI", "MNLI-mm"}
    history = [json.loads(line) for line in (out / "MNLI" / "history.jsonl").read_text().splitlines()]
    assert [e["status"] for e in history if e["kind"] == "finished"] == ["cancelled", "finished"]  # resumed, not restarted


def test_resume_keeps_a_finished_run_only_with_its_settings(glue_dir, tiny, tmp_path, capsys) -> None:
    """--resume kept a finished task trained with other settings (another --epochs, --model), and the
    average mixed two models' scores; now refused up front, naming the setting."""
    out = tmp_path / "out"
    argv = ["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", tiny, *TINY, "--out", str(out)]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    trained = (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns
    code, _, err = run([*argv, "--lr", "3e-4", "--resume"], capsys)
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1, err
    assert "RTE's finished run, which has other settings (lr)" in err and "--resume" in err
    assert (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns == trained
    code, stdout, err = run([*argv, "--resume"], capsys)  # the same settings: kept
    assert code == 0 and "kept (--resume)" in stdout, err


def test_resume_leaves_a_kept_tasks_nan_score_out_of_the_average_and_the_scoreboard(glue_dir, tiny, tmp_path,
                                                                                    capsys) -> None:
    """A finished task whose metrics.json says {"accuracy": NaN} printed "Average nan" and wrote NaN
    into scoreboard.json, which strict JSON readers refuse."""
    out = tmp_path / "out"
    argv = ["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", tiny, *TINY, "--out", str(out)]
    assert run(argv, capsys)[0] == 0
    (out / "RTE" / "metrics.json").write_text('{"accuracy": NaN}', encoding="utf-8")
    code, stdout, err = run([*argv, "--resume"], capsys)
    assert code == 0, err
    assert "nan" not in stdout.lower().replace("finite number", "")
    assert "RTE: accuracy is not a finite number (a diverged run, or a damaged metrics.json); left out of the " \
           "average and of scoreboard.json" in stdout, stdout
    assert next(line for line in stdout.splitlines() if line.startswith("RTE ")).split()[1:] == ["—", "missing"]

    def strict(constant: str) -> None:
        raise AssertionError(f"{constant} in scoreboard.json")

    # the task finished, without a score: the first run's 0.x is not kept either
    assert json.loads((out / "scoreboard.json").read_text(encoding="utf-8"), parse_constant=strict) == {"RTE": {}}


def test_resume_trains_again_a_task_stopped_before_its_first_checkpoint(glue_dir, tiny, tmp_path, capsys,
                                                                         monkeypatch) -> None:
    """A task stopped before any checkpoint (a second Ctrl-C, a failure) made --resume refuse the whole
    command ("the run folder is not empty"); only --overwrite went on, retraining every finished task."""
    import shutil

    out = tmp_path / "out"
    argv = _interrupted_in_mnli(monkeypatch, glue_dir, tiny, out, capsys)
    shutil.rmtree(out / "MNLI" / "checkpoints")  # as a kill before the first checkpoint leaves it
    rte_model = (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns
    code, stdout, err = run([*argv, "--resume"], capsys)
    assert code == 0, err
    assert "MNLI: stopped before its first checkpoint" in stdout and "trained again from the start" in stdout
    assert (out / "RTE" / "model" / "model.safetensors").stat().st_mtime_ns == rte_model
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"RTE", "MNLI", "MNLI-mm"}


def test_a_failed_mismatched_scoring_is_that_entrys_failure_only(glue_dir, tiny, tmp_path, capsys, monkeypatch) -> None:
    """An error while MNLI's model scored dev_mismatched (memory, a full disk) ended the whole glue run:
    the tasks after it never trained and no scoreboard.json was written."""
    from bertstudio.train import engine

    real = engine.evaluate

    def fails_on_mismatched(model, examples, *a, glue_task=None, **k):
        if glue_task == "MNLI-mm":
            raise RuntimeError("CUDA out of memory")
        return real(model, examples, *a, glue_task=glue_task, **k)

    monkeypatch.setattr(engine, "evaluate", fails_on_mismatched)
    out = tmp_path / "out"
    code, stdout, err = run(["--quiet", "glue", "--tasks", "MNLI,RTE", "--data-dir", str(glue_dir), "--model", tiny,
                             *TINY, "--out", str(out)], capsys)
    assert code == 1, err
    assert "MNLI-mm: not scored with MNLI's model: CUDA out of memory" in stdout and "MNLI-mm" in err
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"MNLI", "RTE"}  # RTE still trained


def test_glue_says_at_the_start_which_tasks_it_will_leave_out(glue_dir, tiny, tmp_path, capsys) -> None:
    """The exit-2 line about tasks without data came only after every other task had trained."""
    code, _, err = run(["glue", "--tasks", "RTE,QNLI", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
                        "--out", str(tmp_path / "out")], capsys)
    assert code == EXIT_USAGE
    warning = err.index("bertstudio: warning: no train.tsv for QNLI")
    assert warning < err.index("== RTE") and "partial" in err[warning:err.index("== RTE")]


def test_glue_fits_the_default_max_length_to_a_short_model_as_train_does(glue_dir, tiny, tmp_path, capsys) -> None:
    """A model of 32 positions: `train --glue-task RTE` trained at max length 32 ("the model reads at most
    32 tokens"), `glue --tasks RTE` failed the task with "max_length 128 is more than this model takes"."""
    from helpers import capped_model

    from bertstudio.train.rundir import saved_config

    short = capped_model(tiny, tmp_path / "short", 32)
    out = tmp_path / "out"
    code, _, err = run(["glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", str(short), "--epochs", "1",
                        "--batch-size", "4", "--out", str(out)], capsys)
    assert code == 0, err
    assert saved_config(out / "RTE").max_length == 32 and "at most 32 tokens" in err
    code, _, err = run(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", str(short),
                        "--epochs", "1", "--max-length", "48", "--out", str(tmp_path / "given")], capsys)
    assert code != 0 and "max_length 48 is more than this model takes (32 tokens)" in err  # given: the user's


def test_glue_refuses_lora_flags_without_lora_as_train_does(glue_dir, tiny, tmp_path, capsys) -> None:
    code, _, err = run(["glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
                        "--lora-rank", "4", "--out", str(tmp_path / "out")], capsys)
    assert code == EXIT_USAGE and "--lora-rank would not be used: --mode full" in err.strip().splitlines()[-1]
    assert not (tmp_path / "out").exists()
    code, _, err = run(["glue", "--tasks", "RTE", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
                        "--doc-stride", "64", "--out", str(tmp_path / "out")], capsys)
    line = err.strip().splitlines()[-1]  # glue has no --task: its message must not ask for one
    assert code == EXIT_USAGE and "--doc-stride would not be used" in line and "--task" not in line, line


def test_ctrl_c_during_a_tasks_last_step_finishes_it_and_resume_goes_on(glue_dir, tiny, tmp_path, capsys,
                                                                        monkeypatch) -> None:
    """Ctrl-C read after RTE's last step left RTE 'cancelled at step N' of N with a checkpoint no
    resume took: the advised `glue ... --resume` failed on RTE on every retry ('no point of this
    run'). RTE finishes now; the tasks after it are not started, and --resume trains them."""
    from bertstudio.train import engine
    from bertstudio.train.events import StepLogged

    real = engine.train

    def ctrl_c_in_rtes_last_step(config, *a, callbacks=(), cancel=None, **k):
        def press(event, control):
            if isinstance(event, StepLogged) and event.step == event.total_steps:
                cancel.set()  # as the SIGINT handler does
        extra = [press] if config.glue_task == "RTE" else []
        return real(config, *a, callbacks=[*callbacks, *extra], cancel=cancel, **k)

    out = tmp_path / "out"
    argv = ["--quiet", "glue", "--tasks", "RTE,MNLI", "--data-dir", str(glue_dir), "--model", tiny, *TINY,
            "--logging-steps", "1", "--out", str(out)]
    monkeypatch.setattr(engine, "train", ctrl_c_in_rtes_last_step)
    try:
        code, stdout, err = run(argv, capsys)
    finally:
        monkeypatch.setattr(engine, "train", real)
    assert code == 130, err  # interrupted: MNLI never trained
    assert "RTE accuracy" in stdout and "MNLI: not started (interrupted)" in stdout and "--resume" in stdout
    history = [json.loads(line) for line in (out / "RTE" / "history.jsonl").read_text().splitlines()]
    assert [e["status"] for e in history if e["kind"] == "finished"] == ["finished"]
    code, stdout, err = run([*argv, "--resume"], capsys)
    assert code == 0, err
    assert "RTE: finished in an earlier run" in stdout
    assert set(json.loads((out / "scoreboard.json").read_text())) == {"RTE", "MNLI", "MNLI-mm"}
