"""People, dates and places as real business papers write them (issue 31): initials and a
surname in distribution lists and form fields, sorted names, census names in a form's
cell; time stamps, typewritten and stamped dates, the jurat's formula, date ranges and
fiscal years; a town in capitals and a legislator's home state."""
from __future__ import annotations

import pytest
from rules_pages import page_from_rows

from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def found(rules, rows) -> set[tuple[str, str]]:
    return {(s.type, s.text) for s in rules.detect(page_from_rows(rows))}


def test_each_person_of_a_distribution_row_is_one_span(rules):
    spans = found(rules, ["A. H. Tisch F. J. Schultz J. J. Tatulli K. P. Augustyn"])
    assert spans == {("PERSON", "A. H. Tisch"), ("PERSON", "F. J. Schultz"),
                     ("PERSON", "J. J. Tatulli"), ("PERSON", "K. P. Augustyn")}


def test_a_comma_separated_list_of_initialled_names_gives_each_its_box(rules):
    spans = found(rules, ["cc: K. AUGUSTYN, L. GIORDANO, M. McGLYNN"])
    assert {("PERSON", "K. AUGUSTYN"), ("PERSON", "L. GIORDANO"), ("PERSON", "M. McGLYNN")} <= spans
    assert not any("," in text for t, text in spans if t == "PERSON")


@pytest.mark.parametrize("row, name", [
    ("Supervisor/Manager: J. S$. Wigand", "J. S$. Wigand"),     # the S of an initial misread
    ("FROM: S.P. McBride", "S.P. McBride"),
    ("INITIATED BY: P. H. HARPER", "P. H. HARPER"),
    ("Ms. R. deLacy No.436", "R. deLacy"),
    ("Signed: Raymond S. Calamaro", "Raymond S. Calamaro"),      # the given name before initials
    ("Archibald N. Stewart, President", "Archibald N. Stewart"),
    ("Approved R. S. Sprinkle, III", "R. S. Sprinkle, III"),     # a generational suffix
    ("C. L. Tucker, Jr.", "C. L. Tucker, Jr."),
    ("Ref. Litchfield, J. T. and others", "Litchfield, J. T."),  # sorted: surname, initials
    ("Dr. William 0. Iverson, Director", "William 0. Iverson"),  # the initial O read as a zero
    ("PROJECT LEADER J. €. Mann", "J. €. Mann"),                 # E read as the euro sign
])
def test_initials_and_surname_are_a_person(rules, row, name):
    assert ("PERSON", name) in found(rules, [row])


@pytest.mark.parametrize("row", ["A. Introduction of the study", "B. Results", "U.S. Army",
                                 "A. Field work was done", "F.P.M. Delivery Roller"])
def test_list_items_and_initialisms_are_no_person(rules, row):
    assert not [s for s in found(rules, [row]) if s[0] == "PERSON"]


def test_a_firm_named_after_its_founder_is_no_person(rules):
    assert not [s for s in found(rules, ["P. LORILLARD CO."]) if s[0] == "PERSON"]


@pytest.mark.parametrize("row", ["New York, N.Y. 10103 is our office", "1747 Pennsylvania Ave., N.W."])
def test_a_town_and_its_state_is_no_sorted_name(rules, row):
    assert not [s for s in found(rules, [row]) if s[0] == "PERSON"]


def test_a_census_name_in_a_cell_of_a_contact_row_is_a_person(rules):
    spans = found(rules, [[(20, "Gregory Little"), (400, "Office Supply"), (800, "917-663-5979")]])
    assert ("PERSON", "Gregory Little") in spans


def test_a_cell_listing_names_is_not_one_person(rules):
    spans = found(rules, [[(20, "Jose Price; Owens, Mary"), (600, "Priority")]])
    assert ("PERSON", "Jose Price; Owens, Mary") not in spans


