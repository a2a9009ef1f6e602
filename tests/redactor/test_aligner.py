"""Aligner: spans -> words -> minimum rectangles, on hand-built OCR pages."""
from redactor.aligner import align_spans, propagate_repeats, words_in_span
from redactor.model import OcrPage, Span, WordBox


def page_of(lines, block_of_line=None):
    """lines: list of [(text, x0, x1)]; each line 40 px high, 60 px apart."""
    words = []
    for li, line in enumerate(lines):
        y0 = 100 + 60 * li
        for text, x0, x1 in line:
            words.append(WordBox(text, (x0, y0, x1, y0 + 40), 95.0, line=li,
                                 block=(block_of_line or {}).get(li, 0)))
    return OcrPage(2000, 2000, tuple(words), "test")


def span_for(page, value, type_="PERSON", occurrence=0):
    start = -1
    for _ in range(occurrence + 1):
        start = page.text.index(value, start + 1)
    return Span(start, start + len(value), type_, 0.9, "t")


def test_page_text_offsets_are_exact():
    page = page_of([[("Name:", 10, 100), ("Maria", 120, 200), ("López", 210, 300)],
                    [("Tel", 10, 60)]], )
    assert page.text == "Name: Maria López\nTel"
    for w, (s, e) in zip(page.words, page.offsets):
        assert page.text[s:e] == w.text


def test_span_over_two_words_gives_their_minimum_rectangle():
    page = page_of([[("Name:", 10, 100), ("Maria", 120, 200), ("López", 210, 300)]])
    al = align_spans(page, [span_for(page, "Maria López")])
    assert [r.bbox for r in al.redactions] == [(120.0, 100.0, 300.0, 140.0)]
    assert al.redactions[0].value == "Maria López"
    assert al.dropped == []


def test_partial_word_span_takes_whole_word():
    page = page_of([[("Acct#12345678", 10, 300), ("due", 320, 400)]])
    start = page.text.index("12345678")
    al = align_spans(page, [Span(start, start + 8, "ACCOUNT_NUMBER")])
    assert al.redactions[0].bbox == (10.0, 100.0, 300.0, 140.0)
    assert al.redactions[0].value == "Acct#12345678"


def test_multiline_block_is_one_rectangle_in_auto_mode():
    page = page_of([[("12", 100, 140), ("Elm", 150, 220), ("St", 230, 270)],
                    [("Springfield,", 100, 300), ("IL", 310, 350), ("62701", 360, 460)]])
    al = align_spans(page, [span_for(page, "12 Elm St\nSpringfield, IL 62701", "ADDRESS")])
    assert [r.bbox for r in al.redactions] == [(100.0, 100.0, 460.0, 200.0)]
    assert al.redactions[0].value == "12 Elm St\nSpringfield, IL 62701"
    line_mode = align_spans(page, [span_for(page, "12 Elm St\nSpringfield, IL 62701", "ADDRESS")], "line")
    assert len(line_mode.redactions) == 2


def test_value_wrapped_across_line_end_gets_one_box_per_line():
    # "Lopez" hyphenated across a line break: a single rectangle would black out the
    # whole width of two lines.
    page = page_of([[("signed", 10, 200), ("by", 210, 260), ("Maria", 1500, 1600), ("Lo-", 1620, 1700)],
                    [("pez", 10, 90), ("on", 100, 140), ("Monday", 150, 400)]])
    al = align_spans(page, [span_for(page, "Maria Lo-\npez")])
    assert sorted(r.bbox for r in al.redactions) == [(10.0, 160.0, 90.0, 200.0),
                                                     (1500.0, 100.0, 1700.0, 140.0)]
    assert al.redactions[0].value == "Maria Lo-\npez"


def test_span_touching_no_word_is_dropped_and_counted():
    page = page_of([[("a", 10, 20), ("b", 40, 50)]])
    gap = page.text.index(" ")
    al = align_spans(page, [Span(gap, gap + 1, "OTHER"), Span(50, 60, "OTHER")])
    assert al.redactions == [] and len(al.dropped) == 2


