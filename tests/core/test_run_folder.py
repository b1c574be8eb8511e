"""A run never deletes what it did not write (issue 11, item 3): a non-empty --out is
refused unless it is the unfinished run being resumed, --overwrite replaces only
bertstudio's own files, and a run.toml cannot send the output outside its folder."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bertstudio.cli import main
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig, read_settings
from bertstudio.train.engine import train
from bertstudio.train.rundir import check_output_dir, rename_run, shown_by_code

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")


@pytest.fixture(autouse=True)
def _log_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTSTUDIO_LOG", str(tmp_path / "bertstudio.log"))


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("data")
    lines = ["sentence\tlabel"] + [f"the film was {'good and fun' if i % 2 else 'bad and boring'}\t{i % 2}" for i in range(16)]
    (folder / "train.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "train.tsv"


def cli(argv, capsys) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue(), capsys.readouterr().err


def train_argv(data: Path, model: Path, out: Path, *extra: str) -> list[str]:
    return ["--quiet", "train", "--train", str(data), "--model", str(model), "--epochs", "1", "--batch-size", "8",
            "--max-length", "16", "--device", "cpu", "--out", str(out), *extra]


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def user_folder(root: Path) -> Path:
    """A folder of the user's own: a marker file and a model/ folder that bertstudio did not write."""
    root.mkdir(parents=True)
    (root / "notes.txt").write_text("my notes", encoding="utf-8")
    (root / "model").mkdir()
    (root / "model" / "mine.bin").write_bytes(b"precious")
    return root


def test_a_users_folder_is_refused_and_kept(data, tiny_model_dir, tmp_path, capsys):
    out = user_folder(tmp_path / "mine")
    code, _, err = cli(train_argv(data, tiny_model_dir, out), capsys)
    assert code == 2
    line = one_error_line(err)
    assert "not empty" in line and "--overwrite" in line and str(out) in line
    assert sorted(p.name for p in out.iterdir()) == ["model", "notes.txt"]  # nothing written, nothing deleted
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes"
    assert (out / "model" / "mine.bin").read_bytes() == b"precious"


def test_overwrite_never_replaces_what_bertstudio_did_not_write(data, tiny_model_dir, tmp_path, capsys):
    # the folder holds model/, a name a run writes, but no bertstudio run: even --overwrite keeps it
    out = user_folder(tmp_path / "mine")
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--overwrite"), capsys)
    assert code == 2
    assert "not a bertstudio run" in one_error_line(err) and "model" in err
    assert (out / "model" / "mine.bin").read_bytes() == b"precious" and (out / "notes.txt").is_file()


def test_a_run_whose_history_is_cut_short_is_named_by_its_file_and_line(data, tiny_model_dir, tmp_path, capsys):
    """glue --resume over a task whose history.jsonl was cut short said "this folder is not a
    bertstudio run": it is a run, with a damaged history. Nothing is replaced either way."""
    from bertstudio.train.rundir import history_damage

    out = tmp_path / "run"
    out.mkdir()
    TrainConfig(task="sentence", output_dir=str(out)).save(out / "config.toml")
    (out / "metrics.json").write_text('{"accuracy": 1.0}', encoding="utf-8")
    (out / "history.jsonl").write_text('{"kind": "started", "total_st', encoding="utf-8")
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--overwrite"), capsys)
    assert code == 2
    assert one_error_line(err) == (f"bertstudio: error: {out / 'history.jsonl'}, line 1: cut short: the run's history is "
                                   "damaged, so this folder is not read as a run whose config.toml, history.jsonl, "
                                   "metrics.json may be replaced (expected the history.jsonl the run wrote, or a new "
                                   "folder)"), err
    assert (out / "metrics.json").read_text(encoding="utf-8") == '{"accuracy": 1.0}'
    (out / "history.jsonl").write_text('\n[1, 2]\n{"kind": "started"', encoding="utf-8")
    assert str(history_damage(out)) == f"{out / 'history.jsonl'}, line 2: not a JSON object"
    (out / "history.jsonl").write_text("", encoding="utf-8")
    assert history_damage(out) is None  # nothing written yet: not damaged


