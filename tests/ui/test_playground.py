"""Playground: a typed sentence is predicted off the GUI thread by a real trained run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.metrics.display import format_share
from bertstudio.ui.playground import PlaygroundPage
from bertstudio.ui.session import ProjectSession

LABELS = ["neg", "pos"]


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory, tiny_model_dir) -> Path:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    rows = [{"text": t, "label": l} for t, l in [("good movie", "pos"), ("bad movie", "neg"), ("great film", "pos"),
                                                   ("terrible film", "neg")] * 4]
    dev = from_records("sentence", [{"text": "very good film", "label": "pos"}, {"text": "very bad film", "label": "neg"}], labels=LABELS)
    out = tmp_path_factory.mktemp("pg") / "run"
    config = TrainConfig(task="sentence", labels=LABELS, model=str(tiny_model_dir), epochs=1, batch_size=4, lr=1e-3,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    result = train(config, from_records("sentence", rows, labels=LABELS), dev)
    assert result.status == "finished", result.message
    return out


@pytest.fixture
def page(qtbot, tmp_path, trained_run):
    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    shutil.copytree(trained_run, project.runs_dir / "tiny")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    yield page
    project.close(compact=False)


def test_typed_sentence_is_predicted_with_probabilities(qtbot, page, trained_run):
    assert page.run_combo.count() == 1 and "latest" in page.run_combo.currentText()
    assert not page.input2.isVisibleTo(page)  # one sentence for a sentence task
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        qtbot.keyClicks(page.input, "very good film")
        qtbot.mouseClick(page.predict_button, Qt.MouseButton.LeftButton)
    result = shown.args[0]
    assert result["label"] in LABELS
    assert sum(result["probs"].values()) == pytest.approx(1.0, abs=1e-5)
    # The engine's own evaluation of the same sentence (predictions.jsonl, another code path)
    # must agree with what the Playground shows.
    evaluated = json.loads((trained_run / "predictions.jsonl").read_text().splitlines()[0])
    assert result["label"] == evaluated["label"]
    assert result["probs"]["pos"] == pytest.approx(evaluated["probs"]["pos"], abs=1e-4)
    text = page.output.toPlainText()
    assert result["label"] in text and f"{format_share(result['probs']['pos'], 1)}" in text


def test_stale_answers_never_overwrite_newer_input(qtbot, page):
    page.input.setPlainText("good movie")
    page.predict()
    page.input.setPlainText("bad movie")
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        page.predict()
    qtbot.waitUntil(lambda: page.status.text() == "", timeout=60_000)
    assert shown.args[0]["inputs"] == {"text": "bad movie"}
    assert page.last_result["inputs"] == {"text": "bad movie"}


def test_without_a_trained_run_the_page_says_so(qtbot, tmp_path):
    project = Project.create(tmp_path / "empty", name="e", kind="sentence", labels=LABELS)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    assert page.run_combo.count() == 0 and not page.predict_button.isEnabled()
    assert "Train a model first" in page.status.text()
    project.close(compact=False)


def test_a_probability_just_below_1_does_not_read_100(qtbot, tmp_path):
    project = Project.create(tmp_path / "sure", name="s", kind="sentence", labels=LABELS)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    shown = page.result_html({"label": "pos", "probs": {"pos": 0.9996, "neg": 0.0004}})
    assert "99.96%" in shown and "0.04%" in shown and "100.0%" not in shown and "0.0%" not in shown
    project.close(compact=False)


def test_pair_task_asks_for_both_sentences(qtbot, tmp_path, tiny_model_dir):
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    labels = ["no", "yes"]
    rows = [{"text": a, "text_pair": b, "label": l} for a, b, l in
            [("a dog", "a dog", "yes"), ("a cat", "a dog", "no"), ("the city", "the city", "yes"), ("paris", "london", "no")] * 3]
    project = Project.create(tmp_path / "pair", name="p", kind="pair", labels=labels)
    out = project.new_run_dir("pair")
    config = TrainConfig(task="pair", labels=labels, model=str(tiny_model_dir), epochs=1, batch_size=4, lr=1e-3,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    examples = from_records("pair", rows, labels=labels)
    assert train(config, examples, examples.select(range(4))).status == "finished"
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    assert page.kind == "pair" and page.input2.isVisibleTo(page)
    qtbot.keyClicks(page.input, "a dog")
    assert page.inputs() is None  # the second sentence is still missing
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        qtbot.keyClicks(page.input2, "a cat")  # typing, then a pause, predicts by itself
    assert shown.args[0]["inputs"] == {"text": "a dog", "text_pair": "a cat"}
    assert shown.args[0]["label"] in labels
    project.close(compact=False)


def test_a_long_input_is_predicted_as_the_runs_evaluation_reads_it(qtbot, page, trained_run):
    """More than 128 tokens typed in: the Playground cuts it where the run did (max_length 16
    here), so it shows what evaluate() gives for the same text."""
    from bertstudio.data.examples import from_records
    from bertstudio.train.engine import evaluate

    text = " ".join(["very good film"] * 3 + ["terrible bad movie"] * 45)  # > 128 tokens
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        page.input.setPlainText(text)
        qtbot.mouseClick(page.predict_button, Qt.MouseButton.LeftButton)
    _, rows = evaluate(trained_run / "model", from_records("sentence", [{"text": text}], labels=LABELS))
    assert shown.args[0]["probs"]["pos"] == pytest.approx(rows[0]["probs"]["pos"], abs=1e-5)
    # and says so: a pasted review was answered from its first tokens without a word (a new-user sweep)
    cut = shown.args[0]["truncated"]
    assert cut["read"] == 16 and cut["of"] > 128
    assert f"Only the first 16 of {cut['of']} tokens were read" in page.status.text()
    # a short input is read whole and the line goes
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
        page.input.setPlainText("very good film")
        qtbot.mouseClick(page.predict_button, Qt.MouseButton.LeftButton)
    assert "truncated" not in shown.args[0] and page.status.text() == ""


def test_closing_the_project_empties_the_model_cache(qtbot, page):
    from bertstudio.ui.playground import load_predictor

    load_predictor.cache_clear()  # models other tests of this module loaded
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
        page.input.setPlainText("good movie")
        page.predict()
    assert load_predictor.cache_info().currsize == 1
    page.session.close()
    assert load_predictor.cache_info().currsize == 0


def test_an_emptied_box_clears_the_answer_and_says_what_to_type(qtbot, page):
    """Predict did nothing, without a word, when a box was empty, and the last answer stayed
    under a context the user had since cleared."""
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
        page.input.setPlainText("good movie")
        page.predict()
    assert page.output.toPlainText()
    page.input.setPlainText("   ")
    page.predict()
    assert page.output.toPlainText() == "" and page.status.text() == "Type the sentence to predict."


def test_a_deleted_model_folder_clears_the_answer_and_says_so(qtbot, page):
    """The run's model/ deleted after a prediction: the old answer stayed under the new text and
    the status read 'FileNotFoundError: [Errno 2] ...config.json'."""
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
        page.input.setPlainText("good movie")
        page.predict()
    shutil.rmtree(page.model_dir())
    page.input.setPlainText("bad movie")
    page.predict()
    qtbot.waitUntil(lambda: page.status.text().startswith("Could not predict"), timeout=60_000)
    assert page.output.toPlainText() == "" and page.last_result is None
    assert "model folder is gone" in page.status.text() and "Errno" not in page.status.text()


def test_the_newest_finished_run_is_chosen_not_a_cancelled_one(qtbot, tmp_path, trained_run):
    """The Playground picked the newest run even when it was cancelled after 2 steps, while
    Results showed the finished one."""
    import os

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    shutil.copytree(trained_run, project.runs_dir / "a-finished")
    cancelled = project.runs_dir / "b-cancelled"
    shutil.copytree(trained_run, cancelled)
    history = cancelled / "history.jsonl"
    lines = history.read_text().splitlines()
    history.write_text("\n".join(l for l in lines if '"finished"' not in l) + "\n")  # the run never finished
    os.utime(cancelled, (os.path.getmtime(cancelled) + 60,) * 2)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        texts = [page.run_combo.itemText(i) for i in range(page.run_combo.count())]
        assert page.current_run().name == "a-finished" and "latest" in page.run_combo.currentText()
        assert "b-cancelled (not finished)" in texts
    finally:
        project.close(compact=False)


def test_a_score_outside_the_benchmarks_scale_is_shown_as_the_model_gives_it_and_said(qtbot, tmp_path, tiny_model_dir):
    """A drive's STS-B model scored identical sentences 5.53 in the Playground, on a 0-5 scale,
    without a word. The score stays the model's own (evaluation and `predict` use it as it is);
    the page says it is past the scale's end. A run without a scale says nothing more."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    rows = [{"text": f"a man plays {w}", "text_pair": f"a man is playing {w}", "label": float(i % 6)}
            for i, w in enumerate(["good", "bad", "great", "fun", "movie", "film"] * 2)]
    project = Project.create(tmp_path / "proj", name="s", kind="regression")
    out = project.runs_dir / "stsb"
    config = TrainConfig(task="regression", glue_task="STS-B", model=str(tiny_model_dir), epochs=1, batch_size=4,
                         max_length=16, device="cpu", precision="fp32", output_dir=str(out))
    assert train(config, from_records("regression", rows), from_records("regression", rows[:4])).status == "finished"
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
            qtbot.keyClicks(page.input, "a man plays good")
            qtbot.keyClicks(page.input2, "a man is playing good")
            qtbot.mouseClick(page.predict_button, Qt.MouseButton.LeftButton)
        inside = shown.args[0]  # a tiny model's guess
        assert ("scale the model learned from" in page.output.toPlainText()) == (not 0 <= inside["score"] <= 5)
        above = page.result_html({**inside, "score": 5.53})
        assert "5.530" in above and "Past the top of the 0-5 scale the model learned from: read it as 5 (shown unclipped" in above
        below = page.result_html({**inside, "score": -0.25})
        assert "-0.250" in below and "Past the bottom of the 0-5 scale the model learned from: read it as 0" in below
        page._scale = None  # a run of no benchmark: no scale to be outside of
        assert "scale" not in page.result_html({**inside, "score": 7.0})
        assert "alone" not in page.status.text()
        # the second box emptied: a model trained on pairs is not scored on one sentence (it was, first
        # without a word, then with a note only here while `bertstudio predict` and predict.py said nothing)
        page.input2.clear()
        page.predict()
        assert page.output.toPlainText() == "" and page.status.text() == "Type the second sentence to predict."
    finally:
        project.close(compact=False)


