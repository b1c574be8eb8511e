"""The run folder, written and read here only: what a run leaves behind for the GUI,
the CLI and a re-run.

``config.toml``, ``history.jsonl`` (one event per line, flushed as written so
another process can follow the run live), ``metrics.json``, ``predictions.jsonl``
(one row per evaluated example: ``index``, ``gold``, the prediction, a ``fingerprint`` of the
example's inputs so two runs' rows pair by example, and ``split`` / ``row`` when the examples came
from a project, so a prediction maps back to the row it was made for), ``model/`` and ``checkpoints/{best,last}``; an MNLI run that ``bertstudio glue`` also scored on
the mismatched dev set holds that evaluation's ``metrics.json`` and ``predictions.jsonl`` in
``mismatched/`` (:func:`write_mismatched`; the scoreboard's MNLI-mm). Whole-file writes are
atomic (:mod:`bertstudio.data.atomic`). Runs written before predictions carried
their rows kept the mapping in ``eval_rows.json``, which :func:`read_predictions`
still reads.

A run never deletes what it did not write. It starts in a new or empty folder;
a non-empty one is accepted only to resume an unfinished run of the same
settings there, or with ``overwrite``, which replaces bertstudio's own files
(the names above) and keeps everything else. :func:`check_output_dir` is that
rule; the engine asks it before building anything and again when it creates
the folder.

``overwrite`` is refused while ``model/`` or ``checkpoints/`` hold a file no run writes
(notes a user put beside the weights would go with the folder), and it is undone when
the new run fails: the earlier run's files wait in ``.overwritten-run/`` until the new
run ends, and come back if it failed (:meth:`RunFolder.settle`).

The process writing a run holds an OS lock on the run folder (the project lock's,
:func:`bertstudio.data.project_lock.lock_run_folder`: a folder flock, on Windows a lock
on ``.writer.lock`` inside it) until the run has ended. A second
training into the same folder is refused while it is held, and a reader tells a run
still being written from one whose process was killed or crashed (its history has
no end, and nobody holds the lock): "interrupted", which :func:`read_run` says with
the command that continues it.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import functools
import hashlib
import json
import logging
import math
import os
import re
import shutil
import socket
import sys
import threading
import unicodedata
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Mapping

from bertstudio.data import atomic
from bertstudio.data.atomic import (atomic_write_text, check_folder_path, file_in_use, remove_leftovers,
                                    replace_folder)
from bertstudio.data.project_meta import load_meta
from bertstudio.data.project_store import RUNS_DIR, unportable_name
from bertstudio.data.project_lock import RUN_LOCK_FILE, lock_run_folder, run_folder_locked, unlock_folder
from bertstudio.data.regular_file import read_regular_file
from bertstudio.data.shell import shell_quote
from bertstudio.errors import ConfigError, DataError, Said, TrainingError  # Said: its home is errors; imported from here too
from bertstudio.data.kinds import kind_names
from bertstudio.train.config import TrainConfig, fit_doc_stride, maps_examples, read_settings, unused_settings
from bertstudio.train.events import (Event, PhaseChanged, RunFinished, RunStarted, event_from_dict, event_to_dict,
                                     is_number)

log = logging.getLogger(__name__)

CONFIG, HISTORY, METRICS, PREDICTIONS, MODEL, CHECKPOINTS = (
    "config.toml", "history.jsonl", "metrics.json", "predictions.jsonl", "model", "checkpoints")
# metrics.json's keys beside the metrics (which are numbers): objects, which number-only readers skip
LAST_EVALUATION, ONE_ANSWER = "last_evaluation", "one_answer"
STATE = "state.json"  # a checkpoint is complete once its state is written (train/checkpoint.py)
BEST_PREDICTIONS = "predictions.jsonl"  # the best evaluation's rows, beside its weights
BASE_MODEL = "base_model"  # state.json: the base model's fingerprint (base_model_fingerprint)
# A project run's label ids (the project's stable ids of config.labels, see data/project_meta.py),
# written by the app into the new folder before the run starts; not a setting, so not in config.toml.
LABEL_IDS = "label_ids.json"
EVAL_ROWS = "eval_rows.json"  # older runs: which project split and rows were evaluated
MISMATCHED = "mismatched"  # the run's model scored on MNLI's dev_mismatched.tsv (see the module docstring)
OWN_NAMES = frozenset({CONFIG, HISTORY, METRICS, PREDICTIONS, MODEL, CHECKPOINTS, EVAL_ROWS, "cartography.jsonl",
                       MISMATCHED, LABEL_IDS})
_FOLDERS = frozenset({MODEL, CHECKPOINTS, MISMATCHED})  # the own names that are folders
# Where an overwritten run's files wait until the new run has ended (see the module docstring).
REPLACED = ".overwritten-run"
# What a run writes inside model/ (transformers' model and tokenizer files, the embedding
# classifier's own) and inside each checkpoints/<name>/ folder; fnmatch patterns.
_MODEL_FILES = ("config.json", "generation_config.json", "*.safetensors", "model.safetensors.index.json",
                "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
                "vocab.txt", "vocab.json", "merges.txt", "*.model", "chat_template.jinja", "embedding_classifier.json")
_CHECKPOINT_FILES = ("weights.pt", "optimizer.pt", "rng.pt", "start.pt", "state.json", "predictions.jsonl")
# Settings that say how to start a run, not what it computes: a resume may change them.
_LAUNCH_SETTINGS = frozenset({"resume_from", "overwrite", "output_dir"})
_PATH_SETTINGS = ("train_file", "eval_file", "data_dir", "resume_from")


def run_name(project: str, config: TrainConfig, when: dt.datetime | None = None) -> str:
    """A name that says what the run is: project, mode (or SetFit, whose encoder is frozen
    after its contrastive phase: "frozen" named it as a plain linear probe), the key setting
    and when it started, e.g. ``sst2-full-lr2e-5-1201-0412``, ``proj-setfit-lr2e-5-1205-2248``
    (month-day, hour-minute). Folders are never reused: the project adds ``-2``, ``-3`` to a
    name that is taken."""
    slug = re.sub(r"[^0-9a-z]+", "", project.lower())[:24] or "run"
    lr = f"{config.lr:g}".replace("e-0", "e-")
    mode = config.mode + (f"-r{config.lora_rank}" if config.mode == "lora" else "")
    if config.method == "setfit":
        mode = "setfit"
    return f"{slug}-{mode}-lr{lr}-{(when or dt.datetime.now()).strftime('%m%d-%H%M')}"


_RUN_NAME_CHARS = 120
_NAME_BYTES = 255

# Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties.txt), written out by hand:
# unicodedata does not tell it, and the regex module that does is no dependency of ours (a test checks
# the table against it). Fonts draw these as nothing. Beside them, symbols drawn blank: the braille
# blank U+2800 and the musical null notehead U+1D159 (the blank Hangul fillers are in the set).
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
_BLANK_LOOKING = frozenset("\u2800\U0001D159")


def shown_by_code(c: str) -> bool:
    """Whether the character ``c`` of a run's name is shown by its code ("<U+3164>") wherever the
    name is shown (the app's ``visible_run_name``): a C1 control, a line or paragraph separator, a
    format character or a lone surrogate, a default-ignorable one (a variation selector, the
    combining grapheme joiner) or a letter drawn blank (a Hangul filler, the braille blank). Shown
    as itself, "a\\uFE0F" read "a", the same as the run "a", and "\\u3164" read as nothing."""
    code = ord(c)
    return (0x80 <= code <= 0x9F or c in "\u2028\u2029" or c in _BLANK_LOOKING
            or unicodedata.category(c) in ("Cf", "Cs") or any(lo <= code <= hi for lo, hi in _IGNORABLE))


def rename_run(folder: str | Path, name: str) -> Path:
    """Rename a run folder in place (same parent); ConfigError for a name that is no plain
    folder name or is taken. Nothing inside changes: a run folder names no path to itself."""
    folder, name = Path(folder), name.strip()
    hidden = [c for c in name if shown_by_code(c)]
    if hidden:  # the app would show it by code: "\u3164" was accepted (a letter to \w) and read blank
        codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" for c in hidden))
        raise ConfigError(f"{name!r} holds {codes}: such characters show as nothing, or make a name look like another",
                          path=folder, where="run name", expected="a name of letters that can be seen")
    if not re.fullmatch(r"[\w][\w.-]*", name):
        raise ConfigError(f"{name!r} is not a usable run name", path=folder, where="run name",
                          expected="letters, digits, '.', '-' and '_' only")
    size = len(name.encode("utf-8"))
    if len(name) > _RUN_NAME_CHARS or size > _NAME_BYTES:
        # said so: 127 "é" were refused as not letters, and 100 "中" (300 bytes) failed with the
        # system's "File name too long"; a folder name holds 255 bytes on Linux and macOS
        raise ConfigError(f"{name[:40]!r}… is {len(name)} characters ({size} bytes in UTF-8) long", path=folder,
                          where="run name", expected=f"at most {_RUN_NAME_CHARS} characters and {_NAME_BYTES} bytes "
                          "in UTF-8: 85 Chinese characters")
    unportable = unportable_name(name)
    if unportable is not None:  # run folders are copied between machines
        raise ConfigError(unportable, path=folder, where="run name", expected="a name that works on every system")
    target = folder.with_name(name)
    if folder.name == name:  # the names, not the paths: Windows paths are equal whatever the case
        return folder
    try:  # a training writing the run would go on writing under the old name (see hold_run_folder)
        lock = lock_run_folder(folder)
    except OSError as exc:
        raise ConfigError(f"the run folder cannot be opened ({exc.strerror or exc})", path=folder, where="run name") from None
    if lock == -1:
        raise ConfigError("a training is writing this run now", path=folder, where="run name",
                          expected="the run renamed once it has ended")
    exists = ConfigError("a run of that name exists", path=target, where="run name", expected="another name")
    if atomic.WINDOWS or _same_folder(folder, target):
        # Windows never renames onto a folder (MoveFileEx: "Access is denied"), but its rename
        # refuses any existing name at once, which is the claim. It also refuses a folder holding
        # a file that is open, so the lock file is let go first: a training that takes it
        # meanwhile holds it open, and the rename is refused. A change of case only (Run1 to
        # run1) on a case-insensitive disk is a rename of the folder onto itself.
        unlock_folder(lock)
        lock = None
        try:
            os.rename(folder, target)
        except FileExistsError:
            raise exists from None
        except OSError as exc:
            if file_in_use(exc, folder=True):  # Windows: 32 for the folder itself, 5 for a file open in it
                raise ConfigError("a file in this run is open, or another program is using the folder (a training "
                                  "writing it, a console in it, an editor or a viewer of its files)", path=folder,
                                  where="run name", expected="the file or the program closed, then the run renamed "
                                  "again") from None
            raise
        return target
    try:
        try:
            target.mkdir()  # claims the name: a folder made meanwhile is never replaced
        except FileExistsError:
            raise exists from None
        try:
            os.replace(folder, target)  # onto the empty folder just made: one rename, nothing copied
        except OSError:
            target.rmdir()
            raise
    finally:
        unlock_folder(lock)
    return target


def _same_folder(folder: Path, target: Path) -> bool:
    """Whether ``target`` names ``folder`` itself: a change of case on a case-insensitive file system.
    Only names that differ in case alone are asked (samefile follows links: a link named like the
    target, runs/best -> run1, is another name that is taken)."""
    if folder.name == target.name or folder.name.casefold() != target.name.casefold():
        return False
    try:
        return os.path.samefile(folder, target)
    except OSError:
        return False


def jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


# --- may a run write here? ----------------------------------------------------------------


def check_output_dir(config: TrainConfig) -> None:
    """Raise ConfigError unless ``config.output_dir`` may receive this run (see the module docstring)."""
    if not config.output_dir:
        return
    root = check_folder_path(config.output_dir, where="output_dir")  # before the model loads; a file is refused
    _refuse_model_in_run(config, root)
    if not root.is_dir():
        return
    try:
        # (Windows) a writer's lock, not a file of a run; the label ids the app records before the run starts
        names = {p.name for p in root.iterdir()} - {RUN_LOCK_FILE, LABEL_IDS}
    except OSError as exc:
        raise ConfigError(f"cannot read the run folder: {exc.strerror or exc}", path=root, where="output_dir") from None
    if not names:
        return
    if writer_active(root):
        raise _being_written(root)
    link = _own_link(root)
    if link is not None and (config.resume_from or config.overwrite):
        # a resume appends to history.jsonl and drops checkpoints/last: through a link, a file or a
        # checkpoint outside the folder (a received run's "history.jsonl -> ~/.bashrc")
        raise ConfigError("is a link, which no run writes (a run writes and deletes its files here)", path=link,
                          where="output_dir", expected="the run's own file or folder, or a new folder for the run")
    try:  # a damaged config.toml is said in the error below, not also as a warning before it
        saved = read_config(root)
    except ConfigError:
        saved = None
    if config.resume_from:
        if saved is None:
            raise ConfigError("this folder holds no bertstudio run to resume", path=root, where="output_dir",
                              expected="the folder of the run being resumed, or a new folder")
        refuse_finished(config)
        odd = _folder_under_a_file_name(root)  # (links among the run's names were refused above)
        if odd is not None:  # metrics.json a folder: the resume trained to the end, then failed writing it
            raise ConfigError("is a folder where the run writes a file", path=odd, where="output_dir",
                              expected="the run's own file, or a new folder for the run")
        why = resume_model_problem(saved.model, config.model, checkpoint_state(config.resume_from))
        if why is not None:  # before differences: a moved model is said as such, not as "other settings (model)"
            raise ConfigError(str(why), path=root, where="model")
        changed = differences(saved, config)
        if changed:
            raise ConfigError(f"the run in this folder has other settings ({', '.join(changed)})", path=root, where="output_dir",
                              expected="the same settings to resume it (e.g. --config with its config.toml), or a new folder")
        return
    if config.overwrite:
        clash = sorted(names & OWN_NAMES)
        if (saved is None or not is_run_folder(root, saved)) and clash:
            damage = run_damage(root, saved)
            if damage is not None:  # a run whose history was cut short read as "not a bertstudio run"
                raise ConfigError(f"{damage.problem}: the run's history is damaged, so this folder is not read as a "
                                  f"run whose {', '.join(clash)} may be replaced", path=damage.path,
                                  where=damage.where, expected="the history.jsonl the run wrote, or a new folder")
            raise ConfigError(f"this folder is not a bertstudio run, but holds {', '.join(clash)}, which a run would replace",
                              path=root, where="output_dir", expected="a new or empty folder")
        clashing = _input_in_the_way(config, root)
        if clashing is not None:
            raise ConfigError(f"the {clashing[0]} is one of the run's own files here, which --overwrite replaces",
                              path=clashing[1], where="output_dir",
                              expected="the data moved out of the run folder, or a new folder for the run")
        foreign = not_written_by_a_run(root)
        if foreign is not None:
            what = "folder" if foreign.is_dir() and not foreign.is_symlink() else "file"
            raise ConfigError(f"--overwrite would delete this {what}, which no run writes", path=foreign, where="output_dir",
                              expected=f"the {what} moved out of the run folder, or a new folder for the run")
        return
    hint = ""
    if saved is not None and not run_finished(root) and (resume := resume_command(root)):
        hint = f"; it holds an unfinished run (continue it with: {resume})"
    raise ConfigError("the run folder is not empty" + hint, path=root, where="output_dir",
                      expected="a new or empty folder, or --overwrite to replace bertstudio's own files there "
                               "(other files are kept)")


def _refuse_model_in_run(config: TrainConfig, root: Path) -> None:
    """The model a run starts from is never inside the folder the run writes (``--model RUN/model
    --out RUN --overwrite`` replaced the very weights being read), nor the run inside the model's
    folder (``--out RUN/model`` mixed a run's files into a model folder, later read as that model)."""
    model = config.model
    if not model:
        return
    try:
        folder = Path(model).expanduser()
        if not folder.is_dir():
            return  # a Hub id (or a missing folder, which the model check names)
        folder, target = folder.resolve(), root.resolve()
    except (OSError, RuntimeError, ValueError):
        return  # the model check names a path that cannot be read
    if folder == target:
        raise ConfigError("the run would write into the folder of the model it starts from", path=root,
                          where="output_dir", expected=f"another --out: a new folder outside {folder}")
    if folder.is_relative_to(target):  # --out / or --out ~ said "into the folder of the model"
        raise ConfigError(f"holds the model the run starts from ({folder}), which the run's files would mix with",
                          path=root, where="output_dir", expected=f"another --out: a new folder outside {folder}")
    if target.is_relative_to(folder):
        raise ConfigError("the run folder would be inside the model folder it reads", path=root, where="output_dir",
                          expected=f"another --out: a new folder outside {folder}")


def saved_config(root: Path) -> TrainConfig | None:
    """The settings of the run in ``root`` (None: no readable config.toml, so not a bertstudio
    run; a damaged one is logged). See :func:`read_config`."""
    try:
        return read_config(root)
    except ConfigError as exc:
        log.warning("unreadable run config in %s: %s", root, exc)
        return None


def read_config(root: str | os.PathLike[str]) -> TrainConfig | None:
    """The settings of the run in ``root``, checked as TrainConfig checks any settings file
    (None: the folder has no config.toml; ConfigError naming the file for a damaged one). How it
    was launched (output folder, resume, overwrite) is not read: a run folder copied or synced
    elsewhere still names its old place there."""
    path = Path(root) / CONFIG
    if not os.path.lexists(path):
        return None
    if not path.is_file():  # a folder, or a FIFO that would block the read
        raise ConfigError("not a regular file", path=path, expected="the run's settings as TOML")
    settings = read_settings(path, given=_LAUNCH_SETTINGS)
    if settings.get("cartography") is True and settings.get("task") in kind_names() \
            and not maps_examples(settings["task"]):
        # a score run of before TrainConfig refused it recorded the setting and wrote no map: the run
        # is still read (as what it did), not refused as a damaged folder
        settings["cartography"] = False
    return TrainConfig.from_dict(settings, source=str(path))


def is_run_folder(root: Path, saved: TrainConfig | None = None) -> bool:
    """Whether ``root`` holds a run bertstudio started: a readable config.toml AND a history.jsonl with
    at least one event. A config.toml alone proves nothing (an empty file, or one with a few known
    keys, reads as a TrainConfig of defaults), and --overwrite deletes what a run wrote."""
    saved = saved if saved is not None else saved_config(root)
    return saved is not None and bool(read_history(root))


def run_damage(root: Path, saved: TrainConfig | None) -> DataError | None:
    """Why ``root``, whose config.toml reads as ``saved``, holds a run although it does not read as
    one: its history.jsonl holds text but no event (cut short, or not an event), or nothing at all
    (a run writes its first event as it starts: an empty file beside its settings is what a crash or
    power loss leaves). None where ``saved`` is None (no run's settings there), or the history is
    sound or missing. A folder so damaged is still a run's: its files are not replaced as a
    stranger's are."""
    if saved is None:
        return None
    path = root / HISTORY
    try:  # (a zero-filled one is text, which history_damage names by its first line)
        empty = path.is_file() and path.stat().st_size <= 4096 and not path.read_bytes().strip()
    except OSError:
        empty = False
    if empty:
        return DataError("empty", path=path)
    return history_damage(root)


def run_folder_around(folder: str | os.PathLike[str]) -> Path | None:
    """The run folder that ``folder`` is or lies inside (its checkpoints/best, mismatched/, or any
    folder further down), a run whose history is damaged (:func:`run_damage`) included; None where
    neither ``folder`` nor any folder above it holds a run. Links are followed: a link into a run
    writes into the run."""
    def holds_run(candidate: Path) -> bool:
        if not os.path.lexists(candidate / CONFIG):  # no run's settings: no run (and nothing read)
            return False
        try:
            saved = read_config(candidate)
        except (ConfigError, DataError, OSError):
            return False  # a damaged or unreadable config.toml proves no run (check_output_dir's rule)
        return saved is not None and (is_run_folder(candidate, saved) or run_damage(candidate, saved) is not None)

    return folder_around(folder, holds_run)


def folder_around(folder: str | os.PathLike[str], is_it: Callable[[Path], bool]) -> Path | None:
    """The nearest of ``folder`` (links followed) and the folders above it for which ``is_it`` holds
    (a folder it cannot read is not it); None where none is."""
    try:
        here = Path(folder).expanduser().resolve()
    except (OSError, RuntimeError):
        return None
    for candidate in (here, *here.parents):
        try:
            if is_it(candidate):
                return candidate
        except OSError:
            continue
    return None


def finished_run_error(root: Path, *, where: str, expected: str = "a new folder for a new run") -> ConfigError:
    """The one refusal of a resume of a finished run, whichever path named it (the run folder,
    its checkpoints/best, a config's resume_from)."""
    return ConfigError("the run in this folder has finished; there is nothing to resume", path=root, where=where,
                       expected=expected)


def refuse_finished(config: TrainConfig) -> None:
    """ConfigError when ``config`` resumes a run whose folder holds a finished run."""
    root = Path(config.output_dir).expanduser() if config.output_dir else None
    if root is not None and root.is_dir() and run_finished(root):
        raise finished_run_error(root, where="output_dir")


def run_finished(root: Path) -> bool:
    """Whether the run's history ends with a successful finish (a cancelled, failed or
    crashed run is unfinished)."""
    ended = [e for e in read_history(root, kinds=(RunFinished.kind,)) if isinstance(e, RunFinished)]
    return bool(ended) and ended[-1].status == "finished"


def differences(saved: TrainConfig, config: TrainConfig) -> list[str]:
    """The settings (other than how to start, records such as auto_reason, and those neither run
    reads, compare_runs.settings_diff's rule) in which ``config`` differs from ``saved``. Where the
    data files are is no setting of a resume whose checkpoint keeps fingerprints of its training
    and evaluation rows: the engine compares the rows (engine._same_data), and a run folder copied
    with its data, resumed with ``--train NEWPATH``, was refused as "other settings (train_file)"."""
    a, b = _comparable(saved), _comparable(config)
    unused = unused_settings(saved.mode, saved.task) & unused_settings(config.mode, config.task)
    if config.resume_from and keeps_fingerprints(config.resume_from):
        unused = unused | {"train_file", "eval_file", "data_dir"}
    if config.resume_from and isinstance(checkpoint_state(config.resume_from).get(BASE_MODEL), str):
        unused = unused | {"model"}  # compared by its files' fingerprint: resume_model_problem
    return [f.name for f in fields(TrainConfig)
            if f.name not in _LAUNCH_SETTINGS and f.name not in unused and not f.metadata["record"]
            and a[f.name] != b[f.name]]


def keeps_fingerprints(checkpoint: str | Path) -> bool:
    """Whether the checkpoint at ``checkpoint`` keeps fingerprints of its training and evaluation
    rows, which make where the data files are no setting of its resume (the engine compares the
    rows, engine._same_data). Checkpoints written before they were kept resume only with their
    files where they were. The one home of this rule: :func:`differences` and
    :func:`not_resumable` (the advice it gives) read it here."""
    found = find_checkpoint(checkpoint)
    try:
        state = read_state(found) if found is not None else None
    except ConfigError:
        return False  # the resume's own checks say what is wrong with it
    return _keeps_fingerprints(state)


def _keeps_fingerprints(state: dict[str, Any] | None) -> bool:
    """:func:`keeps_fingerprints` of a state.json already read."""
    return state is not None and isinstance(state.get("data"), dict) and "eval_data" in state


def checkpoint_state(checkpoint: str | Path) -> dict[str, Any]:
    """The state.json of the checkpoint at ``checkpoint`` ({}: none, or unreadable; the resume's
    own checks say what is wrong with it)."""
    found = find_checkpoint(checkpoint)
    try:
        return read_state(found) if found is not None else {}
    except ConfigError:
        return {}


# The base model's files that make a run what it is, besides the weights a checkpoint holds whole:
# its architecture and its tokenizer (tasks/limits.TOKENIZER_FILES and what goes with them)
_BASE_MODEL_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
                     "added_tokens.json", "vocab.txt", "vocab.json", "merges.txt", "*.model")


def base_model_fingerprint(model: str | None) -> str | None:
    """A hash of the config and tokenizer files of the local model folder ``model`` (None: a Hub id,
    or no folder there), which every checkpoint keeps (state.json ``base_model``). A resume rebuilds
    the model from its base and loads the checkpoint's full weights over it, so a base with the same
    config and tokenizer gives the very same run, wherever it lies now (:func:`resume_model_problem`)."""
    from bertstudio.bundled import resolve_model

    folder = Path(resolve_model(model)).expanduser()
    if not folder.is_dir():
        return None
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if any(fnmatch.fnmatchcase(path.name, pattern) for pattern in _BASE_MODEL_FILES) and path.is_file():
            h.update(f"{path.name}\0{path.stat().st_size}\0".encode())
            h.update(read_regular_file(path))  # a FIFO there is refused, not read for ever
    return h.hexdigest()


def _local_model(model: str | None) -> Path | None:
    """``model`` as a local folder path when it names one (tasks.model.looks_like_path, the rule
    the model check uses), whether or not it exists; None for a Hub id or the bundled model."""
    from bertstudio.bundled import BUNDLED_NAMES
    from bertstudio.tasks.model import looks_like_path

    if model is None or model in BUNDLED_NAMES:
        return None
    path = Path(model).expanduser()
    return path if path.exists() or looks_like_path(model) else None


_FINGERPRINT = re.compile(r"[0-9a-f]{32}")  # base_model_fingerprint: blake2b, 16 bytes, hex


def resume_model_problem(saved_model: str | None, model: str | None, state: Mapping[str, Any], *,
                         command_line: bool = True) -> Said | None:
    """Why a resume of a run that started from ``saved_model`` (its config.toml) cannot go on from
    ``model`` (the one given now; the same when none is given), its checkpoint's state.json being
    ``state``: the folder is missing, or its config or tokenizer files are not those the run started
    from (``base_model``). A checkpoint that keeps that fingerprint resumes from the same model
    anywhere (a run taken to another machine, its model copied elsewhere); one from before runs kept
    it only from the folder it started from. ``command_line``: the advice names ``--model`` (the app
    has no such choice). None when the resume can go on."""
    recorded = state.get(BASE_MODEL)
    if BASE_MODEL in state and not (isinstance(recorded, str) and _FINGERPRINT.fullmatch(recorded)):
        # a damaged checkpoint, said as such: a list was "written by an older bertstudio", a string
        # (the right hash in upper case) "not the base model the run started from"
        error = f"{STATE}, {BASE_MODEL}: not a model fingerprint (expected 32 hex digits)"
        return Said(f"its checkpoint cannot be read: {error}", "damaged_checkpoint", error=error)
    local = _local_model(model)
    if local is None and recorded is not None and model is not None and base_model_fingerprint(model) is None:
        local = Path(model).expanduser()  # only a folder is fingerprinted: the run's was one, and it is not there
    if local is not None and not local.exists():
        if recorded is None:
            return Said(f"its base model folder {local} is missing: put it back there (or a link there) to resume it; "
                        "its checkpoint, written by an older bertstudio, does not record which model it started from, "
                        "so a model folder elsewhere cannot be checked", "model_missing", folder=str(local), flags=[])
        said = f"its base model folder {local} is missing: put it back there (or a link there)"
        said += ", or resume with --model naming where it lies now" if command_line else " to resume it"
        return Said(said, "model_missing", folder=str(local), flags=["--model"] if command_line else [])
    if recorded is None:
        if _model_key(saved_model) != _model_key(model):
            return Said(f"its checkpoint, written by an older bertstudio, does not record which base model it started "
                        f"from, so {model} cannot be checked as the same one: resume it from {saved_model} (put the "
                        "model folder back there, or a link there)", "old_model", folder=str(saved_model))
        return None
    if base_model_fingerprint(model) != recorded:
        return Said(f"the model {model} is not the base model the run started from (its config or tokenizer files "
                    "differ)" + (": resume with --model naming that model's folder" if command_line else ""),
                    "model_changed", folder=str(model))
    return None


def _model_key(model: str | None) -> str | None:
    """``model`` as :func:`differences` compares it: a folder by its resolved path."""
    if model and Path(model).expanduser().is_dir():
        return str(Path(model).expanduser().resolve())
    return model


def read_state(folder: str | Path) -> dict[str, Any]:
    """A checkpoint's state.json, the one reader of it (checkpoint.read_state: here, torch-free,
    for the list of runs): a FIFO or a device there is refused before it is opened."""
    path = Path(folder) / STATE
    try:
        state = json.loads(read_regular_file(path).decode("utf-8"))
    except DataError as exc:
        raise ConfigError(f"cannot read the checkpoint: {exc.problem}", path=path) from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ConfigError("the checkpoint's state is not valid JSON", path=path, expected="a checkpoint written by bertstudio") from None
    if not isinstance(state, dict):
        raise ConfigError("the checkpoint's state is not a JSON object", path=path, expected="a checkpoint written by bertstudio")
    return state


def _comparable(config: TrainConfig) -> dict[str, Any]:
    # the QA overlap used: a run recorded before it was (doc_stride 128 at max length 128) used the same 31
    return _absolute(fit_doc_stride(config, say=False)).to_dict()


def _absolute(config: TrainConfig) -> TrainConfig:
    """Paths made absolute (relative ones are relative to the current folder, as the engine reads them)."""
    paths = {name: str(Path(v).expanduser().resolve()) for name in _PATH_SETTINGS if (v := getattr(config, name))}
    return replace(config, **paths, model=_model_key(config.model))


def _leftover(name: str) -> bool:
    """A temporary name atomic writes leave after a crash (``.NAME.<pid>.tmp`` / ``.old``)."""
    return name.startswith(".") and name.endswith((".tmp", ".old"))


def not_written_by_a_run(root: Path) -> Path | None:
    """The first entry inside ``root``'s model/ or checkpoints/ that no run writes (None: none).
    A symlink counts as foreign: what it points to is the user's."""
    def foreign(folder: Path, patterns: tuple[str, ...], depth: int) -> Path | None:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return folder
        try:
            entries = sorted(folder.iterdir()) if folder.is_dir() else []
        except OSError:
            return folder
        for entry in entries:
            if _leftover(entry.name) and not entry.is_symlink():
                continue
            if entry.is_symlink():
                return entry
            if depth and entry.is_dir():
                found = foreign(entry, patterns, depth - 1)
            else:
                found = None if entry.is_file() and any(fnmatch.fnmatchcase(entry.name, p) for p in patterns) else entry
            if found is not None:
                return found
        return None

    found = (foreign(root / MODEL, _MODEL_FILES, 0) or foreign(root / CHECKPOINTS, _CHECKPOINT_FILES, 1)
             or foreign(root / MISMATCHED, (METRICS, PREDICTIONS), 0))
    if found is not None:
        return found
    return _folder_under_a_file_name(root)


def _folder_under_a_file_name(root: Path) -> Path | None:
    """A folder (not a link) under one of the names a run writes a file to: it is the user's."""
    for name in sorted(OWN_NAMES - _FOLDERS):
        entry = root / name
        if entry.is_dir() and not entry.is_symlink():
            return entry
    return None


def _own_link(root: Path) -> Path | None:
    """The first of the run's own names in ``root`` (or checkpoints/best, /last) that is a link."""
    for entry in [root / name for name in sorted(OWN_NAMES)] + [root / CHECKPOINTS / n for n in ("best", "last")]:
        if entry.is_symlink():
            return entry
    return None


def _input_in_the_way(config: TrainConfig, root: Path) -> tuple[str, Path] | None:
    """(which input, its path) when one of the run's own data files is something --overwrite
    replaces: ``--train RUN/metrics.json --out RUN --overwrite`` deleted the training file."""
    own = [root / name for name in OWN_NAMES]
    for what, value in (("training file", config.train_file), ("evaluation file", config.eval_file),
                        ("data folder", config.data_dir)):
        if not value:
            continue
        try:
            path = Path(value).expanduser().resolve()
            if any(path == p.resolve() or path.is_relative_to(p.resolve()) for p in own):
                return what, Path(value)
        except (OSError, RuntimeError):
            continue
    return None


def _own_entries(root: Path) -> list[Path]:
    """What an earlier run wrote in ``root`` (and its temporary leftovers), nothing else."""
    return [e for e in root.iterdir()
            if e.name in OWN_NAMES or (_leftover(e.name) and any(e.name[1:].startswith(own) for own in OWN_NAMES))]


def _remove(entry: Path) -> None:
    if entry.is_dir() and not entry.is_symlink():
        shutil.rmtree(entry)
    else:
        entry.unlink()


def _set_aside_own_files(root: Path) -> Path | None:
    """``overwrite``: move what an earlier run wrote here into ``root/.overwritten-run`` (renames
    only), so that a failing new run can put it back; None when there was nothing. A folder of
    that name left by a crash of an earlier overwrite holds a run the user already chose to replace."""
    entries = _own_entries(root)
    if not entries:
        return None
    aside = root / REPLACED
    if aside.exists() or aside.is_symlink():
        _remove(aside)
    aside.mkdir()
    for entry in entries:
        os.replace(entry, aside / entry.name)
    return aside


def _put_back(root: Path, aside: Path) -> None:
    """Undo :func:`_set_aside_own_files`: the new run's own files go, the earlier run's come back."""
    try:
        for entry in _own_entries(root):
            _remove(entry)
        for entry in aside.iterdir():
            os.replace(entry, root / entry.name)
        aside.rmdir()
    except OSError as exc:  # the earlier run stays in .overwritten-run, where the log says it is
        log.error("could not put the overwritten run back from %s: %s", aside, exc)


# --- writing ---------------------------------------------------------------------------

_LOCK_TRIES = 40  # x 50 ms: a reader's probe holds the lock for a moment (see writer_active)


def hold_run_folder(root: Path, *, where: str = "output_dir", what: str = "run folder") -> int | None:
    """Take the run folder's writer lock (None where the file system has no folder locks);
    ConfigError while another training holds it."""
    import time

    for _ in range(_LOCK_TRIES):
        try:
            fd = lock_run_folder(root)
        except OSError as exc:
            raise ConfigError(f"the {what} cannot be opened ({exc.strerror or exc})", path=root, where=where) from None
        if fd != -1:
            return fd
        time.sleep(0.05)
    raise _being_written(root, where=where, what=what)


def _being_written(root: Path, *, where: str = "output_dir", what: str = "run folder") -> ConfigError:
    return ConfigError(f"another training is writing this {what} now", path=root, where=where,
                       expected="another folder, or wait until that run has ended")


def writer_active(root: Path) -> bool | None:
    """Whether a process holds ``root``'s writer lock now: True, False, or None where it
    cannot be told (see :func:`bertstudio.data.project_lock.run_folder_locked`)."""
    return run_folder_locked(root)


class RunFolder:
    """Writes one run's files. Only the main process of a multi-process run makes one."""

    def __init__(self, root: str | Path, *, append: bool = False, lock: int | None = None) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock = lock if lock is not None else hold_run_folder(self.root)
        self.checkpoints = self.root / CHECKPOINTS
        self.best = self.checkpoints / "best"
        self.last = self.checkpoints / "last"
        self.model_dir = self.root / MODEL
        self.history_error: OSError | None = None
        self.replaced: Path | None = None  # an overwritten run's files, until settle()
        history = self.root / HISTORY
        if os.path.lexists(history) and not history.is_file():  # a FIFO would block the open below for ever
            raise ConfigError("not a regular file", path=history, expected="the run's history as JSON lines")
        # a resumed run appends to its history; a fresh run starts it anew; never through a link
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC) | getattr(os, "O_NOFOLLOW", 0)
        try:
            self._history: Any = os.fdopen(os.open(history, flags, 0o666), "a" if append else "w", encoding="utf-8")
        except OSError:
            if history.is_symlink():
                raise ConfigError("is a link, which no run writes", path=history,
                                  expected="the run's history as JSON lines") from None
            raise
        # what the folder and its history are, so that one removed or moved meanwhile is noticed (see gone())
        self._identity = (_identity(os.stat(self.root)), _identity(os.fstat(self._history.fileno())))

    @classmethod
    def start(cls, config: TrainConfig) -> "RunFolder":
        """The folder for ``config``'s run, after :func:`check_output_dir`; with ``overwrite``
        (and no resume) an earlier run's files are removed first, so none of them mixes with this run's."""
        assert config.output_dir
        check_output_dir(config)
        root = Path(config.output_dir).expanduser()
        root.mkdir(parents=True, exist_ok=True)
        lock = hold_run_folder(root)  # before anything in the folder moves
        aside = folder = None
        try:
            # a killed run's half-written copies (a model or checkpoint each): only this run writes here now
            for left in remove_leftovers((root, root / CHECKPOINTS)):
                log.info("removed %s, left by a run that was stopped mid-write", left)
            aside = _set_aside_own_files(root) if config.overwrite and not config.resume_from else None
            folder = cls(root, append=bool(config.resume_from), lock=lock)
            folder.replaced = aside
            folder.save_config(config)
        except BaseException:
            if folder is not None:
                folder._close_history()
            if aside is not None:
                _put_back(root, aside)
            unlock_folder(lock)
            raise
        return folder

    def settle(self, failed: bool) -> None:
        """At the end of a run, after :meth:`close`: for an ``overwrite`` run, a failed run's
        files are removed and the earlier run's put back, otherwise the earlier run's files are
        deleted; then the folder's lock is let go."""
        aside, self.replaced = self.replaced, None
        try:
            if aside is None:
                return
            if failed:
                _put_back(self.root, aside)
            else:
                shutil.rmtree(aside, onerror=lambda _f, path, exc: log.warning("could not remove %s: %s", path, exc[1]))
        finally:
            lock, self._lock = self._lock, None
            unlock_folder(lock)

    def save_config(self, config: TrainConfig) -> None:
        """config.toml re-runs from anywhere: data paths absolute, the output folder this one
        (``.``, relative to the file), never ``overwrite``, and no ``resume_from`` (a resumed
        run's file named its checkpoint, so re-running it failed once that was gone, or resumed)."""
        replace(_absolute(config), output_dir=".", overwrite=False, resume_from=None).save(self.root / CONFIG)

    def log_event(self, event: Event) -> None:
        """Append to history.jsonl. The first write error (a full disk) is raised, so the run
        fails with it; after that the history is closed and later events (the failure
        itself) only reach the callbacks. A failed write of the final event is only logged."""
        if self._history is None or isinstance(event, PhaseChanged):  # what happens now, not a record
            return
        gone = self.gone()
        if gone is not None:  # written on, the run "finished" into a deleted file and re-created the folder
            self._close_history()
            if event.kind != "finished":  # the end of a run is being reported anyway
                raise gone
            return
        try:
            self._history.write(json.dumps(event_to_dict(event), ensure_ascii=False) + "\n")
            self._history.flush()
        except OSError as exc:
            self.history_error = exc
            self._close_history()
            if event.kind != "finished":  # the end of a run is being reported anyway
                raise

    def gone(self) -> TrainingError | None:
        """The error to stop the run with when its folder, or its history file, is no longer where the
        run made it (removed, moved, or replaced by another); None while both are. Writes by path would
        fail there or land in another folder, and the history's own writes went into a deleted file:
        a run folder removed mid-run came back as a "finished" run with no config.toml and no history."""
        def now(path: Path) -> tuple[int, int] | None:
            try:
                return _identity(os.stat(path))
            except OSError:
                return None

        root, history = self._identity
        history_gone = now(self.root / HISTORY) != history
        # (an rm -rf under way may have taken the history and config.toml but not yet the folder)
        if now(self.root) != root or (history_gone and not os.path.lexists(self.root / CONFIG)):
            return TrainingError("the run folder was removed or moved while the run was writing it", path=self.root)
        if history_gone:
            return TrainingError("the run's history was removed or moved while the run was writing it",
                                 path=self.root / HISTORY)
        return None

    def write_metrics(self, metrics: dict[str, float], *, last: dict[str, float] | None = None,
                      one_answer: dict[str, Any] | None = None) -> None:
        """The kept weights' metrics; beside them, when given, ``last_evaluation`` (the last
        evaluation's metrics, where the kept ones were selected on the evaluation set) and
        ``one_answer`` (metrics.classification.OneAnswer). Readers take the numbers at the top."""
        facts = {**({LAST_EVALUATION: dict(last)} if last else {}), **({ONE_ANSWER: one_answer} if one_answer else {})}
        atomic_write_text(self.root / METRICS, json.dumps({**metrics, **facts}, indent=2))

    def write_predictions(self, text: str) -> None:
        atomic_write_text(self.root / PREDICTIONS, text)

    def export_model(self, save: Any) -> Path:
        """Write ``model/`` through ``save(folder)`` into a temporary folder, then swap it in."""
        return replace_folder(self.model_dir, save)

    def drop_last(self) -> None:
        """Remove checkpoints/last (and a twin a crash mid-swap left), which a finished run no longer needs."""
        for folder in (f for f in (self.last, *self.checkpoints.glob(".last.*.old")) if f.exists()):
            shutil.rmtree(folder, onerror=lambda _f, path, exc: log.warning("could not remove %s: %s", path, exc[1]))

    def resumable(self) -> Path | None:
        """checkpoints/last when it is complete on disk (what a resume would start from)."""
        from bertstudio.train import checkpoint as ckpt

        found = find_checkpoint(self.last)  # (it also finds the copy a crash mid-swap leaves)
        return self.last if found is not None and (found / ckpt.OPTIMIZER).is_file() else None

    def best_on_disk(self) -> tuple[Path, int] | None:
        """(checkpoints/best, its step) when a complete best checkpoint is on disk."""
        found = find_checkpoint(self.best)
        if found is None:
            return None
        try:
            step = read_state(found).get("step")
        except ConfigError:
            return None
        return found, step if isinstance(step, int) else -1

    def _close_history(self) -> None:
        history, self._history = self._history, None
        if history is None:
            return
        try:
            history.close()
        except OSError as exc:  # the buffered tail could not be written: the file descriptor is closed anyway
            self.history_error = self.history_error or exc

    def close(self) -> None:
        self._close_history()
        if self.history_error is not None:
            log.info("history.jsonl in %s is incomplete: %s", self.root, self.history_error)


