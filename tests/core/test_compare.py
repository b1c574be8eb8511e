"""Run comparison: counts, McNemar's exact p and the paired bootstrap on hand-made run folders."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest

from bertstudio.errors import DataError
from bertstudio.metrics import classification_metrics, regression_metrics, squad_metrics, tagging_metrics
from bertstudio.metrics import compare as C
from bertstudio.train.compare_runs import compare_runs, curves, read_run_record, settings_diff


def write_run(folder: Path, *, kind: str = "sentence", preds: list[dict], config: dict | None = None,
              eval_rows: tuple[str, list[int]] | None = None, history: list[dict] | None = None,
              metrics: dict | None = None) -> Path:
    import tomli_w

    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(tomli_w.dumps({"task": kind, **(config or {})}), encoding="utf-8")
    (folder / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds), encoding="utf-8")
    (folder / "history.jsonl").write_text("".join(json.dumps(e) + "\n" for e in history or []), encoding="utf-8")
    (folder / "metrics.json").write_text(json.dumps(metrics or {}), encoding="utf-8")
    if eval_rows is not None:
        (folder / "eval_rows.json").write_text(json.dumps({"split": eval_rows[0], "rows": eval_rows[1]}), encoding="utf-8")
    return folder


def label_pred(index: int, gold: str, label: str) -> dict:
    probs = {"neg": 0.8 if label == "neg" else 0.2, "pos": 0.8 if label == "pos" else 0.2}
    return {"index": index, "gold": gold, "label": label, "probs": probs, "confidence": 0.8}


# A: right on rows 0-1 (broken by B) and 9-16 (both right); B fixes 2-8; both wrong on 17-19.
PATTERN = ["broken"] * 2 + ["fixed"] * 7 + ["both_right"] * 8 + ["both_wrong"] * 3


def pattern_runs(tmp_path: Path) -> tuple[Path, Path]:
    golds = ["pos" if i % 2 else "neg" for i in range(len(PATTERN))]
    flip = {"pos": "neg", "neg": "pos"}
    right_a = {"broken": True, "fixed": False, "both_right": True, "both_wrong": False}
    right_b = {"broken": False, "fixed": True, "both_right": True, "both_wrong": False}
    a = [label_pred(i, g, g if right_a[k] else flip[g]) for i, (g, k) in enumerate(zip(golds, PATTERN))]
    b = [label_pred(i, g, g if right_b[k] else flip[g]) for i, (g, k) in enumerate(zip(golds, PATTERN))]
    return write_run(tmp_path / "a", preds=a), write_run(tmp_path / "b", preds=b)


def test_mcnemar_exact_matches_hand_value_and_binomtest():
    # 1 broken, 6 fixed: p = 2 * (C(7,0) + C(7,1)) / 2**7 = 16 / 128
    assert C.mcnemar_exact(6, 1) == pytest.approx(0.125)
    assert C.mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert C.mcnemar_exact(13, 4) == pytest.approx(binomtest(4, 17, 0.5).pvalue)
    assert C.mcnemar_exact(0, 0) == 1.0


def test_hand_made_runs_give_known_counts_and_p(tmp_path):
    a, b = pattern_runs(tmp_path)
    result = compare_runs(a, b)
    assert len(result.outcomes.fixed) == 7
    assert len(result.outcomes.broken) == 2
    assert len(result.outcomes.both_wrong) == 3
    assert result.outcomes.both_right == 8
    # 2 of 9 discordant rows: p = 2 * (1 + 9 + 36) / 512
    assert result.outcomes.p_value == pytest.approx(92 / 512)
    assert result.outcomes.p_value == pytest.approx(binomtest(2, 9, 0.5).pvalue)
    assert [result.rows[i].key for i in result.outcomes.broken] == [("#", 0), ("#", 1)]
    assert result.paired_by == "position"
    # accuracy 10/20 -> 15/20 on the shared rows, interval around +0.25
    assert result.change is not None and result.change.metric == "accuracy"
    assert (result.change.a, result.change.b) == (pytest.approx(0.5), pytest.approx(0.75))
    assert result.change.low < 0.25 < result.change.high
    assert result.change.low < 0.0  # 7 fixed against 2 broken is no clear gain (p = 0.18): 0 is inside


def test_project_rows_pair_across_different_held_out_sets(tmp_path):
    # A evaluated project rows 10..14, B rows 12..16: rows 12, 13, 14 are shared; row 13 was relabelled.
    a = [label_pred(i, g, "pos") for i, g in enumerate(["pos", "pos", "pos", "neg", "neg"])]
    b = [label_pred(i, g, "neg") for i, g in enumerate(["pos", "pos", "neg", "neg", "neg"])]
    ra = write_run(tmp_path / "a", preds=a, eval_rows=("train", [10, 11, 12, 13, 14]))
    rb = write_run(tmp_path / "b", preds=b, eval_rows=("train", [12, 13, 14, 15, 16]))
    result = compare_runs(ra, rb)
    assert result.paired_by == "project row"
    assert [r.key for r in result.rows] == [("train", 12), ("train", 14)]
    assert result.relabelled == 1  # row 13: "neg" for A, "pos" for B
    # row 12: gold pos, A pos (right), B neg (wrong) -> broken; row 14: gold neg, A wrong, B right -> fixed
    assert [result.rows[i].key for i in result.outcomes.broken] == [("train", 12)]
    assert [result.rows[i].key for i in result.outcomes.fixed] == [("train", 14)]


def test_runs_of_different_kinds_are_refused_and_a_run_without_predictions_compares_no_rows(tmp_path):
    a = write_run(tmp_path / "a", preds=[label_pred(0, "pos", "pos")])
    b = write_run(tmp_path / "b", kind="regression", preds=[{"index": 0, "gold": 1.0, "score": 1.0}])
    with pytest.raises(DataError, match="regression"):
        compare_runs(a, b)
    c = write_run(tmp_path / "c", preds=[])
    result = compare_runs(a, c)  # a run that never evaluated: curves and settings only, never a made-up count
    assert result.rows == [] and result.change is None and "never evaluated" in result.note
    (tmp_path / "a" / "predictions.jsonl").write_text("{not json\n", encoding="utf-8")
    with pytest.raises(DataError, match="line 1"):
        read_run_record(a)


def test_runs_on_rows_replaced_between_them_are_not_paired_by_row_number(tmp_path):
    """Row 3 of dev after an import replaced dev is another example: pairing it with row 3 of
    an earlier run counted made-up fixes and breaks. An append keeps the lineage and pairs."""
    def preds(lineage: str) -> list[dict]:
        return [{**label_pred(i, "pos", "pos"), "split": "dev", "row": i, "lineage": lineage} for i in range(4)]

    a = write_run(tmp_path / "a", preds=preds("first"))
    b = write_run(tmp_path / "b", preds=preds("second"))
    result = compare_runs(a, b)
    assert result.rows == [] and result.change is None and "dev rows were replaced" in result.note
    c = write_run(tmp_path / "c", preds=preds("first") + [{**label_pred(4, "neg", "neg"), "split": "dev", "row": 4,
                                                             "lineage": "first"}])
    assert len(compare_runs(a, c).rows) == 4
    assert result.note.kind == "replaced" and result.note.facts == {"splits": ["dev"]}  # for the app's words


def test_a_run_of_another_project_is_said_so_not_replaced_rows(tmp_path):
    """Compare of a run from another project (its label ids name that project) said "the dev rows
    were replaced between the two runs", which is untrue: its rows are another project's."""
    from bertstudio.train.rundir import record_label_ids

    def preds(lineage: str) -> list[dict]:
        return [{**label_pred(i, "pos", "pos"), "split": "dev", "row": i, "lineage": lineage} for i in range(4)]

    a = write_run(tmp_path / "a", preds=preds("first"))
    b = write_run(tmp_path / "b", preds=preds("second"))
    record_label_ids(a, ["neg", "pos"], [0, 1], "project-1")
    record_label_ids(b, ["neg", "pos"], [0, 1], "project-2")
    result = compare_runs(a, b)
    assert result.rows == [] and "another project" in result.note and "replaced" not in result.note
    assert result.note.kind == "other_project"
    record_label_ids(b, ["neg", "pos"], [0, 1], "project-1")  # one project: its dev rows were replaced
    assert "dev rows were replaced" in compare_runs(a, b).note


