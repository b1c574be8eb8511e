"""What a gold value is, per family of task kinds, and the data-level operations on it.

Four gold types cover the built-in kinds: a label from the label set (sentence, pair),
a score (regression), one tag per token (tagging) and answer spans (qa). Each checks an
edit, parses a file's value, renames labels inside a value, counts label uses and shows a
value in a table cell, so the project, the readers and the views never branch on a kind's
name. A :class:`~bertstudio.data.kinds.KindSpec` holds one; a new kind reuses one or
subclasses :class:`GoldType`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.errors import DataError

_PREFIX = re.compile(r"^[BIES]-")


class GoldType:
    """What a gold value of a kind is, and the data-level operations on it.

    Subclasses are stateless singletons; a spec holds one. ``where`` arguments name the
    place for error messages ("train row 12").
    """

    name: str = ""
    has_label_set: bool = False  # values come from the project's label set
    classes: bool = False  # one class per example: a confusion matrix counts them
    per_token: bool = False  # one label per token (tagging)
    min_labels: int = 0  # how many labels a model head needs at least
    numeric: bool = False  # a number (regression)
    fixed_keys: tuple[str, ...] = ()  # the label-count keys of a gold type without a label set

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        """``value`` in its stored form, or a DataError saying what a value of this kind is."""
        raise NotImplementedError

    def parse(self, value: Any, row: Mapping[str, Any], where: str, path: Any = None, *,
              strict_bio: bool = False) -> Any:
        """A gold value as a file holds it (a JSON value; ``None`` or "" = unlabelled) in stored
        form, checked against the rest of its row; a DataError naming the place otherwise."""
        raise NotImplementedError

    def order_labels(self, found: list[str]) -> list[str]:
        """The label set a file's values make, in a stable order ([] without a label set)."""
        return []

    def rename(self, value: Any, mapping: Mapping[str, str]) -> Any:
        """``value`` with label names replaced by ``mapping`` (unchanged where there are none)."""
        return value

    def count_keys(self, value: Any) -> list[str]:
        """The keys ``label_counts`` counts for one value (one per label use)."""
        return []

    def column_counts(self, column: pa.ChunkedArray | pa.Array) -> Counter:
        """:meth:`count_keys` summed over a whole Arrow gold column, vectorised."""
        return Counter()

    def labels_in(self, column: pa.ChunkedArray | pa.Array) -> list[str]:
        """Label names used in a gold column, in order of first appearance ([] without a label set)."""
        return []

    def short_text(self, value: Any) -> str:
        """One line for a table cell ("—" for no value)."""
        return "—" if value is None else str(value)

    def rows_with(self, column: pa.ChunkedArray | pa.Array, label: str) -> np.ndarray:
        """Row numbers whose value uses ``label`` (empty where values have no labels)."""
        return np.zeros(0, dtype=np.int64)

    def filter_labels(self, labels: list[str]) -> list[str]:
        """The names a "rows with label ..." filter offers for this label set."""
        return list(labels) if self.has_label_set else []

    @staticmethod
    def _bad(problem: str, expected: str, where: str, path: Any) -> DataError:
        return DataError(problem, path=path, where=where, expected=expected)


_EXACT_FLOAT_IDS = 2 ** 53  # beyond it a float is no longer one exact integer


class LabelGold(GoldType):
    """One label name from the project's label set per example (sentence, pair)."""

    name = "label"
    has_label_set = True
    classes = True
    min_labels = 2

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        if value is None:
            return None
        if not isinstance(value, str) or value not in labels:
            raise self._bad(f"{value!r} is not a label of this project", "one of " + ", ".join(map(repr, labels)),
                            where, path)
        return value

    def parse(self, value: Any, row: Mapping[str, Any], where: str, path: Any = None, *,
              strict_bio: bool = False) -> Any:
        if value is None or value == "":
            return None
        if isinstance(value, bool):  # BoolQ's true/false, as JSON spells them
            return "true" if value else "false"
        if isinstance(value, float) and value.is_integer() and abs(value) <= _EXACT_FLOAT_IDS:
            # a class id pandas wrote as 1.0 (an int column with a missing value is float): the id
            # 1, as an int reads; refused before, as if it were a score
            return str(int(value))
        if not isinstance(value, (str, int)):
            scored = isinstance(value, float) and math.isfinite(value)  # a score: regression data read as classes
            # NaN is pandas' missing value; Infinity or 1e400 got that null hint too, for a number no class id is
            hint = ("; a score such as this one is regression data" if scored else
                    "; null for a row without one" if isinstance(value, float) and math.isnan(value) else
                    "; an infinite number is no class id" if isinstance(value, float) else "")
            raise self._bad(f"label {value!r} is not a string or integer", "a label name" + hint, where, path)
        return str(value)

    def order_labels(self, found: list[str]) -> list[str]:
        """Numeric names sorted by value (GLUE's 0/1/2), others by first appearance."""
        seen = list(dict.fromkeys(v for v in found if v is not None))
        try:
            return sorted(seen, key=float)
        except ValueError:
            return seen

    def rename(self, value: Any, mapping: Mapping[str, str]) -> Any:
        return mapping.get(value, value) if value is not None and mapping else value

    def count_keys(self, value: Any) -> list[str]:
        return [] if value is None else [value]

    def column_counts(self, column: pa.ChunkedArray | pa.Array) -> Counter:
        counts: Counter = Counter()
        for item in pc.value_counts(column).to_pylist():
            if item["values"] is not None:
                counts[item["values"]] = item["counts"]
        return counts

    def labels_in(self, column: pa.ChunkedArray | pa.Array) -> list[str]:
        return [v for v in pc.unique(column).to_pylist() if v is not None]

    def rows_with(self, column: pa.ChunkedArray | pa.Array, label: str) -> np.ndarray:
        return np.flatnonzero(pc.fill_null(pc.equal(column, label), False).to_numpy(zero_copy_only=False))


