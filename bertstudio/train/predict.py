"""Predictions from a saved model, one input at a time (the playground, ``bertstudio predict``).

The predictor goes through the same task code as training and evaluation
(encode -> collate -> model -> accumulator), so a prediction here is exactly
what evaluation would have produced for that example.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError
from bertstudio.tasks.base import model_inputs

# what each kind needs from predict()'s keyword arguments
_FIELDS = {
    "sentence": ("text",),
    "pair": ("text", "text_pair"),
    "regression": ("text",),
    "tagging": ("tokens",),
    "qa": ("question", "context"),
}


class Predictor:
    def __init__(self, model: torch.nn.Module, tokenizer: Any, kind: str, labels: list[str], *, device: str = "cpu",
                 max_length: int = 512, doc_stride: int = 128) -> None:
        from bertstudio.tasks import get_task

        self.model = model.to(device).eval()
        self.tokenizer = tokenizer
        self.kind = kind
        self.labels = list(labels)
        self.task = get_task(kind)
        self.device = device
        limit = getattr(getattr(model, "config", None), "max_position_embeddings", max_length) or max_length
        self.max_length = min(max_length, limit)
        self.doc_stride = min(doc_stride, self.max_length // 2)

    @classmethod
    def load(cls, model_dir: str | Path, *, device: str = "auto") -> "Predictor":
        from bertstudio.tasks.model import load_model
        from bertstudio.train.hardware import resolve

        model, tokenizer, kind, labels = load_model(model_dir)
        dev, _ = resolve(device, "fp32")
        return cls(model, tokenizer, kind, labels, device=dev)

    def predict(self, text: str | None = None, text_pair: str | None = None, tokens: list[str] | None = None,
                question: str | None = None, context: str | None = None) -> dict[str, Any]:
        """The prediction for one input, as a dict shaped like the task accumulator's
        (label/probs/confidence, score, tags/entities, answer/start/score); tagging adds
        ``probs``: one {tag: probability} per word."""
        given = {"text": text, "text_pair": text_pair, "tokens": tokens, "question": question, "context": context}
        missing = [f for f in _FIELDS[self.kind] if not given[f]]
        if missing:
            raise ConfigError(f"a {self.kind} model needs {' and '.join(missing)} to predict", where="input",
                              expected=", ".join(_FIELDS[self.kind]))
        record = {k: v for k, v in given.items() if v is not None}
        if self.kind == "qa":
            record.update(id="0", title="")
        examples = from_records(self.kind, [record], labels=self.labels)
        enc = self.task.encode(examples, self.tokenizer, max_length=self.max_length, label2id={}, doc_stride=self.doc_stride, training=False)
        acc = self.task.accumulator(examples, enc, self.labels)
        batch = self.task.collate([enc[i] for i in range(len(enc))], self.tokenizer.pad_token_id or 0)
        batch = {k: v.to(self.device) for k, v in batch.items()}
        with torch.inference_mode():
            outputs = self.model(**model_inputs(batch))
        acc.add(batch, outputs)
        result = acc.finish()[0]
        result.pop("loss", None)
        if self.kind == "tagging":
            result["probs"] = _word_probs(outputs.logits[0], batch["word_index"][0], self.labels, len(tokens or []))
        return result


def _word_probs(logits: torch.Tensor, word_index: torch.Tensor, labels: list[str], n_words: int) -> list[dict[str, float]]:
    """Tag probabilities at each word's first sub-token ({} for a word cut off by max_length)."""
    probs = torch.softmax(logits.float(), dim=-1).cpu()
    out: list[dict[str, float]] = [{} for _ in range(n_words)]
    for pos, w in enumerate(word_index.tolist()):
        if 0 <= w < n_words:
            out[w] = {name: float(p) for name, p in zip(labels, probs[pos])}
    return out
