"""Read a run folder, and follow one live as its history.jsonl grows.

A run started elsewhere (the CLI, a GPU server with a synced folder) writes
``history.jsonl`` one event per line. :class:`RunFollower` watches the file
with a QFileSystemWatcher (plus a slow QTimer, since watchers miss changes on
network drives and some editors replace files), reads only the bytes after
the last complete line it saw, and emits the same signals the training worker
does, so the same plots show it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

log = logging.getLogger(__name__)

HISTORY = "history.jsonl"


@dataclass
class RunInfo:
    """What the GUI shows about one run folder (read once; cheap: no predictions)."""

    folder: Path
    config: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    status: str = "unknown"  # finished | cancelled | failed | running | unknown
    message: str = ""
    started_at: float = 0.0

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def model_dir(self) -> Path:
        return self.folder / "model"

    def has_model(self) -> bool:
        return (self.model_dir / "config.json").is_file()


def run_folder_of(item: Any) -> Path:
    """A run as Project.list_runs() may give it: a path, or an object/dict naming its folder."""
    if isinstance(item, (str, os.PathLike)):
        return Path(item)
    for key in ("folder", "path", "output_dir", "run_dir", "dir"):
        value = item.get(key) if isinstance(item, dict) else getattr(item, key, None)
        if value:
            return Path(value)
    raise TypeError(f"cannot tell the folder of run {item!r}")


def read_history(folder: Path) -> list[dict[str, Any]]:
    path = Path(folder) / HISTORY
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return _parse_lines(text.split("\n")[:-1] if not text.endswith("\n") else text.splitlines())


def _parse_lines(lines: list[str]) -> list[dict[str, Any]]:
    events = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            log.warning("skipping a history line that is not JSON: %.80s", line)
            continue
        if isinstance(data, dict) and "kind" in data:
            events.append(data)
    return events


def read_run(folder: str | os.PathLike[str]) -> RunInfo:
    folder = Path(folder)
    info = RunInfo(folder)
    # config.toml is written once, when the run starts; the folder's mtime moves with every file.
    for marker in (folder / "config.toml", folder):
        try:
            info.started_at = marker.stat().st_mtime
            break
        except OSError:
            continue
    cfg = folder / "config.toml"
    if cfg.is_file():
        try:
            info.config = tomllib.loads(cfg.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            log.warning("unreadable run config %s: %s", cfg, exc)
    metrics = folder / "metrics.json"
    if metrics.is_file():
        try:
            data = json.loads(metrics.read_text(encoding="utf-8"))
            info.metrics = {k: float(v) for k, v in data.items() if isinstance(v, (int, float))}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            log.warning("unreadable run metrics %s: %s", metrics, exc)
    history = read_history(folder)
    done = [e for e in history if e.get("kind") == "finished"]
    if done:
        info.status = str(done[-1].get("status") or "finished")
        info.message = str(done[-1].get("message") or "")
        if not info.metrics:
            info.metrics = {k: float(v) for k, v in (done[-1].get("metrics") or {}).items()}
    elif history:
        info.status = "running"
    elif info.metrics:
        info.status = "finished"
    return info


def read_predictions(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    path = Path(folder) / "predictions.jsonl"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in text.splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


class RunFollower(QObject):
    """Emits a run's history events as history.jsonl grows (the worker's signal shapes)."""

    started = Signal(dict)
    step_logged = Signal(list)
    evaluated = Signal(dict)
    run_finished = Signal(dict)  # the RunFinished event dict (status, metrics, message)

    def __init__(self, folder: str | os.PathLike[str], *, poll_ms: int = 1000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = Path(folder)
        self.path = self.folder / HISTORY
        self._offset = 0
        self._partial = b""
        self.events_read = 0
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_changed)
        self._watcher.directoryChanged.connect(self._on_changed)
        # The fallback poll: watchers miss writes on network file systems.
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self.poll)

    def start(self) -> None:
        if self.folder.is_dir():
            self._watcher.addPath(str(self.folder))
        self._watch_file()
        self._timer.start()
        self.poll()

    def stop(self) -> None:
        self._timer.stop()
        paths = self._watcher.files() + self._watcher.directories()
        if paths:
            self._watcher.removePaths(paths)

    def is_following(self) -> bool:
        return self._timer.isActive()

    def _watch_file(self) -> None:
        if self.path.is_file() and str(self.path) not in self._watcher.files():
            self._watcher.addPath(str(self.path))

    def _on_changed(self, _path: str) -> None:
        self._watch_file()  # re-add: some writers replace the file, which drops the watch
        self.poll()

    def poll(self) -> None:
        """Read the complete lines appended since the last call and emit their events."""
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size < self._offset:  # truncated or replaced: start over
            self._offset, self._partial = 0, b""
        if size == self._offset:
            return
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._offset)
                chunk = fh.read(size - self._offset)
        except OSError as exc:
            log.warning("cannot read %s: %s", self.path, exc)
            return
        self._offset += len(chunk)
        data = self._partial + chunk
        cut = data.rfind(b"\n")
        if cut < 0:  # the writer is mid-line; wait for the newline
            self._partial = data
            return
        self._partial = data[cut + 1 :]
        lines = data[:cut].decode("utf-8", errors="replace").split("\n")
        self._emit(_parse_lines(lines))

    def _emit(self, events: list[dict[str, Any]]) -> None:
        steps: list[dict[str, Any]] = []
        for ev in events:
            self.events_read += 1
            kind = ev.get("kind")
            if kind == "step":
                steps.append(ev)
                continue
            if steps:  # keep the order: steps before the eval that follows them
                self.step_logged.emit(steps)
                steps = []
            if kind == "started":
                self.started.emit(ev)
            elif kind == "eval":
                self.evaluated.emit(ev)
            elif kind == "finished":
                self.run_finished.emit(ev)
        if steps:
            self.step_logged.emit(steps)
