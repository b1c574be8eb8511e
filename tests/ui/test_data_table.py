"""The Arrow-backed table model and the Data page: big splits, search, filters, disagreement with a run."""

from __future__ import annotations

import json

import datasets
import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt

from bertstudio.data.examples import FEATURES, ExampleSet
from bertstudio.data.project import Project
from bertstudio.ui.data_model import ExampleTableModel, arrow_table
from bertstudio.ui.data_page import FILTER_ALL, FILTER_DISAGREE, FILTER_LABEL, FILTER_UNLABELLED, DataPage
from bertstudio.ui.session import ProjectSession

WORDS = ["good", "bad", "fine", "awful", "great"]


def _sentences(n: int) -> ExampleSet:
    """Row i: "row i is <word i%5>", labelled pos/neg by parity, every third row unlabelled."""
    text = [f"row {i} is {WORDS[i % 5]}" for i in range(n)]
    label = [None if i % 3 == 0 else ("pos" if i % 2 else "neg") for i in range(n)]
    ds = datasets.Dataset.from_dict({"text": text, "label": label}, features=FEATURES["sentence"])
    return ExampleSet("sentence", ds, ["neg", "pos"])


def test_model_passes_qtmodeltester_on_a_small_split(qtmodeltester):
    model = ExampleTableModel("sentence", arrow_table(_sentences(40)))
    qtmodeltester.check(model)
    model.set_index(np.array([1, 5, 39]))
    qtmodeltester.check(model)
    assert model.rowCount() == 3 and model.data(model.index(2, 0)) == "row 39 is great"
    assert model.headerData(2, Qt.Orientation.Vertical) == "40"  # row numbers are the split's, 1-based


@pytest.fixture(scope="module")
def big_project(tmp_path_factory):
    project = Project.create(tmp_path_factory.mktemp("big") / "p", name="big", kind="sentence", labels=["neg", "pos"])
    project.import_examples(_sentences(550_000), "train")
    yield project
    project.close(compact=False)