def _identity(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def record_label_ids(folder: str | Path, labels: list[str], ids: list[int], project: str | None = None) -> None:
    """Record with a project run the ids of its labels (``labels`` as config.toml will hold them)
    and whose they are (``project``: the project's uid), so that its predictions are read under the
    project's names of today after renames."""
    atomic_write_text(Path(folder) / LABEL_IDS, json.dumps({"labels": list(labels), "ids": [int(i) for i in ids],
                                                            "project": project}))


def unstarted_label_ids(folder: str | Path) -> None:
    """Remove the label ids recorded in ``folder`` when they are all it holds (a run refused or
    cancelled before it wrote anything), so that the empty folder can go."""
    try:
        if [p.name for p in Path(folder).iterdir()] == [LABEL_IDS]:
            (Path(folder) / LABEL_IDS).unlink()
    except OSError:
        pass


def label_ids_project(folder: str | Path) -> str | None:
    """The uid of the project whose label ids the run in ``folder`` recorded (None: none recorded)."""
    try:
        data = read_json(Path(folder) / LABEL_IDS)
    except (ConfigError, DataError, OSError):
        return None
    project = data.get("project") if isinstance(data, dict) else None
    return project if isinstance(project, str) and project else None


def read_label_ids(folder: str | Path, labels: list[str] | None, project: str | None) -> list[int] | None:
    """The label ids recorded for the run in ``folder``, when they are ``project``'s (its uid: every
    project numbers its labels from 0, so a run folder copied from another project would read its
    classes through this one's ids) and for ``labels`` (the run's config.labels); None when none were
    recorded, the file is damaged, or it was recorded for other labels (a later run overwrote the
    folder from the command line) or another project: names are then matched as they are."""
    if not labels or not project:
        return None
    if not (Path(folder) / LABEL_IDS).exists():
        return _ids_first_given(Path(folder), labels, project)
    try:
        data = read_json(Path(folder) / LABEL_IDS)
    except (ConfigError, DataError, OSError):
        return None
    if not isinstance(data, dict) or data.get("labels") != list(labels) or data.get("project") != project:
        return None
    ids = data.get("ids")
    if not isinstance(ids, list) or len(ids) != len(labels) or len(set(map(repr, ids))) != len(ids) \
            or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids):
        return None
    return ids


