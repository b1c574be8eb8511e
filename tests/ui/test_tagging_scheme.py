"""Tagging speaks the data's scheme (issue #14 item 4): a POS project (plain tags, no B-/I-) is
told about tags in the help, the legend and the notes, and is tagged word by word from an
unlabelled sentence; a BIO project keeps talking about entities."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from bertstudio.ui.editors import LabelPage


def _page(qtbot, session) -> LabelPage:
    page = LabelPage(session)
    qtbot.addWidget(page)
    page.show()
    return page


def _press_tag(qtbot, editor, tag: str) -> None:
    """Apply ``tag`` to the selected words with the key the legend shows for it (digit or picker code)."""
    key = editor.legend.keys()[editor.legend.names().index(tag)]
    if key.isdigit():
        qtbot.keyClick(editor, Qt.Key(ord(key)))
        return
    code = key.removesuffix("↵")
    qtbot.keyClick(editor, Qt.Key.Key_Slash if code[0] == "/" else Qt.Key(ord(code[0].upper())))
    for char in code[1:]:
        qtbot.keyClick(editor.picker.filter_edit, Qt.Key(ord(char.upper())))
    qtbot.keyClick(editor.picker.filter_edit, Qt.Key.Key_Return)


def _ewt(shared_data, n: int = 60):
    from bertstudio.data.io import load_examples

    examples = load_examples(shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu")
    return list(examples.labels), [dict(r) for r in examples.head(n).dataset]


def test_pos_help_legend_and_notes_speak_of_tags_and_a_sentence_is_tagged_word_by_word(
        qtbot, session_factory, shared_data):
    labels, rows = _ewt(shared_data)
    # a real sentence of a few words using two tags past the ninth (reached through the picker), left unlabelled
    short = next(r for r in rows if 4 <= len(r["tokens"]) <= 12
                 and len({t for t in r["tags"] if labels.index(t) >= 9}) >= 2)
    truth = list(short["tags"])
    session = session_factory("tagging", labels, {"train": [dict(short, tags=None)]})
    page = _page(qtbot, session)
    editor = page.editor()
    help_text = page.help.toPlainText()
    assert "entity" not in help_text and "B-" not in help_text
    assert "give each selected word the tag" in help_text and "clear the tag of the selected words" in help_text
    assert editor.legend_title.text().startswith("Tags")
    tips = [b.toolTip() for b in editor.legend.findChildren(QPushButton)]
    assert tips and all("tag the selected words" in t and "entity" not in t for t in tips)
    assert "every word" in editor.note.text() and " O" not in editor.note.text()
    assert editor.entity_line.text().split("  ·  ")[0] == f"{short['tokens'][0]}/?"

    # Word by word with the legend's keys (the cursor moves on after each); stored with the last word.
    for i, tag in enumerate(truth):
        assert session.gold("train", 0) is None
        assert editor.cursor_word == i
        _press_tag(qtbot, editor, tag)
    assert session.gold("train", 0) == truth
    # stored, so the editor moves on; with no other row it stays and says every example is labelled
    assert "not tagged yet" not in editor.note.text() and "is labelled" in editor.note.text()

    # Undo steps back one word: the sentence is a draft again, with the other tags kept.
    session.undo_stack.undo()
    assert session.gold("train", 0) is None
    assert editor.tags == truth[:-1] + [None]
    session.undo_stack.redo()
    assert session.gold("train", 0) == truth
    # Backspace clears the selected word's tag: the stored sentence becomes a draft again.
    editor.select_words(0, 1)
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert session.gold("train", 0) is None and editor.tags == [None] + truth[1:]
    _press_tag(qtbot, editor, truth[0])
    assert session.gold("train", 0) == truth


def test_bio_help_and_legend_still_speak_of_entities(qtbot, session_factory):
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    session = session_factory("tagging", labels, {"train": [{"tokens": ["Ada", "met", "Bob"], "tags": None}]})
    page = _page(qtbot, session)
    editor = page.editor()
    help_text = page.help.toPlainText()
    assert "entity" in help_text and "B- on the first, I- on the rest" in help_text
    assert editor.legend_title.text().startswith("Entity types")
    assert all("entity" in b.toolTip() for b in editor.legend.findChildren(QPushButton))
    assert "O" in editor.note.text()
    qtbot.keyClick(editor, Qt.Key.Key_1)  # an unlabelled BIO sentence starts as O: one entity is stored at once
    assert session.gold("train", 0) == ["B-PER", "O", "O"]


def test_a_tag_that_cannot_be_saved_changes_nothing_and_says_so(qtbot, session_factory, monkeypatch):
    """The sentence's last tag stores it; on a read-only folder that write failed silently and
    the edit still reached the undo stack."""
    from disk_faults import deny_appends

    session = session_factory("tagging", ["NOUN", "VERB"], {"train": [{"tokens": ["dogs", "bark"], "tags": None}]})
    editor = _page(qtbot, session).editor()
    editor.setFocus()
    said: list[str] = []
    session.failed.connect(said.append)
    _press_tag(qtbot, editor, "NOUN")  # a draft: nothing written yet
    assert editor.tags == ["NOUN", None] and session.undo_stack.count() == 1
    deny_appends(monkeypatch)
    _press_tag(qtbot, editor, "VERB")  # completes the sentence: the write fails
    assert len(said) == 1 and "Read-only" in said[0]
    assert session.gold("train", 0) is None and editor.tags == ["NOUN", None] and session.undo_stack.count() == 1
    monkeypatch.undo()
    assert editor.cursor_word == 1  # still on the word whose tag was not saved
    _press_tag(qtbot, editor, "VERB")
    assert session.gold("train", 0) == ["NOUN", "VERB"] and session.undo_stack.count() == 2


def test_a_partly_tagged_sentence_is_kept_when_the_project_closes(qtbot, session_factory):
    """Tags on some words of a plain-tag sentence lived only in the editor: closing the project
    dropped them without a word. They are kept in the project and come back when it reopens;
    what a project.json from elsewhere says there is checked against each row."""
    from bertstudio.data.project import Project

    session = session_factory("tagging", ["NOUN", "VERB", "DET"],
                              {"train": [{"tokens": ["the", "big", "dog", "runs"], "tags": None},
                                         {"tokens": ["dogs", "bark"], "tags": None}]})
    editor = _page(qtbot, session).editor()
    editor.setFocus()
    _press_tag(qtbot, editor, "DET")
    _press_tag(qtbot, editor, "NOUN")
    assert editor.tags == ["DET", "NOUN", None, None] and session.gold("train", 0) is None
    folder = session.project.folder
    session.close()
    with Project.open(folder) as project:
        assert project.ui_state["tag_drafts"] == {"train:0": ["DET", "NOUN", None, None]}
        project.ui_state["tag_drafts"].update({  # what a hand-edited or hostile file may say: all left out
            "train:1": ["NOUN"], "train:9": ["NOUN", "VERB"], "dev:0": ["NOUN", "VERB"], "nonsense": [],
            "train:-1": ["NOUN", "VERB"]})
        project.save_ui_state()
    session.open_folder(str(folder))
    editor.go_to(0)
    assert editor.tags == ["DET", "NOUN", None, None]  # where the user left it
    assert editor.drafts == {("train", 0): ["DET", "NOUN", None, None]}
    editor.go_to(1)
    assert editor.tags == [None, None]


def test_the_tag_a_word_already_has_moves_on_without_an_empty_undo_step(qtbot, session_factory):
    """Pressing the key of a word's own tag added an undo step; the next Ctrl+Z then seemed to do nothing."""
    session = session_factory("tagging", ["NOUN", "VERB", "DET"],
                              {"train": [{"tokens": ["the", "big", "dog"], "tags": None}]})
    editor = _page(qtbot, session).editor()
    editor.setFocus()
    _press_tag(qtbot, editor, "DET")
    assert session.undo_stack.count() == 1 and editor.cursor_word == 1
    editor.cursor_word = editor.anchor_word = 0
    _press_tag(qtbot, editor, "DET")  # the tag it has
    assert session.undo_stack.count() == 1 and editor.cursor_word == 1 and editor.tags == ["DET", None, None]
    session.undo_stack.undo()
    assert editor.tags == [None, None, None]


