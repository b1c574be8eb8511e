"""Where one training step of the engine goes: data, forward, backward, optimizer, copy back.

Runs the engine's own pieces (``build_model``, the task's encoding, ``EpochBatchSampler``
with length grouping, ``TrimmedCollate``, ``make_optimizer``) on the bundled MiniLM
and SST-2 sentences, and times each phase per optimizer step (median over the steps
after a warm-up). Two paths, alternated step by step on the same batches so the
machine's noise hits both alike:

* ``engine``: what ``fit()`` does in one CPU process - fast dropout, sparse word-embedding
  gradients with lazy AdamW that clips by itself, glibc malloc kept warm and, in bf16,
  the bf16 copy with fp32 master weights (``collect``/``push`` are its gradient hand-over
  and weight copy-back);
* ``plain``: the loop Hugging Face Trainer runs - ``nn.Dropout``, a dense embedding
  gradient, ``clip_grad_norm_`` then fused AdamW, autocast over fp32 weights in bf16.

    python benchmarks/step_breakdown.py --steps 40 --precision bf16
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SST2 = REPO.parent / "shared" / "data" / "glue" / "SST-2"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--precision", default="bf16", choices=("fp32", "bf16"), help="bf16: as the engine on AMX CPUs")
    ns = p.parse_args()

    import torch
    from accelerate.utils import set_seed

    from bertstudio.data.glue import load_glue
    from bertstudio.tasks import get_task
    from bertstudio.tasks.base import model_inputs
    from bertstudio.tasks.model import build_model
    from bertstudio.train.batching import EpochBatchSampler, TrimmedCollate
    from bertstudio.train.dropout import use_fast_dropout
    from bertstudio.train.memory import keep_freed_memory
    from bertstudio.train.optim import make_optimizer
    from bertstudio.train.shadow import Bf16Shadow, sparse_embedding, word_embedding

    if ns.threads:
        torch.set_num_threads(ns.threads)
    bf16 = ns.precision == "bf16"
    n = 32 * (ns.steps + ns.warmup)
    train = load_glue("SST-2", SST2, split="train").head(n, seed=0)
    task = get_task("sentence")

    def setup(path: str) -> dict:
        set_seed(42)
        model, tokenizer = build_model("sentence", None, labels=list(train.labels), glue_task="SST-2")
        engine = path == "engine"
        if engine:
            use_fast_dropout(model)
            sparse_embedding(word_embedding(model))
        opt = make_optimizer(model, lr=1e-4, weight_decay=0.01, device="cpu", clip_norm=1.0 if engine else None)
        shadow = Bf16Shadow(model) if engine and bf16 else None
        run = shadow.module if shadow else model
        run.train()
        return dict(model=model, tokenizer=tokenizer, opt=opt, shadow=shadow, run=run, engine=engine,
                    params=[q for q in model.parameters() if q.requires_grad])

    paths = {name: setup(name) for name in ("engine", "plain")}
    tokenizer = paths["engine"]["tokenizer"]
    enc = task.encode(train, tokenizer, training=True, max_length=128, label2id={k: i for i, k in enumerate(train.labels)})
    collate = TrimmedCollate(partial(task.collate, pad_token_id=tokenizer.pad_token_id))
    batches = EpochBatchSampler(enc["length"], 32, seed=42).batches()
    names = ("data", "forward", "backward", "optimizer", "push", "zero_grad", "step")
    phases = {path: {k: [] for k in names} for path in paths}
    keep_freed_memory()  # process-wide: both paths get it (the engine sets it for every CPU run)
    for i, idx in enumerate(batches):
        for path in (("engine", "plain") if i % 2 == 0 else ("plain", "engine")):
            s = paths[path]
            t0 = time.perf_counter()
            batch = collate(enc.__getitems__(idx))  # what DataLoader's fetcher does with a batch_sampler
            t1 = time.perf_counter()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                loss = s["run"](**model_inputs(batch)).loss
            t2 = time.perf_counter()
            loss.backward()
            if s["shadow"]:
                s["shadow"].collect()
            t3 = time.perf_counter()
            if not s["engine"]:
                torch.nn.utils.clip_grad_norm_(s["params"], 1.0, foreach=True)
            s["opt"].step()
            t4 = time.perf_counter()
            if s["shadow"]:
                s["shadow"].push()
            t5 = time.perf_counter()
            s["opt"].zero_grad(set_to_none=True)
            t6 = time.perf_counter()
            if i >= ns.warmup:
                for k, v in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t6 - t0)):
                    phases[path][k].append(v)
    print(f"{ns.precision}, threads {torch.get_num_threads()}, {len(phases['engine']['step'])} steps timed per path, batch 32")
    print(f"  {'phase':10s} {'engine':>10s} {'plain':>10s}")
    for k in names:
        e, p_ = (statistics.median(phases[path][k]) for path in ("engine", "plain"))
        print(f"  {k:10s} {1000 * e:8.1f} ms {1000 * p_:8.1f} ms")
    e, p_ = (statistics.median(phases[path]["step"]) for path in ("engine", "plain"))
    print(f"  => engine {32 / e:.1f} ex/s, plain {32 / p_:.1f} ex/s at the median step: {p_ / e:.2f}x")


if __name__ == "__main__":
    main()
