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
