"""Stable label ids: a rename keeps a label's id, no id is given twice, and the ids survive the
journal's replay, compaction and reopening; a project from before ids gets them in its labels' order.
A run records the ids of its labels (train/rundir.record_label_ids), so that its names are read
under today's names after renames and swaps (Project.names_now)."""

from __future__ import annotations

import json
import shutil

from bertstudio.data.project import Project
from bertstudio.data.project_meta import encode_meta, write_meta
from helpers import make_project, sentiment_records


def _ids(project: Project) -> dict[str, int]:
    return dict(zip(project.labels, project.label_ids))


def _swap(project: Project) -> None:
    project.rename_label("pos", "tmp")
    project.rename_label("neg", "pos")
    project.rename_label("tmp", "neg")


def test_a_rename_keeps_the_id_and_a_removed_labels_id_is_never_given_again(tmp_path):
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": sentiment_records(6)})
    assert _ids(project) == {"neg": 0, "pos": 1}
    project.rename_label("pos", "positive")
    project.add_label("meh")
    first_meh = _ids(project)["meh"]
    project.remove_label("meh")
    project.add_label("meh")  # a new class under an old name: a new id
    want = _ids(project)
    assert want["neg"] == 0 and want["positive"] == 1 and want["meh"] not in (0, 1, first_meh)
    project.close()
    again = Project.open(tmp_path / "p")
    assert _ids(again) == want and again.recovery_messages == []
    again.add_label("other")
    assert again.label_ids[-1] not in (0, 1, first_meh, want["meh"])
    again.close()


def test_names_now_follows_a_swap_a_rename_and_a_removal(tmp_path):
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos", "meh"], {"train": sentiment_records(6)})
    run_labels, run_ids = list(project.labels), list(project.label_ids)
    _swap(project)
    project.remove_label("meh")
    project.rename_label("neg", "negative")  # the run's pos
    assert project.names_now(run_labels, run_ids) == {"neg": "pos", "pos": "negative", "meh": None}
    # a run without recorded ids: its names mean today's labels of that name
    assert project.names_now(run_labels, None) == {"neg": None, "pos": "pos", "meh": None}
    project.close()


def test_ids_are_replayed_from_the_journal_and_kept_by_compaction(tmp_path):
    """A crash before project.json took the edits: the journal's replay gives each label the same
    id as before (the add carries its id), and so does the project after compaction."""
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": sentiment_records(6)})
    project.close()
    stale = (tmp_path / "p" / "project.json").read_bytes()
    project = Project.open(tmp_path / "p")
    _swap(project)
    project.add_label("meh")
    project.remove_label("meh")
    project.add_label("new")
    want = _ids(project)
    assert (want["neg"], want["pos"]) == (1, 0) and want["new"] not in (0, 1)
    project.close(compact=False)
    (tmp_path / "p" / "project.json").write_bytes(stale)  # as if project.json was never written since
    replayed = Project.open(tmp_path / "p")
    assert _ids(replayed) == want and replayed.recovery_messages == []
    assert replayed.gold("train", 0) == {"neg": "pos", "pos": "neg"}[sentiment_records(6)[0]["label"]]
    replayed.close()  # compacts
    assert json.loads((tmp_path / "p" / "project.json").read_text())["label_id_next"] == 2  # past every numbered id
    assert _ids(Project.open(tmp_path / "p")) == want


def test_an_old_project_without_ids_opens_and_gets_them_in_its_labels_order(tmp_path):
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos", "meh"], {"train": sentiment_records(6)})
    project.rename_label("meh", "so-so")  # in the journal only at the next open
    project.close(compact=False)
    path = tmp_path / "p" / "project.json"
    meta = json.loads(path.read_text())
    meta.pop("checksum")
    meta.pop("label_id_next")
    for item in meta["labels"]:
        item.pop("id")
    (tmp_path / "p" / "project.json.bak").unlink(missing_ok=True)
    write_meta(tmp_path / "p", meta, None)
    old = Project.open(tmp_path / "p")
    assert old.recovery_messages == []
    assert _ids(old) == {"neg": 0, "pos": 1, "so-so": 2}
    old.add_label("new")
    want = _ids(old)
    assert want["new"] not in (0, 1, 2)
    old.close()
    assert _ids(Project.open(tmp_path / "p")) == want


def test_a_damaged_id_falls_back_to_the_backup(tmp_path):
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": sentiment_records(6)})
    project.add_label("meh")  # project.json.bak now holds the good state before it
    want = _ids(project)
    project.close()
    shutil.copy(tmp_path / "p" / "project.json", tmp_path / "p" / "project.json.bak")
    meta = json.loads((tmp_path / "p" / "project.json").read_text())
    meta.pop("checksum")
    meta["labels"][1]["id"] = 0  # two labels with one id: which class an old run meant is unknown
    (tmp_path / "p" / "project.json").write_bytes(encode_meta(meta))
    again = Project.open(tmp_path / "p")
    assert any("same id" in m for m in again.recovery_messages)
    assert _ids(again) == want
    again.close()


