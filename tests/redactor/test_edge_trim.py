"""Edge punctuation cut off word boxes on the ink: rendered words, real Tesseract."""
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redactor.aligner import align_spans
from redactor.edge_trim import trim_word_box
from redactor.model import OcrPage, Span, WordBox

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"


def render(parts, font_path=SANS, size=40):
    """A white page with ``parts`` written one after another on one line; returns the grey
    array and the ink box of each part (x0, y0, x1, y1)."""
    font = ImageFont.truetype(font_path, size)
    img = Image.new("L", (60 + 40 * sum(len(p) for p in parts), 120), 255)
    draw = ImageDraw.Draw(img)
    x, boxes = 30, []
    for p in parts:
        draw.text((x, 30), p, font=font, fill=0)
        boxes.append([int(round(v)) for v in draw.textbbox((x, 30), p, font=font)])
        x += draw.textlength(p, font=font)
    gray = np.asarray(img)
    ink = []
    for b in boxes:
        sub = gray[b[1]:b[3] + 1, max(0, b[0] - 1):b[2] + 1] < 128
        b = (max(0, b[0] - 1), b[1])
        ys, xs = np.nonzero(sub)
        ink.append((int(b[0] + xs.min()), int(b[1] + ys.min()), int(b[0] + xs.max() + 1),
                    int(b[1] + ys.max() + 1)))
    return gray, ink


def word_box(ink_boxes):
    return (min(b[0] for b in ink_boxes), min(b[1] for b in ink_boxes),
            max(b[2] for b in ink_boxes), max(b[3] for b in ink_boxes))


@pytest.mark.parametrize("font_path", [SANS, SERIF])
def test_trailing_comma_is_cut_and_its_descender_with_it(font_path):
    gray, (name, comma) = render(["Gina", ","], font_path)
    box = word_box([name, comma])
    cut = trim_word_box(gray, box, "Gina,", 0, 4)
    assert cut is not None
    assert cut[0] <= name[0] and cut[2] >= name[2]        # all of the name stays hidden
    assert cut[2] <= comma[0]                              # the comma is out
    assert cut[3] <= name[3] < box[3]                      # so is its descender


def test_brackets_and_full_stop_around_a_reference_are_cut():
    gray, (lb, value, rb, stop) = render(["(", "SH46997", ")", "."])
    box = word_box([lb, value, rb, stop])
    cut = trim_word_box(gray, box, "(SH46997).", 1, 8)
    assert cut is not None
    assert cut[0] <= value[0] and cut[2] >= value[2]
    assert cut[0] >= lb[2] and cut[2] <= rb[0]


@pytest.mark.parametrize("font_path", [SANS, SERIF])
def test_brackets_of_a_bold_serif_number_are_cut(font_path):
    # brackets of heavier faces are wider against the word box's height than DejaVu's
    font = font_path.replace("Regular", "Bold").replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
    gray, (lb, value, rb, stop) = render(["(", "9755-841", ")", "."], font)
    cut = trim_word_box(gray, word_box([lb, value, rb, stop]), "(9755-841).", 1, 9)
    assert cut is not None
    assert cut[0] <= value[0] and cut[2] >= value[2]
    assert cut[0] >= lb[2] and cut[2] <= rb[0]


def test_a_fill_in_line_touching_the_value_is_cut():
    gray, (line, value) = render(["____", "(744)"])
    cut = trim_word_box(gray, word_box([line, value]), "_(744)", 1, 6)
    assert cut is not None and cut[0] >= line[2] - 1 and cut[2] >= value[2]
    # every inked pixel of the value above the line is inside the cut box
    above = gray[value[1]:line[1], line[2] - 1:int(cut[0])]
    assert not (above < 128).any()
    # a letter read as "_" is not flat: it stays
    gray, (letter, value) = render(["x", "(744)"])
    assert trim_word_box(gray, word_box([letter, value]), "_(744)", 1, 6) is None


def test_angle_brackets_around_an_email_are_cut():
    gray, (lb, value, rb) = render(["<", "ana@acme.org", ">"])
    cut = trim_word_box(gray, word_box([lb, value, rb]), "<ana@acme.org>", 1, 13)
    assert cut is not None and cut[0] >= lb[2] and cut[2] <= rb[0]
    assert cut[0] <= value[0] and cut[2] >= value[2]


def test_no_cut_when_the_rest_of_the_word_is_not_punctuation():
    gray, (label, value) = render(["Acct#", "1234"])
    assert trim_word_box(gray, word_box([label, value]), "Acct#1234", 5, 9) is None


def test_no_cut_when_the_edge_glyph_does_not_look_like_the_punctuation_read():
    # OCR said "Bill," but the last glyph is a letter (the comma was a misreading): the
    # letter must not be uncovered.
    gray, (name,) = render(["Billy"])
    assert trim_word_box(gray, name, "Bill,", 0, 4) is None