def _ids_first_given(folder: Path, labels: list[str], project: str) -> list[int] | None:
    """The ids of ``labels`` for a run that recorded none, from the names its project's labels had
    when they first got ids (project.json's ``label_ids_first``): only for a run in the runs/
    folder of the project ``project`` (its uid), started before that day, whose labels are all in
    that map. A run made then, under those names, follows later renames like today's runs; any
    other is read by name (None)."""
    meta = project_meta_of(folder)
    first = meta.get("label_ids_first") if meta is not None else None
    if meta is None or meta.get("uid") != project or not isinstance(first, dict) or not all(n in first["ids"] for n in labels):
        return None
    started, at = run_started_at(folder), _timestamp(first["at"])
    if started is None or at is None or started >= at:  # made since: by a bertstudio that kept no ids
        return None
    ids = [first["ids"][n] for n in labels]
    return ids if len(set(ids)) == len(ids) else None


def project_meta_of(folder: str | Path) -> dict[str, Any] | None:
    """project.json of the project whose runs/ folder holds the run folder ``folder`` (None: it
    lies in no project's runs/, or that project.json cannot be read). Read only, never written."""
    folder = Path(folder)
    if folder.parent.name != RUNS_DIR:
        return None
    try:
        return load_meta(folder.parent.parent).meta
    except (DataError, OSError):
        return None


