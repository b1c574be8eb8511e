"""Where models come from, and how they are built, frozen, saved and reloaded.

Every model is a stock transformers Auto class (sequence / token classification,
question answering), so a saved folder reloads with plain ``from_pretrained`` and
``pipeline()`` elsewhere. What bertstudio adds lives in ``config.bertstudio``
(``{"task", "head", "glue_task", "max_length", "doc_stride", "max_answer_length"}``),
saved in config.json, so evaluation and prediction cut and window inputs exactly as
training did.

A model folder never runs its own code: every ``from_pretrained`` passes
``trust_remote_code=False``, and :func:`inspect_model_folder` refuses a folder
whose config names its own Python classes (``auto_map``), one without tokenizer
files, and one whose sizes no real model has, before transformers reads it.
Whatever a folder holds, loading it raises ConfigError, never a library error.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import re
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import nn

from bertstudio.bundled import resolve_model
from bertstudio.hf import hf
from bertstudio.data.atomic import replace_folder
from bertstudio.errors import ConfigError, DataError
from bertstudio.data.formats.common import parse_json
from bertstudio.data.regular_file import check_folder_files
from bertstudio.tasks.limits import (
    MAX_CONFIG_BYTES,
    TOKENIZER_FILES,
    check_label_count,
    check_model_config,
    check_weights_match,
    pairs_share,
    read_token_limit,
)

log = logging.getLogger(__name__)
_MODE = re.compile(r"^(full|frozen|lora|top-(\d+))$")
# One model built at a time: transformers' lazy module is not safe to import from two threads
# at once (a parameter count on the Train page's worker and a run starting on its own thread
# failed with "cannot import name 'AutoConfig' from 'transformers'").
_BUILDING = threading.RLock()


def model_device(module: nn.Module) -> torch.device:
    """Where ``module``'s weights are. A model trained on a GPU (the engine, or SetFit's trainer)
    stays there, so whoever runs it afterwards sends its inputs there and brings outputs back."""
    for parameter in module.parameters():
        return parameter.device
    return torch.device("cpu")


def build_model(kind: str, model_source: str | None, **options: Any) -> tuple[nn.Module, Any]:
    """See :func:`_build_model`; serialised with :data:`_BUILDING`."""
    with _BUILDING:
        return _build_model(kind, model_source, **options)
HEADS = ("linear", "mlp", "embedding", "siamese")
EMBEDDING_HEADS = ("embedding", "siamese")  # tasks/embedding.py's EmbeddingClassifier


# --- building -------------------------------------------------------------------------


def _build_model(
    kind: str,
    model_source: str | None,
    *,
    labels: Sequence[str],
    head: str = "linear",
    mode: str = "full",
    lora_rank: int = 8,
    lora_alpha: int = 16,
    lora_dropout: float = 0.1,
    lora_targets: Sequence[str] | None = None,
    glue_task: str | None = None,
    lora: tuple[int, int, float, Sequence[str]] | None = None,
    lengths: dict[str, int] | None = None,
    weights: bool = True,
) -> tuple[nn.Module, Any]:
    """A pre-trained encoder with a fresh head for ``kind``, and its (fast) tokenizer.

    ``head``: "linear" is the BERT paper head (dropout + one output layer on the pooled
    [CLS]); "mlp" is d2l's hidden layer + tanh + dropout + output, built by re-initialising
    the pooler's dense layer so the architecture (and reloading) stays standard. Tagging and
    QA always use their per-token linear layer. ``mode``: full | frozen | top-N | lora.
    ``lora=(rank, alpha, dropout, targets)`` is accepted as a shorthand for the lora_* keywords.
    ``lengths``: the run's max_length / doc_stride / max_answer_length, kept in the model's
    config. ``weights=False`` builds on the meta device (no weights read, no memory, no
    tokenizer: None), to count parameters (:func:`parameter_counts`).
    """
    AutoConfig = hf("AutoConfig")

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
    head = head if sequence_head or head in EMBEDDING_HEADS else "linear"
    path = resolve_model(model_source)
    check_label_count(len(labels))
    inspect_model_folder(path)
    if head in EMBEDDING_HEADS:
        from bertstudio.tasks.embedding import build_embedding_model

        return build_embedding_model(kind, path, labels=labels, head=head, mode=mode, glue_task=glue_task,
                                     lengths=lengths, weights=weights)
    tokenizer = load_tokenizer(path) if weights else None
    try:
        config = AutoConfig.from_pretrained(path, trust_remote_code=False, **task.config_kwargs(labels))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load model: {_first_line(exc)}", path=path, expected="a model folder or Hub id") from None
    config.bertstudio = {"task": kind, "head": head, "glue_task": glue_task, **(lengths or {})}
    check_vocabulary(tokenizer, config, path)
    if weights:
        # fp32 master weights whatever the checkpoint holds (transformers 5 defaults to the
        # checkpoint's dtype): mixed precision is the engine's autocast, and bf16 weights would
        # lose small updates and run ~100x slower on CPUs without bf16 units.
        model = load_weights(task.auto_model_class(), path, config, complete="encoder")
    else:
        # torch's meta device context, not accelerate's init_empty_weights: that one patches
        # nn.Module for every thread, so a count on the Train page's worker made a run starting
        # on another thread build meta weights ("Cannot copy out of meta tensor"); torch's
        # device context is a thread-local function mode.
        import torch

        with torch.device("meta"):
            model = task.auto_model_class().from_config(config)
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
    """The dense layer between [CLS] and the output: BERT's pooler (ALBERT's pooler is that
    Linear itself). Models without a pooler in the base model (DeBERTa's ``pooler.dense`` and
    ModernBERT's ``head.dense`` beside it, DistilBERT's ``pre_classifier``, RoBERTa/ELECTRA's
    ``classifier.dense``) already put a hidden layer in their stock head, so "mlp"
    re-initialises that one, and "linear" there means the stock head (not strictly the BERT
    paper's single layer)."""
    name = _hidden_layer_name(model)
    return model.get_submodule(name) if name is not None else None


def _hidden_layer_name(model: nn.Module) -> str | None:
    """The qualified name of :func:`_hidden_layer`'s layer in ``model``."""
    prefix = model.base_model_prefix
    for name in (f"{prefix}.pooler.dense", f"{prefix}.pooler", "pooler.dense", "pre_classifier", "classifier.dense",
                 "head.dense"):
        try:
            layer = model.get_submodule(name)
        except AttributeError:
            continue
        if isinstance(layer, nn.Linear):
            return name
    return None


def _head_modules_beside_the_base(model: nn.Module) -> list[str]:
    """The top-level module holding the hidden head layer when it sits outside the base model
    (DeBERTa's ``pooler``, new at load; ModernBERT's ``head``; DistilBERT's ``pre_classifier``):
    part of the head, so it trains, and is saved whole, under LoRA."""
    name = _hidden_layer_name(model)
    if name is None or name.split(".")[0] == model.base_model_prefix:
        return []
    return [name.split(".")[0]]


def _fresh_hidden_layer(model: nn.Module, path: str) -> None:
    layer = _hidden_layer(model)
    if layer is None:
        raise ConfigError("this model has no pooler or hidden head layer for the mlp head", path=path, expected="head = linear")
    std = getattr(model.config, "initializer_range", 0.02)
    with torch.no_grad():  # BERT's own initialisation: N(0, initializer_range), zero bias
        layer.weight.normal_(0.0, std)
        if layer.bias is not None:
            layer.bias.zero_()


def start_at_scores(model: nn.Module, scores: Sequence[float]) -> bool:
    """Start a fresh regression head's output layer (the Linear with one output; a LoRA model's
    saved copy too) on the training ``scores``' scale: its bias at their mean, its weights times
    their standard deviation, so the first predictions sit around the mean with a spread in
    proportion to the scores'. A head started near 0 (N(0, 0.02)) on 0-100 ratings still
    predicted 0.02-0.05 for every row after the BERT recipe's steps (mse 4259): AdamW moves each
    weight about ``lr`` a step whatever the scale. Only a layer made at load (:func:`_is_new`): a
    trained score head the base model holds keeps its weights. False when there is no score to
    start from or no new score layer.
    The layer stays a plain Linear: the saved model, ONNX and the Hub read the scale as weights."""
    values = torch.tensor([float(v) for v in scores if v is not None], dtype=torch.float64)
    values = values[torch.isfinite(values)]
    layers = [m for name, m in model.named_modules() if isinstance(m, nn.Linear) and m.out_features == 1
              and _is_new(model, name)]
    if not len(values) or not layers:
        return False
    mean, spread = float(values.mean()), float(values.std(correction=0))
    with torch.no_grad():
        for layer in layers:
            if spread > 0:
                layer.weight.mul_(spread)
            if layer.bias is not None:
                layer.bias.fill_(mean)
    return True


def _is_new(model: nn.Module, name: str) -> bool:
    """Whether the layer ``name`` of ``model`` was made at load (its weight was not in the file:
    :func:`load_weights` keeps the names). A score head the file holds (an STS-B cross-encoder from
    the Hub, a run's own model folder used as the base) is the user's trained head, never reset; a
    model loaded without that record (built here, or by a path that keeps none) counts as new."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model  # under LoRA: the wrapped model
    new = getattr(base, "bertstudio_new_weights", None)
    if new is None:
        return True
    plain = name.removeprefix("base_model.model.").replace(".modules_to_save.default", "").replace(".original_module", "")
    return f"{plain}.weight" in new


def _encoder_layers(base: nn.Module, num_layers: int, path: str | None = None) -> nn.ModuleList:
    """The stack of transformer blocks (``encoder.layer`` in BERT, ``transformer.layer`` in DistilBERT)."""
    for module in base.modules():
        if isinstance(module, nn.ModuleList) and len(module) == num_layers:
            return module
    groups = getattr(base.config, "num_hidden_groups", None)
    if isinstance(groups, int) and groups < num_layers:  # ALBERT: one group's weights, run num_layers times
        raise ConfigError(f"this model shares its weights across its {num_layers} layers ({groups} group"
                          f"{'s' if groups != 1 else ''}, as ALBERT does), so no top layers can train alone",
                          path=path, where="mode", expected="mode full, frozen or lora")
    raise ConfigError("cannot find the encoder's layers to freeze", path=path, where="mode",
                      expected="a BERT-style encoder, or mode full, frozen or lora")


def _freeze(model: nn.Module, *, top_layers: int, train_pooler: bool, path: str | None = None) -> None:
    """Freeze the encoder (embeddings included) except its top ``top_layers`` blocks; the
    head always trains. The pooler trains with top-N, and with frozen only as the mlp head."""
    base = getattr(model, model.base_model_prefix)
    n = model.config.num_hidden_layers
    if top_layers > n:
        raise ConfigError(f"mode top-{top_layers} asks for more layers than the model has ({n})", path=path, where="mode", expected=f"top-0 .. top-{n}",
                          facts={"value": top_layers, "limit": n})
    for p in base.parameters():
        p.requires_grad_(False)
    if top_layers:
        for block in _encoder_layers(base, n, path)[n - top_layers :]:
            block.requires_grad_(True)
    pooler = getattr(base, "pooler", None)
    if train_pooler and pooler is not None:
        pooler.requires_grad_(True)


def _with_lora(model: nn.Module, task: Any, head: str, rank: int, alpha: int, dropout: float, targets: Sequence[str], path: str) -> nn.Module:
    from peft import LoraConfig, get_peft_model

    # The head is new, so it trains in full and is saved whole (modules_to_save); with
    # the mlp head the re-initialised pooler is part of the head.
    # Head layers beside the base model (DeBERTa's pooler) are part of the head too.
    to_save = list(dict.fromkeys([*task.head_modules, *(["pooler"] if head == "mlp" else []),
                                  *_head_modules_beside_the_base(model)]))
    width = getattr(model.config, "hidden_size", None)
    if isinstance(width, int) and int(rank) > width:  # rank 100,000 on MiniLM took 17 GB before it failed
        raise ConfigError(f"LoRA rank {int(rank):,} is more than the model's hidden size ({width})", path=path,
                          where="lora_rank", expected=f"1 .. {width} (LoRA's rank is small: 4-64)",
                          facts={"value": int(rank), "limit": width})
    targets = list(targets or ()) or lora_targets_for(model)
    config = LoraConfig(
        task_type=task.peft_task_type,
        r=int(rank),
        lora_alpha=alpha,
        lora_dropout=float(dropout),
        target_modules=targets,
        modules_to_save=to_save,
    )
    try:
        with warnings.catch_warnings():  # peft asks transformers 5 a deprecated question: two lines under --quiet
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
            return get_peft_model(model, config)
    except ValueError as exc:
        if "target" not in str(exc):
            raise ConfigError(f"LoRA cannot adapt this model: {_first_line(exc)}", path=path, where="lora_targets") from None
        names = _linear_names(model, skip=to_save)
        raise ConfigError(f"LoRA finds no layer named {', '.join(targets)} in this model", path=path, where="lora_targets",
                          expected="names of the model's own linear layers: " + (", ".join(names) or "none found")
                          + " (usually its attention query and value)") from None


# LoRA's default targets where peft's table (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING)
# has no entry for the model type: each family's attention query and value projections.
_LORA_TARGETS: dict[str, tuple[str, ...]] = {
    "distilbert": ("q_lin", "v_lin"),
    "mpnet": ("q", "v"),
    "modernbert": ("Wqkv",),  # query, key and value in one projection
}


def lora_targets_for(model: nn.Module) -> list[str]:
    """The modules LoRA adapts when the run names none: the model family's attention query and
    value layers (peft's own table, then :data:`_LORA_TARGETS`, else BERT's names)."""
    from peft.utils.constants import TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING as PEFT_TARGETS

    model_type = getattr(model.config, "model_type", None)
    targets = _LORA_TARGETS.get(model_type) or PEFT_TARGETS.get(model_type) or ("query", "value")
    log.info("LoRA adapts %s (%s's attention)", ", ".join(targets), model_type or "the model")
    return list(targets)


def _linear_names(model: nn.Module, skip: Sequence[str] = ()) -> list[str]:
    """The distinct last names of the model's linear layers (its head's left out), in order."""
    names: dict[str, None] = {}
    for full, module in model.named_modules():
        parts = full.split(".")
        if isinstance(module, nn.Linear) and not any(p in skip for p in parts):
            names[parts[-1]] = None
    return list(names)


def count_parameters(model: nn.Module) -> tuple[int, int]:
    """``(trainable, total)`` parameter counts (a LoRA model's total includes its adapters):
    transformers' ``num_parameters`` where the model has it, else counted here (a hand-made
    model in a test)."""
    count = getattr(model, "num_parameters", None)
    if callable(count):
        return count(only_trainable=True), count()
    trainable = total = 0
    for p in model.parameters():
        total += p.numel()
        if p.requires_grad:
            trainable += p.numel()
    return trainable, total


def parameter_counts(kind: str, model_source: str | None, *, labels: Sequence[str], **build: Any) -> tuple[int, int]:
    """``(trainable, total)`` of the model :func:`build_model` would make with these
    arguments, for any architecture, without reading its weights: the model is built on
    the meta device (``torch.device("meta")`` + ``from_config``), then frozen or
    given LoRA adapters as a run would."""
    import torch

    # Everything on the meta device, the new head and LoRA's adapters too: their initialisation
    # then draws nothing from torch's global generator, which a run starting on another thread
    # had seeded (the Train page counted while Start was pressed: same seed, another model).
    with torch.device("meta"):
        model, _ = build_model(kind, model_source, labels=labels, weights=False, **build)
    return count_parameters(model)


# --- saving and loading -----------------------------------------------------------------


def task_for(model: nn.Module, kind: str) -> Any:
    """The task object that encodes data for ``model``: a siamese embedding classifier reads
    each side of a pair on its own; every other model reads ``kind``'s stock encoding."""
    from bertstudio.tasks import get_task

    if getattr(model, "siamese", False):
        from bertstudio.tasks.embedding import SiamesePairTask

        return SiamesePairTask(kind)
    return get_task(kind)


