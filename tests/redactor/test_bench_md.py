"""bench.md says what ran before any score: how many pages, from which pages file, and each
system with its OCR and detectors; every `redactor bench` flag has a help text with its
default. A real (tiny) bench: one rendered page, the rules detector."""
import argparse
import json

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.cli import build_parser, main

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.fixture(scope="module")
def pages_file(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench-md")
    font = ImageFont.truetype(FONT, 30)
    img = Image.new("RGB", (1000, 200), "white")
    d = ImageDraw.Draw(img)
    text, value = "Email: ana.pereira@example.com", "ana.pereira@example.com"
    d.text((40, 60), text, font=font, fill="black")
    x = 40 + d.textlength("Email: ", font=font)
    img.save(root / "p0.png")
    ann = [{"bbox": list(d.textbbox((x, 60), value, font=font)), "type": "EMAIL", "value": value}]
    (root / "pages.jsonl").write_text(json.dumps({
        "page_id": "p0", "image": "p0.png", "width": 1000, "height": 200, "source": "synthetic",
        "page_type": "form", "annotations": ann}) + "\n")
    return root / "pages.jsonl"


def test_bench_md_states_pages_source_and_systems(pages_file, tmp_path):
    cfg = tmp_path / "rules.toml"
    cfg.write_text('ocr = "tesseract"\ndetectors = ["rules"]\n')
    out = tmp_path / "bench"
    assert main(["bench", "--pages", str(pages_file), "--system", "tesseract+rules",
                 "--system", f"rules-cfg={cfg}", "--out", str(out)]) == 0
    md = (out / "bench.md").read_text()
    head = md.split("| system |", 1)[0]          # everything above the first table
    assert "- pages: 1 scored" in head and f"`{pages_file}`" in head
    assert "- systems (2):" in head
    assert "  - tesseract+rules: OCR tesseract; detectors rules; predicted 1 page(s), 0 failed" in head
    assert f"  - rules-cfg: OCR tesseract; detectors rules; options from {cfg}" in head
    report = json.loads((out / "bench.json").read_text())
    assert report["pages_scored"] == 1
    assert report["system_specs"]["tesseract+rules"] == {
        "ocr": "tesseract", "detectors": ["rules"], "ocr_free": None, "config": None, "default": False}


def _bench_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["bench"]


def test_every_bench_flag_has_help_with_its_default():
    bench = _bench_parser()
    flags = [a for a in bench._actions if a.option_strings and a.dest not in ("help", "verbose")]
    assert {a.dest for a in flags} >= {"pages", "systems", "out", "workers", "tau", "limit",
                                       "split", "ocr_cache"}
    for action in flags:
        assert action.help, f"{action.option_strings} has no help"
        # a default, or that the flag is required
        assert "default" in action.help or "required" in action.help, action.option_strings
    text = " ".join(bench.format_help().split())      # unwrapped
    assert "(default: one per CPU" in text and "(default: 0.75)" in text
    assert "OUT/ocr-cache" in text
