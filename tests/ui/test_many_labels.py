"""Many labels, long label names and names with "&" or markup, long texts, and the keyboard:
the window stays smaller than a laptop screen, names are shown as typed (elided, whole in a
tooltip), colours stay apart and readable, and every text and control is reachable by keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence
from PySide6.QtWidgets import QLabel, QPushButton

from bertstudio.data.project_meta import PALETTE, default_color
from bertstudio.ui.confusion_view import MAX_NAME_WIDTH, ConfusionView
from bertstudio.ui.data_page import DataPage
from bertstudio.ui.editors import LabelPage
from bertstudio.ui.editors.label_set import LabelSetDialog
from bertstudio.ui.editors.legend import MAX_ROWS
from bertstudio.ui.theme import _luminance, text_colour

LONG = ("very long label " * 13)[:200]  # as long as a label name may be


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(QColor(a)), _luminance(QColor(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _page(qtbot, cls, session, size=(1200, 680)):
    page = cls(session)
    qtbot.addWidget(page)
    page.resize(*size)
    page.show()
    return page


def test_forty_labels_scroll_on_the_data_page_and_the_label_page_keeps_the_text(qtbot, session_factory):
    labels = [f"class_{i:03d}" for i in range(40)]
    session = session_factory("sentence", labels, {"train": [{"text": f"text {i}", "label": labels[i % 40]}
                                                             for i in range(80)]})
    data = _page(qtbot, DataPage, session)
    assert data.distribution.counts() == {name: 2 for name in labels}
    assert data.minimumSizeHint().height() < 400  # one row per label made it 1,056 px: the window's minimum
    label = _page(qtbot, LabelPage, session)
    editor = label.editor()
    buttons = editor.legend.findChildren(QPushButton)
    row = buttons[0].sizeHint().height() + 6
    qtbot.waitUntil(lambda: editor.text_view.height() > 250)
    assert editor.legend.height() <= MAX_ROWS * row and len(editor.legend.names()) == 40
    assert editor.legend.verticalScrollBar().maximum() > 0  # the rest scroll into view
    colours = list(session.label_colours().values())
    assert len(set(colours)) == 40  # labels 0, 10, 20, 30 shared a colour
    assert colours[:len(PALETTE)] == list(PALETTE)


def test_a_long_name_is_elided_everywhere_and_whole_in_its_tooltip(qtbot, session_factory):
    session = session_factory("sentence", ["neg", LONG], {"train": [{"text": "a", "label": LONG}, {"text": "b", "label": None}]})
    data = _page(qtbot, DataPage, session, (1024, 640))
    assert data.minimumSizeHint().width() < 900  # the distribution's row label made it 1,391 px
    name = [w for w in data.distribution.findChildren(QLabel) if w.text() == LONG]
    assert len(name) == 1 and name[0].width() <= 160 and name[0].toolTip() == LONG
    label = _page(qtbot, LabelPage, session, (1024, 640))
    button = label.editor().legend.findChild(QPushButton, f"legend_{LONG}")
    assert "…" in button.text() and len(button.text()) < 60 and LONG in button.toolTip()
    assert label.minimumSizeHint().width() < 900  # the legend button made it 1,303 px
    view = ConfusionView()
    qtbot.addWidget(view)
    view.resize(380, 330)
    view.show()
    view.confusion_model.set_data(["neg", LONG, LONG], ["neg", "neg", LONG], ["neg", LONG])
    assert view.verticalHeader().width() <= MAX_NAME_WIDTH  # 1,315 px left the counts 0 px wide
    assert view.viewport().width() > 100
    assert view.confusion_model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == f"predicted: {LONG}"
    assert view.confusion_model.headerData(1, Qt.Orientation.Vertical, Qt.ItemDataRole.ToolTipRole) == f"gold: {LONG}"
    assert not view.tabKeyNavigation()  # Tab cycled the cells for ever: nothing after the matrix was reachable


def test_names_with_ampersands_and_markup_read_as_typed(qtbot, session_factory):
    names = ["R&D", "&File", "<b>bold</b>"]
    session = session_factory("sentence", names, {"train": [{"text": "a", "label": "<b>bold</b>"}, {"text": "b", "label": "R&D"}]})
    editor = _page(qtbot, LabelPage, session).editor()
    for name, key in zip(names, "123"):
        button = editor.legend.findChild(QPushButton, f"legend_{name}")
        assert button.text() == f"{key}  {name}".replace("&", "&&")  # "R&D" read "RD" with an Alt+D shortcut
        assert QKeySequence.mnemonic(button.text()).isEmpty()
    editor.go_to(0)
    assert editor.gold_label.textFormat() == Qt.TextFormat.PlainText and editor.gold_label.text() == "<b>bold</b>"
    data = _page(qtbot, DataPage, session)
    shown = {w.text(): w.textFormat() for w in data.distribution.findChildren(QLabel) if w.text() in names}
    assert shown == {name: Qt.TextFormat.PlainText for name in names}


def test_label_text_colours_have_the_contrast_wcag_asks_for():
    for colour in list(PALETTE) + [default_color(i) for i in range(10, 60)]:
        assert max(_contrast(colour, "#000000"), _contrast(colour, "#ffffff")) == _contrast(colour, text_colour(colour))
    assert text_colour("#e15759") == "#000000"  # white read at 3.7:1 by luma, black reads at 5.7:1


def test_a_long_text_scrolls_from_the_keyboard_and_the_advance_box_is_reachable(qtbot, session_factory):
    long_text = " ".join(f"word{i}" for i in range(3000))
    session = session_factory("sentence", ["neg", "pos"], {"train": [{"text": long_text, "label": None},
                                                                     {"text": "short", "label": None}]})
    page = _page(qtbot, LabelPage, session)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)  # Alt+M is a shortcut: it reaches an active window
    editor = page.editor()
    editor.go_to(0)
    editor.setFocus()
    bar = editor.text_view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    qtbot.keyClick(editor, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ShiftModifier)
    assert bar.value() > 0 and editor.row == 0  # scrolled, still on this example
    qtbot.keyClick(editor, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ShiftModifier)
    assert bar.value() == 0
    qtbot.keyClick(editor, Qt.Key.Key_PageDown)
    assert editor.row == 1  # Page Down alone still moves on
    assert editor.advance_box.isChecked()
    qtbot.keyClick(editor, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)  # no key reached it
    qtbot.waitUntil(lambda: not editor.advance_box.isChecked())  # a mnemonic clicks the box a moment later
    assert editor.hasFocus()  # the label keys are still the editor's


def test_the_tagging_cursor_stays_in_view(qtbot, session_factory):
    tokens = [f"w{i}" for i in range(400)]
    session = session_factory("tagging", ["NOUN", "VERB"], {"train": [{"tokens": tokens, "tags": None}]})
    editor = _page(qtbot, LabelPage, session, (900, 500)).editor()
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_End)
    assert editor.cursor_word == 399
    view = editor.view
    cursor = view.textCursor()
    cursor.setPosition(editor._starts[399])
    rect = view.cursorRect(cursor)
    assert 0 <= rect.top() and rect.bottom() <= view.viewport().height()  # it moved below the view
    qtbot.keyClick(editor, Qt.Key.Key_Home)
    cursor.setPosition(0)
    assert view.cursorRect(cursor).top() >= 0


def test_renaming_onto_another_label_says_so_without_the_project_files_path(qtbot, session_factory):
    session = session_factory("sentence", ["neg", "pos"])
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert not dialog.rename_label("neg", "pos")
    text = dialog.error.text()
    assert "already exists" in text and "project.json" not in text and session.labels() == ["neg", "pos"]


def test_with_many_classes_the_largest_confusions_are_listed_and_pick_their_cell(qtbot):
    """With 40 classes the matrix's columns are 36 px of 'cl…39': the largest confusions are a
    list under it, and picking one filters as clicking its cell does."""
    from bertstudio.ui.confusion_view import TOP_CONFUSIONS, ConfusionPanel

    labels = [f"class_{i:03d}" for i in range(40)]
    golds, preds = [], []
    for i, name in enumerate(labels):
        golds += [name] * 5
        preds += [name] * 3 + [labels[(i + 1) % 40]] * (2 if i % 7 else 0) + [name] * (0 if i % 7 else 2)
    golds += ["class_003"] * 4
    preds += ["class_017"] * 4  # the largest confusion
    panel = ConfusionPanel()
    qtbot.addWidget(panel)
    panel.resize(380, 500)
    panel.show()
    picked = []
    panel.view.cell_clicked.connect(picked.append)
    panel.view.confusion_model.set_data(golds, preds, labels)
    items = [panel.top_list.item(i) for i in range(panel.top_list.count())]
    assert panel.top_list.isVisible() and len(items) == TOP_CONFUSIONS
    assert items[0].data(Qt.ItemDataRole.UserRole) in (("class_003", "class_017"), ["class_003", "class_017"])
    assert "4 × gold" in items[0].text()
    panel.top_list.itemClicked.emit(items[0])
    assert picked == [("class_003", "class_017")]
    assert panel.view.currentIndex().row() == 3 and panel.view.currentIndex().column() == 17
    panel.view.confusion_model.set_data(["a", "b"], ["b", "a"], ["a", "b"])  # few classes: the grid says it all
    assert not panel.top_list.isVisible()


# -- many labels while labelling: the legend stays, a key costs no rebuild (sweep "manylabels") --------------

def _settle_layouts(page) -> None:
    """Let the page's pending layout requests run (what the event loop does after a key), twice: a
    layout that settles can ask its parent's again."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QWidget

    for _ in range(2):
        for widget in [page, *page.findChildren(QWidget)]:
            QCoreApplication.sendPostedEvents(widget, QEvent.Type.LayoutRequest)


