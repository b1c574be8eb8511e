"""Delimited text tables (CSV, TSV, GLUE-style TSV) to and from an ExampleSet.

Valid files go through pyarrow's multi-threaded CSV parser straight into Arrow
columns (a 550k-row TSV loads in about a second, without a Python object per
row); checks on values run as pyarrow compute kernels. Only when something is
wrong does a slow Python pass re-scan the file to name the exact line.

``columns`` maps ExampleSet columns to file columns, by header name or by
0-based position (negative positions count from the end, as MNLI's gold label
is the last of 12 or 16 columns).
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Mapping, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.cells import unescape_cell, unescape_column, written_escaped
from bertstudio.data.formats.common import (
    BOM,
    MAX_TEXT_CHARS,
    check_labels,
    check_length,
    check_utf8,
    decode,
    head_text,
    read_bytes,
    to_example_set,
)
from bertstudio.data.gold import MAX_SCORE, SCORE_RULE
from bertstudio.data.kinds import get_spec
from bertstudio.errors import ConfigError, DataError

# Header names that say which column is which (lower-cased), for sniffing and suggestions.
ALIASES: dict[str, tuple[str, ...]] = {
    "text": ("text", "sentence", "sentence1", "text_a", "premise", "question1", "question", "s1", "#1 string",
             "review", "content", "body", "tweet", "comment", "utterance", "document", "message"),
    "text_pair": ("text_pair", "sentence2", "text_b", "hypothesis", "question2", "s2", "#2 string"),
    "label": ("label", "labels", "gold_label", "score", "similarity", "relatedness", "quality", "is_duplicate", "class", "target",
              "sentiment", "category", "intent", "topic", "polarity", "emotion", "rating"),
}
_KNOWN = {a for names in ALIASES.values() for a in names} | {"index", "id", "idx", "qid"}
# The gold column's name that says "scores, not classes" (STS-B's word): what the writers head a
# regression set's gold column with, so that the guess reads it back as regression even when every
# score is a whole number (a 0-5 rating scale read back as six classes under "label").
SCORE_NAME = "score"
# Gold headers that say "scores" for one-text tables as well as pairs: 1-10 ratings under "score"
# or "rating" were read as 10 classes, class-weighted, without a word ("label" stays classes).
SCORE_NAMES = (SCORE_NAME, "rating")
WHOLE = re.compile(r"[+-]?\d+")


@dataclass
class TableOptions:
    """How one delimited file is laid out."""

    delimiter: str = "\t"
    quoting: bool = False  # standard CSV quoting; GLUE-style TSVs have it off
    header: bool | None = None  # None: sniff
    columns: Mapping[str, str | int] | None = None
    ncols: int | None = None  # expected column count (None: that of the first row)
    label_map: Mapping[str, str] | None = None  # file value -> label name (SNLI 0/1/2)
    score_range: tuple[float, float] | None = None  # STS-B: 0..5
    meta: dict[str, Any] = field(default_factory=dict)
    formula_escaped: bool = False  # cells may carry write_table's spreadsheet-formula escape
    sniff: bool = False  # a user's file: its content may overrule delimiter and quoting (sniff_layout)


MAX_COLUMNS = 1000  # a table of examples: text, labels, ids and some metadata


def scan_records(text: str, delimiter: str, quoting: bool, start_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """(1-based line number, fields) of every non-empty record, the way pyarrow splits them.
    A record of more than :data:`MAX_COLUMNS` fields is refused (300,000 columns froze the
    Import dialog for 30 s filling its preview)."""
    if not quoting:
        for n, line in enumerate(text.split("\n"), start_line):
            line = line[:-1] if line.endswith("\r") else line
            if line:
                fields = line.split(delimiter, MAX_COLUMNS)
                if len(fields) > MAX_COLUMNS:
                    raise _too_wide(line.count(delimiter) + 1, n)
                yield n, fields
        return
    if csv.field_size_limit() < MAX_TEXT_CHARS:  # csv's default (131,072) would refuse what the other formats load
        csv.field_size_limit(MAX_TEXT_CHARS)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quotechar='"', doublequote=True, strict=True)
    line = start_line
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            where = f"line {reader.line_num + start_line - 1}"
            if "field limit" in str(exc):  # csv's limit is MAX_TEXT_CHARS: the same words as the other formats
                raise DataError(f"a field of more than {MAX_TEXT_CHARS:,} characters", where=where,
                                expected="shorter fields (split or shorten the text)") from None
            raise DataError(f"bad CSV quoting: {exc}", where=where) from None
        if len(fields) > MAX_COLUMNS:
            raise _too_wide(len(fields), line)
        if fields:
            yield line, fields
        line = reader.line_num + start_line


def _too_wide(n: int, line: int) -> DataError:
    return DataError(f"a row of {n:,} columns", where=f"line {line}",
                     expected=f"a table of at most {MAX_COLUMNS:,} columns (the examples' text, labels and ids)")


def _positions(columns: Mapping[str, str | int] | None) -> dict[str, str | int] | None:
    """A column mapping with each whole number written as text ("0", "-1": the CLI's and a
    run config's spelling) read as the position it is."""
    if not columns:
        return None
    return {k: int(v) if isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()) else v for k, v in columns.items()}