def test_a_run_opened_from_another_project_is_marked_and_not_chosen(qtbot, tmp_path, trained_run):
    """A teacher opened another project's run folder (as the scoreboard's hint says): the
    Playground picked it as '(latest)' in this project, before the project's own run."""
    from bertstudio.ui.runs_page import add_external_run

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    shutil.copytree(trained_run, project.runs_dir / "own")
    elsewhere = tmp_path / "other" / "theirs"
    shutil.copytree(trained_run, elsewhere)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    add_external_run(session, elsewhere)
    add_external_run(session, project.runs_dir / "own")  # opened to follow it: still this project's run
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        texts = [page.run_combo.itemText(i) for i in range(page.run_combo.count())]
        assert texts == ["own (latest)", "theirs (not in this project)"]
        assert page.current_run().name == "own"
    finally:
        project.close(compact=False)


def test_choosing_another_run_drops_the_answer_on_its_way_and_predicts_again(qtbot, tmp_path, trained_run):
    """Predict, then switch the run while the answer was computed: the first run's answer
    appeared under the second run's name. Now it is dropped and the second run predicts."""
    from bertstudio.ui.playground import predict_with

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    shutil.copytree(trained_run, project.runs_dir / "a")
    shutil.copytree(trained_run, project.runs_dir / "b")
    config = project.runs_dir / "b" / "model" / "config.json"  # b names the classes the other way round
    data = json.loads(config.read_text())
    data["id2label"] = {"0": LABELS[1], "1": LABELS[0]}
    data["label2id"] = {LABELS[1]: 0, LABELS[0]: 1}
    config.write_text(json.dumps(data))
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        page.input.setPlainText("good movie")
        page.predict()
        other = 1 - page.run_combo.currentIndex()
        expected = predict_with(str(page.run_at(other) / "model"), {"text": "good movie"})
        shown: list = []
        page.prediction_shown.connect(shown.append)
        page.run_combo.setCurrentIndex(other)
        qtbot.waitUntil(lambda: len(shown) >= 1, timeout=60_000)
        qtbot.waitUntil(lambda: page.status.text() == "", timeout=60_000)
        assert [r["probs"] for r in shown] == [expected["probs"]]  # the chosen run's, and only its
        assert page.last_result["probs"] == expected["probs"]
    finally:
        project.close(compact=False)


