"""Labelling through the real editors with keys and the mouse; gold values checked in the project."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from bertstudio.errors import DataError
from bertstudio.ui.editors import LabelPage

SENTENCES = [{"text": t, "label": None} for t in ("a fine film", "dull and long", "great fun", "so boring", "ok")]


def _page(qtbot, session) -> LabelPage:
    page = LabelPage(session)
    qtbot.addWidget(page)
    page.show()
    return page


def test_number_keys_label_undo_redo_and_progress(qtbot, session_factory):
    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    page = _page(qtbot, session)
    editor = page.editor()
    assert page.stack.objectName() == "labelEditor" and page.stack.currentWidget() is editor
    assert editor.row == 0 and editor.text_view.toPlainText() == "a fine film"

    qtbot.keyClick(editor, Qt.Key.Key_2)  # pos, then the editor moves on
    qtbot.keyClick(editor, Qt.Key.Key_1)  # neg
    project = session.project
    assert [project.gold("train", r) for r in range(5)] == ["pos", "neg", None, None, None]
    assert editor.row == 2
    assert (page.progress.value(), page.progress.maximum()) == (2, 5)

    session.undo_stack.undo()
    assert project.gold("train", 1) is None and project.gold("train", 0) == "pos"
    assert editor.row == 1  # undo shows the example it changed
    assert page.progress.value() == 1
    session.undo_stack.redo()
    assert project.gold("train", 1) == "neg"
    assert page.progress.value() == 2

    # Keys out of the label set do nothing; Backspace clears; S skips to the next unlabelled.
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_7)
    assert project.gold("train", 0) == "pos"
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert project.gold("train", 0) is None
    qtbot.keyClick(editor, Qt.Key.Key_Right)
    qtbot.keyClick(editor, Qt.Key.Key_S)
    assert editor.row == 2
    # The edits are in the journal: a reopened project sees them without any save (no compaction).
    from bertstudio.data.project import Project

    project.close(compact=False)
    again = Project.open(project.folder)
    assert [again.gold("train", r) for r in range(3)] == [None, "neg", None]
    again.close(compact=False)


def test_a_label_never_advances_onto_a_labelled_row(qtbot, session_factory):
    """With no Next order to ask (the assistant starting, or off), the editor moves to the next row
    WITHOUT a label: stepping onto a labelled one let the next key, typed before the screen was
    read, silently replace that label."""
    rows = [dict(r) for r in SENTENCES]
    rows[1]["label"], rows[2]["label"] = "neg", "pos"
    session = session_factory("sentence", ["neg", "pos"], {"train": rows})
    page = _page(qtbot, session)
    editor, project = page.editor(), session.project
    assert not session.assist.is_active()  # as in the first second after opening: no assistant yet
    qtbot.keyClick(editor, Qt.Key.Key_2)  # row 0: pos, then on - past rows 1 and 2 to row 3
    assert editor.row == 3
    qtbot.keyClick(editor, Qt.Key.Key_2)  # row 3
    assert [project.gold("train", r) for r in range(5)] == ["pos", "neg", "pos", "pos", None]
    assert editor.row == 4
    qtbot.keyClick(editor, Qt.Key.Key_1)  # the last unlabelled row: the editor stays and says so
    assert [project.gold("train", r) for r in range(5)] == ["pos", "neg", "pos", "pos", "neg"]
    assert editor.row == 4
    editor.go_to(1)  # going back to a labelled row and relabelling it is the user's explicit choice
    qtbot.keyClick(editor, Qt.Key.Key_2)
    assert project.gold("train", 1) == "pos" and editor.row == 1


def test_pair_side_by_side_and_regression_keys_and_slider(qtbot, session_factory):
    pairs = [{"text": "A man sleeps.", "text_pair": "Someone rests.", "label": None}]
    session = session_factory("pair", ["entailment", "neutral", "contradiction"], {"dev": pairs})
    page = _page(qtbot, session)
    editor = page.editor()
    assert editor.pair_view.isVisible() and editor.pair_view.toPlainText() == "Someone rests."
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert session.project.gold("dev", 0) == "contradiction"

    scored = [{"text": "a", "text_pair": "b", "label": None}, {"text": "c", "text_pair": "d", "label": None}]
    session2 = session_factory("regression", None, {"train": scored})
    page2 = _page(qtbot, session2)
    reg = page2.editor()
    reg.advance_box.setChecked(False)
    qtbot.keyClick(reg, Qt.Key.Key_4)
    assert session2.project.gold("train", 0) == 4.0
    reg.slider.setValue(37)  # 3.7 in tenths
    reg.slider.sliderReleased.emit()
    assert session2.project.gold("train", 0) == 3.7
    assert reg.spin.value() == 3.7
    session2.undo_stack.undo()
    assert session2.project.gold("train", 0) == 4.0



def test_score_project_of_single_texts_shows_one_text_box(qtbot, session_factory):
    """A one-text score project showed an empty "Hypothesis / second text" box to fill, and its kind
    was named "Sentence pair regression"; a row with a second text (even unlabelled) brings it back."""
    from bertstudio.ui.new_project_dialog import kind_name

    single = [{"text": "good film", "text_pair": None, "label": 3.0}, {"text": "bad", "text_pair": "", "label": None}]
    page = _page(qtbot, session_factory("regression", None, {"train": single}))
    editor = page.editor()
    assert editor.text_view.isVisible() and editor.text_view.toPlainText() == "bad"  # the first unlabelled
    assert not editor.pair_view.isVisible() and not editor._second_header.isVisible()
    assert "pair" not in kind_name("regression").split(":")[0].lower()

    mixed = single + [{"text": "a", "text_pair": "b", "label": None}]
    page2 = _page(qtbot, session_factory("regression", None, {"dev": single, "test": mixed}))
    assert page2.editor().pair_view.isVisible() and page2.editor()._second_header.isVisible()


TOKENS = "John Smith flew from New York to Paris".split()


def test_tag_a_span_with_shift_arrows_gives_bio(qtbot, session_factory):
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    session = session_factory("tagging", labels, {"train": [{"tokens": TOKENS, "tags": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    assert editor.types() == ["PER", "LOC", "ORG"]
    assert editor.legend.names() == ["PER", "LOC", "ORG"]

    qtbot.keyClick(editor, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)  # John Smith
    qtbot.keyClick(editor, Qt.Key.Key_1)  # PER
    assert session.project.gold("train", 0) == ["B-PER", "I-PER", "O", "O", "O", "O", "O", "O"]

    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # Paris: a one-word LOC
    for _ in range(3):  # End is "Paris" (7); three left is "New" (4)
        qtbot.keyClick(editor, Qt.Key.Key_Left)
    qtbot.keyClick(editor, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)  # New York
    qtbot.keyClick(editor, Qt.Key.Key_2)
    expected = ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O", "B-LOC"]
    assert session.project.gold("train", 0) == expected
    assert "[LOC] New York" in editor.entity_line.text()

    # A span cutting "John Smith" is refused with a message and nothing changes.
    editor.select_words(1, 3)
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert session.project.gold("train", 0) == expected
    assert "cuts through" in editor.note.text()

    # Backspace clears the whole entity under the cursor; undo brings it back.
    editor.select_words(5, 6)  # "York", inside New York
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert session.project.gold("train", 0) == ["B-PER", "I-PER", "O", "O", "O", "O", "O", "B-LOC"]
    session.undo_stack.undo()
    assert session.project.gold("train", 0) == expected


def test_an_entity_is_retyped_or_merged_in_one_step(qtbot, session_factory):
    """Selecting exactly "John Smith" (PER) and pressing ORG was refused as an overlap: clear
    first, then mark again. Now an entity inside the selection is replaced, and the cursor on
    one word of an entity retypes the whole entity; only a selection that cuts one is refused."""
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    tags = ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O", "B-LOC"]
    session = session_factory("tagging", labels, {"train": [{"tokens": TOKENS, "tags": tags}]})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.select_words(0, 2)  # exactly John Smith
    qtbot.keyClick(editor, Qt.Key.Key_3)  # ORG
    assert session.project.gold("train", 0) == ["B-ORG", "I-ORG", "O", "O", "B-LOC", "I-LOC", "O", "B-LOC"]
    editor.select_words(5, 6)  # the cursor on "York" alone: the whole of New York
    qtbot.keyClick(editor, Qt.Key.Key_1)  # PER
    assert session.project.gold("train", 0) == ["B-ORG", "I-ORG", "O", "O", "B-PER", "I-PER", "O", "B-LOC"]
    assert "[PER] New York" in editor.entity_line.text()
    editor.select_words(4, 8)  # "New York to Paris" holds two entities whole: one LOC
    qtbot.keyClick(editor, Qt.Key.Key_2)
    assert session.project.gold("train", 0) == ["B-ORG", "I-ORG", "O", "O", "B-LOC", "I-LOC", "I-LOC", "I-LOC"]
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert session.project.gold("train", 0)[4:] == ["B-LOC", "I-LOC", "O", "B-LOC"]


def test_enter_stores_a_sentence_with_no_entity_and_moves_on(qtbot, session_factory):
    """A sentence without any entity could not be marked as labelled (Enter, 0 and Backspace did
    nothing), so it kept coming back as unlabelled: Enter stores it as marked, all O."""
    labels = ["O", "B-PER", "I-PER"]
    rows = [{"tokens": ["it", "rained", "all", "day"], "tags": None}, {"tokens": TOKENS, "tags": None},
            {"tokens": ["the", "end"], "tags": None}]
    session = session_factory("tagging", labels, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    assert "Enter stores" in editor.note.text()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert session.project.gold("train", 0) == ["O"] * 4 and editor.row == 1
    assert session.progress("train")[0] == 1
    qtbot.keyClick(editor, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(editor, Qt.Key.Key_1)  # marking an entity stores the sentence at once
    assert session.project.gold("train", 1)[:2] == ["B-PER", "I-PER"] and editor.row == 1
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # done with it: on to the next
    assert editor.row == 2 and session.project.gold("train", 1)[:2] == ["B-PER", "I-PER"]
    assert session.undo_stack.count() == 2  # moving on is not an edit
    session.undo_stack.undo()
    assert session.project.gold("train", 1) is None and session.project.gold("train", 0) == ["O"] * 4
    session.undo_stack.undo()
    assert session.project.gold("train", 0) is None and editor.row == 0


def test_enter_on_a_partly_tagged_pos_sentence_says_what_is_missing(qtbot, session_factory):
    labels = ["NOUN", "VERB", "DET"]
    session = session_factory("tagging", labels, {"train": [{"tokens": ["the", "dog", "barks"], "tags": None},
                                                             {"tokens": ["dogs", "bark"], "tags": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    qtbot.keyClick(editor, Qt.Key.Key_3)  # DET on "the"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.row == 0 and session.project.gold("train", 0) is None
    assert "Words with no tag yet: 2." in editor.note.text()


def test_tag_with_a_mouse_drag(qtbot, session_factory):
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    session = session_factory("tagging", labels, {"train": [{"tokens": TOKENS, "tags": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    view = editor.view

    def point(word: int):
        cursor = QTextCursor(view.document())
        cursor.setPosition(editor._starts[word] + 1)
        return view.cursorRect(cursor).center()

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=point(4))
    # QTest cannot move with a button held; a shift-press extends the drag the same way
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, pos=point(5))
    assert editor.selection() == (4, 6)
    qtbot.keyClick(editor, Qt.Key.Key_2)
    assert session.project.gold("train", 0)[4:6] == ["B-LOC", "I-LOC"]


def test_removing_an_unused_label_is_undone_and_keeps_the_labels_before_it_undoable(qtbot, session_factory):
    """A long-session drive: removing a label it had just added emptied the undo stack, so the
    labels given before could no longer be undone."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # row 0 -> pos
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.add_label("mixed")
    editor.go_to(1)
    qtbot.keyClick(editor, Qt.Key.Key_3)  # row 1 -> mixed
    editor.go_to(1)
    qtbot.keyClick(editor, Qt.Key.Key_1)  # row 1 -> neg: "mixed" is unused again
    assert session.project.gold("train", 1) == "neg"
    count = session.undo_stack.count()
    session.remove_label("mixed")
    assert session.labels() == ["neg", "pos"] and session.undo_stack.count() == count + 1
    assert session.undo_stack.undoText() == "Remove label mixed"
    session.undo_stack.undo()  # the label is back
    assert session.labels() == ["neg", "pos", "mixed"]
    session.undo_stack.undo()  # row 1 back to the label it had, under its name
    assert session.project.gold("train", 1) == "mixed"
    session.undo_stack.undo()
    assert session.project.gold("train", 1) is None and session.project.gold("train", 0) == "pos"
    # a label still in use is refused, and nothing reaches the stack
    count = session.undo_stack.count()
    with pytest.raises(DataError, match="still used"):
        session.remove_label("pos")
    assert session.undo_stack.count() == count and "pos" in session.labels()