def _take_records(text: str, opts: TableOptions, n: int) -> list[tuple[int, list[str]]]:
    """Up to ``n`` records from the start of ``text``, stopping quietly at a damaged or cut
    one (the head of a big file may end inside a record; reading reports real damage)."""
    out: list[tuple[int, list[str]]] = []
    try:
        for rec in scan_records(text, opts.delimiter, opts.quoting):
            out.append(rec)
            if len(out) >= n:
                break
    except DataError:
        pass
    return out


def _first_record(text: str, opts: TableOptions) -> tuple[int, list[str]]:
    for line, fields in scan_records(text, opts.delimiter, opts.quoting):
        return line, fields
    raise DataError("file has no rows", expected="at least one example")


_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")
SNIFF_ROWS = 200  # records after the first that the header guess reads
SNIFF_LINES = 500  # lines of a file's head that the delimiter and quoting guesses read
FULL_CHECK_CHARS = 16 << 20  # a quoted TSV up to this size is checked whole (half a second), beyond by its quoted lines
_QUOTE_LINES = re.compile(r'^[^\n]*"[^\n]*$', re.MULTILINE)
QUOTED_FIELD = re.compile(r'"(?:[^"]|"")*"')  # one field in standard CSV quoting, quotes and all
_OTHER_DELIMITERS = {",": ("\t", ";"), "\t": (",", ";")}


def sniff_layout(text: str, delimiter: str, quoting: bool, *, whole: bool,
                 full: Callable[[], str] | None = None) -> tuple[str, bool]:
    """``(delimiter, quoting)`` for a user's CSV/TSV from its first lines (``text``: the head
    of the file; ``whole``: it is the whole file, not cut). The extension says the delimiter
    and the quoting; the content may overrule it when it plainly says otherwise:

    * a file that the extension's delimiter reads as one column, or as rows of different
      widths, while another one (tab, semicolon, comma) splits its header into names that
      include a known one (text, label, sentence, ...) and every line into the same number of
      columns, uses that one: a tab-separated ``.csv`` or a European Excel ``text;label``
      file read as one column of unlabelled text, without a word. Without such a header the
      extension stands (sentences hold commas and semicolons);
    * a tab-separated file in standard CSV quoting (AG News' TSVs, Excel's tab-delimited and
      Unicode Text exports: ``"He said ""hi"" twice"``) is read with quoting when nothing else
      explains it: a quoted field holds a doubled quote, or a quoted tab or line break that
      only quoting makes consistent, or every field of a table of two or more columns is
      quoted; what the head says is checked on the whole file (``full``: its text; of one past
      :data:`FULL_CHECK_CHARS`, the lines that hold a quote), whose every quote must then read
      as CSV quoting. GLUE's own TSVs (lone quotes in text) go
      through their presets with quoting off, and so does a TSV whose quotes read the same
      either way.
    """
    split = text.split("\n")
    if not whole and len(split) > 1:
        split = split[:-1]  # the head may end inside a line
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in split[:SNIFF_LINES]]
    body = [ln for ln in lines if ln.strip()]
    own = {len(f) for _line, f in _quiet_records("\n".join(body), delimiter, quoting)}
    if len(body) >= 2 and not (len(own) == 1 and min(own) >= 2):  # one column, or rows that do not agree
        for other in _OTHER_DELIMITERS.get(delimiter, ()):
            if _names_columns(body[0], other):
                widths = {len(f) for _line, f in _quiet_records("\n".join(body), other, other != "\t" or quoting)}
                if len(widths) == 1 and min(widths) >= 2:
                    delimiter = other
                    quoting = other != "\t"  # a tab-separated .csv gets a TSV's quoting guess below
                    break
    if delimiter == "\t" and not quoting:
        quoting = _tsv_quoted(body, whole and len(split) <= SNIFF_LINES)
        if quoting and full is not None and not (whole and len(split) <= SNIFF_LINES):
            # a quote past the sampled lines that is no CSV quoting ("He said "no" to me") would
            # merge rows: the whole file must agree, else its quotes are text, as before. Python's
            # csv reads ~30 MB/s: past FULL_CHECK_CHARS, when no quoted field spans lines in the
            # head, the lines that hold a quote are the ones that can disagree, so they are read
            text = full()
            spans = len({len(ln.split("\t")) for ln in body}) != 1  # quoted tabs or line breaks seen
            if len(text) > FULL_CHECK_CHARS and not spans:
                everything = body[:1] + _QUOTE_LINES.findall(text)
            else:
                everything = text.split("\n")
            quoting = _tsv_quoted([ln[:-1] if ln.endswith("\r") else ln for ln in everything if ln.strip()], True)
    return delimiter, quoting


