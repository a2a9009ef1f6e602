"""Stamps and seals, and decoded code text typed by the text detectors (issue 32): rendered
pages through the real detectors, real Tesseract for the OCR words, real OpenCV."""
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from box_checks import contains, iou
from redactor import registry
from redactor.errors import InputError
from redactor.visual import find_visual
from redactor_eval.benchmarks.visual_pages import FONT, PAGE, draw_qr, draw_stamp, generated_pages

pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def pages():
    return {name: (image, golds) for name, image, golds in generated_pages() if name.startswith("stamp")}


def test_stamps_registered_with_their_types():
    assert "stamps" in registry.names("visual")
    assert registry.emits_of("visual", "stamps") == {"PERSON", "DATE", "OTHER"}


def test_bad_option_is_one_clear_line():
    with pytest.raises(InputError) as err:
        registry.create("visual", "stamps", colour="sometimes")
    assert "colour" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("name,kind", [("stamp-colour", "PERSON"), ("stamp-grey", "DATE")])
def test_stamp_with_a_date_or_name_is_hidden_by_its_ink(ocr, pages, name, kind):
    """A blue received-stamp turned 12 degrees on a letter (date and name: PERSON, the most
    sensitive it holds) and a grey double-ring oval turned -8 degrees (date and file number)."""
    image, [(gold, gold_type)] = pages[name]
    assert gold_type == kind
    found = registry.create("visual", "stamps").find(image, ocr.read(image))
    assert [r.type for r in found] == [kind]
    assert contains(found[0].bbox, gold) and iou(found[0].bbox, gold) >= 0.85
    assert found[0].sources == ("stamps",)


def test_stamp_without_personal_content_is_left(ocr, pages):
    """A red "COPY" stamp and a grey "ORIGINAL" oval hold nothing personal; a letterhead
    printed in blue holds a phone number but is square to the page and unframed: print."""
    image, golds = pages["stamp-no-content"]
    assert golds == []
    assert registry.create("visual", "stamps").find(image, ocr.read(image)) == []


def test_printed_box_square_to_the_page_is_no_stamp(ocr):
    """A form's printed box holding a date is print (the text detectors' business), not a
    stamp: it sits square to the page."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "Please return this form to the office named below.", font=font, fill=0)
    d.rectangle((600, 400, 1000, 560), outline=0, width=3)
    d.text((630, 430), "FOR OFFICE USE", font=font, fill=0)
    d.text((630, 480), "Date: 14 MAR 2024", font=font, fill=0)
    image = img.convert("RGB")
    assert registry.create("visual", "stamps").find(image, ocr.read(image)) == []


def test_stamp_pressed_over_a_form_line_on_a_grey_scan(ocr):
    """A round seal whose ring a printed rule crosses (no closed contour) is found as a
    circle and read upright once the rule is taken out."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    for i, line in enumerate(["Dear Sir,", "Please find enclosed the documents you asked for."]):
        d.text((110, 140 + 34 * i), line, font=font, fill=0)
    page, gold = draw_stamp(img.convert("RGB"), 500, 420, ["RECEIVED", "3 JUN 1987"], ink=(40, 40, 40),
                            shape="circle", angle=0.0, size=26)
    arr = np.asarray(page.convert("L")).copy()
    arr[(gold[1] + gold[3]) // 2:(gold[1] + gold[3]) // 2 + 2, 100:1150] = 0
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "stamps").find(image, ocr.read(image))
    assert [r.type for r in found] == ["DATE"]
    assert iou(found[0].bbox, gold) >= 0.6


def test_decoded_code_text_typed_by_the_text_detectors():
    """A QR code holding a contact card, with no label beside it: the codes plugin alone can
    say only OTHER; run through the rules detector it is PHONE (the card's number; the
    default detectors also read its name: PERSON, in the benchmark). A number beside its
    label keeps the label's type."""
    arr = np.full((PAGE[1], PAGE[0]), 255, np.uint8)
    card = "BEGIN:VCARD\nVERSION:3.0\nFN:Maria Gonzalez\nTEL:+1-555-201-4471\nEND:VCARD"
    gold = draw_qr(arr, 400, 480, card, module=5)
    image = Image.fromarray(arr).convert("RGB")
    codes = registry.create("visual", "codes")
    rules = registry.create("detector", "rules")
    [alone] = find_visual([codes], image, None)
    assert alone.type == "OTHER" and alone.value == card
    [typed] = find_visual([codes], image, None, text_detectors=[rules])
    assert typed.type == "PHONE" and typed.value == card and contains(typed.bbox, gold)

    from redactor.model import OcrPage, WordBox
    arr = np.full((PAGE[1], PAGE[0]), 255, np.uint8)
    draw_qr(arr, 400, 480, "4471-2209-88")
    page = OcrPage(PAGE[0], PAGE[1], (WordBox("Account", (200, 520, 290, 542), 95, line=0),
                                      WordBox("No.", (296, 520, 330, 542), 95, line=0)), "test")
    [r] = find_visual([codes], Image.fromarray(arr).convert("RGB"), page, text_detectors=[rules])
    assert r.type == "ACCOUNT_NUMBER"


def test_the_pipeline_types_a_codes_text_with_its_own_detectors(ocr):
    # the default pipeline hands its text detectors (rules, Presidio) to the visual stage: a
    # contact card in a QR code is hidden as the person it names, not as an anonymous OTHER
    from redactor.config import RedactorConfig
    from redactor.pipeline import Redactor
    arr = np.full((PAGE[1], PAGE[0]), 255, np.uint8)
    card = "BEGIN:VCARD\nVERSION:3.0\nFN:Maria Gonzalez\nTEL:+1-555-201-4471\nEND:VCARD"
    gold = draw_qr(arr, 400, 480, card, module=5)
    result = Redactor(RedactorConfig(visual=["codes"])).analyze(Image.fromarray(arr).convert("RGB"))
    [code] = [r for r in result.redactions if "codes" in r.sources]
    assert code.type == "PERSON" and contains(code.bbox, gold)
