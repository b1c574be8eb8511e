"""Checkpoints that a crash or a full disk can never leave half-written.

A checkpoint is a folder: ``weights.pt`` (the model's raw state dict, adapters
included, so a LoRA run resumes as LoRA), ``state.json`` (step, epoch, batch
position, metrics), and for ``last`` also ``optimizer.pt`` and ``rng.pt``.
It is written into a temporary sibling folder and swapped in with renames, so
the previous checkpoint stays whole until the new one is complete. Every file
goes through :func:`write_file`, the one place a disk error can surface.

Nothing here unpickles code: every ``.pt`` holds tensors and plain values only
(the RNG states are converted to tensors) and is read with
``torch.load(weights_only=True)``, so a checkpoint folder from someone else, or
one named by ``resume_from`` in a shared run.toml, cannot run anything. A file
that is not such a checkpoint is refused with a ConfigError.
"""

from __future__ import annotations

import functools
import json
import math
import os
import pickle
import random
import re
import warnings
from pathlib import Path
from typing import Any, BinaryIO, Callable

import numpy as np
import torch

from bertstudio.data.atomic import replace_folder
from bertstudio.data.kinds import require_kind
from bertstudio.data.regular_file import regular_file_exists
from bertstudio.errors import ConfigError, DataError
from bertstudio.train.rundir import BEST_PREDICTIONS, STATE, find_checkpoint, read_state  # torch-free, for the GUI's list of runs

WEIGHTS = "weights.pt"
OPTIMIZER = "optimizer.pt"
RNG = "rng.pt"
START = "start.pt"  # the trained weights as the run started, for keep_tuning < 1 (train/engine.py)


