"""Importing through the dialog: a GLUE file, a mapped CSV, a broken file, a big file on a thread, export."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from bertstudio.data.examples import from_records
from bertstudio.data.io import load_examples
from bertstudio.ui import import_dialog
from bertstudio.ui.export_dialog import ExportDialog
from bertstudio.ui.import_dialog import ImportDialog
from bertstudio.ui.worker import ThreadJob

# SST-2 dev (SOURCES.md): 872 rows, header "sentence label"; 444 positive (1) / 428 negative (0)
# as published with GLUE.
SST2_DEV_ROWS, SST2_DEV_POS, SST2_DEV_NEG = 872, 444, 428


def _ok(dialog: ImportDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def test_import_sst2_dev_through_the_menu_fills_the_table(qtbot, main_window, shared_data):
    path = shared_data / "glue" / "SST-2" / "dev.tsv"
    seen = {}

    def drive_dialog() -> None:
        dialog = QApplication.activeModalWidget()
        seen["dialog"] = dialog.objectName()
        dialog.set_path(str(path))
        seen["preset"] = dialog.preset_combo.currentData()
        seen["split"] = dialog.split_combo.currentData()
        seen["preview"] = (dialog.preview_model.rowCount(), dialog.preview_model.columnCount())
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, drive_dialog)
    main_window.findChild(type(main_window.import_action), "importAction").trigger()
    assert seen == {"dialog": "importDialog", "preset": "SST-2", "split": "dev", "preview": (50, 2)}

    table = main_window.findChild(object, "dataTable")
    model = table.model()
    assert model.rowCount() == SST2_DEV_ROWS and model.columnCount() == 2
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Text"
    first = model.data(model.index(0, 0))
    assert first.startswith("it 's a charming and often affecting journey")
    assert model.data(model.index(0, 1)) == "positive"  # GLUE's names for SST-2's 0/1 (issue #14 item 14)
    assert main_window.pages["data"].distribution.counts() == {"negative": SST2_DEV_NEG, "positive": SST2_DEV_POS}
    project = main_window.session.project
    assert project.num_rows("dev") == SST2_DEV_ROWS and project.num_rows("train") == 0
    assert main_window.progress_label.text() == f"{SST2_DEV_ROWS} labelled / {SST2_DEV_ROWS}"


def test_mapping_step_reads_renamed_columns(qtbot, main_window, tmp_path):
    path = tmp_path / "reviews.csv"
    path.write_text('id,verdict,review\n1,pos,"loved it, truly"\n2,neg,meh\n3,,"no label yet"\n', encoding="utf-8")
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "csv"
    assert dialog.mapping_box.isEnabled()
    dialog.mapping["text"].setCurrentIndex(dialog.mapping["text"].findText("review"))
    dialog.mapping["label"].setCurrentIndex(dialog.mapping["label"].findText("verdict"))
    dialog.split_combo.setCurrentIndex(dialog.split_combo.findData("train"))
    with qtbot.waitSignal(dialog.imported) as imported:
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert imported.args == ["train", 3]
    session = main_window.session
    assert [session.row("train", r)["text"] for r in range(3)] == ["loved it, truly", "meh", "no label yet"]
    assert [session.gold("train", r) for r in range(3)] == ["pos", "neg", None]
    assert session.progress("train") == (2, 3)


def test_header_checkbox_shows_the_guess_and_the_user_decides(qtbot, main_window, tmp_path):
    """A header of names bertstudio does not know is guessed from the rows below and shown
    ticked; unticking reads the first row as data (and back), and the import follows the box."""
    path = tmp_path / "votes.csv"
    rows = [f"the film was {'good' if i % 2 else 'bad'} in part {i},{'yes' if i % 2 else 'no'}" for i in range(8)]
    path.write_text("opinion,verdict\n" + "\n".join(rows) + "\n", encoding="utf-8")
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    check = dialog.header_check
    assert check.isEnabled() and check.isChecked()
    assert [dialog.preview_model.horizontalHeaderItem(c).text() for c in range(2)] == ["opinion", "verdict"]
    assert dialog.preview_model.rowCount() == 8
    check.click()
    assert not check.isChecked() and dialog.preview_model.rowCount() == 9
    assert dialog.preview_model.item(0, 0).text() == "opinion"
    check.click()
    assert check.isChecked() and dialog.preview_model.rowCount() == 8
    assert dialog.mapping["text"].currentText() == "opinion" and dialog.mapping["label"].currentText() == "verdict"
    dialog.split_combo.setCurrentIndex(dialog.split_combo.findData("train"))
    with qtbot.waitSignal(dialog.imported) as imported:
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    assert imported.args == ["train", 8]
    assert main_window.session.row("train", 0)["text"] == "the film was bad in part 0"
    jsonl = tmp_path / "rows.jsonl"
    jsonl.write_text('{"text": "a", "label": "yes"}\n', encoding="utf-8")
    dialog.set_path(str(jsonl))
    assert not check.isEnabled()


def test_broken_file_shows_the_error_and_imports_nothing(qtbot, main_window, tmp_path):
    path = tmp_path / "broken.tsv"
    path.write_text("sentence\tlabel\ngood film\t1\nthis line has no label column\nbad film\t0\n", encoding="utf-8")
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
    message = dialog.error_label.text()
    assert "broken.tsv" in message and "line 3" in message
    assert dialog.isVisible() and not _ok(dialog).isEnabled()
    project = main_window.session.project
    assert all(project.num_rows(s) == 0 for s in ("train", "dev", "test"))
    assert main_window.pages["data"].model.rowCount() == 0
    assert main_window.isVisible()


def test_wrong_kind_is_refused_inside_the_dialog(qtbot, main_window, shared_data):
    # An RTE file is pair data; the window's project is a sentence project.
    dialog = ImportDialog(main_window.session, main_window, str(shared_data / "glue" / "RTE" / "dev.tsv"))
    qtbot.addWidget(dialog)
    assert "pair" in dialog.error_label.text() and not _ok(dialog).isEnabled()


def test_big_file_loads_on_a_worker_thread(qtbot, main_window, shared_data, monkeypatch):
    monkeypatch.setattr(import_dialog, "BIG_FILE", 1024)  # SST-2 dev (~100 kB) counts as big
    dialog = ImportDialog(main_window.session, main_window, str(shared_data / "glue" / "SST-2" / "dev.tsv"))
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
        assert dialog.is_loading() and dialog.progress.isVisible() and not _ok(dialog).isEnabled()
    assert main_window.session.project.num_rows("dev") == SST2_DEV_ROWS
    qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)


def test_export_round_trips(qtbot, main_window, shared_data, tmp_path):
    session = main_window.session
    session.project.import_examples(load_examples(shared_data / "glue" / "SST-2" / "dev.tsv"), "dev")
    session.apply_gold("dev", 0, "negative", "relabel")  # an edit still in the journal is exported too
    dialog = ExportDialog(session, main_window, "dev")
    qtbot.addWidget(dialog)
    out = tmp_path / "out.jsonl"
    dialog.path_edit.setText(str(out))
    assert dialog.export()
    back = load_examples(out, kind="sentence")
    assert len(back) == SST2_DEV_ROWS
    assert back.dataset[0]["label"] == "negative" and back.dataset[1]["label"] == session.gold("dev", 1)
    assert back.dataset[SST2_DEV_ROWS - 1]["text"] == session.row("dev", SST2_DEV_ROWS - 1)["text"]
    # A target that cannot be written shows a message inside the dialog, and nothing crashes.
    dialog2 = ExportDialog(session, main_window, "dev")
    qtbot.addWidget(dialog2)
    dialog2.path_edit.setText(str(tmp_path))  # a folder, not a file
    dialog2.format_combo.setCurrentIndex(dialog2.format_combo.findData("tsv"))
    assert not dialog2.export()
    assert str(tmp_path) in dialog2.error_label.text()


def test_export_asks_before_replacing_a_typed_file_and_needs_rows(qtbot, main_window, tmp_path, monkeypatch):
    """Only Browse… asked before replacing a file: a typed name replaced a user's file unasked.
    An empty project said "unknown split None"."""
    from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

    session = main_window.session
    empty = ExportDialog(session, main_window)
    qtbot.addWidget(empty)
    assert "no rows to export" in empty.error_label.text()
    assert not empty.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert not empty.export() and "None" not in empty.error_label.text()

    session.project.import_examples(from_records("sentence", [{"text": "good", "label": None}]), "train")
    mine = tmp_path / "mine.csv"
    mine.write_text("my own file\n")
    asked: list[str] = []
    answer = QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "question", lambda _p, _t, text, *a: asked.append(text) or answer)
    dialog = ExportDialog(session, main_window, "train")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(mine))
    assert not dialog.export() and mine.read_text() == "my own file\n" and str(mine) in asked[0]
    answer = QMessageBox.StandardButton.Yes
    assert dialog.export() and "good" in mine.read_text()
    fresh = tmp_path / "fresh.csv"  # a new file: nothing to ask
    dialog.path_edit.setText(str(fresh))
    assert dialog.export() and fresh.is_file() and len(asked) == 2
    dialog.path_edit.setText(str(session.project.folder / "labels.journal"))
    assert not dialog.export() and "inside the project" in dialog.error_label.text()
    assert len(asked) == 2  # refused before asking whether to replace it


def test_conllu_and_squad_import_with_their_fixed_layouts(qtbot, session_factory, shared_data):
    # UD EWT dev: 2001 sentences; SQuAD v1.1 dev articles 0-35: 8123 questions (SOURCES.md).
    tagging = session_factory("tagging", None, None)
    path = shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu"
    dialog = ImportDialog(tagging, None, str(path))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "conllu" and not dialog.mapping_box.isEnabled()
    # the (greyed) column box says what the format reads: it said "Tokens = tags" and "Tags = —"
    assert {c: dialog.mapping[c].currentText() for c in ("tokens", "tags")} == {"tokens": "tokens", "tags": "tags"}
    dialog.split_combo.setCurrentIndex(dialog.split_combo.findData("dev"))
    with qtbot.waitSignal(dialog.imported):
        dialog.start_import()
    assert tagging.split_size("dev") == 2001
    assert {"NOUN", "VERB", "PROPN", "PUNCT"} <= set(tagging.labels())
    assert tagging.row("dev", 0)["tokens"][:3] == ["From", "the", "AP"]

    qa = session_factory("qa", None, None)
    dialog = ImportDialog(qa, None, str(shared_data / "squad" / "dev-v1.1-articles-00-35.json"))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "squad"
    assert dialog.header_check.isHidden()  # SQuAD JSON has no header row: nothing to ask (it sat there greyed)
    with qtbot.waitSignal(dialog.imported):
        dialog.start_import()
    assert qa.split_size("train") == 8123
    first = qa.row("train", 0)
    start, text = first["answers"]["answer_start"][0], first["answers"]["text"][0]
    assert first["context"][start:start + len(text)] == text == "Denver Broncos"


def test_a_file_with_no_text_column_says_which_column_to_choose_before_import(qtbot, main_window, tmp_path):
    """A one-column file of labels read "this file looks like Single sentence classification data"
    with Import on; only pressing Import said a text column had to be chosen."""
    path = tmp_path / "labels_only.csv"
    path.write_text("label\n" + "\n".join(("pos", "neg") * 5) + "\n", encoding="utf-8")
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    assert "choose the file column for: Text" in dialog.status_label.text()


def test_a_pair_file_with_a_header_naming_one_column_twice_says_so_at_once(qtbot, session_factory, tmp_path):
    """A helper's pair TSV headed sentence/sentence/label read "choose the file column for:
    text_pair" (the stored name, not the dialog's "Second text") with Import on; the reader's
    "duplicate column name" came only after a column was picked. Now the preview says it, and
    unticking the header reads the first row as data."""
    path = tmp_path / "dup.tsv"
    rows = [f"a man plays {i}\ta man is playing {i}\t{i % 2}" for i in range(6)]
    path.write_text("sentence\tsentence\tlabel\n" + "\n".join(rows) + "\n", encoding="utf-8")
    session = session_factory("pair", ["0", "1"], {})
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    assert "duplicate column name 'sentence' in the header" in dialog.error_label.text()
    assert "dup.tsv" in dialog.error_label.text() and not _ok(dialog).isEnabled()
    assert dialog.header_check.isEnabled() and dialog.header_check.isChecked()
    spaced = tmp_path / "spaced.csv"  # the reader strips names: "text " is "text" again
    spaced.write_text("text,label,text \na,1,b\nc,0,d\n", encoding="utf-8")
    dialog.set_path(str(spaced))
    assert "duplicate column name 'text' in the header" in dialog.error_label.text()
    dialog.set_path(str(path))
    dialog.header_check.click()  # the first row is data
    assert dialog.error_label.text() == "" and dialog.preview_model.rowCount() == 7
    status = dialog.status_label.text()
    assert "text_pair" not in status and ("Second text" in status or "choose the file column" not in status)


def test_export_refuses_a_link_to_a_fifo_before_asking(qtbot, main_window, tmp_path, monkeypatch):
    """The dialog asked "rows.csv already exists. Replace it?" of a link to a FIFO and, on Yes,
    replaced the pipe with a CSV. Now it says what the link names and asks nothing."""
    import os
    import stat

    from PySide6.QtWidgets import QMessageBox

    session = main_window.session
    session.project.import_examples(from_records("sentence", [{"text": "good", "label": None}]), "train")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "rows.csv").symlink_to(tmp_path / "pipe")
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, _t, text, *a: asked.append(text) or QMessageBox.StandardButton.Yes)
    dialog = ExportDialog(session, main_window, "train")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(tmp_path / "rows.csv"))
    assert not dialog.export() and not asked
    assert "FIFO" in dialog.error_label.text() and str(tmp_path / "rows.csv") in dialog.error_label.text()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_export_over_a_file_says_which_of_its_columns_the_export_does_not_write(qtbot, main_window, tmp_path,
                                                                                 monkeypatch):
    """A sweep imported id,text,label,note, relabelled a row and exported over the same file: the
    only question was "already exists. Replace it?", and the id and note columns were gone."""
    from PySide6.QtWidgets import QMessageBox

    session = main_window.session
    source = tmp_path / "mine.csv"
    source.write_text("id,text,label,note\n17,good movie,pos,checked by Ann\n42,bad movie,neg,unsure\n")
    session.project.import_examples(load_examples(source, kind="sentence"), "train", add_labels=True)
    session.apply_gold("train", 1, "pos", "relabel")
    warned: list[str] = []
    answer = QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text, *a: warned.append(text) or answer)
    monkeypatch.setattr(QMessageBox, "question", lambda *a: pytest.fail("the plain question hides what is lost"))
    dialog = ExportDialog(session, main_window, "train")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(source))
    dialog._confirmed = str(source)  # chosen through Browse…, whose own question knew nothing of the columns
    before = source.read_text()
    assert not dialog.export() and source.read_text() == before
    assert "id, note" in warned[0] and "text, label" in warned[0]
    answer = QMessageBox.StandardButton.Yes
    assert dialog.export() and source.read_text().splitlines()[0] == "text,label"
    # CoNLL: the POS and chunk columns of a CoNLL-2003 file are named too
    conll = tmp_path / "ner.conll"
    conll.write_text("EU NNP I-NP B-ORG\nrejects VBZ I-VP O\n")
    from bertstudio.data.io import columns_lost

    lost = columns_lost(load_examples(conll), conll)
    assert (lost.names, lost.positions, lost.unnamed, lost.written) == ([], [2, 3], None, ["token", "tag"])
    # a header the export writes under bertstudio's name is renamed, not lost; a file without a
    # header says how many of its columns go (which ones the import read is not known there)
    aliased = tmp_path / "sst.tsv"
    aliased.write_text("sentence\tlabel\tidx\nhello there\tpos\t1\nbye now\tneg\t2\n")
    lost = columns_lost(load_examples(aliased), aliased)
    assert (lost.names, lost.positions, lost.unnamed, lost.written) == (["idx"], [], None, ["text", "label"])
    bare = tmp_path / "bare.csv"
    bare.write_text("17,good movie,pos\n42,bad movie,neg\n")
    examples = load_examples(bare, kind="sentence", columns={"text": 1, "label": 2})
    lost = columns_lost(examples, bare)
    assert (lost.names, lost.positions, lost.unnamed, lost.written) == ([], [], (1, 3), ["text", "label"])
    lost = columns_lost(load_examples(conll), tmp_path / "new.conll")
    assert not lost and lost.written == ["token", "tag"]


def test_import_names_the_columns_it_does_not_keep(qtbot, session_factory, tmp_path):
    """Columns no mapping reads were dropped without a word: the person learnt it only when an
    export over the file had removed them."""
    session = session_factory("sentence", ["neg", "pos"], None)
    source = tmp_path / "mine.csv"
    source.write_text("id,text,label,note\n17,good movie,pos,checked by Ann\n42,bad movie,neg,unsure\n")
    dialog = ImportDialog(session, None, str(source))
    qtbot.addWidget(dialog)
    assert dialog.unread_columns() == ["id", "note"] and not dialog.unread_label.isHidden()
    assert "id, note" in dialog.unread_label.text()
    combo = dialog.mapping["text"]
    combo.setCurrentIndex(combo.findData("note"))
    combo.activated.emit(combo.currentIndex())
    assert dialog.unread_columns() == ["id", "text"]
    every = tmp_path / "two.csv"
    every.write_text("text,label\ngood,pos\nbad,neg\n")
    dialog.set_path(str(every))
    assert dialog.unread_columns() == [] and dialog.unread_label.isHidden()


def test_import_names_the_conll_columns_it_does_not_keep(qtbot, session_factory, tmp_path):
    """Sweep newcomer4 #2: a CoNLL file's POS column (John NNP B-PER) was dropped without a word, though
    the README says Import names it; CoNLL-U's lemmas likewise. A two-column file loses nothing."""
    session = session_factory("tagging", None, None)
    conll = tmp_path / "tiny.conll"
    conll.write_text("John NNP B-PER\nlives VBZ O\nin IN O\nParis NNP B-LOC\n\nAnn NNP B-PER\nruns VBZ O\n"
                     "fast RB O\n", encoding="utf-8")
    dialog = ImportDialog(session, None, str(conll))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "conll" and not dialog.error_label.text()
    assert dialog.unread_columns() == ["column 2 (e.g. NNP, VBZ, IN, …)"] and not dialog.unread_label.isHidden()
    assert "Not imported: column 2 (e.g. NNP, VBZ, IN, …)." in dialog.unread_label.text()
    wide = tmp_path / "ner.conll"  # CoNLL-2003: POS and chunk columns
    wide.write_text("EU NNP I-NP B-ORG\nrejects VBZ I-VP O\n", encoding="utf-8")
    dialog.set_path(str(wide))
    assert dialog.unread_columns() == ["column 2 (e.g. NNP, VBZ)", "column 3 (e.g. I-NP, I-VP)"]
    conllu = tmp_path / "ud.conllu"
    conllu.write_text("1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tbark\tbark\tVERB\t_\t_\t0\troot\t_\t_\n",
                      encoding="utf-8")
    dialog.set_path(str(conllu))
    assert dialog.format_combo.currentData() == "conllu"
    assert dialog.unread_columns() == ["LEMMA (e.g. dog, bark)", "HEAD (e.g. 2, 0)", "DEPREL (e.g. nsubj, root)"]
    two = tmp_path / "two.conll"
    two.write_text("John B-PER\nruns O\n", encoding="utf-8")
    dialog.set_path(str(two))
    assert dialog.unread_columns() == [] and dialog.unread_label.isHidden()


