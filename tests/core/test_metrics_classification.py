"""Classification and regression metrics against hand-computed values."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import matthews_corrcoef

from bertstudio.errors import DataError
from bertstudio.metrics import classification_metrics, confusion, regression_metrics

# 10 examples: gold 1 x4, gold 0 x6.
#   gold: 1 1 1 1 0 0 0 0 0 0
#   pred: 1 1 1 0 1 1 0 0 0 0
# TP = 3, FN = 1, FP = 2, TN = 4
GOLD = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
PRED = [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]
ALL = ("accuracy", "f1", "macro_f1", "mcc")


def test_binary_metrics_by_hand() -> None:
    m = classification_metrics(GOLD, PRED, names=ALL)
    assert m["accuracy"] == pytest.approx(7 / 10)  # TP + TN = 7 of 10
    # F1(pos) = 2TP / (2TP + FP + FN) = 6 / 9
    assert m["f1"] == pytest.approx(2 / 3)
    # F1(neg) = 2TN / (2TN + FN + FP) = 8 / 11; macro = (6/9 + 8/11) / 2 = 23/33
    assert m["macro_f1"] == pytest.approx(23 / 33)
    # MCC = (TP*TN - FP*FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)) = (12 - 2) / sqrt(5*4*6*5)
    assert m["mcc"] == pytest.approx(10 / math.sqrt(600))


def test_mcc_formula_matches_sklearn_multiclass() -> None:
    # Gorodkin's R_K on a 3-class case (GLUE's R3 for the diagnostic set):
    # gold 0 0 1 1 2 2 / pred 0 1 1 1 2 0: correct c = 4, s = 6,
    # true counts t = (2, 2, 2), predicted counts p = (2, 3, 1).
    # R = (c*s - sum p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2))
    #   = (24 - 12) / sqrt((36 - 14)(36 - 12)) = 12 / sqrt(528)
    gold, pred = [0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0]
    by_hand = 12 / math.sqrt(528)
    assert classification_metrics(gold, pred, names=("mcc",))["mcc"] == pytest.approx(by_hand)
    assert matthews_corrcoef(gold, pred) == pytest.approx(by_hand)


@pytest.mark.parametrize("n_classes", [1, 2, 3, 5])
@pytest.mark.parametrize("seed", range(8))
def test_the_counts_give_what_scikit_learn_gives(n_classes: int, seed: int) -> None:
    # bertstudio computes the four scores from confusion counts (importing scikit-learn costs
    # ~1.7 s per run); they must be scikit-learn's, names or ids, classes missing or not
    from sklearn.metrics import accuracy_score, confusion_matrix, f1_score

    rng = np.random.default_rng(seed)
    labels = [f"c{i}" for i in range(max(n_classes, 2))]
    n = int(rng.integers(1, 40))
    gold = list(rng.choice(labels[:n_classes], n))
    pred = [g if rng.random() < 0.6 else str(rng.choice(labels)) for g in gold]
    names = ("accuracy", "f1", "macro_f1", "mcc") if len(labels) == 2 else ("accuracy", "macro_f1", "mcc")
    got = classification_metrics(gold, pred, names=names, labels=labels)
    assert got["accuracy"] == pytest.approx(accuracy_score(gold, pred))
    assert got["macro_f1"] == pytest.approx(f1_score(gold, pred, average="macro", zero_division=0))  # its default set
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns where MCC is undefined (0.0 both)
        assert got["mcc"] == pytest.approx(matthews_corrcoef(gold, pred))
    if "f1" in got:
        assert got["f1"] == pytest.approx(f1_score(gold, pred, pos_label=labels[1], average="binary", zero_division=0))
    assert (confusion(gold, pred, labels) == confusion_matrix(gold, pred, labels=labels)).all()


def test_positive_class_is_label_id_1() -> None:
    names = ["neg", "pos"]
    gold = [names[g] for g in GOLD]
    pred = [names[p] for p in PRED]
    assert classification_metrics(gold, pred, ("f1",), labels=["neg", "pos"])["f1"] == pytest.approx(2 / 3)
    # Reversing the label order makes "neg" id 1: F1 of the other class, 8/11.
    assert classification_metrics(gold, pred, ("f1",), labels=["pos", "neg"])["f1"] == pytest.approx(8 / 11)
    # GLUE's string ids "0"/"1" sort naturally without a label list.
    as_str = classification_metrics([str(g) for g in GOLD], [str(p) for p in PRED], ("f1",))
    assert as_str["f1"] == pytest.approx(2 / 3)


def test_macro_f1_leaves_out_a_class_with_no_gold_and_no_predicted_row() -> None:
    """4 held-out rows of a 20-class project, all right, scored macro_f1 0.20: the 16 classes the
    hold-out left in training counted as F1 = 0. Averaged over the classes present in gold or
    predictions (scikit-learn's default), a perfect model scores 1."""
    labels = [f"class{i}" for i in range(20)]
    gold = ["class0", "class5", "class11", "class19"]
    m = classification_metrics(gold, gold, ("accuracy", "macro_f1"), labels=labels)
    assert m == {"accuracy": 1.0, "macro_f1": 1.0}
    # a wrong answer of an unevaluated class counts: class0 F1 0, class3 (predicted, no gold) F1 0
    m = classification_metrics(gold, ["class3", *gold[1:]], ("macro_f1",), labels=labels)
    assert m["macro_f1"] == pytest.approx(3 / 5)


def test_macro_f1_counts_a_never_predicted_class_as_zero() -> None:
    # class 0: F1 1; class 1: TP 1, FP 2 -> 2/(2+2) = 0.5; class 2: never predicted -> 0
    m = classification_metrics([0, 1, 2, 2], [0, 1, 1, 1], ("macro_f1",), labels=[0, 1, 2])
    assert m["macro_f1"] == pytest.approx((1 + 0.5 + 0) / 3)


def test_f1_with_no_positive_prediction_is_zero_not_nan() -> None:
    m = classification_metrics([1, 0, 0], [0, 0, 0], ("f1", "mcc"), labels=[0, 1])
    assert m == {"f1": 0.0, "mcc": 0.0}


def test_confusion_rows_gold_cols_pred() -> None:
    # row gold 0: 4 TN, 2 FP; row gold 1: 1 FN, 3 TP
    assert confusion(GOLD, PRED, labels=[0, 1]).tolist() == [[4, 2], [1, 3]]
    names = ["a", "b", "c"]
    assert confusion(["a", "c", "c"], ["a", "a", "c"], labels=names).tolist() == [[1, 0, 0], [0, 0, 0], [1, 0, 1]]


def test_bad_input_is_a_data_error() -> None:
    with pytest.raises(DataError, match="2 gold values but 3 predictions"):
        classification_metrics([1, 0], [1, 0, 1])
    with pytest.raises(DataError, match="not among the task's labels"):
        classification_metrics(["a", "b"], ["a", "z"], labels=["a", "b"])
    with pytest.raises(DataError, match="unknown metric"):
        classification_metrics([1], [1], names=("auc",))
    with pytest.raises(DataError, match="missing"):
        classification_metrics([1, None], [1, 0])
    assert classification_metrics([1, 0], [1, 1], names="accuracy") == {"accuracy": 0.5}
    with pytest.raises(DataError, match="binary F1"):
        classification_metrics([0, 1, 2], [0, 1, 2], names=("f1",))


def test_regression_by_hand() -> None:
    # preds = 2 * golds: perfectly linear and monotone; squared errors 1, 4, 9, 16 -> mse 30/4
    m = regression_metrics([1, 2, 3, 4], [2, 4, 6, 8])
    assert m == pytest.approx({"pearson": 1.0, "spearman": 1.0, "mse": 7.5})
    # gold deviations -1 0 1, pred deviations -1 1 0: cov 1, variances 2 and 2 -> r = 1/2;
    # the ranks equal the values, so Spearman is 1/2 too; mse = (0 + 1 + 1) / 3
    m = regression_metrics([1, 2, 3], [1, 3, 2])
    assert m == pytest.approx({"pearson": 0.5, "spearman": 0.5, "mse": 2 / 3})
    # monotone but not linear: Spearman 1, Pearson below 1
    m = regression_metrics([1, 2, 3, 4], [1, 4, 9, 100])
    assert m["spearman"] == pytest.approx(1.0) and m["pearson"] < 0.9


def test_constant_predictions_give_zero_correlation_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = regression_metrics([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])
    # squared errors 1, 0, 1
    assert m == {"pearson": 0.0, "spearman": 0.0, "mse": pytest.approx(2 / 3)}
    assert not any(np.isnan(v) for v in m.values())


def test_regression_rejects_mismatch_and_nan() -> None:
    with pytest.raises(DataError):
        regression_metrics([1, 2], [1])
    with pytest.raises(DataError, match="NaN"):
        regression_metrics([1, 2], [1, float("nan")])
