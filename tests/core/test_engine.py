"""The training loop end to end on a tiny random BERT and a few dozen hand-made rows."""

from __future__ import annotations

import io
import json
import logging
import threading

import pytest
import torch

from bertstudio.data.examples import from_records
from bertstudio.tasks.model import count_parameters, load_model
from bertstudio.train.config import TrainConfig
from bertstudio.train.hardware import resolve
from bertstudio.train.engine import evaluate, train
from bertstudio.train.events import event_from_dict
from bertstudio.train.predict import Predictor

from helpers import sentiment, sentiment_records

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py



def config(tiny: str, **kw) -> TrainConfig:
    # fp32: these tests compare numbers exactly; "auto" would pick bf16 on a CPU with AMX.
    base = dict(model=tiny, epochs=10, batch_size=8, lr=3e-3, logging_steps=2, seed=1, max_length=32, device="cpu", precision="fp32")
    base.update(kw)
    return TrainConfig(**base)


def collect():
    """The events a run records (history.jsonl); PhaseChanged says only what is under way."""
    events = []
    return events, (lambda e, c: None if e.kind == "phase" else events.append(e))


def test_train_learns_and_writes_the_run_folder(tiny, tmp_path):
    events, cb = collect()
    out = tmp_path / "run"
    result = train(config(tiny, output_dir=str(out)), sentiment(48), sentiment(16, seed=9), callbacks=[cb])
    assert result.status == "finished", result.message
    assert result.metrics["accuracy"] == 1.0  # separable by single words; majority class is 0.5
    losses = [e.loss for e in events if e.kind == "step"]
    assert losses[-1] < 0.5 * losses[0]

    assert {p.name for p in out.iterdir()} >= {"config.toml", "history.jsonl", "metrics.json", "predictions.jsonl", "model", "checkpoints"}
    assert TrainConfig.load(out / "config.toml").lr == 3e-3
    history = [event_from_dict(json.loads(line)) for line in (out / "history.jsonl").read_text().splitlines()]
    assert [e.kind for e in history] == [e.kind for e in events]
    assert history[0].kind == "started" and history[-1].kind == "finished" and history[-1].status == "finished"
    assert json.loads((out / "metrics.json").read_text()) == result.metrics
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    gold = sentiment(16, seed=9).dataset["label"]
    assert [r["index"] for r in rows] == list(range(16))
    assert [r["gold"] for r in rows] == gold
    assert [r["label"] for r in rows] == gold  # accuracy 1.0
    assert (out / "checkpoints" / "best" / "weights.pt").is_file()
    # a finished run cannot be resumed: no optimizer state is written for it (nor kept from an epoch before)
    assert not (out / "checkpoints" / "last").exists()

    # model/ reloads with plain transformers and agrees with the run's predictions
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    hf = AutoModelForSequenceClassification.from_pretrained(out / "model").eval()
    tok = AutoTokenizer.from_pretrained(out / "model")
    with torch.inference_mode():
        probs = torch.softmax(hf(**tok("the movie was great and fun", return_tensors="pt")).logits, -1)[0]
    assert hf.config.id2label[int(probs.argmax())] == "pos"
    pred = Predictor.load(out / "model", device="cpu").predict(text="the movie was great and fun")
    assert pred["label"] == "pos" and pred["probs"]["pos"] == pytest.approx(float(probs[1]), abs=1e-5)


def test_run_started_reports_the_setup(tiny):
    events, cb = collect()
    result = train(config(tiny, epochs=1, batch_size=4, grad_accum=3, precision="auto"), sentiment(24), callbacks=[cb])
    started = events[0]
    assert started.kind == "started"
    trainable, total = count_parameters(result.model)
    assert (started.trainable_params, started.total_params) == (trainable, total)
    assert started.effective_batch_size == 12
    assert started.total_steps == 2  # 24 rows / 4 = 6 batches, 3 per step
    # "auto" precision: bf16 where this CPU runs it natively (AMX / avx512_bf16), else fp32.
    assert (started.device, started.precision) == resolve("cpu", "auto")
    assert started.num_train_examples == 24 and started.num_eval_examples == 0
    assert events[-1].kind == "finished" and events[-1].step == 2


