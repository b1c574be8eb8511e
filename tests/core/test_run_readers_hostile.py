"""Damaged and hostile run files: every reader of a run folder answers with the project's error,
one line naming the file and the place, or (the pages that list and show runs) marks the run
damaged and goes on; never a bare AttributeError/RecursionError/ValueError/TypeError/IndexError.

The run folders are written by hand (no training): config.toml from a TrainConfig, history.jsonl
from real events, metrics.json and predictions.jsonl as the engine writes them.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from bertstudio.errors import BertStudioError
from bertstudio.train import rundir
from bertstudio.train.compare_runs import compare_runs, curves, read_run_record
from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Evaluated, RunFinished, RunStarted, StepLogged, event_to_dict

DEEP = "[" * 100_000 + "]" * 100_000
BIG = "9" * 5000  # past Python's 4300-digit limit for int()
GOLDS = ["pos", "neg", "pos", "neg"]


def _history() -> str:
    events = [
        RunStarted(total_steps=2, num_train_examples=8, num_eval_examples=4, epochs=1, effective_batch_size=4,
                   trainable_params=1, total_params=1, device="cpu", precision="fp32"),
        StepLogged(step=2, total_steps=2, epoch=1.0, loss=0.5, lr=1e-5, examples_per_s=10.0, eta_s=0.0),
        Evaluated(step=2, epoch=1.0, metrics={"accuracy": 0.75}),
        RunFinished(status="finished", step=2, metrics={"accuracy": 0.75}),
    ]
    return rundir.jsonl(event_to_dict(e) for e in events)


def write_run(folder: Path, **damage: str | bytes | None) -> Path:
    """A finished sentence run; ``damage`` replaces files (name with '.' as '_'; None: a folder there)."""
    folder.mkdir(parents=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(folder)).save(folder / rundir.CONFIG)
    (folder / rundir.HISTORY).write_text(_history(), encoding="utf-8")
    (folder / rundir.METRICS).write_text(json.dumps({"accuracy": 0.75}), encoding="utf-8")
    preds = [{"index": i, "gold": g, "label": "pos", "probs": {"neg": 0.4, "pos": 0.6}} for i, g in enumerate(GOLDS)]
    (folder / rundir.PREDICTIONS).write_text(rundir.jsonl(preds), encoding="utf-8")
    for key, content in damage.items():
        path = folder / key.replace("_", ".", 1) if key != "eval_rows_json" else folder / rundir.EVAL_ROWS
        path.unlink(missing_ok=True)
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return folder


def _good_pred(i: int = 0) -> str:
    return json.dumps({"index": i, "gold": GOLDS[i], "label": "pos"}) + "\n"


# (damaged file, place the message names or None, the files' new content)
STRICT_CASES = {
    "metrics_array": ("metrics.json", None, {"metrics_json": "[1, 2]"}),
    "metrics_string": ("metrics.json", None, {"metrics_json": '"x"'}),
    # a bare value at the top was a TypeError in three pages, and the Runs page then listed no run at all
    "metrics_nan": ("metrics.json", None, {"metrics_json": "NaN"}),
    "metrics_number": ("metrics.json", None, {"metrics_json": "1"}),
    "metrics_true": ("metrics.json", None, {"metrics_json": "true"}),
    "metrics_null": ("metrics.json", None, {"metrics_json": "null"}),
    "metrics_deep": ("metrics.json", None, {"metrics_json": '{"a": ' + DEEP + "}"}),
    "metrics_nested_past_limit": ("metrics.json", None, {"metrics_json": '{"a": ' + "[" * 200 + "]" * 200 + "}"}),
    "metrics_big_int": ("metrics.json", None, {"metrics_json": '{"a": ' + BIG + "}"}),
    "metrics_latin1": ("metrics.json", "line 1", {"metrics_json": b'{"acc\xe9": 1}'}),
    "metrics_cut_short": ("metrics.json", "line 1", {"metrics_json": '{"accuracy": 0.'}),
    "metrics_folder": ("metrics.json", None, {"metrics_json": None}),
    "predictions_deep": ("predictions.jsonl", "line 2", {"predictions_jsonl": _good_pred() + DEEP + "\n"}),
    "predictions_big_int": ("predictions.jsonl", "line 1", {"predictions_jsonl": '{"index": ' + BIG + "}\n"}),
    "predictions_index_text": ("predictions.jsonl", "line 1",
                               {"predictions_jsonl": '{"index": "abc", "gold": "pos", "label": "pos"}\n'}),
    "predictions_index_list": ("predictions.jsonl", "line 1",
                               {"predictions_jsonl": '{"index": [1], "gold": "pos", "label": "pos"}\n'}),
    "predictions_index_negative": ("predictions.jsonl", "line 2",
                                   {"predictions_jsonl": _good_pred() + '{"index": -1, "gold": "pos", "label": "pos"}\n'}),
    "predictions_index_bool": ("predictions.jsonl", "line 1",
                               {"predictions_jsonl": '{"index": true, "gold": "pos", "label": "pos"}\n'}),
    "predictions_line_array": ("predictions.jsonl", "line 2", {"predictions_jsonl": _good_pred() + "[1, 2]\n"}),
    "predictions_latin1": ("predictions.jsonl", "line 1", {"predictions_jsonl": b'{"gold": "caf\xe9"}\n'}),
    "predictions_folder": ("predictions.jsonl", None, {"predictions_jsonl": None}),
    "eval_rows_text_row": ("eval_rows.json", "rows[0]", {"eval_rows_json": '{"split": "dev", "rows": ["x"]}'}),
    "eval_rows_null_row": ("eval_rows.json", "rows[0]", {"eval_rows_json": '{"split": "dev", "rows": [null]}'}),
    "eval_rows_no_split": ("eval_rows.json", "split", {"eval_rows_json": '{"rows": [0, 1, 2, 3]}'}),
    "eval_rows_array": ("eval_rows.json", None, {"eval_rows_json": "[0, 1, 2, 3]"}),
    "eval_rows_deep": ("eval_rows.json", None, {"eval_rows_json": DEEP}),
    "eval_rows_index_past_rows": ("predictions.jsonl", "line 1",
                                  {"eval_rows_json": '{"split": "dev", "rows": [999]}',
                                   "predictions_jsonl": '{"index": 5, "gold": "pos", "label": "pos"}\n'}),
    "config_deep": ("config.toml", None, {"config_toml": "a = " + "[" * 100_000 + "]" * 100_000 + "\n"}),
    "config_big_int": ("config.toml", None, {"config_toml": "epochs = " + BIG + "\n"}),
    "config_task_number": ("config.toml", "task", {"config_toml": "task = 5\n"}),
    "config_binary": ("config.toml", None, {"config_toml": b"\x93\xff\x00garbage"}),
    "config_folder": ("config.toml", None, {"config_toml": None}),
}


@pytest.fixture
def good(tmp_path) -> Path:
    return write_run(tmp_path / "good")


def test_the_undamaged_runs_compare(good, tmp_path):
    """The baseline the cases damage: without the damage the comparison goes through."""
    result = compare_runs(good, write_run(tmp_path / "other"), resamples=10)
    assert len(result.rows) == 4 and result.paired_by == "position"
    assert [rundir.read_run(f).status for f in (good, tmp_path / "other")] == ["finished", "finished"]


def _one_line_naming(exc: BertStudioError, path: Path, where: str | None) -> None:
    text = str(exc)
    assert "\n" not in text
    assert exc.path == str(path), text
    assert text.startswith(str(path)), text
    if where is not None:
        assert where in (exc.where or ""), text


@pytest.mark.parametrize("case", sorted(STRICT_CASES))
def test_a_comparison_names_the_damaged_file_of_the_damaged_run(case, good, tmp_path):
    name, where, damage = STRICT_CASES[case]
    bad = write_run(tmp_path / "bad", **damage)
    for call in (lambda: read_run_record(bad), lambda: compare_runs(good, bad, resamples=10),
                 lambda: compare_runs(bad, good, resamples=10)):
        with pytest.raises(BertStudioError) as caught:
            call()
        _one_line_naming(caught.value, bad / name, where)


@pytest.mark.parametrize("case", sorted(STRICT_CASES))
def test_the_run_list_shows_a_damaged_run_and_keeps_the_others(case, tmp_path):
    name, _where, damage = STRICT_CASES[case]
    runs = [write_run(tmp_path / "runs" / "a"), write_run(tmp_path / "runs" / "b", **damage),
            write_run(tmp_path / "runs" / "c")]
    infos = [rundir.read_run(r) for r in runs]
    assert [i.name for i in infos] == ["a", "b", "c"]
    for info in (infos[0], infos[2]):
        assert info.status == "finished" and info.metrics == {"accuracy": 0.75} and info.kind == "sentence"
    if name in (rundir.CONFIG, rundir.METRICS):  # what the list reads
        assert infos[1].status == "damaged"
        assert str(runs[1] / name) in infos[1].message and "\n" not in infos[1].message
    else:  # the list does not read predictions
        assert infos[1].status == "finished"


@pytest.mark.parametrize("case", sorted(k for k in STRICT_CASES if STRICT_CASES[k][0] != rundir.CONFIG))
def test_the_results_page_reader_keeps_the_good_predictions(case, tmp_path):
    """read_predictions (Results page, label-error finder) never raises: a damaged line is left
    out, a damaged eval_rows.json is ignored (rows then are guesses, marked not exact)."""
    name, _where, damage = STRICT_CASES[case]
    saved = rundir.read_predictions(write_run(tmp_path / "bad", **damage))
    assert all(isinstance(p.index, int) and p.index >= 0 for p in saved)
    if name == rundir.METRICS:
        assert [p.gold for p in saved] == GOLDS
    elif case.startswith("eval_rows") and name == rundir.EVAL_ROWS:
        assert [p.gold for p in saved] == GOLDS and not any(p.exact for p in saved)
    elif case in ("predictions_deep", "predictions_index_negative", "predictions_line_array"):
        assert [p.gold for p in saved] == GOLDS[:1]  # the good first line
    else:
        assert len(saved) <= 1


HISTORY_CASES = {
    "deep_line": DEEP,
    "big_int": '{"kind": "started", "a": ' + BIG + "}",
    "finished_with_wrong_types": '{"kind": "finished", "status": 5, "step": 2, "metrics": [1]}',
    "step_not_a_number": '{"kind": "step", "step": "x", "total_steps": 2, "epoch": 1.0, "loss": 0.5, "lr": 0.1, '
                         '"examples_per_s": 1.0, "eta_s": 0.0}',
    "eval_metrics_array": '{"kind": "eval", "step": 2, "epoch": 1.0, "metrics": [1]}',
    "unknown_kind": '{"kind": "nonsense"}',
    "array": "[1, 2]",
    "latin1": '{"kind": "caf\udce9"}',
}


@pytest.mark.parametrize("case", sorted(HISTORY_CASES))
def test_a_damaged_history_line_is_skipped_and_the_rest_read(case, good, tmp_path):
    """The history is followed live and may end mid-line: a bad line is logged and left out
    everywhere (run list, curves, comparison), the good events still count."""
    lines = _history().split("\n")[:-1]
    text = "\n".join(lines[:2] + [HISTORY_CASES[case]] + lines[2:]) + "\n"
    bad = write_run(tmp_path / "bad", history_jsonl=text.encode("utf-8", errors="surrogateescape"))
    kinds = [e.kind for e in rundir.read_history(bad)]
    assert kinds == ["started", "step", "eval", "finished"]
    info = rundir.read_run(bad)
    assert info.status == "finished" and info.metrics == {"accuracy": 0.75}
    c = curves(read_run_record(bad))
    assert c.steps == [2] and c.eval_metrics == {"accuracy": [0.75]}
    assert len(compare_runs(good, bad, resamples=10).rows) == 4


def test_a_damaged_history_line_is_said_once_naming_its_file_and_line_once(good, tmp_path, caplog):
    """train --overwrite read the history three times and warned each time, with the file and line twice
    in each warning ("(run5/history.jsonl, line 3): run5/history.jsonl, line 3: not valid JSON")."""
    lines = _history().split("\n")[:-1]
    bad = write_run(tmp_path / "bad", history_jsonl=("\n".join(lines[:2] + ["[1, 2]"] + lines[2:]) + "\n").encode())
    with caplog.at_level("WARNING", logger=rundir.__name__):
        for _ in range(3):
            assert [e.kind for e in rundir.read_history(bad)] == ["started", "step", "eval", "finished"]
        rundir.run_finished(bad)
    said = [r.getMessage() for r in caplog.records if "history line" in r.getMessage()]
    assert said == [f"skipping a history line that is not an event: {bad / 'history.jsonl'}, line 3: not a JSON "
                    "object"], said


def test_a_history_of_only_wrong_typed_events_leaves_no_metrics_to_crash_on(tmp_path):
    """A RunFinished with metrics [1] once reached read_run's metrics.items()."""
    bad = write_run(tmp_path / "bad", history_jsonl=HISTORY_CASES["finished_with_wrong_types"] + "\n")
    (bad / rundir.METRICS).unlink()
    assert rundir.read_history(bad) == []
    assert rundir.read_run(bad).metrics == {}


