"""save_best on an evaluation set too small to choose on: the run keeps its last weights and says so."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.progress import MIN_ROWS_TO_CHOOSE

from helpers import sentiment


def _config(tiny: str, out: str) -> TrainConfig:
    return TrainConfig(model=tiny, epochs=3, batch_size=8, lr=3e-3, logging_steps=2, seed=1, max_length=32,
                       device="cpu", precision="fp32", output_dir=out)


@pytest.mark.parametrize("rows", [1, MIN_ROWS_TO_CHOOSE - 1])
def test_too_few_evaluation_rows_keep_the_last_weights_and_say_so(tiny, tmp_path, monkeypatch, caplog, rows):
    """Sweep newcomer4 #4: with 10 labels (1 row held out) the run kept its step-15 weights, which
    scored 100 on that one row where the last evaluation scored 0, and Results showed 100.0. The
    scores are scripted: a random tiny model's evaluations do not peak early on cue."""
    from bertstudio.cli import ProgressPrinter
    from bertstudio.tasks.classification import SequenceClassificationTask
    from bertstudio.train.rundir import read_run

    scripted = iter([1.0, 0.0, 0.0])
    monkeypatch.setattr(SequenceClassificationTask, "metrics", lambda self, *a, **k: {"accuracy": next(scripted)})
    events = []
    out = tmp_path / "run"
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        result = train(_config(tiny, str(out)), sentiment(16), sentiment(rows, seed=9),
                       callbacks=[lambda e, c=None: events.append(e)])
    assert result.status == "finished" and [e.step for e in events if e.kind == "eval"] == [2, 4, 6]
    assert result.metrics == {"accuracy": 0.0}  # the last evaluation's, not the lucky first one
    assert events[-1].best_step is None and not (out / "checkpoints" / "best").exists()
    assert json.loads((out / "metrics.json").read_text()) == {"accuracy": 0.0}
    assert read_run(out).best_step is None  # Results shows the last weights' scores, with no "best kept" note
    said = [r for r in caplog.records if getattr(r, "facts", {}).get("kind") == "last_weights_kept"]
    assert len(said) == 1 and said[0].facts["scored"] == rows  # once, before the first step
    assert f"{rows} scored evaluation row" in said[0].getMessage() and "keeps its last weights" in said[0].getMessage()
    printed = io.StringIO()  # the command line's end says nothing of a kept best
    ProgressPrinter(printed)(events[-1], None)
    assert "run finished" in printed.getvalue() and "kept the best" not in printed.getvalue()


def test_enough_evaluation_rows_still_keep_the_best(tiny, tmp_path, monkeypatch, caplog):
    from bertstudio.tasks.classification import SequenceClassificationTask

    scripted = iter([1.0, 0.0, 0.0])
    monkeypatch.setattr(SequenceClassificationTask, "metrics", lambda self, *a, **k: {"accuracy": next(scripted)})
    events = []
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        result = train(_config(tiny, str(tmp_path / "run")), sentiment(16), sentiment(MIN_ROWS_TO_CHOOSE, seed=9),
                       callbacks=[lambda e, c=None: events.append(e)])
    assert result.metrics == {"accuracy": 1.0} and events[-1].best_step == 2
    assert not [r for r in caplog.records if getattr(r, "facts", {}).get("kind") == "last_weights_kept"]
