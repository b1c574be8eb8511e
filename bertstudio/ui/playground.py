"""The Playground: type an input, see what a trained run's model predicts.

Inputs follow the task kind (a sentence; a pair; whitespace-separated tokens;
a question and its context). Inference runs on a :class:`~bertstudio.ui.worker.ThreadJob`:
the first call loads the model (seconds), later ones take milliseconds but still
stay off the GUI thread. Only the answer of the latest job is shown, so a slow
answer to an older input never overwrites a newer one. The prediction is the one the run's
evaluation made (bertstudio.train.predict: same input lengths, same task code).
"""

from __future__ import annotations

import functools
import html
import logging
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextBrowser, QVBoxLayout, QWidget,
)

from bertstudio.data.glue import score_scale
from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_share
from bertstudio.tasks.limits import input_fields, model_config, saved_pairs
from bertstudio.tasks.typed_words import cjk_words_in, read_words, saved_cjk_words, whole_cjk_words
from bertstudio.train.rundir import followed_run, run_identity
from bertstudio.ui import preload
from bertstudio.ui.example_html import PRED_BG, shaded
from bertstudio.ui.run_reader import READING
from bertstudio.ui.runs_page import all_runs, in_project, run_titles
from bertstudio.ui.sentences import join_sentences
from bertstudio.ui.worker import ThreadJob

log = logging.getLogger(__name__)


_LOADED: set[tuple[str, float]] = set()  # what load_predictor holds (lru_cache has no "is it in?")


@functools.lru_cache(maxsize=2)  # a model or two in memory; the page empties it when the project closes
def load_predictor(model_dir: str, stamp: float) -> Any:
    """bertstudio's Predictor for ``model_dir``; ``stamp`` (its config.json's mtime) makes a
    model re-exported into the same folder (a resumed run) load afresh."""
    from bertstudio.train.predict import Predictor

    predictor = Predictor.load(model_dir)  # its default, fp32: one input costs little (bf16 showed 96.500 for 96.655)
    _LOADED.add((model_dir, stamp))
    return predictor


def predict_with(model_dir: str, inputs: dict[str, Any], *, stage: dict[str, str] | None = None) -> dict[str, Any]:
    """Load (once per folder) and run the Predictor; called on a worker thread. A QA answer says
    whether its model may answer "no answer" (``null_answers``, read from the loaded model's config,
    which Predictor.load checked). ``stage["now"]`` says what it is at ("load", then "predict"), a
    plain value the page's timer reads on the GUI thread."""
    stage = stage if stage is not None else {}
    stamp = (Path(model_dir) / "config.json").stat().st_mtime
    stage["now"] = "load"
    predictor = load_predictor(model_dir, stamp)
    stage["now"] = "predict"
    result = predictor.predict(**inputs)
    if "answer" in result:
        from bertstudio.tasks.qa import null_answers_of

        result["null_answers"] = null_answers_of(predictor.model)
    return result


def _is_loaded(model_dir: str) -> bool:
    """Whether load_predictor holds ``model_dir``'s model as it is on disk now (the first
    prediction with it loads it: seconds)."""
    try:
        return (model_dir, (Path(model_dir) / "config.json").stat().st_mtime) in _LOADED
    except OSError:
        return False


_LONG_INPUTS = frozenset({"context"})


def _bar_html(name: str, p: float, best: bool) -> str:
    width = max(1, round(200 * p))
    color = "#1f77b4" if best else "#9ecae1"
    return (f"<tr><td>{html.escape(name)}&nbsp;</td>"
            f"<td><table cellspacing=0 cellpadding=0><tr><td width={width} height=14 bgcolor='{color}'></td></tr></table></td>"
            f"<td>&nbsp;{format_share(p, 1)}</td></tr>")


WORDS_PER_ROW = 10  # the tagged words of a long sentence wrap, as text does
NOT_READ = "—"  # under a word that tokenises to nothing (a zero-width space): no tag was predicted
_UNKNOWN = object()  # the chosen run's cjk_words not looked up yet

