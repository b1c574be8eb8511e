"""Issue 14 items 16 and 18 through the real Import dialog: the whole file counted on a worker
(rows, labelled rows, the label spread), "import only N first / random rows (seed)", and a
warning with the figure when the project's model cannot read the file's text."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from bertstudio.data.io import load_examples
from bertstudio.metrics.display import format_share
from bertstudio.ui.import_dialog import ImportDialog
from bertstudio.ui.worker import ThreadJob

# SOURCES.md: SST-2 train 67,349 rows; ChnSentiCorp dev 1,200 reviews; UD EWT dev 2,001 sentences.
SST2_TRAIN_ROWS = 67349


def _ok(dialog: ImportDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def _open(qtbot, session, path, split="train") -> ImportDialog:
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.target.set_split(split)
    dialog.target.split_combo.activated.emit(dialog.target.split_combo.currentIndex())
    return dialog


def _counted(qtbot, dialog, start: str) -> str:
    qtbot.waitUntil(lambda: dialog.survey.counts_label.text().startswith(start), timeout=60_000)
    return dialog.survey.counts_label.text()


@pytest.fixture(autouse=True)
def _threads_end(qtbot):
    yield
    qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)


def test_a_big_file_is_counted_off_the_gui_thread_and_sampled(qtbot, session_factory, shared_data):
    session = session_factory("sentence")
    path = shared_data / "glue" / "SST-2" / "train.tsv"
    dialog = _open(qtbot, session, path)
    qtbot.waitUntil(dialog.survey.is_running, timeout=5_000)  # counting runs on the worker...
    assert dialog.survey.counts_label.text() == "Counting the rows of the whole file…"
    assert dialog.isVisible() and _ok(dialog).isEnabled()  # ...while the dialog stays usable
    with open(path, encoding="utf-8", newline="") as f:  # the labels, counted here independently
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]
    pos, neg = sum(r[1] == "1" for r in rows), sum(r[1] == "0" for r in rows)
    assert len(rows) == SST2_TRAIN_ROWS
    text = _counted(qtbot, dialog, "67,349 rows")
    big, small = ("positive", pos), ("negative", neg)  # the file's 1/0 read as GLUE's names
    assert text == (f"67,349 rows, 67,349 labelled\nLabels: {big[0]}: {big[1]:,} ({100 * big[1] / len(rows):.1f}%)"
                    f" · {small[0]}: {small[1]:,} ({100 * small[1] / len(rows):.1f}%)")
    # Import only 100 rows drawn with seed 7: the counts line says so, and those rows come in.
    qtbot.mouseClick(dialog.survey.sample_check, Qt.MouseButton.LeftButton)
    dialog.survey.sample_size.setValue(100)
    dialog.survey.sample_mode.setCurrentIndex(dialog.survey.sample_mode.findData("random"))
    dialog.survey.sample_seed.setValue(7)
    assert "importing 100 of them" in dialog.survey.counts_label.text()
    with qtbot.waitSignal(dialog.imported, timeout=30_000) as imported:
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert imported.args == ["train", 100]
    drawn = load_examples(path).head(100, seed=7)
    assert [session.row("train", i)["text"] for i in range(100)] == list(drawn.dataset["text"])
    assert [session.row("train", i)["text"] for i in range(3)] != [r[0] for r in rows[:3]]


def test_first_rows_of_a_tagging_file_and_the_tag_spread(qtbot, session_factory, shared_data):
    session = session_factory("tagging")
    path = shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu"
    dialog = _open(qtbot, session, path, split="dev")
    text = _counted(qtbot, dialog, "2,001 rows")
    ewt = load_examples(path)
    tags = [t for seq in ewt.dataset["tags"] for t in seq]
    noun = sum(t == "NOUN" for t in tags)
    assert text.startswith("2,001 rows, 2,001 labelled\nTags (" + f"{len(tags):,} tokens): ")
    assert f"NOUN: {noun:,} ({format_share(noun / len(tags), 1)})" in text and "and 5 more" in text  # 17 UPOS tags
    qtbot.mouseClick(dialog.survey.sample_check, Qt.MouseButton.LeftButton)
    dialog.survey.sample_size.setValue(25)  # "first rows" is the default
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert session.split_size("dev") == 25
    assert session.row("dev", 24)["tokens"] == ewt.dataset[24]["tokens"]


def test_chinese_text_under_the_bundled_model_is_flagged_with_the_figure(qtbot, session_factory, shared_data):
    session = session_factory("sentence", ["0", "1"])
    dialog = _open(qtbot, session, shared_data / "zh" / "ChnSentiCorp" / "dev.tsv", split="dev")
    assert _counted(qtbot, dialog, "1,200 rows").startswith("1,200 rows, 1,200 labelled")
    label = dialog.survey.vocabulary_label
    qtbot.waitUntil(label.isVisible, timeout=60_000)
    text = label.text()
    share = int(text.split("%", 1)[0])
    assert 55 <= share <= 70  # the issue measured 64% of MiniLM's pieces of such reviews as [UNK]
    assert "of 500 sampled examples are [UNK] for the model all-MiniLM-L6-v2: those words are lost" in text
    assert "bert-base-chinese, hfl/chinese-roberta-wwm-ext" in text and "Train page" in text
    assert _ok(dialog).isEnabled()  # advice: the import is still the user's choice


def test_english_text_gets_no_warning(qtbot, session_factory, shared_data):
    session = session_factory("sentence", ["0", "1"])
    dialog = _open(qtbot, session, shared_data / "glue" / "SST-2" / "dev.tsv", split="dev")
    _counted(qtbot, dialog, "872 rows")
    qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)  # the check has run
    assert not dialog.survey.vocabulary_label.isVisible()


def test_iob1_tags_turned_into_bio_are_announced_before_import(qtbot, session_factory, tmp_path):
    """CoNLL-2003's IOB1 tags (I-PER opening an entity) became BIO on import without a word."""
    path = tmp_path / "iob1.conll"
    path.write_text("EU I-ORG\nrejects O\nGerman I-MISC\ncall O\n\nPeter I-PER\nBlackburn I-PER\n", encoding="utf-8")
    session = session_factory("tagging")
    dialog = _open(qtbot, session, path, split="train")
    text = _counted(qtbot, dialog, "2 rows")
    assert "IOB1" in text and "read as BIO" in text
    bio = tmp_path / "bio.conll"
    bio.write_text("EU B-ORG\nrejects O\n\nPeter B-PER\nBlackburn I-PER\n", encoding="utf-8")
    dialog = _open(qtbot, session, bio, split="train")
    assert "IOB1" not in _counted(qtbot, dialog, "2 rows")