def test_same_seed_repeats_exactly(tiny):
    def losses(seed):
        events, cb = collect()
        train(config(tiny, epochs=2, seed=seed, logging_steps=1), sentiment(32), callbacks=[cb])
        return [e.loss for e in events if e.kind == "step"]

    first = losses(1)
    assert first == losses(1)  # bit-identical on CPU
    assert first != losses(2)


def test_lr_follows_warmup_then_linear_decay(tiny):
    from transformers import get_linear_schedule_with_warmup

    events, cb = collect()
    train(config(tiny, epochs=2, logging_steps=1, warmup_ratio=0.25, lr=1e-3), sentiment(32), callbacks=[cb])
    logged = [e.lr for e in events if e.kind == "step"]
    assert len(logged) == 8
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1e-3)
    sched = get_linear_schedule_with_warmup(opt, num_warmup_steps=2, num_training_steps=8)
    expected = []
    for _ in range(8):
        expected.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    assert logged == pytest.approx(expected, rel=1e-12)


def test_a_one_step_run_learns_at_its_rate(tiny):
    """Warm-up starts at rate 0: a run of one optimizer step, warmed up over it, trained at rate 0
    (exit 0, nothing learned). Its one step now runs at the peak rate and moves the weights."""
    events, cb = collect()
    result = train(config(tiny, epochs=1, batch_size=8, logging_steps=1, warmup_ratio=0.1, lr=1e-3), sentiment(8),
                   callbacks=[cb])
    assert [e.lr for e in events if e.kind == "step"] == [pytest.approx(1e-3)]
    assert result.status == "finished"


def test_evaluation_every_n_steps_and_early_stopping(tiny):
    events, cb = collect()
    # lr so small the weights barely move: accuracy never improves after the first evaluation
    result = train(config(tiny, lr=1e-9, eval_steps=2, early_stopping_patience=2), sentiment(32), sentiment(8), callbacks=[cb])
    evals = [e for e in events if e.kind == "eval"]
    assert [e.step for e in evals] == [2, 4, 6]
    assert result.status == "finished" and "early stopping" in result.message
    assert result.step == 6 < events[0].total_steps


def test_control_asks_for_an_evaluation_and_a_stop(tiny):
    events = []

    def cb(event, control):
        events.append(event)
        if event.kind == "step" and event.step == 1:
            control.should_evaluate = True
        if event.kind == "step" and event.step == 3:
            control.should_stop = True

    result = train(config(tiny, logging_steps=1), sentiment(32), sentiment(8), callbacks=[cb])
    assert [e.step for e in events if e.kind == "eval"][:1] == [1]
    assert result.status == "finished" and result.step == 3 and "callback" in result.message


def test_a_failing_callback_is_logged_and_the_run_goes_on(tiny, caplog):
    def broken(event, control):
        raise RuntimeError("display went away")

    events, cb = collect()
    with caplog.at_level(logging.ERROR):
        result = train(config(tiny, epochs=1), sentiment(16), callbacks=[broken, cb])
    assert result.status == "finished"
    assert events[-1].kind == "finished"  # later callbacks still hear everything
    logged = [r for r in caplog.records if "callback" in r.getMessage()]
    assert len(logged) == 1 and "display went away" in logged[0].exc_text  # once, with its traceback


def test_cancel_saves_a_usable_model(tiny, tmp_path):
    cancel = threading.Event()
    events = []

    def cb(event, control):
        events.append(event)
        if event.kind == "step" and event.step == 5:
            cancel.set()  # as the GUI thread would

    out = tmp_path / "run"
    result = train(config(tiny, logging_steps=1, output_dir=str(out)), sentiment(32), sentiment(8), callbacks=[cb], cancel=cancel)
    assert result.status == "cancelled" and result.step == 5
    assert events[-1].kind == "finished" and events[-1].status == "cancelled"
    # the model and metrics handed over are step 4's, and the command line says so (a helper read a
    # final "f1": 0.769 under "eval at step 150: f1 75.41" with nothing to explain it)
    assert events[-1].best_step == 4
    from bertstudio.cli import ProgressPrinter

    said = io.StringIO()
    ProgressPrinter(said)(events[-1], None)
    assert said.getvalue().splitlines()[-1].startswith("kept the best evaluation's weights, from step 4")
    from bertstudio.train.rundir import read_run

    kept = read_run(out)  # and the Results page reads it from the run folder
    assert (kept.status, kept.best_step, kept.steps) == ("cancelled", 4, 5)
    assert max(e.step for e in events if e.kind == "step") == 5
    # best so far (evaluated at step 4 = end of epoch 1) is what model/ holds
    best = torch.load(out / "checkpoints" / "best" / "weights.pt", weights_only=True)
    model, _, kind, labels = load_model(out / "model")
    assert kind == "sentence" and labels == ["neg", "pos"]
    assert torch.equal(model.state_dict()["classifier.weight"], best["classifier.weight"])
    assert json.loads((out / "checkpoints" / "last" / "state.json").read_text())["step"] == 5


