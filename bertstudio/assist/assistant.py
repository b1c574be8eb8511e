"""The labelling assistant: the Qt-free controller the Label page, the Data table and the
status bar drive.

Usage::

    assistant = LabellingAssistant(project, "train", on_event=print)
    item = assistant.next_row("uncertain")          # NextItem(row, audit, strategy, reason) or None
    s = assistant.suggestion("train", item.row)     # Suggestion(value, confidence, probs, source) or None
    project.set_gold("train", item.row, s.value)    # the GUI writes labels; the assistant only reads them
    assistant.on_labelled("train", item.row, s.value)
    assistant.audit().text()                        # "audit 81% (68-90%, n=42)"
    assistant.close()

Threading contract
------------------
* Every public method is called from one thread, the *owner* (the GUI thread), and
  returns at once: it reads immutable snapshots (:class:`~bertstudio.assist.fast.Scores`)
  or records a fact and wakes a thread. :meth:`predict` is the exception (it encodes
  texts) and :meth:`wait_idle` blocks by design (benchmarks, tests, never the GUI).
* The assistant owns two daemon threads. The *worker* embeds the pool (once; cached in
  the project folder), builds the zero-shot classifier and the k-means spread, refits
  the fast head after labels and refreshes the self-trained prior. Its requests are
  coalesced: asking for a refit while one is pending does nothing more, and a refit
  reads the labels of the moment it starts (latest wins). The *trainer* trains the
  strong model every ``strong_every`` labels (audit labels count, though it never trains
  on them: the 100th label the page counts is the 100th the person made) or on :meth:`train_now`, one at a
  time; a request made during a training runs once it ends, with the labels of then.
* ``on_event(event)`` is called from those two threads with a small dict of plain
  values (``{"kind": "progress", "task": "embedding", "done": 120, "total": 4000}``,
  ``"ready"``, ``"scores"``, ``"training"``, ``"trained"``, ``"audit"``, ``"error"``,
  ``"reset"``); it must return quickly (the GUI emits a queued Qt signal from it).
* Labels live in the project's journal; the assistant never writes them. It reads gold
  values from the project (thread-safe) and follows its change events when
  ``follow_project`` is true (then :meth:`on_labelled` is called for you; calling it
  too is harmless). Its own state - the audit set, skipped rows, the chart's history -
  is ``<project>/cache/assist-<split>.json`` (atomic writes), the latest strong model
  ``<project>/cache/assist-model-<split>/`` (safetensors + JSON).
* :meth:`cancel` stops the embedding and a training after their current batch/step;
  :meth:`stop` also ends both threads and stops following the project, and returns at
  once; :meth:`close` does that, waits for both threads and saves the state. Closing
  mid-training loses no label: there is nothing of the user's in flight.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from bertstudio.assist import session as S
from bertstudio.assist.audit import AuditStats
from bertstudio.assist.fast import Scores
from bertstudio.assist.kinds import spec_for, value_of, word_tags
from bertstudio.assist.strategies import NextItem, uncertainty_moved, uncertainty_reason
from bertstudio.assist.zeroshot import DEFAULT_TEMPLATES, TEMPERATURE

log = logging.getLogger(__name__)

EventCallback = Callable[[dict], None]


@dataclass
class AssistSettings:
    """What the user (or the benchmark) can set; defaults are the app's."""

    model: str | None = None  # the frozen encoder (default: the bundled MiniLM)
    templates: tuple[str, ...] = DEFAULT_TEMPLATES
    descriptions: dict[str, str] = field(default_factory=dict)  # label -> what it means, for zero-shot
    temperature: float = TEMPERATURE
    strong_every: int = 50  # train the strong model every this many labels, audit ones included (0: only on demand)
    strong_method: str = "auto"  # auto | setfit | finetune | off
    self_train: bool = True
    seed: int = 0


@dataclass(frozen=True)
class Suggestion:
    """A model's value for one row: never a gold label (the GUI shows it apart)."""

    value: Any  # a label name, a float, or one tag per word
    confidence: float  # top probability (tagging: mean over words; regression: nan)
    source: str  # "zero-shot" | "fast" | "setfit" | "finetune"
    probs: dict[str, float] | None = None
    word_confidence: list[float] | None = None


