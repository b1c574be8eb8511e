"""A resumed run whose training rows, labels or last step are not what a plain resume expects:
the label ids stay the checkpoint's, changed rows are refused with a line about the data, and a
stop read during the last step finishes the run (or, from an older checkpoint, resumes into its
last evaluation)."""

from __future__ import annotations

import json
import shutil
import threading

import pytest

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError, DataError
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.events import RunStarted
from bertstudio.train.rundir import read_run

from helpers import random_sentiment_records

pytestmark = pytest.mark.usefixtures("one_thread")  # shared fixtures (one_thread, tiny): tests/conftest.py


rows = random_sentiment_records


TRAIN = sorted(rows(38, 1), key=lambda r: r["label"] != "pos")  # first row pos: labels as found are pos, neg
DEV = rows(12, 2)


def run(tiny, out, train_rows, *, cancel_at=None, resume=False, eval_steps=None, epochs=2.0, model=None, **settings):
    cfg = TrainConfig(model=model or tiny, epochs=epochs, batch_size=4, lr=2e-3, logging_steps=1, seed=7, max_length=32,
                      device="cpu", precision="fp32", output_dir=str(out), eval_steps=eval_steps,
                      resume_from=str(out / "checkpoints" / "last") if resume else None, **settings)
    cancel = threading.Event()
    events = []

    def cb(event, control):
        events.append(event)
        if event.kind == "step" and event.step == (event.total_steps if cancel_at == "last" else cancel_at):
            cancel.set()  # the Stop button pressed while this step trained: the loop reads it after the step

    # labels as found in the data (the CLI's default), not listed
    result = train(cfg, from_records("sentence", train_rows, source="train.csv"), from_records("sentence", DEV,
                   labels=["pos", "neg"]), callbacks=[cb], cancel=cancel)
    return result, events


@pytest.fixture(scope="module")
def cut(tiny, tmp_path_factory):
    out = tmp_path_factory.mktemp("cut") / "run"
    first, _ = run(tiny, out, TRAIN, cancel_at=4)
    assert first.status == "cancelled"
    return out


