"""Kill a labelling session with SIGKILL at random moments: no acknowledged edit may be lost.

A "zygote" child process imports bertstudio once (importing datasets costs a
second; 60 fresh interpreters would blow the time budget) and then forks one
fresh worker process per round. The worker opens a copy of a template project,
applies a seeded random sequence of edits (gold values, label renames, the odd
compaction) and prints ``r<round> ack <i>`` after each call returns. The test
reads acknowledgements until it has N, waits a random few milliseconds while the
worker keeps editing, and kills it with SIGKILL. Reopening must succeed and show
the state after exactly the first M edits for some M >= N: every acknowledged
edit is there, an in-flight one may or may not be, and nothing is half applied.
Further rounds kill the worker in the middle of ``compact()``.
"""

from __future__ import annotations

import inspect
import json
import os
import queue
import random
import shutil
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import datasets
import pyarrow as pa
import pytest

from bertstudio.data.examples import FEATURES, ExampleSet
from bertstudio.data.project import Project

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL (POSIX)")

REPO = Path(__file__).resolve().parents[2]
LABELS = ["a", "b", "c"]
EDIT_ROUNDS = 50
COMPACT_ROUNDS = 12  # every third one appends rows (import_examples) instead of compacting


def make_ops(seed: int, count: int, n_rows: int) -> list[tuple]:
    """The seeded edit sequence (shared verbatim with the worker through inspect.getsource)."""
    rng = random.Random(seed)
    labels = ["a", "b", "c"]
    ops: list[tuple] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.03:
            i = rng.randrange(len(labels))
            old = labels[i]
            labels[i] = old[:-2] if old.endswith("_r") else old + "_r"
            ops.append(("rename", old, labels[i]))
        elif r < 0.05:
            ops.append(("compact",))
        else:
            ops.append(("gold", rng.randrange(n_rows), rng.choice(labels + [None])))
    return ops


ZYGOTE = r'''
import json, os, random, signal, sys
from bertstudio.data.project import Project

signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed workers are reaped by the kernel

MAKE_OPS

def say(line):
    os.write(1, (line + "\n").encode())  # one unbuffered write: the test sees it at once

def work(cmd):
    tag = "r%d" % cmd["round"]
    project = Project.open(cmd["folder"])
    say("%s opened %d" % (tag, os.getpid()))
    if cmd["mode"] == "compact":
        say(tag + " compacting")
        project.compact()
        say(tag + " compacted")
    elif cmd["mode"] == "append":
        from bertstudio.data.examples import from_records
        more = from_records("sentence", [{"text": "new %d" % i, "label": project.labels[0]} for i in range(10)])
        say(tag + " compacting")
        project.import_examples(more, "train", replace=False)  # folds the journal, then writes the split
        say(tag + " compacted")
    else:
        for i, op in enumerate(make_ops(cmd["seed"], cmd["count"], project.num_rows("train"))):
            if op[0] == "gold":
                project.set_gold("train", op[1], op[2])
            elif op[0] == "rename":
                project.rename_label(op[1], op[2])
            else:
                project.compact()
            say("%s ack %d" % (tag, i))
    say(tag + " done")
    while True:
        signal.pause()

say("ready")
for line in sys.stdin:
    cmd = json.loads(line)
    if os.fork() == 0:
        try:
            work(cmd)
        except BaseException as exc:
            say("r%d error %r" % (cmd["round"], exc))
        finally:
            os._exit(1)
'''