@pytest.mark.parametrize("row, date", [
    ("Received by NSD/FARA Registration Unit 02/24/2014 2:22:11 PM", "02/24/2014 2:22:11 PM"),
    ("Received by NSD/FARA Registration Unit 07/24/2017 11:40:19 AM", "07/24/2017 11:40:19 AM"),
    # a fill-in line on both sides of a date, read as one word with it (an unseen FUNSD form)
    ("Final Report Due __7/9/90__", "7/9/90"),
    # a speck of the stamp read between its date and its time (an unseen FARA page)
    ("Received by NSD/FARA Registration Unit 01/23/2013 _ 4:17:38 PM", "01/23/2013 _ 4:17:38 PM"),
    # ... and the same stamp as OCR damages its scanned copy (unseen FARA pages): specks
    # around the time's separators, a misread figure in the month
    ("Received by NSD/FARA Registration Unit. 11/29/2012. 9: 43. 59 AM", "11/29/2012. 9: 43. 59 AM"),
    ("Received by NSD/FARA Registration Unit 05/25/2018 1:14: 17 PM", "05/25/2018 1:14: 17 PM"),
    ("Received by NSD/FARA Registration, Unit 99/12/2011 7:47:47 PM", "99/12/2011 7:47:47 PM"),
    ("REQFORM 09—Apr—96", "09—Apr—96"),
    ("ADDENDUM I MAY 2 6 1981", "MAY 2 6 1981"),
    ("MAR 0 8 RECD", "MAR 0 8"),
    ("NICOTINE: 0.8 mg (Jan. '85 Report)", "Jan. '85"),
    ("Sworn to and subscribed before me this 4th day of March, 1988", "4th day of March, 1988"),
    ("this 25th day of __November ,19_86", "25th day of __November ,19_86"),
    ("interviews conducted on March 2 - June 8, 1983 .", "March 2 - June 8, 1983"),
    # two days of one month: a dissemination report's mailing dates (an unseen FARA page)
    ("U.S. Mail Jan. 15 & 31, 1992 790", "Jan. 15 & 31, 1992"),
    ("Mailed March 2 and 9, 1985 to all members", "March 2 and 9, 1985"),
    ("U.S. Mail January/February 1986", "January/February 1986"),
    ("Economic Development Board Annual Report 1984/1985", "1984/1985"),
    ("Bids not later than 1 November", "1 November"),
    ("Podesta Group 11/5/10", "11/5/10"),
    ("6. Date and Hour of Service: January 27, 1969 9:00 a.m.", "January 27, 1969 9:00 a.m."),
    ("MAR 24 1999 16:16 425 481 3146 PAGE", "MAR 24 1999 16:16"),
    # a fax header's date in hyphens with its time, and OCR's hyphen for the space after a
    # month (an unseen FARA filing's "January 1, 2016 to August-31, 2017")
    ("MAR-24-1999 14:39 P.01", "MAR-24-1999 14:39"),
    ("for the period January 1, 2016 to August-31, 2017", "August-31, 2017"),
    ("Sent: Wednesday, April 30, 2014 9:56 AM", "Wednesday, April 30, 2014 9:56 AM"),
    ("FROM: S.P. McBride [_x_] FeB23", "FeB23"),               # month and day run together
    ("Date of birth: June 19, 192]", "June 19, 192]"),         # the year's 1 read as a bracket
    ("during the month of January , 1988 as follows:", "January , 1988"),   # typewriter's comma
    ("during the month of January , 19.88 as follows:", "January , 19.88"),  # a speck's stop
    # a weekday makes figures a date, with or without a year, and is part of it
    ("Meeting on Thursday, 3/14 at the office", "Thursday, 3/14"),
    ("Shipped Fri. 27/9 by courier", "Fri. 27/9"),
    ("Sent: Wed 9/12/2001", "Wed 9/12/2001"),
])
def test_dates_as_documents_write_them(rules, row, date):
    spans = found(rules, [row])
    assert ("DATE", date) in spans, spans


def test_a_time_stamp_is_no_phone_number(rules):
    spans = found(rules, ["Unit 07/24/2017 11:40:19 AM"])
    assert not [s for s in spans if s[0] in ("PHONE", "REFERENCE_NUMBER", "ACCOUNT_NUMBER")]


@pytest.mark.parametrize("row", ["we may 2 6 go", "ran from 1980-1985 ok",
                                 "sat 3/4 of the sample", "Sun 13/13 score"])
def test_no_date_without_a_date_form(rules, row):
    assert not [s for s in found(rules, [row]) if s[0] == "DATE"]


