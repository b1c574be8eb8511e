"""The review queue on a real project with two planted slips (tiny model): the finder runs on a
worker, nothing changes by itself, K keeps (remembered in the project folder), R relabels
through the undo stack and Ctrl+Z undoes it; the Label page's button opens it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from PySide6.QtCore import Qt

from bertstudio.metrics.display import format_percent
from bertstudio.ui.review_queue import ReviewQueue
from helpers import sentiment

SLIPS = (5, 22)


def _rows() -> list[dict[str, Any]]:
    rows = [{"text": e["text"] + f" number {i}", "label": e["label"]} for i, e in enumerate(sentiment(40).dataset.to_list())]
    for r in SLIPS:
        rows[r]["label"] = "neg" if rows[r]["label"] == "pos" else "pos"
    return rows


def _run(qtbot, session, tiny) -> ReviewQueue:
    queue = ReviewQueue(session, "train", model=tiny)
    qtbot.addWidget(queue)
    queue.show()
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
    return queue


def _golds(session) -> list[Any]:
    return [session.gold("train", r) for r in range(40)]


def test_flags_are_shown_with_the_accuracy_and_nothing_changes_by_itself(qtbot, session_factory, tiny):
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    before = _golds(session)
    queue = _run(qtbot, session, tiny)
    report = queue.report
    assert report is not None and queue.flags.count() == len(report.flags) >= 2
    assert f"{format_percent(report.accuracy)}%" in queue.summary.text()
    assert {queue.flags.item(i).data(Qt.ItemDataRole.UserRole).row for i in range(2)} == set(SLIPS)
    flag = queue.current_flag()
    detail = queue.detail.toPlainText()
    assert flag.text in detail and flag.suggested in detail and f"{format_percent(flag.suggested_prob)}%" in detail
    for n in flag.neighbours:
        assert n.text in detail
    assert _golds(session) == before and session.undo_stack.count() == 0
    # Enter on a flag goes to its row, as a double-click does (Enter did nothing: itemDoubleClicked only)
    queue.flags.setFocus()
    qtbot.keyClick(queue.flags, Qt.Key.Key_Down)
    flag = queue.current_flag()
    assert session.current_row != flag.row
    qtbot.keyClick(queue.flags, Qt.Key.Key_Return)
    assert (session.current_split, session.current_row) == ("train", flag.row)
    assert _golds(session) == before


def test_k_keeps_and_is_remembered_r_relabels_and_ctrl_z_undoes(qtbot, session_factory, tiny):
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = ReviewQueue(session, "train", model=tiny)  # not qtbot's: this test deletes it
    queue.show()
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
    first = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert queue.state(first) == "kept"
    assert session.gold("train", first.row) == first.given
    kept_file = session.project.folder / "label-review-train.json"
    assert len(json.loads(kept_file.read_text())["kept"]) == 1

    second = queue.current_flag()
    assert second.row != first.row
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    assert session.gold("train", second.row) == second.suggested
    assert session.undo_stack.count() == 2 and queue.state(second) == "relabelled"
    qtbot.keyClick(queue.flags, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.gold("train", second.row) == second.given
    assert queue.state(second) == "open"
    # K is undoable too: Ctrl+Z opens the kept flag again (forgotten on disk) and goes to it
    qtbot.keyClick(queue.flags, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert queue.state(first) == "open" and queue.current_flag().row == first.row
    assert json.loads(kept_file.read_text())["kept"] == []
    assert not queue.flags.currentItem().text().startswith("✓")
    session.undo_stack.redo()
    assert queue.state(first) == "kept" and len(json.loads(kept_file.read_text())["kept"]) == 1
    assert queue.flags.currentItem().text().startswith("✓")

    # a second look at the same split does not ask about the kept row again
    again = _run(qtbot, session, tiny)
    rows = [again.flags.item(i).data(Qt.ItemDataRole.UserRole).row for i in range(again.flags.count())]
    assert first.row not in rows and second.row in rows and again.hidden_kept == 1
    assert "1" in again.summary.text()
    # the first window gone, its K is still on the stack: undo forgets it on disk, without the window
    import shiboken6

    queue.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(queue))
    session.undo_stack.undo()
    assert json.loads(kept_file.read_text())["kept"] == []


def test_cancel_leaves_no_report_and_changes_nothing(qtbot, session_factory, tiny):
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    before = _golds(session)
    queue = ReviewQueue(session, "train", model=tiny)
    qtbot.addWidget(queue)
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
        queue.cancel()
    assert queue.report is None and queue.flags.count() == 0
    assert _golds(session) == before


def test_the_label_page_button_opens_the_queue(qtbot, session_factory, tiny, monkeypatch):
    from bertstudio.ui.editors.page import LabelPage
    from bertstudio.ui import review_queue

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    page = LabelPage(session)
    qtbot.addWidget(page)
    opened: list[ReviewQueue] = []
    real = review_queue.ReviewQueue

    class WithTiny(real):  # the real widget, pointed at the tiny model instead of the bundled one
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, model=tiny, **kw)
            opened.append(self)

    monkeypatch.setattr(review_queue, "ReviewQueue", WithTiny)
    qtbot.mouseClick(page.review_button, Qt.MouseButton.LeftButton)
    assert len(opened) == 1
    qtbot.waitUntil(lambda: opened[0].report is not None, timeout=120_000)
    assert opened[0].split == "train" and opened[0].isVisible()
    opened[0].close()


def test_tagging_relabels_only_the_flagged_word_and_undo_restores_the_sentence(qtbot, session_factory, tiny):
    import random

    rng = random.Random(0)
    rows = []
    for i in range(60):
        a, b = rng.sample(["good", "bad", "great", "terrible", "boring", "fun"], 2)
        tags = ["O", "O", "O", "ADJ", "O", "ADJ"]
        if i in (7, 20, 33):
            tags[3] = "O"  # three slips: the adjective tagged O
        rows.append({"tokens": ["the", "movie", "was", a, "and", b], "tags": tags})
    session = session_factory("tagging", ["O", "ADJ"], {"train": rows})
    queue = _run(qtbot, session, tiny)
    flag = queue.current_flag()
    assert flag is not None and flag.row in (7, 20, 33) and flag.word == 3
    assert (flag.given, flag.suggested) == ("O", "ADJ")
    assert "Word 4" in queue.detail.toPlainText()
    before = session.gold("train", flag.row)
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    after = session.gold("train", flag.row)
    assert after == before[:3] + ["ADJ"] + before[4:]
    qtbot.keyClick(queue.flags, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.gold("train", flag.row) == before


def test_the_thorough_check_fine_tunes_each_fold_and_cancelling_it_keeps_the_quick_flags(
        qtbot, session_factory, tiny, monkeypatch):
    import bertstudio.assist.strong as strong

    monkeypatch.setattr(strong, "MIN_STEPS", 6)  # the tiny model: a few steps per fold
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    before = _golds(session)
    queue = _run(qtbot, session, tiny)
    assert queue.report.source == "fast" and "thorough" in queue.summary.text()

    queue.method_combo.setCurrentIndex(queue.method_combo.findData("finetune"))
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        qtbot.mouseClick(queue.run_button, Qt.MouseButton.LeftButton)
        assert not queue.run_button.isEnabled() and not queue.method_combo.isEnabled()
        assert "minutes" in queue.summary.text()
    assert queue.report.source == "finetune" and queue.report.folds == 5 and queue.report.checked == 40
    assert "fine-tuned" in queue.summary.text() and queue.run_button.isEnabled()
    assert queue.flags.count() == len(queue.report.flags)

    # a cancelled thorough check leaves the flags of the last finished one, and says so
    shown = queue.report
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
        queue.cancel()
    assert queue.report is shown and "last check" in queue.summary.text()
    assert _golds(session) == before and session.undo_stack.count() == 0


def _run_folder(session, name: str, split: str, rows: list[int], truth: list[str]) -> None:
    """A run folder as the engine writes it: one prediction per evaluated row, with its split,
    project row and probabilities (the model is right with probability 0.9)."""
    folder = session.project.runs_dir / name
    folder.mkdir(parents=True)
    lines = [json.dumps({"index": i, "split": split, "row": r, "gold": truth[r], "label": truth[r],
                         "probs": {"neg": 0.9 if truth[r] == "neg" else 0.1, "pos": 0.9 if truth[r] == "pos" else 0.1}})
             for i, r in enumerate(rows)]
    (folder / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_runs_predictions_judge_only_the_rows_it_evaluated(qtbot, session_factory, tiny):
    rows = _rows()
    truth = [e["label"] for e in sentiment(40).dataset.to_list()]
    session = session_factory("sentence", ["neg", "pos"], {"train": rows})
    _run_folder(session, "run-dev", "dev", list(range(10)), truth)
    _run_folder(session, "run-heldout", "train", list(range(20, 40)), truth)  # held out rows 20-39
    queue = ReviewQueue(session, "train", model=tiny)
    qtbot.addWidget(queue)
    offered = [queue.method_combo.itemText(i) for i in range(queue.method_combo.count())]
    assert any("run-heldout" in t for t in offered) and any("run-dev" in t for t in offered)

    queue.method_combo.setCurrentIndex(next(i for i, t in enumerate(offered) if "run-heldout" in t))
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
    report = queue.report
    assert report.source == "run" and report.rows.tolist() == list(range(20, 40))
    assert [f.row for f in report.flags] == [22]  # slip 5 was not evaluated by the run: not judged
    assert "run's predictions" in queue.summary.text()

    # a run that evaluated another split cannot judge this one: one clear line, the flags stay
    queue.method_combo.setCurrentIndex(next(i for i, t in enumerate(offered) if "run-dev" in t))
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        queue.start()
    assert queue.report is report and "no probabilities for this split" in queue.summary.text()
    assert "last check" in queue.summary.text() and queue.flags.count() == 1


def test_a_model_no_better_than_the_commonest_label_lists_no_flags_and_says_why(qtbot, session_factory, tiny):
    """The quick check agreed with 49% of 39 correct two-label rows and listed 14 suspects at 50-64%."""
    from dataclasses import replace

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    found = queue.report
    noise = replace(found, flags=(), accuracy=0.49, chance=0.51, p_value=0.44, withheld=14)
    queue._on_finished(noise)
    text = queue.summary.text()
    assert queue.flags.count() == 0 and "no better than the label frequencies alone (p = 0.44)" in text
    assert "none is listed" in text and "suspected errors" not in text
    # an accuracy at the commonest label's rate is no reason to refuse when the probabilities are better
    # than the label frequencies (CoLA-like, imbalanced): the flags are listed and the evidence said
    sound = replace(found, accuracy=0.51, chance=0.51, p_value=0.003, withheld=0)
    queue._on_finished(sound)
    text = queue.summary.text()
    assert queue.flags.count() == len(sound.flags) > 0 and "better than the label frequencies alone (p = 0.003)" in text
    # tagging: the agreement is per word and the rows are sentences (it read "84% of the given labels (200 rows")
    queue._on_finished(replace(found, accuracy=0.84, chance=0.15, p_value=0.0, per_word=True))
    text = queue.summary.text()
    assert "84% of the given tags, word by word (40 sentences checked" in text and "rows checked" not in text


def test_an_accuracy_or_probability_just_below_1_does_not_read_100(qtbot, session_factory, tiny):
    from dataclasses import replace

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    sure = replace(queue.report.flags[0], suggested_prob=0.9996)
    queue._on_finished(replace(queue.report, flags=(sure,), accuracy=0.9996, chance=0.5))
    assert "agrees with 99.96% of the given labels" in queue.summary.text()
    assert "(99.96%)" in queue.flags.item(0).text() and "100%" not in queue.flags.item(0).text()
    assert "probability 99.96%" in queue.detail.toPlainText()


def test_a_flag_relabelled_elsewhere_after_the_check_is_closed_not_overwritten(qtbot, session_factory, tiny):
    """A drive relabelled a flagged row on the Label page with the queue open: the flag still read
    "Given: neutral" and R replaced the person's newer label with the check's suggestion."""
    session = session_factory("sentence", ["neg", "pos", "meh"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    flag = queue.current_flag()
    session.apply_gold("train", flag.row, "meh", "the person's own label")
    assert queue.state(flag) == "changed"
    assert "now meh" in queue.flags.currentItem().text() and "now meh" in queue.detail.toPlainText()
    assert not queue.relabel_button.isEnabled() and not queue.keep_button.isEnabled()
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert session.gold("train", flag.row) == "meh" and not queue.store.is_kept(flag)
    session.apply_gold("train", flag.row, None, "cleared")
    assert queue.state(flag) == "changed" and "now unlabelled" in queue.flags.currentItem().text()
    session.undo_stack.undo()
    session.undo_stack.undo()  # back to the given label: the flag is open again
    assert queue.state(flag) == "open" and queue.relabel_button.isEnabled()


def test_flags_close_when_the_rows_are_replaced_and_open_again_when_the_replace_is_undone(qtbot, session_factory, tiny):
    """A sweep replaced the split through Import with the queue open: the flag still showed the old
    text, and R relabelled whatever example had the same row number now (whenever its gold
    happened to equal the flag's given label)."""
    from bertstudio.data.examples import from_records

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    flag = queue.current_flag()
    new = [{"text": f"an unrelated new row {i}", "label": flag.given} for i in range(40)]
    session.import_examples(from_records("sentence", new, labels=["neg", "pos"]), "train", replace=True)
    assert queue.rows_replaced() and queue.state(flag) == "replaced"
    assert "replaced" in queue.flags.currentItem().text() and "replaced" in queue.summary.text()
    assert "Check again" in queue.detail.toPlainText()
    assert not queue.relabel_button.isEnabled() and not queue.keep_button.isEnabled()
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert [session.gold("train", r) for r in range(40)] == [flag.given] * 40 and not queue.store.is_kept(flag)
    session.undo_stack.undo()  # the old rows again: the flags name them again
    assert not queue.rows_replaced() and queue.state(flag) == "open" and queue.relabel_button.isEnabled()
    assert session.row("train", flag.row)["text"] == flag.text
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    assert session.gold("train", flag.row) == flag.suggested


def test_a_keep_that_cannot_be_saved_is_said_and_leaves_the_flag_open(qtbot, session_factory, tiny):
    """A sweep of the app's readers: with label-review-train.json a folder, K raised
    IsADirectoryError from the slot, the flag was painted "kept" and nothing was saved. A store
    file of garbage was read as none, said only in the log."""
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    store = session.project.folder / "label-review-train.json"
    store.write_text("{garbage", encoding="utf-8")
    queue = _run(qtbot, session, tiny)
    assert "Earlier Keep choices could not be read" in queue.summary.text() and str(store) in queue.summary.text()
    first = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)  # the garbage is kept aside, not written over
    assert queue.state(first) == "kept" and store.with_name(store.name + ".damaged").read_text() == "{garbage"
    store.unlink()
    store.mkdir()
    failures: list[str] = []
    session.failed.connect(failures.append)
    flag = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert queue.state(flag) == "open" and not queue.store.is_kept(flag)
    assert failures and "Could not remember the kept label" in failures[0] and str(store) in failures[0]


