"""Every file of a run is read one way (issue #11 item 2, issue #12 "loading is one pipeline").

The run's preset and label mapping are resolved once, from the config or the training
file, and the evaluation file is read with them; a label the training data does not have
is one error naming both files. Every preset bertstudio can load also trains and scores
end to end through the CLI (ChnSentiCorp, AFQMC and SNLI once failed at the first
evaluation: the metrics kept their own task table).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from helpers import PRESET_SAMPLES

from bertstudio.cli import main
from bertstudio.data.glue import PRESETS, load_glue, save_glue
from bertstudio.presets import PRESET_INFO


def _snli_rows(shared_data: Path, start: int, n: int) -> str:
    """Rows of the real SNLI validation file (standard CSV quoting, tab-separated), with its header."""
    text = (shared_data / "snli" / "validation.tsv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t"))
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(rows[0])
    writer.writerows(rows[1 + start:1 + start + n])
    return out.getvalue()


def _train(tiny: str, out: Path, *args: str) -> int:
    return main(["--quiet", "train", *args, "--model", tiny, "--epochs", "1", "--batch-size", "8", "--max-length", "48",
                 "--out", str(out)])


def test_snli_eval_file_outside_its_folder_is_read_with_the_training_files_mapping(shared_data, tiny, tmp_path, capsys):
    (tmp_path / "snli").mkdir()
    (tmp_path / "other").mkdir()
    train = tmp_path / "snli" / "validation.tsv"
    train.write_text(_snli_rows(shared_data, 0, 24), encoding="utf-8")
    evaluation = tmp_path / "other" / "other_name_snli_test.tsv"
    evaluation.write_text(_snli_rows(shared_data, 24, 16), encoding="utf-8")
    assert _train(tiny, tmp_path / "run", "--task", "pair", "--train", str(train), "--eval", str(evaluation)) == 0, \
        capsys.readouterr().err
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert set(metrics) >= {"accuracy"}
    golds = [json.loads(ln)["gold"] for ln in (tmp_path / "run" / "predictions.jsonl").read_text().splitlines()]
    assert len(golds) == 16 and set(golds) <= {"entailment", "neutral", "contradiction"}


def test_sets_of_a_run_share_the_training_files_preset(shared_data, tmp_path):
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.sources import load_sets

    (tmp_path / "snli").mkdir()
    train = tmp_path / "snli" / "validation.tsv"
    train.write_text(_snli_rows(shared_data, 0, 10), encoding="utf-8")
    evaluation = tmp_path / "snli_copy.tsv"
    evaluation.write_text(_snli_rows(shared_data, 10, 10), encoding="utf-8")
    train_set, eval_set = load_sets(TrainConfig(task="pair", train_file=str(train), eval_file=str(evaluation)))
    assert train_set.labels == eval_set.labels == ["entailment", "neutral", "contradiction"]
    assert eval_set.meta["glue_task"] == "SNLI"
    expected = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    raw = list(csv.reader(io.StringIO(evaluation.read_text(encoding="utf-8"), newline=""), delimiter="\t"))[1:]
    assert eval_set.dataset["label"] == [expected[r[2]] for r in raw]


def test_eval_label_the_training_data_lacks_is_one_error_naming_both_files(tiny, tmp_path, capsys):
    train = tmp_path / "train.csv"
    train.write_text("text,label\ngood film,pos\nbad film,neg\n" * 4, encoding="utf-8")
    evaluation = tmp_path / "eval.csv"
    evaluation.write_text("text,label\nfine film,pos\nso so,neutral\n", encoding="utf-8")
    assert _train(tiny, tmp_path / "run", "--task", "sentence", "--train", str(train), "--eval", str(evaluation)) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert str(evaluation) in err and str(train) in err and "line 3" in err and "'neutral'" in err, err


def test_eval_file_of_another_preset_is_refused_naming_both(shared_data, tiny, tmp_path, capsys):
    (tmp_path / "snli").mkdir()
    train = tmp_path / "snli" / "validation.tsv"
    train.write_text(_snli_rows(shared_data, 0, 10), encoding="utf-8")
    rte = tmp_path / "RTE"
    rte.mkdir()
    save_glue(load_glue("RTE", shared_data / "glue" / "RTE", "dev").head(8), rte / "dev.tsv")
    assert _train(tiny, tmp_path / "run", "--task", "pair", "--train", str(train), "--eval", str(rte / "dev.tsv")) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert str(rte / "dev.tsv") in err and str(train) in err and "RTE" in err and "SNLI" in err, err


def test_every_preset_has_its_row_in_the_shared_table():
    assert set(PRESETS) == set(PRESET_INFO)
    for name, task in PRESETS.items():
        assert task.kind == PRESET_INFO[name].kind and task.main_metric == PRESET_INFO[name].metrics[0]


@pytest.mark.parametrize(("name", "folder", "train_split", "eval_split"), PRESET_SAMPLES, ids=[t[0] for t in PRESET_SAMPLES])
def test_every_preset_trains_and_reports_its_main_metric(shared_data, tiny, tmp_path, capsys, name, folder, train_split,
                                                         eval_split):
    task = PRESETS[name]
    source = load_glue(task, shared_data / folder, train_split)
    train = source.head(16)
    held = (load_glue(task, shared_data / folder, eval_split) if eval_split != train_split else source).select(
        range(16, 32) if eval_split == train_split else range(16))
    data = tmp_path / (task.folder or task.name)  # where the release keeps it: the folder names the preset
    data.mkdir()
    save_glue(train, data / task.files["train"], name)
    save_glue(held, data / task.files["dev"], name)
    # No --task, no --glue-task: the file's place says the preset, the preset says the rest.
    code = _train(tiny, tmp_path / "run", "--train", str(data / task.files["train"]), "--eval", str(data / task.files["dev"]))
    assert code == 0, capsys.readouterr().err
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert set(task.metrics) <= set(metrics), metrics
    if name == "ChnSentiCorp":  # and named explicitly, with its data folder
        assert _train(tiny, tmp_path / "run2", "--glue-task", name, "--data-dir", str(data)) == 0, capsys.readouterr().err
        assert "accuracy" in json.loads((tmp_path / "run2" / "metrics.json").read_text())
