"""Values after form captions that real pages (the real dev set, issue 31) print and the
rules detector missed: a bare "No." caption, a code of capitals, a caption read with a
stray symbol or a fill-in line glued to it, OCR's '~' and '£' inside an identifier, a
phone caption's internal extension, a period caption's month or year. And what stays
no value: counts, page numbers, citations, amounts, quantities."""
from __future__ import annotations

import pytest
from rules_pages import one_line_rows, page_from_rows

from redactor.model import OcrPage, WordBox
from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def found(rules, page) -> set[tuple[str, str]]:
    return {(s.type, s.text) for s in rules.detect(page)}


def of_type(rules, page, typ: str) -> list[str]:
    return [s.text for s in rules.detect(page) if s.type == typ]


# --- a bare number caption ------------------------------------------------------------------

def test_a_number_caption_in_a_forms_corner_names_a_reference(rules):
    page = one_line_rows([[(20, "Date: 10/9/87"), (500, "No."), (600, "C-40")]])
    assert ("REFERENCE_NUMBER", "C-40") in found(rules, page)


def test_a_number_caption_after_a_sentence_names_a_reference_read_with_a_tilde(rules):
    page = page_from_rows(["3. Court: Circuit Court, Dade County, Florida. No, 69~1351"])
    spans = found(rules, page)
    assert ("REFERENCE_NUMBER", "69~1351") in spans, spans
    # the number caption ends the place before it
    assert not any("No" in text for typ, text in spans if typ == "LOCATION"), spans


def test_a_number_caption_read_glued_to_its_number_still_names_it(rules):
    """An "ADDRESSEE ONLY" stamp's "No. 436 By ___" typed tight: OCR reads "No.436"."""
    page = one_line_rows([[(20, "Ms. R. deLacy"), (470, "No.436"), (595, "By")]])
    assert ("REFERENCE_NUMBER", "436") in found(rules, page)
    page = page_from_rows(["Invoice No.12345"])
    assert ("REFERENCE_NUMBER", "12345") in found(rules, page)


@pytest.mark.parametrize("row", [
    "No. of samples 12",                       # a count
    "See No.4 and No.7 above",                 # one digit: a list's item
    "Page No.3",
    "NO. OF UNITS 12",
    "Page No. 3",                              # the page's number
    "Page 3 of 5",
    "F.P.M. No. 1 Roller 477.5",               # an item of a list
    "Federal Register, Vol. 44, No. 145, page 12",   # a citation
    "There is no 24 hour service",             # the word, not the abbreviation
    "Item No. 1234 Widget",                    # a stop label's own number word
])
def test_no_reference_without_a_number_caption(rules, row):
    assert not of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER")


def test_a_bare_number_caption_heads_no_column(rules):
    """Under a table's "No." heading stand its rows' numbers."""
    page = page_from_rows([[(20, "No."), (200, "Description")],
                           [(20, "12"), (200, "Filters")],
                           [(20, "13"), (200, "Papers")]])
    assert not of_type(rules, page, "REFERENCE_NUMBER")


# --- captions read with a stray symbol or a glued fill-in line -------------------------------

def test_a_caption_read_with_a_stray_symbol_still_names_its_value(rules):
    page = page_from_rows(["control for Sample } No. 5030"])
    assert ("REFERENCE_NUMBER", "5030") in found(rules, page)


def test_a_fill_in_line_between_caption_and_value_is_skipped(rules):
    page = one_line_rows([[(20, "Sample NO,"), (135, "_"), (150, "5031")]])
    assert ("REFERENCE_NUMBER", "5031") in found(rules, page)


def test_a_fill_in_line_glued_to_a_caption_and_a_misread_sign(rules):
    page = page_from_rows(["_CONTRACT £1032"])
    assert ("REFERENCE_NUMBER", "£1032") in found(rules, page)


@pytest.mark.parametrize("row", ["Total 1032", "_TOTAL £1032", "Contract £1,032.00", "Qty 1032",
                                 "Amount: 1032"])
def test_amounts_and_quantities_are_no_reference(rules, row):
    assert not of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER")


# --- codes of capitals -----------------------------------------------------------------------

@pytest.mark.parametrize("code", ["PMRM", "BD-FF."])
def test_a_project_code_may_be_letters_only(rules, code):
    page = one_line_rows([[(20, "PROJECT CODE"), (270, code), (430, "DATE"), (500, "1/4/90")]])
    assert ("REFERENCE_NUMBER", code.rstrip(".")) in found(rules, page)


@pytest.mark.parametrize("value", ["NONE", "N/A", "New York office"])
def test_a_code_caption_before_no_code(rules, value):
    page = one_line_rows([[(20, "PROJECT CODE:"), (270, value)]])
    assert not of_type(rules, page, "REFERENCE_NUMBER")


