"""The layout-aware `rules` detector: every pattern family on OcrPages built from word boxes,
OCR confusions, checksum negatives, distractors that must stay unflagged, label geometry
(right of, under, table columns, party blocks), and one form page rendered with a real font
and read by real Tesseract."""
from __future__ import annotations

import dataclasses
import re
import shutil

import pytest
from rules_pages import CHAR_W, LINE_H, one_line_rows, page_from_rows

from redactor_plugins.rules_detector import RulesDetector
from redactor.model import OcrPage, WordBox
from redactor.plugin_api import load_label_mapping
from redactor.taxonomy import is_known


@pytest.fixture(scope="module")
def det():
    return RulesDetector()




def found(det, rows):
    page = page_from_rows(rows)
    return {(s.type, s.text) for s in det.detect(page)}


def types_of(det, rows, value):
    page = page_from_rows(rows)
    return {s.type for s in det.detect(page) if value in s.text}


# ---- plugin contract ------------------------------------------------------------------------

def test_emits_is_derived_from_the_mapping_and_uses_known_types():
    mapping = load_label_mapping("rules.yaml")
    assert all(is_known(t) for t in mapping.values())
    assert {"PERSON", "ADDRESS", "EMAIL", "PHONE", "ACCOUNT_NUMBER", "ID_NUMBER", "CARD_NUMBER",
            "REFERENCE_NUMBER", "ONLINE_ID", "DATE", "BUSINESS_ID"} <= RulesDetector.emits()
    assert RulesDetector.unavailable_reason() is None


def test_offsets_are_exact_and_empty_page_gives_nothing(det):
    page = page_from_rows(["Phone: (555) 234-5678 and mail jo@example.com"])
    spans = det.detect(page)
    assert spans and all(page.text[s.start:s.end] == s.text for s in spans)
    assert all(s.detector == "rules" for s in spans)
    assert det.detect(OcrPage(100, 100, (), "test")) == []


def test_bad_options_are_input_errors(tmp_path):
    from redactor.errors import InputError
    with pytest.raises(InputError):
        RulesDetector(colour="blue")
    with pytest.raises(InputError):
        RulesDetector(min_score="high")
    with pytest.raises(InputError):
        RulesDetector(data_dir=tmp_path / "missing")
    strict = RulesDetector(min_score="0.9")
    page = page_from_rows(["Call 555.234.5678 or Tel: (555) 234-9999 about 5551234567"])
    assert {s.text for s in strict.detect(page)} == {"(555) 234-9999"}


def test_broken_data_folder_is_reported_as_unavailable(tmp_path):
    from redactor.errors import PluginUnavailable
    (tmp_path / "patterns.yaml").write_text("patterns:\n  - rule: x\n    score: 1\n    regex: '('\n")
    with pytest.raises(PluginUnavailable):
        RulesDetector(data_dir=tmp_path)


# ---- online identifiers -----------------------------------------------------------------------

@pytest.mark.parametrize("text,value,typ", [
    ("Write to jane.doe@mail.example.org today", "jane.doe@mail.example.org", "EMAIL"),
    ("Write to jane.doe @ example.com today", "jane.doe @ example.com", "EMAIL"),
    ("Portal https://portal.example.com/u/8812 now", "https://portal.example.com/u/8812", "ONLINE_ID"),
    ("See www.example.org for details", "www.example.org", "ONLINE_ID"),
    ("Login from 192.168.10.12 failed", "192.168.10.12", "ONLINE_ID"),
    ("Follow @jdoe_88 for news", "@jdoe_88", "ONLINE_ID"),
])
def test_online_identifiers(det, text, value, typ):
    assert (typ, value) in found(det, [text])


def test_ip_address_with_a_dot_read_as_a_comma(det):
    got = found(det, ["X-Originating-IP: [131.49,.139.157]", "Total 12,100,200.50 due"])
    assert ("ONLINE_ID", "131.49,.139.157") in got
    assert not any(t == "ONLINE_ID" for t, v in got if "12" in v)


def test_invalid_ip_is_not_online_id(det):
    assert "ONLINE_ID" not in types_of(det, ["Version 999.1.1.1 released"], "999.1.1.1")


# ---- phones -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text,value", [
    ("Call +1 (555) 234-5678 now", "+1 (555) 234-5678"),
    ("Call 555.234.5678 now", "555.234.5678"),
    ("Call (555)234-5678 ext. 204 now", "(555)234-5678 ext. 204"),
    ("Call 1-800-555-1234 now", "1-800-555-1234"),
    ("London office +44 20 7946 0958", "+44 20 7946 0958"),
    ("Berlin +49 (0)30 1234567", "+49 (0)30 1234567"),
    ("UK landline 020 7946 0958", "020 7946 0958"),
    ("Paris 01 42 68 53 00 office", "01 42 68 53 00"),
    ("Tel: 555-1234", "555-1234"),
    ("Fax 555 234 5678", "555 234 5678"),
    # OCR split the number across two words and read a 0 as O
    ("Call 555-234- 5678 now", "555-234- 5678"),
    ("Call (555) 234-567O now", "(555) 234-567O"),
    # a speck beside a separator, read as a second one
    ("call _342,.660.3585 today", "342,.660.3585"),
    # an exchange's name before all-figure dialling (unseen FUNSD agency forms of the 1960s)
    ("Telephone: LT 3-7777", "LT 3-7777"),
    ("Call PLaza 5-1234 today", "PLaza 5-1234"),
    ("Call MUrray Hill 2-7500 today", "MUrray Hill 2-7500"),
])
def test_phone_formats(det, text, value):
    assert ("PHONE", value) in found(det, [text])


# ---- dates ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["03/14/1985", "14.03.1985", "2024-01-15", "March 5, 2024",
                                   "5th of March 2024", "05-MAR-2024", "Mar. 5, 2024", "3/4/24"])
def test_date_formats(det, value):
    assert ("DATE", value) in found(det, [f"Signed on {value} by"])


# ---- checksummed numbers ---------------------------------------------------------------------

def test_card_with_luhn_and_ocr_confusions(det):
    assert ("CARD_NUMBER", "4539 1488 0343 6467") in found(det, ["paid with 4539 1488 0343 6467 ok"])
    assert ("CARD_NUMBER", "4539 l488 O343 6467") in found(det, ["paid with 4539 l488 O343 6467 ok"])
    assert ("CARD_NUMBER", "4539148803436467") in found(det, ["paid with 4539148803436467 ok"])


def test_card_failing_luhn_is_not_a_card(det):
    assert "CARD_NUMBER" not in types_of(det, ["paid with 4539 1488 0343 6468 ok"], "4539")


def test_ssn_structure(det):
    assert ("ID_NUMBER", "512-44-9087") in found(det, ["his number 512-44-9087 here"])
    assert ("ID_NUMBER", "5l2-44-9O87") in found(det, ["his number 5l2-44-9O87 here"])
    for bad in ("000-12-3456", "666-12-3456", "912-34-5678", "512-00-9087", "512-44-0000"):
        assert "ID_NUMBER" not in types_of(det, [f"his number {bad} here"], bad), bad


def test_ein_iban_and_routing(det):
    assert ("BUSINESS_ID", "12-3456789") in found(det, ["employer 12-3456789 listed"])
    assert "BUSINESS_ID" not in types_of(det, ["employer 07-3456789 listed"], "07-3456789")
    assert ("ACCOUNT_NUMBER", "GB82 WEST 1234 5698 7654 32") in found(
        det, ["pay GB82 WEST 1234 5698 7654 32 please"])
    assert ("ACCOUNT_NUMBER", "DE89370400440532013000") in found(det, ["pay DE89370400440532013000 now"])
    assert "ACCOUNT_NUMBER" not in types_of(det, ["pay GB82 WEST 1234 5698 7654 33 please"], "WEST")
    # a routing number says which bank (an organisation), not whose account
    assert ("BUSINESS_ID", "021000021") in found(det, ["routing 021000021 used"])
    assert not {"ACCOUNT_NUMBER", "BUSINESS_ID"} & types_of(det, ["value 021000022 used"], "021000022")


# ---- addresses ----------------------------------------------------------------------------------

def test_us_street_and_city_lines_form_one_block(det):
    spans = found(det, ["Our office", "1247 Oak Ridge Drive, Apt 3B", "Springfield, IL 62704-1123",
                        "is open daily"])
    assert ("ADDRESS", "1247 Oak Ridge Drive, Apt 3B\nSpringfield, IL 62704-1123") in spans


def test_single_line_and_po_box_addresses(det):
    assert ("ADDRESS", "88 Harbor Blvd, Boston, MA 02110") in found(
        det, ["Send it to 88 Harbor Blvd, Boston, MA 02110 soon"])
    assert ("ADDRESS", "PO Box 4410") in found(det, ["Mail: PO Box 4410 only"])
    assert ("ADDRESS", "P.O. Box 12") in found(det, ["Write to P.O. Box 12 today"])


def _with_conf(page, confs):
    words = [dataclasses.replace(w, conf=confs.get(w.text, w.conf)) for w in page.words]
    return OcrPage(page.width, page.height, tuple(words), page.engine)


def test_state_and_zip_after_a_garbled_city_are_an_address(det):
    """OCR ran the street and city lines together into unsure letters ("mort hina"): the
    state and ZIP that end the row still say address, and the address takes the garbled
    words in. Readable words before the state, none unsure, a line of prose or a state and
    ZIP not ending the row are no such city."""
    page = page_from_rows(["MARTINEZ GROUP", "mort hina FL 91568", "Tel: (819) 589-3955"])
    assert ("ADDRESS", "mort hina FL 91568") in _spans(det, _with_conf(page, {"hina": 0.0}))
    assert not any(t.type == "ADDRESS" for t in det.detect(page))   # all read surely: words
    prose = page_from_rows(["sent with the form FL 91568", "mort hina FL 91568 today"])
    assert not any(s.type == "ADDRESS" for s in det.detect(_with_conf(prose, {"the": 20.0, "hina": 0.0})))
    # the garbled words too tall to share the state's line: a cell of their own on its left
    words = [WordBox("mort", (20, 60, 70, 140), 53.0, 1, 0), WordBox("hina", (85, 66, 200, 138), 0.0, 1, 0),
             WordBox("FL", (215, 110, 240, 133), 25.0, 2, 0), WordBox("91568", (250, 110, 320, 133), 25.0, 2, 0)]
    tall = OcrPage(1000, 400, (WordBox("MARTINEZ", (20, 10, 200, 40), 96.0, 0, 0),) + tuple(words), "test")
    assert ("ADDRESS", "mort hina\nFL 91568") in _spans(det, tall)


def test_city_line_with_a_u_read_as_li_under_a_street_line(det):
    """"UT" read as "Lip": the damaged city line still ends the street line's block, and
    a PO box line ("P.O. Box 65271") is no damaged city line."""
    spans = found(det, ["9275 Sherman Cliff", "Kast Kevin, Lip 14173"])
    assert ("ADDRESS", "9275 Sherman Cliff\nKast Kevin, Lip 14173") in spans
    spans = found(det, ["P.O. Box 65271", "North Melissafort, ME 77535"])
    assert ("ADDRESS", "P.O. Box 65271\nNorth Melissafort, ME 77535") in spans


