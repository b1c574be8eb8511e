"""Tagging suggestions on a BIO label set are valid BIO (the sweep's D2: each word's own argmax
suggested ``an/O investment/I-ENT``; Enter stored it, and the export read it back as B-ENT)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bertstudio.assist import AssistSettings, LabellingAssistant
from bertstudio.assist.fast import Scores
from bertstudio.assist.kinds import word_tags
from bertstudio.data.examples import from_records
from bertstudio.data.formats.common import first_bio_error
from bertstudio.data.project import Project

BIO = ["O", "B-ENT", "I-ENT", "B-NUM", "I-NUM"]


def probs_for(tags: list[str], labels: list[str], sure: float = 0.6) -> np.ndarray:
    """Per-word probabilities whose argmax is ``tags``; the rest spread evenly."""
    p = np.full((len(tags), len(labels)), (1 - sure) / (len(labels) - 1), dtype=np.float32)
    for w, tag in enumerate(tags):
        p[w, labels.index(tag)] = sure
    return p


def test_word_tags_is_the_most_probable_valid_bio_sequence():
    """Checked against every sequence of up to five words, with the project's BIO checker (not the
    decoder's own rule) saying which are valid."""
    rng = np.random.default_rng(0)
    for n in range(1, 6):
        sequences = [s for s in itertools.product(range(len(BIO)), repeat=n)
                     if first_bio_error([BIO[i] for i in s]) is None]
        for _ in range(20):
            p = rng.dirichlet(np.full(len(BIO), 0.3), size=n)
            got = word_tags(BIO, p)
            assert first_bio_error([BIO[i] for i in got]) is None
            best = max(np.prod(p[np.arange(n), list(s)]) for s in sequences)
            assert np.prod(p[np.arange(n), got]) == pytest.approx(best, rel=1e-9)


def test_a_type_with_i_tags_only_can_still_be_suggested():
    """IOB1 tags kept as imported ("I-PER" and no "B-PER"): its spans start with I-PER, so the
    decode must not forbid them (it turned a sure PER pair into O O)."""
    labels = ["O", "I-PER", "B-LOC", "I-LOC"]
    p = probs_for(["I-PER", "I-PER", "O", "B-LOC", "I-LOC"], labels, sure=0.9)
    assert [labels[i] for i in word_tags(labels, p)] == ["I-PER", "I-PER", "O", "B-LOC", "I-LOC"]
    p = probs_for(["O", "I-LOC", "O"], labels, sure=0.5)  # LOC has its B-: still constrained
    assert labels[word_tags(labels, p)[1]] != "I-LOC"


def test_word_tags_keeps_a_valid_argmax_and_plain_tags():
    valid = probs_for(["B-ENT", "I-ENT", "O", "B-NUM"], BIO)
    assert [BIO[i] for i in word_tags(BIO, valid)] == ["B-ENT", "I-ENT", "O", "B-NUM"]
    pos = ["DET", "NOUN", "VERB"]  # a plain tag set: each word's argmax, whatever follows what
    assert list(word_tags(pos, probs_for(["VERB", "DET", "DET"], pos))) == [2, 0, 0]
    assert len(word_tags(BIO, np.zeros((0, len(BIO))))) == 0


@pytest.fixture
def bio_assistant(tmp_path):
    rows = [{"tokens": ["an", "investment", "firm"], "tags": None},
            {"tokens": ["Al", "-", "Zaman"], "tags": None},
            {"tokens": ["in", "1999", "Paris"], "tags": None}]
    project = Project.create(tmp_path / "p", name="t", kind="tagging", labels=BIO)
    project.import_examples(from_records("tagging", rows, labels=BIO), "train")
    a = LabellingAssistant(project, settings=AssistSettings(strong_every=0), start=False)  # no thread, no model
    yield a
    a.close()
    project.close()


def test_a_suggestion_on_a_bio_label_set_is_valid_bio(bio_assistant):
    a = bio_assistant
    argmax = [["O", "I-ENT", "O"],  # a stray I- after O: the sweep's "an/O investment/I-ENT firm/O"
              ["B-ENT", "O", "I-ENT"],  # "Al/B-ENT -/O Zaman/I-ENT"
              ["O", "B-NUM", "I-ENT"]]  # an I- after another type
    word_probs = [probs_for(t, BIO) for t in argmax]
    word_probs[0][1, BIO.index("B-ENT")] = 0.3  # the best valid reading of "investment" is B-ENT ...
    word_probs[0][1, BIO.index("O")] = 0.05  # ... not O
    a._fast = Scores("fast", None, np.zeros(3, np.float32), (), word_probs=word_probs)
    suggested = [a.suggestion("train", r) for r in range(3)]
    for s, probs in zip(suggested, word_probs):
        assert first_bio_error(s.value) is None
        # the confidence said per word is the probability of the tag suggested, not of the argmax
        assert s.word_confidence == pytest.approx([float(probs[w, BIO.index(t)]) for w, t in enumerate(s.value)])
    assert suggested[0].value == ["O", "B-ENT", "O"]
    # what the project stores from it is what it shows
    a.project.set_gold("train", 0, suggested[0].value)
    assert a.project.gold("train", 0) == ["O", "B-ENT", "O"]


def test_the_audit_checks_the_tags_suggested(bio_assistant):
    """The audit scores the sequence the person is shown: a gold B-ENT where the argmax said I-ENT
    is right once the suggestion reads it as B-ENT."""
    a = bio_assistant
    with a._lock:
        a._gold = {0: ["O", "B-ENT", "O"]}
        a._queue.audit_rows = {0}
    word_probs = [probs_for(["O", "I-ENT", "O"], BIO)] + [probs_for(["O"] * 3, BIO)] * 2
    word_probs[0][1, BIO.index("B-ENT")] = 0.3
    a._fast = Scores("fast", None, np.zeros(3, np.float32), (), word_probs=word_probs)
    a._update_audit()
    assert a.audit().accuracy == pytest.approx(1.0)