@pytest.mark.parametrize("row, place", [
    ("REPORTED BY: D.M., LUBBOCK, TX", "LUBBOCK, TX"),
    ("9/29/10 $500 Friends of Barbara Boxer U.S. Sen. Barbara Boxer (CA)", "CA"),
    ("Richard Blumenthal (CT)", "CT"),
    ("County of Floyd )", "Floyd"),
])
def test_places_as_documents_write_them(rules, row, place):
    assert ("LOCATION", place) in found(rules, [row])


@pytest.mark.parametrize("row", ["Employee Name (ID)", "SHIP TO DALLAS, TX"])
def test_no_place_from_a_word_code_or_a_label(rules, row):
    spans = found(rules, [row])
    assert not [s for s in spans if s[0] == "LOCATION" and s[1] not in ("DALLAS, TX",)]


def test_a_caption_before_a_city_line_stays_out_of_the_address(rules):
    spans = found(rules, ["Name Ketchum Address New York, NY 10019"])
    assert ("ADDRESS", "New York, NY 10019") in spans
    assert ("ADDRESS", "Mobile, AL 36601") in found(rules, ["Mobile, AL 36601"])


@pytest.mark.parametrize("block", [
    ["10 Downing Street", "London SW1A 2AA", "United Kingdom"],
    ["701-99 Bank Street", "Ottawa, Ontario K1P 6B9", "Canada"],
    ["Level 5, 1 Martin Place", "Sydney NSW 2000", "Australia"],
    ["12 MG Road", "Bangalore 560001", "India"],
    ["21 Nariman Point", "Mumbai - 400 021", "India"],
    ["No. 7, Jalan Ampang", "50450 Kuala Lumpur", "Malaysia"],
    ["250 North Bridge Road", "#24-00 Raffles City Tower", "Singapore 179101"],
    ["Hauptstraße 5", "10115 Berlin", "Germany"],
    ["12 rue de la Paix", "75002 Paris", "France"],
])
def test_an_international_postal_block_is_one_address_with_its_country(rules, block):
    spans = found(rules, ["Acme Widgets Ltd", *block])
    assert ("ADDRESS", "\n".join(block)) in spans, spans


def test_a_town_and_six_digits_alone_are_no_address(rules):
    assert not [s for s in found(rules, ["Invoice total for Bangalore 560001 units"]) if s[0] == "ADDRESS"]


@pytest.mark.parametrize("row", ["the Attorney General under this Act", "Before me a Notary Public, personally",
                                 "Manner of contact: meeting at the Hotel", "DIVISION NAME: Detroit West # REPS: 12"])
def test_a_title_or_an_ordinary_word_after_a_person_label_is_no_name(rules, row):
    people = [s[1] for s in found(rules, [row]) if s[0] == "PERSON"]
    assert not [p for p in people if p in ("General", "Public", "meeting", "REPS")], people


@pytest.mark.parametrize("row, name", [("Prepared by: RSS", "RSS"), ("Attn: Mark Salazar", "Mark Salazar"),
                                       ("Contact: Hope", "Hope")])
def test_initials_and_census_names_after_a_person_label_stay(rules, row, name):
    assert ("PERSON", name) in found(rules, [row])


def test_an_office_name_before_its_seat_is_no_town(rules):
    spans = found(rules, ["to the Office of Management and Budget, Washington, DC; Department of Justice, Washington"])
    assert not [s for s in spans if s[0] == "LOCATION" and s[1].startswith(("Budget", "Justice"))], spans


@pytest.mark.parametrize("rows", [
    # the office's name broken over two lines of a form's fine print
    ["Section, National Security Division, U.S. Department of", "Justice, Washington, DC 20530; and to"],
    # OCR misread the "and" before it: the state name followed by a state code is a city
    ["Office of Management aiid Budget, Washington, DC 20503."]])
def test_a_word_before_a_city_line_is_no_town(rules, rows):
    spans = found(rules, rows)
    assert not [s for s in spans if s[0] == "LOCATION" and s[1].startswith(("Budget", "Justice"))], spans
    assert [s for s in spans if s[0] == "ADDRESS" and s[1].startswith("Washington, DC")], spans


def test_a_town_and_its_state_in_running_text_stay_a_place(rules):
    assert ("LOCATION", "Phillipston, Washington") in found(rules, ["shipped from Phillipston, Washington last week"])


def test_a_sales_division_named_by_town_and_compass_point_is_a_place(rules):
    assert ("LOCATION", "Detroit North") in found(rules, ["DIVISION NAME: Detroit North"])
    assert ("PERSON", "John West") in found(rules, ["Name: John West"])


