"""Project storage: operations, overlay semantics, label-set rules, schema upgrade, export, events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bertstudio.data.examples import from_records
from bertstudio.data.journal import read_journal
from bertstudio.data.project import Project
from bertstudio.data.project_meta import PALETTE, SCHEMA_VERSION
from bertstudio.errors import BertStudioError, ConfigError, DataError

SENTENCES = [
    {"text": "good film", "label": "pos"},
    {"text": "bad film", "label": "neg"},
    {"text": "a film", "label": None},
    {"text": "great", "label": "pos"},
    {"text": "meh", "label": None},
]


@pytest.fixture()
def project(tmp_path: Path) -> Project:
    p = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", SENTENCES, source="train.tsv"), "train")
    return p


def test_create_open_and_basic_facts(project: Project) -> None:
    assert project.name == "reviews" and project.kind == "sentence"
    assert project.labels == ["neg", "pos"]
    assert project.label_colors == {"neg": PALETTE[0], "pos": PALETTE[1]}
    assert project.split_names == ["train"]
    assert project.num_rows("train") == 5 and project.num_rows("dev") == 0
    assert project.row("train", 0) == {"text": "good film", "label": "pos"}
    # 3 of the 5 rows carry a label: 2 pos, 1 neg
    assert project.progress("train") == (3, 5)
    assert project.label_counts("train") == {"neg": 1, "pos": 2}
    project.close()
    again = Project.open(project.folder)
    assert again.recovery_messages == []
    assert again.row("train", 1) == {"text": "bad film", "label": "neg"}
    meta = json.loads((project.folder / "project.json").read_text())
    assert meta["schema_version"] == SCHEMA_VERSION
    assert meta["labels"] == [{"name": "neg", "color": PALETTE[0], "id": 0}, {"name": "pos", "color": PALETTE[1], "id": 1}]


def test_create_refuses_existing_project_and_bad_labels(tmp_path: Path, project: Project) -> None:
    with pytest.raises(DataError, match="already exists"):
        Project.create(project.folder, name="x", kind="sentence", labels=["a"])
    with pytest.raises(DataError, match="twice"):
        Project.create(tmp_path / "q", name="x", kind="sentence", labels=["a", "a"])
    with pytest.raises(ConfigError):
        Project.create(tmp_path / "r", name="x", kind="poetry", labels=[])
    with pytest.raises(DataError, match="not a bertstudio project"):
        Project.open(tmp_path / "nowhere")


def test_set_gold_returns_previous_and_overlays_reads(project: Project) -> None:
    events: list[dict] = []
    project.subscribe(events.append)
    assert project.set_gold("train", 2, "neg") is None
    assert project.set_gold("train", 0, "neg") == "pos"
    assert project.set_gold("train", 0, None) == "neg"  # clear
    assert project.gold("train", 0) is None and project.gold("train", 2) == "neg"
    assert project.row("train", 2) == {"text": "a film", "label": "neg"}
    # rows: None, neg, neg, pos, None
    assert project.progress("train") == (3, 5)
    assert project.label_counts("train") == {"neg": 2, "pos": 1}
    assert project.examples("train").dataset["label"] == [None, "neg", "neg", "pos", None]
    assert [e["kind"] for e in events] == ["gold_changed"] * 3
    assert events[1] == {"kind": "gold_changed", "split": "train", "row": 0, "value": "neg", "previous": "pos"}
    # 3 journal lines, one per edit, with increasing sequence numbers
    seqs = [e["seq"] for e in read_journal(project.folder / "labels.journal").entries]
    assert len(seqs) == 3 and seqs == sorted(seqs)


def test_edits_survive_reopen_without_compaction(project: Project) -> None:
    project.set_gold("train", 4, "pos")
    project.close(compact=False)
    again = Project.open(project.folder)
    assert again.gold("train", 4) == "pos" and again.pending_edits == 1
    assert again.recovery_messages == []


def test_compact_folds_journal_into_new_data_file(project: Project) -> None:
    before = project.split_info["train"]["file"]
    project.set_gold("train", 4, "neg")
    project.compact()
    after = project.split_info["train"]["file"]
    assert after != before and project.pending_edits == 0
    journal = project.folder / "labels.journal"
    assert not journal.exists() or journal.stat().st_size == 0
    assert read_journal(project.folder / "labels.journal.prev").entries[0]["row"] == 4
    project.close(compact=False)
    again = Project.open(project.folder)
    assert again.pending_edits == 0 and again.gold("train", 4) == "neg"
    assert again.examples("train").dataset["label"] == ["pos", "neg", None, "pos", "neg"]


def test_invalid_gold_values_are_refused(project: Project) -> None:
    with pytest.raises(DataError, match="not a label"):
        project.set_gold("train", 0, "maybe")
    with pytest.raises(IndexError):
        project.set_gold("train", 5, "pos")
    with pytest.raises(DataError, match="unknown split"):
        project.set_gold("validation", 0, "pos")
    assert project.pending_edits == 0  # nothing was journaled


def test_rename_label_renames_gold_values_in_data_and_overlay(project: Project) -> None:
    project.set_gold("train", 2, "pos")  # overlay value
    events: list[dict] = []
    project.subscribe(events.append)
    project.rename_label("pos", "positive")
    assert project.labels == ["neg", "positive"]
    assert project.label_colors["positive"] == PALETTE[1]  # keeps its colour
    assert [project.gold("train", i) for i in range(5)] == ["positive", "neg", "positive", "positive", None]
    assert project.label_counts("train") == {"neg": 1, "positive": 3}
    assert events[-1] == {"kind": "labels_changed", "op": "rename_label", "old": "pos", "new": "positive"}
    # chained renames and a swap through a third name
    project.rename_label("neg", "tmp")
    project.rename_label("positive", "neg")
    project.rename_label("tmp", "positive")
    expected = ["neg", "positive", "neg", "neg", None]
    assert [project.gold("train", i) for i in range(5)] == expected
    project.close(compact=False)
    again = Project.open(project.folder)  # replayed from the journal
    assert again.labels == ["positive", "neg"]
    assert [again.gold("train", i) for i in range(5)] == expected
    again.compact()
    assert again.examples("train").dataset["label"] == expected


def test_rename_refuses_existing_or_unknown_names(project: Project) -> None:
    with pytest.raises(DataError, match="already exists: a rename cannot merge two labels"):
        project.rename_label("pos", "neg")
    with pytest.raises(DataError, match="no label named"):
        project.rename_label("neutral", "x")


def test_label_set_refusals_carry_their_facts(project: Project) -> None:
    """The Label set dialog re-coded these rules to say them in Chinese (and could drift from them):
    the refusals now give their names and numbers as facts for the app to phrase."""
    project.import_examples(from_records("sentence", SENTENCES[:2], source="dev.tsv"), "dev")
    with pytest.raises(DataError) as refused:
        project.remove_label("pos")
    assert refused.value.facts == {"refusal": "label_in_use", "name": "pos", "used": {"train": 2, "dev": 1}}
    with pytest.raises(DataError) as refused:
        project.add_label("neg")
    assert refused.value.facts == {"refusal": "name_taken", "name": "neg"}
    with pytest.raises(DataError) as refused:
        project.rename_label("pos", "neg")
    assert refused.value.facts == {"refusal": "name_taken", "name": "neg", "old": "pos"}
    for empty in ("", "  "):
        with pytest.raises(DataError) as refused:
            project.add_label(empty)
        assert refused.value.facts == {"refusal": "empty_name"}
        with pytest.raises(DataError) as refused:
            project.rename_label("pos", empty)
        assert refused.value.facts == {"refusal": "empty_name"}
    with pytest.raises(DataError) as refused:  # a name's other faults: said in the app's words too
        project.add_label("x" * 10_000)
    assert refused.value.facts == {"refusal": "name_too_long", "name": "x" * 40, "length": 10_000, "limit": 200}
    with pytest.raises(DataError) as refused:
        project.add_label("a\u202eb")
    assert refused.value.facts == {"refusal": "name_hidden", "name": "a b"}
    with pytest.raises(DataError) as refused:
        project.add_label(" neu ")
    assert refused.value.facts == {"refusal": "name_spaces", "name": " neu ", "stripped": "neu"}
    with pytest.raises(DataError) as refused:
        project.rename_label("pos", "NEG")
    assert refused.value.facts == {"refusal": "look_alike", "name": "NEG", "other": "neg"}
    with pytest.raises(DataError) as refused:
        project.add_label("neu", "red")  # another refusal: no facts, the core's words
    assert refused.value.facts == {}
    project.close(compact=False)


def test_remove_label_refused_while_used(project: Project) -> None:
    with pytest.raises(DataError, match=r"'pos' is still used \(2 in train\)"):
        project.remove_label("pos")
    project.add_label("neutral", "#123ABC")
    assert project.labels == ["neg", "pos", "neutral"]
    assert project.label_colors["neutral"] == "#123abc"
    project.set_gold("train", 2, "neutral")
    with pytest.raises(DataError, match="still used"):
        project.remove_label("neutral")
    project.set_gold("train", 2, None)
    project.remove_label("neutral")
    assert project.labels == ["neg", "pos"]
    with pytest.raises(DataError, match="#rrggbb"):
        project.set_label_color("pos", "red")
    project.set_label_color("pos", "#00ff00")
    project.close(compact=False)
    assert Project.open(project.folder).label_colors == {"neg": PALETTE[0], "pos": "#00ff00"}


def test_import_append_and_new_labels(project: Project) -> None:
    more = from_records("sentence", [{"text": "so so", "label": "neutral"}])
    project.set_gold("train", 4, "neg")  # folded before the append, not lost
    with pytest.raises(DataError, match="'neutral'"):  # a new class only when asked for
        project.import_examples(more, "train")
    assert project.num_rows("train") == 5 and project.labels == ["neg", "pos"]
    project.import_examples(more, "train", replace=False, add_labels=True)
    assert project.num_rows("train") == 6
    assert project.labels == ["neg", "pos", "neutral"]
    assert project.gold("train", 4) == "neg" and project.gold("train", 5) == "neutral"
    project.import_examples(from_records("sentence", SENTENCES[:2]), "dev")
    assert project.split_names == ["train", "dev"]
    with pytest.raises(DataError, match="holds tagging examples, not sentence"):
        project.import_examples(from_records("tagging", [{"tokens": ["a"], "tags": ["O"]}]), "test")


def test_ui_state_runs_and_events(project: Project) -> None:
    events: list[dict] = []
    unsubscribe = project.subscribe(events.append)
    project.ui_state.update({"split": "train", "row": 3, "widths": [120, 80]})
    project.recent_settings["learning_rate"] = 3e-5
    project.save_ui_state()
    unsubscribe()
    project.set_gold("train", 0, "neg")
    assert [e["kind"] for e in events] == ["ui_state_saved"]
    first = project.new_run_dir("bert base/lr 3e-5")
    second = project.new_run_dir("bert base/lr 3e-5")
    assert first.name == "bert-base-lr-3e-5" and second.name == "bert-base-lr-3e-5-2"
    assert project.list_runs() == [first, second]
    project.close()
    again = Project.open(project.folder)
    assert again.ui_state == {"split": "train", "row": 3, "widths": [120, 80]}
    assert again.recent_settings == {"learning_rate": 3e-5}
    assert again.gold("train", 0) == "neg"
    with pytest.raises(BertStudioError, match="closed"):
        project.set_gold("train", 0, "pos")


def test_regression_tagging_and_qa_values(tmp_path: Path) -> None:
    reg = Project.create(tmp_path / "reg", name="sts", kind="regression")
    reg.import_examples(from_records("regression", [{"text": "a", "text_pair": "b", "label": 4.2}] * 2))
    assert reg.set_gold("train", 1, 1) == 4.2 and reg.gold("train", 1) == 1.0
    with pytest.raises(DataError, match="not a score"):
        reg.set_gold("train", 0, float("nan"))
    with pytest.raises(ConfigError):
        reg.add_label("x")
    assert reg.progress("train") == (2, 2) and reg.label_counts("train") == {}

    tag = Project.create(tmp_path / "tag", name="ner", kind="tagging", labels=["O", "B-PER", "I-PER"])
    tag.import_examples(from_records("tagging", [{"tokens": ["Ann", "runs"], "tags": ["B-PER", "O"]},
                                                 {"tokens": ["Bob"], "tags": None}]))
    with pytest.raises(DataError, match="2 tags for 1 tokens"):
        tag.set_gold("train", 1, ["O", "O"])
    with pytest.raises(DataError, match="unknown tags"):
        tag.set_gold("train", 1, ["B-LOC"])
    assert tag.set_gold("train", 1, ["B-PER"]) is None
    tag.rename_label("B-PER", "B-PERSON")
    assert tag.gold("train", 0) == ["B-PERSON", "O"] and tag.gold("train", 1) == ["B-PERSON"]
    assert tag.label_counts("train") == {"O": 1, "B-PERSON": 2, "I-PER": 0}
    tag.close()
    assert Project.open(tag.folder).examples("train").dataset["tags"] == [["B-PERSON", "O"], ["B-PERSON"]]

    qa = Project.create(tmp_path / "qa", name="squad", kind="qa")
    qa.import_examples(from_records("qa", [
        {"id": "q1", "title": "", "context": "Paris is in France.", "question": "Where is Paris?",
         "answers": {"text": ["France"], "answer_start": [12]}},
        {"id": "q2", "title": "", "context": "Paris is in France.", "question": "Who?", "answers": None},
    ]))
    assert qa.progress("train") == (1, 2)
    with pytest.raises(DataError, match="not at character 0"):
        qa.set_gold("train", 1, {"text": ["France"], "answer_start": [0]})
    no_answer = {"text": [], "answer_start": []}
    assert qa.set_gold("train", 1, no_answer) is None
    assert qa.label_counts("train") == {"answer": 1, "no_answer": 1}
    assert qa.set_gold("train", 0, no_answer) == {"text": ["France"], "answer_start": [12]}
    qa.close(compact=False)
    again = Project.open(qa.folder)
    assert again.gold("train", 0) == no_answer and again.progress("train") == (2, 2)
    assert again.examples("train").dataset["answers"] == [no_answer, no_answer]


def test_schema_v1_is_upgraded(tmp_path: Path, project: Project) -> None:
    project.close()
    meta = json.loads((project.folder / "project.json").read_text())
    v1 = {"schema_version": 1, "name": meta["name"], "kind": "sentence", "labels": ["neg", "pos"],
          "splits": meta["splits"]}
    (project.folder / "project.json").write_text(json.dumps(v1))
    again = Project.open(project.folder)
    assert any("upgraded from schema version 1" in m for m in again.recovery_messages)
    assert again.label_colors == {"neg": PALETTE[0], "pos": PALETTE[1]}
    assert again.gold("train", 0) == "pos"
    assert json.loads((project.folder / "project.json").read_text())["schema_version"] == 2


def test_newer_schema_is_refused(project: Project) -> None:
    project.close()
    path = project.folder / "project.json"
    meta = json.loads(path.read_text())
    meta["schema_version"] = 99
    path.write_text(json.dumps(meta))
    with pytest.raises(DataError) as info:
        Project.open(project.folder)
    err = info.value
    assert err.path == str(path) and "schema version 99" in err.problem and "schema version 2" in err.expected


def test_export_round_trips(project: Project, tmp_path: Path) -> None:
    io = pytest.importorskip("bertstudio.data.io")
    project.set_gold("train", 2, "neg")
    out = tmp_path / "train.jsonl"
    project.export("train", out, "jsonl")
    back = io.load_examples(out, kind="sentence", fmt="jsonl")
    assert back.dataset["text"] == [r["text"] for r in SENTENCES]
    assert back.dataset["label"] == ["pos", "neg", "neg", "pos", None]


def test_second_open_is_refused_until_closed(project: Project) -> None:
    with pytest.raises(DataError, match="already open"):
        Project.open(project.folder)
    project.close()
    with Project.open(project.folder) as again:
        assert again.num_rows("train") == 5
    assert again.closed


def test_examples_is_reused_until_something_changes(project: Project) -> None:
    first = project.examples("train")
    assert project.examples("train") is first
    project.set_gold("train", 4, "neg")
    second = project.examples("train")
    assert second is not first and second.dataset["label"][4] == "neg"
    project.add_label("neutral")
    assert project.examples("train").labels == ["neg", "pos", "neutral"]
    project.compact()
    assert project.examples("train").dataset["label"] == ["pos", "neg", None, "pos", "neg"]


def test_gold_returns_a_copy_of_mutable_values(tmp_path: Path) -> None:
    tag = Project.create(tmp_path / "tag", name="ner", kind="tagging", labels=["O", "B-PER"])
    tag.import_examples(from_records("tagging", [{"tokens": ["Ann", "runs"], "tags": None}]))
    tag.set_gold("train", 0, ["B-PER", "O"])
    tags = tag.gold("train", 0)
    tags[1] = "B-PER"  # the caller edits its own list ...
    assert tag.gold("train", 0) == ["B-PER", "O"]  # ... not the project's state behind the journal
    tag.close(compact=False)


def test_journal_entry_for_a_missing_row_is_skipped_with_a_message(project: Project) -> None:
    from bertstudio.data.journal import encode_entry

    project.set_gold("train", 1, "pos")
    project.close(compact=False)
    with open(project.folder / "labels.journal", "ab") as f:  # checksum-valid but impossible
        f.write(encode_entry({"seq": 99, "op": "gold", "split": "train", "row": 500, "value": "pos"}))
    again = Project.open(project.folder)
    assert again.gold("train", 1) == "pos"
    assert again.recovery_messages == ["labels.journal: edit 99 skipped (row 500 is out of range)"]
    assert again.last_seq == 99  # the next edit still gets a fresh number


def test_append_with_other_columns_is_refused(project: Project) -> None:
    pair = from_records("pair", [{"text": "a", "text_pair": "b", "label": "pos"}])
    odd = from_records("sentence", [{"text": "a", "label": "pos"}])
    odd = odd.with_dataset(odd.dataset.add_column("extra", [1]))
    with pytest.raises(DataError, match="same columns"):
        project.import_examples(odd, "train", replace=False)
    with pytest.raises(DataError, match="holds pair examples, not sentence"):
        project.import_examples(pair, "train")


def test_files_behind_handed_out_datasets_outlive_compactions(project: Project) -> None:
    handed_out = project.examples("train")  # e.g. a training run holding the split
    first = project.folder / project.split_info["train"]["file"]
    for value in ("neg", "pos", "neg"):  # three compactions: the backup no longer names `first`
        project.set_gold("train", 4, value)
        project.compact()
    assert first.exists() and handed_out.dataset["label"][4] is None
    foreign = project.folder / "data" / "cache-0123abcd.arrow"  # datasets' own cache file
    foreign.write_bytes(b"x")
    project.close()
    assert not first.exists() and foreign.exists()
    names = sorted(p.name for p in (project.folder / "data").iterdir())
    meta = json.loads((project.folder / "project.json").read_text())
    backup = json.loads((project.folder / "project.json.bak").read_text())
    assert names == sorted({"cache-0123abcd.arrow", Path(meta["splits"]["train"]["file"]).name,
                            Path(backup["splits"]["train"]["file"]).name})


def test_a_failed_write_is_reported_and_leaves_nothing_behind(project: Project, monkeypatch) -> None:
    import bertstudio.data.atomic as atomic  # the journal appends through it

    project.set_gold("train", 2, "pos")
    size = (project.folder / "labels.journal").stat().st_size
    events: list[dict] = []
    project.subscribe(events.append)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(DataError, match="No space left on device"):
        project.set_gold("train", 4, "neg")
    monkeypatch.undo()
    assert project.gold("train", 4) is None and events == []
    assert (project.folder / "labels.journal").stat().st_size == size  # the unsynced line was cut back
    project.set_gold("train", 4, "pos")  # and the next edit works
    project.close(compact=False)
    again = Project.open(project.folder)
    assert again.gold("train", 4) == "pos" and again.recovery_messages == []


def test_an_sts_b_project_takes_scores_on_its_scale_only(tmp_path):
    """A helper imported a plain TSV with scores 7.5 and -1 into an STS-B project: all 20 rows went
    in ("Scores from -1.00 to 7.50"), where the benchmark's own layout refuses 7.5. A plain
    regression project has no scale and keeps any finite score."""
    from bertstudio.data.examples import from_records
    from bertstudio.errors import DataError

    rows = [{"text": "a", "text_pair": "b", "label": 2.5}, {"text": "c", "text_pair": "d", "label": None},
            {"text": "e", "text_pair": "f", "label": 7.5}]
    stsb = Project.create(tmp_path / "stsb", name="s", kind="regression", glue_task="STS-B")
    examples = from_records("regression", rows, labels=[])
    examples.source = "scores.tsv"
    with pytest.raises(DataError) as caught:
        stsb.import_examples(examples, "train")
    assert str(caught.value) == "scores.tsv, row 3: score 7.5 is outside the STS-B scale (expected a number in [0, 5])"
    assert "train" not in stsb.split_names
    stsb.import_examples(from_records("regression", rows[:2], labels=[]), "train")  # on the scale, and unscored: in
    assert stsb.gold("train", 0) == 2.5 and stsb.gold("train", 1) is None
    stsb.close()
    plain = Project.create(tmp_path / "plain", name="p", kind="regression")
    plain.import_examples(from_records("regression", rows, labels=[]), "train")
    assert plain.gold("train", 2) == 7.5
    plain.close()


def test_a_splits_lineage_stays_through_appends_and_changes_when_its_rows_are_replaced(tmp_path):
    """Per-row state (the assistant's audit set) is kept for the same rows: an append keeps the
    lineage, a replace and a new split get a new one, a restore brings back the restored rows'
    own (a run's predictions and the Review queue's flags name them again), and it survives
    reopening."""
    rows = lambda *texts: from_records("sentence", [{"text": t, "label": None} for t in texts])  # noqa: E731
    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(rows("a", "b"), "train")
    first = p.split_info["train"]["lineage"]
    p.import_examples(rows("c"), "train")
    assert p.split_info["train"]["lineage"] == first and p.split_info["train"]["rows"] == 3
    p.import_examples(rows("d"), "dev")
    assert p.split_info["dev"]["lineage"] not in (None, first)
    backup = p.import_examples(rows("e"), "train", replace=True)
    replaced = p.split_info["train"]["lineage"]
    assert replaced != first
    again_backup = p.restore_split_backup(backup["id"])
    assert p.split_info["train"]["lineage"] == first
    p.restore_split_backup(again_backup["id"])  # redo: the replacing rows, under their lineage
    assert p.split_info["train"]["lineage"] == replaced
    p.restore_split_backup(backup["id"])
    assert p.split_info["train"]["lineage"] == first
    p.import_examples(rows("x"), "train")  # appended: the same lineage, one row more
    p.restore_split_backup(backup["id"])  # the first rows again, while a backup holds them with "x" under it
    assert p.split_info["train"]["lineage"] not in (first, replaced)  # a review: row 2 named x and y alike
    kept = p.split_info["train"]["lineage"]
    p.close()
    again = Project.open(tmp_path / "p")
    try:
        assert again.split_info["train"]["lineage"] == kept
    finally:
        again.close()


def test_label_names_that_read_the_same_are_refused_for_new_names_only(tmp_path):
    """A helper's GUI sweep: 'Pos', 'POS' and 'pos\\u200b' beside 'pos' were accepted by the label
    set editor and New project: classes a person cannot tell apart in any list."""
    with pytest.raises(DataError, match="reads the same as 'pos'"):
        Project.create(tmp_path / "a", name="a", kind="sentence", labels=["pos", "neg", "Pos"])
    p = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["pos", "neg"])
    try:
        for name in ("POS", "pos\u200b", " pos ", "ｐｏｓ", "neg\u00a0"):
            # surrounding spaces are refused on their own now (a new name may not have them)
            with pytest.raises(DataError, match="reads the same as|starts or ends with a space"):
                p.add_label(name)
        with pytest.raises(DataError, match="starts or ends with a space"):
            p.rename_label("neg", " pos")
        p.rename_label("pos", "Pos")  # the same label, written another way: its own choice
        assert p.labels == ["Pos", "neg"]
        p.add_label("neutral")
    finally:
        p.close()


@pytest.mark.parametrize("reopen", [False, True])
def test_restored_rows_come_back_under_the_labels_current_names(tmp_path, reopen):
    """Rows replaced, then a label renamed (twice, and a new label given the old name): Restore
    brings the rows back under the renamed label, not the old name as a second class, also
    after a reopen (the rename replayed from the journal or read from project.json)."""
    rows = lambda *pairs: from_records("sentence", [{"text": t, "label": y} for t, y in pairs])  # noqa: E731
    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(rows(("a", "neg"), ("b", "pos"), ("c", None)), "train")
    backup = p.import_examples(rows(("d", "pos")), "train", replace=True)
    p.rename_label("neg", "negative")
    p.rename_label("negative", "bad")
    p.add_label("neg")  # a new class that happens to reuse the old name
    if reopen:
        p.close()
        p = Project.open(tmp_path / "p")
    assert [b["labels"] for b in p.split_backups()] == [["bad", "pos"]]
    p.restore_split_backup(backup["id"])
    assert [p.gold("train", i) for i in range(3)] == ["bad", "pos", None]
    assert p.labels == ["bad", "pos", "neg"] and p.label_counts("train").get("neg", 0) == 0
    p.close()


def test_new_label_names_with_surrounding_spaces_are_refused_and_old_ones_still_open(tmp_path):
    """' padded ' came in from a JSON Lines import and Project.create, then the project's own CSV
    export read it back as 'padded'. New names may not start or end with whitespace (create,
    add, rename, import), with the trimmed name offered; a project that holds one still opens."""
    with pytest.raises(DataError, match=r"starts or ends with a space \(did you mean 'padded'\?\)"):
        Project.create(tmp_path / "a", name="a", kind="sentence", labels=["ok", " padded "])
    p = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["ok"])
    try:
        with pytest.raises(DataError, match="starts or ends with a space"):
            p.add_label("tab\t")
        with pytest.raises(DataError, match="starts or ends with a space"):
            p.rename_label("ok", "ok ")
        with pytest.raises(DataError, match="did you mean 'padded'") as info:
            p.import_examples(from_records("sentence", [{"text": "a", "label": " padded "}], source="x.jsonl"),
                              "train", add_labels=True)
        assert info.value.path == "x.jsonl" and p.labels == ["ok"]
    finally:
        p.close()
    from bertstudio.data.project_meta import label_name_problem

    # made before the rule: project.json and the journal (checked without new=True) still open
    assert label_name_problem(" ok ") is None and "space" in label_name_problem(" ok ", new=True)


def test_an_undo_gives_back_a_name_made_before_surrounding_spaces_were_refused(tmp_path):
    """A project from before the rule holds ' pos'; renamed to 'pos', Edit > Undo renames it back,
    and a removal's undo adds it back (the session passes restoring=True): both were refused."""
    p = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["neg"])
    try:
        p.add_label(" pos", restoring=True)  # as an older project.json holds it
        p.rename_label(" pos", "pos")
        with pytest.raises(DataError, match="starts or ends with a space"):
            p.rename_label("pos", " pos")  # typed by a person: refused
        p.rename_label("pos", " pos", restoring=True)  # the undo
        assert p.labels == ["neg", " pos"]
        p.remove_label(" pos")
        p.add_label(" pos", index=1, restoring=True)
        assert p.labels == ["neg", " pos"]
    finally:
        p.close()
