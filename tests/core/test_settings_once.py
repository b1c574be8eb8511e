"""Issue 12, item 4: every setting is translated once. TrainConfig is the one source of the
CLI's flags, the defaults and the checks; the model keeps the input lengths it was trained
with, so evaluation and prediction cut a long input exactly as the run did; the hold-out
rule is the core's, so a run.toml and export-run reproduce it."""

from __future__ import annotations

import io
import json
import random
from dataclasses import fields
from pathlib import Path

import pytest

from bertstudio.cli import build_parser, config_from_args, main
from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig

pytestmark = pytest.mark.usefixtures("one_thread")

POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]


# --- the command line is generated from the dataclass -----------------------------------------


@pytest.fixture
def no_checkpoint_check(monkeypatch):
    """These tests are about flags reaching the config: the resume path they type names no real
    checkpoint, which `train --resume` refuses first (tests/core/test_cli.py covers that)."""
    import bertstudio.cli as cli

    monkeypatch.setattr(cli, "_refuse_a_resume_of_no_checkpoint", lambda resume, **where: None)


def test_every_setting_has_a_train_flag_and_reaches_the_config(no_checkpoint_check) -> None:
    """A value for each field, typed on the command line, arrives in the TrainConfig unchanged."""
    values = {"task": "pair", "glue_task": "RTE", "train_file": "/d/t.tsv", "eval_file": "/d/e.tsv", "data_dir": "/d",
              "data_format": "tsv", "columns": {"text": "s1", "text_pair": "s2"}, "labels": ["a", "b"], "hold_out": 0.2,
              "hold_out_split": "stratified",  # a record, never typed (an older run's file says "shuffled")
              "model": "/m", "head": "mlp", "method": "finetune", "mode": "top-2", "lora_rank": 4, "lora_alpha": 8, "lora_dropout": 0.05,
              "lora_targets": ["query", "key"], "epochs": 2.5, "lr": 3e-5, "head_lr": 1e-3, "batch_size": 16, "grad_accum": 2,
              "warmup_ratio": 0.2, "weight_decay": 0.1, "max_grad_norm": 0.5, "keep_tuning": 0.25, "class_weight": "balanced",
              "max_length": 96, "doc_stride": 32,
              "max_answer_length": 20, "seed": 7, "seeds": 1, "max_train_examples": 100, "max_eval_examples": 50, "device": "cpu",
              "precision": "fp32", "group_by_length": False, "sparse_embeddings": False, "bf16_weights": False,
              "eval_steps": 5, "logging_steps": 2, "early_stopping_patience": 3, "save_best": False, "cartography": True,
              "resume_from": "/r/checkpoints/last", "output_dir": "/r", "auto_reason": "why", "overwrite": True}
    assert set(values) == {f.name for f in fields(TrainConfig)}  # a new setting must be added here too
    argv = ["train"]
    records = {f.name for f in fields(TrainConfig) if f.metadata["record"]}
    # what bertstudio writes about a run: read from files, never typed
    assert records == {"auto_reason", "hold_out_split"}
    for name, value in values.items():
        if name in records:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + name.replace("_", "-"))
        elif isinstance(value, list):
            argv += [flag, ",".join(value)]
        elif isinstance(value, dict):
            argv += [flag, ",".join(f"{k}={v}" for k, v in value.items())]
        else:
            argv += [flag, str(value)]
    assert config_from_args(build_parser().parse_args(argv)).to_dict() == {**values, "auto_reason": None}
    with pytest.raises(SystemExit):
        build_parser().parse_args(["train", "--auto-reason", "why"])


def test_the_readme_spellings_still_work(no_checkpoint_check) -> None:
    args = build_parser().parse_args(["train", "--train", "t.tsv", "--eval", "e.tsv", "--format", "tsv", "--out", "o",
                                      "--early-stopping", "2", "--resume", "o/checkpoints/last", "--task", "sentence", "--overwrite"])
    config = config_from_args(args)
    assert (config.train_file, config.eval_file, config.data_format, config.output_dir) == ("t.tsv", "e.tsv", "tsv", "o")
    assert (config.early_stopping_patience, config.resume_from, config.overwrite) == (2, "o/checkpoints/last", True)


def test_flags_override_a_config_file_only_where_typed(tmp_path: Path) -> None:
    TrainConfig(task="sentence", lr=1e-4, epochs=7, seed=3).save(tmp_path / "run.toml")
    config = config_from_args(build_parser().parse_args(["train", "--config", str(tmp_path / "run.toml"), "--seed", "9"]))
    assert (config.lr, config.epochs, config.seed) == (1e-4, 7, 9)


def test_one_default_per_setting() -> None:
    """The CLI adds no defaults of its own: an empty command line gives TrainConfig()'s."""
    assert config_from_args(build_parser().parse_args(["train"])) == TrainConfig()


@pytest.mark.parametrize("settings, where", [({"device": "gpu"}, "device"), ({"device": "cuda:x"}, "device"),
                                             ({"glue_task": "NOPE"}, "glue_task"), ({"data_format": "xml"}, "data_format"),
                                             ({"glue_task": "STS-B", "task": "sentence"}, "task"),
                                             ({"hold_out": 1.0}, "hold_out")])
def test_the_dataclass_checks_what_the_run_used_to_find_late(settings, where) -> None:
    with pytest.raises(ConfigError) as info:
        TrainConfig(**settings)
    assert info.value.where == where


def test_a_glue_name_is_kept_in_its_own_spelling() -> None:
    assert TrainConfig(task="sentence", glue_task="sst2").glue_task == "SST-2"
    assert TrainConfig(task="sentence", glue_task="chnsenticorp").glue_task == "ChnSentiCorp"


