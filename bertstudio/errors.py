"""The one exception type the core raises for problems a user can fix.

Every reader, validator and the training engine raise :class:`BertStudioError`
(or a subclass) with the file, the place in it and the reason, so that the GUI
can show it in a dialog and the CLI can print it as one line and exit 2.
Anything else escaping the core is a bug and goes to the log with its traceback.
"""

from __future__ import annotations

from os import PathLike


class BertStudioError(Exception):
    """A problem the user can act on: bad input, bad settings, a failed run.

    ``path`` is the file concerned (if any), ``where`` the place in it
    ("line 12", "record 3", "column 'label'", "article 2, question 'abc'"),
    ``problem`` what is wrong and ``expected`` what would have been right.
    """

    def __init__(
        self,
        problem: str,
        *,
        path: str | PathLike[str] | None = None,
        where: str | None = None,
        expected: str | None = None,
    ) -> None:
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


class DataError(BertStudioError):
    """Input data that cannot be read or does not fit the task."""


class ConfigError(BertStudioError):
    """Settings that are invalid or inconsistent."""


class TrainingError(BertStudioError):
    """A run that could not go on (NaN loss, out of memory, disk full, a model that raised)."""
