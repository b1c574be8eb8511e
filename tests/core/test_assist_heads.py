"""The fast heads, the zero-shot classifier, pair features and the audit statistics."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import softmax

from bertstudio.assist.audit import audit_stats, random_order_curve, strong_is_worse, wilson_interval
from bertstudio.assist.fast import self_train
from bertstudio.assist.heads import LinearHead, fit_logistic, fit_with_prior
from bertstudio.train.probe import FitStopped
from bertstudio.assist.zeroshot import ZeroShot, build_zero_shot, label_prompts
from bertstudio.tasks.embedding import pair_features


def unit(a: np.ndarray) -> np.ndarray:
    return a / np.linalg.norm(a, axis=-1, keepdims=True)


def toy(n: int = 400, seed: int = 0):
    """Two classes on the unit circle of a 2-D plane (embedded in 8-D), split by angle 0:
    class 1 above the x axis, class 0 below. The zero-shot prototypes are rotated by 40
    degrees, so label names alone get part of it wrong."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(-np.pi / 2, np.pi / 2, n)
    y = (angle > 0).astype(int)
    X = np.zeros((n, 8))
    X[:, 0], X[:, 1] = np.cos(angle), np.sin(angle)
    X[:, 2:] = rng.normal(0, 0.05, (n, 6))
    X = unit(X)
    tilt = np.deg2rad(40)
    protos = np.zeros((2, 8))
    protos[1, :2] = [np.sin(tilt), np.cos(tilt)]
    protos[0, :2] = [-np.sin(tilt), -np.cos(tilt)]
    zs = ZeroShot(unit(protos).astype(np.float32), np.zeros(2, np.float32), 0.05)
    return X, y, zs


def accuracy(head: LinearHead, X: np.ndarray, y: np.ndarray) -> float:
    return float((head.predict_proba(X).argmax(1) == y).mean())


def test_pair_features_are_u_v_absdiff_product():
    u, v = np.array([[1.0, -2.0]]), np.array([[3.0, 0.5]])
    np.testing.assert_array_equal(pair_features(u, v), [[1.0, -2.0, 3.0, 0.5, 2.0, 2.5, 3.0, -1.0]])


def test_with_no_labels_the_head_is_the_zero_shot_classifier():
    X, y, zs = toy()
    head = fit_with_prior(X[:0], y[:0], zs.head())
    np.testing.assert_allclose(head.predict_proba(X), softmax((X @ zs.prototypes.T - zs.centre) / 0.05, axis=1),
                               rtol=1e-5)


def test_the_fast_head_beats_or_matches_zero_shot_on_a_separable_set():
    X, y, zs = toy()
    zero_shot = accuracy(zs.head(), X[200:], y[200:])
    assert zero_shot < 0.9  # the tilted prototypes get some rows wrong
    for n in (2, 8, 32, 128):
        head = fit_with_prior(X[:n], y[:n], zs.head(), l2=3.0)
        assert accuracy(head, X[200:], y[200:]) >= zero_shot, n
    assert accuracy(fit_with_prior(X[:128], y[:128], zs.head(), l2=3.0), X[200:], y[200:]) > zero_shot + 0.05


def test_self_training_on_the_pool_improves_on_zero_shot():
    X, y, zs = toy()
    start = accuracy(zs.head(), X, y)
    prior = self_train(X, zs.head())
    assert accuracy(prior, X, y) >= start


def test_self_training_on_a_huge_pool_fits_a_bounded_number_of_rows(monkeypatch):
    """40% of a 1.2M-row pool was a logistic regression on 480,000 rows nothing could cancel."""
    import sklearn.linear_model

    from bertstudio.assist import fast

    X, _y, zs = toy()
    fitted = []
    real = sklearn.linear_model.LogisticRegression.fit
    monkeypatch.setattr(sklearn.linear_model.LogisticRegression, "fit",
                        lambda self, Xs, ys, **kw: fitted.append(len(Xs)) or real(self, Xs, ys, **kw))
    monkeypatch.setattr(fast, "SELF_TRAIN_MAX", 40)
    self_train(X, zs.head())
    assert fitted and max(fitted) <= 40 < 0.4 * len(X)


