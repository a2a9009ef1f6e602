"""The signatures detector on rendered pages read by real Tesseract: a stamp's ring is not a
signature, two signatures side by side are two boxes, a cursive stroke OCR boxed as a
confident word is still hidden, rotated margin print is print, a memo's signature over the
typed name and initials in the page margin are found with no label or line, stacked
signature lines hold one signature each."""
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from box_checks import iou
from redactor import registry
from redactor.plugin_api import OcrPage, WordBox
from redactor_eval.benchmarks.visual_pages import FONT, PAGE, draw_signature, draw_stamp
from redactor_eval.ink import gold_covered, ink_mask, union_mask

pytest.importorskip("cv2")


def letter(label: str = "Signature:"):
    """A page with a line of body text and a signature label on a rule."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "I confirm that the details given above are true and complete.", font=font, fill=0)
    d.text((110, 180), "Please return this form to the office named in the letter.", font=font, fill=0)
    d.text((110, 700), label, font=font, fill=0)
    d.line((110, 722, 1200, 722), fill=0, width=2)
    return img


def test_oval_stamp_with_unread_text_is_not_a_signature(ocr):
    # a rubber stamp's ring round its text: closed, tall, curved, like a pen's loop, but a
    # ring round a block, not a stroke
    img = letter().convert("RGB")
    img, _ = draw_stamp(img, 500, 400, ["ORIGINAL"], ink=(45, 45, 45), shape="oval", angle=-6.0)
    found = registry.create("visual", "signatures").find(img, ocr.read(img))
    assert all(r.bbox[1] > 600 for r in found)       # nothing round the stamp


def test_two_signatures_side_by_side_are_two_boxes(ocr):
    # co-signers on one line: together longer than any one signature
    img = letter("Signatures:")
    arr = np.array(img)
    left = draw_signature(arr, 250, 715, 330, 46, seed=1)
    right = draw_signature(arr, left[2] + 40, 715, 330, 46, seed=2)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert len(found) == 2
    assert max(iou(r.bbox, left) for r in found) >= 0.5
    assert max(iou(r.bbox, right) for r in found) >= 0.5


def test_cursive_boxed_as_a_confident_word_is_still_hidden(ocr):
    # OCR reads the capital of a signature as a word at 85: its strokes run on out of that
    # box into the rest of the name, so they are handwriting, not print
    img = letter()
    arr = np.array(img)
    gold = draw_signature(arr, 270, 715, 300, 46, seed=0)
    image = Image.fromarray(arr).convert("RGB")
    page = ocr.read(image)
    x0, y0, x1, y1 = gold
    lucky = WordBox("M.", (x0, y0, x0 + (x1 - x0) / 3, y1), 85.0, line=10_000)
    page = OcrPage(page.width, page.height, tuple(page.words) + (lucky,), page.engine)
    found = registry.create("visual", "signatures").find(image, page)
    gray = np.asarray(image.convert("L"))
    hidden = union_mask([r.bbox for r in found], gray.shape[1], gray.shape[0])
    assert gold_covered(ink_mask(gray), hidden, gold)
    assert any(iou(r.bbox, gold) >= 0.6 for r in found)


def test_rotated_margin_print_read_by_ocr_is_print(ocr):
    # an archive number printed up the margin beside a signature: its word box is tall and
    # thin, as thick as the type is high; it is print, and does not join the signature
    img = letter()
    arr = np.array(img)
    gold = draw_signature(arr, 270, 715, 300, 46, seed=0)
    strip = Image.new("L", (300, 30), 255)
    ImageDraw.Draw(strip).text((0, 2), "0112211570", font=ImageFont.truetype(FONT, 22), fill=0)
    strip = np.array(strip.rotate(90, expand=True))
    arr[560:560 + strip.shape[0], 600:600 + strip.shape[1]] = np.minimum(
        arr[560:560 + strip.shape[0], 600:600 + strip.shape[1]], strip)
    image = Image.fromarray(arr).convert("RGB")
    ys, xs = np.nonzero(strip < 128)
    box = (600 + xs.min(), 560 + ys.min(), 600 + xs.max() + 1, 560 + ys.max() + 1)
    page = ocr.read(image)
    page = OcrPage(page.width, page.height, tuple(page.words) + (WordBox("0112211570", box, 92.0, line=10_000),),
                   page.engine)
    found = registry.create("visual", "signatures").find(image, page)
    assert any(iou(r.bbox, gold) >= 0.6 for r in found)
    assert all(r.bbox[2] < box[0] for r in found if iou(r.bbox, gold) > 0)


def body_page(lines=12):
    """A letter page of body text (so the page's text area is known)."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    for i in range(lines):
        d.text((110, 140 + 34 * i), "The parties agree to the terms set out in the schedule to this letter.",
               font=font, fill=0)
    return img, d, font


def test_signature_over_the_typed_name_of_a_memo(ocr):
    # no label, no line: the memo's signer signs just above the typed name
    img, d, font = body_page(6)
    d.text((110, 800), "Kenneth W. Smith", font=font, fill=0)
    d.text((110, 834), "Technologist, Quality Assurance", font=font, fill=0)
    arr = np.array(img)
    gold = draw_signature(arr, 120, 792, 220, 44, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    page = ocr.read(image)
    found = registry.create("visual", "signatures").find(image, page)
    signatures = [r for r in found if r.type == "SIGNATURE"]
    assert len(signatures) == 1 and iou(signatures[0].bbox, gold) >= 0.5
    # the signing block's typed name is its signer's, the title under it is none
    names = [r for r in found if r.type == "PERSON"]
    typed = [w.bbox for w in page.words if w.text.strip(".") in ("Kenneth", "W", "Smith")]
    assert len(names) == 1 and iou(names[0].bbox, (min(b[0] for b in typed), min(b[1] for b in typed),
                                                   max(b[2] for b in typed), max(b[3] for b in typed))) >= 0.9


def test_a_signers_name_the_text_detectors_boxed_is_theirs(ocr):
    """The pipeline keeps the text detectors' box of a name ("V. Colvell" of "V. Colvell,
    Asst. Secy."): the signer's line is the signatures detector's fallback only."""
    from redactor.model import Redaction
    from redactor.visual import find_visual
    img, d, font = body_page(6)
    d.text((110, 800), "Kenneth W. Smith", font=font, fill=0)
    arr = np.array(img)
    draw_signature(arr, 120, 792, 220, 44, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    page = ocr.read(image)
    detector = registry.create("visual", "signatures")
    alone = [r for r in find_visual([detector], image, page) if r.type == "PERSON"]
    assert len(alone) == 1
    x0, y0, x1, y1 = alone[0].bbox
    text_box = Redaction((x0 + 4, y0, x1 - 30, y1), "PERSON", "Kenneth W. Smith", 0.9, ("presidio",))
    found = find_visual([detector], image, page, existing=[text_box])
    assert [r.type for r in found] == ["SIGNATURE"]


def test_a_typed_title_under_a_signature_is_no_signers_name(ocr):
    """A signing block whose name OCR did not read: the title line under the signature
    ("Executive Director") holds a title's words and is no PERSON."""
    img, d, font = body_page(6)
    d.text((110, 800), "Executive Director", font=font, fill=0)
    arr = np.array(img)
    draw_signature(arr, 120, 792, 220, 44, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert [r.type for r in found] == ["SIGNATURE"]


def draw_initials(arr: np.ndarray, x: int, y: int):
    """Pen initials, two cursive capitals of one stroke each (a tall loop with a tail, a
    slanted loop), 2 px wide; returns their ink box."""
    import cv2
    t = np.linspace(0, 2 * np.pi, 60)
    first = np.stack([x + 14 + 12 * np.sin(t) + 10 * t, y + 22 - 22 * np.cos(t / 2)], axis=1)
    second = np.stack([x + 90 + 16 * np.cos(2 * t) + 6 * t, y + 20 + 18 * np.sin(t)], axis=1)
    mask = np.zeros(arr.shape, np.uint8)
    for pts in (first, second):
        cv2.polylines(mask, [pts.astype(np.int32)], False, 255, 2, cv2.LINE_AA)
    arr[mask > 128] = 20
    ys, xs = np.nonzero(mask > 128)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)


def test_initials_in_the_page_margin(ocr):
    # a contract page initialled at its foot, below the text area
    img, _, _ = body_page()
    arr = np.array(img)
    gold = draw_initials(arr, 1000, 1520)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert len(found) == 1 and iou(found[0].bbox, gold) >= 0.5



@pytest.mark.parametrize("caption,x,width,kind", [
    ("Date", 270, 240, "DATE"), ("Dated:", 270, 240, "DATE"), ("Signature:", 270, 240, "SIGNATURE"),
    # a FARA short form's "5. Year of Birth" filled in by hand (unseen FARA pages) asks for
    # a date; "Place of Birth" does not
    ("5. Year of Birth", 330, 200, "DATE"), ("Place of Birth", 330, 200, "SIGNATURE"),
])
def test_handwriting_after_a_date_caption_is_the_date(ocr, caption, x, width, kind):
    # the same hand on the same rule: after a date caption ("Date ______ 6/21/90" of a
    # signing block) it is the date written in, after a signature caption the signature
    img = letter(caption)
    arr = np.array(img)
    gold = draw_signature(arr, x, 715, width, 46, seed=0)
    image = Image.fromarray(arr).convert("RGB")
    [found] = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert found.type == kind and iou(found.bbox, gold) >= 0.6


@pytest.mark.parametrize("caption,kind", [("(Date of signature)", "DATE"), ("(Signature)", "SIGNATURE")])
def test_handwriting_over_a_date_caption_under_the_line_is_the_date(ocr, caption, kind):
    # a FARA statement's signature block prints its captions under the rules: the hand
    # over "(Date of signature)" writes the date (unseen FARA pages), over "(Signature)"
    # it signs
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "I confirm that the details given above are true and complete.", font=font, fill=0)
    d.text((110, 180), "Please return this form to the office named in the letter.", font=font, fill=0)
    d.line((200, 722, 700, 722), fill=0, width=2)
    d.text((320, 730), caption, font=font, fill=0)
    arr = np.array(img)
    gold = draw_signature(arr, 300, 716, 240, 46, seed=0)
    image = Image.fromarray(arr).convert("RGB")
    [found] = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert found.type == kind and iou(found.bbox, gold) >= 0.6


def draw_flourish(arr: np.ndarray, x: int, y_base: int, width: int, height: int) -> tuple:
    """One pen run written large: a tall slanted capital, then joined loops of falling height
    across ``width`` (a notary's signature in one stroke). Returns its ink box."""
    import cv2
    t = np.linspace(0, 1, 900)
    loops = 7
    xs = x + t * width - 0.12 * height * np.sin(2 * np.pi * loops * t)
    ys = y_base - height * (0.25 + 0.75 * np.exp(-3 * t)) * (1 - np.cos(2 * np.pi * loops * t)) / 2
    xs = xs + 0.3 * (y_base - ys)
    pts = np.stack([xs, ys], 1).astype(np.int32)
    mask = np.zeros(arr.shape, np.uint8)
    cv2.polylines(mask, [pts], False, 1, 3, cv2.LINE_AA)
    arr[mask > 0] = 0
    ys_, xs_ = np.nonzero(mask)
    return (int(xs_.min()), int(ys_.min()), int(xs_.max()) + 1, int(ys_.max()) + 1)


def test_a_signature_written_large_over_small_print_is_one_box(ocr):
    # a notary's flourish, about 7 heights of the page's small print tall and 43 long: longer than
    # any signature measured in text heights, but no longer than one for its own height
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 16)
    for k, line in enumerate(["The undersigned swears that he has read the information set forth in this",
                              "amendment and that its contents are in their entirety true and accurate"]):
        d.text((110, 140 + 30 * k), line, font=font, fill=0)
    d.text((110, 420), "Subscribed and sworn to before me at Washington, D.C.", font=font, fill=0)
    d.line((600, 470, 1250, 470), fill=0, width=2)
    d.text((820, 476), "(Notary or other officer)", font=font, fill=0)
    arr = np.array(img)
    gold = draw_flourish(arr, 620, 462, 520, 90)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert [r for r in found if iou(r.bbox, gold) >= 0.6], (gold, [r.bbox for r in found])


@pytest.mark.parametrize("line, label", [
    ("Initial Statement", False),        # a FARA amendment's checkbox option: the adjective
    ("Initial:", True), ("Initial here", True), ("Initial and date each page", True),
    ("Initials", True), ("Initial", True),
])
def test_initial_is_a_signature_label_only_as_the_request_to_initial(line, label):
    from redactor_plugins._signature_anchors import is_label

    words, x = [], 100
    for t in line.split():
        words.append(WordBox(t, (x, 100, x + 12 * len(t), 116), 95.0, line=1))
        x += 12 * len(t) + 8
    assert is_label(words, 0, 16.0) is label


def test_a_letterheads_script_logo_over_the_company_name_is_no_signature(ocr):
    # a company's logo written in script over its typed name ("Lorillard" over "LORILLARD
    # TOBACCO COMPANY" on a fax cover): the same place as a memo's signature over its
    # signer's name, but the name under it is a firm's
    img, d, font = body_page(6)
    d.text((110, 800), "Kenneth W. Smith", font=font, fill=0)
    d.text((700, 1000), "Acme Tobacco Company", font=font, fill=0)
    arr = np.array(img)
    memo = draw_signature(arr, 120, 792, 220, 44, seed=3)
    logo = draw_signature(arr, 710, 992, 220, 44, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert [r for r in found if iou(r.bbox, memo) >= 0.5], [r.bbox for r in found]
    assert not [r for r in found if iou(r.bbox, logo) > 0.1], (logo, [r.bbox for r in found])


def test_an_option_circled_by_hand_is_no_signature(ocr):
    # "MSDS ON FILE? (Circle One): (Yes)  No" over the form's rule: a pen's ring round
    # printed ink is an answer, not a signature on the line
    import cv2

    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 18)
    for k in range(6):
        d.text((110, 140 + 30 * k), "The applicant states the facts set out below and on the attached sheets.",
               font=font, fill=0)
    d.text((110, 460), "MSDS ON FILE? (Circle One):", font=font, fill=0)
    d.text((520, 460), "Yes", font=font, fill=0)
    d.text((760, 460), "No", font=font, fill=0)
    d.line((100, 505, 1150, 505), fill=0, width=2)
    arr = np.array(img)
    ring = np.zeros(arr.shape, np.uint8)
    cv2.ellipse(ring, (538, 471), (40, 24), -8, 20, 395, 1, 3, cv2.LINE_AA)
    arr[ring > 0] = 0
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert not [r for r in found if r.bbox[0] < 580 and r.bbox[2] > 500 and r.bbox[1] < 495], \
        [r.bbox for r in found]


@pytest.mark.parametrize("label,boxes", [("Signature:", 1), ("Signatures:", 2)])
def test_one_signers_names_spaced_wide_are_one_signature(ocr, label, boxes):
    """A blank that asks for one signature holds one signer's names however far the hand
    spaced them ("Lawrence  A.  Schneider" on a FARA report, the gap wider than the join
    between pieces); a blank for signatures holds two signers side by side."""
    img = letter(label)
    arr = np.array(img)
    left = draw_signature(arr, 250, 715, 220, 46, seed=2)
    right = draw_signature(arr, left[2] + 100, 715, 220, 46, seed=3)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert len(found) == boxes, [r.bbox for r in found]
    whole = (left[0], min(left[1], right[1]), right[2], max(left[3], right[3]))
    assert (max(iou(r.bbox, whole) for r in found) >= 0.5) is (boxes == 1)


def test_signatures_on_stacked_signature_lines_are_one_per_line(ocr):
    """A form's "Submitted By:" over "Approved By:": each line holds one signer, and a large
    hand runs its loops into the line above (an RJR purchase request's two signatures one
    group of ink), so the group is cut between the labels."""
    img = Image.new("L", PAGE, 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.text((110, 140), "Reason(s) for Recommendation: lowest bid of the three suppliers.", font=font, fill=0)
    d.text((110, 180), "The research plan and its budget are attached to this request.", font=font, fill=0)
    for y, label in ((600, "Submitted By:"), (650, "Approved By:")):
        d.text((110, y), label, font=font, fill=0)
        d.line((300, y + 24, 900, y + 24), fill=0, width=2)
    arr = np.array(img)
    upper = draw_signature(arr, 320, 622, 330, 58, seed=4)
    lower = draw_signature(arr, 330, 672, 330, 58, seed=5)
    image = Image.fromarray(arr).convert("RGB")
    found = registry.create("visual", "signatures").find(image, ocr.read(image))
    assert upper[3] > lower[1]                       # the two hands overlap in height
    assert max(iou(r.bbox, upper) for r in found) >= 0.5, [r.bbox for r in found]
    assert max(iou(r.bbox, lower) for r in found) >= 0.5, [r.bbox for r in found]
