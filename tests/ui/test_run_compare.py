"""Runs page > Compare: two real runs of a project, selected with the mouse, their three counts read off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from bertstudio.train.sources import project_rows
from bertstudio.ui.run_compare import RunCompareDialog
from bertstudio.ui.runs_page import RunsPage


POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]


def _records(n: int, seed: int) -> list[dict]:
    """Separable toy sentiment for the tiny model (two positive or two negative words)."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        a, b = rng.sample(POS if i % 2 == 0 else NEG, 2)
        rows.append({"text": f"the movie was {a} and {b}", "label": "pos" if i % 2 == 0 else "neg"})
    return rows


def _train(session, name: str, epochs: float, lr: float, tiny: str) -> Path:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    project = session.project
    run_dir = project.new_run_dir(name)
    dev = session.examples("dev")
    config = TrainConfig(task="sentence", model=tiny, epochs=epochs, lr=lr, batch_size=8, max_length=32,
                         labels=["neg", "pos"], output_dir=str(run_dir), logging_steps=1, seed=3)
    # what the Train page does: each prediction names its project row
    assert train(config, session.examples("train"), project_rows(dev, range(len(dev)))).status == "finished"
    return run_dir


def _expected_counts(a: Path, b: Path) -> dict[str, int]:
    """Counted straight from the two predictions.jsonl files (label == gold), paired by project row."""
    def rows(folder: Path) -> dict[int, dict]:
        preds = [json.loads(line) for line in (folder / "predictions.jsonl").read_text().splitlines()]
        return {p["row"]: p for p in preds}

    ra, rb = rows(a), rows(b)
    counts = {"fixed": 0, "broken": 0, "both_wrong": 0}
    for row in ra.keys() & rb.keys():
        right_a, right_b = ra[row]["label"] == ra[row]["gold"], rb[row]["label"] == rb[row]["gold"]
        key = {(False, True): "fixed", (True, False): "broken", (False, False): "both_wrong"}.get((right_a, right_b))
        if key:
            counts[key] += 1
    return counts


@pytest.fixture
def two_runs(session_factory, tiny):
    train, dev = _records(48, 0), _records(24, 1)
    for i in (1, 4, 7):  # a few hard rows both runs get wrong: gold flipped against the words
        dev[i]["label"] = "neg" if dev[i]["label"] == "pos" else "pos"
    session = session_factory("sentence", ["neg", "pos"], {"train": train, "dev": dev})
    barely = _train(session, "barely-trained", 1, 1e-5, tiny)
    trained = _train(session, "trained", 4, 3e-3, tiny)
    return session, barely, trained


