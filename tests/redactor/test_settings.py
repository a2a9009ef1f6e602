"""Settings that would do nothing are refused: an option for a detector that does not run
(a typo such as "presido") and an unknown config key exit 2 naming the close match. Checked
before any page is read, so no OCR runs here."""
from __future__ import annotations

from PIL import Image

from redactor.cli import main


def _page(tmp_path):
    path = tmp_path / "p.png"
    Image.new("RGB", (200, 100), "white").save(path)
    return path


def test_an_option_for_a_detector_that_does_not_run_is_refused(tmp_path, capsys):
    page = _page(tmp_path)
    assert main(["redact", str(page), "--out", str(tmp_path / "o"),
                 "--detector-option", "presido.min_score=0.9"]) == 2
    err = capsys.readouterr().err
    assert "'presido'" in err and "did you mean 'presidio'" in err
    assert main(["redact", str(page), "--out", str(tmp_path / "o"), "--detector", "presidio",
                 "--detector-option", "rules.disable=[]"]) == 2
    assert "not a detector of this run" in capsys.readouterr().err
    assert not (tmp_path / "o" / "p.redacted.png").exists()


def test_a_config_file_with_an_unknown_key_names_the_close_one(tmp_path, capsys):
    config = tmp_path / "run.toml"
    config.write_text('detectorz = ["rules"]\n[detector_options.presido]\nmin_score = 0.9\n')
    assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"), "--config", str(config)]) == 2
    assert "did you mean 'detectors'" in capsys.readouterr().err
    config.write_text('[detector_options.presido]\nmin_score = 0.9\n')
    assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"), "--config", str(config)]) == 2
    assert "did you mean 'presidio'" in capsys.readouterr().err


# -- values checked against the config schema ----------------------------------------------
def test_a_wrong_type_in_a_config_file_names_the_key(tmp_path, capsys):
    config = tmp_path / "run.toml"
    for text, key in (('pad = "wide"\n', "pad"), ('verify = "maybe"\n', "verify"),
                      ('detectors = 3\n', "detectors"), ('[detector_options]\npresidio = 1\n',
                                                         "detector_options.presidio")):
        config.write_text(text)
        assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"),
                     "--config", str(config)]) == 2
        err = capsys.readouterr().err
        assert f": {key}: " in err and err.count("\n") == 1, err
    assert not (tmp_path / "o" / "p.redacted.png").exists()


def test_lax_values_as_toml_and_flags_give_them_are_accepted():
    from redactor.config import load_config
    cfg = load_config(None, {"pad": "2", "fit_to_ink": "no", "visual": "none", "deny": "X"})
    assert cfg.pad == 2.0 and cfg.fit_to_ink is False and cfg.visual == [] and cfg.deny == ["X"]


def test_the_punctuation_cut_is_off_by_default_and_a_flag_turns_it_on():
    import argparse

    from redactor.commands.redact import add_pipeline_options, config_from_args

    parser = argparse.ArgumentParser()
    add_pipeline_options(parser)
    assert config_from_args(parser.parse_args([])).cut_punctuation is False
    assert config_from_args(parser.parse_args(["--cut-punctuation"])).cut_punctuation is True


def test_redactor_config_shows_every_key_and_reads_back(tmp_path, capsys):
    import tomllib

    from redactor.config import describe_options, load_config
    assert main(["config"]) == 0
    text = capsys.readouterr().out
    for key, _default, help_text in describe_options():
        assert help_text and f"# {help_text}" in text and key in text, key
    written = tmp_path / "all.toml"
    written.write_text(text)
    tomllib.loads(text)
    assert load_config(written) == load_config(None)
    mine = tmp_path / "mine.toml"
    mine.write_text('pad = 3\ndetectors = ["rules"]\n')
    assert main(["config", "--config", str(mine)]) == 0
    shown = capsys.readouterr().out
    assert "pad = 3.0" in shown and 'detectors = ["rules"]' in shown


