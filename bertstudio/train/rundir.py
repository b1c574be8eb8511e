"""The run folder: what a run leaves behind for the GUI, the CLI and a re-run.

``config.toml``, ``history.jsonl`` (one event per line, flushed as written so
another process can follow the run live), ``metrics.json``, ``predictions.jsonl``,
``model/`` and ``checkpoints/{best,last}``. Whole-file writes are atomic.

A run never deletes what it did not write. It starts in a new or empty folder;
a non-empty one is accepted only to resume an unfinished run of the same
settings there, or with ``overwrite``, which replaces bertstudio's own files
(the names above) and keeps everything else. :func:`check_output_dir` is that
rule; the engine asks it before building anything and again when it creates
the folder.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Iterable

from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.errors import ConfigError
from bertstudio.train import checkpoint as ckpt
from bertstudio.train.config import TrainConfig, read_settings
from bertstudio.train.events import Event, event_to_dict

log = logging.getLogger(__name__)

CONFIG, HISTORY, METRICS, PREDICTIONS, MODEL, CHECKPOINTS = (
    "config.toml", "history.jsonl", "metrics.json", "predictions.jsonl", "model", "checkpoints")
# Written by the app into the fresh folder it picks, just before the engine starts.
PRE_RUN_FILES = frozenset({"eval_rows.json"})
OWN_NAMES = frozenset({CONFIG, HISTORY, METRICS, PREDICTIONS, MODEL, CHECKPOINTS, "cartography.jsonl"}) | PRE_RUN_FILES
# Settings that say how to start a run, not what it computes: a resume may change them.
_LAUNCH_SETTINGS = frozenset({"resume_from", "overwrite", "output_dir"})
_PATH_SETTINGS = ("train_file", "eval_file", "data_dir", "resume_from")


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


# --- may a run write here? ----------------------------------------------------------------


def check_output_dir(config: TrainConfig) -> None:
    """Raise ConfigError unless ``config.output_dir`` may receive this run (see the module docstring)."""
    if not config.output_dir:
        return
    root = Path(config.output_dir).expanduser()
    if root.exists() and not root.is_dir():
        raise ConfigError("the run folder is a file", path=root, where="output_dir", expected="a new or empty folder")
    if not root.is_dir():
        return
    try:
        names = {p.name for p in root.iterdir()}
    except OSError as exc:
        raise ConfigError(f"cannot read the run folder: {exc.strerror or exc}", path=root, where="output_dir") from None
    if names <= PRE_RUN_FILES:
        return
    saved = saved_config(root)
    if config.resume_from:
        if saved is None:
            raise ConfigError("this folder holds no bertstudio run to resume", path=root, where="output_dir",
                              expected="the folder of the run being resumed, or a new folder")
        if run_finished(root):
            raise ConfigError("the run in this folder has finished; there is nothing to resume", path=root, where="output_dir",
                              expected="a new folder for a new run")
        changed = differences(saved, config)
        if changed:
            raise ConfigError(f"the run in this folder has other settings ({', '.join(changed)})", path=root, where="output_dir",
                              expected="the same settings to resume it (e.g. --config with its config.toml), or a new folder")
        return
    if config.overwrite:
        clash = sorted(names & OWN_NAMES)
        if saved is None and clash:
            raise ConfigError(f"this folder is not a bertstudio run, but holds {', '.join(clash)}, which a run would replace",
                              path=root, where="output_dir", expected="a new or empty folder")
        return
    hint = ""
    if saved is not None and not run_finished(root) and ckpt.find_checkpoint(root / CHECKPOINTS / "last") is not None:
        hint = f"; it holds an unfinished run (continue it with --resume {root / CHECKPOINTS / 'last'})"
    raise ConfigError("the run folder is not empty" + hint, path=root, where="output_dir",
                      expected="a new or empty folder, or --overwrite to replace bertstudio's own files there "
                               "(other files are kept)")


def saved_config(root: Path) -> TrainConfig | None:
    """The settings of the run in ``root`` (None: no readable config.toml, so not a bertstudio run)."""
    if not (root / CONFIG).is_file():
        return None
    try:
        return TrainConfig.from_dict(read_settings(root / CONFIG), source=str(root / CONFIG))
    except ConfigError:
        return None


def run_finished(root: Path) -> bool:
    """Whether the run's history ends with a successful finish (a cancelled, failed or
    crashed run is unfinished)."""
    try:
        lines = (root / HISTORY).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    for line in reversed(lines):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("kind") == "finished":
            return event.get("status") == "finished"
    return False


def differences(saved: TrainConfig, config: TrainConfig) -> list[str]:
    """The settings (other than how to start) in which ``config`` differs from ``saved``."""
    a, b = _comparable(saved), _comparable(config)
    return [f.name for f in fields(TrainConfig) if f.name not in _LAUNCH_SETTINGS and a[f.name] != b[f.name]]


def _comparable(config: TrainConfig) -> dict[str, Any]:
    return _absolute(config).to_dict()


def _absolute(config: TrainConfig) -> TrainConfig:
    """Paths made absolute (relative ones are relative to the current folder, as the engine reads them)."""
    paths = {name: str(Path(v).expanduser().resolve()) for name in _PATH_SETTINGS if (v := getattr(config, name))}
    if config.model and Path(config.model).expanduser().is_dir():
        paths["model"] = str(Path(config.model).expanduser().resolve())
    return replace(config, **paths)


def _remove_own_files(root: Path) -> None:
    """``overwrite``: delete what an earlier run wrote here (and its temporary leftovers), nothing else."""
    for entry in root.iterdir():
        name = entry.name
        leftover = name.startswith(".") and name.endswith((".tmp", ".old")) and any(name[1:].startswith(own) for own in OWN_NAMES)
        if name in OWN_NAMES or leftover:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()


# --- writing ---------------------------------------------------------------------------


class RunFolder:
    """Writes one run's files. Only the main process of a multi-process run makes one."""

    def __init__(self, root: str | Path, *, append: bool = False) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.checkpoints = self.root / CHECKPOINTS
        self.best = self.checkpoints / "best"
        self.last = self.checkpoints / "last"
        self.model_dir = self.root / MODEL
        self.history_error: OSError | None = None
        # a resumed run appends to its history; a fresh run starts it anew
        self._history: Any = open(self.root / HISTORY, "a" if append else "w", encoding="utf-8")

    @classmethod
    def start(cls, config: TrainConfig) -> "RunFolder":
        """The folder for ``config``'s run, after :func:`check_output_dir`; with ``overwrite``
        (and no resume) an earlier run's files are removed first, so none of them mixes with this run's."""
        assert config.output_dir
        check_output_dir(config)
        root = Path(config.output_dir).expanduser()
        if config.overwrite and not config.resume_from and root.is_dir():
            _remove_own_files(root)
        folder = cls(root, append=bool(config.resume_from))
        folder.save_config(config)
        return folder

    def save_config(self, config: TrainConfig) -> None:
        """config.toml re-runs from anywhere: data paths absolute, the output folder this one
        (``.``, relative to the file), never ``overwrite``."""
        replace(_absolute(config), output_dir=".", overwrite=False).save(self.root / CONFIG)

    def log_event(self, event: Event) -> None:
        """Append to history.jsonl. The first write error (a full disk) is raised, so the run
        fails with it; after that the history is closed and later events (the failure
        itself) only reach the callbacks. A failed write of the final event is only logged."""
        if self._history is None:
            return
        try:
            self._history.write(json.dumps(event_to_dict(event), ensure_ascii=False) + "\n")
            self._history.flush()
        except OSError as exc:
            self.history_error = exc
            self._close_history()
            if event.kind != "finished":  # the end of a run is being reported anyway
                raise

    def write_metrics(self, metrics: dict[str, float]) -> None:
        atomic_write_text(self.root / METRICS, json.dumps(metrics, indent=2))

    def write_predictions(self, text: str) -> None:
        atomic_write_text(self.root / PREDICTIONS, text)

    def export_model(self, save: Any) -> Path:
        """Write ``model/`` through ``save(folder)`` into a temporary folder, then swap it in."""
        tmp = self.root / f".model.{os.getpid()}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            save(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        old = self.root / f".model.{os.getpid()}.old"
        shutil.rmtree(old, ignore_errors=True)  # left over by a crash mid-swap
        if self.model_dir.exists():
            os.replace(self.model_dir, old)
        os.replace(tmp, self.model_dir)
        shutil.rmtree(old, ignore_errors=True)
        return self.model_dir

    def resumable(self) -> Path | None:
        """checkpoints/last when it is complete on disk (what a resume would start from)."""
        found = ckpt.find_checkpoint(self.last)  # (it also finds the copy a crash mid-swap leaves)
        return self.last if found is not None and (found / ckpt.OPTIMIZER).is_file() else None

    def best_on_disk(self) -> tuple[Path, int] | None:
        """(checkpoints/best, its step) when a complete best checkpoint is on disk."""
        found = ckpt.find_checkpoint(self.best)
        if found is None:
            return None
        try:
            step = ckpt.read_state(found).get("step")
        except ConfigError:
            return None
        return found, step if isinstance(step, int) else -1

    def _close_history(self) -> None:
        history, self._history = self._history, None
        if history is None:
            return
        try:
            history.close()
        except OSError as exc:  # the buffered tail could not be written: the file descriptor is closed anyway
            self.history_error = self.history_error or exc

    def close(self) -> None:
        self._close_history()
        if self.history_error is not None:
            log.info("history.jsonl in %s is incomplete: %s", self.root, self.history_error)


def prediction_rows(examples: Any, predictions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """predictions.jsonl rows: the prediction plus ``index`` and the example's ``gold``."""
    gold = examples.dataset[examples.gold_column]
    return [{"index": i, "gold": gold[i], **p} for i, p in enumerate(predictions)]