def test_more_accumulation_than_an_epochs_batches_is_refused(tiny, tmp_path):
    """grad_accum 1000 on 3 batches: each step learnt from 3/1000 of a step's loss, silently."""
    from bertstudio.errors import ConfigError

    result = train(config(tiny, epochs=1, batch_size=4, grad_accum=1000, output_dir=str(tmp_path / "run")), sentiment(12))
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert result.error.where == "grad_accum" and "more than the 3 batches of an epoch" in result.message
    assert not (tmp_path / "run" / "config.toml").exists()


def test_gradient_accumulation_matches_a_bigger_batch(tiny):
    # Without dropout, 2 x 4 rows accumulated equals one batch of 8 (same rows, same order).
    def run(batch, accum):
        events, cb = collect()
        cfg = config(tiny, epochs=1, batch_size=batch, grad_accum=accum, logging_steps=1, group_by_length=False)
        from bertstudio.train.engine import RunParts, fit
        from bertstudio.tasks import get_task
        from bertstudio.tasks.model import build_model

        torch.manual_seed(0)
        model, tok = build_model("sentence", tiny, labels=["neg", "pos"])
        model.config.hidden_dropout_prob = 0.0
        for m in model.modules():
            if isinstance(m, torch.nn.Dropout):
                m.p = 0.0
        r = fit(cfg, RunParts(model, tok, get_task("sentence"), ["neg", "pos"]), sentiment(32, seed=4), callbacks=[cb])
        return r.model, [e.loss for e in events if e.kind == "step"]

    big, big_losses = run(8, 1)
    small, small_losses = run(4, 2)
    assert len(big_losses) == len(small_losses) == 4
    # rows differ in padding between the two batchings only by [PAD] positions, masked out
    assert small_losses == pytest.approx(big_losses, rel=1e-4)
    for (n, a), b in zip(big.named_parameters(), small.parameters()):
        assert torch.allclose(a, b, atol=1e-5), n


def test_evaluate_a_saved_model(tiny, tmp_path):
    out = tmp_path / "run"
    dev = sentiment(16, seed=9)
    result = train(config(tiny, output_dir=str(out)), sentiment(48), dev)
    metrics, rows = evaluate(out / "model", dev, max_length=32)
    assert metrics == result.metrics
    saved = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert [(r["index"], r["gold"], r["label"]) for r in rows] == [(r["index"], r["gold"], r["label"]) for r in saved]
    assert [r["confidence"] for r in rows] == pytest.approx([r["confidence"] for r in saved], abs=1e-5)
    unlabelled = from_records("sentence", [{"text": "the film was fun"}], labels=["neg", "pos"])
    metrics, rows = evaluate(out / "model", unlabelled)
    assert metrics == {} and rows[0]["gold"] is None and rows[0]["label"] in ("neg", "pos")


def test_no_eval_set_still_saves_the_last_weights(tiny, tmp_path):
    out = tmp_path / "run"
    result = train(config(tiny, epochs=1, output_dir=str(out)), sentiment(16))
    assert result.status == "finished" and result.metrics == {}
    assert (out / "model" / "config.json").is_file() and not (out / "checkpoints" / "best").exists()


def test_data_from_the_config_glue_preset(tiny, shared_data):
    events, cb = collect()
    cfg = config(tiny, epochs=1, glue_task="SST-2", data_dir=str(shared_data / "glue" / "SST-2"),
                 max_train_examples=24, max_eval_examples=10)
    result = train(cfg, callbacks=[cb])
    assert result.status == "finished", result.message
    assert (events[0].num_train_examples, events[0].num_eval_examples) == (24, 10)
    assert set(result.metrics) == {"accuracy"}  # SST-2's official metric, not the kind's defaults


