"""Names under or after a caption that names a person's or an organisation's role, as real
pages print them (the real dev set, issue 31): a "Name of <role>" form item answered on the
line under it, a table column headed by a role ("Political Organization or Candidate",
"Name of Account", "COMPANY"), a value typed in capitals after a mixed-case caption
("Supplier OWENS CORNING"). And what stays no name: form vocabulary, amounts, dates,
running text under a caption, "NOT APPLICABLE"."""
from __future__ import annotations

import pytest
from rules_pages import one_line_rows, page_from_rows

from redactor.model import OcrPage, WordBox
from redactor_plugins.rules_detector import RulesDetector


@pytest.fixture(scope="module")
def rules():
    return RulesDetector()


def of_type(rules, page, typ: str) -> list[str]:
    return [s.text for s in rules.detect(page) if s.type == typ]


# --- a "Name of <role>" form item -------------------------------------------------------------

def test_a_numbered_name_of_caption_is_answered_on_the_line_under_it(rules):
    page = page_from_rows([[(20, "1, Name of Registrant"), (600, "2. Registration No.")],
                           [(30, "Steen Lovschal"), (650, "634")],
                           None,
                           "3. This amendment is filed to accomplish the following purposes:"], step=40)
    assert "Steen Lovschal" in of_type(rules, page, "PERSON")


def test_a_caption_that_runs_on_is_answered_under_its_last_line(rules):
    """The caption's run-on line is the caption's, not its answer; the answer may stand
    to the right in the caption's column, beside another item's answer."""
    page = page_from_rows([[(20, "4. TITLE OF MATERIAL, IF ANY"),
                            (600, "5. NAME OF FOREIGN PRINCIPAL ON WHOSE BEHALF THIS")],
                           [(622, "MATERIAL WAS TRANSMITTED.")],
                           [(20, "News Tibet, Vol. 14"), (800, "The Dalai Lama")]], step=22)
    persons = of_type(rules, page, "PERSON")
    assert "Dalai Lama" in persons, persons
    assert not any("MATERIAL" in p or "TRANSMITTED" in p for p in persons), persons


def test_an_organisation_under_a_name_of_caption_keeps_its_type(rules):
    page = page_from_rows([[(20, "1. NAME OF REGISTRANT"), (600, "2. REGISTRATION NO.")],
                           [(30, "Arnold Porter Committee"), (650, "1750")]])
    assert "Arnold Porter Committee" in of_type(rules, page, "ORGANIZATION")
    assert not of_type(rules, page, "PERSON")


def test_the_answer_typed_across_the_items_box_and_an_office_with_its_seat(rules):
    """A FARA dissemination report (an unseen page): the registrant's name typed a third of
    the way across the item's box, right of its caption's end, and written as the office
    and its city ("JETRO, Houston"): an organisation, not a person."""
    page = page_from_rows([[(70, "1. Name of registrant"), (879, "2. Registration No.")],
                           [(345, "JETRO, Houston"), (942, "2277")]])
    assert "JETRO, Houston" in of_type(rules, page, "ORGANIZATION")
    assert not of_type(rules, page, "PERSON")


def test_an_answer_beside_a_higher_number_is_no_run_on_of_its_caption_nor_an_address(rules):
    """A FARA dissemination report (an unseen page) as OCR read it: the registration number
    "1643" sits higher than the registrant's name beside it, so their OCR line starts close
    under the caption; the line is still the answer, not the caption running on, and the
    item's "1." over "JETRO, New York" is no house number over a town line."""
    def row(line, *cells):
        return [WordBox(t, b, 95.0, line, 0) for t, b in cells]
    words = row(0, ("1.", (93, 533, 107, 548)), ("Name", (120, 532, 168, 548)), ("of", (176, 531, 194, 547)),
                ("registrant", (201, 530, 278, 551))) + \
        row(1, ("2.", (898, 520, 912, 536)), ("Registration", (922, 519, 1021, 540)),
            ("No.", (1030, 519, 1059, 534))) + \
        row(2, ("JETRO,", (109, 565, 179, 583)), ("New", (196, 565, 232, 580)), ("York", (245, 563, 295, 579)),
            ("1643", (909, 553, 956, 571)))
    page = OcrPage(1276, 800, tuple(words), "test")
    assert "JETRO, New York" in of_type(rules, page, "ORGANIZATION")
    assert not of_type(rules, page, "ADDRESS")



