"""Push a model to the Hugging Face Hub with a model card written from its run.

What is uploaded: a run's ``model/`` folder (plain transformers files), or an ONNX
export folder, plus a generated ``README.md`` (the card: task kind, labels, the data
the run trained and evaluated on, its settings and its metrics, and how to use it).
The card is written into a staging folder of links beside the files, never into the
user's folders, and everything goes up in one ``upload_folder`` commit.

Safety: no token, no push (the token given, else the cached ``hf auth login`` or
``HF_TOKEN``); a new repository is private unless ``private=False`` is asked for, and a
push into an existing *public* repository is refused unless public was asked for,
because uploading there would publish the model.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
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
_SKIP = (".*", "*.tmp", "checkpoints/*", "__pycache__/*")
_SETTINGS = ("model", "head", "mode", "lora_rank", "epochs", "lr", "batch_size", "grad_accum", "warmup_ratio",
             "weight_decay", "max_length", "seed", "precision", "max_train_examples")


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

    folder = Path(folder).expanduser()
    if folder.is_dir():
        check_folder_files(folder)  # the card reads its files before anything else
    if (folder / "model" / "config.json").is_file():
        return PushSource(folder / "model", folder, config=_read_json(folder / "model" / "config.json"))
    if (folder / "labels.json").is_file() and any(folder.glob("*.onnx")):
        run = folder.parent if (folder.parent / "config.toml").is_file() else None
        return PushSource(folder, run, onnx=True, config=_read_json(folder / "config.json"), meta=_read_json(folder / "labels.json"))
    if (folder / "config.json").is_file():
        run = folder.parent if (folder.parent / "config.toml").is_file() else None
        return PushSource(folder, run, config=_read_json(folder / "config.json"))
    raise ConfigError("nothing to push here", path=folder,
                      expected="a run folder, its model/ folder, or an ONNX export folder")


def check_pushable(source: PushSource) -> None:
    """What goes up must load for whoever downloads it, and run no code: a model folder passes the
    checks every load makes (no auto_map, sane sizes that match the weights, tokenizer files) and
    holds its weights as model.safetensors, never only a pickled pytorch_model.bin; an export's
    .onnx files open in ONNX Runtime. Nothing is uploaded before this passes."""
    from bertstudio.tasks.model import inspect_model_folder, load_tokenizer

    if source.onnx:
        from bertstudio.train.onnx_export import onnx_session, read_meta

        read_meta(source.files)
        load_tokenizer(source.files)
        for model in sorted(source.files.glob("*.onnx")):
            onnx_session(model)
        return
    inspect_model_folder(source.files)
    if not (source.files / "model.safetensors").is_file() and not (source.files / "model.safetensors.index.json").is_file():
        raise ConfigError("the model folder has no model.safetensors", path=source.files,
                          expected="weights saved as safetensors (a pickled pytorch_model.bin is not pushed)")


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
    metrics = {k: float(v) for k, v in _read_json(run / "metrics.json").items() if isinstance(v, (int, float))}
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
    """The Hub id the model was fine-tuned from; None for a local folder (its path stays private)."""
    name = settings.get("model")
    if not name or name in ("default", "bundled"):
        return BUNDLED_HUB_ID
    if Path(str(name)).exists() or str(name).startswith(("/", ".", "~")) or str(name).count("/") != 1:
        return None
    return str(name)


def model_card(source: PushSource, repo_id: str) -> str:
    """README.md for the Hub: YAML metadata (huggingface_hub's ModelCardData) and a readable body."""
    from huggingface_hub import ModelCardData

    from bertstudio.tasks import get_task

    settings, metrics, started = _run_files(source.run)
    meta = (source.config.get("bertstudio") or {}) if source.config else {}
    kind = str(source.meta.get("kind") or meta.get("task") or settings.get("task") or "sentence")
    glue_task = source.meta.get("glue_task") or meta.get("glue_task") or settings.get("glue_task")
    id2label = source.config.get("id2label") or {}
    labels = list(source.meta.get("labels") or [id2label[k] for k in sorted(id2label, key=lambda x: int(x))])
    if not get_task(kind).spec.has_label_set:
        labels = []
    base = _base_model(settings)
    pipeline_tag = PIPELINE_TAGS.get(get_task(kind).peft_task_type)
    data = ModelCardData(
        library_name="onnx" if source.onnx else "transformers",
        pipeline_tag=pipeline_tag,
        base_model=base, tags=["bertstudio", kind] + ([str(glue_task)] if glue_task else []) + (["onnx"] if source.onnx else []),
        metrics=sorted(metrics) or None,
    )
    lines = ["---", data.to_yaml(), "---", "", f"# {repo_id.split('/')[-1]}", "",
             f"A {kind} model fine-tuned with bertstudio from "
             + (f"[{base}](https://huggingface.co/{base})" if base else "a local model") + "."
             + (f" Task: {glue_task}." if glue_task else ""), ""]
    if labels:
        lines += ["## Labels", "", ", ".join(f"`{name}`" for name in labels), ""]
    lines += _data_section(settings, started)
    if metrics:
        lines += ["## Evaluation", "", "| metric | value |", "|---|---|"]
        lines += [f"| {k} | {v * 100:.2f} |" if abs(v) <= 1 else f"| {k} | {v:.4g} |" for k, v in metrics.items()]
        lines += [""]
    shown = [(k, settings[k]) for k in _SETTINGS if k in settings and k != "model"]
    if shown:
        lines += ["## Training settings", "", "| setting | value |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in shown] + [""]
    lines += _usage_section(source, repo_id, pipeline_tag)
    return "\n".join(lines)


def _data_section(settings: dict[str, Any], started: dict[str, Any]) -> list[str]:
    out = []
    if settings.get("glue_task") and settings.get("data_dir"):
        out.append(f"- trained on {settings['glue_task']} (GLUE)")
    for key, what in (("train_file", "training file"), ("eval_file", "evaluation file")):
        if settings.get(key):
            out.append(f"- {what}: `{Path(str(settings[key])).name}`")  # the name only: local paths stay private
    if started:
        out.append(f"- {started.get('num_train_examples', '?')} training examples, "
                   f"{started.get('num_eval_examples', '?')} evaluation examples")
    return (["## Data", ""] + out + [""]) if out else []


def _usage_section(source: PushSource, repo_id: str, pipeline_tag: str | None) -> list[str]:
    if source.onnx:
        return ["## Use", "", "```bash", "pip install onnxruntime tokenizers numpy huggingface_hub",
                f"hf download {repo_id} --local-dir model && python model/predict.py --help", "```", "",
                "`model.int8.onnx` is the int8 quantized copy (`predict.py --model model/model.int8.onnx`).", ""]
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


def _stage(source: PushSource, card: str, into: Path) -> None:
    """Links to the files to upload plus the card, so the user's folder is never written."""
    for path in sorted(source.files.rglob("*")):
        rel = path.relative_to(source.files)
        if not path.is_file() or any(rel.match(p) for p in _SKIP) or rel.as_posix() == "README.md":
            continue
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(path.resolve(), target)
        except OSError:  # no symlinks here (Windows without the right): copy
            shutil.copy2(path, target)
    (into / "README.md").write_text(card, encoding="utf-8")


def push_to_hub(folder: str | Path, repo_id: str, *, token: str | None = None, private: bool = True,
                commit_message: str = "Upload model from bertstudio", api: Any = None,
                progress: Callable[[float, str], None] | None = None) -> str:
    """Upload ``folder`` (see :func:`resolve_source`) to ``repo_id``; returns the repository's URL."""
    from huggingface_hub import HfApi
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    report = progress or (lambda _f, _m: None)
    try:
        validate_repo_id(repo_id)
    except HFValidationError as exc:
        raise ConfigError(str(exc), where="repository id", expected="user/name or org/name") from None
    source = resolve_source(folder)
    report(0.02, "checking the model")
    check_pushable(source)
    token = resolve_token(token)
    report(0.05, "writing the model card")
    card = model_card(source, repo_id)
    api = api if api is not None else HfApi()
    try:
        report(0.1, "creating the repository")
        url = api.create_repo(repo_id, token=token, private=private, exist_ok=True, repo_type="model")
        if private and not getattr(api.repo_info(repo_id, token=token, repo_type="model"), "private", True):
            raise ConfigError("the repository already exists and is public", where=repo_id,
                              expected="another repository, or ask for a public push")
        with tempfile.TemporaryDirectory(prefix="bertstudio-push-") as stage:
            _stage(source, card, Path(stage))
            report(0.2, "uploading")
            api.upload_folder(repo_id=repo_id, folder_path=stage, commit_message=commit_message, token=token,
                              repo_type="model")
    except ConfigError:
        raise
    except (OSError, ValueError) as exc:  # HfHubHTTPError is an OSError: no network, a bad token, no rights
        raise ConfigError(f"the upload failed: {exc}", where=repo_id, expected="a working connection and a write token") from None
    report(1.0, "done")
    return str(url)
