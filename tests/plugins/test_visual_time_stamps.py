"""Time-clock stamps (issue 32): a receipt stamp's date and time in a condensed, worn face
running up a letter's margin, read with real Tesseract (the page's OCR and the detector's
own read), found as DATE by its ink; and the stamp grammar on readings as Tesseract gives
them for such faces on the real dev scans."""
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from box_checks import iou
from redactor import registry
from redactor.config import RedactorConfig
from redactor_eval.benchmarks.visual_pages import FONT, PAGE
from redactor_plugins.tesseract_ocr import TesseractOcr
from redactor_plugins._stamp_grammar import stamp_marks, stamp_score

pytest.importorskip("cv2")
if TesseractOcr.unavailable_reason():
    pytest.skip("tesseract not installed", allow_module_level=True)


def stamp_page(lines: list[str], seed: int = 3):
    """A letter with a time-clock stamp running up its right margin: the stamp's lines in a
    face squeezed to half its width, a third of its ink dropped in specks (worn type), turned
    a quarter. Returns the page and the box of the stamp's ink."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    body = ["Dear Sir or Madam,", "Please find enclosed the statement required by the Act,",
            "together with the exhibits listed in the schedule below.", "The registrant's office",
            "remains at the address given in the previous filing.", "Yours faithfully,"]
    for i, t in enumerate(body):
        d.text((110, 160 + 40 * i), t, font=font, fill=0)
    strip = Image.new("L", (640, 44 * len(lines)), 255)
    sd = ImageDraw.Draw(strip)
    for i, t in enumerate(lines):
        sd.text((4, 4 + 44 * i), t, font=ImageFont.truetype(FONT, 30), fill=0)
    strip = strip.resize((320, strip.height))
    a = np.asarray(strip).copy()
    a[(a < 128) & (np.random.default_rng(seed).random(a.shape) < 0.3)] = 255
    strip = Image.fromarray(a).rotate(90, expand=True)
    x, y = 1120, 420
    img.paste(strip, (x, y))
    ys, xs = np.nonzero(np.asarray(strip) < 128)
    return img.convert("RGB"), (x + xs.min(), y + ys.min(), x + xs.max() + 1, y + ys.max() + 1)


def spaced_stamp_page(text: str, gap: int = 40, wear: float = 0.3, seed: int = 3):
    """A letter with a time clock's stamp running down its right margin, its fields spaced
    ``gap`` px apart (before the face is squeezed to half its width), ``wear`` of its ink
    dropped in specks: at the body text's join the rotated-text blocks see a word or two.
    Returns the page and the box of the stamp's ink."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    for i, t in enumerate(["Dear Sir or Madam,", "Please find enclosed the statement required by the Act,",
                           "together with the exhibits listed in the schedule below.", "Yours faithfully,"]):
        d.text((110, 160 + 40 * i), t, font=ImageFont.truetype(FONT, 22), fill=0)
    face = ImageFont.truetype(FONT, 30)
    fields = text.split()
    widths = [int(d.textlength(f, font=face)) for f in fields]
    strip = Image.new("L", (sum(widths) + gap * len(fields) + 8, 44), 255)
    x = 4
    for f, w in zip(fields, widths):
        ImageDraw.Draw(strip).text((x, 4), f, font=face, fill=0)
        x += w + gap
    a = np.asarray(strip.resize((strip.width // 2, strip.height))).copy()
    a[(a < 128) & (np.random.default_rng(seed).random(a.shape) < wear)] = 255
    strip = Image.fromarray(a).rotate(-90, expand=True)
    img.paste(strip, (1120, 420))
    ys, xs = np.nonzero(np.asarray(strip) < 128)
    return img.convert("RGB"), (1120 + xs.min(), 420 + ys.min(), 1120 + xs.max() + 1, 420 + ys.max() + 1)


def upright_stamp_page(text: str, wear: float, width: int = 440, seed: int = 3):
    """A filing's heading with a time-clock stamp pressed upright above it (1.5 degrees off):
    a face twice the body's height, squeezed to 440 px, ``wear`` of its ink dropped in
    specks. Returns the page and the box of the stamp's ink."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    body = ["AMENDMENT TO REGISTRATION STATEMENT", "Pursuant to the Foreign Agents Registration Act",
            "of 1938, as amended, the registrant files the", "statement required by the Act."]
    for i, t in enumerate(body):
        d.text((110, 300 + 40 * i), t, font=font, fill=0)
    strip = Image.new("L", (900, 70), 255)
    ImageDraw.Draw(strip).text((4, 4), text, font=ImageFont.truetype(FONT, 48), fill=0)
    a = np.asarray(strip.resize((width, 70))).copy()
    a[(a < 128) & (np.random.default_rng(seed).random(a.shape) < wear)] = 255
    strip = Image.fromarray(a).rotate(1.5, expand=True, fillcolor=255)
    img.paste(strip, (110, 180))
    ys, xs = np.nonzero(np.asarray(strip) < 128)
    return img.convert("RGB"), (110 + xs.min(), 180 + ys.min(), 110 + xs.max() + 1, 180 + ys.max() + 1)


@pytest.fixture(scope="module")
def page_ocr():
    return TesseractOcr()


def test_registered_and_in_the_default():
    assert registry.emits_of("visual", "time_stamps") == {"DATE"}
    assert "time_stamps" in RedactorConfig().visual


def test_worn_stamp_running_up_the_margin_is_a_date(page_ocr):
    image, stamp = stamp_page(["98 JUN 19 AM 10:16"])
    found = registry.create("visual", "time_stamps").find(image, page_ocr.read(image))
    assert [r.type for r in found] == ["DATE"]
    assert iou(found[0].bbox, stamp) >= 0.7
    assert found[0].sources == ("time_stamps",)


def test_a_time_clock_stamp_spaced_wide_down_the_margin_is_a_date(page_ocr):
    """A time clock spaces its fields wide ("'92 MAY 14 A7:48" on a real dev filing): the
    rotated-text blocks break it into words, the margin's column join keeps it one line."""
    from redactor_plugins import _rotated_text as rotated
    from redactor_plugins import _scan_cleanup as sc
    from redactor_plugins.visual_common import gray_of, text_height, words_of
    from redactor_plugins.visual_time_stamps import MIN_ANGLE, margin_blocks

    image, stamp = spaced_stamp_page("'92 MAY 14 A7:48")
    page = page_ocr.read(image)
    gray, words = gray_of(image), words_of(page)
    h = text_height(words, gray.shape[0])
    seen = [(w.text, w.bbox, w.conf) for w in words]
    assert not any(iou(b.box, stamp) >= 0.5 for b in rotated.find_blocks(gray, seen, h) if abs(b.angle) >= MIN_ANGLE)
    blocks = margin_blocks(sc.merged_ink_mask(gray), words, h, [])
    assert any(iou(b.box, stamp) >= 0.8 and abs(b.angle) >= 80 for b in blocks)
    found = registry.create("visual", "time_stamps").find(image, page)
    assert [r.type for r in found] == ["DATE"] and iou(found[0].bbox, stamp) >= 0.8


def test_a_margin_line_without_a_date_is_left(page_ocr):
    """The registry's own words stamped up the margin hold nothing personal."""
    image, _ = stamp_page(["REGISTRATION UNIT COPY"])
    assert registry.create("visual", "time_stamps").find(image, page_ocr.read(image)) == []


def test_a_page_without_ink_at_an_angle_costs_no_read(page_ocr, monkeypatch):
    img = Image.new("L", PAGE, 255)
    ImageDraw.Draw(img).text((110, 160), "Dear Sir or Madam, please find enclosed the statement.",
                             font=ImageFont.truetype(FONT, 22), fill=0)
    image = img.convert("RGB")
    detector = registry.create("visual", "time_stamps")
    monkeypatch.setattr(detector, "_reader", lambda: pytest.fail("read without a line at an angle"))
    assert detector.find(image, page_ocr.read(image)) == []


@pytest.mark.parametrize("reading,marks", [
    # readings Tesseract gave of received-stamps on the real dev scans (FARA filings)
    ("98 JUN YB sii lo: 16", {"month", "clock", "numbers"}),
    ("SS AUG Im PH =p tes", {"month", "meridiem"}),
    ("7MS JAH 27 PH", {"month", "meridiem"}),
    ("768 hUG 2] PH [2:08", {"meridiem", "clock", "numbers"}),
    # the registry's early-1990s clock prints its meridiem as one letter before the time
    # (unseen FARA filings: "MAR -5 P1:33"; "'92 MAR 23 P2:06" read with its colon as a 3)
    ("MAR -5 P1:33", {"month", "meridiem", "clock"}),
    ("92 WR 23 P2306", {"letter_clock", "numbers"}),
    # the year printed in full beside the month, its figures worn ("2009 SEP 25" up an
    # unseen FARA filing's ruled margin)
    ("[2809 SEP zp,", {"year", "month"}),
])
def test_a_worn_stamp_reading_shows_its_marks(reading, marks):
    assert stamp_marks(reading) == marks
    assert stamp_score(reading) == len(marks)


@pytest.mark.parametrize("reading", [
    "FORE socee wer — amo So MASE eee EOF os Sore an eS one",   # an address block 6 degrees off
    "Ar= 7 sar; 7 soné>y",                                       # handwriting at 20 degrees
    "Yyus mo 49 39 Y",
    "REGISTRATION UNIT",
    "1228408709 202-371-5769",                                   # numbers without a month or AM/PM
    "Room 2009",                                                 # a year's shape with no month beside it
])
def test_readings_without_a_stamps_grammar_score_nothing(reading):
    assert stamp_score(reading) == 0


def test_a_stamps_marks_may_come_from_its_several_readings():
    """"2006 JAN 27" in a worn face as Tesseract read it at each of the detector's sizes on a
    real dev scan: no reading alone has a month and a second mark, together they have; two
    readings of the registry's words together still have none."""
    from redactor_plugins._stamp_grammar import marks_score
    readings = ["TRE LEN O7", "7M4 MAN D7", "704 LEN 27"]
    assert max(stamp_score(r) for r in readings) == 0
    assert marks_score(set().union(*(stamp_marks(r) for r in readings))) == 2
    words = ["CRM/ISS/REGISTRATION UNIT", "CRMISS REGISTRATION UNT", "REGISTRATION 2"]
    assert marks_score(set().union(*(stamp_marks(r) for r in words))) == 0


def test_a_meridiem_letter_without_its_colon_counts_only_in_its_own_reading():
    """"A218" may be a code: a meridiem beside its own reading's numbers, not gathered from
    a line's other readings (a generated invoice's column read as "6 A218 Big & &", "215",
    "455")."""
    from redactor_plugins._stamp_grammar import SINGLE_READING, marks_score
    assert stamp_score("6 A218 Big & &") == 0 and stamp_score("A218") == 0
    readings = ["6 A218 Big & &", "«e € 215 B£iZz 2 €", "oo 455 EFi2 & &"]
    assert marks_score(set().union(*(stamp_marks(r) - SINGLE_READING for r in readings))) == 0
    assert stamp_score("92 WR 23 P2306") == 2


def test_a_worn_stamp_pressed_upright_is_a_date(page_ocr):
    """A received stamp pressed square to the page, as on a FARA filing ("NOV 3 2 01 PM 1967"
    over its heading): the page read gets only unsure fragments of it; its big, widely spaced
    letters are joined into a line and read."""
    image, stamp = upright_stamp_page("NOV  3   2 01 PM  1967", wear=0.3)
    page = page_ocr.read(image)
    assert not [w.text for w in page.words if w.bbox[3] < 260 and w.conf >= 80], "read by the page OCR"
    found = registry.create("visual", "time_stamps").find(image, page)
    assert [r.type for r in found] == ["DATE"]
    assert iou(found[0].bbox, stamp) >= 0.8


def test_the_registrys_own_words_stamped_upright_are_left(page_ocr):
    image, _ = upright_stamp_page("RECEIVED  DEPT OF JUSTICE", wear=0.4)
    assert registry.create("visual", "time_stamps").find(image, page_ocr.read(image)) == []


def test_a_column_of_checkboxes_leading_lines_is_no_margin_stamp():
    # a FARA amendment's options stacked down the page: each box opens a line of read words
    # ("[x] To correct a deficiency in", "[ ] Initial Statement"); a time clock's figures
    # pressed down a margin open none
    from redactor.plugin_api import WordBox
    from redactor_plugins.visual_time_stamps import _opening_lines

    h = 16.0
    boxes = np.array([[180, 840 + 44 * k, 16, 16, 200] for k in range(6)])
    words = [WordBox(t, (204, 840 + 44 * k, 204 + 14 * len(t), 856 + 44 * k), 95.0, line=k)
             for k, t in enumerate(["To", "To", "Initial", "Supplemental", "Other", "To"])]
    assert _opening_lines(boxes, (0, 0), words, h)
    assert not _opening_lines(boxes, (0, 0), [], h)
    far = [WordBox(w.text, (w.bbox[0] + 200, w.bbox[1], w.bbox[2] + 200, w.bbox[3]), 95.0, line=w.line)
           for w in words]
    assert not _opening_lines(boxes, (0, 0), far, h)


def test_a_rule_along_a_stamps_line_does_not_cut_it_in_halves():
    """A form's rule along a stamp's line (an unseen FARA filing's "2007 SEP 27 PM 2:48" up
    its ruled margin) fills its rows far more than the letters do: weighed against it, the
    letters' thin middle rows fell short and the line came out as two halves."""
    from redactor_plugins.visual_time_stamps import line_bands
    ink = np.zeros((40, 300), bool)
    for x in range(10, 290, 14):           # letters 24 rows tall: full top and foot, thin stems
        ink[8:11, x:x + 6] = True
        ink[29:32, x:x + 6] = True
        ink[8:32, x] = ink[8:32, x + 5] = True
    ink[30, :] = True                       # the rule along the line
    assert line_bands(ink) == [(8, 32)]
    two = np.vstack([ink[:36], ink[:36]])   # two such lines stacked stay two
    assert len(line_bands(two)) == 2
