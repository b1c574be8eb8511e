"""Extractive QA (SQuAD v1.1 / v2.0): sliding windows in, best character span out.

Encoding follows BERT's SQuAD recipe (and Hugging Face's run_qa): the question
is segment A, the context segment B cut into overlapping windows (``stride``
tokens shared); each window learns the answer's start/end tokens, or the [CLS]
position when the answer is not inside it. Decoding searches the n best starts
and ends per window and keeps, per example, only its best span and its lowest
null score, so memory never holds more than one batch of logits.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import datasets
import numpy as np

from bertstudio.hf import hf
from bertstudio.data.examples import ExampleSet
from bertstudio.data.kinds import get_spec
from bertstudio.errors import ConfigError, DataError
from bertstudio.tasks.base import takes_token_types, token_inputs
from bertstudio.tasks.collate import pad_batch
from bertstudio.tasks.common import column, encoding_rows, map_batched
from bertstudio.tasks.limits import check_qa_windows, note_windows, qa_window_layout

if TYPE_CHECKING:
    import torch

def _cut_questions(tokenizer: Any, questions: list[str], max_tokens: int) -> list[str]:
    """Questions left-stripped (leading spaces break offsets) and cut to ``max_tokens``
    tokens at a character boundary, so the context always keeps room in each window."""
    questions = [q.lstrip() for q in questions]
    enc = tokenizer(questions, add_special_tokens=False, return_offsets_mapping=True)
    out = []
    for q, offsets in zip(questions, enc["offset_mapping"]):
        out.append(q[: offsets[max_tokens - 1][1]] if len(offsets) > max_tokens else q)
    return out


class QuestionAnsweringTask:
    kind = "qa"
    peft_task_type = "QUESTION_ANS"
    head_modules: tuple[str, ...] = ("qa_outputs",)
    prediction_columns: tuple[str, ...] = ("confidence",)
    metric_names: tuple[str, ...] = ("exact_match", "f1")  # SQuAD's official pair

    def __init__(self) -> None:
        self.spec = get_spec(self.kind)

    def auto_model_class(self) -> type:
        AutoModelForQuestionAnswering = hf("AutoModelForQuestionAnswering")

        return AutoModelForQuestionAnswering

    def config_kwargs(self, labels: Sequence[str]) -> dict[str, Any]:
        return {}

    def encode(
        self,
        examples: ExampleSet,
        tokenizer: Any,
        *,
        max_length: int,
        label2id: Mapping[str, int],
        doc_stride: int = 128,
        training: bool = True,
    ) -> datasets.Dataset:
        """One row per window. Columns: model inputs, ``length``, ``example_index``,
        ``offset_mapping`` (character span per token; [-1, -1] outside the context) and,
        with gold, ``start_positions``/``end_positions`` (0 = [CLS] = no answer here)."""
        if tokenizer.padding_side != "right":
            raise ConfigError("QA needs a tokenizer that pads on the right", where="tokenizer", expected="padding_side = right")
        ds, with_targets = encoding_rows(examples, training)
        max_query, room, stride = qa_window_layout(max_length, doc_stride)
        check_qa_windows(ds, tokenizer, max_length=max_length, room=room, stride=stride, source=examples.source)

        def tokenize(batch: dict[str, list]) -> dict[str, list]:
            questions = _cut_questions(tokenizer, batch["question"], max_query)
            enc = tokenizer(
                questions,
                batch["context"],
                truncation="only_second",
                max_length=max_length,
                stride=stride,
                return_overflowing_tokens=True,
                return_offsets_mapping=True,
                return_token_type_ids=takes_token_types(tokenizer),
                return_attention_mask=True,
            )
            sample = enc["overflow_to_sample_mapping"]
            out: dict[str, list] = token_inputs(tokenizer, enc)
            out["length"] = [len(x) for x in enc["input_ids"]]
            out["example_index"] = [batch["example_index"][s] for s in sample]
            offsets_out, starts, ends = [], [], []
            for w, offsets in enumerate(enc["offset_mapping"]):
                in_ctx = np.fromiter((s == 1 for s in enc.sequence_ids(w)), dtype=bool, count=len(offsets))
                off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
                off[~in_ctx] = -1
                offsets_out.append(off)
                if not with_targets:
                    continue
                answers = batch["answers"][sample[w]]
                start_tok = end_tok = 0
                ctx = np.flatnonzero(in_ctx)
                if answers["text"] and not len(ctx):
                    # The context tokenises to nothing (only control, zero-width or combining
                    # characters the tokenizer drops): no span can be predicted. Training
                    # teaches "no answer here", as for any window without the answer; an
                    # evaluation would count a miss no model could avoid, so it is refused.
                    if not training:
                        raise DataError(
                            "the context has no tokens for this model's tokenizer, so its answer cannot be found",
                            path=examples.source,
                            where=f"question {batch['id'][sample[w]]!r} (row {batch['example_index'][sample[w]] + 1})",
                            expected="a context with words the tokenizer keeps",
                        )
                elif answers["text"]:
                    a_start = int(answers["answer_start"][0])
                    start_tok, end_tok = answer_tokens(off, ctx, a_start, a_start + len(answers["text"][0]))
                starts.append(start_tok)
                ends.append(end_tok)
            out["offset_mapping"] = offsets_out
            if with_targets:
                out["start_positions"], out["end_positions"] = starts, ends
            return out

        encoded = map_batched(ds, tokenize, self.kind)
        if training and with_targets:  # said of what trains: a prediction's windows cost nothing to say
            note_windows(len(encoded), len(ds), max_length=max_length, source=examples.source)
        return encoded

    def collate(self, features: Sequence[Mapping[str, Any]], pad_token_id: int, **padding: Any) -> dict[str, torch.Tensor]:
        return pad_batch(features, pad_token_id, **padding)

    def accumulator(
        self,
        examples: ExampleSet,
        encoded: datasets.Dataset,
        labels: list[str],
        *,
        n_best: int = 20,
        max_answer_length: int = 30,
        null_answers: bool = False,
        null_threshold: float = 0.0,
        **options: Any,
    ) -> "QAAccumulator":
        """``null_answers``: the model may answer "no answer" (SQuAD v2 behaviour), as the model
        says (:func:`null_answers_of`); never read off the evaluation data, where one unanswerable
        question turned every answer of the file into ""."""
        return QAAccumulator(
            column(examples.dataset, "context"),
            n_best=n_best,
            max_answer_length=max_answer_length,
            null_answers=null_answers,
            null_threshold=null_threshold,
        )

    def metrics(self, examples: ExampleSet, predictions: list[dict[str, Any]], **options: Any) -> dict[str, float]:
        from bertstudio import metrics as M

        gold = column(examples.dataset, "answers")
        keep = [i for i, g in enumerate(gold) if g is not None]
        if not keep:
            return {}
        return dict(M.squad_metrics([predictions[i]["answer"] for i in keep], [list(gold[i]["text"]) for i in keep]))

    def predicted_value(self, prediction: Mapping[str, Any]) -> Any:
        answer = prediction.get("answer") or ""
        start = int(prediction.get("start", -1))
        return {"text": [answer], "answer_start": [start]} if answer else {"text": [], "answer_start": []}

    def is_error(self, prediction: Mapping[str, Any], gold: Any) -> bool:
        """SQuAD's exact-match rule: wrong unless the normalised answer equals a normalised gold
        answer (for a question without an answer: unless the prediction is empty too)."""
        if gold is None:
            return False
        from bertstudio.metrics import normalize_answer

        answers = [normalize_answer(t) for t in (gold.get("text") or [])]
        got = normalize_answer(prediction.get("answer") or "")
        return got not in answers if answers else got != ""

    def confidence(self, prediction: Mapping[str, Any]) -> float | None:
        """The span's start + end logit (higher is surer; not a probability)."""
        value = prediction.get("score")
        return float(value) if value is not None else None