def test_fit_logistic_matches_scikit_learn_for_two_and_more_classes():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 5))
    for k in (2, 3):
        y = rng.integers(0, k, 60)
        ours = fit_logistic(X, y, k).predict_proba(X)
        theirs = LogisticRegression(C=1.0, max_iter=500).fit(X, y).predict_proba(X)
        np.testing.assert_allclose(ours, theirs, atol=1e-5)
    one_class = fit_logistic(X, np.zeros(60, int), 2)
    assert one_class is None
    absent = fit_logistic(X, rng.integers(0, 2, 60) * 2, 3)  # class 1 has no label yet: never predicted
    assert (absent.predict_proba(X).argmax(1) != 1).all()


def test_fit_logistic_with_a_stop_check_fits_in_chunks_and_stops_when_asked():
    """A refit must end promptly once the assistant closes: with ``stop`` the fit is asked between
    chunks of iterations, and a True abandons it; never asked to stop, it gives scikit-learn's fit."""
    import warnings

    from sklearn.linear_model import LogisticRegression

    from bertstudio.train.probe import STOPPABLE_CHUNK

    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 40)) * np.logspace(-2, 2, 40)  # badly scaled: many L-BFGS iterations
    y = (X[:, [0, 20, 39]] @ rng.normal(size=(3, 4)) + rng.normal(size=(300, 4))).argmax(1)  # four classes
    theirs = LogisticRegression(C=1.0, max_iter=2000).fit(X, y)
    assert theirs.n_iter_[0] > 3 * STOPPABLE_CHUNK  # several chunks' worth of work
    asked = []

    def never() -> bool:
        asked.append(1)
        return False

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the chunks' ConvergenceWarnings are silenced, not shown
        ours = fit_logistic(X, y, 4, C=1.0, max_iter=2000, stop=never)
    assert len(asked) > 3  # asked between the chunks, not once
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-2)
    after_two = iter([False, False, True])
    asked.clear()
    with pytest.raises(FitStopped):  # not None: that says "fewer than two classes"
        fit_logistic(X, y, 4, C=1.0, max_iter=2000, stop=lambda: asked.append(1) or next(after_two))
    assert len(asked) == 3  # two chunks fitted, then it stopped


def test_label_prompts_use_descriptions_and_tolerate_templates_without_a_slot():
    prompts = label_prompts(["0", "1"], {"1": "positive"}, ("a {} review", "about"))
    assert prompts == [["a 0 review", "about 0"], ["a positive review", "about positive"]]


def test_build_zero_shot_centres_on_the_pool():
    vectors = {"a": [1.0, 0.0], "b": [0.0, 1.0]}
    pool = unit(np.array([[1.0, 0.2], [0.9, 0.1], [0.2, 1.0]]))
    zs = build_zero_shot(["a", "b"], lambda texts: np.array([vectors[t] for t in texts]), pool, templates=("{}",))
    np.testing.assert_allclose(zs.prototypes, [[1, 0], [0, 1]])
    np.testing.assert_allclose(zs.centre, (pool @ zs.prototypes.T).mean(0), rtol=1e-6)