# --- the metric forms reproduce bertstudio.metrics ---------------------------------------------


@pytest.mark.parametrize("key", ["accuracy", "f1", "macro_f1", "mcc"])
def test_confusion_metrics_equal_classification_metrics(key):
    rng = np.random.default_rng(1)
    k = 2 if key == "f1" else 3
    gold, pred = rng.integers(0, k, 200), rng.integers(0, k, 200)
    pred[:80] = gold[:80]
    expected = classification_metrics(gold.tolist(), pred.tolist(), names=(key,), labels=list(range(k)))[key]
    assert C.value(C.confusion_metric(key, gold, pred, k)) == pytest.approx(expected)


def test_macro_f1_resamples_leave_out_classes_with_no_row():
    """The comparison's macro_f1 is the run's: a class with no gold and no predicted row (here
    classes 3-19 of a 20-class set) is not scored, in the value and in every resample."""
    gold = np.array([0, 1, 2, 0, 1, 2])
    metric = C.confusion_metric("macro_f1", gold, gold, 20)
    assert C.value(metric) == pytest.approx(1.0)
    pred = gold.copy()
    pred[0] = 7  # class 0: F1 2/3; class 7: predicted, no gold, F1 0
    expected = classification_metrics(gold.tolist(), pred.tolist(), names=("macro_f1",), labels=list(range(20)))
    assert C.value(C.confusion_metric("macro_f1", gold, pred, 20)) == pytest.approx(expected["macro_f1"])
    assert expected["macro_f1"] == pytest.approx((2 / 3 + 1 + 1 + 0) / 4)


