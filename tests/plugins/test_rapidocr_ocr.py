"""Tests of the rapidocr OCR backend (PP-OCRv4 on onnxruntime, models from the wheel) on pages
rendered here: known words come back one by one with ink-tight boxes in the pixel space of
the image given; the words PP-OCR runs together are cut where the ink shows a space; and the
plugin is listed and fails typed."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor_plugins.rapidocr_ocr import RapidOcr, page_words, phantom_stops, words_of_line, word_gaps
from redactor import registry
from redactor.errors import InputError

pytestmark = pytest.mark.skipif(RapidOcr.unavailable_reason() is not None,
                                reason=str(RapidOcr.unavailable_reason()))

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
LINES = ["Patient Margaret Holloway", "Account 58213907 balance due",
         "Telephone 555 0142 extension 19", "Name: Gregory Little"]


@pytest.fixture(scope="module")
def engine():
    return RapidOcr()


def render(font_px: int = 28, offset: int = 0):
    img = Image.new("RGB", (int(font_px * 24) + offset, int(font_px * 11) + offset), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, font_px)
    truth = []
    for i, line in enumerate(LINES):
        x, y = font_px + offset, font_px + offset + i * int(font_px * 2.2)
        for word in line.split():
            draw.text((x, y), word, font=font, fill="black")
            truth.append((word, draw.textbbox((x, y), word, font=font)))
            x += draw.textlength(word + " ", font=font)
    return img, truth


def _found(page, word, box):
    x0, y0, x1, y1 = box
    for w in page.words:
        cx, cy = (w.bbox[0] + w.bbox[2]) / 2, (w.bbox[1] + w.bbox[3]) / 2
        if w.text.strip(".,:") == word.strip(".,:") and x0 <= cx <= x1 and y0 <= cy <= y1:
            return w
    return None


@pytest.mark.parametrize("offset", [0, 137])
def test_known_words_come_back_with_boxes_over_their_ink(engine, offset):
    img, truth = render(offset=offset)
    page = engine.read(img)
    assert page.engine == "rapidocr" and page.width == img.width and page.height == img.height
    found = [_found(page, word, box) for word, box in truth]
    assert sum(f is not None for f in found) >= len(truth) - 1, page.text
    for (word, box), w in zip(truth, found):
        if w is None:
            continue
        # ink-tight: the engine's own boxes are the padded line's height; ours are the word's
        assert w.bbox[3] - w.bbox[1] <= 1.4 * (box[3] - box[1]), (word, w.bbox, box)
        assert 0 <= w.conf <= 100


def test_label_and_value_on_one_row_are_one_line_in_reading_order(engine):
    img, _ = render()
    page = engine.read(img)
    lines = page.text.split("\n")
    assert any("Name:" in line and "Gregory" in line and "Little" in line for line in lines), lines
    assert page.text.index("Patient") < page.text.index("Account") < page.text.index("Telephone")


def test_registered_and_listed():
    assert "rapidocr" in registry.names("ocr") and "tesseract+rapidocr" in registry.names("ocr")
    assert isinstance(registry.create("ocr", "rapidocr"), RapidOcr)


def test_bad_option_is_an_input_error():
    with pytest.raises(InputError, match="threads"):
        RapidOcr(threads="many")


def test_blank_page_reads_no_words(engine):
    page = engine.read(Image.new("RGB", (400, 300), "white"))
    assert page.words == ()


# --- the word cutting, on one line built by hand: characters, their boxes, and the ink ----

def _line(text: str, gaps: dict[int, int], pitch: int = 10, height: int = 20):
    """An engine line for ``text`` with no spaces, characters ``pitch`` wide (ink 8 px of it,
    as print sets letters)
    and an extra blank ``gaps[i]`` px before character i; returns the item and a grey page."""
    x, quads, boxes = 5, [], []
    for i, _ in enumerate(text):
        x += gaps.get(i, 0)
        boxes.append((x, 5, x + pitch, 5 + height))
        quads.append([[x, 5], [x + pitch, 5], [x + pitch, 5 + height], [x, 5 + height]])
        x += pitch
    gray = np.full((40, x + 10), 255, np.uint8)
    for ch, (x0, y0, x1, y1) in zip(text, boxes):
        if ch == ".":
            gray[y1 - 5:y1 - 2, x0 + 2:x0 + 8] = 0
        else:
            gray[y0 + 2:y1 - 2, x0 + 1:x0 + 9] = 0
    line_quad = [[0, 0], [x + 5, 0], [x + 5, 30], [0, 30]]
    item = [line_quad, text, 0.9, quads, list(text), [0.9] * len(text)]
    return item, gray


def test_a_blank_gap_as_wide_as_a_space_cuts_a_run_together_word():
    item, gray = _line("GregoryLittle", {7: 8})
    assert [w[0] for w in words_of_line(item, gray)] == ["Gregory", "Little"]
    item, gray = _line("Confirmation", {})
    assert [w[0] for w in words_of_line(item, gray)] == ["Confirmation"]


def test_a_label_colon_ends_the_label_but_a_url_scheme_does_not():
    item, gray = _line("Fax:305", {})
    assert [w[0] for w in words_of_line(item, gray)] == ["Fax:", "305"]
    chars = list("http://x")
    assert 5 not in word_gaps(chars, [(i, 0, i + 1, 1) for i in range(len(chars))], (0, 0, 9, 1), None)


def test_a_stop_written_for_a_space_is_dropped_and_a_printed_one_kept():
    item, gray = _line("has.read", {})
    # no ink where the stop is: the gap from "s" to "r" is one blank run
    gray[:, 35:45] = 255
    assert [w[0] for w in words_of_line(item, gray)] == ["has", "read"]
    item, gray = _line("fara.gov", {})
    assert 4 not in phantom_stops(list("fara.gov"), [], None)
    assert [w[0] for w in words_of_line(item, gray)] == ["fara.gov"]


def test_underscores_of_a_fill_in_rule_are_not_part_of_the_value():
    item, gray = _line("No._6030", {})
    assert [w[0] for w in words_of_line(item, gray)] == ["No.", "6030"]


def test_word_boxes_are_fitted_to_the_ink():
    item, gray = _line("Smith", {})
    (_, box, _), = words_of_line(item, gray)
    assert box[1] == 7 and box[3] == 23      # the ink rows, not the line's padded 0..30


def test_lines_far_apart_on_one_row_are_separate_lines():
    left = ([("Name:", (10, 10, 60, 30), 90.0)], (10, 10, 60, 30))
    near = ([("John", (70, 10, 110, 30), 90.0)], (70, 10, 110, 30))
    far = ([("Page", (900, 10, 950, 30), 90.0)], (900, 10, 950, 30))
    words = page_words([far, near, left])
    assert [w.text for w in words] == ["Name:", "John", "Page"]
    assert words[0].line == words[1].line != words[2].line


def test_initials_run_into_a_name_are_cut_after_their_stop():
    item, gray = _line("M.Hamann", {2: 1})
    assert [w[0] for w in words_of_line(item, gray)] == ["M.", "Hamann"]
