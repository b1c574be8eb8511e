"""Which model the assistant shows, and how good it is: the audit set's statistics for each
model, the chart's history, and the random-order estimate (see audit.py)."""

from __future__ import annotations

import numpy as np

from bertstudio.assist import fast as F
from bertstudio.assist.audit import AuditStats, audit_stats, random_order_curve, sentence_audit_stats, strong_is_worse
from bertstudio.assist.fast import Scores
from bertstudio.assist.kinds import word_tags

RANDOM_CURVE_SIZES = (5, 10, 20, 40, 80, 160, 320)


class ShownModel:
    """Mixed into :class:`~bertstudio.assist.session.AssistantState` (shares its attributes)."""

    # ------------------------------------------------------------------ audit and the shown model
    def _shown_scores(self) -> Scores | None:
        fast, strong = self._fast, self._strong
        if self._shown == "strong" and strong is not None:
            return strong
        return fast if fast is not None else strong

    def _audit_of(self, scores: Scores | None) -> tuple[AuditStats, np.ndarray]:
        """Accuracy on the audit rows and, per audit row, whether the model was right (tagging: its
        word accuracy on the sentence, so the models are compared sentence by sentence, as the checks
        are: one 20-word sentence outvoted a dozen; regression: its absolute error, negated; in both,
        larger is better)."""
        with self._lock:
            rows = sorted(r for r in self._queue.audit_rows if r in self._gold)
            gold = [self._gold[r] for r in rows]
        if scores is None or not rows:
            return audit_stats(np.zeros(0), source=scores.source if scores else "", labels=0), np.zeros(0, bool)
        labels = list(scores.meta.get("labels", self._labels))
        if scores.word_probs is not None:  # the tags suggested (word_tags), not each word's own argmax
            by_row = [np.array([tag in labels and int(t) == labels.index(tag)
                                for t, tag in zip(word_tags(labels, scores.word_probs[r]), g)], dtype=bool)
                      for r, g in zip(rows, gold)]
            per_sentence = np.array([r.mean() if len(r) else np.nan for r in by_row], dtype=np.float64)
            return sentence_audit_stats(by_row, source=scores.source, labels=scores.n_labels), per_sentence
        if scores.meta.get("regression"):
            err = np.abs(np.array([float(scores.probs[r, 0]) - float(g) for r, g in zip(rows, gold)]))
            return AuditStats(len(rows), 0, None, None, None, scores.source, scores.n_labels), -err
        idx = np.array([labels.index(g) if g in labels else -1 for g in gold])
        right = scores.probs[rows].argmax(1) == idx
        return audit_stats(right, source=scores.source, labels=scores.n_labels), right

    def _update_audit(self) -> None:
        """Score both models on the audit set; the strong one is shown unless the audit set
        shows it to be worse (:func:`~bertstudio.assist.audit.strong_is_worse`)."""
        fast_stats, fast_right = self._audit_of(self._fast)
        strong_stats, strong_right = self._audit_of(self._strong)
        all_stats = {}
        if self._fast is not None:
            all_stats["fast"] = fast_stats
        if self._strong is not None:
            all_stats["strong"] = strong_stats
            if fast_right.dtype != bool:  # regression, tagging: which model does better, row by row
                fast_right, strong_right = fast_right > strong_right, strong_right > fast_right
            worse = self._fast is not None and len(fast_right) == len(strong_right) \
                and strong_is_worse(fast_right, strong_right)
            self._shown = "fast" if worse else "strong"
        shown = strong_stats if self._shown == "strong" and self._strong is not None else fast_stats
        self._audit_all, self._audit_shown = all_stats, shown
        scores = self._shown_scores()
        with self._lock:
            # x is the training labels so far, as the chart and the status bar read it; keyed by the shown
            # model's own count, a fine-tuned model trained on 46 labels and shown at 75 drew its accuracy
            # back at 46, under a line that ended higher at 68
            entry = {"labels": self._training_count(), "audit_n": shown.n, "accuracy": shown.accuracy,
                     "low": shown.low, "high": shown.high, "words": shown.words, "source": scores.source if scores else None,
                     "model_labels": scores.n_labels if scores else 0}
            last = self._history[-1] if self._history else None
            if last is None or any(last.get(k) != entry[k] for k in ("labels", "audit_n", "source", "accuracy")):
                self._history.append(entry)
        if shown.n and shown.n != getattr(self, "_curve_n", 0):
            self._curve_n = shown.n
            self._random_curve = self._estimate_random_curve()
        self._emit("audit", **shown.to_dict())

    def _estimate_random_curve(self) -> list[tuple[int, float]]:
        pool = self._pool
        if pool is None or pool.features is None or self.spec.head != "logistic":
            return []
        with self._lock:
            rows = np.array(sorted(r for r in self._queue.audit_rows if r in self._gold))
            gold = [self._gold[r] for r in rows]
        index = {n: i for i, n in enumerate(self._labels)}
        ok = [i for i, g in enumerate(gold) if g in index]
        rows, y = rows[ok], np.array([index[gold[i]] for i in ok])
        X = pool.features[rows]
        # the self-trained prior of no labels: the loop's own labels must not leak into this estimate
        prior = self._prior0 if self._zero_shot is not None else None

        def fit_predict(tr: np.ndarray, te: np.ndarray) -> np.ndarray:
            head = F.fit_classifier(X[tr], y[tr], len(self._labels), prior)
            if head is None:
                return np.full(len(te), np.bincount(y[tr]).argmax())
            return head.predict_proba(X[te]).argmax(1)

        return random_order_curve(fit_predict, y, list(RANDOM_CURVE_SIZES), seed=self.settings.seed)
