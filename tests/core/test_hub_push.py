"""Pushing to the Hub, the push itself: a failure half way, which files go up and what is said about
them, the repository's real visibility, progress. HfApi is replaced at the network boundary, as in
test_hub.py; the errors are the ones huggingface_hub itself raises."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("huggingface_hub", reason="the export extra is not installed")

from test_hub import RecordingApi, run_dir, token  # noqa: E402,F401 - the trained run and the token fixture

from bertstudio.cli import main  # noqa: E402
from bertstudio.errors import ConfigError  # noqa: E402
from bertstudio.train.hub import push_to_hub  # noqa: E402


class HalfwayApi(RecordingApi):
    """huggingface_hub's _commit_api wraps a failed LFS upload as RuntimeError, the reason in __cause__."""

    def upload_folder(self, **kw: Any) -> str:
        self.calls.append(("upload_folder", kw))
        try:
            raise ConnectionResetError("Connection reset by peer")
        except ConnectionResetError as exc:
            raise RuntimeError("Error while uploading 'model.safetensors' to the Hub.") from exc


def test_an_upload_failing_half_way_is_one_line_with_its_cause(run_dir, monkeypatch, capsys):
    api = HalfwayApi()
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: api)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    code = main(["push-to-hub", "--model", str(run_dir), "--repo-id", "me/t"], out=io.StringIO())
    err = "\n".join(line for line in capsys.readouterr().err.splitlines() if not line.startswith("["))  # no progress
    assert code == 2, err
    assert "internal error" not in err and len(err.strip().splitlines()) == 1
    assert "me/t" in err and "Error while uploading 'model.safetensors'" in err and "Connection reset by peer" in err


def _http_error(code: int, token: str) -> None:
    """The error huggingface_hub raises for an HTTP status (its own hf_raise_for_status)."""
    import httpx2
    from huggingface_hub.utils import hf_raise_for_status

    request = httpx2.Request("POST", "https://huggingface.co/api/repos/create", headers={"authorization": f"Bearer {token}"})
    hf_raise_for_status(httpx2.Response(code, request=request, json={"error": f"status {code}"}))


@pytest.mark.parametrize("code, hint", [(401, "wrong or has expired"), (403, "may not write to me/t: it needs write rights there, and the repository may belong to someone else")])
def test_a_refused_token_says_what_the_status_means(run_dir, token, code, hint):
    class Refusing(RecordingApi):
        def upload_folder(self, **kw: Any) -> str:
            _http_error(code, token)
            return ""

    with pytest.raises(ConfigError, match=hint) as caught:
        push_to_hub(run_dir, "me/t", token=token, api=Refusing())
    assert token not in str(caught.value)


def _model_copy(run_dir: Path, tmp_path: Path, name: str) -> Path:
    return Path(shutil.copytree(run_dir / "model", tmp_path / name))


def test_only_the_models_own_files_go_up_and_the_rest_is_named(run_dir, tmp_path, monkeypatch, capsys):
    """Every non-hidden file went up: the user's data, a token file, logs, optimizer state."""
    folder = _model_copy(run_dir, tmp_path, "m2")
    model_files = {p.name for p in folder.iterdir()}
    extra = {"token": b"hf_FILESECRET", "train.jsonl": b'{"text": "private row"}\n', "sub/predictions.jsonl": b"{}\n",
             "wandb/run.log": b"log\n", "optimizer.safetensors": b"\0" * 1000}
    for name, content in extra.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_bytes(content)
    api = RecordingApi()
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: api)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    out = io.StringIO()
    assert main(["push-to-hub", "--model", str(folder), "--repo-id", "me/m2"], out=out) == 0
    assert set(api.uploaded) == model_files | {"README.md"}
    assert all(b"FILESECRET" not in content and b"private row" not in content for content in api.uploaded.values())
    text, err = out.getvalue(), capsys.readouterr().err
    size = sum(len(c) for c in api.uploaded.values())
    assert f"uploading {len(api.uploaded)} files ({size / 1e6:.1f} MB)" in err  # the progress says it before
    assert f"uploaded {len(api.uploaded)} files" in text
    left = next(line for line in text.splitlines() if line.startswith("left out: "))
    assert all(name in left for name in extra) and left.endswith("(not model files)")