def test_one_token_per_line_imports_into_a_tagging_project_as_unlabelled_sentences(qtbot, session_factory, tmp_path):
    """A helper's walk: tokens one per line, sentences apart (the unlabelled CoNLL layout) saved as
    .txt read as a table of one-word sentences in a tagging project, asked for a Tokens column no
    choice could fill, and left Import off until the format was switched by hand."""
    from bertstudio.data.io import detect_format

    path = tmp_path / "tokens.txt"
    path.write_text("Mary\nsleeps\n\nJohn\nruns\nfast\n\nOK\n", encoding="utf-8")
    assert detect_format(path) == "tsv" and detect_format(path, kind="tagging") == "conll"
    session = session_factory("tagging", ["O", "B-PER"], None)
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "conll" and _ok(dialog).isEnabled()
    with qtbot.waitSignal(dialog.imported):
        dialog.start_import()
    assert [session.row("train", r)["tokens"] for r in range(3)] == [["Mary", "sleeps"], ["John", "runs", "fast"], ["OK"]]
    assert session.progress("train") == (0, 3)


def test_the_files_survey_and_warning_never_cover_the_preview(qtbot, session_factory, shared_data, tmp_path):
    """A Chinese user's walk: the survey's two lines and the vocabulary warning wrap, a window's
    minimum size leaves wrapped labels out, and the survey was drawn over the preview's last row."""
    lines = (shared_data / "zh" / "ChnSentiCorp" / "train.tsv").read_text(encoding="utf-8").splitlines()[:41]
    path = tmp_path / "reviews.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = session_factory("sentence", ["0", "1"], None)
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.survey.isVisible() and "[UNK]" in " ".join(
        label.text() for label in dialog.survey.findChildren(QLabel) if label.isVisible()), timeout=60_000)
    qtbot.wait(100)

    def below(upper, lower) -> bool:
        return upper.mapTo(dialog, upper.rect().bottomLeft()).y() < lower.mapTo(dialog, lower.rect().topLeft()).y()

    assert below(dialog.preview_table, dialog.survey)
    shown = [label for label in dialog.survey.findChildren(QLabel) if label.isVisible()]
    assert all(label.height() >= label.heightForWidth(label.width()) - 1 for label in shown if label.wordWrap())