def test_a_run_folder_keeps_the_ids_recorded_before_the_run_starts(tmp_path):
    """The app records the ids in the new, empty run folder before the engine starts there: the
    folder still takes the run, and ids recorded for other labels (a later CLI run overwrote
    the folder with another label set) are not used."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.rundir import check_output_dir, read_label_ids, record_label_ids

    run = tmp_path / "run"
    run.mkdir()
    record_label_ids(run, ["neg", "pos"], [1, 0], "p1")
    check_output_dir(TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)))  # no refusal
    assert read_label_ids(run, ["neg", "pos"], "p1") == [1, 0]
    assert read_label_ids(run, ["neg", "positive"], "p1") is None
    # every project numbers its labels from 0: a run folder copied from another project is read by name
    assert read_label_ids(run, ["neg", "pos"], "p2") is None and read_label_ids(run, ["neg", "pos"], None) is None
    (run / "label_ids.json").write_text("{not json")
    assert read_label_ids(run, ["neg", "pos"], "p1") is None


def test_a_project_keeps_its_uid_and_an_old_project_gets_one(tmp_path):
    """The uid tells a run's recorded label ids from another project's (each numbers from 0)."""
    first = make_project(tmp_path / "a", "sentence", ["neg", "pos"], {"train": sentiment_records(4)})
    second = make_project(tmp_path / "b", "sentence", ["neg", "pos"], {"train": sentiment_records(4)})
    uid = first.uid
    assert uid and uid != second.uid
    first.close()
    second.close()
    again = Project.open(tmp_path / "a")
    assert again.uid == uid and again.recovery_messages == []
    again.close()
    meta = json.loads((tmp_path / "b" / "project.json").read_text(encoding="utf-8"))
    meta.pop("checksum")
    del meta["uid"]  # a project from before uids opens and gets one, kept from its next write
    (tmp_path / "b" / "project.json.bak").unlink(missing_ok=True)
    write_meta(tmp_path / "b", meta, None)
    old = Project.open(tmp_path / "b")
    assert old.uid and old.recovery_messages == []
    old.rename_label("pos", "positive")
    given = old.uid
    old.close()
    reopened = Project.open(tmp_path / "b")
    assert reopened.uid == given
    reopened.close()


def _run_of(project: Project, name: str, golds: list[str]):
    """A run folder in ``project``'s runs/, right on every row, with its labels' ids recorded as the
    app records them when it starts a run."""
    import tomli_w

    from bertstudio.train.rundir import record_label_ids

    run = project.new_run_dir(name)
    labels = list(project.labels)
    (run / "config.toml").write_text(tomli_w.dumps({"task": "sentence", "labels": labels}), encoding="utf-8")
    (run / "predictions.jsonl").write_text("".join(json.dumps(
        {"index": i, "split": "dev", "row": i, "gold": g, "label": g,
         "probs": {n: 0.9 if n == g else 0.1 for n in labels}}) + "\n" for i, g in enumerate(golds)), encoding="utf-8")
    record_label_ids(run, labels, project.label_ids, project.uid)
    return run


def test_two_copies_of_a_project_folder_never_give_their_new_labels_one_id(tmp_path):
    """cp -r of a project keeps its uid; each copy then removed meh and made a label of its own,
    and both got the next id (3). A run of copy A put into B's runs/ read A's 'x' as B's 'y':
    Results showed and 'Use prediction as gold' wrote 'y', Compare counted x-rows against y-rows
    as both right. The classes the copies shared before the split still read as each other's."""
    from bertstudio.train.compare_runs import compare_runs
    from bertstudio.train.rundir import run_names_now

    make_project(tmp_path / "a", "sentence", ["neg", "pos", "meh"], {"train": sentiment_records(6)}).close()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    a, b = Project.open(tmp_path / "a"), Project.open(tmp_path / "b")
    assert a.uid == b.uid
    for project, new in ((a, "x"), (b, "y")):
        project.remove_label("meh")
        project.add_label(new)
    golds = ["x", "neg", "pos", "x"]
    a_run = _run_of(a, "a-run", golds)
    a.close()
    copied = shutil.copytree(a_run, b.runs_dir / "a-run")
    b.rename_label("pos", "positive")  # after the split: a class both copies share keeps its id
    assert run_names_now(copied, b) == {"neg": "neg", "pos": "positive", "x": None}
    b_run = _run_of(b, "b-run", [{"x": "y", "pos": "positive"}.get(g, g) for g in golds])
    result = compare_runs(copied, b_run)
    assert result.outcomes.both_right == 2 and result.relabelled == 2  # the neg and pos rows; x is not y
    b.close()