def test_two_stores_of_one_split_never_write_back_what_the_other_undid(tmp_path):
    """Each Review window has its own store, and a K's undo keeps a closed window's alive: K on A
    in one, K on B in another, both undone, then K on C brought A back as kept (the stale set
    was written). And a K then its undo on a damaged file wrote the good file over the copy
    kept aside for mending by hand."""
    from types import SimpleNamespace

    from bertstudio.ui.review_store import ReviewStore

    def flag(text: str):  # what a kept flag is identified by: its text, given label and word
        return SimpleNamespace(text=text, given="pos", word=None)

    first, second = ReviewStore(tmp_path, "train"), ReviewStore(tmp_path, "train")
    first.keep(flag("a"))
    second.keep(flag("b"))
    second.keep(flag("b"), False)
    first.keep(flag("a"), False)
    second.keep(flag("c"))
    now = ReviewStore(tmp_path, "train")
    assert now.is_kept(flag("c")) and not now.is_kept(flag("a")) and not now.is_kept(flag("b"))

    damaged = tmp_path / "label-review-dev.json"
    damaged.write_text("{my notes", encoding="utf-8")
    store = ReviewStore(tmp_path, "dev")
    assert store.problem
    store.keep(flag("a"))
    store.keep(flag("a"), False)  # the undo: the file is good now, the copy aside stays as it was
    assert damaged.with_name(damaged.name + ".damaged").read_text(encoding="utf-8") == "{my notes"
    assert store.problem is None and ReviewStore(tmp_path, "dev").kept == set()


