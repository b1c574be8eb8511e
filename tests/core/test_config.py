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


# --- issue 11, item 12: every number checked once, on the dataclass -------------------------

from dataclasses import fields  # noqa: E402

from bertstudio.train.config import RANGES  # noqa: E402

FLOAT_FIELDS = [f.name for f in fields(TrainConfig) if f.type in ("float", "float | None")]
INT_FIELDS = [f.name for f in fields(TrainConfig) if f.type in ("int", "int | None")]


def test_every_numeric_setting_has_a_range() -> None:
    assert set(RANGES) == set(FLOAT_FIELDS) | set(INT_FIELDS)
    assert {"epochs", "lr", "weight_decay", "warmup_ratio", "max_grad_norm", "lora_dropout"} <= set(FLOAT_FIELDS)


@pytest.mark.parametrize("name", FLOAT_FIELDS)
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_inf_are_refused_for_every_float(name, value) -> None:
    with pytest.raises(ConfigError, match="finite number") as info:
        TrainConfig(**{name: value})
    assert info.value.where == name


@pytest.mark.parametrize("name", INT_FIELDS)
def test_every_int_below_its_range_is_refused(name) -> None:
    low = RANGES[name].low
    with pytest.raises(ConfigError, match="whole number") as info:
        TrainConfig(**{name: int(low) - 1})
    assert info.value.where == name
    with pytest.raises(ConfigError, match="whole number"):
        TrainConfig(**{name: 2.5})


@pytest.mark.parametrize("settings, where", [
    ({"epochs": float("inf")}, "epochs"), ({"max_train_examples": -5}, "max_train_examples"),
    ({"max_train_examples": 0}, "max_train_examples"), ({"max_eval_examples": -1}, "max_eval_examples"),
    ({"weight_decay": float("nan")}, "weight_decay"), ({"seed": -1}, "seed"), ({"seed": 2**32}, "seed"),
    ({"lr": "5e-5"}, "lr"), ({"save_best": "yes"}, "save_best"), ({"labels": [0, 1]}, "labels"),
    ({"columns": {"text": 3}}, "columns"), ({"epochs": True}, "epochs"),
    # a helper's sweep: NaN predictions from a saved model, a NaN loss, an OverflowError at step 1
    ({"weight_decay": 1e23}, "weight_decay"), ({"batch_size": 10**20}, "batch_size"), ({"lora_alpha": 10**23}, "lora_alpha"), ({"grad_accum": 10**23}, "grad_accum"),
])
def test_issue_examples_are_refused(settings, where) -> None:
    with pytest.raises(ConfigError) as info:
        TrainConfig(**settings)
    assert info.value.where == where


