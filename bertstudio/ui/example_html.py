"""How the Results page draws one evaluated example with its gold and predicted values.

- plain tag sets (POS): every word with its tag; a word tagged wrongly is shaded red
  and shows the predicted tag beside the gold one (neighbouring words with one tag stay
  separate words: they are not a span);
- BIO tag sets (NER, chunks): the entity spans, gold on one line and predicted on the next;
- QA: the context with the gold and predicted answers shaded;
- labels and scores: the texts, gold and predicted value, and the class probabilities.

Whether a tag set is BIO is ``kinds.is_bio_tag_set``'s rule; spans are read by
``tasks.tagging.entity_spans`` (seqeval's reader would cut "PRON" into an entity "RON").
Strings are translated in the "ResultsPage" context, where they have always been.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

from PySide6.QtCore import QCoreApplication

from bertstudio.data.kinds import get_spec, is_bio_tag_set
from bertstudio.metrics.display import format_share
from bertstudio.metrics.tagging import scored_tags
from bertstudio.tasks.tagging import entity_spans
from bertstudio.ui.results_filter import _shown_tag
from bertstudio.ui.theme import tone

GOLD_BG, PRED_BG, WRONG_BG = "#c8e6c9", "#ffe0b2", "#ffcdd2"  # green = gold, orange = predicted, red = wrong
# Text on those pale shades is black in every theme (a dark theme's white text read at 1.0-1.4:1 on them);
# a word both gold and predicted is dark orange and underlined (5.4:1 on GOLD_BG; #e65100 read at 2.8:1).
ON_SHADE, BOTH_FG = "#000000", "#9c3400"
_esc = html.escape


def shaded(inner: str, background: str, colour: str = ON_SHADE, extra: str = "") -> str:
    """``inner`` (HTML) on a pale ``background``, in text that reads on it whatever the palette."""
    return f'<span style="background:{background}; color:{colour}{extra}">{inner}</span>'


def _tr(text: str) -> str:
    # no context: lupdate files a module-level _tr("...") there (scripts/update_translations.py)
    return QCoreApplication.translate("", text)


def mark_runs(text: str, gold: list[tuple[int, int]], pred: list[tuple[int, int]]) -> str:
    """HTML of ``text`` with char ranges [s, e) shaded: gold green, predicted orange, both underlined."""
    flags = [0] * len(text)
    for bit, ranges in ((1, gold), (2, pred)):
        for s, e in ranges:
            for i in range(max(s, 0), min(e, len(text))):
                flags[i] |= bit
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and flags[j] == flags[i]:
            j += 1
        chunk = _esc(text[i:j])
        f = flags[i]
        if f == 1:
            chunk = shaded(chunk, GOLD_BG)
        elif f == 2:
            chunk = shaded(chunk, PRED_BG)
        elif f == 3:
            chunk = shaded(chunk, GOLD_BG, BOTH_FG, "; text-decoration: underline")
        out.append(chunk)
        i = j
    return "".join(out)


def _legend(text: str) -> str:
    return f"<p><i>{_esc(text)}</i></p>"


def spans_html(tokens: Sequence[str], tags: Sequence[str] | None, background: str) -> str:
    """The words with each entity span bracketed and typed: ``[New York]<sub>LOC</sub>``."""
    starts = {s: (t, e) for t, s, e in entity_spans(list(tags or []))}
    out, i = [], 0
    while i < len(tokens):
        if i in starts:
            typ, end = starts[i]
            words = _esc(" ".join(tokens[i:end]))
            out.append(shaded(f"[{words}]<sub>{_esc(typ)}</sub>", background))
            i = max(end, i + 1)
        else:
            out.append(_esc(tokens[i]))
            i += 1
    return " ".join(out)


def tokens_html(tokens: Sequence[str], gold: Sequence[str] | None, pred: Sequence[str] | None) -> str:
    """Every word with its tag; a wrong word shaded red with ``predicted / gold`` under it. A word
    the model did not read (null) is scored as the metrics and the Wrong tags column score it
    (metrics.tagging.scored_tags) and shown as they show it ("∅"): it read green with the gold tag."""
    out = []
    scored = scored_tags(pred) if pred is not None else None
    for i, word in enumerate(tokens):
        g = gold[i] if gold is not None and i < len(gold) else None
        p = pred[i] if pred is not None and i < len(pred) else None
        if g is not None and scored is not None and i < len(scored) and g != scored[i]:
            out.append(shaded(f"{_esc(word)}<sub><b>{_esc(_shown_tag(p))}</b> / {_esc(g)}</sub>", WRONG_BG))
        else:
            tag = g if g is not None else p
            out.append(_esc(word) + (f'<sub style="color:{tone("good")}">{_esc(tag)}</sub>' if tag is not None else ""))
    return " ".join(out)


def tags_html(tokens: Sequence[str], gold: Sequence[str] | None, pred: Sequence[str] | None,
              labels: Sequence[str]) -> str:
    if not is_bio_tag_set(list(labels) or list(gold or []) + list(pred or [])):  # the run's tag set decides
        return (f"<p>{tokens_html(tokens, gold, pred)}</p>"
                + _legend(_tr("each word with its tag; red = predicted wrong, shown as predicted / gold")))
    lines = ((_tr("Gold:"), gold, GOLD_BG), (_tr("Predicted:"), pred, PRED_BG))
    return "<br>".join(f"<b>{_esc(title)}</b> " + spans_html(tokens, tags, bg) for title, tags, bg in lines) \
        + _legend(_tr("green = gold, orange = predicted"))


def answers_html(example: dict[str, Any], gold: Any, pred: dict[str, Any]) -> str:
    context = str(example.get("context") or "")
    gold = gold or {}
    gold_ranges = [(s, s + len(t)) for t, s in zip(gold.get("text") or [], gold.get("answer_start") or [])]
    start, answer = int(pred.get("start", -1)), pred.get("answer") or ""
    pred_ranges = [(start, start + len(answer))] if start >= 0 and answer else []
    question = _tr("Question:")  # outside the f-string, where lupdate can see it
    return (f"<p><b>{_esc(question)}</b> {_esc(example.get('question') or '')}</p>"
            f"<p>{mark_runs(context, gold_ranges, pred_ranges)}</p>" + _legend(_tr("green = gold, orange = predicted")))


def _isolated(name: str) -> str:
    """A label name escaped and isolated from the text around it: a Hebrew name read "2.6% :שלילי"."""
    return "\u2068" + _esc(name) + "\u2069"


def values_html(kind: str, example: dict[str, Any], gold: Any, predicted: Any, pred: dict[str, Any]) -> str:
    spec = get_spec(kind)
    parts = [f"<p>{_esc(str(example.get(c) or ''))}</p>" for c in spec.text_columns if example.get(c)]
    parts.append(f"<p><b>{_esc(_tr('Gold:'))}</b> {_isolated(spec.gold.short_text(gold))} &nbsp; "
                 f"<b>{_esc(_tr('Predicted:'))}</b> {_isolated(spec.gold.short_text(predicted))}</p>")
    probs = pred.get("probs") or {}
    if probs:
        parts.append("<br>".join(f"{_isolated(str(k))}: {format_share(v, 1)}"
                                 for k, v in sorted(probs.items(), key=lambda kv: -kv[1])))
    return "".join(parts)