def test_wrong_data_for_the_model_is_refused(tiny, tmp_path):
    from bertstudio.errors import ConfigError

    result = train(config(tiny, epochs=1, output_dir=str(tmp_path / "run")), sentiment(8))
    tagging = from_records("tagging", [{"tokens": ["the", "dog"], "tags": ["O", "O"]}])
    with pytest.raises(ConfigError, match="tagging"):
        evaluate(result.model_dir, tagging)


def test_history_is_readable_while_the_run_goes(tiny, tmp_path):
    out = tmp_path / "run"
    seen = []

    def follower(event, control):
        if event.kind == "phase":  # not written: it says what is under way, not what happened
            return
        # another reader opening the file now sees every event so far, this one included
        lines = (out / "history.jsonl").read_text().splitlines()
        seen.append((len(lines), json.loads(lines[-1])["kind"] == event.kind))

    result = train(config(tiny, epochs=1, logging_steps=1, output_dir=str(out)), sentiment(16), callbacks=[follower])
    assert result.status == "finished"
    assert [n for n, _ in seen] == list(range(1, len(seen) + 1)) and all(same for _, same in seen)


def test_the_scores_rest_on_the_evaluation_rows_with_a_gold_value(tiny, tmp_path):
    """60 evaluation rows of which 20 have gold: the metrics are the 20's, and the run said 60 to
    the Scoreboard's "(on N examples)" and the model card. Both counts are recorded; a history
    written before the scored count was (no num_scored_examples) reads its one count as before."""
    from helpers import sentiment_records

    from bertstudio.train.events import event_to_dict
    from bertstudio.train.hub import model_card, resolve_source
    from bertstudio.train.rundir import read_run

    rows = [{**row, "label": row["label"] if i < 20 else None} for i, row in enumerate(sentiment_records(60, seed=1))]
    events, cb = collect()
    out = tmp_path / "run"
    result = train(config(tiny, epochs=1, output_dir=str(out)), sentiment(16),
                   from_records("sentence", rows, labels=["neg", "pos"]), callbacks=[cb])
    assert result.status == "finished", result.message
    started = events[0]
    assert (started.num_eval_examples, started.num_scored_examples, started.scored_examples) == (60, 20, 20)
    assert read_run(out).eval_examples == 20
    assert "16 training examples, 20 evaluation examples (60 evaluated" in model_card(resolve_source(out), "me/x")
    old = {k: v for k, v in event_to_dict(started).items() if k != "num_scored_examples"}
    assert event_from_dict(old).scored_examples == 60


def test_cancel_during_an_evaluation_stops_it_between_batches_and_keeps_the_last_complete_one(tiny, tmp_path):
    """Cancel was read only after an optimizer step: an evaluation under way (minutes on a large dev
    set) ran to its end first, and a window leaving its project waited on it. Now the evaluation
    stops after the batch it is on; its partial predictions are not scored, so the run keeps the
    last complete evaluation, and a resumed run evaluates first (as when cancel skips a due one)."""
    cancel = threading.Event()
    events, phases = [], []

    def cb(event, control):
        if event.kind == "phase":
            if event.phase == "evaluating":
                phases.append((max([e.step for e in events if e.kind == "step"] or [0]), event.done, event.total))
                if len([p for p in phases if p[1] == 1]) == 2:  # the second evaluation's first batch is done
                    cancel.set()
            return
        events.append(event)

    out = tmp_path / "run"
    result = train(config(tiny, logging_steps=1, output_dir=str(out)), sentiment(32), sentiment(64), callbacks=[cb],
                   cancel=cancel)
    assert result.status == "cancelled" and result.step == 8
    assert [e.step for e in events if e.kind == "eval"] == [4]  # the interrupted one is not reported as done
    second = [(done, total) for step, done, total in phases if step == 8]
    assert second[-1][0] < second[-1][1] == 4  # it stopped after its first batches, not at its end
    assert max(e.step for e in events if e.kind == "step") == 8  # and no step trained after the cancel
    assert events[-1].kind == "finished" and events[-1].best_step == 4
    first = next(e.metrics for e in events if e.kind == "eval")
    kept = json.loads((out / "metrics.json").read_text())  # the scores, beside which a fact may stand (one_answer)
    assert {k: v for k, v in kept.items() if not isinstance(v, dict)} == pytest.approx(first)
    state = json.loads((out / "checkpoints" / "last" / "state.json").read_text())
    assert state["step"] == 8 and state["eval_pending"] is True