def rows_then(started: float | None, info: Mapping[str, Any] | None, replaced: Iterable[Any] = ()) -> str | None:
    """For a run that recorded no lineage with its predictions (before runs kept it), which rows of a
    split it evaluated, told from the split's entry in project.json now (``info``), the times its rows
    were replaced (``replaced``: its kept backups' "replaced") and when the run started: the split's
    lineage of today ("" for none) when no replace came after the run (an append replaces nothing),
    else a mark that its rows were replaced since. None when the run's start is unknown: paired as
    before. (A split's "imported" time moves with every append, and a run copied in from elsewhere
    predates it: it hid rows no replace had touched.)"""
    if started is None:
        return None
    now = str((info or {}).get("lineage") or "")
    later = [when for when in map(_timestamp, replaced) if when is not None and when > started]
    return f"replaced since: {now}" if later else now


STARTED_HEAD_BYTES = 1 << 16  # of history.jsonl read for its RunStarted line (one is ~500 bytes)


def run_identity(folder: str | Path) -> tuple[int, int, float | None] | None:
    """A run folder's identity, which a rename keeps and another run does not share: its disk,
    its inode and its start (:func:`run_started_at`); None if unreadable. The inode alone took a
    run made after another was deleted for that run renamed (ext4 gives the new folder the old
    one's inode at once), and Results and the Playground followed it with nothing said."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return st.st_dev, st.st_ino, run_started_at(folder)


def followed_run(shown: Path, shown_id: tuple[int, int, float | None] | None,
                 runs: Iterable[Path]) -> tuple[Path | None, bool]:
    """Where the run shown from folder ``shown`` is now (``shown_id``: its :func:`run_identity`, read
    when it was shown), for a page that keeps showing one run while folders change on disk:
    ``shown`` while that folder still holds it; else the folder among ``runs`` with its identity
    (renamed outside bertstudio; two runs swapped by rename put it under the other's name); else
    None (deleted, or moved out of ``runs``). Second: whether ``shown`` now holds another run (a
    folder replaced, or swapped by rename), which a page must say or read again rather than show
    under the name picked. Only ``shown``'s identity is read while it is where it was; every
    listed run's only when it is not. With ``shown_id`` unknown (unreadable when shown) the
    folder is taken as it is. Results and the Playground follow their run by this one rule."""
    now = run_identity(shown)
    if shown_id is None or now == shown_id:
        return (shown if now is not None else None), False
    return next((r for r in runs if r != shown and run_identity(r) == shown_id), None), now is not None


def run_started_at(folder: str | Path) -> float | None:
    """When the run in ``folder`` started: its first RunStarted's time, else config.toml's mtime
    (written once, when the run starts); None when neither can be read. Only the history's head is
    read: the engine writes RunStarted first (a resume appends its own later), and a 42 MB history
    read whole held the Results page's GUI thread 0.5 s for this one time."""
    path = Path(folder) / HISTORY
    try:
        head = read_regular_file(path, missing_ok=True, head=STARTED_HEAD_BYTES) or b""
    except DataError as exc:
        log.warning("unreadable history: %s", exc)
        head = b""
    lines = head.decode("utf-8", errors="replace").split("\n")[:-1]  # complete lines only
    for event in parse_history(lines, path=path, kinds=(RunStarted.kind,)):
        when = event.started_at if isinstance(event, RunStarted) else None
        if isinstance(when, (int, float)) and not isinstance(when, bool) and math.isfinite(when) and when > 0:
            return float(when)
    try:
        return (Path(folder) / CONFIG).stat().st_mtime
    except OSError:
        return None


def _timestamp(text: Any) -> float | None:
    """An ISO time as project.json writes them (``imported``, ``label_ids_first``), in seconds
    since the epoch; None when it is no such time."""
    try:
        when = dt.datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)).timestamp()


