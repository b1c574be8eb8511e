"""SQuAD JSON (v1.1 and v2.0) to and from QA ExampleSets.

Layout: ``{"version", "data": [{"title", "paragraphs": [{"context", "qas": [
{"id", "question", "answers": [{"text", "answer_start"}], "is_impossible"?}]}]}]}``.
Unanswerable questions (v2 ``is_impossible`` or an empty answer list) get
empty answer lists; a question without an ``answers`` key is unlabelled (None), unless
it says ``"is_impossible": true``.
Every answer must sit in its context at ``answer_start``: a shifted offset
would silently train the model on the wrong span.
"""

from __future__ import annotations

import json
import os
from typing import Any

from bertstudio.data.examples import ExampleSet
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.formats.common import check_length, check_no_nul, decode, parse_json, read_bytes, refuse_nul, to_example_set
from bertstudio.errors import ConfigError, DataError


def _need(obj: Any, key: str, typ: type | tuple[type, ...], path: Any, where: str, what: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise DataError(f"missing {key!r}", path=path, where=where, expected=what)
    val = obj[key]
    if not isinstance(val, typ) or isinstance(val, bool):
        raise DataError(f"{key!r} has the wrong type ({type(val).__name__})", path=path, where=where, expected=what)
    return val


def check_answers(answers: Any, context: str, path: Any, where: str) -> tuple[list[str], list[int]]:
    """Validate answers against their context; accepts SQuAD's list of dicts or the columnar dict."""
    if isinstance(answers, dict):
        texts, starts = answers.get("text"), answers.get("answer_start")
        if not isinstance(texts, list) or not isinstance(starts, list) or len(texts) != len(starts):
            raise DataError("answers must hold equally long 'text' and 'answer_start' lists", path=path, where=where)
        answers = [{"text": t, "answer_start": s} for t, s in zip(texts, starts)]
    if not isinstance(answers, list):
        raise DataError("'answers' is not a list", path=path, where=where, expected="a list of {text, answer_start}")
    out_t: list[str] = []
    out_s: list[int] = []
    for k, ans in enumerate(answers):
        w = f"{where}, answer {k + 1}"
        text = _need(ans, "text", str, path, w, "answer text as a string")
        start = _need(ans, "answer_start", int, path, w, "answer_start as an integer")
        if text == "":
            raise DataError("empty answer text", path=path, where=w, expected="a non-empty span of the context")
        if start < 0 or start + len(text) > len(context):
            raise DataError(f"answer outside the context (start {start}, length {len(text)}, context {len(context)} chars)",
                            path=path, where=w, expected="a span inside the context")
        if context[start:start + len(text)] != text:
            raise DataError(f"answer text {text[:40]!r} is not at answer_start {start} (found {context[start:start + len(text)][:40]!r})",
                            path=path, where=w, expected="context[answer_start:answer_start+len(text)] == text")
        out_t.append(text)
        out_s.append(start)
    return out_t, out_s


def read_squad(path: str | os.PathLike[str], *, require_labels: bool = False) -> ExampleSet:
    text = decode(read_bytes(path), path)
    refuse_nul(text, path)
    doc = parse_json(text, path)
    if isinstance(doc, list):  # [{"text": ..., "label": ...}, ...]: examples, but in no format bertstudio reads
        raise DataError("a JSON list, not a SQuAD file", path=path, where="top level",
                        expected="SQuAD's {\"data\": [articles]}; for a list of examples, JSON Lines: one object per "
                                 "line, in a .jsonl file")
    data = _need(doc, "data", list, path, "top level", "a 'data' list of articles")
    cols: dict[str, list[Any]] = {c: [] for c in ("id", "title", "context", "question", "answers")}
    seen: dict[str, str] = {}
    impossible = False
    for a, art in enumerate(data):
        aw = f"article {a}"
        title = art.get("title", "") if isinstance(art, dict) else ""
        if not isinstance(title, str):
            raise DataError("'title' is not a string", path=path, where=aw)
        paras = _need(art, "paragraphs", list, path, aw, "a 'paragraphs' list")
        for p, para in enumerate(paras):
            pw = f"{aw}, paragraph {p}"
            context = _need(para, "context", str, path, pw, "a 'context' string")
            if not context.strip():
                raise DataError("empty context", path=path, where=pw, expected="a non-empty context")
            check_length(context, "context", path, pw)
            for q, qa in enumerate(_need(para, "qas", list, path, pw, "a 'qas' list")):
                qid = _need(qa, "id", (str, int), path, f"{pw}, question {q}", "a question 'id'")
                qid = str(qid)
                qw = f"article {a}, question {qid!r}"
                if qid in seen:
                    raise DataError(f"duplicate question id {qid!r} (first seen at {seen[qid]})", path=path, where=qw,
                                    expected="unique ids")
                seen[qid] = qw
                question = _need(qa, "question", str, path, qw, "a 'question' string")
                if not question.strip():
                    raise DataError("empty question", path=path, where=qw, expected="a non-empty question")
                check_length(question, "question", path, qw)
                is_imp = qa.get("is_impossible", False)
                if not isinstance(is_imp, bool):
                    raise DataError("'is_impossible' is not true/false", path=path, where=qw)
                if "answers" not in qa and is_imp:  # the label is there: no answer
                    impossible, answers = True, {"text": [], "answer_start": []}
                elif "answers" not in qa:
                    if require_labels:
                        raise DataError("question has no answers", path=path, where=qw, expected="an 'answers' list")
                    answers = None
                else:
                    texts, starts = check_answers(qa["answers"], context, path, qw)
                    if is_imp and texts:  # its answers were dropped without a word: which is meant?
                        raise DataError(f"'is_impossible' is true but the question has {len(texts)} "
                                        f"answer{'s' if len(texts) != 1 else ''}", path=path, where=qw,
                                        expected="an empty 'answers' list for an unanswerable question (SQuAD 2.0 "
                                                 "keeps guesses in 'plausible_answers'), or 'is_impossible': false")
                    impossible = impossible or not texts
                    answers = {"text": texts, "answer_start": starts}
                cols["id"].append(qid)
                cols["title"].append(title)
                cols["context"].append(context)
                cols["question"].append(question)
                cols["answers"].append(answers)
    if not cols["id"]:
        raise DataError("no questions found", path=path, expected="articles with paragraphs and qas")
    version = doc.get("version") if isinstance(doc, dict) else None
    meta = {"format": "squad", "version": version if isinstance(version, str) else ("v2.0" if impossible else "1.1")}
    return to_example_set("qa", cols, [], str(path), meta)


def squad_document(examples: ExampleSet) -> dict[str, Any]:
    """Group rows back into articles (by title) and paragraphs (by context), keeping row order."""
    articles: list[dict[str, Any]] = []
    by_title: dict[str, dict[str, Any]] = {}
    v2 = False
    for batch in examples.dataset.with_format("arrow").iter(batch_size=10_000):
        for row in batch.to_pylist():
            art = by_title.get(row["title"])
            if art is None or art is not articles[-1]:
                art = {"title": row["title"], "paragraphs": []}
                articles.append(art)
                by_title[row["title"]] = art
            paras = art["paragraphs"]
            if not paras or paras[-1]["context"] != row["context"]:
                paras.append({"context": row["context"], "qas": []})
            qa: dict[str, Any] = {"id": row["id"], "question": row["question"]}
            ans = row["answers"]
            if ans is not None:
                qa["answers"] = [{"text": t, "answer_start": s} for t, s in zip(ans["text"], ans["answer_start"])]
                if not ans["text"]:
                    qa["is_impossible"] = True
                    v2 = True
            paras[-1]["qas"].append(qa)
    return {"version": "v2.0" if v2 else "1.1", "data": articles}


def write_squad(examples: ExampleSet, path: str | os.PathLike[str]) -> None:
    if examples.spec.save_format != "squad":  # the SQuAD layout holds the qa columns only
        raise ConfigError(f"cannot write {examples.kind} examples as SQuAD JSON", path=path, expected="a qa set")
    text = json.dumps(squad_document(examples), ensure_ascii=False)
    check_no_nul(text, "a text", "a question, context, title or answer", path, json_text=True)  # written as \u0000, read by none
    atomic_write_bytes(path, text.encode("utf-8"), parents=True)
