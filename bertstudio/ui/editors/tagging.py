"""Token tagging: entity spans in BIO, or one plain tag per word (POS).

The tokens are shown as words in a read-only text view; a span is chosen with
the mouse (drag) or with Shift+Left/Right, and a number key, the label picker
(type a letter) or a legend button applies an entity type: B-X on the first
word, I-X on the rest. Entities inside the selection are replaced, one word inside an
entity retypes the whole entity, and a selection that cuts an entity is refused with a
message (Backspace clears the entity under the cursor). A sentence with no entity is
stored with Enter (Shift+Enter while a suggestion is shown): every word O. With
plain tags (no B-/I- in the label set) the key sets the tag of each selected
word, Backspace clears them, and the sentence is stored once every word has a
tag (until then it is a draft: see :mod:`bertstudio.ui.editors.tag_edits`).
The help, legend and notes use the scheme's words: entities for BIO, tags for POS.
An unlabelled sentence the labelling assistant has tags for shows them under the
words (grey, italic: a suggestion, not a label); Enter stores them as the sentence's tags
and moves on to the next sentence.
"""

from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QAbstractScrollArea, QLabel, QTextBrowser, QTextEdit, QVBoxLayout, QWidget

from bertstudio.data.kinds import entity_types, is_bio_tag_set
from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_share
from bertstudio.ui.editors.base import NUMBER_KEYS, KindEditor
from bertstudio.ui.editors.legend import LabelLegend
from bertstudio.ui.editors.text_positions import document_length
from bertstudio.ui.editors.tag_edits import (
    Drafts, TagEditCommand, Tags, apply_entity, clear_entity_at, entities, entity_phrases, entity_target, set_plain,
    split_draft,
)
from bertstudio.ui.session import SPLITS, ProjectSession
from bertstudio.ui.theme import text_colour, text_points

DRAFTS_KEY = "tag_drafts"  # project.ui_state: partly tagged sentences, "split:row" -> tags (None: not yet)
MAX_DRAFTS = 10_000
DRAFT_SAVE_MS = 1000  # a changed draft is written this long after the last key (a write is ~2 ms)
UNTAGGED = "?"  # how a word without a tag yet is written in the tag line


SHOWN_PARTS = 12  # words (or entities) a summary line lists: a 340-word sentence's filled the page


