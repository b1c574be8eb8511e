"""GLUE scoreboard page: best run per task, missing tasks shown as missing, both conventions."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings

from bertstudio.data.project import Project
from bertstudio.train.config import TrainConfig
from bertstudio.ui.runs_page import add_external_run
from bertstudio.ui.scoreboard_page import ScoreboardPage
from bertstudio.ui.session import ProjectSession


def _run(folder, glue_task: str, task: str, metrics: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    TrainConfig(task=task, glue_task=glue_task, output_dir=str(folder)).save(folder / "config.toml")
    (folder / "metrics.json").write_text(json.dumps(metrics))


@pytest.fixture
def page(qtbot, tmp_path):
    project = Project.create(tmp_path / "proj", name="g", kind="pair", labels=["0", "1"])
    _run(project.new_run_dir("mrpc-a"), "MRPC", "pair", {"f1": 0.80, "accuracy": 0.70})
    _run(project.new_run_dir("mrpc-b"), "MRPC", "pair", {"f1": 0.90, "accuracy": 0.86})  # best by F1
    _run(project.new_run_dir("rte"), "RTE", "pair", {"accuracy": 0.66})
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    _run(tmp_path / "server" / "stsb", "STS-B", "regression", {"pearson": 0.88, "spearman": 0.86})
    session = ProjectSession(project, settings=settings)
    add_external_run(session, tmp_path / "server" / "stsb")  # a run folder opened from elsewhere
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    yield page
    project.close(compact=False)


def _rows(page):
    t = page.table
    return {t.item(r, 0).text(): [t.item(r, c).text() for c in range(1, 4)] for r in range(t.rowCount())}


def test_glue_convention_best_run_and_missing_tasks(page):
    assert page.convention() == "glue"
    rows = _rows(page)
    # MRPC under the GLUE rule: mean of F1 and accuracy of the best run (mrpc-b): (90 + 86) / 2.
    assert rows["MRPC"][0] == "88.0" and rows["MRPC"][2] == "mrpc-b"
    assert rows["STS-B"][0] == "87.0" and rows["STS-B"][2] == "stsb"
    assert rows["RTE"][0] == "66.0"
    for task in ("CoLA", "SST-2", "QQP", "MNLI", "QNLI"):
        assert rows[task][0] == "missing", task
    assert "WNLI" not in rows
    # Average over the three present entries only, never counting missing ones as 0.
    assert rows["Average"][0] == f"{(88.0 + 87.0 + 66.0) / 3:.1f}"
    assert "5 missing" in rows["Average"][1]


def test_bert_paper_convention(page):
    page.convention_combo.setCurrentIndex(page.convention_combo.findData("bert_paper"))
    rows = _rows(page)
    assert rows["MRPC"][0] == "90.0"  # F1 only
    assert rows["STS-B"][0] == "86.0"  # Spearman only
    assert rows["MNLI-m"][0] == rows["MNLI-mm"][0] == "missing"
    assert rows["Average"][0] == f"{(90.0 + 86.0 + 66.0) / 3:.1f}"


def test_opened_run_folders_belong_to_their_project(page, tmp_path):
    assert _rows(page)["STS-B"][0] == "87.0"
    first = page.session.project
    other = Project.create(tmp_path / "other", name="o", kind="pair", labels=["0", "1"])
    page.session.set_project(other)
    rows = _rows(page)
    assert rows["STS-B"][0] == "missing" and rows["MRPC"][0] == "missing"
    page.session.set_project(first)
    assert _rows(page)["STS-B"][0] == "87.0"
    other.close(compact=False)


def test_with_no_scored_task_the_page_says_where_scores_come_from(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    session = ProjectSession(settings=settings)
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    page.show()
    assert page.hint.isVisible() and page.hint.text().startswith("No project open.")
    assert "GLUE preset" in page.hint.text() and "bertstudio glue" in page.hint.text()
    average = page.table.item(page.table.rowCount() - 1, 2).text()
    assert average == "no task has a finished run yet"  # not a row-wide list of all eight names

    plain = Project.create(tmp_path / "plain", name="p", kind="sentence", labels=["neg", "pos"])
    plain.close(compact=False)
    rte = Project.create(tmp_path / "rte", name="r", kind="pair", labels=["0", "1"], glue_task="RTE")
    rte.close(compact=False)
    for folder, expected in ((plain.folder, "not a GLUE task"), (rte.folder, "No finished RTE run yet")):
        session.open_folder(str(folder))  # the page refreshes on project_opened
        assert expected in page.hint.text() and page.hint.isVisible(), page.hint.text()
    _run(session.project.new_run_dir("rte-a"), "RTE", "pair", {"accuracy": 0.66})
    page.refresh()
    assert _rows(page)["RTE"][0] == "66.0"
    assert page.hint.isVisible() and "open their run folders on the Runs page" in page.hint.text()  # the 7 others
    session.close()


def test_a_score_says_what_it_rests_on(qtbot, tmp_path):
    """SST-2 100.0 from 2 training rows held out read as the task's score, with nothing said
    (Results says how little 2 examples say)."""
    from bertstudio.train.events import RunStarted, event_to_dict

    project = Project.create(tmp_path / "proj", name="g", kind="sentence", labels=["0", "1"])
    for name, glue, n, held in (("sst2", "SST-2", 2, 0.1), ("cola", "CoLA", 1043, None)):
        folder = project.new_run_dir(name)
        folder.mkdir(parents=True, exist_ok=True)
        TrainConfig(task="sentence", glue_task=glue, hold_out=held, output_dir=str(folder)).save(folder / "config.toml")
        (folder / "metrics.json").write_text(json.dumps({"accuracy": 1.0, "mcc": 0.5}))
        started = RunStarted(2, 18, n, 1, 8, 10, 10, "cpu", "fp32")
        (folder / "history.jsonl").write_text(json.dumps(event_to_dict(started)) + "\n")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    try:
        rows = _rows(page)
        assert "(on 2 training examples held out, not the task's dev set) too few to compare runs" in rows["SST-2"][1]
        assert "(on 1,043 examples)" in rows["CoLA"][1] and "too few" not in rows["CoLA"][1]
    finally:
        project.close(compact=False)


def test_an_average_with_part_of_an_entry_missing_says_it_is_partial(qtbot, tmp_path):
    """All eight entries there, MNLI matched only: the CLI said "partial average", the page only
    "over 8 of 8 entries", as if the average were comparable with a full score."""
    project = Project.create(tmp_path / "proj", name="g", kind="pair", labels=["0", "1"])
    scores = {"CoLA": ("sentence", {"mcc": 0.4}), "SST-2": ("sentence", {"accuracy": 0.9}),
              "MRPC": ("pair", {"f1": 0.8, "accuracy": 0.7}), "STS-B": ("regression", {"pearson": 0.8, "spearman": 0.8}),
              "QQP": ("pair", {"f1": 0.7, "accuracy": 0.8}), "MNLI": ("pair", {"accuracy": 0.8}),
              "QNLI": ("pair", {"accuracy": 0.85}), "RTE": ("pair", {"accuracy": 0.6})}
    for task, (kind, metrics) in scores.items():
        _run(project.new_run_dir(task.lower()), task, kind, metrics)
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    try:
        rows = _rows(page)
        assert "(partial)" in rows["MNLI"][1]
        assert rows["Average"][1].startswith("over 8 of 8 entries")
        assert "partial average, not comparable with a full score" in rows["Average"][1]
        assert "missing:" not in rows["Average"][1]  # no entry is missing, only a part of one
    finally:
        project.close(compact=False)


def test_an_mnli_run_scored_on_mismatched_fills_the_mnli_entry(qtbot, tmp_path):
    """`bertstudio glue` scores its MNLI model on dev_mismatched.tsv too (the run's mismatched/):
    the entry is one model's m and mm, and the BERT paper's MNLI-mm names that run."""
    from bertstudio.train.rundir import write_mismatched

    project = Project.create(tmp_path / "proj", name="g", kind="pair", labels=["0", "1"])
    mnli = project.new_run_dir("mnli-a")
    _run(mnli, "MNLI", "pair", {"accuracy": 0.80})
    write_mismatched(mnli, {"accuracy": 0.70}, [])
    _run(project.new_run_dir("mm-only"), "MNLI-mm", "pair", {"accuracy": 0.90})  # another model's mismatched score
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    try:
        rows = _rows(page)
        assert rows["MNLI"][0] == "75.0" and "(partial)" not in rows["MNLI"][1] and rows["MNLI"][2] == "mnli-a"
        page.convention_combo.setCurrentIndex(page.convention_combo.findData("bert_paper"))
        rows = _rows(page)
        assert rows["MNLI-m"][0] == "80.0" and rows["MNLI-mm"][0] == "70.0" and rows["MNLI-mm"][2] == "mnli-a"
    finally:
        project.close(compact=False)


def test_a_score_just_below_1_does_not_show_as_100(qtbot, tmp_path):
    project = Project.create(tmp_path / "near", name="n", kind="pair", labels=["0", "1"])
    _run(project.new_run_dir("qnli"), "QNLI", "pair", {"accuracy": 5462 / 5463})  # one error on QNLI dev
    page = ScoreboardPage(ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(page)
    rows = _rows(page)
    assert rows["QNLI"][0] == "99.98" and "QNLI accuracy 99.98" in rows["QNLI"][1]
    assert rows["Average"][0] == "99.98"
    project.close(compact=False)


def test_best_runs_from_two_glue_jobs_are_named_by_job_and_the_mix_is_said(qtbot, tmp_path):
    """Two `bertstudio glue` jobs open: the Best run column said "SST-2" for job5's run, and the
    average (of job5's SST-2 and job2's RTE) matched neither job's without a word."""
    project = Project.create(tmp_path / "proj", name="g", kind="pair", labels=["0", "1"])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    runs = {("job2", "SST-2"): 0.517, ("job5", "SST-2"): 0.62, ("job2", "RTE"): 0.527}
    for (job, task), accuracy in runs.items():
        _run(tmp_path / job / task, task, "sentence" if task == "SST-2" else "pair", {"accuracy": accuracy})
        add_external_run(session, tmp_path / job / task)
    page = ScoreboardPage(session)
    qtbot.addWidget(page)
    rows = _rows(page)
    assert rows["SST-2"][0] == "62.0" and rows["SST-2"][2] == "job5/SST-2"  # as the Runs page names it
    assert rows["RTE"][2] == "RTE"  # no other RTE run listed: its own name, as on the Runs page
    assert "best runs from 2 folders: job5, job2" in rows["Average"][1]
    # one job alone: nothing to say
    session2 = ProjectSession(Project.create(tmp_path / "p2", name="h", kind="pair", labels=["0", "1"]),
                              settings=QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat))
    for task in ("SST-2", "RTE"):
        add_external_run(session2, tmp_path / "job2" / task)
    one = ScoreboardPage(session2)
    qtbot.addWidget(one)
    assert "folders" not in _rows(one)["Average"][1] and _rows(one)["SST-2"][2] == "SST-2"
    project.close(compact=False)
    session2.project.close(compact=False)
