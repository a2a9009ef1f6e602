"""Organisation names found by their form (legal form, organisation words, firm of partners)."""
import pytest

from redactor.plugin_api import page_view

from redactor_plugins.rules.organizations import (find_organization_hits, find_organization_hits_in_text,
                                         load_organization_forms)
from redactor.model import OcrPage, WordBox
from rules_pages import one_line_rows, page_from_rows


@pytest.fixture(scope="module")
def forms():
    return load_organization_forms()


def _page_hits(rows, forms) -> set[str]:
    """The organisation hits' texts on a page built from ``rows``."""
    layout = page_view(page_from_rows(rows))
    return {layout.page.text[h.start:h.end] for h in find_organization_hits(layout, forms)}


def found(text, forms):
    return [(text[h.start:h.end], h.rule) for h in find_organization_hits_in_text(text, forms)]


@pytest.mark.parametrize("text, name", [
    ("Walters Associates\n97919 Jones Port", "Walters Associates"),
    ("HARDIN INC", "HARDIN INC"),
    ("Remit to Acme Widgets GmbH, Berlin", "Acme Widgets GmbH"),
    ("Thank you for choosing Duncan Marketing.", "Duncan Marketing"),
    ("Hammond Printing Co.", "Hammond Printing Co."),
    ("Bill To Smith Media Group", "Smith Media Group"),
    ("Davis and Sons", "Davis and Sons"),
    ("Order placed by Berg Advertising today", "Berg Advertising"),
    ("Paid for by Simmons for Senate", "Simmons for Senate"),
    # OCR read the name's last letter as a colon ("Van Hollen for Congress")
    ("9/29/10 $250 Van Holle: for Congress (via Act Blue)", "Van Holle: for Congress"),
    # professional partnerships named for their profession
    ("Hargreaves & Pollard Solicitors\n14 King Street", "Hargreaves & Pollard Solicitors"),
    ("Smith Jones Architects", "Smith Jones Architects"),
])
def test_legal_forms_and_organisation_words_after_capitalised_names(forms, text, name):
    assert name in [v for v, _ in found(text, forms)]


def test_firm_of_partners_only_on_a_line_of_its_own(forms):
    assert found("Bird, York and Herrera", forms) == [("Bird, York and Herrera", "org_firm")]
    assert found("BARTON, WHITE AND LOPEZ", forms) == [("BARTON, WHITE AND LOPEZ", "org_firm")]
    assert found("Invited: Tom, Anna and Lee came to the meeting", forms) == []
    assert found("Dear Smith, Solis and Smith", forms) == []


def test_headings_and_plain_words_are_not_organisations(forms):
    assert found("APPLICATION FOR GROUP INSURANCE", forms) == []     # capitals need a legal form
    assert found("our group of services", forms) == []               # names must be capitalised
    assert found("Mr. John Smith", forms) == []
    assert found("Please consult your Attorneys before signing.", forms) == []   # a profession in prose


@pytest.mark.parametrize("rows, name", [
    # a typed form's value in capitals, after the caption that asks for it (FARA filings)
    (["Name of registrant (or agent) AUSTRALIAN NATIONAL TRAVEL ASSOCIATION"],
     "AUSTRALIAN NATIONAL TRAVEL ASSOCIATION"),
    (["Name of foreign principal JAPAN NATIONAL TOURISM ORGANIZATION"], "JAPAN NATIONAL TOURISM ORGANIZATION"),
    # a compass word opening a country's name (its adjective) is the name's
    (["Name of foreign principal SOUTH AFRICAN TOURISM BOARD"], "SOUTH AFRICAN TOURISM BOARD"),
    (["Client: AMERICAN TOBACCO COMPANY"], "AMERICAN TOBACCO COMPANY"),
    # the caption's own words are cut off a name in title case
    (["Name of Registrant Arab Information Center"], "Arab Information Center"),
])
def test_a_captioned_name_is_an_organisation_in_capitals_too(rows, name):
    page = page_from_rows(rows)
    hits = find_organization_hits(page_view(page), load_organization_forms())
    assert name in [page.text[h.start:h.end] for h in hits]