class Zygote:
    def __init__(self, script: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = subprocess.Popen([sys.executable, "-u", str(script)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, cwd=REPO, env=env, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        assert self.next_line(60) == "ready"

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_line(self, timeout: float = 30) -> str:
        return self.lines.get(timeout=timeout)

    def start(self, **cmd: object) -> None:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()

    def wait_for(self, round_no: int, what: str) -> str:
        """Next line of this round (skipping stragglers of earlier rounds) until one starting with ``what``."""
        prefix = f"r{round_no} "
        while True:
            line = self.next_line()
            if line.startswith(prefix):
                rest = line[len(prefix):]
                assert not rest.startswith("error"), line
                if rest.startswith(what):
                    return rest

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def model_state(base: list, ops: list[tuple]) -> tuple[list, list[str]]:
    """What the project must hold after ``ops``: gold values and label names."""
    state, labels = list(base), list(LABELS)
    for op in ops:
        if op[0] == "gold":
            state[op[1]] = op[2]
        elif op[0] == "rename":
            state = [op[2] if v == op[1] else v for v in state]
            labels[labels.index(op[1])] = op[2]
    return state, labels


@pytest.fixture(scope="module")
def zygote(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("zygote")
    script = folder / "zygote.py"
    script.write_text(ZYGOTE.replace("MAKE_OPS", "import random\n" + inspect.getsource(make_ops)))
    z = Zygote(script)
    yield z
    z.close()


def _template(folder: Path, n_rows: int, seed: int) -> list:
    rng = random.Random(seed)
    base = [rng.choice(LABELS + [None]) for _ in range(n_rows)]
    p = Project.create(folder, name="crash", kind="sentence", labels=LABELS)
    table = pa.table({"text": [f"row {i}" for i in range(n_rows)], "label": base},
                     schema=FEATURES["sentence"].arrow_schema)
    p.import_examples(ExampleSet("sentence", datasets.Dataset(datasets.table.InMemoryTable(table)), LABELS))
    p.close()
    return base


def _kill(pid: int) -> None:
    """SIGKILL the worker and wait until it is gone (the zygote ignores SIGCHLD, so the kernel reaps it)."""
    try:
        fd = os.pidfd_open(pid)  # readable once the process has exited: no polling
    except ProcessLookupError:
        return
    try:
        os.kill(pid, signal.SIGKILL)
        readable, _, _ = select.select([fd], [], [], 10)
    finally:
        os.close(fd)
    if not readable:
        raise AssertionError(f"worker {pid} survived SIGKILL")


def test_sigkill_during_edits_loses_no_acknowledged_edit(zygote: Zygote, tmp_path: Path) -> None:
    base = _template(tmp_path / "template", 300, seed=1)
    rng = random.Random(20261129)
    survived = lost = beyond = 0
    started = time.monotonic()
    for round_no in range(EDIT_ROUNDS):
        folder = tmp_path / f"round{round_no}"
        shutil.copytree(tmp_path / "template", folder)
        seed, n_acked = rng.randrange(1 << 30), rng.randint(1, 80)
        ops = make_ops(seed, n_acked + 30, len(base))
        zygote.start(round=round_no, mode="edit", folder=str(folder), seed=seed, count=len(ops))
        pid = int(zygote.wait_for(round_no, "opened").split()[1])
        zygote.wait_for(round_no, f"ack {n_acked - 1}")
        time.sleep(rng.uniform(0, 0.004))  # a random moment while the worker goes on editing
        _kill(pid)
        project = Project.open(folder)
        got = [project.gold("train", i) for i in range(len(base))]
        matches = [m for m in range(n_acked, len(ops) + 1) if model_state(base, ops[:m]) == (got, project.labels)]
        if matches:
            survived += 1
            beyond += min(matches) - n_acked  # edits done after the last ack we read, before the kill
        else:
            lost += 1
            acked, labels = model_state(base, ops[:n_acked])
            pytest.fail(f"round {round_no}: state after reopen matches no prefix >= {n_acked} edits; "
                        f"{sum(a != b for a, b in zip(acked, got))} rows differ from the acknowledged state, "
                        f"labels {project.labels} vs {labels}; messages {project.recovery_messages}")
        # the recovered project must accept edits and reopen cleanly
        project.set_gold("train", 0, project.labels[0])
        project.close()
        again = Project.open(folder)
        assert again.gold("train", 0) == project.labels[0] and again.recovery_messages == []
        again.close(compact=False)
        shutil.rmtree(folder)
    print(f"\nkill rounds survived: {survived}/{EDIT_ROUNDS}, acknowledged edits lost: {lost}, "
          f"edits found beyond the last ack: {beyond}, {time.monotonic() - started:.1f} s")
    assert survived == EDIT_ROUNDS and lost == 0


def test_sigkill_during_compact_keeps_every_edit(zygote: Zygote, tmp_path: Path) -> None:
    n_rows = 30_000
    base = _template(tmp_path / "template", n_rows, seed=2)
    project = Project.open(tmp_path / "template")
    ops = make_ops(7, 250, n_rows)
    ops = [op for op in ops if op[0] != "compact"]  # the template keeps all edits pending
    for op in ops:
        if op[0] == "gold":
            project.set_gold("train", op[1], op[2])
        else:
            project.rename_label(op[1], op[2])
    project.close(compact=False)
    expected = model_state(base, ops)

    # calibrate: how long does a compaction take in the worker?
    shutil.copytree(tmp_path / "template", tmp_path / "calibrate")
    zygote.start(round=1000, mode="append", folder=str(tmp_path / "calibrate"))
    pid = int(zygote.wait_for(1000, "opened").split()[1])
    zygote.wait_for(1000, "compacting")
    t0 = time.monotonic()
    zygote.wait_for(1000, "compacted")
    duration = time.monotonic() - t0
    _kill(pid)

    rng = random.Random(99)
    outcomes = []
    for round_no in range(1001, 1001 + COMPACT_ROUNDS):
        folder = tmp_path / f"round{round_no}"
        shutil.copytree(tmp_path / "template", folder)
        mode = "append" if round_no % 3 == 0 else "compact"
        zygote.start(round=round_no, mode=mode, folder=str(folder))
        pid = int(zygote.wait_for(round_no, "opened").split()[1])
        zygote.wait_for(round_no, "compacting")
        time.sleep(rng.uniform(0, 1.3 * duration))  # before, during or just after the commit
        _kill(pid)
        reopened = Project.open(folder)
        got = (reopened.examples("train").dataset["label"], reopened.labels)
        if reopened.num_rows("train") == n_rows + 10:  # the append was committed: its rows come last
            assert mode == "append" and got[0][n_rows:] == [expected[1][0]] * 10
            got = (got[0][:n_rows], got[1])
        assert got == expected, f"round {round_no}: edits lost after a kill during {mode}"
        outcomes.append(reopened.pending_edits == 0)  # True when the kill came after the commit
        reopened.close(compact=False)
        shutil.rmtree(folder)
    print(f"\ncompaction + append {duration * 1000:.0f} ms; kills after the commit point: "
          f"{sum(outcomes)}/{len(outcomes)}, edits lost: 0")
