"""Numbered form items ("1. Name", "5. Year of Birth", "4. Business Address(es)"), as US
government forms (the FARA short-form registration statement) and many business forms print
their captions: the item number opens the caption, the value stands beside or under it, and
the next item's number closes the value above it. Real rules, pages built from rows."""
from __future__ import annotations

import pytest
from rules_pages import one_line_rows, page_from_rows

from redactor_plugins.rules.label_phrases import ITEM_NUMBER
from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def _found(rules, rows, build=page_from_rows):
    return {(s.type, s.text) for s in rules.detect(build(rows))}


def test_a_numbered_name_caption_gives_the_name_under_it(rules):
    """"1. Name" over "AENGUS MURRAY": the strict caption "Name" stands alone in its cell
    once its number is read as the item's; the value starts under the number."""
    found = _found(rules, [[(10, "1. Name"), (560, "2. Registration No.")],
                           [(8, "AENGUS MURRAY"), (555, "4364")]])
    assert ("PERSON", "AENGUS MURRAY") in found, found
    assert ("BUSINESS_ID", "4364") in found, found


def test_a_numbered_year_of_birth_gives_the_year_beside_it(rules):
    found = _found(rules, [[(10, "5. Year of Birth"), (230, "1975"),
                            (560, "6. If present citizenship was not acquired by birth,")]])
    assert ("DATE", "1975") in found, found


def test_a_numbered_caption_ocr_misread_still_gives_its_value(rules):
    """"5: Year of Bitth 1992" (an unseen FARA short form: the item's stop read as a colon, the
    "r" of Birth as a "t"): the words after the item's number are the caption by form, so the
    closest lexicon phrase is taken for them, as it is for words before a colon."""
    found = _found(rules, [[(10, "5: Year of Bitth"), (230, "1992"),
                            (560, "6. If present citizenship was not acquired by birth,")]])
    assert ("DATE", "1992") in found, found


def test_a_numbered_sentence_is_no_misread_caption(rules):
    """An item that is a sentence, with a year in it, is no caption close to a lexicon
    phrase: the year stays unboxed."""
    found = _found(rules, [[(10, "4. Receipts from the sale in 1992")]])
    assert not any(t == "DATE" for t, _ in found), found


def test_a_letter_and_its_stop_before_a_caption_number_it_too(rules):
    """"B. Name" / "(b) Name": a lettered item."""
    for number in ("B.", "(b)"):
        found = _found(rules, [[(10, f"{number} Name")], [(8, "AENGUS MURRAY")]])
        assert ("PERSON", "AENGUS MURRAY") in found, (number, found)


@pytest.mark.parametrize("word,numbers", [("1.", True), ("12a.", True), ("4,", True), ("5:", True), ("(b)", True),
                                          ("B.", True), ("3)", True),
                                          # an empty checkbox read as a figure or a letter
                                          ("0)", False), ("C)", False), ("0", False), ("[]", False)])
def test_what_numbers_an_item(word, numbers):
    assert bool(ITEM_NUMBER.fullmatch(word)) is numbers


def test_the_next_items_number_is_no_value_of_the_item_above(rules):
    """A registration number the hand wrote (OCR read nothing there): the line under the
    caption is the next item, "4. Business Address(es)", not a number "4"."""
    found = _found(rules, [[(560, "2. Registration No.")],
                           [(555, "4. Business Address(es)")],
                           [(555, "1701 K Street NW"), ],
                           [(555, "Washington, DC 20006")]])
    assert not any(t == "BUSINESS_ID" for t, _ in found), found


def test_two_address_columns_stay_two_addresses(rules):
    """"3. Residence Address(es)" and "4. Business Address(es)" side by side: the business
    address is typed left of its caption, a column's width from the residence's end."""
    found = _found(rules, [[(10, "3. Residence Address(es)"), (560, "4. Business Address(es)")],
                           [(10, "3401 38th Street, NW, #309"), (530, "499 S. Capitol Street, SW, Suite 600")],
                           [(10, "Washington, DC 20016"), (530, "Washington, DC 20003")]], one_line_rows)
    addresses = [v for t, v in found if t == "ADDRESS"]
    assert any(v.startswith("3401 38th Street, NW, #309") for v in addresses), found
    assert any(v.startswith("499 S. Capitol Street, SW, Suite 600") for v in addresses), found
    assert not any("38th" in v and "Capitol" in v for v in addresses), found