@pytest.mark.parametrize("text, name", [
    # a body named for its city: the city's name is an English word too ("Kobe")
    ("Kobe Trade Information Office", "Kobe Trade Information Office"),
    ("Name of foreign principal: Kobe Municipal Government", "Kobe Municipal Government"),
])
def test_a_body_named_for_its_city_is_an_organisation(forms, text, name):
    assert name in [v for v, _ in found(text, forms)]


def test_a_city_and_the_office_alone_is_a_branch_not_an_organisation(forms):
    # the branch of the body named before it; the city stays a place
    names = [v for v, _ in found("transferred to Bermuda Department of Tourism, Atlanta Office,", forms)]
    assert not [v for v in names if v.startswith("Atlanta")], names
    assert [v for v, _ in found("the Federal Government agency", forms)] == []


def test_a_heading_in_capitals_stays_no_organisation():
    page = page_from_rows(["SPECIAL EVENT INFORMATION SHEET", "APPLICATION FOR GROUP INSURANCE",
                           "DEPARTMENT: MARKET RESEARCH"])
    assert find_organization_hits(page_view(page), load_organization_forms()) == []


def test_broken_data_file_is_reported(tmp_path):
    (tmp_path / "organizations.yaml").write_text("legal_forms: Inc\n")
    with pytest.raises(ValueError, match="legal_forms must be a list"):
        load_organization_forms(str(tmp_path))


def test_a_name_does_not_run_across_the_cells_of_a_form_row(forms):
    # "Advertiser | James Consulting | Agency": OCR joins the row into one line of text
    cells = [("Advertiser", 10, 160), ("James", 600, 690), ("Consulting", 700, 860), ("Agency", 1300, 1410)]
    page = OcrPage(2000, 400, tuple(WordBox(t, (x0, 100, x1, 130), 95.0, 1, 1) for t, x0, x1 in cells), "t")
    hits = find_organization_hits(page_view(page), forms)
    assert [page.text[h.start:h.end] for h in hits] == ["James Consulting"]


@pytest.mark.parametrize("text, person, org", [
    ("A copy was sent to Robin Meyers of Steele Associates.", "Robin Meyers", "Steele Associates"),
    ("We met Carlos J. Diaz of Smith Group yesterday", "Carlos J. Diaz", "Smith Group"),
])
def test_a_person_of_a_firm_is_a_person_and_a_firm(forms, text, person, org):
    got = found(text, forms)
    assert (person, "name_of_organization") in got and (org, "org_form") in got, got


@pytest.mark.parametrize("text", ["Bank of America Holdings", "Young Insurance of Ohio Group",
                                  "First Bank of Springfield Group"])
def test_an_organisation_named_with_of_stays_whole(forms, text):
    assert found(text, forms) == [(text, "org_form")]


