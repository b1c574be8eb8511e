"""push-to-hub with hostile folders: a link that would publish a private file, folders that would not
load or predict for whoever downloads them, and a config.json the model card cannot read. Each is one
ConfigError naming the file before any call to the Hub (the recorded HfApi of test_hub stands in)."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("huggingface_hub", reason="the export extra is not installed")

from test_hub import RecordingApi, run_dir, token  # noqa: E402,F401 - the trained run and the token fixture

from bertstudio.cli import main  # noqa: E402
from bertstudio.errors import ConfigError  # noqa: E402
from bertstudio.train.hub import model_card, push_to_hub, resolve_source  # noqa: E402

SECRET = b"alice@example.com\tdiagnosis: private\n"


def _refused(folder: Path, token: str, words: str | None = None) -> ConfigError:
    api = RecordingApi()
    with pytest.raises(ConfigError, match=words) as info:
        push_to_hub(folder, "me/x", token=token, api=api)
    assert api.calls == [], folder.name  # nothing reached the Hub, not even create_repo
    assert "\n" not in str(info.value)
    return info.value


def _model(run_dir: Path, tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(run_dir / "model", tmp_path / name))


def _edit_config(folder: Path, **changes: Any) -> Path:
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(json.dumps({**config, **changes}), encoding="utf-8")
    return folder


@pytest.fixture
def secret(tmp_path) -> Path:
    path = tmp_path / "private" / "patients.tsv"
    path.parent.mkdir()
    path.write_bytes(SECRET)
    return path


# --- 1. links -------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["notes.txt", "sub/notes.txt", "tokenizer.json"])
def test_a_link_to_a_file_outside_the_folder_is_never_followed(run_dir, tmp_path, token, secret, where):
    """`ln -s ~/private.tsv model/notes.txt` uploaded the private file's content under notes.txt."""
    folder = _model(run_dir, tmp_path, "m_link")
    link = folder / where
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    os.symlink(secret, link)
    error = _refused(folder, token, "symbolic link")
    assert error.path == str(link)


def test_links_inside_the_folder_and_linked_folders_are_refused_too(run_dir, tmp_path, token, secret):
    inside = _model(run_dir, tmp_path, "inside")
    (inside / "tokenizer.json").rename(inside / "tok.json")
    os.symlink(inside / "tok.json", inside / "tokenizer.json")
    _refused(inside, token, "symbolic link")
    linked_dir = _model(run_dir, tmp_path, "linked_dir")
    os.symlink(secret.parent, linked_dir / "extra")
    _refused(linked_dir, token, "symbolic link")
    run = tmp_path / "run"  # a run folder whose model/ is a link to another folder
    run.mkdir()
    shutil.copy(run_dir / "config.toml", run / "config.toml")
    os.symlink(run_dir / "model", run / "model")
    _refused(run, token, "symbolic link")


def test_a_file_swapped_for_a_link_after_the_checks_is_not_uploaded(run_dir, tmp_path, token, secret, monkeypatch):
    """The staging folder names the folder's files, never what they resolve to, and looks again."""
    import bertstudio.train.hub as hub

    folder = _model(run_dir, tmp_path, "swapped")
    checked = hub.check_pushable

    def check_then_swap(source: Any, report: Any = None) -> None:
        checked(source, report)
        (folder / "tokenizer.json").unlink()
        os.symlink(secret, folder / "tokenizer.json")

    monkeypatch.setattr(hub, "check_pushable", check_then_swap)
    api = RecordingApi()
    with pytest.raises(ConfigError, match="symbolic link"):
        push_to_hub(folder, "me/x", token=token, api=api)
    assert "upload_folder" not in [name for name, _ in api.calls]
    assert all(SECRET not in content for content in api.uploaded.values())


def test_hidden_files_and_folders_stay_home(run_dir, tmp_path, token):
    folder = _model(run_dir, tmp_path, "hidden")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("url = https://user:hf_secret@huggingface.co/x\n", encoding="utf-8")
    (folder / ".env").write_text("HF_TOKEN=hf_secret\n", encoding="utf-8")
    api = RecordingApi()
    push_to_hub(folder, "me/x", token=token, api=api)
    assert set(api.uploaded) == {p.name for p in (run_dir / "model").iterdir()} | {"README.md"}


@pytest.mark.parametrize("name", ["pytorch_model.bin", "training_args.bin", "sub/optimizer.pt", "head.pkl", "scaler.joblib"])
def test_a_pickle_beside_the_safetensors_is_never_uploaded(run_dir, tmp_path, token, name):
    """model.safetensors plus a code-running pytorch_model.bin passed every check and went up: transformers
    prefers the safetensors, but whoever torch.loads the .bin runs its code (a hostile-input sweep).
    It is left out and named like any other file that is not the model's: refusing the whole push for
    it blocked every folder saved by Trainer.save_model (training_args.bin)."""
    import pickle

    folder = _model(run_dir, tmp_path, "m_pickle")
    target = folder / name
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(pickle.dumps({"weights": [1.0]}))
    api = RecordingApi()
    result = push_to_hub(folder, "me/x", token=token, api=api)
    assert Path(name) in result.left_out
    assert Path(name).name not in api.uploaded and name not in api.uploaded


