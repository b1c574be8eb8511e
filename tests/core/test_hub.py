"""Pushing to the Hub: everything up to the network call is real (a trained run folder, the card,
the staging folder); only HfApi's calls are recorded instead of sent (there is no network here)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("huggingface_hub", reason="the export extra is not installed")

from helpers import sentiment  # noqa: E402

from bertstudio.cli import main  # noqa: E402
from bertstudio.errors import ConfigError  # noqa: E402
from bertstudio.train.hub import model_card, push_to_hub, resolve_source  # noqa: E402


class RecordingApi:
    """Stands in for huggingface_hub.HfApi at the network boundary: records each call and, for
    upload_folder, what the staged folder holds at that moment (it is deleted afterwards)."""

    def __init__(self, existing_public: bool = False) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.uploaded: dict[str, bytes] = {}
        self.existing_public = existing_public

    def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
        self.calls.append(("whoami", {"token": token}))
        return {"name": "me", "orgs": [{"name": "my-org"}]}

    def create_repo(self, repo_id: str, **kw: Any) -> str:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kw}))
        return f"https://huggingface.co/{repo_id}"

    def repo_info(self, repo_id: str, **kw: Any) -> Any:
        self.calls.append(("repo_info", {"repo_id": repo_id, **kw}))
        private = not self.existing_public and next(c for n, c in self.calls if n == "create_repo")["private"]
        return type("Info", (), {"private": private})()

    def upload_folder(self, **kw: Any) -> str:
        self.calls.append(("upload_folder", kw))
        root = Path(kw["folder_path"])
        self.uploaded = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        return "commit"


@pytest.fixture(scope="module")
def run_dir(tiny, tmp_path_factory) -> Path:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train

    out = tmp_path_factory.mktemp("hub") / "run"
    config = TrainConfig(task="sentence", model=tiny, epochs=1, lr=1e-3, batch_size=8, max_length=32,
                         labels=["neg", "pos"], output_dir=str(out), logging_steps=1)
    result = train(config, sentiment(32), sentiment(16, seed=1))
    assert result.status == "finished"
    return out


@pytest.fixture
def token(monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)
    return "hf_test_token"


def test_push_uploads_the_model_and_a_card_privately(run_dir, token):
    api = RecordingApi()
    result = push_to_hub(run_dir, "me/sentiment", token=token, api=api)
    assert result.url == "https://huggingface.co/me/sentiment"
    names = [n for n, _ in api.calls]
    # whose repository it is, create it, refuse a public one, upload, and its visibility after
    assert names == ["whoami", "create_repo", "repo_info", "upload_folder", "repo_info"]
    create = dict(api.calls)["create_repo"]
    assert create["private"] is True and create["token"] == token
    upload = dict(api.calls)["upload_folder"]
    assert upload["token"] == token and upload["repo_id"] == "me/sentiment"
    model_files = {p.name for p in (run_dir / "model").iterdir()}
    assert set(api.uploaded) == model_files | {"README.md"}
    assert api.uploaded["config.json"] == (run_dir / "model" / "config.json").read_bytes()
    assert not (run_dir / "model" / "README.md").exists()  # the card never lands in the user's folder


def test_the_card_is_written_from_the_run(run_dir):
    import json

    from huggingface_hub import ModelCard

    text = model_card(resolve_source(run_dir), "me/sentiment")
    card = ModelCard(text)
    assert card.data.pipeline_tag == "text-classification" and card.data.library_name == "transformers"
    assert "bertstudio" in card.data.tags and "sentence" in card.data.tags
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert f"| accuracy | {metrics['accuracy'] * 100:.2f}% |" in text
    assert "| lr | 0.001 |" in text and "| batch_size | 8 |" in text
    assert "32 training examples, 16 evaluation examples" in text
    assert "`neg`, `pos`" in text
    assert str(run_dir) not in text  # local paths stay private (the model is a local folder)
    assert card.data.base_model is None


def test_the_card_keeps_hostile_names_inside_their_lines_and_cells(run_dir, tmp_path):
    """Label names and run settings went into the card as they were: a newline and "---" ended
    its metadata early, a "|" added a table column, and a metric true read as 100.00."""
    import json
    import shutil

    from huggingface_hub import ModelCard

    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    config = json.loads((run / "model" / "config.json").read_text())
    config["id2label"] = {"0": "neg\n---\nlicense: evil", "1": "p|o`s"}
    (run / "model" / "config.json").write_text(json.dumps(config))
    metrics = json.loads((run / "metrics.json").read_text())
    (run / "metrics.json").write_text(json.dumps({**metrics, "flag": True, "odd|name": 0.5}))
    text = model_card(resolve_source(run), "me/sentiment")
    card = ModelCard(text)
    assert card.data.to_dict().get("license") is None and "bertstudio" in card.data.tags
    assert "`neg --- license: evil`, ``p|o`s``" in text
    assert "| odd\\|name | 50.00% |" in text and "| flag |" not in text
    body = text.split("---", 2)[2]
    tables = [line for line in body.splitlines() if line.startswith("|")]  # a "|" outside a table is text
    assert tables and all(line.count("|") - line.count("\\|") == 3 for line in tables)


def test_no_token_no_push(run_dir, token):
    api = RecordingApi()
    with pytest.raises(ConfigError, match="no Hugging Face token"):
        push_to_hub(run_dir, "me/sentiment", api=api)
    assert api.calls == []


def test_public_only_when_asked(run_dir, token):
    api = RecordingApi()
    push_to_hub(run_dir / "model", "me/sentiment", token=token, private=False, api=api)
    assert dict(api.calls)["create_repo"]["private"] is False
    # an existing public repository would publish a "private" push: refused before any upload
    api = RecordingApi(existing_public=True)
    with pytest.raises(ConfigError, match="public"):
        push_to_hub(run_dir, "me/sentiment", token=token, api=api)
    assert "upload_folder" not in [n for n, _ in api.calls]


def test_bad_repo_ids_and_folders_are_refused(run_dir, tmp_path, token):
    api = RecordingApi()
    with pytest.raises(ConfigError, match="repository id"):
        push_to_hub(run_dir, "me/../secret", token=token, api=api)
    with pytest.raises(ConfigError, match="nothing to push"):
        push_to_hub(tmp_path, "me/x", token=token, api=api)
    assert api.calls == []


def test_a_folder_that_would_not_load_or_runs_code_is_never_uploaded(run_dir, tmp_path, token):
    """Checked before any call to the Hub: a model folder whose config.json is damaged or brings its own
    code, one holding only a pickled pytorch_model.bin, and an export whose model.onnx is garbage."""
    import json
    import shutil

    cases = {}
    damaged = shutil.copytree(run_dir / "model", tmp_path / "damaged")
    (damaged / "config.json").write_text("{not json", encoding="utf-8")
    cases["damaged"] = (damaged, "config.json")
    code = shutil.copytree(run_dir / "model", tmp_path / "code")
    config = json.loads((code / "config.json").read_text(encoding="utf-8"))
    (code / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModel": "evil.Model"}}), encoding="utf-8")
    cases["auto_map"] = (code, "own Python code")
    pickled = shutil.copytree(run_dir / "model", tmp_path / "pickled")
    (pickled / "model.safetensors").rename(pickled / "pytorch_model.bin")
    cases["pickle only"] = (pickled, "no model.safetensors.*pickled pytorch_model.bin is not pushed")
    pytest.importorskip("onnxruntime")
    from bertstudio.train.onnx_export import export_onnx

    export = export_onnx(run_dir / "model", tmp_path / "export", quantize=False)
    export.fp32.write_bytes(b"garbage" * 100)
    cases["onnx garbage"] = (export.folder, "not a valid ONNX model")
    for case, (folder, words) in cases.items():
        api = RecordingApi()
        with pytest.raises(ConfigError, match=words):
            push_to_hub(folder, "me/x", token=token, api=api)
        assert api.calls == [], case


def test_cli_push_uses_the_cached_login(run_dir, monkeypatch, capsys):
    api = RecordingApi()
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: api)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    out = io.StringIO()
    assert main(["push-to-hub", "--model", str(run_dir), "--repo-id", "me/cli"], out=out) == 0
    create = dict(api.calls)["create_repo"]
    assert create["token"] == "hf_cached" and create["private"] is True
    assert "private" in out.getvalue()
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(["push-to-hub", "--model", str(run_dir), "--repo-id", "me/cli"], out=io.StringIO()) == 2
    assert "no Hugging Face token" in capsys.readouterr().err


def test_an_onnx_export_goes_up_with_its_predict_script(run_dir, token):
    pytest.importorskip("onnxscript", reason="the export extra is not installed")
    from huggingface_hub import ModelCard

    from bertstudio.train.onnx_export import export_onnx

    export = export_onnx(run_dir / "model", run_dir / "onnx", quantize=False)
    api = RecordingApi()
    push_to_hub(export.folder, "me/sentiment-onnx", token=token, api=api)
    assert {"model.onnx", "predict.py", "labels.json", "tokenizer.json", "README.md"} <= set(api.uploaded)
    card = ModelCard(api.uploaded["README.md"].decode("utf-8"))
    assert card.data.library_name == "onnx" and "onnx" in card.data.tags
    assert "| accuracy |" in card.text  # the run's metrics: the export sits in its run folder
    assert "predict.py" in card.text


def test_no_connection_is_one_line_not_a_traceback(run_dir, monkeypatch, capsys):
    """The real HfApi against an address that refuses connections: huggingface_hub's HTTP client
    raises its own ConnectError, which is not an OSError (it ended the command with exit 1)."""
    from huggingface_hub import HfApi, constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # the tests' offline switch would stop it first
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: HfApi(endpoint="http://127.0.0.1:9"))
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    code = main(["--quiet", "push-to-hub", "--model", str(run_dir), "--repo-id", "me/offline"], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "the upload failed" in err and "me/offline" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("kind, head", [("sentence", "embedding"), ("pair", "siamese"), ("regression", "siamese")])
def test_an_embedding_head_models_card_predicts_as_bertstudio_does(kind, head, tiny, tmp_path, capsys, monkeypatch):
    """The card told every model to load with transformers' pipeline(), which put an embedding or
    siamese head's encoder under a fresh random classifier (chance answers, one log note). Its
    snippet now reads the sentence-transformer and head.safetensors; run against the folder, it
    predicts what bertstudio predicts."""
    import re

    from huggingface_hub import ModelCard

    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train
    from bertstudio.train.predict import Predictor

    pairs = head == "siamese"
    rows = [{"text": f"the film was {w}", **({"text_pair": f"the movie was {w}"} if pairs else {}),
             "label": (float(i % 5) if kind == "regression" else ("pos" if i % 2 else "neg"))}
            for i, w in enumerate(["good", "bad", "fun", "dull", "great", "awful", "fine", "poor"])]
    out = tmp_path / "run"
    config = TrainConfig(task=kind, model=tiny, head=head, epochs=1, lr=1e-3, batch_size=4, max_length=24,
                         output_dir=str(out), labels=None if kind == "regression" else ["neg", "pos"],
                         keep_tuning=0.5 if pairs else 1.0)
    assert train(config, from_records(kind, rows, labels=config.labels)).status == "finished"
    text = model_card(resolve_source(out), "me/model")
    card = ModelCard(text)
    assert card.data.library_name == "sentence-transformers" and card.data.pipeline_tag is None
    assert ("| keep_tuning | 0.5 |" in text) == pairs and "lora_rank" not in text  # a full fine-tune: no LoRA rank
    assert "pipeline(" not in text.replace("`transformers.pipeline()`", "")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    assert "encoder.max_seq_length = 24" in code
    monkeypatch.setattr("huggingface_hub.hf_hub_download", lambda repo, name: str(Path(repo) / name))
    exec(code.replace('"me/model"', repr(str(out / "model"))), {})
    printed = capsys.readouterr().out
    predictor = Predictor.load(out / "model", precision="fp32")
    given = ({"text": "A man is playing a guitar.", "text_pair": "A person plays music."} if pairs
             else {"text": "a gripping, funny film"})
    want = predictor.predict(**given)
    if kind == "regression":
        assert float(printed.strip().strip("[]")) == pytest.approx(want["score"], abs=1e-4)
    else:
        assert printed.strip() == repr([want["label"]])


def test_an_embedding_head_cards_labels_stay_inside_its_code_block():
    """Label names go into the snippet as a Python list: a backtick fence or a newline in one
    must not end the card's code block, and the list must still read back as the names."""
    import ast
    import re

    from bertstudio.train.hub import _embedding_usage

    names = ["ok", "```\n# Owned", "line\nbreak", "tick`s"]
    lines = _embedding_usage("me/model", {"head": "embedding"}, names, 64)
    text = "\n".join(lines)
    assert len(re.findall(r"^```", text, re.M)) == 2
    listed = next(line for line in lines if line.startswith("labels = "))
    assert ast.literal_eval(listed.removeprefix("labels = ")) == names


