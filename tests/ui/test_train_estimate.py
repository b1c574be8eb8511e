"""The Train page's time estimate: the figure train/estimate.py gives for the page's settings
and the labelled rows, from this project's run history when there is one, updated as labels
arrive; rough (and said to be) until something was timed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.train.config import TrainConfig
from bertstudio.train.estimate import Throughput, estimate, mean_tokens, rounded
from bertstudio.train.events import StepLogged
from bertstudio.train.rundir import RunFolder
from bertstudio.ui.session import ProjectSession
from bertstudio.ui.training_page import TrainingPage

LABELS = ["neg", "pos"]


def texts(n: int) -> list[str]:
    return [f"the film number {i} was {'good' if i % 2 else 'bad'}" for i in range(n)]


def said(seconds: float) -> str:
    figure, unit = rounded(seconds)
    return f"~{figure} {unit}"


def make(tmp_path: Path, qtbot, labelled: int, *, run_rate: float | None = None):
    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    rows = [{"text": t, "label": (LABELS[i % 2] if i < labelled else None)} for i, t in enumerate(texts(80))]
    project.import_examples(from_records("sentence", rows, labels=LABELS), "train")
    if run_rate is not None:  # an earlier run of the bundled model logged its speed
        run = RunFolder.start(TrainConfig(task="sentence", labels=LABELS, output_dir=str(project.new_run_dir("r"))))
        for step in (1, 2, 3):
            run.log_event(StepLogged(step=step, total_steps=3, epoch=1.0, loss=0.5, lr=1e-5,
                                     examples_per_s=run_rate, eta_s=0.0))
        run.close()
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = TrainingPage(session)
    qtbot.addWidget(page)
    return session, page


def test_the_automatic_choice_says_how_long_it_would_take_from_this_projects_runs(qtbot, tmp_path):
    session, page = make(tmp_path, qtbot, 40, run_rate=40.0)
    try:
        assert page.form.is_auto() and page.config.method == "setfit"
        page.show()
        label = page.estimate_label
        qtbot.waitUntil(lambda: "earlier runs" in label.text(), timeout=60_000)
        # 40 labels without a dev split: 4 held out to evaluate on, 36 to train on
        first = estimate(page.config, 36, Throughput(40.0, "history"), eval_rows=4)
        # counted as the Automatic line counts them, the held-out rows said (sweep newcomer4 #3)
        assert label.text() == (f"36 of 40 labelled rows (4 held out for evaluation): SetFit would take "
                                f"{said(first.seconds)} "
                                f"(timed by this project's earlier runs: 40 examples/s)")
        assert label.isVisible() and page.form.auto_label.isVisible()

        for row in range(40, 60):  # labels arrive: the estimate follows
            session.project.set_gold("train", row, LABELS[row % 2])
        page.form.seeds_spin.setValue(3)
        qtbot.waitUntil(lambda: label.text().startswith("54 of 60 labelled rows (6 held out for evaluation): "),
                        timeout=60_000)
        config = page.config
        expected = estimate(config, 54, Throughput(40.0, "history"), eval_rows=6)
        assert config.seeds == 3 and f"3 seeds would take {said(expected.seconds)}" in label.text()
        assert expected.seconds > 3 * first.seconds  # three seeds, each on more rows
    finally:
        session.close()


def test_without_a_run_the_estimate_is_rough_until_this_computer_is_timed(qtbot, tmp_path, monkeypatch):
    from bertstudio.ui import train_estimate

    timed = []

    def fake_calibrate(model, **kw):  # the real one trains MiniLM for a few steps: tested in tests/core
        timed.append(model)
        return Throughput(10.0, "calibration", 32.0)

    monkeypatch.setattr(train_estimate, "calibrate", fake_calibrate)
    monkeypatch.setattr(train_estimate, "_calibrated", {})
    session, page = make(tmp_path, qtbot, 20)
    try:
        label = page.estimate_label
        assert timed == [] and "rough" in label.text()  # not seen yet: nothing is timed
        page.show()
        qtbot.waitUntil(lambda: "short timing" in label.text(), timeout=60_000)
        assert timed == [None]  # the bundled model, once
        tokens = mean_tokens(texts(80))
        expected = estimate(page.config, 18, Throughput(10.0, "calibration", 32.0), eval_rows=2, tokens=tokens)
        assert label.text().startswith(f"18 of 20 labelled rows (2 held out for evaluation): SetFit would take "
                                       f"{said(expected.seconds)}")
    finally:
        session.close()


def test_the_computer_is_timed_only_once_the_labelling_assistant_is_idle(qtbot, tmp_path, monkeypatch):
    """A calibration timed while the assistant embedded the pool in this process timed both: one
    reviewer's page said 1.4 h for a SetFit run that took 9.5 min."""
    from bertstudio.ui import train_estimate

    timed = []
    monkeypatch.setattr(train_estimate, "calibrate", lambda model, **kw: timed.append(model) or Throughput(10.0, "calibration", 32.0))
    monkeypatch.setattr(train_estimate, "_calibrated", {})
    session, page = make(tmp_path, qtbot, 20)
    busy = {"phase": "embedding", "ready": False, "progress": {"done": 5, "total": 80}}
    monkeypatch.setattr(session.assist, "status", lambda: busy)
    try:
        label = page.estimate_label
        page.show()
        qtbot.waitUntil(lambda: "once the labelling assistant is idle" in label.text(), timeout=60_000)
        assert timed == []
        busy.update(phase="ready", ready=True)
        session.assist.status_changed.emit()
        qtbot.waitUntil(lambda: "short timing" in label.text(), timeout=60_000)
        assert timed == [None]
    finally:
        session.close()