def test_dialogs_over_a_project_close_with_it(qtbot, main_window, tmp_path):
    """A kill sweep closed the window with Export data open: the project closed under the dialog,
    which stayed, and its Export raised on the missing project (AttributeError on None)."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = main_window.session
    session.project.import_examples(from_records("sentence", [{"text": "good", "label": None}]), "train")
    dialogs = [ExportDialog(session, main_window, "train"), ImportDialog(session, main_window), LabelSetDialog(session)]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
    session.close()
    assert not any(d.isVisible() for d in dialogs)


def test_import_clicked_while_the_file_is_counted_waits_for_that_read(qtbot, main_window, tmp_path, monkeypatch):
    """Clicked while the survey still counted, Import read the file again on the GUI thread:
    a 4 MB JSONL froze the dialog 7-16 s. It now waits for the survey's read, with the bar."""
    from bertstudio.ui import import_survey

    rows = "".join(json.dumps({"text": f"a fairly long review sentence number {i}", "label": "positive"}) + "\n"
                   for i in range(9000))
    path = tmp_path / "reviews.jsonl"
    path.write_text(rows, encoding="utf-8")
    assert import_dialog.QUICK_FILE < path.stat().st_size <= import_dialog.BIG_FILE
    gate = threading.Event()
    real_run = import_survey.SurveyWorker.run

    def held(self, *args, **kwargs):
        gate.wait(30)
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(import_survey.SurveyWorker, "run", held)
    import bertstudio.data.io as io_module

    real_load, on_gui = io_module.load_examples, []

    def load(*args, **kwargs):
        if threading.current_thread() is threading.main_thread():
            on_gui.append(args)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(io_module, "load_examples", load)
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.survey.is_running(), timeout=10_000)
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(_ok(dialog), Qt.MouseButton.LeftButton)
        assert dialog.is_loading() and dialog.progress.isVisible() and on_gui == []
        gate.set()
    assert main_window.session.project.num_rows("train") == 9000 and on_gui == []
    qtbot.waitUntil(lambda: not ThreadJob._running, timeout=60_000)