@pytest.mark.parametrize("key", ["pearson", "spearman", "mse"])
def test_regression_forms_equal_regression_metrics(key):
    rng = np.random.default_rng(2)
    gold = rng.uniform(0, 5, 150).round(1)
    pred = gold + rng.normal(0, 1, 150)
    assert C.value(C.regression_metric(key, gold, pred)) == pytest.approx(regression_metrics(gold, pred)[key])


@pytest.mark.parametrize("key", ["f1", "precision", "recall", "accuracy"])
def test_tagging_forms_equal_seqeval(key):
    rnd = random.Random(3)
    tags = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    gold = [[rnd.choice(tags) for _ in range(rnd.randint(1, 9))] for _ in range(120)]
    pred = [[t if rnd.random() < 0.7 else rnd.choice(tags) for t in s] for s in gold]
    assert C.value(C.tagging_metric(key, gold, pred)) == pytest.approx(tagging_metrics(gold, pred)[key])


@pytest.mark.parametrize("key", ["exact_match", "f1"])
def test_squad_forms_equal_squad_metrics(key):
    golds = [["the Eiffel Tower"], ["Paris", "paris france"], [], ["1889"], ["a river"]]
    preds = ["Eiffel Tower", "France", "", "in 1889", "the river Seine"]
    assert C.value(C.squad_metric(key, preds, golds)) == pytest.approx(squad_metrics(preds, golds)[key])


def test_bootstrap_deltas_are_the_metric_on_each_resample():
    """The weighted form must give, per resample, what scikit-learn gives on that resample's rows."""
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 2, 60)
    pred_a = np.where(rng.random(60) < 0.7, gold, 1 - gold)
    pred_b = np.where(rng.random(60) < 0.8, gold, 1 - gold)
    change = C.paired_bootstrap("mcc", C.confusion_metric("mcc", gold, pred_a, 2), C.confusion_metric("mcc", gold, pred_b, 2),
                                resamples=50, seed=7)
    weights = C.bootstrap_weights(60, 50, np.random.default_rng(7))
    for w, delta in zip(weights, change.deltas):
        idx = np.repeat(np.arange(60), w.astype(int))
        mcc = [classification_metrics(gold[idx].tolist(), p[idx].tolist(), names=("mcc",), labels=[0, 1])["mcc"]
               for p in (pred_a, pred_b)]
        assert delta == pytest.approx(mcc[1] - mcc[0])
    assert len(change.deltas) == 50 and change.low <= change.delta <= change.high


def test_identical_runs_have_a_zero_interval():
    correct = C.mean_metric(np.array([1, 0, 1, 1, 0, 1], dtype=float))
    change = C.paired_bootstrap("accuracy", correct, correct)
    assert (change.low, change.high, change.delta) == (0.0, 0.0, 0.0)
    assert change.resamples == 1000 and len(change.deltas) == 1000


def test_settings_diff_and_curves(tmp_path):
    from bertstudio.train.events import Evaluated, RunStarted, StepLogged, event_to_dict

    # history.jsonl as a run writes it: one event per line
    started = RunStarted(total_steps=20, num_train_examples=100, num_eval_examples=10, epochs=3, effective_batch_size=16,
                         trainable_params=1, total_params=1, device="cpu", precision="fp32")
    history = [event_to_dict(e) for e in (
        started, StepLogged(step=10, total_steps=20, epoch=1.5, loss=0.9, lr=5e-5, examples_per_s=1.0, eta_s=1.0),
        StepLogged(step=20, total_steps=20, epoch=3.0, loss=0.5, lr=0.0, examples_per_s=1.0, eta_s=0.0),
        Evaluated(step=20, epoch=3.0, metrics={"accuracy": 0.7}))]
    a = write_run(tmp_path / "a", preds=[label_pred(0, "pos", "pos")], config={"lr": 5e-5, "output_dir": "/x/a"},
                  history=history)
    b = write_run(tmp_path / "b", preds=[label_pred(0, "pos", "pos")], config={"lr": 1e-4, "epochs": 3, "output_dir": "/x/b"},
                  history=history[:1])
    diff = settings_diff(read_run_record(a), read_run_record(b))
    # epochs 3 is the default, output_dir always differs: only the learning rate is a difference
    assert diff == [("lr", 5e-5, 1e-4)]
    c = curves(read_run_record(a))
    assert c.steps == [10, 20] and c.examples == [160, 320] and c.loss == [0.9, 0.5]
    assert c.eval_steps == [20] and c.eval_metrics == {"accuracy": [0.7]}


