"""Tools > Labelling assistant: the in-app switch of the open project's assistant.

Off stops suggestions, refits and training at once (the cancel flag is set while a training is
held mid-step), hides the suggestions in the Label page and the Data table, never touches a
gold label and runs nothing while off; on brings them back from the cached embeddings. The
choice is kept in the project; BERTSTUDIO_ASSIST=0 (the suite's default) still forces it off.
"""

from __future__ import annotations

import json
import threading

import numpy as np
from PySide6.QtCore import QSettings, Qt

from assist_helpers import WAIT_MS, assisted, sentiment_rows  # noqa: F401 - the fixture
from bertstudio.ui.assist_controller import PROJECT_KEY
from test_assist_label_page import held_factory


def assist_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("bertstudio-assist")]


def suggested_column(window) -> bool:
    model = window.pages["data"].model
    last = model.columnCount() - 1
    return last >= 0 and model.headerData(last, Qt.Orientation.Horizontal) == "Suggested"


def test_switching_the_assistant_off_stops_its_work_and_hides_suggestions_and_on_brings_them_back(
        qtbot, assisted, tiny):
    rows, gold = sentiment_rows(60)
    made = []
    factory = held_factory(tiny, strong_every=0, strong_method="finetune")
    a = assisted(rows, window=True, factory=lambda *args: made.append(factory(*args)) or made[-1])
    window, editor, project, assist = a.window, a.editor, a.project, a.assist
    first = assist.assistant
    action = window.assistant_action
    tools = next(m.menu() for m in window.menuBar().actions() if action in m.menu().actions())
    assert action.isCheckable() and action.isChecked() and action.isEnabled()
    assert action.toolTip() and tools.toolTipsVisible()
    qtbot.waitUntil(lambda: editor.suggestion_label.text().startswith("Suggested"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: suggested_column(window), timeout=WAIT_MS)
    for _ in range(12):
        qtbot.keyClick(editor, a.key_for(gold[editor.row]))
    qtbot.waitUntil(window.train_assistant_action.isEnabled, timeout=WAIT_MS)
    window.train_assistant_action.trigger()
    qtbot.waitUntil(first.training.is_set, timeout=WAIT_MS)  # held inside a training step
    threads = list(first._threads)
    labelled = {r: project.gold("train", r) for r in range(60) if project.gold("train", r) is not None}
    assert len(labelled) == 12

    action.trigger()  # off, while the training is held mid-step: the GUI does not wait for it
    assert not action.isChecked() and assist.assistant is None and not assist.is_on()
    assert first._cancel.is_set()  # the training stops after its current step
    assert not editor.suggestion_label.isVisible() and editor.suggestion_label.text() == ""
    assert not suggested_column(window)
    assert not a.page.chart.isVisible() and not window.train_assistant_action.isEnabled()
    assert project.ui_state[PROJECT_KEY] is False
    saved = json.loads((project.folder / "project.json").read_text(encoding="utf-8"))
    assert saved["ui_state"][PROJECT_KEY] is False  # kept with the project
    first.train_gate.set()
    qtbot.waitUntil(lambda: not assist_threads(), timeout=WAIT_MS)
    assert not any(t.is_alive() for t in threads) and first._training.get("status") == "cancelled"
    assert {r: project.gold("train", r) for r in labelled} == labelled  # no gold label touched

    for _ in range(5):  # label keys still label and move on; nothing runs in the background
        row = editor.row
        qtbot.keyClick(editor, a.key_for(gold[row]))
        assert project.gold("train", row) == gold[row] and editor.row != row
        assert assist_threads() == [] and assist.assistant is None and editor.suggestion_label.text() == ""
    assert len(made) == 1 and project.progress("train") == (17, 60)

    action.trigger()  # on again: a new assistant from the cached embeddings, knowing every label
    assert action.isChecked() and assist.is_on() and project.ui_state[PROJECT_KEY] is True
    qtbot.waitUntil(lambda: assist.assistant is not None and assist.scores() is not None, timeout=WAIT_MS)
    second = assist.assistant
    assert len(made) == 2 and second is made[1] and second.counts()["labelled"] == 17
    assert second._cache.computed == 0 and second._cache.hits >= 60  # nothing embedded twice
    qtbot.waitUntil(lambda: suggested_column(window), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: editor.suggestion_label.text().startswith("Suggested"), timeout=WAIT_MS)
    assert a.page.chart.isVisible()
    row = editor.row
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # Enter accepts a suggestion again
    assert project.gold("train", row) == second.suggestion("train", row).value


def test_the_choice_is_kept_with_the_project(qtbot, assisted, tmp_path):
    from bertstudio.ui.session import ProjectSession

    rows, _ = sentiment_rows(20)
    a = assisted(rows, strong_every=0)
    a.assist.set_on(False)
    folder = a.project.folder
    a.session.close()
    session = ProjectSession(settings=QSettings(str(tmp_path / "other.ini"), QSettings.Format.IniFormat))
    session.assist.enabled, session.assist.settings = True, a.assist.settings
    qtbot.waitUntil(lambda: not assist_threads(), timeout=WAIT_MS)
    session.open_folder(str(folder))
    try:
        assert not session.assist.wanted and not session.assist.is_on()
        assert assist_threads() == []  # nothing was started, not even the imports
        session.assist.set_on(True)
        qtbot.waitUntil(lambda: session.assist.assistant is not None, timeout=WAIT_MS)
    finally:
        session.close()


def test_the_environment_still_forces_it_off(qtbot, session_factory):
    from bertstudio.ui.main_window import MainWindow

    session = session_factory("sentence", ["neg", "pos"])  # the suite runs with BERTSTUDIO_ASSIST=0
    window = MainWindow(session)
    qtbot.addWidget(window)
    action = window.assistant_action
    assert not session.assist.enabled and not action.isEnabled() and not action.isChecked()
    assert "BERTSTUDIO_ASSIST" in action.toolTip()
    action.trigger()
    session.assist.set_on(True)
    assert session.assist.assistant is None and not session.assist.is_on() and assist_threads() == []
    assert PROJECT_KEY not in session.project.ui_state


def test_while_the_assistant_loads_the_page_and_status_bar_say_it_is_starting_not_off(qtbot):
    # the libraries and the model take seconds to a minute to load before the assistant exists;
    # the chart said "Labelling assistant off" and the status bar nothing all that time
    from bertstudio.ui.assist_chart import audit_line
    from bertstudio.ui.assist_controller import AssistController
    from bertstudio.ui.assist_status import AssistStatus

    controller = AssistController()
    controller.enabled, controller.wanted, controller._project = True, True, object()  # on, not created yet
    status = AssistStatus(controller)
    qtbot.addWidget(status)
    status.update_status()
    assert controller.assistant is None and controller.is_on()
    assert audit_line(controller) == "Labelling assistant starting…"
    assert not status.isHidden() and status.label.text() == "Assistant: starting"
    controller.enabled = False
    status.update_status()
    assert audit_line(controller) == "Labelling assistant off" and status.isHidden()


def test_the_status_bar_counts_the_rows_the_new_model_has_scored(qtbot):
    """The sweep's D3: after its training steps a strong model scores the whole pool (45 s on 5,000
    sentences), and the bar was hidden all that time although the core reported the rows done."""
    from bertstudio.ui.assist_controller import AssistController
    from bertstudio.ui.assist_status import AssistStatus

    controller = AssistController()
    controller.enabled, controller.wanted, controller._project = True, True, object()
    now: dict = {}
    controller.status = lambda: now
    status = AssistStatus(controller)
    qtbot.addWidget(status)
    training = {"status": "scoring", "method": "finetune"}
    # the scoring has begun, no batch is scored yet (the embedding's count is still in the snapshot)
    now.update(phase="ready", ready=True, shown="fast", training=training,
               progress={"task": "embedding", "done": 5000, "total": 5000})
    status.update_status()
    assert not status.bar.isHidden() and status.bar.maximum() == 0  # busy, not the embedding's full bar
    now["progress"] = {"task": "scoring", "done": 1200, "total": 5000}
    status.update_status()
    assert not status.bar.isHidden() and (status.bar.value(), status.bar.maximum()) == (1200, 5000)
    assert "scoring with the new" in status.label.text() and "1,200/5,000" in status.label.text()
    # a restored model is scored at reopen in the same way
    now["training"] = {"status": "scoring", "method": "finetune", "restored": True}
    now["progress"] = {"task": "scoring", "done": 10, "total": 5000}
    status.update_status()
    assert (status.bar.value(), status.bar.maximum()) == (10, 5000)
    now["training"] = {"status": "finished", "method": "finetune"}
    status.update_status()
    assert status.bar.isHidden()


def test_one_audit_label_is_said_in_the_singular():
    from types import SimpleNamespace

    from bertstudio.ui.assist_chart import audit_line

    def line(n, accuracy, words=0):
        stats = SimpleNamespace(n=n, accuracy=accuracy, low=0.2, high=1.0, words=words)
        return audit_line(SimpleNamespace(audit=lambda: stats, is_on=lambda: True, model_in_loop=lambda: True))

    # below 5 labels no accuracy: "Audit accuracy 0% (0%-79%)" after one label was read as "0%"
    assert line(1, 0.0) == "1 audit label so far: too few for an accuracy"
    assert line(4, 0.5) == "4 audit labels so far: too few for an accuracy"
    assert line(5, 0.6) == "Audit accuracy 60% (20%-100%), 5 audit labels"  # the interval kept
    assert line(250, 249 / 250) == "Audit accuracy 99.6% (20%-100%), 250 audit labels"  # not "100%"
    assert line(1, None) == "1 audit label" and line(3, None) == "3 audit labels"
    # tagging: the checks are sentences ("8 audit labels" was one sentence of eight words)
    assert line(1, 0.25, words=8) == "Audit accuracy 25% (20%-100%) on 8 words, 1 audit sentence"
    assert line(3, 0.5, words=30) == "Audit accuracy 50% (20%-100%) on 30 words, 3 audit sentences"


def test_audit_labels_with_no_model_to_check_say_no_model_yet():
    """Right after a label removal the models (and their audit figures) are dropped until the refit:
    with audit labels made, "No audit labels yet" was wrong too."""
    from types import SimpleNamespace

    from bertstudio.assist.audit import audit_stats
    from bertstudio.ui.assist_chart import audit_line

    def line(audit_labels):
        return audit_line(SimpleNamespace(audit=lambda: audit_stats(np.zeros(0)), is_on=lambda: True,
                                          model_in_loop=lambda: True, counts=lambda: {"audit": audit_labels}))

    assert line(2) == "Audit: no model yet"
    assert line(0) == "No audit labels yet: every 10th example is a random check"
