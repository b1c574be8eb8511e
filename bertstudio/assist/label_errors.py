"""The label-error finder (Qt-free): which given labels are probably wrong, and why.

Confident learning (Northcutt, Jiang and Chuang, 2021) needs *out-of-sample*
predicted probabilities for every labelled row: a model must not judge a label it
learnt. They come from k-fold cross-validation over the labelled rows, with one of
two models (``method``):

``"fast"``      the assistant's fast head: a logistic regression on the frozen, cached
                embeddings of the bundled sentence-transformer (the sentence vector, a
                pair's siamese ``(u, v, |u-v|, u*v)`` features, or per-word vectors for
                tagging). Seconds.
``"finetune"``  the assistant's strong model, fine-tuned end to end on each fold's
                training part (:func:`bertstudio.assist.strong.train_strong`, its
                small-data settings, the head started from the fold's fast head) and
                asked about the held-out part. Minutes: k fine-tuning runs. A stronger
                model makes fewer mistakes of its own, so fewer correct labels crowd the
                top of the ranking (benchmarks/README.md, "label errors").

or, for the rows a fine-tuning run evaluated (it never trained on them), from that
run's ``predictions.jsonl``. The fine-tuning folds also keep what each fold's model said
of its training rows as it learnt from them (the training passes, free); the ranking
reads those averaged with the out-of-fold probabilities (:func:`with_training_passes`),
while which rows are flagged, the suggested labels and the accuracy the report states
read the out-of-fold ones alone. cleanlab does the rest: ``filter.find_label_issues`` with
``return_indices_ranked_by="self_confidence"`` picks and orders the flags;
``token_classification`` scores a tagged sentence by its worst word.

Each :class:`Flag` carries the row, the given label, the suggested one with its
probability, and the three most similar labelled examples (cosine on the same
cached embeddings) that carry the suggested label, so the user can compare before
deciding. The report states the cross-validated accuracy against the given labels:
a weak model's flags deserve less trust. Nothing here writes a label.

Long work reports ``progress(fraction, where)`` (``where``: a :class:`CheckProgress`, whose
``str()`` is the English line the CLI prints) and checks ``cancel`` (a ``threading.Event``)
between batches and folds; a cancelled call raises :class:`~bertstudio.assist.encoder.Cancelled`.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from bertstudio.assist.encoder import Cancelled, check_cancel
from bertstudio.assist.heads import fit_logistic
from bertstudio.assist.kinds import AssistSpec, spec_for
from bertstudio.assist.pool import PoolData
from bertstudio.data.kinds import one_line
from bertstudio.errors import ConfigError
from bertstudio.train.training_lock import ASSISTANT


@dataclass(frozen=True)
class CheckProgress:
    """Where the label check is, as facts a UI phrases in its own words (the review queue said
    "fold 2 of 5: step 3 of 40, about 2 min left" in English inside its Chinese window);
    ``str()`` is the English line the CLI prints."""

    step: str  # "embedding", "fold" (fine-tuning one: with done/total), "ranking" or "done"
    fold: int = 0  # 1-based, of ``folds``
    folds: int = 0
    done: int = 0  # the fold's fine-tuning steps done, of ``total`` (0: not counted)
    total: int = 0
    left: tuple[str, str] | None = None  # the time left as train/estimate.rounded says it: ("3", "min")
    waiting_for: str = ""  # the training this fold waits for (train/training_lock's names)

    def __str__(self) -> str:
        if self.step != "fold":
            return self.step
        line = f"fold {self.fold} of {self.folds}"
        if self.waiting_for == ASSISTANT:  # it gives way: stopped, not waited for
            return f"{line}: stopping the assistant's background training after its current step"
        if self.waiting_for:
            return f"{line}: waiting for {self.waiting_for} to finish"
        if self.total:
            left = f", about {self.left[0]} {self.left[1]} left" if self.left else ""
            return f"{line}: step {self.done} of {self.total}{left}"
        return line


Progress = Callable[[float, CheckProgress], None]

FOLDS = 5
NEIGHBOURS = 3
# Inverse L2 strength of the per-fold logistic regression, checked on 2,000 SST-2 train
# sentences outside the benchmark's sample (5-fold accuracy, bundled MiniLM): C = 0.3 / 1 /
# 3 / 10 / 100 gave 78.2 / 79.2 / 78.3 / 76.8 / 75.3%.
LOGISTIC_C = 1.0
TOKEN_C = 1.0
METHODS = ("fast", "finetune")
# The gate on "has the model learnt anything": a point comparison (accuracy <= the commonest label's
# rate) passed coin-flip labels on half the fold seeds, 300 rows (sweep_quality, defect 1).
SIGNIFICANCE = 0.05
# The progress bar's share for embedding the rows (the rest, up to 0.95, is the folds): the
# fast folds take a second, fine-tuning folds take minutes and embedding seconds.
EMBED_SHARE = {"fast": 0.6, "finetune": 0.05}


def _fold_share(f: float, method: str) -> float:
    start = EMBED_SHARE[method]
    return start + (0.95 - start) * f

__all__ = ["Cancelled", "CheckProgress", "Flag", "LabelErrorReport", "Neighbour", "find_label_errors", "find_in_examples",
           "find_in_pool", "signal_p",
           "out_of_fold_probs", "out_of_fold_word_probs", "out_of_fold_finetuned", "with_training_passes",
           "classification_issues",
           "token_issues", "run_probs"]


@dataclass(frozen=True)
class Neighbour:
    """A labelled example close to a flagged one that carries the suggested label."""

    row: int
    text: str
    label: str
    similarity: float
    word: int | None = None  # tagging: the word that carries ``label``


@dataclass(frozen=True)
class Flag:
    row: int
    given: str
    suggested: str
    suggested_prob: float
    quality: float  # the model's probability of the given label (tagging: of the worst word's tag; the
    # thorough check's: averaged with the training passes)
    word: int | None = None  # tagging: the worst word
    text: str = ""
    neighbours: tuple[Neighbour, ...] = ()


@dataclass(frozen=True)
class LabelErrorReport:
    """What the finder found in one split; ``rows``/``quality`` cover every checked row."""

    split: str
    flags: tuple[Flag, ...]
    rows: np.ndarray  # checked (labelled) rows, in row order
    quality: np.ndarray  # per checked row: self-confidence of the given label (lower = more suspect; the
    # thorough check's: out of fold and in the training passes, averaged)
    accuracy: float | None  # the model's out-of-sample accuracy against the given labels
    folds: int  # 0 when the probabilities came from a run
    source: str  # "fast" (k-fold fast head), "finetune" (k-fold fine-tuning) or "run"
    skipped: int = 0  # labelled rows that could not be checked (a class with fewer than 2 rows)
    messages: tuple[str, ...] = field(default_factory=tuple)
    chance: float | None = None  # what always answering the commonest given label scores (stated, not a gate)
    # one-sided p that the model's probabilities fit the given labels no better than the label frequencies
    # alone (:func:`signal_p`); at SIGNIFICANCE or above its disagreements are noise, not suspects
    p_value: float | None = None
    withheld: int = 0  # flags cleanlab raised that are not shown for that reason
    per_word: bool = False  # tagging: ``accuracy`` is per word, ``rows`` are sentences

    @property
    def no_signal(self) -> bool:
        return self.p_value is not None and self.p_value >= SIGNIFICANCE

    @property
    def checked(self) -> int:
        return int(len(self.rows))

    def ranking(self) -> np.ndarray:
        """Every checked row, most suspect first (self-confidence ascending, ties by row)."""
        order = np.lexsort((self.rows, self.quality))
        return self.rows[order]


# --- out-of-fold probabilities ---------------------------------------------------------------


def _fold_ids(y: np.ndarray, folds: int, seed: int) -> tuple[np.ndarray, int]:
    """A fold number per row: stratified, so every fold's training part sees every class."""
    from sklearn.model_selection import StratifiedKFold

    counts = np.bincount(y)
    k = int(max(2, min(folds, counts[counts > 0].min() if len(counts) else 2, len(y))))
    out = np.zeros(len(y), dtype=np.int64)
    with warnings.catch_warnings():  # singleton classes: sklearn warns, the rows still get a fold
        warnings.simplefilter("ignore", UserWarning)
        splitter = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
        for i, (_, test) in enumerate(splitter.split(np.zeros(len(y)), y)):
            out[test] = i
    return out, k


