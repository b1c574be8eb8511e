"""How a metric reads: x100 for scores, as it is for errors, never at an end of the range it does not reach."""

from __future__ import annotations


from bertstudio.metrics.display import format_change, format_fraction, format_spread, format_metric, format_metrics, format_percent, format_share


def test_a_score_short_of_perfect_never_reads_100():
    # QNLI dev (5463 pairs) with one error is 99.98% right, not "100.0"
    assert format_metric("accuracy", 5462 / 5463) == "99.98"
    assert format_metric("accuracy", 5462 / 5463, digits=2) == "99.98"
    assert format_metric("f1", 0.9996) == "99.96" and format_metric("accuracy", 0.99951) == "99.95"
    assert format_metric("accuracy", 1 - 1e-9) == "99.9999"  # past three more decimals: one step short
    assert format_metric("accuracy", 1.0) == "100.0" and format_metric("accuracy", 0.0) == "0.0"
    assert format_metric("accuracy", 0.0004) == "0.04"  # nor a score above 0 as 0
    assert format_metric("mcc", -0.99999) == "-99.999"
    assert format_metric("accuracy", 0.875) == "87.5" and format_metric("accuracy", 0.99949) == "99.9"


def test_a_value_that_rounds_to_zero_reads_without_a_sign():
    assert format_metric("mcc", -0.0004) == "0.0" and format_metric("mcc", 0.0004) == "0.0"  # 0 is no end for MCC
    assert format_metric("pearson", -0.0004, digits=2) == "-0.04"  # shown to the digit: the sign stays
    assert format_metric("loss", -0.00001) == "0.0000"
    assert format_metric("mse", 11.3727) == "11.3727"
    assert format_metrics({"accuracy": 5462 / 5463, "mcc": -0.0004}) == "accuracy 99.98, mcc 0.0"


def test_a_share_reads_as_a_percentage_never_100_unless_it_is():
    assert format_share(249 / 250) == "99.6%" and format_share(399 / 400) == "99.8%"
    assert format_share(1.0) == "100%" and format_share(0.0) == "0%" and format_share(0.81) == "81%"
    assert format_share(1 / 301) == "0.3%"
    assert format_percent(249 / 250) == "99.6" and format_percent(0.0004, digits=1) == "0.04"
    for n in range(1, 400):  # every audit of n labels: only all-right reads 100%, only all-wrong 0%
        for k in (0, 1, n - 1, n):
            text = format_share(k / n)
            assert (text == "100%") == (k == n) and (text == "0%") == (k == 0)
            assert abs(float(text[:-1]) - 100 * k / n) <= 0.5


def test_a_probability_short_of_certain_never_reads_1():
    # a mean probability of 0.9996 is not certainty: "1.00" read as if it were
    assert format_fraction(0.9996) == "0.9996" and format_fraction(0.99951) == "0.9995"
    assert format_fraction(0.0004) == "0.0004" and format_fraction(0.87) == "0.87"
    assert format_fraction(1.0) == "1.00" and format_fraction(0.0) == "0.00"
    assert format_fraction(0.99996, digits=4) == "0.99996"


def test_a_change_is_signed_and_never_minus_zero():
    assert format_change("accuracy", 0.013) == "+1.3" and format_change("accuracy", -0.013) == "-1.3"
    assert format_change("accuracy", -0.0004) == "+0.0" and format_change("accuracy", 0.0004) == "+0.0"
    assert format_change("mcc", 0.99996) == "+100.0"  # a change has no end to stay off: -1 to 1 moves 200 points
    assert format_change("mse", -0.00001) == "+0.0000" and format_change("mse", 0.25) == "+0.2500"


def test_a_spread_has_no_range_ends_to_stay_off():
    """A sd over seeds went through the score rule: 1e-5 read "0.0010" (kept off an end a spread does
    not have); now points x100 as they round, and 4 decimals for an error."""
    assert format_spread("accuracy", 1e-5) == "0.0" and format_spread("accuracy", 0.0123, 2) == "1.23"
    assert format_spread("mse", 0.01234) == "0.0123"