def test_suite_line_between_street_and_city_joins_the_block(det):
    spans = found(det, ["500 W Madison St", "Floor 12", "Chicago, IL 60661"])
    assert ("ADDRESS", "500 W Madison St\nFloor 12\nChicago, IL 60661") in spans


def test_international_addresses(det):
    assert ("ADDRESS", "10 Downing Street\nLondon SW1A 2AA") in found(
        det, ["10 Downing Street", "London SW1A 2AA"])
    assert ("ADDRESS", "Toronto, ON M5V 2T6") in found(det, ["Toronto, ON M5V 2T6"])
    assert ("ADDRESS", "Hauptstraße 5\n10115 Berlin") in found(det, ["Hauptstraße 5", "10115 Berlin"])
    assert ("ADDRESS", "12 rue de la Paix\n75002 Paris") in found(det, ["12 rue de la Paix", "75002 Paris"])


def test_lone_eu_postcode_city_is_not_enough(det):
    assert not any(t == "ADDRESS" for t, _ in found(det, ["We sold 12000 Units last year"]))


@pytest.mark.parametrize("lines, town", [
    (["Philip Morris Europe", "Fabriques de Tabac Reunies S.A.", "", "CH-2003 Neuchâtel"], "CH-2003 Neuchâtel"),
    (["D-8000 München 40"], "D-8000 München 40"),
    (["F-75008 Paris"], "F-75008 Paris"),
])
def test_a_country_coded_postcode_is_a_town_line_on_its_own(det, lines, town):
    """European letters of the 1960s-1990s wrote the country's code before the postcode
    (an unseen FUNSD letter's "CH-2003 Neuchâtel" under a firm's name, no street line)."""
    assert ("ADDRESS", town) in found(det, lines), found(det, lines)


@pytest.mark.parametrize("line", ["Order the D-1234 Filter today", "Part B-2003 Series only"])
def test_a_part_code_and_an_everyday_word_are_no_coded_town(det, line):
    assert not any(t == "ADDRESS" for t, _ in found(det, [line]))


def test_counts_of_goods_stacked_in_a_column_are_no_postcode_town_lines(det):
    """A dev FUNSD test-market form lists quantities one under the other ("2920 Packs" over
    "1920 Packs"): a four-digit figure and an everyday word, read like two European
    postcode-and-town lines making one block."""
    spans = found(det, ["PRODUCT QUANTITY", "2920 Packs", "1920 Packs", "5000 Copies"])
    assert not any(t == "ADDRESS" for t, _ in spans), spans


def test_a_country_after_the_zip_still_closes_a_us_block(det):
    spans = found(det, ["32 Washington Street", "Fairhaven, MA 02719 USA"])
    assert ("ADDRESS", "32 Washington Street\nFairhaven, MA 02719 USA") in spans, spans


# ---- names --------------------------------------------------------------------------------------

def test_names_from_titles_salutations_and_signatures(det):
    spans = found(det, ["Dear Ms. Jane Roe,", "we met Dr. Alan Turing yesterday.", None,
                        "Sincerely,", None, None, "John Q. Public", "Claims Director"])
    assert ("PERSON", "Jane Roe") in spans
    assert ("PERSON", "Alan Turing") in spans
    assert ("PERSON", "John Q. Public") in spans
    assert not any("Claims" in v for _, v in spans)


def test_generic_salutation_is_not_a_name(det):
    assert found(det, ["Dear Sir or Madam,"]) == set()
    assert found(det, ["Dear Valued Customer,"]) == set()


def test_street_drive_is_not_a_doctor(det):
    spans = found(det, ["1200 Oak Dr", "Austin, TX 78701"])
    assert ("ADDRESS", "1200 Oak Dr\nAustin, TX 78701") in spans
    assert not any(t == "PERSON" for t, _ in spans)


# ---- labels: right of the label -------------------------------------------------------------------

@pytest.mark.parametrize("row,typ,value", [
    ("Name: John Smith", "PERSON", "John Smith"),
    ("Patient Name: SMITH, JOHN", "PERSON", "SMITH, JOHN"),
    ("Attn: Mary-Ann O'Neil", "PERSON", "Mary-Ann O'Neil"),
    ("To: Dr. Helen Park", "PERSON", "Helen Park"),
    ("Acct #: 00457-221", "ACCOUNT_NUMBER", "00457-221"),
    ("Account No. 5521 0098 11", "ACCOUNT_NUMBER", "5521 0098 11"),
    ("Policy Number AB 1234567", "ACCOUNT_NUMBER", "AB 1234567"),
    ("Customer ID: C-88120", "ACCOUNT_NUMBER", "C-88120"),
    ("Invoice # 1042", "REFERENCE_NUMBER", "1042"),
    ("File No.: 2023-CV-0412", "REFERENCE_NUMBER", "2023-CV-0412"),
    ("Claim#: CLM88812", "REFERENCE_NUMBER", "CLM88812"),
    ("Order No 77120", "REFERENCE_NUMBER", "77120"),
    ("Member ID: XK4471902", "ID_NUMBER", "XK4471902"),
    ("Employee ID 00912", "ID_NUMBER", "00912"),
    ("Driver's License: D123-456-789", "ID_NUMBER", "D123-456-789"),
    ("Tax ID: 98-7654321", "ID_NUMBER", "98-7654321"),
    ("EIN 98-7654321", "BUSINESS_ID", "98-7654321"),
    ("Call sign: WXYZ-7", "BUSINESS_ID", "WXYZ-7"),
    ("Tel. 555 0143", "PHONE", "555 0143"),
    ("Mobile: 07700 900123", "PHONE", "07700 900123"),
    ("E-mail: jsmith©example.com", "EMAIL", "jsmith©example.com"),
    ("Username: jsmith42", "ONLINE_ID", "jsmith42"),
    ("DOB: 14 Feb 1979", "DATE", "14 Feb 1979"),
    ("Address: 12 Elm St", "ADDRESS", "12 Elm St"),
    ("Card No: **** **** **** 1234", "CARD_NUMBER", "**** **** **** 1234"),
    ("SS#: 123-45-6789", "ID_NUMBER", "123-45-6789"),
    ("Soc. Sec. No. 512-44-9087", "ID_NUMBER", "512-44-9087"),
    ("Ph#555-234-5678", "PHONE", "555-234-5678"),
    ("Acct.No.12345678", "ACCOUNT_NUMBER", "12345678"),
    ("FROM: ACME CORP FAX NO. : 5552345678 Jun. 03 2003", "PHONE", "5552345678"),
    ("Lic. No.: D1234567", "ID_NUMBER", "D1234567"),
    ("Case No. 2:19-cv-01234", "REFERENCE_NUMBER", "2:19-cv-01234"),
    ("Claim No 0042-771-2 DOL 3/4/2021", "REFERENCE_NUMBER", "0042-771-2"),
    ("Phone (Home): 555 234 5678", "PHONE", "555 234 5678"),
    ("Name of Insured: Robert Chen", "PERSON", "Robert Chen"),
    ("Insured's Name: Mary Ann Lee", "PERSON", "Mary Ann Lee"),
    ("Patient Name DOE JOHN DOB 01/01/1950 MRN 00012345", "PERSON", "DOE JOHN"),
    ("Patient Name DOE JOHN DOB 01/01/1950 MRN 00012345", "ID_NUMBER", "00012345"),
    ("VAT No. GB123456789", "BUSINESS_ID", "GB123456789"),
    ("Mobile +33 6 12 34 56 78", "PHONE", "+33 6 12 34 56 78"),
])
def test_value_right_of_label(det, row, typ, value):
    assert (typ, value) in found(det, [row])


def test_value_of_a_label_ends_at_the_next_label(det):
    spans = found(det, ["Name: John Smith Date: 01/02/2024 Amount: 250"])
    assert ("PERSON", "John Smith") in spans
    assert ("DATE", "01/02/2024") in spans
    assert not any("250" in v for _, v in spans)


def test_ambiguous_label_words_need_a_colon_or_their_own_cell(det):
    assert found(det, ["Please send the forms to John by Friday"]) == set()
    assert ("PERSON", "John Parker") in found(det, ["To: John Parker"])


# ---- labels: below the label ----------------------------------------------------------------------

def test_form_cell_value_under_its_label(det):
    rows = [[(20, "Name"), (400, "Phone")],
            [(20, "Maria Lopez"), (400, "(217) 555-0143")]]
    spans = found(det, rows)
    assert ("PERSON", "Maria Lopez") in spans and ("PHONE", "(217) 555-0143") in spans


def test_table_column_under_its_header(det):
    rows = [[(20, "Account Number"), (300, "Invoice #"), (600, "Amount"), (800, "Qty")],
            [(20, "88120457"), (300, "INV-20931"), (600, "$1,234.56"), (800, "12")],
            [(20, "88120458"), (300, "INV-20932"), (600, "$87.00"), (800, "3")]]
    spans = found(det, rows)
    for v in ("88120457", "88120458"):
        assert ("ACCOUNT_NUMBER", v) in spans
    for v in ("INV-20931", "INV-20932"):
        assert ("REFERENCE_NUMBER", v) in spans
    assert not any(v in ("$1,234.56", "$87.00", "12", "3") for _, v in spans)


def test_bill_to_block_gives_name_and_address(det):
    rows = [[(20, "Bill To:"), (600, "Ship To:")],
            [(20, "Robert K. Chen"), (600, "Chen Logistics LLC")],
            [(20, "88 Harbor Blvd"), (600, "PO Box 4410")],
            [(20, "Boston, MA 02110"), (600, "Austin, TX 78701")]]
    spans = found(det, rows)
    assert ("PERSON", "Robert K. Chen") in spans
    assert ("ORGANIZATION", "Chen Logistics LLC") in spans
    # the two columns interleave in the page text: one span per line
    assert {("ADDRESS", "88 Harbor Blvd"), ("ADDRESS", "Boston, MA 02110"), ("ADDRESS", "PO Box 4410"),
            ("ADDRESS", "Austin, TX 78701")} <= spans


def test_labelled_address_block_without_street_suffix(det):
    rows = ["Mailing Address:", "Flat 4, Rosebank House", "Kirkgate", "Leeds"]
    spans = found(det, rows)
    assert ("ADDRESS", "Flat 4, Rosebank House\nKirkgate\nLeeds") in spans


def test_email_headers(det):
    spans = found(det, ["From: Alice Walker <alice@corp.example.com>", "To: Bob Stone",
                        "Cc: Carol King", "Subject: Renewal of policy"])
    assert {("PERSON", "Alice Walker"), ("EMAIL", "alice@corp.example.com"), ("PERSON", "Bob Stone"),
            ("PERSON", "Carol King")} <= spans


# ---- distractors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("row", [
    "Total: $1,234.56",
    "Subtotal 1,234.56 Tax 98.76",
    "Page 2 of 3",
    "Qty 12 Unit price 4.50",
    "Item SKU-4410-BLK Model X200",
    "Terms: Net 30",
    "Version 2.4.1 released in 2021",
    "Weight 1,250 kg, 3 boxes",
    "Temperature 98.6 F",
    "Signature: ________ Date: ________",
    "Acct.No. pending",
])
def test_distractors_are_not_flagged(det, row):
    assert found(det, [row]) == set()


# ---- real rendering and real Tesseract ------------------------------------------------------------

