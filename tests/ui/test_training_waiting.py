"""A training that waits for another one of the app (train/training_lock.py) says so: the Train
page's progress and log, and the assistant's status line, name the job it waits for."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from bertstudio.train import training_lock
from bertstudio.train.events import PhaseChanged


def test_the_train_page_says_which_training_it_waits_for(qtbot):
    from bertstudio.ui.training_monitor import TrainingMonitor

    monitor = TrainingMonitor(names=False)
    qtbot.addWidget(monitor)
    shown: list[str] = []
    monitor.phase_shown.connect(shown.append)
    monitor.on_phase(PhaseChanged("waiting", detail=training_lock.LABEL_CHECK))
    assert shown == ["waiting for the label-error check to finish…"]
    assert monitor.progress.maximum() == 0  # busy: no count while waiting
    # the assistant's background training gives way (it is not waited for to its end): said so
    monitor.on_phase(PhaseChanged("waiting", detail=training_lock.ASSISTANT))
    assert shown[-1] == ("stopping the assistant's background training after its current step "
                         "(it trains again after this run)…")
    assert monitor.log_view.toPlainText().splitlines()[-1].endswith("Stopping the assistant's background training "
                                                                   "after its current step (it trains again after "
                                                                   "this run)…")
    monitor.on_phase(PhaseChanged("loading_model"))  # its turn came
    assert shown[-1] == "loading model…"


def _controller(training: dict):
    from PySide6.QtCore import QObject, Signal

    class Controller(QObject):  # what AssistStatus reads of an AssistController
        status_changed, failed = Signal(), Signal(str)
        last_error = ""

        def status(self) -> dict:
            return {"ready": True, "phase": "ready", "training": training}

        def is_on(self) -> bool:
            return True

        def model_in_loop(self) -> bool:
            return True

    return Controller()


def test_the_assistant_status_says_which_training_its_model_waits_for(qtbot):
    from bertstudio.ui import assist_status

    training = {"status": "training", "method": "finetune", "labels": 12, "step": 0, "total": 0,
                "waiting_for": training_lock.RUN}
    widget = assist_status.AssistStatus(_controller(training))
    qtbot.addWidget(widget)
    widget.update_status()
    assert "waiting for a training run to finish" in widget.label.text()
    training.pop("waiting_for")
    widget.update_status()
    assert "training a" in widget.label.text() and "waiting" not in widget.label.text()