def write_model(model: nn.Module, tokenizer: Any, out_dir: str | Path) -> Path:
    """Write a plain transformers folder (config with labels + ``bertstudio`` meta, weights,
    tokenizer) into ``out_dir`` as it is. A LoRA model is merged into a copy first, so the
    live model keeps training and the folder needs no peft."""
    peft = sys.modules.get("peft")  # a LoRA model means peft is loaded; importing it costs 0.4 s
    if peft is not None and isinstance(model, peft.PeftModel):
        model = copy.deepcopy(model).merge_and_unload()
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return Path(out_dir)


def save_model(model: nn.Module, tokenizer: Any, out_dir: str | Path) -> Path:
    """:func:`write_model`, swapped in whole at the end (data/atomic.replace_folder), so a
    crash or a full disk never leaves half a model and keeps the one that was there."""
    return replace_folder(out_dir, lambda tmp: write_model(model, tokenizer, tmp), parents=True)


def saved_lengths(config: Any) -> dict[str, Any]:
    """The max_length / doc_stride / max_answer_length the model was trained with, as its
    config.json keeps them ({} for a model saved before bertstudio kept them), unchecked:
    train/predict.run_lengths checks them as the run's settings."""
    meta = getattr(config, "bertstudio", None)
    meta = meta if isinstance(meta, dict) else {}
    return {k: meta[k] for k in ("max_length", "doc_stride", "max_answer_length") if k in meta}