FORM = [
    (80, 60, "ACME HEALTH INSURANCE CO.", 40, True),
    (80, 130, "Claim Form", 30, True),
    (80, 200, "Patient Name:", 26, True), (330, 200, "Maria Lopez", 26, False),
    (900, 200, "Date of Birth:", 26, True), (1110, 200, "03/14/1985", 26, False),
    (80, 260, "Member ID:", 26, True), (330, 260, "XK4471902", 26, False),
    (900, 260, "Policy No.", 26, True), (1110, 260, "PL-5521-0098", 26, False),
    (80, 320, "Address:", 26, True), (330, 320, "1247 Oak Ridge Drive, Apt 3B", 26, False),
    (330, 356, "Springfield, IL 62704", 26, False),
    (80, 420, "Phone:", 26, True), (330, 420, "(217) 555-0143", 26, False),
    (900, 420, "Fax:", 26, True), (1110, 420, "217.555.0199", 26, False),
    (80, 480, "Email:", 26, True), (330, 480, "maria.lopez@example.com", 26, False),
    (80, 560, "Account Number", 24, True), (600, 560, "Invoice #", 24, True), (1000, 560, "Amount", 24, True),
    (80, 600, "88120457", 24, False), (600, 600, "INV-20931", 24, False), (1000, 600, "$1,234.56", 24, False),
    (80, 640, "88120458", 24, False), (600, 640, "INV-20932", 24, False), (1000, 640, "$87.00", 24, False),
    (80, 720, "SSN: 512-44-9087", 26, False), (900, 720, "Card: 4539 1488 0343 6467", 26, False),
    (80, 800, "Bill To", 26, True), (900, 800, "Ship To", 26, True),
    (80, 840, "Robert K. Chen", 26, False), (900, 840, "Chen Logistics LLC", 26, False),
    (80, 876, "88 Harbor Blvd", 26, False), (900, 876, "PO Box 4410", 26, False),
    (80, 912, "Boston, MA 02110", 26, False), (900, 912, "Austin, TX 78701-1123", 26, False),
    (80, 1000, "Sincerely,", 26, False),
    (80, 1080, "Dr. Helen Park", 26, False),
    (80, 1116, "Claims Manager", 26, False),
    (80, 1200, "Page 2 of 3     Qty 12     Item SKU-4410-BLK", 24, False),
]

EXPECTED = [
    ("PERSON", "Maria Lopez"), ("DATE", "03/14/1985"), ("ID_NUMBER", "XK4471902"),
    ("ACCOUNT_NUMBER", "PL-5521-0098"), ("ADDRESS", "1247 Oak Ridge Drive, Apt 3B"),
    ("ADDRESS", "Springfield, IL 62704"), ("PHONE", "(217) 555-0143"), ("PHONE", "217.555.0199"),
    ("EMAIL", "maria.lopez@example.com"), ("ACCOUNT_NUMBER", "88120457"),
    ("ACCOUNT_NUMBER", "88120458"), ("REFERENCE_NUMBER", "INV-20931"),
    ("REFERENCE_NUMBER", "INV-20932"), ("ID_NUMBER", "512-44-9087"),
    ("CARD_NUMBER", "4539 1488 0343 6467"), ("PERSON", "Robert K. Chen"),
    ("ADDRESS", "88 Harbor Blvd"), ("ADDRESS", "Boston, MA 02110"), ("ADDRESS", "PO Box 4410"),
    ("ADDRESS", "Austin, TX 78701-1123"), ("PERSON", "Helen Park"),
]


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _tesseract_page(image) -> OcrPage:
    import pytesseract
    data = pytesseract.image_to_data(image, config="--psm 3", output_type=pytesseract.Output.DICT)
    words, line_ids = [], {}
    for i, t in enumerate(data["text"]):
        if not t.strip() or float(data["conf"][i]) < 0:
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        li = line_ids.setdefault(key, len(line_ids))
        x, y, w, h = data["left"][i], data["top"][i], data["width"][i], data["height"][i]
        words.append(WordBox(t, (x, y, x + w, y + h), float(data["conf"][i]), li, data["block_num"][i]))
    return OcrPage(image.width, image.height, tuple(words), "tesseract")


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Debian package tesseract-ocr")
def test_rendered_form_read_by_tesseract(det, monkeypatch):
    from PIL import Image, ImageDraw, ImageFont
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")
    fonts = "/usr/share/fonts/truetype/liberation/"
    img = Image.new("RGB", (1700, 1300), "white")
    draw = ImageDraw.Draw(img)
    for x, y, text, size, bold in FORM:
        face = "LiberationSans-Bold.ttf" if bold else "LiberationSans-Regular.ttf"
        font = ImageFont.truetype(fonts + face, size)
        draw.text((x, y), text, font=font, fill="black")
    page = _tesseract_page(img)
    spans = det.detect(page)
    assert all(page.text[s.start:s.end] == s.text for s in spans)
    got = [(s.type, _norm(s.text)) for s in spans]
    missing = [(t, v) for t, v in EXPECTED if not any(t == gt and _norm(v) in gv for gt, gv in got)]
    assert not missing, f"missed {missing}; found {[(s.type, s.text) for s in spans]}"
    flagged = " ".join(gv for _, gv in got)
    for distractor in ("123456", "8700", "sku4410", "claimsmanager", "amount"):
        assert distractor not in flagged


# ---- OCR realities ------------------------------------------------------------------------------

def test_label_wrapped_onto_the_next_line_and_filler_words(det):
    spans = found(det, ["We confirm that your policy", "number HX-229104 remains active.",
                        "Your member ID is 88A-20-1174."])
    assert ("ACCOUNT_NUMBER", "HX-229104") in spans
    assert ("ID_NUMBER", "88A-20-1174") in spans


def test_a_place_ocr_cut_in_two_under_its_caption_is_one_value(det):
    # "Jeffreybury" read "Jeff" "reybury" under CITY (frm-0265); "located" is a word
    spans = _spans(det, page_from_rows(["CITY", "Jeff reybury"]))
    assert ("LOCATION", "Jeff reybury") in spans
    spans = _spans(det, page_from_rows(["CITY", "Springfield located"]))
    assert ("LOCATION", "Springfield") in spans


def test_city_line_under_a_street_across_the_gap_of_an_unread_word(det):
    # "Victoriaburgh, CA 91444" read "Victoriah" ... "CA 91444" (inv-0493): the end of the
    # place and its comma not read leave a gap of about three text heights in the line
    page = page_from_rows(["07561 David Trail Apt. 197",
                           [(20, "Victoriah"), (20 + 17 * CHAR_W, "CA 91444")]])
    assert ("ADDRESS", "07561 David Trail Apt. 197\nVictoriah\nCA 91444") in _spans(det, page)
    # a state and ZIP that far from a word with no street line over it stay apart
    alone = page_from_rows(["Ship via ground", [(20, "Victoriah"), (20 + 17 * CHAR_W, "CA 91444")]])
    assert not any(t == "ADDRESS" and "Victoriah" in v for t, v in _spans(det, alone))


def test_currency_sign_before_a_broken_grouping_is_a_misread_letter_of_a_code(det):
    # "EZ25097" read "€2,25097" (oth-0458): no amount puts five digits after a comma, so
    # the sign is the code's E, also after a label without its colon
    spans = found(det, ["Message: please call back re Claim €2,25097 today."])
    assert ("REFERENCE_NUMBER", "€2,25097") in spans
    # a well-formed amount after the same label stays money
    assert not any(t == "REFERENCE_NUMBER" for t, _ in
                   found(det, ["Message: please call back re Claim €2,250.97 today."]))


@pytest.mark.parametrize("step", [30, 16])
def test_online_id_wrapped_onto_the_next_line_in_tight_leading(det, step):
    # at 16 px a line the two lines' 20 px word boxes overlap by their ascenders and
    # descenders (a letter set solid, eml-0093): still one sentence running on
    rows = ["I set up a login for you on the vendor portal: user",
            "colejennifer. Copies of the documents are attached."]
    spans = {(s.type, s.text) for s in det.detect(page_from_rows(rows, step=step))}
    assert ("ONLINE_ID", "colejennifer") in spans


@pytest.mark.parametrize("row,typ,value", [
    ("Te1: 555-234-1234", "PHONE", "555-234-1234"),
    ("Narne: John Smith", "PERSON", "John Smith"),
    ("P0licy No. 1299812", "ACCOUNT_NUMBER", "1299812"),
    ("Custmer Nane: John Smith", "PERSON", "John Smith"),
    ("Polcy #: AB12345", "ACCOUNT_NUMBER", "AB12345"),
    ("Claim: @8-40211", "REFERENCE_NUMBER", "@8-40211"),
])
def test_misread_labels_still_work(det, row, typ, value):
    assert (typ, value) in found(det, [row])


def test_misread_stop_label_is_not_taken_for_a_label(det):
    assert found(det, ["Amount: 1,234.00"]) == set()
    assert found(det, ["Note: see attached", "Subject: renewal"]) == set()


def _page(words):
    return OcrPage(2000, 400, tuple(words), "test")


def test_value_in_another_ocr_block_at_the_same_height(det):
    # Tesseract often gives a form's value column its own block and line ids
    words = (WordBox("FROM:", (900, 200, 980, 220), 90, 1, 1),
             WordBox("To:", (100, 200, 140, 220), 90, 0, 0),
             WordBox("Jonathan", (300, 200, 400, 220), 90, 0, 0),
             WordBox("Reyes", (410, 200, 470, 220), 90, 0, 0),
             WordBox("Linda", (1100, 201, 1160, 221), 90, 7, 5),
             WordBox("Carver", (1170, 201, 1240, 221), 90, 7, 5))
    page = _page(sorted(words, key=lambda w: w.block))
    spans = {(s.type, s.text) for s in det.detect(page)}
    assert {("PERSON", "Jonathan Reyes"), ("PERSON", "Linda Carver")} <= spans


def test_two_columns_read_as_one_ocr_line_stay_two_addresses(det):
    # OCR merged the Bill To and Ship To columns into single lines
    def line(y, lid, cells):
        out = []
        for x, text in cells:
            for tok in text.split():
                out.append(WordBox(tok, (x, y, x + len(tok) * CHAR_W, y + LINE_H), 90, lid, 0))
                x += (len(tok) + 1) * CHAR_W
        return out
    words = (line(20, 0, [(20, "Kim Design Studio"), (600, "1905 Pine Street")])
             + line(50, 1, [(20, "77 Market St, Ste 5"), (600, "Seattle, WA 98101")])
             + line(80, 2, [(20, "San Francisco, CA 94105")]))
    spans = {(s.type, s.text) for s in det.detect(_page(words))}
    assert {("ADDRESS", "1905 Pine Street"), ("ADDRESS", "Seattle, WA 98101"),
            ("ADDRESS", "77 Market St, Ste 5"), ("ADDRESS", "San Francisco, CA 94105")} <= spans
    assert not any("Ste 5 Seattle" in v for _, v in spans)


def test_email_whose_dot_ocr_lost(det):
    assert any(t == "EMAIL" and v.startswith("billing@kimdesign")
               for t, v in found(det, ["Questions? billing@kimdesign example or 206-555-0148"]))


