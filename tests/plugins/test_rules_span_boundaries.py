"""Span boundaries of the `rules` detector: a value is found whole and nothing else is glued
to it (party blocks, address blocks in letterheads, names in "Last, First M." and OCR-damaged
forms, identifiers in comb boxes, e-mail and web addresses at a sentence end). Pages are
OcrPage objects built from word boxes, with the OCR damage spelled out in the words."""
from __future__ import annotations


import pytest
from rules_pages import CHAR_W, LINE_H, one_line_rows, page_from_rows

from redactor_plugins.rules_detector import RulesDetector
from redactor.model import OcrPage, WordBox


@pytest.fixture(scope="module")
def det():
    return RulesDetector()




def spans(det, page):
    return [(s.type, s.text) for s in det.detect(page)]


# ---- party blocks ---------------------------------------------------------------------------

def test_a_company_line_over_the_street_is_its_own_party_not_the_address(det):
    # OCR reads the hyphen of "White-Meyer" as "-—"; the company line stays out of the address
    page = page_from_rows(["BILL TO", "White-—Meyer", "02256 Hartman Green Suite 319",
                           "Gonzalezport, UT 29207"])
    got = spans(det, page)
    assert ("ADDRESS", "02256 Hartman Green Suite 319\nGonzalezport, UT 29207") in got
    assert not any(t.startswith("White") for ty, t in got if ty == "ADDRESS")
    assert any(t == "White-—Meyer" for ty, t in got if ty in ("PERSON", "ORGANIZATION"))


def test_surnames_listed_with_and_over_a_po_box_are_a_firm(det):
    page = page_from_rows(["Deliver To:", "Ryan, Miranda and Key", "P.O. Box 15032", "Corymouth, OK 85672"])
    got = spans(det, page)
    assert ("ORGANIZATION", "Ryan, Miranda and Key") in got
    assert ("ADDRESS", "P.O. Box 15032\nCorymouth, OK 85672") in got


def test_a_lone_honorific_line_is_not_a_company(det):
    # OCR cut "Mr. Jason Russo" so that "Mr." is a line of its own
    page = page_from_rows(["SHIP TO:", "Mr.", "02256 Hartman Green Suite 319", "Gonzalezport, UT 29207"])
    got = spans(det, page)
    assert ("ADDRESS", "02256 Hartman Green Suite 319\nGonzalezport, UT 29207") in got
    assert not any("Mr" in t for _, t in got)


def test_party_lines_that_ocr_put_before_their_label_in_the_text(det):
    # reading order: the block's lines first, the "Deliver To:" label (above them) last
    def wb(text, x, y, line):
        return WordBox(text, (x, y, x + len(text) * CHAR_W, y + LINE_H), 95.0, line, 0)
    words = []
    block = [(50, "Ryan, Miranda and Key"), (80, "P.O. Box 15032"), (110, "Corymouth, OK 85672")]
    for line, (y, text) in enumerate(block):
        x = 20
        for tok in text.split():
            words.append(wb(tok, x, y, line))
            x += (len(tok) + 1) * CHAR_W
    words += [wb("Deliver", 20, 20, 5), wb("To:", 108, 20, 5)]
    got = spans(det, OcrPage(800, 200, tuple(words), "test"))
    assert ("ORGANIZATION", "Ryan, Miranda and Key") in got
    assert not any("Ryan" in t for ty, t in got if ty == "ADDRESS")


# ---- address blocks -------------------------------------------------------------------------

def test_a_speck_before_the_state_code_keeps_the_city_line(det):
    page = page_from_rows(["5018 Sandra Squares Suite 022", "Lake Ralphborough, ‘IA 22868"])
    assert ("ADDRESS", "5018 Sandra Squares Suite 022\nLake Ralphborough, ‘IA 22868") in spans(det, page)
    page = page_from_rows(["2434 John Pass Apt. 317", "_New Robertview, IL 07465"])
    assert ("ADDRESS", "2434 John Pass Apt. 317\n_New Robertview, IL 07465") in spans(det, page)


def test_centred_letterhead_lines_are_one_address(det):
    # street line and city line centred on one axis: their left edges differ by 4 characters
    page = page_from_rows([[(400, "Harlow Surveying")], [(378, "07568 Powell Burg Suite 617")],
                           [(422, "North Ralph, MO 18693")]])
    assert ("ADDRESS", "07568 Powell Burg Suite 617\nNorth Ralph, MO 18693") in spans(det, page)