def run_names_now(folder: str | Path, project: Any, *, kind: str | None = None) -> dict[str, str | None] | None:
    """The run in ``folder``'s label names -> ``project``'s names of today for the same classes
    (``project.names_now`` over the ids the run recorded, :func:`read_label_ids`; without them a name
    means today's label of that name). None: the run's config or labels cannot be read, or (``kind``
    given) the run is of another task."""
    try:
        config = read_config(folder)
    except ConfigError:
        return None
    labels = list(config.labels or []) if config is not None else []
    if not labels or not hasattr(project, "names_now") or (kind is not None and config.task != kind):
        return None
    return project.names_now(labels, read_label_ids(folder, labels, getattr(project, "uid", None)))

def prediction_rows(examples: Any, predictions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """predictions.jsonl rows: ``index``, ``split`` and ``row`` when the examples carry their
    project rows (see train/sources.rows_of), the example's :data:`FINGERPRINT` and ``gold``,
    then the prediction."""
    from bertstudio.train.sources import rows_of

    gold = examples.dataset[examples.gold_column]
    prints = fingerprints(examples)
    split, rows = rows_of(examples)
    lineage = examples.meta.get("lineage")
    at = {"lineage": lineage} if isinstance(lineage, str) else {}  # which rows: a later replace makes them others
    where = (lambda i: {"split": split, "row": rows[i], **at}) if rows is not None else (lambda i: {})
    return [{"index": i, **where(i), FINGERPRINT: prints[i], "gold": gold[i], **p} for i, p in enumerate(predictions)]


# A prediction's example, by what the model read: two runs' rows are the same example when their
# fingerprints agree, whichever file, order or filter each run evaluated (runs written before
# predictions carried one are paired by position, with guards: see train/compare_runs).
FINGERPRINT = "fingerprint"


def fingerprints(examples: Any) -> list[str]:
    """Per example, a short stable hash of its inputs (the kind's inputs and optional inputs, an
    absent one as empty): 16 hex digits of BLAKE2b over their JSON, so the same text hashes the
    same in any run, process or Python."""
    spec = examples.spec
    table = examples.dataset.with_format("arrow")
    columns = [table[c].to_pylist() for c in (*spec.inputs, *spec.optional_inputs)]
    return [hashlib.blake2b(json.dumps([("" if v is None else v) for v in values], ensure_ascii=False).encode(),
                            digest_size=8).hexdigest() for values in zip(*columns)]


def write_mismatched(run: str | Path, metrics: dict[str, float], predictions: list[dict[str, Any]]) -> None:
    """An MNLI run's model scored on dev_mismatched.tsv: its files in the run's ``mismatched/``."""
    write_results(Path(run) / MISMATCHED, metrics, predictions)


def write_results(folder: str | Path, metrics: dict[str, float], predictions: list[dict[str, Any]]) -> None:
    """metrics.json and predictions.jsonl of an evaluation (``bertstudio evaluate --out``),
    never into a run folder a training is writing (it would replace them at its end)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lock = hold_run_folder(folder)
    try:
        atomic_write_text(folder / METRICS, json.dumps(metrics, indent=2, sort_keys=True))
        atomic_write_text(folder / PREDICTIONS, jsonl(predictions))
    finally:
        unlock_folder(lock)


# --- reading run files: whatever the bytes, the project's DataError naming file and line -----

# A run file nests three deep at most (a QA gold's answer lists); far deeper is damage or
# malice, and a value that deep overflows the stack of whatever walks it later.
_MAX_DEPTH = 32


# The most any run file holds (a million logged steps of history are ~300 MB): a bigger one
# is damage, refused from its size (a sparse 2 GB history.jsonl took 15 s and 4 GB to read).
MAX_RUN_FILE_BYTES = 512 << 20


def _text(path: Path, *, errors: str = "strict") -> str | None:
    """A run file's text; None when it is absent. DataError for a folder, a FIFO or device
    (refused before it is opened), a file over MAX_RUN_FILE_BYTES, an unreadable file or bytes
    that are not UTF-8."""
    if not os.path.lexists(path):
        return None
    raw = read_regular_file(path, max_bytes=MAX_RUN_FILE_BYTES)
    try:
        return raw.decode("utf-8", errors=errors)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError(f"not UTF-8 text (byte {exc.start})", path=path, where=f"line {line}",
                        expected="the file as bertstudio wrote it") from None


def decode_json(text: str, *, path: Path, where: str | None = None) -> Any:
    """One JSON value of a run file; DataError naming ``path`` and the line for anything
    json cannot read or that nests deeper than any run file does."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON: {exc.msg} (column {exc.colno})", path=path,
                        where=where or f"line {exc.lineno}", expected="the file as bertstudio wrote it") from None
    except (ValueError, RecursionError) as exc:  # a number past Python's 4300 digits; nesting past the stack
        problem = "JSON nested too deeply" if isinstance(exc, RecursionError) else "a number too long to read"
        raise DataError(problem, path=path, where=where, expected="the file as bertstudio wrote it") from None
    if not _shallow(value):
        raise DataError(f"JSON nested more than {_MAX_DEPTH} deep", path=path, where=where,
                        expected="the file as bertstudio wrote it")
    return value


def _shallow(value: Any) -> bool:
    stack = [(value, 1)]  # iterative: the point is not to recurse
    while stack:
        item, depth = stack.pop()
        if depth > _MAX_DEPTH:
            return False
        # a bare number or true at the top (metrics.json = NaN) has no children: iterating it was a TypeError
        # that emptied the Runs page
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return True