def _sentence_session(session_factory, n_labels: int, n_rows: int = 30):
    labels = [f"topic_{i:03d}" for i in range(n_labels)]
    return labels, session_factory("sentence", labels, {"train": [{"text": f"text {i}", "label": None}
                                                                  for i in range(n_rows)]})


def test_the_legend_keeps_its_rows_after_a_key_that_moves_on(qtbot, session_factory):
    """One label key with "Move to the next example" on left the legend 0 px tall: its buttons,
    re-made, were not shown yet when the editor's layout measured it, and it was never asked again."""
    _labels, session = _sentence_session(session_factory, 4)
    page = _page(qtbot, LabelPage, session, (1000, 640))
    editor = page.editor()
    editor.go_to(0)
    editor.setFocus()
    _settle_layouts(page)
    assert editor.advance_box.isChecked() and editor.legend.height() > 0
    for key in (Qt.Key.Key_1, Qt.Key.Key_2):
        qtbot.keyClick(editor, key)
        _settle_layouts(page)
        assert editor.legend.height() > 0 and editor.row > 0


def test_the_tagging_legend_keeps_its_rows_after_an_entity_key(qtbot, session_factory):
    tags = ["O"] + [f"{p}{t}" for t in ("PER", "ORG", "LOC", "MISC") for p in ("B-", "I-")]
    rows = [{"tokens": ["Ann", "met", "Bob", "in", "Paris"], "tags": None} for _ in range(3)]
    session = session_factory("tagging", tags, {"train": rows})
    page = _page(qtbot, LabelPage, session, (1000, 640))
    editor = page.editor()
    editor.go_to(0)
    editor.setFocus()
    _settle_layouts(page)
    assert editor.legend.height() > 0
    qtbot.keyClick(editor, Qt.Key.Key_1)
    _settle_layouts(page)
    assert session.project.gold("train", 0)[0] == "B-PER" and editor.legend.height() > 0


