"""Small labelled sets through `bertstudio train` with no hyperparameter flags (the automatic
small-data choice, train/small_data.py) against the BERT-paper recipe the command used
before (batch 32, lr 5e-5, 3 epochs, linear head on [CLS]) and the simple baseline the
defaults must not fall below: the bundled encoder frozen, mean-pooled, with a logistic
regression (scikit-learn).

    python benchmarks/small_data_defaults.py --per-class 16 --seeds 3 --json benchmarks/results/small_data_defaults.json

Data: ../shared/data/agnews (4 topics; pool for labels, test for scoring), SST-2
(train for labels, dev for scoring), and two sets the defaults were not tuned on: ``ewt``,
the genre of a UD English EWT sentence (5 classes: answers, email, newsgroup, reviews,
weblog; the source named in each ``sent_id``; train for labels, dev for scoring) and
``chnsenticorp`` (Chinese review sentiment); and one sentence-pair set, ``snli`` (3 classes;
SNLI's validation file only: its first ``--test-rows`` pairs are scored, labels come from the
rest), whose baseline is the logistic regression on the pair features (u, v, |u-v|, u*v).
Each seed draws ``per-class`` labels per class; every method sees the same rows. Only accuracy
is compared (times are noise here).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def read_tsv(path: Path, text: str, label: str) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        quoting = csv.QUOTE_NONE if "glue" in str(path) else csv.QUOTE_MINIMAL
        return [(r[text], r[label]) for r in csv.DictReader(f, delimiter="\t", quoting=quoting)]


def datasets() -> dict[str, tuple[list, list]]:
    ag = (read_tsv(DATA / "agnews" / "pool.tsv", "text", "label"), read_tsv(DATA / "agnews" / "test.tsv", "text", "label"))
    sst = (read_tsv(DATA / "glue" / "SST-2" / "train.tsv", "sentence", "label"),
           read_tsv(DATA / "glue" / "SST-2" / "dev.tsv", "sentence", "label"))
    zh = DATA / "zh" / "ChnSentiCorp"
    chn = (read_tsv(zh / "train.tsv", "text_a", "label"), read_tsv(zh / "dev.tsv", "text_a", "label"))
    ewt = DATA / "pos" / "ud_english_ewt"
    genre = (read_conllu_genres(ewt / "en_ewt-ud-train.conllu"), read_conllu_genres(ewt / "en_ewt-ud-dev.conllu"))
    return {"agnews": ag, "sst2": sst, "ewt": genre, "chnsenticorp": chn, "snli": snli_split()}


SNLI_LABELS = {"0": "entailment", "1": "neutral", "2": "contradiction"}
TEST_HELD = 2000  # snli: the first rows of the file, never drawn as labels


def snli_split() -> tuple[list, list]:
    """((premise, hypothesis), label) rows of SNLI validation: labels from past the first
    TEST_HELD rows, scoring on the first rows (``--test-rows`` of them)."""
    with open(DATA / "snli" / "validation.tsv", encoding="utf-8", newline="") as f:
        rows = [((r["premise"], r["hypothesis"]), SNLI_LABELS[r["label"]]) for r in csv.DictReader(f, delimiter="\t")]
    return rows[TEST_HELD:], rows[:TEST_HELD]


def read_conllu_genres(path: Path) -> list[tuple[str, str]]:
    """(sentence, genre) from a UD EWT file: the genre is the ``sent_id``'s first part; sentences
    of fewer than 6 words are left out (a genre cannot be told from "Thanks!")."""
    rows, genre = [], ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# sent_id = "):
            genre = line[len("# sent_id = "):].split("-")[0]
        elif line.startswith("# text = "):
            text = line[len("# text = "):].strip()
            if len(text.split()) >= 6:
                rows.append((text, genre))
    random.Random(0).shuffle(rows)  # the files are in document order; the first N test rows span all genres
    return rows


def draw(rows: list, per_class: int, seed: int) -> list:
    rng = random.Random(seed)
    by: dict[str, list] = {}
    for r in rows:
        by.setdefault(r[1], []).append(r)
    out = [r for label in sorted(by) for r in rng.sample(by[label], per_class)]
    rng.shuffle(out)
    return out


def write_jsonl(path: Path, rows: list) -> None:
    def record(t: Any, y: str) -> dict:
        return {"text": t[0], "text_pair": t[1], "label": y} if isinstance(t, tuple) else {"text": t, "label": y}

    path.write_text("".join(json.dumps(record(t, y)) + "\n" for t, y in rows), encoding="utf-8")


def run_cli(train: Path, test: Path, out: Path, seed: int, extra: list[str], task: str = "sentence") -> dict:
    cmd = [sys.executable, "-m", "bertstudio", "--quiet", "train", "--task", task, "--train", str(train),
           "--eval", str(test), "--out", str(out), "--seed", str(seed), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    metrics = json.loads((out / "metrics.json").read_text())
    config = (out / "config.toml").read_text()
    reason = next((line for line in config.splitlines() if line.startswith("auto_reason")), "")
    return {"accuracy": metrics.get("accuracy", metrics.get("eval_accuracy")), "reason": reason}


def probe_baseline(train: list, test: list) -> float:
    import numpy as np
    from sentence_transformers import SentenceTransformer
    from sklearn.linear_model import LogisticRegression

    from bertstudio.bundled import default_model_path

    st = SentenceTransformer(default_model_path(), device="cpu")

    def features(rows: list) -> Any:
        if not isinstance(rows[0][0], tuple):
            return st.encode([t for t, _ in rows], normalize_embeddings=True)
        u = st.encode([t[0] for t, _ in rows], normalize_embeddings=True)
        v = st.encode([t[1] for t, _ in rows], normalize_embeddings=True)
        return np.concatenate([u, v, np.abs(u - v), u * v], axis=1)

    X, Z = features(train), features(test)
    clf = LogisticRegression(max_iter=1000).fit(X, [y for _, y in train])
    return float((clf.predict(Z) == [y for _, y in test]).mean())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--per-class", type=int, default=16)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--test-rows", type=int, default=800, help="scored rows per data set (first N)")
    p.add_argument("--sets", default="agnews,sst2", help="comma-separated: agnews, sst2, ewt, chnsenticorp, snli")
    p.add_argument("--no-recipe", action="store_true", help="skip the BERT-paper recipe (the slowest column)")
    p.add_argument("--json")
    ns = p.parse_args()
    results = []
    sets = datasets()
    for name in ns.sets.split(","):
        pool, test = sets[name]
        test = test[:ns.test_rows]
        task = "pair" if isinstance(test[0][0], tuple) else "sentence"
        for seed in range(ns.seeds):
            rows = draw(pool, ns.per_class, seed)
            with tempfile.TemporaryDirectory() as tmp:
                tmp = Path(tmp)
                write_jsonl(tmp / "train.jsonl", rows)
                write_jsonl(tmp / "test.jsonl", test)
                auto = run_cli(tmp / "train.jsonl", tmp / "test.jsonl", tmp / "auto", seed, [], task)
                recipe = {"accuracy": float("nan")} if ns.no_recipe else run_cli(
                    tmp / "train.jsonl", tmp / "test.jsonl", tmp / "recipe", seed,
                    ["--epochs", "3", "--lr", "5e-5", "--batch-size", "32"], task)
            base = probe_baseline(rows, test)
            row = {"set": name, "seed": seed, "labels": len(rows), "auto": auto["accuracy"], "recipe": recipe["accuracy"],
                   "frozen_lr": base, "auto_reason": auto["reason"]}
            results.append(row)
            print(json.dumps(row), flush=True)
    for name in ns.sets.split(","):
        rs = [r for r in results if r["set"] == name]
        mean = {k: sum(r[k] for r in rs) / len(rs) for k in ("auto", "recipe", "frozen_lr")}
        print(f"{name}, {ns.per_class} labels per class, {len(rs)} seeds: automatic {mean['auto']:.3f}, "
              f"BERT recipe {mean['recipe']:.3f}, frozen + logistic regression {mean['frozen_lr']:.3f}")
    if ns.json:
        Path(ns.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