# -- forms of real letterheads, filings and correspondence (issue 31) ---------------------
@pytest.mark.parametrize("text, name", [
    # law and advertising firms are named for their partners joined by "&"
    ("WINSTON & STRAWN", "WINSTON & STRAWN"),
    ("ARNOLD & PORTER 1750", "ARNOLD & PORTER"),
    ("Foley, Hoag & Eliot LLP", "Foley, Hoag & Eliot LLP"),
    ("Name change, formerly Reichler, Milton & Medel", "Reichler, Milton & Medel"),
    # "<head> of <name>": universities, embassies, governments, campaign committees
    ("Affiliation University of Utah", "University of Utah"),
    ("between Registrant and the Embassy of the Government of Japan (attached)",
     "Embassy of the Government of Japan"),
    ("RE Office of the Secretary of State", "Office of the Secretary of State"),
    # a country whose name holds its article, capitalised (a foreign principal, unseen FARA)
    ("Government of The Bahamas", "Government of The Bahamas"),
    # bodies named in French, Spanish, Portuguese or Italian (foreign principals, unseen FARA)
    ("Direction du Tourisme et des Congres (DTC)", "Direction du Tourisme et des Congres"),
    ("Trade Partnership in the 1990s Fundacion Pro-Imagen de Colombia en el", "Fundacion Pro-Imagen de Colombia"),
    ("Agence pour la Promotion des Investissements", "Agence pour la Promotion des Investissements"),
    ("a grant from the Banco de la Nación Argentina", "Banco de la Nación Argentina"),
    # newspapers named for their city, a hotel for its chain (a media list, an event's venue)
    ("DAYTON NEWS (4/23/72)", "DAYTON NEWS"),
    ("PITTSBURGH PRESS", "PITTSBURGH PRESS"),
    ("as the Los Angeles Times reported", "Los Angeles Times"),
    ("RYE-TOWN HILTON HOTEL", "RYE-TOWN HILTON HOTEL"),
    ("$250 Friends of Martin O’Malley (via)", "Friends of Martin O’Malley"),
    ("University of Hawaii Dept. of Anatomy", "University of Hawaii"),
    # institutions, bodies and newspapers after their names
    ("Arab Information Center 876", "Arab Information Center"),
    ("New Albany Tribune advertisements", "New Albany Tribune"),
    ("Public officials U.S. Congress", "U.S. Congress"),
    ("meetings between VTB Group officials", "VTB Group"),
    # a business named after its kind first
    ("meeting at the Hotel Plaza Athénée New York", "Hotel Plaza Athénée"),
    # ... in Spanish and Portuguese too (a foreign principal, unseen FARA)
    ("Tricuro LLC's contract with Corporacion Dinant of Honduras", "Corporacion Dinant"),
    ("Grupo Modelo and Industrias Peñoles", "Industrias Peñoles"),
    # Mexico's legal forms end in the variable capital
    ("foreign agent for Pulsar Internacional, SA de CV. The", "Pulsar Internacional, SA de CV"),
    ("Grupo Bimbo, S.A.B. de C.V. reported", "Grupo Bimbo, S.A.B. de C.V."),
    # ... and the Romance languages' "of" joins a company's words before its legal form (an
    # unseen FARA filing's principal, the airline of Colombia)
    ("the principal, Aerovias Nacionales de Colombia, S.A., Bogota", "Aerovias Nacionales de Colombia, S.A."),
    ("Banco do Brasil S.A.", "Banco do Brasil S.A."),
    # a ministry named for its portfolios, and partners joined by "+" (unseen FARA filings);
    # the role before the firm answering "Occupation" is no part of its name
    ("Government of Mongolia, Ministry of Foreign Affairs and Trade", "Ministry of Foreign Affairs and Trade"),
    ("the Ministry of Trade and Industry", "Ministry of Trade and Industry"),
    ("7. Occupation Partner Roberti + White, LLC", "Roberti + White, LLC"),
    # legal forms of other countries, and OCR's stops and commas before them
    ("Maju Jaya Sdn Bhd", "Maju Jaya Sdn Bhd"),
    ("Tanaka Shoji K.K.", "Tanaka Shoji K.K."),
    ("Westfield Pty Ltd", "Westfield Pty Ltd"),
    ("MARDEN-KANE. INC.", "MARDEN-KANE. INC."),
    ("Payment - 1976 by A.B.,Inc.", "A.B.,Inc."),
    # a campaign committee named for its candidate and the state they run in
    ("9/29/10 $500 Bennet for Colorado (via Act Blue)", "Bennet for Colorado"),
    # letterheads of unseen FUNSD forms: a body with its article, a firm named by its kind,
    # the parent company after a division, a possessive in capitals
    ("The Tobacco Institute", "Tobacco Institute"),
    ("SPORTS MARKETING ENTERPRISES", "SPORTS MARKETING ENTERPRISES"),
    ("LORILLARD, DIVISION OF LOEW'S CORP.", "LOEW'S CORP."),
    ("DIVISION OF AMERICAN BRANDS INC.", "AMERICAN BRANDS INC."),
])
def test_organisations_of_real_documents(forms, text, name):
    assert name in [v for v, _ in found(text, forms)], found(text, forms)


