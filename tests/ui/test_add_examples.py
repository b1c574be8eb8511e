"""Starting from an empty project: type examples in, label them, they are saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from bertstudio.data.project import Project
from bertstudio.errors import DataError
from bertstudio.ui.add_example_dialog import AddExampleDialog, fields_for, record_for
from bertstudio.ui.session import ProjectSession
from helpers import show_active


def _type(dialog: AddExampleDialog, **values: str) -> None:
    for key, text in values.items():
        editor = dialog.editors[key]
        editor.setPlainText(text) if hasattr(editor, "setPlainText") else editor.setText(text)


def test_empty_project_add_label_and_reopen(main_window, qtbot, tmp_path):
    """Edit > Add examples… on the empty project, two sentences, label one with a key press."""
    session = main_window.session
    assert session.split_size("train") == 0
    main_window.findChild(QAction, "addExamplesAction").trigger()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    assert dialog is not None and dialog.isVisible()
    _type(dialog, text="  a warm, funny film  ")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert dialog.editors["text"].toPlainText() == ""  # cleared for the next one
    _type(dialog, text="dull and far too long")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert "row 2" in dialog.status.text()
    dialog.close()
    assert session.split_size("train") == 2
    assert main_window.pages["data"].model.rowCount() == 2
    assert (session.current_split, session.current_row) == ("train", 1)  # the last one added

    session.project.add_label("pos")
    session.project.add_label("neg")
    session.apply_gold("train", 0, "pos", "pos")
    folder = Path(session.project.folder)
    session.close()
    reopened = Project.open(folder)
    try:
        rows = reopened.examples("train").dataset.to_list()
        assert rows == [{"text": "a warm, funny film", "label": "pos"}, {"text": "dull and far too long", "label": None}]
    finally:
        reopened.close()


def test_empty_field_is_refused_and_the_text_kept(main_window, qtbot):
    main_window.pages["data"].add_examples()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    _type(dialog, text="   ")
    assert dialog.add() is False
    assert "text is empty" in dialog.status.text()
    assert main_window.session.split_size("train") == 0
    dialog.close()


@pytest.mark.parametrize("kind", ["pair", "regression", "tagging", "qa"])
def test_every_kind_gets_its_form(kind, qtbot, tmp_path):
    project = Project.create(tmp_path / kind, name=kind, kind=kind, labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        dialog = AddExampleDialog(session, "dev")
        qtbot.addWidget(dialog)
        assert set(dialog.editors) == {key for key, _ in fields_for(kind)}
        typed = {"pair": dict(text="A man sleeps.", text_pair="A person rests."),
                 "regression": dict(text="A man sleeps.", text_pair="A person rests."),
                 "tagging": dict(tokens="Ada Lovelace lived in London"),
                 "qa": dict(context="Ada Lovelace lived in London.", question="Where did Ada live?")}[kind]
        _type(dialog, **typed)
        assert dialog.add()
        if kind == "qa":  # several questions per context: the context stays
            assert dialog.editors["context"].toPlainText() == typed["context"]
            _type(dialog, question="Who lived in London?")
            assert dialog.add()
        rows = project.examples("dev").dataset.to_list()
        if kind == "tagging":
            assert rows == [{"tokens": ["Ada", "Lovelace", "lived", "in", "London"], "tags": None}]
        elif kind == "qa":
            assert [r["question"] for r in rows] == ["Where did Ada live?", "Who lived in London?"]
            assert all(r["answers"] is None and r["context"] == typed["context"] for r in rows)
            assert len({r["id"] for r in rows}) == 2
        else:
            assert rows == [{"text": "A man sleeps.", "text_pair": "A person rests.", "label": None}]
    finally:
        project.close(compact=False)


def test_record_for_names_the_empty_field():
    with pytest.raises(DataError, match="question is empty"):
        record_for("qa", {"context": "some text", "question": ""})


def test_a_text_longer_than_an_import_takes_is_refused_and_kept(main_window, qtbot):
    """3,000,000 characters were added; the import refuses any field over 1,048,576, so the
    project's own export would not import back."""
    main_window.pages["data"].add_examples()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    _type(dialog, text="word " * 600_000)
    assert dialog.add() is False
    assert "3,000,000 characters" in dialog.status.text() or "2,999,999 characters" in dialog.status.text()
    assert "at most 1,048,576" in dialog.status.text()
    assert main_window.session.split_size("train") == 0
    dialog.close()