def test_an_address_block_ends_at_the_next_numbered_item(rules):
    found = _found(rules, [[(10, "4. Business Address(es)")],
                           [(30, "Singapore Economic Development Board")],
                           [(30, "250 A Twin Dolphin Dr.")],
                           [(30, "Redwood City, CA 94065")],
                           [(10, "6. If present citizenship was not acquired by birth,")],
                           [(30, "indicate when, and how acquired.")]])
    assert ("ADDRESS", "250 A Twin Dolphin Dr.\nRedwood City, CA 94065") in found, found
    assert not any("citizenship" in v for _, v in found), found


def test_an_initial_is_no_item_number(rules):
    """"W. Robert Warne" under a caption: the initial and its stop are the name's."""
    found = _found(rules, [[(10, "Name of registrant")], [(10, "W. Robert Warne")]])
    assert ("PERSON", "W. Robert Warne") in found, found


def test_the_firm_over_a_business_address_is_no_part_of_it(rules):
    """A business address typed under its caption with the firm's name first ("Weber
    Shandwick" over its street and city lines): the postal address is the street and city."""
    found = _found(rules, [[(10, "4. Business Address(es)")],
                           [(10, "Weber Shandwick")], [(10, "919 Third Avenue")],
                           [(10, "New York, NY 10022")]])
    addresses = [v for t, v in found if t == "ADDRESS"]
    assert "919 Third Avenue\nNew York, NY 10022" in addresses, found
    assert not any("Shandwick" in v for v in addresses), found


@pytest.mark.parametrize("step", [24, 28])
def test_a_foreign_principal_named_under_its_long_caption(rules, step):
    """A FARA dissemination report's "5. Name of foreign principal on whose behalf this
    material / was transmitted.": the body's name stands under the caption's second line and
    wraps in its cell. The caption's lines stand a printed line's spacing apart at 150 dpi
    (step 28: 0.4 text heights between the boxes)."""
    found = _found(rules, [[(10, "4. Title of material, if any"),
                            (520, "5. Name of foreign principal on whose behalf this material")],
                           [(550, "was transmitted.")], None,
                           [(20, "Academic Studies Series, Vol. 1, 1991"), (555, "Korea Institute for International")],
                           [(555, "Economic Policy")]], lambda rows: page_from_rows(rows, step=step))
    assert ("ORGANIZATION", "Korea Institute for International\nEconomic Policy") in found, found


@pytest.mark.parametrize("value,kind", [("Patton Boggs, L.L.P.", "ORGANIZATION"),
                                        ("Arnold & Porter", "ORGANIZATION"),
                                        ("Wilmer, Cutler & Pickering", "ORGANIZATION"),
                                        ("JETRO Atlanta", "ORGANIZATION"),
                                        ("Malka Mor", "PERSON")])
def test_a_registrants_name_is_a_firms_or_a_persons(rules, value, kind):
    """"1. Name of Registrant": a law firm named for its partners, its legal form written with
    stops ("L.L.P." is no sorted name's initials), or a person."""
    found = _found(rules, [[(10, "1. Name of Registrant"), (560, "2. Registration No.")],
                           [(40, value), (590, "2165")]])
    assert (kind, value) in found, found


def test_a_value_close_under_its_caption_is_no_run_on_line(rules):
    """A capitalised line a printed line's spacing under a caption is its value, not the
    caption going on."""
    found = _found(rules, [[(10, "1. Name of registrant")], [(20, "Korea Economic Institute of America")]],
                   lambda rows: page_from_rows(rows, step=28))
    assert ("ORGANIZATION", "Korea Economic Institute of America") in found, found
