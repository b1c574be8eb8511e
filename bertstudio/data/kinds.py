"""Task kinds as data: one frozen :class:`KindSpec` per kind, the only home of per-kind facts.

A kind is described, not branched on. Its spec says which columns an example has
(and their Arrow/``datasets`` types), which column holds the gold value, which
columns a person reads and types, whether it fits a delimited table, and what its
gold values are (a :class:`~bertstudio.data.gold.GoldType`): a label from a label set, a score, one tag per
token, or a set of answer spans. Everything that differs between kinds at the data
level (checking an edit, renaming labels inside a value, counting labels, showing a
value in a table cell) is a method of the gold type, so code outside this module and
``bertstudio.tasks`` asks ``spec.gold.has_label_set`` or ``spec.gold.check(...)``
instead of testing the kind's name.

What a kind does with a *model* (encoding, heads, decoding, metrics, "is this
prediction wrong?") lives on its :class:`bertstudio.tasks.base.Task`.

Adding a kind: one module defines its spec (reusing a gold type or adding one) and
its Task, and one registry line (``bertstudio.tasks.register_task``) registers both;
:func:`register_kind` is what makes the spec visible to the data layer.
"""

from __future__ import annotations

import functools

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Iterator

import datasets
import pyarrow as pa

from bertstudio.data.gold import (
    AnswersGold,
    GoldType,
    LabelGold,
    ScoreGold,
    TagsGold,
    entity_types,
    is_bio_tag_set,
    str_list,
)
from bertstudio.errors import BertStudioError, ConfigError

# the gold types are part of this module's interface: a new kind imports them from here
__all__ = [
    "ANSWERS", "KIND_SPECS", "LABEL", "SCORE", "TAGS", "AnswersGold", "GoldType", "KindSpec", "LabelGold",
    "ScoreGold", "TagsGold", "entity_types", "get_spec", "is_bio_tag_set", "kind_names", "register_kind",
    "require_kind", "str_list",
]
# --- the spec -----------------------------------------------------------------------------


