"""The labelling assistant's suggestions for pairs, regression and tagging, and what QA is told:
each kind through its real editor, on the tiny random BERT (suggestions start after a few labels:
only sentence classification has zero-shot)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from assist_helpers import WAIT_MS, assisted  # noqa: F401 - the fixture

WORDS = ["the", "dog", "cat", "man", "woman", "city", "book"]
VERBS = ["was", "is", "are", "like", "love", "hate"]


def pairs(n: int) -> list[dict]:
    return [{"text": f"the {WORDS[i % 7]} was good", "text_pair": f"the {WORDS[(i * 3) % 7]} was bad", "label": None}
            for i in range(n)]


def tagged(n: int) -> list[dict]:
    return [{"tokens": ["the", WORDS[1 + i % 6], VERBS[i % 6]], "tags": None} for i in range(n)]


def test_pair_suggestions_start_after_one_label_per_class_and_enter_accepts(qtbot, assisted):
    a = assisted(pairs(30), kind="pair", labels=["entailment", "contradiction"], strong_every=0)
    editor, project = a.editor, a.project
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    assert editor.suggestion() is None and "two labels" in a.page.assist_bar.note.text()  # the core's words
    qtbot.keyClick(editor, Qt.Key.Key_1)
    qtbot.keyClick(editor, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: editor.suggestion() is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: editor.suggestion_label.text().startswith("Suggested"), timeout=WAIT_MS)
    row, value = editor.row, editor.suggestion().value
    assert value in ("entailment", "contradiction") and editor.legend.suggested() == value
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert project.gold("train", row) == value and editor.row != row


def test_regression_suggests_a_score_and_enter_accepts_it(qtbot, assisted):
    from bertstudio.ui.assist_controller import shown_score

    a = assisted(pairs(30), kind="regression", labels=[], strong_every=0)
    editor, project = a.editor, a.project
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    qtbot.keyClick(editor, Qt.Key.Key_1)
    qtbot.keyClick(editor, Qt.Key.Key_4)
    qtbot.waitUntil(lambda: editor.suggestion() is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: editor.suggestion_label.text().startswith("Suggested"), timeout=WAIT_MS)
    row, score = editor.row, editor.suggestion().value
    shown, text = shown_score(score)
    assert isinstance(score, float) and f"Suggested: {text} " in editor.suggestion_label.text()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # stored as the grey line shows it, never moved onto a scale (8.0 was stored as 5.0)
    assert project.gold("train", row) == shown and editor.row != row


def test_tagging_suggests_tags_per_word_and_enter_stores_them(qtbot, assisted):
    a = assisted(tagged(20), kind="tagging", labels=["DET", "NOUN", "VERB"], strong_every=0)
    editor, project = a.editor, a.project
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    assert "tagging" in a.page.assist_bar.note.text()  # no suggestions until a sentence holds two tags
    for row in (0, 1):  # two sentences tagged word by word with the keys
        editor.go_to(row)
        for key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3):
            qtbot.keyClick(editor, key)
    assert project.gold("train", 0) == ["DET", "NOUN", "VERB"]
    editor.go_to(5)
    qtbot.waitUntil(lambda: editor.suggestion_label.isVisible(), timeout=WAIT_MS)
    suggestion = editor.suggestion()
    assert len(suggestion.value) == 3 and all(t in ("DET", "NOUN", "VERB") for t in suggestion.value)
    assert "/".join(["the", suggestion.value[0]]) in editor.suggestion_label.text()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert project.gold("train", 5) == suggestion.value and editor.row != 5
    assert project.gold("train", editor.row) is None  # the next sentence to tag


def test_shift_enter_stores_an_entity_sentence_as_marked_not_the_suggestion(qtbot, assisted):
    """With a suggestion shown, Enter takes it; a sentence the user sees has no entity is stored
    as marked (all O) with Shift+Enter."""
    rows = [{"tokens": ["the", WORDS[1 + i % 6], VERBS[i % 6]], "tags": None} for i in range(20)]
    a = assisted(rows, kind="tagging", labels=["O", "B-ANIMAL", "I-ANIMAL"], strong_every=0)
    editor, project = a.editor, a.project
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    for row in (0, 1):
        editor.go_to(row)
        qtbot.keyClick(editor, Qt.Key.Key_Right)
        qtbot.keyClick(editor, Qt.Key.Key_1)
    editor.go_to(5)
    qtbot.waitUntil(lambda: editor.suggestion_label.isVisible(), timeout=WAIT_MS)
    assert "Shift+Enter" in editor.suggestion_label.text()
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert project.gold("train", 5) == ["O", "O", "O"] and editor.row != 5


def test_enter_on_a_bio_suggestion_stores_valid_bio_the_line_shows(qtbot, assisted):
    """The sweep's D2: a per-word argmax suggested "an/O investment/I-ENT firm/O"; the line showed
    "[ENT] investment" and Enter stored the stray I-ENT, which the export read back as B-ENT."""
    import numpy as np

    from bertstudio.assist.fast import Scores
    from bertstudio.data.formats.common import first_bio_error
    from bertstudio.ui.editors.tag_edits import entity_phrases

    labels = ["O", "B-ENT", "I-ENT"]
    rows = [{"tokens": ["an", "investment", "firm"], "tags": None} for _ in range(4)]
    a = assisted(rows, kind="tagging", labels=labels, strong_every=0)
    editor, project, assistant = a.editor, a.project, a.assist.assistant
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    assert assistant.wait_idle(WAIT_MS / 1000)  # no label, no refit: nothing replaces the scores set below
    p = np.array([[0.8, 0.1, 0.1], [0.2, 0.35, 0.45], [0.8, 0.1, 0.1]], dtype=np.float32)  # argmax O I-ENT O
    assistant._fast = Scores("fast", None, np.zeros(len(rows), np.float32), (), word_probs=[p] * len(rows))
    a.assist.scores_changed.emit()
    editor.go_to(2)
    qtbot.waitUntil(lambda: editor.suggestion_label.isVisible(), timeout=WAIT_MS)
    shown = editor.suggestion().value
    assert first_bio_error(shown) is None
    assert entity_phrases(rows[2]["tokens"], shown)[0] in editor.suggestion_label.text()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert project.gold("train", 2) == shown and editor.row != 2


def test_qa_is_told_plainly_it_gets_no_suggestions_no_audit_and_no_uncertain_order(qtbot, assisted):
    """The sweep's D4: QA was promised suggestions "until a first model is trained" that never came,
    offered "most uncertain first" (always random without a model), counted audit labels that are
    never scored, and its disabled "Review suspected errors…" said nothing."""
    from bertstudio.ui.assist_status import AssistStatus

    rows = [{"id": f"q{i}", "title": "t", "context": "The cat sat on the mat.", "question": "Where?", "answers": None}
            for i in range(5)]
    a = assisted(rows, kind="qa", labels=[])
    bar = a.page.assist_bar
    status = AssistStatus(a.assist)
    qtbot.addWidget(status)
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "no suggestions" in bar.note.text(), timeout=WAIT_MS)
    assert "until" not in bar.note.text()
    assert a.assist.suggestion("train", 0) is None and not a.assist.can_train()
    assert not bar.train_button.isEnabled()
    uncertain = bar.order_combo.model().item(bar.order_combo.findData("uncertain"))
    assert not uncertain.isEnabled() and bar.strategy() != "uncertain"
    assert "audit" not in bar.counts_label.text() and "audit" not in bar.order_combo.toolTip()
    qtbot.waitUntil(lambda: a.page.chart.title.text().startswith("No audit: "), timeout=WAIT_MS)
    status.update_status()
    assert status.label.text() == "Assistant: no suggestions"
    review = a.page.review_button
    assert not review.isEnabled() and "label set" in review.toolTip()


def test_a_kind_with_a_model_keeps_the_uncertain_order_and_the_audit(qtbot, assisted):
    a = assisted([{"tokens": ["the", "dog"], "tags": None}] * 3, kind="tagging", labels=["O", "B-ANIMAL"],
                 strong_every=0)
    bar = a.page.assist_bar
    qtbot.waitUntil(lambda: a.assist.status().get("ready"), timeout=WAIT_MS)
    assert bar.order_combo.model().item(bar.order_combo.findData("uncertain")).isEnabled()
    assert "audit" in bar.counts_label.text() and "audit" in bar.order_combo.toolTip()
    assert a.page.review_button.isEnabled() and a.page.review_button.toolTip() == ""