def test_settings_a_run_does_not_read_are_no_difference(tmp_path):
    """Two full fine-tunes, one given --lora-rank 1000: Compare listed lora_rank 1000 vs 8 for runs
    that trained no adapter. A setting one of the two runs reads is still a difference; so are QA's
    windows between QA runs, and not between sentence runs (one recorded before doc_stride had no default)."""
    full = write_run(tmp_path / "a", preds=[label_pred(0, "pos", "pos")], config={"mode": "full", "lora_rank": 1000,
                                                                                 "doc_stride": 128})
    other = write_run(tmp_path / "b", preds=[label_pred(0, "pos", "pos")], config={"mode": "full", "lora_alpha": 4})
    lora = write_run(tmp_path / "c", preds=[label_pred(0, "pos", "pos")], config={"mode": "lora", "lora_rank": 4})
    assert settings_diff(read_run_record(full), read_run_record(other)) == []
    assert settings_diff(read_run_record(full), read_run_record(lora)) == [("lora_rank", 1000, 4), ("mode", "full", "lora")]
    qa = {"task": "qa", "mode": "full"}
    a = write_run(tmp_path / "d", preds=[], config={**qa, "doc_stride": 31})
    b = write_run(tmp_path / "e", preds=[], config={**qa, "doc_stride": 15, "lora_rank": 2})
    assert settings_diff(read_run_record(a), read_run_record(b)) == [("doc_stride", 31, 15)]
    # a QA run recorded before runs recorded the overlap used: 128 asked, 31 used at max length 128
    older = write_run(tmp_path / "f", preds=[], config={**qa, "doc_stride": 128, "max_length": 128})
    assert settings_diff(read_run_record(older), read_run_record(a)) == []
    assert settings_diff(read_run_record(older), read_run_record(b)) == [("doc_stride", 31, 15)]


# --- a damaged predictions file ----------------------------------------------------------------


@pytest.mark.parametrize("second, message", [
    ({"index": 0}, "line 2: index 0 repeats line 1"),
    ({"index": 1, "split": "dev", "row": 7}, "line 2: dev row 7 repeats line 1"),
])
def test_a_repeated_prediction_is_refused(tmp_path, second, message):
    first = {**label_pred(0, "pos", "pos"), "split": "dev", "row": 7}
    a = write_run(tmp_path / "a", preds=[first, {**label_pred(1, "neg", "neg"), **second}, label_pred(2, "neg", "neg")])
    b = write_run(tmp_path / "b", preds=[label_pred(i, "neg", "neg") for i in range(3)])
    with pytest.raises(DataError, match=message) as caught:
        compare_runs(a, b)
    assert "predictions.jsonl" in str(caught.value)


def test_a_repeated_row_in_eval_rows_is_refused(tmp_path):
    a = write_run(tmp_path / "a", preds=[label_pred(i, "pos", "pos") for i in range(3)], eval_rows=("dev", [4, 9, 4]))
    with pytest.raises(DataError, match=r"rows\[2\]: row 4 repeats rows\[0\]"):
        read_run_record(a)


# --- which rows are the same example -------------------------------------------------------------


def written_run(folder: Path, texts: list[str], golds: list[str], labels: list[str],
                config: dict | None = None) -> Path:
    """A run folder whose predictions.jsonl is written as a run writes it (rundir.prediction_rows)."""
    from bertstudio.data.examples import from_records
    from bertstudio.train.rundir import jsonl, prediction_rows

    examples = from_records("sentence", [{"text": t, "label": g} for t, g in zip(texts, golds)], labels=["neg", "pos"])
    preds = [{k: v for k, v in label_pred(0, g, label).items() if k not in ("index", "gold")}
             for g, label in zip(golds, labels)]
    write_run(folder, preds=[], config=config)
    (folder / "predictions.jsonl").write_text(jsonl(prediction_rows(examples, preds)), encoding="utf-8")
    return folder


def dev(tmp_path: Path, name: str = "dev.tsv") -> str:
    return str(tmp_path / name)  # a run saves its data paths absolute


