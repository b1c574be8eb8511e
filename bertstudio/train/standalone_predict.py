"""Predict with a model exported by bertstudio, needing only onnxruntime, tokenizers and numpy.

    pip install onnxruntime tokenizers numpy
    python predict.py --text "a gripping, funny film"                 # sentence, regression
    python predict.py --text "A man sleeps." --text-pair "A person rests."   # pair
    python predict.py --tokens "EU rejects German call"                # tagging (words)
    python predict.py --question "Who wrote it?" --context "..."         # question answering
    python predict.py --jsonl inputs.jsonl                           # one JSON object per line
    python predict.py --model model.int8.onnx --text "..."           # the quantized model

Prints one JSON object per input, shaped like ``bertstudio predict``'s output. The folder
holds ``model.onnx`` (and ``model.int8.onnx``), ``tokenizer.json`` and ``labels.json``
(the task kind, label names and the settings encoding used).

This file is written into every ONNX export by bertstudio (bertstudio/train/standalone_predict.py)
and must import nothing but the standard library, numpy, onnxruntime and tokenizers. It
restates bertstudio's encoding and decoding (sentence pairs cut longest side first; a tag
per word read at its first sub-token; QA over overlapping context windows with the best
start/end pair of at most ``max_answer_length`` tokens); bertstudio's tests check that its
outputs match ``bertstudio predict`` on the same inputs.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

_PREFIXED = re.compile(r"^([BIES])-(.+)$")


def entity_spans(tags: list[str]) -> list[list[Any]]:
    """[[type, start_word, end_word_exclusive], ...] from BIO/IOB1/BIOES tags; tags without a
    B-/I-/E-/S- prefix (POS tags) are never entities; a stray I- starts one."""
    spans: list[list[Any]] = []
    current: list[Any] | None = None
    for i, tag in enumerate(tags):
        m = _PREFIXED.match(tag)
        if m is None:
            current = None
            continue
        prefix, kind = m.groups()
        if prefix in ("B", "S") or current is None or current[0] != kind:
            current = [kind, i, i + 1]
            spans.append(current)
        else:
            current[2] = i + 1
        if prefix in ("E", "S"):
            current = None
    return spans


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class BadExport(Exception):
    """A damaged export: one line, exit 2."""


def _check_meta(meta: Any, where: Path) -> dict[str, Any]:
    """labels.json as export-onnx writes it, or BadExport naming what is wrong."""
    def bad(problem: str) -> BadExport:
        return BadExport(f"{where}: {problem}")

    if not isinstance(meta, dict):
        raise bad("not a JSON object")
    labels = meta.get("labels")
    if not isinstance(labels, list) or not all(isinstance(x, str) and x.strip() for x in labels) \
            or len(set(labels)) != len(labels):
        raise bad("'labels' is not a list of distinct label names")
    if meta.get("decode") not in ("classes", "score", "tags", "span"):
        raise bad(f"'decode' is {meta.get('decode')!r} (expected classes, score, tags or span)")
    for key, low, high in (("max_length", 8, 1 << 16), ("pad_token_id", 0, 1 << 31)):
        value = meta.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise bad(f"'{key}' is {value!r} (expected a whole number from {low} to {high})")
    for key in ("inputs", "optional_inputs"):
        if not isinstance(meta.get(key, []), list) or not set(meta.get(key, [])) <= set(INPUT_FIELDS):
            raise bad(f"'{key}' names inputs other than {', '.join(INPUT_FIELDS)}")
    return meta


INPUT_FIELDS = ("text", "text_pair", "tokens", "question", "context")
MODEL_INPUTS = ("input_ids", "token_type_ids", "attention_mask")


class Predictor:
    def __init__(self, folder: str | Path, model: str | Path | None = None, threads: int = 0) -> None:
        folder = Path(folder)
        try:
            meta = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            raise BadExport(f"{folder / 'labels.json'}: cannot be read ({exc})") from None
        self.meta = _check_meta(meta, folder / "labels.json")
        self.labels: list[str] = list(self.meta["labels"])
        self.decode = self.meta["decode"]
        self.max_length = int(self.meta["max_length"])
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as exc:  # noqa: BLE001 - the tokenizers library raises its own kinds
            raise BadExport(f"{folder / 'tokenizer.json'}: cannot be read ({exc})") from None
        self.tokenizer.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        path = Path(model) if model else folder / "model.onnx"
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own kinds
            raise BadExport(f"{path}: not a model ONNX Runtime can load ({str(exc)[:200]})") from None
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.outputs = [o.name for o in self.session.get_outputs()]
        if not set(self.inputs) <= set(MODEL_INPUTS):
            raise BadExport(f"{path}: the model takes inputs other than {', '.join(MODEL_INPUTS)}")
        shapes = {o.name: o.shape for o in self.session.get_outputs()}
        width = (shapes.get("logits") or [None])[-1]
        if self.decode in ("classes", "tags") and isinstance(width, int) and width != len(self.labels):
            raise BadExport(f"{folder / 'labels.json'}: {len(self.labels)} labels for a model with {width} outputs")
        rank = {"classes": 2, "score": 2, "tags": 3}.get(self.decode)
        if rank and len(shapes.get("logits") or ()) != rank:
            raise BadExport(f"{folder / 'labels.json'}: 'decode' is {self.decode!r}, which this model's outputs do not fit")

    # --- running the model -------------------------------------------------------------
    def _run(self, encodings: list[Any]) -> dict[str, np.ndarray]:
        width = max(len(e.ids) for e in encodings)
        pad = int(self.meta["pad_token_id"])
        columns = {"input_ids": ("ids", pad), "token_type_ids": ("type_ids", 0), "attention_mask": ("attention_mask", 0)}
        feed = {}
        for name in self.inputs:
            field, fill = columns[name]
            rows = np.full((len(encodings), width), fill, dtype=np.int64)
            for i, e in enumerate(encodings):
                values = getattr(e, field)
                rows[i, : len(values)] = values
            feed[name] = rows
        return dict(zip(self.outputs, self.session.run(self.outputs, feed)))

    def _truncate(self, strategy: str, stride: int = 0) -> None:
        self.tokenizer.enable_truncation(self.max_length, stride=stride, strategy=strategy)

    # --- one input ---------------------------------------------------------------------
    def predict(self, text: str | None = None, text_pair: str | None = None, tokens: list[str] | None = None,
                question: str | None = None, context: str | None = None) -> dict[str, Any]:
        given = {"text": text, "text_pair": text_pair, "tokens": tokens, "question": question, "context": context}
        missing = [f for f in self.meta["inputs"] if not given[f]]
        if missing:
            raise SystemExit(f"predict.py: a {self.meta['kind']} model needs {' and '.join(missing)}")
        if self.decode == "span":
            return self._answer(str(question), str(context))
        if self.decode == "tags":
            return self._tags(list(tokens or []))
        self._truncate("longest_first")
        pair = text_pair if text_pair and "text_pair" in self.meta["inputs"] + self.meta["optional_inputs"] else None
        logits = self._run([self.tokenizer.encode(str(text), pair)])["logits"][0].astype(np.float64)
        if self.decode == "score":
            return {"score": float(logits[0])}
        probs = _softmax(logits)
        best = int(np.argmax(probs))
        return {"label": self.labels[best], "probs": {n: float(p) for n, p in zip(self.labels, probs)},
                "confidence": float(probs[best])}

    def _tags(self, words: list[str]) -> dict[str, Any]:
        self._truncate("longest_first")
        enc = self.tokenizer.encode(words, is_pretokenized=True)
        logits = self._run([enc])["logits"][0].astype(np.float64)
        probs, best = _softmax(logits), logits.argmax(axis=-1)
        ids = np.full(len(words), -1, dtype=np.int64)
        word_probs: list[dict[str, float]] = [{} for _ in words]
        previous = None
        for pos, w in enumerate(enc.word_ids):
            if w is not None and w != previous and w < len(words):  # the word's first sub-token
                ids[w] = best[pos]
                word_probs[w] = {n: float(p) for n, p in zip(self.labels, probs[pos])}
            previous = w
        tags = [self.labels[i] if i >= 0 else "O" for i in ids]  # words past max_length: "O"
        return {"tags": tags, "entities": entity_spans(tags), "unpredicted_words": int((ids < 0).sum()),
                "probs": word_probs}

    def _windows(self, question: str, context: str) -> list[Any]:
        """The question (cut to its token budget at a character boundary) with the context
        in overlapping windows: the encoding and its overflowing windows, in that order."""
        max_query = min(64, max(1, (self.max_length - 3) // 2))
        stride = max(0, min(int(self.meta["doc_stride"]), (self.max_length - max_query - 3) // 2))
        question = question.lstrip()
        self.tokenizer.no_truncation()
        offsets = self.tokenizer.encode(question, add_special_tokens=False).offsets
        if len(offsets) > max_query:
            question = question[: offsets[max_query - 1][1]]
        self._truncate("only_second", stride)
        enc = self.tokenizer.encode(question, context)
        return [enc] + list(enc.overflowing)

    def _answer(self, question: str, context: str) -> dict[str, Any]:
        windows = self._windows(question, context)
        out = self._run(windows)
        n_best, longest = int(self.meta["n_best"]), int(self.meta["max_answer_length"])
        best_score, best_span, null_score = -np.inf, (-1, -1), np.inf
        for w, enc in enumerate(windows):
            start, end = out["start_logits"][w].astype(np.float32), out["end_logits"][w].astype(np.float32)
            n = len(enc.ids)
            in_ctx = np.array([s == 1 for s in enc.sequence_ids] + [False] * (len(start) - n))
            offsets = np.array(list(enc.offsets) + [(0, 0)] * (len(start) - n))
            null_score = min(null_score, float(start[0] + end[0]))  # [CLS]: "no answer in this window"
            low = np.finfo(np.float32).min
            k = min(n_best, len(start))
            s_idx = np.argsort(-np.where(in_ctx, start, low), kind="stable")[:k]
            e_idx = np.argsort(-np.where(in_ctx, end, low), kind="stable")[:k]
            score = start[s_idx][:, None] + end[e_idx][None, :]
            span = e_idx[None, :] - s_idx[:, None]
            ok = (span >= 0) & (span < longest) & in_ctx[s_idx][:, None] & in_ctx[e_idx][None, :]
            score = np.where(ok, score, -np.inf)
            i, j = np.unravel_index(int(np.argmax(score)), score.shape)
            if score[i, j] > best_score:
                best_score = float(score[i, j])
                best_span = (int(offsets[s_idx[i]][0]), int(offsets[e_idx[j]][1]))
        if not np.isfinite(best_score):
            return {"answer": "", "start": -1, "score": null_score if np.isfinite(null_score) else 0.0}
        s, e = best_span
        return {"answer": context[s:e], "start": s, "score": best_score}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Predict with a bertstudio ONNX export.")
    p.add_argument("--model", help="the .onnx file (default: model.onnx beside this script)")
    p.add_argument("--text")
    p.add_argument("--text-pair")
    p.add_argument("--tokens", help="space-separated words (tagging)")
    p.add_argument("--question")
    p.add_argument("--context")
    p.add_argument("--jsonl", help="a file with one JSON object of inputs per line (text, text_pair, tokens, ...)")
    p.add_argument("--threads", type=int, default=0, help="ONNX Runtime threads (0: its default)")
    args = p.parse_args(argv)
    folder = Path(args.model).resolve().parent if args.model else Path(__file__).resolve().parent
    try:
        predictor = Predictor(folder, args.model, threads=args.threads)
    except BadExport as exc:
        print(f"predict.py: error: {exc}", file=sys.stderr)
        return 2
    if args.jsonl:
        with open(args.jsonl, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    print(json.dumps(predictor.predict(**json.loads(line)), ensure_ascii=False))
        return 0
    given = {k: getattr(args, k) for k in ("text", "text_pair", "question", "context") if getattr(args, k) is not None}
    if args.tokens is not None:
        given["tokens"] = args.tokens.split()
    print(json.dumps(predictor.predict(**given), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
