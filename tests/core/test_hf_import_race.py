"""Threads that first touch transformers at the same time do not break each other (bertstudio/hf.py).

The app's preload thread, the Train page's parameter count and a run starting (or the
labelling assistant) all reach for transformers' lazily imported classes in the first
seconds after a project opens. Unserialised, that raced: "cannot import name
'AutoConfig' from 'transformers'" on a worker, or an AttributeError inside datasets'
fingerprinting on the GUI thread (it looks up transformers.PreTrainedTokenizerBase as soon
as transformers is in sys.modules). The race needs a fresh interpreter (nothing imported
yet), so each round runs in a subprocess; like any race it shows only with some
probability, so several rounds run and each does the three things at once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import sys, threading, traceback
from pathlib import Path
sys.path.insert(0, {repo!r})
errors = []
# What the GUI thread has imported before the preload starts (the data layer the window uses).
import bertstudio.data.examples, bertstudio.data.project  # noqa: E401

def guard(fn):
    def run():
        try:
            fn()
        except BaseException:
            errors.append(traceback.format_exc())
    return run

def preload():
    from bertstudio.ui.preload import preload as load
    load()

def count():
    from bertstudio.tasks.model import parameter_counts
    parameter_counts("sentence", {model!r}, labels=["neg", "pos"])

def open_split():
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    project = Project.create(Path({folder!r}) / "p", name="p", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", [{{"text": "a", "label": "neg"}}], labels=["neg", "pos"]), "train")
    for _ in range(20):
        project.examples("train").dataset.select([0])
    project.close()

threads = [threading.Thread(target=guard(f)) for f in (preload, count, open_split)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if errors:
    print("\n".join(errors))
    sys.exit(1)
"""


def test_first_uses_of_transformers_on_three_threads_at_once(tiny, tmp_path):
    for round_ in range(3):
        folder = tmp_path / f"round{round_}"
        folder.mkdir()
        script = SCRIPT.format(repo=str(REPO), model=str(tiny), folder=str(folder))
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                              env={**__import__("os").environ, "HF_HUB_OFFLINE": "1"})
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