def _names_columns(line: str, delimiter: str) -> bool:
    """Whether ``line`` split by ``delimiter`` is a header naming a column bertstudio knows (text,
    label, sentence, ...): a file of sentences that each hold one comma or semicolon is no table."""
    names = line.split(delimiter)
    return (len(names) >= 2 and all(n.strip() and n == n.lstrip() for n in names)
            and any(n.strip().lower() in _KNOWN for n in names))


def _quiet_records(text: str, delimiter: str, quoting: bool) -> list[tuple[int, list[str]]]:
    """The records of ``text``; [] when the way of splitting it is wrong."""
    try:
        return list(scan_records(text, delimiter, quoting))
    except DataError:
        return []


def _tsv_quoted(lines: list[str], whole: bool) -> bool:
    """Whether tab-separated ``lines`` (a file's first ones) use standard CSV quoting."""
    plain = [ln.split("\t") for ln in lines]
    opened = [f for row in plain for f in row if f.startswith('"')]
    if not opened:
        return False
    records: list[list[str]] = []
    try:
        for _line, fields in scan_records("\n".join(lines) + "\n", "\t", True):
            records.append(fields)
    except DataError as exc:
        # a quoted field may run past the end of a cut head; anything else: quotes are text here
        if whole or "unexpected end of data" not in exc.problem or not records:
            return False
    if len({len(r) for r in records}) != 1:
        return False
    if len({len(r) for r in plain}) != 1:
        return True  # quoted tabs or line breaks: only quoting reads every row alike
    if any(QUOTED_FIELD.fullmatch(f) and '""' in f[1:-1] for f in opened):
        return True
    # QUOTE_ALL quotes empty fields too: an empty label beside a quoted quotation is no quoting
    return len(plain[0]) >= 2 and all(QUOTED_FIELD.fullmatch(f) for row in plain for f in row)


def sniff_header(records: Sequence[Sequence[str]], *, text_at: int | None = None) -> bool:
    """Whether the first of ``records`` (a file's first ones) names the columns.

    It does when it holds a column name bertstudio knows (text, sentence, label, ...) that
    is not also a value of its column below (a dialog-act set whose first row is labelled
    "question" is data). Otherwise the rows below decide, as csv.Sniffer does: a column
    whose other cells are all numbers under a first cell that is not one (a score, an id,
    a 0/1 label), or a label column whose values repeat (a class set) while the first
    row's value occurs nowhere below it ("sentiment" over pos/neg). Without such evidence
    the first row is data, as in GLUE's headerless files.

    ``text_at``: the text column's position when the person mapped the columns by position,
    which is how a file without a header is read. Then a first label that occurs nowhere below
    says "header" only over a first text that reads as a name, one word ("Headline" over
    "World"/"Sports"), not over a sentence: a headerless file whose first row was its only
    "neutral" review lost that row.
    """
    if not records:
        return False
    first = [f.strip() for f in records[0]]
    rest = [[f.strip() for f in r] for r in records[1:SNIFF_ROWS + 1] if len(r) == len(first)]
    known = [c for c, f in enumerate(first) if f.lower() in _KNOWN]
    if known:
        return not any(first[c] in {r[c] for r in rest} for c in known)
    if len(rest) < 2:
        return False
    for c, top in enumerate(first):
        below = [r[c] for r in rest if r[c]]
        if len(below) >= 2 and all(_NUMBER.fullmatch(v) for v in below) and top and not _NUMBER.fullmatch(top):
            return True
    mapping = suggest_columns(None, records[0])[1]
    worded = text_at is not None and 0 <= text_at < len(first) and len(first[text_at].split()) > 1
    if "label" in mapping and len(rest) >= 4 and not worded:
        c = mapping["label"]
        below = [r[c] for r in rest]
        if len(set(below)) * 2 <= len(below) and first[c] not in set(below):
            return True
    return False