def test_save_writes_the_partly_tagged_sentences_too(qtbot, session_factory):
    """Kept at close, and by every save of the project's ui_state (Save): a crash after Save keeps them."""
    import json

    session = session_factory("tagging", ["NOUN", "VERB"], {"train": [{"tokens": ["dogs", "bark"], "tags": None}]})
    editor = _page(qtbot, session).editor()
    editor.setFocus()
    _press_tag(qtbot, editor, "NOUN")
    session.project.save_ui_state()  # what Save and a run's start do
    saved = json.loads((session.project.folder / "project.json").read_text())["ui_state"]
    assert saved["tag_drafts"] == {"train:0": ["NOUN", None]}
    _press_tag(qtbot, editor, "VERB")  # complete: stored as gold, no draft left
    session.project.save_ui_state()
    assert json.loads((session.project.folder / "project.json").read_text())["ui_state"]["tag_drafts"] == {}


def test_a_partly_tagged_sentence_reaches_the_disk_a_moment_after_the_key(qtbot, session_factory):
    """Drafts were written at close and on Save only: a crash lost every partly tagged sentence
    since. They are written a second after the last change now (one small write, not one per key)."""
    import json

    from bertstudio.ui.editors import tagging

    session = session_factory("tagging", ["NOUN", "VERB"], {"train": [{"tokens": ["big", "dogs", "bark"], "tags": None}]})
    editor = _page(qtbot, session).editor()
    editor.setFocus()
    on_disk = lambda: json.loads((session.project.folder / "project.json").read_text())["ui_state"].get("tag_drafts")  # noqa: E731
    writes = []
    session.project.subscribe(lambda event: writes.append(event) if event.get("kind") == "ui_state_saved" else None)
    _press_tag(qtbot, editor, "NOUN")
    _press_tag(qtbot, editor, "NOUN")
    assert on_disk() is None  # not per key
    qtbot.waitUntil(lambda: on_disk() == {"train:0": ["NOUN", "NOUN", None]}, timeout=5 * tagging.DRAFT_SAVE_MS)
    assert len(writes) == 1  # the two keys, one write
    editor.go_to(0)
    qtbot.wait(tagging.DRAFT_SAVE_MS + 200)
    assert len(writes) == 1  # showing a row again changes nothing: no write


def test_a_long_sentences_summary_lists_the_words_around_the_cursor():
    """The word/TAG line under a 340-word sentence listed every word and filled the Label page."""
    from bertstudio.ui.editors.tagging import SHOWN_PARTS, compact

    parts = [f"w{i}/NOUN" for i in range(340)]
    assert compact(parts[:5]) == "  ·  ".join(parts[:5])
    start = compact(parts, 0)
    assert start.startswith("w0/NOUN") and start.endswith(f"… (+{340 - SHOWN_PARTS})")
    middle = compact(parts, 100)
    assert middle.startswith("…") and "w100/NOUN" in middle and middle.count("/NOUN") == SHOWN_PARTS
    assert compact(parts, 339).endswith("w339/NOUN")
