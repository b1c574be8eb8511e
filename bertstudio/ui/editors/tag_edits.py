"""What a tagging edit does to a sentence's tags, and the undoable command that records it.

Two schemes, told apart by the label set (:func:`bertstudio.data.kinds.is_bio_tag_set`):

- BIO entity tags: a span becomes one entity (B- on its first word, I- on the rest);
  every other word is O, so an unlabelled sentence starts as all O.
- Plain tags (POS): each word gets one tag of its own and there is no "nothing" tag, so
  an unlabelled sentence starts with every word untagged (None). Its tags are kept as a
  *draft* in the editor until each word has one; only then are they stored as the gold
  value (a stored value always has a tag from the label set per token). Clearing a word
  of a stored sentence turns it back into a draft.

:class:`TagEditCommand` records one edit of either kind on the undo stack, draft and
stored value together, so Ctrl+Z steps back word by word in both.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtGui import QUndoCommand

from bertstudio.errors import BertStudioError

if TYPE_CHECKING:
    from bertstudio.ui.session import ProjectSession

Tags = list[str | None]
Drafts = dict[tuple[str, int], Tags]


def entities(tags: list[str]) -> list[tuple[str, int, int]]:
    """(type, first word, last word exclusive) of each BIO entity; a stray I- starts one."""
    out: list[tuple[str, int, int]] = []
    for i, tag in enumerate(tags):
        if tag.startswith("B-") or (tag.startswith("I-") and (not out or out[-1][2] != i or out[-1][0] != tag[2:])):
            out.append((tag[2:], i, i + 1))
        elif tag.startswith("I-"):
            out[-1] = (out[-1][0], out[-1][1], i + 1)
    return out


def entity_phrases(tokens: list[Any], tags: list[str]) -> list[str]:
    """Each BIO entity with its words, as every view writes it: "[LOC] New York"."""
    return [f"[{etype}] {' '.join(str(w) for w in tokens[a:b])}" for etype, a, b in entities(tags)]


def entity_target(tags: list[str], start: int, stop: int) -> tuple[int, int] | None:
    """The words a new entity type applies to when [start, stop) is selected, or None (refused).

    Entities wholly inside the selection are replaced (retyped, or merged into one); one
    word inside an entity stands for the whole entity (the cursor on "John" of "John Smith",
    then ORG, retypes it); a selection that cuts an entity is refused.
    """
    crossed = [(a, b) for _, a, b in entities(tags) if a < stop and start < b and not (start <= a and b <= stop)]
    if not crossed:
        return start, stop
    if stop - start == 1 and len(crossed) == 1:
        return crossed[0]
    return None


def apply_entity(tags: list[str], start: int, stop: int, etype: str) -> list[str] | None:
    """Tags with words [start, stop) marked as one ``etype`` entity (see :func:`entity_target`);
    None when the selection cuts an entity."""
    target = entity_target(tags, start, stop)
    if target is None:
        return None
    start, stop = target
    new = list(tags)
    new[start:stop] = [f"B-{etype}"] + [f"I-{etype}"] * (stop - start - 1)
    return new


def clear_entity_at(tags: list[str], word: int) -> list[str]:
    new = list(tags)
    for _, start, stop in entities(tags):
        if start <= word < stop:
            new[start:stop] = ["O"] * (stop - start)
    return new


def set_plain(tags: Tags, start: int, stop: int, tag: str | None) -> Tags:
    """Plain tags with words [start, stop) set to ``tag`` (None clears them)."""
    new = list(tags)
    new[start:stop] = [tag] * (stop - start)
    return new


def split_draft(tags: Tags) -> tuple[list[str] | None, Tags | None]:
    """(gold to store, draft to keep): complete tags are stored, incomplete ones stay a draft."""
    if tags and all(t is not None for t in tags):
        return [str(t) for t in tags], None
    return None, (list(tags) if any(t is not None for t in tags) else None)


class TagEditCommand(QUndoCommand):
    """One tagging edit: the row's stored gold and its draft, before and after.

    ``drafts`` is the editor's dict of unfinished sentences; ``shown`` redraws the row
    when only the draft changed (a gold change redraws through ``gold_changed``).
    """

    def __init__(self, session: ProjectSession, drafts: Drafts, shown: Callable[[], None], split: str, row: int,
                 after: tuple[Any, Tags | None], text: str) -> None:
        super().__init__(text)
        self._session, self._drafts, self._shown = session, drafts, shown
        self._split, self._row = split, row
        self._before = (copy.deepcopy(session.gold(split, row)), copy.deepcopy(drafts.get((split, row))))
        self._after = copy.deepcopy(after)

    def _put(self, state: tuple[Any, Tags | None]) -> None:
        gold, draft = copy.deepcopy(state)
        key = (self._split, self._row)
        stored = gold != self._session.gold(self._split, self._row)
        if stored:
            try:
                self._session.write_gold(self._split, self._row, gold)
            except BertStudioError as exc:  # not saved (read-only folder, full disk): draft unchanged, said
                self.setObsolete(True)  # a push leaves it off the stack, an undo takes it off
                self._session.report_failure(exc)
                return
        if draft is None:
            self._drafts.pop(key, None)
        else:
            self._drafts[key] = draft
        self._shown()  # after the draft: gold_changed's redraw came before it

    def redo(self) -> None:
        self._put(self._after)

    def undo(self) -> None:
        self._session.set_current(self._split, self._row)  # show the sentence being changed back
        self._put(self._before)