def test_a_new_label_set_is_measured_with_its_buttons(qtbot, session_factory):
    """The same collapse when the labels do change (a rename, an added label) as the row changes."""
    labels, session = _sentence_session(session_factory, 4)
    page = _page(qtbot, LabelPage, session, (1000, 640))
    editor = page.editor()
    legend = editor.legend
    _settle_layouts(page)
    session.add_label("added")
    editor.go_to(1)
    _settle_layouts(page)
    assert legend.names()[-1] == "added" and legend.height() > 0


def test_a_label_key_at_150_labels_rebuilds_nothing(qtbot, session_factory, monkeypatch):
    """At 150 labels each key froze the window for half a second: the legend re-made its 150 buttons
    twice (each add re-placed them all), the Data page its 150 bars, and the Train page chose its
    Automatic recipe again while hidden."""
    from bertstudio.ui.editors.flow_layout import FlowLayout
    from bertstudio.ui.training_page import TrainingPage

    labels, session = _sentence_session(session_factory, 150)
    data = _page(qtbot, DataPage, session)
    train = TrainingPage(session)
    qtbot.addWidget(train)  # never shown: the labeller is on the Label page
    adapted = []
    monkeypatch.setattr(train, "_adapt_to_data", lambda: adapted.append(1))
    page = _page(qtbot, LabelPage, session)
    editor = page.editor()
    editor.go_to(0)
    editor.setFocus()
    _settle_layouts(page)
    buttons, bars = list(editor.legend._buttons), dict(data.distribution._bars)
    placed = []
    real_place = FlowLayout._place
    monkeypatch.setattr(FlowLayout, "_place", lambda self, rect, **kw: placed.append(kw) or real_place(self, rect, **kw))
    for key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3):
        qtbot.keyClick(editor, key)
    _settle_layouts(page)
    assert [session.project.gold("train", row) for row in range(3)] == labels[:3] and editor.row == 3
    assert editor.legend._buttons == buttons  # the same buttons: nothing about the labels changed
    assert sum(1 for kw in placed if kw.get("move")) <= 3  # was hundreds (150 adds, each placing all)
    qtbot.waitUntil(lambda: data.distribution.counts()[labels[2]] == 1)
    assert data.distribution._bars == bars  # the same bars, new values
    assert data.distribution.counts() == {name: int(name in labels[:3]) for name in labels}
    qtbot.waitUntil(lambda: not train._state_timer.isActive())
    assert adapted == []  # nothing chosen for a page no one sees
    train.show()
    assert adapted == [1]  # chosen once it is seen, for all the labels given meanwhile


