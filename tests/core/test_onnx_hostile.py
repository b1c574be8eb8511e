"""Hostile or damaged ONNX exports: a labels.json field of the wrong type or range, a kind that
does not fit the graph, a graph whose inputs or outputs are not what the kind feeds and reads.
``bertstudio predict --model DIR/model.onnx`` and the export's standalone predict.py each refuse
them in one line, exit 2 (they failed with KeyError, ValueError, OverflowError, onnxruntime's
InvalidArgument, or printed a plausible prediction with exit 0)."""

from __future__ import annotations

import io
import json
import shutil
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
