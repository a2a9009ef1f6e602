"""Text at any angle (issue 28): a letter page with a stamp (a name, an SSN, a date) drawn
rotated, read with real Tesseract and the default detectors. The values' glyph pixels (known
from the render) must all end up under redaction boxes, and verification of the page left
unredacted must report them."""
import math

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_eval.benchmarks.bench_rotated_text import FONT, hidden, render_page
from redactor_plugins import _rotated_text as rt
from redactor_plugins.tesseract_ocr import TesseractOcr

pytest.importorskip("pytesseract")
if TesseractOcr.unavailable_reason():
    pytest.skip("tesseract not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def redactor():
    from redactor.pipeline import Redactor
    return Redactor()


def test_line_angle_from_ink():
    # a line of text turned 30 degrees counter-clockwise: its ink says 30 (and sure)
    font = ImageFont.truetype(FONT, 30)
    img = Image.new("L", (600, 60), 0)
    ImageDraw.Draw(img).text((10, 10), "Received by: Maria Gonzalez", font=font, fill=255)
    ys, xs = np.nonzero(np.asarray(img.rotate(30, expand=True)) > 128)
    angle, sure = rt.line_angle(xs.astype(float), ys.astype(float), 22.0)
    assert abs(angle - 30) <= 1.5 and sure


def test_quad_hull_covers_the_turned_box():
    # a box read on an image turned 30 degrees maps back to a box holding all four corners
    back = np.array([[math.cos(math.radians(30)), -math.sin(math.radians(30)), 100.0],
                     [math.sin(math.radians(30)), math.cos(math.radians(30)), 50.0]])
    hull = rt.quad_hull((10, 20, 110, 50), back, 1000, 1000)
    for x, y in ((10, 20), (110, 20), (10, 50), (110, 50)):
        px, py = back @ np.array([x, y, 1.0])
        assert hull[0] - 1e-6 <= px <= hull[2] + 1e-6 and hull[1] - 1e-6 <= py <= hull[3] + 1e-6


@pytest.mark.parametrize("angle", [30, 180, 270])
def test_rotated_stamp_values_are_hidden(redactor, angle):
    page, masks = render_page(angle)
    result = redactor.analyze(page)
    assert hidden(masks, result.redactions, page.size) == {v: True for v in masks}


def test_verify_reports_a_rotated_stamp_left_unredacted(redactor):
    from redactor.model import PageResult
    from redactor.verify import verify_page
    page, _ = render_page(30)
    check = verify_page(redactor, page, PageResult("page", []))
    found = {f["value"] for f in check.findings}
    assert not check.ok
    assert any("123-45-6789" in v for v in found)


def test_plain_page_reads_the_same_with_and_without():
    # no stamp: the rotated path finds no block, the words are those read without it
    page, _ = render_page(0, stamp=[])
    on = TesseractOcr().read(page)
    off = TesseractOcr(rotated_blocks=False).read(page)
    assert on.words == off.words and len(on.words) > 50
    assert TesseractOcr().fingerprint() != TesseractOcr(rotated_blocks=False).fingerprint()