def test_a_one_sentence_score_file_imports_into_a_regression_project(qtbot, session_factory, tmp_path):
    """Sweep #5: the Second text column was required, though a regression row may have none (the
    CLI trains on such a file and Add examples adds such rows): Import said "Choose the file column
    for: Second text"."""
    session = session_factory("regression", None, None)
    source = tmp_path / "scores.csv"
    source.write_text("text,score\na good fun film,87\na dull film,12.5\nfine,50\n")
    dialog = ImportDialog(session, None, str(source))
    qtbot.addWidget(dialog)
    assert dialog.mapping["text_pair"].currentData() is None and dialog.mapping["text_pair"].currentText() == "—"
    with qtbot.waitSignal(dialog.imported) as imported:
        dialog.start_import()
    assert imported.args == ["train", 3] and not dialog.error_label.text()
    assert session.project.row("train", 1) == {"text": "a dull film", "text_pair": "", "label": 12.5}
    assert import_dialog.optional_columns("pair") == {"label"}  # a pair's second text stays required


def test_a_text_file_of_sentences_imports_into_a_tagging_project(qtbot, session_factory, tmp_path):
    """Sweep qalabel #2: sentences one a line in a .txt were shown as a CSV (for the commas of
    "Hello , world"), and the only way in was a hand-made CoNLL file. Each line is now an unlabelled
    sentence, words split at spaces, Chinese without spaces one word per character."""
    path = tmp_path / "sents.txt"
    path.write_text("John Smith lives in New York .\nHello , world\n\n北京欢迎你\n", encoding="utf-8")
    session = session_factory("tagging", ["O", "B-PER", "I-PER"], None)
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "text" and _ok(dialog).isEnabled()
    assert not dialog.mapping_box.isEnabled() and not dialog.error_label.text()
    with qtbot.waitSignal(dialog.imported):
        dialog.start_import()
    assert [session.row("train", r) for r in range(3)] == [
        {"tokens": ["John", "Smith", "lives", "in", "New", "York", "."], "tags": None},
        {"tokens": ["Hello", ",", "world"], "tags": None}, {"tokens": ["北", "京", "欢", "迎", "你"], "tags": None}]
    assert session.progress("train") == (0, 3) and session.labels() == ["O", "B-PER", "I-PER"]
    from bertstudio.data.io import written_formats

    assert "text" not in written_formats("tagging")  # the formats Export offers: plain text keeps no tags