def test_a_folder_that_is_not_there_is_said_so(tmp_path, token):
    """It said "nothing to push here" of a path that does not exist."""
    assert "no such folder" in str(_refused(tmp_path / "nowhere", token))
    (tmp_path / "a_file").write_text("x", encoding="utf-8")
    assert "not a folder" in str(_refused(tmp_path / "a_file", token))


# --- 2. what goes up must load and predict --------------------------------------------------------


def _nan_weights(folder: Path) -> Path:
    from safetensors.torch import load_file, save_file

    tensors = load_file(folder / "model.safetensors")
    name = next(k for k in tensors if k.startswith("classifier") and k.endswith("weight"))
    tensors[name] = tensors[name].clone().fill_(float("nan"))
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    return folder


def test_a_model_folder_that_does_not_load_or_predict_is_never_uploaded(run_dir, tmp_path, token):
    cases = {
        "heads0": _edit_config(_model(run_dir, tmp_path, "heads0"), num_attention_heads=0),
        "id2label gap": _edit_config(_model(run_dir, tmp_path, "gap"), id2label={"0": "neg", "2": "pos"},
                                     label2id={"neg": 0, "pos": 2}),
        "nan weights": _nan_weights(_model(run_dir, tmp_path, "nan")),
        "task list": _edit_config(_model(run_dir, tmp_path, "task_list"), bertstudio={"task": ["sentence"]}),
    }
    truncated = _model(run_dir, tmp_path, "truncated")
    data = (truncated / "model.safetensors").read_bytes()
    (truncated / "model.safetensors").write_bytes(data[: len(data) // 2])
    cases["truncated weights"] = truncated
    for case, folder in cases.items():
        error = _refused(folder, token)
        assert str(folder) in str(error), case


def test_the_loaders_refusal_is_the_pushs(run_dir, tmp_path, token, monkeypatch):
    """load_model's ConfigError (missing or unexpected weights, NaN, bad config values) stops the push in
    its own words."""
    def refuse(model_dir: Any) -> Any:
        raise ConfigError("model.safetensors lacks classifier.weight", path=Path(model_dir) / "model.safetensors",
                          expected="every weight of the model")

    monkeypatch.setattr("bertstudio.tasks.model.load_model", refuse)
    error = _refused(run_dir, token, "lacks classifier.weight")
    assert error.path.endswith("model.safetensors") and "not pushed" in str(error)


def test_a_weights_file_without_the_classifier_is_never_uploaded(run_dir, tmp_path, token):
    from safetensors.torch import load_file, save_file

    folder = _model(run_dir, tmp_path, "nohead")
    tensors = {k: v for k, v in load_file(folder / "model.safetensors").items() if not k.startswith("classifier")}
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    _refused(folder, token)


@pytest.fixture(scope="module")
def export(run_dir, tmp_path_factory) -> Path:
    pytest.importorskip("onnxscript", reason="the export extra is not installed")
    from bertstudio.train.onnx_export import export_onnx

    return export_onnx(run_dir / "model", tmp_path_factory.mktemp("hub_hostile") / "export", quantize=False).folder


def test_an_export_that_does_not_load_or_predict_is_never_uploaded(export, tmp_path, token):
    import onnx
    from onnx import TensorProto, helper

    renamed = Path(shutil.copytree(export, tmp_path / "in_foo"))  # its input is not input_ids
    graph = helper.make_graph([helper.make_node("Identity", ["foo"], ["logits"])], "g",
                              [helper.make_tensor_value_info("foo", TensorProto.FLOAT, ["b", 2])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["b", 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(renamed / "model.onnx"))
    mpe = Path(shutil.copytree(export, tmp_path / "mpe_str"))
    meta = json.loads((mpe / "labels.json").read_text(encoding="utf-8"))
    (mpe / "labels.json").write_text(json.dumps({**meta, "max_position_embeddings": "abc"}), encoding="utf-8")
    for folder in (renamed, mpe):
        error = _refused(folder, token)
        assert str(folder) in str(error)


def test_a_sound_export_still_goes_up(export, token):
    api = RecordingApi()
    push_to_hub(export, "me/x", token=token, api=api)
    assert {"model.onnx", "labels.json", "README.md"} <= set(api.uploaded)


# --- 3. a config.json the card cannot read ---------------------------------------------------------


@pytest.mark.parametrize(("changes", "field"), [
    ({"bertstudio": "x"}, "bertstudio"),
    ({"bertstudio": ["sentence"]}, "bertstudio"),
    ({"id2label": {"a": "pos", "b": "neg"}, "label2id": {"pos": "a", "neg": "b"}}, "id2label"),
    ({"id2label": ["neg", "pos"]}, "id2label"),
])
def test_a_config_the_card_cannot_read_is_one_line(run_dir, tmp_path, token, monkeypatch, capsys, changes, field):
    folder = _edit_config(_model(run_dir, tmp_path, "cfg"), **changes)
    error = _refused(folder, token, field)
    assert error.path == str(folder / "config.json") and error.where == field
    with pytest.raises(ConfigError, match=field):
        model_card(resolve_source(folder), "me/x")
    api = RecordingApi()
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: api)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    capsys.readouterr()
    assert main(["--quiet", "push-to-hub", "--model", str(folder), "--repo-id", "me/x"], out=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "config.json" in err[0] and field in err[0], err
    assert api.calls == []