# --- phone extensions ------------------------------------------------------------------------

@pytest.mark.parametrize("row,ext", [("Technologist - GA Telephone # 6926", "6926"),
                                     ("Phone Number: 7970", "7970"),
                                     ("Tel: ext. 4411", "ext. 4411")])
def test_a_marked_phone_caption_before_an_internal_extension(rules, row, ext):
    assert ("PHONE", ext) in found(rules, page_from_rows([row]))


@pytest.mark.parametrize("cells", [[(20, "TEL"), (200, "519")],          # no mark: a code
                                   [(20, "Phone:"), (120, "12")],         # too short
                                   [(20, "Phone:"), (120, "(212)")]])     # an area code alone
def test_no_extension_without_a_marked_caption_and_its_shape(rules, cells):
    assert not of_type(rules, page_from_rows([cells]), "PHONE")


def test_a_fill_in_line_read_into_a_phone_number(rules):
    page = page_from_rows(["ORGANIZER (who will receive correspondence): TELEPHONE 202/_457-4850"])
    assert ("PHONE", "202/_457-4850") in found(rules, page)


# --- period captions -------------------------------------------------------------------------

def test_a_period_caption_names_a_month(rules):
    page = page_from_rows(["Reporting Period: Month of _ May"])
    assert ("DATE", "May") in found(rules, page)


def test_a_period_caption_names_a_year_that_ends_a_sentence(rules):
    page = page_from_rows(["(1) YEAR COVERED: = 1985."])
    assert ("DATE", "1985") in found(rules, page)


def test_a_period_caption_names_a_full_date(rules):
    page = page_from_rows(["Six-Month Period ending on December 31, 2016."])
    assert ("DATE", "December 31, 2016") in found(rules, page)


@pytest.mark.parametrize("row", ["During the period beginning 60 days prior to the date",
                                 "Period: may vary", "Reporting Period: 3"])
def test_a_period_caption_before_no_date(rules, row):
    assert not of_type(rules, page_from_rows([row]), "DATE")


# --- lab assays and sales promotions ------------------------------------------------------------

@pytest.mark.parametrize("row,value", [("COMPOUND CODE B83 Genetic Assay No. 6692 _", "6692"),
                                       ("PROMO # 28 PROMOTIONAL PERIOD: June/July 1995", "28"),
                                       # unseen FUNSD forms: a specification change, a study's
                                       # proposal, a circular, a fax message
                                       ("SPECIFICATION CHANGE NUMBER__ 84-79", "84-79"),
                                       ("STUDY TITLE & PROPOSAL NUMBER 3212", "3212"),
                                       ("SEE ATTACHED COPY OF CIRCULAR NO. 4848", "4848"),
                                       ("TELEFAX MESSAGE NO.: 2463", "2463")])
def test_an_assay_or_promotion_number_is_a_reference(rules, row, value):
    assert ("REFERENCE_NUMBER", value) in found(rules, page_from_rows([row]))


@pytest.mark.parametrize("row", ["The assay was repeated 12 times.", "Promo code applies to 3 items.",
                                 "(Recommended Proposal Attached) 2 copies", "the message 3 of 5",
                                 "Circular 12 pages"])
def test_the_words_in_prose_name_no_reference(rules, row):
    assert not of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER")


def test_a_fill_in_line_read_between_a_caption_and_its_value_parts_them(rules):
    """"Date ____" with the date typed on the line: OCR reads "Date_March 18, 1968"."""
    assert ("DATE", "March 18, 1968") in found(rules, page_from_rows(["Date_March 18, 1968"]))
    # a month and a year a line parts: one date as "DEC 1987" is
    assert ("DATE", "DEC_1987") in found(rules, page_from_rows(["Date of issue DEC_1987"]))
    # a caption, a line, then a firm typed on it: the firm is a value of its own
    assert ("ORGANIZATION", "C_T_ Corporation System") in \
        found(rules, page_from_rows(["FROM:___C_T_ Corporation System"]))
    # an underscore inside a mail address or a user name is the name's own
    assert ("ONLINE_ID", "m.lopez_88") in found(rules, page_from_rows(["Username: m.lopez_88"]))
    assert ("EMAIL", "j_Smith@acme.com") in found(rules, page_from_rows(["Email: j_Smith@acme.com"]))


# --- a caption that ends in its number word ------------------------------------------------------

@pytest.mark.parametrize("row,value", [("JOB NUMBER 916", "916"), ("FILE NUMBER A30", "A30"),
                                       ("File No 414", "414")])
def test_a_caption_ending_in_its_number_word_takes_a_short_value(rules, row, value):
    """A research form's "JOB NUMBER 916" names its number as "Job No. 916" does: a short
    value after it is the number, whether the number word is part of the phrase or not."""
    assert ("REFERENCE_NUMBER", value) in found(rules, page_from_rows([row]))