def test_the_folders_own_readme_stays_home_and_is_named(run_dir, tmp_path, token):
    """A README.md in the folder was silently replaced by the generated card; then it went up in the
    card's place, though it may be private notes (and the card's metadata was lost)."""
    folder = _model_copy(run_dir, tmp_path, "carded")
    (folder / "README.md").write_text("# My notes\n\nprivate: the client's name\n", encoding="utf-8")
    api = RecordingApi()
    result = push_to_hub(folder, "me/carded", token=token, api=api)
    assert b"client's name" not in api.uploaded["README.md"] and api.uploaded["README.md"].startswith(b"---\n")
    assert Path("README.md") in result.left_out
    assert any("README.md (a generated model card goes up in its place)" in line for line in result.lines())
    assert (folder / "README.md").read_text(encoding="utf-8") == "# My notes\n\nprivate: the client's name\n"
    plain = push_to_hub(run_dir, "me/plain", token=token, api=RecordingApi())
    assert not any("README" in line for line in plain.lines())


def test_names_that_only_look_like_model_files_stay_home(run_dir, tmp_path, token):
    """The allow-list let through any *.model (a pickled gensim w2v.model), predict.py and labels.json
    outside an ONNX export, and any folder named like a sentence-transformers module (2024_backup/)."""
    folder = _model_copy(run_dir, tmp_path, "lookalike")
    extra = {"w2v.model": b"\x80\x04private", "predict.py": b"print('mine')\n", "labels.json": b"[]",
             "2024_backup/model.safetensors": b"\0" * 10, "2024_backup/config.json": b"{}"}
    for name, content in extra.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_bytes(content)
    api = RecordingApi()
    result = push_to_hub(folder, "me/lookalike", token=token, api=api)
    assert not set(extra) & set(api.uploaded), sorted(api.uploaded)
    assert {p.as_posix() for p in result.left_out} == set(extra)


def test_an_embedding_head_folder_and_an_export_leave_nothing_out(tiny, tmp_path):
    """The allow-list knows every file bertstudio writes: the embedding head's, sentence-transformers'
    modules (1_Pooling/, 2_Normalize/), and an ONNX export's (fp32, int8, labels.json, predict.py)."""
    from bertstudio.data.examples import from_records
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train
    from bertstudio.train.hub import pushed_files, resolve_source

    rows = [{"text": f"the film was {w}", "label": "pos" if i % 2 else "neg"}
            for i, w in enumerate(["good", "bad", "fun", "dull"])]
    out = tmp_path / "run"
    config = TrainConfig(task="sentence", model=tiny, head="embedding", epochs=1, lr=1e-3, batch_size=4,
                         max_length=24, output_dir=str(out), labels=["neg", "pos"])
    assert train(config, from_records("sentence", rows, labels=config.labels)).status == "finished"
    plan = pushed_files(resolve_source(out))
    written = sorted(p.relative_to(out / "model") for p in (out / "model").rglob("*") if p.is_file())
    assert plan.left_out == [] and plan.files == written
    assert any(p.parts[0] == "1_Pooling" for p in plan.files) and Path("head.safetensors") in plan.files
    pytest.importorskip("onnxscript", reason="the export extra is not installed")
    from bertstudio.train.onnx_export import export_onnx

    export = export_onnx(out / "model", out / "onnx", quantize=True)
    plan = pushed_files(resolve_source(export.folder))
    assert plan.left_out == [] and {"model.onnx", "model.int8.onnx", "predict.py", "labels.json"} <= {
        p.name for p in plan.files}


def test_the_card_shows_fractions_as_percentages_and_errors_as_they_are(run_dir, tmp_path):
    """An MSE of 0.3767 read "37.67" (every metric with |v| <= 1 was x100), correlations had no unit."""
    import json

    from bertstudio.train.hub import model_card, resolve_source

    run = Path(shutil.copytree(run_dir, tmp_path / "run"))
    (run / "metrics.json").write_text(json.dumps({"accuracy": 0.5, "macro_f1": 0.25, "mcc": -0.125, "mse": 0.3767,
                                                  "mae": 0.25, "loss": 0.5, "pearson": 0.1646, "spearman": -0.0788}))
    text = model_card(resolve_source(run), "me/x")
    for row in ("| accuracy | 50.00% |", "| macro_f1 | 25.00% |", "| mcc | -12.50% |", "| mse | 0.3767 |",
                "| mae | 0.25 |", "| loss | 0.5 |", "| pearson | 0.1646 |", "| spearman | -0.0788 |"):
        assert row in text, row


