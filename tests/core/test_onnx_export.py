"""ONNX export of every kind (tiny random BERT): outputs against PyTorch on real examples, the
predictor and evaluation through the Task code, the standalone predict.py without bertstudio."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from typing import Any
from pathlib import Path

import numpy as np
import pytest
import torch

pytest.importorskip("onnxruntime", reason="the export extra is not installed")
pytest.importorskip("onnxscript", reason="the export extra is not installed")

from bertstudio.cli import main  # noqa: E402
from bertstudio.errors import BertStudioError, ConfigError  # noqa: E402
from bertstudio.tasks import get_task  # noqa: E402
from bertstudio.train.families import family  # noqa: E402
from bertstudio.train.onnx_export import (  # noqa: E402
    Cancelled, OnnxModel, evaluate_onnx, export_onnx, onnx_predictor, read_meta,
)

# a "-siamese" model reads each side of a pair on its own (inputs of shape batch x 2 x sequence):
# the small-data default for pairs and scores on a sentence-transformer
KINDS = ("sentence", "pair", "regression", "tagging", "qa", "pair-siamese", "regression-siamese")


@pytest.fixture(scope="module")
def real(shared_data):
    """100 real examples per kind (SST-2, RTE, STS-B dev; UD English EWT dev; SQuAD dev)."""
    from bertstudio.data.glue import load_glue
    from bertstudio.data.io import load_examples

    return {
        "sentence": load_glue("SST-2", shared_data / "glue/SST-2", split="dev").head(100),
        "pair": load_glue("RTE", shared_data / "glue/RTE", split="dev").head(100),
        "regression": load_glue("STS-B", shared_data / "glue/STS-B", split="dev").head(100),
        "tagging": load_examples(shared_data / "pos/ud_english_ewt/en_ewt-ud-dev.conllu").head(100),
        "qa": load_examples(shared_data / "squad/dev-v1.1-articles-00-35.json").head(100),
    }


@pytest.fixture(scope="module")
def make_export(tiny, real, tmp_path_factory):
    """kind -> (kind, model folder, export folder) of a tiny model with a fresh head, made once per
    module. The pair model is exported through ``bertstudio export-onnx``; only the sentence one
    gets an int8 copy (quantizing costs seconds the other kinds would not test anything new with)."""
    from bertstudio.tasks.model import build_model, save_model

    made: dict[str, tuple[str, Path, Path]] = {}

    def make(name: str) -> tuple[str, Path, Path]:
        if name not in made:
            kind, siamese = name.removesuffix("-siamese"), name.endswith("-siamese")
            root = tmp_path_factory.mktemp(f"onnx-{name}")
            torch.manual_seed(0)
            if siamese:
                from bertstudio.tasks.embedding import save_embedding_classifier

                model, tokenizer = build_model(kind, tiny, labels=real[kind].labels, head="siamese")
                model_dir = root / "model"
                save_embedding_classifier(model, tokenizer, model_dir, kind=kind)
            else:
                model, tokenizer = build_model(kind, tiny, labels=real[kind].labels)
                model_dir = save_model(model, tokenizer, root / "model")
            out = root / "export"
            if kind == "pair":
                code = main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(out), "--no-int8"],
                            out=io.StringIO())
                assert code == 0
            else:
                export_onnx(model_dir, out, quantize=name in ("sentence", "regression-siamese"))
            made[name] = (kind, model_dir, out)
        return made[name]

    return make


@pytest.fixture(scope="module", params=KINDS)
def exported(request, make_export):
    return make_export(request.param)


def test_export_folder_holds_what_a_user_needs(exported):
    kind, _, out = exported
    names = {p.name for p in out.iterdir()}
    assert {"model.onnx", "tokenizer.json", "labels.json", "predict.py", "config.json"} <= names
    siamese = "-siamese" in out.parent.name
    assert ("model.int8.onnx" in names) == (kind == "sentence" or (siamese and kind == "regression"))
    assert not (out / "model.onnx.data").exists()  # one self-contained file
    meta = read_meta(out)
    assert meta["kind"] == kind and meta["decode"] == family(get_task(kind).spec) and meta["siamese"] == siamese
    if "model.int8.onnx" in names:
        assert os.path.getsize(out / "model.int8.onnx") < os.path.getsize(out / "model.onnx")


def test_onnx_outputs_match_pytorch_on_100_real_examples(exported, real):
    """Every output within 1e-3 of PyTorch, batch by batch, over batches of varying width and size
    (the last one smaller): the batch and sequence axes are really dynamic."""
    from bertstudio.tasks.model import load_model, task_for
    from bertstudio.train.evaluation import eval_loader

    kind, model_dir, out = exported
    model, tokenizer, _, labels = load_model(model_dir)
    model.eval()
    onnx = OnnxModel(out / "model.onnx")
    task = task_for(model, kind)  # a siamese model's rows hold both sides, each tokenised alone
    examples = real[kind]
    enc = task.encode(examples, tokenizer, max_length=128, doc_stride=32, label2id={n: i for i, n in enumerate(labels)},
                      training=False)
    assert len(examples) == 100 and len(enc) >= 100
    shapes, worst = set(), 0.0
    for batch in eval_loader(enc, task, tokenizer.pad_token_id, 16, pad_to_multiple_of=None):
        inputs = {k: batch[k] for k in ("input_ids", "attention_mask", "token_type_ids") if k in batch}
        with torch.inference_mode():
            want = model(**inputs)
        got = onnx(**inputs)
        for name in onnx.output_names:
            worst = max(worst, float((got[name] - want[name]).abs().max()))
        shapes.add(tuple(inputs["input_ids"].shape))
    assert worst <= 1e-3
    assert len({s[0] for s in shapes}) >= 2 and len({s[-1] for s in shapes}) >= 2


def test_evaluate_onnx_predicts_what_evaluate_predicts(exported, real):
    from bertstudio.train.engine import evaluate

    kind, model_dir, out = exported
    examples = real[kind].head(40)
    metrics, rows = evaluate(model_dir, examples, precision="fp32")  # the export is fp32: the exact path
    onnx_metrics, preds = evaluate_onnx(out / "model.onnx", examples)
    # the same row schema as the folder's (it wrote {label, probs} alone: no index, fingerprint or gold)
    assert [list(p) for p in preds] == [list(r) for r in rows]
    assert [(p["index"], p["fingerprint"], p["gold"]) for p in preds] == [(r["index"], r["fingerprint"], r["gold"]) for r in rows]
    task = get_task(kind)
    got, want = [task.predicted_value(p) for p in preds], [task.predicted_value(r) for r in rows]
    assert got == (pytest.approx(want, abs=1e-5) if family(task.spec) == "score" else want)
    assert onnx_metrics.keys() == metrics.keys()
    for key in metrics:
        assert onnx_metrics[key] == pytest.approx(metrics[key], abs=1e-3)  # ranks of near-equal scores may swap


def _inputs(kind: str, examples, n: int) -> list[dict]:
    spec = get_task(kind).spec
    rows = examples.dataset.select(range(n)).to_list()
    return [{k: r[k] for k in spec.inputs + spec.optional_inputs if r.get(k)} for r in rows]


def _same(kind: str, got: dict, want: dict) -> None:
    decode = family(get_task(kind).spec)
    if decode == "classes":
        assert got["label"] == want["label"]
        assert got["probs"] == pytest.approx(want["probs"], abs=1e-4)
    elif decode == "score":
        assert got["score"] == pytest.approx(want["score"], abs=1e-4)
    elif decode == "tags":
        assert (got["tags"], got["entities"], got["unpredicted_words"]) == (want["tags"], want["entities"], want["unpredicted_words"])
        # a word that tokenises to nothing has no probabilities and no tag (null) in all three predictors
        assert len(got["probs"]) == len(want["probs"]) and [not p for p in got["probs"]] == [t is None for t in got["tags"]]
        assert got["unpredicted_words"] == sum(t is None for t in got["tags"])
        for g, w in zip(got["probs"], want["probs"]):
            assert g == pytest.approx(w, abs=1e-4)
    else:
        assert (got["answer"], got["start"]) == (want["answer"], want["start"])
        assert got["score"] == pytest.approx(want["score"], abs=1e-3)


# Imports of these fail inside the standalone run: predict.py must need none of them.
_BLOCKER = """
import importlib.abc, runpy, sys
BLOCKED = ("bertstudio", "torch", "transformers", "datasets", "accelerate", "peft")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError("predict.py imported " + name)
sys.meta_path.insert(0, Block())
sys.argv = ["predict.py"] + sys.argv[1:]
runpy.run_path(PREDICT, run_name="__main__")
"""


def run_standalone(out: Path, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    code = _BLOCKER.replace("PREDICT", repr(str(out / "predict.py")))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # bertstudio is not on the path
    return subprocess.run([sys.executable, "-c", code, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)


def test_standalone_predict_matches_bertstudio_without_importing_it(exported, real, tmp_path):
    kind, model_dir, out = exported
    inputs = _inputs(kind, real[kind], 20)
    if kind == "qa":  # long contexts: several windows per question at the predictor's max_length
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(out)
        windows = get_task(kind).encode(real[kind].head(20), tok, max_length=read_meta(out)["max_length"],
                                        doc_stride=read_meta(out)["doc_stride"], label2id={}, training=False)
        assert len(windows) > 20
    if kind == "tagging":  # the 20 sentences as one, past max_length: read in windows by both predictors
        inputs.append({"tokens": [w for x in inputs for w in x["tokens"]]})
        assert len(inputs[-1]["tokens"]) > read_meta(out)["max_length"]
        inputs.append({"tokens": ["Paris", "\u200b", "is"]})  # a zero-width space: not read (null), not "O"
    (tmp_path / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs), encoding="utf-8")
    done = run_standalone(out, ["--jsonl", str(tmp_path / "inputs.jsonl")], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    standalone = [json.loads(line) for line in done.stdout.splitlines()]
    onnx, torch_predictor = onnx_predictor(out / "model.onnx"), None
    from bertstudio.train.predict import Predictor

    torch_predictor = Predictor.load(model_dir, precision="fp32")  # the export is fp32: the exact path
    assert len(standalone) == len(inputs) == (22 if kind == "tagging" else 20)
    if kind == "tagging":
        assert standalone[-1]["tags"][1] is None and standalone[-1]["unpredicted_words"] == 1
    for given, got in zip(inputs, standalone):
        _same(kind, got, onnx.predict(**given))
        _same(kind, got, torch_predictor.predict(**given))


def _predict_with_imports_failing(out: Path, tmp_path: Path, raise_line: str, package: str) -> tuple[int, list[str]]:
    """Run the export's predict.py on one sentence in a fresh interpreter where importing ``package``
    (or a module under it) executes ``raise_line``: its exit code and stderr lines."""
    finder = (f"import importlib.abc, sys\n"
              f"class Fail(importlib.abc.MetaPathFinder):\n"
              f"    def find_spec(self, name, path=None, target=None):\n"
              f"        if name.split('.')[0] == {package!r}:\n"
              f"            {raise_line}\n"
              f"sys.meta_path.insert(0, Fail())\n")
    code = finder + _BLOCKER.replace("PREDICT", repr(str(out / "predict.py")))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code, "--text", "a fine film"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stderr.strip().splitlines()


@pytest.mark.parametrize("package", ["numpy", "onnxruntime", "tokenizers"])
def test_standalone_predict_without_a_package_names_it_and_the_pip_command(package, make_export, tmp_path):
    """On a machine without numpy, onnxruntime or tokenizers, predict.py ended in a traceback (exit 1):
    the first thing a user who copied the export saw."""
    _, _, out = make_export("sentence")
    code, lines = _predict_with_imports_failing(
        out, tmp_path, "raise ModuleNotFoundError(f'No module named {name!r}', name=name)", package)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("predict.py: error: ") and f"{package} is not installed" in lines[0]
    assert "pip install onnxruntime tokenizers numpy" in lines[0]


def test_standalone_predict_with_a_broken_package_keeps_its_own_words(make_export, tmp_path):
    """An installed onnxruntime whose library does not load ("DLL load failed" on Windows) was called
    "onnxruntime_pybind11_state is not installed", a module the user never heard of."""
    _, _, out = make_export("sentence")
    code, lines = _predict_with_imports_failing(
        out, tmp_path, "raise ImportError('DLL load failed while importing onnxruntime_pybind11_state', "
                       "name='onnxruntime.capi.onnxruntime_pybind11_state')", "onnxruntime")
    assert code == 2 and len(lines) == 1, lines
    assert "DLL load failed" in lines[0] and "not installed" not in lines[0], lines[0]


@pytest.mark.parametrize("name, args, field", [
    ("sentence", ["--text", "   "], "text"),
    ("pair", ["--text", "the cat", "--text-pair", " \t "], "text_pair"),
    ("qa", ["--question", "   ", "--context", "The city of Paris is in France."], "question"),
])
def test_a_blank_input_is_refused_by_both_predictors(name, args, field, make_export, tmp_path, capsys):
    """Whitespace alone is no text: bertstudio predict refused it, predict.py predicted from it."""
    _, _, out = make_export(name)
    done = run_standalone(out, args, tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and f"needs {field}" in lines[0], done.stderr
    assert main(["predict", "--model", str(out / "model.onnx"), *args], out=io.StringIO()) == 2
    assert f"needs {field}" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["sentence", "pair", "regression", "regression-siamese"])
def test_standalone_predict_says_when_it_cut_a_long_input_as_bertstudio_does(name, make_export, tmp_path):
    """bertstudio predict adds "truncated": {"read", "of"} when a text was cut to max_length;
    predict.py answered from the first tokens without a word."""
    kind, _, out = make_export(name)
    long = " ".join(["the movie was good and then it was not"] * 40)
    inputs = [{"text": long}, {"text": "a fine film"}]
    if kind == "pair" or name.endswith("-siamese"):
        inputs = [{"text": "a fine film", "text_pair": long}, {"text": "a fine film", "text_pair": "a good movie"}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs), encoding="utf-8")
    done = run_standalone(out, ["--jsonl", str(tmp_path / "in.jsonl")], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    standalone = [json.loads(line) for line in done.stdout.splitlines()]
    predictor = onnx_predictor(out / "model.onnx")
    want = [predictor.predict(**x).get("truncated") for x in inputs]
    limit = read_meta(out)["max_length"]
    assert want[0] is not None and want[0]["read"] == limit and want[0]["of"] > 3 * limit and want[1] is None
    assert [r.get("truncated") for r in standalone] == want


def test_cli_predicts_with_an_onnx_file(make_export, real, capsys):
    kind, _, out = make_export("pair")
    given = _inputs(kind, real[kind], 1)[0]
    buffer = io.StringIO()
    code = main(["predict", "--model", str(out / "model.onnx"), "--text", given["text"], "--text-pair", given["text_pair"]],
                out=buffer)
    assert code == 0
    _same(kind, json.loads(buffer.getvalue()), onnx_predictor(out / "model.onnx").predict(**given))


def test_export_never_writes_into_a_non_empty_folder(make_export, tmp_path, capsys):
    _, model_dir, _ = make_export("sentence")
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(ConfigError, match="not empty"):
        export_onnx(model_dir, target)
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert (target / "notes.txt").read_text(encoding="utf-8") == "keep me"
    code = main(["export-onnx", "--model", str(model_dir), "--out", str(target)], out=io.StringIO())
    assert code == 2 and "not empty" in capsys.readouterr().err
    # nor inside the model folder, which would then carry the export (up to the Hub too)
    before = sorted(p.name for p in Path(model_dir).iterdir())
    code = main(["export-onnx", "--model", str(model_dir), "--out", str(Path(model_dir) / "onnx")], out=io.StringIO())
    assert code == 2 and "inside the model folder" in capsys.readouterr().err
    assert sorted(p.name for p in Path(model_dir).iterdir()) == before


def test_a_cancelled_export_leaves_nothing(make_export, tmp_path):
    _, model_dir, _ = make_export("sentence")
    cancel = threading.Event()

    def progress(fraction: float, message: str) -> None:
        cancel.set()  # asked during the first step: the next one stops, after the temporary folder exists

    with pytest.raises(Cancelled):
        export_onnx(model_dir, tmp_path / "out", progress=progress, cancel=cancel)
    assert list(tmp_path.iterdir()) == []


def test_a_cancel_after_the_export_is_in_place_reports_it_done(make_export, tmp_path):
    """Cancel clicked while the finished export was moved into place raised Cancelled ("nothing was
    left behind") over a complete export folder: past the move the export is done, and says so."""
    _, model_dir, _ = make_export("sentence")
    cancel = threading.Event()
    seen: list[float] = []

    def progress(fraction: float, message: str) -> None:
        seen.append(fraction)
        if fraction >= 0.98:  # the last step before the folder is renamed into place
            cancel.set()

    result = export_onnx(model_dir, tmp_path / "out", quantize=False, progress=progress, cancel=cancel)
    assert result.folder == tmp_path / "out" and (tmp_path / "out" / "model.onnx").is_file()
    assert seen[-1] == 1.0


def test_int8_predictions_run_through_the_task_code(make_export, real):
    kind, _, out = make_export("sentence")
    metrics, preds = evaluate_onnx(out / "model.int8.onnx", real[kind])
    assert set(metrics) >= {"accuracy"} and len(preds) == 100
    probs = np.array([[p["probs"][n] for n in real[kind].labels] for p in preds])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_int8_answers_do_not_depend_on_padding_or_batching(make_export, real, tmp_path):
    """ONNX Runtime's dynamic quantization scales each MatMul's activations over the whole input
    tensor, padded positions and the other rows included: an int8 example's probabilities changed
    with --batch-size, and bertstudio predict (padded to a multiple of 8) and predict.py (unpadded)
    answered the same sentence differently. The int8 graph now reads each row alone, unpadded."""
    kind, _, out = make_export("sentence")
    int8 = out / "model.int8.onnx"
    examples = real[kind].head(40)
    _, alone = evaluate_onnx(int8, examples, batch_size=1)
    _, batched = evaluate_onnx(int8, examples, batch_size=64)
    inputs = _inputs(kind, examples, 40)
    (tmp_path / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs), encoding="utf-8")
    done = run_standalone(out, ["--model", str(int8), "--jsonl", str(tmp_path / "inputs.jsonl")], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    standalone = [json.loads(line) for line in done.stdout.splitlines()]
    predictor = onnx_predictor(int8)
    assert len(alone) == len(batched) == len(standalone) == 40
    for one, many, script, given in zip(alone, batched, standalone, inputs):
        single = predictor.predict(**given)
        assert one["label"] == many["label"] == script["label"] == single["label"]
        for other in (many["probs"], script["probs"], single["probs"]):  # fp32 agrees to ~1e-7; int8 was ~1e-3 apart
            assert other == pytest.approx(one["probs"], abs=1e-6)


def _damaged_copy(out: Path, dest: Path) -> Path:
    import shutil

    shutil.copytree(out, dest)
    return dest


def test_a_hostile_or_damaged_export_is_one_line_and_exit_2(make_export, tmp_path, capsys):
    """An export that brings its own tokenizer code (auto_map: transformers would import the folder's
    .py, asking "[y/N]" on a terminal), one without its tokenizer (every word [UNK]) and a model.onnx
    that is garbage, empty or cut short: each is refused in one line, and no code from it runs."""
    _, _, out = make_export("sentence")
    mark = tmp_path / "ran"
    code_export = _damaged_copy(out, tmp_path / "automap")
    config = json.loads((code_export / "tokenizer_config.json").read_text(encoding="utf-8"))
    config["auto_map"] = {"AutoTokenizer": ["evil.EvilTokenizer", "evil.EvilTokenizer"]}
    (code_export / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    (code_export / "evil.py").write_text(f"open({str(mark)!r}, 'w').write('x')\n", encoding="utf-8")
    no_tokenizer = _damaged_copy(out, tmp_path / "no-tokenizer")
    for name in ("tokenizer.json", "vocab.txt"):
        (no_tokenizer / name).unlink(missing_ok=True)
    whole = (out / "model.onnx").read_bytes()
    broken = {}
    for name, content in (("garbage", os.urandom(5000)), ("empty", b""), ("cut", whole[: len(whole) // 2])):
        broken[name] = _damaged_copy(out, tmp_path / name)
        (broken[name] / "model.onnx").write_bytes(content)
    cases = {"auto_map": (code_export, "own Python code"), "no tokenizer": (no_tokenizer, "tokenizer"),
             **{name: (folder, "not a valid ONNX model") for name, folder in broken.items()}}
    capsys.readouterr()  # building the export (first in this module when run alone) printed load progress
    for case, (folder, words) in cases.items():
        with pytest.raises(ConfigError, match=words):
            onnx_predictor(folder / "model.onnx")
        code = main(["predict", "--model", str(folder / "model.onnx"), "--text", "a fine film"], out=io.StringIO())
        err = capsys.readouterr().err
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1 and words in lines[0] and "[y/N]" not in err, (case, err)
    assert not mark.exists()


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda m: m.update(labels=m["labels"][:1]), "1 labels"),
    (lambda m: m.update(labels=m["labels"] + ["extra"]), "labels"),
    (lambda m: m.update(labels=[m["labels"][0]] * len(m["labels"])), "twice"),
    (lambda m: m.update(labels="".join(m["labels"])), "labels"),
])
def test_labels_json_that_does_not_fit_the_model_is_refused_by_both_predictors(change, fragment, make_export, tmp_path):
    """A label list shorter or longer than the logits failed inside numpy (exit 1), a name twice
    merged two classes' probabilities under one (exit 0, wrong); both predictors refuse it."""
    import shutil

    _kind, _model, out = make_export("sentence")
    bad = tmp_path / "bad"
    shutil.copytree(out, bad)
    meta = json.loads((bad / "labels.json").read_text(encoding="utf-8"))
    change(meta)
    (bad / "labels.json").write_text(json.dumps(meta), encoding="utf-8")
    if isinstance(meta["labels"], list):
        with pytest.raises(ConfigError, match="labels"):
            onnx_predictor(bad / "model.onnx")
    done = run_standalone(bad, ["--text", "a fine film"], tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "labels.json" in done.stderr


def test_the_apps_export_in_a_child_process_reports_progress_errors_and_cancel(make_export, tmp_path):
    """The app exports in a child process (the exporter's C calls held the GIL up to 0.9 s on a
    thread): progress arrives, the result is the same export, the child's error comes back as
    the same error, and a cancel leaves nothing behind."""
    from bertstudio.train.onnx_export import export_onnx_apart

    _, model_dir, _ = make_export("sentence")
    seen: list[tuple[float, Any]] = []
    done = export_onnx_apart(model_dir, tmp_path / "out", quantize=False, progress=lambda f, m: seen.append((f, m)))
    assert done.folder == tmp_path / "out" and done.fp32.is_file() and done.int8 is None and done.max_abs_diff < 1e-3
    assert seen[0][0] < seen[-1][0] == 1.0 and "tracing" in " ".join(str(m) for _f, m in seen)
    # the steps cross the process as facts, for the app to say them in its language
    assert [m.step for _f, m in seen] == ["loading", "tracing", "checking", "writing", "moving", "done"]
    # the child's side, run here (a process start costs seconds): its error and its cancel, as messages
    import queue

    from bertstudio.train.onnx_export import _export_child, _outcome

    for model, stop, error in ((tmp_path / "no-model-here", threading.Event(), BertStudioError),
                               (model_dir, threading.Event(), Cancelled)):
        if error is Cancelled:
            stop.set()
        messages: queue.Queue = queue.Queue()
        _export_child(str(model), str(tmp_path / "out2"), False, messages, stop)
        last = messages.queue[-1]
        with pytest.raises(error) as info:
            _outcome(last)
        assert type(info.value).__name__ == last[1] and info.value.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # a cancel leaves nothing


def test_an_export_whose_labels_are_no_text_is_refused(make_export, tmp_path, capsys):
    """A lone surrogate in labels.json (valid JSON, no text) failed printing (exit 1)."""
    import shutil

    _, _, out = make_export("sentence")
    copy = tmp_path / "export"
    shutil.copytree(out, copy)
    meta = json.loads((copy / "labels.json").read_text(encoding="utf-8"))
    meta["labels"] = ["neg\ud800", *meta["labels"][1:]]
    (copy / "labels.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    capsys.readouterr()  # what making the export printed
    code = main(["--quiet", "predict", "--model", str(copy / "model.onnx"), "--text", "hi"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "labels.json" in err and "surrogate" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_an_export_whose_labels_file_is_a_pipe_is_refused_not_waited_on(make_export, tmp_path, capsys):
    """labels.json as a FIFO: bertstudio predict blocked forever reading it."""
    import shutil

    _, _, out = make_export("sentence")
    copy = tmp_path / "export"
    shutil.copytree(out, copy)
    (copy / "labels.json").unlink()
    os.mkfifo(copy / "labels.json")
    capsys.readouterr()
    code = main(["--quiet", "predict", "--model", str(copy / "model.onnx"), "--text", "hi"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "labels.json" in err and "not a regular file" in err, err


@pytest.mark.parametrize(("name", "siamese", "fragment"), [
    ("pair", True, "siamese"),  # a one-input graph said to read each side alone
    ("pair-siamese", False, "[batch, sequence]"),  # a two-sided graph said to read one joined input
    ("pair-siamese", "yes", "true or false"),
    ("sentence", True, "siamese"),  # a kind without pairs
])
def test_a_labels_json_whose_siamese_flag_does_not_fit_is_refused_by_both_predictors(name, siamese, fragment, make_export,
                                                                                     tmp_path):
    """labels.json says whether the graph reads each side of a pair alone; a flag that does not fit
    the graph (or the kind) is one line from bertstudio and from the standalone predict.py."""
    import shutil

    _kind, _model, out = make_export(name)
    bad = tmp_path / "bad"
    shutil.copytree(out, bad)
    meta = json.loads((bad / "labels.json").read_text(encoding="utf-8"))
    meta["siamese"] = siamese
    (bad / "labels.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        onnx_predictor(bad / "model.onnx")
    args = ["--text", "a fine film"] + (["--text-pair", "a good movie"] if name.startswith("pair") else [])
    done = run_standalone(bad, args, tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and fragment in done.stderr, done.stderr


@pytest.mark.parametrize("name", ["regression-siamese", "pair-siamese"])
def test_a_siamese_export_needs_both_texts_in_both_predictors(name, make_export, tmp_path, capsys):
    """A siamese model reads each side alone: a score model's second text is optional in the kind,
    but one sentence beside an empty one answers a number that means nothing. predict.py scored
    it (exit 0) where bertstudio refuses; a blank second text likewise."""
    _kind, _model, out = make_export(name)
    for args in (["--text", "A man sleeps."], ["--text", "A man sleeps.", "--text-pair", "   "]):
        done = run_standalone(out, args, tmp_path)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and "text_pair" in lines[0], done.stderr
        code = main(["predict", "--model", str(out / "model.onnx"), *args], out=io.StringIO())
        assert code == 2 and "text_pair" in capsys.readouterr().err
    (tmp_path / "in.jsonl").write_text('{"text": "A man sleeps.", "text_pair": "A person rests."}\n{"text": "alone"}\n')
    done = run_standalone(out, ["--jsonl", str(tmp_path / "in.jsonl")], tmp_path)
    assert done.returncode == 2 and "line 2" in done.stderr and "text_pair" in done.stderr


def test_export_onnx_says_which_inputs_a_prediction_takes(make_export, tmp_path, capsys):
    _kind, model_dir, _out = make_export("regression-siamese")
    buffer = io.StringIO()
    assert main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(tmp_path / "e"), "--no-int8"],
                out=buffer) == 0
    assert "--text ... --text-pair ..." in buffer.getvalue()


def test_export_onnx_prints_each_step_in_english_on_stderr(make_export, tmp_path, capsys):
    """The steps are facts the app words in its language (train/onnx_export.ExportStep); the CLI's
    lines are the English ones it always printed."""
    _kind, model_dir, _out = make_export("sentence")
    capsys.readouterr()
    assert main(["export-onnx", "--model", str(model_dir), "--out", str(tmp_path / "e"), "--no-int8"],
                out=io.StringIO()) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert lines == ["[  2%] loading the model", "[  5%] tracing the model (torch.onnx, dynamo)",
                     "[ 55%] checking the export against PyTorch", "[ 90%] writing the tokenizer, labels and predict.py",
                     "[ 98%] moving the export into place", "[100%] done"]


def test_export_onnx_hint_gives_the_pair_to_a_score_model_trained_on_pairs(tiny, real, tmp_path):
    """An STS-B model (regression, the pair optional in the kind) was told to predict with --text
    alone, which answers a number that means nothing for a model trained on sentence pairs."""
    from bertstudio.tasks.model import build_model, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", tiny, labels=real["regression"].labels, glue_task="STS-B")
    model_dir = save_model(model, tokenizer, tmp_path / "model")
    buffer = io.StringIO()
    assert main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(tmp_path / "e"), "--no-int8"],
                out=buffer) == 0
    hints = [line for line in buffer.getvalue().splitlines() if "predict" in line and "--text" in line]
    assert len(hints) == 2 and all("--text ... --text-pair ..." in line for line in hints), buffer.getvalue()


def test_an_export_folder_given_as_a_model_names_its_fp32_file(make_export, tmp_path, capsys):
    """The hint named model.int8.onnx (it sorts first), the approximate one, and read "for predict
    and evaluate" when export-onnx was given the folder."""
    _, _, out = make_export("sentence")
    assert (out / "model.int8.onnx").is_file()
    assert main(["predict", "--model", str(out), "--text", "hi"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "an ONNX export, not a model folder" in err and str(out / "model.onnx") in err and "int8" not in err
    assert main(["export-onnx", "--model", str(out), "--out", str(tmp_path / "again")], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "an ONNX export, not a model folder" in err and "exported from" in err, err
    assert not (tmp_path / "again").exists()


def test_export_onnx_refuses_an_empty_out_as_an_empty_path(make_export, capsys):
    """--out "" was read as the current folder: "., export: the export folder is not empty"."""
    _, model_dir, _ = make_export("sentence")
    capsys.readouterr()  # the fixture's own output, when this test is the first to make the export
    before = sorted(os.listdir("."))
    assert main(["export-onnx", "--model", str(model_dir), "--out", ""], out=io.StringIO()) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "an empty path" in lines[0], lines
    assert sorted(os.listdir(".")) == before


def test_an_export_reads_one_text_or_two_as_the_training_rows_had_in_both_predictors(tiny, real, tmp_path, capsys):
    """A one-text rating model scored a pair it never saw, and a pair-trained (linear) score model one
    sentence, in `bertstudio predict` and predict.py without a word. The model keeps whether its
    training rows had a second text (config.json's bertstudio block, the export's labels.json)."""
    import json
    import shutil

    from bertstudio.tasks.model import build_model, record_pairs, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", tiny, labels=[])
    record_pairs(model, "none")  # as training does, from its rows
    model_dir = save_model(model, tokenizer, tmp_path / "model")
    buffer = io.StringIO()
    assert main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(tmp_path / "single"), "--no-int8"],
                out=buffer) == 0
    assert "--text-pair" not in buffer.getvalue()  # the hint gives the one text the model reads
    single = tmp_path / "single"
    assert json.loads((single / "labels.json").read_text())["pairs"] == "none"
    paired = tmp_path / "paired"
    shutil.copytree(single, paired)
    meta = json.loads((paired / "labels.json").read_text())
    (paired / "labels.json").write_text(json.dumps({**meta, "pairs": True}))  # an export made before "some": all rows
    capsys.readouterr()
    for out, args, fragment in ((single, ["--text", "a", "--text-pair", "b"], "trained on single texts does not read text_pair"),
                                (paired, ["--text", "a"], "that reads sentence pairs needs text_pair")):
        done = run_standalone(out, args, tmp_path)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and fragment in lines[0], done.stderr
        code = main(["predict", "--model", str(out / "model.onnx"), *args], out=io.StringIO())
        assert code == 2 and fragment in capsys.readouterr().err
    for out, args in ((single, ["--text", "a"]), (paired, ["--text", "a", "--text-pair", "b"])):
        done = run_standalone(out, args, tmp_path)
        assert done.returncode == 0 and "score" in json.loads(done.stdout), done.stderr


def test_an_export_of_a_score_model_trained_on_some_pairs_reads_one_text_or_two(tiny, real, tmp_path, capsys):
    """A score project of mostly single sentences with a few pairs: its model refused every single
    text in `bertstudio predict` and predict.py, and export-onnx's hint asked for --text-pair."""
    import json

    from bertstudio.tasks.model import build_model, record_pairs, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("regression", tiny, labels=[])
    record_pairs(model, "some")
    model_dir = save_model(model, tokenizer, tmp_path / "model")
    buffer = io.StringIO()
    assert main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(tmp_path / "some"), "--no-int8"],
                out=buffer) == 0
    assert "--text ..." in buffer.getvalue() and "--text-pair" not in buffer.getvalue()
    out = tmp_path / "some"
    assert json.loads((out / "labels.json").read_text())["pairs"] == "some"
    capsys.readouterr()
    for args in (["--text", "a"], ["--text", "a", "--text-pair", "b"]):
        done = run_standalone(out, args, tmp_path)
        assert done.returncode == 0 and "score" in json.loads(done.stdout), done.stderr
        assert main(["predict", "--model", str(out / "model.onnx"), *args]) == 0
        assert "score" in json.loads(capsys.readouterr().out)


def test_a_context_past_the_training_window_limit_is_answered_by_both_predictors(make_export, tmp_path, capsys):
    """predict.py answered a 100,000-character context; `bertstudio predict` on the same export refused
    it with "example 1: ... more than 1,000 windows (... or a larger max_length)". Both answer alike."""
    import shutil

    _, _, out = make_export("qa")
    short = tmp_path / "short-windows"
    shutil.copytree(out, short)
    meta = json.loads((short / "labels.json").read_text())
    (short / "labels.json").write_text(json.dumps({**meta, "max_length": 32, "doc_stride": 8}))
    args = ["--question", "where is paris", "--context", "paris is in france . " * 5000]
    done = run_standalone(short, args, tmp_path)
    assert done.returncode == 0, done.stderr
    capsys.readouterr()
    assert main(["predict", "--model", str(short / "model.onnx"), *args]) == 0
    ours, theirs = json.loads(capsys.readouterr().out), json.loads(done.stdout)
    assert (ours["answer"], ours["start"]) == (theirs["answer"], theirs["start"])
    assert ours["score"] == pytest.approx(theirs["score"], abs=1e-3)


def test_a_context_past_the_one_input_window_limit_is_refused_alike_by_both_predictors(make_export, tmp_path, capsys):
    """With the training sets' limit lifted for one input, a pasted 5 MB context had no limit at all
    (hundreds of thousands of windows, minutes, GBs). Both predictors refuse past 20,000 windows, in
    one line the user can act on, before any window is made."""
    import shutil

    _, _, out = make_export("qa")
    short = tmp_path / "short-windows"
    shutil.copytree(out, short)
    meta = json.loads((short / "labels.json").read_text())
    (short / "labels.json").write_text(json.dumps({**meta, "max_length": 32, "doc_stride": 8}))
    context = "paris is in france . " * 40_000  # 840,000 characters: about 28,000 windows of 32 tokens
    lines = tmp_path / "long.jsonl"  # past the 128 kB one command-line argument may hold
    lines.write_text(json.dumps({"question": "where is paris", "context": context}) + "\n")
    done = run_standalone(short, ["--jsonl", str(lines)], tmp_path)
    advice = "the context is too long to read at once: paste a shorter passage"
    assert done.returncode == 2 and advice in done.stderr and "at most 20,000" in done.stderr, done.stderr
    capsys.readouterr()
    assert main(["predict", "--model", str(short / "model.onnx"), "--question", "where is paris",
                 "--context", context]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and advice in err[0] and "at most 20,000" in err[0], err


def test_an_export_of_a_squad_v2_model_answers_no_answer_in_every_predictor(tiny, tmp_path, capsys):
    """predict.py and `bertstudio predict` on an export never answered "no answer", and evaluate did
    once any gold answer of its file was empty. labels.json now keeps the model's null_answers (its
    training data held unanswerable questions), and all three read it."""
    import shutil

    from bertstudio.data.examples import from_records
    from bertstudio.tasks.model import build_model, save_model

    torch.manual_seed(0)
    model, tokenizer = build_model("qa", tiny, labels=[])
    question, context = "who wrote it", "the film was fun and the cat is in paris"
    with torch.no_grad():  # start and end logits highest at [CLS]: "no answer" wins where it is allowed
        hidden = model.base_model(**tokenizer(question, context, return_tensors="pt")).last_hidden_state[0]
        towards_cls = hidden[0] - hidden[1:].mean(0)
        model.qa_outputs.weight.copy_(torch.stack([towards_cls, towards_cls]) * 10 / towards_cls.norm())
        model.qa_outputs.bias.zero_()
    model.config.bertstudio = {**model.config.bertstudio, "null_answers": True}
    v2 = tmp_path / "v2"
    export_onnx(save_model(model, tokenizer, tmp_path / "model"), v2, quantize=False)
    assert read_meta(v2)["null_answers"] is True
    v1 = tmp_path / "v1"  # the same export as a v1.1 model's (and one made before the key existed)
    shutil.copytree(v2, v1)
    meta = json.loads((v1 / "labels.json").read_text())
    (v1 / "labels.json").write_text(json.dumps({k: v for k, v in meta.items() if k != "null_answers"}))
    examples = from_records("qa", [{"id": "q", "question": question, "context": context, "answers": None}])
    args = ["--question", question, "--context", context]
    for out, null in ((v2, True), (v1, False)):
        done = run_standalone(out, args, tmp_path)
        assert done.returncode == 0, done.stderr
        capsys.readouterr()
        assert main(["predict", "--model", str(out / "model.onnx"), *args]) == 0
        ours = json.loads(capsys.readouterr().out)
        _, rows = evaluate_onnx(out / "model.onnx", examples)
        answers = [json.loads(done.stdout)["answer"], ours["answer"], rows[0]["answer"]]
        assert answers == [""] * 3 if null else all(answers) and len(set(answers)) == 1, answers


def test_the_export_childs_refusal_comes_back_with_its_facts(tmp_path):
    """The child's error crossed the queue without its facts, so the app's "Export failed" box said
    the core's English inside a Chinese window: the facts come back, as plain data only."""
    import pickle
    import queue

    from bertstudio.train.onnx_export import _export_child, _outcome

    model_dir = tmp_path / "model"  # the target is checked first: no model is loaded
    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("keep", encoding="utf-8")
    messages: queue.Queue = queue.Queue()
    _export_child(str(model_dir), str(full), False, messages, threading.Event())
    last = messages.queue[-1]
    assert all(not isinstance(part, BaseException) for part in last)
    assert pickle.loads(pickle.dumps(last)) == last  # what crosses is plain data
    with pytest.raises(ConfigError) as info:
        _outcome(last)
    assert info.value.facts == {"refusal": "export_not_empty", "folder": str(full)}
    assert str(info.value) == (f"{full}, export: the export folder is not empty (expected a new or empty folder "
                               "(an export never overwrites files))")  # the CLI's line as before
    # a file on the way: the folder check's facts (data/atomic.check_folder_path)
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    messages = queue.Queue()
    _export_child(str(model_dir), str(tmp_path / "afile" / "out"), False, messages, threading.Event())
    with pytest.raises(ConfigError) as info:
        _outcome(messages.queue[-1])
    assert info.value.facts == {"refusal": "parent_is_file", "folder": str(tmp_path / "afile" / "out"),
                                "parent": str(tmp_path / "afile")}


def test_predict_pys_split_of_typed_chinese_is_bertstudios():
    """predict.py restates bertstudio.tasks.typed_words (it must not import bertstudio): the two
    rules cut the same strings the same way, and take the same code points for ideographs."""
    from bertstudio.tasks import typed_words
    from bertstudio.train import standalone_predict as standalone

    typed = ["北京是中国的首都", "在2008年 北a京b 中国人a", "iPhone手机 ok", "我 2008年 去 ok", "北京，上海。",
             "Ｆｕｌｌ１２３ 全角ＡＢＣ漢字", "東京タワー ソウル서울", "𠀀𠀁 豈更 㐀 U+4E00一", "  spaced   out  ", "",
             "a-b 北-京 「引号」 (括号)", "１９９８年３月", "e\u0301 北\u0301京"]
    for text in typed:
        for cjk_words in ("chars", "words", None):
            words = typed_words.read_words(text, cjk_words)
            assert standalone.read_words(text, cjk_words) == words, (text, cjk_words)
            assert standalone.whole_cjk_words(words) == typed_words.whole_cjk_words(words), (text, cjk_words)
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    assert standalone._CJK_IDEOGRAPH.findall(every) == typed_words._IDEOGRAPH.findall(every)
    assert standalone.CJK_WORDS == typed_words.CJK_WORDS


def test_an_export_of_a_chinese_per_character_tagger_reads_typed_chinese_as_its_model_does(tiny, tmp_path, capsys):
    """A tagging model trained one Chinese character per token read 北京是首都 as five words, and its
    ONNX export as one (one tag) in `bertstudio predict` and silently in predict.py: labels.json did not
    keep config.json's cjk_words (sweep_hostile52 defect 2)."""
    import shutil

    from bertstudio.data.examples import from_records
    from bertstudio.tasks.model import build_model, save_model
    from bertstudio.tasks.typed_words import record_cjk_words

    labels = ["O", "B-LOC", "I-LOC"]
    torch.manual_seed(0)
    model, tokenizer = build_model("tagging", tiny, labels=labels)
    record_cjk_words(model, from_records("tagging", [{"tokens": list("北京很大"), "tags": ["B-LOC", "I-LOC", "O", "O"]}],
                                         labels=labels))  # as training does, from its tokens
    model_dir = save_model(model, tokenizer, tmp_path / "model")
    out = tmp_path / "export"
    assert main(["--quiet", "export-onnx", "--model", str(model_dir), "--out", str(out), "--no-int8"],
                out=io.StringIO()) == 0
    assert json.loads((out / "labels.json").read_text(encoding="utf-8"))["cjk_words"] == "chars"
    capsys.readouterr()
    typed = "北京是首都 在2008年 iPhone手机"
    words = list("北京是首都") + ["在", "2008", "年", "iPhone", "手", "机"]
    answers = []
    for model_path in (model_dir, out / "model.onnx"):
        assert main(["predict", "--model", str(model_path), "--tokens", typed]) == 0
        captured = capsys.readouterr()
        answers.append(json.loads(captured.out)["tags"])
        assert len(answers[-1]) == len(words) and "read as one word" not in captured.err, captured.err
    done = run_standalone(out, ["--tokens", typed], tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    answers.append(json.loads(done.stdout)["tags"])
    assert answers[0] == answers[1] == answers[2]
    # an export that keeps no cjk_words (made before it was kept) reads the words whole, and says so
    older = tmp_path / "older"
    shutil.copytree(out, older)
    meta = json.loads((older / "labels.json").read_text(encoding="utf-8"))
    del meta["cjk_words"]
    (older / "labels.json").write_text(json.dumps(meta), encoding="utf-8")
    from bertstudio.train import standalone_predict as standalone

    assert standalone.main(["--model", str(older / "model.onnx"), "--tokens", typed]) == 0  # in process: faster
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["tags"]) == 3, captured.err
    notes = captured.err.strip().splitlines()
    assert len(notes) == 3 and "'北京是首都' was read as one word" in notes[0] and "iPhone手机" in notes[2], notes
