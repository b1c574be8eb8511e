"""One torch training at a time in this process, so that a seed reproduces a run.

Every training draws from torch's *global* random generators: the new head's initial weights,
dropout, SetFit's pairs; the engine seeds them with accelerate's ``set_seed``, the assistant's
strong training with ``torch.manual_seed``. Two trainings on two threads of one process (the app's
Train page run, the assistant's strong model, each fold of the thorough label-error check, each
learning-curve run) drew from and reseeded the same generators, so a run with a fixed seed trained
differently whenever another job ran beside it (its losses differed from step 1), and its seed in
config.toml did not reproduce it. Each of them holds this lock from its seeding to its end
(:func:`training_turn`), so they run one after another; on a CPU two trainings side by side only
shared the cores anyway. The lock is re-entrant: ``engine.train`` holds it and calls ``fit``,
which takes it again; the assistant's ``train_strong`` holds it around the engine's ``fit``.

Not under it, because they draw nothing from the global generators and must not wait minutes
behind a training: the assistant's fast refits, self-training and k-means (scikit-learn and numpy,
seeded with their own generators), embeddings, evaluation and predictions (models in eval mode:
no dropout, no sampling). A data loader's shuffling has its own seeded ``torch.Generator``.

A background job may *give way* (``gives_way``, the assistant's strong model): any other job that
waits for it sets that event, which the background job checks as its cancel after every step, so a
run the person started begins within one of its steps instead of after minutes it was never told
of; the background job is trained again later (assist/session.py). Jobs the person started never
give way to each other. A job that gives way never takes the turn while one that does not waits
(it asks again at once, and a lock is not fair: it could take the turn back, reload its model and
train a step before the run it gave way to woke, again and again).

Waiting is in slices of :data:`WAIT_SLICE_S`, so a cancel while waiting ends the job within one
slice, and the job is told what it waits for (``waiting(job)``, again when that changes, and
``waiting("")`` when its turn comes) so that its progress can say why nothing moves. The GUI thread never waits for a training: the app calls
:func:`never_wait_here` on it, and a turn asked for there raises.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

WAIT_SLICE_S = 0.1  # how soon a cancel ends a job that waits for its turn

# what a job is called in "waiting for <job> to finish" (the UI translates these names)
RUN = "a training run"
ASSISTANT = "the assistant's model"
LABEL_CHECK = "the label-error check"
LEARNING_CURVE = "the learning curve"
SPEED_TIMING = "the time estimate's timing"  # the Train page timing this computer (train/estimate.calibrate)

_lock = threading.RLock()
_state = threading.Lock()  # guards the fields below
_holder: str | None = None  # the job holding the lock (its outermost turn)
_depth = 0  # the holder's nested turns
_gives_way: threading.Event | None = None  # the holder's: set by a job that waits for it (see gives_way)
_owner: int | None = None  # the holder's thread
_claims = 0  # jobs of several trainings in progress (training_job): the turn is theirs between them
_firm_waiting = 0  # jobs waiting that never give way: a job that gives way lets them go first
_local = threading.local()  # .job: what trainings started on this thread are part of; .no_wait: the GUI thread


def never_wait_here() -> None:
    """Declare the calling thread one that must never wait for a training (the GUI thread)."""
    _local.no_wait = True


@contextmanager
def training_job(name: str) -> Iterator[None]:
    """Trainings started on this thread inside the block are part of the job ``name``: what
    another job waiting for them is told (the learning curve's runs, the label-error check's folds,
    a seeds job's runs). The block claims the turn for the whole job: a job that gives way does
    not take it between the job's trainings (it did, before each fold, seed and curve point, and
    was stopped again each time after loading its model and training a step)."""
    outer = getattr(_local, "job", None)
    _local.job = outer or name
    if outer is None:
        _count_claims(1)
    try:
        yield
    finally:
        _local.job = outer
        if outer is None:
            _count_claims(-1)


def holder() -> str | None:
    """The job now training, or None."""
    with _state:
        return _holder


@contextmanager
def training_turn(job: str = RUN, *, cancel: threading.Event | None = None,
                  waiting: Callable[[str], None] | None = None,
                  gives_way: threading.Event | None = None) -> Iterator[bool]:
    """Hold the process's training lock for the block: True once it is this thread's turn, False
    (the lock not taken) when ``cancel`` was set while waiting; the caller then ends as cancelled.
    ``job``: this training's name unless :func:`training_job` named the thread's job.
    ``gives_way``: set by any other job that waits while this one holds the turn (pass the event
    the training checks as its cancel); a job that gives way never asks another to."""
    got = _acquire(getattr(_local, "job", None) or job, cancel, waiting, gives_way)
    try:
        yield got
    finally:
        if got:
            _release()


def _acquire(job: str, cancel: threading.Event | None, waiting: Callable[[str], None] | None,
             gives_way: threading.Event | None = None) -> bool:
    global _holder, _depth, _gives_way, _owner
    if getattr(_local, "no_wait", False):
        raise RuntimeError("a training was started on the GUI thread: it must run on a worker thread")
    told: str | None = None
    # a job that never gives way (the ones that do never take a turn it waits for); a turn inside this
    # thread's own is taken at once whatever it says
    firm = gives_way is None or _owned()
    got = _take(firm, 0)
    counted = not got and firm
    if counted:
        _count_firm(1)
    try:
        while not got:
            if cancel is not None and cancel.is_set():
                return False
            with _state:
                if firm and _gives_way is not None:
                    _gives_way.set()  # the background holder stops after its step (asked each slice: a new holder too)
            other = holder()
            if waiting is not None and other is not None and other != told:
                told = other
                waiting(other)
            if _may_take(firm):
                got = _take(firm, WAIT_SLICE_S)
            else:  # a job that gave way asked again at once and could take the turn back before the run it
                # gave way to woke (nothing makes a lock fair): every waiting firm job goes first
                (cancel or threading.Event()).wait(WAIT_SLICE_S)
    finally:
        if counted:
            _count_firm(-1)
    with _state:
        if _depth == 0:
            _holder, _gives_way, _owner = job, gives_way, threading.get_ident()
        _depth += 1
    if told is not None and waiting is not None:
        try:
            waiting("")  # its turn came
        except BaseException:  # the turn is the caller's only once this returns: never kept by a raising callback
            _release()
            raise
    return True


def _owned() -> bool:
    with _state:
        return _owner == threading.get_ident()


def _may_take(firm: bool) -> bool:
    with _state:
        return firm or (_firm_waiting == 0 and _claims == 0)


def _count_claims(n: int) -> None:
    global _claims
    with _state:
        _claims += n


def _take(firm: bool, timeout: float) -> bool:
    """The lock, unless a job that gives way got it while a firm job began to wait (checked again
    once it is held: the firm job may have come while this one waited on the lock)."""
    if not _may_take(firm) or not (_lock.acquire(timeout=timeout) if timeout else _lock.acquire(blocking=False)):
        return False
    if _may_take(firm):
        return True
    _lock.release()
    return False


def _count_firm(n: int) -> None:
    global _firm_waiting
    with _state:
        _firm_waiting += n


def _release() -> None:
    global _holder, _depth, _gives_way, _owner
    with _state:
        _depth -= 1
        if _depth == 0:
            _holder, _gives_way, _owner = None, None, None
    _lock.release()