def test_no_cut_when_a_bracket_touches_the_last_digit():
    gray, (value, rb) = render(["5391", ")"])
    # join the bracket to the digit with a bar of ink, as a dark scan would
    gray = gray.copy()
    mid = (value[1] + value[3]) // 2
    gray[mid - 2:mid + 2, value[2] - 3:rb[0] + 3] = 0
    assert trim_word_box(gray, word_box([value, rb]), "5391)", 0, 4) is None


def test_no_cut_for_bar_or_bang_which_are_often_a_misread_one():
    gray, (value, bar) = render(["539", "|"])
    assert trim_word_box(gray, word_box([value, bar]), "539|", 0, 3) is None


def test_align_spans_cuts_punctuation_only_when_asked_with_the_image_and_confident_words():
    gray, (dear, name, comma) = render(["Dear ", "Gina", ","])
    words = (WordBox("Dear", dear, 95.0, line=1, block=1),
             WordBox("Gina,", word_box([name, comma]), 95.0, line=1, block=1))
    page = OcrPage(gray.shape[1], gray.shape[0], words, "test")
    span = Span(5, 9, "PERSON", 0.9, "t")
    assert page.text[5:9] == "Gina"
    without = align_spans(page, [span], cut_punctuation=True).redactions[0]
    assert without.value == "Gina," and without.bbox[2] >= comma[2]
    # by default the word is boxed as printed, its comma with it (as annotators box it)
    default = align_spans(page, [span], image=gray).redactions[0]
    assert default.value == "Gina," and default.bbox[2] >= comma[2]
    with_image = align_spans(page, [span], image=gray, cut_punctuation=True).redactions[0]
    assert with_image.value == "Gina" and with_image.bbox[2] <= comma[0]
    unsure = OcrPage(page.width, page.height, (words[0], WordBox("Gina,", words[1].bbox, 40.0, 1, 1)), "test")
    assert align_spans(unsure, [span], image=gray, cut_punctuation=True).redactions[0].value == "Gina,"


def test_a_fill_in_line_touching_a_value_is_cut_by_default():
    gray, (rule, value) = render(["____", "4471"])
    page = OcrPage(gray.shape[1], gray.shape[0], (WordBox("_4471", word_box([rule, value]), 95.0, 1, 1),),
                   "test")
    [red] = align_spans(page, [Span(1, 5, "REFERENCE_NUMBER", 0.9, "t")], image=gray).redactions
    assert red.value == "4471" and red.bbox[0] >= rule[2] - 1 and red.bbox[2] >= value[2]


def test_real_tesseract_page_name_box_leaves_comma_but_hides_every_letter():
    from redactor.config import RedactorConfig
    from redactor.pipeline import Redactor

    gray, (dear, name, comma, rest) = render(["Dear ", "Maria Lopez", ",", " thank you."], size=36)
    img = Image.fromarray(gray)
    r = Redactor(RedactorConfig(cut_punctuation=True))
    result = r.analyze(img)
    people = [x for x in result.redactions if x.type == "PERSON"]
    assert people, [w.text for w in result.ocr.words]
    box = people[0].bbox
    assert box[0] <= name[0] + 1 and box[2] >= name[2] - 1     # the name stays hidden
    assert box[2] < comma[2]                                   # the comma's far edge is not


@pytest.mark.parametrize("font_path", [SANS, SERIF])
def test_two_names_a_slash_joins_are_cut_apart_at_the_slash(font_path):
    """"Williams/Giordano" read as one word: each name's box holds all of its own ink and
    at most a sliver (a third of a character) of the other name's."""
    from redactor.edge_trim import cut_at_slash

    gray, (first, slash, second) = render(["Williams", "/", "Giordano"], font_path)
    box = word_box([first, slash, second])
    sliver = (box[2] - box[0]) / 17 / 3
    left = cut_at_slash(gray, box, "Williams/Giordano", 0, 8)
    right = cut_at_slash(gray, box, "Williams/Giordano", 9, 17)
    assert left is not None and right is not None
    assert left[0] <= first[0] and left[2] >= first[2] and left[2] <= second[0] + sliver
    assert right[2] >= second[2] and right[0] <= second[0] and right[0] >= first[2] - sliver


def test_a_slash_before_a_number_or_a_word_in_lower_case_is_no_cut():
    from redactor.edge_trim import cut_at_slash

    gray, parts = render(["Williams", "/", "1978"])
    assert cut_at_slash(gray, word_box(parts), "Williams/1978", 0, 8) is None
    # only a person's span is cut at a slash (the aligner asks for persons only)
    gray, parts = render(["and", "/", "or"])
    page = OcrPage(gray.shape[1], gray.shape[0], (WordBox("and/or", word_box(parts), 95.0, 0, 0),), "test")
    [red] = align_spans(page, [Span(0, 3, "ORGANIZATION", 0.9, "x")], image=gray).redactions
    assert red.bbox == word_box(parts)


