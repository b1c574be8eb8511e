"""Hostile or damaged ONNX exports: a labels.json field of the wrong type or range, a kind that
does not fit the graph, a graph whose inputs or outputs are not what the kind feeds and reads.
``bertstudio predict --model DIR/model.onnx`` and the export's standalone predict.py each refuse
them in one line, exit 2 (they failed with KeyError, ValueError, OverflowError, onnxruntime's
InvalidArgument, or printed a plausible prediction with exit 0)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

pytest.importorskip("onnxruntime", reason="the export extra is not installed")
pytest.importorskip("onnxscript", reason="the export extra is not installed")
onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402

from bertstudio.cli import main  # noqa: E402
from bertstudio.errors import ConfigError  # noqa: E402
from bertstudio.train import standalone_predict  # noqa: E402
from bertstudio.train.onnx_export import export_onnx, onnx_predictor, read_meta  # noqa: E402

TEXT = ["--text", "a fine film"]
QA = ["--question", "who ran?", "--context", "a man ran home"]
TOKENS = ["--tokens", "a man ran"]


@pytest.fixture(scope="module")
def export(tiny, tmp_path_factory) -> Path:
    """A good fp32 export of a tiny two-label sentence model."""
    import torch

    from bertstudio.tasks.model import build_model, save_model

    root = tmp_path_factory.mktemp("onnx-hostile")
    torch.manual_seed(0)
    model, tokenizer = build_model("sentence", tiny, labels=["neg", "pos"])
    model_dir = save_model(model, tokenizer, root / "model")
    export_onnx(model_dir, root / "export", quantize=False)
    return root / "export"


def _copy(export: Path, dest: Path, change: Callable[[dict[str, Any]], Any] | None = None) -> Path:
    shutil.copytree(export, dest)
    if change is not None:
        meta = json.loads((dest / "labels.json").read_text(encoding="utf-8"))
        replaced = change(meta)
        (dest / "labels.json").write_text(json.dumps(meta if replaced is None else replaced), encoding="utf-8")
    return dest


def _refused_by_both(folder: Path, args: list[str], fragment: str, capsys) -> None:
    """``bertstudio predict`` and the standalone predict.py: exit 2, one line naming ``fragment``."""
    code = main(["predict", "--model", str(folder / "model.onnx"), *args], out=io.StringIO())
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and fragment in lines[0], err
    assert "internal error" not in err and "Traceback" not in err
    code = standalone_predict.main(["--model", str(folder / "model.onnx"), *args])
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and fragment in lines[0] and lines[0].startswith("predict.py: error:"), err


def _set(**values: Any) -> Callable[[dict[str, Any]], None]:
    def change(meta: dict[str, Any]) -> None:
        for key, value in values.items():
            if value is ...:
                meta.pop(key)
            else:
                meta[key] = value

    return change


@pytest.mark.parametrize(("change", "key"), [
    (_set(max_position_embeddings="abc"), "max_position_embeddings"),  # was ValueError
    (_set(max_position_embeddings=float("inf")), "max_position_embeddings"),  # was OverflowError
    (_set(max_position_embeddings=0), "max_position_embeddings"),
    (_set(max_length="abc"), "max_length"),
    (_set(max_length=-5), "max_length"),
    (_set(max_length=10**9), "max_length"),
    (_set(max_length=512), "max_length"),  # more than the model's 256 positions
    (_set(max_length=32.5), "max_length"),
    (_set(max_length=...), "max_length"),
    (_set(doc_stride=-1), "doc_stride"),
    (_set(n_best=0), "n_best"),
    (_set(max_answer_length="30"), "max_answer_length"),
    (_set(pad_token_id="x"), "pad_token_id"),
    (_set(pad_token_id=10**6), "pad_token_id"),  # not a token of the tokenizer
    (_set(kind=["sentence"]), "kind"),
    (_set(kind="foo"), "kind"),
    (_set(decode="evil"), "decode"),
    (_set(labels=["neg", 3]), "labels"),
    (_set(labels=[]), "labels"),
    (_set(labels=["neg", "\ud800"]), "labels"),  # a lone surrogate: UnicodeEncodeError printing the prediction
    (_set(inputs=["text", "nope"]), "inputs"),
    (_set(optional_inputs="text_pair"), "optional_inputs"),
    (_set(model_inputs=["input_ids"]), "model_inputs"),
    (_set(model_outputs=["nope"]), "model_outputs"),
    (_set(glue_task=[1]), "glue_task"),
    (_set(format=2), "format"),
    (_set(format=True), "format"),
    (lambda meta: [meta], "labels.json"),
])
def test_a_labels_json_field_of_the_wrong_type_or_range_is_one_line(change, key, export, tmp_path, capsys):
    bad = _copy(export, tmp_path / "bad", change)
    with pytest.raises(ConfigError) as caught:
        onnx_predictor(bad / "model.onnx")
    assert caught.value.path.endswith("labels.json") and key in str(caught.value)
    _refused_by_both(bad, TEXT, key, capsys)


@pytest.mark.parametrize(("change", "args", "fragment"), [
    # the kind alone changed: its decoder and inputs are another kind's
    (_set(kind="qa"), QA, "decode"),  # was KeyError 'start_logits'
    (_set(kind="tagging"), TOKENS, "decode"),  # was IndexError
    (_set(kind="regression", labels=[]), TEXT, "labels"),  # printed a score, exit 0
    (_set(kind="pair"), TEXT, "inputs"),
    # labels.json consistent in itself, but the graph gives what another kind reads
    (_set(kind="qa", decode="span", inputs=["question", "context"], labels=[]), QA, "start_logits"),
    (_set(kind="tagging", decode="tags", inputs=["tokens"]), TOKENS, "logits"),
    (_set(kind="regression", decode="score", inputs=["text"], optional_inputs=["text_pair"], labels=[]), TEXT,
     "one output"),
])
def test_a_kind_the_graph_does_not_fit_is_refused(change, args, fragment, export, tmp_path, capsys):
    bad = _copy(export, tmp_path / "bad", change)
    with pytest.raises(ConfigError, match=fragment):
        onnx_predictor(bad / "model.onnx")
    _refused_by_both(bad, args, fragment, capsys)


# --- graphs that do not take or give what the kind needs ----------------------------------------

INT, FLOAT = TensorProto.INT64, TensorProto.FLOAT
BS = ["batch", "sequence"]
STANDARD = {"input_ids": (INT, BS), "attention_mask": (INT, BS), "token_type_ids": (INT, BS)}


def _graph(folder: Path, inputs: dict[str, tuple[int, list]], outputs: dict[str, tuple[int, list]],
           source: str = "input_ids", width: int | None = 2) -> None:
    """model.onnx replaced by a graph with these inputs and outputs, each output ``source`` cast to
    the output's type (cut to ``width`` columns when given): it loads and runs in ONNX Runtime."""
    nodes, initializers = [], []
    if width is not None:
        initializers = [helper.make_tensor(n, INT, [1], [v]) for n, v in (("zero", 0), ("width", width), ("one", 1))]
        nodes.append(helper.make_node("Slice", [source, "zero", "width", "one"], ["cut"]))
        source = "cut"
    for name, (dtype, _) in outputs.items():
        nodes.append(helper.make_node("Cast", [source], [name], to=dtype))
    graph = helper.make_graph(
        nodes, "hostile", [helper.make_tensor_value_info(n, t, s) for n, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(n, t, s) for n, (t, s) in outputs.items()], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(folder / "model.onnx"))


