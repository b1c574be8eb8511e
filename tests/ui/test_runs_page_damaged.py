"""Runs page with one damaged run folder: it is listed as damaged (the tooltip says which file and
why), the other runs still list, and comparing it says which file of which run is damaged."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import RunFinished, event_to_dict
from bertstudio.ui.run_compare import RunCompareDialog
from bertstudio.ui.runs_page import RunsPage

DEEP = "[" * 100_000 + "]" * 100_000


def _run(folder: Path, metrics: str = '{"accuracy": 0.75}') -> Path:
    """A finished run's files, written as the engine writes them (no training)."""
    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(folder)).save(folder / "config.toml")
    ended = RunFinished(status="finished", step=2, metrics={"accuracy": 0.75})
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(ended)) + "\n", encoding="utf-8")
    (folder / "metrics.json").write_text(metrics, encoding="utf-8")
    preds = [{"index": i, "gold": g, "label": "pos"} for i, g in enumerate(["pos", "neg", "pos"])]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds), encoding="utf-8")
    return folder


def _click_row(qtbot, table, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = table.visualRect(table.model().index(row, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_a_damaged_run_is_listed_as_damaged_and_cannot_hide_the_others(qtbot, qtmodeltester, session_factory):
    session = session_factory("sentence", ["neg", "pos"])
    project = session.project
    _run(project.new_run_dir("good-a"))
    bad = _run(project.new_run_dir("bad"), metrics='{"accuracy": ' + DEEP + "}")
    _run(project.new_run_dir("good-b"))
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.show()
    model = page.model
    qtmodeltester.check(model)
    rows = {model.data(model.index(r, 0)): r for r in range(model.rowCount())}
    assert set(rows) == {"good-a", "bad", "good-b"}
    status = {name: model.data(model.index(r, 1)) for name, r in rows.items()}
    assert status == {"good-a": "finished", "bad": "damaged", "good-b": "finished"}
    tip = model.data(model.index(rows["bad"], 1), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("<qt>" + str(bad / "metrics.json")) and "\n" not in tip
    assert model.data(model.index(rows["good-a"], 8)) == "accuracy 75.0"  # the good runs keep their score

    _click_row(qtbot, page.table, rows["good-a"])
    _click_row(qtbot, page.table, rows["bad"], Qt.KeyboardModifier.ControlModifier)
    assert page.compare_button.isEnabled()
    qtbot.mouseClick(page.compare_button, Qt.MouseButton.LeftButton)
    dialog = page.findChild(RunCompareDialog)
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.summary.text().startswith("Cannot compare"), timeout=30_000)
    text = dialog.summary.text()
    assert f": {bad / 'metrics.json'}: JSON nested too deeply" in text and "Error" not in text


def test_the_mode_column_says_what_learned_in_words(qtbot, session_factory):
    """The Mode column showed the stored value ("top-3", "full"), English in the Chinese app too."""
    session = session_factory("sentence", ["neg", "pos"])
    for name, mode in (("a", "full"), ("b", "top-3"), ("c", "lora"), ("d", "frozen")):
        folder = _run(session.project.new_run_dir(name))
        TrainConfig(task="sentence", labels=["neg", "pos"], mode=mode, output_dir=str(folder)).save(folder / "config.toml")
    page = RunsPage(session)
    qtbot.addWidget(page)
    model = page.model
    shown = {model.data(model.index(r, 0)): model.data(model.index(r, 4)) for r in range(model.rowCount())}
    assert shown == {"a": "full", "b": "top 3 layers", "c": "LoRA", "d": "frozen"}


def test_a_setfit_run_says_so_and_why_it_was_chosen(qtbot, session_factory):
    """A SetFit run read "frozen · 5e-05 (head 0.001)", exactly as a plain linear probe, and the
    Runs page never said why bertstudio chose it."""
    session = session_factory("sentence", ["neg", "pos"])
    why = "32 labelled rows (at most 16 per class): SetFit, which learns most from few labels per class"
    for name, method in (("probe", "finetune"), ("setfit", "setfit")):
        folder = _run(session.project.new_run_dir(name))
        TrainConfig(task="sentence", labels=["neg", "pos"], method=method, head="embedding", mode="frozen",
                    auto_reason=why if method == "setfit" else None, output_dir=str(folder)).save(folder / "config.toml")
    page = RunsPage(session)
    qtbot.addWidget(page)
    model = page.model
    mode = model.COLUMNS.index("mode")
    rows = {model.data(model.index(r, 0)): r for r in range(model.rowCount())}
    assert model.data(model.index(rows["probe"], mode)) == "frozen"
    assert model.data(model.index(rows["setfit"], mode)) == "SetFit"
    tip = Qt.ItemDataRole.ToolTipRole
    assert why in model.data(model.index(rows["setfit"], mode), tip)
    assert not model.data(model.index(rows["probe"], mode), tip)


def test_a_chosen_runs_tooltip_is_text_and_keeps_why_it_failed(qtbot, session_factory):
    """auto_reason comes from a run's config.toml (a received project can hold anything there):
    shown unescaped, Qt read '<img src=...>' in it as markup. On the mode/epochs/lr/batch cells it
    also replaced the run's own message, so a failed Automatic run no longer said why it failed."""
    session = session_factory("sentence", ["neg", "pos"])
    folder = _run(session.project.new_run_dir("auto"))
    why = '<img src="file:///dev/zero" width=99999> 16 rows'
    TrainConfig(task="sentence", labels=["neg", "pos"], auto_reason=why, output_dir=str(folder)).save(folder / "config.toml")
    ended = RunFinished(status="failed", step=1, metrics={}, message="out of memory <b>on cpu</b>")
    (folder / "history.jsonl").write_text(json.dumps(event_to_dict(ended)) + "\n", encoding="utf-8")
    page = RunsPage(session)
    qtbot.addWidget(page)
    model = page.model
    tip = model.data(model.index(0, model.COLUMNS.index("mode")), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("<qt>") and tip.endswith("</qt>")
    assert '&lt;img src="file:///dev/zero" width=99999&gt; 16 rows' in tip and "<img" not in tip
    assert "out of memory &lt;b&gt;on cpu&lt;/b&gt;" in tip
    status_tip = model.data(model.index(0, model.COLUMNS.index("status")), Qt.ItemDataRole.ToolTipRole)
    assert "out of memory &lt;b&gt;on cpu&lt;/b&gt;" in status_tip and "<b>" not in status_tip


def test_an_interrupted_project_run_offers_no_resume_command_that_fails(qtbot, session_factory):
    """The row of a killed app run said "continue it with: bertstudio train --config … --resume …",
    a command that always fails for a run trained on its project's rows; it says what can be done."""
    import socket

    from bertstudio.train.events import RunStarted

    session = session_factory("sentence", ["neg", "pos"])
    run = session.project.new_run_dir("killed")
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")  # no data file
    started = RunStarted(40, 16, 4, 10, 8, 100, 100, "cpu", "fp32", host=socket.gethostname())
    (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")
    (run / "checkpoints" / "last").mkdir(parents=True)
    (run / "checkpoints" / "last" / "state.json").write_text('{"step": 12}', encoding="utf-8")
    page = RunsPage(session)
    qtbot.addWidget(page)
    model = page.model
    qtbot.waitUntil(lambda: model.rowCount() == 1 and model.data(model.index(0, 1)) == "interrupted", timeout=5000)
    tip = model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
    assert "--resume" not in tip and "resume it in the app (Runs page, select it, Resume)" in tip
    page.table.selectRow(0)
    # its checkpoint keeps no fingerprints of its rows (written before they were kept): nothing could check them
    assert not page.resume_button.isEnabled() and "older bertstudio" in page.resume_button.toolTip()
    # (the fingerprints of the project's rows as they are: rows changed since the stop are refused, test_runs_list)
    from bertstudio.train.sources import data_fingerprint, project_rows

    rows = project_rows(session.project.examples("train"), [])
    state = {"step": 12, "data": data_fingerprint(rows), "eval_data": None}
    (run / "checkpoints" / "last" / "state.json").write_text(json.dumps(state), encoding="utf-8")
    page.table.clearSelection()
    page.table.selectRow(0)
    assert page.resume_button.isEnabled()  # it kept a checkpoint: Resume goes on from it


def test_a_crashed_run_without_a_checkpoint_is_not_offered_resume_and_says_why(qtbot, session_factory):
    """Only a cancelled run keeps checkpoints/last; a crashed or killed one (interrupted, no checkpoint)
    had Resume enabled, which then refused it as one that "stopped before its first step"."""
    import socket

    from bertstudio.train.events import RunStarted

    session = session_factory("sentence", ["neg", "pos"])
    run = session.project.new_run_dir("crashed")
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
    started = RunStarted(40, 16, 4, 10, 8, 100, 100, "cpu", "fp32", host=socket.gethostname())
    (run / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n", encoding="utf-8")
    page = RunsPage(session)
    qtbot.addWidget(page)
    model = page.model
    qtbot.waitUntil(lambda: model.rowCount() == 1 and model.data(model.index(0, 1)) == "interrupted", timeout=5000)
    page.table.selectRow(0)
    assert not page.resume_button.isEnabled()
    assert "kept no checkpoint" in page.resume_button.toolTip() and "crashed or killed" in page.resume_button.toolTip()


def test_a_run_killed_before_it_saved_anything_says_so(qtbot, session_factory):
    """A SetFit run killed as it started left only label_ids.json: the Runs page showed "unknown" with
    every other column empty (newcomer2 sweep), with no word of what happened or what to do."""
    session = session_factory("sentence", ["neg", "pos"])
    project = session.project
    _run(project.new_run_dir("good"))
    empty = project.new_run_dir("killed")
    (empty / "label_ids.json").write_text('{"neg": 0, "pos": 1}', encoding="utf-8")
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.show()
    model = page.model
    rows = {model.data(model.index(r, 0)): r for r in range(model.rowCount())}
    row = rows["killed"]
    assert model.data(model.index(row, 1)) == "interrupted before it saved anything"
    assert "nothing in this folder can be used" in model.data(model.index(row, 1), Qt.ItemDataRole.ToolTipRole)
    assert model.data(model.index(row, 9))  # when it started: the folder's time
    assert model.data(model.index(rows["good"], 1)) == "finished"


def test_the_window_lists_runs_whose_numbers_or_reading_fail(qtbot, session_factory, monkeypatch):
    """A 400-digit number in metrics.json raised OverflowError out of read_run: the window could not
    be built (out of the Playground's list) and clicking Runs ended the app (a segmentation fault).
    The number is left out; and a run whose reading fails for any other reason is listed damaged."""
    from bertstudio.train import rundir
    from bertstudio.ui.main_window import MainWindow

    session = session_factory("sentence", ["neg", "pos"])
    project = session.project
    huge = "9" * 400
    broken = _run(project.new_run_dir("broken"))  # not the latest: Results reads that one itself (read_run)
    _run(project.new_run_dir("good"))
    _run(project.new_run_dir("huge"), metrics='{"accuracy": ' + huge + ', "f1": 0.5, "last_evaluation": {"f1": '
         + huge + "}}")
    read_run = rundir.read_run

    def read_or_fail(folder):
        if Path(folder) == broken:
            raise OverflowError("int too large to convert to float")
        return read_run(folder)

    monkeypatch.setattr(rundir, "read_run", read_or_fail)
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    window.show_page("runs")
    model = window.pages["runs"].model
    rows = {model.data(model.index(r, 0)): r for r in range(model.rowCount())}
    status = {name: model.data(model.index(r, 1)) for name, r in rows.items()}
    assert status == {"good": "finished", "huge": "finished", "broken": "damaged"}
    assert model.data(model.index(rows["good"], 8)) == "accuracy 75.0"
    tip = model.data(model.index(rows["broken"], 1), Qt.ItemDataRole.ToolTipRole)
    assert "OverflowError: int too large" in tip