def test_a_person_found_beside_a_slash_brings_the_other_name_and_each_gets_its_box():
    from redactor.slash_names import split_slash_joined_names

    gray, (first, slash, second) = render(["Williams", "/", "Giordano"])
    text = "Williams/Giordano"
    page = OcrPage(gray.shape[1], gray.shape[0], (WordBox(text, word_box([first, slash, second]), 95.0, 0, 0),),
                   "test")
    spans = split_slash_joined_names(text, [Span(0, 8, "PERSON", 0.85, "presidio")])
    assert sorted(text[s.start:s.end] for s in spans) == ["Giordano", "Williams"]
    boxes = sorted(r.bbox for r in align_spans(page, spans, image=gray).redactions)
    assert len(boxes) == 2
    sliver = (second[2] - first[0]) / 17 / 3
    assert boxes[0][2] <= second[0] + sliver and boxes[1][0] >= first[2] - sliver
    assert boxes[0][0] <= first[0] and boxes[0][2] >= first[2]
    assert boxes[1][0] <= second[0] and boxes[1][2] >= second[2]


@pytest.mark.parametrize("value,parts", [("John Smith/Mary Jones", ["John Smith", "Mary Jones"]),
                                         ("RSS/RDC", ["RSS", "RDC"]),
                                         ("and/or", ["and/or"]), ("3/4", ["3/4"])])
def test_a_persons_span_across_a_slash_is_one_span_per_name(value, parts):
    from redactor.slash_names import split_slash_joined_names

    spans = split_slash_joined_names(value, [Span(0, len(value), "PERSON", 0.85, "presidio")])
    assert [value[s.start:s.end] for s in spans] == parts


def test_an_initial_the_slash_took_into_its_word_joins_the_rest_of_its_name():
    """"J. F. Anders/J. E. Mann": OCR reads "Anders/J." as one word, so the second name's
    first initial and the rest of it ("E. Mann", found as a name) are one person."""
    from redactor.slash_names import split_slash_joined_names

    text = "LEADER J. F. Anders/J. E. Mann\nWORK"
    first, rest = text.index("J. F."), text.index("E. Mann")
    spans = split_slash_joined_names(text, [Span(first, text.index("/"), "PERSON", 0.9, "rules"),
                                            Span(rest, rest + 7, "PERSON", 0.9, "rules")])
    assert sorted(text[s.start:s.end] for s in spans) == ["J. E. Mann", "J. F. Anders"]
    # a name that does not go on after the initial stays as it was
    text = "LEADER J. F. Anders/J. and E. Mann"
    rest = text.index("E. Mann")
    spans = split_slash_joined_names(text, [Span(first, text.index("/"), "PERSON", 0.9, "rules"),
                                            Span(rest, rest + 7, "PERSON", 0.9, "rules")])
    assert sorted(text[s.start:s.end] for s in spans) == ["E. Mann", "J.", "J. F. Anders"]


def test_a_closing_quote_and_bracket_that_touch_are_cut_together():
    """A contract's defined term, '(“CDN”)': the closing quote and bracket often touch in
    print and make one run of ink, which is still two narrow marks, not a letter."""
    font = ImageFont.truetype(SERIF, 40)
    img = Image.new("L", (400, 120), 255)
    draw = ImageDraw.Draw(img)
    x = 30
    boxes = {}
    for part, nudge in (("(", 0), ("“", 0), ("CDN", 0), ("”", 0), (")", -7)):
        x += nudge
        draw.text((x, 30), part, font=font, fill=0)
        boxes[part] = draw.textbbox((x, 30), part, font=font)
        x += draw.textlength(part, font=font)
    gray = np.asarray(img)
    from redactor.edge_trim import _runs
    q0, b1 = int(boxes["”"][0]), int(boxes[")"][2]) + 1
    # the quote's second stroke touches the bracket: two runs of ink for three marks
    assert len(_runs((gray[:, q0:b1] < 128).any(axis=0))) == 2
    box = (boxes["("][0], 25, boxes[")"][2], 90)
    cut = trim_word_box(gray, box, "(“CDN”)", 2, 5)
    assert cut is not None
    v0, v1 = int(boxes["CDN"][0]), int(boxes["CDN"][2]) + 1
    cols = np.nonzero((gray[:, v0:v1] < 128).any(axis=0))[0] + v0
    assert cut[0] <= cols[0] and cut[2] >= cols[-1] + 1          # every letter stays hidden
    assert cut[2] <= boxes["”"][0] + 2 and cut[0] >= boxes["“"][2] - 2