@dataclass(frozen=True)
class KindSpec:
    """Everything the data layer and the UI need to know about one task kind."""

    name: str
    columns: tuple[str, ...]  # in storage order
    features: datasets.Features
    gold_column: str
    gold: GoldType
    inputs: tuple[str, ...]  # what a person types to get a prediction (required)
    optional_inputs: tuple[str, ...] = ()  # typed when there is one (regression's second text)
    text_columns: tuple[str, ...] = ()  # searchable text, in display order
    view_columns: tuple[str, ...] = ()  # what a table of examples shows, in order
    table_format: bool = False  # fits a delimited table (CSV, TSV, the GLUE layouts)
    save_format: str = "jsonl"  # the lossless default file format when writing
    # the files this kind's examples are read from, in words, for a refusal of another (no brackets:
    # it is said inside the error's "(expected ...)"); "" says nothing more than the format names
    files: str = ""
    headline: tuple[str, ...] = ()  # the columns one line about the example shows
    key_column: str | None = None  # a column whose values identify rows (unique per file)
    fill: Mapping[str, Any] | None = None  # value of a column a record leaves out (None: missing)
    # The head that reads this kind through a sentence-transformer's pooled embeddings:
    # "embedding" (one text), "siamese" (two texts, each encoded alone), None (per word, spans)
    sentence_head: str | None = None

    @property
    def has_label_set(self) -> bool:
        return self.gold.has_label_set

    @property
    def min_labels(self) -> int:
        """The fewest labels a model of this kind can learn: one tag set entry for per-token tagging
        (its "O"-only sentences still teach), two classes for a classifier."""
        return 1 if self.gold.per_token else 2

    def required_inputs(self, *, siamese: bool = False) -> tuple[str, ...]:
        """What a model of this kind needs typed to predict: :attr:`inputs`, and for a siamese
        model (each text of a pair encoded alone) the second text too: a scored-pairs model read
        one sentence beside an empty one and answered 2.5 without a word."""
        if siamese and "text_pair" in self.optional_inputs:
            return (*self.inputs, "text_pair")
        return self.inputs

    # cached: ``Features.arrow_schema`` builds the schema anew at each call, and a reader asking
    # per row spent 78% of a JSONL read there (4.3 s for 4 MB, against 0.3 s for a CSV)
    @functools.cached_property
    def arrow_schema(self) -> pa.Schema:
        return self.features.arrow_schema

    @functools.cached_property
    def list_columns(self) -> frozenset[str]:
        """The columns holding a list (tokens, tags): typed as words separated by spaces."""
        return frozenset(c for c in self.columns if pa.types.is_list(self.arrow_schema.field(c).type))

    def is_list_column(self, column: str) -> bool:
        """True for a column holding a list (tokens, tags): typed as words separated by spaces."""
        return column in self.list_columns

    def record(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """One row in storage form: every column, absent ones filled (or None)."""
        fill = self.fill or {}
        return {c: values[c] if c in values else fill.get(c) for c in self.columns}

    def example_text(self, row: Mapping[str, Any]) -> str:
        """One line a person recognises the example by (a pair shows both texts)."""
        parts = []
        for c in self.headline:
            value = row.get(c)
            if isinstance(value, list):
                value = " ".join(str(v) for v in value)
            parts.append(value)
        return one_line(parts)


def one_line(parts: Iterable[Any]) -> str:
    """An example's texts (a pair's two sides) as the one line every list and tooltip shows:
    the non-empty ones, joined by a mark no sentence uses."""
    return "  ‖  ".join(str(p) for p in parts if p)


_STR = datasets.Value("string")
_ANSWERS = {"text": datasets.Sequence(_STR), "answer_start": datasets.Sequence(datasets.Value("int32"))}
LABEL, SCORE, TAGS, ANSWERS = LabelGold(), ScoreGold(), TagsGold(), AnswersGold()

_BUILTIN = (
    KindSpec(
        "sentence", ("text", "label"), datasets.Features({"text": _STR, "label": _STR}), "label", LABEL,
        inputs=("text",), text_columns=("text",), view_columns=("text", "label"), headline=("text",),
        table_format=True, save_format="tsv", sentence_head="embedding",
    ),
    KindSpec(
        "pair", ("text", "text_pair", "label"),
        datasets.Features({"text": _STR, "text_pair": _STR, "label": _STR}), "label", LABEL,
        inputs=("text", "text_pair"), text_columns=("text", "text_pair"), view_columns=("text", "text_pair", "label"),
        headline=("text", "text_pair"), table_format=True, save_format="tsv", fill={"text_pair": ""},
        sentence_head="siamese",
    ),
    KindSpec(
        "regression", ("text", "text_pair", "label"),
        datasets.Features({"text": _STR, "text_pair": _STR, "label": datasets.Value("float64")}), "label", SCORE,
        inputs=("text",), optional_inputs=("text_pair",), text_columns=("text", "text_pair"),
        view_columns=("text", "text_pair", "label"), headline=("text", "text_pair"), table_format=True,
        save_format="tsv", fill={"text_pair": ""}, sentence_head="siamese",
    ),
    KindSpec(
        "tagging", ("tokens", "tags"),
        datasets.Features({"tokens": datasets.Sequence(_STR), "tags": datasets.Sequence(_STR)}), "tags", TAGS,
        inputs=("tokens",), text_columns=("tokens",), view_columns=("tokens", "tags"), headline=("tokens",),
        save_format="conll",
        files="a CoNLL file with one word per line and a blank line between sentences, JSON Lines with a "
              "tokens list, or plain text with one sentence per line",
    ),
    KindSpec(
        "qa", ("id", "title", "context", "question", "answers"),
        datasets.Features({"id": _STR, "title": _STR, "context": _STR, "question": _STR, "answers": _ANSWERS}),
        "answers", ANSWERS, inputs=("question", "context"), text_columns=("question", "context", "title"),
        view_columns=("question", "context", "answers", "title"), headline=("question",), save_format="squad",
        key_column="id", fill={"title": ""},
        files="SQuAD JSON, or JSON Lines with context, question and answers",
    ),
)

KIND_SPECS: dict[str, KindSpec] = {spec.name: spec for spec in _BUILTIN}


def register_kind(spec: KindSpec) -> KindSpec:
    """Make ``spec`` known to the data layer (called by ``bertstudio.tasks.register_task``)."""
    if not isinstance(spec, KindSpec):
        raise TypeError(f"not a KindSpec: {spec!r}")
    KIND_SPECS[spec.name] = spec
    return spec


def require_kind(found: str, wanted: str | None, *, path: Any = None, where: str | None = None,
                 what: str = "the data", error: type[BertStudioError] = ConfigError) -> None:
    """Raise ``error`` when ``found`` (what a file, set or checkpoint holds) is not the kind
    ``wanted`` (None: anything goes); one wording for every place that checks it."""
    if wanted is not None and found != wanted:
        raise error(f"{what} holds {found} examples, not {wanted}", path=path, where=where, expected=f"{wanted} data")


def kind_names() -> tuple[str, ...]:
    """The registered kinds, built-in ones first."""
    return tuple(KIND_SPECS)


def get_spec(kind: str) -> KindSpec:
    """The spec of ``kind``, or a ConfigError listing the kinds there are."""
    try:
        return KIND_SPECS[kind]
    except (KeyError, TypeError):
        raise ConfigError(f"unknown task kind {kind!r}", where="task", expected=" | ".join(KIND_SPECS)) from None


class _SpecView(Mapping):
    """A read-only ``{kind: spec.<attribute>}`` view over the registry (for the older
    ``COLUMNS[kind]`` style of lookup; it follows registrations, it holds no copy)."""

    def __init__(self, attribute: str) -> None:
        self._attribute = attribute

    def __getitem__(self, kind: str) -> Any:
        return getattr(get_spec(kind), self._attribute)

    def __iter__(self) -> Iterator[str]:
        return iter(KIND_SPECS)

    def __len__(self) -> int:
        return len(KIND_SPECS)

    def __contains__(self, name: object) -> bool:
        return name in KIND_SPECS
