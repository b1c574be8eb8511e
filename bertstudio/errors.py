"""The one exception type the core raises for problems a user can fix.

Every reader, validator and the training engine raise :class:`BertStudioError`
(or a subclass) with the file, the place in it and the reason, so that the GUI
can show it in a dialog and the CLI can print it as one line and exit 2.
Anything else escaping the core is a bug and goes to the log with its traceback.
"""

from __future__ import annotations

import errno
import os
import re
from os import PathLike
from typing import Any, Mapping


class BertStudioError(Exception):
    """A problem the user can act on: bad input, bad settings, a failed run.

    ``path`` is the file concerned (if any), ``where`` the place in it
    ("line 12", "record 3", "column 'label'", "article 2, question 'abc'"),
    ``problem`` what is wrong and ``expected`` what would have been right.
    ``facts``: the numbers and names of a common refusal, for an interface that says it in its
    own language (the Train page said "max_length 300 is more than this model takes" in English
    inside its Chinese window); the message stays the English one-liner.
    """

    def __init__(
        self,
        problem: str,
        *,
        path: str | PathLike[str] | None = None,
        where: str | None = None,
        expected: str | None = None,
        facts: Mapping[str, Any] | None = None,
    ) -> None:
        self.facts: dict[str, Any] = dict(facts or {})
        self.path = str(path) if path is not None else None
        self.where = where
        self.problem = problem
        self.expected = expected
        super().__init__(self.message)

    @property
    def message(self) -> str:
        head = ""
        if self.path:
            head = self.path
            if self.where:
                head += f", {self.where}"
            head += ": "
        elif self.where:
            head = f"{self.where}: "
        text = head + self.problem
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def __str__(self) -> str:  # one line, always
        return self.message.replace("\n", " ")


class Said(str):
    """The core's English sentence (a str, as the CLI prints it), with what it says as data for an
    interface that says it in its own language: ``kind`` (which sentence) and ``facts`` (its names
    and numbers). The Runs page and the Resume box said "it kept no checkpoint to go on from" in
    English inside the Chinese window. (Here, beside the errors' facts, so that every layer of
    the core may say one: data/ too, below train/.)"""

    kind: str
    facts: dict[str, Any]

    def __new__(cls, text: str, kind: str, **facts: Any) -> "Said":
        said = super().__new__(cls, text)
        said.kind, said.facts = kind, facts
        return said

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, Any]]:
        """copy, deepcopy (dataclasses.asdict) and pickle make it again with its kind and facts."""
        return (str(self), self.kind), dict(self.facts)


class DataError(BertStudioError):
    """Input data that cannot be read or does not fit the task."""


class ConfigError(BertStudioError):
    """Settings that are invalid or inconsistent."""


class TrainingError(BertStudioError):
    """A run that could not go on (NaN loss, out of memory, disk full, a model that raised)."""


class DiskFullError(BertStudioError):
    """A write that met a full disk (or quota): the user frees space and runs it again."""


def disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc``, or an exception it was raised from, is a full disk or quota: an OSError
    ENOSPC/EDQUOT, or a library's own error that carries it only as text (safetensors'
    SafetensorError: "I/O error: No space left on device (os error 28)")."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if not isinstance(exc, OSError) and _FULL_TEXT.search(str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


_FULL_TEXT = re.compile(r"No space left on device|Disk quota exceeded|os error (28|122)\b")
# the hidden names crash-safe writes use beside a file (data/atomic.py's sibling_name): the
# user's own name is the one to show, not one already removed
_TEMP_NAME = re.compile(r"^\.(.+?)(~[0-9a-f]{8})?\.(n[0-9a-f]{8}|\d+)\.(tmp|old)$")


def disk_full_error(exc: BaseException, path: str | PathLike[str] | None = None) -> DiskFullError | None:
    """The one-line error for a full disk met while writing (None when ``exc`` is something else).
    ``path``: what was being written, else the file the OSError names, shown as the user's own
    name rather than the temporary one beside it that the failed write has removed."""
    if not disk_full(exc):
        return None
    if path is None:
        failed = exc
        while failed is not None and not (isinstance(failed, OSError) and failed.filename):
            failed = failed.__cause__ or failed.__context__
        path = failed.filename if failed is not None else None  # type: ignore[union-attr]
    return DiskFullError("the disk is full", path=None if path is None else users_name(path),
                         expected="free disk space, then run it again")


def users_name(path: str | PathLike[str]) -> str:
    """``path`` with a crash-safe write's temporary name (and what is below it) turned back into the
    name the user gave: ``out/.run.n1a2b3c4d.tmp/model.onnx`` is ``out/run``."""
    parts = list(os.fspath(path).split(os.sep))
    for i, part in enumerate(parts):
        found = _TEMP_NAME.match(part)
        if found and not found.group(2):
            return os.sep.join(parts[:i] + [found.group(1)])
        if found:  # a cut name: its folder is what can be said for sure
            return os.sep.join(parts[:i]) or os.sep
    return os.sep.join(parts)


FACT_CHARS = 80  # one fact (a row, a label, a value, a metric's name) as a message shows it


def fact_text(value: Any, *, quoted: bool = True) -> str:
    """One fact (of a journal entry; a metric's name read from a run file) on one bounded line:
    quoted (``repr``) or as it is, each character that is not printable (a line break, U+2028, a
    control, a lone surrogate) as its escape, clipped at :data:`FACT_CHARS` with "…". A kept journal is any file with valid
    checksums: a 2 MB row, a 1 MB label or an op holding a line break made lines of megabytes,
    and the recovery box froze the window for most of a minute laying them out."""
    if isinstance(value, str):
        value = value[:FACT_CHARS + 1]  # the rest is never shown: not escaped either
        text = repr(value) if quoted else value
    else:
        text = repr(value)
    text = "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text[:FACT_CHARS + 1])
    return text if len(text) <= FACT_CHARS else text[:FACT_CHARS - 1] + "…"