def _items(queue) -> list[tuple[Any, str]]:
    return [(queue.flags.item(i).data(Qt.ItemDataRole.UserRole), queue.flags.item(i).text())
            for i in range(queue.flags.count())]


def test_a_label_renamed_with_the_queue_open_is_followed_not_read_as_a_changed_row(
        qtbot, session_factory, tiny, monkeypatch):
    """A sweep renamed positive -> pos with the queue open: every flag given positive read "Changed
    since the check: now pos ... this flag is closed" while its list item still read "positive →
    negative", open flags suggested the old name and R failed ("'positive' is not a label of this
    project"), and the kept flags, keyed by the old name, came back at the next check."""
    import shiboken6

    from bertstudio.ui import review_queue
    from bertstudio.ui.editors.page import LabelPage

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    page = LabelPage(session)  # the real page: its button opens the queue, and it follows renames for the keeps
    qtbot.addWidget(page)
    opened: list[ReviewQueue] = []

    class WithTiny(review_queue.ReviewQueue):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, model=tiny, **kw)
            opened.append(self)

    monkeypatch.setattr(review_queue, "ReviewQueue", WithTiny)
    qtbot.mouseClick(page.review_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: opened and opened[-1].report is not None, timeout=120_000)
    queue = opened[-1]
    flags = [f for f, _ in _items(queue)]
    assert {f.given for f in flags} == {"neg", "pos"}  # both directions are flagged
    kept = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert queue.state(kept) == "kept"

    session.rename_label("pos", "positive")
    for flag, text in _items(queue):
        name = {"neg": "neg", "pos": "positive"}
        assert queue.state(flag) == ("kept" if flag is kept else "open")
        # the list item is repainted with the new name, as the detail shows it
        assert f"{name[flag.given]} → {name[flag.suggested]}" in text and "pos " not in text + " "
    to_positive = next(i for i, (f, _) in enumerate(_items(queue)) if f.suggested == "pos")
    from_positive = next(i for i, (f, _) in enumerate(_items(queue)) if f.given == "pos" and f is not kept)
    queue.flags.setCurrentRow(from_positive)
    detail = queue.detail.toPlainText()
    assert "Given: positive" in detail and "Changed since" not in detail and queue.relabel_button.isEnabled()
    queue.flags.setCurrentRow(to_positive)
    assert queue.relabel_button.text() == "Relabel as positive (R)"
    flag = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    assert session.gold("train", flag.row) == "positive" and queue.state(flag) == "relabelled"
    assert queue.flags.item(to_positive).text().startswith("→ ")
    session.undo_stack.undo()  # the relabel
    assert queue.state(flag) == "open"

    # the keep follows the rename: the next check (and one after a rename with no queue open) hides it
    queue.close()
    qtbot.mouseClick(page.review_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: opened[-1] is not queue and opened[-1].report is not None, timeout=120_000)
    assert opened[-1].hidden_kept == 1 and kept.row not in [f.row for f, _ in _items(opened[-1])]
    opened[-1].close()  # and gone (WA_DeleteOnClose): no queue is there to follow the next renames
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(q) for q in opened), timeout=5_000)
    session.rename_label("neg", "negative")
    session.rename_label("positive", "yes")
    qtbot.mouseClick(page.review_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(opened) == 3 and opened[-1].report is not None, timeout=120_000)
    queue = opened[-1]
    assert queue.hidden_kept == 1 and kept.row not in [f.row for f, _ in _items(queue)]

    # a label merged into the other and removed: the flags it suggests close and say why
    merged = [r for r in range(40) if session.gold("train", r) == "yes"]
    for r in merged:
        session.apply_gold("train", r, "negative", "merge")
    session.remove_label("yes")
    for flag, text in _items(queue):
        if flag.suggested == "yes":
            assert queue.state(flag) == "labels" and "label set changed" in text
        else:  # given yes, now negative: the suggestion
            assert queue.state(flag) == "relabelled"
    queue.flags.setCurrentRow(next(i for i, (f, _) in enumerate(_items(queue)) if f.suggested == "yes"))
    assert "The label set changed since the check" in queue.detail.toPlainText()
    assert "Check again" in queue.detail.toPlainText()
    assert not queue.relabel_button.isEnabled() and not queue.keep_button.isEnabled()
    before = [session.gold("train", r) for r in range(40)]
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    assert [session.gold("train", r) for r in range(40)] == before
    queue.close()