def test_a_line_separator_inside_a_prediction_is_not_a_line_break(tmp_path):
    """predictions.jsonl is written with ensure_ascii=False, so U+2028 stays raw; str.splitlines
    cut the row in two, which the comparison took for damage and the Results page dropped."""
    folder = write_run(tmp_path / "run")
    preds = [{"index": i, "gold": g, "label": "pos", "text": "one\u2028two\x85three"} for i, g in enumerate(GOLDS)]
    (folder / rundir.PREDICTIONS).write_text(rundir.jsonl(preds), encoding="utf-8")
    assert [p.pred["text"] for p in rundir.read_predictions(folder)] == ["one\u2028two\x85three"] * 4
    assert len(read_run_record(folder).predictions) == 4


def test_the_comparison_reads_settings_as_a_run_does(good, tmp_path):
    """config.toml goes through TrainConfig's checks: a bad task is named as the bad setting it is,
    not reported as 'a 5 run'."""
    bad = write_run(tmp_path / "bad", config_toml="task = 5\n")
    with pytest.raises(BertStudioError) as caught:
        compare_runs(good, bad, resamples=10)
    assert caught.value.where == "task" and " 5 run" not in str(caught.value)
    assert read_run_record(good).kind == "sentence"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", [rundir.METRICS, rundir.PREDICTIONS, rundir.HISTORY, rundir.CONFIG, rundir.EVAL_ROWS])