def test_a_label_whose_name_starts_with_a_slash_has_a_code_that_applies_it(qtbot, session_factory):
    """"/" opens the picker empty, so the legend's "/↵" for "/slash" applied the preselected label."""
    labels = [f"topic_{i}" for i in range(9)] + ["/slash", "2nd"]
    session = session_factory("sentence", labels, {"train": [{"text": "a", "label": "2nd"}]})
    page = _page(qtbot, LabelPage, session)
    editor = page.editor()
    editor.go_to(0)
    editor.advance_box.setChecked(False)
    key = dict(zip(editor.legend.names(), editor.legend.keys()))["/slash"]
    assert key == "//↵"
    qtbot.keyClick(editor, Qt.Key.Key_Slash)
    assert editor.picker.isVisible()
    for char in key[1:-1]:
        qtbot.keyClicks(editor.picker.filter_edit, char)
    qtbot.keyClick(editor.picker.filter_edit, Qt.Key.Key_Return)
    assert session.project.gold("train", 0) == "/slash"


def test_the_legend_shows_whole_rows_and_the_bars_scale_to_the_largest_count(qtbot, session_factory):
    """The fifth row was cut through its text (the height counted the first button's rows, and a
    row of CJK names is taller), and each bar's range was the total: 10 of 1,500 drew nothing."""
    labels = [f"topic_{i:03d}" for i in range(9)] + [f"科技{i}" for i in range(30)] + [f"x{i}" for i in range(60)]
    rows = [{"text": "a", "label": labels[0]} for _ in range(40)] + [{"text": "b", "label": labels[1]}]
    session = session_factory("sentence", labels, {"train": rows})
    editor = _page(qtbot, LabelPage, session, (900, 700)).editor()
    legend = editor.legend
    _settle_layouts(editor)
    tops = sorted({b.geometry().top() for b in legend._buttons})
    assert len(tops) > MAX_ROWS  # it scrolls
    fifth = [b for b in legend._buttons if b.geometry().top() == tops[MAX_ROWS - 1]]
    assert legend.viewport().height() >= max(b.geometry().bottom() + 1 for b in fifth)
    data = _page(qtbot, DataPage, session)
    bars = data.distribution._bars
    assert bars[labels[0]].maximum() == 40 and bars[labels[1]].value() == 1


def test_a_new_set_of_150_labels_is_placed_once(qtbot, monkeypatch):
    """Each button, shown by Qt a moment after it was added, had the flow layout place all of them
    again: 150 placements of 150 buttons for one rename at 150 labels."""
    from bertstudio.ui.editors.flow_layout import FlowLayout
    from bertstudio.ui.editors.legend import LabelLegend

    legend = LabelLegend()
    qtbot.addWidget(legend)
    legend.resize(800, 200)
    legend.show()
    names = [f"topic_{i:03d}" for i in range(150)]
    legend.set_labels(names, {})
    _settle_layouts(legend)
    placed = []
    real_place = FlowLayout._place
    monkeypatch.setattr(FlowLayout, "_place", lambda self, rect, **kw: placed.append(kw) or real_place(self, rect, **kw))
    legend.set_labels([f"{name}b" for name in names], {})
    qtbot.waitUntil(lambda: all(button.isVisible() for button in legend._buttons))
    _settle_layouts(legend)
    assert legend.names()[0] == "topic_000b" and sum(1 for kw in placed if kw.get("move")) <= 2