def test_a_reordered_eval_file_pairs_each_example_with_itself(tmp_path):
    texts = [f"sentence number {i}" for i in range(20)]
    golds = ["pos" if i % 3 else "neg" for i in range(20)]
    flip = {"pos": "neg", "neg": "pos"}
    right_a = [i < 12 for i in range(20)]  # A right on 0-11
    right_b = [i >= 4 for i in range(20)]  # B right on 4-19: broke 0-3, fixed 12-19
    a = written_run(tmp_path / "a", texts, golds, [g if r else flip[g] for g, r in zip(golds, right_a)],
                    config={"eval_file": dev(tmp_path)})
    order = list(reversed(range(20)))  # B read the same examples in another order (a shuffled dev file)
    b = written_run(tmp_path / "b", [texts[i] for i in order], [golds[i] for i in order],
                    [golds[i] if right_b[i] else flip[golds[i]] for i in order],
                    config={"eval_file": dev(tmp_path, "shuffled.tsv")})
    result = compare_runs(a, b)
    assert result.paired_by == "inputs" and len(result.rows) == 20 and result.relabelled == 0
    assert len(result.outcomes.broken) == 4 and len(result.outcomes.fixed) == 8
    assert result.outcomes.both_right == 8 and result.outcomes.both_wrong == []
    for r in result.rows:  # each pair is one sentence: A's row i, B's row 19 - i
        assert r.pred_a["fingerprint"] == r.pred_b["fingerprint"] and order[r.key[1]] == int(r.pred_a["index"])


def test_a_filtered_eval_file_pairs_the_rows_it_kept(tmp_path):
    texts = [f"sentence number {i}" for i in range(10)]
    golds = ["pos" if i % 2 else "neg" for i in range(10)]
    a = written_run(tmp_path / "a", texts, golds, golds)
    kept = [1, 4, 5, 8]  # B's file dropped the other rows
    b = written_run(tmp_path / "b", [texts[i] for i in kept], [golds[i] for i in kept], ["pos"] * 4)
    result = compare_runs(a, b)
    assert [int(r.pred_a["index"]) for r in result.rows] == kept
    assert sorted(result.rows[i].pred_a["index"] for i in result.outcomes.broken) == [4, 8]  # gold neg, B said pos


def test_runs_on_different_eval_files_share_no_rows(tmp_path):
    """SST-2 dev rows 1-100 against rows 101-200: paired by position they were "43 shared rows,
    57 relabelled", with a McNemar p over unrelated sentences."""
    golds = ["pos" if i % 2 else "neg" for i in range(20)]
    a = written_run(tmp_path / "a", [f"first file {i}" for i in range(20)], golds, golds,
                    config={"eval_file": dev(tmp_path)})
    b = written_run(tmp_path / "b", [f"second file {i}" for i in range(20)], golds, golds[::-1],
                    config={"eval_file": dev(tmp_path, "dev2.tsv")})
    result = compare_runs(a, b)
    assert result.rows == [] and result.relabelled == 0 and result.change is None
    assert "share no evaluated rows" in result.note


def test_a_relabelled_example_is_known_by_its_inputs(tmp_path):
    texts = [f"sentence number {i}" for i in range(6)]
    golds = ["pos", "neg", "pos", "neg", "pos", "neg"]
    a = written_run(tmp_path / "a", texts, golds, golds)
    relabelled = ["neg"] + golds[1:]  # row 0 relabelled in the file B evaluated on
    b = written_run(tmp_path / "b", list(reversed(texts)), list(reversed(relabelled)), list(reversed(relabelled)))
    result = compare_runs(a, b)
    assert result.relabelled == 1 and len(result.rows) == 5


