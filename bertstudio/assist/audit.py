"""An honest accuracy while labelling: the audit set and its statistics.

Accuracy measured on the items an active learner chose is not representative
(it picks the hard ones). The audit set is different: every tenth item the
queue hands out is drawn uniformly at random, and once labelled it is kept out
of every model's training data. Accuracy on it is an unbiased estimate of the
shown model's accuracy on the pool, reported with a Wilson score interval
(scipy's ``binomtest(...).proportion_ci(method="wilson")``), which stays inside
[0, 1] and is sensible for the handful of audit labels of an early session.

:func:`random_order_curve` estimates what *random* labelling would have reached
with ``k`` labels, from the audit set alone (it is a random sample): the fast
head is trained on random subsets of ``k`` audit rows and scored on the other
audit rows, averaged over draws. It exists for ``k`` up to the audit size minus a
few, so the chart shows both curves where the audit set allows it.

:func:`strong_is_worse` decides which model is shown: the strong model replaces the
fast one unless the audit set shows it to be worse (a paired exact test).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class AuditStats:
    """Accuracy of one model on the audit set, with a 95% Wilson interval."""

    n: int
    correct: int
    accuracy: float | None
    low: float | None
    high: float | None
    source: str = ""  # which model: "zero-shot" | "fast" | "setfit" | "fine-tuned"
    labels: int = 0  # training labels the model had
    words: int = 0  # tagging: the words scored (``correct`` counts words; ``n`` counts audit sentences)

    def to_dict(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        """One line for the status bar, e.g. ``audit 81% (68-90%, n=42)``."""
        from bertstudio.metrics.display import format_share  # 249 of 250 is not "100%"

        if self.accuracy is None:
            return "audit: no audit labels yet"
        return f"audit {format_share(self.accuracy)} ({format_share(self.low)}-{format_share(self.high)}, n={self.n})"


def wilson_interval(correct: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    from scipy.stats import binomtest

    ci = binomtest(int(correct), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def audit_stats(correct: np.ndarray, *, source: str = "", labels: int = 0) -> AuditStats:
    """Stats from a boolean (or 0/1) array: one entry per audit row, True when right."""
    n, k = int(len(correct)), int(np.sum(correct))
    if n == 0:
        return AuditStats(0, 0, None, None, None, source, labels)
    low, high = wilson_interval(k, n)
    return AuditStats(n, k, k / n, low, high, source, labels)


# fewer audit sentences than this tell nothing of how much sentences differ: each is one check
MIN_SENTENCES = 5


def sentence_audit_stats(right_by_row: list[np.ndarray], *, source: str = "", labels: int = 0) -> AuditStats:
    """Word accuracy over the audit sentences (tagging). The words of one sentence are not
    independent checks (a model that misreads a sentence misreads its words together): the
    interval is Wilson's at the effective sample size of the cluster-robust variance of the
    ratio estimate, between the number of sentences and the number of words, and at the number
    of sentences while there are too few (:data:`MIN_SENTENCES`) to estimate how the sentences
    differ: "25% (7%-59%), 8 audit labels" was one sentence of eight words. A sentence without
    words is no check.

    Sentences that do not differ at all (every word right, every word wrong, or each sentence
    right in the same share) count as many checks as words: that is where the effective size
    goes as the difference between sentences vanishes (``p(1-p) / variance`` grows without
    bound and is capped at the words), and zero observed variation is no evidence of clustering.
    Falling back to the sentences there made the interval jump: 60 words all right in 6
    sentences read "61%-100%", and one word wrong "91%-99.7%", a worse model with a higher
    lower bound. (Shrinking ``p`` towards 1/2 for the design effect would also close the gap,
    but adds a constant of its own to a rule the limit already fixes.)"""
    rows = [np.asarray(r, dtype=bool) for r in right_by_row if len(r)]
    sizes = np.array([len(r) for r in rows], dtype=np.float64)
    hits = np.array([float(r.sum()) for r in rows], dtype=np.float64)
    n, words, k = int(len(rows)), int(sizes.sum()), int(hits.sum())
    if words == 0:
        return AuditStats(n, 0, None, None, None, source, labels, 0)
    p = k / words
    effective = float(n)
    if n >= MIN_SENTENCES:
        variance = n / (n - 1) * float(np.sum((hits - p * sizes) ** 2)) / words ** 2
        effective = float(words) if variance <= 0 else min(float(words), max(float(n), p * (1 - p) / variance))
    low, high = _wilson(p, effective)
    return AuditStats(n, k, p, low, high, source, labels, words)


def _wilson(p: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``p`` over ``n`` (not necessarily whole) trials."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # exact at the ends (p 1 gives high 1 in exact arithmetic, 0.99999999999 in floats, which
    # read as a bound short of 100%)
    low = 0.0 if p == 0 else max(0.0, float(centre - half))
    high = 1.0 if p == 1 else min(1.0, float(centre + half))
    return low, high


def strong_is_worse(fast_right: np.ndarray, strong_right: np.ndarray, alpha: float = 0.05) -> bool:
    """True when the audit set shows the strong model to be worse than the fast one.

    Paired, on the same audit rows: among the rows where exactly one model is right, the
    fast one must be right significantly more often (McNemar's exact test, one-sided, at
    ``alpha``). A tie or a difference of a row or two on a dozen audit labels is noise,
    and the strong model - the one that learnt more from the same labels - stays shown."""
    from scipy.stats import binomtest

    fast_right, strong_right = np.asarray(fast_right, bool), np.asarray(strong_right, bool)
    b = int(np.sum(fast_right & ~strong_right))
    c = int(np.sum(strong_right & ~fast_right))
    if b <= c:
        return False
    return bool(binomtest(b, b + c, 0.5, alternative="greater").pvalue < alpha)


def random_order_curve(fit_predict: Callable[[np.ndarray, np.ndarray], np.ndarray], gold: np.ndarray,
                       sizes: list[int], *, draws: int = 10, min_test: int = 5, seed: int = 0) -> list[tuple[int, float]]:
    """``[(k, estimated accuracy with k random labels)]`` from the audit rows alone.

    ``fit_predict(train_idx, test_idx)`` trains on audit rows ``train_idx`` and returns
    predicted labels for ``test_idx`` (indices into the audit arrays); ``gold`` holds the
    audit rows' label ids. Sizes that leave fewer than ``min_test`` rows to score are left out."""
    rng = np.random.default_rng(seed)
    out = []
    n = len(gold)
    for k in sizes:
        if k < 1 or n - k < min_test:
            continue
        accs = []
        for _ in range(draws):
            perm = rng.permutation(n)
            tr, te = perm[:k], perm[k:]
            accs.append(float(np.mean(fit_predict(tr, te) == gold[te])))
        out.append((int(k), float(np.mean(accs))))
    return out