def suggest_columns(names: Sequence[str] | None, first: Sequence[str]) -> tuple[str, dict[str, str | int]]:
    """A guess of (kind, columns mapping) from header names, or from a headerless first row."""
    mapping: dict[str, str | int] = {}
    if names is not None:
        low = [n.strip().lower() for n in names]
        for col, aliases in ALIASES.items():
            for a in aliases:
                if a in low and names[low.index(a)] not in mapping.values():
                    mapping[col] = names[low.index(a)]
                    break
    else:
        def labelish(v: str) -> bool:
            return 0 < len(v) <= 20 and " " not in v.strip()

        n = len(first)
        if n == 1:
            mapping = {"text": 0}
        elif n == 2:
            mapping = {"label": 0, "text": 1} if labelish(first[0]) and not labelish(first[1]) else {"text": 0, "label": 1}
        elif n >= 3:
            mapping = {"text": n - 3, "text_pair": n - 2, "label": n - 1} if labelish(first[-1]) else {"text": n - 2, "text_pair": n - 1}
    return _kind_of(mapping, names), mapping


def decimal_scores(names: Sequence[str], rows: Sequence[Sequence[str]], column: str | int | None) -> bool:
    """Whether ``column`` (a header name or a position) of a preview's ``rows`` holds finite numbers,
    some with a fraction (3.8, 0.5): scores to predict, as STS-B's, not a class per value. A pair
    file's gold column named anything but "score" read as classes, and training refused them."""
    values = _cells(names, rows, column)
    try:
        numbers = [float(v) for v in values or ()]
    except ValueError:
        return False
    return bool(numbers) and all(math.isfinite(n) for n in numbers) and any(not n.is_integer() for n in numbers)


def scored_kind(kind: str | None, names: Sequence[str], rows: Sequence[Sequence[str]],
                label: str | int | None, *, has_pair: bool = False) -> str | None:
    """``kind`` as a reader guessed it, or "regression" for a sentence or pair set whose gold column
    holds decimal scores (:func:`decimal_scores`): the one rule the preview and the readers share.
    A one-text file of decimal scores read as one class per value (its second text is optional).
    And back: a set guessed "regression" from its header ("score", "rating") whose gold column holds
    words (positive/negative) is classes, a pair set with ``has_pair``: the header alone made a
    sentiment file a scores project, refused at its first word ("score 'positive' is not a number")."""
    if kind in ("sentence", "pair") and decimal_scores(names, rows, label):
        return "regression"
    if kind == "regression" and _holds_words(names, rows, label):
        return "pair" if has_pair else "sentence"
    return kind


def _holds_words(names: Sequence[str], rows: Sequence[Sequence[str]], column: str | int | None) -> bool:
    """Whether ``column`` of a preview's ``rows`` holds a value that is no number (empty cells aside)."""
    for value in _cells(names, rows, column) or ():
        try:
            float(value)
        except ValueError:
            return True
    return False


def _cells(names: Sequence[str], rows: Sequence[Sequence[str]], column: str | int | None) -> list[str] | None:
    """The non-empty, stripped cells of ``column`` (a header name or a position) in a preview's
    ``rows``; None when there is no such column."""
    if column is None:
        return None
    try:
        at = int(column) if str(column).lstrip("-").isdigit() else list(names).index(str(column))
    except ValueError:
        return None
    return [row[at].strip() for row in rows if len(row) > abs(at) and row[at].strip()]


def _kind_of(mapping: Mapping[str, str | int], names: Sequence[str] | None) -> str:
    """The table kind a mapping reads: a gold column headed "score" or "rating" (STS-B's word, a
    rating scale's) makes a regression set, with one text or two; else a second text makes a pair."""
    has_pair = "text_pair" in mapping
    scored = names is not None and str(mapping.get("label", "")).strip().lower() in SCORE_NAMES
    return "regression" if scored else "pair" if has_pair else "sentence"