def test_right_aligned_letterhead_lines_are_one_address(det):
    page = page_from_rows([[(1000, "106 Cruz Grove")], [(934, "Marissabury, NH 27040")]])
    assert ("ADDRESS", "106 Cruz Grove\nMarissabury, NH 27040") in spans(det, page)


def test_the_delivery_line_over_a_city_line_joins_it_even_when_ocr_damaged_it(det):
    page = page_from_rows(["Lisa Collins", "935. Manning Mall: Apt:.. 922", "New Robert, WY 53546"])
    assert ("ADDRESS", "935. Manning Mall: Apt:.. 922\nNew Robert, WY 53546") in spans(det, page)
    # a line over a city line that is no delivery line (no house number, no box) stays out
    page = page_from_rows(["Accounts Department", "New Robert, WY 53546"])
    assert ("ADDRESS", "New Robert, WY 53546") in spans(det, page)


def test_a_po_box_read_with_a_comma(det):
    page = page_from_rows(["P.O, Box 10258", "South Stacy, TN 95302"])
    assert ("ADDRESS", "P.O, Box 10258\nSouth Stacy, TN 95302") in spans(det, page)


# ---- identifiers ----------------------------------------------------------------------------

def test_an_ssn_in_comb_boxes_is_one_value(det):
    # the boxes' borders read as "|"; "55" must not be read as the label "SS"
    page = one_line_rows([[(20, "SOCIAL SECURITY NO."), (400, "AGE")],
                          [(25, "340"), (110, "|55"), (170, "|"), (200, "7965"), (400, "25")]])
    assert [t for ty, t in spans(det, page) if ty == "ID_NUMBER"] == ["340 |55 | 7965"]


@pytest.mark.parametrize("row", ["CC# 4354484140043251 Exp. 01/19", "Visa/MC # 5444-4836-7709-4597"])
def test_a_card_label_types_the_number_even_without_a_valid_checksum(det, row):
    number = row.split()[-3] if row.startswith("CC") else row.split()[-1]
    assert ("CARD_NUMBER", number) in spans(det, page_from_rows([row]))


def test_cc_before_a_name_is_still_a_copy_list(det):
    assert ("PERSON", "Dana Whitfield") in spans(det, page_from_rows(["cc: Dana Whitfield"]))


def test_a_country_code_or_an_area_code_in_parentheses_says_telephone(det):
    page = page_from_rows(["Call (555) 234-5678 or +1 415 555 0134 today"])
    hits = {(h.rule, page.text[h.start:h.end], h.score) for h in det.hits(page)}
    assert ("phone_nanp", "(555) 234-5678", 0.9) in hits
    assert ("phone_nanp", "+1 415 555 0134", 0.9) in hits
    # ten bare digits stay a weak guess (after a label, the label's type: see below)
    page = page_from_rows(["dial 4155550134 today"])
    assert {h.score for h in det.hits(page) if h.rule == "phone_nanp"} == {0.45}


# ---- names ----------------------------------------------------------------------------------

def test_a_word_that_only_ocr_folding_makes_a_label_does_not_cut_a_name(det):
    # "Allen" matches the label "alien" (l/i confusion) but is written as a surname
    page = page_from_rows(["Questions regarding this invoice? Contact Rachel Allen at", "(504)521-9214."])
    assert ("PERSON", "Rachel Allen") in spans(det, page)


def test_a_dash_speck_after_a_label_does_not_end_the_value(det):
    page = one_line_rows([[(20, "To:"), (105, "-"), (240, "Kim, Richard <richard.kim@frazier.com>")]])
    assert ("PERSON", "Kim, Richard") in spans(det, page)


def test_an_initial_read_with_a_comma_stays_in_the_name(det):
    page = page_from_rows(["Sincerely,", None, "Richard P, Lopez", "Claims Manager"])
    assert ("PERSON", "Richard P, Lopez") in spans(det, page)


def test_a_capital_read_as_its_lower_case_twin_ends_a_name(det):
    page = page_from_rows(["Deliver To:", "Michael white", "293 Rodriguez Turnpike",
                           "Smithborough, AL 98993"])
    assert ("PERSON", "Michael white") in spans(det, page)
    # a lower-case word whose capital looks different is no misread name
    page = page_from_rows(["Deliver To:", "Michael then", "293 Rodriguez Turnpike", "Smithborough, AL 98993"])
    assert ("PERSON", "Michael") in spans(det, page)


def test_a_stop_word_surname_after_a_first_name(det):
    assert ("PERSON", "Cristina Page") in spans(det, page_from_rows(["To: Cristina Page"]))
    # the stop list still ends a name in a sentence
    got = spans(det, page_from_rows(["To: Cristina Page 2 of 3"]))
    assert ("PERSON", "Cristina") in got


