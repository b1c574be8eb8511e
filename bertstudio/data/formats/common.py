"""Shared pieces of every reader and writer: byte checks, decoding, label checks
(atomic writes: :mod:`bertstudio.data.atomic`).

Readers first read the whole file as bytes (benchmark files are tens of MB at
most) so that every problem can be reported with a byte offset and a line
number, then hand the bytes to a fast parser (pyarrow) or a small hand-written
one for the formats no library parses (CoNLL, CoNLL-U).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any, Sequence

import datasets
import pyarrow as pa
from datasets.table import InMemoryTable

from bertstudio.data.examples import FEATURES, ExampleSet
from bertstudio.data.regular_file import read_regular_file
from bertstudio.errors import DataError

BOM = b"\xef\xbb\xbf"
# The longest text one field may hold, the same in every format (the CSV reader raises csv's own
# limit to it). A model reads at most a few thousand characters of a text (max_length tokens);
# a 50 MB JSONL field was tokenised whole first (117 s, 14 GB). A megabyte still loads.
MAX_TEXT_CHARS = 1 << 20


def check_length(value: str, what: str, path: Any, where: str) -> str:
    """``value``, or a DataError when it is longer than one field may be."""
    if len(value) > MAX_TEXT_CHARS:
        raise DataError(f"{what} of {len(value):,} characters", path=path, where=where,
                        expected=f"at most {MAX_TEXT_CHARS:,} characters in one field (split or shorten it)")
    return value


def line_of_offset(raw: bytes, offset: int) -> int:
    """1-based line number of a byte offset."""
    return raw.count(b"\n", 0, offset) + 1


def read_bytes(path: str | os.PathLike[str], *, head: int | None = None) -> bytes:
    """The file's text as UTF-8 bytes, refusing missing, empty, binary and non-regular files.

    UTF-16 and UTF-32 files (Windows Notepad and Excel's "Unicode text" write them) are
    decoded by their byte-order mark and handed on as UTF-8, so every reader sees one
    encoding; a doubled UTF-8 BOM (a BOM-writing tool run over a BOM file) reads as one; a
    file with CR line ends only gets LF ones.
    """
    p = Path(path)
    raw = read_regular_file(p, head=head)
    if head is not None and len(raw) >= head and any(raw.startswith(mark) for mark, _c, _n in _WIDE_BOMS):
        raw = read_regular_file(p)  # UTF-16/32 decode whole (cut anywhere, a character could split)
    raw = _as_utf8(raw, p)
    if b"\n" not in raw and b"\r" in raw:
        # classic Mac OS line ends (CR only), as old Excel for Mac writes them: every reader splits
        # lines on LF (a CR-only CoNLL file read as one 6-column line, its sentences merged)
        raw = raw.replace(b"\r", b"\n")
    body = raw[len(BOM):] if raw.startswith(BOM) else raw
    if not body.strip():
        raise DataError("file is empty", path=p, expected="at least one example")
    nul = body.find(b"\x00")
    if nul >= 0:
        guess = _utf16_without_bom(body)
        if guess is not None:
            raise DataError(
                f"looks like {guess} text without a byte-order mark",
                path=p,
                expected="UTF-8 text (or UTF-16 with its byte-order mark): save the file as UTF-8",
            )
        off = nul + (len(raw) - len(body))
        raise DataError(
            f"binary file: NUL byte at byte offset {off}",
            path=p,
            where=f"line {line_of_offset(raw, off)}",
            expected="a UTF-8 text file",
        )
    return raw


# Longest first: the UTF-32-LE mark begins with the UTF-16-LE one.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)


def _as_utf8(raw: bytes, path: Path) -> bytes:
    """UTF-16/32 (by BOM) re-encoded as UTF-8; a run of UTF-8 BOMs collapsed to one."""
    for mark, codec, name in _WIDE_BOMS:
        if raw.startswith(mark):
            try:
                text = raw[len(mark):].decode(codec)
            except UnicodeDecodeError as exc:
                line = raw[len(mark):len(mark) + exc.start].decode(codec, errors="replace").count("\n") + 1
                raise DataError(
                    f"not valid {name}: {exc.reason} at byte offset {exc.start + len(mark)}",
                    path=path,
                    where=f"line {line}",
                    expected=f"a {name} file as its byte-order mark says (or save it as UTF-8)",
                ) from None
            return text.encode("utf-8")
    while raw.startswith(BOM + BOM):
        raw = raw[len(BOM):]
    return raw


def _utf16_without_bom(body: bytes) -> str | None:
    """"UTF-16-LE"/"UTF-16-BE" when NUL bytes sit on every other byte, as in mostly-ASCII
    UTF-16 text; None for other binary data."""
    sample = body[:4096]
    half = len(sample) // 2
    if half < 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if odd >= 0.5 * half and even <= 0.05 * half:
        return "UTF-16-LE"
    if even >= 0.5 * half and odd <= 0.05 * half:
        return "UTF-16-BE"
    return None


def decode(raw: bytes, path: str | os.PathLike[str]) -> str:
    """UTF-8 text without a leading BOM; a bad byte is reported with its offset and line."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(
            f"not UTF-8: byte 0x{raw[exc.start]:02x} at byte offset {exc.start} cannot be decoded",
            path=path,
            where=f"line {line_of_offset(raw, exc.start)}",
            expected="a UTF-8 text file (save it as UTF-8)",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def check_utf8(raw: bytes, path: str | os.PathLike[str]) -> None:
    """Raise the DataError of :func:`decode` without ever holding the whole decoded text."""
    import codecs

    dec = codecs.getincrementaldecoder("utf-8")()
    step = 1 << 22
    try:
        for off in range(0, len(raw), step):
            dec.decode(raw[off:off + step], final=off + step >= len(raw))
    except UnicodeDecodeError:
        decode(raw, path)  # slow path only for a bad file: names the offset and line
        raise


def head_text(raw: bytes, limit: int = 1 << 16) -> str:
    """The first ``limit`` bytes as text (already validated), BOM dropped, cut at a character boundary."""
    text = raw[:limit].decode("utf-8", errors="ignore")
    return text[1:] if text.startswith("\ufeff") else text


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_INT = re.compile(r"-?\d{%d,}" % 4301)


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object hook: the object as a dict, unless a key repeats (json keeps the last value)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        raise _RepeatedKey(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return obj


def _repeated_key_line(text: str) -> int | None:
    """The line where the object holding a repeated key starts (None when it cannot be told).
    Only on the error path: it re-parses with json's pure-Python scanner, the one whose
    object parser can be wrapped to learn where the innermost offending object begins."""
    import json.decoder
    import json.scanner

    decoder = json.JSONDecoder(object_pairs_hook=_unique_keys)
    start: list[int] = []

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> Any:
        try:
            return json.decoder.JSONObject(s_and_end, *args)
        except _RepeatedKey:
            if not start:  # the innermost object raises first
                start.append(s_and_end[1])
            raise

    decoder.parse_object = parse_object  # type: ignore[assignment]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(text)
    except (_RepeatedKey, ValueError, RecursionError):
        pass
    return text.count("\n", 0, start[0]) + 1 if start else None


_CONTROL_NAMES = {"\t": "tab", "\n": "line feed", "\r": "carriage return", "\x00": "NUL"}


def _json_problem(exc: json.JSONDecodeError) -> str:
    """``exc.msg`` as a whole sentence: the decoder's messages end in a dangling "at" (the place is
    given as line and column), and a raw control character in a string is named, with how JSON
    writes it (some tools write a raw CR or tab there)."""
    if exc.msg.startswith("Invalid control character") and exc.pos < len(exc.doc):
        ch = exc.doc[exc.pos]
        name = _CONTROL_NAMES.get(ch, "control character")
        return f"a raw {name} (U+{ord(ch):04X}) inside a string; JSON writes it as {json.dumps(ch)[1:-1]}"
    if exc.msg.endswith(" starting at"):  # "Unterminated string starting at": the column is its start
        return exc.msg.removesuffix(" at") + " here"
    return exc.msg.removesuffix(" at")


def parse_json(text: str, path: Any, line: int | None = None) -> Any:
    """``json.loads`` that raises only DataError: bad syntax, nesting deeper than Python's
    recursion limit, integers past the 4,300-digit conversion limit, and lone UTF-16
    surrogates (valid JSON escapes, but not text: Arrow and every encoder refuse them).
    ``line`` is the line number of a JSON Lines record (``text`` is then one line)."""
    def where(lineno: int, col: int | None = None) -> str:
        n = line if line is not None else lineno
        return f"line {n}" + (f", column {col}" if col is not None else "")

    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys)
    except _RepeatedKey as exc:  # {"label": "x", "label": "y"} read as "y" without a word
        at = 1 if line is not None else _repeated_key_line(text)
        problem = f"the key {exc.key!r} appears twice in one object"
        if line is None and at is not None:
            problem = f"the key {exc.key!r} appears twice in the object that starts here"
        raise DataError(problem, path=path, where=where(at) if at is not None else None,
                        expected="each key once per object") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {_json_problem(exc)}", path=path, where=where(exc.lineno, exc.colno),
                        expected="one complete JSON object per line" if line is not None else "complete, valid JSON") from None
    except RecursionError:
        raise DataError("JSON nested too deeply", path=path, where=where(1) if line is not None else None,
                        expected="objects and lists nested at most a few hundred levels") from None
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        m = _LONG_INT.search(text)
        at = text.count("\n", 0, m.start()) + 1 if m else 1
        digits = len(m.group().lstrip("-")) if m else "over 4300"
        raise DataError(f"integer too long: {digits} digits", path=path, where=where(at),
                        expected="numbers of at most 4300 digits") from None
    if _SURROGATE_ESCAPE.search(text):
        bad = _first_surrogate(obj)
        if bad is not None:
            ch = _SURROGATE.search(bad).group()  # type: ignore[union-attr]
            m = re.search(r"\\u%04x" % ord(ch), text, re.IGNORECASE)
            at = text.count("\n", 0, m.start()) + 1 if m else 1
            raise DataError(f"lone UTF-16 surrogate \\u{ord(ch):04x} in a JSON string", path=path, where=where(at),
                            expected="valid Unicode (a high surrogate \\ud800-\\udbff followed by a low one)")
    return obj