def gold_reading(kind: str | None, names: Sequence[str], rows: Sequence[Sequence[str]],
                 mapping: Mapping[str, str | int]) -> str | None:
    """One line saying how a guessed ``kind`` reads a table's gold column, where a person could
    mean the other reading (said by the CLI when no --task was given): scores from a "score" or
    "rating" header or from decimals, or classes from three or more whole numbers (a rating scale?).
    None when there is nothing to say (names as labels, 0/1)."""
    label = mapping.get("label")
    if label is None or kind not in ("sentence", "pair", "regression"):
        return None
    try:
        at = int(label) if str(label).lstrip("-").isdigit() else list(names).index(str(label))
        values = {row[at].strip() for row in rows if len(row) > abs(at) and row[at].strip()}
    except (ValueError, IndexError):
        return None
    column = repr(names[at]) if -len(names) <= at < len(names) else f"column {at + 1}"
    if kind == "regression":
        why = "its header says so" if str(names[at] if -len(names) <= at < len(names) else "").strip().lower() \
            in SCORE_NAMES else "it holds numbers with decimals"
        classes = "pair" if "text_pair" in mapping else "sentence"
        return f"reading {column} as scores to predict (task regression): {why}; --task {classes} reads it as classes"
    if len(values) > 2 and all(WHOLE.fullmatch(v) for v in values):
        return (f"reading {column} as {len(values)} classes (task {kind}): its values are whole numbers; "
                "--task regression predicts them as a score")
    return None


def _resolve(col: str | int, names: Sequence[str] | None, n: int, path: Any, where: str) -> int:
    if isinstance(col, int) and not isinstance(col, bool):
        idx = col + n if col < 0 else col
        if not 0 <= idx < n:
            raise DataError(f"column {col} does not exist: the file has {n} columns", path=path, where=where)
        return idx
    if names is None:
        raise DataError(
            f"column {col!r} named, but the file has no header row", path=path, where=where,
            expected="column positions (0, 1, ...) for a file without header",
        )
    if col not in names:
        raise DataError(
            f"missing column {col!r}", path=path, where=where, expected="one of " + ", ".join(repr(x) for x in names)
        )
    return list(names).index(col)


def read_table(
    path: str | os.PathLike[str],
    kind: str | None,
    opts: TableOptions,
    *,
    labels: Sequence[str] | None = None,
    require_labels: bool = False,
) -> ExampleSet:
    raw = read_bytes(path)
    check_utf8(raw, path)
    if opts.sniff:
        head = 1 << 20
        delimiter, quoting = sniff_layout(head_text(raw, head), opts.delimiter, opts.quoting, whole=len(raw) <= head,
                                          full=lambda: decode(raw, path))
        opts = replace(opts, delimiter=delimiter, quoting=quoting, sniff=False)
    # Quoted fields may span lines, so a quoted table is sniffed from its whole text.
    if opts.quoting:  # a quoted first record may span lines: sniff 1 MB, or all of a bigger header
        text = head_text(raw, 1 << 20)
        if len(raw) > 1 << 20:
            try:
                _first_record(text, opts)
            except DataError:
                text = decode(raw, path)
    else:  # enough bytes to hold the whole first record, even a 1 MB line
        m = re.search(rb"[^\r\n]", raw[len(BOM):] if raw.startswith(BOM) else raw)
        end = raw.find(b"\n", m.start() + len(BOM)) if m else -1
        text = head_text(raw, max(1 << 16, end + 1 if end >= 0 else len(raw)))
    try:
        first_line, first = _first_record(text, opts)
    except DataError as exc:
        raise DataError(exc.problem, path=path, where=exc.where, expected=exc.expected) from None
    columns = _positions(opts.columns)
    header = opts.header
    if header is None:
        if columns and any(isinstance(v, str) for v in columns.values()):  # a mapping by name needs a header
            header = True
        else:  # one by positions says nothing about the first row: "text,label" over the rows is still a header
            records = [f for _l, f in _take_records(text, opts, SNIFF_ROWS + 1)]
            at = columns.get("text") if columns else None
            header = sniff_header(records or [first], text_at=at if isinstance(at, int) and at >= 0 else None)
    names = [(unescape_cell(f) if opts.formula_escaped else f).strip() for f in first] if header else None
    if names is not None:
        check_header_names(names, path, first_line)
    n = opts.ncols or len(first)
    if len(first) != n:
        raise DataError(f"found {len(first)} columns", path=path, where=f"line {first_line}", expected=f"{n} columns")
    mapping = dict(columns) if columns else None
    if mapping is None:
        guessed_kind, mapping = suggest_columns(names, first)
        if "text" not in mapping:
            if names:
                shown = ", ".join(repr(x) for x in names[:6])
                raise DataError(
                    f"cannot tell which column holds the text: the first row, read as a header ({shown}), "
                    "names none",
                    path=path, where=f"line {first_line}",
                    expected="a column mapping by those names (columns text=NAME,label=NAME), or by 0-based "
                             "position if the first row is data (columns text=0,label=1)",
                )
            raise DataError(
                "cannot tell which column holds the text", path=path, where=f"line {first_line}",
                expected="a header naming a text column (text, sentence, ...) or a column mapping "
                         "(columns text=0,label=1 by 0-based position)",
            )
        if kind is None and guessed_kind in ("sentence", "pair", "regression"):  # scores by their values, as preview says
            rows = [f for _l, f in _take_records(text, opts, SNIFF_ROWS + 1)][1 if names else 0:]
            guessed_kind = scored_kind(guessed_kind, names or [str(i) for i in range(len(first))], rows,
                                       mapping.get("label"), has_pair="text_pair" in mapping)
        kind = kind or guessed_kind
    spec = get_spec(kind or _kind_of(mapping, names))
    kind = spec.name
    if not spec.table_format:
        # one line a person can act on: no nested brackets, no kind names of the code
        table = {",": "comma-separated", "\t": "tab-separated"}.get(opts.delimiter, f"{opts.delimiter!r}-delimited")
        # "this task's": the command line has no project (and the app's own words are its Import page's)
        raise ConfigError(f"a {table} table cannot hold the examples of this task", path=path,
                          expected=spec.files or "a format other than a table")
    unknown = set(mapping) - set(spec.columns)
    if unknown and not columns:  # the header's own columns, not a mapping the person gave
        found = ", ".join(repr(names[v] if isinstance(v, int) and names else v) for v in mapping.values())
        theirs = _kind_of(mapping, names)
        raise DataError(f"the header's columns ({found}) are {theirs} data, not {kind}", path=path,
                        where=f"line {first_line}",
                        expected=f"task {theirs}, or a column mapping for {kind} (columns "
                                 + ",".join(f"{c}=NAME" for c in spec.columns) + ")")
    if unknown:
        raise ConfigError(f"column mapping names {sorted(unknown)}, not columns of a {kind} set", path=path,
                          expected=", ".join(spec.columns))
    missing = [c for c in spec.inputs if c not in mapping]
    if missing:
        need = " and ".join(missing)
        raise ConfigError(f"column mapping lacks {need}", path=path, expected=f"a file column for {need}")
    where_map = "column mapping"
    idx = {c: _resolve(v, names, n, path, where_map) for c, v in mapping.items()}
    twice = [c for c in idx if list(idx.values()).count(idx[c]) > 1]
    if twice:  # text=0,label=0 made every text its own class
        raise DataError(f"{' and '.join(twice)} name the same column ({idx[twice[0]]})", path=path, where=where_map,
                        expected="a different file column for each")

    if names is not None and not columns:
        _refuse_unnamed_data_column(names, idx, text, opts, path, first_line)

    # Feed pyarrow everything from the first record on; skip the header row itself.
    del text
    # The first record starts at the first byte that is not a line break (blank lines skipped).
    bom = len(BOM) if raw.startswith(BOM) else 0
    m = re.search(rb"[^\r\n]", raw[bom:])
    start = bom + (m.start() if m else 0)
    data_bytes = raw[start:] if start else raw
    table = _parse(data_bytes, n, header, opts, path, first_line)
    return _columns_to_set(table, idx, kind, n, opts, path, data_bytes, first_line, header, labels, require_labels)