def test_a_room_of_a_building_opens_the_address_over_its_city_line(rules):
    spans = found(rules, ["Office of the Secretary", "Room 43, State House", "Providence, Rhode Island 02903-1105"])
    assert ("ADDRESS", "Room 43, State House\nProvidence, Rhode Island 02903-1105") in spans


def test_a_buildings_suite_line_inside_a_block_belongs_to_it(rules):
    block = ["245 Peachtree Center Avenue", "Marquis One Tower, Suite 2208", "Atlanta, GA 30303"]
    assert ("ADDRESS", "\n".join(block)) in found(rules, ["Japan External Trade Organization", *block])


def test_a_street_and_a_city_line_whose_comma_ocr_read_as_a_stop_are_one_address(rules):
    spans = found(rules, ["MARDEN-KANE. INC.", "666 FIFTH AVE. NEW YORK.N. Y. 10103 (212) 582-6600"])
    assert ("ADDRESS", "666 FIFTH AVE. NEW YORK.N. Y. 10103") in spans


@pytest.mark.parametrize("row, date", [
    ("Promo Dates: March 15 - 19, 1999", "March 15 - 19, 1999"),
    ("held on June 3-5, 1987 in", "June 3-5, 1987"),
    ("for June. 30. 1967", "June. 30. 1967"),
    ("Date; September 21, L976", "September 21, L976"),
    ("dated April 2, l985", "April 2, l985"),
])
def test_a_typed_date_keeps_its_year(rules, row, date):
    """The year is part of the date a reader sees: after a day range of one month, after
    the full stops OCR reads for commas, and when OCR read the year's 1 as a letter."""
    assert ("DATE", date) in found(rules, [row]), found(rules, [row])


@pytest.mark.parametrize("row", ["Route 15 - 19, 1999 units", "Suite 30. L976 West Street"])
def test_numbers_after_no_month_or_a_year_of_letters_are_no_date(rules, row):
    assert not [t for t, _ in found(rules, [row]) if t == "DATE"], found(rules, [row])


@pytest.mark.parametrize("row, name", [
    ("by Litchfield, J. T. and Wilcoxin, F., J. of Pharmacol.", "Wilcoxin, F."),
    ("Litchfield, J. T. and Wilcoxin, F.; ibid.", "Wilcoxin, F."),
])
def test_a_sorted_name_ends_at_the_comma_after_its_last_initial(rules, row, name):
    """A reference list separates a sorted name from what follows by a comma after its
    initials: the name ends there, its initials in."""
    assert ("PERSON", name) in found(rules, [row]), found(rules, [row])


def test_letters_after_a_forward_name_are_its_degree_not_a_sorted_name(rules):
    # "C. M. WIECHMANN, D.M.": the name is written forward; the letters after it are a title
    spans = found(rules, ["REPORTED BY: C. M. WIECHMANN, D.M., LUBBOCK, TX"])
    assert not [v for t, v in spans if t == "PERSON" and "D.M" in v], spans


def test_a_bracket_read_into_a_lists_first_initial_keeps_the_name_whole(rules):
    """A distribution list down a bracket: OCR reads the bracket's stroke into the initial
    that opens each line ("IL. Gordon" for "L. Gordon", funsd-91361993). The name is one
    value, one box; inside a line, "IL." after another word is no initial."""
    spans = found(rules, ["IL. Gordon", "IG. Telford"])
    assert {("PERSON", "IL. Gordon"), ("PERSON", "IG. Telford")} <= spans, spans
    inside = found(rules, ["Ship to IL. Gordon"])
    assert ("PERSON", "IL. Gordon") not in inside, inside


def test_a_department_in_a_copy_list_is_no_ones_name(rules):
    """"Copies to:" over "Factory Cost Dept." (read "Pactory"), "Writer", "Development
    Center" (an unseen FUNSD form): a company's department is neither a person nor, by the
    annotation guide, an organisation; people in such a list stay people."""
    spans = found(rules, [[(46, "Copies to:")], [(130, "Pactory Cost Dept.")], [(131, "Writer")]])
    assert not [v for t, v in spans if t == "PERSON"], spans
    people = found(rules, [[(46, "Copies to:")], [(130, "Mary Jones")], [(131, "John Smith")]])
    assert {("PERSON", "Mary Jones"), ("PERSON", "John Smith")} <= people, people


