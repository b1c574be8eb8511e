"""Push a model to the Hugging Face Hub with a model card written from its run.

What is uploaded: the model files of a run's ``model/`` folder (plain transformers files), or
of an ONNX export folder (see :func:`pushed_files`: anything else there is left out and named),
plus the folder's own ``README.md`` or, when it has none, a generated one (the card: task kind, labels, the data
the run trained and evaluated on, its settings and its metrics, and how to use it).
The card is written into a staging folder of links beside the files, never into the
user's folders, and everything goes up in one ``upload_folder`` commit.

Only the folder's own files go up: a symbolic link anywhere in it is refused, never
followed (see :func:`pushed_files`), so is a pickle file that would go up (``*.bin``, ``*.pt``, ...:
whoever loads one runs its code; one the allow-list leaves out is left out and named), hidden files
and folders stay home, and the folder
must load and predict the way ``bertstudio predict`` would before the Hub is called
(:func:`check_pushable`).

Safety: no token, no push (the token given, else the cached ``hf auth login`` or
``HF_TOKEN``); the repository must be under the token's user or one of its organisations;
a new repository is private unless ``private=False`` is asked for, and a push into an
existing *public* repository is refused unless public was asked for, because uploading
there would publish the model. What is said afterwards is the repository's real visibility.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import math
import numbers
import os
import re
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from bertstudio.errors import ConfigError, DataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

BUNDLED_HUB_ID = "sentence-transformers/all-MiniLM-L6-v2"
# How the Hub files a model, per Task.peft_task_type (the kind's head family).
PIPELINE_TAGS = {"SEQ_CLS": "text-classification", "TOKEN_CLS": "token-classification", "QUESTION_ANS": "question-answering"}
# pickled weights or objects: never published (a model folder written by bertstudio holds none)
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt", ".joblib")
_SKIP_DIRS = ("checkpoints", "__pycache__")  # and every hidden (dot) folder or file, and *.tmp
# One input of every kind for the check that the folder predicts (Predictor.predict takes what its kind reads).
_SAMPLE = {"text": "a short example", "text_pair": "another example", "tokens": ["a", "short", "example"],
           "question": "what is this?", "context": "this is a short example."}
_SETTINGS = ("model", "head", "mode", "lora_rank", "epochs", "lr", "batch_size", "grad_accum", "warmup_ratio",
             "weight_decay", "keep_tuning", "max_length", "seed", "precision", "max_train_examples")

UPLOAD_STARTED = 0.2  # the progress fraction reported as upload_folder begins: from then on a push cannot be stopped
# each step of a push and its English line (what the CLI prints); "checking_onnx" and "uploading" add their facts
STEPS = {"files": "checking which files go up (the model's own files; no links, no hidden files)",
         "checking_model": "loading the model as `bertstudio predict` would (config, tokenizer, weights) and "
                           "predicting one example",
         "checking_onnx": "loading {file} as `bertstudio predict` would and predicting one example",
         "card": "writing the model card", "creating": "creating the repository",
         "uploading": "uploading {count} files ({size}){left}", "done": "done"}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PushStep:
    """Which step of :data:`STEPS` a push is at, with its numbers: a fact a UI says in its own words
    (the push dialog said "uploading 9 files (0.4 MB); left out: ..." in English inside its Chinese
    window); ``str()`` is the English line the CLI prints."""

    step: str
    file: str = ""  # checking_onnx: the .onnx file loaded
    count: int = 0  # uploading: how many files go up (the card included)
    size: int = 0  # uploading: their bytes
    left_out: tuple[Path, ...] = ()  # uploading: the folder's files that stay home (see left_out_text)

    def __str__(self) -> str:
        left = f"; left out: {left_out_text(list(self.left_out))}" if self.left_out else ""
        return STEPS.get(self.step, self.step).format(file=self.file, count=self.count, size=_megabytes(self.size),
                                                      left=left)



@dataclass
class PushSource:
    """What a push uploads and what its card is written from."""

    files: Path  # the folder whose files go up
    run: Path | None  # the run folder (config.toml, metrics.json, history.jsonl), when known
    onnx: bool = False
    config: dict[str, Any] = field(default_factory=dict)  # the model's config.json
    meta: dict[str, Any] = field(default_factory=dict)  # an ONNX export's labels.json


def _read_text(path: Path) -> str:
    """A file the card is written from ("" when missing or unreadable: the card leaves it out);
    a FIFO or device is refused before it is opened, as everywhere."""
    from bertstudio.data.regular_file import read_regular_text
    from bertstudio.train.rundir import MAX_RUN_FILE_BYTES

    try:
        return read_regular_text(path, missing_ok=True, max_bytes=MAX_RUN_FILE_BYTES) or ""
    except DataError:
        return ""


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(_read_text(path) or "{}")
    except (ValueError, RecursionError):  # the card leaves out what it cannot read
        return {}
    return data if isinstance(data, dict) else {}


def resolve_source(folder: str | Path) -> PushSource:
    """A run folder (its ``model/`` goes up), a model folder, or an ONNX export folder."""
    from bertstudio.data.regular_file import check_folder_files
    from bertstudio.tasks.model import is_onnx_export

    folder = Path(folder).expanduser()
    if not folder.is_dir():  # it said "nothing to push here" of a folder that is not there
        problem = "not a folder" if os.path.lexists(folder) else "no such folder"
        raise ConfigError(problem, path=folder, expected="a run folder, its model/ folder, or an ONNX export folder")
    check_folder_files(folder)  # the card reads its files before anything else
    if (folder / "model" / "config.json").is_file():
        if (folder / "model").is_symlink():  # the run's model/ must be the run's own, as the files in it must be
            raise ConfigError("the run's model/ folder is a symbolic link, which is not pushed", path=folder / "model",
                              expected="the model folder itself (push that folder, or copy it into the run)")
        return PushSource(folder / "model", folder, config=_read_json(folder / "model" / "config.json"))
    if is_onnx_export(folder):
        run = folder.parent if (folder.parent / "config.toml").is_file() else None
        return PushSource(folder, run, onnx=True, config=_read_json(folder / "config.json"), meta=_read_json(folder / "labels.json"))
    if (folder / "config.json").is_file():
        run = folder.parent if (folder.parent / "config.toml").is_file() else None
        return PushSource(folder, run, config=_read_json(folder / "config.json"))
    raise ConfigError("nothing to push here", path=folder,
                      expected="a run folder, its model/ folder, or an ONNX export folder")


def _skipped(rel: Path) -> bool:
    """Left out of an upload: hidden files and folders (.git, .cache, .env), *.tmp, checkpoints, caches."""
    return any(part.startswith(".") or part in _SKIP_DIRS for part in rel.parts) or rel.name.endswith(".tmp")


@dataclass
class FilePlan:
    """What a push uploads from the folder, and what it leaves there."""

    files: list[Path]  # relative to the folder
    left_out: list[Path]  # files that are not a model's (the folder's own README.md among them): named, never uploaded

    def size(self, root: Path) -> int:
        return sum((root / rel).lstat().st_size for rel in self.files)


# The files of a model folder as transformers, sentence-transformers, bertstudio's embedding head and
# export-onnx write them, beyond the names imported in _model_file: anything else in the folder (the
# user's data, a token, logs, optimizer state) is no model file and stays home, named.
_MODEL_NAMES = ("config.json", "generation_config.json", "model.safetensors", "model.safetensors.index.json",
                "merges.txt", "chat_template.jinja", "modules.json", "config_sentence_transformers.json",
                "sentence_bert_config.json")
_MODEL_PATTERNS = ("model-*-of-*.safetensors", "*.onnx", "*.onnx.data", "*.onnx_data")
README = Path("README.md")  # the folder's own, maybe private notes: left out, the generated card goes up instead


def _module_folders(root: Path) -> set[str]:
    """The module folders sentence-transformers' modules.json names (1_Pooling, 2_Normalize): only
    those are model files, not any folder whose name starts with a number (2024_backup/)."""
    try:
        modules = json.loads(_read_text(root / "modules.json") or "[]")
    except ValueError:
        return set()
    if not isinstance(modules, list):
        return set()
    return {m["path"] for m in modules if isinstance(m, dict) and isinstance(m.get("path"), str) and m["path"]}


def _model_file(rel: Path, *, onnx: bool, modules: set[str]) -> bool:
    from bertstudio.tasks.embedding import HEAD_FILE, SETTINGS_FILE
    from bertstudio.tasks.limits import TOKENIZER_FILES
    from bertstudio.tasks.model import TOKENIZER_JSON
    from bertstudio.train.onnx_export import META_FILE, SCRIPT_FILE

    if len(rel.parts) == 2 and rel.parts[0] in modules:
        rel = Path(rel.name)
    if len(rel.parts) != 1:
        return False
    names = (*_MODEL_NAMES, *TOKENIZER_FILES, *TOKENIZER_JSON, SETTINGS_FILE, HEAD_FILE,
             *((META_FILE, SCRIPT_FILE) if onnx else ()))  # predict.py and labels.json are an export's only
    return rel.name in names or any(fnmatch.fnmatchcase(rel.name, pattern) for pattern in _MODEL_PATTERNS)


def left_out_text(paths: list[Path]) -> str:
    """The left-out files as the CLI and the progress say them: the folder's README.md with its own reason."""
    parts = ["README.md (a generated model card goes up in its place)"] if README in paths else []
    others = [p for p in paths if p != README]
    if others:
        parts.append(f"{_names(others)} (not model files)")
    return "; ".join(parts)