def compact(parts: list[str], center: int | None = None) -> str:
    """``parts`` joined with " · ", at most :data:`SHOWN_PARTS` of them: those around ``center``
    (the word at the cursor), else the first, with "…" for what is left out."""
    if len(parts) <= SHOWN_PARTS:
        return "  ·  ".join(parts)
    lo = 0 if center is None else max(0, min(center - SHOWN_PARTS // 2, len(parts) - SHOWN_PARTS))
    hi = lo + SHOWN_PARTS
    return ("…  ·  " if lo else "") + "  ·  ".join(parts[lo:hi]) + (f"  ·  … (+{len(parts) - hi})" if hi < len(parts) else "")

class TaggingEditor(KindEditor):
    kind = "tagging"

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("taggingEditor")
        self.tokens: list[str] = []
        self.tags: Tags = []
        self.drafts: Drafts = {}  # plain-tag sentences not fully tagged yet, by (split, row)
        self._starts: list[int] = []  # document position of each token's first character
        self._ends: list[int] = []  # and the one after its last
        self.cursor_word = 0
        self.anchor_word = 0
        self.view = QTextBrowser()
        self.view.setObjectName("tokenView")
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.view.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        font = QFont(self.view.font())
        font.setPointSize(text_points(18))
        self.view.setFont(font)
        self.view.viewport().installEventFilter(self)
        self.entity_line = QLabel()
        self.entity_line.setObjectName("entityLine")
        self.entity_line.setWordWrap(True)
        self.note = QLabel()
        self.note.setObjectName("taggingNote")
        self.note.setWordWrap(True)
        self.suggestion_label = QLabel(objectName="suggestionLabel")
        self.suggestion_label.setWordWrap(True)
        self.suggestion_label.setTextFormat(Qt.TextFormat.PlainText)
        self.suggestion_label.setStyleSheet("font-style: italic;")  # grey (palette(mid)) read at 1.7:1
        self.legend_title = QLabel(objectName="legendTitle")
        self.legend = LabelLegend(self)
        self.legend.label_clicked.connect(self.apply_type)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.entity_line)
        layout.addWidget(self.note)
        layout.addWidget(self.suggestion_label)
        layout.addWidget(self.legend_title)
        layout.addWidget(self.legend)
        self.message_shown.connect(self.note.setText)
        # drafts reach project.json a second after they change, not only at close and Save: a crash
        # lost every partly tagged sentence since the last save
        self._saved_drafts: dict[str, list] | None = None
        self._draft_timer = QTimer(self, singleShot=True, interval=DRAFT_SAVE_MS)
        self._draft_timer.timeout.connect(self._write_drafts)
        self._lineages: dict[str, Any] = {}  # each split's rows' lineage as the drafts know them
        self._set_aside: dict[tuple[str, Any], dict[int, list]] = {}  # drafts of replaced rows, by lineage
        session.project_opened.connect(self._restore_drafts)
        session.project_closing.connect(self._keep_drafts)
        session.data_imported.connect(self._forget_drafts)
        session.label_renamed.connect(self._rename_in_drafts)
        session.draft_labels = lambda: {t for tags in self.drafts.values() for t in tags if t}
        if session.has_project():  # made over an open project: its rows are the ones the drafts name
            self._lineages = {split: self._lineage(split) for split in SPLITS}

    def _note_drafts(self, project: Any) -> bool:
        """Put the partly tagged sentences into the project's ui_state (in memory; every save of
        it, Save included, writes them); True when there was something to note."""
        if not hasattr(project, "ui_state") or getattr(project, "closed", True):
            return False
        kept = self._kept()
        if not kept and DRAFTS_KEY not in project.ui_state:
            return False
        project.ui_state[DRAFTS_KEY] = kept
        return True

    def _kept(self) -> dict[str, list]:
        return {f"{split}:{row}": list(tags) for (split, row), tags in self.drafts.items()}

    def _write_drafts(self) -> None:
        """The drafts changed a moment ago: write them (the project's ui_state, a small atomic write)."""
        project = self.session.project
        if project is None or getattr(project, "closed", True) or self._kept() == self._saved_drafts:
            return
        if self._note_drafts(project):
            kept = self._kept()
            try:
                project.save_ui_state()
            except BertStudioError as exc:  # a full disk: said once, tried again at the next change
                if self._saved_drafts is not None:
                    self.session.report_failure(exc)
                self._saved_drafts = None
                return
            self._saved_drafts = kept

    def _keep_drafts(self, project: Any) -> None:
        """The project closes: its partly tagged sentences are written with it (they were lost)."""
        self._draft_timer.stop()
        if self._note_drafts(project):
            try:
                project.save_ui_state()
            except BertStudioError as exc:  # a full disk: said, and the project closes anyway
                self.session.report_failure(exc)
        self.drafts.clear()
        self._saved_drafts = None

    def _restore_drafts(self, project: Any) -> None:
        """A project opens: the partly tagged sentences it kept, each checked against its row
        (a project.json from elsewhere may hold anything: what does not fit is left out)."""
        self.drafts.clear()
        self._saved_drafts = {}
        self._set_aside.clear()
        self._lineages = {split: self._lineage(split) for split in SPLITS}
        kept = getattr(project, "ui_state", {}).get(DRAFTS_KEY)
        if not isinstance(kept, dict):
            return
        labels = set(project.labels)
        for key, tags in list(kept.items())[:MAX_DRAFTS]:
            split, _, row = str(key).partition(":")
            try:
                n = project.num_rows(split) if split in SPLITS else 0
                if not (row.isdigit() and int(row) < n and isinstance(tags, list)):
                    continue
                tokens = project.row(split, int(row)).get("tokens")
            except (BertStudioError, IndexError, TypeError):
                continue
            if isinstance(tokens, list) and len(tags) == len(tokens) and all(t is None or t in labels for t in tags) and any(tags) \
                    and project.gold(split, int(row)) is None:
                self.drafts[(split, int(row))] = list(tags)
        self._saved_drafts = self._kept()  # what the file holds (entries that did not fit are left there)

    def _lineage(self, split: str) -> Any:
        info = getattr(self.session.project, "split_info", None) or {}
        return (info.get(split) or {}).get("lineage")

    def _forget_drafts(self, split: str) -> None:
        """Rows of ``split`` were imported. Appended rows (the same lineage) leave every row number
        as it was, so the drafts stay: an Add example deleted every partly tagged sentence of the
        split, and the loss was saved. Replaced rows' drafts are set aside under their lineage and
        come back with those rows (an undone Replace, a restore)."""
        project = self.session.project
        before, now = self._lineages.get(split), self._lineage(split)
        self._lineages[split] = now
        mine = {row: tags for (s, row), tags in self.drafts.items() if s == split}
        if before is not None and before == now:
            gone = [row for row in mine if row >= project.num_rows(split) or project.gold(split, row) is not None]
        else:
            gone = list(mine)
            if mine and before is not None:
                self._set_aside[(split, before)] = mine
        for row in gone:
            del self.drafts[(split, row)]
        back = self._set_aside.pop((split, now), None) or {} if now is not None else {}
        for row, tags in back.items():
            if row < project.num_rows(split) and project.gold(split, row) is None \
                    and len(project.row(split, row).get("tokens") or []) == len(tags):
                self.drafts[(split, row)] = tags
        if gone or back:
            self._draft_timer.start()

    def _rename_in_drafts(self, old: str, new: str) -> None:
        """A renamed tag is renamed in the drafts too, as in the stored rows: a draft kept the old
        name, could not be finished ("unknown tags") and was dropped at the next open."""
        def renamed(tags: list) -> list:
            return [new if t == old else t for t in tags]

        for key, tags in list(self.drafts.items()):  # new lists: an undo command may hold the old ones
            self.drafts[key] = renamed(tags)
        for aside in self._set_aside.values():
            for row, tags in list(aside.items()):
                aside[row] = renamed(tags)
        self._draft_timer.start()
        if self.isActive():
            self.refresh()

    # -- state -------------------------------------------------------------------------------
    @property
    def bio(self) -> bool:
        return is_bio_tag_set(self.session.labels())

    def types(self) -> list[str]:
        return entity_types(self.session.labels())

    def choices(self) -> list[str]:
        return self.types()

    def apply_choice(self, name: str) -> None:
        self.apply_type(name)

    def current_choice(self) -> str | None:
        if not self.tokens:
            return None
        tag = self.tags[self.cursor_word]
        if self.bio:
            return tag[2:] if tag and tag[:2] in ("B-", "I-") else None
        return tag

    def selection(self) -> tuple[int, int]:
        """Selected words as [start, stop)."""
        return min(self.anchor_word, self.cursor_word), max(self.anchor_word, self.cursor_word) + 1

    def select_words(self, start: int, stop: int) -> None:
        self.anchor_word, self.cursor_word = start, max(start, stop - 1)
        self._paint()

    def refresh(self) -> None:
        self._note_drafts(self.session.project)  # a draft changed, or the row did: Save keeps it too
        if self._kept() != self._saved_drafts and not self.bio:
            self._draft_timer.start()  # written a moment after the last change
        if self.isActive():
            colours = self.session.label_colours()
            types = self.types()
            if self.bio:
                self.legend_title.setText(self.tr("Entity types (select words, then press a key):"))
                tip = self.tr("Press %1 or click to mark the selected words as a %2 entity")
            else:
                self.legend_title.setText(self.tr("Tags (select words, then press a key):"))
                tip = self.tr("Press %1 or click to tag the selected words %2")
            self.legend.set_labels(types, {t: colours.get(f"B-{t}", colours.get(t, "#999999")) for t in types},
                                   self.choice_keys(), tip)
        super().refresh()

    def show_row(self, values: dict[str, Any]) -> None:
        new_tokens = list(values.get("tokens") or [])
        if new_tokens != self.tokens:
            self.cursor_word = self.anchor_word = 0
        self.tokens = new_tokens
        gold = values.get("tags")
        if gold is not None:
            self.tags = list(gold)
        elif self.bio:
            self.tags = ["O"] * len(self.tokens)
        else:
            self.tags = list(self.drafts.get((self.split, self.row)) or [None] * len(self.tokens))
        # document positions, not string indices: an emoji takes two, a CRLF inside a token one
        self._starts, self._ends, pos = [], [], 0
        for token in self.tokens:
            self._starts.append(pos)
            pos += document_length(token)
            self._ends.append(pos)
            pos += 1
        self.view.setPlainText(" ".join(self.tokens))
        self.note.setText(self._status_note(gold is not None))
        self._paint()
        self.show_suggestion()

    def show_suggestion(self) -> None:
        from bertstudio.ui.assist_controller import source_text

        suggestion = self.unlabelled_suggestion() if self.tokens else None
        if suggestion is None or len(suggestion.value) != len(self.tokens):
            self.suggestion_label.setVisible(False)
            return
        tags = [str(t) for t in suggestion.value]
        if self.bio:
            shown = compact(entity_phrases(self.tokens, tags)) or self.tr("no entity")
        else:
            shown = compact([f"{w}/{t}" for w, t in zip(self.tokens, tags)], self.cursor_word)
        done = (self.tr("Enter stores these tags; Shift+Enter stores the sentence as marked") if self.bio
                else self.tr("Enter stores these tags"))
        text = self.tr("Suggested (%1, %2 sure): %3 · %4").replace("%4", done).replace(
            "%1", source_text(suggestion.source)).replace("%2", format_share(suggestion.confidence)).replace(
            "%3", shown)
        self.suggestion_label.setText(text)
        self.suggestion_label.setVisible(True)

    def accept_suggestion(self) -> bool:
        suggestion = self.unlabelled_suggestion() if self.tokens else None
        if suggestion is None or len(suggestion.value) != len(self.tokens):
            return False
        labels = set(self.session.labels())
        tags = [str(t) for t in suggestion.value]
        if not all(t in labels for t in tags):
            return False
        self._push(tags, self.tr("Accept the suggested tags of row %1").replace("%1", str(self.row + 1)))
        self.advance()
        return True

    def _status_note(self, stored: bool) -> str:
        if stored or not self.tokens:
            return ""
        if self.bio:
            return self.tr("(not labelled yet: every word starts outside any entity, O; Enter stores the sentence "
                           "as marked, with no entity if none is marked)")
        done = sum(t is not None for t in self.tags)
        return (self.tr("(not tagged yet: %1 of %2 words have a tag; the sentence is stored once every word "
                        "has one)").replace("%1", str(done)).replace("%2", str(len(self.tokens))))

    # -- drawing: colours are extra selections over the plain text, so offsets stay simple ---
    def _span(self, start: int, stop: int) -> QTextCursor:
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(self._starts[start])
        cursor.setPosition(self._ends[stop - 1], QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def _paint(self) -> None:
        if not self.tokens:
            self.view.setExtraSelections([])
            self.entity_line.setText("")
            return
        colours = self.session.label_colours()
        marks: list[QTextEdit.ExtraSelection] = []
        if self.bio:
            spans = entities([str(t) for t in self.tags])
        else:
            spans = [(str(tag), i, i + 1) for i, tag in enumerate(self.tags) if tag in colours]
        for etype, start, stop in spans:
            mark = QTextEdit.ExtraSelection()
            mark.cursor = self._span(start, stop)
            fmt = QTextCharFormat()
            background = QColor(colours.get(f"B-{etype}", colours.get(etype, "#999999"))).lighter(150)
            fmt.setBackground(background)
            fmt.setForeground(QColor(text_colour(background.name())))  # a dark theme's white text: 1.0-2.1:1
            fmt.setToolTip(etype)
            mark.format = fmt
            marks.append(mark)
        start, stop = self.selection()
        chosen = QTextEdit.ExtraSelection()
        chosen.cursor = self._span(start, stop)
        fmt = QTextCharFormat()
        fmt.setFontUnderline(True)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setFontWeight(QFont.Weight.Bold)
        fmt.setForeground(self.palette().highlight())
        chosen.format = fmt
        marks.append(chosen)
        self.view.setExtraSelections(marks)
        if self.bio:
            parts = entity_phrases(self.tokens, [str(t) for t in self.tags])
            self.entity_line.setText(compact(parts))
        else:
            parts = [f"{w}/{t or UNTAGGED}" for w, t in zip(self.tokens, self.tags)]
            self.entity_line.setText(compact(parts, self.cursor_word))

    # -- edits -------------------------------------------------------------------------------
    def _push(self, tags: Tags, text: str) -> None:
        """Record new tags for the shown row: stored when complete (always for BIO), else a draft."""
        after = (tags, None) if self.bio else split_draft(tags)
        self.session.undo_stack.push(TagEditCommand(self.session, self.drafts, self.refresh, self.split, self.row,
                                                    after, text))

    def apply_type(self, etype: str) -> None:
        if self.row < 0 or not self.tokens:
            return
        start, stop = self.selection()
        words = " ".join(self.tokens[start:stop])
        if self.bio:
            target = entity_target([str(t) for t in self.tags], start, stop)
            if target is None:
                refused = self.tr("'%1' cuts through an entity already marked: select the whole entity, or clear it "
                                  "first (Backspace).")
                self.message_shown.emit(refused.replace("%1", words))
                return
            start, stop = target
            words = " ".join(self.tokens[start:stop])
            new = apply_entity([str(t) for t in self.tags], start, stop, etype) or []
        else:
            new = set_plain(self.tags, start, stop, etype)
        self.message_shown.emit("")
        # the cursor moves past the span, ready for the next word or entity
        self.anchor_word = self.cursor_word = min(stop, len(self.tokens) - 1)
        if list(new) == list(self.tags):  # the tag it has: on to the next word, no undo step that changes nothing
            self.refresh()
            return
        completes = not self.bio and any(t is None for t in self.tags) and all(t is not None for t in new)
        self._push(list(new), self.tr("Tag '%1' as %2").replace("%1", words).replace("%2", etype))
        if completes and self.session.gold(self.split, self.row) is not None:
            # the tag that completed the sentence stored it: the next one comes, as a sentence label
            # moves on (the cursor stayed on the last word, and one more key re-tagged it unsaid)
            self.advance()

    def clear_at_cursor(self) -> None:
        if self.row < 0 or not self.tokens:
            return
        if self.bio:
            new = clear_entity_at([str(t) for t in self.tags], self.cursor_word)
            if new != self.tags:
                self._push(list(new), self.tr("Clear the entity at word %1").replace("%1", str(self.cursor_word + 1)))
            return
        start, stop = self.selection()
        new_plain = set_plain(self.tags, start, stop, None)
        if new_plain != self.tags:
            words = " ".join(self.tokens[start:stop])
            self._push(new_plain, self.tr("Clear the tag of '%1'").replace("%1", words))

    def store_as_marked(self) -> None:
        """Enter (no suggestion) or Shift+Enter: the sentence is done as it is shown. An unlabelled
        entity sentence is stored (no entity marked: every word O) and the next one comes; a
        stored one moves on; plain tags move on once every word has one."""
        if self.row < 0 or not self.tokens:
            return
        if self.session.gold(self.split, self.row) is not None:
            self.advance()
        elif self.bio:
            entity_count = len(entities([str(t) for t in self.tags]))
            text = (self.tr("Row %1 has no entity") if entity_count == 0 else
                    self.tr("Store the entities of row %1")).replace("%1", str(self.row + 1))
            self._push([str(t) for t in self.tags], text)
            if self.session.gold(self.split, self.row) is not None:  # stored (not a full disk)
                self.advance()
        else:
            missing = sum(t is None for t in self.tags)
            self.message_shown.emit(self.tr("Words with no tag yet: %1. A sentence is stored once every word has one.")
                                    .replace("%1", str(missing)))

    # -- keys and mouse ----------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, shift = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End) and self.tokens:
            target = {
                Qt.Key.Key_Left: self.cursor_word - 1,
                Qt.Key.Key_Right: self.cursor_word + 1,
                Qt.Key.Key_Home: 0,
                Qt.Key.Key_End: len(self.tokens) - 1,
            }[Qt.Key(key)]
            self.cursor_word = max(0, min(len(self.tokens) - 1, target))
            if not shift:
                self.anchor_word = self.cursor_word
            self._paint()
            self._show_cursor_word()
        elif self.handle_label_keys(event):
            return
        elif key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete) or NUMBER_KEYS.get(key) == 0:
            self.clear_at_cursor()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & (
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier):
            if shift or not self.accept_suggestion():
                self.store_as_marked()
        elif not self.handle_navigation(event, arrows=False):
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self.step(1 if key == Qt.Key.Key_Down else -1)
            else:
                super().keyPressEvent(event)

    def _show_cursor_word(self) -> None:
        """Scroll the sentence so the word cursor is in view (End in a 400-word sentence moved it below
        the view, and the next key tagged a word nobody saw)."""
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(self._starts[self.cursor_word])
        rect, height = self.view.cursorRect(cursor), self.view.viewport().height()
        bar = self.view.verticalScrollBar()
        if rect.top() < 0:
            bar.setValue(bar.value() + rect.top() - rect.height())
        elif rect.bottom() > height:
            bar.setValue(bar.value() + rect.bottom() - height + rect.height())

    def text_views(self) -> list[QAbstractScrollArea]:
        return [self.view]

    def word_at(self, position: int) -> int:
        """The word at a document position (Qt's, as ``cursorForPosition`` gives)."""
        return max(0, bisect.bisect_right(self._starts, position) - 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport() and self.tokens and isinstance(event, QMouseEvent):
            pressed = event.type() == QEvent.Type.MouseButtonPress
            dragging = pressed or event.type() == QEvent.Type.MouseMove
            if dragging and event.buttons() & Qt.MouseButton.LeftButton:
                word = self.word_at(self.view.cursorForPosition(event.position().toPoint()).position())
                self.cursor_word = word
                if pressed and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    self.anchor_word = word
                self.setFocus()
                self._paint()
                return True
        return super().eventFilter(watched, event)