@pytest.mark.parametrize("text", [
    "Senior VP Marketing", "Director Market Research",      # a person's role
    "Trade & Consumer Research", "Quality Council",         # departments and committees
    "Research & Development", "Sales & Marketing", "East & West",
    "John & Mary Smith", "Mr. & Mrs. Jones", "Dear John & Mary,",   # people, not partners
    "Board of Directors", "Office of Management and Budget",   # a unit named for its task
    "Hotel Reservation Form", "the Jersey corporation", "press services",
    "Compensation/Expendil co",                            # legal forms are capitalised
    "Amount or Thing of Value Political Organization or Candidate",   # a caption's choices
    "Thanks for Texas",
    "(BY BRAND OR COMPANY)",                               # a caption's choices in capitals
    "KIND FOR ACCOUNT OF THIS COMPANY",                    # a sentence in capitals
    "APPLICATION FOR GROUP INSURANCE",
    "Office de la D.G.",                                   # a unit's code after a Romance "of"
    "Early News", "Sunday Times", "SCIENTIFIC JOURNAL", "Breaking News",   # no city's paper
    "the Grupo de Trabajo",                        # a working group: no name after the kind
])
def test_roles_departments_and_prose_are_no_organisations(forms, text):
    assert found(text, forms) == []


def test_a_romance_bodys_head_word_is_not_mended_into_an_english_one(rules):
    """"Instituto" is one letter from "Institute": its own language's word, the body's head."""
    found = [t for t in _detect(rules, ["Instituto Nacional de Promocion Turistica"]) if t[0] == "ORGANIZATION"]
    assert found == [("ORGANIZATION", "Instituto Nacional de Promocion Turistica")], found


def test_a_caption_word_in_a_sentence_in_capitals_opens_no_firm(rules):
    """A printed instruction in capitals (an unseen FUNSD purchase requisition): "COMPANY"
    there is no caption, and the clause after it no firm."""
    rows = ["DO NOT MAKE ANY COMMITMENT OR AUTHORIZE ANY EXPENDITURE OF ANY KIND FOR ACCOUNT "
            "OF THIS COMPANY UNTIL EXECUTIVE APPROVAL HAS BEEN OBTAINED HEREON."]
    assert [t for t in _detect(rules, rows) if t[0] == "ORGANIZATION"] == []


def test_a_person_and_the_place_they_work_are_apart(forms):
    text = "procedures by Dr. P. D. Schickedantz, Lorillard Research Center"
    assert found(text, forms) == [("Lorillard Research Center", "org_form")]


def _detect(rules, rows):
    page = page_from_rows(rows)
    return [(s.type, s.text) for s in rules.detect(page)]


@pytest.fixture(scope="module")
def rules():
    from redactor_plugins.rules_detector import RulesDetector
    return RulesDetector()


def test_a_short_name_repeats_the_organisation_named_in_full(rules):
    found_ = _detect(rules, ["CDN International, Inc. (CDN) replied on August 9.",
                             "The attachment lists the contacts that CDN had.",
                             "Visit of the Ketchum Public Relations team",
                             "Ketchum New York office"])
    assert found_.count(("ORGANIZATION", "CDN")) == 2, found_
    assert ("ORGANIZATION", "Ketchum") in found_, found_


def test_a_firms_rarely_used_first_word_is_its_short_name(rules):
    """A supplier recommendation (FUNSD): "Rabid Research" named in full, then "Rabid" alone;
    a common first word ("Rapid") is no short name."""
    found_ = _detect(rules, ["Recommended Supplier: Rabid Research Inc.",
                             "Rabid was selected due to the lack of availability of other suppliers."])
    assert ("ORGANIZATION", "Rabid") in found_, found_
    found_ = _detect(rules, ["Recommended Supplier: Rapid Research Inc.",
                             "Rapid turnaround was the reason it was selected."])
    assert ("ORGANIZATION", "Rapid") not in found_, found_


def test_initials_of_an_organisation_named_on_the_page(rules):
    found_ = _detect(rules, ["Name of foreign principal British Travel and Holidays Association",
                             "(c) Visit of B.T.H.A. General Manager 1,549."])
    assert ("ORGANIZATION", "B.T.H.A.") in found_, found_


def test_a_committee_named_for_its_candidate_leaves_the_candidate_a_person(rules):
    found_ = _detect(rules, ["$500 Feingold Senate Committee", "U.S. Sen. Russ Feingold (WI)"])
    assert ("ORGANIZATION", "Feingold Senate Committee") in found_
    assert not [t for t, v in found_ if v == "Feingold"], found_


def test_the_form_of_the_value_decides_a_bare_name_caption(rules):
    found_ = _detect(rules, ["Name: BRAYTON, GISVOLD & HARLEY"])
    assert ("ORGANIZATION", "BRAYTON, GISVOLD & HARLEY") in found_, found_


