"""A warm start for the next run in the same process: the last built model, pristine, and its tokenised rows.

Loading a model (reading the weights, building the modules, the tokenizer) costs seconds,
and the app's user often trains the same project's model again with other settings.
:class:`WarmCache` keeps ONE entry: the model exactly as :func:`~bertstudio.train.engine.build_parts`
built it (pre-trained weights and the new head, before any training step), the RNG
states right after that build, and the last tokenised rows built with it. A run that
asks for the same parts gets a deep copy of the pristine model - never the weights a
previous run fine-tuned - and the RNG states restored, so it is bit-identical to a cold
run with the same seed (tests/core/test_warm_start.py). An embedding head's linear probe
(train/probe.py: the frozen encoder over the training rows, then a logistic regression)
is kept with the entry too, for the same rows.

What a build depends on is its key: the model folder (name, size and modification time
of each file), the task kind, the labels, head, mode, LoRA settings, GLUE preset, the
lengths kept in the model's config and the seed (the head's initial weights come from
it). Tokenised rows are keyed by those plus the rows' content (a hash of their Arrow
buffers) and the encoding settings.

Memory: one entry (a new key replaces the old); a model larger than a quarter of the
memory available is not kept; :meth:`clear` drops it (the app calls it when the
project closes), and ``BERTSTUDIO_WARM=0`` (or off, no, false) turns the cache off.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import random
import threading
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    import torch

log = logging.getLogger(__name__)

ENV = "BERTSTUDIO_WARM"
OFF = ("0", "off", "no", "false")  # what turns an on/off environment variable off (BERTSTUDIO_ASSIST reads the same)


def env_switch(name: str) -> bool:
    """Whether the on/off environment variable ``name`` leaves its feature on (unset: on): only "0"
    turned the warm cache off, so BERTSTUDIO_WARM=false, as BERTSTUDIO_ASSIST=false does, left it on."""
    return os.environ.get(name, "1").strip().lower() not in OFF



@dataclass
class _Entry:
    key: tuple
    parts: Any  # RunParts holding the pristine model; handed out only as copies
    rng: tuple
    encoded: tuple[tuple, Any] | None = field(default=None)  # (key, (train_enc, eval_set, eval_enc))
    probed: tuple[tuple, Any] | None = field(default=None)  # (key, the probed head's (weight, bias) or None)


class WarmCache:
    """One pristine model and its tokenised rows, reused by the next run that fits them.
    Thread-safe: runs build on workers while the GUI thread may :meth:`clear`."""

    def __init__(self, enabled: bool | None = None) -> None:
        self.enabled = env_switch(ENV) if enabled is None else enabled
        self._lock = threading.Lock()
        self._entry: _Entry | None = None
        self._generation = 0  # bumped by clear(): a run that began before it stores nothing
        # the key each handed-out model was built for, so the rows and the probe need not derive it again
        self._keys: weakref.WeakKeyDictionary[Any, tuple] = weakref.WeakKeyDictionary()
        self._fingerprint: tuple[Any, str] | None = None  # (the ExampleSet, its rows_fingerprint): the last one

    def clear(self) -> None:
        with self._lock:
            self._entry, self._generation = None, self._generation + 1
            self._fingerprint = None  # nor the rows it last hashed

    def holds_model(self) -> bool:
        return self._entry is not None

    def would_reuse(self, config: Any, labels: list[str]) -> bool:
        """Whether :meth:`parts` would hand out the kept model for these settings."""
        entry = self._entry
        return self.enabled and entry is not None and entry.key == parts_key(config, labels)

    # --- the model ------------------------------------------------------------------
    def parts(self, config: Any, labels: list[str], build: Callable[[Any, list[str]], Any]) -> tuple[Any, bool]:
        """(RunParts for ``config``, whether they came from the cache). ``build(config, labels)``
        makes them cold; call right after seeding, as the engine builds."""
        if not self.enabled:
            return replace(build(config, labels), warm=self), False
        key = parts_key(config, labels)
        with self._lock:
            entry, generation = self._entry, self._generation
        if entry is not None and entry.key == key:
            parts = replace(entry.parts, model=copy.deepcopy(entry.parts.model), warm=self)
            _set_rng(entry.rng)  # as if this run had just built the model itself
            self._keys[parts.model] = key
            return parts, True
        with self._lock:
            if self._generation == generation:
                self._entry = None  # another model: the old one goes before the new one is loaded
        parts = build(config, labels)
        rng = _get_rng()
        if _fits_in_memory(parts.model):
            pristine = replace(parts, model=copy.deepcopy(parts.model))
            with self._lock:
                if self._generation == generation:
                    self._entry = _Entry(key, pristine, rng)
        else:
            log.info("warm start: the model is too large to keep a second copy in memory")
        self._keys[parts.model] = key
        return replace(parts, warm=self), False

    # --- tokenised rows ---------------------------------------------------------------
    def encoded(self, config: Any, parts: Any, train_set: Any, eval_set: Any,
                encode: Callable[[Any, Any, Any, Any], tuple[Any, Any, Any]]) -> tuple[tuple[Any, Any, Any], bool]:
        """(``encode(config, parts, train_set, eval_set)``'s result, whether it came from the
        cache). Reused only with the entry's model (same tokenizer and task) and equal rows."""
        with self._lock:
            entry = self._entry
        if entry is None or entry.key != self._key_of(config, parts):
            return encode(config, parts, train_set, eval_set), False
        key = (config.max_length, config.doc_stride, self._rows(train_set),
               self._rows(eval_set) if eval_set is not None else None)
        if entry.encoded is not None and entry.encoded[0] == key:
            return entry.encoded[1], True
        result = encode(config, parts, train_set, eval_set)
        with self._lock:
            if self._entry is entry:
                entry.encoded = (key, result)
        return result, False

    # --- the linear probe of an embedding head ---------------------------------------
    def probe(self, parts: Any, train_set: Any, config: Any, **kw: Any) -> bool:
        """train/probe.probe_head, or the head it fitted for the same rows on the kept model:
        the probe runs the frozen encoder over up to 4,096 training rows (seconds), and its
        result depends only on the pristine encoder, the rows and the lengths and seed."""
        from bertstudio.train.probe import probe_head

        with self._lock:
            entry = self._entry
        if entry is None or config.method == "setfit" or entry.key != self._key_of(config, parts):
            return probe_head(parts, train_set, config, **kw)  # after SetFit the encoder is not the kept one
        key = (config.max_length, config.doc_stride, config.seed, config.class_weight, self._rows(train_set))
        if entry.probed is not None and entry.probed[0] == key:
            if entry.probed[1] is None:
                return False
            import torch

            with torch.no_grad():
                for target, value in zip((parts.model.classifier.weight, parts.model.classifier.bias), entry.probed[1]):
                    target.copy_(value)
            return True
        fitted = probe_head(parts, train_set, config, **kw)
        cancel = kw.get("cancel")
        if cancel is None or not cancel.is_set():  # a cancelled probe fitted nothing worth keeping
            head = parts.model.classifier
            kept = (head.weight.detach().clone(), head.bias.detach().clone()) if fitted else None
            with self._lock:
                if self._entry is entry:
                    entry.probed = (key, kept)
        return fitted


    def _key_of(self, config: Any, parts: Any) -> tuple:
        """The key ``parts`` were built (or copied) for by :meth:`parts`; derived for parts built elsewhere."""
        key = self._keys.get(parts.model)
        return key if key is not None else parts_key(config, parts.labels)

    def _rows(self, examples: Any) -> str:
        """:func:`rows_fingerprint`, once per ExampleSet: the probe and the encoding ask for the same rows."""
        last = self._fingerprint
        if last is not None and last[0] is examples:
            return last[1]
        fingerprint = rows_fingerprint(examples)
        self._fingerprint = (examples, fingerprint)
        return fingerprint


