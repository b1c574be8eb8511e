"""The run folder: what a run leaves behind for the GUI, the CLI and a re-run.

``config.toml``, ``history.jsonl`` (one event per line, flushed as written so
another process can follow the run live), ``metrics.json``, ``predictions.jsonl``,
``model/`` and ``checkpoints/{best,last}``. Whole-file writes are atomic.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterable

from bertstudio.train.config import TrainConfig
from bertstudio.train.events import Event, event_to_dict


def atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


class RunFolder:
    """Writes one run's files. Only the main process of a multi-process run makes one."""

    def __init__(self, root: str | Path, *, append: bool = False) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.checkpoints = self.root / "checkpoints"
        self.best = self.checkpoints / "best"
        self.last = self.checkpoints / "last"
        self.model_dir = self.root / "model"
        # a resumed run appends to its history; a fresh run starts it anew
        self._history = open(self.root / "history.jsonl", "a" if append else "w", encoding="utf-8")

    def save_config(self, config: TrainConfig) -> None:
        config.save(self.root / "config.toml")

    def log_event(self, event: Event) -> None:
        self._history.write(json.dumps(event_to_dict(event), ensure_ascii=False) + "\n")
        self._history.flush()

    def write_metrics(self, metrics: dict[str, float]) -> None:
        atomic_write_text(self.root / "metrics.json", json.dumps(metrics, indent=2))

    def write_predictions(self, text: str) -> None:
        atomic_write_text(self.root / "predictions.jsonl", text)

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

    def close(self) -> None:
        self._history.close()


def prediction_rows(examples: Any, predictions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """predictions.jsonl rows: the prediction plus ``index`` and the example's ``gold``."""
    gold = examples.dataset[examples.gold_column]
    return [{"index": i, "gold": gold[i], **p} for i, p in enumerate(predictions)]
