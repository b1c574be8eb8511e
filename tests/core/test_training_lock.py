"""One torch training at a time in a process (train/training_lock.py): a seeded run trains the
same whatever else the app trains beside it, a cancel while waiting ends the job, and the job
says what it waits for. No sleeps: the tests hold a job inside its training with an Event."""

from __future__ import annotations

import threading

import pytest

from bertstudio.train import training_lock
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.events import PhaseChanged

from helpers import sentiment

pytestmark = pytest.mark.usefixtures("one_thread")

WAIT_S = 120  # a bound for a stuck test, never reached when all is well


def config(tiny: str, **kw) -> TrainConfig:
    base = dict(model=tiny, epochs=2, batch_size=8, lr=3e-3, logging_steps=1, seed=0, max_length=32, device="cpu",
                precision="fp32")
    base.update(kw)
    return TrainConfig(**base)


def losses_of(events: list) -> list[float]:
    return [e.loss for e in events if getattr(e, "kind", "") == "step"]


class Job:
    """``train(config)`` on a thread of its own, recording its events; ``hold`` keeps it inside its
    first step until set, and ``moved`` is set at its first step or once it says it is waiting."""

    def __init__(self, config: TrainConfig, *, hold: threading.Event | None = None,
                 cancel: threading.Event | None = None, name: str | None = None) -> None:
        self.events: list = []
        self.moved, self.inside = threading.Event(), threading.Event()
        self.hold, self.result = hold, None

        def on_event(event, control=None) -> None:
            self.events.append(event)
            if getattr(event, "kind", "") == "step" or getattr(event, "phase", "") == "waiting":
                self.moved.set()
            if getattr(event, "kind", "") == "step" and self.hold is not None:
                self.inside.set()
                self.hold.wait(WAIT_S)

        def run() -> None:
            if name is None:
                self.result = train(config, sentiment(32), callbacks=[on_event], cancel=cancel)
                return
            with training_lock.training_job(name):
                self.result = train(config, sentiment(32), callbacks=[on_event], cancel=cancel)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def join(self) -> None:
        self.thread.join(WAIT_S)
        assert not self.thread.is_alive()


def test_a_seeded_run_trains_the_same_beside_another_training(tiny):
    """A run beside another seeded training on a thread of the same process (the app's assistant,
    label-error check, learning curve) lost its reproducibility: both reseeded and drew from torch's
    global generators, and its losses differed from step 1 on. They now take turns."""
    alone = Job(config(tiny))
    alone.join()
    assert alone.result.status == "finished"

    release = threading.Event()
    other = Job(config(tiny, seed=1, epochs=3), hold=release, name=training_lock.LEARNING_CURVE)
    assert other.inside.wait(WAIT_S)  # the other training is at its first step
    beside = Job(config(tiny))
    assert beside.moved.wait(WAIT_S)  # waiting for its turn (before: already training beside it)
    release.set()
    other.join()
    beside.join()
    assert beside.result.status == "finished" and other.result.status == "finished"
    assert losses_of(beside.events) == losses_of(alone.events)
    # it said why nothing moved, naming the job it waited for
    waits = [e for e in beside.events if isinstance(e, PhaseChanged) and e.phase == "waiting"]
    assert [e.detail for e in waits] == [training_lock.LEARNING_CURVE]
    assert beside.events.index(waits[0]) < next(i for i, e in enumerate(beside.events) if e.kind == "phase"
                                                 and e.phase in ("loading_model", "reusing_model"))


def test_a_cancel_while_waiting_for_the_turn_ends_the_run_before_step_1(tiny):
    release = threading.Event()
    try:
        other = Job(config(tiny), hold=release)
        assert other.inside.wait(WAIT_S)
        cancel = threading.Event()
        waiting = Job(config(tiny), cancel=cancel)
        assert waiting.moved.wait(WAIT_S)
        cancel.set()
        waiting.join()  # while the other training is still held: it did not wait for its end
        assert other.thread.is_alive()
        assert waiting.result.status == "cancelled" and waiting.result.message == "cancelled before step 1"
        assert losses_of(waiting.events) == [] and waiting.events[-1].kind == "finished"
        assert [e.detail for e in waiting.events if getattr(e, "phase", "") == "waiting"] == [training_lock.RUN]
    finally:
        release.set()
    other.join()
    assert other.result.status == "finished"


def test_the_turn_is_re_entrant_names_its_holder_and_never_waits_on_the_gui_thread():
    assert training_lock.holder() is None
    with training_lock.training_turn(training_lock.ASSISTANT) as outer:
        with training_lock.training_turn() as inner:  # engine.fit inside train_strong
            assert outer and inner and training_lock.holder() == training_lock.ASSISTANT
        assert training_lock.holder() == training_lock.ASSISTANT
    assert training_lock.holder() is None

    refused: list[BaseException] = []

    def gui() -> None:
        training_lock.never_wait_here()
        try:
            with training_lock.training_turn():
                pass
        except RuntimeError as exc:
            refused.append(exc)

    thread = threading.Thread(target=gui)
    thread.start()
    thread.join(WAIT_S)
    assert refused and "GUI thread" in str(refused[0])
    assert training_lock.holder() is None