def test_the_run_picked_stays_picked_when_runs_are_added_or_renamed(qtbot, tmp_path, trained_run):
    """The Playground went to the newest run whenever the runs changed (a run ended, another was
    renamed): the sentence typed got another model's answer with nothing said. The pick stays
    (also through its own rename); only "(latest)" moves on to a newer run."""
    import os

    from bertstudio.train.rundir import rename_run

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    stamp = os.path.getmtime(trained_run)

    def add_run(name: str, age: int) -> Path:
        folder = project.runs_dir / name
        shutil.copytree(trained_run, folder)
        os.utime(folder, (stamp + age,) * 2)
        return folder

    add_run("a", 10)
    add_run("b", 20)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)

    def pick(name: str) -> None:
        page.run_combo.setCurrentIndex(next(i for i in range(page.run_combo.count())
                                            if page.run_at(i).name == name))

    def picked() -> str:
        return page.current_run().name

    try:
        assert picked() == "b" and "latest" in page.run_combo.currentText()
        pick("a")
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
            page.input.setPlainText("good movie")
        answer = page.last_result
        add_run("c", 30)  # a run ended
        session.notify_runs_changed()
        assert picked() == "a" and page.last_result == answer and page.output.toPlainText()
        rename_run(project.runs_dir / "b", "b-renamed")  # another run renamed on the Runs page
        session.notify_runs_changed()
        assert picked() == "a"
        rename_run(project.runs_dir / "a", "a-renamed")  # the one picked: followed
        session.notify_runs_changed()
        assert picked() == "a-renamed"
        pick("c")  # "(latest)": follows the newest
        assert "latest" in page.run_combo.currentText()
        add_run("d", 40)
        session.notify_runs_changed()
        assert picked() == "d" and "latest" in page.run_combo.currentText()
    finally:
        project.close(compact=False)