def pushed_files(source: PushSource) -> FilePlan:
    """The files that go up, relative to ``source.files``: the model's own files only (see
    :func:`_model_file`); the rest is left out and named. A README.md in the folder is left out
    too (bertstudio writes none into a model folder, so it is the user's, maybe private notes) and
    the generated card goes up in its place.

    A symbolic link anywhere in what would go up is refused, naming the link, whether it points
    inside the folder or out of it. Following it would publish whatever it names (a link
    ``notes.txt -> ~/data/private.tsv`` uploaded the private file), and telling the harmless links
    from the others means resolving them now and trusting they still point there when the upload
    reads them. A model folder written by bertstudio, transformers or export-onnx holds no links,
    so refusing them all costs nothing and leaves no case to get wrong."""
    root = source.files
    files: list[Path] = []
    left_out: list[Path] = []
    modules = _module_folders(root)

    def model_file(rel: Path) -> bool:
        return _model_file(rel, onnx=source.onnx, modules=modules)

    for top, dirs, names in os.walk(root, followlinks=False):
        here = Path(top)
        for name in sorted(dirs + names):
            path = here / name
            rel = path.relative_to(root)
            if _skipped(rel):
                continue
            if path.is_symlink():
                raise ConfigError("a symbolic link is not pushed: it would upload what it points to", path=path,
                                  expected="the model's own files (copy the file into the folder in place of the link)")
            if name in names and path.suffix.lower() in PICKLE_SUFFIXES and model_file(rel):  # would go up:
                # torch.load or joblib.load of it by whoever downloads it runs its code (one the allow-list
                # leaves out, such as Trainer's training_args.bin, is left out and named like any other)
                raise ConfigError("a pickle file is not pushed: loading it can run code", path=path,
                                  expected="the weights as model.safetensors only (move this file out of the folder)")
            if name in names:
                (files if model_file(rel) else left_out).append(rel)
        dirs[:] = sorted(d for d in dirs if not _skipped((here / d).relative_to(root)))
    return FilePlan(sorted(files), sorted(left_out))