def test_a_company_caption_keeps_a_name_shaped_company(rules):
    found_ = _detect(rules, ["MANUFACTURER: R. J. REYNOLDS"])
    assert found_ == [("ORGANIZATION", "R. J. REYNOLDS")], found_


def test_the_source_of_a_sample_or_a_figure_is_an_organisation(rules):
    """A lab's sample form names the company a sample came from after "SOURCE" (unseen
    FUNSD forms), a table's note the body its figures came from; the source "of" something
    is prose."""
    assert ("ORGANIZATION", "Lorillard") in _detect(rules, ["source Lorillard - Organic Chemistry"])
    assert ("ORGANIZATION", "U.S. Department of Commerce") in \
        _detect(rules, ["Source: U.S. Department of Commerce"])
    assert not [t for t, _ in _detect(rules, ["Source of Business - This: 250 Males"]) if t == "ORGANIZATION"]
    assert not [t for t, _ in _detect(rules, ["a potential source of business"]) if t == "ORGANIZATION"]


def test_the_organisation_of_a_digital_signature(rules):
    found_ = _detect(rules, ["Digitally signed by Dan Kloeffler", "DN: cn=Dan Kloeffler, o=Ketchum, ou=NY"])
    assert ("ORGANIZATION", "Ketchum") in found_, found_


def test_a_legal_form_overrides_the_models_person_in_the_pipeline():
    """spaCy (through Presidio and the census name lists) reads "Qorvis MSL LLC" as a
    person; the legal form found by the rules decides the type, and the person's name
    after the firm stays a person."""
    from redactor.config import load_config
    from redactor.pipeline import Redactor

    page = page_from_rows(["Contract between Qorvis MSL LLC and the Embassy of the People's Republic of China",
                           "signed by Thomas Hutchins on behalf of the firm"])
    spans = {(s.type, s.text) for s in Redactor(load_config(None, {})).detect(page)}
    assert ("ORGANIZATION", "Qorvis MSL LLC") in spans, spans
    assert ("ORGANIZATION", "Embassy of the People's Republic of China") in spans, spans
    assert ("PERSON", "Thomas Hutchins") in spans, spans


def test_the_company_line_of_a_party_block(rules):
    # a "Sold To" block names a person and the company they receive for
    found_ = _detect(rules, ["Sold To:", "Mrs. Michelle Silva", "Lopez Broadcasting", "34534 James Parkways",
                             "Austin, TX 78701"])
    assert ("ORGANIZATION", "Lopez Broadcasting") in found_, found_
    assert ("PERSON", "Michelle Silva") in found_, found_


@pytest.mark.parametrize("row, body", [
    # a FARA filing names the foreign principal's tourist office (real dev page)
    ("Item 10 should read Bermuda Department of Tourism.", "Bermuda Department of Tourism"),
    ("Garth Z. Pedro transferred to Bermuda Department of Tourism, Atlanta Office,",
     "Bermuda Department of Tourism"),
    ("Licence issued by the New York State Department of Labor", "New York State Department of Labor"),
    ("Paid to the India Office of Tourism in New York", "India Office of Tourism"),
    ("COLOMBIA MINISTRY OF FOREIGN AFFAIRS", "COLOMBIA MINISTRY OF FOREIGN AFFAIRS"),
])
def test_a_department_named_after_its_state_is_an_organisation(rules, row, body):
    found_ = _detect(rules, [row])
    assert ("ORGANIZATION", body) in found_, found_
    # its place names the body, it tells nobody's whereabouts
    assert not [t for ty, t in found_ if ty == "LOCATION" and t in body], found_


@pytest.mark.parametrize("row", [
    # the federal form's publisher, printed on every copy filed
    "U.S. Department of Justice, Washington, DC 20530",
    "UNITED STATES DEPARTMENT OF JUSTICE",
    "US. Department of Justice Short-Form Registration Statement",
    # without a place: a company's or a university's own unit
    "Department of Chemistry, Building 4",
    "Registration Unit, Department of Justice, Washington",
    # a place, then a department without "of": a seat, not a body's name
    "Chicago Department Store sales",
])
def test_the_publishers_bodies_and_bare_departments_are_not_state_bodies(rules, row):
    assert not [t for ty, t in _detect(rules, [row]) if ty == "ORGANIZATION" and "epartment" in t.lower()]


