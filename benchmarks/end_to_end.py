"""Whole processes, command to metrics.json: `bertstudio train` against a plain Trainer script.

Issue #16's check of what a user waits for, not just the loop. Two jobs on SST-2 with the
bundled all-MiniLM-L6-v2, each run as fresh processes, the two sides interleaved (their
order alternating from round to round, so neither always runs on a warmer page cache):

The Trainer runs in bf16 autocast where bertstudio's precision="auto" picks bf16 (native
bf16 that measures faster than fp32), else in fp32: its best setting on the machine.

* ``4000``: ``bertstudio train --glue-task SST-2 --max-train-examples 4000 --epochs 1
  --batch-size 32 --lr 1e-4 --warmup-ratio 0.1`` (evaluation on SST-2 dev, the model
  saved) against benchmarks/trainer_sst2.py doing the same (the same rows, settings,
  evaluation and save; Trainer's best CPU setting: group_by_length, and bf16 as above);
* ``32``: the same with 32 training sentences: nearly all fixed cost.

For each process: wall time (spawn to exit; metrics.json is written just before exit),
peak RSS (``os.wait4``), and for bertstudio the phases read off its progress lines as
they arrive (start-up = interpreter, imports and reading the files; then loading the
model, tokenising, training, evaluating, saving, and the exit). Medians over ``--rounds``
and the ratio of the medians are printed; ``--json`` keeps every round.

    python benchmarks/end_to_end.py --rounds 5 --json benchmarks/results/end_to_end.json
    git worktree add /tmp/before <commit>; python benchmarks/end_to_end.py --before /tmp/before   # + before
    python benchmarks/end_to_end.py --jobs 32 --rounds 3          # the fixed cost only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "glue" / "SST-2"
SETTINGS = ["--epochs", "1", "--batch-size", "32", "--lr", "1e-4", "--warmup-ratio", "0.1", "--seed", "42"]
# The line that opens each phase of `bertstudio train` (cli.ProgressPrinter), in order.
PHASES = (("loading the model", "load model"), ("tokenising", "tokenise"), ("training ", "train"),
          ("evaluating", "evaluate"), ("saving", "save"), ("run ", "exit"))


def bertstudio_cmd(n: int, out: Path) -> list[str]:  # run with cwd (and PYTHONPATH) = the source tree
    return [sys.executable, "-m", "bertstudio", "train", "--glue-task", "SST-2", "--data-dir", str(DATA),
            "--max-train-examples", str(n), *SETTINGS, "--out", str(out)]


def trainer_cmd(n: int, out: Path, bf16: bool) -> list[str]:
    return [sys.executable, str(REPO / "benchmarks" / "trainer_sst2.py"), "--data-dir", str(DATA), "--n", str(n),
            *SETTINGS, "--bf16", "yes" if bf16 else "no", "--out", str(out)]


def run(cmd: list[str], out: Path, tree: Path = REPO) -> dict[str, Any]:
    """One fresh process: wall seconds, peak RSS (MB), the time of each stderr line."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": str(tree)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tree)
    lines = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append((time.perf_counter() - t0, line.rstrip()))
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 or not (out / "metrics.json").is_file():
        tail = "\n".join(text for _, text in lines[-15:])
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{tail}")
    metrics = json.loads((out / "metrics.json").read_text())
    accuracy = metrics.get("accuracy", metrics.get("eval_accuracy"))
    return {"wall_s": wall, "rss_mb": usage.ru_maxrss / 1024, "accuracy": accuracy, "lines": lines}