def _card_with_metrics(run_dir: Path, tmp_path: Path, metrics: dict | str) -> str:
    import json
    import shutil

    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    (run / "metrics.json").write_text(metrics if isinstance(metrics, str) else json.dumps(metrics))
    return model_card(resolve_source(run), "me/sentiment")


def test_the_card_says_a_one_class_model_and_a_best_selected_score(run_dir, tmp_path):
    """The card published a constant model's best-selected score as it was, with none of the notes the
    CLI's end line and the Results page give (sweep_hostile52 defect 5): a reader of the Hub saw 50%."""
    text = _card_with_metrics(run_dir, tmp_path, {
        "accuracy": 0.5, "macro_f1": 0.25,
        "one_answer": {"label": "pos", "count": 40, "rows": 40, "gold_share": 0.5},
        "last_evaluation": {"accuracy": 0.31, "macro_f1": 0.2, "other": 0.9}})
    table = text.index("| macro_f1 | 25.00% |")
    answer = text.index("Note: the model answers `pos` for 40 of 40 evaluation rows (the gold: 50%)")
    selected = text.index("Note: these scores are the best of several evaluations on this evaluation set")
    assert table < answer < selected < text.index("## Training settings")
    assert "the last evaluation scored `accuracy` 31.00%, `macro_f1` 20.00%." in text  # the official ones
    assert "| one_answer |" not in text and "| last_evaluation |" not in text