def test_550k_rows_answer_on_demand(qtbot, big_project, tmp_path):
    session = ProjectSession(big_project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show()
    model = page.table.model()
    assert page.table.objectName() == "dataTable" and isinstance(model, ExampleTableModel)
    assert model.rowCount() == 550_000
    last = model.index(549_999, 0)
    assert model.data(last) == "row 549999 is great"  # 549999 % 5 == 4
    assert model.data(model.index(549_999, 1)) == ""  # 549999 = 3 * 183333: unlabelled
    assert model.data(model.index(549_998, 1)) == "neg"  # even, not a multiple of 3
    assert len(model._blocks) <= 16  # only the blocks that were shown are converted
    assert page.count_label.text() == "550,000 of 550,000 rows"

    # Search is vectorised over the column: exactly the rows whose number contains "54999".
    page.search_edit.setText("row 54999 ")
    page.apply_filters()
    assert page.shown_rows() == [54_999]
    page.search_edit.clear()

    # Unlabelled = every third row; label = pos = odd rows not divisible by 3.
    page.set_filter(FILTER_UNLABELLED)
    assert model.rowCount() == len(range(0, 550_000, 3))
    assert model.source_row(model.rowCount() - 1) == 549_999 - 549_999 % 3
    page.set_filter(FILTER_LABEL, "pos")
    expected_pos = sum(1 for i in range(1, 550_000, 2) if i % 3)
    assert model.rowCount() == expected_pos
    # An edit shows at once in the filtered view and in the distribution.
    row = model.source_row(0)
    session.apply_gold("train", row, "neg", "relabel")
    assert model.data(model.index(0, 1)) == "neg"
    qtbot.waitUntil(lambda: page.distribution.counts()["neg"] == 550_000 - len(range(0, 550_000, 3)) - expected_pos + 1)
    session.undo_stack.undo()
    assert big_project.gold("train", row) == "pos"
    session._detach()  # the fixture's project outlives this session


def _write_run(runs_dir, name, preds, split="dev", rows=None):
    folder = runs_dir / name
    folder.mkdir(parents=True)
    with open(folder / "predictions.jsonl", "w", encoding="utf-8") as fh:
        for p in preds:
            fh.write(json.dumps(p) + "\n")
    if rows is not None:
        (folder / "eval_rows.json").write_text(json.dumps({"split": split, "rows": rows}), encoding="utf-8")
    return folder


def test_filters_and_disagreement_with_the_latest_run(qtbot, session_factory):
    rows = [{"text": f"t{i}", "label": lab} for i, lab in enumerate(["pos", "neg", "pos", None, "neg"])]
    session = session_factory("sentence", ["neg", "pos"], {"dev": rows})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show_split("dev")
    assert page.distribution.counts() == {"neg": 2, "pos": 2}
    # The run evaluated dev rows [0, 1, 2, 4] (labelled ones); it got rows 1 and 4 wrong.
    preds = [{"index": 0, "label": "pos"}, {"index": 1, "label": "pos"}, {"index": 2, "label": "pos"},
             {"index": 3, "label": "pos"}]
    _write_run(session.project.runs_dir, "run-1", preds, "dev", [0, 1, 2, 4])
    page.set_filter(FILTER_DISAGREE)
    assert page.shown_rows() == [1, 4]
    # Fixing the gold of row 4 to what the model said makes it agree.
    session.apply_gold("dev", 4, "pos", "fix")
    page.apply_filters()
    assert page.shown_rows() == [1]
    page.set_filter(FILTER_UNLABELLED)
    assert page.shown_rows() == [3]


def test_a_filter_on_labels_follows_labels_given_elsewhere(qtbot, session_factory):
    """A long-session drive: Show Unlabelled, label rows on the Label page, come back: the page
    still listed the now labelled rows under "169 of 325 rows"."""
    rows = [{"text": f"t{i}", "label": None} for i in range(6)]
    session = session_factory("sentence", ["neg", "pos"], {"train": rows})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show()
    page.show_split("train")
    page.set_filter(FILTER_UNLABELLED)
    assert page.shown_rows() == list(range(6)) and page.count_label.text() == "6 of 6 rows"
    page.hide()  # the person goes to the Label page
    session.apply_gold("train", 1, "pos", "label")
    session.apply_gold("train", 2, "neg", "label")
    page.show()  # and comes back
    assert page.shown_rows() == [0, 3, 4, 5] and page.count_label.text() == "4 of 6 rows"
    # on screen (an undo from the Edit menu): the filter follows within a moment, and the row
    # looked at stays selected
    session.set_current("train", 4)
    assert page.table.currentIndex().row() == 2
    session.undo_stack.undo()
    qtbot.waitUntil(lambda: page.shown_rows() == [0, 2, 3, 4, 5], timeout=3000)
    assert page.count_label.text() == "5 of 6 rows"
    # (the undo went to the row it changed) the selection is the session's current row
    assert page.model.source_row(page.table.currentIndex().row()) == session.current_row
    session.set_current("train", 4)
    session.project.set_gold("train", 0, "neg")  # labelled elsewhere (the review queue's window)
    qtbot.waitUntil(lambda: page.shown_rows() == [2, 3, 4, 5], timeout=3000)
    assert page.model.source_row(page.table.currentIndex().row()) == 4


def test_selecting_and_double_clicking_a_row_opens_it_for_labelling(qtbot, main_window, shared_data):
    from bertstudio.data.io import load_examples

    session = main_window.session
    session.project.import_examples(load_examples(shared_data / "glue" / "SST-2" / "dev.tsv"), "dev")
    data_page = main_window.pages["data"]
    data_page.show_split("dev")
    table = data_page.table
    index = table.model().index(5, 0)
    table.selectRow(5)
    assert (session.current_split, session.current_row) == ("dev", 5)
    table.doubleClicked.emit(index)
    assert main_window.current_page_key() == "label"
    editor = main_window.pages["label"].editor()
    assert editor.text_view.toPlainText() == session.row("dev", 5)["text"]


def test_the_split_combo_shows_its_whole_text(qtbot, session_factory):
    """Walkthrough: the combo, sized when first shown over "train (3)", cut "train (12345)"
    (rows imported later) to "train (12"."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from bertstudio.data.examples import from_records
    from bertstudio.ui.data_page import DataPage

    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": f"row {i}", "label": None} for i in range(3)]})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    more = from_records("sentence", [{"text": f"more {i}", "label": None} for i in range(12_342)], labels=["neg", "pos"])
    session.project.import_examples(more, "train", replace=False)
    combo = page.split_combo
    qtbot.waitUntil(lambda: combo.currentText() == "train (12345)")

    def room() -> int:
        option = QStyleOptionComboBox()
        combo.initStyleOption(option)
        return combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, combo).width()

    qtbot.waitUntil(lambda: combo.fontMetrics().horizontalAdvance(combo.currentText()) <= room(), timeout=3000)


def test_the_split_picked_on_the_data_page_is_the_one_the_window_looks_at(qtbot, main_window):
    """The Data page showed dev while the status bar and the Label page stayed on train; and a
    split chosen on the Label page left the table on the other one."""
    from bertstudio.data.examples import from_records

    session = main_window.session
    for split, n in (("train", 4), ("dev", 3)):
        session.project.import_examples(from_records("sentence", [{"text": f"{split} {i}", "label": None}
                                                                  for i in range(n)], labels=[]), split)
    main_window.show_page("data")
    data_page = main_window.pages["data"]
    combo = data_page.split_combo
    combo.activated.emit(combo.findData("dev"))
    assert data_page.split == "dev" and (session.current_split, session.current_row) == ("dev", 0)
    assert main_window.split_label.text() == "Split: dev"
    label_page = main_window.pages["label"]
    label_page.split_combo.activated.emit(label_page.split_combo.findData("train"))
    assert (session.current_split, data_page.split) == ("train", "train")
    assert combo.currentData() == "train" and data_page.model.rowCount() == 4


def test_tag_cells_show_entities_not_a_tag_per_word(qtbot, session_factory):
    """The NER Tags column read "O O B-LOC B-PER I-…", cut after three words: it shows the
    entities with their words now (the whole text in the tooltip); POS tags stay as they are."""
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    rows = [{"tokens": ["to", "with", "Tokyo", "Wei", "Zhang"], "tags": ["O", "O", "B-LOC", "B-PER", "I-PER"]},
            {"tokens": ["it", "rained"], "tags": ["O", "O"]}, {"tokens": ["hi"], "tags": None}]
    session = session_factory("tagging", labels, {"train": rows})
    page = DataPage(session)
    qtbot.addWidget(page)
    model = page.model
    tags = model.index(0, 1)
    assert model.data(tags) == "[LOC] Tokyo · [PER] Wei Zhang" == model.data(tags, Qt.ItemDataRole.ToolTipRole)
    assert model.data(model.index(1, 1)) == "no entity" and model.data(model.index(2, 1)) == "—"
    assert page.table.columnWidth(1) >= 180
    assert page.distribution.counts() == {"PER": 1, "LOC": 1}  # entities, not B- and I- tags apiece
    assert "Entities per type" in page.distribution_title.text()
    pos = session_factory("tagging", ["DET", "NOUN"], {"train": [{"tokens": ["the", "dog"], "tags": ["DET", "NOUN"]}]})
    page = DataPage(pos)
    qtbot.addWidget(page)
    assert page.model.data(page.model.index(0, 1)) == "DET NOUN"


def test_the_suggested_column_does_not_show_a_confidence_just_below_1_as_100(qtbot):
    from bertstudio.assist.assistant import Suggestion

    model = ExampleTableModel("sentence", arrow_table(_sentences(4)))
    model.set_suggestions(lambda row: Suggestion("pos", 0.9996, "fast"))
    cell = model.index(0, model.columnCount() - 1)
    assert model.data(cell) == "pos 99.96%"  # ":.0%" read "pos 100%", as if certain


def test_search_finds_text_stored_in_either_unicode_form(qtbot, session_factory):
    """'café' typed (NFC) missed the NFD 'Café crème' a Mac or a scraper stored, which looks the same."""
    import unicodedata

    texts = ["Café au lait", unicodedata.normalize("NFD", "Café crème brûlée"), "Cafe sans accent", "thé"]
    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": t, "label": None} for t in texts]})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show_split("train")
    for typed in ("café", unicodedata.normalize("NFD", "café")):
        page.search_edit.setText(typed)
        page.apply_filters()
        assert page.shown_rows() == [0, 1], typed
    page.search_edit.setText("BRÛLÉE")
    page.apply_filters()
    assert page.shown_rows() == [1]


def test_a_label_filter_follows_its_label_renamed_or_removed(qtbot, session_factory):
    """With "Label = pos" on, renaming pos made the combo say "All rows" while the table still listed
    the pos rows; removing a filtered label left "0 of 9 rows" under "All rows"."""
    rows = [{"text": f"row {i}", "label": ["neg", "pos", None][i % 3]} for i in range(9)]
    session = session_factory("sentence", ["neg", "pos", "meh"], {"train": rows})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show_split("train")
    page.set_filter(FILTER_LABEL, "pos")
    assert page.shown_rows() == [1, 4, 7]
    session.rename_label("pos", "positive")
    assert page.current_filter() == (FILTER_LABEL, "positive")
    assert page.filter_combo.currentText() == "Label = positive" and page.shown_rows() == [1, 4, 7]
    session.undo_stack.undo()  # an undone rename is followed too
    assert page.current_filter() == (FILTER_LABEL, "pos") and page.shown_rows() == [1, 4, 7]
    page.set_filter(FILTER_LABEL, "meh")
    assert page.shown_rows() == []
    session.remove_label("meh")
    assert page.current_filter() == (FILTER_ALL, None)
    assert page.shown_rows() == list(range(9)) and page.count_label.text() == "9 of 9 rows"


def test_an_entity_type_filter_follows_its_entity_type_renamed(qtbot, session_factory):
    """"Label = PER" on a tag set: renaming the entity type (B-PER and I-PER together) keeps the filter on it."""
    rows = [{"tokens": ["john", "smith"], "tags": ["B-PER", "I-PER"]}, {"tokens": ["paris"], "tags": ["B-LOC"]},
            {"tokens": ["mary"], "tags": ["B-PER"]}]
    session = session_factory("tagging", ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"], {"train": rows})
    page = DataPage(session)
    qtbot.addWidget(page)
    page.show_split("train")
    page.set_filter(FILTER_LABEL, "PER")
    assert page.shown_rows() == [0, 2]
    session.rename_label("I-PER", "I-PERSON")
    assert page.current_filter() == (FILTER_LABEL, "PERSON") and page.shown_rows() == [0, 2]