class _Writes:
    """The file as a writer sees it, keeping the OSError a write raised: torch.save's C++ zip
    writer turns a failed write into a RuntimeError ("unexpected pos ..."), which would hide
    that the disk is full."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.error: OSError | None = None

    def write(self, data: Any) -> int:
        try:
            return self.file.write(data)
        except OSError as exc:
            self.error = exc
            raise

    def flush(self) -> None:
        self.file.flush()


def write_file(path: Path, data: bytes | Callable[[BinaryIO], None]) -> None:
    """Write ``data`` (bytes, or a function that writes into the open file) and flush it to
    the disk (raises OSError, e.g. ENOSPC, also when the function's writer wrapped it)."""
    with open(path, "wb") as f:
        if callable(data):
            writes = _Writes(f)
            try:
                data(writes)  # type: ignore[arg-type]
            except Exception:
                if writes.error is not None:
                    raise writes.error from None
                raise
        else:
            f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _torch_save(obj: Any) -> Callable[[BinaryIO], None]:
    """``torch.save(obj)`` straight into the file, not into a BytesIO first: growing a 90 MB
    buffer copies it in C with the GIL held, and a checkpoint saved mid-run froze the app's
    window for 90-540 ms at a time; into the file the longest hold measured 10-30 ms."""
    return functools.partial(torch.save, obj)


def rng_state() -> dict[str, Any]:
    """Every RNG's state as tensors and plain values (loadable with ``weights_only=True``)."""
    version, internal, gauss = random.getstate()
    name, keys, pos, has_gauss, cached = np.random.get_state()
    state: dict[str, Any] = {
        "python": {"version": version, "state": torch.tensor(internal, dtype=torch.int64), "gauss": gauss},
        "numpy": {"name": name, "keys": torch.from_numpy(keys.astype(np.int64)), "pos": int(pos),
                  "has_gauss": int(has_gauss), "cached_gaussian": float(cached)},
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: Any) -> None:
    """Restore :func:`rng_state`'s output; a value of another shape raises ValueError/TypeError/KeyError."""
    py, npy = state["python"], state["numpy"]
    random.setstate((int(py["version"]), tuple(int(x) for x in py["state"].tolist()),
                     None if py["gauss"] is None else float(py["gauss"])))
    np.random.set_state((str(npy["name"]), npy["keys"].numpy().astype(np.uint32), int(npy["pos"]),
                         int(npy["has_gauss"]), float(npy["cached_gaussian"])))
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def save_checkpoint(
    folder: str | Path,
    *,
    model: torch.nn.Module,
    state: dict[str, Any],
    optimizer: torch.optim.Optimizer | None = None,
    extra_files: dict[str, bytes] | None = None,
    start: dict[str, torch.Tensor] | None = None,
) -> Path:
    """Write a checkpoint to ``folder`` atomically; on any error the old one is untouched.
    Between the swap's two renames only the ``.old`` twin exists; find_checkpoint() falls
    back to it, so a crash there loses nothing. ``start``: the trained weights as the run
    started (a resume of a run that keeps only a share of its change needs them: :func:`load_start`)."""
    meta = getattr(getattr(model, "config", None), "bertstudio", None)
    if isinstance(meta, dict) and meta.get("task"):
        state = {**state, "task": meta["task"]}  # so a resume can refuse a run of another task kind

    def fill(tmp: Path) -> None:
        write_file(tmp / WEIGHTS, _torch_save({k: v.detach().cpu() for k, v in model.state_dict().items()}))
        if optimizer is not None:
            write_file(tmp / OPTIMIZER, _torch_save(optimizer.state_dict()))
            write_file(tmp / RNG, _torch_save(rng_state()))
        if start is not None:
            write_file(tmp / START, _torch_save(start))
        for name, data in (extra_files or {}).items():
            write_file(tmp / name, data)
        # state.json last: its presence marks a complete checkpoint
        write_file(tmp / STATE, json.dumps(state, indent=1).encode("utf-8"))

    # checkpoints/ made on the first save, one level only: a run folder removed (or moved) while the run
    # wrote it came back, holding checkpoints and a model but no config.toml or history
    Path(folder).parent.mkdir(exist_ok=True)
    return replace_folder(folder, fill)


def _load(path: Path) -> Any:
    """``torch.load`` that runs no code; anything but a plain tensor file is a ConfigError (a FIFO
    or a device is refused before it is opened: torch.load waited on a FIFO for ever)."""
    regular_file_exists(path)
    try:
        with warnings.catch_warnings():  # a raw pickle makes torch warn first ("Detected pickle protocol 4"):
            warnings.simplefilter("ignore")  # the line below is the one the user gets
            return torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ConfigError(f"the checkpoint has no {path.name}", path=path.parent, expected="a run's checkpoints/last folder") from None
    except pickle.UnpicklingError as exc:  # torch's first line is its advice to load the file unsafely: never shown
        blocked = re.search(r"GLOBAL ([\w.]+)", str(exc))  # "Unsupported global: GLOBAL exec", "... GLOBAL posix.system"
        what = f" ({blocked.group(1)})" if blocked else ""
        raise ConfigError(f"the checkpoint file holds more than tensors and plain values{what}: it could run code, so "
                          "it is not loaded", path=path,
                          expected="tensors and plain values written by this version of bertstudio") from None
    except Exception as exc:  # noqa: BLE001 - RuntimeError (truncated), EOFError, ...
        text = str(exc).strip()
        if isinstance(exc, EOFError) or "failed reading zip archive" in text or "failed finding central directory" in text:
            reason = "the file is cut short or damaged"  # torch's own words ran on for four sentences, cut mid-word
        else:
            first = text.splitlines()[0] if text else type(exc).__name__
            reason = first.split(". ")[0].rstrip(".")
            reason = reason if len(reason) <= 160 else reason[:159] + "…"
        raise ConfigError(f"not a checkpoint file bertstudio can load safely: {reason}", path=path,
                          expected="tensors and plain values written by this version of bertstudio") from None


def _weight_table(path: Path) -> dict[str, torch.Tensor]:
    """A checkpoint's weights file: names to tensors, every float finite (a NaN there became the
    exported model, with the metrics of the weights it replaced)."""
    sd = _load(path)
    if not isinstance(sd, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in sd.items()):
        raise ConfigError("the checkpoint's weights are not a table of tensors", path=path)
    bad = next((k for k, v in sd.items() if v.is_floating_point() and not bool(torch.isfinite(v).all())), None)
    if bad is not None:
        raise ConfigError(f"the checkpoint's weights hold values that are not finite ({bad})", path=path,
                          expected="the weights the run wrote")
    return sd


def load_weights(folder: str | Path, model: torch.nn.Module) -> None:
    path = Path(folder) / WEIGHTS
    sd = _weight_table(path)
    try:
        model.load_state_dict(sd)
    except (RuntimeError, ValueError, KeyError) as exc:
        first = str(exc).strip().splitlines()[0][:200]
        raise ConfigError(f"the checkpoint's weights do not fit this model: {first}", path=path,
                          expected="a checkpoint of a run with the same model, task kind and labels") from None


def load_start(folder: str | Path, names: Any) -> dict[str, torch.Tensor]:
    """The weights the run started from (``names``: the trained parameters, each with its
    shape), as :func:`save_checkpoint` kept them."""
    path = Path(folder) / START
    if not regular_file_exists(path):
        raise _no_start(folder)
    sd = _weight_table(path)  # tensors, finite: mixed in, a NaN would reach every weight
    shapes = dict(names)
    if set(sd) != set(shapes) or any(not v.is_floating_point() or tuple(v.shape) != tuple(shapes[k])
                                     for k, v in sd.items()):
        raise ConfigError("the checkpoint's starting weights do not fit this model", path=path,
                          expected="a checkpoint of a run with the same model, task kind, labels and mode")
    return {k: v.float() for k, v in sd.items()}  # written in fp32; lerp needs the trained weights' dtype


def _no_start(folder: str | Path) -> ConfigError:
    return ConfigError("the checkpoint holds no starting weights, which keep_tuning below 1 needs", path=folder,
                       expected="the checkpoint of a run with the same keep_tuning (or keep_tuning = 1)")


def load_training_state(folder: str | Path, optimizer: torch.optim.Optimizer) -> None:
    """Optimizer moments and every RNG, so a resumed run continues bit for bit on CPU."""
    folder = Path(folder)
    settings = [{k: v for k, v in g.items() if k != "params"} for g in optimizer.param_groups]
    try:
        optimizer.load_state_dict(_load(folder / OPTIMIZER))
    except (RuntimeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"the checkpoint's optimizer state does not fit this run: {type(exc).__name__}: {exc}",
                          path=folder / OPTIMIZER, expected="a checkpoint of a run with the same settings") from None
    _check_optimizer(optimizer, settings, folder / OPTIMIZER)
    state = _load(folder / RNG)
    try:
        set_rng_state(state)
    except (RuntimeError, ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ConfigError(f"the checkpoint's random-number state is not readable: {type(exc).__name__}: {exc}",
                          path=folder / RNG, expected="a checkpoint written by this version of bertstudio") from None


_MOMENTS = ("exp_avg", "exp_avg_sq")
_VARYING = {"lr"}  # the one group setting a checkpoint holds at another value than a fresh optimizer
# How this machine runs the update, not what it computes: a run moved from one device or torch to
# another keeps this run's choice (foreach on MPS, fused on CPU and CUDA)
_IMPLEMENTATION = {"fused", "foreach"}


def _check_optimizer(optimizer: torch.optim.Optimizer, settings: list[dict[str, Any]], path: Path) -> None:
    """Refuse loaded optimizer state the update kernels would trip over: torch's load_state_dict
    checks no shapes, and the fused AdamW kernel reads moments of another shape out of bounds (a
    moment of 3 numbers for a 32 x 64 matrix ended the process with a segmentation fault). Each
    group keeps this run's settings (betas, eps, decay, amsgrad...: the same in a checkpoint of the
    same settings) and a finite learning rate; each parameter's state is empty or a step count
    (one finite number >= 0) and AdamW's two moments, finite, of the parameter's shape and dtype."""
    def refuse(problem: str, where: str) -> None:
        raise ConfigError(problem, path=path, where=where, expected="the optimizer state of a run with the same settings")

    for g, (group, before) in enumerate(zip(optimizer.param_groups, settings)):
        for key, value in before.items():
            now = group.get(key)
            if key in _IMPLEMENTATION:
                group[key] = value
            elif key in _VARYING:
                if not isinstance(now, (int, float)) or isinstance(now, bool) or not math.isfinite(now) or now < 0:
                    refuse(f"learning rate {now!r} is not a finite number >= 0", f"param group {g}")
            elif now != value:
                refuse(f"{key} is {now!r}, this run's is {value!r}", f"param group {g}")
        for i, p in enumerate(group["params"]):
            state = optimizer.state.get(p)
            if not state:
                continue
            where = f"param group {g}, parameter {i} {tuple(p.shape)}"
            if set(state) != {"step", *_MOMENTS}:
                refuse(f"state holds {sorted(map(str, state))}", where + " (expected step, exp_avg, exp_avg_sq)")
            step = state["step"]
            if not isinstance(step, torch.Tensor) or step.numel() != 1 or not step.is_floating_point() \
                    or not math.isfinite(float(step)) or float(step) < 0:
                refuse("step is not one finite number >= 0", where)
            for key in _MOMENTS:
                moment = state[key]
                if not isinstance(moment, torch.Tensor) or moment.shape != p.shape or moment.dtype != p.dtype \
                        or moment.device != p.device:
                    shape = tuple(moment.shape) if isinstance(moment, torch.Tensor) else type(moment).__name__
                    refuse(f"{key} is {shape}, not a {p.dtype} tensor of the parameter's shape", where)
                if not bool(torch.isfinite(moment).all()) or (key == "exp_avg_sq" and bool((moment < 0).any())):
                    refuse(f"{key} holds numbers that are not finite" + (" or are negative" if key == "exp_avg_sq" else ""),
                           where)


def check_resumable(path: str | Path, *, task: str | None = None, needs_start: bool = False,
                    best: str | Path | None = None) -> Path:
    """The complete, resumable checkpoint at ``path`` (checked before a run spends time
    building its model): state.json readable, optimizer and RNG files present (and the
    starting weights when ``needs_start``: keep_tuning < 1), the RNG file loadable without
    code, and of the same task kind when ``task`` is given. ``best``: the best checkpoint the
    resumed run will export (its run folder's; default: beside ``path``)."""
    found = find_checkpoint(path)
    if found is None:
        raise ConfigError("no resumable checkpoint here", path=path, expected="a run's checkpoints/last folder")
    # the file that is missing is named: a checkpoint without rng.pt said only "no resumable checkpoint here"
    missing = [name for name in (OPTIMIZER, RNG) if not regular_file_exists(found / name)]
    if missing:
        raise ConfigError(f"no resumable checkpoint here: {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                          "missing", path=found, expected="a run's checkpoints/last folder, as the run wrote it")
    if needs_start and not regular_file_exists(found / START):
        raise _no_start(found)
    state = read_state(found)
    if state.get("task") is not None:  # checkpoints before the kind was recorded pass
        require_kind(state["task"], task, path=path, where="resume_from", what="this checkpoint's run")
    _load(found / RNG)  # small: a file that is not ours is refused before anything is built
    if state.get("best_saved"):
        _check_best(Path(best) if best is not None else found.parent / "best")
    return found


def resumed_labels(state: dict[str, Any], found: Path, labels: list[str], *, source: str | None = None) -> list[str]:
    """The label list (in id order) a resumed run trains with: the one its checkpoint recorded,
    which its weights' head rows mean, whatever order the data now lists them in (a training file
    sorted in a spreadsheet swapped a CLI run's label ids: it reported 100%, its model scored 0%).
    ``labels``: the data's (or the config's) now; a checkpoint from before runs recorded them
    keeps these. ``state``: the checkpoint ``found``'s state.json, as read. DataError naming
    ``source`` (the training file) when the two sets differ."""
    saved = state.get("labels")
    if saved is None:
        return labels
    if not isinstance(saved, list) or not all(isinstance(x, str) for x in saved) or len(set(saved)) != len(saved):
        raise ConfigError("labels is not a list of distinct names", path=Path(found) / STATE, where="labels",
                          expected="the state.json the run wrote")
    if set(saved) != {str(x) for x in labels}:
        raise DataError(f"the training data's labels are now {', '.join(map(str, labels)) or 'none'}; "
                        f"the run's are {', '.join(saved) or 'none'}", path=source, where="labels",
                        expected="the training data the run stopped on, or a new run (another --out, or --overwrite)")
    return list(saved)




def _check_best(folder: Path) -> None:
    """The best evaluation's checkpoint a resumed run ends by exporting: its weights readable and
    finite, its predictions a plain file of JSON objects (a link there copied whatever it named,
    a secret file too, into the run's predictions.jsonl). Checked before the run trains, not after."""
    found = find_checkpoint(folder)
    if found is None:
        raise ConfigError("the run's best checkpoint is missing", path=folder,
                          expected="the checkpoints/best folder the run wrote (the run exports its weights)")
    _weight_table(found / WEIGHTS)
    read_best_predictions(found)


def read_best_predictions(folder: Path) -> str | None:
    """The best checkpoint's predictions.jsonl, checked line by line (None when it has none)."""
    from bertstudio.data.regular_file import read_regular_text
    from bertstudio.train.rundir import json_lines  # here: rundir reads checkpoints the same way

    path = folder / BEST_PREDICTIONS
    if path.is_symlink():
        raise ConfigError("is a link, which no run writes", path=path, expected="the predictions file the run wrote")
    text = read_regular_text(path, missing_ok=True)
    json_lines(text or "", path)  # a line that is no JSON object: a DataError naming the file and line
    return text
