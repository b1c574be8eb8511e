"""Pushing to the Hub, the push itself: a failure half way, which files go up and what is said about
them, the repository's real visibility, progress. HfApi is replaced at the network boundary, as in
test_hub.py; the errors are the ones huggingface_hub itself raises."""

from __future__ import annotations

import io
import shutil
import threading
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
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "internal error" not in err and len(err.splitlines()) == 1
    assert "me/t" in err and "Error while uploading 'model.safetensors'" in err and "Connection reset by peer" in err


def _http_error(code: int, token: str) -> None:
    """The error huggingface_hub raises for an HTTP status (its own hf_raise_for_status)."""
    import httpx2
    from huggingface_hub.utils import hf_raise_for_status

    request = httpx2.Request("POST", "https://huggingface.co/api/repos/create", headers={"authorization": f"Bearer {token}"})
    hf_raise_for_status(httpx2.Response(code, request=request, json={"error": f"status {code}"}))


@pytest.mark.parametrize("code, hint", [(401, "wrong or has expired"), (403, "may not write to me/t")])
def test_a_refused_token_says_what_the_status_means(run_dir, token, code, hint):
    class Refusing(RecordingApi):
        def upload_folder(self, **kw: Any) -> str:
            _http_error(code, token)
            return ""

    with pytest.raises(ConfigError, match=hint) as caught:
        push_to_hub(run_dir, "me/t", token=token, api=Refusing())
    assert token not in str(caught.value)