def test_a_sentence_end_ends_a_name(det):
    page = page_from_rows(["The budget was approved by Patrick Lee. Copies of the plan follow."])
    assert ("PERSON", "Patrick Lee") in spans(det, page)
    # an initial's dot does not
    page = page_from_rows(["Attention: Briana I. Peterson"])
    assert ("PERSON", "Briana I. Peterson") in spans(det, page)


# ---- e-mail and web addresses ---------------------------------------------------------------

def test_an_email_at_a_sentence_end_stops_at_its_domain(det):
    page = page_from_rows(["Write to renee.sullivan@richards.org. Please reply by Friday."])
    assert [t for ty, t in spans(det, page) if ty == "EMAIL"] == ["renee.sullivan@richards.org"]
    # OCR's space after a dot inside a domain is still read through
    page = page_from_rows(["Write to mbali@edwards-ramirez. com today."])
    assert [t for ty, t in spans(det, page) if ty == "EMAIL"] == ["mbali@edwards-ramirez. com"]


def test_a_web_address_that_ocr_cut_after_www(det):
    page = page_from_rows(["WEB: - www. shepard.com"])
    assert ("ONLINE_ID", "www. shepard.com") in spans(det, page)


@pytest.mark.parametrize("printed, value", [
    ("http://www. frank.com", "http://www. frank.com"),
    ("https: //davis.com/", "https: //davis.com/"),
    ("http: // www.cole-miller.com", "http: // www.cole-miller.com"),
    ("www.russo. info", "www.russo. info"),
])
def test_a_web_address_with_spaces_ocr_put_in_it(det, printed, value):
    page = page_from_rows([f"The public file is kept at {printed}. Call us."])
    assert ("ONLINE_ID", value) in spans(det, page)


# ---- identifiers with OCR spacing -------------------------------------------------------------

def test_a_value_that_starts_with_letters_spelling_a_label(det):
    page = page_from_rows(["INVOICE NO. INV- 19020"])
    assert ("REFERENCE_NUMBER", "INV- 19020") in spans(det, page)


def test_a_space_before_a_separator_inside_an_identifier(det):
    assert ("REFERENCE_NUMBER", "36 -51393") in spans(det, page_from_rows(["INVOICE NO. 36 -51393"]))
    assert ("ACCOUNT_NUMBER", "393-87581 -90") in spans(det, page_from_rows(["Account No. 393-87581 -90"]))


# ---- one address row cut into two cells -----------------------------------------------------------

def test_a_street_line_and_its_city_cell_with_the_unit_number(det):
    page = page_from_rows([[(20, "77427 Sylvia Falls Apt."), (300, "892, Lowerymouth, NV 89856")]])
    assert ("ADDRESS", "77427 Sylvia Falls Apt.\n892, Lowerymouth, NV 89856") in spans(det, page)


# ---- the addressee named in full ------------------------------------------------------------------

def test_the_full_name_of_the_person_greeted_by_surname(det):
    rows = ["Heather Zorvath", "Claims Department", None, "Dear Dr. Zorvath:", "Thank you for your letter."]
    got = spans(det, page_from_rows(rows))
    assert ("PERSON", "Heather Zorvath") in got
    # without the greeting the line is left to the other rules (a surname outside the census
    # lists, so that a line of its own is no name_line)
    got = spans(det, page_from_rows(["Heather Zorvath", "Claims Department", None, "Dear Sir:"]))
    assert ("PERSON", "Heather Zorvath") not in got


def test_the_greeting_line_is_not_a_full_name(det):
    for opening in ("Dear Kathryn,", "Hi David,", "Dear Dr. Cox:"):
        got = spans(det, page_from_rows(["To: Kathryn Schwartz", None, opening, "Thanks for the call."]))
        assert not any(t.startswith(("Dear", "Hi")) for ty, t in got if ty == "PERSON")


def test_a_first_name_greeting_names_no_surname(det):
    # OCR read "Dear" as "Dinar": the greeting line must not become a full name
    got = spans(det, page_from_rows(["To: Vanessa Jensen", None, "Dinar Vanessa,", "Thanks."]))
    assert not any(t.startswith("Dinar") for ty, t in got if ty == "PERSON")