def phases(lines: list[tuple[float, str]], wall: float) -> dict[str, float]:
    """Seconds per phase of a bertstudio run, from the first line that opens each one."""
    marks = [(0.0, "start-up")]
    names = iter(PHASES)
    want = next(names, None)
    for t, text in lines:
        while want is not None and text.startswith(want[0]):
            marks.append((t, want[1]))
            want = next(names, None)
    marks.append((wall, "end"))
    return {name: round(marks[i + 1][0] - t, 3) for i, (t, name) in enumerate(marks[:-1])}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jobs", default="4000,32", help="training-set sizes, comma-separated")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--before", help="another bertstudio source tree (e.g. a git worktree of an older commit), "
                                    "timed as a third side 'before'")
    p.add_argument("--json", help="write every round here")
    ns = p.parse_args()
    jobs = [int(j) for j in ns.jobs.split(",")]
    trees = {"bertstudio": REPO, **({"before": Path(ns.before).resolve()} if ns.before else {})}
    all_sides = [*trees, "trainer"]
    # the Trainer's best setting: bf16 autocast where bertstudio's precision="auto" picks it (a GPU with bf16, or
    # a CPU where bf16 is native and measures faster)
    from bertstudio.train.hardware import bf16_matmul_speedup, detect

    cuda, _, cuda_bf16, cpu_fast_bf16 = detect()
    bf16 = cuda_bf16 if cuda else cpu_fast_bf16  # on a GPU both sides train there (bertstudio in bf16 where it can)
    speed = "" if cuda else f"bf16 / fp32 matmul speed here: {bf16_matmul_speedup():.2f}x; "
    print(f"{speed}{'GPU' if cuda else 'CPU'}: Trainer in {'bf16' if bf16 else 'fp32'}", flush=True)
    rows: list[dict[str, Any]] = []
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for n in jobs:
        for r in range(ns.rounds):
            sides = all_sides[r % len(all_sides):] + all_sides[:r % len(all_sides)]  # rotated each round
            for side in sides:
                with tempfile.TemporaryDirectory(prefix=f"e2e-{side}-") as tmp:
                    out = Path(tmp) / "run"
                    cmd = bertstudio_cmd(n, out) if side in trees else trainer_cmd(n, out, bf16)
                    res = run(cmd, out, trees.get(side, REPO))
                row = {"job": n, "round": r, "side": side, "wall_s": round(res["wall_s"], 3),
                       "rss_mb": round(res["rss_mb"], 1), "accuracy": res["accuracy"], "load": os.getloadavg()[0]}
                if side in trees:
                    row["phases"] = phases(res["lines"], res["wall_s"])
                rows.append(row)
                extra = f"  {row['phases']}" if "phases" in row else ""
                print(f"n={n} round {r} {side:10s} {row['wall_s']:7.2f} s  rss {row['rss_mb']:6.0f} MB  "
                      f"acc {row['accuracy']:.4f}  load {row['load']:.1f}{extra}", flush=True)
    summary = {}
    gpu = ""
    if cuda:
        import torch

        gpu = f", {torch.cuda.get_device_name(0)}"
    print(f"\nmachine: {os.cpu_count()} cores{gpu}; started {started}")
    names = [name for _, name in (("", "start-up"), *PHASES)]
    for n in jobs:
        mine = [x for x in rows if x["job"] == n]
        med = {side: statistics.median(x["wall_s"] for x in mine if x["side"] == side) for side in all_sides}
        rss = {side: statistics.median(x["rss_mb"] for x in mine if x["side"] == side) for side in all_sides}
        acc = {side: statistics.mean(x["accuracy"] for x in mine if x["side"] == side) for side in all_sides}
        parts = {side: {name: statistics.median(x["phases"].get(name, 0.0) for x in mine if x["side"] == side)
                        for name in names} for side in trees}
        summary[n] = {"median_s": med, "ratio": {s: med["trainer"] / med[s] for s in trees}, "rss_mb": rss,
                      "accuracy": acc, "phases_s": parts}
        print(f"n={n}: " + ", ".join(f"{s} {med[s]:.2f} s (peak RSS {rss[s]:.0f} MB, dev {acc[s]:.4f})" for s in all_sides))
        print("  Trainer / side (medians): " + ", ".join(f"{s} {r:.2f}x" for s, r in summary[n]["ratio"].items()))
        for side in trees:
            print(f"  {side} phases (median s): " + ", ".join(f"{k} {v:.2f}" for k, v in parts[side].items()))
    if ns.json:
        Path(ns.json).parent.mkdir(parents=True, exist_ok=True)
        Path(ns.json).write_text(json.dumps({"started": started, "cpus": os.cpu_count(), "gpu": gpu[2:] or None, "rounds": rows,
                                             "summary": summary}, indent=1) + "\n")


if __name__ == "__main__":
    main()