@pytest.mark.parametrize("font_path", [SANS, SERIF, "/usr/share/fonts/truetype/freefont/FreeMono.ttf"])
@pytest.mark.parametrize("caption, value", [("No.", "436"), ("Tel.", "5551234"), ("Date:", "12/3/92")])
def test_a_caption_read_glued_to_its_value_is_cut_off_at_its_stop(font_path, caption, value):
    """"No.436" read as one word off a typed "No. 436": the value's box starts at its
    first digit's ink, the caption and its stop stay outside."""
    from redactor.edge_trim import cut_after_caption

    gray, (cap, val) = render([caption, value], font_path)
    text = caption + value
    cut = cut_after_caption(gray, word_box([cap, val]), text, len(caption), len(text))
    assert cut is not None
    assert cut[0] <= val[0] and cut[2] >= val[2] and cut[0] >= cap[2] - 1


def test_no_caption_cut_inside_a_value_or_after_an_initial():
    from redactor.edge_trim import cut_after_caption

    gray, parts = render(["No.4.", "36"])          # the stop found is not the caption's
    assert cut_after_caption(gray, word_box(parts), "No.4.36", 5, 7) is None
    gray, parts = render(["J.", "Smith"])          # an initial is no caption
    assert cut_after_caption(gray, word_box(parts), "J.Smith", 2, 7) is None
    gray, parts = render(["No", "436"])            # no stop on the ink where "." was read
    assert cut_after_caption(gray, word_box(parts), "No.436", 3, 6) is None


def test_align_spans_boxes_a_number_glued_to_its_caption_without_the_caption():
    gray, (cap, val) = render(["No.", "436"], "/usr/share/fonts/truetype/freefont/FreeMono.ttf")
    box = word_box([cap, val])
    page = OcrPage(gray.shape[1], gray.shape[0], (WordBox("No.436", box, 90.0, 0, 0),), "test")
    [red] = align_spans(page, [Span(3, 6, "REFERENCE_NUMBER", 0.9, "rules")], image=gray).redactions
    assert red.value == "436" and red.bbox[0] >= cap[2] - 1 and red.bbox[2] >= val[2]
    # without the image there is no ink to cut on: the whole word
    [red] = align_spans(page, [Span(3, 6, "REFERENCE_NUMBER", 0.9, "rules")]).redactions
    assert red.bbox == box


def _on_fill_in_line(parts, line_from, font_path=SERIF):
    """``parts`` rendered on one line with a fill-in line drawn through their feet from the
    right edge of part ``line_from`` to the end (a value typed on a form's line)."""
    gray, ink = render(parts, font_path)
    img = Image.fromarray(gray.copy())
    foot = max(b[3] for b in ink) - 3
    ImageDraw.Draw(img).line([(ink[line_from][2] + 2, foot), (ink[-1][2] + 20, foot)], fill=0, width=2)
    return np.asarray(img), ink


def test_a_caption_read_glued_to_its_value_across_a_fill_in_line_is_cut_off_at_the_line():
    """"Date_March" read as one word off a form's "Date ____" with the date typed on the
    line: the value's box starts where the bare line ends, the caption stays outside."""
    from redactor.edge_trim import cut_after_fill_in

    gray, (cap, val) = _on_fill_in_line(["Date  ", "March"], 0)
    box = word_box([cap, val])
    cut = cut_after_fill_in(gray, box, "Date_March", 5, 10)
    assert cut is not None
    assert cap[2] - 1 <= cut[0] <= val[0] and cut[2] >= val[2]


def test_no_fill_in_cut_without_a_bare_line_or_inside_the_value():
    from redactor.edge_trim import cut_after_fill_in

    gray, (cap, val) = render(["Date", "March"], SERIF)          # "_" read where no line is
    assert cut_after_fill_in(gray, word_box([cap, val]), "Date_March", 5, 10) is None
    # the line runs under the value only: no bare stretch of it before the value
    gray, (cap, val) = _on_fill_in_line(["Name", "Johnson"], 0)
    cut = cut_after_fill_in(gray, word_box([cap, val]), "Name_Johnson", 5, 12)
    assert cut is None


def test_align_spans_boxes_a_date_glued_to_its_caption_across_the_line_without_the_caption():
    gray, (cap, val) = _on_fill_in_line(["Date  ", "March"], 0)
    box = word_box([cap, val])
    page = OcrPage(gray.shape[1], gray.shape[0], (WordBox("Date_March", box, 90.0, 0, 0),), "test")
    [red] = align_spans(page, [Span(5, 10, "DATE", 0.9, "rules")], image=gray).redactions
    assert red.value == "March" and cap[2] - 1 <= red.bbox[0] <= val[0] and red.bbox[2] >= val[2]
