"""Learning curve: does a power law fitted on 250 / 500 / 1,000 SST-2 labels predict 2,000?

The bundled all-MiniLM-L6-v2 trained with the same settings (``--epochs``, batch 16,
lr 1e-4, max length 128; the app's defaults otherwise, evaluation each epoch keeping the
best) by ``bertstudio.train.learning_curve.learning_curve`` on nested subsets of SST-2's
training sentences (per seed one permutation, cut at each size), 3 seeds, scored on the
872 dev sentences. The fit on 250 / 500 / 1,000 predicts the accuracy at 2,000 labels;
then 2,000 labels are trained with the same seeds (their subsets hold the 1,000 ones) and
the prediction is compared with the mean measured accuracy. The check: within 2 points.

    python benchmarks/learning_curve.py --json benchmarks/results/learning_curve.json   # full (15 runs)
    python benchmarks/learning_curve.py --quick      # 64 / 128 / 256 -> 512, 1 seed, 1 epoch, 200 dev rows
    python benchmarks/learning_curve.py --automatic  # the app's default: Automatic's choice for each size's rows
    python benchmarks/learning_curve.py --refit benchmarks/results/learning_curve_automatic.json  # no training

With ``--automatic`` no hyperparameter is given: every size gets the settings the Train page's
Automatic preset (``small_data.adapt_to_rows``) chooses for its own rows, as the app's learning
curve does when Automatic is the preset, and each point's settings are printed.

``--refit FILE`` trains nothing: it fits today's power law to the points a ``--json`` run stored
and compares its forecast with the measured runs stored with them (a change to the fit, checked
against the runs already paid for).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "glue" / "SST-2"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="250,500,1000", help="label counts the power law is fitted on")
    p.add_argument("--target", type=int, default=2000, help="the label count it predicts (then trained for real)")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--dev-examples", type=int, default=None, help="score on the first N dev sentences (default: all 872)")
    p.add_argument("--quick", action="store_true", help="64/128/256 -> 512, one seed, one epoch, 200 dev sentences")
    p.add_argument("--automatic", action="store_true",
                   help="Automatic's choice for each size's rows (the app's default) instead of the settings above")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--refit", metavar="FILE", help="refit the points a --json run stored; train nothing")
    ns = p.parse_args()
    if ns.refit:
        from bertstudio.errors import BertStudioError

        try:
            refit(Path(ns.refit))
        except BertStudioError as exc:  # a crafted or damaged file: one line, not a traceback
            print(f"{ns.refit}: {exc}", file=sys.stderr)
            sys.exit(2)
        return
    if ns.quick:
        ns.sizes, ns.target, ns.seeds, ns.epochs, ns.dev_examples = "64,128,256", 512, "0", 1.0, 200

    from bertstudio.data.glue import load_glue
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.learning_curve import fit_power_law, learning_curve

    sizes = [int(s) for s in ns.sizes.split(",")]
    seeds = [int(s) for s in ns.seeds.split(",")]
    train = load_glue("SST-2", DATA, split="train")
    dev = load_glue("SST-2", DATA, split="dev").head(ns.dev_examples)
    if ns.automatic:  # nothing given: each size gets Automatic's choice for its rows (see the docstring)
        config, automatic = TrainConfig(task="sentence", glue_task="SST-2", logging_steps=50), ()
    else:
        config = TrainConfig(task="sentence", glue_task="SST-2", epochs=ns.epochs, batch_size=ns.batch_size, lr=ns.lr,
                             max_length=128, logging_steps=50)
        automatic = None
    last = [0.0]

    def progress(fraction: float, message: str) -> None:
        if time.monotonic() - last[0] > 30:
            last[0] = time.monotonic()
            print(f"  [{100 * fraction:5.1f}%] {message}", flush=True)

    t0 = time.perf_counter()
    def on_point(pt) -> None:
        chosen = ", ".join(f"{k} {v}" for k, v in pt.settings.items() if k != "auto_reason")
        print(f"{pt.labels:>6} labels, seed {pt.seed}: {pt.value:.4f}" + (f" ({chosen})" if chosen else ""), flush=True)

    fitted = learning_curve(config, train, dev, sizes=sizes, seeds=seeds, progress=progress, on_point=on_point,
                            automatic=automatic)
    t_fit = time.perf_counter() - t0
    fit = fitted.fit
    predicted = fit.predict(ns.target)
    low, high = fit.predict_range(ns.target, runs=len(seeds))  # for the mean of the seeds it is compared with
    print(f"fit on {sizes}: gap = {fit.a:.3f} * n^-{fit.b:.3f}; predicted {fitted.metric} at {ns.target}: "
          f"{100 * predicted:.2f} (95% range {100 * low:.2f}-{100 * high:.2f})", flush=True)
    t1 = time.perf_counter()
    actual = learning_curve(config, train, dev, sizes=[ns.target], seeds=seeds, progress=progress, on_point=on_point,
                            automatic=automatic)
    t_target = time.perf_counter() - t1
    measured = actual.summary()[0][1]
    error = predicted - measured
    # the curve on every size, for the record
    every = fit_power_law([p.labels for p in fitted.points + actual.points], [p.value for p in fitted.points + actual.points])

    print(f"\n| labels | {fitted.metric} mean | sd | min | max |\n|---:|---:|---:|---:|---:|")
    for n, mean, sd, lo, hi in fitted.summary() + actual.summary():
        print(f"| {n} | {100 * mean:.2f} | {100 * sd:.2f} | {100 * lo:.2f} | {100 * hi:.2f} |")
    print(f"\npredicted at {ns.target} from {sizes}: {100 * predicted:.2f} (95% range {100 * low:.2f}-{100 * high:.2f}); "
          f"measured {100 * measured:.2f} (mean of {len(seeds)} seeds); error {100 * error:+.2f} points "
          f"({'within' if abs(error) <= 0.02 else 'NOT within'} 2 points)")
    print(f"doubling from {ns.target}: fit on all sizes predicts {100 * every.predict(2 * ns.target):.2f}")
    print(f"time: fitted sizes {t_fit:.0f} s, target size {t_target:.0f} s")
    if ns.json:
        Path(ns.json).write_text(json.dumps({
            "sizes": sizes, "target": ns.target, "seeds": seeds, "automatic": ns.automatic,
            "epochs": None if ns.automatic else ns.epochs, "batch_size": None if ns.automatic else ns.batch_size,
            "lr": None if ns.automatic else ns.lr, "dev_examples": len(dev), "curve": fitted.to_dict(), "target_runs": actual.to_dict(),
            "predicted": predicted, "predicted_range": [low, high], "measured": measured, "error": error,
            "seconds": {"fitted_sizes": t_fit, "target": t_target},
        }, indent=2), encoding="utf-8")


def refit(path: Path) -> None:
    """The stored curve's points fitted again, the forecast set against the stored measured runs."""
    from bertstudio.train.learning_curve import LearningCurve

    stored = json.loads(path.read_text(encoding="utf-8"))
    curve = LearningCurve.from_dict(stored["curve"])
    curve.refit()
    target, measured, runs = stored["target"], stored["measured"], len(stored["seeds"])
    predicted = curve.fit.predict(target)
    low, high = curve.fit.predict_range(target, runs=runs)
    old_low, old_high = stored["predicted_range"]
    print(f"{path.name}: fit on {stored['sizes']}: gap = {curve.fit.a:.3f} * n^-{curve.fit.b:.3f} "
          f"(b's one-sided 95% lower bound {curve.fit.b_low():.3f}; trend: {curve.unclear() or 'clear'})")
    print(f"predicted {curve.metric} at {target}: {100 * predicted:.2f} (95% range {100 * low:.2f}-{100 * high:.2f}); "
          f"stored {100 * stored['predicted']:.2f} ({100 * old_low:.2f}-{100 * old_high:.2f}); measured "
          f"{100 * measured:.2f} (mean of {runs} seeds); error {100 * (predicted - measured):+.2f} points "
          f"({'within' if abs(predicted - measured) <= 0.02 else 'NOT within'} 2 points)")


if __name__ == "__main__":
    main()
