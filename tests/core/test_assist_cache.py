"""The embedding cache: computed once per text, kept on disk without pickle, rebuilt when damaged."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

from bertstudio.assist.cache import EmbeddingCache, WordEmbeddingCache
from bertstudio.assist.encoder import Cancelled, SentenceEncoder

TEXTS = ["the movie was good", "a bad film", "the movie was good", "paris is a city", "i love the book"]


@pytest.fixture(scope="module")
def encoder(tiny):
    return SentenceEncoder.from_path(tiny)


def test_vectors_are_sentence_transformers_mean_pooling_normalised(encoder, tiny):
    from sentence_transformers import SentenceTransformer

    ours = encoder.encode(TEXTS)
    theirs = SentenceTransformer(tiny, device="cpu").encode(TEXTS, normalize_embeddings=True)
    np.testing.assert_allclose(ours, theirs, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_each_distinct_text_is_encoded_once_then_served_from_disk(encoder, tmp_path):
    cache = EmbeddingCache(tmp_path, encoder)
    first = cache.embed(TEXTS)
    assert cache.computed == 4  # the repeated text once
    assert cache.path.is_file() and cache.path.name == f"embeddings-{encoder.fingerprint}.safetensors"
    again = EmbeddingCache(tmp_path, encoder)  # a new session reads the file
    second = again.embed(list(reversed(TEXTS)))
    assert again.computed == 0 and again.hits == len(TEXTS)
    np.testing.assert_array_equal(second, first[::-1])
    more = again.embed(TEXTS + ["a new text"])
    assert again.computed == 1
    np.testing.assert_array_equal(more[:5], first)


def _corrupt_one_vector_byte(path):
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF  # inside the last tensor's bytes: the header still parses
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["flipped byte", "garbage", "truncated", "empty"])
def test_a_damaged_cache_file_is_rebuilt_not_trusted(encoder, tmp_path, damage):
    cache = EmbeddingCache(tmp_path, encoder)
    good = cache.embed(TEXTS)
    path = cache.path
    if damage == "flipped byte":
        _corrupt_one_vector_byte(path)
    elif damage == "garbage":
        path.write_bytes(b"\x80\x04K\x01." * 100)  # pickle opcodes, for good measure
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    else:
        path.write_bytes(b"")
    rebuilt = EmbeddingCache(tmp_path, encoder)
    assert rebuilt.messages and "damaged cache ignored" in rebuilt.messages[0]
    vectors = rebuilt.embed(TEXTS)
    assert rebuilt.computed == 4  # nothing was taken from the damaged file
    np.testing.assert_allclose(vectors, good, atol=1e-6)
    assert not EmbeddingCache(tmp_path, encoder).messages  # the file was replaced by a good one


def test_reading_the_cache_never_unpickles(encoder, tmp_path, monkeypatch):
    EmbeddingCache(tmp_path, encoder).embed(TEXTS)

    def refuse(*args, **kwargs):
        raise AssertionError("pickle used")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    cache = EmbeddingCache(tmp_path, encoder)
    cache.embed(TEXTS)
    assert cache.computed == 0 and not cache.messages


def test_another_model_never_reads_this_models_vectors(encoder, tmp_path, tiny):
    EmbeddingCache(tmp_path, encoder).embed(TEXTS)
    other = SentenceEncoder(encoder.model, encoder.tokenizer, fingerprint="0123456789abcdef")
    cache = EmbeddingCache(tmp_path, other)
    cache.embed(TEXTS[:2])
    assert cache.computed == 2 and cache.path.name == "embeddings-0123456789abcdef.safetensors"


def test_cancel_keeps_what_was_computed(encoder, tmp_path):
    texts = [f"the movie {i} was good" for i in range(40)]
    cancel = threading.Event()
    cache = EmbeddingCache(tmp_path, encoder)
    cache.slice_size = 8  # five slices of eight texts

    def progress(done: int, total: int) -> None:
        if done >= 16:
            cancel.set()

    with pytest.raises(Cancelled):
        cache.embed(texts, progress=progress, cancel=cancel)
    assert len(EmbeddingCache(tmp_path, encoder)) == 16  # two whole slices were saved on the way out
    again = EmbeddingCache(tmp_path, encoder)
    again.embed(texts)
    assert again.computed == 24


def test_word_vectors_round_trip_per_token_list(encoder, tmp_path):
    sentences = [["the", "movie", "was", "good"], ["paris"], ["the", "movie", "was", "good"], []]
    cache = WordEmbeddingCache(tmp_path, encoder)
    first = cache.embed(sentences)
    assert [len(x) for x in first] == [4, 1, 4, 0] and cache.computed == 3
    direct = encoder.encode_words(sentences[:1])[0]
    np.testing.assert_allclose(first[0], direct, atol=2e-3)  # stored as float16
    again = WordEmbeddingCache(tmp_path, encoder)
    second = again.embed(sentences)
    assert again.computed == 0
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_words_past_the_encoders_max_length_get_vectors_from_windows(tiny):
    """A sentence longer than the encoder reads was cut: its tail got zero vectors (and the
    assistant's tagging models nothing to go on). Read in windows, every word has a vector, and
    a sentence that fits reads as before."""
    from bertstudio.assist.pool import token_model_probs
    from bertstudio.tasks.model import build_model

    short = SentenceEncoder.from_path(tiny)
    short.max_length = 12
    long_sentence = ["the", "movie", "was", "good", "in", "paris"] * 10
    vectors = short.encode_words([long_sentence, ["a", "bad", "film"]])
    assert vectors[0].shape[0] == 60 and np.all(np.linalg.norm(vectors[0], axis=1) > 0)
    whole = SentenceEncoder.from_path(tiny).encode_words([["a", "bad", "film"]])[0]
    np.testing.assert_allclose(vectors[1], whole, atol=1e-5)

    model, tok = build_model("tagging", tiny, labels=["O", "B-LOC"])
    probs = token_model_probs(model, tok, [long_sentence, [], ["a", "bad", "film"]], max_length=12)
    assert probs[0].shape == (60, 2) and probs[1].shape == (0, 2)
    assert not np.any(np.all(np.isclose(probs[0], 0.5), axis=1))  # every word read, none left uniform
    alone = token_model_probs(model, tok, [["a", "bad", "film"]], max_length=12)[0]
    np.testing.assert_allclose(probs[2], alone, atol=1e-5)  # a sentence that fits reads as before


@pytest.mark.parametrize("extra", ["junk tensor", "vectors of other rows"])
def test_a_cache_whose_header_names_more_than_it_holds_is_refused_before_reading(encoder, tmp_path, monkeypatch, extra):
    """A tampered cache with an extra 2.5 GB tensor (a sparse file) was read whole at Open before any
    check; the header says enough to refuse it unread."""
    from safetensors import safe_open
    from safetensors.numpy import save_file

    cache = EmbeddingCache(tmp_path, encoder)
    cache.embed(TEXTS)
    with safe_open(str(cache.path), framework="numpy") as f:
        meta, tensors = f.metadata(), {name: f.get_tensor(name) for name in f.keys()}
    if extra == "junk tensor":
        tensors["junk"] = np.zeros((1000, 100), dtype=np.float32)
    else:
        tensors["vectors"] = np.concatenate([tensors["vectors"]] * 3)
    save_file(tensors, str(cache.path), metadata=meta)
    read: list[str] = []
    import safetensors

    real_open = safetensors.safe_open

    class Watched:
        def __init__(self, *a, **kw):
            self.inner = real_open(*a, **kw)

        def __enter__(self):
            self.f = self.inner.__enter__()
            return self

        def __exit__(self, *a):
            return self.inner.__exit__(*a)

        def __getattr__(self, name):
            return getattr(self.f, name)

        def get_tensor(self, name):
            read.append(name)
            return self.f.get_tensor(name)

    monkeypatch.setattr(safetensors, "safe_open", Watched)
    rebuilt = EmbeddingCache(tmp_path, encoder)
    assert rebuilt.messages and "damaged cache ignored" in rebuilt.messages[0]
    assert "junk" not in read and "vectors" not in read
