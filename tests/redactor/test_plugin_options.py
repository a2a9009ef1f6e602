"""Plugin options checked against each plugin's options model (issue 36), through the real
command line: a typo or a wrong type is exit 2 in one line naming the plugin, the key and
the close one, before any model loads or output is written; options a plugin passes on to
its parts are checked against the part's types; `redactor plugins` says available only when
the plugin can run now (a local model's weights found, a folder given as an option
counting), names the real flag when it cannot, and lists every option with its type and
default; a third-party plugin of the first contract (zero-argument ``unavailable_reason``,
``**kwargs``) keeps working, and one may declare its options as a pydantic model."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PIL import Image

from redactor.cli import main

MODEL_ENVS = ("REDACTOR_GLINER_MODEL", "REDACTOR_GLINER2_MODEL", "REDACTOR_PRESIDIO_GLINER_MODEL",
              "REDACTOR_PRIVACY_FILTER_MODEL")


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "p.png"
    Image.new("RGB", (200, 100), "white").save(path)
    return path


def cli(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``redactor ARGS`` in a fresh interpreter: the environment (the Hugging Face cache, a
    third-party plugin's entry point) is read as a user's shell would have it."""
    return subprocess.run([sys.executable, "-m", "redactor", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def empty_hub_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in MODEL_ENVS}
    env.update(HF_HOME=str(tmp_path / "hf-home"), HF_HUB_CACHE=str(tmp_path / "hf-home" / "hub"),
               HF_HUB_OFFLINE="1")
    return env


def test_a_typo_in_a_running_detectors_option_is_exit_2_with_the_close_one(page, tmp_path):
    out = tmp_path / "out"
    proc = cli("redact", str(page), "--out", str(out), "--detector-option", "presidio.min_scor=0.7")
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.strip()
    assert "\n" not in err, err   # one line
    assert "detector plugin 'presidio' has no option 'min_scor'; did you mean 'min_score'? " \
           "(options: " in err, err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("flags, expect", [
    (["--detector-option", "presidio.min_score=abc"],
     "detector plugin 'presidio': option min_score: input should be a valid number"),
    # a visual detector's options are detector options too; they used to be swallowed
    (["--detector-option", "codes.barcode=false"],
     "visual plugin 'codes' has no option 'barcode'; did you mean 'barcodes'?"),
    (["--visual", "signatures", "--detector-option", "signatures.require_anchr=no"],
     "visual plugin 'signatures' has no option 'require_anchr'; did you mean 'require_anchor'?"),
    (["--visual", "faces", "--detector-option", "faces.min_size=20"],
     "visual plugin 'faces' has no option 'min_size' (options: none)"),
    # options passed on to a part are checked against that part's types, not let through
    (["--ocr", "tesseract+rapidocr", "--ocr-option", "psm=six"],
     "ocr plugin 'tesseract+rapidocr': option psm: input should be a valid integer"),
    (["--ocr", "tesseract+rapidocr", "--ocr-option", "rapidocr_threads=many"],
     "ocr plugin 'tesseract+rapidocr': option rapidocr_threads: input should be a valid number"),
    (["--detector", "presidio-gliner", "--detector-option", "presidio-gliner.min_score=abc"],
     "detector plugin 'presidio-gliner': option min_score: input should be a valid number"),
    (["--detector", "google-dlp-text", "--detector-option", "google-dlp-text.timeout=soon"],
     "detector plugin 'google-dlp-text': option timeout: input should be a valid number"),
    (["--detector", "policy", "--detector-option", "policy.policy_fle=p.yaml"],
     "detector plugin 'policy' has no option 'policy_fle'; did you mean 'policy_file'?"),
])
def test_a_bad_option_is_exit_2_naming_plugin_and_key(page, tmp_path, capsys, flags, expect):
    out = tmp_path / "out"
    assert main(["redact", str(page), "--out", str(out), *flags]) == 2
    err = capsys.readouterr().err
    assert expect in err and err.count("\n") == 1, err
    assert not out.exists() or not any(out.iterdir())


def test_plugins_names_the_real_flag_when_the_weights_are_not_here(tmp_path):
    proc = cli("plugins", env=empty_hub_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.startswith("  ")}
    for name, model in (("gliner", "urchade/gliner_multi_pii-v1"), ("gliner2", "fastino/gliner2-base-v1"),
                        ("presidio-gliner", "urchade/gliner_multi_pii-v1"),
                        ("privacy-filter", "openai/privacy-filter")):
        line = lines[name]
        if "not installed" in line:
            continue   # a missing package is the reason on a machine without the extra
        assert f"unavailable: no weights for {model} (pass --detector-option {name}.model=DIR" in line, line
        assert f"[detector_options.{name}] model" in line and "Hugging Face cache at " in line, line
        assert "--model DIR" not in line


def test_a_model_folder_given_as_an_option_makes_it_available(tmp_path):
    folder = tmp_path / "my-gliner"
    folder.mkdir()
    env = empty_hub_env(tmp_path)
    flag = ["--detector-option", f"gliner.model={folder}"]
    before = cli("plugins", "--json", *flag, env=env)
    assert before.returncode == 0, before.stderr
    info = {i["name"]: i for i in json.loads(before.stdout)}["gliner"]
    if "not installed" in (info["reason"] or ""):
        pytest.skip("the gliner extra is not installed")
    assert "missing gliner_config.json" in info["reason"]
    (folder / "gliner_config.json").write_text("{}")
    after = {i["name"]: i for i in json.loads(cli("plugins", "--json", *flag, env=env).stdout)}
    assert after["gliner"]["available"] is True
    assert after["gliner2"]["available"] is False   # the option was gliner's alone
    typo = cli("plugins", "--detector-option", f"gliner.modle={folder}", env=env)
    assert typo.returncode == 2 and "did you mean 'model'" in typo.stderr


def test_plugins_lists_each_options_type_and_default(capsys):
    assert main(["plugins", "--options"]) == 0
    out = capsys.readouterr().out
    for shown in ("psm: int = 3", "lang: str = 'eng'", "min_score: float = 0.0", "barcodes: bool = True",
                  "rapidocr_threads: number = 1", "policy_file: any = None", "threshold: float = 0.5"):
        assert shown in out, shown
    assert main(["plugins", "--json"]) == 0
    infos = {(i["kind"], i["name"]): i for i in json.loads(capsys.readouterr().out)}
    assert infos[("ocr", "tesseract")]["options"]["psm"] == {"type": "int", "default": 3, "required": False}
    assert infos[("visual", "faces")]["options"] == {}
    assert main(["plugins"]) == 0
    assert "options:" not in capsys.readouterr().out   # the default listing stays short


THIRD_PARTY = '''
import pydantic


class OldStyle:
    """Written against the first contract: not built on redactor's Plugin, a zero-argument
    unavailable_reason, options swallowed by **kwargs."""
    name = "oldstyle"

    @classmethod
    def unavailable_reason(cls):
        return None

    @classmethod
    def emits(cls):
        return frozenset({"PERSON"})

    def __init__(self, threshold=0.5, **kwargs):
        self.threshold = float(threshold)

    def detect(self, page):
        return []


class Declared(OldStyle):
    """Declares its options as a pydantic model: what it takes through **options."""
    name = "declared"

    class Options(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="forbid")
        window: int = 8
        labels: list[str] = []

    def __init__(self, **options):
        self.window = int(options.get("window", 8))
'''


@pytest.fixture
def third_party(tmp_path):
    """A plugin package on PYTHONPATH with its entry points, as pip would install it."""
    site = tmp_path / "site"
    dist = site / "thirdparty_plugins-0.1.dist-info"
    dist.mkdir(parents=True)
    (site / "thirdparty_plugins.py").write_text(THIRD_PARTY)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-plugins\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(textwrap.dedent("""\
        [redactor.detectors]
        oldstyle = thirdparty_plugins:OldStyle
        declared = thirdparty_plugins:Declared
        """))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(site),
                                                                     os.environ.get("PYTHONPATH")])))