# The largest score magnitude a regression learns from: the loss squares the error in float32
# (at most 3.4e38), so 1e20 made it inf at step 1 and the run ended with advice about the
# learning rate; prices and counts are far below this.
MAX_SCORE = 1e15
SCORE_RULE = f"a finite number from -{MAX_SCORE:g} to {MAX_SCORE:g}"


class ScoreGold(GoldType):
    """A real-valued score per example (regression, e.g. STS-B's 0-5 similarity)."""

    name = "score"
    numeric = True

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self._bad(f"{value!r} is not a score", "a finite number", where, path)
        return self._learnable(float(value), value, where, path)

    def _learnable(self, x: float, value: Any, where: str, path: Any) -> float:
        """``x`` (read from ``value``), or the error for a score beyond :data:`MAX_SCORE`."""
        if abs(x) > MAX_SCORE:
            raise self._bad(f"score {value!r} is too large to learn", SCORE_RULE, where, path)
        return x

    def parse(self, value: Any, row: Mapping[str, Any], where: str, path: Any = None, *,
              strict_bio: bool = False) -> Any:
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self._bad(f"score {value!r} is not a number", "a number", where, path)
        try:
            x = float(value)  # also " 3.5 ": float() strips the spaces a spreadsheet leaves
        except (ValueError, OverflowError):  # OverflowError: an integer beyond float's range
            shown = value if not isinstance(value, int) else f"{str(value)[:20]}... ({len(str(value))} digits)"
            raise self._bad(f"score {shown!r} is not a number", "a number", where, path) from None
        if not math.isfinite(x):
            raise self._bad(f"score {value!r} is not a finite number", "a finite number", where, path)
        return self._learnable(x, value, where, path)

    def short_text(self, value: Any) -> str:
        return "—" if value is None else f"{float(value):.3f}"


class TagsGold(GoldType):
    """One tag per token (tagging: BIO entity tags, or plain tags such as POS)."""

    name = "tags"
    has_label_set = True
    per_token = True
    min_labels = 1

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not all(isinstance(t, str) for t in value):
            raise self._bad(f"{value!r} is not a list of tags", "one tag name per token", where, path)
        unknown = sorted({t for t in value if t not in labels})
        if unknown:
            raise self._bad(f"unknown tags {unknown}", "tags from the label set " + ", ".join(labels), where, path)
        n = len(row()["tokens"] or [])
        if len(value) != n:
            raise self._bad(f"{len(value)} tags for {n} tokens", "one tag per token", where, path)
        return list(value)

    def parse(self, value: Any, row: Mapping[str, Any], where: str, path: Any = None, *,
              strict_bio: bool = False) -> Any:
        from bertstudio.data.formats.common import check_tagging

        tags = None if value is None else str_list(value, "tags", where, path)
        check_tagging(row["tokens"], tags, path, where, strict_bio=strict_bio)
        return tags

    def order_labels(self, found: list[str]) -> list[str]:
        """First appearance, the outside tag "O" first."""
        seen = list(dict.fromkeys(found))
        return (["O"] if "O" in seen else []) + [t for t in seen if t != "O"]

    def rename(self, value: Any, mapping: Mapping[str, str]) -> Any:
        return [mapping.get(t, t) for t in value] if value is not None and mapping else value

    def count_keys(self, value: Any) -> list[str]:
        return [] if value is None else list(value)

    def column_counts(self, column: pa.ChunkedArray | pa.Array) -> Counter:
        counts: Counter = Counter()
        if len(column):
            for item in pc.value_counts(pc.list_flatten(column)).to_pylist():
                counts[item["values"]] = item["counts"]
        return counts

    def labels_in(self, column: pa.ChunkedArray | pa.Array) -> list[str]:
        flat = pc.list_flatten(column) if len(column) else pa.array([], pa.string())
        return [v for v in pc.unique(flat).to_pylist() if v is not None]

    def short_text(self, value: Any) -> str:
        return "—" if value is None else " ".join(value)

    def rows_with(self, column: pa.ChunkedArray | pa.Array, label: str) -> np.ndarray:
        if not len(column):
            return np.zeros(0, dtype=np.int64)
        flat = pc.list_flatten(column)
        parents = pc.list_parent_indices(column).to_numpy(zero_copy_only=False)
        base = pc.replace_substring_regex(flat, _PREFIX.pattern, "")
        match = pc.fill_null(pc.equal(base, label), False).to_numpy(zero_copy_only=False)
        return np.unique(parents[match])

    def filter_labels(self, labels: list[str]) -> list[str]:
        return entity_types(labels)


