"""The same engine data-parallel: two CPU processes (gloo) under ``accelerate launch``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SCRIPT = textwrap.dedent(
    """
    import json, random, sys, torch
    torch.set_num_threads(1)
    from accelerate.utils import set_seed
    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import build_parts, fit

    def sentiment(n, seed):
        rng = random.Random(seed)
        rows = []
        for i in range(n):
            pos = rng.random() < 0.5
            a, b = rng.sample(["good", "great", "love", "fun"] if pos else ["bad", "hate", "worst", "boring"], 2)
            rows.append({"text": f"the {'very ' * rng.randrange(6)}movie was {a} and {b}", "label": "pos" if pos else "neg"})
        return from_records("sentence", rows, labels=["neg", "pos"])

    model, out = sys.argv[1], sys.argv[2]
    cfg = TrainConfig(model=model, epochs=8, batch_size=4, lr=3e-3, seed=1, max_length=32, output_dir=out, device="cpu", logging_steps=2)
    events, seen = [], []

    def record(module, args, kwargs):  # the rows of every training batch this process runs
        if module.training:
            ids, mask = kwargs["input_ids"], kwargs["attention_mask"]
            seen.append(sorted(row[: int(m.sum())].tolist() for row, m in zip(ids, mask)))

    train_set = sentiment(40, 1)
    set_seed(cfg.seed)  # as train() does, before the model
    parts = build_parts(cfg, list(train_set.labels))
    parts.model.register_forward_pre_hook(record, with_kwargs=True)
    result = fit(cfg, parts, train_set, sentiment(13, 2), callbacks=[lambda e, c: events.append(e)])
    from accelerate.state import PartialState
    state = PartialState()
    with open(f"{out}.rank{state.process_index}.json", "w") as f:
        json.dump({"status": result.status, "metrics": result.metrics, "events": len(events),
                   "started": [e.effective_batch_size for e in events if e.kind == "started"],
                   "steps": result.step, "batches": seen}, f)
    """
)


def test_two_processes_train_and_gather_without_duplicates(tiny_model_dir, tmp_path):
    from transformers import BertTokenizer

    from bertstudio.data.examples import from_records
    from bertstudio.train.engine import evaluate

    model = tmp_path / "tiny"
    shutil.copytree(tiny_model_dir, model)
    (model / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(model / "vocab.txt"), do_lower_case=True).save_pretrained(model)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    out = tmp_path / "run"
    launcher = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                "--main_process_port", "29517", str(script), str(model), str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(launcher, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    main = json.loads((tmp_path / "run.rank0.json").read_text())
    other = json.loads((tmp_path / "run.rank1.json").read_text())
    assert main["status"] == other["status"] == "finished"
    assert main["started"] == [8]  # 4 per process x 2 processes
    assert other["events"] == 0  # callbacks run on the main process only
    assert main["steps"] == 40  # 40 rows / (4 x 2) per step x 8 epochs
    assert main["metrics"] == other["metrics"]
    # each epoch the two processes share all 40 rows between them, in a new order every epoch
    epochs = [[b for rank in (main, other) for b in rank["batches"][5 * e: 5 * (e + 1)]] for e in range(8)]
    assert len(main["batches"]) == len(other["batches"]) == 40  # 5 batches a process and epoch
    assert all(sorted(r for b in epoch for r in b) == sorted(r for b in epochs[0] for r in b) for epoch in epochs)
    assert len({json.dumps(epoch) for epoch in epochs}) == 8
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    losses = [e["loss"] for e in history if e["kind"] == "step"]
    assert len(losses) == 20 and sum(losses[-3:]) < sum(losses[:3])  # it learns
    assert [e["kind"] for e in history].count("started") == 1  # rank 0 alone writes the history
    saved = [p for p in (out / "checkpoints").iterdir() if p.is_dir()]
    assert sorted(p.name for p in saved) == ["best"]  # one best checkpoint, once (a finished run keeps no resumable one)
    assert not list(tmp_path.glob("run.rank1*/**/checkpoints"))
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == list(range(13))  # 13 rows: the padded repeats were dropped
    # the gathered evaluation equals a single-process evaluation of the saved model
    import random

    rng = random.Random(2)
    dev = []
    for i in range(13):
        pos = rng.random() < 0.5
        a, b = rng.sample(["good", "great", "love", "fun"] if pos else ["bad", "hate", "worst", "boring"], 2)
        dev.append({"text": f"the {'very ' * rng.randrange(6)}movie was {a} and {b}", "label": "pos" if pos else "neg"})
    metrics, preds = evaluate(out / "model", from_records("sentence", dev, labels=["neg", "pos"]), max_length=32)
    assert metrics == pytest.approx(main["metrics"], abs=1e-9)
    assert [p["label"] for p in preds] == [r["label"] for r in rows]


def test_the_cli_under_two_processes_trains_every_step_with_the_embedding_head_and_says_it_once(tiny_model_dir, tmp_path):
    """`accelerate launch -m bertstudio train` as a practitioner types it, on a row count whose last
    batch is short and the embedding head: the short batch shuffled mid-epoch cost a pair of
    batches and the last step (no final evaluation; 4 processes hung), the unused pooler failed
    DDP at step 2, and each process printed its metrics (the others the last evaluation's)."""
    import csv
    import random

    from transformers import BertTokenizer

    model = tmp_path / "tiny"
    shutil.copytree(tiny_model_dir, model)
    (model / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(model / "vocab.txt"), do_lower_case=True).save_pretrained(model)
    rng = random.Random(3)
    for name, n in (("train.csv", 43), ("dev.csv", 9)):
        with open(tmp_path / name, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["text", "label"])
            for _ in range(n):
                pos = rng.random() < 0.5
                writer.writerow([f"the movie was {rng.choice(['good', 'great'] if pos else ['bad', 'boring'])}",
                                 "pos" if pos else "neg"])
    out = tmp_path / "run"
    launcher = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                "--main_process_port", "29518", "-m", "bertstudio", "--quiet", "train", "--train", str(tmp_path / "train.csv"),
                "--eval", str(tmp_path / "dev.csv"), "--model", str(model), "--head", "embedding", "--epochs", "3",
                "--batch-size", "4", "--lr", "1e-3", "--max-length", "16", "--device", "cpu", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "OMP_NUM_THREADS": "1"}
    proc = subprocess.run(launcher, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    history = [json.loads(line) for line in (out / "history.jsonl").read_text().splitlines()]
    started = next(e for e in history if e["kind"] == "started")
    finished = [e for e in history if e["kind"] == "finished"]
    assert started["total_steps"] == 18  # 11 batches of 4 (the last of 3 rows): 6 per process, 3 epochs
    assert finished[-1]["status"] == "finished" and finished[-1]["step"] == 18
    assert max(e["step"] for e in history if e["kind"] == "eval") == 18  # the final evaluation ran
    metrics = json.loads((out / "metrics.json").read_text())
    printed = proc.stdout[:proc.stdout.index("run folder:")] if "run folder:" in proc.stdout else proc.stdout
    assert json.loads(printed) == pytest.approx(metrics)  # one JSON document: the kept model's metrics
    assert proc.stdout.count("run folder:") == 1