def _strip_ids(folder) -> None:
    """Make ``folder``'s project.json one from before label ids (and uids)."""
    meta = json.loads((folder / "project.json").read_text(encoding="utf-8"))
    meta.pop("checksum")
    meta.pop("label_id_next")
    meta.pop("uid")
    for item in meta["labels"]:
        item.pop("id")
    (folder / "project.json.bak").unlink(missing_ok=True)
    write_meta(folder, meta, None)


def test_an_old_projects_runs_follow_a_rename_made_after_the_upgrade(tmp_path):
    """A project from before ids, with a run in its runs/ (no label_ids.json): after the upgrade
    renamed neg -> negative, the old run's Results showed a 4x4 matrix (neg and negative) and
    Compare left every neg row out as "relabelled". project.json keeps the names the ids were
    first given from, and such a run is read through them; a run made after that day without
    ids (an older bertstudio, the CLI) is still read by name."""
    import os

    from bertstudio.train.compare_runs import compare_runs
    from bertstudio.train.rundir import LABEL_IDS, read_label_ids, run_names_now

    golds = ["neg", "pos", "neu", "neg"]
    project = make_project(tmp_path / "p", "sentence", ["pos", "neg", "neu"], {"train": sentiment_records(6)})
    old_run = _run_of(project, "old-run", golds)
    later = _run_of(project, "made-later", golds)
    project.close()
    for run in (old_run, later):
        (run / LABEL_IDS).unlink()
    hour_ago = os.stat(old_run / "config.toml").st_mtime - 3600
    os.utime(old_run / "config.toml", (hour_ago, hour_ago))
    _strip_ids(tmp_path / "p")
    upgraded = Project.open(tmp_path / "p")
    upgraded.rename_label("neg", "negative")
    os.utime(later / "config.toml")  # started after the upgrade gave ids, yet recorded none
    assert run_names_now(old_run, upgraded) == {"pos": "pos", "neg": "negative", "neu": "neu"}
    assert run_names_now(later, upgraded) == {"pos": "pos", "neg": None, "neu": "neu"}
    new_run = _run_of(upgraded, "new-run", [{"neg": "negative"}.get(g, g) for g in golds])
    result = compare_runs(old_run, new_run)
    assert result.relabelled == 0 and result.outcomes.both_right == 4
    assert compare_runs(new_run, old_run).outcomes.both_right == 4
    # the map is the project's: another uid, or the same run outside this runs/ folder, is read by name
    assert read_label_ids(old_run, ["pos", "neg", "neu"], "another-project") is None
    moved = shutil.copytree(old_run, tmp_path / "elsewhere" / "old-run")
    assert read_label_ids(moved, ["pos", "neg", "neu"], upgraded.uid) is None
    upgraded.close()
    reopened = Project.open(tmp_path / "p")
    assert run_names_now(old_run, reopened)["neg"] == "negative"
    reopened.close()


def test_a_project_with_ids_keeps_no_first_names(tmp_path):
    """Only a project from before ids gets the map: one made today (and one upgraded earlier,
    without the key) reads runs without ids by name, as before."""
    project = make_project(tmp_path / "p", "sentence", ["pos", "neg"], {"train": sentiment_records(4)})
    project.rename_label("neg", "negative")
    project.close()
    assert "label_ids_first" not in json.loads((tmp_path / "p" / "project.json").read_text(encoding="utf-8"))


def test_a_damaged_first_names_map_is_a_damaged_project_file(tmp_path):
    """label_ids_first decides which class an old run's name means: a hostile one (an id that is no
    id) is refused like any damaged field, and the backup is used."""
    make_project(tmp_path / "p", "sentence", ["pos", "neg"], {"train": sentiment_records(4)}).close()
    _strip_ids(tmp_path / "p")
    upgraded = Project.open(tmp_path / "p")
    upgraded.rename_label("neg", "negative")  # written with the map; the backup holds the map too
    upgraded.close()
    meta = json.loads((tmp_path / "p" / "project.json").read_text(encoding="utf-8"))
    assert meta["label_ids_first"]["ids"] == {"pos": 0, "neg": 1}
    meta.pop("checksum")
    meta["label_ids_first"]["ids"]["neg"] = "one"
    (tmp_path / "p" / "project.json").write_bytes(encode_meta(meta))
    again = Project.open(tmp_path / "p")
    assert any("label_ids_first" in m for m in again.recovery_messages)
    again.close()
