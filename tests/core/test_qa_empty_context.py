"""A QA context that tokenises to nothing (issue #11, item 10): only characters the tokenizer
drops (zero-width, control, lone combining marks). It once raised IndexError in encode.

Training labels its window "no answer here" (the [CLS] position), as any window without
the answer; evaluation refuses it with a DataError naming the question, because no model
could find its answer and the metric would count a miss silently; prediction without gold
answers "" (SQuAD's empty answer)."""

from __future__ import annotations

import pytest

from bertstudio.data.examples import from_records
from bertstudio.errors import DataError
from bertstudio.tasks import get_task

EMPTY_CONTEXTS = ["\u200b\u200b\u200b", "\x01\x02", "\u0301", "\ufeff \u200d"]
GOOD = {"id": "good", "title": "", "context": "paris is the city", "question": "where?",
        "answers": {"text": ["paris"], "answer_start": [0]}}


def _row(context: str, qid: str = "empty", answers: bool = True) -> dict:
    return {"id": qid, "title": "", "context": context, "question": "where is it?",
            "answers": {"text": [context[:1]], "answer_start": [0]} if answers else None}


@pytest.fixture(scope="module", params=["tiny", "minilm"])
def tokenizer(request, tiny, bundled_model_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny if request.param == "tiny" else str(bundled_model_dir))


@pytest.mark.parametrize("context", EMPTY_CONTEXTS)
def test_training_window_gets_no_answer(tokenizer, context: str) -> None:
    es = from_records("qa", [GOOD, _row(context)])
    enc = get_task("qa").encode(es, tokenizer, max_length=48, label2id={}, training=True)
    rows = {ex: (s, e) for ex, s, e in zip(enc["example_index"], enc["start_positions"], enc["end_positions"])}
    assert rows[1] == (0, 0)  # [CLS]: no answer in this window
    assert rows[0][0] > 0  # the good row keeps its span


@pytest.mark.parametrize("context", EMPTY_CONTEXTS)
def test_evaluation_names_the_question(tokenizer, context: str) -> None:
    es = from_records("qa", [GOOD, _row(context, qid="q-zero-width")])
    es.source = "dev.json"
    with pytest.raises(DataError) as info:
        get_task("qa").encode(es, tokenizer, max_length=48, label2id={}, training=False)
    err = info.value
    assert err.path == "dev.json" and err.where == "question 'q-zero-width' (row 2)"
    assert "no tokens" in err.problem


def test_prediction_without_gold_answers_empty(tokenizer) -> None:
    import torch

    task = get_task("qa")
    es = from_records("qa", [_row("\u200b\x01", answers=False)])
    enc = task.encode(es, tokenizer, max_length=48, label2id={}, training=False)
    acc = task.accumulator(es, enc, [])
    batch = task.collate([enc[i] for i in range(len(enc))], tokenizer.pad_token_id or 0)
    n, width = batch["input_ids"].shape
    acc.add(batch, {"start_logits": torch.randn(n, width), "end_logits": torch.randn(n, width)})
    assert acc.finish()[0]["answer"] == ""


def test_training_run_with_such_a_row_finishes_and_evaluation_reports_it(tiny, tmp_path) -> None:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    rows = [dict(GOOD, id=f"g{i}") for i in range(6)]
    train_set = from_records("qa", rows + [_row("\u200b\u200b")])
    config = TrainConfig(task="qa", model=tiny, epochs=1, batch_size=4, max_length=48, output_dir=str(tmp_path / "run"),
                         save_best=False)
    result = train(config, train_set, from_records("qa", rows[:2]))
    assert result.status == "finished", result.message
    bad_eval = from_records("qa", rows[:2] + [_row("\x01", qid="ctl")])
    result = train(TrainConfig(**{**config.to_dict(), "output_dir": str(tmp_path / "run2")}), train_set, bad_eval)
    assert result.status == "failed" and isinstance(result.error, DataError)
    assert "question 'ctl'" in result.message