def _names(paths: list[Path], most: int = 12) -> str:
    shown = ", ".join(p.as_posix() for p in paths[:most])
    return shown + (f" and {len(paths) - most} more" if len(paths) > most else "")


def check_pushable(source: PushSource, report: Callable[[PushStep], None] | None = None) -> None:
    """What goes up must load for whoever downloads it, and run no code. First the quick checks
    every load makes (no auto_map, sane sizes that match the weights, tokenizer files, a readable
    config.json), and a model folder must hold its weights as model.safetensors, never only a
    pickled pytorch_model.bin. Then the folder is loaded the way ``bertstudio predict`` loads it
    (``load_model`` for a model folder, ``onnx_predictor`` for each of an export's .onnx files)
    and predicts one short example, which must come out as numbers (NaN weights give NaN).
    Whatever stops that is one ConfigError naming the file; nothing is uploaded before this passes."""
    from bertstudio.tasks.model import inspect_model_folder

    say = report or (lambda _m: None)
    _card_fields(source)  # config.json's bertstudio block and id2label, which the card reads
    if source.onnx:
        from bertstudio.train.onnx_export import onnx_predictor, read_meta

        read_meta(source.files)
        for model in sorted(source.files.glob("*.onnx")):
            say(PushStep("checking_onnx", file=model.name))
            _predicts(model, lambda m=model: onnx_predictor(m, threads=1))
        return
    inspect_model_folder(source.files)
    if not (source.files / "model.safetensors").is_file() and not (source.files / "model.safetensors.index.json").is_file():
        raise ConfigError("the model folder has no model.safetensors", path=source.files,
                          expected="weights saved as safetensors (a pickled pytorch_model.bin is not pushed)")
    from bertstudio.train.predict import Predictor

    say(PushStep("checking_model"))
    _predicts(source.files, lambda: Predictor.load(source.files, device="cpu"))


def _predicts(path: Path, load: Callable[[], Any]) -> None:
    """ConfigError unless ``load()`` gives a predictor whose prediction for one example is all numbers."""
    from bertstudio.errors import BertStudioError

    try:
        predictor = load()
        result = predictor.predict(**{k: v for k, v in _SAMPLE.items() if k in predictor.spec.columns})
    except BertStudioError as exc:  # the loader's own words (file, place, problem), as predict would print them
        raise ConfigError(f"{exc.problem}; it is not pushed", path=exc.path or path, where=exc.where,
                          expected=exc.expected) from None
    except Exception as exc:  # noqa: BLE001 - any failure means whoever downloads it could not use it either
        log.warning("push check: %s does not load or predict", path, exc_info=True)
        text = str(exc).strip().splitlines()
        raise ConfigError(f"the model does not load or predict ({type(exc).__name__}: {text[0][:200] if text else ''}); "
                          "it is not pushed", path=path, expected="a folder that `bertstudio predict` can use") from None
    if not _all_numbers(result):
        raise ConfigError("the model predicts NaN or infinity (its weights are damaged); it is not pushed", path=path,
                          expected="a model whose predictions are numbers")