def test_a_run_started_while_the_computer_is_timed_stops_the_timing(qtbot, tmp_path, monkeypatch, tiny_model_dir):
    """Start clicked while the page timed the computer: the timing trained beside the real run
    (slowing it, and timing the run's work as the machine's). It stops after its step, none
    starts while the run goes, and it is done once the run has ended (from the run's history)."""
    import threading

    from bertstudio.ui import train_estimate

    started, stopped = threading.Event(), threading.Event()

    def slow_calibrate(model, cancel=None, **kw):  # stands in for a few MiniLM steps: waits on the flag
        started.set()
        if cancel is not None and cancel.wait(30):
            stopped.set()
            raise RuntimeError("the calibration run did not finish (cancelled)")
        return Throughput(10.0, "calibration", 32.0)

    monkeypatch.setattr(train_estimate, "calibrate", slow_calibrate)
    monkeypatch.setattr(train_estimate, "_calibrated", {})
    session, page = make(tmp_path, qtbot, 40)
    try:
        page.set_model_source(str(tiny_model_dir))
        page.show()
        assert started.wait(30)
        page.epochs_spin.setValue(1)
        page.batch_combo.setCurrentText("8")
        page.max_len_spin.setValue(16)
        page.device_combo.setCurrentText("cpu")
        page.precision_combo.setCurrentText("fp32")
        started.clear()
        page.start_training()
        assert stopped.wait(10)  # the timing stopped at once
        qtbot.waitUntil(lambda: not page.is_running(), timeout=120_000)
        assert not started.is_set()  # none started beside the run
        assert train_estimate._calibrated == {}  # nothing timed alongside the run is kept
        qtbot.waitUntil(lambda: "rough" not in page.estimate_label.text(), timeout=30_000)  # the run's own speed
    finally:
        session.close()


