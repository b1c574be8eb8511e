"""The hold-out split (train/sources.hold_out) keeps every class trainable: stratified per
label, a class of one row stays in training, each class of two or more is evaluated where the
held-out count allows, the same rows for the same seed; a run started before the split was
stratified resumes with the rows it began with (TrainConfig.hold_out_split)."""

from __future__ import annotations

import json
import logging
from collections import Counter

import numpy as np
import pytest

from bertstudio.data.examples import from_records
from bertstudio.train.config import TrainConfig
from bertstudio.train.sources import held_out_count, hold_out, load_sets


def _rows(counts: dict[str, int]) -> list[dict]:
    return [{"text": f"{label} text {i}", "label": label} for label, n in counts.items() for i in range(n)]


def _labels(examples) -> Counter:
    return Counter(examples.dataset["label"])


@pytest.mark.parametrize("counts", [{"sci": 16, "sports": 16, "world": 16, "business": 1},
                                    {"sci": 16, "sports": 16, "world": 16, "business": 2}])
def test_every_class_keeps_a_training_row_and_classes_of_two_are_evaluated(counts) -> None:
    """ag_one / ag_two of the small-data sweep: 11 of 100 seeds dropped the only Business row from
    training, and 79 of 100 evaluated no Business row of two."""
    examples = from_records("sentence", _rows(counts))
    for seed in range(100):
        train, held = hold_out(examples, 0.1, seed)
        assert len(held) == held_out_count(len(examples), 0.1)
        trained, evaluated = _labels(train), _labels(held)
        assert set(trained) == set(counts), (seed, trained)  # no class left without a training row
        assert {c for c, n in counts.items() if n >= 2} == set(evaluated), (seed, evaluated)
        assert trained + evaluated == Counter(counts)


def test_the_split_is_the_same_for_a_seed_and_keeps_each_part_in_order() -> None:
    examples = from_records("sentence", _rows({"a": 30, "b": 20, "c": 10}))
    first, again = hold_out(examples, 0.2, 3), hold_out(examples, 0.2, 3)
    assert first[1].dataset["text"] == again[1].dataset["text"]
    assert first[1].dataset["text"] != hold_out(examples, 0.2, 4)[1].dataset["text"]
    order = {t: i for i, t in enumerate(examples.dataset["text"])}
    for part in first:
        positions = [order[t] for t in part.dataset["text"]]
        assert positions == sorted(positions)
    assert _labels(first[1]) == Counter({"a": 6, "b": 4, "c": 2})  # in proportion


def test_a_set_of_single_rows_has_nothing_to_hold_out() -> None:
    from bertstudio.errors import ConfigError

    examples = from_records("sentence", _rows({f"c{i}": 1 for i in range(12)}))
    with pytest.raises(ConfigError, match="one labelled row"):
        hold_out(examples, 0.1, 0)


def test_scores_are_held_out_at_random() -> None:
    examples = from_records("regression", [{"text": f"t{i}", "text_pair": f"u{i}", "label": i / 10} for i in range(20)])
    train, held = hold_out(examples, 0.25, 1)
    assert len(held) == 5 and len(train) == 15


def test_a_new_run_records_the_stratified_split_and_an_older_run_reads_back_with_its_own(tmp_path) -> None:
    """A run folder's config.toml from before the split was stratified names none: read back (to
    resume it, to compare it, to export its rows) it says the draw that run made, "shuffled"; it
    said "stratified" wherever the run was not resumed, so Compare showed no split difference and
    export-run wrote as dev rows that run had trained on."""
    from bertstudio.train.rundir import saved_config

    config = TrainConfig(task="sentence", train_file="t.tsv", hold_out=0.1)
    assert config.hold_out_split == "stratified" and 'hold_out_split = "stratified"' in config.to_toml()
    assert TrainConfig(task="sentence", train_file="t.tsv").hold_out_split is None  # no hold-out: nothing recorded
    run = tmp_path / "run"
    run.mkdir()
    written = TrainConfig(task="sentence", train_file="t.tsv", hold_out=0.1, seed=4).to_toml()
    (run / "config.toml").write_text(written.replace('hold_out_split = "stratified"\n', ""), encoding="utf-8")
    older = saved_config(run)
    assert older.hold_out_split == "shuffled" and TrainConfig.load(run / "config.toml").hold_out_split == "shuffled"
    examples = from_records("sentence", _rows({"sci": 16, "sports": 16, "world": 16, "business": 1}))
    permuted = np.random.default_rng(4).permutation(len(examples))  # the draw those runs made
    _train, held = hold_out(examples, 0.1, 4, older.hold_out_split)
    assert held.dataset["text"] == [examples.dataset["text"][i] for i in sorted(permuted[:5])]
    (run / "config.toml").write_text(written, encoding="utf-8")
    assert saved_config(run).hold_out_split == "stratified"  # a newer run's own record