def test_initials_read_with_a_comma_or_a_speck_still_open_a_name(rules):
    """A copy list typed in capitals and photocopied: "A. J, GIACOIO" (the second initial's
    stop read as a comma, the surname right after it) and "L.¢ GORDON" (a speck beside
    the stop) are names as "P, J. MCCANN" is."""
    spans = found(rules, [[(98, "L.¢ GORDON"), (254, "P, J. MCCANN")], [(98, "P. MASTANDREA"), (254, "A. J, GIACOIO")]])
    assert {("PERSON", "L.¢ GORDON"), ("PERSON", "A. J, GIACOIO")} <= spans, spans
    # a comma after the last initial with no surname after it still ends a sorted name
    assert ("PERSON", "Wilcoxin, F.") in found(rules, ["Wilcoxin, F., J. of Pharmacol."])


@pytest.mark.parametrize("row, date", [
    ("- Coupon Issue Date" + " " * 12 + "10/90", "10/90"),
    ("Payment Due Date" + " " * 12 + "4/15/91", "4/15/91"),
])
def test_a_form_items_qualified_caption_takes_the_value_in_its_right_cell(rules, row, date):
    """"Coupon Issue Date   10/90": one or two words naming what the item is about open the
    caption; the value stands in the cell far right of it (funsd-87533049)."""
    assert ("DATE", date) in found(rules, [row]), found(rules, [row])


def test_an_items_number_is_no_qualified_caption(rules):
    # "Item No. 10" numbers a list: a bare "No." after a word is that word's number
    row = "Item No." + " " * 12 + "10"
    assert not [t for t, _ in found(rules, [row]) if t == "REFERENCE_NUMBER"], found(rules, [row])


@pytest.mark.parametrize("rows, name", [
    # a report's signature row: captions over the date, the signer's typed name and title,
    # and the signature (the FARA Dissemination Report's item 15)
    ([[(20, "Date of report"), (300, "Name and title"), (900, "Signature")],
      [(20, "3/24/92"), (300, "Toshiaki Baba, Director")]], "Toshiaki Baba"),
    (["Printed name: Mary Ellen Walsh"], "Mary Ellen Walsh"),
])
def test_a_signature_blocks_typed_name_caption_labels_a_person(rules, rows, name):
    assert ("PERSON", name) in found(rules, rows)


@pytest.mark.parametrize("row, name", [
    ("cc: S.A. RAPISARLD!", "S.A. RAPISARLD!"),     # the surname's last I read as "!"
    ("CC: RE. KLEIN", "RE. KLEIN"),                 # "R. E." with its first stop lost
    ("ec: BMC/RMI/EPB", "BMC/RMI/EPB"),             # "cc:" misread; staff by their initials
])
def test_copy_lists_as_the_scan_reads_them_name_their_people(rules, row, name):
    assert ("PERSON", name) in found(rules, [row])


@pytest.mark.parametrize("row, name", [
    ("TAPE APPROVAL PERCY £. SMITH", "PERCY £. SMITH"),   # the middle initial read as a sign
    ("Approved: PERCY £. SMITH", "PERCY £. SMITH"),
])
def test_a_middle_initial_ocr_read_as_a_sign_stays_in_the_name(rules, row, name):
    assert ("PERSON", name) in found(rules, [row])


def test_a_first_initials_stop_read_as_a_comma_in_running_text(rules):
    """A meeting report (an unseen FUNSD form): "agreed to by T. Parrack and A, Forsythe";
    after a capitalised word the comma may invert a name, and no name is made of it."""
    spans = found(rules, ["This was agreed to by T. Parrack and A, Forsythe at the meeting."])
    assert ("PERSON", "A, Forsythe") in spans, spans
    assert not [t for t in found(rules, ["Section A, Forsythe"]) if t[0] == "PERSON"]


def test_a_research_requests_personnel_caption_names_its_staff(rules):
    """"MR PERSONNEL: B.R, Pellett" (an unseen FUNSD research request): the staff a
    request assigns, the last initial's stop read as a comma; a personnel number is an id."""
    assert ("PERSON", "B.R, Pellett") in found(rules, ["MR PERSONNEL: B.R, Pellett"])
    assert ("ID_NUMBER", "4471823") in found(rules, ["Personnel No. 4471823"])


