"""The strong model's jobs on the assistant's *trainer* thread (see assistant.py): train it
with the training labels (and, for sentence classification, pseudo-labels of the pool),
score the pool with it, save it, and restore the last session's model."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from bertstudio.assist import fast as F
from bertstudio.assist.fast import Scores
from bertstudio.assist.pool import PoolData, head_outputs, strong_features, token_model_probs
from bertstudio.assist.strong import save_strong

log = logging.getLogger(__name__)

# Pseudo-labels for fine-tuning: the surest 40% of the pool (the self-training fraction of fast.py),
# at most 2,000 rows so a training stays minutes long on 2 cores whatever the pool's size.
PSEUDO_FRACTION = 0.4
PSEUDO_MAX = 2000


class TrainerJobs:
    """Mixed into :class:`~bertstudio.assist.session.AssistantState` (shares its attributes)."""

    # ------------------------------------------------------------------ the strong model (trainer thread)
    def _job_strong(self) -> None:
        from bertstudio.assist.strong import StrongRequest, choose_method
        from bertstudio.bundled import resolve_model

        rows_version, pool, rows, values = self._rows_snapshot()
        labels, labels_seen = self._labels_snapshot()
        counts = self._counts_of(values)
        if pool is None or len(rows) < 2 or (self.spec.head == "logistic" and sum(1 for c in counts.values() if c) < 2):
            self._strong_built()  # nothing to learn from: not due until asked again
            return
        pseudo_rows, pseudo_values = [], []
        if self.spec.zero_shot and self.settings.self_train and self.settings.strong_method != "setfit":
            pseudo_rows, pseudo_values = self._pseudo_labels(len(pool))
        method, reason = choose_method(self.kind, counts, self.settings.strong_method, pseudo=len(pseudo_rows))
        self._training = {"status": "training", "method": method, "reason": reason, "labels": len(rows),
                          "step": 0, "total": 0}
        self._emit("training", method=method, reason=reason, labels=len(rows))
        request = StrongRequest(
            kind=self.kind, labels=labels, rows=rows, values=values,
            texts=[pool.texts[r] for r in rows] if pool.texts is not None else [],
            pairs=[pool.pairs[r] for r in rows] if pool.pairs is not None else None,
            tokens=[pool.tokens[r] for r in rows] if pool.tokens is not None else None,
            model_path=resolve_model(self.settings.model), seed=self.settings.seed, method=self.settings.strong_method,
            init_head=self._fast_head if self.spec.head == "logistic" else None)
        if method == "finetune" and pseudo_rows and pool.texts is not None:
            request.pseudo_rows, request.pseudo_values = pseudo_rows, pseudo_values
            request.pseudo_texts = [pool.texts[r] for r in pseudo_rows]

        def progress(step: int, total: int) -> None:
            self._training.update(step=step, total=total)
            self._emit("training_progress", step=step, total=total)

        def waiting(job: str) -> None:  # another training of this process has the turn (train/training_lock.py)
            self._training.update(waiting_for=job)
            self._emit("training_progress", step=0, total=0, waiting_for=job)

        # its own cancel, which a training the person starts sets too (train/training_lock.py: the
        # assistant gives way, and is trained again after it; the embedding beside it goes on)
        model = self.strong_runner(request, counts=counts, progress=progress, cancel=self._strong_cancel,
                                   waiting=waiting, gives_way=True)
        self._training.update(status="scoring")
        if not self._publish_strong(model, pool, rows_version, labels_seen):
            self._training = {"status": "cancelled"}
            self._emit("trained", status="cancelled")
            if self._names_now(labels, labels_seen) is None:
                with self._cond:  # asked for and not built: trained again with the labels of now
                    self._want_strong = self._strong_due = True
                    self._cond.notify_all()
            return
        self._strong_built()
        self._training = {"status": "finished", "method": model.method, "reason": model.reason, "labels": len(rows)}
        self._emit("trained", status="finished", method=model.method, reason=model.reason, labels=len(rows))
        try:
            save_strong(model, self.model_dir, {"data": self._data_id, **self._saved_labels(model)})
        except OSError as exc:  # a full disk must not lose the model in memory
            log.warning("assistant model not saved: %s", exc)

    def _saved_labels(self, model: Any) -> dict:
        """``model``'s label names and the project's ids of them, read together: a restore maps the
        ids to the names of its day (a rename since is the same class; saved by name only, a model
        saved before a rename was refused at the next open). No ids when its names are not the
        project's (a label added or removed since it was shown): a restore refuses it by name."""
        with self._lock:
            names = list(model.labels)
            if names != self._labels or len(self._label_ids) != len(names):
                return {"labels": names}
            return {"labels": names, "label_ids": list(self._label_ids)}

    def _strong_due_again(self) -> None:
        """The last session's model cannot be shown for the labels of now: a new one is trained
        (dropped silently, the fast model was shown until the next N labels)."""
        if self.settings.strong_method == "off" or self.spec.head is None:
            return
        with self._cond:
            self._want_strong = self._strong_due = True
            self._cond.notify_all()

    def _strong_built(self) -> None:
        """The asked-for model is built (or cannot be): due again only if asked for meanwhile."""
        with self._cond:
            self._strong_due = self._want_strong

    @property
    def model_dir(self):
        """Where the latest strong model is kept (replaced by each new one)."""
        return self.cache_dir / f"assist-model-{self.split}"

    def _publish_strong(self, model: Any, pool: PoolData, rows_version: int, labels_seen: tuple[int, int]) -> bool:
        """Score the pool with ``model`` and show it; False (nothing shown) when the split's rows were
        replaced since ``pool`` was read: its scores would cover the old rows (a model trained through
        an import was shown, and a suggestion for an imported row raised IndexError on the GUI thread).
        The next strong training learns from the new rows. Likewise when a label was added or removed
        since ``labels_seen`` (:meth:`_labels_snapshot`): its classes are not the project's. A label
        renamed since is the same class: the model is shown under the new names (shown under the old
        ones, it suggested a label the project no longer had, and audit accuracy fell to 0%)."""
        if self._names_now(model.labels, labels_seen) is None:
            return False  # not worth scoring
        scores = self._score_strong(model, pool)
        with self._lock:
            names = self._names_now(model.labels, labels_seen)
            if rows_version != self._rows_version or names is None:
                return False
            self._strong, self._strong_model = self._renamed(scores, model, names), model
        self._update_audit()
        return True

    def _labels_snapshot(self) -> tuple[list[str], tuple[int, int]]:
        """The labels of now and where the label set's history stands (for :meth:`_names_now`)."""
        with self._lock:
            return list(self._labels), (self._label_epoch, len(self._renames))

    def _names_now(self, labels: list[str], seen: tuple[int, int]) -> list[str] | None:
        """``labels`` (a model's, named as at ``seen``) under today's names: the renames made since
        applied in order; None when a label was added or removed since (the classes differ)."""
        if self.spec.head == "ridge":  # a score has no label set
            return list(labels)
        with self._lock:
            epoch, renamed = seen
            if epoch != self._label_epoch:
                return None
            names = list(labels)
            for old, new in self._renames[renamed:]:
                names = [new if n == old else n for n in names]
            return names if names == self._labels else None

    @staticmethod
    def _renamed(scores: Scores, model: Any, names: list[str]) -> Scores:
        """``scores`` and ``model`` (its :class:`StrongModel`) predicting ``names`` for the same classes."""
        if list(model.labels) == names:
            return scores
        TrainerJobs._rename_model(model, names)
        return F.with_label_names(scores, names)

    @staticmethod
    def _rename_model(model: Any, names: list[str]) -> None:
        model.labels = list(names)  # saved with it: a restore compares them with the project's
        if hasattr(model.model, "labels"):  # an EmbeddingClassifier's own copy
            model.model.labels = list(names)

    def _saved_names_now(self, model: Any, labels: list[str], label_ids: list[int]) -> list[str | None] | None:
        """A restored ``model``'s labels under today's names (``labels``, of ids ``label_ids``), through
        the ids saved beside them; None when it saved no ids (a model from before they were saved)."""
        from bertstudio.data.project_labels import names_now

        ids = model.saved_meta.get("label_ids")
        if not isinstance(ids, list) or len(ids) != len(model.labels) \
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            return None
        today = names_now(list(model.labels), ids, labels, label_ids)
        return [today.get(n) for n in model.labels]

    def _restore_strong(self) -> None:
        """The model saved by the last session, if it predicts this project's labels."""
        from bertstudio.assist.strong import load_strong
        from bertstudio.errors import BertStudioError

        rows_version, pool, _rows, _values = self._rows_snapshot()
        with self._lock:
            labels, labels_seen = self._labels_snapshot()
            label_ids = list(self._label_ids)
        if self._strong is not None or not (self.model_dir / "assist.json").is_file() or pool is None:
            return
        try:
            model = load_strong(self.model_dir)
        except (BertStudioError, OSError) as exc:
            self.messages.append(f"{self.model_dir.name}: not restored ({exc})")
            return
        if model.kind != self.kind or not self._same_rows(model.saved_meta.get("data")):
            return
        if model.labels != labels and self.spec.head != "ridge":
            if self._saved_names_now(model, labels, label_ids) != labels:  # a class added or removed since
                log.info("%s: trained for the labels %s, not today's: trained again", self.model_dir.name, model.labels)
                self._strong_due_again()
                return
            self._rename_model(model, labels)  # renamed since it was saved: the same classes
        with self._lock:  # a row that has become an audit row since must not count as trained on
            audit = set(self._queue.audit_rows)
        if audit & set(model.rows):
            return
        self._training = {"status": "scoring", "method": model.method, "restored": True}
        if not self._publish_strong(model, pool, rows_version, labels_seen):
            self._training = {}
            if self._names_now(labels, labels_seen) is None:  # a class added or removed meanwhile
                self._strong_due_again()
            return
        self._training = {"status": "finished", "method": model.method, "reason": model.reason,
                          "labels": len(model.rows), "restored": True}
        self._emit("trained", status="restored", method=model.method, reason=model.reason, labels=len(model.rows))

    def _pseudo_labels(self, n_rows: int) -> tuple[list[int], list[str]]:
        """The rows the shown model is surest of, balanced over its predicted classes
        (:data:`PSEUDO_FRACTION` of the pool, at most :data:`PSEUDO_MAX`); labelled rows and audit
        rows, drawn or reserved (:meth:`~bertstudio.assist.strategies.Queue.audit_reserved`), are
        never among them. None when the shown scores are not of the ``n_rows`` rows of
        the pool being trained on (an import came between)."""
        scores = self._shown_scores()
        if scores is None or scores.probs is None or scores.meta.get("regression") or len(scores.probs) != n_rows:
            return [], []
        labels = list(scores.meta.get("labels", self._labels))
        with self._lock:
            # the audit rows, drawn (labelled or not) and those the next draws will take: a pseudo row
            # drawn later had the shown model audited on a row it trained on
            reserved = set(self._queue.audit_reserved().tolist())
            excluded = np.array(sorted(r for r in set(self._gold) | reserved if r < n_rows), dtype=np.int64)
        probs = scores.probs
        confidence, predicted = probs.max(1).copy(), probs.argmax(1)
        confidence[excluded] = -1.0
        K = probs.shape[1]
        per_class = int(min(PSEUDO_MAX, PSEUDO_FRACTION * len(probs)) // K)
        rows: list[int] = []
        for k in range(K):
            idx = np.flatnonzero((predicted == k) & (confidence >= 0))
            rows.extend(int(r) for r in idx[np.argsort(-confidence[idx], kind="stable")][:per_class])
        rows.sort()
        return rows, [labels[int(predicted[r])] for r in rows]

    @staticmethod
    def strong_runner(request: Any, **kwargs: Any) -> Any:
        """The function that trains a strong model (``strong.train_strong``)."""
        from bertstudio.assist.strong import train_strong

        return train_strong(request, **kwargs)

    def _score_strong(self, model: Any, pool: PoolData) -> Scores:
        self._progress = {"task": "scoring", "done": 0, "total": 0}  # not the last scoring's full count
        progress = self._progress_cb("scoring")
        if self.spec.per_word:
            word_probs = token_model_probs(model.model, model.tokenizer, pool.tokens or [], progress=progress,
                                           cancel=self._cancel)
            margin = np.array([np.log(np.clip(p.max(1), 1e-12, 1)).mean() if len(p) else 0.0 for p in word_probs],
                              dtype=np.float32)
            return Scores(model.method, None, margin, tuple(model.rows), word_probs=word_probs)
        feats = strong_features(model.model, model.tokenizer, pool, progress=progress, cancel=self._cancel)
        out = head_outputs(model.model, feats)
        if getattr(model.model, "regression", False):
            return Scores(model.method, out, np.ones(len(out), np.float32), tuple(model.rows), meta={"regression": True})
        return F.classification_scores(model.method, out, model.rows, labels=tuple(model.labels))

    def _counts_of(self, values: list[Any]) -> dict[str, int]:
        counts = {n: 0 for n in self._labels}
        for v in values:
            if isinstance(v, str) and v in counts:
                counts[v] += 1
        return counts

