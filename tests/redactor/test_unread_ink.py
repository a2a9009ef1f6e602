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


MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def render_with(parts, font_path, gap_h, dotted=False, size=32):
    """Like render, in another face, ``gap_h`` text heights between the parts; ``dotted``
    breaks every stroke into 2x2 dots on a 3 px grid (a dot-matrix print, a dithered copy)."""
    font = ImageFont.truetype(font_path, size)
    img = Image.new("L", (1600, 160), 255)
    draw = ImageDraw.Draw(img)
    h = draw.textbbox((0, 0), "0", font=font)[3] - draw.textbbox((0, 0), "0", font=font)[1]
    x, boxes = 40, []
    for p in parts:
        b = draw.textbbox((x, 50), p, font=font)
        draw.text((x, 50), p, font=font, fill=0)
        boxes.append(tuple(float(v) for v in b))
        x = b[2] + gap_h * h
    gray = np.asarray(img)
    if dotted:
        grid = np.zeros(gray.shape, bool)
        grid[::3, ::3] = grid[1::3, ::3] = grid[::3, 1::3] = grid[1::3, 1::3] = True
        gray = np.where((gray < 128) & grid, 0, 255).astype(np.uint8)
    return gray, boxes


def ink_left(gray, box):
    x0, y0, x1, y1 = (int(v) for v in box)
    cols = np.nonzero((gray[y0:y1 + 1, x0:x1 + 1] < 128).any(axis=0))[0]
    return x0 + int(cols[0])


def test_a_widely_spaced_value_grows_over_its_unread_country_code_at_its_own_spacing():
    """A typewriter face spaces words wider than GAP: the "+1" OCR dropped lies as far from
    the number as the number's own groups lie apart, and is hidden; ink twice as far is not."""
    texts = ["+1", "214", "751", "3527"]
    gray, boxes = render_with(texts, MONO, 1.3)
    words = words_for(boxes, texts, {1, 2, 3})
    red = Redaction((boxes[1][0], boxes[1][1], boxes[3][2], boxes[3][3]), "PHONE", "214 751 3527")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words)
    assert grown.bbox[0] <= ink_left(gray, boxes[0])
    # a "+1" three heights away is no part of a number spaced 1.3 heights apart
    gray, boxes = render_with(texts, MONO, 1.3)
    gray = np.concatenate([gray[:, :int(boxes[0][2]) + 2],
                           np.full((gray.shape[0], int(1.7 * (boxes[1][3] - boxes[1][1]))), 255, np.uint8),
                           gray[:, int(boxes[0][2]) + 2:]], axis=1)
    shift = 1.7 * (boxes[1][3] - boxes[1][1])
    moved = [boxes[0]] + [(b[0] + shift, b[1], b[2] + shift, b[3]) for b in boxes[1:]]
    red = Redaction((moved[1][0], moved[1][1], moved[3][2], moved[3][3]), "PHONE", "214 751 3527")
    (same,) = grow_redactions_over_unread_ink(gray, [red], words_for(moved, texts, {1, 2, 3}))
    assert same.bbox[0] == red.bbox[0]


def test_a_dotted_print_grows_over_its_unread_part():
    """A dot-matrix or dithered print: each dot is smaller than a glyph, yet the dots of the
    unread "+1" make glyphs and are hidden."""
    texts = ["+1", "214", "751", "3527"]
    gray, boxes = render_with(texts, SANS, 0.3, dotted=True)
    red = Redaction((boxes[1][0], boxes[1][1], boxes[3][2], boxes[3][3]), "PHONE", "214 751 3527")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {1, 2, 3}))
    assert grown.bbox[0] <= ink_left(gray, boxes[0])


