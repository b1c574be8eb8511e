"""JSON Lines (one object per line) for every task kind.

``columns`` maps ExampleSet columns to keys (default: the same names, or the
usual aliases such as ``sentence``/``premise``). Rows are turned into Arrow
in chunks, so a large file never holds more than one chunk of Python objects.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Mapping, Sequence

import pyarrow as pa

from bertstudio.data.examples import COLUMNS, FEATURES, ExampleSet, check_kind
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.formats.common import (
    check_labels,
    check_tagging,
    decode,
    label_order,
    parse_json,
    read_bytes,
    to_example_set,
)
from bertstudio.data.formats.squad import check_answers
from bertstudio.data.formats.table import ALIASES
from bertstudio.errors import ConfigError, DataError

_CHUNK = 50_000


def _suggest(keys: Sequence[str]) -> tuple[str, dict[str, str]]:
    keyset = set(keys)
    if {"tokens"} <= keyset:
        return "tagging", {c: c for c in ("tokens", "tags") if c in keyset} | {"tokens": "tokens"}
    if {"context", "question"} <= keyset:
        return "qa", {c: c for c in COLUMNS["qa"] if c in keyset}
    mapping: dict[str, str] = {}
    low = {k.lower(): k for k in keys}
    for col, aliases in ALIASES.items():
        for a in aliases:
            if a in low and low[a] not in mapping.values():
                mapping[col] = low[a]
                break
    return ("pair" if "text_pair" in mapping else "sentence"), mapping


def _text(v: Any, path: Any, where: str, what: str, allow_empty: bool = False) -> str:
    if not isinstance(v, str):
        raise DataError(f"{what} is {type(v).__name__}, not text", path=path, where=where, expected="a string")
    if not allow_empty and not v.strip():
        raise DataError(f"empty {what}", path=path, where=where, expected="non-empty text")
    return v


def _label(v: Any, kind: str, path: Any, where: str) -> Any:
    if v is None or v == "":
        return None
    if kind == "regression":
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise DataError(f"score {v!r} is not a number", path=path, where=where, expected="a number")
        try:
            x = float(v)
        except (ValueError, OverflowError):  # OverflowError: an integer beyond float's range
            shown = v if not isinstance(v, int) else f"{str(v)[:20]}... ({len(str(v))} digits)"
            raise DataError(f"score {shown!r} is not a number", path=path, where=where, expected="a number") from None
        if not math.isfinite(x):
            raise DataError(f"score {v!r} is not a finite number", path=path, where=where, expected="a finite number")
        return x
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise DataError(f"label {v!r} is not a string or integer", path=path, where=where, expected="a label name")
    return str(v)


def _str_list(v: Any, path: Any, where: str, what: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise DataError(f"{what} is not a list of strings", path=path, where=where, expected=f"{what} as [\"...\", ...]")
    return v


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
    found_labels: dict[str, None] = {}
    n_rows = 0
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"line {n}"
        rec = parse_json(line, path, line=n)
        if not isinstance(rec, dict):
            raise DataError(f"a JSON {type(rec).__name__}, not an object", path=path, where=where, expected="one {...} per line")
        if mapping is None:
            guessed, mapping = _suggest(list(rec))
            kind = kind or guessed
            if not mapping:
                raise DataError("cannot tell which keys hold the text", path=path, where=where,
                                expected="keys such as text/label, text/text_pair/label, tokens/tags or context/question/answers")
        kind = check_kind(kind or _suggest(list(mapping))[0])
        if schema is None:
            schema = FEATURES[kind].arrow_schema
            rows = {c: [] for c in COLUMNS[kind]}
        get = {c: rec.get(mapping.get(c, c)) for c in COLUMNS[kind]}
        _row(kind, get, rows, path, where, require_labels, strict_bio, found_labels)
        n_rows += 1
        if len(rows[COLUMNS[kind][0]]) >= _CHUNK:
            chunks.append(pa.Table.from_pydict(rows, schema=schema))
            rows = {c: [] for c in COLUMNS[kind]}
    if n_rows == 0 or kind is None:
        raise DataError("no rows found", path=path, expected="one JSON object per line")
    chunks.append(pa.Table.from_pydict(rows, schema=schema))
    table = pa.concat_tables(chunks)
    if labels is not None and kind in ("sentence", "pair", "tagging"):
        check_labels(list(found_labels), list(labels), path, lambda lab: f"label {lab!r}")
        out_labels = list(labels)
    elif kind in ("sentence", "pair"):
        out_labels = label_order(found_labels)
    elif kind == "tagging":
        out_labels = (["O"] if "O" in found_labels else []) + [t for t in found_labels if t != "O"]
    else:
        out_labels = []
    return to_example_set(kind, {c: table.column(c) for c in COLUMNS[kind]}, out_labels, str(path), {"format": "jsonl"})


def _row(kind: str, get: dict[str, Any], rows: dict[str, list[Any]], path: Any, where: str,
         require_labels: bool, strict_bio: bool, found: dict[str, None]) -> None:
    gold_col = {"tagging": "tags", "qa": "answers"}.get(kind, "label")
    if require_labels and get[gold_col] is None:
        raise DataError(f"row has no {gold_col}", path=path, where=where, expected=f"a {gold_col} on every row")
    if kind in ("sentence", "pair", "regression"):
        rows["text"].append(_text(get["text"], path, where, "text"))
        if kind != "sentence":
            tp = get["text_pair"] if get["text_pair"] is not None or kind == "pair" else ""
            rows["text_pair"].append(_text(tp, path, where, "text_pair", allow_empty=kind == "regression"))
        lab = _label(get["label"], kind, path, where)
        if lab is not None and kind != "regression":
            found.setdefault(lab, None)
        rows["label"].append(lab)
    elif kind == "tagging":
        toks = _str_list(get["tokens"], path, where, "tokens")
        tags = None if get["tags"] is None else _str_list(get["tags"], path, where, "tags")
        check_tagging(toks, tags, path, where, strict_bio=strict_bio)
        for t in tags or ():
            found.setdefault(t, None)
        rows["tokens"].append(toks)
        rows["tags"].append(tags)
    else:
        qid = get["id"]
        if isinstance(qid, bool) or not isinstance(qid, (str, int)):
            raise DataError("missing or invalid 'id'", path=path, where=where, expected="a string id")
        title = get["title"] if get["title"] is not None else ""
        context = _text(get["context"], path, where, "context")
        if str(qid) in found:
            raise DataError(f"duplicate question id {str(qid)!r}", path=path, where=where, expected="unique ids")
        found.setdefault(str(qid), None)  # QA has no labels: ``found`` tracks ids here
        rows["id"].append(str(qid))
        rows["title"].append(_text(title, path, where, "title", allow_empty=True))
        rows["context"].append(context)
        rows["question"].append(_text(get["question"], path, where, "question"))
        if get["answers"] is None:
            rows["answers"].append(None)
        else:
            t, s = check_answers(get["answers"], context, path, where)
            rows["answers"].append({"text": t, "answer_start": s})


def write_jsonl(examples: ExampleSet, path: str | os.PathLike[str], *, columns: Mapping[str, str] | None = None) -> None:
    names = {c: (columns or {}).get(c, c) for c in COLUMNS[examples.kind]}
    if len(set(names.values())) != len(names):
        raise ConfigError("column mapping sends two columns to the same key", path=path)
    out: list[str] = []
    for batch in examples.dataset.with_format("arrow").iter(batch_size=_CHUNK):
        for row in batch.to_pylist():
            out.append(json.dumps({names[c]: row[c] for c in names}, ensure_ascii=False))
    atomic_write_bytes(path, ("\n".join(out) + "\n").encode("utf-8"), parents=True)
