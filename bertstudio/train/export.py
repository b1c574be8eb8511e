"""Export a run as a self-contained folder that starts with one command anywhere.

Layout::

    OUT/
      run.toml          the TrainConfig, data paths relative to OUT
      data/train.jsonl  one file per split, in a format a person can read
      data/dev.jsonl    (CoNLL columns for tagging, SQuAD JSON for QA)
      README.md         what is inside and the line that starts it
      model/            only with copy_model=True (else the config names the model)

Paths in run.toml are relative to OUT, and bertstudio reads them relative to the
working directory, so the README says to start from inside OUT.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from bertstudio.data.shell import shell_quote
from bertstudio.data.atomic import check_folder_path, create_folder, remove_entry
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig

DATA_DIR = "data"
CONFIG_NAME = "run.toml"
RUN_OUTPUT = "run"  # where the exported run writes its own results, inside OUT

# Which split feeds which setting; other splits (test) are written but not trained on.
_TRAIN_SPLITS = ("train",)
_EVAL_SPLITS = ("dev", "eval", "validation", "valid")


def _data_format(examples: Any) -> tuple[str, str]:
    """(format, file extension) for a split: readable and lossless for its kind. Kinds that
    fit a table go to JSON Lines (a TSV cannot hold every text); the others to their own
    format (CoNLL columns, SQuAD JSON) where it can hold the data."""
    spec = examples.spec
    fmt = "jsonl" if spec.table_format else spec.save_format
    if fmt == "conll" and not _fits_conll(examples):
        fmt = "jsonl"
    return fmt, {"squad": ".json"}.get(fmt, "." + fmt)


def _fits_conll(examples: Any) -> bool:
    """CoNLL columns cannot hold a token with whitespace, an empty token, a ``-DOCSTART-`` token
    (read as a document break), a first token starting with U+FEFF (read as a byte-order mark)
    or an unlabelled sentence: the ones :func:`write_conll` refuses, and more. Nor IOB1 tags (an
    I- opening an entity, kept by a JSON Lines import): the CoNLL reader reads them as BIO, and the
    run.toml beside the file, naming the project's tags, then refused its own train file."""
    from bertstudio.data.formats.common import first_bio_error
    from bertstudio.data.formats.conll import DOCSTART

    rows, tags = examples.dataset[examples.spec.inputs[0]], examples.dataset[examples.gold_column]
    if rows and rows[0] and rows[0][0].startswith("\ufeff"):
        return False
    if any(t is not None and first_bio_error(t) is not None for t in tags):
        return False
    return all(t is not None for t in tags) and not any(
        any(ch.isspace() for ch in tok) or not tok or tok == DOCSTART for toks in rows for tok in toks)


def _check_out_dir(out: Path, overwrite: bool) -> None:
    """``out`` came through check_folder_path: absent, or a folder."""
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise ConfigError("the export folder is not empty", path=out, expected="a new or empty folder")