def test_redoing_an_added_label_gives_it_the_id_it_drew(session_factory):
    """Undo past "Add label", then Redo, drew a new id: a run trained with the label could no longer
    be resumed ("meh -> (removed)") and Results read its class as one the project lacks."""
    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    session.add_label("meh")
    ids = list(session.project.label_ids)
    session.undo_stack.undo()
    assert session.labels() == ["neg", "pos"]
    session.undo_stack.redo()
    assert session.labels() == ["neg", "pos", "meh"] and session.project.label_ids == ids
    assert session.project.names_now(["neg", "pos", "meh"], ids) == {"neg": "neg", "pos": "pos", "meh": "meh"}


def test_undoing_a_label_removal_puts_it_back_in_its_place_and_key(qtbot, session_factory):
    """A review: undo appended the label, so after a mistaken removal key 2 meant another class."""
    session = session_factory("sentence", ["neg", "neu", "pos"], {"train": SENTENCES})
    colour = session.label_colours()["neu"]
    ids = list(session.project.label_ids)
    session.remove_label("neu")
    session.undo_stack.undo()
    assert session.labels() == ["neg", "neu", "pos"] and session.label_colours()["neu"] == colour
    # the same class again: its id comes back, so a run that recorded it reads "neu" as "neu", not "(removed)"
    assert session.project.label_ids == ids
    assert session.project.names_now(["neg", "neu", "pos"], ids) == {"neg": "neg", "neu": "neu", "pos": "pos"}
    page = _page(qtbot, session)
    editor = page.editor()
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_2)
    assert session.project.gold("train", 0) == "neu"
    folder = session.project.folder
    session.close()
    from bertstudio.data.project import Project

    reopened = Project.open(folder)  # the journaled place (and id) survives a reopen
    assert reopened.labels == ["neg", "neu", "pos"] and reopened.label_ids == ids
    reopened.close()