def test_a_cancel_during_the_last_evaluation_lets_it_finish(tiny, tmp_path):
    """Cancelled between the batches of the last evaluation, a run kept no score when it evaluated
    only there, and its checkpoint at the last step was one no resume accepts. The training is done
    by then: the last evaluation runs to its end and the run finishes scored."""
    cancel = threading.Event()
    events = []

    def cb(event, control):
        if event.kind == "phase":
            if event.phase == "evaluating" and event.done == 1:
                cancel.set()
            return
        events.append(event)

    out = tmp_path / "run"
    result = train(config(tiny, epochs=1, output_dir=str(out)), sentiment(32), sentiment(64), callbacks=[cb],
                   cancel=cancel)
    assert cancel.is_set() and result.status == "finished", result.message
    assert [e.step for e in events if e.kind == "eval"] == [4]
    assert (out / "metrics.json").is_file()


def test_a_kept_earlier_evaluation_records_the_last_one_beside_it(tiny, tmp_path, monkeypatch):
    """save_best reports the best of several looks at one evaluation set (RTE, 128 rows: 0.549 kept,
    0.516 where the recipe ended), and the last look was lost: metrics.json, the run's end and the
    command line keep it beside the kept scores. The scores are scripted: a random tiny model's
    evaluations do not peak before the end on cue."""
    from bertstudio.cli import ProgressPrinter
    from bertstudio.tasks.classification import SequenceClassificationTask
    from bertstudio.train.rundir import read_run

    scripted = iter([0.5, 0.9, 0.625])
    monkeypatch.setattr(SequenceClassificationTask, "metrics", lambda self, *a, **k: {"accuracy": next(scripted)})
    events, cb = collect()
    out = tmp_path / "run"
    result = train(config(tiny, epochs=3, output_dir=str(out)), sentiment(16), sentiment(8, seed=9), callbacks=[cb])
    assert result.status == "finished" and [e.step for e in events if e.kind == "eval"] == [2, 4, 6]
    assert result.metrics == {"accuracy": 0.9}  # what the CLI prints on stdout: the kept weights' scores, as before
    assert json.loads((out / "metrics.json").read_text()) == {"accuracy": 0.9, "last_evaluation": {"accuracy": 0.625}}
    assert (events[-1].best_step, events[-1].last_metrics) == (4, {"accuracy": 0.625})
    said = io.StringIO()
    ProgressPrinter(said)(events[-1], None)
    assert said.getvalue().splitlines()[-1].endswith("the model and metrics below are theirs, selected on this "
                                                     "evaluation set; the last evaluation's: accuracy 62.50")
    assert read_run(out).last_metrics == {"accuracy": 0.625}  # the Results page's source
    (out / "metrics.json").write_text('{"accuracy": 0.9}')  # a run folder written before it was kept: nothing said
    assert read_run(out).last_metrics == {}


def test_a_model_that_answers_one_class_for_every_row_is_said(tiny, tmp_path):
    """CoLA on 32 rows answered "acceptable" for 499 of 500 rows, and nothing but an MCC of -0.03 said
    so (regression says "one value for every example"). Trained on 15 "pos" rows to one "neg", the
    tiny model answers "pos" for all 16 evaluation rows, half of whose gold is "neg"."""
    from bertstudio.cli import ProgressPrinter

    rows = [{**r, "label": "pos" if i else "neg"} for i, r in enumerate(sentiment_records(16))]
    events, cb = collect()
    out = tmp_path / "run"
    result = train(config(tiny, epochs=2, output_dir=str(out)), from_records("sentence", rows, labels=["neg", "pos"]),
                   sentiment(16, seed=9), callbacks=[cb])
    assert result.status == "finished", result.message
    sentence = "the model answers 'pos' for 16 of 16 evaluation rows (the gold: 50%)"
    assert events[-1].one_answer == sentence
    said = io.StringIO()
    ProgressPrinter(said)(events[-1], None)
    assert said.getvalue().splitlines()[-1] == sentence
    assert json.loads((out / "metrics.json").read_text())["one_answer"] == {"label": "pos", "count": 16, "rows": 16,
                                                                           "gold_share": 0.5}
