"""CoNLL-2003-style column files and CoNLL-U, to and from tagging ExampleSets.

Hand-written: no library in the stack reads these formats into Arrow with
line-accurate errors (``datasets`` only has per-dataset loading scripts).

CoNLL column files: one token per line, whitespace-separated columns (token
first, tag last by default), blank lines and ``-DOCSTART-`` lines end a
sentence; a line before a sentence that starts with a lone ``#`` and is not a
token line of the file's shape, or holds a lone ``=`` or a ``key=value`` tag
(MultiCoNER's ``# id ... domain=en``), is a comment, skipped. A file with a single column is unlabelled (tags None), and so is a
sentence of token-only lines among ``token tag`` ones. Tags in IOB1
(I- opens an entity) are converted to BIO; ``tag_scheme`` says which:
"auto" (detect), "iob1" (convert), "bio" (keep as is; with ``strict_bio`` an
I-X that continues nothing is an error), "none" (plain tags such as POS).

CoNLL-U: 10 tab-separated columns; word = FORM (column 2), tag = UPOS
(column 4); ``#`` comments, multiword ranges (``1-2``) and empty nodes
(``8.1``) are skipped.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterator, Sequence

from bertstudio.data.examples import ExampleSet
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.formats.common import (
    MAX_TEXT_CHARS,
    check_labels,
    check_length,
    check_tagging,
    check_writable_field,
    decode,
    first_bio_error,
    iob1_to_bio,
    read_bytes,
    to_example_set,
)
from bertstudio.errors import ConfigError, DataError

TAG_SCHEMES = ("auto", "bio", "iob2", "iob1", "none")
DOCSTART = "-DOCSTART-"  # a CoNLL-2003 line that ends a document (and a sentence), never a token
_CHUNK = 50_000


_SPLIT = re.compile(r"[ \t]+")
CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(text.split("\n"), 1):
        yield n, line[:-1] if line.endswith("\r") else line


def line_fields(line: str) -> list[str]:
    """The columns of one CoNLL line: split at spaces and tabs only (a token may hold U+00A0)."""
    return _SPLIT.split(line.strip(" \t")) if line.strip(" \t") else []


def _comment_test(text: str, tag_col: int | None) -> Any:
    """Which lines before a sentence are comments, not tokens: a lone ``#`` first, then another
    column count than the token lines, a lone ``=`` (``# sent_id = 3``) or a ``key=value`` in the
    tag column that no token line's tag has (MultiCoNER's ``# id 1f2c domain=en``). A hashtag
    (``#tbt``), a ``#`` token tagged ``#`` (Penn Treebank), ``SYM`` or with a feature column
    (``# PUNCT PunctType=Hash``) stays a token. None when no line starts with ``#``, or every
    line does (a file of hashtags)."""
    if not (text.startswith("#") or "\n#" in text):
        return None
    def token_lines() -> Iterator[list[str]]:
        for _n, line in _lines(text):
            fields = line_fields(line)
            if fields and fields[0] != "#" and fields[0] != DOCSTART:
                yield fields

    first = next(token_lines(), None)
    if first is None:
        return None
    ncols = len(first)
    g = tag_col if tag_col is not None else -1
    tag_equals: list[bool] = []  # whether a token line's tag holds "=" (then "=" there says nothing)

    shapes: list[set[int]] = []  # the column counts of the token lines, read once when asked

    def is_comment(fields: list[str]) -> bool:
        if fields[0] != "#":
            return False
        if len(fields) != ncols and not shapes:
            shapes.append({len(f) for f in token_lines()})
        # another count than every token line's: a file that holds unlabelled (token-only) sentences
        # beside tagged ones has two, and a lone "#" there is a token (bertstudio writes such files)
        if (len(fields) != ncols and len(fields) not in shapes[0]) or "=" in fields[1:]:
            return True
        if not (-ncols <= g < ncols and "=" in fields[g]):
            return False
        if not tag_equals:  # read the token lines once, only for a line this question reaches
            tag_equals.append(any(len(f) == ncols and "=" in f[g] for f in token_lines()))
        return not tag_equals[0]

    return is_comment


def _sentences_conll(text: str, path: Any, token_col: int, tag_col: int | None) -> Iterator[tuple[int, list[str], list[str] | None]]:
    """(first line, tokens, tags or None) per sentence. Every line of a sentence has the columns
    of its first line; a sentence of token-only lines in a file of ``token tag`` lines is an
    unlabelled one (as bertstudio writes a partly labelled set), while every labelled sentence
    has the columns of the file's first labelled line."""
    tokens: list[str] = []
    tags: list[str] = []
    start = 0
    ncols: int | None = None  # the file's labelled lines (the first token line's, until one has tags)
    here: int | None = None  # this sentence's
    is_comment = _comment_test(text, tag_col)
    for n, line in _lines(text):
        fields = line_fields(line)
        if not fields or fields[0] == DOCSTART:
            if tokens:
                yield start, tokens, (tags if here and here > 1 else None)
            tokens, tags, here = [], [], None
            continue
        if not tokens and is_comment is not None and is_comment(fields):
            continue  # a comment line before a sentence
        if here is None:  # a sentence's first line
            if ncols is None or (ncols == 1 and len(fields) > 1):
                ncols = len(fields)
            if len(fields) != ncols and not (len(fields) == 1 and tag_col is None):
                raise DataError(f"found {len(fields)} columns", path=path, where=f"line {n}",
                                expected=f"{ncols} columns like the first token line (token ... tag), or the "
                                         "token alone on every line of an unlabelled sentence")
            here = len(fields)
        elif len(fields) != here:
            raise DataError(f"found {len(fields)} columns", path=path, where=f"line {n}",
                            expected=f"{here} columns like the sentence's first line (line {start})")
        if not tokens:
            start = n
        t_i = token_col if token_col >= 0 else here + token_col
        if not 0 <= t_i < here:
            raise DataError(f"token column {token_col} does not exist", path=path, where=f"line {n}",
                            expected=f"a column among the {here} present")
        if len(line) > MAX_TEXT_CHARS:  # a file without line breaks was read as one 200 MB token
            for i, value in enumerate(fields):
                check_length(value, "token" if i == t_i else f"column {i + 1}", path, f"line {n}")
        tokens.append(fields[t_i])
        if here > 1:
            g_i = (tag_col if tag_col is not None else -1)
            g_i = g_i if g_i >= 0 else here + g_i
            if not 0 <= g_i < here:
                raise DataError(f"tag column {tag_col} does not exist", path=path, where=f"line {n}")
            tags.append(fields[g_i])
    if tokens:
        yield start, tokens, (tags if here and here > 1 else None)


def _sentences_conllu(text: str, path: Any, tag_col: int) -> Iterator[tuple[int, list[str], list[str] | None]]:
    tokens: list[str] = []
    tags: list[str] = []
    start = 0
    for n, line in _lines(text):
        if not line.strip():
            if tokens:
                yield start, tokens, tags
            tokens, tags = [], []
            continue
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(line) > MAX_TEXT_CHARS:
            for i, value in enumerate(fields):
                check_length(value, CONLLU_COLUMNS[i] if i < 10 else f"column {i + 1}", path, f"line {n}")
        if len(fields) != 10:
            raise DataError(f"found {len(fields)} tab-separated columns", path=path, where=f"line {n}",
                            expected="10 columns (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC)")
        tid = fields[0]
        if "-" in tid or "." in tid:
            continue
        if not tid.isdigit():
            raise DataError(f"token ID {tid!r} is not a number", path=path, where=f"line {n}",
                            expected="an integer ID, a range 1-2 or an empty node 8.1")
        if not tokens:
            start = n
        tokens.append(fields[1])
        tags.append(fields[tag_col])
    if tokens:
        yield start, tokens, tags


def _unlabelled_as_none(tags: list[str] | None) -> list[str] | None:
    # CoNLL-U writes "_" for a missing UPOS: a sentence tagged only "_" is unlabelled.
    return None if tags is not None and all(t == "_" for t in tags) else tags


def read_conll(
    path: str | os.PathLike[str],
    *,
    conllu: bool = False,
    tag_scheme: str | None = None,
    strict_bio: bool = False,
    labels: Sequence[str] | None = None,
    require_labels: bool = False,
    columns: dict[str, int] | None = None,
) -> ExampleSet:
    scheme = (tag_scheme or "auto").lower()
    if scheme not in TAG_SCHEMES:
        raise ConfigError(f"unknown tag scheme {tag_scheme!r}", expected=" | ".join(TAG_SCHEMES))
    strict_bio = strict_bio or (tag_scheme is not None and scheme in ("bio", "iob2"))
    text = decode(read_bytes(path), path)
    cols = columns or {}
    if conllu:
        sents = _sentences_conllu(text, path, int(cols.get("tags", 3)))
    else:
        sents = _sentences_conll(text, path, int(cols.get("tokens", 0)), cols.get("tags"))
    all_tokens: list[list[str]] = []
    all_tags: list[list[str] | None] = []
    starts: list[int] = []
    converted = False
    for start, toks, tags in sents:
        if conllu:
            tags = _unlabelled_as_none(tags)
        if tags is not None and scheme in ("auto", "iob1") and not conllu:
            if scheme == "iob1" or first_bio_error(tags) is not None:
                new = iob1_to_bio(tags)
                converted = converted or new != tags
                tags = new
        check_tagging(toks, tags, path, f"line {start}", strict_bio=strict_bio and scheme != "none")
        if require_labels and tags is None:
            raise DataError("sentence has no tags", path=path, where=f"line {start}", expected="a tag column")
        all_tokens.append(toks)
        all_tags.append(tags)
        starts.append(start)
    if not all_tokens:
        raise DataError("no sentences found", path=path, expected="token lines separated by blank lines")
    seen = {"O": None} if any(t and "O" in t for t in all_tags) else {}
    for tags in all_tags:
        for t in tags or ():
            seen.setdefault(t, None)
    if labels is not None:
        lab_set = set(labels)
        for start, tags in zip(starts, all_tags):
            bad = [t for t in tags or () if t not in lab_set]
            if bad:
                check_labels(bad[:1], list(labels), path, lambda _l, s=start: f"sentence at line {s}")
    meta = {"format": "conllu" if conllu else "conll"}
    if converted:
        meta["converted_from"] = "iob1"
    return to_example_set("tagging", {"tokens": all_tokens, "tags": all_tags},
                          list(labels) if labels is not None else list(seen), str(path), meta)


def _continues_nothing(tags: Sequence[str], at: int) -> tuple[str, str]:
    """What is wrong with ``tags[at]``, an I- tag that continues no entity (:func:`first_bio_error`):
    IOB1 only after O or at the start; "B-X I-Y" and a bare "I-" were said as IOB1 too. The sentence,
    and its kind for an interface's words: "no_type", "opens", "other_type", "none_open"."""
    tag, prev = tags[at][:40], (tags[at - 1][:40] if at else "O")
    if tag == "I-":
        return f"tag {at + 1} is 'I-', an inside tag without an entity type", "no_type"
    if prev == "O":
        return f"tag {at + 1} is {tag!r}, which opens an entity (IOB1)", "opens"
    if prev[:2] in ("B-", "I-"):
        return f"tag {at + 1} is {tag!r} after {prev!r}, which it does not continue (another entity type)", "other_type"
    return f"tag {at + 1} is {tag!r} after {prev!r}, which it does not continue", "none_open"  # after E-X, S-X


def write_conll(examples: ExampleSet, path: str | os.PathLike[str], *, conllu: bool = False) -> None:
    """One token per line (``token<TAB>tag``, or 10 CoNLL-U columns), blank line between sentences."""
    if examples.spec.save_format != "conll":  # token and tag columns, one tag per token
        raise ConfigError(f"cannot write {examples.kind} examples as CoNLL", path=path, expected="a tagging set")
    out: list[str] = []
    ds = examples.dataset.with_format("arrow")
    row = 0
    for batch in ds.iter(batch_size=_CHUNK):
        for toks, tags in zip(batch["tokens"].to_pylist(), batch["tags"].to_pylist()):
            row += 1
            if conllu:
                out.append(f"# sent_id = {row}")
            opens = None if conllu or tags is None else first_bio_error(tags)
            if opens is not None:  # IOB1 (a JSON Lines import keeps it): read back here as BIO, another tag set
                said, why = _continues_nothing(tags, opens)
                facts = {"refusal": "conll_tag", "why": why, "sentence": row, "tag": opens + 1,
                         "value": tags[opens][:40], "after": tags[opens - 1][:40] if opens else None,
                         "reads_as": f"B-{tags[opens][2:][:40]}"}  # for the Export dialog's words
                raise DataError(f"{said}, and a CoNLL file reads it back as BIO ('{facts['reads_as']}')", path=path,
                                where=f"sentence {row}", expected="save as CoNLL-U or JSONL, which keep the tags as they are",
                                facts=facts)
            for i, tok in enumerate(toks):
                tag = tags[i] if tags is not None else None
                forbidden = "\t\n\r" if conllu else " \t\n\r"
                formats = "JSONL" if conllu else "CoNLL-U or JSONL"  # the formats tagging can use
                check_writable_field(tok, f"token {i + 1}", f"sentence {row}", path, forbidden, formats=formats)
                if tag is not None:
                    check_writable_field(tag, f"tag {i + 1}", f"sentence {row}", path, forbidden, formats=formats)
                if not conllu and (tok == DOCSTART or (row == 1 and i == 0 and tok.startswith("\ufeff"))):
                    raise DataError(f"token {i + 1} is {tok[:40]!r}, which a CoNLL file reads as "
                                    + ("a document break" if tok == DOCSTART else "a byte-order mark and a token"),
                                    path=path, where=f"sentence {row}",
                                    expected="save as CoNLL-U or JSONL, which keep it as a token")
                if conllu:
                    out.append(f"{i + 1}\t{tok}\t_\t{tag if tag is not None else '_'}\t_\t_\t_\t_\t_\t_")
                else:
                    out.append(tok if tag is None else f"{tok}\t{tag}")
            out.append("")
    atomic_write_bytes(path, ("\n".join(out) + "\n").encode("utf-8"), parents=True)
