"""Fusion of Tesseract's and PP-OCR's words: the rule on hand-built pages (what joins the main
text, what stays an alternative reading, what is dropped), the weak regions on a rendered
page, and the ``tesseract+rapidocr`` backend end to end with both real engines on a page
whose struck-through value Tesseract cannot read."""
from __future__ import annotations

import os

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins._ocr_fusion import fuse_pages, weak_regions
from redactor_plugins.fused_ocr import FusedOcr
from redactor_plugins.rapidocr_ocr import RapidOcr
from redactor_plugins.tesseract_ocr import TesseractOcr
from redactor.model import OcrPage, WordBox
from redactor.pipeline import Redactor

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"


def first_page(*lines):
    """lines: [(text, x0, x1, conf)] per line, 20 px high, 40 px apart."""
    words = []
    for li, line in enumerate(lines):
        for text, x0, x1, conf in line:
            words.append(WordBox(text, (x0, 100 + 40 * li, x1, 120 + 40 * li), conf, li + 1, 1))
    return OcrPage(1000, 1000, tuple(words), "tesseract")


def second(*lines, y0=100):
    """lines: [(text, x0, x1)] of the second engine, line ids from 1, on rows like first_page."""
    return [WordBox(text, (x0, y0 + 40 * li, x1, y0 + 20 + 40 * li), 95.0, li + 1, 0)
            for li, line in enumerate(lines) for text, x0, x1 in line]


def test_a_value_only_the_second_engine_read_joins_the_line_of_its_label():
    first = first_page([("Name:", 10, 60, 96)], [("Date", 10, 50, 95)])
    fused = fuse_pages(first, second([("John", 80, 120), ("Smith", 130, 180)]), "f")
    assert fused.text.split("\n")[0] == "Name: John Smith"
    assert fused.engine == "f" and len(fused.words) == 4


def test_a_line_read_alike_adds_nothing():
    first = first_page([("Account", 10, 80, 92), ("58213907", 90, 170, 91)])
    fused = fuse_pages(first, second([("Account", 11, 79), ("58213907", 91, 169)]), "f")
    assert fused.text == first.text


def test_a_different_reading_over_unsure_words_stays_as_an_alternative():
    first = first_page([("Account", 10, 80, 92), ("5B2l39O7", 90, 170, 31)])
    fused = fuse_pages(first, second([("Account", 11, 79), ("58213907", 91, 169)]), "f")
    blocks = fused.text.split("\n\n")
    assert blocks[0] == "Account 5B2l39O7" and blocks[-1] == "Account 58213907"
    alt = fused.words[-1]
    assert alt.text == "58213907" and alt.bbox == (91, 100, 169, 120)   # its own pixels


def test_over_sure_words_the_first_reading_stands():
    first = first_page([("information", 10, 120, 93), ("contained", 130, 220, 90)])
    fused = fuse_pages(first, second([("information.contained", 10, 220)]), "f")
    assert fused.text == first.text


def test_a_line_on_no_row_of_the_first_engine_is_a_line_of_its_own():
    first = first_page([("Invoice", 10, 80, 95)])
    fused = fuse_pages(first, second([("Holloway", 10, 90)], y0=500), "f")
    assert fused.text == "Invoice\n\nHolloway"


def _page_with_struck_value():
    img = Image.new("RGB", (900, 260), "white")
    d = ImageDraw.Draw(img)
    f = ImageFont.truetype(FONT, 26)
    d.text((30, 30), "Invoice for Margaret Holloway", font=f, fill="black")
    # a value struck through, as corrected print on a form is: Tesseract reads garbage there
    d.text((30, 135), "Account 58213907 Gregory", font=f, fill="black")
    d.line((25, 150, 420, 150), fill="black", width=3)
    return img


def test_weak_regions_are_the_unsure_lines_and_the_unread_ink():
    img = _page_with_struck_value()
    gray = np.asarray(img.convert("L"))
    first = first_page([("Invoice", 30, 120, 95)])     # read only the first word of line one
    first = OcrPage(900, 260, (WordBox("Invoice", (30, 36, 118, 57), 95.0, 1, 1),), "t")
    regions = weak_regions(gray, first, 128.0)
    def covers(x, y):
        return any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in regions)
    assert covers(300, 46)            # "Margaret Holloway": ink no word covers
    assert covers(200, 150)           # the struck line
    assert not covers(70, 46)         # "Invoice" was read


needs_engines = pytest.mark.skipif(
    RapidOcr.unavailable_reason() is not None or TesseractOcr.unavailable_reason() is not None,
    reason="needs tesseract and rapidocr-onnxruntime")


@needs_engines
def test_fusion_reads_a_struck_through_value_tesseract_cannot():
    img = _page_with_struck_value()
    assert "58213907" not in TesseractOcr().read(img).text       # the premise
    fused = FusedOcr().read(img)
    assert fused.engine == "tesseract+rapidocr"
    hit = [w for w in fused.words if w.text == "58213907"]
    assert hit and 120 <= hit[0].bbox[0] and hit[0].bbox[2] <= 300 and 130 <= hit[0].bbox[1]


@needs_engines
def test_default_detectors_on_the_fusion_hide_the_struck_account_number():
    img = _page_with_struck_value()
    d = ImageDraw.Draw(img)
    f = ImageFont.truetype(FONT, 26)
    x = 30 + d.textlength("Account ", font=f)
    digits = d.textbbox((x, 135), "58213907", font=f)
    result = Redactor(ocr="tesseract+rapidocr").analyze(img)
    assert any(b[0] <= digits[0] + 1 and b[2] >= digits[2] - 1 and b[1] <= digits[1] + 1
               and b[3] >= digits[3] - 1 for b in (r.bbox for r in result.redactions)), \
        (digits, [(r.type, r.value, r.bbox) for r in result.redactions])


@needs_engines
def test_where_is_checked_and_reported():
    from redactor.errors import InputError
    with pytest.raises(InputError, match="where"):
        FusedOcr(where="everywhere")
    assert "where=page" in FusedOcr(where="page").fingerprint()