def test_a_run_folder_not_utf8_opens_its_own_model(qtbot, tmp_path, trained_run):
    """A Latin-1 folder "run\\xe9" beside a run "run": both were listed as "run", and the item's path
    came back from Qt without its undecodable byte, so picking it predicted with the other run's
    model, with nothing said. Its name shows the byte; each row opens its own folder."""
    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    odd = project.runs_dir / "run\udce9"
    for folder in (odd, project.runs_dir / "run"):
        shutil.copytree(trained_run, folder)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        texts = [page.run_combo.itemText(i) for i in range(page.run_combo.count())]
        assert sorted(t.split(" ")[0] for t in texts) == ["run", "run<0xE9>"], texts
        row = next(i for i, t in enumerate(texts) if t.startswith("run<0xE9>"))
        page.run_combo.setCurrentIndex(row)
        assert page.model_dir() == str(odd / "model")
        page.run_combo.setCurrentIndex(1 - row)
        assert page.model_dir() == str(project.runs_dir / "run" / "model")
    finally:
        project.close(compact=False)


def test_the_run_picked_is_followed_when_two_runs_swap_names(qtbot, tmp_path, trained_run):
    """b picked, then a and b swapped by rename in a terminal (mv a t; mv b a; mv t b): the picker
    stayed on the folder b, now another run, and the sentence typed got that model's answer with
    nothing said. The picked run is followed by its identity to its new name, as a rename is."""
    import os

    from bertstudio.train.rundir import run_identity

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    for name in ("a", "b"):
        shutil.copytree(trained_run, project.runs_dir / name)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    runs = project.runs_dir
    try:
        row = next(i for i in range(page.run_combo.count()) if i != page._default_index)
        page.run_combo.setCurrentIndex(row)  # the run that is not the default: a pick to keep
        picked = page.current_run()
        identity = run_identity(picked)
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
            page.input.setPlainText("good movie")
        other = runs / ("a" if picked.name == "b" else "b")
        os.rename(other, runs / "t")
        os.rename(picked, other)
        os.rename(runs / "t", picked)
        session.notify_runs_changed()
        assert page.current_run() == other and run_identity(page.current_run()) == identity
        assert page.last_result is None  # the answer was dropped and is asked again of the run followed
    finally:
        project.close(compact=False)