@pytest.mark.parametrize("config_text", ["", 'epochs = 3\nmodel = "my-model"\n'])
def test_a_config_toml_alone_does_not_make_a_users_folder_a_run(config_text, data, tiny_model_dir, tmp_path, capsys):
    # an empty config.toml (or one of a few known keys) reads as a TrainConfig of defaults: without a
    # run's history beside it, --overwrite still refuses to replace model/ and metrics.json
    out = user_folder(tmp_path / "mine")
    (out / "config.toml").write_text(config_text, encoding="utf-8")
    (out / "metrics.json").write_text('{"accuracy": 1.0}', encoding="utf-8")
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--overwrite"), capsys)
    assert code == 2 and "not a bertstudio run" in one_error_line(err)
    assert (out / "model" / "mine.bin").read_bytes() == b"precious"
    assert (out / "metrics.json").read_text(encoding="utf-8") == '{"accuracy": 1.0}'
    assert (out / "config.toml").read_text(encoding="utf-8") == config_text


def test_an_earlier_run_is_refused_then_overwrite_replaces_only_its_files(data, tiny_model_dir, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli(train_argv(data, tiny_model_dir, out), capsys)[0] == 0
    (out / "notes.txt").write_text("my notes on this run", encoding="utf-8")
    (out / "label_ids.json").write_text('{"labels": ["0", "1"], "ids": [1, 0]}', encoding="utf-8")  # an app run's
    first_model = (out / "model" / "model.safetensors").read_bytes()
    code, stdout, err = cli(train_argv(data, tiny_model_dir, out, "--seed", "3"), capsys)
    assert code == 2 and "not empty" in one_error_line(err)
    assert stdout == ""  # no "run folder: ..." for a run that was refused (the folder is the earlier run's)
    assert (out / "model" / "model.safetensors").read_bytes() == first_model  # untouched
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--seed", "3", "--overwrite"), capsys)
    assert code == 0, err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes on this run"  # not bertstudio's: kept
    assert not (out / "label_ids.json").exists()  # the earlier run's label ids went with it: never read for this one
    assert (out / "model" / "model.safetensors").read_bytes() != first_model  # the new run's weights
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    assert [e["kind"] for e in history].count("started") == 1  # the old history went with the old run
    assert TrainConfig.load(out / "config.toml").overwrite is False  # a re-run from config.toml never overwrites
    assert not (out / ".overwritten-run").exists()  # the earlier run's files are gone once the new run ended


@pytest.mark.parametrize("inside", ["model/notes.txt", "checkpoints/best/notes.txt", "checkpoints/mine.txt"])
def test_overwrite_refuses_while_a_run_folder_holds_a_users_file(inside, data, tiny_model_dir, tmp_path, capsys):
    # model/ and checkpoints/ are bertstudio's names, but a file the user put inside them is not a run's:
    # --overwrite would have deleted it with the folder
    out = tmp_path / "run"
    assert cli(train_argv(data, tiny_model_dir, out, "--eval", str(data)), capsys)[0] == 0
    (out / inside).write_text("my notes", encoding="utf-8")
    before = (out / "model" / "model.safetensors").read_bytes()
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--seed", "3", "--overwrite"), capsys)
    assert code == 2
    line = one_error_line(err)
    assert "would delete" in line and str(out / inside) in line
    assert (out / inside).read_text(encoding="utf-8") == "my notes"
    assert (out / "model" / "model.safetensors").read_bytes() == before


def test_an_overwrite_that_fails_puts_the_earlier_run_back(data, tiny_model_dir, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    assert cli(train_argv(data, tiny_model_dir, out), capsys)[0] == 0
    (out / "notes.txt").write_text("my notes", encoding="utf-8")
    before = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}

    def broken(*_a, **_k):
        raise RuntimeError("a step that fails")

    import bertstudio.train.engine as engine

    monkeypatch.setattr(engine, "linear_schedule", broken)  # fails inside the loop, after the folder was started
    code, _, err = cli(train_argv(data, tiny_model_dir, out, "--seed", "3", "--overwrite"), capsys)
    assert code != 0 and "put back" in err
    after = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before  # the earlier run, byte for byte, and nothing of the failed one


def test_out_that_is_a_file_is_refused(data, tiny_model_dir, tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("keep", encoding="utf-8")
    code, _, err = cli(train_argv(data, tiny_model_dir, target), capsys)
    assert code == 2 and "is a file" in one_error_line(err)
    assert target.read_text(encoding="utf-8") == "keep"


def test_the_apps_fresh_folder_is_accepted(tmp_path):
    # the app picks a new, empty folder (the predictions name their project rows: no file
    # is written there before the engine starts)
    (tmp_path / "run").mkdir()
    check_output_dir(TrainConfig(output_dir=str(tmp_path / "run")))  # no error
    (tmp_path / "run" / "other.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match="not empty"):
        check_output_dir(TrainConfig(output_dir=str(tmp_path / "run")))


def _cut_run(tiny, out: Path, **kw):
    """Train 1 epoch of 32 rows (4 steps), cancelled after step 2: checkpoints/last is resumable."""
    cancel = threading.Event()

    def stop(event, control):
        if event.kind == "step" and event.step == 2:
            cancel.set()

    cfg = TrainConfig(model=tiny, epochs=1, batch_size=8, lr=1e-3, max_length=16, device="cpu", precision="fp32",
                      output_dir=str(out), logging_steps=1, **kw)
    return train(cfg, sentiment(32), callbacks=[stop], cancel=cancel), cfg


def test_resume_continues_its_own_run_but_not_one_with_other_settings(tiny, tmp_path):
    first, cfg = _cut_run(tiny, tmp_path / "run")
    assert first.status == "cancelled"
    last = str(tmp_path / "run" / "checkpoints" / "last")
    other = TrainConfig(**{**cfg.to_dict(), "lr": 5e-3, "resume_from": last})
    refused = train(other, sentiment(32))
    assert refused.status == "failed" and isinstance(refused.error, ConfigError)
    assert "other settings (lr)" in refused.message
    same = TrainConfig(**{**cfg.to_dict(), "resume_from": last})
    resumed = train(same, sentiment(32))
    assert resumed.status == "finished" and resumed.step == 4
    # a finished run has nothing to resume, and a plain restart there is refused with the way forward
    again = train(same, sentiment(32))
    assert again.status == "failed" and "has finished" in again.message


def test_an_unfinished_run_suggests_resuming_it_and_the_suggestion_works(tiny, tmp_path, capsys):
    """The hint said "--resume RUN/checkpoints/last" alone, which, typed as given, stopped with
    "train_file: no training data": the run's settings come with its config.toml."""
    data = tmp_path / "train.tsv"
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in sentiment(32).dataset.to_list()),
                    encoding="utf-8")
    _cut_run(tiny, tmp_path / "run", train_file=str(data))
    with pytest.raises(ConfigError, match=r"unfinished run \(continue it with: bertstudio train --config .*config.toml "
                                          r"--resume .*checkpoints/last\)") as info:
        check_output_dir(TrainConfig(model=tiny, output_dir=str(tmp_path / "run")))
    hint = shlex.split(str(info.value).split("continue it with: ")[1].split(")")[0])
    assert hint[:2] == ["bertstudio", "train"]
    code, _, err = cli(["--quiet", *hint[1:]], capsys)
    assert code == 0, err
    last = json.loads((tmp_path / "run" / "history.jsonl").read_text().splitlines()[-1])
    assert (last["kind"], last["status"], last["step"]) == ("finished", "finished", 4)


def test_output_dir_from_a_run_toml_stays_inside_its_folder(tmp_path, capsys):
    shared = tmp_path / "shared"
    shared.mkdir()
    victim = user_folder(tmp_path / "victim")
    for target in ("../victim", str(victim), "~/bertstudio-test-out"):
        (shared / "run.toml").write_text(f'task = "sentence"\ntrain_file = "t.tsv"\noutput_dir = "{target}"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match="outside the config's folder") as info:
            TrainConfig.load(shared / "run.toml")
        assert info.value.where == "output_dir" and str(shared / "run.toml") in str(info.value)
    code, _, err = cli(["train", "--config", str(shared / "run.toml")], capsys)
    assert code == 2 and "outside the config's folder" in one_error_line(err)
    assert sorted(p.name for p in victim.iterdir()) == ["model", "notes.txt"]
    # --out replaces the file's value without judging it; a folder inside is fine
    assert "output_dir" not in read_settings(shared / "run.toml", given={"output_dir"})
    (shared / "run.toml").write_text('task = "sentence"\noutput_dir = "runs/a"\n', encoding="utf-8")
    assert TrainConfig.load(shared / "run.toml").output_dir == str(shared / "runs" / "a")


def test_the_refusal_through_a_real_process(data, tiny_model_dir, tmp_path):
    out = user_folder(tmp_path / "mine")
    proc = subprocess.run([sys.executable, "-m", "bertstudio", *train_argv(data, tiny_model_dir, out)], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300,
                          env={**_env(), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    assert proc.returncode == 2
    assert one_error_line(proc.stderr).startswith("bertstudio: error:") and "not empty" in proc.stderr
    assert (out / "model" / "mine.bin").read_bytes() == b"precious"


def _env() -> dict[str, str]:
    import os

    repo = Path(__file__).resolve().parents[2]
    return {**os.environ, "PYTHONPATH": str(repo) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_a_hold_out_that_leaves_nothing_to_train_on_is_one_line_before_the_model_loads(data, tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = cli(train_argv(data, tmp_path / "no-such-model", out, "--hold-out", "0.99"), capsys)
    # the model folder does not exist either: the hold-out is refused first, with the numbers
    assert code == 2 and "leaves none to train on" in one_error_line(err) and "16 labelled rows" in err
    assert not out.exists()


def test_a_run_whose_config_names_no_data_is_never_offered_a_resume_that_cannot_work(tiny, tmp_path):
    """An app run trains on its project's rows, which its config.toml does not name: the Runs page
    offered `bertstudio train --config … --resume …` for it, which always failed, and the --train FILE
    its error suggested was refused as a changed setting. The message says what can be done instead;
    a run whose data file is gone says that file, and gets the command back once the file is."""
    import socket

    from bertstudio.train.events import RunStarted, event_to_dict
    from bertstudio.train.rundir import read_run, resume_command

    def killed_resume(run: Path) -> None:  # a resume of it started here and was killed: "interrupted"
        with (run / "history.jsonl").open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(event_to_dict(RunStarted(4, 32, 0, 1, 8, 1, 1, "cpu", "fp32",
                                                         host=socket.gethostname()))) + "\n")

    app_run = tmp_path / "app-run"
    assert _cut_run(tiny, app_run)[0].status == "cancelled"  # trained on rows given in memory, as the app does
    killed_resume(app_run)
    info = read_run(app_run)
    assert info.status == "interrupted" and resume_command(app_run) is None
    assert "--resume" not in info.message and "continue it with" not in info.message
    assert info.message.endswith("it trained on its project's rows, which its config.toml does not name, so "
                                 "the command line cannot resume it: resume it in the app (Runs page, select it, Resume)")
    with pytest.raises(ConfigError) as refused:  # a new run into the folder: no command offered either
        check_output_dir(TrainConfig(model=tiny, output_dir=str(app_run)))
    assert "--resume" not in str(refused.value)

    data = tmp_path / "train.tsv"
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in sentiment(32).dataset.to_list()),
                    encoding="utf-8")
    cli_run = tmp_path / "cli-run"
    assert _cut_run(tiny, cli_run, train_file=str(data))[0].status == "cancelled"
    killed_resume(cli_run)
    data.rename(tmp_path / "moved.tsv")
    info = read_run(cli_run)
    assert resume_command(cli_run) is None and "continue it with" not in info.message
    assert info.message.endswith(f"it cannot be resumed while its training file {data} is missing: put it back there, "
                                 "or resume with --train naming where it lies now")
    (tmp_path / "moved.tsv").rename(data)
    assert "continue it with: bertstudio train --config" in read_run(cli_run).message


def test_the_advice_for_moved_data_offers_new_paths_only_to_a_checkpoint_that_knows_its_rows(tiny, tmp_path):
    """A checkpoint from before fingerprints were kept was offered "resume with --train naming where
    it lies now", a command then refused as "other settings (train_file)"; with both files gone only
    --train was named. differences and not_resumable now read one rule (rundir.keeps_fingerprints)."""
    from dataclasses import replace

    from bertstudio.train.rundir import differences, not_resumable, saved_config

    rows = "text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in sentiment(32).dataset.to_list())
    data, dev = tmp_path / "train.tsv", tmp_path / "dev.tsv"
    data.write_text(rows, encoding="utf-8")
    dev.write_text(rows, encoding="utf-8")
    run = tmp_path / "run"
    assert _cut_run(tiny, run, train_file=str(data), eval_file=str(dev))[0].status == "cancelled"
    data.rename(tmp_path / "moved.tsv")
    dev.rename(tmp_path / "moved-dev.tsv")
    assert not_resumable(run).endswith(f"while its training file {data} and evaluation file {dev} are missing: put "
                                       "them back there, or resume with --train and --eval naming where they lie now")
    last = run / "checkpoints" / "last"
    moved = replace(saved_config(run), train_file=str(tmp_path / "moved.tsv"), eval_file=str(tmp_path / "moved-dev.tsv"),
                    resume_from=str(last))
    assert differences(saved_config(run), moved) == []
    state = json.loads((last / "state.json").read_text())
    del state["data"], state["eval_data"]  # as a checkpoint of an earlier version
    (last / "state.json").write_text(json.dumps(state))
    assert differences(saved_config(run), moved) == ["train_file", "eval_file"]
    assert not_resumable(run).endswith("are missing: put them back there")


def test_a_copied_run_keeps_the_time_it_started(data, tiny_model_dir, tmp_path, capsys):
    """The Runs page's Started column read config.toml's mtime: after `cp -r` of a project every run
    showed the copy's time, and Compare's "older one as A" followed it. The run's start is recorded."""
    import os
    import shutil
    import time

    from bertstudio.train.rundir import read_run

    out = tmp_path / "run"
    before = time.time()
    assert cli(train_argv(data, tiny_model_dir, out), capsys)[0] == 0
    started = read_run(out).started_at
    assert before <= started <= time.time()
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    later = started + 86_400  # the copy made a day later: every file carries its time
    for path in [copy, *copy.rglob("*")]:
        os.utime(path, (later, later))
    assert read_run(copy).started_at == started


def test_the_app_is_told_which_stopped_runs_it_can_resume_and_why_not(tmp_path):
    """The app's Resume (Runs page) continues a run on the project's rows: a run that trained on
    data files is the command line's (its command is said), a finished one or one without a
    checkpoint has nothing to go on from, one of another project is that project's, one whose
    labels were renamed since would meet rows under other names, and one stopped by a version
    that kept no fingerprints of its rows could not be checked."""
    import socket
    from types import SimpleNamespace

    from bertstudio.data.project import Project
    from bertstudio.train.events import RunFinished, RunStarted, event_to_dict
    from bertstudio.train.rundir import project_resume_problem, record_label_ids

    prints = {"data": {"rows": 4, "content": "c", "inputs": "i", "order": "o"}, "eval_data": None}

    def stopped_run(run: Path, state=None, **settings) -> Path:
        (run / "checkpoints" / "last").mkdir(parents=True)
        (run / "checkpoints" / "last" / "state.json").write_text(json.dumps({"step": 3, **(prints if state is None else state)}),
                                                                 encoding="utf-8")
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run), **settings).save(run / "config.toml")
        started = RunStarted(40, 16, 4, 10, 8, 100, 100, "cpu", "fp32", host=socket.gethostname())
        (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")
        return run

    app_run = stopped_run(tmp_path / "app")
    assert project_resume_problem(app_run, SimpleNamespace(uid="uid-1")) is None
    record_label_ids(app_run, ["neg", "pos"], [0, 1], "uid-2")
    assert "another project" in project_resume_problem(app_run, SimpleNamespace(uid="uid-1"))
    assert project_resume_problem(app_run, SimpleNamespace(uid="uid-2")) is None
    old = stopped_run(tmp_path / "old", state={})  # a checkpoint of before fingerprints
    assert "older bertstudio" in project_resume_problem(old, SimpleNamespace(uid=None))
    data = tmp_path / "train.csv"
    data.write_text("text,label\ngood,pos\n", encoding="utf-8")
    cli_run = stopped_run(tmp_path / "cli", train_file=str(data))
    said = project_resume_problem(cli_run, None)
    assert said.startswith("it trained on data files") and "continue it with: bertstudio train --config" in said
    data.unlink()
    assert "while its training file" in project_resume_problem(cli_run, None)
    with open(app_run / "history.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps(event_to_dict(RunFinished("finished", 8))) + "\n")
    assert "has finished" in project_resume_problem(app_run, SimpleNamespace(uid="uid-2"))
    damaged = stopped_run(tmp_path / "damaged")
    (damaged / "checkpoints" / "last" / "state.json").write_text("{not json", encoding="utf-8")
    said = project_resume_problem(damaged, None)  # damaged, not "an older bertstudio"
    assert said.kind == "damaged_checkpoint" and "cannot be read" in said and "older" not in said
    bare = stopped_run(tmp_path / "bare")
    __import__("shutil").rmtree(bare / "checkpoints")
    assert "no checkpoint" in project_resume_problem(bare, None)
    # a label renamed since the run stopped: the rows now carry a name its head never learned
    # (its checkpoint records the project's rows as they are: rows changed since are refused, below)
    from bertstudio.data.examples import from_records
    from bertstudio.train.sources import data_fingerprint, project_rows

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=["neg", "pos"])
    try:
        project.import_examples(from_records("sentence", [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"},
                                                          {"text": "fine", "label": "pos"}, {"text": "awful", "label": "neg"}],
                                             labels=["neg", "pos"]), "train")
        rows = project_rows(project.examples("train"), range(4))
        run = stopped_run(project.new_run_dir("mine"), state={"data": data_fingerprint(rows), "eval_data": None})
        record_label_ids(run, project.labels, project.label_ids, project.uid)
        assert project_resume_problem(run, project) is None
        project.rename_label("neg", "negative")
        said = project_resume_problem(run, project)
        assert "renamed or removed since it stopped (neg -> negative)" in said and "rename them back" in said
        project.rename_label("negative", "neg")
        assert project_resume_problem(run, project) is None
        # sweep "move" #7: a row relabelled since the stop was refused only after Resume was clicked
        project.set_gold("train", 0, "neg")
        said = project_resume_problem(run, project)
        assert said.kind == "data_changed" and "the same 4 rows, with other labels" in said
        assert said.facts["refusal"] == "data_changed" and said.facts["same_inputs"] is True
        project.set_gold("train", 0, "pos")
        assert project_resume_problem(run, project) is None
    finally:
        project.close(compact=False)


def test_a_said_sentence_keeps_its_kind_and_facts_through_copies_and_pickles():
    """RunInfo and RunFinished messages are rundir.Said: dataclasses.asdict deep-copies them, and
    copy, deepcopy and pickle raised TypeError (str's own arguments lacked the kind)."""
    import copy
    import pickle

    from bertstudio.train.rundir import Said

    said = Said("it is still training", "training", step=3)
    for again in (copy.copy(said), copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert (str(again), again.kind, again.facts) == ("it is still training", "training", {"step": 3})


def test_the_resume_check_keeps_no_rows_of_a_project_after_it_is_closed(tmp_path):
    """rundir kept the last project's ExampleSets (memory-mapped data files) in a module global
    after the project was closed: Windows refuses to move or delete a folder with a mapped file."""
    import socket

    from bertstudio.data.examples import ExampleSet, from_records
    from bertstudio.data.project import Project
    from bertstudio.train import rundir
    from bertstudio.train.events import RunStarted, event_to_dict
    from bertstudio.train.rundir import project_resume_problem, record_label_ids
    from bertstudio.train.sources import data_fingerprint, project_rows

    def stopped_run(run: Path, state) -> Path:
        (run / "checkpoints" / "last").mkdir(parents=True)
        (run / "checkpoints" / "last" / "state.json").write_text(json.dumps({"step": 3, **state}), encoding="utf-8")
        TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
        started = RunStarted(40, 16, 4, 10, 8, 100, 100, "cpu", "fp32", host=socket.gethostname())
        (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")
        return run

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=["neg", "pos"])
    try:
        project.import_examples(from_records("sentence", [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"}],
                                             labels=["neg", "pos"]), "train")
        rows = project_rows(project.examples("train"), range(2))
        run = stopped_run(project.new_run_dir("mine"), state={"data": data_fingerprint(rows), "eval_data": None})
        record_label_ids(run, project.labels, project.label_ids, project.uid)
        assert project_resume_problem(run, project) is None
        project.set_gold("train", 1, "pos")  # a new split version: asked again, not the answer kept
        assert project_resume_problem(run, project).kind == "data_changed"
        project.set_gold("train", 1, "neg")  # put back
        project.close()
        project = Project.open(tmp_path / "proj")  # rows as the run's: the answer of this opening's version 0
        assert project_resume_problem(run, project) is None
        project.set_gold("train", 1, "pos")  # changed again, then closed: the journal folded, no one looking
        project.close()
        # the split versions start again at 0 at each open: the answer of the earlier opening's version 0
        # (the rows as they were) came back for the changed rows, and Resume was offered
        project = Project.open(tmp_path / "proj")
        assert project_resume_problem(run, project).kind == "data_changed"
    finally:
        project.close(compact=False)

    def held(value):
        if isinstance(value, ExampleSet):
            return True
        if isinstance(value, dict):
            return any(held(v) for v in value.values())
        return isinstance(value, (tuple, list)) and any(held(v) for v in value)

    assert not held(rundir._ROWS_SEEN)


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164", "\uffa0", "\u115f", "run\u2800", "a\ufe0f", "a\u034f",
                                  "a\U000e0101", "a\u200b"])
def test_rename_refuses_a_name_the_app_would_show_by_code(tmp_path, name):
    """Rename took "\u3164" (a Hangul filler, a letter to \\w), and the run read blank in every
    list; "a" + a variation selector would read "a", like another run. Refused in one line that names
    the characters; the run keeps its name."""
    run = tmp_path / "runs" / "run1"
    run.mkdir(parents=True)
    with pytest.raises(ConfigError) as caught:
        rename_run(run, name)
    said = str(caught.value)
    assert "\n" not in said and f"U+{ord(name[-1]):04X}" in said and "show as nothing" in said
    assert run.is_dir() and sorted(p.name for p in run.parent.iterdir()) == ["run1"]
    assert rename_run(run, "\ud55c\uae00-run") == run.parent / "\ud55c\uae00-run"  # Hangul syllables are letters


def test_the_names_shown_by_code_are_unicodes_default_ignorables_and_blank_letters():
    """The table of default-ignorable code points is written by hand (unicodedata lacks the property):
    checked against the regex module's, which reads Unicode's own file."""
    regex = pytest.importorskip("regex")
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    missed = [f"U+{code:04X}" for code in range(0x110000) if ignorable.match(chr(code)) and not shown_by_code(chr(code))]
    assert missed == []
    assert all(shown_by_code(c) for c in "\u2800\U0001d159\x85\u2028\ud800")
    assert not any(shown_by_code(c) for c in "a\u00e9\u0301\u4e2d\ud55c\u0645 \u00a0-_.")


def _started_run(folder: Path, started: float) -> Path:
    from bertstudio.train.events import RunStarted, event_to_dict

    folder.mkdir()
    event = RunStarted(total_steps=1, num_train_examples=1, num_eval_examples=0, epochs=1, effective_batch_size=1,
                       trainable_params=1, total_params=1, device="cpu", precision="fp32", started_at=started)
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(event)) + "\n")
    return folder


