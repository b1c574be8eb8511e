"""Shared pieces of every reader and writer: byte checks, decoding, label checks, atomic writes.

Readers first read the whole file as bytes (benchmark files are tens of MB at
most) so that every problem can be reported with a byte offset and a line
number, then hand the bytes to a fast parser (pyarrow) or a small hand-written
one for the formats no library parses (CoNLL, CoNLL-U).
"""

from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path
from typing import Any, Iterable, Sequence

import datasets
import pyarrow as pa
from datasets.table import InMemoryTable

from bertstudio.data.examples import FEATURES, ExampleSet
from bertstudio.errors import DataError

BOM = b"\xef\xbb\xbf"


def line_of_offset(raw: bytes, offset: int) -> int:
    """1-based line number of a byte offset."""
    return raw.count(b"\n", 0, offset) + 1


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, refusing missing, empty and binary files with a DataError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise DataError("file not found", path=p) from None
    except IsADirectoryError:
        raise DataError("is a folder, not a file", path=p) from None
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", path=p) from None
    body = raw[len(BOM):] if raw.startswith(BOM) else raw
    if not body.strip():
        raise DataError("file is empty", path=p, expected="at least one example")
    nul = body.find(b"\x00")
    if nul >= 0:
        off = nul + (len(raw) - len(body))
        raise DataError(
            f"binary file: NUL byte at byte offset {off}",
            path=p,
            where=f"line {line_of_offset(raw, off)}",
            expected="a UTF-8 text file",
        )
    return raw


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


def label_order(values: Iterable[str]) -> list[str]:
    """Label names in a stable order: numeric names sorted by value, others by first appearance."""
    seen = list(dict.fromkeys(v for v in values if v is not None))
    try:
        return sorted(seen, key=float)
    except ValueError:
        return seen


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


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write next to the target, then rename: a crash never leaves a half-written file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check_writable_field(value: str, what: str, where: str, path: Any, forbidden: str = "\t\n\r") -> None:
    """Unquoted formats cannot hold tabs or newlines inside a value: refuse rather than corrupt."""
    for ch in forbidden:
        if ch in value:
            raise DataError(
                f"{what} contains {ch!r}, which this format cannot hold without quoting",
                path=path,
                where=where,
                expected="text without tabs/newlines, or save as CSV or JSONL",
            )
