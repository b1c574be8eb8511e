"""Which model the assistant shows, and how good it is: the audit set's statistics for each
model, the chart's history, and the random-order estimate (see audit.py)."""

from __future__ import annotations

import numpy as np

from bertstudio.assist import fast as F
from bertstudio.assist.audit import AuditStats, audit_stats, random_order_curve
from bertstudio.assist.fast import Scores

RANDOM_CURVE_SIZES = (5, 10, 20, 40, 80, 160, 320)


class ShownModel:
    """Mixed into :class:`~bertstudio.assist.session.AssistantState` (shares its attributes)."""

    # ------------------------------------------------------------------ audit and the shown model
    def _shown_scores(self) -> Scores | None:
        fast, strong = self._fast, self._strong
        if self._shown == "strong" and strong is not None:
            return strong
        return fast if fast is not None else strong

    def _audit_of(self, scores: Scores | None) -> tuple[AuditStats, float]:
        """Accuracy on the audit rows (tagging: per word; regression: within 10% of the range is
        not defined - mean absolute error is left to the Results page, so regression reports n only)."""
        with self._lock:
            rows = sorted(r for r in self._queue.audit_rows if r in self._gold)
            gold = [self._gold[r] for r in rows]
        if scores is None or not rows:
            return audit_stats(np.zeros(0), source=scores.source if scores else "", labels=0), 0.0
        labels = self._labels
        if scores.word_probs is not None:
            right, loglik = [], []
            for r, g in zip(rows, gold):
                p = scores.word_probs[r]
                for w, tag in enumerate(g):
                    right.append(tag in labels and int(p[w].argmax()) == labels.index(tag))
                    loglik.append(np.log(max(float(p[w][labels.index(tag)]), 1e-12)) if tag in labels else -30.0)
            return audit_stats(np.array(right), source=scores.source, labels=scores.n_labels), float(np.mean(loglik))
        if scores.meta.get("regression"):
            err = np.abs(np.array([float(scores.probs[r, 0]) - float(g) for r, g in zip(rows, gold)]))
            return AuditStats(len(rows), 0, None, None, None, scores.source, scores.n_labels), -float(err.mean())
        idx = [labels.index(g) if g in labels else -1 for g in gold]
        pred = scores.probs[rows].argmax(1)
        right = np.array([p == i for p, i in zip(pred, idx)])
        loglik = float(np.mean([np.log(max(float(scores.probs[r, i]), 1e-12)) if i >= 0 else -30.0
                                for r, i in zip(rows, idx)]))
        return audit_stats(right, source=scores.source, labels=scores.n_labels), loglik

    def _update_audit(self) -> None:
        """Score both models on the audit set; show the strong one while it is at least as good."""
        fast_stats, fast_ll = self._audit_of(self._fast)
        strong_stats, strong_ll = self._audit_of(self._strong)
        all_stats = {}
        if self._fast is not None:
            all_stats["fast"] = fast_stats
        if self._strong is not None:
            all_stats["strong"] = strong_stats
            key_f = (fast_stats.accuracy if fast_stats.accuracy is not None else -1, fast_ll)
            key_s = (strong_stats.accuracy if strong_stats.accuracy is not None else -1, strong_ll)
            self._shown = "strong" if self._fast is None or key_s >= key_f else "fast"
        shown = strong_stats if self._shown == "strong" and self._strong is not None else fast_stats
        self._audit_all, self._audit_shown = all_stats, shown
        scores = self._shown_scores()
        entry = {"labels": scores.n_labels if scores else 0, "audit_n": shown.n, "accuracy": shown.accuracy,
                 "low": shown.low, "high": shown.high, "source": scores.source if scores else None}
        with self._lock:
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