@pytest.mark.parametrize("recent", [{"train": [1, 2]}, {"train": {"model": 7}}, ["x"]])
def test_hand_edited_train_settings_do_not_stop_the_count(qtbot, session_factory, shared_data, recent, monkeypatch):
    """A project.json (checksum valid) whose recent_settings held {"train": [1, 2]} raised an
    AttributeError in the survey and the dialog read "Counting the rows…" for ever."""
    session = session_factory("sentence", ["0", "1"])
    monkeypatch.setattr(type(session.project), "recent_settings", property(lambda self: recent))  # as loaded
    dialog = _open(qtbot, session, shared_data / "glue" / "SST-2" / "dev.tsv", split="dev")
    _counted(qtbot, dialog, "872 rows")


def test_a_label_on_all_rows_but_one_is_not_100_percent_nor_the_other_0(qtbot, session_factory, tmp_path):
    path = tmp_path / "skewed.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "label"])
        writer.writerows([[f"row {i}", "common"] for i in range(2000)] + [["the one", "rare"]])
    dialog = _open(qtbot, session_factory("sentence", ["common", "rare"]), path)
    text = _counted(qtbot, dialog, "2,001 rows")
    assert "common: 2,000 (99.95%)" in text and "rare: 1 (0.05%)" in text  # not 100.0% and 0.0%


def test_one_row_is_counted_as_one_row(qtbot, session_factory, tmp_path):
    """Sweep today53 #6: a one-row file read "1 rows, 1 labelled"."""
    path = tmp_path / "one.conll"
    path.write_text("EU B-ORG\nrejects O\n", encoding="utf-8")
    dialog = _open(qtbot, session_factory("tagging"), path)
    assert _counted(qtbot, dialog, "1 row").startswith("1 row, 1 labelled\n")