def test_a_keep_follows_a_rename_and_the_first_files_keeps_are_still_read(tmp_path):
    """Keeps were one hash of the text and the label's name, so a renamed label's keeps were lost."""
    from types import SimpleNamespace

    from bertstudio.assist.cache import text_key
    from bertstudio.ui.review_store import ReviewStore, follow_label_rename

    def flag(text: str, given: str = "pos"):
        return SimpleNamespace(text=text, given=given, word=None)

    store = ReviewStore(tmp_path, "train")
    store.keep(flag("a"))
    store.keep(flag("b", "neg"))
    follow_label_rename(tmp_path, ["train", "dev"], "pos", "positive")
    assert not (tmp_path / "label-review-dev.json").exists()  # no keeps there: nothing written
    now = ReviewStore(tmp_path, "train")
    assert now.is_kept(flag("a"), "positive") and not now.is_kept(flag("a"), "pos")
    assert now.is_kept(flag("b", "neg"))
    # version 1 of the file hashed text, label and word together: still read (under the name it has)
    old = text_key("c\x1fneg\x1fNone").hex()
    (tmp_path / "label-review-dev.json").write_text(json.dumps({"version": 1, "kept": [old]}), encoding="utf-8")
    dev = ReviewStore(tmp_path, "dev")
    assert dev.is_kept(flag("c", "neg")) and not dev.is_kept(flag("c"))
    dev.keep(flag("c", "neg"), False)
    assert ReviewStore(tmp_path, "dev").kept == set() and ReviewStore(tmp_path, "dev").legacy == set()