def record_pairs(model: Any, pairs: str) -> None:
    """Keep how many training rows had a second text ("none", "some" or "all":
    train/small_data.has_pairs(share=True)) with the model's settings (config.json's ``bertstudio``
    block; an ONNX export copies it into labels.json): a kind whose second text is optional
    (regression) then reads one text or two as it was trained (a one-text rating model was given a
    second box, and scored a pair it never saw, unsaid), needing the second only where all rows had one."""
    settings = getattr(model, "config", None)
    if settings is not None:
        settings.bertstudio = {**(getattr(settings, "bertstudio", None) or {}), "pairs": pairs_share(pairs)}


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
    AutoConfig = hf("AutoConfig")

    from bertstudio.tasks import get_task

    from bertstudio.tasks.embedding import is_embedding_classifier, load_embedding_classifier

    if is_embedding_classifier(model_dir):  # inspected there (the assistant's saved model loads that way too)
        model, tokenizer, settings = load_embedding_classifier(model_dir)
        kind = str(settings.get("kind", "sentence"))
        return model, tokenizer, kind, ([] if model.regression else list(model.labels))
    inspect_model_folder(model_dir)
    try:
        config = AutoConfig.from_pretrained(model_dir, trust_remote_code=False)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load model: {_first_line(exc)}", path=model_dir,
                          expected="a model folder saved by bertstudio or transformers") from None
    tokenizer = load_tokenizer(model_dir)
    config_path = Path(model_dir) / "config.json"
    try:
        kind = model_kind(config)
    except ConfigError as exc:  # "the model has no task head": a pre-trained encoder, named
        raise ConfigError(exc.problem, path=model_dir, expected=exc.expected) from None
    labels: list[str] = []
    if kind == "qa":  # refused here, with its file, not at the first question
        from bertstudio.tasks.qa import null_answers_in

        null_answers_in(config, config_path)
    if kind == "regression" and config.num_labels != 1:  # a score read from one of several outputs: nonsense
        raise ConfigError(f"a regression model gives one score, but this head has {config.num_labels} outputs",
                          path=config_path, where="bertstudio.task", expected="the task kind the model was trained for")
    if kind in ("sentence", "pair", "tagging"):
        try:
            labels = [str(config.id2label[i]) for i in range(config.num_labels)]
        except (KeyError, TypeError, AttributeError):
            raise _label_ids_gap(config_path) from None
        refuse_twice_named(labels, config_path)
    check_vocabulary(tokenizer, config, model_dir)
    model = load_weights(get_task(kind).auto_model_class(), str(model_dir), config, complete=True)
    return model, tokenizer, kind, labels


