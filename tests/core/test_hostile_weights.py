"""A model folder whose weights file is a hostile pickle: every loader refuses it in one line (the
CLI with exit 2), nothing in it runs, and torch's advice to retry with weights_only=False is never
shown. A pytorch_model.bin of plain tensors still loads (torch's weights-only unpickler)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bertstudio.errors import ConfigError

MARK = "bertstudio-hostile-weights-ran"


class Hostile:
    def __init__(self, mark: Path) -> None:
        self.mark = str(mark)

    def __reduce__(self):
        return (os.system, (f"touch {self.mark}",))


def hostile_copy(source: str | Path, dest: Path, mark: Path) -> Path:
    shutil.copytree(source, dest)
    for name in ("model.safetensors",):
        (dest / name).unlink(missing_ok=True)
    with open(dest / "pytorch_model.bin", "wb") as f:
        pickle.dump({"embeddings.word_embeddings.weight": Hostile(mark)}, f)
    return dest


@pytest.fixture
def hostile(tiny, tmp_path) -> tuple[Path, Path]:
    mark = tmp_path / MARK
    return hostile_copy(tiny, tmp_path / "hostile", mark), mark


@pytest.fixture
def hostile_run_model(tiny, tmp_path) -> tuple[Path, Path]:
    """A model folder as a run saves it (task kind and labels in config.json), weights made hostile."""
    from bertstudio.tasks.model import build_model, write_model

    model, tokenizer = build_model("sentence", tiny, labels=["neg", "pos"])
    write_model(model, tokenizer, tmp_path / "run-model")
    mark = tmp_path / MARK
    return hostile_copy(tmp_path / "run-model", tmp_path / "hostile-run-model", mark), mark


def test_every_loader_refuses_a_pickle_that_is_more_than_tensors(hostile, hostile_run_model):
    from bertstudio.assist.encoder import SentenceEncoder
    from bertstudio.tasks.embedding import build_embedding_classifier
    from bertstudio.tasks.model import build_model, load_model

    folder, mark = hostile
    loaders = [
        lambda: load_model(hostile_run_model[0]),
        lambda: build_model("sentence", str(folder), labels=["neg", "pos"]),
        lambda: build_embedding_classifier("sentence", str(folder), labels=["neg", "pos"], head="embedding"),
        lambda: SentenceEncoder.from_path(folder),
    ]
    for load in loaders:
        with pytest.raises(ConfigError) as caught:
            load()
        message = caught.value.message
        assert "more than plain tensors" in message and "weights_only" not in message
        assert len(str(caught.value).splitlines()) == 1
    assert not mark.exists() and not hostile_run_model[1].exists()


def test_the_sentence_transformer_body_refuses_it_too(hostile):
    pytest.importorskip("sentence_transformers")
    from bertstudio.train.setfit_phase import _load_body
    from sentence_transformers import SentenceTransformer

    folder, mark = hostile
    with pytest.raises(ConfigError, match="more than plain tensors"):
        _load_body(SentenceTransformer, str(folder))
    assert not mark.exists()


def test_a_bin_of_plain_tensors_still_loads(tiny, tmp_path):
    import torch
    from safetensors.torch import load_file

    from bertstudio.tasks.model import build_model

    folder = tmp_path / "bin"
    shutil.copytree(tiny, folder)
    torch.save(load_file(str(folder / "model.safetensors")), folder / "pytorch_model.bin")
    (folder / "model.safetensors").unlink()
    model, _tokenizer = build_model("sentence", str(folder), labels=["neg", "pos"])
    assert model.config.hidden_size == 32


@pytest.mark.parametrize("command", [
    ["evaluate", "--model", "{m}", "--eval", "{d}"],
    ["predict", "--model", "{m}", "--text", "a fine film"],
    ["train", "--model", "{m}", "--train", "{d}", "--out", "{o}", "--epochs", "1", "--max-length", "16"],
])
def test_the_cli_says_so_in_one_line_with_exit_2(command, hostile, hostile_run_model, tmp_path):
    folder, mark = hostile if command[0] == "train" else hostile_run_model
    data = tmp_path / "d.jsonl"
    data.write_text('{"text": "good film", "label": "pos"}\n{"text": "bad film", "label": "neg"}\n' * 4,
                    encoding="utf-8")
    argv = [a.format(m=folder, d=data, o=tmp_path / "out") for a in command]
    proc = subprocess.run([sys.executable, "-m", "bertstudio", "--quiet", *argv], capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=300)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "more than plain tensors" in lines[0] and str(folder) in lines[0], proc.stderr
    assert "weights_only" not in proc.stderr and not mark.exists()


# --- an embedding-head folder (and the assistant's saved model) damaged in each of its files ---

@pytest.fixture(scope="module")
def embedding_folder(tiny, tmp_path_factory) -> Path:
    from bertstudio.assist.strong import StrongModel, save_strong
    from bertstudio.tasks.embedding import build_embedding_classifier

    model, tokenizer, _task = build_embedding_classifier("sentence", tiny, labels=["neg", "pos"], head="embedding")
    folder = tmp_path_factory.mktemp("embedding") / "model"
    save_strong(StrongModel("finetune", "test", model, tokenizer, [0, 1], ["neg", "pos"], "sentence", 3), folder)
    return folder


DEEP = "[" * 100_000 + "]" * 100_000
EMBEDDING_DAMAGE = {
    "head garbage": ("head.safetensors", b"\x00garbage" * 100, "head cannot be loaded"),
    "head empty": ("head.safetensors", b"", "head cannot be loaded"),
    "labels not a list": ("embedding_classifier.json", b'{"format": "bertstudio-embedding-classifier", "labels": 5}',
                          "labels has an impossible value"),
    "settings deep": ("embedding_classifier.json", DEEP.encode(), "cannot read embedding_classifier.json"),
    # predict merged the two classes' probabilities under one name; the ONNX export refused its own labels.json
    "labels twice": ("embedding_classifier.json", b'{"format": "bertstudio-embedding-classifier", "labels": ["same", "same"]}',
                     "labels names 'same' more than once"),
    "labels twice as text and number": ("embedding_classifier.json",
                                        b'{"format": "bertstudio-embedding-classifier", "labels": ["1", 1]}',
                                        "labels names '1' more than once"),
    "label blank": ("embedding_classifier.json", b'{"format": "bertstudio-embedding-classifier", "labels": ["", "diff"]}',
                    "labels has an impossible value"),
    "settings not utf-8": ("embedding_classifier.json", b"\xff\xfe\x00{", "cannot read embedding_classifier.json"),
}


@pytest.mark.parametrize("case", sorted(EMBEDDING_DAMAGE))
def test_a_damaged_embedding_head_folder_is_one_config_error(case, embedding_folder, tmp_path):
    from bertstudio.tasks.embedding import FORMAT, load_embedding_classifier

    name, content, words = EMBEDDING_DAMAGE[case]
    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    if name == "embedding_classifier.json" and b"bertstudio-embedding-classifier" in content:
        content = content.replace(b"bertstudio-embedding-classifier", FORMAT.encode())
    (folder / name).write_bytes(content)
    with pytest.raises(ConfigError, match=words) as caught:
        load_embedding_classifier(folder)
    assert str(folder / name) in str(caught.value) and len(str(caught.value).splitlines()) == 1


@pytest.mark.parametrize("keep", ["all but the first layer", "only the embeddings"])
def test_an_embedding_head_folder_missing_encoder_weights_is_refused_not_filled_with_noise(keep, embedding_folder,
                                                                                          tmp_path):
    """transformers fills missing encoder layers with random numbers: predictions were noise with
    exit status 0, where a linear-head folder with the same loss is refused."""
    from safetensors.torch import load_file, save_file

    from bertstudio.tasks.embedding import load_embedding_classifier

    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    weights = load_file(str(folder / "model.safetensors"))
    kept = {k: v for k, v in weights.items()
            if (".layer.0." not in k if keep.startswith("all") else k.startswith(("embeddings.", "pooler.")))}
    assert len(kept) < len(weights)
    save_file(kept, str(folder / "model.safetensors"), metadata={"format": "pt"})
    with pytest.raises(ConfigError, match="the weights file lacks encoder.layer.0"):
        load_embedding_classifier(folder)


@pytest.mark.parametrize("change", [{"kind": "regression"}, {"kind": "tagging"}, {"head": "siamese", "kind": "sentence"}])
def test_an_embedding_head_folder_whose_kind_does_not_fit_its_head_is_refused(change, embedding_folder, tmp_path):
    """"kind": "regression" over a 2-class head printed the first class's logit as a score; a
    siamese head said to read sentences failed at predict (KeyError 'text_pair', exit 1)."""
    from bertstudio.tasks.embedding import SETTINGS_FILE, load_embedding_classifier

    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    settings = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
    (folder / SETTINGS_FILE).write_text(json.dumps({**settings, **change}), encoding="utf-8")
    with pytest.raises(ConfigError, match="kind has an impossible value"):
        load_embedding_classifier(folder)


def test_an_embedding_head_folder_whose_tokenizer_gives_ids_past_the_embeddings_is_refused(embedding_folder, tmp_path):
    """The vocabulary checks ran for the linear and mlp heads only: exit 1, IndexError."""
    from bertstudio.tasks.embedding import load_embedding_classifier

    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    path = folder / "tokenizer.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    word = next(w for w in data["model"]["vocab"] if w.isalpha())
    data["model"]["vocab"][word] = 1_000_000
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match="the id 1,000,000"):
        load_embedding_classifier(folder)


@pytest.mark.parametrize("content", [DEEP, '{"rows": [0], "labels": ["neg", "pos"], "kind": "sentence", "steps": "x"}',
                                     '{"rows": [0], "labels": ["neg"], "kind": "poetry"}', "[1, 2]"])
def test_a_damaged_assistant_model_is_one_config_error(content, embedding_folder, tmp_path):
    from bertstudio.assist.strong import load_strong

    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    (folder / "assist.json").write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_strong(folder)
    assert str(folder / "assist.json") in str(caught.value) and len(str(caught.value).splitlines()) == 1


def test_a_pooling_config_outside_the_folder_or_too_deep_is_not_followed(embedding_folder, tmp_path):
    import json

    from bertstudio.tasks.embedding import pooling_settings

    folder = tmp_path / "st"
    shutil.copytree(embedding_folder, folder)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "config.json").write_text('{"pooling_mode_cls_token": true}', encoding="utf-8")
    (folder / "modules.json").write_text(json.dumps([{"type": "sentence_transformers.models.Pooling",
                                                      "path": "../outside"}]), encoding="utf-8")
    assert pooling_settings(folder)["pooling"] == "mean"  # the config outside the folder is not read
    (folder / "modules.json").write_text(DEEP, encoding="utf-8")
    (folder / "sentence_bert_config.json").write_text('{"max_seq_length": 1000000000}', encoding="utf-8")
    assert pooling_settings(folder) == {"pooling": "mean", "normalize": True, "max_length": None}


def test_an_embedding_head_folder_whose_config_describes_another_size_is_refused_before_it_is_built(
        embedding_folder, tmp_path):
    """The assistant's saved model (an embedding-head folder) is restored when a project opens: a
    config.json saying 2,048 wide over the tiny weights allocated that model (0.9 -> 3.3 GB), where
    predict refuses the same folder from the weights' shapes."""
    from bertstudio.assist.strong import load_strong

    folder = tmp_path / "damaged"
    shutil.copytree(embedding_folder, folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config.update(hidden_size=2048, intermediate_size=8192, num_attention_heads=16)
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ConfigError, match="2,048 wide") as caught:
        load_strong(folder)
    assert len(str(caught.value).splitlines()) == 1
