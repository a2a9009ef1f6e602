"""The issuing authority's address a government form prints is the form's own text: the
default pipeline (real rules and Presidio) leaves it readable, and still hides a filer's
address in the same city."""
from __future__ import annotations

import pytest
from memo_pages import page_of_lines as _page

from redactor.authority_addresses import authority_city_lines, is_government_web_address
from redactor.config import RedactorConfig
from redactor.model import Span
from redactor.pipeline import Redactor



@pytest.mark.parametrize("text,city", [
    ("U.S. Department of Justice\nWashington, DC 20530", "Washington, DC 20530"),
    ("Registration Unit, Criminal Division, U.S. Department of Justice, Washington, D.C.\n20530. The",
     "Washington, D.C.\n20530"),
    ("to the Office of Management and Budget, Washington, DC 20503.", "Washington, DC 20503"),
    ("Criminal Division, Department of Justice, Washing-\nton, D.C. 20530. The", "Washing-\nton, D.C. 20530"),
    ("Registration Section, Criminal Division, De-\npartment of Justice, Washington, D.C. 20530. The",
     "Washington, D.C. 20530"),
    ("UNITED STATES DEPARTMENT OF JUSTICE Approval Expires October 1941\n\nWASHINGTON, D.C. 20530",
     "WASHINGTON, D.C. 20530"),
    # the header block: the form's title, control number and approval between name and city
    ("U.S. Department of Justice Dissemination Report OMB No. 1105-0006\n\nApproval Expires Nov. 30, "
     "1993\n\nWashington, DC 20530\n\nINSTRUCTIONS", "Washington, DC 20530"),
    # the seat its instructions name after a government's unit, without a ZIP
    ("during the posted business hours of the Registration Unit in Washington, D.C. One copy",
     "Washington, D.C."),
    ("may be inspected at the Registration Unit in Washington, DC. Statements", "Washington, DC."),
])
def test_the_city_line_after_an_authoritys_name_is_found(text, city):
    assert [text[a:b] for a, b in authority_city_lines(text)] == [city]


@pytest.mark.parametrize("text", [
    "Foley, Hoag & Eliot LLP\n1747 Pennsylvania Ave., N.W.\nWashington, D.C. 20006",
    # an office with a street address of its own receives visitors: its address is data
    "Bermuda Department of Tourism, 630 Fifth Avenue, New York, NY 10111",
    # a department named with its town receives visitors there; a company's office is no unit
    "Bermuda Department of Tourism, Atlanta, GA",
    "call our Sales Office in Chicago, IL today",
])
def test_a_filers_or_an_offices_street_address_is_no_authority_line(text):
    assert authority_city_lines(text) == []


@pytest.fixture(scope="module")
def redactor():
    return Redactor(RedactorConfig())


def test_the_default_pipeline_leaves_the_authority_address_and_hides_the_filers(redactor):
    page = _page(["Short Form Registration Statement", "U.S. Department of Justice",
                  "Washington, DC 20530", "1. Name of Registrant", "Foley, Hoag & Eliot LLP",
                  "1747 Pennsylvania Ave., N.W.", "Washington, D.C. 20006"])
    spans = redactor.detect(page)
    authority = page.text.index("Washington, DC 20530")
    assert not [s for s in spans if s.start < authority + 20 and s.end > authority], spans
    filer = page.text.index("Washington, D.C. 20006")
    assert any(s.type == "ADDRESS" and s.start <= filer < s.end for s in spans), spans
    # with the option off, the authority's city line is hidden like any other
    kept = Redactor(RedactorConfig(keep_authority_addresses=True)).detect(page)
    assert [s for s in kept if s.start < authority + 20 and s.end > authority], kept


def test_a_place_found_elsewhere_does_not_bring_the_authority_address_back(redactor):
    """The instructions name the authority's seat in prose ("filed with the Registration
    Unit in Washington, D.C."): neither that nor the authority's city line is anybody's
    data, and hiding the filer's "Washington" elsewhere on the page brings neither back."""
    page = _page(["U.S. Department of Justice", "Washington, DC 20530",
                  "Two copies are filed with the Registration Unit in Washington, D.C. today.",
                  "Foley, Hoag & Eliot LLP", "1747 Pennsylvania Ave., N.W.", "Washington, D.C. 20006"])
    spans = redactor.detect(page)
    for print_ in ("Washington, D.C. today", "Washington, DC 20530"):
        at = page.text.index(print_)
        assert not [s for s in spans if s.start < at + 16 and s.end > at], (print_, spans)
    filer = page.text.index("Washington, D.C. 20006")
    assert any(s.type == "ADDRESS" and s.start <= filer < s.end for s in spans), spans


@pytest.mark.parametrize("text, value, government", [
    # the FARA forms' e-filing site as OCR read it on the real dev pages
    ("filed electronically at http://www. fara.gov. Privacy Act Statement.", "http://www. fara.gov.", True),
    ("at bitps.//www. fara gov. Public Reporting Burden", "bitps.//www. fara", True),
    ("see www.gov.uk/self-assessment for the return", "www.gov.uk/self-assessment", True),
    ("apply at www.canada.gc.ca today", "www.canada.gc.ca", True),
    # a firm's site, a look-alike host, and an official's e-mail are no authority's print
    ("visit www.acme.com Government relations", "www.acme.com", False),
    ("https://www.governance.com/board", "https://www.governance.com/board", False),
    ("write to j.smith@irs.gov now", "j.smith@irs.gov", False),
])
def test_a_governments_web_address_is_the_authoritys(text, value, government):
    start = text.index(value)
    assert is_government_web_address(text, Span(start, start + len(value), "ONLINE_ID")) is government


def test_the_default_pipeline_leaves_the_authoritys_site_and_hides_the_filers(redactor):
    page = _page(["Amendments are filed electronically at http://www.fara.gov.",
                  "Registrant website: https://www.qorvis-msl.com"])
    sites = [s.text for s in redactor.detect(page) if s.type == "ONLINE_ID"]
    assert not [t for t in sites if "fara" in t], sites
    assert [t for t in sites if "qorvis" in t], sites