def _label_ids_gap(config_path: Path) -> ConfigError:
    """id2label without a name for each id 0 .. n-1: said so by predict and evaluate alike (evaluate
    read such a model's labels in key order and blamed the data: "unknown label 'pos'")."""
    return ConfigError("config.json's id2label does not list the labels 0 .. num_labels-1", path=config_path,
                       where="id2label", expected="one name per label id")


def refuse_twice_named(labels: Sequence[str], config_path: Path) -> None:
    """ConfigError when id2label gives two label ids one name (their scores would merge into one)."""
    twice = sorted({name for name in labels if list(labels).count(name) > 1})
    if twice:
        raise ConfigError(f"id2label names {', '.join(map(repr, twice))} for more than one label id", path=config_path,
                          where="id2label", expected="a different name for each label")


def check_vocabulary(tokenizer: Any, config: Any, path: str | Path) -> None:
    """ConfigError when the tokenizer hands out ids the model has no embedding for (a tokenizer
    copied in from a larger model): every such word would fail deep inside the first batch."""
    vocab = getattr(config, "vocab_size", None)
    if tokenizer is None or not isinstance(vocab, int):
        return
    if len(tokenizer) > vocab:
        raise ConfigError(f"the tokenizer has {len(tokenizer):,} tokens but the model embeds only {vocab:,}", path=path,
                          where="tokenizer", expected="the tokenizer files the model was trained with")
    # the count can fit while one id does not (a tokenizer.json edited to "good": 1000000): the first
    # batch with that word failed as "internal error: IndexError" (exit 1)
    top = max(tokenizer.get_vocab().values(), default=-1)
    if top >= vocab:
        word = next(w for w, i in tokenizer.get_vocab().items() if i == top)
        raise ConfigError(f"the tokenizer gives {word[:40]!r} the id {top:,}, but the model embeds only ids below "
                          f"{vocab:,}", path=path, where="tokenizer", expected="the tokenizer files the model was trained with")


