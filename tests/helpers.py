"""What tests share besides fixtures: paths and small data builders.

Imported as ``from helpers import ...`` (tests/ is on the path); conftest.py keeps only
fixtures, so a test never depends on which of the two conftest modules pytest loaded
under the name ``conftest``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bertstudio.data.project import Project

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()

POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]

# Every preset the shared data can train: (preset, its folder in SHARED_DATA, the split to train
# on, the split to evaluate on). QNLI and SNLI ship without their train file, so their first rows
# train and the next ones evaluate (train split == eval split).
PRESET_SAMPLES = [
    ("CoLA", "glue/CoLA", "train", "dev"), ("SST-2", "glue/SST-2", "train", "dev"), ("MRPC", "glue/MRPC", "train", "dev"),
    ("STS-B", "glue/STS-B", "train", "dev"), ("RTE", "glue/RTE", "train", "dev"), ("WNLI", "glue/WNLI", "train", "dev"),
    ("QNLI", "glue/QNLI", "dev", "dev"), ("SNLI", "snli", "dev", "dev"),
    ("ChnSentiCorp", "zh/ChnSentiCorp", "train", "dev"), ("AFQMC", "zh/AFQMC", "train", "dev"),
]


def sentiment_records(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """Separable toy sentiment rows for the tiny model: two positive or two negative words
    per sentence, alternating labels (pos first)."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        pos = i % 2 == 0
        a, b = rng.sample(POS if pos else NEG, 2)
        rows.append({"text": f"the movie was {a} and {b}", "label": "pos" if pos else "neg"})
    return rows


def sentiment(n: int, seed: int = 0):
    """:func:`sentiment_records` as a sentence ExampleSet labelled neg/pos."""
    from bertstudio.data.examples import from_records

    return from_records("sentence", sentiment_records(n, seed), labels=["neg", "pos"])


def make_project(folder: Path, kind: str, labels: list[str] | None = None,
                 splits: dict[str, list[dict[str, Any]]] | None = None, name: str = "test") -> Project:
    """A project in ``folder`` with the given rows per split (labels as given, in that order)."""
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project

    project = Project.create(folder, name=name, kind=kind, labels=labels or [])
    for split, records in (splits or {}).items():
        project.import_examples(from_records(kind, records, labels=list(labels or [])), split)
    return project


def finishes(fn: Any, fifos: Any = (), timeout: float = 20.0) -> BaseException | None:
    """Run ``fn`` in a daemon thread: the exception it raised (None if none), or fail the test if it
    is still blocked after ``timeout`` s (a FIFO or device opened for reading). On a block, each of
    ``fifos`` is opened for writing once so the blocked reader wakes (at end of file) and the thread
    ends with the test instead of lingering."""
    import os
    import threading

    box: list[BaseException | None] = []

    def target() -> None:
        try:
            fn()
            box.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    blocked = not box
    if blocked:
        for fifo in fifos:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        thread.join(5)
    assert not blocked, f"still blocked after {timeout:.0f} s: a FIFO/device was opened for reading"
    return box[0]


def project_with_run(run: Path, folder: Path, name: str) -> Any:
    """The project a test's run was trained in (``run.parent / "proj"``), copied to ``folder`` with its
    rows' lineage, opened, and the run copied into its runs/ as ``name``: a project's own run."""
    import shutil

    from bertstudio.data.project import Project

    shutil.copytree(run.parent / "proj", folder)
    project = Project.open(folder)
    shutil.copytree(run, project.runs_dir / name)
    return project
