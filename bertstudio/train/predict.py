"""Predictions from a saved model, one input at a time (the playground, ``bertstudio predict``).

The predictor goes through the same task code as training and evaluation
(encode -> collate -> model -> accumulator) with the same input lengths (the
max_length, doc_stride and max_answer_length the run trained with, which the model
folder keeps: :func:`run_lengths`), so a prediction here is exactly what
evaluation produced for that example, long inputs included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError
from bertstudio.tasks.base import model_inputs
from bertstudio.tasks.qa import null_answers_of
from bertstudio.tasks.limits import input_fields, one_input, qa_window_layout, saved_pairs
from bertstudio.train.evaluation import check_finite, fp32_heads

_LENGTHS = ("max_length", "doc_stride", "max_answer_length")
# Windows of one input per forward: a long QA context or tagged text is read a chunk at a time,
# so its length costs time, not memory (a 60,000-character context is 1,500 windows of 32 tokens).
CHUNK_ROWS = 64


def run_lengths(model: torch.nn.Module, model_dir: str | Path | None = None, *, max_length: int | None = None) -> dict[str, int]:
    """How the run that trained ``model`` cut its inputs: from the model's config.json; for a
    model saved before bertstudio kept them there, from the run's config.toml beside
    ``model/``, else TrainConfig's defaults. ``max_length`` overrides; never more than the
    model's position embeddings. A saved value no run could have used (a string, -5, more
    than the model's positions) is a ConfigError naming config.json and the key: evaluating
    with another cut than training's would give other scores without a word."""
    from bertstudio.tasks.model import saved_lengths
    from bertstudio.train.config import TrainConfig, check_setting

    found = saved_lengths(getattr(model, "config", None))
    limit = getattr(getattr(model, "config", None), "max_position_embeddings", None)
    source = Path(model_dir) / "config.json" if model_dir is not None else None
    for key, value in found.items():
        try:
            check_setting(key, value)
        except ConfigError as exc:
            raise ConfigError(exc.problem, path=source, where=f"bertstudio.{key}",
                              expected="the value the run was trained with") from None
    if isinstance(limit, int) and limit > 0 and found.get("max_length", 0) > limit:
        raise ConfigError(f"max_length {found['max_length']} is more than the model's {limit} positions",
                          path=source, where="bertstudio.max_length", expected=f"at most {limit}")
    if len(found) < len(_LENGTHS):
        from bertstudio.train.rundir import saved_config

        run = saved_config(Path(model_dir).parent) if model_dir is not None else None
        base = run or TrainConfig()
        found = {**{k: getattr(base, k) for k in _LENGTHS}, **found}
    if max_length is not None:
        found["max_length"] = max_length
    if isinstance(limit, int) and limit > 0:
        found["max_length"] = min(found["max_length"], limit)
    if found.get("doc_stride") is None:  # TrainConfig's default: the most QA windows of max_length take

        found["doc_stride"] = qa_window_layout(found["max_length"], None)[2]
    return found


