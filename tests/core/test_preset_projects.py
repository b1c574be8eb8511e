"""Every dataset preset trains from a project, as the app's Train page starts a run (issue #12).

tests/core/test_run_files.py trains each preset through the CLI; the app takes another road:
a project made for the preset (New Project: its kind, labels and preset name), the preset's
files imported as the Import dialog reads them, and a run over the project's labelled rows
(``train/sources.project_rows``), evaluated on the dev split, or without one on rows held out
by the core's rule (``TrainConfig.hold_out``). Each run must report the preset's main metric
where the Runs page looks for it.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pyarrow.compute as pc
import pytest
from helpers import PRESET_SAMPLES

from bertstudio.data.glue import PRESETS
from bertstudio.data.io import load_examples
from bertstudio.data.project import Project
from bertstudio.metrics import main_metric
from bertstudio.tasks import official_metrics
from bertstudio.train.config import HOLD_OUT, TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.rundir import read_run
from bertstudio.train.sources import project_rows

ROWS = 16  # per split: enough for two batches and a score, few enough to train in a second


def _labelled(examples):
    gold = examples.dataset.with_format("arrow")[examples.gold_column]
    return np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False))


@pytest.mark.parametrize(("name", "folder", "train_split", "eval_split"), PRESET_SAMPLES, ids=[t[0] for t in PRESET_SAMPLES])
def test_every_preset_trains_from_a_project(shared_data, tiny, tmp_path, name, folder, train_split, eval_split):
    task = PRESETS[name]
    project = Project.create(tmp_path / "project", name=name, kind=task.kind, labels=list(task.labels), glue_task=name)
    try:
        def read(split: str):
            return load_examples(shared_data / folder / task.files[split], fmt="glue", glue_task=name, split=split)

        if eval_split != train_split:
            project.import_examples(read(train_split).head(ROWS), "train")
            project.import_examples(read(eval_split).head(ROWS), "dev")
        else:  # no train file in the sample (QNLI, SNLI): the project has no dev split, rows are held out
            project.import_examples(read(train_split).head(2 * ROWS), "train")
        train_all = project.examples("train")
        dev_all = project.examples("dev") if project.num_rows("dev") else None
        has_dev = dev_all is not None
        config = TrainConfig(task=project.kind, glue_task=project.glue_task, labels=list(project.labels) or None,
                             model=tiny, epochs=1, batch_size=8, max_length=48, seed=0,
                             output_dir=str(project.new_run_dir(f"{name}-run")), hold_out=None if has_dev else HOLD_OUT)
        dev = project_rows(dev_all, _labelled(dev_all)) if has_dev else None
        result = train(config, project_rows(train_all, _labelled(train_all)), dev)
    finally:
        project.close()

    assert result.status == "finished", result.message
    run = read_run(config.output_dir)
    assert run.status == "finished" and run.glue_task == name
    # the metric the Runs page shows for the run is the preset's own, and it was computed
    assert main_metric(official_metrics(run.kind, run.glue_task), run.metrics) == task.main_metric
    assert set(task.metrics) <= set(run.metrics) and all(math.isfinite(run.metrics[k]) for k in task.metrics), run.metrics
    predictions = [json.loads(line) for line in (run.folder / "predictions.jsonl").read_text("utf-8").splitlines()]
    # every prediction names the project row it was made for
    expected = ROWS if has_dev else round(HOLD_OUT * 2 * ROWS)
    assert len(predictions) == expected
    assert {p["split"] for p in predictions} == {"dev" if has_dev else "train"}
    assert len({p["row"] for p in predictions}) == expected