def test_initials_run_together_open_a_captioned_name_at_the_captions_score(rules):
    spans = {(s.type, s.text): s.score for s in rules.detect(page_from_rows(["To: J.R. Smith"]))}
    assert spans.get(("PERSON", "J.R. Smith"), 0) >= 0.9


def test_a_title_in_initials_after_the_name_is_not_a_name_of_its_own(rules):
    spans = found(rules, ["REPORTED BY: C. M. WIECHMANN, D.M., LUBBOCK, TX"])
    assert not any(t == "PERSON" and ("D.M" in text or "LUBBOCK" in text) for t, text in spans)


def test_a_period_of_two_dates_joined_by_a_dash_is_one_date(rules):
    spans = found(rules, ["DATE TESTED 3/12/81-3/24/81 REPORTED 3/30/81", "period 3/12/81-13/45/81"])
    assert ("DATE", "3/12/81-3/24/81") in spans and ("DATE", "3/30/81") in spans
    assert not any(t == "DATE" and "13/45" in text for t, text in spans)


@pytest.mark.parametrize("row, date", [
    ("DATE REQUESTED: 2/22 by courier", "2/22"),     # an office form's dated step, no year
    ("Date Submitted: March 1985", "March 1985"),
    ("DATE RECEIVED: l2/4/80", "l2/4/80"),            # a handwritten 1 read as l
])
def test_an_office_forms_date_captions_take_their_date(rules, row, date):
    assert ("DATE", date) in found(rules, [row])


@pytest.mark.parametrize("row", ["DATE RECEIVED: lst quarter", "Date: Ol"])
def test_a_date_caption_takes_no_word_of_letters_that_is_no_month(rules, row):
    assert not [s for s in found(rules, [row]) if s[0] == "DATE"]


@pytest.mark.parametrize("line, date", [
    # the page's text is read with its accents off: "März" is matched as "Marz"
    ("München, den 14. März 2021", "14. März 2021"),
    ("Wien, am 3. Jänner 2020", "3. Jänner 2020"),
])
def test_german_month_names_with_umlauts(rules, line, date):
    assert ("DATE", date) in found(rules, [line])


@pytest.mark.parametrize("line, kind, value", [
    ("USt-IdNr.: DE123456789", "BUSINESS_ID", "DE123456789"),
    ("N° TVA : FR40303265045", "BUSINESS_ID", "FR40303265045"),
    ("BTW-nummer: NL123456789B01", "BUSINESS_ID", "NL123456789B01"),
    ("Partita IVA: 01234567890", "BUSINESS_ID", "01234567890"),
    ("Ihr Zeichen: KB/2021-03", "REFERENCE_NUMBER", "KB/2021-03"),
    ("Notre réf. : CM/2020/114", "REFERENCE_NUMBER", "CM/2020/114"),
])
def test_european_letters_captions_of_tax_numbers_and_file_references(rules, line, kind, value):
    assert (kind, value) in found(rules, ["Müller & Schmidt GmbH", line])


@pytest.mark.parametrize("town", ["60311 Frankfurt am Main", "79098 Freiburg im Breisgau"])
def test_a_german_town_named_for_its_river_or_region_is_whole(rules, town):
    assert ("ADDRESS", "Lindenweg 7\n" + town) in found(rules, ["Lindenweg 7", town])


@pytest.mark.parametrize("row, name", [
    ("Short Form Registration Statement: NICOLE, Jean-Marc", "NICOLE, Jean-Marc"),   # an unseen FARA page
    ("LAVALLEY, Robert C.", "LAVALLEY, Robert C."),
])
def test_a_surname_in_capitals_before_its_given_name_is_a_person(rules, row, name):
    """Registers and filings sort people surname first, the surname in capitals."""
    assert ("PERSON", name) in found(rules, [row]), found(rules, [row])


@pytest.mark.parametrize("row", ["PARIS, France", "Please run it for GPC, Misty, and Kool",
                                 "NEW YORK, John"])
def test_a_town_a_list_of_brands_or_a_longer_name_in_capitals_is_no_sorted_name(rules, row):
    assert not [v for t, v in found(rules, [row]) if t == "PERSON" and "," in v], found(rules, [row])