def test_a_short_word_read_over_the_values_first_letter_is_part_of_it():
    """OCR read the "J" of "Joshua" twice: a junk word "~Je" over its left half, and the name
    from its middle on. Two words never share ink, so the junk word's ink is the name's."""
    texts = ["for", "Joshua", "Alvarez"]
    gray, boxes = render(texts)
    j0, y0, _, y1 = boxes[1]
    jw = 0.5 * (y1 - y0)
    words = [WordBox("for", boxes[0], 96.0, 0, 0),
             WordBox("~Je", (j0 - 4, y0, j0 + 0.9 * jw, y1), 67.0, 0, 0),
             WordBox("Joshua", (j0 + 0.5 * jw, y0, boxes[1][2], y1), 96.0, 0, 0),
             WordBox("Alvarez", boxes[2], 95.0, 0, 0)]
    red = Redaction((j0 + 0.5 * jw, y0, boxes[2][2], y1), "PERSON", "Joshua Alvarez")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words)
    assert grown.bbox[0] <= ink_left(gray, boxes[1])
    assert grown.bbox[0] > boxes[0][2]                   # "for" stays readable
    # the value's own word, whose trailing comma the aligner cut off, is no double read
    texts = ["Todd,", "thanks"]
    gray, boxes = render(texts)
    words = words_for(boxes, texts, {0, 1})
    red = Redaction((boxes[0][0], boxes[0][1], boxes[0][2] - 8, boxes[0][3]), "PERSON", "Todd")
    (same,) = grow_redactions_over_unread_ink(gray, [red], words)
    assert same.bbox[2] < boxes[0][2]


def test_a_dotted_country_code_beside_a_solid_label_and_under_a_speck_word():
    """Over one corner of the dotted "+1" OCR read a speck ("¢1", a box a third of the
    text's height, unsure). The speck is no word that was read: the growth passes it, and
    the dots make glyphs though a solid label's strokes outnumber them in the crop."""
    font = ImageFont.truetype(SANS, 32)
    img = Image.new("L", (1600, 160), 255)
    draw = ImageDraw.Draw(img)
    label = draw.textbbox((40, 50), "Main office, reception desk, telephone:", font=font)
    draw.text((40, 50), "Main office, reception desk, telephone:", font=font, fill=0)
    dotted = Image.new("L", img.size, 255)
    ddraw = ImageDraw.Draw(dotted)
    x, boxes = label[2] + 60, []
    for p in ["+1", "214", "751", "3527"]:
        b = ddraw.textbbox((x, 50), p, font=font)
        ddraw.text((x, 50), p, font=font, fill=0)
        boxes.append(tuple(float(v) for v in b))
        x = b[2] + 12
    grid = np.zeros((img.size[1], img.size[0]), bool)
    for a in range(3):               # 3x3 dots on a 5 px grid: no dot is a mere fragment
        for b in range(3):
            grid[a::5, b::5] = True
    gray = np.asarray(img).copy()
    gray[(np.asarray(dotted) < 128) & grid] = 0
    h = boxes[1][3] - boxes[1][1]
    px0, py0, px1, _ = boxes[0]
    # the label's words are left out too (OCR gave none): its solid strokes in the crop
    # outnumber the dots, yet it lies too far off to be part of the number
    words = [WordBox("¢1", (px1 - 8, py0 + 0.3 * h, px1, py0 + 0.6 * h), 42.0, 0, 0)]
    words += [WordBox(t, b, 90.0, 0, 0) for t, b in zip(["214", "751", "3527"], boxes[1:])]
    red = Redaction((boxes[1][0], boxes[1][1], boxes[3][2], boxes[3][3]), "PHONE", "214 751 3527")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words)
    assert grown.bbox[0] <= ink_left(gray, boxes[0])
    assert grown.bbox[0] > label[2]                      # the label stays readable


def test_solid_glyphs_over_a_fill_in_line_are_not_joined_into_a_rule():
    """A surname OCR dropped, written just over a fill-in line: its solid glyphs are grown
    over one by one; joining them to the line as if they were dots would make a rule that
    stops the growth."""
    texts = ["To:", "Andrew", "Bowen"]
    gray, boxes = render(texts)
    gray = gray.copy()
    line_y = int(boxes[2][3]) + 2
    gray[line_y:line_y + 2, int(boxes[1][0]) - 10:int(boxes[2][2]) + 200] = 0
    red = Redaction(boxes[1], "PERSON", "Andrew")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1}))
    assert grown.bbox[2] >= ink_right(gray, (boxes[2][0], boxes[2][1], boxes[2][2], boxes[2][3] - 1))