def _first_surrogate(obj: Any) -> str | None:
    """The first string (key or value) holding a lone surrogate; iterative, so any depth."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            if _SURROGATE.search(o):
                return o
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return None


def check_labels(
    found: Sequence[str], allowed: Sequence[str], path: str | os.PathLike[str], where_of: Any
) -> None:
    """Raise for the first label not in ``allowed``; ``where_of(label)`` names its place."""
    allowed_set = set(allowed)
    for lab in found:
        if lab is not None and lab not in allowed_set:
            raise DataError(
                f"unknown label {lab!r}",
                path=path,
                where=where_of(lab),
                expected="one of " + ", ".join(repr(a) for a in allowed),
            )


def check_tagging(
    tokens: Sequence[str], tags: Sequence[str] | None, path: Any, where: str, *, strict_bio: bool = False
) -> None:
    """One sentence of a tagging set: no empty sentence/token, one tag per token, valid BIO if asked."""
    if len(tokens) == 0:
        raise DataError("empty sentence (no tokens)", path=path, where=where, expected="at least one token")
    for i, tok in enumerate(tokens):
        if not isinstance(tok, str) or tok == "":
            raise DataError(f"token {i + 1} is empty or not text", path=path, where=where, expected="a non-empty string")
    if tags is None:
        return
    if len(tags) != len(tokens):
        raise DataError(
            f"{len(tags)} tags for {len(tokens)} tokens", path=path, where=where, expected="one tag per token"
        )
    for i, tag in enumerate(tags):
        if not isinstance(tag, str) or tag == "":
            raise DataError(f"tag {i + 1} is empty or not text", path=path, where=where, expected="a non-empty tag")
    if strict_bio:
        bad = first_bio_error(tags)
        if bad is not None:
            raise DataError(
                f"invalid BIO: tag {bad + 1} {tags[bad]!r} follows {tags[bad - 1] if bad else 'the sentence start'!r}",
                path=path,
                where=where,
                expected=f"B-{tags[bad][2:]} or I-{tags[bad][2:]} before an I- tag",
            )


def first_bio_error(tags: Sequence[str]) -> int | None:
    """Index of the first I-X that does not continue a B-X/I-X, else None."""
    prev = "O"
    for i, tag in enumerate(tags):
        if tag.startswith("I-") and (prev[:2] not in ("B-", "I-") or prev[2:] != tag[2:]):
            return i
        prev = tag
    return None


def iob1_to_bio(tags: Sequence[str]) -> list[str]:
    """IOB1 (I- opens an entity, B- only splits two adjacent same-type entities) to BIO/IOB2."""
    out: list[str] = []
    prev = "O"
    for tag in tags:
        if tag.startswith("I-") and (prev[:2] not in ("B-", "I-") or prev[2:] != tag[2:]):
            tag = "B-" + tag[2:]
        out.append(tag)
        prev = tag
    return out


def to_example_set(
    kind: str, columns: dict[str, Any], labels: list[str], source: str | None, meta: dict[str, Any] | None = None
) -> ExampleSet:
    """Arrow arrays (or Python lists) per column -> ExampleSet with the kind's exact schema."""
    schema = FEATURES[kind].arrow_schema
    arrays = []
    for fld in schema:
        col = columns[fld.name]
        if isinstance(col, pa.ChunkedArray | pa.Array):
            arrays.append(col.cast(fld.type) if col.type != fld.type else col)
        else:
            arrays.append(pa.array(col, type=fld.type))
    table = pa.Table.from_arrays(arrays, schema=schema)
    # A fresh fingerprint: by default datasets hashes the whole in-memory table (seconds and
    # a full copy for a large file) only to name cache files an in-memory set never writes.
    ds = datasets.Dataset(InMemoryTable(table), fingerprint=uuid.uuid4().hex)
    return ExampleSet(kind, ds, labels, source, dict(meta or {}))