def export_run(
    config: TrainConfig,
    examples_by_split: Mapping[str, Any],
    out_dir: str | os.PathLike[str],
    *,
    copy_model: bool = False,
    overwrite: bool = False,
) -> Path:
    """Write ``out_dir`` with the splits (``{"train": ExampleSet, "dev": ..., "test": ...}``),
    ``run.toml`` and ``README.md``; returns the folder. ``train`` is required; ``dev`` (or
    eval/validation) becomes the evaluation file; without one, a config with ``hold_out``
    has its held-out rows written as ``dev`` (the rows the run itself would evaluate on). The
    label order is written into run.toml so label ids stay the same when the data are read again."""
    from bertstudio.data.io import save_examples
    from bertstudio.train.sources import hold_out

    splits = {k: v for k, v in examples_by_split.items() if v is not None}
    train_key = next((k for k in _TRAIN_SPLITS if k in splits), None)
    if train_key is None:
        raise ConfigError("no training split to export", where="examples_by_split", expected=f"a 'train' split among {sorted(splits)}")
    if config.hold_out and not any(k in splits for k in _EVAL_SPLITS):
        splits[train_key], splits["dev"] = hold_out(splits[train_key], config.hold_out, config.seed,
                                                    config.hold_out_split)
    train = splits[train_key]
    if train.kind != config.task:
        raise ConfigError(
            f"the training data is {train.kind!r} data but the task is {config.task!r}",
            where="task", expected=f"task = {train.kind!r}",
        )
    out = check_folder_path(out_dir, where="export")  # a dangling link, a file on the way...: refused here
    model = config.model
    src = Path(model).expanduser().resolve() if model and Path(model).expanduser().is_dir() else None
    if src is not None and out.resolve().is_relative_to(src):  # a copy of the model would copy itself, endlessly
        raise ConfigError("the export folder is inside the model folder", path=out, where="export",
                          expected=f"a folder outside {src}")
    _check_out_dir(out, overwrite)

    def fill(folder: Path) -> None:
        (folder / DATA_DIR).mkdir(parents=True, exist_ok=True)
        written: dict[str, tuple[str, str, int]] = {}  # split -> (relative path, format, rows)
        for name, examples in splits.items():
            fmt, ext = _data_format(examples)
            rel = f"{DATA_DIR}/{name}{ext}"
            save_examples(examples, folder / rel, fmt=fmt)
            written[name] = (rel, fmt, len(examples))

        eval_key = next((k for k in _EVAL_SPLITS if k in written), None)
        if eval_key is not None and written[eval_key][1] != written[train_key][1]:
            # one data_format setting covers both files; fall back to the lossless common one
            for key in (train_key, eval_key):
                rel = f"{DATA_DIR}/{key}.jsonl"
                (folder / written[key][0]).unlink()
                save_examples(splits[key], folder / rel, fmt="jsonl")
                written[key] = (rel, "jsonl", len(splits[key]))

        named = model
        if src is not None:
            if copy_model:
                shutil.copytree(src, folder / "model", dirs_exist_ok=overwrite)
                named = "model"
            else:
                named = str(src)  # a local folder outside the export: absolute, so it works from OUT

        exported = replace(
            config,
            train_file=written[train_key][0],
            eval_file=written[eval_key][0] if eval_key else None,
            data_dir=None,  # the GLUE folder is replaced by the exported files
            data_format=written[train_key][1],
            columns={},  # the files use bertstudio's own column names
            hold_out=None if eval_key else config.hold_out,  # the held-out rows are the dev file now
            labels=list(config.labels or train.labels) or None,
            model=named,
            output_dir=RUN_OUTPUT,
            resume_from=None,  # a checkpoint elsewhere is not part of the export
            overwrite=False,
        )
        exported.save(folder / CONFIG_NAME)
        (folder / "README.md").write_text(_readme(exported, written, train_key, eval_key), encoding="utf-8")

    if out.is_dir():  # empty, or the person chose to write over its files: written in place (a mount
        # point or a folder in a read-only parent cannot be swapped for a new one)
        before = set(out.iterdir())
        try:
            fill(out)
        except BaseException:
            for entry in set(out.iterdir()) - before:  # what this export added: a failed one leaves nothing new
                with contextlib.suppress(OSError):  # the export's own error is the one to say
                    remove_entry(entry)
            raise
    else:  # written whole beside its place, then renamed in
        create_folder(out, fill, parents=True)  # a new folder in new folders, as check_folder_path allows
    return out


@dataclass(frozen=True)
class Bundled:
    """One data file an export copies: where it was read, where it went, how many rows."""

    split: str
    source: str
    file: str
    rows: int
    format: str