def test_a_phone_message_slip_names_who_it_is_for_and_who_called(det):
    # "For" and "M" (Mr./Ms.) printed alone, the names written far right of them
    page = one_line_rows([[(20, "WHILE YOU WERE OUT")], [(20, "For"), (160, "LEONARD BAILEY")],
                          [(20, "Date"), (160, "5/29/03")], [(20, "M"), (160, "AMY PEREZ")],
                          [(20, "Phone"), (160, "(822) 811-4051")]])
    got = spans(det, page)
    assert ("PERSON", "LEONARD BAILEY") in got and ("PERSON", "AMY PEREZ") in got
    # in running text neither word is a label, and an initial stays part of its name
    got = spans(det, page_from_rows(["For Dana the plan works.", "Signed by M. Oyelaran today"]))
    assert ("PERSON", "Dana") not in got
    assert not any(t.startswith("Oyelaran") for _, t in got)


def test_a_field_name_in_capitals_is_not_a_surname(det):
    page = page_from_rows(["EMPLOYER EMPLOYEE ID", "Cox and Sons 857265", "EMPLOYER ADDRESS",
                           "4684 Gallegos Club Suite 12", "Lake Amy, WV 77661"])
    assert not any("ADDRESS" in t for ty, t in spans(det, page) if ty == "PERSON")


def test_an_initial_ocr_read_as_a_symbol_stays_with_the_name(det):
    assert ("PERSON", "&. Ray") in spans(det, page_from_rows(["FROM: &. Ray"]))
    assert ("PERSON", "Ray") in spans(det, page_from_rows(["FROM: - Ray"]))


# ---- OCR that cut an address row, or read a digit as a sign --------------------------------

def test_an_address_row_that_ocr_cut_into_two_lines_is_one_address(det):
    # "ND 34590" became a line of its own, right of the rest of its printed row
    page = page_from_rows([[(20, "21925 Cynthia Cliff, Lake Diana,"), (400, "ND 34590")]])
    got = spans(det, page)
    assert ("ADDRESS", "21925 Cynthia Cliff, Lake Diana,\nND 34590") in got


def test_a_city_line_that_ocr_cut_in_two_under_the_street_line(det):
    page = page_from_rows(["252 Sarah Street Suite 656", [(20, "Brownchester,"), (200, "NJ 41041")]])
    got = spans(det, page)
    assert ("ADDRESS", "252 Sarah Street Suite 656\nBrownchester,\nNJ 41041") in got


def test_row_parts_that_make_no_city_line_stay_out_of_the_address(det):
    page = page_from_rows(["252 Sarah Street Suite 656", [(20, "Brownchester,"), (200, "Invoice 41041")]])
    got = spans(det, page)
    assert not any("41041" in t for ty, t in got if ty == "ADDRESS")


@pytest.mark.parametrize("row, value", [
    ("PO Number: $244292", "$244292"),          # S or 5 read as '$'
    ("ESTIMATE # §380", "§380"),
    ("Cust. # $23606120", "$23606120"),
    ("Registration No.__$33____ Date_March 18, 1968", "$33"),   # two figures after a marked caption
])
def test_an_identifier_whose_first_character_ocr_read_as_a_sign(det, row, value):
    got = spans(det, page_from_rows([row]))
    assert any(t == value and ty in ("REFERENCE_NUMBER", "ACCOUNT_NUMBER", "ID_NUMBER", "BUSINESS_ID")
               for ty, t in got), got


def test_an_amount_after_an_identifier_label_is_still_an_amount(det):
    for row in ("PO Number: $1,244.00", "Total: $244292", "Total: $33", "Price per unit $33"):
        got = spans(det, page_from_rows([row]))
        assert not any("$" in t for _, t in got), (row, got)


def test_a_phone_number_with_a_digit_read_as_a_dollar_sign(det):
    got = spans(det, page_from_rows(["Phone: 1 772 $86 9002"]))
    assert ("PHONE", "1 772 $86 9002") in got


def test_a_number_on_a_fill_in_line_keeps_its_first_digits(det):
    # the form's underscores touch the value: "_(744)" is one OCR word
    got = spans(det, page_from_rows(["Home _(744) 243-3646", "Account 55012345_"]))
    assert ("PHONE", "(744) 243-3646") in got
    assert any(t == "55012345" for _, t in got), got


# ---- a strong label's value that OCR could not read -------------------------------------

def _unsure(page, texts, conf=0.0):
    words = tuple(WordBox(w.text, w.bbox, conf if w.text in texts else w.conf, w.line, w.block)
                  for w in page.words)
    return OcrPage(page.width, page.height, words, page.engine)


def test_an_unreadable_value_after_a_strong_label_is_still_hidden(det):
    # "Tiffany Page" read as "7iffany P4ge", "384.771.9795" as "Ted 70. 69%"
    page = _unsure(page_from_rows(["To: 7iffany P4ge", "Phone: Ted 70. 69%"]),
                   {"7iffany", "P4ge", "Ted", "70.", "69%"})
    got = spans(det, page)
    assert ("PERSON", "7iffany P4ge") in got
    assert ("PHONE", "Ted 70. 69%") in got


