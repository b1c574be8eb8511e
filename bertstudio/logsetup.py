"""Where bertstudio's log goes, set up in one place for the CLI and the app.

Everything logged (tracebacks included) goes to one size-rotated file:
``$BERTSTUDIO_LOG`` if set, else ``$XDG_STATE_HOME/bertstudio/bertstudio.log``
(``~/.local/state/bertstudio/bertstudio.log``; the XDG base-directory spec's
place for logs). The terminal gets warnings as one line each and never a
traceback, unless ``debug`` is on; a failure is reported to the user by the
CLI or the app in one line that names the log file.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import Any

ENV = "BERTSTUDIO_LOG"
MAX_BYTES = 5 * 2**20  # a few runs' worth; three old files are kept
BACKUPS = 3
_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"


def log_path() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    state = os.environ.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(state):  # the XDG spec: a relative path is invalid and ignored (it wrote ./state/...)
        state = str(Path.home() / ".local" / "state")
    return Path(state) / "bertstudio" / "bertstudio.log"


class _FileHandler(logging.handlers.RotatingFileHandler):
    """Counts the tracebacks it writes, so a one-line message can say where they are."""

    tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            _FileHandler.tracebacks += 1
        super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's API
        # The log's own disk is full or gone: losing a log line is better than logging's
        # default, a traceback on stderr in the middle of the one-line failure report.
        pass


class _Stderr(logging.StreamHandler):
    """Writes to whatever sys.stderr is at the time (as logging's last-resort handler does),
    so a handler installed once keeps working when stderr is replaced (tests, the app)."""

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


class _OneLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"bertstudio: {record.levelname.lower()}: {record.getMessage()}".replace("\n", " ")


class _NoTraceback(logging.Filter):
    """Records that carry a traceback are the failures the CLI or app already reports in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.exc_info


_installed: list[logging.Handler] = []
_current: Path | None = None


def setup_logging(*, debug: bool = False) -> Path | None:
    """Install the handlers (again: a second call replaces the first's). Returns the log
    file, or None when it cannot be opened (the log then goes to the terminal only)."""
    global _current
    root = logging.getLogger()
    for handler in _installed:
        root.removeHandler(handler)
        handler.close()
    _installed.clear()
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    logging.getLogger("bertstudio").setLevel(logging.DEBUG if debug else logging.INFO)

    _current = log_path()
    try:
        _current.parent.mkdir(parents=True, exist_ok=True)
        to_file: logging.Handler = _FileHandler(_current, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError:
        _current = None
    else:
        to_file.setFormatter(logging.Formatter(_FORMAT))
        _installed.append(to_file)

    to_terminal = _Stderr()
    if debug:
        to_terminal.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    else:
        to_terminal.setLevel(logging.WARNING)
        to_terminal.addFilter(_NoTraceback())
        to_terminal.setFormatter(_OneLine())
    _installed.append(to_terminal)
    for handler in _installed:
        root.addHandler(handler)
    return _current


def tracebacks_logged() -> int:
    """How many tracebacks went to the log file so far (in this process)."""
    return _FileHandler.tracebacks


def where_to_look() -> str:
    """' (details in <log file>)' for a one-line message, or '' when there is no log file."""
    return f" (details in {_current})" if _current is not None else ""


def guard_streams() -> None:
    """Give a process without standard streams the null device for each missing one: Windows'
    pythonw (``bertstudio-gui.exe``, and the processes it spawns, such as the ONNX export's) has
    None there, and a library that writes a warning or a progress bar to one raised. What
    matters goes to the log file."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))


def log_uncaught() -> None:
    """Send exceptions nobody caught to the log file with their traceback: PySide6 hands one raised
    in a slot to ``sys.excepthook``, a thread's goes to ``threading.excepthook``, and both printed
    it to stderr, which is the null device under ``bertstudio-gui.exe`` (lost, on screen and in
    the log). Where there is no log file, the hooks before print it as they did."""
    import threading

    before, before_thread = sys.excepthook, threading.excepthook
    log = logging.getLogger("bertstudio")

    def hook(kind: type[BaseException], value: BaseException, traceback: Any) -> None:
        if _current is None or issubclass(kind, KeyboardInterrupt):
            before(kind, value, traceback)
            return
        log.error("an uncaught exception", exc_info=(kind, value, traceback))

    def thread_hook(args: Any) -> None:
        if _current is None or args.exc_type is SystemExit:  # threading ignores SystemExit
            before_thread(args)
            return
        name = getattr(args.thread, "name", "?")
        log.error("an uncaught exception in thread %s", name, exc_info=(args.exc_type, args.exc_value,
                                                                         args.exc_traceback))

    sys.excepthook, threading.excepthook = hook, thread_hook
