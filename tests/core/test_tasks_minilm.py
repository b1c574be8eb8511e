"""Integration: the bundled all-MiniLM-L6-v2 builds, encodes, runs and decodes every kind
on small slices of the real benchmark files (see ../shared/data/SOURCES.md)."""

from __future__ import annotations

import pytest
import torch

from bertstudio.tasks import get_task
from bertstudio.tasks.base import model_inputs
from bertstudio.tasks.model import build_model, count_parameters

pytestmark = pytest.mark.slow


def _slices(shared_data):
    from bertstudio.data.glue import load_glue
    from bertstudio.data.io import load_examples

    return {
        "sentence": (load_glue("SST-2", shared_data / "glue/SST-2", split="dev").head(24), "mlp", "frozen"),
        "pair": (load_glue("MRPC", shared_data / "glue/MRPC", split="dev").head(16), "linear", "lora"),
        "regression": (load_glue("STS-B", shared_data / "glue/STS-B", split="dev").head(16), "linear", "top-2"),
        "tagging": (load_examples(shared_data / "pos/ud_english_ewt/en_ewt-ud-dev.conllu").head(16), "linear", "full"),
        "qa": (load_examples(shared_data / "squad/dev-v1.1-articles-00-35.json").head(6), "linear", "full"),
    }


@pytest.mark.parametrize("kind", ["sentence", "pair", "regression", "tagging", "qa"])
def test_bundled_minilm_runs_each_kind(bundled_model_dir, shared_data, kind):
    examples, head, mode = _slices(shared_data)[kind]
    torch.manual_seed(0)
    model, tok = build_model(kind, None, labels=examples.labels, head=head, mode=mode)
    assert tok.is_fast and type(tok).__name__ == "BertTokenizer"
    # MiniLM: 6 layers of hidden 384 (12 heads, FFN 1536); vocab 30522, 512 positions.
    layer = 4 * (384 * 384 + 384) + 2 * 384 + (384 * 1536 + 1536) + (1536 * 384 + 384) + 2 * 384
    trainable, _ = count_parameters(model)
    if mode == "top-2":
        assert trainable == 2 * layer + (384 * 384 + 384) + (384 + 1)  # two blocks, pooler, score
    if mode == "frozen":
        assert trainable == (384 * 384 + 384) + 2 * (384 + 1)  # the mlp head: pooler + output

    task = get_task(kind)
    label2id = {name: i for i, name in enumerate(examples.labels)}
    enc = task.encode(examples, tok, max_length=384 if kind == "qa" else 128, label2id=label2id, training=False)
    if kind == "qa":  # long SQuAD contexts, 384 tokens: the answer span maps back to the gold text
        assert len(enc) >= len(examples)
        row = next(r for r in enc if r["start_positions"] > 0)
        ex = examples.dataset[row["example_index"]]
        s, e = row["offset_mapping"][row["start_positions"]][0], row["offset_mapping"][row["end_positions"]][1]
        assert ex["context"][s:e] == ex["answers"]["text"][0]
    acc = task.accumulator(examples, enc, examples.labels)
    model.eval()
    with torch.no_grad():
        for i in range(0, len(enc), 8):
            batch = task.collate([enc[j] for j in range(i, min(i + 8, len(enc)))], tok.pad_token_id)
            assert batch["input_ids"].shape[1] % 8 == 0
            acc.add(batch, model(**model_inputs(batch)))
    preds = acc.finish()
    assert len(preds) == len(examples)
    metrics = task.metrics(examples, preds)
    expected = {"sentence": "accuracy", "pair": "f1", "regression": "pearson", "tagging": "accuracy", "qa": "exact_match"}
    assert 0 <= abs(metrics[expected[kind]]) <= 1
