"""The labelling loop with a simulated annotator, headless, through the app's own core.

A project is created with a pool of unlabelled rows; a simulated annotator reveals
the gold label of the row the :class:`~bertstudio.assist.LabellingAssistant` hands
out next (``uncertain`` order: "the loop"; or ``random`` order), through
``Project.set_gold`` as the Label page does, the assistant following the project's
events. After each label the annotator waits for the fast refit (a person takes
seconds per label; the refit takes tens of milliseconds) but not for the strong
model, which trains in the background every 50 labels. At each reporting
point the annotator pauses until the background work is done, and the model the
app would show (the fast head or the strong model, whichever is better on the
audit set) is scored on the task's held-out set.

Latency: the time of ``next_row()`` (what the key press waits for) and the time
from a label to fresh scores (the refit), each split by whether a strong model was
training at that moment.

Tasks (pools and held-out sets; nothing is tuned on the held-out sets):

``sst2``    pool: 4,000 SST-2 train rows of at least 10 words (seed 0; the train file
            also holds the parse-tree phrases of each sentence, 1-3 words long, which a
            user labelling their own texts does not see); eval: SST-2 dev (872)
``agnews``  pool: agnews/pool.tsv (6,000); eval: agnews/test.tsv (1,600)
``snli``    pool: 4,000 SNLI validation pairs, eval: 2,000 others, split by premise
            (seed 0), so no premise is in both
``pos``     pool: 2,000 UD EWT train sentences (seed 0); eval: the first 1,000 dev sentences

Usage::

    python benchmarks/labelling_loop.py --quick                 # 1 seed, 3 points, SST-2, loop only
    python benchmarks/labelling_loop.py --tasks sst2 agnews --seeds 5 --json benchmarks/results/labelling_loop.json
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bertstudio.assist import AssistSettings, LabellingAssistant  # noqa: E402
from bertstudio.data.examples import from_records  # noqa: E402
from bertstudio.data.project import Project  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
POINTS = {"sst2": [0, 16, 32, 64, 100, 200], "agnews": [0, 16, 32, 64, 128, 256],
          "snli": [0, 16, 32, 64, 100, 200], "pos": [0, 10, 25, 50, 100]}
TARGETS = {"sst2": {0: 0.70, 32: 0.72, 100: 0.80, 200: 0.83}, "agnews": {0: 0.74, 64: 0.82, 256: 0.86}}


# --- data ---------------------------------------------------------------------------------------

def _tsv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def load_task(name: str) -> dict[str, Any]:
    """``{kind, labels, pool: records, eval: ExampleSet, settings: dict}``."""
    rng = np.random.default_rng(0)
    if name == "sst2":
        from bertstudio.data.glue import load_glue

        train = load_glue("SST-2", DATA / "glue" / "SST-2", "train")
        dev = load_glue("SST-2", DATA / "glue" / "SST-2", "dev")
        names = {"0": "negative", "1": "positive", "negative": "negative", "positive": "positive"}  # ids or GLUE's names
        texts = train.dataset.with_format("arrow")["text"].to_pylist()
        gold = train.dataset.with_format("arrow")["label"].to_pylist()
        ok = [i for i, t in enumerate(texts) if len(t.split()) >= 10]
        pick = rng.permutation(ok)[:4000]
        pool = [{"text": texts[i], "label": names[gold[i]]} for i in pick]
        dev_rows = [{"text": t, "label": names[g]} for t, g in zip(dev.dataset.with_format("arrow")["text"].to_pylist(),
                                                                 dev.dataset.with_format("arrow")["label"].to_pylist())]
        labels = ["negative", "positive"]
        return {"kind": "sentence", "labels": labels, "pool": pool, "eval": from_records("sentence", dev_rows, labels)}
    if name == "agnews":
        labels = ["World", "Sports", "Business", "Sci/Tech"]
        pool = [{"text": r["text"], "label": r["label"]} for r in _tsv(DATA / "agnews" / "pool.tsv")]
        test = [{"text": r["text"], "label": r["label"]} for r in _tsv(DATA / "agnews" / "test.tsv")]
        return {"kind": "sentence", "labels": labels, "pool": pool, "eval": from_records("sentence", test, labels)}
    if name == "snli":
        labels = ["entailment", "neutral", "contradiction"]
        rows = [{"text": r["premise"], "text_pair": r["hypothesis"], "label": labels[int(r["label"])]}
                for r in _tsv(DATA / "snli" / "validation.tsv")]
        premises = sorted({r["text"] for r in rows})
        order = rng.permutation(len(premises))
        side = {premises[i]: k for k, i in enumerate(order)}
        cut = int(len(premises) * 0.6)
        pool = [r for r in rows if side[r["text"]] < cut]
        ev = [r for r in rows if side[r["text"]] >= cut]
        pool = [pool[i] for i in rng.permutation(len(pool))[:4000]]
        ev = [ev[i] for i in rng.permutation(len(ev))[:2000]]
        return {"kind": "pair", "labels": labels, "pool": pool, "eval": from_records("pair", ev, labels)}
    if name == "pos":
        from bertstudio.data.io import load_examples

        train = load_examples(DATA / "pos" / "ud_english_ewt" / "en_ewt-ud-train.conllu", fmt="conllu")
        dev = load_examples(DATA / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu", fmt="conllu")
        labels = sorted(set(train.labels) | set(dev.labels))
        cols = train.dataset.with_format("arrow")
        tokens, tags = cols["tokens"].to_pylist(), cols["tags"].to_pylist()
        pick = rng.permutation(len(tokens))[:2000]
        pool = [{"tokens": tokens[i], "tags": tags[i]} for i in pick]
        dcols = dev.dataset.with_format("arrow")
        ev = [{"tokens": t, "tags": g} for t, g in zip(dcols["tokens"].to_pylist()[:1000], dcols["tags"].to_pylist()[:1000])]
        return {"kind": "tagging", "labels": labels, "pool": pool, "eval": from_records("tagging", ev, labels)}
    raise SystemExit(f"unknown task {name}")


def accuracy(kind: str, preds: list, examples: Any) -> float:
    gold = examples.dataset.with_format("arrow")["tags" if kind == "tagging" else "label"].to_pylist()
    if kind == "tagging":
        right = total = 0
        for p, g in zip(preds, gold):
            if p is None:
                total += len(g)
                continue
            right += sum(a == b for a, b in zip(p.value, g))
            total += len(g)
        return right / total
    return float(np.mean([p is not None and p.value == g for p, g in zip(preds, gold)]))


# --- one simulated session ------------------------------------------------------------------------

def run_session(task: dict, name: str, order: str, seed: int, points: list[int], workdir: Path,
                strong_every: int) -> dict[str, Any]:
    kind, labels = task["kind"], task["labels"]
    gold_col = "tags" if kind == "tagging" else "label"
    gold = [r[gold_col] for r in task["pool"]]
    folder = workdir / f"{name}-{order}-{seed}"
    shutil.rmtree(folder, ignore_errors=True)
    project = Project.create(folder, name=name, kind=kind, labels=labels)
    project.import_examples(from_records(kind, [{**r, gold_col: None} for r in task["pool"]], labels), "train")
    shared = workdir / f"cache-{name}"
    if shared.is_dir():  # the embeddings of the pool and eval texts, computed by an earlier session
        shutil.copytree(shared, folder / "cache", dirs_exist_ok=True)
    strategy = "uncertain" if order == "loop" else "random"
    a = LabellingAssistant(project, settings=AssistSettings(seed=seed, strong_every=strong_every))
    t0 = time.perf_counter()
    a.wait_idle()
    prepare_s = time.perf_counter() - t0
    curve, latencies, labelled = [], [], 0
    try:
        for point in points:
            while labelled < point:
                training = a._busy["trainer"]
                t = time.perf_counter()
                item = a.next_row(strategy)
                t_next = time.perf_counter() - t
                if item is None:
                    break
                t = time.perf_counter()
                project.set_gold("train", item.row, gold[item.row])
                a.wait_idle(training=False)  # the annotator reads the next item: the refit is done by then
                latencies.append({"next_ms": t_next * 1000, "refit_ms": (time.perf_counter() - t) * 1000,
                                  "training": bool(training or a._busy["trainer"])})
                labelled += 1
            a.wait_idle()
            t = time.perf_counter()
            preds = a.predict(task["eval"])
            acc = accuracy(kind, preds, task["eval"])
            audit = a.audit()
            curve.append({"labels": labelled, "accuracy": acc, "shown": a.status()["shown"],
                          "audit_n": audit.n, "audit_accuracy": audit.accuracy,
                          "training_labels": a.counts()["training"], "eval_s": time.perf_counter() - t})
            print(f"  {name} {order} seed {seed}: {labelled:4d} labels  acc {acc:.4f}  shown {curve[-1]['shown']}"
                  f"  audit {audit.text()}", flush=True)
        result = {"task": name, "order": order, "seed": seed, "curve": curve, "latency": latencies,
                  "prepare_s": prepare_s, "random_estimate": a.random_order_estimate(), "history": a.history()}
    finally:
        a.close()
        project.close()
    if not shared.is_dir():
        shutil.copytree(folder / "cache", shared, ignore=shutil.ignore_patterns("assist-*"))
    shutil.rmtree(folder, ignore_errors=True)
    return result


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {"p50": float(np.percentile(values, 50)), "p95": float(np.percentile(values, 95)), "n": len(values)}


def summarise(results: list[dict]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for r in results:
        key = f"{r['task']}/{r['order']}"
        entry = out.setdefault(key, {"points": {}, "latency": {"next_ms": [], "refit_ms": [], "next_ms_training": [],
                                                               "refit_ms_training": []}})
        for c in r["curve"]:
            entry["points"].setdefault(c["labels"], []).append(c["accuracy"])
        for lat in r["latency"]:
            suffix = "_training" if lat["training"] else ""
            entry["latency"]["next_ms" + suffix].append(lat["next_ms"])
            entry["latency"]["refit_ms" + suffix].append(lat["refit_ms"])
    for entry in out.values():
        entry["points"] = {k: {"mean": float(np.mean(v)), "sd": float(np.std(v)), "n": len(v)}
                           for k, v in sorted(entry["points"].items())}
        entry["latency"] = {k: percentiles(v) for k, v in entry["latency"].items()}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=["sst2"], choices=sorted(POINTS))
    p.add_argument("--orders", nargs="+", default=["loop", "random"], choices=["loop", "random"])
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--points", type=int, nargs="+", help="label counts to report (default: per task)")
    p.add_argument("--strong-every", type=int, default=50, help="the app's default; 0 = fast model only")
    p.add_argument("--quick", action="store_true", help="1 seed, the loop only, the first three points")
    p.add_argument("--workdir", help="where projects and the shared embedding caches go (default: a temp folder)")
    p.add_argument("--json", help="write results here (e.g. benchmarks/results/labelling_loop.json)")
    p.add_argument("--resume", action="store_true", help="keep the sessions already in --json and run the rest")
    p.add_argument("--threads", type=int, help="torch threads (default: torch's; 1 on a machine shared with others)")
    p.add_argument("--merge", nargs="+", metavar="JSON", help="only combine the runs of these result files into --json")
    args = p.parse_args(argv)
    if args.merge:
        runs = [r for f in args.merge for r in json.loads(Path(f).read_text(encoding="utf-8"))["runs"]]
        write(args.json, args, runs, time.perf_counter())
        for key, entry in summarise(runs).items():
            print(key, {k: f"{v['mean']:.4f}±{v['sd']:.4f}" for k, v in entry["points"].items()}, entry["latency"])
        return 0
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.quick:
        args.seeds, args.orders = 1, ["loop"]
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="bertstudio-loop-"))
    workdir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    results = []
    if args.resume and args.json and Path(args.json).is_file():
        results = json.loads(Path(args.json).read_text(encoding="utf-8"))["runs"]
    done = {(r["task"], r["order"], r["seed"]) for r in results}
    started = time.perf_counter()
    for name in args.tasks:
        task = load_task(name)
        points = args.points or (POINTS[name][:3] if args.quick else POINTS[name])
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for order in args.orders:
                if (name, order, seed) in done:
                    continue
                results.append(run_session(task, name, order, seed, points, workdir, args.strong_every))
                if args.json:  # partial results survive an interrupted run
                    write(args.json, args, results, started)
    summary = summarise(results)
    for key, entry in summary.items():
        print(key, {k: f"{v['mean']:.4f}±{v['sd']:.4f}" for k, v in entry["points"].items()}, entry["latency"])
    if args.json:
        write(args.json, args, results, started)
    return 0


def write(path: str, args: argparse.Namespace, results: list[dict], started: float) -> None:
    import torch

    data = {"args": vars(args), "torch_threads": torch.get_num_threads(), "cpus": os.cpu_count(),
            "wall_s": time.perf_counter() - started, "summary": summarise(results), "runs": results,
            "targets": TARGETS}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=1, default=float), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