def parts_key(config: Any, labels: list[str]) -> tuple:
    """Everything :func:`~bertstudio.train.engine.build_parts` reads, the seed included."""
    from bertstudio.bundled import resolve_model

    path = resolve_model(config.model)
    return (path, _folder_identity(path), config.task, tuple(labels), config.head, config.mode,
            (config.lora_rank, config.lora_alpha, config.lora_dropout, tuple(config.lora_targets)),
            config.glue_task, config.max_length, config.doc_stride, config.max_answer_length, config.seed)


def _folder_identity(path: str) -> tuple:
    """Name, size and modification time of each file: a model folder replaced in place is a new model."""
    folder = Path(path)
    if not folder.is_dir():
        return ()  # a Hub id: its cached snapshot does not change under one name and revision
    return tuple(sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()))


def rows_fingerprint(examples: Any) -> str:
    """A hash of an ExampleSet's content: kind, labels, meta and every column's Arrow buffers
    (with their offsets and lengths). Equal hashes mean equal rows; unequal ones may only
    cost a cache miss."""
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps([examples.kind, list(examples.labels), examples.meta], sort_keys=True, default=str).encode())
    table = examples.dataset.with_format("arrow")[:]
    for name in table.column_names:
        h.update(name.encode())
        for chunk in table.column(name).chunks:
            _hash_array(h, chunk)
    return h.hexdigest()


def _hash_array(h: Any, array: Any) -> None:
    h.update(f"{array.type}:{array.offset}:{len(array)}".encode())
    for buf in array.buffers():
        h.update(b"-" if buf is None else memoryview(buf))


def _get_rng() -> tuple:
    import torch  # here: the app makes a WarmCache at start-up, before torch is imported

    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    return random.getstate(), np.random.get_state(), torch.get_rng_state(), cuda


def _set_rng(state: tuple) -> None:
    import torch

    py, npy, cpu, cuda = state
    random.setstate(py)
    np.random.set_state(npy)
    torch.set_rng_state(cpu)
    if cuda is not None:
        torch.cuda.set_rng_state_all(cuda)


def _fits_in_memory(model: torch.nn.Module) -> bool:
    """A second copy of the weights takes at most a quarter of the memory available now."""
    size = sum(t.numel() * t.element_size() for t in model.state_dict().values())
    available = _available_memory()
    return available is None or size <= available // 4


def _available_memory() -> int | None:
    """Bytes the system could hand out without swapping (Linux's MemAvailable), None if unknown.
    psutil's (accelerate depends on it) reads it on macOS and Windows too, where /proc/meminfo,
    read here alone before, does not exist and the check let every copy through."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # noqa: BLE001 - no psutil, or a platform it cannot read: no memory check
        return None