# -- user patterns: rules of their own, in Presidio's recognizer format -----------------------
PATTERNS = """
recognizers:
  - name: employee_id
    supported_entity: ID_NUMBER
    patterns:
      - {name: emp, regex: 'EMP-\\d{6}', score: 0.9}
  - name: staff_number
    supported_entity: US_SSN          # a Presidio entity: mapped through mappings/presidio.yaml
    context: [staff]
    patterns:
      - {name: weak, regex: '\\b\\d{5}\\b', score: 0.1}
"""


def _text_page(path, lines):
    """A white page with one line of 34 px text every 100 px, saved to ``path``."""
    from PIL import ImageDraw, ImageFont
    image = Image.new("RGB", (1200, 60 + 100 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype("DejaVuSans.ttf", 34)
    for i, line in enumerate(lines):
        draw.text((40, 40 + 100 * i), line, font=font, fill="black")
    image.save(path)
    return path


def _employee_page(tmp_path):
    return _text_page(tmp_path / "staff.png", ["Employee: EMP-004217 joined.", "Staff no. 55123", "Order 77881"])


def test_user_patterns_add_rules_with_their_own_names(tmp_path, capsys):
    import json

    patterns = tmp_path / "patterns.yaml"
    patterns.write_text(PATTERNS)
    out = tmp_path / "o"
    assert main(["redact", str(_employee_page(tmp_path)), "--out", str(out), "--patterns",
                 str(patterns), "--min-score", "0.3", "--no-verify", "--visual", "none"]) == 0
    preds = json.loads((out / "staff.boxes.jsonl").read_text())["predictions"]
    by_source = {s: p for p in preds for s in p["sources"]}
    assert by_source["pattern:employee_id"]["type"] == "ID_NUMBER"
    # the weak pattern is kept beside its context word only (Presidio's context boost)
    staff = [p for p in preds if "pattern:staff_number" in p["sources"]]
    assert len(staff) == 1 and staff[0]["type"] == "ID_NUMBER" and staff[0]["bbox"][1] < 200
    summary = capsys.readouterr().out
    assert "ID_NUMBER" in summary and "box(es):" in summary   # the per-type summary line


def test_a_bad_pattern_file_is_refused_before_any_page(tmp_path, capsys):
    patterns = tmp_path / "patterns.yaml"
    for text, expect in (("recognizers:\n  - name: x\n    supported_entity: SHOE_SIZE\n"
                          "    patterns: [{regex: 'a', score: 0.5}]\n", "unknown entity 'SHOE_SIZE'"),
                         ("recognizers:\n  - name: x\n    supported_entity: PHONE\n"
                          "    patterns: [{regex: '(', score: 0.5}]\n", "bad regular expression"),
                         ("- just a list\n", "recognizers"),
                         ("recognizers:\n  - name: x\n    entity: PHONE\n", "unknown key 'entity'")):
        patterns.write_text(text)
        assert main(["redact", str(_page(tmp_path)), "--out", str(tmp_path / "o"),
                     "--patterns", str(patterns)]) == 2
        assert expect in capsys.readouterr().err
    assert not (tmp_path / "o" / "p.redacted.png").exists()


def test_a_presidio_allow_list_is_not_undone_by_the_rules_detector(tmp_path):
    import json

    path = _text_page(tmp_path / "memo.png", ["Name: Jonathan Whitfield", "Phone: (212) 555-0147"])
    base = ["redact", str(path), "--no-verify", "--visual", "none"]

    def types(out):
        return sorted(p["type"] for p in json.loads((out / "memo.boxes.jsonl").read_text())["predictions"])

    assert main(base + ["--out", str(tmp_path / "a")]) == 0
    assert "PERSON" in types(tmp_path / "a")        # the default pipeline finds the name
    assert main(base + ["--out", str(tmp_path / "b"), "--detector-option",
                        'presidio.allow_list=["Jonathan Whitfield"]']) == 0
    assert types(tmp_path / "b") == ["PHONE"]       # rules found it too, and did not bring it back