def test_a_single_unchecked_row_is_counted_with_the_plural_form(qtbot, session_factory, tiny):
    """A label with one example cannot be checked by cross-validation: the summary counts it
    with Qt's plural form ("1 labelled row(s)"), not as "1 labelled rows"."""
    rows = _rows() + [{"text": "an odd one out", "label": "odd"}]
    session = session_factory("sentence", ["neg", "pos", "odd"], {"train": rows})
    queue = _run(qtbot, session, tiny)
    assert queue.report.skipped == 1
    text = queue.summary.text()
    assert "1 labelled row(s) could not be checked" in text and "rows could not" not in text


def test_a_flag_whose_row_was_cleared_stays_closed_when_its_label_is_removed(qtbot, session_factory, tiny):
    """The person cleared a flagged row (the flag closed: "now unlabelled"), then removed the
    label it had been given, no longer used: the flag read "open" again, K kept it under the
    removed name and R relabelled the row the person had left empty."""
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    flag = queue.current_flag()
    session.apply_gold("train", flag.row, None, "cleared")
    other = next(name for name in ("neg", "pos") if name != flag.given)
    for r in range(40):
        if session.gold("train", r) == flag.given:
            session.apply_gold("train", r, other, "merged")
    session.remove_label(flag.given)
    assert queue.state(flag) == "changed"
    queue.flags.setCurrentRow(0)
    assert not queue.relabel_button.isEnabled() and not queue.keep_button.isEnabled()
    qtbot.keyClick(queue.flags, Qt.Key.Key_R)
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert session.gold("train", flag.row) is None and not queue.store.kept


