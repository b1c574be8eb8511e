"""Sizes checked before memory or hours are spent on them: a model's config.json,
the number of labels, and how many windows a QA context becomes.

Each limit is far above anything a real model or data set needs (the reason is
next to each number), so it only ever stops a hostile or mistaken input: a
config.json saying ``num_labels = 1e9`` (transformers builds a billion-entry
label table and the process is killed for memory), or one 5-million-character
QA context that becomes 240,000 training windows.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
from pathlib import Path
from typing import Any, Iterator

from bertstudio.errors import ConfigError, DataError

# A model folder's tokenizer is one of these (the loader refuses a folder with none; the
# vocabulary check, which must not import torch, reads the same list)
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "spiece.model", "sentencepiece.bpe.model",
                   "tokenizer.model", "sentencepiece.model", "spm.model")

log = logging.getLogger(__name__)

# Classes of one single-label task. Real label sets stay in the thousands (ICD-10 coding,
# the largest common one, has ~70,000 codes); 100,000 outputs on a 1,024-wide encoder is
# still only a 400 MB head, while a billion would never fit.
MAX_LABELS = 100_000

# config.json sizes. The largest public encoders are far below these: XLM-R XXL has hidden
# 4,096, 48 layers and a 250k vocabulary; XLM-V's vocabulary is 0.9M; long-context encoders
# use 8,192 positions.
_CONFIG_LIMITS = {
    "hidden_size": 65_536, "dim": 65_536, "d_model": 65_536, "embedding_size": 65_536,
    "intermediate_size": 262_144, "hidden_dim": 262_144,
    "num_hidden_layers": 1_024, "n_layers": 1_024, "num_attention_heads": 1_024, "n_heads": 1_024,
    "vocab_size": 4_000_000, "max_position_embeddings": 1_048_576, "type_vocab_size": 1_024,
    "num_labels": MAX_LABELS,
}
# A real config.json is a few kB (one with a 100,000-label table a few MB).
MAX_CONFIG_BYTES = 32 * 2**20

# Windows of one QA example. SQuAD contexts need 1-3 windows of 384 tokens; a whole long
# Wikipedia article (~100,000 words) about 600. More means a book or a data dump in one
# context, which trains as thousands of copies of its question.
MAX_WINDOWS_PER_EXAMPLE = 1_000
# Windows of one typed input (a Playground or `bertstudio predict` context, run in chunks): higher,
# as one input is not trained on, but kept: 20,000 windows of 384 tokens is ~1-2 MB of text, and a
# pasted 5 MB dump became hundreds of thousands of windows, encoded in memory first (several GB) and
# run for minutes on a job that cannot be cancelled. The export's predict.py restates it.
MAX_WINDOWS_ONE_INPUT = 20_000
ONE_INPUT_TOO_LONG = "the context is too long to read at once: paste a shorter passage"
# Above this many windows per example on average, a warning says the set trains as more rows than it has.
WINDOWS_WARN_RATIO = 4


# Model types whose position ids start after the padding id (RoBERTa's create_position_ids_from_input_ids):
# max_position_embeddings - (pad_token_id + 1) positions are left for tokens (514 -> 512).
OFFSET_POSITIONS = frozenset({
    "roberta", "xlm-roberta", "xlm-roberta-xl", "camembert", "mpnet", "data2vec-text", "longformer",
    "roberta-prelayernorm", "xmod", "luke", "ibert",
})


def _usable_positions(config: dict[str, Any]) -> Any:
    positions = config.get("max_position_embeddings")
    if config.get("model_type") not in OFFSET_POSITIONS or not isinstance(positions, int) or isinstance(positions, bool):
        return positions
    pad = config.get("pad_token_id", 1)
    return positions - (pad + 1) if isinstance(pad, int) and not isinstance(pad, bool) and pad >= 0 else positions


def token_limit(config: dict[str, Any] | None, tokenizer_config: dict[str, Any] | None) -> int | None:
    """The most tokens a model takes, the rule a run enforces (train/preflight.py): its position
    embeddings (config.json's max_position_embeddings, less the pad_token_id + 1 that
    :data:`OFFSET_POSITIONS` models skip), or the tokenizer's own smaller limit
    (tokenizer_config.json's model_max_length); None when neither says. A sentence-transformer's
    max_seq_length is not a limit: the encoder reads its position embeddings' worth."""
    values = [_usable_positions(config or {}), (tokenizer_config or {}).get("model_max_length")]
    found = [v for v in values if isinstance(v, int) and not isinstance(v, bool) and 0 < v < 10**7]  # 1e30: "no limit"
    return min(found) if found else None


def read_token_limit(folder: str | os.PathLike[str], config: dict[str, Any] | None = None) -> int | None:
    """:func:`token_limit` of a model folder, read from its small JSON files without torch (the
    Train page asks on the GUI thread); ``config``: its config.json when already read (a Hub id's
    cached one). A file that is missing, too big or not a JSON object says nothing (None)."""
    import json

    from bertstudio.data.regular_file import read_regular_text

    def read(name: str) -> dict[str, Any] | None:
        try:
            text = read_regular_text(Path(folder) / name, missing_ok=True, max_bytes=1 << 20) \
                if Path(folder).is_dir() else None
            data = json.loads(text) if text else None
        except (OSError, ValueError, DataError, RecursionError):
            return None
        return data if isinstance(data, dict) else None

    return token_limit(config if config is not None else read("config.json"), read("tokenizer_config.json"))


def check_model_config(raw: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Refuse a config.json whose sizes no real model has, before transformers reads it."""
    for key, limit in _CONFIG_LIMITS.items():
        if key not in raw or raw[key] is None:
            continue
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise ConfigError(f"{key} = {value!r} is not a size a real model has", path=path, where=key,
                              expected=f"a whole number from 0 to {limit:,}")
    _check_shape_rules(raw, path)
    _check_loading(raw, path)
    for key in ("id2label", "label2id"):
        table = raw.get(key)
        if table is not None and (not isinstance(table, dict) or len(table) > MAX_LABELS):
            size = f"{len(table):,} entries" if isinstance(table, dict) else type(table).__name__
            raise ConfigError(f"{key} has {size}", path=path, where=key, expected=f"a table of at most {MAX_LABELS:,} labels")
    for label_id, name in (raw.get("id2label") or {}).items():
        if not (isinstance(label_id, str) and label_id.isdigit()) or not isinstance(name, str):
            raise ConfigError(f"id2label maps {_shown(label_id)} to {_shown(name)}", path=path, where="id2label",
                              expected='label ids ("0", "1", ...) mapped to label names')
    params = estimate_parameters(raw)
    memory = physical_memory()
    if params and memory and params * 4 > memory:
        raise ConfigError(
            f"config.json describes a model of about {params / 1e9:.1f} billion parameters: {params * 4 / 2**30:,.0f} GiB "
            f"as fp32 weights, more than this machine's {memory / 2**30:,.0f} GiB of memory", path=path,
            expected="an encoder that fits in memory")


# Attention implementations transformers has built in; any other name makes it import
# flash-attention or load a compiled kernel from the Hub (a config.json naming a repository).
BUILT_IN_ATTENTION = ("eager", "sdpa")
# The weight types a config.json may name (transformers looks any other name up on the torch
# module: "float8" was an internal AttributeError, a list an IndexError, both exit 1).
WEIGHT_DTYPES = ("float32", "float16", "bfloat16", "float64", "auto")
_EPSILONS = ("layer_norm_eps", "layer_norm_epsilon", "norm_eps", "rms_norm_eps")


def _check_loading(raw: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """What config.json may ask of the loader: the built-in attention only, no quantization
    (bitsandbytes, GPTQ, ...: packages and code bertstudio does not run), dropout rates in
    [0, 1) and positive normalisation epsilons (a negative one gives NaN predictions with
    exit status 0)."""
    for key in ("hidden_act", "hidden_activation", "activation_function"):
        if key in raw and raw[key] is not None:
            from transformers.activations import ACT2FN  # here: the GUI imports this module before transformers

            value = raw[key]
            if not isinstance(value, str) or value not in ACT2FN:  # it said "cannot load the model's weights: 'x'"
                raise ConfigError(f"{key} = {_shown(value)} is not an activation transformers knows", path=path,
                                  where=key, expected="a name such as gelu, relu or silu")
    for key in ("attn_implementation", "_attn_implementation"):
        value = raw.get(key)
        if value is not None and value not in BUILT_IN_ATTENTION:
            raise ConfigError(f"{key} = {_shown(value)} asks for attention code bertstudio does not run "
                              "(flash-attention, or a kernel from the Hub)", path=path, where=key,
                              expected=" or ".join(BUILT_IN_ATTENTION) + ", or no entry")
    for key in ("dtype", "torch_dtype"):
        value = raw.get(key)
        if value is not None and value not in WEIGHT_DTYPES:
            raise ConfigError(f"{key} = {_shown(value)} is not a weight type bertstudio reads", path=path, where=key,
                              expected=", ".join(WEIGHT_DTYPES[:-1]) + ", or no entry")
    for key in _SWITCHES:  # transformers' strict config fields: "yes" (or null) was an internal error (exit 1)
        if key in raw and not isinstance(raw[key], bool):
            raise ConfigError(f"{key} = {_shown(raw[key])} is not true or false", path=path, where=key,
                              expected="true or false, or no entry")
    if raw.get("return_dict", True) is not True:  # the models then return tuples, which nothing here reads
        raise ConfigError("return_dict = false makes the model return tuples", path=path, where="return_dict",
                          expected="true, or no entry")
    chunk = raw.get("chunk_size_feed_forward")
    if chunk not in (None, 0) or isinstance(chunk, bool):  # 1e9 failed at the first batch, as a ValueError
        raise ConfigError(f"chunk_size_feed_forward = {_shown(chunk)} asks for feed-forward chunking, which "
                          "bertstudio does not do", path=path, where="chunk_size_feed_forward", expected="0, or no entry")
    if raw.get("quantization_config") is not None:
        raise ConfigError("a quantized model (quantization_config) cannot be read here", path=path,
                          where="quantization_config", expected="a full-precision model (fp32, fp16 or bf16 weights)")
    for key, value in raw.items():
        if value is None or isinstance(value, bool) or not isinstance(key, str):  # a bool is a switch ("use_dropout")
            continue
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if key.endswith(("dropout", "dropout_prob")) and not (number and 0 <= value < 1):
            raise ConfigError(f"{key} = {_shown(value)} is not a dropout rate", path=path, where=key,
                              expected="a number from 0 up to (not including) 1")
        if key in _EPSILONS and not (number and 0 < value < 1):
            raise ConfigError(f"{key} = {_shown(value)} is not a normalisation epsilon", path=path, where=key,
                              expected="a small positive number such as 1e-12")


# Switches every transformers config has, which its classes compare and branch on.
_SWITCHES = ("tie_word_embeddings", "output_hidden_states", "output_attentions", "return_dict", "is_decoder",
             "add_cross_attention", "use_cache", "torchscript", "is_encoder_decoder", "tie_encoder_decoder",
             "use_return_dict")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# Sizes that must be at least one (a zero divides: hidden_size % num_attention_heads).
_AT_LEAST_ONE = ("num_attention_heads", "n_heads", "hidden_size", "dim", "num_hidden_layers", "n_layers", "vocab_size")


def _check_shape_rules(raw: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """What the model's classes assume of config.json: heads that divide the width, a padding
    token inside the vocabulary, a ``bertstudio`` block that is a table naming a known kind."""
    def whole(key: str) -> int | None:
        value = raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    for key in _AT_LEAST_ONE:
        if whole(key) == 0:
            raise ConfigError(f"{key} = 0 is not a size a real model has", path=path, where=key, expected="at least 1")
    width, heads = whole("hidden_size"), whole("num_attention_heads")
    if width and heads and width % heads:
        raise ConfigError(f"hidden_size {width} is not a multiple of num_attention_heads {heads}", path=path,
                          where="num_attention_heads", expected="a number of heads that divides hidden_size")
    pad, vocab = raw.get("pad_token_id"), whole("vocab_size")
    if pad is not None and (isinstance(pad, bool) or not isinstance(pad, int) or pad < 0 or (vocab and pad >= vocab)):
        raise ConfigError(f"pad_token_id = {pad!r} is not a token of the vocabulary", path=path, where="pad_token_id",
                          expected=f"a token id from 0 to {vocab - 1:,}" if vocab else "a token id")
    meta = raw.get("bertstudio")
    if meta is not None:
        if not isinstance(meta, dict):
            raise ConfigError(f"the bertstudio block is a {type(meta).__name__}", path=path, where="bertstudio",
                              expected="a table (task, head, ...) as bertstudio writes it")
        kind = meta.get("task")
        if kind is not None:
            from bertstudio.data.kinds import kind_names  # the registry (datasets is loaded by then)

            if kind not in kind_names():
                raise ConfigError(f"unknown task kind {kind!r}", path=path, where="bertstudio.task",
                                  expected=" | ".join(kind_names()))
        glue_task = meta.get("glue_task")
        if glue_task is not None:
            from bertstudio.presets import PRESET_INFO, find_preset

            info = find_preset(glue_task) if isinstance(glue_task, str) else None
            if info is None:
                raise ConfigError(f"unknown GLUE task / preset {_shown(glue_task)}", path=path, where="bertstudio.glue_task",
                                  expected="one of " + ", ".join(PRESET_INFO) + ", or no entry")
            # a preset of another kind, or of another number of classes, is scored by its metrics:
            # STS-B on a two-class model gave pearson 0.0 from its class labels, exit status 0
            from bertstudio.data.glue import PRESETS

            preset = PRESETS[info.name]
            classes = raw.get("id2label") if kind in ("sentence", "pair") else None
            if (kind is not None and preset.kind != kind) or (preset.labels and isinstance(classes, dict)
                                                               and len(classes) != len(preset.labels)):
                size = f" of {len(classes)} classes" if isinstance(classes, dict) else ""
                raise ConfigError(f"{preset.name} ({preset.kind}, {len(preset.labels) or 'scores'}"
                                  f"{' classes' if preset.labels else ''}) does not fit this {kind} model{size}",
                                  path=path, where="bertstudio.glue_task",
                                  expected="the GLUE task the model was trained for, or no entry")


def check_weights_match(raw: dict[str, Any], folder: str | os.PathLike[str]) -> None:
    """Refuse a config.json whose width or depth the weights file does not have, before the model is
    built: transformers allocates every tensor the config describes first (2.7 GB for a 90 MB
    file whose config said hidden 2,048 and 10 layers) and then only says "look at the above report".
    Reads the safetensors header (names and shapes), never the weights; a folder without a single
    model.safetensors, or one whose header cannot be read, is left to the loader."""
    import re

    weights = Path(folder) / "model.safetensors"
    if not weights.is_file():
        return
    try:
        from safetensors import safe_open

        with safe_open(str(weights), framework="np") as f:
            slices = {k: f.get_slice(k) for k in f.keys()}
            shapes = {k: list(v.get_shape()) for k, v in slices.items()}
            dtypes = {k: str(v.get_dtype()) for k, v in slices.items()}
    except Exception:  # noqa: BLE001 - a damaged header is the loader's to report, with its own words
        return
    # whole-number weights are cast to fp32 without a word (0 and 1 everywhere: confidence 0.5,
    # exit status 0); integer buffers (position ids) are whole numbers by nature
    wrong = sorted(k for k, t in dtypes.items() if not t.startswith(("F", "BF")) and not k.endswith("_ids"))
    if wrong:
        raise ConfigError(f"the weight {wrong[0]} is stored as {dtypes[wrong[0]]}"
                          + (f" ({len(wrong) - 1} more like it)" if len(wrong) > 1 else ""), path=weights,
                          expected="floating-point weights (F32, F16 or BF16)")
    config = Path(folder) / "config.json"
    embedding = next((shape for name, shape in shapes.items() if name.endswith("word_embeddings.weight")), None)
    hidden = next((raw[k] for k in ("hidden_size", "dim", "d_model", "embedding_size") if isinstance(raw.get(k), int)), None)
    width = raw.get("embedding_size") if isinstance(raw.get("embedding_size"), int) else hidden
    if embedding is not None and len(embedding) == 2 and width is not None and embedding[1] != width:
        raise ConfigError(f"config.json says the model is {width:,} wide, but its word embeddings in model.safetensors "
                          f"are {embedding[1]:,} wide", path=config, where="hidden_size",
                          expected="the config.json saved with these weights")
    layers = {int(m.group(1)) for name in shapes if (m := re.search(r"\.layers?\.(\d+)\.", name))}
    depth = next((raw[k] for k in ("num_hidden_layers", "n_layers") if isinstance(raw.get(k), int)), None)
    if layers and depth is not None and depth > max(layers) + 1:
        raise ConfigError(f"config.json says the model has {depth} layers, but model.safetensors holds "
                          f"{max(layers) + 1}", path=config, where="num_hidden_layers",
                          expected="the config.json saved with these weights")


def estimate_parameters(raw: dict[str, Any]) -> int:
    """Parameters of a BERT-style encoder with these sizes (0 when the sizes are not given)."""
    def size(*keys: str) -> int:
        return next((raw[k] for k in keys if isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool)), 0)

    hidden, layers = size("hidden_size", "dim", "d_model"), size("num_hidden_layers", "n_layers")
    inner = size("intermediate_size", "hidden_dim") or 4 * hidden
    embeddings = (size("vocab_size") + size("max_position_embeddings") + size("type_vocab_size")) * hidden
    return embeddings + layers * (4 * hidden * hidden + 2 * hidden * inner)


def physical_memory() -> int | None:
    try:
        import psutil  # accelerate's dependency

        return int(psutil.virtual_memory().total)
    except Exception:  # noqa: BLE001 - no psutil, or a platform it cannot read: no memory check
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            return None


def check_label_count(n: int, source: str | os.PathLike[str] | None = None) -> None:
    if n > MAX_LABELS:
        raise DataError(f"{n:,} different labels", path=source, where="labels",
                        expected=f"at most {MAX_LABELS:,} (is a text or score column being read as the label? scores are regression)")


MAX_QUERY_TOKENS = 64  # BERT's max_query_length
DOC_STRIDE = 128  # BERT's and Hugging Face's run_qa overlap, where a window has room for it


def qa_window_layout(max_length: int, doc_stride: int | None) -> tuple[int, int, int]:
    """How QA windows of ``max_length`` tokens are cut: (most question tokens kept, context
    tokens every window has room for, overlap between windows). The overlap is at most half
    the context room, so each window brings something new (otherwise the tokenizer refuses);
    ``doc_stride`` None is the default, :data:`DOC_STRIDE` or that most where it is less. A larger
    one is cut to it here: a run says so and records the overlap used (train/config.fit_doc_stride)."""
    max_query = min(MAX_QUERY_TOKENS, max(1, (max_length - 3) // 2))
    room = max_length - max_query - 3
    most = room // 2
    return max_query, room, max(0, min(DOC_STRIDE if doc_stride is None else doc_stride, most))


def window_count(context_tokens: Any, room: Any, stride: int) -> Any:
    """Windows a context of ``context_tokens`` becomes (numbers or numpy arrays alike)."""
    import numpy as np

    step = np.maximum(1, np.asarray(room) - stride)
    extra = np.ceil(np.maximum(0, np.asarray(context_tokens) - room) / step)
    return 1 + extra.astype(np.int64)


_ONE_INPUT = contextvars.ContextVar("bertstudio_one_input", default=False)


@contextlib.contextmanager
def one_input() -> Iterator[None]:
    """While one typed input is encoded (train/predict.Predictor, which runs its windows in
    chunks): the training sets' window limit gives way to :data:`MAX_WINDOWS_ONE_INPUT`. A pasted
    60,000-character context was refused by the Playground and ``bertstudio predict`` with
    "example 1 ... a larger max_length", advice neither can follow, while the export's predict.py
    answered it."""
    token = _ONE_INPUT.set(True)
    try:
        yield
    finally:
        _ONE_INPUT.reset(token)


def check_qa_windows(rows: Any, tokenizer: Any, *, max_length: int, room: int, stride: int,
                     source: str | os.PathLike[str] | None = None) -> None:
    """Refuse an example whose context would become more than MAX_WINDOWS_PER_EXAMPLE windows
    (:data:`MAX_WINDOWS_ONE_INPUT` inside :func:`one_input`), before the windows exist. ``rows``:
    the dataset about to be encoded (``context`` and ``example_index`` columns); ``room``: context
    tokens per window, ``stride``: their overlap.

    Only contexts long enough to possibly exceed the limit are tokenised: a token covers at
    least one character, or a quarter of one for byte-level BPE (UTF-8 has at most 4 bytes a
    character), so shorter ones cannot reach it and the check costs nothing on normal data."""
    import pyarrow.compute as pc

    one = _ONE_INPUT.get()
    limit = MAX_WINDOWS_ONE_INPUT if one else MAX_WINDOWS_PER_EXAMPLE
    step = max(1, room - stride)
    min_chars = (room + (limit - 1) * step) // 4
    table = rows.with_format("arrow")
    column = table["context"]
    lengths = pc.fill_null(pc.utf8_length(column), 0)
    for i in pc.indices_nonzero(pc.greater(lengths, min_chars)).to_pylist():
        text = column[i].as_py()
        row = table["example_index"][i].as_py()
        tokens = len(tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])
        windows = int(window_count(tokens, room, stride))
        if windows > limit:
            if one:  # typed or pasted: no passages to split the file into, no max_length to choose
                raise DataError(f"{ONE_INPUT_TOO_LONG} ({len(text):,} characters would become about {windows:,} "
                                f"windows of {max_length} tokens; at most {limit:,} are read)")
            raise DataError(
                f"a context of {len(text):,} characters ({tokens:,} tokens) would become about {windows:,} windows of "
                f"{max_length} tokens, more than {limit:,}", path=source, where=f"example {row + 1}",
                expected="contexts split into passages (or a larger max_length)")


def note_windows(windows: int, examples: int, *, max_length: int, source: Any = None) -> None:
    """Say so when the windows far outnumber the examples: each window trains as one example."""
    if examples and windows > WINDOWS_WARN_RATIO * examples:
        where = f" of {Path(str(source)).name}" if source else ""
        log.warning("%s QA examples%s become %s windows of %d tokens (%.1f per example); each window trains as one example",
                    f"{examples:,}", where, f"{windows:,}", max_length, windows / examples)


# --- one text or two (tasks/model.record_pairs writes it) --------------------------------------


# How many of the training rows had a second text: none, some (a score project of mostly single
# sentences with a few pairs), or all. Only "all" needs the second text; only "none" refuses it.
PAIR_SHARES = ("none", "some", "all")


def pairs_share(value: Any) -> str | None:
    """A recorded pairs value as one of :data:`PAIR_SHARES`: the models saved before "some" existed
    recorded a bool (True: all rows had a pair, False: none); None (or anything else): not recorded."""
    if isinstance(value, bool):
        return "all" if value else "none"
    return value if value in PAIR_SHARES else None


def saved_pairs(config: Any) -> str | None:
    """How many training rows had a second text (:data:`PAIR_SHARES`), from a model's config (or
    its config.json as a dict; tasks/model.record_pairs keeps it); None for a model saved before
    bertstudio kept it."""
    meta = config.get("bertstudio") if isinstance(config, dict) else getattr(config, "bertstudio", None)
    return pairs_share(meta.get("pairs") if isinstance(meta, dict) else None)


def model_config(model_dir: str | Path) -> Any:
    """The parsed config.json of the model folder ``model_dir``, read without torch; None when it is
    missing, larger than :data:`MAX_CONFIG_BYTES` or unreadable (the readers below take what they
    need from it and read anything else as "not said")."""
    import json

    path = Path(model_dir) / "config.json"
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def input_fields(spec: Any, *, siamese: bool = False, pairs: str | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the inputs a model reads, those it needs) for a model of ``spec``'s kind: a kind whose
    second text is optional (regression) reads it unless no training row had one (``pairs``:
    :func:`saved_pairs`), and needs it only where every row had one, as a siamese model does: a
    one-text rating model scored a pair it never saw, and a pair model one sentence, each without
    a word. "some" (a few rows had a pair) and None (a model saved before it was kept): either."""
    reads = (*spec.inputs, *spec.optional_inputs)
    optional_pair = "text_pair" in spec.optional_inputs
    if optional_pair and pairs == "none" and not siamese:
        reads = tuple(f for f in reads if f != "text_pair")
    return reads, tuple(spec.required_inputs(siamese=siamese or (optional_pair and pairs == "all")))