def _sentence_folds(n: int, folds: int, seed: int) -> tuple[np.ndarray, int]:
    """A fold number per tagged sentence (folds split sentences, never one sentence's words)."""
    from sklearn.model_selection import KFold

    k = int(max(2, min(folds, n)))
    out = np.zeros(n, dtype=np.int64)
    for i, (_, test) in enumerate(KFold(n_splits=k, shuffle=True, random_state=seed).split(np.zeros(n))):
        out[test] = i
    return out, k


def out_of_fold_probs(X: np.ndarray, y: np.ndarray, num_classes: int, *, folds: int = FOLDS, seed: int = 0,
                      C: float = LOGISTIC_C, progress: Progress | None = None,
                      cancel: threading.Event | None = None) -> tuple[np.ndarray, int]:
    """``(rows, classes)`` probabilities, each row predicted by a head that never saw it, and the
    number of folds used (fewer than asked when a class has fewer rows)."""
    y = np.asarray(y, dtype=np.int64)
    fold, k = _fold_ids(y, folds, seed)
    probs = np.zeros((len(y), num_classes), dtype=np.float64)
    for i in range(k):
        check_cancel(cancel)
        test, train = fold == i, fold != i
        head = fit_logistic(X[train], y[train], num_classes, C=C, max_iter=1000)
        if head is None:  # one class in the training part: it is all the model knows
            probs[test, np.unique(y[train])[0]] = 1.0
        else:
            probs[test] = head.predict_proba(X[test])
        if progress is not None:
            progress((i + 1) / k, CheckProgress("fold", i + 1, k))
    return probs, k


