"""Text seen by colour, not by grey (issue 28): values written in a colour whose grey equals
its field's (red on green, blue on dark red) and values drawn as outlines only (an RGBA
page whose alpha keeps only each glyph's anti-aliased rim), read with real Tesseract and
the default detectors. The values' glyph pixels (known from the render) must end up under
redaction boxes, verification of the colour page left unredacted must report them, and a
page without such ink keeps its plain grey, byte for byte."""
import cv2
import numpy as np
import pytest

from redactor_eval.benchmarks.bench_colour_text import (hidden, render_colour_page,
                                               render_outline_page)
from redactor_plugins.tesseract_ocr import TesseractOcr

pytest.importorskip("pytesseract")
if TesseractOcr.unavailable_reason():
    pytest.skip("tesseract not installed", allow_module_level=True)

CRITICAL = ("123-45-6789", "maria.gonzalez@example.com")


@pytest.fixture(scope="module")
def redactor():
    from redactor.pipeline import Redactor
    return Redactor()


def test_grey_pages_keep_their_grey_and_colour_ink_turns_dark():
    from redactor.gray import to_gray
    from redactor.colour_contrast import contrast_gray
    # black and grey text on white, in RGB: the plain grey itself, the same bytes
    grey_page, _ = render_colour_page(ink=(40, 40, 40), field=(200, 200, 200))
    rgb = np.asarray(grey_page)
    plain = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    assert contrast_gray(rgb, plain) is plain
    assert np.array_equal(to_gray(rgb), plain)
    # the PIL image gives the same grey as its array (one conversion for OCR and ink fitting)
    assert np.array_equal(to_gray(grey_page), plain)
    # red on a green field of the same grey: the glyphs come out dark on a white field
    page, masks = render_colour_page()
    gray = to_gray(np.asarray(page))
    glyphs = np.any(list(masks.values()), axis=0)
    field = np.zeros_like(glyphs)
    field[400:418, 130:700] = True             # between the field's top and its first line
    assert np.median(gray[glyphs]) < 80 and np.median(gray[field]) > 200
    # the ink fitting sees exactly the grey the OCR read
    assert np.array_equal(to_gray(page), gray)


@pytest.mark.parametrize("ink,field", [((255, 0, 0), (0, 130, 0)),     # red on green
                                       ((0, 0, 255), (97, 0, 0))],     # blue on dark red
                         ids=["red-on-green", "blue-on-dark-red"])
def test_equal_grey_colour_values_are_hidden(redactor, ink, field):
    page, masks = render_colour_page(ink=ink, field=field)
    result = redactor.analyze(page)
    ok = hidden(masks, result.redactions, page.size)
    assert all(ok[v] for v in CRITICAL), ok


def test_outline_glyph_values_are_hidden(redactor):
    page, masks = render_outline_page(font_px=20)
    result = redactor.analyze(page)
    ok = hidden(masks, result.redactions, page.size)
    assert all(ok[v] for v in CRITICAL), ok


def test_verify_reports_colour_values_left_unredacted(redactor):
    from redactor.model import PageResult
    from redactor.verify import verify_page
    page, _ = render_colour_page()
    check = verify_page(redactor, page, PageResult("page", []))
    found = " ".join(f.get("value", "") for f in check.findings)
    assert not check.ok
    assert "123-45-6789" in found