def test_confident_words_after_a_label_are_what_they_say(det):
    # the same words read with confidence: no name, no phone number
    got = spans(det, page_from_rows(["To: 7iffany P4ge", "Phone: Ted 70. 69%"]))
    assert not any(ty in ("PERSON", "PHONE") for ty, _ in got), got
    # and a confident word after the unsure ones is not taken
    page = _unsure(page_from_rows(["Fax: 5S5-O1Z3 Thanks"]), {"5S5-O1Z3"})
    assert ("PHONE", "5S5-O1Z3") in spans(det, page)


def test_unsure_words_after_a_weak_label_are_left(det):
    # "phone" in running text, no colon: not enough to hide what follows
    page = _unsure(page_from_rows(["call the phone Ted 70. 69% later"]), {"Ted", "70.", "69%"})
    assert not any(ty == "PHONE" for ty, _ in spans(det, page))


def test_a_middle_initial_that_spells_a_one_letter_label_stays_in_the_name(det):
    # "W" is the work phone's label only with its colon or alone in a cell
    page = one_line_rows([[(20, "NAME (Last, First, M.I.)"), (700, "DATE OF BIRTH")],
                          [(20, "Cook, Regina W."), (700, "01/20/1988")]])
    assert ("PERSON", "Cook, Regina W.") in spans(det, page)


def test_the_typed_name_under_a_signature_that_ocr_read_as_words(det):
    # OCR read the handwritten signature as "Maw [Beme": tall, unsure words between the
    # closing and the typed name
    rows = ["Very truly yours,", "Maw [Beme", "Taylor Hicks", "Research Officer"]
    page = page_from_rows(rows)
    words = []
    for w in page.words:
        if w.line == 1:
            w = WordBox(w.text, (w.bbox[0], w.bbox[1] - 30, w.bbox[2], w.bbox[3] + 25), 20.0, w.line, w.block)
        words.append(w)
    got = spans(det, OcrPage(page.width, page.height, tuple(words), page.engine))
    assert ("PERSON", "Taylor Hicks") in got
    assert not any("Maw" in t for _, t in got)


def test_a_city_line_ocr_damaged_after_its_street_line(det):
    # the state code read "Nj"/"VP", the ZIP with a bracket for a digit
    for row, value in [("5515 Melanie Dam, New Joseph, Nj 85256", "5515 Melanie Dam, New Joseph, Nj 85256"),
                       ("9506 Page Roads, North Devonville, VP [7758", "9506 Page Roads, North Devonville, VP [7758")]:
        assert ("ADDRESS", value) in spans(det, page_from_rows([row])), row
    # under a street line too
    got = spans(det, page_from_rows(["139 Kent Estate", "Elizabethshire, Wv O8038"]))
    assert ("ADDRESS", "139 Kent Estate\nElizabethshire, Wv O8038") in got


def test_a_damaged_city_line_alone_or_a_place_beside_an_address_is_not_taken(det):
    got = spans(det, page_from_rows(["New Joseph, Nj 85256"]))
    assert not any(ty == "ADDRESS" for ty, _ in got), got
    got = spans(det, page_from_rows(["14960 Tony Street Apt. 126, Campbellbury, NH 96153 Lake Thomasside, NY"]))
    assert not any("Thomasside" in t for ty, t in got if ty == "ADDRESS"), got
    # a "ZIP" that is mostly letters is a word
    got = spans(det, page_from_rows(["198 Hughes Courts, New Kendra, NC Gad7e"]))
    assert not any("Gad7e" in t for ty, t in got if ty == "ADDRESS"), got


def test_mail_header_cc_read_as_ce(det):
    got = spans(det, page_from_rows(["To: Marie Cameron", "Ce: Heather Simmons", "Subject: RE: Contract"]))
    assert ("PERSON", "Heather Simmons") in got


def test_ocr_commas_and_equals_signs_inside_numbers(det):
    got = spans(det, page_from_rows(["Call 710,786,8397 today", "Contract # 69231=72"]))
    assert ("PHONE", "710,786,8397") in got
    assert any(t == "69231=72" for _, t in got), got
    # an amount keeps its commas and is no phone number
    assert not any(ty == "PHONE" for ty, _ in spans(det, page_from_rows(["Total 710,786,839"])))