def out_of_fold_word_probs(words: Sequence[np.ndarray], tags: Sequence[np.ndarray], num_tags: int, *,
                           folds: int = FOLDS, seed: int = 0, C: float = TOKEN_C,
                           progress: Progress | None = None,
                           cancel: threading.Event | None = None) -> tuple[list[np.ndarray], int]:
    """Per sentence, ``(words, tags)`` probabilities from a per-word head trained on the other
    folds' sentences (folds split sentences, never the words of one sentence)."""
    fold, k = _sentence_folds(len(words), folds, seed)
    out: list[np.ndarray] = [np.zeros((len(w), num_tags)) for w in words]
    for i in range(k):
        check_cancel(cancel)
        train, test = np.flatnonzero(fold != i), np.flatnonzero(fold == i)
        X = np.concatenate([words[j] for j in train])
        y = np.concatenate([np.asarray(tags[j], dtype=np.int64) for j in train])
        head = fit_logistic(X, y, num_tags, C=C, max_iter=300)
        for j in test:
            if head is None:
                out[j][:, int(y[0]) if len(y) else 0] = 1.0
            elif len(words[j]):
                out[j] = head.predict_proba(words[j])
        if progress is not None:
            progress((i + 1) / k, CheckProgress("fold", i + 1, k))
    return out, k


def out_of_fold_finetuned(kind: str, labels: Sequence[str], pool: PoolData, rows: np.ndarray,
                          y: Sequence[Any], model_path: str, *, folds: int = FOLDS, seed: int = 0,
                          progress: Progress | None = None, cancel: threading.Event | None = None,
                          ) -> tuple[list[np.ndarray] | np.ndarray, int, np.ndarray | None]:
    """Out-of-fold probabilities from fine-tuning: for each fold, the assistant's strong model
    trains on the other folds' rows and predicts this fold's. ``rows``: pool rows; ``y``:
    their class indices (classification: returns ``(rows, classes)``) or tag-index arrays
    (tagging: returns one ``(words, tags)`` array per row, folds split sentences).

    Third in the result (classification; None for tagging): each row's mean probabilities in
    the training passes of the folds that trained on it (:class:`TrainingPasses`; NaN for a
    row no fold trained on), recorded as those folds learnt, at no extra cost."""
    from bertstudio.assist.pool import head_outputs, strong_features, token_model_probs
    from bertstudio.assist.strong import StrongRequest, train_strong
    from bertstudio.train.cartography import TrainingPasses
    from bertstudio.train.training_lock import LABEL_CHECK, training_job

    labels = list(labels)
    per_word = spec_for(kind).per_word
    if per_word:
        fold, k = _sentence_folds(len(rows), folds, seed)
        out: Any = [np.zeros((len(pool.tokens[r]), len(labels))) for r in rows]  # type: ignore[index]
    else:
        y_arr = np.asarray(y, dtype=np.int64)
        fold, k = _fold_ids(y_arr, folds, seed)
        out = np.zeros((len(rows), len(labels)), dtype=np.float64)
    passed = np.zeros((len(rows), len(labels)), dtype=np.float64)  # summed over the folds that trained on a row
    trained = np.zeros(len(rows), dtype=np.int64)
    started = time.perf_counter()
    with training_job(LABEL_CHECK):  # the turn is the check's between its folds (train/training_lock.py)
        for i in range(k):
            check_cancel(cancel)
            train, test = np.flatnonzero(fold != i), np.flatnonzero(fold == i)
            take = [int(rows[j]) for j in train]
            if per_word:
                values: list[Any] = [[labels[int(t)] for t in y[j]] for j in train]
                request = StrongRequest(kind, labels, take, tokens=[list(pool.tokens[r]) for r in take],  # type: ignore[index]
                                        values=values, model_path=str(model_path), seed=seed + i, method="finetune")
            else:
                values = [labels[int(y_arr[j])] for j in train]
                request = StrongRequest(kind, labels, take, texts=[pool.texts[r] for r in take],  # type: ignore[index]
                                        pairs=[pool.pairs[r] for r in take] if pool.pairs is not None else None,
                                        values=values, model_path=str(model_path), seed=seed + i, method="finetune",
                                        init_head=fit_logistic(pool.features[take], y_arr[train], len(labels), C=LOGISTIC_C,
                                                               max_iter=1000))

            def step(done: int, total: int, i: int = i) -> None:
                if progress is not None:
                    fraction = (i + 0.9 * done / max(total, 1)) / k
                    progress(fraction, CheckProgress("fold", i + 1, k, done, total, _time_left(started, fraction)))

            # method "finetune" is asked for: the label counts only matter to the automatic choice
            passes = None if per_word else TrainingPasses(len(train))  # the request's rows are ``train``, in order
            def waiting(job: str, i: int = i) -> None:  # another training of the app has the turn (train/training_lock.py)
                if progress is not None and job:  # the assistant gives way: it is stopped, not waited for
                    progress(i / k, CheckProgress("fold", i + 1, k, waiting_for=job))

            with training_job(LABEL_CHECK):  # what a training waiting for this fold is told
                model = train_strong(request, counts={}, progress=step, cancel=cancel, passes=passes, waiting=waiting)
            check_cancel(cancel)
            if passes is not None:
                mean = passes.mean()
                if mean.shape[1] == len(labels):  # one column: nothing was recorded
                    seen = ~np.isnan(mean).any(1)
                    passed[train[seen]] += mean[seen]
                    trained[train[seen]] += 1
            held = [int(rows[j]) for j in test]
            if per_word:
                probs = token_model_probs(model.model, model.tokenizer, [list(pool.tokens[r]) for r in held],  # type: ignore[index]
                                          cancel=cancel)
                for j, p in zip(test, probs):
                    out[j] = np.asarray(p, dtype=np.float64)
            else:
                part = PoolData(texts=[pool.texts[r] for r in held],  # type: ignore[index]
                                pairs=[pool.pairs[r] for r in held] if pool.pairs is not None else None)
                out[test] = head_outputs(model.model, strong_features(model.model, model.tokenizer, part, cancel=cancel))
            del model
            if progress is not None:
                progress((i + 1) / k, CheckProgress("fold", i + 1, k))
    if per_word:
        return out, k, None
    in_training = np.full_like(passed, np.nan)
    in_training[trained > 0] = passed[trained > 0] / trained[trained > 0, None]
    return out, k, in_training