def test_the_next_items_caption_on_a_page_fed_in_askew_ends_the_answers_box(rules):
    """A FARA amendment scanned 3 degrees off (an unseen page, its words as OCR read them):
    "2. Registration No." runs a line's height lower than "1. Name of Registrant" beside
    it, and OCR puts it on a line of its own between the caption and the answer. It is
    still the next item's caption beside this one, not the answer under it: the firm's
    name under the caption is the registrant."""
    def row(line, *cells):
        return [WordBox(t, b, 95.0, line, 0) for t, b in cells]
    words = row(0, ("1,", (148, 429, 163, 446)), ("Name", (178, 431, 227, 449)), ("of", (233, 434, 251, 450)),
                ("Registrant", (258, 436, 352, 458))) + \
        row(1, ("2.", (645, 454, 662, 471)), ("Registration", (676, 458, 789, 480)), ("No.", (795, 463, 826, 479))) + \
        row(2, ("Quebec", (222, 485, 312, 509)), ("Government", (328, 490, 476, 515)), ("House", (491, 499, 565, 519)),
            ("1787", (804, 513, 862, 534)))
    page = OcrPage(1272, 1650, tuple(words), "test")
    assert "Quebec Government House" in of_type(rules, page, "ORGANIZATION")


@pytest.mark.parametrize("answer", ["KOBE TRADE INFORMATION OFFICE", "Democratic League of Kosova"])
def test_a_body_named_in_everyday_words_answers_a_name_of_item_whole(rules, answer):
    """An unseen FARA report's registrant, a government's trade office named in capitals,
    and a foreign party: the person-name reader stops at "INFORMATION" and "League"; the
    whole answer is an organisation."""
    page = page_from_rows([[(20, "1. Name of registrant"), (600, "2. Registration No.")],
                           [(30, answer), (650, "2438")]])
    assert answer in of_type(rules, page, "ORGANIZATION")


def test_a_person_and_a_title_under_a_name_of_item_is_no_body(rules):
    page = page_from_rows([[(20, "1. Name of registrant"), (600, "2. Registration No.")],
                           [(30, "John Smith, Director of Research"), (650, "2438")]])
    assert not any("Director" in o for o in of_type(rules, page, "ORGANIZATION"))


@pytest.mark.parametrize("answer", ["Draftfcb", "JETRO-Houston"])
def test_a_one_word_answer_to_a_name_of_item_is_a_firm(rules, answer):
    """A registrant named by one word (unseen FARA filings): a person is named by a given
    name and a surname."""
    page = page_from_rows([[(54, "1. Name of Registrant"), (600, "2. Registration No.")],
                           [(54, answer), (650, "2415")]])
    assert answer in of_type(rules, page, "ORGANIZATION")


@pytest.mark.parametrize("answer", ["Yes", "John", "Pending"])
def test_a_one_word_everyday_word_or_given_name_is_no_firm(rules, answer):
    page = page_from_rows([[(54, "1. Name of Registrant"), (600, "2. Registration No.")],
                           [(54, answer), (650, "2415")]])
    assert answer not in of_type(rules, page, "ORGANIZATION")


def test_the_seat_under_a_bodys_name_is_no_end_of_the_name(rules):
    """"Japan External Trade Organization" over "Tokyo, Japan" (a foreign principal's entry):
    the city and country are the body's seat; a name that wraps ("Korea Institute for
    International" / "Economic Policy") still reads on."""
    page = page_from_rows([[(700, "5. Name of foreign principal on whose behalf this material")],
                           [(730, "was transmitted.")],
                           [(702, "Japan External Trade Organization")], [(702, "Tokyo, Japan")]], step=30)
    orgs = of_type(rules, page, "ORGANIZATION")
    assert "Japan External Trade Organization" in orgs and not any("Tokyo" in o for o in orgs), orgs
    page = page_from_rows([[(700, "5. Name of foreign principal on whose behalf this material")],
                           [(730, "was transmitted.")],
                           [(702, "Korea Institute for International")], [(702, "Economic Policy")]], step=30)
    assert "Korea Institute for International\nEconomic Policy" in of_type(rules, page, "ORGANIZATION")


@pytest.mark.parametrize("answer", ["ETHIOpAn PEPLES REVILUZIOMALY PALTY"])
def test_an_organisation_whose_everyday_words_were_misread_keeps_its_type(rules, answer):
    """A handwritten answer comes back from OCR with its words misread ("PEPLES"): a word
    one letter from an everyday one is still that word, and an organisation's."""
    page = page_from_rows([[(20, "1. NAME OF REGISTRANT"), (600, "2. REGISTRATION NO.")],
                           [(30, answer), (650, "1750")]])
    assert answer in of_type(rules, page, "ORGANIZATION")
    assert not of_type(rules, page, "PERSON")