def answer_tokens(offsets: np.ndarray, ctx: np.ndarray, a_start: int, a_end: int) -> tuple[int, int]:
    """The (start, end) token of the answer ``context[a_start:a_end]`` in one window, from the
    tokens' character ``offsets`` and the indices ``ctx`` of the window's context tokens; (0, 0),
    [CLS] ("no answer here"), when the window does not hold the answer's tokens. One rule for an
    answer outside the window and for one that covers no token (spaces between two words,
    characters the tokenizer drops): mapped like the others it gave start > end, an inverted
    span no decoder can produce, and the model was trained on it."""
    if not len(ctx) or offsets[ctx[0], 0] > a_start or offsets[ctx[-1], 1] < a_end:
        return 0, 0
    # First context token ending after the answer starts, last starting before it ends.
    after, before = offsets[ctx, 1] > a_start, offsets[ctx, 0] < a_end
    if not after.any() or not before.any():
        return 0, 0
    start_tok = int(ctx[np.argmax(after)])
    end_tok = int(ctx[len(ctx) - 1 - np.argmax(before[::-1])])
    return (start_tok, end_tok) if start_tok <= end_tok else (0, 0)


def record_null_answers(model: Any, train_set: ExampleSet) -> None:
    """Keep with the model's settings (config.json's ``bertstudio`` block; an ONNX export copies it
    into labels.json) whether its training rows held unanswerable questions (SQuAD v2 data): only
    such a model answers "no answer", in evaluate, predict, the export's predict.py and the
    Playground alike. A no-op for data without answers (other kinds)."""
    settings = getattr(model, "config", None)
    if settings is None or "answers" not in train_set.dataset.column_names:
        return
    answers = column(train_set.dataset, "answers")
    null = any(a is not None and not a["text"] for a in answers)
    settings.bertstudio = {**(getattr(settings, "bertstudio", None) or {}), "null_answers": null}


