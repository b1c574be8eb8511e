from __future__ import annotations

import pytest

from bertstudio.errors import ConfigError
from bertstudio.train.config import TrainConfig


def test_toml_round_trip(tmp_path) -> None:
    config = TrainConfig(task="pair", mode="top-2", lr=3e-5, columns={"text": "premise"}, labels=["a", "b"])
    config.save(tmp_path / "run.toml")
    assert TrainConfig.load(tmp_path / "run.toml") == config
    assert config.top_layers == 2


@pytest.mark.parametrize(
    "settings, where",
    [({"mode": "top"}, "mode"), ({"head": "cnn"}, "head"), ({"lr": 0}, "lr"), ({"batch_size": 0}, "batch_size"),
     ({"task": "ner"}, "task"), ({"warmup_ratio": 1.5}, "warmup_ratio")],
)
def test_invalid_settings_name_the_setting(settings, where) -> None:
    with pytest.raises(ConfigError) as info:
        TrainConfig(**settings)
    assert info.value.where == where


def test_relative_paths_resolve_from_the_config_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "model").mkdir()
    (tmp_path / "run" / "run.toml").write_text(
        'task = "sentence"\ntrain_file = "data/train.jsonl"\nmodel = "model"\noutput_dir = "out"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)  # somewhere else than the config's folder
    config = TrainConfig.load("run/run.toml")
    assert config.train_file == str((tmp_path / "run" / "data" / "train.jsonl").resolve())
    assert config.model == str((tmp_path / "run" / "model").resolve())
    assert config.output_dir == str((tmp_path / "run" / "out").resolve())


def test_hub_id_is_left_alone(tmp_path) -> None:
    (tmp_path / "run.toml").write_text('model = "bert-base-uncased"\n', encoding="utf-8")
    assert TrainConfig.load(tmp_path / "run.toml").model == "bert-base-uncased"


def test_unknown_setting_and_bad_toml_are_clear(tmp_path) -> None:
    (tmp_path / "a.toml").write_text('epoch = 3\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown setting"):
        TrainConfig.load(tmp_path / "a.toml")
    (tmp_path / "b.toml").write_text('epochs = \n', encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML") as info:
        TrainConfig.load(tmp_path / "b.toml")
    assert str(tmp_path / "b.toml") in str(info.value)