class LabellingAssistant(S.AssistantState):
    """See the module docstring. ``start=False`` leaves the threads unstarted (tests)."""

    def __init__(self, project: Any, split: str = "train", *, settings: AssistSettings | None = None,
                 on_event: EventCallback | None = None, follow_project: bool = True, start: bool = True) -> None:
        self.project = project
        self.split = split
        self.settings = settings or AssistSettings()
        self.kind = project.kind
        self.spec = spec_for(self.kind)
        self._on_event = on_event
        self._lock = threading.RLock()  # guards the queue, gold values and the published snapshots
        super().__init__()
        self._init_rows()
        self._unsubscribe = project.subscribe(self._on_project_event) if follow_project else None
        if start:
            self.start()

    # ------------------------------------------------------------------ owner-thread API
    @property
    def labels(self) -> list[str]:
        return list(self._labels)

    def suggestion(self, split: str, row: int) -> Suggestion | None:
        """The shown model's value for ``row`` (None: nothing to suggest yet, or another split)."""
        scores = self._shown_scores()
        if split != self.split or scores is None or not 0 <= row < self._n:
            return None
        labels = list(scores.meta.get("labels", self._labels))
        if scores.word_probs is not None:
            return self._word_suggestion(scores.word_probs[row], labels, scores.source)
        if scores.meta.get("regression"):
            return Suggestion(float(scores.probs[row, 0]), float("nan"), scores.source)
        p = scores.probs[row]
        best = int(p.argmax())
        return Suggestion(labels[best], float(p[best]), scores.source, {n: float(v) for n, v in zip(labels, p)})

    def next_row(self, strategy: str = "uncertain", *, label: str | None = None) -> NextItem | None:
        """The next row to label in ``strategy`` (see :mod:`bertstudio.assist.strategies`)."""
        scores = self._shown_scores()
        margin = scores.margin if scores is not None else None
        probs = scores.probs if scores is not None and not scores.meta.get("regression") else None
        with self._lock:
            index = None
            if strategy == "by_label" and self._labels:
                if label is None:  # the rarest label among the gold values
                    counts = self.label_counts()
                    label = min(self._labels, key=lambda n: (counts.get(n, 0), self._labels.index(n)))
                index = self._labels.index(label) if label in self._labels else None
            item = self._queue.next_row(strategy, margin=margin, scores=probs, label_index=index, label_name=label)
            if item is not None and margin is not None:
                item = uncertainty_reason(item, margin, scores.word_probs is not None)
                self._queue.pending = item
            return item

    def pick_now(self, item: NextItem) -> NextItem:
        """``item`` (a pick handed out earlier) with its reason updated for the model shown now."""
        scores = self._shown_scores()
        if scores is None:
            return item
        return uncertainty_moved(item, scores.margin, scores.word_probs is not None)

    def pending(self) -> NextItem | None:
        """The item :meth:`next_row` last handed out, while it is neither labelled nor skipped."""
        with self._lock:
            return self._queue.pending

    def is_audit(self, row: int) -> bool:
        """``row`` was drawn for the audit and has no label yet (skipped, passed over or undone
        included): no model's guess may nudge the label the audit checks the model against."""
        with self._lock:
            return 0 <= row < self._n and self._queue.is_audit(row)

    def skip(self, row: int) -> None:
        """The user moved on without labelling ``row``: it comes back after every other row."""
        with self._lock:
            self._queue.skip(row)

    def on_labelled(self, split: str, row: int, value: Any) -> None:
        """Record a gold change (``None`` = cleared) and schedule a refit; returns at once."""
        if split != self.split or not 0 <= row < self._n:
            return
        with self._lock:
            if self._gold.get(row) == value and (value is not None) == bool(self._queue.labelled[row]):
                return  # already known (the project event and the GUI's call both arrive)
            if value is None:
                self._gold.pop(row, None)
            else:
                self._gold[row] = value
            self._queue.mark_labelled(row, value is not None)
            self._label_version += 1
            labelled = len(self._gold)  # the audit labels count: the page shows the person every label made
            due = self.settings.strong_every > 0 and labelled >= self._next_strong_at
            if due:
                every = self.settings.strong_every
                self._next_strong_at = (labelled // every + 1) * every
        self._request("refit")  # on the worker thread: the caller (the GUI) never waits for a fit
        if due:
            self.train_now()

    def train_now(self) -> None:
        """Ask for a strong model now (it trains after the current one, if any)."""
        if self.settings.strong_method == "off" or self.spec.head is None:
            return
        with self._cond:
            self._want_strong = self._strong_due = True
            self._cond.notify_all()

    def counts(self) -> dict[str, int]:
        """total, labelled, unlabelled, audit, training, skipped (every row is in one count)."""
        with self._lock:
            return self._queue.counts()

    def label_counts(self) -> dict[str, int]:
        """Training labels per label name (audit rows excluded)."""
        with self._lock:
            out = {n: 0 for n in self._labels}
            for row, v in self._gold.items():
                if row not in self._queue.audit_rows and isinstance(v, str):
                    out[v] = out.get(v, 0) + 1
            return out

    def audit(self) -> AuditStats:
        """The shown model's accuracy on the audit set."""
        return self._audit_shown

    def audit_by_model(self) -> dict[str, AuditStats]:
        return dict(self._audit_all)

    def history(self) -> list[dict]:
        """``[{labels, audit_n, accuracy, low, high, source}]``, one entry per change (for the chart)."""
        with self._lock:
            return [dict(h) for h in self._history]

    def random_order_estimate(self) -> list[tuple[int, float]]:
        """Estimated accuracy of random-order labelling at k labels, from the audit set."""
        return list(self._random_curve)

    def status(self) -> dict[str, Any]:
        """A snapshot for the status bar: phase, progress, shown model, training, counts, audit."""
        scores = self._shown_scores()
        return {"phase": self._phase, "progress": dict(self._progress), "ready": self._ready.is_set(),
                "shown": scores.source if scores is not None else None, "training": dict(self._training),
                "counts": self.counts(), "audit": self._audit_shown.to_dict(),
                "waiting": None if scores is not None else self.waiting(), "messages": list(self.messages)}

    def predict(self, examples: Any, *, progress: Callable[[int, int], None] | None = None) -> list[Suggestion]:
        """The shown model's suggestions for another ExampleSet of this kind (the benchmark's dev
        set). Encodes its texts - seconds to minutes: call it from a worker, not the GUI thread."""
        from bertstudio.assist.pool import embed_pool, head_outputs, read_pool, strong_features, token_model_probs

        scores = self._shown_scores()
        if scores is None:
            return [None] * len(examples)
        pool = read_pool(self.spec, examples)
        labels = list(scores.meta.get("labels", self._labels))
        head = scores.meta.get("head")
        if scores is self._strong and self._strong_model is not None:
            model = self._strong_model
            if self.spec.per_word:
                word_probs = token_model_probs(model.model, model.tokenizer, pool.tokens or [], progress=progress)
                return [self._word_suggestion(p, labels, scores.source) for p in word_probs]
            out = head_outputs(model.model, strong_features(model.model, model.tokenizer, pool, progress=progress))
        else:
            embed_pool(pool, self._cache, self._words, progress=progress)
            if scores.word_probs is not None:
                return [self._word_suggestion(head.predict_proba(w) if len(w) else np.zeros((0, len(labels))), labels,
                                              scores.source) for w in pool.words]
            out = head.predict_proba(pool.features)
        if scores.meta.get("regression"):
            return [Suggestion(float(v), float("nan"), scores.source) for v in out[:, 0]]
        return [Suggestion(labels[int(p.argmax())], float(p.max()), scores.source,
                           {n: float(v) for n, v in zip(labels, p)}) for p in out]

    def _word_suggestion(self, probs: np.ndarray, labels: list[str], source: str) -> Suggestion:
        """One sentence's tags (valid BIO on a BIO label set: :func:`~bertstudio.assist.kinds.word_tags`)
        and, per word, the probability of the tag suggested."""
        tags = word_tags(labels, probs)
        conf = probs[np.arange(len(tags)), tags] if len(tags) else np.zeros(0)
        return Suggestion(value_of(self.spec, labels, tags), float(conf.mean()) if len(conf) else 1.0, source, None,
                          [float(c) for c in conf])

    @property
    def shown_scores(self) -> Scores | None:
        """The snapshot behind :meth:`suggestion` (for the Data table's column)."""
        return self._shown_scores()