def test_unicode_words_keep_offsets():
    page = page_of([[("Zoë", 10, 60), ("Ægir-Ødegård", 70, 300), ("北京", 310, 360)]])
    al = align_spans(page, [span_for(page, "Ægir-Ødegård")])
    assert al.redactions[0].bbox == (70.0, 100.0, 300.0, 140.0)
    assert words_in_span(page, *page.offsets[2]) == [2]


def test_repeated_values_are_all_redacted():
    page = page_of([[("Acct", 10, 80), ("#", 90, 100), ("4417-1234", 110, 300)],
                    [("Ref", 10, 80), ("4417-1234", 110, 300), ("again", 320, 400)],
                    [("x4417-12345", 10, 300)]])
    spans = propagate_repeats(page, [span_for(page, "4417-1234", "ACCOUNT_NUMBER")])
    al = align_spans(page, spans)
    assert sorted(r.bbox[1] for r in al.redactions) == [100.0, 160.0]   # not the longer id on line 3


def test_a_repeat_with_a_speck_read_as_a_stop_between_its_words_is_redacted():
    page = page_of([[("PLEASE", 10, 80), ("CALL", 90, 150), ("BRANDON", 160, 260), ("JOHNSON", 270, 370)],
                    [("FROM", 10, 80), ("BRANDON.", 90, 200), ("JOHNSON", 210, 310)],
                    [("BRANDONJOHNSON", 10, 300)]])
    spans = propagate_repeats(page, [span_for(page, "BRANDON JOHNSON", "PERSON")])
    assert sorted(page.text[s.start:s.end] for s in spans) == ["BRANDON JOHNSON", "BRANDON. JOHNSON"]


def test_value_split_across_table_cells_stays_one_box():
    page = page_of([[("Tel", 900, 960), ("568", 1036, 1073), ("268-1098", 1146, 1245), ("Net", 1367, 1403)]])
    al = align_spans(page, [span_for(page, "568 268-1098", "PHONE")])
    assert [r.bbox for r in al.redactions] == [(1036.0, 100.0, 1245.0, 140.0)]


def test_values_in_two_columns_of_one_ocr_line_get_two_boxes():
    page = page_of([[("Michelle", 184, 250), ("Silva", 256, 300), ("Michelle", 655, 720), ("Silva", 726, 771)]])
    al = align_spans(page, [span_for(page, "Michelle Silva Michelle Silva")])
    assert sorted(r.bbox for r in al.redactions) == [(184.0, 100.0, 300.0, 140.0), (655.0, 100.0, 771.0, 140.0)]


def test_address_lines_found_as_two_spans_become_one_block():
    # Street and city lines of one address, with another column's text between them in
    # reading order: two spans, one block box.
    page = page_of([[("34534", 142, 200), ("James", 206, 260), ("Parkways", 266, 331), ("Total", 900, 960)],
                    [("Carlsonberg,", 142, 250), ("OH", 256, 280), ("54071", 286, 331), ("$12.00", 900, 960)]])
    spans = [span_for(page, "34534 James Parkways", "ADDRESS"), span_for(page, "Carlsonberg, OH 54071", "ADDRESS")]
    al = align_spans(page, spans)
    assert [r.bbox for r in al.redactions] == [(142.0, 100.0, 331.0, 200.0)]
    assert al.redactions[0].value == "34534 James Parkways\nCarlsonberg, OH 54071"
    # not for other types, and not for lines far apart or in different columns
    assert len(align_spans(page, [s.with_(type="PERSON") for s in spans]).redactions) == 2
    far = page_of([[("12", 142, 200), ("Elm", 206, 260)], [], [], [("Springfield", 142, 331)]])
    assert len(align_spans(far, [span_for(far, "12 Elm", "ADDRESS"),
                                 span_for(far, "Springfield", "ADDRESS")]).redactions) == 2



def _address_lines(gap):
    # street and city lines 40 px high, ``gap`` px apart, found as two spans
    top, low = 100, 140 + gap
    words = [WordBox("P.O.", (236, top, 300, top + 40), 95.0, 0, 0),
             WordBox("Box", (310, top, 370, top + 40), 95.0, 0, 0),
             WordBox("74571", (380, top, 600, top + 40), 95.0, 0, 0),
             WordBox("New", (236, low, 300, low + 40), 95.0, 1, 0),
             WordBox("Jason,", (310, low, 420, low + 40), 95.0, 1, 0),
             WordBox("OH", (430, low, 480, low + 40), 95.0, 1, 0),
             WordBox("76331", (490, low, 620, low + 40), 95.0, 1, 0)]
    page = OcrPage(2000, 2000, tuple(words), "test")
    return page, [span_for(page, "P.O. Box 74571", "ADDRESS"), span_for(page, "New Jason, OH 76331", "ADDRESS")]


