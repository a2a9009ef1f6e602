"""Critical boxes grown over ink OCR did not read: rendered pages, word boxes as OCR gives
them with a part of the value missing."""
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from redactor.model import Redaction, WordBox
from redactor.unread_ink import grow_redactions_over_unread_ink

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def render(parts, gaps=None, size=32, border_after=None):
    """A white page with ``parts`` on one line, ``gaps`` px apart (default a space); returns
    the grey array and each part's ink box."""
    font = ImageFont.truetype(SANS, size)
    img = Image.new("L", (1600, 160), 255)
    draw = ImageDraw.Draw(img)
    x, boxes = 40, []
    space = draw.textlength(" ", font=font)
    for k, p in enumerate(parts):
        b = draw.textbbox((x, 50), p, font=font)
        draw.text((x, 50), p, font=font, fill=0)
        boxes.append(tuple(float(v) for v in b))
        x = b[2] + (gaps[k] if gaps else space)
        if border_after == k:
            draw.line([(x - space / 2, 20), (x - space / 2, 140)], fill=0, width=3)
    return np.asarray(img), boxes


def ink_right(gray, box):
    """The last inked column of ``box`` (+1)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    cols = np.nonzero((gray[y0:y1 + 1, x0:x1 + 1] < 128).any(axis=0))[0]
    return x0 + int(cols[-1]) + 1


def words_for(boxes, texts, keep):
    return [WordBox(t, b, 90.0, 0, 0) for k, (t, b) in enumerate(zip(texts, boxes)) if k in keep]


def test_a_box_grows_over_the_part_of_a_number_ocr_missed():
    texts = ["Phone:", "555", "123", "4567"]
    gray, boxes = render(texts)
    words = words_for(boxes, texts, {0, 1, 2})          # OCR dropped "4567"
    red = Redaction((boxes[1][0], boxes[1][1], boxes[2][2], boxes[2][3]), "PHONE", "555 123")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words)
    assert grown.bbox[2] >= ink_right(gray, boxes[3])    # the missing group is hidden
    assert grown.bbox[0] == red.bbox[0]                  # the label, a word OCR read, is not


def test_no_growth_over_words_ocr_read_or_ink_beyond_a_word_space():
    texts = ["555", "123", "Thanks"]
    gray, boxes = render(texts)
    red = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "PHONE", "555 123")
    (same,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1, 2}))
    assert same.bbox == red.bbox
    # the same ink, unread but a column away: another field
    gray, boxes = render(texts, gaps=[12, 200, 0])
    red = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "PHONE", "555 123")
    (same,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1}))
    assert same.bbox == red.bbox


def test_a_cell_border_stops_the_growth():
    texts = ["555", "123", "4567"]
    gray, boxes = render(texts, border_after=1)
    red = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "PHONE", "555 123")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1}))
    assert grown.bbox[2] < boxes[2][0]


def test_only_critical_types_grow():
    texts = ["March", "5,", "2024"]
    gray, boxes = render(texts)
    red = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "DATE", "March 5,")
    assert grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1})) == [red]
