"""``--out`` paths that cannot become a folder are refused before any work, with one line
(the path, the problem) and exit 2: a dangling symbolic link, a parent that is a file, a
name longer than the file system takes. A link to an existing folder is followed."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from bertstudio.cli import EXIT_USAGE, main
from bertstudio.data.atomic import check_folder_path
from bertstudio.errors import ConfigError

links = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="symbolic links need POSIX here")


def bad_targets(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "data.jsonl"
    a_file.write_text("{}\n", encoding="utf-8")
    dangling = tmp_path / "dangling"
    os.symlink(tmp_path / "nowhere", dangling)
    targets = {"dangling link": dangling, "inside a dangling link": dangling / "sub", "under a file": a_file / "sub",
               "a file": a_file, "name too long": tmp_path / ("x" * 300)}
    if os.path.isdir("/proc/self"):  # os.access says root may write there; a file cannot be made
        targets["a new name in /proc"] = Path("/proc/bertstudio-out-test")
    return targets


@pytest.mark.parametrize("empty", ["", "   "])
def test_check_folder_path_refuses_an_empty_path_not_the_current_folder(empty: str, tmp_path: Path, monkeypatch) -> None:
    """Path("") is ".": evaluate --out "", an app or API caller with an empty field wrote into the
    current folder (export-onnx alone refused it, beside the check)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        check_folder_path(empty, where="--out")
    assert "an empty path" in str(info.value) and "--out" in str(info.value)


@links
def test_check_folder_path_refuses_each_kind_of_bad_target(tmp_path: Path) -> None:
    for what, target in bad_targets(tmp_path).items():
        with pytest.raises(ConfigError) as info:
            check_folder_path(target, where="--out")
        assert str(target) in str(info.value), what
        assert "\n" not in str(info.value)


@links
def test_check_folder_path_follows_a_link_to_a_folder_and_accepts_new_names(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "link")
    assert check_folder_path(tmp_path / "link", where="x") == real.resolve()
    assert check_folder_path(tmp_path / "new" / "deeper", where="x") == tmp_path / "new" / "deeper"


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="root writes anywhere")
def test_check_folder_path_refuses_a_parent_without_write_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match="no permission"):
            check_folder_path(locked / "out", where="--out")
    finally:
        locked.chmod(0o700)


@pytest.fixture(scope="module")
def model_and_data(tiny, tmp_path_factory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("out-data")
    rows = "\n".join('{"text": "%s film", "label": "%s"}' % (w, lab)
                     for w, lab in [("good", "pos"), ("bad", "neg")] * 4)
    (folder / "t.jsonl").write_text(rows + "\n", encoding="utf-8")
    return tiny, folder / "t.jsonl"


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv, out=io.StringIO())
    return code, capsys.readouterr().err


@links
@pytest.mark.parametrize("command", ["train", "train-seeds", "glue", "evaluate", "export-onnx"])
def test_every_command_refuses_a_bad_out_before_the_work(command: str, model_and_data, tmp_path: Path, capsys) -> None:
    model, data = model_and_data
    for what, target in bad_targets(tmp_path).items():
        if command == "evaluate" and what == "a file":
            continue  # evaluate's own check says so (tested with the CLI's bad inputs)
        argv = {"train": ["--quiet", "train", "--model", model, "--train", str(data), "--epochs", "1",
                          "--max-length", "16", "--device", "cpu", "--out", str(target)],
                "train-seeds": ["--quiet", "train", "--model", model, "--train", str(data), "--epochs", "1", "--seeds",
                                "2", "--max-length", "16", "--device", "cpu", "--out", str(target)],
                "glue": ["--quiet", "glue", "--tasks", "SST-2", "--data-dir", str(tmp_path), "--model", model,
                         "--out", str(target)],
                "evaluate": ["--quiet", "evaluate", "--model", model, "--eval", str(data), "--task", "sentence",
                             "--out", str(target)],
                "export-onnx": ["--quiet", "export-onnx", "--model", model, "--out", str(target)]}[command]
        code, err = run(argv, capsys)
        assert code == EXIT_USAGE, (what, err)
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and "internal error" not in err, (what, err)
        assert str(target) in err, (what, err)


@links
def test_export_run_refuses_a_dangling_link_and_writes_through_a_link_to_an_empty_folder(tmp_path: Path) -> None:
    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.export import export_run

    train = from_records("sentence", [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"}],
                         labels=["neg", "pos"])
    config = TrainConfig(task="sentence")
    dangling = tmp_path / "dangling"
    os.symlink(tmp_path / "nowhere", dangling)
    with pytest.raises(ConfigError, match="does not exist"):
        export_run(config, {"train": train}, dangling)
    assert not (tmp_path / "nowhere").exists()
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "link")
    export_run(config, {"train": train}, tmp_path / "link")
    assert (real / "run.toml").is_file()