def test_a_groups_national_company_keeps_its_country(forms):
    # "Project Number: to be assigned by Brown & Williamson USA" (an unseen FUNSD form)
    assert ("Brown & Williamson USA", "org_firm") in found("to be assigned by Brown & Williamson USA", forms)
    # a given name after the "&" is still a couple's shared surname, no firm
    assert not any(r == "org_firm" for _, r in found("Regards from John & Mary Smith", forms))


@pytest.mark.parametrize("rows, name", [
    # a toxicology report's letterhead (an unseen FUNSD form): the name large over the kind
    (["HAZLETON", "LABORATORIES AMERICA, INC.", "9200 LEESBURG TURNPIKE"], "HAZLETON"),
    (["Lorillard", "TOBACCO COMPANY", "666 Fifth Avenue"], "Lorillard"),
])
def test_a_letterheads_name_over_its_kind_is_the_organisations(forms, rows, name):
    hits = _page_hits(rows, forms)
    assert name in hits, hits


def test_a_letterheads_name_read_into_one_line_with_other_cells(forms):
    """OCR runs the letterhead's name into one line with the form's title left of it and the
    firm's address right of it: the words over the descriptor, a cell of their own, are
    the name (an unseen FUNSD form's "PROJECT SHEET  HAZLETON  VIENNA, VIRGINIA 22180")."""
    layout = page_view(one_line_rows([[(40, "PROJECT SHEET"), (300, "HAZLETON"), (600, "VIENNA, VIRGINIA 22180")],
                                      [(300, "LABORATORIES AMERICA, INC.")]]))
    hits = {layout.page.text[h.start:h.end] for h in find_organization_hits(layout, forms)}
    assert "HAZLETON" in hits, hits
    # ... but words of a line run close together are a sentence's, not a name's cell
    layout = page_view(one_line_rows([[(300, "Report By HAZLETON Staff")], [(300, "LABORATORIES AMERICA, INC.")]]))
    hits = {layout.page.text[h.start:h.end] for h in find_organization_hits(layout, forms)}
    assert not any("HAZLETON" in h for h in hits), hits


@pytest.mark.parametrize("rows", [
    # a heading over a unit: English words, not a firm's name
    ["QUALITY REPORT", "LABORATORIES AMERICA, INC."],
    # a label's line above: a caption, not a name
    ["Supplier:", "Research Laboratories Inc."],
])
def test_a_heading_over_an_organisations_kind_is_not_its_name(forms, rows):
    hits = _page_hits(rows, forms)
    assert rows[0] not in hits, hits


@pytest.mark.parametrize("row, firm", [
    # dev FUNSD pages: Brown & Williamson in a brand plan's prose and in a memo's body
    ("Generate incremental volume for B&W by providing a low price", "B&W"),
    ("high volume file maintenance or B&W's external customers", "B&W's"),
    ("Agency: SSC&B, Inc. Contact: Larry Odum", "SSC&B"),
    ("Call AT&T and P&G today.", "AT&T"),
])
def test_founders_initials_joined_by_an_ampersand_are_a_firm(forms, row, firm):
    assert firm in _page_hits([row], forms)


@pytest.mark.parametrize("row", [
    "R&D COMMENTS: none",                               # a department
    "Project Type (Product Test, A&U, etc.)",           # a market study's measure
    "JOB NO: A SPACE: 1000 lines B&W DATE: 8/8/69",     # an ad's colour after its size
    "PRODUCED FROM B&W WEB SITE",                       # a litigation archive's legend
])
def test_the_trades_ampersand_abbreviations_and_an_archive_legend_are_no_firm(forms, row):
    assert not [v for v in _page_hits([row], forms) if "&" in v]


def test_the_legend_spans_the_cells_of_its_row(forms):
    """OCR may cut the legend into cells: the words before the initials still make it one."""
    assert not [v for v in _page_hits([[(20, "PRODUCED FROM"), (300, "B&W WEB SITE")]], forms) if "&" in v]