def test_a_cancel_while_waiting_is_seen_within_a_slice_and_the_waiter_is_told_whom_it_waits_for():
    held, release, told = threading.Event(), threading.Event(), []
    cancel = threading.Event()

    def holder() -> None:
        with training_lock.training_job(training_lock.LABEL_CHECK), training_lock.training_turn():
            held.set()
            release.wait(WAIT_S)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(WAIT_S)

        def waiting(job: str) -> None:
            told.append(job)
            cancel.set()  # the person presses Cancel on seeing it

        with training_lock.training_turn(cancel=cancel, waiting=waiting) as mine:
            assert mine is False
        assert told == [training_lock.LABEL_CHECK]
        assert training_lock.holder() == training_lock.LABEL_CHECK  # the other job's turn untouched
    finally:
        release.set()
        thread.join(WAIT_S)
    assert training_lock.holder() is None


def test_the_assistants_model_waits_for_a_run_and_says_so(tiny, tmp_path):
    """The assistant's strong training (every 50 labels, on its own thread) reseeded torch's global
    generators under the Train page's run; now it waits for the run, and its status says why."""
    from bertstudio.assist import LabellingAssistant
    from test_assist_assistant import annotate, make_project, sentiment_rows, settings

    told = threading.Event()
    seen: list[dict] = []

    def on_event(event: dict) -> None:
        if event.get("waiting_for"):
            seen.append(dict(a.status()["training"]))
            told.set()

    release = threading.Event()
    run = Job(config(tiny), hold=release)
    project, gold = make_project(tmp_path / "p", "sentence", sentiment_rows(40), ["neg", "pos"])
    a = LabellingAssistant(project, settings=settings(tiny, strong_every=0, strong_method="setfit"), on_event=on_event)
    try:
        assert run.inside.wait(WAIT_S)
        assert a.wait_idle(300, training=False)  # embeddings and fast refits do not wait for a training
        annotate(a, project, gold, 12)
        a.train_now()
        assert told.wait(WAIT_S)
        assert seen[0]["status"] == "training" and seen[0]["waiting_for"] == training_lock.RUN
        assert a._strong is None
        release.set()
        run.join()
        assert a.wait_idle(600)
        assert a._strong is not None and not a.status()["training"].get("waiting_for")
    finally:
        release.set()
        a.close()
        project.close()


def test_a_waiting_callback_that_raises_at_its_turn_does_not_keep_the_turn():
    """The turn came, then the job's "waiting" callback raised: the lock stayed held by that
    thread for good and every later training waited forever."""
    release, held = threading.Event(), threading.Event()

    def hold() -> None:
        with training_lock.training_turn(training_lock.RUN):
            held.set()
            release.wait(WAIT_S)

    def raising(job: str) -> None:
        if not job:
            raise RuntimeError("the progress callback failed")

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(WAIT_S)
    raised: list[BaseException] = []

    def second() -> None:
        try:
            with training_lock.training_turn(training_lock.ASSISTANT, waiting=raising):
                pass
        except RuntimeError as exc:
            raised.append(exc)

    waiter = threading.Thread(target=second)
    waiter.start()
    release.set()
    holder.join(WAIT_S)
    waiter.join(WAIT_S)
    assert raised and training_lock.holder() is None
    cancel = threading.Event()
    threading.Timer(5, cancel.set).start()  # a turn kept would make the next job wait: fail, not hang
    with training_lock.training_turn(cancel=cancel) as turn:  # free for the next job
        assert turn


def test_a_job_that_gives_way_is_asked_to_stop_by_a_waiting_run_and_never_asks_another():
    """The assistant's background training held the turn for minutes while the run the person started
    said only "Waiting for a training run to finish…" (a newcomer's first SetFit run sat at step 4 / 100
    after 5 min). Now the background job gives way: the waiting run sets its event at once."""
    stop, held, told = threading.Event(), threading.Event(), []

    def background() -> None:
        with training_lock.training_turn(training_lock.ASSISTANT, cancel=stop, gives_way=stop):
            held.set()
            stop.wait(WAIT_S)  # a training checks its cancel after each step

    thread = threading.Thread(target=background)
    thread.start()
    assert held.wait(WAIT_S)
    with training_lock.training_turn(training_lock.RUN, waiting=told.append) as mine:
        assert mine and stop.is_set() and training_lock.holder() == training_lock.RUN
        # a background job waiting for the run does not ask the run to stop
        other, asked = threading.Event(), threading.Event()

        def second_background() -> None:
            with training_lock.training_turn(training_lock.ASSISTANT, cancel=other, gives_way=other,
                                             waiting=lambda job: job and asked.set()):
                pass

        waiter = threading.Thread(target=second_background)
        waiter.start()
        assert asked.wait(WAIT_S)
        other.set()  # ends it while waiting
        waiter.join(WAIT_S)
    thread.join(WAIT_S)
    assert told == [training_lock.ASSISTANT, ""] and training_lock.holder() is None


