"""The embedding classifier: a sentence encoder (mean-pooled, normalised) plus a linear head.

For one text the head reads the sentence vector ``u``; for a pair it reads the
siamese features ``(u, v, |u - v|, u * v)`` of the two sides encoded
*separately* (the classifier of InferSent and Sentence-BERT). This matters for
a sentence-transformer such as the bundled MiniLM: a frozen cross-encoded
``[CLS] A [SEP] B [SEP]`` carries almost no pair signal (34.5% on 3,000 MNLI
pairs, chance), while the siamese features reach 50.9% with a logistic
regression on the same pairs. The training engine trains it like any model:
``forward`` takes the collated batch and returns ``.loss`` and ``.logits``.

Pairs are collated as ``input_ids`` / ``attention_mask`` of shape
``(batch, 2, length)``; :class:`SiamesePairTask` encodes them so. Sentences use the
stock :class:`~bertstudio.tasks.classification.SequenceClassificationTask`.

Saved folders (:func:`save_embedding_classifier`) hold the encoder as a plain
transformers folder (config.json, model.safetensors, tokenizer), the head as
``head.safetensors``, the settings as ``embedding_classifier.json`` and the
sentence-transformers module files, so ``SentenceTransformer(folder)`` loads the
encoder too. Nothing is pickled.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import datasets
import numpy as np
import torch
from torch import nn
from transformers.modeling_outputs import SequenceClassifierOutput

from bertstudio.hf import hf
from bertstudio.data.examples import ExampleSet
from bertstudio.data.kinds import get_spec
from bertstudio.errors import ConfigError
from bertstudio.tasks.classification import SequenceClassificationTask
from bertstudio.tasks.collate import PAD_MULTIPLE, padded_length
from bertstudio.tasks.common import check_labels, encoding_rows, label_ids, map_batched
from bertstudio.tasks.limits import token_limit

SETTINGS_FILE = "embedding_classifier.json"
HEAD_FILE = "head.safetensors"
FORMAT = "bertstudio-embedding-classifier-1"
HEAD_NAMES = ("embedding", "siamese")


# --- pooling, as sentence-transformers computes it ----------------------------------------

def pooling_settings(path: str | Path) -> dict[str, Any]:
    """``{"pooling": "mean" | "cls", "normalize": bool, "max_length": int | None}`` read from a
    sentence-transformers folder (modules.json, the Pooling config, sentence_bert_config.json);
    mean pooling and normalisation for a plain transformers folder."""
    folder = Path(path)
    out: dict[str, Any] = {"pooling": "mean", "normalize": True, "max_length": None}
    if folder.is_dir():
        from bertstudio.data.regular_file import check_folder_files

        check_folder_files(folder)  # a FIFO modules.json would block the read below
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return out
    if not isinstance(modules, list):
        return out
    types = [str(m.get("type", "")) for m in modules if isinstance(m, dict)]
    out["normalize"] = any(t.endswith("Normalize") for t in types)
    for m in modules:
        if isinstance(m, dict) and str(m.get("type", "")).endswith("Pooling"):
            module = (folder / str(m.get("path", ""))).resolve()
            if not module.is_relative_to(folder.resolve()):  # a path in modules.json stays inside the folder
                continue
            try:
                cfg = json.loads((module / "config.json").read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError):
                cfg = {}
            if isinstance(cfg, dict) and cfg.get("pooling_mode_cls_token") and not cfg.get("pooling_mode_mean_tokens"):
                out["pooling"] = "cls"
    try:
        sbert = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        length = int(sbert["max_seq_length"])
        out["max_length"] = length if 0 < length <= 8192 else None  # a damaged value falls back to the model's own
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass
    return out


def pool(hidden: torch.Tensor, mask: torch.Tensor, pooling: str = "mean", normalize: bool = True) -> torch.Tensor:
    """Sentence vectors from token states: masked mean (or [CLS]), then the optional L2 norm
    (sentence-transformers' Pooling + Normalize modules)."""
    if pooling == "cls":
        vectors = hidden[:, 0]
    else:
        m = mask.unsqueeze(-1).to(hidden.dtype)
        vectors = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
    if normalize:
        vectors = nn.functional.normalize(vectors, p=2, dim=-1)
    return vectors


def pair_features(u: Any, v: Any) -> Any:
    """``(u, v, |u - v|, u * v)`` along the last axis, for numpy arrays or tensors."""
    if isinstance(u, torch.Tensor):
        return torch.cat([u, v, (u - v).abs(), u * v], dim=-1)
    return np.concatenate([u, v, np.abs(u - v), u * v], axis=-1)


# --- the model ---------------------------------------------------------------------------

class EmbeddingClassifier(nn.Module):
    """``encoder`` (a transformers base model) + pooling + one linear layer.

    ``config`` is the encoder's: a run keeps its kind, labels and input lengths there
    (``config.bertstudio``, ``id2label``) as for every model bertstudio saves.

    ``siamese=True`` reads pairs (input of shape ``(batch, 2, length)``) through the
    ``(u, v, |u-v|, u*v)`` features. ``num_labels=1`` with ``regression=True`` is a
    regression head (MSE), else cross-entropy over the labels.
    """

    base_model_prefix = "encoder"  # where the pre-trained part lives (freezing, the head's learning rate)

    def __init__(self, encoder: nn.Module, num_labels: int, *, siamese: bool = False, regression: bool = False,
                 pooling: str = "mean", normalize: bool = True, labels: Sequence[str] = ()) -> None:
        super().__init__()
        self.encoder = encoder
        self.config = encoder.config  # what the engine's helpers look at (attention implementation)
        self.siamese = siamese
        self.regression = regression
        self.pooling = pooling
        self.normalize = normalize
        self.labels = list(labels)
        hidden = int(encoder.config.hidden_size)
        self.classifier = nn.Linear(hidden * (4 if siamese else 1), 1 if regression else num_labels)
        pooler = getattr(encoder, "pooler", None)
        if pooler is not None:  # the heads pool the tokens, never read the pooler: it keeps its loaded weights
            # (trainable, it got no gradient, and data-parallel training refused it at step 2)
            pooler.requires_grad_(False)

    def get_input_embeddings(self) -> nn.Module:
        return self.encoder.get_input_embeddings()

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Pooled sentence vectors of a ``(batch, length)`` input."""
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return pool(hidden, attention_mask, self.pooling, self.normalize)

    def features(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        if input_ids.ndim == 3:  # pairs: both sides through the encoder as one batch
            b, two, length = input_ids.shape
            vectors = self.embed(input_ids.reshape(b * two, length), attention_mask.reshape(b * two, length))
            vectors = vectors.reshape(b, two, -1)
            return pair_features(vectors[:, 0], vectors[:, 1])
        return self.embed(input_ids, attention_mask)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                token_type_ids: torch.Tensor | None = None, labels: torch.Tensor | None = None,
                **_: Any) -> SequenceClassifierOutput:
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        feats = self.features(input_ids, attention_mask)
        logits = self.classifier(feats.to(self.classifier.weight.dtype))
        loss = None
        if labels is not None:
            if self.regression:
                loss = nn.functional.mse_loss(logits.squeeze(-1).float(), labels.float())
            else:
                loss = nn.functional.cross_entropy(logits.float(), labels)
        return SequenceClassifierOutput(loss=loss, logits=logits)


class SiamesePairTask(SequenceClassificationTask):
    """pair | regression with two texts, each side encoded on its own (``(2, length)`` rows)."""

    def encode(self, examples: ExampleSet, tokenizer: Any, *, max_length: int, label2id: Mapping[str, int],
               doc_stride: int = 128, training: bool = True) -> datasets.Dataset:
        ds, with_targets = encoding_rows(examples, training)

        def tokenize(batch: dict[str, list]) -> dict[str, list]:
            kw = dict(truncation=True, max_length=max_length, return_attention_mask=True)
            a = tokenizer(batch["text"], **kw)
            b = tokenizer([t or "" for t in batch["text_pair"]], **kw)
            out: dict[str, list] = {
                "input_ids": [[x, y] for x, y in zip(a["input_ids"], b["input_ids"])],
                "attention_mask": [[x, y] for x, y in zip(a["attention_mask"], b["attention_mask"])],
                "length": [len(x) + len(y) for x, y in zip(a["input_ids"], b["input_ids"])],
                "example_index": batch["example_index"],
            }
            if with_targets:
                if self.regression:
                    out["labels"] = [float(v) for v in batch["label"]]
                else:
                    out["labels"] = label_ids(batch["label"], label2id, examples, batch["example_index"])
            return out

        return map_batched(ds, tokenize, f"{self.kind}-siamese")

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int, *,
                pad_to_multiple_of: int | None = PAD_MULTIPLE, widths: Any = None) -> dict[str, torch.Tensor]:
        """Both sides padded to one width (the longer side, rounded up as the engine asks).
        ``widths`` (the CPU path's per-shape widths for single sequences) does not apply to
        two-sided rows and is ignored."""
        if not features:
            raise ValueError("cannot collate an empty batch")
        width = padded_length(max(len(side) for f in features for side in f["input_ids"]), pad_to_multiple_of)
        ids = np.full((len(features), 2, width), pad_token_id, dtype=np.int64)
        mask = np.zeros((len(features), 2, width), dtype=np.int64)
        for i, f in enumerate(features):
            for s in range(2):
                n = len(f["input_ids"][s])
                ids[i, s, :n] = f["input_ids"][s]
                mask[i, s, :n] = f["attention_mask"][s]
        batch = {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)}
        if "example_index" in features[0]:
            batch["example_index"] = torch.tensor([f["example_index"] for f in features], dtype=torch.int64)
        if "labels" in features[0]:
            dtype = torch.float32 if self.regression else torch.int64
            batch["labels"] = torch.tensor([f["labels"] for f in features], dtype=dtype)
        return batch


def embedding_task(kind: str, head: str) -> Any:
    """The task object that encodes data for an embedding classifier of ``kind``."""
    from bertstudio.tasks import get_task

    if head == "siamese":
        if kind not in ("pair", "regression"):
            raise ConfigError(f"the siamese head reads text pairs; a {kind} task has none", where="head",
                              expected="pair or regression data, or head = embedding")
        return SiamesePairTask(kind)
    if kind not in ("sentence", "pair", "regression"):
        raise ConfigError(f"an embedding classifier predicts one value per example, not {kind}", where="task",
                          expected="sentence | pair | regression")
    return get_task(kind)


# --- building, saving, loading -------------------------------------------------------------

def build_embedding_classifier(kind: str, model_source: str | None, *, labels: Sequence[str],
                               head: str | None = None) -> tuple[EmbeddingClassifier, Any, Any]:
    """``(model, tokenizer, task)``: a pre-trained encoder with a fresh head. ``head`` is
    "siamese" (default for pairs) or "embedding" (one text)."""
    from bertstudio.bundled import resolve_model

    head = head or ("siamese" if kind == "pair" else "embedding")
    model, tokenizer = build_embedding_model(kind, resolve_model(model_source), labels=labels, head=head)
    return model, tokenizer, embedding_task(kind, head)


def build_embedding_model(kind: str, path: str, *, labels: Sequence[str], head: str, mode: str = "full",
                          glue_task: str | None = None, lengths: Mapping[str, int] | None = None,
                          weights: bool = True) -> tuple[EmbeddingClassifier, Any]:
    """``(model, tokenizer)`` for a run (tasks/model.build_model's embedding / siamese heads):
    the encoder at ``path`` with a fresh linear head, frozen as ``mode`` says (full | frozen |
    top-N; LoRA is refused by TrainConfig), the run's kind, labels and lengths kept in the
    encoder's config. ``weights=False`` builds on the meta device (parameter counts)."""
    AutoConfig, AutoModel = hf("AutoConfig"), hf("AutoModel")

    from bertstudio.tasks.model import _freeze, _MODE, check_vocabulary, load_tokenizer, load_weights

    if head not in HEAD_NAMES:
        raise ConfigError(f"unknown head {head!r}", where="head", expected=" | ".join(HEAD_NAMES))
    embedding_task(kind, head)  # refuses a head that does not fit the kind
    regression = kind == "regression"
    if not regression:  # as the linear and MLP heads do (SequenceClassificationTask.config_kwargs)
        labels = check_labels(labels, kind, get_spec(kind).min_labels)
    m = _MODE.match(mode)
    if m is None or m.group(1) == "lora":
        raise ConfigError(f"the {head} head trains with mode full, frozen or top-N, not {mode!r}", where="mode",
                          expected="full | frozen | top-N")
    settings = pooling_settings(path)
    try:
        config = AutoConfig.from_pretrained(path, trust_remote_code=False)
        tokenizer = load_tokenizer(path) if weights else None
        if weights:
            encoder = load_weights(AutoModel, path, config)
        else:
            with torch.device("meta"):  # thread-local, see tasks/model._build_model
                encoder = AutoModel.from_config(config)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load model: {exc}", path=path, expected="a model folder or Hub id") from None
    check_vocabulary(tokenizer, config, path)  # as build_model does for the other heads
    if not regression:
        encoder.config.id2label = dict(enumerate(labels))
        encoder.config.label2id = {name: i for i, name in enumerate(labels)}
    encoder.config.bertstudio = {"task": kind, "head": head, "glue_task": glue_task, **dict(lengths or {})}
    model = EmbeddingClassifier(encoder, len(labels), siamese=head == "siamese", regression=regression,
                                pooling=settings["pooling"], normalize=settings["normalize"], labels=labels)
    if m.group(1) == "frozen":
        _freeze(model, top_layers=0, train_pooler=False)
    elif m.group(2) is not None:
        _freeze(model, top_layers=int(m.group(2)), train_pooler=False, path=path)
    return model, tokenizer


def _sentence_transformers_files(folder: Path, model: EmbeddingClassifier, max_length: int) -> None:
    """modules.json and the Pooling/Normalize configs, so sentence-transformers loads the encoder."""
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]
    if model.normalize:
        modules.append({"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"})
        (folder / "2_Normalize").mkdir(exist_ok=True)
    (folder / "1_Pooling").mkdir(exist_ok=True)
    pooling = {"word_embedding_dimension": int(model.config.hidden_size),
               "pooling_mode_cls_token": model.pooling == "cls", "pooling_mode_mean_tokens": model.pooling != "cls",
               "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}
    (folder / "modules.json").write_text(json.dumps(modules, indent=2), encoding="utf-8")
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(pooling, indent=2), encoding="utf-8")
    (folder / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": max_length, "do_lower_case": False}), encoding="utf-8")


def save_embedding_classifier(model: EmbeddingClassifier, tokenizer: Any, out: str | Path, *,
                              kind: str | None = None, extra: Mapping[str, Any] | None = None) -> Path:
    """Write ``out`` (a new or empty folder; the engine's ``RunParts.save`` signature)."""
    from safetensors.torch import save_file

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model.encoder.save_pretrained(out)
    if tokenizer is not None:
        tokenizer.save_pretrained(out)
    head = {k: v.detach().float().cpu().contiguous() for k, v in model.classifier.state_dict().items()}
    save_file(head, str(out / HEAD_FILE))
    # what sentence-transformers cuts texts to: the run's max_length, within the positions the model has
    run_length = (getattr(model.config, "bertstudio", None) or {}).get("max_length")
    limit = token_limit(model.config.to_dict(), {"model_max_length": getattr(tokenizer, "model_max_length", None)})
    max_length = min(v for v in (run_length, limit, 512) if isinstance(v, int) and not isinstance(v, bool) and v > 0)
    if kind is None:
        kind = "regression" if model.regression else ("pair" if model.siamese else "sentence")
    settings = {"format": FORMAT, "kind": kind, "head": "siamese" if model.siamese else "embedding",
                "labels": list(model.labels), "pooling": model.pooling, "normalize": model.normalize,
                "regression": model.regression, **dict(extra or {})}
    (out / SETTINGS_FILE).write_text(json.dumps(settings, indent=2), encoding="utf-8")
    _sentence_transformers_files(out, model, max_length)
    return out


def is_embedding_classifier(folder: str | Path) -> bool:
    return (Path(folder) / SETTINGS_FILE).is_file()


def load_embedding_classifier(folder: str | Path) -> tuple[EmbeddingClassifier, Any, dict[str, Any]]:
    """``(model, tokenizer, settings)`` of a folder written by :func:`save_embedding_classifier`;
    any damage (settings, head, weights, tokenizer) is one ConfigError naming the file."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    from bertstudio.tasks.model import check_vocabulary, inspect_model_folder, load_tokenizer, load_weights

    folder = Path(folder)
    # config.json's sizes, the weights' shapes, links and code: checked before anything is built (the
    # assistant's saved model, restored at Open, allocated what a tampered config.json described)
    inspect_model_folder(folder)
    settings = read_embedding_settings(folder)
    tokenizer = load_tokenizer(folder)
    # every encoder weight from the file (the pooler aside, which the heads do not read): transformers
    # filled a missing layer with random numbers and predictions were noise with exit status 0
    encoder = load_weights(hf("AutoModel"), str(folder), complete="encoder")
    check_vocabulary(tokenizer, encoder.config, folder)  # as load_model does for the other heads
    labels = settings["labels"]
    model = EmbeddingClassifier(encoder, max(len(labels), 1), siamese=settings["head"] == "siamese",
                                regression=settings["regression"], pooling=settings["pooling"],
                                normalize=settings["normalize"], labels=labels)
    try:
        model.classifier.load_state_dict(load_file(str(folder / HEAD_FILE)))
    except (OSError, SafetensorError, RuntimeError, KeyError, ValueError) as exc:
        text = str(exc).strip().splitlines()
        raise ConfigError(f"the head cannot be loaded: {text[0][:300] if text else type(exc).__name__}",
                          path=folder / HEAD_FILE, expected=f"the linear head written with this folder's {SETTINGS_FILE}") from None
    return model.eval(), tokenizer, settings


def read_embedding_settings(folder: str | Path) -> dict[str, Any]:
    """The checked settings of an embedding-classifier folder (format, head, labels, pooling...)."""
    path = Path(folder) / SETTINGS_FILE
    expected = "a folder written by bertstudio (an embedding or siamese head)"
    from bertstudio.data.regular_file import read_regular_text
    from bertstudio.errors import DataError

    try:  # a FIFO or a device is refused, not waited on
        settings = json.loads(read_regular_text(path, max_bytes=1 << 20) or "")
    except DataError as exc:
        raise ConfigError(f"cannot read {SETTINGS_FILE}: {exc.problem}", path=path, expected=expected) from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"cannot read {SETTINGS_FILE}: {type(exc).__name__}", path=path, expected=expected) from None
    if not isinstance(settings, dict) or settings.get("format") != FORMAT:
        raise ConfigError(f"not a {FORMAT} settings file", path=path, expected=expected)
    labels = settings.get("labels", [])
    names = [str(x) for x in labels] if isinstance(labels, list) else []  # "pos" and "pos " are two classes elsewhere too
    # each class named once and not blank: ["same", "same"] merged two classes' probabilities in
    # predict, and ["1", 1] did the same; the ONNX export's labels.json then refused what it wrote
    checks = {"labels": isinstance(labels, list) and all(isinstance(x, (str, int)) and not isinstance(x, bool)
                                                         for x in labels)
              and all(n.strip() for n in names) and len(set(names)) == len(names),
              "head": settings.get("head", "embedding") in ("embedding", "siamese"),
              "pooling": settings.get("pooling", "mean") in ("mean", "cls"),
              "normalize": isinstance(settings.get("normalize", True), bool),
              "regression": isinstance(settings.get("regression", False), bool)}
    # a score model is a regression head and the other kinds are not: "kind": "regression" over a
    # 2-class head printed the first class's logit as a score
    # and a siamese head reads pairs: "kind": "sentence" over one failed at predict (KeyError 'text_pair', exit 1)
    head = settings.get("head", "embedding")
    checks["kind"] = "kind" not in settings or (
        (settings["kind"] == "regression") == (settings.get("regression") is True)
        and settings["kind"] in (("pair", "regression") if head == "siamese" else ("sentence", "pair", "regression")))
    bad = [key for key, ok in checks.items() if not ok]
    if bad == ["labels"] and names and all(n.strip() for n in names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ConfigError(f"labels names {', '.join(map(repr, twice))} more than once", path=path, where="labels",
                          expected="each class named once")
    if bad:
        raise ConfigError(f"{bad[0]} has an impossible value", path=path, where=bad[0], expected=expected)
    return {**settings, "labels": [str(x) for x in labels], "head": settings.get("head", "embedding"),
            "pooling": settings.get("pooling", "mean"), "normalize": settings.get("normalize", True),
            "regression": settings.get("regression", False)}