def null_answers_of(model: Any) -> bool:
    """Whether ``model`` (a transformers model or an ONNX stand-in) may answer "no answer": it was
    trained on data with unanswerable questions (:func:`record_null_answers`). A model saved before
    bertstudio kept it answers every question (SQuAD v1.1 behaviour)."""
    return null_answers_in(getattr(model, "config", None))


def null_answers_in(config: Any, path: Any = None) -> bool:
    """``config.bertstudio["null_answers"]``: true, false or absent (False: saved before bertstudio
    kept it), as the export's labels.json is read (standalone_predict.check_fields); any other
    value is a damaged config.json, refused (it was read as false: a v2 model answered every question, and
    export-onnx wrote false). ``path``: the config.json, else the folder the config came from."""
    meta = getattr(config, "bertstudio", None)
    value = meta.get("null_answers", False) if isinstance(meta, dict) else False
    if not isinstance(value, bool):
        folder = getattr(config, "_name_or_path", None)
        raise ConfigError(f"{value!r} is not true or false", where="bertstudio.null_answers",
                          path=path or (f"{folder}/config.json" if folder else None),
                          expected="true or false")
    return value


class QAAccumulator:
    """Per example: best span (score, char start, char end) and lowest null score so far."""

    def __init__(
        self, contexts: list[str], *, n_best: int, max_answer_length: int, null_answers: bool, null_threshold: float
    ) -> None:
        self.contexts = contexts
        self.n_best = n_best
        self.max_answer_length = max_answer_length
        self.null_answers = null_answers
        self.null_threshold = null_threshold
        n = len(contexts)
        self.best_score = np.full(n, -np.inf)
        self.best_span = np.full((n, 2), -1, dtype=np.int64)
        self.null_score = np.full(n, np.inf)

    def add(self, batch: Mapping[str, torch.Tensor], outputs: Any) -> None:
        import torch

        start = outputs.start_logits if hasattr(outputs, "start_logits") else outputs["start_logits"]
        end = outputs.end_logits if hasattr(outputs, "end_logits") else outputs["end_logits"]
        start, end = start.detach().float().cpu(), end.detach().float().cpu()
        offsets = batch["offset_mapping"].cpu()
        in_context = offsets[..., 0] >= 0
        null = (start[:, 0] + end[:, 0]).numpy()  # [CLS] scores "no answer in this window"
        k = min(self.n_best, start.shape[1])
        neg = torch.finfo(start.dtype).min
        s_val, s_idx = start.masked_fill(~in_context, neg).topk(k, dim=1)
        e_val, e_idx = end.masked_fill(~in_context, neg).topk(k, dim=1)
        # All n_best x n_best pairs at once; invalid ones (end before start, too long,
        # outside the context) are masked out before the argmax.
        score = s_val[:, :, None] + e_val[:, None, :]
        span = e_idx[:, None, :] - s_idx[:, :, None]
        ok = (span >= 0) & (span < self.max_answer_length)
        ok &= torch.gather(in_context, 1, s_idx)[:, :, None] & torch.gather(in_context, 1, e_idx)[:, None, :]
        score = score.masked_fill(~ok, -np.inf).flatten(1)
        best = score.argmax(dim=1)
        best_score = score.gather(1, best[:, None])[:, 0].numpy()
        bs = s_idx.gather(1, (best // k)[:, None])[:, 0]
        be = e_idx.gather(1, (best % k)[:, None])[:, 0]
        rows = torch.arange(start.shape[0])
        char_start = offsets[rows, bs, 0].numpy()
        char_end = offsets[rows, be, 1].numpy()
        for r, ex in enumerate(batch["example_index"].tolist()):
            self.null_score[ex] = min(self.null_score[ex], float(null[r]))
            if best_score[r] > self.best_score[ex]:
                self.best_score[ex] = best_score[r]
                self.best_span[ex] = (char_start[r], char_end[r])

    def finish(self) -> list[dict[str, Any]]:
        out = []
        for i, context in enumerate(self.contexts):
            s, e = (int(x) for x in self.best_span[i])
            has_span = np.isfinite(self.best_score[i])
            if not has_span or (self.null_answers and self.null_score[i] - self.best_score[i] > self.null_threshold):
                null = float(self.null_score[i]) if np.isfinite(self.null_score[i]) else 0.0
                out.append({"answer": "", "start": -1, "score": null})
            else:
                s, e = whole_words(context, s, e)
                out.append({"answer": context[s:e], "start": s, "score": float(self.best_score[i])})
        return out


def _attached(ch: str) -> bool:
    """A combining mark (an NFD accent, a Hindi vowel sign) or a zero-width (non-)joiner: part of the
    character before it. Uncased tokenizers strip marks, so a piece's offsets can end just before one."""
    return unicodedata.category(ch)[0] == "M" or ch in "\u200c\u200d"


def _in_word(ch: str) -> bool:
    """A letter, digit or attached mark of a space-separated word (CJK, kana and Thai characters
    stand alone, as BERT's basic tokenizer splits them)."""
    return _attached(ch) or ch.isalnum() and not ("\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff"
                                                  or "\uf900" <= ch <= "\ufaff" or "\u0e00" <= ch <= "\u0e7f")


def _joined(before: str, after: str) -> bool:
    """Whether a span may not end or start between these two: inside one word, or between a
    character and a mark or joiner attached to it (a Thai vowel sign stays with its letter)."""
    return _attached(after) or before in "\u200c\u200d" or _in_word(before) and _in_word(after)


def _invisible(ch: str) -> bool:
    """Whitespace or a format character (zero-width space, joiners, BOM, soft hyphen): BERT's basic
    tokenizer drops both, so an answer of them alone covers no token and trains as "no answer"."""
    return ch.isspace() or unicodedata.category(ch) == "Cf"


def _tag(ch: str) -> bool:
    """A tag character of an emoji tag sequence (the flags of England, Scotland, Wales)."""
    return "\U000e0020" <= ch <= "\U000e007f"


def visible_span(context: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) trimmed of whitespace and format characters at both ends; empty (start == end)
    when nothing visible is left. The tag characters ending an emoji flag are format characters but
    part of the flag, so they stay after a visible character."""
    selected_end = end
    while start < end and _invisible(context[start]):
        start += 1
    while end > start and _invisible(context[end - 1]):
        end -= 1
    tail = end
    while start < end and tail < selected_end and _tag(context[tail]):
        tail += 1
        if context[tail - 1] == "\U000e007f":  # the cancel tag closes the flag
            end = tail
    return start, end


def whole_words(context: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) trimmed of whitespace at its ends (DeBERTa-v3's Metaspace pieces start at the
    space before the word), and widened to whole words where it cuts one: the best span is found over
    word pieces, so a model could answer "Fran" of "France"; BERT's reference SQuAD code maps
    its pieces back to whole words of the context the same way."""
    while start < end and context[start].isspace():  # a Metaspace piece's offsets hold the space before it
        start += 1
    while end > start and context[end - 1].isspace():
        end -= 1
    if start >= end:
        return start, end
    while 0 < start < len(context) and _joined(context[start - 1], context[start]):
        start -= 1
    while 0 < end < len(context) and _joined(context[end - 1], context[end]):
        end += 1
    return start, end
