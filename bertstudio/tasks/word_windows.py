"""Sentences longer than a model's max length, read in overlapping windows (one value per word).

An encoder reads at most ``max_length`` sub-word tokens. Tagging that cut a sentence there
left the words past the cut untagged (decoded as "O", a tag a POS set does not even have),
untrained, and without word vectors. Every reader of words (training and evaluation of a
tagging run, ``predict``, the assistant's tagging models and its word vectors) tokenises
through :func:`word_windows` instead: the sentence is cut into windows of ``max_length``
tokens overlapping by ``stride`` tokens (the tokenizer's own overflow, as question answering
reads long contexts), and each word is read in the one window where it sits most centrally,
so that it has context on both sides, and only there: a word is predicted, and trained, once.
A sentence that fits is one window, read exactly as before. Each word after the first is read
as in running text, with the space before it (a byte-level BPE marks it, Ġ).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

SPECIALS = 2  # [CLS] ... [SEP] around one sequence


def window_stride(max_length: int) -> int:
    """The overlap of consecutive windows in tokens: half a window, so that every word has at
    least a quarter window of context on each side in the window where it is read."""
    return max(0, (int(max_length) - SPECIALS) // 2)


@dataclass
class WordWindows:
    """The tokenizer's output with one row per window (``encoding``), the sentence each window
    reads (``sentence``) and, per window and token, the word whose value that token gives
    (the word's first sub-token in the window chosen for it), else -1 (``words``)."""

    encoding: Any
    sentence: list[int]
    words: list[list[int]]

    def __len__(self) -> int:
        return len(self.sentence)

    def scatter(self, values: Any, out: Sequence[Any]) -> None:
        """``out[s][w] = values[j][t]`` for each window ``j`` of sentence ``s`` and token ``t``
        that speaks for word ``w`` (words no token speaks for keep what ``out`` held)."""
        for j, (s, words) in enumerate(zip(self.sentence, self.words)):
            row = values[j]
            target = out[s]
            for t, w in enumerate(words):
                if 0 <= w < len(target):
                    target[w] = row[t]


def _needs_spaces(tokenizer: Any) -> bool:
    """Whether pre-split words must carry their space to read as in running text: a byte-level BPE
    (RoBERTa, GPT-2, ModernBERT) sees each word of ``is_split_into_words`` input alone, and without
    ``add_prefix_space`` reads "story" as the glued pieces st, ory rather than Ġstory. WordPiece
    splits on the space anyway; Metaspace (SentencePiece) prepends its marker to every word itself."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    pre = getattr(backend, "pre_tokenizer", None)
    if pre is None:
        return False
    try:
        state = json.loads(pre.__getstate__())
    except (TypeError, ValueError):
        return False
    parts = state.get("pretokenizers", [state]) if isinstance(state, dict) else []
    return any(isinstance(p, dict) and p.get("type") == "ByteLevel" and not p.get("add_prefix_space") for p in parts)


def word_windows(tokenizer: Any, sentences: Sequence[Sequence[str]], *, max_length: int, stride: int | None = None,
                 **kwargs: Any) -> WordWindows:
    """Tokenise pre-split ``sentences`` (a fast tokenizer: it reports word ids) into windows;
    ``kwargs`` go to the tokenizer (padding, return_tensors, ...)."""
    stride = window_stride(max_length) if stride is None else stride
    spaced = _needs_spaces(tokenizer)
    enc = tokenizer([[w if i == 0 or not spaced else " " + w for i, w in enumerate(s)] for s in sentences],
                    is_split_into_words=True, truncation=True, max_length=max_length,
                    stride=stride, return_overflowing_tokens=True, **kwargs)
    mapping = enc.pop("overflow_to_sample_mapping")
    sentence = [int(s) for s in (mapping.tolist() if hasattr(mapping, "tolist") else mapping)]
    several = {s for s, count in Counter(sentence).items() if count > 1}
    words: list[list[int]] = []
    best: dict[tuple[int, int], tuple[int, int]] = {}  # (sentence, word) -> (centrality, window)
    for j, s in enumerate(sentence):
        ids = enc.word_ids(j)
        row, previous = [-1] * len(ids), None
        for t, w in enumerate(ids):  # each word's first sub-token in this window
            if w is not None and w != previous:
                row[t] = w
            previous = w
        words.append(row)
        if s in several:  # which window reads each word most centrally (ties: the earlier)
            content = [t for t, w in enumerate(ids) if w is not None]
            lo, hi = content[0], content[-1]
            for t, w in enumerate(row):
                if w >= 0:
                    centrality = min(t - lo, hi - t)
                    if (s, w) not in best or centrality > best[(s, w)][0]:
                        best[(s, w)] = (centrality, j)
    for j, s in enumerate(sentence):
        if s in several:
            words[j] = [w if w >= 0 and best[(s, w)][1] == j else -1 for w in words[j]]
    return WordWindows(enc, sentence, words)