# --- what a model folder may hold ----------------------------------------------------------

# Files a transformers tokenizer is built from (fast tokenizer.json, WordPiece vocab.txt,
# byte-level BPE vocab.json, SentencePiece models). Without one, transformers 5 builds a
# tokenizer of the special tokens alone and every word becomes [UNK].
# XLM-V's 0.9M-token tokenizer.json is about 60 MB.
MAX_TOKENIZER_BYTES = 512 * 2**20
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json", "pytorch_model.bin.index.json")
TOKENIZER_JSON = ("tokenizer_config.json", "special_tokens_map.json", "added_tokens.json")  # small; tokenizer.json is not


def looks_like_path(name: str | os.PathLike[str]) -> bool:
    """Whether a model name that is not there is a folder path, not a Hub id such as
    bert-base-uncased or org/name (one slash at most, never a backslash or a colon)."""
    # "runs/model" whose "runs" is a folder here is a path too (it was "couldn't connect to
    # huggingface.co"). A backslash is a path too: Windows' separator, never in a Hub id
    # (models\my-bert went to the Hub on Windows). Looked for in the name as typed: on Windows
    # os.sep is the backslash, and the replace below turns it into "/". A path written on the
    # other system counts too (C:\models on Linux, /home/u/bert on Windows: a run taken along).
    typed = str(name)
    text = typed.replace(os.sep, "/")
    parent = text.split("/")[0]
    return (Path(typed).expanduser().is_absolute() or text.startswith((".", "~", "/")) or "\\" in typed
            or re.match(r"[A-Za-z]:[\\/]", typed) is not None or text.strip("/").count("/") > 1
            or ("/" in text and bool(parent) and Path(parent).is_dir()))


def inspect_model_folder(path: str | Path) -> dict[str, Any] | None:
    """Check a local model folder before transformers reads it; return its config.json.

    Refused: a folder whose config.json or tokenizer_config.json names its own Python
    classes (``auto_map``: transformers would import the folder's .py files, and asks
    "[y/N]" on a terminal), config.json sizes no real model has (see tasks/limits.py),
    and a folder without tokenizer files. None for a Hub id (not a local folder), which
    transformers resolves with ``trust_remote_code=False``."""
    if not str(path).strip():  # Path("") is the current folder
        raise ConfigError("the model is an empty name", where="model", expected="a model folder or Hub id")
    folder = Path(path).expanduser()
    if os.path.islink(folder) and not folder.exists():
        # a dangling link or a loop is a local name: it went to the Hub as a repo id
        try:
            os.stat(folder)
            reason = "cannot be read"
        except FileNotFoundError:
            reason = "is a symbolic link to a path that does not exist"
        except OSError as exc:
            reason = f"is a symbolic link that cannot be followed ({exc.strerror or exc})"
        raise ConfigError(reason, path=folder, expected="a model folder or Hub id")
    if not folder.exists():
        if looks_like_path(path):
            raise ConfigError("no such model folder", path=folder, expected="a model folder or Hub id")
        return _cached_hub_config(str(path))
    if not folder.is_dir():
        raise ConfigError("not a model folder", path=folder, expected="a folder with config.json and the model's files")
    check_folder_files(folder)  # a FIFO or device inside would block whichever reader opens it
    _refuse_run_or_export_folder(folder)
    for name in ("config.json", *WEIGHT_FILES, *TOKENIZER_FILES):  # transformers says only "no file named ..."
        if (folder / name).is_dir():
            raise ConfigError("is a folder, not a file", path=folder / name, expected=f"{name} as the model saved it")
    raw = _read_json(folder / "config.json", required=True)
    refuse_own_code(folder, raw)
    check_model_config(raw, folder / "config.json")
    check_weights_match(raw, folder)
    if not any((folder / f).is_file() for f in TOKENIZER_FILES):
        raise ConfigError("the model folder has no tokenizer files", path=folder,
                          expected="one of " + ", ".join(TOKENIZER_FILES))
    return raw


def is_onnx_export(folder: Path) -> bool:
    """Whether ``folder`` is an ONNX export (train/onnx_export.py): its labels.json beside a .onnx file."""
    return (folder / "labels.json").is_file() and any(folder.glob("*.onnx"))


def _refuse_run_or_export_folder(folder: Path) -> None:
    """A run folder or an ONNX export given where a model folder goes: say which file to give
    (it was "config.json is missing", or a weights error for an export)."""
    if not (folder / "config.json").is_file() and (folder / "model" / "config.json").is_file():
        raise ConfigError("a run folder, not a model folder", path=folder,
                          expected=f"the run's model folder: {folder / 'model'}")
    if is_onnx_export(folder):  # said for predict and evaluate, and for export-onnx and train
        onnx = sorted(folder.glob("*.onnx"), key=lambda p: (p.name != "model.onnx", p.name))  # fp32 first: int8 is approximate
        raise ConfigError("an ONNX export, not a model folder", path=folder,
                          expected=f"the model folder it was exported from, a run's model/ folder; or, to "
                                   f"predict or evaluate, its model file {folder / onnx[0].name}")