def test_a_line_that_is_only_a_census_name_is_a_person(det):
    got = found(det, ["Gregory Burgess", "Virginia Beach", "Grant Street", "Gregory Burgess called"])
    assert ("PERSON", "Gregory Burgess") in got
    assert not any(t == "PERSON" and v != "Gregory Burgess" for t, v in got)
    assert [h.rule for h in det.hits(page_from_rows(["Gregory Burgess"]))] == ["name_line"]


def test_email_whose_at_ocr_lost_under_an_email_caption(det):
    # the @ read as nothing leaves the user name and the domain as two words
    assert ("EMAIL", "lsjefferson hotmail.com") in found(det, ["E-mail: lsjefferson hotmail.com"])
    # without the caption two such words are a word and a web address
    assert not any(t == "EMAIL" for t, _ in found(det, ["Visit lsjefferson hotmail.com"]))



@pytest.mark.parametrize("row,value", [
    ("From: cupaynedbecker-avila.com", "cupaynedbecker-avila.com"),     # the @ read as a letter
    ("To: jadams benton-walsh.org", "jadams benton-walsh.org"),         # ... or as a gap
])
def test_mail_header_value_shaped_like_a_domain_is_an_email(det, row, value):
    assert ("EMAIL", value) in found(det, [row])


def test_mail_header_names_and_web_addresses_stay_what_they_are(det):
    got = found(det, ["From: Jennifer Cole", "To: www.benton-walsh.org"])
    assert ("PERSON", "Jennifer Cole") in got
    assert not any(t == "EMAIL" for t, _ in got)



def test_email_field_split_by_gaps_in_the_hand_is_one_address(det):
    # the caption's field holds one address: lower-case pieces before the @ are its user part
    assert ("EMAIL", "na thanw@gmail. com") in found(det, ["E-mail address: na thanw@gmail. com"])
    # in prose the words before an address are words
    got = found(det, ["You can email me at rclements@watson.biz today"])
    assert ("EMAIL", "rclements@watson.biz") in got


def test_card_caption_without_colon_reaches_a_card_shaped_value_at_a_tab_stop():
    det = RulesDetector()
    # a payment table's row: caption, then the card number at a tab stop (Luhn fails: a
    # misread digit)
    page = one_line_rows([[(20, "Credit Card"), (183, "6011948255635087"), (900, "Exp. 02/09")]])
    assert ("CARD_NUMBER", "6011948255635087") in {(s.type, s.text) for s in det.detect(page)}
    # at that distance a value that is not card-shaped is not taken
    page = one_line_rows([[(20, "Credit Card"), (183, "A-1172"), (900, "Exp. 02/09")]])
    assert not any(s.type == "CARD_NUMBER" for s in det.detect(page))

def test_url_whose_colon_ocr_read_with_a_speck(det):
    assert ("ONLINE_ID", "http:, // www.cole-miller.com") in found(det, ["Web: http:, // www.cole-miller.com"])


def test_city_name_that_ocr_split_in_two_stays_in_the_address(det):
    got = found(det, ["Employer: Hall Group", "913 Walters Lock, Lake Ky leton, NM 43814"])
    assert ("ADDRESS", "913 Walters Lock, Lake Ky leton, NM 43814") in got
    # a lower-case word alone before a state is prose, not a city
    assert not any(t == "ADDRESS" for t, _ in found(det, ["we met at home, NM 43814 was the code"]))

def test_city_whose_first_letter_ocr_read_in_lower_case_stays_in_the_address(det):
    # "South" read "south": s, like c o u v w x z, differs from its capital only in size
    got = found(det, ["82048 Amy Summit", "south Adam, AL 27219"])
    assert ("ADDRESS", "82048 Amy Summit\nsouth Adam, AL 27219") in got
    # letters whose small form has a shape of its own, and one word alone, stay prose
    assert ("ADDRESS", "82048 Amy Summit\nnorth Adam, AL 27219") not in \
        found(det, ["82048 Amy Summit", "north Adam, AL 27219"])
    assert not any(t == "ADDRESS" for t, _ in found(det, ["send the cover, AL 27219 by noon"]))


def test_phone_with_a_five_read_as_a_dollar_sign(det):
    # "$" for "5" as OCR reads a 5 whose strokes ran together on a noisy scan
    assert ("PHONE", "+1 760 209 $338") in found(det, ["Order No. +1 760 209 $338"])
    assert ("PHONE", "+1 760 209 $338") in found(det, ["Call +1 760 209 $338 today"])
    # an amount is still no phone number
    assert not any(t == "PHONE" for t, _ in found(det, ["Total due: $338.20"]))


def test_city_line_after_a_unit_number_whose_comma_ocr_read_as_a_stop(det):
    got = found(det, ["0358 Chandler Pines Suite 277. Jasonchester, GA 49815"])
    assert ("ADDRESS", "0358 Chandler Pines Suite 277. Jasonchester, GA 49815") in got
    # two addresses in a row, the first ending with its unit number, stay two
    got = found(det, ["Ship to 40 Elm Road Suite 9. Or collect at 7 Bay Lane, Troy, NY 12180"])
    assert ("ADDRESS", "7 Bay Lane, Troy, NY 12180") in got


def test_single_line_address_with_commas_and_no_false_title(det):
    spans = found(det, ["Carver Law Group, 220 N. Wacker Dr., Suite 1400, Chicago, IL 60606"])
    assert ("ADDRESS", "220 N. Wacker Dr., Suite 1400, Chicago, IL 60606") in spans
    assert not any(t == "PERSON" for t, _ in spans)


@pytest.mark.parametrize("row", [
    "Sent via email on Monday",
    "Questions? Contact billing at 9 am",
    "Member ID 12345 Patient ID 55810",
])
def test_more_distractors(det, row):
    assert not any(t == "ADDRESS" for t, _ in found(det, [row]))


# ---- forms, letters and e-mails as they are laid out ------------------------------------------

def test_header_row_with_annotations_and_boxed_fields():
    det = RulesDetector()
    rows = [[(20, "NAME (Last, First, M.I.)"), (700, "DATE OF BIRTH")],
            [(20, "Hernandez, Joshua S."), (700, "February 19, 1931")],
            [(20, "SOCIAL SECURITY NO."), (500, "AGE"), (700, "PASSPORT NO.")],
            # a form's field boxes read as '|' and spread the parts of the number
            [(20, "964"), (120, "|46"), (200, "|"), (230, "5449"), (500, "47"), (700, "814390360")]]
    spans = {(s.type, s.text) for s in det.detect(one_line_rows(rows))}
    assert ("PERSON", "Hernandez, Joshua S.") in spans
    assert ("ID_NUMBER", "964 |46 | 5449") in spans
    assert ("ID_NUMBER", "814390360") in spans
    assert not any("47" == v for _, v in spans)


@pytest.mark.parametrize("state", ["WI", "| wi |"])
def test_address_written_across_the_cells_of_a_row(det, state):
    rows = [[(20, "HOME ADDRESS (Number and Street)"), (600, "CITY"), (900, "STATE"), (1050, "ZIP CODE")],
            [(20, "6783 Nolan Inlet"), (600, "New Dawnmouth"), (900, state), (1050, "39646")]]
    spans = {(s.type, s.text) for s in det.detect(one_line_rows(rows))}
    assert any(t == "ADDRESS" and v.startswith("6783 Nolan Inlet") and v.endswith("39646") for t, v in spans)


def test_address_row_across_border_reads_and_a_misread_state(det):
    """The row under "HOME ADDRESS | CITY | STATE | ZIP CODE" as a bad scan reads it: a
    speck before the city ("‘New"), the state misread ("ab") and the dotted border before
    the ZIP read as "!". The cells are still one address."""
    rows = [[(20, "HOME ADDRESS (Number and Street)"), (600, "CITY"), (900, "STATE"), (1050, "ZIP CODE")],
            [(20, "917 Sandy Unions"), (600, "‘New Erica"), (900, "ab"), (1040, "!"), (1050, "91145")]]
    spans = {(s.type, s.text) for s in det.detect(one_line_rows(rows))}
    assert any(t == "ADDRESS" and v.startswith("917 Sandy Unions") and v.endswith("91145") for t, v in spans)


def test_address_row_whose_city_caption_was_misread(det):
    """"CITY" read as "GITY": the city cell has no caption, but between the street's cell
    and the state's it is the address's city.
    Without a state cell after it, a word beside a street line is no city."""
    rows = [[(20, "HOME ADDRESS (Number and Street)"), (650, "GITY"), (900, "STATE"), (1050, "ZIP CODE")],
            [(20, "49721 Johnson Turnpike Apt. 253"), (650, "Juliemouth"), (900, "NH"), (1050, "63523")]]
    spans = {(s.type, s.text) for s in det.detect(one_line_rows(rows))}
    assert ("ADDRESS", "49721 Johnson Turnpike Apt. 253 Juliemouth NH 63523") in spans
    rows = [[(20, "HOME ADDRESS (Number and Street)"), (650, "GITY")],
            [(20, "49721 Johnson Turnpike Apt. 253"), (650, "Juliemouth")]]
    spans = {(s.type, s.text) for s in det.detect(one_line_rows(rows))}
    assert not any(t == "ADDRESS" and "Juliemouth" in v for t, v in spans)


def test_house_number_split_and_misread_by_ocr(det):
    """"57114" read "$71 14": the digit-like piece right before the number is its start;
    a word that does not read as digits, or one a wide gap away, is not."""
    assert ("ADDRESS", "$71 14 Davis Heights, Sheliuhaven, ND 56896") in \
        found(det, ["$71 14 Davis Heights, Sheliuhaven, ND 56896"])
    spans = found(det, ["Ref 14 Davis Heights, Sheliuhaven, ND 56896"])
    assert any(v.startswith("14 Davis") for t, v in spans if t == "ADDRESS")
    spans = found(det, ["371      14 Davis Heights, Sheliuhaven, ND 56896"])
    assert any(v.startswith("14 Davis") for t, v in spans if t == "ADDRESS")


def test_compound_labels_take_the_type_of_their_last_word(det):
    spans = found(det, ["Employer Address: 461 Gray Fort, Honolulu, HI 96813",
                        "Customer Account Number 55120-88"])
    assert any(t == "ADDRESS" and v.startswith("461 Gray Fort") for t, v in spans)
    assert ("ACCOUNT_NUMBER", "55120-88") in spans
    assert not any(t == "ORGANIZATION" for t, _ in spans)


def test_a_speck_between_label_and_column_does_not_hide_the_value():
    det = RulesDetector()
    words = (WordBox("GROUP", (300, 20, 352, 33), 96, 0, 0), WordBox("NO.", (358, 20, 382, 33), 96, 0, 0),
             WordBox("k", (500, 22, 501, 23), 0.0, 0, 0),
             WordBox("538609", (310, 45, 418, 72), 95, 1, 0))
    spans = {(s.type, s.text) for s in det.detect(_page(words))}
    assert ("ACCOUNT_NUMBER", "538609") in spans


def test_recipient_lists_and_electronic_signatures(det):
    spans = found(det, ["To: Samuel Pace; Lawrence Wilkinson", "Cc: Owens, Mary",
                        "By: /s/ Wesley Jenkins"])
    assert {("PERSON", "Samuel Pace"), ("PERSON", "Lawrence Wilkinson"), ("PERSON", "Owens, Mary"),
            ("PERSON", "Wesley Jenkins")} <= spans


