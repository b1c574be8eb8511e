"""Inference paths on SST-2 dev: bertstudio's evaluate / Predictor / pool scoring against a
plain fp32 ``model(**batch)`` loop and Hugging Face ``pipeline()`` (issue #16 item 3).

A linear-head classifier is fine-tuned from the bundled all-MiniLM-L6-v2 (``--train-examples``
SST-2 sentences, 1 epoch, batch 32, lr 1e-4; or ``--model RUN/model``), then, side by side
in ``--rounds`` interleaved rounds (medians quoted), from the 872 dev sentences to labels:

* ``pipeline_b1`` / ``pipeline_b32``: ``transformers.pipeline("text-classification")`` over
  the sentences, batch 1 (its default) and 32; built before the clock starts;
* ``plain_fp32``: the tokenizer and ``model(**batch)`` under ``inference_mode`` in fp32,
  batches of 32 in file order (what a short script does);
* ``evaluate_fp32`` / ``evaluate``: ``bertstudio.train.engine.evaluate`` with
  ``precision="fp32"`` and with its default ("auto": bf16 weights where the CPU has bf16
  units, as training uses), length-sorted batches of 64; the clock includes loading the
  model folder, which the pipeline sides do outside it;
* ``predict``: ``Predictor.predict(text=...)`` one sentence at a time (the Playground,
  ``bertstudio predict``), against ``pipeline_b1``;
* ``pool``: the labelling assistant's pool scoring, ``SentenceEncoder.encode`` of the bundled
  encoder (embeddings for the fast head), against ``plain_fp32``'s rate.

Accuracy of each side on the dev set, and agreement of ``evaluate`` with ``evaluate_fp32``.

    python benchmarks/inference_paths.py --json benchmarks/results/inference_paths.json
    python benchmarks/inference_paths.py --quick           # 1,000 training sentences, 1 round, 300 dev sentences
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "glue" / "SST-2"


def fine_tune(n: int, out: Path) -> Path:
    from bertstudio.data.glue import load_glue
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    train_set = load_glue("SST-2", DATA, split="train").head(n, seed=0)
    config = TrainConfig(task="sentence", glue_task="SST-2", epochs=1, lr=1e-4, batch_size=32, max_length=128, seed=0,
                         output_dir=str(out))
    result = train(config, train_set, None)
    if result.status != "finished":
        raise SystemExit(f"fine-tuning failed: {result.message}")
    return out / "model"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", help="a fine-tuned SST-2 model folder (default: fine-tune one now)")
    p.add_argument("--train-examples", type=int, default=2000)
    p.add_argument("--dev-examples", type=int, default=None, help="the first N dev sentences (default: all 872)")
    p.add_argument("--predict-examples", type=int, default=200, help="sentences predicted one at a time")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json")
    ns = p.parse_args()
    if ns.quick:
        ns.train_examples, ns.rounds, ns.dev_examples, ns.predict_examples = 1000, 1, 300, 50

    import numpy as np
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, pipeline

    from bertstudio.assist.encoder import SentenceEncoder
    from bertstudio.data.glue import load_glue
    from bertstudio.bundled import default_model_path
    from bertstudio.train.engine import evaluate
    from bertstudio.train.evaluation import for_inference
    from bertstudio.train.predict import Predictor

    work = Path(tempfile.mkdtemp(prefix="bertstudio-inference-paths-"))
    model_dir = Path(ns.model) if ns.model else fine_tune(ns.train_examples, work / "run")
    dev = load_glue("SST-2", DATA, split="dev")
    if ns.dev_examples:
        dev = dev.head(ns.dev_examples)
    texts = dev.dataset.with_format("arrow")["text"].to_pylist()
    gold = dev.dataset.with_format("arrow")["label"].to_pylist()
    few = texts[: ns.predict_examples]

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    plain = AutoModelForSequenceClassification.from_pretrained(str(model_dir), dtype=torch.float32).eval()
    pipe = pipeline("text-classification", model=plain, tokenizer=tokenizer, device="cpu")
    predictor = Predictor.load(model_dir)
    encoder = SentenceEncoder.from_path(default_model_path())
    _, _, auto_precision = for_inference(torch.nn.Linear(1, 1), "auto", "auto")

    def plain_loop() -> list[str]:
        out = []
        with torch.inference_mode():
            for i in range(0, len(texts), 32):
                batch = tokenizer(texts[i:i + 32], padding=True, truncation=True, max_length=128, return_tensors="pt")
                out += [plain.config.id2label[int(k)] for k in plain(**batch).logits.argmax(-1)]
        return out

    sides: dict[str, tuple[Callable[[], Any], int]] = {
        "pipeline_b1": (lambda: [r["label"] for r in pipe(texts, batch_size=1, truncation=True, max_length=128)], len(texts)),
        "pipeline_b32": (lambda: [r["label"] for r in pipe(texts, batch_size=32, truncation=True, max_length=128)], len(texts)),
        "plain_fp32": (plain_loop, len(texts)),
        "evaluate_fp32": (lambda: [r["label"] for r in evaluate(model_dir, dev, precision="fp32")[1]], len(texts)),
        "evaluate": (lambda: [r["label"] for r in evaluate(model_dir, dev)[1]], len(texts)),
        "predict": (lambda: [predictor.predict(text=t)["label"] for t in few], len(few)),
        "pipeline_b1_few": (lambda: [r["label"] for r in pipe(few, batch_size=1, truncation=True, max_length=128)], len(few)),
        "pool": (lambda: encoder.encode(texts), len(texts)),
    }
    rates: dict[str, list[float]] = {s: [] for s in sides}
    labels: dict[str, Any] = {}
    for side, (fn, _) in sides.items():  # warm-up: first calls build kernels and caches
        labels[side] = fn() if side != "pool" else None
    for r in range(ns.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for side in order:
            fn, n = sides[side]
            t0 = time.perf_counter()
            fn()
            rates[side].append(n / (time.perf_counter() - t0))
        print(f"round {r + 1}: " + ", ".join(f"{s} {rates[s][-1]:.0f}" for s in sides), flush=True)

    med = {s: statistics.median(v) for s, v in rates.items()}
    acc = {s: float(np.mean([a == b for a, b in zip(labels[s], gold)])) for s in sides
           if s not in ("pool", "predict", "pipeline_b1_few")}
    agree = float(np.mean([a == b for a, b in zip(labels["evaluate"], labels["evaluate_fp32"])]))
    agree_predict = float(np.mean([a == b for a, b in zip(labels["predict"], labels["pipeline_b1_few"])]))
    print(f"\ntorch threads {torch.get_num_threads()}; evaluate's auto precision here: {auto_precision}")
    print("| side | sentences/s | dev accuracy |\n|---|---:|---:|")
    for s in sides:
        print(f"| {s} | {med[s]:.0f} | {100 * acc[s]:.2f} |" if s in acc else f"| {s} | {med[s]:.0f} | |")
    print(f"evaluate / pipeline_b1 {med['evaluate'] / med['pipeline_b1']:.2f}x, / pipeline_b32 "
          f"{med['evaluate'] / med['pipeline_b32']:.2f}x, / plain_fp32 {med['evaluate'] / med['plain_fp32']:.2f}x; "
          f"evaluate vs evaluate_fp32: {100 * (acc['evaluate'] - acc['evaluate_fp32']):+.2f} points, "
          f"{100 * agree:.2f}% same labels")
    print(f"predict / pipeline_b1 (one sentence at a time) {med['predict'] / med['pipeline_b1_few']:.2f}x "
          f"({100 * agree_predict:.1f}% same labels); pool / plain_fp32 {med['pool'] / med['plain_fp32']:.2f}x")
    if ns.json:
        Path(ns.json).write_text(json.dumps({"auto_precision": auto_precision, "rates": rates, "median": med,
                                             "accuracy": acc, "agreement_evaluate_fp32": agree,
                                             "agreement_predict_pipeline": agree_predict}, indent=1) + "\n")


if __name__ == "__main__":
    main()
