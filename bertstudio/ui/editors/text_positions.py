"""Python string indices <-> positions in a QTextDocument filled by ``setPlainText``.

The two count differently, and a gold offset stored from one must index the other exactly:
Qt counts UTF-16 units (a character outside the BMP, such as an emoji, takes two positions),
and ``setPlainText`` turns each CRLF into one block break (one position for two characters).
Every other character, line and paragraph separators included, takes one position.
No Qt or Python call gives this map, so it is written here, once, for every Label-page editor.
"""

from __future__ import annotations

import bisect
from itertools import accumulate


def _units(text: str) -> list[int]:
    """Positions each character of ``text`` takes; the CR of a CRLF takes none (its LF is the break),
    so no position falls between the two and a selection can never split the pair."""
    return [0 if ch == "\r" and text[i + 1: i + 2] == "\n" else 2 if ord(ch) > 0xFFFF else 1
            for i, ch in enumerate(text)]


def document_positions(text: str) -> list[int]:
    """``positions[i]`` is the document position where ``text[i:]`` starts, for i in 0..len(text)."""
    return [0, *accumulate(_units(text))]


def document_length(text: str) -> int:
    return sum(_units(text))


def text_index(positions: list[int], pos: int) -> int:
    """The string index of document position ``pos`` (``positions`` from ``document_positions``):
    the first character at or after it, so a CRLF or a surrogate pair is never cut."""
    return bisect.bisect_left(positions, pos)