def test_the_estimate_counts_one_labelled_row_and_groups_thousands(qtbot, tmp_path):
    """The estimate line read "190000 labelled rows: …" and "1 labelled rows: …": the house's counted words."""
    from bertstudio.ui.train_estimate import TimeEstimateLabel

    session = ProjectSession(Project.create(tmp_path / "p", name="p", kind="sentence", labels=["a", "b"]),
                             settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    label = TimeEstimateLabel(session)
    qtbot.addWidget(label)
    config = TrainConfig(task="sentence", head="embedding", method="setfit")
    assert label._sentence(config, 190_000, 540, dev=True).startswith("190,000 labelled rows: SetFit would take ")
    assert label._sentence(config, 1, 540).startswith("1 labelled row: SetFit would take ")  # too few to hold out
    assert label._sentence(config, 190_000, 540).startswith(  # no dev split: 10% held out
        "171,000 of 190,000 labelled rows (19,000 held out for evaluation): SetFit would take ")
    session.close()


def test_the_automatic_line_says_one_labelled_row_in_the_singular_in_english_and_chinese(qapp):
    """The Automatic line read "1 labelled rows: a linear head …": small_data's reasons said "{rows}
    labelled rows" whatever the count; they now count in small_data's COUNTS, as the estimate does."""
    import re

    from bertstudio import app as app_module
    from bertstudio.train.small_data import reasons_in, say
    from bertstudio.ui.train_settings import reasons_said, rows_said

    def reasons(rows: str) -> list:
        return [("embedding", {"rows": rows, "steps": "50"}),
                ("steps_windows", {"rows": rows, "windows": "3", "length": "128", "batch": "16", "epochs": "3",
                                   "steps": "50"})]

    said = reasons_said(reasons("1"), 1, 1)
    assert said.startswith("1 labelled row: a linear head on the sentence embedding"), said
    assert "; 1 labelled question, about 3 windows" in said and "rows" not in said and "questions" not in said
    assert reasons_said(reasons("12"), 12, 12).startswith("12 labelled rows: a linear head")
    assert reasons_said(reasons("9"), 9, 10).startswith("9 of 10 labelled rows: a linear head")
    assert rows_said(1, 1) == "1 labelled row" and rows_said(1234, 1234) == "1,234 labelled rows"
    assert reasons_in(say(reasons("1"))) == reasons("1")  # the run's English record reads back (Runs page)
    assert reasons_in("1 labelled rows: batch 16 and 3 epochs, for at least 50 optimizer steps") == [
        ("steps", {"rows": "1", "batch": "16", "epochs": "3", "steps": "50"})]  # a record of an earlier version
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        one, held = reasons_said(reasons("1"), 1, 1), reasons_said(reasons("9"), 9, 10)
        counted = rows_said(1, 1)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert one.startswith("已标注 1 行：句向量上的线性头") and "1 个已标注问题，约 3 个" in one, one
    assert held.startswith("已标注 9/10 行：") and held.endswith("；1 行留作评估"), held
    assert counted == "已标注 1 行"
    assert not re.search(r"[A-Za-z]{2,}", one.replace("u*v", "")), one


def test_the_timing_is_named_to_a_run_that_waits_for_it_and_a_cancelled_one_loads_no_model(monkeypatch):
    """Start -> Cancel -> Start while the libraries loaded: the second run's log said "Waiting for a
    training run to finish…" with no other run anywhere; the lock's holder was this page's timing of
    the computer, which took the turn under the default name and built its model although Start had
    already cancelled it. Now it holds the turn under its own name, and once cancelled it never starts."""
    import threading

    from bertstudio.train import training_lock
    from bertstudio.ui import train_estimate
    from bertstudio.ui.jobs import training_job_text

    held: list = []

    def fake_calibrate(model, **kw):  # the engine takes the turn as the real calibration's run does
        with training_lock.training_turn():
            held.append(training_lock.holder())
        return Throughput(10.0, "calibration", 32.0)

    monkeypatch.setattr(train_estimate, "calibrate", fake_calibrate)
    monkeypatch.setattr(train_estimate, "_calibrated", {})
    cancel = threading.Event()
    cancel.set()  # Start came first
    assert train_estimate.find_throughput([], "m", "cpu", cancel=cancel) is None
    assert held == []  # no model loaded for a timing nobody wants
    found = train_estimate.find_throughput([], "m", "cpu", cancel=threading.Event())
    assert found is not None and found.source == "calibration"
    assert held == [training_lock.SPEED_TIMING] != [training_lock.RUN]
    assert training_job_text(training_lock.SPEED_TIMING) == "the time estimate's timing"