def test_a_fifo_in_place_of_a_run_file_is_refused_not_waited_on(name, good, tmp_path):
    """Opening a FIFO without a writer blocks for ever: the readers refuse it unopened."""
    bad = write_run(tmp_path / "bad")
    (bad / name).unlink(missing_ok=True)
    os.mkfifo(bad / name)
    info = rundir.read_run(bad)
    rundir.read_predictions(bad)
    if name == rundir.HISTORY:
        assert rundir.read_history(bad) == [] and info.status == "finished"  # from metrics.json
        return
    if name in (rundir.METRICS, rundir.CONFIG):
        assert info.status == "damaged" and str(bad / name) in info.message
    with pytest.raises(BertStudioError) as caught:
        compare_runs(good, bad, resamples=10)
    assert caught.value.path == str(bad / name)


def test_events_from_history_are_checked_against_their_types():
    from bertstudio.train.events import event_from_dict

    assert event_from_dict({"kind": "finished", "status": "finished", "step": 3}).step == 3
    with pytest.raises(TypeError):
        event_from_dict({"kind": "finished", "status": "finished", "step": True})
    with pytest.raises(TypeError):
        event_from_dict({"kind": "eval", "step": 1, "epoch": 1.0, "metrics": "x"})
    # a sweep of the app's readers: a metric "high" failed the Runs page's plots (float()), and a
    # step of 10**30 ended the process inside the comparison dialog's plotting library
    with pytest.raises(TypeError):
        event_from_dict({"kind": "eval", "step": 1, "epoch": 1.0, "metrics": {"accuracy": "high"}})
    with pytest.raises(TypeError):
        event_from_dict({"kind": "eval", "step": 10**30, "epoch": 1.0, "metrics": {"accuracy": 0.5}})
    with pytest.raises(TypeError):  # np.isfinite and float() of a 400-digit loss failed in the plots (a review)
        event_from_dict({"kind": "step", "step": 1, "epoch": 0.1, "loss": 10**400, "lr": 1e-3})
    assert event_from_dict({"kind": "eval", "step": 2, "epoch": 1.0,
                            "metrics": {"accuracy": 0.5, "loss": float("nan"), "f1": None}}).step == 2