def _time_left(started: float, fraction: float) -> tuple[str, str] | None:
    """("3", "min") left: the time so far scaled to the work left (folds are alike, so the pace
    so far is the best guess there is; the first steps pay for loading, so it starts high)."""
    from bertstudio.train.estimate import rounded

    if fraction <= 0:
        return None
    return rounded((time.perf_counter() - started) * (1 - fraction) / fraction)


def with_training_passes(out_of_fold: np.ndarray, in_training: np.ndarray | None) -> np.ndarray:
    """The probabilities the thorough check ranks by: the out-of-fold ones averaged, row by row, with the
    row's training-pass ones where it has them (the fine-tuning folds'). A flipped label is one
    the model keeps disagreeing with while it learns from it; a hard but correct one it learns.
    On 1,000 SST-2 sentences with 5% flipped (5 seeds) the average ranked the flips at PR-AUC
    0.482 against 0.466 for the out-of-fold probabilities alone, higher on every seed
    (benchmarks/README.md, "The thorough check ranks with its training passes too")."""
    if in_training is None:
        return out_of_fold
    out = np.array(out_of_fold, dtype=np.float64, copy=True)
    seen = ~np.isnan(in_training).any(1)
    out[seen] = (out[seen] + in_training[seen]) / 2
    return out


def signal_p(gains: np.ndarray) -> float:
    """One-sided p of a paired t-test that the model fits the given labels no better than the label
    frequencies alone. ``gains``: per row (tagging: per sentence, summed over its words, as folds
    split sentences) ``log p_model(given) - log prior(given)``, the row's out-of-fold log-loss
    saving over the class-prior baseline. Log-loss, not accuracy: it needs no argmax to beat the
    commonest label, so an imbalanced set is not refused for that alone, and with a test, not a
    point comparison, sampling noise does not pass coin-flip labels on some fold seeds.
    On the sweep's 300-row sets (bundled MiniLM, fold seed 42): coin-flip labels p = 0.23-0.89 over
    8 fold seeds, ChnSentiCorp 0.005, MRPC 0.03 (10% flipped)."""
    from scipy.stats import ttest_1samp

    gains = np.asarray(gains, dtype=np.float64)
    if len(gains) < 2 or np.ptp(gains) < 1e-12:  # no spread: the sign of the mean says it all
        return 0.0 if len(gains) and gains.mean() > 1e-12 else 1.0
    return float(ttest_1samp(gains, 0.0, alternative="greater").pvalue)


def _refuse_non_finite(probs: Sequence[np.ndarray]) -> None:
    """A model whose training diverged gives NaN (or infinite) probabilities: every ranking and the
    signal test on them would be NaN, read as "no evidence". Said as what it is instead."""
    bad = sum(int((~np.isfinite(np.asarray(p, dtype=np.float64))).any(axis=-1).sum()) for p in probs)
    if bad:
        raise ConfigError(f"the model's probabilities are not numbers (NaN or infinite) for {bad:,} "
                          f"{'item' if bad == 1 else 'items'}: its training diverged",
                          expected="a model that trains (a lower learning rate, or the fast method)",
                          facts={"refusal": "non_finite_probs", "items": bad})  # said in the Review queue's words


