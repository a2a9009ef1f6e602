"""The rules detector's ``disable`` option and the ablation benchmark (docs/ablation.md)."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins.rules_detector import FAMILIES, RulesDetector
from redactor_plugins.tesseract_ocr import TesseractOcr
from redactor.config import load_config
from redactor.errors import InputError

from redactor_eval.benchmarks import ablation

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
ROOT = Path(__file__).resolve().parents[2]
CHALLENGE = ROOT / "eval" / "data" / "challenge" / "pages.jsonl"
# A letter: an addressee over an address block, a greeting, an unlabelled phone in prose,
# a labelled account number and a signature.
LETTER = ["Margaret Holloway", "1425 Maple Avenue", "Springfield, IL 62704", "",
          "Dear Ms. Holloway,", "Your order has shipped. Call (217) 555-0142 with questions.",
          "Account No: 58213907", "", "Sincerely,", "Daniel Brooks"]
PERSONS = {("PERSON", "Margaret Holloway"), ("PERSON", "Holloway"), ("PERSON", "Daniel Brooks")}
ADDRESSES = {("ADDRESS", "1425 Maple Avenue"), ("ADDRESS", "Springfield, IL 62704")}
PHONE = {("PHONE", "(217) 555-0142")}
ACCOUNT = {("ACCOUNT_NUMBER", "58213907")}

needs_tesseract = pytest.mark.skipif(TesseractOcr.unavailable_reason() is not None,
                                     reason=str(TesseractOcr.unavailable_reason()))


@pytest.fixture(scope="module")
def letter_page():
    img = Image.new("RGB", (1400, 900), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    for i, text in enumerate(LETTER):
        draw.text((60, 50 + i * 60), text, font=font, fill="black")
    return TesseractOcr().read(img)


def _found(page, **options):
    return {(s.type, s.text) for s in RulesDetector(**options).detect(page)}


@needs_tesseract
def test_the_letter_is_found_in_full_and_disable_nothing_changes_nothing(letter_page):
    full = _found(letter_page)
    assert PERSONS | ADDRESSES | PHONE | ACCOUNT <= full
    spans = RulesDetector().detect(letter_page)
    assert RulesDetector(disable=[]).detect(letter_page) == spans
    assert RulesDetector(disable="").detect(letter_page) == spans


# the address line's town, no longer inside an address, is a place the gazetteer knows (a
# US city of over 100,000 people): the gazetteer family names it
TOWN = {("LOCATION", "Springfield")}


@needs_tesseract
@pytest.mark.parametrize("disable, removed, added", [
    (["names"], PERSONS, set()),
    (["addresses"], ADDRESSES, TOWN),
    # the catch-all numbers are the safety net of both: off with them, exactly the value goes
    (["patterns", "fallback"], PHONE, set()),
    (["labels", "fallback"], ACCOUNT, set()),
    ("names,addresses", PERSONS | ADDRESSES, TOWN),          # the command line's form
    (["addresses", "gazetteer"], ADDRESSES, set()),
    (["organizations", "places", "repeats", "greetings", "column_gaps"], set(), set()),
])
def test_disabling_a_family_removes_exactly_what_it_found(letter_page, disable, removed, added):
    full = _found(letter_page)
    assert not added & full
    assert _found(letter_page, disable=disable) == (full - removed) | added


@needs_tesseract
def test_the_catch_all_number_takes_over_an_unexplained_value(letter_page):
    # without its label the account number is still a long number, without its phone
    # pattern the local part of the phone is: the fallback family catches what the others
    # left, at its own weaker type
    no_labels = _found(letter_page, disable=["labels"])
    assert not ACCOUNT & no_labels and ("REFERENCE_NUMBER", "58213907") in no_labels
    no_patterns = _found(letter_page, disable=["patterns"])
    assert not PHONE & no_patterns
    assert any(t == "REFERENCE_NUMBER" and "555-0142" in v for t, v in no_patterns)


def test_unknown_family_is_an_input_error_naming_the_known_ones():
    with pytest.raises(InputError) as err:
        RulesDetector(disable=["places", "nmes"])
    msg = str(err.value)
    assert "'nmes'" in msg and "\n" not in msg
    assert all(f in msg for f in FAMILIES)
    with pytest.raises(InputError):
        RulesDetector(disable=3)


def test_disable_from_a_toml_config(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[detector_options.rules]\ndisable = ["places"]\n')
    cfg = load_config(path)
    assert cfg.detector_options["rules"] == {"disable": ["places"]}
    assert RulesDetector(**cfg.detector_options["rules"]).disabled == {"places"}


def test_unknown_family_in_a_config_is_a_one_line_error_exit_2(tmp_path, capsys):
    from redactor.cli import main
    path = tmp_path / "c.toml"
    path.write_text('detectors = ["rules"]\n[detector_options.rules]\ndisable = ["nmes"]\n')
    img = tmp_path / "p.png"
    Image.new("RGB", (200, 100), "white").save(img)
    assert main(["redact", str(img), "--out", str(tmp_path / "out"), "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "unknown rule family 'nmes'" in err


# ---------------------------------------------------------------------------- the benchmark
def _m(f1, f1_05, leak, leak_05, ink, coll, missed, tau=0.75):
    return {"tau": tau, "f1_loc": f1, "docleak_crit": leak, "docleak_ink_crit": ink,
            "collateral": coll, "attribution": {"missed_critical": missed},
            "counts": {"pages": 20},
            "per_tau": {"0.5": {"f1_loc": f1_05, "docleak_crit": leak_05},
                        "0.75": {"f1_loc": f1, "docleak_crit": leak}}}


def test_ablation_table_rows_and_deltas():
    bench = {"pages": "x/pages.jsonl", "split": "all", "tau": 0.75, "systems": {
        "full": _m(0.80, 0.82, 0.20, 0.15, 0.20, 0.025, 10),
        "no_names": _m(0.70, 0.72, 0.45, 0.40, 0.40, 0.020, 31),
        "no_places": _m(0.80, 0.82, 0.20, 0.15, 0.20, 0.030, 10)}}
    rows = {r["variant"]: r for r in ablation.ablation_rows(bench)}
    assert rows["full"]["d_missed_crit"] == 0 and rows["full"]["d_docleak_ink_crit"] == 0
    assert rows["no_names"]["d_missed_crit"] == 21          # names help: off, 21 more leak
    assert rows["no_names"]["d_docleak_ink_crit"] == pytest.approx(0.20)
    assert rows["no_names"]["docleak_crit_05"] == 0.40 and rows["no_names"]["f1_loc_05"] == 0.72
    assert rows["no_places"]["d_collateral"] == pytest.approx(0.005)
    md = ablation.ablation_markdown(bench, what={"no_names": "names"})
    lines = [ln for ln in md.splitlines() if ln.startswith("| no_names")]
    assert lines == ["| no_names | names | 0.700 (0.720) | 0.45 (0.40) | 0.40 | 0.020 | 31 "
                     "| +21 | +0.20 | -0.005 |"]
    with pytest.raises(ValueError):
        ablation.ablation_rows({"systems": {"no_names": bench["systems"]["no_names"]}})


def test_variant_configs_are_the_default_pipeline_with_one_thing_off(tmp_path):
    for name, v in ablation.VARIANTS.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(ablation.to_toml(ablation.variant_config(v)))
        cfg = load_config(path)
        full = load_config(None)
        assert cfg.detector_options.get("presidio") == (
            full.detector_options["presidio"] if "presidio" in cfg.detectors else None)
        if name == "full":
            assert cfg.detectors == full.detectors and cfg.ocr_options == {}
            assert cfg.detector_options["rules"] == full.detector_options["rules"]
    assert tomllib.loads(ablation.to_toml(ablation.variant_config(
        ablation.VARIANTS["no_ocr_repair"])))["ocr_options"] == {"repair": False,
                                                                 "repair_first": "off"}
    assert [v.name for v in ablation.parse_variants("no_places,full,no_places")] == \
        ["full", "no_places"]
    with pytest.raises(SystemExit):
        ablation.parse_variants("no_such")


@pytest.mark.slow
@needs_tesseract
def test_ablation_run_on_two_committed_pages(tmp_path, capsys):
    out = tmp_path / "abl"
    assert ablation.main(["--pages", str(CHALLENGE), "--out", str(out), "--workers", "2",
                          "--limit", "2", "--variants", "no_names,no_fit_to_ink"]) == 0
    bench = json.loads((out / "bench.json").read_text())
    assert list(bench["systems"]) == ["full", "no_names", "no_fit_to_ink"]
    md = (out / "ablation.md").read_text()
    assert "| full |" in md and "| no_names |" in md and md in capsys.readouterr().out
    rows = {r["variant"]: r for r in ablation.ablation_rows(bench)}
    assert rows["full"]["missed_crit"] is not None
    assert rows["no_names"]["missed_crit"] >= rows["full"]["missed_crit"]
    assert sorted(p.name for p in (out / "configs").iterdir()) == \
        ["full.toml", "no_fit_to_ink.toml", "no_names.toml"]