class AnswersGold(GoldType):
    """Answer spans in the context (QA): ``{"text": [...], "answer_start": [...]}``; empty
    lists mean the question has no answer in its context (SQuAD v2)."""

    name = "answers"
    fixed_keys = ("answer", "no_answer")

    def check(self, value: Any, labels: list[str], row: Callable[[], dict[str, Any]], where: str,
              path: Any = None) -> Any:
        if value is None:
            return None
        if not isinstance(value, dict) or set(value) != {"text", "answer_start"}:
            raise self._bad(f"{value!r} is not a QA answer", "{'text': [...], 'answer_start': [...]} (empty = no answer)",
                            where, path)
        if not isinstance(value["text"], (list, tuple)) or not isinstance(value["answer_start"], (list, tuple)):
            raise self._bad(f"{value!r} is not a QA answer", "lists of answer texts and start offsets", where, path)
        texts, starts = list(value["text"]), list(value["answer_start"])
        if len(texts) != len(starts) or not all(isinstance(t, str) for t in texts) \
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in starts):
            raise self._bad("answer texts and starts do not pair up", "as many int starts as answer strings",
                            where, path)
        context = row()["context"] or ""
        for text, start in zip(texts, starts):
            if not text or start < 0 or context[start:start + len(text)] != text:
                raise self._bad(f"answer {text!r} is not at character {start} of the context",
                                "an answer copied from the context at its start offset", where, path)
        return {"text": texts, "answer_start": starts}

    def parse(self, value: Any, row: Mapping[str, Any], where: str, path: Any = None, *,
              strict_bio: bool = False) -> Any:
        from bertstudio.data.formats.squad import check_answers

        if value is None:
            return None
        texts, starts = check_answers(value, row["context"], path, where)
        return {"text": texts, "answer_start": starts}

    def count_keys(self, value: Any) -> list[str]:
        if value is None:
            return []
        return ["answer" if value["text"] else "no_answer"]

    def column_counts(self, column: pa.ChunkedArray | pa.Array) -> Counter:
        counts: Counter = Counter()
        if len(column):
            valid = pc.drop_null(column)
            lengths = pc.list_value_length(pc.struct_field(valid, "text")).to_numpy(zero_copy_only=False)
            counts["answer"] = int((lengths > 0).sum())
            counts["no_answer"] = int((lengths == 0).sum())
        return counts

    def short_text(self, value: Any) -> str:
        if value is None:
            return "—"
        texts = value.get("text") or []
        return " | ".join(dict.fromkeys(texts)) if texts else "∅"  # SQuAD's annotators often agree: "France" once


def str_list(value: Any, what: str, where: str, path: Any) -> list[str]:
    if isinstance(value, list) and value and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        # a Hugging Face export ({"tokens": [...], "ner_tags": [3, 0]}): ids, whose names the data set's card holds
        raise DataError(f"{what} are numbers (class ids such as {value[0]}), not names", path=path, where=where,
                        expected=f'{what} as names ["B-ORG", "O", ...]: write each id\'s name, as the data set\'s '
                                 "features list them")
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise DataError(f"{what} is not a list of strings", path=path, where=where, expected=f'{what} as ["...", ...]')
    return value


def is_bio_tag_set(tags: list[str]) -> bool:
    """True when tags carry B-/I- prefixes (entity spans), False for plain tags such as POS."""
    return any(name[:2] in ("B-", "I-") for name in tags)


def entity_types(tags: list[str]) -> list[str]:
    """What a tagger labels: entity types (PER, LOC, ... from B-/I- tags) or, for a plain tag
    set such as POS, the tags themselves."""
    if not is_bio_tag_set(tags):
        return list(tags)
    seen: dict[str, None] = {}
    for name in tags:
        if name[:2] in ("B-", "I-"):
            seen.setdefault(name[2:], None)
    return list(seen)
