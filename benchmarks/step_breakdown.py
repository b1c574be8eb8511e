"""Where one training step of the engine goes: data, forward, backward, optimizer, after the step.

Builds the bundled MiniLM twice (same seed) on ``--steps`` + ``--warmup`` batches of SST-2
sentences and trains both through the engine's own path objects (``bertstudio.train.paths``),
hook by hook as ``fit()`` calls them, timing each phase per optimizer step (median over the
steps after a warm-up). The two paths are alternated step by step on the same batches, so
the machine's noise hits both alike:

* ``engine``: ``CpuFastPath``, what ``fit()`` runs in one CPU process - fast dropout, sparse
  word-embedding gradients with lazy AdamW that clips by itself, glibc malloc kept warm and,
  in bf16, the bf16 copy with fp32 master weights (its gradient hand-over runs in
  ``backward``, its weight copy-back in ``after_step``) fed batches of planned widths;
* ``plain``: ``PlainPath`` on the CPU, the loop Hugging Face Trainer runs - ``nn.Dropout``,
  a dense embedding gradient, ``clip_grad_norm_`` then fused AdamW, autocast over fp32
  weights in bf16 (what ``fit()`` runs on GPUs and under DDP).

    python benchmarks/step_breakdown.py --steps 40 --precision bf16
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SST2 = REPO.parent / "shared" / "data" / "glue" / "SST-2"
PHASES = ("data", "forward", "backward", "optimizer", "after_step", "step")


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
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import RunParts
    from bertstudio.train.paths import CpuFastPath, PlainPath

    if ns.threads:
        torch.set_num_threads(ns.threads)
    train = load_glue("SST-2", SST2, split="train").head(32 * (ns.steps + ns.warmup), seed=0)
    task, labels = get_task("sentence"), list(train.labels)
    config = TrainConfig(batch_size=32, lr=1e-4, weight_decay=0.01, max_grad_norm=1.0, max_length=128, seed=42,
                         device="cpu", precision=ns.precision)

    # One path at a time from model to prepared loader: each makes its own Accelerator,
    # which resets accelerate's process-wide state (see distributed.make_accelerator).
    paths, batches = {}, {}
    for name in ("engine", "plain"):
        set_seed(42)
        model, tokenizer = build_model("sentence", None, labels=labels, glue_task="SST-2")
        path = CpuFastPath(config, ns.precision) if name == "engine" else PlainPath(config, "cpu", ns.precision)
        parts = RunParts(model, tokenizer, task, labels)
        loader, _ = path.loaders(parts, task.encode(train, tokenizer, training=True, max_length=128,
                                                     label2id={k: i for i, k in enumerate(labels)}))
        model, loader, _ = path.prepare(model, loader)
        model.train()
        path.module.train()
        loader.set_epoch(0)
        paths[name], batches[name] = path, iter(loader)

    phases = {name: {k: [] for k in PHASES} for name in paths}
    for i in range(ns.steps + ns.warmup):
        for name in (("engine", "plain") if i % 2 == 0 else ("plain", "engine")):
            path = paths[name]
            t0 = time.perf_counter()
            batch = next(batches[name])
            t1 = time.perf_counter()
            with path.autocast():
                loss = path.module(**model_inputs(batch)).loss
            t2 = time.perf_counter()
            path.accelerator.backward(loss)
            path.after_backward()
            t3 = time.perf_counter()
            path.step(config.lr)
            t4 = time.perf_counter()
            path.after_step()
            t5 = time.perf_counter()
            if i >= ns.warmup:
                for k, v in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)):
                    phases[name][k].append(v)
    for path in paths.values():
        path.undo()
    print(f"{ns.precision}, threads {torch.get_num_threads()}, {len(phases['engine']['step'])} steps timed per path, batch 32")
    print(f"  {'phase':10s} {'engine':>10s} {'plain':>10s}")
    for k in PHASES:
        e, p_ = (statistics.median(phases[name][k]) for name in ("engine", "plain"))
        print(f"  {k:10s} {1000 * e:8.1f} ms {1000 * p_:8.1f} ms")
    e, p_ = (statistics.median(phases[name]["step"]) for name in ("engine", "plain"))
    print(f"  => engine {32 / e:.1f} ex/s, plain {32 / p_:.1f} ex/s at the median step: {p_ / e:.2f}x")


if __name__ == "__main__":
    main()
