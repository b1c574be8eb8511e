"""The command line end to end on the tiny model: outputs, exit codes, one-line errors."""

from __future__ import annotations

import io
import json
import os
import random
import sys
from pathlib import Path

import pytest

from bertstudio.cli import EXIT_USAGE, main
from test_bad_input import BAD, CASES

POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.fixture(scope="module")
def sentiment_files(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("cli-data")
    rng = random.Random(0)
    for name, n in (("train.tsv", 48), ("dev.tsv", 16)):
        lines = ["sentence\tlabel"]
        for i in range(n):
            words = rng.sample(POS if i % 2 else NEG, 2)
            lines.append(f"the film was {words[0]} and {words[1]}\t{i % 2}")
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "train.tsv", folder / "dev.tsv"


@pytest.fixture(scope="module")
def trained(sentiment_files, tiny_model_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli-run") / "run"
    train, dev = sentiment_files
    code = main(["--quiet", "train", "--train", str(train), "--eval", str(dev), "--model", str(tiny_model_dir),
                 "--epochs", "6", "--lr", "3e-3", "--batch-size", "8", "--max-length", "32", "--out", str(out)],
                out=io.StringIO())
    assert code == 0
    return out


def test_train_writes_the_run_folder(trained: Path) -> None:
    metrics = json.loads((trained / "metrics.json").read_text())
    assert set(metrics) >= {"accuracy"}  # the kind's official metric names
    assert metrics["accuracy"] > 0.75  # separable toy data; chance is 0.5
    history = [json.loads(line) for line in (trained / "history.jsonl").read_text().splitlines()]
    assert history[0]["kind"] == "started" and history[-1]["kind"] == "finished"
    assert any(e["kind"] == "step" for e in history) and any(e["kind"] == "eval" for e in history)
    predictions = (trained / "predictions.jsonl").read_text().splitlines()
    assert len(predictions) == 16
    assert (trained / "model" / "config.json").is_file() and (trained / "config.toml").is_file()


def test_task_kind_is_inferred_from_the_file(trained: Path) -> None:
    assert 'task = "sentence"' in (trained / "config.toml").read_text()


def test_predict_and_evaluate(trained: Path, sentiment_files, capsys) -> None:
    code, out, _ = run(["predict", "--model", str(trained / "model"), "--text", "the film was great and fun"], capsys)
    assert code == 0
    prediction = json.loads(out)
    assert prediction["label"] == "1" and set(prediction["probs"]) == {"0", "1"}
    code, out, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1])], capsys)
    assert code == 0 and err.strip().splitlines()[-1] == "scored 16 rows with a gold value"
    assert json.loads(out)["accuracy"] == pytest.approx(json.loads((trained / "metrics.json").read_text())["accuracy"])
    # a row without a gold value is left out, and the command says so (a helper found it silent)
    partial = sentiment_files[1].parent / "partial.tsv"
    lines = sentiment_files[1].read_text(encoding="utf-8").splitlines()
    partial.write_text("\n".join(lines[:3] + [lines[3].rsplit("\t", 1)[0] + "\t"] + lines[4:]) + "\n", encoding="utf-8")
    code, out, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(partial)], capsys)
    assert code == 0 and err.strip().splitlines()[-1] == "scored 15 rows with a gold value; 1 without one left out"


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_evaluate_never_writes_into_a_training_runs_folder(trained: Path, sentiment_files, overwrite, capsys) -> None:
    """`evaluate --out RUN --overwrite` replaced the run's own metrics.json and predictions.jsonl
    (and the refusal without --overwrite suggested it): the Runs page then showed a 2-row file's
    scores as the training's."""
    before = {n: (trained / n).read_bytes() for n in ("metrics.json", "predictions.jsonl")}
    code, out, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                          "--out", str(trained), *overwrite], capsys)
    assert code == EXIT_USAGE and out == ""
    assert err.strip() == (f"bertstudio: error: {trained}, --out: is a training run's folder: its metrics.json and "
                           "predictions.jsonl are the run's record (expected another folder)"), err
    assert {n: (trained / n).read_bytes() for n in before} == before


def _copied_run(trained: Path, folder: Path) -> Path:
    """The record of ``trained`` (its settings, history, scores and predictions; no model), with a
    best checkpoint's predictions and an MNLI-mm mismatched/ folder as a run writes them."""
    import shutil

    folder.mkdir()
    for name in ("config.toml", "history.jsonl", "metrics.json", "predictions.jsonl"):
        shutil.copy(trained / name, folder / name)
    for sub in ("checkpoints/best", "mismatched"):
        (folder / sub).mkdir(parents=True)
        for name in ("metrics.json", "predictions.jsonl"):
            shutil.copy(trained / name, folder / sub / name)
    return folder


@pytest.mark.parametrize("out", ["checkpoints/best", "mismatched", "mismatched/new/deeper", "LINK"])
def test_evaluate_never_writes_inside_a_training_runs_folder(trained: Path, sentiment_files, tmp_path, out,
                                                             capsys) -> None:
    """`--out RUN/checkpoints/best --overwrite` replaced the predictions the Results page reads as the
    run's best, and `--out RUN/mismatched --overwrite` the run's MNLI-mm scores (only RUN itself was
    refused): any folder inside a run, or a link to one, is refused as the run's own folder is."""
    run_dir = _copied_run(trained, tmp_path / "run")
    if out == "LINK":
        (tmp_path / "LINK").symlink_to(run_dir / "checkpoints" / "best", target_is_directory=True)
        target = tmp_path / "LINK"
    else:
        target = run_dir / out
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    code, stdout, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                             "--out", str(target), "--overwrite"], capsys)
    assert code == EXIT_USAGE and stdout == ""
    assert err.strip() == (f"bertstudio: error: {target.resolve() if out == 'LINK' else target}, --out: is inside a "
                           f"training run's folder ({run_dir.resolve()}): the files there are the run's record "
                           "(expected another folder)"), err
    assert {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()} == before


def test_evaluate_never_writes_into_a_run_whose_history_is_damaged(trained: Path, sentiment_files, tmp_path,
                                                                   capsys) -> None:
    """A run whose history.jsonl was cut short does not read as a run, so `evaluate --out RUN
    --overwrite` replaced its metrics.json, while `train --overwrite` there refused, naming the damage."""
    run_dir = _copied_run(trained, tmp_path / "run")
    (run_dir / "history.jsonl").write_text('{"kind": "started", "ti', encoding="utf-8")
    before = (run_dir / "metrics.json").read_bytes()
    for target in (run_dir, run_dir / "checkpoints" / "best"):
        code, stdout, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                                 "--out", str(target), "--overwrite"], capsys)
        assert code == EXIT_USAGE and stdout == "" and len(err.strip().splitlines()) == 1, err
        assert "training run's folder" in err and f"{target}, --out:" in err, err
    assert (run_dir / "metrics.json").read_bytes() == before
    # a folder holding only a config.toml (no history) is no run: earlier results there are replaced as before
    (run_dir / "history.jsonl").unlink()
    assert run(["--quiet", "evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                "--out", str(run_dir), "--overwrite"], capsys)[0] == 0


@pytest.mark.parametrize("history", [b"", b"\n\n", b"\0" * 300], ids=["empty", "blank", "zero-filled"])
def test_evaluate_never_writes_into_a_run_whose_history_is_empty(trained: Path, sentiment_files, tmp_path, history,
                                                                 capsys) -> None:
    """A history.jsonl emptied (or zero-filled) by a crash or power loss: `evaluate --out RUN --overwrite`
    replaced the run's predictions.jsonl and metrics.json with another file's, and `train --overwrite`
    there said "this folder is not a bertstudio run". Both refuse it as a run whose history is damaged."""
    run_dir = _copied_run(trained, tmp_path / "run")
    (run_dir / "history.jsonl").write_bytes(history)
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    code, stdout, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                             "--out", str(run_dir), "--overwrite"], capsys)
    assert code == EXIT_USAGE and stdout == ""
    assert err.strip() == (f"bertstudio: error: {run_dir}, --out: is a training run's folder: its metrics.json and "
                           "predictions.jsonl are the run's record (expected another folder)"), err
    code, _, err = run(["train", "--train", str(sentiment_files[0]), "--model", str(trained / "model"),
                        "--out", str(run_dir), "--overwrite"], capsys)
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1, err
    assert "the run's history is damaged" in err and "not a bertstudio run" not in err, err
    assert {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("out", ["model", "model/sub", "downloaded"])
def test_evaluate_never_writes_into_another_models_folder(trained: Path, sentiment_files, tiny_model_dir, tmp_path,
                                                          out, capsys) -> None:
    """`--model runA/model --out runB/model` wrote the evaluation rows beside runB's weights, which
    push-to-hub uploads whole: only the evaluated model's own folder was refused. Any folder that is,
    or lies inside, a model folder (config.json and weights) is refused, a run's or a downloaded one."""
    import shutil

    shutil.copytree(tiny_model_dir, tmp_path / "other" / "model")  # another run's model (no run record around it)
    shutil.copytree(tiny_model_dir, tmp_path / "downloaded")
    model = tmp_path / ("downloaded" if out == "downloaded" else "other/model")
    target = tmp_path / "other" / out if out != "downloaded" else model
    code, stdout, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                             "--out", str(target), "--overwrite"], capsys)
    assert code == EXIT_USAGE and stdout == ""
    where = "is a model folder" if target == model else f"is inside a model folder ({model.resolve()})"
    assert err.strip() == (f"bertstudio: error: {target}, --out: {where}: the predictions (your evaluation rows) "
                           "would be kept, and uploaded, with that model (expected another folder)"), err
    assert not (target / "predictions.jsonl").exists() and not (target / "metrics.json").exists()


def test_evaluate_names_a_run_given_as_the_model_before_its_out(trained: Path, sentiment_files, capsys) -> None:
    """`--model RUN --out RUN/checkpoints` said "--out is inside the model folder": the mistake is
    --model, a run folder, which is said first (with the run's model folder to give)."""
    code, _, err = run(["evaluate", "--model", str(trained), "--eval", str(sentiment_files[1]),
                        "--out", str(trained / "checkpoints")], capsys)
    assert code == EXIT_USAGE
    assert err.strip() == (f"bertstudio: error: {trained}: a run folder, not a model folder (expected the run's "
                           f"model folder: {trained / 'model'})"), err


