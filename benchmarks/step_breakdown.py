"""Where one training step of the engine goes: data, forward, backward, clip, AdamW.

Runs the engine's own pieces (``build_model``, the task's encoding, ``EpochBatchSampler``
with length grouping, ``TrimmedCollate``, ``make_optimizer``) on the bundled MiniLM
and SST-2 sentences, and times each phase per optimizer step (median over the
steps after a warm-up). Variants answer "does X pay?" questions:

* ``--variant frozen_word_emb``: word-embedding matrix (11.7M of 22.7M parameters)
  without gradient - what its dense gradient plus AdamW update costs.
* ``--variant no_clip``: what gradient clipping (one foreach norm) costs.
* ``--threads N``: torch.set_num_threads.

    python benchmarks/step_breakdown.py --steps 30
    python benchmarks/step_breakdown.py --steps 30 --variant frozen_word_emb
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
    p.add_argument("--variant", default="default", choices=("default", "frozen_word_emb", "no_clip"))
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--precision", default="fp32", choices=("fp32", "bf16"), help="bf16: CPU autocast, as the engine on AMX CPUs")
    ns = p.parse_args()

    import torch
    from accelerate.utils import set_seed

    from bertstudio.data.glue import load_glue
    from bertstudio.tasks import get_task
    from bertstudio.tasks.base import model_inputs
    from bertstudio.tasks.model import build_model
    from bertstudio.train.batching import EpochBatchSampler, TrimmedCollate
    from bertstudio.train.optim import make_optimizer

    if ns.threads:
        torch.set_num_threads(ns.threads)
    n = 32 * (ns.steps + ns.warmup)
    train = load_glue("SST-2", SST2, split="train").head(n, seed=0)
    set_seed(42)
    model, tokenizer = build_model("sentence", None, labels=list(train.labels), glue_task="SST-2")
    task = get_task("sentence")
    enc = task.encode(train, tokenizer, training=True, max_length=128, label2id={k: i for i, k in enumerate(train.labels)})
    if ns.variant == "frozen_word_emb":
        model.base_model.embeddings.word_embeddings.weight.requires_grad_(False)
    collate = TrimmedCollate(partial(task.collate, pad_token_id=tokenizer.pad_token_id))
    batches = EpochBatchSampler(enc["length"], 32, seed=42).batches()
    opt = make_optimizer(model, lr=1e-4, weight_decay=0.01, device="cpu")
    params = [q for q in model.parameters() if q.requires_grad]
    model.train()
    phases: dict[str, list[float]] = {k: [] for k in ("data", "forward", "backward", "clip", "adamw", "zero_grad", "step")}
    for i, idx in enumerate(batches):
        t0 = time.perf_counter()
        batch = collate(enc.__getitems__(idx))  # what DataLoader's fetcher does with a batch_sampler
        t1 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=ns.precision == "bf16"):
            loss = model(**model_inputs(batch)).loss
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        if ns.variant != "no_clip":
            torch.nn.utils.clip_grad_norm_(params, 1.0, foreach=True)
        t4 = time.perf_counter()
        opt.step()
        t5 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        t6 = time.perf_counter()
        if i >= ns.warmup:
            for k, v in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t6 - t0)):
                phases[k].append(v)
    trainable = sum(q.numel() for q in params)
    print(f"variant {ns.variant}, {ns.precision}, threads {torch.get_num_threads()}, trainable {trainable / 1e6:.1f}M, "
          f"{len(phases['step'])} steps timed, batch 32")
    total = statistics.median(phases["step"])
    for k, v in phases.items():
        med = statistics.median(v)
        print(f"  {k:10s} {1000 * med:8.1f} ms  {100 * med / total:5.1f}%")
    print(f"  => {32 / total:.1f} examples/s at the median step")


if __name__ == "__main__":
    main()
