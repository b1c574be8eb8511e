"""Export a run folder and read it back the way the exported run will."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bertstudio.data.examples import COLUMNS, from_records
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig
from bertstudio.train.export import export_config_run, export_run
from bertstudio.train.sources import load_sets


def _rows(examples) -> list[dict]:
    cols = COLUMNS[examples.kind]
    return [{c: r[c] for c in cols} for r in examples.dataset.to_list()]


SENTENCES = [
    {"text": "a plain sentence", "label": "pos"},
    {"text": 'quotes "inside", a comma, and a\ttab', "label": "neg"},
    {"text": "中文评论，很好", "label": "pos"},
    {"text": "line one\nline two", "label": "neg"},
]


def test_round_trip_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    train = from_records("sentence", SENTENCES, labels=["neg", "pos"])
    dev = from_records("sentence", SENTENCES[:2], labels=["neg", "pos"])
    test = from_records("sentence", [{"text": "unlabelled row", "label": None}], labels=["neg", "pos"])
    config = TrainConfig(task="sentence", epochs=2, lr=3e-5, seed=7, max_train_examples=3, output_dir="/somewhere/else")
    out = export_run(config, {"train": train, "dev": dev, "test": test}, tmp_path / "exp")

    text = (out / "run.toml").read_text(encoding="utf-8")
    # Written relative, so the folder can move; read back relative to the file, from anywhere.
    assert 'train_file = "data/train.jsonl"' in text and 'eval_file = "data/dev.jsonl"' in text
    assert 'output_dir = "run"' in text
    loaded = TrainConfig.load(out / "run.toml")
    assert Path(loaded.train_file) == (out / "data" / "train.jsonl").resolve()
    assert Path(loaded.output_dir) == (out / "run").resolve()
    assert loaded.labels == ["neg", "pos"]  # id order pinned even though the config left it open
    assert (loaded.epochs, loaded.lr, loaded.seed, loaded.max_train_examples) == (2, 3e-5, 7, 3)
    monkeypatch.chdir(tmp_path)  # not the export folder: paths still resolve
    train_back, dev_back = load_sets(loaded.__class__(**{**loaded.to_dict(), "max_train_examples": None}))
    assert _rows(train_back) == SENTENCES
    assert _rows(dev_back) == SENTENCES[:2]
    assert (out / "data" / "test.jsonl").is_file()
    # the cap draws the same 3 rows from the export as from the original set
    capped, _ = load_sets(loaded)
    assert _rows(capped) == _rows(train.head(3, seed=7))


def test_round_trip_tagging_and_qa(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tags = [
        {"tokens": ["Paris", "is", "in", "France"], "tags": ["B-LOC", "O", "O", "B-LOC"]},
        {"tokens": ["Ada", "Lovelace", "wrote"], "tags": ["B-PER", "I-PER", "O"]},
    ]
    out = export_run(TrainConfig(task="tagging"), {"train": from_records("tagging", tags), "dev": from_records("tagging", tags[:1])}, tmp_path / "tag")
    cfg = TrainConfig.load(out / "run.toml")
    assert cfg.data_format == "conll" and Path(cfg.train_file) == (out / "data" / "train.conll").resolve()
    monkeypatch.chdir(out)
    back, dev = load_sets(cfg)
    assert _rows(back) == tags and _rows(dev) == tags[:1]

    qa = [
        {"id": "q1", "title": "T", "context": "Paris is the capital of France.", "question": "Capital of France?",
         "answers": {"text": ["Paris"], "answer_start": [0]}},
        {"id": "q2", "title": "T", "context": "Paris is the capital of France.", "question": "Capital of Spain?",
         "answers": {"text": [], "answer_start": []}},
    ]
    out = export_run(TrainConfig(task="qa"), {"train": from_records("qa", qa)}, tmp_path / "qa")
    cfg = TrainConfig.load(out / "run.toml")
    assert cfg.data_format == "squad" and cfg.eval_file is None
    monkeypatch.chdir(out)
    back, none = load_sets(cfg)
    assert _rows(back) == qa and none is None


def test_glue_task_folder_exports_with_exact_counts(shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = TrainConfig(task="pair", glue_task="RTE", data_dir=str(shared_data / "glue" / "RTE"), max_train_examples=100)
    original_train, original_dev = load_sets(TrainConfig(task="pair", glue_task="RTE", data_dir=config.data_dir))
    out, bundled = export_config_run(config, tmp_path / "rte")
    assert [(b.split, b.file, b.rows) for b in bundled] == [("train", "data/train.jsonl", 2490), ("dev", "data/dev.jsonl", 277)]
    assert Path(bundled[0].source).name == "train.tsv" and Path(bundled[0].source).parent.name == "RTE"
    cfg = TrainConfig.load(out / "run.toml")
    assert cfg.glue_task == "RTE" and cfg.data_dir is None and cfg.max_train_examples == 100
    monkeypatch.chdir(out)
    full_train, dev = load_sets(TrainConfig(**{**cfg.to_dict(), "max_train_examples": None}))
    # SOURCES.md: RTE train 2490, dev 277
    assert (len(full_train), len(dev)) == (2490, 277)
    assert _rows(full_train) == _rows(original_train) and _rows(dev) == _rows(original_dev)
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "| train | `data/train.jsonl` | jsonl | 2490 | training |" in readme


def test_readme_gives_the_start_commands(tmp_path: Path) -> None:
    out = export_run(TrainConfig(task="sentence"), {"train": from_records("sentence", SENTENCES)}, tmp_path / "r")
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "bertstudio train --config run.toml" in readme
    assert "accelerate launch --num_processes 2 -m bertstudio train --config run.toml" in readme
    assert "accelerate launch --multi_gpu --num_processes 2 -m bertstudio train --config run.toml" in readme
    data = tomllib.loads((out / "run.toml").read_text(encoding="utf-8"))
    assert data["train_file"] == "data/train.jsonl" and "eval_file" not in data  # TOML has no null


def test_local_model_folder_is_referenced_or_copied(tmp_path: Path) -> None:
    model = tmp_path / "my-model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    train = {"train": from_records("sentence", SENTENCES)}
    out = export_run(TrainConfig(task="sentence", model=str(model)), train, tmp_path / "a")
    assert TrainConfig.load(out / "run.toml").model == str(model.resolve())
    out = export_run(TrainConfig(task="sentence", model=str(model)), train, tmp_path / "b", copy_model=True)
    assert 'model = "model"' in (out / "run.toml").read_text(encoding="utf-8")
    assert TrainConfig.load(out / "run.toml").model == str((out / "model").resolve())
    assert (out / "model" / "config.json").is_file()


def test_refuses_a_non_empty_folder_and_a_kind_mismatch(tmp_path: Path) -> None:
    train = {"train": from_records("sentence", SENTENCES)}
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigError, match="not empty"):
        export_run(TrainConfig(task="sentence"), train, tmp_path / "busy")
    with pytest.raises(ConfigError, match="not 'pair'|task is 'pair'"):
        export_run(TrainConfig(task="pair"), train, tmp_path / "x")
    with pytest.raises(ConfigError, match="no training split"):
        export_run(TrainConfig(task="sentence"), {"dev": train["train"]}, tmp_path / "y")


def test_an_export_inside_the_model_folder_is_refused_and_a_failed_one_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Export run into the model folder (the Train page then picks MODEL/<project>-run) copied the
    model into itself, level after level, until Python's recursion limit: hundreds of nested
    copies of the weights left in the person's model folder."""
    import bertstudio.data.io as io

    model = tmp_path / "my-model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    train = {"train": from_records("sentence", SENTENCES)}
    for copy_model in (True, False):
        with pytest.raises(ConfigError, match="inside the model folder"):
            export_run(TrainConfig(task="sentence", model=str(model)), train, model / "proj-run", copy_model=copy_model)
        assert sorted(p.name for p in model.iterdir()) == ["config.json"]

    def broken(*_a, **_k):
        raise OSError(28, "No space left on device")

    # an existing empty folder is written in place: a mount point (or a folder in a parent the
    # person cannot write) cannot be swapped for a new folder, which failed with EBUSY (a review)
    import bertstudio.train.export as export

    def no_swap(*_a, **_k):
        raise OSError(16, "Device or resource busy")

    with monkeypatch.context() as m:
        m.setattr(export, "create_folder", no_swap)
        mounted = tmp_path / "mounted"
        mounted.mkdir()
        assert export_run(TrainConfig(task="sentence"), train, mounted) == mounted
        assert (mounted / "run.toml").is_file()

    monkeypatch.setattr(io, "save_examples", broken)
    for out in (tmp_path / "new" / "exp", tmp_path / "empty"):
        if out.name == "empty":
            out.mkdir()
        with pytest.raises(OSError, match="No space"):
            export_run(TrainConfig(task="sentence", model=str(model)), train, out, copy_model=True)
        assert (not out.exists()) if out.name == "exp" else list(out.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_exported_run_starts_with_the_readme_command(tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bertstudio.cli import main as cli_main

    rows = [{"text": f"good movie {i}" if i % 2 else f"bad film {i}", "label": "pos" if i % 2 else "neg"} for i in range(12)]
    config = TrainConfig(task="sentence", model=str(tiny_model_dir), epochs=1, batch_size=4, device="cpu", precision="fp32", max_length=16)
    out = export_run(config, {"train": from_records("sentence", rows), "dev": from_records("sentence", rows[:4])}, tmp_path / "e2e")
    monkeypatch.chdir(out)
    assert cli_main(["--quiet", "train", "--config", "run.toml"]) == 0
    assert (out / "run" / "metrics.json").is_file() and (out / "run" / "model" / "config.json").is_file()


# --- issue 11, item 8: export-run bundles only what it was asked to ----------------------


def _sentence_file(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("sentence\tlabel\n" + "".join(f"{text} {i}\t{i % 2}\n" for i in range(6)), encoding="utf-8")
    return path


@pytest.mark.parametrize("setting", ["train_file", "eval_file"])
def test_export_run_refuses_data_outside_the_configs_folder(setting: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import io

    from bertstudio.cli import main as cli_main

    inside = _sentence_file(tmp_path / "shared" / "train.tsv", "good movie")
    secret = _sentence_file(tmp_path / "private" / "secret.tsv", "my private diary line")
    paths = {"train_file": "train.tsv", "eval_file": "train.tsv", setting: "../private/secret.tsv"}
    config = tmp_path / "shared" / "run.toml"
    config.write_text('task = "sentence"\n' + "".join(f'{k} = "{v}"\n' for k, v in paths.items()), encoding="utf-8")
    out = tmp_path / "export"
    assert cli_main(["export-run", "--config", str(config), "--out", str(out)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "outside the run config's folder" in lines[0] and str(secret) in lines[0]
    assert "--train" in lines[0] or "--eval" in lines[0]  # says how to include it on purpose
    assert not out.exists()
    # named on the command line, it is the user's choice, and the output says what was bundled from where
    flag = "--train" if setting == "train_file" else "--eval"
    stdout = io.StringIO()
    assert cli_main(["export-run", "--config", str(config), flag, str(secret), "--out", str(out)], out=stdout) == 0
    split = "train" if setting == "train_file" else "dev"
    assert f"{split}: {secret} -> data/{split}.jsonl (6 rows, jsonl)" in stdout.getvalue()
    assert str(inside) in stdout.getvalue()


def test_export_run_refuses_a_glue_folder_with_a_link_to_outside(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import io

    from bertstudio.cli import main as cli_main

    secret = _sentence_file(tmp_path / "private" / "secret.tsv", "my secret password is hunter2")
    sst = tmp_path / "shared" / "sst"
    _sentence_file(sst / "dev.tsv", "fine film")
    (sst / "train.tsv").symlink_to(secret)  # the data folder is inside, the file it holds is not
    config = tmp_path / "shared" / "run.toml"
    config.write_text('glue_task = "SST-2"\ntask = "sentence"\ndata_dir = "sst"\n', encoding="utf-8")
    out = tmp_path / "export"
    assert cli_main(["export-run", "--config", str(config), "--out", str(out)], out=io.StringIO()) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "links to a file outside" in lines[0] and "train.tsv" in lines[0], lines
    assert not out.exists()


def test_export_run_inside_the_folder_needs_no_flags(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import io

    from bertstudio.cli import main as cli_main

    _sentence_file(tmp_path / "shared" / "data" / "train.tsv", "good movie")
    config = tmp_path / "shared" / "run.toml"
    config.write_text('task = "sentence"\ntrain_file = "data/train.tsv"\n', encoding="utf-8")
    stdout = io.StringIO()
    assert cli_main(["export-run", "--config", str(config), "--out", str(tmp_path / "export")], out=stdout) == 0
    assert f"train: {tmp_path / 'shared' / 'data' / 'train.tsv'} -> data/train.jsonl (6 rows, jsonl)" in stdout.getvalue()
    # again into the same (now full) folder: one line with advice the command line can follow
    # (it read "(or overwrite=True)", an argument of the Python function, not a flag)
    capsys.readouterr()
    assert cli_main(["export-run", "--config", str(config), "--out", str(tmp_path / "export")], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "not empty (expected a new or empty folder)" in err and "=True" not in err, err


def test_export_run_of_a_config_without_data_names_the_config(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """It said "train_file: no training data" and not which file lacked it (a hostile-input sweep)."""
    from bertstudio.cli import main

    config = tmp_path / "empty.toml"
    config.write_text("", encoding="utf-8")
    code = main(["export-run", "--config", str(config), "--out", str(tmp_path / "e")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and str(config) in err[0] and "no training data" in err[0]
    assert not (tmp_path / "e").exists()


def test_export_runs_suggested_flag_is_shell_quoted(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """'(--train /x/my data $HOME/train set.csv)' broke when pasted: the space split it, $HOME expanded."""
    import io
    import re
    import shlex

    from bertstudio.cli import main as cli_main

    outside = _sentence_file(tmp_path / "my data $HOME" / "train set.csv", "good movie")
    config = tmp_path / "shared" / "run.toml"
    config.parent.mkdir()
    config.write_text(f'task = "sentence"\ntrain_file = "{outside}"\n', encoding="utf-8")
    assert cli_main(["export-run", "--config", str(config), "--out", str(tmp_path / "export")], out=io.StringIO()) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    suggested = re.search(r"\((--train .*)\)\)$", line)
    assert suggested is not None, line
    assert shlex.split(suggested.group(1)) == ["--train", str(outside)]


def test_iob1_tags_are_exported_to_json_lines_which_keeps_them(tmp_path: Path) -> None:
    """A project's IOB1 tags (I-PER opening a name, kept by a JSON Lines import) went to train.conll,
    which the CoNLL reader reads as BIO (B-PER): the run.toml naming the project's tags then refused
    its own train file. Export run writes such a split as JSON Lines, which reads the tags back as they are."""
    from bertstudio.data.io import load_examples, save_examples
    from bertstudio.train.export import _data_format

    iob1 = from_records("tagging", [{"tokens": ["Ann", "Lee", "ran"], "tags": ["I-PER", "I-PER", "O"]},
                                    {"tokens": ["in", "Rome"], "tags": ["O", "I-LOC"]}], labels=["O", "I-PER", "I-LOC"])
    assert _data_format(iob1) == ("jsonl", ".jsonl")
    save_examples(iob1, tmp_path / "train.jsonl")
    back = load_examples(tmp_path / "train.jsonl", kind="tagging", labels=["O", "I-PER", "I-LOC"])
    assert back.dataset["tags"] == iob1.dataset["tags"]
    bio = from_records("tagging", [{"tokens": ["Ann", "Lee"], "tags": ["B-PER", "I-PER"]}], labels=["O", "B-PER", "I-PER"])
    assert _data_format(bio) == ("conll", ".conll")