@pytest.mark.parametrize("answer", ["NOT APPLICABLE", "None", "N/A", "$1,500.00", "12/03/1986",
                                    "Vice President", "see the attached statement of the registrant"])
def test_no_name_under_a_name_of_caption_that_is_form_vocabulary(rules, answer):
    page = page_from_rows([[(20, "1. Name of Registrant"), (600, "2. Registration No.")],
                           [(30, answer)]])
    assert not of_type(rules, page, "PERSON")
    assert not of_type(rules, page, "ORGANIZATION")


def test_a_name_of_caption_of_a_thing_names_no_one(rules):
    page = page_from_rows(["1. Name of Publication", "News Tibet Monthly"])
    assert not of_type(rules, page, "PERSON")
    assert not of_type(rules, page, "ORGANIZATION")


# --- a table column headed by a role ----------------------------------------------------------

def _contribution_table(rows):
    header = [(20, "Date"), (150, "Amount or Thing of Value"), (480, "Political Organization or Candidate"),
              (960, "Location of Event")]
    return one_line_rows([header] + [[(20, d), (150, a), (460, n), (960, loc)] for d, a, n, loc in rows],
                         step=24)


def test_a_candidate_column_heads_person_values(rules):
    page = _contribution_table([("3/31", "$250", "David Cicilline", "Washington, DC"),
                                ("3/31", "$250", "Dina Titus", "Washington, DC"),
                                ("4/4", "$439", "Chris Van Hollen", "Washington, DC")])
    persons = of_type(rules, page, "PERSON")
    for name in ("David Cicilline", "Dina Titus", "Chris Van Hollen"):
        assert name in persons, persons
    assert not any("$" in p or "Washington" in p for p in persons), persons


def test_a_candidates_committee_in_the_column_is_an_organisation(rules):
    page = _contribution_table([("9/29", "$500", "Feingold Senate Committee", "Madison, WI")])
    assert "Feingold Senate Committee" in of_type(rules, page, "ORGANIZATION")
    assert not of_type(rules, page, "PERSON")


def test_an_account_column_of_businesses(rules):
    """"Name of Account" over a sales table: businesses named for their trade."""
    page = one_line_rows([[(80, "Name of Account"), (320, "Number of"), (480, "Volume")],
                          [(70, "Meijer Gas"), (320, "245/19"), (480, "70")],
                          [(70, "Ultra Diamond"), (320, "223/25"), (480, "121")]], step=24)
    orgs = of_type(rules, page, "ORGANIZATION")
    assert "Meijer Gas" in orgs and "Ultra Diamond" in orgs, orgs
    assert not of_type(rules, page, "PERSON")


def test_an_account_column_with_account_numbers_and_one_word_businesses(rules):
    """A sales report's account list (an unseen FUNSD form): each account's number in
    brackets after its name, a cell border read into one, one-word chains under the
    businesses above them; a person under them stays a person."""
    rows = [[(33, "NAME OF ACCOUNT"), (320, "VOLUME"), (480, "STORES")],
            [(24, "Chatham Oil (311-01)"), (320, "139/27"), (480, "23")],
            [(25, "Express Stop (309-30)"), (320, "202/22"), (480, "21")],
            [(24, "Fowlers Oit (208-21)"), (320, "126/26"), (480, "15")],
            [(22, "|Conoco (524-10)"), (320, "17")],
            [(26, "Walgreen (625-60)"), (320, "17")],
            [(26, "Mary Jones (410-12)"), (320, "9")]]
    page = one_line_rows(rows, step=24)
    orgs = of_type(rules, page, "ORGANIZATION")
    assert {"Chatham Oil", "Express Stop", "Fowlers Oit", "Conoco", "Walgreen"} <= set(orgs), orgs
    assert "Mary Jones" in of_type(rules, page, "PERSON")
    # without businesses above, a one-word cell is no name of either kind
    alone = one_line_rows([rows[0], [(26, "Walgreen (625-60)"), (320, "17")]], step=24)
    assert "Walgreen" not in of_type(rules, alone, "ORGANIZATION") + of_type(rules, alone, "PERSON")


def test_a_company_column_names_companies_whatever_their_shape(rules):
    page = one_line_rows([[(20, "RECIPIENT"), (300, "COMPANY"), (600, "Fax No."), (800, "PHONE No.")],
                          [(20, "John Mulderig"), (300, "Philip Morris"), (600, "917-663-5796")]], step=24)
    assert "Philip Morris" in of_type(rules, page, "ORGANIZATION")
    assert "Philip Morris" not in of_type(rules, page, "PERSON")