def test_a_third_party_plugin_of_the_first_contract_still_works(third_party, page, tmp_path):
    proc = cli("plugins", "--json", env=third_party)
    assert proc.returncode == 0, proc.stderr
    infos = {i["name"]: i for i in json.loads(proc.stdout)}
    assert infos["oldstyle"]["available"] is True, infos["oldstyle"]
    assert infos["oldstyle"]["options"] == {"threshold": {"type": "float", "default": 0.5, "required": False}}
    assert set(infos["declared"]["options"]) == {"window", "labels"}
    base = ["redact", str(page), "--visual", "none", "--no-verify"]
    typo = cli(*base, "--out", str(tmp_path / "a"), "--detector", "oldstyle",
               "--detector-option", "oldstyle.treshold=0.7", env=third_party)
    assert typo.returncode == 2, typo.stderr
    assert "detector plugin 'oldstyle' has no option 'treshold'; did you mean 'threshold'?" in typo.stderr
    bad = cli(*base, "--out", str(tmp_path / "b"), "--detector", "declared",
              "--detector-option", "declared.window=wide", env=third_party)
    assert bad.returncode == 2 and "detector plugin 'declared': option window:" in bad.stderr, bad.stderr
    ok = cli(*base, "--out", str(tmp_path / "c"), "--detector", "oldstyle",
             "--detector-option", "oldstyle.threshold=0.7", env=third_party)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "c" / "p.redacted.png").exists()


def test_plugins_checks_ocr_options_as_redact_does(capsys):
    # the OCR backend's options are judged as redact's --ocr-option takes them, before anything loads
    assert main(["plugins", "--ocr-option", "psm=six"]) == 2
    assert "option psm" in capsys.readouterr().err
    assert main(["plugins", "--ocr", "tesseract", "--ocr-option", "psmm=6"]) == 2
    assert "did you mean 'psm'" in capsys.readouterr().err
    assert main(["plugins", "--ocr", "no-such-ocr"]) == 2
    assert "no OCR backend is named 'no-such-ocr'" in capsys.readouterr().err
    assert main(["plugins", "--ocr-option", "psm=6"]) == 0
    assert "tesseract" in capsys.readouterr().out


def test_list_options_are_checked_against_their_element_type(capsys):
    # a list option takes a list (JSON on the command line) or a string the plugin splits
    assert main(["plugins", "--detector-option", 'presidio.allow_list={"a": 1}']) == 2
    assert "allow_list: input should be a valid list" in capsys.readouterr().err
    assert main(["plugins", "--detector-option", 'rules.disable=[{"x": 1}]']) == 2
    capsys.readouterr()
    for ok in ('presidio.allow_list=["Acme Ltd", "Jo Bloggs"]', "rules.disable=names,places"):
        assert main(["plugins", "--detector-option", ok]) == 0
        capsys.readouterr()