def test_label_keys_while_typing_and_the_split_the_user_picks(main_window, qtbot):
    """Issue #14 item 5: Alt+digit sets the label in the form while typing (bare digits stay text),
    and rows go to the split picked in the dialog, train by default, whichever split the Data page shows."""
    session = main_window.session
    session.project.add_label("neg")
    session.project.add_label("pos")
    data_page = main_window.pages["data"]
    data_page.show_split("dev")  # the last split shown is dev ...
    main_window.findChild(QAction, "addExamplesAction").trigger()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    assert dialog.split_combo.currentData() == "train"  # ... but new examples go to train unless picked
    show_active(qtbot, dialog)
    text = dialog.editors["text"]
    text.setFocus()
    qtbot.keyClicks(text, "10 out of 10, loved it")
    qtbot.keyClick(text, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    assert dialog.label_combo.currentData() == "pos" and text.toPlainText() == "10 out of 10, loved it"
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert "labelled pos" in dialog.status.text()
    assert dialog.label_combo.currentData() is None  # each example's label is chosen afresh
    qtbot.keyClicks(text, "no idea yet")
    qtbot.keyClick(text, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(text, Qt.Key.Key_0, Qt.KeyboardModifier.AltModifier)  # Alt+0: back to no label
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    dialog.split_combo.setCurrentIndex(dialog.split_combo.findData("dev"))
    qtbot.keyClicks(text, "dull")
    qtbot.keyClick(text, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert "Alt+1" in dialog.findChild(type(dialog.status), "addLabelHint").text()  # the dialog says which keys
    dialog.close()
    assert [session.gold("train", r) for r in range(session.split_size("train"))] == ["pos", None]
    assert session.row("train", 0)["text"] == "10 out of 10, loved it"
    assert session.split_size("dev") == 1 and session.row("dev", 0) == {"text": "dull", "label": "neg"}


def test_score_box_for_regression(qtbot, tmp_path):
    project = Project.create(tmp_path / "sts", name="sts", kind="regression", labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        dialog = AddExampleDialog(session)
        qtbot.addWidget(dialog)
        _type(dialog, text="A man sleeps.", text_pair="A person rests.")
        dialog.score_spin.setValue(4.2)
        assert dialog.add()
        _type(dialog, text="A cat.", text_pair="A car.")
        assert dialog.score_spin.text() == "none (score it later)"
        assert dialog.add()
        assert [r["label"] for r in project.examples("train").dataset] == [4.2, None]
    finally:
        project.close(compact=False)


@pytest.mark.parametrize("typed, stored", [("7.5", 7.5), ("10", 10.0), ("2.65", 2.65), ("-1", -1.0), ("0,5", 0.5)])
def test_a_typed_score_is_stored_as_typed(qtbot, tmp_path, typed, stored):
    """The box was -0.1..5 at one decimal: typing 7.5 kept '.5' and stored 0.5, 10 stored 1.0, 2.65
    stored 2.6 and -1 no score, without a word; a decimal comma read as a group separator."""
    project = Project.create(tmp_path / "ratings", name="ratings", kind="regression", labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        dialog = AddExampleDialog(session)
        qtbot.addWidget(dialog)
        _type(dialog, text="Great food.", text_pair="")
        dialog.score_spin.lineEdit().selectAll()
        qtbot.keyClicks(dialog.score_spin, typed)
        assert dialog.add(), dialog.status.text()
        assert project.examples("train").dataset[0]["label"] == stored
        assert f"labelled {stored}" in dialog.status.text()
    finally:
        project.close(compact=False)


def test_a_score_outside_a_benchmarks_scale_is_refused(qtbot, tmp_path):
    project = Project.create(tmp_path / "sts", name="sts", kind="regression", labels=[], glue_task="STS-B")
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        dialog = AddExampleDialog(session)
        qtbot.addWidget(dialog)
        _type(dialog, text="A man sleeps.", text_pair="A person rests.")
        dialog.score_spin.setValue(7.0)
        assert not dialog.add()
        assert "outside the STS-B scale 0 to 5" in dialog.status.text() and session.split_size("train") == 0
    finally:
        project.close(compact=False)


def test_pasted_text_is_stored_exactly_with_its_no_break_spaces_and_separators(main_window, qtbot):
    """toPlainText() turns U+00A0 into a space and U+2028/U+2029 into LF (Qt's documented
    behaviour): French typography pasted in was stored otherwise than the same row from a file."""
    main_window.pages["data"].add_examples()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    editor = dialog.editors["text"]
    pasted = "Prix\xa0: 10\u202f€ «\xa0super\xa0»\u2028next line\u2009end\u2029para\r\nwindows\rmac\nunix"
    QApplication.clipboard().setText(pasted)
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert editor.document().blockCount() == 5  # the document did receive the paste
    assert dialog.add() is True
    assert main_window.session.project.examples("train").dataset[0]["text"] == pasted
    # typed breaks are LF; a paste in the middle of typed text keeps both
    qtbot.keyClicks(editor, "ab")
    qtbot.keyClick(editor, Qt.Key.Key_Left)
    QApplication.clipboard().setText("\xa0x\u2029y")
    qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "c")
    assert dialog.values()["text"] == "a\xa0x\u2029yb\nc"
    dialog.close()


def test_keys_only_focus_starts_in_the_text_and_ctrl_return_adds(main_window, qtbot):
    """Keyboard sweep item 1: the split box had the focus, so the first letters typed picked "test"
    by type-ahead and the example went there; Return in the text box was a line break and Ctrl+Return
    did nothing, so only Tab, Tab, Space added."""
    session = main_window.session
    main_window.findChild(QAction, "addExamplesAction").trigger()
    dialog = main_window.findChild(AddExampleDialog, "addExampleDialog")
    show_active(qtbot, dialog)
    text = dialog.editors["text"]
    assert dialog.focusWidget() is text
    qtbot.keyClicks(dialog.focusWidget(), "the movie was good and fun")
    assert dialog.split_combo.currentData() == "train"
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert session.split_size("train") == 1 and session.split_size("test") == 0
    assert session.row("train", 0)["text"] == "the movie was good and fun"
    qtbot.keyClicks(dialog.focusWidget(), "dull")
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Enter,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.KeypadModifier)
    assert session.split_size("train") == 2 and session.row("train", 1)["text"] == "dull"
    dialog.close()


def test_keys_only_enter_in_a_one_line_field_adds(qtbot, tmp_path):
    """QA: the focus starts in the context; the question is one line, where Enter adds."""
    project = Project.create(tmp_path / "qa", name="qa", kind="qa", labels=[])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        dialog = AddExampleDialog(session)
        qtbot.addWidget(dialog)
        show_active(qtbot, dialog)
        assert dialog.focusWidget() is dialog.editors["context"]
        qtbot.keyClicks(dialog.focusWidget(), "Ada Lovelace lived in London.")
        qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
        assert dialog.focusWidget() is dialog.editors["question"]
        qtbot.keyClicks(dialog.focusWidget(), "Where did Ada live?")
        qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
        rows = project.examples("train").dataset.to_list()
        assert [(r["context"], r["question"]) for r in rows] == [("Ada Lovelace lived in London.", "Where did Ada live?")]
        assert dialog.focusWidget() is dialog.editors["question"] and dialog.editors["question"].text() == ""
    finally:
        project.close(compact=False)