def _refuse_unnamed_data_column(names: Sequence[str], idx: Mapping[str, int], text: str, opts: TableOptions, path: Any,
                                first_line: int) -> None:
    """A header cell left empty ("text,") over a column that holds values: that column (the
    labels, most often) would be dropped without a word. Refused, naming it and the way out;
    an empty column under an empty name (a trailing delimiter) is fine. ``idx``: the columns
    the header's names give (example column -> file column)."""
    unnamed = [i for i, name in enumerate(names) if not name and i not in idx.values()]
    rows = [fields for _line, fields in _take_records(text, opts, SNIFF_ROWS + 1)[1:]] if unnamed else []
    for i in unnamed:
        values = [fields[i].strip() for fields in rows if len(fields) > i and fields[i].strip()]
        if i == 0 and len(values) == len(rows) >= 10 and all(v.isdigit() for v in values) \
                and all(int(b) == int(a) + 1 for a, b in zip(values, values[1:])):
            continue  # the row numbers pandas' to_csv() writes first, under no name (0, 1, 2, ... unlike labels)
        if values:
            read = [f"{c}={names[j]}" for c, j in idx.items()]
            if "label" in idx:  # the labels have their column: reading only the named ones leaves this out knowingly
                way_out = f"a column mapping of what to read, which leaves it out (columns {','.join(read)})"
            else:
                way_out = f"a column mapping by position (columns {','.join([*read, f'label={i}'])})"
            raise DataError(
                f"column {i} has no name in the header but holds values (such as {values[0][:40]!r}), "
                "which would be left out",
                path=path, where=f"line {first_line}",
                expected=f"a name for it in the header, or {way_out}",
            )