def test_address_lines_set_a_line_height_apart_are_one_block():
    # an invoice sets its address lines with a line's height (and a little) between them
    page, spans = _address_lines(gap=50)
    assert [r.bbox for r in align_spans(page, spans).redactions] == [(236.0, 100.0, 620.0, 230.0)]
    # two text heights apart they are two blocks (two addresses, or a line between them)
    page, spans = _address_lines(gap=80)
    assert len(align_spans(page, spans).redactions) == 2

def _form_address_rows(between=None):
    # a form's address fields as a real scan lays them out (FUNSD): "Address" street row,
    # "City" row two text heights below, each value right of its caption on a fill-in line
    words = [WordBox("Address", (127, 295, 190, 306), 71.0, 0, 0), WordBox("999", (239, 294, 266, 307), 96.0, 0, 0),
             WordBox("Grant", (276, 294, 322, 307), 95.0, 0, 0), WordBox("Avenue,", (331, 294, 393, 307), 95.0, 0, 0),
             WordBox("P.O.", (406, 294, 439, 306), 94.0, 0, 0), WordBox("Box", (452, 293, 480, 306), 95.0, 0, 0),
             WordBox("2109", (491, 292, 527, 303), 95.0, 0, 0),
             WordBox("City.", (128, 322, 163, 341), 84.0, 1, 1), WordBox("Novato", (239, 325, 294, 338), 96.0, 1, 1),
             WordBox("State", (472, 320, 518, 339), 96.0, 1, 1)]
    if between:
        words.append(WordBox(between, (330, 324, 420, 338), 96.0, 1, 1))
    page = OcrPage(800, 1000, tuple(words), "test")
    return page, [span_for(page, "999 Grant Avenue, P.O. Box 2109", "ADDRESS"), span_for(page, "Novato", "ADDRESS")]


def test_a_forms_address_field_rows_are_one_block():
    """Rows a form captions as address fields join over the blank form between them; other
    text inside the rectangle keeps them apart."""
    page, spans = _form_address_rows()
    assert [r.bbox for r in align_spans(page, spans).redactions] == [(239.0, 292.0, 527.0, 338.0)]
    page, spans = _form_address_rows(between="Confidential")
    assert len(align_spans(page, spans).redactions) == 2


def _comb_page():
    # "871 | 75 | 7808" in comb boxes: OCR reads each divider as a tall "|" word (one glued
    # to the digits after it), reaching far above and below the digits
    words = [WordBox("871", (309, 743, 368, 774), 94.0, 0, 0), WordBox("|", (496, 725, 498, 795), 16.0, 0, 0),
             WordBox("|75", (500, 725, 558, 795), 30.0, 0, 0), WordBox("|", (636, 725, 638, 795), 68.0, 0, 0),
             WordBox("7808", (658, 743, 743, 774), 85.0, 0, 0)]
    return OcrPage(2000, 2000, tuple(words), "test")


def test_comb_box_dividers_do_not_stretch_the_box_over_the_rule():
    page = _comb_page()
    al = align_spans(page, [span_for(page, "871 | |75 | 7808", "ID_NUMBER")])
    assert [r.bbox for r in al.redactions] == [(309.0, 743.0, 743.0, 774.0)]


def test_a_divider_no_taller_than_the_digits_keeps_its_box():
    words = [WordBox("871", (309, 743, 368, 774), 94.0, 0, 0), WordBox("|", (496, 740, 498, 777), 16.0, 0, 0),
             WordBox("7808", (658, 743, 743, 774), 85.0, 0, 0)]
    page = OcrPage(2000, 2000, tuple(words), "test")
    al = align_spans(page, [span_for(page, "871 | 7808", "ID_NUMBER")])
    assert [r.bbox for r in al.redactions] == [(309.0, 740.0, 743.0, 777.0)]


