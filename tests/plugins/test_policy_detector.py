"""The policy detector on a page rendered here and read by real Tesseract: after redaction
through the pipeline, reading the page again shows the protected value gone and unrelated
values still there; with include_operands the derivation's operands go too."""
from __future__ import annotations

import os
import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.errors import InputError
from redactor.model import OcrPage, WordBox
from redactor.registry import plugin_class

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = [
    "Regional results 2024",
    "Middle East revenue: $5 million",
    "Europe revenue: $37 million",
    "Total revenue: $100 million",
    "Middle East share of revenue: 5%",
    "Employees: 420",
]
POLICY = """
policies:
  - id: me-revenue
    target: Middle East revenue
    values: ["$5,000,000"]
    derivations:
      - op: product
        operands: ["5 %", "$100 million"]
"""


def render_page() -> Image.Image:
    img = Image.new("RGB", (1400, 700), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 34)
    for i, line in enumerate(LINES):
        draw.text((80, 60 + i * 95), line, fill="black", font=font)
    return img


def reread(img: Image.Image) -> str:
    from redactor import registry
    return registry.create("ocr", "tesseract").read(img).text


@pytest.fixture(scope="module")
def page_image():
    return render_page()


@pytest.fixture()
def policy_file(tmp_path):
    p = tmp_path / "policy.yaml"
    p.write_text(POLICY)
    return p


def _redact(image, policy_file, include_operands):
    from redactor.pipeline import Redactor
    # boxes around whole words (no ink fitting): this test is about what the detector finds
    r = Redactor(ocr="tesseract", detectors=["policy"], fit_to_ink=False,
                 detector_options={"policy": {"policy": str(policy_file),
                                              "include_operands": include_operands}})
    return r.redact(image)


def test_original_page_shows_every_value(page_image):
    text = reread(page_image)
    for v in ("$5 million", "$37 million", "$100 million", "5%", "420"):
        assert v in text


def test_protected_value_gone_and_others_survive(page_image, policy_file):
    out, redactions = _redact(page_image, policy_file, include_operands=False)
    assert redactions and all(r.type == "OTHER" for r in redactions)
    text = reread(out)
    assert "$5 million" not in text and "5 million" not in text
    assert "$37 million" in text
    assert "$100 million" in text and "5%" in text
    assert "Middle East revenue" in text


def test_operands_gone_with_include_operands(page_image, policy_file):
    out, _ = _redact(page_image, policy_file, include_operands=True)
    text = reread(out)
    assert "5 million" not in text
    assert "100 million" not in text and "5%" not in text
    assert "$37 million" in text and "420" in text


def test_value_split_over_words_is_one_span(policy_file):
    words = (WordBox("Revenue:", (0, 0, 80, 20), line=0), WordBox("$5", (90, 0, 110, 20), line=0),
             WordBox("million", (115, 0, 180, 20), line=0), WordBox("(Asia", (0, 30, 50, 50), line=1),
             WordBox("$6", (60, 30, 80, 50), line=1), WordBox("million)", (85, 30, 160, 50), line=1))
    page = OcrPage(200, 60, words, "test")
    det = plugin_class("detector", "policy")(policy=str(policy_file))
    spans = det.detect(page)
    assert [(s.text, s.type) for s in spans] == [("$5 million", "OTHER")]


def test_policy_type_is_used_and_emitted(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('{"target": "closing date", "values": ["2024-03-05"], "type": "DATE"}')
    cls = plugin_class("detector", "policy")
    assert "DATE" in cls.emits() and "OTHER" in cls.emits()
    page = OcrPage(300, 30, (WordBox("Closing:", (0, 0, 60, 20)), WordBox("March", (70, 0, 120, 20)),
                             WordBox("5,", (125, 0, 140, 20)), WordBox("2024", (145, 0, 190, 20))), "test")
    spans = cls(policy=str(p)).detect(page)
    assert [(s.text, s.type) for s in spans] == [("March 5, 2024", "DATE")]


def test_bad_options_are_one_line_errors(tmp_path):
    cls = plugin_class("detector", "policy")
    with pytest.raises(InputError, match="needs a policy file"):
        cls()
    with pytest.raises(InputError, match="cannot read policy file"):
        cls(policy=str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("policies:\n  - target: x\n    values: ['$5 million']\n    type: SHOE\n")
    with pytest.raises(InputError, match="type 'SHOE'"):
        cls(policy=str(bad))
