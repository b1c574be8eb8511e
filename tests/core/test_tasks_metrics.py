"""task.metrics: kind defaults, GLUE presets, skipping unlabelled rows (hand-computed values)."""

from __future__ import annotations

import pytest

from bertstudio.data.examples import from_records
from bertstudio.tasks import get_task


def test_sentence_metrics_skip_unlabelled_rows():
    ex = from_records(
        "sentence",
        [{"text": "a", "label": "pos"}, {"text": "b", "label": "neg"}, {"text": "c", "label": None}, {"text": "d", "label": "pos"}],
        labels=["neg", "pos"],
    )
    preds = [{"label": "pos"}, {"label": "pos"}, {"label": "neg"}, {"label": "neg"}]
    m = get_task("sentence").metrics(ex, preds)
    # Labelled rows: gold pos,neg,pos vs pred pos,pos,neg -> 1/3 right.
    assert m["accuracy"] == pytest.approx(1 / 3)
    # F1(neg) = 0 (no neg right); F1(pos): tp 1, fp 1, fn 1 -> 0.5; macro 0.25.
    assert m["macro_f1"] == pytest.approx(0.25)


def test_glue_task_named_in_meta_gives_its_official_metrics():
    recs = [{"text": "a", "text_pair": "b", "label": g} for g in ("1", "1", "0", "0")]
    ex = from_records("pair", recs, labels=["0", "1"], meta={"glue_task": "MRPC"})
    preds = [{"label": p} for p in ("1", "0", "1", "0")]
    m = get_task("pair").metrics(ex, preds)
    # Positive class "1": tp=1, fp=1, fn=1 -> F1 0.5; accuracy 2/4.
    assert m == {"f1": pytest.approx(0.5), "accuracy": pytest.approx(0.5)}


def test_regression_and_tagging_and_qa_metrics():
    ex = from_records("regression", [{"text": "a", "label": v} for v in (1.0, 2.0, 3.0)])
    m = get_task("regression").metrics(ex, [{"score": s} for s in (2.0, 4.0, 6.0)])
    assert m["pearson"] == pytest.approx(1.0) and m["mse"] == pytest.approx((1 + 4 + 9) / 3)

    tags = from_records("tagging", [{"tokens": ["Paris", "is", "nice"], "tags": ["B-LOC", "O", "O"]}])
    m = get_task("tagging").metrics(tags, [{"tags": ["B-LOC", "O", "B-LOC"]}])
    assert m["precision"] == pytest.approx(0.5) and m["recall"] == pytest.approx(1.0)

    qa = from_records(
        "qa",
        [
            {"id": "1", "context": "in paris", "question": "where", "answers": {"text": ["Paris"], "answer_start": [3]}},
            {"id": "2", "context": "x", "question": "y", "answers": {"text": [], "answer_start": []}},
        ],
    )
    m = get_task("qa").metrics(qa, [{"answer": "paris"}, {"answer": "x"}])
    assert m["exact_match"] == pytest.approx(0.5)