def _parse(data: bytes, n: int, header: bool, opts: TableOptions, path: Any, first_line: int) -> pa.Table:
    names = [f"c{i}" for i in range(n)]
    try:
        table = pacsv.read_csv(
            pa.BufferReader(_arrow_owned(data)),
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=1 if header else 0, block_size=1 << 22),
            parse_options=pacsv.ParseOptions(
                delimiter=opts.delimiter,
                quote_char='"' if opts.quoting else False,
                double_quote=True,
                newlines_in_values=opts.quoting,
                ignore_empty_lines=True,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in names}, strings_can_be_null=False, quoted_strings_can_be_null=False
            ),
        )
    except pa.ArrowInvalid as exc:  # a row with the wrong column count, bad quoting: name its line
        _diagnose(data, n, header, opts, path, first_line)
        raise DataError(f"cannot parse the table: {exc}", path=path) from None
    return table


def _arrow_owned(data: bytes) -> pa.Buffer:
    """A copy of ``data`` in Arrow's own memory (one memcpy).

    pyarrow's threaded CSV reader can finish its last tasks on a pool thread after
    ``read_csv`` has returned (apache/arrow#36389, #38676). If the input buffer is a
    Python object, that thread must take the GIL to release it; when the interpreter is
    already shutting down, CPython ends the thread with pthread_exit inside a C++
    destructor and the process dies with SIGABRT ("terminate called without an active
    exception"; fixed in Arrow itself by apache/arrow#49942, after the pyarrow pinned
    here). An Arrow-owned buffer, and no Python ``invalid_row_handler`` (also released
    under the GIL), leave the reader nothing that needs Python to free.
    """
    buf = pa.allocate_buffer(len(data))
    memoryview(buf).cast("B")[:] = data
    return buf


def _diagnose(data: bytes, n: int, header: bool, opts: TableOptions, path: Any, first_line: int) -> None:
    """Slow pass over a file pyarrow refused: raise a DataError naming the first bad line."""
    text = data.decode("utf-8")
    text = text[1:] if text.startswith("\ufeff") else text
    try:
        for line, fields in scan_records(text, opts.delimiter, opts.quoting, first_line):
            if len(fields) != n:
                raise DataError(f"found {len(fields)} columns", path=path, where=f"line {line}", expected=f"{n} columns")
            for value in fields:  # a line longer than pyarrow's block ("straddles two block boundaries")
                check_length(value, "field", path, f"line {line}")
    except DataError as exc:
        raise DataError(exc.problem, path=path, where=exc.where, expected=exc.expected) from None


def _line_of_row(data: bytes, row: int, header: bool, opts: TableOptions, first_line: int) -> str:
    text = data.decode("utf-8")
    text = text[1:] if text.startswith("\ufeff") else text
    want = row + (1 if header else 0)
    try:
        for i, (line, _fields) in enumerate(scan_records(text, opts.delimiter, opts.quoting, first_line)):
            if i == want:
                return f"line {line}"
    except DataError:  # csv's own limits (a field too long) stop the scan: the row number is still right
        pass
    return f"row {row + 1}"


def _first_true(mask: pa.ChunkedArray | pa.Array) -> int | None:
    mask = pc.fill_null(mask, False)
    if not pc.any(mask).as_py():
        return None
    return int(pc.index(mask, True).as_py())