def test_evaluate_into_a_folder_of_earlier_results_still_offers_overwrite(trained: Path, sentiment_files, tmp_path,
                                                                          capsys) -> None:
    folder = tmp_path / "scores"
    argv = ["--quiet", "evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]), "--out", str(folder)]
    assert run(argv, capsys)[0] == 0
    code, _, err = run(argv, capsys)
    assert code == EXIT_USAGE and "(expected another folder, or --overwrite to replace them)" in err, err
    assert run([*argv, "--overwrite"], capsys)[0] == 0


def test_evaluate_refuses_a_label_id_gap_as_predict_does(trained: Path, sentiment_files, tmp_path, capsys) -> None:
    """id2label {"0": ..., "5": ...}: predict refused the model, evaluate read it and blamed the data
    ("train.csv, line 2: unknown label 'pos' (expected one of 'a', 'c')")."""
    import shutil

    model = tmp_path / "model"
    shutil.copytree(trained / "model", model)
    config = json.loads((model / "config.json").read_text(encoding="utf-8"))
    config["id2label"], config["label2id"] = {"0": "a", "5": "c"}, {"a": 0, "c": 5}  # names the data lacks
    (model / "config.json").write_text(json.dumps(config), encoding="utf-8")
    said = (f"bertstudio: error: {model / 'config.json'}, id2label: config.json's id2label does not list the labels "
            "0 .. num_labels-1 (expected one name per label id)")
    for argv in (["predict", "--model", str(model), "--text", "good"],
                 ["evaluate", "--model", str(model), "--eval", str(sentiment_files[1])]):
        code, out, err = run(["--quiet", *argv], capsys)
        assert code == EXIT_USAGE and out == "" and err.strip() == said, (argv, err)


def test_predict_gives_a_word_that_tokenises_to_nothing_no_tag(tiny_model_dir, tmp_path, capsys) -> None:
    """`predict --tokens` warned "tagged 'O'" and wrote "O" (with {} as its probabilities) for a
    zero-width space, a tag the model never gave, where the Playground says the word was not read."""
    from bertstudio.tasks.model import build_model, save_model

    model, tokenizer = build_model("tagging", str(tiny_model_dir), labels=["O", "B-LOC", "I-LOC"])
    folder = save_model(model, tokenizer, tmp_path / "model")
    code, out, err = run(["predict", "--model", str(folder), "--tokens", "he \u200b is"], capsys)
    result = json.loads(out)
    assert code == 0 and result["unpredicted_words"] == 1
    assert result["tags"][1] is None and result["probs"][1] == {}
    assert all(tag in ("O", "B-LOC", "I-LOC") for tag in (result["tags"][0], result["tags"][2]))
    assert "1 word(s) tokenise to nothing and were not read" in err and "tagged 'O'" not in err


def test_predict_reads_typed_chinese_as_the_model_was_trained(tiny_model_dir, tmp_path, capsys) -> None:
    """`predict --tokens 北京是中国的首都` tagged the whole sentence as one word: a model trained on
    one token per ideograph reads each as a word (as the Playground does), else stderr says so."""
    from bertstudio.data.examples import from_records
    from bertstudio.tasks.model import build_model, save_model
    from bertstudio.tasks.typed_words import record_cjk_words

    model, tokenizer = build_model("tagging", str(tiny_model_dir), labels=["O", "B-LOC", "I-LOC"])
    unknown = save_model(model, tokenizer, tmp_path / "unknown")
    record_cjk_words(model, from_records("tagging", [{"tokens": ["北", "京"], "tags": ["B-LOC", "I-LOC"]}],
                                         labels=["O", "B-LOC", "I-LOC"]))
    chars = save_model(model, tokenizer, tmp_path / "chars")
    code, out, err = run(["predict", "--model", str(chars), "--tokens", "北京是中国的首都"], capsys)
    assert code == 0 and len(json.loads(out)["tags"]) == 8 and "one word" not in err
    code, out, err = run(["predict", "--model", str(unknown), "--tokens", "北京是中国的首都"], capsys)
    assert code == 0 and len(json.loads(out)["tags"]) == 1
    assert "'北京是中国的首都' was read as one word: separate words with spaces" in err
    # Chinese next to digits or letters (sweep_today51 defect 3): 在2008年 was one word, one tag, no note
    code, out, err = run(["predict", "--model", str(chars), "--tokens", "我 2008年 去"], capsys)
    assert code == 0 and len(json.loads(out)["tags"]) == 4 and "one word" not in err
    code, out, err = run(["predict", "--model", str(unknown), "--tokens", "在2008年 北a京b"], capsys)
    assert code == 0 and len(json.loads(out)["tags"]) == 2
    assert "'在2008年' was read as one word" in err and "'北a京b' was read as one word" in err


def test_evaluate_refuses_a_file_with_no_gold_value(trained: Path, tmp_path: Path, capsys) -> None:
    """A label column under another name was silently unread: "{}" and exit 0 (a hostile-input sweep)."""
    wrong = tmp_path / "wrongcols.csv"
    wrong.write_text("review,stars\ngood fun,1\nbad film,0\n", encoding="utf-8")
    code, out, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(wrong)], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and out == "" and len(lines) == 1, err
    assert str(wrong) in lines[0] and "no row has a gold value" in lines[0] and "--columns" in lines[0]
    # named by --columns, the same file scores both rows
    code, out, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(wrong),
                          "--columns", "text=review,label=stars"], capsys)
    assert code == 0 and err.strip().splitlines()[-1] == "scored 2 rows with a gold value"


def test_evaluate_names_labels_given_twice_as_the_problem(trained: Path, sentiment_files, capsys) -> None:
    """--labels pos,pos said "unknown label 'neg' (expected one of 'pos', 'pos')", blaming the file."""
    code, _, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                        "--labels", "pos,pos"], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and len(lines) == 1 and "not a list of distinct names" in lines[0], err


def test_evaluate_refuses_labels_other_than_the_models_in_its_order(trained: Path, sentiment_files, capsys) -> None:
    """--labels 1,0 on a 0,1 model was accepted without a word and changed nothing (rows were read by
    name), though its help says "label names in id order": a wrong result shown as right for whoever
    meant the swap. The model's own order is accepted."""
    model, dev = str(trained / "model"), str(sentiment_files[1])
    for given in ("1,0", "0,1,2"):
        code, out, err = run(["evaluate", "--model", model, "--eval", dev, "--labels", given], capsys)
        lines = err.strip().splitlines()
        assert code == EXIT_USAGE and out == "" and len(lines) == 1, err
        assert f"labels {given} are not the model's labels in its id order (0,1)" in lines[0]
    code, out, _ = run(["evaluate", "--model", model, "--eval", dev, "--labels", "0,1"], capsys)
    assert code == 0 and "accuracy" in json.loads(out)


def test_evaluate_refuses_a_data_folder_it_would_not_read(trained: Path, sentiment_files, tmp_path: Path, capsys) -> None:
    code, _, err = run(["evaluate", "--model", str(trained / "model"), "--eval", str(sentiment_files[1]),
                        "--data-dir", str(tmp_path)], capsys)
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "not both" in err


def test_a_glue_model_evaluates_a_users_csv(trained: Path, sentiment_files, tmp_path: Path, capsys) -> None:
    """A model that remembers its GLUE task (SST-2) read every --eval file in SST-2's TSV layout:
    a user's own CSV of reviews failed with "found 1 columns (expected 2 columns)"."""
    import shutil

    model = tmp_path / "model"
    shutil.copytree(trained / "model", model)
    config = json.loads((model / "config.json").read_text())
    config["bertstudio"]["glue_task"] = "SST-2"
    (model / "config.json").write_text(json.dumps(config))
    rows = [line.split("\t") for line in sentiment_files[1].read_text(encoding="utf-8").splitlines()[1:]]
    csv_file = tmp_path / "reviews.csv"
    csv_file.write_text("text,label\n" + "".join(f'"{t}",{lab}\n' for t, lab in rows), encoding="utf-8")
    code, out, err = run(["evaluate", "--model", str(model), "--eval", str(csv_file)], capsys)
    assert code == 0, err
    assert json.loads(out)["accuracy"] == pytest.approx(json.loads((trained / "metrics.json").read_text())["accuracy"])


def test_rerun_from_saved_config(trained: Path, tmp_path: Path, capsys) -> None:
    code, out, _ = run(["--quiet", "train", "--config", str(trained / "config.toml"), "--epochs", "1",
                        "--out", str(tmp_path / "again")], capsys)
    assert code == 0
    assert (tmp_path / "again" / "metrics.json").is_file()


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["train", "--mode", "bogus"], "unknown mode 'bogus'"),
        (["train", "--epochs", "many"], "invalid float value"),
        (["train"], "no training data"),
        (["train", "--glue-task", "NOPE", "--data-dir", "."], "unknown GLUE task"),
        (["predict", "--model", "/nonexistent/model", "--text", "x"], "/nonexistent/model"),
        (["train", "--columns", "text"], "is not NAME=COLUMN"),
        # issue 11, item 12: numbers are refused up front, whatever the command
        (["train", "--epochs", "inf"], "epochs: must be a finite number above 0 and at most 10000, got inf"),
        (["train", "--max-train-examples", "-5"], "max_train_examples: must be a whole number at least 1, got -5"),
        (["train", "--max-eval-examples", "-1"], "max_eval_examples: must be a whole number at least 1, got -1"),
        (["train", "--weight-decay", "nan"], "weight_decay: must be a finite number at least 0 and at most 10, got nan"),
        (["train", "--seed", "-1"], "seed: must be a whole number at least 0"),
        (["evaluate", "--model", "m", "--eval", "e.tsv", "--max-eval-examples", "-1"], "max_eval_examples: must be"),
        (["evaluate", "--model", "m", "--eval", "e.tsv", "--batch-size", "0"], "batch_size: must be a whole number at least 1"),
        (["glue", "--data-dir", ".", "--out", "o", "--lr", "nan"], "lr: must be a finite number"),
        (["train", "--labels", ",,"], "',,' holds no names"),
        (["train", "--labels", "neg,neg"], "are not a list of distinct names"),
        (["train", "--lora-rank", "100000"], "lora_rank: must be a whole number at least 1 and at most 4096"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, fragment, capsys) -> None:
    try:
        code, _, err = run(argv, capsys)
    except SystemExit as exc:  # argparse's own errors
        code, err = exc.code, capsys.readouterr().err
    assert code == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith("bertstudio: error:") and fragment in last
    assert "Traceback" not in err


