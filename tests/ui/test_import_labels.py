"""The Import dialog's label step, through the real dialog (issue 11, item 2).

A file numbered 0/1/2 going into an entailment/neutral/contradiction project is
shown beside the project's labels, mapped by position, and adds no class; a new
class or an unlabelled row is the user's explicit choice; a value nothing fits
waits for a choice; an unlabelled file adds nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from bertstudio.ui.import_dialog import ImportDialog

NLI = ["entailment", "neutral", "contradiction"]
SEED = {"train": [{"text": "a man sleeps", "text_pair": "a person rests", "label": "entailment"}]}


def _ok(dialog: ImportDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


@pytest.fixture()
def snli_rows(tmp_path: Path, shared_data: Path) -> Path:
    """The first 30 rows of SNLI validation (0/1/2 labels) under a name no preset recognises."""
    lines = (shared_data / "snli" / "validation.tsv").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "other_name_nli_test.tsv"
    path.write_text("".join(lines[:31]), encoding="utf-8")
    return path


def _labels_in_file(path: Path) -> list[str]:
    return [line.rsplit("\t", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def _open(qtbot, session, path: Path, split: str = "dev") -> ImportDialog:
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.target.set_split(split)
    return dialog


def test_numbered_labels_are_shown_and_mapped_by_position(qtbot, session_factory, snli_rows):
    session = session_factory("pair", NLI, SEED)
    dialog = _open(qtbot, session, snli_rows)
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)  # reads the file, then stops at the label step
    assert session.split_size("dev") == 0 and dialog.isVisible() and dialog.label_box.isVisible()
    box = dialog.label_box
    assert sorted(box.combos) == ["0", "1", "2"]
    assert {v: c.currentText() for v, c in box.combos.items()} == {"0": "entailment", "1": "neutral",
                                                                    "2": "contradiction"}
    combo_items = [box.combos["0"].itemText(i) for i in range(box.combos["0"].count())]
    assert combo_items[1:4] == NLI and "add “0” as a new class" in combo_items and "leave unlabelled" in combo_items
    assert "entailment, neutral, contradiction" in box.intro.text()
    assert box.summary.text() == "3 value(s) become project labels."
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.labels() == NLI  # no class added
    expected = [NLI[int(v)] for v in _labels_in_file(snli_rows)]
    assert [session.gold("dev", r) for r in range(30)] == expected


def test_new_class_and_unlabelled_are_explicit_choices(qtbot, session_factory, snli_rows):
    session = session_factory("pair", NLI, SEED)
    dialog = _open(qtbot, session, snli_rows)
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    box.combos["1"].setCurrentIndex(box.combos["1"].findText("add “1” as a new class"))
    box.combos["2"].setCurrentIndex(box.combos["2"].findText("leave unlabelled"))
    file_labels = _labels_in_file(snli_rows)
    assert box.summary.text() == (f"1 value(s) become project labels; 1 new class(es) will be added; "
                                  f"{file_labels.count('2')} row(s) stay unlabelled.")
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.labels() == NLI + ["1"]
    expected = [{"0": "entailment", "1": "1", "2": None}[v] for v in file_labels]
    assert [session.gold("dev", r) for r in range(30)] == expected


def test_a_value_nothing_fits_waits_for_a_choice(qtbot, session_factory, tmp_path):
    session = session_factory("sentence", ["negative", "positive"], None)
    path = tmp_path / "reviews.csv"
    path.write_text("text,label\ngreat,Positive\nawful,negative\nso so,meh\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    assert {v: c.currentText() for v, c in box.combos.items()} == {"Positive": "positive", "negative": "negative",
                                                                    "meh": "— choose —"}
    assert not _ok(dialog).isEnabled() and box.summary.text().endswith("choose for: meh.")
    box.combos["meh"].setCurrentIndex(box.combos["meh"].findText("negative"))
    assert _ok(dialog).isEnabled()
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert [session.gold("train", r) for r in range(3)] == ["positive", "negative", "negative"]
    assert session.labels() == ["negative", "positive"]


def test_a_new_tagging_projects_first_file_brings_its_tags(qtbot, session_factory, tmp_path):
    """A tagging project with no rows and no typed tags (its label set is "O"; a .conllu dropped on the
    welcome window makes one): each file tag starts at "add as a new class" (a POS file was 17
    "— choose —" combos). With typed labels, a value nothing fits still waits for a choice (above)."""
    session = session_factory("tagging", ["O"], None)
    path = tmp_path / "pos.conll"
    path.write_text("She PRON\nruns VERB\nfast ADV\n\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    assert {v: c.currentText() for v, c in box.combos.items()} == {v: f"add “{v}” as a new class"
                                                                    for v in ("PRON", "VERB", "ADV")}
    assert _ok(dialog).isEnabled()
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    # the starting "O" no row uses goes: it was key 1 on the Label page and a class of the model (a new-user sweep)
    assert session.labels() == ["PRON", "VERB", "ADV"] and session.gold("train", 0) == ["PRON", "VERB", "ADV"]


def test_a_new_tagging_projects_ner_file_keeps_its_o(qtbot, session_factory, tmp_path):
    session = session_factory("tagging", ["O"], None)
    path = tmp_path / "ner.conll"
    path.write_text("Ann B-PER\nruns O\n\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.labels() == ["O", "B-PER"] and session.gold("train", 0) == ["B-PER", "O"]


def test_the_labels_that_wait_for_a_choice_come_first_and_are_named(qtbot, session_factory, tmp_path):
    """A dev file with one new tag among 16 matched ones: the row to choose was below the scroll,
    Import grey, and the status did not say which (a new-user sweep)."""
    tags = [f"T{i:02d}" for i in range(16)]
    session = session_factory("tagging", tags, None)
    path = tmp_path / "dev.conll"
    path.write_text("".join(f"w{i} {t}\n" for i, t in enumerate(tags)) + "odd X\n\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "dev")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    assert list(box.combos)[0] == "X" and box.unresolved() == ["X"]
    assert not _ok(dialog).isEnabled() and "choose what X become" in dialog.status_label.text()
    box.combos["X"].setCurrentIndex(box.combos["X"].findText("T00"))
    assert _ok(dialog).isEnabled() and "Every label of the file has a place" in dialog.status_label.text()


def test_an_unlabelled_glue_test_file_adds_no_class(qtbot, session_factory, shared_data):
    session = session_factory("sentence", ["negative", "positive"], None)
    dialog = _open(qtbot, session, shared_data / "glue" / "SST-2" / "test.tsv", "test")
    assert dialog.preset_combo.currentData() == "SST-2"
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)  # no label step: no label value to map
    assert session.labels() == ["negative", "positive"]
    assert session.progress("test") == (0, 1821)


def test_tags_get_the_label_step_too(qtbot, session_factory, tmp_path):
    session = session_factory("tagging", ["O", "B-PER", "I-PER"], None)
    path = tmp_path / "names.conll"
    path.write_text("Ann B-person\nLee I-person\nruns O\n\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    assert sorted(box.combos) == ["B-person", "I-person", "O"] and box.combos["O"].currentText() == "O"
    items = [box.combos["B-person"].itemText(i) for i in range(box.combos["B-person"].count())]
    assert "leave unlabelled" not in items  # every token needs a tag
    box.combos["B-person"].setCurrentIndex(box.combos["B-person"].findText("B-PER"))
    box.combos["I-person"].setCurrentIndex(box.combos["I-person"].findText("I-PER"))
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.gold("train", 0) == ["B-PER", "I-PER", "O"] and session.labels() == ["O", "B-PER", "I-PER"]


def test_a_long_label_step_scrolls_and_leaves_the_preview_readable(qtbot, session_factory, tmp_path):
    """A second file with 15 values the project lacks squeezed the preview above to one row."""
    session = session_factory("tagging", ["NOUN"], None)
    path = tmp_path / "many.conll"
    path.write_text("".join(f"w{i} T{i}\n" for i in range(15)) + "\n", encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    dialog.resize(700, 600)
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert len(dialog.label_box.combos) == 15 and dialog.label_scroll.isVisible()
    rows = dialog.preview_table.verticalHeader().defaultSectionSize()
    qtbot.waitUntil(lambda: dialog.preview_table.height() >= 5 * rows)
    assert dialog.label_scroll.verticalScrollBar().maximum() > 0  # the step scrolls instead


def test_many_unknown_labels_are_settled_at_once(qtbot, session_factory, tmp_path):
    """A file of 30 topics into a two-label project needed 30 separate "— choose —" picks."""
    session = session_factory("sentence", ["neg", "pos"], None)
    path = tmp_path / "topics.tsv"
    path.write_text("text\tlabel\n" + "".join(f"story {i}\tcat{i % 30}\n" for i in range(60)), encoding="utf-8")
    dialog = _open(qtbot, session, path, "train")
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    box = dialog.label_box
    assert len(box.unresolved()) == 30 and not _ok(dialog).isEnabled()
    assert box.add_rest_button.isVisibleTo(dialog) and box.skip_rest_button.isVisibleTo(dialog)
    box.combos["cat3"].setCurrentIndex(box.combos["cat3"].findText("pos"))  # one chosen by hand stays
    qtbot.mouseClick(box.skip_rest_button, Qt.MouseButton.LeftButton)
    assert box.unresolved() == [] and _ok(dialog).isEnabled() and not box.add_rest_button.isVisibleTo(dialog)
    assert box.mapping()["cat3"] == "pos" and box.mapping()["cat0"] is None
    for combo in box.combos.values():  # back to undecided, then all added
        combo.setCurrentIndex(0)
    qtbot.mouseClick(box.add_rest_button, Qt.MouseButton.LeftButton)
    assert box.add_labels() and set(box.mapping().values()) == {f"cat{i}" for i in range(30)}
    with qtbot.waitSignal(dialog.imported):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert len(session.labels()) == 32 and session.gold("train", 0) == "cat0"


def test_a_refused_new_label_name_is_not_said_to_have_a_place(qtbot, session_factory, tmp_path):
    """A file label added as a new class whose name the label set refuses (a look-alike of "pos") was
    refused in red while the line above still said "Every label of the file has a place: Import when
    ready." Now that line goes; a new choice says it again."""
    session = session_factory("sentence", ["neg", "pos"], None)
    path = tmp_path / "look.jsonl"
    path.write_text('{"text": "hi", "label": "\\u200bpos"}\n{"text": "yo", "label": "neg"}\n', encoding="utf-8")
    dialog = _open(qtbot, session, path, split="train")
    dialog.start_import()
    dialog.label_box.choose_rest("new")
    assert "has a place" in dialog.status_label.text()
    dialog.start_import()
    assert "reads the same as" in dialog.error_label.text() and dialog.status_label.text() == ""
    assert session.labels() == ["neg", "pos"] and session.split_size("train") == 0
    combo = dialog.label_box.combos["\u200bpos"]
    combo.setCurrentIndex(combo.findText("pos"))  # what it meant
    assert "has a place" in dialog.status_label.text() and dialog.error_label.text() == ""
    with qtbot.waitSignal(dialog.imported):
        dialog.start_import()
    assert [session.gold("train", r) for r in range(2)] == ["pos", "neg"]
