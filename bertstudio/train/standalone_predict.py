"""Predict with a model exported by bertstudio, needing only onnxruntime, tokenizers and numpy.

    pip install onnxruntime tokenizers numpy
    python predict.py --text "a gripping, funny film"                 # sentence, regression
    python predict.py --text "A man sleeps." --text-pair "A person rests."   # pair, scored pairs
    python predict.py --tokens "EU rejects German call"                # tagging (words)
    python predict.py --question "Who wrote it?" --context "..."         # question answering
    python predict.py --jsonl inputs.jsonl                           # one JSON object per line
    some-command | python predict.py --jsonl -                        # the same, from standard input
    python predict.py --model model.int8.onnx --text "..."           # the quantized model

Prints one JSON object per input, shaped like ``bertstudio predict``'s output. The folder
holds ``model.onnx`` (and ``model.int8.onnx``), ``tokenizer.json`` and ``labels.json``
(the task kind, label names and the settings encoding used).

This file is written into every ONNX export by bertstudio (bertstudio/train/standalone_predict.py)
and must import nothing but the standard library, numpy, onnxruntime and tokenizers. It
restates bertstudio's encoding and decoding (sentence pairs cut longest side first; typed --tokens
cut per Chinese character where the model was trained so; a tag per word read at its first sub-token, long sentences in overlapping windows; QA over overlapping context windows with the best
start/end pair of at most ``max_answer_length`` tokens, widened to whole words); bertstudio's tests check that its
outputs match ``bertstudio predict`` on the same inputs and the same .onnx file.

``model.int8.onnx`` is approximate: its answers agree with ``model.onnx``'s on most inputs, not on
all. Its activations are quantized with a scale taken over the whole input, so it reads each input
(and each window of a long one) alone and unpadded, in this script and in bertstudio alike: the same
input gets the same int8 answer here, from ``bertstudio predict`` and from ``bertstudio evaluate`` at
any batch size. For many inputs at once that costs part of int8's speed; its file is about 4x smaller.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
import unicodedata
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer
except ImportError as _missing:
    if __name__ != "__main__":  # imported by bertstudio: its own error handling
        raise
    # the first thing a user who copied the export to another machine sees: one line, not a traceback
    if _missing.name in ("numpy", "onnxruntime", "tokenizers"):
        print(f"predict.py: error: {_missing.name} is not installed (pip install onnxruntime tokenizers numpy)",
              file=sys.stderr)
    else:  # installed but broken (a DLL that does not load, a numpy its build does not match): its own words
        print(f"predict.py: error: a package could not be loaded: {_missing} (pip install --force-reinstall "
              "onnxruntime tokenizers numpy)", file=sys.stderr)
    sys.exit(2)

_PREFIXED = re.compile(r"^([BIES])-(.+)$")


def entity_spans(tags: list[str]) -> list[list[Any]]:
    """[[type, start_word, end_word_exclusive], ...] from BIO/IOB1/BIOES tags; tags without a
    B-/I-/E-/S- prefix (POS tags) are never entities; a stray I- starts one."""
    spans: list[list[Any]] = []
    current: list[Any] | None = None
    for i, tag in enumerate(tags):
        m = _PREFIXED.match(tag)
        if m is None:
            current = None
            continue
        prefix, kind = m.groups()
        if prefix in ("B", "S") or current is None or current[0] != kind:
            current = [kind, i, i + 1]
            spans.append(current)
        else:
            current[2] = i + 1
        if prefix in ("E", "S"):
            current = None
    return spans


# CJK ideographs as BERT's BasicTokenizer._is_chinese_char has them (restates bertstudio.tasks.typed_words)
_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
               (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
_CJK_CLASS = "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_RANGES) + "]"
_CJK_IDEOGRAPH, _CJK_CUT = re.compile(_CJK_CLASS), re.compile(f"({_CJK_CLASS})")  # the cut keeps each ideograph
CJK_WORDS = ("chars", "words")  # labels.json's cjk_words: what the training tokens holding ideographs were


def read_words(text: str, cjk_words: str | None) -> list[str]:
    """The words of typed ``text`` (--tokens): split at spaces; where the model was trained on single
    ideographs (labels.json's ``cjk_words`` is "chars"), each ideograph is a word too, next to digits or
    letters as well (``在2008年`` -> ``在``, ``2008``, ``年``) (restates bertstudio.tasks.typed_words.read_words)."""
    words = text.split()
    if cjk_words != "chars":
        return words
    return [piece for word in words
            for piece in ([p for p in _CJK_CUT.split(word) if p] if _CJK_IDEOGRAPH.search(word) else [word])]


def whole_cjk_words(words: list[str]) -> list[str]:
    """The words read whole that hold an ideograph next to other characters, said to the user, who may
    mean each character as a word (restates bertstudio.tasks.typed_words.whole_cjk_words)."""
    return [w for w in words if len(w) > 1 and _CJK_IDEOGRAPH.search(w) is not None]


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class BadExport(Exception):
    """A damaged export: one line, exit 2. ``path`` is the file, ``where`` the key of labels.json or
    the graph's input or output, ``problem`` what is wrong (bertstudio raises them as ConfigError)."""

    def __init__(self, path: str | Path, problem: str, where: str | None = None) -> None:
        self.path, self.problem, self.where = str(path), problem, where
        super().__init__(f"{path}, {where}: {problem}" if where else f"{path}: {problem}")


class BadInput(Exception):
    """An input this export cannot predict (a missing field, a --jsonl line that is not an object
    of inputs): one line, exit 2."""


INPUT_FIELDS = ("text", "text_pair", "tokens", "question", "context")
# Windows of one QA context, as bertstudio reads one typed input (bertstudio.tasks.limits.MAX_WINDOWS_ONE_INPUT)
MAX_WINDOWS_ONE_INPUT = 20_000
MODEL_INPUTS = ("input_ids", "token_type_ids", "attention_mask")
REQUIRED_MODEL_INPUTS = ("input_ids", "attention_mask")
DECODES = ("classes", "score", "tags", "span")
# What each decoder reads: the graph's outputs (name -> rank; the batch axis first, then the
# token axis for per-token outputs) and the inputs a person must give.
DECODE_OUTPUTS = {"classes": {"logits": 2}, "score": {"logits": 2}, "tags": {"logits": 3},
                  "span": {"start_logits": 2, "end_logits": 2}}
DECODE_INPUTS = {"classes": ("text",), "score": ("text",), "tags": ("tokens",), "span": ("question", "context")}
# bertstudio's task kinds as its registry describes them (decoder, inputs, optional inputs);
# bertstudio's tests hold this table to the registry.
KINDS = {
    "sentence": ("classes", ("text",), ()), "pair": ("classes", ("text", "text_pair"), ()),
    "regression": ("score", ("text",), ("text_pair",)), "tagging": ("tags", ("tokens",), ()),
    "qa": ("span", ("question", "context"), ()),
}
META_KEYS = ("format", "kind", "decode", "labels", "inputs", "optional_inputs", "model_inputs", "model_outputs",
             "max_length", "doc_stride", "n_best", "max_answer_length", "pad_token_id", "max_position_embeddings")
FLOAT_TYPES = ("tensor(float)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)")


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) and x.strip() and _not_text(x) is None for x in value) \
        and len(set(value)) == len(value)