def test_a_phone_caption_far_left_of_its_number_on_a_message_slip(det):
    page = one_line_rows([[(20, "Phone"), (115, "342.6 60.3585")], [(20, "Caller"), (115, "Jessica Ramirez")]])
    got = spans(det, page)
    assert ("PHONE", "342.6 60.3585") in got
    # the caption alone names no number far away that is not phone-shaped
    page = one_line_rows([[(20, "Phone"), (115, "see attached list")]])
    assert not any(ty == "PHONE" for ty, _ in spans(det, page))


def test_a_label_at_a_line_end_in_running_text_takes_the_value_opening_the_next_line(det):
    page = page_from_rows(["documents are attached for your files. Please use account",
                           "278307-298 for the shipping charges."])
    assert ("ACCOUNT_NUMBER", "278307-298") in spans(det, page)
    # a name is never taken this way, nor a value after a paragraph break
    page = page_from_rows(["The forms were signed by the account", "Holder Jane Smith yesterday."])
    assert not any(ty == "PERSON" and "Holder" in t for ty, t in spans(det, page))
    page = page_from_rows(["Please use account", None, "278307-298 is a reference"])
    assert ("ACCOUNT_NUMBER", "278307-298") not in spans(det, page)


@pytest.mark.parametrize("row", ["Pol. No. 1797-102577", "AIC No. 000397422", "Acet. No.: 4178884140"])
def test_account_labels_abbreviated_or_as_ocr_reads_them(det, row):
    value = row.split()[-1]
    assert ("ACCOUNT_NUMBER", value) in spans(det, page_from_rows([row]))


def test_a_local_number_is_a_phone_with_its_garbled_area_code(det):
    got = spans(det, page_from_rows(["Call (S8)) 867-4914 today", "or 216-0139 after five"]))
    assert ("PHONE", "(S8)) 867-4914") in got and ("PHONE", "216-0139") in got
    # a label still names what it is
    assert ("REFERENCE_NUMBER", "216-0139") in spans(det, page_from_rows(["Invoice # 216-0139"]))


def test_an_address_row_across_form_cells_on_a_skewed_scan_is_one_address(det):
    # HOME ADDRESS | CITY | STATE | ZIP, the row drifting upwards by 3 px per 100 px
    cells = [(114, "53073 Steven Orchard"), (627, "North Alexander"), (904, "TX"), (1003, "58006")]
    words = []
    for x, text in cells:
        for tok in text.split():
            y = 440 - 0.03 * x
            words.append(WordBox(tok, (x, y, x + 11 * len(tok), y + 20), 95.0, 1, 0))
            x += 11 * (len(tok) + 1)
    header = [WordBox(t, (x, 380, x + 11 * len(t), 400), 95.0, 0, 0) for t, x in
              [("HOME", 114), ("ADDRESS", 170), ("CITY", 627), ("STATE", 904), ("ZIP", 1003)]]
    page = OcrPage(1300, 600, tuple(header + words), "test")
    assert ("ADDRESS", "53073 Steven Orchard North Alexander TX 58006") in spans(det, page)


# ---- places ----------------------------------------------------------------------------

def test_a_town_with_its_state_is_a_place(det):
    got = spans(det, page_from_rows(["went out to our Phillipston, NM office and to Morganstad, Rhode Island."]))
    assert ("LOCATION", "Phillipston, NM") in got and ("LOCATION", "Morganstad, Rhode Island") in got
    # with its ZIP it is an address's city line, not a place of its own
    got = spans(det, page_from_rows(["12 Elm Street", "Springfield, IL 62701"]))
    assert ("ADDRESS", "12 Elm Street\nSpringfield, IL 62701") in got
    assert not any(ty == "LOCATION" for ty, _ in got)


def test_a_place_in_the_next_cell_after_a_complete_address_is_its_own_field(det):
    page = one_line_rows([[(20, "EMPLOYER ADDRESS"), (900, "WORK LOCATION")],
                          [(20, "8196 Tracey Highway Apt. 688, North Charlesberg, KS 92971"),
                           (900, "East Michaelmouth, ID")]])
    got = spans(det, page)
    assert ("ADDRESS", "8196 Tracey Highway Apt. 688, North Charlesberg, KS 92971") in got
    # a PO box number is no ZIP: the city and ZIP cells after it still join
    page = one_line_rows([[(20, "HOME ADDRESS"), (500, "CITY"), (800, "STATE"), (900, "ZIP CODE")],
                          [(20, "P.O. Box, 73520"), (500, "Frankberg"), (800, "MD"), (900, "23173")]])
    assert ("ADDRESS", "P.O. Box, 73520 Frankberg MD 23173") in spans(det, page)


