"""What one cell of a delimited file holds: the spreadsheet-safe escape and score text.

Shared by the table reader (which undoes the escape) and the table writer (which applies it).
"""

from __future__ import annotations

import math
import re
from typing import Any

import pyarrow.compute as pc

# Spreadsheet formula injection (OWASP "CSV injection"): a cell that starts with = + - @,
# a tab or a CR is run as a formula by Excel/LibreOffice/Sheets. Plain CSV/TSV exports
# prefix such text cells with one ', and the readers take exactly one ' off again. The
# rule is a bijection, so every string reads back exactly: text matching ^'*[=+-@\t\r]
# is written with one more leading quote, and a cell matching ^'+[=+-@\t\r] is read with
# one less; text that does not match the first pattern cannot match the second. Plain
# numbers (-1, +2.5, -3e-05: labels and regression scores) are left alone: a spreadsheet
# reads them as numbers and they never start with a quote, so the rule stays a bijection.
# GLUE/CLUE preset files are written without it, byte-compatible with the official files.
_NEEDS_ESCAPE = re.compile(r"^'*[=+\-@\t\r]")
# ASCII digits to the very end (\Z): Python's "$" also matches before a final newline and "\d" takes
# any script's digits, so "-1\n" or "-١" counted as numbers here and as formulas to the reader's
# RE2 pattern below, and a file holding one read back with every escape left on.
_NUMBER_BODY = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_NUMBER = re.compile("^" + _NUMBER_BODY + r"\Z")
_NUMBER_CELL = "^" + _NUMBER_BODY + "$"  # the same for pyarrow's RE2, where "$" is the end of the text
_ESCAPED = r"^'('*[=+\-@\t\r])"
_FORMULA_START = r"^[=+\-@\t\r]"


def escape_cell(text: str) -> str:
    """The cell to write for ``text`` in a spreadsheet-safe CSV/TSV (see above)."""
    return "'" + text if _NEEDS_ESCAPE.match(text) and not _NUMBER.match(text) else text


def unescape_cell(cell: str) -> str:
    """The text a cell written by :func:`escape_cell` stands for."""
    return re.sub(_ESCAPED, r"\1", cell, count=1)


def unescape_column(arr: Any) -> Any:
    return pc.replace_substring_regex(arr, pattern=_ESCAPED, replacement=r"\1", max_replacements=1)


def format_score(x: float) -> str:
    return repr(float(x)) if math.isfinite(x) else str(x)


def written_escaped(cells: Any) -> bool:
    """Whether cells (strings, or pyarrow arrays of them) may carry :func:`escape_cell`'s escape.

    A file written with it never holds a text cell that starts with = + - @ unescaped; a file
    that does was written by someone else, and its leading quotes are the text's own: a
    review "'-- what a film" kept its quote only in files bertstudio wrote. (A file with no such
    cell at all cannot tell; its quotes are taken as the escape.)"""
    for arr in cells:
        if isinstance(arr, str):
            if re.match(_FORMULA_START, arr) and not _NUMBER.match(arr):
                return False
            continue
        starts = pc.match_substring_regex(arr, _FORMULA_START)
        numbers = pc.match_substring_regex(arr, _NUMBER_CELL)
        if pc.any(pc.and_(pc.fill_null(starts, False), pc.invert(pc.fill_null(numbers, False)))).as_py():
            return False
    return True
