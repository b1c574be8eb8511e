"""The process never aborts at exit after reading a table (issue #11, item 14).

pyarrow's threaded CSV reader may finish its last tasks on a pool thread after
``read_csv`` returned; when the buffer it read was a Python object, that thread needed
the GIL to free it, and during interpreter shutdown CPython ends such a thread inside a
C++ destructor: SIGABRT, "terminate called without an active exception" (about one run
in fifteen to one in three, by machine load, for a header-only CSV read after a non-empty
one with torch loaded). The readers now hand Arrow its own copy of the bytes.

The abort is a race, so the 20-run test below catches the old code only with a
probability that grows with machine load; the second test checks the mechanism itself,
deterministically.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
import torch  # the abort needs the slow shutdown of a process with torch loaded
from bertstudio.data.io import load_examples
from bertstudio.errors import DataError
load_examples(sys.argv[1])
try:
    load_examples(sys.argv[2])
except DataError as exc:
    print(exc)
    sys.exit(2)
"""


def test_header_only_eval_after_train_never_aborts_at_exit(tmp_path: Path) -> None:
    train = tmp_path / "train.csv"
    train.write_text("text,label\n" + "".join(f"sentence number {i},{'pos' if i % 2 else 'neg'}\n" for i in range(50)))
    header_only = tmp_path / "header_only.csv"
    header_only.write_text("text,label\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}

    def run(_i: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", SCRIPT, str(train), str(header_only)], capture_output=True,
                              text=True, env=env, timeout=300)

    with ThreadPoolExecutor(max_workers=4) as pool:  # four at a time: the runs also race each other for the CPUs
        results = list(pool.map(run, range(20)))
    codes = [r.returncode for r in results]
    aborted = [r.stderr[-300:] for r in results if r.returncode != 2]
    assert codes == [2] * 20, f"return codes {codes}; stderr of the failures: {aborted}"
    for r in results:
        assert "file has a header but no rows" in r.stdout
        assert "terminate called" not in r.stderr


def test_arrow_reads_only_memory_it_owns(tmp_path: Path, monkeypatch) -> None:
    # The mechanism, checked in-process and deterministically: every buffer handed to
    # pyarrow's CSV reader is Arrow-allocated (mutable), never a view of a Python bytes
    # object, whose release would need the GIL on whichever thread drops it last.
    import pyarrow as pa

    from bertstudio.data.io import load_examples

    seen: list[object] = []
    real = pa.BufferReader

    def spy(obj: object) -> object:
        seen.append(obj)
        return real(obj)

    monkeypatch.setattr(pa, "BufferReader", spy)
    for name, text in (("t.csv", "text,label\na,pos\n"), ("t.tsv", "sentence\tlabel\nb\t1\n")):
        (tmp_path / name).write_text(text)
        load_examples(tmp_path / name)
    assert len(seen) == 2
    assert all(isinstance(b, pa.Buffer) and b.is_mutable for b in seen), [type(b) for b in seen]
