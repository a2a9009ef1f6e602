"""Conventions of real invoices and receipts (an Indian hotel receipt, an Indian retailer's
invoice, a cloud provider's invoice: the invoice2data project's test invoices, read here):
a header row of captions over a row of values, a summary panel's values set flush right,
a company footer's registered office, India's tax registrations, an invoice's billing
block. Pages are built from rows of text (rules_pages)."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def _found(rules, rows):
    return [(s.type, s.text) for s in rules.detect(page_from_rows(rows))]


def test_a_value_under_its_caption_in_a_header_row_of_captions(rules):
    # "Booking ID | Payment Mode" over "IBZY2087 | Cash at Hotel": the caption right of the
    # label is the next column's, not the label's value
    found = _found(rules, [[(600, "Booking ID"), (800, "Payment Mode")],
                           [(600, "IBZY2087"), (800, "Cash at Hotel")]])
    assert ("REFERENCE_NUMBER", "IBZY2087") in found, found


def test_running_text_right_of_a_label_is_no_column_caption(rules):
    # "Requested by and Dr. Gary Huber": the words after the label are a sentence going on
    # (lower case), so the line under it is not the label's value
    found = _found(rules, [[(20, "Requested by"), (200, "and Dr. Gary Huber")],
                           [(20, "Boston Massachusetts")]])
    assert not any(t == "PERSON" and "Boston" in v for t, v in found), found


def test_a_summary_panels_values_set_flush_right(rules):
    # "Invoice Number:" ... "42183017", "Invoice Date:" ... "August 3 , 2014": the values
    # end at the panel's right edge, however far from the labels
    number, date = "42183017", "August 3 , 2014"
    right = 1600
    found = _found(rules, [[(700, "Invoice Number:"), (right - 11 * len(number), number)],
                           [(700, "Invoice Date:"), (right - 11 * len(date), date)]])
    assert ("REFERENCE_NUMBER", number) in found, found
    assert ("DATE", date) in found, found


def test_a_far_word_that_heads_no_column_of_values_is_not_taken(rules):
    found = _found(rules, [[(700, "Invoice Number:"), (1500, "42183017")],
                           [(700, "Thank you for your order")]])
    assert ("REFERENCE_NUMBER", "42183017") not in found, found


def test_a_registered_office_caption_names_an_address_after_the_company(rules):
    found = _found(rules, [
        "Registered Office: Delhi Rectangle Regus, Level 4, Rectangle 1, Commercial Complex D-4, "
        "Saket, New Delhi - 110017",
        "Corporate Office: 9th floor, Spaze Palazo, Southern Peripheral Road, Sec-69, Gurgaon -122001 | "
        "Phone: 080 100 444 66",
        "Regd. office: WS Retail Services Private Limited, Ozone Manay Tech Park, No 56/18, 9th Floor, "
        "Hosur Road, Bangalore-560068, Karnataka, India"])
    assert ("ADDRESS", "Delhi Rectangle Regus, Level 4, Rectangle 1, Commercial Complex D-4, Saket, "
                       "New Delhi - 110017") in found, found
    # the bar parts the footer's fields
    assert ("ADDRESS", "9th floor, Spaze Palazo, Southern Peripheral Road, Sec-69, Gurgaon -122001") in found
    assert ("ORGANIZATION", "WS Retail Services Private Limited") in found, found
    assert ("ADDRESS", "Ozone Manay Tech Park, No 56/18, 9th Floor, Hosur Road, Bangalore-560068, "
                       "Karnataka, India") in found, found


@pytest.mark.parametrize("line, kind, value", [
    ("VAT/TIN: 29670869006", "BUSINESS_ID", "29670869006"),
    ("Service tax #: AAACW8725FSD001", "BUSINESS_ID", "AAACW8725FSD001"),
    ("Flipkart.com Customer Care : 1800 208 9898", "PHONE", "1800 208 9898"),
])
def test_indian_tax_registrations_and_service_lines(rules, line, kind, value):
    assert (kind, value) in _found(rules, [line])


def test_a_billing_address_block_opens_with_the_billed_persons_name(rules):
    found = _found(rules, [[(20, "Billing Address")],
                           [(20, "Anushrut Singh")],
                           [(20, "3/64, Vishwas Khand, Gomti Nagar")],
                           [(20, "Lucknow 226010 Uttar Pradesh")]])
    assert ("PERSON", "Anushrut Singh") in found, found
    assert not any(t == "ADDRESS" and "Anushrut" in v for t, v in found), found


def test_a_row_of_dates_under_date_captions_is_no_phone_number(rules):
    # "03/20/2023   04/04/2023": OCR reads an invoice's date and its due date as one line;
    # the national phone shape must not run from one cell's date into the next
    found = _found(rules, [[(80, "Invoice Date:"), (600, "Due Date:"), (1100, "Reference:")],
                           [(80, "03/20/2023"), (600, "04/04/2023"), (1100, "CUSTREF123")]])
    assert ("DATE", "03/20/2023") in found and ("DATE", "04/04/2023") in found, found
    assert not any(t == "PHONE" for t, _ in found), found


@pytest.mark.parametrize("name, kind", [("Azure Interior", "ORGANIZATION"), ("Maria Lopez", "PERSON")])
def test_the_name_line_over_an_address_is_a_firm_when_it_ends_in_an_everyday_word(rules, name, kind):
    found = _found(rules, [name, "4557 De Silva St", "Fremont CA 94538", "United States"])
    assert (kind, name) in found, found


def test_a_bill_to_block_opening_with_its_attention_line(rules):
    # a cloud provider's invoice: "Bill to Address:" over "ATTN: iViveLabs Limited" and a
    # Hong Kong address (a camel-case brand's legal form is an organisation too)
    found = _found(rules, ["Bill to Address:", "ATTN: iViveLabs Limited", "93B Sai Yu Chung",
                           "Yuen Long, N.T., 0000, HK"])
    assert ("ORGANIZATION", "iViveLabs Limited") in found, found
    assert ("ADDRESS", "93B Sai Yu Chung\nYuen Long, N.T., 0000, HK") in found, found


def test_a_label_word_ending_its_sentence_takes_no_value(rules):
    # a state agency's report (pdfplumber's test PDFs): "hospital" names an organisation's
    # value as a caption, but here it ends a sentence and "Law" opens the next
    found = _found(rules, ["so the child was transported to another hospital. Law enforcement was "
                           "contacted and initiated a criminal investigation."])
    assert not any(v == "Law" for _, v in found), found


def test_a_month_and_year_is_no_identifier(rules):
    found = _found(rules, ["DCF-F-2476-E (R. 04/2014)", "Account 00030340067212"])
    assert not any("04/2014" in v for _, v in found), found
    assert any(v == "00030340067212" for _, v in found), found


@pytest.mark.parametrize("line, value", [
    ("Rechnungsdatum 7. Mai 2014", "7. Mai 2014"),          # a German hosting company's invoice
    ("Paris, le 1er mars 2020", "1er mars 2020"),
    ("Gorredijk, 15 maart 2021", "15 maart 2021"),
    ("Madrid, 3 de enero de 2020", "3 de enero de 2020"),
])
def test_a_date_written_in_a_european_language(rules, line, value):
    assert ("DATE", value) in _found(rules, [line])


def test_a_month_name_of_another_language_alone_is_no_date(rules):
    # "mars" and "mai" are also words ("Mars", "Mai Tai"): only a day and a year make a date
    assert not any(t == "DATE" for t, _ in _found(rules, ["le 3 mars prochain", "Mai Tai Lounge 12 Main St"]))


def test_a_large_citys_name_closing_an_address_is_no_persons(rules):
    # "Hong Kong" reads as a given name and a surname by the census lists
    found = _found(rules, ["iViveLabs Ltd.", "93B Sai Yu Chung", "Yuen Long, N.T.", "Hong Kong"])
    assert not any(t == "PERSON" and v == "Hong Kong" for t, v in found), found


def test_a_line_items_bracketed_product_code_is_no_reference(rules):
    # an Odoo invoice's line items open with the catalogue's code in square brackets
    found = _found(rules, ["[17589684] Beeswax XL 1.00 kg 42.00", "Customer account 88123456 in arrears"])
    assert not any("17589684" in v for _, v in found), found
    assert any("88123456" in v for _, v in found), found


@pytest.mark.parametrize("line", ["AUTH CODE: 083142", "Auth Code: 083142", "AUTHORIZATION CODE 083142",
                                  "APPROVAL CODE: 083142"])
def test_a_card_payments_authorisation_code_is_the_number_alone(rules, line):
    # a card slip under a receipt: the caption's "CODE:" is no prefix of the number
    found = _found(rules, ["VISA  $3.44", "CARD NO: ************4821", line])
    assert ("REFERENCE_NUMBER", "083142") in found, found


def test_a_word_with_a_colon_after_a_caption_is_no_number_word(rules):
    # "Source of Business - This: 250 Males" (a market research request): "This:" closes
    # another caption, and the count after it is no business number
    found = _found(rules, ["Source of Business - This: 250 Males, (100 smokers, 25 ~ 29 years old)"])
    assert not [t for ty, t in found if ty in ("BUSINESS_ID", "REFERENCE_NUMBER")], found


@pytest.mark.parametrize("rows, org, number", [
    # a Malaysian receipt's header: the company, then its registration number in brackets
    (["AEON CO. (M) BHD (126926-H)"], "AEON CO. (M) BHD", "126926-H"),
    (["GARDENIA BAKERIES (KL) SDN BHD", "(139386 X)"], "GARDENIA BAKERIES (KL) SDN BHD", "139386 X"),
])
def test_a_malaysian_companys_name_and_registration_number(rules, rows, org, number):
    found = _found(rules, rows + ["LOT 3, JALAN PELABUR 23/1,", "40300 SHAH ALAM, SELANGOR."])
    assert ("ORGANIZATION", org) in found, found
    assert ("BUSINESS_ID", number) in found, found


@pytest.mark.parametrize("rows", [
    # the comma a receipt may put after the postcode
    ["NO 290, JALAN AIR PANAS,", "SETAPAK,", "53200, KUALA LUMPUR."],
    # a township line ending in a comma, its first word no misread "Dear"
    ["NO. 2, JALAN TEMENGGUNG 17/9,", "BANDAR MAHKOTA CHERAS,", "43200 CHERAS, SELANGOR"],
])
def test_a_malaysian_receipts_address_block_is_one_address(rules, rows):
    found = _found(rules, ["SYARIKAT PERNIAGAAN KWONG HING"] + rows + ["TEL : 03-40210276"])
    assert [t for ty, t in found if ty == "ADDRESS"] == ["\n".join(rows).rstrip(".")], found
    assert not [t for ty, t in found if ty == "PERSON"], found


@pytest.mark.parametrize("line, org", [
    # a pay statement: the legal form and its comma close the employer's name
    ("Employer: Riverside Logistics LLC, EIN 84-2231907", "Riverside Logistics LLC"),
    ("Employer: Hammond Printing Co., Boston", "Hammond Printing Co."),
    # ... unless a second legal form follows
    ("Company: Acme Co., Inc.", "Acme Co., Inc."),
])
def test_a_legal_form_and_its_comma_close_a_captioned_companys_name(rules, line, org):
    assert [t for ty, t in _found(rules, [line]) if ty == "ORGANIZATION"] == [org]


def test_a_statements_rows_dated_by_month_and_day(rules):
    rows = ["Statement Period: 11/01/2023 - 11/30/2023",
            [(20, "11/03"), (200, "ACH DEPOSIT ACME PAYROLL"), (700, "2,314.55")],
            [(20, "11/07"), (200, "CHECK #1042"), (700, "-450.00")],
            [(20, "11/15"), (200, "CARD PURCHASE GROCERY"), (700, "-120.00")],
            [(20, "12/01"), (200, "INTEREST PAID"), (700, "0.12")]]
    found = _found(rules, rows)
    assert {("DATE", d) for d in ("11/03", "11/07", "11/15", "12/01")} <= set(found), found


@pytest.mark.parametrize("sizes", [("1/4", "1/2", "5/8"), ("1/8", "1/4", "1/2")])
def test_a_parts_lists_fractions_are_no_dated_rows(rules, sizes):
    found = _found(rules, [[(20, s), (200, "inch hex bolts, box of 50"), (700, "3.10")] for s in sizes])
    assert not [t for ty, t in found if ty == "DATE"], found


@pytest.mark.parametrize("header, shop", [("TRADER JOE'S #552", "TRADER JOE'S"), ("KWIK TRIP #442", "KWIK TRIP")])
def test_a_receipts_shop_over_its_address_with_its_store_number(rules, header, shop):
    found = _found(rules, [header, "1234 Main Street", "Springfield, IL 62704", "(217) 555-0142"])
    assert ("ORGANIZATION", shop) in found, found


@pytest.mark.parametrize("name", ["JOHN Q. PUBLIC", "Mary K. Long"])
def test_a_given_name_and_a_middle_initial_over_an_address_are_a_person(rules, name):
    # the account holder printed over the address on a check or a statement, whatever the
    # surname means elsewhere ("Public", "Long")
    found = _found(rules, [name, "123 Elm St", "Anytown, OH 44101"])
    assert ("PERSON", name) in found, found