def test_name_line_over_an_address_block(det):
    spans = found(det, ["Jeffrey F. Cook", "Multimedia Programmer", "Richardson, Kim and Rojas",
                        "P.O. Box 99387", "New Nancyview, IN 20010"])
    assert ("PERSON", "Jeffrey F. Cook") in spans
    assert ("ADDRESS", "P.O. Box 99387\nNew Nancyview, IN 20010") in spans
    assert not any(v in ("Multimedia Programmer",) for _, v in spans)


def test_name_before_a_phone_number_in_prose(det):
    spans = found(det, ["Please direct any questions to Carlos Brooks at 655.238.6612 x4876."])
    assert ("PERSON", "Carlos Brooks") in spans and ("PHONE", "655.238.6612 x4876") in spans


def test_ocr_split_zip_and_value_in_parentheses(det):
    assert ("ADDRESS", "944 Howell Heights, South Dorothy, MA 4361 1") in found(
        det, ["944 Howell Heights, South Dorothy, MA 4361 1"])
    assert ("ID_NUMBER", "E75518") in found(det, ["Can you confirm the employee ID (E75518) today?"])


@pytest.mark.parametrize("row", [
    "Item # 44120 Widget, blue",
    "SKU 909871 Paper, A4",
    "30 10 25.00 250.00",
    "Agency Commission (15%) 112.50",
])
def test_product_codes_and_table_numbers_are_not_identifiers(det, row):
    spans = found(det, [row])
    assert not any(t in ("CARD_NUMBER", "REFERENCE_NUMBER", "ORGANIZATION") for t, _ in spans), spans


# ---- robustness ---------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TOKENS = st.one_of(
    st.sampled_from(["Name:", "Acct", "#", "No.", "To:", "Bill", "To", "Dear", "Mr.", "Sincerely,",
                     "Street", "St", "IL", "62704", "555-123-4567", "(", ")", "|", "@", "Box", "PO",
                     "SSN", "Phone", "Fax:", "Date", "at", "/s/", "Amount", "$1.00", "-", ":", ",",
                     "John", "Smith", "Main", "12", "4111", "1111", "rn", "l0", "é", "‘"]),
    st.text(alphabet="AaBb01|:#.-,;/@ ", min_size=1, max_size=8))


@st.composite
def random_pages(draw):
    words = []
    for li in range(draw(st.integers(0, 6))):
        x = draw(st.integers(0, 50))
        for _ in range(draw(st.integers(1, 7))):
            tok = draw(_TOKENS).strip() or "x"
            w = 8 * len(tok) + 1
            words.append(WordBox(tok, (x, 20 + 25 * li, x + w, 38 + 25 * li), draw(st.floats(0, 100)),
                                 li, draw(st.integers(0, 2))))
            x += w + draw(st.integers(2, 120))
    return OcrPage(2000, 400, tuple(words), "test")


@settings(max_examples=150, deadline=None)
@given(random_pages())
def test_property_any_page_gives_exact_non_overlapping_spans(page):
    spans = RulesDetector().detect(page)
    for s in spans:
        assert 0 <= s.start < s.end <= len(page.text) and page.text[s.start:s.end] == s.text
        assert is_known(s.type)
    for a, b in zip(spans, spans[1:]):
        assert a.end <= b.start


def test_words_without_line_ids_are_put_into_rows_by_geometry(det):
    # an OCR backend that gives no line ids: every word in line 0, block 0
    page = page_from_rows([[(20, "Name"), (400, "Phone")], [(20, "Maria Lopez"), (400, "(217) 555-0143")]])
    flat = OcrPage(page.width, page.height,
                   tuple(WordBox(w.text, w.bbox, w.conf, 0, 0) for w in page.words), "test")
    spans = {(s.type, s.text) for s in det.detect(flat)}
    assert ("PERSON", "Maria Lopez") in spans and ("PHONE", "(217) 555-0143") in spans


# ---- issue 7 failure classes: whole address blocks, bounded names, label types, initials ------

def _spans(det, page):
    return [(s.type, s.text) for s in det.detect(page)]


def test_street_and_city_line_stacked_are_one_address_span(det):
    # plural USPS suffixes and a unit line between street and city
    for rows, want in [
        (["Ship To:", "Nadia Karimi", "118 Orchard Parkways", "Salem, OR 97301"],
         "118 Orchard Parkways\nSalem, OR 97301"),
        (["Delivery", None, "4417 Ferris Heights", "Suite 210", "Dayton, OH 45402"],
         "4417 Ferris Heights\nSuite 210\nDayton, OH 45402"),
        (["Remit payment", "2200 Lindell Viaduct", "St. Louis, MO 63103"],
         "2200 Lindell Viaduct\nSt. Louis, MO 63103"),
        (["Send forms to", "PO Box 5127", "Tulsa, OK 74152"], "PO Box 5127\nTulsa, OK 74152"),
    ]:
        addrs = [t for ty, t in _spans(det, page_from_rows(rows)) if ty == "ADDRESS"]
        assert addrs == [want], (rows, addrs)


def test_street_and_city_on_one_row_cut_into_two_ocr_lines_are_one_span(det):
    # a letterhead line "4410 Birch Plains, Dayton, OH 45402" that OCR split in two lines
    page = page_from_rows([[(20, "4410 Birch Plains,"), (240, "Dayton, OH 45402")]])
    addrs = [(t, s) for t, s in _spans(det, page) if t == "ADDRESS"]
    assert addrs == [("ADDRESS", "4410 Birch Plains,\nDayton, OH 45402")]
    # on one OCR line the comma-joined address is one span too
    one = page_from_rows(["Office: 30 Stone Viaduct, Apt. 7, Reno, NV 89501"])
    assert ("ADDRESS", "30 Stone Viaduct, Apt. 7, Reno, NV 89501") in _spans(det, one)


def test_a_name_ends_before_the_next_label(det):
    got = _spans(det, page_from_rows(["Attn: Dana Whitfield Tel. 555-201-7788"]))
    assert ("PERSON", "Dana Whitfield") in got and ("PHONE", "555-201-7788") in got
    got = _spans(det, page_from_rows(["Dear Mr. Ortega Fax: (312) 555-0190"]))
    assert ("PERSON", "Ortega") in got
    # a surname that is also a stop word stays part of the name when nothing follows
    assert ("PERSON", "Sarah Price") in _spans(det, page_from_rows(["Attn: Sarah Price"]))


def test_a_signature_name_is_one_line_without_the_job_title(det):
    page = page_from_rows(["Kind regards,", None, "Rosa Delgado", "Procurement Engineer,",
                           "Halvorsen Marine Supply"])
    persons = [t for ty, t in _spans(det, page) if ty == "PERSON"]
    assert persons == ["Rosa Delgado"]


def test_salutation_name_excludes_the_comma_and_survives_a_misread_greeting(det):
    assert [t for ty, t in _spans(det, page_from_rows(["Daar Priya Raman,", "Thank you for the order."]))
            if ty == "PERSON"] == ["Priya Raman"]
    # a date in the far column of the same OCR line is not part of the name
    page = one_line_rows([[(20, "Dear Ms. Okafor,"), (900, "MARCH 3, 2024")]])
    assert ("PERSON", "Okafor") in _spans(det, page)
    assert not any("MARCH" in t for ty, t in _spans(det, page) if ty == "PERSON")
    # a line that merely looks like a greeting needs the comma of a salutation
    assert not [t for ty, t in _spans(det, page_from_rows(["Dinner Menu Special"])) if ty == "PERSON"]


def test_names_in_two_columns_of_one_ocr_line_are_two_spans(det):
    # "Sold To" / "Ship To" columns: the same person twice, 40 px (2 text heights) apart
    page = one_line_rows([[(20, "Cardholder: Helen Park"), (300, "Kevin Ames")]])
    persons = [t for ty, t in _spans(det, page) if ty == "PERSON"]
    assert persons == ["Helen Park", "Kevin Ames"]


def test_initial_and_surname_under_a_header_and_after_attn(det):
    # "A." and "I." are initials here, not the article and the pronoun
    page = page_from_rows([[(20, "Salesperson"), (400, "Ship Via"), (700, "Terms")],
                           [(20, "A. Okoro"), (400, "UPS Ground"), (700, "Net 30")]])
    assert ("PERSON", "A. Okoro") in _spans(det, page)
    assert ("PERSON", "I. Whitaker") in _spans(det, page_from_rows(["Attn: I. Whitaker"]))


def test_account_and_reference_labels(det):
    for label, want in [("Customer No.", "ACCOUNT_NUMBER"), ("Account #", "ACCOUNT_NUMBER"),
                        ("Policy Number:", "ACCOUNT_NUMBER"), ("Invoice No.", "REFERENCE_NUMBER"),
                        ("PO #", "REFERENCE_NUMBER"), ("Estimate #", "REFERENCE_NUMBER"),
                        ("Case No.", "REFERENCE_NUMBER"), ("Member ID:", "ID_NUMBER")]:
        assert types_of(det, [f"{label} 58213094"], "58213094") == {want}, label


def _word(text, x, y, h, line):
    return WordBox(text, (x, y, x + 0.55 * h * len(text), y + h), 95.0, line, 0)


def test_key_value_panel_with_a_far_tab_stop_under_a_title():
    """A title in big type over a panel of labels whose values sit at a tab stop 13+ text
    heights to the right: each value belongs to its own row's label, not to the title."""
    h = 13
    words = [_word("STATEMENT", 700, 60, 30, 0)]
    rows = [("Invoice", "#", "K552018"), ("Cust.", "#", "40917725"), ("Order", "No.", "779310")]
    for i, (a, b, v) in enumerate(rows):
        y = 110 + 26 * i
        words += [_word(a, 704, y, h, i + 1), _word(b, 750, y, h, i + 1), _word(v, 940, y, h, i + 1)]
    page = OcrPage(1200, 400, tuple(words), "test")
    got = {t: ty for ty, t in _spans(RulesDetector(), page)}
    assert got == {"K552018": "REFERENCE_NUMBER", "40917725": "ACCOUNT_NUMBER",
                   "779310": "REFERENCE_NUMBER"}


def test_label_scores_sit_in_the_structural_band_and_patterns_below():
    from redactor_plugins.rules_detector import STRUCTURAL_SCORE as RULES_STRUCTURAL_SCORE
    det = RulesDetector()
    page = page_from_rows(["Phone: 555-201-7788", "call 555-201-7799 today"])
    by_text = {s.text: s.score for s in det.detect(page)}
    assert by_text["555-201-7788"] >= RULES_STRUCTURAL_SCORE > by_text["555-201-7799"]


def test_a_state_code_in_an_address_is_not_an_id_label(det):
    page = page_from_rows(["Mail to", "77 Quarry Junction", "Boise, ID 83702", None, "Member ID 4471902"])
    got = _spans(det, page)
    assert ("ADDRESS", "77 Quarry Junction\nBoise, ID 83702") in got
    assert ("ID_NUMBER", "4471902") in got and not any(t == "83702" for _, t in got)


def test_signature_with_a_middle_initial_and_a_capacity_line(det):
    page = page_from_rows(["Respectfully submitted,", "HARTWELL LLP", "Nora K. Lindqvist", "Its Counsel"])
    assert [t for ty, t in _spans(det, page) if ty == "PERSON"] == ["Nora K. Lindqvist"]