def test_a_run_folder_replaced_by_another_run_is_read_again(qtbot, tmp_path, trained_run):
    """The folder shown replaced by another run (moved away and a link to another run put in its
    place, or the default run's folder replaced): the page kept the first model's kind and answer
    for the folder. The picked run is gone, as if deleted: the default is shown, read afresh."""
    import os

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    runs = project.runs_dir
    for name in ("a", "b"):
        shutil.copytree(trained_run, runs / name)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        shown = page.current_run()  # the default
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
            page.input.setPlainText("good movie")
        os.rename(shown, tmp_path / "away")
        shutil.copytree(trained_run, shown)  # the same name, another run
        session.notify_runs_changed()
        assert page.current_run() == shown and page.last_result is None  # read again, its answer asked again
        page._debounce.stop()
        row = next(i for i in range(page.run_combo.count()) if i != page.run_combo.currentIndex())
        page.run_combo.setCurrentIndex(row)  # picked by hand, then replaced by a link to the other run
        picked = page.current_run()
        page.last_result = {"label": "pos"}  # as if answered: the swap must drop it
        os.rename(picked, tmp_path / "away2")
        os.symlink(shown, picked)
        session.notify_runs_changed()
        assert page.run_combo.currentIndex() == page._default_index and page.last_result is None
    finally:
        project.close(compact=False)


