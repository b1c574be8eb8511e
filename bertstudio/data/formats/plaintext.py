"""Plain text as unlabelled tagging sentences: one sentence a line, words split at whitespace.

A new tagging project's first file is often only its sentences, one a line, as a person types
them. Each non-empty line is one unlabelled sentence (tags None, as an unlabelled CoNLL
sentence reads); its words are split at whitespace. Chinese is written without spaces, so a
line with no space that holds CJK ideographs gives each ideograph a word of its own, as BERT's
BasicTokenizer cuts it and as Chinese NER corpora give one token per character.

The ideograph rule lives here, below tasks/, so that this reader and the words typed into the
Playground and ``bertstudio predict`` (:mod:`bertstudio.tasks.typed_words`) share one copy.
Hand-written: no library reads a text file this way.
"""

from __future__ import annotations

import os
import re

from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.common import check_length, check_tagging, decode, read_bytes, to_example_set
from bertstudio.errors import DataError

# BERT's BasicTokenizer._is_chinese_char ranges (CJK Unified Ideographs, extensions A-E,
# compatibility ideographs and their supplement); kana and hangul are not among them
_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
           (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
IDEOGRAPH_CLASS = "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _RANGES) + "]"  # the same text in Python's re and RE2
IDEOGRAPH = re.compile(IDEOGRAPH_CLASS)


def split_ideographs(word: str) -> list[str]:
    """``word`` with each CJK ideograph a word of its own, as BERT's BasicTokenizer cuts it
    (``北京2008`` -> ``北``, ``京``, ``2008``)."""
    return [p for p in re.split(f"({IDEOGRAPH_CLASS})", word) if p]


def line_words(line: str) -> list[str]:
    """The words of one line of plain text: split at whitespace; a line without any space that
    holds an ideograph (``北京欢迎你``, ``在2008年``) is cut per ideograph."""
    words = line.split()
    if len(words) == 1 and IDEOGRAPH.search(words[0]):
        return split_ideographs(words[0])
    return words


def no_tags(path: str | os.PathLike[str] | None) -> DataError:
    """The refusal of plain text where tags are needed (training): it has no columns to name."""
    return DataError("plain text holds no tags", path=path,
                     expected="a CoNLL file with a tag after each word (format conll reads a .txt as one: "
                              "lower-case tags such as ns, v are not told from words otherwise), or JSON Lines "
                              "with tokens and tags")


def read_text(path: str | os.PathLike[str], *, require_labels: bool = False) -> ExampleSet:
    """Every non-empty line of ``path`` as an unlabelled tagging sentence (see module doc)."""
    if require_labels:
        raise no_tags(path)
    text = decode(read_bytes(path), path)
    tokens: list[list[str]] = []
    for number, line in enumerate(text.split("\n"), 1):
        # a 200 MB line was one sentence of 40 million words (3.7 GB): the other readers' field limit
        words = line_words(check_length(line.rstrip("\r"), "sentence", path, f"line {number}"))
        if words:
            check_tagging(words, None, path, f"line {number}")
            tokens.append(words)
    if not tokens:
        raise DataError("no sentences found", path=path, expected="one sentence a line")
    return to_example_set("tagging", {"tokens": tokens, "tags": [None] * len(tokens)}, [], str(path),
                          {"format": "text"})