def read_json(path: Path) -> dict[str, Any] | None:
    """A run file holding one JSON object (metrics.json, eval_rows.json); None when absent."""
    text = _text(path)
    if text is None:
        return None
    value = decode_json(text, path=path)
    if not isinstance(value, dict):
        raise DataError(f"holds {_json_type(value)}, not a JSON object", path=path, expected="one JSON object")
    return value


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _left_out(problem: DataError, skipped: list[DataError] | None, what: str) -> None:
    """A damaged part of a run file: raised when ``skipped`` is None, else logged and appended to
    ``skipped`` (the page that shows the run says so)."""
    if skipped is None:
        raise problem
    log.warning("%s: %s", what, problem)
    skipped.append(problem)


def json_lines(text: str, path: Path, *, skipped: list[DataError] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) per non-blank line of a JSONL run file. A bad line is a DataError,
    or, given a ``skipped`` list, left out and added to it. Lines end at a newline only:
    ensure_ascii=False writes U+2028 and friends raw, and str.splitlines would cut a JSON
    string there."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = decode_json(line, path=path, where=f"line {n}")
            if not isinstance(value, dict):
                raise DataError(f"holds {_json_type(value)}, not a JSON object", path=path, where=f"line {n}",
                                expected="one JSON object per line")
        except DataError as exc:
            _left_out(exc, skipped, "skipping a line")
            continue
        out.append((n, value))
    return out


@dataclass
class RunInfo:
    """What the GUI shows about one run folder (read once; cheap: no predictions)."""

    folder: Path
    config: TrainConfig | None = None  # None: no readable config.toml
    metrics: dict[str, float] = field(default_factory=dict)
    status: str = "unknown"  # finished | cancelled | failed | running | interrupted | damaged | unknown
    message: str = ""  # how it ended, or for a damaged run what is wrong (file, place, problem)
    started_at: float = 0.0
    steps: int = 0  # training steps taken, when the run has ended
    best_step: int | None = None  # the metrics and model are the best evaluation's, from this earlier step
    last_metrics: dict[str, float] = field(default_factory=dict)  # with best_step: the last evaluation's ({}: not said)
    eval_examples: int = 0  # how many examples its evaluation scored, those with a gold value (0: not said)
    mismatched: dict[str, float] = field(default_factory=dict)  # an MNLI run's model on dev_mismatched (MNLI-mm)

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def model_dir(self) -> Path:
        return self.folder / MODEL

    def has_model(self) -> bool:
        return (self.model_dir / "config.json").is_file()

    @property
    def kind(self) -> str | None:
        return self.config.task if self.config else None

    @property
    def glue_task(self) -> str | None:
        return self.config.glue_task if self.config else None


def started_here(started: RunStarted) -> bool:
    """Whether the run that wrote ``started`` trained on this machine, so that its folder's lock
    tells whether its process lives: by the host name, and on macOS by the machine's id, which
    stays when the host name changes (macOS names the machine after the network it is on, and a
    run killed at home read as "running" for ever at the office). Elsewhere ids are not asked:
    Linux's machine-id is baked into images, so containers of one image on two hosts would call
    each other's runs their own (a run on a share read as "interrupted" while it trained)."""
    if _HOST_NAME_DRIFTS and started.machine:
        here = machine_id()
        if here:
            return started.machine == here
    return started.host == socket.gethostname()


# The systems whose host name follows the network, where a run's machine is told by its id.
_HOST_NAME_DRIFTS = sys.platform == "darwin"


@functools.lru_cache(maxsize=1)
def machine_id() -> str:
    """A stable id of this Mac, hashed (the run folder may be shared, the system's own id is not its
    business): its IOPlatformUUID, which a cloned macOS keeps per machine. "" elsewhere, and where
    it cannot be read: the host name decides then (never the network card's address, which Docker
    makes the same on every host)."""
    if not _HOST_NAME_DRIFTS:
        return ""
    import hashlib
    import subprocess

    try:
        shown = subprocess.run(["ioreg", "-rd1", "-c", "IOPlatformExpertDevice"], capture_output=True, text=True,
                               timeout=5).stdout
    except (OSError, subprocess.SubprocessError, ValueError):
        return ""
    found = re.search(r'"IOPlatformUUID"\s*=\s*"([^"]+)"', shown or "")
    return hashlib.sha256(f"bertstudio:{found.group(1)}".encode()).hexdigest()[:16] if found else ""


def read_run(folder: str | os.PathLike[str]) -> RunInfo:
    """One run as a list of runs shows it. Never raises for what is in the folder: a damaged
    config.toml or metrics.json makes the run "damaged" with the problem as its message, so one
    bad folder cannot hide the others."""
    folder = Path(folder)
    info, problems = RunInfo(folder), []
    try:
        info.config = read_config(folder)
    except ConfigError as exc:
        problems.append(exc)
    # config.toml is written once, when the run starts; the folder's mtime moves with every file.
    for marker in (folder / CONFIG, folder):
        try:
            info.started_at = marker.stat().st_mtime
            break
        except OSError:
            continue
    for name, path in (("metrics", folder / METRICS), ("mismatched", folder / MISMATCHED / METRICS)):
        try:
            found = read_json(path) or {}
        except DataError as exc:
            problems.append(exc)
            continue
        setattr(info, name, metric_numbers(found))
        last = found.get(LAST_EVALUATION) if name == "metrics" else None
        if isinstance(last, dict):  # a metrics.json from before it was written has none: nothing said
            info.last_metrics = metric_numbers(last)
    writing = writer_active(folder)  # asked before the history is read: a run that ends meanwhile shows its end
    history = read_history(folder, kinds=(RunStarted.kind, RunFinished.kind))  # a status needs no step line
    starts = [n for n, e in enumerate(history) if isinstance(e, RunStarted)]
    first = history[starts[0]].started_at if starts else None
    if first is not None and math.isfinite(first) and first > 0:  # as recorded: a copied folder's mtimes are the copy's
        info.started_at = float(first)
    latest = history[starts[-1]:] if starts else history  # a resumed run's history holds the cancelled start's end too
    if starts and isinstance(history[starts[-1]].scored_examples, int):
        info.eval_examples = max(0, history[starts[-1]].scored_examples)
    ended = [e for e in latest if isinstance(e, RunFinished)]
    if ended:
        info.status, info.message = ended[-1].status, ended[-1].message
        info.steps, info.best_step = ended[-1].step, ended[-1].best_step
        if not info.metrics:
            info.metrics = metric_numbers(ended[-1].metrics)
            info.last_metrics = metric_numbers(ended[-1].last_metrics)
    elif history:
        # asked again after the read: a resume that took the lock and wrote its start meanwhile is running
        if writing is False and starts and started_here(history[starts[-1]]) and writer_active(folder) is False:
            info.status, info.message = "interrupted", interrupted_message(folder)
        else:  # still training, or trained elsewhere (a synced folder): nobody here can tell
            info.status = "running"
    elif info.metrics:
        info.status = "finished"
    if problems:
        log.warning("damaged run %s: %s", folder, problems[0])
        info.status, info.message = "damaged", str(problems[0])
    return info


class RunInfoCache:
    """:func:`read_run`, remembered while the run's files are unchanged, so a list of 2,000 runs
    refreshes from ``stat`` calls instead of 2,000 reads (about 1.3 ms each).

    A run is kept against the stats (inode, size, change times) of the files read_run reads. A
    running or interrupted run's status also hangs on who holds the writer lock, so it is kept
    only for the moment: until :meth:`forget_moment` (a new refresh asks the lock again), which
    lets the lists refreshed together share one read. Thread-safe: a reader thread fills it
    while the GUI thread asks. The RunInfo handed out is shared: read it, never change it."""

    _MOMENTARY = ("running", "interrupted")  # a status the files alone do not settle

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[Path, tuple[tuple[Any, ...], RunInfo]] = {}
        self._moment: dict[Path, tuple[tuple[Any, ...], RunInfo]] = {}

    @staticmethod
    def _signature(folder: Path) -> tuple[Any, ...]:
        out: list[Any] = []
        root = os.fspath(folder)
        for path in (os.path.join(root, CONFIG), os.path.join(root, METRICS), os.path.join(root, HISTORY),
                     os.path.join(root, MISMATCHED, METRICS)):
            try:
                st = os.stat(path)
            except (OSError, ValueError):
                out.append(None)
                continue
            out.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        return tuple(out)

    def get(self, folder: str | os.PathLike[str]) -> RunInfo | None:
        """The remembered RunInfo of ``folder`` while its files are as they were; else None."""
        return self._remembered(Path(folder), self._signature(Path(folder)))

    def _remembered(self, folder: Path, signature: tuple[Any, ...]) -> RunInfo | None:
        with self._lock:
            kept = self._kept.get(folder) or self._moment.get(folder)
        return kept[1] if kept is not None and kept[0] == signature else None

    def read(self, folder: str | os.PathLike[str]) -> RunInfo:
        """:func:`read_run` of ``folder``, from memory when its files are unchanged."""
        folder = Path(folder)
        signature = self._signature(folder)  # before the read: a file changed during it is read again next time
        info = self._remembered(folder, signature)
        if info is not None:
            return info
        try:
            info = read_run(folder)
        except Exception as exc:  # noqa: BLE001 - a bug in a reader: one run damaged, not every page that lists it
            # (out of a page's refresh the exception took Qt down: the app crashed when Runs was clicked)
            log.exception("cannot read run %s", folder)
            said = (str(exc).strip().splitlines() or [""])[0][:200]  # one line, as every run's message
            info = RunInfo(folder, status="damaged", message=f"{folder}: cannot be read ({type(exc).__name__}: {said})")
        with self._lock:
            if info.status in self._MOMENTARY:
                self._kept.pop(folder, None)
                self._moment[folder] = (signature, info)
            else:
                self._moment.pop(folder, None)
                self._kept[folder] = (signature, info)
        return info

    def forget_moment(self) -> None:
        """Read running and interrupted runs again when next asked (their writer may have ended)."""
        with self._lock:
            self._moment.clear()

def metric_numbers(found: Mapping[Any, Any]) -> dict[str, float]:
    """The metrics in metrics.json's top level (or its ``last_evaluation``, or an end event's), as
    floats: the one rule of every reader that takes a run's numbers (read_run, Compare's record, the
    model card). A number is what :func:`~bertstudio.train.events.is_number` admits: NaN and
    infinity as a diverged run writes them (a reader that shows only finite ones drops those), a
    whole number float() holds; a 400-digit one is left out (float() of it raised OverflowError out
    of every reader: the app crashed on Runs). The keys kept beside the metrics (``last_evaluation``,
    ``one_answer``) are never metrics, even when a hand-edited file puts a number there."""
    return {k: float(v) for k, v in found.items()
            if isinstance(k, str) and k not in _NOT_METRICS and is_number(v)}


_NOT_METRICS = frozenset({LAST_EVALUATION, ONE_ANSWER})