@pytest.mark.parametrize("row", ["Job 916 was late", "Ref 12 above"])
def test_a_one_word_caption_in_prose_takes_no_short_value(rules, row):
    assert not of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER")


# --- a firm's own number, captioned by its name ----------------------------------------------------

@pytest.mark.parametrize("row,value", [("Organic Chemistry LORILLARD NO. OR39-23", "OR39-23"),
                                       ("Lorillard No A123 Lot No OR67-13", "A123"),
                                       # a dev budget form's "Distributor No." with its word misread
                                       # and the cell's border read as a bracket glued to it
                                       ("[Distnbvtor No. 20162 Date Cheok Required", "20162")])
def test_no_after_a_firms_name_captions_its_number(rules, row, value):
    """A laboratory's request form numbers its samples by the firm ("LORILLARD NO. B75"):
    "No" after a proper name, its dot or not, is that firm's number caption."""
    assert ("REFERENCE_NUMBER", value) in found(rules, page_from_rows([row]))


@pytest.mark.parametrize("row", ["Maker No. 1234 Widget", "[Maker No. 1234 Widget", "Lorillard No data yet",
                                 "Lorillard No. of samples 12",
                                 "Say NO 24 times"])
def test_no_after_an_everyday_word_or_before_words_captions_nothing(rules, row):
    assert not of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER")


def test_a_captions_number_word_after_a_comma_read_for_its_stop_marks_it(rules):
    """"Auth, No." (the stop of "Auth." read as a comma) is "Auth No.": a marked caption whose
    value stands in the next cell of its row (an unseen FUNSD authorization form)."""
    page = one_line_rows([[(100, "Auth, No."), (260, "3060"), (400, "Yr.")]])
    assert ("REFERENCE_NUMBER", "3060") in found(rules, page)
    assert not of_type(rules, page_from_rows(["For reference, no changes were made to 12 items"]),
                       "REFERENCE_NUMBER")


@pytest.mark.parametrize("row,value", [("ACCOUNT CODE 10-320", "10-320"), ("Account Code 10- 320", "10- 320")])
def test_the_captions_own_code_word_stays_out_of_its_value(rules, row, value):
    """"ACCOUNT CODE 10-320": the caption's number word is the caption's, with or without its
    colon (it was hidden as the value's prefix, "CODE 10-320")."""
    assert ("ACCOUNT_NUMBER", value) in found(rules, page_from_rows([row]))


def test_an_account_code_in_the_next_cell_runs_on_past_its_hyphen(rules):
    """An unseen FUNSD budget form: "Account Code" alone in its cell, its value five text
    heights off, typed "10-" with the figures "320" a little higher, which OCR reads as a
    line of their own (the boxes are the page's). A value word ending in a hyphen goes on."""
    from redactor.model import OcrPage, WordBox
    words = [WordBox("Account", (446, 801, 482, 808), 61, 29, 10), WordBox("Code", (486, 801, 509, 808), 71, 29, 10),
             WordBox("10-", (549, 800, 563, 808), 91, 29, 10), WordBox("320", (582, 791, 609, 805), 89, 30, 10),
             WordBox("Budget", (446, 829, 478, 838), 84, 31, 10), WordBox("Code", (481, 829, 504, 836), 94, 31, 10)]
    def values(ws):
        return {(t, " ".join(text.split())) for t, text in found(rules, OcrPage(762, 1000, tuple(ws), "test"))}
    assert ("ACCOUNT_NUMBER", "10- 320") in values(words)
    # ... and a value that ends without a hyphen does not run on into the next cell
    words[2] = WordBox("10", (549, 800, 563, 808), 91, 29, 10)
    assert ("ACCOUNT_NUMBER", "10") in values(words)


def test_an_unsure_date_after_a_reference_caption_stays_a_date(rules):
    """"DEADLINE FOR BID RECEIPT: 3/1/91" (an unseen FUNSD bid request): "receipt" is a
    reference caption, and its value read unsure was hidden as an unreadable receipt
    number; a day, month and year are a date however unsurely read. An unsure value of
    another shape is still taken as the caption's."""
    import dataclasses

    from redactor.model import OcrPage

    def unsure(page, word):
        words = tuple(dataclasses.replace(w, conf=43.0) if w.text == word else w for w in page.words)
        return OcrPage(page.width, page.height, words, page.engine)
    page = unsure(one_line_rows([[(20, "DEADLINE FOR BID RECEIPT:"), (320, "3/1/91")]]), "3/1/91")
    assert ("DATE", "3/1/91") in found(rules, page) and not of_type(rules, page, "REFERENCE_NUMBER")
    page = unsure(one_line_rows([[(20, "RECEIPT:"), (320, "3f1a9l")]]), "3f1a9l")
    assert of_type(rules, page, "REFERENCE_NUMBER") == ["3f1a9l"]