def test_the_card_names_a_base_model_only_when_the_run_says_it(run_dir, tmp_path, monkeypatch):
    """A model folder pushed without its run was filed under MiniLM; "bert-base-uncased" (a Hub id
    without a namespace) was called a local model."""
    from huggingface_hub import ModelCard

    from bertstudio.train.hub import BUNDLED_HUB_ID, _base_model, model_card, resolve_source

    alone = _model_copy(run_dir, tmp_path, "alone")  # no config.toml beside it
    text = model_card(resolve_source(alone), "me/x")
    assert ModelCard(text).data.base_model is None and "MiniLM" not in text
    assert "not recorded with this folder" in text
    assert _base_model({"task": "sentence", "model": "bert-base-uncased"}) == "bert-base-uncased"
    assert _base_model({"task": "sentence", "model": "google-bert/bert-base-uncased"}) == "google-bert/bert-base-uncased"
    assert _base_model({"task": "sentence"}) == BUNDLED_HUB_ID  # the run's settings: the bundled default
    assert _base_model({"task": "sentence", "model": "bundled"}) == BUNDLED_HUB_ID
    assert _base_model({}) is None  # no settings read: unknown
    assert _base_model({"task": "sentence", "model": str(alone)}) is None  # a local folder stays private
    (tmp_path / "roberta-base").mkdir()
    monkeypatch.chdir(tmp_path)  # a local folder of that name wins, as the loader's would
    assert _base_model({"task": "sentence", "model": "roberta-base"}) is None


def test_the_int8_line_only_with_the_int8_file(run_dir, tmp_path):
    """An export made with --no-int8 told users to run model.int8.onnx, which is not there."""
    import json

    from bertstudio.train.hub import model_card, resolve_source

    export = tmp_path / "export"
    shutil.copytree(run_dir / "model", export)
    (export / "labels.json").write_text(json.dumps({"kind": "sentence", "labels": ["neg", "pos"]}), encoding="utf-8")
    (export / "model.onnx").write_bytes(b"onnx")
    assert "model.int8.onnx" not in model_card(resolve_source(export), "me/x")
    (export / "model.int8.onnx").write_bytes(b"onnx")
    assert "`model.int8.onnx` is the int8 quantized copy" in model_card(resolve_source(export), "me/x")


def test_the_repositorys_real_visibility_is_said_after_the_push(run_dir, token, monkeypatch):
    """--public into an existing private repository said "(public)": create_repo(exist_ok=True)
    leaves an existing repository's visibility as it is."""
    class StaysPrivate(RecordingApi):
        def repo_info(self, repo_id: str, **kw: Any) -> Any:
            self.calls.append(("repo_info", {"repo_id": repo_id, **kw}))
            return type("Info", (), {"private": True})()

    monkeypatch.setattr("huggingface_hub.HfApi", StaysPrivate)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: token)
    out = io.StringIO()
    assert main(["--quiet", "push-to-hub", "--model", str(run_dir), "--repo-id", "me/t", "--public"], out=out) == 0
    assert "(private)" in out.getvalue() and "(public)" not in out.getvalue()


def test_someone_elses_repository_is_said_to_be_theirs(run_dir, token):
    """Into google-bert/bert-base-uncased it said "already exists and is public (... ask for a public
    push)": a public push only meets a 403 at upload time, the repository is not the user's."""
    api = RecordingApi(existing_public=True)
    with pytest.raises(ConfigError, match="belongs to another user or organisation") as caught:
        push_to_hub(run_dir, "google-bert/bert-base-uncased", token=token, api=api)
    assert "public push" not in str(caught.value)
    assert [name for name, _ in api.calls] == ["whoami"]  # nothing created, nothing uploaded
    api = RecordingApi()
    push_to_hub(run_dir, "my-org/x", token=token, api=api)  # an organisation of the user's is the user's
    assert "upload_folder" in [name for name, _ in api.calls]


def test_a_repository_id_needs_its_owner(run_dir, token):
    """validate_repo_id accepts "x", although its message says "expected user/name or org/name"."""
    api = RecordingApi()
    with pytest.raises(ConfigError, match="user/name or org/name"):
        push_to_hub(run_dir, "x", token=token, api=api)
    assert api.calls == []


def test_label_code_spans_keep_the_name_and_say_when_it_is_cut():
    """`code` | pipe came out as 'code' \\| pipe (backticks turned to quotes, a backslash shown inside
    a code span), and a 300-character name was cut to 200 without a sign."""
    from bertstudio.train.hub import _code

    assert _code("`code` | pipe") == "`` `code` | pipe ``"  # one backtick more than the name's longest run
    assert _code("a``b") == "```a``b```"
    assert _code("line\nbreak --- x") == "`line break --- x`"
    long = _code("x" * 300)
    assert long.endswith("…`") and len(long) < 300