class Predictor:
    def __init__(self, model: torch.nn.Module, tokenizer: Any, kind: str, labels: list[str], *, device: str = "cpu",
                 lengths: dict[str, int] | None = None) -> None:
        from bertstudio.tasks.model import task_for

        self.model = model.to(device).train(False)  # = eval(); an OnnxModel offers only train()
        self.tokenizer = tokenizer
        self.kind = kind
        self.labels = list(labels)
        self.task = task_for(model, kind)  # a siamese classifier encodes each side of a pair alone
        self.spec = self.task.spec
        self.device = device
        self.lengths = lengths or run_lengths(model)
        self.pairs = saved_pairs(getattr(model, "config", None))  # training rows with a second text: none/some/all

    @classmethod
    def load(cls, model_dir: str | Path, *, device: str = "auto", precision: str = "fp32") -> "Predictor":
        """The model at ``model_dir`` on ``device``, predicting exactly (fp32): one input costs
        little, and bf16 weights rounded a 0-100 rating to steps of 0.5 (96.5 where fp32 and the
        export's predict.py give 96.655). ``precision="auto"``: the precision training uses there
        (see train/evaluation.for_inference)."""
        from bertstudio.tasks.model import load_model
        from bertstudio.train.evaluation import for_inference

        model, tokenizer, kind, labels = load_model(model_dir)
        lengths = run_lengths(model, model_dir)
        model, dev, _ = for_inference(model, device, precision)
        return cls(model, tokenizer, kind, labels, device=dev, lengths=lengths)

    def predict(self, text: str | None = None, text_pair: str | None = None, tokens: list[str] | None = None,
                question: str | None = None, context: str | None = None) -> dict[str, Any]:
        """The prediction for one input, as a dict shaped like the task accumulator's
        (label/probs/confidence, score, tags/entities, answer/start/score); a per-token
        kind (tagging) adds ``probs``: one {tag: probability} per word, and a word that tokenises
        to nothing has the tag None and no probabilities (``unpredicted_words`` counts them)."""
        given = {"text": text, "text_pair": text_pair, "tokens": tokens, "question": question, "context": context}
        reads, needed = input_fields(self.spec, siamese=getattr(self.model, "siamese", False), pairs=self.pairs)
        unread = [f for f, v in given.items() if v is not None and f not in reads]
        if unread:  # predicted from the text alone, as if the pair or context had been read
            alone = " trained on single texts" if "text_pair" in unread and "text_pair" in self.spec.optional_inputs else ""
            raise ConfigError(f"a {self.kind} model{alone} does not read {' or '.join(unread)}", where="input",
                              expected="only " + ", ".join(reads))
        missing = [f for f in needed if not given.get(f) or (isinstance(given[f], str) and not given[f].strip())]
        if missing:
            pairs = " that reads sentence pairs" if set(missing) - set(self.spec.inputs) else ""
            raise ConfigError(f"a {self.kind} model{pairs} needs {' and '.join(missing)} to predict", where="input",
                              expected=", ".join(needed))
        record: dict[str, Any] = {k: v for k, v in given.items() if v is not None and k in self.spec.columns}
        for column, feature in self.spec.features.items():  # other text columns (a QA id) are left empty
            if column not in record and column != self.spec.gold_column and getattr(feature, "dtype", None) == "string":
                record[column] = ""
        examples = from_records(self.kind, [record], labels=self.labels)
        with one_input():  # its windows are run in chunks below, up to limits.MAX_WINDOWS_ONE_INPUT
            enc = self.task.encode(examples, self.tokenizer, max_length=self.lengths["max_length"], label2id={},
                                   doc_stride=self.lengths["doc_stride"], training=False)
        acc = self.task.accumulator(examples, enc, self.labels, max_answer_length=self.lengths["max_answer_length"],
                                    null_answers=null_answers_of(self.model))  # as evaluate answers
        rows = [enc[i] for i in range(len(enc))]
        word_probs: list[dict[str, float]] = [{} for _ in tokens or []]
        for first in range(0, len(rows), CHUNK_ROWS):
            batch = self.task.collate(rows[first:first + CHUNK_ROWS], self.tokenizer.pad_token_id or 0)
            batch = {k: v.to(self.device) for k, v in batch.items()}
            with torch.inference_mode(), fp32_heads(self.model):  # scores and probabilities in fp32 (bf16 weights)
                outputs = self.model(**model_inputs(batch))
            check_finite(outputs)
            acc.add(batch, outputs)
            if self.spec.gold.per_token:
                _add_word_probs(word_probs, outputs.logits, batch["word_index"], self.labels)
        result = acc.finish()[0]
        result.pop("loss", None)
        if self.spec.gold.per_token:
            result["probs"] = word_probs
            # a word that tokenises to nothing was not read: no tag (null), as the Playground marks it,
            # where the scorer's "O" read as the model's answer
            result["tags"] = [tag if probs else None for tag, probs in zip(result["tags"], word_probs)]
        cut = self._tokens_cut(record, enc)
        if cut is not None:  # a pasted review of 2,000 words was answered from its first 128 tokens, unsaid
            result["truncated"] = cut
        return result

    def _tokens_cut(self, record: dict[str, Any], enc: Any) -> dict[str, int] | None:
        """``{"read": max_length, "of": tokens}`` when the input was cut to the run's max length.
        Tagging and QA read long inputs in overlapping windows, so only texts (and pairs) are cut.
        The input is tokenised whole again only when its encoding filled the max length."""
        if self.spec.gold.per_token or "context" in self.spec.columns:
            return None
        limit = int(self.lengths["max_length"])
        ids = enc[0]["input_ids"]  # one row; a siamese pair's holds both sides
        read = max(len(side) for side in ids) if ids and isinstance(ids[0], list) else len(ids)
        if read < limit:
            return None
        texts = [t for t in (record.get("text"), record.get("text_pair")) if t]
        if getattr(self.model, "siamese", False):  # each side read on its own
            longest = max((len(self.tokenizer(t)["input_ids"]) for t in texts), default=0)
        else:
            longest = len(self.tokenizer(*texts[:2])["input_ids"]) if texts else 0
        return {"read": limit, "of": longest} if longest > limit else None


def _add_word_probs(out: list[dict[str, float]], logits: torch.Tensor, word_index: torch.Tensor,
                    labels: list[str]) -> None:
    """Into ``out`` (one dict per word): tag probabilities at the token that speaks for each word,
    over these windows (rows) of one sentence ({} stays for a word that tokenises to nothing)."""
    probs = torch.softmax(logits.float(), dim=-1).cpu()
    for row, words in enumerate(word_index.tolist()):
        for pos, w in enumerate(words):
            if 0 <= w < len(out):
                out[w] = {name: float(p) for name, p in zip(labels, probs[row, pos])}
