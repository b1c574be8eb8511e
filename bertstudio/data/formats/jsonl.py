"""JSON Lines (one object per line) for every task kind.

``columns`` maps ExampleSet columns to keys (default: the same names, or the
usual aliases such as ``sentence``/``premise``). What each key must hold comes
from the kind's spec (text, a list of tokens, a unique id, a gold value its gold
type parses), so a new kind reads without a change here. Rows are turned into Arrow
in chunks, so a large file never holds more than one chunk of Python objects.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Mapping, Sequence

import pyarrow as pa

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.common import (
    check_labels,
    check_length,
    check_no_nul,
    decode,
    parse_json,
    read_bytes,
    refuse_nul,
    to_example_set,
)
from bertstudio.data.formats.table import ALIASES, SCORE_NAME, scored_kind
from bertstudio.data.kinds import KIND_SPECS, KindSpec, get_spec, str_list
from bertstudio.errors import ConfigError, DataError

_CHUNK = 50_000
# Keys JSON Lines files use besides the table's: Hugging Face's token-tagging exports
_JSONL_ALIASES = {"tags": ("ner_tags", "pos_tags", "upos")}


def _suggest(keys: Sequence[str] | Mapping[str, int]) -> tuple[str, dict[str, str]]:
    """(kind, column -> key) for records with these keys: the first kind (most inputs first)
    whose every input column is there under its own name or a usual alias. Its own name wins
    (a partly labelled file holds "label" in fewer records than a "topic" it also has); among
    aliases, the one most records have. ``keys`` may count the records holding each key; an
    input most records lack (a "hypothesis" in one record of six) makes no kind."""
    counts = keys if isinstance(keys, Mapping) else dict.fromkeys(keys, 1)
    low = {k.lower(): k for k in counts}
    most = max(counts.values(), default=0)
    for spec in sorted(KIND_SPECS.values(), key=lambda s: -len(s.inputs)):  # stable: registration order
        mapping: dict[str, str] = {}
        for col in spec.columns:
            if col in low and low[col] not in mapping.values():
                mapping[col] = low[col]
                continue
            aliases = [low[a] for a in (*ALIASES.get(col, ()), *_JSONL_ALIASES.get(col, ()))
                       if a in low and low[a] not in mapping.values()]
            if aliases:  # the alias most records have ("category" over a "class" in one record)
                mapping[col] = max(aliases, key=lambda k: counts[k])  # max keeps the first of equals
        # an input most records lack (a "hypothesis" in one record of six) makes no pair set
        if all(c in mapping and 2 * counts[mapping[c]] >= most for c in spec.inputs):
            return spec.name, mapping
    return "sentence", {}


SUGGEST_RECORDS = 50  # records whose keys the guess of the mapping reads (the import preview shows as many)


def key_counts(records: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many of ``records`` hold each key, in order of appearance: what the mapping is guessed
    from (the first record alone lost every label when it had none yet)."""
    counts: dict[str, int] = {}
    for rec in records:
        for key in rec:
            counts[key] = counts.get(key, 0) + 1
    return counts


def _label_cells(records: Sequence[dict[str, Any]], key: str | None) -> list[list[str]]:
    """The records' ``key`` values as the preview shows them (numbers as JSON), one cell a row."""
    return [[v if isinstance(v, str) else json.dumps(v)] for r in records
            if key and (v := r.get(key)) is not None and not isinstance(v, bool)]


def suggest_jsonl(records: Sequence[dict[str, Any]]) -> tuple[str, dict[str, str]]:
    """(kind, column -> key) the first ``records`` read as: the one guess the reader and Import's
    preview share. A gold key holding a JSON float (``0.0``: JSON tells a number with a point from
    a class id), with one text or two, or two texts and a gold key named "score", or decimal scores
    are a regression set; a "label" of 0.0 ... 5.0, written by a regression export, read as six
    classes and was refused. One rule for one text and two: whole floats made a one-text file
    classes 1 ... 5 and the same rows with a second text scores. Class ids pandas wrote as 1.0
    read as the ids with the kind given (:class:`~bertstudio.data.gold.LabelGold`)."""
    kind, mapping = _suggest(key_counts(records))
    key = mapping.get("label")
    if kind in ("sentence", "pair") and key is not None:
        values = [r.get(key) for r in records]
        # a finite float, and no label written as a name: a NaN (json.dumps' word for a missing value)
        # in a file of names made it scores, and the names then "not a number"
        floats = any(isinstance(v, float) and math.isfinite(v) for v in values) and \
            not any(isinstance(v, str) for v in values)
        if floats or (kind == "pair" and key.strip().lower() == SCORE_NAME):
            return "regression", mapping
    return scored_kind(kind, ["label"], _label_cells(records, key), "label"), mapping