def test_adding_and_recolouring_a_label_are_undoable(qtbot, session_factory):
    """Label set dialog: Add label and Colour… were the only label-set changes Edit > Undo could
    not take back. Undo removes the added label (redo adds it in the same colour), undo of a
    recolour gives the old colour back; an added label a row uses again is not removed."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    before = dict(session.label_colours())
    assert dialog.add_label("mixed")
    colour = session.label_colours()["mixed"]
    assert session.undo_stack.undoText() == "Add label mixed"
    session.undo_stack.undo()
    assert session.labels() == ["neg", "pos"] and dialog.list.count() == 2
    session.undo_stack.redo()
    assert session.labels() == ["neg", "pos", "mixed"] and session.label_colours()["mixed"] == colour
    assert dialog.set_colour("neg", "#123456")
    session.undo_stack.undo()
    assert session.label_colours()["neg"] == before["neg"]
    session.undo_stack.redo()
    assert session.label_colours()["neg"] == "#123456"
    session.project.set_gold("train", 0, "mixed")  # not through the stack (an import, another path)
    failures = []
    session.failed.connect(failures.append)
    session.undo_stack.undo()  # the recolour
    session.undo_stack.undo()  # the add: refused, said, and off the stack
    assert "mixed" in session.labels() and failures and "still used" in failures[0]


def test_plain_pos_tags_set_each_selected_word(qtbot, session_factory):
    labels = ["NOUN", "VERB", "DET", "PROPN"]
    words = ["the", "dog", "barks"]
    session = session_factory("tagging", labels, {"train": [{"tokens": words, "tags": ["DET", "NOUN", "NOUN"]}]})
    page = _page(qtbot, session)
    editor = page.editor()
    assert not editor.bio and editor.types() == labels
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # VERB
    assert session.project.gold("train", 0) == ["DET", "NOUN", "VERB"]
    editor.select_words(0, 2)
    qtbot.keyClick(editor, Qt.Key.Key_4)  # PROPN on both
    assert session.project.gold("train", 0) == ["PROPN", "PROPN", "VERB"]


def test_tagging_the_last_word_of_a_pos_sentence_moves_on(qtbot, session_factory):
    """A long-session drive: after the last word was tagged the cursor stayed on it, so one key
    more re-tagged '.' from PUNCT to NOUN without a word."""
    labels = ["NOUN", "VERB", "PUNCT"]
    rows = [{"tokens": ["dogs", "bark", "."], "tags": None}, {"tokens": ["cats", "sleep"], "tags": None},
            {"tokens": ["birds", "sing"], "tags": None}]
    session = session_factory("tagging", labels, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.go_to(0)
    for key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3):
        qtbot.keyClick(editor, key)
    assert session.project.gold("train", 0) == ["NOUN", "VERB", "PUNCT"]
    assert editor.row == 1 and editor.cursor_word == 0
    qtbot.keyClick(editor, Qt.Key.Key_1)  # tags the next sentence's first word, not row 0's "."
    assert session.project.gold("train", 0) == ["NOUN", "VERB", "PUNCT"]
    # a word skipped and tagged last completes the sentence too
    editor.go_to(2)
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # "sing" first, then back to "birds"
    assert session.project.gold("train", 2) is None and editor.row == 2
    qtbot.keyClick(editor, Qt.Key.Key_Home)
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert session.project.gold("train", 2) == ["NOUN", "VERB"] and editor.row != 2
    # correcting a stored sentence's last word stays on it
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert session.project.gold("train", 0) == ["NOUN", "VERB", "NOUN"] and editor.row == 0


CONTEXT = "Normandy is a région in France. The Normans — « Norsemen » — gave their name to it in the 10th century."


def _qa_rows():
    return [
        {"id": "q1", "title": "Normans", "context": CONTEXT, "question": "In what country is Normandy?", "answers": None},
        {"id": "q2", "title": "Normans", "context": CONTEXT, "question": "When?", "answers": None},
        {"id": "q3", "title": "Other", "context": "Another context.", "question": "What?", "answers": None},
    ]


def test_select_an_answer_with_the_mouse_records_exact_offsets(qtbot, session_factory):
    session = session_factory("qa", None, {"train": _qa_rows()})
    page = _page(qtbot, session)
    editor = page.editor()
    assert editor.question_list.count() == 2  # the two questions on this context
    view = editor.context_view
    start = CONTEXT.index("France")
    end = start + len("France")

    def point(index: int):
        cursor = QTextCursor(view.document())
        cursor.setPosition(index)
        return view.cursorRect(cursor).center()

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, pos=point(end))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, pos=point(end))
    gold = session.project.gold("train", 0)
    assert gold == {"text": ["France"], "answer_start": [start]}
    assert CONTEXT[gold["answer_start"][0]:][: len("France")] == "France"

    # After non-ASCII text (é, «, —) Python and Qt positions still agree: select "10th century".
    editor.go_to(1)
    s2 = CONTEXT.index("10th century")
    cursor = view.textCursor()
    cursor.setPosition(s2)
    cursor.setPosition(s2 + len("10th century"), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert session.project.gold("train", 1) == {"text": ["10th century"], "answer_start": [s2]}

    # No answer (SQuAD v2) stores empty lists; unticking clears it.
    editor.no_answer_box.click()
    assert session.project.gold("train", 1) == {"text": [], "answer_start": []}
    editor.no_answer_box.click()
    assert session.project.gold("train", 1) is None


def test_the_chosen_answer_has_a_line_of_its_own(qtbot, session_factory):
    """Beside the No-answer box and the Use-selection button the answer got ~70 px at 1280 x 800:
    one word per line, and the context squeezed into a scroll bar."""
    session = session_factory("qa", None, {"train": _qa_rows()})
    page = _page(qtbot, session)
    page.resize(1100, 700)
    editor = page.editor()
    cursor = editor.context_view.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(len("Normandy is a région in France"), QTextCursor.MoveMode.KeepAnchor)
    editor.context_view.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.wait(50)
    assert "Normandy is a région in France" in editor.answer_label.text()
    assert editor.answer_label.width() >= 0.8 * editor.context_view.width()
    assert editor.answer_label.height() < 3 * editor.answer_label.fontMetrics().height()


def test_add_a_question_to_the_context(qtbot, session_factory):
    session = session_factory("qa", None, {"train": _qa_rows()})
    page = _page(qtbot, session)
    editor = page.editor()
    qtbot.keyClicks(editor.new_question, "Who named it?")
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    assert session.split_size("train") == 4
    assert editor.row == 3
    added = session.row("train", 3)
    assert added["question"] == "Who named it?" and added["context"] == CONTEXT and added["answers"] is None
    assert editor.question_list.count() == 3


def test_label_set_dialog_adds_and_renames_and_legend_follows(qtbot, session_factory):
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    page = _page(qtbot, session)
    editor = page.editor()
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.add_label("neutral")
    assert editor.legend.names() == ["neg", "pos", "neutral"]
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert session.project.gold("train", 0) == "neutral"
    assert dialog.rename_label("neutral", "mixed")
    assert session.project.gold("train", 0) == "mixed"
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == ["neg", "pos", "mixed"]
    # The core refuses a duplicate; the dialog shows its message and the set is unchanged.
    assert not dialog.add_label("pos")
    assert "pos" in dialog.error.text()
    assert session.labels() == ["neg", "pos", "mixed"]


def test_clicking_the_legend_applies_a_label_and_keys_keep_working(qtbot, session_factory):
    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    page = _page(qtbot, session)
    editor = page.editor()
    button = editor.legend.findChild(type(page.label_set_button), "legend_neg")
    assert button.text() == "1  neg"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert session.project.gold("train", 0) == "neg" and editor.row == 1
    qtbot.keyClick(editor, Qt.Key.Key_2)
    assert session.project.gold("train", 1) == "pos"
    # The help panel beside the editor lists this kind's keys.
    assert "skip to the next unlabelled example" in page.help.toPlainText()


def _squad_rows(shared_data, n: int = 3):
    from bertstudio.data.io import load_examples

    rows = [dict(r) for r in load_examples(shared_data / "squad" / "dev-v1.1-articles-00-35.json").head(n).dataset]
    for row in rows:
        row["answers"] = None
    return rows


def _select(view, start: int, end: int, qtbot) -> None:
    """Drag over context[start:end] as a mouse does (press, shift-press to extend, release)."""

    def point(index: int):
        cursor = QTextCursor(view.document())
        cursor.setPosition(index)
        return view.cursorRect(cursor).center()

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=point(start))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, pos=point(end))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, pos=point(end))


def test_adding_a_question_with_enter_leaves_it_unanswered(qtbot, session_factory, shared_data):
    """Issue #14 item 1: Enter in the new-question box adds the question and nothing else; the
    selection made for question 1 does not become the new question's answer."""
    rows = _squad_rows(shared_data)
    session = session_factory("qa", None, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    context = rows[0]["context"]
    start = context.index("Denver Broncos")
    _select(editor.context_view, start, start + len("Denver Broncos"), qtbot)
    answered = {"text": ["Denver Broncos"], "answer_start": [start]}
    assert session.project.gold("train", 0) == answered

    qtbot.keyClicks(editor.new_question, "Who won Super Bowl 50?")
    qtbot.keyClick(editor.new_question, Qt.Key.Key_Return)
    assert session.split_size("train") == 4 and editor.row == 3
    added = session.row("train", 3)
    assert added["question"] == "Who won Super Bowl 50?" and added["answers"] is None
    assert editor.answer_label.text().startswith("(no answer chosen yet")
    assert session.project.gold("train", 0) == answered  # question 1 keeps its answer
    assert editor.new_question.text() == ""
    # The old selection is gone: Enter in the editor has nothing to use for the new question.
    assert not editor.context_view.textCursor().hasSelection()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert session.project.gold("train", 3) is None
    # Moving to another question clears a selection too.
    editor.go_to(0)
    _select(editor.context_view, start, start + len("Denver"), qtbot)
    editor.go_to(1)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert session.project.gold("train", 1) is None


def test_sts_b_score_box_typed_score_then_arrow_moves_on(qtbot, session_factory, shared_data):
    """Issue #14 item 2 (STS-B): a score typed in the box is stored by an arrow key, which then moves
    to the next example with the keys back in the editor; Enter stores without moving."""
    from bertstudio.data.io import load_examples

    pairs = [dict(r, label=None) for r in load_examples(shared_data / "glue" / "STS-B" / "dev.tsv").head(3).dataset]
    session = session_factory("regression", None, {"dev": pairs})
    page = _page(qtbot, session)
    editor = page.editor()
    spin = editor.spin
    assert spin.text() == "none"  # an unscored pair shows no score, so leaving the box stores nothing
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "3.7")
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert session.project.gold("dev", 0) == 3.7
    assert editor.row == 1 and spin.text() == "none"
    qtbot.keyClick(editor, Qt.Key.Key_4)  # the editor's own keys work again
    assert session.project.gold("dev", 1) == 4.0 and editor.row == 2
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "1.2")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.project.gold("dev", 2) == 1.2 and editor.row == 2
    qtbot.keyClick(spin, Qt.Key.Key_Up)  # an arrow without a new score only moves
    assert editor.row == 1 and session.project.gold("dev", 1) == 4.0


