"""Training throughput of two source trees side by side (issue #12: the loop refactor).

Runs ``train_throughput.py``'s ``bertstudio`` setting (this tree's copy of the script:
same data, model, seeds and hyperparameters) once per tree and seed, each run in a
fresh process whose ``import bertstudio`` resolves to that tree (``PYTHONPATH=TREE``,
working directory outside every tree; each run prints the file it imported and the
driver checks it). Seeds are interleaved and the order of the trees alternates from
seed to seed. examples/s counts the training loop only, as in train_throughput.py.

    git worktree add /work/wt-before b586f49^
    python benchmarks/loop_refactor.py --tree before=/work/wt-before --tree after=. \\
        --json benchmarks/results/loop_refactor.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "train_throughput.py"
WRAP = ("import runpy, sys, bertstudio; print('BERTSTUDIO ' + bertstudio.__file__, flush=True); "
        "sys.argv = [sys.argv[1]] + sys.argv[2:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def spawn(label: str, tree: Path, seed: int, ns: argparse.Namespace, cwd: str) -> dict[str, Any]:
    cmd = [sys.executable, "-c", WRAP, str(SCRIPT), "--one", "bertstudio", "--seed", str(seed),
           "--examples", str(ns.examples), "--device", "cpu"]
    if ns.threads:
        cmd += ["--threads", str(ns.threads)]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               PYTHONPATH=str(tree))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    lines = proc.stdout.splitlines()
    imported = next((ln.split(" ", 1)[1] for ln in lines if ln.startswith("BERTSTUDIO ")), "?")
    result = next((ln for ln in lines[::-1] if ln.startswith("RESULT ")), None)
    if proc.returncode != 0 or result is None:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"{label} seed {seed} failed (exit {proc.returncode})")
    if not Path(imported).resolve().is_relative_to(tree):
        raise SystemExit(f"{label} seed {seed} imported {imported}, not from {tree}")
    out = json.loads(result[len("RESULT "):])
    out.update(tree=label, path=str(tree), imported=imported, seed=seed,
               examples_per_s=out["examples_seen"] / out["train_s"])
    print(f"  {label:8s} seed {seed}: {out['examples_per_s']:7.1f} ex/s  train {out['train_s']:6.1f} s  "
          f"wall {out['wall_s']:6.1f} s  acc {out['accuracy']:.4f}  {out['device']}/{out['precision']}  "
          f"steps {out['steps']}  load {out['load_start']:.2f}->{out['load_end']:.2f}", flush=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tree", action="append", required=True, help="LABEL=PATH (twice: the first is the baseline)")
    p.add_argument("--examples", type=int, default=4000)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--first-seed", type=int, default=42)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--json")
    ns = p.parse_args()
    trees = [(label, Path(path).resolve()) for label, path in (t.split("=", 1) for t in ns.tree)]
    seeds = [ns.first_seed + i for i in range(ns.seeds)]
    cwd = tempfile.mkdtemp(prefix="bertstudio-trees-")
    for label, tree in trees:
        rev = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
        print(f"{label}: {tree} at {rev.stdout.strip()[:100]}")
    print(f"cores {os.cpu_count()}, load {os.getloadavg()}; {ns.examples} SST-2 sentences, seeds {seeds}", flush=True)
    runs: list[dict[str, Any]] = []
    for i, seed in enumerate(seeds):
        for label, tree in (trees if i % 2 == 0 else trees[::-1]):
            runs.append(spawn(label, tree, seed, ns, cwd))

    base = trees[0][0]
    med = {label: statistics.median(r["examples_per_s"] for r in runs if r["tree"] == label) for label, _ in trees}
    print(f"\n{'tree':8s} {'ex/s (median)':>14s}  {'ex/s per seed':30s} dev accuracy per seed (mean)")
    for label, _ in trees:
        rs = sorted((r for r in runs if r["tree"] == label), key=lambda r: r["seed"])
        rates = ", ".join("%.1f" % r["examples_per_s"] for r in rs)
        accs = ", ".join("%.4f" % r["accuracy"] for r in rs)
        mean_acc = statistics.fmean(r["accuracy"] for r in rs)
        print(f"{label:8s} {med[label]:14.1f}  {rates:30s} {accs} ({mean_acc:.4f})")
    for label, _ in trees[1:]:
        per_seed = [next(r for r in runs if r["tree"] == label and r["seed"] == s)["examples_per_s"]
                    / next(r for r in runs if r["tree"] == base and r["seed"] == s)["examples_per_s"] for s in seeds]
        print(f"\n{label} / {base} (medians): {med[label] / med[base]:.3f}x; per seed "
              + ", ".join(f"{x:.3f}x" for x in per_seed))
    if ns.json:
        Path(ns.json).write_text(json.dumps({"trees": {l: str(t) for l, t in trees}, "examples": ns.examples,
                                             "medians": med, "runs": runs}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
