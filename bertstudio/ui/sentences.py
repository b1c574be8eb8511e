"""Sentences joined into one note as the language writes them."""

from __future__ import annotations

import unicodedata
from typing import Iterable


def counted(n: int, one: str, many: str) -> str:
    """``n`` things in the interface's words: ``one`` ("1 row") for 1, else ``many`` ("{n} rows") with
    ``n`` grouped by thousands ("1,234 rows"). Both already translated: Qt's own %n plural needs an
    English .qm to say "1 row", and does not group the digits."""
    return one if n == 1 else many.format(n=f"{n:,}")


def join_sentences(sentences: Iterable[str]) -> str:
    """The non-empty ``sentences`` as one text: a space after an English sentence, none after a
    full-width one (Chinese "。" or "）" : the notes read "…崩溃）。 它评估过…" with a space
    joined in). Read from the text itself, so a note mixing a translated sentence with an
    untranslated one still joins each pair as it is written."""
    text = ""
    for sentence in sentences:
        if not sentence:
            continue
        if text and unicodedata.east_asian_width(text[-1]) not in ("W", "F"):
            text += " "
        text += sentence
    return text