@pytest.mark.parametrize("one_answer", [
    {"label": "pos", "count": 41, "rows": 40, "gold_share": 0.5},  # more answers than rows
    {"label": "pos", "count": -1, "rows": 40, "gold_share": 0.5},
    {"label": "pos", "count": 40, "rows": 1e308, "gold_share": 0.5},
    {"label": "pos", "count": 40, "rows": 10**400, "gold_share": 0.5},
    {"label": "pos", "count": 40, "rows": 40, "gold_share": float("nan")},
    {"label": "pos", "count": 40, "rows": 40, "gold_share": 1.5},
    {"label": ["pos"], "count": 40, "rows": 40, "gold_share": 0.5},
    {"label": "pos", "count": True, "rows": 40, "gold_share": 0.5},
    "pos", 0.97, None])
def test_a_one_answer_that_does_not_fit_is_left_unsaid(one_answer, run_dir, tmp_path):
    import json

    metrics = json.dumps({"accuracy": 0.5, "one_answer": one_answer})
    text = _card_with_metrics(run_dir, tmp_path, metrics)
    assert "| accuracy | 50.00% |" in text and "Note:" not in text and "one_answer" not in text


def test_last_scores_that_do_not_fit_are_left_unsaid(run_dir, tmp_path):
    huge = "9" * 400
    text = _card_with_metrics(run_dir, tmp_path, '{"accuracy": 0.5, "last_evaluation": {"accuracy": ' + huge
                              + ', "macro_f1": NaN, "f1": 1e308, "mcc": "high", "x": true}}')
    assert "Note:" not in text and "| accuracy | 50.00% |" in text
    text = _card_with_metrics(run_dir, tmp_path / "b", '{"accuracy": 0.5, "last_evaluation": {"accuracy": ' + huge
                              + ', "macro_f1": 0.2}}')
    assert "the last evaluation scored `macro_f1` 20.00%." in text


def test_the_cards_table_and_its_notes_share_one_rule_for_a_sayable_score(run_dir, tmp_path):
    """A hand-edited accuracy of -5 was published as "-500.00%" in the table, while the note below
    it left such a score unsaid (metrics/display.sayable)."""
    text = _card_with_metrics(run_dir, tmp_path, {"accuracy": -5, "macro_f1": 0.25, "loss": 0.5, "mcc": 1.5,
                                                  "last_evaluation": {"accuracy": -5, "macro_f1": 0.2}})
    assert "| macro_f1 | 25.00% |" in text and "| loss | 0.5 |" in text
    assert "500" not in text and "| accuracy |" not in text and "| mcc |" not in text and "150" not in text
    assert "the last evaluation scored `macro_f1` 20.00%." in text