def test_a_check_that_spans_a_rename_still_hides_the_flags_kept(qtbot, session_factory, tiny, monkeypatch):
    """A label renamed while a check ran (a thorough one takes minutes): the check's flags name the
    old label, the keeps the new one, and the kept flags were listed again as if never reviewed."""
    import threading

    from bertstudio.assist import label_errors

    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    queue = _run(qtbot, session, tiny)
    kept = queue.current_flag()
    qtbot.keyClick(queue.flags, Qt.Key.Key_K)
    assert queue.state(kept) == "kept"
    old = kept.given
    found, gate, real = threading.Event(), threading.Event(), label_errors.find_label_errors

    def held(*args: Any, **kwargs: Any) -> Any:
        report = real(*args, **kwargs)
        found.set()
        gate.wait(60)
        return report

    monkeypatch.setattr(label_errors, "find_label_errors", held)
    queue.start()
    qtbot.waitUntil(found.is_set, timeout=120_000)  # the labels were read before the rename
    session.rename_label(old, old + "X")
    with qtbot.waitSignal(queue.finished, timeout=120_000):
        gate.set()
    assert any(f.given == old for f in queue.report.flags)  # the check named the label as it was
    assert queue.hidden_kept == 1 and kept.row not in [f.row for f, _ in _items(queue)]


