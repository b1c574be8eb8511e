"""The data map: a real tiny run trained with cartography on, opened from the main window's
Tools action over the Results page's run; a click on a point shows that training example."""

from __future__ import annotations

import json

import numpy as np
from PySide6.QtCore import Qt

from bertstudio.train.cartography import FILE
from bertstudio.ui.cartography_view import CartographyView, correctness_colour
from helpers import sentiment


def _hand_made(tmp_path):
    """Four examples whose per-epoch gold probabilities are chosen by hand."""
    (tmp_path / FILE).write_text("\n".join(json.dumps(line) for line in [
        {"kind": "header", "labels": ["neg", "pos"], "gold": ["pos", "neg", "pos", "neg"],
         "text": ["clearly good", "clearly bad", "a slip", "ambiguous"]},
        {"kind": "epoch", "epoch": 1, "step": 2, "gold_prob": [0.9, 0.8, 0.1, 0.2], "pred": ["pos", "neg", "neg", "pos"]},
        {"kind": "epoch", "epoch": 2, "step": 4, "gold_prob": [1.0, 0.9, 0.05, 0.8], "pred": ["pos", "neg", "neg", "neg"]},
    ]) + "\n")


def test_points_sit_at_variability_and_confidence_coloured_by_correctness(qtbot, tmp_path):
    from bertstudio.train.cartography import read_cartography

    _hand_made(tmp_path)
    view = CartographyView(read_cartography(tmp_path))
    qtbot.addWidget(view)
    xs, ys = view.points.getData()
    np.testing.assert_allclose(ys, [0.95, 0.85, 0.075, 0.5])
    np.testing.assert_allclose(xs, [0.05, 0.05, 0.025, 0.3])
    brushes = [view.points.points()[i].brush().color().getRgb() for i in range(4)]
    assert brushes[0] == correctness_colour(1.0) and brushes[2] == correctness_colour(0.0)
    assert brushes[3] == correctness_colour(0.5) != brushes[0]
    assert "1" in view.summary.text()  # one example (the slip) in the hard-to-learn corner


def test_the_tools_action_opens_the_shown_runs_map_and_a_click_shows_the_example(qtbot, main_window, tiny):
    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    window = main_window
    project = window.session.project
    data = sentiment(16)
    run_dir = project.new_run_dir("carto")
    config = TrainConfig(task="sentence", model=tiny, epochs=2, batch_size=8, lr=3e-3, max_length=32, seed=1,
                         labels=["neg", "pos"], output_dir=str(run_dir), cartography=True, device="cpu",
                         precision="fp32")
    dev = from_records("sentence", sentiment(8, seed=3).dataset.to_list(), labels=["neg", "pos"])
    assert train(config, data, dev).status == "finished"
    results = window.pages["results"]
    results.show_run(run_dir)
    window.data_map_action.trigger()
    view = window.data_map_view
    assert isinstance(view, CartographyView)
    qtbot.addWidget(view)
    view.resize(820, 640)
    qtbot.waitExposed(view)
    assert view.carto.epochs == 2 and len(view.points.getData()[0]) == 16

    # click the point drawn farthest from the others; the example under the cursor is shown
    pts = np.array([[view.widget_pos(i).x(), view.widget_pos(i).y()] for i in range(16)])
    gap = [np.min(np.delete(np.hypot(*(pts - pts[i]).T), i)) for i in range(16)]
    target = int(np.argmax(gap))
    clicked: list[int] = []
    view.example_clicked.connect(clicked.append)
    pos = view.widget_pos(target).toPoint()
    qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert len(clicked) == 1
    assert np.hypot(*(pts[clicked[0]] - pts[target])) <= 3.5  # the point under the cursor (7 px wide)
    if gap[target] > 8:
        assert clicked == [target]
    assert data.dataset[clicked[0]]["text"] in view.detail.text()
    assert view.detail.text().count("Gold") == 1


def test_an_example_almost_always_right_and_sure_does_not_read_as_always_and_certain(qtbot, tmp_path):
    from bertstudio.train.cartography import read_cartography

    epochs = [{"kind": "epoch", "epoch": e, "step": 2 * e, "gold_prob": [0.9996, 0.5],
               "pred": ["neg" if e == 1 else "pos", "neg"]} for e in range(1, 251)]  # wrong once in 250
    (tmp_path / FILE).write_text("\n".join(json.dumps(line) for line in [
        {"kind": "header", "labels": ["neg", "pos"], "gold": ["pos", "neg"], "text": ["nearly sure", "unsure"]},
        *epochs]) + "\n")
    view = CartographyView(read_cartography(tmp_path))
    qtbot.addWidget(view)
    view.show_example(0)
    assert "Confidence 0.9996" in view.detail.text() and "right in 99.6% of epochs" in view.detail.text()
    assert view._tip(0.0, 0.9996, 0) == "confidence 0.9996, variability 0.00"


def test_a_score_runs_data_map_is_never_asked_for_with_a_setting_that_cannot_work(qtbot, main_window, tiny,
                                                                                    monkeypatch):
    """Tools > Data map on a regression run said "Train with ... (--cartography) to get one", and
    --cartography cannot map scores (it is refused for them)."""
    from PySide6.QtWidgets import QMessageBox

    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _parent, _title, text: said.append(text))
    window = main_window
    rows = [{"text": f"the film was {w}", "label": float(i % 5)} for i, w in enumerate(["good", "bad", "fun"] * 4)]
    run_dir = window.session.project.new_run_dir("scores")
    config = TrainConfig(task="regression", model=tiny, epochs=1, batch_size=8, max_length=16, seed=1,
                         output_dir=str(run_dir), device="cpu", precision="fp32")
    assert train(config, from_records("regression", rows), from_records("regression", rows[:4])).status == "finished"
    window.pages["results"].show_run(run_dir)
    window.data_map_action.trigger()
    assert window.data_map_view is None and len(said) == 1
    assert "--cartography" not in said[0] and "sentence and pair classification" in said[0]
