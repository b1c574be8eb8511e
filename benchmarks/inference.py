"""Inference: PyTorch against the ONNX export (fp32 and int8), speed and agreement, on SST-2.

The bundled all-MiniLM-L6-v2 fine-tuned on SST-2 (``--train-examples`` sentences drawn
with a fixed seed, 1 epoch, batch 32, lr 1e-4; or ``--model RUN/model`` to reuse one),
exported with ``bertstudio.train.onnx_export.export_onnx`` (dynamo trace, dynamic axes,
int8 dynamic per-channel quantization), then on the SST-2 dev set (872 sentences):

* parity: the largest |logit difference| between ONNX fp32 and PyTorch fp32 on the first
  100 dev sentences (the check is <= 1e-3);
* quality: dev accuracy of PyTorch fp32, ONNX fp32 and ONNX int8 (each through the same
  Task encode and accumulator: ``engine.evaluate`` and ``onnx_export.evaluate_onnx``),
  int8's agreement with fp32's labels, and the file sizes (the checks: int8 within 1 point
  of fp32, >= 98% agreement, <= 30% of fp32's size);
* speed: sentences/s of the model call alone (tokenised once, the same length-sorted
  batches for every side) at batch 1 and batch 32, PyTorch fp32 (``model(**batch)`` under
  ``inference_mode``), ONNX fp32 and ONNX int8 (ONNX Runtime's CPU provider, the same
  thread count as torch); sides alternate within each of ``--rounds`` rounds, medians quoted.

    python benchmarks/inference.py --json benchmarks/results/inference.json      # full
    python benchmarks/inference.py --quick                                       # a minute or two
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


def fine_tune(n: int, out: Path, epochs: float) -> Path:
    from bertstudio.data.glue import load_glue
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    train_set = load_glue("SST-2", DATA, split="train").head(n, seed=0)
    dev = load_glue("SST-2", DATA, split="dev")
    config = TrainConfig(task="sentence", glue_task="SST-2", epochs=epochs, lr=1e-4, batch_size=32, max_length=128,
                         seed=0, output_dir=str(out))
    result = train(config, train_set, dev)
    if result.status != "finished":
        raise SystemExit(f"fine-tuning failed: {result.message}")
    print(f"fine-tuned on {n} SST-2 sentences: dev {result.metrics}", flush=True)
    return out / "model"


def batches(model_dir: Path, sentences: Any, size: int) -> list[dict[str, Any]]:
    """Length-sorted batches of the model inputs, tokenised once (what evaluation feeds)."""
    from bertstudio.tasks import get_task
    from bertstudio.tasks.model import load_model
    from bertstudio.train.evaluation import eval_loader

    _, tokenizer, kind, labels = load_model(model_dir)
    task = get_task(kind)
    enc = task.encode(sentences, tokenizer, max_length=128, label2id={n: i for i, n in enumerate(labels)}, training=False)
    keys = ("input_ids", "attention_mask", "token_type_ids")
    return [{k: b[k] for k in keys} for b in eval_loader(enc, task, tokenizer.pad_token_id, size, pad_to_multiple_of=None)]


def timed(fn: Callable[[dict], Any], data: list[dict]) -> float:
    """Sentences per second of ``fn`` over every batch (one warm-up batch first)."""
    fn(data[0])
    t0 = time.perf_counter()
    for batch in data:
        fn(batch)
    return sum(int(b["input_ids"].shape[0]) for b in data) / (time.perf_counter() - t0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", help="a fine-tuned SST-2 model folder (default: fine-tune the bundled MiniLM now)")
    p.add_argument("--train-examples", type=int, default=4000)
    p.add_argument("--epochs", type=float, default=1.0)
    p.add_argument("--speed-sentences", type=int, default=872, help="dev sentences timed per side and batch size")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=0, help="torch and ONNX Runtime threads (0: torch's default)")
    p.add_argument("--quick", action="store_true", help="1,000 training sentences, 256 timed sentences, 1 round")
    p.add_argument("--json", help="write the results here")
    ns = p.parse_args()
    if ns.quick:
        ns.train_examples, ns.speed_sentences, ns.rounds = 1000, 256, 1

    import numpy as np
    import torch

    from bertstudio.data.glue import load_glue
    from bertstudio.tasks.model import load_model
    from bertstudio.train.engine import evaluate
    from bertstudio.train.onnx_export import OnnxModel, evaluate_onnx, export_onnx

    threads = ns.threads or torch.get_num_threads()
    torch.set_num_threads(threads)
    work = Path(tempfile.mkdtemp(prefix="bertstudio-inference-"))
    model_dir = Path(ns.model) if ns.model else fine_tune(ns.train_examples, work / "run", ns.epochs)
    t0 = time.perf_counter()
    export = export_onnx(model_dir, work / "onnx")
    export_s = time.perf_counter() - t0
    sizes = export.sizes
    dev = load_glue("SST-2", DATA, split="dev")
    out: dict[str, Any] = {"threads": threads, "export_s": export_s, "sizes": sizes,
                           "int8_size_ratio": sizes["model.int8.onnx"] / sizes["model.onnx"]}

    # parity on 100 real sentences
    model, *_ = load_model(model_dir)
    model.eval()
    fp32, int8 = OnnxModel(export.fp32, threads=threads), OnnxModel(export.int8, threads=threads)
    worst = 0.0
    for batch in batches(model_dir, dev.head(100), 16):
        with torch.inference_mode():
            want = model(**batch).logits
        worst = max(worst, float((fp32(**batch).logits - want).abs().max()))
    out["max_abs_logit_diff_100"] = worst

    # quality on the whole dev set
    metrics_pt, rows_pt = evaluate(model_dir, dev)
    metrics_fp32, preds_fp32 = evaluate_onnx(export.fp32, dev, threads=threads)
    metrics_int8, preds_int8 = evaluate_onnx(export.int8, dev, threads=threads)
    agree_fp32 = float(np.mean([a["label"] == b["label"] for a, b in zip(rows_pt, preds_fp32)]))
    agree_int8 = float(np.mean([a["label"] == b["label"] for a, b in zip(preds_fp32, preds_int8)]))
    out["accuracy"] = {"pytorch_fp32": metrics_pt["accuracy"], "onnx_fp32": metrics_fp32["accuracy"],
                       "onnx_int8": metrics_int8["accuracy"]}
    out["agreement"] = {"onnx_fp32_vs_pytorch": agree_fp32, "onnx_int8_vs_onnx_fp32": agree_int8}

    # speed
    sentences = dev.head(ns.speed_sentences)
    sides: dict[str, Callable[[dict], Any]] = {
        "pytorch_fp32": lambda b: model(**b),
        "onnx_fp32": lambda b: fp32(**b),
        "onnx_int8": lambda b: int8(**b),
    }
    speed: dict[str, dict[str, list[float]]] = {s: {"1": [], "32": []} for s in sides}
    data = {size: batches(model_dir, sentences, size) for size in (1, 32)}
    with torch.inference_mode():
        for r in range(ns.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for size in (1, 32):
                for side in order:
                    speed[side][str(size)].append(timed(sides[side], data[size]))
            print(f"round {r + 1}: " + ", ".join(f"{s} b1 {speed[s]['1'][-1]:.0f} b32 {speed[s]['32'][-1]:.0f}" for s in sides),
                  flush=True)
    out["sentences_per_s"] = {s: {k: statistics.median(v) for k, v in d.items()} for s, d in speed.items()}
    out["sentences_per_s_all"] = speed

    print(f"\nthreads {threads}; export {export_s:.1f} s; sizes: fp32 {sizes['model.onnx'] / 1e6:.1f} MB, "
          f"int8 {sizes['model.int8.onnx'] / 1e6:.1f} MB ({100 * out['int8_size_ratio']:.1f}% of fp32)")
    print(f"ONNX fp32 vs PyTorch, 100 dev sentences: max |logit difference| {worst:.2e}")
    acc = out["accuracy"]
    print(f"SST-2 dev accuracy: PyTorch fp32 {100 * acc['pytorch_fp32']:.2f}, ONNX fp32 {100 * acc['onnx_fp32']:.2f}, "
          f"ONNX int8 {100 * acc['onnx_int8']:.2f} (int8 - fp32 {100 * (acc['onnx_int8'] - acc['onnx_fp32']):+.2f} points)")
    print(f"agreement: ONNX fp32 with PyTorch {100 * agree_fp32:.2f}%, int8 with fp32 {100 * agree_int8:.2f}%")
    print("\n| side | batch 1 (sentences/s) | batch 32 (sentences/s) |\n|---|---:|---:|")
    for s, d in out["sentences_per_s"].items():
        print(f"| {s} | {d['1']:.0f} | {d['32']:.0f} |")
    base = out["sentences_per_s"]["pytorch_fp32"]
    for s in ("onnx_fp32", "onnx_int8"):
        d = out["sentences_per_s"][s]
        print(f"{s} / pytorch_fp32: batch 1 {d['1'] / base['1']:.2f}x, batch 32 {d['32'] / base['32']:.2f}x")
    if ns.json:
        Path(ns.json).write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