def copy(cut, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(cut, out)
    return out


def test_rows_sorted_otherwise_keep_the_label_ids_the_weights_were_trained_with(cut, tiny, tmp_path, caplog):
    """The file sorted in a spreadsheet, its first row now neg: the resume took the labels in the
    new order, so the model's config said 0 = neg for weights trained with 0 = pos (the run said
    accuracy 1.0, its model scored 0.0)."""
    out = copy(cut, tmp_path)
    flipped = sorted(TRAIN, key=lambda r: r["label"] != "neg")
    result, _ = run(tiny, out, flipped, resume=True)
    assert result.status == "finished", result.message
    assert result.model.config.id2label == {0: "pos", 1: "neg"}
    assert json.loads((out / "model" / "config.json").read_text())["id2label"] == {"0": "pos", "1": "neg"}
    assert "in another order" in caplog.text  # the same rows: it goes on, and says it will not end exactly the same


def test_a_label_the_run_never_had_is_refused_with_the_labels(cut, tiny, tmp_path):
    out = copy(cut, tmp_path)
    changed = [dict(r, label="meh") if i % 5 == 0 else r for i, r in enumerate(TRAIN)]
    result, _ = run(tiny, out, changed, resume=True)
    assert result.status == "failed" and isinstance(result.error, DataError), result.message
    assert "the training data's labels are now meh, pos, neg; the run's are pos, neg" in result.message
    assert result.message.startswith("train.csv") and "\n" not in result.message
    assert (out / "checkpoints" / "last" / "weights.pt").is_file()


@pytest.mark.parametrize("change, said", [
    (lambda r: r[:-1], "38 rows then, 37 now"),  # one row less: the same batches, went on silently before
    (lambda r: r + rows(6, 9), "38 rows then, 44 now"),  # another batch count: refused as "no point of this run"
    # 10 rows relabelled: went on silently, the loss jumping, recorded as one run
    (lambda r: [dict(x, label={"pos": "neg", "neg": "pos"}[x["label"]]) if i % 4 == 1 else x for i, x in enumerate(r)],
     "the same 38 rows, with other labels"),
    (lambda r: [dict(x, text=x["text"] + " !") if i == 3 else x for i, x in enumerate(r)],
     "38 rows then and now, but other ones"),
])
def test_training_rows_changed_since_the_stop_are_refused_with_a_line_about_the_data(change, said, cut, tiny, tmp_path):
    out = copy(cut, tmp_path)
    result, events = run(tiny, out, change(TRAIN), resume=True)
    assert result.status == "failed" and isinstance(result.error, DataError), result.message
    assert f"the training data changed since the run stopped: {said}" in result.message
    assert not [e for e in events if getattr(e, "phase", None) in ("loading_model", "reusing_model")]  # said first
    assert "state.json" not in result.message and "\n" not in result.message
    assert (out / "checkpoints" / "last" / "weights.pt").is_file()


def test_a_stop_read_after_the_last_step_finishes_the_run(tiny, tmp_path):
    """Stop during the last step: the run ended 'cancelled at step N' of N without its last
    evaluation, keeping a checkpoint no resume took (glue --resume failed on every retry)."""
    result, events = run(tiny, tmp_path / "run", TRAIN, cancel_at="last")
    total = next(e for e in events if isinstance(e, RunStarted)).total_steps
    assert result.status == "finished" and result.step == total, result.message
    assert [e.step for e in events if e.kind == "eval"][-1] == total  # the last evaluation was done
    assert read_run(tmp_path / "run").status == "finished"
    assert not (tmp_path / "run" / "checkpoints" / "last").exists()


@pytest.mark.parametrize("epochs", [2.0, 1.5])
def test_a_checkpoint_of_the_last_step_with_its_evaluation_owed_resumes_into_it(epochs, tiny, tmp_path):
    """What earlier versions kept after a stop read during the last step (step N of N,
    eval_pending): its resume was refused as 'no point of this run'; it evaluates and finishes.
    With fractional epochs its last epoch still had batches, and it trained a step N+1 of N."""
    out = tmp_path / "run"
    first, events = run(tiny, out, TRAIN, cancel_at=10, eval_steps=10, epochs=epochs)  # a stop when an evaluation is due
    total = next(e for e in events if isinstance(e, RunStarted)).total_steps
    assert first.status == "cancelled"
    state = out / "checkpoints" / "last" / "state.json"
    saved = json.loads(state.read_text())
    assert saved["eval_pending"] is True
    per_epoch = 10  # 38 rows in batches of 4
    assert total == int(per_epoch * epochs)
    # as the last step left it: epoch and batches done within it
    state.write_text(json.dumps({**saved, "step": total, "epoch": total // per_epoch, "batches_done": total % per_epoch}))
    second, resumed = run(tiny, out, TRAIN, resume=True, eval_steps=10, epochs=epochs)
    assert second.status == "finished" and second.step == total, second.message
    assert [e.kind for e in resumed if e.kind in ("step", "eval")] == ["eval"]
    assert [e.step for e in resumed if e.kind == "eval"] == [total]
    assert read_run(out).status == "finished" and (out / "model").is_dir()


def test_an_owed_evaluation_is_no_licence_for_a_step_past_the_end(tiny, tmp_path, cut):
    out = copy(cut, tmp_path)
    state = out / "checkpoints" / "last" / "state.json"
    saved = json.loads(state.read_text())
    state.write_text(json.dumps({**saved, "step": 1000, "epoch": 100, "batches_done": 0, "eval_pending": True}))
    result, _ = run(tiny, out, TRAIN, resume=True)
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "no point of this run" in result.message


def test_precision_auto_keeps_the_precision_the_run_trained_in(tiny, tmp_path, monkeypatch):
    """precision = "auto" was resolved again on resume, from a CPU timing probe: a bf16 run went
    on in fp32 (or back), and no longer ended as an uninterrupted run."""
    import bertstudio.train.hardware as hw

    def machine(bf16: bool):
        monkeypatch.setattr(hw, "detect", lambda: (False, False, False, bf16))
        monkeypatch.setattr(hw, "cpu_flags", lambda: {"avx512_bf16"})  # native bf16 here, whatever the probe says

    def auto_run(out, **kw):
        cfg = TrainConfig(model=tiny, epochs=2, batch_size=4, lr=2e-3, logging_steps=1, seed=7, max_length=32,
                          device="cpu", precision="auto", output_dir=str(out), **kw)
        cancel, events = threading.Event(), []

        def cb(event, control):
            events.append(event)
            if event.kind == "step" and event.step == 3 and not kw:
                cancel.set()

        return train(cfg, from_records("sentence", TRAIN), callbacks=[cb], cancel=cancel), events

    machine(True)  # the probe said bf16 pays off here
    first, events = auto_run(tmp_path / "run")
    assert first.status == "cancelled" and next(e for e in events if isinstance(e, RunStarted)).precision == "bf16"
    machine(False)  # a busier moment: it says fp32 now
    second, events = auto_run(tmp_path / "run", resume_from=str(tmp_path / "run" / "checkpoints" / "last"))
    assert second.status == "finished", second.message
    assert next(e for e in events if isinstance(e, RunStarted)).precision == "bf16"


def test_a_resume_fingerprints_its_rows_once(tiny, tmp_path, cut, monkeypatch):
    """Every row is hashed (seconds for 400k rows), and a resume did it twice per set: train()
    checked the rows before building the model, then fit checked them again."""
    from bertstudio.train import engine

    real, hashed = engine.data_fingerprint, []
    monkeypatch.setattr(engine, "data_fingerprint", lambda examples: hashed.append(len(examples)) or real(examples))
    result, _ = run(tiny, copy(cut, tmp_path), TRAIN, resume=True)
    assert result.status == "finished", result.message
    assert hashed == [len(TRAIN), len(DEV)]


@pytest.mark.parametrize("flags, kept", [({"avx2", "avx512f"}, "auto"), ({"avx2", "amx_bf16"}, "bf16")])
def test_a_bf16_run_resumed_where_bf16_is_not_native_goes_on_in_this_machines_precision(flags, kept, monkeypatch,
                                                                                        caplog):
    """A run trained in bf16 (auto, on an Ampere GPU or an AMX CPU) resumed on a T4 or an AVX2-only
    CPU kept bf16: accelerate refused it on the GPU, and the CPU ran it emulated, many times slower."""
    import bertstudio.train.hardware as hw
    from bertstudio.train.engine import _resumed_precision

    monkeypatch.setattr(hw, "cpu_flags", lambda: flags)
    config = TrainConfig(model="m", device="cpu", precision="auto")
    with caplog.at_level("WARNING", logger="bertstudio.train.engine"):
        assert _resumed_precision(config, {"precision": "bf16"}).precision == kept
    assert ("the run trained in bf16, which this machine does not run natively" in caplog.text) == (kept == "auto")
    assert _resumed_precision(config, {"precision": "fp32"}).precision == "fp32"


@pytest.mark.parametrize("gone, said", [("rng.pt", "rng.pt is missing"),
                                        ("optimizer.pt", "optimizer.pt is missing")])
def test_a_checkpoint_missing_a_file_names_it(gone, said, cut, tiny, tmp_path):
    """A checkpoint without rng.pt said only "no resumable checkpoint here"."""
    out = copy(cut, tmp_path)
    (out / "checkpoints" / "last" / gone).unlink()
    result, _ = run(tiny, out, TRAIN, resume=True)
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert f"no resumable checkpoint here: {said}" in result.message and "\n" not in result.message


def test_a_checkpoint_without_fingerprints_resumes_and_says_its_rows_cannot_be_checked(cut, tiny, tmp_path, caplog):
    """A checkpoint of before fingerprints went on over rows relabelled since without a word (and the
    run ended as one "finished" run trained on two label sets)."""
    out = copy(cut, tmp_path)
    state_file = out / "checkpoints" / "last" / "state.json"
    state = json.loads(state_file.read_text())
    state_file.write_text(json.dumps({k: v for k, v in state.items() if k not in ("data", "eval_data")}))
    result, _ = run(tiny, out, TRAIN, resume=True)
    assert result.status == "finished", result.message
    assert "written by an older bertstudio, which did not record the rows it trained on" in caplog.text


# --- the base model moved (a run taken to another machine, its model copied elsewhere) ------------


@pytest.fixture(scope="module")
def moved(tiny, tmp_path_factory):
    """A run cancelled at step 4 whose base model folder then moved: (run, where the model was, where it is)."""
    root = tmp_path_factory.mktemp("moved")
    base, elsewhere = root / "base", root / "elsewhere"
    shutil.copytree(tiny, base)
    first, _ = run(tiny, root / "run", TRAIN, cancel_at=4, model=str(base))
    assert first.status == "cancelled"
    base.rename(elsewhere)
    return root / "run", base, elsewhere


def test_a_run_whose_base_model_moved_resumes_from_where_it_lies_and_ends_as_if_never_stopped(moved, tiny, tmp_path):
    """Sweep "move" #1: --model NEWPATH was refused as "other settings (model)", though the checkpoint holds
    every weight and the model there is the same one (its config and tokenizer files are compared)."""
    import torch

    out, _base, elsewhere = moved
    out = copy(out, tmp_path)
    full, full_events = run(tiny, tmp_path / "full", TRAIN)
    second, events = run(tiny, out, TRAIN, resume=True, model=str(elsewhere))
    assert second.status == "finished", second.message
    after = {e.step: e.loss for e in full_events if e.kind == "step" and e.step > 4}
    assert {e.step: e.loss for e in events if e.kind == "step"} == pytest.approx(after, abs=1e-6)
    assert second.metrics == pytest.approx(full.metrics, abs=1e-9)
    for (name, a), b in zip(full.model.state_dict().items(), second.model.state_dict().values()):
        assert torch.allclose(a, b, atol=1e-6), name


# (SetFit's tuned encoder is weights like the embedding head's tuned encoder; its contrastive phase costs 8 s here)
@pytest.mark.parametrize("settings", [{"mode": "lora"}, {"mode": "top-1"}, {"head": "embedding"}])
def test_runs_of_every_mode_and_head_resume_from_a_moved_base_model_exactly(settings, tiny, tmp_path):
    """The resumed model is rebuilt from the base found now, then takes the checkpoint's weights whole: adapters,
    frozen layers and an embedding head end as the uninterrupted run's."""
    import torch

    base = tmp_path / "base"
    shutil.copytree(tiny, base)
    full, full_events = run(tiny, tmp_path / "full", TRAIN, epochs=1.0, **settings)
    first, _ = run(tiny, tmp_path / "run", TRAIN, cancel_at=4, epochs=1.0, model=str(base), **settings)
    assert first.status == "cancelled", first.message
    elsewhere = base.rename(tmp_path / "elsewhere")
    second, events = run(tiny, tmp_path / "run", TRAIN, resume=True, epochs=1.0, model=str(elsewhere), **settings)
    assert second.status == "finished", second.message
    after = {e.step: e.loss for e in full_events if e.kind == "step" and e.step > 4}
    assert {e.step: e.loss for e in events if e.kind == "step"} == pytest.approx(after, abs=1e-6)
    for (name, a), b in zip(full.model.state_dict().items(), second.model.state_dict().values()):
        assert torch.allclose(a, b, atol=1e-6), name


def test_a_moved_base_model_is_refused_saying_where_it_was_and_how_to_name_where_it_is(moved, tiny, tmp_path):
    from bertstudio.train.rundir import resume_command

    out, base, _elsewhere = moved
    out = copy(out, tmp_path)
    result, _ = run(tiny, out, TRAIN, resume=True, model=str(base))  # config.toml's model, as the CLI reads it
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert f"its base model folder {base} is missing" in result.message and "--model" in result.message
    assert resume_command(out) is None  # the command offered would fail the same way


def test_another_model_in_its_place_is_refused_as_not_the_base_model(moved, tiny, tmp_path):
    out, _base, elsewhere = moved
    out = copy(out, tmp_path)
    other = tmp_path / "other"
    shutil.copytree(elsewhere, other)
    config = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "hidden_dropout_prob": 0.3}))  # another run, not this one
    result, _ = run(tiny, out, TRAIN, resume=True, model=str(other))
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "is not the base model the run started from" in result.message


def test_a_checkpoint_from_before_the_base_model_was_recorded_says_to_put_the_model_back(moved, tiny, tmp_path):
    out, base, elsewhere = moved
    out = copy(out, tmp_path)
    state_file = out / "checkpoints" / "last" / "state.json"
    state = json.loads(state_file.read_text())
    del state["base_model"]
    state_file.write_text(json.dumps(state))
    result, _ = run(tiny, out, TRAIN, resume=True, model=str(elsewhere))
    assert result.status == "failed" and isinstance(result.error, ConfigError)
    assert "older bertstudio" in result.message and f"resume it from {base}" in result.message



@pytest.mark.parametrize("model", [r"C:\Users\me\models\bert", "models/bert", "/home/u/models/bert", "C:/models/bert"])
def test_a_missing_base_model_named_by_any_path_is_said_missing_not_changed(model, tmp_path, monkeypatch):
    """A run taken to another machine (or named by a relative path) whose base model folder is not
    there was told its model's "config or tokenizer files differ": only a path absolute here, or
    starting with . or ~, was taken for a folder, the rest for a Hub id with no fingerprint."""
    from bertstudio.tasks.model import looks_like_path
    from bertstudio.train.rundir import BASE_MODEL, resume_model_problem

    monkeypatch.chdir(tmp_path)  # (models/ is not a folder here: the name alone says nothing)
    said = resume_model_problem(model, model, {BASE_MODEL: "0" * 32})
    assert said is not None and said.kind == "model_missing", said
    assert "is missing" in said and "--model" in said
    assert looks_like_path(model) == (model != "models/bert")  # org/name: a Hub id by its look alone
    assert not looks_like_path("bert-base-uncased") and not looks_like_path("google/bert_uncased_L-2_H-128_A-2")


@pytest.mark.parametrize("damaged", [[1], {"x": 1}, 123, None, "", "/etc/passwd", "x" * 300, "upper"])
def test_a_damaged_base_model_in_state_json_is_said_damaged(damaged, tiny_model_dir):
    """A list in state.json's base_model was blamed on "an older bertstudio", a string (even the
    right hash in upper case) on the user's model, "not the base model the run started from"."""
    from bertstudio.train.rundir import BASE_MODEL, base_model_fingerprint, resume_model_problem

    model = str(tiny_model_dir)
    right = base_model_fingerprint(model)
    assert resume_model_problem(model, model, {BASE_MODEL: right}) is None
    said = resume_model_problem(model, model, {BASE_MODEL: right.upper() if damaged == "upper" else damaged})
    assert said is not None and said.kind == "damaged_checkpoint", said
    assert "state.json, base_model: not a model fingerprint" in said