@pytest.mark.parametrize(("inputs", "outputs", "width", "fragment"), [
    ({**STANDARD, "foo": (INT, BS)}, {"logits": (FLOAT, ["batch", 2])}, 2, "'foo'"),  # was KeyError 'foo'
    ({**STANDARD, "input_ids": (FLOAT, BS)}, {"logits": (FLOAT, ["batch", 2])}, 2, "tensor(float)"),  # InvalidArgument
    ({"input_ids": (INT, BS), "token_type_ids": (INT, BS)}, {"logits": (FLOAT, ["batch", 2])}, 2, "attention_mask"),
    ({**STANDARD, "input_ids": (INT, [1, 8])}, {"logits": (FLOAT, ["batch", 2])}, 2, "shape"),
    (STANDARD, {"logits": (INT, ["batch", 2])}, 2, "tensor(int64)"),  # int logits
    (STANDARD, {"logits": (INT, BS)}, None, "tensor(int64)"),  # was ValueError: shape mismatch
    (STANDARD, {"logits": (FLOAT, BS)}, None, "no fixed size"),
    (STANDARD, {"logits": (FLOAT, ["batch", "sequence", 2])}, None, "rank"),
    (STANDARD, {"logits": (FLOAT, ["batch", 3])}, 3, "2 labels for a model with 3 outputs"),
    (STANDARD, {"logits": (FLOAT, ["batch", 2]), "extra": (FLOAT, ["batch", 2])}, 2, "model_outputs"),
    (STANDARD, {"logits": (FLOAT, ["batch", 2])}, None, "came back"),  # declares [batch, 2], returns [batch, sequence]
])
def test_a_graph_that_does_not_fit_its_kind_is_refused(inputs, outputs, width, fragment, export, tmp_path, capsys):
    bad = _copy(export, tmp_path / "bad")
    _graph(bad, inputs, outputs, width=width)
    _refused_by_both(bad, TEXT, fragment, capsys)


