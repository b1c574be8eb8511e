"""The Data page's "disagrees with the latest run" filter and the Results page's "errors only"
list exactly the same examples of a mixed run, for every kind (both ask the kind's Task).

The runs below are built to sit on the edges where the two filters used to differ: QA
answers equal to the gold only after SQuAD normalisation, regression errors of exactly
0.5, unlabelled rows, a no-answer question."""

from __future__ import annotations

import json

import pytest

from bertstudio.ui.data_page import FILTER_DISAGREE, DataPage
from bertstudio.ui.results_page import ResultsPage

CONTEXT = "The Denver Broncos beat the Carolina Panthers in Super Bowl 50."


def _answer(text: str | None):
    if text is None:
        return None
    return {"text": [text], "answer_start": [CONTEXT.index(text)]} if text else {"text": [], "answer_start": []}


CASES = {
    "sentence": (["neg", "pos"], [
        ({"text": "a", "label": "pos"}, {"label": "pos"}),
        ({"text": "b", "label": "pos"}, {"label": "neg"}),
        ({"text": "c", "label": None}, {"label": "neg"}),
        ({"text": "d", "label": "neg"}, {"label": "neg"}),
    ]),
    "regression": ([], [
        ({"text": "a", "text_pair": "b", "label": 3.0}, {"score": 3.5}),   # exactly half a point: wrong
        ({"text": "a", "text_pair": "c", "label": 3.0}, {"score": 3.49}),
        ({"text": "a", "text_pair": "d", "label": 1.0}, {"score": 4.0}),
        ({"text": "a", "text_pair": "e", "label": None}, {"score": 4.0}),
    ]),
    "tagging": (["O", "B-ORG", "I-ORG"], [
        ({"tokens": ["Denver", "Broncos"], "tags": ["B-ORG", "I-ORG"]}, {"tags": ["B-ORG", "I-ORG"]}),
        ({"tokens": ["Carolina", "won"], "tags": ["B-ORG", "O"]}, {"tags": ["O", "O"]}),
    ]),
    "qa": ([], [
        ({"question": "Who won?", "answers": _answer("Denver Broncos")}, {"answer": "the Denver Broncos", "start": 0}),
        ({"question": "Who lost?", "answers": _answer("Carolina Panthers")}, {"answer": "Denver Broncos", "start": 4}),
        ({"question": "Who sang?", "answers": _answer("")}, {"answer": "", "start": -1}),
        ({"question": "Who cheered?", "answers": _answer("")}, {"answer": "Carolina", "start": 28}),
        ({"question": "Which game?", "answers": None}, {"answer": "Super Bowl 50", "start": 48}),
    ]),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_disagree_filter_and_errors_only_list_the_same_rows(kind, qtbot, session_factory):
    labels, pairs = CASES[kind]
    records = []
    for i, (rec, _pred) in enumerate(pairs):
        rec = dict(rec)
        if kind == "qa":
            rec.update(id=str(i), title="", context=CONTEXT)
        records.append(rec)
    session = session_factory(kind, labels, {"dev": records})
    gold_col = session.examples("dev").gold_column
    run = session.project.runs_dir / "mixed"
    run.mkdir(parents=True)
    with open(run / "predictions.jsonl", "w", encoding="utf-8") as fh:
        for i, (rec, pred) in enumerate(pairs):
            fh.write(json.dumps({"index": i, "gold": rec[gold_col], **pred}) + "\n")
    (run / "eval_rows.json").write_text(json.dumps({"split": "dev", "rows": list(range(len(pairs)))}), encoding="utf-8")
    (run / "config.toml").write_text(f'task = "{kind}"\n', encoding="utf-8")

    data_page = DataPage(session)
    qtbot.addWidget(data_page)
    data_page.show_split("dev")
    data_page.set_filter(FILTER_DISAGREE)
    disagreeing = data_page.shown_rows()

    results = ResultsPage(session)
    qtbot.addWidget(results)
    results.show_run(run)
    results.errors_only.setChecked(True)
    proxy = results.proxy
    errors = sorted(results.model.rows[proxy.mapToSource(proxy.index(i, 0)).row()].row for i in range(proxy.rowCount()))

    assert disagreeing == errors
    assert 0 < len(errors) < len(pairs)  # the case is mixed: some right, some wrong


@pytest.mark.parametrize("change", ["rename", "swap"])
def test_a_run_made_before_a_rename_or_swap_disagrees_on_no_right_row(change, qtbot, session_factory):
    """After pos -> positive, 'Disagrees with the latest run' listed every right 'pos' row (the
    run's name beside today's); after a swap, every row. The run recorded its labels' ids."""
    import tomli_w

    from bertstudio.train.rundir import record_label_ids

    golds = ["pos", "neg", "pos", "neg", "neg"]
    session = session_factory("sentence", ["neg", "pos"], {"dev": [{"text": t, "label": g} for t, g in zip("abcde", golds)]})
    project = session.project
    run = project.runs_dir / "before"
    run.mkdir(parents=True)
    lineage = project.split_info["dev"].get("lineage")
    wrong = 4  # one row the run got wrong: the filter still finds it
    (run / "predictions.jsonl").write_text("".join(json.dumps(
        {"index": i, "split": "dev", "row": i, "lineage": lineage, "gold": g,
         "label": ({"pos": "neg", "neg": "pos"}[g] if i == wrong else g)}) + "\n" for i, g in enumerate(golds)))
    (run / "config.toml").write_text(tomli_w.dumps({"task": "sentence", "labels": ["neg", "pos"]}), encoding="utf-8")
    record_label_ids(run, project.labels, project.label_ids, project.uid)
    if change == "rename":
        project.rename_label("pos", "positive")
    else:
        project.rename_label("pos", "tmp")
        project.rename_label("neg", "pos")
        project.rename_label("tmp", "neg")

    data_page = DataPage(session)
    qtbot.addWidget(data_page)
    data_page.show_split("dev")
    data_page.set_filter(FILTER_DISAGREE)
    assert data_page.shown_rows() == [wrong]
    results = ResultsPage(session)
    qtbot.addWidget(results)
    results.show_run(run)
    results.errors_only.setChecked(True)
    proxy = results.proxy
    assert [results.model.rows[proxy.mapToSource(proxy.index(i, 0)).row()].row for i in range(proxy.rowCount())] == [wrong]