def test_export_run_of_an_older_runs_config_writes_the_rows_it_evaluated(tmp_path) -> None:
    from bertstudio.cli import main

    rows = _rows({"sci": 16, "sports": 16, "world": 16, "business": 1})
    data = tmp_path / "train.tsv"
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    written = TrainConfig(task="sentence", train_file="train.tsv", hold_out=0.1, seed=4).to_toml()
    (tmp_path / "config.toml").write_text(written.replace('hold_out_split = "stratified"\n', ""), encoding="utf-8")
    assert main(["export-run", "--config", str(tmp_path / "config.toml"), "--out", str(tmp_path / "export")]) == 0
    dev = (tmp_path / "export" / "data" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    permuted = np.random.default_rng(4).permutation(len(rows))
    assert sorted(json.loads(line)["text"] for line in dev) == sorted(rows[i]["text"] for i in permuted[:5])


def test_a_class_with_no_training_row_is_named(tmp_path, caplog) -> None:
    path = tmp_path / "train.tsv"
    rows = _rows({"a": 10, "b": 10, "c": 1})
    path.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        load_sets(TrainConfig(task="sentence", train_file=str(path), labels=["a", "b", "c", "d"], hold_out=0.1))
    said = caplog.text
    assert "'d'" in said and "no training row" in said  # a listed class the data never shows
    assert "'c'" in said and "not evaluated" in said  # one row: trained on, never scored


def test_a_class_with_no_training_row_is_named_once(tmp_path, tiny, capsys) -> None:
    """``bertstudio train`` read the sets (load_sets) and its engine took them again (load_sets with
    both sets given): "no training row of class 'd'" was said twice, and once more per seed."""
    from bertstudio.cli import main

    path = tmp_path / "train.tsv"
    rows = _rows({"a": 10, "b": 10, "c": 1})
    path.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    rc = main(["train", "--task", "sentence", "--train", str(path), "--labels", "a,b,c,d", "--hold-out", "0.1",
               "--model", tiny, "--out", str(tmp_path / "run"), "--epochs", "1", "--device", "cpu", "--seeds", "2"])
    assert rc == 0
    said = capsys.readouterr().err
    assert said.count("no training row of class 'd'") == 1


def test_bertstudio_train_resume_reads_an_older_runs_config_with_its_own_split(tmp_path) -> None:
    """``bertstudio train --resume RUN/checkpoints/last`` reads the run's own config.toml: one written
    before the split was stratified names none, and the resumed run must evaluate the rows it
    began with (a new split would train on rows it had evaluated)."""
    from bertstudio.cli import build_parser, config_from_args

    rows = _rows({"sci": 16, "sports": 16, "world": 16, "business": 1})
    data = tmp_path / "train.tsv"
    data.write_text("text\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    run = tmp_path / "run"
    (run / "checkpoints" / "last").mkdir(parents=True)
    (run / "checkpoints" / "last" / "state.json").write_text("{}", encoding="utf-8")  # a checkpoint to the eye
    written = TrainConfig(task="sentence", train_file=str(data), hold_out=0.1, seed=4, output_dir=".").to_toml()
    (run / "config.toml").write_text(written.replace('hold_out_split = "stratified"\n', ""), encoding="utf-8")
    config = config_from_args(build_parser().parse_args(["train", "--resume", str(run / "checkpoints" / "last")]))
    assert config.hold_out_split == "shuffled"
    _train, held = load_sets(config)
    permuted = np.random.default_rng(4).permutation(len(rows))
    assert held.dataset["text"] == [rows[i]["text"] for i in sorted(permuted[:5])]
    fresh = config_from_args(build_parser().parse_args(["train", "--config", str(run / "config.toml"),
                                                        "--out", str(tmp_path / "again")]))
    assert fresh.hold_out_split == "stratified"  # a new run from that config: the stratified split


def test_a_long_tail_of_small_classes_is_allotted_in_bulk(monkeypatch) -> None:
    """One class of 100,000 rows beside 2,000 classes of 5: their first rows left less room than
    the big class's share, and every other row was handed out one at a time, each with a sort of
    every class (300,000 + 5,000 x 5 took 15 s in this step alone). The same cut from each share,
    in bulk, and a sort per round of what is left."""
    from bertstudio.train import sources

    sorts = []
    real = np.lexsort
    monkeypatch.setattr(sources.np, "lexsort", lambda keys: sorts.append(1) or real(keys))
    sizes = np.asarray([100_000] + [5] * 2_000)
    taken = sources._per_class(sizes, 11_000, np.random.default_rng(0))
    assert len(sorts) <= 3
    assert taken.sum() == 11_000 and (taken[1:] == 1).all() and taken[0] == 11_000 - 2_000


def test_a_single_listed_label_is_refused_before_the_model_loads(tmp_path) -> None:
    """The app lists its project's labels (config.labels) for every run, and check_enough_labels
    returned at once when labels were listed: a project of one label trained a one-class
    "classifier" to 100% accuracy; ``--labels pos`` did the same in the CLI."""
    from bertstudio.errors import BertStudioError

    path = tmp_path / "one.tsv"
    path.write_text("text\tlabel\n" + "".join(f"text {i}\tpos\n" for i in range(10)), encoding="utf-8")
    with pytest.raises(BertStudioError, match=r"1 label listed \('pos'\).*at least 2 labels"):
        load_sets(TrainConfig(task="sentence", train_file=str(path), labels=["pos"]))
    examples = from_records("sentence", _rows({"pos": 10}), labels=["pos"])
    with pytest.raises(BertStudioError, match=r"1 label listed \('pos'\)"):
        load_sets(TrainConfig(task="sentence", labels=["pos"]), examples)
    # two listed labels with rows of one: trained, and the missing class is named (warn_untrained_classes)
    train, _ = load_sets(TrainConfig(task="sentence", labels=["pos", "neg"]), examples)
    assert len(train) == 10
