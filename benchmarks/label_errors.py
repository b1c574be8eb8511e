"""The label-error finder against planted errors: 5% of 1,000 SST-2 train labels flipped.

A project holds 1,000 SST-2 train sentences (at least 10 words, drawn with seed 0: the
train file also holds the parse-tree phrases of each sentence, 1-3 words long, which a
user labelling their own texts does not see; benchmarks/labelling_loop.py draws its pool
the same way). For each of 5 seeds, 50 rows drawn at random get the other label through
``Project.set_gold`` (as a user's slip would be stored), the finder runs on the project
exactly as the app runs it (:func:`bertstudio.assist.label_errors.find_label_errors`,
bundled MiniLM, 5 folds, cleanlab), and the flips are undone. ``--method fast`` (the
default, the app's quick check) judges each fold with the fast head on frozen vectors;
``--method finetune`` (the app's thorough check) fine-tunes MiniLM on each fold's
training part, and ranks by the out-of-fold probabilities averaged with those of each
row's training passes in the other folds.

Reported per seed and as means: precision and recall of cleanlab's flagged set against
the flipped set, the area under the precision-recall curve of the whole ranking
(scikit-learn's ``average_precision_score`` on self-confidence), precision among the
top k (k = number flipped), the model's cross-validated accuracy, and seconds. The first
seed's time includes embedding the 1,000 sentences (the project's cache is empty); later
seeds reuse the cache, as the app does. Targets (issue #15): PR-AUC >= 0.50, precision@k
>= 0.50, <= 3 minutes on 2 cores.

Then the finder runs over SST-2 dev's own labels (872) and its top 20 flags are written
to ``results/label_errors_sst2_dev_top20.txt`` for reading by eye.

``--task agnews`` runs the same on the first 1,000 rows of ../shared/data/agnews/pool.tsv
(4 news topics): a flipped row gets one of the three other topics at random, as a slip
between any two keys would. No dev pass there.

Usage::

    python benchmarks/label_errors.py --json benchmarks/results/label_errors.json
    python benchmarks/label_errors.py --method finetune --json benchmarks/results/label_errors_finetune.json
    python benchmarks/label_errors.py --task agnews --json benchmarks/results/label_errors_agnews.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bertstudio.assist.label_errors import FOLDS, find_label_errors  # noqa: E402
from bertstudio.data.examples import from_records  # noqa: E402
from bertstudio.data.glue import load_glue  # noqa: E402
from bertstudio.data.project import Project  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "glue" / "SST-2"
AGNEWS = Path(__file__).resolve().parents[2] / "shared" / "data" / "agnews" / "pool.tsv"
TOPICS = ["World", "Sports", "Business", "Sci/Tech"]
RESULTS = Path(__file__).resolve().parent / "results"
NAMES = {"0": "negative", "1": "positive"}


def records(split: str, n: int | None, seed: int = 0) -> list[dict]:
    ex = load_glue("SST-2", DATA, split)
    table = ex.dataset.with_format("arrow")
    texts, gold = table["text"].to_pylist(), table["label"].to_pylist()
    rows = list(range(len(texts)))
    if n is not None:
        ok = [i for i in rows if len(texts[i].split()) >= 10]
        rows = [int(i) for i in np.random.default_rng(seed).permutation(ok)[:n]]
    return [{"text": texts[i], "label": NAMES.get(str(gold[i]), str(gold[i]))} for i in rows]


def agnews_records(n: int) -> list[dict]:
    import csv

    with open(AGNEWS, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))[:n]
    return [{"text": r["text"], "label": r["label"]} for r in rows]


def slip(given: str, labels: list[str], rng: np.random.Generator) -> str:
    """Another label than ``given``, at random (with two labels: the other one)."""
    others = [name for name in labels if name != given]
    return others[int(rng.integers(len(others)))]


def score(report, flipped: set[int]) -> dict:
    from sklearn.metrics import average_precision_score

    flagged = {f.row for f in report.flags}
    hit = len(flagged & flipped)
    truth = np.array([r in flipped for r in report.rows])
    ranking = report.ranking()
    k = len(flipped)
    return {
        "flipped": k, "flagged": len(flagged),
        "precision": hit / len(flagged) if flagged else 0.0,
        "recall": hit / k,
        "pr_auc": float(average_precision_score(truth, -report.quality)),
        "precision_at_k": len(set(ranking[:k].tolist()) & flipped) / k,
        "cv_accuracy": report.accuracy,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", choices=("sst2", "agnews"), default="sst2")
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=0.05)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--method", choices=("fast", "finetune"), default="fast")
    ap.add_argument("--folds", type=int, default=FOLDS, help=f"cross-validation folds (the app's: {FOLDS})")
    ap.add_argument("--no-dev", action="store_true", help="skip the pass over SST-2 dev")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    import torch

    torch.set_num_threads(2)
    out: dict = {"task": args.task, "method": args.method, "folds": args.folds, "rows": args.rows, "rate": args.rate,
                 "seeds": []}
    labels = ["negative", "positive"] if args.task == "sst2" else TOPICS
    train = records("train", args.rows) if args.task == "sst2" else agnews_records(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        project = Project.create(Path(tmp) / args.task, name=args.task, kind="sentence", labels=labels)
        project.import_examples(from_records("sentence", train, labels=labels), "train")
        if args.task == "sst2":
            project.import_examples(from_records("sentence", records("dev", None), labels=labels), "dev")
        n_flip = int(round(args.rate * len(train)))
        for seed in range(args.seeds):
            rng = np.random.default_rng(1000 + seed)
            flipped = sorted(int(r) for r in rng.choice(len(train), n_flip, replace=False))
            original = {r: project.gold("train", r) for r in flipped}
            for r in flipped:
                project.set_gold("train", r, slip(original[r], labels, rng))
            start = time.perf_counter()
            report = find_label_errors(project, "train", seed=seed, method=args.method, folds=args.folds)
            seconds = time.perf_counter() - start
            for r in flipped:
                project.set_gold("train", r, original[r])
            result = {"seed": seed, "seconds": round(seconds, 1), **score(report, set(flipped))}
            out["seeds"].append(result)
            print(json.dumps(result), flush=True)
        keys = ("precision", "recall", "pr_auc", "precision_at_k", "cv_accuracy", "seconds")
        out["mean"] = {k: float(np.mean([s[k] for s in out["seeds"]])) for k in keys}
        print("mean", json.dumps({k: round(v, 3) for k, v in out["mean"].items()}), flush=True)

        if args.task != "sst2" or args.no_dev:
            project.close(compact=False)
            if args.json:
                args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
            return
        start = time.perf_counter()
        dev = find_label_errors(project, "dev", method=args.method, folds=args.folds)
        out["dev"] = {"rows": dev.checked, "flags": len(dev.flags), "cv_accuracy": dev.accuracy,
                      "seconds": round(time.perf_counter() - start, 1)}
        lines = [f"SST-2 dev ({dev.checked} rows): {len(dev.flags)} flags; cross-validated accuracy "
                 f"{dev.accuracy:.3f} ({dev.folds}-fold {'fast head on' if args.method == 'fast' else 'fine-tuning of'} "
                 f"the bundled MiniLM). Top 20 by self-confidence:", ""]
        for i, f in enumerate(dev.flags[:20], 1):
            lines.append(f"{i:2d}. dev row {f.row}: given {f.given}, suggested {f.suggested} "
                         f"(p={f.suggested_prob:.2f})\n    {f.text}")
        suffix = "" if args.method == "fast" else f"_{args.method}"
        (RESULTS / f"label_errors_sst2_dev_top20{suffix}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(json.dumps(out["dev"]), flush=True)
        project.close(compact=False)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