def test_an_address_across_the_cells_of_a_form_row_is_one_box():
    # street | city | state | ZIP cells, far apart with nothing else between them
    row = [("686", 308, 360), ("Melissa", 370, 500), ("View", 510, 600), ("Erinmouth", 1200, 1400),
           ("OK", 1700, 1750), ("71709", 2000, 2100)]
    page = page_of([row])
    page = OcrPage(2200, 2000, page.words, "test")
    value = "686 Melissa View Erinmouth OK 71709"
    al = align_spans(page, [span_for(page, value, "ADDRESS")])
    assert [r.bbox for r in al.redactions] == [(308.0, 100.0, 2100.0, 140.0)]
    # other values split at such gaps (two fields joined by OCR); two addresses found as
    # two spans in two far cells stay two boxes
    assert len(align_spans(page, [span_for(page, value, "PERSON")]).redactions) > 1
    assert len(align_spans(page, [span_for(page, "686 Melissa View", "ADDRESS"),
                                  span_for(page, "Erinmouth OK 71709", "ADDRESS")]).redactions) == 2


def test_parts_of_an_address_row_that_ocr_read_as_separate_lines_become_one_box():
    # "5874 Winters Pike," and "West Robert, MO 79889" on one printed row; OCR put a
    # phone number of the next row between them in reading order
    page = page_of([[("5874", 200, 260), ("Winters", 268, 380), ("Pike,", 388, 460)],
                    [("613/734-2679", 326, 508)],
                    [("West", 490, 560), ("Robert,", 568, 680), ("MO", 690, 730), ("79889", 740, 820)]])
    words = [w if w.line != 2 else WordBox(w.text, (w.bbox[0], 100, w.bbox[2], 140), w.conf, 2, 0)
             for w in page.words]
    page = OcrPage(2000, 2000, tuple(words), "test")
    spans = [span_for(page, "5874 Winters Pike,", "ADDRESS"), span_for(page, "West Robert, MO 79889", "ADDRESS")]
    al = align_spans(page, spans)
    assert [r.bbox for r in al.redactions] == [(200.0, 100.0, 820.0, 140.0)]
    # a part far to the right is another column's value
    far = OcrPage(2000, 2000, tuple(w if w.line != 2 else WordBox(w.text, (w.bbox[0] + 600, 100, w.bbox[2] + 600, 140),
                                                                  w.conf, 2, 0) for w in page.words), "test")
    assert len(align_spans(far, spans).redactions) == 2



def test_a_row_part_whose_box_skew_made_tall_still_joins_its_row():
    # "961 Edward Loop," | "Nicolemauth OK 70220" on one row of a skewed scan: OCR gave the
    # city a box twice as tall as the street's, reaching below it
    words = [WordBox("961", (184, 1033, 250, 1064), 93.0, 0, 0), WordBox("Edward", (264, 1040, 410, 1070), 96.0, 0, 0),
             WordBox("Loop,", (420, 1042, 509, 1082), 96.0, 0, 0),
             WordBox("Nicolemauth", (523, 1034, 743, 1110), 89.0, 1, 0),
             WordBox("OK", (773, 1060, 828, 1086), 83.0, 1, 0),
             WordBox("70220", (838, 1059, 951, 1090), 83.0, 1, 0),
             WordBox("Total", (184, 1200, 300, 1240), 96.0, 2, 0)]
    page = OcrPage(2000, 2000, tuple(words), "test")
    spans = [span_for(page, "961 Edward Loop,", "ADDRESS"), span_for(page, "Nicolemauth OK 70220", "ADDRESS")]
    assert [r.bbox for r in align_spans(page, spans).redactions] == [(184.0, 1033.0, 951.0, 1110.0)]
    # a part that only touches the row's bottom edge lies on the next row
    words = words[:3] + [WordBox(w.text, (w.bbox[0], w.bbox[1] + 40, w.bbox[2], w.bbox[3] + 40), w.conf, 1, 0)
                         for w in words[3:6]]
    page = OcrPage(2000, 2000, tuple(words), "test")
    spans = [span_for(page, "961 Edward Loop,", "ADDRESS"), span_for(page, "Nicolemauth OK 70220", "ADDRESS")]
    assert len(align_spans(page, spans).redactions) == 2

