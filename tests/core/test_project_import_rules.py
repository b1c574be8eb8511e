"""Imports never lose or silently change what the user made (issue 11, items 1 and 2, the core).

Replacing a split's rows keeps them as a restorable backup in the project folder
(also after a reopen, edits still in the journal included); appending is the
default; label values outside the project's label set are refused unless mapped
(by name, by position) or added as new classes on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bertstudio.data import project_store
from bertstudio.data.examples import from_records
from bertstudio.data.labelmap import apply_mapping, file_label_values, propose_mapping
from bertstudio.data.project import Project
from bertstudio.errors import DataError

NLI = ["entailment", "neutral", "contradiction"]


def _sentences(n: int, labels: list[str | None], prefix: str = "s") -> list[dict]:
    return [{"text": f"{prefix}{i}", "label": labels[i % len(labels)]} for i in range(n)]


@pytest.fixture()
def labelled(tmp_path: Path) -> Project:
    """300 labelled rows in train (the issue's example)."""
    p = Project.create(tmp_path / "p", name="reviews", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", _sentences(300, ["neg", "pos"]), source="first.csv"), "train")
    return p


def test_import_appends_by_default(labelled: Project) -> None:
    labelled.import_examples(from_records("sentence", _sentences(100, [None], "new")), "train")
    assert labelled.num_rows("train") == 400 and labelled.progress("train") == (300, 400)
    assert labelled.row("train", 0)["text"] == "s0" and labelled.row("train", 300)["text"] == "new0"
    assert labelled.split_backups() == []


def test_replace_keeps_the_replaced_rows_restorable_after_a_reopen(labelled: Project) -> None:
    labelled.set_gold("train", 7, "neg")  # journaled, not yet folded: the backup must hold it
    backup = labelled.import_examples(from_records("sentence", _sentences(100, [None], "new"), source="second.csv"),
                                      "train", replace=True)
    assert labelled.num_rows("train") == 100 and labelled.progress("train") == (0, 100)
    assert backup is not None
    assert (backup["split"], backup["rows"], backup["labelled"]) == ("train", 300, 300)
    assert backup["labels"] == ["neg", "pos"] and backup["source"] == "first.csv"
    kept = labelled.folder / backup["file"]
    assert kept.parent == labelled.folder / "data" / "backup" and kept.is_file()
    labelled.close()  # compaction and cleanup must not touch the backup
    assert kept.is_file()

    again = Project.open(labelled.folder)
    assert [b["id"] for b in again.split_backups("train")] == [backup["id"]]
    assert json.loads((again.folder / "project.json").read_text())["backups"][0]["file"] == backup["file"]
    second = again.restore_split_backup(backup["id"])
    assert again.num_rows("train") == 300 and again.progress("train") == (300, 300)
    assert again.gold("train", 7) == "neg" and again.gold("train", 9) == "pos"  # row 7 was "pos": the journaled edit too
    assert again.split_info["train"]["source"] == "first.csv"
    # the 100 rows the restore replaced are kept the same way; the first backup stays
    assert second is not None and second["rows"] == 100
    assert [b["id"] for b in again.split_backups()] == [backup["id"], second["id"]]
    again.close()
    assert all((labelled.folder / b["file"]).is_file() for b in (backup, second))


def test_a_failed_replace_changes_nothing(labelled: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(project_store, "write_split", full_disk)
    with pytest.raises(DataError, match="No space left on device"):
        labelled.import_examples(from_records("sentence", _sentences(100, [None])), "train", replace=True)
    monkeypatch.undo()
    assert labelled.num_rows("train") == 300 and labelled.split_backups() == []
    backup_dir = labelled.folder / "data" / "backup"
    assert not backup_dir.exists() or list(backup_dir.iterdir()) == []


def test_unknown_backup_is_a_clear_error(labelled: Project) -> None:
    with pytest.raises(DataError, match="no backup named 'nope'"):
        labelled.restore_split_backup("nope")


# -- label values ---------------------------------------------------------------------------------
def test_propose_mapping_by_name_then_by_position() -> None:
    assert propose_mapping(["0", "1", "2"], NLI) == dict(zip(["0", "1", "2"], NLI))
    assert propose_mapping(["Neutral", "0", "2"], NLI) == {"Neutral": "neutral", "0": "entailment",
                                                           "2": "contradiction"}
    # a position already taken by name is not given twice; a value nothing fits gets None
    assert propose_mapping(["entailment", "0", "maybe", "7"], NLI) == {"entailment": "entailment", "0": None,
                                                                       "maybe": None, "7": None}
    assert propose_mapping(["not_entailment"], ["entailment", "not entailment"]) == {
        "not_entailment": "not entailment"}


@pytest.fixture()
def nli(tmp_path: Path) -> Project:
    p = Project.create(tmp_path / "nli", name="nli", kind="pair", labels=NLI)
    p.import_examples(from_records("pair", [{"text": "a", "text_pair": "b", "label": "neutral"}]), "train")
    return p


def _numbered_pairs() -> list[dict]:
    return [{"text": f"p{i}", "text_pair": f"h{i}", "label": v} for i, v in enumerate(["0", "1", "2", None, "2"])]


def test_numbered_labels_are_refused_unless_mapped(nli: Project) -> None:
    numbered = from_records("pair", _numbered_pairs())
    with pytest.raises(DataError, match="'0', '1', '2'") as info:
        nli.import_examples(numbered, "dev")
    assert "entailment" in info.value.message and "new classes" in info.value.message
    assert nli.labels == NLI and nli.num_rows("dev") == 0

    mapping = propose_mapping(list(file_label_values(numbered)), nli.labels)
    nli.import_examples(numbered, "dev", label_map=mapping)
    assert nli.labels == NLI  # no class added
    assert [nli.gold("dev", r) for r in range(5)] == ["entailment", "neutral", "contradiction", None,
                                                      "contradiction"]
    assert nli.label_counts("dev") == {"entailment": 1, "neutral": 1, "contradiction": 2}


def test_adding_new_classes_and_leaving_rows_unlabelled_are_explicit_choices(nli: Project) -> None:
    numbered = from_records("pair", _numbered_pairs())
    nli.import_examples(numbered, "dev", label_map={"0": "entailment", "1": None}, add_labels=True)
    assert nli.labels == NLI + ["2"]
    assert [nli.gold("dev", r) for r in range(5)] == ["entailment", None, "2", None, "2"]


def test_unlabelled_file_with_declared_labels_adds_no_class(tmp_path: Path, shared_data: Path) -> None:
    from bertstudio.data.io import load_examples

    test = load_examples(shared_data / "glue" / "SST-2" / "test.tsv")  # 1,821 unlabelled rows, labels declared
    assert test.labels == ["negative", "positive"]
    p = Project.create(tmp_path / "sst", name="sst", kind="sentence", labels=["bad", "good"])
    p.import_examples(test, "test")
    assert p.labels == ["bad", "good"]
    assert p.progress("test") == (0, 1821)
    p.close()


def test_an_empty_label_set_takes_the_files_labels_in_order(tmp_path: Path) -> None:
    p = Project.create(tmp_path / "e", name="e", kind="pair")
    p.import_examples(from_records("pair", _numbered_pairs(), labels=["0", "1", "2"]), "train")
    assert p.labels == ["0", "1", "2"]
    p.close()


def test_tags_follow_the_same_rule(tmp_path: Path) -> None:
    p = Project.create(tmp_path / "t", name="ner", kind="tagging", labels=["O", "B-PER", "I-PER"])
    rows = [{"tokens": ["Ann", "Lee", "runs"], "tags": ["B-person", "I-person", "O"]},
            {"tokens": ["x"], "tags": None}]
    tagged = from_records("tagging", rows)
    with pytest.raises(DataError, match="'B-person', 'I-person'"):
        p.import_examples(tagged, "train")
    with pytest.raises(DataError, match="needs a tag"):
        p.import_examples(tagged, "train", label_map={"B-person": None})
    p.import_examples(tagged, "train", label_map={"B-person": "B-PER", "I-person": "I-PER"})
    assert p.labels == ["O", "B-PER", "I-PER"]
    assert p.gold("train", 0) == ["B-PER", "I-PER", "O"] and p.gold("train", 1) is None
    p.close()


def test_apply_mapping_maps_a_selection_and_the_label_order() -> None:
    examples = from_records("sentence", _sentences(6, ["0", "1", None]), labels=["0", "1"]).select([1, 2, 4])
    mapped = apply_mapping(examples, {"0": "neg", "1": "pos"})
    assert mapped.dataset["label"] == ["pos", None, "pos"] and mapped.labels == ["neg", "pos"]


def test_the_backup_is_a_copy_where_the_file_system_has_no_hard_links(labelled: Project,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*_a, **_k):
        raise OSError(1, "Operation not permitted")  # FAT, some network shares

    monkeypatch.setattr(project_store.os, "link", no_links)
    backup = labelled.import_examples(from_records("sentence", _sentences(10, [None])), "train", replace=True)
    monkeypatch.undo()
    kept = labelled.folder / backup["file"]
    assert kept.stat().st_nlink == 1 and not list(kept.parent.glob(".*.tmp"))
    labelled.restore_split_backup(backup["id"])
    assert labelled.num_rows("train") == 300 and labelled.progress("train") == (300, 300)
    labelled.close()


def test_decimal_scores_are_refused_as_new_classes(tmp_path: Path) -> None:
    """Sweep #8: the app imported 40 decimal scores into a sentence project as 40 classes without a
    word (training refuses the same file); the project refuses, and says a scores project takes them.
    Whole numbers (1.0 and 0.0 included) and numbers the label set lists already stay classes."""
    p = Project.create(tmp_path / "s", name="s", kind="sentence")
    scores = from_records("sentence", _sentences(6, ["0.21", "1.91", "3", "0.66"]), source="sent_dec.csv")
    with pytest.raises(DataError) as caught:
        p.import_examples(scores, "train", add_labels=True)
    assert "numbers with decimals ('0.21', '1.91', '0.66')" in str(caught.value) and "sent_dec.csv" in str(caught.value)
    assert "regression" in str(caught.value) and p.labels == [] and "train" not in p.split_names
    p.import_examples(from_records("sentence", _sentences(4, ["1.0", "0.0", "2"])), "train")
    assert sorted(p.labels) == ["0.0", "1.0", "2"]
    listed = Project.create(tmp_path / "l", name="l", kind="sentence", labels=["0.5", "1.5"])
    listed.import_examples(from_records("sentence", _sentences(4, ["0.5", "1.5"])), "train")  # the person's own set
    assert listed.labels == ["0.5", "1.5"]
    p.close()
    listed.close()