@pytest.mark.parametrize(("field", "value", "words"), [
    ("loss", "big", "loss 'big' is not a number"), ("confidence", [1], "confidence [1] is not a number"),
    ("score", "abc", "score 'abc' is not a number"), ("score", True, "score True is not a number"),
    ("split", "nosuch", "split 'nosuch' is no split of a project"), ("split", "../x", "is no split"),
    ("row", -1, "row -1 is not a row number"), ("row", "3", "is not a row number"),
    ("loss", 10**400, "is not a number"),  # a whole number float() cannot hold overflowed in the sort (a review)
])
def test_a_prediction_whose_shared_fields_do_not_fit_is_left_out_and_named(field, value, words, tmp_path):
    """A sweep of the app's readers: a loss or confidence that is no number ended the app as the
    Results table sorted by it (float() inside Qt's call), a split name no project has raised
    from the page's join. The reader every page and the comparison share leaves the line out."""
    preds = [{"index": 0, "gold": "pos", "label": "pos", "loss": 0.1}, {"index": 1, "gold": "neg", "label": "pos", field: value}]
    folder = write_run(tmp_path / "run", predictions_jsonl=rundir.jsonl(preds))
    skipped: list = []
    rows = rundir.read_predictions(folder, skipped=skipped)
    assert [p.index for p in rows] == [0] and len(skipped) == 1
    assert words in str(skipped[0]) and "line 2" in str(skipped[0]) and str(folder / rundir.PREDICTIONS) in str(skipped[0])