@pytest.mark.parametrize("text, name", [
    # unseen FUNSD forms (training split): an order's vendor and a fax sender's firm
    ("Mackoul Dist. 10/5", "Mackoul Dist."),
    ("AB RESEARCH ASSOC.", "AB RESEARCH ASSOC."),
    ("Hammond Mfg. Co.", "Hammond Mfg. Co."),
    ("Shipped by Kessler Distributors", "Kessler Distributors"),
])
def test_a_firms_kind_abbreviated_closes_its_name(forms, text, name):
    """Letterheads, order forms and vendor lists abbreviate a firm's kind ("Assoc.", "Mfg.",
    "Dist."); the stop is the abbreviation's, kept in the name."""
    assert name in [v for v, _ in found(text, forms)]


@pytest.mark.parametrize("text", ["Sales Distributors meeting", "School Dist. 4 report", "MARKET ASSN. MEETING"])
def test_an_abbreviated_trade_after_common_words_is_no_firm(forms, text):
    """The trade abbreviated, like the trade written out, needs a proper name before it."""
    assert not found(text, forms)


@pytest.mark.parametrize("text, name", [
    # an unseen FARA form: the registrant's legal name, then the name it trades under
    ("Name CMGRP, Inc. d/b/a Weber Shandwick 700 13th Street", "Weber Shandwick"),
    ("Name GROUPAmericas Inc d/b/a QorvisMSLGROUP", "QorvisMSLGROUP"),
    ("John Smith dba Smith Plumbing & Heating", "Smith Plumbing & Heating"),
    ("Acme Ltd t/a Acme Foods.", "Acme Foods"),
    ("registered doing business as Blue Ridge Catering", "Blue Ridge Catering"),
])
def test_the_name_a_business_trades_under_is_an_organisation(forms, text, name):
    """US and Commonwealth filings, contracts and invoices name a trade name after "d/b/a",
    "dba", "t/a", "doing business as": whoever precedes, the name after is a business's; it
    ends before the address's street number."""
    names = [v for v, _ in found(text, forms)]
    assert name in names, names
    assert not any(v.startswith(name + " ") for v in names), names


def test_a_trade_name_needs_a_name_after_its_words(forms):
    assert found("listed d/b/a the company's brand", forms) == []


def test_political_leagues_are_organisations_and_contract_parties_are_not(forms):
    """A foreign principal named as a league ("Democratic League of Kosova", wrapped by its
    paragraph after "Democratic"); a contract's defined party and a trade report's goods
    moving off the shelves are no organisation."""
    assert "League of Kosova" in [v for v, _ in found("on behalf of the\nLeague of Kosova.", forms)]
    assert "Kosovo Democratic Alliance" in [v for v, _ in found("for the Kosovo Democratic Alliance in", forms)]
    assert found("The Receiving Party shall hold the information in confidence.", forms) == []
    assert found("CARTON MOVEMENT SPOTTY AT THIS POINT.", forms) == []


def test_a_firms_people_before_of_are_not_its_name(forms):
    """"Representatives of Debevoise Plimpton LLP will engage ..." (an unseen FARA filing):
    the firm is the name after "of"; an order named for its members is a name whole."""
    names = [v for v, _ in found("Representatives of Debevoise Plimpton LLP will engage officials", forms)]
    assert "Debevoise Plimpton LLP" in names and not any(v.startswith("Representatives") for v in names)
    assert "Acme Widgets Inc." in [v for v, _ in found("Employees of Acme Widgets Inc. and", forms)]
    assert "Knights of Columbus Inc" in [v for v, _ in found("Knights of Columbus Inc", forms)]
    assert "Bank of America Corp" in [v for v, _ in found("Bank of America Corp", forms)]


@pytest.mark.parametrize("text, name", [
    ("Name international Registries, Inc. Address", "international Registries, Inc."),
    ("Name the pilenschneider Group, Inc.", "the pilenschneider Group, Inc."),
])
def test_a_companys_first_capital_misread_after_the_name_caption_is_its_own(forms, text, name):
    """Unseen FARA short forms: the answer after "Name" opens with a capital OCR read in lower
    case; the caption's own words ("Name of ...") stay out."""
    assert name in [v for v, _ in found(text, forms)]
    assert "Acme Inc." in [v for v, _ in found("Name of Acme Inc.", forms)]