@pytest.mark.parametrize("content", ['{"version": 3, "kept": [{"key": "k1", "label": "pos"}]}', '[["k1", "pos"]]',
                                     '{"version": 2, "kept": "abc"}', '{"version": 2, "kept": [["k1", "pos", "x"]]}',
                                     '{"kept": []}', '{"version": 2, "kept": [[null, "pos"]]}'])
def test_a_kept_flags_file_of_another_shape_is_kept_aside_not_written_over(tmp_path, content):
    """Valid JSON of another shape (a newer version, a list, entries of 3) was read as empty with
    no problem, and the next Keep wrote version 2 over it: the original was gone."""
    from types import SimpleNamespace

    from bertstudio.ui.review_store import ReviewStore

    path = tmp_path / "label-review-train.json"
    path.write_text(content, encoding="utf-8")
    store = ReviewStore(tmp_path, "train")
    assert store.problem and str(path) in store.problem
    store.keep(SimpleNamespace(text="a", given="pos", word=None))
    assert path.with_name(path.name + ".damaged").read_text(encoding="utf-8") == content
    assert ReviewStore(tmp_path, "train").problem is None


def _shown_progress(monkeypatch) -> list[str]:
    """Every progress line the queue's bar shows, each message sent (no throttle): the bar's text."""
    import functools

    from bertstudio.ui import review_queue
    from bertstudio.ui.jobs import JobWorker

    shown: list[str] = []
    original = ReviewQueue._on_progress

    def on_progress(self, fraction: float, message: str) -> None:
        original(self, fraction, message)
        shown.append(self.progress.text())

    monkeypatch.setattr(ReviewQueue, "_on_progress", on_progress)
    monkeypatch.setattr(review_queue, "JobWorker", functools.partial(JobWorker, throttle_s=0.0))
    return shown