def test_a_bad_value_in_a_run_toml_names_the_file(tmp_path) -> None:
    (tmp_path / "run.toml").write_text('task = "sentence"\nepochs = nan\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        TrainConfig.load(tmp_path / "run.toml")
    assert info.value.where == "epochs" and info.value.path == str(tmp_path / "run.toml")



def test_cartography_is_refused_for_kinds_it_cannot_map(tmp_path) -> None:
    """--cartography on a regression run was accepted and recorded, and no data map was written,
    without a word; the kinds with a gold class per example keep it."""
    from bertstudio.train.rundir import read_config

    for kind in ("regression", "tagging", "qa"):
        with pytest.raises(ConfigError, match="no gold class per example") as exc:
            TrainConfig(task=kind, cartography=True)
        assert exc.value.where == "cartography" and "sentence and pair classification" in exc.value.expected
    for kind in ("sentence", "pair"):
        assert TrainConfig(task=kind, cartography=True).cartography
    # a score run recorded before the refusal is still read, as what it did (no map)
    (tmp_path / "config.toml").write_text('task = "regression"\ncartography = true\n', encoding="utf-8")
    assert read_config(tmp_path).cartography is False


# --- QA windows: the overlap used is the one recorded -------------------------------------------


def test_the_default_doc_stride_is_the_most_a_window_takes_and_a_larger_one_is_cut_and_said(caplog) -> None:
    """doc_stride 128 at max length 128 (the defaults) trained with an overlap of 31 while the run
    recorded 128, without a word: the overlap is at most half a window's room for context."""
    import logging

    from bertstudio.tasks.limits import qa_window_layout
    from bertstudio.train.config import fit_doc_stride

    # the default: BERT's 128 where a window has room for it, else the most it has
    assert qa_window_layout(128, None) == (62, 63, 31) and qa_window_layout(384, None)[2] == 128
    with caplog.at_level(logging.WARNING, logger="bertstudio"):
        assert fit_doc_stride(TrainConfig(task="qa")).doc_stride == 31
        assert fit_doc_stride(TrainConfig(task="qa", max_length=384, doc_stride=100)).doc_stride == 100
        assert not caplog.records  # nothing asked for was cut
        fitted = fit_doc_stride(TrainConfig(task="qa", max_length=64, doc_stride=128))
    assert fitted.doc_stride == 15
    assert [r.getMessage() for r in caplog.records] == [
        "doc_stride 128 is more than half of the 31 context tokens a 64-token window holds: 15 used (and recorded)"]
    caplog.clear()
    assert fit_doc_stride(fitted).doc_stride == 15 and not caplog.records  # the record re-runs without a word
    assert fit_doc_stride(TrainConfig(task="sentence", doc_stride=128)).doc_stride == 128  # no windows to cut


def test_a_qa_run_records_the_overlap_it_used(tiny, tmp_path) -> None:
    import json

    from bertstudio.data.examples import from_records
    from bertstudio.train.engine import train
    from bertstudio.train.rundir import saved_config

    rows = [{"id": f"q{i}", "title": "", "context": "paris is the city of light and the capital of france",
             "question": "where?", "answers": {"text": ["paris"], "answer_start": [0]}} for i in range(6)]
    config = TrainConfig(task="qa", model=tiny, epochs=1, batch_size=4, max_length=48, doc_stride=128,
                         output_dir=str(tmp_path / "run"), save_best=False, device="cpu", precision="fp32")
    result = train(config, from_records("qa", rows), from_records("qa", rows[:2]))
    assert result.status == "finished", result.message
    meta = json.loads((tmp_path / "run" / "model" / "config.json").read_text())["bertstudio"]
    assert saved_config(tmp_path / "run").doc_stride == meta["doc_stride"] == 11  # (48 - 22 - 3) // 2
    # re-run from its record, or resumed with the settings it was given: the same settings
    from bertstudio.train.rundir import differences

    assert differences(saved_config(tmp_path / "run"), config) == []


def test_a_files_resume_from_stays_inside_its_folder_but_a_typed_one_goes_anywhere(tmp_path) -> None:
    """A shared run.toml's resume_from = "../victim/checkpoints/last" went on with (and rewrote) the
    victim run, which an output_dir there is refused for: the run writes into the checkpoint's folder."""
    from bertstudio.train.config import read_settings

    shared, victim = tmp_path / "shared", tmp_path / "victim"
    (victim / "checkpoints" / "last").mkdir(parents=True)
    shared.mkdir()
    for target in ("../victim/checkpoints/last", str(victim / "checkpoints" / "last")):
        (shared / "run.toml").write_text(f'task = "sentence"\nresume_from = "{target}"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match=r"resume_from .* is outside the config's folder .*--resume") as info:
            read_settings(shared / "run.toml")
        assert info.value.where == "resume_from" and str(shared / "run.toml") in str(info.value)
        assert "resume_from" not in read_settings(shared / "run.toml", given={"resume_from"})  # --resume typed
    # inside the config's folder, and a run's own config.toml naming its own checkpoint
    (shared / "run.toml").write_text('resume_from = "run/checkpoints/last"\n', encoding="utf-8")
    assert read_settings(shared / "run.toml")["resume_from"] == str(shared / "run" / "checkpoints" / "last")
    (victim / "config.toml").write_text(f'resume_from = "{victim / "checkpoints" / "last"}"\n', encoding="utf-8")
    assert read_settings(victim / "config.toml")["resume_from"] == str(victim / "checkpoints" / "last")


def test_a_json_key_given_twice_and_a_config_of_another_name_are_refused(tmp_path) -> None:
    """{"epochs": 1, "epochs": 2} ran with 2 epochs without a word (TOML's second key is refused), and
    a TOML file named run.cfg was "not valid JSON: Expecting value"."""
    from bertstudio.train.config import read_settings

    (tmp_path / "run.json").write_text('{"epochs": 1, "epochs": 2}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"run\.json: run config is not valid JSON: the key 'epochs' is given twice"):
        read_settings(tmp_path / "run.json")
    (tmp_path / "run.json").write_text('{"epochs": 2, "columns": {"text": "a", "label": "b"}}', encoding="utf-8")
    assert read_settings(tmp_path / "run.json")["columns"] == {"text": "a", "label": "b"}
    for name in ("run.cfg", "run", "run.yaml"):
        (tmp_path / name).write_text("epochs = 2\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=r"run config must be a \.toml or \.json file") as info:
            read_settings(tmp_path / name)
        assert str(tmp_path / name) in str(info.value)
    (tmp_path / "RUN.TOML").write_text("epochs = 2\n", encoding="utf-8")
    assert read_settings(tmp_path / "RUN.TOML") == {"epochs": 2}