@pytest.mark.parametrize("row,value", [("PROJECT # -306 SECTIONS REVISED", "306"),
                                       ("SAMPLE: —240 VICEROY/125 Max", "240"),
                                       ("Account No. -2572593572", "2572593572")])
def test_a_dash_glued_to_a_marked_captions_value_stays_out_of_it(rules, row, value):
    """"PROJECT # -306" (a research form's "N-306" whose N the scan lost): after a marked
    caption a dash glued to the value is the typed separator or a lost letter's stroke; the
    value is the one word it is glued to."""
    assert any(t == value for _, t in found(rules, page_from_rows([row])))


def test_a_negative_amount_after_a_caption_is_no_identifier(rules):
    assert not of_type(rules, page_from_rows(["Balance: -306"]), "REFERENCE_NUMBER")


def test_a_captions_colon_read_as_a_speck_above_its_line_leaves_the_caption_its_line(rules):
    """A FARA short form's "2. Registration No." cell (an unseen page): OCR read the cell's
    ':' as a 2-px speck above the caption, a row of its own. The caption's line is its
    letters' line, so the number written under it is still its value."""
    words = [WordBox("1.", (93, 641, 105, 655), 25.0, 0, 0), WordBox("Name", (116, 641, 163, 655), 96.0, 0, 0),
             WordBox("‘1-2,", (601, 637, 637, 656), 56.0, 0, 0),
             WordBox("Registration", (649, 641, 744, 660), 60.0, 0, 0),
             WordBox("No.", (749, 642, 778, 656), 96.0, 0, 0), WordBox(":", (938, 632, 942, 634), 0.0, 0, 0),
             WordBox("Koo,", (112, 675, 147, 692), 92.0, 1, 0), WordBox("Hyunmo", (152, 675, 228, 694), 90.0, 1, 0),
             WordBox("1619", (641, 677, 680, 691), 96.0, 1, 0)]
    page = OcrPage(1276, 1000, tuple(words), "test")
    assert ("BUSINESS_ID", "1619") in found(rules, page)


def test_a_caption_read_glued_to_its_items_number_and_fill_in_line_still_captions(rules):
    """A FARA short form's "1. Name ____" read as one word "1..Name_" (an unseen page): the
    item's number before it and the fill-in line after it are no part of the caption."""
    page = page_from_rows([[(133, "1..Name_"), (636, "2. Registration No.")],
                           [(151, "NICHOLAS HAMISEVICZ"), (653, "3327.")]])
    assert ("PERSON", "NICHOLAS HAMISEVICZ") in found(rules, page)


def test_a_year_after_a_numbered_year_caption_is_taken_a_little_off(rules):
    """An unseen FARA short form, its words as Tesseract read them (text, box, line):
    "5. Year of Birth" (no colon; the year typed a tab stop off and read a little lower) with
    the next item's caption right of it. A caption without a colon takes a value this far
    off only in a strict shape: a year after a year's caption, a date written whole."""
    words = [("6.", (723, 770, 736, 785), 29), ("If", (743, 770, 757, 784), 29),
             ("present", (760, 774, 816, 788), 29), ("citizenship", (822, 770, 906, 789), 29),
             ("was", (912, 775, 942, 786), 29), ("not", (948, 773, 972, 785), 29),
             ("acquired", (977, 770, 1042, 789), 29), ("by", (1048, 771, 1066, 788), 29),
             ("birth,", (1072, 770, 1112, 788), 29), ("N", (1133, 779, 1150, 786), 30),
             ("5.", (84, 772, 97, 786), 31), ("Year", (103, 771, 205, 786), 31), ("of", (144, 768, 161, 793), 31),
             ("Birth", (167, 771, 205, 786), 31), ("1974", (235, 777, 292, 803), 31),
             ("=", (1139, 786, 1150, 790), 31), ("indicate", (747, 792, 806, 807), 32),
             ("when,", (812, 793, 860, 809), 32), ("and", (865, 793, 892, 807), 32), ("how", (898, 793, 930, 807), 32),
             ("acquired.", (935, 793, 1004, 811), 32)]

    def page(value: str) -> OcrPage:
        return OcrPage(1275, 1650, tuple(WordBox(value if t == "1974" else t, b, 96.0, line=ln)
                                         for t, b, ln in words), "tesseract")
    assert ("DATE", "1974") in found(rules, page("1974"))
    # ... but not a word that is no year
    assert not [t for ty, t in found(rules, page("None")) if ty == "DATE"]
