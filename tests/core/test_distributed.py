"""Data-parallel helpers: unit checks here, and one real 2-process gloo run on CPU
through ``accelerate launch`` checked against a plain single-process computation."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from bertstudio.train.batching import sorted_batches
from bertstudio.train.distributed import any_process, gather_for_eval, loader_options, make_accelerator

REPO = Path(__file__).resolve().parents[2]

# The toy problem both the launched run and the reference below use: y = 2x + 1 on
# x_i = i / 4, a 1-in 1-out linear model starting at w = 0.5, b = 0, plain SGD on MSE.
N_TRAIN, N_EVAL, BATCH, LR = 8, 9, 2, 0.1
EVAL_LENGTHS = [3, 9, 1, 7, 7, 2, 8, 5, 4]  # pseudo token counts for the length-sorted loader

WORKER = textwrap.dedent(
    f"""
    import json, os, sys
    import torch
    from torch.utils.data import DataLoader
    from bertstudio.train.batching import FixedBatchSampler, sorted_batches
    from bertstudio.train.distributed import any_process, gather_for_eval, make_accelerator

    out_dir = sys.argv[1]
    rows = lambda n: [{{"index": i, "x": torch.tensor([i / 4]), "y": torch.tensor([2 * (i / 4) + 1])}} for i in range(n)]
    acc = make_accelerator(device="cpu", precision="fp32")
    model = torch.nn.Linear(1, 1)
    with torch.no_grad():
        model.weight.fill_(0.5); model.bias.fill_(0.0)
    opt = torch.optim.SGD(model.parameters(), lr={LR})
    train = DataLoader(rows({N_TRAIN}), batch_size={BATCH}, shuffle=False)
    plain_eval = DataLoader(rows({N_EVAL}), batch_size={BATCH}, shuffle=False)
    sorted_eval = DataLoader(rows({N_EVAL}), batch_sampler=FixedBatchSampler(sorted_batches({EVAL_LENGTHS}, {BATCH})))
    model, opt, train, plain_eval, sorted_eval = acc.prepare(model, opt, train, plain_eval, sorted_eval)

    seen_train = []
    for batch in train:
        seen_train += batch["index"].tolist()
        loss = torch.nn.functional.mse_loss(model(batch["x"]), batch["y"])
        acc.backward(loss)
        opt.step(); opt.zero_grad()

    info = {{"num_processes": acc.num_processes, "backend": acc.state.backend,
             "distributed_type": str(acc.state.distributed_type).split(".")[-1]}}
    # a flag raised on one process only counts for every process
    result = {{"info": info, "train": seen_train, "any": any_process(acc, [acc.process_index == 1, False])}}
    model.eval()
    for name, loader in (("plain", plain_eval), ("sorted", sorted_eval)):
        seen, index, preds = [], [], []
        with torch.inference_mode():
            for batch in loader:
                seen += batch["index"].tolist()
                # a 2-D tensor too, so the dim-1 padding path runs
                out = {{"pred": model(batch["x"]).squeeze(-1), "pair": model(batch["x"]).repeat(1, 2)}}
                b, o = gather_for_eval(acc, {{"index": batch["index"]}}, out)
                index += b["index"].tolist(); preds += o["pred"].tolist()
        result[name] = {{"seen": seen, "index": index, "pred": preds}}
    unwrapped = acc.unwrap_model(model)
    result["weights"] = [unwrapped.weight.item(), unwrapped.bias.item()]
    with open(os.path.join(out_dir, f"rank{{acc.process_index}}.json"), "w") as f:
        json.dump(result, f)
    if acc.is_main_process:
        with open(os.path.join(out_dir, "main_only.txt"), "x") as f:  # "x": a second writer would fail
            f.write("written once")
    acc.wait_for_everyone()
    # end as the CLI does (bertstudio/__main__.exit_now): the interpreter's teardown destroyed a gloo
    # thread still running and rank 1 aborted ("terminate called without an active exception"),
    # with or without destroying the process group first
    sys.stdout.flush(); sys.stderr.flush()
    os._exit(0)
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _reference() -> tuple[list[float], list[float]]:
    """Single process, no accelerate: a batch of BATCH * 2 rows per step (what two
    processes with BATCH rows each average their gradients over), then predictions."""
    model = torch.nn.Linear(1, 1)
    with torch.no_grad():
        model.weight.fill_(0.5)
        model.bias.fill_(0.0)
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    xs = torch.tensor([[i / 4] for i in range(N_TRAIN)])
    for start in range(0, N_TRAIN, 2 * BATCH):
        x = xs[start : start + 2 * BATCH]
        torch.nn.functional.mse_loss(model(x), 2 * x + 1).backward()
        opt.step()
        opt.zero_grad()
    with torch.no_grad():
        preds = model(torch.tensor([[i / 4] for i in range(N_EVAL)])).squeeze(-1).tolist()
    return [model.weight.item(), model.bias.item()], preds