def _refuse_new_files(monkeypatch) -> None:
    """Creating a file fails as in an immutable folder (the probe opens it with O_CREAT)."""
    real_open = os.open

    def refused(path, flags, *a, **k):
        if flags & os.O_CREAT:
            raise PermissionError(1, "Operation not permitted")
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", refused)


def test_an_existing_folder_that_takes_no_file_is_refused_before_the_work(tmp_path: Path, monkeypatch) -> None:
    # root passes os.access everywhere, but not an immutable folder or a read-only mount: the check tries
    _refuse_new_files(monkeypatch)
    with pytest.raises(ConfigError, match="no permission to write in this folder"):
        check_folder_path(tmp_path, where="--out")


def test_the_probe_leaves_nothing_behind(tmp_path: Path) -> None:
    assert check_folder_path(tmp_path, where="--out") == tmp_path
    assert check_folder_path(tmp_path / "new" / "deeper", where="--out") == tmp_path / "new" / "deeper"
    assert list(tmp_path.iterdir()) == []


def test_a_new_folder_whose_parent_takes_no_file_is_refused_before_the_work(tmp_path: Path, monkeypatch) -> None:
    # a new name under a parent root may not write in (/proc, a read-only mount): tried, not asked
    _refuse_new_files(monkeypatch)
    with pytest.raises(ConfigError, match="no permission to create a folder"):
        check_folder_path(tmp_path / "new", where="--out")


def test_a_path_too_long_for_the_files_inside_is_refused(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["d" * 200] * 21)  # each name fits, the whole does not
    with pytest.raises(ConfigError, match="leaves no room"):
        check_folder_path(deep, where="--out")


