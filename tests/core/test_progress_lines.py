"""Every phase of a long command says how far it is: `bertstudio evaluate` on SST-2 train was 157 s
without a word, and a training's evaluation phase 131 s after "evaluating 1053 batches…"."""

from __future__ import annotations

import io

import pytest

from bertstudio.cli import ProgressPrinter, main
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import evaluate, train
from bertstudio.train.events import PhaseChanged

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def model_dir(tiny, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "run"
    result = train(TrainConfig(model=tiny, epochs=1, batch_size=8, device="cpu", precision="fp32", max_length=16,
                               output_dir=str(out)), sentiment(16))
    assert result.status == "finished"
    return out / "model"


def test_evaluate_reports_its_phases_and_each_batch(model_dir):
    seen: list[PhaseChanged] = []
    evaluate(model_dir, sentiment(40), batch_size=8, callbacks=[lambda ev, _c: seen.append(ev)
                                                                 if isinstance(ev, PhaseChanged) else None])
    assert [e.phase for e in seen if e.done == 0] == ["loading_model", "tokenising", "evaluating"]
    batches = [e.done for e in seen if e.phase == "evaluating"]
    assert batches == list(range(6)) and all(e.total == 5 for e in seen if e.phase == "evaluating")


def test_the_evaluate_command_shows_progress_on_a_terminal_and_keeps_stdout_clean(model_dir, tmp_path, monkeypatch):
    data = tmp_path / "eval.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\tpos\nbad boring {i}\tneg\n" for i in range(20)),
                    encoding="utf-8")
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    out = io.StringIO()
    assert main(["evaluate", "--model", str(model_dir), "--eval", str(data), "--batch-size", "8"], out=out) == 0
    said = terminal.getvalue()
    assert "loading the model…" in said and "evaluating 5 batches…" in said and "evaluating 5/5" in said
    assert out.getvalue().lstrip().startswith("{")  # the metrics alone on stdout
    # all on one line the command clears: the terminal keeps the scored line alone (and a bad input its one line)
    # (the untrained tiny model may answer one class, which the scored line then says after its count)
    assert [line for line in said.split("\n") if line.strip()][0].split("\r\x1b[K")[-1].startswith(
        "scored 40 rows with a gold value")


def test_the_evaluate_command_writes_no_progress_into_a_log(model_dir, tmp_path, capsys):
    data = tmp_path / "eval.tsv"
    data.write_text("sentence\tlabel\n" + "".join(f"good fun {i}\tpos\n" for i in range(4)), encoding="utf-8")
    assert main(["evaluate", "--model", str(model_dir), "--eval", str(data)], out=io.StringIO()) == 0
    assert capsys.readouterr().err.strip() == "scored 4 rows with a gold value"


def test_a_long_phase_in_a_log_file_gets_a_line_every_half_minute(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("bertstudio.cli.time.monotonic", lambda: clock[0])
    log = io.StringIO()
    printer = ProgressPrinter(log)
    printer(PhaseChanged("evaluating", 0, 100), None)
    for done in range(1, 101):
        clock[0] += 1.0  # a batch a second: 100 s in all
        printer(PhaseChanged("evaluating", done, 100), None)
    lines = log.getvalue().splitlines()
    assert lines == ["evaluating 100 batches…", "evaluating: 30/100", "evaluating: 60/100", "evaluating: 90/100"]


def test_the_automatic_choice_is_said_before_setfits_phase_not_after_it():
    """"settings chosen for this data: ... SetFit ..." came at 187 s, after SetFit's whole
    contrastive phase (many minutes on 2 cores), on RunStarted: a user who stopped it in that
    phase never learned why SetFit ran. It is said once the model has loaded (data and model
    accepted), before the phase that follows, and only once."""
    from bertstudio.train.events import RunStarted

    log = io.StringIO()
    printer = ProgressPrinter(log, chosen="32 labelled rows: SetFit")
    printer(PhaseChanged("loading_model", 0, 0), None)
    printer(PhaseChanged("setfit", 0, 80), None)
    printer(PhaseChanged("probing", 0, 0), None)
    printer(RunStarted(total_steps=4, num_train_examples=32, num_eval_examples=0, epochs=1, effective_batch_size=16,
                       trainable_params=1, total_params=2, device="cpu", precision="fp32"), None)
    lines = log.getvalue().splitlines()
    assert lines[:3] == ["loading the model…", "settings chosen for this data: 32 labelled rows: SetFit",
                         "SetFit: contrastive fine-tuning, 80 steps…"]
    assert sum("settings chosen" in line for line in lines) == 1
    plain = io.StringIO()  # a run with no phase between the model and its start says it at the start, as before
    printer = ProgressPrinter(plain, chosen="why")
    printer(PhaseChanged("loading_model", 0, 0), None)
    printer(RunStarted(total_steps=4, num_train_examples=32, num_eval_examples=0, epochs=1, effective_batch_size=16,
                       trainable_params=1, total_params=2, device="cpu", precision="fp32"), None)
    assert plain.getvalue().splitlines()[1] == "settings chosen for this data: why"