def _cached_hub_config(repo_id: str) -> dict[str, Any] | None:
    """The config.json of Hub model ``repo_id`` when the local Hugging Face cache holds it,
    checked as a local folder's is (offline, transformers loads a cached attention kernel such a
    file names without its publisher check); None when it is not cached. Never the network:
    online, transformers fetches the file itself and takes kernels from trusted publishers only."""
    try:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(repo_id, "config.json")
    except Exception:  # noqa: BLE001 - an id the cache cannot hold (bad characters): transformers says why
        return None
    if not isinstance(cached, str):
        return None
    raw = _read_json(Path(cached), required=False)
    if raw is not None:
        check_model_config(raw, f"{repo_id} (config.json in the Hugging Face cache)")
    return raw


def refuse_own_code(folder: Path, config: dict[str, Any] | None = None) -> None:
    """ConfigError when config.json (``config``, if already read) or tokenizer_config.json names the
    folder's own Python classes (``auto_map``): transformers would import the folder's .py files,
    asking "[y/N]" on a terminal. Model folders and ONNX exports alike."""
    if config is None:
        config = _read_json(folder / "config.json", required=False) or {}
    tokenizer_config = _read_json(folder / "tokenizer_config.json", required=False) or {}
    for name, data in (("config.json", config), ("tokenizer_config.json", tokenizer_config)):
        if data.get("auto_map"):
            raise ConfigError("this model folder brings its own Python code (auto_map), which bertstudio never runs",
                              path=folder / name, where="auto_map",
                              expected="a model of a standard transformers architecture (BERT, RoBERTa, DistilBERT, ...)")


SAVED_MODEL = "a run's model/ folder or an export's model.onnx"


def refuse_missing_model(path: str | Path, *, hub: bool = True) -> None:
    """ConfigError "no such model folder" for a ``--model`` that names nothing here and no Hub model
    that could be fetched: not in the Hugging Face cache, and offline (HF_HUB_OFFLINE) or not a valid
    Hub id, or ``hub`` False (a command that reads only folders bertstudio wrote). A mistyped path
    said "We couldn't connect to 'https://huggingface.co'"; an online user's Hub id still goes there."""
    folder = Path(path).expanduser()
    if folder.exists() or os.path.islink(folder):
        return
    if inspect_model_folder(path) is not None:  # (names that look like paths are refused there)
        return
    if hub and not _offline():
        try:
            from huggingface_hub.utils import validate_repo_id

            validate_repo_id(str(path))
            return
        except Exception:  # noqa: BLE001 - HFValidationError: no Hub id either
            pass
    raise ConfigError("no such model folder", path=folder, expected=SAVED_MODEL)


def _offline() -> bool:
    """transformers / huggingface_hub are told not to reach the Hub."""
    try:
        from huggingface_hub import constants

        if constants.HF_HUB_OFFLINE:
            return True
    except Exception:  # noqa: BLE001 - an old huggingface_hub: the environment says it
        pass
    return any(os.environ.get(k, "").upper() in ("1", "ON", "YES", "TRUE") for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def saved_model_info(path: str | Path) -> tuple[str, list[str], str | None]:
    """(task kind, label names, GLUE task) of a model bertstudio saved, read from its
    config.json after :func:`inspect_model_folder` (no weights are loaded)."""
    raw = inspect_model_folder(path)
    if raw is None:  # a name that is no folder here, nor a Hub model in the cache: "no task kind in config.json" blamed a file never read
        raise ConfigError("no such model folder", path=Path(path).expanduser(), expected=SAVED_MODEL)
    config_path = Path(path) / "config.json"
    meta = raw.get("bertstudio")
    kind = meta.get("task") if isinstance(meta, dict) else None
    if not isinstance(kind, str) or not kind:
        raise ConfigError("this model was not fine-tuned by bertstudio (no task kind in config.json)", path=config_path,
                          expected="a run's model/ folder")
    labels: list[str] = []
    id2label = raw.get("id2label")
    if kind in ("sentence", "pair", "tagging") and isinstance(id2label, dict):
        try:
            labels = [str(id2label[k]) for k in sorted(id2label, key=int)]
        except ValueError:
            raise ConfigError("id2label has keys that are not label ids", path=config_path, where="id2label") from None
        if sorted(int(k) for k in id2label) != list(range(len(id2label))):  # as load_model refuses it
            raise _label_ids_gap(config_path)
        refuse_twice_named(labels, config_path)
    glue_task = meta.get("glue_task")
    return kind, labels, glue_task if isinstance(glue_task, str) else None


def max_input_length(path: str | Path) -> int | None:
    """The most tokens the model at ``path`` takes (tasks/limits.token_limit: its position
    embeddings, or the tokenizer's own smaller limit), after :func:`inspect_model_folder`'s checks;
    None when the folder does not say (or is a Hub id)."""
    raw = inspect_model_folder(path)
    if raw is None:
        return None
    return read_token_limit(Path(path).expanduser(), raw)


def _read_json(path: Path, *, required: bool) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path.name} is {path.stat().st_size:,} bytes", path=path, expected=f"at most {MAX_CONFIG_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if not required:
            return None
        raise ConfigError("not a model folder: config.json is missing", path=path.parent) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"cannot read {path.name}: {_first_line(exc)}", path=path) from None
    try:  # bertstudio's JSON reader: a lone surrogate in a label name is no text (it failed printing, exit 1)
        data = parse_json(text, path)
    except DataError as exc:
        raise ConfigError(f"cannot read {path.name}: {exc.problem}", path=path, where=exc.where,
                          expected=exc.expected) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path.name} is not a JSON object", path=path)
    return data


