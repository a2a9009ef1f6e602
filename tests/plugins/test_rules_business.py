"""Registration numbers of organisations (BUSINESS_ID) on real forms: the number filled in
under the last caption of a caption row, and a company's number in brackets after its
name (plugins/rules/business_ids.py)."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def _found(rules, rows):
    return [(s.type, s.text) for s in rules.detect(page_from_rows(rows))]


def test_a_number_typed_right_of_the_last_caption_of_a_row(rules):
    # a registration statement: "2. Registration No." is the row's last caption, and the
    # typist put the number near the right margin, past where the caption ends
    found = _found(rules, [[(40, "1. Name of Registrant"), (560, "2. Registration No.")],
                           [(60, "Arab Information Center"), (840, "876")]])
    assert ("BUSINESS_ID", "876") in found, found
    assert ("ORGANIZATION", "Arab Information Center") in found, found


def test_the_cell_is_taken_from_the_items_number(rules):
    found = _found(rules, [[(40, "1. Name of Registrant"), (560, "2. Registration No.")],
                           [(60, "Qorvis MSL LLC"), (545, "5483")]])
    assert ("BUSINESS_ID", "5483") in found, found


@pytest.mark.parametrize("rows", [
    # the caption is not the last of its row: its cell ends at the next caption
    [[(40, "Registration No."), (400, "Date filed")], [(700, "4411")]],
    # text under the caption, not a number
    [[(40, "1. Name of Registrant"), (560, "2. Registration No.")],
     [(60, "Arab Information Center"), (840, "pending")]],
    # the number lies under another caption's cell, left of this one
    [[(40, "1. Name of Registrant"), (560, "2. Registration No.")], [(60, "Local 1492")]],
])
def test_no_number_where_the_cell_holds_none(rules, rows):
    assert not [v for t, v in _found(rules, rows) if t == "BUSINESS_ID"]


@pytest.mark.parametrize("line, number", [
    ("Maju Jaya Sdn Bhd (654321-K)", "654321-K"),
    ("Sri Kenangan Sdn. Bhd. (201901012345 (1234567-K))", "201901012345 (1234567-K)"),
])
def test_a_registration_number_in_brackets_after_the_company(rules, line, number):
    found = _found(rules, [line])
    assert ("BUSINESS_ID", number) in found, found


@pytest.mark.parametrize("line, number", [
    ("Company No. 123456", "123456"),                      # UK Companies House
    ("Company Reg. No. 08123456", "08123456"),
    ("ROC No: 654321-K", "654321-K"),                      # Malaysia's Registry of Companies
    ("GST Reg No: 001234567890", "001234567890"),
    ("KvK 12345678", "12345678"),                          # Dutch Chamber of Commerce
    ("GSTIN: 29ABCDE1234F1Z5", "29ABCDE1234F1Z5"),         # India's GST number
    ("CR No. 1010123456", "1010123456"),                   # a Gulf commercial registration
])
def test_registration_and_tax_numbers_of_companies_by_their_caption(rules, line, number):
    assert ("BUSINESS_ID", number) in _found(rules, [line])


def test_a_company_caption_without_a_number_word_names_the_company(rules):
    assert _found(rules, ["Company: Acme Widgets Ltd"]) == [("ORGANIZATION", "Acme Widgets Ltd")]


def test_short_register_codes_need_a_colon(rules):
    # "Cr" of a ledger's credit column is no commercial registration
    assert not [v for t, v in _found(rules, ["Cr 4512345"]) if t == "BUSINESS_ID"]


@pytest.mark.parametrize("row, number", [
    ("JOBNO. 7848", "7848"),                                  # the caption's space lost
    ("PROJECT NO. 1987-113/114/115-CA", "1987-113/114/115-CA"),
    ("Project # 74-80", "74-80"),
])
def test_job_and_project_numbers_are_references(rules, row, number):
    assert ("REFERENCE_NUMBER", number) in _found(rules, [row])


def test_a_projects_name_and_an_amount_after_its_caption_are_no_reference(rules):
    spans = _found(rules, ["PROJECT NAME GEMINI AWARENESS MONITOR", "Project: $220, 000", "Project: the Alpha study"])
    assert not any(t in ("PERSON", "REFERENCE_NUMBER") for t, _ in spans), spans


@pytest.mark.parametrize("row", ["FILE NAME: Dunhill", "JOB NAME: Dunhill"])
def test_a_records_own_name_is_no_persons_name(rules, row):
    """A file's or a job's name (the label keys are normalised: "file" is "flle")."""
    assert not [t for t, _ in _found(rules, [row]) if t == "PERSON"]


def test_an_ordinal_under_a_caption_is_no_identifier(rules):
    # a meeting's programme: "SPORTS REGISTRATION" over "37TH ANNUAL MEETING"
    assert not _found(rules, ["SPORTS REGISTRATION", "37TH ANNUAL MEETING"])
    assert ("BUSINESS_ID", "3712") in _found(rules, ["Registration No.: 3712"])