def test_the_checks_let_a_graph_of_the_right_shape_through(export, tmp_path, capsys):
    """The hand-made graph the refusals above start from is itself accepted, so each case is
    refused for what it changes."""
    good = _copy(export, tmp_path / "good")
    _graph(good, STANDARD, {"logits": (FLOAT, ["batch", 2])})
    assert onnx_predictor(good / "model.onnx").predict(text="a fine film")["label"] in ("neg", "pos")
    assert standalone_predict.main(["--model", str(good / "model.onnx"), *TEXT]) == 0
    assert json.loads(capsys.readouterr().out)["label"] in ("neg", "pos")


# --- the standalone script's own inputs, and the two predictors agreeing -------------------------


def test_standalone_refuses_missing_or_malformed_inputs_in_one_line(export, tmp_path, capsys):
    """A missing input was SystemExit with a message (exit 1); a --jsonl line that is not an
    object of inputs a TypeError or JSONDecodeError traceback."""
    model = str(export / "model.onnx")
    assert standalone_predict.main(["--model", model, *QA]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("predict.py: error:") and "needs text" in err and len(err.splitlines()) == 1
    for line, fragment in (("not json", "not JSON"), ('["a"]', "not an object"), ('{"txt": "a"}', "not an object"),
                           ('{"text": 3}', "'text' must be text"), ('{"tokens": "a b"}', "'tokens' must be a list")):
        jsonl = tmp_path / "in.jsonl"
        jsonl.write_text('{"text": "fine"}\n\n' + line + "\n", encoding="utf-8")
        assert standalone_predict.main(["--model", model, "--jsonl", str(jsonl)]) == 2, line
        captured = capsys.readouterr()
        assert len(captured.out.strip().splitlines()) == 1  # the good first line was predicted
        err = captured.err.strip()
        assert len(err.splitlines()) == 1 and "line 3" in err and fragment in err, (line, err)
    assert standalone_predict.main(["--model", model, "--jsonl", str(tmp_path / "absent.jsonl")]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_bertstudio_cuts_inputs_at_the_exports_max_length(export, tmp_path):
    """The ONNX predictor read max_length from TrainConfig's default (128), the export's predict.py
    from labels.json: a long text gave two predictions. Both now read labels.json."""
    short = _copy(export, tmp_path / "short", _set(max_length=8))
    predictor = onnx_predictor(short / "model.onnx")
    assert predictor.lengths["max_length"] == 8 == read_meta(short)["max_length"]
    text = " ".join(["a fine film that is great"] * 10)
    got = predictor.predict(text=text)
    want = standalone_predict.Predictor(short).predict(text=text)
    assert got["label"] == want["label"]
    assert got["probs"] == pytest.approx(want["probs"], abs=1e-4)


def test_the_standalone_kind_table_is_bertstudios_registry():
    """predict.py cannot import bertstudio, so it restates each kind's decoder and inputs; a kind
    added or changed in the registry must be added or changed there too."""
    from bertstudio.data.kinds import get_spec, kind_names
    from bertstudio.train.families import family

    exportable = {k for k in kind_names() if family(get_spec(k)) is not None}
    assert set(standalone_predict.KINDS) == exportable
    for kind, (decode, inputs, optional) in standalone_predict.KINDS.items():
        spec = get_spec(kind)
        assert (decode, inputs, optional) == (family(spec), tuple(spec.inputs), tuple(spec.optional_inputs))
        assert set(standalone_predict.DECODE_INPUTS[decode]) <= set(inputs)


# --- hostile arguments and files given to the standalone predict.py ------------------------------


def _refused(args: list[str], capsys, *fragments: str) -> str:
    """predict.py's main: exit 2, one line on stderr holding every fragment; returns stdout."""
    code = standalone_predict.main(args)
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("predict.py: error:"), captured.err
    assert all(f in lines[0] for f in fragments), (fragments, lines[0])
    return captured.out


def _script(args: list[str], cwd: Path, timeout: float = 60, **options: Any) -> tuple[int | None, str, str]:
    """predict.py run as a program, as a user runs it: (exit code, stdout, stderr); exit None if it
    had not ended after ``timeout`` seconds (it was waiting on a FIFO, or starting 100000 threads)."""
    try:
        done = subprocess.run([sys.executable, standalone_predict.__file__, *args], cwd=cwd, capture_output=True,
                              timeout=timeout, **options)
    except subprocess.TimeoutExpired:
        return None, "", "timed out"
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def _one_line_exit_2(result: tuple[int | None, str, str], *fragments: str) -> None:
    code, _, err = result
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("predict.py: error:"), (code, err)
    assert all(f in lines[0] for f in fragments), (fragments, lines[0])


@pytest.mark.parametrize(("args", "argument"), [
    (["--text", "a fine \udcff film"], "--text"),  # was TypeError in the tokenizer
    (["--text", "fine", "--text-pair", "\udcff"], "--text-pair"),
    (["--tokens", "a \udcffman"], "--tokens"),
    (["--question", "who \udcff?", "--context", "a man ran"], "--question"),
    (["--question", "who?", "--context", "\ud800"], "--context"),
])
def test_standalone_refuses_arguments_that_are_not_utf8(args, argument, export, capsys):
    """On Linux an argument's bytes that are not UTF-8 reach sys.argv as lone surrogates."""
    _refused(["--model", str(export / "model.onnx"), *args], capsys, argument, "not valid Unicode text")


def test_standalone_refuses_undecodable_argument_bytes_as_a_program(export, tmp_path):
    """The same, with real bytes on a real command line."""
    args = [b"--model", os.fsencode(export / "model.onnx"), b"--text", b"a fine \xff film"]
    _one_line_exit_2(_script(args, tmp_path), "--text", "0xff")


@pytest.mark.parametrize(("line", "fragments"), [
    (b'{"text": "\\ud800"}', ("'text'", "lone surrogate")),  # a JSON escape: was TypeError in the tokenizer
    (b'{"text": "fine \xff"}', ("not UTF-8", "0xff")),  # was "cannot be read", with no line
    (b'{"text": "\xed\xa0\x80"}', ("not UTF-8",)),  # a surrogate written as UTF-8 bytes
])
def test_standalone_refuses_jsonl_lines_that_are_not_unicode_text(line, fragments, export, tmp_path, capsys):
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_bytes(b'{"text": "fine"}\n\n' + line + b"\n")
    out = _refused(["--model", str(export / "model.onnx"), "--jsonl", str(jsonl)], capsys, "in.jsonl, line 3",
                   *fragments)
    assert len(out.strip().splitlines()) == 1  # the good first line was predicted


def test_standalone_reads_every_json_line_and_standard_input(export, tmp_path, capsys, monkeypatch):
    """A JSON string may hold U+2028 (it was cut there as a line break: "not JSON"), the file may
    start with a byte order mark and end its lines with CRLF; --jsonl - reads standard input."""
    jsonl = tmp_path / "in.jsonl"
    body = '{"text": "a fine\u2028film"}\r\n{"text": "fine\u0085"}\r\n'.encode("utf-8")
    jsonl.write_bytes(b"\xef\xbb\xbf" + body)
    model = str(export / "model.onnx")
    assert standalone_predict.main(["--model", model, "--jsonl", str(jsonl)]) == 0, capsys.readouterr().err
    assert [json.loads(x)["label"] in ("neg", "pos") for x in capsys.readouterr().out.splitlines()] == [True, True]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    assert standalone_predict.main(["--model", model, "--jsonl", "-"]) == 0, capsys.readouterr().err
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_standalone_refuses_a_jsonl_that_is_not_a_regular_file(export, tmp_path, capsys):
    """A FIFO made predict.py wait for a writer forever; a device was read as an empty file."""
    model = str(export / "model.onnx")
    fifo = tmp_path / "in.jsonl"
    os.mkfifo(fifo)
    _one_line_exit_2(_script(["--model", model, "--jsonl", str(fifo)], tmp_path), "in.jsonl", "named pipe",
                     "--jsonl -")
    _refused(["--model", model, "--jsonl", str(tmp_path)], capsys, "a folder, not a regular file")
    if os.path.exists(os.devnull):
        _refused(["--model", model, "--jsonl", os.devnull], capsys, "a device, not a regular file")


@pytest.mark.parametrize("name", ["labels.json", "tokenizer.json", "model.onnx"])
def test_standalone_refuses_export_files_that_are_not_regular_files(name, export, tmp_path):
    """labels.json, tokenizer.json or the model as a FIFO: predict.py waited forever."""
    bad = _copy(export, tmp_path / "bad")
    (bad / name).unlink()
    os.mkfifo(bad / name)
    _one_line_exit_2(_script(["--model", str(bad / "model.onnx"), *TEXT], tmp_path), name, "named pipe")


@pytest.mark.parametrize("threads", ["0", "-1", "abc", "1.5", str(standalone_predict.MAX_THREADS + 1)])
def test_standalone_refuses_a_thread_count_out_of_range(threads, export, capsys):
    """0 and any count were taken (-1 was refused with argparse's usage block, a SystemExit)."""
    _refused(["--model", str(export / "model.onnx"), "--threads", threads, *TEXT], capsys, "--threads")


def test_standalone_takes_a_sane_thread_count_and_refuses_an_absurd_one(export, tmp_path, capsys):
    """--threads 100000 ran for minutes starting threads."""
    model = str(export / "model.onnx")
    for threads in ("1", "2"):
        assert standalone_predict.main(["--model", model, "--threads", threads, *TEXT]) == 0
        assert json.loads(capsys.readouterr().out)["label"] in ("neg", "pos")
    _one_line_exit_2(_script(["--model", model, "--threads", "100000", *TEXT], tmp_path), "--threads", "100000")


@pytest.mark.parametrize(("args", "fragments"), [
    (["--text", "fine"], ("--jsonl", "--text")),  # --text was silently ignored
    (["--tokens", "a b", "--question", "who"], ("--jsonl", "--tokens", "--question")),
])
def test_standalone_refuses_inline_inputs_with_jsonl(args, fragments, export, tmp_path, capsys):
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text('{"text": "fine"}\n', encoding="utf-8")
    out = _refused(["--model", str(export / "model.onnx"), "--jsonl", str(jsonl), *args], capsys, *fragments)
    assert out == ""


def test_standalone_refuses_inputs_the_model_does_not_read(export, tmp_path, capsys):
    """A sentence model given a text pair or a question predicted on the text alone, exit 0."""
    model = str(export / "model.onnx")
    _refused(["--model", model, *TEXT, "--text-pair", "a man"], capsys, "does not read text_pair")
    _refused(["--model", model, *TEXT, "--tokens", "a man"], capsys, "does not read tokens")
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text('{"text": "fine", "question": "who?"}\n', encoding="utf-8")
    _refused(["--model", model, "--jsonl", str(jsonl)], capsys, "line 1", "does not read question")


@pytest.mark.parametrize(("args", "fragments"), [
    (["--text", "a", "--text", "b"], ("--text", "given twice")),  # the first was silently dropped
    (["--threads", "1", "--threads", "2", *TEXT], ("--threads", "given twice")),
    (["--bogus", *TEXT], ("unrecognized arguments",)),  # was argparse's usage block and SystemExit
    (["--text"], ("--text", "expected one argument")),
    (["--jsonl", ""], ("--jsonl", "empty path")),  # was read as no --jsonl at all
])
def test_standalone_refuses_bad_arguments_in_one_line(args, fragments, export, capsys):
    _refused(["--model", str(export / "model.onnx"), *args], capsys, *fragments)


def test_standalone_refuses_a_model_path_that_is_not_a_model_file(export, tmp_path, capsys):
    """An empty --model fell back to model.onnx beside the script; a folder or a missing file was
    reported as a missing labels.json in the folder above."""
    _refused(["--model", "", *TEXT], capsys, "--model", "empty path")
    _refused(["--model", str(export), *TEXT], capsys, str(export), "a folder, not a regular file")
    _refused(["--model", str(export / "absent.onnx"), *TEXT], capsys, "absent.onnx", "no such file")
    _refused(["--model", str(tmp_path / "a\nb\udcff.onnx"), *TEXT], capsys, "a\\nb", "no such file")  # one line


def test_standalone_writes_to_an_output_that_cannot_show_every_character(export, tmp_path):
    """Non-ASCII label names on an ASCII (or Windows code page) stdout: UnicodeEncodeError."""
    odd = _copy(export, tmp_path / "odd", _set(labels=["n\u00e9gatif", "positif \u2713"]))
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    code, out, err = _script(["--model", str(odd / "model.onnx"), *TEXT], tmp_path, env=env)
    assert code == 0 and "Traceback" not in err, err
    assert set(json.loads(out)["probs"]) == {"n\u00e9gatif", "positif \u2713"}


def test_standalone_stops_quietly_when_its_reader_goes_away(export, tmp_path):
    """predict.py --jsonl FILE | head -1: BrokenPipeError's traceback."""
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text('{"text": "fine"}\n' * 5, encoding="utf-8")
    child = subprocess.Popen([sys.executable, standalone_predict.__file__, "--model", str(export / "model.onnx"),
                              "--jsonl", str(jsonl)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # before it writes: it is still loading the model
    try:
        err = child.communicate(timeout=60)[1].decode("utf-8", "replace")
    finally:
        child.kill()
    assert child.returncode == 1 and err == "", err


def test_standalone_refuses_a_model_that_gives_nan(export, tmp_path, capsys):
    """A graph whose logits are infinite or NaN: printed "NaN" (not JSON) as a prediction, exit 0."""
    bad = _copy(export, tmp_path / "bad")
    nodes = [helper.make_node("Slice", ["input_ids", "zero", "two", "one"], ["cut"]),
             helper.make_node("Cast", ["cut"], ["ids"], to=FLOAT),
             helper.make_node("Div", ["ids", "nothing"], ["logits"])]  # x / 0: inf, and 0 / 0: NaN
    initializers = [helper.make_tensor(n, INT, [1], [v]) for n, v in (("zero", 0), ("two", 2), ("one", 1))]
    initializers.append(helper.make_tensor("nothing", FLOAT, [], [0.0]))
    graph = helper.make_graph(nodes, "nan", [helper.make_tensor_value_info(n, t, s) for n, (t, s) in STANDARD.items()],
                              [helper.make_tensor_value_info("logits", FLOAT, ["batch", 2])], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(bad / "model.onnx"))
    out = _refused(["--model", str(bad / "model.onnx"), *TEXT], capsys, "model.onnx", "NaN or infinite")
    assert out == ""



@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_predict_reads_an_export_among_other_things_but_never_a_fifo_it_would_open(export, tmp_path, capsys):
    """``predict --model ~/Downloads/model.onnx``: a FIFO, a sub-folder of 10,001 files or a device
    link anywhere in that folder refused a good export, naming a file nobody reads (a hostile-input sweep)."""
    mixed = _copy(export, tmp_path / "Downloads")
    os.mkfifo(mixed / "zz_unrelated_pipe")
    (mixed / "photos").mkdir()
    for i in range(10_001):
        (mixed / "photos" / f"{i}.jpg").touch()
    (mixed / "old_model").mkdir()
    if os.path.exists(os.devnull):
        os.symlink(os.devnull, mixed / "old_model" / "model.safetensors")
    code = main(["predict", "--model", str(mixed / "model.onnx"), *TEXT], out=(out := io.StringIO()))
    assert code == 0, capsys.readouterr().err
    assert json.loads(out.getvalue())["label"] in ("neg", "pos")
    # what the tokenizer does open is still checked first: a FIFO there would block it for ever
    (mixed / "tokenizer_config.json").unlink()
    os.mkfifo(mixed / "tokenizer_config.json")
    code = main(["predict", "--model", str(mixed / "model.onnx"), *TEXT], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "tokenizer_config.json" in err and "not a regular file" in err, err


def test_evaluate_takes_the_export_file_its_own_message_names(export, tmp_path, capsys):
    """``evaluate --model EXPORT`` said "expected its model file, .../model.onnx, for predict and
    evaluate", and ``evaluate --model EXPORT/model.onnx`` then said "not a model folder"."""
    from bertstudio.train.engine import evaluate

    data = tmp_path / "dev.jsonl"
    data.write_text("".join(json.dumps({"text": t, "label": lab}) + "\n" for t, lab in
                            [("a fine film", "pos"), ("a dull film", "neg"), ("great fun", "pos"), ("awful", "neg")]),
                    encoding="utf-8")
    code = main(["evaluate", "--model", str(export), "--eval", str(data)], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and str(export / "model.onnx") in err
    out = io.StringIO()
    code = main(["evaluate", "--model", str(export / "model.onnx"), "--eval", str(data), "--out", str(tmp_path / "r")],
                out=out)
    assert code == 0, capsys.readouterr().err
    from bertstudio.data.io import load_examples

    expected, _ = evaluate(str(export.parent / "model"), load_examples(str(data), kind="sentence", labels=["neg", "pos"]),
                           precision="fp32")
    assert json.loads(out.getvalue()) == pytest.approx(expected)
    assert len((tmp_path / "r" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()) == 4
    code = main(["evaluate", "--model", str(export / "model.onnx"), "--eval", str(data), "--precision", "bf16"],
                out=io.StringIO())
    assert code == 2 and "--precision" in capsys.readouterr().err
    # --out inside the export folder would be pushed with it
    code = main(["evaluate", "--model", str(export / "model.onnx"), "--eval", str(data), "--out", str(export / "r")],
                out=io.StringIO())
    assert code == 2 and "inside the model folder" in capsys.readouterr().err and not (export / "r").exists()


def test_an_export_without_its_tokenizer_says_so(export, tmp_path, capsys):
    """transformers' own words were "Couldn't instantiate the backend tokenizer from one of: ()"."""
    bare = _copy(export, tmp_path / "bare")
    for name in ("tokenizer.json", "vocab.txt"):
        (bare / name).unlink(missing_ok=True)
    code = main(["predict", "--model", str(bare / "model.onnx"), *TEXT], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "no tokenizer files here" in err and str(bare) in err, err


def test_an_export_whose_process_is_killed_leaves_no_temporary_folder(export, tmp_path):
    """An export that never finished left its hidden ``.NAME-onnx.n….tmp`` folder in the run (the folder
    the export dialog offers first): the app's export removes it once its process has ended, however."""
    import multiprocessing

    from bertstudio.errors import BertStudioError
    from bertstudio.train.onnx_export import export_onnx_apart

    run = tmp_path / "alpha"
    run.mkdir()
    (run / "notes.txt").write_text("mine", encoding="utf-8")
    (run / ".notes.txt.n12345678.tmp").mkdir()  # not the export's: left alone
    seen: list[str] = []

    def progress(_fraction: float, step: Any) -> None:
        seen.append(getattr(step, "step", ""))
        if seen[-1] == "tracing":  # its temporary folder is being filled: the process dies there
            assert any(p.name.startswith(".alpha-onnx.n") for p in run.iterdir())
            for child in multiprocessing.active_children():
                if child.name == "bertstudio-onnx-export":
                    child.kill()

    with pytest.raises(BertStudioError, match="without a result"):
        export_onnx_apart(export.parent / "model", run / "alpha-onnx", quantize=False, progress=progress)
    assert "tracing" in seen
    assert sorted(p.name for p in run.iterdir()) == [".notes.txt.n12345678.tmp", "notes.txt"]