def _chinese(line: str) -> bool:
    """Said in Chinese: Chinese characters, and no word of Latin letters (numbers are kept)."""
    return re.search(r"[\u4e00-\u9fff]", line) is not None and re.search(r"[A-Za-z]{2,}", line) is None


def test_the_checks_progress_is_said_in_the_interfaces_language(qtbot, qapp, session_factory, tiny, monkeypatch):
    """A drive in zh_CN showed the check's progress as the core's English ("fold 2 of 5: step 3 of 6,
    about 2 s left 40%"): the quick and the thorough check now say every line in Chinese."""
    import bertstudio.assist.strong as strong
    from bertstudio import app as app_module

    monkeypatch.setattr(strong, "MIN_STEPS", 6)  # the tiny model: a few steps per fold
    shown = _shown_progress(monkeypatch)
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
        queue = _run(qtbot, session, tiny)
        quick = list(shown)
        queue.method_combo.setCurrentIndex(queue.method_combo.findData("finetune"))
        with qtbot.waitSignal(queue.finished, timeout=120_000):
            queue.start()
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert queue.report.source == "finetune"
    thorough = shown[len(quick):]
    assert quick[0].startswith("正在计算文本向量") and "第 5 折（共 5 折）" in " ".join(quick)
    assert any(re.match(r"第 \d 折（共 5 折）：第 \d+ 步（共 \d+ 步），约剩 \d+(\.\d)? (秒|分钟|小时) \d+%$", line)
               for line in thorough), thorough
    assert [line for line in shown if not _chinese(line)] == []


def test_the_checks_progress_in_english_is_the_cores_line(qtbot, session_factory, tiny, monkeypatch):
    """In English the bar shows what it showed before the core's progress became facts."""
    shown = _shown_progress(monkeypatch)
    session = session_factory("sentence", ["neg", "pos"], {"train": _rows()})
    _run(qtbot, session, tiny)
    lines = [line.rsplit(" ", 1)[0] for line in shown]  # "fold 2 of 5 60%": the bar's percentage off
    distinct = [line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1]]
    assert distinct == ["embedding"] + [f"fold {i} of 5" for i in range(1, 6)] + ["ranking", "done"]


def test_a_fold_that_waits_says_for_what_in_the_interfaces_language(qapp):
    """The thorough check's fold waiting for another training, or stopping the assistant's, in zh_CN."""
    from bertstudio import app as app_module
    from bertstudio.assist.label_errors import CheckProgress
    from bertstudio.train.training_lock import ASSISTANT, RUN
    from bertstudio.ui.review_queue import check_progress_text

    facts = [CheckProgress("fold", 2, 5, waiting_for=RUN), CheckProgress("fold", 2, 5, waiting_for=ASSISTANT),
             CheckProgress("fold", 2, 5, 3, 40, ("1.5", "h")), CheckProgress("fold", 2, 5, 3, 40, ("40", "s"))]
    english = [check_progress_text(where) for where in facts]
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        chinese = [check_progress_text(where) for where in facts]
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert english == [str(where) for where in facts]
    assert chinese[0] == "第 2 折（共 5 折）：等待一次训练运行结束" and "助手" in chinese[1]
    assert chinese[2:] == ["第 2 折（共 5 折）：第 3 步（共 40 步），约剩 1.5 小时", "第 2 折（共 5 折）：第 3 步（共 40 步），约剩 40 秒"]
    assert all(_chinese(line) for line in chinese), chinese