def _click_row(qtbot, table, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = table.visualRect(table.model().index(row, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_compare_two_runs_shows_their_three_counts(qtbot, two_runs, one_thread):
    session, barely, trained = two_runs
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.show()
    names = [r.name for r in page.model.runs]
    assert sorted(names) == ["barely-trained", "trained"]
    assert not page.compare_button.isEnabled()
    assert not page.follow_button.isEnabled()  # it was enabled with no run selected, and did nothing
    _click_row(qtbot, page.table, 0)
    assert not page.compare_button.isEnabled()  # one run is not a comparison
    assert page.follow_button.isEnabled()
    _click_row(qtbot, page.table, 1, Qt.KeyboardModifier.ControlModifier)
    assert page.compare_button.isEnabled() and not page.follow_button.isEnabled()
    qtbot.mouseClick(page.compare_button, Qt.MouseButton.LeftButton)
    dialog = page.findChild(RunCompareDialog)
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)

    expected = _expected_counts(barely, trained)
    assert dialog.counts() == expected
    assert expected["fixed"] > 0  # the runs really differ
    assert expected["broken"] + expected["both_wrong"] >= 1  # the flipped rows: the trained run gets them wrong
    tabs = [dialog.example_tabs.tabText(i) for i in range(3)]
    assert tabs[0].endswith(f": {expected['fixed']}") and tabs[1].endswith(f": {expected['broken']}")
    assert tabs[2].endswith(f": {expected['both_wrong']}")
    assert dialog.result.a.folder == barely  # the older run is A
    assert "McNemar" in dialog.summary.text() and "accuracy" in dialog.summary.text()
    assert ("lr", 1e-05, 0.003) in dialog.result.settings
    # the curves: distinct titles, plain loss numbers, the metric x100 as the Train page shows it
    assert dialog.loss_by_step.getPlotItem().titleLabel.text != dialog.loss_by_examples.getPlotItem().titleLabel.text
    assert not any(p.getAxis("left").autoSIPrefix for p in (dialog.loss_by_step, dialog.metric_plot))
    assert dialog.metric_plot.getAxis("left").labelText == "accuracy (x100)"
    _xs, ys = dialog.metric_plot.listDataItems()[0].getData()
    assert max(ys) > 1 and max(ys) <= 100

    bar = dialog.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(2).center())  # Examples
    fixed = dialog.lists["fixed"]
    qtbot.waitUntil(fixed.isVisible)
    qtbot.mouseClick(fixed.viewport(), Qt.MouseButton.LeftButton, pos=fixed.visualItemRect(fixed.item(0)).center())
    row = dialog.result.rows[dialog.result.outcomes.fixed[0]]
    assert session.row("dev", row.key[1])["text"] in dialog.detail.toPlainText()
    qtbot.mouseDClick(fixed.viewport(), Qt.MouseButton.LeftButton, pos=fixed.visualItemRect(fixed.item(0)).center())
    assert (session.current_split, session.current_row) == ("dev", row.key[1])
    # Enter opens the current example as a double-click does (it did nothing), and the Runs page passes it on
    # to the window, which shows it on the Label page (the dialog's example_activated reached nothing)
    session.set_current("train", 0)
    fixed.setFocus()
    with qtbot.waitSignal(page.example_activated, timeout=1000) as opened:
        qtbot.keyClick(fixed, Qt.Key.Key_Return)
    assert opened.args == ["dev", row.key[1]]
    assert (session.current_split, session.current_row) == ("dev", row.key[1])
    dialog.close()


def test_an_example_opened_from_compare_runs_is_shown_on_the_label_page(main_window, qtbot):
    """The comparison's example_activated was connected to nothing: the window stayed on Runs."""
    from bertstudio.data.examples import from_records

    session = main_window.session
    session.project.add_label("neg")
    session.project.add_label("pos")
    session.project.import_examples(from_records("sentence", _records(4, 0), labels=["neg", "pos"]), "dev")
    main_window.show_page("runs")
    main_window.pages["runs"].example_activated.emit("dev", 2)
    assert main_window.current_page_key() == "label"
    assert (session.current_split, session.current_row) == ("dev", 2)
    assert main_window.pages["label"].editor().row == 2


def test_a_run_that_never_evaluated_compares_by_its_curves(qtbot, two_runs, one_thread):
    """A cancelled run beside a finished one: "Cannot compare these runs: ... the run has no
    predictions", and the Curves tab stayed empty although both runs had a loss history."""
    session, barely, trained = two_runs
    (barely / "predictions.jsonl").unlink()  # as a run cancelled before its first evaluation leaves it
    page = RunsPage(session)
    qtbot.addWidget(page)
    page.show()
    _click_row(qtbot, page.table, 0)
    _click_row(qtbot, page.table, 1, Qt.KeyboardModifier.ControlModifier)
    qtbot.mouseClick(page.compare_button, Qt.MouseButton.LeftButton)
    dialog = page.findChild(RunCompareDialog)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    # it did evaluate (metrics.json holds its accuracy): the file is what is missing
    assert "barely-trained has no predictions.jsonl" in dialog.summary.text()
    assert "never evaluated" not in dialog.summary.text() and "Cannot compare" not in dialog.summary.text()
    assert len(dialog.loss_by_step.listDataItems()) == 2 and dialog.counts() == {"fixed": 0, "broken": 0, "both_wrong": 0}
    assert ("lr", 1e-05, 0.003) in dialog.result.settings
    dialog.close()


def _cli_run(folder: Path, train_file: Path, eval_file: Path, tiny: str) -> Path:
    """A run as ``bertstudio train --train T --eval E`` leaves it: no project rows."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    config = TrainConfig(task="sentence", model=tiny, train_file=str(train_file), eval_file=str(eval_file), epochs=1,
                         lr=1e-3, batch_size=8, max_length=16, logging_steps=1, seed=3, output_dir=str(folder))
    assert train(config).status == "finished"
    return folder


def _tsv(path: Path, rows: list[dict]) -> Path:
    path.write_text("sentence\tlabel\n" + "".join(f"{r['text']}\t{r['label']}\n" for r in rows), encoding="utf-8")
    return path


def test_runs_evaluated_on_different_files_compare_by_their_curves(qtbot, session_factory, tiny, tmp_path, one_thread):
    """Two CLI runs on the same training file, evaluated on two dev files that share no sentence:
    paired by position they read "43 shared evaluation rows ... 57 rows relabelled", with fixed and
    broken lists of unrelated sentences and a McNemar p."""
    train_file = _tsv(tmp_path / "train.tsv", _records(32, 0))
    first, second = _records(24, 1), [{**r, "text": "really " + r["text"]} for r in _records(24, 2)]
    assert not {r["text"] for r in first} & {r["text"] for r in second}
    dev_a, dev_b = _tsv(tmp_path / "dev.tsv", first), _tsv(tmp_path / "dev2.tsv", second)
    run_a = _cli_run(tmp_path / "run-a", train_file, dev_a, tiny)
    run_b = _cli_run(tmp_path / "run-b", train_file, dev_b, tiny)
    page = RunsPage(session_factory("sentence", ["neg", "pos"], {}))
    qtbot.addWidget(page)
    page.show()
    page.open_run(run_a)
    page.open_run(run_b)
    names = [r.name for r in page.model.runs]
    _click_row(qtbot, page.table, names.index("run-a"))
    _click_row(qtbot, page.table, names.index("run-b"), Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(page.compare_button.isEnabled)
    qtbot.mouseClick(page.compare_button, Qt.MouseButton.LeftButton)
    dialog = page.findChild(RunCompareDialog)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)

    summary = dialog.summary.text()
    assert "share no evaluated rows" in summary
    assert "McNemar" not in summary and "relabelled" not in summary and "shared evaluation rows" not in summary
    assert dialog.counts() == {"fixed": 0, "broken": 0, "both_wrong": 0}
    assert dialog.result.rows == [] and dialog.result.change is None
    assert len(dialog.loss_by_step.listDataItems()) == 2  # the curves still compare
    settings = {dialog.settings_table.item(i, 0).text(): (dialog.settings_table.item(i, 1).text(),
                                                         dialog.settings_table.item(i, 2).text())
                for i in range(dialog.settings_table.rowCount())}
    assert settings["eval_file"] == (str(dev_a), str(dev_b))
    dialog.close()


def test_the_settings_name_the_bundled_model(qtbot, tmp_path, tiny):
    """A run on the default model (no model in its config.toml) showed "model: —" in the settings
    diff, as if it had none."""
    import tomli_w

    from bertstudio.bundled import BUNDLED_TITLE

    for name, config in (("a", {"task": "sentence"}), ("b", {"task": "sentence", "model": tiny})):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.toml").write_text(tomli_w.dumps(config), encoding="utf-8")
    dialog = RunCompareDialog(None, tmp_path / "a", tmp_path / "b")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.compared, timeout=20_000):
        dialog.start()
    table = dialog.settings_table
    row = next(i for i in range(table.rowCount()) if table.item(i, 0).text() == "model")
    assert (table.item(row, 1).text(), table.item(row, 2).text()) == (BUNDLED_TITLE, Path(tiny).name)


def test_a_score_just_below_1_and_a_change_of_nothing_read_as_they_are(qtbot, two_runs, one_thread):
    """0.9996 read "100.0" and a bootstrap bound of -0.0004 "-0.0 points"."""
    from dataclasses import replace

    from bertstudio.metrics.compare import MetricChange

    session, barely, trained = two_runs
    dialog = RunCompareDialog(session, barely, trained)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.compared, timeout=60_000):
        dialog.start()
    dialog.show_result(replace(dialog.result, change=MetricChange("accuracy", 0.9996, 0.99982, -0.0004, 0.001)))
    text = dialog.summary.text()
    assert "accuracy: 99.96 → 99.98 (+0.0 points; 95% paired bootstrap interval +0.0 to +0.1" in text
    assert "100.0" not in text and "-0.0" not in text
    # both statistics resample the evaluation rows, not the training: said, since a seed alone moves a run
    assert "Both resample the evaluation rows only: the same settings trained with another seed can differ too" in text


def test_run_names_with_markup_characters_read_as_they_are(qtbot, tmp_path):
    """A run named "lr<1e-3 then 2e-3" (``--out 'runs/lr<1e-3 then 2e-3'``): Qt's rich-text guess took
    the summary for plain text and showed its <br> tags on one line; a name holding a tag was drawn
    as markup instead of its own characters, in the summary and in the curves' legends."""
    from dataclasses import replace

    from PySide6.QtGui import QTextDocument

    from bertstudio.metrics.compare import MetricChange, PairedOutcomes
    from bertstudio.train.compare_runs import SharedRow

    names = ("lr<1e-3 then 2e-3", "<b>bold & co")
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.toml").write_text('task = "sentence"\n', encoding="utf-8")
    dialog = RunCompareDialog(None, tmp_path / names[0], tmp_path / names[1])
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.compared, timeout=20_000):
        dialog.start()

    def shown(text: str) -> str:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()

    assert dialog.summary.textFormat() == Qt.TextFormat.RichText
    summary = shown(dialog.summary.text())
    assert summary.split("\n")[0] == f"A = {names[0]}, B = {names[1]}." and "<br>" not in summary
    legend = [label.item.toPlainText() for _sample, label in dialog.loss_by_step.getPlotItem().legend.items]
    assert legend == [f"A: {names[0]}", f"B: {names[1]}"]

    rows = [SharedRow(("#", i), "pos", {"label": "pos"}, {"label": "pos"}) for i in range(2)]
    dialog.show_result(replace(dialog.result, rows=rows, outcomes=PairedOutcomes([], [], [], 2),
                               change=MetricChange("accuracy", 1.0, 1.0, 0.0, 0.0)))
    summary = shown(dialog.summary.text())
    assert summary.startswith(f"A = {names[0]}, B = {names[1]}. 2 shared evaluation rows")
    assert "<br>" not in summary and "\naccuracy: 100.0 → 100.0" in summary  # on lines of their own
    dialog._on_failed("cannot read /runs/a<b/history.jsonl")
    assert shown(dialog.summary.text()) == "Cannot compare these runs: cannot read /runs/a<b/history.jsonl"