def test_the_recursion_limit_is_not_what_saves_us():
    """A value json decodes (well under the interpreter's limit) but deeper than any run file is
    refused before anything recurses into it (comparing two such golds would overflow the stack)."""
    depth = min(500, sys.getrecursionlimit() // 2)
    with pytest.raises(BertStudioError, match="nested more than"):
        rundir.decode_json("[" * depth + "]" * depth, path=Path("x.json"))


MISFITS = {  # kind, a good prediction of that kind, the same prediction with one field of the wrong type
    "label_a_list": ("sentence", {"gold": "pos", "label": "pos"}, {"gold": "pos", "label": ["pos"]}),
    "label_an_object": ("sentence", {"gold": "pos", "label": "pos"}, {"gold": "pos", "label": {"x": 1}}),
    "score_text": ("regression", {"gold": 1.0, "score": 1.0}, {"gold": 1.0, "score": "x"}),
    "tags_a_number": ("tagging", {"gold": ["O"], "tags": ["O"]}, {"gold": ["O"], "tags": 5}),
    "qa_gold_text": ("qa", {"gold": "x", "answer": "x"}, {"gold": "x", "answer": "x"}),
}


@pytest.mark.parametrize("case", sorted(MISFITS))
def test_a_prediction_that_does_not_fit_its_kind_is_named(case, tmp_path):
    """Fields of the wrong type reached the Task's rule or the metric (unhashable list, float('x'))."""
    kind, fine, wrong = MISFITS[case]
    runs = []
    for name, pred in (("a", fine), ("b", wrong)):
        folder = write_run(tmp_path / name, predictions_jsonl=json.dumps({"index": 0, **pred}) + "\n")
        TrainConfig(task=kind, output_dir=str(folder)).save(folder / rundir.CONFIG)
        runs.append(folder)
    bad = runs[1] if fine != wrong else runs[0]  # qa: both hold the text gold; A is read first
    with pytest.raises(BertStudioError) as caught:
        compare_runs(*runs, resamples=10)
    if case in ("score_text", "tags_a_number"):  # a field of the wrong shape is refused by the reader, naming the line
        _one_line_naming(caught.value, bad / rundir.PREDICTIONS, "line 1")
        assert {"score_text": "score 'x' is not a number", "tags_a_number": "tags 5 is not a list of tags"}[case] \
            in str(caught.value)
        return
    _one_line_naming(caught.value, bad / rundir.PREDICTIONS, None)
    assert f"does not fit a {kind} run" in str(caught.value)


def test_a_run_that_never_evaluated_still_compares_by_its_curves_and_settings(good, tmp_path):
    """A cancelled run (no predictions) against a finished one: the comparison stopped with
    "the run has no predictions", and the Runs page showed empty curves beside it."""
    cancelled = write_run(tmp_path / "cancelled")
    (cancelled / rundir.PREDICTIONS).unlink()  # cancelled before its first evaluation: no scores either
    (cancelled / rundir.METRICS).unlink()
    # and its history as such a run writes it: no evaluation, a cancelled end (it read "finished, evaluated")
    (cancelled / rundir.HISTORY).write_text(rundir.jsonl(
        event_to_dict(e) for e in rundir.read_history(cancelled)
        if not isinstance(e, Evaluated) and not isinstance(e, RunFinished)) + rundir.jsonl(
        [event_to_dict(RunFinished(status="cancelled", step=2))]), encoding="utf-8")
    for a, b in ((good, cancelled), (cancelled, good)):
        result = compare_runs(a, b, resamples=10)
        assert result.rows == [] and result.change is None and "cancelled never evaluated" in result.note
        assert len(result.curves_a.loss) and len(result.curves_b.loss)  # both runs' loss curves are there


def test_an_older_runs_eval_rows_name_a_split_of_a_project(tmp_path):
    """The Results page joined eval_rows.json's split "nosuch" to the project and raised (a review:
    the prediction lines' own split was checked, this older path not)."""
    folder = write_run(tmp_path / "old", eval_rows_json=json.dumps({"split": "nosuch", "rows": [0]}))
    with pytest.raises(BertStudioError, match="is not a split name"):
        rundir.read_eval_rows(folder)
    skipped: list = []
    assert all(p.split != "nosuch" for p in rundir.read_predictions(folder, skipped=skipped)) and skipped


KIND_FIELD_CASES = {
    "tags of numbers": ('{"index": 0, "gold": ["O"], "tags": [1]}', "not a list of tags"),
    "tags nested": ('{"index": 0, "gold": ["O"], "tags": [["O"]]}', "not a list of tags"),
    "entities garbage": ('{"index": 0, "gold": ["O"], "tags": ["O"], "entities": [[1e308, "x", null]]}',
                         "not entity spans"),
    "answer a list": ('{"index": 0, "gold": {"text": ["Paris"], "answer_start": [0]}, "answer": ["Paris"]}',
                      "is not a text"),
    "gold answers with a text offset": ('{"index": 0, "gold": {"text": ["Paris"], "answer_start": ["x"]}, "answer": "P"}',
                                        "not a set of answers"),
    "gold tags of dicts": ('{"index": 0, "gold": [{"a": 1}], "tags": ["O"]}', "not a list of tags"),
}


@pytest.mark.parametrize("case", sorted(KIND_FIELD_CASES))
def test_a_tagging_or_qa_prediction_of_the_wrong_shape_is_left_out_and_said(case, tmp_path):
    """Tampered "tags": [1, 2], "answer": ["Paris"]... reached the Results page's table model,
    example view and sort, and raised out of its slots (the page left half-built, no message)."""
    line, words = KIND_FIELD_CASES[case]
    folder = tmp_path / "run"
    folder.mkdir()
    good = '{"index": 1, "gold": ["O"], "tags": ["O"], "entities": [["PER", 0, 1]]}' if "tag" in case or "entities" in \
        case else '{"index": 1, "gold": {"text": ["Paris"], "answer_start": [3]}, "answer": "Paris", "start": 3}'
    (folder / rundir.PREDICTIONS).write_text(line + "\n" + good + "\n", encoding="utf-8")
    skipped: list = []
    saved = rundir.read_predictions(folder, skipped=skipped)
    assert [p.index for p in saved] == [1]
    assert len(skipped) == 1 and words in str(skipped[0]) and "line 1" in str(skipped[0])


def test_a_runs_status_is_read_without_parsing_its_step_lines(tmp_path, monkeypatch):
    """Runs, Results, Playground and Scoreboard read every run's status on the GUI thread, and
    read_run parsed every line: 300,000 step lines held Open project 93 s. Only lines naming a
    start or an end are parsed now, whatever the writer's spacing."""
    from bertstudio.train.events import RunFinished, RunStarted, StepLogged, event_to_dict

    folder = tmp_path / "run"
    folder.mkdir()
    lines = [json.dumps(event_to_dict(RunStarted(500, 64, 16, 2, 32, 100, 1000, "cpu", "fp32")))]
    lines += [json.dumps(event_to_dict(StepLogged(step=i, total_steps=500, epoch=i / 100, loss=0.5, lr=2e-5,
                                                  examples_per_s=100.0, eta_s=1.0))) for i in range(1, 501)]
    lines.append(json.dumps(event_to_dict(RunFinished("finished", 500, {"accuracy": 0.9})), separators=(",", ":")))
    (folder / rundir.HISTORY).write_text("\n".join(lines) + "\n", encoding="utf-8")
    parsed: list = []
    real = rundir.event_from_dict
    monkeypatch.setattr(rundir, "event_from_dict", lambda data: parsed.append(data) or real(data))
    info = rundir.read_run(folder)
    assert (info.status, info.steps, info.eval_examples) == ("finished", 500, 16)
    assert [d["kind"] for d in parsed] == ["started", "finished"]
    assert len(rundir.read_history(folder)) == 502  # the curves still get every event


def _numbers_read(folder: Path) -> list[dict[str, float]]:
    """The metrics each number-only reader takes from ``folder``: the run list's, Compare's, the model card's."""
    from bertstudio.train.hub import _run_files

    return [rundir.read_run(folder).metrics, read_run_record(folder).metrics, _run_files(folder)[1]]


HUGE = "9" * 400  # within int()'s digit limit, past float's range


@pytest.mark.parametrize("metrics", ['{"accuracy": 0.5, "f1": ' + HUGE + "}",
                                     '{"accuracy": 0.5, "f1": -' + HUGE + "}"], ids=["positive", "negative"])
def test_a_whole_number_past_floats_range_is_left_out_by_every_reader(metrics, tmp_path):
    """float() of it raised OverflowError out of all three readers (the app crashed when Runs was
    clicked, ``glue --resume`` said "internal error"); it is left out, as the card leaves NaN out."""
    run = write_run(tmp_path / "run", metrics_json=metrics)
    assert _numbers_read(run) == [{"accuracy": 0.5}] * 3
    assert rundir.read_run(run).status == "finished"


def test_a_huge_number_in_the_last_evaluation_is_left_out(tmp_path):
    run = write_run(tmp_path / "run", metrics_json='{"accuracy": 0.5, "last_evaluation": {"accuracy": ' + HUGE
                    + ', "f1": 0.25}}')
    info = rundir.read_run(run)
    assert (info.status, info.metrics, info.last_metrics) == ("finished", {"accuracy": 0.5}, {"f1": 0.25})


@pytest.mark.parametrize("key", [rundir.ONE_ANSWER, rundir.LAST_EVALUATION])
def test_a_number_under_a_reserved_key_is_no_metric(key, tmp_path):
    """``one_answer`` and ``last_evaluation`` hold objects beside the metrics; a number put there
    by hand was shown as a metric named so (a row "one_answer 97.0" in Results, Compare, the card)."""
    run = write_run(tmp_path / "run", metrics_json=json.dumps({"accuracy": 0.5, key: 0.97}))
    assert _numbers_read(run) == [{"accuracy": 0.5}] * 3


def test_a_reader_that_fails_marks_its_run_damaged_in_the_lists(good, monkeypatch):
    """What the pages list through (RunInfoCache): an exception out of read_run, a bug whatever the
    folder holds, makes that run damaged, with one line saying why, instead of taking the page down."""
    def broken(folder):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(rundir, "read_run", broken)
    info = rundir.RunInfoCache().read(good)
    assert info.status == "damaged" and "OverflowError: int too large" in info.message and "\n" not in info.message