def test_an_identifier_repeats_in_any_letter_case_a_name_only_in_its_own():
    page = page_of([[("File", 10, 60), ("No.", 70, 100), ("BRH-19880905SQK", 110, 400)],
                    [("(BRH-19880905SQk)", 10, 300), ("Mark", 310, 360), ("mark", 370, 420)]])
    spans = [span_for(page, "BRH-19880905SQK", "REFERENCE_NUMBER"), span_for(page, "Mark", "PERSON")]
    got = propagate_repeats(page, spans)
    assert [page.text[s.start:s.end] for s in got[2:]] == ["BRH-19880905SQk"]


def test_one_value_in_two_readings_gives_one_box_over_both():
    from redactor.aligner import merge_duplicates
    from redactor.model import Redaction
    a = Redaction((100, 100, 200, 120), "PHONE", "555 0142", 0.9, ("rules",))
    b = Redaction((104, 98, 203, 121), "PHONE", "5550142", 0.8, ("presidio",))
    other = Redaction((104, 98, 203, 121), "DATE", "x", 0.8, ("rules",))
    far = Redaction((400, 100, 500, 120), "PHONE", "555 0199", 0.9, ("rules",))
    out = merge_duplicates([a, b, other, far])
    assert out[0].bbox == (100, 98, 203, 121) and out[0].sources == ("rules", "presidio")
    assert out[1:] == [other, far]


def test_address_blocks_a_blank_line_apart_stay_two_blocks():
    from redactor.aligner import merge_stacked_blocks
    from redactor.model import Redaction

    # a letter's sender block and the addressee's block under it, each three lines of 20 px
    # text 38 px apart: a blank line and a name line lie between them (a block's lines are
    # measured by its words, not by the block's height)
    def words_of(x0, y0, n):
        return [WordBox("Line", (x0, y0 + 38 * k, x0 + 200, y0 + 38 * k + 20), 95.0, line=k) for k in range(n)]
    words = words_of(124, 76, 3) + words_of(124, 265, 3)
    sender = Redaction((120, 74, 540, 172), "ADDRESS", "LOT 12, JALAN BUNGA RAYA 3,\nTAMAN SRI MUDA,\n"
                       "40400 SHAH ALAM, SELANGOR.")
    addressee = Redaction((124, 263, 430, 364), "ADDRESS", "No. 8, Jalan Ampang,\n50450 Kuala Lumpur,\nMalaysia.")
    assert merge_stacked_blocks([sender, addressee], words=words) == [sender, addressee]
    # the lines of one block, boxed line by line (each box carries the block's value), are one
    value = "Hauptstrasse 12\n10115 Berlin\nGermany"
    lines = [Redaction((124, 76 + 38 * k, 330, 96 + 38 * k), "ADDRESS", value) for k in range(3)]
    merged = merge_stacked_blocks(lines, words=words[:3])
    assert [(r.bbox, r.value) for r in merged] == [((124, 76, 330, 172), value)]


def test_two_address_blocks_side_by_side_stay_two_columns():
    from redactor.aligner import merge_stacked_blocks
    from redactor.model import Redaction

    # an invoice's Billing Address and Shipping Address blocks side by side, 47 px apart (OCR
    # read their lines as one line each): each column's lines are one block, the columns two
    lines, words = [], []
    for x0, x1 in ((465, 859), (906, 1301)):
        lines += [Redaction((x0, 319 + 34 * k, x1, 341 + 34 * k), "ADDRESS", f"line {k}") for k in range(4)]
        words += [WordBox("Word", (x0, 319 + 34 * k, x1, 341 + 34 * k), 95.0, line=k) for k in range(4)]
    merged = merge_stacked_blocks(lines, words=words)
    assert sorted(r.bbox for r in merged) == [(465, 319, 859, 443), (906, 319, 1301, 443)]
    # one line's two parts side by side ("5874 Winters Pike," | "West Robert, MO 79889") are one
    street = Redaction((100, 100, 300, 120), "ADDRESS", "5874 Winters Pike,")
    city = Redaction((330, 100, 520, 120), "ADDRESS", "West Robert, MO 79889")
    assert [r.bbox for r in merge_stacked_blocks([street, city])] == [(100, 100, 520, 120)]