def check_writable_field(value: str, what: str, where: str, path: Any, forbidden: str = "\t\n\r", *,
                         formats: str = "CSV or JSONL") -> None:
    """Unquoted formats cannot hold tabs or newlines inside a value: refuse rather than corrupt.
    ``formats``: the ones that hold such a value for this kind (tagging cannot use CSV). A NUL
    is refused in every format: no reader takes one in (:func:`refuse_nul`)."""
    check_no_nul(value, what, where, path)
    for ch in forbidden:
        if ch in value:
            raise DataError(
                f"{what} contains {ch!r}, which this format cannot hold without quoting",
                path=path,
                where=where,
                expected=f"text without tabs/newlines, or save as {formats}",
            )


def check_no_nul(value: str, what: str, where: str, path: Any, *, json_text: bool = False) -> None:
    """A writer's refusal of a NUL character: the decoder refuses a NUL byte and the JSON readers
    its escape, so a file holding one would not read back (made by the Python API, or a project
    imported before the readers refused it). ``json_text``: ``value`` is JSON, NUL escaped."""
    if (_NUL_ESCAPE.search(value) is not None) if json_text else "\x00" in value:
        raise DataError(f"{what} contains a NUL character (U+0000), which bertstudio reads in no format",
                        path=path, where=where, expected="text without NUL characters: remove it in the project")


# \u0000 in JSON text, not preceded by an escaped backslash (\\u0000 is the text "\u0000")
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def refuse_nul(text: str, path: Any, line: int | None = None) -> None:
    """Refuse JSON text holding a NUL character (``\\u0000``): the table, CoNLL and CoNLL-U
    readers refuse a NUL byte as a binary file, so a NUL taken in from JSON Lines or SQuAD was
    exported to files bertstudio then refused. ``line``: a JSON Lines record's line number."""
    found = _NUL_ESCAPE.search(text)
    if found is not None:
        at = line if line is not None else text.count("\n", 0, found.start()) + 1
        raise DataError("a text holds a NUL character (\\u0000)", path=path, where=f"line {at}",
                        expected="text without NUL characters (remove the \\u0000)")
