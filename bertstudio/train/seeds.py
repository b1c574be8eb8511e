"""Several seeds as one job: the same settings trained with seed, seed + 1, ...

On a few dozen labels the score of one run says little: the seed alone moves it by
points (the head's initialisation, the batch order, SetFit's pairs). :func:`train_seeds`
trains ``config.seeds`` runs one after another through :func:`~bertstudio.train.engine.train`,
each in its own run folder (``folder_for(seed)``; by default ``seed-N`` under
``output_dir``), and sums them up as the main metric's mean, sample standard deviation
and range, written to ``seeds.json`` beside the runs. A cancelled or failed run stops the
job; the runs before it stay as they are and are summed up.
"""

from __future__ import annotations

import json
import logging
import statistics
import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from bertstudio.data.atomic import atomic_write_text
from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig

log = logging.getLogger(__name__)

SUMMARY = "seeds.json"


@dataclass
class SeedsResult:
    """Each seed's run and the main metric over the finished ones."""

    status: str  # finished (every seed) | cancelled | failed (the run that stopped the job)
    metric: str | None
    values: dict[int, float] = field(default_factory=dict)  # seed -> main metric
    folders: dict[int, str] = field(default_factory=dict)
    results: list[Any] = field(default_factory=list, repr=False)  # the RunResults, in seed order
    message: str = ""
    asked: int = 0  # the seeds the job was to train (0: as many as ran)

    @property
    def mean(self) -> float | None:
        return statistics.fmean(self.values.values()) if self.values else None

    @property
    def sd(self) -> float | None:
        """Sample standard deviation (n - 1); None with fewer than two runs."""
        return statistics.stdev(self.values.values()) if len(self.values) > 1 else None

    def summary(self, digits: int = 1) -> str:
        """``3 seeds: accuracy 81.2 ± 1.3 (79.9 to 82.7)``: shown by the product's one rule
        (metrics/display.format_metric: a score x100 with ``digits`` decimals, an error as it is),
        as the evaluation lines beside it are (the CLI's ``digits=2``)."""
        from bertstudio.metrics.display import format_metric, format_spread

        if not self.values or self.metric is None:  # (why the job stopped is its message, said on its own)
            ran = len(self.results)
            said = f"{ran} of {self.asked} seed(s) ran" if self.asked > ran else f"{ran} seed(s)"
            return f"{said}, no {self.metric or 'metric'} to sum up"
        metric = self.metric
        lo, hi = min(self.values.values()), max(self.values.values())
        spread = f" ± {format_spread(metric, self.sd, digits)}" if self.sd is not None else ""
        runs = len(self.values)
        # a job stopped early says how far it got (a cancel in seed 2 read "1 seed: accuracy 50.0 (50.0 to 50.0)")
        said = f"{runs} of {self.asked} seeds finished" if self.asked > runs else f"{runs} seed{'s' if runs != 1 else ''}"
        if runs == 1:
            return f"{said}: {metric} {format_metric(metric, self.mean, digits)}"
        return (f"{said}: {metric} {format_metric(metric, self.mean, digits)}{spread} "
                f"({format_metric(metric, lo, digits)} to {format_metric(metric, hi, digits)})")

    def seed_line(self, seed: int, digits: int = 1) -> str:
        """``seed 42: accuracy 81.2  runs/seed-42``: one finished seed's score, as :meth:`summary` shows it."""
        from bertstudio.metrics.display import format_metric

        return f"seed {seed}: {self.metric} {format_metric(str(self.metric), self.values[seed], digits)}  " \
               f"{self.folders.get(seed, '')}".rstrip()

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k != "results"}
        data.update(mean=self.mean, sd=self.sd, summary=self.summary(),
                    values={str(k): v for k, v in self.values.items()}, folders={str(k): v for k, v in self.folders.items()})
        return data


def seed_folders(config: TrainConfig) -> Callable[[int], str | None]:
    """``output_dir/seed-N`` for seed N (None without an output_dir)."""
    return lambda seed: str(Path(config.output_dir) / f"seed-{seed}") if config.output_dir else None


def with_job_runs(folders: list[Path]) -> list[Path]:
    """Each job folder among ``folders`` (``--seeds N`` or ``bertstudio glue`` written into a
    project's runs/) as its runs, as Open run folder… lists it; other folders as they are. A run's
    own folder costs one stat (its config.toml)."""
    out: list[Path] = []
    for folder in folders:
        out += job_runs(folder) or [Path(folder)]
    return out


def job_runs(folder: str | Path) -> list[Path]:
    """The runs of a job folder: a seeds job's (``seed-N`` folders that hold a run's config.toml),
    by seed, or a ``bertstudio glue`` folder's (one run folder per task, named as the task: RTE,
    SST-2, ...), by name; [] for any other folder (a run's own, or one of the user's)."""
    from bertstudio.presets import find_preset

    root = Path(folder)
    if (root / "config.toml").exists() or not root.is_dir():
        return []
    seeds, tasks = [], []
    for entry in root.iterdir():  # the name first: three file checks per entry of a large folder opened by
        # mistake stalled the GUI thread
        number = entry.name.removeprefix("seed-")
        seed = entry.name.startswith("seed-") and number.isdigit()
        task = not seed and (preset := find_preset(entry.name)) is not None and preset.name == entry.name
        if not (seed or task) or not entry.is_dir() or entry.is_symlink() or not (entry / "config.toml").is_file():
            continue
        if seed:
            seeds.append((int(number), entry))
        else:
            tasks.append((entry.name, entry))
    return [entry for _n, entry in sorted(seeds)] or [entry for _n, entry in sorted(tasks)]


