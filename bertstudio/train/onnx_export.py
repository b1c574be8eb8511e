"""Export a fine-tuned model to ONNX, and predict or evaluate with the export.

An export folder holds ``model.onnx`` (fp32, traced with ``torch.onnx.export(dynamo=True)``,
dynamic batch and sequence axes; optimum's exporter does not support transformers 5),
``model.int8.onnx`` (ONNX Runtime dynamic quantization, per-channel int8 weights), the
tokenizer, ``labels.json`` (kind, label names and the encoding settings), the model's
``config.json`` and ``predict.py``: a standalone script that needs only onnxruntime,
tokenizers and numpy (:mod:`bertstudio.train.standalone_predict`, copied as it is).

Inside bertstudio an export is run through the same Task code as a PyTorch model:
:class:`OnnxModel` looks like the transformers model to :class:`~bertstudio.train.predict.Predictor`
and to ``predict_batches``, so ``bertstudio predict --model DIR/model.onnx`` encodes and
decodes exactly as ``bertstudio predict`` does.

The export never overwrites: a non-empty target folder is refused, and the files are
written into a temporary folder beside it that is renamed into place at the end
(:func:`bertstudio.data.atomic.create_folder`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from bertstudio.data.atomic import create_folder, sibling_name
from bertstudio.errors import BertStudioError, ConfigError, DataError, DiskFullError, TrainingError, disk_full_error

log = logging.getLogger(__name__)

FP32_FILE, INT8_FILE, META_FILE, SCRIPT_FILE = "model.onnx", "model.int8.onnx", "labels.json", "predict.py"
MAX_META_BYTES = 16 << 20  # labels.json: the names of at most a few thousand labels and the settings
INPUT_ORDER = ("input_ids", "attention_mask", "token_type_ids")
TOLERANCE = 1e-3  # the exported graph must give the PyTorch model's outputs within this
# each step of an export and its English line (what the CLI prints)
STEPS = {"loading": "loading the model", "tracing": "tracing the model (torch.onnx, dynamo)",
         "checking": "checking the export against PyTorch", "quantizing": "quantizing to int8",
         "writing": "writing the tokenizer, labels and predict.py", "moving": "moving the export into place",
         "done": "done"}


@dataclass(frozen=True)
class ExportStep:
    """Which step of :data:`STEPS` an export is at, a fact a UI says in its own words (the export
    dialog said "tracing the model (torch.onnx, dynamo)" in English inside its Chinese window);
    ``str()`` is the English line. Plain and picklable: the app's export sends it from a child."""

    step: str

    def __str__(self) -> str:
        return STEPS.get(self.step, self.step)


Progress = Callable[[float, ExportStep], None]


@dataclass
class OnnxExport:
    folder: Path
    fp32: Path
    int8: Path | None
    max_abs_diff: float  # fp32 ONNX against PyTorch on a check batch

    @property
    def sizes(self) -> dict[str, int]:
        return {p.name: p.stat().st_size for p in (self.fp32, self.int8) if p is not None}


class Cancelled(BertStudioError):
    """The user stopped an export; nothing was left behind."""


def check_target(out_dir: str | Path, model_dir: str | Path | None = None) -> Path:
    """``out_dir`` as a Path when it may be written: absent, or an empty folder, and not inside
    ``model_dir`` (the model folder would then carry a copy of itself, to the Hub too)."""
    from bertstudio.data.atomic import check_folder_path

    out = check_folder_path(out_dir, where="export")  # a file, a dangling link, a file on the way...: before the work
    if out.exists() and any(out.iterdir()):
        raise ConfigError("the export folder is not empty", path=out, where="export",
                          expected="a new or empty folder (an export never overwrites files)",
                          facts={"refusal": "export_not_empty", "folder": str(out)})  # for the app's words
    model = Path(model_dir).expanduser() if model_dir is not None else None
    if model is not None and model.is_dir() and out.resolve().is_relative_to(model.resolve()):
        raise ConfigError("the export folder is inside the model folder", path=out, where="export",
                          expected=f"a folder outside {model}",
                          facts={"refusal": "export_in_model", "folder": str(out), "model": str(model)})
    return out


