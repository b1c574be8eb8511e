"""GUI responsiveness while training, and what the GUI costs the training loop.

The real app (``MainWindow`` over a ``ProjectSession``, QT_QPA_PLATFORM=offscreen)
trains the bundled MiniLM on a small SST-2 project (``--train`` sentences and
``--dev`` dev sentences, drawn with a fixed seed) by clicking the Training page's
Start button with the page's default settings (``--epochs`` aside). A 10 ms
``QTimer`` (PreciseTimer) on the main thread records how late each tick fires
while the run is going: p50/p99/max lateness. The window is set up as app.py does it,
its background import preload included (finished before the click, as when a person
reads the screen first; ``--no-preload`` clicks before it). In the timed process Start is
clicked a second time once the first run has ended: the project's model was loaded once
in this session, so the app's warm start (train/warm.py) applies. Both clicks report
the time from the click to the first loss point handed to the plot, and the lateness;
every process reports its peak RSS. ``--trace`` prints what the main and the other
threads were running around each tick more than 50 ms late.

Throughput: the same run settings (the GUI run's own ``config.toml``) are trained
headless with ``bertstudio.train.engine.train`` on the same project rows. Every side
reports the engine's own examples/s from ``history.jsonl`` (total examples over the
summed logging intervals), so the ratio measures only what the GUI adds. Three sides:
the GUI with the 10 ms timer (where lateness is measured), the same GUI run without
the timer (the timer is an instrument, and on 2 cores its 100 wake-ups a second cost
the training thread measurably too), and headless. Runs are interleaved in rotating
order, each in a fresh process, and each overhead is quoted two ways: from the medians
of the sides, and as the median of the per-round overheads (robust to the machine's
drift between rounds).

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_responsiveness.py            # 3 rounds
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_responsiveness.py --runs 5
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_responsiveness.py --tree /tmp/before   # an older tree's app
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SST2 = REPO.parent / "shared" / "data" / "glue" / "SST-2"


def make_project(folder: Path, n_train: int, n_dev: int) -> None:
    from bertstudio.data.glue import load_glue
    from bertstudio.data.project import Project

    train = load_glue("SST-2", SST2, split="train").head(n_train, seed=0)
    dev = load_glue("SST-2", SST2, split="dev").head(n_dev, seed=0)
    project = Project.create(folder, name="sst2-slice", kind="sentence", labels=list(train.labels))
    project.import_examples(train, "train")
    project.import_examples(dev, "dev")
    project.close()


def throughput(run_dir: Path) -> dict[str, float]:
    """examples/s over the whole run from the engine's logged intervals."""
    events = [json.loads(line) for line in (run_dir / "history.jsonl").read_text().splitlines() if line.strip()]
    started = next(e for e in events if e["kind"] == "started")
    steps = [e for e in events if e["kind"] == "step"]
    batch, n = started["effective_batch_size"], started["num_train_examples"]
    per_epoch = -(-n // batch)
    seconds, examples, prev = 0.0, 0, 0
    for e in steps:
        # examples in this interval: full batches, except an epoch's short last batch
        ex = sum(min(batch, n - (s % per_epoch) * batch) for s in range(prev, e["step"]))
        seconds += ex / e["examples_per_s"]
        examples += ex
        prev = e["step"]
    return {"examples_per_s": examples / seconds, "train_loop_s": seconds, "examples": examples}


class StackSampler:
    """A watchdog thread that records, every ``interval`` s, the innermost frames of the main
    thread and of the training thread (``--trace``): what ran when a tick came late. A thread
    holding the GIL in C code stops this sampler too; the gap in its samples shows that."""

    def __init__(self, interval: float = 0.002) -> None:
        import threading

        self.samples: list[tuple[float, str, str]] = []
        self._stop = threading.Event()
        self._main = threading.main_thread().ident
        self._thread = threading.Thread(target=self._loop, args=(interval,), daemon=True)

    @staticmethod
    def _where(frame: Any) -> str:
        import traceback

        return " < ".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in traceback.extract_stack(frame)[::-1][:6])

    def _loop(self, interval: float) -> None:
        import threading

        me = threading.get_ident()
        while not self._stop.wait(interval):
            frames = sys._current_frames()
            main = frames.pop(self._main, None)
            others = " | ".join(self._where(f) for ident, f in frames.items() if ident != me)
            self.samples.append((time.perf_counter(), self._where(main) if main else "", others))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def report(self, start: float, end: float) -> list[str]:
        inside = [s for s in self.samples if start - 0.003 <= s[0] <= end + 0.003]
        return [f"    +{1000 * (t - start):6.1f} ms  main: {m}\n               worker: {w}" for t, m, w in inside]


def peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def run_gui(project_dir: Path, epochs: float, probe: bool = True, warm: bool = False, trace: bool = False,
            preload: bool = True) -> dict[str, Any]:
    """One app process: the window as app.py shows it (its import preload finished first, as
    when a user reads the screen before pressing Start, unless ``preload=False``), a click on
    Start, the run to its end; with ``warm`` a second click once it has ended (the model was
    loaded once in this session) measured the same way, under ``warm_*`` keys."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    app = QApplication.instance() or QApplication([])
    settings = QSettings(str(project_dir.parent / "gui-settings.ini"), QSettings.Format.IniFormat)
    session = ProjectSession(Project.open(project_dir), settings=settings)
    window = MainWindow(session)
    window.resize(1280, 860)
    window.show()
    train = window.page("train")
    train.epochs_spin.setValue(epochs)
    window.show_page("train")
    if preload:
        window.start_preload(0)
        while window.preload_thread is None or window.preload_thread.is_alive():
            app.processEvents()
            time.sleep(0.01)
    sampler = StackSampler() if trace else None
    if sampler:
        sampler.start()

    def click() -> dict[str, Any]:
        lateness: list[float] = []
        when: list[float] = []  # seconds after the click, per tick
        last = [0.0]
        first_point: list[float] = []
        shown: list[str] = []

        def tick() -> None:
            now = time.perf_counter()
            if last[0] and train.is_running():
                lateness.append(now - last[0] - 0.010)
                when.append(now - t0)
                if sampler and lateness[-1] > 0.05:
                    print(f"late tick: {1000 * lateness[-1]:.0f} ms at {now - t0:.2f} s", file=sys.stderr)
                    print("\n".join(sampler.report(last[0], now)), file=sys.stderr)
            last[0] = now

        def on_steps(_events: list) -> None:  # connected after the monitor's slot: the point is plotted
            if not first_point:
                first_point.append(time.perf_counter() - t0)
                shown.append(window.statusBar().currentMessage())  # what the status bar says as the curve starts

        timer = QTimer()
        timer.setTimerType(Qt.TimerType.PreciseTimer)
        timer.setInterval(10)
        timer.timeout.connect(tick)
        ended: list[tuple[str, str]] = []
        loop = QEventLoop()

        def on_end(run_dir: str, status: str) -> None:
            ended.append((run_dir, status))
            loop.quit()

        train.run_ended.connect(on_end)
        app.processEvents()
        if probe:
            timer.start()
        t0, cpu0 = time.perf_counter(), time.thread_time()
        train.start_button.click()  # the user's click: the page's own settings and data
        if train.worker is not None:
            train.worker.step_logged.connect(on_steps)
        if not ended:
            loop.exec()
        wall = time.perf_counter() - t0
        gui_cpu = time.thread_time() - cpu0  # CPU time of the GUI thread itself (timer, events, repaints)
        timer.stop()
        train.run_ended.disconnect(on_end)
        run_dir, status = ended[0]
        if status != "finished":
            raise SystemExit(f"GUI run ended {status}: {train.error_label.text()}")
        out: dict[str, Any] = dict(run_dir=run_dir, wall_s=wall, gui_thread_cpu_s=gui_cpu, gui_thread_cpu_share=gui_cpu / wall,
                                   first_point_s=first_point[0] if first_point else None,
                                   status_bar=shown[0] if shown else None)
        if lateness:
            late_ms = sorted(x * 1000 for x in lateness)
            worst = max(range(len(lateness)), key=lateness.__getitem__)
            out.update(ticks=len(late_ms), p50_ms=statistics.median(late_ms),
                       p99_ms=late_ms[min(len(late_ms) - 1, int(0.99 * len(late_ms)))], max_ms=late_ms[-1],
                       max_at_s=when[worst], over_100ms_at_s=[round(w, 2) for w, x in zip(when, lateness) if x > 0.1])
        out.update(throughput(Path(run_dir)))
        return out

    out = click()
    out["peak_rss_mb"] = peak_rss_mb()  # the process's peak so far: window, model, the run
    if warm:
        second = click()
        out.update({f"warm_{k}": v for k, v in second.items()})
        out["warm_peak_rss_mb"] = peak_rss_mb()
    if sampler:
        sampler.stop()
    window.close()
    session.set_project(None)
    return out


def run_headless(project_dir: Path, config_path: Path, out_dir: Path) -> dict[str, Any]:
    from bertstudio.data.project import Project
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    config = TrainConfig.load(config_path)
    config.output_dir = str(out_dir)
    project = Project.open(project_dir)
    train_set, dev_set = project.examples("train"), project.examples("dev")
    t0 = time.perf_counter()
    result = train(config, train_set, dev_set)
    wall = time.perf_counter() - t0
    project.close(compact=False)
    if result.status != "finished":
        raise SystemExit(f"headless run {result.status}: {result.message}")
    out = dict(run_dir=str(out_dir), wall_s=wall, peak_rss_mb=peak_rss_mb())
    out.update(throughput(out_dir))
    return out


def spawn(args: list[str], tree: Path = REPO) -> dict[str, Any]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    load0 = os.getloadavg()[0]
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, cwd=tree)
    line = next((ln for ln in proc.stdout.splitlines()[::-1] if ln.startswith("RESULT ")), None)
    if proc.returncode != 0 or line is None:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"{args[:2]} failed (exit {proc.returncode})")
    out = json.loads(line[len("RESULT "):])
    out["load_start"], out["load_end"] = load0, os.getloadavg()[0]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=3, help="runs per side (interleaved)")
    p.add_argument("--train", type=int, default=1000)
    p.add_argument("--dev", type=int, default=200)
    p.add_argument("--epochs", type=float, default=2)
    p.add_argument("--json")
    p.add_argument("--tree", type=Path, default=REPO, help="the source tree whose bertstudio the runs import (e.g. an older commit's worktree)")
    p.add_argument("--sides", default="gui,gui_quiet,headless",
                   help="which sides to run (comma-separated; e.g. gui for lateness and start times only)")
    p.add_argument("--gui", help=argparse.SUPPRESS)
    p.add_argument("--no-probe", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--no-preload", action="store_true", help="click Start before the app's import preload has run")
    p.add_argument("--trace", action="store_true", help="print the main and worker threads' stacks around late ticks")
    p.add_argument("--headless", nargs=3, help=argparse.SUPPRESS)
    ns = p.parse_args()
    if ns.gui:
        print("RESULT " + json.dumps(run_gui(Path(ns.gui), ns.epochs, probe=not ns.no_probe, warm=ns.warm,
                                                     trace=ns.trace, preload=not ns.no_preload)), flush=True)
        return
    if ns.headless:
        print("RESULT " + json.dumps(run_headless(*(Path(a) for a in ns.headless))), flush=True)
        return

    sides: dict[str, list[dict[str, Any]]] = {"gui": [], "gui_quiet": [], "headless": []}
    with tempfile.TemporaryDirectory(prefix="bertstudio-gui-") as tmp:
        project_dir = Path(tmp) / "project"
        make_project(project_dir, ns.train, ns.dev)
        config_path: Path | None = None
        for i in range(ns.runs):
            # The first round starts with the GUI run (it writes the config all sides use); then
            # the order rotates (the machine's speed drifts by several percent over minutes, and
            # rotating spreads a steady drift over all sides).
            order = ("gui", "gui_quiet", "headless")[i % 3:] + ("gui", "gui_quiet", "headless")[:i % 3]
            for side in (x for x in order if x in ns.sides.split(",")):
                if side == "headless":
                    r = spawn(["--headless", str(project_dir), str(config_path), str(Path(tmp) / f"headless-{i}")], ns.tree)
                    print(f"headless  {i}: {r['examples_per_s']:6.1f} ex/s  wall {r['wall_s']:.1f} s  "
                          f"peak RSS {r['peak_rss_mb']:.0f} MB  load {r['load_start']:.2f}->{r['load_end']:.2f}", flush=True)
                else:
                    extra = ["--warm"] if side == "gui" else ["--no-probe"]  # the timed side also clicks Start again
                    r = spawn(["--gui", str(project_dir), "--epochs", str(ns.epochs), *extra], ns.tree)
                    late = (f"lateness p50 {r['p50_ms']:.1f} p99 {r['p99_ms']:.1f} max {r['max_ms']:.1f} ms ({r['ticks']} ticks)"
                            if side == "gui" else "no timer")
                    print(f"{side:9s} {i}: {r['examples_per_s']:6.1f} ex/s  GUI thread CPU {100 * r['gui_thread_cpu_share']:4.1f}%  "
                          f"{late}  wall {r['wall_s']:.1f} s  first point {r['first_point_s']:.2f} s  peak RSS "
                          f"{r['peak_rss_mb']:.0f} MB  load {r['load_start']:.2f}->{r['load_end']:.2f}", flush=True)
                    if side == "gui":
                        print(f"   second Start {i}: first point {r['warm_first_point_s']:.2f} s  lateness p99 "
                              f"{r['warm_p99_ms']:.1f} max {r['warm_max_ms']:.1f} ms  {r['warm_examples_per_s']:6.1f} ex/s  "
                              f"peak RSS {r['warm_peak_rss_mb']:.0f} MB  status bar: {r['warm_status_bar']!r}", flush=True)
                    config_path = config_path or Path(r["run_dir"]) / "config.toml"
                sides[side].append(r)
    if ns.json:
        Path(ns.json).write_text(json.dumps(sides, indent=1))
    summarise(sides)


def summarise(sides: dict[str, list[dict[str, Any]]]) -> None:
    gui, quiet, headless = sides["gui"], sides["gui_quiet"], sides["headless"]
    if gui:
        p99 = max(r["p99_ms"] for r in gui)
        print(f"\nlateness of a 10 ms main-thread timer during training (worst run): p50 {max(r['p50_ms'] for r in gui):.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(r['max_ms'] for r in gui):.1f} ms")
    overhead = {}
    for name, runs, what in (("gui", gui, "GUI with the 10 ms timer"), ("gui_quiet", quiet, "GUI alone (no timer)")):
        if not runs or not headless:
            continue
        h_rate = statistics.median(r["examples_per_s"] for r in headless)
        rate = statistics.median(r["examples_per_s"] for r in runs)
        rounds = [1 - r["examples_per_s"] / h["examples_per_s"] for r, h in zip(runs, headless)]
        overhead[name] = (1 - rate / h_rate, statistics.median(rounds))
        cpu = statistics.median(r["gui_thread_cpu_share"] for r in runs)
        print(f"{what:25s}: {rate:6.1f} ex/s (median) against headless {h_rate:.1f}: overhead {100 * overhead[name][0]:+.1f}% "
              f"from the medians, {100 * overhead[name][1]:+.1f}% median of the rounds "
              f"(per round: {', '.join(f'{100 * x:+.1f}%' for x in rounds)}); GUI thread CPU {100 * cpu:.1f}% of a core")
    if gui:
        worst = max(max(r["max_ms"], r["warm_max_ms"]) for r in gui)
        print(f"worst lateness over every run, second Starts included: {worst:.1f} ms; per run (first Start, second): "
              + ", ".join(f"{r['max_ms']:.0f}/{r['warm_max_ms']:.0f}" for r in gui))
        cold = statistics.median(r["first_point_s"] for r in gui)
        warm = statistics.median(r["warm_first_point_s"] for r in gui)
        print(f"Start to the first plotted loss point (median): first Start in the process {cold:.2f} s, second Start "
              f"{warm:.2f} s ({cold / warm:.1f}x); per run: "
              + ", ".join(f"{r['first_point_s']:.2f}/{r['warm_first_point_s']:.2f}" for r in gui))
    rss = [(what, statistics.median(r[k] for r in runs)) for what, runs, k in (
        ("app after one run", gui, "peak_rss_mb"), ("after the second", gui, "warm_peak_rss_mb"),
        ("app without the timer", quiet, "peak_rss_mb"), ("headless", headless, "peak_rss_mb")) if runs]
    print("peak RSS (median MB): " + ", ".join(f"{what} {mb:.0f}" for what, mb in rss))
    if gui:
        print(f"goal p99 < 30 ms: {'met' if p99 < 30 else 'NOT met'}")
        print(f"goal worst lateness <= 100 ms: {'met' if worst <= 100 else 'NOT met'}")
        print(f"goal second Start to first point <= 2 s: {'met' if warm <= 2 else 'NOT met'} (median)")
    for name, what in (("gui", "with the timer"), ("gui_quiet", "without it")):
        if name in overhead:
            print(f"goal overhead < 3%, {what}: {'met' if max(overhead[name]) < 0.03 else 'NOT met'} (both estimates)")

if __name__ == "__main__":
    main()