def test_a_label_rename_is_undone_and_redone_and_earlier_edits_stay_undoable(qtbot, session_factory):
    """Walkthrough W8: renaming a label could not be undone, and it emptied the undo stack."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = session_factory("sentence", ["neg", "pos"], {"train": SENTENCES})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # row 0 -> pos, undoable
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.rename_label("pos", "good")
    assert session.project.gold("train", 0) == "good" and session.labels() == ["neg", "good"]
    assert session.undo_stack.undoText() == "Rename label pos to good"
    session.undo_stack.undo()  # the rename
    assert session.labels() == ["neg", "pos"] and session.project.gold("train", 0) == "pos"
    assert editor.legend.names() == ["neg", "pos"]
    session.undo_stack.undo()  # the label edit before it, with the name it was made under
    assert session.project.gold("train", 0) is None
    session.undo_stack.redo()
    session.undo_stack.redo()
    assert session.labels() == ["neg", "good"] and session.project.gold("train", 0) == "good"
    # a refused rename (a name already there) never reaches the stack
    count = session.undo_stack.count()
    assert not dialog.rename_label("good", "neg") and "neg" in dialog.error.text()
    assert session.undo_stack.count() == count
    # a rename made elsewhere (the core's API) still empties the stack: its entries hold old names
    session.project.rename_label("good", "great")
    assert session.undo_stack.count() == 0
    reopened_labels = session.labels()
    assert reopened_labels == ["neg", "great"]


def test_a_score_with_hundredths_is_never_rewritten_by_passing_through_the_box_or_slider(qtbot, session_factory):
    """STS-B holds scores such as 4.25. The box showed tenths (4.3): leaving it with an arrow stored
    4.3 over the imported 4.25 without a word, row after row. A click on the slider's groove or
    the wheel moved the handle and stored nothing; a score typed, then the window closed, was lost."""
    from PySide6.QtWidgets import QSlider

    scored = [{"text": f"s{i}", "text_pair": f"t{i}", "label": 4.25} for i in range(3)]
    session = session_factory("regression", None, {"train": scored})
    page = _page(qtbot, session)
    editor = page.editor()
    spin, slider = editor.spin, editor.slider
    assert editor.gold_label.text() == "4.25" and spin.text() == "4.25"  # both say what is stored
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    qtbot.keyClick(spin, Qt.Key.Key_Down)  # leave the box as it was: on to row 1
    assert editor.row == 1 and session.project.gold("train", 0) == 4.25
    slider.sliderPressed.emit()
    slider.sliderReleased.emit()  # a press and release where the handle is: nothing changed
    assert session.project.gold("train", 1) == 4.25 and session.undo_stack.count() == 0
    slider.triggerAction(QSlider.SliderAction.SliderPageStepSub)  # what a click on the groove or the wheel does
    qtbot.waitUntil(lambda: session.project.gold("train", 1) != 4.25, timeout=3000)
    assert session.project.gold("train", 1) == slider.value() / editor.SCALE < 4.25
    editor.go_to(2)
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "0.7")  # typed, no Enter, then the project closes
    folder = session.project.folder
    session.close()
    from bertstudio.data.project import Project

    with Project.open(folder) as again:
        assert again.gold("train", 2) == 0.7 and again.gold("train", 0) == 4.25


def test_a_typed_score_is_stored_as_typed_or_refused_never_changed(qtbot, session_factory):
    """A helper typed 7.5 in the score box and Enter stored 0.5 (the box's validator dropped the
    7, the box read ".5"); 10 stored 1.0; 2.615 would have stored 2.6. Nothing was said. On a
    benchmark's scale (STS-B 0-5) a score outside it is refused, with the scale named."""
    scored = [{"text": f"s{i}", "text_pair": f"t{i}", "label": None} for i in range(2)]
    session = session_factory("regression", None, {"train": scored})
    session.project._meta["glue_task"] = "STS-B"
    page = _page(qtbot, session)
    editor = page.editor()
    spin = editor.spin
    said: list[str] = []
    editor.message_shown.connect(said.append)
    for typed, shown in (("7.5", "7.5"), ("10", "10.0"), ("-1", "-1.0")):
        spin.setFocus()
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, typed)
        qtbot.keyClick(spin, Qt.Key.Key_Return)
        assert session.project.gold("train", 0) is None and session.undo_stack.count() == 0, typed
        assert said and said[-1] == f"{shown} is outside the STS-B scale 0-5: not stored"
        assert spin.text() == "none"  # back to what is stored
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "2.615")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.project.gold("train", 0) == 2.615 and spin.text() == "2.615"
    assert session.undo_stack.undoText() == "Score row 1 as 2.615"
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "5")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.project.gold("train", 0) == 5.0 and spin.text() == "5.0"
    # its arrows and the wheel step within the scale: from "none" to 0 (a reviewer saw -9998.9)
    editor.go_to(1)
    assert spin.text() == "none"
    spin.stepBy(1)
    assert spin.value() == 0.0
    spin.stepBy(-3)
    assert spin.value() == 0.0
    spin.stepBy(70)
    assert spin.value() == 5.0