def _not_text(value: str, argument: bool = False) -> str | None:
    """None for text that can be written out as UTF-8; else what is wrong with it: a lone surrogate
    (a JSON escape such as "\\ud800") or, in a command-line ``argument``, a byte that is not UTF-8
    (which Python reads as a surrogate, U+DC80 to U+DCFF)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(value[exc.start])
        what = (f"the byte 0x{code - 0xDC00:02x}, which is not UTF-8," if argument and 0xDC80 <= code <= 0xDCFF
                else f"a lone surrogate (U+{code:04X})")
        return f"not valid Unicode text: {what} at character {exc.start + 1}"
    return None


# Threads ONNX Runtime may start for one session. Past the machine's cores they only contend, and a
# very large count hangs while ONNX Runtime starts them (--threads 100000). The cap is fixed rather than
# a multiple of the core count, so that one command is valid on every machine; a machine with more
# cores than that raises it to its core count.
MAX_THREADS = max(256, os.cpu_count() or 1)
_FILE_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
               (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _FILE_KINDS if test(mode)), "a special file")
    return f"{kind}, not a regular file"


def _file_problem(path: str | Path) -> str | None:
    """None for a regular file (or a link to one); else why it is not one, said before anything opens
    it: opening a FIFO waits for a writer forever, and a device may never end."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except (OSError, ValueError) as exc:
        return f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    return _not_regular(mode)


def _open_regular(path: str | Path) -> Any:
    """``path`` opened for reading in binary if it is a regular file, else OSError with the problem.
    Opened without blocking, so a file swapped for a FIFO after the check is refused too."""
    problem = _file_problem(path)
    if problem:
        raise OSError(problem)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        problem = _not_regular(os.fstat(fd).st_mode)
        if problem:
            raise OSError(problem)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _reason(exc: BaseException) -> str:
    """An OSError as its reason alone (its strerror) or its message."""
    return getattr(exc, "strerror", None) or str(exc)