def check_seeds_folder(config: TrainConfig) -> None:
    """The job's folder holds only what a seeds job writes (seed-N folders, seeds.json), so
    nothing of the user's is mixed in; an earlier job there is replaced only with ``overwrite``."""
    if not config.output_dir:
        return
    from bertstudio.data.atomic import check_folder_path

    root = check_folder_path(config.output_dir, where="output_dir")  # a file, a dangling link...: refused here
    entries = list(root.iterdir()) if root.is_dir() else []
    foreign = [p.name for p in entries if not (p.name == SUMMARY or (p.is_dir() and p.name.startswith("seed-")))]
    if foreign:
        raise ConfigError(f"the output folder holds files a seeds job did not write ({', '.join(sorted(foreign)[:3])})",
                          path=root, where="output_dir", expected="a new or empty folder")
    if entries and not config.overwrite:
        raise ConfigError("the output folder holds an earlier seeds job", path=root, where="output_dir",
                          expected="a new folder, or --overwrite to replace that job's runs")
    from bertstudio.train.rundir import check_output_dir

    folder_for = seed_folders(config)
    mine = {Path(str(folder_for(seed))).name for seed in range(config.seed, config.seed + config.seeds)}
    others = sorted(p.name for p in entries if p.is_dir() and p.name.startswith("seed-") and p.name not in mine)
    if others:  # --seeds 2 over a 3-seed job left seed-44, of other settings, beside the new job's seeds.json
        raise ConfigError(f"the output folder holds runs of the earlier job that this one would not replace "
                          f"({', '.join(others[:3])})", path=root, where="output_dir",
                          expected="a new folder, or the same seeds as the earlier job")
    for seed in range(config.seed, config.seed + config.seeds):  # every seed's folder now, not after the runs before it
        check_output_dir(replace(config, seed=seed, seeds=1, output_dir=folder_for(seed)))


def train_seeds(config: TrainConfig, train_set: Any = None, eval_set: Any = None, *,
                callbacks: Iterable[Callable] = (), cancel: threading.Event | None = None,
                folder_for: Callable[[int], str | None] | None = None,
                on_run: Callable[[int, Any], None] | None = None) -> SeedsResult:
    """Train ``config`` with ``config.seeds`` seeds (see the module docstring). ``on_run(seed,
    result)`` is called after each run; ``callbacks`` receive every run's events."""
    from bertstudio.metrics.glue import main_metric
    from bertstudio.tasks import official_metrics
    from bertstudio.train.distributed import launched_rank
    from bertstudio.train.engine import train
    from bertstudio.train.training_lock import RUN, training_job

    summary = folder_for is None and config.output_dir  # the default layout: seed-N folders + seeds.json
    if folder_for is None:
        check_seeds_folder(config)
        folder_for = seed_folders(config)
    callbacks = list(callbacks)
    out = SeedsResult("finished", None, asked=config.seeds)
    if summary and launched_rank() == 0:  # the job's folder, made now: one removed while the job runs stays gone
        Path(config.output_dir).mkdir(parents=True, exist_ok=True)
    with training_job(RUN):  # the turn is the job's between its seeds (train/training_lock.py)
        for seed in range(config.seed, config.seed + config.seeds):
            if summary and launched_rank() == 0 and not Path(config.output_dir).is_dir():  # removed or moved meanwhile:
                out.status = "failed"  # the next seed's run would make it again, and the summary go into it
                out.message = (f"{config.output_dir}: the job folder was removed or moved while the job ran "
                               f"(before seed {seed})")
                break
            run = replace(config, seed=seed, seeds=1, output_dir=folder_for(seed))
            result = train(run, train_set, eval_set, callbacks=callbacks, cancel=cancel)
            out.results.append(result)
            if run.output_dir:
                out.folders[seed] = run.output_dir
            if on_run is not None:
                on_run(seed, result)
            if result.metrics:
                out.metric = out.metric or main_metric(official_metrics(config.task, config.glue_task), result.metrics)
                if out.metric in result.metrics:
                    out.values[seed] = float(result.metrics[out.metric])
            if result.status != "finished":
                out.status, out.message = result.status, f"seed {seed}: {result.message or result.status}"
                break
    if summary and launched_rank() == 0:  # every process of a data-parallel run wrote it, the last with its own values
        root = Path(config.output_dir)
        if root.is_dir():
            atomic_write_text(root / SUMMARY, json.dumps(out.to_dict(), indent=2))
        else:  # removed or moved while the job ran: not made again to hold a summary
            log.warning("%s is gone: the seeds' summary (%s) is not written", root, SUMMARY)
    return out