def test_the_score_editor_takes_the_projects_own_scale(qtbot, session_factory):
    """Sweep #2: the editor was fixed to STS-B's 0-5, so a project of 1-10 ratings (scores 6-10
    imported) showed 6 with the slider pinned at its end, refused a typed 7 and key 8."""
    scored = [{"text": f"s{i}", "text_pair": f"t{i}", "label": 6.0 + i % 5} for i in range(5)]
    scored += [{"text": f"u{i}", "text_pair": f"v{i}", "label": None} for i in range(3)]
    session = session_factory("regression", None, {"train": scored})
    editor = _page(qtbot, session).editor()
    editor.advance_box.setChecked(False)
    said: list[str] = []
    editor.message_shown.connect(said.append)
    assert (editor.LOW, editor.HIGH) == (0.0, 10.0) and editor.high_label.text() == "10"
    editor.go_to(0)
    assert editor.slider.value() / editor.SCALE == 6.0 < editor.slider.maximum() / editor.SCALE
    editor.go_to(5)
    qtbot.keyClick(editor, Qt.Key.Key_8)
    assert session.project.gold("train", 5) == 8.0
    spin = editor.spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "9.5")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.project.gold("train", 5) == 9.5
    # beyond the scale of a plain project: stored as typed, the scale widens, and it is said
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "42")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert session.project.gold("train", 5) == 42.0
    assert said[-1] == "42.0 is outside the scale 0-10 of this project's scores: stored, and the scale is now 0-100"
    assert editor.HIGH == 100.0 and editor.slider.value() / editor.SCALE == 42.0


def test_a_decimal_comma_is_read_as_a_decimal_point_never_as_a_group(qtbot, session_factory):
    """Sweep #4: in an English or C locale the box read "0,5" as 05 and stored 5.0."""
    scored = [{"text": f"s{i}", "text_pair": f"t{i}", "label": None} for i in range(2)]
    session = session_factory("regression", None, {"train": scored})
    editor = _page(qtbot, session).editor()
    editor.advance_box.setChecked(False)
    spin = editor.spin
    for typed, stored in (("0,5", 0.5), ("3,5", 3.5)):
        spin.setFocus()
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, typed)
        qtbot.keyClick(spin, Qt.Key.Key_Return)
        assert session.project.gold("train", 0) == stored, typed
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "1,2,3")  # no score reads that way: the second comma is not taken
    assert spin.lineEdit().text() == "1,23"


