"""Plugin options are checked against each plugin's own before anything loads (an unknown
name or a wrong type: exit 2 naming the key and the close one), and `redactor plugins` calls
a plugin available only when it can run now (the model weights found), naming real flags
when it cannot."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from redactor import registry
from redactor.cli import main
from redactor.errors import InputError
from redactor.plugin_api import Detector


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "p.png"
    Image.new("RGB", (200, 100), "white").save(path)
    return path


@pytest.mark.parametrize("flag, value, expect", [
    ("--detector-option", "presidio.min_scor=0.5", "has no option 'min_scor'; did you mean 'min_score'"),
    ("--detector-option", "presidio.min_score=abc", "option min_score: input should be a valid number"),
    ("--detector-option", "rules.disabel=[]", "did you mean 'disable'"),
    ("--detector-option", "codes.barcode=false", "did you mean 'barcodes'"),     # swallowed before
    ("--ocr-option", "psm=six", "option psm: input should be a valid integer"),
    ("--ocr-option", "lnag=deu", "did you mean 'lang'"),
])
def test_a_bad_plugin_option_is_exit_2_before_anything_runs(page, tmp_path, capsys, flag, value, expect):
    out = tmp_path / "o"
    assert main(["redact", str(page), "--out", str(out), flag, value]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1, err
    assert not out.exists() or not any(out.iterdir())


def test_a_config_file_option_is_checked_the_same_way(page, tmp_path, capsys):
    config = tmp_path / "run.toml"
    config.write_text("[detector_options.presidio]\nspacy_modle = 'en_core_web_sm'\n")
    assert main(["redact", str(page), "--out", str(tmp_path / "o"), "--config", str(config)]) == 2
    assert "did you mean 'spacy_model'" in capsys.readouterr().err


def test_options_forwarded_to_parts_are_known():
    registry.check_options("ocr", "tesseract+rapidocr", {"rapidocr_threads": 2, "psm": 6, "where": "page"})
    registry.check_options("detector", "policy", {"policy_file": "p.yaml"})
    with pytest.raises(InputError, match="rapidocr_thread"):
        registry.check_options("ocr", "tesseract+rapidocr", {"rapidocr_thread": 2})


def test_lax_strings_of_the_right_type_pass():
    registry.check_options("ocr", "tesseract", {"psm": "6", "preprocess": "false", "dpi": None})
    registry.check_options("visual", "codes", {"barcodes": "no"})


def test_local_model_plugins_are_unavailable_without_their_weights(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-home"))
    for env in ("REDACTOR_GLINER_MODEL", "REDACTOR_GLINER2_MODEL", "REDACTOR_PRESIDIO_GLINER_MODEL",
                "REDACTOR_PRIVACY_FILTER_MODEL"):
        monkeypatch.delenv(env, raising=False)
    assert main(["plugins", "--json"]) == 0
    infos = {i["name"]: i for i in json.loads(capsys.readouterr().out)}
    for name in ("gliner", "gliner2", "presidio-gliner", "privacy-filter"):
        assert infos[name]["available"] is False, name
        reason = infos[name]["reason"]
        # the reason names the real way to pass the weights (packages missing is another reason)
        assert f"--detector-option {name}.model=DIR" in reason or "not installed" in reason, reason
        assert "--model DIR" not in reason


def test_a_local_model_folder_makes_it_available(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    cls = registry.plugin_class("detector", "privacy-filter")
    reason = registry.unavailable_reason(cls, {"model": str(folder)})
    if reason and "not installed" in reason:
        pytest.skip("the transformers extra is not installed")
    assert "missing config.json" in reason
    (folder / "config.json").write_text("{}")
    assert registry.unavailable_reason(cls, {"model": str(folder)}) is None


class _OldStyle(Detector):
    """A third-party detector written against the first contract: a zero-argument
    ``unavailable_reason`` and options swallowed by ``**kwargs``."""
    name = "old-style"

    @classmethod
    def unavailable_reason(cls):
        return None

    def __init__(self, threshold: float = 0.5, **kwargs):
        self.threshold = threshold

    def detect(self, page):
        return []


def test_a_third_party_plugin_of_the_first_contract_still_works(monkeypatch):
    monkeypatch.setattr(registry, "plugin_class", lambda kind, name: _OldStyle)
    assert registry.unavailable_reason(_OldStyle, {"threshold": 0.7}) is None
    det = registry.create("detector", "old-style", threshold=0.7)
    assert det.threshold == 0.7
    with pytest.raises(InputError, match="did you mean 'threshold'"):
        registry.create("detector", "old-style", treshold=0.7)