def test_wilson_interval_hand_computed():
    # 8 of 10: centre (0.8 + z^2/20) / (1 + z^2/10), half-width z sqrt(0.016 + z^2/400) / (1 + z^2/10)
    low, high = wilson_interval(8, 10)
    assert (low, high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    stats = audit_stats(np.array([1, 1, 0, 1]), source="fast", labels=36)
    assert (stats.n, stats.correct, stats.accuracy) == (4, 3, 0.75)
    assert stats.text() == f"audit 75% ({stats.low:.0%}-{stats.high:.0%}, n=4)"
    assert audit_stats(np.zeros(0)).text() == "audit: no audit labels yet"
    # 249 of 250 right read "audit 100% (98%-100%, n=250)": Wilson's 97.8% to 99.9%
    assert audit_stats(np.array([1] * 249 + [0])).text() == "audit 99.6% (98%-99.9%, n=250)"


def test_a_tagging_audit_counts_sentences_not_words_as_its_checks():
    """One audit sentence of eight words read "25% (7%-59%), 8 audit labels": eight independent checks."""
    from bertstudio.assist.audit import sentence_audit_stats

    one = sentence_audit_stats([np.array([1, 1, 0, 0, 0, 0, 0, 0], bool)], source="fast")
    assert (one.n, one.words, one.correct, one.accuracy) == (1, 8, 2, 0.25)
    words_as_checks = audit_stats(np.array([1, 1, 0, 0, 0, 0, 0, 0]))
    assert one.high - one.low > 0.8 > words_as_checks.high - words_as_checks.low  # as wide as one check
    assert (one.low, one.high) == pytest.approx(_wilson_float(0.25, 1.0), abs=1e-9)
    # sentences that each go all right or all wrong are as many checks as sentences, however long
    clustered = sentence_audit_stats([np.ones(20, bool), np.zeros(20, bool), np.ones(20, bool), np.zeros(20, bool)])
    assert clustered.accuracy == 0.5 and (clustered.low, clustered.high) == pytest.approx(wilson_interval(2, 4), abs=1e-9)
    # words that err independently of their sentence count as words
    rng = np.random.default_rng(0)
    spread = [rng.random(25) < 0.8 for _ in range(40)]
    loose = sentence_audit_stats(spread)
    k = int(sum(r.sum() for r in spread))
    assert loose.high - loose.low < 1.6 * (wilson_interval(k, 1000)[1] - wilson_interval(k, 1000)[0])
    assert loose.high - loose.low < 0.5 * (wilson_interval(int(round(40 * k / 1000)), 40)[1]
                                           - wilson_interval(int(round(40 * k / 1000)), 40)[0])
    assert sentence_audit_stats([]).accuracy is None
    # a labelled sentence without words is no check; two sentences cannot say how sentences differ
    with_empty = sentence_audit_stats([np.array([1, 1, 0, 0, 0, 0, 0, 0], bool), np.zeros(0, bool)])
    assert with_empty.n == 1 and (with_empty.low, with_empty.high) == (one.low, one.high)
    two = sentence_audit_stats([np.array([1, 1, 0, 0, 0, 0, 0, 0], bool), np.array([1], bool)])
    assert (two.low, two.high) == pytest.approx(_wilson_float(3 / 9, 2.0), abs=1e-9)


def _wilson_float(p: float, n: float) -> tuple[float, float]:
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def test_random_order_curve_trains_on_k_audit_rows_and_scores_the_rest():
    gold = np.array([0, 1] * 10)
    seen = []

    def fit_predict(train_idx, test_idx):
        seen.append((len(train_idx), len(test_idx)))
        assert not set(train_idx) & set(test_idx)
        return gold[test_idx] if len(train_idx) >= 10 else 1 - gold[test_idx]

    curve = random_order_curve(fit_predict, gold, [5, 10, 16, 18], draws=3)
    assert curve == [(5, 0.0), (10, 1.0)]  # 16 and 18 would leave fewer than 5 rows to score
    assert seen[0] == (5, 15)


def test_the_strong_model_is_shown_unless_the_audit_set_shows_it_worse():
    def pairs(b: int, c: int, both: int = 3):
        fast = np.array([True] * b + [False] * c + [True] * both)
        strong = np.array([False] * b + [True] * c + [True] * both)
        return fast, strong

    # one-sided exact test on the discordant rows: P(X >= b | b + c, 1/2)
    assert strong_is_worse(*pairs(5, 0))  # 1/32 = 0.031
    assert not strong_is_worse(*pairs(4, 0))  # 1/16 = 0.0625
    assert not strong_is_worse(*pairs(6, 1))  # 8/128 = 0.0625
    assert strong_is_worse(*pairs(7, 1))  # 9/256 = 0.035
    assert not strong_is_worse(*pairs(3, 3)) and not strong_is_worse(*pairs(0, 5))


def test_the_fast_score_head_of_unit_vector_pairs_starts_from_their_cosine():
    """The assistant's fast model for scored pairs: a plain ridge over the siamese features of 30
    pairs misses the cosine the scores follow; the pair head finds it (and a single-text set, or
    vectors that are not unit length, keep the ridge)."""
    from bertstudio.assist import fast as F

    rng = np.random.default_rng(1)
    dim, n = 64, 200
    u = rng.normal(size=(n, dim))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    v = u + rng.normal(scale=rng.uniform(0.2, 2.0, size=(n, 1)), size=(n, dim))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    y = 5 * (u * v).sum(1) + rng.normal(scale=0.1, size=n)
    X = pair_features(u, v)
    rows = list(range(30))
    rest = np.arange(30, n)
    paired = F.regression_scores(X, y[rows], rows, pairs=True)
    plain = F.regression_scores(X, y[rows], rows)
    r_pair = np.corrcoef(paired.probs[rest, 0], y[rest])[0, 1]
    r_plain = np.corrcoef(plain.probs[rest, 0], y[rest])[0, 1]
    assert r_pair > 0.95 and r_pair > r_plain + 0.05
    # two labelled pairs whose cosines are close: a least-squares line through both put the other
    # pairs at 68 and -104 on a 0-5 scale; the shrunk scale keeps them near the labels
    close = np.argsort(np.abs((u * v).sum(1) - 0.5))[:2]
    first = F.regression_scores(X, np.array([1.0, 4.0]), list(close), pairs=True)
    assert np.all((first.probs > -1.0) & (first.probs < 6.0))
    scaled = F.regression_scores(X * 2, y[rows], rows, pairs=True)  # not unit vectors: the ridge
    assert np.allclose(scaled.probs, F.regression_scores(X * 2, y[rows], rows).probs)


def test_a_perfect_tagging_audit_is_never_less_sure_than_one_with_an_error():
    """60 words in 6 sentences all right read "61%-100%" (the sentences as the checks), one word wrong
    "91%-99.7%": the first error raised the lower bound. No variation between sentences is the limit
    of vanishing variation, where the effective size is the words."""
    from bertstudio.assist.audit import sentence_audit_stats

    for sentences in (6, 30):
        right = [np.ones(10, bool) for _ in range(sentences)]
        one_wrong = [r.copy() for r in right]
        one_wrong[0][3] = False
        perfect, worse = sentence_audit_stats(right), sentence_audit_stats(one_wrong)
        assert perfect.accuracy == 1.0 > worse.accuracy
        assert perfect.low >= worse.low and perfect.high >= worse.high
        words = 10 * sentences
        assert (perfect.low, perfect.high) == pytest.approx(wilson_interval(words, words), abs=1e-9)
        # all wrong mirrors it: one word right cannot lower the upper bound
        wrong, one_right = sentence_audit_stats([~r for r in right]), sentence_audit_stats([~r for r in one_wrong])
        assert wrong.high <= one_right.high and wrong.low <= one_right.low
    # sentences right in exactly the same share differ no more than perfect ones: words too
    even = sentence_audit_stats([np.array([1] * 8 + [0] * 2, bool) for _ in range(6)])
    assert (even.low, even.high) == pytest.approx(wilson_interval(48, 60), abs=1e-9)


def test_a_perfect_tagging_audit_reaches_100_percent_at_its_top():
    """Wilson's upper bound at p = 1 is 1 exactly; in floats it came out 0.99999999999, shown "99%"."""
    from bertstudio.assist.audit import sentence_audit_stats

    perfect = sentence_audit_stats([np.ones(10, bool)] * 6)
    assert perfect.high == 1.0 and perfect.text().endswith("-100%, n=6)")
    assert sentence_audit_stats([np.zeros(10, bool)] * 6).low == 0.0
