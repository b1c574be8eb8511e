"""A 550,000-row split: an edit appends to the journal and never rewrites the data file.

Run as a script to measure (printed, never asserted)::

    python tests/core/test_project_scale.py      # open time, median edit time of 200, row() time, RSS
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pytest

N_ROWS = 550_000  # the size of SNLI's train split


def big_examples(n: int = N_ROWS):
    """``n`` sentence rows built column-wise in Arrow (from_records/from_dict take seconds at this size)."""
    import datasets
    import pyarrow as pa

    from bertstudio.data.examples import FEATURES, ExampleSet

    labels = ["entailment", "neutral", "contradiction"]
    table = pa.table({"text": [f"sentence number {i}" for i in range(n)],
                      "label": [labels[i % 3] if i % 5 else None for i in range(n)]},
                     schema=FEATURES["sentence"].arrow_schema)
    return ExampleSet("sentence", datasets.Dataset(datasets.table.InMemoryTable(table)), labels)


@pytest.fixture(scope="module")
def big_project(tmp_path_factory: pytest.TempPathFactory):
    from bertstudio.data.project import Project

    folder = tmp_path_factory.mktemp("big") / "snli-sized"
    project = Project.create(folder, name="big", kind="sentence", labels=["entailment", "neutral", "contradiction"])
    project.import_examples(big_examples(), "train")
    yield project
    project.close(compact=False)


def test_set_gold_on_550k_rows_only_appends_to_the_journal(big_project) -> None:
    data_file = big_project.folder / big_project.split_info["train"]["file"]
    journal = big_project.folder / "labels.journal"
    before = data_file.stat()
    journal_before = journal.stat().st_size if journal.exists() else 0
    # every 5th row (i % 5 == 0) was imported unlabelled: 110,000 of them
    assert big_project.progress("train") == (N_ROWS - N_ROWS // 5, N_ROWS)
    rng = random.Random(5)
    rows = rng.sample(range(N_ROWS), 20)
    for row in rows:
        big_project.set_gold("train", row, "neutral")
    after = data_file.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    # the edits, after the header a new journal starts with (whose journal it is: not an edit)
    lines = [line for line in journal.read_bytes()[journal_before:].splitlines() if b'"op":"journal"' not in line]
    assert len(lines) == 20 and all(b'"row":%d' % r in line for r, line in zip(rows, lines))
    assert [big_project.gold("train", r) for r in rows] == ["neutral"] * 20
    assert big_project.row("train", rows[0]) == {"text": f"sentence number {rows[0]}", "label": "neutral"}
    assert sorted(os.listdir(data_file.parent)) == [data_file.name]  # no second copy was written


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from bertstudio.data.project import Project

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "big"
        p = Project.create(folder, name="big", kind="sentence", labels=["entailment", "neutral", "contradiction"])
        t = time.perf_counter()
        p.import_examples(big_examples(), "train")
        print(f"import {N_ROWS} rows: {time.perf_counter() - t:.2f} s")
        p.close()
        rss = _rss_mb()
        t = time.perf_counter()
        p = Project.open(folder)
        n = p.num_rows("train")
        print(f"open + num_rows: {(time.perf_counter() - t) * 1000:.1f} ms, RSS +{_rss_mb() - rss:.1f} MB ({n} rows)")
        rng = random.Random(0)
        times = []
        for _ in range(200):
            row, value = rng.randrange(n), rng.choice(["entailment", "neutral", "contradiction", None])
            t = time.perf_counter()
            p.set_gold("train", row, value)
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"set_gold: median {times[100] * 1000:.2f} ms, p90 {times[180] * 1000:.2f} ms, "
              f"max {times[-1] * 1000:.2f} ms (200 edits, each fsynced)")
        t = time.perf_counter()
        for i in range(1000):
            p.row("train", rng.randrange(n))
        print(f"row(): {(time.perf_counter() - t):.3f} ms per call (1000 random rows)")
        t = time.perf_counter()
        counts = p.label_counts("train")
        print(f"label_counts: {(time.perf_counter() - t) * 1000:.1f} ms {counts}")
        t = time.perf_counter()
        p.compact()
        print(f"compact: {time.perf_counter() - t:.2f} s; RSS now {_rss_mb():.0f} MB")
        p.close()


if __name__ == "__main__":
    main()