def _tokenizer_may_read(name: str) -> bool:
    """Whether a tokenizer loader may open a file of this name in its folder (a superset)."""
    return name in TOKENIZER_FILES or name.endswith((".json", ".txt", ".model", ".jinja"))


def load_tokenizer(path: str | Path) -> Any:
    """The fast tokenizer of a model folder (or Hub id), for every place that loads one: never the
    folder's own code (``auto_map`` in config.json or tokenizer_config.json is refused before
    transformers reads them; it would import the folder's .py files, asking "[y/N]" on a terminal),
    and never a tokenizer that knows only its special tokens (every word [UNK])."""
    AutoTokenizer = hf("AutoTokenizer")

    folder = Path(path).expanduser()
    if folder.is_dir():
        # an export's folder too: a FIFO would block the reads below. Only what a tokenizer may open (its
        # own level): a model.onnx among other things was refused for a FIFO or 10,000 files beside it
        check_folder_files(folder, only=_tokenizer_may_read)
        if (folder / "additional_chat_templates").is_dir():
            check_folder_files(folder / "additional_chat_templates")
        refuse_own_code(folder)
        for name in TOKENIZER_JSON:  # json's message alone does not say which file it is about
            data = _read_json(folder / name, required=False)
            if name == "tokenizer_config.json" and data is not None:
                _check_tokenizer_config(data, folder / name)
        for name in TOKENIZER_FILES:  # read whole by the tokenizers library: a 12 GB file would fill the memory
            size = (folder / name).stat().st_size if (folder / name).is_file() else 0
            if size > MAX_TOKENIZER_BYTES:
                raise ConfigError(f"{name} is {size:,} bytes", path=folder / name,
                                  expected=f"at most {MAX_TOKENIZER_BYTES:,} (the largest real vocabularies take tens of MB)")
        if not any((folder / name).is_file() for name in TOKENIZER_FILES):  # transformers listed "one of: ()"
            raise ConfigError("no tokenizer files here", path=folder,
                              expected="one of " + ", ".join(TOKENIZER_FILES) + " (saved with the model)")
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path), trust_remote_code=False)
    except Exception as exc:  # noqa: BLE001 - the tokenizers library raises bare Exception ("WordPiece error: ...")
        raise ConfigError(f"cannot load the model's tokenizer: {_first_line(exc)}", path=_tokenizer_file(folder, path),
                          expected="the tokenizer files the model was trained with" if folder.is_dir()
                          else "a model folder or Hub id") from None
    try:  # a WordPiece vocabulary without [UNK] loads, and fails at the first unknown word of a run
        tokenizer("xqzj \u2603", "a")
    except Exception as exc:  # noqa: BLE001 - the tokenizers library raises bare Exception
        raise ConfigError(f"the model's tokenizer cannot read text: {_first_line(exc)}", path=_tokenizer_file(folder, path),
                          expected="the tokenizer files the model was trained with") from None
    if not getattr(tokenizer, "is_fast", False):
        raise ConfigError("the model's tokenizer has no fast (Rust) version", path=path, expected="a tokenizer.json or a WordPiece/BPE vocab")
    if len(tokenizer) <= len(set(tokenizer.all_special_tokens)):
        raise ConfigError(f"the model's tokenizer knows only its {len(tokenizer)} special tokens: every word would be [UNK]",
                          path=path, expected="the tokenizer files the model was trained with")
    _match_token_types(tokenizer, folder)
    return tokenizer


def _match_token_types(tokenizer: Any, folder: Path) -> None:
    """Make the tokenizer list ``token_type_ids`` exactly when its model takes them: a model with
    ``type_vocab_size`` 2 or more does (ALBERT's tokenizer leaves them out), one with 1 or 0 does not
    (XLM-R's and CamemBERT's template post-processors give overflow windows type id 1: an
    IndexError in the embedding). Every encode and the ONNX export read this one list
    (tasks/base.py takes_token_types); without a config (a Hub id) the tokenizer's list stands."""
    config = _read_json(folder / "config.json", required=False) if folder.is_dir() else None
    types = config.get("type_vocab_size") if config else None
    if not isinstance(types, int) or isinstance(types, bool):
        return
    names = [n for n in tokenizer.model_input_names if n != "token_type_ids"]
    if types >= 2:
        names.append("token_type_ids")
    tokenizer.model_input_names = names


_SPECIAL_TOKENS = ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token", "bos_token", "eos_token")
_SWITCHES = ("do_lower_case", "tokenize_chinese_chars", "clean_up_tokenization_spaces", "do_basic_tokenize")


def _check_tokenizer_config(data: dict[str, Any], path: Path) -> None:
    """The tokenizer_config.json values transformers would trip over with a message naming
    tokenizer.json ("'str' object is not an instance of 'bool'"), or accept and misuse (a
    maximum length of 0): each refused naming this file and the key."""
    def refuse(key: str, expected: str) -> None:
        raise ConfigError(f"{key} is {data[key]!r:.60}", path=path, where=key, expected=expected)

    if not isinstance(data.get("tokenizer_class"), (str, type(None))):
        raise ConfigError(f"tokenizer_class is a {type(data['tokenizer_class']).__name__}", path=path,
                          where="tokenizer_class", expected="a class name such as BertTokenizer")
    for key in _SWITCHES:
        if data.get(key) is not None and not isinstance(data[key], bool):
            refuse(key, "true or false")
    for key in ("padding_side", "truncation_side"):
        if data.get(key) is not None and data[key] not in ("left", "right"):
            refuse(key, '"left" or "right"')
    for key in _SPECIAL_TOKENS:
        value = data.get(key)
        if value is not None and not (isinstance(value, str) or (isinstance(value, dict)
                                                                 and isinstance(value.get("content"), str))):
            refuse(key, "a token such as \"[PAD]\"")
    limit = data.get("model_max_length")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit >= 1):
        refuse("model_max_length", "the most tokens the model reads, a whole number from 1")


