"""tasks/embedding.py: the embedding classifier (siamese for pairs) trains with fit(), saves
as safetensors + JSON, and reloads to the same outputs."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bertstudio.data.examples import from_records
from bertstudio.tasks.embedding import (
    EmbeddingClassifier,
    SiamesePairTask,
    build_embedding_classifier,
    is_embedding_classifier,
    load_embedding_classifier,
    pool,
    save_embedding_classifier,
)
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import RunParts, fit

PAIRS = [
    {"text": "the movie was good", "text_pair": "the film was great", "label": "same"},
    {"text": "paris is a city", "text_pair": "the dog was bad", "label": "different"},
    {"text": "i love the book", "text_pair": "i love the book", "label": "same"},
    {"text": "the cat", "text_pair": "london is a city in france and it was great", "label": "different"},
] * 4


def test_siamese_collate_stacks_both_sides_and_the_forward_reads_u_v_absdiff_product(tiny):
    model, tokenizer, task = build_embedding_classifier("pair", tiny, labels=["same", "different"])
    assert isinstance(task, SiamesePairTask) and model.siamese
    examples = from_records("pair", PAIRS[:4], labels=["same", "different"])
    enc = task.encode(examples, tokenizer, max_length=32, label2id={"same": 0, "different": 1})
    batch = task.collate([enc[i] for i in range(4)], pad_token_id=tokenizer.pad_token_id)
    assert batch["input_ids"].shape[:2] == (4, 2) and batch["attention_mask"].shape == batch["input_ids"].shape
    assert batch["labels"].tolist() == [0, 1, 0, 1]
    model.eval()
    with torch.no_grad():
        out = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
        # each side on its own, as a bi-encoder: the same vectors as encoding the texts alone
        alone = tokenizer([p["text"] for p in PAIRS[:4]], padding=True, return_tensors="pt")
        u = model.embed(alone["input_ids"], alone["attention_mask"])
        alone_b = tokenizer([p["text_pair"] for p in PAIRS[:4]], padding=True, return_tensors="pt")
        v = model.embed(alone_b["input_ids"], alone_b["attention_mask"])
    features = torch.cat([u, v, (u - v).abs(), u * v], dim=-1)
    torch.testing.assert_close(out.logits, model.classifier(features), atol=1e-5, rtol=1e-4)
    assert out.loss is not None and out.logits.shape == (4, 2)
    assert model.classifier.in_features == 4 * model.config.hidden_size


def test_pool_is_masked_mean_then_unit_length():
    hidden = torch.tensor([[[1.0, 0.0], [3.0, 4.0], [100.0, 100.0]]])
    mask = torch.tensor([[1, 1, 0]])
    torch.testing.assert_close(pool(hidden, mask, "mean", False), torch.tensor([[2.0, 2.0]]))
    torch.testing.assert_close(pool(hidden, mask, "mean", True), torch.tensor([[2 ** -0.5, 2 ** -0.5]]))
    torch.testing.assert_close(pool(hidden, mask, "cls", False), torch.tensor([[1.0, 0.0]]))


@pytest.mark.parametrize("kind", ["sentence", "pair"])
def test_the_engine_trains_it_and_the_saved_folder_reloads_without_pickle(tiny, tmp_path, kind, one_thread):
    labels = ["same", "different"] if kind == "pair" else ["neg", "pos"]
    rows = PAIRS if kind == "pair" else [{"text": p["text"], "label": "pos" if p["label"] == "same" else "neg"}
                                         for p in PAIRS]
    examples = from_records(kind, rows, labels=labels)
    model, tokenizer, task = build_embedding_classifier(kind, tiny, labels=labels)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    config = TrainConfig(task=kind, epochs=2, lr=1e-3, batch_size=4, seed=0, save_best=False,
                         output_dir=str(tmp_path / "run"), logging_steps=1)
    result = fit(config, RunParts(model, tokenizer, task, labels, save_embedding_classifier), examples)
    assert result.status == "finished", result.message
    after = result.model.state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before if k.startswith("encoder."))
    folder = tmp_path / "run" / "model"
    assert is_embedding_classifier(folder)
    names = {p.name for p in folder.rglob("*") if p.is_file()}
    assert "head.safetensors" in names and "model.safetensors" in names
    assert not any(n.endswith((".pkl", ".bin", ".pt", ".joblib")) for n in names)
    settings = json.loads((folder / "embedding_classifier.json").read_text())
    assert settings["head"] == ("siamese" if kind == "pair" else "embedding") and settings["labels"] == labels
    loaded, tok2, _ = load_embedding_classifier(folder)
    enc = task.encode(examples, tokenizer, max_length=32, label2id={n: i for i, n in enumerate(labels)},
                      training=False)
    batch = task.collate([enc[i] for i in range(len(enc))], pad_token_id=tokenizer.pad_token_id)
    inputs = {k: batch[k] for k in ("input_ids", "attention_mask")}
    result.model.eval()
    with torch.no_grad():
        torch.testing.assert_close(loaded(**inputs).logits, result.model(**inputs).logits, atol=1e-5, rtol=1e-4)


def test_sentence_transformers_loads_the_saved_encoder(tiny, tmp_path):
    from sentence_transformers import SentenceTransformer

    model, tokenizer, _ = build_embedding_classifier("sentence", tiny, labels=["a", "b"])
    save_embedding_classifier(model, tokenizer, tmp_path / "m")
    texts = ["the movie was good", "paris is a city"]
    st = SentenceTransformer(str(tmp_path / "m"), device="cpu").encode(texts)
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        ours = model.eval().embed(enc["input_ids"], enc["attention_mask"]).numpy()
    np.testing.assert_allclose(st, ours, atol=1e-5)


def test_a_damaged_folder_is_a_config_error(tiny, tmp_path):
    from bertstudio.errors import ConfigError

    model, tokenizer, _ = build_embedding_classifier("sentence", tiny, labels=["a", "b"])
    folder = save_embedding_classifier(model, tokenizer, tmp_path / "m")
    (folder / "embedding_classifier.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_embedding_classifier(folder)


def test_the_siamese_head_refuses_single_texts(tiny):
    from bertstudio.errors import ConfigError

    with pytest.raises(ConfigError, match="pairs"):
        build_embedding_classifier("sentence", tiny, labels=["a", "b"], head="siamese")
    assert isinstance(EmbeddingClassifier, type)


@pytest.mark.parametrize("kind, head", [("sentence", "embedding"), ("pair", "siamese")])
def test_every_trainable_weight_of_the_embedding_heads_gets_a_gradient(tiny, kind, head):
    """Data-parallel training (DDP) refuses a trainable parameter that gets no gradient: the
    encoder's pooler, which the heads never read, failed every such run at step 2."""
    import torch

    model, _tokenizer, _ = build_embedding_classifier(kind, tiny, labels=["a", "b"], head=head)
    shape = (3, 2, 7) if head == "siamese" else (3, 7)
    ids = torch.randint(5, 50, shape)
    out = model(input_ids=ids, attention_mask=torch.ones_like(ids), labels=torch.tensor([0, 1, 0]))
    out.loss.backward()
    idle = [name for name, p in model.named_parameters() if p.requires_grad and p.grad is None]
    assert idle == []
    assert any(p.requires_grad for p in model.encoder.parameters())  # the encoder itself still learns


@pytest.mark.parametrize("kind, head", [("sentence", "embedding"), ("pair", "siamese")])
def test_the_embedding_heads_refuse_a_single_label_as_the_linear_head_does(tiny, kind, head):
    """The app trained a one-class embedding classifier (its project's label set ['pos']) and reported
    100% accuracy; ``--head linear`` refused the same labels (tasks/classification's check_labels)."""
    from bertstudio.errors import ConfigError
    from bertstudio.tasks.model import build_model

    with pytest.raises(ConfigError, match="needs at least 2 labels"):
        build_embedding_classifier(kind, tiny, labels=["pos"], head=head)
    with pytest.raises(ConfigError, match="needs at least 2 labels"):
        build_model(kind, tiny, labels=["pos"], head=head)
    with pytest.raises(ConfigError, match="label names repeat"):
        build_embedding_classifier(kind, tiny, labels=["pos", "pos"], head=head)
    model, _, _ = build_embedding_classifier("regression", tiny, labels=["score"])  # a score has no classes
    assert model.regression