class PlaygroundPage(QWidget):
    prediction_shown = Signal(dict)

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.kind = session.kind
        self._lock = threading.Lock()  # one inference at a time: loads and forwards share the cache and CPU
        self.pairs: str | None = None  # how many of the chosen run's training rows had a second text
        self._scale: tuple[float, float] | None = None  # the chosen run's score scale (STS-B: 0-5; a project's own)
        self._job: ThreadJob | None = None
        # bumped for every new input: a queued job whose input is no longer the latest skips its
        # forward (five edits during a 2 s forward ran five forwards, and the newest answer waited 8 s)
        self._generation = 0
        self.last_result: dict[str, Any] | None = None
        self._default_index = -1  # the run chosen by default ("(latest)"), which follows newer runs
        self._picked_id: tuple[int, int, float | None] | None = None  # the shown run's identity, kept through a rename
        self._runs: list[Path] = []  # the folders the picker lists, by row (run_at)
        self._picked_reading = False  # the shown run is still read on the run reader's worker
        # whether the chosen run's training tokens were single CJK ideographs (typed_words.cjk_words_in)
        self._cjk_words: Any = _UNKNOWN
        self._model_config: Any = None  # the chosen run's model/config.json, parsed (_on_run_changed)
        self._stage: dict[str, str] = {}  # what the job now on its way is at (predict_with), read by the timer
        self._build()
        session.runs_changed.connect(self.refresh_runs)
        session.project_opened.connect(self.refresh_runs)
        session.project_closed.connect(self.refresh_runs)
        session.run_reader.read.connect(self.refresh_runs)  # runs read off the GUI thread are in
        session.project_closed.connect(self._forget_models)
        self.refresh_runs()

    def _build(self) -> None:
        self.run_combo = QComboBox(objectName="playgroundRunCombo")
        self.run_combo.currentIndexChanged.connect(self._on_run_changed)
        self.input_label = QLabel()
        self.input = QPlainTextEdit(objectName="playgroundInput")
        self.input2_label = QLabel()
        self.input2 = QPlainTextEdit(objectName="playgroundInput2")
        for w in (self.input, self.input2):
            w.setMaximumHeight(120)
            w.setTabChangesFocus(True)  # Tab typed a tab into the sentence and never reached Predict
            w.textChanged.connect(self._schedule)
        self.predict_button = QPushButton(self.tr("&Predict"), objectName="playgroundPredictButton")
        self.predict_button.clicked.connect(self.predict)
        self.output = QTextBrowser(objectName="playgroundOutput")
        self.status = QLabel(objectName="playgroundStatus", wordWrap=True)
        # what a screen reader says of each (it read "" for both boxes, the output and the note): a
        # title over a box is its buddy, the others are named
        self.input_label.setBuddy(self.input)
        self.input2_label.setBuddy(self.input2)
        self.output.setAccessibleName(self.tr("Prediction"))
        self.status.setAccessibleDescription(self.tr("Notes on the prediction"))  # its name is its text
        # Predict as the user types, once they pause (a forward per key would queue up).
        self._debounce = QTimer(self, singleShot=True, interval=400)
        self._debounce.timeout.connect(self.predict)
        # the first prediction waits seconds for imports and the model: the status line says for what
        self._stage_timer = QTimer(self, interval=100)
        self._stage_timer.timeout.connect(self._show_stage)
        top = QHBoxLayout()
        run_label = QLabel(self.tr("Model of run"))
        run_label.setBuddy(self.run_combo)
        top.addWidget(run_label)
        top.addWidget(self.run_combo, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        for w in (self.input_label, self.input, self.input2_label, self.input2):
            lay.addWidget(w)
        lay.addWidget(self.predict_button)
        lay.addWidget(self.output, 1)
        lay.addWidget(self.status)

    def _input_title(self, column: str, alone: bool) -> str:
        titles = {
            "text": self.tr("Sentence") if alone else self.tr("First sentence"),
            "text_pair": self.tr("Second sentence"),
            "tokens": self.tr("Tokens (separated by spaces)"),
            "question": self.tr("Question"),
            "context": self.tr("Context"),
        }
        return titles.get(column, column)

    def _set_kind(self, kind: str, *, siamese: bool = False, pairs: str | None = None) -> None:
        """Input boxes for what the kind's model reads (its spec's inputs, then optional ones);
        ``siamese``: the model needs both texts of a pair, also where the kind's second is optional;
        ``pairs``: how many of its training rows had a second text ("none", "some", "all"; None: not
        recorded, the kind says)."""
        self.kind = kind
        self.spec = get_spec(kind)
        self.pairs = pairs
        reads, required = input_fields(self.spec, siamese=siamese, pairs=pairs)
        self.required = required
        self.fields = list(reads)[:2]
        self.input_label.setText(self._input_title(self.fields[0], len(self.fields) == 1))
        second = self.fields[1] if len(self.fields) > 1 else None
        self.input2_label.setText(self._input_title(second, False) if second else "")
        self.input2_label.setVisible(second is not None)
        self.input2.setVisible(second is not None)
        # a long input (a QA context) gets the room; a sentence keeps a small box
        self.input2.setMaximumHeight(16777215 if second in _LONG_INPUTS else 120)

    # --- runs -----------------------------------------------------------------------
    def refresh_runs(self, *_: object) -> None:
        """The project's runs with a model, newest first, then run folders opened from elsewhere
        (marked so: a sentiment model from another project is not this pair project's latest);
        by default the project's newest finished run, as Results shows. A run the person picked
        stays picked while it is listed (renamed too): the text typed would otherwise get another
        model's answer with nothing said; only the default entry moves on to a newer run."""
        previous = self.current_run()
        following = previous is None or self.run_combo.currentIndex() == self._default_index
        runs = [r for r in all_runs(self.session) if (r / "model" / "config.json").is_file()]
        foreign = {r for r in runs if not in_project(self.session, r)}
        runs = [r for r in runs if r not in foreign][::-1] + [r for r in runs if r in foreign][::-1]
        # a run with a long history is read on the reader's worker (a 42 MB one held Open project 0.56 s
        # here): it is listed by name meanwhile, not chosen by default, and ``read`` lists them again
        infos = self.session.run_reader.infos(runs)
        finished = [info.status == "finished" for info in infos]
        reading = [info.status == READING for info in infos]
        # not one cancelled after 2 of 825 steps, nor another project's while this one has a run
        own = [i for i, r in enumerate(runs) if r not in foreign] or list(range(len(runs)))
        chosen = next((i for i in own if finished[i]), own[0] if own else 0)
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        self._runs = list(runs)
        titles = run_titles(runs)  # two seeds jobs' seed-42 told apart, as on the Runs page
        for i, r in enumerate(runs):
            name = (self.tr("{name} (not in this project)") if r in foreign else
                    self.tr("{name} (latest)") if i == chosen and finished[i] else
                    self.tr("{name} (not finished)") if not finished[i] and not reading[i] else "{name}"
                    ).format(name=titles[r])
            self.run_combo.addItem(name)
        self._default_index = chosen if runs else -1
        # the run picked, followed through a rename (two runs swapped by rename put it under the other's name)
        picked, replaced = followed_run(previous, self._picked_id, runs) if previous is not None else (None, False)
        kept = -1 if following or picked is None else self.run_index(picked)
        self.run_combo.setCurrentIndex(kept if kept >= 0 else self._default_index)
        self.run_combo.blockSignals(False)
        # the same folder holding another run (two runs swapped by rename, a folder replaced) is
        # another model: its kind, pairs, Chinese words and scale are read again
        if previous is None or self.current_run() != previous or replaced or self._picked_reading:
            self._on_run_changed(self.run_combo.currentIndex())

    def run_at(self, index: int) -> Path | None:
        """The run folder the picker lists at ``index``. The folders are kept here, not as Qt item
        data: a QString drops a name's undecodable byte ("run\\xe9" came back as another run's
        "run", whose model then answered)."""
        return self._runs[index] if 0 <= index < len(self._runs) else None

    def run_index(self, folder: str | Path) -> int:
        """The picker's index of ``folder``; -1 when it is not listed."""
        return next((i for i, r in enumerate(self._runs) if r == Path(folder)), -1)

    def current_run(self) -> Path | None:
        return self.run_at(self.run_combo.currentIndex())

    def model_dir(self) -> str | None:
        data = self.current_run()
        return str(data / "model") if data else None

    def _forget_models(self) -> None:
        load_predictor.cache_clear()
        _LOADED.clear()

    def _on_run_changed(self, _idx: int) -> None:
        data = self.current_run()
        self._picked_id = run_identity(data) if data else None
        self._cjk_words = _UNKNOWN
        # the model's config.json, read once a pick: its pairs set the boxes, its Chinese words are read
        # when typed text first holds an ideograph
        self._model_config = model_config(Path(data) / "model") if data else None
        run = self.session.run_reader.infos([Path(data)])[0] if data else None
        self._picked_reading = run is not None and run.status == READING  # its kind and config come with ``read``
        if self._picked_reading:
            run = None
        self._set_kind((run.kind if run else None) or self.session.kind,
                       siamese=bool(run and run.config and run.config.head == "siamese"),
                       pairs=saved_pairs(self._model_config))
        self._scale = self._score_scale(Path(data) if data else None, run.config.glue_task if run and run.config else None)
        has = data is not None
        self.predict_button.setEnabled(has)
        self.status.setText("" if has else self.tr("Train a model first: the Playground uses a finished or cancelled run's model."))
        self._show_output(None)
        self.last_result = None
        self._drop_job()  # the other run's answer, still on its way, is not shown under this one
        if has and self.inputs() is not None:
            self._debounce.start()  # what is typed, predicted again by the run now chosen

    def _score_scale(self, run_dir: Path | None, glue_task: str | None) -> tuple[float, float] | None:
        """The scale the run's scores were given on, for the out-of-scale note: its benchmark's
        (STS-B: 0-5), else, for this project's own run of a score kind, the project's
        (editors.classify.project_score_scale: a 0-100 rating model's 112 was shown plainly);
        None for another project's run, whose golds are not these."""
        preset = score_scale(glue_task)
        if preset is not None or run_dir is None or not self.spec.gold.numeric or not in_project(self.session, run_dir):
            return preset
        from bertstudio.ui.editors.classify import project_score_scale

        low, high, _preset = project_score_scale(self.session)
        return low, high

    # --- predicting -----------------------------------------------------------------
    def inputs(self) -> dict[str, Any] | None:
        typed = dict(zip(self.fields, (self.input.toPlainText().strip(), self.input2.toPlainText().strip())))
        if any(not typed.get(c) for c in self.required):
            return None
        out: dict[str, Any] = {}
        for column, value in typed.items():
            if not value:
                continue
            if self.spec.is_list_column(column):  # typed as words separated by spaces, and Chinese as trained
                out[column] = read_words(value, self._run_cjk_words() if whole_cjk_words(value.split()) else None)
            else:
                out[column] = value
        return out

    def _run_cjk_words(self) -> str | None:
        """The chosen run's training tokens holding ideographs: "chars", "words" or None (unknown),
        as its model recorded them, else, for this project's run, as the project's train split
        has them (a run trained before the model kept it); looked up once per run."""
        if self._cjk_words is _UNKNOWN:
            data = self.current_run()
            found = saved_cjk_words(self._model_config)
            if found is None and data and in_project(self.session, Path(data)):
                examples = self.session.examples("train")
                found = cjk_words_in(examples) if examples is not None else None
            self._cjk_words = found
        return self._cjk_words

    def _schedule(self) -> None:
        self._mark_pending()
        self._debounce.start()

    def _drop_job(self) -> None:
        """No answer on its way is shown, and a job still queued for the lock skips its forward."""
        self._job = None
        self._generation += 1

    def _mark_pending(self) -> None:
        """The answer shown is for the text before the edit: greyed out until the new one arrives
        (it stayed, looking current, under the edited text)."""
        self.output.setEnabled(False)

    def _show_output(self, html_text: str | None) -> None:
        self.output.setEnabled(True)
        if html_text is None:
            self.output.clear()
        else:
            self.output.setHtml(html_text)

    def predict(self) -> None:
        self._debounce.stop()
        model_dir, inputs = self.model_dir(), self.inputs()
        if model_dir is None:
            return
        if inputs is None:  # a box emptied: the last answer no longer fits what is typed (it stayed, silently)
            self._drop_job()  # an answer still on its way is not shown either
            self._show_output(None)
            empty = [self._input_title(c, len(self.fields) == 1) for c, box in zip(self.fields, (self.input, self.input2))
                     if c in self.required and not box.toPlainText().strip()]
            self.status.setText(self.tr("Type the {boxes} to predict.").format(boxes=" + ".join(empty).lower()))
            return
        lock = self._lock
        self._mark_pending()
        self._drop_job()
        generation = self._generation
        stage = self._stage = {"now": "imports" if not preload.is_ready() else "predict" if _is_loaded(model_dir) else "load"}

        def job() -> dict[str, Any]:
            with lock:
                if generation != self._generation:  # a newer input came while this one waited: not computed
                    return {"inputs": inputs, "skipped": True}
                return {"inputs": inputs, **predict_with(model_dir, inputs, stage=stage)}

        self._job = ThreadJob(job, name="bertstudio-predict", heavy=True)
        self._job.succeeded.connect(self._on_job_succeeded)  # bound methods: dropped if the page goes first
        self._job.failed.connect(self._on_job_failed)
        self._job.start()
        self._show_stage()
        self._stage_timer.start()

    def _show_stage(self) -> None:
        """The status line while a job is on its way: the first one waited for the imports and the
        model under "Predicting…" alone (seconds, on a loaded machine 14 s)."""
        if self._job is None:
            self._stage_timer.stop()
            return
        now = self._stage.get("now")
        self.status.setText(self.tr("Starting up…") if now == "imports" else
                            self.tr("Loading the model…") if now == "load" else self.tr("Predicting…"))

    def _on_job_succeeded(self, result: dict[str, Any]) -> None:
        if self.sender() is not self._job or result.get("skipped"):
            return  # an answer to an input the user has since changed
        self._job = None  # answered: the stage timer stops
        self.last_result = result
        cut = result.get("truncated")
        notes = [] if not cut else [self.tr(
            "Only the first {read} of {total} tokens were read: the model was trained on inputs of at most "
            "{read} tokens, and the rest does not count in this prediction.").format(read=cut["read"], total=cut["of"])]
        if self.pairs is None and "text_pair" in self.fields and "text_pair" not in result.get("inputs", {}):
            # a score model (STS-B) scored one sentence with the second box empty, without a word (a model
            # that recorded its training rows' pairs needs the second box, or has none)
            notes.append(self.tr("Scored the first sentence alone: a model trained on sentence pairs needs the "
                                 "second sentence too."))
        unread = int(result.get("unpredicted_words") or 0)
        if unread:  # as `bertstudio predict` warns (and gives them no tag); the table drew them "O", as if predicted
            notes.append(self.tr("%n word(s) tokenise to nothing and were not read (marked {mark}): the model "
                                 "gives them no tag.", "", unread).format(mark=NOT_READ))
        whole = whole_cjk_words(result.get("inputs", {}).get("tokens") or [])
        if whole:  # 北京是中国的首都 got one tag, "O", for the whole sentence, with nothing said
            notes.append(self.tr("{words} read as one word: separate words with spaces.").format(
                words=", ".join(f"“{w}”" for w in whole[:3]) + ("…" if len(whole) > 3 else "")))
        self.status.setText(join_sentences(notes))
        self._show_output(self.result_html(result))
        self.prediction_shown.emit(result)

    def _on_job_failed(self, exc: BaseException) -> None:
        if self.sender() is not self._job:
            return
        self._job = None  # answered: the stage timer stops
        self._show_output(None)  # the last answer was for other text: under the new input it read as its answer
        self.last_result = None
        model_dir = self.model_dir()
        if model_dir is not None and not Path(model_dir).is_dir():  # deleted or moved since the list was made
            self._forget_models()
            message = self.tr("this run's model folder is gone ({path})").format(path=model_dir)
        else:
            message = str(exc) if isinstance(exc, BertStudioError) else f"{type(exc).__name__}: {exc}"
        self.status.setText(self.tr("Could not predict: {m}").format(m=message))

    def result_html(self, result: dict[str, Any]) -> str:
        """The prediction drawn the way its gold type reads best."""
        draw = {"label": self._label_html, "score": self._score_html, "tags": self._tags_html}.get(self.spec.gold.name)
        return (draw or self._answer_html)(result)

    def _label_html(self, result: dict[str, Any]) -> str:
        probs = sorted((result.get("probs") or {}).items(), key=lambda kv: -kv[1])
        rows = "".join(_bar_html(k, float(v), i == 0) for i, (k, v) in enumerate(probs))
        return f"<h3>{html.escape(str(result.get('label', '')))}</h3><table>{rows}</table>"

    def _score_html(self, result: dict[str, Any]) -> str:
        """The model's own score, never clipped (evaluation and ``bertstudio predict`` use it
        as it is); outside the benchmark's scale (STS-B: 0-5) it says so: identical sentences
        scored 5.53, which read as a fault."""
        title = self.tr("Score")  # outside the f-string, where lupdate sees it
        score = float(result.get("score", 0.0))
        out = f"<h3>{html.escape(title)}: {score:.3f}</h3>"
        scale = self._scale
        if scale is not None and not scale[0] <= score <= scale[1]:
            note = (self.tr("Past the top of the {lo:g}-{hi:g} scale the model learned from: read it as {hi:g} "
                            "(shown unclipped, as evaluation uses it).")
                    if score > scale[1] else
                    self.tr("Past the bottom of the {lo:g}-{hi:g} scale the model learned from: read it as {lo:g} "
                            "(shown unclipped, as evaluation uses it)."))
            out += f"<p><i>{html.escape(note.format(lo=scale[0], hi=scale[1]))}</i></p>"
        return out

    def _tags_html(self, result: dict[str, Any]) -> str:
        esc = html.escape
        tokens = result["inputs"]["tokens"]
        tags = list(result.get("tags") or [])
        probs = list(result.get("probs") or [])
        # a word that tokenises to nothing has no probabilities and no tag (None): it was not read
        unread = ({i for i, p in enumerate(probs) if not p} if result.get("unpredicted_words") and len(probs) == len(tags)
                  else set())
        cells = [f"<td align=center>{esc(t)}<br><small>{NOT_READ if i in unread else f'<b>{esc(tag)}</b>'}</small></td>"
                 for i, (t, tag) in enumerate(zip(tokens, tags))]
        # a few words per table row: one row of 340 words squeezed each column to a letter
        rows = "".join("<tr>" + "".join(cells[i:i + WORDS_PER_ROW]) + "</tr>" for i in range(0, len(cells), WORDS_PER_ROW))
        spans = "; ".join(f"{esc(' '.join(tokens[s:e]))} ({esc(typ)})" for typ, s, e in result.get("entities") or [])
        return f"<table cellpadding=4>{rows}</table><p>{spans}</p>"

    def _answer_html(self, result: dict[str, Any]) -> str:
        esc = html.escape
        context = result["inputs"]["context"]
        start, answer = int(result.get("start", -1)), str(result.get("answer") or "")
        # what kind of model answered: one trained with unanswerable questions says "no answer" where it
        # finds none (one such question among 522 made a model say it to every question, with nothing said);
        # one trained without them answers every question with a span, however unrelated (a teacher's sweep)
        null_answers = result.get("null_answers")
        if start < 0 or not answer:
            none = self.tr("No answer in the context.")  # outside the f-string, where lupdate sees it
            why = self.tr("This model was trained on questions with no answer in their context too (one ticked "
                          "\"No answer in this context\" on the Label page makes it so), and it says so where it "
                          "finds none.")
            note = f"<p><small>{esc(why)}</small></p>" if null_answers else ""
            return f"<p><i>{esc(none)}</i></p>{note}<p>{esc(context)}</p>"
        marked = (esc(context[:start]) + shaded(f"<b>{esc(context[start:start + len(answer)])}</b>", PRED_BG)
                  + esc(context[start + len(answer):]))
        score = result.get("score")
        word = self.tr("span score (its start and end logits added: not a probability)")  # where lupdate sees it
        head = f"<h3>{esc(answer)}</h3>" + (f"<p>{esc(word)} {float(score):.3f}</p>" if score is not None else "")
        if null_answers is False:
            always = self.tr("This model always answers with a span of the context: it was trained with no "
                             "unanswerable questions, so it cannot say that a question has no answer here.")
            head += f"<p><small>{esc(always)}</small></p>"
        return head + f"<p>{marked}</p>"