def test_a_digit_struck_through_by_a_stamps_frame_is_grown_over():
    """"730-044" read, its last "2" unread and crossed by the edge of a stamp's frame that
    runs on along the line: the "2" and the frame are one wide component, yet the digit is
    ink a reader sees."""
    texts = ["730-044", "2"]
    gray, boxes = render(texts, gaps=[4, 0])
    digit_right = ink_right(gray, boxes[1])
    img = Image.fromarray(gray.copy())
    draw = ImageDraw.Draw(img)
    y = (boxes[1][1] + boxes[1][3]) / 2
    draw.line([(boxes[1][0] - 6, y), (boxes[1][2] + 400, y)], fill=0, width=4)
    draw.line([(boxes[1][2] + 400, y), (boxes[1][2] + 400, 10)], fill=0, width=4)
    gray = np.asarray(img)
    red = Redaction(boxes[0], "PHONE", "730-044")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0}))
    assert grown.bbox[2] >= digit_right
    assert grown.bbox[2] < digit_right + 100     # not along the frame


def test_a_cell_border_joined_to_a_rule_along_the_line_still_stops_the_growth():
    texts = ["555", "123", "4567"]
    gray, boxes = render(texts, border_after=1)
    img = Image.fromarray(gray.copy())
    y = (boxes[2][1] + boxes[2][3]) / 2
    ImageDraw.Draw(img).line([(boxes[1][2] + 4, y), (boxes[2][2] + 300, y)], fill=0, width=3)
    gray = np.asarray(img)
    red = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "PHONE", "555 123")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1}))
    assert grown.bbox[2] < boxes[2][0]


def test_a_garbled_word_ocr_was_unsure_of_is_grown_over_not_a_stop():
    """OCR read the missing group as garbage ("Of8", confidence 13): that word was misread,
    not judged, so the box grows over its ink as over unread ink; read surely, it stops."""
    texts = ["Phone:", "555", "123", "4567"]
    gray, boxes = render(texts)
    garbled = WordBox("Of8", boxes[3], 13.0, 1, 0)       # on a line of its own, too
    red = Redaction((boxes[1][0], boxes[1][1], boxes[2][2], boxes[2][3]), "PHONE", "555 123")
    (grown,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1, 2}) + [garbled])
    assert grown.bbox[2] >= ink_right(gray, boxes[3])
    sure = WordBox("Of8", boxes[3], 91.0, 1, 0)
    (same,) = grow_redactions_over_unread_ink(gray, [red], words_for(boxes, texts, {0, 1, 2}) + [sure])
    assert same.bbox[2] == red.bbox[2]


def test_another_redaction_stops_the_growth():
    """The unread ink beside a box that another redaction hides already is not taken in:
    it hides nothing more and only spoils both boxes' fit."""
    texts = ["555", "123", "4S67"]
    gray, boxes = render(texts)
    words = words_for(boxes, texts, {0, 1}) + [WordBox("4S67", boxes[2], 30.0, 0, 0)]
    phone = Redaction((boxes[0][0], boxes[0][1], boxes[1][2], boxes[1][3]), "PHONE", "555 123")
    other = Redaction(boxes[2], "REFERENCE_NUMBER", "4S67")
    grown_phone, _ = grow_redactions_over_unread_ink(gray, [phone, other], words)
    assert grown_phone.bbox[2] < boxes[2][0]
    (alone,) = grow_redactions_over_unread_ink(gray, [phone], words)
    assert alone.bbox[2] >= ink_right(gray, boxes[2])


def test_a_label_read_unsure_still_stops_the_growth():
    """"Tel:" (or "Tel") read at confidence 38 before a phone number is its label, not
    garbled ink: the box does not grow over it; a misread digit group there is."""
    texts = ["Tel", "555", "123", "4567"]
    gray, boxes = render(texts)
    red = Redaction((boxes[1][0], boxes[1][1], boxes[3][2], boxes[3][3]), "PHONE", "555 123 4567")
    for label in ("Tel:", "Tel"):      # a label by its colon, or a word no number begins with
        words = [WordBox(label, boxes[0], 38.0, 0, 0)] + words_for(boxes, texts, {1, 2, 3})
        (same,) = grow_redactions_over_unread_ink(gray, [red], words)
        assert same.bbox[0] == red.bbox[0]
    # the misread first group of the number (it has a digit) is grown over
    garbled = [WordBox("5l1", boxes[0], 38.0, 0, 0)] + words_for(boxes, texts, {1, 2, 3})
    (grown,) = grow_redactions_over_unread_ink(gray, [red], garbled)
    assert grown.bbox[0] <= boxes[0][0] + 2
