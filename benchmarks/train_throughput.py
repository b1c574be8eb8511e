"""Training throughput: bertstudio's engine (default settings) against Hugging Face Trainer.

The bundled all-MiniLM-L6-v2 fine-tuned on SST-2 (``--examples`` training sentences
drawn with a fixed seed, batch 32, lr 1e-4, 1 epoch, warm-up 0.1, max length 128,
weight decay 0.01, clipping 1.0), then evaluated on the SST-2 dev set (872).

Settings, interleaved seed by seed (each run in a fresh Python process, so no run
inherits another's allocator, thread pool or Accelerate state):

* ``bertstudio``      - ``bertstudio.train.engine`` with its defaults (device/precision auto).
* ``bertstudio_fp32`` - the same engine with ``precision="fp32"``: against ``hf_group_fp32``
                        it compares the two training loops at equal precision and batching.
* ``hf_default``      - ``transformers.Trainer`` with its defaults (random sampler, fp32).
* ``hf_group_fp32``   - Trainer with ``train_sampling_strategy="group_by_length"`` in fp32:
                        the Trainer's best setting on a CPU without bf16 units.
* ``hf_best``         - Trainer with group_by_length and ``bf16=True`` (the issue's "best"
                        setting). On a CPU without avx512_bf16/AMX bf16 runs ~100x slower,
                        so there it is timed on its first ``--bf16-steps`` optimizer steps
                        only (``--bf16-full`` runs the whole epoch); on CUDA it runs in full.

Every setting gets the same model and head initialisation (``build_model`` after
``set_seed(seed)``), the same tokenised rows (unpadded; each side pads per batch:
bertstudio's collator, the Trainer's DataCollatorWithPadding) and the same
hyperparameters. examples/s counts the training loop only (first step start to last
optimizer step end, synchronised on CUDA); tokenisation, model loading and
evaluation are reported separately as wall time.

FLOPs: training costs ~6 x N FLOPs per processed token (N = encoder parameters without
embeddings; the forward is 2N, the backward 4N) plus attention scores and mixing,
12 x layers x T x hidden per token for a batch padded to T. Computed per batch from
the shapes the model actually received, and compared with a matmul peak measured in
this process for fp32 and bf16.

    python benchmarks/train_throughput.py                       # full: 4000 examples, 3 seeds
    python benchmarks/train_throughput.py --examples 500 --seeds 1   # quick check
    python benchmarks/train_throughput.py --device cuda         # GPU (bf16, SDPA)
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
DATA = REPO.parent / "shared" / "data" / "glue" / "SST-2"
SETTINGS = ("bertstudio", "bertstudio_fp32", "hf_default", "hf_group_fp32", "hf_best")
HYPER = dict(batch_size=32, lr=1e-4, epochs=1, warmup_ratio=0.1, max_length=128, weight_decay=0.01, max_grad_norm=1.0)
SUBSET_SEED = 0  # which training sentences are drawn: the same for every run


# ---- measurement helpers ----------------------------------------------------------------
def matmul_peak(dtype_name: str, device: str, seconds: float = 1.0) -> float:
    """FLOP/s of square matmuls in ``dtype`` on ``device`` (best of a timed loop)."""
    import torch

    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype_name]
    cuda = device.startswith("cuda")
    # bf16 on an AVX2 CPU runs at ~1 GFLOP/s: a smaller matrix keeps the probe short
    n = 8192 if cuda else (1024 if dtype_name == "fp32" else 512)
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    best, t_end = 0.0, time.perf_counter() + seconds
    torch.mm(a, b)  # warm-up
    while time.perf_counter() < t_end:
        if cuda:
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(10 if cuda else 1):
            torch.mm(a, b)
        if cuda:
            torch.cuda.synchronize()
        best = max(best, 2 * n**3 * (10 if cuda else 1) / (time.perf_counter() - t0))
    return best


class ShapeRecorder:
    """Forward pre-hook on the top model: (batch, padded length) and real tokens of every
    training forward. Real tokens are summed on the device (no sync per step)."""

    def __init__(self, model: Any) -> None:
        self.shapes: list[tuple[int, int]] = []
        self.times: list[float] = []
        self.real = None
        self.handle = model.register_forward_pre_hook(self._hook, with_kwargs=True)

    def _hook(self, module: Any, args: Any, kwargs: dict) -> None:
        if not module.training:
            return
        ids = kwargs.get("input_ids", args[0] if args else None)
        mask = kwargs.get("attention_mask")
        self.shapes.append(tuple(ids.shape))
        self.times.append(time.perf_counter())
        real = mask.sum() if mask is not None else ids.numel()
        self.real = real if self.real is None else self.real + real

    def summary(self, model: Any) -> dict[str, float]:
        cfg = model.config
        encoder = model.base_model.encoder
        n_params = sum(p.numel() for p in encoder.parameters())
        d, layers = cfg.hidden_size, cfg.num_hidden_layers
        flops = sum(6 * n_params * b * t + 12 * layers * b * t * t * d for b, t in self.shapes)
        examples = sum(b for b, _ in self.shapes)
        padded = sum(b * t for b, t in self.shapes)
        real = int(self.real) if self.real is not None else 0
        return dict(examples_seen=examples, padded_tokens=padded, real_tokens=real, train_flops=flops, step_starts=self.times, shapes=self.shapes,
                    encoder_params=n_params, steps=len(self.shapes))


def load_data(n: int) -> tuple[Any, Any]:
    from bertstudio.data.glue import load_glue

    train = load_glue("SST-2", DATA, split="train").head(n, seed=SUBSET_SEED)
    dev = load_glue("SST-2", DATA, split="dev")
    return train, dev


def sync(device: str) -> None:
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize()


# ---- one run (in a child process) -------------------------------------------------------
def run_bertstudio(seed: int, n: int, device: str, precision: str = "auto") -> dict[str, Any]:
    from accelerate.utils import set_seed

    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import build_parts, fit
    from bertstudio.train.events import RunStarted, StepLogged

    t_wall = time.perf_counter()
    train, dev = load_data(n)
    h = HYPER
    config = TrainConfig(task="sentence", glue_task="SST-2", seed=seed, batch_size=h["batch_size"], lr=h["lr"],
                         epochs=h["epochs"], warmup_ratio=h["warmup_ratio"], max_length=h["max_length"],
                         weight_decay=h["weight_decay"], max_grad_norm=h["max_grad_norm"],
                         device="auto" if device == "auto" else device, precision=precision)
    # what engine.train does before fit(): seed, then build (the head's init comes from the seed)
    set_seed(seed)
    parts = build_parts(config, list(train.labels))
    rec = ShapeRecorder(parts.model)
    marks: dict[str, Any] = {}

    def on_event(event: Any, control: Any = None) -> None:
        if isinstance(event, RunStarted):
            marks["start"] = time.perf_counter()
            marks["device"], marks["precision"] = event.device, event.precision
        elif isinstance(event, StepLogged) and event.step == event.total_steps:
            sync(marks.get("device", "cpu"))
            marks["end"] = time.perf_counter()

    result = fit(config, parts, train, dev, callbacks=[on_event])
    if result.status != "finished":
        raise SystemExit(f"bertstudio run {result.status}: {result.message}")
    out = dict(train_s=marks["end"] - marks["start"], accuracy=result.metrics["accuracy"],
               device=marks["device"], precision=marks["precision"],
               attn=getattr(parts.model.config, "_attn_implementation", "?"))
    out.update(rec.summary(parts.model))
    out["wall_s"] = time.perf_counter() - t_wall
    return out


def run_hf(seed: int, n: int, device: str, setting: str, max_steps: int | None) -> dict[str, Any]:
    import numpy as np
    from accelerate.utils import set_seed
    from transformers import DataCollatorWithPadding, Trainer, TrainerCallback, TrainingArguments

    from bertstudio.tasks import get_task
    from bertstudio.tasks.model import build_model

    t_wall = time.perf_counter()
    train, dev = load_data(n)
    labels = list(train.labels)
    set_seed(seed)
    model, tokenizer = build_model("sentence", None, labels=labels, glue_task="SST-2")
    task = get_task("sentence")
    enc = dict(max_length=HYPER["max_length"], label2id={name: i for i, name in enumerate(labels)})
    # the same unpadded rows the engine trains on; "length" is the Trainer's length column
    train_ds = task.encode(train, tokenizer, training=True, **enc).remove_columns(["example_index"])
    dev_ds = task.encode(dev, tokenizer, training=True, **enc).remove_columns(["example_index"])
    cpu = not device.startswith("cuda")
    kw: dict[str, Any] = dict(
        output_dir=tempfile.mkdtemp(prefix="hfbench-"), per_device_train_batch_size=HYPER["batch_size"],
        learning_rate=HYPER["lr"], num_train_epochs=HYPER["epochs"], warmup_steps=HYPER["warmup_ratio"],
        weight_decay=HYPER["weight_decay"], max_grad_norm=HYPER["max_grad_norm"], seed=seed,
        report_to=[], save_strategy="no", eval_strategy="no", dataloader_num_workers=0, disable_tqdm=True,
        use_cpu=cpu, logging_strategy="no",
    )
    if setting in ("hf_group_fp32", "hf_best"):
        kw["train_sampling_strategy"] = "group_by_length"
    if setting == "hf_best":
        kw["bf16"] = True
    if max_steps:
        kw["max_steps"] = max_steps
    args = TrainingArguments(**kw)
    rec = ShapeRecorder(model)
    marks: dict[str, float] = {}

    class Clock(TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, **_: Any) -> None:
            marks["start"] = time.perf_counter()  # as the engine's RunStarted: before the first batch

        def on_step_begin(self, args: Any, state: Any, control: Any, **_: Any) -> None:
            if state.global_step == 1:  # the bf16 prefix is also timed from its second step
                sync(device)
                marks["second"] = time.perf_counter()

        def on_step_end(self, args: Any, state: Any, control: Any, **_: Any) -> None:
            if state.global_step == state.max_steps:
                sync(device)
                marks["end"] = time.perf_counter()

    trainer = Trainer(model=model, args=args, train_dataset=train_ds, data_collator=DataCollatorWithPadding(tokenizer),
                      callbacks=[Clock()])
    trainer.train()
    out: dict[str, Any] = dict(train_s=marks["end"] - marks["start"], device=str(args.device),
                               precision="bf16" if args.bf16 else "fp32",
                               attn=getattr(model.config, "_attn_implementation", "?"))
    out.update(rec.summary(model))
    steps = out["steps"]
    if steps > 1:  # steady state: without the first step's warm-up
        out["steady_examples_per_s"] = sum(b for b, _ in rec.shapes[1:]) / (marks["end"] - marks["second"])
    if not max_steps:
        pred = trainer.predict(dev_ds)
        out["accuracy"] = float((np.argmax(pred.predictions, axis=-1) == pred.label_ids).mean())
    out["wall_s"] = time.perf_counter() - t_wall
    return out


def child(ns: argparse.Namespace) -> None:
    if ns.threads:
        import torch

        torch.set_num_threads(ns.threads)
    load0 = os.getloadavg()[0]
    if ns.one in ("bertstudio", "bertstudio_fp32"):
        out = run_bertstudio(ns.seed, ns.examples, ns.device, "fp32" if ns.one == "bertstudio_fp32" else "auto")
    else:
        out = run_hf(ns.seed, ns.examples, ns.device, ns.one, ns.max_steps)
    out["load_start"], out["load_end"] = load0, os.getloadavg()[0]
    print("RESULT " + json.dumps(out), flush=True)


# ---- the driver ------------------------------------------------------------------------
def spawn(setting: str, seed: int, ns: argparse.Namespace, max_steps: int | None = None) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--one", setting, "--seed", str(seed), "--examples", str(ns.examples),
           "--device", ns.device]
    if max_steps:
        cmd += ["--max-steps", str(max_steps)]
    if ns.threads:
        cmd += ["--threads", str(ns.threads)]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO)
    line = next((ln for ln in proc.stdout.splitlines()[::-1] if ln.startswith("RESULT ")), None)
    if proc.returncode != 0 or line is None:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"{setting} seed {seed} failed (exit {proc.returncode})")
    out = json.loads(line[len("RESULT "):])
    out["examples_per_s"] = out["examples_seen"] / out["train_s"]
    out["flops_per_s"] = out["train_flops"] / out["train_s"]
    print(f"  {setting:14s} seed {seed}: {out['examples_per_s']:7.1f} ex/s  train {out['train_s']:6.1f} s  "
          f"wall {out['wall_s']:6.1f} s  pad tok/ex {out['padded_tokens'] / out['examples_seen']:5.1f}  "
          f"acc {out.get('accuracy', float('nan')):.4f}  {out['device']}/{out['precision']}/{out['attn']}  "
          f"load {out['load_start']:.2f}->{out['load_end']:.2f}", flush=True)
    return out


def step_costs(r: dict[str, Any]) -> tuple[float, float]:
    """Least-squares split of step time into a fixed part (ms per optimizer step: optimizer,
    clipping, per-op overhead) and a part per padded token (ms per 1000 tokens)."""
    import numpy as np

    t = np.diff(np.asarray(r["step_starts"][1:], dtype=float))  # without the first (warm-up) step
    shapes = np.asarray(r["shapes"][1:-1], dtype=float)
    if len(t) < 3:
        return float("nan"), float("nan")
    tokens = shapes[:, 0] * shapes[:, 1]
    a = np.vstack([np.ones_like(tokens), tokens]).T
    (fixed, per_token), *_ = np.linalg.lstsq(a, t, rcond=None)
    return 1e3 * fixed, 1e6 * per_token


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{mean:.4f} +- {sd:.4f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--examples", type=int, default=4000)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--first-seed", type=int, default=42, help="seeds are first-seed, first-seed + 1, ...")
    p.add_argument("--device", default="cpu", help="cpu | cuda")
    p.add_argument("--settings", default=",".join(SETTINGS))
    p.add_argument("--bf16-steps", type=int, default=10, help="CPU without bf16 units: optimizer steps timed for hf_best")
    p.add_argument("--bf16-full", action="store_true", help="run hf_best for the whole epoch even on a slow-bf16 CPU")
    p.add_argument("--threads", type=int, default=0, help="torch.set_num_threads in every run (0: torch's default)")
    p.add_argument("--json", help="write all results here")
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--seed", type=int, default=42, help=argparse.SUPPRESS)
    p.add_argument("--max-steps", type=int, default=None, help=argparse.SUPPRESS)
    ns = p.parse_args()
    if ns.one:
        return child(ns)

    import torch

    from bertstudio.train.hardware import detect

    if ns.threads:
        torch.set_num_threads(ns.threads)
    cuda = ns.device.startswith("cuda")
    fast_bf16 = cuda or detect()[3]  # native bf16 that also measures faster than fp32, as the engine decides
    peaks = {d: matmul_peak(d, ns.device) for d in ("fp32", "bf16")}
    gpu = torch.cuda.get_device_name(0) if cuda else None
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, device {ns.device}{f' ({gpu})' if gpu else ''}, "
          f"cores {os.cpu_count()}, load {os.getloadavg()}")
    print(f"matmul peak: fp32 {peaks['fp32'] / 1e9:.1f} GFLOP/s, bf16 {peaks['bf16'] / 1e9:.1f} GFLOP/s "
          f"(fast bf16: {fast_bf16})")
    settings = [s for s in ns.settings.split(",") if s]
    seeds = [ns.first_seed + i for i in range(ns.seeds)]
    results: dict[str, list[dict]] = {s: [] for s in settings}
    for seed in seeds:  # interleaved: each seed runs every setting before the next seed
        for s in settings:
            if s == "hf_best" and not fast_bf16 and not ns.bf16_full:
                if seed != seeds[0]:
                    continue  # the prefix measures speed only: once is enough
                results[s].append(spawn(s, seed, ns, max_steps=ns.bf16_steps))
            else:
                results[s].append(spawn(s, seed, ns))
    peaks_end = {d: matmul_peak(d, ns.device) for d in ("fp32", "bf16")}

    print("\nms/step and ms/1k tok: step time fitted as fixed + per padded token (least squares over the steps)")
    print(f"SST-2, {ns.examples} training sentences, batch 32, lr 1e-4, 1 epoch, warm-up 0.1, max length 128; "
          f"seeds {seeds}; medians over seeds")
    print(f"matmul peak at end: fp32 {peaks_end['fp32'] / 1e9:.1f}, bf16 {peaks_end['bf16'] / 1e9:.1f} GFLOP/s")
    head = (f"{'setting':16s} {'runs':>4s} {'ex/s':>8s} {'pad tok/ex':>10s} {'real tok/ex':>11s} {'GFLOP/s':>8s} {'% peak':>7s} "
            f"{'ms/step':>8s} {'ms/1k tok':>9s}  dev accuracy (mean +- sd)")
    print(head)
    print("-" * len(head))
    med: dict[str, float] = {}
    for s in settings:
        rs = results[s]
        if not rs:
            continue
        partial = rs[0]["examples_seen"] < ns.examples
        rate = statistics.median(r.get("steady_examples_per_s", r["examples_per_s"]) if partial else r["examples_per_s"] for r in rs)
        med[s] = rate
        # a speed prefix counts its FLOPs from step 2 on, like its examples/s
        flops = statistics.median(r["flops_per_s"] * (r.get("steady_examples_per_s", 1) / r["examples_per_s"] if partial else 1) for r in rs)
        peak = peaks["bf16" if rs[0]["precision"] == "bf16" else "fp32"]
        pad = statistics.median(r["padded_tokens"] / r["examples_seen"] for r in rs)
        real = statistics.median(r["real_tokens"] / r["examples_seen"] for r in rs)
        acc = [r["accuracy"] for r in rs if "accuracy" in r]
        label = s + (f" [{rs[0]['steps']} steps]" if partial else "")
        fixed = statistics.median(step_costs(r)[0] for r in rs)
        per_k = statistics.median(step_costs(r)[1] for r in rs)
        print(f"{label:16s} {len(rs):4d} {rate:8.1f} {pad:10.1f} {real:11.1f} {flops / 1e9:8.1f} {100 * flops / peak:6.1f}% "
              f"{fixed:8.1f} {per_k:9.1f}  "
              f"{spread(acc) if acc else 'not evaluated (speed prefix)'}")
    if "bertstudio" in med:
        print()
        for s in settings:
            if s.startswith("hf") and s in med:
                print(f"bertstudio / {s}: {med['bertstudio'] / med[s]:.2f}x")
        if "bertstudio_fp32" in med and "hf_group_fp32" in med:
            print(f"bertstudio_fp32 / hf_group_fp32 (equal precision): {med['bertstudio_fp32'] / med['hf_group_fp32']:.2f}x")
        bs_acc = [r["accuracy"] for r in results["bertstudio"]]
        for s in settings:
            acc = [r["accuracy"] for r in results.get(s, []) if "accuracy" in r and r["examples_seen"] >= ns.examples]
            if s != "bertstudio" and acc:
                print(f"dev accuracy, bertstudio - {s}: {100 * (statistics.fmean(bs_acc) - statistics.fmean(acc)):+.2f} points")
    if "hf_best" in med and not fast_bf16 and not ns.bf16_full:
        print(f"\nhf_best (bf16) is timed on its first {ns.bf16_steps} steps (steady rate from step 2): this CPU has no "
              "bf16 units, so the Trainer's GPU-best setting is its worst here; hf_group_fp32 is the Trainer's best on this CPU.")
    if ns.json:
        Path(ns.json).write_text(json.dumps({"gpu": gpu, "torch": torch.__version__, "peaks": peaks, "peaks_end": peaks_end, "results": results}, indent=1))


if __name__ == "__main__":
    main()
