"""Checkpoints load without pickle (issue 11, item 6) and a bad one given to resume is one
clear error (item 12): a hostile pickle in any .pt file never runs, a truncated or
wrong-typed checkpoint and one of another task kind are refused with exit 2."""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch

from bertstudio.cli import main
from bertstudio.errors import ConfigError
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train

from helpers import sentiment, sentiment_records

pytestmark = pytest.mark.usefixtures("one_thread")


@pytest.fixture(autouse=True)
def _log_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTSTUDIO_LOG", str(tmp_path / "bertstudio.log"))


def settings(tiny, out: Path, **kw) -> dict:
    return dict(model=tiny, epochs=1, batch_size=8, lr=1e-3, max_length=16, device="cpu", precision="fp32",
                output_dir=str(out), logging_steps=1, **kw)


def cancelled_run(tiny, out: Path, at_step: int, *, evaluate: bool = False, **kw) -> Path:
    """A run cancelled after ``at_step``: its checkpoints/last is resumable."""
    cancel = threading.Event()

    def stop(event, control):
        if event.kind == "step" and event.step == at_step:
            cancel.set()

    data = sentiment(32)
    result = train(TrainConfig(**settings(tiny, out, **kw)), data, data if evaluate else None, callbacks=[stop],
                   cancel=cancel)
    assert result.status == "cancelled"
    return out


@pytest.fixture(scope="module")
def cut_run(tiny, tmp_path_factory) -> Path:
    """A run of 4 steps cancelled after step 2."""
    return cancelled_run(tiny, tmp_path_factory.mktemp("cut") / "run", 2)