def test_keys_that_set_nothing_say_why(qtbot, session_factory):
    """A helper pressed 3 in a two-label pair project, 6-9 and Enter in a scores project: nothing
    happened and nothing was said. With the assistant off, Enter said "No suggestion to accept
    yet", as if one were coming."""
    pairs = [{"text": "a", "text_pair": "b", "label": None}]
    session = session_factory("pair", ["same", "different"], {"train": pairs})
    session.assist.enabled = False
    editor = _page(qtbot, session).editor()
    said: list[str] = []
    editor.message_shown.connect(said.append)
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert session.project.gold("train", 0) is None and said[-1] == "Key 3 sets nothing: the labels are on keys 1-2"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert said[-1].startswith("No suggestions while the labelling assistant is off")
    assert said[-1].endswith("pick the label with a number key")

    scored = [{"text": "a", "text_pair": "b", "label": None}]
    session2 = session_factory("regression", None, {"train": scored})
    reg = _page(qtbot, session2).editor()
    reg.message_shown.connect(said.append)
    qtbot.keyClick(reg, Qt.Key.Key_7)
    assert session2.project.gold("train", 0) is None
    assert said[-1] == "Key 7 sets nothing: keys 0-5 set whole scores on the scale 0-5; type other scores in the box"
    qtbot.keyClick(reg, Qt.Key.Key_Return)
    assert "suggestion" in said[-1] and said[-1].endswith("set the score with keys 0-5 or type it in the box")


def test_a_label_key_does_not_lay_out_the_same_text_again(qtbot, session_factory):
    """Every key on a row of about 1 MB froze the window for 0.4 s: the label's redraw set the
    unchanged text again (and put a scrolled view back at its top)."""
    long_text = " ".join(f"word{i}" for i in range(20000))
    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": long_text, "label": None},
                                                                      {"text": "short", "label": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.advance_box.setChecked(False)
    laid_out = []
    real = editor.text_view.setPlainText
    editor.text_view.setPlainText = lambda text: (laid_out.append(len(text)), real(text))
    bar = editor.text_view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    scrolled = bar.value()
    for key in (Qt.Key.Key_2, Qt.Key.Key_1, Qt.Key.Key_Backspace):
        qtbot.keyClick(editor, key)
    assert session.project.gold("train", 0) is None and laid_out == [] and bar.value() == scrolled
    editor.go_to(1)
    assert laid_out == [5] and editor.text_view.toPlainText() == "short"
    editor.go_to(0)
    assert editor.text_view.toPlainText() == long_text


@pytest.mark.parametrize("kind", ["sentence", "tagging"])
def test_a_half_labelled_project_opens_on_its_first_row_to_label(qtbot, session_factory, kind):
    """It opened on row 0, labelled: a person going on where they stopped relabelled it with the
    first key. A fully labelled split still opens on row 0."""
    if kind == "sentence":
        rows = [{"text": f"row {i}", "label": "pos" if i in (0, 1, 2, 4) else None} for i in range(6)]
        labels = ["neg", "pos"]
    else:
        rows = [{"tokens": ["a", "b"], "tags": ["O", "O"] if i < 3 else None} for i in range(5)]
        labels = ["O", "B-LOC", "I-LOC"]
    session = session_factory(kind, labels, {"train": rows})
    assert session.current_row == 3
    page = _page(qtbot, session)
    assert page.editor().row == 3 and page.position.text() == "example 4 of " + str(len(rows))
    labelled = session_factory("sentence", ["neg", "pos"], {"train": [{"text": "a", "label": "pos"},
                                                                       {"text": "b", "label": "neg"}]})
    assert labelled.current_row == 0


def test_partly_tagged_sentences_survive_appends_follow_renames_and_come_back_with_their_rows(qtbot, session_factory):
    """An Add example (any append) deleted every partly tagged sentence of the split, and the loss
    was saved; a renamed tag stayed old in them, so they could not be finished; a tag only a draft
    held could be removed; an undone Replace did not bring its rows' drafts back."""
    from bertstudio.data.examples import from_records
    from bertstudio.errors import BertStudioError

    labels = ["NOUN", "VERB", "DET"]
    rows = [{"tokens": ["the", "dog", "barks"], "tags": None}, {"tokens": ["cats", "sleep"], "tags": None}]
    session = session_factory("tagging", labels, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_3)  # the/DET
    qtbot.keyClick(editor, Qt.Key.Key_1)  # dog/NOUN; barks untagged
    assert editor.drafts == {("train", 0): ["DET", "NOUN", None]}
    session.import_examples(from_records("tagging", [{"tokens": ["birds", "sing"], "tags": None}]), "train")  # append
    assert editor.drafts == {("train", 0): ["DET", "NOUN", None]}
    with pytest.raises(BertStudioError, match="partly tagged sentence"):
        session.remove_label("NOUN")
    assert "NOUN" in session.project.labels
    session.rename_label("NOUN", "N")
    assert editor.drafts == {("train", 0): ["DET", "N", None]}
    editor.go_to(0)
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_2)  # barks/VERB: the sentence is whole and stored with the new name
    assert session.project.gold("train", 0) == ["DET", "N", "VERB"] and editor.drafts == {}
    editor.go_to(1)
    qtbot.keyClick(editor, Qt.Key.Key_1)  # cats/N
    assert editor.drafts == {("train", 1): ["N", None]}
    session.import_examples(from_records("tagging", [{"tokens": ["x"], "tags": None}]), "train", replace=True)
    assert editor.drafts == {}  # other rows now: no draft names them
    session.undo_stack.undo()  # the rows come back, and their draft with them
    assert session.split_size("train") == 3 and editor.drafts == {("train", 1): ["N", None]}
    session.close()