def test_a_state_name_alone_is_a_place_unless_it_is_as_often_a_name(det):
    got = spans(det, page_from_rows(["Goods shipped from our Indiana warehouse and the West Virginia one."]))
    assert ("LOCATION", "Indiana") in got and ("LOCATION", "West Virginia") in got
    got = spans(det, page_from_rows(["Please call Richard Washington or Georgia Lee today."]))
    assert not any(ty == "LOCATION" for ty, _ in got), got


def test_a_broadcast_call_sign_is_a_business_identifier(det):
    got = spans(det, page_from_rows(["Station KIMC-FM and KNFE(AM) filed; WUJ - DT too."]))
    for value in ("KIMC-FM", "KNFE(AM)", "WUJ - DT"):
        assert ("BUSINESS_ID", value) in got, (value, got)
    assert not any(ty == "BUSINESS_ID" for ty, _ in spans(det, page_from_rows(["KEEP AWAY FROM KIDS"])))


def test_a_label_types_its_value_over_a_number_shape(det):
    got = spans(det, page_from_rows(["ABA/Routing: 086554033 Shipping $14.03", "Acct # 212-555-0147",
                                     "Facility ID No. 58202"]))
    assert ("BUSINESS_ID", "086554033") in got          # which bank, not whose account
    assert ("ACCOUNT_NUMBER", "212-555-0147") in got    # a phone's shape, an account's label
    assert ("BUSINESS_ID", "58202") in got


def test_a_user_name_in_running_text_after_its_label_without_a_colon(det):
    got = spans(det, page_from_rows(["I set up a login for you on the vendor portal: user kbrown. Thanks,",
                                     "Your login is m.lopez_88 and the handle jdoe42 works too."]))
    for value in ("kbrown", "m.lopez_88", "jdoe42"):
        assert ("ONLINE_ID", value) in got, (value, got)
    # the value opens the next line when the sentence wraps after the label
    got = spans(det, page_from_rows(["I set up a login for you on the vendor portal: user",
                                     "colejennifer. The program will run as planned."]))
    assert ("ONLINE_ID", "colejennifer") in got, got


@pytest.mark.parametrize("row", ["Read the user guide before the login page opens.",
                                 "Every user should change the admin password.",
                                 "Ask the user Maria for her handle today."])
def test_words_after_an_online_label_in_running_text_stay_text(det, row):
    assert not any(ty == "ONLINE_ID" for ty, _ in spans(det, page_from_rows([row]))), row


@pytest.mark.parametrize("printed", ["Contact: travis. Kramer@dixon.com today",
                                     "mail margaret .wilson@boyd-rice.net.",
                                     "From: alexander. lara@walker.org"])
def test_an_email_whose_user_part_ocr_split_at_its_dot_is_one_address(det, printed):
    got = [t for ty, t in spans(det, page_from_rows([printed])) if ty == "EMAIL"]
    assert len(got) == 1 and got[0].split("@")[0].count(" ") == 1, got
    assert not any(ty == "PERSON" for ty, _ in spans(det, page_from_rows([printed])))


def test_an_ssn_in_comb_boxes_spaced_wider_than_words_is_one_value(det):
    # one box per digit: the groups stand 3-4 text heights apart, across the boxes' lines
    # (a skewed scan: the next header is not beside the label, so the column stays open)
    page = one_line_rows([[(20, "SOCIAL SECURITY NO.")],
                          [(25, "629"), (150, "|"), (170, "06"), (280, "4257"), (700, "Single")]])
    assert [t for ty, t in spans(det, page) if ty == "ID_NUMBER"] == ["629 | 06 4257"]
    # groups that make no SSN stay apart: "12" under the next column is not a digit of it
    page = one_line_rows([[(20, "SOCIAL SECURITY NO."), (440, "DEPENDANTS")],
                          [(25, "629-06-4257"), (200, "12")]])
    assert [t for ty, t in spans(det, page) if ty == "ID_NUMBER"] == ["629-06-4257"]


def test_a_value_after_a_label_in_running_text_at_a_typewriter_s_word_spacing(det):
    # a monospaced face: a space is wider than 1.5 text heights' worth of the usual gap,
    # and the value follows the label at the spacing of the label's own words
    words, x = [], 20.0
    for text in "Can you confirm the employee ID (E61076) for Brittney".split():
        w = 24.0 * len(text)
        words.append(WordBox(text, (x, 100.0, x + w, 125.0), 95.0, 0, 0))
        x += w + 38.0
    got = spans(det, OcrPage(2000, 300, tuple(words), "test"))
    assert ("ID_NUMBER", "E61076") in got, got