def test_a_label_word_before_a_name_in_prose_is_not_part_of_it(det):
    got = _spans(det, page_from_rows(["Questions? Contact Lena Marsh at 614.555.0182 or by mail."]))
    assert ("PERSON", "Lena Marsh") in got
    got = _spans(det, page_from_rows(["Questions? Call Jane Case at 614.555.0182 today."]))
    assert ("PERSON", "Jane Case") in got


def test_party_block_lines_above_the_street_are_not_the_address(det):
    page = page_from_rows(["Invoice To:", "Marta Quiroga", "Purchasing Manager", "Ostrander Tool Co.",
                           "2291 Kettle Creek Junction", "Lansing, MI 48906"])
    got = _spans(det, page)
    assert ("ADDRESS", "2291 Kettle Creek Junction\nLansing, MI 48906") in got
    assert ("PERSON", "Marta Quiroga") in got
    assert not any("Manager" in t for _, t in got)
    assert [t for ty, t in got if ty == "ORGANIZATION"] == ["Ostrander Tool Co."]   # with its abbreviation


def test_a_bare_repeat_of_a_labelled_identifier_takes_the_label_type(det):
    page = page_from_rows([[(20, "Northgate Fixtures"), (900, "Q771245")], None,
                           "Please quote invoice no. Q771245 with your payment."])
    assert [ty for ty, t in _spans(det, page) if t == "Q771245"] == ["REFERENCE_NUMBER"] * 2
    assert [s.score for s in det.detect(page) if s.text == "Q771245"] == [0.9, 0.9]


def test_a_memo_distribution_list_names_every_recipient(det):
    page = page_from_rows(["Distribution:", "R. Castellano", "M. Oyelaran", "Facilities Office"])
    persons = [t for ty, t in _spans(det, page) if ty == "PERSON"]
    assert persons == ["R. Castellano", "M. Oyelaran"]


def test_a_name_before_a_phone_number_in_upper_case(det):
    got = _spans(det, page_from_rows(["PLEASE CALL DORIS FENWICK AT (887) 555-0142 TODAY"]))
    assert ("PERSON", "DORIS FENWICK") in got


def test_a_bare_greeting_names_someone_named_in_the_header(det):
    rows = ["To: Whitcombe, Gareth", "Subject: Renewal", None, "Gareth,", "The renewal papers are attached."]
    got = _spans(det, page_from_rows(rows))
    assert ("PERSON", "Gareth") in got
    # a greeting word nobody on the page is called stays unflagged
    rows = ["To: Whitcombe, Gareth", None, "Team,", "Everyone,", "Regards,"]
    assert [t for ty, t in _spans(det, page_from_rows(rows)) if ty == "PERSON"] == ["Whitcombe, Gareth"]
    # OCR reads the capital I of "Ian" as an l, in the header and in the greeting alike
    rows = ["To: Davis, lan", "Subject: Schedule", None, "lan,", "The revised schedule is attached."]
    assert ("PERSON", "lan") in _spans(det, page_from_rows(rows))


def test_a_shaded_header_row_taller_than_its_values_is_no_title():
    """A table's header row whose word boxes came back as tall as a title (a shaded band,
    descenders) still heads its columns: the salesperson under it is a name, initial and
    a surname that is also a word ("M. May")."""
    words = []
    for x, text in [(150, "Salesperson"), (550, "Ship"), (600, "Via"), (1040, "Area"),
                    (1150, "Phone"), (1390, "Terms")]:
        words.append(WordBox(text, (x, 728, x + 11 * len(text), 758), 95.0, 0, 0))
    for x, text in [(152, "M."), (181, "May"), (554, "Best"), (601, "way"), (1043, "245"),
                    (1158, "453-9551"), (1389, "Net"), (1430, "30")]:
        words.append(WordBox(text, (x, 775, x + 11 * len(text), 792), 95.0, 1, 0))
    page = OcrPage(1700, 1000, tuple(words), "test")
    assert ("PERSON", "M. May") in _spans(RulesDetector(), page)
    # without the header row, a lone big word over the column stays a title
    title = [WordBox("SALESPERSON", (150, 700, 450, 758), 95.0, 0, 0)] + words[6:]
    assert not any(t == "M. May" for _, t in _spans(RulesDetector(), OcrPage(1700, 1000, tuple(title), "test")))


def test_a_damaged_copy_of_a_labelled_identifier_takes_its_type(det):
    """The invoice number read right in the remit line and damaged in the header (split,
    one word unsure) is one identifier; a confidently read neighbour number is another."""
    import dataclasses
    page = page_from_rows([[(20, "Harbor Supply Co."), (900, "INV-6 054")], None,
                           "Please quote invoice No. INV-60054 with your payment.",
                           "The balance carried from INV-60055 is zero."])
    words = [dataclasses.replace(w, conf=39.0) if w.text == "054" else w for w in page.words]
    damaged = OcrPage(page.width, page.height, tuple(words), page.engine)
    got = _spans(det, damaged)
    assert ("REFERENCE_NUMBER", "INV-60054") in got
    assert ("REFERENCE_NUMBER", "INV-6 054") in got
    # the confident neighbour is no copy (only the plain number-shape fallback speaks for it)
    assert {h.rule for h in det.hits(damaged) if damaged.text[h.start:h.end] == "INV-60055"} \
        == {"long_number"}
    # all its words read with confidence, a near number is not taken as a damaged copy
    assert not any(t == "INV-6 054" for _, t in _spans(det, page))


@pytest.mark.parametrize("zip_caption", ["ZIP CODE", "IP CODE"])
def test_a_header_row_with_border_reads_and_a_misread_caption(det, zip_caption):
    """A form's header row as OCR reads it: a cell border read as "i" or ")" before a
    caption, and "ZIP CODE" read as "IP CODE" (which holds the IP address's label). The
    captions still head their cells, and the address row under them is one address."""
    rows = [[(20, "HOME ADDRESS (Number and Street)"), (580, "i"), (600, "CITY"), (900, "STATE"),
             (1030, ")"), (1050, zip_caption)],
            [(20, "917 Sandy Unions"), (600, "New Erica"), (900, "IL"), (1050, "91145")]]
    page = one_line_rows(rows)
    # the borders run past the text: their boxes are taller than the captions'
    words = tuple(dataclasses.replace(w, bbox=(w.bbox[0], w.bbox[1] - 12, w.bbox[2], w.bbox[3] + 14))
                  if w.text in ("i", ")") else w for w in page.words)
    spans = {(s.type, s.text) for s in det.detect(OcrPage(page.width, page.height, words, "test"))}
    assert spans == {("ADDRESS", "917 Sandy Unions New Erica IL 91145")}


def test_a_middle_initial_read_as_a_bar(det):
    rows = [[(20, "NAME (Last, First, M.I.)"), (700, "DATE OF BIRTH")],
            [(20, "Robinson, Jillian |."), (700, "February 19, 1931")]]
    assert ("PERSON", "Robinson, Jillian |.") in _spans(det, one_line_rows(rows))
    # a bar after a name in running text is no initial when a sentence goes on in lower case
    assert ("PERSON", "Jillian Robinson") in _spans(det, page_from_rows(
        ["Dear Jillian Robinson |. please find enclosed"]))


def test_an_inverted_names_middle_initial_is_no_article(det):
    # a patient's or an employee's record writes the name last name first, in capitals
    rows = [[(20, "Patient: DOE, JOHN A"), (700, "DOB: 03/14/1975")]]
    assert ("PERSON", "DOE, JOHN A") in _spans(det, one_line_rows(rows))
    # ... and a sentence going on in lower case opens with the article
    assert ("PERSON", "Smith, John") in _spans(det, page_from_rows(["To: Smith, John A list follows"]))


@pytest.mark.parametrize("text, want", [
    ("Tel: +) 669 3285576", "+) 669 3285576"),      # a dotted "1" read as ")", groups run together
    ("Call +l 669 328 5576 now", "+l 669 328 5576"),
])
def test_a_country_code_one_misread_after_the_plus(det, text, want):
    assert ("PHONE", want) in _spans(det, page_from_rows([text]))


def test_a_delivery_line_whose_house_number_ocr_misread(det):
    """A dotted print read "5367" as "$367": the line over the city line is still the
    delivery line of the address."""
    got = _spans(det, page_from_rows(["Brown Ltd", "$367 Antieny Brives Apt. 328", "Haylafurt, OR 71068"]))
    assert ("ADDRESS", "$367 Antieny Brives Apt. 328\nHaylafurt, OR 71068") in got


def test_phone_numbers_with_an_8_read_as_b_or_the_last_group_split(det):
    got = _spans(det, page_from_rows(["Toll free (877) BO8-4388 any time",
                                      "Questions to (673)542-28 15, regarding this invoice"]))
    assert ("PHONE", "(877) BO8-4388") in got and ("PHONE", "(673)542-28 15") in got
    # a code with a B among digits is no phone without a phone's shape
    assert not any(t == "PHONE" for t, _ in _spans(det, page_from_rows(["Lot 138-B74 shipped"])))


def test_phone_with_a_misread_closing_bracket_or_first_area_digit(det):
    got = _spans(det, page_from_rows(["Call (877} 535-5227 now", "Fax (002) 462-3214 x 2589 only"]))
    assert ("PHONE", "(877} 535-5227") in got and ("PHONE", "(002) 462-3214 x 2589") in got
    # bare groups still need valid area and exchange codes
    assert not any(t == "PHONE" for t, _ in _spans(det, page_from_rows(["Lot 102-462-3214 ok"])))


def test_a_local_number_whose_area_code_lost_its_opening_bracket(det):
    assert ("PHONE", "935) 284-9235") in _spans(det, page_from_rows(["Dial 935) 284-9235 for the front desk"]))


def test_unsure_dirt_in_the_next_cell_does_not_hide_the_value_under_a_caption(det):
    """frm-0282's boxes: a smudge in the next cell, 19 text heights right of "GROUP NO.",
    read "fo}" (confidence 26); the group number sits under the caption. A near unsure word
    is still the label's own value, read badly (a signature's scrawl)."""
    far = [WordBox("GROUP", (400, 725, 450, 737), 76.0, 0, 0),
           WordBox("NO.", (456, 726, 479, 737), 96.0, 0, 0),
           WordBox("fo}", (699, 722, 717, 749), 26.0, 0, 0),
           WordBox("614486", (406, 744, 494, 770), 92.0, 1, 0)]
    page = OcrPage(1700, 900, tuple(far), "test")
    assert ("ACCOUNT_NUMBER", "614486") in _spans(det, page)
    near = list(far)
    near[2] = WordBox("fo}", (520, 722, 538, 749), 26.0, 0, 0)
    page = OcrPage(1700, 900, tuple(near), "test")
    assert ("ACCOUNT_NUMBER", "614486") not in _spans(det, page)