def test_evaluate_never_replaces_a_folder_named_like_its_files(model_and_data, tmp_path: Path, capsys) -> None:
    model, data = model_and_data
    out = tmp_path / "out"
    (out / "metrics.json").mkdir(parents=True)
    (out / "metrics.json" / "mine.txt").write_text("keep", encoding="utf-8")
    code = main(["evaluate", "--model", model, "--eval", str(data), "--out", str(out), "--overwrite"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and "is not a plain file" in err and len(err.strip().splitlines()) == 1
    assert (out / "metrics.json" / "mine.txt").read_text(encoding="utf-8") == "keep"


def test_evaluate_never_replaces_its_own_input_or_writes_into_the_model(model_and_data, tmp_path: Path, capsys) -> None:
    """--overwrite replaced the evaluation file when it sat in --out under a results name; and
    --out could be the model folder, whose push to the Hub then uploaded the evaluation rows."""
    model, data = model_and_data
    out = tmp_path / "out"
    out.mkdir()
    own = out / "predictions.jsonl"
    own.write_bytes(Path(data).read_bytes())
    before = own.read_bytes()
    (Path(model) / "sub").mkdir(exist_ok=True)  # a sub-folder goes up with the model too (a hostile-input sweep)
    for target, eval_file, fragment in ((out, own, "is the evaluation file itself"), (Path(model), data, "is the model folder"),
                                        (Path(model) / "sub", data, "is inside the model folder")):
        listed = sorted(p.name for p in target.iterdir())
        code = main(["evaluate", "--model", model, "--eval", str(eval_file), "--out", str(target), "--overwrite"],
                    out=io.StringIO())
        err = capsys.readouterr().err
        assert code == EXIT_USAGE and fragment in err and len(err.strip().splitlines()) == 1, err
        assert sorted(p.name for p in target.iterdir()) == listed
    (Path(model) / "sub").rmdir()
    assert own.read_bytes() == before


def test_a_run_never_writes_over_or_into_the_model_it_starts_from(model_and_data, tmp_path: Path, capsys) -> None:
    """``--model RUN/model --out RUN --overwrite`` replaced the weights being read (the warm start's
    only copy), and ``--out RUN/model`` wrote a run inside a model folder: both refused up front."""
    model, data = model_and_data
    run_dir = tmp_path / "run"
    base = ["--quiet", "train", "--train", str(data), "--epochs", "1", "--max-length", "16", "--device", "cpu"]
    assert run([*base, "--model", model, "--out", str(run_dir)], capsys)[0] == 0
    warm = run_dir / "model"
    before = {p.name: p.read_bytes() for p in warm.iterdir() if p.is_file()}
    for model_arg, out, extra in ((warm, run_dir, ["--overwrite"]), (warm, warm, ["--overwrite"]),
                                  (warm, warm / "again", []), (run_dir, run_dir / "model" / "x", []),
                                  (warm, run_dir, ["--overwrite", "--seeds", "2"])):
        code, err = run([*base, "--model", str(model_arg), "--out", str(out), *extra], capsys)
        assert code == EXIT_USAGE and "internal error" not in err, (model_arg, out, err)
        assert len(err.strip().splitlines()) == 1 and str(out) in err, err
        assert "model" in err and not (warm / "again").exists()
    assert {p.name: p.read_bytes() for p in warm.iterdir() if p.is_file()} == before
    # A warm start from that model into a new folder beside it still works.
    assert run([*base, "--model", str(warm), "--out", str(tmp_path / "second")], capsys)[0] == 0


def test_train_overwrite_never_deletes_its_own_input_or_a_folder_under_a_results_name(
        model_and_data, tmp_path: Path, capsys) -> None:
    """A hostile-input sweep: ``--train RUN/metrics.json --out RUN --overwrite`` deleted the
    training file, an --eval file at RUN/predictions.jsonl was written over with the run's
    predictions, and a folder of the person's named predictions.jsonl was deleted with what it
    held; all exit 0. evaluate already refused each."""
    import shutil

    model, data = model_and_data
    pristine = tmp_path / "pristine"
    base = ["--quiet", "train", "--epochs", "1", "--max-length", "16", "--device", "cpu", "--model", model]
    assert run([*base, "--train", str(data), "--out", str(pristine)], capsys)[0] == 0
    for n, (name, flag) in enumerate((("metrics.json", "--train"), ("predictions.jsonl", "--eval"),
                                      ("cartography.jsonl", "--train"))):
        run_dir = tmp_path / f"run{n}"
        shutil.copytree(pristine, run_dir)
        own = run_dir / name
        own.write_bytes(Path(data).read_bytes())
        before = sorted(p.name for p in run_dir.iterdir())
        args = ["--train", str(own)] if flag == "--train" else ["--train", str(data), "--eval", str(own)]
        code, err = run([*base, *args, "--out", str(run_dir), "--overwrite", "--format", "jsonl"], capsys)
        assert code == EXIT_USAGE and "one of the run's own files" in err and str(own) in err, err
        assert len(err.strip().splitlines()) == 1 and own.read_bytes() == Path(data).read_bytes()
        assert sorted(p.name for p in run_dir.iterdir()) == before
    mine = pristine / "predictions.jsonl"
    mine.unlink(missing_ok=True)  # a run without evaluation data writes none
    mine.mkdir()
    (mine / "a.txt").write_text("mine", encoding="utf-8")
    code, err = run([*base, "--train", str(data), "--out", str(pristine), "--overwrite"], capsys)
    assert code == EXIT_USAGE and "would delete this folder" in err and str(mine) in err, err
    assert (mine / "a.txt").read_text(encoding="utf-8") == "mine"
    mine.joinpath("a.txt").unlink()
    mine.rmdir()
    assert run([*base, "--train", str(data), "--out", str(pristine), "--overwrite"], capsys)[0] == 0  # the run's own


def test_fewer_seeds_over_an_earlier_seeds_job_are_refused_not_mixed_in(model_and_data, tmp_path: Path, capsys) -> None:
    """``--seeds 2 --overwrite`` over a 3-seed job replaced seed-42 and seed-43 and left the old
    seed-44 (other settings) beside the new seeds.json, as if it were part of the new job."""
    model, data = model_and_data
    job = tmp_path / "job"
    base = ["--quiet", "train", "--model", model, "--train", str(data), "--epochs", "1", "--max-length", "16",
            "--device", "cpu", "--out", str(job)]
    assert run([*base, "--seeds", "3"], capsys)[0] == 0
    before = sorted(p.name for p in job.iterdir())
    code, err = run([*base, "--seeds", "2", "--overwrite", "--lr", "1e-4"], capsys)
    assert code == EXIT_USAGE and "seed-44" in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in job.iterdir()) == before
    assert run([*base, "--seeds", "3", "--overwrite", "--lr", "1e-4"], capsys)[0] == 0  # the same seeds: replaced


def test_windows_paths_longer_than_max_path_are_refused_before_any_work(tmp_path: Path, monkeypatch) -> None:
    """Windows takes 260 characters unless long paths are on: the check knew Linux's 4,096 only,
    and a run failed when its first checkpoint was written (checkpoints/.last.<pid>.tmp/...)."""
    from bertstudio.data import atomic

    monkeypatch.setattr(atomic, "WINDOWS", True)
    monkeypatch.setattr(atomic, "_windows_long_paths", lambda: False, raising=False)
    out = tmp_path / ("r" * 80) / ("运行" * 40)  # characters, not bytes, count there
    with pytest.raises(ConfigError, match="leaves no room") as caught:
        check_folder_path(out, where="--out")
    assert "long paths" in caught.value.message
    check_folder_path(tmp_path / "run", where="--out")  # a usual path is fine
    monkeypatch.setattr(atomic, "_windows_long_paths", lambda: True, raising=False)
    assert check_folder_path(out, where="--out") == out