def test_a_cancel_after_the_repository_was_created_says_so_and_uploads_nothing(run_dir, token):
    """The cancel was looked at only before whoami and before the upload: a cancel meanwhile still
    created the repository, and the message said nothing had happened."""
    from bertstudio.train.hub import UploadGate

    gate = UploadGate()

    class CancelledMeanwhile(RecordingApi):
        def create_repo(self, repo_id: str, **kw: Any) -> str:
            url = super().create_repo(repo_id, **kw)
            assert gate.try_cancel()  # the upload has not begun: the cancel holds
            return url

    api = CancelledMeanwhile()
    with pytest.raises(ConfigError, match="cancelled before anything was uploaded; the repository me/t was created"):
        push_to_hub(run_dir, "me/t", token=token, api=api, cancel=gate)
    assert "upload_folder" not in [name for name, _ in api.calls]
    assert not gate.began


def test_once_the_upload_has_begun_a_cancel_is_refused_and_said_to_be(run_dir, token):
    from bertstudio.train.hub import UploadGate

    gate = UploadGate()
    answers = []

    class Uploading(RecordingApi):
        def upload_folder(self, **kw: Any) -> str:
            answers.append(gate.try_cancel())
            return super().upload_folder(**kw)

    push_to_hub(run_dir, "me/t", token=token, api=Uploading(), cancel=gate)
    assert answers == [False] and not gate.cancel_event.is_set()


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), NotImplementedError("todo"),
                                   RuntimeError("dictionary changed size during iteration")])
def test_a_programming_error_in_the_push_keeps_its_traceback(run_dir, token, error):
    """Every RuntimeError (and subclass) from the Hub block became "the upload failed ... expected a
    working connection", its traceback dropped: only huggingface_hub's wrapped transfer failure is that."""
    class Buggy(RecordingApi):
        def create_repo(self, repo_id: str, **kw: Any) -> str:
            raise error

    with pytest.raises(type(error)):
        push_to_hub(run_dir, "me/t", token=token, api=Buggy())


def test_a_rate_limited_whoami_does_not_block_the_push(run_dir, token):
    """whoami is heavily rate-limited: a 429 there refused a valid push into the user's own repository."""
    class RateLimited(RecordingApi):
        def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
            self.calls.append(("whoami", kw))
            _http_error(429, token or "")
            return {}

    api = RateLimited()
    push_to_hub(run_dir, "me/t", token=token, api=api)
    assert ("whoami", {"cache": True}) in api.calls and "upload_folder" in [name for name, _ in api.calls]


def test_a_refused_whoami_token_stops_the_push(run_dir, token):
    class Expired(RecordingApi):
        def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
            _http_error(401, token or "")
            return {}

    api = Expired()
    with pytest.raises(ConfigError, match="wrong or has expired"):
        push_to_hub(run_dir, "me/t", token=token, api=api)
    assert [name for name, _ in api.calls] == []


def test_the_push_prints_each_step_in_english_on_stderr(run_dir, tmp_path, monkeypatch, capsys):
    """The steps are facts the app words in its language (train/hub.PushStep); the CLI's lines are
    the English ones it always printed, byte for byte."""
    from bertstudio.train.hub import PushStep

    folder = _model_copy(run_dir, tmp_path, "steps")
    (folder / "README.md").write_text("# notes\n", encoding="utf-8")
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    api = RecordingApi()
    monkeypatch.setattr("huggingface_hub.HfApi", lambda: api)
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    capsys.readouterr()
    assert main(["push-to-hub", "--model", str(folder), "--repo-id", "me/steps"], out=io.StringIO()) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    size = sum(len(c) for c in api.uploaded.values())
    assert lines == [
        "[  1%] checking which files go up (the model's own files; no links, no hidden files)",
        "[  2%] loading the model as `bertstudio predict` would (config, tokenizer, weights) and predicting one example",
        "[  5%] writing the model card", "[ 10%] creating the repository",
        f"[ 20%] uploading {len(api.uploaded)} files ({size / 1e6:.1f} MB); left out: README.md (a generated model "
        "card goes up in its place); notes.txt (not model files)", "[100%] done"]
    assert str(PushStep("checking_onnx", file="model.int8.onnx")) == (
        "loading model.int8.onnx as `bertstudio predict` would and predicting one example")
    many = PushStep("uploading", count=3, size=2_500_000, left_out=tuple(Path(f"f{i}") for i in range(14)))
    assert str(many) == ("uploading 3 files (2.5 MB); left out: f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11 and 2 "
                         "more (not model files)")