def _log_gains(given: np.ndarray, probs: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Per row, ``log p(given) - log prior(given)`` (probabilities clipped as cleanlab's inputs are)."""
    own = np.clip(np.asarray(probs, dtype=np.float64)[np.arange(len(given)), given], 1e-12, None)
    return np.log(own) - np.log(prior[given])


# --- cleanlab --------------------------------------------------------------------------------


def classification_issues(labels: np.ndarray, probs: np.ndarray, order_by: np.ndarray | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """``(flagged positions ranked most suspect first, self-confidence of every row)``.

    ``order_by``: other probabilities of the same rows (the thorough check's, averaged with
    the training passes) that score every row and order the flags instead; which rows are
    flagged is still decided on ``probs``. Columns of classes no row carries are dropped (and
    rows renormalised) first: cleanlab estimates per-class thresholds and needs every column
    to be a given label."""
    from cleanlab.filter import find_label_issues
    from cleanlab.rank import get_label_quality_scores

    labels = np.asarray(labels, dtype=np.int64)
    present = np.unique(labels)
    remap = np.searchsorted(present, labels)

    def given_classes(a: np.ndarray) -> np.ndarray:
        sub = np.clip(np.asarray(a, dtype=np.float64)[:, present], 1e-12, None)
        return sub / sub.sum(1, keepdims=True)

    sub = given_classes(probs)
    quality = get_label_quality_scores(remap, sub if order_by is None else given_classes(order_by),
                                       method="self_confidence")
    if len(present) < 2:
        return np.zeros(0, dtype=np.int64), quality
    ranked = np.asarray(find_label_issues(remap, sub, return_indices_ranked_by="self_confidence", n_jobs=1),
                        dtype=np.int64)
    if order_by is not None:
        ranked = ranked[np.lexsort((ranked, quality[ranked]))]
    return ranked, quality


def token_issues(tags: Sequence[Sequence[int]], word_probs: Sequence[np.ndarray]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(flagged sentence positions ranked worst first, sentence score, worst word per sentence)``.

    A sentence's score is its worst word's self-confidence (cleanlab's "min"); flagged
    sentences are those holding a word cleanlab's token-level filter flags."""
    from cleanlab.token_classification.filter import find_label_issues
    from cleanlab.token_classification.rank import get_label_quality_scores

    keep = [i for i, t in enumerate(tags) if len(t)]
    labels = [[int(x) for x in tags[i]] for i in keep]
    probs = [np.asarray(word_probs[i], dtype=np.float64) for i in keep]
    probs = [np.clip(p, 1e-12, None) / np.clip(p, 1e-12, None).sum(1, keepdims=True) for p in probs]
    score = np.ones(len(tags))
    worst = np.zeros(len(tags), dtype=np.int64)
    if not keep:
        return np.zeros(0, dtype=np.int64), score, worst
    sentence, per_word = get_label_quality_scores(labels, probs)
    for j, i in enumerate(keep):
        score[i] = float(sentence[j])
        worst[i] = int(np.argmin(np.asarray(per_word[j])))
    flagged: set[int] = set()
    if len({x for t in labels for x in t}) >= 2:
        flagged = {keep[s] for s, _ in find_label_issues(labels, probs, n_jobs=1)}
    ranked = sorted(flagged, key=lambda i: (score[i], i))
    return np.asarray(ranked, dtype=np.int64), score, worst


# --- nearest examples with the other label ----------------------------------------------------


def _unit(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float32)
    return a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)


def nearest(query: np.ndarray, candidates: np.ndarray, k: int = NEIGHBOURS) -> list[tuple[int, float]]:
    """``[(position in candidates, cosine)]``, the ``k`` most similar first."""
    if len(candidates) == 0:
        return []
    sims = _unit(candidates) @ _unit(query)
    top = np.argsort(-sims, kind="stable")[:k]
    return [(int(i), float(sims[i])) for i in top]


# --- the finder -------------------------------------------------------------------------------


def _display(pool: PoolData, row: int) -> str:
    if pool.tokens is not None:
        return " ".join(pool.tokens[row])
    return one_line([(pool.texts or [""])[row], pool.pairs[row] if pool.pairs is not None else ""])


def find_in_pool(spec: AssistSpec, labels: Sequence[str], pool: PoolData, rows: Sequence[int],
                 values: Sequence[Any], *, split: str = "train", folds: int = FOLDS, seed: int = 0,
                 probs: dict[int, np.ndarray] | None = None, method: str = "fast", model_path: str = "",
                 progress: Progress | None = None, cancel: threading.Event | None = None) -> LabelErrorReport:
    """The finder over an embedded pool: ``rows`` are the labelled rows, ``values`` their gold
    values (label names; tagging: tag lists). ``method``: the k-fold model (module docstring;
    ``"finetune"`` fine-tunes ``model_path``). ``probs``: out-of-sample probabilities per row
    (from a run) to use instead of k-fold; only those rows are then checked."""
    if method not in METHODS:
        raise ConfigError(f"unknown label-error method {method!r}", expected=" or ".join(METHODS))
    if method == "finetune" and not model_path and probs is None:
        raise ConfigError("fine-tuning folds need a model", expected="a model folder")
    labels = list(labels)
    index = {name: i for i, name in enumerate(labels)}
    report = progress or (lambda _f, _m: None)
    if spec.head == "token":
        return _find_tokens(labels, index, pool, rows, values, split, folds, seed, report, cancel,
                            method=method, model_path=model_path)
    if spec.head != "logistic":
        raise ConfigError(f"the label-error finder needs a label set; {spec.kind} has none",
                          expected="a sentence, pair or tagging project")
    known = [(int(r), index[v]) for r, v in zip(rows, values) if v in index]
    skipped = len(rows) - len(known)
    source, k = "fast", 0
    in_training = None
    if probs is not None:
        known = [(r, y) for r, y in known if r in probs]
        if not known:
            raise ConfigError("the run evaluated none of the labelled rows of this split",
                              expected="a run evaluated on this split")
        p = np.stack([np.asarray(probs[r], dtype=np.float64) for r, _ in known])
        y = np.array([y for _, y in known], dtype=np.int64)
        source = "run"
    else:
        y = np.array([y for _, y in known], dtype=np.int64)
        counts = np.bincount(y, minlength=len(labels)) if len(y) else np.zeros(len(labels), np.int64)
        ok = [i for i, (_, c) in enumerate(known) if counts[c] >= 2]  # one example of a class cannot be checked
        skipped += len(known) - len(ok)
        known = [known[i] for i in ok]
        y = y[ok]
        _refuse_too_few(spec, y.tolist(), None)
        if method == "finetune":
            p, k, in_training = out_of_fold_finetuned(spec.kind, labels, pool, np.array([r for r, _ in known]), y,
                                                      model_path, folds=folds, seed=seed, cancel=cancel,
                                                      progress=lambda f, m: report(_fold_share(f, method), m))
            source = "finetune"
        else:
            X = pool.features[[r for r, _ in known]]
            p, k = out_of_fold_probs(X, y, len(labels), folds=folds, seed=seed, cancel=cancel,
                                     progress=lambda f, m: report(_fold_share(f, method), m))
    check_cancel(cancel)
    _refuse_non_finite([p])
    report(0.96, CheckProgress("ranking"))
    row_arr = np.array([r for r, _ in known], dtype=np.int64)
    accuracy = float((p.argmax(1) == y).mean())  # out of sample only: what the report states stays honest
    # the flags and their suggestions are the out-of-fold model's; the thorough check orders them (and
    # scores every row) with the training passes too
    order_by = None if in_training is None else with_training_passes(p, in_training)
    flagged, quality = classification_issues(y, p, order_by)
    chance = float(np.bincount(y).max() / len(y))
    p_value = signal_p(_log_gains(y, p, np.bincount(y, minlength=p.shape[1]) / len(y)))
    withheld = len(flagged) if p_value >= SIGNIFICANCE else 0
    flagged = flagged[:0] if withheld else flagged
    vectors = pool.features if pool.pairs is not None else pool.vectors
    flags = []
    for pos in flagged:
        check_cancel(cancel)
        given = int(y[pos])
        order = np.argsort(-p[pos], kind="stable")
        other = int(order[0] if order[0] != given else order[1])
        same = np.flatnonzero((y == other) & (row_arr != row_arr[pos]))
        near = nearest(vectors[row_arr[pos]], vectors[row_arr[same]])
        flags.append(Flag(int(row_arr[pos]), labels[given], labels[other], float(p[pos, other]),
                          float(quality[pos]), text=_display(pool, int(row_arr[pos])),
                          neighbours=tuple(Neighbour(int(row_arr[same[i]]), _display(pool, int(row_arr[same[i]])),
                                                     labels[other], s) for i, s in near)))
    report(1.0, CheckProgress("done"))
    return LabelErrorReport(split, tuple(flags), row_arr, np.asarray(quality, dtype=np.float64), accuracy, k, source,
                            skipped, chance=chance, p_value=p_value, withheld=withheld)


def _find_tokens(labels: list[str], index: dict[str, int], pool: PoolData, rows: Sequence[int],
                 values: Sequence[Any], split: str, folds: int, seed: int, report: Progress,
                 cancel: threading.Event | None, *, method: str = "fast", model_path: str = "") -> LabelErrorReport:
    words = pool.words or []
    known = [(int(r), np.array([index[t] for t in v], dtype=np.int64)) for r, v in zip(rows, values)
             if v is not None and len(v) == len(words[int(r)]) and all(t in index for t in v)]
    skipped = len(rows) - len(known)
    if len(known) < 2 or len({int(t) for _, tags in known for t in tags}) < 2:
        raise ConfigError("too few tagged sentences to cross-validate",
                          expected="at least two tagged sentences holding two different tags",
                          facts={"refusal": "too_few_to_cross_validate", "unit": "tagged_sentences"})
    row_arr = np.array([r for r, _ in known], dtype=np.int64)
    tags = [t for _, t in known]
    W = [words[r] for r in row_arr]
    if method == "finetune":
        probs, k, _ = out_of_fold_finetuned("tagging", labels, pool, row_arr, tags, model_path, folds=folds,
                                            seed=seed, cancel=cancel,
                                            progress=lambda f, m: report(_fold_share(f, method), m))
    else:
        probs, k = out_of_fold_word_probs(W, tags, len(labels), folds=folds, seed=seed, cancel=cancel,
                                          progress=lambda f, m: report(_fold_share(f, method), m))
    _refuse_non_finite(probs)
    report(0.96, CheckProgress("ranking"))
    flagged, score, worst = token_issues(tags, probs)
    correct = np.concatenate([p.argmax(1) == t for p, t in zip(probs, tags)]) if tags else np.zeros(0)
    accuracy = float(correct.mean()) if len(correct) else None
    flat = np.concatenate(tags) if tags else np.zeros(0, dtype=np.int64)
    chance = float(np.bincount(flat).max() / len(flat)) if len(flat) else None
    prior = np.bincount(flat, minlength=len(labels)) / max(len(flat), 1)
    p_value = signal_p(np.array([_log_gains(t, pr, prior).sum() for t, pr in zip(tags, probs) if len(t)]))
    withheld = len(flagged) if p_value >= SIGNIFICANCE else 0
    flagged = flagged[:0] if withheld else flagged
    # candidates for neighbours: every labelled word, with its sentence and position
    flat_vec = np.concatenate(W)
    flat_tag = np.concatenate(tags)
    flat_sent = np.concatenate([np.full(len(t), j) for j, t in enumerate(tags)])
    flat_word = np.concatenate([np.arange(len(t)) for t in tags])
    flags = []
    for pos in flagged:
        check_cancel(cancel)
        w = int(worst[pos])
        given = int(tags[pos][w])
        order = np.argsort(-probs[pos][w], kind="stable")
        other = int(order[0] if order[0] != given else order[1])
        cand = np.flatnonzero((flat_tag == other) & (flat_sent != pos))
        near, seen = [], set()
        for i, s in nearest(W[pos][w], flat_vec[cand], k=len(cand)):
            j = int(flat_sent[cand[i]])
            if j in seen:
                continue  # three different sentences, not one sentence three times
            seen.add(j)
            near.append(Neighbour(int(row_arr[j]), _display(pool, int(row_arr[j])), labels[other], s,
                                  int(flat_word[cand[i]])))
            if len(near) == NEIGHBOURS:
                break
        flags.append(Flag(int(row_arr[pos]), labels[given], labels[other], float(probs[pos][w, other]),
                          float(score[pos]), word=w, text=_display(pool, int(row_arr[pos])), neighbours=tuple(near)))
    report(1.0, CheckProgress("done"))
    return LabelErrorReport(split, tuple(flags), row_arr, score, accuracy, k, method, skipped, chance=chance,
                            p_value=p_value, withheld=withheld, per_word=True)


def run_probs(run_dir: str | Path, split: str, labels: Sequence[str],
              splits: Any = None, names: dict[str, str | None] | None = None) -> dict[int, np.ndarray] | None:
    """Out-of-sample probabilities per project row of ``split`` from a run the app started,
    read through the run folder's own reader (:func:`bertstudio.train.rundir.read_predictions`:
    each prediction carries its project row; older runs map rows through eval_rows.json).
    Only predictions whose row the run recorded count. None when the run evaluated another
    split, has no predictions, or predicted other labels (tagging runs store no probabilities).
    ``splits``: the project's split_info, so predictions on rows replaced since do not count;
    ``names``: the run's label names -> today's (Project.names_now), so that a run made before a
    rename or a swap is read under today's names (None: the names are today's)."""
    return _run_probs(run_dir, split, labels, splits, names)[0]


def _run_probs(run_dir: str | Path, split: str, labels: Sequence[str], splits: Any,
               names: dict[str, str | None] | None) -> tuple[dict[int, np.ndarray] | None, str]:
    """:func:`run_probs`, and why there are none (the problem of the refusal)."""
    from bertstudio.train.rundir import read_predictions

    source = {name: name for name in labels}  # today's name -> the run's name of that class
    if names is not None:
        source = {now: old for old, now in names.items() if now is not None}
        missing = [name for name in labels if name not in source]
        if missing:
            return None, (f"the run predicts {', '.join(names)}; the project's labels are now {', '.join(labels)} "
                          f"({', '.join(missing)} renamed or added since the run)")
    out: dict[int, np.ndarray] = {}
    skipped: list = []
    saved_rows = read_predictions(run_dir, splits=splits, skipped=skipped)
    if skipped:  # a damaged line is said, not left out of the check without a word (a review)
        raise skipped[0]
    no_probs = "the run holds no probabilities for this split"
    for saved in saved_rows:
        if not saved.exact or saved.split != split:
            continue
        try:
            probs = saved.pred["probs"]
            vec = np.array([float(probs[source[name]]) for name in labels])
        except KeyError:
            kept = sorted(saved.pred["probs"]) if isinstance(saved.pred.get("probs"), dict) else []
            return None, (f"the run's probabilities are for {', '.join(map(str, kept))}; the project's labels are "
                          f"now {', '.join(labels)}" if kept else no_probs)
        except (TypeError, ValueError):
            return None, no_probs
        if not np.isfinite(vec).all():
            return None, no_probs
        out[saved.row] = vec
    return (out, "") if out else (None, no_probs)


def find_label_errors(project: Any, split: str = "train", *, model: str | None = None, folds: int = FOLDS,
                      seed: int = 0, method: str = "fast", run_dir: str | Path | None = None,
                      progress: Progress | None = None, cancel: threading.Event | None = None) -> LabelErrorReport:
    """The finder over a project's split: :func:`find_in_examples` with the project's labels and
    its embedding cache (so the labelling assistant's vectors are reused). ``run_dir``: use that
    run's probabilities for the rows it evaluated (see :func:`run_probs`)."""
    from bertstudio.data.project_store import CACHE_DIR
    from bertstudio.train.rundir import run_names_now

    probs = None
    if run_dir is not None:
        probs, why = _run_probs(run_dir, split, list(project.labels), project.split_info,
                                run_names_now(run_dir, project))
        if probs is None:
            raise ConfigError(why, path=run_dir,
                              expected="a classification run the app started, evaluated on this split")
    return find_in_examples(project.examples(split), list(project.labels), Path(project.folder) / CACHE_DIR,
                            split=split, model=model, folds=folds, seed=seed, method=method, probs=probs,
                            progress=progress, cancel=cancel)


def _refuse_too_few(spec: AssistSpec, values: Sequence[Any], source: Any) -> None:
    """ConfigError unless ``values`` (gold labels; tagging: tag lists) can be cross-validated: two labels
    with two rows each, four in all (a class of one row cannot be held out of its own fold), or two
    labelled sentences for tagging. The CLI asks it before the embedding, find_in_pool after."""
    if spec.head == "token":
        if len(values) < 2:
            raise ConfigError("too few labelled sentences to cross-validate", path=source,
                              expected="at least two labelled sentences",
                              facts={"refusal": "too_few_to_cross_validate", "unit": "labelled_sentences"})
        return
    checkable = [c for c in Counter(values).values() if c >= 2]
    if sum(checkable) < 4 or len(checkable) < 2:
        raise ConfigError("too few labelled rows to cross-validate", path=source,  # (the facts: for the app's words)
                          expected="at least two labelled rows in each of two labels",
                          facts={"refusal": "too_few_to_cross_validate", "unit": "labelled_rows"})


def find_in_examples(examples: Any, labels: Sequence[str], cache_dir: str | Path, *, split: str = "train",
                     model: str | None = None, folds: int = FOLDS, seed: int = 0, method: str = "fast",
                     probs: dict[int, np.ndarray] | None = None, progress: Progress | None = None,
                     cancel: threading.Event | None = None) -> LabelErrorReport:
    """The finder over an ExampleSet's labelled rows (a project's split, or a file the CLI read):
    embeds them through the caches in ``cache_dir``, then :func:`find_in_pool`. ``method``:
    ``"fast"`` or ``"finetune"`` (the module docstring; ``model`` is what both use)."""
    from bertstudio.assist.cache import EmbeddingCache, WordEmbeddingCache
    from bertstudio.assist.encoder import SentenceEncoder
    from bertstudio.assist.pool import embed_pool, read_pool
    from bertstudio.bundled import resolve_model

    spec = spec_for(examples.kind)
    if spec.features is None or spec.head not in ("logistic", "token"):
        raise ConfigError(f"the label-error finder needs a label set; {examples.kind} has none",
                          path=examples.source, expected="sentence, pair or tagging data")
    if method not in METHODS:
        raise ConfigError(f"unknown label-error method {method!r}", expected=" or ".join(METHODS))
    report = progress or (lambda _f, _m: None)
    labels = list(labels)
    gold = examples.gold_values()
    rows = [i for i, v in enumerate(gold) if v is not None]
    values = [gold[i] for i in rows]
    _refuse_too_few(spec, values, examples.source)  # before the model loads and every text is embedded
    model_path = resolve_model(model)
    from bertstudio.tasks.model import inspect_model_folder

    inspect_model_folder(model_path)  # "no such model folder" before the progress starts, as train says it
    report(0.0, CheckProgress("embedding"))
    encoder = SentenceEncoder.from_path(model_path)
    cache = EmbeddingCache(Path(cache_dir), encoder)
    words = WordEmbeddingCache(Path(cache_dir), encoder)
    pool = embed_pool(read_pool(spec, examples), cache, words, cancel=cancel,
                      progress=lambda d, t: report(EMBED_SHARE[method] * d / max(t, 1), CheckProgress("embedding")))
    result = find_in_pool(spec, labels, pool, rows, values, split=split, folds=folds, seed=seed, probs=probs,
                          method=method, model_path=str(model_path), progress=report, cancel=cancel)
    return replace(result, messages=tuple(cache.messages + words.messages))