def _all_numbers(value: Any) -> bool:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return math.isfinite(float(value))
    if isinstance(value, dict):
        return all(_all_numbers(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_all_numbers(v) for v in value)
    return True


# --- the model card ------------------------------------------------------------------------------


def _run_files(run: Path | None) -> tuple[dict[str, Any], dict[str, float], dict[str, Any]]:
    """(settings, metrics, the run's start event) of a run folder ({} where missing)."""
    if run is None:
        return {}, {}, {}
    settings: dict[str, Any] = {}
    try:
        settings = tomllib.loads(_read_text(run / "config.toml"))
    except (ValueError, RecursionError):  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        pass
    from bertstudio.metrics.display import sayable
    from bertstudio.train.rundir import metric_numbers

    # what the notes below the table may say, by their rule: NaN would be published as a score (true
    # is no number: it read as 100.00), and a hand-edited accuracy of -5 as "-500.00%"
    metrics = {k: v for k, v in metric_numbers(_read_json(run / "metrics.json")).items() if sayable(k, v)}
    started: dict[str, Any] = {}
    try:
        for line in _read_text(run / "history.jsonl").splitlines():
            event = json.loads(line) if line.strip() else {}
            if isinstance(event, dict) and event.get("kind") == "started":
                started = event
                break
    except (OSError, ValueError, RecursionError):
        pass
    return settings, metrics, started


def _base_model(settings: dict[str, Any]) -> str | None:
    """The Hub id the model was fine-tuned from, as the run's settings say it; None when no settings
    were read (a model folder pushed without its run: the base is unknown) or for a local folder
    (its path stays private). A name without a namespace (bert-base-uncased) is a Hub id unless a
    folder of that name is here, as the loader reads it."""
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    if not settings:
        return None
    name = settings.get("model")
    if not name or name in ("default", "bundled"):
        return BUNDLED_HUB_ID
    name = str(name)
    if Path(name).expanduser().exists() or name.startswith(("/", ".", "~")) or "\\" in name or name.count("/") > 1:
        return None
    try:
        validate_repo_id(name)
    except HFValidationError:
        return None
    return name


def model_card(source: PushSource, repo_id: str) -> str:
    """README.md for the Hub: YAML metadata (huggingface_hub's ModelCardData) and a readable body."""
    from huggingface_hub import ModelCardData

    from bertstudio.tasks import get_task

    settings, metrics, started = _run_files(source.run)
    meta, id2label = _card_fields(source)
    kind = str(source.meta.get("kind") or meta.get("task") or settings.get("task") or "sentence")
    glue_task = source.meta.get("glue_task") or meta.get("glue_task") or settings.get("glue_task")
    export_labels = source.meta.get("labels")
    labels = list(export_labels) if isinstance(export_labels, list) and export_labels else [id2label[i] for i in sorted(id2label)]
    if not get_task(kind).spec.has_label_set:
        labels = []
    base = _base_model(settings)
    head = _embedding_head(source)
    # an embedding / siamese head is no transformers class: pipeline() loaded the encoder under a
    # fresh random classifier and answered at chance, so the card offers neither it nor its widget
    pipeline_tag = None if head else PIPELINE_TAGS.get(get_task(kind).peft_task_type)
    data = ModelCardData(
        library_name="onnx" if source.onnx else "sentence-transformers" if head else "transformers",
        pipeline_tag=pipeline_tag,
        base_model=base, tags=["bertstudio", kind] + ([str(glue_task)] if glue_task else []) + (["onnx"] if source.onnx else []),
        metrics=sorted(metrics) or None,
    )
    lines = ["---", data.to_yaml(), "---", "", f"# {repo_id.split('/')[-1]}", "",
             f"A {kind} model fine-tuned with bertstudio from "
             + (f"[{base}](https://huggingface.co/{base})" if base else "a local model" if settings
                else "a base model that is not recorded with this folder (its run's settings were not found)") + "."
             + (f" Task: {_cell(glue_task)}." if glue_task else ""), ""]
    if labels:
        lines += ["## Labels", "", ", ".join(_code(name) for name in labels), ""]
    lines += _data_section(settings, started)
    if metrics:
        lines += ["## Evaluation", "", "| metric | value |", "|---|---|"]
        lines += [f"| {_cell(k)} | {_card_value(k, v)} |" for k, v in metrics.items()]
        lines += [""] + _score_notes(source.run, kind, glue_task, metrics)
    shown = [(k, settings[k]) for k in _SETTINGS if k in settings and k != "model"
             and not (k == "lora_rank" and settings.get("mode") != "lora")  # a rank no layer used
             and not (k == "keep_tuning" and settings[k] == 1)]  # all of the change kept: as every run before it
    if shown:
        lines += ["## Training settings", "", "| setting | value |", "|---|---|"]
        lines += [f"| {_cell(k)} | {_cell(v)} |" for k, v in shown] + [""]
    if head:
        lines += _embedding_usage(repo_id, head, labels, meta.get("max_length"))
    else:
        lines += _usage_section(source, repo_id, pipeline_tag)
    return "\n".join(lines)


def _card_value(key: str, value: float) -> str:
    from bertstudio.metrics.display import is_fraction

    return f"{value * 100:.2f}%" if is_fraction(key) else f"{value:.4g}"


def _score_notes(run: Path | None, kind: str, glue_task: Any, metrics: dict[str, float]) -> list[str]:
    """What the CLI's end line and the Results page say beside the scores, for the card's readers
    too: the model answers one class for (almost) every row (metrics.json's ``one_answer``), and the
    scores are the best of several evaluations on the same set, with what the last one scored
    (``last_evaluation``). Both read checked: metrics.json is any file's; a value that does not fit
    is left unsaid."""
    from bertstudio.errors import BertStudioError
    from bertstudio.metrics.classification import OneAnswer
    from bertstudio.metrics.display import last_score_keys
    from bertstudio.tasks import official_metrics
    from bertstudio.train.rundir import LAST_EVALUATION, METRICS, ONE_ANSWER, metric_numbers

    found = _read_json(run / METRICS) if run is not None else {}
    notes = []
    answer = OneAnswer.from_dict(found.get(ONE_ANSWER))
    if answer is not None:
        notes.append(f"Note: the model answers {_code(answer.label)} for {answer.count:,} of {answer.rows:,} evaluation "
                     f"rows (the gold: {answer.gold_share:.0%}): the scores above are those of a model that (almost) "
                     "always predicts one class.")
    last = found.get(LAST_EVALUATION)
    last = metric_numbers(last) if isinstance(last, dict) else {}
    try:
        official = tuple(official_metrics(kind, str(glue_task) if glue_task else None))
    except BertStudioError:  # a kind this version does not know
        official = ()
    keys, more = last_score_keys(last, official, metrics)
    if keys:
        said = ", ".join(f"{_code(k)} {_card_value(k, last[k])}" for k in keys) + (", …" if more else "")
        notes.append("Note: these scores are the best of several evaluations on this evaluation set (the run kept "
                     "that evaluation's weights): selected on it, they may read higher than new data would give; "
                     f"the last evaluation scored {said}.")
    return [line for note in notes for line in (note, "")]


def _embedding_head(source: PushSource) -> dict[str, Any] | None:
    """The folder's embedding_classifier.json when its head is bertstudio's embedding or siamese
    head (tasks/embedding.py), else None (a transformers head, or an ONNX export)."""
    from bertstudio.tasks.embedding import is_embedding_classifier, read_embedding_settings

    if source.onnx or not is_embedding_classifier(source.files):
        return None
    return read_embedding_settings(source.files)  # checked; check_pushable has loaded the folder already


def _embedding_usage(repo_id: str, head: dict[str, Any], labels: list[str], max_length: Any) -> list[str]:
    """How to predict with an embedding / siamese head outside bertstudio: the sentence-transformer
    (mean pooling, normalised, as the folder's modules.json says) and the linear head in head.safetensors,
    cut at the run's max length; pairs as (u, v, |u-v|, u*v) of each side encoded alone."""
    siamese, regression = head.get("head") == "siamese", bool(head.get("regression"))
    code = ["import numpy as np", "from huggingface_hub import hf_hub_download",
            "from safetensors.numpy import load_file", "from sentence_transformers import SentenceTransformer", "",
            f'encoder = SentenceTransformer("{repo_id}")']
    if isinstance(max_length, int) and not isinstance(max_length, bool) and max_length > 0:
        code.append(f"encoder.max_seq_length = {max_length}  # as the model was trained")
    code.append(f'head = load_file(hf_hub_download("{repo_id}", "head.safetensors"))')
    if siamese:
        code += ['u = encoder.encode(["A man is playing a guitar."])', 'v = encoder.encode(["A person plays music."])',
                 "features = np.concatenate([u, v, np.abs(u - v), u * v], axis=-1)"]
    else:
        code += ['features = encoder.encode(["a gripping, funny film"])']
    code.append('logits = features @ head["weight"].T + head["bias"]')
    if regression:
        code.append("print(logits[:, 0])  # the score")
    else:
        # one line (repr escapes a newline): a fence inside a line does not close the card's code block
        code += [f"labels = {[str(name) for name in labels]!r}", "print([labels[i] for i in logits.argmax(axis=-1)])"]
    what = "the siamese head: each text of a pair encoded on its own, then (u, v, |u-v|, u*v)" if siamese else \
        "a linear head on the mean-pooled sentence embedding"
    return ["## Use", "", f"bertstudio trained {what}. `transformers.pipeline()` does not know this head (it would "
            "load the encoder under a new, untrained classifier); predict with the sentence-transformer and "
            "`head.safetensors`:", "", "```python", *code, "```", "",
            "or with bertstudio (`bertstudio predict --model <this folder>`), or export it with "
            "`bertstudio export-onnx` for a standalone `predict.py`.", ""]


def _cell(value: Any) -> str:
    """``value`` as text that stays inside its line and its table cell: a label, file name or
    setting read from the run may hold newlines (a "---" line would end the card's metadata)
    or "|" (a new column)."""
    return _one_line(value).replace("|", "\\|")


def _one_line(value: Any, most: int = 200) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= most else text[:most] + "…"


def _code(value: Any) -> str:
    """``value`` as a code span outside a table (a label, a file name), as it is: the fence is one
    backtick longer than the longest run of backticks in it (CommonMark), and no "|" is escaped,
    since a backslash inside a code span is shown."""
    text = _one_line(value)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""  # CommonMark strips one space each side
    return f"{fence}{pad}{text}{pad}{fence}"


def _card_fields(source: PushSource) -> tuple[dict[str, Any], dict[int, Any]]:
    """config.json's ``bertstudio`` block and its id2label by label id, as the card reads them. A block
    that is not a JSON object (or whose task is not a name), or an id2label whose keys are not label
    ids, is a ConfigError naming config.json and the field: a str block failed as AttributeError,
    keys "a", "b" as ValueError."""
    config_path = source.files / "config.json"
    meta = source.config.get("bertstudio")
    if meta is not None and not isinstance(meta, dict):
        raise ConfigError(f"the bertstudio block is a {type(meta).__name__}, not a JSON object", path=config_path,
                          where="bertstudio", expected='{"task": ..., "glue_task": ...} as bertstudio writes it')
    for key in ("task", "glue_task"):
        if (meta or {}).get(key) is not None and not isinstance(meta[key], str):
            raise ConfigError(f"bertstudio.{key} is a {type(meta[key]).__name__}, not a name", path=config_path,
                              where=f"bertstudio.{key}", expected="the name bertstudio wrote, such as sentence or sst2")
    id2label = source.config.get("id2label")
    if id2label is None:
        return meta or {}, {}
    if not isinstance(id2label, dict):
        raise ConfigError(f"id2label is a {type(id2label).__name__}, not a JSON object", path=config_path,
                          where="id2label", expected='label ids as keys: {"0": "neg", "1": "pos"}')
    try:
        return meta or {}, {int(k): v for k, v in id2label.items()}
    except ValueError:
        raise ConfigError("id2label has keys that are not label ids", path=config_path, where="id2label",
                          expected='label ids as keys: {"0": "neg", "1": "pos"}') from None


def _data_section(settings: dict[str, Any], started: dict[str, Any]) -> list[str]:
    out = []
    if settings.get("glue_task") and settings.get("data_dir"):
        out.append(f"- trained on {_cell(settings['glue_task'])} (GLUE)")
    for key, what in (("train_file", "training file"), ("eval_file", "evaluation file")):
        if settings.get(key):
            out.append(f"- {what}: {_code(Path(str(settings[key])).name)}")  # the name only: local paths stay private
    if started:
        evaluated = started.get("num_eval_examples", "?")
        scored = started.get("num_scored_examples")  # absent from a history written before it was recorded
        scored = evaluated if scored is None else scored
        line = (f"- {_cell(started.get('num_train_examples', '?'))} training examples, "
                f"{_cell(scored)} evaluation examples")
        if scored != evaluated:  # rows without gold were predicted, not scored
            line += f" ({_cell(evaluated)} evaluated, the rest without a gold value)"
        out.append(line)
    return (["## Data", ""] + out + [""]) if out else []


def _usage_section(source: PushSource, repo_id: str, pipeline_tag: str | None) -> list[str]:
    from bertstudio.train.onnx_export import INT8_FILE

    if source.onnx:
        return ["## Use", "", "```bash", "pip install onnxruntime tokenizers numpy huggingface_hub",
                f"hf download {repo_id} --local-dir model && python model/predict.py --help", "```", ""] + (
                    ["`model.int8.onnx` is the int8 quantized copy (`predict.py --model model/model.int8.onnx`).", ""]
                    if (source.files / INT8_FILE).is_file() else [])  # export-onnx --no-int8 writes none
    return ["## Use", "", "```python", "from transformers import pipeline", "",
            f'predict = pipeline("{pipeline_tag}", model="{repo_id}")', "```", ""]


# --- the push -------------------------------------------------------------------------------------


def resolve_token(token: str | None) -> str:
    from huggingface_hub import get_token

    found = token or get_token()
    if not found:
        raise ConfigError("no Hugging Face token", where="push to the Hub",
                          expected="a token with write access (--token, the token field, or `hf auth login`)")
    return found


def _stage(source: PushSource, files: list[Path], card: str, into: Path) -> None:
    """Links to ``files`` (see :func:`pushed_files`) plus the generated card,
    so the user's folder is never written. Each link names the file in the folder, never what a
    link there resolves to, and a file that became a link since it was checked is refused."""
    for rel in files:
        path = source.files / rel
        if path.is_symlink():
            raise ConfigError("a symbolic link is not pushed: it would upload what it points to", path=path,
                              expected="the model's own files (copy the file into the folder in place of the link)")
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(os.path.abspath(path), target)
        except OSError:  # no symlinks here (Windows without the right): copy
            shutil.copyfile(path, target, follow_symlinks=False)
    (into / "README.md").write_text(card, encoding="utf-8")


@dataclass
class PushResult:
    """What a push did, for the CLI's lines and the dialog."""

    url: str
    files: int  # how many files went up, the card included
    size: int  # their bytes
    left_out: list[Path]  # the folder's files that are not model files (its own README.md among them)
    private: bool | None = None  # the repository's visibility after the push (None: not known)

    def lines(self) -> list[str]:
        """What the CLI prints and the dialog shows (plain text)."""
        seen = {True: "private", False: "public", None: "visibility unknown"}[self.private]
        out = [f"uploaded {self.files} files ({_megabytes(self.size)}) to {self.url} ({seen})"]
        if self.left_out:
            out.append(f"left out: {left_out_text(self.left_out)}")
        return out


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def push_to_hub(folder: str | Path, repo_id: str, *, token: str | None = None, private: bool = True,
                commit_message: str = "Upload model from bertstudio", api: Any = None,
                progress: Callable[[float, PushStep], None] | None = None,
                cancel: threading.Event | UploadGate | None = None) -> PushResult:
    """Upload ``folder`` (see :func:`resolve_source`) to ``repo_id``. ``cancel`` is looked at before
    the repository is looked up, before it is created, and as the upload begins (reported at
    :data:`UPLOAD_STARTED`); once upload_folder runs, it cannot be stopped. Pass an
    :class:`UploadGate` to cancel and learn in one step whether the upload had already begun."""
    from huggingface_hub import HfApi
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    report = progress or (lambda _f, _m: None)
    try:
        validate_repo_id(repo_id)
    except HFValidationError as exc:
        raise ConfigError(str(exc), where="repository id", expected="user/name or org/name") from None
    if "/" not in repo_id:  # valid for validate_repo_id (a legacy top-level id), but not one a user can create
        raise ConfigError(f"{repo_id!r} names no owner", where="repository id", expected="user/name or org/name")
    source = resolve_source(folder)
    report(0.01, PushStep("files"))
    plan = pushed_files(source)
    check_pushable(source, lambda message: report(0.02, message))
    token = resolve_token(token)
    report(0.05, PushStep("card"))
    card = model_card(source, repo_id)
    size = plan.size(source.files) + len(card.encode("utf-8"))
    count = len(plan.files) + 1
    api = api if api is not None else HfApi()
    gate = cancel if isinstance(cancel, UploadGate) else UploadGate(cancel or threading.Event())
    try:
        _stop_if_asked(gate, repo_id)
        report(0.1, PushStep("creating"))
        _check_owner(_whoami(api, token, repo_id), repo_id)
        _stop_if_asked(gate, repo_id)  # whoami may take long: no repository is created after a cancel
        url = api.create_repo(repo_id, token=token, private=private, exist_ok=True, repo_type="model")
        gate.created = True
        if private and not getattr(api.repo_info(repo_id, token=token, repo_type="model"), "private", True):
            raise ConfigError("the repository already exists and is public", where=repo_id,
                              expected="another repository, or ask for a public push")
        with tempfile.TemporaryDirectory(prefix="bertstudio-push-") as stage:
            _stage(source, plan.files, card, Path(stage))
            if not gate.begin():
                _stop_if_asked(gate, repo_id)
            report(UPLOAD_STARTED, PushStep("uploading", count=count, size=size, left_out=tuple(plan.left_out)))
            try:
                api.upload_folder(repo_id=repo_id, folder_path=stage, commit_message=commit_message, token=token,
                                  repo_type="model")
            except RuntimeError as exc:
                if not _wraps_a_transfer_failure(exc):
                    raise  # a programming error: its traceback, as an internal error
                log.warning("push to %s: the upload failed", repo_id, exc_info=True)
                raise ConfigError(f"the upload failed: {_failure(exc, repo_id)}", where=repo_id,
                                  expected="a working connection and a write token") from None
    except ConfigError:
        raise
    except _network_errors() as exc:  # no network, a bad token, no rights
        log.warning("push to %s: the Hub call failed", repo_id, exc_info=True)
        raise ConfigError(f"the upload failed: {_failure(exc, repo_id)}", where=repo_id,
                          expected="a working connection and a write token") from None
    try:  # create_repo(exist_ok=True) leaves an existing repository's visibility as it was: say what it is
        visible = getattr(api.repo_info(repo_id, token=token, repo_type="model"), "private", None)
    except _network_errors():  # the model is up; only its visibility is not known
        log.info("push to %s: its visibility could not be read", repo_id, exc_info=True)
        visible = None
    report(1.0, PushStep("done"))
    return PushResult(str(url), count, size, plan.left_out, visible if isinstance(visible, bool) else None)


class UploadGate:
    """A push's cancel flag and the moment its upload begins, decided one at a time: a cancel asked
    while a question is on screen may meet an upload that began meanwhile, and must then say so
    rather than be ignored by a push that no longer looks at the flag."""

    def __init__(self, cancel: threading.Event | None = None) -> None:
        self.cancel_event = cancel if cancel is not None else threading.Event()
        self._lock = threading.Lock()
        self.began = False  # upload_folder runs or has run: the push can no longer be stopped
        self.created = False  # create_repo has run: the repository exists (perhaps empty)

    def try_cancel(self) -> bool:
        """Cancel unless the upload has begun; False (nothing changed) when it has."""
        with self._lock:
            if not self.began:
                self.cancel_event.set()
            return not self.began

    def begin(self) -> bool:
        """Mark the upload as begun unless the push was cancelled; False when it was."""
        with self._lock:
            if not self.cancel_event.is_set():
                self.began = True
            return self.began


def _stop_if_asked(gate: UploadGate, repo_id: str) -> None:
    if gate.cancel_event.is_set():
        made = f"; the repository {repo_id} was created and is empty" if gate.created else ""
        raise ConfigError(f"the push was cancelled before anything was uploaded{made}", where=repo_id)


def _wraps_a_transfer_failure(exc: RuntimeError) -> bool:
    """Whether ``exc`` is how huggingface_hub reports a file whose transfer broke off: _commit_api
    raises a plain RuntimeError ``from`` the cause, hf_xet's Rust code raises a plain RuntimeError
    from inside huggingface_hub's call. A subclass (RecursionError, NotImplementedError) or a
    RuntimeError raised elsewhere is a programming error, not a failed upload."""
    if type(exc) is not RuntimeError:
        return False
    if exc.__cause__ is not None:
        return True
    tb, last = exc.__traceback__, None
    while tb is not None:
        last, tb = tb, tb.tb_next
    where = Path(last.tb_frame.f_code.co_filename).parts if last is not None else ()
    return "huggingface_hub" in where or "hf_xet" in where


def _whoami(api: Any, token: str, repo_id: str) -> Any:
    """The token's user and organisations for the owner check, or None when the Hub does not say:
    whoami is heavily rate-limited (429), and a network hiccup or a token without the read scope
    must not block a push that create_repo and upload_folder can judge for themselves (their 403
    says the repository may be someone else's). A 401 is the token itself: that stops the push."""
    try:
        return api.whoami(token=token, cache=True)
    except _network_errors() as exc:
        if getattr(getattr(exc, "response", None), "status_code", None) == 401:
            raise
        log.warning("push to %s: whoami failed, the owner is not checked", repo_id, exc_info=True)
        return None


def _check_owner(user: Any, repo_id: str) -> None:
    """ConfigError unless ``repo_id``'s namespace is the token's user or one of its organisations:
    create_repo(exist_ok=True) swallows the 403 for someone else's repository that it can read, and
    the push then failed at upload time (or was told to ask for a public push)."""
    if not isinstance(user, dict) or not isinstance(user.get("name"), str) or not user["name"]:
        return  # the Hub did not say whose token this is: create_repo and the upload will
    mine = {str(user.get("name"))} | {str(org.get("name")) for org in user.get("orgs") or [] if isinstance(org, dict)}
    owner = repo_id.split("/")[0]
    if owner not in mine:
        raise ConfigError(f"{repo_id} belongs to another user or organisation you cannot write to", where=repo_id,
                          expected=f"a repository under {', '.join(sorted(mine))}")


def _failure(exc: BaseException, repo_id: str) -> str:
    """What went wrong, in one line: the error, its cause when it wraps one (a RuntimeError from
    _commit_api says only which file), and what a 401 or 403 means for the user."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    cause = exc.__cause__
    if isinstance(exc, RuntimeError) and cause is not None and str(cause).strip():  # only a wrapper's cause:
        # an HTTP error's cause (httpx's status error) repeats what its own message says
        text = f"{text.rstrip('.')}: {' '.join(str(cause).split())}"
    status = next((getattr(getattr(e, "response", None), "status_code", None) for e in (exc, cause)
                   if getattr(e, "response", None) is not None), None)
    if status == 401:
        text += " (the token is wrong or has expired: make a new one, or run `hf auth login` again)"
    elif status == 403:
        text += (f" (the token may not write to {repo_id}: it needs write rights there, and the repository "
                 "may belong to someone else)")
    return text


def _network_errors() -> tuple[type[BaseException], ...]:
    """What a failed upload raises: HfHubHTTPError and requests' errors are OSErrors, but the HTTP
    client huggingface_hub uses (httpx, or httpx2 in its 2.x releases) raises its own, which are not
    (offline, a push ended in a ConnectError traceback, exit 1)."""
    errors: list[type[BaseException]] = [OSError, ValueError]
    for name in ("httpx2", "httpx"):
        try:
            client = __import__(name)
        except ImportError:
            continue
        errors += [e for e in (getattr(client, "HTTPError", None), getattr(client, "InvalidURL", None),
                               getattr(client, "StreamError", None)) if isinstance(e, type)]
    return tuple(errors)