@pytest.mark.parametrize("tokens", [
    ["I", "love", "👩\u200d👩\u200d👧\u200d👦", "😀", "in", "Paris", "and", "Rome", "too"],
    ["𝕳𝖊𝖑𝖑𝖔", "from", "🇫🇷", "Paris", "and", "Rome", "too"],
    ["line\r\nbreak", "in", "a", "token", "Rome", "too"],
])
def test_a_click_after_emoji_or_a_crlf_tags_the_word_under_the_mouse_and_marks_it(qtbot, session_factory, tokens):
    """Qt positions count UTF-16 units (an emoji takes two) and make a CRLF one break; the word
    starts were counted in code points, so after an emoji a click on "Rome" tagged "too"."""
    labels = ["O", "B-LOC", "I-LOC"]
    session = session_factory("tagging", labels, {"train": [{"tokens": tokens, "tags": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    view = editor.view
    shown = view.document().toRawText()  # a CRLF is one U+2029 here, as in the document
    target = tokens.index("Rome")
    # find "Rome" on screen from the document's own text (its UTF-16 units), not from the editor's offsets
    cursor = QTextCursor(view.document())
    cursor.setPosition(len(shown[: shown.index(" Rome ") + 2].encode("utf-16-le")) // 2)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.cursorRect(cursor).center())
    assert editor.cursor_word == target
    marked = [m.cursor.selectedText() for m in view.extraSelections() if m.cursor.hasSelection()]
    assert marked == ["Rome"]  # the word cursor is drawn on the word it is on
    qtbot.keyClick(editor, Qt.Key.Key_1)
    assert session.project.gold("train", 0)[target] == "B-LOC"
    assert [m.cursor.selectedText() for m in view.extraSelections()][0] == "Rome"  # the LOC highlight
    qtbot.keyClick(editor, Qt.Key.Key_Right)  # keys move the mark word by word, without drift
    assert [m.cursor.selectedText() for m in view.extraSelections()][-1] == "too"
    qtbot.keyClick(editor, Qt.Key.Key_Home)
    qtbot.keyClick(editor, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    whole = [m.cursor.selectedText() for m in view.extraSelections()][-1]
    assert whole == view.document().toPlainText().replace("\n", "\u2029")  # the whole sentence, to its last letter


@pytest.mark.parametrize("context", [
    "Line one.\r\nLine two.\r\nThe capital is Paris.\r\nEnd.",
    "Line one.\rLine 😀 two.\u2028The capital is Paris.\u2029End.",
    "Crème 👩\u200d👩\u200d👧\u200d👦 brûlée.\r\n\r\nThe capital is Paris.\nEnd.",
])
def test_a_qa_answer_after_crlf_or_emoji_is_stored_and_highlighted_where_it_is(qtbot, session_factory, context):
    """setPlainText makes a CRLF one block break: the answer dragged over "Paris" was stored as
    "s Par", and the imported gold "Paris" was shaded two characters late."""
    start = context.index("Paris")
    rows = [{"id": "q1", "title": "", "context": context, "question": "Capital?",
             "answers": {"text": ["Paris"], "answer_start": [start]}},
            {"id": "q2", "title": "", "context": context, "question": "Which city?", "answers": None}]
    session = session_factory("qa", None, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    view = editor.context_view
    editor.go_to(0)
    assert [m.cursor.selectedText() for m in view.extraSelections()] == ["Paris"]
    # where "Paris" is on screen, found from the document's own text (UTF-16 units, one break per line end)
    shown = view.document().toRawText()
    at = len(shown[: shown.index("Paris")].encode("utf-16-le")) // 2
    editor.go_to(1)
    _select(view, at, at + len("Paris"), qtbot)
    # the recorded selection is cleared (sweep_qalabel 3); the answer is shaded where it is
    assert [m.cursor.selectedText() for m in view.extraSelections()] == ["Paris"]
    assert session.project.gold("train", 1) == {"text": ["Paris"], "answer_start": [start]}
    # a selection over a line end keeps the whole CRLF (the line end inside the answer: one at its
    # end is trimmed like any whitespace there)
    editor.go_to(1)
    end = len(shown[: shown.index("End")].encode("utf-16-le")) // 2 + len("End")
    _select(view, at, end, qtbot)
    gold = session.project.gold("train", 1)
    assert gold["answer_start"] == [start] and gold["text"] == [context[start: context.index("End") + len("End")]]


def test_renaming_a_bio_tag_renames_its_entity_type_as_one_undo_step(qtbot, session_factory, monkeypatch):
    """Renaming B-PER to B-PERSON in the Label set dialog left I-PER alone: 'john smith', one PER
    entity, became a PERSON entity and a PER entity opened by I-PER, counted nowhere."""
    from bertstudio.ui.editors.label_set import LabelSetDialog
    from bertstudio.ui.editors.tag_edits import entities

    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    rows = [{"tokens": ["john", "smith", "went", "home"], "tags": ["B-PER", "I-PER", "O", "O"]},
            {"tokens": ["mary", "lives", "in", "paris"], "tags": ["B-PER", "O", "O", "B-LOC"]}]
    session = session_factory("tagging", labels, {"train": rows})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    count = session.undo_stack.count()
    assert dialog.rename_label("B-PER", "B-PERSON")
    assert session.labels() == ["O", "B-PERSON", "I-PERSON", "B-LOC", "I-LOC"]
    assert entities(session.project.gold("train", 0)) == [("PERSON", 0, 2)]
    assert session.undo_stack.count() == count + 1 and session.undo_stack.undoText() == "Rename entity type PER to PERSON"
    session.undo_stack.undo()  # one step back: both tags
    assert session.labels() == labels and entities(session.project.gold("train", 0)) == [("PER", 0, 2)]
    session.undo_stack.redo()
    assert session.labels() == ["O", "B-PERSON", "I-PERSON", "B-LOC", "I-LOC"]
    assert dialog.rename_label("I-LOC", "I-PLACE")  # from either half
    assert session.labels() == ["O", "B-PERSON", "I-PERSON", "B-PLACE", "I-PLACE"]
    assert entities(session.project.gold("train", 1)) == [("PERSON", 0, 1), ("PLACE", 3, 4)]
    # a name that is not a B- tag any more is refused, and nothing changes
    count = session.undo_stack.count()
    assert not dialog.rename_label("B-PERSON", "PERSON") and "renamed together" in dialog.error.text()
    assert session.labels() == ["O", "B-PERSON", "I-PERSON", "B-PLACE", "I-PLACE"]
    # the partner's new name taken: the first half is not left renamed alone
    session.add_label("I-CITY")
    assert not dialog.rename_label("B-PLACE", "B-CITY")
    assert session.labels() == ["O", "B-PERSON", "I-PERSON", "B-PLACE", "I-PLACE", "I-CITY"]
    assert session.undo_stack.count() == count + 1  # the add only
    # Rename… on I-PERSON asks for the entity type's new name
    asked = []
    monkeypatch.setattr("bertstudio.ui.editors.label_set.QInputDialog.getText",
                        lambda _parent, title, prompt, text="": asked.append((title, prompt, text)) or ("HUMAN", True))
    dialog.list.setCurrentRow(2)
    dialog._on_rename()
    assert asked[0][0] == "Rename entity type" and asked[0][2] == "PERSON" and "I-PERSON" in asked[0][1]
    assert session.labels()[:3] == ["O", "B-HUMAN", "I-HUMAN"]


def test_the_next_orders_label_follows_a_rename(qtbot, session_factory):
    """Next "by label: pos" fell back to "the rarest label" without a word once pos was renamed."""
    session = session_factory("sentence", ["neg", "pos", "meh"], {"train": SENTENCES})
    bar = _page(qtbot, session).assist_bar
    bar.label_combo.setCurrentIndex(bar.label_combo.findData("pos"))
    assert bar.label() == "pos"
    session.rename_label("pos", "positive")
    assert bar.label() == "positive" and bar.label_combo.currentText() == "positive"
    assert [bar.label_combo.itemData(i) for i in range(bar.label_combo.count())] == ["", "neg", "positive", "meh"]
    session.undo_stack.undo()
    assert bar.label() == "pos"
    session.remove_label("meh")  # another label removed: the order keeps its own
    assert bar.label() == "pos"


def test_navigation_keys_in_the_new_question_field_keep_the_example(qtbot, session_factory):
    """Keyboard sweep item 2: Down, PageDown, Up and Ctrl+Home typed in "Type a new question" were
    ignored by the line edit and stepped the editor, so Enter then added the question to another context."""
    rows = [{"id": f"q{i}", "context": f"Context of row {i}.", "question": f"Q{i}?", "answers": None} for i in range(3)]
    session = session_factory("qa", None, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    assert editor.row == 0
    editor.new_question.setFocus()
    qtbot.keyClicks(editor.new_question, "Who")
    for key, modifier in [(Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_PageDown, Qt.KeyboardModifier.NoModifier),
                          (Qt.Key.Key_Up, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_PageUp, Qt.KeyboardModifier.NoModifier),
                          (Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier),
                          (Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)]:
        qtbot.keyClick(editor.new_question, key, modifier)
        assert editor.row == 0, key
    assert editor.new_question.text() == "Who"
    qtbot.keyClick(editor.new_question, Qt.Key.Key_Return)
    assert session.split_size("train") == 4
    assert session.row("train", 3)["question"] == "Who" and session.row("train", 3)["context"] == "Context of row 0."


def _drag(view, start: int, end: int, qtbot) -> None:
    """A real drag: press at ``start``, move the mouse with the button down, release at ``end``."""
    from PySide6.QtCore import QEvent, QPoint, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    def point(index: int):
        cursor = QTextCursor(view.document())
        cursor.setPosition(index)
        rect = view.cursorRect(cursor)
        return QPoint(rect.left() + 1, rect.center().y())

    viewport = view.viewport()
    a, b = point(start), point(end)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=a)
    for t in (0.3, 0.6, 1.0):
        m = QPointF(a + (b - a) * t)
        move = QMouseEvent(QEvent.Type.MouseMove, m, QPointF(viewport.mapToGlobal(m)), Qt.MouseButton.NoButton,
                           Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, move)  # through the scroll area's viewport filter
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=b)


def test_re_dragging_from_inside_the_answer_makes_a_new_answer(qtbot, session_factory):
    """sweep_qalabel 3: the selection stayed in the read-only view once recorded, and a press inside
    it started Qt's text drag: dragging again from inside "France" to take the full stop did nothing."""
    context = "Paris is the capital of France."
    rows = [{"id": "q1", "context": context, "question": "Which country?", "answers": None}]
    session = session_factory("qa", None, {"train": rows})
    editor = _page(qtbot, session).editor()
    view = editor.context_view
    start = context.index("France")
    _drag(view, start, start + len("France"), qtbot)
    assert session.project.gold("train", 0) == {"text": ["France"], "answer_start": [start]}
    assert not view.textCursor().hasSelection()
    assert [m.cursor.selectedText() for m in view.extraSelections()] == ["France"]
    _drag(view, start, len(context), qtbot)  # the same start, the end moved past the full stop
    assert session.project.gold("train", 0) == {"text": ["France."], "answer_start": [start]}


def test_a_drag_from_inside_a_keyboard_selection_not_yet_used_makes_a_new_answer(qtbot, session_factory):
    """A selection made by keyboard and not yet used with Enter stays in the view: a press inside it
    began Qt's text drag, and dragging to a new end chose nothing."""
    context = "Paris is the capital of France."
    rows = [{"id": "q1", "context": context, "question": "Which country?", "answers": None}]
    session = session_factory("qa", None, {"train": rows})
    editor = _page(qtbot, session).editor()
    view = editor.context_view
    cursor = view.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(len(context), QTextCursor.MoveMode.KeepAnchor)  # all of it, by keyboard: not used
    view.setTextCursor(cursor)
    start = context.index("France")
    _drag(view, start, len(context), qtbot)
    assert session.project.gold("train", 0) == {"text": ["France."], "answer_start": [start]}


def test_a_qa_answer_is_trimmed_and_spaces_alone_are_refused(qtbot, session_factory):
    """sweep_qalabel 1: a selection of two spaces was stored as the answer (shown as an empty one,
    trained as an inverted span), and a word taken with Ctrl+Shift+Right kept its trailing space."""
    context = "Second line  with  double spaces."
    rows = [{"id": "q1", "context": context, "question": "Q1?", "answers": None}]
    session = session_factory("qa", None, {"train": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    said = []
    page.status_message.connect(said.append)
    view = editor.context_view

    def choose(start: int, end: int) -> None:
        cursor = view.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cursor)
        qtbot.keyClick(editor, Qt.Key.Key_Return)

    spaces = context.index("  ")
    choose(spaces, spaces + 2)
    assert session.project.gold("train", 0) is None
    assert said == ["The selection holds only spaces: select the words of the answer."]
    # a word with the spaces on both sides: the answer is the word, its start moved onto it
    choose(spaces, context.index("double"))
    assert session.project.gold("train", 0) == {"text": ["with"], "answer_start": [context.index("with")]}
    # the keyboard's word selection (Ctrl+Home, Ctrl+Shift+Right) keeps the trailing space: trimmed too
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.textCursor().selectedText() == "Second "
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert session.project.gold("train", 0) == {"text": ["Second"], "answer_start": [0]}


def test_a_qa_answer_of_zero_width_characters_alone_is_refused_and_they_are_trimmed(qtbot, session_factory):
    """sweep_newcode53 6: a selection of a zero-width space (or a BOM, or joiners between spaces) was
    stored as the answer; BERT's tokenizer drops such format characters, so it trained as "no answer"."""
    flag = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # England: tags are Cf
    context = f"a\u200bb c \u200c\u200d d \ufeffword\u200b e {flag}."
    rows = [{"id": "q1", "context": context, "question": "Q1?", "answers": None}]
    session = session_factory("qa", None, {"train": rows})
    editor = _page(qtbot, session).editor()
    said = []
    editor.message_shown.connect(said.append)
    refused = "The selection holds no visible character: select the words of the answer."
    for start, end in [(1, 2), (5, 9), (11, 12)]:  # \u200b alone; " \u200c\u200d "; the BOM alone
        editor.set_answer(start, end)
        assert session.project.gold("train", 0) is None, context[start:end]
    assert said == [refused] * 3
    start = context.index("\ufeffword")
    editor.set_answer(start - 1, start + 7)  # " \ufeffword\u200b " -> "word"
    assert session.project.gold("train", 0) == {"text": ["word"], "answer_start": [start + 1]}
    start = context.index(flag)
    editor.set_answer(start, start + len(flag))  # the flag keeps its closing tag characters
    assert session.project.gold("train", 0) == {"text": [flag], "answer_start": [start]}