def check_fields(meta: Any, path: str | Path) -> dict[str, Any]:
    """labels.json's fields, each of the type and in the range export-onnx writes, or BadExport
    naming the key. Which kinds exist is not asked here (:func:`check_kind`)."""
    if not isinstance(meta, dict):
        raise BadExport(path, "not a JSON object (expected the file export-onnx writes)")
    for key in META_KEYS:
        if key not in meta:
            raise BadExport(path, "missing (expected the file export-onnx writes)", key)

    def whole(key: str, low: int, high: int, bound: str = "") -> int:
        value = meta[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadExport(path, f"{value!r} is not a whole number from {low} to {high}{bound}", key)
        return value

    if type(meta["format"]) is not int or meta["format"] != 1:
        raise BadExport(path, f"{meta['format']!r} is not a format this predict.py reads (expected 1)", "format")
    if not isinstance(meta["kind"], str) or not meta["kind"].strip():
        raise BadExport(path, f"{meta['kind']!r} is not a task kind's name", "kind")
    decode = meta["decode"]
    if not isinstance(decode, str) or decode not in DECODES:
        raise BadExport(path, f"{decode!r} is not a decoder (expected {', '.join(DECODES)})", "decode")
    labels = meta["labels"]
    if not _names(labels):
        raise BadExport(path, f"{labels!r:.80} is not a list of label names, each once", "labels")
    if decode in ("classes", "tags") and not labels:
        raise BadExport(path, f"a {decode} model needs its label names, and the list is empty", "labels")
    for key in ("inputs", "optional_inputs"):
        if not _names(meta[key]) or not set(meta[key]) <= set(INPUT_FIELDS):
            raise BadExport(path, f"{meta[key]!r} names inputs other than {', '.join(INPUT_FIELDS)}", key)
    if set(meta["inputs"]) & set(meta["optional_inputs"]):
        raise BadExport(path, "an input is both required and optional", "optional_inputs")
    needed = [f for f in DECODE_INPUTS[decode] if f not in meta["inputs"]]
    if needed:
        raise BadExport(path, f"a {decode} model reads {' and '.join(DECODE_INPUTS[decode])}, "
                              f"but 'inputs' is {meta['inputs']!r}", "inputs")
    model_inputs = meta["model_inputs"]
    if not _names(model_inputs) or not set(REQUIRED_MODEL_INPUTS) <= set(model_inputs) <= set(MODEL_INPUTS):
        raise BadExport(path, f"{model_inputs!r} is not the model's inputs (expected input_ids, attention_mask "
                              "and perhaps token_type_ids)", "model_inputs")
    if not _names(meta["model_outputs"]):
        raise BadExport(path, f"{meta['model_outputs']!r} is not a list of output names", "model_outputs")
    positions = whole("max_position_embeddings", 1, 1 << 20)
    whole("max_length", 8, min(1 << 16, max(8, positions)), " (max_position_embeddings)" if positions < 1 << 16 else "")
    whole("doc_stride", 0, 1 << 16)
    whole("n_best", 1, 10_000)
    whole("max_answer_length", 1, 1 << 16)
    whole("pad_token_id", 0, (1 << 31) - 1)
    glue_task = meta.get("glue_task")
    if glue_task is not None and (not isinstance(glue_task, str) or not glue_task.strip()):
        raise BadExport(path, f"{glue_task!r} is not a task name or null", "glue_task")
    siamese = meta.get("siamese", False)  # exports before siamese models were exported have no key
    if not isinstance(siamese, bool):
        raise BadExport(path, f"{siamese!r} is not true or false", "siamese")
    if siamese and (decode not in ("classes", "score") or "text_pair" not in meta["inputs"] + meta["optional_inputs"]):
        raise BadExport(path, "a siamese model reads text pairs, one side at a time, and this export's kind has none",
                        "siamese")
    pairs = meta.get("pairs")  # exports before bertstudio kept it have no key; before "some", a bool
    if pairs is not None and not isinstance(pairs, bool) and pairs not in ("none", "some", "all"):
        raise BadExport(path, f"{pairs!r} is not \"none\", \"some\", \"all\", true, false or null", "pairs")
    if isinstance(pairs, bool):  # true: every training row had a second text; false: none did
        meta["pairs"] = "all" if pairs else "none"
    cjk_words = meta.get("cjk_words")  # exports before bertstudio kept it have no key: typed words read whole
    if cjk_words is not None and cjk_words not in CJK_WORDS:
        raise BadExport(path, f"{cjk_words!r} is not \"chars\", \"words\" or null", "cjk_words")
    if not isinstance(meta.get("null_answers", False), bool):  # exports before it was kept: no "no answer"
        raise BadExport(path, f"{meta['null_answers']!r} is not true or false", "null_answers")
    return meta


def check_kind(meta: dict[str, Any], path: str | Path) -> None:
    """The kind is one of bertstudio's, and its decoder and inputs are that kind's."""
    kind = meta["kind"]
    if kind not in KINDS:
        raise BadExport(path, f"unknown task kind {kind!r} (expected {', '.join(KINDS)})", "kind")
    decode, inputs, optional = KINDS[kind]
    for key, want in (("decode", decode), ("inputs", list(inputs)), ("optional_inputs", list(optional))):
        if meta[key] != want:
            raise BadExport(path, f"{meta[key]!r} does not fit a {kind} model (expected {want!r})", key)


def check_session(session: Any, meta: dict[str, Any], model_path: str | Path, meta_path: str | Path) -> None:
    """The graph takes what the predictors feed (int64 input_ids, attention_mask and perhaps
    token_type_ids, batch x sequence) and gives what the export's decoder reads (float outputs of
    its names and ranks, one value per label on the last axis), or BadExport naming the file at fault."""
    inputs = {i.name: i for i in session.get_inputs()}
    siamese = bool(meta.get("siamese"))
    for name, info in inputs.items():
        if name not in MODEL_INPUTS:
            raise BadExport(model_path, f"the model takes an input {name!r} (expected {', '.join(MODEL_INPUTS)})",
                            "inputs")
        if info.type != "tensor(int64)":
            raise BadExport(model_path, f"input {name!r} is {info.type} (expected tensor(int64))", "inputs")
        shape = list(info.shape or [])
        if siamese and (len(shape) != 3 or shape[1] != 2 or isinstance(shape[0], int) or isinstance(shape[2], int)):
            raise BadExport(model_path, f"input {name!r} has shape {shape} (expected [batch, 2, sequence] for a "
                                        "siamese model, batch and sequence of any size)", "inputs")
        if not siamese and (len(shape) != 2 or any(isinstance(d, int) for d in shape)):
            raise BadExport(model_path, f"input {name!r} has shape {shape} (expected [batch, sequence], "
                                        "both of any size)", "inputs")
    missing = [n for n in REQUIRED_MODEL_INPUTS if n not in inputs]
    if missing:
        raise BadExport(model_path, f"the model does not take {' and '.join(missing)}", "inputs")
    if set(meta["model_inputs"]) != set(inputs):
        raise BadExport(meta_path, f"{meta['model_inputs']!r} but the model takes {sorted(inputs)}", "model_inputs")
    outputs = {o.name: o for o in session.get_outputs()}
    if set(meta["model_outputs"]) != set(outputs):
        raise BadExport(meta_path, f"{meta['model_outputs']!r} but the model gives {sorted(outputs)}",
                        "model_outputs")
    decode, labels = meta["decode"], meta["labels"]
    wanted = DECODE_OUTPUTS[decode]
    if not set(wanted) <= set(outputs):
        raise BadExport(meta_path, f"a {meta['kind']} model ({decode}) reads the outputs {' and '.join(wanted)}, "
                                   f"but the model gives {', '.join(sorted(outputs))}", "kind")
    for name, rank in wanted.items():
        info = outputs[name]
        if info.type not in FLOAT_TYPES:
            raise BadExport(model_path, f"output {name!r} is {info.type} (expected float logits)", "outputs")
        shape = list(info.shape or [])
        if len(shape) != rank:
            per = "per input and token" if rank == 3 or decode == "span" else "per input"
            raise BadExport(meta_path, f"a {meta['kind']} model ({decode}) reads {name!r} {per} (rank {rank}), "
                                       f"but the model's has shape {shape}", "kind")
        width = _width(decode, labels)
        if width is not None and shape[-1] != width:
            if not isinstance(shape[-1], int):
                raise BadExport(model_path, f"output {name!r} has shape {shape}: its last axis has no fixed size "
                                            f"(expected {width})", "outputs")
            if decode == "score":
                raise BadExport(meta_path, f"a {meta['kind']} model (score) has one output, but the model's "
                                           f"{name!r} has {shape[-1]}", "kind")
            raise BadExport(meta_path, f"{len(labels)} labels for a model with {shape[-1]} outputs", "labels")


def _width(decode: str, labels: list[str]) -> int | None:
    """The size of the decoder's outputs' last axis: one per label, one score, or the tokens (None)."""
    return {"classes": len(labels), "tags": len(labels), "score": 1}.get(decode)


def check_outputs(values: dict[str, Any], meta: dict[str, Any], rows: int, length: int,
                  model_path: str | Path) -> None:
    """What the graph returned for ``rows`` inputs of ``length`` tokens has the shape its decoder
    reads (a graph may declare one shape and return another)."""
    decode = meta["decode"]
    width = _width(decode, meta["labels"])
    for name, rank in DECODE_OUTPUTS[decode].items():
        value = values.get(name)
        shape = list(getattr(value, "shape", ()))
        want: list[Any] = [rows, length][: rank - (width is not None)] + ([width] if width is not None else [])
        if not isinstance(value, np.ndarray) or not np.issubdtype(value.dtype, np.floating) or shape != want:
            raise BadExport(model_path, f"output {name!r} came back as {getattr(value, 'dtype', type(value).__name__)} "
                                        f"of shape {shape} (expected float of shape {want})", "outputs")


def rows_alone(session: Any) -> bool:
    """Whether the graph must read each input alone, unpadded: a graph ONNX Runtime's quantizer wrote
    (model.int8.onnx). Its dynamic quantization scales each MatMul's activations over the whole
    input tensor, padded positions and the other rows of the batch included, so a batched or padded
    row would be answered differently from the same row alone (quantize_dynamic has no per-row
    option). The quantizer names itself in the file, so a renamed int8 file is still recognised."""
    try:
        return session.get_modelmeta().producer_name == "onnx.quantize"
    except Exception:  # noqa: BLE001 - a session without metadata: an fp32 graph as far as anyone can tell
        return False


def run_graph(session: Any, outputs: list[str], feed: dict[str, np.ndarray], alone: bool) -> list[np.ndarray]:
    """``session.run(outputs, feed)``; with ``alone`` (:func:`rows_alone`) each row is run on its
    own, cut after its last real token (the attention mask; a siamese row's longer side), and the
    per-token outputs padded back to the feed's width with zeros, where no decoder reads."""
    if not alone:
        return session.run(outputs, feed)
    mask = np.asarray(feed["attention_mask"])
    width = mask.shape[-1]
    declared = {o.name: list(o.shape or []) for o in session.get_outputs()}
    rows: list[list[np.ndarray]] = []
    for i in range(mask.shape[0]):
        real = np.flatnonzero(mask[i].reshape(-1, width).any(axis=0))
        end = int(real[-1]) + 1 if len(real) else 1
        rows.append(session.run(outputs, {k: v[i:i + 1, ..., :end] for k, v in feed.items()}))
    result = []
    for j, name in enumerate(outputs):
        per_token = len(declared.get(name, [])) >= 2 and not isinstance(declared[name][1], int)
        parts = [row[j] for row in rows]
        if per_token:
            parts = [np.pad(p, [(0, 0), (0, width - p.shape[1])] + [(0, 0)] * (p.ndim - 2)) for p in parts]
        result.append(np.concatenate(parts, axis=0))
    return result


class Predictor:
    def __init__(self, folder: str | Path, model: str | Path | None = None, threads: int = 0) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= MAX_THREADS:
            raise BadInput(f"threads: {threads!r} is not a whole number from 0 (ONNX Runtime's default) to {MAX_THREADS}")
        folder = Path(folder)
        meta_path = folder / "labels.json"
        try:
            with _open_regular(meta_path) as fh:
                meta = json.loads(fh.read().decode("utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise BadExport(meta_path, f"cannot be read ({_reason(exc)})") from None
        self.meta = check_fields(meta, meta_path)
        check_kind(self.meta, meta_path)
        self.labels: list[str] = list(self.meta["labels"])
        self.decode = self.meta["decode"]
        self.max_length = int(self.meta["max_length"])
        problem = _file_problem(folder / "tokenizer.json")
        if problem:
            raise BadExport(folder / "tokenizer.json", f"cannot be read ({problem})")
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as exc:  # noqa: BLE001 - the tokenizers library raises its own kinds
            raise BadExport(folder / "tokenizer.json", f"cannot be read ({exc})") from None
        self.tokenizer.no_padding()
        if self.meta["pad_token_id"] >= self.tokenizer.get_vocab_size():
            raise BadExport(meta_path, f"{self.meta['pad_token_id']} is not a token of the tokenizer's "
                                       f"{self.tokenizer.get_vocab_size()}", "pad_token_id")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.log_severity_level = 3  # a graph that declares one shape and returns another is refused, not warned of
        self.path = Path(model) if model else folder / "model.onnx"
        problem = _file_problem(self.path)
        if problem:
            raise BadExport(self.path, f"not a model ONNX Runtime can load ({problem})")
        try:
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own kinds
            raise BadExport(self.path, f"not a model ONNX Runtime can load ({str(exc)[:200]})") from None
        check_session(self.session, self.meta, self.path, meta_path)
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.outputs = [o.name for o in self.session.get_outputs()]
        self.alone = rows_alone(self.session)  # int8: each input (and window) read alone, unpadded

    # --- running the model -------------------------------------------------------------
    def _run(self, encodings: list[Any], sides: int = 1) -> dict[str, np.ndarray]:
        """The graph on ``encodings``: one per input, or for a siamese model (``sides=2``) each
        input's two texts one after the other, fed as ``(inputs, 2, width)``."""
        width = max(len(e.ids) for e in encodings)
        pad = int(self.meta["pad_token_id"])
        columns = {"input_ids": ("ids", pad), "token_type_ids": ("type_ids", 0), "attention_mask": ("attention_mask", 0)}
        feed = {}
        for name in self.inputs:
            field, fill = columns[name]
            rows = np.full((len(encodings), width), fill, dtype=np.int64)
            for i, e in enumerate(encodings):
                values = getattr(e, field)
                rows[i, : len(values)] = values
            feed[name] = rows.reshape(len(encodings) // sides, sides, width) if sides > 1 else rows
        encodings = encodings[::sides]  # one per input from here on
        try:
            out = dict(zip(self.outputs, run_graph(self.session, self.outputs, feed, self.alone)))
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own kinds
            text = str(exc).strip().splitlines()
            raise BadExport(self.path, f"the model failed on this input ({text[0][:200] if text else type(exc).__name__})") \
                from None
        check_outputs(out, self.meta, len(encodings), width, self.path)
        for name in DECODE_OUTPUTS[self.decode]:  # NaN would be printed as a prediction, and is not JSON
            if not np.isfinite(out[name]).all():
                raise BadExport(self.path, f"output {name!r} holds NaN or infinite values for this input", "outputs")
        return out

    def _truncate(self, strategy: str, stride: int = 0) -> None:
        self.tokenizer.enable_truncation(self.max_length, stride=stride, strategy=strategy)

    # --- one input ---------------------------------------------------------------------
    def predict(self, text: str | None = None, text_pair: str | None = None, tokens: list[str] | None = None,
                question: str | None = None, context: str | None = None) -> dict[str, Any]:
        given = {"text": text, "text_pair": text_pair, "tokens": tokens, "question": question, "context": context}
        for name, value in given.items():
            if value is not None and not (isinstance(value, list) and all(isinstance(w, str) for w in value)
                                          if name == "tokens" else isinstance(value, str)):
                raise BadInput(f"'{name}' must be {'a list of words' if name == 'tokens' else 'text'}, got {value!r:.80}")
            for part in ([] if value is None else value if name == "tokens" else [value]):
                problem = _not_text(part)
                if problem:
                    raise BadInput(f"'{name}' is {problem}")
        missing = [f for f in self.meta["inputs"] if not given[f] or (isinstance(given[f], str) and not given[f].strip())]
        # a second text the kind reads optionally (regression) is needed where every training row had
        # one, not read where none had, either where some had (labels.json's "pairs": "all", "none",
        # "some"; bertstudio.tasks.limits.input_fields, restated)
        optional_pair = "text_pair" in self.meta["optional_inputs"]
        both = self.meta.get("siamese") or (optional_pair and self.meta.get("pairs") == "all")
        if both:  # a score beside an empty second text means nothing
            missing = [f for f in ("text", "text_pair") if not (given[f] or "").strip()]
        if missing:
            pairs = " that reads sentence pairs" if both and self.meta["kind"] != "pair" else ""
            raise BadInput(f"a {self.meta['kind']} model{pairs} needs {' and '.join(missing)} "
                           f"(give --{' and --'.join(m.replace('_', '-') for m in missing)})")
        alone = optional_pair and self.meta.get("pairs") == "none" and not self.meta.get("siamese")
        reads = [f for f in self.meta["inputs"] + self.meta["optional_inputs"] if not (alone and f == "text_pair")]
        unread = [f for f in INPUT_FIELDS if given[f] and f not in reads]
        if unread:
            trained = " trained on single texts" if alone and "text_pair" in unread else ""
            raise BadInput(f"a {self.meta['kind']} model{trained} does not read {' or '.join(unread)} "
                           f"(it reads {', '.join(reads)})")
        if self.decode == "span":
            return self._answer(str(question), str(context))
        if self.decode == "tags":
            return self._tags(list(tokens or []))
        self._truncate("longest_first")
        pair = text_pair if text_pair and "text_pair" in self.meta["inputs"] + self.meta["optional_inputs"] else None
        if self.meta.get("siamese"):  # each side encoded on its own (a missing second side is empty)
            encodings = [self.tokenizer.encode(str(text)), self.tokenizer.encode(pair or "")]
            logits = self._run(encodings, sides=2)["logits"][0].astype(np.float64)
        else:
            encodings = [self.tokenizer.encode(str(text), pair)]
            logits = self._run(encodings)["logits"][0].astype(np.float64)
        if self.decode == "score":
            result: dict[str, Any] = {"score": float(logits[0])}
        else:
            probs = _softmax(logits)
            best = int(np.argmax(probs))
            result = {"label": self.labels[best], "probs": {n: float(p) for n, p in zip(self.labels, probs)},
                      "confidence": float(probs[best])}
        cut = self._tokens_cut(encodings, str(text), pair)
        if cut is not None:  # as bertstudio predict says it: a long review answered from its first tokens
            result["truncated"] = cut
        return result

    def _tokens_cut(self, encodings: list[Any], text: str, pair: str | None) -> dict[str, int] | None:
        """``{"read": max_length, "of": tokens}`` when a text (or pair) was cut to max_length
        (restates bertstudio.train.predict.Predictor._tokens_cut); the input is tokenised whole
        again only when its encoding filled the max length."""
        if max(len(e.ids) for e in encodings) < self.max_length:
            return None
        self.tokenizer.no_truncation()
        if self.meta.get("siamese"):  # each side read on its own
            longest = max(len(self.tokenizer.encode(t).ids) for t in (text, pair) if t)
        else:
            longest = len(self.tokenizer.encode(text, pair).ids)
        return {"read": self.max_length, "of": longest} if longest > self.max_length else None

    def _tags(self, words: list[str]) -> dict[str, Any]:
        """A tag per word; a sentence past max_length is read in windows overlapping by half a
        window, each word at its first sub-token in the window where it sits most centrally
        (bertstudio/tasks/word_windows.py)."""
        self._truncate("longest_first", max(0, (self.max_length - 2) // 2))
        spaced = _needs_spaces(self.tokenizer)  # as bertstudio read the words in training
        enc = self.tokenizer.encode([w if i == 0 or not spaced else " " + w for i, w in enumerate(words)],
                                    is_pretokenized=True)
        windows = [enc] + list(enc.overflowing)
        logits = self._run(windows)["logits"].astype(np.float64)
        best_at: dict[int, tuple[int, int, int]] = {}  # word -> (centrality, window, position)
        for j, window in enumerate(windows):
            ids = window.word_ids
            content = [t for t, w in enumerate(ids) if w is not None]
            lo, hi = (content[0], content[-1]) if content else (0, 0)
            previous = None
            for pos, w in enumerate(ids):
                if w is not None and w != previous and w < len(words):  # the word's first sub-token here
                    centrality = min(pos - lo, hi - pos)
                    if w not in best_at or centrality > best_at[w][0]:
                        best_at[w] = (centrality, j, pos)
                previous = w
        ids = np.full(len(words), -1, dtype=np.int64)
        word_probs: list[dict[str, float]] = [{} for _ in words]
        for w, (_c, j, pos) in best_at.items():
            probs = _softmax(logits[j, pos])
            ids[w] = int(np.argmax(logits[j, pos]))
            word_probs[w] = {n: float(p) for n, p in zip(self.labels, probs)}
        tags = [self.labels[i] if i >= 0 else "O" for i in ids]  # entities: a word not read is none
        # a word that tokenises to nothing was not read: no tag (null), as `bertstudio predict` says
        return {"tags": [t if i >= 0 else None for t, i in zip(tags, ids)], "entities": entity_spans(tags),
                "unpredicted_words": int((ids < 0).sum()), "probs": word_probs}

    def _windows(self, question: str, context: str) -> list[Any]:
        """The question (cut to its token budget at a character boundary) with the context
        in overlapping windows: the encoding and its overflowing windows, in that order."""
        max_query = min(64, max(1, (self.max_length - 3) // 2))
        stride = max(0, min(int(self.meta["doc_stride"]), (self.max_length - max_query - 3) // 2))
        question = question.lstrip()
        self.tokenizer.no_truncation()
        offsets = self.tokenizer.encode(question, add_special_tokens=False).offsets
        if len(offsets) > max_query:
            question = question[: offsets[max_query - 1][1]]
        room = self.max_length - max_query - 3  # counted as bertstudio counts them (tasks/limits.qa_window_layout)
        step = max(1, room - stride)
        if len(context) > (room + (MAX_WINDOWS_ONE_INPUT - 1) * step) // 4:  # shorter cannot reach the limit
            tokens = len(self.tokenizer.encode(context, add_special_tokens=False).ids)
            windows = 1 + -(-max(0, tokens - room) // step)
            if windows > MAX_WINDOWS_ONE_INPUT:  # restates bertstudio.tasks.limits.check_qa_windows for one input
                raise BadInput(f"the context is too long to read at once: paste a shorter passage ({len(context):,} "
                               f"characters would become about {windows:,} windows of {self.max_length} tokens; "
                               f"at most {MAX_WINDOWS_ONE_INPUT:,} are read)")
        self._truncate("only_second", stride)
        enc = self.tokenizer.encode(question, context)
        return [enc] + list(enc.overflowing)

    def _answer(self, question: str, context: str) -> dict[str, Any]:
        windows = self._windows(question, context)
        out = self._run(windows)
        n_best, longest = int(self.meta["n_best"]), int(self.meta["max_answer_length"])
        best_score, best_span, null_score = -np.inf, (-1, -1), np.inf
        for w, enc in enumerate(windows):
            start, end = out["start_logits"][w].astype(np.float32), out["end_logits"][w].astype(np.float32)
            n = len(enc.ids)
            in_ctx = np.array([s == 1 for s in enc.sequence_ids] + [False] * (len(start) - n))
            offsets = np.array(list(enc.offsets) + [(0, 0)] * (len(start) - n))
            null_score = min(null_score, float(start[0] + end[0]))  # [CLS]: "no answer in this window"
            low = np.finfo(np.float32).min
            k = min(n_best, len(start))
            s_idx = np.argsort(-np.where(in_ctx, start, low), kind="stable")[:k]
            e_idx = np.argsort(-np.where(in_ctx, end, low), kind="stable")[:k]
            score = start[s_idx][:, None] + end[e_idx][None, :]
            span = e_idx[None, :] - s_idx[:, None]
            ok = (span >= 0) & (span < longest) & in_ctx[s_idx][:, None] & in_ctx[e_idx][None, :]
            score = np.where(ok, score, -np.inf)
            i, j = np.unravel_index(int(np.argmax(score)), score.shape)
            if score[i, j] > best_score:
                best_score = float(score[i, j])
                best_span = (int(offsets[s_idx[i]][0]), int(offsets[e_idx[j]][1]))
        # "no answer" only from a model trained on unanswerable questions (labels.json's null_answers)
        if not np.isfinite(best_score) or (self.meta.get("null_answers") is True and null_score > best_score):
            return {"answer": "", "start": -1, "score": null_score if np.isfinite(null_score) else 0.0}
        s, e = _whole_words(context, *best_span)
        return {"answer": context[s:e], "start": s, "score": best_score}


def _attached(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M" or ch in "\u200c\u200d"


def _in_word(ch: str) -> bool:
    return _attached(ch) or ch.isalnum() and not ("\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff"
                                                  or "\uf900" <= ch <= "\ufaff" or "\u0e00" <= ch <= "\u0e7f")


def _joined(before: str, after: str) -> bool:
    return _attached(after) or before in "\u200c\u200d" or _in_word(before) and _in_word(after)


def _needs_spaces(tokenizer: Any) -> bool:
    """Whether each pre-split word after the first carries its space, as in running text: a byte-level
    BPE without add_prefix_space (RoBERTa, ModernBERT) (restates bertstudio.tasks.word_windows._needs_spaces)."""
    pre = getattr(tokenizer, "pre_tokenizer", None)
    if pre is None:
        return False
    try:
        state = json.loads(pre.__getstate__())
    except (TypeError, ValueError):
        return False
    parts = state.get("pretokenizers", [state]) if isinstance(state, dict) else []
    return any(isinstance(p, dict) and p.get("type") == "ByteLevel" and not p.get("add_prefix_space") for p in parts)


def _whole_words(context: str, start: int, end: int) -> tuple[int, int]:
    """A span trimmed of whitespace at its ends, and where it cuts a word widened to the whole word
    (restates bertstudio.tasks.qa.whole_words)."""
    while start < end and context[start].isspace():  # a Metaspace piece's offsets hold the space before it
        start += 1
    while end > start and context[end - 1].isspace():
        end -= 1
    if start >= end:
        return start, end
    while 0 < start < len(context) and _joined(context[start - 1], context[start]):
        start -= 1
    while 0 < end < len(context) and _joined(context[end - 1], context[end]):
        end += 1
    return start, end


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are BadInput: one line (no usage block) and exit 2, like every other."""

    def error(self, message: str) -> Any:  # argparse's hook; its own prints usage and exits
        raise BadInput(message)


class _Once(argparse.Action):
    """An option given twice is refused, not read as its last value."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: str | None = None) -> None:
        if getattr(namespace, self.dest) is not None:
            raise argparse.ArgumentError(self, "given twice")
        setattr(namespace, self.dest, values)


def _threads(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if not 1 <= count <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"{count} is not from 1 to {MAX_THREADS} (leave it out for ONNX Runtime's default)")
    return count


TEXT_ARGUMENTS = ("text", "text_pair", "tokens", "question", "context")
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines() cuts


def _one_line(message: str) -> str:
    """The message on one line (a path or value may hold a line break), lone surrogates (an argument's
    undecodable bytes) escaped: any stderr can write it."""
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(ch.encode("unicode_escape").decode("ascii") if ch in _LINE_BREAKS else ch for ch in message)


def _emit(result: dict[str, Any], indent: int | None = None) -> None:
    text = json.dumps(result, ensure_ascii=False, indent=indent)
    try:
        print(text, flush=True)
    except UnicodeEncodeError:  # an output that cannot show every character (an ASCII or Windows code page)
        print(json.dumps(result, indent=indent), flush=True)  # the same JSON, non-ASCII characters escaped


def main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="predict.py", description="Predict with a bertstudio ONNX export.")
    p.add_argument("--model", action=_Once, help="the .onnx file (default: model.onnx beside this script)")
    p.add_argument("--text", action=_Once)
    p.add_argument("--text-pair", action=_Once)
    p.add_argument("--tokens", action=_Once, help="space-separated words (tagging)")
    p.add_argument("--question", action=_Once)
    p.add_argument("--context", action=_Once)
    p.add_argument("--jsonl", action=_Once, help="a file with one JSON object of inputs per line (text, text_pair, "
                                                 "tokens, ...); - reads them from standard input")
    p.add_argument("--threads", action=_Once, type=_threads,
                   help=f"ONNX Runtime threads, 1 to {MAX_THREADS} (default: ONNX Runtime's)")
    try:
        args = p.parse_args(argv)
        for name in TEXT_ARGUMENTS:
            problem = None if getattr(args, name) is None else _not_text(getattr(args, name), argument=True)
            if problem:
                raise BadInput(f"argument --{name.replace('_', '-')}: {problem}")
        inline = [f"--{n.replace('_', '-')}" for n in TEXT_ARGUMENTS if getattr(args, n) is not None]
        if args.jsonl is not None and inline:
            raise BadInput(f"argument --jsonl: not allowed with {', '.join(inline)} (the file gives every input)")
        for name in ("model", "jsonl"):
            if getattr(args, name) == "":
                raise BadInput(f"argument --{name}: an empty path")
        model = Path(args.model) if args.model else Path(__file__).resolve().with_name("model.onnx")
        problem = _file_problem(model)
        if problem:
            raise BadInput(f"{model}: {problem} (expected the model.onnx or model.int8.onnx of an export)")
        with _lines(args.jsonl) as lines:
            predictor = Predictor(model.resolve().parent, model, threads=args.threads or 0)
            if lines is not None:
                for result in _predict_lines(predictor, *lines):
                    _emit(result)
                return 0
            given = {k: getattr(args, k) for k in ("text", "text_pair", "question", "context") if getattr(args, k) is not None}
            if args.tokens is not None:  # typed Chinese per character where the model was trained so
                given["tokens"] = read_words(args.tokens, predictor.meta.get("cjk_words"))
                for word in whole_cjk_words(given["tokens"]):
                    print(_one_line(f"--tokens: {word!r} was read as one word: separate words with spaces"),
                          file=sys.stderr)
            _emit(predictor.predict(**given), indent=2)
    except (BadExport, BadInput) as exc:
        print(_one_line(f"predict.py: error: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as other filters do
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
        except (OSError, ValueError):
            pass
        return 1
    return 0


class _lines:
    """``with _lines(path) as lines``: None without --jsonl, else (name, binary lines) of the file, or of
    standard input for ``-``. A file that is not a regular one (a FIFO, a folder, a device) is
    refused before it is opened."""

    def __init__(self, path: str | None) -> None:
        self.path, self.file = path, None

    def __enter__(self) -> tuple[str, Any] | None:
        if self.path is None:
            return None
        if self.path == "-":
            if sys.stdin is None or not hasattr(sys.stdin, "buffer"):
                raise BadInput("argument --jsonl: - reads standard input, and there is none")
            return "<stdin>", sys.stdin.buffer
        try:
            self.file = _open_regular(self.path)
        except OSError as exc:
            hint = "; --jsonl - reads standard input" if "not a regular file" in _reason(exc) else ""
            raise BadInput(f"{self.path}: cannot be read ({_reason(exc)}){hint}") from None
        return self.path, self.file

    def __exit__(self, *exc: Any) -> None:
        if self.file is not None:
            self.file.close()


def _predict_lines(predictor: Predictor, path: str, lines: Any) -> Any:
    """One prediction per non-blank line of ``lines`` (binary lines, read as they come: only b"\\n"
    ends one, so a JSON string may hold U+2028); a line that is not UTF-8 or not an object of inputs
    is BadInput naming the file and line."""
    number = 0
    while True:
        try:
            raw = lines.readline()
        except OSError as exc:
            raise BadInput(f"{path}, line {number + 1}: cannot be read ({_reason(exc)})") from None
        if not raw:
            return
        number += 1
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"{path}, line {number}: not UTF-8 (the byte 0x{raw[exc.start]:02x} "
                           f"at byte {exc.start + 1} of the line)") from None
        if not line.strip():
            continue
        try:
            given = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise BadInput(f"{path}, line {number}: not JSON ({exc})") from None
        if not isinstance(given, dict) or not set(given) <= set(INPUT_FIELDS):
            raise BadInput(f"{path}, line {number}: not an object of inputs (expected keys among "
                           f"{', '.join(INPUT_FIELDS)})")
        try:
            yield predictor.predict(**given)
        except BadInput as exc:
            raise BadInput(f"{path}, line {number}: {exc}") from None


if __name__ == "__main__":
    sys.exit(main())
