"""How long the GUI thread waits on a project of many runs and on a large evaluation set.

Builds, in a temporary folder, a sentence project with ``--runs`` finished run folders
(config.toml, history.jsonl, metrics.json and a few predictions each, as the engine writes
them) and one more run whose predictions.jsonl holds ``--predictions`` rows (QQP dev is
40,430), then opens it in the real ``MainWindow`` (QT_QPA_PLATFORM=offscreen) with the
heavy modules imported first, as the app's preload does. A 10 ms ``QTimer`` on the main
thread records the longest gap between its ticks (the worst GUI-thread stall) in each phase:

- open: ``open_project`` until it returns (every page lists the runs);
- read: from then until no Runs row is "reading…" (runs read on the worker);
- refresh: the Runs page's Refresh, three times (runs read from memory);
- runs_changed: every page that lists runs, as when a training ends;
- results: the Results page shows the large run, until it is on the page.

Usage (``--tree`` runs an older source tree's app, for a before/after table):

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_scale.py
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_scale.py --runs 2000 --predictions 50000 --tree /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = "--child"


def build(folder: Path, runs: int, predictions: int) -> None:
    """The project and its runs, written as the engine writes them (no training)."""
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.events import RunFinished, RunStarted, event_to_dict

    labels = ["neg", "pos"]
    rng = random.Random(0)
    project = Project.create(folder, name="scale", kind="sentence", labels=labels)
    dev = [{"text": f"sentence {i} " + " ".join(rng.choice(["good", "bad", "plot"]) for _ in range(12)),
            "label": rng.choice(labels)} for i in range(predictions)]
    project.import_examples(from_records("sentence", dev, labels=labels), "dev")

    def run(name: str, rows: int) -> None:
        out = project.new_run_dir(name)
        TrainConfig(task="sentence", labels=labels, output_dir=str(out)).save(out / "config.toml")
        accuracy = rng.random()
        events = [RunStarted(100, 1000, rows, 3, 32, 10, 20, "cpu", "fp32"),
                  RunFinished(status="finished", step=100, metrics={"accuracy": accuracy})]
        (out / "history.jsonl").write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in events), encoding="utf-8")
        (out / "metrics.json").write_text(json.dumps({"accuracy": accuracy}), encoding="utf-8")
        with open(out / "predictions.jsonl", "w", encoding="utf-8") as f:
            for i in range(rows):
                p = rng.random()
                f.write(json.dumps({"index": i, "gold": dev[i]["label"], "label": "pos" if p > 0.5 else "neg",
                                    "probs": {"neg": 1 - p, "pos": p}, "confidence": max(p, 1 - p), "loss": rng.random(),
                                    "split": "dev", "row": i}) + "\n")

    for n in range(runs):
        run(f"run-{n:05d}", min(20, predictions))
    run("zz-large", predictions)  # the newest: what the Results page shows first
    project.close()


def child(folder: str) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ["BERTSTUDIO_ASSIST"] = "0"
    from PySide6.QtCore import QElapsedTimer, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    settings_dir = tempfile.mkdtemp(prefix="gui-scale-settings-")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, settings_dir)
    from bertstudio.ui.preload import HEAVY_MODULES, preload
    preload(HEAVY_MODULES)  # as the app does while the window sits idle
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    session = ProjectSession(settings=QSettings(os.path.join(settings_dir, "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    window.show()
    clock, last, worst = QElapsedTimer(), [0], [0]
    clock.start()

    def tick() -> None:
        now = clock.elapsed()
        worst[0] = max(worst[0], now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()

    def pump_until(done, limit: float = 300.0) -> None:
        end = time.monotonic() + limit
        while not done() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.002)

    def phase() -> None:
        app.processEvents()
        last[0], worst[0] = clock.elapsed(), 0

    out: dict = {}
    runs = window.pages["runs"]
    phase()
    t = time.perf_counter()
    window.open_project(folder)
    out["open_s"] = time.perf_counter() - t
    app.processEvents()  # the tick after the call measures the gap
    out["open_stall_ms"] = worst[0]
    phase()
    t = time.perf_counter()
    pump_until(lambda: all(getattr(r, "status", "") != "reading" for r in runs.model.runs))
    app.processEvents()
    out["read_s"], out["read_stall_ms"] = time.perf_counter() - t, worst[0]
    out["rows"] = len(runs.model.runs)
    times = []
    for _ in range(3):
        phase()
        t = time.perf_counter()
        runs.refresh()
        times.append(time.perf_counter() - t)
    out["refresh_s"] = sorted(times)[1]
    phase()
    t = time.perf_counter()
    session.notify_runs_changed()
    out["runs_changed_s"] = time.perf_counter() - t
    pump_until(lambda: not getattr(window.pages["results"], "is_loading", lambda: False)())  # a re-read large run
    results = window.pages["results"]
    large = session.project.runs_dir / "zz-large"
    results.show_run(None)
    phase()
    t = time.perf_counter()
    results.show_run(large)
    loading = getattr(results, "is_loading", lambda: False)
    pump_until(lambda: not loading())
    app.processEvents()
    out["results_s"], out["results_stall_ms"] = time.perf_counter() - t, worst[0]
    out["results_rows"] = results.model.rowCount()
    window.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--predictions", type=int, default=50_000)
    ap.add_argument("--tree", action="append", default=[], help="another source tree to measure (label=path or path)")
    ap.add_argument("--json", help="write the measurements here")
    ap.add_argument(CHILD, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    here = Path(__file__).resolve().parents[1]
    trees = [("this tree", here)] + [tuple(t.split("=", 1)) if "=" in t else (t, Path(t)) for t in args.tree]
    work = Path(tempfile.mkdtemp(prefix="gui-scale-"))
    try:
        sys.path.insert(0, str(here))
        print(f"building {args.runs} runs and one of {args.predictions:,} predictions…", flush=True)
        build(work / "project", args.runs, args.predictions)
        results = {}
        for label, tree in trees:
            project = work / f"copy-{len(results)}"
            shutil.copytree(work / "project", project)
            env = {**os.environ, "PYTHONPATH": str(tree), "QT_QPA_PLATFORM": "offscreen"}
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), CHILD, str(project)], env=env,
                                  capture_output=True, text=True, timeout=1800)
            if proc.returncode != 0:
                print(f"{label}: failed\n{proc.stderr[-2000:]}")
                continue
            results[label] = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"\n| measure | {' | '.join(results)} |\n|---|{'---:|' * len(results)}")
        rows = [("Open project (s)", "open_s", "{:.2f}"), ("its worst GUI stall (ms)", "open_stall_ms", "{}"),
                ("then until every run is listed (s)", "read_s", "{:.2f}"), ("worst stall meanwhile (ms)", "read_stall_ms", "{}"),
                ("Runs refresh (s, median of 3)", "refresh_s", "{:.3f}"), ("runs_changed, all pages (s)", "runs_changed_s", "{:.3f}"),
                ("Results: large run on the page (s)", "results_s", "{:.2f}"), ("its worst GUI stall (ms)", "results_stall_ms", "{}")]
        for title, key, form in rows:
            print(f"| {title} | " + " | ".join(form.format(r[key]) for r in results.values()) + " |")
        if args.json:
            Path(args.json).write_text(json.dumps({"runs": args.runs, "predictions": args.predictions, "results": results},
                                                  indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