def _first_records(text: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    start = 0
    while len(records) < SUGGEST_RECORDS and start < len(text):  # line by line: no list of every line
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, start = text[start:end], end + 1
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            break
        if not isinstance(rec, dict):
            break
        records.append(rec)
    return records


def _text(v: Any, path: Any, where: str, what: str, allow_empty: bool = False) -> str:
    if not isinstance(v, str):
        raise DataError(f"{what} is {type(v).__name__}, not text", path=path, where=where, expected="a string")
    if not allow_empty and not v.strip():
        raise DataError(f"empty {what}", path=path, where=where, expected="non-empty text")
    return check_length(v, what, path, where)


def read_jsonl(
    path: str | os.PathLike[str],
    kind: str | None = None,
    *,
    columns: Mapping[str, str] | None = None,
    labels: Sequence[str] | None = None,
    require_labels: bool = False,
    strict_bio: bool = False,
) -> ExampleSet:
    text = decode(read_bytes(path), path)
    mapping = dict(columns) if columns else None
    chunks: list[pa.Table] = []
    rows: dict[str, list[Any]] = {}
    schema = None
    found_labels: dict[str, str] = {}  # label -> the line it first appears on
    keys: set[str] = set()  # the key column's values seen (unique ids)
    n_rows = 0
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"line {n}"
        refuse_nul(line, path, line=n)
        rec = parse_json(line, path, line=n)
        if not isinstance(rec, dict):
            raise DataError(f"a JSON {type(rec).__name__}, not an object", path=path, where=where, expected="one {...} per line")
        if mapping is None:  # from the keys of the first records, not the first alone (it may have no label yet)
            first = _first_records(text) or [rec]  # a line that is not an object ends the look; reading reports it
            guessed, mapping = suggest_jsonl(first)
            kind = kind or guessed
            if not mapping:
                raise DataError("cannot tell which keys hold the text", path=path, where=where,
                                expected="keys such as text/label, text/text_pair/label, tokens/tags or context/question/answers")
        spec = get_spec(kind or _suggest(list(mapping))[0])
        kind = spec.name
        if schema is None:
            schema = spec.arrow_schema
            rows = {c: [] for c in spec.columns}
        get = {c: rec.get(mapping.get(c, c)) for c in spec.columns}
        _row(spec, get, rows, path, where, require_labels, strict_bio, found_labels, keys)
        n_rows += 1
        if len(rows[spec.columns[0]]) >= _CHUNK:
            chunks.append(pa.Table.from_pydict(rows, schema=schema))
            rows = {c: [] for c in spec.columns}
    if n_rows == 0 or kind is None:
        raise DataError("no rows found", path=path, expected="one JSON object per line")
    chunks.append(pa.Table.from_pydict(rows, schema=schema))
    table = pa.concat_tables(chunks)
    spec = get_spec(kind)
    if labels is not None and spec.has_label_set:
        check_labels(list(found_labels), list(labels), path, found_labels.__getitem__)
        out_labels = list(labels)
    else:
        out_labels = spec.gold.order_labels(list(found_labels))
    return to_example_set(kind, {c: table.column(c) for c in spec.columns}, out_labels, str(path), {"format": "jsonl"})


def _row(spec: KindSpec, get: dict[str, Any], rows: dict[str, list[Any]], path: Any, where: str,
         require_labels: bool, strict_bio: bool, found: dict[str, str], keys: set[str]) -> None:
    """Check one record by what its spec says each column is, and append it to ``rows``."""
    gold_col = spec.gold_column
    if require_labels and get[gold_col] is None:
        raise DataError(f"row has no {gold_col}", path=path, where=where, expected=f"a {gold_col} on every row")
    values: dict[str, Any] = {}
    for col in spec.columns:
        v = get[col]
        if col == gold_col:
            continue
        if col == spec.key_column:
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                raise DataError(f"missing or invalid {col!r}", path=path, where=where, expected=f"a string {col}")
            if str(v) in keys:
                raise DataError(f"duplicate {col} {str(v)!r}", path=path, where=where, expected=f"unique {col}s")
            keys.add(str(v))
            values[col] = str(v)
        elif spec.is_list_column(col):
            values[col] = str_list(v, col, where, path)
        elif col in spec.inputs:
            values[col] = _text(v, path, where, col)
        else:  # optional text: regression's second sentence, a QA title
            values[col] = _text((spec.fill or {}).get(col, "") if v is None else v, path, where, col, allow_empty=True)
    gold = spec.gold.parse(get[gold_col], values, where, path, strict_bio=strict_bio)
    if spec.has_label_set:
        for name in spec.gold.count_keys(gold):
            found.setdefault(name, where)
    values[gold_col] = gold
    for col in spec.columns:
        rows[col].append(values[col])


def write_jsonl(examples: ExampleSet, path: str | os.PathLike[str], *, columns: Mapping[str, str] | None = None) -> None:
    names = {c: (columns or {}).get(c, c) for c in examples.spec.columns}
    if len(set(names.values())) != len(names):
        raise ConfigError("column mapping sends two columns to the same key", path=path)
    out: list[str] = []
    for batch in examples.dataset.with_format("arrow").iter(batch_size=_CHUNK):
        for row in batch.to_pylist():
            line = json.dumps({names[c]: row[c] for c in names}, ensure_ascii=False)
            check_no_nul(line, "a text", f"row {len(out) + 1}", path, json_text=True)  # json.dumps writes it as \u0000
            out.append(line)
    atomic_write_bytes(path, ("\n".join(out) + "\n").encode("utf-8"), parents=True)