def test_a_shown_run_is_followed_through_a_rename_a_swap_a_replacement_and_a_deletion(tmp_path):
    from bertstudio.train.rundir import followed_run, run_identity, run_started_at

    a, b = _started_run(tmp_path / "a", 1000.0), _started_run(tmp_path / "b", 2000.0)
    assert run_started_at(a) == 1000.0  # the identity holds the start the test gives
    a_id = run_identity(a)
    assert followed_run(a, a_id, [a, b]) == (a, False)  # where it was
    a.rename(tmp_path / "renamed")
    assert followed_run(a, a_id, [tmp_path / "renamed", b]) == (tmp_path / "renamed", False)
    (tmp_path / "renamed").rename(tmp_path / "x")  # swap "x" (was a) and "b" by rename
    b.rename(tmp_path / "renamed")
    (tmp_path / "x").rename(b)
    assert followed_run(tmp_path / "renamed", a_id, [tmp_path / "renamed", b]) == (b, True)
    # the folder holds another run and the one shown is nowhere listed: said, not followed
    assert followed_run(tmp_path / "renamed", a_id, [tmp_path / "renamed"]) == (None, True)
    gone = _started_run(tmp_path / "gone", 3000.0)
    gone_id = run_identity(gone)
    (gone / "history.jsonl").unlink()
    gone.rmdir()
    assert followed_run(gone, gone_id, [b]) == (None, False)
    # a folder made where a deleted run was (ext4 may give it the same inode) is another run
    _started_run(gone, 4000.0)
    assert followed_run(gone, gone_id, [gone, b]) == (None, True)
    # unknown identity (unreadable when shown): the folder is taken as it is
    assert followed_run(gone, None, [b]) == (gone, False)
    assert followed_run(tmp_path / "nowhere", None, [b]) == (None, False)