def test_a_device_that_is_not_there_is_refused_before_any_work_in_one_line(sentiment_files, tmp_path, capsys) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    train, _dev = sentiment_files
    code, out, err = run(["train", "--train", str(train), "--device", "cuda:99", "--out", str(tmp_path / "o")], capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and lines == ["bertstudio: error: device: device 'cuda:99' asked for, but no CUDA GPU is available "
                                   "(expected auto or cpu)"], err  # no SetFit, no model load, no "run failed" twice
    assert not (tmp_path / "o").exists()


def test_quiet_and_debug_are_taken_after_every_command_too(trained: Path, sentiment_files, capsys) -> None:
    """`bertstudio train --quiet ...` said "unrecognized arguments: --quiet": only `bertstudio --quiet
    train ...` was taken. Every command takes both after its name; before it, they still work."""
    from bertstudio.cli import COMMANDS

    for command in COMMANDS:
        with pytest.raises(SystemExit):
            main([command, "--help"], out=io.StringIO())
        text = capsys.readouterr().out
        assert "--quiet" in text and "--debug" in text, command
    model, dev = str(trained / "model"), str(sentiment_files[1])
    for argv in (["evaluate", "--model", model, "--eval", dev, "--quiet"], ["--quiet", "evaluate", "--model", model,
                                                                            "--eval", dev]):
        code, out, err = run(argv, capsys)
        assert code == 0 and "accuracy" in json.loads(out) and err == "", err  # no "scored 16 rows" line
    code, _, err = run(["evaluate", "--model", model, "--eval", dev], capsys)
    assert code == 0 and "scored 16 rows" in err


@pytest.mark.parametrize("argv, quieted", [(["--quiet", "--debug"], True), (["--debug"], False), ([], True),
                                           (["--debug", "--quiet"], True)])
def test_debug_keeps_the_libraries_progress_bars_only_without_quiet(tmp_path, monkeypatch, capsys, argv, quieted) -> None:
    """`--quiet --debug` turned the libraries' progress bars and load reports back on: --quiet was not quiet."""
    import bertstudio.cli as cli

    calls: list[bool] = []
    monkeypatch.setattr(cli, "_quiet_libraries", lambda: calls.append(True))
    code, _, _ = run([*argv, "train", "--train", str(tmp_path / "none.tsv"), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and calls == ([True] if quieted else [])


def test_evaluate_help_gives_its_own_default_batch_size(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"], out=io.StringIO())
    text = " ".join(capsys.readouterr().out.split())
    assert "examples per forward pass (default: 64)" in text and "(default: 64) (default: 32)" not in text


def _cli_flags(name: str, kwargs: dict) -> list[str] | None:
    """The bad-input table's loader options as CLI flags (None: not expressible on the CLI)."""
    if "tag_scheme" in kwargs or "require_labels" in kwargs:
        return None
    flags: list[str] = []
    if "glue_task" in kwargs:
        flags += ["--glue-task", kwargs["glue_task"]]
    if "kind" in kwargs:
        flags += ["--task", kwargs["kind"]]
    if "labels" in kwargs:
        flags += ["--labels", ",".join(kwargs["labels"])]
    if "columns" in kwargs:
        flags += ["--columns", ",".join(f"{k}={v}" for k, v in kwargs["columns"].items())]
    return flags


CLI_CASES = [c for c in CASES if _cli_flags(c[0], c[1]) is not None]


@pytest.mark.parametrize(("name", "kwargs", "fragment", "where"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_bad_file_exits_2_with_one_line(name, kwargs, fragment, where, tiny_model_dir, tmp_path, capsys) -> None:
    argv = ["train", "--train", str(BAD / name), "--model", str(tiny_model_dir), "--out", str(tmp_path / "run")]
    code, _, err = run(argv + _cli_flags(name, kwargs), capsys)
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("bertstudio:")]
    assert len(lines) == 1 and lines[0].startswith("bertstudio: error:"), err
    assert name in lines[0] and "Traceback" not in err
    assert not (tmp_path / "run" / "model").exists()  # nothing half-trained


def test_enough_bad_files_reach_the_cli() -> None:
    assert len(CLI_CASES) >= 40


def test_glue_command_prints_the_scoreboard(shared_data, tiny_model_dir, tmp_path, capsys) -> None:
    code, out, err = run(["--quiet", "glue", "--tasks", "RTE,WNLI,QNLI", "--data-dir", str(shared_data / "glue"),
                          "--model", str(tiny_model_dir), "--max-train-examples", "32", "--max-eval-examples", "32",
                          "--epochs", "1", "--max-length", "64", "--out", str(tmp_path)], capsys)
    assert code == EXIT_USAGE, err  # QNLI was asked for and left out: the average is partial
    assert "RTE" in out and "WNLI" in out
    assert "QNLI: no train.tsv" in out  # this copy of GLUE has no QNLI training split
    assert err.strip().splitlines()[-1].startswith("bertstudio: error:") and "(QNLI;" in err
    results = json.loads((tmp_path / "scoreboard.json").read_text())
    assert set(results) == {"RTE", "WNLI"} and "accuracy" in results["RTE"]
    assert (tmp_path / "RTE" / "model" / "config.json").is_file()


def test_glue_refuses_a_missing_data_folder_and_keeps_an_earlier_scoreboard(shared_data, tiny_model_dir, tmp_path,
                                                                            capsys) -> None:
    base = ["--quiet", "glue", "--tasks", "RTE", "--model", str(tiny_model_dir), "--epochs", "1"]
    out = tmp_path / "out"
    code, _, err = run([*base, "--data-dir", str(tmp_path / "nowhere"), "--out", str(out)], capsys)
    assert code == 2 and "GLUE data folder does not exist" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()  # nothing written for a command that could not start
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run([*base, "--data-dir", str(empty), "--out", str(out)], capsys)
    assert code == 2 and "no train.tsv for any of the tasks asked for (RTE)" in err and not out.exists()
    (empty / "RTE").mkdir()
    os.mkfifo(empty / "RTE" / "train.tsv")  # there, but no file: it was "no train.tsv"
    code, _, err = run([*base, "--data-dir", str(empty), "--out", str(out)], capsys)
    assert code == 2 and "RTE/train.tsv, --data-dir: is not a regular file" in err and not out.exists()
    (empty / "RTE" / "train.tsv").unlink()
    out.mkdir()
    (out / "scoreboard.json").write_text('{"mine": 1}', encoding="utf-8")
    code, _, err = run([*base, "--data-dir", str(shared_data / "glue"), "--out", str(out)], capsys)
    assert code == 2 and "scoreboard of an earlier glue run" in err and "--overwrite" in err
    assert (out / "scoreboard.json").read_text(encoding="utf-8") == '{"mine": 1}'
    assert sorted(p.name for p in out.iterdir()) == ["scoreboard.json"]


@pytest.mark.parametrize("where", ["same", "inside", "task"])
def test_glue_never_writes_into_the_data_folder(where, tiny_model_dir, tmp_path, capsys) -> None:
    data = tmp_path / "G"
    (data / "RTE").mkdir(parents=True)
    (data / "RTE" / "train.tsv").write_text("index\tsentence1\tsentence2\tlabel\n0\ta\tb\tentailment\n", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    out = {"same": data, "inside": data / "runs", "task": tmp_path}[where]
    if where == "task":  # --out/RTE would be the task's own data folder
        data = tmp_path
    code, _, err = run(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(data), "--model", str(tiny_model_dir),
                        "--epochs", "1", "--out", str(out), "--overwrite"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "data folder" in err, err
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written, nothing removed


def test_glue_refuses_odd_task_lists_and_a_file_as_data_folder(shared_data, tiny_model_dir, tmp_path, capsys) -> None:
    base = ["--quiet", "glue", "--model", str(tiny_model_dir), "--epochs", "1", "--out", str(tmp_path / "out")]
    code, _, err = run([*base, "--tasks", "RTE,RTE", "--data-dir", str(shared_data / "glue")], capsys)
    assert code == 2 and "RTE more than once" in err and len(err.strip().splitlines()) == 1
    a_file = tmp_path / "train.tsv"
    a_file.write_text("x\n", encoding="utf-8")
    code, _, err = run([*base, "--tasks", "RTE", "--data-dir", str(a_file)], capsys)
    assert code == 2 and "is not a folder" in err
    assert not (tmp_path / "out").exists()


def test_glue_with_no_finished_task_leaves_no_scoreboard(tiny_model_dir, tmp_path, capsys) -> None:
    data = tmp_path / "G"
    (data / "RTE").mkdir(parents=True)
    (data / "RTE" / "train.tsv").write_text("index\tsentence1\n0\tonly one column\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(data), "--model", str(tiny_model_dir),
                        "--epochs", "1", "--out", str(out)], capsys)
    assert code == 2, err
    assert not (out / "scoreboard.json").exists()  # a second try is not refused for "an earlier scoreboard"


def test_glue_checks_every_tasks_run_folder_before_the_first_task_trains(tiny_model_dir, tmp_path, capsys) -> None:
    """A later task's run folder holding a file of the user's was found only when that task's turn
    came, after the tasks before it had trained (and, with --overwrite, replaced their runs)."""
    data = tmp_path / "G"
    for task in ("RTE", "WNLI"):
        (data / task).mkdir(parents=True)
        (data / task / "train.tsv").write_text("index\tsentence1\tsentence2\tlabel\n0\ta\tb\t1\n1\tc\td\t0\n",
                                               encoding="utf-8")
    out = tmp_path / "out"
    (out / "WNLI").mkdir(parents=True)
    (out / "WNLI" / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, err = run(["--quiet", "glue", "--tasks", "RTE,WNLI", "--data-dir", str(data), "--model",
                        str(tiny_model_dir), "--epochs", "1", "--out", str(out)], capsys)
    assert code == 2 and str(out / "WNLI") in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in out.iterdir()) == ["WNLI"]  # RTE never trained


def _two_pair_tasks(data: Path) -> None:
    for task, (yes, no) in (("RTE", ("entailment", "not_entailment")), ("WNLI", ("1", "0"))):
        (data / task).mkdir(parents=True)
        rows = "index\tsentence1\tsentence2\tlabel\n0\t{}\tb\t{yes}\n1\t{}\td\t{no}\n"
        (data / task / "train.tsv").write_text(rows.format("a", "c", yes=yes, no=no), encoding="utf-8")
        # other rows than train's: a dev copy of train is warned about (train/sources.warn_repeats)
        (data / task / "dev.tsv").write_text(rows.format("e", "g", yes=yes, no=no), encoding="utf-8")


def test_glue_reads_every_tasks_data_before_the_first_task_trains(tiny_model_dir, tmp_path, capsys) -> None:
    """A later task's bad dev.tsv was found after the tasks before it had trained, and its reason
    went to stdout under the scoreboard while stderr said only "1 GLUE task(s) did not finish"."""
    data = tmp_path / "G"
    _two_pair_tasks(data)
    (data / "WNLI" / "dev.tsv").write_bytes(b"index\tsentence1\tsentence2\tlabel\n0\ta\x00b\tc\t1\n")
    out = tmp_path / "out"
    code, stdout, err = run(["--quiet", "glue", "--tasks", "RTE,WNLI", "--data-dir", str(data), "--model",
                             str(tiny_model_dir), "--epochs", "1", "--out", str(out)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and str(data / "WNLI" / "dev.tsv") in lines[0] and "NUL" in lines[0], err
    assert not out.exists() and stdout == ""  # RTE never trained


def test_glue_says_why_a_task_did_not_finish_on_stderr(tiny_model_dir, tmp_path, capsys, monkeypatch) -> None:
    from bertstudio.errors import TrainingError
    from bertstudio.train import engine

    data = tmp_path / "G"
    _two_pair_tasks(data)
    real = engine.train

    def wnli_fails(config, *a, **k):  # a run that fails once it trains (a NaN loss, a full disk...)
        if config.glue_task != "WNLI":
            return real(config, *a, **k)
        error = TrainingError("the loss became NaN at step 1")
        return engine.RunResult("failed", message=str(error), error=error)

    monkeypatch.setattr(engine, "train", wnli_fails)
    code, stdout, err = run(["--quiet", "glue", "--tasks", "RTE,WNLI", "--data-dir", str(data), "--model",
                             str(tiny_model_dir), "--epochs", "1", "--out", str(tmp_path / "out")], capsys)
    assert code == 1 and "RTE" in stdout, err
    # (RTE's 2 dev rows also warn that the run keeps its last weights: too few to choose the best on)
    lines = [line for line in err.strip().splitlines() if not line.startswith("bertstudio: warning:")]
    assert lines == ["bertstudio: WNLI: run failed: the loss became NaN at step 1"], err
    assert set(json.loads((tmp_path / "out" / "scoreboard.json").read_text())) == {"RTE"}


def test_export_run_then_train_from_it(trained: Path, sentiment_files, tmp_path: Path, capsys) -> None:
    train, dev = sentiment_files  # outside the run folder, so given on the command line
    code, out, err = run(["export-run", "--config", str(trained / "config.toml"), "--train", str(train), "--eval", str(dev),
                          "--out", str(tmp_path / "export")], capsys)
    assert code == 0, err
    # it says what it bundled, from where
    assert f"train: {train} -> data/train.jsonl (48 rows, jsonl)" in out and f"dev: {dev} -> data/dev.jsonl (16 rows, jsonl)" in out
    assert (tmp_path / "export" / "run.toml").is_file()
    code, _, err = run(["--quiet", "train", "--config", str(tmp_path / "export" / "run.toml"), "--epochs", "1",
                        "--out", str(tmp_path / "export" / "out")], capsys)
    assert code == 0, err
    assert json.loads((tmp_path / "export" / "out" / "metrics.json").read_text())


def test_cpu_path_switches_reach_the_config() -> None:
    from bertstudio.cli import build_parser, config_from_args

    parser = build_parser()
    args = parser.parse_args(["train", "--task", "sentence", "--train", "x.csv", "--no-sparse-embeddings", "--no-bf16-weights"])
    cfg = config_from_args(args)
    assert cfg.sparse_embeddings is False and cfg.bf16_weights is False
    cfg = config_from_args(parser.parse_args(["train", "--task", "sentence", "--train", "x.csv"]))
    assert cfg.sparse_embeddings is True and cfg.bf16_weights is True  # the defaults


@pytest.mark.parametrize("argv", [["predict", "--model", "m", "--text", "good \udcff fun"],
                                  ["train", "--train", "tr\udcff.tsv", "--out", "out"]])
def test_arguments_that_are_not_utf8_are_one_line_before_any_work(argv, tmp_path, capsys, monkeypatch) -> None:
    # bytes that are no UTF-8 reach Python as lone surrogates (os.fsdecode): they failed as
    # UnicodeEncodeError deep inside a run, after an empty history.jsonl was written
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "not valid UTF-8" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [["train", "--bogus"], ["train", "--epochs", "x"], ["predict"], ["label-errors", "--folds"]])
def test_a_mistyped_command_line_is_one_line_naming_the_help(argv, capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv, out=io.StringIO())
    err = capsys.readouterr().err
    assert raised.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("bertstudio: error: ") and "--help)" in err


def test_labels_that_are_not_one_clean_set_of_classes_are_refused_before_the_model_loads(tmp_path: Path, capsys) -> None:
    """A drive's RTE file with "entailment"/"not_entailment" and "0"/"1" rows trained a 4-class
    model without a word; a tag "0" typed for "O" made a tag of its own. Listing the classes
    keeps a label set that really is both."""
    pair = tmp_path / "mixed.tsv"
    pair.write_text("sentence1\tsentence2\tlabel\na man\ta person\tentailment\nthe cat\ta dog\tnot_entailment\n"
                    "a b\tc d\t0\ne f\tg h\t1\n", encoding="utf-8")
    code, _, err = run(["train", "--task", "pair", "--train", str(pair), "--model", "/nonexistent/model",
                        "--out", str(tmp_path / "run")], capsys)
    assert code == 2 and "loading the model" not in err
    assert err.strip().splitlines()[-1] == (
        f"bertstudio: error: {pair}, labels: the labels mix names ('entailment', 'not_entailment') and numbers "
        "('0', '1'), which would train as 4 separate classes (expected names throughout or numbers throughout, "
        "or every one of the classes listed with --labels)")
    code, _, err = run(["label-errors", "--task", "pair", "--train", str(pair), "--model", "/nonexistent/model"], capsys)
    assert code == 2 and "labels mix names" in err.strip().splitlines()[-1]

    tags = tmp_path / "tags.conll"
    tags.write_text("John\tB-PER\nlives\tO\nhere\t0\n\nMary\tB-PER\nsings\tO\n", encoding="utf-8")
    code, _, err = run(["train", "--task", "tagging", "--train", str(tags), "--model", "/nonexistent/model",
                        "--out", str(tmp_path / "run2")], capsys)
    assert code == 2
    assert err.strip().splitlines()[-1].startswith(f"bertstudio: error: {tags}, tags: the tags mix names ('B-PER', 'O') "
                                                   "and numbers ('0'), which would train as 3 separate tags")

    # a space around a label in a table is layout ("text, label" over "good, pos"): one class
    for odd in ("pos ", " pos"):
        spaced = tmp_path / "spaced.tsv"
        spaced.write_text(f"text\tlabel\nhello\t{odd}\nbad\tneg\ngood\tpos\n", encoding="utf-8")
        code, _, err = run(["train", "--train", str(spaced), "--model", "/nonexistent/model", "--out", str(tmp_path / "r4")],
                           capsys)
        assert code == 2 and err.strip().splitlines()[-1].endswith("/nonexistent/model: no such model folder "
                                                                   "(expected a model folder or Hub id)")
    # one name spelled twice (a no-break or zero-width space is the label's own): two classes
    for odd in ("pos\u00a0", "pos\u200b"):
        spaced = tmp_path / "spaced.tsv"
        spaced.write_text(f"text\tlabel\nhello\t{odd}\nbad\tneg\ngood\tpos\n", encoding="utf-8")
        code, _, err = run(["train", "--train", str(spaced), "--model", "/nonexistent/model", "--out", str(tmp_path / "r4")],
                           capsys)
        assert code == 2 and err.strip().splitlines()[-1] == (
            f"bertstudio: error: {spaced}, labels: {odd!r}, 'pos' differ only by case, spaces, Unicode form or "
            "invisible characters, which would train as 2 separate classes (expected one spelling of each name, or every one of the classes listed "
            "with --labels)")
    # case, Unicode form (decomposed é, full-width letters) and numbers written two ways: two classes
    for odd, other, words in (("Pos", "pos", "differ only by case"), ("cafe\u0301", "caf\u00e9", "differ only by case"),
                              ("\uff50\uff4f\uff53", "pos", "differ only by case"), ("1.0", "1", "one number written"),
                              ("-0", "0", "one number written"), ("01", "1", "one number written")):
        twice = tmp_path / "twice.tsv"
        twice.write_text(f"text\tlabel\nhello\t{odd}\nbad\tneg\ngood\t{other}\n", encoding="utf-8")
        code, _, err = run(["train", "--train", str(twice), "--model", "/nonexistent/model", "--out", str(tmp_path / "r6")],
                           capsys)
        last = err.strip().splitlines()[-1]
        assert code == 2 and words in last and "2 separate classes" in last and str(twice) in last, last
    # scores in a one-text file taken as classes (--task sentence): one class per value
    scores = tmp_path / "scores.tsv"
    scores.write_text("sentence\tscore\na b\t0.006\nc d\t0.07\ne f\t3\n", encoding="utf-8")
    code, _, err = run(["train", "--task", "sentence", "--train", str(scores), "--model", "/nonexistent/model",
                        "--out", str(tmp_path / "r5")], capsys)
    assert code == 2 and "the labels are numbers with decimals ('0.006', '0.07')" in err.strip().splitlines()[-1]
    assert "--task regression" in err.strip().splitlines()[-1]
    # without --task the same file reads as scores (its header and its decimals say so), and that is said
    code, _, err = run(["train", "--train", str(scores), "--model", "/nonexistent/model", "--out", str(tmp_path / "r7")],
                       capsys)
    assert code == 2 and "no such model folder" in err.strip().splitlines()[-1]
    assert "scores.tsv: reading 'score' as scores to predict (task regression): its header says so; --task " \
           "sentence reads it as classes" in err

    # listed, the four classes are the person's choice: the run gets as far as the model
    code, _, err = run(["train", "--task", "pair", "--train", str(pair), "--labels", "entailment,not_entailment,0,1",
                        "--model", "/nonexistent/model", "--out", str(tmp_path / "run3")], capsys)
    assert code == 2 and "no such model folder" in err.strip().splitlines()[-1]


def test_a_training_file_of_one_class_is_refused_before_the_model_loads(tmp_path: Path, capsys) -> None:
    """A helper's one-class pair file said "labels: pair needs at least 2 labels, got [...]", without
    the file, after "loading the model…"."""
    path = tmp_path / "one.tsv"
    path.write_text("sentence1\tsentence2\tlabel\na man\ta person\tnot_entailment\nthe cat\ta dog\tnot_entailment\n",
                    encoding="utf-8")
    code, _, err = run(["train", "--task", "pair", "--train", str(path), "--model", "/nonexistent/model",
                        "--out", str(tmp_path / "run")], capsys)
    assert code == 2 and "loading the model" not in err
    assert err.strip().splitlines()[-1] == (f"bertstudio: error: {path}, labels: the training data has 1 label "
                                           "('not_entailment') (expected at least 2 labels among the labelled rows)")

    # listed, one label is no classifier either: refused the same way, before the model loads
    code, _, err = run(["train", "--task", "pair", "--train", str(path), "--labels", "not_entailment",
                        "--model", "/nonexistent/model", "--out", str(tmp_path / "run2")], capsys)
    assert code == 2 and "loading the model" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("bertstudio: error: labels: 1 label listed ('not_entailment')") and "at least 2" in last


def test_hostile_run_configs_are_one_line_naming_the_file(tmp_path: Path, capsys) -> None:
    """A hostile-file sweep: a path with a NUL or a symlink loop in run.toml stopped `train` with
    "internal error" (exit 1); a bad choice in the file ("device = 'tpu'") was named without the
    file; a BOM (Windows editors add one) read as invalid TOML; an unknown --format without
    --task fell through to the SQuAD reader ("invalid JSON")."""
    data = tmp_path / "ok.tsv"
    data.write_text("text\tlabel\ngood\tpos\nbad\tneg\n", encoding="utf-8")
    (tmp_path / "lp1").symlink_to(tmp_path / "lp2")
    (tmp_path / "lp2").symlink_to(tmp_path / "lp1")

    def last_line(toml: str, *extra: str) -> tuple[int, str]:
        config = tmp_path / "run.toml"
        config.write_text(toml, encoding="utf-8")
        code, _, err = run(["train", "--config", str(config), "--model", "/nonexistent/model", *extra], capsys)
        return code, err.strip().splitlines()[-1]

    code, line = last_line('train_file = "ok\\u0000.tsv"\n')
    assert code == 2 and line.endswith("run.toml, train_file: the path 'ok\\x00.tsv' contains a NUL character "
                                       "(expected a path to a file or folder)")
    for name in ("eval_file", "data_dir"):
        code, line = last_line(f'train_file = "ok.tsv"\n{name} = "lp1"\n')
        assert code == 2 and f"run.toml, {name}: the path 'lp1' cannot be resolved" in line
    code, line = last_line('train_file = "ok.tsv"\ndevice = "tpu"\n')
    assert code == 2 and line.endswith("run.toml, device: unknown device 'tpu' (expected auto | cpu | cuda | cuda:N | mps)")
    code, line = last_line('\ufefftrain_file = "ok.tsv"\r\n', "--out", str(tmp_path / "run"))
    assert code == 2 and line == "bertstudio: error: /nonexistent/model: no such model folder (expected a model folder or Hub id)"
    code, _, err = run(["train", "--train", str(data), "--format", "xml", "--model", "/nonexistent/model"], capsys)
    assert code == 2 and "unknown format 'xml'" in err.strip().splitlines()[-1]


def test_a_column_mapping_naming_a_target_twice_is_refused(tmp_path: Path, capsys) -> None:
    """`--columns text=sentence,label=gold,text=id` trained on the id column without a word."""
    data = tmp_path / "cols.tsv"
    data.write_text("id\tsentence\tgold\n1\tgood film\tpos\n2\tbad film\tneg\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--train", str(data), "--columns", "text=sentence,label=gold,text=id", "--model", "/x"])
    assert exit_.value.code == 2
    assert "column mapping names 'text' twice ('sentence' and 'id')" in capsys.readouterr().err


def test_whole_numbers_written_with_a_decimal_point_are_classes_and_a_one_row_json_export_reads_back(tmp_path: Path,
                                                                                                  capsys) -> None:
    """A review of the label checks: 0.0/1.0 (how pandas writes a 0/1 column with gaps) were
    refused as scores; a one-row export to .json (JSON Lines) read back as SQuAD."""
    data = tmp_path / "binary.tsv"
    data.write_text("sentence\tlabel\ngood\t1.0\nbad\t0.0\nfine\t1.0\n", encoding="utf-8")
    code, _, err = run(["train", "--train", str(data), "--model", "/nonexistent/model", "--out", str(tmp_path / "r")], capsys)
    assert code == 2 and "no such model folder" in err.strip().splitlines()[-1]
    from bertstudio.data.examples import from_records
    from bertstudio.data.io import load_examples, save_examples

    one = tmp_path / "one.json"
    save_examples(from_records("sentence", [{"text": "fine", "label": "pos"}]), one)
    back = load_examples(one)
    assert (back.kind, back.labels, len(back)) == ("sentence", ["pos"], 1)


def test_data_settings_the_run_would_not_read_are_refused(sentiment_files, tiny_model_dir, tmp_path: Path,
                                                          capsys) -> None:
    """--train beside a GLUE --data-dir was silently not read (the folder's train.tsv won) yet
    recorded in config.toml; --hold-out beside evaluation data likewise. Each is one line, exit 2,
    before the model loads; a config file that holds such a pair is named."""
    train, dev = sentiment_files
    glue = tmp_path / "glue"
    (glue / "SST-2").mkdir(parents=True)
    (glue / "SST-2" / "train.tsv").write_bytes(train.read_bytes())
    base = ["train", "--model", str(tiny_model_dir), "--epochs", "1", "--max-length", "16"]
    for extra, fragment in (
            (["--glue-task", "SST-2", "--data-dir", str(glue), "--train", str(train)], "both --train and --data-dir"),
            (["--train", str(train), "--data-dir", str(glue)], "read only for a GLUE task"),
            (["--train", str(train), "--eval", str(dev), "--hold-out", "0.2"], "--hold-out would not be used"),
            (["--glue-task", "SST-2", "--data-dir", str(glue), "--hold-out", "0.2"], "SST-2's dev.tsv")):
        out = tmp_path / "run"
        code, _, err = run([*base, *extra, "--out", str(out)], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and fragment in lines[-1] and "loading the model" not in err, (extra, err)
        assert not out.exists()
    config = tmp_path / "run.toml"
    config.write_text(f'train_file = "{train}"\nhold_out = 0.2\n', encoding="utf-8")
    code, _, err = run([*base, "--config", str(config), "--eval", str(dev), "--out", str(tmp_path / "r2")], capsys)
    assert code == 2 and str(config) in err and "--hold-out would not be used" in err, err


def test_messages_say_what_to_give_instead(trained: Path, sentiment_files, tmp_path: Path, capsys) -> None:
    """A run folder or an export given as --model named a missing config.json or weights; fp16 on a
    CPU spoke of training to evaluate; --tasks "" blamed the data folder; an ESC in a path reached
    the terminal raw."""
    train, _ = sentiment_files
    export = tmp_path / "export"
    export.mkdir()
    for name in ("model.onnx", "labels.json", "config.json", "tokenizer.json"):
        (export / name).write_text("{}", encoding="utf-8")
    cases = (
        (["predict", "--model", str(trained), "--text", "hi"], f"expected the run's model folder: {trained / 'model'}"),
        (["train", "--model", str(trained), "--train", str(train), "--out", str(tmp_path / "r")], "a run folder"),
        (["predict", "--model", str(export), "--text", "hi"], f"its model file {export / 'model.onnx'}"),
        (["evaluate", "--model", str(trained / "model"), "--eval", str(train), "--precision", "fp16"],
         "fp16 needs a CUDA GPU"),
        (["glue", "--tasks", " , ", "--data-dir", str(tmp_path / "glue"), "--out", str(tmp_path / "g")],
         "--tasks: no task named"),
        (["predict", "--model", str(tmp_path / "a\x1b[31mb"), "--text", "hi"], "a\\x1b[31mb"),
    )
    for argv, fragment in cases:
        code, _, err = run(argv, capsys)
        line = err.strip().splitlines()[-1]
        assert code == 2 and fragment in line and "\x1b" not in err, (argv, err)


def test_train_without_a_run_folder_is_refused_before_the_model_loads(tmp_path: Path, capsys) -> None:
    """Without --out a run trained, printed "saving..." and kept nothing, exit status 0."""
    data = tmp_path / "s.tsv"
    data.write_text("text\tlabel\n" + "".join(f"good {i}\tpos\nbad {i}\tneg\n" for i in range(6)), encoding="utf-8")
    code, _, err = run(["train", "--train", str(data), "--model", "/nonexistent/model", "--epochs", "1"], capsys)
    assert code == 2 and "loading the model" not in err
    assert err.strip().splitlines() == ["bertstudio: error: output_dir: no run folder to keep the trained model in "
                                        "(expected --out DIR (or output_dir in --config's file))"]


def test_a_damaged_config_in_the_run_folder_is_one_line(tmp_path: Path, tiny, capsys) -> None:
    """--overwrite on a folder whose config.toml is no TOML printed the same warning twice before the error."""
    data = tmp_path / "s.tsv"
    data.write_text("text\tlabel\n" + "".join(f"good {i}\tpos\nbad {i}\tneg\n" for i in range(6)), encoding="utf-8")
    out = tmp_path / "run"
    out.mkdir()
    (out / "config.toml").write_text("not = = toml\n", encoding="utf-8")
    code, _, err = run(["--quiet", "train", "--train", str(data), "--model", tiny, "--epochs", "1", "--out", str(out),
                        "--overwrite"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a bertstudio run" in err
    assert (out / "config.toml").read_text(encoding="utf-8") == "not = = toml\n"


def test_a_model_that_is_a_dangling_link_or_a_loop_is_a_local_error_not_a_hub_id(tmp_path: Path, capsys,
                                                                                 monkeypatch) -> None:
    """`--model mymodel` (a link to a moved folder) was sent to the Hub as a repo id: offline it said
    "couldn't connect to huggingface.co", online it leaked the local name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mymodel").symlink_to(tmp_path / "moved-away-model")
    (tmp_path / "l1").symlink_to("l2")
    (tmp_path / "l2").symlink_to("l1")
    data = tmp_path / "train.csv"
    data.write_text("text,label\ngood,pos\nbad,neg\nfine,pos\nawful,neg\n", encoding="utf-8")
    for argv, says in ((["predict", "--model", "mymodel", "--text", "hi"], "a path that does not exist"),
                       (["predict", "--model", "l1", "--text", "hi"], "symbolic link that cannot be followed"),
                       (["train", "--model", "mymodel", "--train", str(data), "--out", "r"], "a path that does not exist")):
        code, _, err = run(argv, capsys)
        last = err.strip().splitlines()[-1]
        assert code == 2 and last.startswith("bertstudio: error: ") and says in last and "huggingface" not in last, last
        assert argv[2] in last


def _code_page_stdout(monkeypatch, errors="strict"):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252", errors=errors)
    monkeypatch.setattr(sys, "stdout", stream)
    return stream


def test_predict_to_a_redirected_code_page_stdout_writes_utf8_on_windows(tiny, tmp_path, monkeypatch):
    """Windows gives a redirected stdout the ANSI code page (cp1252, cp936), and the JSON the CLI
    writes keeps labels and texts as they are: a label in Chinese or with an emoji ended the
    command with "internal error: UnicodeEncodeError"."""
    from bertstudio.tasks.model import build_model, save_model

    labels = ["负面", "正面 😀"]
    model, tok = build_model("sentence", tiny, labels=labels)
    save_model(model, tok, tmp_path / "zh")
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    stream = _code_page_stdout(monkeypatch)
    assert main(["predict", "--model", str(tmp_path / "zh"), "--text", "the movie"]) == 0
    stream.flush()
    assert json.loads(stream.buffer.getvalue().decode("utf-8"))["label"] in labels


@pytest.mark.parametrize("platform, chosen", [("linux", None), ("darwin", None), ("win32", "cp1252")])
def test_stdout_keeps_its_encoding_off_windows_and_where_the_user_chose_one(monkeypatch, platform, chosen):
    """The switch to UTF-8 ran on every system: a Linux user's locale, or PYTHONIOENCODING set on
    purpose, was overridden, and the errors= they chose dropped."""
    from bertstudio.cli import _utf8_stdout

    monkeypatch.setattr(sys, "platform", platform)
    if chosen:
        monkeypatch.setenv("PYTHONIOENCODING", chosen)
    else:
        monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    stream = _code_page_stdout(monkeypatch, errors="backslashreplace")
    _utf8_stdout()
    assert (stream.encoding, stream.errors) == ("cp1252", "backslashreplace")


def test_windows_stdout_becomes_utf8_with_its_errors_mode(monkeypatch):
    from bertstudio.cli import _utf8_stdout

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    stream = _code_page_stdout(monkeypatch, errors="backslashreplace")
    _utf8_stdout()
    assert (stream.encoding, stream.errors) == ("utf-8", "backslashreplace")


def test_the_scored_line_says_a_correlation_of_one_predicted_value_is_undefined() -> None:
    """A collapsed regressor printed "pearson 0.0" without a word: the 0 is no measured correlation."""
    from bertstudio.cli import _scored_line
    from bertstudio.data.examples import from_records

    rows = [{"text": f"a{i}", "text_pair": f"b{i}", "label": float(i % 5)} for i in range(6)] + [{"text": "x", "text_pair": "y"}]
    examples = from_records("regression", rows)
    flat = [{"score": 2.61}] * 7
    assert _scored_line(examples, flat) == ("scored 6 rows with a gold value; 1 without one left out; the model predicts "
                                            "one value for every example, so correlations are undefined (Pearson and "
                                            "Spearman shown as 0)")
    varied = [{"score": float(i)} for i in range(7)]
    assert _scored_line(examples, varied) == "scored 6 rows with a gold value; 1 without one left out"
    same_gold = from_records("regression", [{"text": f"a{i}", "text_pair": "b", "label": 1.0} for i in range(3)])
    assert _scored_line(same_gold, varied[:3]).endswith("; every gold score is the same, so correlations are undefined "
                                                        "(Pearson and Spearman shown as 0)")


def test_the_scored_line_says_a_classifier_answers_one_class_for_almost_every_row() -> None:
    """CoLA on 32 rows: 499 of 500 predictions "acceptable", and nothing said so but an MCC of -0.03
    (regression's "one value for every example" is the line above)."""
    from bertstudio.cli import _scored_line
    from bertstudio.data.examples import from_records
    from bertstudio.metrics.classification import one_answer

    gold = ["acceptable"] * 14 + ["unacceptable"] * 6
    examples = from_records("sentence", [{"text": f"s{i}", "label": g} for i, g in enumerate(gold)],
                            labels=["unacceptable", "acceptable"])
    flat = [{"label": "acceptable"}] * 20
    assert _scored_line(examples, flat) == ("scored 20 rows with a gold value; the model answers 'acceptable' for "
                                            "20 of 20 evaluation rows (the gold: 70%)")
    assert _scored_line(examples, [{"label": g} for g in gold]) == "scored 20 rows with a gold value"
    # 95% of the answers one label, 10% of the gold another: both at their edge say it, one short does not
    assert one_answer(["a"] * 18 + ["b"] * 2, ["a"] * 19 + ["b"]) is not None
    assert one_answer(["a"] * 18 + ["b"] * 2, ["a"] * 18 + ["b"] * 2) is None  # 90% one answer: a model that chose
    assert one_answer(["a"] * 19 + ["b"], ["a"] * 20) is None  # the gold is 95% "a": answering it is no collapse
    assert one_answer(["b"] * 9, ["a"] * 9) is None  # fewer than 10 rows say nothing either way
    assert one_answer(["a", None] * 10, ["b"] * 20).count == 10  # rows without a gold value are left out


@pytest.mark.parametrize("task", [[], ["--task", "regression"]])
def test_train_names_a_gold_column_it_did_not_read_before_the_model_loads(task, tiny, tmp_path: Path, capsys) -> None:
    """text,stars: the stars column was dropped silently; with --task regression the run loaded
    the model, then failed with exit 1 naming neither the column nor --columns (a regression sweep)."""
    data = tmp_path / "stars.csv"  # (a column named rating reads as the gold scores: test_readers_everyday)
    data.write_text("text,stars\n" + "".join(f"a film {i},{i % 10 + 1}\n" for i in range(12)), encoding="utf-8")
    code, out, err = run(["train", *task, "--train", str(data), "--model", tiny, "--epochs", "1",
                          "--out", str(tmp_path / "run")], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and len(lines) == 1, err
    assert lines[0].startswith(f"bertstudio: error: {data}") and "text, stars (stars not read)" in lines[0]
    assert "--columns label=stars" in lines[0] and "loading" not in err and not (tmp_path / "run").exists()


@pytest.mark.parametrize("fmt", [[], ["--format", "text"]])
def test_train_on_plain_text_says_it_holds_no_tags_and_starts_no_run(fmt, tiny, tmp_path: Path, capsys) -> None:
    """Sweep newcode53 #1, #9: notes.txt (sentences, a blank line between paragraphs) trained as
    CoNLL with the tags "world" and "line" (exit 0, a run written); read as plain text, it was
    refused in column words that do not fit it ("no training row has a tags: the tags column is
    missing ... --columns tags=NAME"). A tagging file without tags says "has tags" too."""
    data = tmp_path / "notes.txt"
    data.write_text("Hello world\r\nSecond line\r\n\r\nThird\r\n", encoding="utf-8")
    code, out, err = run(["train", "--task", "tagging", *fmt, "--train", str(data), "--model", tiny, "--epochs", "1",
                          "--out", str(tmp_path / "run")], capsys)
    assert (code, out, err) == (EXIT_USAGE, "", f"bertstudio: error: {data}: plain text holds no tags (expected a "
                                "CoNLL file with a tag after each word (format conll reads a .txt as one: lower-case tags such as ns, v "
                                "are not told from words otherwise), or JSON Lines with tokens and tags)\n")
    assert not (tmp_path / "run").exists()
    untagged = tmp_path / "untagged.jsonl"
    untagged.write_text('{"tokens": ["Hello", "world"]}\n{"tokens": ["Third"]}\n', encoding="utf-8")
    code, out, err = run(["train", "--task", "tagging", "--train", str(untagged), "--model", tiny, "--epochs", "1",
                          "--out", str(tmp_path / "run")], capsys)
    assert code == EXIT_USAGE and f"{untagged}, tags: no training row has tags: the tags column" in err
    if fmt:
        return
    # a .txt with lower-case tags (PKU style) read as text by its name: --format conll, as the line says, reads it
    pku = tmp_path / "pku.txt"
    pku.write_text("北京 ns\n是 v\n首都 n\n\n我 r\n来 v\n", encoding="utf-8")
    code, _, err = run(["train", "--task", "tagging", "--format", "conll", "--train", str(pku), "--model", tiny,
                        "--epochs", "1", "--out", str(tmp_path / "pku_run")], capsys)
    assert code == 0, err


# --- settings said and refused as they apply ----------------------------------------------------


@pytest.mark.parametrize("argv, fragment", [
    (["--mode", "full", "--lora-rank", "1000"], "--lora-rank would not be used: --mode full trains no LoRA adapters"),
    (["--lora-alpha", "4", "--lora-dropout", "0.2"], "--lora-alpha, --lora-dropout would not be used"),
    (["--mode", "frozen", "--lora-targets", "query"], "--lora-targets would not be used: --mode frozen"),
    (["--doc-stride", "64"], "--doc-stride would not be used: a sentence run cuts no windows"),
])
def test_a_flag_the_run_would_not_read_is_refused(argv, fragment, sentiment_files, tmp_path, capsys) -> None:
    """--lora-rank 1000 beside a full fine-tune ran with exit 0 and was recorded as if it had trained
    an adapter, as --hold-out beside --eval would have been (refused: "would not be used")."""
    train, _dev = sentiment_files
    code, _, err = run(["train", "--train", str(train), "--out", str(tmp_path / "run"), *argv], capsys)
    assert code == 2 and fragment in err.strip().splitlines()[-1]
    assert not (tmp_path / "run").exists()


def test_the_start_line_says_the_epochs_as_set() -> None:
    """--epochs 2.5 was announced as "3 epoch(s)" (the epochs begun), for 13 steps = ceil(5 x 2.5)."""
    import argparse

    from bertstudio.cli import _printer
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.events import RunStarted

    stream = io.StringIO()
    printer = _printer(TrainConfig(epochs=2.5), argparse.Namespace(quiet=False))
    printer.stream, printer.tty = stream, False
    printer(RunStarted(total_steps=13, num_train_examples=40, num_eval_examples=0, epochs=3, effective_batch_size=8,
                       trainable_params=1, total_params=1, device="cpu", precision="fp32"), None)
    assert "training 40 examples for 2.5 epoch(s), 13 steps, batch 8" in stream.getvalue()


def test_an_app_runs_config_says_where_its_rows_are(tmp_path, capsys) -> None:
    """An app run's config.toml names no data (its rows are the project's): re-run with --config it
    said only "no training data"."""
    from bertstudio.data.project import Project
    from bertstudio.train.config import TrainConfig

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=["neg", "pos"])
    run_dir = project.runs_dir / "run-1"
    run_dir.mkdir(parents=True)
    project.close(compact=False)
    TrainConfig(output_dir=".").save(run_dir / "config.toml")
    code, _, err = run(["train", "--config", str(run_dir / "config.toml"), "--out", str(tmp_path / "again")], capsys)
    last = err.strip().splitlines()[-1]
    assert code == 2 and "this run trained on its project's rows" in last and "Export run…" in last, last
    assert "--train FILE" in last
    # resumed, --train FILE would be refused as a changed setting: no flag is suggested, a new run is
    (run_dir / "checkpoints" / "last").mkdir(parents=True)
    (run_dir / "checkpoints" / "last" / "state.json").write_text("{}", encoding="utf-8")  # a checkpoint to the eye
    code, _, err = run(["train", "--resume", str(run_dir / "checkpoints" / "last")], capsys)
    last = err.strip().splitlines()[-1]
    assert code == 2 and "cannot be resumed from the command line" in last and "Resume" in last, last
    assert "--train" not in last


def _started_config(argv: list[str], monkeypatch, capsys) -> "object":
    """The TrainConfig ``bertstudio train`` would start (the engine is not run)."""
    import bertstudio.train.engine as engine

    started = []

    def fake_train(config, *args, **kwargs):
        started.append(config)
        raise KeyboardInterrupt  # stop here: exit 130

    monkeypatch.setattr(engine, "train", fake_train)
    code, _, err = run(["--quiet", "train", *argv], capsys)
    assert code == 130 and started, err
    return started[0]


def test_a_run_configs_automatic_choices_are_chosen_again_for_other_data(tiny, tmp_path, monkeypatch, capsys) -> None:
    """Run A's config.toml fed 400 rows kept the 50 epochs and evaluation every 15 steps Automatic chose
    for 40 rows (1250 steps, 83 evaluations), as if typed, and said nothing."""
    from dataclasses import replace

    from bertstudio.train.small_data import SMALL_BATCH, epochs_for

    rng = random.Random(0)
    for name, n in (("train.tsv", 40), ("train400.tsv", 400), ("dev.tsv", 10)):
        rows = [f"the film was {rng.choice(POS if i % 2 else NEG)} {i}\t{i % 2}" for i in range(n)]
        (tmp_path / name).write_text("sentence\tlabel\n" + "\n".join(rows) + "\n", encoding="utf-8")
    first = _started_config(["--model", tiny, "--train", str(tmp_path / "train.tsv"), "--eval", str(tmp_path / "dev.tsv"),
                             "--max-length", "32", "--out", str(tmp_path / "A")], monkeypatch, capsys)
    assert (first.epochs, first.batch_size) == (epochs_for(40, SMALL_BATCH), SMALL_BATCH) and first.eval_steps
    (tmp_path / "A").mkdir()
    replace(first, output_dir=".").save(tmp_path / "A" / "config.toml")  # as the run folder records it
    again = _started_config(["--config", str(tmp_path / "A" / "config.toml"), "--train", str(tmp_path / "train400.tsv"),
                             "--out", str(tmp_path / "B")], monkeypatch, capsys)
    assert (again.epochs, again.batch_size) == (epochs_for(400, SMALL_BATCH), SMALL_BATCH)
    assert again.eval_steps != first.eval_steps and "400 labelled rows" in again.auto_reason
    assert again.max_length == 32  # the user's, kept
    # the same data (another folder, seed): the file's recipe as it was, its reason kept
    same = _started_config(["--config", str(tmp_path / "A" / "config.toml"), "--seed", "7", "--out", str(tmp_path / "C")],
                           monkeypatch, capsys)
    assert (same.epochs, same.eval_steps, same.auto_reason) == (first.epochs, first.eval_steps, first.auto_reason)


def test_an_empty_config_file_is_one_line_naming_it(tmp_path, capsys) -> None:
    """It said "train_file: no training data", naming no file (the README promises one line naming it)."""
    for name, text in (("empty.toml", ""), ("empty.json", "{}"), ("comments.toml", "# nothing yet\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, _, err = run(["train", "--config", str(tmp_path / name), "--out", str(tmp_path / "X")], capsys)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert f"{tmp_path / name}: the run config holds no settings" in err
    assert not (tmp_path / "X").exists()


def test_a_config_files_setting_the_run_will_not_use_is_said(tmp_path, caplog) -> None:
    """doc_stride = 64 and lora_rank = 4 in a sentence task's file (mode full) were recorded and silently
    unused, where the same flags are refused; a run's own config.toml, which holds LoRA's defaults, is silent."""
    import logging

    from bertstudio.cli import build_parser, config_from_args
    from bertstudio.train.config import TrainConfig

    def warnings(path: Path) -> list[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bertstudio"):
            config_from_args(build_parser().parse_args(["train", "--config", str(path), "--out", str(tmp_path / "o")]))
        return [r.getMessage() for r in caplog.records if "would not be used" in r.getMessage()]

    (tmp_path / "run.toml").write_text('task = "sentence"\ndoc_stride = 64\nlora_rank = 4\nlora_alpha = 16\n', encoding="utf-8")
    said = warnings(tmp_path / "run.toml")
    assert len(said) == 1 and said[0].startswith(str(tmp_path / "run.toml"))
    assert "doc_stride = 64" in said[0] and "lora_rank = 4" in said[0] and "lora_alpha" not in said[0]
    assert "--mode full trains no LoRA adapters" in said[0] and "a sentence run cuts no windows" in said[0]
    TrainConfig(task="sentence", train_file="t.csv", output_dir=".").save(tmp_path / "config.toml")
    assert warnings(tmp_path / "config.toml") == []


def _signal_at(monkeypatch, signum: int, at) -> None:
    """The CLI's printer sends ``signum`` to this process when step ``at`` is logged ("last":
    the run's last step), as ``kill``, ``timeout`` or a closed terminal would during that step."""
    from bertstudio import cli
    from bertstudio.train.events import StepLogged

    real, sent = cli._printer, []

    def printer(config, args):
        inner = real(config, args)

        def call(event, control):
            inner(event, control)
            if isinstance(event, StepLogged) and event.step == (event.total_steps if at == "last" else at) and not sent:
                sent.append(signum)
                os.kill(os.getpid(), signum)
        return call

    monkeypatch.setattr(cli, "_printer", printer)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_a_one_process_run_after_its_step_as_ctrl_c_does(name, sentiment_files, tiny,
                                                                                  tmp_path, capsys, monkeypatch):
    """kill, timeout, docker stop or a closed terminal killed a one-process run mid-step: no
    model/, and a run without evaluation data kept nothing resumable. A launcher's processes
    already stopped after their step; one process now does too, and resumes."""
    import signal as signals

    signum = getattr(signals, name, None)
    if signum is None:
        pytest.skip(f"no {name} here")
    def stand_in(*_):  # what the signal reaches if the CLI does not catch it (not the test process's end)
        pass

    from bertstudio import cli

    monkeypatch.setattr(cli, "_is_terminal", lambda fd: False)  # this pytest's own terminal (-s) is not hung up
    before = signals.signal(signum, stand_in)
    try:
        _signal_at(monkeypatch, signum, 3)
        out = tmp_path / "run"
        train, _ = sentiment_files  # no evaluation data: it kept no checkpoint at all before
        argv = ["--quiet", "train", "--train", str(train), "--model", tiny, "--epochs", "2", "--batch-size", "8",
                "--max-length", "16", "--logging-steps", "1", "--out", str(out)]
        code, _, err = run(argv, capsys)
        assert signals.getsignal(signum) is stand_in  # the CLI's handler is put back
    finally:
        signals.signal(signum, before)
    assert code == 130, err
    assert f"stopping after this step ({name} received)" in err
    assert (out / "model" / "config.json").is_file() and (out / "checkpoints" / "last" / "state.json").is_file()
    assert json.loads((out / "checkpoints" / "last" / "state.json").read_text())["step"] == 3
    code, _, err = run(["--quiet", "train", "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == 0, err
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    assert [e["status"] for e in history if e["kind"] == "finished"] == ["cancelled", "finished"]


def test_glue_leaves_a_nohup_sighup_ignored(tiny_model_dir, tmp_path, capsys, monkeypatch):
    """`nohup bertstudio glue ...`: the CLI put its handler over nohup's SIG_IGN, and a logout
    stopped the benchmark at the task it was training."""
    import signal as signals

    from bertstudio import cli

    if not hasattr(signals, "SIGHUP"):
        pytest.skip("no SIGHUP here")
    seen = []

    def task(*args, **kwargs):
        seen.append(signals.getsignal(signals.SIGHUP))
        return cli.EXIT_OK

    monkeypatch.setattr(cli, "_train_glue_task", task)
    data = tmp_path / "G"
    (data / "RTE").mkdir(parents=True)
    for name in ("train.tsv", "dev.tsv"):
        (data / "RTE" / name).write_text("index\tsentence1\tsentence2\tlabel\n0\ta\tb\tentailment\n",
                                         encoding="utf-8")
    before = signals.signal(signals.SIGHUP, signals.SIG_IGN)
    try:
        run(["--quiet", "glue", "--tasks", "RTE", "--data-dir", str(data), "--model", str(tiny_model_dir),
             "--epochs", "1", "--out", str(tmp_path / "out")], capsys)
        assert signals.getsignal(signals.SIGHUP) is signals.SIG_IGN
    finally:
        signals.signal(signals.SIGHUP, before)
    assert seen == [signals.SIG_IGN]


def test_ctrl_c_during_the_last_step_finishes_the_run(sentiment_files, tiny, tmp_path, capsys, monkeypatch):
    """Ctrl-C read after the last step ended 'cancelled at step 12' of 12 without the last
    evaluation, and `train --resume` refused the checkpoint it kept ('no point of this run')."""
    import signal as signals

    _signal_at(monkeypatch, signals.SIGINT, "last")
    out = tmp_path / "run"
    train, dev = sentiment_files
    code, _, err = run(["--quiet", "train", "--train", str(train), "--eval", str(dev), "--model", tiny, "--epochs", "2",
                        "--batch-size", "8", "--max-length", "16", "--logging-steps", "1", "--out", str(out)], capsys)
    assert code == 0, err
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    assert [e["status"] for e in history if e["kind"] == "finished"] == ["finished"]
    assert [e["step"] for e in history if e["kind"] == "eval"][-1] == 12  # the last evaluation was done
    assert (out / "metrics.json").is_file() and not (out / "checkpoints" / "last").exists()


def test_train_resume_finishes_a_run_an_earlier_version_left_at_its_last_step(sentiment_files, tiny, tmp_path, capsys,
                                                                               monkeypatch):
    """Such a run kept checkpoints/last at step N of N with its evaluation owed: resumed, it evaluates and finishes."""
    import signal as signals

    _signal_at(monkeypatch, signals.SIGINT, 6)  # a stop where an evaluation is due (the end of epoch 1)
    out = tmp_path / "run"
    train, dev = sentiment_files
    code, _, err = run(["--quiet", "train", "--train", str(train), "--eval", str(dev), "--model", tiny, "--epochs", "2",
                        "--batch-size", "8", "--max-length", "16", "--logging-steps", "1", "--out", str(out)], capsys)
    assert code == 130, err
    state = out / "checkpoints" / "last" / "state.json"
    saved = json.loads(state.read_text())
    assert saved["eval_pending"] is True
    state.write_text(json.dumps({**saved, "step": 12, "epoch": 2, "batches_done": 0}))  # as the last step left it
    code, _, err = run(["--quiet", "train", "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == 0, err
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    assert [e["status"] for e in history if e["kind"] == "finished"] == ["cancelled", "finished"]
    assert [e["step"] for e in history if e["kind"] == "eval"][-1] == 12 and (out / "metrics.json").is_file()


def test_resume_of_a_run_whose_config_toml_is_gone_says_so(sentiment_files, tiny, tmp_path, capsys, monkeypatch):
    """`train --resume RUN/checkpoints/last` reads the run's settings from its config.toml; with the
    file deleted it said "train_file: no training data"."""
    import signal as signals

    _signal_at(monkeypatch, signals.SIGINT, 2)
    out = tmp_path / "run"
    train, _ = sentiment_files
    code, _, err = run(["--quiet", "train", "--train", str(train), "--model", tiny, "--epochs", "1", "--batch-size", "8",
                        "--max-length", "16", "--logging-steps", "1", "--out", str(out)], capsys)
    assert code == 130, err
    (out / "config.toml").unlink()
    code, _, err = run(["--quiet", "train", "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == EXIT_USAGE
    assert err.strip() == (f"bertstudio: error: {out / 'config.toml'}, --resume: the run's config.toml is missing "
                           "(expected the config.toml the run wrote (a resumed run goes on with its own settings), or "
                           "those settings with --config FILE)"), err


def test_a_resume_path_that_is_no_checkpoint_is_said_first(trained: Path, sentiment_files, tmp_path, capsys,
                                                            monkeypatch) -> None:
    """A mistyped --resume was answered about the config.toml two folders above it ("/tmp/config.toml"),
    or with advice to --out a folder holding no run; "no resumable checkpoint here" came last. The
    errors name the flag typed, --resume (they named the config key, resume_from), and a path that is
    not there is said not to exist (it read "no resumable checkpoint here", as if something were)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sb" / "a").mkdir(parents=True)
    expected = "(expected a run's checkpoints/last folder)"
    for argv, said in ((["--resume", "missing"], "missing, --resume: does not exist"),
                       (["--resume", str(sentiment_files[0])], f"{sentiment_files[0]}, --resume: no resumable checkpoint here"),
                       (["--resume", "sb/a/missing", "--config", str(trained / "config.toml")],
                        "sb/a/missing, --resume: does not exist")):
        code, out, err = run(["--quiet", "train", *argv], capsys)
        assert code == EXIT_USAGE and out == ""
        assert err.strip() == f"bertstudio: error: {said} {expected}", err
    from_file = tmp_path / "resume.toml"  # from a --config file, its key is named (with the path it read)
    from_file.write_text('resume_from = "sb/a/missing"\n', encoding="utf-8")
    code, _, err = run(["--quiet", "train", "--config", str(from_file)], capsys)
    assert code == EXIT_USAGE and ", resume_from: does not exist" in err and "--resume" not in err, err
    code, _, err = run(["--quiet", "train", "--resume", str(trained)], capsys)  # finished: its last checkpoint is gone
    assert code == EXIT_USAGE
    assert err.strip() == (f"bertstudio: error: {trained}, --resume: the run in this folder has finished; there is "
                           "nothing to resume (expected a new folder for a new run)"), err  # as for its checkpoints/best
    stopped = tmp_path / "stopped"
    (stopped / "checkpoints" / "last").mkdir(parents=True)
    (stopped / "checkpoints" / "last" / "state.json").write_text("{}", encoding="utf-8")
    code, _, err = run(["--quiet", "train", "--resume", str(stopped)], capsys)
    assert code == EXIT_USAGE
    assert err.strip() == (f"bertstudio: error: {stopped}, --resume: is a run folder: resume from "
                           f"{stopped / 'checkpoints' / 'last'} {expected}"), err


def test_a_run_whose_data_files_moved_resumes_with_their_new_paths(sentiment_files, tiny, tmp_path, capsys,
                                                                   monkeypatch):
    """A run folder copied with its data (or a project moved): the old paths gave "file not found" and
    `--train NEWPATH --eval NEWPATH` was refused as "other settings (train_file, eval_file)". The
    checkpoint knows the rows, so the same rows anywhere resume; other rows there are refused."""
    import shutil
    import signal as signals
    import tomllib

    _signal_at(monkeypatch, signals.SIGINT, 2)
    out = tmp_path / "run"
    train, dev = sentiment_files
    code, _, err = run(["--quiet", "train", "--train", str(train), "--eval", str(dev), "--model", tiny, "--epochs", "1",
                        "--batch-size", "8", "--max-length", "16", "--logging-steps", "1", "--out", str(out)], capsys)
    assert code == 130, err
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(train, moved / "train.tsv")
    (moved / "dev.tsv").write_text(dev.read_text(encoding="utf-8").replace("\t1\n", "\t0\n", 1), encoding="utf-8")
    resume = ["--quiet", "train", "--resume", str(out / "checkpoints" / "last"), "--train", str(moved / "train.tsv"),
              "--eval", str(moved / "dev.tsv")]
    code, _, err = run(resume, capsys)  # one gold changed in the evaluation rows
    errors = [line for line in err.splitlines() if line.startswith("bertstudio: error:")]
    assert code == EXIT_USAGE and len(errors) == 1, err
    assert "the evaluation data changed since the run stopped: the same 16 rows, with other labels" in errors[0]
    shutil.copy(dev, moved / "dev.tsv")
    code, _, err = run(resume, capsys)
    assert code == 0, err
    saved = tomllib.loads((out / "config.toml").read_text(encoding="utf-8"))
    assert saved["train_file"] == str((moved / "train.tsv").resolve())  # the run's record names where its data is now


def test_a_cancelled_run_says_its_step_once_and_its_resume_says_where_it_goes_on(sentiment_files, tiny, tmp_path,
                                                                                capsys, monkeypatch):
    """A cancel printed "run cancelled at step 3: cancelled at step 3"; the resumed run printed
    "training 48 examples for 2 epoch(s), 12 steps…" with no word of the 3 steps it already had."""
    import signal as signals

    from bertstudio import cli

    monkeypatch.setattr(cli, "_is_terminal", lambda fd: False)
    printer = cli._printer
    _signal_at(monkeypatch, signals.SIGINT, 3)
    out = tmp_path / "run"
    train, _ = sentiment_files
    code, _, err = run(["train", "--train", str(train), "--model", tiny, "--epochs", "2", "--batch-size", "8",
                        "--max-length", "16", "--logging-steps", "1", "--out", str(out)], capsys)
    assert code == 130, err
    ended = [line for line in err.splitlines() if line.startswith("run cancelled")]
    assert ended == ["run cancelled at step 3"], err
    monkeypatch.setattr(cli, "_printer", printer)
    code, _, err = run(["train", "--resume", str(out / "checkpoints" / "last")], capsys)
    assert code == 0, err
    lines = err.splitlines()
    started = next(i for i, line in enumerate(lines) if line.startswith("training 48 examples"))
    assert lines[started + 1] == "resumed from step 3 of 12", err


def test_a_regression_model_evaluated_in_bf16_scores_in_fp32(tiny, tmp_path, capsys) -> None:
    """Under --precision bf16 (what auto picks on a CPU with native bf16) the whole model, head included,
    ran in bf16: every STS-B score of a young model came out 3.75 (bf16 steps 1/64 there) and Pearson
    and Spearman were reported 0.0. The head now reads an fp32 copy of the pooled state."""
    import torch

    from bertstudio.tasks.model import build_model, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", tiny, labels=[])
    with torch.no_grad():  # scores within a few bf16 steps of each other, as a young STS-B model's are
        model.classifier.weight.mul_(100)  # a random tiny encoder's pooled states differ little
        model.classifier.bias.fill_(3.75)
    folder = save_model(model, tokenizer, tmp_path / "model")
    words = ["good", "bad", "film", "great", "boring", "fun", "the", "was"]
    rows = ["sentence,score"] + [f"{words[i % 8]} {words[(3 * i + 1) % 8]} {words[(5 * i + 2) % 8]},{i % 5}"
                                 for i in range(8)]
    data = tmp_path / "scores.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    scores = {}
    for precision in ("fp32", "bf16"):
        out = tmp_path / f"ev_{precision}"
        code, _, _ = run(["evaluate", "--model", str(folder), "--task", "regression", "--eval", str(data),
                          "--columns", "text=sentence,label=score", "--precision", precision, "--out", str(out)], capsys)
        assert code == 0
        scores[precision] = [json.loads(line)["score"] for line in (out / "predictions.jsonl").read_text().splitlines()]
    exact, quick = scores["fp32"], scores["bf16"]
    assert len(set(exact)) == len(exact) == 8  # the check can fail: fp32 scores are distinct
    assert max(exact) - min(exact) < 0.02  # within a few bf16 steps (1/128 at 2-4), so bf16 scores would tie
    assert len(set(quick)) == 8  # no ties: the head's output is an fp32 number
    assert quick == pytest.approx(exact, abs=0.05)  # the bf16 encoder moves them a little


def _squad_file(path: Path, questions: list[tuple[str, str, str]]) -> Path:
    """A SQuAD file of (question, context, answer) rows; answer "" is an unanswerable question."""
    paragraphs = [{"context": c, "qas": [{"id": f"q{i}", "question": q, **(
        {"answers": [{"text": a, "answer_start": c.index(a)}]} if a else {"answers": [], "is_impossible": True})}]}
        for i, (q, c, a) in enumerate(questions)]
    path.write_text(json.dumps({"version": "v2.0", "data": [{"title": "t", "paragraphs": paragraphs}]}), encoding="utf-8")
    return path


def test_qa_null_answers_come_from_the_model_not_the_eval_file(tiny, tmp_path, capsys) -> None:
    """One unanswerable question in the evaluation file made `evaluate` answer "" to every question
    (a v1.1 model), while `predict` answered. Now a model says whether it may answer "no answer"
    (trained on v2 data: config.json's bertstudio.null_answers), the same in evaluate and predict."""
    import torch

    from bertstudio.tasks.model import build_model, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("qa", tiny, labels=[])
    with torch.no_grad():  # start and end logits highest at [CLS] ("no answer"), so a model allowed to says it
        enc = tokenizer("who wrote it", "the film was fun", return_tensors="pt")
        hidden = model.base_model(**enc).last_hidden_state[0]
        towards_cls = hidden[0] - hidden[1:].mean(0)
        model.qa_outputs.weight.copy_(torch.stack([towards_cls, towards_cls]) * 10 / towards_cls.norm())
        model.qa_outputs.bias.zero_()
    v1 = save_model(model, tokenizer, tmp_path / "v1")
    model.config.bertstudio = {**model.config.bertstudio, "null_answers": True}
    v2 = save_model(model, tokenizer, tmp_path / "v2")
    rows = [("where is the cat", "the cat is in paris", "paris"), ("what was great", "the film was great fun", "fun"),
            ("who is bad", "the dog was bad and boring", "dog")]
    answerable = _squad_file(tmp_path / "v1.json", rows)
    mixed = _squad_file(tmp_path / "mixed.json", rows + [("who wrote it", "the film was fun", "")])

    def answers(folder: Path, data: Path, name: str) -> list[str]:
        out = tmp_path / name
        code, _, err = run(["evaluate", "--model", str(folder), "--task", "qa", "--eval", str(data), "--precision", "fp32",
                            "--out", str(out)], capsys)
        assert code == 0, err
        return [json.loads(line)["answer"] for line in (out / "predictions.jsonl").read_text().splitlines()]

    alone, beside = answers(v1, answerable, "a"), answers(v1, mixed, "b")
    assert all(alone) and beside[:3] == alone and beside[3] != ""  # a v1.1 model always answers
    code, out, _ = run(["predict", "--model", str(v1), "--question", rows[0][0], "--context", rows[0][1]], capsys)
    assert code == 0 and json.loads(out)["answer"] == alone[0]
    null = answers(v2, mixed, "c")
    assert null[3] == ""  # the check can fail: this model may say "no answer", and does here
    code, out, _ = run(["predict", "--model", str(v2), "--question", rows[0][0], "--context", rows[0][1]], capsys)
    assert code == 0 and json.loads(out)["answer"] == null[0]


def test_a_word_that_tokenises_to_nothing_has_no_tag_in_evaluate_either(tiny_model_dir, tmp_path, capsys) -> None:
    """evaluate's predictions.jsonl tagged a zero-width space "O" (not one of a POS model's tags) where
    predict and predict.py give null; null everywhere now, and only scoring counts it as "O"."""
    from bertstudio.tasks.model import build_model, save_model

    tags = ["DET", "NOUN", "X"]
    model, tokenizer = build_model("tagging", str(tiny_model_dir), labels=tags)
    folder = save_model(model, tokenizer, tmp_path / "model")
    data = tmp_path / "pos.conllu"
    data.write_text("# text = x\n" + "".join(f"{i}\t{w}\t_\t{t}\t_\t_\t_\t_\t_\t_\n" for i, (w, t) in enumerate(
        [("the", "DET"), ("\u200b", "X"), ("cat", "NOUN")], start=1)) + "\n", encoding="utf-8")
    code, out, err = run(["evaluate", "--model", str(folder), "--task", "tagging", "--eval", str(data), "--precision", "fp32",
                          "--out", str(tmp_path / "ev")], capsys)
    assert code == 0, err
    row = json.loads((tmp_path / "ev" / "predictions.jsonl").read_text())
    assert row["tags"][1] is None and row["unpredicted_words"] == 1 and set(row["tags"][::2]) <= set(tags)
    correct = sum(p == g for p, g in zip(row["tags"], ["DET", "X", "NOUN"]))
    assert json.loads(out)["accuracy"] == pytest.approx(correct / 3)  # the unread word is wrong ("O" is no POS tag)
    code, out, _ = run(["predict", "--model", str(folder), "--tokens", "the \u200b cat"], capsys)
    assert code == 0 and json.loads(out)["tags"] == row["tags"]


@pytest.mark.parametrize("command", [["evaluate", "--eval", "ok.csv"], ["predict", "--text", "hi"],
                                     ["export-onnx", "--out", "x"]])
def test_a_mistyped_model_path_is_no_such_model_folder(command, tmp_path, capsys, monkeypatch) -> None:
    """evaluate blamed config.json of a folder that does not exist ("not fine-tuned by bertstudio (no
    task kind in config.json)"); predict and export-onnx said they could not connect to huggingface.co."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.csv").write_text("sentence,label\ngood,pos\n", encoding="utf-8")
    code, _, err = run([command[0], "--model", "doesnotexist", *command[1:]], capsys)
    assert code == EXIT_USAGE
    assert err.strip().splitlines()[-1] == ("bertstudio: error: doesnotexist: no such model folder "
                                            "(expected a run's model/ folder or an export's model.onnx)")


def test_an_online_hub_id_still_goes_to_the_hub(monkeypatch) -> None:
    from bertstudio.tasks import model as M

    monkeypatch.setattr(M, "_offline", lambda: False)
    M.refuse_missing_model("some-org/some-model")  # transformers fetches it (no network in this test)
    with pytest.raises(M.ConfigError, match="no such model folder"):
        M.refuse_missing_model("some-org/some-model", hub=False)  # export-onnx reads only folders
    with pytest.raises(M.ConfigError, match="no such model folder"):
        M.refuse_missing_model("not a hub id!")


@pytest.mark.parametrize("task,data", [("pair", "sentence1,sentence2,label\na,b,entailment\n"),
                                       ("tagging", "the\tO\ncat\tB-LOC\n\n")])
def test_a_kind_mismatch_is_said_before_a_label(task, data, trained: Path, tmp_path, capsys) -> None:
    """A sentence model evaluated with --task pair said "unknown label 'entailment' (expected one of ...)",
    with --task tagging "unknown label 'O'": the file was read with the model's labels before the kinds
    were compared (--task qa said it right)."""
    path = tmp_path / ("data.csv" if task == "pair" else "data.conll")
    path.write_text(data, encoding="utf-8")
    columns = ["--columns", "text=sentence1,text_pair=sentence2,label=label"] if task == "pair" else []
    code, _, err = run(["evaluate", "--model", str(trained / "model"), "--task", task, "--eval", str(path), *columns],
                       capsys)
    assert code == EXIT_USAGE
    assert f"the model predicts 'sentence' but the data is '{task}'" in err.strip().splitlines()[-1]
