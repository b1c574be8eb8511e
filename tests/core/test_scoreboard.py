"""The GLUE scoreboard against published averages (BERT Table 1) and hand arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bertstudio.errors import ConfigError
from bertstudio.metrics import glue_score, main_metric

# What BERT Table 1 reports per task (its caption; CoLA's number is the MCC the GLUE server prints).
BERT_PAPER_METRIC = {"QQP": "f1", "MRPC": "f1", "STS-B": "spearman", "CoLA": "mcc"}


def _cases(shared_data: Path) -> list[dict]:
    return json.loads((shared_data / "reference" / "glue_scoreboard_cases.json").read_text(encoding="utf-8"))["cases"]


def _as_results(case: dict) -> dict[str, dict[str, float]]:
    results = {}
    for task, pct in case["scores"].items():
        if case["convention"] == "bert_paper":
            metric = BERT_PAPER_METRIC.get(task, "accuracy")
        else:  # one given metric per task: the task's main metric
            metric = main_metric(task)
        results[task] = {metric: pct / 100}
    return results


def test_every_reference_case(shared_data: Path) -> None:
    cases = _cases(shared_data)
    assert len(cases) == 3
    for case in cases:
        board = glue_score(_as_results(case), case["convention"])
        assert not board.partial, case["name"]
        assert board.n_missing == 0
        assert len(board.present) == len(case["scores"])
        assert 100 * board.average == pytest.approx(case["average"], abs=0.05), case["name"]
        # bare numbers (a task's score) give the same board
        bare = glue_score({t: v / 100 for t, v in case["scores"].items()}, case["convention"])
        assert bare.average == pytest.approx(board.average)


def test_bert_table_1_averages(shared_data: Path) -> None:
    by_name = {c["name"]: c for c in _cases(shared_data)}
    base = glue_score(_as_results(by_name["BERT-base, BERT paper Table 1"]), "bert_paper")
    large = glue_score(_as_results(by_name["BERT-large, BERT paper Table 1"]), "bert_paper")
    # base: 716.4 / 9 = 79.6; large: 738.7 / 9 = 82.08
    assert round(100 * base.average, 1) == 79.6
    assert round(100 * large.average, 1) == 82.1
    assert "79.6" in base.format_table() and "82.1" in large.format_table()


def test_lecture_exercise_prints_0_8413(shared_data: Path) -> None:
    case = next(c for c in _cases(shared_data) if c["convention"] == "one_metric_per_task")
    board = glue_score(_as_results(case), "one_metric_per_task")
    assert round(board.average, 4) == 0.8413  # 673.0 / 8 = 84.125 %


# Hand-made full GLUE result set with both metrics where the task has two.
FULL = {
    "CoLA": {"mcc": 0.50},
    "SST-2": {"accuracy": 0.90},
    "MRPC": {"f1": 0.80, "accuracy": 0.70},  # task score 0.75
    "STS-B": {"pearson": 0.86, "spearman": 0.84},  # 0.85
    "QQP": {"f1": 0.70, "accuracy": 0.90},  # 0.80
    "MNLI-m": {"accuracy": 0.84},
    "MNLI-mm": {"accuracy": 0.82},  # MNLI 0.83
    "QNLI": {"accuracy": 0.90},
    "RTE": {"accuracy": 0.66},
    "WNLI": {"accuracy": 0.56},
}


def test_glue_rule_means_two_metrics_and_leaves_out_wnli() -> None:
    board = glue_score(FULL, "glue")
    scores = {r.name: r.score for r in board.rows()}
    assert scores["MRPC"] == pytest.approx(0.75)
    assert scores["STS-B"] == pytest.approx(0.85)
    assert scores["MNLI"] == pytest.approx(0.83)
    # .50 + .90 + .75 + .85 + .80 + .83 + .90 + .66 = 6.19 over 8 tasks
    assert board.average == pytest.approx(6.19 / 8)
    assert not board.partial
    wnli = next(r for r in board.rows() if r.name == "WNLI")
    assert not wnli.counted and wnli.score == pytest.approx(0.56)
    # the public leaderboard counts WNLI: (6.19 + .56) / 9 = 0.75
    assert glue_score(FULL, "glue", include_wnli=True).average == pytest.approx(0.75)


def test_bert_paper_convention_on_full_results() -> None:
    board = glue_score(FULL, "bert_paper")
    # MNLI-m .84, MNLI-mm .82, QQP f1 .70, QNLI .90, SST-2 .90, CoLA .50, STS-B spearman .84,
    # MRPC f1 .80, RTE .66 -> 6.96 / 9
    assert board.average == pytest.approx(6.96 / 9)
    assert [r.name for r in board.entries] == ["MNLI-m", "MNLI-mm", "QQP", "QNLI", "SST-2", "CoLA", "STS-B", "MRPC", "RTE"]


def test_missing_tasks_are_missing_not_zero() -> None:
    results = {k: v for k, v in FULL.items() if k not in ("QQP", "RTE")}
    board = glue_score(results, "glue")
    # present: .50 + .90 + .75 + .85 + .83 + .90 = 4.73 over 6 (a zero for each would give 4.73 / 8)
    assert board.average == pytest.approx(4.73 / 6)
    assert board.missing == ["QQP", "RTE"] and board.n_missing == 2 and board.partial
    rte = next(r for r in board.rows() if r.name == "RTE")
    assert rte.missing and rte.score is None
    table = board.format_table()
    assert "RTE" in table and "missing" in table and "partial" in table and "2 missing" in table


def test_half_reported_task_is_flagged_partial() -> None:
    results = dict(FULL)
    del results["MNLI-mm"]
    board = glue_score(results, "glue")
    mnli = next(r for r in board.rows() if r.name == "MNLI")
    assert mnli.score == pytest.approx(0.84) and mnli.partial
    assert board.n_missing == 0 and board.partial


def test_empty_and_unknown() -> None:
    board = glue_score({}, "bert_paper")
    assert board.average is None and board.n_missing == 9 and board.partial
    assert "—" in board.format_table()
    with pytest.raises(ConfigError, match="convention"):
        glue_score(FULL, "superglue")
    with pytest.raises(ConfigError, match="unknown GLUE task"):
        glue_score({"BoolQ": 0.8}, "glue")


def test_a_score_just_below_1_never_prints_100() -> None:
    # QNLI dev with one error in 5,463 is 99.98, not "100.0"; the average over entries likewise
    board = glue_score({"QNLI": {"accuracy": 5462 / 5463}, "SST-2": {"accuracy": 0.9996},
                        "CoLA": {"mcc": -0.0004}}, "glue")
    table = board.format_table()
    assert "99.98" in table and "99.96" in table and "100.0" not in table and "-0.0" not in table
    qnli = next(r for r in board.rows() if r.name == "QNLI")
    assert qnli.score_text() == "99.98" and qnli.parts_text() == "QNLI accuracy 99.98"
    cola = next(r for r in board.rows() if r.name == "CoLA")
    assert cola.score_text() == "0.0"  # MCC can be negative: 0 is no end of its range, so no extra digit
    solo = glue_score({"QNLI": {"accuracy": 0.99999}}, "glue")
    assert solo.average_text() == "99.999" and glue_score({}, "glue").average_text() == "—"


def test_a_score_that_is_not_a_finite_number_is_missing_not_a_nan_average() -> None:
    """A diverged run's (or a damaged metrics.json's) NaN made the average "nan"."""
    board = glue_score({"SST-2": {"accuracy": float("nan")}, "RTE": {"accuracy": 0.5}, "QNLI": float("inf")})
    rows = {r.name: r for r in board.rows()}
    assert rows["SST-2"].missing and rows["QNLI"].missing and not rows["RTE"].missing
    assert board.average == 0.5 and "SST-2" in board.missing and "nan" not in board.format_table().lower()


@pytest.mark.parametrize("value, counted", [(0.5, 0.5), (1, 1.0), (float("nan"), None), (float("-inf"), None),
                                            (True, None), (10 ** 400, None), ("0.5", None), (None, None)])
def test_what_is_no_score_has_one_rule(value, counted) -> None:
    """The scoreboard and `bertstudio glue`'s scoreboard.json filter each wrote "a non-finite score is
    no score" (cli used math.isfinite, which raises on a 400-digit whole number); both read score_number."""
    from bertstudio.metrics.scoreboard import score_number

    assert score_number(value) == counted
    board = glue_score({"RTE": {"accuracy": value}, "MRPC": {"accuracy": 0.25, "f1": 0.75}})
    assert (board.average == (counted + 0.5) / 2) if counted is not None else ("RTE" in board.missing)