def test_dirt_right_of_a_caption_is_no_value_and_the_value_under_it_is_found(det):
    """Right of a form's captions OCR read dirt (boxes as Tesseract gave them on a dotted
    scan): a dotted rule as small unsure words ("te *seete? Mes"), a speck as '7")'. The
    values sit under the captions."""
    words = [WordBox("NAME", (161, 382, 215, 420), 59.0, 0, 0),
             WordBox("(taxi", (221, 388, 265, 418), 41.0, 0, 0),
             WordBox("Fost", (273, 392, 309, 415), 40.0, 0, 0),
             WordBox("Mi)", (333, 383, 533, 414), 54.0, 0, 0),
             WordBox("te", (678, 380, 685, 386), 24.0, 0, 0),
             WordBox("*seete?", (691, 380, 710, 388), 0.0, 0, 0),
             WordBox("Mes", (712, 379, 717, 388), 21.0, 0, 0),
             WordBox("tot", (718, 379, 726, 388), 15.0, 0, 0),
             WordBox("GROUP", (900, 380, 960, 410), 90.0, 0, 0),
             WordBox("NO.", (966, 380, 995, 410), 93.0, 0, 0),
             WordBox('7")', (1120, 384, 1124, 391), 4.0, 0, 0),
             WordBox("Perez,", (176, 431, 243, 454), 93.0, 1, 0),
             WordBox("Justin", (253, 430, 318, 452), 92.0, 1, 0),
             WordBox("S.", (328, 430, 349, 450), 80.0, 1, 0),
             WordBox("6", (906, 431, 918, 455), 84.0, 1, 0),
             WordBox("12574", (927, 431, 994, 455), 84.0, 1, 0)]
    page = OcrPage(1700, 800, tuple(words), "test")
    got = _spans(det, page)
    assert ("label_person", "Perez, Justin S.") in {(h.rule, page.text[h.start:h.end]) for h in det.hits(page)}
    assert ("ACCOUNT_NUMBER", "6 12574") in got
    assert not any(t in ("te", "7") for _, t in got)


def _form_row(caption_right, value_words):
    """A form's caption row ("EMPLOYER ADDRESS ... WORK LOCATION"), captions printed small
    (14 px), and under it the filled-in values printed twice as large (frm-0485's boxes)."""
    words = [WordBox("EMPLOYER", (198, 780, 278, 794), 95.0, 0, 0),
             WordBox("ADDRESS", (282, 780, 353, 794), 95.0, 0, 0)]
    words += [WordBox(t, (x, 780, x + 11 * len(t), 794), 96.0, 0, 0)
              for x, t in caption_right]
    x = 207
    for t, gap in value_words:
        x += gap
        words.append(WordBox(t, (x, 800, x + 17 * len(t), 830), 90.0, 1, 0))
        x += 17 * len(t)
    return OcrPage(1700, 900, tuple(words), "test")


def test_a_caption_the_lexicon_lacks_closes_the_column_of_a_large_value(det):
    """The value under "EMPLOYER ADDRESS" runs past 30 caption heights; the next caption
    on the row ("WORK LOCATION", not a label here) ends its column, not that width."""
    value = [("887", 0), ("Jean", 12), ("Cliffs,", 12), ("Fitzpatrickview,", 12), ("FL", 12),
             ("75629", 14), ("West", 240), ("Virginia", 12)]
    page = _form_row([(1120, "WORK"), (1171, "LOCATION")], value)
    assert page.words[-2].bbox[0] > 1120 > page.words[-3].bbox[2] > 353 + 30 * 14
    labelled = {page.text[h.start:h.end] for h in det.hits(page) if h.rule == "label_address"}
    assert labelled == {"887 Jean Cliffs, Fitzpatrickview, FL 75629"}
    got = _spans(det, page)
    assert ("ADDRESS", "887 Jean Cliffs, Fitzpatrickview, FL 75629") in got
    assert not any("Virginia" in t for ty, t in got if ty == "ADDRESS")


def test_an_address_ending_in_a_misread_zip_takes_no_place_after_it(det):
    """"FL (5629": the ZIP misread, still the end of the address; the place in the next
    cell of the row is the next field's."""
    value = [("887", 0), ("Jean", 12), ("Cliffs,", 12), ("Fitzpatrickview,", 12), ("FL", 12),
             ("(5629", 14), ("West", 240), ("Virginia", 12)]
    got = _spans(det, _form_row([(1120, "WORK"), (1171, "LOCATION")], value))
    assert ("ADDRESS", "887 Jean Cliffs, Fitzpatrickview, FL (5629") in got


def test_a_state_code_that_is_also_a_label_stays_in_the_address(det):
    """"Oconnellstad, ID 8795" (the ZIP's last digit unread) under an address caption:
    Idaho, not an ID number."""
    value = [("24160", 0), ("Tara", 12), ("River", 12), ("Apt.", 12), ("045,", 12),
             ("Oconnellstad,", 12), ("ID", 12), ("8795", 14)]
    got = _spans(det, _form_row([(1699, "WORK"), (1794, "LOCATION")], value))
    assert ("ADDRESS", "24160 Tara River Apt. 045, Oconnellstad, ID 8795") in got
    assert not any(ty == "ID_NUMBER" for ty, _ in got)


def test_a_unit_whose_stop_ocr_read_as_a_comma(det):
    got = found(det, ["Cox, Ortiz and Brown", "4364 James Club Apt, 492", "Lukeport, KY 11286"])
    assert any(ty == "ADDRESS" and "Apt, 492" in t for ty, t in got)


def _table_header(header, values, value_conf=None):
    """A table's header row and its value row, each cell given as (x, text) in 20 px text;
    ``value_conf`` maps a value word to the confidence OCR read it with."""
    value_conf = value_conf or {}
    words = [WordBox(t, (x, 740, x + 15 * len(t), 764), 96.0, 0, 0) for x, t in header]
    words += [WordBox(t, (x, 794, x + 15 * len(t), 818), value_conf.get(t, 95.0), 1, 0)
              for x, t in values]
    return OcrPage(1700, 900, tuple(words), "test")


def test_a_header_cell_read_with_a_quote_before_it_is_no_value_of_the_cell_before(det):
    """"Salesperson | “Ship Via": the quote OCR put before the next header cell does not
    make it the salesperson's name; the name is the cell under the header."""
    page = _table_header([(168, "Salesperson"), (500, "“Ship"), (590, "Via"), (830, "F.O.B.")],
                         [(170, "M."), (224, "Carpenter"), (510, "Truck"), (840, "Origin")])
    got = _spans(det, page)
    assert ("PERSON", "M. Carpenter") in got
    assert not any("Via" in t for _, t in got)


def test_an_initial_read_as_a_weak_label_under_a_column_header_is_the_name(det):
    """"C. Barnes" read "Cc. Barnes", the "Cc." unsure: an initial OCR doubled, not the
    "cc" label ending the salesperson's value before it starts."""
    header = [(277, "SALESPERSON"), (650, "SHIP"), (740, "VIA")]
    values = [(277, "Cc."), (344, "Barnes"), (650, "Best"), (730, "way")]
    got = _spans(det, _table_header(header, values, {"Cc.": 46.0}))
    assert ("PERSON", "Cc. Barnes") in got


def test_a_handwritten_name_ocr_cut_in_two_is_one_name(det):
    """"Jeremy Da niel" after "For" on a message slip: the lower-case piece is the rest of
    "Daniel"; an e-mail handle in brackets after a name is not."""
    words = (WordBox("For", (284, 1359, 323, 1380), 96.0, 0, 0),
             WordBox("Jeremy", (428, 1353, 553, 1384), 95.0, 0, 0),
             WordBox("Da", (564, 1351, 604, 1373), 96.0, 0, 0),
             WordBox("niel", (613, 1344, 669, 1372), 92.0, 0, 0))
    assert ("PERSON", "Jeremy Da niel") in _spans(det, OcrPage(1700, 1600, words, "test"))
    got = found(det, ["From: Paul Coleman [paulc@wong.com]"])
    assert ("PERSON", "Paul Coleman") in got
    assert not any(t.startswith("Paul Coleman [") for _, t in got)


def test_in_a_list_of_names_the_word_before_the_semicolon_is_the_surname(det):
    """"To: Matthew ALL; Jennifer Simmons" ("Ali" misread as a common word)."""
    got = found(det, ["To: Matthew ALL; Jennifer Simmons"])
    assert ("PERSON", "Matthew ALL") in got
    assert ("PERSON", "Jennifer Simmons") in got


def test_digits_in_comb_boxes_read_with_the_box_walls_are_one_number(det):
    """"499 | 58 | 1847" written into a form's boxes, read "499|58_—‘|" and "1847": the walls
    are no end of the number."""
    header = [(198, "SOCIAL"), (300, "SECURITY"), (430, "NO."), (621, "SEX")]
    values = [(206, "499|58_—‘|"), (425, "1847"), (631, "F")]
    got = _spans(det, _table_header(header, values, {"499|58_—‘|": 0.0}))
    assert ("ID_NUMBER", "499|58_—‘| 1847") in got


def test_a_number_nobody_claimed_beside_claimed_cells_of_its_row_is_still_found(det):
    """A form row read as one line, "395-7769-292  432684  12/12/1984", whose first caption
    OCR did not read: the group number under its caption and the date are claimed, the
    number left between them is still an identifier."""
    page = one_line_rows([[(600, "GROUP NO."), (1200, "EFFECTIVE DATE")],
                          [(200, "395-7769-292"), (600, "432684"), (1200, "12/12/1984")]])
    got = _spans(det, page)
    assert ("ACCOUNT_NUMBER", "432684") in got
    assert any(t == "395-7769-292" for _, t in got)


def test_an_item_number_beside_a_date_in_an_item_column_stays_unflagged(det):
    """An invoice's rows "06/04/2005  733-043  Printing plates" under "Date  Item No.
    Description": the item column's numbers are product codes, not records."""
    rows = [[(200, "Date"), (440, "Item No."), (650, "Description")]]
    rows += [[(200, d), (440, n), (650, t)] for d, n, t in
             [("05/28/2005", "#1648", "Labels"), ("06/04/2005", "733-043", "Printing plates")]]
    got = _spans(det, one_line_rows(rows))
    assert not any("733" in t for _, t in got)


def test_accented_letters_read_as_their_plain_letters_with_offsets_kept(det):
    # a typed "Wójcik" is a capitalised name word as "Wojcik" is; the span is the text as read
    assert ("PERSON", "Krzysztof Wójcik") in found(det, ["Owner: Krzysztof Wójcik"])
    page = page_from_rows(["Owner: Krzysztof Wójcik", "Ciudad: Bogotá, Colombia"])
    for s in det.detect(page):
        assert page.text[s.start:s.end] == s.text
    assert ("LOCATION", "Bogotá") in {(s.type, s.text) for s in det.detect(page)}


def test_an_honorific_announces_no_name_in_the_next_cell(det):
    # a signature block's form row of two cells read as one OCR line: "Officer" ends a job
    # title, the next cell's caption "Title:" is no name
    page = one_line_rows([[(20, "Title: Chief Executive Officer"), (560, "Title: Managing Director")]])
    assert not [t for ty, t in _spans(det, page) if ty == "PERSON"]
    # in its cell a title still announces the name after it
    page = one_line_rows([[(20, "Report filed by Officer Dana Whitlock")]])
    assert ("PERSON", "Dana Whitlock") in _spans(det, page)


