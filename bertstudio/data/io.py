"""One entry point to read and write examples in any supported format.

``load_examples`` picks the reader from ``fmt`` (or detects it), applies a GLUE
/ SNLI / CLUE preset when the file sits where that benchmark puts it (or when
``glue_task`` is given), and returns a full ExampleSet or raises a DataError:
never a half-loaded set, never a raw parser exception for bad input.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.common import MAX_TEXT_CHARS, check_length, decode, parse_json, read_bytes
from bertstudio.data.formats.conll import CONLLU_COLUMNS, line_fields, read_conll, write_conll
from bertstudio.data.formats.jsonl import read_jsonl, suggest_jsonl, write_jsonl
from bertstudio.data.formats.plaintext import line_words, read_text
from bertstudio.data.formats.squad import read_squad, write_squad
from bertstudio.data.formats.cells import unescape_cell, written_escaped
from bertstudio.data.formats.table import (
    ALIASES,
    TableOptions,
    check_header_names,
    SCORE_NAME,
    scored_kind,
    read_table,
    scan_records,
    suggest_columns,
)
from bertstudio.data.formats.table_write import write_table
from bertstudio.data.glue import (
    GlueTask,
    eval_split,
    get_preset,
    load_glue,
    preset_for_path,
    refuse_release_layout,
    save_glue,
)
from bertstudio.data.kinds import get_spec, require_kind
from bertstudio.errors import BertStudioError, ConfigError, DataError

FORMATS = ("csv", "tsv", "jsonl", "glue", "conll", "conllu", "squad", "text")
WRITTEN_FORMATS = tuple(f for f in FORMATS if f != "text")  # plain text is read only: it keeps no tags


def written_formats(kind: str, glue_task: str | None = None) -> tuple[str, ...]:
    """The formats :func:`save_examples` writes ``kind`` rows in, in WRITTEN_FORMATS order: the
    facts of the kind's spec each writer checks (a table's columns, CoNLL's tokens and tags, SQuAD's
    qa columns), and GLUE only for rows that carry their GLUE task (whose file layout it writes).
    An export offers these, not every format and then a refusal."""
    spec = get_spec(kind)
    try:
        glue = bool(glue_task) and spec.table_format and get_preset(glue_task or "").kind == kind
    except ConfigError:  # a task name no preset knows: no layout to write
        glue = False
    can = {"csv": spec.table_format, "tsv": spec.table_format, "jsonl": True, "glue": glue,
           "conll": spec.save_format == "conll", "conllu": spec.save_format == "conll",
           "squad": spec.save_format == "squad"}
    return tuple(f for f in WRITTEN_FORMATS if can.get(f, False))
_EXT = {
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".conllu": "conllu",
    ".conll": "conll", ".iob": "conll", ".bio": "conll", ".json": "squad",
}


def _first_records(text: str, n: int) -> list[Any]:
    """The first ``n`` non-empty lines of ``text`` parsed as JSON; [] when one of them is not
    (bad JSON, a 5,000-digit integer, deep nesting)."""
    lines = [ln.strip() for ln in text.split("\n", n)[:n] if ln.strip()]
    try:
        return [json.loads(ln) for ln in lines]
    except (ValueError, RecursionError):
        return []


# a tag as tagged corpora write it: O, or a scheme letter and a type (B-PER, I-LOC, E-ORG, S-MISC, U-X, L-X)
_TAG = re.compile(r"O|[BIESUL][-_]\S+")
_ANY_CASE_TAG = re.compile(_TAG.pattern, re.IGNORECASE)  # "o", "b-per": lower-case BIO


def _tag_like(field: str) -> bool:
    """Whether a last field reads as a tag: ``O``/``B-PER`` (BIO and its kin), or no lower-case
    letter (``NNP``, ``PRP$``, ``NR``, ``.``); a word of a sentence ("left", "Smith") has one."""
    return bool(_TAG.fullmatch(field)) or not any(c.islower() for c in field)


def _tagged_lines(body: list[str], blank: bool, apart: bool = False) -> bool:
    """Whether the non-blank lines ``body`` of a .txt read for tagging are CoNLL word-and-tag
    lines rather than sentences. Either they are tab-separated with sentences a blank line apart
    (``blank``), as bertstudio writes CoNLL; or the lines of more than one field all have as many
    fields, 2 to 6, each ending in a tag (:func:`_tag_like`), and at least one of those tags has an
    upper-case letter: "?", "." and Chinese words, neither upper nor lower case, end sentences too.
    "Hello world" over "Second line" read as the word "Hello" tagged "world", "turn left" over
    "go right" as "turn" tagged "left"; "Paris NNP" and "北京 NR" are CoNLL.
    Without a blank line between two groups of lines (``apart``) the lines are one "sentence", and
    an upper-case last word is weak evidence ("Austin TX" over "Boston MA", "I like NLP" over "You
    like ML" are lines of text): the tags must then recur or all be BIO tags. With groups apart,
    lower-case BIO tags ("John b-per", "lives o") are tags too."""
    tagged = [(ln.strip(" \t"), f) for ln, f in zip(body, map(line_fields, body)) if len(f) >= 2]
    if not tagged or len({len(f) for _ln, f in tagged}) > 1:
        return False
    if blank and all(ln == "\t".join(f) for ln, f in tagged):
        return True
    last = [f[-1] for _ln, f in tagged]
    if len(tagged[0][1]) > 6:
        return False
    if apart and all(_ANY_CASE_TAG.fullmatch(t) for t in last):
        return True
    if not (all(map(_tag_like, last)) and any(c.isupper() for t in last for c in t)):
        return False
    return apart or len(set(last)) < len(last) or all(_TAG.fullmatch(t) for t in last)


def detect_format(path: str | os.PathLike[str], *, presets: bool = True, kind: str | None = None) -> str:
    """The format of ``path``: a benchmark preset location first (unless ``presets`` is
    False), then the extension, then the content. ``kind``: the task the rows are for; for
    tagging, one token per line with blank lines between sentences is unlabelled CoNLL (a
    one-column text file would otherwise read as a table of one-word sentences), a .txt of
    word-and-tag lines is CoNLL (:func:`_tagged_lines`), and any other .txt is plain text, one
    sentence a line (a table cannot hold tagging rows: "Hello , world" read as two CSV columns
    and was then refused)."""
    if presets and preset_for_path(path) is not None:
        return "glue"
    ext = Path(path).suffix.lower()
    if ext in _EXT and ext != ".json":
        return _EXT[ext]
    head = read_bytes(path, head=1 << 16)  # the start tells; a 1 GB file is not read for it
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if ext == ".json":
        # SQuAD, unless its first lines are whole records without SQuAD's "data" and "version":
        # JSON Lines saved as .json (bertstudio's own export of a sentence set, one row or many)
        # read as SQuAD said "invalid JSON: Extra data" on line 2, or "missing 'data'"
        records = _first_records(stripped, 2)
        lines = bool(records) and all(isinstance(r, dict) and not {"data", "version"} & set(r) for r in records)
        return "jsonl" if lines else "squad"
    if stripped.startswith("{") or stripped.startswith("["):
        first = _first_records(stripped, 1)
        if first and isinstance(first[0], dict) and '"data"' not in stripped.split("\n", 1)[0][:200]:
            return "jsonl"
        return "squad" if '"data"' in text else "jsonl"
    lines = [ln.rstrip("\r") for ln in text.split("\n")[:200]]
    body = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    if body and all(len(ln.split("\t")) == 10 and ln.split("\t")[0].replace("-", "").replace(".", "").isdigit() for ln in body[:50]):
        return "conllu"
    if (kind == "tagging" and ext == ".txt" and not any(ln.startswith("-DOCSTART-") for ln in lines)
            and any(len(line_fields(ln)) >= 2 for ln in body)):
        # word-and-tag lines are CoNLL; any other lines of several words are sentences, one a line
        filled = [i for i, ln in enumerate(lines) if ln.strip()]
        apart = any(not ln.strip() for ln in lines[filled[0]:filled[-1]])  # a blank line between two lines
        return "conll" if _tagged_lines(body, any(not ln.strip() for ln in lines[:-1]), apart) else "text"
    if any(ln.startswith("-DOCSTART-") for ln in lines) or (
        "" in lines[:-1] and body and all(1 <= len(ln.split()) <= 6 and len(ln) < 200 for ln in body[:50])
        and any(len(ln.split()) >= 2 for ln in body[:50])
    ):
        return "conll"
    if kind == "tagging" and "" in lines[:-1] and body and all(len(ln.split()) == 1 for ln in body[:50]):
        return "conll"
    if kind == "tagging" and ext == ".txt":
        return "text"
    tabs = sum(ln.count("\t") for ln in body[:50])
    commas = sum(ln.count(",") for ln in body[:50])
    return "tsv" if tabs >= 1 and tabs * 3 >= commas or ext == ".txt" and tabs else ("csv" if commas else "tsv")


@dataclass(frozen=True)
class ReadSpec:
    """How the files of one run (or one import) are read: resolved once by
    :func:`resolve_spec`, from the caller's settings or the first (training) file, then
    applied to every file by :func:`read_with`. ``preset`` fixes layout, kind and label
    names (SNLI's 0/1/2 -> entailment/...); without one, ``fmt`` "auto" lets each file's
    own name or content say its syntax, never its location (that is what a preset is)."""

    fmt: str = "auto"
    preset: GlueTask | None = None
    kind: str | None = None
    columns: Mapping[str, str | int] | None = None
    labels: tuple[str, ...] | None = None
    tag_scheme: str | None = None
    header: bool | None = None
    strict_bio: bool = False


def resolve_spec(
    path: str | os.PathLike[str] | None,
    *,
    kind: str | None = None,
    fmt: str = "auto",
    columns: Mapping[str, str | int] | None = None,
    labels: Sequence[str] | None = None,
    glue_task: str | None = None,
    tag_scheme: str | None = None,
    header: bool | None = None,
    strict_bio: bool = False,
) -> ReadSpec:
    """The ReadSpec for these settings; ``path`` (the training file) names the preset when
    no ``glue_task`` does and the file sits where a benchmark keeps it."""
    fmt = (fmt or "auto").lower()
    if fmt not in FORMATS + ("auto",):
        raise ConfigError(f"unknown format {fmt!r}", expected="auto | " + " | ".join(FORMATS))
    preset = None
    if glue_task and fmt in ("auto", "glue"):
        preset, fmt = get_preset(glue_task), "glue"
    elif fmt in ("auto", "glue") and path is not None:
        found = preset_for_path(path)
        if found is not None:
            preset, fmt = found[0], "glue"
        elif fmt == "glue":
            raise ConfigError("cannot tell which GLUE task this file belongs to", path=path,
                              expected="glue_task=... or the file in its task folder (e.g. glue/RTE/dev.tsv)")
    return ReadSpec(fmt, preset, kind, dict(columns) if columns else None, tuple(labels) if labels is not None else None,
                    tag_scheme, header, strict_bio)


def read_with(
    spec: ReadSpec, path: str | os.PathLike[str], *, split: str | None = None, require_labels: bool = False
) -> ExampleSet:
    """Read one file as ``spec`` says; ``split`` picks a preset's layout (default: by file name)."""
    if spec.preset is not None:
        es = load_glue(spec.preset, path, split, require_labels=require_labels)
    else:
        fmt = spec.fmt if spec.fmt != "auto" else detect_format(path, presets=False, kind=spec.kind)
        kind, labels, columns = spec.kind, list(spec.labels) if spec.labels is not None else None, spec.columns
        if fmt in ("csv", "tsv"):
            # --header false says the release's own: no header (an explicit false skipped the check)
            if fmt == "tsv" and not columns and not spec.header:
                refuse_release_layout(path)
            opts = TableOptions(delimiter="," if fmt == "csv" else "\t", quoting=fmt == "csv", header=spec.header,
                                columns=columns, meta={"format": fmt}, formula_escaped=True, sniff=True)
            es = read_table(path, kind, opts, labels=labels, require_labels=require_labels)
        elif fmt == "jsonl":
            es = read_jsonl(path, kind, columns=columns, labels=labels, require_labels=require_labels,  # type: ignore[arg-type]
                            strict_bio=spec.strict_bio or (spec.tag_scheme or "").lower() in ("bio", "iob2"))
        elif fmt in ("conll", "conllu"):
            # CoNLL holds tagged words: a sentence model's labels checked against its tags said
            # "unknown label 'B-ORG'" instead of what is wrong
            require_kind("tagging", spec.kind, path=path, what="this file")
            es = read_conll(path, conllu=fmt == "conllu", tag_scheme=spec.tag_scheme, strict_bio=spec.strict_bio,
                            labels=labels, require_labels=require_labels,
                            columns=dict(columns) if columns else None)  # type: ignore[arg-type]
        elif fmt == "text":
            require_kind("tagging", spec.kind, path=path, what="this file")  # one sentence a line: words to tag
            es = read_text(path, require_labels=require_labels)
        else:
            es = read_squad(path, require_labels=require_labels)
    require_kind(es.kind, spec.kind, path=path, what="this file")
    if split:
        es.meta.setdefault("split", split)
    return es


def load_examples(
    path: str | os.PathLike[str],
    *,
    kind: str | None = None,
    fmt: str = "auto",
    columns: Mapping[str, str | int] | None = None,
    labels: Sequence[str] | None = None,
    glue_task: str | None = None,
    tag_scheme: str | None = None,
    split: str | None = None,
    header: bool | None = None,
    require_labels: bool = False,
    strict_bio: bool = False,
) -> ExampleSet:
    """Read ``path`` into an ExampleSet (see module doc). ``split`` picks a preset's layout (train/dev/test)."""
    spec = resolve_spec(path, kind=kind, fmt=fmt, columns=columns, labels=labels, glue_task=glue_task,
                        tag_scheme=tag_scheme, header=header, strict_bio=strict_bio)
    return read_with(spec, path, split=split, require_labels=require_labels)


def load_alongside(reference: ExampleSet, spec: ReadSpec, path: str | os.PathLike[str]) -> ExampleSet:
    """Another file of the run ``reference`` (the training set) belongs to, read with the
    same spec: its preset and label mapping, and the training set's label names.

    An evaluation file kept where another preset keeps its data is read with that preset's
    layout when the two agree on kind and labels (MNLI-mm's dev file for an MNLI run);
    otherwise, and for labels the training data does not have, one DataError names both
    files: a label the model never saw cannot become a new class at evaluation.
    """
    train = reference.source or "the training data"
    if spec.preset is not None:
        own = preset_for_path(path)
        task = spec.preset
        if own is not None and own[0].name != task.name:
            other = own[0]
            if (other.kind, other.labels, other.label_map) != (task.kind, task.labels, task.label_map):
                raise DataError(
                    f"this file sits where {other.name} data is kept, but the training data ({train}) is {task.name}",
                    path=path, expected=f"{task.name} evaluation data ({task.kind}, labels {', '.join(task.labels) or 'scores'})",
                )
            task = other
        return read_with(replace(spec, preset=task), path, split=eval_split(task, path))
    es = read_with(spec, path)
    if spec.labels is not None:  # the reader already held the file to the given label set
        return es
    known = set(reference.labels)
    unknown = [lab for lab in es.labels if lab not in known]
    if not unknown:
        return replace(es, labels=list(reference.labels))
    where = None
    try:  # read again against the training labels: the reader names the first line
        read_with(replace(spec, labels=tuple(reference.labels)), path)
    except DataError as exc:
        where = exc.where
    raise DataError(
        f"label {unknown[0]!r} is not among the training data's labels ({train})"
        + (f"; {len(unknown) - 1} more unknown" if len(unknown) > 1 else ""),
        path=path, where=where,
        expected="one of " + ", ".join(repr(x) for x in reference.labels) + " (or give the full label set with --labels)",
    )


def named_format(examples: ExampleSet, path: str | os.PathLike[str]) -> str | None:
    """The format ``path``'s extension names for ``examples``' kind; None when it names none (.xlsx,
    no extension). A .json file of a kind other than QA is JSON Lines; a .txt of tagging rows is
    CoNLL, as tagged corpora are often named and as :func:`detect_format` reads it back, unless the
    .txt already there holds CoNLL-U (a UD file saved as .txt), which stays CoNLL-U: as CoNLL its ID
    column became the token and its FORM column, the words, was named as lost."""
    ext = Path(path).suffix.lower()
    if ext == ".txt" and examples.spec.save_format == "conll":
        return "conllu" if _holds_conllu(path) else "conll"
    fmt = _EXT.get(ext)
    if fmt == "squad" and examples.spec.save_format != "squad":
        fmt = "jsonl"
    return fmt


def _holds_conllu(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a file :func:`detect_format` reads as CoNLL-U; False when it is none or
    cannot be read (the writer then says what is wrong)."""
    if not os.path.isfile(path):
        return False
    try:
        return detect_format(path, presets=False, kind="tagging") == "conllu"
    except (BertStudioError, OSError, UnicodeError, ValueError):
        return False


def save_format(examples: ExampleSet, path: str | os.PathLike[str]) -> str:
    """The format :func:`save_examples` writes to ``path`` when none is given: the file name's
    (:func:`named_format`), else the kind's own."""
    return named_format(examples, path) or examples.spec.save_format


_CONLLU_KEPT = {0: "ID", 1: "FORM", 3: "UPOS"}  # what bertstudio reads and writes of a CoNLL-U token line


@dataclass(frozen=True)
class LostColumns:
    """What an export over an existing file would not write (see :func:`columns_lost`)."""

    written: list[str]  # the columns the export writes
    names: list[str] = field(default_factory=list)  # the file's own column names it would not write
    positions: list[int] = field(default_factory=list)  # 1-based, of columns without a name (CoNLL's middle ones)
    unnamed: tuple[int, int] | None = None  # (how many, of how many) of a headerless file's columns
    # CoNLL and CoNLL-U: a few of each lost column's values, by its name or position ("NNP", "VBZ")
    values: dict[str | int, list[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.names or self.positions or self.unnamed)


def columns_lost(examples: ExampleSet, path: str | os.PathLike[str], *, fmt: str = "auto",
                 columns: Mapping[str, str] | None = None) -> LostColumns:
    """The columns of the file at ``path`` that writing ``examples`` over it would not write: a
    project keeps only the columns its task reads, so an export over the file the rows came from
    loses the others (an id, a note, CoNLL's POS and chunk columns, CoNLL-U's lemmas and heads).
    Nothing lost when there is no such file or it cannot be read (the writer then says what is
    wrong)."""
    fmt = save_format(examples, path) if (fmt or "auto").lower() == "auto" else fmt.lower()
    names = _file_columns(examples, columns) if fmt in ("csv", "tsv", "jsonl") else columns
    written = {"conll": ["token", "tag"], "conllu": list(_CONLLU_KEPT.values())}.get(
        fmt, [str((names or {}).get(c, c)) for c in examples.spec.columns])
    target = Path(path)
    if not target.is_file():
        return LostColumns(written)
    try:
        if fmt in ("csv", "tsv", "jsonl"):
            found = preview(target, fmt=fmt)
            if fmt != "jsonl" and not found.has_header:  # which positions the rows came from is not known here
                extra = len(found.columns) - len(written)
                return LostColumns(written, unnamed=(extra, len(found.columns)) if extra > 0 else None)
            # a column the export writes under bertstudio's name ("sentence" as "text") is renamed, not lost
            renamed = {a for c in examples.spec.columns for a in ALIASES.get(c, ())}
            return LostColumns(written, [n for n in found.columns if n not in written and n.strip().lower() not in renamed])
    except (BertStudioError, OSError, UnicodeError, ValueError):
        pass
    if fmt in ("conll", "conllu"):
        return unkept_columns(target, fmt)
    return LostColumns(written)


def unkept_columns(path: str | os.PathLike[str], fmt: str, *, shown: int = 3) -> LostColumns:
    """The columns of the CoNLL (``fmt`` "conll") or CoNLL-U file at ``path`` that bertstudio
    neither reads nor writes (CoNLL's middle ones: POS, chunk; CoNLL-U's lemmas, heads...), with
    up to ``shown`` of each one's values: Import names them, and an export over the file loses
    them. Read from the file's first 64 KiB; nothing when it cannot be read."""
    written = ["token", "tag"] if fmt == "conll" else list(_CONLLU_KEPT.values())
    try:
        lines = decode(read_bytes(path, head=1 << 16), path).splitlines()[:2000]
    except (BertStudioError, OSError, UnicodeError, ValueError):
        return LostColumns(written)
    fields = [ln.split("\t") if fmt == "conllu" else ln.split() for ln in lines
              if ln.strip() and not ln.startswith("#") and not ln.startswith("-DOCSTART-")]
    if fmt == "conll":  # the first column is the token, the last the tag
        lost = list(range(1, max((len(f) for f in fields), default=0) - 1))
        rows = [f for f in fields if len(f) > 2]
    else:
        rows = [f for f in fields if len(f) == 10]
        lost = sorted({i for f in rows for i in range(10) if f[i] != "_" and i not in _CONLLU_KEPT})
    values: dict[str | int, list[str]] = {}
    for i in lost:
        seen = list(dict.fromkeys(f[i] for f in rows if i < len(f) - (fmt == "conll") and f[i] != "_"))
        values[i + 1 if fmt == "conll" else CONLLU_COLUMNS[i]] = seen[: shown + 1]  # one more: "…" when there are more
    if fmt == "conll":
        return LostColumns(written, positions=[i + 1 for i in lost], values=values)
    return LostColumns(written, [CONLLU_COLUMNS[i] for i in lost], values=values)


def save_examples(
    examples: ExampleSet,
    path: str | os.PathLike[str],
    *,
    fmt: str = "auto",
    columns: Mapping[str, str] | None = None,
    glue_task: str | None = None,
) -> None:
    """Write ``examples`` atomically so that :func:`load_examples` reads back the same rows."""
    fmt = (fmt or "auto").lower()
    if fmt == "auto":
        fmt = save_format(examples, path)
    if fmt in ("csv", "tsv", "jsonl"):
        columns = _file_columns(examples, columns)
    if fmt == "glue":
        save_glue(examples, path, glue_task)
    elif fmt in ("csv", "tsv"):
        write_table(examples, path, delimiter="," if fmt == "csv" else "\t", quoting=fmt == "csv", columns=columns,
                    escape_formulas=True)
    elif fmt == "jsonl":
        write_jsonl(examples, path, columns=columns)
    elif fmt in ("conll", "conllu"):
        write_conll(examples, path, conllu=fmt == "conllu")
    elif fmt == "squad":
        write_squad(examples, path)
    else:
        raise ConfigError(f"unknown format {fmt!r}", expected=" | ".join(WRITTEN_FORMATS))


def _file_columns(examples: ExampleSet, columns: Mapping[str, str] | None) -> dict[str, str] | None:
    """The names a table or JSON Lines export gives its columns: a set of scores heads its gold
    column "score", which every reader takes for scores (a "label" of whole numbers, 0.0 to 5.0,
    read back as six classes). A name the caller gives wins."""
    spec = examples.spec
    if not spec.gold.numeric or (columns and spec.gold_column in columns):
        return dict(columns) if columns else None
    return {**(columns or {}), spec.gold_column: SCORE_NAME}


@dataclass
class Preview:
    """What an import dialog shows before loading: the first rows and a suggested mapping."""

    path: str
    format: str
    columns: list[str]  # header names, or "column 1".. for a file without header
    rows: list[list[str]]
    has_header: bool
    suggested_kind: str | None
    suggested_columns: dict[str, str | int] = field(default_factory=dict)
    preset: str | None = None
    labels: list[str] = field(default_factory=list)
    problem: str | None = None  # what reading the file this way will refuse (shown at once, not after Import)


def preview(path: str | os.PathLike[str], *, fmt: str = "auto", n: int = 50, header: bool | None = None,
            kind: str | None = None) -> Preview:
    """First ``n`` rows as strings plus a guess of kind and column mapping; raises DataError on unreadable files.
    ``header``: whether a CSV/TSV's first row names the columns (None: guess, table.sniff_header).
    ``kind``: the task the rows are for, where known (a project's import; see :func:`detect_format`)."""
    fmt = detect_format(path, kind=kind) if fmt == "auto" else fmt.lower()
    if fmt not in FORMATS:  # never fall through to the SQuAD reader
        raise ConfigError(f"unknown format {fmt!r}", path=path, expected="auto | " + " | ".join(FORMATS))
    # csv/tsv/jsonl/glue show their first megabyte: a 1 GB file was read whole, twice, on the GUI thread
    raw = read_bytes(path, head=None if fmt in ("conll", "conllu", "squad") else (1 << 20) + 1)
    head = raw[: 1 << 20]
    long_first = len(raw) > len(head) and b"\n" not in head  # line 1 runs past the preview's megabyte
    if len(raw) > len(head):  # cut after the last whole line, or the last whole character: never inside one
        cut = head.rfind(b"\n") + 1
        head = head[:cut] if cut else _whole_characters(head)
    text = decode(head, path)
    if fmt == "glue":
        found = preset_for_path(path)
        task, split = found if found else (None, "train")
        if task is None:
            raise ConfigError("cannot tell which GLUE task this file belongs to", path=path)
        layout = task.layouts.get(split) or task.layouts["train"]
        recs = [f for _l, f in _take(scan_records(text, task.delimiter, task.quoting), n + 1, path)]
        names = recs[0] if layout.header and recs else [f"column {i + 1}" for i in range(len(recs[0]) if recs else 0)]
        return Preview(str(path), fmt, names, recs[1:] if layout.header else recs, layout.header, task.kind,
                       dict(layout.columns), task.name, list(task.labels))
    if fmt in ("csv", "tsv"):
        from bertstudio.data.formats.table import SNIFF_ROWS, sniff_header, sniff_layout

        whole = len(raw) == len(head)
        delimiter, quoting = sniff_layout(text, "," if fmt == "csv" else "\t", fmt == "csv", whole=whole,
                                          full=(lambda: text) if whole else None)
        found = [f for _l, f in _take(scan_records(text, delimiter, quoting), max(n, SNIFF_ROWS) + 1, path)]
        if not found:
            raise DataError("file has no rows", path=path)
        has_header = sniff_header(found) if header is None else header
        if written_escaped(c for f in found[1 if has_header else 0:] for c in f):  # the rows, as loading reads them
            found = [[unescape_cell(c) for c in f] for f in found]
        recs = found[: n + 1]
        names = recs[0] if has_header else [f"column {i + 1}" for i in range(len(recs[0]))]
        kind, mapping = suggest_columns(recs[0] if has_header else None, recs[0])
        if has_header and not mapping and len(recs) > 1:  # only names it does not know: guess from a row
            kind, by_position = suggest_columns(None, recs[1])
            mapping = {column: recs[0][i] for column, i in by_position.items()}
        kind = scored_kind(kind, names, recs[1:] if has_header else recs, mapping.get("label"),
                           has_pair="text_pair" in mapping)
        problem = None
        try:  # the reader's own refusal, said under the preview rather than after Import
            if has_header:
                check_header_names(names, path, expected="each column named once, or the first row read as data")
        except DataError as exc:
            problem, kind, mapping = str(exc), None, {}
        return Preview(str(path), fmt, names, recs[1:] if has_header else recs[:n], has_header, kind, mapping,
                       problem=problem)
    if fmt == "jsonl":
        objs, problem = [], None
        for number, ln in enumerate(text.split("\n"), 1):
            if ln.strip() and len(objs) < n:
                try:
                    obj = parse_json(ln, path)
                except DataError as exc:
                    # a preview shows what it can and loading reports a later problem; with nothing to
                    # show, the problem is the preview's (a first line that is not JSON said nothing)
                    problem = None if objs else str(exc)
                    break
                if isinstance(obj, dict):
                    objs.append(obj)
                elif problem is None:
                    problem = f"{path}, line {number}: expected a JSON object ({{...}}) per line, found {type(obj).__name__}"
        if objs:
            problem = None
        names = list(dict.fromkeys(k for o in objs for k in o))
        kind, mapping = suggest_jsonl(objs) if names else (None, {})
        rows = [[_cell(o.get(k)) for k in names] for o in objs]
        return Preview(str(path), fmt, names, rows, True, kind, dict(mapping), problem=problem)
    if fmt == "text":  # the first sentences, as read_text splits them
        sentences = [words for words in map(line_words, text.split("\n")) if words][:n]
        if not sentences:
            raise DataError("no sentences found", path=path, expected="one sentence a line")
        problem = None
        if long_first:  # over the reader's limit? 4 bytes a character at most: read that far, no further
            first = decode(_whole_characters(read_bytes(path, head=4 * (MAX_TEXT_CHARS + 1))), path)
            try:
                check_length(first.split("\n", 1)[0].rstrip("\r"), "sentence", path, "line 1")
            except DataError as exc:
                problem = str(exc)
        return Preview(str(path), fmt, ["tokens", "tags"], [[" ".join(w), ""] for w in sentences], True, "tagging",
                       {"tokens": "tokens", "tags": "tags"}, problem=problem)
    if fmt in ("conll", "conllu"):
        es = load_examples(path, fmt=fmt)
        rows = [[" ".join(t), " ".join(g or [])] for t, g in zip(es.dataset[:n]["tokens"], es.dataset[:n]["tags"])]
        # the mapping names the preview's own two columns (the file's layout is fixed by its format):
        # CoNLL-U's file positions 1 and 3 read "Tokens = tags" and "Tags = —" in Import's column box
        return Preview(str(path), fmt, ["tokens", "tags"], rows, True, "tagging", {"tokens": "tokens", "tags": "tags"},
                       labels=es.labels)
    es = load_examples(path, fmt="squad")
    part = es.dataset[:n]
    rows = [[i, t, q, c[:200], " | ".join(a["text"]) if a else ""]
            for i, t, q, c, a in zip(part["id"], part["title"], part["question"], part["context"], part["answers"])]
    return Preview(str(path), fmt, ["id", "title", "question", "context", "answers"], rows, True, "qa",
                   {c: c for c in ("id", "title", "context", "question", "answers")})


def _whole_characters(head: bytes) -> bytes:
    """``head``, the start of a UTF-8 file, without a character its end cuts in two: a first line
    of 1.2 million "北" was refused in the Import preview as "not UTF-8" at byte 1,048,575."""
    lead = len(head) - 1
    while lead >= 0 and len(head) - lead < 4 and head[lead] & 0xC0 == 0x80:  # continuation bytes
        lead -= 1
    if lead < 0 or head[lead] < 0xC0:
        return head  # ends on a whole ASCII character (or bytes decode() refuses anyway)
    size = 2 if head[lead] < 0xE0 else 3 if head[lead] < 0xF0 else 4
    return head[:lead] if len(head) - lead < size else head


def _take(it: Any, n: int, path: Any) -> list[Any]:
    out = []
    try:
        for x in it:
            out.append(x)
            if len(out) >= n:
                break
    except DataError as exc:
        if not out:  # nothing to show: the reason, not "no rows"
            raise DataError(exc.problem, path=exc.path or path, where=exc.where, expected=exc.expected) from None
        # else a preview shows what it can; loading reports the problem
    return out


def _cell(v: Any) -> str:
    if isinstance(v, str):
        return v
    try:
        return json.dumps(v, ensure_ascii=False)
    except RecursionError:  # nested past the recursion limit: shown as such; loading refuses it in one line
        return "[…]"
