"""Typed text as a tagging model's words: one rule for the Playground and ``bertstudio predict``.

Words are separated by spaces. Chinese (and Japanese kanji) is written without them, so a
typed ``北京是中国的首都`` is one "word" and gets one tag. Chinese NER/POS corpora mostly give
one token per character (as BERT's BasicTokenizer splits each CJK ideograph apart), while a
word-segmented corpus (CTB style) has words of several characters. So a run of ideographs is
split per character only where the model's training tokens were single characters
(:func:`record_cjk_words` keeps that with the model); elsewhere it stays one word, and the
caller says so (:func:`whole_cjk_words`). No library reads typed words this way for a
word-level tagger, hence this module (the ideograph rule itself is the plain-text reader's,
:mod:`bertstudio.data.formats.plaintext`). Qt-free and torch-free: the Playground imports it.
"""

from __future__ import annotations

from typing import Any, Iterable

from bertstudio.data.formats.plaintext import IDEOGRAPH, IDEOGRAPH_CLASS, split_ideographs

_CLASS, _IDEOGRAPH = IDEOGRAPH_CLASS, IDEOGRAPH  # one copy of the rule, shared with the plain-text reader

# config.json's bertstudio["cjk_words"]: what a tagging model's training tokens holding ideographs were
CJK_WORDS = ("chars", "words")


def read_words(text: str, cjk_words: str | None) -> list[str]:
    """The words of typed ``text``: split at spaces; where the model was trained on single
    ideographs (``cjk_words == "chars"``), each ideograph is a word too, next to digits or
    letters as well (``在2008年`` -> ``在``, ``2008``, ``年``, as BERT's BasicTokenizer cuts it)."""
    words = text.split()
    if cjk_words != "chars":
        return words
    return [piece for word in words for piece in (split_ideographs(word) if _IDEOGRAPH.search(word) else [word])]


def _holds_more_than_an_ideograph(word: str) -> bool:
    return len(word) > 1 and _IDEOGRAPH.search(word) is not None


def whole_cjk_words(words: Iterable[str]) -> list[str]:
    """The words read whole that hold an ideograph next to other characters (typed Chinese
    without spaces, ``北京``, ``在2008年``, ``北a京b``, unless the model's data was
    word-segmented): said to the user, who may mean each character as a word. After
    :func:`read_words` for a "chars" model there is none."""
    return [w for w in words if _holds_more_than_an_ideograph(w)]


def cjk_words_in(examples: Any) -> str | None:
    """What a tagging ExampleSet's tokens holding ideographs are: "chars" (each is one
    ideograph, as Chinese NER data mostly is), "words" (some hold more: a segmented corpus,
    or an ideograph with digits or letters), None (no ideograph at all, or no tokens column).
    Read with Arrow: a million tokens cost a fraction of a second."""
    import pyarrow.compute as pc

    table = examples.dataset.with_format("arrow")
    if "tokens" not in table.column_names:
        return None
    tokens = pc.list_flatten(table["tokens"])
    holding = pc.filter(tokens, pc.match_substring_regex(tokens, _CLASS))
    if len(holding) == 0:
        return None
    # "chars" only where each token holding an ideograph is that one character: one like 2008年
    # was trained whole, so read_words does not split it apart either
    return "words" if pc.any(pc.greater(pc.utf8_length(holding), 1)).as_py() else "chars"


def record_cjk_words(model: Any, train_set: Any) -> None:
    """Keep with the model's settings (config.json's ``bertstudio`` block) what its training
    tokens holding ideographs were (:func:`cjk_words_in`), for a tagging model; a no-op for
    other data. Predict and the Playground read typed Chinese by it (:func:`saved_cjk_words`)."""
    settings = getattr(model, "config", None)
    found = cjk_words_in(train_set) if settings is not None else None
    if found is not None:
        settings.bertstudio = {**(getattr(settings, "bertstudio", None) or {}), "cjk_words": found}


def saved_cjk_words(config: Any) -> str | None:
    """:func:`record_cjk_words`'s value from a model's config (or config.json as a dict); None
    where not kept (a model saved before, one trained without ideographs) or not one of
    :data:`CJK_WORDS`."""
    meta = config.get("bertstudio") if isinstance(config, dict) else getattr(config, "bertstudio", None)
    value = meta.get("cjk_words") if isinstance(meta, dict) else None
    return value if value in CJK_WORDS else None