def _tokenizer_file(folder: Path, path: str | Path) -> Path | str:
    """The file a tokenizer was built from, for a message (the fast tokenizer.json first)."""
    if folder.is_dir():
        for name in TOKENIZER_FILES:
            if (folder / name).is_file():
                return folder / name
    return path


# Weights a pre-trained encoder folder need not hold: the task head a run adds (and the pooler,
# which sentence-transformers and some checkpoints leave out).
_NEW_HEAD = ("classifier.", "pre_classifier.", "qa_outputs.", "score.", "head.")  # head.: ModernBERT's


def load_weights(auto_class: Any, path: str, config: Any = None, *, complete: bool | str = False) -> nn.Module:
    """``auto_class.from_pretrained(path)`` in fp32, never running the folder's code; see :func:`guarded_load`.

    ``complete=True``: the folder is a fine-tuned model, so every weight must come from the file
    (transformers fills a missing one with random numbers and only reports it), none may be left
    over or mis-shaped, and every weight must be a finite number: otherwise predictions would be
    noise with exit status 0. ``complete="encoder"``: a pre-trained encoder under a new head, so
    only the head (and the pooler) may be missing: an encoder whose config names another
    architecture than its weights would otherwise train from random numbers."""
    kwargs = {"config": config} if config is not None else {}
    if not complete:
        return guarded_load(lambda: auto_class.from_pretrained(path, dtype=torch.float32, trust_remote_code=False, **kwargs),
                            path)
    with _own_load_report():  # read below: a missing or stray weight is refused, a new head is expected
        model, info = guarded_load(lambda: auto_class.from_pretrained(
            path, dtype=torch.float32, trust_remote_code=False, output_loading_info=True,
            ignore_mismatched_sizes=complete is True, **kwargs), path)
    log.debug("loaded %s: new weights %s", path, sorted(str(n) for n in info.get("missing_keys") or ()))
    # which weights the file did not hold (a new head): start_at_scores starts only those on the scores' scale
    model.bertstudio_new_weights = frozenset(str(n) for n in info.get("missing_keys") or ())
    checks = (("missing_keys", "lacks"), ("unexpected_keys", "holds weights this architecture does not have:"),
              ("mismatched_keys", "holds weights of the wrong shape:"))
    for key, problem in checks if complete is True else checks[:1]:
        names = sorted(str(n if isinstance(n, str) else n[0]) for n in info.get(key) or ())
        if complete == "encoder":
            names = [n for n in names if not n.startswith(_NEW_HEAD) and "pooler." not in n]
        if names:
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            raise ConfigError(f"the weights file {problem} {shown}", path=path,
                              expected="the complete weights of this model's architecture (as the run saved them)"
                              if complete is True else "the weights of the architecture config.json names")
    for name, tensor in model.state_dict().items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ConfigError(f"the weight {name} holds NaN or infinite values", path=path,
                              expected="weights of a run that trained without diverging")
    return model


@contextlib.contextmanager
def _own_load_report() -> Iterator[None]:
    """While this thread loads weights whose loading report bertstudio reads itself, transformers'
    printed LOAD REPORT (a table with terminal colour codes on stderr, at every training start:
    "classifier.weight | MISSING") is left out; other threads' reports are untouched."""
    thread, logger = threading.get_ident(), logging.getLogger("transformers.modeling_utils")

    def keep(record: logging.LogRecord) -> bool:
        return not (record.thread == thread and "LOAD REPORT" in str(record.msg))

    logger.addFilter(keep)
    try:
        yield
    finally:
        logger.removeFilter(keep)


def guarded_load(load: Callable[[], Any], path: str, what: str = "the model's weights") -> Any:
    """``load()`` of the weights in ``path``, every failure one ConfigError. Weights come from
    model.safetensors, or from a pytorch_model.bin read by torch's weights-only unpickler (plain
    tensors only): a .bin that holds anything else is refused in our words, and torch's warning
    and its advice to load the file unsafely are never shown. The loaders of transformers models
    and of SetFit's sentence-transformer body both come through here."""
    import pickle

    from safetensors import SafetensorError

    try:
        with warnings.catch_warnings():  # torch warns with a source line before the error below
            warnings.simplefilter("ignore", UserWarning)
            return load()
    except torch.OutOfMemoryError:
        raise
    except pickle.UnpicklingError:
        raise ConfigError("the weights file holds more than plain tensors (it could run code), so it is not loaded",
                          path=path, expected="model.safetensors, or a pytorch_model.bin of tensors only") from None
    except (OSError, ValueError, RuntimeError, KeyError, EOFError, TypeError, AttributeError, SafetensorError,
            ArithmeticError, AssertionError, IndexError) as exc:  # the last three: a config the classes cannot build
        raise ConfigError(f"cannot load {what}: {_first_line(exc)}", path=path,
                          expected="complete weights (model.safetensors) for this architecture") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0][:300] if text else type(exc).__name__)