def _columns_to_set(
    table: pa.Table, idx: dict[str, int], kind: str, n: int, opts: TableOptions, path: Any, data: bytes,
    first_line: int, header: bool, labels: Sequence[str] | None, require_labels: bool,
) -> ExampleSet:
    def where(row: int) -> str:
        return _line_of_row(data, row, header, opts, first_line)

    if table.num_rows == 0:
        raise DataError("file has a header but no rows", path=path, expected="at least one example")
    spec = get_spec(kind)
    escaped = opts.formula_escaped and written_escaped(table.columns)  # every column, as the preview reads them
    cols: dict[str, Any] = {}
    for c in spec.columns:
        if c == spec.gold_column:
            continue
        if c not in idx:  # an optional column the file does not have
            cols[c] = pa.array([(spec.fill or {}).get(c, "")] * table.num_rows, pa.string())
            continue
        arr = table.column(idx[c])
        if escaped:
            arr = unescape_column(arr)
        if c in spec.inputs:  # what a person typed must be there
            bad = _first_true(pc.match_substring_regex(arr, r"^\s*$"))
            if bad is not None:
                raise DataError(f"empty {c}", path=path, where=where(bad), expected="non-empty text")
            long = _first_true(pc.greater(pc.utf8_length(arr), MAX_TEXT_CHARS))  # TSVs are split without csv's limit
            if long is not None:
                check_length(arr[long].as_py(), c, path, where(long))
        cols[c] = arr
    if "label" in idx:
        lab = table.column(idx["label"])
        if escaped:
            lab = unescape_column(lab)
        # "text, label" over "good movie, pos": the space after a comma is layout, not the label's
        # (ASCII spaces only: a no-break or ideographic space is the label's own)
        lab = pc.utf8_trim(lab, " ") if not spec.gold.numeric else lab
        lab = pc.if_else(pc.equal(lab, ""), pa.scalar(None, pa.string()), lab)
    else:
        lab = pa.nulls(table.num_rows, pa.string())
    if require_labels and lab.null_count:
        bad = _first_true(pc.is_null(lab))
        raise DataError("row has no label", path=path, where=where(bad), expected="a label on every row")
    if spec.gold.numeric:
        cols["label"] = _scores(lab, opts, path, where)
        out_labels: list[str] = []
    else:
        if opts.label_map:
            keys = pa.array(list(opts.label_map), pa.string())
            pos = pc.index_in(lab, value_set=keys)
            bad = _first_true(pc.and_(pc.is_valid(lab), pc.is_null(pos)))
            if bad is not None:
                raise DataError(f"unknown label {lab[bad].as_py()!r}", path=path, where=where(bad),
                                expected="one of " + ", ".join(repr(k) for k in opts.label_map))
            lab = pc.take(pa.array(list(opts.label_map.values()), pa.string()), pos)
        found = [v for v in pc.unique(lab).to_pylist() if v is not None]
        if labels is not None:
            allowed = pa.array(list(labels), pa.string())
            bad = _first_true(pc.and_(pc.is_valid(lab), pc.invert(pc.is_in(lab, value_set=allowed))))
            if bad is not None:
                check_labels([lab[bad].as_py()], list(labels), path, lambda _l: where(bad))
            out_labels = list(labels)
        else:
            out_labels = spec.gold.order_labels(found)
        cols["label"] = lab
    meta = dict(opts.meta)
    return to_example_set(kind, cols, out_labels, str(path), meta)


def _scores(lab: Any, opts: TableOptions, path: Any, where: Any) -> pa.Array:
    # " 3.5 " is 3.5, as float() and the JSONL reader read it; a blank score is no score.
    trimmed = pc.utf8_trim_whitespace(lab)
    trimmed = pc.if_else(pc.equal(trimmed, ""), pa.scalar(None, pa.string()), trimmed)
    try:
        scores = pc.cast(trimmed, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        # Slow pass on a bad file only: the first value Arrow's parser refuses, by its line.
        for i, v in enumerate(trimmed.to_pylist()):
            if v is not None and not _arrow_float(v):
                raise DataError(f"score {lab[i].as_py()!r} is not a number", path=path, where=where(i),
                                expected="a number" + (" in [%g, %g]" % opts.score_range if opts.score_range else "")) from None
        raise DataError("scores are not numbers", path=path, expected="numbers")
    finite = pc.is_finite(scores)
    bad = _first_true(pc.invert(finite))
    if bad is not None:
        raise DataError(f"score {lab[bad].as_py()!r} is not a finite number", path=path, where=where(bad))
    bad = _first_true(pc.greater(pc.abs(scores), MAX_SCORE))
    if bad is not None:
        raise DataError(f"score {lab[bad].as_py()!r} is too large to learn", path=path, where=where(bad),
                        expected=SCORE_RULE)
    if opts.score_range:
        lo, hi = opts.score_range
        bad = _first_true(pc.or_(pc.less(scores, lo), pc.greater(scores, hi)))
        if bad is not None:
            raise DataError(f"score {lab[bad].as_py()!r} is out of range", path=path, where=where(bad),
                            expected=f"a number in [{lo:g}, {hi:g}]")
    return scores


def check_header_names(names: Sequence[str], path: Any, line: int = 1, *, expected: str | None = None) -> None:
    """A DataError for a header naming a column twice (names compared stripped, as they are read)."""
    stripped = [n.strip() for n in names if n.strip()]  # unnamed ones (",," at Excel's row ends) are not names
    if len(set(stripped)) != len(stripped):
        dup = next(x for x in stripped if stripped.count(x) > 1)
        raise DataError(f"duplicate column name {dup!r} in the header", path=path, where=f"line {line}", expected=expected)


def _arrow_float(v: str) -> bool:
    try:
        pc.cast(pa.scalar(v), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return False
    return True
