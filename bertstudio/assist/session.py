"""The assistant's threads, jobs and saved state (the public API is in assistant.py).

Jobs of the *worker* thread, in priority order: ``prepare`` (encoder, pool vectors,
zero-shot, self-trained prior, k-means spread), ``refit`` (fast head + pool scores +
audit), ``refresh`` (the self-trained prior again, with the labels so far). The
*trainer* thread runs the strong model (trainer.py); which model is shown is shown.py's.
See assistant.py for the contract.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from bertstudio.assist import fast as F
from bertstudio.assist.audit import AuditStats, audit_stats
from bertstudio.assist.cache import EmbeddingCache, WordEmbeddingCache
from bertstudio.data.project_store import CACHE_DIR
from bertstudio.assist.encoder import Cancelled, SentenceEncoder
from bertstudio.assist.fast import Scores
from bertstudio.assist.kinds import WAIT_MORE_LABELS
from bertstudio.assist.pool import PoolData, embed_pool, read_pool, sentence_vectors
from bertstudio.assist.shown import ShownModel
from bertstudio.assist.strategies import Queue, kmeans_spread
from bertstudio.assist.trainer import TrainerJobs
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.kinds import get_spec
from bertstudio.data.regular_file import read_regular_text
from bertstudio.errors import DataError

log = logging.getLogger(__name__)

STATE_VERSION = 1
STATE_SAVE_EVERY_S = 5.0  # a crash loses at most this much of the queue's bookkeeping (never a label)
_JOBS = ("prepare", "refit", "refresh")


class AssistantState(TrainerJobs, ShownModel):
    """Threads, jobs and persistence of :class:`~bertstudio.assist.assistant.LabellingAssistant`."""

    # set by the subclass before __init__: project, split, settings, kind, spec, _lock, _on_event

    def __init__(self) -> None:
        self._cond = threading.Condition(self._lock)
        self._want = {job: False for job in _JOBS}
        self._want_strong = False
        # a strong model was asked for (every N labels, or "Train now") and has not been built yet:
        # kept in the state file, so a project closed (or a process killed) mid-training trains it at reopen
        self._strong_due = False
        self._restore_pending = True  # the trainer first looks for the last session's model
        self._busy = {"worker": False, "trainer": False}
        self._closed = False
        self._saved = False  # close() saved the state (once)
        self._cancel = threading.Event()  # set by cancel()/close(): stops embedding and training
        # the strong training's own cancel: set with _cancel, and by a training the person starts (it
        # gave way: trained again after it, see train/training_lock.py)
        self._strong_cancel = threading.Event()
        self._ready = threading.Event()
        self._threads: list[threading.Thread] = []
        self.messages: list[str] = []
        self._phase = "starting"
        self._progress: dict[str, Any] = {}
        self._training: dict[str, Any] = {}
        self._history: list[dict] = []
        self._random_curve: list[tuple[int, float]] = []
        self._audit_shown = audit_stats(np.zeros(0))
        self._audit_all: dict[str, AuditStats] = {}
        self._fast: Scores | None = None
        self._strong: Scores | None = None
        self._strong_model: Any = None
        self._shown = "fast"
        self._fast_head: Any = None
        self._fast_prior: Any = None  # the prior the fast head was fitted with (warm starts)
        self._saved_at = 0.0
        self._prior: Any = None
        self._prior0: Any = None  # the prior before any label (zero-shot, self-trained on the pool)
        self._zero_shot: Any = None
        self._pool: PoolData | None = None
        self._rows_version = 0  # one more each time the split's rows are replaced (split_imported)
        self._encoder: SentenceEncoder | None = None
        self._cache: EmbeddingCache | None = None
        self._words: WordEmbeddingCache | None = None
        self._label_version = 0
        # the label set's history this session, for a model trained across a change (trainer.py):
        # one more each time a label is added or removed (a model's classes are then not the
        # project's), and every rename in order (the same classes under new names)
        self._label_epoch = 0
        self._renames: list[tuple[str, str]] = []
        self._refreshed_at = 0  # training labels when the prior was last refreshed
        self._scored_version = -1

    # ------------------------------------------------------------------ rows and saved state
    @property
    def cache_dir(self) -> Path:
        return Path(self.project.folder) / CACHE_DIR

    @property
    def state_path(self) -> Path:
        return self.cache_dir / f"assist-{self.split}.json"

    def _init_rows(self, carried: dict | None = None) -> None:
        """Read the split's rows and gold values; the queue's bookkeeping comes from ``carried``
        (the live state, kept through an append) or from the state file of the last session."""
        examples = self.project.examples(self.split) if self.split in self.project.split_names else None
        self._n = len(examples) if examples is not None else 0
        self._labels = list(self.project.labels)
        self._label_ids = list(self.project.label_ids)  # each label's stable id (a saved model's are compared)
        gold = examples.gold_values() if self._n else []
        self._gold: dict[int, Any] = {i: v for i, v in enumerate(gold) if v is not None}
        self._queue = Queue(self._n, seed=self.settings.seed, audit=self.spec.model_in_loop)
        labelled = np.zeros(self._n, dtype=bool)
        labelled[list(self._gold)] = True
        self._queue.labelled = labelled
        self._data_id = self._split_identity()
        saved = carried if carried is not None else self._read_state()
        if saved is not None:
            try:
                self._queue.load_state(saved.get("queue", {}), labelled)
                history = saved.get("history", [])
                self._history = [h for h in history if isinstance(h, dict)] if isinstance(history, list) else []
            except (AttributeError, TypeError, ValueError, OverflowError) as exc:  # the right JSON, the wrong insides
                self.messages.append(f"{self.state_path.name}: damaged, starting afresh ({type(exc).__name__}: {exc})")
                self._queue = Queue(self._n, seed=self.settings.seed, audit=self.spec.model_in_loop)
                self._queue.labelled = labelled
                self._history = []
        every = self.settings.strong_every
        self._next_strong_at = (len(self._gold) // every + 1) * every if every > 0 else 0
        if carried is None and saved is not None and saved.get("strong_due") is True \
                and self.settings.strong_method != "off" and self.spec.head is not None:
            self._strong_due = self._want_strong = True

    def _split_identity(self) -> dict[str, Any]:
        info = self.project.split_info.get(self.split, {})
        return {"rows": info.get("rows"), "imported": info.get("imported"), "lineage": info.get("lineage")}

    def _same_rows(self, saved: Any, now: dict[str, Any] | None = None) -> bool:
        """True when state written for the split identity ``saved`` still fits the rows of identity
        ``now`` (default: the current one): the same data, or the same rows with more appended
        since (its row numbers still name the same rows). An identity without a lineage (a project
        from before appends kept one) must match."""
        now = self._data_id if now is None else now
        if saved == now:
            return True
        if not isinstance(saved, dict) or not now.get("lineage") or saved.get("lineage") != now["lineage"]:
            return False
        rows, total = saved.get("rows"), now.get("rows")
        return isinstance(rows, int) and isinstance(total, int) and 0 <= rows <= total

    def _read_state(self) -> dict | None:
        try:
            text = read_regular_text(self.state_path, missing_ok=True, max_bytes=256 << 20)  # never opens a FIFO
            if text is None:
                return None
            data = json.loads(text)
        except (DataError, ValueError, RecursionError) as exc:
            self.messages.append(f"{self.state_path.name}: unreadable, starting afresh ({exc})")
            return None
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION \
                or not self._same_rows(data.get("data")):
            self.messages.append(f"{self.state_path.name}: written for other data, starting afresh")
            return None
        return data

    def save_state(self) -> None:
        """Write the audit set, skips and history (atomic). Called by the worker (at most every
        :data:`STATE_SAVE_EVERY_S` seconds) and by close()."""
        self._saved_at = time.monotonic()
        with self._lock:
            data = {"version": STATE_VERSION, "data": self._data_id, "queue": self._queue.to_state(),
                    "history": self._history, "strong_due": self._strong_due}
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            # the assistant's own name: a FIFO or link there (a tampered project) is replaced, as before
            # writers refused to replace one
            atomic_write_bytes(self.state_path, json.dumps(data).encode("utf-8"), own=True)
        except (OSError, DataError) as exc:  # (a folder at its name): the state is not kept, the labels are
            log.warning("assistant state not saved: %s", exc)

    def _training_count(self) -> int:
        return len(self._gold) - sum(1 for r in self._queue.audit_rows if r in self._gold)

    def _rows_snapshot(self) -> tuple[int, PoolData | None, list[int], list[Any]]:
        """(the rows' version, the pool, the training rows and their values), read together: an
        import between reading the pool and the labels gave row numbers past the pool's end."""
        with self._lock:
            return (self._rows_version, self._pool, *self._training_rows())

    def _training_rows(self) -> tuple[list[int], list[Any]]:
        with self._lock:
            audit = self._queue.audit_rows
            rows = sorted(r for r in self._gold if r not in audit)
            return rows, [self._gold[r] for r in rows]

    # ------------------------------------------------------------------ threads
    def start(self) -> None:
        if self._threads:
            return
        for name, target in (("worker", self._worker_loop), ("trainer", self._trainer_loop)):
            t = threading.Thread(target=target, name=f"bertstudio-assist-{name}", daemon=True)
            t.start()
            self._threads.append(t)
        self._request("prepare")

    def _request(self, job: str) -> None:
        with self._cond:
            self._want[job] = True
            self._cond.notify_all()

    def _emit(self, kind: str, **data: Any) -> None:
        if self._on_event is None:
            return
        try:
            self._on_event({"kind": kind, **data})
        except Exception:  # noqa: BLE001 - a listener's bug must not kill the worker
            log.exception("assistant event listener failed")

    def _worker_loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not (any(self._want.values()) and
                                                (self._ready.is_set() or self._want["prepare"])):
                    self._cond.wait()
                if self._closed:
                    return
                job = next(j for j in _JOBS if self._want[j])
                self._want[job] = False
                self._busy["worker"] = True
            try:
                if job == "prepare":
                    self._start_work()
                getattr(self, f"_job_{job}")()
            except Cancelled:
                pass
            except Exception as exc:  # noqa: BLE001 - reported, and the loop goes on
                log.exception("assistant %s failed", job)
                self._phase = "failed" if job == "prepare" else self._phase
                self._emit("error", job=job, message=str(exc))
            finally:
                with self._cond:
                    self._busy["worker"] = False
                    self._cond.notify_all()

    def _trainer_loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not ((self._want_strong or self._restore_pending) and self._ready.is_set()):
                    self._cond.wait()
                if self._closed:
                    return
                self._restore_pending = False
                self._busy["trainer"] = True
            try:
                self._start_work()
                self._restore_strong()
                if self._want_strong_now():
                    self._job_strong()
            except Cancelled:
                with self._cond:  # stopped by the person: not due again; by a close: trained at reopen
                    gave_way = self._strong_cancel.is_set() and not self._cancel.is_set() and not self._closed
                    if gave_way:  # a run the person started took the turn: trained again, after it
                        self._strong_due = self._want_strong = True
                    else:
                        self._strong_due = self._strong_due and self._closed
                self._training = {"status": "gave_way" if gave_way else "cancelled"}
                self._emit("trained", status=self._training["status"])
            except Exception as exc:  # noqa: BLE001
                log.exception("assistant training failed")
                with self._cond:
                    self._strong_due = self._want_strong
                self._training = {"status": "failed", "message": str(exc)}
                self._emit("error", job="strong", message=str(exc))
            finally:
                with self._cond:
                    self._busy["trainer"] = False
                    self._cond.notify_all()

    def _want_strong_now(self) -> bool:
        with self._cond:
            want, self._want_strong = self._want_strong, False
            return want

    def wait_idle(self, timeout: float | None = None, *, training: bool = True) -> bool:
        """Block until no job is pending or running (benchmarks and tests; never the GUI);
        ``training=False`` waits for the worker only (a strong model may go on training).
        False when ``timeout`` seconds passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout

        def busy() -> bool:
            worker = any(self._want.values()) or self._busy["worker"]
            return worker or (training and (self._want_strong or self._restore_pending or self._busy["trainer"]))

        with self._cond:
            while busy() and not self._closed:
                if self._phase == "failed" and not any(self._busy.values()):
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _start_work(self) -> None:
        """A new long job starts: forget an earlier cancel() (never after close())."""
        with self._cond:
            if self._closed:
                raise Cancelled()
            self._cancel.clear()
            self._strong_cancel.clear()

    def cancel(self) -> None:
        """Stop the embedding and a running training after their current batch or step."""
        self._cancel.set()
        self._strong_cancel.set()

    def stop(self) -> None:
        """Stop following the project and tell both threads to end (a running embedding or
        training stops after its current batch or step); returns at once. :meth:`close`
        then waits for them and saves; the GUI calls it from another thread."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._closed = True
            self._cancel.set()
            self._strong_cancel.set()
            self._cond.notify_all()

    def close(self, timeout: float | None = 60.0) -> None:
        """Cancel work, wait for the threads, save the state. Never touches labels. Idempotent."""
        self.stop()
        for t in self._threads:
            t.join(timeout)
        self._threads = []
        with self._cond:
            already, self._saved = self._saved, True
        if not already:
            self.save_state()
            for cache in (self._cache, self._words):
                if cache is not None:
                    cache.save()

    def __enter__(self) -> "AssistantState":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ project events (owner thread)
    def _on_project_event(self, event: dict) -> None:
        what = event.get("kind")  # the project's event type (not a task kind)
        if what == "gold_changed" and event.get("split") == self.split:
            self.on_labelled(self.split, int(event["row"]), event.get("value"))
        elif what == "labels_changed":
            examples = self.project.examples(self.split) if self.split in self.project.split_names else None
            gold = examples.gold_values() if examples is not None else []
            dropped = False
            with self._lock:  # (one column read: a call per row took 10 s on the GUI thread for 1.2M labels)
                self._labels = list(self.project.labels)
                self._label_ids = list(self.project.label_ids)
                self._gold = {r: gold[r] if r < len(gold) else None for r in self._gold}
                if event.get("op") == "rename_label":  # the same classes: the models shown predict the new name
                    self._follow_rename(str(event["old"]), str(event["new"]))
                elif event.get("op") != "set_color":  # a class more or less: the models' columns are not the labels
                    self._label_epoch += 1
                    self._strong = self._strong_model = None
                    # the fast scores too (they suggested a removed class until the refit): the refit
                    # after prepare fits a head of today's classes, from no head of the old ones
                    self._fast = self._fast_head = self._fast_prior = None
                    # and the dropped models' audit figures: the status said "n=1, 0 %" of a model
                    # that no longer existed until the refit
                    self._audit_shown, self._audit_all = audit_stats(np.zeros(0)), {}
                    dropped = True
            if dropped:
                self._emit("audit", **self._audit_shown.to_dict())
            self._request("prepare")
        elif what == "split_imported" and event.get("split") == self.split:
            with self._lock:
                old_id, new_id = self._data_id, self._split_identity()
                appended = old_id != new_id and self._same_rows(old_id, new_id)
                live = {"queue": self._queue.to_state(), "history": list(self._history)}
                self._fast = self._strong = None
                self._ready.clear()
                # rows appended (Add example, an appending import): the audit set, skips and chart
                # stay, and the last strong model comes back once the new rows are scored
                pending = self._queue.pending
                if not appended:  # a model asked for on the old rows is no longer due (nobody asked on these)
                    self._strong_due = False
                self._init_rows(carried=live if appended else None)
                if appended:
                    self._queue.pending = pending  # the item on screen: labelling it still counts as a pick
                self._restore_pending = self._restore_pending or appended
                self._pool = None
                self._rows_version += 1  # a job still at work on the old rows keeps nothing it built
            self._emit("reset", reason="rows were added to the split" if appended else "the split was imported again")
            self._request("prepare")

    def _follow_rename(self, old: str, new: str) -> None:
        """Both models' scores name ``new`` for the class called ``old`` at once, not from the next
        refit on (the fast model suggested the old name meanwhile). Called with the lock held."""
        self._renames.append((old, new))
        if self._strong_model is not None:
            self._strong = self._renamed(self._strong, self._strong_model, self._labels)
        if self._fast is not None and "labels" in self._fast.meta:
            self._fast = F.with_label_names(self._fast, [new if n == old else n for n in self._fast.meta["labels"]])

    # ------------------------------------------------------------------ jobs
    def _progress_cb(self, task: str):
        last = [0.0]

        def report(done: int, total: int) -> None:
            self._progress = {"task": task, "done": done, "total": total}
            now = time.monotonic()
            if now - last[0] > 0.1 or done >= total:  # at most ten events a second
                last[0] = now
                self._emit("progress", task=task, done=done, total=total)
        return report

    def _job_prepare(self) -> None:
        from bertstudio.assist.zeroshot import build_zero_shot
        from bertstudio.bundled import resolve_model

        self._phase = "embedding"
        if self.spec.features is None or self._n == 0:
            self._phase = "ready"
            self._ready.set()
            self._emit("ready", suggestions=False, reason=self.waiting())
            return
        if self._encoder is None:
            self._encoder = SentenceEncoder.from_path(resolve_model(self.settings.model))
            self._cache = EmbeddingCache(self.cache_dir, self._encoder)
            self._words = WordEmbeddingCache(self.cache_dir, self._encoder)
            self.messages.extend(self._cache.messages + self._words.messages)
        with self._lock:
            rows_version, pool = self._rows_version, self._pool
        if pool is None:
            pool = embed_pool(read_pool(self.spec, self.project.examples(self.split)), self._cache, self._words,
                              progress=self._progress_cb("embedding"), cancel=self._cancel)
            with self._lock:
                if rows_version != self._rows_version:
                    # Rows came in while this pool was embedded (an import that appended unlabelled pairs):
                    # its row count is not the queue's (IndexError in the spread). The import asked for
                    # another prepare, which embeds the new rows.
                    return
                self._pool = pool
        self._zero_shot = None
        self._prior = None
        if self.spec.zero_shot and len(self._labels) >= 2 and pool.vectors is not None:
            self._phase = "zero-shot"
            self._zero_shot = build_zero_shot(
                self._labels, lambda texts: self._cache.embed(texts), pool.vectors,
                descriptions=self.settings.descriptions, templates=self.settings.templates,
                temperature=self.settings.temperature)
            self._prior = self._prior0 = self._zero_shot.head()
            if self.settings.self_train:
                with self._lock:  # no labels, but the audit's rows are never pseudo-labelled
                    reserved = self._queue.audit_reserved()
                reserved = reserved[reserved < len(pool.features)]
                self._prior0 = F.self_train(pool.features, self._prior, exclude=reserved)
                self._refresh_prior()
        vectors = pool.vectors if pool.vectors is not None else sentence_vectors(pool.words)
        if vectors is not None and not self._queue.spread:
            with self._lock:
                if rows_version != self._rows_version:
                    return
                # the audit's reserve is not handed out by the orders: a spread pick there was passed over
                free = np.setdiff1d(np.flatnonzero(~self._queue.labelled), self._queue.audit_reserved())
            lengths = np.array([len(t) for t in pool.tokens]) if self.spec.per_word and pool.tokens else None
            spread = kmeans_spread(vectors, free, seed=self.settings.seed, lengths=lengths)
            with self._lock:
                if rows_version != self._rows_version:
                    return
                self._queue.spread = spread
        self._phase = "ready"
        self._ready.set()
        with self._cond:
            self._cond.notify_all()  # the trainer may be waiting for the pool
        self._job_refit()
        self._emit("ready", suggestions=self._shown_scores() is not None, reason=self.waiting())

    def waiting(self) -> str:
        """What the user is told while there is nothing to suggest: the kind's words, or, for a label
        set smaller than the kind's models learn from, to add a label (a project of labels ['pos'] was
        promised suggestions "from the label names" that one class cannot give)."""
        kind = get_spec(self.kind)
        if kind.has_label_set and len(self._labels) < kind.min_labels:
            return WAIT_MORE_LABELS
        return self.spec.waiting

    def _refresh_prior(self) -> None:
        """Self-train the prior from the current head, with the training labels (layer 2 of fast.py)."""
        pool, zs = self._pool, self._zero_shot
        if pool is None or zs is None or pool.features is None:
            return
        rows, values = self._training_rows()
        index = {n: i for i, n in enumerate(self._labels)}
        keep = [i for i, v in enumerate(values) if v in index]
        rows = [rows[i] for i in keep]
        y = np.array([index[values[i]] for i in keep], dtype=np.int64)
        with self._lock:
            # neither labelled rows nor the audit's, drawn or reserved (see Queue.audit_reserved)
            exclude = np.array(sorted(r for r in set(self._gold) | set(self._queue.audit_reserved().tolist())
                                      if r < len(pool.features)), dtype=np.int64)
        if not rows and self._prior0 is not None:
            self._prior, self._refreshed_at = self._prior0, 0
            return
        start = F.fit_classifier(pool.features[rows], y, len(self._labels), zs.head()) if rows else zs.head()
        self._prior = F.self_train(pool.features, start, X_labelled=pool.features[rows], y_labelled=y, exclude=exclude)
        self._refreshed_at = len(rows)

    def _job_refresh(self) -> None:
        self._refresh_prior()
        self._job_refit()

    def _job_refit(self) -> None:
        with self._lock:  # the labels the rows' values are named with
            rows_version, pool, rows, values = self._rows_snapshot()
            labels, labels_seen = self._labels_snapshot()
        if pool is None:
            return
        version = self._label_version
        scores = self._fit_fast(pool, rows, values, version, labels)
        with self._lock:
            if rows_version != self._rows_version:  # scores of the rows before an import: not the queue's
                return
            names = self._names_now(labels, labels_seen)
            if names is None:  # a class added or removed while fitting: the refit the change asked for follows
                return
            self._fast = F.with_label_names(scores, names) if scores is not None else None
        self._update_audit()
        self._emit("scores", source=scores.source if scores else None, labels=len(rows), version=version)
        if time.monotonic() - self._saved_at > STATE_SAVE_EVERY_S:  # fsyncs cost tens of ms: not every label
            self.save_state()
        if self.settings.self_train and self._zero_shot is not None and len(rows) - self._refreshed_at >= F.REFRESH_EVERY:
            self._request("refresh")

    def _fit_fast(self, pool: PoolData, rows: list[int], values: list[Any], version: int,
                  labels: list[str]) -> Scores | None:
        spec = self.spec
        if spec.head == "ridge":
            return F.regression_scores(pool.features, [float(v) for v in values], rows, version,
                                       pairs=pool.pairs is not None) if rows else None
        index = {n: i for i, n in enumerate(labels)}
        if spec.head == "token":
            keep = [(r, v) for r, v in zip(rows, values) if all(t in index for t in v)]
            if not keep:
                return None
            # stopped by a close only: a cancel() is the person stopping a training, and must not lose a refit
            return F.token_scores(pool.words, [r for r, _ in keep], [[index[t] for t in v] for _, v in keep],
                                  len(labels), version, stop=lambda: self._closed)
        keep = [(r, index[v]) for r, v in zip(rows, values) if v in index]
        y = np.array([k for _, k in keep], dtype=np.int64)
        rows = [r for r, _ in keep]
        start = self._fast_head if self._fast_prior is self._prior else None  # same problem, a few more labels
        head = F.fit_classifier(pool.features[rows], y, len(labels), self._prior, start=start) \
            if len(labels) >= 2 else None
        self._fast_prior = self._prior
        self._fast_head = head
        if head is None:
            return None
        source = "fast" if rows else "zero-shot"
        return F.classification_scores(source, head.predict_proba(pool.features), rows, version, head=head,
                                       labels=tuple(labels))
