"""More than nine labels (issue #14 item 3): every label has a key shown in the legend, and a
type-to-filter picker (press a letter, pick with Enter) reaches each one. Driven through the real
editors with the 17 UPOS tags of UD English EWT."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from bertstudio.ui.editors import LabelPage

UPOS = {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT",
        "SCONJ", "SYM", "VERB", "X"}


@pytest.fixture
def ewt(shared_data):
    """The first three UD English EWT dev sentences and the tag set as the reader finds it."""
    from bertstudio.data.io import load_examples

    examples = load_examples(shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu")
    assert set(examples.labels) == UPOS  # the real 17 universal POS tags
    return list(examples.labels), [dict(r) for r in examples.head(3).dataset]


def _page(qtbot, session) -> LabelPage:
    page = LabelPage(session)
    qtbot.addWidget(page)
    page.resize(1000, 700)
    page.show()
    return page


def _shown_keys(page, editor) -> list[str]:
    """The key written on each legend button ("7  NUM" -> "7"; "" where a button shows none)."""
    buttons = [editor.legend.findChild(type(page.label_set_button), f"legend_{n}") for n in editor.legend.names()]
    return [b.text().split("  ")[0] if "  " in b.text() else "" for b in buttons]


def _qt_key(char: str) -> Qt.Key:
    return Qt.Key.Key_Slash if char == "/" else Qt.Key(ord(char.upper()))


def _type_key(qtbot, editor, key: str) -> None:
    """Press what the legend shows: a digit, or a picker code (first key to the editor, the rest
    typed into the picker's filter box, which has the focus), then Enter."""
    if key.isdigit():
        qtbot.keyClick(editor, Qt.Key(ord(key)))
        return
    code = key.removesuffix("↵")
    qtbot.keyClick(editor, _qt_key(code[0]))
    assert editor.picker.isVisible()
    for char in code[1:]:
        qtbot.keyClick(editor.picker.filter_edit, _qt_key(char))
    qtbot.keyClick(editor.picker.filter_edit, Qt.Key.Key_Return)
    assert not editor.picker.isVisible()


def test_every_upos_tag_has_a_key_in_the_legend_and_the_key_applies_it(qtbot, session_factory, ewt):
    labels, rows = ewt
    session = session_factory("tagging", labels, {"dev": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    assert editor.legend.names() == labels
    keys = _shown_keys(page, editor)
    assert keys[:9] == [str(i) for i in range(1, 10)]
    assert all(keys) and len(set(keys)) == len(labels)  # every tag shows a key, no two the same
    assert "tag" in page.help.toPlainText() and "pick any tag by typing" in page.help.toPlainText()

    gold = list(session.gold("dev", 0))
    for name, key in zip(labels, keys):
        editor.select_words(0, 1)
        _type_key(qtbot, editor, key)
        gold[0] = name
        assert session.gold("dev", 0) == gold, (name, key)


def test_typing_a_letter_filters_the_picker_and_enter_applies_the_first_match(qtbot, session_factory, ewt):
    labels, rows = ewt
    session = session_factory("tagging", labels, {"dev": rows})
    page = _page(qtbot, session)
    editor = page.editor()
    before = list(session.gold("dev", 0))
    editor.select_words(1, 2)
    qtbot.keyClick(editor, Qt.Key.Key_P)
    picker = editor.findChild(QWidget, "labelPicker")
    assert picker is not None and picker.isVisible() and picker.filter_edit.text() == "p"
    matches = picker.matches()
    assert {"PROPN", "PUNCT", "PART", "PRON"} <= set(matches[:4]) and all(m.startswith("P") for m in matches[:4])
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_U)
    assert picker.matches()[0] == "PUNCT"
    # Esc closes without a change, and the keys are the editor's again.
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Escape)
    assert not picker.isVisible() and session.gold("dev", 0) == before
    # "/" opens it empty on the word's current tag; Down then Enter picks the next one in the list.
    qtbot.keyClick(editor, Qt.Key.Key_Slash)
    assert picker.filter_edit.text() == "" and picker.matches() == labels
    assert picker.current() == before[1]
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Down)
    expected = labels[(labels.index(before[1]) + 1) % len(labels)]
    qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert session.gold("dev", 0)[1] == expected
    # S still skips (a command key), it does not open the picker.
    qtbot.keyClick(editor, Qt.Key.Key_S)
    assert not picker.isVisible()


def test_sentence_labels_past_nine_through_the_picker_and_their_legend_keys(qtbot, session_factory):
    intents = ["balance", "bill", "card_lost", "complaint", "greeting", "goodbye", "loan", "mortgage", "pin",
               "refund", "transfer", "travel"]
    texts = [{"text": t, "label": None} for t in ("I lost my card", "send 50 to Ann", "I will be abroad")]
    session = session_factory("sentence", intents, {"train": texts})
    page = _page(qtbot, session)
    editor = page.editor()
    keys = _shown_keys(page, editor)
    # refund, transfer, travel: the shortest prefix that puts each first (transfer comes before travel)
    assert keys[9:] == ["r↵", "t↵", "trav↵"]
    qtbot.keyClick(editor, Qt.Key.Key_C)  # only card_lost and complaint start with c
    assert editor.picker.matches()[:2] == ["card_lost", "complaint"]
    qtbot.keyClick(editor.picker.filter_edit, Qt.Key.Key_Return)
    assert session.gold("train", 0) == "card_lost" and editor.row == 1  # applied, and the editor moved on
    _type_key(qtbot, editor, "t↵")
    assert session.gold("train", 1) == "transfer"
    _type_key(qtbot, editor, "trav↵")
    assert session.gold("train", 2) == "travel"