@pytest.fixture
def run_copy(cut_run, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(cut_run, out)
    return out


class Hostile:
    """Unpickling this runs code: it writes the marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


def resume(tiny, out: Path, data=None, **kw):
    cfg = TrainConfig(**settings(tiny, out, resume_from=str(out / "checkpoints" / "last"), **kw))
    return train(cfg, data if data is not None else sentiment(32))


def test_rng_state_is_stored_without_pickled_objects(run_copy):
    state = torch.load(run_copy / "checkpoints" / "last" / ckpt.RNG, weights_only=True)  # refused if it held numpy or tuples
    assert isinstance(state["torch"], torch.Tensor) and isinstance(state["numpy"]["keys"], torch.Tensor)


@pytest.mark.parametrize("name", [ckpt.RNG, ckpt.OPTIMIZER, ckpt.WEIGHTS])
def test_a_hostile_pickle_in_a_checkpoint_never_runs(name, tiny, run_copy, tmp_path):
    marker = tmp_path / "pwned"
    torch.save(Hostile(marker), run_copy / "checkpoints" / "last" / name)  # a genuine torch file around the pickle
    result = resume(tiny, run_copy)
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "holds more than tensors and plain values (exec)" in result.message and name in result.message
    assert "weights_only" not in result.message  # torch's advice to load it unsafely is never shown
    assert not marker.exists()


@pytest.mark.parametrize("writer", ["torch.save", "raw pickle"])
def test_a_hostile_rng_file_through_the_cli(writer, tiny, run_copy, tmp_path):
    marker = tmp_path / "pwned"
    target = run_copy / "checkpoints" / "last" / ckpt.RNG
    if writer == "torch.save":
        torch.save(Hostile(marker), target)
    else:  # torch warns about a raw pickle's protocol before refusing it: that warning is not the user's line
        target.write_bytes(pickle.dumps(Hostile(marker), protocol=4))
    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(8)), encoding="utf-8")
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "bertstudio", "--quiet", "train", "--train", str(data), "--model", tiny,
         "--resume", str(run_copy / "checkpoints" / "last")],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "PYTHONPATH": str(repo), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr and "rng.pt" in lines[0]
    assert not marker.exists()


def _cli(argv, capsys) -> tuple[int, str]:
    code = main(argv, out=io.StringIO())
    return code, capsys.readouterr().err


def test_a_truncated_checkpoint_is_one_line_and_exit_2(tiny, run_copy, tmp_path, capsys):
    weights = run_copy / "checkpoints" / "last" / ckpt.WEIGHTS
    weights.write_bytes(weights.read_bytes()[:1000])
    data = tmp_path / "train.tsv"  # the rows the run trained on: other rows (or labels) are refused before the weights load
    data.write_text("sentence\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in sentiment_records(32)),
                    encoding="utf-8")
    # a resumed run continues in its own folder, with its own settings: its data named as --train names it
    import tomli_w
    import tomllib

    recorded = tomllib.loads((run_copy / "config.toml").read_text(encoding="utf-8"))
    (run_copy / "config.toml").write_text(tomli_w.dumps({**recorded, "train_file": str(data)}), encoding="utf-8")
    code, err = _cli(["--quiet", "train", "--train", str(data), "--model", tiny, "--resume", str(run_copy / "checkpoints" / "last"),
                      "--max-length", "16"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "weights.pt" in lines[0] and "Traceback" not in err
    # torch's four sentences were cut at 160 characters, mid-word ("...there is a high")
    assert "the file is cut short or damaged" in lines[0] and "miniz" not in lines[0]


# a best score no evaluation beats (NaN, an overflowed 1e309) silently kept the first evaluation's model
@pytest.mark.parametrize("state", [{"step": "two"}, {"step": -1}, {"best_metrics": [1, 2]}, ["not", "an", "object"],
                                   {"best_score": float("nan")}, {"best_score": float("inf")},
                                   {"best_metrics": {"accuracy": "x"}}, {"last_metrics": {"accuracy": float("-inf")}}])
def test_a_wrong_typed_state_is_refused(state, tiny, run_copy):
    path = run_copy / "checkpoints" / "last" / ckpt.STATE
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, **state} if isinstance(state, dict) else state))
    result = resume(tiny, run_copy)
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "state" in result.message
    if state == {"step": -1}:  # "step has the wrong type (int)", and no folder: the value and the file
        assert str(path) in result.message and "step = -1 is not a value" in result.message


def test_resuming_a_run_of_another_task_kind_is_refused(tiny, run_copy):
    from bertstudio.data.examples import from_records

    pairs = from_records("pair", [{"text": r["text"], "text_pair": "a film", "label": r["label"]} for r in sentiment(32).dataset.to_list()],
                         labels=["neg", "pos"])
    result = resume(tiny, run_copy, pairs, task="pair")  # the same shapes (2 labels), another meaning
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "this checkpoint's run holds sentence examples, not pair" in result.message


def test_weights_of_another_shape_are_refused(tiny, run_copy):
    state = torch.load(run_copy / "checkpoints" / "last" / ckpt.WEIGHTS, weights_only=True)
    state["classifier.weight"] = torch.zeros(5, state["classifier.weight"].shape[1])
    torch.save(state, run_copy / "checkpoints" / "last" / ckpt.WEIGHTS)
    result = resume(tiny, run_copy)
    assert isinstance(result.error, ConfigError) and "do not fit this model" in result.message


def test_resume_alone_continues_the_run_in_its_own_folder(tiny, tmp_path, capsys):
    """--help says "the run continues in its own folder", but --resume without --config read no
    settings and said "train_file: no training data": the checkpoint's run's config.toml is now
    the settings, as ``--config RUN/config.toml`` gave them."""
    import tomllib

    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(16)),
                    encoding="utf-8")
    out = tmp_path / "run"
    cancel = threading.Event()

    def stop(event, control):
        if event.kind == "step" and event.step == 2:
            cancel.set()

    cut = train(TrainConfig(**settings(tiny, out, train_file=str(data))), callbacks=[stop], cancel=cancel)
    assert cut.status == "cancelled" and (out / "checkpoints" / "last").is_dir()
    code, err = _cli(["--quiet", "train", "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == 0, err
    assert tomllib.loads((out / "config.toml").read_text(encoding="utf-8"))["model"] == tiny
    steps = [json.loads(line).get("step", 0) for line in (out / "history.jsonl").read_text().splitlines()]
    assert max(steps) == 4 and not (out / "checkpoints" / "last").exists()  # finished in its own folder


@pytest.mark.parametrize("instead", ["folder", "fifo", "empty"])
def test_resume_alone_names_a_config_toml_it_cannot_read(instead, run_copy, capsys):
    """A run's config.toml replaced by a folder, a FIFO or an empty file said "train_file: no
    training data", naming no file; --config on the same path said what was wrong."""
    own = run_copy / "config.toml"
    own.unlink()
    if instead == "folder":
        own.mkdir()
    elif instead == "fifo":
        os.mkfifo(own)
    else:
        own.write_text("", encoding="utf-8")
    code, err = _cli(["--quiet", "train", "--resume", str(run_copy / "checkpoints" / "last")], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and str(own) in lines[0] and "no training data" not in err, err


def _first_state(opt: dict) -> dict:
    return next(st for st in opt["state"].values() if st["exp_avg"].dim() == 2)


# torch's load_state_dict checks no shapes, and the fused AdamW kernel read a 3-number moment of a
# matrix out of bounds: the process ended with a segmentation fault, no message; other damage
# said "training failed at step 3: KeyError" (exit 1)
OPTIMIZER_DAMAGE = {
    "moment of another size": lambda o: _first_state(o).update(exp_avg=torch.zeros(3)),
    "moment transposed": lambda o: _first_state(o).update(exp_avg=_first_state(o)["exp_avg"].T.contiguous()),
    "moment missing": lambda o: _first_state(o).pop("exp_avg_sq"),
    "moment not finite": lambda o: _first_state(o)["exp_avg"].fill_(float("nan")),
    "negative second moment": lambda o: _first_state(o)["exp_avg_sq"].fill_(-1.0),
    "negative step": lambda o: _first_state(o).update(step=torch.tensor(-5.0)),
    "step of four numbers": lambda o: _first_state(o).update(step=torch.zeros(4)),
    "betas not numbers": lambda o: o["param_groups"][0].update(betas=(2.0, "x")),
    "amsgrad switched on": lambda o: o["param_groups"][0].update(amsgrad=True),
    "learning rate not finite": lambda o: o["param_groups"][0].update(lr=float("inf")),
}


def test_a_checkpoint_from_another_devices_update_implementation_resumes(tiny, run_copy):
    """foreach / fused say how a machine runs the update (foreach on MPS, fused on CPU): a run
    moved between machines resumes with this machine's choice, not a refusal (a review)."""
    path = run_copy / "checkpoints" / "last" / ckpt.OPTIMIZER
    opt = torch.load(path, weights_only=True)
    for group in opt["param_groups"]:
        group.update(foreach=True, fused=None)
    torch.save(opt, path)
    assert resume(tiny, run_copy).status == "finished"


@pytest.mark.parametrize("damage", sorted(OPTIMIZER_DAMAGE))
def test_damaged_optimizer_state_is_refused_before_a_step(damage, tiny, run_copy):
    path = run_copy / "checkpoints" / "last" / ckpt.OPTIMIZER
    opt = torch.load(path, weights_only=True)
    OPTIMIZER_DAMAGE[damage](opt)
    torch.save(opt, path)
    seen: list[int] = []
    cfg = TrainConfig(**settings(tiny, run_copy, resume_from=str(run_copy / "checkpoints" / "last")))
    result = train(cfg, sentiment(32), callbacks=[lambda e, c: seen.append(e.step) if e.kind == "step" else None])
    assert result.status == "failed" and isinstance(result.error, ConfigError), result.message
    assert str(path) in result.message and not seen


@pytest.fixture(scope="module")
def cut_with_best(tiny, tmp_path_factory) -> Path:
    """A run that evaluates every 2 steps, cancelled after step 3: checkpoints/best and /last."""
    out = cancelled_run(tiny, tmp_path_factory.mktemp("cut-best") / "run", 3, evaluate=True, eval_steps=2)
    assert (out / "checkpoints" / "best" / ckpt.BEST_PREDICTIONS).is_file()
    return out


BEST_DAMAGE = {
    "weights not finite": (ckpt.WEIGHTS, "not finite"),
    "weights truncated": (ckpt.WEIGHTS, "weights.pt"),
    "predictions a link to another file": (ckpt.BEST_PREDICTIONS, "is a link"),
    "predictions not UTF-8": (ckpt.BEST_PREDICTIONS, "UTF-8"),
    "predictions not JSON": (ckpt.BEST_PREDICTIONS, "line 2: not valid JSON"),  # the run files' own reader
    "best missing": (None, "best checkpoint is missing"),
}


@pytest.mark.parametrize("damage", sorted(BEST_DAMAGE))
def test_a_damaged_best_checkpoint_is_refused_before_the_resumed_run_trains(damage, tiny, cut_with_best, tmp_path):
    """A resumed run ends by exporting checkpoints/best: NaN weights there became the model (with
    the metrics of the weights it replaced), a link named predictions.jsonl copied a secret file
    into the run's predictions, non-UTF-8 ones failed the run after its training (exit 1)."""
    run_dir = tmp_path / "run"
    shutil.copytree(cut_with_best, run_dir)
    best = run_dir / "checkpoints" / "best"
    name, words = BEST_DAMAGE[damage]
    if damage == "weights not finite":
        sd = torch.load(best / ckpt.WEIGHTS, weights_only=True)
        next(v for v in sd.values() if v.is_floating_point()).fill_(float("nan"))
        torch.save(sd, best / ckpt.WEIGHTS)
    elif damage == "weights truncated":
        (best / ckpt.WEIGHTS).write_bytes((best / ckpt.WEIGHTS).read_bytes()[:500])
    elif damage == "predictions a link to another file":
        secret = tmp_path / "secret.txt"
        secret.write_text('{"secret": 1}\n', encoding="utf-8")
        (best / ckpt.BEST_PREDICTIONS).unlink()
        os.symlink(secret, best / ckpt.BEST_PREDICTIONS)
    elif damage == "predictions not UTF-8":
        (best / ckpt.BEST_PREDICTIONS).write_bytes(b'{"a": 1}\n\xff\n')
    elif damage == "predictions not JSON":
        (best / ckpt.BEST_PREDICTIONS).write_text('{"a": 1}\nnot json\n', encoding="utf-8")
    else:
        shutil.rmtree(best)
    seen: list[int] = []
    data = sentiment(32)
    cfg = TrainConfig(**settings(tiny, run_dir, eval_steps=2,
                                 resume_from=str(run_dir / "checkpoints" / "last")))
    result = train(cfg, data, data, callbacks=[lambda e, c: seen.append(e.step) if e.kind == "step" else None])
    assert result.status == "failed" and words in result.message and not seen, result.message
    assert name is None or str(best / name) in result.message
    assert not (run_dir / "predictions.jsonl").exists() or "secret" not in (run_dir / "predictions.jsonl").read_text()


def test_a_run_whose_recipe_the_cli_chose_resumes_with_the_same_command_and_re_runs_from_its_config(
        tiny, tmp_path, capsys, monkeypatch):
    """A run.toml with data only (the CLI chose the recipe), interrupted (Ctrl-C) and resumed with
    the same command plus --resume: refused as 'other settings (head, epochs, lr, ...,
    auto_reason)', none of which the user changed. Its config.toml then kept resume_from, so
    re-running it elsewhere ('re-run it with bertstudio train --config') failed."""
    import os
    import signal
    import tomllib

    from bertstudio import cli
    from bertstudio.train.events import StepLogged

    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(12)),
                    encoding="utf-8")
    toml = tmp_path / "run.toml"
    toml.write_text(f'train_file = "{data.as_posix()}"\nmodel = "{Path(tiny).as_posix()}"\noutput_dir = "run"\n'
                    'max_length = 16\ndevice = "cpu"\nprecision = "fp32"\nlogging_steps = 1\n', encoding="utf-8")
    real, starts = cli._printer, []

    def interrupting(config, args):  # Ctrl-C at step 3 of the first start
        printer = real(config, args)
        starts.append(config)

        def call(event, control):
            printer(event, control)
            if isinstance(event, StepLogged) and event.step == 3 and len(starts) == 1:
                os.kill(os.getpid(), signal.SIGINT)
        return call

    monkeypatch.setattr(cli, "_printer", interrupting)
    out = tmp_path / "run"
    assert _cli(["--quiet", "train", "--config", str(toml)], capsys)[0] == 130  # interrupted, resumable
    first = tomllib.loads((out / "config.toml").read_text(encoding="utf-8"))
    assert first["auto_reason"] and (out / "checkpoints" / "last").is_dir()
    code, err = _cli(["--quiet", "train", "--config", str(toml), "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == 0, err
    resumed = tomllib.loads((out / "config.toml").read_text(encoding="utf-8"))
    assert "resume_from" not in resumed and resumed["epochs"] == first["epochs"]
    code, err = _cli(["--quiet", "train", "--config", str(out / "config.toml"), "--out", str(tmp_path / "again")], capsys)
    assert code == 0, err


def test_flags_that_change_the_recipe_drop_the_files_record_of_an_earlier_choice(tiny, tmp_path, capsys):
    """An app's exported run.toml records why Automatic chose SetFit; re-run with --method
    finetune --head linear, the run's config.toml still said SetFit beside method = "finetune"."""
    import tomllib

    data = tmp_path / "train.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\t1\nbad boring {i}\t0\n" for i in range(6)),
                    encoding="utf-8")
    toml = tmp_path / "run.toml"
    toml.write_text(f'train_file = "{data.as_posix()}"\nmodel = "{Path(tiny).as_posix()}"\nmax_length = 16\n'
                    'device = "cpu"\nprecision = "fp32"\nepochs = 1\nlr = 1e-3\nbatch_size = 8\nhead = "linear"\n'
                    'method = "finetune"\nwarmup_ratio = 0.1\nhead_lr = 1e-3\n'
                    'auto_reason = "12 labelled rows: SetFit (the app chose it)"\n', encoding="utf-8")
    code, err = _cli(["--quiet", "train", "--config", str(toml), "--out", str(tmp_path / "same")], capsys)
    assert code == 0, err  # only where it goes: the record still describes the run
    assert "SetFit" in tomllib.loads((tmp_path / "same" / "config.toml").read_text(encoding="utf-8"))["auto_reason"]
    code, err = _cli(["--quiet", "train", "--config", str(toml), "--epochs", "2", "--out", str(tmp_path / "changed")],
                     capsys)
    assert code == 0, err
    changed = tomllib.loads((tmp_path / "changed" / "config.toml").read_text(encoding="utf-8"))
    assert changed["epochs"] == 2 and "SetFit" not in changed.get("auto_reason", "")