def interrupted_message(folder: Path) -> Said:
    """What a reader says of a run whose process ended without finishing it: how to continue it,
    or, when its checkpoint cannot be resumed, why (a command that always fails was offered).
    Its facts: ``command`` (the resume command) or ``why`` (:func:`not_resumable`'s), or neither."""
    found, said, facts = find_checkpoint(folder / CHECKPOINTS / "last"), "", {}
    if found is not None:  # asked once (it reads config.toml and state.json) for every interrupted run listed
        why = not_resumable(folder)
        facts = {"why": why} if why else {"command": _resume_line(folder, found)}
        said = f"; {why}" if why else f"; continue it with: {facts['command']}"
    return Said("the training stopped without finishing (its process was closed or crashed)" + said, "interrupted",
                **facts)


def _resumed_config(root: Path) -> tuple[TrainConfig | None, Said | None]:
    """The settings of the run in ``root`` that a resume would go on with, or why there are none."""
    try:
        config = read_config(root)
    except ConfigError as exc:
        return None, Said(f"it cannot be resumed: {exc}", "bad_config", error=str(exc))
    if config is None:
        return None, Said(f"it cannot be resumed: its {CONFIG} is missing", "no_config", file=CONFIG)
    return config, None


def not_resumable(root: Path, config: TrainConfig | None = None) -> Said | None:
    """Why ``bertstudio train --config RUN/config.toml --resume`` cannot continue the run in
    ``root`` whatever the user types, said with what can be done instead; None when it can. A
    run the app started trained on its project's rows, which its config.toml does not name: the
    command offered for it failed, and the --train FILE its error suggested was refused as a
    changed setting. A run whose data files are gone fails with "file not found"."""
    if config is None:  # (the caller's, already read)
        config, why = _resumed_config(root)
        if config is None:
            return why
    if not (config.train_file or (config.glue_task and config.data_dir)):
        return Said("it trained on its project's rows, which its config.toml does not name, so the command line "
                    "cannot resume it: resume it in the app (Runs page, select it, Resume)", "project_rows")
    if (local := _local_model(config.model)) is not None and not local.exists():  # (a folder there: --model may name another)
        return resume_model_problem(config.model, config.model, checkpoint_state(root / CHECKPOINTS / "last"))
    missing = [(name, flag, value) for name, flag, value in (("training", "--train", config.train_file),
                                                             ("evaluation", "--eval", config.eval_file))
               if value and not Path(value).exists()]
    if not missing:
        return None
    files = " and ".join(f"{name} file {value}" for name, _, value in missing)
    said = f"it cannot be resumed while its {files} {'are' if len(missing) > 1 else 'is'} missing: put "
    said += "them back there" if len(missing) > 1 else "it back there"
    moved = keeps_fingerprints(root / CHECKPOINTS / "last")  # its rows are known by their fingerprints, not by path
    if moved:
        flags = " and ".join(flag for _, flag, _ in missing)
        said += f", or resume with {flags} naming where {'they lie' if len(missing) > 1 else 'it lies'} now"
    return Said(said, "files_missing", files=[str(value) for _, _, value in missing],
                flags=[flag for _, flag, _ in missing] if moved else [])


def project_resume_problem(root: Path, project: Any, *, stopped: bool = False) -> Said | None:
    """Why the app cannot continue the run in ``root`` on the rows of ``project`` (the open one),
    said with what can be done instead; None when it can (whether the rows are still those it
    trained on is the engine's check, from the checkpoint's fingerprints: a checkpoint written
    before it kept them is refused here, since nothing could check them). The app says its
    ``kind`` and ``facts`` in the user's language (:class:`Said`). ``stopped``: the caller knows
    the run is neither training nor finished (the Runs page's status), which is not read again here
    (its whole history, on each selection)."""
    if not stopped and writer_active(root):
        return Said("it is still training", "training")
    if not stopped and run_finished(root):
        return Said("it has finished; there is nothing to resume", "finished")
    found = find_checkpoint(root / CHECKPOINTS / "last")
    if found is None:
        return Said("it kept no checkpoint to go on from: only a run stopped by Cancel, Ctrl-C or a closed window "
                    "keeps one (not a crashed or killed run, nor one stopped before its first step)", "no_checkpoint")
    try:
        state = read_state(found)
    except ConfigError as exc:  # damaged, not old: keeps_fingerprints says no for both
        return Said(f"its checkpoint cannot be read: {exc}", "damaged_checkpoint", error=str(exc))
    if not _keeps_fingerprints(state):
        return Said("it was stopped by an older bertstudio, which did not record the rows it trained on, so nothing "
                    "could check they are still the same: train it again", "old_checkpoint")
    config, why = _resumed_config(root)
    if config is None:
        return why
    if config.train_file or config.glue_task:
        why = not_resumable(root, config)
        command = None if why else _resume_line(root, found)
        return Said("it trained on data files, not on the project's rows; "
                    + (why if why else f"continue it with: {command}"), "data_files", why=why, command=command)
    owner, uid = label_ids_project(root), getattr(project, "uid", None)
    if owner is not None and uid is not None and owner != uid:
        return Said("it was trained in another project (its label ids say so); resume it there", "other_project")
    why = resume_model_problem(config.model, config.model, state, command_line=False)
    if why is not None:  # the app resumes with the run's own settings: its model folder, as config.toml names it
        return why
    names = run_names_now(root, project) or {}
    changed = [(old, new) for old, new in names.items() if new != old]
    if changed:  # the checkpoint's head answers with its names: the project's rows now carry others
        listed = ", ".join(f"{old} -> {new or '(removed)'}" for old, new in changed)
        return Said(f"its labels were renamed or removed since it stopped ({listed}): a resume goes on "
                    "with the labels it trained with; rename them back to resume it, or train it again", "renamed",
                    changed=changed)
    return _project_rows_problem(project, config, state)


# The last answer of _project_rows_problem, keyed by what it depends on: the project (uid and folder),
# the version of each split (Project bumps it on each edit), the run's settings and the fingerprints its
# checkpoint recorded. Only that key and the answer (a Said, plain values): it held the last project's
# ExampleSets, memory-mapped Arrow files that stayed mapped after the project was closed (Windows then
# refuses to move or delete its folder).
_ROWS_SEEN: tuple[tuple[Any, ...], Said | None] | None = None


def _project_rows_problem(project: Any, config: TrainConfig, state: Mapping[str, Any]) -> Said | None:
    """The engine's refusal of a resume on project rows other than those the checkpoint was trained
    and scored on (sources.rows_changed, engine._same_data), said before the Resume is offered:
    the rows are taken as the Train page's resume_run gives them (the labelled training rows; the
    labelled dev rows when the run held none out) and as the engine's load_sets makes them."""
    global _ROWS_SEEN
    from bertstudio.train.sources import data_fingerprint, load_sets, resume_rows, rows_changed

    if not callable(getattr(project, "examples", None)):
        return None

    def rows_key() -> tuple[Any, ...]:  # which rows of which opening: the versions restart at each open
        versions = getattr(project, "_versions", None)
        return (getattr(project, "uid", None), str(getattr(project, "folder", "")), getattr(project, "opened", object()),
                tuple(sorted(versions.items())) if isinstance(versions, dict) else object(),
                json.dumps(config.to_dict(), sort_keys=True, default=str),
                json.dumps([state.get("data"), state.get("eval_data", "absent")], sort_keys=True, default=str))

    key = rows_key()
    seen = _ROWS_SEEN
    if seen is not None and seen[0] == key:
        return seen[1]
    train, dev = load_sets(config, *resume_rows(project, config), quiet=True)
    now = {"data": data_fingerprint(train), "eval_data": data_fingerprint(dev) if dev is not None else None}
    error = rows_changed(state, now, train, dev)
    said = None if error is None else Said(f"{error.where}: {error.problem} ({error.expected})", "data_changed",
                                           **error.facts)
    if rows_key() == key:  # an edit while the rows were read (the Runs page asks on a worker): not kept
        _ROWS_SEEN = (key, said)
    return said


def launch_command(processes: int | None) -> str:
    """How to start ``bertstudio train`` for ``processes`` data-parallel processes (--multi_gpu:
    without it a CPU (gloo) or one-GPU machine starts one process)."""
    if processes is None or processes <= 1:
        return "bertstudio train"
    return f"accelerate launch --multi_gpu --num_processes {processes} -m bertstudio train"


def resume_command(root: Path) -> str | None:
    """The command that continues the run in ``root`` from checkpoints/last, when there is one
    and the command can work (:func:`not_resumable` says why not)."""
    found = find_checkpoint(root / CHECKPOINTS / "last")
    if found is None or not_resumable(root) is not None:
        return None
    return _resume_line(root, found)


def _resume_line(root: Path, found: Path) -> str:
    """The resume command for the run in ``root`` whose checkpoints/last is ``found``."""
    try:  # a data-parallel run resumes with as many processes (its state.json says how many)
        processes = json.loads(read_regular_file(found / STATE, max_bytes=1 << 20)).get("processes")
    except (OSError, ValueError, AttributeError, DataError):
        processes = None
    if not (isinstance(processes, int) and not isinstance(processes, bool) and 1 < processes <= 4096):
        processes = None
    return f"{launch_command(processes)} --config {shell_quote(root / CONFIG)} --resume {shell_quote(root / CHECKPOINTS / 'last')}"


def find_checkpoint(folder: str | Path) -> Path | None:
    """The complete checkpoint at ``folder`` (or its ``.old`` twin left by a crash mid-swap)."""
    folder = Path(folder)
    if (folder / STATE).is_file():
        return folder
    for cand in sorted(folder.parent.glob(f".{folder.name}.*.old")):
        if (cand / STATE).is_file():
            return cand
    return None


def read_history(folder: str | os.PathLike[str], *, kinds: Collection[str] | None = None) -> list[Event]:
    """The events in history.jsonl (a last line still being written is left out; a damaged
    line, or a file that cannot be read, is logged and skipped: the history is a record that
    others may follow live, and the rest of the run stays readable). ``kinds``: only lines
    that name one of these event kinds are parsed (see :func:`parse_history`)."""
    path = Path(folder) / HISTORY
    try:
        text = _text(path, errors="replace")
    except DataError as exc:
        log.warning("unreadable history: %s", exc)
        return []
    return parse_history((text or "").split("\n")[:-1], path=path, kinds=kinds)


def history_damage(folder: str | os.PathLike[str]) -> DataError | None:
    """Why a history.jsonl that holds text records no event (its first line that is none: cut
    short, or not an event), so the folder does not read as a run; None where it holds an event,
    or nothing. What the damaged run is refused or left out for names the file and line."""
    path = Path(folder) / HISTORY
    try:
        text = _text(path, errors="replace")
    except DataError as exc:
        return DataError(exc.problem, path=path, where=exc.where)
    if not (text or "").strip() or read_history(folder):
        return None
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if n == len(lines):  # no line end after it: the write stopped inside it
            return DataError("cut short", path=path, where=f"line {n}")
        try:
            data = decode_json(line, path=path, where=f"line {n}")
            if not isinstance(data, dict):
                raise DataError("not a JSON object", path=path, where=f"line {n}")
            event_from_dict(data)
        except DataError as exc:
            return DataError(exc.problem, path=path, where=exc.where)
        except (TypeError, KeyError, ValueError):
            return DataError("not a history event", path=path, where=f"line {n}")
    return None


