"""A probability short of 1 never reads "100%" where a person labels or reviews: a suggestion at
0.9996 read as certain. Each place that shows one goes through the one display rule
(bertstudio.metrics.display); these check each page with a value just below 1."""

from __future__ import annotations

from bertstudio.assist.assistant import Suggestion
from bertstudio.ui.assist_controller import suggestion_text
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.example_html import values_html

SURE = 0.9996  # "100%" by a plain :.0%


def test_a_suggestion_just_below_certain_does_not_read_100():
    # the Label page's classify editor and the Data table's Suggested column both show this line
    assert suggestion_text(Suggestion("pos", SURE, "fast")) == "pos 99.96%"
    assert suggestion_text(Suggestion("pos", 1.0, "fast")) == "pos 100%"
    assert suggestion_text(Suggestion("pos", 0.81, "fast")) == "pos 81%"


def test_the_tagging_editor_does_not_show_a_suggestion_just_below_certain_as_100(qtbot, session_factory):
    session = session_factory("tagging", ["O", "B-PER", "I-PER"],
                              {"train": [{"tokens": ["Ada", "wrote"], "tags": None}]})
    page = LabelPage(session)
    qtbot.addWidget(page)
    page.show()
    editor = page.editor()
    editor.suggestion = lambda: Suggestion(["B-PER", "O"], SURE, "fast")
    editor.show_suggestion()
    text = editor.suggestion_label.text()
    assert "99.96% sure" in text and "100%" not in text


def test_the_results_examples_class_probabilities_do_not_read_100_just_below_1():
    shown = values_html("sentence", {"text": "fine"}, "pos", "pos", {"probs": {"pos": 0.9996, "neg": 0.0004}})
    assert "pos\u2069: 99.96%" in shown and "neg\u2069: 0.04%" in shown and "100.0%" not in shown


def test_a_suggested_score_is_shown_and_stored_to_three_significant_digits():
    """Tenths on every scale: a 0-1 project's suggestion 0.234 read and was stored as 0.2 (review of
    the score editor's scale)."""
    from bertstudio.ui.assist_controller import shown_score

    assert shown_score(0.23449) == (0.234, "0.234")
    assert shown_score(8.0123) == (8.01, "8.01")
    assert shown_score(57.31) == (57.3, "57.3")
    assert shown_score(1234.5) == (1230.0, "1230")
    assert shown_score(-0.0004) == (-0.0004, "-0.0004") and shown_score(8.0) == (8.0, "8.0")
    assert shown_score(0.0) == (0.0, "0")