@pytest.fixture(scope="module")
def two_process_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, Path]:
    out = tmp_path_factory.mktemp("ddp")
    script = out / "worker.py"
    script.write_text(WORKER, encoding="utf-8")
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
        HF_HOME=str(out / "hf"),  # no user accelerate config can change the launch
        OMP_NUM_THREADS="1",
        CUDA_VISIBLE_DEVICES="",
    )
    # On a CPU-only machine "--multi_gpu" is what makes accelerate start N processes
    # (its torchrun launcher); "--cpu --num_processes 2" alone would start one.
    cmd = [
        sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
        "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
        "--main_process_port", str(_free_port()), str(script), str(out),
    ]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ranks = [json.loads((out / f"rank{r}.json").read_text()) for r in (0, 1)]
    return ranks[0], ranks[1], out


def test_each_rank_trains_on_its_own_shard(two_process_run: tuple[dict, dict, Path]) -> None:
    r0, r1, _ = two_process_run
    assert r0["info"]["num_processes"] == r1["info"]["num_processes"] == 2
    assert r0["info"]["backend"] == "gloo" and r0["info"]["distributed_type"] == "MULTI_CPU"
    # 8 rows in batches of 2: global batches [0,1] [2,3] [4,5] [6,7], rank r takes batches r, r+2
    assert r0["train"] == [0, 1, 4, 5]
    assert r1["train"] == [2, 3, 6, 7]
    assert r0["any"] == r1["any"] == [True, False]  # raised on rank 1 only, seen by both


def test_ddp_training_equals_one_process_with_the_global_batch(two_process_run: tuple[dict, dict, Path]) -> None:
    r0, r1, _ = two_process_run
    weights, _ = _reference()
    assert r0["weights"] == pytest.approx(weights, abs=1e-6)
    assert r1["weights"] == pytest.approx(weights, abs=1e-6)  # replicas stay identical


def test_gathered_eval_equals_single_process_eval(two_process_run: tuple[dict, dict, Path]) -> None:
    r0, r1, _ = two_process_run
    _, preds = _reference()
    # 9 rows, batches of 2 on 2 processes: the last round is [8] + repeats of rows 0, 1, 2
    # that accelerate adds so both processes get a full batch ...
    assert r0["plain"]["seen"] == [0, 1, 4, 5, 8, 0]
    assert r1["plain"]["seen"] == [2, 3, 6, 7, 1, 2]
    # ... and gathering drops them: every row once, in dataset order, on every rank
    for r in (r0, r1):
        assert r["plain"]["index"] == list(range(N_EVAL))
        assert r["plain"]["pred"] == pytest.approx(preds, abs=1e-6)


def test_length_sorted_eval_batches_gather_without_duplicates(two_process_run: tuple[dict, dict, Path]) -> None:
    r0, _, _ = two_process_run
    _, preds = _reference()
    order = [i for b in sorted_batches(EVAL_LENGTHS, BATCH) for i in b]  # the engine's eval order
    assert r0["sorted"]["index"] == order
    assert r0["sorted"]["pred"] == pytest.approx([preds[i] for i in order], abs=1e-6)


def test_only_the_main_process_writes(two_process_run: tuple[dict, dict, Path]) -> None:
    _, _, out = two_process_run
    assert (out / "main_only.txt").read_text() == "written once"


# ---- single-process checks ---------------------------------------------------------------


def test_single_process_helpers_pass_through() -> None:
    acc = make_accelerator(device="cpu", precision="fp32")
    assert acc.num_processes == 1 and str(acc.device) == "cpu" and acc.mixed_precision == "no"
    batch = {"index": torch.arange(3)}
    assert gather_for_eval(acc, batch) is batch
    assert any_process(acc, [True, 0, False]) == [True, False, False]


def test_pinned_memory_only_for_cuda() -> None:
    # CUDA: page-locked batches and non-blocking copies; the CPU gains nothing from pinning.
    assert loader_options("cuda") == loader_options("cuda:1") == {"pin_memory": True}
    assert loader_options("cpu") == loader_options("mps") == {"pin_memory": False}
    acc = make_accelerator(device="cpu", precision="fp32")
    assert acc.dataloader_config.non_blocking is False


def test_a_second_run_in_the_same_process_may_change_precision() -> None:
    # Plain Accelerator() refuses a new mixed_precision once its singleton state exists;
    # make_accelerator resets that state for single-process runs (GUI: run after run).
    first = make_accelerator(device="cpu", precision="bf16")
    assert first.mixed_precision == "bf16"
    second = make_accelerator(device="cpu", precision="fp32")
    assert second.mixed_precision == "no"