def test_a_project_row_edited_between_the_runs_is_left_out(tmp_path):
    """Dev row 2 of the project had its text edited: one row number, another example."""
    def project_run(folder: Path, texts: list[str]) -> Path:
        written_run(folder, texts, ["pos"] * 4, ["pos"] * 4)
        rows = [{**json.loads(line), "split": "dev", "row": i}
                for i, line in enumerate((folder / "predictions.jsonl").read_text().splitlines())]
        (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return folder

    texts = [f"sentence number {i}" for i in range(4)]
    a = project_run(tmp_path / "a", texts)
    b = project_run(tmp_path / "b", texts[:2] + ["an edited sentence"] + texts[3:])
    result = compare_runs(a, b)
    assert result.paired_by == "project row" and [r.key for r in result.rows] == [("dev", 0), ("dev", 1), ("dev", 3)]
    assert result.edited == 1 and result.relabelled == 0


def old_run(folder: Path, golds: list[str], eval_file: str) -> Path:
    """A run folder from before predictions carried their example's fingerprint."""
    return write_run(folder, preds=[label_pred(i, g, g) for i, g in enumerate(golds)], config={"eval_file": eval_file})


def test_old_files_on_different_eval_settings_are_not_paired_by_position(tmp_path):
    """Position is all such files have, and position means nothing across two evaluation files."""
    golds = ["pos" if i % 2 else "neg" for i in range(20)]
    result = compare_runs(old_run(tmp_path / "a", golds, dev(tmp_path)),
                          old_run(tmp_path / "b", golds, dev(tmp_path, "dev2.tsv")))
    assert result.rows == [] and result.relabelled == 0 and result.change is None
    assert "eval_file" in result.note and "dev2.tsv" in result.note
    # said as data too, for the app's language (it showed this English inside the Chinese window)
    assert result.note.kind == "different_data" and any("dev2.tsv" in s for s in result.note.facts["settings"])


def test_old_files_whose_golds_disagree_by_position_are_not_paired(tmp_path):
    """The same settings, but the file changed under them (its first row deleted): about half the
    golds agree by position, what unrelated rows give, not what the same rows give (all)."""
    golds = ["pos" if c == "P" else "neg" for c in "PNNPPNPNNNPPNPPPNNPNP"]
    golds_a, golds_b = golds[:20], golds[1:]
    same = sum(x == y for x, y in zip(golds_a, golds_b))
    assert 8 <= same <= 12
    result = compare_runs(old_run(tmp_path / "a", golds_a, dev(tmp_path)),
                          old_run(tmp_path / "b", golds_b, dev(tmp_path)))
    assert result.rows == [] and result.relabelled == 0
    assert f"{same} of 20" in result.note
    assert result.note.kind == "position_mismatch" and result.note.facts == {"agree": same, "pairs": 20}


def test_old_files_with_one_gold_changed_still_pair_by_position(tmp_path):
    golds = ["pos" if i % 2 else "neg" for i in range(20)]
    changed = ["pos"] + golds[1:]
    result = compare_runs(old_run(tmp_path / "a", golds, dev(tmp_path)),
                          old_run(tmp_path / "b", changed, dev(tmp_path)))
    assert result.paired_by == "position" and len(result.rows) == 19
    assert result.relabelled == 0 and result.gold_differs == 1  # not known to be the same example: not "relabelled"


def test_a_run_with_scores_but_no_predictions_file_is_not_said_to_have_never_evaluated(tmp_path):
    a = write_run(tmp_path / "a", preds=[label_pred(0, "pos", "pos")])
    b = write_run(tmp_path / "b", preds=[label_pred(0, "pos", "pos")], metrics={"accuracy": 0.48})
    (b / "predictions.jsonl").unlink()
    result = compare_runs(a, b)
    assert result.rows == [] and "b has no predictions.jsonl" in result.note and "never evaluated" not in result.note
    c = write_run(tmp_path / "c", preds=[])  # cancelled before its first evaluation: no scores either
    assert "c never evaluated" in compare_runs(a, c).note
    with pytest.raises(DataError, match="no run folder"):
        compare_runs(a, tmp_path / "nosuch")


def test_pairing_a_run_without_predictions_pairs_nothing(tmp_path):
    """pair_rows is public: a run with no prediction rows (cancelled before evaluating) pairs
    nothing instead of raising IndexError on its first key."""
    from bertstudio.train.compare_runs import pair_rows

    a = read_run_record(write_run(tmp_path / "a", preds=[]))
    b = read_run_record(write_run(tmp_path / "b", preds=[label_pred(0, "pos", "pos")]))
    for x, y in ((a, b), (b, a), (a, a)):
        assert pair_rows(x, y).rows == []


def test_score_runs_count_fixed_and_broken_within_a_tenth_of_the_scale(tmp_path):
    # gold on 0-1: A is 0.3 off everywhere (wrong), B 0.02 off (right); a fixed ±0.5 called both right
    golds = [0.1 * i for i in range(10)]
    a = [{"index": i, "gold": g, "score": g + 0.3, "loss": 0.09} for i, g in enumerate(golds)]
    b = [{"index": i, "gold": g, "score": g + 0.02, "loss": 0.0004} for i, g in enumerate(golds)]
    result = compare_runs(write_run(tmp_path / "a", kind="regression", preds=a),
                          write_run(tmp_path / "b", kind="regression", preds=b))
    assert result.tolerance == pytest.approx(0.1)
    assert len(result.outcomes.fixed) == 10 and not result.outcomes.broken and not result.outcomes.both_wrong
    # on 0-100 the same two runs are both right (0.3 is well within ±10): nothing fixed
    a100 = [dict(p, gold=p["gold"] * 100, score=p["gold"] * 100 + 0.3) for p in a]
    b100 = [dict(p, gold=p["gold"] * 100, score=p["gold"] * 100 + 0.02) for p in b]
    result = compare_runs(write_run(tmp_path / "a100", kind="regression", preds=a100),
                          write_run(tmp_path / "b100", kind="regression", preds=b100))
    assert result.tolerance == 10.0 and result.outcomes.both_right == 10 and not result.outcomes.fixed


def resumed_history():
    """A run of 12 steps (evaluated every 4) killed at step 6 and resumed from its step-4 checkpoint,
    then cancelled at step 8 with its evaluation pending, and resumed again (that evaluation first):
    the steps 5 and 6 are logged twice, with other losses the second time (a GPU run's would differ)."""
    from bertstudio.train.events import Evaluated, RunFinished, RunStarted, StepLogged

    def start():
        return RunStarted(total_steps=12, num_train_examples=48, num_eval_examples=8, epochs=3, effective_batch_size=4,
                          trainable_params=1, total_params=1, device="cpu", precision="fp32")

    def step(i, loss):
        return StepLogged(step=i, total_steps=12, epoch=i / 4, loss=loss, lr=1e-3, examples_per_s=1.0, eta_s=1.0)

    return [start(), *(step(i, 1.0 + i) for i in range(1, 7)), Evaluated(4, 1.0, {"accuracy": 0.5}),
            start(), *(step(i, 2.0 + i) for i in range(5, 9)), RunFinished("cancelled", 8),
            start(), Evaluated(8, 2.0, {"accuracy": 0.75}), *(step(i, 3.0 + i) for i in range(9, 13)),
            Evaluated(12, 3.0, {"accuracy": 0.875}), RunFinished("finished", 12, {"accuracy": 0.875})]


RESUMED_LOSSES = [2.0, 3.0, 4.0, 5.0, 7.0, 8.0, 9.0, 10.0, 12.0, 13.0, 14.0, 15.0]  # steps 1-12, each once


def test_a_resumed_runs_curves_join_at_its_checkpoint_each_step_once(tmp_path):
    """A SIGKILLed run logs the steps after its checkpoint again when resumed: Compare drew them twice
    (the x values went back from 60 to 49). A later start cuts the earlier points at and after its
    first step; an evaluation the stop left pending, scored first, keeps the step it scores."""
    from bertstudio.train.events import event_to_dict

    run = write_run(tmp_path / "r", preds=[label_pred(0, "pos", "pos")],
                    history=[event_to_dict(e) for e in resumed_history()])
    c = curves(read_run_record(run))
    assert c.steps == list(range(1, 13)) and c.loss == RESUMED_LOSSES and c.examples == [4 * i for i in range(1, 13)]
    assert c.eval_steps == [4, 8, 12] and c.eval_metrics == {"accuracy": [0.5, 0.75, 0.875]}


def test_a_run_still_training_or_interrupted_is_not_said_to_have_never_evaluated(tmp_path, monkeypatch):
    """Compare said "never evaluated" for a run still training and one interrupted, beside its own plot
    of their 12 and 4 evaluations: each says it has no predictions yet, and why (its status)."""
    import socket

    from bertstudio.train import rundir
    from bertstudio.train.events import RunFinished, event_to_dict

    a = write_run(tmp_path / "a", preds=[label_pred(0, "pos", "pos")])
    history = [event_to_dict(e) for e in resumed_history()[:8]]  # started, 6 steps, an evaluation at 4: no end
    history[0]["host"] = socket.gethostname()  # trained on this machine: its lock says whether it lives
    live = write_run(tmp_path / "live", preds=[], history=history)
    (live / "predictions.jsonl").unlink()
    killed = write_run(tmp_path / "killed", preds=[], history=history)
    (killed / "predictions.jsonl").unlink()
    failed = write_run(tmp_path / "failed", preds=[], history=[*history, event_to_dict(RunFinished("failed", 6))])
    (failed / "predictions.jsonl").unlink()
    early = write_run(tmp_path / "early", preds=[], history=history[:3])  # training, no evaluation yet
    (early / "predictions.jsonl").unlink()
    # the lock is held for the runs training now
    monkeypatch.setattr(rundir, "writer_active", lambda folder: Path(folder).name in ("live", "early"))
    assert "live has no predictions yet (still training)" in compare_runs(a, live).note
    note = compare_runs(killed, a).note
    assert "killed has no predictions yet (interrupted before it saved them)" in note and "never" not in note
    assert "failed has no predictions yet (failed before it saved them)" in compare_runs(a, failed).note
    assert "early has not evaluated yet (still training)" in compare_runs(a, early).note


def _project_run(folder: Path, labels: list[str], ids: list[int], golds: list[str], project: str = "p1") -> Path:
    """A project run that recorded its labels' ids (as the app does), right on every row."""
    from bertstudio.train.rundir import record_label_ids

    preds = [{"index": i, "split": "dev", "row": i, "gold": g, "label": g,
              "probs": {n: 0.9 if n == g else 0.1 for n in labels}} for i, g in enumerate(golds)]
    write_run(folder, preds=preds, config={"labels": labels})
    record_label_ids(folder, labels, ids, project)
    return folder


def test_runs_before_and_after_a_rename_pair_every_row(tmp_path):
    """pos renamed positive between the runs: its rows were left out as 'relabelled' (4 of 8)."""
    golds = ["neg", "pos"] * 4
    a = _project_run(tmp_path / "runs" / "a", ["neg", "pos"], [0, 1], golds)
    b = _project_run(tmp_path / "runs" / "b", ["neg", "positive"], [0, 1],
                     [{"pos": "positive"}.get(g, g) for g in golds])
    result = compare_runs(a, b)
    assert (len(result.rows), result.relabelled) == (8, 0)
    assert result.outcomes.both_right == 8


def test_runs_before_and_after_a_swap_pair_every_row_as_right(tmp_path):
    """neg and pos swapped names between the runs (class 0 is 'pos' for B): each row's gold reads
    as the other name, so every row was left out as relabelled."""
    golds = ["neg", "neg", "pos", "neg", "pos", "pos"]
    a = _project_run(tmp_path / "runs" / "a", ["neg", "pos"], [0, 1], golds)
    b = _project_run(tmp_path / "runs" / "b", ["neg", "pos"], [1, 0], [{"neg": "pos", "pos": "neg"}[g] for g in golds])
    result = compare_runs(a, b)
    assert (len(result.rows), result.relabelled) == (6, 0)
    assert result.outcomes.both_right == 6
    assert not result.outcomes.fixed and not result.outcomes.broken


def test_runs_of_two_projects_compare_their_names_as_they_are(tmp_path):
    """Ids are one project's: runs in two projects' runs/ folders are not read through them."""
    golds = ["neg", "pos"] * 3
    a = _project_run(tmp_path / "p1" / "runs" / "a", ["neg", "pos"], [0, 1], golds)
    b = _project_run(tmp_path / "p2" / "runs" / "b", ["neg", "pos"], [1, 0], golds, project="p2")
    result = compare_runs(a, b)
    assert (len(result.rows), result.relabelled, result.outcomes.both_right) == (6, 0, 6)
    # a run folder copied from the other project into this one's runs/: its ids are that project's
    c = _project_run(tmp_path / "p1" / "runs" / "c", ["neg", "pos"], [1, 0], golds, project="p2")
    result = compare_runs(a, c)
    assert (len(result.rows), result.relabelled, result.outcomes.both_right) == (6, 0, 6)


def test_a_run_from_before_lineages_is_not_paired_with_rows_imported_after_it(tmp_path):
    """A run from 12-02 recorded no lineage with its predictions; after dev was replaced by other
    rows, Results showed its predictions beside the new texts and Compare paired them with a new
    run's ("12 shared evaluation rows"). Such a run evaluated the split's rows of today only when
    they were imported before it started (config.toml's mtime here: no RunStarted)."""
    import os
    from datetime import datetime, timedelta

    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.data.project_meta import write_meta
    from bertstudio.train.rundir import read_predictions
    from helpers import make_project, sentiment_records

    make_project(tmp_path / "p", "sentence", ["pos", "neg"], {"dev": sentiment_records(4)}).close()
    meta = json.loads((tmp_path / "p" / "project.json").read_text(encoding="utf-8"))
    meta.pop("checksum")
    imported = datetime.fromisoformat(meta["splits"]["dev"]["imported"])
    meta["splits"]["dev"]["imported"] = (imported - timedelta(hours=2)).isoformat()  # imported long ago
    write_meta(tmp_path / "p", meta, None)
    project = Project.open(tmp_path / "p")
    golds = [project.gold("dev", i) for i in range(4)]

    def run(name: str, lineage: str | None = None) -> Path:
        at = {"lineage": lineage} if lineage else {}
        return write_run(project.runs_dir / name, preds=[{**label_pred(i, g, g), "split": "dev", "row": i, **at}
                                                         for i, g in enumerate(golds)])

    old_a, old_b = run("old-a"), run("old-b")
    hour_ago = os.stat(old_a / "config.toml").st_mtime - 3600
    for folder in (old_a, old_b):
        os.utime(folder / "config.toml", (hour_ago, hour_ago))
    assert all(p.split == "dev" for p in read_predictions(old_a, splits=project.split_info))
    # rows appended since are no other rows under the old numbers: the old runs still read theirs
    project.import_examples(from_records("sentence", [{"text": "one more", "label": "pos"}], labels=["pos", "neg"]), "dev")
    assert all(p.split == "dev" for p in read_predictions(old_a, splits=project.split_info))
    assert len(compare_runs(old_a, old_b).rows) == 4
    project.import_examples(from_records("sentence", [{"text": f"completely different {i}", "label": "pos"}
                                                      for i in range(4)], labels=["pos", "neg"]), "dev", replace=True)
    lineage = project.split_info["dev"]["lineage"]
    new = run("new", lineage)
    assert [p.split for p in read_predictions(old_a, splits=project.split_info)] == [None] * 4
    for a, b in ((old_a, new), (new, old_a)):
        result = compare_runs(a, b)
        assert result.rows == [] and "dev rows were replaced" in result.note
    assert len(compare_runs(old_a, old_b).rows) == 4  # both evaluated the rows from before the import
    after = run("old-after")  # from before lineages too, but started after the import: today's rows
    assert all(p.split == "dev" for p in read_predictions(after, splits=project.split_info))
    assert len(compare_runs(after, new).rows) == 4
    project.close()