def test_the_label_set_dialog_filters_150_labels_and_counts_each_ones_rows(qtbot, session_factory):
    """At 150 labels the label set dialog had no search and no counts: only Qt's type-ahead found a
    label, and whether it was used showed only when Remove refused it."""
    from collections import Counter

    from bertstudio.ui.editors.label_set import COUNT_ROLE

    labels = [f"topic_{i:03d}" for i in range(146)] + ["sport", "sports", "Sport news", LONG]
    rows = [{"text": f"text {i}", "label": labels[(i * 7) % 150] if i % 4 else None} for i in range(600)]
    session = session_factory("sentence", labels, {"train": rows[:450], "dev": rows[450:]})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    dialog.show()
    oracle = Counter(r["label"] for r in rows if r["label"] is not None)  # counted from the rows, not the project
    shown = {dialog.list.item(i).text(): dialog.list.item(i).data(COUNT_ROLE) for i in range(dialog.list.count())}
    assert shown == {name: "1 row" if oracle[name] == 1 else f"{oracle[name]} rows" for name in labels}
    assert dialog.list.horizontalScrollBar().maximum() == 0  # the long name elided: no count scrolled out of sight
    sport = dialog.list.item(labels.index("sport"))
    assert f"{oracle['sport']} rows" in sport.toolTip() and "in train" in sport.toolTip()

    qtbot.keyClicks(dialog.filter_edit, "SPORT")  # any case
    visible = [dialog.list.item(i).text() for i in range(dialog.list.count()) if not dialog.list.item(i).isHidden()]
    assert visible == ["sport", "sports", "Sport news"]
    assert dialog.list.currentItem().text() == "sport"  # the selection moved off the hidden topic_000
    session.apply_gold("train", 0, "sport", "label")  # row 0 was unlabelled: the count follows the edit
    qtbot.waitUntil(lambda: sport.data(COUNT_ROLE) == f"{oracle['sport'] + 1} rows")
    dialog.filter_edit.clear()
    assert not any(dialog.list.item(i).isHidden() for i in range(dialog.list.count()))


def test_a_closed_label_set_dialog_stops_listening_to_label_keys(qtbot, session_factory, monkeypatch):
    """Each Label set dialog the Label page opened stayed a child of the page after it closed, and
    its lambdas kept recounting the labels at every key, one more dialog per visit."""
    from PySide6.QtCore import SIGNAL

    session = session_factory("sentence", labels=["neg", "pos"],
                              splits={"train": [{"text": f"row {i}", "label": None} for i in range(5)]})
    page = LabelPage(session)
    qtbot.addWidget(page)
    keys, imports = SIGNAL("gold_changed(QString,int)"), SIGNAL("data_imported(QString)")
    before = session.receivers(keys), session.receivers(imports)
    opened = []
    monkeypatch.setattr(LabelSetDialog, "exec", lambda dialog: opened.append(dialog) or 0)  # closed at once
    for _ in range(3):
        page.edit_label_set()
    assert len(opened) == 3
    qtbot.waitUntil(lambda: (session.receivers(keys), session.receivers(imports)) == before)
    assert not page.findChildren(LabelSetDialog)


def test_sixty_character_labels_leave_the_label_page_narrower_than_a_laptop_screen(qtbot, session_factory):
    """sweep_newcode53 7: the by-label order's box sized itself to its longest name, and 60-character
    labels held the main window 1,085 px wide on every page (off a 1024-wide screen)."""
    labels = [f"very long label name that keeps going and going {i}".ljust(60, "x") for i in range(20)]
    session = session_factory("sentence", labels, {"train": [{"text": "a", "label": labels[0]},
                                                             {"text": "b", "label": None}]})
    label = _page(qtbot, LabelPage, session, (1024, 640))
    bar = label.assist_bar
    bar.set_strategy("by_label")
    box = bar.label_combo
    qtbot.waitUntil(box.isVisible)
    assert box.findData(labels[7]) > 0
    assert box.minimumSizeHint().width() < 300 and box.sizeHint().width() < 300  # was 415 px
    assert box.itemData(box.findData(labels[7]), Qt.ItemDataRole.ToolTipRole) == labels[7]  # whole on hover
    # row 0's gold, on one line at 16 pt, held the editor 699 px wide and (the assist bar hidden) the
    # page 921: with the navigation beside it the window's least width was 1,085 px (979 now)
    session.set_current("train", 0)
    editor = label.editor()
    qtbot.waitUntil(lambda: editor.gold_label.text() == labels[0])
    assert editor.gold_label.minimumSizeHint().width() < 300 and editor.minimumSizeHint().width() < 650
    assert label.minimumSizeHint().width() < 850