def test_a_dash_between_a_label_and_its_value(det):
    got = spans(det, page_from_rows(["Account No. — 2572593572 Fed. Tax ID 81-6209516"]))
    assert ("ACCOUNT_NUMBER", "2572593572") in got, got


def test_a_mail_header_list_of_names_each_with_its_address(det):
    got = spans(det, page_from_rows(["To: Todd Hardin <toddh@salazar.com>; Gonzales, Gregory",
                                     "Cc: Ann Lee <ann@x.org>, Bob Stone <bob@y.com>; Carl Diaz"]))
    for name in ("Todd Hardin", "Gonzales, Gregory", "Ann Lee", "Bob Stone", "Carl Diaz"):
        assert ("PERSON", name) in got, (name, got)


@pytest.mark.parametrize("printed", ["P.0. Box 88464", "P0: Box. 88464", "p,o, box 88464"])
def test_a_po_box_whose_o_ocr_read_as_a_zero(det, printed):
    got = spans(det, page_from_rows([printed, "Jamesview, RI 91715"]))
    assert ("ADDRESS", printed + "\nJamesview, RI 91715") in got, got


def test_a_street_line_ocr_garbled_into_a_postcode_and_town_over_its_city_line(det):
    # "Croasing" is no street suffix, so the line reads like "postcode town" (EU style);
    # the US city line under it makes it the delivery line, whole
    got = spans(det, page_from_rows(["27320 Brittany Croasing Suite 447", "East Debbie, LA 35887"]))
    assert ("ADDRESS", "27320 Brittany Croasing Suite 447\nEast Debbie, LA 35887") in got, got
    # a table row that starts with a date is no delivery line
    got = spans(det, page_from_rows(["12/23/16 94518 Market survey", "East Debbie, LA 35887"]))
    assert not any(ty == "ADDRESS" and "Market" in t for ty, t in got), got


# ---- fill-in marks ----------------------------------------------------------------------------

# Two rows of a real project brief's contact table as Tesseract read them (words and boxes
# of a real dev page): the dotted fill-in lines of the empty cells came back as dashes and
# underscores between the names.
_CONTACT_ROWS = [
    [("(Client", (116, 306, 153, 326)), ("Contact:", (160, 301, 204, 327)), ("Maria", (222, 306, 252, 316)),
     ("Helena", (257, 302, 294, 315)), ("Argiielles’", (298, 302, 353, 318)), ("[Research", (392, 301, 447, 320)),
     ("Liaison:", (451, 301, 498, 320)), ("Camilo", (510, 303, 548, 316)), ("Concha’Andrea", (552, 301, 634, 320))],
    [("dee", (116, 333, 154, 337)), ("Edwin", (222, 322, 255, 332)), ("--", (228, 336, 234, 337)),
     ("-_—-.", (249, 332, 267, 340)), ("Garcia", (259, 322, 294, 332)), ("—-", (280, 335, 298, 337)),
     ("--", (313, 336, 318, 337)), ("—_—.", (368, 332, 380, 340)), ("—s--", (398, 336, 422, 337)),
     ("—_——-", (454, 332, 482, 340)), ("Suarez", (506, 322, 542, 332)), ("nn", (510, 336, 546, 337)),
     ("oe", (540, 332, 550, 340)), ("ee", (590, 336, 637, 337))],
]


def test_a_name_line_read_across_a_dashed_table_row_keeps_the_names_not_the_dashes(det):
    words = tuple(WordBox(t, box, 90.0, line, 0) for line, row in enumerate(_CONTACT_ROWS) for t, box in row)
    page = OcrPage(700, 400, words, "test")
    found = [s for s in det.detect(page) if s.type == "PERSON"]
    for s in found:
        tokens = s.text.split()
        assert any(c.isalnum() for c in tokens[0]) and any(c.isalnum() for c in tokens[-1]), s.text
    names = {s.text for s in found}
    assert {"Edwin", "Garcia", "Suarez"} <= names, names


def test_the_next_fields_caption_read_unsure_is_no_unreadable_value(det):
    # a blank "DATE:" line and "SUBJECT:" under it, read unsure (an unseen FUNSD form);
    # "Dat: 3/2/75" beside a caption: the date without the misread caption
    page = _unsure(page_from_rows(["DATE:", "SUBJECT:"]), {"SUBJECT:"}, conf=30.0)
    assert not any(ty == "DATE" for ty, _ in spans(det, page))
    page = _unsure(page_from_rows(["Date: Dat: 3/2/75"]), {"Dat:", "3/2/75"}, conf=30.0)
    assert ("DATE", "3/2/75") in spans(det, page)
