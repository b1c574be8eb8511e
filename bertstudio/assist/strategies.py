"""What to label next: the orders the user picks from, and the audit draws.

Orders (:data:`STRATEGIES`), over the rows not yet labelled:

``in_order``   row 0, 1, 2, ...
``random``     a fixed random permutation of the split (seeded, so it survives a restart)
``uncertain``  the row whose top two class probabilities are closest (tagging: the
               lowest mean log-probability of the predicted tags, the length-normalised
               least confidence of Shen et al., 2017); the first :data:`SPREAD_PICKS`
               picks are instead the rows nearest the centres of a k-means on the
               cached embeddings, largest cluster first, so a cold start does not pick
               twenty near-duplicates
``by_label``   the rows most likely to carry one label first (default: the label with the
               fewest gold values), to fill a rare class

Every :data:`AUDIT_EVERY`-th item labelled through the queue is an *audit* pick (for a kind
with a model in the loop: :attr:`~bertstudio.assist.kinds.AssistSpec.model_in_loop`), and once
labelled it joins the held-out audit set no model trains on (see :mod:`bertstudio.assist.audit`).
The draws come only from the *audit reserve*, decided up front: one row in :data:`AUDIT_EVERY`
of the split, the first rows of a seeded random permutation of its rows less those already
labelled (a uniform sample of the unlabelled rows that depends on neither the order nor the
labels), drawn in the permutation's order. It is sticky: saved with the queue, extended (never
redrawn) over rows appended later (one seeded random row in each block of :data:`AUDIT_EVERY` row
numbers, whether they come one at a time or together), and it only loses rows the user labels
outside the audit (a training label undone must not come back as an audit row). No model
pseudo-labels its rows (:meth:`Queue.audit_reserved`) and the orders do not hand them out, so a
drawn row was never a row a model trained on (the reserve used to be the next few rows of the
draw order: it moved and shrank as rows were labelled, and 12% of draws had been open to
pseudo-labelling earlier). With fewer than :data:`AUDIT_EVERY` rows nothing is reserved: no
audit turn can come, and every row may be self-trained on.

Nothing is silently skipped: each order ranks *every* unlabelled row outside the reserve; once
those are labelled the reserve's rows come as audit draws, then the rows the user passed over
("skipped"), which move behind all the others but stay reachable and in :meth:`Queue.counts`.

All functions here are pure and fast (numpy over the pool): :meth:`Queue.next_row`
runs on the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from bertstudio.i18n import QT_TRANSLATE_NOOP

STRATEGIES: tuple[str, ...] = ("in_order", "random", "uncertain", "by_label")
AUDIT_EVERY = 10
SPREAD_PICKS = 20


@dataclass(frozen=True)
class NextItem:
    """The row to show next. ``audit``: this pick is a random audit draw; ``reason``: one
    line for the status bar (why this row, or why the order fell back)."""

    row: int
    audit: bool
    strategy: str
    reason: str = ""
    # the reason as data, for the app to say in the user's language: a key of REASONS and its value
    why: str = ""
    detail: str = ""


# The reasons :meth:`Queue.next_row` gives, by key ("{}": the item's ``detail``); the app says
# them in the user's language (context "AssistStrategies", see bertstudio/i18n.py).
REASONS = {
    "skipped": QT_TRANSLATE_NOOP("AssistStrategies", "every other row is labelled; back to the skipped rows"),
    "audit": QT_TRANSLATE_NOOP("AssistStrategies", "audit pick: drawn at random, kept out of training"),
    "spread": QT_TRANSLATE_NOOP("AssistStrategies", "spread pick: nearest a k-means centre"),
    "uncertain": QT_TRANSLATE_NOOP("AssistStrategies", "most uncertain (top-2 gap {})"),
    "least_confident": QT_TRANSLATE_NOOP("AssistStrategies", "least confident words (mean tag confidence {})"),
    # a newer model arrived after the pick: the number the row was picked by, and its number now
    "uncertain_moved": QT_TRANSLATE_NOOP("AssistStrategies", "picked as most uncertain; top-2 gap since the newer model: {}"),
    "least_confident_moved": QT_TRANSLATE_NOOP("AssistStrategies",
                                               "picked as least confident; mean tag confidence since the newer model: {}"),
    "no_model": QT_TRANSLATE_NOOP("AssistStrategies", "no model yet: random order until suggestions exist"),
    "likeliest": QT_TRANSLATE_NOOP("AssistStrategies", "likeliest for {}"),
    "no_suggestions": QT_TRANSLATE_NOOP("AssistStrategies", "no suggestions yet: random order"),
}


def _item(row: int, audit: bool, strategy: str, why: str = "", detail: str = "") -> NextItem:
    return NextItem(int(row), audit, strategy, REASONS[why].replace("{}", detail) if why else "", why, detail)


def uncertainty_reason(item: NextItem, margin: np.ndarray, per_word: bool) -> NextItem:
    """An "uncertain" pick said in the shown model's own measure: a tagging model's margin is the
    mean log-probability of its tags, said as their mean confidence (it read "top-2 gap -0.85")."""
    if item.why != "uncertain" or not 0 <= item.row < len(margin):
        return item
    why, detail = _uncertainty(margin, item.row, per_word)
    return _item(item.row, item.audit, item.strategy, why, detail)


def uncertainty_moved(item: NextItem, margin: np.ndarray, per_word: bool) -> NextItem:
    """``item`` once a newer model's ``margin`` has arrived: an uncertainty pick whose number has
    changed says both (the note kept "top-2 gap 0.00" under a model whose gap for the row was 0.93)."""
    if item.why not in ("uncertain", "least_confident") or not 0 <= item.row < len(margin):
        return item
    why, now = _uncertainty(margin, item.row, per_word)
    if why != item.why or now == item.detail:
        return item
    return _item(item.row, item.audit, item.strategy, f"{why}_moved", f"{item.detail} → {now}")


def _uncertainty(margin: np.ndarray, row: int, per_word: bool) -> tuple[str, str]:
    value = float(margin[row])
    return ("least_confident", f"{float(np.exp(value)):.2f}") if per_word else ("uncertain", f"{value:.2f}")


def uncertainty_order(margin: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """``candidates`` sorted by top-2 margin, smallest first (ties: lower row first)."""
    return candidates[np.lexsort((candidates, margin[candidates]))]


def kmeans_spread(vectors: np.ndarray, rows: np.ndarray, k: int = SPREAD_PICKS, seed: int = 0,
                  max_points: int = 20000, lengths: np.ndarray | None = None) -> list[int]:
    """One row per k-means cluster of ``vectors[rows]``: the row nearest each centre,
    largest cluster first. Large pools are clustered on a random sample of
    ``max_points`` rows (the centres of a sample are as spread as the pool's).

    ``lengths`` (per pool row; tagging, where each labelled word teaches the model): the
    pick is the row nearest the centre among the cluster's rows at least as long as its
    median, not a two-word fragment (the nearest rows to a centre of mean-pooled vectors
    are often the shortest; on UD EWT the first ten picks taught a per-token head 18% where
    ten random sentences taught it 53%)."""
    from sklearn.cluster import KMeans

    rows = np.asarray(rows)
    if len(rows) == 0:
        return []
    k = min(k, len(rows))
    rng = np.random.default_rng(seed)
    sample = rows if len(rows) <= max_points else np.sort(rng.choice(rows, max_points, replace=False))
    X = vectors[sample]
    km = KMeans(n_clusters=k, n_init=3, random_state=seed).fit(X)
    sizes = np.bincount(km.labels_, minlength=k)
    out: list[int] = []
    for c in np.argsort(-sizes, kind="stable"):
        members = np.flatnonzero(km.labels_ == c)
        if len(members) == 0:
            continue
        if lengths is not None:
            size = np.asarray(lengths)[sample[members]]
            members = members[size >= np.median(size)]
        d = ((X[members] - km.cluster_centers_[c]) ** 2).sum(1)
        out.append(int(sample[members[np.argmin(d)]]))
    return out


class Queue:
    """Which rows are labelled, skipped or audit, and the next row for each order.

    ``n`` rows; ``labelled`` is kept up to date by the assistant; ``seed`` fixes the
    random permutation and the audit draws. State is plain lists (saved as JSON).
    """

    def __init__(self, n: int, *, seed: int = 0, audit: bool = True) -> None:
        self.n = n
        self.seed = seed
        self.audit = audit  # False: no audit draws (a kind with no model in the loop has nothing to audit)
        self._labelled = np.zeros(n, dtype=bool)
        self.skipped: dict[int, int] = {}  # row -> order of skipping (oldest first comes back first)
        self.audit_rows: set[int] = set()  # labelled audit picks: the audit set
        # every row drawn for the audit, labelled or not, in draw order: it stays an audit row when
        # skipped, passed over by an order change or its label undone (a new draw in its place let
        # a user skip the hard draws, and the audit read too high)
        self.audit_drawn: dict[int, int] = {}
        self.queue_labels = 0  # items labelled through next_row picks (counts towards the audit rhythm)
        self.spread: list[int] = []  # k-means picks for the first uncertain picks
        self.uncertain_labels = 0  # items labelled through uncertain-order (non-audit) picks
        self._skip_seq = 0
        self.pending: NextItem | None = None  # the last item handed out, not yet labelled
        self._permutation = np.random.default_rng(seed).permutation(n)
        # the audit reserve, in draw order (see the module's docstring); the mask mirrors it
        self.reserve: list[int] = []
        self._reserved = np.zeros(n, dtype=bool)
        self._extend_reserve(0)
        self._audit_draws = 0
        self._turns_taken: set[int] = set()  # audit draws whose label has counted towards the rhythm

    # ------------------------------------------------------------------ bookkeeping
    @property
    def labelled(self) -> np.ndarray:
        return self._labelled

    @labelled.setter
    def labelled(self, value: Sequence[bool]) -> None:  # the gold the assistant read (a project's own labels)
        self._labelled = np.asarray(value, dtype=bool)
        self._drop_trained()

    def mark_labelled(self, row: int, labelled: bool) -> bool:
        """Record a gold change; returns True when this labels an audit pick (joins the audit set)."""
        was = bool(self.labelled[row])
        self.labelled[row] = labelled
        if not labelled:
            self.audit_rows.discard(row)  # unlabelled again, still an audit draw: its label is awaited
            return False
        self.skipped.pop(row, None)
        if self._reserved[row] and row not in self.audit_drawn:  # a training label (a model may learn it)
            self._reserved[row] = False
            self.reserve.remove(row)
        joined = row in self.audit_drawn and row not in self.audit_rows
        if joined:
            self.audit_rows.add(row)
        picked = self.pending is not None and self.pending.row == row
        # an awaited audit draw labelled with no pick pending (the row a reopened project shows again)
        # used its turn all the same: uncounted, the next pick was a second audit draw at once (once
        # per draw: an undo and a redo of its label are not new turns)
        unpicked_draw = joined and self.pending is None and row not in self._turns_taken
        if not was and (picked or unpicked_draw):
            if row in self.audit_drawn:
                self._turns_taken.add(row)
            self.queue_labels += 1
            if picked and not self.pending.audit and self.pending.strategy == "uncertain":
                self.uncertain_labels += 1
            self.pending = None
        return joined

    def skip(self, row: int) -> None:
        """The user moved on without labelling ``row``: it goes behind every other row. A skipped
        audit draw stays an audit draw and comes back at the next audit turn (its turn is used up:
        no other row is drawn in its place)."""
        if not self.labelled[row]:
            self._skip_seq += 1
            self.skipped[row] = self._skip_seq
        if self.pending is not None and self.pending.row == row:
            if self.pending.audit:
                self.queue_labels += 1
            self.pending = None

    def is_audit(self, row: int) -> bool:
        """``row`` was drawn for the audit and awaits its label: no model's guess is shown for it."""
        return row in self.audit_drawn and not self.labelled[row]

    def counts(self) -> dict[str, int]:
        labelled = int(self.labelled.sum())
        return {"total": self.n, "labelled": labelled, "unlabelled": self.n - labelled,
                "audit": len(self.audit_rows), "training": labelled - len(self.audit_rows),
                "skipped": sum(1 for r in self.skipped if not self.labelled[r])}

    def _candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """(unlabelled rows never skipped, skipped rows oldest first)."""
        free = ~self.labelled
        skipped = np.array(sorted((r for r in self.skipped if free[r]), key=self.skipped.get), dtype=np.int64)
        if len(skipped):
            free = free.copy()
            free[skipped] = False
        return np.flatnonzero(free), skipped

    # ------------------------------------------------------------------ the next row
    def audit_due(self) -> bool:
        return self.audit and self.queue_labels % AUDIT_EVERY == AUDIT_EVERY - 1

    def next_row(self, strategy: str, *, margin: np.ndarray | None = None, scores: np.ndarray | None = None,
                 label_index: int | None = None, label_name: str | None = None) -> NextItem | None:
        """The next row in ``strategy``, or None when every row is labelled.

        ``margin``: per row, small = uncertain (None: no model yet); ``scores``: per row and
        label, the probabilities ``by_label`` sorts by; ``label_index``: the label to fill
        (``label_name``: its name, for the reason).
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
        fresh, skipped = self._candidates()
        if len(fresh) == 0 and len(skipped) == 0:
            return None
        held = self._reserved.copy()  # the rows the orders leave to the audit
        held[list(self.audit_drawn)] = True
        open_ = fresh[~held[fresh]]
        waiting = [r for r in sorted(self.audit_drawn, key=self.audit_drawn.get) if not self.labelled[r]]
        # once only the reserve (and skipped rows) is left, a draw passed over (not skipped) comes
        # before a new draw: each Next that was not a skip drew another row, and the one shown waited
        ready = [r for r in waiting if r not in self.skipped] if len(open_) == 0 else []
        draw = self._next_draw() if (self.audit_due() or len(open_) == 0) and not ready else None
        if self.audit_due() and waiting:  # a draw skipped or passed over: the same row, not a new draw
            item = _item(waiting[0], True, strategy, "audit")
        elif ready:
            item = _item(ready[0], True, strategy, "audit")
        elif draw is not None:  # an audit turn, or only the reserve (and skipped rows) left
            self._audit_draws += 1
            self.audit_drawn[draw] = self._audit_draws
            item = _item(draw, True, strategy, "audit" if len(fresh) else "skipped")
        elif len(open_):
            item = self._ordered(strategy, open_, margin, scores, label_index, label_name)
        else:  # only skipped rows are left: they come back, oldest first
            item = _item(skipped[0], int(skipped[0]) in self.audit_drawn, strategy, "skipped")
        self.pending = item
        return item

    def _next_draw(self) -> int | None:
        """The reserve's next row not yet drawn nor labelled, in draw order (one never skipped first;
        only the user's own navigation can skip a row the orders do not hand out)."""
        left = (r for r in self.reserve if not self._labelled[r] and r not in self.audit_drawn)
        passed = []
        for r in left:
            if r not in self.skipped:
                return r
            passed.append(r)
        return min(passed, key=self.skipped.get) if passed else None

    def audit_reserved(self) -> np.ndarray:
        """Rows no model may pseudo-label: every audit draw, labelled or not (skipped, awaiting its
        label), and the audit reserve the next draws come from (fixed in advance, see the module's
        docstring: a row outside it is never drawn)."""
        return np.union1d(np.array(sorted(self.audit_drawn), dtype=np.int64),
                          np.array(self.reserve, dtype=np.int64)).astype(np.int64)

    def _extend_reserve(self, start: int) -> None:
        """Reserve rows ``start`` .. ``n - 1`` (all of them, or the rows appended after ``start``),
        one row in :data:`AUDIT_EVERY` of them, less those already labelled (as at a first open, where
        the gold read at start leaves the reserve: the share is drawn before the labels are looked
        at, so the reserved rows are a uniform sample of the unlabelled ones; drawn among the
        unlabelled rows only, an append that came mostly labelled had every unlabelled row
        reserved). The rows reserved before stay as they are.

        The whole split: the first rows of a seeded permutation. Appended rows: :meth:`_block_slots`,
        one seeded random row in each block of :data:`AUDIT_EVERY` row numbers, so whether a row is
        reserved depends on neither how the rows came (one Add example at a time, or one import)
        nor the labels; drawn in a seeded random order. (The count per append used to be the
        multiples of AUDIT_EVERY it crossed, taken among the appended rows: added one at a time,
        that reserved exactly rows 9, 19, 29, …, a systematic sample.)"""
        if not self.audit or start >= self.n:
            return
        order = np.random.default_rng([self.seed, 1, start])
        if start == 0:
            rows = order.permutation(self.n)[:self.n // AUDIT_EVERY]
        else:
            slots = self._block_slots(start // AUDIT_EVERY, (self.n - 1) // AUDIT_EVERY + 1)
            rows = order.permutation(slots[(slots >= start) & (slots < self.n)])
        self.reserve.extend(int(r) for r in rows)
        self._reserved[rows] = True
        self._drop_trained()

    def _block_slots(self, first: int, end: int) -> np.ndarray:
        """The reserved row of each block ``first`` .. ``end - 1`` of :data:`AUDIT_EVERY` row numbers
        (block k: rows k*AUDIT_EVERY onwards), at a seeded random place in it, the same whenever asked."""
        chunk = 1024  # blocks drawn per generator: a row's place never depends on the append's bounds
        offsets = np.concatenate([np.random.default_rng([self.seed, 2, c]).integers(AUDIT_EVERY, size=chunk)
                                  for c in range(first // chunk, (end - 1) // chunk + 1)])
        blocks = np.arange(first, end)
        return blocks * AUDIT_EVERY + offsets[blocks - (first // chunk) * chunk]

    def _drop_trained(self) -> None:
        """Reserved rows labelled and never drawn were labelled for training: no longer reserved."""
        trained = [r for r in self.reserve if self._labelled[r] and r not in self.audit_drawn]
        if trained:
            self._reserved[trained] = False
            self.reserve = [r for r in self.reserve if self._reserved[r]]

    def _ordered(self, strategy: str, fresh: np.ndarray, margin: np.ndarray | None, scores: np.ndarray | None,
                 label_index: int | None, label_name: str | None = None) -> NextItem:
        if strategy == "in_order":
            return NextItem(int(fresh[0]), False, strategy)
        if strategy == "uncertain":
            spread_left = [r for r in self.spread if not self.labelled[r] and r not in self.skipped
                           and not self._reserved[r] and r not in self.audit_drawn]
            if self.uncertain_labels < SPREAD_PICKS and spread_left:
                return _item(spread_left[0], False, strategy, "spread")
            if margin is not None:
                return _item(uncertainty_order(margin, fresh)[0], False, strategy, "uncertain",
                             f"{float(margin[fresh].min()):.2f}")
            return self._random(fresh, strategy, "no_model")
        if strategy == "by_label":
            if scores is not None and label_index is not None and 0 <= label_index < scores.shape[1]:
                p = scores[fresh, label_index]
                best = fresh[np.lexsort((fresh, -p))][0]
                return _item(best, False, strategy, "likeliest", label_name or f"label {label_index}")
            return self._random(fresh, strategy, "no_suggestions")
        return self._random(fresh, strategy)

    def _random(self, fresh: np.ndarray, strategy: str, why: str = "") -> NextItem:
        free = np.zeros(self.n, dtype=bool)
        free[fresh] = True
        for r in self._permutation:  # the first free row of the fixed permutation
            if free[r]:
                return _item(r, False, strategy, why)
        raise AssertionError("fresh rows exist")  # pragma: no cover

    # ------------------------------------------------------------------ state
    def to_state(self) -> dict:
        return {"seed": self.seed, "n": self.n, "skipped": sorted(self.skipped.items()),
                "audit_rows": sorted(self.audit_rows), "queue_labels": self.queue_labels,
                "audit_draws": self._audit_draws, "spread": list(self.spread), "uncertain_labels": self.uncertain_labels,
                "skip_seq": self._skip_seq, "audit_drawn": sorted(self.audit_drawn.items()),
                "audit_reserve": list(self.reserve)}

    def load_state(self, state: dict, labelled: Sequence[bool]) -> None:
        """Restore from :meth:`to_state` (rows beyond ``n`` or no longer labelled are dropped)."""
        self.labelled = np.asarray(labelled, dtype=bool).copy()
        ok = lambda r: isinstance(r, int) and 0 <= r < self.n  # noqa: E731
        self.skipped = {int(r): int(o) for r, o in state.get("skipped", []) if ok(r)}
        self.audit_rows = {int(r) for r in state.get("audit_rows", []) if ok(r) and self.labelled[r]}
        drawn = state.get("audit_drawn")
        pairs = drawn if isinstance(drawn, list) else [(r, i) for i, r in enumerate(sorted(self.audit_rows))]
        self.audit_drawn = {int(p[0]): int(p[1]) for p in pairs
                            if isinstance(p, (list, tuple)) and len(p) == 2 and ok(p[0]) and isinstance(p[1], int)}
        self.audit_rows |= {r for r in self.audit_drawn if self.labelled[r]}
        if not self.audit:  # draws an earlier version made for a kind without a model: plain rows now
            self.audit_rows, self.audit_drawn = set(), {}
        self.queue_labels = int(state.get("queue_labels", 0))
        self._audit_draws = int(state.get("audit_draws", 0))
        self.spread = [int(r) for r in state.get("spread", []) if ok(r)]
        self.uncertain_labels = int(state.get("uncertain_labels", 0))
        self._skip_seq = int(state.get("skip_seq", max(self.skipped.values(), default=0)))
        self._load_reserve(state)

    def _load_reserve(self, state: dict) -> None:
        """The saved reserve, extended over rows appended since (``state["n"]`` rows then); a state
        from before the reserve was saved keeps the one built from the seed (built once: saved from
        now on). Reserved rows labelled and never drawn were labelled for training: no longer reserved."""
        saved = state.get("audit_reserve")
        if self.audit and isinstance(saved, list):
            then = state.get("n")
            then = then if isinstance(then, int) and 0 <= then <= self.n else self.n
            self.reserve, self._reserved = [], np.zeros(self.n, dtype=bool)
            for r in saved:
                if isinstance(r, int) and 0 <= r < then and not self._reserved[r]:
                    self.reserve.append(r)
                    self._reserved[r] = True
            self._extend_reserve(then)
        self._drop_trained()