def test_the_cli_prints_an_mse_as_an_error_not_a_percentage() -> None:
    from bertstudio.cli import ProgressPrinter
    from bertstudio.train.events import Evaluated

    stream = io.StringIO()
    ProgressPrinter(stream)(Evaluated(step=3, epoch=1.0, metrics={"pearson": 0.8, "mse": 0.5}), None)
    assert stream.getvalue() == "eval at step 3: pearson 80.00, mse 0.5000\n"


# --- the model keeps its input lengths -------------------------------------------------------


def _sentence(words: list[str]) -> str:
    return "the film was " + " and ".join(words)


@pytest.fixture(scope="module")
def long_run(tiny, tmp_path_factory) -> tuple[Path, str]:
    """A run at max_length 64 with one dev sentence of ~240 tokens: positive words first, then
    negative ones, so where an input is cut changes what the model reads."""
    rng = random.Random(0)
    rows = [{"text": _sentence(rng.sample(POS if i % 2 else NEG, 2)), "label": "pos" if i % 2 else "neg"} for i in range(32)]
    long_text = _sentence([rng.choice(POS) for _ in range(16)] + [rng.choice(NEG) for _ in range(100)])
    dev = rows[:6] + [{"text": long_text, "label": "neg"}]
    out = tmp_path_factory.mktemp("long") / "run"
    config = TrainConfig(task="sentence", model=tiny, epochs=2, batch_size=8, lr=3e-3, max_length=64, seed=0,
                         device="cpu", precision="fp32", output_dir=str(out))
    from bertstudio.train.engine import train

    result = train(config, from_records("sentence", rows, labels=["neg", "pos"]),
                   from_records("sentence", dev, labels=["neg", "pos"]))
    assert result.status == "finished", result.message
    return out, long_text


def test_the_model_folder_keeps_the_runs_input_lengths(long_run) -> None:
    meta = json.loads((long_run[0] / "model" / "config.json").read_text())["bertstudio"]
    # doc_stride: the overlap QA windows of 64 tokens would use, half their 31 tokens of context (unused here)
    assert (meta["max_length"], meta["doc_stride"], meta["max_answer_length"]) == (64, 15, 30)


def test_a_long_input_is_predicted_as_the_run_evaluated_it(long_run, capsys) -> None:
    """More than 128 tokens: the run's own evaluation (predictions.jsonl), evaluate() and
    Predictor (the Playground, `bertstudio predict`) all read the first 64."""
    from bertstudio.train.engine import evaluate
    from bertstudio.train.predict import Predictor

    run, long_text = long_run
    model_dir = run / "model"
    tokens = len(Predictor.load(model_dir, device="cpu").tokenizer(long_text)["input_ids"])
    assert tokens > 128
    by_run = [json.loads(line) for line in (run / "predictions.jsonl").read_text().splitlines()][-1]
    _, rows = evaluate(model_dir, from_records("sentence", [{"text": long_text, "label": "neg"}], labels=["neg", "pos"]))
    predicted = Predictor.load(model_dir, device="cpu").predict(text=long_text)
    out = io.StringIO()
    assert main(["predict", "--model", str(model_dir), "--text", long_text], out=out) == 0
    by_cli = json.loads(out.getvalue())
    for other in (rows[0], predicted, by_cli):
        assert other["probs"]["pos"] == pytest.approx(by_run["probs"]["pos"], abs=1e-6)
    # cut elsewhere, the model reads something else: the agreement above is not a coincidence
    _, longer = evaluate(model_dir, from_records("sentence", [{"text": long_text}], labels=["neg", "pos"]), max_length=256)
    # (the tiny random model moves little: a difference ten times the agreement above is enough)
    assert longer[0]["probs"]["pos"] != pytest.approx(by_run["probs"]["pos"], abs=1e-5)


def test_a_model_saved_before_the_lengths_were_kept_uses_its_runs_config(long_run, tmp_path) -> None:
    import shutil

    from bertstudio.train.predict import Predictor

    run = tmp_path / "old-run"
    shutil.copytree(long_run[0], run)
    config = json.loads((run / "model" / "config.json").read_text())
    for key in ("max_length", "doc_stride", "max_answer_length"):
        del config["bertstudio"][key]
    (run / "model" / "config.json").write_text(json.dumps(config))
    assert Predictor.load(run / "model", device="cpu").lengths["max_length"] == 64  # from run/config.toml


# --- the hold-out rule is the core's --------------------------------------------------------


def test_export_run_writes_the_rows_the_run_holds_out(tmp_path: Path, capsys) -> None:
    from bertstudio.data.io import load_examples
    from bertstudio.train.sources import load_sets

    lines = ["sentence\tlabel"] + [f"{_sentence([w])}\t{i % 2}" for i, w in enumerate((POS + NEG) * 3)]
    (tmp_path / "train.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = TrainConfig(task="sentence", train_file="train.tsv", hold_out=0.2, seed=5)
    config.save(tmp_path / "run.toml")
    assert main(["export-run", "--config", str(tmp_path / "run.toml"), "--out", str(tmp_path / "export")],
                out=io.StringIO()) == 0
    exported = TrainConfig.load(tmp_path / "export" / "run.toml")
    assert exported.hold_out is None and exported.eval_file is not None  # the held-out rows are a file now
    dev = load_examples(exported.eval_file, kind="sentence", fmt=exported.data_format)
    train = load_examples(exported.train_file, kind="sentence", fmt=exported.data_format)
    kept, held = load_sets(TrainConfig.load(tmp_path / "run.toml"))  # what a run of the original config evaluates on
    assert dev.dataset["text"] == held.dataset["text"] and len(held) == 6
    assert train.dataset["text"] == kept.dataset["text"] and len(kept) == 24