@pytest.mark.parametrize(("kind", "says"), [("tagging", "plain text (.txt)"), ("qa", "SQuAD JSON")])
def test_a_table_in_a_project_no_table_fits_offers_no_column_and_says_what_it_reads(qtbot, session_factory, tmp_path,
                                                                                      kind, says):
    """Sweep qalabel #2: a CSV in a tagging project offered "column 1" for Tokens with Import on; the
    reader then refused the choice the dialog had offered, with nested brackets and the code's kind
    names. Now no column is offered, Import stays off, and the status line says what the project reads."""
    path = tmp_path / "t.csv"
    path.write_text("text,label\nHello world,O\n", encoding="utf-8")
    session = session_factory(kind, None, None)
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    assert dialog.format_combo.currentData() == "csv" and not _ok(dialog).isEnabled()
    assert [combo.count() for combo in dialog.mapping.values()] == [0] * len(dialog.mapping)
    assert not dialog.mapping_box.isEnabled() and dialog.unread_label.isHidden() and not dialog.error_label.text()
    status = dialog.status_label.text()
    assert status == dialog.table_refusal() and says in status and "\n" not in status
    dialog.start_import()
    assert dialog.error_label.text() == status and session.split_size("train") == 0
    dialog.reject()


def test_the_dialog_offers_every_format_the_core_reads():
    """The dialog keeps its own copy of the reader's list (opening it imports no reader); the two
    lists are one fact."""
    from bertstudio.data.io import FORMATS
    from bertstudio.ui.import_dialog import READ_FORMATS

    assert READ_FORMATS == FORMATS


def test_a_file_of_another_kind_is_named_without_a_wrong_article(qtbot, session_factory, tmp_path):
    """sweep_newcode53, minor: "…but the project is a Extractive question answering project."
    The sentence now names the project's task without an article, for every kind's name."""
    session = session_factory("qa", None, None)
    path = tmp_path / "ner.conll"
    path.write_text("Ada B-PER\nwrote O\n\n")
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    shown = dialog.error_label.text()
    assert shown == ("This file holds Token tagging (entities, POS) examples, but this project's task is "
                     "Extractive question answering."), shown
    assert not _ok(dialog).isEnabled()