def parse_history(lines: Iterable[str], *, path: Path | None = None, kinds: Collection[str] | None = None) -> list[Event]:
    """Events from complete history.jsonl lines; a damaged or unknown line is logged and skipped.
    ``kinds`` (e.g. started, finished: what a run's status needs): a line that does not hold one
    of these words is not parsed at all (300,000 step lines took read_run 18 s on the GUI thread),
    and the events parsed are kept only if they are of those kinds."""
    events: list[Event] = []
    where = Path(path) if path is not None else Path(HISTORY)
    for n, line in enumerate(lines, 1):
        if not line.strip() or (kinds is not None and not any(k in line for k in kinds)):
            continue
        try:
            data = decode_json(line, path=where, where=f"line {n}")
            if not isinstance(data, dict):
                raise DataError("not a JSON object", path=where, where=f"line {n}")
            event = event_from_dict(data)
            if kinds is None or event.kind in kinds:
                events.append(event)
        except (DataError, TypeError, KeyError) as exc:
            _warn_skipped_line(where, n, line, exc)
    return events


_LINES_SAID: set[tuple[str, int, int]] = set()  # (file, line number, hash of the line) warned about already


def _warn_skipped_line(path: Path, n: int, line: str, exc: Exception) -> None:
    """Warn once per damaged history line: one train --overwrite reads a history three times (said three
    times, with the file and line twice in each: the DataError names them already)."""
    key = (str(path), n, hash(line))
    if key in _LINES_SAID:
        return
    if len(_LINES_SAID) >= 10_000:  # a long session following many damaged runs: forget, rather than grow
        _LINES_SAID.clear()
    _LINES_SAID.add(key)
    said = str(exc) if isinstance(exc, DataError) else f"{path}, line {n}: {exc}"
    log.warning("skipping a history line that is not an event: %s", said)


@dataclass
class SavedPrediction:
    """One row of predictions.jsonl and the project row it was made for (``split`` None:
    unknown). ``exact``: the run recorded the row; otherwise it is a guess (dev row
    ``index``) that a reader should check against the row's gold value."""

    index: int
    split: str | None
    row: int
    exact: bool
    gold: Any
    pred: dict[str, Any]


def read_prediction_rows(folder: str | os.PathLike[str], *,
                         skipped: list[DataError] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) per line of predictions.jsonl ([] without one): each a JSON object whose
    ``index``, when present, is a row position (an int >= 0), and whose index (and project row)
    no other line names. DataError naming the file and
    line, or, given a ``skipped`` list, the line is left out and added to it (an unreadable
    file: [])."""
    path = Path(folder) / PREDICTIONS
    try:
        text = _text(path)
    except DataError as exc:
        _left_out(exc, skipped, "unreadable predictions")
        return []
    out: list[tuple[int, dict[str, Any]]] = []
    seen: dict[Any, int] = {}  # index, and (split, row), -> the line that named it
    for n, row in json_lines(text or "", path, skipped=skipped):
        problem = _prediction_problem(row) or _repeat_problem(row, len(out), n, seen)
        if problem is not None:
            _left_out(DataError(problem[0], path=path, where=f"line {n}", expected=problem[1]), skipped,
                      "skipping a line")
            continue
        out.append((n, row))
    return out


def _repeat_problem(row: dict[str, Any], position: int, n: int, seen: dict[Any, int]) -> tuple[str, str] | None:
    """A second prediction for one evaluated row (a hand-merged or tampered file): paired by that
    row, every later one stood for it and a comparison counted made-up fixes and breaks. The
    index defaults to the line's position among the rows read, as every reader takes it."""
    index, split, at = row.get("index", position), row.get("split"), row.get("row")
    names = [(("index", index), f"index {index}")]
    if isinstance(split, str) and isinstance(at, int):
        names.append((("row", split, at), f"{split} row {at}"))
    for key, name in names:
        if key in seen:
            return f"{name} repeats line {seen[key]}", "one prediction per evaluated row"
    for key, _name in names:
        seen[key] = n
    return None


# The numbers a prediction carries (tasks/base.py: confidence, loss; a score for regression and QA):
# a string there ("big") reached float() inside the Results table's sort and ended the app
_PREDICTION_NUMBERS = ("confidence", "loss", "score")


def _prediction_problem(row: dict[str, Any]) -> tuple[str, str] | None:
    """(problem, expected) for a prediction line whose shared fields a reader cannot use."""
    from bertstudio.data.project_meta import SPLITS

    index = row.get("index", 0)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        return f"index {index!r:.40} is not a row position", "an integer >= 0"
    split, at = row.get("split"), row.get("row")
    if split is not None and split not in SPLITS:  # "nosuch" raised from the Results page's join
        return f"split {split!r:.40} is no split of a project", " or ".join(SPLITS)
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or at < 0):
        return f"row {at!r:.40} is not a row number", "an integer >= 0"
    mark = row.get(FINGERPRINT)
    if mark is not None and not (isinstance(mark, str) and 0 < len(mark) <= 64):
        return f"{FINGERPRINT} {mark!r:.40} is not an example's fingerprint", "a short text of hex digits"
    for key in _PREDICTION_NUMBERS:
        value = row.get(key)
        if value is not None and not is_number(value):
            return f"{key} {value!r:.40} is not a number", f"{key} as a number"
    return _kind_field_problem(row)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(v is None or isinstance(v, str) for v in value)


def _kind_field_problem(row: dict[str, Any]) -> tuple[str, str] | None:
    """The fields of one kind's predictions in the shape that kind writes (tagging's tags and
    entities, QA's answer and gold answers): a tampered "tags": [1, 2] or "answer": ["Paris"]
    raised out of the Results page's slots and left it half-built."""
    tags, entities, answer, gold = row.get("tags"), row.get("entities"), row.get("answer"), row.get("gold")
    if tags is not None and not _texts(tags):
        return f"tags {tags!r:.40} is not a list of tags", "a tag name per word"
    if entities is not None and not (isinstance(entities, list) and all(
            isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in e[1:]) for e in entities)):
        return f"entities {entities!r:.40} are not entity spans", "[type, first word, end word] per entity"
    if answer is not None and not isinstance(answer, str):
        return f"answer {answer!r:.40} is not a text", "the answer's text"
    if isinstance(gold, list) and not _texts(gold):
        return f"gold {gold!r:.40} is not a list of tags", "a tag name (or null) per word"
    if isinstance(gold, dict) and not (_texts(gold.get("text")) and isinstance(gold.get("answer_start"), list) and all(
            isinstance(n, int) and not isinstance(n, bool) for n in gold["answer_start"])):
        return f"gold {gold!r:.40} is not a set of answers", '{"text": [answers], "answer_start": [character offsets]}'
    return None


def read_eval_rows(folder: str | os.PathLike[str]) -> tuple[str, list[int]] | None:
    """An older run's eval_rows.json as (split, project row per evaluated example); None when
    the run has none; DataError naming the file and place for a damaged one."""
    path = Path(folder) / EVAL_ROWS
    data = read_json(path)
    if data is None:
        return None
    from bertstudio.data.project_meta import SPLITS

    split, rows = data.get("split"), data.get("rows")
    if not isinstance(split, str) or split not in SPLITS:  # "nosuch" raised from the Results page's join
        raise DataError(f"split {split!r:.40} is not a split name", path=path, where="key 'split'",
                        expected=" or ".join(SPLITS))
    if not isinstance(rows, list):
        raise DataError(f"rows {rows!r:.40} is not a list", path=path, where="key 'rows'", expected="a list of row numbers")
    first: dict[int, int] = {}
    for i, r in enumerate(rows):
        if isinstance(r, bool) or not isinstance(r, int) or r < 0:
            raise DataError(f"{r!r:.40} is not a row number", path=path, where=f"rows[{i}]", expected="an integer >= 0")
        if first.setdefault(r, i) != i:  # two predictions mapped to one project row would pair with one
            raise DataError(f"row {r} repeats rows[{first[r]}]", path=path, where=f"rows[{i}]",
                            expected="each evaluated row once")
    return split, rows


def read_predictions(folder: str | os.PathLike[str], *, skipped: list[DataError] | None = None,
                     splits: Mapping[str, Mapping[str, Any]] | None = None) -> list[SavedPrediction]:
    """A run's predictions, each with the project row it belongs to: the row recorded in the
    prediction, else the one in an older run's eval_rows.json, else a guess at dev row ``index``.
    For the pages that show a run: a damaged line or eval_rows.json is logged and left out,
    never raised, and appended to ``skipped`` so the page can say so (a comparison, which
    must not guess, reads with :func:`read_prediction_rows`). ``splits``: the project's
    ``split_info`` now; a prediction recorded on a split's rows that were replaced since (its
    ``lineage`` differs, or a run from before lineages started before the split's rows were
    replaced: :func:`rows_then`) belongs to no project row: that row number names another example now."""
    folder = Path(folder)
    skipped = [] if skipped is None else skipped  # never raised here: left out, and said by the page
    try:
        legacy = read_eval_rows(folder)
    except DataError as exc:
        _left_out(exc, skipped, "ignoring damaged eval rows")
        legacy = None
    started: list[float | None] = []

    def replaced_since_run(split: str) -> bool:
        """A run from before lineages: the split's rows were replaced after it started."""
        info = (splits or {}).get(split)
        if not info:
            return False
        if not started:
            started.append(run_started_at(folder))
        then = rows_then(started[0], info, info.get("replaced_at") or ())
        return then is not None and then != str(info.get("lineage") or "")

    out = []
    for _n, rec in read_prediction_rows(folder, skipped=skipped):
        rec = dict(rec)
        index = rec.pop("index", len(out))
        split, row = rec.pop("split", None), rec.pop("row", None)
        gold, lineage = rec.pop("gold", None), rec.pop("lineage", None)
        rec.pop(FINGERPRINT, None)  # which example it was: the comparison's, not part of the prediction
        if isinstance(split, str) and isinstance(row, int) and not isinstance(row, bool):
            now = ((splits or {}).get(split) or {}).get("lineage")
            if (isinstance(lineage, str) and isinstance(now, str) and lineage != now) \
                    or (not isinstance(lineage, str) and replaced_since_run(split)):
                out.append(SavedPrediction(index, None, -1, False, gold, rec))  # made on rows since replaced
            else:
                out.append(SavedPrediction(index, split, row, True, gold, rec))
        elif legacy is not None:
            rows = legacy[1]
            found = rows[index] if index < len(rows) and not replaced_since_run(legacy[0]) else -1
            out.append(SavedPrediction(index, legacy[0] if found >= 0 else None, found, True, gold, rec))
        elif replaced_since_run("dev"):
            out.append(SavedPrediction(index, None, -1, False, gold, rec))
        else:
            out.append(SavedPrediction(index, "dev", index, False, gold, rec))
    return out