def test_a_new_run_in_a_deleted_picked_runs_inode_is_not_followed(qtbot, tmp_path, trained_run):
    """The run picked deleted and a new run made: ext4 gives the new folder the old one's inode,
    and the Playground took it for the picked run renamed (device and inode alone), keeping a pick
    the person never made. The run's start is part of its identity: the default is shown."""
    import os

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    stamp = os.path.getmtime(trained_run)
    for age, name in ((10, "a"), (20, "b")):
        shutil.copytree(trained_run, project.runs_dir / name)
        os.utime(project.runs_dir / name, (stamp + age,) * 2)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        page.run_combo.setCurrentIndex(page.run_index(project.runs_dir / "a"))
        new = project.runs_dir / "new"
        os.rename(project.runs_dir / "a", new)  # a's inode, as reused, now holding a run started later
        history = (new / "history.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
        first = json.loads(history[0])
        assert first.get("started_at")
        first["started_at"] += 1000
        (new / "history.jsonl").write_text(json.dumps(first) + "\n" + "".join(history[1:]), encoding="utf-8")
        session.notify_runs_changed()
        assert page.run_combo.currentIndex() == page._default_index and "latest" in page.run_combo.currentText()
    finally:
        project.close(compact=False)


def test_edits_made_during_a_forward_skip_the_stale_inputs_and_grey_the_old_answer(qtbot, page, monkeypatch):
    """Five edits during a slow forward ran five forwards one after another: the newest answer
    waited for all of them, under the old answer that looked current."""
    import threading

    from bertstudio.ui import playground
    from bertstudio.ui.worker import ThreadJob

    calls: list[str] = []
    entered, release = threading.Event(), threading.Event()
    release.set()

    def slow_predict(model_dir: str, inputs: dict, **_: object) -> dict:  # stage=: what the job is at
        calls.append(inputs["text"])
        entered.set()
        assert release.wait(timeout=30)
        return {"label": "pos", "probs": {"pos": 0.75, "neg": 0.25}}

    monkeypatch.setattr(playground, "predict_with", slow_predict)
    with qtbot.waitSignal(page.prediction_shown, timeout=30_000):
        page.input.setPlainText("warm up")
        page.predict()
    assert page.output.isEnabled()
    release.clear()
    entered.clear()
    page.input.setPlainText("edit 0")
    page.predict()
    assert entered.wait(timeout=30)  # the forward of "edit 0" holds the lock
    assert not page.output.isEnabled()  # the answer to "warm up" is greyed while "edit 0" is pending
    for n in range(1, 5):
        page.input.setPlainText(f"edit {n}")
        page.predict()
    with qtbot.waitSignal(page.prediction_shown, timeout=30_000) as shown:
        release.set()
    ThreadJob.wait_all()
    assert shown.args[0]["inputs"] == {"text": "edit 4"}
    assert calls == ["warm up", "edit 0", "edit 4"]  # edits 1-3 were no longer the latest when their turn came
    assert page.output.isEnabled()


def test_a_one_text_score_model_gets_one_box_no_pair_note_and_its_projects_scale(qtbot, tmp_path, tiny_model_dir):
    """A one-text 0-100 rating model got a "Second sentence" box and, on every prediction, "Scored
    the first sentence alone: a model trained on sentence pairs needs the second sentence too"."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    from helpers import make_project

    rows = [{"text": f"the film was {w}", "label": float(10 * i)} for i, w in enumerate(["good", "bad", "dull", "fun"] * 2)]
    project = make_project(tmp_path / "proj", "regression", splits={"train": rows})  # ratings 0-70: a 0-100 scale
    config = TrainConfig(task="regression", model=str(tiny_model_dir), epochs=1, batch_size=4, max_length=16,
                         device="cpu", precision="fp32", output_dir=str(project.runs_dir / "ratings"))
    assert train(config, from_records("regression", rows), None).status == "finished"
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        assert not page.input2.isVisibleTo(page) and page.input_label.text() == "Sentence"
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
            qtbot.keyClicks(page.input, "the film was fun")
        assert shown.args[0]["inputs"] == {"text": "the film was fun"} and "Score" in page.output.toPlainText()
        assert "alone" not in page.status.text() and "second" not in page.status.text()
        # a project of no benchmark: its own 0-100 scale says when a score is past it (112 was shown plainly)
        assert "0-100 scale" not in page.output.toPlainText()  # the tiny model's guess sits inside it
        above = page.result_html({**shown.args[0], "score": 112.0})
        assert "Past the top of the 0-100 scale the model learned from: read it as 100" in above
        assert "Past the bottom of the 0-100 scale" in page.result_html({**shown.args[0], "score": -4.0})
    finally:
        project.close(compact=False)


def test_the_playground_predicts_a_score_exactly(tmp_path, tiny_model_dir):
    """On a bf16 CPU the Playground showed "Score: 96.500" (bf16 weights) where fp32 and the export's
    predict.py give 96.655."""
    import torch

    from bertstudio.tasks.model import build_model, save_model
    from bertstudio.train.predict import Predictor
    from bertstudio.ui.playground import load_predictor, predict_with

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", str(tiny_model_dir), labels=[])
    with torch.no_grad():
        model.classifier.bias.fill_(96.655)  # where bf16 steps by 0.5
    folder = save_model(model, tokenizer, tmp_path / "model")
    exact = Predictor.load(folder, device="cpu", precision="fp32").predict(text="a film")["score"]
    try:
        assert predict_with(str(folder), {"text": "a film"})["score"] == pytest.approx(exact, abs=1e-3)
    finally:
        load_predictor.cache_clear()


def test_a_word_that_tokenises_to_nothing_is_marked_not_read(qtbot, tmp_path, tiny_model_dir):
    """A zero-width space typed as a word was drawn tagged "O" (no tag of a POS set), as if predicted;
    `bertstudio predict` warns that such words were not read."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    labels = ["O", "B-LOC"]
    rows = [{"tokens": ["the", "dog", "in", city], "tags": ["O", "O", "O", "B-LOC"]} for city in ("paris", "london")] * 4
    project = Project.create(tmp_path / "proj", name="t", kind="tagging", labels=labels)
    config = TrainConfig(task="tagging", labels=labels, model=str(tiny_model_dir), epochs=1, batch_size=4, max_length=16,
                         device="cpu", precision="fp32", output_dir=str(project.runs_dir / "tags"))
    examples = from_records("tagging", rows, labels=labels)
    assert train(config, examples, examples.select(range(2))).status == "finished"
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
            page.input.setPlainText("paris \u200b dog")
            page.predict()
        result = shown.args[0]
        assert result["unpredicted_words"] == 1 and result["tags"][1] is None  # no tag, as `bertstudio predict` says
        cells = [line.split() for line in page.output.toPlainText().splitlines() if line.strip()]
        words = [w for line in cells for w in line]
        assert "\u2014" in words and words.count("O") + words.count("B-LOC") == 2  # the two words read, and a mark
        assert "1 word(s) tokenise to nothing and were not read" in page.status.text()
    finally:
        project.close(compact=False)


def test_the_not_read_words_note_uses_qts_plural_form(qapp):
    """The note was "{n} word(s) ...", a hand-made plural Qt's translation cannot inflect: it is
    the %n numerus form, which the zh_CN table fills with the count."""
    from PySide6.QtCore import QCoreApplication

    from bertstudio import app as app_module

    source = "%n word(s) tokenise to nothing and were not read (marked {mark}): the model gives them no tag."
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        said = QCoreApplication.translate("PlaygroundPage", source, "", 3)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert said.startswith("3 个词") and "{mark}" in said, said


def test_two_jobs_runs_of_one_name_are_told_apart_in_the_run_list(qtbot, tmp_path, trained_run):
    """Two seeds jobs' runs were listed as "seed-42 (latest)" and "seed-42" (the Runs page and
    Compare named their jobs)."""
    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    for job in ("seeds4", "seeds5"):
        shutil.copytree(trained_run, project.runs_dir / job / "seed-42")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    try:
        texts = sorted(page.run_combo.itemText(i) for i in range(page.run_combo.count()))
        assert len(texts) == 2 and texts[0].startswith("seeds4/seed-42") and texts[1].startswith("seeds5/seed-42"), texts
    finally:
        project.close(compact=False)


def test_a_qa_answer_says_what_kind_of_model_gave_it_and_what_its_score_is(qtbot, tmp_path):
    """One question marked "No answer" among 522 made the model say "No answer in the context." to
    every question, as a plain fact; a model trained without such questions answered "Who won the
    2010 World Cup?" with "Rollo", score 6.343 (logits, read as a grade). Each now says which it is."""
    project = Project.create(tmp_path / "qa", name="qa", kind="qa", labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    inputs = {"context": "Rollo led the Normans.", "question": "Who won the 2010 World Cup?"}
    span = {"inputs": inputs, "answer": "Rollo", "start": 0, "score": 6.343}
    none = {"inputs": inputs, "answer": "", "start": -1, "score": 1.0}
    assert "always answers with a span" in page.result_html({**span, "null_answers": False})
    assert "not a probability" in page.result_html({**span, "null_answers": False})
    assert "always answers" not in page.result_html({**span, "null_answers": True})
    said = page.result_html({**none, "null_answers": True})
    assert "No answer in the context." in said and "&quot;No answer in this context&quot;" in said
    assert "trained on questions" not in page.result_html({**none, "null_answers": None})  # unknown: not said
    project.close(compact=False)


def test_a_qa_prediction_carries_whether_its_model_may_say_no_answer(tmp_path, monkeypatch):
    """predict_with reads it from the loaded model's config (checked when it was loaded), not from
    its folder at every prediction; a model saved before bertstudio kept it answers every question."""
    from types import SimpleNamespace

    from bertstudio.ui import playground

    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    for meta, said in (({"null_answers": True}, True), ({"null_answers": False}, False), (None, False)):
        model = SimpleNamespace(config=SimpleNamespace(bertstudio=meta))
        answer = SimpleNamespace(model=model, predict=lambda **_: {"answer": "Rollo", "start": 0, "score": 1.0})
        monkeypatch.setattr(playground, "load_predictor", lambda *_a, answer=answer: answer)
        assert playground.predict_with(str(tmp_path), {"context": "c", "question": "q"})["null_answers"] is said
    label = SimpleNamespace(model=None, predict=lambda **_: {"label": "pos", "probs": {"pos": 1.0}})
    monkeypatch.setattr(playground, "load_predictor", lambda *_a: label)
    assert "null_answers" not in playground.predict_with(str(tmp_path), {"text": "t"})


def test_latest_follows_runs_another_process_adds_or_removes(qtbot, tmp_path, trained_run):
    """A run a CLI trained into runs/, then removed in a terminal: the Runs page heard both, but the
    Playground still offered the deleted run as "(latest)" and never the new one."""
    import os

    from bertstudio.ui.runs_page import RunsPage

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=LABELS)
    stamp = os.path.getmtime(trained_run)
    try:
        shutil.copytree(trained_run, project.runs_dir / "cli1")
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        runs = RunsPage(session)
        page = PlaygroundPage(session)
        qtbot.addWidget(runs)
        qtbot.addWidget(page)
        assert page.run_combo.currentText() == "cli1 (latest)"
        shutil.copytree(trained_run, project.runs_dir / "cli2.tmp")
        os.utime(project.runs_dir / "cli2.tmp", (stamp + 60,) * 2)
        os.rename(project.runs_dir / "cli2.tmp", project.runs_dir / "cli2")
        qtbot.waitUntil(lambda: page.run_combo.currentText() == "cli2 (latest)", timeout=5000)
        shutil.rmtree(project.runs_dir / "cli2")
        qtbot.waitUntil(lambda: page.run_combo.count() == 1, timeout=5000)
        assert page.run_combo.currentText() == "cli1 (latest)"
        runs.stop_following()
    finally:
        project.close(compact=False)


def test_chinese_typed_without_spaces_is_read_as_the_run_was_trained(qtbot, tmp_path, tiny_model_dir):
    """北京是中国的首都 typed into a tagging Playground got one tag, "O", for the whole sentence, with
    nothing said (a teacher's sweep). A run trained on one token per ideograph (most Chinese NER
    data) reads each as a word, as its model recorded or, for a run from before, as the project's
    train split shows; one trained on segmented words (CTB) keeps the run whole and says so."""
    from bertstudio.tasks.limits import model_config
    from bertstudio.tasks.typed_words import saved_cjk_words
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    labels = ["O", "B-LOC", "I-LOC"]
    rows = [{"tokens": list("北京很大"), "tags": ["B-LOC", "I-LOC", "O", "O"]},
            {"tokens": ["in", "paris"], "tags": ["O", "B-LOC"]}] * 4
    project = Project.create(tmp_path / "proj", name="t", kind="tagging", labels=labels)
    examples = from_records("tagging", rows, labels=labels)
    project.import_examples(examples, "train")
    run = project.runs_dir / "chars"
    config = TrainConfig(task="tagging", labels=labels, model=str(tiny_model_dir), epochs=1, batch_size=4, max_length=16,
                         device="cpu", precision="fp32", output_dir=str(run))
    assert train(config, examples, examples.select(range(2))).status == "finished"
    assert saved_cjk_words(model_config(run / "model")) == "chars"  # the engine keeps it with the model
    for name, kept in (("before", None), ("segmented", "words")):  # a run saved before it was kept; a CTB-style one
        shutil.copytree(run, project.runs_dir / name)
        path = project.runs_dir / name / "model" / "config.json"
        settings = json.loads(path.read_text(encoding="utf-8"))
        settings["bertstudio"].pop("cjk_words")
        if kept:
            settings["bertstudio"]["cjk_words"] = kept
        path.write_text(json.dumps(settings), encoding="utf-8")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = PlaygroundPage(session)
    qtbot.addWidget(page)
    typed = "北京是中国的首都"
    try:
        for name, words in (("chars", list(typed)), ("before", list(typed)), ("segmented", [typed])):
            page.run_combo.setCurrentIndex(page.run_index(project.runs_dir / name))
            page.input.setPlainText(typed)
            with qtbot.waitSignal(page.prediction_shown, timeout=60_000) as shown:
                page.predict()
            result = shown.args[0]
            assert result["inputs"]["tokens"] == words and len(result["tags"]) == len(words), name
            said = f"“{typed}” read as one word: separate words with spaces." in page.status.text()
            assert said == (len(words) == 1), (name, page.status.text())
    finally:
        project.close(compact=False)


def test_the_first_prediction_says_what_it_waits_for(qtbot, page, monkeypatch):
    """A fresh app's first prediction waited seconds for the imports and the model under
    "Predicting…" alone (a teacher's sweep): the status line says what it waits for."""
    import threading

    from bertstudio.ui import playground

    real, gate = playground.load_predictor, threading.Event()

    def slow_load(model_dir: str, stamp: float):
        gate.wait(60)
        return real(model_dir, stamp)

    page._forget_models()  # as in a fresh app: no model loaded
    slow_load.cache_clear = real.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(playground, "load_predictor", slow_load)
    try:
        page.input.setPlainText("good movie")
        page.predict()
        assert page.status.text() in ("Starting up…", "Loading the model…")
        qtbot.waitUntil(lambda: page.status.text() == "Loading the model…", timeout=60_000)
        with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
            gate.set()
    finally:
        gate.set()
    assert page.status.text() == ""
    page.input.setPlainText("bad movie")
    with qtbot.waitSignal(page.prediction_shown, timeout=60_000):
        page.predict()
        assert page.status.text() == "Predicting…"  # loaded: only the forward is left
    assert page.status.text() == ""