def test_a_job_that_gives_way_never_takes_the_turn_while_a_run_waits_for_it():
    """The assistant, having given way, asks for the turn again at once; nothing made the lock fair,
    so it could take it back before the waiting run woke (a review's simulation saw runs wait 15 s).
    Here the assistant waits first, then a run; when the holder ends, the run goes first, five times
    over, and the assistant's turn comes after it."""
    for _ in range(5):
        release, order = threading.Event(), []
        held = threading.Event()

        def holder_job() -> None:
            with training_lock.training_turn(training_lock.LEARNING_CURVE):
                held.set()
                release.wait(WAIT_S)

        def turn(job: str, gives_way: threading.Event | None, waiting: threading.Event) -> None:
            with training_lock.training_turn(job, gives_way=gives_way, waiting=lambda who: who and waiting.set()):
                order.append(job)

        first = threading.Thread(target=holder_job)
        first.start()
        assert held.wait(WAIT_S)
        assistant_waits, run_waits = threading.Event(), threading.Event()
        assistant = threading.Thread(target=turn, args=(training_lock.ASSISTANT, threading.Event(), assistant_waits))
        assistant.start()
        assert assistant_waits.wait(WAIT_S)
        run = threading.Thread(target=turn, args=(training_lock.RUN, None, run_waits))
        run.start()
        assert run_waits.wait(WAIT_S)
        release.set()
        for thread in (first, run, assistant):
            thread.join(WAIT_S)
        assert order == [training_lock.RUN, training_lock.ASSISTANT]
    assert training_lock.holder() is None and training_lock._firm_waiting == 0


def test_a_job_of_several_trainings_keeps_the_turn_between_them():
    """A label check's folds, a learning curve's points, a seeds job's seeds: between two of them the
    assistant took the turn back, loaded its model, trained a step and was stopped again (a sweep saw
    it 14 times over one learning curve). The job's claim keeps the turn until the job ends."""
    got = threading.Event()

    def assistant() -> None:
        with training_lock.training_turn(training_lock.ASSISTANT, gives_way=threading.Event()):
            got.set()

    with training_lock.training_job(training_lock.LEARNING_CURVE):
        with training_lock.training_turn():
            pass
        thread = threading.Thread(target=assistant)
        thread.start()  # between the job's trainings
        assert not got.wait(5 * training_lock.WAIT_SLICE_S)
        with training_lock.training_turn():  # the job's next training: at once
            assert not got.is_set()
    assert got.wait(WAIT_S)  # the job over, the assistant's turn
    thread.join(WAIT_S)
    assert training_lock._claims == 0 and training_lock.holder() is None


def test_the_assistant_gives_way_to_a_run_and_trains_again_after_it(tiny, tmp_path):
    from bertstudio.assist import LabellingAssistant
    from test_assist_assistant import annotate, make_project, sentiment_rows, settings

    inside, statuses = threading.Event(), []

    class Held(LabellingAssistant):
        def strong_runner(self, request, **kwargs):  # the first training waits inside its step to be asked
            from bertstudio.assist.strong import train_strong

            cancel, first, told = kwargs["cancel"], not inside.is_set(), kwargs.pop("progress")

            def progress(step: int, total: int) -> None:
                told(step, total)
                if first:
                    inside.set()
                    cancel.wait(WAIT_S)

            return train_strong(request, progress=progress, **kwargs)

    def on_event(event: dict) -> None:
        if event.get("kind") == "trained":
            statuses.append(event.get("status"))

    project, gold = make_project(tmp_path / "p", "sentence", sentiment_rows(40), ["neg", "pos"])
    a = Held(project, settings=settings(tiny, strong_every=0, strong_method="setfit"), on_event=on_event)
    try:
        assert a.wait_idle(300, training=False)
        annotate(a, project, gold, 12)
        a.train_now()
        assert inside.wait(WAIT_S)
        run = Job(config(tiny, epochs=1))
        run.join()
        assert run.result.status == "finished"
        waits = [e.detail for e in run.events if getattr(e, "phase", "") == "waiting"]
        assert waits == [training_lock.ASSISTANT]
        assert a.wait_idle(600)
        assert statuses == ["gave_way", "finished"] and a._strong is not None
    finally:
        a.close()
        project.close()