def export_onnx(model_dir: str | Path, out_dir: str | Path, *, quantize: bool = True,
                progress: Progress | None = None, cancel: threading.Event | None = None) -> OnnxExport:
    """Export the transformers folder ``model_dir`` (a run's ``model/``) into ``out_dir``."""
    from bertstudio.tasks import get_task
    from bertstudio.tasks.model import load_model
    from bertstudio.train.families import family

    out = check_target(out_dir, model_dir)
    report = _reporter(progress, cancel)
    report(0.02, ExportStep("loading"))
    model, tokenizer, kind, labels = load_model(model_dir)
    # a siamese pair model reads each side on its own: inputs of shape (batch, 2, sequence)
    siamese = bool(getattr(model, "siamese", False))
    task = get_task(kind)
    decode = family(task.spec)
    if decode is None:
        raise ConfigError(f"{kind} models cannot be exported to ONNX yet", path=model_dir, where="export",
                          expected="a sentence, pair, regression, tagging or QA model")
    model.eval()
    # input_ids and attention_mask always (in that order: the traced forward's positions); token
    # types where the tokenizer makes them (BERT yes, RoBERTa/DistilBERT no)
    inputs = [n for n in INPUT_ORDER if (n in tokenizer.model_input_names and not siamese) or n != "token_type_ids"]
    int8: Path | None = None
    diff = 0.0

    def fill(tmp: Path) -> None:
        nonlocal int8, diff
        report(0.05, ExportStep("tracing"))
        outputs = _export(model, inputs, tmp / FP32_FILE, siamese)
        report(0.55, ExportStep("checking"))
        diff = _check(model, inputs, tmp / FP32_FILE, siamese)
        if quantize:
            report(0.6, ExportStep("quantizing"))
            int8 = _quantize(tmp / FP32_FILE, tmp / INT8_FILE)
        report(0.9, ExportStep("writing"))
        tokenizer.save_pretrained(tmp)
        model.config.to_json_file(tmp / "config.json")
        from bertstudio.tasks.limits import saved_pairs
        from bertstudio.tasks.qa import null_answers_of
        from bertstudio.tasks.typed_words import saved_cjk_words

        limit = getattr(model.config, "max_position_embeddings", 512) or 512
        from bertstudio.train.predict import run_lengths

        lengths = run_lengths(model, model_dir)  # how the run cut its inputs, as bertstudio's Predictor does
        meta = {
            "format": 1, "kind": kind, "decode": decode, "labels": list(labels),
            "inputs": list(task.spec.inputs), "optional_inputs": list(task.spec.optional_inputs),
            "model_inputs": inputs, "model_outputs": outputs, "max_length": lengths["max_length"],
            "doc_stride": lengths["doc_stride"], "n_best": 20, "max_answer_length": lengths["max_answer_length"],
            "pad_token_id": int(tokenizer.pad_token_id or 0), "max_position_embeddings": int(limit),
            "glue_task": (getattr(model.config, "bertstudio", None) or {}).get("glue_task"), "siamese": siamese,
            "pairs": saved_pairs(model.config),  # one text or two, as the training rows had (null: not kept)
            "null_answers": null_answers_of(model),  # "no answer" allowed (trained on SQuAD v2 data)
            # typed Chinese read per character where the training tokens were (tasks/typed_words; null: unknown)
            "cjk_words": saved_cjk_words(model.config),
        }
        (tmp / META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
        shutil.copyfile(Path(__file__).with_name("standalone_predict.py"), tmp / SCRIPT_FILE)
        report(0.98, ExportStep("moving"))

    # written beside the target, moved in whole; an empty target is replaced, a file that
    # appeared in it since makes the move fail rather than vanish (data/atomic.create_folder)
    create_folder(out, fill, parents=True)
    if progress is not None:  # not report(): past the move the export is complete, and a late cancel
        progress(1.0, ExportStep("done"))  # would call a finished folder "cancelled, nothing left behind"
    return OnnxExport(out, out / FP32_FILE, out / INT8_FILE if int8 is not None else None, diff)


def export_onnx_apart(model_dir: str | Path, out_dir: str | Path, *, quantize: bool = True,
                      progress: Progress | None = None, cancel: threading.Event | None = None) -> OnnxExport:
    """:func:`export_onnx` in a child process, for the app: the exporter's long C calls
    (onnx's import, protobuf serialization, shape inference before quantizing) hold the
    GIL for 0.3-0.9 s each and froze the window while they ran on a thread. Progress comes
    back through a queue; ``cancel`` stops the child at its next step; the child's error
    comes back as the same BertStudioError, its facts too (for the app's words)."""
    import multiprocessing
    import queue as queues

    out = check_target(out_dir, model_dir)  # at once, before a process starts
    before = _temp_folders(out)
    context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt and torch threads
    messages = context.Queue()
    stop = context.Event()
    child = context.Process(target=_export_child, args=(str(model_dir), str(out_dir), quantize, messages, stop),
                            name="bertstudio-onnx-export", daemon=True)
    child.start()
    try:
        while True:
            if cancel is not None and cancel.is_set():
                stop.set()
            try:
                message = messages.get(timeout=0.1)
            except queues.Empty:
                if not child.is_alive() and messages.empty():
                    raise BertStudioError(f"the export process ended without a result (exit code {child.exitcode})",
                                          path=model_dir, where="export") from None
                continue
            if message[0] == "progress":
                if progress is not None:
                    progress(*message[1:])
            else:
                return _outcome(message)
    finally:
        stop.set()
        child.join(30)
        if child.is_alive():
            child.kill()
            child.join()
        # a child killed (or crashed) mid-write never ran its own clean-up (create_folder's): its
        # temporary folder is removed here, never one that was there before this export
        if child.exitcode != 0:
            for leftover in _temp_folders(out) - before:
                shutil.rmtree(leftover, ignore_errors=True)


def _temp_folders(out: Path) -> set[Path]:
    """The temporary folders an export into ``out`` writes beside it (data/atomic.create_folder's
    ``.NAME.nXXXXXXXX.tmp``)."""
    probe = sibling_name(out.name, ".n00000000.tmp")
    head = probe[:-len("00000000.tmp")]
    try:
        names = os.listdir(out.parent)
    except OSError:
        return set()
    return {out.parent / name for name in names
            if name.startswith(head) and name.endswith(".tmp") and len(name) == len(probe)}


def _outcome(message: tuple) -> OnnxExport:
    """The child's last message: its export, or its error raised again here, with its facts."""
    what, *rest = message
    if what == "done":
        folder, int8, diff = rest
        out = Path(folder)
        return OnnxExport(out, out / FP32_FILE, Path(int8) if int8 else None, diff)
    name, problem, path, where, expected, facts = rest  # "error": the class's name and the error's fields
    kind = {c.__name__: c for c in (Cancelled, ConfigError, DataError, DiskFullError, TrainingError)}.get(name, BertStudioError)
    raise kind(problem, path=path, where=where, expected=expected, facts=facts)


def _error_message(exc: BertStudioError) -> tuple:
    """The child's error as plain data for the queue: the class's name, the fields and the facts
    whose values are plain (never the exception, whose traceback would cross with it)."""
    return ("error", type(exc).__name__, exc.problem, exc.path, exc.where, exc.expected, _plain_facts(exc.facts))


def _plain_facts(facts: dict[str, Any]) -> dict[str, Any]:
    def plain(value: Any) -> bool:
        if isinstance(value, (list, tuple)):
            return all(plain(v) for v in value)
        return value is None or type(value) in (str, int, float, bool)

    return {str(k): list(v) if isinstance(v, tuple) else v for k, v in facts.items() if plain(v)}


def _export_child(model_dir: str, out_dir: str, quantize: bool, messages: Any, stop: Any) -> None:
    """The child process of :func:`export_onnx_apart` (a spawned interpreter)."""
    from bertstudio.logsetup import guard_streams

    guard_streams()  # spawned by bertstudio-gui's pythonw: no standard streams
    try:
        result = export_onnx(model_dir, out_dir, quantize=quantize, cancel=stop,
                             progress=lambda fraction, message: messages.put(("progress", fraction, message)))
        messages.put(("done", str(result.folder), str(result.int8) if result.int8 else None, result.max_abs_diff))
    except BertStudioError as exc:
        messages.put(_error_message(exc))
    except Exception as exc:  # noqa: BLE001 - anything else: one line to the parent, the trace in the log
        full = disk_full_error(exc)
        if full is not None:
            messages.put(_error_message(full))
            return
        log.exception("the ONNX export failed")
        messages.put(("error", "BertStudioError", f"the export failed: {type(exc).__name__}: {exc}", model_dir,
                      "export", None, {}))


def _reporter(progress: Progress | None, cancel: threading.Event | None) -> Progress:
    def report(fraction: float, step: ExportStep) -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled("export cancelled", where="export")
        if progress is not None:
            progress(fraction, step)

    return report


@contextlib.contextmanager
def _quiet_exporter(*loggers: str) -> Iterator[None]:
    """The exporter and the quantizer log and warn about things that say nothing about this
    model (missing torchvision ops, axis renames, "consider pre-processing"); failures still raise."""
    saved = [(logging.getLogger(name), logging.getLogger(name).level) for name in loggers]
    for logger, _ in saved:
        logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", (UserWarning, FutureWarning, DeprecationWarning))
            yield
    finally:
        for logger, level in saved:
            logger.setLevel(level)


def _example(model: Any, inputs: list[str], batch: int, length: int, pad_last: int = 0,
             siamese: bool = False) -> dict[str, Any]:
    """Random token ids of ``(batch, length)``, or ``(batch, 2, length)`` for a siamese model's
    two sides; the last row's last ``pad_last`` tokens (of its second side) are padding."""
    import torch

    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(5, model.config.vocab_size, (batch, 2, length) if siamese else (batch, length),
                        generator=generator)
    mask = torch.ones_like(ids)
    if pad_last:
        (mask[-1, 1] if siamese else mask[-1])[-pad_last:] = 0
    values = {"input_ids": ids, "attention_mask": mask, "token_type_ids": torch.zeros_like(ids)}
    return {n: values[n] for n in inputs}


class _Traced:
    """The model as a function of positional tensors, returning the task's logits only."""

    @staticmethod
    def wrap(model: Any, inputs: list[str], outputs: list[str]) -> Any:
        import torch

        class Wrapped(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.model = model

            def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                        token_type_ids: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
                given = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
                result = self.model(**{k: given[k] for k in inputs})
                return tuple(result[k] for k in outputs)

        return Wrapped().eval()


def _output_names(model: Any, example: dict[str, Any]) -> list[str]:
    import torch

    with torch.inference_mode():
        result = model(**example)
    return [k for k, v in result.items() if isinstance(v, torch.Tensor) and k != "loss"]


def _export(model: Any, inputs: list[str], path: Path, siamese: bool = False) -> list[str]:
    import torch
    from torch.export import Dim

    example = _example(model, inputs, batch=2, length=16, siamese=siamese)
    outputs = _output_names(model, example)
    limit = int(getattr(model.config, "max_position_embeddings", 512) or 512)
    batch, sequence = Dim("batch"), Dim("sequence", max=limit)
    size = sum(p.numel() * p.element_size() for p in model.parameters())
    try:
        with _quiet_exporter("torch.onnx", "torch.export"), torch.inference_mode(False):
            torch.onnx.export(
                _Traced.wrap(model, inputs, outputs), tuple(example.values()), str(path), dynamo=True, verbose=False,
                input_names=inputs, output_names=outputs,
                dynamic_shapes={n: {0: batch, 2 if siamese else 1: sequence} for n in inputs},
                external_data=size > 1_800_000_000,  # one file below protobuf's 2 GB limit
            )
    except BertStudioError:
        raise
    except Exception as exc:  # noqa: BLE001 - the exporter's many failure types mean "this model"
        full = disk_full_error(exc, path)
        if full is not None:  # the disk, not the model ("expected a BERT-style encoder")
            raise full from None
        log.error("ONNX export failed", exc_info=exc)
        raise ConfigError(f"the model could not be exported to ONNX: {type(exc).__name__}: {exc}", where="export",
                          expected="a BERT-style encoder torch.export can trace") from None
    return outputs


def _check(model: Any, inputs: list[str], path: Path, siamese: bool = False) -> float:
    """Largest difference between ONNX Runtime and PyTorch on a batch of another shape (with
    padding), so a graph that froze a shape or ignored the mask is caught here, not by a user."""
    import numpy as np
    import torch

    example = _example(model, inputs, batch=3, length=23, pad_last=5, siamese=siamese)
    session = onnx_session(path)
    got = session.run(None, {k: v.numpy() for k, v in example.items()})
    with torch.inference_mode():
        result = model(**example)
    names = [o.name for o in session.get_outputs()]
    diff = max(float(np.abs(g - result[n].numpy()).max()) for g, n in zip(got, names))
    if not diff <= TOLERANCE:
        raise ConfigError(f"the ONNX model's outputs differ from PyTorch's by {diff:.2g}", where="export",
                          expected=f"at most {TOLERANCE}")
    return diff


class _DropFrom(logging.Filter):
    def __init__(self, package: str) -> None:
        super().__init__()
        self.marker = f"{os.sep}{package}{os.sep}"

    def filter(self, record: logging.LogRecord) -> bool:
        return self.marker not in record.pathname or record.levelno >= logging.ERROR


def _quantize(fp32: Path, int8: Path) -> Path:
    """Dynamic quantization: int8 weights per output channel (MatMul, Gather), activations
    quantized on the fly; no calibration data needed."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    advice = _DropFrom("onnxruntime")  # its quantizer logs "consider pre-processing" on the root logger
    root.addFilter(advice)
    try:
        with _quiet_exporter():
            quantize_dynamic(str(fp32), str(int8), per_channel=True, weight_type=QuantType.QInt8)
    finally:
        root.removeFilter(advice)
    return int8


def onnx_session(path: str | Path, threads: int = 0) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime's errors (InvalidProtobuf, Fail, ...) share no base but Exception
        text = str(exc).strip().splitlines()
        raise ConfigError(f"not a valid ONNX model: {text[0][:300] if text else type(exc).__name__}", path=path,
                          expected="model.onnx or model.int8.onnx written by bertstudio export-onnx") from None


# --- using an export inside bertstudio --------------------------------------------------------


class _Config:
    """What the Predictor and ``run_lengths`` read of a transformers config, from the checked
    labels.json: the export cuts inputs as the run did, as its predict.py does."""

    def __init__(self, meta: dict[str, Any]) -> None:
        self.max_position_embeddings = meta["max_position_embeddings"]
        self.bertstudio = {"task": meta["kind"], "glue_task": meta.get("glue_task"), "pairs": meta.get("pairs"),
                           "null_answers": meta.get("null_answers") is True,  # exports before it was kept: v1.1
                           "cjk_words": meta.get("cjk_words"),  # typed_words.saved_cjk_words: None before it was kept
                           **{k: meta[k] for k in ("max_length", "doc_stride", "max_answer_length")}}


class OnnxModel:
    """An ONNX Runtime session that answers like the transformers model: ``model(**batch)`` with
    torch tensors in, an object with ``.logits`` (or ``.start_logits``/``.end_logits``) out.

    The export's labels.json and graph are checked when it loads (:func:`read_meta`,
    :func:`_check_graph`): a graph that takes other inputs or gives other outputs than its kind
    reads is refused in one line before anything is predicted."""

    training = False

    def __init__(self, path: str | Path, *, threads: int = 0) -> None:
        self.path = Path(path)
        self.meta = read_meta(self.path.parent)
        self.session = onnx_session(self.path, threads)
        _check_graph(self.session, self.meta, self.path, self.path.parent / META_FILE)
        self.input_names = [i.name for i in self.session.get_inputs()]
        self.output_names = [o.name for o in self.session.get_outputs()]
        self.config = _Config(self.meta)
        # an int8 graph reads each row alone and unpadded, as predict.py runs it: its answers then
        # depend neither on the padding nor on the rows batched with it (standalone.rows_alone)
        from bertstudio.train import standalone_predict as standalone

        self.rows_alone = standalone.rows_alone(self.session)
        self.siamese = bool(self.meta.get("siamese"))  # tasks.model.task_for: each side of a pair encoded alone

    def to(self, device: Any) -> "OnnxModel":
        return self  # ONNX Runtime's CPU provider: tensors are copied to numpy in __call__

    def train(self, mode: bool = True) -> "OnnxModel":
        """Inference only; the evaluation loop and the Predictor switch modes with train(False)."""
        return self

    def __call__(self, **batch: Any) -> Any:
        import torch

        from bertstudio.train import standalone_predict as standalone
        from bertstudio.train.evaluation import Outputs  # readable as attributes, as a ModelOutput

        ids = batch["input_ids"]
        zeros = torch.zeros_like(ids)  # token types of a tokenizer that makes none
        feed = {n: (batch[n] if n in batch else zeros).detach().cpu().numpy() for n in self.input_names}
        try:
            values = dict(zip(self.output_names, standalone.run_graph(self.session, self.output_names, feed,
                                                                         self.rows_alone)))
        except Exception as exc:  # noqa: BLE001 - onnxruntime's errors (Fail, InvalidArgument, ...) share no base but Exception
            text = str(exc).strip().splitlines()
            raise ConfigError(f"the model failed on this input: {text[0][:300] if text else type(exc).__name__}",
                              path=self.path, expected="model.onnx or model.int8.onnx written by bertstudio export-onnx") from None
        try:  # a graph may declare one shape and return another
            standalone.check_outputs(values, self.meta, int(ids.shape[0]), int(ids.shape[1]), self.path)
        except standalone.BadExport as exc:
            raise ConfigError(exc.problem, path=exc.path, where=exc.where) from None
        return Outputs({n: torch.from_numpy(v) for n, v in values.items()})


def read_meta(folder: str | Path) -> dict[str, Any]:
    """The export's labels.json, every field of the type and in the range export-onnx writes and
    its kind, decoder and inputs those of a kind bertstudio knows; ConfigError naming the key."""
    from bertstudio.train import standalone_predict as standalone

    path = Path(folder) / META_FILE
    from bertstudio.data.formats.common import parse_json
    from bertstudio.data.regular_file import read_regular_text

    try:  # a regular file only (a FIFO blocked the read), then a lone surrogate in a name is refused too
        text = read_regular_text(path, missing_ok=True, max_bytes=MAX_META_BYTES)
        if text is None:
            raise ConfigError("not an ONNX export: labels.json is missing", path=folder,
                              expected="a folder written by bertstudio export-onnx")
        meta = parse_json(text, path)
    except DataError as exc:
        raise ConfigError(f"cannot read the export's labels: {exc.problem}", path=path, where=exc.where,
                          expected=exc.expected) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"cannot read the export's labels: {exc}", path=path) from None
    try:
        standalone.check_fields(meta, path)  # the same rules as the export's predict.py
    except standalone.BadExport as exc:
        raise ConfigError(exc.problem, path=exc.path, where=exc.where) from None
    _check_kind(meta, path)
    return meta


def _check_kind(meta: dict[str, Any], path: Path) -> None:
    """The kind is registered, and its decoder, inputs and glue task are those bertstudio gives it."""
    from bertstudio.data.kinds import get_spec
    from bertstudio.metrics import is_glue_task
    from bertstudio.train.families import family

    kind = meta["kind"]
    try:
        spec = get_spec(kind)
    except (ConfigError, KeyError, ValueError):
        raise ConfigError(f"unknown task kind {kind!r}", path=path, where="kind") from None
    for key, want in (("decode", family(spec)), ("inputs", list(spec.inputs)),
                      ("optional_inputs", list(spec.optional_inputs))):
        if meta[key] != want:
            raise ConfigError(f"{meta[key]!r} does not fit a {kind} model", path=path, where=key,
                              expected=repr(want))
    glue_task = meta.get("glue_task")
    if glue_task is not None and not is_glue_task(glue_task):
        raise ConfigError(f"unknown GLUE task {glue_task!r}", path=path, where="glue_task",
                          expected="a task bertstudio knows, or null")


def _check_graph(session: Any, meta: dict[str, Any], model_path: Path, meta_path: Path) -> None:
    """The graph's inputs and outputs (names, element types, ranks, one value per label) are those
    the export's kind feeds and reads (standalone_predict.check_session: one rule for both)."""
    from bertstudio.train import standalone_predict as standalone

    try:
        standalone.check_session(session, meta, model_path, meta_path)
    except standalone.BadExport as exc:
        raise ConfigError(exc.problem, path=exc.path, where=exc.where) from None


def load_onnx(path: str | Path, *, threads: int = 0) -> tuple[OnnxModel, Any, str, list[str]]:
    """``(model, tokenizer, kind, labels)`` of an exported ``.onnx`` file, like ``load_model``."""
    from bertstudio.tasks.model import load_tokenizer

    path = Path(path)
    if not path.is_file():
        problem = "not a regular file" if path.exists() else "no such ONNX file"
        raise ConfigError(problem, path=path, expected="model.onnx or model.int8.onnx of an export")
    tokenizer = load_tokenizer(path.parent)  # first: it refuses an export that brings its own code
    model = OnnxModel(path, threads=threads)  # labels.json and the graph checked, and against each other
    pad = int(tokenizer.pad_token_id or 0)
    if model.meta["pad_token_id"] != pad:  # the standalone predict.py pads with labels.json's
        raise ConfigError(f"{model.meta['pad_token_id']} is not the tokenizer's padding token {pad}",
                          path=path.parent / META_FILE, where="pad_token_id", expected=str(pad))
    return model, tokenizer, str(model.meta["kind"]), list(model.meta["labels"])


def onnx_predictor(path: str | Path, *, threads: int = 0) -> Any:
    """A :class:`~bertstudio.train.predict.Predictor` over an exported model."""
    from bertstudio.train.predict import Predictor

    model, tokenizer, kind, labels = load_onnx(path, threads=threads)
    return Predictor(model, tokenizer, kind, labels, device="cpu")


def evaluate_onnx(path: str | Path, examples: Any, *, batch_size: int = 64, max_length: int | None = None,
                  threads: int = 0) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Score an exported model on ``examples`` as ``engine.evaluate`` scores a folder: (metrics,
    one prediction row per example with ``index``, fingerprint and ``gold``, as in predictions.jsonl), through the task's encode/accumulator and ``predict_batches``."""
    from dataclasses import replace

    from bertstudio.tasks.model import task_for
    from bertstudio.tasks.qa import null_answers_of
    from bertstudio.train.evaluation import eval_loader, predict_batches
    from bertstudio.train.families import CLASSES, family
    from bertstudio.train.rundir import prediction_rows

    model, tokenizer, kind, labels = load_onnx(path, threads=threads)
    if examples.kind != kind:
        raise ConfigError(f"the model predicts {kind!r} but the data is {examples.kind!r}", path=examples.source,
                          expected=f"{kind} data")
    task = task_for(model, kind)
    if family(task.spec) == CLASSES:
        examples = replace(examples, labels=list(labels))  # predictions and golds share the model's labels
    glue_task = examples.meta.get("glue_task") or model.meta.get("glue_task")
    if max_length is None:  # as the run cut its inputs (the export's meta keeps it)
        max_length = int(model.meta.get("max_length") or 128)
    enc = task.encode(examples, tokenizer, max_length=min(max_length, model.config.max_position_embeddings),
                      label2id={n: i for i, n in enumerate(labels)}, training=False)
    loader = eval_loader(enc, task, tokenizer.pad_token_id or 0, batch_size, pad_to_multiple_of=None)
    preds = predict_batches(model, loader, task.accumulator(examples, enc, labels, glue_task=glue_task,
                                                            null_answers=null_answers_of(model)))
    metrics = task.metrics(examples, preds, glue_task=glue_task) if len(examples.labelled()) else {}
    # the rows engine.evaluate writes (index, fingerprint, gold): Compare Runs pairs them by fingerprint
    return metrics, prediction_rows(examples, preds)