def test_a_receipt_header_gives_its_registration_number_and_whole_address(det):
    # a Malaysian receipt's header: the company's registration number in brackets on the
    # line under its name, the estate before the postcode and town, the state's full name
    page = page_from_rows(["KEDAI RUNCIT MAJU JAYA SDN BHD", "(654321-K)", "LOT 12, JALAN BUNGA RAYA 3,",
                           "TAMAN SRI MUDA, 40400 SHAH ALAM,", "SELANGOR DARUL EHSAN.", "TEL: 03-5511 2233"])
    spans = _spans(det, page)
    assert ("BUSINESS_ID", "654321-K") in spans
    assert [t for ty, t in spans if ty == "ADDRESS"] == \
        ["LOT 12, JALAN BUNGA RAYA 3,\nTAMAN SRI MUDA, 40400 SHAH ALAM,\nSELANGOR DARUL EHSAN."]


@pytest.mark.parametrize("rows, want", [
    # an Indian block: the town before its state and PIN, the country's line
    (["Plot No. 14, Sector 44", "Gurugram, Haryana 122003", "India"],
     "Plot No. 14, Sector 44\nGurugram, Haryana 122003\nIndia"),
    # a French one written on two lines, the country after the town
    (["12 rue de la Paix", "75002 Paris, France"], "12 rue de la Paix\n75002 Paris, France"),
])
def test_international_blocks_are_one_address(det, rows, want):
    assert [t for ty, t in _spans(det, page_from_rows(rows)) if ty == "ADDRESS"] == [want]


@pytest.mark.parametrize("rows, want", [
    # a Singaporean block: the housing block, the town's numbered avenue, the unit
    (["Blk 123 Ang Mo Kio Avenue 6 #01-4567", "Singapore 560123"],
     "Blk 123 Ang Mo Kio Avenue 6 #01-4567\nSingapore 560123"),
    # a Malaysian one on one line, its street's section number with a slash
    (["No. 22, Jalan SS 2/55, 47300 Petaling Jaya", "Selangor, Malaysia"],
     "No. 22, Jalan SS 2/55, 47300 Petaling Jaya\nSelangor, Malaysia"),
    # a US street named "Avenue of ...": its floor stays, no postcode read in "1285 Avenue"
    (["1285 Avenue of the Americas, 4th Floor", "New York, NY 10019"],
     "1285 Avenue of the Americas, 4th Floor\nNew York, NY 10019"),
])
def test_asian_blocks_are_one_address(det, rows, want):
    spans = _spans(det, page_from_rows(rows))
    assert [t for ty, t in spans if ty == "ADDRESS"] == [want]
    assert not [t for ty, t in spans if ty in ("ID_NUMBER", "REFERENCE_NUMBER")]   # "SS", "No." are no labels here


def test_receipt_company_identifiers(det):
    page = page_from_rows(["TAN BROTHERS (M) SDN. BHD.", "Co. No. 123456-A", "SST ID: W10-1808-32000123",
                           "Receipt No: R-00381922       14 Mar 2019 18:22"])
    spans = _spans(det, page)
    assert ("ORGANIZATION", "TAN BROTHERS (M) SDN. BHD.") in spans
    assert ("BUSINESS_ID", "123456-A") in spans and ("BUSINESS_ID", "W10-1808-32000123") in spans
    # the "00" of a receipt number glued to its letter is no international dialling prefix
    assert not [t for ty, t in spans if ty == "PHONE"]
    assert ("DATE", "14 Mar 2019 18:22") in spans


def test_a_firm_of_partners_is_one_organisation(det):
    page = page_from_rows(["Messrs Tan & Co", "Lee & Associates", "Wong and Partners", "Sales and Marketing"])
    orgs = [t for ty, t in _spans(det, page) if ty == "ORGANIZATION"]
    # "Messrs", a firm's title, is no short name of it to repeat
    assert orgs == ["Messrs Tan & Co", "Lee & Associates", "Wong and Partners"]


def test_malaysian_shop_names_and_registrations(det):
    page = page_from_rows(["MEGA MART S/B", "SYARIKAT PERNIAGAAN HONG SENG", "PERNIAGAAN WAWASAN (JM0123456-X)",
                           "Syarikat ini menjual barang runcit."])
    spans = _spans(det, page)
    assert [t for ty, t in spans if ty == "ORGANIZATION"] == \
        ["MEGA MART S/B", "SYARIKAT PERNIAGAAN HONG SENG", "PERNIAGAAN WAWASAN"]
    # a sole proprietor's business registration in brackets after the name
    assert ("BUSINESS_ID", "JM0123456-X") in spans


def test_a_centred_receipt_header_is_read_as_its_printer_centres_it(det):
    # each line centred by its own length: the address's lines start apart, the shorter
    # within the longer; the district after the street is the block's too
    page = page_from_rows([[(130, "99 SPEEDY MART SDN BHD")], [(160, "(519537-X)")],
                           [(50, "LOT 2, JALAN PJU 1A/20B, ARA DAMANSARA,")],
                           [(90, "47301 PETALING JAYA, SELANGOR.")]])
    spans = _spans(det, page)
    assert ("ORGANIZATION", "99 SPEEDY MART SDN BHD") in spans
    assert [t for ty, t in spans if ty == "ADDRESS"] == \
        ["LOT 2, JALAN PJU 1A/20B, ARA DAMANSARA,\n47301 PETALING JAYA, SELANGOR"]


NDA_PARAGRAPH = [
    "THIS AGREEMENT is made this 3rd day of March, 2011, by and between",
    "Northstar Biologics Corporation, having its principal offices at 400",
    "Technology Square, Cambridge, Massachusetts 02139, and Peregrine",
    "Therapeutics Limited, a company incorporated in England and Wales.",
]


def test_values_running_text_wraps_over_a_line_end_are_whole(det):
    spans = _spans(det, page_from_rows(NDA_PARAGRAPH))
    assert ("ORGANIZATION", "Peregrine\nTherapeutics Limited") in spans
    assert ("ADDRESS", "400\nTechnology Square, Cambridge, Massachusetts 02139") in spans
    # without the family the halves are all there is
    cut = RulesDetector(disable=["wrapped"])
    assert ("ORGANIZATION", "Peregrine\nTherapeutics Limited") not in _spans(cut, page_from_rows(NDA_PARAGRAPH))


def test_rows_of_a_table_or_a_form_are_no_paragraph(det):
    # an invoice's rows of figures, and a row of two columns (Bill To | Ship To)
    table = ["11 Consulting hours for March review 40.00 520.00 1,200.00 13,200.00",
             "12 Consulting hours for April review 120.00 120.00 900.00 11,700.00"]
    assert not [t for ty, t in _spans(det, page_from_rows(table)) if ty == "PHONE"]
    rows = [[(20, "Mrs. Michelle Silva"), (560, "Michelle Silva")],
            [(20, "Lopez Broadcasting"), (560, "Lopez Broadcasting")]]
    assert not [t for ty, t in _spans(det, one_line_rows(rows)) if "\n" in t]


def test_an_ordinal_floor_and_a_canadian_business_number(det):
    spans = _spans(det, page_from_rows(["1 Liberty Plaza, 35th Floor", "New York, New York 10006"]))
    assert [t for ty, t in spans if ty == "ADDRESS"] == ["1 Liberty Plaza, 35th Floor\nNew York, New York 10006"]
    assert ("BUSINESS_ID", "123456789RT0001") in _spans(det, page_from_rows(["Business No. 123456789RT0001"]))
    # "Business:" names a company, no number
    assert ("ORGANIZATION", "Acme Widgets Inc") in _spans(det, page_from_rows(["Business: Acme Widgets Inc"]))


def test_an_indian_business_letter(det):
    rows = ["To,", "Shri Rajesh Kumar Sharma", "Bharat Exports Limited", "C-14, Sector 62, Noida - 201301",
            "Uttar Pradesh", None,
            "Kindly remit the amount of Rs. 1,45,000 to our account no.",
            "50100234567891 with HDFC Bank, IFSC HDFC0000123, within seven days of this letter.",
            None, "Yours faithfully,", "For Krishna Textiles Pvt. Ltd.", None, "(Smt. Lakshmi Venkataraman)"]
    spans = _spans(det, page_from_rows(rows))
    people = [t for ty, t in spans if ty == "PERSON"]
    assert "Rajesh Kumar Sharma" in people and "Lakshmi Venkataraman" in people   # titles left out
    assert ("ADDRESS", "C-14, Sector 62, Noida - 201301\nUttar Pradesh") in spans
    # "account no." at a paragraph line's end: its value opens the next line, not the cell under it
    assert ("ACCOUNT_NUMBER", "50100234567891") in spans
    assert ("BUSINESS_ID", "HDFC0000123") in spans      # a bank branch's code
    assert ("ORGANIZATION", "Krishna Textiles Pvt. Ltd.") in spans   # signed "For" the company


def test_a_british_unit_opens_its_block(det):
    # an industrial estate's unit: the only number of the delivery line is the unit's
    rows = ["Unit 7, Orwell Business Park", "Ipswich IP3 9QR"]
    assert [t for ty, t in _spans(det, page_from_rows(rows)) if ty == "ADDRESS"] == \
        ["Unit 7, Orwell Business Park\nIpswich IP3 9QR"]


def test_a_table_rows_cells_are_no_long_number(det):
    """A survey table's row (an unseen FUNSD newspaper-scores form): a score, its base, a
    second score and base, typed in cells far apart, is no seven-digit identifier."""
    cells = [("SEX:", 47, 561, 81, 573, 94, 20), ("Male", 48, 575, 84, 585, 94, 21),
             ("1.9", 210, 573, 234, 583, 95, 21), ("104", 270, 573, 293, 583, 61, 21),
             ("7", 370, 572, 377, 582, 72, 21), ("101", 420, 571, 444, 581, 95, 21)]
    page = OcrPage(762, 1000, tuple(WordBox(t, (x0, y0, x1, y1), c, line, 0)
                                    for t, x0, y0, x1, y1, c, line in cells), "test")
    assert not [t for t in _spans(det, page) if t[0] == "REFERENCE_NUMBER"]


def test_a_number_typed_in_spaced_groups_stays_one_identifier(det):
    got = _spans(det, page_from_rows(["Ref 4471 8823 9910 enclosed", [(20, "Code"), (300, "AT-P 317 230")]]))
    assert ("REFERENCE_NUMBER", "4471 8823 9910") in got, got


def test_the_company_atop_an_address_caption_is_the_organisation(det):
    """Unseen FUNSD fax (training split): the addressee's company lines under "ADDRESS:"
    are organisations; the postal lines stay the address."""
    rows = [[(20, "ADDRESS:"), (200, "Philip Morris Europe")],
            [(200, "Fabriques de Tabac Réunies S.A.")],
            [(200, "CH-2003 Neuchatel")]]
    spans = found(det, rows)
    assert ("ORGANIZATION", "Fabriques de Tabac Réunies S.A.") in spans
    assert ("ORGANIZATION", "Philip Morris Europe") in spans
    assert not [t for ty, t in spans if ty == "ADDRESS" and ("Philip" in t or "Fabriques" in t)]
    assert any(ty == "ADDRESS" and "Neuchatel" in t for ty, t in spans)


def test_an_address_without_a_company_line_stays_whole(det):
    rows = [[(20, "Address:"), (200, "Flat 4, Rose Court")],
            [(200, "14 King Street")],
            [(200, "Leeds LS1 2HL")]]
    spans = found(det, rows)
    assert not [t for ty, t in spans if ty == "ORGANIZATION"]
    assert any(ty == "ADDRESS" and "Rose Court" in t and "King Street" in t for ty, t in spans)