@pytest.mark.parametrize("linked", ["history.jsonl", "checkpoints", "checkpoints/last", "metrics.json"])
def test_a_received_run_with_a_link_among_its_own_files_is_not_resumed_through_it(linked, tiny, run_copy, tmp_path):
    """A run folder from elsewhere with history.jsonl -> a file of the user's: the resume appended
    its events to that file (a sweep's, running as root: /etc/passwd); checkpoints -> another
    run's checkpoints: the finished resume deleted that run's checkpoints/last. Refused now,
    before anything is written, and the outside files are as they were."""
    import filecmp

    outside = tmp_path / "outside"
    entry = run_copy / linked
    if entry.is_dir():
        shutil.copytree(entry, outside)
        shutil.rmtree(entry)
    else:
        outside.write_text("a file of the user's\n", encoding="utf-8")
        entry.unlink(missing_ok=True)  # metrics.json: a cancelled run has none, the link is one more name
    before = tmp_path / "before"
    (shutil.copytree if outside.is_dir() else shutil.copy)(outside, before)
    entry.symlink_to(outside, target_is_directory=outside.is_dir())
    result = resume(tiny, run_copy)
    assert result.status == "failed" and isinstance(result.error, ConfigError), result.message
    assert "is a link" in result.message and linked.split("/")[-1] in result.message
    if outside.is_dir():
        assert not filecmp.dircmp(outside, before).diff_files and sorted(p.name for p in outside.iterdir()) == \
            sorted(p.name for p in before.iterdir())
    else:
        assert outside.read_text(encoding="utf-8") == before.read_text(encoding="utf-8")


def test_a_history_link_made_after_the_checks_is_not_written_through(tmp_path):
    """The history is opened without following a link (O_NOFOLLOW), whatever the checks saw."""
    from bertstudio.train.rundir import RunFolder

    outside = tmp_path / "users_file"
    outside.write_text("mine\n", encoding="utf-8")
    root = tmp_path / "run"
    root.mkdir()
    (root / "history.jsonl").symlink_to(outside)
    with pytest.raises(ConfigError, match="is a link"):
        RunFolder(root, append=True)
    assert outside.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("name", ["metrics.json", "predictions.jsonl"])
def test_a_resume_whose_run_file_is_a_folder_is_refused_before_training(name, tiny, run_copy):
    """The resume trained every remaining step, then failed writing metrics.json (exit 1)."""
    (run_copy / name).mkdir()
    steps: list = []
    cfg = TrainConfig(**settings(tiny, run_copy, resume_from=str(run_copy / "checkpoints" / "last")))
    result = train(cfg, sentiment(32), callbacks=[lambda e, _c: steps.append(e) if e.kind == "step" else None])
    assert result.status == "failed" and isinstance(result.error, ConfigError) and name in result.message
    assert "is a folder where the run writes a file" in result.message and steps == []