def test_a_role_word_in_running_text_heads_no_column(rules):
    page = page_from_rows(["The registrant shall furnish the name of each candidate",
                           "Board members and others"], step=24)
    assert not of_type(rules, page, "PERSON")


def test_a_role_header_stops_at_the_first_row_without_a_name(rules):
    page = _contribution_table([("3/31", "$250", "David Cicilline", "Washington, DC"),
                                ("", "", "TOTAL CONTRIBUTIONS", ""),
                                ("4/4", "$439", "Chris Van Hollen", "Washington, DC")])
    persons = of_type(rules, page, "PERSON")
    assert "TOTAL CONTRIBUTIONS" not in persons


# --- a value typed in capitals after a mixed-case caption -------------------------------------

def test_a_supplier_caption_is_followed_by_its_organisation_in_capitals(rules):
    page = page_from_rows(["Material Tested P-830 GLASS FIBER Supplier   OWENS CORNING"])
    assert "OWENS CORNING" in of_type(rules, page, "ORGANIZATION")


@pytest.mark.parametrize("row", [
    "Supplier   N/A",
    "Supplier   $2,500 TOTAL",
    "SUPPLIER   ACME",                               # a caption in capitals: no change of case
])
def test_no_organisation_after_a_supplier_caption_without_typed_capitals(rules, row):
    assert not of_type(rules, page_from_rows([row]), "ORGANIZATION")


def test_a_supplier_cell_read_with_braces_still_captions_its_firm(rules):
    """A typewritten "Supplier(s)" whose round brackets OCR read as a brace (an unseen FUNSD
    purchase form): the plural's annotation is the caption's all the same."""
    rows = [[(73, "Supplier{s)"), (237, "Ecusta"), (378, "Supplier(s}"), (540, "Westvaco")]]
    orgs = of_type(rules, page_from_rows(rows), "ORGANIZATION")
    assert {"Ecusta", "Westvaco"} <= set(orgs)


@pytest.mark.parametrize("row", [
    [(73, "Supplier Code No(s)."), (238, "E.30639")],
    [(73, "Agency No."), (238, "4471")],
    [(73, "Vendor ID"), (238, "Q-22")],
])
def test_a_party_caption_continued_by_its_number_word_asks_for_no_name(rules, row):
    """"Supplier Code No(s)." asks for the supplier's code: "Code" is no firm."""
    assert not of_type(rules, page_from_rows([row]), "ORGANIZATION")


@pytest.mark.parametrize("row, number", [
    ([(73, "Agency No."), (238, "4471")], "4471"),
    ([(73, "Vendor ID"), (238, "Q-22")], "Q-22"),
])
def test_a_partys_number_is_the_reference_it_is_filed_under(rules, row, number):
    assert of_type(rules, page_from_rows([row]), "REFERENCE_NUMBER") == [number]


def test_one_cell_read_as_no_name_does_not_end_a_column_of_accounts(rules):
    """The same account list further down: "CVS -Revco", its hyphen read onto the second
    name, is no name; the chains under it are still the column's. Two cells in a row that
    are none end it, and so does one under a single name (a form's caption rows)."""
    head = [(33, "NAME OF ACCOUNT"), (320, "VOLUME"), (480, "STORES")]
    rows = [head,
            [(26, "Coastal Mart (210-06)"), (320, "31")],
            [(26, "Dairy Mart (417-47)"), (320, "15")],
            [(26, "CVS -Revco (014-20)"), (320, "460")],
            [(26, "Rite Aid (209-07)"), (320, "79")],
            [(26, "Walmart (527-35)"), (320, "112")]]
    orgs = of_type(rules, one_line_rows(rows, step=24), "ORGANIZATION")
    assert {"Coastal Mart", "Dairy Mart", "Rite Aid", "Walmart"} <= set(orgs), orgs
    two_gaps = rows[:3] + [[(26, "CVS -Revco (014-20)"), (320, "460")], [(26, "- (000-00)"), (320, "1")],
                           [(26, "Rite Aid (209-07)"), (320, "79")]]
    assert "Rite Aid" not in of_type(rules, one_line_rows(two_gaps, step=24), "ORGANIZATION")
    one_name = [head, [(26, "Coastal Mart (210-06)"), (320, "31")], [(26, "CVS -Revco (014-20)"), (320, "460")],
                [(26, "Rite Aid (209-07)"), (320, "79")]]
    assert "Rite Aid" not in of_type(rules, one_line_rows(one_name, step=24), "ORGANIZATION")