def export_config_run(config: TrainConfig, out_dir: str | os.PathLike[str], *, config_dir: str | os.PathLike[str] | None = None,
                      given: Iterable[str] = (), **kw: Any) -> tuple[Path, list[Bundled]]:
    """Export the data a config names (its files, or its GLUE task folder) with the config;
    returns the folder and what was bundled from where.

    ``config_dir``: the folder of the run config file the settings came from. The data paths
    it names must lie inside that folder, unless they are in ``given`` (typed on the command
    line): an export copies files into a folder meant to be shared, so a run.toml from
    someone else must not be able to name ``~/.ssh/id_rsa`` as its training file.

    The full sets are exported and the ``max_*_examples`` caps stay in run.toml, so the
    exported run draws the same subset as the original."""
    from bertstudio.train.sources import load_sets

    if config_dir is not None:
        _check_inside(config, Path(config_dir), set(given))
    train, dev = load_sets(replace(config, max_train_examples=None, max_eval_examples=None))  # hold_out applied
    splits = {"train": train}
    if dev is not None:
        splits["dev"] = dev
    folder = export_run(config, splits, out_dir, **kw)
    bundled = []
    for split, examples in splits.items():
        fmt, ext = _data_format(examples)
        file = next((f for f in (f"{DATA_DIR}/{split}{ext}", f"{DATA_DIR}/{split}.jsonl") if (folder / f).is_file()), "")
        bundled.append(Bundled(split, str(examples.source or "(in memory)"), file, len(examples), Path(file).suffix.lstrip(".")))
    return folder, bundled


_DATA_SETTINGS = {"train_file": "--train", "eval_file": "--eval", "data_dir": "--data-dir"}


def _check_inside(config: TrainConfig, base: Path, given: set[str]) -> None:
    base = base.resolve()
    for name, flag in _DATA_SETTINGS.items():
        value = getattr(config, name)
        if not value or name in given:
            continue
        if not Path(value).expanduser().resolve().is_relative_to(base):
            raise ConfigError(f"{value} is outside the run config's folder {base}, so it is not bundled unasked",
                              where=name, expected=f"a file inside that folder, or the path given on the command line ({flag} {shell_quote(value)})")
        if name == "data_dir":  # the files in it too: a link in there can point anywhere
            outside = _link_outside(Path(value).expanduser(), base)
            if outside is not None:
                raise ConfigError(f"{outside} links to a file outside the run config's folder {base}, so it is not bundled unasked",
                                  where=name, expected=f"the data itself in that folder, or the folder given on the command line ({flag} {shell_quote(value)})")


def _link_outside(folder: Path, base: Path, depth: int = 2) -> Path | None:
    """The first entry of ``folder`` (and its sub-folders, ``depth`` levels) that resolves outside ``base``."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return None  # an unreadable folder is the reader's to report
    for entry in entries:
        if not entry.resolve().is_relative_to(base):
            return entry
        if depth > 1 and entry.is_dir():
            found = _link_outside(entry, base, depth - 1)
            if found is not None:
                return found
    return None


def _readme(config: TrainConfig, written: Mapping[str, tuple[str, str, int]], train_key: str, eval_key: str | None) -> str:
    title = config.glue_task or f"{config.task} task"
    lines = [
        f"# bertstudio run: {title}",
        "",
        "Start it from inside this folder:",
        "",
        "```",
        "bertstudio train --config run.toml",
        "```",
        "",
        "Data-parallel with Hugging Face Accelerate (N processes, same config, no code change):",
        "",
        "```",
        "accelerate launch --num_processes 2 -m bertstudio train --config run.toml            # 2+ GPUs",
        "accelerate launch --multi_gpu --num_processes 2 -m bertstudio train --config run.toml  # CPU only (gloo)",
        "```",
        "",
        f"Results go to `{config.output_dir}/` (config, history.jsonl, metrics.json, predictions.jsonl, model/).",
        "",
        "## Contents",
        "",
        "| split | file | format | rows | used as |",
        "|---|---|---|---|---|",
    ]
    for name, (rel, fmt, rows) in written.items():
        use = "training" if name == train_key else "evaluation" if name == eval_key else "not used by run.toml"
        lines.append(f"| {name} | `{rel}` | {fmt} | {rows} | {use} |")
    lines += ["", f"- task kind: {config.task}" + (f" (GLUE {config.glue_task})" if config.glue_task else "")]
    if config.labels:
        lines.append(f"- labels in id order: {', '.join(config.labels)}")
    lines.append(f"- model: {config.model or 'the bundled all-MiniLM-L6-v2'}")
    lines.append(
        f"- settings: {config.epochs} epochs, lr {config.lr}, batch {config.batch_size} x {config.grad_accum} accumulation, "
        f"max length {config.max_length}, seed {config.seed}, mode {config.mode}"
    )
    lines.append("")
    return "\n".join(lines)
